"""The AEC environment's cheaper step (issue 24, item 5): masks built once a
step, rewards rebuilt only when a total changes, and nothing else different."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

import cardrules
from cardrules import pettingzoo as cz


def test_masks_are_built_once_a_step_and_others_are_read_only_zeros() -> None:
    e = cz.env("hearts")
    e.reset(seed=4)
    for _ in range(30):
        agent = e.agent_selection
        seat = int(agent.split("_")[1])
        first = e.observe(agent)
        again = e.observe(agent)
        assert first["action_mask"] is again["action_mask"]
        assert first["observation"] is again["observation"]
        legal = e.unwrapped.game.legal_action_ids(seat)
        assert np.flatnonzero(first["action_mask"]).tolist() == legal
        assert first["action_mask"].dtype == np.int8 and first["action_mask"].flags.writeable
        for other in e.agents:
            if other != agent:
                zeros = e.observe(other)["action_mask"]
                assert not zeros.any() and not zeros.flags.writeable
        e.step(legal[0])
        assert e.observe(agent)["action_mask"] is not first["action_mask"]


@pytest.mark.parametrize(("name", "hands"), [("oh-hell", "list 3, 2"), ("hearts", None)])
def test_rewards_add_up_to_the_final_totals(name: str, hands: str | None) -> None:
    """Rewards are paid only when a hand is scored, and add up to each
    agent's final total (negated where the lowest total wins)."""
    v = cardrules.load(name, hands=hands) if hands else cardrules.load(name)
    sign = 1 if v.scoring.higher_wins else -1
    e = cz.env(v, players=4)
    e.reset(seed=2)
    game = e.unwrapped.game
    got = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(2)
    paid_steps = 0
    for agent in e.agent_iter():
        _obs, reward, terminated, truncated, info = e.last()
        got[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        before = list(game.scores)
        e.step(rng.choice(info["legal_moves"]))
        changed = list(game.scores) != before
        paid = any(e.unwrapped.rewards.values())
        assert paid <= changed  # never a reward when no total changed
        paid_steps += paid
    assert paid_steps >= 1
    for s, a in enumerate(e.possible_agents):
        assert got[a] == pytest.approx(float(sign * Fraction(game.scores[s])))
