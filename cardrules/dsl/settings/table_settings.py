"""The settings of who sits at the table: ``players`` and ``teams``."""

from __future__ import annotations

from typing import Any, Final

from lark import Token

from cardrules.rules import PlayerRange, Variant

from .. import limits
from .declaration import SettingSpec, always
from .effect_checks import trick_setting
from .statement import Setting, StatementBuilder, tokens

__all__ = ["TABLE"]


def _players(v: Variant) -> str:
    lo, hi = v.players.min, v.players.max
    return str(lo) if lo == hi else f"{lo} to {hi}"


# --------------------------------------------------------------------------- the parse


def _parse_players(b: StatementBuilder, c: list[Any]) -> Setting:
    nums = [t for t in tokens(c[2:]) if t.type == "INT"]
    lo = b.number(nums[0], 0, limits.MAX_PLAYERS, "players", shown_lo=2)
    hi = b.number(nums[-1], 0, limits.MAX_PLAYERS, "players", shown_lo=2)
    if lo < 2:
        raise b.error(nums[0], "a game needs at least 2 players", expected="2 or more")
    if hi < lo:
        raise b.error(
            nums[-1],
            f"the most players ({hi}) is fewer than the fewest ({lo})",
            expected=f"a number from {lo} to {limits.MAX_PLAYERS}",
        )
    return b.setting(c, ("players", PlayerRange(lo, hi)))


def _parse_teams(b: StatementBuilder, c: list[Any]) -> Setting:
    items: list[tuple[Token, tuple[int, ...]]] = [x for x in c[2:] if isinstance(x, tuple)]
    seen: set[int] = set()
    for tok, seats in items:
        for s in seats:
            if s in seen:
                raise b.error(
                    tok,
                    f"seat {s + 1} is in two teams, or twice in one",
                    hint="name every seat once, as in `teams: 1 and 3, 2 and 4`",
                )
            seen.add(s)
    n = len(seen)
    missing = sorted(set(range(n)) - seen)
    if missing:
        raise b.error(
            items[0][0],
            f"the teams name {n} seats but not seat {missing[0] + 1}",
            expected=f"every seat from 1 to {n} in exactly one team",
        )
    teams = tuple(sorted(tuple(sorted(seats)) for _, seats in items))
    return b.setting(c, ("teams", teams))


#: The table's settings, in the canonical order of a formatted file.
TABLE: Final = (
    SettingSpec(
        "players",
        "PLAYERS",
        "players",
        ("players.min", "players.max"),
        parse=_parse_players,
        samples=("players: 3 to 7",),
        render=_players,
        written=always,
        page_rule="Players",
    ),
    SettingSpec(
        "teams",
        "K_TEAMS",
        "teams",
        ("teams",),
        parse=_parse_teams,
        samples=(
            "teams: 1 and 3, 2 and 4",
            "teams: 1 and 4, 2 and 5, 3 and 6",
        ),
        render=lambda v: ", ".join(" and ".join(str(s + 1) for s in team) for team in v.teams),
        written=lambda v: bool(v.teams),
        where="trick-taking games",
        check=trick_setting("teams"),
        page_rule="Partnerships",
        old_saves={"teams": ()},
    ),
)
