"""The settings that tell a game's story rather than its rules: ``story``,
``tip`` and ``choice``.

They are shown on the rules page and are never part of the rules: the fields
they fill take no part in a variant's equality nor in its fingerprint (as the
worked examples do not), so a built-in that gains a story keeps the fingerprint
of its saves. ``story:`` and ``tip:`` lines are inherited through ``extends``
(a house rule of Kachuful is still Kachuful) until the file writes its own,
which replace them all; ``choice:`` lines are not inherited: a house rule's file
changes its parent's choices, so it states its own.

``story:``, ``tip:`` and ``choice:`` may each be written several times; the
lines are kept in the order written.
"""

from __future__ import annotations

from typing import Any, Final

from cardrules.errors import VariantError
from cardrules.rules import Choice, Variant

from .declaration import SettingSpec
from .rendering import quote
from .statement import Setting, StatementBuilder, tokens

__all__ = [
    "LISTED_SETTINGS",
    "MAX_CHOICES",
    "MAX_SOURCES",
    "MAX_STORY_LINES",
    "MAX_TIPS",
    "NOT_A_CHANGE",
    "STORY",
]

#: The most ``story:`` lines a file may hold (a paragraph each).
MAX_STORY_LINES: Final = 8
#: The most ``tip:`` lines a file may hold.
MAX_TIPS: Final = 12
#: The most ``choice:`` lines a file may hold.
MAX_CHOICES: Final = 16
#: The most sources one choice may name.
MAX_SOURCES: Final = 4

#: The settings a file may write several times, each line adding to the
#: list it fills (within one file; a child's lines replace its parent's):
#: setting name -> (config field, the most lines a file may hold).
LISTED_SETTINGS: Final[dict[str, tuple[str, int]]] = {
    "story": ("story", MAX_STORY_LINES),
    "tip": ("tips", MAX_TIPS),
    "choice": ("choices", MAX_CHOICES),
}

#: Settings that a choice's ``change`` line may not be: they name or describe
#: the game, they change no rule.
NOT_A_CHANGE: Final = frozenset(
    {
        "game",
        "extends",
        "title",
        "also called",
        "summary",
        "story",
        "tip",
        "choice",
        "case",
        "options",
    }
)


# --------------------------------------------------------------------------- the parse


def _parse_story(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("story", (b.string(c[2], "story"),)))


def _parse_tip(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("tips", (b.string(c[2], "tip"),)))


def _parse_choice(b: StatementBuilder, c: list[Any]) -> Setting:
    toks = list(tokens(c[2:]))
    statement = b.string(toks[0], "choice")
    if not statement.strip():
        raise b.error(toks[0], "the choice is empty", expected="the choice, in one line")
    sources: list[str] = []
    change = ""
    kind = ""
    for tok in toks[1:]:
        if tok.type in ("V_SOURCE", "V_CHANGE"):
            kind = tok.type
            continue
        if kind == "V_SOURCE":
            if len(sources) == MAX_SOURCES:
                raise b.error(
                    tok, "too many sources for one choice", expected=f"at most {MAX_SOURCES}"
                )
            sources.append(b.string(tok, "source"))
        else:
            # Read as a line of the language by the parser, once the file is
            # read (cardrules.dsl.parser.check_changes_read).
            change = b.string(tok, "house rule")
            if not change.strip():
                at = b.pos(tok)
                raise VariantError(
                    "the house rule of the choice is empty",
                    path=b.path,
                    line=at.line,
                    column=at.column,
                    source_line=b.text.split("\n")[at.line - 1],
                    expected="one setting line, such as `hook: no`",
                    code="bad_choice",
                )
    return b.setting(c, ("choices", (Choice(statement, tuple(sources), change, b.pos(toks[0])),)))


# --------------------------------------------------------------------------- the text


def _render_story(v: Variant) -> str:
    return "\n".join(f"story: {quote(line)}" for line in v.story)


def _render_tips(v: Variant) -> str:
    return "\n".join(f"tip: {quote(line)}" for line in v.tips)


def choice_text(c: Choice) -> str:
    """The value of a ``choice:`` line (after the colon)."""
    parts = [quote(c.statement)]
    parts += [f"source {quote(s)}" for s in c.sources]
    if c.change:
        parts.append(f"change {quote(c.change)}")
    return ", ".join(parts)


def _render_choices(v: Variant) -> str:
    return "\n".join(f"choice: {choice_text(c)}" for c in v.choices)


#: The story settings, in the canonical order of a formatted file. Their
#: ``render`` writes whole lines (one a story paragraph, tip or choice).
STORY: Final = (
    SettingSpec(
        "story",
        "K_STORY",
        "story",
        ("story",),
        parse=_parse_story,
        samples=('story: "Named for its trump order."',),
        render=_render_story,
        written=lambda v: bool(v.story),
    ),
    SettingSpec(
        "tip",
        "K_TIP",
        "tip",
        ("tips",),
        parse=_parse_tip,
        samples=('tip: "Count the trumps."',),
        render=_render_tips,
        written=lambda v: bool(v.tips),
    ),
    SettingSpec(
        "choice",
        "K_CHOICE",
        "choice",
        ("choices",),
        parse=_parse_choice,
        samples=(
            'choice: "The dealer may not make the bids add up", source "Pagat", change "hook: no"',
            'choice: "Ties play another hand"',
        ),
        render=_render_choices,
        written=lambda v: bool(v.choices),
    ),
)
