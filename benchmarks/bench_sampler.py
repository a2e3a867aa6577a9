"""The world sampler's cost through a Kachuful game, against OpenSpiel's resampler.

Run ``python benchmarks/bench_sampler.py`` (``--quick`` for a short run,
``--smoke`` to check that it runs, ``--json`` for machine-readable output,
``--installed`` to measure the installed ``cardrules``).

For hands 1, 6 and 19 of a 4-player Kachuful game, a pool of positions is
drawn (random games stopped in that hand after the bids and 0 to most of its
cards played) and ``Game.sample_world(seat to act, rng)`` is timed on each,
each call on a fresh copy of its position made before the clock starts (a
copy keeps no event stream: the call builds the seat's), in two ways:

* ``cold``: the sampler's caches (what the current hand's plays revealed, the
  past hands read, the hand's problem built, the opening) are emptied before each call
  (untimed), as for the first call on a game never sampled;
* ``warm``: a second call on the same copy, after a first one untimed (as for
  a search bot's second and later worlds of a decision).

The reference sampler (``sample_world_replay``: every hand dealt again and
replayed) is timed on the same positions. OpenSpiel's
``State.resample_from_infostate`` on ``oh_hell`` mid-hand (4 players, 10
cards: the positions of ``bench_research.py``) is timed in the same run,
interleaved run for run, and each row's ratio (ours / OpenSpiel, calls per
second of CPU) printed; the targets are 0.2 of OpenSpiel's rate at every hand
and hand 19 within twice hand 1's cost.
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
import bench_research  # noqa: E402
import openspiel_peer  # noqa: E402

import cardrules  # noqa: E402
from cardrules.engine.search import worlds  # noqa: E402

#: The hands measured (1-based) and the target ratio to OpenSpiel.
HANDS = (1, 6, 19)
TARGET = 0.2
#: The run modes: (runs, positions a hand, calls of the reference sampler a hand).
MODES: dict[str, tuple[int, int, int]] = {
    "full": (7, 200, 20),
    "quick": (5, 80, 8),
    "smoke": (3, 6, 2),
}

Times = tuple[float, float]


def _clock(fn: Callable[[], object]) -> Times:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def kachuful_positions(hand: int, count: int, seed: int) -> list[cardrules.Game]:
    """``count`` 4-player Kachuful games stopped in hand ``hand`` (1-based),
    after the bids and a random number of its cards played."""
    variant = cardrules.load("kachuful")
    rng = random.Random(seed * 7919 + hand)
    out: list[cardrules.Game] = []
    while len(out) < count:
        g = cardrules.Game(variant, 4, seed=rng.getrandbits(32))
        while not g.is_over and g.hand_number < hand:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        if g.is_over:
            continue
        while g.phase != "play":
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        cards = rng.randrange(4 * g.hand_size - 3)
        for _ in range(cards):
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        if g.hand_number == hand and g.phase == "play":
            out.append(g)
    return out


def _calls(
    positions: list[cardrules.Game],
    sampler: Callable[[cardrules.Game, int, random.Random], object],
    rng: random.Random,
    cold: bool,
    warm: bool = False,
) -> Times:
    """One call of ``sampler`` on a fresh copy of each position (copies made
    before the clock): with ``cold``, the caches emptied before the call; with
    ``warm``, after a first call on the same copy (untimed)."""
    copies = [g.clone() for g in positions]
    wall = cpu = 0.0
    for g in copies:
        seat = g.to_act
        assert seat is not None
        if cold:
            _forget()
        elif warm:
            sampler(g, seat, rng)  # the decision's first world (untimed)
        w0, c0 = time.perf_counter(), time.process_time()
        sampler(g, seat, rng)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
    return wall, cpu


def _forget() -> None:
    """Empty the present sampler's caches (what a hand's plays revealed, the
    past hands read, the problems built, the first dealer and cuts)."""
    worlds._FORBID.clear()
    worlds._PAST.clear()
    worlds._PLANS.clear()
    worlds._OPENING.clear()


def _rate(what: str, size: int, times: list[Times]) -> dict[str, Any]:
    return bench_engine.rates(what, "calls/s", size, times)


def run(mode: str, seed: int) -> dict[str, Any]:
    runs, count, slow = MODES[mode]
    have_spiel = openspiel_peer.available()
    rows: dict[str, Any] = {}
    spiel_times: list[Times] = []
    spiel_pos: list[Any] = []
    sampler: Any = None
    if have_spiel:
        import pyspiel

        spiel_pos = bench_research.spiel_positions(count, seed)
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)

    def theirs() -> Times:
        copies = [s.clone() for s in spiel_pos]
        return _clock(
            lambda: [s.resample_from_infostate(s.current_player(), sampler) for s in copies]
        )

    positions = {h: kachuful_positions(h, count, seed) for h in HANDS}
    rng = random.Random(seed)
    fast = worlds.sample_world
    ref = worlds.sample_world_replay
    times: dict[str, list[Times]] = {}
    for _ in range(runs):
        for h in HANDS:
            pos = positions[h]
            times.setdefault(f"cold {h}", []).append(_calls(pos, fast, rng, True))
            times.setdefault(f"warm {h}", []).append(_calls(pos, fast, rng, False, True))
            times.setdefault(f"replay {h}", []).append(_calls(pos[:slow], ref, rng, False))
        if have_spiel:
            spiel_times.append(theirs())
    for h in HANDS:
        for kind, size in (("cold", count), ("warm", count), ("replay", slow)):
            label = {
                "cold": "sample_world, cold (caches emptied: a game never sampled)",
                "warm": "sample_world, warm (later calls at a decision)",
                "replay": "sample_world_replay (the reference)",
            }[kind]
            rows[f"{kind} {h}"] = _rate(f"Kachuful hand {h}: {label}", size, times[f"{kind} {h}"])
    report: dict[str, Any] = {
        "machine": bench_engine.machine(),
        "mode": mode,
        "runs": runs,
        "rows": rows,
    }
    if have_spiel:
        spiel = _rate("OpenSpiel oh_hell resample_from_infostate, mid-hand", count, spiel_times)
        report["openspiel"] = spiel
        for row in rows.values():
            row["ratio"] = statistics.median(
                a / b for a, b in zip(row["runs"], spiel["runs"], strict=True)
            )
    for kind in ("cold", "warm"):
        first = rows[f"{kind} 1"]["median"]
        report[f"{kind} hand 19 cost / hand 1 cost"] = first / rows[f"{kind} 19"]["median"]
    return report


def table(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        f"cardrules {m['cardrules']} sampler benchmark ({report['mode']}), {m['date']}",
        f"Python {m['python']}, {m['cpu']}, engine {m['build']['kind']}",
        f"median of {report['runs']} runs; calls per second of CPU time; "
        "ratio: ours / OpenSpiel's in the same run (target >= "
        f"{TARGET}); cost per call in microseconds",
        "",
        f"{'row':<76} {'calls/s':>10} {'us/call':>9} {'ratio':>7}",
        "-" * 106,
    ]
    spiel = report.get("openspiel")
    if spiel is not None:
        lines.append(f"{spiel['what']:<76} {spiel['median']:>10,.0f} {1e6 / spiel['median']:>9.1f}")
    for row in report["rows"].values():
        ratio = f"{row['ratio']:>7.3f}" if "ratio" in row else ""
        lines.append(
            f"{row['what']:<76} {row['median']:>10,.0f} {1e6 / row['median']:>9.1f} {ratio}"
        )
    for kind in ("cold", "warm"):
        key = f"{kind} hand 19 cost / hand 1 cost"
        lines.append(f"{key}: {report[key]:.2f} (target <= 2)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true")
    modes.add_argument("--smoke", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--installed", action="store_true")
    args = ap.parse_args(argv)
    report = run("smoke" if args.smoke else "quick" if args.quick else "full", args.seed)
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
