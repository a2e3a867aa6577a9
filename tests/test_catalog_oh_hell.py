"""The Oh Hell family of the built-in catalog: ``oh-hell`` and the files extending it
that come from seed ``002_d103a11c6570c2d3.txt`` (the Oh Hell rules sheet).

Random play: 200 seeded games to the end for every file; player counts cycle
through each file's range.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from catalog_support import (
    bid,
    check_file,
    dealer_bids,
    deals,
    games,
    hand_scores,
    play,
    play_random,
    stack,
    trumps,
)

import cardrules
from cardrules import Amend, Bid, Game, Suit, card
from cardrules.errors import IllegalAction
from cardrules.rules import (
    BidStyle,
    Pattern,
    PlayerRange,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpLead,
)
from cardrules.scoring import score_env

#: file -> the rule fields in which it differs from oh-hell.
FAMILY: dict[str, set[str]] = {
    "oh-hell-no-hook": {"bidding.hook"},
    "oh-hell-fists": {"bidding.style", "bidding.hook"},
    "oh-hell-amend": {"bidding.amend"},
    "blackout": {"scoring.formula"},
    "oh-hell-zero-5": {"scoring.formula"},
    "oh-hell-zero-5-plus": {"scoring.formula"},
    "plus-minus": {"scoring.formula"},
    "oh-hell-short": {"schedule.pattern"},
    "up-and-down": {"schedule.pattern"},
    "oh-hell-13": {"players.min", "players.max", "schedule.start.table"},
    "contract-whist": {"schedule.start.table"},
}

#: file -> how many random games to play.
GAMES = 200  # seeded random games played to the end, per file


def score(name: str, bid: int, tricks: int, cards: int = 7, blind: bool = False) -> Fraction:
    f = cardrules.load(name).scoring.formula
    assert f is not None
    env = score_env(bid=bid, tricks=tricks, cards=cards, hand=1, players=4, blind=blind)
    return Fraction(f.evaluate(env))


def short(name: str, sizes: str, **options: object) -> cardrules.Variant:
    """The file with a short schedule (its `hands` option) and shared ties, for
    stacked-deck hands; every other rule is the file's."""
    return cardrules.load(name, hands=f"list {sizes}", tie="shared", **options)


# --------------------------------------------------------------------------- the files


def test_oh_hell_is_the_sheet() -> None:
    """oh-hell is the standard sheet of 002_d103a11c6570c2d3.txt, rule by rule."""
    v = cardrules.load("oh-hell")
    assert v.parent is None
    assert v.players == PlayerRange(3, 7)
    assert v.deck.size == 52
    assert v.schedule.start.table == (SizeEntry(3, 5, 10), SizeEntry(6, 6, 8), SizeEntry(7, 7, 7))
    assert not v.schedule.start.largest
    assert v.schedule.pattern is Pattern.DOWN_UP
    assert v.trumps.kind is TrumpKind.TURN_UP
    assert v.bidding.style is BidStyle.IN_TURN and v.bidding.hook
    assert (v.bidding.min_bid, v.bidding.max_bid, v.bidding.amend) == (0, None, False)
    assert v.play.trump_lead is TrumpLead.ANY_TIME and not v.play.must_trump
    assert v.winning.tie is TieBreak.EXTRA_HANDS and v.scoring.higher_wins
    assert score("oh-hell", 2, 2) == 12 and score("oh-hell", 2, 3) == 3
    cardrules.format(v)  # writes
    assert cardrules.parse(cardrules.format(v), validate=False) == v


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_file(name: str) -> None:
    """Parses, formats back to itself, loads, and changes exactly its stated rules."""
    check_file(name, FAMILY[name])
    assert cardrules.load(name).parent == "oh-hell"


@pytest.mark.parametrize("name", ["oh-hell", *sorted(FAMILY)])
def test_random_games(name: str) -> None:
    """Seeded random games to the end with the property checks of catalog_support."""
    v = cardrules.load(name)
    for players, seed in games(v.players.counts(), GAMES):
        play_random(v, players, seed)


# --------------------------------------------------------------------------- schedules


@pytest.mark.parametrize(
    ("players", "hands", "start"), [(3, 19, 10), (4, 19, 10), (5, 19, 10), (6, 15, 8), (7, 13, 7)]
)
def test_hands_by_number_of_players_002(players: int, hands: int, start: int) -> None:
    """002_d103a11c6570c2d3.txt, hands by number of players: 19 hands from 10 for three
    to five, 15 from 8 for six, 13 from 7 for seven; up-and-down has as many."""
    sizes = cardrules.load("oh-hell").hand_sizes(players)
    assert sizes == (*range(start, 0, -1), *range(2, start + 1)) and len(sizes) == hands
    up = cardrules.load("up-and-down").hand_sizes(players)
    assert up == (*range(1, start + 1), *range(start - 1, 0, -1)) and len(up) == hands


@pytest.mark.parametrize(("players", "used", "left"), [(6, 48, 3), (7, 49, 2)])
def test_six_and_seven_players_leave_a_card_to_turn_002(players: int, used: int, left: int) -> None:
    """002_d103a11c6570c2d3.txt: eight cards each use 48 of the 52, seven use 49, and a
    card is left over to turn up for trumps."""
    g = Game(cardrules.load("oh-hell"), players=players, seed=5)
    where = g.card_locations()
    assert len(where["hands"]) == used
    assert len(where["turned"]) == 1 and g.trump is g.turned_up.suit  # type: ignore[union-attr]
    assert len(where["undealt"]) == left


def test_short_game_ten_hands_for_four_002() -> None:
    """002_d103a11c6570c2d3.txt: the short game, largest hand down to 1: 10 hands for four."""
    g = play_random(cardrules.load("oh-hell-short").evolve(), 4, 3)
    assert deals(g)[:10] == list(range(10, 0, -1))
    assert cardrules.load("oh-hell-short").hand_sizes(4) == tuple(range(10, 0, -1))


def test_up_and_down_starts_with_one_card_002() -> None:
    """002_d103a11c6570c2d3.txt: start at 1 card, climb to the largest, come back down."""
    g = play_random(cardrules.load("up-and-down"), 5, 4)
    assert deals(g)[:19] == [*range(1, 11), *range(9, 0, -1)]


def test_thirteen_cards_without_trumps_002() -> None:
    """002_d103a11c6570c2d3.txt: four players may go up to 13 cards each; that hand uses
    the whole deck and is played without trumps. The next hand turns up a trump."""
    v = cardrules.load("oh-hell-13")
    assert v.players == PlayerRange(4, 4)
    assert v.hand_sizes(4) == (*range(13, 0, -1), *range(2, 14))
    order = [card(c) for c in ["2♣", "3♣", "4♣", "5♣"]]
    g = Game(v, players=4, deck=[order, order], first_dealer=3)
    assert g.hand_size == 13 and g.trump is None and g.turned_up is None
    assert all(len(g.hand(s)) == 13 for s in range(4))
    assert not g.card_locations()["undealt"]
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.hand_size == 12 and g.turned_up is not None and g.trump is g.turned_up.suit
    with pytest.raises(cardrules.VariantError):
        Game(v, players=5)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_contract_whist_thirteen_hands_for_any_count_002(players: int) -> None:
    """002_d103a11c6570c2d3.txt: Contract Whist, 7 cards down to 1 and back to 7,
    13 hands whatever the head count."""
    g = play_random(cardrules.load("contract-whist"), players, 20 + players)
    assert deals(g)[:13] == [*range(7, 0, -1), *range(2, 8)]


# --------------------------------------------------------------------------- the sheet's examples


def test_one_hand_example_002() -> None:
    """002_d103a11c6570c2d3.txt, "One hand": five cards each, a heart turned up; holding
    the ace of hearts and little else, bid one. Exactly one trick scores 11, two score 2."""
    v = short("oh-hell", "5")
    deck = stack(
        "A♥ 2♣ 3♣ 4♣ 5♣",  # seat 0, on the dealer's left, leads
        "K♠ Q♠ J♠ 10♠ 9♠",
        "K♦ Q♦ J♦ 10♦ 9♦",
        "2♥ 3♥ 4♥ 7♠ 7♦",  # seat 3, the dealer
        turn="8♥",
    )
    one = [
        ("A♥", "9♠", "9♦", "2♥"),  # seat 0's ace of trumps
        ("2♣", "10♠", "10♦", "3♥"),  # the dealer trumps
        ("7♦", "3♣", "J♠", "K♦"),
        ("Q♦", "4♥", "4♣", "Q♠"),
        ("7♠", "5♣", "K♠", "J♦"),
    ]
    two = [
        ("2♣", "9♠", "9♦", "7♠"),  # nobody follows clubs, nobody trumps
        ("A♥", "10♠", "10♦", "2♥"),
        ("3♣", "J♠", "J♦", "3♥"),
        ("7♦", "4♣", "Q♠", "K♦"),
        ("Q♦", "4♥", "5♣", "K♠"),
    ]
    for tricks, taken, expected in ((one, 1, 11), (two, 2, 2)):
        g = Game(v, players=4, deck=deck, first_dealer=3)
        assert g.trump is Suit.HEARTS and g.turned_up == card("8♥")
        bid(g, 1, 1, 1, 1)
        for trick in tricks:
            play(g, *trick)
        ((_, _, won, points, _),) = hand_scores(g)
        assert won[0] == taken and points[0] == expected


def test_made_bids_score_ten_plus_the_bid_002() -> None:
    """002_d103a11c6570c2d3.txt, Blackout: made bids of 0, 1 and 2 score 10, 11, 12; a
    missed bid nothing (Oh Hell would still pay the tricks)."""
    assert [score("blackout", b, b) for b in (0, 1, 2)] == [10, 11, 12]
    assert score("blackout", 2, 3) == 0 and score("oh-hell", 2, 3) == 3


def test_common_scoring_worked_hand_002() -> None:
    """002_d103a11c6570c2d3.txt: bids 3, 0, 1 and tricks 3, 1, 1 score 13, 1, 11."""
    assert [score("oh-hell", b, t) for b, t in ((3, 3), (0, 1), (1, 1))] == [13, 1, 11]


def test_a_king_can_be_the_top_card_002() -> None:
    """002_d103a11c6570c2d3.txt: not every card is in play, so a king can be the
    highest card of its suit in a small hand."""
    v = short("oh-hell", "1")
    g = Game(v, players=3, deck=stack("Q♠", "K♠", "2♠", turn="3♦"), first_dealer=2)
    assert card("A♠") in g.card_locations()["undealt"]
    bid(g, 0, 1, 1)
    play(g, "Q♠", "K♠", "2♠")
    assert g.tricks_won == (0, 1, 0)


def test_everyone_must_bid_zero_is_a_bid_002() -> None:
    """002_d103a11c6570c2d3.txt rule 3: everyone bids, zero is a bid, nobody passes."""
    g = Game(cardrules.load("oh-hell"), players=4, seed=1)
    assert g.legal_actions() == tuple(Bid(n) for n in range(11))


# --------------------------------------------------------------------------- each file's rule


def test_hook_and_no_hook_002() -> None:
    """002_d103a11c6570c2d3.txt: with the hook, 3 cards and bids 1, 0, 1 the dealer may
    bid 0, 2 or 3; without it (oh-hell-no-hook) the dealer may complete the total."""
    for name, allowed in (("oh-hell", [0, 2, 3]), ("oh-hell-no-hook", [0, 1, 2, 3])):
        g = Game(short(name, "3"), players=4, seed=2, first_dealer=3)
        bid(g, 1, 0, 1)
        assert g.to_act == 3 and dealer_bids(g) == allowed
    g = Game(short("oh-hell-no-hook", "3"), players=4, seed=2, first_dealer=3)
    bid(g, 1, 0, 1, 1)
    assert g.bids == (1, 0, 1, 1) and g.phase == "play"


def test_fists_bids_hidden_until_all_in_002() -> None:
    """002_d103a11c6570c2d3.txt, fists: everyone bids at once, so no bid is seen before
    all are in, and no hook applies."""
    g = Game(short("oh-hell-fists", "3"), players=4, seed=4, first_dealer=3)
    assert g.waiting_for == {0, 1, 2, 3}
    g.apply(Bid(2), seat=3)
    assert g.view(0).bids == (None, None, None, None) and g.view(0).bid_made[3]
    assert g.view(3).bids == (None, None, None, 2)
    g.apply(Bid(1), seat=0)
    g.apply(Bid(0), seat=1)
    assert g.view(2).bids == (None, None, None, None)
    assert Bid(0) in g.legal_actions(2)  # 2 + 1 + 0 + 0 = 3 tricks: allowed
    g.apply(Bid(0), seat=2)
    assert g.phase == "play" and g.view(0).bids == (1, 0, 0, 2)


def test_amend_until_the_next_bid_002() -> None:
    """002_d103a11c6570c2d3.txt: a bid can be changed only until the next player has bid."""
    g = Game(cardrules.load("oh-hell-amend"), players=4, seed=3, first_dealer=3)
    g.apply(Bid(4), g.to_act)
    assert Amend(3) in g.legal_actions(0)
    g.apply(Amend(3), seat=0)
    assert g.bids[0] == 3
    g.apply(Bid(2), g.to_act)
    assert g.legal_actions(0) == ()
    with pytest.raises(IllegalAction):
        g.apply(Amend(1), seat=0)
    plain = Game(cardrules.load("oh-hell"), players=4, seed=3, first_dealer=3)
    plain.apply(Bid(4), plain.to_act)
    assert plain.legal_actions(0) == ()


def test_made_zero_worth_five_002() -> None:
    """002_d103a11c6570c2d3.txt: some tables give a made zero 5 points (oh-hell-zero-5),
    or 5 plus the cards dealt (oh-hell-zero-5-plus): 12 on a 7-card hand."""
    deck = stack(
        "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠",  # seat 0 leads spades and takes every trick
        "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥",
        "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦",
        "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣",
        turn="2♠",
    )
    expected = {
        "oh-hell": (7, 10, 10, 10),
        "oh-hell-zero-5": (7, 5, 5, 5),
        "oh-hell-zero-5-plus": (7, 12, 12, 12),
    }
    for name, points in expected.items():
        g = Game(short(name, "7"), players=4, deck=deck, first_dealer=3)
        assert g.trump is Suit.SPADES
        bid(g, 6, 0, 0, 0)
        while not g.is_over:
            g.apply(g.legal_actions()[0], g.to_act)
        ((_, bids, tricks, pts, _),) = hand_scores(g)
        assert bids == (6, 0, 0, 0) and tricks == (7, 0, 0, 0)
        assert pts == points, name
    assert score("oh-hell-zero-5-plus", 0, 0, cards=3) == 8


@pytest.mark.parametrize(
    ("bid_", "tricks", "points"),
    [(3, 3, 30), (1, 1, 10), (0, 0, 10), (2, 4, -20), (3, 1, -20), (0, 3, -30)],
)
def test_plus_minus_002(bid_: int, tricks: int, points: int) -> None:
    """002_d103a11c6570c2d3.txt, plus and minus: a made bid 10 a trick, a made zero 10,
    a miss minus 10 for each trick over or under."""
    assert score("plus-minus", bid_, tricks) == points


def test_plus_minus_on_a_stacked_hand() -> None:
    """plus-minus on the engine: bid 0 and take 2 costs 20; a made 1 earns 10."""
    deck = stack("A♠ K♠", "2♥ 3♥", "2♦ 3♦", "A♣ 2♣", turn="9♠")
    g = Game(short("plus-minus", "2"), players=4, deck=deck, first_dealer=3)
    bid(g, 0, 0, 0, 1)
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)
    ((_, _, tricks, pts, _),) = hand_scores(g)
    assert tricks == (2, 0, 0, 0) and pts == (-20, 10, 10, -10)


def test_oh_hell_tie_is_played_off_002() -> None:
    """002_d103a11c6570c2d3.txt: a tie after the last hand is played off with more hands
    of the largest size until one player leads."""
    v = cardrules.load("oh-hell", hands="list 1, 2")
    for seed in range(40):
        g = play_random(v, 3, seed)
        extra = deals(g)[2:]
        assert all(size == 2 for size in extra)
        assert (g.result is not None and not g.result.shared) or len(extra) == 20
        if extra:
            before = hand_scores(g)[1][4]
            assert sum(t == max(before) for t in before) > 1


def test_turned_up_card_sets_trumps_002() -> None:
    """002_d103a11c6570c2d3.txt rule 2: the next card is turned up; its suit is trumps."""
    g = Game(cardrules.load("oh-hell"), players=5, seed=8)
    assert g.turned_up is not None and g.trump is g.turned_up.suit
    assert trumps(g) == [g.trump]
