"""The ``play`` command: play a whole game in the terminal against bots.

It also holds the text helpers shared with ``demo`` (cards, hands, the
narration of the event log and the score sheet).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, NamedTuple, TextIO

from cardrules import jsontext
from cardrules.bots import BOTS, Bot, GameBot, decide, make_bot
from cardrules.cards import CARDS, Card, CardSet, Suit, card
from cardrules.cli import Command, UsageError, check_number, describe_number
from cardrules.commands.table import (
    DEFAULT_WIDTH,
    Style,
    colour_wanted,
    fit,
    pack_entries,
    plural,
    seat_grid,
    short_names,
)
from cardrules.commands.variants import add_set_option, check_players, load_argument
from cardrules.dsl.loader import read_regular_file
from cardrules.engine import (
    Action,
    Amend,
    Bid,
    Event,
    Game,
    Look,
    Match,
    Pass,
    Play,
    Result,
    Take,
    View,
)
from cardrules.engine.game import MAX_SEED
from cardrules.engine.state.history import current_line
from cardrules.engine.state.saves import MAX_SAVE_BYTES
from cardrules.errors import CardError, CardrulesError, IllegalAction, InvalidAction, SaveError
from cardrules.rulebook.length import play_to, status_length
from cardrules.rules import TakeBacks, Variant
from cardrules.scoring import And, Call, Compare, Expr, If, Neg, Not, Or, Product, Sum

__all__ = [
    "COMMANDS",
    "Table",
    "format_card",
    "format_hand",
    "narrate",
    "score_sheet",
]

SAVE_FORMAT = "cardrules.play"


# --------------------------------------------------------------------------- text helpers


def _unicode_ok(stream: TextIO) -> bool:
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣–·".encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _num(x: Fraction | int) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else str(x)


class Table:
    """How cards and seats are written for one stream.

    Args:
        names: a name per seat (``"You"``, ``"Bot 1"``...).
        unicode: write suit symbols (``A♠``); otherwise ASCII codes (``AS``).
        colour: colour the cards (hearts and diamonds red) with terminal codes.
        cards: how the special cards are written (``special symbols:``): their
            numbers to their symbols, such as ``W1``.
        play_to: the target of a game whose number of hands only guards against an
            endless game (:func:`~cardrules.rulebook.length.length_is_a_guard`): a
            deal then says "Hand 3 · play to 100", never "Hand 3 of 20".
    """

    def __init__(
        self,
        names: Sequence[str],
        unicode: bool = True,
        colour: bool = False,
        cards: Mapping[int, str] | None = None,
        play_to: int | None = None,
    ) -> None:
        self.names = list(names)
        self.play_to = play_to
        self.unicode = unicode
        self.style = Style(colour, unicode, cards)

    def card(self, c: int) -> str:
        """One card, such as ``A♠`` or ``AS``."""
        return self.style.card(CARDS[int(c)])

    def suit(self, s: Suit | None) -> str:
        """A suit for the trump line, such as ``♠ spades``; ``no trumps`` for None."""
        if s is None:
            return "no trumps"
        word = self.style.paint(s.word, Style.BOLD)
        return f"{self.style.suit(s)} {word}" if self.unicode else word

    def name(self, seat: int) -> str:
        """The name of a seat."""
        return self.names[seat]

    def does(self, seat: int, verb: str) -> str:
        """The seat's name and a verb agreeing with it: ``Bot 1 plays``, ``You play``."""
        name = self.names[seat]
        if name == "You":
            irregular = {"has": "have", "wins": "win", "is": "are", "goes": "go"}
            if verb in irregular:
                verb = irregular[verb]
            elif verb.endswith(("sses", "shes", "ches", "xes")):
                verb = verb[:-2]  # passes -> pass
            else:
                verb = verb.removesuffix("s")
        return f"{name} {verb}"

    def seats(self, values: Sequence[object], empty: str = "-") -> str:
        """One value per seat, each after the seat's name."""
        return "   ".join(
            f"{self.names[s]} {empty if v is None else v}" for s, v in enumerate(values)
        )


def format_card(c: Card, unicode: bool = True) -> str:
    """A card as ``A♠`` (or ``AS`` in ASCII)."""
    return str(c) if unicode else c.code


def format_hand(
    cards: Sequence[Card],
    trump: Suit | None,
    unicode: bool = True,
    *,
    style: Style | None = None,
    legal: Collection[Card] | None = None,
) -> str:
    """A hand grouped by suit, trumps first, high to low: ``♠ A K 7   ♥ Q 9``;
    jokers first, on their own: ``BJ LJ   ♠ A K 7``.

    With a colour ``style``: red hearts and diamonds, the trump suit's mark
    highlighted, and, given ``legal``, the cards that may be played in bold and
    the others dim."""
    st = style or Style(False, unicode)

    def odd(c: Card) -> bool:  # a joker or a special card: no suit or rank
        return c.is_joker or c.is_special

    def rank(c: Card) -> str:
        text = c.rank.label if not odd(c) else st.names.get(int(c.base), str(c))
        codes = [st.RED] if not odd(c) and st.red(c.suit) else []
        if legal is not None:
            codes.append(st.BOLD if c in legal else st.DIM)
        return st.paint(text, *codes)

    groups = []
    jokers = [rank(c) for c in sorted(cards, reverse=True) if odd(c)]
    if jokers:
        groups.append(" ".join(jokers))
    for s in _suit_order(trump):
        ranks = [rank(c) for c in sorted(cards, reverse=True) if not odd(c) and c.suit is s]
        if ranks:
            groups.append(f"{st.suit(s, trump)} {' '.join(ranks)}")
    return "   ".join(groups) if groups else "(no cards)"


def _suit_order(trump: Suit | None) -> list[Suit]:
    order = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
    if trump is not None:
        order.remove(trump)
        order.insert(0, trump)
    return order


def sort_for_display(cards: Sequence[Card], trump: Suit | None) -> list[Card]:
    """Cards grouped by suit (trumps first), high to low within each suit; the
    jokers first, the big one before the little."""
    order = _suit_order(trump)
    return sorted(cards, key=lambda c: (-1 if c.is_joker else order.index(c.suit), -int(c)))


def narrate(ev: Event, t: Table, hand_sizes: Sequence[int] = ()) -> str | None:
    """One event of the log as a line of text, or ``None`` for events not worth a line.

    Args:
        ev: an event from :attr:`Game.events` or :meth:`Game.events_for`.
        t: names and card style.
        hand_sizes: the game's scheduled hand sizes (for "hand 3 of 19").
    """
    say = _NARRATORS.get(ev[0])
    if say is None:
        return _say_other(ev, t)
    return say(ev, t, hand_sizes)


#: How :func:`narrate` says an event of each kind: ``(event, table, hand sizes)``
#: to its line, or ``None`` for no line.
_Narrator = Callable[[Event, Table, Sequence[int]], str | None]


def _say_deal(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    of = f" of {len(hand_sizes)}" if hand_sizes and ev[1] <= len(hand_sizes) else ""
    extra = " (tie-break)" if hand_sizes and ev[1] > len(hand_sizes) else ""
    if t.play_to is not None:
        of, extra = f" · play to {t.play_to}", ""
    each = plural(ev[3], "card")
    return f"\n=== Hand {ev[1]}{of}{extra}: {each} each, {t.does(ev[2], 'deals')} ==="


def _say_trump(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    if ev[2] is None and ev[3] is not None:
        return f"Turned up: {t.card(ev[3])} (to be ordered up or passed)"
    turned = f" ({t.card(ev[3])} turned up)" if ev[3] is not None else ""
    return f"Trumps: {t.suit(ev[2])}{turned}"


def _say_call(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    if ev[2] is None:
        return f"{t.does(ev[1], 'discards')} a card face down"
    label = ev[2].label
    if label.startswith("discard "):
        return f"{t.does(ev[1], 'discards')} {t.card(ev[2].card)} face down"
    if label == "pass":
        return f"{t.does(ev[1], 'passes')}"
    if label == "order up":
        return f"{t.does(ev[1], 'orders')} up the turned card"
    if label == "go alone":
        return f"{t.does(ev[1], 'goes')} alone"
    if label == "play with partner":
        return f"{t.does(ev[1], 'plays')} with partner"
    if label in ("uptown", "downtown"):
        return f"{t.does(ev[1], 'plays')} the hand {label}"
    if label == "misère":
        return f"{t.does(ev[1], 'declares')} misère"
    return f"{t.does(ev[1], 'names')} {label[5:]}"


def _say_bid(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    if ev[2] is None:
        return f"{t.does(ev[1], 'has')} bid"
    return f"{t.does(ev[1], 'bids')} {ev[2]}{' blind' if ev[3] else ''}"


def _say_pass(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str | None:
    # Another seat's choice is hidden (None): nothing to say until the exchange.
    return None if ev[2] is None else f"{t.does(ev[1], 'chooses')} {t.card(ev[2])} to pass"


def _say_exchange(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    lines = [
        f"{t.does(s, 'passes')} {' '.join(t.card(c) for c in shown)} to {t.name(ev[2][s])}"
        for s, shown in enumerate(ev[3])
        if shown is not None
    ]
    return "The passed cards change hands" + (": " + "; ".join(lines) if lines else "")


def _say_dead(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    top = ev[3][ev[2].index(ev[1])]
    return f"  -> dead trick, out of the game; {t.card(top)} was highest"


def _say_pickup(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    cutter = ev[2][-1]
    taken = " ".join(t.card(c) for c in ev[3])
    return f"  -> {t.does(cutter, 'cuts')}: {t.does(ev[1], 'picks')} up {taken}"


def _say_match_over(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    if ev[2] is None:
        return "The match stopped before anyone spelt the word."
    verb = "lose" if t.name(ev[2]) == "You" else "loses"
    return f"{t.does(ev[2], 'has')} the whole word and {verb} the match."


def _say_score(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    parts = []
    for s, (b, k, p) in enumerate(zip(ev[2], ev[3], ev[4], strict=True)):
        made = "" if b is None else (" made it" if b == k else f" bid {b}")
        sign = "+" if p >= 0 else ""
        parts.append(f"{t.name(s)} {k} trick{'s' if k != 1 else ''}{made}: {sign}{_num(p)}")
    return "Hand over. " + "; ".join(parts)


def _say_counters(ev: Event, t: Table, hand_sizes: Sequence[int]) -> str:
    """Each counter by its name after a hand: ``Bags after hand 3: You 2   Bot 2 5``."""
    lines = []
    for i, name in enumerate(ev[2]):
        values = [row[i] if i < len(row) else None for row in ev[3]]
        lines.append(f"{name.capitalize()} after hand {ev[1]}: {t.seats(values)}")
    return "\n".join(lines)


def _say_other(ev: Event, t: Table) -> str:
    """An event of a kind :func:`narrate` has no words for: its kind and values."""
    words = []
    for x in ev[1:]:
        if isinstance(x, Card):
            words.append(t.card(x))
        elif isinstance(x, CardSet):
            words.append(" ".join(t.card(c) for c in x))
        else:
            words.append(str(x))
    return f"{ev[0]}: {' '.join(words)}"


_NARRATORS: Final[dict[str, _Narrator]] = {
    "start": lambda ev, t, sizes: None,
    "bids": lambda ev, t, sizes: None,
    "over": lambda ev, t, sizes: None,
    "cut": lambda ev, t, sizes: (
        "Cut for the deal: " + ", ".join(f"{t.name(s)} {t.card(c)}" for s, c in ev[1])
    ),
    "deal": _say_deal,
    "trump": _say_trump,
    "call": _say_call,
    "made": lambda ev, t, sizes: f"Trumps: {t.suit(ev[3])} ({t.does(ev[2], 'makes')} trumps)",
    "thrown in": lambda ev, t, sizes: f"Everyone passed: hand {ev[1]} is thrown in",
    "redeal": lambda ev, t, sizes: (
        f"{t.does(ev[2], 'shows')} the hand ({' '.join(t.card(c) for c in ev[3])}): "
        f"hand {ev[1]} is thrown in and dealt again"
    ),
    "look": lambda ev, t, sizes: f"{t.does(ev[1], 'looks')} at the cards",
    "bid": _say_bid,
    "amend": lambda ev, t, sizes: f"{t.does(ev[1], 'changes')} the bid to {ev[2]}",
    "play": lambda ev, t, sizes: f"{t.does(ev[1], 'plays')} {t.card(ev[2])}",
    "pass": _say_pass,
    "exchange": _say_exchange,
    "trick": lambda ev, t, sizes: f"  -> {t.does(ev[1], 'wins')} the trick",
    "dead": _say_dead,
    "pickup": _say_pickup,
    "out": lambda ev, t, sizes: f"  {t.does(ev[1], 'has')} no cards left: out and safe",
    "knocked out": lambda ev, t, sizes: (
        f"{t.does(ev[1], 'is')} knocked out (too few tricks in hand {ev[2]})"
    ),
    "draw": lambda ev, t, sizes: (
        f"  {t.does(ev[1], 'has')} the power: a card drawn from the dead cards, "
        f"{t.card(ev[2])}, is led"
    ),
    "take": lambda ev, t, sizes: (
        f"{t.does(ev[1], 'takes')} the {plural(ev[3], 'card')} of {t.name(ev[2])}"
    ),
    "game": lambda ev, t, sizes: f"\n##### Game {ev[1]} #####",
    "letter": lambda ev, t, sizes: f"{t.does(ev[2], 'takes')} the letter {ev[3]}",
    "match over": _say_match_over,
    "score": _say_score,
    "counters": _say_counters,
}


def rewards_exact_bid(variant: Variant) -> bool:
    """Whether the variant's scoring rewards a bid made exactly (Oh Hell's
    ``exact``, a penalty by the ``diff``, or ``tricks = bid``): the score sheet
    marks an exact bid only then (Spades rewards a bid made or beaten, not met).

    Example:
        >>> import cardrules
        >>> [rewards_exact_bid(cardrules.load(n)) for n in ("oh-hell", "spades")]
        [True, False]
    """
    sc = variant.scoring
    formulas = [f for f in (sc.formula, sc.team_formula) if f is not None]
    formulas += [c.formula for c in sc.counters]
    return any(
        bool(f.uses() & {"exact", "diff"}) or _compares_tricks_to_bid(f.expr) for f in formulas
    )


def _compares_tricks_to_bid(expr: Expr) -> bool:
    """Whether ``expr`` holds ``tricks = bid`` (or ``!=``, either way round)."""
    if isinstance(expr, Compare):
        sides = {getattr(expr.left, "name", None), getattr(expr.right, "name", None)}
        if expr.op in ("=", "!=") and sides == {"tricks", "bid"}:
            return True
    return any(_compares_tricks_to_bid(x) for x in _children(expr))


def _children(expr: Expr) -> tuple[Expr, ...]:
    """The sub-expressions of a node of a score formula."""
    if isinstance(expr, (Neg, Not)):
        return (expr.operand,)
    if isinstance(expr, (Sum, Product)):
        return (expr.first, *(x for _, x in expr.rest))
    if isinstance(expr, Compare):
        return (expr.left, expr.right)
    if isinstance(expr, (And, Or)):
        return expr.operands
    if isinstance(expr, If):
        return (expr.cond, expr.then, expr.orelse)
    if isinstance(expr, Call):
        return expr.args
    return ()


def leaders(
    variant: Variant, totals: Sequence[Fraction | int], out: Collection[int] = ()
) -> list[int]:
    """The seats leading by the game's own ``winner:`` rule: the highest total,
    or the lowest (Hearts); with ``winner: last one in``, among the seats not
    knocked out (``out``). The engine names the winners at the end by the same rule.

    Example:
        >>> import cardrules
        >>> leaders(cardrules.load("hearts"), [13, 0, 5, 0])
        [1, 3]
        >>> leaders(cardrules.load("oh-hell"), [13, 0, 5, 0])
        [0]
    """
    seats = list(range(len(totals)))
    if variant.winning.last_one_in and variant.winning.knockout_below > 0:
        seats = [s for s in seats if s not in out] or seats
    pick = max if variant.scoring.higher_wins else min
    best = pick(totals[s] for s in seats)
    return [s for s in seats if totals[s] == best]


class _Cells(NamedTuple):
    """A seat's cells in a row of the score sheet."""

    main: str  # "bid/won", the tricks won, the hand's points, or "out"
    bid: str  # the bid alone ("" without one), for the narrowest layout
    mark: str  # the tick of an exact bid, "M" for the seat that made trumps, else " "
    counters: tuple[str, ...]  # each counter's value after the hand (Spades' bags)
    total: str


#: A row of the score sheet: the hand's number, its cards each, its trumps,
#: and each seat's cells.
_SheetRow = tuple[int, int, str, list[_Cells]]


class _Shape(NamedTuple):
    """The columns of a game's score sheet."""

    bids: bool  # a bid column ("bid/won")
    exact: bool  # the tick of an exact bid
    points: bool  # the hand's points rather than tricks (Hearts)
    counters: tuple[str, ...]  # the counters' names (Spades' bags)
    maker: bool  # a mark for the seat that made trumps (Euchre)


def _shape(events: Sequence[Event], variant: Variant | None) -> _Shape:
    """What the sheet of ``events`` shows: from the game's rules when given,
    else (the rules unknown) from the log alone, as it always was."""
    bids = any(b is not None for ev in events if ev[0] == "score" for b in ev[2])
    counters: tuple[str, ...] = ()
    for ev in events:
        if ev[0] == "counters":
            counters = tuple(ev[2])
            break
    maker = any(ev[0] == "made" for ev in events)
    if variant is None:
        return _Shape(bids, bids, False, counters, maker)
    points = bool(variant.scoring.card_points) and not bids
    return _Shape(bids, bids and rewards_exact_bid(variant), points, counters, maker)


def score_sheet(
    events: Sequence[Event],
    t: Table,
    *,
    last: int | None = None,
    width: int = DEFAULT_WIDTH,
    variant: Variant | None = None,
) -> str:
    """The score sheet: one row per hand (cards, trumps, then each seat's
    figures and running total), with the columns the game has: bid and tricks
    won in a game of bids (a check mark for an exact bid where the scoring
    rewards one), the points taken in a game of card points without bids
    (Hearts), the tricks won otherwise; each counter by its name (Spades'
    bags); ``M`` for the seat that made trumps (Euchre).

    When the full sheet is wider than ``width`` (five players or more at 80
    columns) it is written compactly: short names, the figures and the total
    in narrower columns, then only the bid with its mark, then without the
    cards column; a legend line says how to read it.

    Args:
        events: the game's log.
        t: names and card style.
        last: show only the last ``last`` rows (the header always).
        width: the most columns a line may take.
        variant: the game's rules (the columns it needs); ``None``: read from
            the log alone, with a check mark for every exact bid.
    """
    shape = _shape(events, variant)
    tick = "✓" if t.unicode else "*"
    hands = _sheet_rows(events, shape, tick, t.unicode)
    shown = hands if last is None else hands[-last:]
    cells = [c for *_, seats in shown for c in seats]
    label = "bid/won" if shape.bids else ("points" if shape.points else "won")
    wm = max([6, *(len(c.main) for c in cells)])
    wc = [max([len(n), *(len(c.counters[i]) for c in cells)]) for i, n in enumerate(shape.counters)]
    wt = max([5, *(len(c.total) for c in cells)])
    cw = wm + 1 + sum(w + 1 for w in wc) + 1 + wt
    head = "hand cards trump | " + " | ".join(f"{n[:cw]:^{cw}}" for n in t.names)
    sub_cell = f"{label:>{wm + 1}}" + "".join(
        f" {n:>{w}}" for n, w in zip(shape.counters, wc, strict=True)
    )
    sub = "                 | " + " | ".join(f"{sub_cell} {'total':>{wt}}" for _ in t.names)
    lines = [head, sub, "-" * len(head)]
    for hn, size, trump, seats in shown:
        row = [
            f"{c.main:>{wm}}{c.mark}"
            + "".join(f" {x:>{w}}" for x, w in zip(c.counters, wc, strict=True))
            + f" {c.total:>{wt}}"
            for c in seats
        ]
        lines.append(f"{hn:>4} {size:>5} {trump:^5} | " + " | ".join(row))
    if not hands:
        lines.append("(no hand scored yet)")
    if max(map(len, lines)) <= width:
        return "\n".join(lines)
    return _compact_sheet(hands, shown, t, shape, tick, width)


def _sheet_rows(
    events: Sequence[Event], shape: _Shape, tick: str, unicode: bool
) -> list[_SheetRow]:
    """The rows of the score sheet: one per hand scored in ``events``."""
    trumps: dict[int, str] = {}
    hands: list[_SheetRow] = []
    sizes: dict[int, int] = {}
    makers: dict[int, int] = {}
    gone: set[int] = set()  # seats knocked out (``knocked out:``): "out" in later rows
    blank = tuple("-" for _ in shape.counters)
    for ev in events:
        if ev[0] == "deal":
            sizes[ev[1]] = ev[3]
        elif ev[0] == "knocked out":
            gone.add(ev[1])
        elif ev[0] in ("trump", "made"):
            s = ev[2] if ev[0] == "trump" else ev[3]
            trumps[ev[1]] = "-" if s is None else (s.symbol if unicode else s.letter)
            if ev[0] == "made":
                makers[ev[1]] = ev[2]
        elif ev[0] == "score":
            hn = ev[1]
            seats = [
                _seat_cells(
                    shape, tick, b, k, p, total, seat in gone, makers.get(hn) == seat, blank
                )
                for seat, (b, k, p, total) in enumerate(
                    zip(ev[2], ev[3], ev[4], ev[5], strict=True)
                )
            ]
            hands.append((hn, sizes.get(hn, 0), trumps.get(hn, "?"), seats))
        elif ev[0] == "counters" and hands and hands[-1][0] == ev[1]:
            # After its hand's score: each counter's value, by seat.
            row = hands[-1][3]
            for seat, values in enumerate(ev[3][: len(row)]):
                kept = tuple(str(x) for x in values[: len(shape.counters)])
                row[seat] = row[seat]._replace(counters=kept + blank[len(kept) :])
    return hands


def _seat_cells(
    shape: _Shape,
    tick: str,
    b: int | None,
    k: int,
    p: Fraction,
    total: Fraction,
    out: bool,
    maker: bool,
    blank: tuple[str, ...],
) -> _Cells:
    """One seat's cells in a row of the sheet (see :class:`_Cells`)."""
    if out:
        main = "out"
    elif b is not None:
        main = f"{b}/{k}"
    else:
        main = _num(p) if shape.points else str(k)
    exact = shape.exact and b is not None and b == k and not out
    mark = tick if exact else ("M" if maker else " ")
    return _Cells(main, "" if b is None else str(b), mark, blank, _num(total))


def _compact_sheet(
    hands: list[_SheetRow], shown: list[_SheetRow], t: Table, shape: _Shape, tick: str, width: int
) -> str:
    """The score sheet written compactly (see :func:`score_sheet`): the first
    layout that fits in ``width``, the last one in any case."""
    for cards_col, bid_only in ((True, False), (True, True), (False, True)):
        bid_only = bid_only and shape.bids

        def first(c: _Cells, bid_only: bool = bid_only) -> str:
            if c.main == "out":
                return "out"
            return (c.bid if bid_only and c.bid else c.main) + c.mark.strip()

        rows = [
            (hn, size, trump, [(first(c), c.counters, c.total) for c in seats])
            for hn, size, trump, seats in shown
        ]
        w1 = max([1, *(len(a) for *_, cs in rows for a, _, _ in cs)])
        wc = [
            max([1, *(len(xs[i]) for *_, cs in rows for _, xs, _ in cs)])
            for i in range(len(shape.counters))
        ]
        w2 = max([1, *(len(x) for *_, cs in rows for _, _, x in cs)])
        col = max(w1 + sum(w + 1 for w in wc) + 1 + w2, 3)
        pre = 9 if cards_col else 6
        if pre + len(t.names) * (col + 1) <= width:
            break
    names = short_names(t.names, col)
    lines = [" " * pre + " ".join(f"{n:^{col}}" for n in names).rstrip()]
    for hn, size, trump, cs in rows:
        lead = f"{hn:>3} {size:>2} {trump} " if cards_col else f"{hn:>3} {trump} "
        cells = [
            (
                f"{a:>{w1}}"
                + "".join(f" {x:>{w}}" for x, w in zip(xs, wc, strict=True))
                + f" {x2:>{w2}}"
            ).rjust(col)
            for a, xs, x2 in cs
        ]
        lines.append(lead + " ".join(cells))
    if not hands:
        lines.append("(no hand scored yet)")
    if shape.bids:
        what = "bid" + ("" if bid_only else "/won")
    else:
        what = "points taken" if shape.points else "tricks won"
    marks = [f"{tick} made it"] if shape.exact else []
    marks += ["M made trumps"] if shape.maker else []
    if marks:
        what += f" ({', '.join(marks)})"
    what = ", ".join([what, *shape.counters]) + " and total"
    cols = "hand, cards, trumps" if cards_col else "hand, trumps"
    lines += fit(f"({cols}; for each player: {what})", width, " ")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the session


_SEAT_NUMBER = re.compile(r"\b([Ss]eats?) (\d{1,3})\b")


def seats_from_one(message: str) -> str:
    """An engine's message (seats counted from 0) as people count seats, from 1.

    Example:
        >>> seats_from_one("seat 0 does not hold A♥")
        'seat 1 does not hold A♥'
    """
    return _SEAT_NUMBER.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + 1}", message)


class _Quit(Exception):
    """The player asked to stop."""


#: Events that end a trick (won, dead, or picked up by the player who cut).
_TRICK_ENDS = frozenset(("trick", "dead", "pickup"))


def tricks_done(events: Sequence[Event]) -> int:
    """How many tricks of the current hand are over (the log since its deal).

    Example:
        >>> tricks_done([("deal", 1, 0, 2), ("play", 1, None), ("trick", 1, (1,), ())])
        1
    """
    n = 0
    for ev in reversed(events):
        if ev[0] == "deal":
            break
        if ev[0] in _TRICK_ENDS:
            n += 1
    return n


def bid_choices(legal: Sequence[Action], hook: bool) -> str:
    """The bids a player may make now, for the prompt: ``0-10``, or
    ``0-10, not 6: the hook`` when the legal bids leave a gap.

    Args:
        legal: the legal actions (other actions than bids are ignored).
        hook: whether the variant has the hook (names the reason for a gap).

    Example:
        >>> from cardrules.engine import Bid
        >>> bid_choices([Bid(n) for n in range(11) if n != 6], hook=True)
        '0-10, not 6: the hook'
        >>> bid_choices([Bid(0), Bid(1)], hook=True)
        '0-1'
    """
    ns = sorted({a.n for a in legal if isinstance(a, Bid) and not a.blind})
    if not ns:
        return ""
    lo, hi = ns[0], ns[-1]
    text = str(lo) if lo == hi else f"{lo}-{hi}"
    allowed = set(ns)
    missing = [n for n in range(lo, hi + 1) if n not in allowed]
    if missing:
        why = "the hook" if hook else "not allowed now"
        text += f", not {', '.join(map(str, missing))}: {why}"
    return text


def help_text(variant: Variant, *, undo: str | None, match: bool = False) -> str:
    """The commands of ``cardrules play`` that this variant uses, one a line
    (no bidding commands in a game without bids, passing only with passes...).

    Args:
        variant: the rules being played.
        undo: the take-back policy's name when ``undo`` is allowed, else ``None``.
        match: whether a whole match is played.

    Example:
        >>> import cardrules
        >>> "bid that many" in help_text(cardrules.load("oh-hell"), undo=None)
        True
        >>> "bid" in help_text(cardrules.load("kazhutha"), undo=None)
        False
    """
    shedding = variant.mode.value == "shedding"
    b = variant.bidding
    rows = [
        ("a card", "play it: QS, q♠, 10h, td, or its number in your hand's list"),
    ]
    if variant.passing.count:
        rows.append(("", "(while passing: the cards to pass, one or all: ah ac ad)"))
    if b.style.value != "none" and not shedding:
        rows.append(("a number", "bid that many tricks (while bidding)"))
        if b.blind:
            rows.append(("blind N, look", "bid N blind / look at your cards first"))
        if b.amend:
            rows.append(("change N", "change your bid until the next player bids"))
    if variant.trumps.namer.value != "nobody" or variant.trumps.going_alone:
        rows.append(("a call", "when trumps are chosen: one of the choices shown"))
    if shedding and variant.shedding.take_hand.value != "none":
        rows.append(("take", "take your neighbour's cards before you lead"))
    rows.append(("show", "the table again"))
    if shedding:
        rows.append(("dead", "the dead cards you may see"))
    else:
        rows.append(("sheet", "the score sheet"))
    rows.append(("last", "the last trick"))
    rows.append(("hint", "what the heuristic bot would do in your place"))
    if match:
        rows.append(("undo", "take back your last action: not in a match"))
    elif undo is not None:
        rows.append(("undo", f"take back your last action (take backs: {undo})"))
    else:
        rows.append(("undo", "not in this game: start it with --take-backs POLICY"))
    rows.append(("save FILE", "save the game (to --load it later)"))
    rows.append(("quit", "stop (asks first if the game is not saved)"))
    return "Commands:\n" + "\n".join(f"  {k:<14} {what}" for k, what in rows)


#: ``--level``: the bots a family chooses, by how hard they play.
LEVELS: Final[dict[str, str]] = {"easy": "random", "normal": "heuristic", "hard": "pimc"}

#: Seconds a search bot may think per decision at ``--level hard`` (a person
#: does not wait for it: under one second).
HARD_BUDGET: Final = 0.4


def make_player_bot(name: str, seed: int, level: str | None = None) -> Bot:
    """A bot for a seat of ``cardrules play``: the bot ``name``; at ``--level
    hard`` a search bot with a time budget under a second a decision.

    Example:
        >>> make_player_bot("pimc", 1, "hard").time_limit
        0.4
    """
    if level == "hard" and name in ("pimc", "ismcts"):
        factory: Any = BOTS[name]
        bot: Bot = factory(seed, time_limit=HARD_BUDGET)
        return bot
    return make_bot(name, seed)


class _Session:
    def __init__(
        self,
        game: Game | Match,
        humans: Sequence[int],
        bot_name: str,
        *,
        level: str | None = None,
        out: TextIO,
        save_path: str | None,
        meta: dict[str, Any],
        resumed: bool = False,
        colour: bool = False,
        pause: bool = False,
        width: int = DEFAULT_WIDTH,
        wrap: bool = False,
    ) -> None:
        self.g = game
        self.shedding = game.variant.mode.value == "shedding"
        self.humans = tuple(sorted(set(humans)))
        self.human = self.humans[0]  # the seat at the screen (hot-seat: it changes)
        self.hot_seat = len(self.humans) > 1
        self.bot_name = bot_name
        self.level = level
        self.out = out
        self.save_path = save_path
        self.meta = meta
        names = [self._seat_name(s) for s in range(game.players)]
        self.t = Table(
            names,
            _unicode_ok(out),
            colour,
            cards=game.variant.deck.card_names(),
            play_to=play_to(game.variant),
        )
        self.st = self.t.style
        self.width = width
        self.wrap = wrap  # cut long lines to the width (on a terminal; pipes keep whole lines)
        self.pause = pause
        base = game.seed + len(game.events)
        self.bots: list[Bot | None] = [
            None if s in self.humans else make_player_bot(bot_name, base * 31 + s, level)
            for s in range(game.players)
        ]
        self.adviser = make_bot("heuristic", base * 31 + game.players)
        self.resumed = resumed
        self.shown = len(game.events) if resumed else 0
        self.echo = not sys.stdin.isatty()
        self.screen = _is_tty(sys.stdin) and _is_tty(out)  # a person at a terminal
        self.kept_bid_at = -1  # the log length when the player declined to amend
        self.acted = False  # the player has moved since the game was last saved (or began)

    def _seat_name(self, seat: int) -> str:
        """A seat's name, its number counted from 1: ``You`` and ``Bot 2`` with
        one person at the table; ``Player 1``, ``Player 3`` and ``Bot 2`` with
        several (hot-seat)."""
        if seat in self.humans:
            return f"Player {seat + 1}" if self.hot_seat else "You"
        return f"Bot {seat + 1}"

    def current(self) -> Game:
        """The game being played (the current game of a match)."""
        return self.g.game if isinstance(self.g, Match) else self.g

    # ---- output

    def say(self, text: str = "", indent: str = "    ") -> None:
        """Write ``text``, each line cut to the table's width on a terminal."""
        for line in text.split("\n"):
            for piece in fit(line, self.width, indent) if self.wrap else (line,):
                self.out.write(piece + "\n")
        self.out.flush()

    def catch_up(self) -> None:
        events = self.g.events_for(self.human)
        for ev in events[self.shown :]:
            if ev[0] == "game" and ev[1] > 1:
                self._between_games(ev[1])
            if self.shedding and ev[0] in ("deal", "trump"):
                if ev[0] == "deal":
                    who = self.t.does(ev[2], "deals")
                    self.say(f"\n=== {who} the whole pack, one card at a time ===")
                continue
            if ev[0] == "score" and not self.shedding:
                self._between_hands(events, ev)  # the sheet and a recap, not the long line
                continue
            if ev[0] == "counters":
                continue  # the sheet shows each counter by its name
            line = narrate(ev, self.t, self.current().hand_sizes)
            if line is not None:
                self.say(line)
            if ev[0] == "out" and not self.g.is_over:
                # A player out: a pause, rather than the rest of the play scrolling past.
                self.wait("the rest of the game")
        self.shown = len(events)

    def _between_hands(self, events: Sequence[Event], ev: Event) -> None:
        """The sheet's last rows, a one-line recap, then a pause (on a terminal)."""
        over = self.g.is_over
        if not over:
            self.say(self.sheet(events, last=6))
        self.say(self.st.paint(self.recap(events, ev), Style.BOLD))
        if not over:
            self.wait(f"hand {ev[1] + 1}")

    def sheet(self, events: Sequence[Event], last: int | None = None) -> str:
        """The score sheet of ``events``, with the game's columns, at the table's width."""
        variant = self.current().variant
        return score_sheet(events, self.t, last=last, width=self.width, variant=variant)

    def recap(self, events: Sequence[Event], ev: Event) -> str:
        """The line after a hand (its ``score`` event ``ev``): how each person at
        the table did and who leads, by the game's own ``winner:`` rule."""
        t = self.t
        variant = self.current().variant
        points = bool(variant.scoring.card_points) and all(b is None for b in ev[2])
        cases = self.current().hand_cases(ev[1]) if variant.cases else ()
        mine, others = self._case_recap(variant, cases, ev) if cases else ([], [])
        for me in [] if cases else self.humans:
            b, k, p = ev[2][me], ev[3][me], ev[4][me]
            sign = "+" if p >= 0 else ""
            who = t.name(me) if self.hot_seat else "you"
            if points:
                mine.append(f"{who} took {plural(k, 'trick')}, scoring {_num(p)}")
            elif b is None:
                mine.append(f"{who} took {plural(k, 'trick')} ({sign}{_num(p)})")
            else:
                made = "made it" if b == k else f"took {k}"
                mine.append(f"{who} bid {b} and {made} ({sign}{_num(p)})")
        totals = ev[5]
        gone = {e[1] for e in events if e[0] == "knocked out"}
        first = leaders(variant, totals, gone)
        best = totals[first[0]]
        rule = "" if variant.scoring.higher_wins else " (lowest wins)"
        if len(first) == 1:
            verb = "lead" if t.name(first[0]) == "You" else "leads"
            lead = f"{t.name(first[0])} {verb} with {_num(best)}{rule}"
        else:
            lead = f"{', '.join(t.name(s) for s in first)} share the lead with {_num(best)}{rule}"
        recap = f"Hand {ev[1]} over: {'; '.join(mine)}. {lead}"
        if not self.hot_seat and self.human not in first:
            recap += f"; you have {_num(totals[self.human])}"
        if others:
            recap += ". " + "; ".join(others)
        return recap + "."

    def _case_recap(
        self, variant: Variant, cases: Sequence[Sequence[str]], ev: Event
    ) -> tuple[list[str], list[str]]:
        """Each side's hand in the game's own words (its file's ``case`` lines):
        the people's sides, then the others' (which the recap gives after who
        leads). ``you and Chitra nil failed (Chitra), made 7 on 5, 2 bags
        (+52)``: each case's recap words (``shown``) follow the names, so a
        file writes them as a verb phrase. A case one partner's hand fell in
        and not the other's names that partner."""
        t = self.t
        sides = list(variant.teams) or [(s,) for s in range(len(cases))]
        mine: list[str] = []
        others: list[str] = []
        for side in sides:
            if not any(cases[s] for s in side):
                continue  # a seat knocked out: no hand to name
            names = ["you" if s in self.humans and not self.hot_seat else t.name(s) for s in side]
            shared = [w for w in cases[side[0]] if all(w in cases[s] for s in side)]
            own = [
                f"{w} ({name})"
                for s, name in zip(side, names, strict=True)
                for w in cases[s]
                if w not in shared
            ]
            p = ev[4][side[0]]
            sign = "+" if p >= 0 else ""
            words = f"{' and '.join(names)} {', '.join([*own, *shared])} ({sign}{_num(p)})"
            (mine if any(s in self.humans for s in side) else others).append(words)
        return mine, others

    def _between_games(self, number: int) -> None:
        """A match: a recap of the letters, then a pause before the next game."""
        if isinstance(self.g, Match) and self.g.letters:
            self.say("Letters: " + self.t.seats([w or "-" for w in self.g.letters]))
        self.wait(f"game {number}")

    def wait(self, what: str) -> None:
        """Press Enter to go on (only on a terminal and without --no-pause)."""
        if not self.pause:
            return
        text = self.ask(f"Press Enter for {what} (or quit) > ").lower()
        if text in ("quit", "exit", "q") and self.confirm_quit():
            raise _Quit

    def grid(self, rows: list[tuple[str, list[str]]]) -> None:
        """The seats as columns, in the order of play from the player's own."""
        v_order = self.order()
        names = [self.t.name(s) for s in v_order]
        cols = [(label, [cells[s] for s in v_order]) for label, cells in rows]
        self.say("\n".join(seat_grid(names, cols, self.width, head="seat")))

    def order(self) -> list[int]:
        """Every seat in the order of play, starting with the player's own."""
        order = self.g.view(self.human).seat_order
        if not order:
            return list(range(self.g.players))
        return [self.human, *(s for s in order if s != self.human)]

    def trick_cells(self, v: View) -> list[str]:
        """A cell per seat: the card it played to the current trick, ``?`` for
        the seat to play, ``out`` for a seat out of the hand."""
        cells = ["" for _ in range(v.players)]
        for s, c in v.trick:
            cells[s] = self.t.card(c)
        if v.out:
            for s, gone in enumerate(v.out):
                if gone and not cells[s]:
                    cells[s] = "out"
        if v.to_act is not None and not cells[v.to_act]:
            cells[v.to_act] = self.st.paint("?", *Style.TURN.split(";"))
        return cells

    def shed_status(self, v: View) -> None:
        """The table of a shedding game: cards left, who is out, known cards, letters."""
        t = self.t
        game = f"Game {self.g.game_number} · " if isinstance(self.g, Match) else ""
        self.say("")
        dead = plural(v.dead_count, "card")
        self.say(f"{game}{t.name(v.dealer)} dealt · {dead} dead")
        counts = ["out" if v.out and v.out[s] else str(k) for s, k in enumerate(v.hand_counts)]
        rows = [("cards", counts)]
        if v.letters:
            rows.append(("letters", [w or "-" for w in v.letters]))
        if v.phase == "play":
            rows.append(("trick", self.trick_cells(v)))
        self.grid(rows)
        for s, seen in v.known_hands:
            shown = format_hand(seen, None, t.unicode, style=self.st)
            self.say(f"{t.does(s, 'holds')} (picked up): {shown}")

    def status(self, v: View) -> list[Card]:
        t = self.t
        if self.shedding:
            self.shed_status(v)
            return self._hand_lines(v)
        g = self.current()
        of = status_length(g.variant, v.hand_number, len(g.hand_sizes))
        self.say("")
        self.say(
            f"Hand {v.hand_number}{of} · {plural(v.hand_size, 'card')} · "
            f"{t.name(v.dealer)} dealt · trumps: {t.suit(v.trump)}"
            + (f" ({t.card(v.turned_up)} turned up)" if v.turned_up is not None else "")
        )
        bidding = any(v.bid_made) or v.phase == "bid"
        self.grid(self._status_rows(v, bidding))
        if bidding:
            total = sum(b for b in v.bids if b is not None)
            self.say(f"Bids so far: {total} for {plural(v.hand_size, 'trick')}.")
        if v.phase == "pass" and v.pass_to is not None:
            chosen = " ".join(t.card(c) for c in v.passed) or "none yet"
            self.say(f"Passing to {t.name(v.pass_to)}; chosen so far: {chosen}")
        for s, seen in v.visible_hands:
            self.say(f"{t.name(s)} holds: {format_hand(seen, v.trump, t.unicode, style=self.st)}")
        return self._hand_lines(v)

    def _status_rows(self, v: View, bidding: bool) -> list[tuple[str, list[str]]]:
        """The rows of the table of a trick-taking game: the sides, the bids
        (when ``bidding``), the tricks won, the scores and the trick."""
        rows: list[tuple[str, list[str]]] = []
        if v.teams:  # partners: a letter per side
            side = ["" for _ in range(v.players)]
            for i, team in enumerate(v.teams):
                for s in team:
                    side[s] = "ABCDEFGH"[i % 8]
            rows.append(("side", side))
        if bidding:
            rows.append(
                (
                    "bid",
                    [
                        str(b) if b is not None else ("?" if m else "-")
                        for b, m in zip(v.bids, v.bid_made, strict=True)
                    ],
                )
            )
        if v.phase == "play":
            rows.append(("won", [str(k) for k in v.tricks_won]))
        rows.append(("score", [_num(x) for x in v.scores]))
        if v.phase == "play":
            rows.append(("trick", self.trick_cells(v)))
        return rows

    def _hand_lines(self, v: View) -> list[Card]:
        t = self.t
        if v.hand is None:
            self.say("Your hand: (not seen yet)")
            return []
        cards = sort_for_display(v.hand, v.trump)
        plays = {a.card for a in v.legal_actions if isinstance(a, (Play, Pass))}
        legal = plays if plays else None
        hand = format_hand(cards, v.trump, t.unicode, style=self.st, legal=legal)
        self.say(f"Your hand: {hand}", indent=" " * 11)
        entries = [
            f"{i}) {self.st.card(c, legal=None if legal is None else c in legal)}"
            for i, c in enumerate(cards, start=1)
        ]
        for line in pack_entries(entries, self.width if self.wrap else None, " " * 11):
            self.say(line, indent=" " * 11)
        allowed = [c for c in cards if Play(c) in v.legal_actions]
        if allowed and len(allowed) < len(cards):
            self.say(f"You may play: {' '.join(t.card(c) for c in allowed)}")
        if Take() in v.legal_actions:
            self.say("Or type take to take your neighbour's cards before you lead.")
        return cards

    def turn_line(self, v: View) -> None:
        """``Your turn: you lead trick 3 of 10`` (or who led, what to pass...)."""
        if v.phase == "play":
            # The game as it stands: a trick a take-back undid is not done.
            n = tricks_done(current_line(self.g.events_for(self.human))) + 1
            of = "" if self.shedding else f" of {v.hand_size}"
            if not v.trick:
                what = f"you lead trick {n}{of}"
            else:
                led = v.trick[0][1]
                suit = str(led) if led.is_joker else self.st.suit(led.suit, v.trump)
                what = f"trick {n}{of}, {self.t.name(v.trick[0][0])} led {suit}"
        elif v.phase == "bid":
            what = "your bid"
        elif v.phase == "pass" and v.pass_to is not None:
            what = f"choose cards to pass to {self.t.name(v.pass_to)}"
        elif v.phase == "trumps":
            what = "the choice of trumps"
        else:
            return
        self.say(self.st.paint(f"Your turn: {what}.", *Style.TURN.split(";")))

    # ---- input

    def ask(self, prompt: str) -> str:
        try:
            line = input(prompt)
        except EOFError:
            self.say("")
            raise _Quit from None
        if self.echo:
            self.say(line)
        return line.strip()

    def confirm_quit(self) -> bool:
        """Whether to quit: asks first when the game has moved on unsaved."""
        if self.save_path or self.g.is_over or not self.acted:
            return True
        answer = self.ask("The game is not saved. Quit anyway? (y, n, or save FILE) > ")
        low = answer.lower()
        if low.startswith("save"):
            self.save(answer[5:].strip() or None)
            return bool(self.save_path)
        if low in ("y", "yes", "quit", "q"):
            return True
        self.say("Playing on.")
        return False

    def parse(self, text: str, v: View, cards: list[Card]) -> Action | None:
        """The action meant by ``text``, or ``None`` after printing why not."""
        low = text.lower()
        legal = v.legal_actions
        if v.phase == "bid":
            return self._parse_bid(low, v)
        if low in ("take", "take hand"):
            return Take()
        act = Pass if v.phase == "pass" else Play
        if v.phase == "trumps":
            if text.isdigit() and 1 <= int(text) <= len(cards):
                text = f"discard {cards[int(text) - 1]}"
            return self._parse_call(text, legal)
        if text.isdigit():
            k = int(text)
            if not 1 <= k <= len(cards):
                if len(cards) == 1:
                    self.say(f"There is no card number {k}: you hold 1 card, type 1.")
                else:
                    self.say(f"There is no card number {k}: choose 1 to {len(cards)}.")
                return None
            return act(cards[k - 1])
        named = {t.casefold(): c for c, t in self.st.names.items()}
        try:
            return act(CARDS[named[text.casefold()]] if text.casefold() in named else card(text))
        except CardError as exc:
            self.say(f"Not a card: {exc}. Type a card such as QS, q♠ or 10h, or its number.")
            return None

    def _parse_bid(self, low: str, v: View) -> Action | None:
        """A bid (``3``, ``bid 3``, ``blind 3``, ``look``), or a change of bid
        when that is all the seat may do (``change 3``), from ``low`` (the
        text typed, in lower case); ``None`` after printing why not."""
        legal = v.legal_actions
        amending = bool(legal) and all(isinstance(a, Amend) for a in legal)
        if low == "look":
            return Look()
        words = low.split()
        blind = bool(words) and words[0] == "blind"
        if blind or (words and words[0] in ("bid", "change", "amend")):
            words = words[1:]
        if len(words) == 1 and words[0].isdigit():
            n = int(words[0])
            if n > 52:
                self.say(f"Not allowed: a bid is a number of tricks, from 0 to {v.hand_size}")
                return None
            if amending:
                return Amend(n)
            return Bid(n, blind=blind)
        self.say("Bid a number of tricks, such as 2 (or type help).")
        return None

    def _parse_call(self, text: str, legal: Sequence[Action]) -> Action | None:
        """A choice of trumps: ``order up``, ``pass``, ``name hearts`` (or just
        ``hearts``), ``name no trumps``, ``discard QS`` (or just ``QS``)."""
        from cardrules.engine.views.notation import parse_action

        words = text.split()
        tries = [text]
        if len(words) == 1:
            tries += [f"name {text}", f"name {text}s", f"discard {text}"]
        first: Action | None = None
        for attempt in tries:
            try:
                action = parse_action(attempt)
            except InvalidAction:
                continue
            if action in legal:
                return action
            first = first or action
        if first is not None:
            return first  # not legal now: applying it says why
        choices = ", ".join(a.label for a in legal)
        self.say(f"Choose one of: {choices}")
        return None

    # ---- saving

    def save(self, path: str | None = None) -> None:
        target = path or self.save_path
        if not target:
            self.say("Give a file: save FILE (or start with --save FILE).")
            return
        data = {**self.meta, "seat": self.humans[0], "bots": self.bot_name}
        if self.hot_seat:
            data["humans"] = list(self.humans)
        if self.level:
            data["level"] = self.level
        data["match"] = isinstance(self.g, Match)
        data["game"] = json.loads(self.g.to_json())
        tmp = f"{target}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False)
            os.replace(tmp, target)
        except OSError as exc:
            self.say(f"Could not save to {target}: {exc.strerror or exc}")
            return
        self.save_path = target
        self.acted = False
        self.say(f"Game saved to {target} (continue with: cardrules play --load {target}).")

    # ---- the loop

    def human_turn(self) -> None:
        g = self.g
        v = g.view(self.human)
        amending = g.to_act != self.human and any(isinstance(a, Amend) for a in v.legal_actions)
        cards = self.status(v)
        prompt = self._prompt(v, amending)
        self.turn_line(v)
        while True:
            text = self.ask(prompt)
            low = text.lower()
            if amending and not text:
                self.kept_bid_at = len(g.events)
                return
            if not text:
                continue
            if low in ("show", "table"):
                cards = self.status(v)
                self.turn_line(v)
                continue
            ended = self._command(text, v)
            if ended is not None:
                if ended:
                    return
                continue
            if v.phase == "pass" and len(text.split()) > 1:
                if self._pass_several(text.split(), v, cards):
                    return
                continue
            action = self.parse(text, v, cards)
            if action is None:
                continue
            try:
                g.apply(action, self.human)
            except (IllegalAction, InvalidAction) as exc:
                self.say(f"Not allowed: {seats_from_one(str(exc))}")
                continue
            self.acted = True
            return

    def _pass_several(self, words: list[str], v: View, cards: list[Card]) -> bool:
        """Choose several cards to pass at once (``ah ac ad``, or their numbers);
        whether any was chosen (the turn then ends). Each card is read first; the
        first refused is said, and those before it stay chosen."""
        actions = []
        for word in words:
            action = self.parse(word, v, cards)
            if action is None:
                return False
            actions.append(action)
        chosen = 0
        for action in actions:
            try:
                self.g.apply(action, self.human)
            except (IllegalAction, InvalidAction) as exc:
                self.say(f"Not allowed: {seats_from_one(str(exc))}")
                break
            chosen += 1
        self.acted = self.acted or chosen > 0
        return chosen > 0

    def _prompt(self, v: View, amending: bool) -> str:
        """The prompt of the player's turn (for the choice of trumps, the
        choices are said first)."""
        if amending:
            return "Change your bid? (a number, or Enter to keep it) > "
        if v.phase == "bid":
            if v.hand is None and any(isinstance(a, Look) for a in v.legal_actions):
                return "Your bid (blind N or look; help) > "
            hook = self.current().variant.bidding.hook
            return f"Your bid ({bid_choices(v.legal_actions, hook)}; help, quit) > "
        if v.phase == "pass":
            return "A card to pass (QS, q♠, 10h or its number; help, quit) > "
        if v.phase == "trumps":
            self.say("Choose: " + ", ".join(a.label for a in v.legal_actions))
            return "Your choice (help, quit) > "
        return "Your card (QS, q♠, 10h or its number; help, quit) > "

    def _command(self, text: str, v: View) -> bool | None:
        """Carry out ``text`` if it is a command rather than an action
        (``quit``, ``help``, ``sheet``, ``last``, ``dead``, ``hint``, ``save``,
        ``undo``): ``None`` when it is not one, else whether it ended the turn
        (a take-back does)."""
        low = text.lower()
        if low in ("quit", "exit", "q"):
            if self.confirm_quit():
                raise _Quit
        elif low in ("help", "?", "h"):
            self.say(self.help())
        elif low in ("sheet", "scores", "score"):
            if self.shedding:
                self.shed_status(self.g.view(self.human))
            else:
                self.say(self.sheet(self.g.events_for(self.human)))
        elif low in ("last", "last trick"):
            self.last_trick(v)
        elif low == "dead":
            self.dead(v)
        elif low in ("hint", "hint?"):
            self.hint(v)
        elif low == "save" or low.startswith("save "):
            self.save(text[5:].strip() or None)
        elif low in ("undo", "take back", "takeback"):
            return self.take_back()
        else:
            return None
        return False

    def help(self) -> str:
        """The commands of this game (derived from its variant and take-back policy)."""
        g = self.current()
        undo = None
        if not isinstance(self.g, Match) and g.take_back_policy is not TakeBacks.NEVER:
            undo = g.take_back_policy.value
        return help_text(g.variant, undo=undo, match=isinstance(self.g, Match))

    def last_trick(self, v: View) -> None:
        """The ``last`` command: the cards of the last trick and where it went."""
        if not v.last_trick:
            self.say("No trick is over yet in this hand.")
            return
        cards = ", ".join(f"{self.t.name(s)} {self.t.card(c)}" for s, c in v.last_trick)
        self.say(f"Last trick: {cards}")
        events = self.g.events_for(self.human)
        for ev in reversed(events):
            if ev[0] in _TRICK_ENDS:
                line = narrate(ev, self.t)
                if line:
                    self.say(line)
                break

    def dead(self, v: View) -> None:
        """The ``dead`` command: the dead cards this seat may see, or why none."""
        if not self.shedding:
            self.say(
                "This game has no dead cards: every trick is won by a player "
                "(sheet shows the tricks won, last the last trick)."
            )
            return
        if not v.dead_count:
            self.say("No dead cards yet.")
            return
        seen = format_hand(sort_for_display(v.dead, None), None, self.t.unicode, style=self.st)
        count = plural(v.dead_count, "dead card")
        if len(v.dead) == v.dead_count:
            self.say(f"{count}: {seen}")
            return
        rule = self.current().variant.shedding.dead_tricks.value
        mine = f"the {plural(len(v.dead), 'card')} you played: {seen}" if v.dead else "none"
        self.say(f"{count}, turned {rule} (`dead tricks: {rule}`): you may see only {mine}")

    def hint(self, v: View) -> None:
        """The ``hint`` command: what the heuristic bot would do, with the
        figures behind it when it has some."""
        if not v.legal_actions:
            self.say("Nothing to do just now.")
            return
        action = self.adviser.choose(v)
        what = action.label
        if isinstance(action, Play):
            what = f"play {self.t.card(action.card)}"
        elif isinstance(action, Pass):
            what = f"pass {self.t.card(action.card)}"
        self.say(f"Hint: the heuristic bot would {what}.")
        why = self._why(v, action)
        if why:
            self.say(why)

    def _why(self, v: View, action: Action) -> str:
        me = self.human
        if isinstance(action, Bid):
            estimate = getattr(self.adviser, "estimate", None)
            if callable(estimate):
                return f"It reckons your hand is worth about {estimate(v):.1f} tricks."
            return ""
        if isinstance(action, Play) and not self.shedding and v.bids[me] is not None:
            bid, won = v.bids[me], v.tricks_won[me]
            assert bid is not None
            if won >= bid:
                return f"You bid {bid} and have {won}: your bid is made."
            need = bid - won
            return f"You bid {bid} and have {won}: you still need {plural(need, 'trick')}."
        return ""

    def take_back(self) -> bool:
        """The ``undo`` command: take back the player's last action if the
        take-back policy allows it; whether it did. Past the bots' actions it
        asks them (``Game.request_take_back``), and the bots, here the
        player's own practice partners, always agree."""
        g = self.g
        if isinstance(g, Match):
            self.say("Not allowed: take-backs are not available in a match.")
            return False
        try:
            if g.can_request_take_back(self.human):
                request = g.request_take_back(self.human)
                taken: tuple[Action, ...] = ()
                people = [self.t.name(s) for s in request.asked if s in self.humans]
                if people:  # hot-seat: another person played since; the screen is not theirs
                    g.answer(self.human, False)  # the request withdrawn
                    self.say(
                        f"Not allowed: {', '.join(people)} played since, and would have to agree."
                    )
                    return False
                for seat in request.asked:
                    taken = g.answer(seat, True)
                self.say("The bots agree to take back their actions.")
            else:
                taken = g.take_back(self.human)
        except IllegalAction as exc:
            self.say(f"Not allowed: {seats_from_one(str(exc))}")
            return False
        # The take-back's record is said here, in words: not narrated again.
        self.shown = len(g.events_for(self.human))
        self.kept_bid_at = -1
        after = len(taken) - 1
        more = f", and the {after} action{'s' if after > 1 else ''} made after it" if after else ""
        self.say(f"Taken back: your {taken[-1].label}{more}.")
        return True

    def run(self) -> int:
        self._greet()
        try:
            self._play()
        except _Quit:
            if self.save_path:
                self.save()
            self.say("Bye.")
            return 0
        except KeyboardInterrupt:
            self.say("")
            if self.save_path:
                self.save()
            self.say("Stopped.")
            return 130
        res = self.g.result
        assert res is not None
        self.say("")
        if self.shedding:
            self._shed_end(res)
        else:
            self._end(res)
        if self.save_path:
            self._autosave()
        return 0

    def _greet(self) -> None:
        """The lines before play: the game, the seats, and a resumed game's state."""
        g = self.g
        title = g.variant.title or g.variant.name
        bots = f"{self.level} ({self.bot_name})" if self.level else self.bot_name
        if self.hot_seat:
            people = ", ".join(self.t.name(s) for s in self.humans)
            others = "" if len(self.humans) == g.players else f"; the others are {bots} bots"
            self.say(f"{title}: {g.players} players. At this screen: {people}{others}.")
            self.say(
                "Between the turns of different people the screen is cleared: "
                "take the seat when your name is called. Type help for commands."
            )
        else:
            self.say(
                f"{title}: {g.players} players. You are seat {self.human + 1}; "
                f"the others are {bots} bots. Type help for commands."
            )
        if isinstance(g, Match):
            word = "-".join(g.variant.match.word)
            self.say(f"A match: each game's loser takes the next letter of {word}.")
        if self.resumed and self.shedding:
            self.say("Continuing the saved game.")
        elif self.resumed:
            self.say(f"Continuing the saved game at hand {self.current().hand_number}.")
            self.say(self.sheet(g.events_for(self.human)))

    def _play(self) -> None:
        """Play the game to its end: the people's turns asked, the bots' played.

        With several people at the table (hot-seat) the screen is cleared
        between the turns of different people, and the next one is asked to
        take the seat; what the bots did meanwhile is told to that person."""
        g = self.g
        while not g.is_over:
            turn = self._person_to_act()
            if not self.hot_seat or turn is not None:
                if turn is not None and turn != self.human:
                    self.hand_over(turn)
                self.catch_up()
            if turn is not None:
                self.human_turn()
                if self.save_path and not g.is_over:
                    self._autosave()
                continue
            waiting = g.waiting_for
            seat = g.to_act
            if seat is None or seat in self.humans:
                seat = min(s for s in waiting if s not in self.humans)
            bot = self.bots[seat]
            assert bot is not None
            if isinstance(bot, GameBot):  # a search bot searches the current game
                g.apply(decide(bot, self.current(), seat), seat)
            else:
                g.apply(bot.choose(g.view(seat)), seat)
        self.catch_up()

    def _person_to_act(self) -> int | None:
        """The person's seat to act now (the seat to act, else one who may
        still change a bid), or ``None`` when it is a bot's turn."""
        g = self.g
        waiting = g.waiting_for
        first = [g.to_act] if g.to_act in self.humans else []
        for seat in [*first, self.human, *self.humans]:
            if seat in waiting and (g.to_act == seat or self.kept_bid_at != len(g.events)):
                return seat
        return None

    def hand_over(self, seat: int) -> None:
        """Hot-seat: hide the screen and ask the person at ``seat`` to take it."""
        self.human = seat
        name = self.t.name(seat)
        if not self.screen:  # no screen to hide (input from a file or a pipe)
            self.say(f"\n--- {name}'s turn ---")
            return
        self.out.write("\x1b[2J\x1b[3J\x1b[H")  # clear the screen and what it scrolled
        self.out.flush()
        text = self.ask(f"{name}, take the seat and press Enter (or quit) > ").lower()
        if text in ("quit", "exit", "q") and self.confirm_quit():
            raise _Quit

    def _end(self, res: Result) -> None:
        """The end of a trick-taking game: the sheet, the totals and who won."""
        t = self.t
        self.say(self.sheet(self.g.events))
        totals = "   ".join(f"{t.name(s)} {_num(x)}" for s, x in enumerate(res.totals))
        if len(f"Final totals: {totals}") <= self.width:
            self.say(f"\nFinal totals: {totals}")
        else:
            self.say("\nFinal totals:")
            self.grid([("total", [_num(x) for x in res.totals])])
        if res.loser is not None:
            self.say(f"{t.does(res.loser, 'is')} left holding cards.")
        if res.winners and not self.current().variant.scoring.higher_wins:
            self.say("The lowest total wins.")
        if not res.winners:
            self.say("The game stopped before its end.")
        elif res.shared:
            self.say("Shared win: " + ", ".join(t.name(s) for s in res.winners) + ".")
        elif res.winners == (self.human,) and not self.hot_seat:
            self.say("You win!")
        else:
            self.say(f"{t.name(res.winners[0])} wins.")

    def _shed_end(self, res: Result) -> None:
        t = self.t
        if isinstance(self.g, Match):
            self.say("Letters: " + t.seats([w or "-" for w in self.g.letters]))
            if res.loser is None:
                self.say("The match stopped before anyone spelt the word.")
            else:
                word = self.g.variant.match.word
                self.say(f"{t.does(res.loser, 'is')} the {word.lower()}: the match is over.")
            return
        word = self.g.variant.match.word.lower()
        if not res.finished:
            self.say("The game stopped before its end (the trick limit).")
        elif res.loser is None:
            self.say(
                f"Everyone went out together: nobody is the {word}." if word else "Nobody loses."
            )
        else:
            self.say(f"{t.does(res.loser, 'is')} left holding cards: the {word or 'loser'}.")
            if res.loser != self.human and not self.hot_seat:
                self.say("You are safe.")

    def _autosave(self) -> None:
        out, self.out = self.out, open(os.devnull, "w")  # noqa: SIM115
        try:
            self.save()
        finally:
            self.out.close()
            self.out = out


# --------------------------------------------------------------------------- the command


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "variant",
        nargs="?",
        metavar="NAME_OR_FILE",
        help="a built-in name or a variant file (not needed with --load)",
    )
    p.add_argument("--players", type=int, default=None, metavar="N", help="number of players")
    p.add_argument(
        "--seat", type=int, default=None, metavar="S", help="your seat, counted from 1 (1)"
    )
    p.add_argument(
        "--humans",
        default=None,
        metavar="SEATS",
        help="several people at one screen (hot-seat), their seats counted from 1, "
        "such as 1,3; the screen is hidden between their turns",
    )
    add_set_option(p)
    p.add_argument(
        "--bots", default=None, choices=sorted(BOTS), help="the other players (heuristic)"
    )
    p.add_argument(
        "--level",
        default=None,
        choices=list(LEVELS),
        help="how well the bots play: easy (random cards), normal (the heuristic bot), "
        "hard (a search bot, under a second a move)",
    )
    p.add_argument(
        "--seed", type=int, default=None, metavar="S", help="deal from this seed, 0 to 2**64 - 1"
    )
    p.add_argument("--save", metavar="FILE", help="save the game to FILE as you play and on exit")
    p.add_argument(
        "--load",
        metavar="FILE",
        help="continue a game saved with --save, with the rules it holds (or with "
        "NAME_OR_FILE, which the save must match)",
    )
    p.add_argument(
        "--take-backs",
        default=None,
        choices=[t.value for t in TakeBacks],
        metavar="POLICY",
        help="when you may take back an action with `undo`: "
        + ", ".join(repr(t.value) for t in TakeBacks)
        + " (default: the variant's `take backs:`)",
    )
    p.add_argument(
        "--no-color",
        "--no-colour",
        dest="colour",
        action="store_false",
        default=None,
        help="no colour (also when NO_COLOR is set or the output is not a terminal)",
    )
    p.add_argument(
        "--no-pause",
        dest="pause",
        action="store_false",
        default=True,
        help="go straight on between hands (there is no pause when input is not a terminal)",
    )
    p.add_argument(
        "--match",
        action="store_true",
        help="play a whole match: game after game until one player holds the variant's "
        "word (K-A-Z-H-U-T-H-A); shedding variants with a match word",
    )


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _width(out: TextIO) -> int:
    """The columns to lay the table out in: the terminal's (40 at least), or
    80 when the output is not a terminal."""
    if not _is_tty(out):
        return DEFAULT_WIDTH
    return max(40, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def _default_players(v: Variant) -> int:
    return 4 if v.players.min <= 4 <= v.players.max else v.players.min


#: What a session needs besides its game: the people's seats, the bots' name
#: and the level (``None``: chosen by ``--bots``).
_Seats = tuple[tuple[int, ...], str, str | None]


def _parse_humans(text: str, players: int) -> tuple[int, ...]:
    """The seats of ``--humans 1,3`` (counted from 1), as seat indexes.

    Raises:
        UsageError: for a list that is not seats of this game, or a seat twice.
    """
    words = [w for w in text.replace(" ", ",").split(",") if w]
    if not words or len(words) > players or not all(w.isdigit() and len(w) < 4 for w in words):
        raise UsageError(
            f"--humans takes seats from 1 to {players} separated by commas, such as 1,3; "
            f"not {text[:40]!r}"
        )
    seats = [check_number("--humans", int(w), 1, players) - 1 for w in words]
    if len(set(seats)) != len(seats):
        raise UsageError(f"--humans names a seat twice: {text[:40]!r}")
    return tuple(sorted(seats))


def _choose_seats(args: argparse.Namespace, players: int, seats: _Seats) -> _Seats:
    """``seats`` (the saved game's, or the defaults) with the command line's
    ``--seat``, ``--humans``, ``--bots`` and ``--level`` applied."""
    humans, bots, level = seats
    if args.seat is not None and args.humans is not None:
        raise UsageError("give --seat or --humans, not both (--humans 1,3 seats two people)")
    if args.seat is not None:
        humans = (check_number("--seat", args.seat, 1, players) - 1,)
    if args.humans is not None:
        humans = _parse_humans(args.humans, players)
    if args.bots is not None and args.level is not None:
        raise UsageError("give --bots or --level, not both (--level hard plays the pimc bot)")
    if args.bots is not None:
        bots, level = args.bots, None
    if args.level is not None:
        bots, level = LEVELS[args.level], args.level
    return humans, bots, level


def _load_session(args: argparse.Namespace) -> tuple[Game | Match, dict[str, Any], _Seats]:
    """Restore a saved session.

    The rules come from the save itself (it carries them, resolved), or from the
    variant named on the command line, which the save must then match. A
    variant name or path written in the save is never loaded: a save is
    untrusted and must not choose a file to read.
    """
    path = Path(args.load)
    raw = read_regular_file(path, MAX_SAVE_BYTES, SaveError, str(path))
    try:
        data = jsontext.loads(raw)
    except jsontext.BadJSON as exc:
        raise SaveError(f"{path} is not a saved game: {exc}") from None
    named = load_argument(args.variant, args.overrides) if args.variant else None
    game: Game | Match
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        saved = data.get("game")
        if not isinstance(saved, dict):
            raise SaveError(f"{path}: the saved game is missing")
        text = json.dumps(saved, ensure_ascii=False)
        game = Match.from_json(text, named) if data.get("match") else Game.from_json(text, named)
        seat = data.get("seat", 0)
        bots = data.get("bots", "heuristic")
        humans = data.get("humans", [seat])
        level = data.get("level")
        overrides = data.get("overrides")
        if not isinstance(overrides, list) or not all(isinstance(o, str) for o in overrides):
            overrides = []
    else:  # a bare Game.to_json() save
        game = Game.from_json(raw, named)
        seat, bots, overrides, humans, level = 0, "heuristic", [], [0], None
    if args.variant:
        name, overrides = args.variant, list(args.overrides)
    else:  # recorded for the next save only, never loaded
        name = game.variant.name
    if not isinstance(humans, list) or not 1 <= len(humans) <= game.players:
        raise SaveError(f"{path}: the people's seats must be a list of seats of this game")
    for s in [seat, *humans]:
        if type(s) is not int or not 0 <= s < game.players:
            shown = describe_number(s) if type(s) is int else type(s).__name__
            raise SaveError(f"{path}: seat {shown} is not a seat of this game")
    if len(set(humans)) != len(humans):
        raise SaveError(f"{path}: the people's seats name a seat twice")
    if not isinstance(bots, str) or bots not in BOTS:
        raise SaveError(f"{path}: unknown bots {str(bots)[:40]!r}")
    if level is not None and level not in LEVELS:
        raise SaveError(f"{path}: unknown level {str(level)[:40]!r}")
    seats = _choose_seats(args, game.players, (tuple(sorted(humans)), bots, level))
    meta = {"format": SAVE_FORMAT, "version": 1, "variant": name, "overrides": overrides}
    return game, meta, seats


def _check_load_options(args: argparse.Namespace) -> None:
    """Refuse the options a saved game decides (``--players``, ``--seed``,
    ``--match``), and ``--set`` without the variant named."""
    given = [
        opt
        for opt, value in (
            ("--players", args.players),
            ("--seed", args.seed),
            ("--match", args.match or None),
        )
        if value is not None
    ]
    if given:
        raise UsageError(
            f"{' and '.join(given)} cannot be given with --load: the saved game "
            "holds its players, seed and kind"
        )
    if args.overrides and not args.variant:
        raise UsageError(
            "--set with --load needs the variant named too: "
            "cardrules play NAME --load FILE --set ... (and the save must match it)"
        )


def _run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.seed is not None:
        check_number("--seed", args.seed, 0, MAX_SEED, "2**64 - 1")
    if args.load:
        _check_load_options(args)
        game, meta, seats = _load_session(args)
    else:
        if not args.variant:
            print("cardrules play: name a variant (or --load FILE)", file=sys.stderr)
            return 2
        v = load_argument(args.variant, args.overrides)
        players = check_players(v, args.players) if args.players is not None else None
        if players is None:
            players = _default_players(v)
        seats = _choose_seats(args, players, ((0,), "heuristic", None))
        try:
            if args.match:
                game = Match(v, players=players, seed=args.seed)
            else:
                game = Game(v, players=players, seed=args.seed)
        except ValueError as exc:
            print(f"cardrules: {exc}", file=sys.stderr)
            return 1
        meta = {
            "format": SAVE_FORMAT,
            "version": 1,
            "variant": args.variant,
            "overrides": list(args.overrides),
        }
    if args.take_backs is not None and isinstance(game, Game):
        game.take_back_policy = args.take_backs
    humans, bots, level = seats
    session = _Session(
        game,
        humans,
        bots,
        level=level,
        out=out,
        save_path=args.save or args.load,
        meta=meta,
        resumed=bool(args.load),
        colour=colour_wanted(out, args.colour),
        pause=args.pause and _is_tty(sys.stdin) and _is_tty(out),
        width=_width(out),
        wrap=_is_tty(out),
    )
    try:
        return session.run()
    except CardrulesError:
        raise
    except BrokenPipeError:
        return 0


COMMANDS = [
    Command(
        "play",
        "play a game in the terminal against bots",
        _configure,
        _run,
        description=(
            "Play a whole game of a variant in the terminal against bots. Type cards as "
            "QS, q♠, 10h or their number in your hand; bids as numbers; help for more. "
            "Ctrl-C, Ctrl-D or quit stop; --save FILE keeps the game to --load later."
        ),
    ),
]
