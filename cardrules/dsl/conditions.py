"""Conditions on settings: ``hook: no when the hand has 1 card``.

Any setting line may end with a condition; the line then applies only when
the condition holds, and the unconditional line of the same setting (or its
default) applies otherwise. The conditions, in words:

==============================================  =============================
``for 3 players``, ``for 3 to 6 players``        the number of players
``when the hand has 1 card`` (``1 to 3 cards``)  the cards each player is dealt
``in the first hand``, ``in the last hand``      the first or the last hand
``in a tie-break hand``                          an extra hand to break a tie
==============================================  =============================

The suffix is read here, before the grammar reads the line, so that every
setting (and every setting added later) takes a condition without a word of
its own grammar; the line's value is then read by the setting's own rule. Two
settings already say "for N players" in their own words (``hand size: 10 for 3
to 5 players``, ``deck: standard without 2♦ for 3 players``): on those lines
the words stay the setting's.

A condition on the number of players is resolved once, when a game starts
(:meth:`Variant.for_players <cardrules.rules.Variant.for_players>`); a
condition on the hand selects the rules of each hand as it is dealt
(:meth:`Variant.for_hand <cardrules.rules.Variant.for_hand>`), and only the
settings of :data:`PER_HAND` may depend on the hand.
"""

from __future__ import annotations

import re
from typing import Final

from cardrules.rules import Condition, ConditionKind

from . import limits
from .settings.statement import Setting
from .syntax_errors import error_at

__all__ = [
    "NEVER_CONDITIONAL",
    "PER_HAND",
    "check_condition",
    "code_end",
    "condition_text",
    "condition_words",
    "split_conditions",
]

#: Settings that take no condition: the game's name and identity, what it
#: extends, its options and mode, the number of players itself, teams (which
#: fix the number of players), counters (which formulas name) and the cases of
#: the score (which name the hands, never change them).
NEVER_CONDITIONAL: Final = frozenset(
    {
        "game",
        "title",
        "also called",
        "summary",
        "extends",
        "options",
        "mode",
        "players",
        "teams",
        "counter",
        "case",
        "examples",
        "story",
        "tip",
        "choice",
    }
)

#: Settings that may depend on the hand (its size, first, last or tie-break):
#: the rules of one hand's trumps, bidding, play and score. Every other setting
#: shapes the whole game (the pack, the schedule, the end) and may depend on
#: the number of players only.
PER_HAND: Final = frozenset(
    {
        "trumps",
        "hook",
        "bids",
        "follow",
        "lead",
        "first trick",
        "broken by",
        "leading trumps",
        "score",
    }
)

#: Settings whose own words say "for N players": that suffix stays theirs.
_OWN_FOR_PLAYERS: Final = re.compile(r"(?i)^[ \t]*(hand[ \t]+size[ \t]*:|deck[ \t]*:.*without)")

# The match may start only where a run of blanks starts (the look-behind): a
# search over a long run of blanks then costs one pass, not one per blank.
_SUFFIX: Final = re.compile(
    r"""(?<![ \t])[ \t]+(?P<cond>
        when[ \t]+the[ \t]+hand[ \t]+has[ \t]+(?P<size>[0-9]+)
            (?:[ \t]+to[ \t]+(?P<size_hi>[0-9]+))?[ \t]+cards?
      | in[ \t]+the[ \t]+(?P<which>first|last)[ \t]+hand
      | in[ \t]+(?:a|the|each|every)[ \t]+tie-?break[ \t]+hands?
      | for[ \t]+(?P<n>[0-9]+)(?:[ \t]+to[ \t]+(?P<n_hi>[0-9]+))?[ \t]+players?
    )[ \t]*$""",
    re.I | re.X,
)

#: A setting line: its name before the colon (not a worked example's line).
_SETTING_LINE: Final = re.compile(r"^[ \t]*[A-Za-z][A-Za-z \t'-]*:")


def code_end(line: str) -> int:
    """Where a line's ``# comment`` starts (not a ``#`` inside quotes), or its length."""
    in_quotes = False
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and in_quotes:
            escaped = True
        elif ch == '"':
            in_quotes = not in_quotes
        elif ch == "#" and not in_quotes:
            return i
    return len(line)


def _number(digits: str, path: str, text: str, line: int, column: int, what: str) -> int:
    if len(digits) > 3 or not 1 <= int(digits) <= limits.MAX_PLAYERS:
        raise error_at(
            f"{digits[:12]} cannot be the number of {what} of a condition",
            path=path,
            text=text,
            line=line,
            column=column,
            expected=f"a number from 1 to {limits.MAX_PLAYERS}",
        )
    return int(digits)


def _condition(m: re.Match[str], path: str, text: str, line: int, start: int) -> Condition:
    """The condition a suffix says (numbers bounded before use)."""

    def num(group: str, what: str) -> int:
        return _number(m.group(group), path, text, line, start + m.start(group) + 1, what)

    if m.group("size") is not None:
        lo = num("size", "cards")
        hi = num("size_hi", "cards") if m.group("size_hi") else lo
        kind = ConditionKind.HAND_SIZE
    elif m.group("n") is not None:
        lo = num("n", "players")
        hi = num("n_hi", "players") if m.group("n_hi") else lo
        kind = ConditionKind.PLAYERS
    elif m.group("which") is not None:
        first = m.group("which").lower() == "first"
        return Condition(ConditionKind.FIRST if first else ConditionKind.LAST)
    else:
        return Condition(ConditionKind.TIE_BREAK)
    if hi < lo:
        raise error_at(
            f"{hi} is fewer than {lo}",
            path=path,
            text=text,
            line=line,
            column=start + m.start("cond") + 1,
            expected=f"{lo} or more",
        )
    return Condition(kind, lo, hi)


def split_conditions(text: str, path: str) -> tuple[str, dict[int, tuple[Condition, int]]]:
    """The text with every setting line's condition blanked out (the columns
    kept), and line number -> (its condition, the column it starts at).

    Raises:
        VariantError: for a condition whose number is out of bounds, at it.
    """
    found: dict[int, tuple[Condition, int]] = {}
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not _SETTING_LINE.match(line) or line.lstrip().lower().startswith("example"):
            continue
        end = code_end(line)
        m = _SUFFIX.search(line, 0, end)
        if m is None:
            continue
        if m.group("n") is not None and _OWN_FOR_PLAYERS.match(line, 0, end):
            continue
        start = m.start()
        found[i + 1] = (_condition(m, path, text, i + 1, start), m.start("cond") + 1)
        lines[i] = line[:start] + " " * (m.end() - start) + line[m.end() :]
    if len(found) > limits.MAX_CONDITIONS:
        at = sorted(found)[limits.MAX_CONDITIONS]
        raise error_at(
            f"the file has {len(found)} lines with a condition",
            path=path,
            text=text,
            line=at,
            column=found[at][1],
            expected=f"at most {limits.MAX_CONDITIONS}",
            code="variant_too_large",
        )
    return ("\n".join(lines), found) if found else (text, found)


def check_condition(s: Setting, column: int, text: str) -> None:
    """Refuse a condition on a setting that takes none, or a condition on the
    hand on a setting that depends on the number of players only.

    Raises:
        VariantError: at the condition.
    """
    cond = s.condition
    if cond is None:
        return
    where = {"path": s.pos.path, "text": text, "line": s.pos.line, "column": column}
    if s.key in NEVER_CONDITIONAL:
        raise error_at(
            f"`{s.key}:` cannot have a condition",
            hint="write the line without it",
            code="bad_condition",
            **where,  # type: ignore[arg-type]
        )
    if cond.per_hand and s.key not in PER_HAND:
        raise error_at(
            f"`{s.key}:` shapes the whole game, so it may depend on the number of players "
            "only, not on the hand",
            expected="`for N players` or `for N to M players`",
            hint="settings that may depend on the hand: " + ", ".join(sorted(PER_HAND)),
            code="bad_condition",
            **where,  # type: ignore[arg-type]
        )


def condition_text(cond: Condition) -> str:
    """A condition as the formatter writes it (after the line's value)."""
    k = cond.kind
    span = str(cond.lo) if cond.lo == cond.hi else f"{cond.lo} to {cond.hi}"
    if k is ConditionKind.PLAYERS:
        return f"for {span} players"
    if k is ConditionKind.HAND_SIZE:
        return f"when the hand has {span} card" + ("" if span == "1" else "s")
    if k is ConditionKind.FIRST:
        return "in the first hand"
    if k is ConditionKind.LAST:
        return "in the last hand"
    return "in a tie-break hand"


def condition_words(cond: Condition) -> str:
    """A condition as the rules page says it, to begin a sentence."""
    k = cond.kind
    if k is ConditionKind.PLAYERS:
        span = str(cond.lo) if cond.lo == cond.hi else f"{cond.lo} to {cond.hi}"
        return f"With {span} players"
    if k is ConditionKind.HAND_SIZE:
        if cond.lo == cond.hi:
            return f"In the {cond.lo}-card hands"
        return f"In the hands of {cond.lo} to {cond.hi} cards"
    if k is ConditionKind.FIRST:
        return "In the first hand"
    if k is ConditionKind.LAST:
        return "In the last hand"
    return "In a tie-break hand"
