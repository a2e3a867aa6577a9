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
from catalog_support import stack
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import Bid, Game, Play
from cardrules.cards import CARDS, Card, Suit, card
from cardrules.dsl import load_text
from cardrules.engine import observation_layout
from cardrules.engine.actions import Action, Decline, Discard, Downtown, Misere, Name
from cardrules.errors import IllegalAction, VariantError
from cardrules.rules import Variant

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


# --------------------------------------------------------------------------- downtown

#: The auction game, the declarer choosing uptown or downtown (the ace low, or high).
DOWN_LOW = load_text(AUCTION_TEXT + "may name no trumps: yes\ndowntown: ace low\n")
DOWN_HIGH = load_text(AUCTION_TEXT + "may name no trumps: yes\ndowntown: ace high\n")

#: Clubs for every seat: seat 1 leads 2♣ or A♣.
CLUBS = stack(
    "2♣ A♣ 5♥ 6♥ 7♥ 8♥",
    "3♣ K♣ 2♦ 3♦ 4♦ 5♦",
    "A♥ Q♣ 6♦ 7♦ 8♦ 9♦",
    "4♣ J♣ 2♠ 3♠ 4♠ 5♠",
)
#: Seat 3 is void in diamonds and trumps with A♥.
VOID = stack(
    "2♦ A♣ 5♥ 6♥ 7♥ 8♥",
    "3♦ K♣ 2♣ 3♣ 4♦ 5♦",
    "A♥ Q♣ J♣ 10♣ 9♣ 8♣",
    "4♣ 5♣ 2♠ 3♠ 4♠ 5♠",
)


def _down_game(variant: Variant, low: bool, deck: list[Card]) -> Game:
    """Seat 1 bids 5, names hearts, then plays uptown or downtown (``low``)."""
    g = Game(variant, 4, deck=deck, first_dealer=3)
    g.apply(Bid(5), 0)
    for s in (1, 2, 3):
        g.apply(Decline(), s)
    g.apply(Name("hearts"), 0)
    assert g.legal_actions() == (Downtown(False), Downtown(True))
    g.apply(Downtown(low), 0)
    assert g.phase == "play" and g.to_act == 0
    return g


@pytest.mark.parametrize(
    ("variant", "low", "lead", "winner"),
    [
        (DOWN_LOW, False, "2♣", 1),  # uptown: K♣ (seat 2) is the highest club
        (DOWN_LOW, True, "2♣", 0),  # downtown: the 2 is the highest
        (DOWN_HIGH, True, "A♣", 0),  # downtown, the ace high: A♣ beats them all
        (DOWN_LOW, True, "A♣", 1),  # downtown, the ace low: seat 2's 3♣ is the highest
        (DOWN_LOW, False, "A♣", 0),  # uptown: the ace
    ],
)
def test_downtown_reverses_the_ranks(variant: Variant, low: bool, lead: str, winner: int) -> None:
    g = _down_game(variant, low, CLUBS)
    second = "K♣" if lead == "2♣" and not low else "3♣"
    for s, c in enumerate((lead, second, "Q♣", "4♣" if lead == "2♣" else "J♣")):
        g.apply(Play(c), s)
    assert g.to_act == winner


def test_a_trump_beats_every_plain_card_downtown() -> None:
    g = _down_game(DOWN_LOW, True, VOID)
    for s, c in enumerate(("2♦", "3♦", "A♥", "2♠")):
        g.apply(Play(c), s)
    assert g.to_act == 2  # A♥, the lowest heart downtown, but a trump
    assert g._events[-1][0] == "trick" or g.tricks_taken[2] == 1


def test_downtown_is_refused_in_a_game_without_it() -> None:
    g = Game(AUCTION, 4, seed=1, first_dealer=3)
    with pytest.raises(IllegalAction) as info:
        g.apply(Downtown(True), 0)
    assert info.value.code in ("not_in_phase", "not_in_variant")


def _power(card: Card, trump: Suit | None, low: bool, ace_high: bool) -> int:
    """An independent reading of a card's strength under a contract: trumps
    above everything, then the rank, reversed downtown."""
    rank = card.rank.value if hasattr(card.rank, "value") else int(card.rank)
    value = rank
    if low:
        value = 100 - rank
        if rank == 14:
            value = 200 if ace_high else 0
    return value + (1000 if card.suit is trump else 0)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([DOWN_LOW, DOWN_HIGH]))
def test_every_trick_goes_by_the_contract(seed: int, variant: Variant) -> None:
    """The winner of every trick under uptown, downtown and no trumps, read
    from the log by the contract's own order, not by the engine's tables."""
    g = Game(variant, 4, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply_as_current(rng.choice(g.legal_actions()))
    ace_high = variant is DOWN_HIGH
    trump: Suit | None = None
    low = False
    tricks = 0
    for ev in g._events:
        if ev[0] == "made":
            trump, low = ev[3], False
        elif ev[0] == "call" and type(ev[2]) is Downtown:
            low = ev[2].low
        elif ev[0] == "trick":
            winner, seats, cards = ev[1], ev[2], [CARDS[c] for c in ev[3]]
            led = cards[0].suit
            eligible = [i for i, c in enumerate(cards) if c.suit in (led, trump)]
            best = max(eligible, key=lambda i: _power(cards[i], trump, low, ace_high))
            assert seats[best] == winner
            tricks += 1
    assert tricks >= 6


# --------------------------------------------------------------------------- the kitty

#: A 24-card auction with a 4-card kitty: 5 cards each, the declarer takes the
#: kitty and discards 4, the discards a trick for the declarer.
KITTY_TEXT = (
    AUCTION_TEXT.replace("hand size: 6", "hand size: 5").replace(
        "bids: 1 to 5", "bids: 1 to 5\ndeck: 9 to ace\n"
    )
    + "kitty: 4 cards, the discards count as a trick for the declarer\n"
)
KITTY = load_text(KITTY_TEXT)
#: Seat 1 holds the black aces and kings; the kitty is the four red nines.
KITTY_DECK = [
    *stack(
        "A♠ K♠ A♣ K♣ 10♦",
        "Q♠ J♠ Q♣ J♣ J♦",
        "10♠ 9♠ 10♣ 9♣ Q♦",
        "A♥ K♥ Q♥ J♥ 10♥",
    ),
    *[card(c) for c in ("9♥", "9♦", "K♦", "A♦")],
]


def test_the_declarer_takes_the_kitty_and_discards_face_down() -> None:
    g = Game(KITTY, 4, deck=KITTY_DECK, first_dealer=3)
    g.apply(Bid(3), 0)
    for s in (1, 2, 3):
        g.apply(Decline(), s)
    g.apply(Name("spades"), 0)
    kitty = {card(c) for c in ("9♥", "9♦", "K♦", "A♦")}
    assert kitty <= set(g.view(0).hand or ())
    assert g.view(1).hand_counts[0] == 9
    # Only the declarer ever sees the kitty.
    for s in (1, 2, 3):
        assert not kitty & set(g.view(s).hand or ())
        seen = [e for e in g.events_for(s) if e.kind == "deal"]
        assert all(not kitty & set(h or ()) for e in seen for h in e.hands)
    with pytest.raises(IllegalAction) as info:
        g.apply(Play("A♠"), 0)
    assert info.value.code in ("must_discard", "not_in_phase")
    for c in ("9♥", "9♦", "10♦", "K♦"):
        g.apply(Discard(c), 0)
    assert g.phase == "play" and g.view(0).hand_counts == (5, 5, 5, 5)
    discards = {card(c) for c in ("9♥", "9♦", "10♦", "K♦")}
    assert set(g.view(0).discarded) == discards
    assert all(g.view(s).discarded == () for s in (1, 2, 3))
    hidden = [e for e in g.events_for(1) if e.kind == "call" and e.seat == 0]
    assert [e.action for e in hidden][1:] == [None] * 4
    # The discards count as a trick for the declarer: 4 + 1 of 3 bid.
    for c in ("A♠", "Q♠", "9♠", "A♥", "K♠", "J♠", "10♠", "K♥"):
        g.apply(Play(c), g.to_act)
    while g.hand_number == 1:
        g.apply_as_current(g.legal_actions()[0])
    score = next(e for e in g._events if e[0] == "score")
    played = sum(1 for e in g._events if e[0] == "trick" and e[1] in (0, 2))
    assert score[3][0] + score[3][2] == played  # the tricks in play; the book scores
    assert score[4][0] == 3


def test_a_kitty_that_is_not_the_cards_left_is_refused() -> None:
    with pytest.raises(VariantError, match="leave 4, not 3") as info:
        load_text(KITTY_TEXT.replace("kitty: 4 cards", "kitty: 3 cards"))
    assert info.value.line is not None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_cards_are_conserved_with_the_kitty(seed: int) -> None:
    """At every step, every card of the pack is in exactly one place: a hand,
    the trick, the tricks won, the kitty (undealt) or the discards."""
    g = Game(KITTY, 4, seed=seed)
    rng = random.Random(seed)
    pack = 0
    for c in KITTY.deck.cards:
        pack |= 1 << int(c)
    steps = 0
    while not g.is_over and steps < 400:
        places = g.card_locations()
        total = 0
        union = 0
        for cs in places.values():
            m = sum(1 << int(c) for c in cs)
            total += bin(m).count("1")
            union |= m
        assert total == 24 and union == pack
        g.apply_as_current(rng.choice(g.legal_actions()))
        steps += 1


def test_the_declarer_leads_with_first_lead_declarer() -> None:
    v = load_text(AUCTION_TEXT + "first lead: declarer\n")
    g = Game(v, 4, seed=5, first_dealer=3)
    g.apply(Decline(), 0)
    g.apply(Bid(2), 1)
    g.apply(Decline(), 2)
    g.apply(Decline(), 3)
    g.apply(Name("clubs"), 1)
    assert g.phase == "play" and g.to_act == 1


def test_downtown_is_in_every_view_and_observation() -> None:
    g = _down_game(DOWN_LOW, True, CLUBS)
    at = next(x.start for x in observation_layout(DOWN_LOW, 4) if x.name == "downtown")
    for s in range(4):
        assert g.view(s).downtown
        assert g.observation(s)[at] == 1.0
    up = _down_game(DOWN_LOW, False, CLUBS)
    assert not any(up.view(s).downtown for s in range(4))


# --------------------------------------------------------------------------- round and round

ROUNDS = load_text(AUCTION_TEXT + "auction: until the others pass\n")


def test_round_and_round_until_the_others_pass() -> None:
    g = Game(ROUNDS, 4, seed=1, first_dealer=3)
    g.apply(Bid(1), 0)
    g.apply(Bid(2), 1)
    g.apply(Decline(), 2)  # seat 3 is out of the auction
    g.apply(Bid(3), 3)
    # Round again: seat 1 may raise; seat 3, out, is passed by.
    assert g.to_act == 0 and bids_of(g) == [4, 5]
    g.apply(Bid(4), 0)
    g.apply(Decline(), 1)
    assert g.to_act == 3
    g.apply(Decline(), 3)
    # Everyone but the highest bidder has passed: seat 1 names trumps.
    assert g.phase == "trumps" and g.to_act == 0
    assert g.bids == (4, 2, None, 3)


def test_round_and_round_the_last_player_in_must_bid() -> None:
    g = Game(ROUNDS, 4, seed=2, first_dealer=3)
    for s in (0, 1, 2):
        g.apply(Decline(), s)
    assert Decline() not in g.legal_actions()
    g.apply(Bid(2), 3)
    assert g.phase == "trumps" and g.to_act == 3


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_round_and_round_every_bid_is_above_the_last_and_a_pass_is_final(seed: int) -> None:
    g = Game(ROUNDS, 4, seed=seed)
    rng = random.Random(seed)
    while not g.is_over and g.hand_number < 3:
        g.apply_as_current(rng.choice(g.legal_actions()))
    high, out, high_seat = -1, set(), -1
    for ev in g._events:
        if ev[0] == "deal":
            high, out, high_seat = -1, set(), -1
        elif ev[0] == "bid":
            assert ev[2] > high and ev[1] not in out
            high, high_seat = ev[2], ev[1]
        elif ev[0] == "call" and ev[2] == Decline():
            assert ev[1] not in out
            out.add(ev[1])
        elif ev[0] == "bids":
            assert len(out) == 3 and high_seat not in out and high >= 1


# --------------------------------------------------------------------------- misère

MISERE = load_text(
    AUCTION_TEXT.replace(
        "team score: if maker then (if maker_tricks >= bid_level then bid_level else -bid_level)"
        " else 0\n",
        "team score: if maker then (if misere then (if maker_tricks = 0 then 10 else -10) "
        "else if maker_tricks >= bid_level then bid_level else -bid_level) else 0\n",
    )
    + "misere: yes\n"
)


def test_misere_no_trumps_the_partner_sits_out_and_no_trick_to_take() -> None:
    #: Seat 1 holds the lowest card of every suit but one; it declares misère.
    deck = stack(
        "2♣ 3♣ 2♦ 3♦ 2♥ 3♥",
        "A♣ K♣ A♦ K♦ A♥ K♥",
        "4♣ 5♣ 4♦ 5♦ 4♥ 5♥",
        "Q♣ J♣ Q♦ J♦ Q♥ J♥",
    )
    g = Game(MISERE, 4, deck=deck, first_dealer=3)
    g.apply(Bid(1), 0)
    for s in (1, 2, 3):
        g.apply(Decline(), s)
    assert Misere() in g.legal_actions()
    g.apply(Misere(), 0)
    assert g.trump is None and g.phase == "play"
    assert all(g.view(s).alone == 0 for s in range(4))
    # Seat 3, the partner, sits out: each trick has three cards.
    g.apply(Play("2♣"), 0)
    g.apply(Play("A♣"), 1)
    assert g.to_act == 3
    g.apply(Play("Q♣"), 3)
    assert g.to_act == 1 and g.tricks_won == (0, 1, 0, 0)
    while g.hand_number == 1 and not g.is_over:
        g.apply_as_current(g.legal_actions()[0])
    score = next(e for e in g._events if e[0] == "score")
    # Seat 1's twos and threes never win: misère made, 10 to its side.
    assert score[3][0] == 0 and score[4] == [10, 0, 10, 0]
    assert len(g.hand(2)) == 6  # the partner's cards stay unplayed, face down


def test_misere_is_refused_without_the_line() -> None:
    g = Game(AUCTION, 4, seed=1, first_dealer=3)
    g.apply(Bid(1), 0)
    for s in (1, 2, 3):
        g.apply(Decline(), s)
    with pytest.raises(IllegalAction) as info:
        g.apply(Misere(), 0)
    assert info.value.code == "not_in_variant"


THROWN = load_text(AUCTION_TEXT + "all pass: the hand is thrown in\n")


def test_all_pass_the_hand_is_thrown_in() -> None:
    g = Game(THROWN, 4, seed=3, first_dealer=3)
    for s in (0, 1, 2):
        g.apply(Decline(), s)
    assert Decline() in g.legal_actions()  # the dealer may pass too
    g.apply(Decline(), 3)
    assert g.hand_number == 2 and g.phase == "bid" and g.to_act == 1
    assert any(e[0] == "thrown in" for e in g._events)
    assert all(x == 0 for x in g.scores)


def test_all_pass_in_playouts_and_round_and_round() -> None:
    """Random playouts (the engine's own loop) through auctions that may be
    thrown in, round and round: with one bid only (5), everyone passes often;
    every game ends, and hands are thrown in on the way. A policy playout
    that always passes in the first two hands throws both in."""
    v = load_text(
        AUCTION_TEXT.replace("bids: 1 to 5", "bids: 5 to 5")
        + "all pass: the hand is thrown in\nauction: until the others pass\n"
    )
    thrown = 0
    for seed in range(30):
        g = Game(v, 4, seed=seed)
        g.playout(rng=random.Random(seed))
        assert g.is_over
        thrown += sum(1 for e in g._events if e[0] == "thrown in")
    assert thrown > 0

    def passer(game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        return Decline() if Decline() in legal and game.hand_number < 3 else legal[0]

    g = Game(v, 4, seed=1)
    g.playout(passer, random.Random(1))
    assert [e[1] for e in g._events if e[0] == "thrown in"][:2] == [1, 2]
