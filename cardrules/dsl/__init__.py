"""The variant language: read, check, resolve and write variant files.

* :func:`parse` reads one file's text on its own;
* :func:`load` / :func:`load_text` also follow ``extends`` (only inside the
  folders they are given) and apply option overrides;
* :func:`format` writes a variant back as canonical text;
* :func:`validate` runs the semantic checks.
"""

from __future__ import annotations

from cardrules.card_rules import CardChoice

from .formatter import format, format_source
from .loader import (
    EXTENSION,
    builtin_dir,
    builtin_names,
    load,
    load_text,
    parse_override,
)
from .parser import parse
from .validate import VariantWarning, check_warnings, validate

__all__ = [
    "EXTENSION",
    "VariantWarning",
    "builtin_dir",
    "builtin_names",
    "check_warnings",
    "format",
    "format_source",
    "load",
    "load_text",
    "parse",
    "parse_card_rule",
    "parse_override",
    "validate",
]


def parse_card_rule(text: str) -> CardChoice:
    """A card-set rule from its text, as a variant file writes it after ``follow:``
    or ``lead:``.

    Example:
        >>> str(parse_card_rule("suit led, otherwise trumps, otherwise any card"))
        'suit led, otherwise trumps, otherwise any card'

    Raises:
        VariantError: if ``text`` is not a card-set rule.
    """
    v = parse(f"game: x\nscore: tricks\nfollow: {text}\n", path="<card rule>", validate=False)
    return v.play.follow
