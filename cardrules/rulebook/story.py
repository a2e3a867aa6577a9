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

import re
from collections.abc import Callable

from cardrules.errors import VariantError
from cardrules.rules import BidStyle, Choice, Variant
from cardrules.scoring import Formula

from .formula import formula_sentence
from .hand_trumps import has_trumps
from .safe import md_line, md_text, plain

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


def _missing(v: Variant, text: str) -> bool:
    """Whether ``text`` speaks of a feature ``v`` does not have: bids, the hook,
    blind bids, trumps or partners."""
    low = text.lower()
    in_turn = v.has_bidding and v.bidding.style is BidStyle.IN_TURN
    checks = (
        (not v.has_bidding, r"\bbid|\bcall|\bnil\b|blind|hook"),
        (not (in_turn and v.bidding.hook), r"hook"),
        (not (v.has_bidding and v.bidding.blind), r"blind"),
        (not v.teams, r"\bpartner"),
    )
    if any(absent and re.search(pattern, low) for absent, pattern in checks):
        return True
    if re.search(r"trump", re.sub(r"\b(no|without) trumps\b", "", low)):
        return not has_trumps(v)
    return False


def _shown(v: Variant, writer: Variant, lines: tuple[str, ...]) -> list[str]:
    """The lines of a story or tips the page shows: all of a file's own; of
    inherited ones, those that speak of nothing the game lacks (Oh Hell's
    words on the hook are not for a house rule without it)."""
    out = [plain(x) for x in lines if plain(x)]
    return out if writer is v else [x for x in out if not _missing(v, x)]


def _name(v: Variant) -> str:
    return md_text(v.title or v.name)


def story_section(
    v: Variant, parent: Variant | None, load_parent: Callable[[Variant], Variant | None]
) -> list[str]:
    """The game's story, a paragraph a ``story:`` line (empty without one)."""
    if not v.story:
        return []
    writer = _writer(v, "story", parent, load_parent)
    lines = _shown(v, writer, v.story)
    if not lines:
        return []
    heading = "About the game" if writer is v else f"About {_name(writer)}"
    out = [f"## {heading}", ""]
    for line in lines:
        out += [md_line(line), ""]
    return out


def tips_section(
    v: Variant, parent: Variant | None, load_parent: Callable[[Variant], Variant | None]
) -> list[str]:
    """Tips for a first game, a bullet a ``tip:`` line (empty without one)."""
    if not v.tips:
        return []
    writer = _writer(v, "tip", parent, load_parent)
    tips = _shown(v, writer, v.tips)
    if not tips:
        return []
    heading = "Tips for a first game"
    if writer is not v:
        heading += f" of {_name(writer)}"
    return [f"## {heading}", "", *(f"- {md_text(t)}" for t in tips), ""]


def _house_rule_words(change: str) -> str:
    """The sentence that gives a choice's house rule: its line in quotes, or for a
    scoring formula, the formula in words (a page shows no formula in its prose;
    the line itself is in the variant file at the bottom of the page)."""
    from cardrules.dsl.parser import parse_file

    lead = "To play it the other way, a house rule"
    try:
        settings = parse_file(change, path="<change>", require_game=False).settings
    except VariantError:
        settings = ()
    formulas = [x for s in settings for _, x in s.changes if isinstance(x, Formula)]
    if formulas:
        return f"{lead} scores it so: {md_text(_lower_first(formula_sentence(formulas[0])))}"
    return f"{lead} adds the line “{md_text(change)}”."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _choice_item(c: Choice) -> str:
    """One choice as a list item of the box: the choice, its sources, the house rule."""
    text = f"- **{md_text(plain(c.statement).rstrip('.'))}.**"
    sources = [plain(s).rstrip(".") for s in c.sources if plain(s)]
    if sources:
        text += " Sources: " + "; ".join(md_text(s) for s in sources) + "."
    if c.change:
        text += f" {_house_rule_words(c.change)}"
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
        "sources differ, these are the ways this page takes. To play another way, write "
        "a small file that extends this game with the house rule's line (see Variations).",
        "",
    ]
    out += [f"    {_choice_item(c)}" for c in v.choices]
    return [*out, ""]
