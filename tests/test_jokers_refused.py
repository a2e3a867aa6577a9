"""Jokers at every way in (text, card number, mask, action, variant file, save):
what the language now carries, and the refusals that stay.

Cards 52 and 53 are the little and the big joker (``LJ``, ``BJ``), in play
only in a pack that has them (``deck: standard 52 with 2 jokers``) in a game
whose every hand has trumps and whose trump order ranks them. A joker named by
a stranger anywhere else is refused with a :mod:`cardrules.errors` error saying
what was wrong, never reaches a table sized for the cards in play, and leaves a
game unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from cardrules.cards import BIG_JOKER, JOKER_MASK, LITTLE_JOKER, Card, CardSet, card
from cardrules.dsl import load, load_text
from cardrules.engine import Game
from cardrules.engine.actions import JOKER_BASE, NUM_ACTIONS, Action, Discard, Pass, Play
from cardrules.errors import CardError, IllegalAction, InvalidAction, SaveError, VariantError

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

FIXED = """\
game: joker-test
players: 4
deck: {deck}
hand size: 13
hands: 1 hands of the same size
trumps: {trumps}
{order}bidding: none
follow: must follow suit
score: tricks
tie: shared
"""


@pytest.mark.parametrize(
    ("text", "joker"),
    [("BJ", 53), ("bj", 53), ("big joker", 53), ("LJ", 52), ("little joker", 52), ("Lj", 52)],
)
def test_a_joker_written_as_text_is_a_card(text: str, joker: int) -> None:
    c = card(text)
    assert int(c) == joker and c.is_joker and c is Card(joker)
    assert str(c) == c.code == ("BJ" if joker == 53 else "LJ")
    assert CardSet.parse(f"A♠ {text}").mask == card("A♠").bit | 1 << joker


@pytest.mark.parametrize("text", ["joker", "J", "BJs", "red joker", "JJ"])
def test_text_that_names_no_one_joker_is_still_refused(text: str) -> None:
    with pytest.raises(CardError, match=r"rank|suit"):
        card(text)


def test_a_joker_has_no_suit_or_rank() -> None:
    for j in (LITTLE_JOKER, BIG_JOKER):
        with pytest.raises(CardError, match="joker: it has no suit"):
            _ = j.suit
        with pytest.raises(CardError, match="joker: it has no rank"):
            _ = j.rank
    assert not any(c.is_joker for c in CardSet.full())


@pytest.mark.parametrize("index", [52, 53])
def test_a_joker_number_is_a_card_and_its_bit_a_card_set(index: int) -> None:
    assert Card(index).is_joker
    s = CardSet(1 << index)
    assert list(s) == [Card(index)] and index in s and len(s) == 1
    assert CardSet(JOKER_MASK).sorted_for_display() == [BIG_JOKER, LITTLE_JOKER]


@pytest.mark.parametrize("index", [64, 99, -1])
def test_a_number_beyond_the_special_cards_is_no_card(index: int) -> None:
    # 54-63 are the special cards of issue 23 (X1-X10); 64 on is no card of its
    # own (a bit from 64 in a card set is a copy of a card of several packs, but
    # never a copy of a joker: bit 64 + 52).
    with pytest.raises(CardError, match="0 to 63"):
        Card(index)
    with pytest.raises(CardError, match="out of range"):
        CardSet(1 << (64 + 52) if index > 0 else -1)


def test_joker_actions_take_ids_after_every_other_block() -> None:
    assert (Play(52).id, Play("BJ").id) == (JOKER_BASE, JOKER_BASE + 1) == (326, 327)
    assert (Pass("LJ").id, Pass(53).id, Discard(52).id, Discard("BJ").id) == (328, 329, 330, 331)
    # Keep() and Show() (redeal: ... may be shown) follow the jokers (332-333),
    # then Downtown(False), Downtown(True) and Misere() (334-336).
    assert NUM_ACTIONS == 337
    for a in (Play(52), Play(53), Pass(52), Pass(53), Discard(52), Discard(53)):
        assert Action.from_id(a.id) is a
    # The standard cards' ids are what they were before jokers.
    assert Play("A♠").id == 51 and Pass("2♣").id == 212 and Discard("2♣").id == 271


@pytest.mark.parametrize(
    "make",
    [
        lambda: Play(64),
        lambda: Play("joker"),
        lambda: Pass(64),
        lambda: Discard(-1),
        lambda: Action.from_id(NUM_ACTIONS),
    ],
)
def test_an_action_beyond_the_jokers_is_refused(make: Callable[[], object]) -> None:
    with pytest.raises(InvalidAction):
        make()


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("standard 52 with 2 jokers", "a joker has no suit or rank and plays as a trump"),
        ("standard 52 with 3 jokers", "too large for a number of jokers"),
        ("standard 52 with 0 jokers", "too small for a number of jokers"),
        ("standard 54", "only the standard 52-card pack"),
        ("standard 52 without BJ", "BJ is not in this pack"),
        ("standard 52 with 1 joker, without LJ", "LJ is not in this pack"),
    ],
)
def test_a_pack_with_jokers_is_refused_where_it_cannot_play(deck: str, message: str) -> None:
    with pytest.raises(VariantError, match=message) as e:
        load_text(VARIANT.format(deck=deck))
    assert ":3:" in str(e.value)


@pytest.mark.parametrize(
    ("trumps", "order", "message"),
    [
        ("none", "", "the game is played without trumps"),
        ("cycle spades, no trumps", "trump order: BJ, LJ\n", "the trump cycle has a no-trump hand"),
        ("spades", "", "the trump order does not rank them"),
        ("spades", "trump order: BJ\n", "the pack has LJ, but the trump order does not rank it"),
    ],
)
def test_jokers_need_trumps_in_every_hand_and_a_trump_order(
    trumps: str, order: str, message: str
) -> None:
    text = FIXED.format(deck="standard 52 with 2 jokers, without 2♣ 2♦", trumps=trumps, order=order)
    with pytest.raises(VariantError, match=message):
        load_text(text)


def test_a_trump_order_naming_a_joker_the_pack_lacks_is_refused() -> None:
    text = FIXED.format(deck="standard 52", trumps="spades", order="trump order: BJ\n")
    with pytest.raises(VariantError, match="the trump order names BJ, but it is not in the pack"):
        load_text(text)


def test_a_joker_in_a_game_without_jokers_is_refused_and_changes_nothing() -> None:
    v = load("variants/oh-hell.cardrules")
    with pytest.raises(CardError, match="BJ is not in this variant's pack"):
        Game(v, 4, deck=["BJ"], first_dealer=0)
    g = Game(v, 4, seed=1)
    while g.phase != "play":
        g.apply(g.legal_actions()[0], g.to_act)
    before = g.to_json()
    for j in (Play("LJ"), Play(53)):
        with pytest.raises(IllegalAction):
            g.apply(j, g.to_act)
        with pytest.raises(IllegalAction):
            g.apply_action(j.id)
    assert g.to_json() == before


@pytest.mark.parametrize("joker", ["BJ", "LJ"])
def test_a_save_with_a_joker_in_its_deck_is_refused(joker: str) -> None:
    v = load("variants/oh-hell.cardrules")
    g = Game(v, 4, deck=list(range(52)), first_dealer=0)
    d = json.loads(g.to_json())
    d["decks"][0][-1] = joker
    with pytest.raises(SaveError):
        Game.from_json(json.dumps(d))
