"""Cards, suits and the bitmask card set."""

from __future__ import annotations

import itertools
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules.cards import (
    ALL_CARDS,
    SUIT_MASKS,
    Card,
    CardSet,
    Rank,
    Suit,
    card,
    parse_suit,
)
from cardrules.errors import CardError

cards_st = st.sampled_from(ALL_CARDS)
card_sets = st.frozensets(cards_st, max_size=52)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A♠", (Rank.ACE, Suit.SPADES)),
        ("AS", (Rank.ACE, Suit.SPADES)),
        ("as", (Rank.ACE, Suit.SPADES)),
        ("AC", (Rank.ACE, Suit.CLUBS)),
        ("ac", (Rank.ACE, Suit.CLUBS)),
        ("10h", (Rank.TEN, Suit.HEARTS)),
        ("Td", (Rank.TEN, Suit.DIAMONDS)),
        ("10♦", (Rank.TEN, Suit.DIAMONDS)),
        ("q♠", (Rank.QUEEN, Suit.SPADES)),
        ("2c", (Rank.TWO, Suit.CLUBS)),
        (" K ♥ ", (Rank.KING, Suit.HEARTS)),
        ("ace of spades", (Rank.ACE, Suit.SPADES)),
        ("Jkali", (Rank.JACK, Suit.SPADES)),
    ],
)
def test_card_accepts_every_form_a_person_types(text: str, expected: tuple[Rank, Suit]) -> None:
    c = card(text)
    assert (c.rank, c.suit) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty card"),
        ("A", "has no suit"),
        ("X♠", "'X' is not a rank"),
        ("1h", "'1' is not a rank"),
        ("11s", "'11' is not a rank"),
        ("AX", "'X' is not a suit"),
        ("10", "has no suit"),
        ("A♠" * 20, "too long"),
    ],
)
def test_bad_card_strings_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(CardError) as info:
        card(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_card_rejects_non_text() -> None:
    with pytest.raises(CardError, match="written as text"):
        card(12.5)  # type: ignore[arg-type]


@given(cards_st)
def test_every_printed_form_parses_back(c: Card) -> None:
    assert card(str(c)) is c
    assert card(c.code) is c
    assert card(c.code.lower()) is c
    assert card(f"{c.rank.label}{c.suit.word}") is c
    assert Card(int(c)) is c
    assert Card.of(c.rank, c.suit) is c
    assert pickle.loads(pickle.dumps(c)) is c


def test_numbering_puts_higher_cards_on_higher_bits() -> None:
    for suit in Suit:
        ranks = [c.rank for c in CardSet(SUIT_MASKS[suit])]
        assert ranks == sorted(Rank)
    assert int(card("2♣")) == 0 and int(card("A♠")) == 51


@pytest.mark.parametrize("bad", [-1, 64, True, "3"])
def test_card_numbers_out_of_range(bad: object) -> None:
    with pytest.raises(CardError):
        Card(bad)  # type: ignore[arg-type]


def test_hindi_suit_names() -> None:
    assert [parse_suit(n) for n in ("Kali", "Chukat", "Fuli", "Laal")] == [
        Suit.SPADES,
        Suit.DIAMONDS,
        Suit.CLUBS,
        Suit.HEARTS,
    ]
    with pytest.raises(CardError, match="not a suit"):
        parse_suit("stars")


@given(card_sets, card_sets)
def test_card_set_behaves_like_a_set(a: frozenset[Card], b: frozenset[Card]) -> None:
    sa, sb = CardSet(a), CardSet(b)
    assert set(sa) == a and len(sa) == len(a)
    assert set(sa | sb) == a | b
    assert set(sa & sb) == a & b
    assert set(sa - sb) == a - b
    assert set(sa ^ sb) == a ^ b
    assert (sa <= sb) == (a <= b)
    assert (sa == sb) == (a == b)
    assert list(sa) == sorted(a)
    assert list(reversed(sa)) == sorted(a, reverse=True)
    for suit in Suit:
        assert set(sa.of_suit(suit)) == {c for c in a if c.suit is suit}
    assert CardSet.parse(str(sa)) == sa


@given(card_sets)
def test_display_order_groups_suits_high_first(a: frozenset[Card]) -> None:
    shown = CardSet(a).sorted_for_display(trump=Suit.HEARTS)
    assert sorted(shown) == sorted(a)
    suits = [c.suit for c in shown]
    if Suit.HEARTS in suits:
        assert suits[0] is Suit.HEARTS
    for x, y in itertools.pairwise(shown):
        if x.suit is y.suit:
            assert x.rank > y.rank


def test_card_set_is_immutable_and_validated() -> None:
    s = CardSet.parse("A♠ K♠")
    with pytest.raises(AttributeError):
        s.mask = 0  # type: ignore[misc]
    with pytest.raises(CardError):
        CardSet(1 << (64 + 52))  # a copy of a joker: no card (54-63 and copies from 64 are)
    assert card("K♠") in s and 51 in s and "K♠" not in s and 99 not in s
    assert len(CardSet.full()) == 52
