"""Golden games of the real Kazhutha files, dealt from stacked decks.

Rules: seed ``001_e4032eef84513c77.txt`` (Kazhutha rules). Every test loads the
built-in files (``kazhutha``, ``donkey`` and the four house rules) with
``cardrules.load``; the short endgames keep the file's rules and only narrow its
pack (``deck=``) so that a whole game fits in a few tricks.

Seats: with four players and seat 0 dealing, play runs anticlockwise 3, 2, 1, 0
and the cards are dealt in that order.
"""

from __future__ import annotations

import itertools
import random

import pytest

import cardrules
from cardrules.cards import FULL_DECK_MASK, Card, CardSet, card
from cardrules.engine import Game, Match, Play, replay
from cardrules.errors import IllegalAction
from cardrules.rules import DeckRule, Variant


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def stack(hands: dict[int, str], order: list[int]) -> list[Card]:
    """A deck that gives ``hands[seat]`` to each seat when dealt one card at a time
    round ``order`` (the dealer's neighbour first)."""
    per = {s: cards(h) for s, h in hands.items()}
    deck: list[Card] = []
    for s in itertools.cycle(order):
        if not any(per.values()):
            break
        if per[s]:
            deck.append(per[s].pop(0))
    return deck


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def kinds(g: Game, since: int) -> list[str]:
    return [e[0] for e in g.events[since:]]


ORDER = [3, 2, 1, 0]  # seat 0 deals; anticlockwise

#: Seat 3 holds A♠ (and 5♠); seat 0 has no hearts. 13 cards each.
FULL = {
    3: "A♠ 5♠ 5♥ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦",
    2: "2♠ 6♠ 7♠ 9♥ 2♥ 3♥ 4♥ 6♥ 7♥ 8♥ Q♦ K♦ A♦",
    1: "3♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ K♥ 10♥ J♥ Q♥ A♥ 2♣",
    0: "4♠ A♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
}


def full_game(name: str, first_dealer: int = 0) -> Game:
    v = cardrules.load(name)
    order = [(first_dealer - 1 - k) % 4 for k in range(4)]  # the neighbour first
    g = Game(v, players=4, first_dealer=first_dealer, deck=stack(FULL, order))
    for s, h in FULL.items():
        assert g.hand(s) == CardSet(cards(h))
    return g


def check_conservation(g: Game) -> None:
    """Hands + current trick + dead pile = the pack, each card in one place."""
    loc = g.card_locations()
    parts = [loc["hands"], loc["trick"], loc["dead"]]
    assert sum(len(p) for p in parts) == g.variant.deck.size
    assert CardSet(parts[0].mask | parts[1].mask | parts[2].mask) == g.variant.deck.cards
    assert not loc["won"] and not loc["undealt"]


# --------------------------------------------------------------------------- the opening


def test_ace_of_spades_opens_001() -> None:
    """001_e4032eef84513c77.txt: "The player holding the A♠ leads it." Seat 3 also
    holds 5♠ but may lead only the ace; the others must follow with a spade."""
    g = full_game("kazhutha")
    assert g.to_act == 3 and g.legal_actions() == (Play("A♠"),)
    with pytest.raises(IllegalAction):
        g.apply(Play("5♠"), g.to_act)
    play(g, "A♠")
    assert g.to_act == 2 and set(g.legal_actions()) == {Play(c) for c in cards("2♠ 6♠ 7♠")}


def test_dead_trick_leaves_the_game_face_up_001() -> None:
    """001_e4032eef84513c77.txt: everyone follows, the round is dead: thrown out of
    the game; the highest card (A♠) leads the next round with any card. Face up
    (the kazhutha file): every seat's view shows the dead cards."""
    g = full_game("kazhutha")
    n = len(g.events)
    play(g, "A♠", "2♠", "3♠", "4♠")
    assert kinds(g, n) == ["play"] * 4 + ["dead"]
    assert g.events[-1].astuple() == ("dead", 3, (3, 2, 1, 0), tuple(cards("A♠ 2♠ 3♠ 4♠")))
    assert g.card_locations()["dead"] == CardSet(cards("A♠ 2♠ 3♠ 4♠"))
    assert g.to_act == 3 and g.current_trick() == ()
    assert len(g.legal_actions()) == 12  # any card of its hand
    for s in range(4):
        view = g.view(s)
        assert view.dead == tuple(sorted(cards("A♠ 2♠ 3♠ 4♠")))
        assert view.dead_count == 4 and set(cards("A♠ 2♠ 3♠ 4♠")) <= set(view.played)
        assert view.hand_counts == (12, 12, 12, 12)
    check_conservation(g)


def test_face_down_dead_tricks_001() -> None:
    """001_e4032eef84513c77.txt house rule (kazhutha-face-down): dead rounds thrown
    away face down. The cards were played face up, so the trick just completed is
    shown whole; the dead pile a seat may look at holds only the card it played."""
    g = full_game("kazhutha-face-down")
    play(g, "A♠", "2♠", "3♠", "4♠")
    mine = {3: "A♠", 2: "2♠", 1: "3♠", 0: "4♠"}
    whole = ((3, card("A♠")), (2, card("2♠")), (1, card("3♠")), (0, card("4♠")))
    for s, own in mine.items():
        view = g.view(s)
        assert view.dead == (card(own),) and view.dead_count == 4
        others = set(cards("A♠ 2♠ 3♠ 4♠")) - {card(own)}
        assert not others & set(view.played)
        assert view.last_trick == whole
        # The filtered log shows what everyone saw: the plays and the dead trick.
        evs = g.events_for(s)
        assert [e for e in evs if e[0] == "dead"] == [e for e in g.events if e[0] == "dead"]
        assert [e for e in evs if e[0] == "play"] == [e for e in g.events if e[0] == "play"]
    assert g.card_locations()["dead"] == CardSet(cards("A♠ 2♠ 3♠ 4♠"))


def test_cut_and_pick_up_001() -> None:
    """001_e4032eef84513c77.txt, the example: "hearts are led. Rahul plays 9♥, Priya
    plays K♥, Arjun has no hearts and cuts with the A♣. The round stops. Priya played
    the highest heart, so she picks up all four cards ... and leads next."
    Here seat 3 leads 5♥, seat 2 (Rahul) 9♥, seat 1 (Priya) K♥, seat 0 (Arjun) cuts."""
    g = full_game("kazhutha")
    play(g, "A♠", "2♠", "3♠", "4♠")  # dead: seat 3 leads again
    n = len(g.events)
    play(g, "5♥", "9♥", "K♥")
    assert g.to_act == 0
    # Arjun has no hearts: any card is a legal cut.
    assert set(g.legal_actions()) == {Play(c) for c in g.hand(0)}
    play(g, "A♣")
    taken = tuple(cards("5♥ 9♥ K♥ A♣"))
    assert [e.astuple() for e in g.events[n:]] == [
        ("play", 3, card("5♥")),
        ("play", 2, card("9♥")),
        ("play", 1, card("K♥")),
        ("play", 0, card("A♣")),
        ("pickup", 1, (3, 2, 1, 0), taken),
    ]
    assert g.current_trick() == ()  # the round stopped at the cut
    assert g.to_act == 1 and g.view(1).leader == 1
    assert set(taken) <= set(g.hand(1)) and len(g.hand(1)) == 12 - 1 + 4
    assert [len(g.hand(s)) for s in range(4)] == [11, 15, 11, 11]
    for s in (0, 2, 3):  # everyone saw who took which cards
        assert dict(g.view(s).known_hands)[1] == tuple(sorted(taken))
    assert g.view(1).known_hands == ()  # its own hand is not "known" to itself
    assert set(g.view(0).hand or ()) == set(g.hand(0))
    check_conservation(g)
    assert replay(g.variant, g.events) == g
    # Priya leads any card; leading a heart now, she may play the A♥ she picked up.
    assert Play("A♣") in g.legal_actions()


# --------------------------------------------------------------------------- house rules


def test_any_spade_may_lead_001() -> None:
    """001_e4032eef84513c77.txt house rule (kazhutha-any-spade): the A♠ holder may
    open with any spade."""
    g = full_game("kazhutha-any-spade")
    assert g.to_act == 3 and set(g.legal_actions()) == {Play("A♠"), Play("5♠")}
    play(g, "5♠", "2♠", "3♠", "4♠")
    assert g.events[-1][0] == "dead" and g.events[-1][1] == 3  # 5♠ was the highest
    assert g.to_act == 3 and card("A♠") in g.hand(3)


def test_dealers_neighbour_leads_001() -> None:
    """001_e4032eef84513c77.txt house rule (kazhutha-neighbour-leads): the player
    next to the dealer (anticlockwise) leads, with any card."""
    g = full_game("kazhutha-neighbour-leads", first_dealer=1)
    assert g.dealer == 1
    assert g.to_act == 0 and card("A♠") not in g.hand(0)
    assert set(g.legal_actions()) == {Play(c) for c in g.hand(0)}
    g = full_game("kazhutha-neighbour-leads")
    assert g.to_act == 3 and len(g.legal_actions()) == 13  # A♠ is not forced


def test_loser_deals_next_game_001() -> None:
    """001_e4032eef84513c77.txt house rule (kazhutha-loser-deals): the kazhutha deals
    the next game; in plain kazhutha the deal passes to the next player."""
    for name, loser_deals in (("kazhutha-loser-deals", True), ("kazhutha", False)):
        m = Match(cardrules.load(name), players=5, seed=11, max_tricks=2000)
        rng = random.Random(4)
        checked = 0
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()), m.to_act)
        games = m._games
        assert len(games) >= 8
        for prev, nxt in itertools.pairwise(games):
            res = prev.result
            assert res is not None
            if loser_deals and res.loser is not None:
                assert nxt.dealer == res.loser
                checked += 1
            else:
                assert nxt.dealer == (prev.dealer - 1) % 5  # the next seat, anticlockwise
        assert checked or not loser_deals


# --------------------------------------------------------------------------- endgames


def small(name: str, pack: str) -> Variant:
    """The file's rules with a narrower pack (the rest of the rules unchanged)."""
    return cardrules.load(name).evolve(deck=DeckRule(FULL_DECK_MASK & ~CardSet(cards(pack)).mask))


#: Seat 0 goes out on a dead trick it wins; the next seat still in leads.
END_HANDS = {3: "A♠ 2♥ 2♦", 2: "2♠ 3♥ 3♦", 1: "3♠ 4♥ K♣", 0: "4♠ 5♥"}


def end_game(last_card: str, name: str = "kazhutha") -> Game:
    hands = dict(END_HANDS)
    hands[1] = hands[1].replace("K♣", last_card)
    pack = " ".join(hands.values())
    g = Game(small(name, pack), players=4, first_dealer=0, deck=stack(hands, ORDER))
    for s, h in hands.items():
        assert g.hand(s) == CardSet(cards(h))
    return g


def test_out_player_is_skipped_as_leader_001() -> None:
    """001_e4032eef84513c77.txt: "If the player who should lead next is already out,
    the next player still in leads." Seat 0 wins the dead heart trick with its last
    card: it is out, and seat 3 (next anticlockwise) leads."""
    g = end_game("K♣")
    play(g, "A♠", "2♠", "3♠", "4♠", "2♥", "3♥", "4♥")
    n = len(g.events)
    play(g, "5♥")
    assert [e.astuple() for e in g.events[n:]] == [
        ("play", 0, card("5♥")),
        ("dead", 0, (3, 2, 1, 0), tuple(cards("2♥ 3♥ 4♥ 5♥"))),
        ("out", 0),
    ]
    assert g.view(1).out == (True, False, False, False)
    assert g.to_act == 3 and not g.is_over
    play(g, "2♦", "3♦")
    assert g.to_act == 1  # seat 0 is skipped in the trick too
    check_conservation(g)


def test_one_player_left_is_the_kazhutha_001() -> None:
    """001_e4032eef84513c77.txt: play goes on until only one player has cards; that
    player is the kazhutha. Seat 1 cuts the last diamond trick with K♣: seat 2 picks
    up, seats 3 and 1 are out, seat 2 is left holding cards."""
    g = end_game("K♣")
    play(g, "A♠", "2♠", "3♠", "4♠", "2♥", "3♥", "4♥", "5♥", "2♦", "3♦", "K♣")
    assert kinds(g, len(g.events) - 4) == ["pickup", "out", "out", "over"]
    res = g.result
    assert g.is_over and res is not None
    assert res.finished and res.loser == 2 and res.winners == (0, 1, 3)
    assert [len(g.hand(s)) for s in range(4)] == [0, 0, 3, 0]
    assert g.hand(2) == CardSet(cards("2♦ 3♦ K♣"))
    assert g.to_act is None and g.legal_actions() == ()
    assert g.view(0).result == res and g.view(2).phase == "over"
    check_conservation(g)
    text = g.to_json()
    assert Game.from_json(text, variant=g.variant) == g
    assert replay(g.variant, g.events) == g


def test_all_out_together_no_loser_001() -> None:
    """The kazhutha file's documented choice (``all out together: no loser``): when
    the last players all empty their hands in one dead trick, nobody is the kazhutha."""
    g = end_game("4♦")
    play(g, "A♠", "2♠", "3♠", "4♠", "2♥", "3♥", "4♥", "5♥", "2♦", "3♦", "4♦")
    assert kinds(g, len(g.events) - 5) == ["dead", "out", "out", "out", "over"]
    res = g.result
    assert res is not None and res.finished and res.loser is None
    assert res.winners == (0, 1, 2, 3)
    assert all(not g.hand(s) for s in range(4))
    assert g.card_locations()["dead"] == g.variant.deck.cards
    check_conservation(g)


def test_max_tricks_ends_unfinished_without_error() -> None:
    """``Game(..., max_tricks=N)`` stops an overlong game: ``result.finished`` is
    False, no loser, no winners, and nothing raises."""
    g = Game(
        cardrules.load("kazhutha"), players=4, first_dealer=0, deck=stack(FULL, ORDER), max_tricks=2
    )
    play(g, "A♠", "2♠", "3♠", "4♠", "5♥", "9♥", "K♥", "A♣")
    res = g.result
    assert g.is_over and res is not None
    assert not res.finished and res.loser is None and res.winners == ()
    assert g.events[-1][0] == "over" and g.legal_actions() == ()
    assert res.to_dict()["finished"] is False
    assert Game.from_json(g.to_json(), variant=g.variant) == g


# --------------------------------------------------------------------------- matches


@pytest.mark.parametrize(("name", "word"), [("kazhutha", "KAZHUTHA"), ("donkey", "DONKEY")])
def test_letters_until_one_player_spells_the_word_001(name: str, word: str) -> None:
    """001_e4032eef84513c77.txt: each kazhutha takes the next letter of K-A-Z-H-U-T-H-A
    (D-O-N-K-E-Y in English homes); the first to hold the whole word loses."""
    v = cardrules.load(name)
    m = Match(v, players=4, seed=3, max_tricks=2000)
    rng = random.Random(7)
    spelt = [""] * 4
    while not m.is_over:
        k = m.game_number
        m.apply(rng.choice(m.legal_actions()), m.to_act)
        if m.game_number != k or m.is_over:  # a game ended: check its letter
            res = m._games[k - 1].result
            assert res is not None and res.finished
            if res.loser is not None:
                spelt[res.loser] += word[len(spelt[res.loser])]
            assert m.letters == tuple(spelt)
            assert m.view(0).letters == tuple(spelt)
    res = m.result
    assert res is not None and res.finished and res.loser is not None
    assert m.letters[res.loser] == word
    assert all(len(w) < len(word) for s, w in enumerate(m.letters) if s != res.loser)
    assert res.winners == tuple(s for s in range(4) if s != res.loser)
    letters = [e for e in m.events if e[0] == "letter"]
    assert [e[3] for e in letters if e[2] == res.loser] == list(word)
    assert m.events[-1].astuple() == ("match over", m.game_number, res.loser)
    assert Match.from_json(m.to_json(), variant=v) == m
