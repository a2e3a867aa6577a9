"""The settings of the score: ``card points``, ``score``, ``team score`` and
``counter``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token

from cardrules.cards import Card, Suit
from cardrules.errors import VariantError
from cardrules.rules import JOKERS_KIND, Counter, Variant, points_of_cards
from cardrules.scoring import FUNCTIONS, VARIABLES, format_formula

from .. import limits
from .declaration import SettingSpec
from .effect_checks import (
    Context,
    NoOp,
    formulas_of,
    point_variables_used,
    trick_setting,
)
from .statement import Setting, StatementBuilder

__all__ = ["SCORING"]


# ---- how each is written


def _card_points(v: Variant) -> str:
    """``hearts 1, Q♠ 13``: for each suit, the value most of its cards have
    (unless 0), then each card whose value differs from its suit's."""
    values = v.scoring.card_points
    kinds = v.scoring.kind_points
    if (
        len(values) not in ((0, 52, 54, 64) if kinds else (52, 54, 64))
        or any(type(x) is not int or abs(x) > limits.MAX_CARD_POINTS for x in values)
        or any(type(x) is not int or abs(x) > limits.MAX_CARD_POINTS for _, x in kinds)
    ):
        raise VariantError(
            "the card points must be 52 (or, with the jokers, 54; with special cards, 64) "
            f"whole numbers from {-limits.MAX_CARD_POINTS} to {limits.MAX_CARD_POINTS}, "
            "one for each card"
        )
    if not values:
        return ", ".join(f"{k} {x}" for k, x in kinds)
    suit_parts: list[str] = []
    card_parts: list[str] = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        row = values[13 * suit : 13 * suit + 13]
        # The most common value; on a tie, 0 (nothing to write), else the smallest.
        base = max(sorted(set(row)), key=lambda x: (row.count(x), x == 0))
        if base:
            suit_parts.append(f"{suit.name.lower()} {base}")
        for i in range(12, -1, -1):
            if row[i] != base:
                card_parts.append(f"{Card(13 * suit + i)} {row[i]}")
    for k in range(len(values) - 1, 51, -1):
        if values[k]:
            card_parts.append(f"{Card(k)} {values[k]}")
    kind_parts = [f"{k} {x}" for k, x in kinds]
    return ", ".join(suit_parts + kind_parts + card_parts)


def _score(v: Variant) -> str:
    f = v.scoring.formula
    return format_formula(f) if f is not None else ""


def _team_score(v: Variant) -> str:
    f = v.scoring.team_formula
    return "" if f is None else format_formula(f)


def _counters(v: Variant) -> str:
    """Every counter, one ``counter NAME: formula`` line each (the whole lines:
    the name is part of the key)."""
    return "\n".join(f"counter {c.name}: {format_formula(c.formula)}" for c in v.scoring.counters)


# ---- where each changes nothing


def _check_score(c: Context) -> Iterator[NoOp]:
    if not c.tricks and c.v.scoring.formula is not None:
        yield NoOp(
            "score",
            "shedding games are not scored with a formula: the last player with cards loses",
            ("mode",),
            hint="use `match word:` to play a match of several games",
            warning="`score` has no effect in a shedding game: nobody scores, the last "
            "player with cards loses",
        )


def _check_card_points(c: Context) -> Iterator[NoOp]:
    v = c.v
    values = points_of_cards(v)
    if not values:
        return
    if not c.tricks:
        yield NoOp(
            "card points",
            "`card points` has no effect in a shedding game: nobody scores, the last "
            "player with cards loses",
            ("mode",),
        )
        return
    if formulas_of(v) and not point_variables_used(v):
        yield NoOp(
            "card points",
            "the card points change nothing: no formula uses points, "
            "all_points, most_points, team_points or points of some cards",
            ("score",),
            hint="use `points` in the `score:` line, or delete this line",
        )
        return
    pack = v.deck.cards.mask
    if not any(x and pack >> k & 1 for k, x in enumerate(values)):
        yield NoOp(
            "card points",
            "no card of the pack carries points: every card given points is taken out",
            ("deck",),
        )


# --------------------------------------------------------------------------- the parse

#: Words of the formulas that cannot name a counter.
_FORMULA_WORDS: Final = frozenset(
    {"if", "then", "else", "and", "or", "not", "took", "anyone", "all", "any", "taken", "of"}
)


def _parse_card_points(b: StatementBuilder, c: list[Any]) -> Setting:
    items = [x for x in c[2:] if isinstance(x, tuple)]
    kinds: list[tuple[str, int]] = []
    for tok, cards, value in items:
        if not cards:  # a kind of special card, or the jokers (``wizards 10``)
            name = str(tok).strip().lower()
            name = JOKERS_KIND if name in ("joker", "jokers") else name
            if any(k == name for k, _ in kinds):
                raise b.error(tok, f"`{str(tok).strip()}` is given points twice")
            kinds.append((name, value))
    items = [it for it in items if it[1]]
    # 52 values; 54 when a joker is given points (cards 52 and 53), 64 when a
    # special card is (54-63, ``X1 10``).
    top = max((k for it in items for k in it[1]), default=0)
    values = [0] * (64 if top >= 54 else 54 if top >= 52 else 52)
    seen: set[str] = set()
    # Suits first, then cards: a card named on its own overrides its suit.
    for tok, cards, value in sorted(items, key=lambda it: len(it[1]) == 1):
        key = str(cards) if len(cards) > 1 else str(cards[0])
        if key in seen:
            raise b.error(tok, f"`{str(tok).strip()}` is given points twice")
        seen.add(key)
        for k in cards:
            values[k] = value
    if not any(values) and not any(x for _, x in kinds):
        raise b.error(
            c[2][0] if isinstance(c[2], tuple) else c[0],
            "these card points give no card any points",
            expected="a suit or a card with points other than 0, such as `hearts 1`",
        )
    return b.setting(
        c,
        ("scoring.card_points", tuple(values) if any(values) else ()),
        ("scoring.kind_points", tuple(kinds)),
    )


def _parse_score(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    return b.setting(c, ("scoring.formula", b.formula(tok)))


def _parse_team_score(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    return b.setting(c, ("scoring.team_formula", b.formula(tok)))


def _parse_counter(b: StatementBuilder, c: list[Any]) -> Setting:
    name_tok: Token = c[1]
    name = str(name_tok)
    if name != name.lower():
        raise b.error(name_tok, "a counter's name is written in lower case", expected=name.lower())
    if name in VARIABLES or name in FUNCTIONS or name in _FORMULA_WORDS:
        raise b.error(
            name_tok,
            f"{name!r} is already a word of the formulas, so it cannot name a counter",
            hint="choose another name, such as bags",
        )
    counter = Counter(name, b.formula(c[3]))
    # "+": added to the counters so far (a counter of the same name replaced).
    return b.setting(c, ("scoring.counters+", (counter,)))


#: The score's settings, in the canonical order of a formatted file.
SCORING: Final = (
    SettingSpec(
        "card points",
        "K_CARD_POINTS",
        "card_points",
        ("scoring.card_points", "scoring.kind_points"),
        parse=_parse_card_points,
        samples=(
            "card points: hearts 1, Q♠ 13",
            "card points: 10h -2",
            "card points: wizards 10, jesters -5",
            "card points: hearts 1, jokers 5",
        ),
        render=_card_points,
        written=lambda v: bool(v.scoring.card_points or v.scoring.kind_points),
        where="trick-taking games whose score uses points, all_points or most_points, with "
        "some card of the pack given points",
        check=_check_card_points,
        page_rule="Scoring",
        old_saves={"scoring.card_points": (), "scoring.kind_points": ()},
    ),
    SettingSpec(
        "score",
        "K_SCORE",
        "score",
        ("scoring.formula",),
        parse=_parse_score,
        samples=("score: if exact then 10 + bid else 0",),
        render=_score,
        written=lambda v: v.scoring.formula is not None,
        where="trick-taking games",
        check=_check_score,
        page_rule="Scoring",
    ),
    SettingSpec(
        "team score",
        "K_TEAM_SCORE",
        "team_score",
        ("scoring.team_formula",),
        parse=_parse_team_score,
        samples=("team score: max(tricks - 6, 0)",),
        render=_team_score,
        written=lambda v: v.scoring.team_formula is not None,
        where="trick-taking games",
        check=trick_setting("team score"),
        page_rule="Scoring",
        old_saves={"scoring.team_formula": None},
    ),
    SettingSpec(
        "counter",
        "K_COUNTER",
        "counter",
        ("scoring.counters",),
        parse=_parse_counter,
        samples=("counter bags: bags + max(tricks - bid, 0)",),
        render=_counters,
        written=lambda v: bool(v.scoring.counters),
        where="trick-taking games (a counter is shown on the score sheet, and formulas may "
        "read it)",
        check=trick_setting("counter"),
        page_rule="Scoring",
        old_saves={"scoring.counters": (), "scoring.formula.counters": ()},
    ),
)
