"""The ``rules`` command: print a variant's rules page (Markdown) for people to read."""

from __future__ import annotations

import argparse
import sys

from cardrules.cli import Command
from cardrules.commands.variants import add_set_option, check_players, load_argument
from cardrules.dsl.loader import parse_override
from cardrules.errors import CardrulesError
from cardrules.rulebook import rulebook

__all__ = ["COMMANDS"]


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="NAME_OR_FILE", help="a built-in name or a variant file")
    add_set_option(p)
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="show the deal schedule and the examples for N players only",
    )


def _run(args: argparse.Namespace) -> int:
    v = load_argument(args.variant, args.overrides)
    if args.players is not None:
        check_players(v, args.players)
    # The options as applied (a name given twice keeps its last value), for the
    # page's "Played here with" note.
    given: dict[str, str] = {}
    for text in args.overrides:
        name, value = parse_override(text)
        given.pop(name, None)
        given[name] = value
    try:
        page = rulebook(v, players=args.players, settings=list(given.items()))
    except CardrulesError:
        raise
    except ValueError as exc:  # players outside the variant's range
        print(f"cardrules: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(page)
    return 0


COMMANDS = [
    Command(
        "rules",
        "print the rules of a variant in plain English (Markdown), tables included",
        _configure,
        _run,
        description=(
            "Print the rules page of a built-in variant or a variant file: summary, "
            "deal schedule, bidding and the hook, play, a scoring table, a worked hand, "
            "and the variant file itself."
        ),
    ),
]
