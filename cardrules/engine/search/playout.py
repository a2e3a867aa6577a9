"""Playouts: a whole game (or the rest of a hand) played inside the engine.

:meth:`Game.playout <cardrules.engine.game.Game.playout>` plays the game in
place to its end (or to the end of the current hand) and returns the result
(or the hand's points). It is the rollout of a search: Monte-Carlo tree
search, determinized (PIMC) bots and value estimates run it thousands of
times from a :meth:`~cardrules.engine.game.Game.clone`.

The random policy (no ``policy``) is a tight loop over the engine's state:
at each decision, the seat to act (:attr:`Game.to_act`) takes
``legal[int(rng.random() * len(legal))]``, where ``legal`` is
:meth:`Game.legal_actions` of that seat (the interned tuple the engine keeps,
lowest id first). So the same choices made through :meth:`Game.apply` play
exactly the same game (``tests/test_playout.py`` checks it for every built-in
variant), and a seeded ``random.Random`` gives the same game every time. The
loop builds no view and no action: a card is played by the function
:meth:`Game.apply`'s hot path calls (:func:`~cardrules.engine.phases.trick._play_card`:
the card leaves the hand, the trick's running winner, broken suits, the log,
the next seat and its legal cards); a bid is made as :meth:`Game.apply` makes
it; anything else (cards passed, trumps chosen, jokers) goes through
:meth:`Game.apply`.

A given policy is asked at each decision of the seat to act: a
:class:`~cardrules.bots.Bot` (shown only that seat's
:meth:`~cardrules.engine.game.Game.view`, or its
:class:`~cardrules.engine.views.context.DecisionContext` when it has
``choose_context``), a sequence of bots (one a seat), or
a callable ``policy(game, seat) -> Action`` (shown the game itself: for
rollouts inside a search over sampled worlds, where nothing is hidden).

This module does not import :mod:`~cardrules.engine.game` (which imports it).
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from cardrules.engine.actions import JOKER_BASE, Action, Play
from cardrules.engine.phases.bidding import _do_bid
from cardrules.engine.phases.end import _next_hand
from cardrules.engine.phases.play import _play_legal
from cardrules.engine.phases.trick import _play_card
from cardrules.engine.state.compiled_rules import _fractions
from cardrules.engine.state.tables import _BID, _OVER, _PLAY
from cardrules.engine.views.context import DecisionContext

if TYPE_CHECKING:
    from cardrules.engine.game import Game
    from cardrules.engine.views.view import Result

#: The values of ``until``.
UNTIL: Final = ("game", "hand")

#: Whether this module runs compiled with mypyc (its file is then an extension).
_COMPILED: Final = not __file__.endswith(".py")

#: A policy for :func:`playout` other than the random one.
Policy = Callable[["Game", int], Action]


def playout(g: Game, policy: object, rng: object, until: object) -> Result | tuple[Fraction, ...]:
    """:meth:`Game.playout`'s work: check the arguments, play, return the outcome."""
    if until not in UNTIL:
        raise ValueError(f"until must be 'game' or 'hand', got {until!r}")
    if rng is None:
        rng = _random.Random()
    elif not isinstance(rng, _random.Random):
        raise ValueError(f"rng must be a random.Random or None, got {type(rng).__name__}")
    # The whole game: -1; one hand: the current hand's index (the loop stops
    # when the next hand is dealt or the game is over).
    hand = g._hand_index if until == "hand" else -1
    start = len(g._events)
    if policy is None:
        _random_playout(g, rng.random, hand)
    else:
        _policy_playout(g, _as_policy(policy, g._players), hand)
    if until == "game":
        result = g.result
        assert result is not None
        return result
    return _hand_points(g, start, hand)


def _bot_policy(bot: object) -> Policy | None:
    """A bot's decisions as a policy: ``choose_context`` with the seat's
    :class:`~cardrules.engine.views.context.DecisionContext` when the bot has
    it (closed when it has answered), else ``choose`` with the seat's view;
    ``None`` if ``bot`` has neither."""
    by_context = getattr(bot, "choose_context", None)
    if callable(by_context):
        ctx_choose: Callable[[Any], Action] = by_context

        def from_context(g: Game, seat: int) -> Action:
            ctx = DecisionContext(g, seat)
            try:
                return ctx_choose(ctx)
            finally:
                ctx.close()

        return from_context
    choose = getattr(bot, "choose", None)
    if callable(choose):
        bot_choose: Callable[[Any], Action] = choose

        def from_view(g: Game, seat: int) -> Action:
            return bot_choose(g.view(seat))

        return from_view
    return None


def _as_policy(policy: object, players: int) -> Policy:
    """``policy`` as a callable ``(game, seat) -> Action``."""
    one_bot = _bot_policy(policy)
    if one_bot is not None:
        return one_bot
    if isinstance(policy, Sequence) and not isinstance(policy, str):
        bots = list(policy)
        if len(bots) != players:
            raise ValueError(f"need {players} bots, one per seat, got {len(bots)}")
        policies: list[Policy] = []
        for i, b in enumerate(bots):
            p = _bot_policy(b)
            if p is None:
                raise ValueError(f"bot {i} has no choose(view) method: {type(b).__name__}")
            policies.append(p)

        def per_seat(g: Game, seat: int) -> Action:
            return policies[seat](g, seat)

        return per_seat
    if callable(policy):
        fn: Policy = policy
        return fn
    raise ValueError(
        "policy must be None (random), a bot (with choose(view)), a sequence of "
        f"bots (one a seat) or a callable (game, seat) -> Action, got {type(policy).__name__}"
    )


def _policy_playout(g: Game, policy: Policy, hand: int) -> None:
    """Ask ``policy`` for each decision of the seat to act and apply it."""
    while g._phase != _OVER and (hand < 0 or g._hand_index == hand):
        seat = g._to_act
        g.apply(policy(g, seat), seat)


#: ``2**i % 269`` -> ``i`` (0 <= i < 256: every card and copy of a game of
#: several packs; the remainders are distinct): the card of a one-bit mask,
#: without a method call.
_LOW269: Final[tuple[int, ...]] = tuple(
    next((i for i in range(256) if (1 << i) % 269 == x), -1) for x in range(269)
)


def _kth_card(m: int, k: int) -> int:
    """The ``k``-th lowest card (from 0) of the card mask ``m``."""
    while k:
        m &= m - 1
        k -= 1
    return _LOW269[(m & -m) % 269]


def _random_playout(g: Game, random: Callable[[], float], hand: int) -> None:
    """The random policy's loop: ``legal[int(random() * len(legal))]`` at each
    decision of the seat to act (see the module's docstring): a card is played
    by :func:`~cardrules.engine.phases.trick._play_card` (as :meth:`Game.apply` plays
    a legal card), a bid as :meth:`Game.apply` makes it, anything else through
    :meth:`Game.apply`.

    In the play of a game whose leader may not take a hand, the legal actions
    are the cards of ``_legal_mask`` in card order, so the ``k``-th of them is
    the ``k``-th lowest card of the mask: compiled, the card is drawn from the
    mask, the same draw, without reading the action
    (``tests/test_compiled_build.py`` checks both builds play the same playouts)."""
    # Drawing the card from the mask pays compiled (no action object is read)
    # and costs pure Python about 10% of a playout (a Python loop over the
    # mask's bits against one index): each build takes its faster way to the
    # same card.
    # Several packs: a card's Play names its card, not the copy held: the play
    # goes through Game.apply, which plays the copy held.
    copies = g._rules.copies
    cards_only = _COMPILED and not g._rules.take_hand and not copies
    while True:
        phase = g._phase
        if phase == _OVER or (hand >= 0 and g._hand_index != hand):
            return
        legal = g._legal
        if legal is None:
            legal = _play_legal(g) if phase == _PLAY else g._legal_outside_play()
        n = len(legal)
        if not n:
            raise RuntimeError(f"no legal action for seat {g._to_act} in a game not over")
        k = int(random() * n)
        if phase == _PLAY and cards_only:
            _play_card(g, g._to_act, _kth_card(g._legal_mask, k))
            continue
        a = legal[k]
        if phase == _PLAY and type(a) is Play and a.id < JOKER_BASE and not copies:
            _play_card(g, g._to_act, a.id)
        elif phase == _BID:
            # As Game.apply makes a legal bid (or look) of the seat to act.
            if _do_bid(g, g._to_act, a):
                _next_hand(g)
        else:
            g.apply(a, g._to_act)


def _hand_points(g: Game, start: int, hand: int) -> tuple[Fraction, ...]:
    """The points the hand ``hand`` (an index) scored, from its ``score`` entry in
    the log after ``start``; zeros if it scored nothing (thrown in, stopped by
    ``max_tricks``, or the game was already over)."""
    log = g._events
    for i in range(len(log) - 1, start - 1, -1):
        ev = log[i]
        if ev[0] == "score" and ev[1] == hand + 1:
            return _fractions(ev[4])
    return (Fraction(0),) * g._players
