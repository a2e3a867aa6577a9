"""How long does a game of Kazhutha run? Random legal play, many seeded games.

A shedding game with pick-ups has no obvious bound on its length, so this
measures it: for each player count it plays ``--games`` games of a shedding
variant (``kazhutha`` by default) where every seat picks uniformly at random
among its legal cards, and reports the median, the 99th percentile and the
maximum number of tricks (dead tricks and pick-ups both count as tricks).
Every game is bounded by ``--max-tricks``; games that reach the bound are
counted as unfinished (and left out of the length figures).

Game ``i`` for ``n`` players is dealt from seed ``i`` and played by a
``random.Random(1_000_003 * n + i)``, so the figures do not depend on how
the games are split between worker processes.

Usage::

    python benchmarks/bench_shedding.py                     # 10,000 games for 3, 4, 6, 8
    python benchmarks/bench_shedding.py --jobs 2 --json out.json
    python benchmarks/bench_shedding.py --games 500 --players 4   # quick look
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

import cardrules
from cardrules.engine import Game


def play_games(variant: str, players: int, start: int, stop: int, max_tricks: int) -> Counter[int]:
    """Play games ``start`` to ``stop - 1``; return their lengths in tricks
    (``-1`` counts the games stopped by ``max_tricks``)."""
    v = cardrules.load(variant)
    lengths: Counter[int] = Counter()
    for i in range(start, stop):
        g = Game(v, players=players, seed=i, max_tricks=max_tricks)
        rng = random.Random(1_000_003 * players + i)
        legal = g.legal_actions
        apply = g.apply
        choice = rng.choice
        while not g.is_over:
            apply(choice(legal()))
        res = g.result
        assert res is not None
        if not res.finished:
            lengths[-1] += 1
            continue
        tricks = sum(1 for ev in g.events if ev[0] in ("dead", "pickup"))
        lengths[tricks] += 1
    return lengths


def percentile(sorted_values: list[int], q: float) -> int:
    """The nearest-rank ``q`` percentile (0 < q <= 100) of sorted values."""
    k = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(k) - 1]


def figures(lengths: Counter[int]) -> dict[str, Any]:
    """Median, 99th percentile, maximum and unfinished count of a length histogram."""
    values = sorted(k for k, c in lengths.items() if k >= 0 for _ in range(c))
    unfinished = lengths.get(-1, 0)
    if not values:
        return {"games": unfinished, "unfinished": unfinished}
    return {
        "games": len(values) + unfinished,
        "finished": len(values),
        "unfinished": unfinished,
        "min": values[0],
        "median": statistics.median(values),
        "mean": round(statistics.fmean(values), 2),
        "p99": percentile(values, 99),
        "p999": percentile(values, 99.9),
        "max": values[-1],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="kazhutha")
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--players", type=int, nargs="+", default=[3, 4, 6, 8])
    p.add_argument("--max-tricks", type=int, default=5000, help="the safety bound (5000)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    p.add_argument("--chunk", type=int, default=500, help="games per task (500)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = p.parse_args(argv)

    results: dict[str, Any] = {
        "variant": args.variant,
        "games": args.games,
        "max_tricks": args.max_tricks,
        "players": {},
    }
    print(
        f"{args.variant}: {args.games} random-play games per player count, "
        f"bound max_tricks={args.max_tricks}, {args.jobs} process(es)"
    )
    print(
        f"{'players':>7} {'games':>6} {'unfinished':>10} {'median':>6} {'p99':>5} {'max':>5} "
        f"{'mean':>6} {'seconds':>8}"
    )
    ex: cf.Executor | None = cf.ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for n in args.players:
            t0 = time.perf_counter()
            chunks = [
                (a, min(args.games, a + args.chunk)) for a in range(0, args.games, args.chunk)
            ]
            total: Counter[int] = Counter()
            if ex is None:
                for a, b in chunks:
                    total.update(play_games(args.variant, n, a, b, args.max_tricks))
            else:
                futs = [
                    ex.submit(play_games, args.variant, n, a, b, args.max_tricks) for a, b in chunks
                ]
                for fut in futs:
                    total.update(fut.result())
            secs = time.perf_counter() - t0
            fig = figures(total)
            fig["seconds"] = round(secs, 1)
            fig["histogram"] = {str(k): c for k, c in sorted(total.items())}
            results["players"][str(n)] = fig
            print(
                f"{n:>7} {fig['games']:>6} {fig['unfinished']:>10} {fig.get('median', '-'):>6} "
                f"{fig.get('p99', '-'):>5} {fig.get('max', '-'):>5} {fig.get('mean', '-'):>6} "
                f"{secs:>8.1f}",
                flush=True,
            )
    finally:
        if ex is not None:
            ex.shutdown()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
