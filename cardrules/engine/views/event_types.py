"""The typed event records of the game log: one frozen, slotted attrs class per
kind, with ``to_dict()`` and ``from_dict()`` (see :mod:`cardrules.engine.events`,
which builds them from the engine's log and re-exports them).

They stay pure Python in a compiled build (like the views): they are built
and read at the edges, never in the game loop.

Example:
    >>> from cardrules.cards import card
    >>> PlayEvent(version=3, seat=1, card=card("Q♠")).astuple()
    ('play', 1, Card('Q♠'))
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar, Final, TypeVar

import attrs
from attrs import field, frozen

from cardrules.cards import MAX_PACKS, Card, CardSet, Suit, card, cards_with_copies
from cardrules.engine.actions import Action
from cardrules.errors import CardError, CardrulesError, SaveError
from cardrules.jsontext import describe

__all__ = [
    "EVENT_TYPES",
    "MAX_ITEMS",
    "AmendEvent",
    "BidEvent",
    "BidsEvent",
    "CallEvent",
    "CountersEvent",
    "CutEvent",
    "DeadEvent",
    "DealEvent",
    "DrawEvent",
    "Event",
    "ExchangeEvent",
    "GameEvent",
    "KittyEvent",
    "KnockedOutEvent",
    "LetterEvent",
    "LookEvent",
    "MadeEvent",
    "MatchOverEvent",
    "OutEvent",
    "OverEvent",
    "PassEvent",
    "PickupEvent",
    "PlayEvent",
    "RedealEvent",
    "RevealEvent",
    "ScoreEvent",
    "ShownEvent",
    "StartEvent",
    "TakeBackEvent",
    "TakeEvent",
    "ThrownInEvent",
    "TrickEvent",
    "TrumpEvent",
]

#: The most items a list in an event's JSON form may hold (:meth:`Event.from_dict`).
MAX_ITEMS: Final = 1000

# --------------------------------------------------------------------------- JSON codecs


def _bad(what: str) -> SaveError:
    return SaveError(f"event: {what}")


def _int(x: object, where: str) -> int:
    if type(x) is not int or not -(2**64) < x < 2**64:
        raise _bad(f"{where} must be an int of at most 64 bits, got {describe(x)}")
    return x


def _list(x: object, where: str) -> list[Any]:
    if type(x) is not list:
        raise _bad(f"{where} must be a list, got {type(x).__name__}")
    if len(x) > MAX_ITEMS:
        raise _bad(f"{where} has {len(x)} items, more than {MAX_ITEMS}")
    return x


def _card(x: object, where: str) -> Card:
    if type(x) is not str or len(x) > 16:
        raise _bad(f"{where} must be a card as text like 'Q♠', got {describe(x)}")
    try:
        return card(x)
    except CardrulesError as e:
        raise _bad(f"{where}: {e}") from None


def _frac(x: Fraction) -> int | str:
    return x.numerator if x.denominator == 1 else str(x)


def _unfrac(x: object, where: str) -> Fraction:
    if type(x) is int:
        return Fraction(x)
    if type(x) is str and len(x) <= 200 and x.count("/") == 1:
        p, q = x.split("/")
        if p.lstrip("-").isdigit() and q.isdigit() and int(q) > 0:
            return Fraction(int(p), int(q))
    raise _bad(f"{where} must be an int or a 'p/q' string, got {describe(x)}")


def _optional(
    enc: Callable[[Any], Any], dec: Callable[[Any, str], Any]
) -> tuple[Callable[[Any], Any], Callable[[Any, str], Any]]:
    return (lambda v: None if v is None else enc(v)), (
        lambda x, w: None if x is None else dec(x, w)
    )


def _many(
    enc: Callable[[Any], Any], dec: Callable[[Any, str], Any]
) -> tuple[Callable[[Any], Any], Callable[[Any, str], Any]]:
    return (lambda v: [enc(i) for i in v]), (
        lambda x, w: tuple(dec(i, f"{w}[{k}]") for k, i in enumerate(_list(x, w)))
    )


def _dec_bool(x: object, where: str) -> bool:
    if type(x) is not bool:
        raise _bad(f"{where} must be true or false, got {describe(x)}")
    return x


def _dec_str(x: object, where: str) -> str:
    if type(x) is not str or len(x) > 200:
        raise _bad(f"{where} must be a short text, got {describe(x)}")
    return x


def _dec_cardset(x: object, where: str) -> CardSet:
    cards = [_card(c, f"{where}[{k}]") for k, c in enumerate(_list(x, where))]
    cs = CardSet(cards)
    if len(cs) != len(cards):
        # Several packs: a hand dealt may hold a card twice (its next copy, as
        # events give them); any other list of cards holds each card once.
        if ".hands[" not in where:
            raise _bad(f"{where} holds a card twice")
        try:
            return CardSet(cards_with_copies(cards, MAX_PACKS))
        except CardError:
            raise _bad(f"{where} holds a card twice") from None
    return cs


def _dec_suit(x: object, where: str) -> Suit:
    if type(x) is str and x.upper() in Suit.__members__:
        return Suit[x.upper()]
    raise _bad(f"{where} must be a suit ({', '.join(_SUIT_WORDS)}), got {describe(x)}")


_SUIT_WORDS: Final = tuple(s.word for s in Suit)


def _enc_action(a: Action) -> dict[str, Any]:
    return {"id": a.id, "label": a.label}


def _dec_action(x: object, where: str) -> Action:
    if type(x) is not dict or set(x) != {"id", "label"}:
        raise _bad(f'{where} must be {{"id": ..., "label": ...}}')
    try:
        a = Action.from_id(x["id"])
    except CardrulesError as e:
        raise _bad(f"{where}: {e}") from None
    if x["label"] != a.label:
        raise _bad(f"{where}: action {a.id} is {a.label!r}, not {describe(x['label'])}")
    return a


def _dec_pair(x: object, where: str) -> tuple[int, Card]:
    pair = _list(x, where)
    if len(pair) != 2:
        raise _bad(f"{where} must be [seat, card]")
    return _int(pair[0], f"{where}[0]"), _card(pair[1], f"{where}[1]")


def _dec_counter_row(x: object, where: str) -> tuple[int, ...]:
    return tuple(_int(i, f"{where}[{k}]") for k, i in enumerate(_list(x, where)))


_Codec = tuple[Callable[[Any], Any], Callable[[Any, str], Any]]
_ident: Callable[[Any], Any] = lambda v: v  # noqa: E731
INT: Final[_Codec] = (_ident, _int)
OPT_INT: Final[_Codec] = _optional(_ident, _int)
BOOL: Final[_Codec] = (_ident, _dec_bool)
CARD: Final[_Codec] = (str, _card)
OPT_CARD: Final[_Codec] = _optional(str, _card)
CARDS: Final[_Codec] = _many(str, _card)
CARDSET: Final[_Codec] = (lambda cs: [str(c) for c in cs], _dec_cardset)
OPT_CARDSET: Final[_Codec] = _optional(*CARDSET)
OPT_CARDSETS: Final[_Codec] = _many(*_optional(*CARDSET))
INTS: Final[_Codec] = _many(_ident, _int)
OPT_INTS: Final[_Codec] = _many(_ident, OPT_INT[1])
FRACS: Final[_Codec] = _many(_frac, _unfrac)
OPT_SUIT: Final[_Codec] = _optional(lambda s: s.word, _dec_suit)
OPT_ACTION: Final[_Codec] = _optional(_enc_action, _dec_action)
PAIRS: Final[_Codec] = _many(lambda p: [p[0], str(p[1])], _dec_pair)
STR: Final[_Codec] = (_ident, _dec_str)
STRS: Final[_Codec] = _many(_ident, _dec_str)
ROWS: Final[_Codec] = _many(list, _dec_counter_row)


# --------------------------------------------------------------------------- the records

E = TypeVar("E", bound="Event")


@frozen
class Event:
    """Base class of every event record: frozen, slotted, comparable, hashable.

    Attributes:
        kind: the kind of event (a class constant, such as ``"play"``).
        version: :attr:`Game.version` when it happened: the number of steps
            so far (actions applied and players' take-backs), this one
            included (0 for the first deal).

    For a transition from the tuples of earlier versions, a record also
    indexes, unpacks and measures like its old tuple (``ev[0]`` is its kind,
    ``ev[1:]`` its fields but ``version``, in order); :meth:`astuple` gives that
    tuple. New code should read the named fields.
    """

    kind: ClassVar[str] = ""
    version: int = field(metadata={"json": INT})

    def astuple(self) -> tuple[Any, ...]:
        """The record as the tuple earlier versions gave: ``(kind, field, ...)``,
        every field but ``version``, in order.

        Example:
            >>> OutEvent(version=7, seat=2).astuple()
            ('out', 2)
        """
        return (self.kind, *[getattr(self, name) for name in _names(type(self))])

    def __getitem__(self, i: Any) -> Any:
        if type(i) is int and i >= 0:
            if i == 0:
                return self.kind
            names = _names(type(self))
            if i <= len(names):
                return getattr(self, names[i - 1])
        return self.astuple()[i]

    def __len__(self) -> int:
        return 1 + len(_names(type(self)))

    def __iter__(self) -> Any:
        return iter(self.astuple())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``kind``, ``version``, then every field (cards as
        text, card sets as lists of card text in deck order, fractions as ints
        or ``"p/q"`` strings, suits as words, actions as ``{"id", "label"}``).
        """
        out: dict[str, Any] = {"kind": self.kind}
        for a in attrs.fields(type(self)):
            out[a.name] = a.metadata["json"][0](getattr(self, a.name))
        return out

    @classmethod
    def from_dict(cls: type[E], data: object) -> E:
        """Read a record back from :meth:`to_dict`'s form (untrusted input).

        Called on :class:`Event`, the ``kind`` picks the class; called on a
        subclass, the kind must be that class's.

        Raises:
            SaveError: saying what is wrong, for anything that is not such a dict.
        """
        if type(data) is not dict:
            raise _bad(f"an event must be a dict, got {type(data).__name__}")
        kind = data.get("kind")
        target = EVENT_TYPES.get(kind) if type(kind) is str else None
        if target is None:
            raise _bad(f"unknown kind {describe(kind)}")
        if cls is not Event and target is not cls:
            raise _bad(f"a {cls.kind!r} event, not {describe(kind)}")
        names = [a.name for a in attrs.fields(target)]
        extra = set(data) - set(names) - {"kind"}
        missing = [n for n in names if n not in data]
        if extra or missing:
            unknown = sorted(k[:40] if isinstance(k, str) else describe(k) for k in extra)
            raise _bad(
                f"a {kind!r} event has the fields {', '.join(names)}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(unknown)}" if extra else "")
            )
        values = {
            a.name: a.metadata["json"][1](data[a.name], f"{kind}.{a.name}")
            for a in attrs.fields(target)
        }
        out: Any = target(**values)
        return out  # type: ignore[no-any-return]


_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _names(cls: type[Event]) -> tuple[str, ...]:
    """The fields of a record class but ``version``, in order (cached)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(a.name for a in attrs.fields(cls)[1:])
    return names


@frozen
class StartEvent(Event):
    """The game starts. ``seed`` is ``None`` in every seat's stream (it tells
    every deal)."""

    kind: ClassVar[str] = "start"
    players: int = field(metadata={"json": INT})
    seed: int | None = field(metadata={"json": OPT_INT})
    first_dealer: int | None = field(metadata={"json": OPT_INT})
    max_tricks: int | None = field(metadata={"json": OPT_INT})


@frozen
class CutEvent(Event):
    """A round of cutting for the first deal: ``(seat, card)`` pairs."""

    kind: ClassVar[str] = "cut"
    cuts: tuple[tuple[int, Card], ...] = field(metadata={"json": PAIRS})


@frozen
class DealEvent(Event):
    """A hand is dealt: each seat's cards, ``None`` where the stream's seat may
    not see them (other seats' hands; its own until it may look)."""

    kind: ClassVar[str] = "deal"
    hand_number: int = field(metadata={"json": INT})
    dealer: int = field(metadata={"json": INT})
    size: int = field(metadata={"json": INT})
    hands: tuple[CardSet | None, ...] = field(metadata={"json": OPT_CARDSETS})


@frozen
class TrumpEvent(Event):
    """The hand's trump suit (``None``: no trumps, or a player is to choose)
    and the card turned up, if any."""

    kind: ClassVar[str] = "trump"
    hand_number: int = field(metadata={"json": INT})
    suit: Suit | None = field(metadata={"json": OPT_SUIT})
    turned: Card | None = field(metadata={"json": OPT_CARD})


@frozen
class LookEvent(Event):
    """A seat looks at its cards (blind bidding)."""

    kind: ClassVar[str] = "look"
    seat: int = field(metadata={"json": INT})


@frozen
class BidEvent(Event):
    """A bid; ``bid`` is ``None`` for another seat's bid made at the same time
    as the others (the :class:`BidsEvent` that ends the bidding shows it)."""

    kind: ClassVar[str] = "bid"
    seat: int = field(metadata={"json": INT})
    bid: int | None = field(metadata={"json": OPT_INT})
    blind: bool = field(metadata={"json": BOOL})


@frozen
class AmendEvent(Event):
    """A seat changes its bid to ``bid``."""

    kind: ClassVar[str] = "amend"
    seat: int = field(metadata={"json": INT})
    bid: int = field(metadata={"json": INT})


@frozen
class PassEvent(Event):
    """``seat`` chooses a card to pass (``None`` in other seats' streams)."""

    kind: ClassVar[str] = "pass"
    seat: int = field(metadata={"json": INT})
    card: Card | None = field(metadata={"json": OPT_CARD})


@frozen
class ExchangeEvent(Event):
    """Every seat has chosen: seat ``s``'s cards go to seat ``targets[s]``
    (``None`` for cards the stream's seat neither passed nor received)."""

    kind: ClassVar[str] = "exchange"
    hand_number: int = field(metadata={"json": INT})
    targets: tuple[int, ...] = field(metadata={"json": INTS})
    cards: tuple[CardSet | None, ...] = field(metadata={"json": OPT_CARDSETS})


@frozen
class BidsEvent(Event):
    """The bidding is over: every bid, public (``None``: a seat that does not
    bid, ``team bids: one per side``)."""

    kind: ClassVar[str] = "bids"
    bids: tuple[int | None, ...] = field(metadata={"json": OPT_INTS})


@frozen
class CallEvent(Event):
    """An action choosing trumps (``Name``, ``OrderUp``, ``Decline``,
    ``Discard``, ``Alone``, ``WithPartner``), or keeping or showing a hand
    after the deal (``Keep``, ``Show``: ``redeal: ... may be shown``); ``None``
    for another seat's face-down ``Discard``."""

    kind: ClassVar[str] = "call"
    seat: int = field(metadata={"json": INT})
    action: Action | None = field(metadata={"json": OPT_ACTION})


@frozen
class MadeEvent(Event):
    """``seat`` made trumps (named them or ordered the turned card up)."""

    kind: ClassVar[str] = "made"
    hand_number: int = field(metadata={"json": INT})
    seat: int = field(metadata={"json": INT})
    suit: Suit | None = field(metadata={"json": OPT_SUIT})


@frozen
class ThrownInEvent(Event):
    """Everyone passed (twice in an order-up game; without a bid in an auction
    that throws the hand in): the next dealer deals the next hand."""

    kind: ClassVar[str] = "thrown in"
    hand_number: int = field(metadata={"json": INT})


@frozen
class RedealEvent(Event):
    """``seat`` was dealt a hand that meets the ``redeal:`` condition and shows
    it (``cards``, seen by every seat): the deal is thrown in, its cards are
    gathered and dealt again (by the same dealer or the next one, as the rules
    say); hand ``hand_number`` is dealt again, and nothing is scored."""

    kind: ClassVar[str] = "redeal"
    hand_number: int = field(metadata={"json": INT})
    seat: int = field(metadata={"json": INT})
    cards: CardSet = field(metadata={"json": CARDSET})


@frozen
class KittyEvent(Event):
    """``seat``, the declarer, takes the kitty (``kitty:``) into its hand without
    showing it: ``cards`` in its own stream and in the whole log, ``None`` in
    every other seat's."""

    kind: ClassVar[str] = "kitty"
    seat: int = field(metadata={"json": INT})
    cards: CardSet | None = field(metadata={"json": OPT_CARDSET})


@frozen
class ShownEvent(Event):
    """``seat``, the declarer of an open misère, lays its hand face up once the
    first trick is complete: ``cards``, the cards it holds then, seen by every
    seat."""

    kind: ClassVar[str] = "shown"
    seat: int = field(metadata={"json": INT})
    cards: CardSet = field(metadata={"json": CARDSET})


@frozen
class PlayEvent(Event):
    """``seat`` plays ``card``."""

    kind: ClassVar[str] = "play"
    seat: int = field(metadata={"json": INT})
    card: Card = field(metadata={"json": CARD})


@frozen
class TrickEvent(Event):
    """A trick is complete: ``winner`` takes ``cards`` (played by ``seats``)."""

    kind: ClassVar[str] = "trick"
    winner: int = field(metadata={"json": INT})
    seats: tuple[int, ...] = field(metadata={"json": INTS})
    cards: tuple[Card, ...] = field(metadata={"json": CARDS})


@frozen
class ScoreEvent(Event):
    """A hand is scored: bids (``None``: none made), tricks, points and totals."""

    kind: ClassVar[str] = "score"
    hand_number: int = field(metadata={"json": INT})
    bids: tuple[int | None, ...] = field(metadata={"json": OPT_INTS})
    tricks: tuple[int, ...] = field(metadata={"json": INTS})
    points: tuple[Fraction, ...] = field(metadata={"json": FRACS})
    totals: tuple[Fraction, ...] = field(metadata={"json": FRACS})


@frozen
class CountersEvent(Event):
    """Games with counters, after each score: each seat's counters, in the
    order of ``names``."""

    kind: ClassVar[str] = "counters"
    hand_number: int = field(metadata={"json": INT})
    names: tuple[str, ...] = field(metadata={"json": STRS})
    values: tuple[tuple[int, ...], ...] = field(metadata={"json": ROWS})


@frozen
class DeadEvent(Event):
    """Shedding: a dead trick leaves the game; ``winner`` leads next."""

    kind: ClassVar[str] = "dead"
    winner: int = field(metadata={"json": INT})
    seats: tuple[int, ...] = field(metadata={"json": INTS})
    cards: tuple[Card, ...] = field(metadata={"json": CARDS})


@frozen
class PickupEvent(Event):
    """Shedding: a cut; ``taker`` picks the trick up."""

    kind: ClassVar[str] = "pickup"
    taker: int = field(metadata={"json": INT})
    seats: tuple[int, ...] = field(metadata={"json": INTS})
    cards: tuple[Card, ...] = field(metadata={"json": CARDS})


@frozen
class OutEvent(Event):
    """Shedding: ``seat`` has no cards left and is safe."""

    kind: ClassVar[str] = "out"
    seat: int = field(metadata={"json": INT})


@frozen
class KnockedOutEvent(Event):
    """After hand ``hand_number`` was scored, ``seat`` is out of the game."""

    kind: ClassVar[str] = "knocked out"
    seat: int = field(metadata={"json": INT})
    hand_number: int = field(metadata={"json": INT})


@frozen
class DrawEvent(Event):
    """Shedding with "the power": ``seat`` drew ``card`` from the dead tricks
    and leads it."""

    kind: ClassVar[str] = "draw"
    seat: int = field(metadata={"json": INT})
    card: Card = field(metadata={"json": CARD})


@frozen
class TakeEvent(Event):
    """Shedding: ``seat`` took its neighbour's ``count`` cards (they stay hidden)."""

    kind: ClassVar[str] = "take"
    seat: int = field(metadata={"json": INT})
    neighbour: int = field(metadata={"json": INT})
    count: int = field(metadata={"json": INT})


@frozen
class OverEvent(Event):
    """The game is over."""

    kind: ClassVar[str] = "over"
    winners: tuple[int, ...] = field(metadata={"json": INTS})
    totals: tuple[Fraction, ...] = field(metadata={"json": FRACS})
    shared: bool = field(metadata={"json": BOOL})
    finished: bool = field(metadata={"json": BOOL})
    loser: int | None = field(metadata={"json": OPT_INT})


@frozen
class RevealEvent(Event):
    """Only in one seat's stream: ``seat`` may now see its own hand of hand
    ``hand_number`` (hidden in that hand's :class:`DealEvent`), after looking
    at it or once the bidding is over."""

    kind: ClassVar[str] = "reveal"
    seat: int = field(metadata={"json": INT})
    hand_number: int = field(metadata={"json": INT})
    cards: CardSet = field(metadata={"json": CARDSET})


@frozen
class GameEvent(Event):
    """A :class:`~cardrules.engine.match.Match`: game ``game`` (from 1) starts;
    ``seed`` is ``None`` in a seat's log. ``version`` is 0 (the game's)."""

    kind: ClassVar[str] = "game"
    game: int = field(metadata={"json": INT})
    players: int = field(metadata={"json": INT})
    seed: int | None = field(metadata={"json": OPT_INT})


@frozen
class LetterEvent(Event):
    """A match: after game ``game``, ``seat`` (its loser) earns ``letter``."""

    kind: ClassVar[str] = "letter"
    game: int = field(metadata={"json": INT})
    seat: int = field(metadata={"json": INT})
    letter: str = field(metadata={"json": STR})


@frozen
class MatchOverEvent(Event):
    """A match is over after game ``game``; ``loser`` spelt the whole word
    (``None``: the match reached its last game)."""

    kind: ClassVar[str] = "match over"
    game: int = field(metadata={"json": INT})
    loser: int | None = field(metadata={"json": OPT_INT})


@frozen
class TakeBackEvent(Event):
    """A player's take-back: ``seat`` took back the actions made at the
    versions ``undone`` (in the order they were made; its own is the first),
    with the consent of the seats ``agreed`` (empty: no consent was needed).

    The stream keeps the entries it undid (they happened) and goes on after
    this one; ``entries`` is how many entries at the end of the stream's
    current line (the stream with every earlier take-back applied) it undoes:
    the undone actions and what followed them (a trick, a reveal...).
    :func:`cardrules.engine.state.history.current_line` applies them. ``version`` is
    one more than the version before the take-back (a take-back is a step of
    the game, as an action is).
    """

    kind: ClassVar[str] = "take back"
    seat: int = field(metadata={"json": INT})
    undone: tuple[int, ...] = field(metadata={"json": INTS})
    agreed: tuple[int, ...] = field(metadata={"json": INTS})
    entries: int = field(metadata={"json": INT})

    @property
    def count(self) -> int:
        """How many actions were taken back.

        Example:
            >>> TakeBackEvent(version=9, seat=1, undone=(6, 7), agreed=(), entries=2).count
            2
        """
        return len(self.undone)


#: Every record class by its kind.
EVENT_TYPES: Final[dict[str, type[Event]]] = {
    t.kind: t
    for t in (
        StartEvent,
        CutEvent,
        DealEvent,
        TrumpEvent,
        LookEvent,
        BidEvent,
        AmendEvent,
        PassEvent,
        ExchangeEvent,
        BidsEvent,
        CallEvent,
        MadeEvent,
        ThrownInEvent,
        RedealEvent,
        KittyEvent,
        PlayEvent,
        TrickEvent,
        ShownEvent,
        ScoreEvent,
        CountersEvent,
        DeadEvent,
        PickupEvent,
        OutEvent,
        KnockedOutEvent,
        DrawEvent,
        TakeEvent,
        OverEvent,
        RevealEvent,
        GameEvent,
        LetterEvent,
        MatchOverEvent,
        TakeBackEvent,
    )
}
