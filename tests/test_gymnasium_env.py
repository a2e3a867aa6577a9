"""The Gymnasium environment (cardrules.gymnasium): Gymnasium's own
check_env on built-ins of every family, the registered ids, the promises of
the module (mask, observation, rewards, illegal actions) and that an
observation holds nothing hidden from the seat."""

from __future__ import annotations

import doctest
import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
import cardrules.bounds
import cardrules.engine.actions
import cardrules.gymnasium as cg
import cardrules.pettingzoo as cz
from cardrules import llm
from cardrules.bots import RandomBot
from cardrules.dsl.loader import builtin_names
from cardrules.errors import IllegalAction, InvalidAction

#: A built-in of each family: bidding, passing (Hearts), trumps made by
#: ordering up (Euchre), blind bids, simultaneous bids, shedding (Kazhutha,
#: Bhabhi), knock-outs.
FAMILIES = [
    ("oh-hell", 4),
    ("hearts", 4),
    ("euchre-defend-alone", 4),
    ("kachuful-blind", 5),
    ("oh-hell-fists", 4),
    ("kazhutha", 4),
    ("bhabhi", 3),
    ("knockout-whist", 4),
]

#: Gymnasium's warnings that say nothing wrong: the running totals have no
#: bound, so the Box is unbounded there; an env built directly has no spec.
_EXPECTED = (
    "A Box observation space maximum value is infinity",
    "A Box observation space minimum value is -infinity",
    "Not able to test alternative render modes",
)


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if not any(e in str(w.message) for e in _EXPECTED)]


@pytest.mark.parametrize(("name", "players"), FAMILIES)
def test_check_env_passes(name: str, players: int) -> None:
    """Gymnasium's check_env passes, for seat 0 and seat 2, random and heuristic bots."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(cg.CardrulesEnv(name, players=players, opponents="random"))
        check_env(
            cg.CardrulesEnv(
                name, players=players, seat=2, opponents="heuristic", render_mode="ansi"
            )
        )
    assert _unexpected(caught) == []


def test_every_builtin_is_registered_and_makes() -> None:
    ids = cg.register_builtins()
    assert ids == [cg.env_id(n) for n in builtin_names()]
    assert all(i in gymnasium.registry for i in ids)
    env = gymnasium.make("cardrules/hearts-v0", opponents="random", seat=1)
    obs, info = env.reset(seed=3)
    assert env.unwrapped.seat == 1 and env.unwrapped.variant.name == "hearts"
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert info["action_mask"].shape == (env.action_space.n,)
    # options go through a Variant
    one = cardrules.load("oh-hell", hands="list 5", tie="shared")
    env = gymnasium.make("cardrules/oh-hell-v0", variant=one, opponents="random")
    env.reset(seed=1)
    assert env.unwrapped.game.hand_size == 5


def _episode(env: cg.CardrulesEnv, seed: int, check: bool = True) -> tuple[float, int]:
    """Play an episode with random legal moves; (sum of rewards, steps)."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        game = env.game
        assert game is not None
        if check:
            seat = env.seat
            assert obs.tolist() == pytest.approx(game.observation(seat))
            assert env.observation_space.contains(obs)
            legal_ids = sorted(game.legal_action_ids(seat))
            assert np.flatnonzero(info["action_mask"]).tolist() == legal_ids
            assert env.action_masks().tolist() == info["action_mask"].astype(bool).tolist()
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        if terminated or truncated:
            assert not info["action_mask"].any()
            return total, steps


@pytest.mark.parametrize("seat", [0, 3])
def test_points_add_up_to_the_seats_final_total(seat: int) -> None:
    env = cg.CardrulesEnv("oh-hell", seat=seat, opponents="random")
    total, _ = _episode(env, seed=seat + 11)
    assert env.game is not None and env.game.is_over
    assert total == pytest.approx(float(env.game.scores[seat]))


def test_hearts_rewards_are_the_negated_total() -> None:
    env = cg.CardrulesEnv("hearts", opponents="random")
    total, _ = _episode(env, seed=5, check=False)
    assert env.game is not None and env.game.is_over
    assert total == pytest.approx(-float(env.game.scores[0]))


def test_shedding_reward_is_the_share_of_the_win() -> None:
    seen = set()
    for seed in range(12):
        env = cg.CardrulesEnv("kazhutha", opponents="random")
        total, _ = _episode(env, seed=seed, check=False)
        result = env.game.result  # type: ignore[union-attr]
        assert result is not None
        won = 0 in result.winners
        assert (total > 0) == won
        seen.add(won)
    assert seen == {True, False}


def test_illegal_action_terminates_with_the_penalty_or_raises() -> None:
    env = cg.CardrulesEnv("callbreak", opponents="random", illegal_reward=-5.0)
    obs, info = env.reset(seed=3)
    version = env.game.version  # type: ignore[union-attr]
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert env.game.version == version and (obs2 == obs).all()  # type: ignore[union-attr]
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = cg.CardrulesEnv("callbreak", opponents="random", illegal="raise")
    _, info = strict.reset(seed=3)
    with pytest.raises(IllegalAction) as err:
        strict.step(illegal)
    assert err.value.code == "not_in_phase"
    with pytest.raises(InvalidAction):
        strict.step("bid 2")
    with pytest.raises(InvalidAction):
        strict.step(10**6)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    strict.step(legal)  # the environment goes on


def test_max_actions_truncates() -> None:
    env = cg.CardrulesEnv("hearts", opponents="random", max_actions=30)
    _, info = env.reset(seed=1)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[0]))
        done = terminated or truncated
    assert truncated and not terminated
    assert env.game.version == 30  # type: ignore[union-attr]


def test_seeds_repeat_and_opponents_can_be_factories() -> None:
    def run(opponents: Any) -> list[float]:
        env = cg.CardrulesEnv("kachuful", opponents=opponents)
        obs, info = env.reset(seed=9)
        out = [float(obs.sum())]
        for _ in range(15):
            obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            out += [float(obs.sum()), r]
            if term or trunc:
                break
        return out

    assert run("heuristic") == run("heuristic")
    assert run(RandomBot) == run(["random", RandomBot, "random"])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        cg.CardrulesEnv("oh-hell", seat=4)
    with pytest.raises(ValueError, match="unknown bot"):
        cg.CardrulesEnv("oh-hell", opponents="grandmaster")
    with pytest.raises(ValueError, match="3 other seats"):
        cg.CardrulesEnv("oh-hell", opponents=["random"])
    with pytest.raises(TypeError):
        cg.CardrulesEnv("oh-hell", opponents=5)
    with pytest.raises(ValueError, match="illegal"):
        cg.CardrulesEnv("oh-hell", illegal="ignore")
    with pytest.raises(ValueError, match="reward"):
        cg.CardrulesEnv("oh-hell", reward="money")
    with pytest.raises(ValueError, match="max_actions"):
        cg.CardrulesEnv("oh-hell", max_actions=0)
    with pytest.raises(ValueError, match="render_mode"):
        cg.CardrulesEnv("oh-hell", render_mode="human")
    with pytest.raises(ValueError, match="seed"):
        cg.CardrulesEnv("oh-hell").reset(seed=-1)


def test_render_is_the_seats_text() -> None:
    env = cg.CardrulesEnv("oh-hell", seat=1, opponents="random", render_mode="ansi")
    env.reset(seed=2)
    assert env.game is not None
    assert env.render() == llm.describe(env.game.view(1), "oh-hell")


# ---------------------------------------------------------------- nothing hidden

_HIDDEN_CASES = ["oh-hell", "hearts", "kazhutha", "euchre", "kachuful-blind", "spades", "bhabhi"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(_HIDDEN_CASES),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 12),
)
def test_observation_and_prompt_hold_nothing_hidden(name: str, seed: int, moves: int) -> None:
    """Two games that differ only in the cards of two other seats give a seat
    the same observation (the Gymnasium and PettingZoo ones) and the same
    prompt, whenever its view is the same; and in these games, without
    forehead hands, it is the same at the deal."""
    variant = cardrules.load(name)
    n = max(variant.players.min, min(4, variant.players.max))
    g1 = cardrules.Game(variant, n, seed=seed)
    seat = g1.to_act if g1.to_act is not None else 0
    a, b = [s for s in range(n) if s != seat][:2]
    (hands, turned), *_ = g1.deals()
    if len(hands[a]) != len(hands[b]):
        return
    swapped = list(hands)
    swapped[a], swapped[b] = hands[b], hands[a]
    g2 = cardrules.Game.from_deals(variant, n, [(swapped, turned)], first_dealer=g1.dealer)
    rng = random.Random(seed)
    for k in range(moves + 1):
        if k:  # the same move in both games, while it is legal in both
            if g1.is_over or g2.is_over or g1.to_act != g2.to_act:
                break
            legal = g1.legal_action_ids()
            move = legal[int(rng.random() * len(legal))]
            if move not in g2.legal_action_ids():
                break
            g1.apply_action(move)
            g2.apply_action(move)
        if g1.view(seat) != g2.view(seat):
            # at the deal only who is to act may differ (who holds the card that leads)
            assert k > 0 or g1.to_act != g2.to_act, "the swap showed in the view at the deal"
            continue
        env1 = cg.CardrulesEnv(variant, players=n, seat=seat, opponents="random")
        env2 = cg.CardrulesEnv(variant, players=n, seat=seat, opponents="random")
        env1.game, env2.game = g1, g2
        assert (env1._observation() == env2._observation()).all()
        assert llm.prompt(g1, seat) == llm.prompt(g2, seat)
        aec1 = cz.raw_env(variant, n)
        aec2 = cz.raw_env(variant, n)
        aec1.reset(options={"game": g1})
        aec2.reset(options={"game": g2})
        agent = aec1.possible_agents[seat]
        o1, o2 = aec1.observe(agent), aec2.observe(agent)
        assert (o1["observation"] == o2["observation"]).all()
        assert (o1["action_mask"] == o2["action_mask"]).all()


def test_module_doctests() -> None:
    for module in (cg, cardrules.bounds):
        failed, attempted = doctest.testmod(module)
        assert failed == 0 and attempted >= 2


def test_environments_pickle_and_copy_mid_game() -> None:
    """Vectorised and multiprocess training copy environments: the Gymnasium
    and parallel ones go on from the same position after a pickle round trip."""
    import copy
    import pickle

    env = cg.CardrulesEnv("oh-hell", opponents="random")
    _, info = env.reset(seed=4)
    move = int(np.flatnonzero(info["action_mask"])[0])
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        a, b = env.__class__.step(twin, move), copy.deepcopy(env).step(move)
        assert (a[0] == b[0]).all() and a[1:4] == b[1:4]
    par = cz.parallel_env("hearts", 4)
    par.reset(seed=2)
    again = pickle.loads(pickle.dumps(par))
    assert again.game is not None and again.game.to_json() == par.game.to_json()  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "players"), [("five-hundred", 3), ("bid-whist", 4)])
def test_auctions_of_contracts_fit_the_action_space(name: str, players: int) -> None:
    """Regression: the environment's space was NUM_ACTIONS wide, so a contract
    bid's id (430 and up) raised IndexError when the mask was built."""
    env = cg.CardrulesEnv(name, players=players, opponents="random")
    assert env.action_space.n == cardrules.engine.actions.num_actions_of(env.variant)
    for seed in range(3):
        _episode(env, seed)


@pytest.mark.parametrize("name", sorted(cg.ONE_HAND))
def test_one_hand_presets_are_one_hand_without_tie_breaks(name: str) -> None:
    env = gymnasium.make(f"cardrules/{name}-1hand-v0", opponents="random")
    cards = cg.ONE_HAND[name]
    for seed in range(25):
        _episode(env.unwrapped, seed, check=False)
        game = env.unwrapped.game
        assert game.is_over
        deals = [e for e in game.events_for(None) if e[0] == "deal"]
        assert len(deals) == 1 and game.hand_size == cards
    with pytest.raises(ValueError, match="no one-hand preset"):
        cg.one_hand_env("hearts")
    with pytest.raises(ValueError, match="positive int"):
        cg.one_hand_env("oh-hell", cards=0)
