"""The observation vector of a seat, read from the game's state.

:func:`observation_of_state` fills the vector of
:mod:`~cardrules.engine.views.observation_vector` (its layout, :class:`_Plan`) from the
same state :meth:`Game.view <cardrules.engine.game.Game.view>` reads, with the
same rules for what the seat may see, without building the view: the masks of
cards go into the vector through tables of byte patterns. It is
``_observation_from_view(game.view(seat), plan)``, value for value, in every
variant (``tests/test_observation.py`` compares the two on random positions
of every built-in variant); the view remains the definition of what a seat may
know.

This module does not import :mod:`~cardrules.engine.game` (which imports it).
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Any, Final

from cardrules.engine.phases.knockout import _knocked_out
from cardrules.engine.phases.passing import _pass_target
from cardrules.engine.state.tables import _BID, _BITS, _PASS, _PHASE_NAMES, _PLAY

if TYPE_CHECKING:
    from cardrules.engine.game import Game

#: The slices :func:`observation_of_state` fills, in the order of :data:`_SLOTS`
#: of a plan's offsets (-1: not in the layout).
_NAMES: Final = (
    "played",
    "trick",
    "leader",
    "hand_seen",
    "bids",
    "bid_made",
    "blind",
    "tricks",
    "trump",
    "turned",
    "maker",
    "downtown",
    "alone",
    "defender_alone",
    "trumps_broken",
    "phase",
    "hand_size",
    "dealer",
    "to_act",
    "teams",
    "passed",
    "pass_to",
    "received",
    "discarded",
    "known",
    "dead",
    "dead_count",
    "out",
    "hand_counts",
    "knocked_out",
    "scores",
)

#: Per plan (by id, with the plan kept): the pack places of the cards of each
#: byte of a card mask (``places[k][b]`` are the places of the cards ``8k + i``
#: for the bits ``i`` of ``b``, in card order), the offsets of the slices
#: of :data:`_NAMES`, and the zeros after the ``hand`` and ``played`` slices
#: when the plan has the standard layout (:func:`_standard_tail`; else None).
_PLACES: Final[
    dict[
        int,
        tuple[
            Any,
            tuple[tuple[tuple[int, ...], ...], ...],
            tuple[int, ...],
            tuple[float, ...] | None,
        ],
    ]
] = {}

#: A suit's 13 bits (a card mask shifted by :data:`~cardrules.engine.state.tables._SHIFT`)
#: -> its 13 floats (1.0 for each card held), filled at the first standard plan.
_SUIT_FLOATS: Final[list[tuple[float, ...]]] = []


def _suit_floats() -> list[tuple[float, ...]]:
    if not _SUIT_FLOATS:
        # product() counts with its first place the slowest: reversed, place i
        # is bit i of the pattern.
        _SUIT_FLOATS.extend(t[::-1] for t in product((0.0, 1.0), repeat=13))
    return _SUIT_FLOATS


def _standard_tail(plan: Any, offsets: tuple[int, ...]) -> tuple[float, ...] | None:
    """The zeros after the ``hand`` and ``played`` slices of ``plan`` when it
    lays out one standard pack of 52 cards in card order, the hand at 0 and the
    played cards at 52 (:func:`observation_of_state` then writes those two
    slices from :data:`_SUIT_FLOATS`); None for any other plan."""
    index: tuple[int, ...] = plan.index
    slots: dict[str, int] = plan.slots
    if (
        plan.pack != 52
        or plan.copies != 1
        or index[:52] != tuple(range(52))
        or any(i >= 0 for i in index[52:])
        or slots.get("hand") != 0
        or offsets[0] != 52
        or plan.size < 104
    ):
        return None
    _suit_floats()
    size: int = plan.size
    return (0.0,) * (size - 104)


def _tables_of(
    plan: Any,
) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[int, ...], tuple[float, ...] | None]:
    hit = _PLACES.get(id(plan))
    if hit is not None and hit[0] is plan:
        return hit[1], hit[2], hit[3]
    index: tuple[int, ...] = plan.index
    tables = []
    for k in range(8):
        row = []
        for b in range(256):
            row.append(
                tuple(index[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < len(index))
            )
        tables.append(tuple(row))
    places = tuple(tables)
    slots: dict[str, int] = plan.slots
    offsets = tuple(slots.get(name, -1) for name in _NAMES)
    tail = _standard_tail(plan, offsets)
    if len(_PLACES) > 256:
        _PLACES.clear()
    _PLACES[id(plan)] = (plan, places, offsets, tail)
    return places, offsets, tail


def _mark(
    out: list[float], at: int, m: int, places: tuple[tuple[tuple[int, ...], ...], ...]
) -> None:
    """1.0 at ``at`` + the pack place of every card of the mask ``m``."""
    k = 0
    while m:
        b = m & 255
        if b:
            for p in places[k][b]:
                out[at + p] = 1.0
        m >>= 8
        k += 1


def _hand_and_played(
    plan: Any,
    hand: int,
    played: int,
    at_played: int,
    places: tuple[tuple[tuple[int, ...], ...], ...],
    tail: tuple[float, ...] | None,
) -> list[float]:
    """A new vector of ``plan`` with its ``hand`` (``hand``: 0 when the seat
    may not see it) and ``played`` slices marked, zeros elsewhere."""
    if tail is not None:
        # One standard pack in card order: the hand and the played cards are
        # the first 104 floats, four suits' patterns each.
        f = _SUIT_FLOATS
        return [
            *f[hand & 0x1FFF],
            *f[hand >> 13 & 0x1FFF],
            *f[hand >> 26 & 0x1FFF],
            *f[hand >> 39 & 0x1FFF],
            *f[played & 0x1FFF],
            *f[played >> 13 & 0x1FFF],
            *f[played >> 26 & 0x1FFF],
            *f[played >> 39 & 0x1FFF],
            *tail,
        ]
    out = [0.0] * plan.size
    if hand:
        _mark(out, 0, hand, places)
    _mark(out, at_played, played, places)
    return out


#: A seat's order of the seats (``Game._order[seat]``) and the number of
#: players -> each seat's place relative to it (:func:`_rel`).
_RELS: Final[dict[tuple[tuple[int, ...], int], list[int]]] = {}


def _rel(order: tuple[int, ...], n: int) -> list[int]:
    """Each seat's place relative to the seat whose order of the seats is
    ``order`` (that seat 0, the next 1...), of ``n`` seats. Kept: the list
    returned is shared, never to be changed."""
    key = (order, n)
    rel = _RELS.get(key)
    if rel is None:
        rel = [0] * n
        for k in range(len(order)):
            rel[order[k]] = (k + 1) % n
        if len(_RELS) > 4096:
            _RELS.clear()
        _RELS[key] = rel
    return rel


def observation_of_state(g: Game, seat: int, plan: Any) -> list[float]:
    """The observation vector of ``seat`` (a seat number) under ``plan``."""
    n = g._players
    pack: int = plan.pack
    (
        places,
        (
            at_played,
            at_trick,
            at_leader,
            at_hand_seen,
            at_bids,
            at_bid_made,
            at_blind,
            at_tricks,
            at_trump,
            at_turned,
            at_maker,
            at_downtown,
            at_alone,
            at_defender,
            at_broken,
            at_phase,
            at_hand_size,
            at_dealer,
            at_to_act,
            at_teams,
            at_passed,
            at_pass_to,
            at_received,
            at_discarded,
            at_known,
            at_dead,
            at_dead_count,
            at_out,
            at_hand_counts,
            at_knocked_out,
            at_scores,
        ),
        tail,
    ) = _tables_of(plan)
    index: tuple[int, ...] = plan.index
    r = g._rules
    phase = g._phase
    rel = _rel(g._order[seat], n)
    bidding = phase == _BID
    hands = g._hands
    own = not (bidding and (g._forehead or not g._looked[seat]))
    # Played cards this seat may see: won, dead (face up, or its own), the trick.
    played = 0
    for w in g._won:
        played |= w
    dead = g._dead if r.dead_face_up else g._dead_by[seat]
    played |= dead
    trick = g._trick
    trick_seats = g._trick_seats
    for c in trick:
        played |= _BITS[c]
    out = _hand_and_played(plan, hands[seat] if own else 0, played, at_played, places, tail)
    at = at_trick
    for i in range(len(trick)):
        out[at + rel[trick_seats[i]] * pack + index[trick[i]]] = 1.0
    if phase == _PLAY:
        out[at_leader + rel[g._leader]] = 1.0
    big: int = plan.max_hand
    if at_bids >= 0:  # (a layout with ``hand_seen`` has bids)
        _mark_bids(out, g, seat, rel, at_bids, at_bid_made, at_blind, at_hand_seen, own, big)
    at = at_tricks
    if at >= 0:
        tricks = g._tricks
        if any(tricks):
            for s in range(n):
                out[at + rel[s]] = tricks[s] / big
    if at_trump >= 0 or at_turned >= 0 or at_broken >= 0:
        _mark_trumps(out, g, (at_trump, at_turned, at_broken, at_downtown), index)
    if at_maker >= 0 or at_alone >= 0 or at_defender >= 0:
        _mark_trump_making(out, g, seat, rel, at_maker, at_alone, at_defender, at_discarded, places)
    phases: tuple[str, ...] = plan.phases
    out[at_phase + phases.index(_PHASE_NAMES[phase])] = 1.0
    out[at_hand_size] = g._size / big
    out[at_dealer + rel[g._dealer]] = 1.0
    if g._to_act >= 0:
        out[at_to_act + rel[g._to_act]] = 1.0
    if at_teams >= 0:
        _mark_partners(out, r.teams, seat, rel, at_teams)
    known_masks = g._known
    if at_passed >= 0 and g._pass_distance:
        known_masks = _mark_pass(out, g, seat, rel, at_passed, at_pass_to, at_received, places)
    if at_known >= 0:
        _mark_known(out, g, seat, rel, at_known, known_masks, pack, places)
    if at_dead >= 0:
        _mark_dead(out, g, rel, at_dead, at_dead_count, at_out, dead, pack, places)
    if at_hand_counts >= 0 or at_knocked_out >= 0:
        _mark_counts(out, g, rel, at_hand_counts, at_knocked_out, pack)
    at = at_scores
    scale: int = plan.target or 100
    scores = g._scores
    if any(scores):  # (all zero: the slice is already zeros)
        for s in range(n):
            out[at + rel[s]] = float(scores[s]) / scale
    return out


def _mark_bids(
    out: list[float],
    g: Game,
    seat: int,
    rel: list[int],
    at_bids: int,
    at_bid_made: int,
    at_blind: int,
    at_hand_seen: int,
    own: bool,
    big: int,
) -> None:
    """The ``hand_seen``, ``bid_made``, ``bids`` and ``blind`` slices (bids
    made at the same time are hidden from other seats until shown; ``own``:
    the seat may see its hand)."""
    if at_hand_seen >= 0 and own:
        out[at_hand_seen] = 1.0
    hidden = g._phase == _BID and g._waiting is not None
    bids = g._bids
    for s in range(g._players):
        b = bids[s]
        if b >= 0:
            out[at_bid_made + rel[s]] = 1.0
            if not hidden or s == seat:
                out[at_bids + rel[s]] = b / big
    if at_blind >= 0:
        blind = g._blind
        for s in range(g._players):
            if blind[s]:
                out[at_blind + rel[s]] = 1.0


def _mark_trumps(
    out: list[float], g: Game, at: tuple[int, int, int, int], index: tuple[int, ...]
) -> None:
    """The ``trump``, ``turned``, ``trumps_broken`` and ``downtown`` slices
    (``at``: their offsets, in that order; -1: not in the layout)."""
    at_trump, at_turned, at_broken, at_downtown = at
    if at_downtown >= 0 and g._downtown:
        out[at_downtown] = 1.0
    if at_trump >= 0:
        trump = g._trump
        out[at_trump + (4 if trump < 0 else trump)] = 1.0
    if at_turned >= 0 and g._turned >= 0:
        out[at_turned + index[g._turned]] = 1.0
    if at_broken >= 0 and g._trumps_broken():
        out[at_broken] = 1.0


def _mark_trump_making(
    out: list[float],
    g: Game,
    seat: int,
    rel: list[int],
    at_maker: int,
    at_alone: int,
    at_defender: int,
    at_discarded: int,
    places: tuple[tuple[tuple[int, ...], ...], ...],
) -> None:
    """The ``maker``, ``alone``, ``defender_alone`` and ``discarded`` slices."""
    if at_maker >= 0 and g._maker >= 0:
        out[at_maker + rel[g._maker]] = 1.0
    if at_alone >= 0 and g._alone >= 0:
        out[at_alone + rel[g._alone]] = 1.0
    if at_defender >= 0 and g._defender >= 0:
        out[at_defender + rel[g._defender]] = 1.0
    if at_discarded >= 0 and seat == (g._maker if g._rules.kitty else g._dealer):
        _mark(out, at_discarded, g._discarded, places)


def _mark_partners(
    out: list[float], teams: tuple[tuple[int, ...], ...], seat: int, rel: list[int], at: int
) -> None:
    """The ``teams`` slice: 1 for each partner of ``seat``."""
    for team in teams:
        if seat in team:
            for s in team:
                if s != seat:
                    out[at + rel[s]] = 1.0


def _mark_pass(
    out: list[float],
    g: Game,
    seat: int,
    rel: list[int],
    at_passed: int,
    at_pass_to: int,
    at_received: int,
    places: tuple[tuple[tuple[int, ...], ...], ...],
) -> list[int]:
    """The ``pass_to``, ``passed`` and ``received`` slices; the masks of the
    cards the seat knows in each other hand (with those it passed, once the
    pass is made)."""
    n = g._players
    known_masks = g._known
    target = _pass_target(g, seat)
    out[at_pass_to + rel[target]] = 1.0
    chosen = g._chosen
    _mark(out, at_passed, chosen[seat], places)
    if g._phase != _PASS:
        source = g._order[seat][n - 1 - g._pass_distance]
        _mark(out, at_received, chosen[source], places)
        known_masks = known_masks[:]
        known_masks[target] |= chosen[seat]
    return known_masks


def _mark_known(
    out: list[float],
    g: Game,
    seat: int,
    rel: list[int],
    at: int,
    known_masks: list[int],
    pack: int,
    places: tuple[tuple[tuple[int, ...], ...], ...],
) -> None:
    """The ``known`` slice: the cards of each other hand the seat sees (on
    foreheads) or knows of."""
    hands = g._hands
    forehead = g._phase == _BID and g._forehead
    for s in range(g._players):
        if s == seat:
            continue
        base = at + (rel[s] - 1) * pack
        if forehead:
            _mark(out, base, hands[s], places)
        _mark(out, base, known_masks[s] & hands[s], places)


def _mark_dead(
    out: list[float],
    g: Game,
    rel: list[int],
    at_dead: int,
    at_dead_count: int,
    at_out: int,
    dead: int,
    pack: int,
    places: tuple[tuple[tuple[int, ...], ...], ...],
) -> None:
    """The ``dead``, ``dead_count`` and ``out`` slices."""
    _mark(out, at_dead, dead, places)
    out[at_dead_count] = g._dead.bit_count() / pack
    gone = g._out
    for s in range(g._players):
        if gone[s]:
            out[at_out + rel[s]] = 1.0


def _mark_counts(
    out: list[float], g: Game, rel: list[int], at_hand_counts: int, at_knocked_out: int, pack: int
) -> None:
    """The ``hand_counts`` and ``knocked_out`` slices."""
    if at_hand_counts >= 0:
        hands = g._hands
        for s in range(g._players):
            out[at_hand_counts + rel[s]] = hands[s].bit_count() / pack
    if at_knocked_out >= 0:
        for s, _ in _knocked_out(g._events):
            out[at_knocked_out + rel[s]] = 1.0
