"""The ``demo`` command: a whole seeded game between heuristic bots, hand by hand.

``make demo`` runs it: four :class:`~cardrules.bots.HeuristicBot` players play
a game of Kachuful from a fixed seed. Each hand shows every seat's cards,
the trumps, the bids, each trick and who took it, then the score sheet so
far; the game ends with the final sheet and the winner. Each bot sees only
its own seat's view; the demo itself shows everything.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from cardrules.bots import BOTS, make_bot
from cardrules.cli import Command, check_number
from cardrules.commands.play import (
    Table,
    format_hand,
    leaders,
    narrate,
    rewards_exact_bid,
    score_sheet,
)
from cardrules.commands.table import DEFAULT_WIDTH, fit
from cardrules.commands.variants import check_players, load_argument
from cardrules.engine import Event, Game
from cardrules.engine.game import MAX_SEED
from cardrules.rulebook.length import play_to

__all__ = ["COMMANDS", "run_demo"]

_FOUR = ("North", "East", "South", "West")


def _names(n: int) -> list[str]:
    return list(_FOUR) if n == 4 else [f"Seat {s + 1}" for s in range(n)]


def _num(x: Fraction) -> str:
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else str(f)


def run_demo(variant: str, players: int, seed: int, bots: str, *, tricks: bool = True) -> int:
    """Play and print one whole game between bots.

    Args:
        variant: a built-in name or a variant file.
        players: the number of seats, within the variant's range.
        seed: the game's seed, 0 to ``2**64 - 1`` (bots are seeded from it too).
        bots: a bot name for every seat.
        tricks: print every trick (else only bids and results).

    Returns:
        The exit code (0).

    Raises:
        UsageError: for a seed out of bounds.
        VariantError: for a variant that cannot be loaded or played by ``players``.
    """
    check_number("--seed", seed, 0, MAX_SEED, "2**64 - 1")
    v = load_argument(variant)
    check_players(v, players)
    g = Game(v, players=players, seed=seed)
    seats = [make_bot(bots, seed * 31 + s) for s in range(players)]
    names = _names(players)
    t = Table(names, _unicode(sys.stdout), play_to=play_to(v), cards=v.deck.card_names())
    width = max(len(n) for n in names)

    def say(text: str | None = "") -> None:
        # Every line within 80 columns, however many players (cut at spaces).
        for line in (text or "").split("\n"):
            for piece in fit(line, DEFAULT_WIDTH):
                print(piece)

    say(f"{v.title or v.name}: {players} {bots} bots, seed {seed}.")
    if v.summary:
        say(v.summary)
    shown = 0
    exact = rewards_exact_bid(v)

    def flush() -> None:
        nonlocal shown
        events = g.events
        for ev in events[shown:]:
            _show(ev, events)
        shown = len(events)

    def _show(ev: Event, events: list[Event]) -> None:
        kind = ev[0]
        if kind == "deal":
            say(narrate(ev, t, g.hand_sizes))
            for s, cards in enumerate(ev[4]):
                say(f"  {names[s]:<{width}}  {format_hand(tuple(cards), None, t.unicode)}")
            return
        if kind == "trump":
            say(narrate(ev, t))
            return
        if kind == "bids":
            bids = ev[1]
            total = sum(b for b in bids if b is not None)
            say(f"Bids: {t.seats(bids)}   (total {total} of {g_hand_size(events)})")
            return
        if kind in ("bid", "counters"):
            return  # shown together by the "bids" event; counters in the sheet
        if kind == "play":
            return  # shown with the trick
        if kind == "trick":
            if tricks:
                plays = "  ".join(
                    f"{names[s]} {t.card(c)}" for s, c in zip(ev[2], ev[3], strict=True)
                )
                say(f"  {plays}   -> {names[ev[1]]}")
            return
        if kind == "score":
            if exact:
                made = [
                    names[s] for s, (b, k) in enumerate(zip(ev[2], ev[3], strict=True)) if b == k
                ]
                say("Made their bids exactly: " + (", ".join(made) if made else "nobody"))
            say(score_sheet(events, t, last=None, variant=v))
            out = {e[1] for e in events if e[0] == "knocked out"}
            first = leaders(v, ev[5], out)
            rule = "" if v.scoring.higher_wins else " (lowest wins)"
            who = ", ".join(names[s] for s in first)
            say(
                f"{'Leads' if len(first) == 1 else 'Share the lead'}: {who} "
                f"with {_num(ev[5][first[0]])}{rule}"
            )
            return
        line = narrate(ev, t, g.hand_sizes)
        if line is not None:
            say(line)

    def g_hand_size(events: list[Event]) -> int:
        for ev in reversed(events):
            if ev[0] == "deal":
                return int(ev[3])
        return 0

    while not g.is_over:
        seat = g.to_act
        if seat is None:
            seat = min(g.waiting_for)
        g.apply(seats[seat].choose(g.view(seat)), seat)
        flush()
    res = g.result
    assert res is not None
    say("")
    totals = "   ".join(f"{names[s]} {_num(x)}" for s, x in enumerate(res.totals))
    say(f"Final totals: {totals}")
    if res.loser is not None:
        say(f"Left holding cards: {names[res.loser]}")
    if not res.winners:
        say("The game stopped before its end.")
    elif res.shared:
        say("Shared win: " + ", ".join(names[s] for s in res.winners))
    else:
        say(f"Winner: {names[res.winners[0]]}")
    return 0


def _unicode(stream: object) -> bool:
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣✓".encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "variant",
        nargs="?",
        default="kachuful",
        metavar="NAME_OR_FILE",
        help="the variant (kachuful)",
    )
    p.add_argument("--players", type=int, default=4, metavar="N", help="number of players (4)")
    p.add_argument(
        "--seed", type=int, default=2024, metavar="S", help="the seed, 0 to 2**64 - 1 (2024)"
    )
    p.add_argument("--bots", default="heuristic", choices=sorted(BOTS), help="(heuristic)")
    p.add_argument("--no-tricks", action="store_true", help="do not print every trick")


def _run(args: argparse.Namespace) -> int:
    return run_demo(args.variant, args.players, args.seed, args.bots, tricks=not args.no_tricks)


COMMANDS = [
    Command(
        "demo",
        "watch a whole seeded game of Kachuful between four heuristic bots",
        _configure,
        _run,
        priority=10,
        description=(
            "Play a whole seeded game between bots (Kachuful, four heuristic bots by "
            "default) and show it hand by hand: the cards, trumps, bids, every trick, "
            "the score sheet after each hand, and the winner."
        ),
    ),
]
