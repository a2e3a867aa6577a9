"""Perfect-recall information states, built from one seat's event stream.

:meth:`Game.events_for` is the secrecy boundary: a seat's stream holds
everything it has seen happen, in order, and nothing it may not see. The
information state is that stream written out compactly:

* :func:`information_state` (``Game.information_state(seat)``, and
  ``Game.information_state_string(seat)``) is one line per event of the stream:
  the event's kind, then a JSON list of its fields but ``kind`` and ``version``
  (so ``play[1,"Q♠"]`` is seat 1 playing the queen of ♠). Two games give a
  seat equal strings exactly when they gave it equal streams: who played which
  card in every trick and in which order, every bid, pass, reveal, trump and
  call it saw. Versions are left out because they follow from the stream: every
  action of every seat is in every seat's stream (a hidden one with its secret
  as ``null``, and every take-back), so an event's version is the number of
  actions and take-backs among the events up to it.
* :func:`information_state_tensor` is a fixed-length vector of floats for
  one-hand trick-taking games (see :func:`information_state_tensor_size`),
  of the game as it stands (the stream with its take-backs applied:
  :func:`~cardrules.engine.state.history.current_line`).

Example:
    >>> import cardrules
    >>> rules = "game: doc\\nplayers: 3\\nhand size: 2\\nbidding: in turn\\nscore: tricks"
    >>> g = cardrules.Game(cardrules.load_text(rules), 3, seed=4)
    >>> print(g.information_state(0))
    start[3,null,null,null]
    deal[1,2,2,[["6♣","A♥"],null,null]]
    trump[1,"diamonds","10♦"]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import islice
from typing import TYPE_CHECKING

from cardrules.cards import CARDS, Card, Suit
from cardrules.engine.state.history import current_line
from cardrules.engine.views.event_types import (
    AmendEvent,
    BidEvent,
    BidsEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    PassEvent,
    PlayEvent,
    RevealEvent,
    TrickEvent,
    TrumpEvent,
)
from cardrules.errors import InvalidAction

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = [
    "information_state",
    "information_state_reference",
    "information_state_tensor",
    "information_state_tensor_reference",
    "information_state_tensor_size",
]

_SUITS = len(Suit)


def _generic_token(ev: Event) -> str:
    d = ev.to_dict()
    del d["kind"], d["version"]
    return ev.kind + json.dumps(list(d.values()), ensure_ascii=False, separators=(",", ":"))


def _token(ev: Event) -> str:
    """``ev``'s line: :func:`_generic_token`, written directly for the records
    of the play (most of a hand's stream; card names need no JSON escapes)."""
    cls = type(ev)
    if cls is PlayEvent:
        assert isinstance(ev, PlayEvent)
        return f'play[{ev.seat},"{ev.card}"]'
    if cls is TrickEvent:
        assert isinstance(ev, TrickEvent)
        seats = ",".join(map(str, ev.seats))
        cards = '","'.join(map(str, ev.cards))
        return f'trick[{ev.winner},[{seats}],["{cards}"]]'
    return _generic_token(ev)


def information_state(game: Game, seat: int) -> str:
    """``seat``'s perfect-recall information state as text: one line per
    event of ``game.events_for(seat)`` (see the module's docstring).

    Args:
        game: the game.
        seat: the seat.

    Returns:
        The lines joined by ``"\\n"``; equal for two games exactly when the
        seat's streams are equal.

    Raises:
        InvalidAction: if ``seat`` is not a seat number of the game.
    """
    if seat is None:
        raise InvalidAction(
            "the information state is a seat's: give a seat number", code="bad_seat"
        )
    records = game._stream_of(game._check_seat(seat))  # the stream itself, not a copy
    streams = game._streams
    assert streams is not None  # built by _stream_of
    st = streams.by_seat[seat]
    # Kept with the stream and extended by the lines of its new records only
    # (a stream only grows; an undo gives a new stream, a clone shares it).
    k, n = st.texted, len(records)
    if k < n:
        tail = "\n".join(map(_token, islice(records, k, n)))
        st.text = st.text + "\n" + tail if k else tail
        st.texted = n
    return st.text


def information_state_reference(game: Game, seat: int) -> str:
    """:func:`information_state` built from the whole stream at every call:
    the reference the kept one is tested against.

    Raises:
        InvalidAction: if ``seat`` is not a seat number of the game.
    """
    if seat is None:
        raise InvalidAction(
            "the information state is a seat's: give a seat number", code="bad_seat"
        )
    return "\n".join(map(_token, game.events_for(seat)))


def _layout(game: Game) -> tuple[list[Card], int, int]:
    """The pack (in card order), the number of tricks and the bid slots;
    refuses games the tensor does not cover."""
    r = game._rules  # the engine's own compiled rules
    sizes = game.hand_sizes
    if not r.tricks_mode or len(sizes) != 1:
        raise InvalidAction(
            f"{game.variant.name}: the information state tensor covers one-hand "
            "trick-taking games only (this game has "
            f"{len(sizes)} scheduled hand{'s' if len(sizes) != 1 else ''}"
            f"{'' if r.tricks_mode else ' and no tricks'}); use information_state(seat)",
            code="not_in_variant",
        )
    pack = [c for c in CARDS if r.pack_mask >> int(c) & 1]
    return pack, sizes[0], sizes[0] + 1


def information_state_tensor_size(game: Game) -> int:
    """The length of :func:`information_state_tensor` for ``game``'s variant
    and number of players.

    With ``C`` cards in the pack, ``N`` players, ``T`` tricks and bids from 0
    to ``T``: own dealt hand ``C``, turned-up card ``C``, trump suit 5 (four
    suits and no trumps), cards passed ``C``, cards received ``C``, bids
    ``N * (T + 1)`` (by seat relative to ``seat``), then per trick and per
    place in it the player (``N``) and the card (``C``): ``T * N * (N + C)``.

    Raises:
        InvalidAction: for a game that is not a one-hand trick-taking game.

    Example:
        >>> import cardrules
        >>> text = "game: doc\\nplayers: 4\\nhands: list 10\\nbidding: in turn\\nscore: tricks"
        >>> g = cardrules.Game(cardrules.load_text(text), 4, seed=1)
        >>> information_state_tensor_size(g) == 4 * 52 + 5 + 4 * 11 + 10 * 4 * 56
        True
    """
    pack, tricks, slots = _layout(game)
    c, n = len(pack), game.players
    return 4 * c + _SUITS + 1 + n * slots + tricks * n * (n + c)


def information_state_tensor(game: Game, seat: int) -> list[float]:
    """``seat``'s information state as a fixed-length vector of 0.0 and 1.0,
    for one-hand trick-taking games (layout: :func:`information_state_tensor_size`).

    It holds what the seat's stream shows of its own hand (as dealt, or as
    revealed), the turned-up card and the trump suit, the cards it passed and
    received, every bid it has seen (the last one, after a change), and every
    card played, in order, with who played it; a new deal (a tie-break hand)
    starts it again, so it describes the current hand. Events outside these (a call
    of a trump-choosing round, a look, the score) are in
    :func:`information_state` only: the tensor is perfect recall for games whose
    decisions are bids, passes and plays.

    Raises:
        InvalidAction: if ``seat`` is not a seat number, or the game is not a
            one-hand trick-taking game.

    Example:
        >>> import cardrules
        >>> text = "game: doc\\nplayers: 4\\nhands: list 10\\nbidding: in turn\\nscore: tricks"
        >>> g = cardrules.Game(cardrules.load_text(text), 4, seed=1)
        >>> t = information_state_tensor(g, 0)
        >>> len(t) == information_state_tensor_size(g), sum(t)
        (True, 12.0)
    """
    seat = game._check_seat(seat)
    if game._history is not None:
        # Take-backs: the tensor is of the current line, not of the stream.
        return information_state_tensor_reference(game, seat)
    records = game._stream_of(seat)  # the stream itself, not a copy
    streams = game._streams
    assert streams is not None  # built by _stream_of
    st = streams.by_seat[seat]
    pack, where, tricks, slots = _layout_of(game)
    n = game.players
    c = len(pack)
    kept = st.tensor
    ones: list[int]
    bids: list[int | None]
    if kept is None:
        k, ones, played, bids = 0, [], 0, [None] * n
    else:
        k, ones, played, bids = kept
    if k < len(records):
        # Kept with the stream and extended by its new records only: the places
        # of its ones (a few dozen, not the vector); new lists, so that a clone
        # sharing the stream keeps what it read.
        ones, bids = ones[:], bids[:]
        played = _fold(ones, bids, played, islice(records, k, None), seat, where, tricks, n)
        st.tensor = (len(records), ones, played, bids)
    res = [0.0] * (4 * c + _SUITS + 1 + n * slots + tricks * n * (n + c))
    for i in ones:
        res[i] = 1.0
    o_bids = 4 * c + _SUITS + 1
    for s, b in enumerate(bids):
        if b is not None and 0 <= b < slots:
            res[o_bids + ((s - seat) % n) * slots + b] = 1.0
    return res


def _fold(
    ones: list[int],
    bids: list[int | None],
    played: int,
    events: Iterable[Event],
    seat: int,
    where: dict[Card, int],
    tricks: int,
    n: int,
) -> int:
    """Add ``events`` to the places of the ones of the tensor (``ones``; its
    bids apart, in ``bids``), as :func:`information_state_tensor_reference`
    writes them; returns the number of cards played since the last deal."""
    c = len(where)
    o_turned, o_trump = c, 2 * c
    o_passed, o_received = 2 * c + _SUITS + 1, 3 * c + _SUITS + 1
    o_plays = 4 * c + _SUITS + 1 + n * (tricks + 1)
    width = n + c
    for ev in events:
        cls = type(ev)
        if cls is PlayEvent:
            assert isinstance(ev, PlayEvent)
            if played < tricks * n:
                base = o_plays + played * width
                ones.append(base + (ev.seat - seat) % n)
                ones.append(base + n + where[ev.card])
            played += 1
        elif cls is DealEvent:
            assert isinstance(ev, DealEvent)
            # A new deal (a tie-break hand) starts the vector again.
            ones.clear()
            played = 0
            bids[:] = [None] * n
            hand = ev.hands[seat]
            if hand is not None:
                ones.extend(where[card] for card in hand)
        elif isinstance(ev, RevealEvent):
            if ev.seat == seat:
                ones.extend(where[card] for card in ev.cards)
        elif isinstance(ev, TrumpEvent):
            # The turned-up card, and the one-hot of the trump suit (a later
            # trump record's replaces it).
            if ev.turned is not None:
                ones.append(o_turned + where[ev.turned])
            ones[:] = [i for i in ones if not o_trump <= i <= o_trump + _SUITS]
            ones.append(o_trump + (_SUITS if ev.suit is None else int(ev.suit)))
        elif isinstance(ev, PassEvent):
            if ev.seat == seat and ev.card is not None:
                ones.append(o_passed + where[ev.card])
        elif isinstance(ev, ExchangeEvent):
            for s, cs in enumerate(ev.cards):
                if cs is not None and ev.targets[s] == seat and s != seat:
                    ones.extend(o_received + where[card] for card in cs)
        elif isinstance(ev, BidEvent | AmendEvent):
            if ev.bid is not None:
                bids[ev.seat] = ev.bid
        elif isinstance(ev, BidsEvent):
            bids[:] = list(ev.bids)
    return played


#: The tensor's layout by pack, schedule and number of players (_layout_of).
_LAYOUTS: dict[tuple[int, tuple[int, ...], int], tuple[list[Card], dict[Card, int], int, int]] = {}


def _layout_of(game: Game) -> tuple[list[Card], dict[Card, int], int, int]:
    """:func:`_layout` and the index of each card of the pack, kept by pack,
    schedule and number of players (a bounded table)."""
    r = game._rules
    key = (r.pack_mask if r.tricks_mode else -1, game.hand_sizes, game.players)
    got = _LAYOUTS.get(key)
    if got is None:
        pack, tricks, slots = _layout(game)
        if len(_LAYOUTS) >= 256:
            _LAYOUTS.clear()
        got = _LAYOUTS[key] = (pack, {card: i for i, card in enumerate(pack)}, tricks, slots)
    return got


def _layout_or_none(game: Game) -> tuple[list[Card], int, int] | None:
    """:func:`_layout`, or None for a game the tensor does not cover."""
    try:
        return _layout(game)
    except InvalidAction:
        return None


def information_state_tensor_reference(game: Game, seat: int) -> list[float]:
    """:func:`information_state_tensor` built from the whole stream at every
    call: the reference the kept one is tested against (and the tensor of a
    game with take-backs, whose current line is not the stream).

    Raises:
        InvalidAction: as :func:`information_state_tensor`.
    """
    # The game as it stands: what a take-back undid is not on the table.
    events = current_line(game.events_for(seat))
    pack, tricks, slots = _layout(game)
    c, n = len(pack), game.players
    where = {card: i for i, card in enumerate(pack)}
    out = [0.0] * (4 * c + _SUITS + 1 + n * slots + tricks * n * (n + c))
    o_turned, o_trump = c, 2 * c
    o_passed, o_received = 2 * c + _SUITS + 1, 3 * c + _SUITS + 1
    o_bids = 4 * c + _SUITS + 1
    o_plays = o_bids + n * slots
    width = n + c
    played = 0
    bids: list[int | None] = [None] * n
    for ev in events:
        if isinstance(ev, PlayEvent):
            if played < tricks * n:
                base = o_plays + played * width
                out[base + (ev.seat - seat) % n] = 1.0
                out[base + n + where[ev.card]] = 1.0
            played += 1
        elif isinstance(ev, DealEvent):
            # A new deal (a tie-break hand) starts the vector again.
            out = [0.0] * len(out)
            played = 0
            bids = [None] * n
            hand = ev.hands[seat]
            if hand is not None:
                for card in hand:
                    out[where[card]] = 1.0
        elif isinstance(ev, RevealEvent):
            if ev.seat == seat:
                for card in ev.cards:
                    out[where[card]] = 1.0
        elif isinstance(ev, TrumpEvent):
            _mark_trump(out, ev, o_turned, o_trump, where)
        elif isinstance(ev, PassEvent):
            if ev.seat == seat and ev.card is not None:
                out[o_passed + where[ev.card]] = 1.0
        elif isinstance(ev, ExchangeEvent):
            _mark_received(out, ev, seat, o_received, where)
        elif isinstance(ev, BidEvent | AmendEvent):
            if ev.bid is not None:
                bids[ev.seat] = ev.bid
        elif isinstance(ev, BidsEvent):
            bids = [b for b in ev.bids]
    for s, b in enumerate(bids):
        if b is not None and 0 <= b < slots:
            out[o_bids + ((s - seat) % n) * slots + b] = 1.0
    return out


def _mark_trump(
    out: list[float], ev: TrumpEvent, o_turned: int, o_trump: int, where: dict[Card, int]
) -> None:
    """The turned-up card and the one-hot of the trump suit (the last trump
    record's: a later one replaces it)."""
    if ev.turned is not None:
        out[o_turned + where[ev.turned]] = 1.0
    for i in range(_SUITS + 1):
        out[o_trump + i] = 0.0
    out[o_trump + (_SUITS if ev.suit is None else int(ev.suit))] = 1.0


def _mark_received(
    out: list[float], ev: ExchangeEvent, seat: int, o_received: int, where: dict[Card, int]
) -> None:
    """The cards ``seat`` received from another seat in the pass."""
    for s, cs in enumerate(ev.cards):
        if cs is not None and ev.targets[s] == seat and s != seat:
            for card in cs:
                out[o_received + where[card]] = 1.0
