"""The game log: typed event records, their JSON form, and the append-only
stream of them that one seat (or an onlooker) may see.

Inside the engine the log (``Game._events``) is a list of cheap tuples (cards as
ints, hands as masks, lists that are never changed again), the form saves and
:func:`~cardrules.engine.game.replay` read. :attr:`Game.events` and
:meth:`Game.events_for` turn it into typed, frozen records: one class per kind
(:class:`PlayEvent`, :class:`TrickEvent`, ...), each with its ``kind``, the
``version`` at which it happened (the number of actions applied and
take-backs made so far, see :attr:`Game.version`), :meth:`Event.to_dict` and
:meth:`Event.from_dict`.

A seat's stream only grows: an entry, once in it, never changes (a player's
take-back is a new entry, a :class:`TakeBackEvent`, after the entries it
undid: see :mod:`cardrules.engine.state.history`). What the seat learns later comes
as a new entry: a :class:`RevealEvent` when it may see its
own hand (after looking at it in a blind-bidding game, or once the bids of a
forehead hand are in), and the :class:`BidsEvent` that ends the bidding for
bids made at the same time (hidden until then).

Example:
    >>> from cardrules.cards import card
    >>> ev = PlayEvent(version=3, seat=1, card=card("Q♠"))
    >>> ev.to_dict()
    {'kind': 'play', 'version': 3, 'seat': 1, 'card': 'Q♠'}
    >>> Event.from_dict(ev.to_dict()) == ev
    True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from cardrules.cards import CARDS, CardSet, canonical_copies
from cardrules.engine.actions import Discard
from cardrules.engine.views.event_types import (
    EVENT_TYPES,
    AmendEvent,
    BidEvent,
    BidsEvent,
    CallEvent,
    CountersEvent,
    CutEvent,
    DeadEvent,
    DealEvent,
    DrawEvent,
    Event,
    ExchangeEvent,
    GameEvent,
    KittyEvent,
    KnockedOutEvent,
    LetterEvent,
    LookEvent,
    MadeEvent,
    MatchOverEvent,
    OutEvent,
    OverEvent,
    PassEvent,
    PickupEvent,
    PlayEvent,
    RedealEvent,
    RevealEvent,
    ScoreEvent,
    ShownEvent,
    StartEvent,
    TakeBackEvent,
    TakeEvent,
    ThrownInEvent,
    TrickEvent,
    TrumpEvent,
)

__all__ = [
    "ACTION_KINDS",
    "EVENT_TYPES",
    "STEP_KINDS",
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

#: One internal log entry: a tuple whose first item is the kind.
Entry = tuple[Any, ...]

#: The kinds of entry that are actions.
ACTION_KINDS: Final = frozenset({"play", "bid", "look", "amend", "pass", "call", "take"})
#: The kind of the entry of a player's take-back in a game's history
#: (:mod:`cardrules.engine.state.history`): ``("take back", seat, undone versions,
#: agreeing seats, the length of the log after it)``. Never in the log itself.
TAKE_BACK: Final = "take back"
#: The kinds of entry that are steps of the game: each one adds 1 to
#: :attr:`Game.version` (an action, or a player's take-back).
STEP_KINDS: Final = ACTION_KINDS | {TAKE_BACK}

if TYPE_CHECKING:
    from cardrules.engine.game import Game


# --------------------------------------------------------------------------- from the log


def _public(ev: Entry) -> Entry:
    """An internal log entry in the tuple form earlier versions made public (hands
    as CardSets, tuples, exact Fractions, ``None`` for a missing bid): the form
    :meth:`Event.astuple` gives and :func:`replay` reads."""
    kind = ev[0]
    # A copy of a game of several packs (id c + 64 * k) is shown as its card:
    # which copy a seat held is bookkeeping, never shown (``& 63``).
    if kind in ("play", "draw"):
        return (kind, ev[1], CARDS[ev[2] & 63])
    if kind == "deal":
        # Several packs: each hand with its copies numbered from 0 up, so that a
        # hand tells its cards and their counts, never which copies they are.
        return (kind, ev[1], ev[2], ev[3], tuple(CardSet(canonical_copies(h)) for h in ev[4]))
    if kind == "pass":
        return (kind, ev[1], CARDS[ev[2]])
    if kind == "redeal":
        return (kind, ev[1], ev[2], CardSet(ev[3]))
    if kind in ("kitty", "shown"):
        return (kind, ev[1], CardSet(ev[2]))
    if kind == "exchange":
        return (kind, ev[1], tuple(ev[2]), tuple(map(CardSet, ev[3])))
    if kind in ("trick", "dead", "pickup"):
        return (kind, ev[1], tuple(ev[2]), tuple(CARDS[c & 63] for c in ev[3]))
    if kind == "bids":
        # A seat that does not bid (``team bids: one per side``) has no bid.
        return (kind, tuple(None if b < 0 else b for b in ev[1]))
    if kind == "score":
        return (
            kind,
            ev[1],
            tuple(None if b < 0 else b for b in ev[2]),
            ev[3],
            tuple(map(Fraction, ev[4])),
            tuple(map(Fraction, ev[5])),
        )
    if kind == "over":
        return (kind, ev[1], tuple(map(Fraction, ev[2])), ev[3], ev[4], ev[5])
    return ev


def _record(legacy: Entry, version: int) -> Event:
    """The record of a public-form tuple (:func:`_public`, or a redacted one)."""
    cls = EVENT_TYPES[legacy[0]]
    return cls(version, *legacy[1:])


class _Stream:
    """One seat's stream, built incrementally from the log (see :func:`_extend`)."""

    __slots__ = (
        "chain",
        "chained",
        "hidden",
        "hidden_fh",
        "hn",
        "last",
        "line",
        "marks",
        "pos",
        "records",
        "shared",
        "tensor",
        "text",
        "texted",
        "version",
    )

    def __init__(self) -> None:
        self.pos = 0  # log entries consumed
        self.last: Entry | None = None  # the entry at pos - 1 (to notice an undo)
        self.records: list[Event] = []
        self.version = 0
        self.hn = 0  # the hand of the last deal
        self.hidden: CardSet | None = None  # own hand not yet shown (this hand)
        self.hidden_fh = False  # ...in a forehead hand (only the end of bidding shows it)
        # The current line (the stream with its take-backs applied): its length,
        # and its length after each entry of the game's log (not its history),
        # so that a take-back knows how many of its entries it undoes.
        self.line = 0
        self.marks: list[int] = []
        # The digest of the first ``chained`` records (see stream_digest).
        self.chain = b""
        self.chained = 0
        # The information state of the first ``texted`` records (one line each,
        # engine/views/infostate.py), extended as the stream grows.
        self.text = ""
        self.texted = 0
        # The information state tensor of the first records, as engine/views/infostate.py
        # keeps it: (records read, the places of its ones but the bids', cards played,
        # bids); its lists are never changed once kept (an extension makes new ones).
        self.tensor: tuple[int, list[int], int, list[int | None]] | None = None
        # Whether several games' caches hold this stream (a clone's, until one
        # of them extends it: it then extends a copy; see _Streams.fork).
        self.shared = False

    def copy(self) -> _Stream:
        """An unshared copy (its lists copied; the records, frozen, shared)."""
        c = _Stream()
        c.pos, c.last, c.records, c.version = self.pos, self.last, self.records[:], self.version
        c.hn, c.hidden, c.hidden_fh = self.hn, self.hidden, self.hidden_fh
        c.line, c.marks = self.line, self.marks[:]
        c.chain, c.chained = self.chain, self.chained
        c.text, c.texted, c.tensor = self.text, self.texted, self.tensor
        return c


class _Streams:
    """A game's streams built so far, by seat (``None``: onlookers, :data:`ALL`:
    the whole log), and its count of actions: how many log entries were read
    (``pos``), the last of them (``last``, to notice an undo that popped
    entries) and the steps among them (``count``). Built on first use.
    ``Game.clone`` shares it (one flag set: ``shared``), and each game that
    holds a shared one forks it (:meth:`fork`) before it reads or extends it:
    copy on write, so that a clone's streams and information states continue
    the original's instead of being rebuilt from the log."""

    __slots__ = ("by_seat", "count", "last", "line_by_seat", "pos", "shared")

    def __init__(self) -> None:
        self.by_seat: dict[int | None, _Stream] = {}
        # The streams of the log alone, for a game with take-backs (Game._stream_of).
        self.line_by_seat: dict[int | None, _Stream] = {}
        self.pos = 0
        self.last: Entry | None = None
        self.count = 0
        self.shared = False

    def fork(self) -> _Streams:
        """A copy of its own for one of the games that share it: the same
        streams, each marked shared (whichever game extends one first extends
        a copy of it, :func:`_stream`)."""
        c = _Streams()
        for st in self.by_seat.values():
            st.shared = True
        for st in self.line_by_seat.values():
            st.shared = True
        c.by_seat = self.by_seat.copy()
        c.line_by_seat = self.line_by_seat.copy()
        c.pos, c.last, c.count = self.pos, self.last, self.count
        return c

    def version(self, log: Sequence[Entry]) -> int:
        """The number of steps (actions and take-backs) in ``log``, counting only
        the entries not yet read."""
        pos = self.pos
        if pos > len(log) or (pos and log[pos - 1] is not self.last):
            pos = self.count = 0  # the log was taken back (undo): count again
        if pos < len(log):
            self.count += _count_steps(log, pos)
            self.pos = len(log)
            self.last = log[-1]
        return self.count


def _share(streams: _Streams | None) -> _Streams | None:
    """``streams``, marked shared (``Game.clone``: the clone and the original
    hold it until each forks it, :meth:`_Streams.fork`)."""
    if streams is not None:
        streams.shared = True
    return streams


#: The key of the all-seeing stream in a game's cache (seats are ints, onlookers None).
ALL: Final = -1


def _extend(
    st: _Stream,
    log: Sequence[Entry],
    seat: int | None,
    *,
    blind: bool,
    simultaneous: bool,
    forehead_sizes: frozenset[int] | tuple[int, ...],
    bidding_now: bool,
) -> None:
    """Add to ``st`` the records of the log entries it has not consumed.

    ``seat``: the stream's seat, ``None`` for an onlooker (sees what every seat
    sees), :data:`ALL` for the all-seeing log. ``blind``: the variant has blind
    bids; ``simultaneous``: bids are made at the same time; ``forehead_sizes``:
    hand sizes played on the forehead (empty without bidding); ``bidding_now``:
    the game is in its bidding now (what follows the last deal, when no action
    follows it yet in the log).

    A seat's own hand is hidden in a deal when the bidding starts at once and
    the variant has blind bids or the hand is on the forehead; it is revealed
    by a :class:`RevealEvent` after the seat's look (or blind bid: it then
    looks), or after the bids are in. What every entry shows is fixed when it
    is added: the stream only grows.
    """
    out = st.records
    version = st.version
    n = len(log)
    marks = st.marks
    counted = len(out)  # the records counted in the current line (st.line)
    for i in range(st.pos, n):
        if counted != len(out):
            # The records of the previous entry of the log are in the current line.
            st.line += len(out) - counted
            marks.append(st.line)
            counted = len(out)
        ev = log[i]
        kind = ev[0]
        if kind in ACTION_KINDS:
            version += 1
        elif kind == TAKE_BACK:
            # A player's take-back: the current line goes back to what it was
            # after the log's first ``ev[4]`` entries.
            version += 1
            _take_back_record(st, ev, version)
            counted = len(out)
            continue
        pub = _public(ev)
        if seat == ALL:
            out.append(_record(pub, version))
            continue
        if kind == "start":
            out.append(StartEvent(version, ev[1], None, ev[3], ev[4]))
            continue
        if kind == "deal":
            bidding_next = _bidding_next(log, i, bidding_now)
            _deal_record(st, pub, seat, version, blind, forehead_sizes, bidding_next)
            continue
        if kind in _BIDDING_KINDS:
            _bidding_record(st, ev, seat, version, simultaneous)
            continue
        if kind == "pass":
            out.append(PassEvent(version, ev[1], pub[2] if ev[1] == seat else None))
            continue
        if kind == "exchange":
            out.append(_exchange_record(pub, seat, version))
            continue
        if kind == "kitty" and ev[1] != seat:
            # The declarer takes the kitty face down: the others see that it did.
            out.append(KittyEvent(version, ev[1], None))
            continue
        if kind == "call" and ev[1] != seat and type(ev[2]) is Discard:
            # A discard is face down: only the seat that made it knows the card.
            out.append(CallEvent(version, ev[1], None))
            continue
        out.append(_record(pub, version))
    if counted != len(out):
        st.line += len(out) - counted
        marks.append(st.line)
    st.version = version
    st.pos = n
    st.last = log[n - 1] if n else None


#: The kinds of log entries of the bidding a seat's stream shows its way
#: (:func:`_bidding_record`).
_BIDDING_KINDS: Final = frozenset(("bid", "look", "bids"))


def _take_back_record(st: _Stream, ev: Entry, version: int) -> None:
    """Add the record of a player's take-back: the current line goes back to
    what it was after the log's first ``ev[4]`` entries."""
    marks = st.marks
    length = ev[4]
    line = marks[length - 1] if length else 0
    st.records.append(TakeBackEvent(version, ev[1], ev[2], ev[3], st.line - line))
    del marks[length:]
    st.line = line


def _bidding_next(log: Sequence[Entry], i: int, bidding_now: bool) -> bool:
    """Whether the bidding starts at once after the deal at ``log[i]``: the
    next action is a bid or a look (with no action yet, ``bidding_now``)."""
    n = len(log)
    nxt = next((log[j][0] for j in range(i + 1, n) if log[j][0] in ACTION_KINDS), None)
    return nxt in ("bid", "look") if nxt is not None else bidding_now


def _deal_record(
    st: _Stream,
    pub: Entry,
    seat: int | None,
    version: int,
    blind: bool,
    forehead_sizes: frozenset[int] | tuple[int, ...],
    starts: bool,
) -> None:
    """Add the record of a deal as ``seat`` sees it (``starts``: the bidding
    starts at once): its own hand hidden until it looks when the bids are
    blind or the hand is on the forehead, the others' shown on foreheads."""
    hn, size, hands = pub[1], pub[3], pub[4]
    forehead = size in forehead_sizes
    hide = starts and (blind or forehead)
    st.hn = hn
    st.hidden = hands[seat] if hide and seat is not None else None
    st.hidden_fh = forehead
    shown = tuple(
        h if seat is not None and ((s == seat and not hide) or (s != seat and forehead)) else None
        for s, h in enumerate(hands)
    )
    st.records.append(DealEvent(version, hn, pub[2], size, shown))


def _bidding_record(
    st: _Stream, ev: Entry, seat: int | None, version: int, simultaneous: bool
) -> None:
    """Add the record of a bid, a look or the bids shown (a bid made at the
    same time as others is hidden from them), and the reveal of the seat's own
    hand that follows its bid or look, or the bids shown."""
    out = st.records
    kind = ev[0]
    if kind == "bid":
        mine = ev[1] == seat
        out.append(BidEvent(version, ev[1], ev[2] if mine or not simultaneous else None, ev[3]))
        if mine and st.hidden is not None and not st.hidden_fh:
            _reveal(st, ev[1], version)
    elif kind == "look":
        out.append(LookEvent(version, ev[1]))
        if ev[1] == seat and st.hidden is not None and not st.hidden_fh:
            _reveal(st, ev[1], version)
    else:
        out.append(BidsEvent(version, tuple(None if b < 0 else b for b in ev[1])))
        if st.hidden is not None:
            assert seat is not None
            _reveal(st, seat, version)


def _exchange_record(pub: Entry, seat: int | None, version: int) -> ExchangeEvent:
    """The record of a pass of cards as ``seat`` sees it: the cards it passed
    and received."""
    targets = pub[2]
    shown = tuple(
        cs if seat is not None and (s == seat or targets[s] == seat) else None
        for s, cs in enumerate(pub[3])
    )
    return ExchangeEvent(version, pub[1], targets, shown)


def _reveal(st: _Stream, seat: int, version: int) -> None:
    assert st.hidden is not None
    st.records.append(RevealEvent(version, seat, st.hn, st.hidden))
    st.hidden = None


def _stream(
    cache: dict[int | None, _Stream],
    log: Sequence[Entry],
    seat: int | None,
    **context: Any,
) -> list[Event]:
    """``seat``'s stream (see :func:`_extend`), extended from ``cache``; rebuilt
    when the log no longer continues what the cache has read (an undo)."""
    st = cache.get(seat)
    if st is None or st.pos > len(log) or (st.pos and log[st.pos - 1] is not st.last):
        st = cache[seat] = _Stream()
    if st.pos < len(log):
        if st.shared:
            st = cache[seat] = st.copy()  # copy on write (another game holds it)
        _extend(st, log, seat, **context)
    return st.records


#: The digest of an empty stream (:func:`_digest`).
_EMPTY_DIGEST: Final = hashlib.sha256(b"").digest()


def entry_json(ev: Event) -> bytes:
    """The bytes a stream's digest reads of one record: its
    :meth:`~Event.to_dict` as compact JSON (no spaces, UTF-8, keys in the
    record's order).

    Example:
        >>> from cardrules.cards import card
        >>> entry_json(PlayEvent(version=3, seat=1, card=card("Q♠"))).decode()
        '{"kind":"play","version":3,"seat":1,"card":"Q♠"}'
    """
    return json.dumps(ev.to_dict(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _digest(st: _Stream, n: int) -> str:
    """The digest of the first ``n`` records of the stream ``st`` (see
    :meth:`Game.stream_digest`): ``d(0) = sha256(b"")``, ``d(k + 1) =
    sha256(d(k) + entry_json(record k))``, as hex. The digest of the stream's
    end is kept and extended; another is worked out from the start."""
    records = st.records
    if n < st.chained or not st.chain:
        chain, k = _EMPTY_DIGEST, 0
    else:
        chain, k = st.chain, st.chained
    while k < n:
        chain = hashlib.sha256(chain + entry_json(records[k])).digest()
        k += 1
    if n >= st.chained:
        st.chain, st.chained = chain, n
    return chain.hex()


def _count_actions(log: Sequence[Entry], start: int = 0) -> int:
    """How many entries of ``log[start:]`` are actions."""
    kinds = ACTION_KINDS
    return sum(1 for i in range(start, len(log)) if log[i][0] in kinds)


def _count_steps(log: Sequence[Entry], start: int = 0) -> int:
    """How many entries of ``log[start:]`` are steps (actions, take-backs)."""
    kinds = STEP_KINDS
    return sum(1 for i in range(start, len(log)) if log[i][0] in kinds)


def log_entries(g: Game) -> Sequence[Entry]:
    """The game's internal log, as it is (not a copy: read it, never change it):
    the cheap tuples the engine appends (see :data:`ACTION_KINDS` and the
    :func:`_record` of each kind), for tools that count what happened in many
    games without building the typed events (:meth:`Game.events`)."""
    return g._events
