"""Card points on special cards and jokers (``card points: wizards 10,
jesters -5``, ``jokers 5``; issue 23, capability 1): the line reads, writes
back and checks the kinds against the pack; each card of a kind carries the
points in the score, in the view and on the way back from a save; a special
card named alone (``X1 10``) no longer crashes the loader.
"""

from __future__ import annotations

import pytest
from catalog_support import stack

import cardrules
from cardrules import Bid, Game, Play, card
from cardrules.dsl import format, load_text
from cardrules.errors import VariantError
from cardrules.rules import points_of_cards

WIZARD_POINTS = (
    "game: wizard-points\nextends: wizard\nhand size: 1\nhands: 3 hands of the same size\n"
    "score: points\ncard points: wizards 10, jesters -5\n"
)


def test_a_kind_gives_each_of_its_cards_the_points() -> None:
    v = load_text(WIZARD_POINTS)
    assert v.scoring.kind_points == (("wizards", 10), ("jesters", -5))
    values = points_of_cards(v)
    assert values[54:58] == (10, 10, 10, 10) and values[58:62] == (-5, -5, -5, -5)
    assert not any(values[:54])


def test_the_line_writes_back_as_it_reads() -> None:
    text = WIZARD_POINTS.replace("wizards 10, jesters -5", "hearts 1, wizards 10, X2 7")
    v = load_text(text)
    assert "card points: hearts 1, wizards 10, X2 7" in format(v)
    assert cardrules.parse(format(v), path="<again>") == v
    # The card named alone keeps its own value; its kind's other cards take the kind's.
    assert points_of_cards(v)[54:58] == (10, 7, 10, 10)


def test_a_trick_of_wizards_and_a_jester_scores_their_points() -> None:
    v = load_text(WIZARD_POINTS)
    deal = stack("A♥", "X1", "X5", "X2", turn="2♠")
    g = Game(v, 4, deck=deal, first_dealer=3)
    for s in range(4):
        g.apply(Bid(0), s)
    for c in ("A♥", "X1", "X5", "X2"):
        g.apply(Play(card(c)), g.to_act)
    # The first wizard played wins: 10 + 10 - 5.
    assert g.scores[1] == 15 and g.scores[0] == g.scores[2] == g.scores[3] == 0
    view = g.view(0)
    assert len(view.card_points) == 64 and view.card_points[54] == 10
    assert view.to_dict()["card_points"][58] == -5


def test_a_save_of_a_game_with_kind_points_loads() -> None:
    v = load_text(WIZARD_POINTS)
    g = Game(v, 4, seed=2)
    g.apply_as_current(g.legal_actions()[0])
    again = Game.from_json(g.to_json(), v)
    assert again.view(0).card_points == g.view(0).card_points
    assert again.view(0).card_points[54] == 10


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("card points: gnomes 3", "the pack has no gnomes"),
        ("card points: jokers 5", "the pack has no joker"),
        ("card points: wizards 10, wizards 3", "given points twice"),
    ],
)
def test_a_kind_the_pack_lacks_is_refused_at_the_line(line: str, said: str) -> None:
    with pytest.raises(VariantError) as info:
        load_text(WIZARD_POINTS.replace("card points: wizards 10, jesters -5", line))
    assert said in str(info.value)


def test_a_suit_and_a_card_still_read_as_a_suit_and_a_card() -> None:
    v = load_text("game: x\nextends: hearts\ncard points: hearts 1, qs 13\n")
    assert v.scoring.kind_points == ()
    assert v.scoring.card_points == cardrules.load("hearts").scoring.card_points


def test_the_jokers_as_a_kind() -> None:
    v = load_text(
        "game: x\nextends: spades-jokers\nscore: points\ncard points: hearts 1, jokers 5\n"
    )
    values = points_of_cards(v)
    assert values[52] == values[53] == 5 and values[26] == 1


def test_a_special_card_named_alone_no_longer_crashes_the_loader() -> None:
    """Regression: `card points: X1 10` raised IndexError (52 or 54 values
    only), so `cardrules check` said "cannot read the file (IndexError)"."""
    v = load_text(WIZARD_POINTS.replace("wizards 10, jesters -5", "X1 10"))
    assert points_of_cards(v)[54] == 10 and len(v.scoring.card_points) == 64
