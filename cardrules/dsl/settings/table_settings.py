"""The settings of who sits at the table: ``players`` and ``teams``."""

from __future__ import annotations

from typing import Final

from cardrules.rules import Variant

from .declaration import SettingSpec, always
from .effect_checks import trick_setting

__all__ = ["TABLE"]


def _players(v: Variant) -> str:
    lo, hi = v.players.min, v.players.max
    return str(lo) if lo == hi else f"{lo} to {hi}"


#: The table's settings, in the canonical order of a formatted file.
TABLE: Final = (
    SettingSpec(
        "players",
        "PLAYERS",
        "players",
        ("players.min", "players.max"),
        render=_players,
        written=always,
        page_rule="Players",
    ),
    SettingSpec(
        "teams",
        "K_TEAMS",
        "teams",
        ("teams",),
        render=lambda v: ", ".join(" and ".join(str(s + 1) for s in team) for team in v.teams),
        written=lambda v: bool(v.teams),
        where="trick-taking games",
        check=trick_setting("teams"),
        page_rule="Partnerships",
        old_saves={"teams": ()},
    ),
)
