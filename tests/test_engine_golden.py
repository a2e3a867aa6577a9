"""Golden tests of the engine: worked examples from the rules texts, with stacked decks.

The seed files are in ``../shared/seeds`` (see its README.md); each test names
the one it follows.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from oracle import (
    COMMON_SCORE,
    KA_CHU_FU_L,
    KACHUFUL_SCORE,
    formula,
    kachuful,
    oh_hell,
    one_hand,
    simultaneous,
)

from cardrules.cards import Card, CardSet, Suit, card
from cardrules.engine import NUM_ACTIONS, Action, Amend, Bid, Game, Look, Play, replay
from cardrules.errors import IllegalAction, InvalidAction, SaveError, VariantError
from cardrules.rules import (
    BiddingRule,
    DealerRule,
    Direction,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpLead,
    TrumpRule,
    WinRule,
)


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def stack(*hands: str) -> list[Card]:
    """A deck dealing ``hands[i]`` to the i-th seat in dealing order (one card at a time)."""
    per = [cards(h) for h in hands]
    size = len(per[0])
    assert all(len(h) == size for h in per)
    return [per[j][i] for i in range(size) for j in range(len(per))]


def bid_all(g: Game, *bids: int) -> None:
    for b in bids:
        g.apply(Bid(b), g.to_act)


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


# --------------------------------------------------------------------------- tricks


def test_trump_wins_the_trick_000() -> None:
    """000_05789f49e1c2534d.txt: hearts trumps, clubs led, K♣ 4♣ 2♥ A♣: the 2♥ wins."""
    v = one_hand(1, trumps=TrumpRule(kind=TrumpKind.FIXED, suit=Suit.HEARTS))
    g = Game(v, players=4, deck=stack("K♣", "4♣", "2♥", "A♣"))
    assert g.dealer == 3 and g.trump is Suit.HEARTS
    bid_all(g, 0, 0, 0, 0)
    assert g.to_act == 0
    play(g, "K♣", "4♣", "2♥", "A♣")
    trick = [e.astuple() for e in g.events if e[0] == "trick"]
    assert trick == [("trick", 2, (0, 1, 2, 3), tuple(cards("K♣ 4♣ 2♥ A♣")))]
    assert g.tricks_won == (0, 0, 1, 0)


def test_must_follow_message_and_game_unchanged() -> None:
    """002_d103a11c6570c2d3.txt rule 5: everyone must follow suit if they can."""
    v = one_hand(2, trumps=TrumpRule(kind=TrumpKind.NONE))
    g = Game(v, players=4, deck=stack("K♣ 3♦", "9♥ 4♣", "2♥ 3♥", "A♣ 5♦"))
    bid_all(g, 0, 0, 0, 0)
    play(g, "K♣")
    before = g.to_json()
    with pytest.raises(IllegalAction, match="must follow clubs: you hold 4♣"):
        g.apply(Play(card("9♥")), g.to_act)
    with pytest.raises(IllegalAction, match="you do not hold A♠"):
        g.apply(Play(card("A♠")), g.to_act)
    with pytest.raises(IllegalAction, match="turn to play, not seat 2"):
        g.apply(Play(card("2♥")), seat=2)
    with pytest.raises(IllegalAction, match="bidding is over"):
        g.apply(Bid(1), g.to_act)
    with pytest.raises(InvalidAction):
        g.apply(7, g.to_act)  # type: ignore[arg-type]
    assert g.to_json() == before


# --------------------------------------------------------------------------- the hook


def _hook_game(size: int, *bids: int) -> Game:
    g = Game(one_hand(size), players=4, seed=1)
    bid_all(g, *bids)
    assert g.to_act == g.dealer == 3
    return g


def _dealer_bids(g: Game) -> list[int]:
    return [a.n for a in g.legal_actions() if isinstance(a, Bid)]


def test_hook_worked_example_002() -> None:
    """002_d103a11c6570c2d3.txt: 3 cards each, bids 1, 0, 1: the dealer may bid 0, 2 or 3."""
    g = _hook_game(3, 1, 0, 1)
    assert _dealer_bids(g) == [0, 2, 3]
    with pytest.raises(
        IllegalAction, match="the dealer may not bid 1: the bids would add up to 3 tricks"
    ):
        g.apply(Bid(1), g.to_act)


def test_hook_others_past_the_total_002() -> None:
    """002_d103a11c6570c2d3.txt: 3 cards, bids 2, 1, 1 (past 3): the dealer may bid anything."""
    assert _dealer_bids(_hook_game(3, 2, 1, 1)) == [0, 1, 2, 3]


def test_hook_five_cards_000() -> None:
    """000_05789f49e1c2534d.txt: five cards, bids 1, 2, 0: the dealer may not bid 2."""
    assert _dealer_bids(_hook_game(5, 1, 2, 0)) == [0, 1, 3, 4, 5]


def test_hook_five_cards_002() -> None:
    """002_d103a11c6570c2d3.txt rule 4: 5 cards each, bids 2, 1 and 1: the dealer may not bid 1."""
    assert _dealer_bids(_hook_game(5, 2, 1, 1)) == [0, 2, 3, 4, 5]


def test_no_hook_002() -> None:
    """002_d103a11c6570c2d3.txt, variation no hook: the dealer may bid any number."""
    g = Game(one_hand(3, bidding=BiddingRule(hook=False)), players=4, seed=1)
    bid_all(g, 1, 0, 1)
    assert _dealer_bids(g) == [0, 1, 2, 3]


def test_hook_eight_cards_003() -> None:
    """003_b8808002a4adcb43.txt: bids total 7 in an 8-card round: the dealer may not bid 1."""
    g = Game(one_hand(8), players=4, seed=3)
    bid_all(g, 3, 2, 2)
    assert _dealer_bids(g) == [0, 2, 3, 4, 5, 6, 7, 8]


# --------------------------------------------------------------------------- a whole round


def test_kachuful_sample_round_000() -> None:
    """000_05789f49e1c2534d.txt, the sample round: four players, four cards, clubs trumps.

    Nisha (0) bids 1, Dev (1) 2, Rohan (2) 0; the dealer Tara (3) may not bid 1
    and bids 0. Tricks 1, 1, 0, 2; scores 11, 0, 10, 0.
    """
    v = kachuful(
        schedule=ScheduleRule(pattern=Pattern.LIST, sizes=(4,)),
        trumps=TrumpRule(kind=TrumpKind.FIXED, suit=Suit.CLUBS),
        dealer=DealerRule(first=FirstDealer.SEAT, seat=3),
        winning=WinRule(tie=TieBreak.SHARED),
    )
    deck = stack("A♠ 5♦ 6♦ 7♦", "A♥ 8♦ 9♦ 10♦", "2♠ 3♠ 2♥ 3♥", "A♣ K♣ 2♦ 3♦")
    g = Game(v, players=4, deck=deck)
    assert g.trump is Suit.CLUBS and g.dealer == 3
    bid_all(g, 1, 2, 0)
    assert Bid(1) not in g.legal_actions()
    g.apply(Bid(0), g.to_act)
    assert g.bids == (1, 2, 0, 0)
    play(g, "A♠", "8♦", "2♠", "2♦")  # Nisha's ace of spades
    play(g, "5♦", "9♦", "2♥", "3♦")  # Dev's nine of diamonds
    play(g, "A♥", "3♥", "K♣", "6♦")  # Tara trumps the ace of hearts
    play(g, "A♣", "7♦", "10♦", "3♠")  # Tara's ace of trumps
    assert g.is_over
    score = next(e for e in g.events if e[0] == "score")
    assert score[3] == (1, 1, 0, 2)
    assert g.scores == (11, 0, 10, 0)
    assert g.result is not None and g.result.winners == (0,)
    assert replay(v, g.events) == g


def test_common_scoring_worked_hand_002() -> None:
    """002_d103a11c6570c2d3.txt: common scoring, bids 3, 0, 1 and tricks 3, 1, 1: 13, 1, 11."""
    v = one_hand(5, scoring=formula(COMMON_SCORE))
    g = Game(v, players=4)
    pts = [g._rules.points(b, t, 5, 1, 3, False) for b, t in ((3, 3), (0, 1), (1, 1))]
    assert pts == [13, 1, 11]


@pytest.mark.parametrize(("bid", "tricks", "score"), [(0, 0, 10), (2, 2, 12), (3, 4, 0), (1, 0, 0)])
def test_kachuful_scoring_table_000(bid: int, tricks: int, score: int) -> None:
    """000_05789f49e1c2534d.txt scoring table: 10 plus the bid for an exact bid, else 0."""
    g = Game(kachuful(), players=4, seed=0)
    assert g._rules.points(bid, tricks, 5, 1, 4, False) == score


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        # 002: made bids of 0, 1, 2 score 10, 11, 12 (Blackout); bid 2 take 3 scores 3 (common).
        (KACHUFUL_SCORE, [(0, 0, 10), (1, 1, 11), (2, 2, 12), (2, 3, 0)]),
        (COMMON_SCORE, [(2, 2, 12), (2, 3, 3)]),
        # 002: a made zero scores 5 plus the cards dealt: 12 on a 7-card hand.
        ("if exact then (if bid = 0 then 5 + cards else 10 + bid) else 0", [(0, 0, 12)]),
        # 003: minus the margin for a miss.
        ("if exact then 10 + bid else -diff", [(3, 1, -2), (1, 2, -1), (3, 3, 13)]),
    ],
)
def test_scoring_tables_002_003(text: str, rows: list[tuple[int, int, int]]) -> None:
    """002_d103a11c6570c2d3.txt and 003_b8808002a4adcb43.txt scoring systems, 7-card hands."""
    g = Game(kachuful(scoring=formula(text)), players=4, seed=0)
    for bid, tricks, score in rows:
        assert g._rules.points(bid, tricks, 7, 1, 4, False) == score


def test_blind_bid_scores_double_003() -> None:
    """003_b8808002a4adcb43.txt, Blind Kachuful: an exact blind bid counts double."""
    f = "if exact then (if blind then 2 else 1) * (10 + bid) else 0"
    v = one_hand(1, bidding=BiddingRule(blind=True), scoring=formula(f))
    g = Game(v, players=3, deck=stack("A♠", "2♣", "3♣"), first_dealer=2)
    view = g.view(0)
    assert view.hand is None and Look() in view.legal_actions
    g.apply(Bid(1, blind=True), g.to_act)
    assert g.view(0).hand == (card("A♠"),)
    assert g.view(1).hand is None
    with pytest.raises(IllegalAction, match="not looked at your cards"):
        g.apply(Bid(0), g.to_act)
    g.apply(Look(), g.to_act)
    assert g.view(1).hand == (card("2♣"),)
    with pytest.raises(IllegalAction, match="blind bid is only possible before"):
        g.apply(Bid(0, blind=True), g.to_act)
    g.apply(Bid(0), g.to_act)
    g.apply(Look(), g.to_act)
    g.apply(Bid(1), g.to_act)  # the hook: 1 + 0 + 0 would make 1
    play(g, "A♠", "2♣", "3♣")
    assert g.scores == (22, 10, 0)
    assert g.blind_bids == (True, False, False)


# --------------------------------------------------------------------------- schedules


def _play_out(g: Game) -> None:
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)


def _hands_played(g: Game) -> list[int]:
    return [e[3] for e in g.events if e[0] == "deal"]


@pytest.mark.parametrize(
    ("players", "hands", "start"), [(3, 19, 10), (4, 19, 10), (5, 19, 10), (6, 15, 8), (7, 13, 7)]
)
def test_oh_hell_schedule_002(players: int, hands: int, start: int) -> None:
    """002_d103a11c6570c2d3.txt: 19 hands for 3-5 players from 10, 15 for six, 13 for seven."""
    g = Game(oh_hell(winning=WinRule(tie=TieBreak.SHARED)), players=players, seed=players)
    _play_out(g)
    sizes = _hands_played(g)
    assert len(sizes) == hands
    assert sizes == [*range(start, 0, -1), *range(2, start + 1)]


def test_short_game_002() -> None:
    """002_d103a11c6570c2d3.txt: the short game, largest hand down to 1: 10 hands for four."""
    v = oh_hell(
        schedule=ScheduleRule(start=HandSizeRule(cap=10), pattern=Pattern.DOWN),
        winning=WinRule(tie=TieBreak.SHARED),
    )
    g = Game(v, players=4, seed=2)
    _play_out(g)
    assert _hands_played(g) == list(range(10, 0, -1))


def test_contract_whist_002() -> None:
    """002_d103a11c6570c2d3.txt: Contract Whist, 7 cards down to 1 and back: 13 hands."""
    v = oh_hell(
        schedule=ScheduleRule(
            start=HandSizeRule(table=(SizeEntry(3, 7, 7),), largest=False), pattern=Pattern.DOWN_UP
        ),
        winning=WinRule(tie=TieBreak.SHARED),
    )
    for players in (3, 5, 7):
        g = Game(v, players=players, seed=players)
        _play_out(g)
        assert len(_hands_played(g)) == 13


def test_ka_chu_fu_l_trump_order_000() -> None:
    """000_05789f49e1c2534d.txt: spades, diamonds, clubs, hearts, then the cycle repeats."""
    g = Game(kachuful(winning=WinRule(tie=TieBreak.SHARED)), players=4, seed=5)
    _play_out(g)
    trumps = [e[2] for e in g.events if e[0] == "trump"]
    assert len(trumps) == 19
    assert trumps == [KA_CHU_FU_L[i % 4] for i in range(19)]


def test_cycle_with_no_trump_hand_003() -> None:
    """003_b8808002a4adcb43.txt: spades, diamonds, clubs, hearts, no trump (Zon), repeat."""
    cycle = (*KA_CHU_FU_L, None)
    v = kachuful(
        trumps=TrumpRule(kind=TrumpKind.CYCLE, cycle=cycle), winning=WinRule(tie=TieBreak.SHARED)
    )
    g = Game(v, players=5, seed=1)
    _play_out(g)
    trumps = [e[2] for e in g.events if e[0] == "trump"]
    assert trumps == [cycle[i % 5] for i in range(19)]


def test_every_fifth_hand_no_trump_003() -> None:
    """003_b8808002a4adcb43.txt: every 5th round without trumps, whatever the cycle."""
    v = kachuful(
        trumps=TrumpRule(kind=TrumpKind.CYCLE, cycle=KA_CHU_FU_L, no_trump_every=5),
        winning=WinRule(tie=TieBreak.SHARED),
    )
    g = Game(v, players=4, seed=1)
    _play_out(g)
    trumps = [e[2] for e in g.events if e[0] == "trump"]
    assert trumps == [None if (i + 1) % 5 == 0 else KA_CHU_FU_L[i % 4] for i in range(19)]


def test_turned_up_trump_002() -> None:
    """002_d103a11c6570c2d3.txt rule 2: the next card is turned up; its suit is trumps."""
    v = one_hand(3, trumps=TrumpRule(kind=TrumpKind.TURN_UP))
    deck = [*stack("2♣ 3♣ 4♣", "2♦ 3♦ 4♦", "2♠ 3♠ 4♠", "5♣ 6♣ 7♣"), card("9♥")]
    g = Game(v, players=4, deck=deck)
    assert g.turned_up == card("9♥") and g.trump is Suit.HEARTS
    assert all(card("9♥") not in g.hand(s) for s in range(4))
    for s in range(4):
        view = g.view(s)
        assert view.turned_up == card("9♥") and view.trump is Suit.HEARTS
    assert g.card_locations()["turned"] == CardSet([card("9♥")])


def test_thirteen_cards_four_players_no_trumps_002() -> None:
    """002_d103a11c6570c2d3.txt: four players with 13 cards each: no card to turn, no trumps."""
    g = Game(one_hand(13, trumps=TrumpRule(kind=TrumpKind.TURN_UP)), players=4, seed=9)
    assert g.turned_up is None and g.trump is None
    assert all(len(g.hand(s)) == 13 for s in range(4))


def test_dealing_one_at_a_time_from_dealers_neighbour() -> None:
    """002_d103a11c6570c2d3.txt rule 9: the deal starts on the dealer's left and passes left."""
    deck = cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣")
    g = Game(one_hand(2), players=4, deck=deck, first_dealer=1)
    assert g.hand(2) == CardSet(cards("2♣ 6♣")) and g.hand(1) == CardSet(cards("5♣ 9♣"))
    assert g.to_act == 2
    anti = one_hand(2, direction=Direction.ANTICLOCKWISE)
    g = Game(anti, players=4, deck=deck, first_dealer=1)
    assert g.hand(0) == CardSet(cards("2♣ 6♣")) and g.hand(3) == CardSet(cards("3♣ 7♣"))
    assert g.to_act == 0


def test_deal_passes_on_each_hand() -> None:
    """002_d103a11c6570c2d3.txt rule 9: the deal passes to the left."""
    v = kachuful(winning=WinRule(tie=TieBreak.SHARED))
    g = Game(v, players=5, first_dealer=3, seed=0)
    _play_out(g)
    dealers = [e[2] for e in g.events if e[0] == "deal"]
    assert dealers == [(3 + i) % 5 for i in range(19)]


def test_first_dealer_by_cut_003() -> None:
    """003_b8808002a4adcb43.txt: the first dealer is chosen by cutting for the highest card."""
    v = kachuful(dealer=DealerRule(first=FirstDealer.CUT))
    for seed in range(30):
        g = Game(v, players=4, seed=seed)
        cuts = [e[1] for e in g.events if e[0] == "cut"]
        assert cuts
        last = cuts[-1]
        top = max(c.rank for _, c in last)
        assert [s for s, c in last if c.rank == top] == [g.dealer]
        for earlier in cuts[:-1]:
            best = max(c.rank for _, c in earlier)
            assert sum(c.rank == best for _, c in earlier) > 1


# --------------------------------------------------------------------------- play rules


def test_first_lead_ace_of_spades_holder() -> None:
    """001_e4032eef84513c77.txt: the holder of A♠ leads it (a play rule any variant may use)."""
    v = one_hand(
        2,
        play=PlayRule(
            first_leader=FirstLeader.HOLDER, lead_card=card("A♠"), first_lead=FirstLead.CARD
        ),
    )
    g = Game(v, players=4, deck=stack("2♣ 3♣", "A♠ 4♣", "2♦ 3♦", "4♦ 5♦"))
    bid_all(g, 0, 0, 0, 1)
    assert g.to_act == 1
    assert g.legal_actions() == (Play(card("A♠")),)
    with pytest.raises(IllegalAction, match="first lead of the hand must be A♠"):
        g.apply(Play(card("4♣")), g.to_act)


def test_must_trump_and_must_beat() -> None:
    """House rules in 000_05789f49e1c2534d.txt ("some groups play a stricter version")."""
    hearts = TrumpRule(kind=TrumpKind.FIXED, suit=Suit.HEARTS)
    deck = stack("K♣ 2♠", "4♣ A♣", "2♥ 9♥", "5♥ 6♠")
    v = one_hand(2, trumps=hearts, play=PlayRule.from_flags(must_trump=True))
    g = Game(v, players=4, deck=deck)
    bid_all(g, 0, 0, 0, 0)
    play(g, "K♣")
    assert g.legal_actions() == (Play(card("4♣")), Play(card("A♣")))
    play(g, "4♣")
    assert set(g.legal_actions()) == {Play(card("2♥")), Play(card("9♥"))}
    play(g, "2♥")
    with pytest.raises(IllegalAction, match="must trump when void in clubs"):
        g.apply(Play(card("6♠")), g.to_act)
    # Must beat: following, only higher cards; void, only a higher trump when able.
    v = one_hand(2, trumps=hearts, play=PlayRule.from_flags(must_beat=True))
    g = Game(v, players=4, deck=deck)
    bid_all(g, 0, 0, 0, 0)
    play(g, "K♣")
    assert g.legal_actions() == (Play(card("A♣")),)
    with pytest.raises(IllegalAction, match="must beat K♣: you hold A♣"):
        g.apply(Play(card("4♣")), g.to_act)
    play(g, "A♣", "9♥")
    # 5♥ cannot beat 9♥: any card.
    assert g.legal_actions() == (Play(card("5♥")), Play(card("6♠")))


def test_trumps_once_broken() -> None:
    """002_d103a11c6570c2d3.txt says "a trump may be led"; the stricter house rule waits."""
    hearts = TrumpRule(kind=TrumpKind.FIXED, suit=Suit.HEARTS)
    v = one_hand(2, trumps=hearts, play=PlayRule.from_flags(trump_lead=TrumpLead.BROKEN))
    g = Game(v, players=4, deck=stack("2♥ 3♣", "4♣ 5♣", "6♣ 7♣", "8♣ 9♣"))
    bid_all(g, 0, 0, 0, 1)
    assert g.legal_actions() == (Play(card("3♣")),)
    with pytest.raises(IllegalAction, match=r"trumps \(hearts\) have not been broken"):
        g.apply(Play(card("2♥")), g.to_act)


# --------------------------------------------------------------------------- bidding styles


def test_simultaneous_bids_hidden_until_all_in_002() -> None:
    """002_d103a11c6570c2d3.txt, fists: everyone bids at once, no hook."""
    g = Game(simultaneous(one_hand(3)), players=4, seed=4)
    assert g.waiting_for == {0, 1, 2, 3}
    g.apply(Bid(2), seat=2)
    assert g.view(1).bids == (None, None, None, None) and g.view(1).bid_made[2]
    assert g.view(2).bids[2] == 2
    assert [e.astuple() for e in g.events_for(1) if e[0] == "bid"] == [("bid", 2, None, False)]
    with pytest.raises(IllegalAction, match="already bid"):
        g.apply(Bid(1), seat=2)
    g.apply(Bid(1), seat=0)
    g.apply(Bid(0), seat=3)
    assert g.waiting_for == {1}
    g.apply(Bid(0), g.to_act)  # seat 1, the last; 3 tricks would be fine without a hook
    assert g.phase == "play"
    assert g.view(1).bids == (1, 0, 2, 0)


def test_forehead_hand_003() -> None:
    """003_b8808002a4adcb43.txt: the one-card round played on the forehead."""
    v = one_hand(1, bidding=BiddingRule(forehead_sizes=(1,)))
    g = Game(v, players=3, deck=stack("A♠", "2♣", "3♣"), first_dealer=2)
    view = g.view(0)
    assert view.hand is None
    assert dict(view.visible_hands) == {1: (card("2♣"),), 2: (card("3♣"),)}
    assert "A♠" not in view.to_json()
    deal = next(e for e in g.events_for(0) if e[0] == "deal")
    assert deal[4][0] is None and deal[4][1] == CardSet(cards("2♣"))
    bid_all(g, 0, 1, 1)
    assert g.view(0).hand == (card("A♠"),)


def test_amend_until_next_bid_002() -> None:
    """002_d103a11c6570c2d3.txt: a bid can be changed only until the next player has bid."""
    g = Game(one_hand(3, bidding=BiddingRule(amend=True)), players=4, seed=2)
    g.apply(Bid(1), g.to_act)
    assert g.waiting_for == {0, 1}
    assert Amend(2) in g.legal_actions(0)
    g.apply(Amend(2), 0)
    assert g.bids[0] == 2
    g.apply(Bid(0), g.to_act)
    with pytest.raises(IllegalAction, match="only be changed by the last seat"):
        g.apply(Amend(1), seat=0)
    g.apply(Amend(1), seat=1)
    g.apply(Bid(0), g.to_act)
    assert _dealer_bids(g) == [1, 2, 3]  # 2 + 1 + 0 already make 3: not 0
    assert g.legal_actions(1) == ()
    assert g.legal_actions(2) == (Amend(1), Amend(2), Amend(3))  # until the dealer bids
    g.apply(Amend(1), seat=2)
    assert _dealer_bids(g) == [0, 1, 2, 3]  # 2 + 1 + 1: past the total
    g.apply(Bid(0), g.to_act)
    assert g.phase == "play" and g.legal_actions(2) == ()


# --------------------------------------------------------------------------- ties, ids, saves


def test_tie_break_extra_hands_then_shared_002() -> None:
    """002_d103a11c6570c2d3.txt: a tie after the last hand: more hands of the largest size."""
    v = one_hand(
        3, scoring=formula("0"), winning=WinRule(tie=TieBreak.EXTRA_HANDS, max_extra_hands=3)
    )
    g = Game(v, players=4, seed=1)
    _play_out(g)
    assert _hands_played(g) == [3, 3, 3, 3]
    assert g.result is not None and g.result.shared and g.result.winners == (0, 1, 2, 3)


def test_tie_break_until_one_leads() -> None:
    """002_d103a11c6570c2d3.txt: repeat until one player leads; any player can win it."""
    v = one_hand(2, scoring=formula("tricks"), winning=WinRule(max_extra_hands=50))
    for seed in range(10):
        g = Game(v, players=4, seed=seed)
        _play_out(g)
        totals = g.scores
        assert g.result is not None and not g.result.shared
        assert sum(t == max(totals) for t in totals) == 1


def test_tie_break_never_silently_shared() -> None:
    """002_d103a11c6570c2d3.txt: repeat hands until one player leads. With no limit in
    the file, a tie that outlasts the safety bound ends the game unfinished, not shared."""
    from cardrules.rules import MAX_TIE_HANDS

    v = one_hand(2, scoring=formula("0"), winning=WinRule(tie=TieBreak.EXTRA_HANDS))
    g = Game(v, players=4, seed=5)
    _play_out(g)
    assert g.extra_hands == MAX_TIE_HANDS
    assert g.result is not None and not g.result.finished
    assert not g.result.shared and g.result.winners == ()


def test_tie_break_default_is_until_one_leads() -> None:
    """The built-in Oh Hell file: no limit but the safety bound (old default: shared after 20)."""
    from cardrules import load
    from cardrules.rules import MAX_TIE_HANDS

    v = load("oh-hell")
    assert v.winning.max_extra_hands is None
    assert v.winning.extra_hand_limit == MAX_TIE_HANDS > 20


def test_action_ids() -> None:
    from cardrules.engine.actions import PASS_BASE

    # Every id names its action, but the block kept for Pass(card) (not yet here).
    used = [i for i in range(NUM_ACTIONS) if not PASS_BASE <= i < PASS_BASE + 52]
    assert [Action.from_id(i).id for i in used] == used
    assert Action.from_id(51) is Play(card("A♠")) and Bid(0).id == 52
    assert Bid(3, blind=True) is Action.from_id(Bid(3, blind=True).id)
    for bad in (-1, NUM_ACTIONS, "3", 3.0, True):
        with pytest.raises(InvalidAction):
            Action.from_id(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction):
        Bid(-52)
    g = Game(one_hand(3), players=4, seed=0)
    ids = g.legal_action_ids()
    g.apply_action(ids[0])
    assert g.current_player() == g.to_act


def test_variant_player_range() -> None:
    with pytest.raises(VariantError, match="3 to 7 players, not 9"):
        Game(kachuful(), players=9)
    with pytest.raises(VariantError, match="pack has 52"):
        Game(one_hand(13, players=PlayerRange(3, 7)), players=5)


def _tamper(text: str, fn: object) -> str:
    data = json.loads(text)
    fn(data)  # type: ignore[operator]
    return json.dumps(data, ensure_ascii=False)


def test_from_json_rejects_tampered_saves() -> None:
    v = one_hand(3)
    g = Game(v, players=4, seed=11)
    bid_all(g, 1, 0)
    text = g.to_json()
    assert Game.from_json(text, variant=v) == g

    def dup(d: dict) -> None:  # type: ignore[type-arg]
        d["deals"][0]["hands"][1][0] = d["deals"][0]["hands"][0][0]

    def missing(d: dict) -> None:  # type: ignore[type-arg]
        d["deals"][0]["hands"][2].pop()

    def bad_bid(d: dict) -> None:  # type: ignore[type-arg]
        d["actions"][0][1] = Bid(7).id

    def wrong_turn(d: dict) -> None:  # type: ignore[type-arg]
        d["actions"][0][0] = 2

    def scores(d: dict) -> None:  # type: ignore[type-arg]
        d["state"]["scores"][0] = "5"

    for fn, msg in [
        (dup, "appears twice"),
        (missing, "dealt 2 cards, but this hand deals 3"),
        (bad_bid, "bids run from 0 to 3"),
        (wrong_turn, "turn to bid"),
        (scores, "summary"),
    ]:
        with pytest.raises(SaveError, match=msg):
            Game.from_json(_tamper(text, fn), variant=v)
    with pytest.raises(SaveError, match="different rules"):
        Game.from_json(text, variant=v.evolve(scoring=formula("tricks")))
    for junk in ("", "[]", "{}", '{"format": "cardrules.game", "version": 1}', "nan" * 3):
        with pytest.raises(SaveError):
            Game.from_json(junk, variant=v)


def test_views_are_json() -> None:
    g = Game(oh_hell(), players=5, seed=3)
    for s in range(5):
        d = json.loads(g.view(s).to_json())
        assert d["seat"] == s and len(d["hand"]) == 10
    assert g.view(g.to_act or 0).legal_actions
    assert isinstance(g.information_state_string(0), str)
    assert g.returns() == [0.0] * 5
    assert g.scores == (Fraction(0),) * 5


def test_decks_per_hand_and_reuse() -> None:
    """``deck=`` takes one order (reused every hand) or a list of orders, one per hand."""
    v = kachuful(
        schedule=ScheduleRule(pattern=Pattern.LIST, sizes=(1, 1, 1)),
        winning=WinRule(tie=TieBreak.SHARED),
    )
    order = cards("2♣ 3♣ 4♣ 5♣")
    g = Game(v, players=4, deck=order, first_dealer=3)
    _play_out(g)
    deals = [e[4] for e in g.events if e[0] == "deal"]
    assert [d[0] for d in deals] == [
        CardSet(cards("2♣")),
        CardSet(cards("5♣")),
        CardSet(cards("4♣")),
    ]
    g = Game(v, players=4, deck=[order, "A♠ K♠ Q♠ J♠"], first_dealer=3, seed=8)
    _play_out(g)
    deals = [e[4] for e in g.events if e[0] == "deal"]
    assert deals[1][1] == CardSet(cards("A♠"))  # dealer 0: seat 1 gets the first card
    assert sum(len(h) for h in deals[2]) == 4  # the third hand is shuffled from the seed
    restored = Game.from_json(g.to_json(), variant=v)
    assert restored == g
    with pytest.raises(ValueError, match="appears twice"):
        Game(v, players=4, deck=cards("2♣ 2♣"))


def test_after_the_end_and_max_tricks() -> None:
    g = Game(one_hand(3), players=4, seed=0)
    _play_out(g)
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(Play(card("2♣")), g.to_act)
    assert g.to_act is None and g.current_player() == -4 and g.legal_actions() == ()
    g = Game(kachuful(), players=4, seed=0, max_tricks=12)
    _play_out(g)
    assert g.result is not None and not g.result.finished and g.result.winners == ()
    assert sum(e[0] == "trick" for e in g.events) == 12


def test_builtin_trick_variants_play_through() -> None:
    """Every trick-taking variant file in ``variants/`` plays a whole game, saves and replays."""
    dsl = pytest.importorskip("cardrules.dsl")
    from cardrules.rules import Mode

    played = 0
    for name in dsl.builtin_names():
        v = dsl.load(name)
        if v.mode is not Mode.TRICKS:
            continue
        players = min(max(4, v.players.min), v.players.max)
        g = Game(v, players=players, seed=played)
        _play_out(g)
        assert g.result is not None and g.result.finished
        assert Game.from_json(g.to_json()) == g == replay(v, g.events)
        played += 1
    assert played >= 10


def test_clone_copies_every_slot() -> None:
    g = Game(kachuful(), players=4, seed=1)
    c = g.clone()
    for name in getattr(Game, "__slots__", ()):  # not there when compiled with mypyc
        assert getattr(c, name) == getattr(g, name), name
    assert c == g and c.to_json() == g.to_json() and c.view(1) == g.view(1)
