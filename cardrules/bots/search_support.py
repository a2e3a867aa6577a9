"""What the search bots share: the game-bot protocol, world sampling, playouts and rewards.

A :class:`~cardrules.bots.base.Bot` is shown only a
:class:`~cardrules.engine.views.view.View`. A search bot needs more: worlds to search
in. A *game bot* (:class:`GameBot`) also has ``choose_in(game, seat)``, and the
drivers (:func:`~cardrules.bots.play_game`, :func:`cardrules.simulate`,
``cardrules play``) call it instead of ``choose(view)`` when it is there
(:func:`decide`). A game bot promises to read the game only through what the
seat may know:

* ``game.sample_world(seat, rng)``: a whole game consistent with everything
  the seat has seen, its hidden cards dealt at random;
* ``game.legal_actions(seat)``, ``game.view(seat)``, ``game.events_for(seat)``.

Everything else it does happens in the sampled worlds (their clones), never
in the game itself; tests/test_search_bots.py checks that its choice is the
same in two games the seat cannot tell apart.

The searches evaluate a position by the end of the current hand
(:func:`playout_hand`) and score it with :func:`hand_rewards`: each seat's
points in that hand (its side's, in games with teams), negated where the
lowest total wins, and -1 for the seat left holding cards at the end of a
shedding game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Final, Protocol, runtime_checkable

from cardrules.bots.base import Bot
from cardrules.bots.heuristic import HeuristicBot
from cardrules.engine.actions import Action
from cardrules.engine.game import Game
from cardrules.engine.views.context import DecisionContext
from cardrules.engine.views.view import View
from cardrules.rules import Mode

__all__ = [
    "MAX_PLAYOUT_ACTIONS",
    "PLAYOUT_POLICIES",
    "GameBot",
    "Policy",
    "SearchBot",
    "actor",
    "decide",
    "hand_over",
    "hand_rewards",
    "heuristic_policy",
    "playout_hand",
    "random_policy",
    "sample_world",
]

#: A playout stops after this many actions (a runaway shedding hand), its
#: rewards then all 0.
MAX_PLAYOUT_ACTIONS: Final = 5000

#: A playout policy: picks ``seat``'s action in ``game`` (a sampled world, so
#: it may look at every card there).
Policy = Callable[[Game, int, random.Random], Action]


@runtime_checkable
class GameBot(Bot, Protocol):
    """A bot that, given the game, searches sampled worlds (``choose_in``).

    It reads ``game`` only through :meth:`Game.sample_world`,
    :meth:`Game.legal_actions`, :meth:`Game.view` and :meth:`Game.events_for`
    of its own seat, and never changes it. ``choose(view)``, for drivers that
    give only a view, must still work (the search bots then play as the
    heuristic bot does).
    """

    def choose_in(self, game: Game, seat: int) -> Action:
        """Pick one of ``game.legal_actions(seat)``.

        Args:
            game: the game (not changed).
            seat: the bot's seat; it has at least one legal action.

        Returns:
            One of ``game.legal_actions(seat)``.
        """
        ...


def decide(bot: Bot, game: Game, seat: int) -> Action:
    """The action ``bot`` takes for ``seat``: ``bot.choose_in(game, seat)`` for
    a :class:`GameBot`, else ``bot.choose_context(ctx)`` for a
    :class:`~cardrules.bots.base.ContextBot` (``ctx`` the seat's
    :class:`~cardrules.engine.views.context.DecisionContext`, closed when the
    bot has answered), else ``bot.choose(game.view(seat))``.

    Args:
        bot: any bot.
        game: the game (not changed).
        seat: the seat to act.

    Returns:
        The bot's action.

    Example:
        >>> import cardrules
        >>> from cardrules.bots import RandomBot
        >>> g = cardrules.Game(cardrules.load("oh-hell"), 4, seed=1)
        >>> decide(RandomBot(1), g, g.to_act) in g.legal_actions(g.to_act)
        True
    """
    choose_in = getattr(bot, "choose_in", None)
    if choose_in is not None:
        action: Action = choose_in(game, seat)
        return action
    choose_context = getattr(bot, "choose_context", None)
    if choose_context is not None:
        ctx = DecisionContext(game, seat)
        try:
            action = choose_context(ctx)
        finally:
            ctx.close()
        return action
    return bot.choose(game.view(seat))


def sample_world(game: Game, seat: int, rng: random.Random) -> Game:
    """A world for ``seat`` to search in: ``game.sample_world(seat, rng)``.

    The one place the search bots sample worlds from.

    Args:
        game: the real game.
        seat: the searching seat.
        rng: the searcher's generator.

    Returns:
        A new game the seat cannot tell from ``game``.
    """
    world: Game = game.sample_world(seat, rng)
    return world


def actor(game: Game) -> int:
    """The seat that moves next in a playout: :attr:`Game.to_act`, or the
    lowest seat still to bid when bids are simultaneous (as the drivers do)."""
    seat = game.to_act
    if seat is None:
        return min(game.waiting_for)
    return seat


def hand_over(game: Game, hand: int) -> bool:
    """Whether hand ``hand`` (a :attr:`Game.hand_number`) has ended."""
    return game.is_over or game.hand_number != hand


def random_policy(game: Game, seat: int, rng: random.Random) -> Action:
    """A playout policy: uniform among ``seat``'s legal actions (as
    :meth:`Game.playout` chooses: ``legal[int(rng.random() * len(legal))]``)."""
    legal = game.legal_actions(seat)
    return legal[int(rng.random() * len(legal))]


_HEURISTIC: Final = HeuristicBot(0)


def heuristic_policy(game: Game, seat: int, rng: random.Random) -> Action:
    """A playout policy: the heuristic bot's choice from ``seat``'s decision
    context in the world (the same choice as from its view; a forced move,
    the one legal action, without building the context)."""
    legal = game.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    ctx = DecisionContext(game, seat)
    action = _HEURISTIC.choose_context(ctx)
    ctx.close()
    return action


#: The playout policies by name.
PLAYOUT_POLICIES: Final[dict[str, Policy]] = {
    "random": random_policy,
    "heuristic": heuristic_policy,
}


def playout_hand(world: Game, policy: Policy, rng: random.Random) -> bool:
    """Play ``world`` in place with ``policy`` for every seat until the end
    of its current hand.

    Args:
        world: a sampled world (changed).
        policy: picks each action.
        rng: the playout's generator.

    The random policy runs inside the engine (:meth:`Game.playout`, which
    builds no views), the same choices as :func:`random_policy` would make
    from ``rng.random()``.

    Returns:
        False if the playout hit :data:`MAX_PLAYOUT_ACTIONS` first.
    """
    if policy is random_policy:
        world.playout(rng=rng, until="hand")
        return True
    hand = world.hand_number
    for _ in range(MAX_PLAYOUT_ACTIONS):
        if world.is_over or world.hand_number != hand:
            return True
        seat = actor(world)
        world.apply(policy(world, seat, rng), seat)
    return hand_over(world, hand)


def hand_rewards(world: Game, before: Sequence[Fraction], finished: bool = True) -> list[float]:
    """Each seat's reward for the hand just played in ``world``.

    Args:
        world: the world at the end of the hand.
        before: the running totals (:attr:`Game.scores`) when the search began.
        finished: False for a playout cut short (every reward 0).

    Returns:
        Per seat: its points in the hand (its side's with teams), negated
        where the lowest total wins; in a shedding game that is over, 1 less
        for the seat left holding cards.
    """
    n = world.players
    if not finished:
        return [0.0] * n
    after = world.scores
    sign = 1.0 if world.variant.scoring.higher_wins else -1.0
    out = [sign * float(after[s] - before[s]) for s in range(n)]
    if world.variant.mode is Mode.SHEDDING and world.is_over:
        result = world.result
        if result is not None and result.loser is not None:
            out[result.loser] -= 1.0
    return out


class SearchBot:
    """What both search bots share: the checks of their common settings, the
    heuristic bot's play when shown only a view, and the legal actions of a
    decision to search (subclasses give ``_pick``).

    Args:
        seed: the seed of the bot's generator.
        time_limit: seconds per decision (more than 0, at most 3600), or ``None``.
        policy: the playout policy, a key of :data:`PLAYOUT_POLICIES`.

    Raises:
        ValueError: for a time limit out of bounds or an unknown policy.
    """

    def __init__(self, seed: int | None, time_limit: float | None, policy: str) -> None:
        if time_limit is not None and not (
            isinstance(time_limit, int | float) and 0 < time_limit <= 3600
        ):
            raise ValueError(f"time_limit must be from 0 to 3600 seconds, got {time_limit!r}")
        if policy not in PLAYOUT_POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}: choose from heuristic, random")
        self._rng = random.Random(seed)
        self.time_limit = time_limit
        self._policy: Policy = PLAYOUT_POLICIES[policy]
        self._fallback = HeuristicBot(seed)

    def choose(self, view: View) -> Action:
        """From a view alone there are no worlds to search: play as the heuristic bot.

        Args:
            view: the seat's view.

        Returns:
            The heuristic bot's choice.
        """
        return self._fallback.choose(view)

    def choose_context(self, ctx: DecisionContext) -> Action:
        """From a decision context alone (a driver without the game, such as
        :meth:`Game.playout` with bots) there are no worlds either: play as the
        heuristic bot does from it (the same choice as from the view).

        Args:
            ctx: the seat's decision context.

        Returns:
            The heuristic bot's choice.
        """
        return self._fallback.choose_context(ctx)

    def choose_in(self, game: Game, seat: int) -> Action:
        """Search sampled worlds and pick ``seat``'s action.

        Args:
            game: the game (not changed; read only through the seat's
                ``sample_world``, ``legal_actions`` and ``view``).
            seat: the seat to act.

        Returns:
            One of ``game.legal_actions(seat)``.

        Raises:
            ValueError: if the seat has no legal action.
        """
        legal = game.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        if len(legal) == 1:
            return legal[0]
        return self._pick(game, seat, legal)

    def _pick(self, game: Game, seat: int, legal: tuple[Action, ...]) -> Action:
        """The search itself: one of ``legal`` (two or more)."""
        raise NotImplementedError
