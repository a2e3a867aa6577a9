"""Tests for cardrules.scoring: the score formula language."""

from __future__ import annotations

import importlib.util
import logging
import pickle
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark

from cardrules.errors import VariantError
from cardrules.scoring import (
    FUNCTIONS,
    MAX_DEPTH,
    MAX_FORMULA_LENGTH,
    VARIABLE_KINDS,
    VARIABLES,
    And,
    Call,
    Compare,
    Expr,
    Formula,
    If,
    Neg,
    Not,
    Num,
    Or,
    Product,
    Sum,
    Var,
    format_expr,
    format_formula,
    parse_formula,
    score_env,
)


def score(
    text: str,
    bid: int,
    tricks: int,
    *,
    cards: int = 7,
    hand: int = 1,
    players: int = 4,
    blind: bool = False,
) -> Fraction:
    env = score_env(bid=bid, tricks=tricks, cards=cards, hand=hand, players=players, blind=blind)
    return parse_formula(text).evaluate(env)


# --------------------------------------------------------------------------- scoring tables

KACHUFUL = "if exact then 10 + bid else 0"


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(0, 0, 10), (2, 2, 12), (3, 4, 0), (1, 0, 0)],
)
def test_kachuful_ten_plus_bid_or_nothing(bid: int, tricks: int, points: int) -> None:
    """The scoring table of the Kachuful rules, seed file ``000_05789f49e1c2534d.txt``."""
    assert score(KACHUFUL, bid, tricks) == points


def test_kachuful_sample_round() -> None:
    """The worked round of ``000_05789f49e1c2534d.txt``: Nisha 1/1, Dev 2/1, Rohan 0/0, Tara 0/2."""
    results = [score(KACHUFUL, b, t, cards=4) for b, t in [(1, 1), (2, 1), (0, 0), (0, 2)]]
    assert results == [11, 0, 10, 0]


OH_HELL_COMMON = "tricks + (if exact then 10 else 0)"


def test_oh_hell_common_scoring_worked_hand() -> None:
    """Bids 3, 0, 1 and tricks 3, 1, 1 score 13, 1, 11 (seed ``002_d103a11c6570c2d3.txt``)."""
    results = [score(OH_HELL_COMMON, b, t) for b, t in [(3, 3), (0, 1), (1, 1)]]
    assert results == [13, 1, 11]


def test_oh_hell_common_scoring_bid_two() -> None:
    """Bid 2 and take 2 for 12 points, bid 2 and take 3 for 3 (``002_d103a11c6570c2d3.txt``)."""
    assert score(OH_HELL_COMMON, 2, 2) == 12
    assert score(OH_HELL_COMMON, 2, 3) == 3


@pytest.mark.parametrize(
    ("bid", "tricks", "cards", "five", "five_plus_cards"),
    [(0, 0, 7, 5, 12), (0, 0, 3, 5, 8), (2, 2, 7, 12, 12), (0, 1, 7, 0, 0), (3, 2, 7, 0, 0)],
)
def test_made_zero_worth_five_or_five_plus_cards(
    bid: int, tricks: int, cards: int, five: int, five_plus_cards: int
) -> None:
    """A made zero scores 5, or 5 plus the cards dealt: 12 on a 7-card hand (seed 002)."""
    assert (
        score("if exact then (if bid = 0 then 5 else 10 + bid) else 0", bid, tricks, cards=cards)
        == five
    )
    assert (
        score(
            "if exact then (if bid = 0 then 5 + cards else 10 + bid) else 0",
            bid,
            tricks,
            cards=cards,
        )
        == five_plus_cards
    )


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(3, 3, 30), (1, 1, 10), (0, 0, 10), (2, 4, -20), (3, 1, -20), (0, 3, -30)],
)
def test_plus_minus_ten_a_trick(bid: int, tricks: int, points: int) -> None:
    """Made: 10 a trick, a made zero 10; missed: minus 10 a trick off (seed 002)."""
    text = "if exact then (if bid = 0 then 10 else bid * 10) else -10 * diff"
    assert score(text, bid, tricks) == points


@pytest.mark.parametrize(("bid", "tricks", "points"), [(0, 0, 10), (4, 4, 10), (2, 3, -10)])
def test_judgement_plus_ten_minus_ten(bid: int, tricks: int, points: int) -> None:
    assert score("if exact then 10 else -10", bid, tricks) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"), [(3, 3, 13), (3, 1, -2), (1, 4, -3), (0, 0, 10)]
)
def test_miss_costs_one_a_trick_off(bid: int, tricks: int, points: int) -> None:
    assert score("if exact then 10 + bid else -diff", bid, tricks) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"), [(3, 3, 13), (3, 1, -3), (1, 4, -1), (0, 2, 0)]
)
def test_miss_costs_the_bid(bid: int, tricks: int, points: int) -> None:
    assert score("if exact then 10 + bid else -bid", bid, tricks) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"), [(0, 0, 10), (1, 1, 10), (3, 3, 30), (3, 2, 0), (0, 1, 0)]
)
def test_bid_times_ten_with_ten_for_a_made_zero(bid: int, tricks: int, points: int) -> None:
    text = "if exact then (if bid = 0 then 10 else bid * 10) else 0"
    assert score(text, bid, tricks) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "cards", "points"),
    [(5, 5, 5, 25), (4, 4, 5, 14), (5, 4, 5, 0), (1, 1, 1, 21)],
)
def test_whole_hand_bonus(bid: int, tricks: int, cards: int, points: int) -> None:
    """An exact bid of every trick earns 10 more (the amount is a house choice)."""
    text = "if exact then 10 + bid + (if bid = cards then 10 else 0) else 0"
    assert score(text, bid, tricks, cards=cards) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "blind", "points"),
    [(2, 2, True, 24), (2, 2, False, 12), (0, 0, True, 20), (2, 3, True, 0)],
)
def test_exact_blind_bid_doubled(bid: int, tricks: int, blind: bool, points: int) -> None:
    text = "if exact then (10 + bid) * (if blind then 2 else 1) else 0"
    assert score(text, bid, tricks, blind=blind) == points


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(3, 5, Fraction(16, 5)), (3, 3, Fraction(3)), (4, 2, Fraction(-4)), (2, 3, Fraction(21, 10))],
)
def test_callbreak_tenth_of_a_point_per_overtrick(bid: int, tricks: int, points: Fraction) -> None:
    for text in (
        "if tricks >= bid then bid + 1/10 * (tricks - bid) else -bid",
        "if tricks >= bid then bid + 0.1 * (tricks - bid) else -bid",
    ):
        result = score(text, bid, tricks)
        assert type(result) is Fraction
        assert result == points


# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 3 - 2", 5),
        ("10 - (3 - 2)", 9),
        ("-2 * 3", -6),
        ("7 / 2", Fraction(7, 2)),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("0.25 * 4", 1),
        ("1.50", Fraction(3, 2)),
        ("abs(tricks - bid) * 2", 4),
        ("min(bid, tricks, 9)", 3),
        ("max(bid, tricks, -1)", 5),
        ("if not exact and over then 1 else 0", 1),
        ("if exact or over and tricks > 4 then 1 else 0", 1),
        ("if under or (over and blind) then 1 else 0", 0),
        ("if bid == 3 then 1 else 0", 1),
        ("if bid != 3 then 1 else 0", 0),
        ("if exact = under then 1 else 0", 1),
        ("if bid <= 3 and tricks >= 5 and bid < tricks then 1 else 0", 1),
        ("if exact then 1 else if over then 2 else 3", 2),
        ("players + hand + cards  # a comment", 4 + 2 + 6),
        ("diff", 2),
    ],
)
def test_language(text: str, value: Fraction | int) -> None:
    env = score_env(bid=3, tricks=5, cards=6, hand=2, players=4)
    result = parse_formula(text).evaluate(env)
    assert type(result) is Fraction
    assert result == value


def test_zero_divisor_at_evaluation_gives_zero() -> None:
    env = score_env(bid=0, tricks=2, cards=3, hand=1, players=3)
    assert parse_formula("tricks / bid").evaluate(env) == 0
    assert parse_formula("10 + tricks // bid").evaluate(env) == 10
    assert parse_formula("tricks / (bid + 1)").evaluate(env) == 2


def test_score_env() -> None:
    env = score_env(bid=2, tricks=4, cards=5, hand=3, players=6, blind=True)
    assert env == {
        "bid": 2,
        "tricks": 4,
        "cards": 5,
        "hand": 3,
        "players": 6,
        "diff": 2,
        "exact": False,
        "over": True,
        "under": False,
        "blind": True,
        "points": 0,
        "all_points": 0,
        "most_points": 0,
        # Without teams, a seat is a team of one.
        "team_bid": 2,
        "team_tricks": 4,
        "team_points": 0,
        "partner_bid": 0,
        "partner_tricks": 0,
        "maker": False,
        "maker_tricks": 0,
        "alone": False,
        "defended_alone": False,
        "bid_level": 0,
        "downtown": False,
        "no_trumps": False,
        "misere": False,
        "bid_strain": -1,
        "open_misere": False,
    }
    assert set(env) == set(VARIABLES)
    exact = score_env(bid=1, tricks=1, cards=1, hand=1, players=3)
    assert (exact["exact"], exact["over"], exact["under"], exact["diff"]) == (True, False, False, 0)


def test_variables_documented() -> None:
    for name in (
        "bid",
        "tricks",
        "cards",
        "hand",
        "players",
        "exact",
        "over",
        "under",
        "diff",
        "blind",
    ):
        assert VARIABLES[name].strip()
        assert VARIABLE_KINDS[name] in ("number", "condition")
    assert {VARIABLE_KINDS[n] for n in ("exact", "over", "under", "blind")} == {"condition"}
    assert set(FUNCTIONS) == {"abs", "min", "max"}
    with pytest.raises(TypeError):
        VARIABLES["x"] = "y"  # type: ignore[index]


def test_uses() -> None:
    assert parse_formula(KACHUFUL).uses() == frozenset({"exact", "bid"})
    assert parse_formula("3 * 4").uses() == frozenset()


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("((bid))+ (tricks*2)", "bid + tricks * 2"),
        ("(bid + tricks) * 2", "(bid + tricks) * 2"),
        ("bid - (tricks - 1)", "bid - (tricks - 1)"),
        ("(bid - tricks) - 1", "(bid - tricks) - 1"),
        ("if bid == 0 then 0.50 else 1.0", "if bid = 0 then 0.5 else 1"),
        ("if(exact)then(10)else(-(-diff))", "if exact then 10 else -(-diff)"),
        ("tricks+(if exact then 10 else 0)", "tricks + (if exact then 10 else 0)"),
        (
            "if (if exact then over else under) then 1 else 2",
            "if (if exact then over else under) then 1 else 2",
        ),
        (
            "if exact then 1 else (if over then 2 else 3)",
            "if exact then 1 else if over then 2 else 3",
        ),
        (
            "if not (exact or over) then max( 1 ,2 ) else 0",
            "if not (exact or over) then max(1, 2) else 0",
        ),
        ("007 + 0.0", "7 + 0"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    f = parse_formula(text)
    assert f.text == canonical
    assert format_formula(f) == canonical
    assert str(f) == canonical
    assert parse_formula(canonical) == f


def test_formula_equality_ignores_source_position() -> None:
    a = parse_formula("bid+1", path="a.rules", line=5, column=9)
    b = parse_formula("(bid) + 1   # note", path="b.rules", line=40, column=2)
    assert a == b
    assert hash(a) == hash(b)
    assert {a: "x"}[b] == "x"
    assert a != parse_formula("1 + bid")


def test_formula_constructor_and_pickle() -> None:
    f = Formula("if exact then 10+bid else 0")
    assert f.text == KACHUFUL
    assert f == parse_formula(KACHUFUL)
    ten_plus_bid = Sum(Num(Fraction(10)), (("+", Var("bid")),))
    assert f.expr == If(Var("exact"), ten_plus_bid, Num(Fraction(0)))
    g = pickle.loads(pickle.dumps(f))
    assert g == f
    assert g.evaluate(score_env(bid=2, tricks=2, cards=3, hand=1, players=3)) == 12
    with pytest.raises(VariantError, match="unknown variable"):
        Formula("bidd")


def test_missing_variable_at_evaluation() -> None:
    with pytest.raises(VariantError, match="'tricks'"):
        parse_formula("tricks + 1").evaluate({"bid": 1})


def test_grammar_has_no_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    from cardrules import scoring

    def conflicts() -> list[str]:
        return [r.getMessage() for r in caplog.records if "conflict" in r.getMessage().lower()]

    caplog.set_level(logging.DEBUG, logger="lark")
    # The check can see a conflict: an ambiguous grammar reports one.
    Lark('start: e\ne: e "+" e | "a"', parser="lalr", debug=True)
    assert conflicts()
    caplog.clear()
    Lark(scoring._GRAMMAR, parser="lalr", lexer="basic", debug=True)
    assert conflicts() == []
    if importlib.util.find_spec("interegular") is not None:
        Lark(scoring._GRAMMAR, parser="lalr", lexer="basic", strict=True)


# --------------------------------------------------------------------------- errors


def test_error_rendering_unknown_variable() -> None:
    line = "score: if exact then 10 + bdi else 0"
    with pytest.raises(VariantError) as info:
        parse_formula(line[7:], path="games/kachuful.rules", line=12, column=8, source_line=line)
    err = info.value
    assert (err.path, err.line, err.column) == ("games/kachuful.rules", 12, 27)
    assert err.source_line == line
    assert err.hint == "did you mean 'bid'?"
    assert str(err) == (
        "games/kachuful.rules:12:27: unknown variable 'bdi'\n"
        "    score: if exact then 10 + bdi else 0\n"
        "                              ^\n"
        "expected one of the variables bid, tricks, cards, hand, players, diff, exact, "
        "over, under, blind, points, all_points, most_points, team_bid, team_tricks, "
        "team_points, partner_bid, partner_tricks, maker, maker_tricks, alone, defended_alone, "
        "bid_level, downtown, no_trumps, misere, open_misere, bid_strain\n"
        "did you mean 'bid'?"
    )


def test_error_rendering_type_error() -> None:
    line = "  score:   bid + exact"
    with pytest.raises(VariantError) as info:
        parse_formula("bid + exact", path="v.rules", line=3, column=12, source_line=line)
    assert str(info.value) == (
        "v.rules:3:18: '+' must be a number, but 'exact' is a condition (true or false)\n"
        "      score:   bid + exact\n"
        "                     ^\n"
        "expected a number, such as 'bid' or '10 * tricks'"
    )


def test_error_standalone_shows_the_text() -> None:
    with pytest.raises(VariantError) as info:
        parse_formula("if exact then 1")
    assert str(info.value) == (
        "<string>:1:16: the formula ends too soon\n"
        "    if exact then 1\n"
        "                   ^\n"
        "expected 'else'\n"
        "every 'if ... then ...' needs an 'else' part"
    )


def errors_of(text: str) -> VariantError:
    with pytest.raises(VariantError) as info:
        parse_formula(text, path="p", line=2, column=5)
    return info.value


@pytest.mark.parametrize(
    ("text", "column", "message", "expected", "hint"),
    [
        ("trick * 2", 5, "unknown variable 'trick'", "bid, tricks", "did you mean 'tricks'?"),
        ("Bid", 5, "unknown variable 'Bid'", "bid, tricks", "write 'bid'"),
        ("mx(bid, 1)", 5, "unknown function 'mx'", "abs, min, max", "did you mean 'max'?"),
        ("max + 1", 5, "'max' is a function, not a variable", "max(", "max(a, b, ...)"),
        ("bid(2)", 5, "'bid' is a variable, not a function", "abs, min, max", "'*'"),
        ("if bid then 1 else 0", 8, "'bid' is a number", "a condition", None),
        ("bid + exact", 11, "'exact' is a condition", "a number", None),
        ("not tricks", 9, "'tricks' is a number", "a condition", None),
        ("if exact then 1 else over", 26, "'else' part is a condition", "a number", None),
        ("if exact = 1 then 1 else 0", 16, "compares a condition", "a condition", None),
        ("exact", 5, "a score must be a number", "a number", "if <condition>"),
        ("min(bid)", 5, "two or more", "min(a, b, ...)", None),
        ("abs(bid, 1)", 5, "abs takes one number", "abs(x)", None),
        ("bid / 0", 11, "division by zero", "not zero", None),
        ("bid // (1 - 1.0)", 13, "division by zero", "not zero", None),
        ("1234567890123 + bid", 5, "too long", "12 digits", None),
        ("", 5, "empty", "a number", None),
        ("   # nothing", 5, "empty", "a number", None),
        ("bid +", 10, "ends too soon", "a variable", None),
        ("(bid + 1", 13, "ends too soon", "')'", None),
        ("bid)", 8, "unexpected ')'", "end of the formula", None),
        ("10 bid", 8, "unexpected name 'bid'", "an operator", "'*'"),
        ("1 + if exact then 1 else 0", 9, "unexpected 'if'", "a number", "parentheses"),
        ("if exact than 1 else 0", 14, "unexpected name 'than'", "'then'", "did you mean 'then'?"),
        ("bid < tricks < 5", 18, "unexpected '<'", "'and'", "do not chain"),
        ("bid & tricks", 9, "unexpected character '&'", "numbers", "'and'"),
        ("bid ^ 2", 9, "unexpected character '^'", "numbers", "power"),
        ("bid\n+ 1", 8, "one line", "end", None),
    ],
)
def test_errors(text: str, column: int, message: str, expected: str, hint: str | None) -> None:
    err = errors_of(text)
    assert (err.path, err.line, err.column) == ("p", 2, column)
    assert message in err.message
    assert err.expected is not None and expected in err.expected
    if hint is None:
        assert err.hint is None
    else:
        assert err.hint is not None and hint in err.hint
    assert isinstance(err, ValueError)


# --------------------------------------------------------------------------- limits


def refused_quickly(text: str, message: str) -> VariantError:
    start = time.perf_counter()
    with pytest.raises(VariantError) as info:
        parse_formula(text)
    assert time.perf_counter() - start < 1.0
    assert message in info.value.message
    return info.value


def test_ten_thousand_deep_parentheses_refused() -> None:
    refused_quickly("(" * 10_000 + "bid" + ")" * 10_000, "too long")


def test_five_megabyte_string_refused() -> None:
    refused_quickly("bid + " * 900_000, "too long")
    refused_quickly("x" * 5_000_000, "too long")


def test_deep_nesting_within_length_cap_refused() -> None:
    err = refused_quickly("(" * 60 + "bid" + ")" * 60, "parentheses")
    assert err.column == MAX_DEPTH + 1
    refused_quickly("-" * 1500 + "bid", "nested too deeply")
    refused_quickly("if " + "not " * 400 + "exact then 1 else 0", "nested too deeply")
    refused_quickly("if exact then 1 else " * 80 + "0", "nested too deeply")
    refused_quickly("abs(-" * 30 + "1" + ")" * 30, "nested too deeply")


def test_length_and_depth_limits_are_not_too_tight() -> None:
    long_sum = "1+" * 999 + "1"
    assert len(long_sum) <= MAX_FORMULA_LENGTH
    assert parse_formula(long_sum).evaluate({}) == 1000
    assert parse_formula("(" * MAX_DEPTH + "bid" + ")" * MAX_DEPTH).text == "bid"
    assert parse_formula("-" * 40 + "bid").evaluate({"bid": 3}) == 3
    assert parse_formula("999999999999 + 0.00000000001").text == "999999999999 + 0.00000000001"


# --------------------------------------------------------------------------- properties

FORMULA_TOKENS = [
    "bid",
    "tricks",
    "cards",
    "hand",
    "players",
    "exact",
    "over",
    "under",
    "diff",
    "blind",
    "bidd",
    "x",
    "abs",
    "min",
    "max",
    "if",
    "then",
    "else",
    "and",
    "or",
    "not",
    "0",
    "1",
    "10",
    "0.1",
    "1.",
    "99999999999999",
    "+",
    "-",
    "*",
    "/",
    "//",
    "(",
    ")",
    ",",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "#",
    "&",
    "\n",
    "\t",
    "é",
    "\x00",
]


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(max_size=80),
        st.lists(st.sampled_from(FORMULA_TOKENS), max_size=25).map(" ".join),
        st.lists(st.sampled_from(FORMULA_TOKENS), max_size=25).map("".join),
    )
)
def test_random_text_only_raises_variant_error(text: str) -> None:
    try:
        f = parse_formula(text, path="fuzz", line=7, column=3)
    except VariantError as err:
        assert err.line == 7
        assert err.column is not None and 3 <= err.column <= 3 + len(text)
        assert err.message
        return
    assert parse_formula(f.text) == f
    env = score_env(bid=1, tricks=0, cards=3, hand=2, players=4)
    assert type(f.evaluate(env)) is Fraction


# Generated formula texts with an independent reference evaluation.
Ref = Callable[[dict[str, Any]], Any]
Gen = tuple[str, Ref, bool]  # text, reference evaluator, uses a variable

NUM_VARS = ["bid", "tricks", "cards", "hand", "players", "diff"]
BOOL_VARS = ["exact", "over", "under", "blind"]
SPACE = st.sampled_from(["", " ", "  ", "\t"])


def ref_div(a: Any, b: Any) -> Any:
    return 0 if b == 0 else Fraction(a) / b


def ref_floordiv(a: Any, b: Any) -> Any:
    return 0 if b == 0 else a // b


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": ref_div,
    "//": ref_floordiv,
}
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


@st.composite
def number_literal(draw: st.DrawFn) -> Gen:
    whole = draw(st.integers(0, 9999))
    frac = draw(st.one_of(st.none(), st.text("0123456789", min_size=1, max_size=3)))
    text = str(whole) if frac is None else f"{whole}.{frac}"
    value = Fraction(text)
    return text, lambda env: value, False


@st.composite
def num_gen(draw: st.DrawFn, depth: int) -> Gen:
    kinds = ["lit", "var"]
    if depth > 0:
        kinds += ["neg", "bin", "bin", "if", "abs", "minmax"]
    kind = draw(st.sampled_from(kinds))
    s = draw(SPACE)
    if kind == "lit":
        return draw(number_literal())
    if kind == "var":
        name = draw(st.sampled_from(NUM_VARS))
        return name, lambda env: env[name], True
    if kind == "neg":
        t, f, u = draw(num_gen(depth - 1))
        return f"-{s}({t})", lambda env: -f(env), u
    if kind == "bin":
        op = draw(st.sampled_from(list(BINARY)))
        at, af, au = draw(num_gen(depth - 1))
        bt, bf, bu = draw(num_gen(depth - 1))
        if op in ("/", "//") and not bu and bf({}) == 0:
            bt, bf, bu = "bid", (lambda env: env["bid"]), True
        fn = BINARY[op]
        return f"({at}){s}{op}{s}({bt})", lambda env: fn(af(env), bf(env)), au or bu
    if kind == "if":
        ct, cf, cu = draw(bool_gen(depth - 1))
        at, af, au = draw(num_gen(depth - 1))
        bt, bf, bu = draw(num_gen(depth - 1))
        return (
            f"if{s}({ct}){s}then ({at}) else{s}({bt})",
            lambda env: af(env) if cf(env) else bf(env),
            cu or au or bu,
        )
    if kind == "abs":
        t, f, u = draw(num_gen(depth - 1))
        return f"abs({s}{t}{s})", lambda env: abs(f(env)), u
    name = draw(st.sampled_from(["min", "max"]))
    args = draw(st.lists(num_gen(depth - 1), min_size=2, max_size=4))
    pick = min if name == "min" else max
    return (
        f"{name}({f',{s}'.join(t for t, _, _ in args)})",
        lambda env: pick(f(env) for _, f, _ in args),
        any(u for _, _, u in args),
    )


@st.composite
def bool_gen(draw: st.DrawFn, depth: int) -> Gen:
    kinds = ["var", "cmp"]
    if depth > 0:
        kinds += ["not", "and", "or", "if"]
    kind = draw(st.sampled_from(kinds))
    s = draw(SPACE)
    if kind == "var":
        name = draw(st.sampled_from(BOOL_VARS))
        return name, lambda env: env[name], True
    if kind == "cmp":
        op = draw(st.sampled_from(list(COMPARE)))
        at, af, au = draw(num_gen(max(depth - 1, 0)))
        bt, bf, bu = draw(num_gen(max(depth - 1, 0)))
        fn = COMPARE[op]
        return f"({at}){s}{op}{s}({bt})", lambda env: fn(af(env), bf(env)), au or bu
    if kind == "not":
        t, f, u = draw(bool_gen(depth - 1))
        return f"not ({t})", lambda env: not f(env), u
    if kind in ("and", "or"):
        at, af, au = draw(bool_gen(depth - 1))
        bt, bf, bu = draw(bool_gen(depth - 1))
        if kind == "and":
            return f"({at}) and{s}({bt})", lambda env: af(env) and bf(env), au or bu
        return f"({at}) or{s}({bt})", lambda env: af(env) or bf(env), au or bu
    ct, cf, cu = draw(bool_gen(depth - 1))
    at, af, au = draw(bool_gen(depth - 1))
    bt, bf, bu = draw(bool_gen(depth - 1))
    return (
        f"if ({ct}) then ({at}) else ({bt})",
        lambda env: af(env) if cf(env) else bf(env),
        cu or au or bu,
    )


ENVS = st.builds(
    score_env,
    bid=st.integers(0, 13),
    tricks=st.integers(0, 13),
    cards=st.integers(1, 13),
    hand=st.integers(1, 40),
    players=st.integers(3, 7),
    blind=st.booleans(),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_gen(4), st.lists(ENVS, min_size=1, max_size=3))
def test_generated_formulas_evaluate_and_round_trip(gen: Gen, envs: list[dict[str, Any]]) -> None:
    text, reference, _ = gen
    f = parse_formula(text)
    again = parse_formula(format_formula(f))
    assert again == f
    assert hash(again) == hash(f)
    assert again.expr == f.expr
    assert format_formula(again) == f.text
    for env in envs:
        expected = Fraction(reference(env))
        assert f.evaluate(env) == expected
        assert again.evaluate(env) == expected


# Generated trees, formatted and parsed back.
NUM_LEAF: st.SearchStrategy[Expr] = st.one_of(
    st.builds(Num, st.builds(Fraction, st.integers(0, 10**6), st.sampled_from([1, 10, 100, 4]))),
    st.sampled_from(NUM_VARS).map(Var),
)
OPS = st.sampled_from(["+", "-"])


def has_var(e: Expr) -> bool:
    return "Var(" in repr(e)


def num_tree(depth: int) -> st.SearchStrategy[Expr]:
    if depth == 0:
        return NUM_LEAF
    sub = num_tree(depth - 1)
    divisor = st.one_of(sub.filter(has_var), NUM_LEAF.filter(lambda e: e != Num(Fraction(0))))
    product_step = st.one_of(
        st.tuples(st.just("*"), sub), st.tuples(st.sampled_from(["/", "//"]), divisor)
    )
    return st.one_of(
        NUM_LEAF,
        st.builds(Neg, sub),
        st.builds(Sum, sub, st.lists(st.tuples(OPS, sub), min_size=1, max_size=3).map(tuple)),
        st.builds(Product, sub, st.lists(product_step, min_size=1, max_size=3).map(tuple)),
        st.builds(If, bool_tree(depth - 1), sub, sub),
        st.builds(Call, st.just("abs"), sub.map(lambda e: (e,))),
        st.builds(
            Call, st.sampled_from(["min", "max"]), st.lists(sub, min_size=2, max_size=3).map(tuple)
        ),
    )


def bool_tree(depth: int) -> st.SearchStrategy[Expr]:
    leaf: st.SearchStrategy[Expr] = st.sampled_from(BOOL_VARS).map(Var)
    if depth == 0:
        return leaf
    sub = bool_tree(depth - 1)
    nums = num_tree(depth - 1)
    return st.one_of(
        leaf,
        st.builds(Compare, nums, st.sampled_from(["=", "!=", "<", "<=", ">", ">="]), nums),
        st.builds(Compare, sub, st.sampled_from(["=", "!="]), sub),
        st.builds(Not, sub),
        st.builds(And, st.lists(sub, min_size=2, max_size=3).map(tuple)),
        st.builds(Or, st.lists(sub, min_size=2, max_size=3).map(tuple)),
        st.builds(If, sub, sub, sub),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_tree(3), ENVS)
def test_generated_trees_round_trip(tree: Expr, env: dict[str, Any]) -> None:
    text = format_expr(tree)
    f = parse_formula(text)
    assert f.expr == tree
    assert f.text == text
    assert parse_formula(format_formula(f)) == f
    assert Formula(text).evaluate(env) == f.evaluate(env)
