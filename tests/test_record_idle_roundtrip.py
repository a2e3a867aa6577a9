"""Regression (found writing `simulate --records`): a game read back from a record
or a save of a variant with idle settings (Oh Hell loaded with ``hands="list 3"``
leaves its ``hand size`` line idle) wrote a record and a save without the
``idle`` settings, which then failed to load ("`hand size` has no effect")."""

from __future__ import annotations

import random

import cardrules
from cardrules import record


def _played(v: cardrules.Variant) -> cardrules.Game:
    g = cardrules.Game(v, players=4, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    return g


def test_a_record_read_back_writes_the_same_record() -> None:
    g = _played(cardrules.load("oh-hell", hands="list 3", tie="shared"))
    text = record.dump(g)
    assert "idle: hand size" in text
    again = record.load(text)
    assert record.dump(again) == text
    third = record.load(record.dump(again))
    assert third.result == g.result and third.scores == g.scores


def test_a_save_read_back_saves_and_restores_again() -> None:
    g = _played(cardrules.load("oh-hell", hands="list 3", tie="shared"))
    once = cardrules.Game.from_json(g.to_json())
    twice = cardrules.Game.from_json(once.to_json())
    assert twice == g
    assert cardrules.Game.from_json(record.load(record.dump(g)).to_json()).result == g.result


def test_the_idle_settings_of_a_variant_are_unchanged() -> None:
    from cardrules.engine.state.saves import _idle_settings

    assert _idle_settings(cardrules.load("oh-hell", hands="list 3")) == ["hand size"]
    assert _idle_settings(cardrules.load("oh-hell")) == []
