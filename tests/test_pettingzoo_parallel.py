"""The PettingZoo parallel environment (cardrules.pettingzoo.parallel_env):
PettingZoo's parallel_api_test on a built-in of every family, and its
promise: one parallel step is the AEC step of the agent to act, with the same
observations, rewards and game."""

from __future__ import annotations

import contextlib
import io
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel

import cardrules
import cardrules.pettingzoo as cz
from cardrules.errors import IllegalAction, InvalidAction

FAMILIES = [
    ("oh-hell", 4, 800),
    ("hearts", 4, 400),
    ("kazhutha", 4, 400),
    ("bhabhi", 3, 400),
    ("euchre-defend-alone", 4, 400),
    ("kachuful-forehead", 4, 400),
    ("oh-hell-fists", 4, 400),
    ("knockout-whist", 4, 400),
]


@pytest.mark.parametrize(("name", "players", "cycles"), FAMILIES)
def test_parallel_api_test(name: str, players: int, cycles: int) -> None:
    """PettingZoo's parallel_api_test passes without a warning. (Its
    parallel_seed_test steps unmasked random actions, which a card game
    refuses; seeds are checked by the test after this one.)"""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            parallel_api_test(cz.parallel_env(name, players), num_cycles=cycles)
    assert "Passed Parallel API test" in out.getvalue()
    assert [str(w.message) for w in caught] == []


def test_a_seed_repeats_the_whole_run() -> None:
    def run() -> list[object]:
        e = cz.parallel_env("kachuful", 5)
        out: list[object] = []
        for seed in (11, None, None):  # later resets draw their seeds from 11
            observations, infos = e.reset(seed=seed)
            rng = random.Random(3)
            for _ in range(60):
                (agent,) = [a for a in e.agents if infos[a]["legal_moves"]]
                observations, rewards, *_, infos = e.step(
                    {agent: rng.choice(infos[agent]["legal_moves"])}
                )
                out.append((agent, rewards, observations[agent]["observation"].tolist()))
        return out

    assert run() == run()


def test_one_short_game_ends_for_every_agent_together() -> None:
    one = cardrules.load("oh-hell", hands="list 3", tie="shared")
    e = cz.parallel_env(one, 4)
    observations, infos = e.reset(seed=4)
    rng = random.Random(4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    while e.agents:
        (agent,) = [a for a in e.agents if observations[a]["action_mask"].any()]
        assert (
            infos[agent]["legal_moves"]
            == np.flatnonzero(observations[agent]["action_mask"]).tolist()
        )
        observations, rewards, terminations, truncations, infos = e.step(
            {agent: rng.choice(infos[agent]["legal_moves"])}
        )
        steps += 1
        for a, r in rewards.items():
            totals[a] += r
        assert len(set(terminations.values())) == 1 and not any(truncations.values())
    assert e.game is not None and e.game.is_over and e.game.version == steps
    assert totals == {f"player_{s}": float(t) for s, t in enumerate(e.game.result.totals)}
    assert e.step({}) == ({}, {}, {}, {}, {})


def test_a_parallel_step_is_the_aec_step_of_the_agent_to_act() -> None:
    par = cz.parallel_env("hearts", 4)
    aec = cz.raw_env("hearts", 4)
    observations, _ = par.reset(seed=8)
    aec.reset(seed=8)
    rng = random.Random(8)
    for _ in range(150):
        agent = aec.agent_selection
        for a in par.agents:
            mine = aec.observe(a)
            assert np.array_equal(observations[a]["observation"], mine["observation"])
            assert np.array_equal(observations[a]["action_mask"], mine["action_mask"])
        move = rng.choice(aec.infos[agent]["legal_moves"])
        # the other agents' actions are ignored, whatever they are
        actions = dict.fromkeys(par.agents, 0)
        actions[agent] = move
        observations, rewards, *_ = par.step(actions)
        aec.step(move)
        assert rewards == aec.rewards
    assert par.game is not None and par.game.to_json() == aec.game.to_json()  # type: ignore[union-attr]


def test_missing_and_illegal_actions_are_refused_and_change_nothing() -> None:
    e = cz.parallel_env("oh-hell", 4)
    observations, infos = e.reset(seed=3)
    (agent,) = [a for a in e.agents if infos[a]["legal_moves"]]
    other = next(a for a in e.agents if a != agent)
    with pytest.raises(InvalidAction, match="agent to act"):
        e.step({other: 0})
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        e.step({agent: illegal})
    with pytest.raises(InvalidAction):
        e.step({agent: "bid 2"})
    assert e.game is not None and e.game.version == 0
    e.step({agent: infos[agent]["legal_moves"][0]})
    assert e.game.version == 1


def test_max_actions_truncates_every_agent_together() -> None:
    e = cz.parallel_env("hearts", 4, max_actions=10)
    _, infos = e.reset(seed=1)
    for _ in range(10):
        (agent,) = [a for a in e.agents if infos[a]["legal_moves"]]
        _, _, terminations, truncations, infos = e.step({agent: infos[agent]["legal_moves"][0]})
    assert all(truncations.values()) and not any(terminations.values())
    assert e.agents == []


def test_aec_to_parallel_still_refuses_the_aec_environment() -> None:
    """Its cycle is not one action per agent: the AEC environment says so, and
    parallel_env is the way (the docs say why)."""
    assert cz.raw_env("oh-hell").metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(cz.env("oh-hell"))
