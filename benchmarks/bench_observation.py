"""Observation benchmarks: what one ``observation(seat)`` and one
``action_mask(seat)`` cost, next to the ``view(seat)`` they are built from.

Run ``python benchmarks/bench_observation.py``, ``--quick`` for a short run,
``--smoke`` to check in seconds that everything runs (its figures mean
nothing), ``--json`` for machine-readable output. The game is
``bench_wire``'s mid-game one-hand Oh Hell (4 players, 10 cards, after the bids
and 5 of the 10 tricks), the seats taken in turn; every figure is the median,
over several runs, of the CPU time of one call in microseconds.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import bench_wire  # noqa: E402


def run(mode: str, seed: int) -> dict[str, Any]:
    runs, budget = bench_wire.MODES[mode]
    game = bench_wire.mid_game_oh_hell(seed)
    n = game.players
    seats = [0]

    def next_seat() -> int:
        s = seats[0]
        seats[0] = (s + 1) % n
        return s

    calls: dict[str, Any] = {
        "view": ("view(seat)", lambda: game.view(next_seat())),
        "observation": ("observation(seat)", lambda: game.observation(next_seat())),
        "action_mask": ("action_mask(seat)", lambda: game.action_mask(next_seat())),
    }
    try:
        import numpy  # noqa: F401

        calls["observation_numpy"] = (
            "observation(seat, numpy=True)",
            lambda: game.observation(next_seat(), numpy=True),
        )
    except ImportError:
        pass
    rows = {
        key: {"what": what, **bench_wire.per_call(call, runs, budget, warm=n)}
        for key, (what, call) in calls.items()
    }
    return {
        "mode": mode,
        "runs": runs,
        "seed": seed,
        "length": len(game.observation(0)),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="shorter runs, 5 of them")
    modes.add_argument("--smoke", action="store_true", help="a few calls, to check that it runs")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--seed", type=int, default=1, help="seed for deals and choices")
    ap.add_argument(
        "--installed",
        action="store_true",
        help="measure the installed cardrules, not this checkout's",
    )
    args = ap.parse_args(argv)
    report = run("smoke" if args.smoke else "quick" if args.quick else "full", args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"mid-game one-hand Oh Hell, observation length {report['length']}")
        for r in report["rows"].values():
            print(f"{r['what']:<32} {r['median_us']:9.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
