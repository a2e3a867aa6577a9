"""Game.sample_world: worlds a seat cannot tell from the real game."""

from __future__ import annotations

import random

import pytest

import cardrules
from cardrules import Game
from cardrules.errors import InvalidAction

RULES = "game: doc\nplayers: 4\nhand size: 5\nbidding: in turn\nscore: tricks\n"


def _played(name: str, players: int, seed: int, actions: int) -> Game:
    g = Game(cardrules.load(name), players, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if g.is_over:
            break
        s = min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(s)), s)
    return g


@pytest.mark.parametrize("name", ["oh-hell", "kachuful", "hearts", "euchre", "kazhutha"])
def test_a_world_keeps_the_seats_view_and_stream(name: str) -> None:
    v = cardrules.load(name)
    for actions in (0, 7, 19, 40):
        g = _played(name, v.players.min, 3, actions)
        for seat in range(g.players):
            w = g.sample_world(seat, random.Random(actions))
            assert w.view(seat) == g.view(seat)
            assert w.events_for(seat) == g.events_for(seat)


def test_bad_arguments_are_refused_with_codes() -> None:
    g = Game(cardrules.load_text(RULES), 4, seed=1)
    with pytest.raises(InvalidAction) as e:
        g.sample_world(4, random.Random(1))
    assert e.value.code == "bad_seat"
    with pytest.raises(InvalidAction) as e:
        g.sample_world(0, 7)  # type: ignore[arg-type]
    assert e.value.code == "bad_argument"
