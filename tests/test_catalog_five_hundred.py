"""Five Hundred (``variants/five-hundred.cardrules``, issue 23), after Pagat
(https://www.pagat.com/euchre/500.html) and the Avondale schedule: the file's
own checks, its defining rules on stacked deals (bids of a level in a strain,
misère as a bid, the kitty, the joker and the bowers, going out by the
declarer only), 200 seeded games to the end checked by an independent scorer
and an independent reading of every trick, Hypothesis properties of the
auction and the play, the rules page (the contracts' values worked out from
the formula), and bots.
"""

from __future__ import annotations

import random

import pytest
from catalog_support import check_file, stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Contract, Game, Play, Suit
from cardrules.bots import make_bot, play_game
from cardrules.cards import OPEN_MISERE_STRAIN, card
from cardrules.engine.actions import (
    Action,
    Decline,
    Discard,
    Name,
    contract_bid,
    num_actions_of,
)
from cardrules.errors import IllegalAction
from cardrules.simulate import simulate

FH = cardrules.load("five-hundred")

#: The place of each strain in the bidding, lowest first (Pagat): spades,
#: clubs, diamonds, hearts, no trumps (the strain numbers are the suits' 3, 0,
#: 1, 2, and 4 for no trumps).
_PLACE = {3: 0, 0: 1, 1: 2, 2: 3, 4: 4}
_BJ = 53


def avondale(bid: Contract) -> int:
    """The value of a bid in the published Avondale table, written out here
    apart from the file's formula: its rank in the auction too."""
    if bid.misere:
        return 500 if bid.strain == OPEN_MISERE_STRAIN else 250
    return 100 * (bid.level - 6) + 40 + 20 * _PLACE[bid.strain]


def _rank(bid: Contract) -> int:
    """A bid's rank in the auction: its value, but open misère (worth 500, as
    10 hearts is) ranks between 10 diamonds (480) and 10 hearts (Pagat)."""
    return 490 if bid.strain == OPEN_MISERE_STRAIN else avondale(bid)


def _deal(seat1: str, seat2: str, seat3: str, kitty: str) -> list[cardrules.Card]:
    """A deck giving seat 1, 2 and 3 (seat 3 deals) their ten cards, then the kitty."""
    return [*stack(seat1, seat2, seat3), *(card(c) for c in kitty.split())]


#: Seat 1 holds every heart and both red jacks; the kitty is three aces.
HEARTS_HAND = _deal(
    "BJ J♥ J♦ A♥ K♥ Q♥ 10♥ 9♥ 8♥ 7♥",
    "7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ 7♣ 8♣ 9♣",
    "10♣ J♣ Q♣ K♣ 7♦ 8♦ 9♦ 10♦ Q♦ K♦",
    "A♠ A♣ A♦",
)


def test_the_file_says_where_it_comes_from_and_round_trips() -> None:
    check_file("five-hundred", None)
    lead = FH.source.split("game:")[0].lower()
    assert "pagat.com/euchre/500.html" in lead and "avondale" in lead


def test_the_pack_is_33_cards_and_the_deal_leaves_a_kitty_of_three() -> None:
    g = Game(FH, 3, seed=1)
    places = g.card_locations()
    assert len(places["hands"]) == 30 and len(places["undealt"]) == 3
    assert g.phase == "bid" and g.hand_size == 10


def test_contract_bids_have_ids_outside_the_action_space_of_other_games() -> None:
    assert Contract(6, Suit.SPADES).id == 430 + 5 * 6 + 3
    assert Contract(0, "misère").id == 500 and Contract(0, "open misère").id == 501
    for a in Game(FH, 3, seed=1).legal_actions():
        assert Action.from_id(a.id) is a
    assert num_actions_of(FH) == 502
    assert num_actions_of(cardrules.load("bid-whist")) == 337


def test_a_bid_must_outrank_the_standing_bid_and_names_the_trumps() -> None:
    g = Game(FH, 3, deck=HEARTS_HAND, first_dealer=2)
    g.apply(Contract(7, Suit.HEARTS), 0)
    with pytest.raises(IllegalAction) as info:
        g.apply(Contract(7, Suit.DIAMONDS), 1)
    assert info.value.code == "bid_not_higher"
    with pytest.raises(IllegalAction) as info:
        g.apply(Bid(8), 1)
    assert info.value.code == "not_in_variant"
    assert g.view(2).contract == "7 hearts"  # the standing bid, seen by all
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    assert ("call", 0, Contract(7, Suit.HEARTS)) in g._events
    assert g.view(1).to_dict()["contract"] == "7 hearts"
    assert "contract" not in Game(cardrules.load("bid-whist"), 4, seed=1).view(0).to_dict()
    # No naming step: hearts are trumps, and seat 1 takes the kitty.
    assert g.phase == "trumps" and g.to_act == 0
    assert g.view(0).trump is Suit.HEARTS
    assert len(g.view(0).hand or ()) == 13
    assert all(type(a) is Discard for a in g.legal_actions())


def test_a_player_who_passed_may_not_bid_again() -> None:
    g = Game(FH, 3, deck=HEARTS_HAND, first_dealer=2)
    g.apply(Decline(), 0)
    g.apply(Contract(6, Suit.SPADES), 1)
    g.apply(Contract(6, Suit.HEARTS), 2)
    assert g.to_act == 1  # seat 1 is out: seat 2 speaks again
    g.apply(Contract(7, Suit.SPADES), 1)
    g.apply(Decline(), 2)
    assert g.phase == "trumps" and g.to_act == 1 and g.view(1).trump is Suit.SPADES


def test_all_pass_throws_the_hand_in() -> None:
    g = Game(FH, 3, deck=HEARTS_HAND, first_dealer=2)
    for s in (0, 1, 2):
        g.apply(Decline(), s)
    assert ("thrown in", 1) in g._events
    assert g.phase == "bid" and g.hand_number == 2 and g.dealer == 0


def test_a_slam_of_seven_hearts_scores_250_and_the_opponents_nothing() -> None:
    g = Game(FH, 3, deck=HEARTS_HAND, first_dealer=2)
    g.apply(Contract(7, Suit.HEARTS), 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("A♠", "A♣", "A♦"):
        g.apply(Discard(c), 0)
    assert g.phase == "play" and g.to_act == 0  # the declarer leads
    while g.hand_number == 1:
        g.apply_as_current(g.legal_actions()[0])
    score = next(e for e in g._events if e[0] == "score")
    assert score[3] == (10, 0, 0) and score[4] == [250, 0, 0]


def test_misere_is_a_bid_above_8_spades_played_without_trumps() -> None:
    g = Game(FH, 3, deck=HEARTS_HAND, first_dealer=2)
    g.apply(Contract(8, Suit.SPADES), 0)
    assert Contract(0, "misère") in g.legal_actions()
    g.apply(Contract(0, "misère"), 1)
    legal = g.legal_actions()
    assert Contract(8, Suit.SPADES) not in legal and Contract(8, Suit.CLUBS) in legal
    g.apply(Decline(), 2)
    g.apply(Decline(), 0)
    assert g.to_act == 1 and g.view(1).trump is None
    for c in ("K♠", "Q♠", "J♠"):
        g.apply(Discard(c), 1)
    while g.hand_number == 1:
        g.apply_as_current(g.legal_actions()[0])
    score = next(e for e in g._events if e[0] == "score")
    taken = score[3][1]
    assert score[4] == [0, 250 if taken == 0 else -250, 0]


def test_the_joker_beats_the_right_bower_and_the_left_bower_follows_trumps() -> None:
    deck = _deal(
        "J♥ 7♠ 8♠ 9♠ 10♠ 7♣ 8♣ 9♣ 10♣ 7♦",
        "BJ J♦ A♥ K♥ Q♥ 10♥ 9♥ 8♥ 7♥ A♠",
        "K♠ Q♠ J♠ J♣ Q♣ K♣ A♣ 8♦ 9♦ 10♦",
        "Q♦ K♦ A♦",
    )
    g = Game(FH, 3, deck=deck, first_dealer=2)
    g.apply(Contract(6, Suit.HEARTS), 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("7♦", "10♣", "9♣"):
        g.apply(Discard(c), 0)
    g.apply(Play("J♥"), 0)
    # Seat 2 must follow trumps: its hearts, the left bower J♦ and the joker.
    assert {str(a.card) for a in g.legal_actions()} == {
        "BJ", "J♦", "A♥", "K♥", "Q♥", "10♥", "9♥", "8♥", "7♥",
    }  # fmt: skip
    g.apply(Play("BJ"), 1)
    g.apply(Play("8♦"), 2)
    assert g._events[-1][:2] == ("trick", 1)


def test_the_declarer_who_reaches_500_wins_though_a_defender_leads() -> None:
    """Going out: only the declarer's side ends the game by reaching the target."""
    g = Game(FH, 3, deck=HEARTS_HAND, first_dealer=2)
    g._scores = [450, 600, 0]  # a defender already past 500 plays on
    g.apply(Contract(7, Suit.HEARTS), 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("A♠", "A♣", "A♦"):
        g.apply(Discard(c), 0)
    while not g.is_over:
        g.apply_as_current(g.legal_actions()[0])
    assert g.result is not None and g.result.winners == (0,)
    assert list(g.scores) == [700, 600, 0]


def _independent_points(log: list, hand: int) -> list[int]:
    """A hand's points from its log, by the Avondale table written out above,
    not by the file's formula."""
    deal = next(i for i, e in enumerate(log) if e[0] == "deal" and e[1] == hand)
    end = next(i for i, e in enumerate(log) if e[0] == "score" and e[1] == hand)
    entries = log[deal:end]
    seat, bid = next(
        (e[1], e[2]) for e in reversed(entries) if e[0] == "call" and type(e[2]) is Contract
    )
    tricks = [0, 0, 0]
    for e in entries:
        if e[0] == "trick":
            tricks[e[1]] += 1
    if bid.misere:
        worth = avondale(bid)
        return [(worth if tricks[seat] == 0 else -worth) if s == seat else 0 for s in range(3)]
    value = avondale(bid)
    if tricks[seat] >= bid.level:
        made = max(value, 250) if tricks[seat] == 10 else value
    else:
        made = -value
    return [made if s == seat else 10 * tricks[s] for s in range(3)]


def _power(c: int, trump: int | None, led: int) -> int:
    """An independent reading of a card's power in a trick (higher wins; 0 never
    wins): the joker above all, then with trumps the right bower, the left bower
    and the trumps from the ace down; then the suit led from the ace down."""
    if c == _BJ:
        return 1000
    suit, rank = divmod(c, 13)
    if trump is not None:
        if rank == 9 and suit == trump:
            return 900
        if rank == 9 and suit == 3 - trump:
            return 800
        if suit == trump:
            return 500 + rank
    return 100 + rank if suit == led else 0


def _effective_suit(c: int, trump: int | None) -> int:
    if c == _BJ:
        return -1 if trump is None else trump
    suit, rank = divmod(c, 13)
    if trump is not None and rank == 9 and suit == 3 - trump:
        return trump
    return suit


def check_tricks(log: list) -> int:
    """Every trick of the log goes to the card an independent reading of the
    contract's trump order makes highest; returns the tricks checked."""
    trump: int | None = None
    named = -1
    checked = 0
    for i, e in enumerate(log):
        if e[0] == "made":
            trump = None if e[3] is None else int(e[3])
        elif e[0] == "call" and type(e[2]) is Name and log[i - 1][0] == "play":
            named = int(e[2].suit)  # the suit a joker led stands for
        elif e[0] == "trick":
            seats, cards_ = e[2], e[3]
            first = cards_[0]
            led = named if first == _BJ and trump is None else _effective_suit(first, trump)
            powers = [_power(c, trump, led) for c in cards_]
            assert seats[powers.index(max(powers))] == e[1], e
            named = -1
            checked += 1
    return checked


def test_200_seeded_games_play_to_the_end() -> None:
    misere = no_trumps = 0
    for seed in range(200):
        g = Game(FH, 3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        assert g.result is not None and g.result.finished
        log = g._events
        totals = [0, 0, 0]
        for e in log:
            if e[0] == "score":
                assert e[4] == _independent_points(log, e[1]), (seed, e)
                totals = [t + p for t, p in zip(totals, e[4], strict=True)]
            misere += e[0] == "call" and e[2] == Contract(0, "misère")
            no_trumps += e[0] == "made" and e[3] is None
        assert check_tricks(log) > 0
        assert list(g.scores) == totals
        assert min(totals) <= -500 or max(totals) >= 500
    assert misere and no_trumps


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 1000), max_size=60))
def test_the_legal_bids_are_exactly_those_that_outrank_the_standing_bid(
    seed: int, choices: list[int]
) -> None:
    """At every bid, the contract bids offered are exactly the bids of the
    Avondale table worth more than the standing one (any, before a bid)."""
    every = [contract_bid(lv, k) for lv in range(6, 11) for k in (3, 0, 1, 2, 4)]
    every += [Contract(0, "misère"), Contract(0, "open misère")]
    g = Game(FH, 3, seed=seed)
    standing = 0
    for k in choices:
        if g.is_over or g.phase != "bid":
            break
        offered = {a for a in g.legal_actions() if type(a) is Contract}
        assert offered == {b for b in every if _rank(b) > standing}
        a = g.legal_actions()[k % len(g.legal_actions())]
        if type(a) is Contract:
            standing = _rank(a)
        g.apply(a, g.to_act)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_contracts_order_is_honoured_at_every_play(seed: int) -> None:
    """At every play, the cards offered follow the effective suit led (the left
    bower a trump, the joker a trump or, without trumps, playable only when
    void); and every trick goes to the card an independent reading makes
    highest."""
    g = Game(FH, 3, seed=seed)
    rng = random.Random(seed)
    while not g.is_over and g.hand_number <= 2:
        s = g.to_act
        assert s is not None
        legal = g.legal_actions()
        trick = g.current_trick()
        if g.phase == "play" and trick:
            trump = g.view(s).trump
            t = None if trump is None else int(trump)
            first = int(trick[0][1])
            hand = [int(c) for c in g.view(s).hand or ()]
            if first == _BJ and t is None:
                # The suit the joker led stands for: the name its leader called.
                led = next(int(e[2].suit) for e in reversed(g._events) if e[0] == "call")
            else:
                led = _effective_suit(first, t)
            follow = [c for c in hand if c != _BJ or t is not None]
            follow = [c for c in follow if _effective_suit(c, t) == led]
            want = set(follow) if follow else set(hand)
            assert {int(a.card) for a in legal if type(a) is Play} == want
        g.apply(rng.choice(legal), s)
    assert check_tricks(g._events) >= 0


def test_the_rules_page_prints_the_avondale_table_from_the_formula() -> None:
    page = cardrules.rulebook(FH)
    assert "| Tricks bid | spades | clubs | diamonds | hearts | no trumps |" in page
    assert "| 6 | 40 | 60 | 80 | 100 | 120 |" in page
    assert "| 10 | 440 | 460 | 480 | 500 | 520 |" in page
    assert "Misère: 250." in page
    assert "Open misère: 500." in page
    assert "Open misère, a bid to take no trick with the hand face up" in page
    assert "Misère, a bid to take no trick, ranks just above 8 spades" in page
    assert "its suit is trumps for the hand" in page
    assert "the declarer's total is 500 points or more" in page
    assert "once round" not in page


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bots_play_it_legally(name: str) -> None:
    for seed in range(3):
        g = Game(FH, 3, seed=seed)
        play_game(g, [make_bot(name, seed=seed + i) for i in range(3)])
        assert g.is_over


def test_the_heuristic_beats_random() -> None:
    s = simulate(FH, 3, 60, bots=["heuristic", "random", "random"], seed=11)
    assert s.finished == 60 and s.wins[0] > s.wins[1] and s.wins[0] > s.wins[2]


def test_a_game_saves_and_replays_from_its_events() -> None:
    """Regression: a save of a round-and-round auction is not refused for its
    many bids, and a contract bid's ``call`` event replays."""
    g = Game(FH, 3, seed=4)
    rng = random.Random(4)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    assert Game.from_json(g.to_json()) == g == cardrules.replay(FH, g.events)


def test_undoing_the_lead_of_the_joker_without_trumps_gives_the_game_back() -> None:
    """Regression: the lead of the joker in no trumps opens the naming of its
    suit; taking the lead back left the game in that naming (the in-place
    undo of a play did not know the play had opened another phase)."""
    deck = _deal(
        "BJ A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ A♣ K♣",
        "7♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ Q♣",
        "7♣ 8♣ 9♣ 10♣ J♣ 7♦ 8♦ 9♦ 10♦ J♦",
        "Q♦ K♦ A♦",
    )
    g = Game(FH, 3, deck=deck, first_dealer=2)
    g.apply(Contract(6, None), 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("Q♦", "K♦", "A♦"):
        g.apply(Discard(c), 0)
    before = g.clone()
    g.apply(Play("BJ"), 0)
    assert g.phase == "trumps"  # the leader names the suit the joker stands for
    assert g.undo() == Play("BJ")
    assert g.phase == "play" and g == before and g.to_json() == before.to_json()
    assert g.legal_actions(0) == before.legal_actions(0)
