"""Scoring by the cards taken: ``took J♦``, ``took all hearts and Q♠``,
``anyone took ...``, ``points of hearts``, ``cards taken of hearts``.

The formula language reads these questions (bounded, no eval); the engine
answers them from the cards each seat won, only at scoring time; the rules page
says them in words. The regression at the end is the issue's: the natural
Omnibus Hearts file written before these words checked ok and mis-scored every
moon shot.
"""

from __future__ import annotations

import pytest
from catalog_support import play, stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game
from cardrules.cards import SUIT_MASKS, Suit, card
from cardrules.errors import VariantError
from cardrules.rulebook.formula import formula_sentence, formula_short
from cardrules.scoring import CARD_QUESTIONS, Formula, Taken, format_expr

# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("if took J♦ then -10 else 0", "if took J♦ then -10 else 0"),
        ("if took jd then 1 else 0", "if took J♦ then 1 else 0"),
        ("if took all of hearts and Q♠ then 0 else 1", "if took all hearts and Q♠ then 0 else 1"),
        ("if took all Hearts and qs then 0 else 1", "if took all hearts and Q♠ then 0 else 1"),
        ("if took any ♥ then 1 else 0", "if took any hearts then 1 else 0"),
        ("if took all of J♦ then 1 else 0", "if took J♦ then 1 else 0"),
        ("if anyone took all hearts then 26 else 0", "if anyone took all hearts then 26 else 0"),
        ("points of hearts and Q♠", "points of hearts and Q♠"),
        ("2 * cards taken of hearts", "2 * cards taken of hearts"),
        ("points + (if took J♦ and not took Q♠ then 1 else 0)", None),
        ("max(points of hearts, points of spades)", None),
    ],
)
def test_questions_read_and_write_back(text: str, canonical: str | None) -> None:
    f = Formula(text)
    assert f.text == (canonical or text)
    assert Formula(f.text) == f


def test_the_questions_are_nodes_with_their_cards() -> None:
    f = Formula(
        "if took all hearts and Q♠ then points of J♦ "
        "else if anyone took all hearts and Q♠ then 26 + points of J♦ else points"
    )
    qs = f.questions()
    hearts_queen = SUIT_MASKS[Suit.HEARTS] | 1 << int(card("Q♠"))
    assert qs == (
        Taken("took all", ("hearts", "Q♠"), hearts_queen),
        Taken("points of", ("J♦",), 1 << int(card("J♦"))),
        Taken("took all", ("hearts", "Q♠"), hearts_queen, anyone=True),
    )
    assert {q.question for q in qs} <= set(CARD_QUESTIONS)
    assert f.uses() == {"points"}
    assert [format_expr(q) for q in qs] == [
        "took all hearts and Q♠",
        "points of J♦",
        "anyone took all hearts and Q♠",
    ]


def test_a_question_is_answered_from_the_values_given() -> None:
    f = Formula("if took all hearts then 0 else points of hearts + cards taken of spades")
    env = {"took all hearts": False, "points of hearts": 5, "cards taken of spades": 3}
    assert f.evaluate(env) == 8
    assert f.evaluate({**env, "took all hearts": True}) == 0
    with pytest.raises(VariantError, match="uses 'took all hearts'"):
        f.evaluate({"points of hearts": 5, "cards taken of spades": 3})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("if took hearts then 1 else 0", "'took' names one card, but 'hearts' is a group"),
        ("tricks of hearts", "'tricks' cannot be read for a group of cards"),
        ("if took all xyz then 1 else 0", "unexpected name 'xyz'"),
        ("took J♦", "a score must be a number"),
        ("points of 5", "unexpected number 5"),
        ("1 + took J♦", "must be a number, but this is a condition"),
        ("all + 1", "unexpected 'all'"),
    ],
)
def test_bad_questions_are_refused_at_their_place(text: str, message: str) -> None:
    with pytest.raises(VariantError, match=message):
        Formula(text)


def test_group_words_do_not_take_a_name_elsewhere() -> None:
    """Outside the words that take a group, ``hearts`` is a name like any other."""
    with pytest.raises(VariantError, match="unknown variable 'hearts'"):
        Formula("bid + hearts")
    # ``as`` is the ace of spades only after 'took'.
    assert Formula("if took as then 1 else 0").questions()[0].group == ("A♠",)


def test_numbers_of_questions_are_bounded() -> None:
    """``points of`` is bounded like ``points``: a formula that could overflow is refused."""
    Formula("points of hearts * points of spades")
    with pytest.raises(VariantError, match="too large"):
        Formula(" * ".join(["points of hearts"] * 40))


def test_the_words_are_reserved_for_counters() -> None:
    text = "game: t\nextends: hearts\ncounter took: took + 1\nscore: if took J♦ then 1 else 0\n"
    with pytest.raises(VariantError, match="already a word of the formulas"):
        cardrules.load_text(text)


def test_questions_in_words() -> None:
    f = Formula("if took all hearts and Q♠ then 0 else if anyone took Q♠ then 13 else points")
    assert formula_sentence(f) == (
        "If you take all of the hearts and Q♠, you score nothing; otherwise, if someone "
        "takes Q♠, you score 13; otherwise, you score your points."
    )
    g = Formula("points of hearts + 2 * cards taken of spades")
    assert formula_sentence(g) == (
        "You score the points of the hearts you take plus 2 times the number of cards of "
        "the spades you take."
    )
    assert formula_short(g) == "points of hearts + 2 × count of spades"


# --------------------------------------------------------------------------- checks


def test_points_of_needs_card_points() -> None:
    text = "game: t\nextends: spades\nscore: points of hearts\n"
    with pytest.raises(VariantError, match="no card carries points"):
        cardrules.load_text(text)


def test_card_points_read_only_through_points_of_are_not_a_no_op() -> None:
    text = (
        "game: t\nextends: hearts\ncard points: hearts 1, Q♠ 13, J♦ -10\n"
        "score: points of hearts and Q♠ + points of J♦\n"
    )
    v = cardrules.load_text(text)
    assert v.scoring.card_points[int(card("J♦"))] == -10


# --------------------------------------------------------------------------- the engine

#: A deal of hand 4 (no pass) of Hearts, seat 4 dealing: seat 1 wins every
#: trick but the last, which seat 2 takes with A♦ over the J♦; seat 1 takes
#: every heart and Q♠ (the moon without the jack).
MOON_WITHOUT_JACK = (
    "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♦",
    "2♣ A♦ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥",
    "J♦ 2♠ K♥ A♥ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠",
    "3♦ 3♠ K♠ A♠ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ Q♦ K♦",
)
_TRICKS = (
    ("K♣", "2♥", "K♥", "K♠"),
    ("Q♣", "3♥", "A♥", "A♠"),
    ("J♣", "4♥", "4♠", "4♦"),
    ("10♣", "5♥", "5♠", "5♦"),
    ("9♣", "6♥", "6♠", "6♦"),
    ("8♣", "7♥", "7♠", "7♦"),
    ("7♣", "8♥", "8♠", "8♦"),
    ("6♣", "9♥", "9♠", "9♦"),
    ("5♣", "10♥", "10♠", "10♦"),
    ("4♣", "J♥", "J♠", "Q♦"),
    ("3♣", "Q♥", "Q♠", "K♦"),
)


def play_moon_hand(v: cardrules.Variant) -> list[int]:
    """Play the moon hand above (the fourth hand of a game: no pass) and return
    the points each seat scored for it."""
    # Seat 4 deals the fourth hand when seat 1 dealt the first; the first
    # three hands are dealt at random and played by the first legal action.
    g = Game(v, 4, 1, deck=[[], [], [], stack(*MOON_WITHOUT_JACK)], first_dealer=0)
    while g.hand_number < 4:
        if g.phase == "pass":
            s = min(g.waiting_for)
            g.apply(g.legal_actions(s)[0], s)
        else:
            g.apply(g.legal_actions()[0], g.to_act)
    assert g.dealer == 3
    play(g, "2♣", "2♠", "3♠", "A♣")
    for trick in _TRICKS:
        play(g, *trick)
    play(g, "2♦", "A♦", "J♦", "3♦")
    score = [e for e in g.events if e[0] == "score"][-1]
    assert score.hand_number == 4
    return [int(x) for x in score.points]


NATURAL_BEFORE = "game: omnibus-natural\nextends: hearts\ncard points: hearts 1, Q♠ 13, J♦ -10\n"


def test_regression_the_natural_file_without_questions_mis_scores_the_moon() -> None:
    """The issue's report, reproduced: the file a player writes first (Hearts'
    moon formula, the real card values) checks ok, and then scores a moon shot
    as 26 for the shooter. The moon is all the points there are only when no
    card carries minus points; with J♦ at -10 it is not."""
    v = cardrules.load_text(NATURAL_BEFORE)
    assert play_moon_hand(v) == [26, -10, 0, 0]


def test_every_question_answered_by_the_engine() -> None:
    text = (
        NATURAL_BEFORE.replace("omnibus-natural", "asks")
        + "target: 10000 points\n"
        + "score: (if took J♦ then 1000 else 0) + (if took any spades then 100 else 0)"
        " + (if anyone took all hearts then 10 else 0) + cards taken of hearts and Q♠"
        " + points of J♦\n"
    )
    v = cardrules.load_text(text)
    # Seat 1: 13 hearts and Q♠ (14 cards), spades: yes; anyone took all hearts.
    # Seat 2: J♦ (-10 points), no spades. Seats 3 and 4: nothing.
    assert play_moon_hand(v) == [100 + 10 + 14, 1000 + 10 - 10, 10, 10]


def test_took_all_means_all_of_them_that_were_played() -> None:
    """``took all`` asks for the cards of the group played in the hand: in
    Hearts for three, the 2♦ is out of the pack, and taking the other twelve
    diamonds is taking all diamonds."""
    text = (
        "game: t\nextends: hearts-3-to-6\nplayers: 3\nscore: if took all diamonds then 1 else 0\n"
    )
    v = cardrules.load_text(text)
    g = Game(v, 3, seed=7)
    rng_moves = 0
    while not any(e[0] == "score" for e in g.events):
        if g.phase == "pass":
            s = min(g.waiting_for)
            g.apply(g.legal_actions(s)[0], s)
        else:
            g.apply(g.legal_actions()[0], g.to_act)
        rng_moves += 1
    won = [0, 0, 0]
    for e in g.events:
        if e[0] == "trick":
            for c in e.cards:
                won[e.winner] |= 1 << int(c)
    diamonds = SUIT_MASKS[Suit.DIAMONDS] & ~(1 << int(card("2♦")))
    (score,) = [e for e in g.events if e[0] == "score"]
    assert [int(x) for x in score.points] == [int(w & diamonds == diamonds) for w in won]


def test_a_team_formula_asks_for_its_side() -> None:
    """In a ``team score:`` formula the questions are about the side's cards."""
    text = (
        "game: t\nextends: hearts\nteams: 1 and 3, 2 and 4\n"
        "score: 0\nteam score: if took all hearts and Q♠ then 100 else points of hearts\n"
    )
    v = cardrules.load_text(text)
    # Seat 1 takes every heart and Q♠ (and seat 2 the J♦, worth nothing here).
    points = play_moon_hand(v)
    assert points == [100, 0, 100, 0]


def test_games_without_questions_do_no_new_work() -> None:
    from cardrules.engine.state.compiled_rules import _compile

    for name in ("hearts", "spades", "oh-hell"):
        assert _compile(cardrules.load(name)).card_questions == ()
    asks = cardrules.load_text(NATURAL_BEFORE + "score: points of hearts\n")
    assert _compile(asks).card_questions == (
        ("points of hearts", 0, SUIT_MASKS[Suit.HEARTS], False),
    )


# --------------------------------------------------------------------------- property

_ITEMS = ("hearts", "spades", "diamonds", "clubs", "Q♠", "J♦", "A♥", "10♣", "2♦")


def _cards_of_item(item: str) -> set[int]:
    """The cards an item names, read independently of the formula language."""
    suits = {"hearts": "♥", "spades": "♠", "diamonds": "♦", "clubs": "♣"}
    if item in suits:
        return {int(c) for c in cardrules.CardSet.full() if str(c).endswith(suits[item])}
    return {int(card(item))}


@settings(max_examples=150, deadline=None)
@given(
    holder=st.lists(st.integers(0, 4), min_size=52, max_size=52),
    group=st.lists(st.sampled_from(_ITEMS), min_size=1, max_size=3, unique=True),
)
def test_the_answers_agree_with_an_independent_reading(holder: list[int], group: list[str]) -> None:
    """Each card is taken by one of four seats, or not played (4); every
    question about a random group is answered as the words say: read here from
    sets of cards, not from the engine's masks."""
    from cardrules.engine.state.compiled_rules import _compile

    words = " and ".join(group)
    text = (
        NATURAL_BEFORE.replace("omnibus-natural", "prop")
        + f"score: (if took all {words} then 1 else 0) + (if took any {words} then 2 else 0)"
        f" + (if anyone took all {words} then 4 else 0) + points of {words}"
        f" + 100 * cards taken of {words}\n"
    )
    rules = _compile(cardrules.load_text(text))
    won = [sum(1 << c for c in range(52) if holder[c] == s) for s in range(4)]
    cards = set().union(*map(_cards_of_item, group))
    played = {c for c in range(52) if holder[c] < 4}
    values = {int(card("Q♠")): 13, int(card("J♦")): -10}
    values.update({c: 1 for c in _cards_of_item("hearts")})
    for s in range(4):
        answers = dict(rules.card_answers(won[s], won))
        mine = {c for c in range(52) if holder[c] == s}
        wanted = cards & played

        def took_all(taken: set[int], wanted: set[int] = wanted) -> bool:
            return bool(wanted) and wanted <= taken

        seats = [{c for c in range(52) if holder[c] == k} for k in range(4)]
        # A group of one card asks the same question both ways: ``took J♦``.
        one = len(cards) == 1
        assert answers[f"took {words}" if one else f"took all {words}"] is took_all(mine)
        assert answers[f"took {words}" if one else f"took any {words}"] is bool(mine & cards)
        anyone = f"anyone took {words}" if one else f"anyone took all {words}"
        assert answers[anyone] is any(took_all(t) for t in seats)
        assert answers[f"points of {words}"] == sum(values.get(c, 0) for c in mine & cards)
        assert answers[f"cards taken of {words}"] == len(mine & cards)
