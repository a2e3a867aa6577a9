"""Jokers are not in the language yet: every way in refuses them cleanly.

Issue 12 plans jokers (cards 52 and 53, ``deck: standard 52 with 2 jokers``,
``Play`` ids 326 and 327). Until the whole path carries them (cards, pack,
ranks, actions, saves, views, bots, rules pages), a joker named by a stranger,
in text, a card number, a mask, an action, a variant file or a save, must be
refused with a :mod:`cardrules.errors` error saying what was wrong, never
reach a table sized for 52 cards, and leave a game unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from cardrules.cards import Card, CardSet, card
from cardrules.dsl import load, load_text
from cardrules.engine import Game
from cardrules.engine.actions import NUM_ACTIONS, Action, Discard, Pass, Play
from cardrules.errors import CardError, InvalidAction, SaveError, VariantError

VARIANT = """\
game: joker-refusal-test
players: 2 to 4
deck: {deck}
hand size: largest, keep one card for trumps
hands: 2 hands of the same size
trumps: turned up
bidding: none
follow: must follow suit
score: tricks
tie: shared
"""


@pytest.mark.parametrize("text", ["BJ", "LJ", "big joker", "little joker", "joker"])
def test_a_joker_written_as_text_is_not_a_card(text: str) -> None:
    with pytest.raises(CardError, match=r"rank|suit"):
        card(text)
    with pytest.raises(CardError):
        CardSet.parse(f"A♠ {text}")


@pytest.mark.parametrize("index", [52, 53])
def test_a_joker_number_is_not_a_card(index: int) -> None:
    with pytest.raises(CardError, match="0 to 51"):
        Card(index)
    with pytest.raises(CardError, match="out of range"):
        CardSet(1 << index)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Play(52),
        lambda: Play(53),
        lambda: Play("BJ"),
        lambda: Pass(52),
        lambda: Pass("LJ"),
        lambda: Discard(53),
        lambda: Action.from_id(NUM_ACTIONS),
    ],
)
def test_a_joker_action_is_refused(make: Callable[[], object]) -> None:
    with pytest.raises(InvalidAction):
        make()


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("standard 52 with 2 jokers", "unexpected 'with'"),
        ("standard 54", "only the standard 52-card pack"),
        ("standard 52 without BJ", "expected a card"),
    ],
)
def test_a_pack_with_jokers_is_refused_where_it_is_written(deck: str, message: str) -> None:
    with pytest.raises(VariantError, match=message) as e:
        load_text(VARIANT.format(deck=deck))
    assert ":3:" in str(e.value)


@pytest.mark.parametrize("joker", ["BJ", "LJ"])
def test_a_save_with_a_joker_in_its_deck_is_refused(joker: str) -> None:
    v = load("variants/oh-hell.cardrules")
    g = Game(v, 4, deck=list(range(52)), first_dealer=0)
    d = json.loads(g.to_json())
    d["decks"][0][-1] = joker
    with pytest.raises(SaveError):
        Game.from_json(json.dumps(d))
