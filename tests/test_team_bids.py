"""One bid per side (``team bids: one per side``, issue 12 item 1) and the
built-in ``spades-side-bids``.

Golden tests on stacked deals (the order of the bids, the partner passed by,
the side's contract scored, the hook on the side that bids last, bids all at
once), saves, replay and clone in the middle of the bidding, the views and
events, the checks of the line, a Hypothesis property over whole games (only
the first partner of each side ever bids, the side's score is its one bid's)
and 200 seeded games to the end checked against an independent scorer.
"""

from __future__ import annotations

import random

import attrs
import pytest
from catalog_support import check_file, roundtrip, stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Game, Play, card
from cardrules.dsl import load_text
from cardrules.engine import replay
from cardrules.errors import IllegalAction, VariantError

SIDE = cardrules.load("spades-side-bids")
SPADES = cardrules.load("spades")

#: A small partnership game with one bid per side and the hook.
HOOKED_TEXT = (
    "game: side-hook\nextends: oh-hell\nplayers: 4\nteams: 1 and 3, 2 and 4\n"
    "hand size: 5\nhands: 3 hands of the same size\ntrumps: spades\nhook: yes\n"
    "team bids: one per side\nscore: 0\n"
    "team score: if tricks = bid then 10 + bid else 0\n"
)
HOOKED = load_text(HOOKED_TEXT)

#: Seat 1 holds the top spades and hearts, and takes every trick.
STRONG = stack(
    "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ A♥ K♥ Q♥ J♥ 10♥ 9♥",
    "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
    "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
    "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥",
)


def bids_of(g: Game) -> list[int]:
    return [a.n for a in g.legal_actions() if isinstance(a, Bid)]


# --------------------------------------------------------------------------- golden


def test_the_first_partner_of_each_side_bids_and_the_others_are_passed_by() -> None:
    g = Game(SIDE, 4, deck=STRONG, first_dealer=3)  # seat 4 deals: seats 1, 2 bid
    assert g.phase == "bid" and g.to_act == 0
    assert bids_of(g) == list(range(1, 14))
    assert g.view(0).bidders == (0, 1)
    for s in (1, 2, 3):
        assert g.legal_actions(s) == ()
    g.apply(Bid(7), g.to_act)
    assert g.to_act == 1 and g.bids == (7, None, None, None)
    with pytest.raises(IllegalAction, match="seat 1's turn to bid, not seat 2's"):
        g.apply(Bid(3), seat=2)
    g.apply(Bid(2), g.to_act)
    # The side's partners never bid: the play starts with the dealer's neighbour.
    assert g.phase == "play" and g.to_act == 0
    assert g.bids == (7, 2, None, None)
    assert ("bids", (7, 2, None, None)) in [e.astuple() for e in g.events]
    assert [e[1] for e in g.events if e[0] == "bid"] == [0, 1]
    for s in range(4):
        v = g.view(s)
        assert v.bids == (7, 2, None, None)
        assert v.bid_made == (True, True, False, False)
        assert v.to_dict()["bidders"] == [0, 1]


def test_the_side_scores_its_one_bid_and_bags() -> None:
    g = Game(SIDE, 4, deck=STRONG, first_dealer=3)
    g.apply(Bid(7), g.to_act)
    g.apply(Bid(2), g.to_act)
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    # Seats 1 and 3 took 13 tricks on a bid of 7: 70 + 6 bags; seats 2 and 4
    # bid 2 and took none: minus 20.
    assert score[3] == (13, 0, 0, 0)
    assert score[4] == (76, -20, 76, -20)
    assert dict(g.counters)["bags"] == (6, 0, 6, 0)


def test_the_next_dealer_changes_who_speaks_for_each_side() -> None:
    g = Game(SIDE, 4, seed=3, first_dealer=0)  # seat 1 deals: seats 2 and 3 bid
    assert g.to_act == 1 and g.view(1).bidders == (1, 2)
    g.apply(Bid(4), g.to_act)
    assert g.to_act == 2
    g.apply(Bid(5), g.to_act)
    assert g.phase == "play" and g.bids == (None, 4, 5, None)


def test_the_hook_binds_the_side_that_bids_last() -> None:
    g = Game(HOOKED, 4, seed=1, first_dealer=3)
    assert bids_of(g) == [0, 1, 2, 3, 4, 5]
    g.apply(Bid(2), g.to_act)
    # Seat 2 bids last (not the dealer, seat 4): 2 + 3 would make 5 tricks.
    assert g.to_act == 1
    assert bids_of(g) == [0, 1, 2, 4, 5]
    with pytest.raises(IllegalAction, match="the last side to bid may not bid 3"):
        g.apply(Bid(3), g.to_act)
    assert g.bids == (2, None, None, None) and g.to_act == 1
    g.apply(Bid(4), g.to_act)
    assert g.phase == "play"


def test_the_hook_excludes_the_one_bid_that_adds_up() -> None:
    g = Game(HOOKED, 4, seed=1, first_dealer=3)
    g.apply(Bid(4), g.to_act)
    assert bids_of(g) == [0, 2, 3, 4, 5]  # 4 + 1 would add up to the 5 tricks
    g = Game(HOOKED, 4, seed=1, first_dealer=3)
    g.apply(Bid(5), g.to_act)
    assert bids_of(g) == [1, 2, 3, 4, 5]  # 5 + 0 would


def test_bids_all_at_once_wait_for_one_partner_of_each_side() -> None:
    v = load_text(HOOKED_TEXT.replace("hook: yes", "hook: no\nbidding: all at once"))
    g = Game(v, 4, seed=2, first_dealer=3)
    assert g.waiting_for == frozenset({0, 1})
    assert g.legal_actions(2) == () and g.legal_actions(3) == ()
    g.apply(Bid(3), seat=1)
    assert g.view(0).bids == (None, None, None, None)  # hidden until all are in
    g.apply(Bid(1), seat=0)
    assert g.phase == "play" and g.bids == (1, 3, None, None)


# --------------------------------------------------------------------------- saves, views


def test_saves_replay_and_clone_in_the_middle_of_the_bidding() -> None:
    g = Game(SIDE, 4, seed=8, first_dealer=3)
    g.apply(Bid(6), g.to_act)
    back = Game.from_json(g.to_json())
    assert back.to_act == 1 and back.bids == g.bids and back.events == g.events
    again = replay(SIDE, g.events)
    assert again.to_act == 1 and again.legal_actions() == g.legal_actions()
    c = g.clone()
    c.apply(Bid(4), c.to_act)
    assert c.phase == "play" and g.phase == "bid"
    back.apply(Bid(4), back.to_act)
    assert back.events == c.events


def test_a_refused_bid_leaves_the_game_unchanged() -> None:
    g = Game(SIDE, 4, seed=8, first_dealer=3)
    before = g.to_json()
    for bad in (Bid(0), Bid(14)):
        with pytest.raises(IllegalAction):
            g.apply(bad, g.to_act)
    with pytest.raises(IllegalAction):
        g.apply(Bid(3), seat=2)  # the partner who does not bid
    with pytest.raises(IllegalAction):
        g.apply(Play(card("2♣")), g.to_act)
    assert g.to_json() == before


# --------------------------------------------------------------------------- the line


def test_the_file_reads_and_writes_back() -> None:
    check_file(
        "spades-side-bids",
        {
            "bidding.one_per_team",
            "bidding.min_bid",
            "bidding.blind",
            "bidding.blind_only",
            "scoring.formula",
        },
    )
    roundtrip(SIDE)
    assert SIDE.bidding.one_per_team and not SPADES.bidding.one_per_team
    assert "team bids: one per side" in cardrules.format(SIDE)
    assert "team bids" not in cardrules.format(SPADES)
    each = load_text("game: x\nextends: spades\nteam bids: each partner\n")
    assert each.bidding == SPADES.bidding


def test_a_score_reading_a_seats_own_bid_is_refused() -> None:
    with pytest.raises(VariantError, match="only one partner of each side bids"):
        load_text("game: x\nextends: spades\nteam bids: one per side\n")


def test_the_old_fingerprints_are_kept() -> None:
    from cardrules.engine.state.compiled_rules import variant_fingerprint

    # The built-ins keep their fingerprints from before the setting existed
    # (tests/test_fingerprints_golden.py); the setting on changes spades'.
    side = attrs.evolve(SPADES.bidding, one_per_team=True)
    assert variant_fingerprint(SPADES.evolve(bidding=side)) != variant_fingerprint(SPADES)


# --------------------------------------------------------------------------- whole games


def side_points(bid: int, took: int, bags: int) -> tuple[int, int]:
    """An independent scorer of one side's hand: 10 a trick bid and 1 a bag, or
    minus 10 a trick bid; each 10 bags cost 100."""
    if took >= bid:
        points, bags = 10 * bid + took - bid, bags + took - bid
    else:
        points = -10 * bid
    while bags >= 10:
        points, bags = points - 100, bags - 10
    return points, bags


def check_log(g: Game) -> None:
    held = [0, 0]
    totals = [0, 0, 0, 0]
    dealer = -1
    for e in g.events:
        if e[0] == "deal":
            dealer = e[2]
            first = [(dealer + 1 + k) % 4 for k in range(2)]
            bidders: list[int] = []
        elif e[0] == "bid":
            bidders.append(e[1])
        elif e[0] == "score":
            assert bidders == first
            _, _, bids, tricks, points, running = e
            for k, team in enumerate(((0, 2), (1, 3))):
                spoke = [s for s in team if bids[s] is not None]
                assert len(spoke) == 1 and spoke[0] in first
                pts, held[k] = side_points(bids[spoke[0]], sum(tricks[s] for s in team), held[k])
                for s in team:
                    assert points[s] == pts
                    totals[s] += pts
            assert tuple(totals) == running
    r = g.result
    assert r is not None and r.finished
    assert set(r.winners) in ({0, 2}, {1, 3})


def play_random(seed: int) -> Game:
    rng = random.Random(seed)
    g = Game(SIDE, 4, seed=seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    return g


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_games(seed: int) -> None:
    check_log(play_random(3000 + seed))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_only_one_partner_of_each_side_ever_acts_in_the_bidding(seed: int) -> None:
    """At every step of the bidding exactly the seat to act may bid, it is the
    first of its side in turn from the dealer's left, its partner never has a
    legal action, and no view shows another seat's cards."""
    rng = random.Random(seed)
    g = Game(SIDE, 4, seed=seed, max_tricks=60)
    while not g.is_over:
        if g.phase == "bid":
            s = g.to_act
            assert s is not None
            order = [(g.dealer + 1 + k) % 4 for k in range(4)]
            assert s in order[:2]
            assert g.legal_actions((s + 2) % 4) == ()
            assert g.bids[(s + 2) % 4] is None
        for seat in range(4):
            view = g.view(seat)
            assert view.visible_hands == ()
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        scores = g.scores
        assert scores[0] == scores[2] and scores[1] == scores[3]


def test_bots_play_legally_and_the_heuristic_side_beats_the_random_one() -> None:
    from cardrules.bots import make_bot, play_game

    wins = 0
    games = 12
    for seed in range(games):
        g = Game(SIDE, 4, seed=seed)
        bots = [
            make_bot("heuristic" if s % 2 == 0 else "random", seed=seed * 4 + s) for s in range(4)
        ]
        play_game(g, bots)
        r = g.result
        assert r is not None and r.finished
        wins += set(r.winners) == {0, 2}
    assert wins >= 10
