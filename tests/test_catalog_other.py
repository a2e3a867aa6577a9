"""Catalog games beyond the rules texts: ``callbreak`` and ``oh-hell-trumps-broken``.

Neither comes from the seed texts; they show the language reaching rules the
texts' games do not use (must beat, fixed trumps, a minimum bid, decimal
scores, anticlockwise trick play; trumps led only once broken).

Random play: 200 seeded games of each to the end.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from catalog_support import (
    bid,
    check_file,
    deals,
    games,
    hand_scores,
    play,
    play_random,
    plays,
    stack,
    trumps,
)

import cardrules
from cardrules import Bid, Game, Play, Suit, card
from cardrules.errors import IllegalAction
from cardrules.rules import Direction
from cardrules.scoring import score_env

CALLBREAK_DIFFERENCES = {
    "players.min",
    "players.max",
    "direction",
    "schedule.start.table",
    "schedule.pattern",
    "schedule.count",
    "trumps.kind",
    "trumps.suit",
    "bidding.hook",
    "bidding.min_bid",
    "bidding.max_bid",
    "play.follow",
    "scoring.formula",
    "options",  # `options: redeal`: the published redeal, off unless a table turns it on
}


def test_callbreak_file() -> None:
    """Parses, formats back to itself, and changes exactly the rules it lists."""
    check_file("callbreak", CALLBREAK_DIFFERENCES)
    v = cardrules.load("callbreak")
    assert v.parent == "oh-hell" and v.direction is Direction.ANTICLOCKWISE
    assert v.hand_sizes(4) == (13,) * 5
    with pytest.raises(cardrules.VariantError):
        Game(v, players=5)


def test_trumps_broken_file() -> None:
    check_file("oh-hell-trumps-broken", {"play.lead"})


def test_callbreak_random_games() -> None:
    """200 seeded random games of Callbreak with the catalog property checks."""
    v = cardrules.load("callbreak")
    for players, seed in games(v.players.counts(), 200):
        g = play_random(v, players, seed)
        assert set(trumps(g)) == {Suit.SPADES}
        assert all(1 <= b <= 8 for e in hand_scores(g) for b in e[1])


def test_trumps_broken_random_games() -> None:
    """200 seeded random games (19 hands for three to five players)."""
    v = cardrules.load("oh-hell-trumps-broken")
    for players, seed in games(v.players.counts(), 200):
        play_random(v, players, seed)


# --------------------------------------------------------------------------- callbreak


#: Dealt from seat 0's deal, anticlockwise: seat 3 first (it bids and leads first).
CALLBREAK_DEAL = stack(
    "10♣ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦",  # seat 3
    "4♣ A♣ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥",  # seat 2
    "2♣ 3♣ K♥ A♥ A♦ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠",  # seat 1
    "5♣ 6♣ 7♣ 8♣ 9♣ J♣ Q♣ K♣ 10♠ J♠ Q♠ K♠ A♠",  # seat 0, the dealer
)


def callbreak_game() -> Game:
    g = Game(cardrules.load("callbreak"), players=4, deck=CALLBREAK_DEAL, first_dealer=0)
    assert g.hand(3) == cardrules.CardSet.parse("10♣ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦")
    return g


def test_callbreak_bids_one_to_eight_no_hook_anticlockwise() -> None:
    """Bids run from 1 to 8, the dealer's right bids first, and the dealer may make the
    bids add up to 13 (no hook)."""
    g = callbreak_game()
    assert g.trump is Suit.SPADES and g.turned_up is None
    assert g.to_act == 3
    assert g.legal_actions() == tuple(Bid(n) for n in range(1, 9))
    bid(g, 3, 4, 3)
    assert g.to_act == 0 and Bid(3) in g.legal_actions()  # 3 + 4 + 3 + 3 = 13
    with pytest.raises(IllegalAction):
        g.apply(Bid(0), g.to_act)
    g.apply(Bid(3), g.to_act)
    assert g.phase == "play" and g.to_act == 3


def test_callbreak_refuses_a_low_follow_when_holding_a_higher_card() -> None:
    """Must beat the best card so far when able: holding A♣ and 4♣ over a led 10♣, only
    the ace may be played; unable to beat, any card of the suit; void, a trump."""
    g = callbreak_game()
    bid(g, 1, 1, 1, 1)
    play(g, "10♣")
    assert plays(g) == {"A♣"}
    with pytest.raises(IllegalAction, match="must beat 10♣"):
        g.apply(Play(card("4♣")), g.to_act)
    play(g, "A♣")
    assert plays(g) == {"2♣", "3♣"}  # nothing beats the ace: any club
    play(g, "2♣", "5♣")
    assert g.to_act == 2  # the ace won
    play(g, "2♥")
    assert plays(g) == {"K♥", "A♥"}
    play(g, "K♥")
    assert plays(g) == {"10♠", "J♠", "Q♠", "K♠", "A♠"}  # void in hearts: must trump
    with pytest.raises(IllegalAction):
        g.apply(Play(card("6♣")), g.to_act)
    play(g, "10♠")
    assert plays(g) == {str(c) for c in g.hand(3)}  # void, no spade: anything


def test_callbreak_must_beat_is_not_plain_oh_hell() -> None:
    """Without Callbreak's rules (the plain follow rule), the low club may be played."""
    v = cardrules.load("callbreak").evolve(play=cardrules.load("oh-hell").play)
    g = Game(v, players=4, deck=CALLBREAK_DEAL, first_dealer=0)
    bid(g, 1, 1, 1, 1)
    play(g, "10♣")
    assert plays(g) == {"4♣", "A♣"}


@pytest.mark.parametrize(
    ("bid_", "tricks", "points"),
    [
        (3, 3, Fraction(3)),
        (3, 5, Fraction(16, 5)),
        (2, 3, Fraction(21, 10)),
        (4, 2, Fraction(-4)),
        (8, 13, Fraction(17, 2)),
        (1, 0, Fraction(-1)),
    ],
)
def test_callbreak_scoring(bid_: int, tricks: int, points: Fraction) -> None:
    """A made bid scores the bid plus 0.1 a trick over; a miss costs the bid."""
    f = cardrules.load("callbreak").scoring.formula
    assert f is not None
    env = score_env(bid=bid_, tricks=tricks, cards=13, hand=1, players=4)
    assert f.evaluate(env) == points


def test_callbreak_scores_a_stacked_hand_exactly() -> None:
    """A whole stacked hand: the totals are exact tenths, never floats."""
    g = callbreak_game()
    bid(g, 1, 2, 3, 5)
    while not hand_scores(g):
        g.apply(g.legal_actions()[0], g.to_act)
    ((_, bids, tricks, points, _),) = hand_scores(g)
    assert sum(tricks) == 13
    for b, t, p in zip(bids, tricks, points, strict=True):
        assert p == (b + Fraction(t - b, 10) if t >= b else -b)
        assert isinstance(p, int | Fraction)
    assert deals(g) == [13, 13]


# --------------------------------------------------------------------------- trumps broken


def test_trumps_may_not_be_led_until_broken() -> None:
    """oh-hell-trumps-broken: the leader may not lead a trump while holding another suit
    until a trump has been played to a trick; plain oh-hell allows it."""
    deck = stack("2♥ 3♣ 4♣", "5♣ 6♣ 7♣", "8♣ 9♣ 10♣", "2♦ 3♦ 4♦", turn="9♥")
    v = cardrules.load("oh-hell-trumps-broken", hands="list 3", tie="shared")
    g = Game(v, players=4, deck=deck, first_dealer=3)
    assert g.trump is Suit.HEARTS
    bid(g, 0, 0, 0, 0)
    assert plays(g) == {"3♣", "4♣"}
    with pytest.raises(IllegalAction, match="not been broken"):
        g.apply(Play(card("2♥")), g.to_act)
    plain = Game(
        cardrules.load("oh-hell", hands="list 3", tie="shared"),
        players=4,
        deck=deck,
        first_dealer=3,
    )
    bid(plain, 0, 0, 0, 0)
    assert plays(plain) == {"2♥", "3♣", "4♣"}


def test_trumps_broken_by_a_trump_on_a_void() -> None:
    """Once someone void in the suit led has played a trump, trumps may be led; a
    leader holding only trumps may lead one at any time."""
    deck = stack("A♣ 2♥ 3♣", "5♣ 6♣ 7♣", "8♣ 9♣ 10♣", "3♥ 4♦ 5♦", turn="9♥")
    v = cardrules.load("oh-hell-trumps-broken", hands="list 3", tie="shared")
    g = Game(v, players=4, deck=deck, first_dealer=3)
    bid(g, 1, 0, 0, 0)
    play(g, "A♣", "5♣", "8♣", "3♥")  # the dealer, void in clubs, trumps: broken
    assert g.view(0).trumps_broken and g.to_act == 3
    play(g, "4♦")
    v2 = cardrules.load("oh-hell-trumps-broken", hands="list 2", tie="shared")
    g2 = Game(
        v2, players=4, deck=stack("2♥ 3♥", "5♣ 6♣", "8♣ 9♣", "4♦ 5♦", turn="9♥"), first_dealer=3
    )
    bid(g2, 0, 0, 0, 0)
    assert plays(g2) == {"2♥", "3♥"}
