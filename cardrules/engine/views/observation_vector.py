"""Observation vectors and action masks for learning code.

:func:`observation_layout` names the slices of the flat vector that
:meth:`Game.observation <cardrules.engine.game.Game.observation>` returns for a
seat; the layout is derived from the variant and the number of players, and
holds only what the variant has (no bid slices in a game without bidding, no
dead cards outside shedding games, ...). The observation is a function of
:meth:`Game.view <cardrules.engine.game.Game.view>` alone (the view is the
secrecy boundary: :func:`_observation_from_view`), so it holds everything the
seat may know and nothing else; a seat's vector is read from the game's state
directly (:mod:`~cardrules.engine.views.observation_from_state`, several times faster),
value for value the vector of its view.

Seats are relative: position 0 is the observing seat, position 1 the seat that
plays after it, and so on in the order of play. Cards are indexed by their
place in the pack (the pack's cards in card order, jokers last), so a 52-card
pack gives 52 places per card slice and a pack with two jokers 54.

Example:
    >>> import cardrules
    >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
    >>> v = cardrules.load_text(rules)
    >>> names = [s.name for s in cardrules.observation_layout(v, 4)]
    >>> names.index("hand"), "bids" in names, "dead" in names
    (0, True, False)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from cardrules.cards import CARDS, ID_LIMIT, Card
from cardrules.counted import count_range
from cardrules.engine.state.compiled_rules import _compile, _Rules
from cardrules.engine.views.observation_from_state import observation_of_state
from cardrules.errors import VariantError
from cardrules.rules import TrumpKind, Variant

if TYPE_CHECKING:
    from cardrules.engine.game import Game
    from cardrules.engine.views.view import View

__all__ = ["ObservationSlice", "observation_layout"]


class ObservationSlice(NamedTuple):
    """One named part of an observation vector: ``vector[start:stop]``.

    Attributes:
        name: the slice's name (``"hand"``, ``"trump"``, ...).
        start: its first index.
        stop: one past its last index.
        meaning: what its values say, in words.
    """

    name: str
    start: int
    stop: int
    meaning: str


#: The phases in the order of the ``phase`` one-hot (those the variant has).
_PHASE_ORDER = ("pass", "trumps", "bid", "play", "over")


class _Plan:
    """The layout of one variant and number of players, with what
    :func:`_observation_from_view` needs to fill it."""

    __slots__ = (
        "copies",
        "index",
        "layout",
        "max_hand",
        "n",
        "pack",
        "phases",
        "size",
        "slots",
        "target",
    )

    def __init__(self, r: _Rules, players: int) -> None:
        v = r.variant
        n = players
        self.n = n
        pack = len(r.pack)
        #: card number -> its place in the pack (-1: not in this pack)
        index = [-1] * len(CARDS)
        for i, c in enumerate(r.pack):
            if c < len(CARDS):
                index[c] = i
        #: several packs: each copy has its place, filled in card order (the
        #: second A♠ held fills the place of A♠'s second copy: a count, never
        #: which copy a seat holds; see :func:`_places`)
        self.copies = r.packs if r.copies else 1
        if r.copies:
            index = [-1] * ID_LIMIT
            for i, c in enumerate(r.pack):
                index[c] = i
        self.pack = pack
        self.index: tuple[int, ...] = tuple(index)
        self.max_hand = max(1, *v.hand_sizes(players))
        self.target = abs(r.target) if r.target else 0
        tricks = r.tricks_mode
        bidding = r.bid_style != 0
        trumps = tricks and (v.trumps.kind is not TrumpKind.NONE or r.trump_namer != 0)
        turned = tricks and (r.turn_up_any or r.dealers_card)
        namer = tricks and (r.trump_namer != 0 or r.turned_names != 0)
        phases = ["play", "over"]
        if r.passing:
            phases.insert(0, "pass")
        if bidding:
            phases.insert(0, "bid")
        if namer or r.redeal_may:  # keeping or showing a hand is a stage of "trumps"
            phases.insert(0, "trumps")
        self.phases = tuple(p for p in _PHASE_ORDER if p in phases)
        entries: list[tuple[str, int, str]] = [
            ("hand", pack, "1 for each card of the pack in this seat's hand"),
            ("played", pack, "1 for each card played this hand that the seat may see"),
            ("trick", n * pack, "the current trick: per relative seat, a one-hot of its card"),
            ("leader", n, "one-hot of the relative seat that led this trick"),
        ]
        entries += _bidding_entries(r, n, bidding)
        entries += _trump_entries(r, n, pack, tricks, trumps, turned, namer)
        entries.append(
            ("phase", len(self.phases), "one-hot of the phase: " + ", ".join(self.phases))
        )
        entries.append(("hand_size", 1, "cards dealt to each seat this hand / the largest hand"))
        entries.append(("dealer", n, "one-hot of the relative seat that dealt"))
        entries.append(("to_act", n, "one-hot of the relative seat to act (none: game over)"))
        if v.teams:
            entries.append(("teams", n, "per relative seat, 1 when it is this seat's partner"))
        entries += _card_entries(r, n, pack, tricks, namer)
        entries.append(
            (
                "scores",
                n,
                "per relative seat, its running total / the target score"
                if self.target
                else "per relative seat, its running total / 100",
            )
        )
        layout: list[ObservationSlice] = []
        slots: dict[str, int] = {}
        at = 0
        for name, width, meaning in entries:
            layout.append(ObservationSlice(name, at, at + width, meaning))
            slots[name] = at
            at += width
        self.layout = tuple(layout)
        self.slots = slots
        self.size = at


def _bidding_entries(r: _Rules, n: int, bidding: bool) -> list[tuple[str, int, str]]:
    """The slices of the bidding: ``hand_seen``, ``bid_made``, ``bids``, ``blind``."""
    entries: list[tuple[str, int, str]] = []
    hidden_hand = bidding and (r.blind or bool(r.forehead))
    if hidden_hand:
        entries.append(("hand_seen", 1, "1 when the seat may see its own hand"))
    if bidding:
        entries.append(("bid_made", n, "per relative seat, 1 when it has bid"))
        entries.append(
            ("bids", n, "per relative seat, its bid / the largest hand (0: none or hidden)")
        )
        if r.blind:
            entries.append(("blind", n, "per relative seat, 1 when its bid was blind"))
    return entries


def _trump_entries(
    r: _Rules, n: int, pack: int, tricks: bool, trumps: bool, turned: bool, namer: bool
) -> list[tuple[str, int, str]]:
    """The slices of tricks and trumps: ``tricks``, ``trump``, ``turned``,
    ``maker``, ``alone``, ``defender_alone``, ``trumps_broken``."""
    entries: list[tuple[str, int, str]] = []
    if tricks:
        entries.append(("tricks", n, "per relative seat, tricks won / the largest hand"))
    if trumps:
        entries.append(("trump", 5, "one-hot of the trump suit (♣ ♦ ♥ ♠), then none"))
    if turned:
        entries.append(("turned", pack, "one-hot of the card turned up for trumps"))
    if namer:
        entries.append(("maker", n, "one-hot of the relative seat that made trumps"))
    if r.downtown:
        entries.append(("downtown", 1, "1 when the hand is played downtown (ranks reversed)"))
    # A misère declarer plays alone too (its partners, if any, sit out).
    if r.going_alone or r.misere or any(c.misere for c in r.contracts):
        entries.append(("alone", n, "one-hot of the relative seat playing alone"))
    if r.defend_alone:
        entries.append(("defender_alone", n, "one-hot of the relative seat defending alone"))
    if r.track_breaks:
        entries.append(("trumps_broken", 1, "1 when trumps are broken"))
    return entries


def _card_entries(
    r: _Rules, n: int, pack: int, tricks: bool, namer: bool
) -> list[tuple[str, int, str]]:
    """The slices of cards passed, discarded, known, dead and held: ``pass_to``,
    ``passed``, ``received``, ``discarded``, ``known``, ``dead``,
    ``dead_count``, ``out``, ``hand_counts``, ``knocked_out``."""
    entries: list[tuple[str, int, str]] = []
    if r.passing:
        entries.append(("pass_to", n, "one-hot of the relative seat this seat passes to"))
        entries.append(("passed", pack, "1 for each card this seat chose to pass"))
        entries.append(("received", pack, "1 for each card this seat received in the pass"))
    if namer and (r.trump_namer == 3 or r.kitty):  # ordering up or a kitty: a discard
        entries.append(("discarded", pack, "1 for each card this seat discarded face down"))
    # others' cards this seat may know: picked up (shedding), passed, seen
    # on foreheads, the turned card a dealer holds, or a hand laid face up
    # (open misère)
    known = (
        (not tricks)
        or r.passing
        or bool(r.forehead)
        or (tricks and (r.dealers_card or r.trump_namer == 3))
        or r.open_misere
    )
    if known:
        entries.append(
            (
                "known",
                (n - 1) * pack,
                "per other relative seat (1 to n - 1), its cards this seat can see or knows of",
            )
        )
    if not tricks:
        entries.append(("dead", pack, "1 for each dead card this seat may see"))
        entries.append(("dead_count", 1, "cards out of the game / the pack size"))
        entries.append(("out", n, "per relative seat, 1 when it has no cards left"))
    if not tricks or r.knockout:
        entries.append(("hand_counts", n, "per relative seat, cards held / the pack size"))
    if r.knockout:
        entries.append(("knocked_out", n, "per relative seat, 1 when knocked out"))
    return entries


@lru_cache(maxsize=256)
def _plan(r: _Rules, players: int) -> _Plan:
    return _Plan(r, players)


def _plan_of_variant(variant: Variant, players: int) -> _Plan:
    if not isinstance(variant, Variant):
        raise TypeError(
            f"observation_layout needs a cardrules Variant, got {type(variant).__name__}"
        )
    if type(players) is not int or players not in variant.players:
        raise VariantError(
            f"{variant.name} is for "
            f"{count_range(variant.players.min, variant.players.max, 'player')}, "
            f"got {players!r}"
        )
    r = _compile(variant)
    if r.pack_by_players:
        r = r.for_players(players)
    return _plan(r, players)


def observation_layout(variant: Variant, players: int) -> tuple[ObservationSlice, ...]:
    """The named slices of the observation vector of ``variant`` with ``players``
    players, in order; the last slice's ``stop`` is the vector's length.

    Args:
        variant: the variant.
        players: the number of players.

    Returns:
        A tuple of :class:`ObservationSlice` ``(name, start, stop, meaning)``.

    Raises:
        VariantError: if the variant is not for ``players`` players.

    Example:
        >>> import cardrules
        >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
        >>> layout = cardrules.observation_layout(cardrules.load_text(rules), 4)
        >>> first = layout[0]
        >>> first.name, first.start, first.stop, layout[-1].stop
        ('hand', 0, 52, 401)
        >>> names = {s.name for s in layout}
        >>> "trump" in names and "bids" in names and "dead" not in names
        True
    """
    return _plan_of_variant(variant, players).layout


def _observation_from_view(view: View, plan: _Plan) -> list[float]:
    """The observation vector of ``view`` (a seat's view) under ``plan``: a
    function of the view alone."""
    n = plan.n
    pack = plan.pack
    index = plan.index
    slots = plan.slots
    out = [0.0] * plan.size
    me = view.seat
    order = view.seat_order
    # relative position of each seat: 0 for this seat, k for order[k - 1]
    rel = [0] * n
    for k, s in enumerate(order):
        rel[s] = (k + 1) % n
    if view.hand is not None:
        for p in _places(view.hand, index):
            out[p] = 1.0
    at = slots["played"]
    for p in _places(view.played, index):
        out[at + p] = 1.0
    at = slots["trick"]
    for s, c in view.trick:
        out[at + rel[s] * pack + index[c]] = 1.0
    if view.leader is not None:
        out[slots["leader"] + rel[view.leader]] = 1.0
    big = plan.max_hand
    _view_bids(out, view, plan, rel)
    _view_trumps(out, view, plan, rel)
    out[slots["phase"] + plan.phases.index(view.phase)] = 1.0
    out[slots["hand_size"]] = view.hand_size / big
    out[slots["dealer"] + rel[view.dealer]] = 1.0
    if view.to_act is not None:
        out[slots["to_act"] + rel[view.to_act]] = 1.0
    at = slots.get("teams", -1)
    if at >= 0:
        for team in view.teams:
            if me in team:
                for s in team:
                    if s != me:
                        out[at + rel[s]] = 1.0
    _view_passed(out, view, plan, rel)
    _view_known(out, view, plan, rel)
    _view_counts(out, view, plan, rel)
    at = slots["scores"]
    scale = plan.target or 100
    for s in range(n):
        out[at + rel[s]] = float(view.scores[s]) / scale
    return out


def _view_bids(out: list[float], view: View, plan: _Plan, rel: list[int]) -> None:
    """The ``hand_seen``, ``bid_made``, ``bids`` and ``blind`` slices of a view."""
    slots = plan.slots
    big = plan.max_hand
    at = slots.get("hand_seen", -1)
    if at >= 0 and view.hand is not None:
        out[at] = 1.0
    if "bids" in slots:
        made = slots["bid_made"]
        bids = slots["bids"]
        for s in range(plan.n):
            if view.bid_made[s]:
                out[made + rel[s]] = 1.0
            b = view.bids[s]
            if b is not None:
                out[bids + rel[s]] = b / big
        at = slots.get("blind", -1)
        if at >= 0:
            for s in range(plan.n):
                if view.blind[s]:
                    out[at + rel[s]] = 1.0


def _view_trumps(out: list[float], view: View, plan: _Plan, rel: list[int]) -> None:
    """The ``tricks``, ``trump``, ``turned``, ``maker``, ``alone``,
    ``defender_alone`` and ``trumps_broken`` slices of a view."""
    slots = plan.slots
    at = slots.get("tricks", -1)
    if at >= 0:
        for s in range(plan.n):
            out[at + rel[s]] = view.tricks_won[s] / plan.max_hand
    at = slots.get("trump", -1)
    if at >= 0:
        out[at + (4 if view.trump is None else int(view.trump))] = 1.0
    at = slots.get("turned", -1)
    if at >= 0 and view.turned_up is not None:
        out[at + plan.index[view.turned_up]] = 1.0
    for name, seat in (
        ("maker", view.trump_maker),
        ("alone", view.alone),
        ("defender_alone", view.defender_alone),
    ):
        at = slots.get(name, -1)
        if at >= 0 and seat is not None:
            out[at + rel[seat]] = 1.0
    at = slots.get("trumps_broken", -1)
    if at >= 0 and view.trumps_broken:
        out[at] = 1.0
    at = slots.get("downtown", -1)
    if at >= 0 and view.downtown:
        out[at] = 1.0


def _view_passed(out: list[float], view: View, plan: _Plan, rel: list[int]) -> None:
    """The ``pass_to``, ``passed``, ``received`` and ``discarded`` slices of a view."""
    slots = plan.slots
    index = plan.index
    if "passed" in slots:
        if view.pass_to is not None:
            out[slots["pass_to"] + rel[view.pass_to]] = 1.0
        at = slots["passed"]
        for c in view.passed:
            out[at + index[c]] = 1.0
        at = slots["received"]
        for c in view.received:
            out[at + index[c]] = 1.0
    at = slots.get("discarded", -1)
    if at >= 0:
        for c in view.discarded:
            out[at + index[c]] = 1.0


def _view_known(out: list[float], view: View, plan: _Plan, rel: list[int]) -> None:
    """The ``known``, ``dead``, ``dead_count`` and ``out`` slices of a view."""
    slots = plan.slots
    index = plan.index
    pack = plan.pack
    at = slots.get("known", -1)
    if at >= 0:
        for group in (view.visible_hands, view.known_hands):
            for s, cards in group:
                base = at + (rel[s] - 1) * pack
                for p in _places(cards, index):
                    out[base + p] = 1.0
    at = slots.get("dead", -1)
    if at >= 0:
        for p in _places(view.dead, index):
            out[at + p] = 1.0
        out[slots["dead_count"]] = view.dead_count / pack
        o = slots["out"]
        for s, x in enumerate(view.out):
            if x:
                out[o + rel[s]] = 1.0


def _view_counts(out: list[float], view: View, plan: _Plan, rel: list[int]) -> None:
    """The ``hand_counts`` and ``knocked_out`` slices of a view."""
    slots = plan.slots
    at = slots.get("hand_counts", -1)
    if at >= 0:
        for s, k in enumerate(view.hand_counts):
            out[at + rel[s]] = k / plan.pack
    at = slots.get("knocked_out", -1)
    if at >= 0:
        for s, _ in view.knocked_out:
            out[at + rel[s]] = 1.0


def _game_plan(game: Game) -> _Plan:
    # The layout is the game's, not one hand's: a hand's own rules (a line with
    # a condition on the hand) are selected from hand_base, whose layout it is.
    return _plan(game._rules.hand_base, game._players)


def observation(game: Game, seat: int, numpy: bool = False) -> Any:
    """``game.observation(seat)``: the seat's observation vector (see the module)."""
    plan = _game_plan(game)
    if plan.copies > 1:
        vec = _observation_from_view(game.view(seat), plan)
    elif type(seat) is int and 0 <= seat < game._players:
        vec = observation_of_state(game, seat, plan)
    else:  # the view checks the seat (None: an onlooker's)
        vec = _observation_from_view(game.view(seat), plan)
    if numpy:
        try:
            # By name, so that type-checking the engine (mypyc's build, in an
            # environment without the numpy extra) never needs numpy.
            np = importlib.import_module("numpy")
        except ImportError as e:  # pragma: no cover - numpy is installed in the tests
            raise ImportError(
                "observation(seat, numpy=True) needs numpy: pip install 'cardrules[numpy]'"
            ) from e
        return np.asarray(vec, dtype=np.float32)
    return vec


def _places(cards: Iterable[Card], index: tuple[int, ...]) -> list[int]:
    """The places of ``cards`` in the pack: a card's place, or, in a game of
    several packs, its k-th copy's place for its k-th showing in ``cards``."""
    if len(index) <= 64:
        return [index[c] for c in cards]
    shown: dict[int, int] = {}
    out: list[int] = []
    for c in cards:
        k = shown.get(c, 0)
        shown[c] = k + 1
        out.append(index[(c & 63) + 64 * k])
    return out


def action_mask(game: Game, seat: int) -> list[int]:
    """``game.action_mask(seat)``: 1 for each legal action id of ``seat``, else 0."""
    # A pack with special cards: their action ids (400-429) too; an auction of
    # contracts: the contract bids' (430-501).
    mask = [0] * game._rules.num_actions
    for a in game.legal_actions(seat):
        mask[a.id] = 1
    return mask
