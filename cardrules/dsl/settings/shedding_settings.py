"""The settings of a shedding game: ``dead tricks``, ``all out together``,
``loser``, ``cuts on the first trick`` and ``take a hand from``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from cardrules.rules import (
    DeadTricks,
    EndWhenAllOut,
    LoserTie,
    Mode,
    SheddingRule,
    ShedLoser,
    TakeHand,
    Variant,
)

from .declaration import SettingSpec, changed
from .effect_checks import Context, NoOp, shedding_only
from .rendering import yes_no
from .statement import Setting, StatementBuilder, tokens, yes

__all__ = ["SHEDDING"]

_PLAIN: Final = SheddingRule()


def _dead_tricks(v: Variant) -> str:
    return v.shedding.dead_tricks.value


def _all_out(v: Variant) -> str:
    return v.shedding.all_out.value


def _loser(v: Variant) -> str:
    s = v.shedding
    if s.loser is ShedLoser.LAST_HOLDING:
        return str(s.loser.value)
    return f"{s.loser.value}, ties {s.loser_tie.value}"


_dead_tricks_only_shedding: Final = shedding_only(
    "dead tricks", lambda v: v.shedding.dead_tricks is not _PLAIN.dead_tricks
)


def _check_dead_tricks(c: Context) -> Iterator[NoOp]:
    v = c.v
    yield from _dead_tricks_only_shedding(c)
    if not c.tricks and v.shedding.dead_tricks is DeadTricks.FACE_DOWN and v.players.max <= 2:
        yield NoOp(
            "dead tricks",
            "`dead tricks: face down` has no effect with 2 players: both play to every "
            "dead trick, and see its cards",
            ("players",),
        )


_loser_only_shedding: Final = shedding_only(
    "loser",
    lambda v: (v.shedding.loser, v.shedding.loser_tie) != (_PLAIN.loser, _PLAIN.loser_tie),
)


def _check_loser(c: Context) -> Iterator[NoOp]:
    v = c.v
    yield from _loser_only_shedding(c)
    if not c.tricks and v.shedding.loser is ShedLoser.MOST_CARDS and v.players.max <= 2:
        yield NoOp(
            "loser",
            "`loser: most cards when the first goes out` has no effect with 2 players: "
            "when one goes out, the other is the last player holding cards",
            ("players",),
        )


# --------------------------------------------------------------------------- the parse


def _parse_dead_tricks(b: StatementBuilder, c: list[Any]) -> Setting:
    dead = DeadTricks.FACE_UP if c[2].type == "V_FACE_UP" else DeadTricks.FACE_DOWN
    return b.setting(c, ("shedding.dead_tricks", dead))


def _parse_all_out(b: StatementBuilder, c: list[Any]) -> Setting:
    out = EndWhenAllOut.NO_LOSER if c[2].type == "V_NO_LOSER" else EndWhenAllOut.LAST_LEADER
    return b.setting(c, ("shedding.all_out", out))


def _parse_loser(b: StatementBuilder, c: list[Any]) -> Setting:
    kinds = [t.type for t in tokens(c[2:])]
    if kinds[0] == "V_LAST_HOLDING":
        return b.setting(
            c,
            ("shedding.loser", ShedLoser.LAST_HOLDING),
            ("shedding.loser_tie", LoserTie.NO_LOSER),
        )
    tie = LoserTie.FIRST_IN_TURN if "V_FIRST_IN_TURN" in kinds else LoserTie.NO_LOSER
    return b.setting(c, ("shedding.loser", ShedLoser.MOST_CARDS), ("shedding.loser_tie", tie))


def _parse_first_trick_cuts(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("shedding.first_trick_cuts", yes(c[2])))


def _parse_take_hand(b: StatementBuilder, c: list[Any]) -> Setting:
    take = {
        "V_NONE": TakeHand.NONE,
        "V_NEXT_PLAYER_IN": TakeHand.NEXT,
        "V_PREVIOUS_PLAYER_IN": TakeHand.PREVIOUS,
    }[c[2].type]
    return b.setting(c, ("shedding.take_hand", take))


#: The shedding game's settings, in the canonical order of a formatted file.
SHEDDING: Final = (
    SettingSpec(
        "dead tricks",
        "K_DEAD_TRICKS",
        "dead_tricks",
        ("shedding.dead_tricks",),
        parse=_parse_dead_tricks,
        samples=("dead tricks: face down",),
        render=_dead_tricks,
        written=lambda v: v.mode is not Mode.TRICKS or changed(_dead_tricks, v),
        where="shedding games (`face down`: for more than 2 players)",
        check=_check_dead_tricks,
        page_rule="Dead tricks",
    ),
    SettingSpec(
        "all out together",
        "K_ALL_OUT",
        "all_out",
        ("shedding.all_out",),
        parse=_parse_all_out,
        samples=("all out together: last leader loses",),
        render=_all_out,
        written=lambda v: v.mode is not Mode.TRICKS or changed(_all_out, v),
        where="shedding games",
        check=shedding_only("all out together", lambda v: v.shedding.all_out is not _PLAIN.all_out),
        page_rule="Everyone out at once",
    ),
    SettingSpec(
        "loser",
        "K_LOSER",
        "loser",
        ("shedding.loser", "shedding.loser_tie"),
        parse=_parse_loser,
        samples=("loser: most cards when the first goes out, ties first in turn",),
        render=_loser,
        where="shedding games (`most cards ...`: for more than 2 players)",
        check=_check_loser,
        page_rule="Who loses",
    ),
    SettingSpec(
        "cuts on the first trick",
        "K_FIRST_TRICK_CUTS",
        "first_trick_cuts",
        ("shedding.first_trick_cuts",),
        parse=_parse_first_trick_cuts,
        samples=("cuts on the first trick: no",),
        render=lambda v: yes_no(v.shedding.first_trick_cuts),
        where="shedding games",
        check=shedding_only(
            "cuts on the first trick",
            lambda v: v.shedding.first_trick_cuts is not _PLAIN.first_trick_cuts,
        ),
        page_rule="Cuts on the first trick",
    ),
    SettingSpec(
        "take a hand from",
        "K_TAKE_HAND",
        "take_hand",
        ("shedding.take_hand",),
        parse=_parse_take_hand,
        samples=(
            "take a hand from: next player",
            "take a hand from: previous player",
        ),
        render=lambda v: v.shedding.take_hand.value,
        where="shedding games",
        check=shedding_only(
            "take a hand from", lambda v: v.shedding.take_hand is not _PLAIN.take_hand
        ),
        page_rule="Taking a hand",
        old_saves={"shedding.take_hand": TakeHand.NONE},
    ),
)
