"""The settings that name a game and say what kind it is: ``game``,
``extends``, ``title``, ``also called``, ``summary`` and ``mode``."""

from __future__ import annotations

import re
from typing import Final

from cardrules.rules import Variant

from .declaration import SettingSpec, always
from .rendering import quote

__all__ = ["IDENTITY"]

_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]*")


def _parent(v: Variant) -> str:
    """The game extended: a built-in's name as it is, a file's path quoted."""
    name = v.parent or ""
    return name if _NAME.fullmatch(name) else quote(name)


#: The identity settings, in the canonical order of a formatted file.
IDENTITY: Final = (
    SettingSpec("game", "K_GAME", "game", ("name",), render=lambda v: v.name, written=always),
    SettingSpec(
        "extends",
        "K_EXTENDS",
        "extends",
        ("parent",),
        render=_parent,
        written=lambda v: v.parent is not None,
    ),
    SettingSpec(
        "title",
        "K_TITLE",
        "title",
        ("title",),
        render=lambda v: quote(v.title),
        written=lambda v: bool(v.title),
    ),
    SettingSpec(
        "also called",
        "K_ALSO_CALLED",
        "also_called",
        ("aliases",),
        render=lambda v: ", ".join(quote(a) for a in v.aliases),
        written=lambda v: bool(v.aliases),
    ),
    SettingSpec(
        "summary",
        "K_SUMMARY",
        "summary",
        ("summary",),
        render=lambda v: quote(v.summary),
        written=lambda v: bool(v.summary),
    ),
    SettingSpec(
        "mode",
        "K_MODE",
        "mode",
        ("mode",),
        render=lambda v: v.mode.value,
        written=always,
        page_rule="Kind of game",
    ),
)
