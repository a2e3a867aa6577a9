"""``Game.playout``: a whole game (or the current hand) played inside the engine.

The random policy must play exactly the game that the same choices made through
``Game.apply`` play (``legal[int(rng.random() * len(legal))]`` of the seat to
act), in every built-in variant, from the start and from the middle of a game;
a seeded rng gives the same game; bots and callables work as policies;
``until="hand"`` stops at the end of the hand and returns its points.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game
from cardrules.bots import HeuristicBot, RandomBot, play_game
from cardrules.dsl import builtin_names
from cardrules.engine.actions import Action
from cardrules.engine.game import replay

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}
#: Every built-in variant at its fewest and its most players.
CASES = sorted({(name, n) for name, v in VARIANTS.items() for n in (v.players.min, v.players.max)})


def apply_loop(g: Game, rng: random.Random, hand: int = -1) -> None:
    """The random policy's choices, made through the public API."""
    draw = rng.random
    while not g.is_over and (hand < 0 or g.hand_number - 1 == hand):
        legal = g.legal_actions()
        seat = g.to_act
        assert seat is not None
        g.apply(legal[int(draw() * len(legal))], seat)


def test_some_variant_of_every_kind_is_covered() -> None:
    assert len(CASES) >= len(NAMES)
    assert {"oh-hell", "kachuful", "kazhutha", "euchre", "spades"} <= set(NAMES)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_playout_plays_what_apply_plays(name: str, players: int) -> None:
    v = VARIANTS[name]
    for seed in (1, 2):
        a, b = Game(v, players, seed=seed), Game(v, players, seed=seed)
        result = a.playout(rng=random.Random(seed * 7))
        apply_loop(b, random.Random(seed * 7))
        assert a.is_over
        assert a._events == b._events
        assert a == b
        assert result == b.result
        assert a.to_json() == b.to_json()
        # The log it leaves is a game the rules accept.
        assert replay(v, a.events) == a


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**32),
    before=st.integers(0, 120),
    choices=st.integers(0, 2**32),
)
def test_playout_from_the_middle_of_a_game_equals_apply(
    case: tuple[str, int], seed: int, before: int, choices: int
) -> None:
    """From any position (after some random actions, cloned, or after an undo),
    the playout and the apply loop agree, and the clone's playout leaves the
    original alone."""
    name, players = case
    g = Game(VARIANTS[name], players, seed=seed)
    apply_loop_steps(g, random.Random(seed), before)
    if g.version and seed % 3 == 0:
        g.undo()
    snapshot = g.to_json()
    a, b = g.clone(), g.clone()
    a.playout(rng=random.Random(choices))
    apply_loop(b, random.Random(choices))
    assert a == b
    assert a.result == b.result
    assert g.to_json() == snapshot


def apply_loop_steps(g: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.is_over:
            return
        legal = g.legal_actions()
        seat = g.to_act
        assert seat is not None
        g.apply(legal[int(rng.random() * len(legal))], seat)


@pytest.mark.parametrize("name", ["oh-hell", "kachuful", "kazhutha", "euchre", "spades"])
def test_a_seeded_playout_is_deterministic(name: str) -> None:
    v = VARIANTS[name]
    players = v.players.min
    games = [Game(v, players, seed=5) for _ in range(2)]
    results = [g.playout(None, random.Random(11)) for g in games]
    assert results[0] == results[1]
    assert games[0] == games[1]
    # Another rng seed plays another game (some of the choices differ).
    other = Game(v, players, seed=5)
    other.playout(None, random.Random(12))
    assert other != games[0]


def test_playout_without_an_rng_plays_to_the_end() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=3)
    result = g.playout()
    assert g.is_over and result == g.result and result.finished


@pytest.mark.parametrize("name", ["oh-hell", "kazhutha", "euchre", "hearts"])
def test_bots_as_the_policy_play_as_play_game(name: str) -> None:
    v = VARIANTS[name]
    players = v.players.min
    a, b = Game(v, players, seed=8), Game(v, players, seed=8)
    result = a.playout([HeuristicBot(s) for s in range(players)])
    play_game(b, [HeuristicBot(s) for s in range(players)])
    assert a == b and result == b.result
    # One bot for every seat.
    c, d = Game(v, players, seed=8), Game(v, players, seed=8)
    c.playout(RandomBot(4))
    bot = RandomBot(4)
    play_game(d, [bot] * players)
    assert c == d


def test_a_callable_policy_sees_the_game_and_the_seat() -> None:
    v = VARIANTS["kachuful"]
    seen: list[int] = []

    def last(game: Game, seat: int) -> Action:
        assert seat == game.to_act
        seen.append(seat)
        return game.legal_actions()[-1]

    a, b = Game(v, 4, seed=2), Game(v, 4, seed=2)
    a.playout(last)
    while not b.is_over:
        b.apply_as_current(b.legal_actions()[-1])
    assert a == b
    assert len(seen) == sum(1 for e in a.events if e.kind in ("bid", "play"))


def test_an_illegal_policy_action_is_refused_and_leaves_the_game_as_it_was() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=2)
    before: list[str] = []

    def spy(game: Game, seat: int) -> Action:
        before.append(game.to_json())
        a = game.legal_actions()[0]
        if len(before) == 6:
            wrong = next(x for x in range(52) if cardrules.Play(x) not in game.legal_actions())
            return cardrules.Play(wrong)
        return a

    with pytest.raises(cardrules.IllegalAction):
        g.playout(spy)
    assert g.to_json() == before[-1]


FAMILIES = {"kachuful", "oh-hell", "euchre", "spades", "kazhutha", "hearts", "bhabhi"}


@pytest.mark.parametrize(("name", "players"), [c for c in CASES if c[0] in FAMILIES])
def test_until_hand_stops_at_the_end_of_the_hand_with_its_points(name: str, players: int) -> None:
    v = VARIANTS[name]
    g = Game(v, players, seed=4)
    total = [Fraction(0)] * players
    hands = 0
    while not g.is_over:
        hand = g.hand_number
        b = g.clone()
        points = g.playout(rng=random.Random(hand), until="hand")
        hands += 1
        assert g.is_over or g.hand_number == hand + 1
        scored = [e for e in g.events if e.kind == "score" and e.hand_number == hand]
        if scored:
            assert points == tuple(scored[-1].points)
        else:
            assert points == (Fraction(0),) * players
        total = [t + p for t, p in zip(total, points, strict=True)]
        # The same choices through apply stop at the same place.
        apply_loop(b, random.Random(hand), hand - 1)
        assert b == g
    assert tuple(total) == g.scores
    assert hands == g.hand_number
    # On a game already over: nothing is played, no points.
    before = g.to_json()
    rng = random.Random(1)
    assert g.playout(rng=rng, until="hand") == (Fraction(0),) * players
    assert g.playout(rng=rng) == g.result
    assert g.to_json() == before


@pytest.mark.parametrize(("name", "players"), CASES[::4])
def test_until_hand_equals_apply_to_the_same_point(name: str, players: int) -> None:
    v = VARIANTS[name]
    a, b = Game(v, players, seed=6), Game(v, players, seed=6)
    for i in range(3):
        if a.is_over:
            break
        hand = a.hand_number - 1
        a.playout(rng=random.Random(i), until="hand")
        apply_loop(b, random.Random(i), hand)
        assert a == b


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"until": "trick"}, "until must be"),
        ({"rng": 5}, "rng must be"),
        ({"policy": 3}, "policy must be"),
        ({"policy": [RandomBot(1)]}, "need 4 bots"),
        ({"policy": [object()] * 4}, "bot 0 has no choose"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_played(
    kwargs: dict[str, object], match: str
) -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=1)
    before = g.to_json()
    with pytest.raises(ValueError, match=match):
        g.playout(**kwargs)  # type: ignore[call-overload]
    assert g.to_json() == before
