"""The ``replay`` command: check a game record and show how the game went."""

from __future__ import annotations

import argparse
import sys

from cardrules.cli import Command
from cardrules.dsl.loader import read_regular_file
from cardrules.errors import SaveError
from cardrules.record import MAX_RECORD_BYTES, load

__all__ = ["COMMANDS"]


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="FILE", help="a game record (cardrules.record.dump's text)")
    p.add_argument("--quiet", action="store_true", help="print only the result (or the error)")


def _run(args: argparse.Namespace) -> int:
    raw = read_regular_file(args.record, MAX_RECORD_BYTES, SaveError, str(args.record))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveError(f"{args.record}: a record is UTF-8 text ({e})") from None
    game = load(text)
    if not args.quiet:
        for ev in game.events:
            if ev[0] == "score":
                _, hn, _bids, tricks, points, totals = ev
                shown = ", ".join(
                    f"seat {s + 1}: {t} trick{'' if t == 1 else 's'}, {p} -> {tot}"
                    for s, (t, p, tot) in enumerate(zip(tricks, points, totals, strict=True))
                )
                print(f"hand {hn}: {shown}")
    result = game.result
    if result is None:
        print(f"the record is valid; the game goes on (hand {game.hand_number}, {game.phase})")
    else:
        winners = ", ".join(f"seat {s + 1}" for s in result.winners) or "nobody"
        loser = "" if result.loser is None else f"; seat {result.loser + 1} loses"
        state = "" if result.finished else " (unfinished)"
        print(f"the record is valid; winners: {winners}{loser}{state}")
    sys.stdout.flush()
    return 0


COMMANDS = [
    Command(
        "replay",
        "check a game record against its rules and show the hands' scores and the result",
        _configure,
        _run,
        description=(
            "Read a game record (one text file per game: the rules, the seats, every "
            "deal and action), replay it through the rules, and print each hand's "
            "scores and the result. Any line against the rules is an error naming the line."
        ),
    )
]
