"""Decision contexts: a seat's view read on demand, what the drivers give bots.

* every field of a context equals the same field of the seat's view, for
  every seat, in random positions of every built-in (every family);
* the context's public API is its fields, ``view``, ``legal_ids``,
  ``close`` and the masks of its hand and played cards: nothing it returns
  is the game or another seat's hidden cards, and a closed context reads the
  game no more;
* the drivers give a bot with ``choose_context`` a context and a bot with only
  ``choose`` a view; the built-in bots choose the same from either.
"""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game
from cardrules.bots import (
    ContextBot,
    HeuristicBot,
    ISMCTSBot,
    PIMCBot,
    RandomBot,
    decide,
    play_game,
)
from cardrules.bots import base as base_module
from cardrules.bots import random_bot as random_bot_module
from cardrules.dsl import builtin_names
from cardrules.engine.views import context as context_module
from cardrules.engine.views.context import FIELDS, DecisionContext
from cardrules.engine.views.view import View

DOCS = Path(__file__).resolve().parent.parent / "docs"
NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}
#: Every built-in at its fewest and its most players (inside its range).
CASES = sorted({(name, n) for name, v in VARIANTS.items() for n in (v.players.min, v.players.max)})

#: The public names of a context: its fields and these.
API = frozenset(FIELDS) | {"view", "legal_ids", "close", "hand_mask", "played_mask", "void_masks"}


def _actor(g: Game) -> int:
    seat = g.to_act
    return min(g.waiting_for) if seat is None else seat


def _walk(g: Game, rng: random.Random, steps: int) -> None:
    """``steps`` random actions (the seat to act, or the first seat waiting)."""
    for _ in range(steps):
        if g.is_over:
            return
        seat = _actor(g)
        legal = g.legal_actions(seat)
        g.apply(legal[rng.randrange(len(legal))], seat)


def _same_as_view(g: Game, seat: int) -> None:
    ctx = DecisionContext(g, seat)
    view = g.view(seat)
    for name in FIELDS:
        assert getattr(ctx, name) == getattr(view, name), name
    assert ctx.legal_ids() == tuple(a.id for a in view.legal_actions)
    # The masks are the view's cards as bits (and no hand while it is hidden).
    fresh = DecisionContext(g, seat)  # the masks read first, before the cards
    hand_mask, played_mask = fresh.hand_mask, fresh.played_mask
    assert (hand_mask is None) == (view.hand is None)
    # (several packs: one bit for a card held twice)
    assert hand_mask is None or hand_mask == sum(1 << c for c in set(view.hand or ()))
    assert played_mask == sum(1 << c for c in set(view.played))
    assert ctx.hand_mask == hand_mask and ctx.played_mask == played_mask
    voids = tuple(sum(1 << int(suit) for suit in suits) for suits in view.showed_out)
    assert fresh.void_masks == voids == ctx.void_masks
    assert ctx.view == view


def test_the_fields_are_view_fields() -> None:
    assert set(FIELDS) <= {a.name for a in attrs.fields(View)}
    assert len(set(FIELDS)) == len(FIELDS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_every_field_is_the_views(case: tuple[str, int], seed: int, steps: int) -> None:
    """In a random position of any built-in, every seat's context shows what its view does."""
    name, players = case
    g = Game(VARIANTS[name], players, seed=seed)
    _walk(g, random.Random(seed), steps)
    for seat in range(players):
        _same_as_view(g, seat)


@pytest.mark.parametrize("name", ["kachuful", "hearts", "kazhutha", "euchre", "oh-hell"])
def test_every_field_is_the_views_through_a_whole_game(name: str) -> None:
    v = VARIANTS[name]
    players = v.players.min if name == "euchre" else max(v.players.min, 4)
    g = Game(v, players, seed=3)
    rng = random.Random(3)
    for _ in range(2000):
        if g.is_over:
            break
        for seat in range(players):
            _same_as_view(g, seat)
        _walk(g, rng, 1)
    assert g.is_over
    _same_as_view(g, 0)


def _hidden_free(value: object, game: Game) -> None:
    """Nothing in ``value`` is the game or a mutable part of it."""
    assert value is not game and not isinstance(value, Game)
    if isinstance(value, tuple):
        for x in value:
            _hidden_free(x, game)
    else:
        assert not isinstance(value, list | dict | set | bytearray)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_the_public_api_reaches_nothing_hidden(
    case: tuple[str, int], seed: int, steps: int
) -> None:
    """The public names are the fields, ``view``, ``legal_ids``, ``close`` and
    the two masks;
    their values are immutable and none is the game: what a bot can read is
    what the view holds (the test above), and a world that deals the other
    seats' hidden cards otherwise gives the seat the same context."""
    name, players = case
    g = Game(VARIANTS[name], players, seed=seed)
    _walk(g, random.Random(seed), steps)
    seat = _actor(g) if not g.is_over else 0
    ctx = DecisionContext(g, seat)
    public = {n for n in dir(ctx) if not n.startswith("_")}
    assert public == API
    for n in (*FIELDS, "hand_mask", "played_mask", "void_masks"):
        _hidden_free(getattr(ctx, n), g)
    _hidden_free(ctx.legal_ids(), g)
    assert isinstance(ctx.view, View)
    if not g.is_over and g.hand_number <= 3:
        world = g.sample_world(seat, random.Random(seed))
        other = DecisionContext(world, seat)
        for n in (*FIELDS, "hand_mask", "played_mask", "void_masks"):
            assert getattr(other, n) == getattr(ctx, n), n


def test_a_closed_context_reads_the_game_no_more() -> None:
    g = Game(VARIANTS["kachuful"], 4, seed=2)
    kept: list[DecisionContext] = []

    class Keeper:
        def choose(self, view: View) -> cardrules.Action:
            return view.legal_actions[0]

        def choose_context(self, ctx: DecisionContext) -> cardrules.Action:
            kept.append(ctx)
            return ctx.legal_actions[0]

    seat = _actor(g)
    action = decide(Keeper(), g, seat)
    assert action == g.legal_actions(seat)[0]
    ctx = kept[0]
    assert ctx.legal_actions[0] == action  # read during the decision: kept
    g.apply(action, seat)
    with pytest.raises(RuntimeError, match="only while its decision is made"):
        _ = ctx.hand
    with pytest.raises(RuntimeError, match="only while its decision is made"):
        _ = ctx.view
    assert repr(ctx) == f"DecisionContext(seat={seat})"


def test_drivers_give_contexts_to_bots_that_take_them() -> None:
    seen: list[object] = []

    class ViewOnly:
        def choose(self, view: View) -> cardrules.Action:
            seen.append(view)
            return view.legal_actions[-1]

    class Both(ViewOnly):
        def choose_context(self, ctx: DecisionContext) -> cardrules.Action:
            seen.append(ctx)
            return ctx.legal_actions[-1]

    assert isinstance(Both(), ContextBot) and not isinstance(ViewOnly(), ContextBot)
    assert isinstance(RandomBot(1), ContextBot) and isinstance(HeuristicBot(), ContextBot)
    a, b = Game(VARIANTS["oh-hell"], 4, seed=4), Game(VARIANTS["oh-hell"], 4, seed=4)
    play_game(a, [ViewOnly() for _ in range(4)])
    assert seen and all(type(x) is View for x in seen)
    seen.clear()
    play_game(b, [Both() for _ in range(4)])
    assert seen and all(type(x) is DecisionContext for x in seen)
    assert a == b
    # Game.playout with a bot policy takes the same way.
    seen.clear()
    c = Game(VARIANTS["oh-hell"], 4, seed=4)
    c.playout([Both() for _ in range(4)], random.Random(1))
    assert seen and all(type(x) is DecisionContext for x in seen) and c == b


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_built_in_bots_choose_the_same_from_either(
    case: tuple[str, int], seed: int, steps: int
) -> None:
    name, players = case
    g = Game(VARIANTS[name], players, seed=seed)
    _walk(g, random.Random(seed), steps)
    if g.is_over:
        return
    seat = _actor(g)
    view = g.view(seat)
    assert HeuristicBot().choose_context(DecisionContext(g, seat)) == HeuristicBot().choose(view)
    assert RandomBot(seed).choose_context(DecisionContext(g, seat)) == RandomBot(seed).choose(view)


class _ViewHeuristic:
    """The heuristic bot shown whole views (the drivers' way before contexts)."""

    def __init__(self) -> None:
        self._bot = HeuristicBot()

    def choose(self, view: View) -> cardrules.Action:
        return self._bot.choose(view)


@pytest.mark.parametrize("name", ["oh-hell", "hearts", "kazhutha", "euchre", "callbreak"])
def test_whole_games_are_the_same_as_with_views(name: str) -> None:
    """Same seeds, same games: the context changes no choice."""
    v = VARIANTS[name]
    n = max(v.players.min, 4) if name != "euchre" else v.players.min
    a, b = Game(v, n, seed=9), Game(v, n, seed=9)
    play_game(a, [HeuristicBot() if s % 2 else RandomBot(s) for s in range(n)])
    play_game(b, [_ViewHeuristic() if s % 2 else _ViewRandom(s) for s in range(n)])
    assert a.events == b.events


class _ViewRandom:
    def __init__(self, seed: int) -> None:
        self._bot = RandomBot(seed)

    def choose(self, view: View) -> cardrules.Action:
        return self._bot.choose(view)


def test_search_bots_search_the_same_with_the_heuristic_policy_on_contexts() -> None:
    """PIMC's default playouts (the heuristic bot in every seat) now decide from
    contexts: the choices of a short game equal those of a PIMC bot whose
    playouts read whole views."""
    from cardrules.bots import search_support

    def with_views(game: Game, seat: int, rng: random.Random) -> cardrules.Action:
        return HeuristicBot().choose(game.view(seat))

    def run(policy: object) -> list[int]:
        g = Game(VARIANTS["oh-hell"], 4, seed=6)
        bot = PIMCBot(2, worlds=2)
        if policy is not None:
            bot._policy = policy  # type: ignore[assignment]
        out = []
        for _ in range(12):
            seat = _actor(g)
            a = decide(bot, g, seat)
            out.append(a.id)
            g.apply(a, seat)
        return out

    assert run(None) == run(with_views)
    assert search_support.heuristic_policy is not with_views
    g = Game(VARIANTS["callbreak"], 4, seed=1)
    assert decide(ISMCTSBot(1, iterations=20, worlds=2), g, _actor(g)) in g.legal_actions(_actor(g))


def test_doctests() -> None:
    for mod in (context_module, base_module, random_bot_module):
        failed, attempted = doctest.testmod(mod)
        assert attempted and not failed, mod.__name__
    failed, attempted = doctest.testfile(str(DOCS / "bots.md"), module_relative=False)
    assert attempted and not failed
