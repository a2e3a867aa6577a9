"""Shown-out suits: ``View.showed_out`` and the heuristic bot's use of them.

Issue 15 ("bots that play like people"): the heuristic bot led into a suit a
player was known to be void in (Kazhutha, five times in a row) and cashed
winners an opponent was known to trump. ``View.showed_out`` says, for every
seat, the suits it has not followed this hand; the tests below check it
against an oracle kept while playing, and check the bot's choices on
hand-made views where the old bot went wrong (each failed before the fix).
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from test_bots import _shed_view, _trick_view

import cardrules
from cardrules.bots import HeuristicBot
from cardrules.cards import Suit
from cardrules.engine import Game, Play, View

# Families whose rules make a seat follow suit when it can.
MUST_FOLLOW = ("oh-hell", "kachuful", "callbreak", "spades", "hearts", "euchre", "kazhutha")


def _effective_suit(view: View, card: int) -> int:
    """The suit a card counts as this hand (a trump-order card counts as trumps)."""
    if view.trump is not None and card in {int(c) for c in view.trump_order}:
        return int(view.trump)
    return card // 13


@pytest.mark.parametrize("name", MUST_FOLLOW)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_showed_out_matches_an_oracle_and_the_hidden_hands(name: str, seed: int) -> None:
    variant = cardrules.load(name)
    players = 4
    g = Game(variant, players=players, seed=seed, max_tricks=60)
    rng = random.Random(seed)
    oracle: list[list[Suit]] = [[] for _ in range(players)]
    hand = g.hand_number
    checked = 0
    while not g.is_over:
        seat = g.to_act
        if seat is None:
            seat = min(g.waiting_for)
        action = rng.choice(g.legal_actions(seat))
        before = g.public_view()
        trick = before.trick
        g.apply(action, seat)
        if g.hand_number != hand:
            hand = g.hand_number
            oracle = [[] for _ in range(players)]
            continue
        if isinstance(action, Play) and trick:
            led = _effective_suit(before, int(trick[0][1]))
            if _effective_suit(before, int(action.card)) != led and Suit(led) not in oracle[seat]:
                oracle[seat].append(Suit(led))
        if g.is_over:
            break
        public = g.public_view()
        assert public.showed_out == tuple(map(tuple, oracle))
        # Every seat sees the same (everyone saw the cards played).
        assert g.view(0).showed_out == public.showed_out
        # The rules make a seat follow: it holds none of those suits, except the
        # cards everyone saw it pick up.
        omni = g.omniscient_view()
        known = dict(public.known_hands)
        for s, cards in omni.visible_hands:
            hidden = [c for c in cards if c not in known.get(s, ())]
            for c in hidden:
                assert Suit(_effective_suit(omni, int(c))) not in public.showed_out[s], (s, c)
        checked += 1
    assert checked > 20


def test_showed_out_round_trips_through_json() -> None:
    g = Game(cardrules.load("kachuful"), players=4, seed=5)
    rng = random.Random(5)
    while not any(g.public_view().showed_out):
        s = g.to_act
        assert s is not None
        g.apply(rng.choice(g.legal_actions(s)), s)
    v = g.view(1)
    data = json.loads(v.to_json())
    assert any(data["showed_out"])
    assert View.from_dict(data) == v


def test_shedding_bot_does_not_lead_into_a_known_void() -> None:
    # Seat 0 showed out of hearts (it cut a heart trick): leading a heart lets it
    # cut again, and the leader's heart would pick the trick up. Hearts are the
    # suit the others hold most of by count, so the old bot led one.
    spades_out = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"
    v = _shed_view("K♥ 2♥ A♠", [], (10, 10, 10, 3), gone=spades_out)
    assert HeuristicBot().choose(v).card.suit == Suit.HEARTS  # type: ignore[attr-defined]
    void = attrs.evolve(v, showed_out=((Suit.HEARTS,), (), (), ()))
    assert HeuristicBot().choose(void).card.suit == Suit.SPADES  # type: ignore[attr-defined]


def test_trick_bot_does_not_cash_a_winner_an_opponent_will_trump() -> None:
    # Spades are trumps; seat 3 leads and still needs a trick. A♥ is the highest
    # heart out, but seat 0 showed out of hearts and trumps are still unseen.
    v = _trick_view("A♥ 7♦ 4♦ 2♣", [], bid=1, won=0)
    assert HeuristicBot().choose(v) == Play("A♥")
    void = attrs.evolve(v, showed_out=((Suit.HEARTS,), (), (), ()))
    assert HeuristicBot().choose(void) != Play("A♥")


def test_trick_bot_keeps_its_winner_when_the_next_seat_will_trump() -> None:
    # Seat 3 follows a diamond lead from seat 2 with seat 0 and 1 still to play...
    # here seat 3 is second to play: seats 0, 1 and 2 play after the leader.
    # Seat 1 led 5♦; seat 2 played 9♦; seat 3 holds K♦ and 3♦, needs a trick, and
    # seat 0 (still to play) showed out of diamonds and may trump: the king would
    # likely be trumped, so it keeps it and plays low.
    v = _trick_view("K♦ 3♦ 8♣ 2♣", [(1, "5♦"), (2, "9♦")], bid=1, won=0)
    v = attrs.evolve(v, leader=1, seat_order=(0, 1, 2, 3))
    assert HeuristicBot().choose(v) == Play("K♦")
    void = attrs.evolve(v, showed_out=((Suit.DIAMONDS,), (), (), ()))
    assert HeuristicBot().choose(void) == Play("3♦")
