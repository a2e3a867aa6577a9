"""cardrules.openspiel: observers honour the observation type, the reward model
says when rewards come, and OpenSpiel's MCTS plays a one-hand game (issue 24).

* A public observation (``public_info=True, private_info=NONE``) holds only
  what an onlooker sees: equal for two states that differ only in hidden
  cards, the same for every player, and the onlooker's view (``view(None)``)
  and its vector, checked at random points of games of several families.
* Observation types the engine has no form of are refused with ``bad_argument``.
* ``RewardModel.TERMINAL`` exactly where returns arrive only at the end (a
  one-hand game with no tie-break hand, ``win`` returns), and rewards are then
  zero before the end; OpenSpiel's Python ``MCTSBot`` plays a one-hand Oh Hell
  game to the end.
* A game of several hands refuses its information state tensor with a clear
  error (the engine has none; its type says so) and keeps the string.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.errors import CardrulesError, VariantError

np = pytest.importorskip("numpy", reason="the openspiel extra: pip install -e '.[openspiel]'")
pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra: pip install -e '.[openspiel]'"
)

from open_spiel.python.observation import make_observation  # noqa: E402

import cardrules.openspiel as cos  # noqa: E402

#: One hand of 5 cards, no tie-break hand: a tie shares the win.
ONE_HAND = cardrules.load("oh-hell", hands="list 5", tie="shared")
#: One hand of 5 cards, but a tie for the lead is played off in extra hands.
ONE_HAND_TIES = cardrules.load("oh-hell", hands="list 5")
TWO_HANDS = cardrules.load("oh-hell", hands="list 3 2")

PUBLIC = pyspiel.IIGObservationType(
    public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
)
PRIVATE = pyspiel.IIGObservationType(
    public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
)


def one_hand(players: int = 4) -> Any:
    return cos.load_game(ONE_HAND, players=players, name="cardrules_test_oh_hell_one_shared")


def _chance(state: Any, rng: random.Random) -> None:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(outcomes, probs)[0])


def _play(state: Any, rng: random.Random, stop: int | None = None) -> Any:
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        elif stop is not None and moves >= stop:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return state


def _swap_deal(history: list[int], a: int, b: int, deal: range) -> list[int]:
    out = history[:]
    for i in deal:
        out[i] = b if out[i] == a else a if out[i] == b else out[i]
    return out


def _obs(observer: Any, state: Any, player: int) -> tuple[list[float], str]:
    observer.set_from(state, player)
    return observer.tensor.tolist(), observer.string_from(state, player)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 20))
def test_the_public_observation_ignores_hidden_cards(seed: int, moves: int) -> None:
    """Two unplayed cards of one suit, held by two seats, swap places in the
    deal: the public observation is equal for the two states and for every
    player, while each of the two seats' own observation differs."""
    game = one_hand(4)
    public = make_observation(game, PUBLIC)
    private = make_observation(game, PRIVATE)
    rng = random.Random(seed)
    state = _play(game.new_initial_state(), rng, stop=moves)
    if state.is_terminal():
        return
    g = state.cardrules_game()
    a_seat, b_seat = rng.sample(range(4), 2)
    pairs = [(x, y) for x in g.hand(a_seat) for y in g.hand(b_seat) if x.suit == y.suit]
    if not pairs:
        return
    x, y = rng.choice(pairs)
    other = game.new_initial_state()
    for action in _swap_deal(state.history(), int(x), int(y), range(1, 21)):
        other.apply_action(action)
    assert other.cardrules_game().hand(a_seat) != g.hand(a_seat)
    seen = {tuple(_obs(public, s, p)[0]) for s in (state, other) for p in range(4)}
    texts = {_obs(public, s, p)[1] for s in (state, other) for p in range(4)}
    assert len(seen) == 1 and len(texts) == 1
    for seat in (a_seat, b_seat):
        assert _obs(private, state, seat) != _obs(private, other, seat)


FAMILIES = [("kachuful", 4), ("hearts", 4), ("spades", 4), ("euchre", 4), ("kazhutha", 4)]


@pytest.mark.parametrize(("name", "players"), FAMILIES)
def test_the_public_observation_is_the_onlookers_view(name: str, players: int) -> None:
    game = cos.load_game(name, players=players, max_tricks=8 if name != "kazhutha" else 0)
    public = make_observation(game, PUBLIC)
    hand = next(
        sl for sl in cardrules.observation_layout(game.variant, players) if sl.name == "hand"
    )
    rng = random.Random(7)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            _chance(state, rng)
            continue
        g = state.cardrules_game()
        for p in range(players):
            tensor, text = _obs(public, state, p)
            assert text == g.view(None).to_json()
            assert tensor == pytest.approx(g.observation(None))
            assert not any(tensor[hand.start : hand.stop])
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 5


@pytest.mark.parametrize(
    "obs_type",
    [
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        ),
        pyspiel.IIGObservationType(
            public_info=False,
            perfect_recall=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    ],
)
def test_observation_types_without_a_form_are_refused(obs_type: Any) -> None:
    with pytest.raises(VariantError) as info:
        one_hand(4).make_py_observer(obs_type)
    assert info.value.code == "bad_argument"
    assert "private_info=" in str(info.value)


# --------------------------------------------------------------------------- rewards


def test_the_reward_model_is_terminal_where_returns_come_only_at_the_end() -> None:
    terminal = pyspiel.GameType.RewardModel.TERMINAL
    rewards = pyspiel.GameType.RewardModel.REWARDS
    assert one_hand(4).get_type().reward_model == terminal
    # hands="list 5" alone can play tie-break hands, which pay as they are scored.
    ties = cos.load_game(ONE_HAND_TIES, players=4, name="cardrules_test_oh_hell_one_ties")
    assert ties.get_type().reward_model == rewards
    assert cos.load_game("kachuful", players=4).get_type().reward_model == rewards
    assert cos.load_game("kachuful", players=4, returns="win").get_type().reward_model == terminal
    assert cos.load_game("kazhutha", players=4).get_type().reward_model == terminal
    # The registered type follows the default parameters; a game's own, its own.
    assert cos.load_game("kachuful", players=4).get_type().reward_model == rewards


@pytest.mark.parametrize("which", ["one hand", "kazhutha", "kachuful win"])
def test_terminal_reward_games_pay_nothing_before_the_end(which: str) -> None:
    game = {
        "one hand": lambda: one_hand(3),
        "kazhutha": lambda: cos.load_game("kazhutha", players=4),
        "kachuful win": lambda: cos.load_game("kachuful", players=3, returns="win", max_tricks=9),
    }[which]()
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.rewards() == [0.0] * game.num_players()
        assert state.returns() == [0.0] * game.num_players()
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.rewards() == state.returns()


def test_openspiel_mcts_plays_a_one_hand_game_to_the_end() -> None:
    from open_spiel.python.algorithms import mcts

    game = one_hand(3)
    rng = np.random.RandomState(11)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 2.0, 16, evaluator, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions == 3 + 3 * 5  # three bids, fifteen cards
    assert state.cardrules_game().hand_number == 1
    assert game.min_utility() <= min(state.returns()) <= game.max_utility()


# --------------------------------------------------------------------------- info state tensor


def test_a_game_of_several_hands_refuses_its_information_state_tensor() -> None:
    game = cos.load_game(TWO_HANDS, players=3, name="cardrules_test_oh_hell_two_hands")
    assert not game.get_type().provides_information_state_tensor
    state = _play(game.new_initial_state(), random.Random(1), stop=2)
    assert state.information_state_string(0)
    with pytest.raises(CardrulesError, match="no information state tensor"):
        state.information_state_tensor(0)
    observer = game.make_py_observer(
        pyspiel.IIGObservationType(
            public_info=True,
            perfect_recall=True,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )
    )
    with pytest.raises(CardrulesError, match="one-hand trick-taking games only"):
        observer.set_from(state, 0)
