"""The worked dead trick and cut on a shedding game's page are the engine's.

The example is dealt from a stacked pack and played by the engine under the
variant's own rules (seed 001, Kazhutha rules: the A♠ opens with a dead trick,
then hearts are led, the 9♥ and K♥ follow and a player with no hearts cuts with
the A♣). These tests check that the words on the page say what the engine did,
and that house rules change them.
"""

from __future__ import annotations

import re

import pytest

import cardrules
from cardrules.cards import Card, card
from cardrules.engine import Game, Play
from cardrules.rulebook import builtin_variants, rulebook
from cardrules.rulebook.play_examples import NAMES
from cardrules.rulebook.shed import WorkedTricks, _plan, _stack, play_worked_tricks
from cardrules.rules import Direction, Mode, Variant

SHEDDING = [v for v in builtin_variants() if v.mode is Mode.SHEDDING]


def section(page: str) -> str:
    start = page.index("### A dead trick and a cut, worked through")
    return page[start : page.index("## Getting out", start)]


def seats(plays: tuple[tuple[object, ...], ...]) -> list[int]:
    return [int(e[1]) for e in plays]  # type: ignore[call-overload]


def cards_of(plays: tuple[tuple[object, ...], ...]) -> list[Card]:
    return [Card(int(e[2])) for e in plays]  # type: ignore[call-overload]


def worked(v: Variant, n: int = 4) -> WorkedTricks:
    w = play_worked_tricks(v, n)
    assert w is not None
    return w


def test_every_shedding_game_is_checked() -> None:
    assert {"kazhutha", "kazhutha-face-down", "donkey"} <= {v.name for v in SHEDDING}


#: The narration below is checked at a table of 4 (kazhutha-two-packs seats 9 to
#: 12: its page's worked tricks are checked in tests/test_pack_copies.py).
FOUR = [v for v in SHEDDING if 4 in v.players]


@pytest.mark.parametrize("v", FOUR, ids=[v.name for v in FOUR])
def test_narration_names_what_the_engine_did(v: Variant) -> None:
    w = worked(v)
    (plays1, dead), (plays2, pickup) = w.tricks
    assert dead[0] == "dead" and pickup[0] == "pickup"
    # The seed's example: a dead trick of spades, then hearts cut by the A♣.
    assert cards_of(plays1)[0] == card("A♠") and len(plays1) == 4
    assert cards_of(plays2) == [card(c) for c in ("5♥", "9♥", "K♥", "A♣")]
    text = section(rulebook(v))
    # The trick goes round in the engine's order, and the page says so.
    order = ", ".join(NAMES[s] for s in seats(plays1))
    way = (
        "clockwise, to the left"
        if v.direction is Direction.CLOCKWISE
        else "anticlockwise, to the right"
    )
    assert f"play goes {way}: {order}, and round again" in text
    # Who leads after the dead trick is the seat the engine named.
    leader = NAMES[int(dead[1])]
    assert f"so {leader} leads the next trick" in text and seats(plays2)[0] == dead[1]
    # The picker-up is the seat the engine gave the cards to: the K♥'s player.
    taker = int(pickup[1])
    assert taker == seats(plays2)[cards_of(plays2).index(card("K♥"))]
    assert f"so {NAMES[taker]} picks up all four cards (5♥, 9♥, K♥ and A♣)" in text
    cutter = NAMES[seats(plays2)[-1]]
    assert f"{cutter} has no hearts, so {cutter} cuts with the A♣" in text
    assert w.next_leader == taker and f"{NAMES[taker]} leads the third trick" in text
    assert w.hand_sizes[taker] == 15
    assert f"{NAMES[taker]} now holds 15 cards, everyone else 11." in text


def test_the_cards_on_the_page_played_in_a_fresh_game() -> None:
    """Play the cards the page names, in the page's order, in a new game dealt the
    same way: the engine makes the trick dead, then gives the cut trick to the
    player the page names."""
    v = cardrules.load("kazhutha")
    plan = _plan(v, 4)
    assert plan is not None
    g = Game(v, players=4, first_dealer=0, deck=_stack(plan[0]))
    text = section(rulebook(v))
    steps = [line for line in text.splitlines() if line[:3] in ("1. ", "2. ")]
    named = [re.findall(r"(?:the|leads the|with the) ([0-9JQKA]+[♠♥♦♣])", s) for s in steps]
    first = list(dict.fromkeys(named[0]))[:4]
    second = list(dict.fromkeys(named[1]))[:4]
    assert first == ["A♠", "2♠", "3♠", "4♠"] and second == ["5♥", "9♥", "K♥", "A♣"]
    for c in first:
        g.apply(Play(card(c)), g.to_act)
    assert g.events[-1][0] == "dead"
    n = len(g.events)
    for c in second:
        g.apply(Play(card(c)), g.to_act)
    pickup = g.events[-1]
    assert g.events[n:][-1][0] == "pickup"
    taker = re.search(r"so (\w+) picks up all four cards", steps[1])
    assert taker is not None and taker.group(1) == NAMES[int(pickup[1])]


def test_face_up_and_face_down_wording() -> None:
    up = section(rulebook(cardrules.load("kazhutha")))
    down = section(rulebook(cardrules.load("kazhutha-face-down")))
    assert "face up, where anyone may look back at them" in up and "face down" not in up
    assert "face down: everyone saw them played, and they stay in view only until the next" in (
        down
    )
    assert "face up" not in down
    # The same house rule set as an option changes the page the same way.
    opt = section(rulebook(cardrules.load("kazhutha", dead_tricks="face down")))
    assert opt == down


def test_clockwise_play_changes_the_order_and_the_picker_up() -> None:
    v = cardrules.load("kazhutha").evolve(direction=Direction.CLOCKWISE)
    w = worked(v)
    (plays1, _), (_, pickup) = w.tricks
    assert seats(plays1) == [1, 2, 3, 0]
    text = section(rulebook(v))
    assert "play goes clockwise, to the left: Ben, Chitra, Dev, Asha, and round again" in text
    assert NAMES[int(pickup[1])] == "Dev" and "so Dev picks up all four cards" in text
    anti = worked(cardrules.load("kazhutha"))
    assert seats(anti.tricks[0][0]) == [3, 2, 1, 0]


def test_first_lead_house_rules_change_the_words() -> None:
    held = section(rulebook(cardrules.load("kazhutha")))
    assert "Dev holds the A♠, so Dev leads first and must lead it." in held
    spade = section(rulebook(cardrules.load("kazhutha-any-spade")))
    assert "Dev holds the A♠, so Dev leads first, with any spade, and chooses the A♠." in spade
    w = worked(cardrules.load("kazhutha-any-spade"))
    assert set(w.first_choices) == {c for c in w.first_choices if c.suit == card("A♠").suit}
    assert len(w.first_choices) > 1
    near = section(rulebook(cardrules.load("kazhutha-neighbour-leads")))
    assert "Dev sits to the dealer's right, so Dev leads first, with any card" in near
    assert len(worked(cardrules.load("kazhutha-neighbour-leads")).first_choices) == 13


def test_five_players_the_cut_stops_the_trick() -> None:
    v = cardrules.load("kazhutha")
    w = worked(v, 5)
    (_, _), (plays2, pickup) = w.tricks
    assert len(plays2) == 4  # the fifth player never plays to it
    skipped = [s for s in w.order if s not in seats(plays2)]
    text = section(rulebook(v, players=5))
    assert f"{NAMES[skipped[0]]} does not play to it." in text
    assert f"so {NAMES[int(pickup[1])]} picks up all four cards" in text


def test_three_players() -> None:
    v = cardrules.load("donkey")
    w = worked(v, 3)
    (_, _), (plays2, pickup) = w.tricks
    assert cards_of(plays2) == [card(c) for c in ("9♥", "K♥", "A♣")]
    text = section(rulebook(v, players=3))
    assert f"so {NAMES[int(pickup[1])]} picks up all three cards (9♥, K♥ and A♣)" in text


def test_no_example_without_engine_examples() -> None:
    page = rulebook(cardrules.load("kazhutha"), engine_examples=False)
    assert "worked through" not in page and "## Getting out" in page
