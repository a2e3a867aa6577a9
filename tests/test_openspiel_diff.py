"""Differential test against OpenSpiel's ``oh_hell`` (optional: needs the ``bench`` extra).

Each hand is dealt identically in both engines (the same cards to the same
seats, the same turned-up trump card, the same dealer), then played with the
same random decisions: at every step a seeded RNG picks one of *our* legal
actions, and the test checks that OpenSpiel offers exactly the same set and that
the same seat is to act. At the end, each seat's bid, tricks and score must
equal OpenSpiel's. Hands mix 3, 4 and 5 players and hand sizes 1 to 10, with
the dealer at every seat.

Dealing differs between the engines: OpenSpiel gives deal number ``i`` to seat
``i % players`` whoever deals, while we deal one card at a time from the front
of the deck starting with the dealer's neighbour (clockwise: increasing seat
numbers), then turn up the next card. :func:`stacked_deck` builds our order.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import openspiel_peer

import cardrules
from cardrules.engine import Action, Bid, Game, Play

if not openspiel_peer.available():  # pragma: no cover - an OpenSpiel without oh_hell
    pytest.skip("this OpenSpiel has no oh_hell game", allow_module_level=True)

#: OpenSpiel's oh_hell rules, in our language: one hand of ``{size}`` cards,
#: a turned-up trump, bids in turn from the dealer's neighbour with the hook on
#: the dealer, final bids, must follow suit (no need to trump or beat), the
#: dealer's neighbour leads first, and OpenSpiel's scoring.
SPIEL_TEXT = """\
game: openspiel-oh-hell
extends: oh-hell
title: "OpenSpiel's oh_hell"
players: 3 to 5
deck: standard 52
direction: clockwise
hands: list {size}
trumps: turned up
bidding: in turn
hook: yes
bids: 0 to the hand size
bid changes: no
first lead: dealer's neighbour
follow: must follow suit
leading trumps: any time
score: {score}
winner: highest total
tie: shared
"""

#: OpenSpiel's default scoring (``off_bid_penalty=False``, ``points_per_trick=1``).
DEFAULT_SCORE = "tricks + (if exact then 10 else 0)"
#: With ``off_bid_penalty=True``: a trick each plus 10 if exact, else minus the miss.
PENALTY_SCORE = "if exact then tricks + 10 else -diff"

PLAYERS = (3, 4, 5)
SIZES = tuple(range(1, 11))


@cache
def variant(size: int, score: str) -> cardrules.Variant:
    return cardrules.load_text(SPIEL_TEXT.format(size=size, score=score))


def stacked_deck(deal: list[list[int]], trump_card: int, dealer: int) -> list[int]:
    """Our deck order that deals ``deal`` (seat by seat) and turns up ``trump_card``.

    Card ``i`` goes to seat ``(dealer + 1 + i) % players`` (clockwise from the
    dealer's neighbour); card ``players * size`` is turned up.
    """
    players = len(deal)
    size = len(deal[0])
    order = [deal[(dealer + 1 + i) % players][i // players] for i in range(players * size)]
    return [*order, trump_card]


def ours(action: Action) -> int:
    """An action of ours as OpenSpiel's peer encodes it: a bid's number, a card's number."""
    if type(action) is Bid and not action.blind:
        return action.n
    if type(action) is Play:
        return int(action.card)
    raise AssertionError(f"unexpected action {action!r}")


def play_one(
    rng: random.Random, players: int, size: int, *, penalty: bool, stats: Counter[str]
) -> None:
    """Deal one random hand into both engines, play it out in lockstep, compare."""
    pack = list(range(52))
    rng.shuffle(pack)
    deal = [sorted(pack[s * size : (s + 1) * size]) for s in range(players)]
    trump_card = pack[players * size]
    dealer = rng.randrange(players)
    where = f"{players} players, {size} cards, dealer {dealer}, trump card {trump_card}"

    v = variant(size, PENALTY_SCORE if penalty else DEFAULT_SCORE)
    g = Game(
        v,
        players=players,
        seed=rng.getrandbits(32),
        deck=stacked_deck(deal, trump_card, dealer),
        first_dealer=dealer,
    )
    # The stacking puts every card where OpenSpiel puts it.
    assert g.dealer == dealer, where
    assert g.turned_up is not None and int(g.turned_up) == trump_card, where
    assert g.trump is not None and int(g.trump) == trump_card // 13, where
    for seat in range(players):
        assert sorted(map(int, g.hand(seat))) == deal[seat], f"{where}: seat {seat}"

    our_seats: list[int] = []

    def choose(spiel_legal: list[int]) -> int:
        step = len(our_seats)
        assert not g.is_over, f"{where}: OpenSpiel wants a decision {step} after our game ended"
        legal = g.legal_actions()
        mine = sorted(ours(a) for a in legal)
        assert mine == sorted(spiel_legal), (
            f"{where}: step {step} ({g.phase}, seat {g.to_act}): "
            f"ours {mine} != OpenSpiel {sorted(spiel_legal)}"
        )
        if g.phase == "bid" and len(legal) < size + 1:
            stats["hooked"] += 1
        if g.phase == "play" and g.current_trick():
            led = int(g.current_trick()[0][1]) // 13
            if all(int(c) // 13 != led for c in g.hand(g.to_act)):
                stats["void"] += 1
        action = rng.choice(legal)
        assert g.to_act is not None
        our_seats.append(g.to_act)
        g.apply(action, g.to_act)
        return ours(action)

    result = openspiel_peer.play_stacked(deal, trump_card, dealer, choose, off_bid_penalty=penalty)

    assert g.is_over, f"{where}: OpenSpiel ended the hand before us"
    steps = result["steps"]
    assert len(steps) == len(our_seats) == players + players * size, where
    for i, ((seat, _, _), mine) in enumerate(zip(steps, our_seats, strict=True)):
        assert seat == mine, f"{where}: step {i}: OpenSpiel's seat {seat} acted, ours {mine}"
    assert list(g.bids) == result["bids"], where
    assert list(g.tricks_won) == result["tricks_won"], where
    assert list(g.scores) == [Fraction(x) for x in result["returns"]], (
        f"{where}: bids {result['bids']} tricks {result['tricks_won']}: "
        f"ours {[str(s) for s in g.scores]} != OpenSpiel {result['returns']}"
    )
    stats["hands"] += 1
    stats["steps"] += len(steps)
    stats["exact"] += sum(b == t for b, t in zip(g.bids, g.tricks_won, strict=True))


@pytest.mark.parametrize("players", PLAYERS)
def test_same_hands_as_openspiel(players: int) -> None:
    """600 hands per table size (1,800 in all), 60 of each hand size from 1 to 10."""
    rng = random.Random(20_240 + players)
    stats: Counter[str] = Counter()
    for i in range(600):
        play_one(rng, players, SIZES[i % len(SIZES)], penalty=False, stats=stats)
    assert stats["hands"] == 600
    # The random play reached the rules that matter: the hook and void seats.
    assert stats["hooked"] > 50
    assert stats["void"] > 100
    assert 0 < stats["exact"] < stats["hands"] * players


def test_same_hands_as_openspiel_with_off_bid_penalty() -> None:
    """OpenSpiel's ``off_bid_penalty=True`` scoring, 400 more hands of mixed sizes."""
    rng = random.Random(77)
    stats: Counter[str] = Counter()
    for i in range(400):
        play_one(rng, PLAYERS[i % 3], SIZES[i % 10], penalty=True, stats=stats)
    assert stats["hands"] == 400
    assert 0 < stats["exact"] < stats["steps"]


def test_stacked_deck_puts_openspiels_deal_order_right() -> None:
    """Deal 0 of OpenSpiel goes to seat 0 whoever deals; ours starts left of the dealer."""
    deal = [[0, 1], [2, 3], [4, 5]]
    assert stacked_deck(deal, 51, dealer=0) == [2, 4, 0, 3, 5, 1, 51]
    assert stacked_deck(deal, 51, dealer=2) == [0, 2, 4, 1, 3, 5, 51]
