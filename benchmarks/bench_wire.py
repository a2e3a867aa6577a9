"""Wire benchmarks: what one call costs of everything a server sends or stores
after a move (views, their JSON, a seat's events, saves, take-backs).

Run ``python benchmarks/bench_wire.py``, ``--quick`` for a short run,
``--smoke`` to check in seconds that everything runs (its figures mean
nothing), ``--json`` for machine-readable output. Every figure is the median,
over several runs (7, 5 with ``--quick``, 3 with ``--smoke``), of the CPU time
of one call in microseconds; each run times a batch of calls, and the runs are
in ``--json``.

Two games are measured, both seeded and played with random legal actions:

* ``oh_hell``: a mid-game one-hand Oh Hell game (the hand of
  ``bench_engine.ONE_HAND_TEXT``: 4 players, 10 cards, turned-up trump, hook),
  after the bids and 5 of the 10 tricks. The issue's target is below
  :data:`TARGET_US` microseconds a call for each of its rows;
* ``kachuful``: a finished game of the built-in ``kachuful`` (4 players, 19
  hands, and any tie-break hands: a long log).

For each game, one row a call:

* ``view(seat)``, ``view(seat).to_dict()``, ``view(seat).to_json()``
  (each seat in turn);
* ``events_for(seat)``, and ``events_for(seat, since=N)`` for the last entries
  a client has not seen (the stream after its entries but the last
  :data:`SINCE_BACK`), when ``events_for`` takes ``since``; every call is
  warmed once for each seat before the clock starts, so an engine that keeps
  each seat's stream is timed reading it, not building it;
* ``to_json()``;
* ``Game.from_json(text)`` (the rules read from the save's own text, as a
  process that has restored a game of that variant before), the same with the
  process's parsed-variant cache emptied before each call (the first restore of
  a variant in a process: its rules text parsed and checked), when the engine
  has such a cache, and ``Game.from_json(text, variant=v)`` (a server that
  enforces its own rules);
* ``undo()`` of the last action, on copies made before the clock starts, when
  the game has ``undo``.

A row whose method the engine does not have yet says ``not available``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# The checkout's sources, unless --installed: then the cardrules installed in
# this Python (such as a wheel built with CARDRULES_COMPILE=1) is measured.
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import bench_engine  # noqa: E402

import cardrules  # noqa: E402

#: The issue's target for each call on the mid-game one-hand Oh Hell game.
TARGET_US = 100.0

#: ``events_for(seat, since=N)`` is timed with N this many entries before the
#: end of the seat's stream (about what one trick adds).
SINCE_BACK = 5

#: The run modes: (runs, CPU seconds a run aims at).
MODES: dict[str, tuple[int, float]] = {
    "full": (7, 0.05),
    "quick": (5, 0.02),
    "smoke": (3, 0.001),
}


# --------------------------------------------------------------------------- the games


def mid_game_oh_hell(seed: int) -> cardrules.Game:
    """One-hand Oh Hell, 4 players, after the bids and 5 of its 10 tricks."""
    v = cardrules.load_text(bench_engine.ONE_HAND_TEXT)
    g = cardrules.Game(v, players=4, seed=seed)
    rng = random.Random(seed)
    bench_engine.advance(g, rng, lambda: g.phase == "play" and sum(g.tricks_won) >= 5)
    return g


def finished_kachuful(seed: int) -> cardrules.Game:
    """A whole game of the built-in Kachuful, 4 players, played to its end."""
    g = cardrules.Game(cardrules.load("kachuful"), players=4, seed=seed)
    bench_engine.play_out(g, random.Random(seed))
    return g


# --------------------------------------------------------------------------- timing


def _batch(call: Callable[[], object], calls: int) -> float:
    """CPU seconds of ``calls`` calls."""
    start = time.process_time()
    for _ in range(calls):
        call()
    return time.process_time() - start


def per_call(call: Callable[[], object], runs: int, budget: float, warm: int = 1) -> dict[str, Any]:
    """Microseconds a call: the median of ``runs`` runs of a batch of calls
    sized (after ``warm`` warm-up calls, one for each seat the calls go round)
    so that a run takes about ``budget`` CPU seconds."""
    for _ in range(warm):
        call()
    calls = 1
    while True:
        t = _batch(call, calls)
        if t >= budget / 4 or calls >= 1_000_000:
            break
        calls *= 4
    calls = max(1, int(calls * budget / max(t, 1e-9)))
    us = [_batch(call, calls) / calls * 1e6 for _ in range(runs)]
    return {"median_us": statistics.median(us), "runs_us": us, "calls": calls}


def per_undo(game: cardrules.Game, runs: int, budget: float) -> dict[str, Any]:
    """Microseconds an ``undo()`` of the game's last action, each on a copy
    made before the clock starts (a batch of copies a run)."""
    one = game.clone()
    start = time.process_time()
    one.undo()  # type: ignore[attr-defined]
    t = max(time.process_time() - start, 1e-7)
    calls = max(1, min(200_000, int(budget / t)))
    us = []
    for _ in range(runs):
        copies = [game.clone() for _ in range(calls)]
        start = time.process_time()
        for c in copies:
            c.undo()  # type: ignore[attr-defined]
        us.append((time.process_time() - start) / calls * 1e6)
    return {"median_us": statistics.median(us), "runs_us": us, "calls": calls}


def _takes_since() -> bool:
    try:
        return "since" in inspect.signature(cardrules.Game.events_for).parameters
    except (TypeError, ValueError):
        return False


def _variant_cache_clear() -> Callable[[], None] | None:
    """The engine's way to empty its cache of variants parsed from saves, if any."""
    from cardrules.engine.state import saves

    clear = getattr(saves, "_clear_variant_cache", None)
    return clear if callable(clear) else None


def measure(game: cardrules.Game, runs: int, budget: float) -> dict[str, Any]:
    """Every row for one game (a dict of row key -> figures, or ``skipped``)."""
    n = game.players
    seats = [0]

    def next_seat() -> int:
        s = seats[0]
        seats[0] = (s + 1) % n
        return s

    v = game.variant
    text = game.to_json()
    rows: dict[str, Any] = {}

    def row(key: str, what: str, call: Callable[[], object] | None, why: str = "") -> None:
        if call is None:
            rows[key] = {"what": what, "skipped": why or "not available"}
        else:
            rows[key] = {"what": what, **per_call(call, runs, budget, warm=n)}

    row("view", "view(seat)", lambda: game.view(next_seat()))
    row("view_to_dict", "view(seat).to_dict()", lambda: game.view(next_seat()).to_dict())
    row("view_to_json", "view(seat).to_json()", lambda: game.view(next_seat()).to_json())
    row("events_for", "events_for(seat)", lambda: game.events_for(next_seat()))
    if _takes_since():
        ends = [len(game.events_for(s)) for s in range(n)]
        since = [max(0, e - SINCE_BACK) for e in ends]
        ef: Any = game.events_for

        def since_call() -> object:
            s = next_seat()
            return ef(s, since=since[s])

        row("events_for_since", f"events_for(seat, since=len - {SINCE_BACK})", since_call)
    else:
        row("events_for_since", f"events_for(seat, since=len - {SINCE_BACK})", None)
    row("to_json", "to_json()", game.to_json)
    from_json = cardrules.Game.from_json
    row("from_json", "Game.from_json(text)", lambda: from_json(text))
    clear = _variant_cache_clear()
    if clear is None:
        row("from_json_cold", "Game.from_json(text), variant cache emptied", None, "no cache")
    else:

        def cold() -> object:
            clear()
            return from_json(text)

        row("from_json_cold", "Game.from_json(text), variant cache emptied", cold)
    row("from_json_variant", "Game.from_json(text, variant=v)", lambda: from_json(text, v))
    if hasattr(game, "undo"):
        rows["undo"] = {"what": "undo() of the last action", **per_undo(game, runs, budget)}
    else:
        rows["undo"] = {"what": "undo() of the last action", "skipped": "not available"}
    return rows


def describe(game: cardrules.Game) -> dict[str, Any]:
    text = game.to_json()
    return {
        "variant": game.variant.name,
        "players": game.players,
        "hand_number": game.hand_number,
        "phase": game.phase,
        "events": len(game.events),
        "actions": len(json.loads(text)["actions"]),
        "save_bytes": len(text.encode("utf-8")),
    }


def run(mode: str, seed: int) -> dict[str, Any]:
    runs, budget = MODES[mode]
    games = {
        "oh_hell": (
            "mid-game one-hand Oh Hell (4 players, after the bids and 5 of 10 tricks)",
            mid_game_oh_hell(seed),
        ),
        "kachuful": ("finished Kachuful (4 players)", finished_kachuful(seed)),
    }
    results: dict[str, Any] = {}
    for key, (what, game) in games.items():
        results[key] = {"what": what, **describe(game), "rows": measure(game, runs, budget)}
    for r in results["oh_hell"]["rows"].values():
        if "median_us" in r:
            r["meets_target"] = r["median_us"] < TARGET_US
    return {
        "machine": bench_engine.machine(),
        "mode": mode,
        "runs": runs,
        "seed": seed,
        "target_us": TARGET_US,
        "results": results,
    }


# --------------------------------------------------------------------------- output


def _fmt(x: float) -> str:
    return f"{x:,.1f}" if x < 1000 else f"{x:,.0f}"


_W = 46


def table(report: dict[str, Any]) -> str:
    m = report["machine"]
    mode = "" if report["mode"] == "full" else f" (--{report['mode']})"
    lines = [
        f"cardrules {m['cardrules']} wire benchmark, {m['date']}",
        f"Python {m['python']} on {m['platform']}, {m['cpu']}, {m['cpus']} CPUs",
        f"median of {report['runs']} runs{mode}; microseconds of CPU time a call",
        f"load average at the start: {m['load_average']}",
        f"engine measured: {m['build']['kind']} ({m['build']['game_module']})",
    ]
    for key, g in report["results"].items():
        lines += [
            "",
            f"{g['what']}: {g['variant']}, hand {g['hand_number']}, {g['phase']}, "
            f"{g['events']:,} events, {g['actions']:,} actions, save {g['save_bytes']:,} bytes",
            f"{'call':<{_W}} {'median µs':>10}  {'calls':>7}  runs",
            "-" * 110,
        ]
        for r in g["rows"].values():
            if "skipped" in r:
                lines.append(f"{r['what']:<{_W}} {r['skipped']:>10}")
                continue
            runs = " ".join(_fmt(x) for x in r["runs_us"])
            mark = ""
            if key == "oh_hell" and not r["meets_target"]:
                mark = f"  (over the {report['target_us']:.0f} µs target)"
            lines.append(
                f"{r['what']:<{_W}} {_fmt(r['median_us']):>10}  {r['calls']:>7,}  [{runs}]{mark}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="shorter runs, 5 of them")
    modes.add_argument(
        "--smoke", action="store_true", help="a few calls of each, to check that it all runs"
    )
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--seed", type=int, default=1, help="seed for deals and choices")
    ap.add_argument("--out", metavar="FILE", help="also write the JSON report to FILE")
    ap.add_argument(
        "--installed",
        action="store_true",
        help="measure the installed cardrules (such as a compiled wheel), not this checkout's",
    )
    args = ap.parse_args(argv)
    report = run("smoke" if args.smoke else "quick" if args.quick else "full", args.seed)
    report["command"] = " ".join(["python", "benchmarks/bench_wire.py", *sys.argv[1:]])
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
