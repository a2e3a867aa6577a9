"""The sections of a rules page that are not rules: the game's story, tips for
a first game, and the choices the page makes where its sources differ.

They come from a file's ``story:``, ``tip:`` and ``choice:`` lines
(:mod:`cardrules.dsl.settings.story_settings`). A story or tips inherited
through ``extends`` are shown under the name of the game whose file wrote
them ("The story of Kachuful" on the page of a Kachuful house rule), so a page
never tells another game's story as its own. Every word from the file is
escaped (:mod:`cardrules.rulebook.safe`).
"""

from __future__ import annotations

from collections.abc import Callable

from cardrules.rules import Choice, Variant

from .safe import md_code, md_line, md_text, plain

__all__ = ["choices_section", "story_section", "tips_section"]

#: How many files up an ``extends`` chain the page looks for the game that
#: wrote an inherited story (as deep as a chain may be).
_MAX_ANCESTORS = 8

#: The title of the box of choices.
CHOICES_HEADING = "Choices this page makes"


def _writer(
    v: Variant,
    key: str,
    parent: Variant | None,
    load_parent: Callable[[Variant], Variant | None],
) -> Variant:
    """The variant whose file wrote ``v``'s ``key:`` lines (``v`` itself, or
    the ancestor they are inherited from; ``v`` when that cannot be found)."""
    here: Variant | None = v
    for depth in range(_MAX_ANCESTORS + 1):
        if here is None:
            break
        pos = here.position(key)
        if pos is None or not here.path or pos.path == here.path:
            return here
        here = parent if depth == 0 and parent is not None else load_parent(here)
    return v


def _name(v: Variant) -> str:
    return md_text(v.title or v.name)


def story_section(
    v: Variant, parent: Variant | None, load_parent: Callable[[Variant], Variant | None]
) -> list[str]:
    """The game's story, a paragraph a ``story:`` line (empty without one)."""
    lines = [plain(s) for s in v.story if plain(s)]
    if not lines:
        return []
    writer = _writer(v, "story", parent, load_parent)
    heading = "About the game" if writer is v else f"About {_name(writer)}"
    out = [f"## {heading}", ""]
    for line in lines:
        out += [md_line(line), ""]
    return out


def tips_section(
    v: Variant, parent: Variant | None, load_parent: Callable[[Variant], Variant | None]
) -> list[str]:
    """Tips for a first game, a bullet a ``tip:`` line (empty without one)."""
    tips = [plain(t) for t in v.tips if plain(t)]
    if not tips:
        return []
    writer = _writer(v, "tip", parent, load_parent)
    heading = "Tips for a first game"
    if writer is not v:
        heading += f" of {_name(writer)}"
    return [f"## {heading}", "", *(f"- {md_text(t)}" for t in tips), ""]


def _choice_item(c: Choice) -> str:
    """One choice as a list item of the box: the choice, its sources, the house rule."""
    text = f"- **{md_text(plain(c.statement).rstrip('.'))}.**"
    sources = [plain(s).rstrip(".") for s in c.sources if plain(s)]
    if sources:
        text += " The sources: " + "; ".join(md_text(s) for s in sources) + "."
    if c.change:
        text += f" The other way, as a house rule: {md_code(c.change)}."
    else:
        text += " No line of the variant language says the other way yet."
    return text


def choices_section(v: Variant) -> list[str]:
    """The box of the choices the page makes where its sources differ, each with
    what the sources say and the one-line house rule that changes it (empty for
    a file without ``choice:`` lines)."""
    if not v.choices:
        return []
    out = [
        f"## {CHOICES_HEADING}",
        "",
        '!!! note "Where the sources differ"',
        "",
        "    The rules on this page follow one of the ways the game is played. Where the "
        "sources differ, these are the ways this page takes; to play another way, add "
        "its house-rule line to a file that extends this game.",
        "",
    ]
    out += [f"    {_choice_item(c)}" for c in v.choices]
    return [*out, ""]
