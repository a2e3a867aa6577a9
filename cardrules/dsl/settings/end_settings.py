"""The settings of how a game ends and who wins: ``winner``, ``tie``,
``target`` and ``knocked out``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import attrs
from lark import Token

from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    Mode,
    ScoringRule,
    TieBreak,
    TrumpNamer,
    Variant,
    WinRule,
)

from .. import limits
from .declaration import SettingSpec, changed
from .effect_checks import Context, NoOp, schedule_length, trick_game_only
from .statement import Setting, StatementBuilder, tokens

__all__ = ["END"]


# ---- how each is written


def _winner(v: Variant) -> str:
    if v.winning.last_one_in:
        return "last one in"
    return "highest total" if v.scoring.higher_wins else "lowest total"


def _tie(v: Variant) -> str:
    w = v.winning
    if w.tie is TieBreak.SHARED:
        return "shared"
    most = w.max_extra_hands
    return "extra hands" + (f", at most {most}" if most is not None else "")


def _knocked_out(v: Variant) -> str:
    below = v.winning.knockout_below
    return "no tricks" if below == 1 else f"fewer than {below} tricks"


# ---- where each changes nothing


def _check_target(c: Context) -> Iterator[NoOp]:
    v = c.v
    if v.winning.target is None:
        return
    if not c.tricks:
        yield NoOp(
            "target",
            "`target` has no effect in a shedding game: nobody scores, the last player "
            "with cards loses",
            ("mode",),
        )
    elif all(schedule_length(v.schedule, n, v.deck.size) <= 1 for n in v.players.counts()):
        yield NoOp(
            "target",
            "`target` has no effect in a game of one hand: it ends after that hand anyway",
            ("hands",),
            hint="give `hands:` more hands, or delete the line",
        )
    elif v.winning.target_by_declarer and v.trumps.namer is not TrumpNamer.HIGHEST_BIDDER:
        yield NoOp(
            "target",
            "`reached by the declarer only` has no effect: nobody declares (a declarer "
            "is the highest bidder, `trumps: named by the highest bidder`)",
            ("trumps",),
            part=True,
        )


def _check_knocked_out(c: Context) -> Iterator[NoOp]:
    v = c.v
    below = v.winning.knockout_below
    if not below:
        return
    if not c.tricks:
        yield NoOp(
            "knocked out",
            "`knocked out` has no effect in a shedding game: players go out by shedding "
            "their cards",
            ("mode",),
        )
        return
    largest = max(max(v.hand_sizes(n)) for n in v.players.counts())
    if below > largest:
        yield NoOp(
            "knocked out",
            f"nobody is ever knocked out: no hand has {below} or more tricks, and when "
            "every player still in would be knocked out, nobody is",
            ("hands",),
            hint="name fewer tricks, or delete the line",
        )


def _winner_changed(v: Variant) -> bool:
    return v.scoring.higher_wins is not ScoringRule().higher_wins or v.winning.last_one_in


def _tie_changed(v: Variant) -> bool:
    plain = attrs.evolve(v.winning, target=None, knockout_below=0, last_one_in=False)
    return plain != WinRule()


# --------------------------------------------------------------------------- the parse


def _parse_winner(b: StatementBuilder, c: list[Any]) -> Setting:
    kind = c[2].type
    return b.setting(
        c,
        ("scoring.higher_wins", kind != "V_LOWEST_TOTAL"),
        ("winning.last_one_in", kind == "V_LAST_ONE_IN"),
    )


def _parse_tie(b: StatementBuilder, c: list[Any]) -> Setting:
    if c[2].type == "V_SHARED":
        return b.setting(c, ("winning.tie", TieBreak.SHARED), ("winning.max_extra_hands", None))
    most: int | None = None
    if len(c) > 3:
        most = b.number(c[-1], 1, MAX_SCHEDULE_HANDS, "extra hands")
    return b.setting(c, ("winning.tie", TieBreak.EXTRA_HANDS), ("winning.max_extra_hands", most))


def _parse_target(b: StatementBuilder, c: list[Any]) -> Setting:
    most = limits.MAX_TARGET
    by_declarer = any(t.type == "V_BY_DECLARER" for t in tokens(c[3:]))
    return b.setting(
        c,
        ("winning.target", b.number(c[2], 1, most, "a target")),
        ("winning.target_by_declarer", by_declarer),
    )


def _parse_lose_at(b: StatementBuilder, c: list[Any]) -> Setting:
    tok = c[2]
    digits = Token.new_borrow_pos("INT", str(tok)[1:], tok)
    depth = b.number(digits, 1, limits.MAX_TARGET, "a total to lose at")
    return b.setting(c, ("winning.lose_at", -depth))


def _check_lose_at(c: Context) -> Iterator[NoOp]:
    v = c.v
    if v.winning.lose_at is None:
        return
    if not c.tricks:
        yield NoOp(
            "lose at",
            "`lose at` has no effect in a shedding game: nobody scores",
            ("mode",),
        )
    elif all(schedule_length(v.schedule, n, v.deck.size) <= 1 for n in v.players.counts()):
        yield NoOp(
            "lose at",
            "`lose at` has no effect in a game of one hand: it ends after that hand anyway",
            ("hands",),
        )


def _parse_knocked_out(b: StatementBuilder, c: list[Any]) -> Setting:
    if c[2].type == "V_NO_TRICKS":
        return b.setting(c, ("winning.knockout_below", 1))
    most = limits.MAX_KNOCKOUT_TRICKS
    return b.setting(c, ("winning.knockout_below", b.number(c[3], 1, most, "a number of tricks")))


#: The ending's settings, in the canonical order of a formatted file.
END: Final = (
    SettingSpec(
        "winner",
        "K_WINNER",
        "winner",
        ("scoring.higher_wins", "winning.last_one_in"),
        parse=_parse_winner,
        samples=(
            "winner: lowest total",
            "winner: last one in",
        ),
        render=_winner,
        written=lambda v: v.mode is Mode.TRICKS or changed(_winner, v),
        where="trick-taking games (`last one in`: with `knocked out`)",
        check=trick_game_only("winner", _winner_changed),
        page_rule="Scoring",
        page_rule_of={"winning.last_one_in": "Knock-out"},
        old_saves={"winning.last_one_in": False},
    ),
    SettingSpec(
        "tie",
        "K_TIE",
        "tie",
        ("winning.tie", "winning.max_extra_hands"),
        parse=_parse_tie,
        samples=(
            "tie: extra hands, at most 3",
            "tie: shared",
        ),
        render=_tie,
        written=lambda v: v.mode is Mode.TRICKS or changed(_tie, v),
        where="trick-taking games",
        check=trick_game_only("tie", _tie_changed),
        page_rule="Ties",
    ),
    SettingSpec(
        "target",
        "K_TARGET",
        "target",
        ("winning.target", "winning.target_by_declarer"),
        parse=_parse_target,
        samples=(
            "target: 100 points",
            "target: 5",
            "target: 500 points, reached by the declarer only",
        ),
        render=lambda v: (
            f"{v.winning.target} points"
            + (", reached by the declarer only" if v.winning.target_by_declarer else "")
        ),
        written=lambda v: v.winning.target is not None,
        where="trick-taking games of more than one hand",
        check=_check_target,
        page_rule="Scoring",
        old_saves={"winning.target": None, "winning.target_by_declarer": False},
    ),
    SettingSpec(
        "lose at",
        "K_LOSE_AT",
        "lose_at",
        ("winning.lose_at",),
        parse=_parse_lose_at,
        samples=("lose at: -7 points",),
        render=lambda v: f"{v.winning.lose_at} points",
        written=lambda v: v.winning.lose_at is not None,
        where="trick-taking games of more than one hand",
        check=_check_lose_at,
        page_rule="Scoring",
        old_saves={"winning.lose_at": None},
    ),
    SettingSpec(
        "knocked out",
        "K_KNOCKED_OUT",
        "knocked_out",
        ("winning.knockout_below",),
        parse=_parse_knocked_out,
        samples=(
            "knocked out: no tricks",
            "knocked out: fewer than 2 tricks",
        ),
        render=_knocked_out,
        written=lambda v: v.winning.knockout_below > 0,
        where="trick-taking games with a hand of at least that many tricks",
        check=_check_knocked_out,
        page_rule="Knock-out",
        old_saves={"winning.knockout_below": 0},
    ),
)
