"""Short packs by rank (issue 12, item 7): ``deck: 9 to ace`` and the like.

The pack's cards and size, the deal and the turned-up card from a short pack
only, the hand sizes that read the pack's size, the parser's refusals, the
formatter's round trip, the rules page's words, and the fingerprints of the
games that do not say it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.cards import CardSet, Rank
from cardrules.dsl import format, load_text, parse
from cardrules.engine import Game
from cardrules.engine.state.compiled_rules import variant_fingerprint
from cardrules.errors import VariantError
from cardrules.rulebook import rulebook
from cardrules.rules import DeckRule

SHORT = """\
game: short-pack-test
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


def short(deck: str) -> cardrules.Variant:
    return load_text(SHORT.format(deck=deck))


def test_nine_to_ace_is_the_24_card_pack() -> None:
    v = short("9 to ace")
    assert v.deck == DeckRule(lowest=9)
    assert v.deck.size == 24 == len(v.deck.cards)
    assert {c.rank for c in v.deck.cards} == {Rank(r) for r in range(9, 15)}
    assert len(short("7 to A").deck.cards) == 32
    assert short("10 to ace").deck.size == 20


def test_a_short_pack_combines_with_without() -> None:
    v = short("7 to ace without 7♣ 7♠")
    assert v.deck.size == 30
    assert "7♣" not in str(v.deck.cards) and "7♦" in str(v.deck.cards)


def test_hand_sizes_and_the_deal_come_from_the_short_pack() -> None:
    v = short("9 to ace")
    # largest, keeping one card for trumps: (24 - 1) // 4 = 5 each.
    assert v.hand_sizes(4) == (5, 5) and v.hand_sizes(3) == (7, 7)
    pack = v.deck.cards.mask
    for seed in range(40):
        g = Game(v, 4, seed=seed)
        assert all(len(g.hand(s)) == 5 and g.hand(s).mask & ~pack == 0 for s in range(4))
        assert g.turned_up is not None and g.turned_up in v.deck.cards
        assert g.view(0).pack_size == 24 and len(g.view(0).pack_removed) == 28


@given(st.integers(0, 2**32), st.sampled_from(["9 to ace", "7 to ace without 7♥", "J to ace"]))
@settings(max_examples=40, deadline=None)
def test_whole_games_from_a_short_pack_keep_every_card_in_it(seed: int, deck: str) -> None:
    v = short(deck)
    g = Game(v, 3, seed=seed)
    pack = v.deck.cards
    while not g.is_over:
        where = g.card_locations()
        every = CardSet()
        for part in where.values():
            assert not every & part
            every |= part
        assert every == pack
        g.apply(g.legal_actions()[0], g.to_act)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("9 to king", "a pack by rank runs up to the ace"),
        ("ace to ace", "a pack of aces only is too short"),
        ("9 to ace without 7♣", "7♣ is not in a pack of 9 to ace"),
        ("9 to ace without 9♣ 9♣", "9♣ is taken out twice"),
        ("1 to ace", "1 is too small for a rank"),
    ],
)
def test_bad_short_packs_are_refused(deck: str, message: str) -> None:
    with pytest.raises(VariantError) as err:
        short(deck)
    assert message in str(err.value)


def test_a_card_outside_the_short_pack_is_refused_where_it_is_named() -> None:
    text = SHORT.format(deck="9 to ace") + "first lead: holder of 2♣ leads it\n"
    with pytest.raises(VariantError, match="2♣ leads first, but it is taken out of the pack"):
        load_text(text)


def test_too_many_players_for_a_short_pack_are_refused() -> None:
    text = SHORT.format(deck="K to ace").replace("players: 2 to 4", "players: 2 to 9")
    with pytest.raises(VariantError, match="pack of 8"):
        load_text(text)


@pytest.mark.parametrize("deck", ["9 to ace", "7 to ace without 7♣ 8♦", "standard 52 without 2♣"])
def test_format_round_trips_a_short_pack(deck: str) -> None:
    v = short(deck)
    text = format(v)
    assert f"deck: {deck}" in text
    assert parse(text) == v


def test_the_rules_page_says_which_cards_are_in_the_pack() -> None:
    page = rulebook(short("9 to ace"))
    assert "24-card pack, 9 to ace in each suit, aces high (A K Q J 10 9)" in page
    page = rulebook(short("7 to ace without 7♣"))
    assert "32-card pack, 7 to ace in each suit without 7♣ (31 cards)" in page


def test_games_that_say_no_short_pack_keep_their_fingerprint() -> None:
    v = cardrules.load("oh-hell")
    assert v.deck.lowest == 2
    # The standard 52 (lowest rank 2) is left out of the fingerprint, as before the field.
    text = variant_fingerprint(v)
    assert variant_fingerprint(v.evolve(deck=DeckRule(lowest=2))) == text
    assert variant_fingerprint(v.evolve(deck=DeckRule(lowest=9))) != text
