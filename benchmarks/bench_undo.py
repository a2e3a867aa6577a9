"""Take-back benchmarks: what one ``Game.undo()`` costs, by kind of action.

Run ``python benchmarks/bench_undo.py`` (``--quick`` for a short run,
``--json`` for machine-readable output). Every figure is the median, over
several runs, of the CPU time of one ``undo()`` in microseconds, each on a
copy (``clone()``) made before the clock starts.

The game is a mid-game one-hand Oh Hell game (the hand of
``bench_engine.ONE_HAND_TEXT``: 4 players, 10 cards, turned-up trump, hook),
seeded and played with random legal actions. Rows:

* ``play inside a trick``: the last action is a card that did not complete a
  trick (the common case: an unmake in place), after 5 tricks and 1 card;
* ``lead of a trick``: the last action is the lead of the 6th trick (in place);
* ``last card of a trick``: the card that completed the 5th trick (in place:
  the trick is put back from the log);
* ``last card of the game``: the card that ended the hand and the game (a
  replay from the start of the hand);
* ``bid``: the last bid (the bidding over, the play about to start; a replay);
* each of those again on a game that has already taken an action back
  (``, warm``): the first take-back of a game that needs a replay rebuilds
  the game's first state once; later ones use the checkpoints kept.

The issue's target is below :data:`TARGET_US` microseconds a call.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import bench_engine  # noqa: E402

import cardrules  # noqa: E402

#: The issue's target for one call on the mid-game one-hand Oh Hell game.
TARGET_US = 100.0


def _game(seed: int, stop: Callable[[cardrules.Game], bool]) -> cardrules.Game:
    v = cardrules.load_text(bench_engine.ONE_HAND_TEXT)
    g = cardrules.Game(v, players=4, seed=seed)
    rng = random.Random(seed)
    while not stop(g):
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    return g


def _tricks(g: cardrules.Game) -> int:
    return sum(g.tricks_won)


def _in_trick(g: cardrules.Game, cards: int) -> bool:
    """In the play, after 5 tricks and ``cards`` cards of the 6th."""
    return g.phase == "play" and _tricks(g) == 5 and len(g.current_trick()) == cards


GAMES: dict[str, Callable[[cardrules.Game], bool]] = {
    "play inside a trick": lambda g: _in_trick(g, 2),
    "lead of a trick": lambda g: _in_trick(g, 1),
    "last card of a trick": lambda g: _in_trick(g, 0),
    "last card of the game": lambda g: g.is_over,
    "bid": lambda g: g.phase == "play",
}


def per_undo(game: cardrules.Game, runs: int, calls: int, warm: bool) -> float:
    """The median microseconds of one undo() of ``game``'s last action."""
    if warm:
        # One take-back and the action again: the game keeps its checkpoints.
        last = game.clone()
        action = last.undo()
        game = game.clone()
        game.undo()
        game.apply(action, last.to_act if last.to_act is not None else 0)
    us = []
    for _ in range(runs):
        copies = [game.clone() for _ in range(calls)]
        start = time.process_time()
        for c in copies:
            c.undo()
        us.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(us)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer, shorter runs")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    runs, calls = (3, 300) if args.quick else (7, 2000)
    rows: dict[str, float] = {}
    for label, stop in GAMES.items():
        g = _game(7, stop)
        for warm in (False, True):
            rows[label + (", warm" if warm else "")] = per_undo(g, runs, calls, warm)
    if args.json:
        print(json.dumps({"unit": "us per undo()", "target_us": TARGET_US, "rows": rows}))
        return 0
    print(f"undo() of a mid-game one-hand Oh Hell game, median us a call (target {TARGET_US:g})")
    for label, us in rows.items():
        print(f"  {label:32} {us:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
