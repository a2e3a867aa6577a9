"""Environment benchmarks: what one action costs through the learning APIs
(PettingZoo AEC and parallel environments, the single-seat Gymnasium
environment) next to the bare engine loop.

Run ``python benchmarks/bench_envs.py``; ``--quick`` for a short run,
``--smoke`` to check in seconds that everything runs (its figures mean
nothing), ``--json`` for machine-readable output. Every loop plays whole games
with a random policy (the legal move drawn from the action mask with one
``numpy`` generator); each figure is the median, over several runs, of the CPU
time per action in microseconds, and ``x bare`` is that over the bare loop's
(``legal_action_ids`` then ``apply_action``, the same games).
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

import numpy as np  # noqa: E402

import cardrules  # noqa: E402

#: mode: (runs, actions per run: whole games until at least that many)
MODES: dict[str, tuple[int, int]] = {"full": (7, 20_000), "quick": (5, 4_000), "smoke": (1, 1)}

#: (label, variant, players): a trick game with bidding, Hearts with passing,
#: a shedding game.
GAMES: tuple[tuple[str, Callable[[], cardrules.Variant], int], ...] = (
    ("oh-hell (one hand of 7)", lambda: cardrules.load("oh-hell", hands="list 7", tie="shared"), 4),
    ("hearts", lambda: cardrules.load("hearts"), 4),
    ("kazhutha", lambda: cardrules.load("kazhutha"), 4),
)


def bare(variant: cardrules.Variant, players: int, seeds: range) -> int:
    """The engine alone: ``legal_action_ids`` then ``apply_action``."""
    rng = random.Random(0)
    n = 0
    for seed in seeds:
        game = cardrules.Game(variant, players, seed=seed)
        while not game.is_over:
            legal = game.legal_action_ids()
            game.apply_action(legal[int(rng.random() * len(legal))])
            n += 1
    return n


def aec(variant: cardrules.Variant, players: int, seeds: range) -> int:
    """PettingZoo's AEC loop: ``agent_iter``, ``last``, ``step``."""
    from cardrules import pettingzoo as cz

    env = cz.env(variant, players=players)
    rng = np.random.default_rng(0)
    n = 0
    for seed in seeds:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
    return n


def parallel(variant: cardrules.Variant, players: int, seeds: range) -> int:
    """PettingZoo's parallel loop: one ``step`` of every agent's action."""
    from cardrules import pettingzoo as cz

    env = cz.parallel_env(variant, players=players)
    rng = np.random.default_rng(0)
    n = 0
    for seed in seeds:
        observations, _infos = env.reset(seed=seed)
        while env.agents:
            actions = {}
            for agent, obs in observations.items():
                legal = np.flatnonzero(obs["action_mask"])
                if len(legal):
                    actions[agent] = int(legal[rng.integers(len(legal))])
                    n += 1
                else:
                    actions[agent] = 0
            observations, *_ = env.step(actions)
    return n


def gym(variant: cardrules.Variant, players: int, seeds: range) -> int:
    """The Gymnasium environment of seat 0 against random bots (the bots'
    actions are counted: the figure is per action of the game)."""
    from cardrules.gymnasium import CardrulesEnv

    env = CardrulesEnv(variant, players=players, opponents="random")
    rng = np.random.default_rng(0)
    n = 0
    for seed in seeds:
        _obs, info = env.reset(seed=seed)
        start = env.game.version
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _obs, _r, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            done = terminated or truncated
        n += env.game.version - start
    return n


LOOPS: dict[str, Callable[[cardrules.Variant, int, range], int]] = {
    "bare": bare,
    "aec": aec,
    "parallel": parallel,
    "gym": gym,
}


def measure(
    loop: Callable[[cardrules.Variant, int, range], int],
    variant: cardrules.Variant,
    players: int,
    runs: int,
    budget: int,
) -> dict[str, Any]:
    """The median CPU microseconds per action of ``loop`` over ``runs`` runs,
    each of enough whole games for ``budget`` actions (as the first game of
    the warm-up, which also loads imports, tables and caches, counts them)."""
    first = loop(variant, players, range(1000, 1001))
    games = max(1, -(-budget // max(first, 1)))
    per: list[float] = []
    actions = 0
    for r in range(runs):
        t = time.process_time()
        actions = loop(variant, players, range(r * games, (r + 1) * games))
        per.append((time.process_time() - t) / max(actions, 1) * 1e6)
    return {"us_per_action": statistics.median(per), "actions_per_run": actions}


def run(mode: str, only: list[str] | None = None) -> dict[str, Any]:
    """Every loop on every game of :data:`GAMES`."""
    runs, budget = MODES[mode]
    loops = {k: f for k, f in LOOPS.items() if only is None or k in only or k == "bare"}
    rows = []
    for label, make, players in GAMES:
        variant = make()
        row: dict[str, Any] = {"game": label, "players": players}
        for key, loop in loops.items():
            try:
                row[key] = measure(loop, variant, players, runs, budget)
            except ImportError as e:  # an environment this checkout does not have
                row[key] = {"error": str(e)}
        base = row["bare"]["us_per_action"]
        for key in loops:
            if "us_per_action" in row[key]:
                row[key]["x_bare"] = row[key]["us_per_action"] / base
        rows.append(row)
    return {"mode": mode, "runs": runs, "actions_per_run": budget, "rows": rows}


def _table(report: dict[str, Any]) -> str:
    lines = [
        f"CPU microseconds per action, median of {report['runs']} runs "
        f"of whole games, at least {report['actions_per_run']} actions a run "
        "(x bare: over the bare engine loop)"
    ]
    for row in report["rows"]:
        lines.append(f"{row['game']}, {row['players']} players:")
        for key in LOOPS:
            cell = row.get(key)
            if cell is None:
                continue
            if "error" in cell:
                lines.append(f"  {key:9} -- {cell['error']}")
            else:
                lines.append(
                    f"  {key:9} {cell['us_per_action']:8.1f} us  x{cell['x_bare']:5.2f} bare"
                    f"  ({cell['actions_per_run']} actions a run)"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table (or JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="shorter runs")
    modes.add_argument("--smoke", action="store_true", help="one game, to check that it runs")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--only", nargs="*", choices=sorted(LOOPS), help="these loops (and bare)")
    ap.add_argument(
        "--installed",
        action="store_true",
        help="measure the installed cardrules, not this checkout's",
    )
    args = ap.parse_args(argv)
    report = run("smoke" if args.smoke else "quick" if args.quick else "full", args.only)
    print(json.dumps(report, indent=2) if args.json else _table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
