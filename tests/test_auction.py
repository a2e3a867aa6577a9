"""Auctions (``bidding: auction``, issue 23 capability 5): each bid above the
last or a pass, once round the table, the dealer bidding when everyone else has
passed; the highest bidder names trumps and the score reads the contract.

Golden tests on stacked deals, the refusals and their codes, and a Hypothesis
property over whole games: every bid made is legal and above the last, read
from the log, not from the engine's own options.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import Bid, Game
from cardrules.dsl import load_text
from cardrules.engine.actions import Decline
from cardrules.errors import IllegalAction, VariantError

#: A small partnership auction: bids 1 to 5 of a 6-card hand, the highest bidder
#: names trumps, the declarer's side scores its contract if it takes that many.
AUCTION_TEXT = (
    "game: auction-test\nextends: oh-hell\nplayers: 4\nteams: 1 and 3, 2 and 4\n"
    "hand size: 6\nhands: 3 hands of the same size\ntrumps: named by the highest bidder\n"
    "bidding: auction\nhook: no\nbids: 1 to 5\nscore: 0\n"
    "team score: if maker then (if maker_tricks >= bid_level then bid_level else -bid_level)"
    " else 0\n"
)
AUCTION = load_text(AUCTION_TEXT)


def bids_of(g: Game) -> list[int]:
    return [a.n for a in g.legal_actions() if isinstance(a, Bid)]


def test_each_bid_is_above_the_last_and_a_pass_is_allowed() -> None:
    g = Game(AUCTION, 4, seed=1, first_dealer=3)  # seat 4 deals: seat 1 bids first
    assert g.phase == "bid" and g.to_act == 0
    assert bids_of(g) == [1, 2, 3, 4, 5] and Decline() in g.legal_actions()
    g.apply(Bid(2), 0)
    assert bids_of(g) == [3, 4, 5]
    g.apply(Decline(), 1)
    g.apply(Bid(4), 2)
    assert bids_of(g) == [5]
    g.apply(Decline(), 3)
    # The highest bidder, seat 3, names trumps.
    assert g.phase == "trumps" and g.to_act == 2
    assert g.bids == (2, None, 4, None)


def test_the_dealer_must_bid_when_everyone_else_passes() -> None:
    g = Game(AUCTION, 4, seed=2, first_dealer=3)
    for s in (0, 1, 2):
        g.apply(Decline(), s)
    assert g.to_act == 3 and Decline() not in g.legal_actions()
    with pytest.raises(IllegalAction) as info:
        g.apply(Decline(), 3)
    assert info.value.code == "dealer_must_bid"
    g.apply(Bid(1), 3)
    assert g.phase == "trumps" and g.to_act == 3


def test_a_bid_not_above_the_highest_is_refused() -> None:
    g = Game(AUCTION, 4, seed=3, first_dealer=3)
    g.apply(Bid(3), 0)
    with pytest.raises(IllegalAction) as info:
        g.apply(Bid(3), 1)
    assert info.value.code == "bid_not_higher"
    g.apply(Bid(5), 1)
    assert bids_of(g) == []
    with pytest.raises(IllegalAction) as info:
        g.apply(Bid(5), 2)
    assert info.value.code == "bid_not_higher"


def test_the_contract_is_scored() -> None:
    """The declarer's side scores the contract (``bid_level``) if it takes that
    many tricks, else loses it; worked out here from the log."""
    for seed in range(6):
        g = Game(AUCTION, 4, seed=seed)
        rng = random.Random(seed)
        while g.hand_number == 1 and not g.is_over:
            g.apply_as_current(rng.choice(g.legal_actions()))
        log = g._events
        level = max(next(e[1] for e in log if e[0] == "bids"))
        maker = next(e[2] for e in log if e[0] == "made")
        side = (maker, (maker + 2) % 4)
        taken = sum(1 for e in log if e[0] == "trick" and e[1] in side)
        points = next(e[4] for e in log if e[0] == "score")
        want = level if taken >= level else -level
        assert [points[s] for s in side] == [want, want]
        assert [points[s] for s in range(4) if s not in side] == [0, 0]


def test_an_auction_with_the_hook_is_refused() -> None:
    with pytest.raises(VariantError, match="does not go with an auction"):
        load_text(AUCTION_TEXT.replace("hook: no", "hook: yes"))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_every_bid_is_above_the_last(seed: int) -> None:
    g = Game(AUCTION, 4, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply_as_current(rng.choice(g.legal_actions()))
    # An independent reading of the log: in each hand's bidding, the bids in
    # the order made rise, each seat speaks once, and someone bids.
    high, spoke = -1, 0
    for ev in g._events:
        if ev[0] == "deal":
            high, spoke = -1, 0
        elif ev[0] == "bid":
            assert ev[2] > high and 1 <= ev[2] <= 5
            high = ev[2]
            spoke += 1
        elif ev[0] == "call" and ev[2] == Decline():
            spoke += 1
        elif ev[0] == "bids":
            assert spoke == 4 and high >= 1
            assert max(b for b in ev[1] if b is not None) == high
