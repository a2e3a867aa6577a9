"""The Kazhutha family of the built-in catalog: ``kazhutha`` and its house rules, from
seed ``001_e4032eef84513c77.txt`` (Kazhutha rules).

For every file: it reads, writes back to itself and changes exactly the rule it
states; 200 seeded random games play to the end with card conservation after
every action and a sound end (the loser, if any, alone holds cards); and its
distinguishing rule is shown on a stacked deck. The seed's worked cut example and
the engine-level endgames are in ``tests/test_shedding_golden.py``.
"""

from __future__ import annotations

import random

import pytest
from catalog_support import check_file

import cardrules
from cardrules.cards import CardSet, Suit, card
from cardrules.engine import Game, Match, Play
from cardrules.errors import IllegalAction
from cardrules.rules import (
    BidStyle,
    DeadTricks,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    Mode,
    Pattern,
    PlayerRange,
    TrumpKind,
)

#: file -> the rule fields in which it differs from kazhutha.
FAMILY: dict[str, set[str]] = {
    "donkey": {"match.word"},
    "kazhutha-any-spade": {"play.first_lead"},
    "kazhutha-neighbour-leads": {"play.first_leader", "play.lead_card", "play.first_lead"},
    "kazhutha-face-down": {"shedding.dead_tricks"},
    "kazhutha-loser-deals": {"match.loser_deals"},
}


def test_kazhutha_is_the_seed_game_001() -> None:
    """001_e4032eef84513c77.txt: 3 to 8 players, one 52-card pack dealt out whole, no
    trumps, play to the right, the A♠ holder leads it, follow suit, the letters of
    K-A-Z-H-U-T-H-A; dead tricks thrown away face up (face down is a house rule)."""
    v = cardrules.load("kazhutha")
    assert v.parent is None and v.mode is Mode.SHEDDING
    assert v.players == PlayerRange(3, 8) and v.deck.size == 52
    assert v.schedule.pattern is Pattern.WHOLE_PACK
    assert v.trumps.kind is TrumpKind.NONE and v.bidding.style is BidStyle.NONE
    assert v.direction is Direction.ANTICLOCKWISE
    assert v.play.first_leader is FirstLeader.HOLDER and v.play.lead_card == card("A♠")
    assert v.play.first_lead is FirstLead.CARD and v.play.must_follow
    assert not v.play.must_trump and not v.play.must_beat
    assert v.shedding.dead_tricks is DeadTricks.FACE_UP
    assert v.shedding.all_out is EndWhenAllOut.NO_LOSER
    assert v.match.word == "KAZHUTHA" and len(v.match.word) == 8
    assert not v.match.loser_deals and v.dealer.first is FirstDealer.RANDOM
    assert v.scoring.formula is None
    assert cardrules.parse(cardrules.format(v), validate=False) == v


@pytest.mark.parametrize(("players", "most"), [(3, 18), (4, 13), (5, 11), (7, 8), (8, 7)])
def test_whole_pack_some_get_one_more_001(players: int, most: int) -> None:
    """001_e4032eef84513c77.txt: the whole pack is dealt one at a time; some players
    get one card more than others."""
    assert cardrules.load("kazhutha").hand_sizes(players) == (most,)


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_file(name: str) -> None:
    """Parses, formats back to itself, loads, and changes exactly its stated rule."""
    check_file(name, FAMILY[name])
    assert cardrules.load(name).parent == "kazhutha"


def test_house_rules_001() -> None:
    """001_e4032eef84513c77.txt, house rules: any spade first, the dealer's neighbour
    leading, dead tricks face down, the loser dealing; D-O-N-K-E-Y in English homes."""
    assert cardrules.load("donkey").match.word == "DONKEY"
    spade = cardrules.load("kazhutha-any-spade").play
    assert spade.first_lead is FirstLead.SUIT and spade.lead_card is not None
    assert spade.lead_card.suit is Suit.SPADES and spade.first_leader is FirstLeader.HOLDER
    neighbour = cardrules.load("kazhutha-neighbour-leads").play
    assert neighbour.first_leader is FirstLeader.DEALER_NEXT
    assert neighbour.lead_card is None and neighbour.first_lead is FirstLead.ANY
    face_down = cardrules.load("kazhutha-face-down").shedding
    assert face_down.dead_tricks is DeadTricks.FACE_DOWN
    assert cardrules.load("kazhutha-loser-deals").match.loser_deals


# --------------------------------------------------------------------------- play


def play_random_shedding(v: cardrules.Variant, players: int, seed: int) -> Game:
    """One random game: after every action the hands, the trick and the dead pile
    hold every card of the pack exactly once; out seats never act; at the end the
    loser (if any) is the only seat holding cards."""
    rng = random.Random(seed)
    g = Game(v, players=players, seed=seed)
    pack = v.deck.cards.mask
    steps = 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None and g.hand(seat)
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        loc = g.card_locations()
        parts = (loc["hands"].mask, loc["trick"].mask, loc["dead"].mask)
        assert not parts[0] & parts[1] and not parts[0] & parts[2] and not parts[1] & parts[2]
        assert parts[0] | parts[1] | parts[2] == pack
        steps += 1
        assert steps < 20000
    res = g.result
    assert res is not None and res.finished
    holding = [s for s in range(players) if g.hand(s)]
    if res.loser is None:
        assert holding == []
    else:
        assert holding == [res.loser] and res.loser not in res.winners
    return g


@pytest.mark.parametrize("name", ["kazhutha", *sorted(FAMILY)])
def test_random_games(name: str) -> None:
    """200 seeded random games per file, player counts cycling through 3 to 8."""
    v = cardrules.load(name)
    for i in range(200):
        play_random_shedding(v, 3 + i % 6, 5000 + i)


#: Four players, seat 0 deals, play and deal go anticlockwise: seats 3, 2, 1, 0.
HANDS = {
    3: "A♠ 5♠ 5♥ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦",
    2: "2♠ 6♠ 7♠ 9♥ 2♥ 3♥ 4♥ 6♥ 7♥ 8♥ Q♦ K♦ A♦",
    1: "3♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ K♥ 10♥ J♥ Q♥ A♥ 2♣",
    0: "4♠ A♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
}


def stacked(name: str, dealer: int = 0) -> Game:
    order = [(dealer - 1 - k) % 4 for k in range(4)]
    per = {s: [card(c) for c in h.split()] for s, h in HANDS.items()}
    deck = [per[s][i] for i in range(13) for s in order]
    g = Game(cardrules.load(name), players=4, deck=deck, first_dealer=dealer)
    for s, h in HANDS.items():
        assert g.hand(s) == CardSet.parse(h)
    return g


def test_ace_of_spades_leads_and_dead_tricks_face_up_001() -> None:
    """001_e4032eef84513c77.txt: the A♠ holder must lead it (not the 5♠); everyone
    follows, the trick is dead, and (kazhutha, face up) every seat sees it."""
    g = stacked("kazhutha")
    assert g.to_act == 3 and g.legal_actions() == (Play("A♠"),)
    with pytest.raises(IllegalAction):
        g.apply(Play("5♠"), g.to_act)
    for c in ("A♠", "2♠", "3♠", "4♠"):
        g.apply(Play(c), g.to_act)
    dead = tuple(sorted(card(c) for c in ["A♠", "2♠", "3♠", "4♠"]))
    assert all(g.view(s).dead == dead for s in range(4))
    assert g.to_act == 3  # the highest card of the suit leads again


def test_face_down_hides_the_others_dead_cards_001() -> None:
    """kazhutha-face-down: after a dead trick each seat sees only its own dead card."""
    g = stacked("kazhutha-face-down")
    for c in ("A♠", "2♠", "3♠", "4♠"):
        g.apply(Play(c), g.to_act)
    for s, own in {3: "A♠", 2: "2♠", 1: "3♠", 0: "4♠"}.items():
        assert g.view(s).dead == (card(own),)


def test_any_spade_first_001() -> None:
    """kazhutha-any-spade: the A♠ holder may open with any spade, not another suit."""
    g = stacked("kazhutha-any-spade")
    assert {a.card for a in g.legal_actions()} == {card("A♠"), card("5♠")}


def test_dealers_neighbour_leads_any_card_001() -> None:
    """kazhutha-neighbour-leads: the seat after the dealer (to the right) leads anything,
    though another seat holds the A♠."""
    g = stacked("kazhutha-neighbour-leads", dealer=1)
    assert g.to_act == 0 and card("A♠") not in g.hand(0)
    assert {a.card for a in g.legal_actions()} == set(g.hand(0))


@pytest.mark.parametrize(
    ("name", "loser_deals"), [("kazhutha-loser-deals", True), ("kazhutha", False)]
)
def test_loser_deals_the_next_game_001(name: str, loser_deals: bool) -> None:
    """kazhutha-loser-deals: the kazhutha of a game deals the next; plain kazhutha
    passes the deal to the next seat (to the right)."""
    m = Match(cardrules.load(name), players=5, seed=21, max_tricks=3000)
    rng = random.Random(2)
    seen = 0
    previous = m.game
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()), m.to_act)
        if m.game is not previous and not m.is_over:
            res = previous.result
            assert res is not None
            if loser_deals and res.loser is not None:
                assert m.game.dealer == res.loser
                seen += 1
            else:
                assert m.game.dealer == (previous.dealer - 1) % 5
            previous = m.game
    assert seen or not loser_deals


@pytest.mark.parametrize(("name", "word"), [("kazhutha", "KAZHUTHA"), ("donkey", "DONKEY")])
def test_match_is_lost_on_the_whole_word_001(name: str, word: str) -> None:
    """001_e4032eef84513c77.txt: each loser takes the next letter; the first to hold
    K-A-Z-H-U-T-H-A (D-O-N-K-E-Y for donkey) loses the match."""
    m = Match(cardrules.load(name), players=4, seed=9, max_tricks=3000)
    rng = random.Random(9)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()), m.to_act)
    res = m.result
    assert res is not None and res.loser is not None
    assert m.letters[res.loser] == word
    assert all(
        word.startswith(w) and len(w) < len(word) for s, w in enumerate(m.letters) if s != res.loser
    )
