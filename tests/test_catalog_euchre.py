"""The Euchre files of the catalog (``variants/euchre*.cardrules``), after
Pagat (https://www.pagat.com/euchre/euchre.html): the file's own checks, its
defining rules on stacked deals (an order-up, a second-round name, stick the
dealer, a hand thrown in, a euchre, the bowers, the makers scoring as a side),
200 seeded games to the end, and bots.
"""

from __future__ import annotations

import random

import pytest
from catalog_support import cards, play, plays, roundtrip, rule_differences, stack

import cardrules
from cardrules import Game
from cardrules.cards import CardSet, Suit, card
from cardrules.engine import Play, replay
from cardrules.engine.actions import Alone, Decline, Discard, Name, OrderUp, WithPartner
from cardrules.errors import IllegalAction
from cardrules.simulate import simulate

EUCHRE = cardrules.load("euchre")
STICK = cardrules.load("euchre-stick-the-dealer")


def test_the_file_says_where_it_comes_from_and_round_trips() -> None:
    for v in (EUCHRE, STICK):
        assert v.title and v.summary and v.source.startswith("# ")
        lead = v.source.split("game:")[0].lower()
        assert "pagat.com/euchre/euchre.html" in lead
        roundtrip(v)
    assert rule_differences("euchre-stick-the-dealer") == {"trumps.stick_dealer"}


def test_the_pack_is_nine_to_ace_and_five_cards_each() -> None:
    assert len(EUCHRE.deck.cards) == 24
    assert {c.rank for c in EUCHRE.deck.cards} == {9, 10, 11, 12, 13, 14}
    g = Game(EUCHRE, 4, seed=1)
    assert g.hand_size == 5 and g.turned_up is not None and g.phase == "trumps"
    locations = g.card_locations()
    assert len(locations["hands"]) == 20 and len(locations["turned"]) == 1
    assert len(locations["undealt"]) == 3


DEAL = stack(
    "10♣ 9♦ 10♦ Q♦ K♦",
    "J♣ A♣ K♣ Q♣ A♠",
    "A♦ 9♥ 10♥ Q♥ K♥",
    "J♠ K♠ Q♠ 10♠ 9♠",
    turn="9♣",
)


def test_the_sides_are_partners_facing_each_other() -> None:
    assert EUCHRE.teams == ((0, 2), (1, 3))
    assert [EUCHRE.team_of(s) for s in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]


def test_an_order_up_and_a_euchre() -> None:
    """Seat 1 orders up 9♣ with one club: seat 2 holds the right bower and the
    top clubs, seat 4 the left bower (J♠, a club), so the makers (seats 1 and
    3) take fewer than three tricks and both defenders score 2."""
    g = Game(EUCHRE, 4, deck=DEAL, first_dealer=3)
    assert g.legal_actions() == (OrderUp(), Decline())
    g.apply(OrderUp(), g.to_act)
    assert g.trump is Suit.CLUBS and card("9♣") in g.hand(3)
    g.apply(Discard("9♠"), g.to_act)
    assert g.card_locations()["discarded"] == CardSet(cards("9♠"))
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    tricks = score[3]
    assert tricks[0] + tricks[2] < 3 and tuple(score[4]) == (0, 2, 0, 2)


def test_the_bowers() -> None:
    """With clubs trumps the J♣ (right bower) beats everything and the J♠ (left
    bower) is a club: it must follow a club lead, and it does not follow spades."""
    g = Game(EUCHRE, 4, deck=DEAL, first_dealer=3)
    g.apply(OrderUp(), g.to_act)
    g.apply(Discard("9♠"), g.to_act)
    g.apply(WithPartner(), g.to_act)
    play(g, "10♣")  # seat 1 leads a trump
    assert plays(g) == {"J♣", "A♣", "K♣", "Q♣"}
    play(g, "A♣", "A♦")  # seat 3 has no club
    # Seat 4 must follow clubs: with its left bower or the 9♣ it took up, not a spade.
    assert plays(g) == {"J♠", "9♣"}
    play(g, "J♠")  # the left bower beats the ace of trumps
    assert g.events[-1][0] == "trick" and g.events[-1][1] == 3
    # A spade led: seat 4 holds J♠ no more; seat 2's A♠ follows, its clubs may not.
    play(g, "K♠", "9♦")
    assert plays(g) == {"A♠"}
    play(g, "A♠", "9♥")
    g2 = Game(EUCHRE, 4, deck=DEAL, first_dealer=3)
    g2.apply(OrderUp(), g2.to_act)
    g2.apply(Discard("9♠"), g2.to_act)
    g2.apply(WithPartner(), g2.to_act)
    play(g2, "10♣", "J♣", "A♦", "J♠")  # the right bower beats the left
    assert g2.events[-1][0] == "trick" and g2.events[-1][1] == 1


def test_the_makers_score_as_a_side() -> None:
    """Seat 2 orders up 9♥ for its side; its partner, seat 4, takes the tricks:
    ``maker`` and ``maker_tricks`` read the side, so both score."""
    deal = stack(
        "9♦ 10♦ Q♦ K♦ 9♣",
        "10♣ Q♣ 9♠ 10♠ Q♠",
        "A♦ 10♥ K♣ A♣ A♠",
        "J♥ J♦ A♥ K♥ Q♥",
        turn="9♥",
    )
    g = Game(EUCHRE, 4, deck=deal, first_dealer=3)
    g.apply(Decline(), g.to_act)
    g.apply(OrderUp(), g.to_act)  # seat 2 makes hearts; the dealer, seat 4, takes the 9♥
    g.apply(Discard("9♥"), g.to_act)
    assert g.view(0).trump_maker == 1
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    tricks = score[3]
    assert tricks[1] + tricks[3] >= 3 and tricks[1] < 3
    want = 2 if tricks[1] + tricks[3] == 5 else 1
    assert tuple(score[4]) == (0, want, 0, want)


def test_a_refusal_then_a_second_round_name() -> None:
    g = Game(EUCHRE, 4, deck=DEAL, first_dealer=3)
    for _ in range(4):
        g.apply(Decline(), g.to_act)
    with pytest.raises(IllegalAction, match="turned down"):
        g.apply(Name(Suit.CLUBS), g.to_act)
    g.apply(Decline(), g.to_act)
    g.apply(Name(Suit.DIAMONDS), g.to_act)
    assert g.trump is Suit.DIAMONDS and g.view(0).trump_maker == 1
    assert g.legal_actions() == (WithPartner(), Alone()) and g.to_act == 1
    assert all(card("9♣") not in g.hand(s) for s in range(4))


def test_all_pass_twice_the_hand_is_thrown_in_and_the_next_dealer_deals() -> None:
    g = Game(EUCHRE, 4, deck=DEAL, first_dealer=3)
    for _ in range(8):
        g.apply(Decline(), g.to_act)
    assert (
        ("thrown in", 1) in [e.astuple() for e in g.events] and g.hand_number == 2 and g.dealer == 0
    )
    assert g.scores == (0, 0, 0, 0)


def test_stick_the_dealer() -> None:
    g = Game(STICK, 4, deck=DEAL, first_dealer=3)
    for _ in range(7):
        g.apply(Decline(), g.to_act)
    assert Decline() not in g.legal_actions()
    with pytest.raises(IllegalAction, match="stick the dealer"):
        g.apply(Decline(), g.to_act)
    g.apply(Name(Suit.SPADES), g.to_act)
    g.apply(WithPartner(), g.to_act)
    assert g.trump is Suit.SPADES and g.phase == "play"


def test_the_game_ends_at_ten_points() -> None:
    g = Game(EUCHRE, 4, seed=7)
    rng = random.Random(7)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    assert g.result is not None and g.result.finished
    assert max(g.scores) >= 10
    before_last = [e[5] for e in g.events if e[0] == "score"][-2]
    assert max(before_last) < 10


def _play(v: cardrules.Variant, seed: int) -> Game:
    g = Game(v, 4, seed=seed)
    rng = random.Random(seed)
    pack = v.deck.cards.mask
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask
            union |= part.mask
        assert union == pack
    return g


@pytest.mark.parametrize("v", [EUCHRE, STICK], ids=["euchre", "stick"])
def test_200_seeded_games_play_to_the_end(v: cardrules.Variant) -> None:
    thrown = 0
    lone_marches = 0
    for seed in range(200):
        g = _play(v, seed)
        assert g.result is not None and g.result.finished
        thrown += sum(1 for e in g.events if e[0] == "thrown in")
        alone = False
        for e in g.events:
            if e[0] == "deal":
                alone = False
            elif e[0] == "call" and e[2] is Alone():
                alone = True
            elif e[0] == "score":
                # Each hand: one side scores 1 or 2 (the makers, or 2 for a
                # euchre), or 4 for a lone march; partners alike.
                p = e[4]
                assert p[0] == p[2] and p[1] == p[3], e
                assert sorted(p) in ([0, 0, 1, 1], [0, 0, 2, 2], [0, 0, 4, 4]), e
                if sorted(p) == [0, 0, 4, 4]:
                    assert alone and sum(e[3]) == 5 and 5 in (e[3][0] + e[3][2], e[3][1] + e[3][3])
                    lone_marches += 1
    assert lone_marches > 0
    if v is STICK:
        assert thrown == 0  # the dealer is stuck: no hand is ever thrown in


@pytest.mark.parametrize("v", [EUCHRE, STICK], ids=["euchre", "stick"])
def test_the_heuristic_beats_random(v: cardrules.Variant) -> None:
    """A side of heuristic bots (seats 1 and 3) beats a side of random ones."""
    s = simulate(v, 4, 100, bots=["heuristic", "random", "heuristic", "random"], seed=11)
    assert s.finished == 100 and s.wins[0] == s.wins[2] and s.wins[0] > 80


# ---------------------------------------------------------------------- going alone

#: Seat 3 (index 2) holds five trumps for clubs; seat 1 (the dealer's neighbour,
#: its partner) will sit out.
LONE = stack(
    "9♦ 10♦ Q♦ K♦ A♦",
    "9♥ 10♥ Q♥ K♥ A♥",
    "J♣ J♠ A♣ K♣ Q♣",
    "A♠ K♠ Q♠ 10♠ 9♠",
    turn="9♣",
)


def _lone(v: cardrules.Variant = EUCHRE) -> Game:
    g = Game(v, 4, deck=LONE, first_dealer=3)
    g.apply(Decline(), g.to_act)
    g.apply(Decline(), g.to_act)
    g.apply(OrderUp(), g.to_act)  # seat 3 makes clubs; the dealer, seat 4, takes the 9♣
    g.apply(Discard("9♠"), g.to_act)
    assert g.legal_actions() == (WithPartner(), Alone()) and g.to_act == 2
    g.apply(Alone(), g.to_act)
    return g


def test_going_alone_the_partner_sits_out_and_a_march_scores_4() -> None:
    g = _lone()
    # Seat 1, the dealer's neighbour, sits out: seat 2 leads; tricks have 3 cards.
    assert g.phase == "play" and g.to_act == 1
    assert all(g.view(s).alone == 2 for s in range(4))
    sat = g.hand(0)
    play(g, "A♥", "J♣", "A♠")
    assert g.events[-1][0] == "trick" and g.events[-1][1] == 2 and len(g.events[-1][3]) == 3
    assert g.legal_actions(0) == ()
    while g.hand_number == 1:
        assert g.to_act != 0
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    assert score[3] == (0, 0, 5, 0)
    assert tuple(score[4]) == (4, 0, 4, 0)
    # The partner's cards stayed in its hand, face down, unplayed, until the deal.
    hand1 = [e for e in g.events if e[0] == "play"]
    assert all(e[1] != 0 for e in hand1) and len(hand1) == 15
    assert len(sat) == 5
    # The partner is back for the next hand: seat 1 deals, seat 2 leads after the call.
    assert g.hand_number == 2 and g.dealer == 0 and g.view(0).alone is None


def test_going_alone_never_shows_the_partners_hand_and_round_trips() -> None:
    g = _lone()
    play(g, "A♥", "J♣")
    for s in (1, 2, 3):
        v = g.view(s)
        assert 0 not in dict(v.visible_hands) and 0 not in dict(v.known_hands)
        assert all(e[0] != "deal" or e[4][0] is None for e in g.events_for(s))
    assert g.view(0).hand_counts[0] == 5
    back = Game.from_json(g.to_json())
    assert back.to_json() == g.to_json() and back.view(1) == g.view(1)
    c = g.clone()
    assert c.view(3) == g.view(3)
    c.apply(c.legal_actions()[0], c.to_act)
    assert g.to_act == 3 and len(g.current_trick()) == 2  # the clone is independent
    r = replay(EUCHRE, g.events)
    assert all(r.view(s) == g.view(s) for s in range(4)) and r.events == g.events


def test_the_maker_must_choose_and_a_refusal_changes_nothing() -> None:
    g = Game(EUCHRE, 4, deck=LONE, first_dealer=3)
    g.apply(Decline(), g.to_act)
    g.apply(Decline(), g.to_act)
    g.apply(OrderUp(), g.to_act)
    with pytest.raises(IllegalAction):
        g.apply(Alone(), g.to_act)  # the dealer discards first
    g.apply(Discard("9♠"), g.to_act)
    before = g.to_json()
    with pytest.raises(IllegalAction, match="go alone or play with partner"):
        g.apply(Play(card("J♣")), g.to_act)
    with pytest.raises(IllegalAction, match="turn"):
        g.apply(Alone(), seat=0)
    assert g.to_json() == before
    g.apply(WithPartner(), g.to_act)
    assert g.to_act == 0 and g.view(0).alone is None
    with pytest.raises(IllegalAction):
        g.apply(Alone(), g.to_act)
