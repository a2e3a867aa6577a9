"""The cases of a score named in the game's own words (``case "made": ...``).

A variant file may name the cases of its score (:class:`~cardrules.rules.ScoreCase`):
Hearts' "shot the moon", Spades' "nil made", "set" and "bags", Euchre's
"march" and "euchred". They are presentation only: no case changes a score.
This module holds what the rules page, the engine's record of a hand and the
terminal share:

* :func:`condition` and :func:`condition_text`: a case's condition, held as the
  formula ``if <condition> then 1 else 0`` (a formula is a number), and its text;
* :func:`template_holes`: the ``{formula}`` holes of a case's recap text;
* :func:`name_hand`: the words for one seat's hand, from the variables of its
  score (every case that holds, in the file's order);
* :func:`example_env`: the variables of a case's worked example, for the page.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Final

from cardrules.rules import ScoreCase
from cardrules.scoring import (
    CARD_QUESTIONS,
    CONDITION,
    Formula,
    If,
    Taken,
    Value,
    format_expr,
    parse_formula,
    score_env,
)

__all__ = [
    "EXAMPLE_VARIABLES",
    "MAX_CASES",
    "MAX_HOLES",
    "condition",
    "condition_text",
    "example_env",
    "fill",
    "name_hand",
    "template_holes",
]

#: The most ``case`` lines a file may have.
MAX_CASES: Final = 24
#: The most ``{formula}`` holes a case's recap text may have.
MAX_HOLES: Final = 6
#: A ``{formula}`` hole of a recap text.
_HOLE: Final = re.compile(r"\{([^{}]*)\}")
#: A word after a hole that takes the plural with the hole's value: `` bag(s)``.
_PLURAL: Final = re.compile(r"([ \t]+[A-Za-z]+)\(s\)")

#: The variables a case's worked example may give (with the counters), each
#: with whether it is a condition (yes or no) rather than a number.
EXAMPLE_VARIABLES: Final[Mapping[str, bool]] = {
    "bid": False,
    "tricks": False,
    "cards": False,
    "hand": False,
    "players": False,
    "blind": True,
    "points": False,
    "all_points": False,
    "most_points": False,
    "team_bid": False,
    "team_tricks": False,
    "team_points": False,
    "maker": True,
    "maker_tricks": False,
    "alone": True,
    "defended_alone": True,
    "bid_level": False,
    "bid_strain": False,
    "no_trumps": True,
    "downtown": True,
    "misere": True,
    "open_misere": True,
}


def condition(
    text: str,
    *,
    counters: Iterable[str] = (),
    path: str = "<string>",
    line: int = 1,
    column: int = 1,
    source_line: str | None = None,
) -> Formula:
    """The formula ``if <text> then 1 else 0``: a case's condition as a formula
    (a formula is a number). Errors point into ``text`` itself.

    Raises:
        VariantError: if ``text`` is not a condition over the formulas' variables.
    """
    return parse_formula(
        f"if {text} then 1 else 0",
        counters=counters,
        path=path,
        line=line,
        column=column - 3,
        source_line=source_line if source_line is not None else text,
    )


def condition_text(case: ScoreCase) -> str:
    """The text of ``case``'s condition, as the file writes it canonically."""
    expr = case.when.expr
    return format_expr(expr.cond) if isinstance(expr, If) else format_expr(expr)


def template_holes(shown: str) -> list[tuple[int, str]]:
    """The ``{formula}`` holes of a recap text: (offset of the formula, its text)."""
    return [(m.start(1), m.group(1)) for m in _HOLE.finditer(shown)]


def _number(x: Fraction) -> str:
    """A value of a hole as people read it: ``7``, ``-3``, ``1/2``."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@functools.lru_cache(maxsize=256)
def _hole(text: str, counters: tuple[str, ...]) -> Formula:
    """A hole's formula, parsed once (a recap text is filled after every hand)."""
    return parse_formula(text, counters=counters)


def fill(case: ScoreCase, env: Mapping[str, Value], counters: Sequence[str] = ()) -> str:
    """``case``'s recap words for a hand with the variables ``env``: its
    ``shown`` text with each hole's value (a word right after a hole written
    ``bag(s)`` takes the plural unless the value is 1 or -1), or its label."""
    if not case.shown:
        return case.label
    out: list[str] = []
    last = 0
    text = case.shown
    for m in _HOLE.finditer(text):
        out.append(text[last : m.start()])
        value = _hole(m.group(1), tuple(counters)).evaluate(env)
        out.append(_number(value))
        last = m.end()
        word = _PLURAL.match(text, last)
        if word is not None:
            # ``{n} bag(s)``: "1 bag", "2 bags".
            out.append(word.group(1) + ("" if abs(value) == 1 else "s"))
            last = word.end()
    out.append(text[last:])
    return "".join(out)


def name_hand(
    cases: Sequence[ScoreCase], env: Mapping[str, Value], counters: Sequence[str] = ()
) -> tuple[str, ...]:
    """The words for a hand whose score read the variables ``env``: the recap
    words of every case whose condition holds, in the file's order."""
    return tuple(fill(c, env, counters) for c in cases if c.when.evaluate(env))


def example_env(
    case: ScoreCase,
    *,
    cards: int,
    players: int,
    counters: Sequence[str] = (),
    questions: Iterable[Taken] = (),
) -> dict[str, Value]:
    """The variables of ``case``'s worked example: the values it gives, the
    rest as a first hand of ``cards`` cards each for ``players`` players (the
    team's bid and tricks those of the seat unless given; counters at 0); the
    answers to the questions about the cards taken that it gives, the others
    of its condition and of ``questions`` (a score formula's) no and 0."""
    given: dict[str, int | bool] = dict(case.example)
    answers: dict[str, Value] = {
        format_expr(q): False if CARD_QUESTIONS[q.question] == CONDITION else 0
        for q in (*case.when.questions(), *questions)
    }
    answers.update(
        {k: v for k, v in given.items() if k not in EXAMPLE_VARIABLES and k not in counters}
    )
    kw: dict[str, int | bool] = {"cards": cards, "players": players, "hand": 1}
    kw.update({k: v for k, v in given.items() if k in EXAMPLE_VARIABLES})
    held = {c: int(given.get(c, 0)) for c in counters}
    bid = int(kw.pop("bid", 0))
    tricks = int(kw.pop("tricks", 0))
    team_bid = kw.pop("team_bid", None)
    team_tricks = kw.pop("team_tricks", None)
    team_points = kw.pop("team_points", None)
    contract = (
        int(kw.pop("bid_level", 0)),
        bool(kw.pop("downtown", False)),
        bool(kw.pop("no_trumps", False)),
        bool(kw.pop("misere", False)),
        int(kw.pop("bid_strain", -1)),
        bool(kw.pop("open_misere", False)),
    )
    env = score_env(
        bid=bid,
        tricks=tricks,
        cards=int(kw.pop("cards")),
        hand=int(kw.pop("hand")),
        players=int(kw.pop("players")),
        team_bid=None if team_bid is None else int(team_bid),
        team_tricks=None if team_tricks is None else int(team_tricks),
        team_points=None if team_points is None else int(team_points),
        counters=held,
        contract=contract,
        **kw,  # type: ignore[arg-type]
    )
    env.update(answers)
    return env
