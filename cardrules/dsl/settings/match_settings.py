"""The settings of a match and of the table's options: ``match word``,
``take backs`` and ``options``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from cardrules.rules import Mode, TakeBacks, Variant

from .declaration import SettingSpec, changed
from .effect_checks import Context, NoOp, and_or

__all__ = ["MATCH", "MODE_SETTINGS"]


def _match_word(v: Variant) -> str:
    return v.match.word or "none"


#: Settings that change nothing in a game of the other mode (a trick-taking
#: game's bidding and scoring, a shedding game's ending), as options.
MODE_SETTINGS: Final = {
    Mode.SHEDDING: frozenset(
        {
            "trumps",
            "no trumps",
            "trump order",
            "bidding",
            "hook",
            "bids",
            "blind bids",
            "forehead hands",
            "bid changes",
            "team bids",
            "leading trumps",
            "card points",
            "score",
            "teams",
            "team score",
            "counter",
            "winner",
            "tie",
            "target",
            "knocked out",
        }
    ),
    Mode.TRICKS: frozenset(
        {
            "dead tricks",
            "all out together",
            "loser",
            "cuts on the first trick",
            "take a hand from",
            "leader out",
            "match word",
            "deal passes",
        }
    ),
}


def _check_options(c: Context) -> Iterator[NoOp]:
    v = c.v
    idle = [name for name in v.options if name in MODE_SETTINGS[v.mode]]
    if not idle:
        return
    game = "a trick-taking game" if c.tricks else "a shedding game"
    shown = and_or([f"`{name}`" for name in idle], "and")
    yield NoOp(
        "options",
        f"{shown} in `options` {'has' if len(idle) == 1 else 'have'} no effect: "
        f"no value of {'it' if len(idle) == 1 else 'them'} changes {game}",
        ("mode",),
        hint="take " + ("it" if len(idle) == 1 else "them") + " out of the line",
        part=True,
    )


#: The match's and the table's settings, in the canonical order of a formatted file.
MATCH: Final = (
    SettingSpec(
        "match word",
        "K_MATCH_WORD",
        "match_word",
        ("match.word",),
        render=_match_word,
        written=lambda v: v.mode is not Mode.TRICKS or changed(_match_word, v),
        page_rule="Match",
    ),
    SettingSpec(
        "take backs",
        "K_TAKE_BACKS",
        "take_backs",
        ("take_backs",),
        render=lambda v: v.take_backs.value,
        page_rule="Take-backs",
        old_saves={"take_backs": TakeBacks.NEVER},
    ),
    SettingSpec(
        "options",
        "K_OPTIONS",
        "options",
        ("options",),
        render=lambda v: ", ".join(v.options),
        written=lambda v: bool(v.options),
        where="each option: a setting the game's mode has",
        check=_check_options,
    ),
)
