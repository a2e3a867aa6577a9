"""Packs as data: whole ranks out (``without 2s to 6s``) and several standard
packs (``deck: 2 standard packs``)."""

from __future__ import annotations

from collections import Counter

import pytest

import cardrules
from cardrules.cards import Rank
from cardrules.dsl.formatter import format as format_variant
from cardrules.engine import Game
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


# --------------------------------------------------------------------------- several packs

TWO = BASE + "deck: 2 standard packs\n"


def test_two_packs_hold_each_card_twice() -> None:
    v = cardrules.load_text(TWO)
    assert v.deck.packs == 2
    assert v.deck.size == 104
    counts = Counter(str(c) for c in v.deck.cards)
    assert set(counts.values()) == {2} and len(counts) == 52
    again = cardrules.load_text(format_variant(v))
    assert again == v
    assert cardrules.load_text(BASE + "deck: 3 standard packs without 2s to 6s\n").deck.size == 96


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (BASE + "deck: 5 standard packs\n", "5 is too large for a number of packs"),
        (BASE + "deck: 2 standard packs with 2 jokers\n", "jokers are not known"),
        (TWO + "trumps: spades\ntrump order: J of trumps\n", "trump order is not known"),
        (
            "game: h2\nextends: hearts\ndeck: 2 standard packs\n",
            "passing cards is not known with several packs",
        ),
    ],
)
def test_several_packs_refusals(text: str, words: str) -> None:
    with pytest.raises(VariantError, match=words):
        cardrules.load_text(text)


def test_one_pack_games_keep_their_card_ids_and_actions() -> None:
    g = Game(cardrules.load("kazhutha"), 4, seed=1)
    assert g._rules.copies is False and not g._rules.pack_mask >> 64
    assert all(a.id < 52 for a in g.legal_actions())


def test_two_packs_play_to_the_end_with_every_card_twice() -> None:
    v = cardrules.load_text(
        "game: k2\nextends: kazhutha\nplayers: 9 to 12\ndeck: 2 standard packs\n"
    )
    page = cardrules.rulebook(v)
    assert "two standard 52-card packs shuffled together (104 cards: each card twice)" in page
    for seed in range(10):
        g = Game(v, 9, seed=seed)
        dealt = Counter(int(c) & 63 for s in range(9) for c in g.hand(s))
        assert set(dealt.values()) == {2} and len(dealt) == 52
        g.playout()
        assert g.is_over
