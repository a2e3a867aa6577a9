"""Defending alone (``defending alone: yes``, issue 12's Euchre variation) and the
built-in ``euchre-defend-alone``.

Golden tests on stacked deals (the defenders asked in turn from the lone
maker's left, two cards a trick, the lone euchre's 4 points, both defenders
declining), refusals, saves, replay and clone in the middle of the choice, the
checks of the line, a Hypothesis property over whole games and 200 seeded games
to the end, and the bots.
"""

from __future__ import annotations

import random
import re

import pytest
from catalog_support import check_file, play, stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.dsl import load_text
from cardrules.engine import Decline, Discard, Game, OrderUp, Play, replay
from cardrules.engine.actions import Alone, WithPartner
from cardrules.errors import IllegalAction, VariantError

EUCHRE = cardrules.load("euchre")
DEFEND = cardrules.load("euchre-defend-alone")

#: Seat 3 (index 2) holds five trumps for clubs; seat 1 is its partner.
LONE = stack(
    "9♦ 10♦ Q♦ K♦ A♦",
    "9♥ 10♥ Q♥ K♥ A♥",
    "J♣ J♠ A♣ K♣ Q♣",
    "A♠ K♠ Q♠ 10♠ 9♠",
    turn="9♣",
)

#: Seat 1 (index 0) makes clubs with only the right bower; seat 2 holds the left
#: bower and three more trumps and defends alone.
EUCHRED = stack(
    "J♣ 9♦ 10♦ 9♥ 10♥",
    "J♠ A♣ K♣ Q♣ A♦",
    "A♥ K♥ Q♥ K♦ Q♦",
    "10♣ A♠ K♠ Q♠ 10♠",
    turn="9♣",
)


def lone_maker(deck: list[cardrules.Card], passes: int) -> Game:
    """Seat ``passes`` orders clubs up after ``passes`` passes and goes alone
    (seat 4 deals and discards its 9♠ or 10♠)."""
    g = Game(DEFEND, 4, deck=deck, first_dealer=3)
    for _ in range(passes):
        g.apply(Decline(), g.to_act)
    g.apply(OrderUp(), g.to_act)
    g.apply(Discard("9♠" if deck is LONE else "10♠"), g.to_act)
    g.apply(Alone(), g.to_act)
    return g


def test_each_defender_is_asked_in_turn_from_the_makers_left() -> None:
    g = lone_maker(LONE, 2)  # seat 3 makes and goes alone; seat 1 sits out
    assert g.phase == "trumps" and g.to_act == 3  # seat 4, on the maker's left
    assert g.legal_actions() == (WithPartner(), Alone())
    assert g.legal_actions(1) == () and g.legal_actions(0) == ()
    with pytest.raises(IllegalAction, match="must defend alone against the lone maker"):
        g.apply(Discard("A♠"), g.to_act)
    g.apply(WithPartner(), g.to_act)
    assert g.phase == "trumps" and g.to_act == 1  # then seat 2
    g.apply(WithPartner(), g.to_act)
    # Both declined: the maker's partner alone sits out; seat 2 leads, 3 a trick.
    assert g.phase == "play" and g.to_act == 1
    assert all(g.view(s).defender_alone is None and g.view(s).alone == 2 for s in range(4))
    play(g, "A♥", "J♣", "A♠")
    assert g.events[-1][0] == "trick" and len(g.events[-1][3]) == 3


def test_a_lone_defender_plays_two_card_tricks() -> None:
    g = lone_maker(LONE, 2)
    g.apply(Alone(), g.to_act)  # seat 4 defends alone: seat 2 sits out too
    assert ("call", 3, Alone()) in [e.astuple() for e in g.events]
    assert g.phase == "play"
    # Seat 1 (the dealer's neighbour) and seat 2 sit out: seat 3 leads.
    assert g.to_act == 2
    assert all(g.view(s).defender_alone == 3 for s in range(4))
    assert g.view(0).to_dict()["defender_alone"] == 3
    kept = {s: g.hand(s) for s in (0, 1)}
    play(g, "J♣", "9♣")
    assert g.events[-1][0] == "trick" and g.events[-1][3] == tuple(
        cardrules.card(t) for t in ("J♣", "9♣")
    )
    while g.hand_number == 1:
        assert g.to_act in (2, 3)
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    assert score[3] == (0, 0, 5, 0)
    assert tuple(score[4]) == (4, 0, 4, 0)  # a lone march still scores 4
    hand1 = [e for e in g.events if e[0] == "play"][:10]
    assert all(e[1] in (2, 3) for e in hand1)
    assert all(len(kept[s]) == 5 for s in kept)
    # Everyone is back for the next hand.
    assert g.view(0).defender_alone is None and g.view(0).alone is None


def test_a_lone_defender_who_euchres_the_lone_maker_scores_4() -> None:
    g = lone_maker(EUCHRED, 0)  # seat 1 makes clubs and goes alone
    assert g.to_act == 1
    g.apply(Alone(), g.to_act)
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    assert score[3][0] < 3
    assert tuple(score[4]) == (0, 4, 0, 4)
    # In plain Euchre the same hand euchres the maker for 2.
    e = Game(EUCHRE, 4, deck=EUCHRED, first_dealer=3)
    e.apply(OrderUp(), e.to_act)
    e.apply(Discard("10♠"), e.to_act)
    e.apply(Alone(), e.to_act)
    assert e.phase == "play"  # nobody is asked to defend alone
    while e.hand_number == 1:
        e.apply(e.legal_actions()[0], e.to_act)
    assert tuple(next(x for x in e.events if x[0] == "score")[4])[1] == 2


def test_with_partner_the_maker_is_never_defended_alone() -> None:
    g = Game(DEFEND, 4, deck=LONE, first_dealer=3)
    g.apply(Decline(), g.to_act)
    g.apply(Decline(), g.to_act)
    g.apply(OrderUp(), g.to_act)
    g.apply(Discard("9♠"), g.to_act)
    g.apply(WithPartner(), g.to_act)
    assert g.phase == "play" and g.to_act == 0


def test_saves_replay_and_clone_in_the_middle_of_the_choice() -> None:
    g = lone_maker(LONE, 2)
    g.apply(WithPartner(), g.to_act)
    back = Game.from_json(g.to_json())
    assert back.to_act == 1 and back.legal_actions() == g.legal_actions()
    assert replay(DEFEND, g.events).to_act == 1
    c = g.clone()
    c.apply(Alone(), c.to_act)
    assert c.view(0).defender_alone == 1 and g.view(0).defender_alone is None
    back.apply(Alone(), back.to_act)
    assert back.events == c.events
    again = Game.from_json(c.to_json())
    assert again.view(2).defender_alone == 1
    # Seats 1 (the maker's partner, the dealer's neighbour) and 4 sit out:
    # seat 2, the lone defender, leads.
    assert c.phase == "play" and c.to_act == 1


def test_the_file_and_the_line() -> None:
    check_file("euchre-defend-alone", {"trumps.defend_alone", "scoring.team_formula"})
    assert "defending alone: yes" in cardrules.format(DEFEND)
    # Euchre has no such line (its "Choices this page makes" name it as a change).
    assert not re.search(r"^defending alone:", cardrules.format(EUCHRE), re.M)
    assert 'change "defending alone: yes"' in cardrules.format(EUCHRE)
    with pytest.raises(VariantError, match="`defending alone` has no effect"):
        load_text("game: x\nextends: euchre\ngoing alone: no\ndefending alone: yes\n")


# --------------------------------------------------------------------------- whole games


def play_random(seed: int) -> tuple[Game, int]:
    """A seeded random game; returns it and the number of hands defended alone,
    with the invariants checked at every step of those hands."""
    rng = random.Random(seed)
    g = Game(DEFEND, 4, seed=seed, max_tricks=400)
    lone_hands = 0
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        g.apply(a, g.to_act)
        d = g.view(0).defender_alone
        if d is None or g.phase != "play" or g.current_trick():
            continue
        hand = g.hand_number
        maker = g.view(0).alone
        assert maker is not None and (maker - d) % 2 == 1
        lone_hands += 1
        out = {(maker + 2) % 4, (d + 2) % 4}
        kept = {s: g.hand(s) for s in out}
        while not g.is_over and g.hand_number == hand:
            assert g.to_act not in out
            assert all(g.legal_actions(s) == () for s in out)
            before = len(g.events)
            g.apply(rng.choice(g.legal_actions()), g.to_act)
            for e in g.events[before:]:
                if e[0] == "trick":
                    assert len(e[3]) == 2
        assert all(len(kept[s]) == 5 for s in kept)
    return g, lone_hands


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_games(seed: int) -> None:
    g, _ = play_random(7000 + seed)
    r = g.result
    assert r is not None and r.finished
    scores = g.scores
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert set(r.winners) in ({0, 2}, {1, 3})


def test_some_seeded_games_are_defended_alone() -> None:
    assert sum(play_random(7000 + seed)[1] for seed in range(40)) > 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_views_never_show_a_hand_that_sits_out(seed: int) -> None:
    rng = random.Random(seed)
    g = Game(DEFEND, 4, seed=seed, max_tricks=60)
    while not g.is_over:
        for s in range(4):
            view = g.view(s)
            assert view.visible_hands == ()
            assert view.hand is None or set(view.hand) == set(g.hand(s))
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        scores = g.scores
        assert scores[0] == scores[2] and scores[1] == scores[3]


def test_bots_play_legally_and_the_heuristic_side_beats_the_random_one() -> None:
    from cardrules.bots import make_bot, play_game

    wins = 0
    games = 30
    for seed in range(games):
        g = Game(DEFEND, 4, seed=seed)
        bots = [
            make_bot("heuristic" if s % 2 == 0 else "random", seed=seed * 4 + s) for s in range(4)
        ]
        play_game(g, bots)
        r = g.result
        assert r is not None and r.finished
        wins += set(r.winners) == {0, 2}
    assert wins >= 24


def test_a_card_is_refused_during_the_choice() -> None:
    g = lone_maker(LONE, 2)
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply(Play("A♠"), g.to_act)
    with pytest.raises(IllegalAction):
        g.apply(Alone(), seat=1)  # not seat 2's turn yet
    assert g.to_json() == before
