"""Sampling the hidden cards: :meth:`Game.sample_world <cardrules.engine.game.Game.sample_world>`.

A *world* is a full game that one seat cannot tell from the real one: its
:meth:`~cardrules.engine.game.Game.view` and
:meth:`~cardrules.engine.game.Game.events_for` of that seat are equal to the
real game's, and every other card, bid and choice is drawn at random among
those consistent with what the seat has seen. Search bots (determinized
Monte-Carlo, ISMCTS) play on from worlds.

A world has no take-backs: in a game where a player took actions back
(:mod:`~cardrules.engine.state.history`), it is made by the actions of the game as it
stands, and what equals the real game's is the stream of that line of play
(the real game's stream with nothing taken back, as
:func:`~cardrules.engine.state.history.current_line` gives it, but for the
versions) and the view but for its ``version``. What the seat saw in the
actions taken back is not used.

Two samplers make worlds. :func:`sample_world` draws from the present
(:func:`_present_world`): a clone of the game whose hidden cards of the
current hand are drawn again by the exact sampler below, under the same
constraints, the log's deal record of the hand rewritten to the drawn one and
the later hands dealt from a fresh seed; the holdings of the hands before are
public (each seat played every card it held), so their records are kept, but
for what was done face down in them (the passes between other seats, a kitty
and its discards), drawn again as the reference does and rewritten
(:func:`_draw_past`). A pass of cards and a kitty in the current hand are
drawn with the holdings (:func:`_rewrite_hand` rewrites their records), and
the cards picked up in a shedding game's first hand are every seat's to see. It
reads the real game only where the seat could: the numbers of cards dealt and
played, the public records, its own cards and what it passed, received or
took, and the state before each play of the hand (the real game taken back,
:meth:`Game.undo <cardrules.engine.game.Game.undo>`) asked only what the play
rules answer from the trick and the playing seat's hand. Where the game has
something it does not draw (a face-down discard without a kitty, a shedding
game after its first hand, several packs, a deal thrown in, take-backs, a pass of cards still
being chosen...), :func:`sample_world_replay`, the reference, makes the world.

The reference builds a world only from the seat's own event stream (and the
public rules), so it cannot depend on anything the seat has not seen:

* each hand of the stream, past or current, is dealt again: the cards the seat
  may not see are drawn uniformly among the assignments consistent with the
  constraints below (an exact sampler: :func:`_sample_bins`), then the hand's
  actions are replayed on the new deal, which checks every rule (a candidate
  the rules refuse is rejected and drawn again);
* hands after the current one are dealt from a fresh seed drawn from ``rng``;
  the first dealer and the cut for the deal are the seen ones.

What is drawn, precisely (per hand):

* the *holdings* of every seat once the hidden moves before the play are made
  (after the pass of cards, after a dealer's face-down discard), the undealt
  cards and the discarded card: uniformly over the assignments of the cards the
  seat did not see that respect every card seen played (by whom), picked up,
  passed, turned up or kept, and every legality constraint a play revealed
  (a seat that did not follow, trump or beat when the rules' card-set lists
  would have made it holds no such card). These constraints are the engine's
  own: each one is found by asking the play rules
  (:func:`~cardrules.engine.phases.play._legal_plays`) which cards would have made the
  card played illegal;
* the cards other seats passed to each other (not to or from the seat):
  uniformly among their holdings;
* other seats' hidden bids (made at the same time, not yet shown): uniformly
  among their legal bids.

So the holdings are uniform over the consistent ones; with a pass between
other seats the deal is not exactly uniform (each consistent holding is
equally likely, then each consistent pass). The real players' choices are not
modelled (no inference from bids or from which legal card was played).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from math import comb, factorial
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

import attrs

from cardrules.cards import CARD_BY_ID, CARDS, Card, CardSet
from cardrules.engine.actions import (
    Action,
    Amend,
    Bid,
    Contract,
    Discard,
    Downtown,
    Look,
    Name,
    OrderUp,
    Pass,
    Play,
    Take,
)
from cardrules.engine.events import ACTION_KINDS
from cardrules.engine.phases.play import _legal_plays
from cardrules.engine.state.compiled_rules import _compile
from cardrules.engine.state.deck_order import _random_words
from cardrules.engine.state.tables import _BITS, _PLAY, _PLAYS
from cardrules.engine.state.tables import _PASS as _PASS_PHASE
from cardrules.engine.state.transitions import forget_legal, forget_legal_cards
from cardrules.engine.views.event_types import (
    AmendEvent,
    BidEvent,
    BidsEvent,
    CallEvent,
    CutEvent,
    DealEvent,
    DrawEvent,
    Event,
    ExchangeEvent,
    KnockedOutEvent,
    LookEvent,
    MadeEvent,
    PassEvent,
    PickupEvent,
    PlayEvent,
    RedealEvent,
    RevealEvent,
    ShownEvent,
    StartEvent,
    TakeEvent,
    TrumpEvent,
)
from cardrules.errors import CardrulesError, IllegalAction, InvalidAction, SaveError
from cardrules.rules import MAX_SCHEDULE_HANDS, FirstDealer, Variant

if TYPE_CHECKING:
    from cardrules.engine.game import Game
    from cardrules.engine.views.view import View

__all__ = [
    "MAX_ATTEMPTS",
    "Deal",
    "deals_of",
    "game_from_deals",
    "sample_world",
    "sample_world_replay",
]

#: The most candidate deals tried for one hand before giving up
#: (:class:`~cardrules.errors.IllegalAction`, code ``no_world``).
MAX_ATTEMPTS: Final = 200
#: The most seeds tried to find one whose first dealer is the seen one.
_MAX_SEED_TRIES: Final = 10_000
#: The most candidate deals drawn (from a private generator) to find the
#: constraints of a hand's plays before the world is drawn.
_LEARN_ATTEMPTS: Final = 60


def _bits(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------- the stream, by hand


#: A deal thrown in (``redeal:``): its deal, trump and redeal records, and the
#: seats' choices to keep or show (``(seat, action)``: ``may be shown``).
_Thrown = tuple[DealEvent, TrumpEvent | None, RedealEvent, tuple[tuple[int, Action], ...]]


class _Hand:
    """One hand of a seat's stream: its deal and trump records and the records
    after them (up to the next deal); ``thrown``: the deals of the same hand
    thrown in before it (``redeal:``), each with its trump and redeal records;
    ``kitty_seat``: the declarer who took the kitty, when read from the log
    (-1: none took it; None: found from the calls)."""

    __slots__ = ("deal", "events", "kitty_seat", "reveal", "thrown", "trump")

    def __init__(self, deal: DealEvent) -> None:
        self.deal = deal
        self.trump: TrumpEvent | None = None
        self.reveal: RevealEvent | None = None
        self.events: list[Event] = []
        self.thrown: list[_Thrown] = []
        self.kitty_seat: int | None = None


def _split(stream: list[Event]) -> tuple[StartEvent, tuple[CutEvent, ...], list[_Hand]]:
    start = stream[0]
    assert isinstance(start, StartEvent)
    cuts: list[CutEvent] = []
    hands: list[_Hand] = []
    thrown: list[_Thrown] = []
    for ev in stream[1:]:
        if isinstance(ev, DealEvent):
            hands.append(_Hand(ev))
            hands[-1].thrown, thrown = thrown, []
        elif isinstance(ev, RedealEvent) and hands:
            # A deal thrown in: it goes with the deal of the same hand that follows.
            gone = hands.pop()
            calls = tuple(
                (c.seat, c.action)
                for c in gone.events
                if isinstance(c, CallEvent) and c.action is not None
            )
            thrown = [*gone.thrown, (gone.deal, gone.trump, ev, calls)]
        elif not hands:
            if isinstance(ev, CutEvent):
                cuts.append(ev)
        elif isinstance(ev, TrumpEvent) and hands[-1].trump is None:
            hands[-1].trump = ev
        else:
            if isinstance(ev, RevealEvent):
                hands[-1].reveal = ev
            hands[-1].events.append(ev)
    return start, tuple(cuts), hands


# --------------------------------------------------------------------------- one hand's problem


class _Plan:
    """What is known of one hand, from the seat's stream: the bins (each
    seat's holding after the hidden moves before the play, the undealt cards,
    the discard), the cards each bin must hold or may not hold, and the hidden
    moves to draw."""

    __slots__ = (
        "caps",
        "caps_dealt",
        "dealer",
        "discarder",
        "exchange",
        "fixed",
        "given",
        "k_pass",
        "kitty_maker",
        "nbins",
        "ordered",
        "own_known",
        "played",
        "received",
        "seat_dealt",
        "turned",
        "unknown_allowed",
    )

    caps: list[int]  # each bin's number of cards
    dealer: int
    discarder: int  # the seat that discarded face down (-1: none)
    exchange: ExchangeEvent | None  # the pass of cards, as the seat saw it
    fixed: dict[int, frozenset[int]]  # seen cards: the bins each may be in
    given: list[int]  # the cards each seat passed (the seen ones)
    k_pass: int  # cards each seat passes
    kitty_maker: int  # the declarer who took the kitty (-1: none taken)
    caps_dealt: int  # the cards dealt to the declarer who took the kitty
    seat_dealt: int  # the seat's own dealt cards, when it took the kitty (-1: unseen)
    nbins: int
    ordered: bool  # the turned card went to the dealer
    own_known: int  # the seat's holding (-1: not seen)
    played: list[tuple[int, int, frozenset[int]]]
    received: list[int]  # the cards each seat received in the pass (seen ones)
    turned: int
    unknown_allowed: dict[frozenset[int], int]  # unseen cards (a mask) by their bins


def _deal_sizes(g: Game, dealer: int, size: int, out: set[int]) -> list[int]:
    """Cards dealt to each seat in a hand (``out``: seats knocked out)."""
    r = g._rules
    n = g._players
    dealt_from = [s for s in g._order[dealer] if s not in out]
    sizes = [0] * n
    for s in dealt_from:
        if r.whole_pack and not r.tricks_mode:
            sizes[s] = len(range(dealt_from.index(s), len(r.pack), n))
        else:
            sizes[s] = size
    return sizes


def _plan(
    g: Game,
    seat: int,
    hand: _Hand,
    out: set[int],
    learned: dict[int, int],
    leader_now: int,
    hand_now: int,
) -> _Plan:
    """The problem of one hand. ``learned``: legality constraints found so far
    as ``(play index in the hand, seat, forbidden mask)``."""
    r = g._rules
    n = g._players
    deal = hand.deal
    dealer = deal.dealer
    sizes = _deal_sizes(g, dealer, deal.size, out)
    turned = -1
    if hand.trump is not None and hand.trump.turned is not None:
        turned = int(hand.trump.turned)
    stock, discard = n, n + 1
    p = _Plan()
    p.nbins = n + 2
    p.dealer = dealer
    p.turned = turned
    pack = r.pack_mask
    dealt_total = sum(sizes)
    caps = [*sizes, 0, 0]
    turned_in_deal = turned >= 0 and r.dealers_card
    stock_cap = len(r.pack) - dealt_total - (1 if turned >= 0 and not turned_in_deal else 0)
    caps[stock] = max(stock_cap, 0)
    # Own cards (as dealt): from the deal record, or a later reveal.
    visible: list[int | None] = [None if h is None else h.mask for h in deal.hands]
    if hand.reveal is not None:
        visible[seat] = hand.reveal.cards.mask
    exchange, discarder, ordered = _hidden_moves(hand)
    p.exchange = exchange
    p.discarder = discarder
    # A dealer that discards face down without a kitty took the turned card
    # (ordered up, or given it by the rules, as a turned Benny is).
    took = discarder == dealer and not r.kitty and not r.dealers_card
    p.ordered = ordered = (ordered or took) and turned >= 0
    p.kitty_maker = _kitty_taker(hand, r.kitty, r.downtown)
    p.seat_dealt = -1
    if p.kitty_maker >= 0:
        p.caps_dealt = caps[p.kitty_maker]
        seen = visible[seat]
        if p.kitty_maker == seat and seen is not None:
            p.seat_dealt = seen
        # The declarer took the kitty from the stock and has discarded some.
        gone = _discards(hand)
        caps[p.kitty_maker] += r.kitty - gone
        caps[stock] -= r.kitty
        caps[discard] = gone
    elif discarder >= 0:
        caps[discard] = 1
    elif ordered:
        caps[dealer] += 1  # the dealer holds the turned card, before discarding
    # fixed[c] = the bins card c may be in (a frozenset), for cards whose place
    # is constrained by what was seen.
    fixed: dict[int, frozenset[int]] = {}
    p.given, p.received, p.k_pass = _exchange_masks(exchange, n)
    own_known = _fix_visible(p, seat, hand, visible, fixed)
    for ev in hand.events:
        if type(ev) is ShownEvent:
            # A hand laid face up (open misère): its cards are the seat's.
            for shown in ev.cards:
                fixed[int(shown)] = frozenset((ev.seat,))
    if turned >= 0:
        _fix_turned(p, turned_in_deal, fixed)
    if exchange is not None:
        _fix_received(p, seat, fixed)
    # The play: who played what, from which bins.
    played, owned, recv = _plays_of(hand, n)
    p.played = played
    if hand_now >= 0:
        # The seat's hand now (the current hand): what it took from a
        # neighbour is in its view, though no record shows it.
        for c in _bits(hand_now & ~recv[seat]):
            if c not in fixed:
                fixed[c] = frozenset(owned[seat])
    if r.leader_holder:
        _fix_lead_card(r.lead_card, hand, played, leader_now, fixed)
    # Legality constraints learned: (play index, bins owned then, forbidden mask).
    cons = _learned_constraints(hand, n, learned) if learned else []
    _fix_played(played, cons, fixed)
    p.caps = caps
    p.fixed = fixed
    p.unknown_allowed = _unknown_cards(pack, caps, cons, seat if own_known >= 0 else -1, fixed)
    p.own_known = own_known
    return p


def _kitty_taker(hand: _Hand, kitty: int, downtown: int) -> int:
    """The declarer who has taken the kitty in this hand (-1: none yet, or no
    kitty): it takes it once it has named trumps (and, with ``downtown``,
    played the hand uptown or downtown)."""
    if not kitty:
        return -1
    if hand.kitty_seat is not None:
        return hand.kitty_seat
    bidder = -1  # an auction of contracts: the last contract bid's seat
    for ev in hand.events:
        if isinstance(ev, CallEvent) and ev.action is not None:
            kind = type(ev.action)
            if (kind is Name and not downtown) or kind is Downtown:
                return ev.seat
            if kind is Contract:
                bidder = ev.seat
        elif type(ev) is MadeEvent and bidder >= 0:
            # The winning contract bid made trumps: its bidder took the kitty.
            return bidder
    return -1


def _discards(hand: _Hand) -> int:
    """The number of face-down discards made in this hand."""
    return sum(
        1
        for ev in hand.events
        if isinstance(ev, CallEvent) and (ev.action is None or type(ev.action) is Discard)
    )


def _hidden_moves(hand: _Hand) -> tuple[ExchangeEvent | None, int, bool]:
    """The pass of cards of a hand (None: none), the seat that discarded face
    down (-1: none) and whether the turned card was ordered up to the dealer."""
    exchange: ExchangeEvent | None = None
    discarder = -1
    ordered = False  # the turned card went to the dealer (ordered up)
    for ev in hand.events:
        if isinstance(ev, ExchangeEvent):
            exchange = ev
        elif isinstance(ev, CallEvent) and type(ev.action) is OrderUp:
            ordered = True
        elif isinstance(ev, CallEvent) and (ev.action is None or type(ev.action) is Discard):
            discarder = ev.seat
    return exchange, discarder, ordered


def _exchange_masks(exchange: ExchangeEvent | None, n: int) -> tuple[list[int], list[int], int]:
    """The cards each seat passed and received in a pass of cards (the seen
    ones), and the number of cards each seat passes."""
    given = [0] * n  # cards each seat passed (known ones)
    received = [0] * n  # cards each seat received in the pass (known ones)
    k_pass = 0
    if exchange is not None:
        targets = exchange.targets
        for s in range(n):
            cs = exchange.cards[s]
            if cs is not None:
                given[s] = cs.mask
                received[targets[s]] |= cs.mask
                k_pass = max(k_pass, len(cs))
    return given, received, k_pass


def _fix_visible(
    p: _Plan, seat: int, hand: _Hand, visible: list[int | None], fixed: dict[int, frozenset[int]]
) -> int:
    """Fix the cards of the hands the seat saw (after the pass and discard) in
    ``fixed``; the seat's own holding (-1: it did not see its cards)."""
    own_known = -1
    exchange = p.exchange
    dealer = p.dealer
    for s in range(p.nbins - 2):
        m = visible[s]
        if m is None:
            continue
        if exchange is not None:
            if s != seat:
                continue  # (forehead hands with a pass: not in the language)
            m = (m & ~p.given[s]) | p.received[s]
        if s == seat and p.kitty_maker == seat:
            # The declarer's own discards (from the dealt cards or the kitty):
            # in the discard bin; the kitty's cards it keeps are in its hand now.
            for ev in hand.events:
                if isinstance(ev, CallEvent) and ev.seat == seat and type(ev.action) is Discard:
                    disc = int(ev.action.card)
                    m &= ~_BITS[disc]
                    fixed[disc] = frozenset((p.nbins - 1,))
        if s == dealer and p.ordered and s == seat:
            # The dealer took the turned card (and discarded one).
            m |= _BITS[p.turned]
            if p.discarder >= 0:
                disc = _own_discard(hand, seat)
                m &= ~_BITS[disc]
                fixed[disc] = frozenset((p.nbins - 1,))
        if s == seat:
            own_known = m
        only = frozenset((s,))
        for c in _bits(m):
            fixed[c] = only
    return own_known


def _fix_turned(p: _Plan, turned_in_deal: bool, fixed: dict[int, frozenset[int]]) -> None:
    """Fix the turned-up card in ``fixed``: the dealer's, the dealer's or the
    discard's when ordered up, or public (in no bin)."""
    turned = p.turned
    dealer = p.dealer
    if turned_in_deal:
        fixed[turned] = frozenset((dealer,))
    elif p.ordered:
        if turned not in fixed:
            discard = p.nbins - 1
            fixed[turned] = frozenset((dealer, discard) if p.discarder >= 0 else (dealer,))
    else:
        fixed[turned] = frozenset()  # public, in no bin


def _fix_received(p: _Plan, seat: int, fixed: dict[int, frozenset[int]]) -> None:
    """Fix the cards passed by the seat to a neighbour in ``fixed``: they sit
    in the neighbour's holding."""
    for s in range(p.nbins - 2):
        if s == seat:
            continue
        for c in _bits(p.received[s]):
            fixed[c] = frozenset((s,))


def _fix_lead_card(
    lc: int,
    hand: _Hand,
    played: list[tuple[int, int, frozenset[int]]],
    leader_now: int,
    fixed: dict[int, frozenset[int]],
) -> None:
    """Fix the lead card ``lc`` in ``fixed``: the first leader of the hand
    holds it at the start of the play (the seat that played first, or the seat
    to lead now)."""
    first = next((ev.seat for ev in hand.events if isinstance(ev, PlayEvent)), leader_now)
    if first >= 0 and lc not in fixed and not any(c == lc for _, c, _ in played):
        fixed[lc] = frozenset((first,))


def _plays_of(
    hand: _Hand, n: int
) -> tuple[list[tuple[int, int, frozenset[int]]], list[set[int]], list[int]]:
    """The plays of a hand from a seat's holding as ``(index, card, bins)``,
    the bins each seat owns at the end (after takes), and the cards known to
    have come into each hand during the play and not yet played."""
    owned: list[set[int]] = [{s} for s in range(n)]
    frozen = [frozenset(o) for o in owned]
    recv = [0] * n  # cards known to have come into a hand during the play
    played: list[tuple[int, int, frozenset[int]]] = []  # (index, card, bins)
    idx = 0
    for ev in hand.events:
        if isinstance(ev, PlayEvent):
            s, c = ev.seat, int(ev.card)
            if recv[s] >> c & 1:
                recv[s] &= ~_BITS[c]
            else:
                played.append((idx, c, frozen[s]))
            idx += 1
        elif isinstance(ev, PickupEvent):
            for c in ev.cards:
                recv[ev.taker] |= _BITS[int(c)]
        elif isinstance(ev, TakeEvent):
            owned[ev.seat] |= owned[ev.neighbour]
            owned[ev.neighbour] = set()
            frozen[ev.seat] = frozenset(owned[ev.seat])
            frozen[ev.neighbour] = frozenset()
            recv[ev.seat] |= recv[ev.neighbour]
            recv[ev.neighbour] = 0
    return played, owned, recv


def _learned_constraints(
    hand: _Hand, n: int, learned: dict[int, int]
) -> list[tuple[int, frozenset[int], int]]:
    """The legality constraints learned, as ``(play index, bins owned then,
    forbidden mask)``."""
    cons: list[tuple[int, frozenset[int], int]] = []
    owned2: list[frozenset[int]] = [frozenset((s,)) for s in range(n)]
    idx = 0
    bins_at: dict[int, frozenset[int]] = {}
    for ev in hand.events:
        if isinstance(ev, PlayEvent):
            bins_at[idx] = owned2[ev.seat]
            idx += 1
        elif isinstance(ev, TakeEvent):
            owned2[ev.seat] |= owned2[ev.neighbour]
            owned2[ev.neighbour] = frozenset()
    for i, forbid in learned.items():
        if forbid and i in bins_at:
            cons.append((i, bins_at[i], forbid))
    return cons


def _fix_played(
    played: list[tuple[int, int, frozenset[int]]],
    cons: list[tuple[int, frozenset[int], int]],
    fixed: dict[int, frozenset[int]],
) -> None:
    """Fix each played card in ``fixed``: the bins it was played from, less
    those an earlier constraint forbade it in."""
    if not cons:
        for _i, c, bins in played:
            prev = fixed.get(c)
            fixed[c] = bins if prev is None else prev & bins
        return
    # Only the constraints that name a played card matter to it.
    mask = 0
    for _i, c, _bins in played:
        mask |= _BITS[c]
    hits = [(j, cbins, forbid & mask) for j, cbins, forbid in cons if forbid & mask]
    for i, c, bins in played:
        allowed = bins
        bit = _BITS[c]
        for j, cbins, forbid in hits:
            if j < i and forbid & bit:
                allowed = allowed - cbins
        prev = fixed.get(c)
        fixed[c] = allowed if prev is None else prev & allowed


def _unknown_cards(
    pack: int,
    caps: list[int],
    cons: list[tuple[int, frozenset[int], int]],
    own_seat: int,
    fixed: dict[int, frozenset[int]],
) -> dict[frozenset[int], int]:
    """The cards never seen, grouped by the bins the constraints allow them
    in (bins -> a mask of cards; ``own_seat``: the seat whose holding is
    known, -1: none)."""
    forbid_of = [0] * len(caps)
    for _j, cbins, forbid in cons:
        for b in cbins:
            forbid_of[b] |= forbid
    open_bins = [b for b in range(len(caps)) if caps[b]]
    if own_seat >= 0:
        open_bins = [b for b in open_bins if b != own_seat]
    seen = 0
    for c in fixed:
        seen |= _BITS[c]
    groups: dict[tuple[int, ...], int] = {tuple(open_bins): pack & ~seen}
    for b in open_bins:
        f = forbid_of[b]
        if not f:
            continue
        split: dict[tuple[int, ...], int] = {}
        for key, m in groups.items():
            if m & f:
                narrower = tuple(x for x in key if x != b)
                split[narrower] = split.get(narrower, 0) | (m & f)
            if m & ~f:
                split[key] = split.get(key, 0) | (m & ~f)
        groups = split
    return {frozenset(key): m for key, m in groups.items() if m}


def _own_discard(hand: _Hand, seat: int) -> int:
    for ev in hand.events:
        if isinstance(ev, CallEvent) and ev.seat == seat and type(ev.action) is Discard:
            return int(ev.action.card)
    raise AssertionError("the seat's discard is in its stream")


# --------------------------------------------------------------------------- the exact sampler


#: n! for the numbers of cards of a pack (and more).
_FACT: Final = tuple(factorial(i) for i in range(130))


def _splits(
    k: int, fit: tuple[int, ...], caps: tuple[int, ...], least: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """Every way to put at most ``k`` cards in the bins ``fit`` (indices into
    ``caps``) within ``caps``, at least ``least[b]`` in bin ``b``."""
    if not fit:
        return [()]
    first = fit[0]
    top = min(k, caps[first])
    low = max(0, least[first])
    if len(fit) == 1:
        return [(x,) for x in range(low, top + 1)]
    return [
        (x, *tail) for x in range(low, top + 1) for tail in _splits(k - x, fit[1:], caps, least)
    ]


class _Sampler:
    """Uniform assignments of card classes to bins with exact capacities: a
    class is a set of interchangeable cards (the same allowed bins); the number
    of completions of each partial assignment is counted exactly (memoized),
    so each assignment is drawn with probability 1 / (their number).

    The bins every class may go to (the *open* bins: the cards not dealt, a
    seat that showed no void) are not counted one by one: each class's
    cards go to its other bins (the *narrow* ones) in counted numbers, and
    the rest of every class to the open bins, shared among them by one
    shuffle; as every way of sharing those among the open bins is equally
    likely whatever the numbers (their count is one constant), the draw
    stays uniform. The counting then runs over the narrow bins only (few:
    the seats that showed a void)."""

    __slots__ = (
        *("caps", "cards", "fits", "last_fit", "memo", "narrow", "ok", "open", "splits"),
        *("placed_masks", "supply"),
    )

    def __init__(
        self, classes: list[tuple[frozenset[int], list[int]]], caps: tuple[int, ...]
    ) -> None:
        self.caps = caps
        #: The cards placed before the draw, a mask per bin (filled by the caller).
        self.placed_masks = [0] * len(caps)
        bins = [b for b in range(len(caps)) if caps[b]]
        self.open = [b for b in bins if all(b in a for a, _ in classes)]
        self.narrow = [b for b in bins if b not in self.open]
        pos = {b: i for i, b in enumerate(self.narrow)}
        fits = [(tuple(sorted(pos[b] for b in a if b in pos)), cards) for a, cards in classes]
        # The class with the most narrow bins last: its count is closed-form.
        fits.sort(key=lambda f: (len(f[0]), len(f[1])))
        self.fits = [f for f, _ in fits]
        self.cards = [c for _, c in fits]
        self.ok = sum(len(c) for c in self.cards) == sum(caps)
        # The narrow bins the last class may not fill.
        self.last_fit = (
            tuple(b for b in range(len(self.narrow)) if b not in self.fits[-1]) if fits else ()
        )
        # supply[i][b]: the cards classes i on may put in narrow bin b.
        supply = [[0] * len(self.narrow) for _ in range(len(fits) + 1)]
        for i in range(len(fits) - 1, -1, -1):
            supply[i] = supply[i + 1][:]
            for b in self.fits[i]:
                supply[i][b] += len(self.cards[i])
        self.supply = [tuple(x) for x in supply]
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.splits: dict[tuple[int, tuple[int, ...]], list[tuple[int, tuple[int, ...]]]] = {}

    def count(self, i: int, caps: tuple[int, ...]) -> int:
        """The number of ways (up to a constant factor) to put classes ``i``
        on into the narrow bins' capacities ``caps`` exactly (the rest of the
        cards to the open bins)."""
        key = (i, caps)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        fit = self.fits[i]
        k = len(self.cards[i])
        f = _FACT
        total = 0
        if i == len(self.fits) - 1:
            # The last class fills what is left of the narrow bins.
            if not any(caps[b] for b in self.last_fit):
                left = k
                den = 1
                for b in fit:
                    left -= caps[b]
                    den *= f[caps[b]]
                if left >= 0:
                    total = f[k] // (den * f[left])
            self.memo[key] = total
            return total
        if i == len(self.fits) - 2:
            return self._count_pair(i, caps)
        table: list[tuple[int, tuple[int, ...]]] = []
        fk = f[k]
        memo = self.memo
        nxt = i + 1
        # What the later classes cannot fill, this one must.
        later = self.supply[nxt]
        least = tuple(c - x for c, x in zip(caps, later, strict=True))
        for xs in _splits(k, fit, caps, least):
            rest = list(caps)
            den = f[k - sum(xs)]
            for b, x in zip(fit, xs, strict=True):
                rest[b] -= x
                den *= f[x]
            key2 = (nxt, tuple(rest))
            w = memo.get(key2)
            if w is None:
                w = self.count(nxt, key2[1])
            if w:
                total += fk // den * w
                table.append((total, xs))
        memo[key] = total
        self.splits[key] = table
        return total

    def _count_pair(self, i: int, caps: tuple[int, ...]) -> int:
        """:meth:`count` of the last two classes, A (``i``) and the last, L,
        in one sum over ``t``, the cards A puts in the narrow bins both may
        go to (the *shared* bins): A fills the bins only it may go to, L
        those only it may go to, and the numbers of ways to split ``t``
        cards among the shared bins, weighted by both classes' multinomials,
        sum to a binomial (Vandermonde's identity): the split is drawn
        afterwards, ``t`` of the shared places at random. ``splits`` keeps
        ``(running total, (t,))``."""
        key = (i, caps)
        f = _FACT
        fit_a, fit_l = self.fits[i], self.fits[i + 1]
        k, kl = len(self.cards[i]), len(self.cards[i + 1])
        only_a = sum(caps[b] for b in fit_a if b not in fit_l)
        shared = sum(caps[b] for b in fit_a if b in fit_l)
        in_l = sum(caps[b] for b in fit_l)
        den = 1
        for b in range(len(caps)):
            if b in fit_a or b in fit_l:
                den *= f[caps[b]]
            elif caps[b]:
                den = 0  # a narrow bin neither may fill
        total = 0
        table: list[tuple[int, tuple[int, ...]]] = []
        if den:
            num = f[k] * f[kl]
            for t in range(max(0, in_l - kl), min(shared, k - only_a) + 1):
                term = num * comb(shared, t) // (den * f[k - only_a - t] * f[kl - in_l + t])
                if term:
                    total += term
                    table.append((total, (t,)))
        self.memo[key] = total
        self.splits[key] = table
        return total

    def _pair_split(
        self, i: int, cur: tuple[int, ...], t: int, rng: random.Random
    ) -> tuple[int, ...]:
        """The numbers class ``i`` (the last but one) puts in its narrow bins,
        given ``t`` in the bins shared with the last class: all of the bins
        only it may go to, and ``t`` places drawn among the shared ones."""
        fit_l = self.fits[i + 1]
        fit = self.fits[i]
        slots = [b for b in fit if b in fit_l for _ in range(cur[b])]
        got = dict.fromkeys(fit, 0)
        for b in fit:
            if b not in fit_l:
                got[b] = cur[b]
        for j in rng.sample(range(len(slots)), t):
            got[slots[j]] += 1
        return tuple(got[b] for b in fit)

    def sample(self, rng: random.Random) -> list[int] | None:
        """A uniform assignment: the bin of each card (a list indexed by card,
        -1 for cards in no class), or None if there is none."""
        where = [-1] * 64
        if not self.cards:
            return where if self.ok else None
        start = tuple(self.caps[b] for b in self.narrow)
        if not self.ok or not self.count(0, start):
            return None
        cur = start
        last = len(self.cards) - 1
        narrow = self.narrow
        pool: list[int] = []
        for i, cards in enumerate(self.cards):
            fit = self.fits[i]
            if i == last:
                xs = tuple(cur[b] for b in fit)
            else:
                table = self.splits[(i, cur)]
                pick = rng.randrange(table[-1][0])
                lo, hi = 0, len(table) - 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if table[mid][0] > pick:
                        hi = mid
                    else:
                        lo = mid + 1
                xs = table[lo][1]
                if i == last - 1:
                    xs = self._pair_split(i, cur, xs[0], rng)
            taken = sum(xs)
            if not taken:
                pool.extend(cards)
                continue
            # The cards for the narrow bins, drawn in a random order.
            order = rng.sample(cards, taken)
            at = 0
            rest = list(cur)
            for b, x in zip(fit, xs, strict=True):
                nb = narrow[b]
                for c in order[at : at + x]:
                    where[c] = nb
                at += x
                rest[b] -= x
            if taken < len(cards):
                chosen = set(order)
                pool.extend(c for c in cards if c not in chosen)
            cur = tuple(rest)
        # The open bins share the pool: all but the largest drawn from it.
        opens = self.open
        if len(opens) > 1:
            big = max(opens, key=lambda b: self.caps[b])
            small = [b for b in opens if b != big]
            order = rng.sample(pool, sum(self.caps[b] for b in small))
            at = 0
            for b in small:
                for c in order[at : at + self.caps[b]]:
                    where[c] = b
                at += self.caps[b]
            chosen = set(order)
            pool = [c for c in pool if c not in chosen]
            opens = [big]
        if opens:
            (b,) = opens
            for c in pool:
                where[c] = b
        return where


def _sampler_of(p: _Plan) -> tuple[_Sampler, tuple[int, ...], list[int]] | None:
    """The sampler of a plan, the capacities left for it and the bins of the
    cards already placed (-1: not placed); None if the plan is impossible."""
    caps = list(p.caps)
    where = [-1] * 64
    groups: dict[frozenset[int], list[int]] = {}
    for c, bins in p.fixed.items():
        if not bins:
            continue  # public, in no bin (a turned-up card)
        if len(bins) == 1:
            (b,) = bins
            where[c] = b
            caps[b] -= 1
            if caps[b] < 0:
                return None
        else:
            groups.setdefault(bins, []).append(c)
    for bins, mask in p.unknown_allowed.items():
        if not bins:
            return None
        groups.setdefault(bins, []).extend(_bits(mask))
    # A bin already full takes no more: classes allowed the same open bins
    # are one (fewer, narrower classes: a smaller count).
    merged: dict[frozenset[int], list[int]] = {}
    for bins, cards in groups.items():
        open_ = frozenset(b for b in bins if caps[b] > 0)
        if not open_:
            return None
        merged.setdefault(open_, []).extend(cards)
    classes = [(bins, sorted(cards)) for bins, cards in merged.items()]
    s = _Sampler(classes, tuple(caps))
    for c, b in enumerate(where):
        if b >= 0:
            s.placed_masks[b] |= _BITS[c]
    return s, tuple(caps), where


# --------------------------------------------------------------------------- building the world


class _HandCache:
    """What is learned about one hand of a seat's stream, kept between calls
    while the stream's records of the hand are the same objects (a stream only
    grows, so a hand's constraints stay true as it goes on): the forbidden
    mask of each play by another seat (by its index in the hand), and the
    sampler of the hand's problem for the number of its records."""

    __slots__ = ("deal", "forbid", "plan")

    def __init__(self, deal: DealEvent) -> None:
        self.deal = deal
        self.forbid: dict[int, int] = {}
        self.plan: tuple[int, int, _Plan, tuple[_Sampler, tuple[int, ...], list[int]] | None] | None
        self.plan = None


_CACHE: dict[tuple[int, int], _HandCache] = {}
#: The most hands whose constraints are kept (the cache is emptied beyond).
_MAX_CACHED_HANDS: Final = 4096


def _hand_cache(hand: _Hand, seat: int) -> _HandCache:
    key = (id(hand.deal), seat)
    hit = _CACHE.get(key)
    if hit is not None and hit.deal is hand.deal:
        return hit
    if len(_CACHE) >= _MAX_CACHED_HANDS:
        _CACHE.clear()
    hit = _CACHE[key] = _HandCache(hand.deal)
    return hit


def _world_seed(g: Game, given: int | None, first_dealer: int, rng: random.Random) -> int:
    """A fresh seed from ``rng`` that picks the seen first dealer (when the
    rules pick it at random; ``given``: the first dealer the game was given)."""
    rule = g._variant.dealer
    jokers = len(g._rules.pack) > 52
    seed = rng.getrandbits(64)
    if given is not None or rule.first is not FirstDealer.RANDOM:
        return seed
    for _ in range(_MAX_SEED_TRIES):
        if _random_words(seed, 0, jokers)[51] % g._players == first_dealer:
            return seed
        seed = rng.getrandbits(64)
    raise _no_world("no seed picks the first dealer")  # pragma: no cover - p < 1e-600


def _no_world(why: str) -> IllegalAction:
    return IllegalAction(
        f"no world consistent with the seat's information was found: {why}",
        code="no_world",
        data={"reason": why},
    )


def _forbidden(w: Game, s: int, c: int) -> int:
    """The cards whose presence in seat ``s``'s hand would make card ``c``
    illegal for it now (the play rules asked with each two-card hand)."""
    saved = w._hands[s]
    forbid = 0
    try:
        for x in _bits(w._rules.pack_mask & ~_BITS[c]):
            w._hands[s] = _BITS[c] | _BITS[x]
            if not _legal_plays(w, s)[0] >> c & 1:
                forbid |= _BITS[x]
    finally:
        w._hands[s] = saved
        forget_legal(w)
    return forbid


def _forbidden_peeled(w: Game, s: int, c: int) -> int:
    """:func:`_forbidden` in a few calls of the play rules rather than one a
    card: seat ``s`` is given every card; the cards the rules then let it play,
    when ``c`` is not among them, each forbid ``c`` (the rules choose the first
    set of a list that holds a card, so each such card is in a set before
    ``c``'s), and are set aside; until ``c`` may be played (the cards playable
    at any time are asked one by one). The result is
    :func:`_forbidden`'s (a test checks it over every built-in)."""
    saved = w._hands[s]
    forbid = 0
    # The cards playable at any time are always let through: each is asked
    # alone, as :func:`_forbidden` does.
    special = w._rules.any_time_mask & ~_BITS[c]
    rest = w._rules.pack_mask & ~_BITS[c] & ~special
    try:
        for x in _bits(special):
            w._hands[s] = _BITS[c] | _BITS[x]
            if not _legal_plays(w, s)[0] >> c & 1:
                forbid |= _BITS[x]
        for _ in range(64):
            w._hands[s] = _BITS[c] | rest
            legal = _legal_plays(w, s)[0]
            if legal >> c & 1 or not legal & rest:
                break
            forbid |= legal & rest
            rest &= ~legal
    finally:
        w._hands[s] = saved
        forget_legal(w)
    return forbid


def _deal_of(
    p: _Plan, where: list[int], seat: int, n: int, rng: random.Random
) -> tuple[list[int], dict[int, list[int]], list[int]]:
    """The deal (a mask per seat), the hidden passes (seat -> cards, in order)
    and the hidden discards (in the order made) of a drawn assignment."""
    hold = [0] * n
    discards: list[int] = []
    for c, b in enumerate(where):
        if b < 0:
            continue
        if b < n:
            hold[b] |= _BITS[c]
        elif b == n + 1:
            discards.append(c)
    discard = discards[0] if discards else -1
    passes: dict[int, list[int]] = {}
    ex = p.exchange
    if ex is not None:
        seen = [cs is not None for cs in ex.cards]
        deal, passes = _draw_passes(hold, ex.targets, seen, p.received, p.k_pass, seat, rng)
    else:
        deal = hold
    if p.ordered:
        d = p.dealer
        deal[d] = (deal[d] | (_BITS[discard] if discard >= 0 else 0)) & ~_BITS[p.turned]
    if p.kitty_maker >= 0:
        _undo_kitty(p, deal, discards, seat, rng)
    return deal, passes, discards


def _draw_passes(
    hold: list[int],
    targets: Sequence[int],
    seen: Sequence[bool],
    received: Sequence[int],
    k_pass: int,
    seat: int,
    rng: random.Random,
) -> tuple[list[int], dict[int, list[int]]]:
    """The deal before a pass of cards, from each seat's holding after it
    (``hold``): the cards each seat received are the seen ones
    (``received[t]``, where ``seen[s]``: the seat passed them or received
    them), else ``k_pass`` drawn among the receiver's holding; and the order
    in which each other seat chose the cards it passed (seat -> cards)."""
    n = len(hold)
    src = {t: s for s, t in enumerate(targets) if t != s}
    got = [0] * n
    for t in range(n):
        s = src.get(t)
        if s is None:
            continue
        if seen[s]:
            got[t] = received[t]
        else:
            m = 0
            for c in rng.sample(_bits(hold[t]), k_pass):
                m |= _BITS[c]
            got[t] = m
    deal = [0] * n
    passes: dict[int, list[int]] = {}
    for s in range(n):
        t = targets[s]
        gave = got[t] if t != s else 0
        deal[s] = (hold[s] & ~got[s]) | gave
        if s != seat and t != s:
            order = _bits(gave)
            rng.shuffle(order)
            passes[s] = order
    return deal, passes


def _undo_kitty(
    p: _Plan, deal: list[int], discards: list[int], seat: int, rng: random.Random
) -> None:
    """The declarer's dealt hand before it took the kitty: its holding and its
    discards, less the kitty's cards (the ones it got, for the declarer itself;
    else as many drawn among them). The discards are shuffled into an order."""
    m = p.kitty_maker
    pool = deal[m]
    for c in discards:
        pool |= _BITS[c]
    if m == seat and p.seat_dealt >= 0:
        deal[m] = p.seat_dealt
        return
    kitty = rng.sample(_bits(pool), pool.bit_count() - p.caps_dealt)
    for c in kitty:
        pool &= ~_BITS[c]
    deal[m] = pool
    rng.shuffle(discards)


def sample_world(g: Game, seat: int, rng: random.Random) -> Game:
    """:meth:`Game.sample_world` (the world is built with ``type(g)``: this
    module does not import the game's): drawn from the present
    (:func:`_present_world`) where the game allows it, else by replay
    (:func:`sample_world_replay`)."""
    _check_sample_arguments(g, seat, rng)
    w = _present_world(g, seat, rng)
    return w if w is not None else _sample_world_replay(g, seat, rng)


def sample_world_replay(g: Game, seat: int, rng: random.Random) -> Game:
    """The reference sampler: every hand of the seat's stream dealt again and
    replayed (slow; kept to check :func:`sample_world` against)."""
    _check_sample_arguments(g, seat, rng)
    return _sample_world_replay(g, seat, rng)


def _sample_world_replay(g: Game, seat: int, rng: random.Random) -> Game:
    if g._rules.copies:
        return _sample_world_copies(g, seat, rng)
    # The stream of the game as it stands (as if nothing had been taken back:
    # the world is made by the actions of the log alone).
    stream = g._stream_of(seat, line=True)
    start, cuts, hands = _split(stream)
    draws = tuple(int(ev.card) for ev in stream if isinstance(ev, DrawEvent))
    world_seed = _world_seed(g, start.first_dealer, hands[0].deal.dealer, rng)
    view = _seen_view(g, seat)
    # The seat to lead now, if the play of the current hand has not begun.
    leader_now = view.to_act if view.phase == "play" and view.to_act is not None else -1
    hand_now = -1 if view.hand is None else sum(_BITS[int(c)] for c in view.hand)
    b = _Builder(g, seat, start, cuts, draws, world_seed)
    out: set[int] = set()
    for k, hand in enumerate(hands):
        last_hand = k == len(hands) - 1
        hc = _hand_cache(hand, seat)
        now = (leader_now, hand_now) if last_hand else (-1, -1)
        _learn_hand(b, k, hand, hc, out, now, last_hand)
        # Then the world itself, from ``rng``.
        res: Any = None
        for _attempt in range(MAX_ATTEMPTS):
            res = b.attempt(k, hand, hc, out, now, last_hand, rng, False)
            if res is None:
                continue  # refused: draw again
            if last_hand and (res[0].events_for(seat) != stream or res[0].view(seat) != view):
                res = None
                continue
            break
        if res is None:
            raise _no_world(f"hand {k + 1}: {MAX_ATTEMPTS} candidate deals were refused")
        w2, pre, last_action = res
        if last_hand:
            b.base = w2
        else:
            b.base, b.pending = pre, last_action
        for ev in hand.events:
            if isinstance(ev, KnockedOutEvent):
                out.add(ev.seat)
    assert b.base is not None
    # A pending take-back request is public (its seats and count of actions).
    b.base._request = g._request
    b.base._retracted = g._retracted[:]
    return b.base


# --------------------------------------------------------------------------- several packs


def _voids_now(g: Game) -> list[int]:
    """Each seat's suits (a 4-bit set) it showed void in this hand: a card off
    the suit led, under a rule that makes a player follow suit."""
    voids = [0] * g._players
    if g._rules.follow is None:
        return voids
    suit_of = g._ranks.suit_of
    for ev in reversed(g._events):
        if ev[0] == "deal":
            break
        if ev[0] in ("trick", "dead", "pickup"):
            led = suit_of[ev[3][0]]
            for s, c in zip(ev[2], ev[3], strict=True):
                if suit_of[c] != led and led < 4:
                    voids[s] |= 1 << led
    for s, c in zip(g._trick_seats, g._trick, strict=True):
        led = suit_of[g._trick[0]]
        if suit_of[c] != led and led < 4:
            voids[s] |= 1 << led
    return voids


def _redeal_hidden(
    sizes: list[int], pool: list[int], voids: list[int], suit_of: Sequence[int], rng: random.Random
) -> list[int] | None:
    """The pool's cards shared at random among the seats, ``sizes[s]`` each, no
    seat given a card of a suit it showed void in (a mask per seat; None when
    the random fill meets a dead end)."""
    order = pool[:]
    rng.shuffle(order)
    # The cards with the fewest seats that may hold them go first.
    allowed = {
        c: [s for s, n in enumerate(sizes) if n and not voids[s] >> suit_of[c] & 1] for c in order
    }
    order.sort(key=lambda c: len(allowed[c]))
    room = sizes[:]
    hands = [0] * len(sizes)
    for c in order:
        seats = [s for s in allowed[c] if room[s]]
        if not seats:
            return None
        s = rng.choices(seats, weights=[room[x] for x in seats])[0]
        room[s] -= 1
        hands[s] |= _BITS[c]
    return hands


def _sample_world_copies(g: Game, seat: int, rng: random.Random) -> Game:
    """:func:`sample_world` for a game of several packs: the cards of the current
    hand that ``seat`` has not seen (every other seat's hand, less the cards
    all have seen it take, and the cards not dealt) are shared again at
    random among their holders and the undealt rest, each keeping its number
    of them and no seat given a suit it showed void
    in; the hand is then replayed from its deal with the log's actions (a
    card's Play plays the copy held, so the replay does not depend on which
    copy is where), and the world kept only if ``seat`` sees it as this game.
    Later hands are dealt from a fresh seed. The random fill is not the exact
    uniform draw of one pack's sampler; the deals of finished hands are kept."""
    from cardrules.engine.state.undo import _action_of

    n = g._players
    hidden = [0 if s == seat else g._hands[s] & ~g._known[s] for s in range(n)]
    # The cards not dealt (unseen) are shared with the hands too: one more bin.
    hidden.append(g._undealt)
    # In an order that does not depend on where the hidden cards are (the
    # seats' order would tell the rng's shuffle who holds what): by card, a
    # copy by its number (the deal numbers copies by where they are, and
    # numbers them again when dealt).
    pool = sorted((c for h in hidden for c in _bits(h)), key=lambda c: (c & 63, c))
    sizes = [h.bit_count() for h in hidden]
    voids = [*_voids_now(g), 0]
    deals: list[tuple[list[int], int]] = []
    actions: list[tuple[int, Action]] = []
    for ev in g._events:
        if ev[0] == "deal":
            deals.append((list(ev[4]), -1))
        elif ev[0] == "trump" and deals:
            deals[-1] = (deals[-1][0], -1 if ev[3] is None else int(ev[3]))
        elif ev[0] in ACTION_KINDS:
            actions.append(_action_of(ev))
    start = g._events[0]
    first_dealer = _first_dealer_of(g)
    stream = g.events_for(seat)
    view = g.view(seat)
    for _attempt in range(MAX_ATTEMPTS):
        drawn = _redeal_hidden(sizes, pool, voids, g._ranks.suit_of, rng)
        if drawn is None:
            continue
        last = [(h & ~hidden[s]) | drawn[s] for s, h in enumerate(deals[-1][0])]
        hands = [*deals[:-1], (last, deals[-1][1])]
        try:
            w = game_from_deals(
                type(g),
                g._variant,
                n,
                [
                    (tuple(CardSet(h) for h in d), None if t < 0 else CARD_BY_ID[t])
                    for d, t in hands
                ],
                actions,
                seed=_world_seed(g, start[3], first_dealer, rng),
                first_dealer=start[3],
                max_tricks=start[4],
            )
        except CardrulesError:
            continue
        if w.events_for(seat) == stream and w.view(seat) == view:
            w._request = g._request
            w._retracted = g._retracted[:]
            return w
    raise _no_world(f"{MAX_ATTEMPTS} redeals of the unseen cards were refused")


def _first_dealer_of(g: Game) -> int:
    """The dealer of the game's first hand (from its log)."""
    return next(int(ev[2]) for ev in g._events if ev[0] == "deal")


def _check_sample_arguments(g: Game, seat: object, rng: object) -> None:
    """Refuse a seat that is not one of the game's or an ``rng`` that is not
    a :class:`random.Random`."""
    if type(seat) is not int or not 0 <= seat < g._players:
        raise g._bad_seat(seat)
    if not isinstance(rng, random.Random):
        raise InvalidAction(
            f"rng must be a random.Random, got {type(rng).__name__}",
            code="bad_argument",
            data={"value": type(rng).__name__},
        )


def _seen_view(g: Game, seat: int) -> View:
    """The seat's view a world must show: the game's, without its take-back
    request (the world gets the game's at the end) and, in a game with
    take-backs, with the version of the log's actions."""
    view = attrs.evolve(g.view(seat), take_back_request=None)
    if g._history is not None:
        # ...and its version, the number of the log's actions.
        view = attrs.evolve(view, version=sum(1 for e in g._events if e[0] in ACTION_KINDS))
    return view


def _learn_hand(
    b: _Builder,
    k: int,
    hand: _Hand,
    hc: _HandCache,
    out: set[int],
    now: tuple[int, int],
    last_hand: bool,
) -> None:
    """Learn the constraints of the plays of hand ``k`` by other seats into
    ``hc.forbid``: each found by asking the rules at the play, in candidate
    worlds drawn from a private generator, so that what the world's ``rng``
    gives does not depend on what was learned before."""
    seat = b.seat
    plays = [ev for ev in hand.events if isinstance(ev, PlayEvent)]
    others = [i for i, ev in enumerate(plays) if ev.seat != seat]
    private = random.Random(k)
    tries = 0
    while tries < _LEARN_ATTEMPTS and any(i not in hc.forbid for i in others):
        tries += 1
        b.attempt(k, hand, hc, out, now, last_hand, private, True)


class _Builder:
    """A world being built hand by hand: the settings it is made with, and the
    world before the last action of the hand before (which deals the next)."""

    __slots__ = ("base", "cuts", "draws", "g", "pending", "seat", "seed", "start")

    def __init__(
        self,
        g: Game,
        seat: int,
        start: StartEvent,
        cuts: tuple[CutEvent, ...],
        draws: tuple[int, ...],
        seed: int,
    ) -> None:
        self.g = g
        self.seat = seat
        self.start = start
        self.cuts = tuple(ev.cuts for ev in cuts)
        self.draws = draws
        self.seed = seed
        self.base: Game | None = None
        self.pending: tuple[Action, int] = (Look(), -1)

    def start_hand(
        self,
        deal: list[int],
        turned: int,
        thrown: list[tuple[tuple[int, ...], int]],
        calls: tuple[tuple[int, Action], ...] = (),
    ) -> Game:
        """A world whose next hand is dealt ``deal`` (and turns up ``turned``),
        after the deals ``thrown`` in before it (and the seats' ``calls`` that
        kept or showed them)."""
        w = self._start_hand(deal, turned, thrown)
        for seat, action in calls:
            w.apply(action, seat)
        return w

    def _start_hand(
        self, deal: list[int], turned: int, thrown: list[tuple[tuple[int, ...], int]]
    ) -> Game:
        g = self.g
        if self.base is None:
            return type(g)(
                g._variant,
                g._players,
                self.seed,
                first_dealer=self.start.first_dealer,
                max_tricks=self.start.max_tricks,
                take_backs=g._take_backs,
                _forced=[*thrown, (tuple(deal), turned)],
                _draws=self.draws,
                _cuts=self.cuts,
            )
        w = self.base.clone()
        w._forced.extend([*thrown, (tuple(deal), turned)])
        w.apply(self.pending[0], self.pending[1])
        return w

    def attempt(
        self,
        k: int,
        hand: _Hand,
        hc: _HandCache,
        out: set[int],
        now: tuple[int, int],
        last_hand: bool,
        r: random.Random,
        probe: bool,
    ) -> Any:
        """Draw hand ``k`` from ``r`` and replay it (see :func:`_replay_hand`)."""
        seat = self.seat
        key = (len(hand.events), len(hc.forbid))
        if hc.plan is None or hc.plan[:2] != key:
            p = _plan(self.g, seat, hand, out, hc.forbid, *now)
            hc.plan = (*key, p, _sampler_of(p))
        p, smp = hc.plan[2], hc.plan[3]
        if smp is None:
            raise _no_world(f"hand {k + 1}: the seen cards cannot be placed")
        sampler, _caps, placed = smp
        where = sampler.sample(r)
        if where is None:
            raise _no_world(f"hand {k + 1}: no assignment respects the constraints")
        for c, b in enumerate(placed):
            if b >= 0:
                where[c] = b
        deal, passes, discards = _deal_of(p, where, seat, self.g._players, r)
        thrown = [_thrown_deal(self.g, self.seat, t, r) for t in hand.thrown]
        if None in thrown:
            return None
        calls = tuple(c for t in hand.thrown for c in t[3])
        try:
            w = self.start_hand(deal, p.turned, [t for t in thrown if t is not None], calls)
        except CardrulesError:
            return None
        forbid = hc.forbid if probe else None
        return _replay_hand(w, seat, hand, passes, discards, r, last_hand, forbid)


def _thrown_deal(
    g: Game,
    seat: int,
    thrown: _Thrown,
    r: random.Random,
) -> tuple[tuple[int, ...], int] | None:
    """A deal thrown in (``redeal:``) as the seat saw it, its hidden hands
    drawn from ``r``: the seat's own cards and the hand shown are known; the
    other hands take the rest of the pack, so that no seat before the one who
    showed (in the order of the deal) meets the condition. None: no draw did."""
    deal, trump, shown, _calls = thrown
    rule = g._rules.redeal
    turned = -1 if trump is None or trump.turned is None else int(trump.turned)
    suit = -1 if trump is None or trump.suit is None else int(trump.suit)
    n = len(deal.hands)
    known = [0] * n
    known[shown.seat] = shown.cards.mask
    own = deal.hands[seat]
    if own is not None:
        known[seat] = own.mask
    used = turned_bit = _BITS[turned] if turned >= 0 else 0
    for m in known:
        used |= m
    rest = _bits(g._rules.pack_mask & ~used)
    order = g._order[deal.dealer]
    # ``must be shown``: the first hand to meet the condition was shown, so no
    # seat before it met it; ``may be shown``: those before it chose to keep.
    must = rule is not None and not rule.may
    masks = rule.masks(g._rules.pack_mask, suit) if must and rule is not None else ()
    for _attempt in range(MAX_ATTEMPTS):
        r.shuffle(rest)
        hands = known[:]
        at = 0
        for s in range(n):
            if (s == seat and own is not None) or s == shown.seat:
                continue
            m = 0
            for c in rest[at : at + deal.size]:
                m |= _BITS[c]
            at += deal.size
            hands[s] = m
        before = order[: order.index(shown.seat)] if shown.seat in order else ()
        if not any(not hands[s] & m for s in before for m in masks):
            return tuple(hands), turned if turned_bit else -1
    return None


def _replay_hand(
    w: Game,
    seat: int,
    hand: _Hand,
    passes: dict[int, list[int]],
    discards: list[int],
    rng: random.Random,
    last_hand: bool,
    probe: dict[int, int] | None,
) -> Any:
    """Replay one hand's actions on ``w``. Returns ``(world, world before the
    last action, (last action, seat))``, or None if an action is refused.
    With ``probe``, each play by another seat not yet in it is first asked
    which cards would have made it illegal (:func:`_forbidden`)."""
    actions = _hand_actions(hand, passes, discards)
    if actions is None:
        return None
    pre: Game | None = None
    last: tuple[Action, int] | None = None
    for i, (a0, s, pi) in enumerate(actions):
        a = a0
        if a is None:
            a = _hidden_action(w, s, pi, rng)
            if a is None:
                return None
        if probe is not None and pi >= 0 and s != seat and pi not in probe and type(a) is Play:
            probe[pi] = _forbidden(w, s, int(a.card))
        if i == len(actions) - 1 and not last_hand:
            pre = w.clone()
            last = (a, s)
        try:
            w.apply(a, s)
        except CardrulesError:
            return None
    if not last_hand and pre is None:
        return None  # a hand with no action cannot be followed by another
    return (w, pre, last)


def _hand_actions(
    hand: _Hand, passes: dict[int, list[int]], discards: list[int]
) -> list[tuple[Action | None, int, int]] | None:
    """The actions of one hand to replay, as ``(action or None when hidden,
    seat, code)``: code >= 0 a play's index in the hand, -1 a seen action,
    ``_BLIND`` / ``_OPEN`` a hidden bid, ``_PASS`` a hidden pass. None if a
    hidden discard has no drawn card."""
    bids: tuple[int | None, ...] | None = None
    for ev in hand.events:
        if isinstance(ev, BidsEvent):
            bids = ev.bids
    actions: list[tuple[Action | None, int, int]] = []
    pass_pos: dict[int, int] = {}
    play_idx = 0
    hidden = iter(discards)
    for ev in hand.events:
        if isinstance(ev, PlayEvent):
            actions.append((_PLAYS[int(ev.card)], ev.seat, play_idx))
            play_idx += 1
        elif isinstance(ev, BidEvent):
            s = ev.seat
            b = ev.bid if ev.bid is not None else (None if bids is None else bids[s])
            if b is not None:
                actions.append((Bid(b, blind=ev.blind), s, -1))
            else:
                actions.append((None, s, _BLIND if ev.blind else _OPEN))
        elif isinstance(ev, LookEvent):
            actions.append((Look(), ev.seat, -1))
        elif isinstance(ev, AmendEvent):
            actions.append((Amend(ev.bid), ev.seat, -1))
        elif isinstance(ev, PassEvent):
            s = ev.seat
            if ev.card is not None:
                actions.append((Pass(ev.card), s, -1))
            else:
                j = pass_pos.get(s, 0)
                pass_pos[s] = j + 1
                if s in passes:
                    actions.append((Pass(passes[s][j]), s, -1))
                else:
                    actions.append((None, s, _PASS))
        elif isinstance(ev, CallEvent):
            if ev.action is not None:
                actions.append((ev.action, ev.seat, -1))
                continue
            card = next(hidden, -1)
            if card < 0:
                return None
            actions.append((Discard(card), ev.seat, -1))
        elif isinstance(ev, TakeEvent):
            actions.append((Take(), ev.seat, -1))
    return actions


def _hidden_action(w: Game, s: int, code: int, rng: random.Random) -> Action | None:
    """A hidden pass or bid of seat ``s`` (``code``: ``_PASS``, ``_BLIND`` or
    ``_OPEN``), drawn among its legal ones; None if it has none."""
    opts: list[Action]
    if code == _PASS:
        opts = [x for x in w.legal_actions(s) if type(x) is Pass]
    else:
        blind = code == _BLIND
        opts = [x for x in w.legal_actions(s) if type(x) is Bid and x.blind == blind]
    if not opts:
        return None
    return rng.choice(opts)


#: Codes of hidden actions in a hand's replay (see :func:`_replay_hand`).
_BLIND: Final = -2
_OPEN: Final = -3
_PASS: Final = -4


# --------------------------------------------------------------------------- games from deals

#: One hand's deal: each seat's cards as dealt, and the card turned up (or None).
Deal = tuple[tuple[CardSet, ...], Card | None]


def deals_of(g: Game) -> tuple[Deal, ...]:
    """:meth:`Game.deals`: every hand's deal so far, from the game's log."""
    out: list[Deal] = []
    hands: tuple[CardSet, ...] | None = None
    for ev in g._events:
        if ev[0] == "deal":
            hands = tuple(CardSet(h) for h in ev[4])
        elif ev[0] == "trump" and hands is not None:
            out.append((hands, ev[3]))
            hands = None
    return tuple(out)


def game_from_deals(
    game: type[Game],
    variant: Variant,
    players: int,
    deals: Sequence[Deal],
    actions: Iterable[tuple[int, Action]] = (),
    *,
    seed: int | None = None,
    first_dealer: int | None = None,
    max_tricks: int | None = None,
) -> Game:
    """A game of ``variant`` whose first hands are dealt exactly ``deals`` (the
    later ones from ``seed``), with ``actions`` (``(seat, action)`` pairs)
    applied in order: a game built from a given state.

    Raises:
        SaveError: if a deal is not one the rules can deal (a hand too many or
            too few cards, a card twice, a turned-up card where none is turned...),
            or more deals are given than the game can deal.
        IllegalAction: if an action is refused (the game so far is lost).
    """
    r = _compile(variant)
    if len(deals) > MAX_SCHEDULE_HANDS + r.max_extra:
        raise SaveError(f"{len(deals):,} deals are more than a game can deal")
    forced: list[tuple[tuple[int, ...], int]] = []
    for k, deal in enumerate(deals):
        if not isinstance(deal, tuple | list) or len(deal) != 2:
            raise SaveError(f"deal {k + 1} must be (hands, turned-up card or None)")
        hands, turned = deal
        if not isinstance(hands, tuple | list) or len(hands) != players:
            raise SaveError(f"deal {k + 1} must give the cards of each of the {players} seats")
        if not all(isinstance(h, CardSet) for h in hands):
            raise SaveError(f"deal {k + 1}: each seat's cards must be a CardSet")
        if turned is not None and type(turned) is not Card:
            raise SaveError(f"deal {k + 1}: the turned-up card must be a Card or None")
        forced.append((tuple(h.mask for h in hands), -1 if turned is None else int(turned)))
    g = game(
        variant, players, seed, first_dealer=first_dealer, max_tricks=max_tricks, _forced=forced
    )
    for seat, action in actions:
        g.apply(action, seat)
    return g


# --------------------------------------------------------------------------- from the present

#: The log's kinds of record a world drawn from the present allows: a game
#: with any other record (a pick-up or take, a deal thrown in, a draw...) is
#: sampled by replay (:func:`sample_world_replay`).
_PRESENT_KINDS: Final = frozenset(
    {"start", "cut", "deal", "trump", "bid", "bids", "play", "trick", "score", "counters"}
    | {"look", "made", "over", "call", "pass", "exchange", "kitty", "pickup", "dead", "out"}
)
#: The most hands whose plays' constraints are kept by :func:`_present_forbid`.
_MAX_FORBID_HANDS: Final = 256


class _ForbidEntry:
    """The constraints of the plays of one hand, as far as they are known: the
    variant (kept so that its ``id`` is not reused), the hand's plays (``(seat,
    card)``, in order) and the forbidden mask of each play by index."""

    __slots__ = ("forbid", "plays", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.plays: tuple[tuple[int, int], ...] = ()
        self.forbid: dict[int, int] = {}


_FORBID: dict[tuple[Any, ...], _ForbidEntry] = {}


#: The play records of a hand as :func:`_present_hand` reads them, by (seat,
#: card): the same immutable records serve every hand.
_PLAY_EVENTS: dict[tuple[int, int], PlayEvent] = {}


def _present_hand(g: Game, seat: int, at: int, end: int) -> _Hand | None:
    """The hand whose deal is the log's record ``at`` (its records up to
    ``end``) as ``seat`` saw it (its records built from the log: the seat's
    own dealt cards, the turned card, the public calls, the pass of cards and
    the kitty's discards as the seat saw them, the plays); None if the hand
    has a record :func:`_present_world` does not draw."""
    log = g._events
    d = log[at]
    shown = tuple(CardSet(h) if s == seat else None for s, h in enumerate(d[4]))
    hand = _Hand(DealEvent(0, d[1], d[2], d[3], shown))
    hand.kitty_seat = -1
    bid = shown_bids = False
    for e in log[at + 1 : end]:
        kind = e[0]
        if kind == "play":
            ev = _PLAY_EVENTS.get((e[1], e[2]))
            if ev is None:
                ev = _PLAY_EVENTS[(e[1], e[2])] = PlayEvent(0, e[1], CARDS[e[2]])
            hand.events.append(ev)
        elif kind == "trump" and hand.trump is None:
            hand.trump = TrumpEvent(0, e[1], e[2], e[3])
        elif kind == "call":
            if type(e[2]) is Discard and hand.kitty_seat == e[1]:
                # The declarer's discard after taking the kitty: face down.
                hand.events.append(CallEvent(0, e[1], e[2] if e[1] == seat else None))
                continue
            if type(e[2]) in _HIDDEN_CALLS:
                return None
            hand.events.append(CallEvent(0, e[1], e[2]))
        elif kind == "kitty":
            hand.kitty_seat = e[1]
        elif kind == "pickup":
            # Shedding: the seat picks the cards of the trick up, in every seat's sight.
            hand.events.append(PickupEvent(0, e[1], tuple(e[2]), tuple(CARDS[c] for c in e[3])))
        elif kind == "exchange":
            hand.events.append(_exchange_seen(e, seat))
        elif kind not in _PRESENT_KINDS:
            return None
        bid = bid or kind == "bid"
        shown_bids = shown_bids or kind == "bids"
    if g._rules.bid_style == 2 and bid and not shown_bids:
        return None  # other seats' bids, made at the same time, not yet shown
    return hand


def _exchange_seen(e: tuple[Any, ...], seat: int) -> ExchangeEvent:
    """The log's record of a pass of cards as ``seat`` saw it: the cards it
    passed and those it received (the others' are None)."""
    targets = tuple(e[2])
    cards = tuple(
        CardSet(m) if s == seat or t == seat else None
        for s, (t, m) in enumerate(zip(targets, e[3], strict=True))
    )
    return ExchangeEvent(0, e[1], targets, cards)


#: Calls that hide a card (a face-down discard; an order-up, whose dealer discards).
_HIDDEN_CALLS: Final = (Discard, OrderUp)


class _PastHand:
    """A hand before the current one, as far as a world needs it: its deal
    record's index in the log and the index after its last record; whether
    something was hidden in it (a pass of cards, a kitty: its holdings, the
    cards each seat played, are public, but not how they were dealt); and,
    for such a hand, its problem and sampler for each seat, once built."""

    __slots__ = ("any_hidden", "at", "end", "forced", "hidden", "plans", "turned")

    def __init__(self, at: int) -> None:
        self.at = at
        self.end = at
        self.hidden = False
        self.any_hidden = False  # (the last hand before the current one) some hand is hidden
        self.turned = -1  # the turned card (-1: none)
        #: The deal as recorded (the world's, if nothing is hidden).
        self.forced: tuple[tuple[int, ...], int] = ((), -1)
        self.plans: dict[int, tuple[_Plan, tuple[_Sampler, tuple[int, ...], list[int]]]] = {}


_PAST: dict[int, tuple[Any, list[_PastHand] | None]] = {}


def _past_hands_public(g: Game, at: int) -> list[_PastHand] | None:
    """The hands before the current one (whose deal is the log's record
    ``at``), if each one's holdings are public: each seat played every card
    it held once the cards were passed or the kitty taken, and nothing else
    hidden was done, so each holding is the cards each seat played (only the
    numbers of cards are read to tell). None if some hand is not public.
    Kept by the current deal's record (the copies of a game share it), so a
    game is read once a hand."""
    d = g._events[at]
    hit = _PAST.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    if len(_PAST) >= _MAX_FORBID_HANDS:
        _PAST.clear()
    got = _read_past(g, at)
    _PAST[id(d)] = (d, got)
    return got


def _read_past(g: Game, at: int) -> list[_PastHand] | None:
    """:func:`_past_hands_public`, read mostly by C loops over the records'
    kinds (the cost of a world grows little with the hands played): every
    seat played every card it held in each hand when the plays are as many
    as the cards dealt (no seat plays more than it holds in these games),
    and no record is one a world does not draw."""
    log = g._events
    kinds = list(map(itemgetter(0), log[:at]))
    seen = set(kinds)
    if not seen <= _PRESENT_KINDS or "pickup" in seen:
        return None  # (a hand with cards picked up: some seat may have kept cards)
    kitty = g._rules.kitty
    if "call" in seen:
        for e in log[:at]:
            if (
                e[0] == "call"
                and type(e[2]) in _HIDDEN_CALLS
                and not (type(e[2]) is Discard and kitty)
            ):
                return None
    out: list[_PastHand] = []
    dealt = 0
    i = kinds.index("deal") if "deal" in seen else at
    while i < at:
        d = log[i]
        dealt += sum(map(int.bit_count, d[4]))
        h = _PastHand(i)
        try:
            nxt = kinds.index("deal", i + 1)
        except ValueError:
            nxt = at
        h.end = nxt
        try:
            t = kinds.index("trump", i + 1, nxt)
            h.turned = -1 if log[t][3] is None else int(log[t][3])
        except ValueError:
            h.turned = -1
        h.forced = (tuple(d[4]), h.turned)
        out.append(h)
        i = nxt
    if kinds.count("play") != dealt:
        return None
    for kind in ("exchange", "kitty"):
        if kind in seen:
            for h in out:
                if kind in kinds[h.at : h.end]:
                    h.hidden = out[-1].any_hidden = True
    return out


def _draw_past(
    g: Game, past: list[_PastHand], seat: int, rng: random.Random
) -> tuple[list[tuple[tuple[int, ...], int]], list[tuple[int, tuple[Any, ...]]]] | None:
    """The deals of the hands before the current one for a world (recorded,
    for its replay), and the log's records to rewrite: a hand with nothing
    hidden keeps its records; in a hand with a pass of cards or a kitty, what
    the seat did not see (the passes between other seats, the kitty and the
    declarer's discards) is drawn by the hand's problem (:func:`_plan`: the
    holdings are the cards played), as the reference does, and the hand's
    records rewritten to it. None if a hand cannot be drawn."""
    log = g._events
    rewrites: list[tuple[int, tuple[Any, ...]]] = []
    if not past or not past[-1].any_hidden:
        return [h.forced for h in past], rewrites
    forced: list[tuple[tuple[int, ...], int]] = []
    for h in past:
        if not h.hidden:
            forced.append(h.forced)
            continue
        got = h.plans.get(seat)
        if got is None:
            hand = _present_hand(g, seat, h.at, h.end)
            if hand is None:
                return None
            p = _plan(g, seat, hand, set(), {}, -1, -1)
            smp = _sampler_of(p)
            if smp is None:
                return None
            got = h.plans[seat] = (p, smp)
        p, smp = got
        drawn = _draw_hand(g, seat, p, smp, rng)
        if drawn is None:
            return None
        deal, hold, passes, discards = drawn
        forced.append((tuple(deal), p.turned))
        _rewrite_hand(log, h.at, h.end, seat, p, (deal, hold, passes, discards), rewrites)
    return forced, rewrites


#: A hand drawn: its deal, each seat's holding (once the cards were passed
#: and the kitty taken), the passes of other seats and the discards.
_Drawn = tuple[list[int], list[int], dict[int, list[int]], list[int]]


def _draw_hand(
    g: Game,
    seat: int,
    p: _Plan,
    smp: tuple[_Sampler, tuple[int, ...], list[int]],
    rng: random.Random,
) -> _Drawn | None:
    """A hand's hidden cards drawn from ``rng`` (None: no assignment)."""
    sampler, _caps, placed = smp
    where = sampler.sample(rng)
    if where is None:
        return None
    n = g._players
    hold = sampler.placed_masks[:n]
    for cards in sampler.cards:
        for c in cards:
            b = where[c]
            if b < n:
                hold[b] |= _BITS[c]
    if p.exchange is None and p.kitty_maker < 0 and not p.ordered and p.discarder < 0:
        return hold[:], hold, {}, []  # nothing hidden before the play: dealt as held
    for c, b in enumerate(placed):
        if b >= 0:
            where[c] = b
    deal, passes, discards = _deal_of(p, where, seat, n, rng)
    return deal, hold, passes, discards


def _rewrite_hand(
    log: list[tuple[Any, ...]],
    at: int,
    end: int,
    seat: int,
    p: _Plan,
    drawn: _Drawn,
    out: list[tuple[int, tuple[Any, ...]]],
) -> None:
    """The log's records of one hand (from its deal record ``at`` up to
    ``end``) rewritten to a drawn hand, appended to ``out`` as ``(index,
    record)``: the deal; the cards other seats passed and the pass's record;
    the kitty and the declarer's discards, when another seat took it."""
    deal, hold, passes, discards = drawn
    d = log[at]
    out.append((at, (d[0], d[1], d[2], d[3], tuple(deal))))
    order = {s: iter(cards) for s, cards in passes.items()}
    maker = p.kitty_maker if p.kitty_maker != seat else -1
    gone = iter(discards)
    kitty = 0
    if maker >= 0:
        kitty = (hold[maker] | sum(_BITS[c] for c in discards)) & ~deal[maker]
    masks: list[int] = [0] * len(deal)
    for i in range(at + 1, end):
        e = log[i]
        kind = e[0]
        if kind == "pass" and e[1] in order:
            c = next(order[e[1]])
            masks[e[1]] |= _BITS[c]
            out.append((i, ("pass", e[1], c)))
        elif kind == "exchange":
            chosen = tuple(masks[s] if s in order else m for s, m in enumerate(e[3]))
            out.append((i, (e[0], e[1], e[2], chosen)))
        elif kind == "kitty" and maker >= 0:
            out.append((i, (e[0], e[1], kitty)))
        elif kind == "call" and e[1] == maker and type(e[2]) is Discard:
            out.append((i, ("call", e[1], Discard(next(gone)))))


def _present_forbid(g: Game, seat: int, hand: _Hand) -> dict[int, int]:
    """The legality constraints of the current hand's plays by other seats
    (play index -> the cards whose presence would have made the card played
    illegal), each found by asking the play rules in the state before the
    play. Those rules read only the public state of the trick and the
    playing seat's hand (which :func:`_forbidden` replaces by each two-card
    hand), so the state before each play is the real game's, taken back
    (:meth:`Game.undo`); what is learned is kept for the hand's next plays."""
    plays = tuple((ev.seat, int(ev.card)) for ev in hand.events if isinstance(ev, PlayEvent))
    trump = hand.trump
    key = (
        id(g._variant),
        g._players,
        hand.deal.hand_number,
        hand.deal.dealer,
        hand.deal.size,
        None if trump is None else (trump.suit, trump.turned),
        g._trump,
        g._downtown,
        g._misere,
    )
    entry = _FORBID.get(key)
    if entry is None or entry.variant is not g._variant:
        if len(_FORBID) >= _MAX_FORBID_HANDS:
            _FORBID.clear()
        entry = _FORBID[key] = _ForbidEntry(g._variant)
    same = 0
    for a, b in zip(entry.plays, plays, strict=False):
        if a != b:
            break
        same += 1
    forbid = {i: m for i, m in entry.forbid.items() if i < same}
    # Every seat's plays (the entry serves every seat's worlds).
    todo = list(range(same, len(plays)))
    if todo:
        w = g.clone()
        count = len(plays)
        for i in reversed(todo):
            while count > i:
                if type(w.undo()) is Play:
                    count -= 1
            s, c = plays[i]
            forbid[i] = _forbidden_peeled(w, s, c)
    entry.plays, entry.forbid = plays, forbid
    return {i: m for i, m in forbid.items() if plays[i][0] != seat}


def _present_world(g: Game, seat: int, rng: random.Random) -> Game | None:
    """:func:`sample_world` from the present: a clone of the game whose cards
    hidden from ``seat`` in the current hand are drawn again (:func:`_plan`,
    :class:`_Sampler`: uniformly over the holdings consistent with what the
    seat saw), the log's deal of the hand rewritten to the drawn one, and
    later hands dealt from a fresh seed. None where the game has something
    this does not draw (see :data:`_PRESENT_KINDS`): the caller replays."""
    r = g._rules
    if r.copies or g._history is not None:
        return None
    if not g._sees_own(seat) or g._forehead or g._phase == _PASS_PHASE:
        return None
    got = _present_plan(g, seat)
    if got is None:
        return None
    at, past, p, smp = got
    drawn = _draw_hand(g, seat, p, smp, rng)
    if drawn is None:
        return None
    got_past = _draw_past(g, past, seat, rng)
    if got_past is None:
        return None
    forced, rewrites = got_past
    log = g._events
    if p.exchange is not None or p.kitty_maker not in (-1, seat):
        _rewrite_hand(log, at, len(log), seat, p, drawn, rewrites)
    deal, hold, passes, discards = drawn
    w = _world_of(g, seat, rng, at, [*forced, (tuple(deal), p.turned)], hold)
    for i, e in rewrites:
        w._events[i] = e
    if passes:
        # The cards each other seat chose to pass, as the rewritten record says.
        # (an index loop: mypyc cannot compile reversed() over this list)
        exchange: tuple[Any, ...] = ()
        for k in range(len(rewrites) - 1, -1, -1):
            record = rewrites[k][1]
            if record[0] == "exchange":
                exchange = record
                break
        w._chosen = list(exchange[3])
    maker = p.kitty_maker
    if maker >= 0:
        # The kitty taken: the declarer's discards, and the kitty out of the stock.
        gone = sum(_BITS[c] for c in discards)
        w._discarded = gone
        w._undealt &= ~((hold[maker] | gone) & ~deal[maker])
    elif g._rules.kitty:
        w._kitty = w._undealt  # the kitty not taken yet: the cards not dealt
    return w


_PLANS: dict[tuple[int, int, int, int, int], tuple[Any, ...]] = {}
#: What :func:`_present_plan` gives: the index of the current deal in the log,
#: the hands before it (public but for their passes of cards), the hand's
#: problem and its sampler.
_Present = tuple[int, list[_PastHand], _Plan, tuple[_Sampler, tuple[int, ...], list[int]]]


def _present_plan(g: Game, seat: int) -> _Present | None:
    """The current hand's problem and its sampler (None: the game is not
    drawn from the present, or the problem is impossible), kept by the hand's
    deal record and the log's last record (the copies of a position share
    them), so that later worlds of a position only draw."""
    log = g._events
    at = len(log) - 1
    while at >= 0 and log[at][0] != "deal":
        at -= 1
    if at < 0:
        return None
    last = log[-1]
    key = (id(log[at]), id(last), len(log) - at, seat, g._hands[seat])
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is log[at] and hit[1] is last:
        found: _Present | None = hit[2]
        return found
    got = _new_plan(g, seat, at)
    if len(_PLANS) >= _MAX_FORBID_HANDS:
        _PLANS.clear()
    _PLANS[key] = (log[at], last, got)
    return got


def _new_plan(g: Game, seat: int, at: int) -> _Present | None:
    found = _present_hand(g, seat, at, len(g._events))
    if found is None:
        return None
    forced = _past_hands_public(g, at)
    if forced is None:
        return None
    leader_now = g._to_act if g._phase == _PLAY and not g._trick else -1
    forbid = _present_forbid(g, seat, found)
    p = _plan(g, seat, found, set(), forbid, leader_now, g._hands[seat])
    smp = _sampler_of(p)
    return None if smp is None else (at, forced, p, smp)


_OPENING: dict[int, tuple[Any, int, tuple[tuple[tuple[int, Card], ...], ...]]] = {}


def _opening(g: Game) -> tuple[int, tuple[tuple[tuple[int, Card], ...], ...]]:
    """The first dealer and the cuts for the first deal (public), kept by
    the log's first record (the copies of a game share it)."""
    s0 = g._events[0]
    hit = _OPENING.get(id(s0))
    if hit is not None and hit[0] is s0:
        return hit[1], hit[2]
    if len(_OPENING) >= _MAX_FORBID_HANDS:
        _OPENING.clear()
    got = (_first_dealer_of(g), _cuts_of(g))
    _OPENING[id(s0)] = (s0, *got)
    return got


def _cuts_of(g: Game) -> tuple[tuple[tuple[int, Card], ...], ...]:
    """The cuts for the first deal, from the log (public)."""
    cuts = []
    for e in g._events:
        if e[0] == "deal":
            break
        if e[0] == "cut":
            cuts.append(e[1])
    return tuple(cuts)


def _world_of(
    g: Game,
    seat: int,
    rng: random.Random,
    start: int,
    forced: list[tuple[tuple[int, ...], int]],
    hold: list[int],
) -> Game:
    """The clone of ``g`` whose current hand (its deal the log's record
    ``start``) was dealt ``forced[-1]``: each other seat holds its cards
    once the cards were passed (``hold``) less those it played, the stock the
    rest; the log's deal record is the drawn one, the deals so far are
    recorded (``forced``: the world saves and replays), the next ones come
    from a fresh seed."""
    n = g._players
    deal, turned = forced[-1]
    now = hold[:]
    log = g._events
    for e in log[start + 1 :]:
        if e[0] == "play":
            now[e[1]] &= ~_BITS[e[2]]
        elif e[0] == "pickup":
            # Shedding: the taker picked the trick up.
            for c in e[3]:
                now[e[1]] |= _BITS[c]
    w = g.clone()
    dealt = 0
    for s in range(n):
        dealt |= deal[s]
        if s != seat:
            w._hands[s] = now[s]
    w._undealt = g._rules.pack_mask & ~dealt & ~(_BITS[turned] if turned >= 0 else 0)
    d = log[start]
    w._events[start] = (d[0], d[1], d[2], d[3], deal)
    s0 = log[0]
    first_dealer, cuts = _opening(g)
    seed = _world_seed(g, s0[3], first_dealer, rng)
    w._events[0] = (s0[0], s0[1], seed, s0[3], s0[4])
    w._forced = forced
    w._seed = seed
    w._decks = ()
    w._decks_reuse = False
    w._cuts = cuts
    w._draws = ()
    w._undo = None
    forget_legal_cards(w)
    return w
