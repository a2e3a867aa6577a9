"""Worked examples in a variant file: the model, how the lines are read and written.

An example is a small case that a variant file carries to prove its rules: a
deal (or the cards of it that matter), the bids and plays up to a point, and
what must hold then. ``cardrules check`` plays every example through the
engine (:mod:`cardrules.example_runner`, which this package does not import)::

    example: a player void in the suit led must over-trump
      with 4 players, seat 4 deals
      seat 1 holds K♥ 2♣ 3♣
      ...
      play K♥ 5♠
      expect seat 3 may play only 9♠

The grammar reads each line as its own statement; :func:`assemble` attaches the
example-only lines to the last ``example:`` line above them (a setting line
ends an example) and checks what can be checked without the game's rules:
limits, repeated cards or seats, the order of the lines. Everything here is
plain data (frozen attrs classes); source positions do not take part in
equality, so a file and its canonical text (:func:`example_lines`) give equal
examples. Seats are stored 0-based and written 1-based, as in
``first dealer: seat N``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any, Final, Protocol

import attrs
from attrs import field, frozen
from lark import Token

from cardrules.cards import (
    MAX_CONTRACT_LEVEL,
    MISERE_STRAIN,
    OPEN_MISERE_STRAIN,
    STRAIN_WORDS,
    SUIT_NAMES,
    Card,
    Suit,
    card,
)
from cardrules.errors import CardError, VariantError
from cardrules.rules import SourcePos

from . import limits
from .settings.statement import strain_code
from .syntax_errors import TERMINALS, error_at

__all__ = [
    "MAX_EXAMPLES",
    "MAX_EXAMPLE_ACTIONS",
    "MAX_EXAMPLE_HAND",
    "MAX_EXAMPLE_LINES",
    "BidItem",
    "Bids",
    "Calls",
    "ChangeBid",
    "Deal",
    "ExLine",
    "Example",
    "ExampleRules",
    "Expect",
    "ExpectKind",
    "Holding",
    "PassCards",
    "PlayOut",
    "Plays",
    "Step",
    "TakeCards",
    "assemble",
    "example_lines",
    "points_text",
    "step_text",
]

#: The most examples one variant file may hold.
MAX_EXAMPLES: Final = 40
#: The most lines one example may have after its ``example:`` line.
MAX_EXAMPLE_LINES: Final = 60
#: The most bids, plays and bid changes one example may make (each card or bid counts).
MAX_EXAMPLE_ACTIONS: Final = 200
#: The latest hand an example may start at (``with hand N``): the hands before
#: it are played out by the engine first.
MAX_EXAMPLE_HAND: Final = 40


def _no_pos() -> SourcePos | None:
    return None


# --------------------------------------------------------------------------- the model


@frozen
class Deal:
    """The ``with`` line of an example: the table and the hand it starts at.

    Attributes:
        players: the number of players (``None``: the fewest the game allows).
        dealer: the seat (0-based) that deals the example's hand (``None``: the
            game's own first dealer when it names a seat, otherwise the seat
            before seat 1, so that seat 1 bids and leads first).
        hand: the hand of the game the example starts at (1 for the first).
        trumps: the trump suit the hand must have (``None``: not said).
        no_trumps: the hand must have no trumps.
        turned_up: the card turned up for trumps (``None``: not said).
        pos: where the ``with`` line is (``None`` when the example has none).
    """

    players: int | None = None
    dealer: int | None = None
    hand: int = 1
    trumps: Suit | None = None
    no_trumps: bool = False
    turned_up: Card | None = None
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)

    @property
    def is_default(self) -> bool:
        """True when the example has no ``with`` line (nothing here is set)."""
        return self == Deal()


@frozen
class Holding:
    """``seat N holds ...``: cards a seat is dealt, and suits it is dealt none of.

    The rest of the seat's hand is dealt from the cards no line names.
    """

    seat: int
    cards: tuple[Card, ...]
    void: tuple[Suit, ...] = ()
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class BidItem:
    """One bid of an example: ``n``, or ``blind n``; in an auction of contracts
    a level in a strain, ``7 hearts``, ``6 no trumps``, ``misère`` or ``open
    misère``."""

    n: int
    blind: bool = False
    strain: int | None = None
    """The strain of a contract bid (0-3 a suit's number, 4 no trumps, 5 misère, 6
    open misère);
    ``None``: a bid of a number."""

    def __str__(self) -> str:
        if self.strain is not None:
            if self.strain >= MISERE_STRAIN:
                return STRAIN_WORDS[self.strain]
            return f"{self.n} {STRAIN_WORDS[self.strain]}"
        return f"blind {self.n}" if self.blind else str(self.n)


@frozen
class Bids:
    """``bids 1 2 blind 0``: bids made in turn by whoever is to bid."""

    bids: tuple[BidItem, ...]
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class ChangeBid:
    """``seat N changes its bid to M`` (games whose bids may be changed)."""

    seat: int
    n: int
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class TakeCards:
    """``seat N takes the cards of seat M`` (shedding games with ``take a hand
    from:``): seat N, about to lead, takes every card of seat M, its neighbour."""

    seat: int
    other: int
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class PassCards:
    """``seat N passes 2♣ 3♣ 4♣``: cards a seat chooses to pass (games with ``pass:``)."""

    seat: int
    cards: tuple[Card, ...]
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class Calls:
    """``calls pass, order up, discard 9♠``: the choice of trumps, made in turn by
    whoever is to act. Each call is ``"pass"``, ``"order up"``, ``"name"`` (with
    ``suit``; ``None`` for no trumps), ``"discard"`` (with ``card``), the
    maker's ``"go alone"`` or ``"play with partner"`` (``going alone:``), or,
    right after the deal, ``"keep the hand"`` or ``"show the hand"``
    (``redeal: ... may be shown``)."""

    calls: tuple[tuple[str, Suit | None, Card | None], ...]
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class Plays:
    """``play K♥ 5♠``: cards played in turn by whoever is to play."""

    cards: tuple[Card, ...]
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


@frozen
class PlayOut:
    """``play out the hand`` / ``play out the game``: every seat in turn takes
    the first action the engine offers (the lowest bid, the lowest card allowed)
    until the hand (or the game) is over."""

    game: bool
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


class ExpectKind(Enum):
    """What an ``expect`` line says holds."""

    MAY_PLAY = "may play"
    MAY_NOT_PLAY = "may not play"
    MAY_BID = "may bid"
    MAY_NOT_BID = "may not bid"
    LEADS = "leads"
    RECEIVES = "receives"
    SCORES = "scores"
    COUNTER = "has"
    IS_OUT = "is out"
    DRAWS = "draws a dead card"
    MAY_TAKE = "may take the cards of"
    HOLDS_COUNT = "holds"
    LOSES = "loses"
    WINS = "wins"
    TAKES_LETTER = "takes the letter"
    DEALS_NEXT = "deals the next game"
    SEES_OWN = "sees its cards"
    SEES_SEAT = "sees the cards of"
    SEES_DEAD = "sees the dead cards"
    TRICK_TO = "the trick goes to"
    TRICK_DEAD = "the trick is dead"
    TRUMPS = "trumps"
    CARDS_EACH = "cards each"
    GAME_OVER = "the game is over"
    NO_LOSER = "no loser"
    MAKES_TRUMPS = "makes trumps"
    THROWN_IN = "the hand is thrown in"
    SHOWS = "shows the hand"
    DEALT_AGAIN = "the hand is dealt again"


@frozen
class Expect:
    """An ``expect`` line.

    Attributes:
        kind: what is expected.
        seat: the seat it is about (0-based), if any.
        other: ``SEES_SEAT``: the seat whose cards are seen (0-based).
        cards: the cards of ``MAY_PLAY`` / ``MAY_NOT_PLAY`` / ``RECEIVES``.
        any_card: ``MAY_PLAY``: the seat may play any card it holds.
        bids: the bids of ``MAY_BID`` / ``MAY_NOT_BID``.
        only: ``MAY_PLAY`` / ``MAY_BID``: exactly these, nothing else.
        negated: ``SEES_*``: the seat cannot see them; ``MAY_TAKE``: it may not.
        reason: ``MAY_NOT_*`` and ``MAY_TAKE`` negated: words the engine's refusal
            must contain.
        points: ``SCORES``: the seat's points for the hand just scored.
        suit: ``TRUMPS``: the trump suit (``None``: no trumps).
        count: ``CARDS_EACH``: cards dealt to each player this hand;
            ``HOLDS_COUNT``: cards the seat holds now; ``COUNTER``: the counter's value.
        counter: ``COUNTER``: the name of the counter (``expect seat 1 has 3 bags``).
        letter: ``TAKES_LETTER``: the letter of the match word.
    """

    kind: ExpectKind
    seat: int | None = None
    other: int | None = None
    cards: tuple[Card, ...] = ()
    any_card: bool = False
    bids: tuple[BidItem, ...] = ()
    only: bool = False
    negated: bool = False
    reason: str = ""
    points: Fraction | None = None
    suit: Suit | None = None
    count: int | None = None
    letter: str = ""
    counter: str = ""
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)


#: What an example does after its deal, in order.
Step = Bids | ChangeBid | PassCards | TakeCards | Plays | Calls | PlayOut | Expect


@frozen
class Example:
    """One worked example of a variant file.

    Attributes:
        title: the words after ``example:``.
        deal: the ``with`` line.
        holdings: the ``seat N holds`` lines, in file order.
        steps: the bids, plays and expectations, in file order.
        pos: where the ``example:`` line is.
    """

    title: str
    deal: Deal = Deal()
    holdings: tuple[Holding, ...] = ()
    steps: tuple[Step, ...] = ()
    pos: SourcePos | None = field(factory=_no_pos, eq=False, repr=False)

    @property
    def expectations(self) -> tuple[Expect, ...]:
        """The ``expect`` lines."""
        return tuple(s for s in self.steps if isinstance(s, Expect))


# --------------------------------------------------------------------------- canonical text


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _bids(bids: Sequence[BidItem]) -> str:
    # With a blind bid among them, commas show which number `blind` goes with;
    # bids in strains (`7 hearts, 8 no trumps`) are read better apart too.
    sep = ", " if any(b.blind or b.strain is not None for b in bids) else " "
    return sep.join(str(b) for b in bids)


def _seat(s: int | None) -> str:
    return f"seat {(s or 0) + 1}"


def points_text(p: Fraction) -> str:
    """A number of points as an example writes it: ``11``, ``-1.5``, ``1/3``."""
    if p.denominator == 1:
        return str(p.numerator)
    for places in range(1, 13):
        scaled = p * 10**places
        if scaled.denominator == 1:
            sign = "-" if p < 0 else ""
            digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
            return f"{sign}{digits[:-places]}.{digits[-places:]}"
    return f"{p.numerator}/{p.denominator}"


def deal_text(d: Deal) -> str:
    """The ``with`` line of ``d`` (without indentation)."""
    items: list[str] = []
    if d.players is not None:
        items.append(f"{d.players} players")
    if d.hand != 1:
        items.append(f"hand {d.hand}")
    if d.dealer is not None:
        items.append(f"{_seat(d.dealer)} deals")
    if d.turned_up is not None:
        items.append(f"turned up {d.turned_up}")
    elif d.trumps is not None:
        items.append(f"trumps {d.trumps.word}")
    if d.no_trumps:
        items.append("no trumps")
    return "with " + (", ".join(items) or f"hand {d.hand}")


def holding_text(h: Holding) -> str:
    """The ``seat N holds`` line of ``h``."""
    text = f"{_seat(h.seat)} holds {_cards(h.cards)}"
    if h.void:
        text += ", void in " + " and ".join(s.word for s in h.void)
    return text


def _expect_text(e: Expect) -> str:
    k = e.kind
    who = _seat(e.seat)
    if k is ExpectKind.MAY_PLAY:
        what = "any card" if e.any_card else _cards(e.cards)
        return f"{who} may play {'only ' if e.only else ''}{what}"
    if k is ExpectKind.RECEIVES:
        return f"{who} receives {_cards(e.cards)}"
    if k is ExpectKind.MAY_NOT_PLAY:
        return f"{who} may not play {_cards(e.cards)}" + (f": {e.reason}" if e.reason else "")
    if k is ExpectKind.MAY_BID:
        return f"{who} may bid {'only ' if e.only else ''}{_bids(e.bids)}"
    if k is ExpectKind.MAY_NOT_BID:
        return f"{who} may not bid {_bids(e.bids)}" + (f": {e.reason}" if e.reason else "")
    if k is ExpectKind.SCORES:
        return f"{who} scores {points_text(e.points or Fraction(0))}"
    if k is ExpectKind.COUNTER:
        return f"{who} has {e.count} {e.counter}"
    if k is ExpectKind.TAKES_LETTER:
        return f"{who} takes the letter {e.letter}"
    if k in (ExpectKind.SEES_OWN, ExpectKind.SEES_SEAT, ExpectKind.SEES_DEAD):
        verb = "cannot see" if e.negated else "can see"
        what = {
            ExpectKind.SEES_OWN: "its cards",
            ExpectKind.SEES_SEAT: f"the cards of {_seat(e.other)}",
            ExpectKind.SEES_DEAD: "the dead cards",
        }[k]
        return f"{who} {verb} {what}"
    if k is ExpectKind.TRICK_TO:
        return f"the trick goes to {who}"
    if k is ExpectKind.TRUMPS:
        return f"trumps {e.suit.word}" if e.suit is not None else "no trumps"
    if k is ExpectKind.CARDS_EACH:
        return f"{e.count} {'card' if e.count == 1 else 'cards'} each"
    if k is ExpectKind.MAY_TAKE:
        verb = "may not take" if e.negated else "may take"
        return f"{who} {verb} the cards of {_seat(e.other)}" + (f": {e.reason}" if e.reason else "")
    if k is ExpectKind.HOLDS_COUNT:
        return f"{who} holds {e.count} {'card' if e.count == 1 else 'cards'}"
    words: str = k.value
    return f"{who} {words}" if e.seat is not None else words


def step_text(step: Step) -> str:
    """The line of one step (without indentation)."""
    if isinstance(step, Bids):
        return f"bids {_bids(step.bids)}"
    if isinstance(step, ChangeBid):
        return f"{_seat(step.seat)} changes its bid to {step.n}"
    if isinstance(step, TakeCards):
        return f"{_seat(step.seat)} takes the cards of {_seat(step.other)}"
    if isinstance(step, PassCards):
        return f"{_seat(step.seat)} passes {_cards(step.cards)}"
    if isinstance(step, Plays):
        return f"play {_cards(step.cards)}"
    if isinstance(step, PlayOut):
        return "play out the game" if step.game else "play out the hand"
    if isinstance(step, Calls):
        return "calls " + ", ".join(call_text(c) for c in step.calls)
    return f"expect {_expect_text(step)}"


def call_text(call: tuple[str, Suit | None, Card | None]) -> str:
    """One call of a ``calls`` line: ``pass``, ``order up``, ``name hearts``,
    ``name no trumps``, ``discard 9♠``, ``go alone``, ``play with partner``,
    ``keep the hand``, ``show the hand``, ``uptown``, ``downtown`` or ``misère``."""
    what, suit, c = call
    if what == "name":
        return f"name {suit.word}" if suit is not None else "name no trumps"
    if what == "discard":
        return f"discard {c}"
    return what


#: How the lines of an example are indented in canonical text.
INDENT: Final = "  "


def example_lines(
    ex: Example, names: Mapping[int, str] | None = None
) -> list[tuple[SourcePos | None, str]]:
    """Every line of ``ex`` in canonical text, with where each was written.

    The ``example:`` line is not indented; the others are, by :data:`INDENT`.
    ``names`` (a pack with ``special symbols``: ``{54: "W1"}``) writes those
    special cards by their symbols.
    """
    out: list[tuple[SourcePos | None, str]] = [(ex.pos, f"example: {ex.title}")]
    body: list[tuple[SourcePos | None, str]] = []
    if not ex.deal.is_default or ex.deal.pos is not None:
        body.append((ex.deal.pos, INDENT + deal_text(ex.deal)))
    body += [(h.pos, INDENT + holding_text(h)) for h in ex.holdings]
    body += [(s.pos, INDENT + step_text(s)) for s in ex.steps]
    if names:
        body = [(pos, _with_symbols(text, names)) for pos, text in body]
    return out + body


_SPECIAL_TEXT: Final = re.compile(r"(?<![\w'-])X(10|[1-9])(?![\w'-])")


def _with_symbols(line: str, names: Mapping[int, str]) -> str:
    """``line`` with the special cards ``names`` renames written by their symbols
    (the reason after an ``expect`` line's colon is left as written)."""
    if not line.lstrip().startswith("expect"):
        return with_symbols(line, names)
    head, colon, reason = line.partition(": ")
    return with_symbols(head, names) + colon + reason


def with_symbols(text: str, names: Mapping[int, str]) -> str:
    """``text`` with each special card ``names`` renames (``X1``, a whole word)
    written by its symbol (``W1``)."""
    if not names:
        return text
    return _SPECIAL_TEXT.sub(lambda m: names.get(53 + int(m.group(1)), m.group(0)), text)


# --------------------------------------------------------------------------- reading the lines


@frozen
class ExLine:
    """One example line as the grammar read it, before :func:`assemble`.

    ``kind`` is ``example``, ``with``, ``holds`` or ``step``; ``tok`` is its
    first token (for the position); ``actions`` counts the bids and plays.
    """

    kind: str
    value: Any
    tok: Token
    actions: int = 0


#: The words of the example terminals, for the "expected ..." of a parse error.
_PHRASES: Final[dict[str, str]] = {
    "K_EXAMPLE": "example",
    "K_WITH": "with",
    "K_PLAY": "play",
    "K_EXPECT": "expect",
    "K_CALLS": "calls",
    "V_PASS": "pass",
    "V_NAME": "name",
    "V_DISCARD": "discard",
    "V_GO_ALONE": "go alone",
    "V_WITH_PARTNER": "play with partner",
    "V_KEEP_HAND": "keep the hand",
    "V_SHOW_HAND": "show the hand",
    "V_UPTOWN": "uptown",
    "V_DOWNTOWN": "downtown",
    "V_MISERE": "misère",
    "V_OPEN_MISERE": "open misère",
    "V_MAKES_TRUMPS": "makes trumps",
    "V_THROWN_IN": "the hand is thrown in",
    "V_SHOWS_HAND": "shows the hand",
    "V_DEALT_AGAIN": "the hand is dealt again",
    "V_DEALS": "deals",
    "V_HOLDS": "holds",
    "V_PASSES": "passes",
    "V_RECEIVES": "receives",
    "V_VOID_IN": "void in",
    "V_BLIND": "blind",
    "V_CHANGES_BID": "changes its bid to",
    "V_OUT_THE_HAND": "out the hand",
    "V_OUT_THE_GAME": "out the game",
    "V_MAY_PLAY": "may play",
    "V_MAY_NOT_PLAY": "may not play",
    "V_MAY_BID": "may bid",
    "V_MAY_NOT_BID": "may not bid",
    "V_LEADS": "leads",
    "V_SCORES": "scores",
    "V_HAS": "has",
    "V_POINTS": "points",
    "V_IS_OUT": "is out",
    "V_DRAWS_DEAD": "draws a dead card",
    "V_MAY_TAKE": "may take",
    "V_MAY_NOT_TAKE": "may not take",
    "V_TAKES": "takes",
    "V_CARDS_WORD": "cards",
    "V_LOSES": "loses",
    "V_WINS": "wins",
    "V_TAKES_LETTER": "takes the letter",
    "V_DEALS_NEXT": "deals the next game",
    "V_CAN_SEE": "can see",
    "V_CANNOT_SEE": "cannot see",
    "V_ITS_CARDS": "its cards",
    "V_CARDS_OF": "the cards of",
    "V_DEAD_CARDS": "the dead cards",
    "V_TRICK_GOES_TO": "the trick goes to",
    "V_TRICK_IS_DEAD": "the trick is dead",
    "V_CARDS_EACH": "cards each",
    "V_GAME_OVER": "the game is over",
}
for _name, _phrase in _PHRASES.items():
    TERMINALS.setdefault(_name, (f"`{_phrase}`", (_phrase,)))
TERMINALS.setdefault("TEXT", ("some words", ()))
TERMINALS.setdefault("POINTS", ("a number of points, such as 11, -5 or 2.1", ()))


def _tokens(items: Sequence[Any]) -> list[Token]:
    return [x for x in items if isinstance(x, Token) and x.type not in ("COMMA", "COLON")]


#: The tokens of a card in an example line: a card, or a special card by its
#: symbol (``W1``, read with the file's ``special symbols``).
_CARD_TOKENS: Final = frozenset({"CARD", "SYMBOL_CARD"})


def symbol_names(specials: Sequence[Any], symbols: Sequence[Any]) -> dict[int, str]:
    """The text ``special symbols`` gives the special cards, by id
    (``{54: "W1", ...}``), from the pack's kinds (``SpecialKind``: ``plural``,
    ``count``) and the symbols (``SpecialSymbol``: ``kind``, ``symbol``)."""
    first: dict[str, tuple[int, int]] = {}
    at = 54
    for k in specials:
        first[k.plural] = (at, k.count)
        at += k.count
    out: dict[int, str] = {}
    for x in symbols:
        start, count = first.get(x.kind, (0, 0))
        for n in range(count):
            if start + n < 64:
                out[start + n] = f"{x.symbol}{n + 1}"
    return out


def symbol_cards(specials: Sequence[Any], symbols: Sequence[Any]) -> dict[str, Card]:
    """The special cards by the text ``special symbols`` gives them, casefolded
    (``{"w1": Card(54), ...}``): :func:`symbol_names` read backwards."""
    return {t.casefold(): Card(c) for c, t in symbol_names(specials, symbols).items()}


class ExampleRules:
    """The grammar rules of example lines, mixed into the parser's transformer.

    The transformer that mixes this in provides ``error`` and ``number`` (see
    :mod:`cardrules.dsl.parser`); each rule returns an :class:`ExLine`.
    """

    path: str
    text: str
    #: The values the file's statements above set so far, by field
    #: (``deck.specials``, ``deck.symbols``): how a special card's symbol reads.
    stated: dict[str, Any]

    def error(
        self, tok: Token, message: str, expected: str | None = None, hint: str | None = None
    ) -> VariantError:  # pragma: no cover - provided by the parser's transformer
        raise NotImplementedError

    def number(
        self,
        tok: Token,
        lo: int = 0,
        hi: int = limits.MAX_NUMBER,
        what: str = "",
        shown_lo: int | None = None,
    ) -> int:  # pragma: no cover - provided by the parser's transformer
        raise NotImplementedError

    # ---- helpers
    def _words(self, tok: Token, what: str) -> str:
        return self._checked_text(tok, str(tok).strip(), what)

    def _checked_text(self, tok: Token, value: str, what: str) -> str:
        """``value``, the text of ``tok``, if it is short enough and holds no
        control character (titles, summaries, example titles)."""
        if len(value) > limits.MAX_TEXT_LENGTH:
            raise self.error(
                tok,
                f"the {what} is too long ({len(value)} characters)",
                expected=f"at most {limits.MAX_TEXT_LENGTH} characters",
            )
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise self.error(tok, f"the {what} holds a control character")
        return value

    def _ex_seat(self, tok: Token) -> int:
        return self.number(tok, 1, limits.MAX_PLAYERS, "a seat") - 1

    def _ex_card(self, tok: Token) -> Card:
        """The card ``tok`` names: as :func:`cardrules.card` reads it, or a special
        card by the letters of the file's ``special symbols`` line (``W1``)."""
        text = str(tok)
        try:
            return card(text)
        except CardError:
            pass
        hit = symbol_cards(
            self.stated.get("deck.specials", ()), self.stated.get("deck.symbols", ())
        )
        found = hit.get(text.casefold())
        if found is None:
            raise self.error(
                tok,
                f"{text} is not a card",
                expected="a card such as A♠, BJ or X1, or a special card by the letters the "
                "`special symbols` line above gives it (W1)",
            )
        return found

    def _card_list(self, toks: Sequence[Token]) -> tuple[Card, ...]:
        # A card may be named again in a game of several packs (its copies): how
        # often the file's pack allows is checked when the examples are put
        # together (:func:`assemble`); here, at most as often as any pack has.
        cards: list[Card] = []
        for t in toks:
            c = self._ex_card(t)
            if cards.count(c) >= limits.MAX_PACKS:
                raise self.error(t, f"{c} is named {cards.count(c) + 1} times")
            cards.append(c)
        return tuple(cards)

    def _bid_items(self, items: Sequence[Any]) -> tuple[tuple[BidItem, ...], list[Token]]:
        bids = [x for x in items if isinstance(x, tuple) and len(x) == 2]
        return tuple(b for b, _ in bids), [t for _, t in bids]

    # ---- the example line and its `with` line
    def example(self, c: list[Any]) -> ExLine:
        return ExLine("example", self._words(c[2], "example's title"), c[0])

    def with_players(self, c: list[Any]) -> tuple[str, Any, Token]:
        n = self.number(c[0], 2, limits.MAX_PLAYERS, "players")
        return ("players", n, c[0])

    def with_dealer(self, c: list[Any]) -> tuple[str, Any, Token]:
        return ("dealer", self._ex_seat(c[1]), c[0])

    def with_hand(self, c: list[Any]) -> tuple[str, Any, Token]:
        return ("hand", self.number(c[1], 1, MAX_EXAMPLE_HAND, "the hand of an example"), c[0])

    def with_trumps(self, c: list[Any]) -> tuple[str, Any, Token]:
        return ("trumps", SUIT_NAMES[str(c[1]).lower()], c[0])

    def with_no_trumps(self, c: list[Any]) -> tuple[str, Any, Token]:
        return ("no trumps", True, c[0])

    def with_turned_up(self, c: list[Any]) -> tuple[str, Any, Token]:
        return ("turned up", self._ex_card(c[1]), c[0])

    def ex_with(self, c: list[Any]) -> ExLine:
        items = [x for x in c[1:] if isinstance(x, tuple)]
        seen: dict[str, Token] = {}
        values: dict[str, Any] = {}
        for key, value, tok in items:
            if key in seen:
                raise self.error(tok, f"`{key}` is given twice in the `with` line")
            seen[key] = tok
            values[key] = value
        trumps = values.get("trumps")
        turned = values.get("turned up")
        if "no trumps" in values and (trumps is not None or turned is not None):
            raise self.error(seen["no trumps"], "`no trumps` contradicts the trumps given")
        if turned is not None and turned >= 52:
            # A joker or a special card turned up: the rules say what it makes.
            suited, turned_suit = False, None
        else:
            suited, turned_suit = turned is not None, turned.suit if turned is not None else None
        if trumps is not None and suited and turned_suit is not trumps:
            raise self.error(seen["turned up"], f"{turned} is not one of the {trumps.word}")
        deal = Deal(
            players=values.get("players"),
            dealer=values.get("dealer"),
            hand=values.get("hand", 1),
            trumps=turned_suit if suited else trumps,
            no_trumps="no trumps" in values,
            turned_up=turned,
        )
        if deal.players is not None and deal.dealer is not None and deal.dealer >= deal.players:
            raise self.error(
                seen["dealer"],
                f"seat {deal.dealer + 1} cannot deal at a table of {deal.players}",
                expected=f"a seat from 1 to {deal.players}",
            )
        return ExLine("with", deal, c[0])

    # ---- the deal
    def ex_holds(self, c: list[Any]) -> ExLine:
        seat = self._ex_seat(c[1])
        toks = _tokens(c[3:])
        cards = self._card_list([t for t in toks if t.type in _CARD_TOKENS])
        void: list[Suit] = []
        # Whether a card named is of a suit the seat is void in depends on the
        # hand's trumps under a trump order (J♦ is a heart when the jack of the
        # same colour as hearts ranks among the trumps): the run checks it.
        for t in (t for t in toks if t.type == "SUIT"):
            s = SUIT_NAMES[str(t).lower()]
            if s in void:
                raise self.error(t, f"{s.word} is named twice")
            void.append(s)
        return ExLine("holds", Holding(seat, cards, tuple(void)), c[0])

    # ---- actions
    def bid_item(self, c: list[Any]) -> tuple[BidItem, Token]:
        toks = _tokens(c)
        if toks[0].type == "V_MISERE":
            return (BidItem(0, strain=MISERE_STRAIN), c[0])
        if toks[0].type == "V_OPEN_MISERE":
            return (BidItem(0, strain=OPEN_MISERE_STRAIN), c[0])
        if toks[-1].type in ("SUIT", "NO_TRUMPS"):
            if len(toks) > 2:
                raise self.error(toks[0], "a bid in a strain cannot be blind")
            n = self.number(toks[-2], 0, MAX_CONTRACT_LEVEL, "a level")
            return (BidItem(n, strain=strain_code(toks[-1])), c[0])
        tok: Token = c[-1]
        n = self.number(tok, 0, limits.MAX_PLAYERS, "a bid")
        return (BidItem(n, blind=len(c) > 1), c[0])

    def ex_bids(self, c: list[Any]) -> ExLine:
        bids, _ = self._bid_items(c[1:])
        return ExLine("step", Bids(bids), c[0], len(bids))

    def ex_change_bid(self, c: list[Any]) -> ExLine:
        n = self.number(c[3], 0, limits.MAX_PLAYERS, "a bid")
        return ExLine("step", ChangeBid(self._ex_seat(c[1]), n), c[0], 1)

    def ex_take(self, c: list[Any]) -> ExLine:
        seat, other = self._ex_seat(c[1]), self._ex_seat(c[5])
        if seat == other:
            raise self.error(c[5], f"seat {seat + 1} cannot take its own cards")
        return ExLine("step", TakeCards(seat, other), c[0], 1)

    def ex_pass(self, c: list[Any]) -> ExLine:
        cards = self._card_list([t for t in _tokens(c[3:]) if t.type in _CARD_TOKENS])
        return ExLine("step", PassCards(self._ex_seat(c[1]), cards), c[0], len(cards))

    def ex_play(self, c: list[Any]) -> ExLine:
        toks = _tokens(c[1:])
        if toks[0].type in ("V_OUT_THE_HAND", "V_OUT_THE_GAME"):
            return ExLine("step", PlayOut(toks[0].type == "V_OUT_THE_GAME"), c[0], 1)
        cards = self._card_list(toks)
        return ExLine("step", Plays(cards), c[0], len(cards))

    # ---- expectations
    def call_pass(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("pass", None, None)

    def call_order_up(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("order up", None, None)

    def call_alone(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("go alone", None, None)

    def call_with_partner(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("play with partner", None, None)

    def call_keep(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("keep the hand", None, None)

    def call_show(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("show the hand", None, None)

    def call_uptown(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("uptown", None, None)

    def call_downtown(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("downtown", None, None)

    def call_misere(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("misère", None, None)

    def call_name(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        tok: Token = c[1]
        return ("name", SUIT_NAMES[str(tok).lower()] if tok.type == "SUIT" else None, None)

    def call_discard(self, c: list[Any]) -> tuple[str, Suit | None, Card | None]:
        return ("discard", None, self._card_list([c[1]])[0])

    def ex_calls(self, c: list[Any]) -> ExLine:
        calls = tuple(x for x in c[1:] if isinstance(x, tuple))
        return ExLine("step", Calls(calls), c[0], len(calls))

    def ex_expect(self, c: list[Any]) -> ExLine:
        return ExLine("step", c[1], c[0])

    def expect_may_play(self, c: list[Any]) -> Expect:
        toks = _tokens(c[3:])
        only = [t for t in toks if t.type == "V_ONLY"]
        if len(only) > 1:
            raise self.error(only[1], "`only` is given twice")
        any_card = any(t.type == "V_ANY_CARD" for t in toks)
        cards = self._card_list([t for t in toks if t.type in _CARD_TOKENS])
        return Expect(
            ExpectKind.MAY_PLAY,
            seat=self._ex_seat(c[1]),
            cards=cards,
            any_card=any_card,
            only=bool(only) and not any_card,
        )

    def expect_may_not_play(self, c: list[Any]) -> Expect:
        toks = _tokens(c[3:])
        text = [t for t in toks if t.type == "TEXT"]
        return Expect(
            ExpectKind.MAY_NOT_PLAY,
            seat=self._ex_seat(c[1]),
            cards=self._card_list([t for t in toks if t.type in _CARD_TOKENS]),
            reason=self._words(text[0], "reason") if text else "",
        )

    def _check_bids(self, bids: tuple[BidItem, ...], toks: list[Token]) -> None:
        for i, b in enumerate(bids):
            if b in bids[:i]:
                raise self.error(toks[i], f"the bid {b} is named twice")

    def expect_may_bid(self, c: list[Any]) -> Expect:
        toks = _tokens(c[3:])
        only = [t for t in toks if t.type == "V_ONLY"]
        if len(only) > 1:
            raise self.error(only[1], "`only` is given twice")
        bids, btoks = self._bid_items(c[3:])
        self._check_bids(bids, btoks)
        return Expect(ExpectKind.MAY_BID, seat=self._ex_seat(c[1]), bids=bids, only=bool(only))

    def expect_may_not_bid(self, c: list[Any]) -> Expect:
        bids, btoks = self._bid_items(c[3:])
        self._check_bids(bids, btoks)
        text = [t for t in _tokens(c[3:]) if t.type == "TEXT"]
        return Expect(
            ExpectKind.MAY_NOT_BID,
            seat=self._ex_seat(c[1]),
            bids=bids,
            reason=self._words(text[0], "reason") if text else "",
        )

    def expect_leads(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.LEADS, seat=self._ex_seat(c[1]))

    def expect_scores(self, c: list[Any]) -> Expect:
        tok: Token = c[3]
        raw = str(tok)
        if len(raw) > 30:
            raise self.error(
                tok, "the number of points is too long", expected="at most 30 characters"
            )
        if "/" in raw:
            top, bottom = raw.split("/")
            if int(bottom) == 0:
                raise self.error(tok, "a fraction cannot have 0 below the bar")
            points = Fraction(int(top), int(bottom))
        else:
            points = Fraction(raw)
        return Expect(ExpectKind.SCORES, seat=self._ex_seat(c[1]), points=points)

    def expect_receives(self, c: list[Any]) -> Expect:
        cards = self._card_list([t for t in _tokens(c[3:]) if t.type in _CARD_TOKENS])
        return Expect(ExpectKind.RECEIVES, seat=self._ex_seat(c[1]), cards=cards)

    def expect_counter(self, c: list[Any]) -> Expect:
        tok: Token = c[3]
        raw = str(tok)
        if not raw.lstrip("-").isdigit() or len(raw) > 8:
            raise self.error(
                tok, f"{raw[:30]!r} is not a counter's value", expected="a whole number"
            )
        return Expect(
            ExpectKind.COUNTER, seat=self._ex_seat(c[1]), count=int(raw), counter=str(c[4]).lower()
        )

    def expect_out(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.IS_OUT, seat=self._ex_seat(c[1]))

    def expect_draws(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.DRAWS, seat=self._ex_seat(c[1]))

    def expect_may_take(self, c: list[Any]) -> Expect:
        seat, other = self._ex_seat(c[1]), self._ex_seat(c[5])
        if seat == other:
            raise self.error(c[5], f"seat {seat + 1} cannot take its own cards")
        negated = c[2].type == "V_MAY_NOT_TAKE"
        text = [t for t in _tokens(c[6:]) if t.type == "TEXT"]
        if text and not negated:
            raise self.error(text[0], "a reason is given only for what may not be done")
        return Expect(
            ExpectKind.MAY_TAKE,
            seat=seat,
            other=other,
            negated=negated,
            reason=self._words(text[0], "reason") if text else "",
        )

    def expect_holds_count(self, c: list[Any]) -> Expect:
        count = self.number(c[3], 0, 52, "a number of cards")
        return Expect(ExpectKind.HOLDS_COUNT, seat=self._ex_seat(c[1]), count=count)

    def expect_loses(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.LOSES, seat=self._ex_seat(c[1]))

    def expect_wins(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.WINS, seat=self._ex_seat(c[1]))

    def expect_letter(self, c: list[Any]) -> Expect:
        tok: Token = c[3]
        if len(str(tok)) != 1:
            raise self.error(tok, f"{str(tok)[:30]!r} is not one letter", expected="a letter")
        return Expect(ExpectKind.TAKES_LETTER, seat=self._ex_seat(c[1]), letter=str(tok).upper())

    def expect_deals_next(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.DEALS_NEXT, seat=self._ex_seat(c[1]))

    def see_what(self, c: list[Any]) -> tuple[ExpectKind, int | None]:
        kind = c[0].type
        if kind == "V_ITS_CARDS":
            return (ExpectKind.SEES_OWN, None)
        if kind == "V_DEAD_CARDS":
            return (ExpectKind.SEES_DEAD, None)
        return (ExpectKind.SEES_SEAT, self._ex_seat(c[2]))

    def expect_sees(self, c: list[Any]) -> Expect:
        kind, other = c[3]
        seat = self._ex_seat(c[1])
        if other is not None and other == seat:
            raise self.error(c[1], "write `its cards` for the seat's own cards")
        return Expect(kind, seat=seat, other=other, negated=c[2].type == "V_CANNOT_SEE")

    def expect_trick_to(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.TRICK_TO, seat=self._ex_seat(c[2]))

    def expect_dead(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.TRICK_DEAD)

    def expect_trumps(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.TRUMPS, suit=SUIT_NAMES[str(c[1]).lower()])

    def expect_no_trumps(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.TRUMPS, suit=None)

    def expect_cards_each(self, c: list[Any]) -> Expect:
        return Expect(
            ExpectKind.CARDS_EACH, count=self.number(c[0], 1, limits.MAX_PLAYERS, "a hand")
        )

    def expect_over(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.GAME_OVER)

    def expect_no_loser(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.NO_LOSER)

    def expect_maker(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.MAKES_TRUMPS, seat=self._ex_seat(c[1]))

    def expect_thrown_in(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.THROWN_IN)

    def expect_shows(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.SHOWS, seat=self._ex_seat(c[1]))

    def expect_dealt_again(self, c: list[Any]) -> Expect:
        return Expect(ExpectKind.DEALT_AGAIN)


# --------------------------------------------------------------------------- assembling


def _pos(path: str, tok: Token) -> SourcePos:
    return SourcePos(path, tok.line or 1, tok.column or 1)


class _FailAt(Protocol):
    """The error of an example line at a token (:func:`assemble`'s ``fail``)."""

    def __call__(self, tok: Token, message: str, expected: str | None = None) -> VariantError: ...


class _Builder:
    """One example being put together from its lines."""

    def __init__(self, line: ExLine, path: str, packs: int = 1) -> None:
        self.title: str = line.value
        self.packs = packs  # copies of each card the pack holds (several packs)
        self.tok = line.tok
        self.pos = _pos(path, line.tok)
        self.deal: Deal | None = None
        self.deal_line = 0
        self.holdings: list[Holding] = []
        self.steps: list[Step] = []
        self.lines = 0
        self.actions = 0
        self.dealt: dict[Card, tuple[int, int]] = {}  # card -> (seat, line)
        self.copies_dealt: dict[Card, int] = {}  # card -> copies dealt, when over 1
        self.seats: dict[int, int] = {}  # seat -> line

    def add_deal(self, line: ExLine, path: str, fail: _FailAt) -> None:
        """Take the example's ``with`` line (the first of its lines, once)."""
        where = line.tok.line or 1
        if self.deal is not None:
            raise fail(line.tok, f"the example already has a `with` line (line {self.deal_line})")
        if self.holdings or self.steps:
            raise fail(
                line.tok,
                "the `with` line comes first in an example",
                expected="the `with` line right after the `example:` line",
            )
        deal: Deal = line.value
        self.deal = Deal(
            deal.players,
            deal.dealer,
            deal.hand,
            deal.trumps,
            deal.no_trumps,
            deal.turned_up,
            _pos(path, line.tok),
        )
        self.deal_line = where
        if deal.turned_up is not None:
            self.dealt[deal.turned_up] = (-1, where)

    def add_holding(self, line: ExLine, path: str, fail: _FailAt) -> None:
        """Take a ``seat N holds ...`` line: before the steps, a seat and a card
        given once each."""
        where = line.tok.line or 1
        h: Holding = line.value
        if self.steps:
            raise fail(
                line.tok,
                "the cards are given before the first bid, play or `expect` line",
            )
        if h.seat in self.seats:
            raise fail(
                line.tok,
                f"seat {h.seat + 1}'s cards are already given on line {self.seats[h.seat]}",
            )
        players = self.deal.players if self.deal is not None else None
        if players is not None and h.seat >= players:
            raise fail(
                line.tok,
                f"there is no seat {h.seat + 1} at a table of {players}",
                expected=f"a seat from 1 to {players}",
            )
        for c in h.cards:
            if c in self.dealt and self.copies_dealt.get(c, 1) >= self.packs:
                owner, at = self.dealt[c]
                whose = "turned up" if owner < 0 else f"dealt to seat {owner + 1}"
                raise fail(line.tok, f"{c} is already {whose} on line {at}")
            if c in self.dealt:
                self.copies_dealt[c] = self.copies_dealt.get(c, 1) + 1
            else:
                self.dealt[c] = (h.seat, where)
        self.seats[h.seat] = where
        self.holdings.append(Holding(h.seat, h.cards, h.void, _pos(path, line.tok)))

    def build(self) -> Example:
        return Example(
            self.title, self.deal or Deal(), tuple(self.holdings), tuple(self.steps), self.pos
        )


def assemble(
    lines: Sequence[ExLine | None], path: str, text: str, packs: int = 1
) -> tuple[Example, ...]:
    """Attach example lines to their ``example:`` lines and build the examples.

    Args:
        lines: the example lines of a file in order; ``None`` marks a setting line
            (which ends the example above it).
        path: the file, for positions and messages.
        text: the file's text, for messages.

    Raises:
        VariantError: at the line, for an example line with no ``example:`` above
            it, lines in the wrong order, a card or seat given twice, an example
            with no ``expect`` line, or too many examples, lines or actions.
    """

    def fail(tok: Token, message: str, expected: str | None = None) -> VariantError:
        return error_at(
            message,
            path=path,
            text=text,
            line=tok.line or 1,
            column=tok.column or 1,
            expected=expected,
        )

    out: list[Example] = []
    titles: dict[str, int] = {}
    current: _Builder | None = None

    def close() -> None:
        nonlocal current
        if current is None:
            return
        b = current
        current = None
        if not any(isinstance(s, Expect) for s in b.steps):
            raise fail(
                b.tok,
                f"the example {b.title!r} has no `expect` line",
                expected="lines such as `expect seat 2 may play only 9♠` saying what must hold",
            )
        out.append(b.build())

    for line in lines:
        if line is None:
            close()
            continue
        if line.kind == "example":
            close()
            if len(out) >= MAX_EXAMPLES:
                raise fail(
                    line.tok,
                    "too many examples in one file",
                    expected=f"at most {MAX_EXAMPLES}",
                )
            key = str(line.value).lower()
            if key in titles:
                raise fail(
                    line.tok,
                    f"an example called {line.value!r} is already on line {titles[key]}",
                    expected="a title of its own for each example",
                )
            titles[key] = line.tok.line or 1
            current = _Builder(line, path, packs)
            continue
        if current is None:
            raise fail(
                line.tok,
                f"`{str(line.tok).strip().lower()}` belongs to an example",
                expected="an `example:` line (such as `example: the hook`) above it, "
                "with no setting line in between",
            )
        named = getattr(line.value, "cards", None)
        if isinstance(named, tuple):
            for c in named:
                if named.count(c) > packs:
                    raise fail(
                        line.tok,
                        f"{c} is named twice"
                        if packs == 1
                        else f"{c} is named {named.count(c)} times, but {packs} packs hold {packs}",
                    )
        b = current
        b.lines += 1
        if b.lines > MAX_EXAMPLE_LINES:
            raise fail(
                line.tok, "the example has too many lines", expected=f"at most {MAX_EXAMPLE_LINES}"
            )
        b.actions += line.actions
        if b.actions > MAX_EXAMPLE_ACTIONS:
            raise fail(
                line.tok,
                "the example makes too many bids and plays",
                expected=f"at most {MAX_EXAMPLE_ACTIONS}",
            )
        if line.kind == "with":
            b.add_deal(line, path, fail)
            continue
        if line.kind == "holds":
            b.add_holding(line, path, fail)
            continue
        step = line.value
        step = _with_pos(step, _pos(path, line.tok))
        b.steps.append(step)
    close()
    return tuple(out)


def _with_pos(step: Step, pos: SourcePos) -> Step:
    return attrs.evolve(step, pos=pos)
