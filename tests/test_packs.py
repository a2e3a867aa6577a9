"""Packs as data: whole ranks out (``without 2s to 6s``), several standard packs
(``deck: 2 standard packs``) and which of two identical cards ranks higher."""

from __future__ import annotations

import pytest

import cardrules
from cardrules.cards import Rank
from cardrules.dsl.formatter import format as format_variant
from cardrules.errors import VariantError

BASE = "game: x\nplayers: 4\nhand size: 5\nscore: tricks\n"


def _load(deck_line: str) -> cardrules.Variant:
    return cardrules.load_text(BASE + deck_line)


def _ranks_left(v: cardrules.Variant) -> set[int]:
    return {int(c.rank) for c in v.deck.cards}


@pytest.mark.parametrize(
    ("line", "ranks_out", "extra_out"),
    [
        ("deck: standard 52 without 2s to 6s", {2, 3, 4, 5, 6}, 0),
        ("deck: standard 52 without 2s, 3s and 4s", {2, 3, 4}, 0),
        ("deck: standard 52 without 2s, 3s, and 4s, 5♣", {2, 3, 4}, 1),
        ("deck: standard 52 without jacks and queens", {11, 12}, 0),
        ("deck: standard 52 without 10s and aces", {10, 14}, 0),
    ],
)
def test_whole_ranks_come_out(line: str, ranks_out: set[int], extra_out: int) -> None:
    v = _load(line)
    # Read independently: four cards for each rank out, and the extra cards.
    assert v.deck.size == 52 - 4 * len(ranks_out) - extra_out
    assert _ranks_left(v) & ranks_out == set()
    again = cardrules.load_text(format_variant(v))
    assert again == v


def test_one_plural_rank_alone_is_still_the_two_of_spades() -> None:
    v = _load("deck: standard 52 without 2s 3s")
    assert v.deck.size == 50
    assert {str(c) for c in v.deck.cards}.isdisjoint({"2♠", "3♠"})
    assert Rank.TWO in {c.rank for c in v.deck.cards}


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("deck: standard 52 without 6s to 2s", "the ranks run from 6s down to 2s"),
        ("deck: 9 to ace without 2s to 6s", "the 2s are not in a pack of 9 to ace"),
        ("deck: standard 52 without 2s to 6s, 3♣", "taken out twice"),
        ("deck: standard 52 without 2s to aces", "every card of the pack is taken out"),
    ],
)
def test_ranks_out_refusals(line: str, words: str) -> None:
    with pytest.raises(VariantError, match=words):
        _load(line)
