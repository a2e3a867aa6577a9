"""Going alone (``going alone: yes``): invariants over whole games of Euchre."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.engine import Game
from cardrules.engine.actions import (
    ALONE_ID,
    NUM_ACTIONS,
    TAKE_ID,
    WITH_PARTNER_ID,
    Alone,
    WithPartner,
)

EUCHRE = cardrules.load("euchre")


def test_the_action_ids() -> None:
    assert Alone().id == ALONE_ID == TAKE_ID + 1
    assert WithPartner().id == WITH_PARTNER_ID == ALONE_ID + 1 < NUM_ACTIONS


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_a_lone_makers_partner_never_plays_and_keeps_its_cards(seed: int) -> None:
    """In every hand where the maker goes alone: the partner is never to act and
    plays no card, its hand stays as dealt, each trick has three cards, every
    seat's view names the lone maker, and the partner plays again next hand."""
    rng = random.Random(seed)
    g = Game(EUCHRE, 4, seed=seed)
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        actor = g.to_act
        hand = g.hand_number
        g.apply(a, g.to_act)
        if a is not Alone() or actor is None:
            continue
        partner = (actor + 2) % 4
        kept = g.hand(partner)
        assert len(kept) == 5
        start = len(g.events)
        while not g.is_over and g.hand_number == hand:
            assert g.to_act != partner and g.legal_actions(partner) == ()
            assert all(g.view(s).alone == actor for s in range(4))
            assert g.hand(partner) == kept
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        done = g.events[start:]
        assert all(e[1] != partner for e in done if e[0] == "play")
        assert all(len(e[3]) == 3 for e in done if e[0] == "trick")
        if not g.is_over:
            assert g.view(0).alone is None
