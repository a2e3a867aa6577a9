"""The vectorised Gymnasium environment (cardrules.gymnasium_vector): the
seat acts in every game at every step, each episode's rewards add up to the
seat's final total, observations and masks are the engine's, on the fast
kernel (random opponents) and game by game (bots)."""

from __future__ import annotations

import doctest

import gymnasium
import numpy as np
import pytest

import cardrules
import cardrules.gymnasium_vector as cv
from cardrules.batch import GameBatch, TrickKernel
from cardrules.gymnasium_vector import CardrulesVectorEnv


def one_hand(name: str, size: int = 4) -> cardrules.Variant:
    v = cardrules.load(name)
    one = cardrules.load("oh-hell", hands=f"list {size}", tie="shared")
    return v.evolve(schedule=one.schedule, winning=one.winning)


def run(env: CardrulesVectorEnv, steps: int, seed: int) -> int:
    """Random legal steps; checks the promises of the module; the episodes ended."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    total = np.zeros(env.num_envs)
    ended = 0
    sign = 1.0 if env.variant.scoring.higher_wins else -1.0
    for _ in range(steps):
        assert obs.shape == (env.num_envs, env.single_observation_space.shape[0])
        assert env.observation_space.contains(obs)
        mask = infos["action_mask"]
        assert mask.any(axis=1).all()
        assert (env.batch.seats == env.seat).all()
        if isinstance(env.batch, GameBatch):
            for i, g in enumerate(env.batch.games):
                assert np.array_equal(obs[i], np.asarray(g.observation(env.seat), np.float32))
                assert g.legal_action_ids(env.seat) == list(np.flatnonzero(mask[i]))
        keys = rng.random(mask.shape) * mask
        obs, rewards, term, trunc, infos = env.step(keys.argmax(axis=1))
        assert not trunc.any()
        total += rewards
        for i in np.flatnonzero(term):
            assert total[i] == sign * infos["final_scores"][i, env.seat]
            total[i] = 0.0
            ended += 1
    return ended


def test_random_opponents_run_on_the_kernel() -> None:
    env = CardrulesVectorEnv(one_hand("oh-hell"), num_envs=32, seat=2, opponents="random")
    assert isinstance(env.batch, TrickKernel)
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    assert run(env, 20, seed=4) >= 32 * 3


def test_rewards_add_up_over_whole_games_on_the_kernel() -> None:
    text = "game: t\nextends: kachuful\nhand size: 3\ntie: shared\n"
    env = CardrulesVectorEnv(cardrules.load_text(text), num_envs=16, seat=3)
    assert isinstance(env.batch, TrickKernel)
    assert run(env, 40, seed=2) >= 16


@pytest.mark.parametrize(
    ("name", "opponents"),
    [("oh-hell", "heuristic"), ("hearts", "random"), ("kazhutha", "heuristic")],
)
def test_bots_play_game_by_game(name: str, opponents: str) -> None:
    v = cardrules.load(name) if name == "kazhutha" else one_hand(name)
    env = CardrulesVectorEnv(v, num_envs=3, seat=1, opponents=opponents)
    assert isinstance(env.batch, GameBatch)
    run(env, 25, seed=7)


def test_a_seed_gives_the_same_episodes() -> None:
    a = CardrulesVectorEnv(one_hand("oh-hell"), num_envs=4)
    b = CardrulesVectorEnv(one_hand("oh-hell"), num_envs=4)
    assert np.array_equal(a.reset(seed=9)[0], b.reset(seed=9)[0])
    acts = a.action_masks().argmax(axis=1)
    assert np.array_equal(a.step(acts)[0], b.step(acts)[0])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        CardrulesVectorEnv(one_hand("oh-hell"), num_envs=2, seat=4)
    with pytest.raises(ValueError, match="unknown bot"):
        CardrulesVectorEnv(one_hand("oh-hell"), num_envs=2, opponents="nobody")
    with pytest.raises(ValueError, match="vectorised"):
        CardrulesVectorEnv(one_hand("oh-hell"), num_envs=2, opponents="heuristic", kernel=True)
    with pytest.raises(cardrules.VariantError, match="kernel cannot play"):
        CardrulesVectorEnv("hearts", num_envs=2, kernel=True)
    env = CardrulesVectorEnv(one_hand("oh-hell"), num_envs=2)
    env.reset(seed=1)
    bad = np.array([int(np.flatnonzero(~m)[0]) for m in env.action_masks()])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)


def test_the_module_examples_run() -> None:
    assert doctest.testmod(cv).failed == 0
