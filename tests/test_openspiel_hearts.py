"""Differential test of Hearts against OpenSpiel's ``hearts`` (needs ``pyspiel``).

One hand at a time, dealt identically in both engines, then played with the same
random decisions: at every step (each card passed, each card played) the test
checks that the same seat may act and that both offer exactly the same cards;
a seeded RNG picks one. At the end each seat's points for the hand must agree.

How the two are lined up:

* **The deal.** OpenSpiel deals by chance nodes, deal number ``i`` to player
  ``i % 4``; we deal one card at a time from the front of a given deck from the
  dealer's neighbour, so with seat 3 dealing the same order gives the same hands.
* **The pass.** OpenSpiel picks the direction by a chance node (no pass, left,
  across, right) for its one hand; our file cycles left, right, across, none
  hand by hand. Each chance outcome is matched with a one-hand game of our
  ``hearts`` whose ``pass:`` line names that direction (its first hand's entry).
  OpenSpiel's *left* is player ``p + 1``, who also plays after ``p``: our
  ``left`` (the next player in the direction of play). OpenSpiel asks player 0
  for three cards, then player 1, and so on; we let every seat choose at once,
  so each OpenSpiel pass is applied for its player (``apply(Pass(c), seat)``),
  which our protocol allows in any order.
* **Rules.** OpenSpiel's defaults match our file (Pagat's rules) on the 2♣
  lead, no points on the first trick (unless a player holds nothing else),
  hearts not led until broken (unless the leader holds only hearts), 1 a heart,
  13 for Q♠, and the moon (0 for the shooter, 26 for everyone else); its
  options for a J♦ bonus, a bonus for avoiding every trick and leading any club
  are off by default. One default differs: OpenSpiel lets Q♠ break hearts
  (``qs_breaks_hearts=True``); Pagat and our file do not, so the main comparison
  runs OpenSpiel with ``qs_breaks_hearts=False``. A second run turns it on on
  both sides: OpenSpiel's default against our file with ``breaking cards: Q♠
  breaks hearts`` (the built-in ``hearts-queen-breaks``).
* **Points.** OpenSpiel's ``returns()`` are 26 minus each player's points for
  the hand (the moon shooter: 26, the others 0); ours are the points of the
  ``score`` event. The test compares ``26 - returns`` with our points.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

import cardrules
from cardrules.engine import Game, Pass, Play

pyspiel = pytest.importorskip("pyspiel")

#: OpenSpiel's pass directions (its chance outcomes) as our ``pass:`` lines.
DIRECTIONS = {0: "none", 1: "3 cards left", 2: "3 cards across", 3: "3 cards right"}

#: One hand of our Hearts, passing as OpenSpiel's chance node chose.
TEXT = """\
game: openspiel-hearts
extends: hearts
title: "OpenSpiel's hearts"
hands: 1 hands of the same size
pass: {direction}
{breaks}"""

HANDS = 520


@cache
def variant(direction: int, qs: bool = False) -> cardrules.Variant:
    breaks = "breaking cards: Q♠ breaks hearts\n" if qs else ""
    return cardrules.load_text(TEXT.format(direction=DIRECTIONS[direction], breaks=breaks))


@cache
def spiel_game(qs: bool = False) -> object:
    return pyspiel.load_game("hearts", {"qs_breaks_hearts": qs})


def to_ours(a: int) -> int:
    """OpenSpiel's card id (rank * 4 + suit, suits ♣ ♦ ♥ ♠) as ours (suit * 13 + rank)."""
    return (a % 4) * 13 + a // 4


def to_spiel(c: int) -> int:
    return (c % 13) * 4 + c // 13


def our_cards(actions: tuple[object, ...]) -> set[int]:
    out: set[int] = set()
    for a in actions:
        assert isinstance(a, Pass | Play)
        out.add(int(a.card))
    return out


def play_one(seed: int, qs: bool = False) -> tuple[int, list[int], list[int]]:
    """One hand in both engines; (direction, our points, OpenSpiel's points);
    ``qs``: Q♠ breaks hearts in both."""
    rng = random.Random(seed)
    state = spiel_game(qs).new_initial_state()  # type: ignore[attr-defined]
    direction = seed % 4
    state.apply_action(direction)
    order = list(range(52))
    rng.shuffle(order)
    for a in order:
        state.apply_action(a)
    g = Game(variant(direction, qs), 4, seed=seed, deck=[to_ours(a) for a in order], first_dealer=3)
    for p in range(4):
        assert g.hand(p).mask == sum(1 << to_ours(a) for a in order[p::4])
    passes = 0
    while not state.is_terminal():
        p = state.current_player()
        spiel = {to_ours(a) for a in state.legal_actions()}
        if g.phase == "pass":
            assert p in g.waiting_for
            assert our_cards(g.legal_actions(p)) == spiel
            c = rng.choice(sorted(spiel))
            g.apply(Pass(c), p)
            passes += 1
        else:
            assert g.phase == "play" and g.to_act == p
            assert our_cards(g.legal_actions()) == spiel, (seed, g.current_trick())
            c = rng.choice(sorted(spiel))
            g.apply(Play(c), g.to_act)
        state.apply_action(to_spiel(c))
    assert g.is_over and passes == (0 if direction == 0 else 12)
    (score,) = [e for e in g.events if e[0] == "score"]
    ours = [int(x) for x in score[4]]
    theirs = [round(26 - r) for r in state.returns()]
    return direction, ours, theirs


@pytest.mark.parametrize("qs", [False, True], ids=["qs-does-not-break", "qs-breaks-hearts"])
def test_hearts_agrees_with_openspiel_on_legal_actions_and_points(qs: bool) -> None:
    directions = [0, 0, 0, 0]
    moons = 0
    for seed in range(HANDS):
        direction, ours, theirs = play_one(seed, qs)
        assert ours == theirs, (seed, ours, theirs)
        directions[direction] += 1
        moons += sorted(ours) == [0, 26, 26, 26]
    assert min(directions) >= HANDS // 4
    assert HANDS >= 500


def test_the_queen_breaking_hearts_changes_what_may_be_led() -> None:
    """The two runs differ: some hand's legal leads differ once Q♠ has broken
    hearts (so the second run tests the rule, not the same game twice)."""
    differ = 0
    for seed in range(60):
        rng = random.Random(seed)
        order = list(range(52))
        rng.shuffle(order)
        deck = [to_ours(a) for a in order]
        a, b = (
            Game(variant(0, qs), 4, seed=seed, deck=deck, first_dealer=3) for qs in (False, True)
        )
        while not a.is_over:
            la, lb = a.legal_actions(), b.legal_actions()
            if la != lb:
                differ += 1
                break
            c = rng.choice(la)
            a.apply(c, a.to_act)
            b.apply(c, b.to_act)
    assert differ > 0


def test_a_moon_shot_agrees_with_openspiel() -> None:
    """A stacked deal: North holds every club, leads 2♣ and takes every trick."""
    state = spiel_game().new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(0)
    for a in range(52):
        state.apply_action(a)
    g = Game(variant(0), 4, seed=0, deck=[to_ours(a) for a in range(52)], first_dealer=3)
    rng = random.Random(0)
    while not state.is_terminal():
        spiel = {to_ours(a) for a in state.legal_actions()}
        assert our_cards(g.legal_actions()) == spiel
        c = rng.choice(sorted(spiel))
        g.apply(Play(c), g.to_act)
        state.apply_action(to_spiel(c))
    (score,) = [e for e in g.events if e[0] == "score"]
    assert list(score[4]) == [0, 26, 26, 26]
    assert [round(26 - r) for r in state.returns()] == [0, 26, 26, 26]
