"""The environments read ``variant`` and ``players`` through one helper (issue 24)."""

from __future__ import annotations

import doctest

import pytest

import cardrules
import cardrules.gymnasium as gymnasium_env
import cardrules.pettingzoo as pettingzoo_env
from cardrules import env_setup
from cardrules.dsl.loader import builtin_names
from cardrules.env_setup import default_players, resolve_table
from cardrules.errors import VariantError


def test_doctests() -> None:
    failed, attempted = doctest.testmod(env_setup)
    assert attempted and not failed


def test_a_name_loads_and_players_default_to_four_where_allowed() -> None:
    variant, players, layout = resolve_table("oh-hell", None)
    assert variant == cardrules.load("oh-hell")
    assert players == 4
    assert layout[-1].stop == len(cardrules.Game(variant, 4, seed=1).observation(0))


def test_players_default_to_the_fewest_where_four_cannot_play() -> None:
    variant = cardrules.load("oh-hell")
    narrowed = [n for n in builtin_names() if 4 not in cardrules.load(n).players]
    assert narrowed
    for name in narrowed[:3]:
        v = cardrules.load(name)
        assert default_players(v) == v.players.min
    assert default_players(variant) == 4


def test_bad_arguments_are_refused_the_same_way_by_both_environments() -> None:
    for build in (gymnasium_env.CardrulesEnv, pettingzoo_env.raw_env):
        with pytest.raises(TypeError, match="variant must be"):
            build(variant=3)  # type: ignore[arg-type]
        with pytest.raises(VariantError):
            build(variant="oh-hell", players=12)


def test_both_environments_resolve_the_same_table() -> None:
    g = gymnasium_env.CardrulesEnv("kazhutha")
    p = pettingzoo_env.raw_env("kazhutha")
    assert (g.variant, g.players) == (p.variant, p.players)
    assert g.observation_space.shape == p.observation_spaces["player_0"]["observation"].shape
