"""The shedding mode (Kazhutha) on the same engine: golden tests and properties.

Rules: ``../shared/seeds/001_e4032eef84513c77.txt`` (Kazhutha rules).
"""

from __future__ import annotations

import itertools
import random

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings
from test_engine_props import check_conservation, check_round_trip

from cardrules.cards import FULL_DECK_MASK, Card, CardSet, Suit, card
from cardrules.engine import Game, Match, Play, replay
from cardrules.errors import IllegalAction, SaveError, VariantError
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    DeadTricks,
    DeckRule,
    Direction,
    EndWhenAllOut,
    FirstLead,
    FirstLeader,
    MatchRule,
    Mode,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    SheddingRule,
    TrumpKind,
    TrumpRule,
    Variant,
)


def kazhutha(**changes: object) -> Variant:
    """Kazhutha as the 001 text plays it: A♠ leads, anticlockwise, whole pack."""
    v = Variant(
        name="kazhutha-test",
        mode=Mode.SHEDDING,
        players=PlayerRange(3, 8),
        direction=Direction.ANTICLOCKWISE,
        schedule=ScheduleRule(pattern=Pattern.WHOLE_PACK),
        trumps=TrumpRule(kind=TrumpKind.NONE),
        bidding=BiddingRule(style=BidStyle.NONE),
        play=PlayRule(
            first_leader=FirstLeader.HOLDER, lead_card=card("A♠"), first_lead=FirstLead.CARD
        ),
    )
    return v.evolve(**changes) if changes else v


NEIGHBOUR_LEADS = PlayRule(first_leader=FirstLeader.DEALER_NEXT)


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def deal_order(hands: dict[int, str], order: list[int]) -> list[Card]:
    """A deck giving ``hands[seat]`` to each seat when dealt round ``order``."""
    per = {s: cards(h) for s, h in hands.items()}
    deck: list[Card] = []
    i = 0
    while any(per.values()):
        s = order[i % len(order)]
        if per[s]:
            deck.append(per[s].pop(0))
        i += 1
    return deck


def small_pack(text: str) -> DeckRule:
    return DeckRule(removed=FULL_DECK_MASK & ~CardSet.parse(text).mask)


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def test_cut_and_pick_up_001() -> None:
    """001_e4032eef84513c77.txt: hearts led; 9♥, K♥, then a cut with A♣: the K♥ player
    picks up all four cards and leads next."""
    hands = {
        3: "4♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
        2: "9♥ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦",
        1: "K♥ 2♥ 3♥ 5♥ 6♥ 7♥ 8♥ 10♥ J♥ Q♥ A♥ A♦ A♠",
        0: "A♣ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
    }
    g = Game(
        kazhutha(play=NEIGHBOUR_LEADS),
        players=4,
        first_dealer=0,
        deck=deal_order(hands, [3, 2, 1, 0]),
    )
    assert g.to_act == 3  # the dealer's neighbour, to the right
    play(g, "4♥", "9♥", "K♥")
    assert g.to_act == 0
    with pytest.raises(IllegalAction, match="you do not hold 2♥"):
        g.apply(Play(card("2♥")), g.to_act)
    play(g, "A♣")
    pickup = [e.astuple() for e in g.events if e[0] == "pickup"]
    assert pickup == [("pickup", 1, (3, 2, 1, 0), tuple(cards("4♥ 9♥ K♥ A♣")))]
    assert g.to_act == 1 and len(g.hand(1)) == 13 + 3
    assert g.current_trick() == ()
    known = dict(g.view(0).known_hands)
    assert set(known[1]) == set(cards("4♥ 9♥ K♥ A♣"))
    check_conservation(g)
    assert replay(g.variant, g.events) == g


def test_ace_of_spades_opens_001() -> None:
    """001_e4032eef84513c77.txt: the player holding the A♠ leads it."""
    g = Game(kazhutha(), players=5, seed=3)
    holder = next(s for s in range(5) if card("A♠") in g.hand(s))
    assert g.to_act == holder
    assert g.legal_actions() == (Play(card("A♠")),)
    spade = PlayRule(
        first_leader=FirstLeader.HOLDER, lead_card=card("A♠"), first_lead=FirstLead.SUIT
    )
    g = Game(kazhutha(play=spade), players=5, seed=3)
    assert {a.card.suit for a in g.legal_actions()} == {card("A♠").suit}  # type: ignore[attr-defined]


PACK = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ K♣ 2♦ 3♦ 4♦"
HANDS = {3: "2♣ 3♣ 4♦", 2: "8♣ 4♣ 3♦", 1: "5♣ 6♣ 2♦", 0: "7♣ K♣"}


def _small_game(all_out: EndWhenAllOut, dead: DeadTricks = DeadTricks.FACE_UP) -> Game:
    v = kazhutha(
        deck=small_pack(PACK),
        play=NEIGHBOUR_LEADS,
        shedding=SheddingRule(dead_tricks=dead, all_out=all_out),
    )
    return Game(v, players=4, first_dealer=0, deck=deal_order(HANDS, [3, 2, 1, 0]))


def test_dead_trick_out_leader_skipped_and_all_out_together_001() -> None:
    """001_e4032eef84513c77.txt: everyone follows: the trick is dead, its highest card
    leads; an out player is skipped as leader; the last players all out: no loser."""
    g = _small_game(EndWhenAllOut.NO_LOSER)
    play(g, "2♣", "8♣", "5♣", "7♣")
    assert [e[0] for e in g.events][-1] == "dead"
    assert g.to_act == 2 and g.card_locations()["dead"] == CardSet(cards("2♣ 8♣ 5♣ 7♣"))
    assert set(g.view(1).dead) == set(cards("2♣ 8♣ 5♣ 7♣"))
    play(g, "4♣", "6♣", "K♣", "3♣")
    assert ("out", 0) in [e.astuple() for e in g.events]
    assert g.to_act == 3  # seat 0 played the K♣ but is out: the next seat leads
    play(g, "4♦", "3♦", "2♦")
    assert g.is_over and g.result is not None
    assert g.result.loser is None and g.result.winners == (0, 1, 2, 3)
    check_conservation(g)
    check_round_trip(g)


def test_all_out_last_leader_loses() -> None:
    """The house-rule choice: when all go out together, the last trick's leader loses."""
    g = _small_game(EndWhenAllOut.LAST_LEADER)
    play(g, "2♣", "8♣", "5♣", "7♣", "4♣", "6♣", "K♣", "3♣", "4♦", "3♦", "2♦")
    assert g.result is not None and g.result.loser == 3 and g.result.winners == (0, 1, 2)


def test_face_down_dead_tricks_001() -> None:
    """001_e4032eef84513c77.txt house rule: dead rounds thrown away face down."""
    g = _small_game(EndWhenAllOut.NO_LOSER, DeadTricks.FACE_DOWN)
    play(g, "2♣", "8♣", "5♣", "7♣")
    assert g.view(1).dead == (card("5♣"),) and g.view(1).dead_count == 4


def test_one_player_left_is_the_kazhutha_001() -> None:
    """001_e4032eef84513c77.txt: play goes on until only one player has cards."""
    for seed in range(20):
        g = Game(kazhutha(), players=3 + seed % 6, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        res = g.result
        assert res is not None and res.finished
        holding = [s for s in range(g.players) if g.hand(s)]
        assert holding == ([] if res.loser is None else [res.loser])


def test_max_tricks_ends_unfinished() -> None:
    g = Game(kazhutha(), players=6, seed=1, max_tricks=3)
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.result is not None and not g.result.finished and g.result.loser is None


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**16))
def test_random_shedding_games(players: int, seed: int, rng_seed: int) -> None:
    """Conservation, out seats never act, cuts go to the highest card of the suit led,
    views hide other hands but show picked-up cards, saves and replays reproduce."""
    g = Game(kazhutha(), players=players, seed=seed, max_tricks=2000)
    rng = random.Random(rng_seed)
    seen = 0
    known: dict[int, set[Card]] = {s: set() for s in range(players)}
    while not g.is_over:
        check_conservation(g)
        seat = g.to_act
        assert seat is not None and g.hand(seat), "a seat without cards acts"
        for s in range(players):
            view = g.view(s)
            others = set().union(*(set(g.hand(t)) for t in range(players) if t != s))
            shown = set(view.played) | {c for _, h in view.known_hands for c in h}
            assert not (set(view.hand or ()) & others)
            assert shown.isdisjoint(others - set().union(*(known[t] for t in known if t != s)))
        if rng.random() < 0.03:
            check_round_trip(g)
        action = rng.choice(g.legal_actions())
        g.apply(action, g.to_act)
        for ev in g.events[seen:]:
            if ev[0] == "pickup":
                _, taker, seats, cs = ev
                led = cs[0].suit
                top = max((c for c in cs if c.suit == led), key=lambda c: c.rank)
                assert seats[cs.index(top)] == taker
                assert cs[-1].suit != led and all(c.suit == led for c in cs[:-1])
                known[taker] |= set(cs)
            elif ev[0] == "play":
                known[ev[1]].discard(ev[2])
            elif ev[0] == "dead":
                assert len({c.suit for c in ev[3]}) == 1
        seen = len(g.events)
    check_conservation(g)
    check_round_trip(g)
    res = g.result
    assert res is not None
    if res.finished:
        holding = [s for s in range(players) if g.hand(s)]
        assert holding == ([] if res.loser is None else [res.loser])


# --------------------------------------------------------------------------- matches


def _play_match(m: Match, seed: int) -> None:
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()), m.to_act)


def test_match_letters_until_the_word_is_spelt_001() -> None:
    """001_e4032eef84513c77.txt: each kazhutha takes the next letter of K-A-Z-H-U-T-H-A;
    the first to hold all eight loses the match."""
    v = kazhutha(match=MatchRule(word="KAZHUTHA"))
    m = Match(v, players=4, seed=5)
    _play_match(m, 5)
    res = m.result
    assert res is not None and res.loser is not None and res.finished
    assert m.letters[res.loser] == "KAZHUTHA"
    assert all(len(w) < 8 for s, w in enumerate(m.letters) if s != res.loser)
    letters = [e for e in m.events if e[0] == "letter"]
    assert len(letters) == sum(len(w) for w in m.letters)
    losers = [g.result.loser for g in m._games if g.result is not None]
    assert [e[2] for e in letters] == [s for s in losers if s is not None]
    assert m.view(0).letters == m.letters
    back = Match.from_json(m.to_json(), variant=v)
    assert back == m and back.letters == m.letters


def test_match_loser_deals_and_donkey_001() -> None:
    """001_e4032eef84513c77.txt house rule: the loser deals the next game; D-O-N-K-E-Y."""
    v = kazhutha(match=MatchRule(word="DONKEY", loser_deals=True))
    m = Match(v, players=5, seed=2)
    _play_match(m, 2)
    games = m._games
    for prev, nxt in itertools.pairwise(games):
        assert prev.result is not None
        if prev.result.loser is not None:
            assert nxt.dealer == prev.result.loser
    assert m.result is not None and m.letters[m.result.loser or 0] == "DONKEY"
    with pytest.raises(IllegalAction, match="match is over"):
        m.apply(Play(card("2♣")), m.to_act)


def test_match_saves_midway_and_rejects_tampering() -> None:
    v = kazhutha(match=MatchRule(word="KA"))
    m = Match(v, players=3, seed=9)
    rng = random.Random(1)
    for _ in range(60):
        m.apply(rng.choice(m.legal_actions()), m.to_act)
    text = m.to_json()
    back = Match.from_json(text, variant=v)
    assert back == m and back.to_act == m.to_act
    c = m.clone()
    _play_match(c, 3)
    assert m.to_json() == text
    bad = text.replace('"letters":[', '"letters":["KA",', 1)
    with pytest.raises(SaveError):
        Match.from_json(bad, variant=v)
    with pytest.raises(VariantError, match="no match word"):
        Match(kazhutha(), players=4)


@pytest.mark.parametrize(
    "trumps",
    [TrumpRule(kind=TrumpKind.TURN_UP), TrumpRule(kind=TrumpKind.FIXED, suit=Suit.HEARTS)],
)
def test_a_shedding_config_with_trumps_is_refused_by_the_engine(trumps: TrumpRule) -> None:
    """Issue 10, item 15: a file is refused at load time; a config built in Python
    (which skips the file checks) is refused by the engine, instead of giving the
    pick-up to the player who trumped."""
    with pytest.raises(VariantError, match="shedding games are played without trumps"):
        Game(kazhutha(trumps=trumps), players=4, seed=1)
