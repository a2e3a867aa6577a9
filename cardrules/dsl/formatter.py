"""Variant -> canonical variant file text.

:func:`format` writes a whole resolved variant, one setting a line in a fixed
order, then its worked examples, so that ``parse(format(v)) == v`` (and the
examples read back equal). Settings that do not apply to the
game's mode (bidding in a shedding game, dead tricks in a trick-taking game)
are written only when they differ from the defaults. How each setting is
written, and when, is declared with the setting (:mod:`cardrules.dsl.settings`).

:func:`format_source` tidies a file as written: each statement in its
canonical spelling, in the file's own order, with its comments kept. This is
what ``cardrules fmt`` does, so that a small house-rule file stays small.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Final

import attrs

from cardrules.cards import Card, CardSet, Suit
from cardrules.errors import VariantError
from cardrules.rules import (
    ConditionalSetting,
    Variant,
    apply_changes,
)

from .conditions import code_end, condition_text
from .example_syntax import Example, Expect, example_lines, symbol_names
from .loader import inherited_counters
from .parser import apply_settings, normalize_text, parse_file
from .settings.registry import BY_NAME, SETTINGS
from .settings.rendering import quote

__all__ = ["format", "format_example", "format_setting", "format_source", "quote", "to_dict"]


#: The settings whose declaration writes whole lines (one line a counter, a
#: story paragraph, a tip or a choice).
_WHOLE_LINES: Final = frozenset({"counter", "case", "story", "tip", "choice"})


def format_setting(v: Variant, key: str) -> str:
    """The line ``key: value`` for the setting ``key`` of ``v`` (for ``counter``,
    a ``counter NAME: formula`` line for each counter). The setting's
    declaration (:mod:`cardrules.dsl.settings`) writes its value."""
    render = BY_NAME[key].render
    if key in _WHOLE_LINES:
        return render(v)
    return f"{key}: {render(v)}"


def conditional_line(v: Variant, line: ConditionalSetting) -> str:
    """The text of a line with a condition, its value written as the setting
    writes it on ``v`` (``trumps: none when the hand has 1 card``)."""
    applied = apply_changes(v, line.changes)
    return f"{format_setting(applied, line.key)} {condition_text(line.condition)}"


def format(variant: Variant) -> str:
    """The canonical text of a variant: ``parse(format(v)) == v``.

    Raises:
        TypeError: if ``variant`` is not a :class:`~cardrules.rules.Variant`.
        VariantError: for a hand-built variant that no file could describe (a
            title with a newline in it, for example).
    """
    if not isinstance(variant, Variant):
        hint = " (to tidy variant text, use format_source)" if isinstance(variant, str) else ""
        raise TypeError(
            f"format() needs a Variant, as returned by cardrules.load or cardrules.parse, "
            f"got {type(variant).__name__}{hint}"
        )
    lines: list[str] = []
    plain = variant.evolve(conditional=())
    for s in SETTINGS:
        if s.is_written(variant):
            lines.append(format_setting(variant, s.name))
        lines += [
            conditional_line(plain, line) for line in variant.conditional if line.key == s.name
        ]
    names = variant.deck.card_names()
    for ex in variant.examples:
        lines.append("")
        lines += format_example(ex, names)
    return "\n".join(lines) + "\n"


def _writable(text: str, what: str) -> None:
    """Refuse words (an example's title or reason) that would not read back the same."""
    if (
        not text
        or text != text.strip()
        or "#" in text
        or any(ord(ch) < 32 or ord(ch) == 127 for ch in text)
    ):
        raise VariantError(
            f"the {what} {text[:60]!r} cannot be written in a variant file",
            expected="words on one line, without `#` or spaces at either end",
        )


def format_example(ex: Example, names: Mapping[int, str] | None = None) -> list[str]:
    """The canonical lines of one worked example (the ``example:`` line first,
    the others indented).

    Raises:
        VariantError: for a hand-built example whose title or reason no file
            could hold (a ``#``, a line break).
    """
    _writable(ex.title, "example's title")
    for step in ex.steps:
        if isinstance(step, Expect) and step.reason:
            _writable(step.reason, "reason")
    return [text for _, text in example_lines(ex, names)]


def format_source(text: str | bytes, *, path: str = "<string>") -> str:
    """Tidy a variant file as written: canonical spelling, same order, comments kept.

    Raises:
        VariantError: if the file does not parse.
    """
    text = normalize_text(text, path)
    pf = parse_file(text, path=path, counters=inherited_counters(text, path=path))
    by_line = {s.pos.line: s for s in pf.settings if s.key != "examples"}
    stated = {k: val for st in pf.settings for k, val in st.changes}
    names = symbol_names(stated.get("deck.specials", ()), stated.get("deck.symbols", ()))
    example_at = {
        pos.line: body
        for ex in pf.examples
        for pos, body in example_lines(ex, names)
        if pos is not None
    }
    base = Variant(name=pf.name or "x")
    out: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        setting = by_line.get(number)
        if number in example_at:
            # Example lines hold no quoted text: a comment starts at the first `#`.
            at = line.find("#")
            comment = line[at:].rstrip() if at >= 0 else ""
            out.append(example_at[number] + (f"  {comment}" if comment else ""))
            continue
        if setting is None:
            stripped = line.strip()
            if not stripped:
                if out and out[-1] != "":
                    out.append("")
            else:
                out.append(stripped)
            continue
        if setting.key == "extends":
            target = str(setting.changes[0][1])
            is_path = bool(dict(setting.changes).get("@path"))
            body = f"extends: {quote(target) if is_path else target}"
        elif setting.condition is not None:
            line_of = ConditionalSetting(setting.key, setting.condition, setting.changes)
            body = conditional_line(base, line_of)
        else:
            body = format_setting(apply_settings(base, [setting]), setting.key)
        comment = _trailing_comment(line, setting.key)
        out.append(body + (f"  {comment}" if comment else ""))
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _trailing_comment(line: str, key: str) -> str:
    """The ``# comment`` at the end of a statement line, if any (not one inside quotes)."""
    return line[code_end(line) :].rstrip()


def to_dict(variant: Variant) -> dict[str, Any]:
    """A variant as plain JSON-ready data: enums as their text, suits by name,
    cards as ``A♠``, the score formula as its text, removed cards listed.

    Source positions, the source text, the path and the worked examples (which
    are not rules: see :attr:`~cardrules.rules.Variant.examples`) are left out.
    """
    from cardrules.scoring import Formula

    def value(_inst: object, _field: attrs.Attribute[Any] | None, v: Any) -> Any:
        if isinstance(v, Formula):
            return v.text
        if isinstance(v, Suit):
            return v.word
        if isinstance(v, Card):
            return str(v)
        if isinstance(v, Enum):
            return v.value
        return v

    def keep(attribute: attrs.Attribute[Any], _v: Any) -> bool:
        return bool(attribute.eq)

    data: dict[str, Any] = attrs.asdict(variant, filter=keep, value_serializer=value)
    data["deck"]["removed_cards"] = [str(c) for c in CardSet(variant.deck.removed)]
    data["deck"]["size"] = variant.deck.size
    return data
