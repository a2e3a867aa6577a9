"""cardrules.openspiel: any variant as a pyspiel game, with explicit chance nodes.

OpenSpiel's own checks (``pyspiel.random_sim_test``, with serialization) on a
variant of every family, then what they do not check: the chance outcomes,
the deal they make (golden, on a stacked order), that a history replays to an
equal cardrules game, that a seat's information state ignores other seats'
hidden cards, resampling, and OpenSpiel's Python ISMCTS playing whole games.
"""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.cards import card
from cardrules.dsl.loader import builtin_names
from cardrules.engine.actions import NUM_ACTIONS, Bid, Play
from cardrules.errors import IllegalAction, InvalidAction, VariantError

np = pytest.importorskip("numpy", reason="the openspiel extra: pip install -e '.[openspiel]'")
pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra: pip install -e '.[openspiel]'"
)  # in dev, so in make test

import cardrules.openspiel as cos  # noqa: E402

# A one-hand Oh Hell (5 cards) and a two-hand one, registered under their own names.
ONE_HAND = cardrules.load("oh-hell", hands="list 5")
TWO_HANDS = cardrules.load("oh-hell", hands="list 3 2")
SMALL = cardrules.load("oh-hell", hands="list 4")


def _game(v: Any, players: int | None = None, name: str | None = None, **params: Any) -> Any:
    return cos.load_game(v, players=players, name=name, **params)


def one_hand(players: int = 4) -> Any:
    return _game(ONE_HAND, players, "cardrules_test_oh_hell_one")


def two_hands(players: int = 4) -> Any:
    return _game(TWO_HANDS, players, "cardrules_test_oh_hell_two")


# (variant, players, max_tricks): a variant of every family, kept short.
FAMILIES = [
    ("one-hand oh hell", 4, 0),
    ("two-hand oh hell", 3, 0),
    ("kachuful", 4, 12),  # cut for the first deal; crosses into hand 2
    ("callbreak", 4, 16),
    ("spades", 4, 16),  # teams, nil bids, bags
    ("hearts", 4, 16),  # passing
    ("euchre", 4, 12),  # order up, naming trumps, going alone
    ("kazhutha", 4, 0),  # shedding, pickups
    ("bhabhi", 4, 0),  # shedding with "the power": draws
    ("spades-jokers", 4, 14),  # jokers
    ("oh-hell-blind-nil", 4, 12),  # looking at cards, blind bids
    ("knockout-whist", 4, 0),  # knockouts
]


def _family_game(name: str, players: int, max_tricks: int) -> Any:
    if name == "one-hand oh hell":
        return one_hand(players)
    if name == "two-hand oh hell":
        return two_hands(players)
    return _game(name, players, max_tricks=max_tricks)


def _play_randomly(state: Any, rng: random.Random, stop: int | None = None) -> Any:
    """Random chance outcomes (by their probabilities) and random legal moves,
    up to ``stop`` player moves (the end when None)."""
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            if stop is not None and moves >= stop:
                break
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return state


# --------------------------------------------------------------------------- OpenSpiel's tests


@pytest.mark.parametrize(("name", "players", "max_tricks"), FAMILIES)
def test_random_sim_test_passes_with_serialization(
    name: str, players: int, max_tricks: int
) -> None:
    game = _family_game(name, players, max_tricks)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_an_auction_of_contracts_has_the_contract_bids_action_ids() -> None:
    # Five Hundred's bids (Contract, 430-501) lie outside NUM_ACTIONS: the
    # game's action space is widened to them, and OpenSpiel plays it.
    from cardrules.engine.actions import CONTRACT_END

    game = _game("five-hundred", 3)
    assert game.num_distinct_actions() == CONTRACT_END
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_info_follow_the_variant() -> None:
    game = one_hand(4)
    t = game.get_type()
    assert t.short_name == "cardrules_test_oh_hell_one"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.provides_information_state_tensor  # one hand: the engine's tensor
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.num_players() == 4
    assert game.max_chance_outcomes() == 52
    # 5 cards, 4 players, one hand: a tricks + 10 score is at most 15 a hand,
    # and the bound allows the tie-break hands too.
    assert game.max_utility() == -game.min_utility() >= 15
    g = cardrules.Game(ONE_HAND, 4, seed=1)
    assert game.information_state_tensor_size() == len(g.information_state_tensor(0))
    assert game.observation_tensor_size() == len(g.observation(0))
    # A game of several hands has no information state tensor in the engine.
    assert not two_hands(4).get_type().provides_information_state_tensor
    # Jokers: 54 outcomes; a shedding game pays the winners.
    assert _game("spades-jokers", 4).max_chance_outcomes() == 54
    kaz = _game("kazhutha", 4)
    assert (kaz.min_utility(), kaz.max_utility()) == (0.0, 1.0)
    assert "returns=win" in str(kaz)


def test_every_builtin_registers_and_plays() -> None:
    rng = random.Random(5)
    for name in builtin_names():
        v = cardrules.load(name)
        game = _game(name, max_tricks=6)
        assert game.get_type().short_name == cos.short_name(v)
        state = _play_randomly(game.new_initial_state(), rng)
        assert state.is_terminal()
        for r in state.returns():
            assert game.min_utility() <= r <= game.max_utility()
        assert len(state.observation_tensor(0)) == game.observation_tensor_size()


# --------------------------------------------------------------------------- chance nodes


@pytest.mark.parametrize(("name", "players", "max_tricks"), FAMILIES)
def test_chance_outcomes_sum_to_one_and_are_the_cards_left(
    name: str, players: int, max_tricks: int
) -> None:
    game = _family_game(name, players, max_tricks)
    rng = random.Random(11)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outs = state.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1.0) < 1e-9
                ids = [a for a, _ in outs]
                assert ids == sorted(set(ids)) == state.legal_actions()
                assert all(0 <= a < game.max_chance_outcomes() for a in ids)
                state.apply_action(rng.choice(ids))
            else:
                legal = state.legal_actions()
                assert legal == sorted(legal)
                state.apply_action(rng.choice(legal))


def test_the_first_dealer_is_a_chance_node_and_the_deal_goes_round() -> None:
    """Golden: a stacked order deals as the engine deals that order."""
    game = one_hand(4)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]  # first dealer: random
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "first dealer: seat 2"
    state.apply_action(2)
    spades_then_hearts = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥"
    order = [card(t) for t in spades_then_hearts.split(" ")]
    order.append(card("2♣"))  # the card turned up for trumps
    for c in order:
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == 52 - order.index(c)
        state.apply_action(int(c))
    assert not state.is_chance_node()
    g = state.cardrules_game()
    want = cardrules.Game(ONE_HAND, 4, seed=9, deck=order, first_dealer=2)
    for seat in range(4):
        assert g.hand(seat) == want.hand(seat)
    # Dealt one at a time from the dealer's neighbour (seat 3): seat 3 has the
    # first card, the dealer the fourth.
    assert card("A♠") in g.hand(3) and card("J♠") in g.hand(2)
    assert g.turned_up == card("2♣") and g.trump == card("2♣").suit
    assert state.current_player() == g.to_act == 3


def test_a_game_with_a_fixed_first_dealer_starts_with_the_deal() -> None:
    v = cardrules.load_text(
        "game: fixed-dealer\nplayers: 3\nfirst dealer: seat 1\nhand size: 2\n"
        "bidding: in turn\nscore: tricks"
    )
    game = _game(v, 3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 52  # the first card, not a dealer
    for c in range(7):  # 3 x 2 cards, then the turned-up card
        state.apply_action(c)
    assert not state.is_chance_node()
    assert state.cardrules_game().dealer == 0  # seat 1 of the file is seat 0


def test_the_power_draws_are_chance_nodes() -> None:
    game = _game("bhabhi", 4)
    rng = random.Random(3)
    draws = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node() and state._s.chance == cos._DRAW:
                draws += 1
                outs = [a for a, _ in state.chance_outcomes()]
                dead = state._s.pool
                assert outs == [c for c in range(52) if dead >> c & 1]
                for a in outs[:3]:
                    child = state.child(a)
                    assert child.cardrules_game().current_trick()[0][1] == cardrules.Card(a)
                    assert state.action_to_string(pyspiel.PlayerId.CHANCE, a).startswith("draw")
                state.apply_action(rng.choice(outs))
            elif state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert draws > 0


# --------------------------------------------------------------------------- histories


@pytest.mark.parametrize("seed", range(4))
def test_a_history_replays_to_an_equal_cardrules_game(seed: int) -> None:
    game = two_hands(4)
    state = _play_randomly(game.new_initial_state(), random.Random(seed), stop=5 + 3 * seed)
    history = state.history()
    again = game.new_initial_state()
    for a in history:
        again.apply_action(a)
    assert str(again) == str(state)
    g = state.cardrules_game()
    assert g == again.cardrules_game()
    engine = cardrules.Game(
        TWO_HANDS, 4, 0, deck=[list(d) for d in state._s.decks], first_dealer=state._s.fd
    )
    for seat, a in state._s.moves:
        engine.apply(cardrules.Action.from_id(a), seat)
    assert engine == g
    assert cardrules.replay(TWO_HANDS, g.events) == g
    assert cardrules.Game.from_json(g.to_json()) == g
    # The serialized state comes back equal.
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == history and str(back) == str(state)


def test_rewards_pay_each_hand_and_add_up_to_the_returns() -> None:
    game = two_hands(4)
    state = game.new_initial_state()
    rng = random.Random(2)
    total = np.zeros(4)
    paid_before_end = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        total += state.rewards()
        if any(state.rewards()):
            paid_before_end = True
        state.apply_action(rng.choice(state.legal_actions()))
    total += state.rewards()
    assert paid_before_end  # the first hand's points, during the second
    assert list(total) == pytest.approx(state.returns())
    res = state.cardrules_game().result
    assert state.returns() == [float(t) for t in res.totals]


def test_lowest_total_wins_is_negated() -> None:
    game = _game("hearts", 4, max_tricks=13)
    state = _play_randomly(game.new_initial_state(), random.Random(4))
    g = state.cardrules_game()
    assert state.returns() == [-float(t) for t in g.scores]


def test_illegal_actions_are_refused_and_leave_the_state_unchanged() -> None:
    state = one_hand(4).new_initial_state()
    with pytest.raises(IllegalAction):
        state.apply_action(7)  # seat 7 cannot deal
    for a in [0, *range(21)]:
        state.apply_action(a)
    before = (str(state), state.history())
    with pytest.raises(IllegalAction):
        state.apply_action(Bid(6).id)  # 5 cards
    with pytest.raises(InvalidAction):
        state.apply_action(NUM_ACTIONS + 3)
    assert (str(state), state.history()) == before
    assert state.legal_actions((state.current_player() + 1) % 4) == []  # only the seat to act


def test_register_refuses_another_variant_under_a_taken_name() -> None:
    cos.register("oh-hell")
    with pytest.raises(VariantError) as err:
        cos.register(ONE_HAND)  # also named "oh-hell"
    assert err.value.code == "bad_argument"
    with pytest.raises(VariantError):
        cos.register(ONE_HAND, name="not a name!")
    with pytest.raises(VariantError) as err:
        cos.register(ONE_HAND, name="oh_hell")  # OpenSpiel's own
    assert err.value.code == "bad_argument"
    assert cos.register(ONE_HAND, name="cardrules_test_oh_hell_one") == "cardrules_test_oh_hell_one"
    with pytest.raises(VariantError) as err:
        cos.load_game("oh-hell", players=9)
    assert err.value.code == "bad_player_count"


def test_a_missing_extra_is_a_clear_import_error() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n    import cardrules.openspiel\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'cardrules[openspiel]'" in out.stdout


# --------------------------------------------------------------------------- information states


def _swap_deal(history: list[int], a: int, b: int, deal: range) -> list[int]:
    """``history`` with the cards ``a`` and ``b`` swapped in the deal (the
    chance outcomes at the places ``deal``)."""
    out = history[:]
    for i in deal:
        out[i] = b if out[i] == a else a if out[i] == b else out[i]
    return out


def test_hidden_cards_of_other_seats_leave_a_seats_information_state_alone() -> None:
    game = one_hand(4)
    state = game.new_initial_state()
    state.apply_action(0)  # seat 0 deals: seat 1 gets the first card, seat 2 the second
    deck = list(range(52))
    random.Random(1).shuffle(deck)
    for c in deck[:21]:
        state.apply_action(c)
    # Swap a card of seat 1 with one of seat 2 (places 0 and 1 of the deal).
    other = game.new_initial_state()
    for a in _swap_deal(state.history(), deck[0], deck[1], range(1, 22)):
        other.apply_action(a)
    for seat in (0, 3):
        assert state.information_state_string(seat) == other.information_state_string(seat)
        assert state.information_state_tensor(seat) == other.information_state_tensor(seat)
        assert state.observation_string(seat) == other.observation_string(seat)
        assert state.observation_tensor(seat) == other.observation_tensor(seat)
    for seat in (1, 2):
        assert state.information_state_string(seat) != other.information_state_string(seat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 20))
def test_swapping_unplayed_cards_between_two_other_seats_is_invisible(
    seed: int, moves: int
) -> None:
    """Hypothesis: two unplayed cards of the same suit held by two other seats
    swap places in the deal; the game replays (suits held are unchanged) and
    the observing seat's strings and tensors stay equal."""
    game = one_hand(4)
    rng = random.Random(seed)
    state = _play_randomly(game.new_initial_state(), rng, stop=moves)
    if state.is_terminal():
        return
    g = state.cardrules_game()
    viewer = state.current_player()
    others = [s for s in range(4) if s != viewer]
    rng.shuffle(others)
    a_seat, b_seat = others[:2]
    pairs = [(x, y) for x in g.hand(a_seat) for y in g.hand(b_seat) if x.suit == y.suit]
    if not pairs:
        return
    x, y = rng.choice(pairs)
    other = game.new_initial_state()
    for a in _swap_deal(state.history(), int(x), int(y), range(1, 22)):
        other.apply_action(a)
    assert other.cardrules_game().hand(a_seat) != g.hand(a_seat)
    assert state.information_state_string(viewer) == other.information_state_string(viewer)
    assert state.information_state_tensor(viewer) == other.information_state_tensor(viewer)
    assert state.observation_tensor(viewer) == other.observation_tensor(viewer)
    assert state.information_state_string(a_seat) != other.information_state_string(a_seat)


def test_the_void_in_clubs_pair_gives_different_information_states() -> None:
    """Issue 14's pair: which opponent showed out of clubs is in the information
    state (the same cards fall in the trick, by different seats)."""
    v = cardrules.load_text(
        "game: voids\nplayers: 3\nhands: list 2\ntrumps: none\nbidding: in turn\nscore: tricks"
    )
    game = _game(v, 3)

    def c(text: str) -> int:
        return int(card(text))

    # Dealer seat 2: places 0 and 3 go to seat 0, 1 and 4 to seat 1, 2 and 5 to seat 2.
    a = [c("A♣"), c("2♣"), c("3♥"), c("A♥"), c("5♥"), c("4♥")]  # seat 2 has no club
    b = [c("A♣"), c("3♥"), c("2♣"), c("A♥"), c("5♥"), c("4♥")]  # seat 1 has no club
    states = []
    for deal in (a, b):
        s = game.new_initial_state()
        s.apply_action(2)
        for x in deal:
            s.apply_action(x)
        for seat in (0, 1, 2):  # bids
            assert s.current_player() == seat
            s.apply_action(s.legal_actions()[0])
        s.apply_action(Play("A♣").id)
        s.apply_action(s.legal_actions()[0])  # seat 1: 2♣ (must follow), or 3♥
        s.apply_action(s.legal_actions()[0])  # seat 2: 3♥, or 2♣ (must follow)
        states.append(s)
    ga, gb = (s.cardrules_game() for s in states)
    assert [ga.hand(s) for s in range(3)] == [gb.hand(s) for s in range(3)]
    assert states[0].information_state_string(0) != states[1].information_state_string(0)
    assert states[0].information_state_tensor(0) != states[1].information_state_tensor(0)


# --------------------------------------------------------------------------- resampling and ISMCTS


@pytest.mark.parametrize("seed", range(3))
def test_resampled_states_keep_the_players_information_state(seed: int) -> None:
    game = _game(SMALL, 3, "cardrules_test_oh_hell_4")
    rng = random.Random(seed)
    state = _play_randomly(game.new_initial_state(), rng, stop=3 + 2 * seed)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    hands = set()
    for _ in range(20):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        g = world.cardrules_game()
        hands.add(tuple(g.hand(s).mask for s in range(3)))
        assert g.hand(player) == state.cardrules_game().hand(player)
    assert len(hands) > 1  # other seats' cards do change


def test_resampling_works_in_a_later_hand() -> None:
    game = two_hands(3)
    rng = random.Random(8)
    state = _play_randomly(game.new_initial_state(), rng, stop=13)  # 3 bids + 9 cards + a bid
    assert state.cardrules_game().hand_number == 2
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    world = state.resample_from_infostate(player, sampler)
    assert world.information_state_string(player) == state.information_state_string(player)


def test_openspiel_python_ismcts_plays_whole_games() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    # A one-hand game twice, and a game of two hands (a deal in the middle).
    for game in (_game(SMALL, 3, "cardrules_test_oh_hell_4"),) * 2 + (two_hands(3),):
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert game.min_utility() <= min(state.returns())


# --------------------------------------------------------------------------- docs


def test_the_docs_page_and_docstrings_run() -> None:
    page = Path(__file__).resolve().parent.parent / "docs" / "openspiel.md"
    result = doctest.testfile(str(page), module_relative=False)
    assert result.attempted > 10 and result.failed == 0
    result = doctest.testmod(cos)
    assert result.attempted > 3 and result.failed == 0


def _at_first_decision(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def test_simultaneous_bids_made_in_turn_stay_hidden() -> None:
    """Fists: seats bid one after the other here, and no seat's information
    state shows an earlier bid before every bid is in."""
    game = _game("oh-hell-fists", 4, max_tricks=4)
    state = _at_first_decision(game, 3)
    first = state.current_player()
    bids = state.legal_actions()
    a, b = state.child(bids[0]), state.child(bids[1])
    nxt = a.current_player()
    assert nxt == b.current_player() != first
    assert a.information_state_string(nxt) == b.information_state_string(nxt)
    assert a.observation_string(nxt) == b.observation_string(nxt)
    assert a.information_state_string(first) != b.information_state_string(first)


def test_passes_made_in_turn_stay_hidden() -> None:
    """Hearts: seats choose their cards one after the other here; a seat never
    sees which cards another chose, unless they are passed to it."""
    game = _game("hearts", 4, max_tricks=4)
    state = _at_first_decision(game, 5)
    first = state.current_player()
    cards = state.legal_actions()
    a, b = state.child(cards[0]), state.child(cards[1])
    for seat in range(4):
        if seat != first:
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.information_state_string(first) != b.information_state_string(first)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(builtin_names()), seed=st.integers(0, 2**32), stop=st.integers(0, 60))
def test_every_builtin_state_is_the_engines(name: str, seed: int, stop: int) -> None:
    """Hypothesis, over every built-in: at a random point of a random game the
    state's player, legal actions, strings and tensors are the engine game's,
    and its history rebuilds an equal game."""
    game = _game(name, max_tricks=8)
    state = _play_randomly(game.new_initial_state(), random.Random(seed), stop=stop)
    g = state.cardrules_game()
    assert g is not None
    if g.is_over:
        assert state.is_terminal()
    else:
        assert state.current_player() == g.to_act
        assert state.legal_actions() == sorted(g.legal_action_ids(g.to_act))
    for seat in range(game.num_players()):
        assert state.information_state_string(seat) == g.information_state(seat)
        assert state.observation_string(seat) == g.observation_string(seat)
        assert state.observation_tensor(seat) == pytest.approx(g.observation(seat))
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert again.cardrules_game() == g
    for r in state.returns():
        assert game.min_utility() <= r <= game.max_utility()


def test_chance_nodes_show_no_card_to_any_seat() -> None:
    game = two_hands(4)
    state = game.new_initial_state()
    rng = random.Random(6)
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            for seat in range(4):
                for text in (state.observation_string(seat), state.information_state_string(seat)):
                    assert text.startswith("chance:")
                    assert not any(s in text for s in "♣♦♥♠")
                assert not any(state.observation_tensor(seat))
            seen += 1
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    # The dealer; 12 cards and a trump, 8 and a trump; 12 and a trump a tie-break hand.
    extra = state.cardrules_game().hand_number - 2
    assert seen == 1 + 13 + 9 + 13 * extra


@pytest.mark.parametrize(("name", "players", "max_tricks"), FAMILIES)
def test_resampling_every_family_keeps_the_information_state(
    name: str, players: int, max_tricks: int
) -> None:
    """Through Game.sample_world, in every family and at every phase: the
    resampled state's player, legal actions and information state are the
    real one's, and other seats' cards do change."""
    game = _family_game(name, players, max_tricks)
    rng = random.Random(21)
    sampler = pyspiel.UniformProbabilitySampler(21, 0.0, 1.0)
    checked = 0
    changed = False
    for stop in (0, 1, 4, 9, 17, 30):
        state = _play_randomly(game.new_initial_state(), rng, stop=stop)
        if state.is_terminal():
            continue
        player = state.current_player()
        real = state.cardrules_game()
        for _ in range(3):
            world = state.resample_from_infostate(player, sampler)
            assert world.current_player() == player
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.legal_actions() == state.legal_actions()
            assert len(world.history()) == len(state.history())
            w = world.cardrules_game()
            changed |= any(w.hand(s) != real.hand(s) for s in range(players) if s != player)
            checked += 1
    assert checked and changed


def test_a_pack_with_special_cards_has_their_action_ids() -> None:
    # Regression: a special card's Play id (400-429) lay outside the game's
    # num_distinct_actions (332), so OpenSpiel refused every Wizard game.
    from cardrules.engine.actions import SPECIAL_ACTION_END

    game = _game("wizard", 4, max_tricks=12)
    assert game.num_distinct_actions() == SPECIAL_ACTION_END
    assert _game("oh-hell", 4).num_distinct_actions() == NUM_ACTIONS
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
