"""Issue 10 item 1: scoring formulas produce bounded numbers.

A formula is refused when it is loaded if, over the variables' known ranges, any
value it computes (every step, not just the result) could have a numerator or a
denominator of more than ``MAX_VALUE_DIGITS`` digits; what the load-time bound
cannot see (values outside those ranges, running totals) raises ``ScoreError``
when it happens, never ``ValueError: Exceeds the limit (4300 digits)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings, target
from hypothesis import strategies as st

import cardrules.scoring as scoring
from cardrules import errors, load, load_text
from cardrules.dsl import builtin_names
from cardrules.engine.state.compiled_rules import _Rules
from cardrules.errors import CardrulesError, VariantError
from cardrules.rules import MAX_SCHEDULE_HANDS, MAX_TIE_HANDS, Pattern, PlayerRange, ScheduleRule
from cardrules.scoring import (
    And,
    Call,
    Compare,
    Expr,
    If,
    Neg,
    Not,
    Num,
    Or,
    Product,
    Sum,
    Var,
    format_expr,
    parse_formula,
    score_env,
)

REPO = Path(__file__).resolve().parent.parent
TWELVE = "999999999989"  # a twelve-digit number (a prime, so nothing cancels)
KACHUFUL_SCORE = "score: if exact then 10 + bid else 0"


def issue_formula(count: int) -> str:
    """``1/(hand + N)``, N a product of ``count`` twelve-digit numbers (issue 10, item 1)."""
    return "1/(hand + " + "*".join([TWELVE] * count) + ")"


def with_score(formula: str) -> str:
    """The Kachuful file with its score line replaced."""
    text = (REPO / "variants" / "kachuful.cardrules").read_text(encoding="utf-8")
    assert KACHUFUL_SCORE in text
    return text.replace(KACHUFUL_SCORE, f"score: {formula}")


def digits(n: int) -> int:
    """Decimal digits of ``abs(n)``, without str() (which fails past 4,300 digits)."""
    n = abs(n)
    d = max(1, int(n.bit_length() * 0.30103))
    while d > 1 and 10 ** (d - 1) > n:
        d -= 1
    while 10**d <= n:
        d += 1
    return d


def size(x: Fraction | int) -> int:
    """The larger digit count of numerator and denominator."""
    f = Fraction(x)
    return max(digits(f.numerator), digits(f.denominator))


# --------------------------------------------------------------------------- the limits


def test_limits_are_documented_and_far_below_python_str_limit() -> None:
    """The bounds exist, totals get more room than one value, and both stay far below the
    4,300 digits at which Python's int-to-str conversion (hence to_json) fails."""
    assert isinstance(scoring.MAX_VALUE_DIGITS, int)
    assert scoring.MAX_VALUE_DIGITS <= scoring.MAX_TOTAL_DIGITS <= 1000
    assert issubclass(errors.ScoreError, CardrulesError)
    assert "ScoreError" in errors.__all__
    dsl_md = (REPO / "docs" / "dsl.md").read_text(encoding="utf-8")
    limits = dsl_md[dsl_md.index("## Limits") :]
    limits = limits[: limits.index("\n## ", 1)]
    assert f"{scoring.MAX_VALUE_DIGITS} digits" in limits
    assert f"{scoring.MAX_TOTAL_DIGITS} digits" in limits


def test_variable_ranges_cover_what_the_engine_can_pass() -> None:
    """The load-time bound assumes ranges no game exceeds: 52 cards at most (so bids,
    tricks and diff too), 52 players, and scheduled hands plus tie-break hands."""
    ranges = scoring.VARIABLE_BOUNDS
    assert set(ranges) == {n for n, k in scoring.VARIABLE_KINDS.items() if k == "number"}
    for name in ("bid", "tricks", "cards", "players", "diff"):
        assert ranges[name] >= 52
    # 'tie: extra hands, at most N' allows N up to MAX_SCHEDULE_HANDS.
    assert ranges["hand"] >= MAX_SCHEDULE_HANDS + max(MAX_SCHEDULE_HANDS, MAX_TIE_HANDS)


# --------------------------------------------------------------------------- load time


def test_issue_formula_refused_at_load_naming_the_line() -> None:
    """The issue's formula: under every older limit (one 1,993-character line), refused
    now with a VariantError at the score line, before any game is played."""
    formula = issue_formula(152)
    line = f"score: {formula}"
    assert len(line) <= 2000
    text = with_score(formula)
    lineno = text.splitlines().index(line) + 1
    with pytest.raises(VariantError) as info:
        load_text(text, path="house.cardrules")
    err = info.value
    assert err.path == "house.cardrules"
    assert err.line == lineno
    assert err.column is not None and err.column > len("score: ")
    assert "digits" in err.message and str(scoring.MAX_VALUE_DIGITS) in str(err)
    assert str(err).startswith(f"house.cardrules:{lineno}:")


def test_issue_formula_refused_by_parse_formula() -> None:
    """The same through the formula parser alone, with 153 factors (still under 2,000
    characters); the error points into the formula, at the part that grows too large."""
    formula = issue_formula(153)
    assert len(formula) <= scoring.MAX_FORMULA_LENGTH
    with pytest.raises(VariantError) as info:
        parse_formula(formula, path="f", line=4, column=8)
    err = info.value
    assert (err.path, err.line) == ("f", 4)
    assert err.column is not None and 8 <= err.column < 8 + len(formula)
    assert "too large" in err.message


def test_bound_is_exact_for_constants() -> None:
    """A constant's size is known exactly: 10**99 (100 digits) is accepted, 10**100 is not."""
    ten_11 = "100000000000"  # 10**11, twelve digits
    ok = "*".join([ten_11] * 9)  # 10**99
    assert parse_formula(ok).evaluate({}) == 10**99
    with pytest.raises(VariantError, match="digits"):
        parse_formula(ok + " * 10")
    third = "1/" + "/".join(["1000000000"] * 11)  # 1/10**99, a 100-digit denominator
    assert parse_formula(third).evaluate({}) == Fraction(1, 10**99)
    with pytest.raises(VariantError, match="denominator"):
        parse_formula(third + "/10")


def test_bound_uses_the_variables_ranges() -> None:
    """``hand`` reaches 2,000: thirty factors of it fit in 100 digits, thirty-one do not."""
    assert scoring.VARIABLE_BOUNDS["hand"] == 2000
    thirty = " * ".join(["hand"] * 30)
    f = parse_formula(thirty)
    assert size(f.evaluate({"hand": 2000})) == 100
    with pytest.raises(VariantError, match="too large"):
        parse_formula(thirty + " * hand")


def test_sums_of_like_fractions_are_not_refused() -> None:
    """Denominators that are the same are not multiplied together by the bound: a long
    sum of tenths has denominator 10, however many terms."""
    long = " + ".join(["0.1 * bid"] * 150)
    assert len(long) <= scoring.MAX_FORMULA_LENGTH
    assert (
        parse_formula(long).evaluate(score_env(bid=3, tricks=0, cards=5, hand=1, players=4)) == 45
    )


def test_every_builtin_variant_formula_still_loads() -> None:
    names = builtin_names()
    assert len(names) >= 30
    formulas = set()
    for name in names:
        v = load(name)
        if v.scoring.formula is not None:
            formulas.add(v.scoring.formula.text)
            assert v.scoring.formula == parse_formula(v.scoring.formula.text)
    assert len(formulas) >= 10


def test_every_documented_formula_still_loads() -> None:
    """Every ``score:`` example of the DSL guide and the README parses (a line
    under a condition, ``score: tricks in a tie-break hand``, without it)."""
    from cardrules.dsl.conditions import split_conditions

    found = 0
    for doc in (REPO / "docs" / "dsl.md", REPO / "README.md"):
        for m in re.finditer(r"^score: (.*?)(?:\s+#.*)?$", doc.read_text(encoding="utf-8"), re.M):
            body, _ = split_conditions(m.group(0), str(doc))
            parse_formula(body.split(":", 1)[1].strip())
            found += 1
    assert found >= 6


# --------------------------------------------------------------------------- run time


def test_out_of_range_values_raise_score_error_not_value_error() -> None:
    """What the load-time bound cannot see (a value passed from Python beyond the ranges)
    is caught at the step where it grows too large, with a message that can be printed."""
    f = parse_formula("hand * hand * hand")
    with pytest.raises(errors.ScoreError) as info:
        f.evaluate({"hand": 10**40})
    text = str(info.value)
    assert "hand * hand * hand" in text and "digits" in text
    huge = parse_formula("hand + 1")
    with pytest.raises(errors.ScoreError, match="5,001 digits"):
        huge.evaluate({"hand": 10**5000})  # str() of this would raise ValueError


def test_check_total_refuses_a_running_total_that_grows() -> None:
    """``1/(hand + 7)`` passes the load-time bound, yet its running total's denominator is
    the lcm of 8, 9, 10, ...: check_total stops it before it reaches MAX_TOTAL_DIGITS."""
    f = parse_formula("1/(hand + 7)")
    total = Fraction(0)
    stopped_at = None
    for hand in range(1, MAX_SCHEDULE_HANDS + 1):
        total += f.evaluate(score_env(bid=0, tricks=0, cards=1, hand=hand, players=4))
        try:
            scoring.check_total(total, seat=2, hand=hand)
        except errors.ScoreError as err:
            stopped_at = hand
            message = str(err)
            break
        assert size(total) <= scoring.MAX_TOTAL_DIGITS
        str(total)
    assert stopped_at is not None and 100 < stopped_at < MAX_SCHEDULE_HANDS
    assert size(total) > scoring.MAX_TOTAL_DIGITS
    assert f"hand {stopped_at}" in message and "seat 2" in message
    assert "numerator" in message or "denominator" in message
    assert f"at most {scoring.MAX_TOTAL_DIGITS}" in message


def test_check_total_accepts_ordinary_totals() -> None:
    scoring.check_total(0)
    scoring.check_total(-(10**scoring.MAX_TOTAL_DIGITS - 1))
    scoring.check_total(Fraction(7, 3))
    with pytest.raises(errors.ScoreError, match="numerator"):
        scoring.check_total(10**scoring.MAX_TOTAL_DIGITS)
    with pytest.raises(errors.ScoreError):
        scoring.check_total(Fraction(1, 10**5000))


def _rules(formula: Any) -> _Rules:
    v = load("kachuful")
    return _Rules(v.evolve(scoring=attrs.evolve(v.scoring, formula=formula)))


def test_points_raises_score_error_for_too_large_values() -> None:
    r = _rules(parse_formula("hand * hand * hand + bid"))
    assert r.points(2, 2, 5, 1000, 4, False) == 10**9 + 2
    with pytest.raises(errors.ScoreError, match="kachuful"):
        r.points(2, 2, 5, 10**40, 4, False)


class _Failing:
    """A stand-in formula whose evaluation fails with a plain Python error."""

    text = "bid / 0"

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def evaluate(self, env: object) -> Fraction:
        raise self.exc


@pytest.mark.parametrize(
    "exc", [ZeroDivisionError("division by zero"), OverflowError("big"), ValueError("bad")]
)
def test_points_turns_any_evaluation_failure_into_score_error(exc: Exception) -> None:
    r = _rules(_Failing(exc))
    with pytest.raises(errors.ScoreError, match="bid / 0"):
        r.points(1, 0, 3, 2, 4, False)


def test_division_by_a_zero_value_is_worth_zero_not_an_error() -> None:
    r = _rules(parse_formula("tricks / bid + tricks // (bid - bid)"))
    assert r.points(0, 3, 5, 1, 4, False) == 0


# --------------------------------------------------------------------------- the bound is sound

NUM_NAMES = ["bid", "cards", "diff", "hand", "players", "tricks"]
#: The highest hand number a game reaches: 1,000 scheduled and up to 1,000 tie-breaks.
HAND_MAX = 2000
BOOL_NAMES = ["exact", "over", "under", "blind"]

LITERAL = st.one_of(
    st.integers(0, 10**12 - 1).map(Fraction),
    st.integers(0, 999).map(lambda n: Fraction(n, 1000)),
    st.sampled_from([Fraction(1, 10), Fraction(5, 4), Fraction(99999999999, 100)]),
)
LEAF: st.SearchStrategy[Expr] = st.one_of(
    st.builds(Num, LITERAL), st.sampled_from(NUM_NAMES).map(Var)
)


def num_expr(depth: int) -> st.SearchStrategy[Expr]:
    if depth == 0:
        return LEAF
    sub = num_expr(depth - 1)
    step = st.tuples(st.sampled_from(["*", "/", "//"]), sub)
    return st.one_of(
        LEAF,
        st.builds(Neg, sub),
        st.builds(
            Sum,
            sub,
            st.lists(st.tuples(st.sampled_from(["+", "-"]), sub), min_size=1, max_size=3).map(
                tuple
            ),
        ),
        st.builds(Product, sub, st.lists(step, min_size=1, max_size=4).map(tuple)),
        st.builds(If, bool_expr(depth - 1), sub, sub),
        st.builds(Call, st.just("abs"), sub.map(lambda e: (e,))),
        st.builds(
            Call, st.sampled_from(["min", "max"]), st.lists(sub, min_size=2, max_size=3).map(tuple)
        ),
    )


def long_chain() -> st.SearchStrategy[Expr]:
    """Long products and quotients of variables, large literals and small sums: the
    shapes whose size grows fastest, often near the limit and often over it."""
    factor = st.one_of(
        LEAF,
        st.builds(Sum, LEAF, st.tuples(st.tuples(st.sampled_from(["+", "-"]), LEAF))),
    )
    steps = st.lists(
        st.tuples(st.sampled_from(["*", "*", "/", "//"]), factor), min_size=4, max_size=40
    )
    chain = st.builds(Product, factor, steps.map(tuple))
    return st.one_of(
        chain,
        st.builds(
            Sum, chain, st.lists(st.tuples(st.just("+"), chain), min_size=1, max_size=3).map(tuple)
        ),
    )


def bool_expr(depth: int) -> st.SearchStrategy[Expr]:
    leaf: st.SearchStrategy[Expr] = st.sampled_from(BOOL_NAMES).map(Var)
    if depth == 0:
        return leaf
    nums = num_expr(depth - 1)
    sub = bool_expr(depth - 1)
    return st.one_of(
        leaf,
        st.builds(Compare, nums, st.sampled_from(["=", "<", ">="]), nums),
        st.builds(Not, sub),
        st.builds(And, st.lists(sub, min_size=2, max_size=2).map(tuple)),
        st.builds(Or, st.lists(sub, min_size=2, max_size=2).map(tuple)),
    )


def _extreme(hi: int, lo: int = 0) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from([lo, hi, hi - 1, lo + 1]), st.integers(lo, hi))


ENV = st.builds(
    score_env,
    bid=_extreme(52),
    tricks=_extreme(52),
    cards=_extreme(52, 1),
    hand=_extreme(HAND_MAX, 1),
    players=_extreme(52, 2),
    blind=st.booleans(),
)


def reference(node: Expr, env: dict[str, Any], seen: list[Fraction]) -> Any:
    """Evaluates ``node`` independently, recording every number computed on the way."""

    def num(x: Any) -> Any:
        seen.append(Fraction(x))
        return x

    ev: Callable[[Expr], Any] = lambda n: reference(n, env, seen)  # noqa: E731
    if isinstance(node, Num):
        return num(node.value)
    if isinstance(node, Var):
        v = env[node.name]
        return v if isinstance(v, bool) else num(v)
    if isinstance(node, Neg):
        return num(-ev(node.operand))
    if isinstance(node, Not):
        return not ev(node.operand)
    if isinstance(node, Sum | Product):
        acc = ev(node.first)
        for op, t in node.rest:
            y = ev(t)
            if op == "+":
                acc = acc + y
            elif op == "-":
                acc = acc - y
            elif op == "*":
                acc = acc * y
            elif op == "/":
                acc = 0 if y == 0 else Fraction(acc) / y
            else:
                acc = 0 if y == 0 else acc // y
            num(acc)
        return acc
    if isinstance(node, Compare):
        a, b = ev(node.left), ev(node.right)
        return {"=": a == b, "<": a < b, ">=": a >= b}[node.op]
    if isinstance(node, And):
        return all([ev(x) for x in node.operands])
    if isinstance(node, Or):
        return any([ev(x) for x in node.operands])
    if isinstance(node, If):
        return ev(node.then) if ev(node.cond) else ev(node.orelse)
    assert isinstance(node, Call)
    args = [ev(a) for a in node.args]
    if node.func == "abs":
        return num(abs(args[0]))
    return num(min(args) if node.func == "min" else max(args))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(num_expr(3), long_chain()), st.lists(ENV, min_size=1, max_size=4))
def test_static_bound_is_sound(tree: Expr, envs: list[dict[str, Any]]) -> None:
    """A formula from the grammar is either refused when parsed, or every number any
    evaluation over in-range variables computes, at every step, fits MAX_VALUE_DIGITS."""
    text = format_expr(tree)
    try:
        f = parse_formula(text)
    except VariantError as err:
        assert "too large" in err.message or "division by zero" in err.message, err.message
        event("refused")
        return
    event("accepted")
    largest = 0
    for env in envs:
        seen: list[Fraction] = []
        expected = reference(tree, env, seen)
        largest = max(largest, *(size(x) for x in seen))
        assert largest <= scoring.MAX_VALUE_DIGITS
        assert f.evaluate(env) == Fraction(expected)
    target(float(largest))  # steer towards accepted formulas with the largest numbers
    if largest > scoring.MAX_VALUE_DIGITS // 2:
        event("accepted, over half the limit")


def test_generator_reaches_both_outcomes() -> None:
    """The property above is not vacuous: formulas of its shape are both refused and accepted."""
    big = Product(Num(Fraction(10**12 - 1)), tuple(("*", Var("hand")) for _ in range(30)))
    with pytest.raises(VariantError):
        parse_formula(format_expr(big))
    small = Product(Var("tricks"), (("/", Sum(Var("bid"), (("+", Num(Fraction(1, 10))),))),))
    assert parse_formula(format_expr(small)).evaluate({"tricks": 3, "bid": 1}) == Fraction(30, 11)


# --------------------------------------------------------------------------- message plurals


def test_player_count_message_for_a_single_count() -> None:
    v = load("kachuful").evolve(players=PlayerRange(3, 3))
    with pytest.raises(VariantError) as info:
        _Rules(v).geometry(4)
    assert "is for 3 players, not 4" in str(info.value)
    assert "3 to 3" not in str(info.value)


def test_one_card_each_message_is_singular() -> None:
    v = load("kachuful")
    v = v.evolve(schedule=ScheduleRule(sizes=(1,), pattern=Pattern.LIST))
    v = v.evolve(deck=attrs.evolve(v.deck, removed=(1 << 52) - 1 - 0b11))  # a pack of 2
    with pytest.raises(VariantError) as info:
        _Rules(v).geometry(3)
    message = str(info.value)
    assert "needs 1 card each for 3 players" in message, message
    assert "1 cards" not in message


@pytest.mark.parametrize("value", ["x", float("inf"), float("nan"), Fraction(1, 10**5000)])
def test_bad_values_from_python_raise_score_error(value: object) -> None:
    """Values no game passes (text, infinities, a fraction too large to print) give a
    ScoreError whose message can be printed, not a TypeError or ValueError."""
    with pytest.raises(errors.ScoreError) as info:
        parse_formula("hand * 2").evaluate({"hand": value})  # type: ignore[dict-item]
    assert "hand * 2" in str(info.value)
