"""Decisions without views: what a bot's decision costs through the drivers.

Run ``python benchmarks/bench_decisions.py``, ``--quick`` for a short run,
``--smoke`` to check in seconds that everything runs (its figures mean
nothing), ``--json`` for machine-readable output, ``--installed`` to measure
the installed ``cardrules`` (such as a wheel compiled with mypyc) rather than
this checkout's.

Two parts, on Kachuful (4 players, 19 hands: 10 cards down to 1 and back up):

* **Whole games, actions per second** (CPU time, medians of runs
  interleaved so that every row sees the same machine load): the bare loop
  ``g.apply(rng.choice(g.legal_actions()), g.to_act)``, against
  ``play_game`` with random bots (which decide from a seat's
  :class:`~cardrules.engine.views.context.DecisionContext`), and with the same
  bots shown a whole view at each decision (a bot with only ``choose(view)``:
  the drivers' path before contexts); the same for the heuristic bot. The
  target: the random bot through ``play_game`` at half the bare loop's rate
  or better.
* **Search bots, CPU ms per decision**: :class:`PIMCBot` and
  :class:`ISMCTSBot` at their default budgets, seat 0 of a game the
  heuristic bot plays to the start of hands 1, 6, 14 and 19, every decision
  of seat 0 in that hand that has more than one legal action (the others
  are not searched), the heuristic bot playing the other seats.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import cardrules  # noqa: E402
from cardrules.bots import (  # noqa: E402
    HeuristicBot,
    ISMCTSBot,
    PIMCBot,
    RandomBot,
    decide,
    play_game,
)

#: The variant and table of every row.
VARIANT = "kachuful"
PLAYERS = 4

#: The hands the search bots are timed at.
HANDS = (1, 6, 14, 19)

#: The run modes: (runs, games per run, hands timed per search bot).
MODES: dict[str, tuple[int, int, tuple[int, ...]]] = {
    "full": (7, 6, HANDS),
    "quick": (5, 2, HANDS),
    "smoke": (3, 1, (1,)),  # search bots with tiny budgets
}


class ViewOnly:
    """A bot shown a whole view at each decision (it has only ``choose``)."""

    def __init__(self, bot: Any) -> None:
        self._bot = bot

    def choose(self, view: Any) -> Any:
        """The wrapped bot's choice from the view."""
        return self._bot.choose(view)


def _bare(variant: cardrules.Variant, seed: int) -> int:
    g = cardrules.Game(variant, PLAYERS, seed=seed)
    choice = random.Random(seed).choice
    n = 0
    while not g.is_over:
        g.apply(choice(g.legal_actions()), g.to_act)
        n += 1
    return n


def _bots(variant: cardrules.Variant, seed: int, make: Callable[[int], Any]) -> int:
    g = cardrules.Game(variant, PLAYERS, seed=seed)
    play_game(g, [make(seed * 10 + s) for s in range(PLAYERS)])
    return g.version


def games(runs: int, per_run: int) -> dict[str, Any]:
    """Actions per second of whole games, each row's CPU median over ``runs``."""
    variant = cardrules.load(VARIANT)
    rows: dict[str, Callable[[int], int]] = {
        "bare loop: apply(choice(legal_actions()))": lambda s: _bare(variant, s),
        "play_game, random bots (context)": lambda s: _bots(variant, s, RandomBot),
        "play_game, random bots (whole view)": lambda s: _bots(
            variant, s, lambda x: ViewOnly(RandomBot(x))
        ),
        "play_game, heuristic bots (context)": lambda s: _bots(variant, s, HeuristicBot),
        "play_game, heuristic bots (whole view)": lambda s: _bots(
            variant, s, lambda x: ViewOnly(HeuristicBot(x))
        ),
    }
    cpu: dict[str, list[float]] = {k: [] for k in rows}
    actions: dict[str, int] = dict.fromkeys(rows, 0)
    for _ in range(runs):
        for label, play in rows.items():
            t = time.process_time()
            n = sum(play(i) for i in range(per_run))
            cpu[label].append(time.process_time() - t)
            actions[label] = n  # the same games (seeds) in every run
    out: dict[str, Any] = {}
    for label in rows:
        med = statistics.median(cpu[label])
        out[label] = {"actions": actions[label], "cpu_s": med, "rate": actions[label] / med}
    return out


def _to_hand(variant: cardrules.Variant, hand: int, seed: int) -> cardrules.Game:
    """A game the heuristic bot plays to the first action of ``hand``."""
    g = cardrules.Game(variant, PLAYERS, seed=seed)
    bots = [HeuristicBot(s) for s in range(PLAYERS)]
    while not g.is_over and g.hand_number < hand:
        seat = g.to_act
        assert seat is not None
        g.apply(decide(bots[seat], g, seat), seat)
    return g


def search(hands: tuple[int, ...], seed: int, smoke: bool = False) -> list[dict[str, Any]]:
    """CPU ms per searched decision of seat 0 at each of ``hands`` (tiny
    budgets when ``smoke``: it only checks that the rows run)."""
    variant = cardrules.load(VARIANT)
    out: list[dict[str, Any]] = []
    makers: tuple[tuple[str, Callable[[int], Any]], ...] = (
        ("pimc", PIMCBot),
        ("ismcts", ISMCTSBot),
    )
    if smoke:
        makers = (
            ("pimc", lambda s: PIMCBot(s, worlds=1)),
            ("ismcts", lambda s: ISMCTSBot(s, iterations=4, worlds=1)),
        )
    for name, make in makers:
        for hand in hands:
            g = _to_hand(variant, hand, seed)
            bot = make(seed)
            others = [HeuristicBot(s) for s in range(PLAYERS)]
            times: list[float] = []
            while not g.is_over and g.hand_number == hand:
                seat = g.to_act
                assert seat is not None
                if seat != 0:
                    g.apply(decide(others[seat], g, seat), seat)
                    continue
                searched = len(g.legal_actions(0)) > 1
                t = time.process_time()
                a = decide(bot, g, 0)
                if searched:
                    times.append(1000 * (time.process_time() - t))
                g.apply(a, 0)
            out.append(
                {
                    "bot": name,
                    "hand": hand,
                    "decisions": len(times),
                    "mean_ms": statistics.fmean(times) if times else 0.0,
                    "max_ms": max(times, default=0.0),
                }
            )
    return out


def _build() -> str:
    from cardrules.engine import game

    return "pure Python" if game.__file__.endswith(".py") else "compiled with mypyc"


def table(report: dict[str, Any]) -> str:
    """The report as text."""
    lines = [f"cardrules decisions benchmark: {VARIANT}, {PLAYERS} players, {report['build']}"]
    rows = report["games"]
    bare = rows["bare loop: apply(choice(legal_actions()))"]["rate"]
    lines.append(f"{'whole games':<44}{'actions':>9}{'CPU s':>9}{'actions/s':>12}{'/ bare':>9}")
    for label, r in rows.items():
        lines.append(
            f"{label:<44}{r['actions']:>9}{r['cpu_s']:>9.3f}{r['rate']:>12,.0f}"
            f"{r['rate'] / bare:>9.3f}"
        )
    lines.append("target: random bots (context) / bare >= 0.5")
    lines.append("")
    lines.append(f"{'search bot':<12}{'hand':>6}{'decisions':>11}{'mean ms':>10}{'max ms':>10}")
    for r in report["search"]:
        lines.append(
            f"{r['bot']:<12}{r['hand']:>6}{r['decisions']:>11}{r['mean_ms']:>10.1f}"
            f"{r['max_ms']:>10.1f}"
        )
    lines.append("(CPU ms per decision of seat 0 with more than one legal action, default budgets)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table (or JSON)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--installed", action="store_true")
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    mode = "smoke" if a.smoke else "quick" if a.quick else "full"
    runs, per_run, hands = MODES[mode]
    report = {
        "build": _build(),
        "mode": mode,
        "games": games(runs, per_run),
        "search": search(hands, a.seed, smoke=mode == "smoke"),
    }
    print(json.dumps(report, indent=1) if a.json else table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
