"""cardrules games as OpenSpiel games (``pip install 'cardrules[openspiel]'``).

:func:`register` makes any variant, built-in or your own
:class:`~cardrules.rules.Variant`, a pyspiel Python game, and :func:`load_game`
registers and loads one in a single call::

    import cardrules.openspiel as cos

    game = cos.load_game("oh-hell", players=4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[0])
        else:
            state.apply_action(state.legal_actions()[0])
    print(state.returns())

The game is turn-based with **explicit chance nodes** for everything random
the engine does:

* the first dealer, when the variant's ``first dealer:`` is random or a cut (a
  cut among seats that are alike is uniform over the seats): one chance node,
  outcome ``s`` for seat ``s``;
* every hand's deal, card by card in the engine's dealing order (from the
  dealer's neighbour, one card at a time round the seats still in), then the
  turned-up card when it is not one of the dealt cards: one chance node per
  card, each card not yet dealt equally likely, the outcome being the card's
  number (``int(card)``, 0 to 53). The cards the hand does not deal are not
  drawn (they stay unseen in the pack);
* each draw of "the power" (shedding games with ``leader out: draws a dead
  card``): one chance node, each card of the earlier dead tricks equally
  likely.

A tie broken by a cut in naming trumps follows from the hand's deal (a hash of
it), as in the engine, so it is not a separate chance node.

The players' actions are cardrules action ids (:data:`~cardrules.engine.actions.NUM_ACTIONS`
distinct actions). Seats that act at the same time (the pass of Hearts, a
simultaneous bid) act one after the other in the engine's order; a seat's
information state never shows what another chose while they were hidden.
Amending a bid (``bidding: ... amend``), which a seat may do out of turn, is
left out: the player to act is always the engine's ``to_act``.

Observations are the engine's: the information state string is
:meth:`Game.information_state <cardrules.engine.game.Game.information_state>`
(perfect recall), its tensor :meth:`Game.information_state_tensor
<cardrules.engine.game.Game.information_state_tensor>` (one-hand trick-taking
games only; the game type says ``provides_information_state_tensor``), and the
observation string and tensor are :meth:`Game.observation_string
<cardrules.engine.game.Game.observation_string>` and :meth:`Game.observation
<cardrules.engine.game.Game.observation>`. At a chance node, where no player
acts, the strings name the chance node and the tensors are zeros.

Returns (the ``returns`` parameter):

* ``"points"`` (the default when the variant scores points): each seat's
  running total, negated when the lowest total wins (so that more is always
  better); ``rewards()`` are the points scored since the previous player
  action (chance nodes do not reset them), so a game of several hands pays
  each hand as it is scored. The utility bounds are worked out from the
  scoring formula over the values its variables can take in this variant
  (hand sizes, card points, the most hands a game can play): ``[-B, B]``,
  loose but safe.
* ``"win"`` (the default for shedding games): at the end, each winner gets
  ``1 / len(winners)``, everyone else 0; bounds ``[0, 1]``.

Other parameters: ``players`` (the variant's number of players by default:
4 when it allows 4, else its smallest) and ``max_tricks`` (end the game
unfinished after that many tricks; 0: none, except shedding games, where a
pickup can return cards to hands, which stop after 1,000 tricks so that the
game has a bounded length).

``resample_from_infostate(player, sampler)`` (for OpenSpiel's ISMCTS) draws a
world consistent with everything ``player`` has seen with
:meth:`Game.sample_world <cardrules.engine.game.Game.sample_world>` and
returns the state of its chance outcomes and actions.

Serialization is OpenSpiel's own (``pyspiel.serialize_game_and_state``): the
game's name and parameters, the history, and the state's data, which OpenSpiel
writes with :mod:`pickle` for Python games; the variant must be registered
(:func:`register`) in the process that reads it back. Reading a pickle can run
code, so never deserialize text from strangers: send ``state.history()`` and
apply it to ``game.new_initial_state()``, which checks every outcome and
action (an illegal one raises :class:`~cardrules.errors.IllegalAction` and
leaves the state as it was).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Final

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
    raise ImportError(
        "cardrules.openspiel needs OpenSpiel and numpy: pip install 'cardrules[openspiel]'"
    ) from exc

from cardrules.cards import CARDS, ID_LIMIT, CardSet
from cardrules.counted import count_range
from cardrules.dsl import load
from cardrules.engine.actions import (
    Action,
    Play,
    mask_ids,
    num_actions_of,
)
from cardrules.engine.game import MAX_TRICKS_LIMIT, Game
from cardrules.engine.views.event_types import DealEvent, DrawEvent, TrumpEvent
from cardrules.engine.views.observation_vector import observation_layout
from cardrules.errors import CardrulesError, IllegalAction, InvalidAction, SaveError, VariantError
from cardrules.rules import FirstDealer, LeaderOut, Mode, Variant
from cardrules.scoring import (
    COUNTER_BOUND,
    VARIABLE_BOUNDS,
    Call,
    Formula,
    If,
    Neg,
    Num,
    Product,
    Sum,
    Var,
)

__all__ = [
    "PREFIX",
    "CardrulesGame",
    "CardrulesState",
    "load_game",
    "register",
    "registered",
    "short_name",
]

_NAME_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,99}")
#: The prefix of the OpenSpiel short names of cardrules games.
PREFIX: Final = "cardrules_"
#: The tricks after which a shedding game stops unfinished when no
#: ``max_tricks`` is given (a pickup can return cards to the hands).
SHEDDING_MAX_TRICKS: Final = 1000
#: The seed of the engine games the adapter builds: it never decides anything
#: a player sees (every deal and draw is a chance outcome), it only fills the
#: hands the adapter has not dealt yet.
_SEED: Final = 0

# The kinds of chance node.
_NONE: Final = 0
_DEALER: Final = 1
_DEAL: Final = 2
_DRAW: Final = 3

_DRAW_TEXT: Final = "chance: a draw from the earlier dead tricks"

# Registered variants: short name -> variant, and their game types.
_REGISTRY: dict[str, Variant] = {}
_TYPES: dict[str, Any] = {}


def short_name(variant: Variant) -> str:
    """The OpenSpiel short name of a variant: ``cardrules_`` and its name with
    ``-`` as ``_``.

    Example:
        >>> import cardrules
        >>> short_name(cardrules.load("oh-hell"))
        'cardrules_oh_hell'
    """
    return PREFIX + variant.name.replace("-", "_")


def registered() -> dict[str, Variant]:
    """The variants registered so far, by short name (a copy)."""
    return dict(_REGISTRY)


def _default_players(v: Variant) -> int:
    return 4 if v.players.min <= 4 <= v.players.max else v.players.min


def register(variant: Variant | str, name: str | None = None) -> str:
    """Register a variant (or a built-in's name) as a pyspiel game, once.

    Args:
        variant: a :class:`~cardrules.rules.Variant` or the name of a built-in.
        name: the OpenSpiel short name (:func:`short_name` by default); give
            one to register a variant with options under its own name.

    Returns:
        The game's short name, for ``pyspiel.load_game(name, {"players": 4})``.

    Raises:
        VariantError: ``bad_argument`` if another variant (or an OpenSpiel game)
            has that name already, or the name is not a short name;
            ``unknown_variant`` if no built-in has the name given.

    Example:
        >>> import pyspiel
        >>> name = register("kachuful")
        >>> pyspiel.load_game(name, {"players": 4}).num_players()
        4
    """
    v = load(variant) if isinstance(variant, str) else variant
    if not isinstance(v, Variant):
        raise VariantError(
            f"register takes a Variant or a built-in's name, not {type(variant).__name__}",
            code="bad_argument",
        )
    if name is None:
        name = short_name(v)
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise VariantError(
            f"an OpenSpiel short name is a letter, then letters, digits and '_' "
            f"(at most 100), got {name!r}",
            code="bad_argument",
        )
    known = _REGISTRY.get(name)
    if known is not None:
        if known != v:
            raise VariantError(
                f"another variant is registered already as {name!r} "
                "(give register a name of its own for this one)",
                code="bad_argument",
            )
        return name
    if name in pyspiel.registered_names():
        raise VariantError(
            f"OpenSpiel already has a game named {name!r}: give register another name",
            code="bad_argument",
        )
    game_type = _game_type(v, name)
    _REGISTRY[name] = v
    cls = type(f"CardrulesGame_{name}", (CardrulesGame,), {"_short_name": name})
    _TYPES[name] = game_type
    pyspiel.register_game(game_type, cls)
    return name


def load_game(
    variant: Variant | str, players: int | None = None, *, name: str | None = None, **params: Any
) -> Any:
    """:func:`register` the variant and load it as a pyspiel game.

    Args:
        variant: a :class:`~cardrules.rules.Variant` or the name of a built-in.
        players: the number of players (the variant's default when ``None``).
        name: the short name to register it under (see :func:`register`).
        **params: ``returns`` (``"points"`` or ``"win"``) and ``max_tricks``.

    Example:
        >>> from cardrules.engine.actions import NUM_ACTIONS
        >>> game = load_game("oh-hell", players=3)
        >>> game.num_players(), game.num_distinct_actions() == NUM_ACTIONS
        (3, True)
    """
    name = register(variant, name)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(name, params)


def _game_type(v: Variant, name: str) -> Any:
    shedding = v.mode is not Mode.TRICKS
    players = _default_players(v)
    return pyspiel.GameType(
        short_name=name,
        long_name=f"cardrules {v.title or v.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=_reward_model(_terminal_rewards(v, players, "win" if shedding else "points")),
        max_num_players=v.players.max,
        min_num_players=v.players.min,
        provides_information_state_string=True,
        provides_information_state_tensor=_has_infostate_tensor(v, players),
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": players,
            "returns": "win" if shedding else "points",
            "max_tricks": 0,
        },
    )


def _has_infostate_tensor(v: Variant, players: int) -> bool:
    """Whether the engine gives this variant an information state tensor."""
    return v.mode is Mode.TRICKS and len(v.hand_sizes(players)) == 1


def _terminal_rewards(v: Variant, players: int, returns: str) -> bool:
    """Whether the returns arrive only at the end of the game: with ``win``
    returns, or in a game of one hand (no tie-break hand can follow it)."""
    if returns == "win":
        return True
    extra = 0 if v.mode is not Mode.TRICKS else v.winning.extra_hand_limit
    return len(v.hand_sizes(players)) + extra == 1


def _reward_model(terminal: bool) -> Any:
    """OpenSpiel's ``TERMINAL`` where rewards come only at the end (its MCTS
    needs it), else ``REWARDS`` (a game of several hands pays each hand)."""
    model = pyspiel.GameType.RewardModel
    return model.TERMINAL if terminal else model.REWARDS


# --------------------------------------------------------------------------- bounds


def _magnitude(node: object, top: dict[str, int]) -> tuple[Fraction, bool] | None:
    """The largest absolute value a formula's number part can take, and whether
    it is always a whole number, with the variables within ``top``; ``None``
    when it cannot be bounded this way (a division by a fraction)."""
    if isinstance(node, Num):
        return node.value, node.value.denominator == 1
    if isinstance(node, Var):
        return Fraction(top.get(node.name, VARIABLE_BOUNDS.get(node.name, COUNTER_BOUND))), True
    if isinstance(node, Neg):
        return _magnitude(node.operand, top)
    if isinstance(node, If):
        a = _magnitude(node.then, top)
        b = _magnitude(node.orelse, top)
        if a is None or b is None:
            return None
        return max(a[0], b[0]), a[1] and b[1]
    if isinstance(node, Call):
        parts = [_magnitude(arg, top) for arg in node.args]
        if any(p is None for p in parts):
            return None
        ok = [p for p in parts if p is not None]
        return max(p[0] for p in ok), all(p[1] for p in ok)
    if isinstance(node, Sum | Product):
        return _series_magnitude(node, top)
    return None  # a condition where a number was expected: not a formula's


def _series_magnitude(node: Sum | Product, top: dict[str, int]) -> tuple[Fraction, bool] | None:
    """:func:`_magnitude` of a sum or a product: its terms', combined by their
    operators, in order."""
    first = _magnitude(node.first, top)
    if first is None:
        return None
    mag, whole = first
    for op, term in node.rest:
        other = _magnitude(term, top)
        if other is None:
            return None
        if op in ("+", "-"):
            mag, whole = mag + other[0], whole and other[1]
        elif op == "*":
            mag, whole = mag * other[0], whole and other[1]
        elif isinstance(term, Num) and term.value:
            # A known divisor: x / c; x // c rounds down (one more in size).
            mag = mag / term.value
            if op == "//":
                mag, whole = Fraction(int(mag) + 1), True
            else:
                whole = False
        elif other[1]:
            # A whole divisor is 0 (the step is worth 0) or at least 1 in size.
            whole = op == "//"
        else:
            return None
    return mag, whole


def _points_bound(v: Variant, players: int, hands: int) -> float:
    """A bound on the size of every running total of a game (see the module)."""
    sizes = v.hand_sizes(players) or (v.deck.size // players,)
    largest = max(sizes)
    points = sum(abs(p) for p in v.scoring.card_points)
    team = max((len(t) for t in v.teams), default=1)
    top = {
        "bid": largest * team,
        "tricks": largest * team,
        "cards": v.deck.size,
        "hand": hands,
        "players": players,
        "diff": largest * team,
        "points": points,
        "all_points": points,
        "most_points": points,
        "team_bid": largest * team,
        "team_tricks": largest * team,
        "team_points": points,
        "partner_bid": largest * team,
        "partner_tricks": largest * team,
        "maker_tricks": largest * team,
    }
    per_hand = Fraction(0)
    for formula, times in ((v.scoring.formula, team), (v.scoring.team_formula, 1)):
        if formula is None:
            continue
        m = _magnitude(formula.expr, top) if isinstance(formula, Formula) else None
        if m is None:
            return 1e12
        per_hand += m[0] * times
    return float(max(per_hand * hands, Fraction(1)))


# --------------------------------------------------------------------------- the game


class _Info:
    """What every state of one pyspiel game shares: the variant, the number of
    players, the parameters and what follows from them. It is never copied:
    a clone or a pickle of a state refers to its game's."""

    def __init__(self, name: str, v: Variant, params: dict[str, Any]) -> None:
        self.name = name
        self.v = v
        n = params.get("players", _default_players(v))
        if type(n) is not int or not v.players.min <= n <= v.players.max:
            raise VariantError(
                f"{v.name} is for {count_range(v.players.min, v.players.max, 'player')}, not {n!r}",
                code="bad_player_count",
            )
        self.n = n
        shedding = v.mode is not Mode.TRICKS
        mode = params.get("returns", "win" if shedding else "points")
        if mode not in ("points", "win"):
            raise VariantError(
                f"returns must be 'points' or 'win', not {mode!r}", code="bad_argument"
            )
        self.mode: str = mode
        mt = params.get("max_tricks", 0)
        if type(mt) is not int or not 0 <= mt <= MAX_TRICKS_LIMIT:
            raise VariantError(
                f"max_tricks must be a whole number from 0 (none) to {MAX_TRICKS_LIMIT:,}, "
                f"not {mt!r}",
                code="bad_argument",
            )
        self.max_tricks: int | None = mt or (SHEDDING_MAX_TRICKS if shedding else None)
        self.params = {"players": n, "returns": mode, "max_tricks": mt}
        self.sign = 1.0 if v.scoring.higher_wins else -1.0
        self.fd_chance = v.dealer.first is not FirstDealer.SEAT
        self.power = shedding and v.play.leader_out is LeaderOut.DRAWS
        self.most_decks = 1  # the probe deals its first hand in pack order
        probe = self.build(0 if self.fd_chance else None, [], [], [])
        self.pack: tuple[int, ...] = tuple(
            sorted(int(c) for cs in probe.card_locations().values() for c in cs)
        )
        self.pack_mask = sum(1 << c for c in self.pack)
        # The most decks a game takes (Game refuses more): its hands.
        self.most_decks = len(probe.hand_sizes) + v.winning.extra_hand_limit
        # The plan of the first deal, by first dealer (a deal's plan depends
        # only on the dealer and the seats still in, not on the cards).
        self.first_plans: dict[int | None, tuple[int, ...]] = {}
        self.layout = observation_layout(v, n)
        self.obs_size = self.layout[-1].stop if self.layout else 0
        self.infostate_tensor = _has_infostate_tensor(v, n)
        self.terminal_rewards = _terminal_rewards(v, n, mode)
        self.infostate_size = len(probe.information_state_tensor(0)) if self.infostate_tensor else 0
        # A shedding game is one hand; a trick-taking one at most its decks.
        hands = len(probe.hand_sizes) if shedding else self.most_decks
        sizes = probe.hand_sizes
        pass_count = v.passing.count
        if shedding:
            assert self.max_tricks is not None
            plays = self.max_tricks * (n + 1) + len(self.pack)
        else:
            plays = max(sizes) * n
        self.max_length = min(hands * (plays + 2 * n + pass_count * n + 3 * n + 4), 2**31 - 1)
        if mode == "win":
            self.min_u, self.max_u = 0.0, 1.0
        else:
            b = _points_bound(v, n, hands)
            self.min_u, self.max_u = -b, b

    def build(
        self,
        fd: int | None,
        decks: Sequence[Sequence[int]],
        draws: Sequence[int],
        moves: Sequence[tuple[int, int]],
    ) -> Game:
        """The engine game of these chance outcomes and moves (``moves``:
        ``(seat, action id)`` pairs); the hand after the last given deck, if
        any, is dealt in pack order (the next deal's plan is read from it)."""
        ds = [list(d) for d in decks]
        if len(ds) < self.most_decks:
            ds.append([])
        kwargs: dict[str, Any] = {}
        if draws:
            # The recorded draws of "the power", used instead of the seed's.
            kwargs["_draws"] = tuple(draws)
        g = Game(
            self.v,
            self.n,
            _SEED,
            deck=ds,
            first_dealer=fd,
            max_tricks=self.max_tricks,
            **kwargs,
        )
        by_id = Action.from_id
        for seat, aid in moves:
            g.apply(by_id(aid), seat)
        return g

    def plan_of(self, g: Game) -> tuple[int, ...]:
        """The seat of each chance-dealt place of ``g``'s current hand, dealt in
        pack order (-1: the turned-up card, when it is in no hand)."""
        where = {c: i for i, c in enumerate(self.pack)}
        seats: dict[int, int] = {}
        for s in range(self.n):
            for c in g.hand(s):
                seats[where[int(c)]] = s
        k = len(seats)
        plan = [seats[i] for i in range(k)]
        turned = g.turned_up
        if turned is not None and where[int(turned)] not in seats:
            plan.append(-1)
        return tuple(plan)

    def first_plan(self, fd: int | None) -> tuple[int, ...]:
        plan = self.first_plans.get(fd)
        if plan is None:
            plan = self.first_plans[fd] = self.plan_of(self.build(fd, [], [], []))
        return plan

    def __deepcopy__(self, memo: dict[int, Any]) -> _Info:
        return self

    def __reduce__(self) -> tuple[Callable[[str, dict[str, Any]], _Info], tuple[Any, ...]]:
        return (_info_of, (self.name, self.params))


_INFOS: dict[tuple[str, tuple[tuple[str, Any], ...]], _Info] = {}


def _info_of(name: str, params: dict[str, Any]) -> _Info:
    """The shared :class:`_Info` of a registered game and its parameters."""
    key = (name, tuple(sorted(params.items())))
    info = _INFOS.get(key)
    if info is None:
        v = _REGISTRY.get(name)
        if v is None:
            raise SaveError(
                f"{name!r} is not a registered cardrules game (call cardrules.openspiel.register)",
                code="bad_save",
            )
        info = _INFOS[key] = _Info(name, v, params)
    return info


class CardrulesGame(pyspiel.Game):  # type: ignore[misc]
    """A cardrules variant as a pyspiel game; :func:`register` makes one
    subclass per variant (``pyspiel.load_game`` builds it)."""

    _short_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self._short_name
        game_type = _TYPES[name]
        full: dict[str, Any] = dict(game_type.parameter_specification)
        full.update(params or {})
        info = _info_of(name, full)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=num_actions_of(info.v),
            max_chance_outcomes=max(info.pack[-1] + 1, info.n),
            num_players=info.n,
            min_utility=info.min_u,
            max_utility=info.max_u,
            utility_sum=None,
            max_game_length=info.max_length,
        )
        if info.infostate_tensor != game_type.provides_information_state_tensor or (
            _reward_model(info.terminal_rewards) != game_type.reward_model
        ):
            # The tensor exists for one-hand games, and rewards come only at
            # the end of those (or with "win" returns); the registered type
            # says so for the default parameters (hand sizes may depend on the
            # number of players).
            game_type = _game_type_with(game_type, info.infostate_tensor, info.terminal_rewards)
        super().__init__(game_type, game_info, info.params)
        self._cardrules_info = info

    @property
    def variant(self) -> Variant:
        """The variant."""
        return self._cardrules_info.v

    def new_initial_state(self) -> CardrulesState:
        """The start of a game: a chance node (the first dealer, or the deal)."""
        return CardrulesState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of the information state (``perfect_recall``), of the
        observation (what the seat may know now: public and its own private
        information), or of the public observation (``private_info`` ``NONE``:
        what an onlooker sees, the same for every player).

        Raises:
            VariantError: ``bad_argument`` for parameters, and for the
                observation types the engine has no form of (another player's
                private information, private information without the public, a
                public information state with perfect recall).
        """
        if params:
            raise VariantError(
                f"cardrules observers take no parameters, got {params!r}", code="bad_argument"
            )
        return _Observer(self._cardrules_info, _observer_kind(iig_obs_type))


def _observer_kind(t: Any) -> str:
    """``"infostate"``, ``"observation"`` or ``"public"`` for an
    ``IIGObservationType`` (``None``: OpenSpiel's default observation)."""
    if t is None:
        return "observation"
    private = t.private_info
    kinds = pyspiel.PrivateInfoType
    if private == kinds.SINGLE_PLAYER and t.public_info:
        return "infostate" if t.perfect_recall else "observation"
    if private == kinds.NONE and t.public_info and not t.perfect_recall:
        return "public"
    raise VariantError(
        "cardrules observers give the information state (perfect recall, public and "
        "the player's private information), the observation (public and the "
        "player's private information, no perfect recall) or the public "
        "observation (public information only, no perfect recall), not "
        f"public_info={t.public_info}, perfect_recall={t.perfect_recall}, "
        f"private_info={private.name}",
        code="bad_argument",
    )


def _game_type_with(t: Any, tensor: bool, terminal: bool) -> Any:
    return pyspiel.GameType(
        short_name=t.short_name,
        long_name=t.long_name,
        dynamics=t.dynamics,
        chance_mode=t.chance_mode,
        information=t.information,
        utility=t.utility,
        reward_model=_reward_model(terminal),
        max_num_players=t.max_num_players,
        min_num_players=t.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=t.parameter_specification,
    )


class _S:
    """The whole of a state's own data (one attribute of the pyspiel state, so
    that OpenSpiel's clone and pickle see one object): the chance outcomes so
    far, the moves, and the engine game they make."""

    __slots__ = (
        "base",
        "chance",
        "decks",
        "draws",
        "fd",
        "g",
        "info",
        "moves",
        "plan",
        "plans",
        "pool",
    )

    def __init__(self, info: _Info) -> None:
        self.info = info
        self.fd: int | None = None
        self.decks: list[list[int]] = []
        # The plan of each hand's deal (the seat of each place; -1: turned up).
        self.plans: list[tuple[int, ...]] = []
        self.draws: list[int] = []
        self.moves: list[tuple[int, int]] = []
        self.g: Game | None = None
        self.chance = _NONE
        # A deal: the seat of each place still to deal; a draw: its pool (a mask).
        self.plan: tuple[int, ...] = ()
        self.pool = 0
        # The returns before the last player action (rewards are the change).
        self.base: list[float] = [0.0] * info.n
        if info.fd_chance:
            self.chance = _DEALER
        else:
            self._open_deal(info.first_plan(None))

    def _open_deal(self, plan: tuple[int, ...]) -> None:
        self.chance = _DEAL
        self.plan = plan
        self.plans.append(plan)
        self.decks.append([])
        self.pool = self.info.pack_mask

    def rebuild(self) -> None:
        info = self.info
        self.g = info.build(self.fd, self.decks, self.draws, self.moves)

    # -------------------------------------------------------------- queries

    def returns(self) -> list[float]:
        info = self.info
        g = self.g
        if g is None:
            return [0.0] * info.n
        if info.mode == "win":
            res = g.result
            if res is None or not res.winners:
                return [0.0] * info.n
            share = 1.0 / len(res.winners)
            return [share if s in res.winners else 0.0 for s in range(info.n)]
        sign = info.sign
        return [sign * x for x in g.returns()]

    def outcomes(self) -> list[int]:
        if self.chance == _DEALER:
            return list(range(self.info.n))
        out = []
        m = self.pool
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def is_outcome(self, action: int) -> bool:
        if self.chance == _DEALER:
            return 0 <= action < self.info.n
        return 0 <= action < ID_LIMIT and bool(self.pool >> action & 1)

    # -------------------------------------------------------------- acting

    def apply(self, action: int) -> None:
        chance = self.chance
        if chance:
            if not self.is_outcome(action):
                raise IllegalAction(
                    f"{action!r} is not a chance outcome of this node (legal: {self.outcomes()})",
                    code="illegal_action",
                )
            if chance == _DEALER:
                self.fd = action
                self._open_deal(self.info.first_plan(action))
                return
            if chance == _DRAW:
                self.draws.append(action)
                self.chance = _NONE
                self.rebuild()
                return
            deck = self.decks[-1]
            deck.append(action)
            self.pool &= ~(1 << action)
            if len(deck) == len(self.plan):
                self.chance = _NONE
                self.plan = ()
                self.pool = 0
                self.rebuild()
            return
        g = self.g
        assert g is not None
        seat = g.to_act
        if seat is None:
            raise IllegalAction("the game is over: no action is possible", code="game_over")
        info = self.info
        base = self.returns()
        dead = g.card_locations()["dead"] if info.power else None
        hand = g.hand_number
        # The integer path: InvalidAction for a bad id, IllegalAction (the game
        # unchanged) if not legal.
        g.apply_id(action, seat)
        self.base = base
        self.moves.append((seat, action))
        if dead is not None and dead and g.phase == "play":
            act = Action.from_id(action)
            trick = g.current_trick()
            if type(act) is Play and len(trick) == 1 and trick[0][1] != act.card:
                # The power: the seat that took a dead trick with its last card
                # drew a card of the earlier dead tricks (the seed's, for now).
                self.chance = _DRAW
                self.pool = dead.mask
                return
        if g.hand_number != hand and not g.is_over:
            self._open_deal(info.plan_of(g))

    def __deepcopy__(self, memo: dict[int, Any]) -> _S:
        c = _S.__new__(_S)
        c.info = self.info
        c.fd = self.fd
        c.decks = [d[:] for d in self.decks]
        c.plans = self.plans[:]
        c.draws = self.draws[:]
        c.moves = self.moves[:]
        c.g = None if self.g is None else self.g.clone()
        c.chance = self.chance
        c.plan = self.plan
        c.pool = self.pool
        c.base = self.base[:]
        return c

    def __getstate__(self) -> dict[str, Any]:
        return {
            "name": self.info.name,
            "params": self.info.params,
            "fd": self.fd,
            "decks": self.decks,
            "plans": self.plans,
            "draws": self.draws,
            "moves": self.moves,
            "chance": self.chance,
            "plan": self.plan,
            "pool": self.pool,
            "base": self.base,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        # Untrusted (a serialized state): the game rebuilt from it checks every
        # move; anything wrong is a SaveError.
        try:
            self.info = _info_of(data["name"], dict(data["params"]))
            self.fd = None if data["fd"] is None else int(data["fd"])
            self.decks = [[int(c) for c in d] for d in data["decks"]]
            self.plans = [tuple(int(x) for x in p) for p in data["plans"]]
            self.draws = [int(c) for c in data["draws"]]
            self.moves = [(int(seat), int(a)) for seat, a in data["moves"]]
            self.chance = int(data["chance"])
            self.plan = tuple(int(x) for x in data["plan"])
            self.pool = int(data["pool"])
            self.base = [float(x) for x in data["base"]]
            self.g = None
            if self.chance == _DEAL:
                if len(self.decks) > 1:
                    self.g = self.info.build(self.fd, self.decks[:-1], self.draws, self.moves)
            elif self.chance != _DEALER:
                self.g = self.info.build(self.fd, self.decks, self.draws, self.moves)
        except SaveError:
            raise
        except (CardrulesError, KeyError, TypeError, ValueError) as e:
            raise SaveError(
                f"not a saved cardrules OpenSpiel state: {e}", code="bad_save"
            ) from None


class CardrulesState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`CardrulesGame`."""

    def __init__(self, game: CardrulesGame) -> None:
        super().__init__(game)
        self._s = _S(game._cardrules_info)

    # -------------------------------------------------------------- the engine's game

    def cardrules_game(self) -> Game | None:
        """A copy of the engine's game at this state; ``None`` at a chance node
        (the cards being dealt or drawn are not known to it yet).

        Example:
            >>> game = load_game("oh-hell", players=4)
            >>> state = game.new_initial_state()
            >>> while state.is_chance_node():
            ...     state.apply_action(state.legal_actions()[0])
            >>> state.cardrules_game().phase
            'bid'
        """
        s = self._s
        return None if s.chance or s.g is None else s.g.clone()

    # -------------------------------------------------------------- pyspiel API

    def current_player(self) -> int:
        s = self._s
        if s.chance:
            return int(pyspiel.PlayerId.CHANCE)
        assert s.g is not None
        seat = s.g.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        s = self._s
        if s.chance or s.g is None or player != s.g.to_act:
            return []
        # Ascending, as OpenSpiel wants (the engine lists a Look before the
        # blind bids, for one): the bits of the legal mask, lowest first.
        return mask_ids(s.g.legal_mask(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outs = self._s.outcomes()
        p = 1.0 / len(outs)
        return [(o, p) for o in outs]

    def _apply_action(self, action: int) -> None:
        self._s.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            s = self._s
            if s.chance == _DEALER:
                return f"first dealer: seat {action}"
            if s.chance == _DRAW:
                return f"draw {CARDS[action]}"
            return f"deal {CARDS[action]}" if 0 <= action < len(CARDS) else f"outcome {action}"
        try:
            return Action.from_id(action).label
        except InvalidAction:
            return f"action {action}"

    def is_terminal(self) -> bool:
        s = self._s
        return not s.chance and s.g is not None and s.g.is_over

    def returns(self) -> list[float]:
        return self._s.returns()

    def rewards(self) -> list[float]:
        s = self._s
        now = s.returns()
        return [a - b for a, b in zip(now, s.base, strict=True)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardrulesState:
        """A state consistent with everything ``player_id`` has seen, drawn by
        :meth:`Game.sample_world <cardrules.engine.game.Game.sample_world>`;
        ``probability_sampler`` (OpenSpiel's, a callable giving floats in
        [0, 1)) seeds the draw.

        Raises:
            IllegalAction: at a chance node or the end (no player decides), or
                ``no_world`` from ``sample_world``.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        return _resample(self, int(player_id), rng)

    def __str__(self) -> str:
        s = self._s
        if s.chance == _DEALER:
            return _chance_text(s)
        if s.chance == _DEAL:
            k = len(s.decks[-1])
            dealt = " ".join(str(CARDS[c]) for c in s.decks[-1])
            return f"chance: deal of hand {len(s.decks)}, {k} of {len(s.plan)} cards dealt: {dealt}"
        g = s.g
        assert g is not None
        lines = [repr(g)]
        if s.chance == _DRAW:
            lines.append(_DRAW_TEXT)
        for seat in range(g.players):
            lines.append(f"seat {seat}: {g.hand(seat)}")
        trick = " ".join(f"{seat}:{c}" for seat, c in g.current_trick())
        lines.append(f"trick: {trick}")
        lines.append("totals: " + " ".join(str(x) for x in g.scores))
        lines.append(f"moves: {len(s.moves)}")
        return "\n".join(lines)


# --------------------------------------------------------------------------- observers


class _Observer:
    """OpenSpiel's PyObserver: ``tensor``, ``dict``, ``set_from`` and ``string_from``.

    Its ``kind`` is ``"infostate"`` (:meth:`Game.information_state
    <cardrules.engine.game.Game.information_state>` and its tensor),
    ``"observation"`` (:meth:`Game.observation_string
    <cardrules.engine.game.Game.observation_string>` and :meth:`Game.observation
    <cardrules.engine.game.Game.observation>`) or ``"public"`` (the same of
    the onlooker's view, ``view(None)``: no hand, no hidden bid or passed card;
    the same for every player).
    """

    def __init__(self, info: _Info, kind: str) -> None:
        self.info = info
        self.kind = kind
        if kind == "infostate":
            size = info.infostate_size
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"info_state": self.tensor}
        else:
            self.tensor = np.zeros(info.obs_size, np.float32)
            self.dict = {sl.name: self.tensor[sl.start : sl.stop] for sl in info.layout}

    def _game(self, state: CardrulesState) -> Game | None:
        s = state._s
        return None if s.chance else s.g

    def set_from(self, state: CardrulesState, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` (zeros at a chance node).

        Raises:
            InvalidAction: for the information state tensor of a game of
                several hands, which the engine does not give (the game type
                says ``provides_information_state_tensor=False``; use the
                information state string).
        """
        g = self._game(state)
        if self.kind == "infostate" and not self.info.infostate_tensor:
            raise InvalidAction(
                f"{self.info.v.name} has no information state tensor: the engine "
                "gives one for one-hand trick-taking games only (use the "
                "information state string, or the observation tensor)",
                code="bad_argument",
            )
        if g is None:
            self.tensor.fill(0.0)
        elif self.kind == "infostate":
            self.tensor[:] = g.information_state_tensor(player)
        elif self.kind == "public":
            self.tensor[:] = g.observation(None)  # type: ignore[call-overload]
        else:
            self.tensor[:] = g.observation(player)

    def string_from(self, state: CardrulesState, player: int) -> str:
        g = self._game(state)
        if g is None:
            return _chance_text(state._s)
        if self.kind == "infostate":
            return g.information_state(player)
        if self.kind == "public":
            return g.public_view().to_json()
        return g.observation_string(player)


def _chance_text(s: _S) -> str:
    """A chance node in words, for every seat: no card is named."""
    if s.chance == _DEALER:
        return "chance: the first dealer"
    if s.chance == _DRAW:
        return _DRAW_TEXT
    return f"chance: deal of hand {len(s.decks)}, card {len(s.decks[-1]) + 1} of {len(s.plan)}"


# --------------------------------------------------------------------------- resampling


def _resample(state: CardrulesState, player: int, rng: random.Random) -> CardrulesState:
    s = state._s
    if s.chance or s.g is None or s.g.is_over:
        raise IllegalAction(
            "resample_from_infostate needs a player's decision node", code="not_in_phase"
        )
    return _state_of_world(state, s.g.sample_world(player, rng))


def _hand_order(plan: tuple[int, ...], hands: Sequence[CardSet], turned: int | None) -> list[int]:
    """A card order that deals ``hands`` (and turns ``turned`` up) by ``plan``."""
    queues = {s: sorted(int(c) for c in h) for s, h in enumerate(hands)}
    if turned is not None:
        for q in queues.values():
            if turned in q:
                q.remove(turned)
                q.append(turned)  # the dealer's own last card, turned up
    order = []
    for seat in plan:
        order.append(turned if seat < 0 else queues[seat].pop(0))
    return [c for c in order if c is not None]


def _state_of_world(state: CardrulesState, world: Game) -> CardrulesState:
    """The pyspiel state of the engine game ``world`` (of the same variant and
    players), reached by applying its chance outcomes and moves in order."""
    deals: list[tuple[tuple[CardSet, ...], int | None]] = []
    draws: list[int] = []
    fd: int | None = None
    for ev in world.events:
        if isinstance(ev, DealEvent):
            if fd is None:
                fd = ev.dealer
            deals.append((tuple(h or CardSet() for h in ev.hands), None))
        elif isinstance(ev, TrumpEvent):
            turned = None if ev.turned is None else int(ev.turned)
            deals[-1] = (deals[-1][0], turned)
        elif isinstance(ev, DrawEvent):
            draws.append(int(ev.card))
    moves = json.loads(world.to_json())["actions"]
    new: CardrulesState = state.get_game().new_initial_state()
    orders: dict[int, list[int]] = {}
    di = mi = 0
    while True:
        s = new._s
        if s.chance == _DEALER:
            assert fd is not None
            new.apply_action(fd)
        elif s.chance == _DEAL:
            h = len(s.decks) - 1
            order = orders.get(h)
            if order is None:
                hands, turned = deals[h]
                order = orders[h] = _hand_order(s.plan, hands, turned)
            new.apply_action(order[len(s.decks[-1])])
        elif s.chance == _DRAW:
            new.apply_action(draws[di])
            di += 1
        elif mi < len(moves):
            new.apply_action(moves[mi][1])
            mi += 1
        else:
            return new
