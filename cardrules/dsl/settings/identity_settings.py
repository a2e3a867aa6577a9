"""The settings that name a game and say what kind it is: ``game``,
``extends``, ``title``, ``also called``, ``summary`` and ``mode``."""

from __future__ import annotations

import re
from typing import Any, Final

from lark import Token

from cardrules.rules import Mode, Variant

from .. import limits
from .declaration import SettingSpec, always
from .rendering import quote
from .statement import Setting, StatementBuilder, tokens

__all__ = ["IDENTITY"]

_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]*")


def _parent(v: Variant) -> str:
    """The game extended: a built-in's name as it is, a file's path quoted."""
    name = v.parent or ""
    return name if _NAME.fullmatch(name) else quote(name)


# --------------------------------------------------------------------------- the parse


def _parse_game(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    if len(tok) > limits.MAX_NAME_LENGTH:
        raise b.error(
            tok,
            "the game name is too long",
            expected=f"at most {limits.MAX_NAME_LENGTH} characters",
        )
    return b.setting(c, ("name", str(tok)))


def _parse_extends(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    if tok.type == "STRING":
        target = b.string(tok, "file name")
        if not target.strip():
            raise b.error(tok, "the file name is empty")
        return b.setting(c, ("parent", target), ("@path", True), ("examples", ()))
    # A file's examples prove its own rules: a parent's are not inherited.
    return b.setting(c, ("parent", str(tok)), ("@path", False), ("examples", ()))


def _parse_title(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("title", b.string(c[2], "title")))


def _parse_also_called(b: StatementBuilder, c: list[Any]) -> Setting:
    toks = [t for t in tokens(c[2:]) if t.type == "STRING"]
    names: list[str] = []
    for t in toks:
        name = b.string(t, "name")
        if name in names:
            raise b.error(t, f"{name!r} is listed twice")
        names.append(name)
    if len(names) > 50:
        raise b.error(toks[50], "too many other names", expected="at most 50")
    return b.setting(c, ("aliases", tuple(names)))


def _parse_summary(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("summary", b.string(c[2], "summary")))


def _parse_mode(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    return b.setting(c, ("mode", Mode.TRICKS if tok.type == "V_TRICKS" else Mode.SHEDDING))


#: The identity settings, in the canonical order of a formatted file.
IDENTITY: Final = (
    SettingSpec(
        "game",
        "K_GAME",
        "game",
        ("name",),
        parse=_parse_game,
        samples=("game: x",),
        render=lambda v: v.name,
        written=always,
    ),
    SettingSpec(
        "extends",
        "K_EXTENDS",
        "extends",
        ("parent",),
        parse=_parse_extends,
        samples=(
            "extends: oh-hell",
            'extends: "base.cardrules"',
        ),
        render=_parent,
        written=lambda v: v.parent is not None,
    ),
    SettingSpec(
        "title",
        "K_TITLE",
        "title",
        ("title",),
        parse=_parse_title,
        samples=('title: "X"',),
        render=lambda v: quote(v.title),
        written=lambda v: bool(v.title),
    ),
    SettingSpec(
        "also called",
        "K_ALSO_CALLED",
        "also_called",
        ("aliases",),
        parse=_parse_also_called,
        samples=('also called: "Y", "Z"',),
        render=lambda v: ", ".join(quote(a) for a in v.aliases),
        written=lambda v: bool(v.aliases),
    ),
    SettingSpec(
        "summary",
        "K_SUMMARY",
        "summary",
        ("summary",),
        parse=_parse_summary,
        samples=('summary: "S"',),
        render=lambda v: quote(v.summary),
        written=lambda v: bool(v.summary),
    ),
    SettingSpec(
        "mode",
        "K_MODE",
        "mode",
        ("mode",),
        parse=_parse_mode,
        samples=("mode: shedding",),
        render=lambda v: v.mode.value,
        written=always,
        page_rule="Kind of game",
    ),
)
