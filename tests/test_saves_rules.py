"""Saved games carry their resolved rules, so options and house-rule files restore."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardrules
from cardrules import Game, SaveError


def play_some(g: Game, steps: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()), g.to_act)


def test_a_game_with_options_restores_without_the_variant() -> None:
    v = cardrules.load("kachuful", hook=False, hand_size=5)
    g = Game(v, players=4, seed=3)
    play_some(g, 30)
    back = Game.from_json(g.to_json())
    assert back == g
    assert back.variant == v
    assert back.variant.bidding.hook is False


def test_a_house_rule_file_restores_without_the_file(tmp_path: Path) -> None:
    f = tmp_path / "menon.cardrules"
    f.write_text(
        'game: menon\nextends: kachuful\nsummary: "ours"\nhands: down to 1\n', encoding="utf-8"
    )
    v = cardrules.load(str(f))
    g = Game(v, players=3, seed=9)
    play_some(g, 20)
    f.unlink()  # the save must not need the file any more
    assert Game.from_json(g.to_json()) == g


def test_tampered_rules_in_a_save_are_refused() -> None:
    g = Game(cardrules.load("oh-hell"), players=4, seed=2)
    play_some(g, 10)
    data = json.loads(g.to_json())
    data["variant"]["rules"] = data["variant"]["rules"].replace("hook: yes", "hook: no")
    with pytest.raises(SaveError, match="different rules"):
        Game.from_json(json.dumps(data))
    data["variant"]["rules"] = "game: oh-hell\nplayers: 3 to 99999\n"
    with pytest.raises(SaveError):
        Game.from_json(json.dumps(data))
    data["variant"]["rules"] = 42
    with pytest.raises(SaveError, match="variant text"):
        Game.from_json(json.dumps(data))


def test_saved_rules_never_follow_extends_to_a_file() -> None:
    g = Game(cardrules.load("oh-hell"), players=4, seed=2)
    data = json.loads(g.to_json())
    data["variant"]["rules"] = 'game: oh-hell\nextends: "../../etc/passwd"\n'
    with pytest.raises(SaveError):
        Game.from_json(json.dumps(data))
