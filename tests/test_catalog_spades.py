"""Partnerships, team scores and counters kept across hands (issue 12, items 1 and 3),
and the built-in games that need them: ``spades`` and ``whist``.

Golden tests on stacked deals (a nil made and failed, bags crossing ten within
a hand and across hands, a contract set, partners' totals equal), properties
over whole games (partners' scores equal after every hand, every card in one
place, no view showing another seat's hand), 200 seeded games of each to the
end checked against an independent scorer, and the checks of the new lines.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from catalog_support import cards, roundtrip, rule_differences
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Game
from cardrules.cards import Suit
from cardrules.dsl import load_text
from cardrules.engine import Look, replay
from cardrules.errors import VariantError
from cardrules.scoring import COUNTER_BOUND

SPADES = cardrules.load("spades")
WHIST = cardrules.load("whist")

SPADES_DIFFERENCES = {
    "players.min",
    "players.max",
    "teams",
    "schedule.start.table",
    "schedule.pattern",
    "schedule.count",
    "trumps.kind",
    "trumps.suit",
    "bidding.hook",
    "bidding.blind",
    "bidding.blind_only",
    "play.lead",
    "scoring.formula",
    "scoring.team_formula",
    "scoring.counters",
    "winning.target",
    "options",
}

ALL_SPADES = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠"
CLUBS = "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣"
DIAMONDS = "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦"
HEARTS = "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥"


def deal(*hands: str) -> list[Any]:
    """A deck giving ``hands[i]`` to the i-th seat to be dealt to (the dealer's
    left first), one card at a time."""
    per = [cards(h) for h in hands]
    return [per[j][i] for i in range(13) for j in range(4)]


def bid(g: Game, *bids: int) -> None:
    """Each seat in turn looks at its cards and bids."""
    for b in bids:
        if Look() in g.legal_actions():
            g.apply(Look(), g.to_act)
        g.apply(Bid(b), g.to_act)


def play_hand(g: Game) -> None:
    """Play the rest of the hand, each seat playing the first card it may."""
    hand = g.hand_number
    while not g.is_over and g.hand_number == hand:
        g.apply(g.legal_actions()[0], g.to_act)


def last_score(g: Game) -> tuple[Any, ...]:
    return [e for e in g.events if e[0] == "score"][-1]


def bags(g: Game) -> tuple[int, ...]:
    return dict(g.counters)["bags"]


# --------------------------------------------------------------------------- the files


def test_spades_file() -> None:
    """Loads, formats back to itself, and changes exactly the rules it lists."""
    v = SPADES
    assert v.source.startswith("# ") and "pagat.com/auctionwhist/spades.html" in v.source
    roundtrip(v)
    assert rule_differences("spades") == SPADES_DIFFERENCES
    assert v.teams == ((0, 2), (1, 3)) and v.winning.target == 500
    assert [c.name for c in v.scoring.counters] == ["bags"]
    assert v.hand_sizes(4)[0] == 13
    with pytest.raises(VariantError):
        Game(v, players=5)


def test_whist_file() -> None:
    v = WHIST
    assert v.source.startswith("# ") and "pagat.com/whist/whist.html" in v.source
    roundtrip(v)
    assert v.parent is None and v.teams == ((0, 2), (1, 3)) and v.winning.target == 5
    assert v.scoring.formula is None and v.scoring.team_formula is not None


def test_examples_of_both_files_hold() -> None:
    from cardrules.example_runner import run_examples

    assert run_examples(SPADES) == []
    assert run_examples(WHIST) == []


# --------------------------------------------------------------------------- golden


def test_nil_made_a_side_set_and_partners_equal() -> None:
    """Seat 1 holds every spade: it leads them (it holds nothing else) and wins all
    13 tricks. Its side bid 10 + nil: 10 * 10 + 3 bags, and the nil made 100.
    The other side bid nil + 2 and took nothing: set (-20) and its nil made (+100)."""
    g = Game(SPADES, 4, deck=deal(ALL_SPADES, CLUBS, DIAMONDS, HEARTS), first_dealer=3)
    bid(g, 10, 0, 0, 2)
    play_hand(g)
    _, hn, bids, tricks, points, totals = last_score(g)
    assert (hn, bids, tricks) == (1, (10, 0, 0, 2), (13, 0, 0, 0))
    assert points == (203, 80, 203, 80)
    assert totals == points
    assert bags(g) == (3, 0, 3, 0)
    assert g.view(0).counters == (("bags", (3, 0, 3, 0)),)
    assert g.view(1).teams == ((0, 2), (1, 3))


def test_nil_failed_and_ten_bags_in_one_hand() -> None:
    """Seat 2 bids nil but holds every spade: it trumps the first lead and then
    leads spades, taking all 13 tricks. Its side bid 0 + 3 and took 13: 30, 10
    bags, minus 100 for the failed nil and 100 for the ten bags, which leave 0."""
    g = Game(SPADES, 4, deck=deal(CLUBS, ALL_SPADES, DIAMONDS, HEARTS), first_dealer=3)
    bid(g, 4, 0, 4, 3)
    play_hand(g)
    _, _, _bids, tricks, points, _ = last_score(g)
    assert tricks == (0, 13, 0, 0)
    assert points == (-80, -160, -80, -160)
    assert bags(g) == (0, 0, 0, 0)


def test_bags_carry_over_and_cross_ten_in_a_later_hand() -> None:
    """Hand 1: seat 2 wins every trick on a 5 + 1 contract: 60 and 7 bags. Hand
    2 (seat 1 deals, seat 2 is dealt to first and leads): seat 2 wins every
    trick again on 9 + 1: 100 and 3 bags, which make 10: minus 100, 0 bags left."""
    first = deal(CLUBS, ALL_SPADES, DIAMONDS, HEARTS)
    second = deal(ALL_SPADES, DIAMONDS, HEARTS, CLUBS)
    g = Game(SPADES, 4, deck=[first, second], first_dealer=3)
    bid(g, 2, 5, 2, 1)
    play_hand(g)
    assert last_score(g)[4] == (-40, 67, -40, 67)
    assert bags(g) == (0, 7, 0, 7)
    assert g.dealer == 0 and g.to_act == 1
    bid(g, 9, 1, 1, 1)  # seats 2, 3, 4, 1
    play_hand(g)
    _, hn, bids, tricks, points, totals = last_score(g)
    assert (hn, bids, tricks) == (2, (1, 9, 1, 1), (0, 13, 0, 0))
    assert points == (-20, 3, -20, 3)
    assert totals == (-60, 70, -60, 70)
    assert bags(g) == (0, 0, 0, 0)
    # The events carry the counters after each hand, and the rules were read
    # before the hand (hand 2's score saw 7 bags).
    assert [e[3] for e in g.events if e[0] == "counters"] == [
        ((0,), (7,), (0,), (7,)),
        ((0,), (0,), (0,), (0,)),
    ]


def test_blind_nil_scores_200() -> None:
    g = Game(SPADES, 4, deck=deal(ALL_SPADES, CLUBS, DIAMONDS, HEARTS), first_dealer=3)
    bid(g, 10)
    g.apply(Bid(0, blind=True), g.to_act)  # seat 2, before looking: blind nil, made
    bid(g, 0, 2)
    play_hand(g)
    assert last_score(g)[4] == (203, 180, 203, 180)


def test_game_to_500_and_the_winners_are_a_side() -> None:
    """Seat 1 holds every spade in every hand and its side bids 13 each time:
    130 + 100 for seat 3's nil a hand, so 500 is reached in hand 3."""
    g = Game(SPADES, 4, deck=deal(ALL_SPADES, CLUBS, DIAMONDS, HEARTS), first_dealer=3)
    while not g.is_over:
        seat = g.to_act
        if g.phase == "bid":
            bid(g, {0: 13, 2: 0}.get(seat, 1))
        else:
            g.apply(g.legal_actions()[0], g.to_act)
    r = g.result
    assert r is not None and r.finished and not r.shared
    assert r.teams == ((0, 2), (1, 3))
    assert set(r.winners) <= {0, 1, 2, 3} and len(r.winners) == 2
    assert r.totals[r.winners[0]] >= 500 and r.totals[r.winners[0]] == r.totals[r.winners[1]]
    assert r.to_dict()["teams"] == [[0, 2], [1, 3]]


def test_whist_scores_tricks_over_six_for_the_side() -> None:
    """The dealer (seat 4) holds every spade, so its last card makes spades
    trumps: it takes all 13 tricks and its side scores 7."""
    g = Game(WHIST, 4, deck=deal(HEARTS, CLUBS, DIAMONDS, ALL_SPADES), first_dealer=3)
    assert g.trump is Suit.SPADES and g.turned_up in g.hand(3)
    play_hand(g)
    _, _, _bids, tricks, points, _ = last_score(g)
    assert tricks == (0, 0, 0, 13)
    assert points == (0, 7, 0, 7)


def test_whist_trumps_are_the_dealers_last_card() -> None:
    """The dealer's last card shows trumps; it stays in the dealer's hand, and
    every other seat knows only that card of it."""
    g = Game(WHIST, 4, seed=3, first_dealer=3)
    turned = g.turned_up
    assert turned is not None and turned in g.hand(3) and g.trump is turned.suit
    for seat in range(3):
        assert g.view(seat).known_hands == ((3, (turned,)),)


# --------------------------------------------------------------------------- saves


def test_saves_replay_and_clone_keep_the_counters() -> None:
    g = Game(SPADES, 4, seed=11)
    rng = random.Random(5)
    for _ in range(140):  # past the end of the first two hands
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    assert g.hand_number == 3
    back = Game.from_json(g.to_json())
    assert back.events == g.events and back.counters == g.counters
    assert replay(SPADES, g.events).counters == g.counters
    c = g.clone()
    assert c.counters == g.counters
    while not c.is_over:
        c.apply(rng.choice(c.legal_actions()), c.to_act)
    assert g.hand_number == 3 and len(g.events) < len(c.events)


# --------------------------------------------------------------------------- whole games


def spades_points(
    bids: tuple[int, ...],
    blind: dict[int, bool],
    tricks: tuple[int, ...],
    old_bags: int,
    team: tuple[int, ...],
) -> tuple[int, int]:
    """An independent scorer of one side's hand, as Pagat describes it."""
    points = 0
    for s in team:
        if bids[s] == 0:
            points += (100 if tricks[s] == 0 else -100) * (2 if blind.get(s) else 1)
    contract = sum(bids[s] for s in team)
    took = sum(tricks[s] for s in team)
    if took >= contract:
        points += 10 * contract + (took - contract)
        new = old_bags + took - contract
    else:
        points -= 10 * contract
        new = old_bags
    while new >= 10:
        points -= 100
        new -= 10
    return points, new


def play_random(v: Any, seed: int) -> Game:
    rng = random.Random(seed)
    g = Game(v, 4, seed=seed)
    pack = v.deck.cards.mask
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask, "a card is in two places"
            union |= part.mask
        assert union == pack, "a card went missing"
    return g


def check_spades_log(g: Game) -> None:
    teams = ((0, 2), (1, 3))
    held = {0: 0, 1: 0}
    totals = [0, 0, 0, 0]
    blind: dict[int, bool] = {}
    for e in g.events:
        if e[0] == "deal":
            blind = {}
        elif e[0] == "bid":
            blind[e[1]] = bool(e[3])
        elif e[0] == "score":
            _, _, bids, tricks, points, running = e
            for k, team in enumerate(teams):
                pts, held[k] = spades_points(bids, blind, tricks, held[k], team)
                for s in team:
                    assert points[s] == pts
                    totals[s] += pts
            assert tuple(totals) == running
            assert running[0] == running[2] and running[1] == running[3]
        elif e[0] == "counters":
            assert e[3] == ((held[0],), (held[1],), (held[0],), (held[1],))
    r = g.result
    assert r is not None and r.finished
    best = max(totals)
    assert best >= 500 or g.hand_number == len(SPADES.hand_sizes(4)) + g.extra_hands
    assert set(r.winners) == {s for s in range(4) if totals[s] == best}
    assert not r.shared


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_spades_games(seed: int) -> None:
    check_spades_log(play_random(SPADES, 1000 + seed))


def check_whist_log(g: Game) -> None:
    totals = [0, 0, 0, 0]
    for e in g.events:
        if e[0] == "score":
            _, _, _, tricks, points, running = e
            for team in ((0, 2), (1, 3)):
                pts = max(sum(tricks[s] for s in team) - 6, 0)
                for s in team:
                    assert points[s] == pts
                    totals[s] += pts
            assert tuple(totals) == running
    r = g.result
    assert r is not None and r.finished and max(totals) >= 5
    assert g.hand_number <= 9
    assert set(r.winners) in ({0, 2}, {1, 3})


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_whist_games(seed: int) -> None:
    check_whist_log(play_random(WHIST, 2000 + seed))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), which=st.sampled_from(["spades", "whist"]))
def test_partners_equal_and_views_never_show_another_hand(seed: int, which: str) -> None:
    """After every hand partners' totals are equal; at every step no seat's view
    shows the cards of any other seat (its partner's included), and its events
    hide them too."""
    v = SPADES if which == "spades" else WHIST
    rng = random.Random(seed)
    g = Game(v, 4, seed=seed, max_tricks=60)
    while not g.is_over:
        for seat in range(4):
            view = g.view(seat)
            assert view.visible_hands == ()
            # Whist: everyone knows the dealer holds the card that showed trumps.
            for s, known in view.known_hands:
                assert which == "whist" and s == g.dealer != seat
                assert set(known) <= {g.turned_up}
            assert view.hand is None or set(view.hand) == set(g.hand(seat))
            assert view.teams == v.teams
        for seat in range(4):
            for e in g.events_for(seat):
                if e[0] == "deal":
                    assert all(h is None for s, h in enumerate(e[4]) if s != seat)
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        scores = g.scores
        assert scores[0] == scores[2] and scores[1] == scores[3]
        counters = dict(g.counters)
        for values in counters.values():
            assert values[0] == values[2] and values[1] == values[3]
            assert all(0 <= x < 10 for x in values)


# --------------------------------------------------------------------------- the lines


BASE = "game: x\nplayers: 4\nhand size: 5\nscore: tricks\nbidding: none\n"


def test_teams_syntax_and_checks() -> None:
    v = load_text(BASE + "teams: 1 and 4, 2 and 3\n")
    assert v.teams == ((0, 3), (1, 2))
    six = load_text(
        BASE.replace("players: 4", "players: 6") + "teams: 1 and 3 and 5, 2 and 4 and 6\n"
    )
    assert six.teams == ((0, 2, 4), (1, 3, 5))
    for bad, words in [
        ("teams: 1 and 3, 2 and 3\n", "seat 3 is in two teams"),
        ("teams: 1 and 2, 4 and 5\n", "not seat 3"),
        ("teams: 1 and 2 and 3 and 4\n", "no partnership"),
    ]:
        with pytest.raises(VariantError, match=words):
            load_text(BASE + bad)
    with pytest.raises(VariantError, match="the teams hold 4 seats, but the game is for 3 to 7"):
        load_text(BASE.replace("players: 4", "players: 3 to 7") + "teams: 1 and 3, 2 and 4\n")


def test_counter_checks() -> None:
    ok = load_text(BASE + "counter wins: wins + (if tricks > 2 then 1 else 0)\n")
    assert [c.name for c in ok.scoring.counters] == ["wins"]
    for bad, words in [
        ("counter tricks: 1\n", "already a word of the formulas"),
        ("counter Bags: 1\n", "lower case"),
        ("counter a: a + 1\ncounter a: 2\n", "given twice"),
        ("score: tricks + sets\n", "unknown variable 'sets'"),
    ]:
        with pytest.raises(VariantError, match=words):
            load_text(BASE.replace("score: tricks\n", "") + bad if "score" in bad else BASE + bad)


def test_a_child_replaces_a_counter_and_keeps_the_others() -> None:
    v = load_text("game: y\nextends: spades\ncounter sets: sets + 1\n")
    assert [c.name for c in v.scoring.counters] == ["bags", "sets"]
    g = Game(v, 4, seed=1)
    rng = random.Random(1)
    while g.hand_number < 3:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    assert dict(g.counters)["sets"] == (2, 2, 2, 2)


def test_a_formula_reading_a_counter_the_game_lacks_is_refused() -> None:
    from cardrules.rules import Counter
    from cardrules.scoring import Formula

    v = SPADES.evolve(
        scoring=SPADES.scoring.__class__(
            formula=Formula("bags + 1", counters=("bags",)),
            team_formula=None,
            counters=(Counter("other", Formula("other + 1", counters=("other",))),),
        )
    )
    from cardrules.dsl.validate import validate

    with pytest.raises(VariantError, match="keeps no such counter"):
        validate(v)


def test_a_counter_is_kept_within_its_bound_and_whole() -> None:
    v = load_text(BASE + "counter big: big * 1000 + 999999 + 1/3\n")
    g = Game(v, 4, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    values = dict(g.counters)["big"]
    assert values == (COUNTER_BOUND,) * 4
    assert all(type(x) is int for x in values)


def test_fingerprints_of_games_without_teams_are_unchanged() -> None:
    """New fields at their defaults are left out of the fingerprint."""
    from cardrules.engine.state.compiled_rules import variant_fingerprint

    oh = cardrules.load("oh-hell")
    assert variant_fingerprint(oh) == variant_fingerprint(oh.evolve(teams=()))
    assert variant_fingerprint(SPADES) != variant_fingerprint(SPADES.evolve(teams=()))


def test_team_variables_in_a_seat_formula() -> None:
    """``partner_tricks`` and ``team_tricks`` in a seat's formula; the team's
    points are its partners' summed."""
    v = load_text(
        "game: x\nplayers: 4\nhand size: 13\nhands: 1 hands of the same size\ntrumps: spades\n"
        "bidding: none\nteams: 1 and 3, 2 and 4\nscore: 100 * partner_tricks + team_tricks\n"
    )
    g = Game(v, 4, deck=deal(ALL_SPADES, CLUBS, DIAMONDS, HEARTS), first_dealer=3)
    play_hand(g)
    # seat 1: 0*100 + 13; seat 3: 13*100 + 13; the side scores both.
    assert last_score(g)[4] == (Fraction(1326), 0, Fraction(1326), 0)


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize(("v", "games", "least"), [(SPADES, 12, 11), (WHIST, 60, 48)])
def test_bots_play_legally_and_the_heuristic_side_beats_the_random_one(
    v: Any, games: int, least: int
) -> None:
    """Bots only ever choose legal actions (``play_game`` applies them through the
    engine), and a side of heuristic bots beats a side of random ones."""
    from cardrules.bots import make_bot, play_game

    wins = 0
    for seed in range(games):
        g = Game(v, 4, seed=seed)
        bots = [
            make_bot("heuristic" if s % 2 == 0 else "random", seed=seed * 4 + s) for s in range(4)
        ]
        play_game(g, bots)
        r = g.result
        assert r is not None and r.finished
        wins += set(r.winners) == {0, 2}
    assert wins >= least
