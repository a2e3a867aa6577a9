"""The tables behind fast views and saves (issue 13, item 9) give exactly what
``CardSet`` and ``str(card)`` give: the cards of a mask in card order, and each
card's text."""

from __future__ import annotations

import random

import hypothesis.strategies as st
from hypothesis import given, settings

import cardrules
from cardrules.cards import FULL_DECK_MASK, CardSet
from cardrules.dsl import builtin_names
from cardrules.engine.state import saves
from cardrules.engine.views import view


@settings(max_examples=100, deadline=None)
@given(m=st.integers(0, FULL_DECK_MASK))
def test_the_cards_and_texts_of_a_mask_are_cardsets(m: int) -> None:
    cards = tuple(CardSet(m))
    assert view._cards_of(m) == cards
    assert all(type(a) is type(b) for a, b in zip(view._cards_of(m), cards, strict=True))
    assert saves._texts(m) == [str(c) for c in cards]


def test_every_single_card_and_the_whole_pack() -> None:
    for c in CardSet(FULL_DECK_MASK):
        assert view._cards_of(1 << c) == (c,)
        assert saves._texts(1 << c) == [str(c)] == [view._TEXT[c]]
    assert view._cards_of(FULL_DECK_MASK) == tuple(CardSet(FULL_DECK_MASK))
    assert view._cards_of(0) == () and saves._texts(0) == []


def test_views_write_every_card_as_its_text_every_variant() -> None:
    """For views of every built-in variant along a random game, ``to_dict`` writes
    each card field as ``str`` of each card, and ``played`` is sorted."""
    for name in builtin_names():
        v = cardrules.load(name)
        g = cardrules.Game(v, players=v.players.min, seed=11)
        rng = random.Random(11)
        for step in range(400):
            if step % 9 == 0 or g.is_over:
                for s in range(g.players):
                    w = g.view(s)
                    d = w.to_dict()
                    assert d["hand"] == (None if w.hand is None else [str(c) for c in w.hand])
                    for key in ("played", "dead", "passed", "received", "discarded"):
                        assert d[key] == [str(c) for c in getattr(w, key)], (name, key)
                    assert d["trick"] == [[p, str(c)] for p, c in w.trick]
                    assert d["last_trick"] == [[p, str(c)] for p, c in w.last_trick]
                    assert d["known_hands"] == {
                        str(p): [str(c) for c in cs] for p, cs in w.known_hands
                    }
                    assert list(w.played) == sorted(w.played)
            if g.is_over:
                break
            seat = rng.choice(sorted(g.waiting_for))
            g.apply(rng.choice(g.legal_actions(seat)), seat)
