"""Scoring in the game's own words (issue 25, item 1): the ``case`` line.

A file names the cases of its score (``case "shot the moon": points =
all_points; "..."``); the rules page explains the score as a table of them with
the formula folded underneath, and the terminal's recap and
``View.last_hand.cases`` name the cases each hand fell in. The cases are
presentation only: no fingerprint changes, no event changes.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.commands.play import _Session
from cardrules.dsl import builtin_names, load_text
from cardrules.engine import Game
from cardrules.engine.phases import case_names
from cardrules.engine.state.compiled_rules import variant_fingerprint
from cardrules.engine.views.view import View
from cardrules.errors import VariantError
from cardrules.rulebook import rulebook
from cardrules.rulebook.cases import case_score, example_words
from cardrules.rulebook.page import _scoring_section
from cardrules.rulebook.words import scoring_phrase
from cardrules.score_cases import name_hand

LABELLED = [n for n in builtin_names() if cardrules.load(n).cases]
#: Words of the literal formula, as the rules page writes it: none may appear
#: outside the fold on a page that explains its score by cases.
FORMULA_WORDS = (
    "the points everyone takes in the hand",
    "the largest of",
    "rounded down",
    "divided by",
    "times your bid",
    "if you bid zero",
    "the tricks taken by the player (or side) who made trumps",
    "kept between",
)
#: The terms each classic game's page must explain its score in.
TERMS = {
    "hearts": ("shot the moon", "moon against you"),
    "spades": ("nil made", "nil failed", "blind nil", "bags", "set", "made"),
    "euchre": ("euchred", "march", "alone", "made it"),
    "whist": ("book",),
}


def _split_fold(lines: list[str]) -> tuple[str, str]:
    """The scoring section's text outside the folded formula, and inside it."""
    start = lines.index('??? note cr-formula "The formula"')
    inside: list[str] = []
    k = start + 1
    while k < len(lines) and (not lines[k] or lines[k].startswith("    ")):
        inside.append(lines[k])
        k += 1
    return "\n".join(lines[:start] + lines[k:]), "\n".join(inside)


def test_the_classic_games_name_their_cases() -> None:
    assert set(TERMS) <= set(LABELLED)


@pytest.mark.parametrize("name", sorted(TERMS))
def test_the_page_explains_scoring_in_the_games_terms(name: str) -> None:
    v = cardrules.load(name)
    lines = _scoring_section(v, [4])
    outside, inside = _split_fold(lines)
    for term in TERMS[name]:
        assert term in outside, term
    assert "| Case | What it means | For example |" in outside
    # The formula is there for those who want it, folded; nowhere else.
    assert scoring_phrase(v).split(":")[0] in inside
    for words in FORMULA_WORDS:
        assert words not in outside, words
    # No engine bound presented as a rule, anywhere on the page.
    page = rulebook(v)
    assert "1,000,000" not in page
    assert '??? note cr-formula "The formula"' in page


def test_worked_numbers_are_the_formulas() -> None:
    """Each case's worked number is its example's score by the file's formulas
    (golden values, checked by hand against Pagat's rules)."""
    expected = {
        ("spades", "nil made"): 141,  # 100 for the nil, 41 for the partner's 4 made with 5
        ("spades", "nil failed"): -59,
        ("spades", "blind nil made"): 240,
        ("spades", "made"): 52,  # bid 5, took 7: 50 and 2 bags
        ("spades", "set"): -60,
        ("spades", "ten bags"): -47,  # 53, less 100 for the tenth bag
        ("hearts", "shot the moon"): 0,
        ("hearts", "moon against you"): 26,
        ("hearts", "took points"): 5,
        ("euchre", "march"): 2,
        ("euchre", "alone march"): 4,
        ("euchre", "euchred"): 0,
        ("euchre", "euchred them"): 2,
        ("whist", "tricks over the book"): 3,
    }
    for (name, label), points in expected.items():
        v = cardrules.load(name)
        (case,) = [c for c in v.cases if c.label == label]
        assert case_score(v, case, 4) == points, (name, label)


@pytest.mark.parametrize("name", LABELLED)
def test_cases_keep_the_fingerprint_and_the_file_round_trips(name: str) -> None:
    v = cardrules.load(name)
    assert variant_fingerprint(v) == variant_fingerprint(v.evolve(cases=()))
    assert load_text(cardrules.format(v), path="x.cardrules") == v


def _random_hands(g: Game, rng: random.Random, hands: int) -> None:
    """Play random legal actions until ``hands`` hands are scored (or the end)."""
    while not g.is_over and sum(1 for ev in g.events if ev[0] == "score") < hands:
        g.apply_as_current(rng.choice(g.legal_actions()))


@st.composite
def _games(draw: Any) -> tuple[str, int, int]:
    name = draw(st.sampled_from(LABELLED))
    v = cardrules.load(name)
    players = draw(st.integers(v.players.min, v.players.max))
    return name, players, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=12, deadline=None)
@given(_games())
def test_the_named_cases_agree_with_the_engines_scores(game: tuple[str, int, int]) -> None:
    """For random hands of every built-in that names cases: the variables the
    cases were named from give, by the file's formulas, the score the engine
    gave; every seat's hand is named by at least one case; and the view and
    ``Game.hand_cases`` say the same words."""
    name, players, seed = game
    v = cardrules.load(name)
    g = Game(v, players=players, seed=seed)
    seen: list[list[case_names.SeatEnvs]] = []
    won: list[list[int]] = []  # the cards each seat took, hand by hand
    real = case_names._hand_envs

    def spy(*args: Any) -> list[case_names.SeatEnvs]:
        envs = real(*args)
        seen.append(envs)
        won.append(list(args[2]))
        return envs

    case_names._hand_envs = spy  # type: ignore[assignment]
    try:
        _random_hands(g, random.Random(seed), 3)
    finally:
        case_names._hand_envs = real  # type: ignore[assignment]
    scores = [ev for ev in g.events if ev[0] == "score"]
    assert len(seen) == len(scores)
    sides = v.teams or tuple((s,) for s in range(players))
    team_scoring = bool(v.teams) or v.scoring.team_formula is not None or bool(v.scoring.counters)
    counters = tuple(c.name for c in v.scoring.counters)
    r = g._rules
    asked = r.case_questions or r.card_questions
    for envs, cards, ev in zip(seen, won, scores, strict=True):
        named = g.hand_cases(ev[1])

        def answers(mine: int, each: list[int] = cards) -> dict[str, Any]:
            # The questions about the cards taken, answered as the engine does.
            return dict(r.card_answers(mine, each, asked)) if asked else {}

        teams_cards = [sum(cards[p] for p in side) for side in sides]
        for k, side in enumerate(sides):
            for s in side:
                own, team = envs[s]
                own = {**own, **answers(cards[s])}
                points = Fraction(0)
                f = v.scoring.formula
                for partner in side:
                    if f is not None:
                        points += f.evaluate({**envs[partner][0], **answers(cards[partner])})
                    elif not team_scoring:
                        points += 10 + own["bid"] if own["exact"] else 0
                if v.scoring.team_formula is not None:
                    team = {**team, **answers(teams_cards[k], teams_cards)}
                    points += v.scoring.team_formula.evaluate(team)
                assert points == ev[4][s], (name, ev, s)
                assert named[s] == name_hand(v.cases, own, counters)
                assert named[s], f"{name}: seat {s + 1}'s hand {ev[1]} fell in no case"
    if scores and not g.is_over:
        last = g.view(0).last_hand
        if last is not None:
            assert last.cases == g.hand_cases(last.hand_number)
            back = View.from_dict(json.loads(g.view(0).to_json()))
            assert back.last_hand == last


def test_a_game_without_cases_keeps_its_view() -> None:
    # Blackout with its cases left out (every built-in may come to name its cases).
    v = cardrules.load("blackout").evolve(cases=())
    assert not v.cases
    g = Game(v, players=4, seed=3)
    _random_hands(g, random.Random(3), 1)
    last = g.view(0).last_hand
    assert last is not None and last.cases == ()
    assert "cases" not in last.to_dict()
    assert g.hand_cases(1) == ()


def _spades_hand(seed: int = 5) -> Game:
    g = Game(cardrules.load("spades"), players=4, seed=seed)
    _random_hands(g, random.Random(seed), 1)
    return g


def test_the_recap_names_each_sides_case() -> None:
    g = _spades_hand()
    session = _Session(g, [0], "heuristic", out=io.StringIO(), save_path=None, meta={})
    ev = next(ev for ev in g.events if ev[0] == "score")
    recap = session.recap(g.events, ev)
    cases = g.hand_cases(1)
    assert recap.startswith("Hand 1 over: you and Bot 3 ")
    for words in cases:
        for w in words:
            assert w in recap
    assert "Bot 2 and Bot 4 " in recap
    assert "counters:" not in recap


def test_the_recap_words_follow_the_hand() -> None:
    """Golden: a Spades side that bid 5 and took 7, with a failed nil."""
    v = cardrules.load("spades")
    env = {
        "bid": 0,
        "tricks": 1,
        "blind": False,
        "team_bid": 5,
        "team_tricks": 7,
        "bags": 0,
    }
    words = name_hand(v.cases, env, ("bags",))
    assert words == ("nil failed", "made 7 on 5", "2 bags")
    env |= {"bid": 3, "tricks": 3, "team_tricks": 6}
    assert name_hand(v.cases, env, ("bags",)) == ("made 6 on 5", "1 bag")


def _error(line: str) -> VariantError:
    base = "game: x\nextends: spades\n"
    with pytest.raises(VariantError) as err:
        load_text(base + line + "\n", path="x.cardrules")
    return err.value


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('case "made": team_tricks >= team_bid', "a case says its condition, then what it means"),
        ('case "made": team_tricks >= ; "x"', "unexpected"),
        ('case "made": tricks; "x"', "must be a condition"),
        ('case "made": tricks > bid; x', "the explanation must be quoted"),
        ('case "made": tricks > bid; ""', "the explanation is empty"),
        ('case "": tricks > bid; "x"', "a case's name is a few words"),
        (f'case "{"m" * 41}": tricks > bid; "x"', "a case's name is a few words"),
        ('case "made": tricks > bid; "x"; for example bod 3', "'bod' is not a value"),
        ('case "made": tricks > bid; "x"; for example blind 3', "blind is yes or no"),
        ('case "made": tricks > bid; "x"; for example bid 3, tricks 2', "not a hand of the case"),
        ('case "made": tricks > bid; "x"; shown "{trix}"', "not a number"),
        ('case "made": tricks > bid; "x"; shown "{tricks"', "not closed"),
        ('case "made": tricks > bid; "x"; later', "cannot read 'later'"),
        ('case "made": took Q♠; "x"; for example took Q♠ 3', "took Q♠ is yes or no"),
        ('case "made": took Q♠; "x"; for example took X9 yes', "not a value an example may give"),
        ('case "a": tricks > bid; "x"\ncase "a": tricks < bid; "y"', "named twice"),
    ],
)
def test_a_bad_case_is_refused_with_a_stable_code(line: str, message: str) -> None:
    err = _error(line)
    assert message in str(err), str(err)
    assert err.code == "bad_score_case"
    assert f"x.cardrules:{3 + line.count(chr(10))}:" in str(err)


def test_too_many_cases_are_refused() -> None:
    lines = "".join(f'case "c{k}": tricks >= 0; "x"\n' for k in range(25))
    with pytest.raises(VariantError) as err:
        load_text("game: x\nextends: spades\n" + lines, path="x.cardrules")
    assert err.value.code == "bad_score_case"
    assert "more than 24 cases" in str(err.value)


def test_a_file_that_extends_replaces_or_keeps_the_cases() -> None:
    kept = load_text("game: x\nextends: spades\ntarget: 300 points\n", path="x.cardrules")
    assert kept.cases == cardrules.load("spades").cases
    # A score of its own: the cases named another score's hands.
    rescored = load_text("game: x\nextends: spades\nscore: 0\n", path="x.cardrules")
    assert rescored.cases == ()
    # Cards that carry other points: Hearts' cases named other hands.
    jack = load_text(
        "game: x\nextends: hearts\ncard points: hearts 1, Q♠ 13, J♦ -10\n", path="x.cardrules"
    )
    assert jack.cases == ()
    # Omnibus Hearts names its own, the jack of diamonds among them.
    assert [c.label for c in cardrules.load("omnibus-hearts").cases] == [
        "took points",
        "jack of diamonds",
        "shot the moon",
        "moon against you",
    ]
    # An option that changes the score: the file's cases no longer name its hands.
    flat = cardrules.load("kachuful", score="if exact then 10 else -10")
    assert flat.cases == ()
    assert cardrules.load("kachuful", hook=False).cases == cardrules.load("kachuful").cases
    own = load_text(
        'game: x\nextends: spades\ncase "made": team_tricks >= team_bid; "x"\n', path="x.cardrules"
    )
    assert [c.label for c in own.cases] == ["made"]


def _cases_in(text: str) -> Iterator[str]:
    return (m.group(1) for m in re.finditer(r'^case "([^"]+)"', text, re.M))


@pytest.mark.parametrize("name", sorted(TERMS))
def test_built_in_cases_cite_their_source(name: str) -> None:
    v = cardrules.load(name)
    assert "pagat.com" in v.source
    assert list(_cases_in(v.source)) == [c.label for c in v.cases]


_PIECES = st.sampled_from(
    [
        "tricks",
        " >= ",
        "bid",
        "; ",
        '"x"',
        'shown "{',
        "}",
        "(s)",
        "for example ",
        "bid 3",
        ", ",
        "yes",
        "bags",
        "{tricks - bid}",
        '"',
        "\\",
        "if",
        " and ",
        "not ",
        "99999999",
        "took Q♠",
        ";",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_PIECES, max_size=12))
def test_any_case_line_loads_or_is_refused_with_a_code(pieces: list[str]) -> None:
    """Untrusted text after `case "x":` never crashes: the file loads, or is
    refused with a stable code."""
    line = 'case "x": ' + "".join(pieces)
    try:
        v = load_text("game: x\nextends: spades\n" + line + "\n", path="x.cardrules")
    except VariantError as err:
        assert err.code in ("bad_score_case", "syntax", "bad_variant"), (err.code, line)
        return
    g = Game(v, players=4, seed=1)
    _random_hands(g, random.Random(1), 1)
    for words in g.hand_cases(1):
        assert all(isinstance(w, str) for w in words)


def test_five_hundred_names_its_contracts_the_slam_and_misere() -> None:
    """Five Hundred's cases read the contract (level, strain, misère): each
    worked number is the Avondale table's, in a declarer's words (no sides)."""
    v = cardrules.load("five-hundred")
    by_label = {c.label: c for c in v.cases}
    expected = {
        "contract made": 180,  # 7 diamonds
        "slam": 250,  # 6 spades is 40, a slam at least 250
        "set": -260,  # 8 clubs
        "misère made": 250,
        "open misère lost": -500,
        "defenders' tricks": 30,
        "against misère": 0,
    }
    for label, points in expected.items():
        assert case_score(v, by_label[label], 3) == points, label
    page = rulebook(v)
    assert "a contract of 7, in diamonds; you score 180" in page
    assert "you are the declarer, an open misère, the declarer took 2 tricks" in page
    assert "your side" not in page.split("| Case |")[1].split("\n\n")[0]


def test_a_case_asks_about_the_cards_taken() -> None:
    """Omnibus Hearts names the jack of diamonds: exactly one seat's hand falls
    in it each hand (the whole pack is dealt, so someone takes the jack), and
    the moon with the jack scores as its case says."""
    v = cardrules.load("omnibus-hearts")
    g = Game(v, players=4, seed=11)
    _random_hands(g, random.Random(11), 6)
    hands = [ev[1] for ev in g.events if ev[0] == "score"]
    assert hands
    for hand in hands:
        named = g.hand_cases(hand)
        assert sum("took J♦, -10" in words for words in named) == 1, named
    by_label = {c.label: c for c in v.cases}
    assert case_score(v, by_label["jack of diamonds"], 4) == -7
    assert case_score(v, by_label["shot the moon"], 4) == 0
    assert case_score(v, by_label["moon against you"], 4) == 26


def test_an_example_answers_a_question_in_words() -> None:
    text = (
        "game: x\nextends: hearts\n"
        'case "moon": took all hearts and Q♠; "x"; for example took all hearts and Q♠ yes\n'
        'case "no moon": not anyone took all hearts and Q♠; "y"; '
        "for example anyone took all hearts and Q♠ no, points of hearts 3\n"
    )
    v = load_text(text, path="x.cardrules")
    moon, other = v.cases
    assert moon.example == (("took all hearts and Q♠", True),)
    assert example_words(moon) == "took all hearts and Q♠"
    assert example_words(other) == "nobody took all hearts and Q♠, points of hearts: 3"
