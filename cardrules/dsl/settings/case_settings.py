"""The cases of the score, named in the game's own words: ``case``.

::

    case "made": team_tricks >= team_bid; "The side took its bid."; shown "made {team_tricks}"

A line names one case: its label (quoted), its condition (a formula's
condition over the variables of a seat's hand), what it means (quoted, for
the rules page), then, each after a ``;``, how the recap names a hand in it
(``shown "..."`` with ``{formula}`` holes) and a worked example (``for
example bid 5, tricks 7``: the page works out its score). Presentation only:
the cases change no score and are left out of the fingerprint
(``presentation=True``).
"""

from __future__ import annotations

import re
from typing import Any, Final

from lark import Token

from cardrules.errors import VariantError
from cardrules.rules import ScoreCase, Variant
from cardrules.score_cases import (
    EXAMPLE_VARIABLES,
    MAX_HOLES,
    condition,
    condition_text,
    example_env,
    template_holes,
)
from cardrules.scoring import CARD_QUESTIONS, CONDITION, If, Taken, format_expr, parse_formula

from .declaration import SettingSpec
from .effect_checks import trick_setting
from .rendering import quote
from .statement import Setting, StatementBuilder

__all__ = ["CASES", "CASE_ERROR"]

#: The error code of a ``case`` line that is not valid.
CASE_ERROR: Final = "bad_score_case"
#: The longest label, recap text and explanation.
MAX_LABEL: Final = 40
MAX_SHOWN: Final = 120
MAX_MEANS: Final = 400
#: The most values a worked example gives.
MAX_EXAMPLE_VALUES: Final = 8
_STRING: Final = re.compile(r'"((?:[^"\\\n]|\\[^\n])*)"')
#: One value of a worked example: a variable (or a question about the cards
#: taken, ``took J♦``) and its value.
_EXAMPLE_ITEM: Final = re.compile(r"(\S.{0,79}?)[ \t]+(-?[0-9]{1,7}|yes|no)", re.I)


def _render_case(c: ScoreCase) -> str:
    parts = [condition_text(c), quote(c.means)]
    if c.shown:
        parts.append(f"shown {quote(c.shown)}")
    if c.example:
        items = ", ".join(
            f"{k} {('yes' if v else 'no') if isinstance(v, bool) else v}" for k, v in c.example
        )
        parts.append(f"for example {items}")
    return f"case {quote(c.label)}: " + "; ".join(parts)


def _cases(v: Variant) -> str:
    """Every case, one ``case "label": ...`` line each (the whole lines)."""
    return "\n".join(_render_case(c) for c in v.cases)


def _split(body: str) -> list[tuple[int, str]]:
    """The parts of a case's body between ``;`` outside quotes, each with its
    offset in ``body``, stripped."""
    parts: list[tuple[int, str]] = []
    start = 0
    quoted = escaped = False
    for i, ch in enumerate(body + ";"):
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            piece = body[start:i]
            lead = len(piece) - len(piece.lstrip())
            parts.append((start + lead, piece.strip()))
            start = i + 1
    return parts


class _CaseReader:
    """Reads one ``case`` line's body, raising errors with the code
    ``bad_score_case`` at their place in the file."""

    def __init__(self, b: StatementBuilder, tok: Token) -> None:
        self.b = b
        self.line = tok.line or 1
        self.column = tok.column or 1

    def error(self, offset: int, message: str, expected: str | None = None) -> VariantError:
        at = Token("TEXT", "", line=self.line, column=self.column + offset)
        err = self.b.error(at, message, expected=expected)
        err.code = CASE_ERROR
        return err

    def string(self, offset: int, text: str, what: str, most: int) -> str:
        m = _STRING.fullmatch(text)
        if m is None:
            raise self.error(offset, f"the {what} must be quoted", expected=f'"{what}"')
        value = m.group(1).replace('\\"', '"').replace("\\\\", "\\")
        if not value.strip():
            raise self.error(offset, f"the {what} is empty")
        if len(value) > most:
            raise self.error(
                offset, f"the {what} is too long", expected=f"at most {most} characters"
            )
        return value

    def formula_error(self, err: VariantError) -> VariantError:
        err.code = CASE_ERROR
        return err

    def when(self, offset: int, text: str) -> Any:
        if not text:
            raise self.error(
                offset, "the case has no condition", expected="a condition such as `tricks >= bid`"
            )
        lines = self.b.text.splitlines()
        try:
            when = condition(
                text,
                counters=self.b.counters,
                path=self.b.path,
                line=self.line,
                column=self.column + offset,
                source_line=lines[self.line - 1] if self.line <= len(lines) else text,
            )
        except VariantError as err:
            raise self.formula_error(err) from None
        return when

    def question(self, text: str) -> tuple[str, bool] | None:
        """An example's ``took J♦`` (a question about the cards taken, as a
        formula asks it): its canonical text and whether it is yes or no
        rather than a number; None when ``text`` is not one."""
        for read in (parse_formula, condition):  # a number (points of J♦), then yes or no
            try:
                expr = read(text).expr
            except VariantError:
                continue
            if isinstance(expr, If):  # ``if <question> then 1 else 0``
                expr = expr.cond
            if isinstance(expr, Taken):
                return format_expr(expr), CARD_QUESTIONS[expr.question] == CONDITION
        return None

    def shown(self, offset: int, text: str) -> str:
        value = self.string(offset + 5, text[5:].strip(), "recap text", MAX_SHOWN)
        holes = template_holes(value)
        if len(holes) > MAX_HOLES:
            raise self.error(
                offset, "the recap text has too many {holes}", expected=f"at most {MAX_HOLES}"
            )
        if value.count("{") != len(holes) or value.count("}") != len(holes):
            raise self.error(offset, "a { in the recap text is not closed by }, or a } not opened")
        for _, hole in holes:
            try:
                parse_formula(hole, counters=self.b.counters)
            except VariantError as err:
                raise self.error(
                    offset, f"the hole {{{hole}}} of the recap text is not a number: {err.message}"
                ) from None
        return value

    def example(self, offset: int, text: str) -> tuple[tuple[str, int | bool], ...]:
        body = text[len("for example") :].strip()
        items: list[tuple[str, int | bool]] = []
        known = {**EXAMPLE_VARIABLES, **{c: False for c in self.b.counters}}
        for piece in body.split(","):
            m = _EXAMPLE_ITEM.fullmatch(piece.strip())
            if m is None:
                raise self.error(
                    offset,
                    f"cannot read {piece.strip()!r} of the example",
                    expected="a variable and its value, such as `bid 5, tricks 7`",
                )
            name, raw = m.group(1).strip().lower(), m.group(2).lower()
            asked = None if name in known else self.question(m.group(1).strip())
            if asked is not None:
                name = asked[0]
                known[name] = asked[1]
            elif name not in known:
                hint = self.b.did_you_mean(name, known)
                raise self.error(
                    offset,
                    f"{name!r} is not a value an example may give" + (f" ({hint})" if hint else ""),
                    expected=self.b.join_words(sorted(known)),
                )
            if any(k == name for k, _ in items):
                raise self.error(offset, f"the example gives {name} twice")
            if known[name] != (raw in ("yes", "no")):
                raise self.error(offset, f"{name} is {'yes or no' if known[name] else 'a number'}")
            items.append((name, raw == "yes" if raw in ("yes", "no") else int(raw)))
        if len(items) > MAX_EXAMPLE_VALUES:
            raise self.error(
                offset,
                "the example gives too many values",
                expected=f"at most {MAX_EXAMPLE_VALUES}",
            )
        return tuple(items)


def _parse_case(b: StatementBuilder, c: list[Any]) -> Setting:
    label_tok: Token = c[1]
    label = b.string(label_tok, "case's name")
    r = _CaseReader(b, c[3])
    if not label.strip() or len(label) > MAX_LABEL or "{" in label:
        raise r.error(
            (label_tok.column or 1) - r.column,
            "a case's name is a few words",
            expected=f"1 to {MAX_LABEL} characters, without {{ }}",
        )
    parts = _split(str(c[3]).rstrip())
    if len(parts) < 2:
        raise r.error(
            len(str(c[3]).rstrip()),
            "a case says its condition, then what it means",
            expected='`; "what the case means"` after the condition',
        )
    when = r.when(*parts[0])
    means = r.string(*parts[1], "explanation", MAX_MEANS)
    shown = ""
    example: tuple[tuple[str, int | bool], ...] = ()
    for offset, part in parts[2:]:
        low = part.lower()
        if low.startswith("shown") and not shown:
            shown = r.shown(offset, part)
        elif low.startswith("for example") and not example:
            example = r.example(offset, part)
        else:
            raise r.error(
                offset,
                f"cannot read {part!r}",
                expected='`shown "..."` or `for example bid 5, tricks 7`, once each',
            )
    case = ScoreCase(label, when, means, shown, example)
    if example:
        env = example_env(case, cards=13, players=4, counters=b.counters)
        if not when.evaluate(env):
            raise r.error(
                parts[-1][0],
                f"the example is not a hand of the case {label!r}: its condition does not hold",
            )
    # "+": added to the cases so far (a case of the same label replaced).
    return b.setting(c, ("cases+", (case,)))


#: The cases' setting, in the canonical order of a formatted file.
CASES: Final = (
    SettingSpec(
        "case",
        "K_CASE",
        "score_case",
        ("cases",),
        parse=_parse_case,
        samples=(
            'case "made": tricks >= bid; "The player took at least the tricks bid."',
            'case "made": team_tricks >= team_bid; "The side took its bid."; '
            'shown "made {team_tricks} on {team_bid}"; for example bid 5, tricks 7',
        ),
        render=_cases,
        written=lambda v: bool(v.cases),
        where="trick-taking games (the cases name the hands a score formula scores)",
        check=trick_setting("case"),
        # Names hands, never a rule: no rule of the page holds it (the page's
        # scoring section reads the cases themselves).
        presentation=True,
    ),
)
