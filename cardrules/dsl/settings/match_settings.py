"""The settings of a match and of the table's options: ``match word``,
``take backs`` and ``options``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token

from cardrules.rules import Mode, TakeBacks, Variant

from .. import limits
from .declaration import SettingSpec, changed
from .effect_checks import Context, NoOp, and_or
from .statement import Setting, StatementBuilder, tokens

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
            "case",
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


# --------------------------------------------------------------------------- the parse


def _parse_match_word(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    word = str(tok).upper()
    if word == "NONE":
        word = ""
    if len(word) > limits.MAX_WORD_LENGTH:
        raise b.error(
            tok,
            "the match word is too long",
            expected=f"at most {limits.MAX_WORD_LENGTH} letters",
        )
    return b.setting(c, ("match.word", word))


def _parse_take_backs(b: StatementBuilder, c: list[Any]) -> Setting:
    policy = {
        "V_NEVER": TakeBacks.NEVER,
        "V_UNTIL_NEXT_ACTS": TakeBacks.NEXT_ACTION,
        "V_UNTIL_TRICK_DONE": TakeBacks.TRICK,
        "V_BEFORE_HAND_ENDS": TakeBacks.HAND,
    }[c[2].type]
    return b.setting(c, ("take_backs", policy))


def _parse_options(b: StatementBuilder, c: list[Any]) -> Setting:
    toks = [t for t in tokens(c[2:]) if t.type == "OPTION"]
    names: list[str] = []
    if len(toks) == 1 and str(toks[0]).strip().lower() == "none":
        return b.setting(c, ("options", ()))
    if len(toks) > limits.MAX_OPTIONS:
        raise b.error(toks[limits.MAX_OPTIONS], "too many options")
    for t in toks:
        name = " ".join(str(t).replace("_", " ").lower().split())
        if name not in b.option_names:
            why = (
                f"{name!r} cannot be an option: it names the game"
                if name in b.setting_names
                else f"{name!r} is not a setting"
            )
            raise b.error(
                t,
                why,
                expected="settings such as " + b.join_words(b.option_names[:6]),
                hint=b.did_you_mean(name, b.option_names),
            )
        if name in names:
            raise b.error(t, f"{name!r} is listed twice")
        names.append(name)
    return b.setting(c, ("options", tuple(names)))


#: The match's and the table's settings, in the canonical order of a formatted file.
MATCH: Final = (
    SettingSpec(
        "match word",
        "K_MATCH_WORD",
        "match_word",
        ("match.word",),
        parse=_parse_match_word,
        samples=("match word: DONKEY",),
        render=_match_word,
        written=lambda v: v.mode is not Mode.TRICKS or changed(_match_word, v),
        page_rule="Match",
    ),
    SettingSpec(
        "take backs",
        "K_TAKE_BACKS",
        "take_backs",
        ("take_backs",),
        parse=_parse_take_backs,
        samples=(
            "take backs: never",
            "take backs: until the next player acts",
            "take backs: until the trick is complete",
            "take backs: before the hand ends",
        ),
        render=lambda v: v.take_backs.value,
        page_rule="Take-backs",
        old_saves={"take_backs": TakeBacks.NEVER},
    ),
    SettingSpec(
        "options",
        "K_OPTIONS",
        "options",
        ("options",),
        parse=_parse_options,
        samples=("options: hook, hand size",),
        render=lambda v: ", ".join(v.options),
        written=lambda v: bool(v.options),
        where="each option: a setting the game's mode has",
        check=_check_options,
    ),
)
