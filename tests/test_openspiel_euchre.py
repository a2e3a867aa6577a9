"""Euchre against OpenSpiel's ``euchre`` (optional: needs pyspiel).

OpenSpiel plays one hand with ``allow_lone_defender=False`` and
``stick_the_dealer=True``; we play the first hand of
``euchre-stick-the-dealer`` with ``dealer keeps the turned card: yes`` (OpenSpiel
does not let the dealer discard the card it took up; Pagat leaves the dealer
free to discard any card, so the built-in files do) on the same deal. At every
step a seeded RNG picks one of *our* legal actions; the test checks that
OpenSpiel offers exactly the same set (mapped to its ids) with the same seat to
act, then makes the same move in both.

What is compared: the choice of trumps, step by step, on 600 deals: the first
round (order up or pass), the dealer's discard, the second round (another
suit, or pass, the dealer stuck); and whole hands on 500 more deals: the
choice of trumps, then every card played (the same seat to act and the same
legal cards at each step: following by the bowers' suit, the jack of the same
colour counting as a trump), then the points. OpenSpiel returns the makers'
points to the makers and their negative to the defenders (a euchre: the
defenders +2, the makers -2); we score the points to the side that wins them
and nothing to the other, so OpenSpiel's return for a seat is our points for
its side less the other side's.

Where the rules differ, the test compares what can be compared:

* Going alone: both ask the maker, once trumps are made (and the dealer has
  discarded), to go alone (``Alone()``, OpenSpiel's ``Alone``) or not
  (``WithPartner()``, its ``Partner``); the random choices answer both, so
  about half the hands are lone hands: the partner skipped in every trick
  and the lead, and 4 points for a lone march. Nobody defends alone
  (OpenSpiel's ``allow_lone_defender`` is off; our file has no lone defence).
* The game: OpenSpiel plays one hand; ours goes on to 10 points, so only the
  first hand and its score are compared.
* Dealing: OpenSpiel gives deal number ``i`` to seat ``(dealer + i) % 4``; we
  deal from the dealer's neighbour. The test stacks our deck so that every seat
  gets the same five cards and the same card is turned up.
"""

from __future__ import annotations

import random

import pytest

import cardrules
from cardrules.cards import Card, Rank, Suit
from cardrules.engine import Game
from cardrules.engine.actions import (
    Action,
    Alone,
    Decline,
    Discard,
    Name,
    OrderUp,
    Play,
    WithPartner,
)

pyspiel = pytest.importorskip("pyspiel")

V = cardrules.load_text(
    "game: openspiel-euchre\nextends: euchre-stick-the-dealer\ndealer keeps the turned card: yes\n"
)
SPIEL = pyspiel.load_game("euchre", {"allow_lone_defender": False, "stick_the_dealer": True})
#: OpenSpiel's ids: cards 0-23 (rank 9, 10, J, Q, K, A; suits C, D, H, S within a
#: rank), then Pass, the four suits, Alone and Partner.
PASS, CLUBS, ALONE, PARTNER = 24, 25, 29, 30
HANDS = 600
#: Whole hands compared (trumps, play and points).
FULL_HANDS = 500


def os_card(c: Card) -> int:
    return (int(c.rank) - 9) * 4 + int(c.suit)


def our_card(i: int) -> Card:
    return Card.of(Rank(9 + i // 4), Suit(i % 4))


def to_os(state: object, a: Action, turned: Card) -> int:
    if isinstance(a, Play | Discard):
        return os_card(a.card)
    if a is Decline():
        return PASS
    if a is OrderUp():
        return CLUBS + int(turned.suit)
    if a is Alone():
        return ALONE
    if a is WithPartner():
        return PARTNER
    assert isinstance(a, Name) and a.suit is not None
    return CLUBS + int(a.suit)


def deal(rng: random.Random) -> tuple[int, list[list[Card]], Card, object]:
    state = SPIEL.new_initial_state()
    dealer = rng.randrange(4)
    state.apply_action(dealer)
    hands: list[list[Card]] = [[] for _ in range(4)]
    for i in range(20):
        a = rng.choice([x for x, _ in state.chance_outcomes()])
        hands[(dealer + i) % 4].append(our_card(a))
        state.apply_action(a)
    up = rng.choice([x for x, _ in state.chance_outcomes()])
    state.apply_action(up)
    assert not state.is_chance_node()
    return dealer, hands, our_card(up), state


def stacked(dealer: int, hands: list[list[Card]], turned: Card) -> list[Card]:
    seats = [(dealer + k) % 4 for k in range(1, 5)]
    return [hands[s][i] for i in range(5) for s in seats] + [turned]


def test_the_choice_of_trumps_is_openspiels() -> None:
    rng = random.Random(2026)
    steps = 0
    for _ in range(HANDS):
        dealer, hands, turned, state = deal(rng)
        g = Game(V, 4, seed=1, deck=stacked(dealer, hands, turned), first_dealer=dealer)
        assert g.turned_up == turned and g.dealer == dealer
        assert [set(g.hand(s)) for s in range(4)] == [set(h) for h in hands]
        while g.phase == "trumps":
            ours = g.legal_actions()
            assert state.current_player() == g.to_act
            assert sorted(to_os(state, a, turned) for a in ours) == sorted(state.legal_actions())
            a = rng.choice(ours)
            state.apply_action(to_os(state, a, turned))
            g.apply(a, g.to_act)
            steps += 1
        # Both engines now wait for the same seat to lead, with the same trumps.
        assert g.phase == "play" and state.current_player() == g.to_act
        assert g.trump is not None
        # The leader may lead any card it holds: the dealer's discard left the same hands.
        leader = g.to_act
        assert leader is not None
        assert sorted(os_card(c) for c in g.hand(leader)) == sorted(state.legal_actions())
    assert steps > HANDS * 2


def test_whole_hands_are_openspiels() -> None:
    rng = random.Random(12)
    steps = 0
    seen: set[tuple[int, ...]] = set()
    lone = 0
    for _ in range(FULL_HANDS):
        dealer, hands, turned, state = deal(rng)
        g = Game(V, 4, seed=1, deck=stacked(dealer, hands, turned), first_dealer=dealer)
        while g.hand_number == 1:
            ours = g.legal_actions()
            assert state.current_player() == g.to_act
            assert sorted(to_os(state, a, turned) for a in ours) == sorted(state.legal_actions())
            a = rng.choice(ours)
            state.apply_action(to_os(state, a, turned))
            actor = g.to_act
            g.apply(a, g.to_act)
            steps += 1
            if a is Alone():
                lone += 1
                # Everyone sees who is alone.
                assert all(g.view(s).alone == actor for s in range(4))
        assert state.is_terminal()
        end = next(i for i, e in enumerate(g.events) if e[0] == "score")
        alone = [e[1] for e in g.events[:end] if e[0] == "call" and e[2] is Alone()]
        if alone:
            # The maker's partner sat out: it played no card.
            played = {e[1] for e in g.events[:end] if e[0] == "play"}
            assert played == {0, 1, 2, 3} - {(alone[0] + 2) % 4}
        points = next(e for e in g.events if e[0] == "score")[4]
        returns = tuple(int(x) for x in state.returns())
        assert returns == tuple(points[s] - points[(s + 1) % 4] for s in range(4))
        seen.add(returns)
    # Every outcome came up: a side making 1 or 2, a lone march 4, and euchred.
    assert {abs(x) for r in seen for x in r} == {1, 2, 4}
    assert FULL_HANDS // 4 < lone < FULL_HANDS * 3 // 4
    assert steps > FULL_HANDS * 17  # five cards each (but the partner's, alone) and calls
