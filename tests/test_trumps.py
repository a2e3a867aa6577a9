"""Trumps chosen by a player (issue 12 item 5): golden tests on stacked deals,
saves, clones and replays in the middle of the choice, and properties over
whole games (conservation of cards with the discard, no view that leaks).

The ways of choosing: the highest bidder names trumps after the bidding; the
winner of most tricks in the previous hand names them; order-up (a turned card
ordered up or refused in turn, a second round naming another suit, stick the
dealer, a hand thrown in when all pass); the dealer's last card turned up.
"""

from __future__ import annotations

import random
import re

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

from cardrules.cards import Card, CardSet, Suit, card
from cardrules.dsl import load_text
from cardrules.engine import Game, replay
from cardrules.engine.actions import (
    DECLINE_ID,
    DISCARD_BASE,
    NAME_NO_TRUMPS_ID,
    NUM_ACTIONS,
    ORDER_UP_ID,
    PASS_BASE,
    TRUMP_BASE,
    Action,
    Bid,
    Decline,
    Discard,
    Name,
    OrderUp,
    Pass,
    Play,
)
from cardrules.errors import IllegalAction, InvalidAction, VariantError
from cardrules.rules import PassRule, PassTo, Variant

EUCHRE_SCORE = (
    "if maker then (if maker_tricks = 5 then 2 else if maker_tricks >= 3 then 1 else 0) "
    "else (if maker_tricks < 3 then 2 else 0)"
)

ORDER_UP = load_text(
    f"""game: order-up-test
players: 4
hand size: 5
hands: 3 hands of the same size
trumps: order up
bidding: none
hook: no
score: {EUCHRE_SCORE}
"""
)
STICK = load_text(
    f"""game: stick-test
players: 4
hand size: 5
hands: 3 hands of the same size
trumps: order up
stick the dealer: yes
bidding: none
hook: no
score: {EUCHRE_SCORE}
"""
)
BIDDER = load_text(
    """game: bidder-test
players: 4
hand size: 3
hands: 2 hands of the same size
trumps: named by the highest bidder
may name no trumps: yes
hook: no
score: tricks + (if exact then 10 else 0) + (if maker then 1 else 0)
"""
)
MOST = load_text(
    """game: most-test
players: 3
hands: list 2 2 2
trumps: turned up, then named by the winner of most tricks
bidding: none
hook: no
score: tricks
"""
)
DEALER = load_text(
    """game: dealer-card-test
players: 4
hand size: 3
hands: 2 hands of the same size
trumps: dealer's last card
bidding: none
hook: no
score: tricks
"""
)

ALL = (ORDER_UP, STICK, BIDDER, MOST, DEALER)


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def stack(*hands: str, turned: str | None = None) -> list[Card]:
    """A deck dealing ``hands[i]`` to the i-th seat in dealing order, then the
    card to turn up."""
    per = [cards(h) for h in hands]
    size = len(per[0])
    deck = [per[j][i] for i in range(size) for j in range(len(per))]
    return deck + ([card(turned)] if turned else [])


# Seat 4 (index 3) deals, so seats 1, 2, 3, 4 (indexes 0-3) are dealt in that order.
HANDS = ("A♠ K♠ 2♣ 3♦ 4♦", "Q♥ J♥ 10♥ A♣ 5♦", "9♠ 8♠ 7♠ 6♠ 5♠", "2♥ 3♥ 4♥ 5♥ 6♥")


def order_up_game(v: Variant = ORDER_UP, turned: str = "A♥") -> Game:
    return Game(v, 4, seed=5, deck=stack(*HANDS, turned=turned), first_dealer=3)


def hand_of(g: Game, s: int) -> set[Card]:
    return set(g.hand(s))


def conserved(g: Game) -> None:
    locs = g.card_locations()
    seen = 0
    total = 0
    for where in locs.values():
        assert not where.mask & seen, locs
        seen |= where.mask
        total += len(where)
    assert seen == g.variant.deck.cards.mask and total == len(g.variant.deck.cards)


# --------------------------------------------------------------------------- action ids


def test_action_ids_of_the_trumps_block() -> None:
    """The trumps block follows the passing block: Name(suit) x4, Name(None),
    OrderUp, Decline, then Discard(card) x52."""
    assert TRUMP_BASE == PASS_BASE + 52 == 264
    assert [Name(s).id for s in Suit] == [TRUMP_BASE + i for i in range(4)]
    assert Name(None).id == NAME_NO_TRUMPS_ID == TRUMP_BASE + 4
    assert OrderUp().id == ORDER_UP_ID and Decline().id == DECLINE_ID == ORDER_UP_ID + 1
    assert Discard("A♠").id == DISCARD_BASE + int(card("A♠"))
    assert NUM_ACTIONS > DISCARD_BASE + 51  # the shedding games' block follows
    for a in (Name(Suit.HEARTS), Name(None), OrderUp(), Decline(), Discard("9♦")):
        assert Action.from_id(a.id) is a
    assert Name("hearts") is Name(Suit.HEARTS) and Name("♠") is Name(Suit.SPADES)
    assert Action.from_id(TRUMP_BASE - 1) is Pass(51)  # the last of the passing block
    with pytest.raises(InvalidAction):
        Name("hartz")
    with pytest.raises(InvalidAction):
        Discard("1Z")


# --------------------------------------------------------------------------- order-up


def test_an_order_up_the_dealer_takes_the_card_and_discards_face_down() -> None:
    """Seat 1 passes, seat 2 orders up A♥: hearts are trumps, seat 2 makes them,
    the dealer (seat 4) takes A♥ and discards face down; only the dealer sees it."""
    g = order_up_game()
    assert g.phase == "trumps" and g.trump is None and g.turned_up == card("A♥")
    assert g.to_act == 0 and g.legal_actions() == (OrderUp(), Decline())
    conserved(g)
    g.apply(Decline(), g.to_act)
    assert g.to_act == 1
    g.apply(OrderUp(), g.to_act)
    assert g.trump is Suit.HEARTS and g.view(0).trump_maker == 1
    assert g.to_act == 3 and card("A♥") in g.hand(3) and len(g.hand(3)) == 6
    assert set(g.legal_actions()) == {Discard(c) for c in g.hand(3)}
    # Everyone saw the dealer take the card up.
    assert dict(g.view(0).known_hands)[3] == (card("A♥"),)
    conserved(g)
    with pytest.raises(IllegalAction, match="does not hold"):
        g.apply(Discard("A♠"), g.to_act)
    with pytest.raises(IllegalAction, match="must discard"):
        g.apply(Play("2♥"), g.to_act)
    g.apply(Discard("2♥"), g.to_act)
    assert g.phase == "play" and g.to_act == 0
    assert hand_of(g, 3) == set(cards("A♥ 3♥ 4♥ 5♥ 6♥"))
    assert g.card_locations()["discarded"] == CardSet(cards("2♥"))
    assert g.view(3).discarded == (card("2♥"),)
    for s in (0, 1, 2):
        v = g.view(s)
        assert v.discarded == () and card("2♥") not in v.played
        assert "2♥" not in v.to_json()
        assert dict(v.known_hands).get(3) is None  # nobody may tell what was kept
        assert ("call", 3, None) in [e.astuple() for e in g.events_for(s)]
        assert ("call", 3, Discard("2♥")) not in [e.astuple() for e in g.events_for(s)]
    assert ("call", 3, Discard("2♥")) in [e.astuple() for e in g.events_for(3)]
    assert ("made", 1, 1, Suit.HEARTS) in [e.astuple() for e in g.events]
    conserved(g)


def test_a_euchre_the_defenders_score_two() -> None:
    """Seat 1 orders up 5♣ holding only 2♣ in clubs: the maker takes fewer than
    3 tricks, so each defender scores 2 and the maker 0."""
    g = Game(
        ORDER_UP,
        4,
        seed=1,
        deck=stack(
            "2♣ 2♦ 3♦ 4♦ 6♦",
            "A♣ K♣ Q♣ J♣ 10♣",
            "A♦ K♦ Q♦ J♦ 10♦",
            "A♠ K♠ Q♠ J♠ 10♠",
            turned="5♣",
        ),
        first_dealer=3,
    )
    g.apply(OrderUp(), g.to_act)
    assert g.trump is Suit.CLUBS and g.to_act == 3
    g.apply(Discard("10♠"), g.to_act)
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    assert score[3][0] < 3
    assert tuple(score[4]) == (0, 2, 2, 2)


def test_a_refusal_then_a_second_round_name() -> None:
    """Everyone passes A♥; in the second round seat 1 passes and seat 2 names
    spades; hearts (the turned card's suit) may not be named."""
    g = order_up_game()
    for _ in range(4):
        g.apply(Decline(), g.to_act)
    assert g.phase == "trumps" and g.to_act == 0
    names = [a for a in g.legal_actions() if isinstance(a, Name)]
    assert Suit.HEARTS not in [a.suit for a in names] and len(names) == 3
    assert Decline() in g.legal_actions()
    g.apply(Decline(), g.to_act)
    before = g.to_json()
    with pytest.raises(IllegalAction, match="turned down"):
        g.apply(Name(Suit.HEARTS), g.to_act)
    with pytest.raises(IllegalAction, match="no trumps"):
        g.apply(Name(None), g.to_act)
    with pytest.raises(IllegalAction, match="turn to choose trumps"):
        g.apply(Name(Suit.SPADES), seat=2)
    assert g.to_json() == before
    g.apply(Name(Suit.SPADES), g.to_act)
    assert g.trump is Suit.SPADES and g.phase == "play" and g.view(2).trump_maker == 1
    # Nobody took the turned card: it stays out of play.
    assert all(card("A♥") not in g.hand(s) for s in range(4))
    assert g.card_locations()["turned"] == CardSet(cards("A♥"))
    conserved(g)


def test_stick_the_dealer() -> None:
    """With stick the dealer, after seven passes the dealer must name a suit."""
    g = order_up_game(STICK)
    for _ in range(7):
        g.apply(Decline(), g.to_act)
    assert g.to_act == 3
    assert Decline() not in g.legal_actions()
    assert {a.suit for a in g.legal_actions()} == {Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES}
    with pytest.raises(IllegalAction, match="stick the dealer"):
        g.apply(Decline(), g.to_act)
    g.apply(Name(Suit.DIAMONDS), g.to_act)
    assert g.trump is Suit.DIAMONDS and g.phase == "play"


def test_all_pass_twice_and_the_hand_is_thrown_in() -> None:
    """Without stick the dealer, eight passes throw the hand in: nobody scores,
    the next dealer deals the next hand (it counts as a hand of the schedule)."""
    g = order_up_game()
    for _ in range(8):
        g.apply(Decline(), g.to_act)
    assert ("thrown in", 1) in [e.astuple() for e in g.events]
    assert not [e for e in g.events if e[0] == "score"]
    assert g.hand_number == 2 and g.dealer == 0 and g.phase == "trumps" and g.to_act == 1
    assert g.scores == (0, 0, 0, 0)
    # Three hands thrown in: the schedule is over, everyone is tied at 0, so a
    # tie-break hand follows (`tie: extra hands`).
    for _ in range(16):
        g.apply(Decline(), g.to_act)
    assert g.hand_number == 4 and g.extra_hands == 1 and not g.is_over


def test_no_card_left_to_turn_means_no_trumps() -> None:
    """Order-up with the whole pack dealt: no card to turn, no trumps phase."""
    v = load_text(
        f"""game: whole-pack-order-up
players: 4
hand size: 13
hands: 1 hands of the same size
trumps: order up
bidding: none
hook: no
score: {EUCHRE_SCORE}
"""
    )
    g = Game(v, 4, seed=3)
    assert g.phase == "play" and g.trump is None and g.turned_up is None


# --------------------------------------------------------------------------- the highest bidder


def test_the_highest_bidder_names_trumps_ties_first_in_turn() -> None:
    """Bids 1, 2, 2, 0: seats 2 and 3 tie; seat 2 bid first and names. No trumps
    may be named."""
    g = Game(BIDDER, 4, deck=stack("A♠ K♠ Q♠", "A♥ K♥ Q♥", "A♦ K♦ Q♦", "A♣ K♣ Q♣"), first_dealer=3)
    assert g.phase == "bid" and g.trump is None
    for b in (1, 2, 2, 0):
        g.apply(Bid(b), g.to_act)
    assert g.phase == "trumps" and g.to_act == 1
    assert g.legal_actions() == (*(Name(s) for s in Suit), Name(None))
    with pytest.raises(IllegalAction, match="name trumps"):
        g.apply(Bid(1), g.to_act)
    g.apply(Name(Suit.HEARTS), g.to_act)
    assert g.trump is Suit.HEARTS and g.phase == "play" and g.to_act == 0
    assert g.view(0).trump_maker == 1
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    # Seat 2 holds the top hearts: 3 tricks, bid 2: 3 points, and 1 for making trumps.
    assert score[3][1] == 3 and score[4][1] == 4


def test_the_highest_bidder_may_name_no_trumps() -> None:
    g = Game(BIDDER, 4, seed=2, first_dealer=0)
    for b in (0, 3, 1, 1):
        g.apply(Bid(b), g.to_act)
    assert g.to_act == 2
    g.apply(Name(None), g.to_act)
    assert g.trump is None and g.phase == "play"
    assert ("made", 1, 2, None) in [e.astuple() for e in g.events]


def test_without_no_trumps_it_may_not_be_named() -> None:
    v = load_text(
        """game: bidder-suits
players: 4
hand size: 3
hands: 1 hands of the same size
trumps: named by the highest bidder
hook: no
score: tricks
"""
    )
    g = Game(v, 4, seed=2, first_dealer=0)
    for b in (0, 3, 1, 1):
        g.apply(Bid(b), g.to_act)
    assert Name(None) not in g.legal_actions()
    with pytest.raises(IllegalAction, match="no trumps"):
        g.apply(Name(None), g.to_act)


def test_highest_bidder_needs_bidding() -> None:
    with pytest.raises(VariantError, match="need bidding"):
        load_text(
            "game: x\nplayers: 4\nhand size: 3\ntrumps: named by the highest bidder\n"
            "bidding: none\nhook: no\nscore: tricks\n"
        )


# --------------------------------------------------------------- the previous hand's winner


def test_the_winner_of_most_tricks_names_the_next_trumps() -> None:
    """Hand 1: 9♣ turned up (clubs). Seat 2 takes both tricks; in hand 2 it
    names trumps after the deal, before anyone plays."""
    g = Game(
        MOST,
        3,
        deck=[stack("2♦ 3♦", "A♦ K♦", "4♦ 5♦", turned="9♣"), stack("2♠ 3♠", "A♠ K♠", "4♠ 5♠")],
        first_dealer=2,
    )
    assert g.phase == "play" and g.trump is Suit.CLUBS and g.turned_up == card("9♣")
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.tricks_won == (0, 0, 0)
    score = next(e for e in g.events if e[0] == "score")
    assert score[3] == (0, 2, 0)
    assert g.hand_number == 2 and g.phase == "trumps" and g.to_act == 1
    assert g.turned_up is None and g.trump is None
    assert g.view(1).hand is not None and len(g.view(1).hand or ()) == 2  # it sees its cards
    g.apply(Name(Suit.SPADES), g.to_act)
    assert g.trump is Suit.SPADES and g.phase == "play" and g.view(0).trump_maker == 1


def test_a_tie_for_most_tricks_goes_to_the_first_in_turn() -> None:
    """Hand 1 of 2 cards: seats 1 and 2 take a trick each; seat 1 is first in
    turn from hand 2's dealer's neighbour (seat 1 deals hand 2)."""
    g = Game(
        MOST,
        3,
        deck=[stack("A♦ 2♣", "2♦ A♣", "3♦ 3♣", turned="9♥"), stack("2♠ 3♠", "A♠ K♠", "4♠ 5♠")],
        first_dealer=2,
    )
    g.apply(Play("A♦"), g.to_act)
    g.apply(Play("2♦"), g.to_act)
    g.apply(Play("3♦"), g.to_act)
    g.apply(Play("2♣"), g.to_act)
    g.apply(Play("A♣"), g.to_act)
    g.apply(Play("3♣"), g.to_act)
    assert next(e for e in g.events if e[0] == "score")[3] == (1, 1, 0)
    assert g.dealer == 0 and g.to_act == 1  # seat 1's neighbour, seat 2, is first in turn


def test_a_tie_cut_is_deterministic_from_the_seed() -> None:
    v = load_text(
        """game: most-cut
players: 3
hands: list 2 2 2
trumps: turned up, then named by the winner of most tricks
trump ties: cut
bidding: none
hook: no
score: tricks
"""
    )
    namers = set()
    for seed in range(40):
        g = Game(v, 3, seed=seed)
        while g.hand_number == 1:
            g.apply(g.legal_actions()[0], g.to_act)
        tricks = next(e for e in g.events if e[0] == "score")[3]
        assert tricks[g.to_act or 0] == max(tricks)
        if tricks.count(max(tricks)) > 1:
            namers.add(g.to_act)
        assert replay(v, g.events) == g
    assert len(namers) > 1  # a cut, not always the first in turn


# --------------------------------------------------------------------------- the dealer's last card


def test_the_dealers_last_card_is_trumps_and_known_to_all() -> None:
    """The last card dealt is the dealer's (seat 4): 7♦ makes diamonds trumps, it
    stays in the dealer's hand, and every view shows it there until played."""
    g = Game(DEALER, 4, deck=stack("A♠ K♠ Q♠", "A♥ K♥ Q♥", "A♣ K♣ Q♣", "2♣ 3♣ 7♦"), first_dealer=3)
    assert g.trump is Suit.DIAMONDS and g.turned_up == card("7♦")
    assert card("7♦") in g.hand(3) and g.phase == "play"
    assert g.card_locations()["turned"] == CardSet()
    for s in range(3):
        assert dict(g.view(s).known_hands) == {3: (card("7♦"),)}
    assert dict(g.view(3).known_hands) == {}
    conserved(g)
    g.apply(Play("A♠"), g.to_act)
    g.apply(Play("A♥"), g.to_act)
    g.apply(Play("A♣"), g.to_act)
    g.apply(Play("7♦"), g.to_act)  # void in spades: the dealer trumps
    assert g.tricks_won == (0, 0, 0, 1)
    assert dict(g.view(0).known_hands) == {}


# --------------------------------------------------------------------------- saves, replay, clone


@pytest.mark.parametrize("passes", [0, 1, 4, 5, 7])
def test_saves_replays_and_clones_in_the_middle_of_the_choice(passes: int) -> None:
    g = order_up_game()
    for _ in range(passes):
        g.apply(Decline(), g.to_act)
    back = Game.from_json(g.to_json())
    assert back == g and back.legal_actions() == g.legal_actions()
    assert replay(g.variant, g.events) == g
    c = g.clone()
    assert c == g and c.legal_actions() == g.legal_actions()
    if passes < 4:
        g.apply(OrderUp(), g.to_act)
        back = Game.from_json(g.to_json())
        assert back.to_act == 3 and back.legal_actions() == g.legal_actions()
        c = g.clone()
        c.apply(c.legal_actions()[0], c.to_act)
        assert g.phase == "trumps" and c.phase == "play"  # the clone is independent
        assert g.card_locations()["discarded"] == CardSet()


def test_a_saved_discard_is_checked() -> None:
    g = order_up_game()
    g.apply(OrderUp(), g.to_act)
    g.apply(Discard("3♥"), g.to_act)
    text = g.to_json()
    assert Game.from_json(text) == g
    bad = text.replace(str(Discard("3♥").id), str(Discard("A♠").id))
    from cardrules.errors import SaveError

    with pytest.raises(SaveError, match="not legal"):
        Game.from_json(bad)


# --------------------------------------------------------------------------- properties


def _play_out(v: Variant, players: int, seed: int, check: bool) -> Game:
    g = Game(v, players, seed=seed)
    rnd = random.Random(seed)
    steps = 0
    while not g.is_over:
        acts = g.legal_actions()
        assert acts, g
        if check and steps % 3 == 0:
            conserved(g)
            for s in range(players):
                view = g.view(s)
                assert view.hand is None or set(view.hand) == set(g.hand(s))
                for other, known in view.known_hands:
                    assert other != s and set(known) <= set(g.hand(other))
                if s != g.dealer:
                    assert view.discarded == ()
                for ev in g.events_for(s):
                    if ev[0] == "call" and ev[1] != s:
                        assert type(ev[2]) is not Discard, ev
        g.apply(rnd.choice(acts), g.to_act)
        steps += 1
    return g


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL), st.integers(0, 2**32))
def test_whole_games_conserve_cards_and_views_never_leak(v: Variant, seed: int) -> None:
    g = _play_out(v, 4 if v is not MOST else 3, seed, check=True)
    assert g.result is not None and g.result.finished
    assert replay(v, g.events) == g


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_a_save_anywhere_restores_the_same_game(seed: int, stop: int) -> None:
    g = Game(ORDER_UP, 4, seed=seed)
    rnd = random.Random(seed)
    for _ in range(stop):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()), g.to_act)
    back = Game.from_json(g.to_json())
    assert back == g and back.legal_actions() == g.legal_actions()
    assert back.view(0) == g.view(0)


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("v", ALL, ids=[v.name for v in ALL])
def test_bots_choose_trumps_legally_and_the_heuristic_beats_random(v: Variant) -> None:
    """Both bots play every trumps action legally (the engine refuses anything
    else); over 60 games one heuristic seat wins more than its share against
    random ones."""
    from cardrules.simulate import simulate

    n = 3 if v is MOST else 4
    s = simulate(v, n, 60, bots=["heuristic", "random"], seed=3)
    assert s.finished == 60
    assert s.wins[0] > 60 / n


def test_records_and_typed_actions_cover_the_choice_of_trumps() -> None:
    """A game record (cardrules.record) of an order-up game loads back, and the
    labels of the new actions read back as those actions."""
    from cardrules.engine.views.notation import parse_action
    from cardrules.record import dump, load

    for a in (Name(Suit.HEARTS), Name(None), OrderUp(), Decline(), Discard("9♠")):
        assert parse_action(a.label) is a
    assert parse_action("discard 9s") is Discard("9♠")
    g = _play_out(ORDER_UP, 4, 11, check=False)
    assert any(e[0] == "call" for e in g.events)
    again = load(dump(g))
    assert again.result == g.result and dump(again) == dump(g)
    assert [e for e in again.events if e[0] in ("call", "made", "thrown in")] == [
        e for e in g.events if e[0] in ("call", "made", "thrown in")
    ]


def test_the_play_command_lets_a_person_choose_trumps(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cardrules play` asks for the choice of trumps: pass, a suit's name, a
    card (or its number) to discard; the narration says who made trumps."""
    import io
    import sys
    from pathlib import Path

    from cardrules.cli import main

    path = Path(str(tmp_path)) / "ou.cardrules"
    path.write_text(
        f"game: ou\nplayers: 4\nhand size: 5\nhands: 2 hands of the same size\n"
        f"trumps: order up\nbidding: none\nhook: no\nscore: {EUCHRE_SCORE}\n",
        encoding="utf-8",
    )
    words = [*map(str, range(1, 7)), "pass", "spades", "clubs", "diamonds"]
    answers = "pass\nhearts\n" + "".join(f"{k}\n" for _ in range(200) for k in words)
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    assert main(["play", str(path), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Turned up: J♥ (to be ordered up or passed)" in out
    assert "Bot 3 orders up the turned card" in out
    assert "Trumps: ♥ hearts (Bot 3 makes trumps)" in out
    assert re.search(r"You discard \S+ face down", out)
    assert "Final totals:" in out


def test_a_choice_of_trumps_out_of_its_phase_is_refused_and_changes_nothing() -> None:
    """Trump actions in the bidding or the play, and bids or plays in the choice
    of trumps, are refused with a reason; the game is unchanged."""
    g = Game(BIDDER, 4, seed=4, first_dealer=3)
    before = g.to_json()
    for a in (Name(Suit.HEARTS), OrderUp(), Decline(), Discard("2♣")):
        with pytest.raises(IllegalAction, match="is to bid"):
            g.apply(a, g.to_act)
    assert g.to_json() == before
    for b in (1, 0, 0, 0):
        g.apply(Bid(b), g.to_act)
    with pytest.raises(IllegalAction, match="must name trumps"):
        g.apply(Play(next(iter(g.hand(0)))), g.to_act)
    g.apply(Name(Suit.CLUBS), g.to_act)
    before = g.to_json()
    for a in (Name(Suit.HEARTS), OrderUp(), Decline(), Discard("2♣")):
        with pytest.raises(IllegalAction, match="to play a card"):
            g.apply(a, g.to_act)
    assert g.to_json() == before


def test_the_dealer_may_be_made_to_keep_the_turned_card() -> None:
    """With `dealer keeps the turned card: yes` the dealer discards any card but
    the one it took up (as OpenSpiel's euchre plays); by default any card."""
    v = load_text(
        f"""game: keep-test
players: 4
hand size: 5
hands: 3 hands of the same size
trumps: order up
dealer keeps the turned card: yes
bidding: none
hook: no
score: {EUCHRE_SCORE}
"""
    )
    g = order_up_game(v)
    g.apply(OrderUp(), g.to_act)
    assert Discard("A♥") not in g.legal_actions() and len(g.legal_actions()) == 5
    with pytest.raises(IllegalAction, match="keeps the turned card"):
        g.apply(Discard("A♥"), g.to_act)
    g.apply(Discard("2♥"), g.to_act)
    plain = order_up_game()
    plain.apply(OrderUp(), plain.to_act)
    assert Discard("A♥") in plain.legal_actions()


def test_knockout_whist_the_winner_of_most_tricks_names_the_next_trumps() -> None:
    """Knock-out Whist (after Pagat): hand 1 turns up its trumps; seat 1 takes
    most tricks, seat 2 none (knocked out); in hand 2 seat 1 names trumps after
    seeing the new cards, and the knocked-out seat has no say."""
    import cardrules

    ko = cardrules.load("knockout-whist")
    assert ko.trumps.namer.value == "most tricks" and ko.trumps.namer_tie.value == "cut"
    hand1 = stack(
        "A♣ K♣ Q♣ J♣ 10♣ 9♣ 3♦",
        "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣",
        "A♦ K♦ Q♦ J♦ 10♦ 9♦ 4♦",
        turned="2♠",
    )
    g = Game(ko, 3, deck=[hand1], first_dealer=2)
    assert g.trump is Suit.SPADES and g.phase == "play"
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    tricks = next(e for e in g.events if e[0] == "score")[3]
    assert tricks[0] == max(tricks) and tricks[1] == 0
    assert ("knocked out", 1, 1) in [e.astuple() for e in g.events]
    assert g.phase == "trumps" and g.to_act == 0 and g.turned_up is None
    assert g.legal_actions() == tuple(Name(s) for s in Suit)  # no "no trumps" here
    assert g.legal_actions(1) == () and g.legal_actions(2) == ()
    g.apply(Name(Suit.HEARTS), g.to_act)
    assert g.trump is Suit.HEARTS and g.view(2).trump_maker == 0
    assert Game.from_json(g.to_json()) == g and replay(ko, g.events) == g


# --------------------------------------------------------------------------- sides


def _sides_game(lines: str) -> Game:
    v = load_text(
        "game: sides-test\nplayers: 4\nteams: 1 and 3, 2 and 4\nhand size: 5\n"
        f"hands: 3 hands of the same size\ntrumps: order up\nbidding: none\nhook: no\n{lines}"
    )
    return Game(
        v,
        4,
        seed=1,
        deck=stack(
            "2♣ 2♦ 3♦ 4♦ 6♦",
            "A♦ K♦ Q♦ J♦ 10♦",
            "A♣ K♣ Q♣ J♣ 10♣",
            "A♠ K♠ Q♠ J♠ 10♠",
            turned="5♣",
        ),
        first_dealer=3,
    )


def _first_hand(g: Game) -> tuple[tuple[int, ...], tuple[object, ...]]:
    g.apply(
        OrderUp(), g.to_act
    )  # seat 1 makes clubs for seats 1 and 3 (seat 3 holds the top clubs)
    g.apply(Discard("10♠"), g.to_act)
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    return score[3], tuple(score[4])


def test_with_sides_maker_is_the_makers_side_in_the_team_score() -> None:
    """``maker`` is true for both partners of the player who made trumps and
    ``maker_tricks`` is their side's tricks: the team score counts them once."""
    tricks, points = _first_hand(
        _sides_game("team score: if maker then 10 * maker_tricks else 0 - maker_tricks\n")
    )
    made = tricks[0] + tricks[2]
    assert tricks[2] > 0  # the partner's tricks count for the makers
    assert points == (10 * made, -made, 10 * made, -made)


def test_with_sides_maker_is_the_makers_side_in_each_seats_score() -> None:
    """In a seat's ``score:`` too: the maker's partner scores as a maker, and
    each side adds up its two seats' points."""
    tricks, points = _first_hand(_sides_game("score: if maker then maker_tricks else 1\n"))
    made = tricks[0] + tricks[2]
    assert points == (2 * made, 2, 2 * made, 2)


def test_a_team_score_reading_the_maker_needs_a_choice_of_trumps() -> None:
    with pytest.raises(VariantError, match="nobody makes trumps"):
        load_text(
            "game: x\nplayers: 4\nteams: 1 and 3, 2 and 4\nhand size: 5\n"
            "team score: if maker then 1 else 0\n"
        )


def test_a_pass_of_cards_cannot_go_with_a_choice_of_trumps() -> None:
    with pytest.raises(VariantError, match="chooses trumps"):
        load_text(
            "game: x\nplayers: 4\nhand size: 5\ntrumps: order up\nbidding: none\nhook: no\n"
            "pass: 1 card left\n"
        )
    v = load_text(
        "game: x\nplayers: 4\nhand size: 5\ntrumps: order up\nbidding: none\nhook: no\n"
        "score: tricks\n"
    )
    with pytest.raises(VariantError, match="chooses trumps"):
        Game(v.evolve(passing=PassRule(1, (PassTo.LEFT,))), 4)
