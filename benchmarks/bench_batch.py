"""Many games at once: the batched stepper against OpenSpiel's C++ random playout.

Run ``python benchmarks/bench_batch.py``, ``--quick`` for a short run,
``--smoke`` to check in seconds that everything runs (its figures mean
nothing), ``--json`` for machine-readable output, ``--out FILE`` to keep the
JSON, ``--installed`` to measure the installed ``cardrules``.

Rows, each in actions (bids and cards; no deal) per second of CPU time, the
median of several runs, ours and OpenSpiel's interleaved run for run:

* ``kernel``: :class:`cardrules.batch.TrickKernel` with N = 1,024 games of
  one-hand Oh Hell (``bench_engine.ONE_HAND_TEXT``: 4 players, 10 cards,
  turned-up trump, hook), random policy through the public interface:
  ``b.step(b.sample_actions(rng))`` (every action checked legal by ``step``),
  the deals of the next games (auto-reset) included;
* ``kernel_large``: the same with N = 8,192, to show what the per-call
  overhead of numpy costs at 1,024;
* ``kernel_whole``: the kernel on whole games of Oh Hell (the built-in with
  ``tie: shared``: 19 hands, 10 cards down to 1 and back up, 4 players, 512
  actions a game), N = 1,024 (OpenSpiel's ``oh_hell`` plays one hand: no
  peer row);
* ``generic``: :class:`cardrules.batch.GameBatch` (the engine's games, the
  correctness baseline) with N = 64, the same loop;
* ``openspiel``: OpenSpiel's ``oh_hell`` (4 players, 10 tricks) played by its
  C++ random playout, ``pyspiel.evaluate_bots`` with uniform random bots, one
  call a hand (``openspiel_peer`` driver ``"native"``, as
  ``bench_research.py``'s ``playout`` row): 44 actions a hand (4 bids and 40
  cards; chance nodes not counted).

The ratio is the kernel's median over OpenSpiel's, next to the issue's target
(10). Everything runs on one core: numpy's operations here are
single-threaded, and the CPU time is the process's.
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
sys.path.insert(0, str(HERE))
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import bench_engine  # noqa: E402
import numpy as np  # noqa: E402
import openspiel_peer  # noqa: E402

import cardrules  # noqa: E402
from cardrules.batch import GameBatch, TrickKernel  # noqa: E402

#: The issue's target: the kernel's actions per second over OpenSpiel's native playout's.
TARGET = 10.0

#: Actions of one hand of 4 players and 10 cards: 4 bids, 40 cards.
ACTIONS_PER_HAND = 44

#: The run modes: (runs, kernel games per run, generic games, OpenSpiel hands).
MODES: dict[str, tuple[int, int, int, int]] = {
    "full": (7, 40, 3, 20_000),
    "quick": (5, 12, 1, 6_000),
    "smoke": (3, 1, 1, 50),
}

#: (wall seconds, CPU seconds) of one timed run.
Times = tuple[float, float]


def _clock(fn: Callable[[], object]) -> Times:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def time_batch(
    b: TrickKernel | GameBatch, rounds: int, seed: int, per_game: int = ACTIONS_PER_HAND
) -> tuple[Times, int]:
    """``rounds`` whole games of every game of ``b`` (``per_game`` actions
    each), random policy.

    Returns:
        The times and the actions made (games x actions a game).
    """
    rng = np.random.default_rng(seed)
    b.reset(seed)

    def go() -> None:
        ended = 0
        while ended < rounds:
            b.step(b.sample_actions(rng))
            if b.terminated.any():
                ended += 1

    return _clock(go), rounds * b.n * per_game


def rates(what: str, runs: list[tuple[Times, int]]) -> dict[str, Any]:
    cpu = [n / t[1] for t, n in runs]
    wall = [n / t[0] for t, n in runs]
    return {
        "what": what,
        "unit": "actions/s",
        "median": statistics.median(cpu),
        "runs": cpu,
        "median_wall": statistics.median(wall),
        "runs_wall": wall,
    }


def run(mode: str, seed: int) -> dict[str, Any]:
    """Every row, in ``mode`` (a key of :data:`MODES`)."""
    runs, rounds, generic_rounds, hands = MODES[mode]
    variant = cardrules.load_text(bench_engine.ONE_HAND_TEXT)
    kernel = TrickKernel(variant, 1024, players=4, seed=seed)
    large = TrickKernel(variant, 8192, players=4, seed=seed)
    generic = GameBatch(variant, 64, players=4, seed=seed)
    whole_rules = cardrules.load("oh-hell", tie="shared")
    whole = TrickKernel(whole_rules, 1024, players=4, seed=seed)
    per_whole = sum(4 + 4 * h for h in whole_rules.hand_sizes(4))
    have_spiel = openspiel_peer.available()
    # Warm up: numpy's first calls, the engine's tables, OpenSpiel's game.
    time_batch(kernel, 1, seed)
    time_batch(generic, 1, seed)
    if have_spiel:
        openspiel_peer.time_random_hands(20, seed, "native")
    ours: list[tuple[Times, int]] = []
    big: list[tuple[Times, int]] = []
    slow: list[tuple[Times, int]] = []
    games: list[tuple[Times, int]] = []
    theirs: list[tuple[Times, int]] = []
    for i in range(runs):
        ours.append(time_batch(kernel, rounds, seed + i))
        if have_spiel:
            t = openspiel_peer.time_random_hands(hands, seed + i, "native")
            theirs.append((t, hands * ACTIONS_PER_HAND))
        big.append(time_batch(large, max(1, rounds // 8), seed + i))
        slow.append(time_batch(generic, generic_rounds, seed + i))
        games.append(time_batch(whole, 1, seed + i, per_whole))
    rows: dict[str, Any] = {
        "kernel": rates(
            "TrickKernel, N = 1,024, one-hand Oh Hell: step(sample_actions(rng))", ours
        ),
        "kernel_large": rates("  the same, N = 8,192", big),
        "kernel_whole": rates(
            f"TrickKernel, N = 1,024, whole Oh Hell games ({per_whole} actions, ties shared)",
            games,
        ),
        "generic": rates("GameBatch (the engine's games), N = 64, the same loop", slow),
    }
    native = "OpenSpiel oh_hell, native: C++ evaluate_bots, uniform random bots"
    if have_spiel:
        rows["openspiel"] = rates(native, theirs)
        mine, spiel = rows["kernel"], rows["openspiel"]
        q = mine["median"] / spiel["median"]
        rows["ratio"] = {
            "median": q,
            "median_wall": mine["median_wall"] / spiel["median_wall"],
            "runs": [a / b for a, b in zip(mine["runs"], spiel["runs"], strict=True)],
            "target": TARGET,
            "meets_target": q >= TARGET,
        }
    else:
        rows["openspiel"] = {"what": native, "skipped": "open_spiel not installed"}
    return {
        "mode": mode,
        "runs": runs,
        "seed": seed,
        "machine": bench_engine.machine(),
        "rows": rows,
    }


_W = 76


def table(report: dict[str, Any]) -> str:
    m = report["machine"]
    mode = "" if report["mode"] == "full" else f" (--{report['mode']})"
    lines = [
        f"cardrules {m['cardrules']} batch benchmark, {m['date']}",
        f"Python {m['python']} on {m['platform']}, {m['cpu']}, {m['cpus']} CPUs, "
        f"numpy {np.__version__}" + (f", open_spiel {m['open_spiel']}" if m["open_spiel"] else ""),
        f"median of {report['runs']} runs{mode}, interleaved; actions per second of CPU time "
        "(wall time: the `wall` column)",
        f"load average at the start: {m['load_average']}",
        f"engine measured: {m['build']['kind']} ({m['build']['game_module']})",
        "",
        f"{'benchmark':<{_W}} {'median':>12} {'wall':>12}  runs (CPU)",
        "-" * 132,
    ]
    rows = report["rows"]
    for key in ("kernel", "kernel_large", "kernel_whole", "generic", "openspiel"):
        r = rows[key]
        if "skipped" in r:
            lines.append(f"{r['what']:<{_W}} {r['skipped']}")
            continue
        runs = " ".join(bench_engine._fmt(x) for x in r["runs"])
        lines.append(
            f"{r['what']:<{_W}} {bench_engine._fmt(r['median']):>12} "
            f"{bench_engine._fmt(r['median_wall']):>12}  [{runs}]"
        )
    if "ratio" in rows:
        q = rows["ratio"]
        runs = " ".join(f"{x:.2f}" for x in q["runs"])
        label = "  ratio kernel / OpenSpiel native"
        lines.append(f"{label:<{_W}} {q['median']:>12.2f} {q['median_wall']:>12.2f}  [{runs}]")
        verdict = "meets" if q["meets_target"] else "MISSES"
        lines.append(f"  ({verdict} the target of {q['target']:g})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="fewer games and 5 runs")
    modes.add_argument("--smoke", action="store_true", help="a few games, to check that it runs")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--seed", type=int, default=1, help="seed for deals and choices")
    ap.add_argument("--out", metavar="FILE", help="also write the JSON report to FILE")
    ap.add_argument(
        "--installed",
        action="store_true",
        help="measure the installed cardrules (such as a compiled wheel), not this checkout's",
    )
    args = ap.parse_args(argv)
    random.seed(args.seed)
    report = run("smoke" if args.smoke else "quick" if args.quick else "full", args.seed)
    report["command"] = " ".join(["python", "benchmarks/bench_batch.py", *sys.argv[1:]])
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
