"""Card points and games that end at a target total (issue 12, items 2 and 6).

Golden games on stacked deals (``catalog_support.stack``: the dealer's neighbour
gets the first card), the validator's refusals, the rules page's words, and
Hypothesis properties: the points of a hand add up to the pack's points, the
target end never lets a game go on past a total that reached it, and
``parse(format(v)) == v`` for random card-point tables.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from catalog_support import play, stack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.dsl import format, load_text, parse
from cardrules.engine import Game
from cardrules.errors import VariantError
from cardrules.rulebook import rulebook
from cardrules.scoring import VARIABLE_BOUNDS, parse_formula, score_env

BASE = """\
game: points-test
players: 4
hand size: 2
hands: {hands} hands of the same size
trumps: none
bidding: none
card points: {points}
score: {score}
winner: {winner}
tie: shared
"""

MOON = "if points = all_points then 0 else if most_points = all_points then all_points else points"

#: Seat 0 (the dealer's neighbour, dealer seat 3) leads A♥; seat 1, void, throws
#: Q♠; seat 0 takes A♥ K♥ 5♥ Q♠. Seat 3 takes the clubs trick (6♣ high).
DEAL_ONE_TAKES_ALL = stack("AH 2C", "QS 3C", "KH 4C", "5H 6C")
TRICKS_ONE_TAKES_ALL = ("AH", "QS", "KH", "5H", "2C", "3C", "4C", "6C")

#: The same first trick; then seat 0 leads 2♣, seat 1 (void in clubs) throws J♦
#: and seat 3 takes the trick with 6♣.
DEAL_SPLIT = stack("AH 2C", "QS JD", "KH 4C", "5H 6C")


def variant(
    *,
    points: str = "hearts 1, Q♠ 13",
    score: str = "points",
    hands: int = 1,
    winner: str = "lowest total",
    extra: str = "",
) -> object:
    text = BASE.format(points=points, score=score, hands=hands, winner=winner) + extra
    return load_text(text)


def one_hand(v: object, deck: list[object], moves: tuple[str, ...]) -> Game:
    g = Game(v, 4, seed=1, deck=deck, first_dealer=3)  # type: ignore[arg-type]
    play(g, *moves)
    return g


def last_score(g: Game) -> tuple[list[Fraction], tuple[Fraction, ...]]:
    (event,) = [e for e in g.events if e[0] == "score"][-1:]
    return list(event[4]), tuple(event[5])


# --------------------------------------------------------------------------- golden


def test_points_are_counted_per_player_from_the_cards_won() -> None:
    g = one_hand(variant(), DEAL_ONE_TAKES_ALL, TRICKS_ONE_TAKES_ALL)
    points, _ = last_score(g)
    # A♥ K♥ 5♥ (1 each) and Q♠ (13) to seat 0; the clubs trick is worth nothing.
    assert points == [16, 0, 0, 0]
    assert g.is_over


def test_a_card_named_on_its_own_overrides_its_suit() -> None:
    v = variant(points="hearts 1, K♥ 5, Q♠ 13")
    g = one_hand(v, DEAL_ONE_TAKES_ALL, TRICKS_ONE_TAKES_ALL)
    assert last_score(g)[0] == [1 + 5 + 1 + 13, 0, 0, 0]


def test_negative_card_points() -> None:
    """J♦ is worth -10: seat 1 throws it on the clubs trick, which seat 3 wins."""
    v = variant(points="hearts 1, Q♠ 13, J♦ -10", score="points")
    g = one_hand(v, DEAL_SPLIT, ("AH", "QS", "KH", "5H", "2C", "JD", "4C", "6C"))
    assert last_score(g)[0] == [16, 0, 0, -10]


def test_shooting_the_moon_in_one_line() -> None:
    """One player takes every point of the hand: 0 for it, the hand's points for
    everyone else."""
    g = one_hand(variant(score=MOON), DEAL_ONE_TAKES_ALL, TRICKS_ONE_TAKES_ALL)
    assert last_score(g)[0] == [0, 16, 16, 16]


def test_no_moon_when_the_points_are_split() -> None:
    v = variant(points="hearts 1, Q♠ 13, 6♣ 2", score=MOON)
    g = one_hand(v, DEAL_ONE_TAKES_ALL, TRICKS_ONE_TAKES_ALL)
    # Seat 3 took 6♣ (2 points): nobody took all 18, so each scores its own.
    assert last_score(g)[0] == [16, 0, 0, 2]


def test_most_points_and_all_points_reach_the_formula() -> None:
    v = variant(points="hearts 1, Q♠ 13, 6♣ 2", score="all_points * 100 + most_points")
    g = one_hand(v, DEAL_ONE_TAKES_ALL, TRICKS_ONE_TAKES_ALL)
    assert last_score(g)[0] == [18 * 100 + 16] * 4


def test_the_game_ends_when_a_total_reaches_the_target() -> None:
    """The same deal every hand: the deal passes on, so the holder of A♥ (who takes
    16 points) is seat 0, then seat 1. Scored ``points * hand``, seat 1 reaches the
    target of 30 after hand 2 of 5 (32 points), and the game ends there."""
    v = variant(score="points * hand", hands=5, extra="target: 30 points\n")
    g = Game(v, 4, seed=1, deck=DEAL_ONE_TAKES_ALL, first_dealer=3)  # type: ignore[arg-type]
    play(g, *TRICKS_ONE_TAKES_ALL)
    assert not g.is_over and g.scores == (16, 0, 0, 0)
    play(g, *TRICKS_ONE_TAKES_ALL)
    assert [e[0] for e in g.events].count("score") == 2
    result = g.result
    assert g.is_over and result is not None and result.finished
    assert result.totals == (16, 32, 0, 0)
    # The lowest total wins: seats 2 and 3, who share it (`tie: shared`).
    assert result.winners == (2, 3) and result.shared


def test_highest_total_wins_at_the_target() -> None:
    v = variant(score="points * hand", hands=5, winner="highest total", extra="target: 30\n")
    g = Game(v, 4, seed=1, deck=DEAL_ONE_TAKES_ALL, first_dealer=3)  # type: ignore[arg-type]
    play(g, *TRICKS_ONE_TAKES_ALL, *TRICKS_ONE_TAKES_ALL)
    result = g.result
    assert result is not None and result.finished
    assert result.totals == (16, 32, 0, 0)
    assert result.winners == (1,) and not result.shared


def test_a_tie_at_the_target_is_settled_by_the_tie_rule() -> None:
    """Everyone scores the hand's 16 points, so all four reach the target of 16
    together after hand 1: `tie: extra hands, at most 2` plays two extra hands,
    then shares the win."""
    text = BASE.format(
        points="hearts 1, Q♠ 13", score="all_points", hands=3, winner="highest total"
    )
    v = load_text(text.replace("tie: shared", "tie: extra hands, at most 2") + "target: 16\n")
    g = Game(v, 4, seed=1, deck=DEAL_ONE_TAKES_ALL, first_dealer=3)
    play(g, *TRICKS_ONE_TAKES_ALL)
    assert not g.is_over and g.extra_hands == 1
    play(g, *TRICKS_ONE_TAKES_ALL, *TRICKS_ONE_TAKES_ALL)
    result = g.result
    assert g.is_over and result is not None and result.finished
    assert result.totals == (48, 48, 48, 48)
    assert result.winners == (0, 1, 2, 3) and result.shared


def test_a_target_not_reached_plays_the_whole_schedule() -> None:
    v = variant(hands=3, extra="target: 1000 points\n")
    g = Game(v, 4, seed=5)
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    assert [e[0] for e in g.events].count("score") == 3
    assert g.result is not None and g.result.finished


# --------------------------------------------------------------------------- validation


def _error(text: str) -> VariantError:
    with pytest.raises(VariantError) as info:
        load_text(text)
    return info.value


def test_a_formula_using_points_needs_card_points() -> None:
    text = BASE.format(points="hearts 1", score="points", hands=1, winner="lowest total")
    text = text.replace("card points: hearts 1\n", "")
    err = _error(text)
    assert "no card carries points" in err.message
    assert err.line == text.split("\n").index("score: points") + 1


def test_card_points_unused_by_the_score_are_a_no_op() -> None:
    text = BASE.format(points="hearts 1", score="tricks", hands=1, winner="lowest total")
    err = _error(text)
    assert "card points change nothing" in err.message
    assert err.line == text.split("\n").index("card points: hearts 1") + 1


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ("hearts 101", "cannot be the points of a card"),
        ("hearts -101", "cannot be the points of a card"),
        ("hearts 1/2", "cannot be the points of a card"),
        ("hearts 1.5", "cannot be the points of a card"),
        ("hearts 1, hearts 2", "given points twice"),
        ("Q♠ 1, QS 2", "given points twice"),
        ("hearts 0", "give no card any points"),
    ],
)
def test_bad_card_points_are_refused(points: str, words: str) -> None:
    err = _error(BASE.format(points=points, score="points", hands=1, winner="lowest total"))
    assert words in err.message
    assert err.line == 7


def test_card_points_on_cards_out_of_the_pack_are_a_no_op() -> None:
    text = BASE.format(points="Q♠ 13", score="points", hands=1, winner="lowest total")
    err = _error(text + "deck: standard 52 without Q♠\n")
    assert "no card of the pack carries points" in err.message


def test_a_target_in_a_game_of_one_hand_is_a_no_op() -> None:
    err = _error(variant_text(hands=1) + "target: 50 points\n")
    assert "`target` has no effect in a game of one hand" in err.message


def test_a_target_and_card_points_in_a_shedding_game_are_no_ops() -> None:
    shed = "game: shed\nmode: shedding\nplayers: 4\nhands: whole pack\ntrumps: none\n"
    assert "`target` has no effect" in _error(shed + "target: 5\n").message
    assert "`card points` has no effect" in _error(shed + "card points: hearts 1\n").message


def test_target_bounds() -> None:
    assert "too small" in _error(variant_text(hands=3) + "target: 0\n").message
    assert "too large" in _error(variant_text(hands=3) + "target: 10001\n").message


def variant_text(hands: int) -> str:
    return BASE.format(points="hearts 1", score="points", hands=hands, winner="lowest total")


# --------------------------------------------------------------------------- words


def test_the_page_says_what_the_points_are_and_when_the_game_ends() -> None:
    v = variant(points="hearts 1, Q♠ 13, J♦ -10", score=MOON, hands=5, extra="target: 100\n")
    page = rulebook(v)  # type: ignore[arg-type]
    assert "Q♠ 13 points; each of the hearts 1 point; J♦ minus 10 points" in page
    assert "every other card is worth nothing" in page
    assert "anyone's total is 100 points or more. Then the lowest total wins." in page
    assert "### Scoring table" not in page  # the score is not a count of tricks


def test_a_page_without_card_points_or_target_says_neither() -> None:
    v = load_text(BASE.format(points="hearts 1", score="points", hands=3, winner="lowest total"))
    page = rulebook(v.evolve(scoring=v.scoring.__class__(parse_formula("tricks"), False)))
    assert "carry points" not in page
    assert "sooner" not in page


# --------------------------------------------------------------------------- formulas


def test_the_point_variables_have_sound_bounds() -> None:
    for name in ("points", "all_points", "most_points"):
        assert VARIABLE_BOUNDS[name] == 52 * 100
    env = score_env(bid=0, tricks=0, cards=1, hand=1, players=4, points=3, all_points=26)
    assert parse_formula("all_points - points").evaluate(env) == 23


# --------------------------------------------------------------------------- properties

POINTS_TABLE = st.lists(st.integers(-100, 100), min_size=52, max_size=52).filter(any)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(POINTS_TABLE)
def test_format_then_parse_gives_the_same_table(values: list[int]) -> None:
    v = load_text(variant_text(hands=2))
    v = v.evolve(scoring=v.scoring.__class__(v.scoring.formula, False, tuple(values)))
    again = parse(format(v))
    assert again == v
    assert again.scoring.card_points == tuple(values)


WHOLE_PACK = """\
game: whole-pack-points
players: 4
hands: whole pack, 3 times
trumps: none
bidding: none
card points: hearts 1
score: points
winner: {winner}
tie: shared
{target}
"""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-5, 13), min_size=52, max_size=52).filter(any), st.integers(0, 999))
def test_the_points_of_a_hand_add_up_to_the_packs(values: list[int], seed: int) -> None:
    v = load_text(WHOLE_PACK.format(winner="highest total", target=""))
    v = v.evolve(scoring=v.scoring.__class__(v.scoring.formula, True, tuple(values)))
    g = Game(v, 4, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    scores = [e for e in g.events if e[0] == "score"]
    assert len(scores) == 3
    for e in scores:
        assert sum(e[4]) == sum(values)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(0, 13), min_size=52, max_size=52).filter(any),
    st.integers(1, 60),
    st.booleans(),
    st.integers(0, 999),
)
def test_the_game_never_goes_on_past_the_target(
    values: list[int], target: int, higher: bool, seed: int
) -> None:
    winner = "highest total" if higher else "lowest total"
    v = load_text(WHOLE_PACK.format(winner=winner, target=f"target: {target} points"))
    v = v.evolve(scoring=v.scoring.__class__(v.scoring.formula, higher, tuple(values)))
    g = Game(v, 4, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    totals = [e[5] for e in g.events if e[0] == "score"]
    # Every hand but the last left every total below the target.
    assert all(max(t) < target for t in totals[:-1])
    if len(totals) < 3:
        assert max(totals[-1]) >= target
    result = g.result
    assert result is not None and result.finished
    best = max(result.totals) if higher else min(result.totals)
    assert set(result.winners) == {s for s in range(4) if result.totals[s] == best}


# --------------------------------------------------------------------------- saves


def test_fingerprints_of_games_without_the_new_settings_are_unchanged() -> None:
    """Saves carry the variant's fingerprint: a game with no card points and no
    target keeps the fingerprint it had before these settings existed (the
    built-ins' are in tests/golden/fingerprints.json), and either setting changes it."""
    import cardrules
    from cardrules.engine import variant_fingerprint

    v = cardrules.load("oh-hell")
    with_target = v.evolve(winning=v.winning.__class__(target=100))
    with_points = v.evolve(scoring=v.scoring.__class__(v.scoring.formula, True, (1,) * 52))
    assert len({variant_fingerprint(x) for x in (v, with_target, with_points)}) == 3


def test_the_goal_claims_nothing_of_exact_bids_when_the_cards_count_too() -> None:
    """With a score of the bid and the card points, taking exactly the tricks bid
    is not always best (a hand with -10 points), so the page does not claim it."""
    from cardrules.rulebook.words import exact_is_best, goal_phrase

    text = (
        "game: bid-and-points\nplayers: 4\nhand size: 2\nhands: 2 hands of the same size\n"
        "trumps: none\nbidding: in turn\nhook: no\ncard points: J♦ -10\n"
        "score: (if exact then 10 + bid else 0) + points\nwinner: highest total\n"
    )
    v = load_text(text)
    assert not exact_is_best(v)
    assert "exactly" not in goal_phrase(v)
