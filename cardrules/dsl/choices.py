"""The proof of a file's ``choice:`` lines: each house rule a choice names must
read as a line of the language, make a valid game of the file, and change it.

A choice (:class:`~cardrules.rules.Choice`) states what a file chose where its
sources differ, and the one line that makes the other choice. The line's words
are read when the file is (a line that does not read is refused there); this
module plays the line against the whole file, as ``cardrules check`` does, so
that a page can never offer a house rule that does not exist or that changes
nothing.
"""

from __future__ import annotations

from cardrules.errors import VariantError
from cardrules.rules import Choice, Variant

from .parser import apply_settings, parse_file
from .syntax_errors import error_at

__all__ = ["changed_by", "check_choices"]


def changed_by(v: Variant, change: str) -> Variant:
    """``v`` with the house-rule line ``change`` made, and checked.

    Raises:
        VariantError: if the line does not read, or makes no valid game of ``v``.
    """
    from .validate import validate

    parsed = parse_file(change, path="<change>", require_game=False)
    changed = apply_settings(v, parsed.settings)
    validate(changed, sources={"<change>": parsed.text})
    return changed


def check_choices(v: Variant) -> None:
    """Check every choice of ``v`` whose house rule is given.

    Raises:
        VariantError: ``bad_choice``, at the choice's line, for a house rule
            that makes no valid game of ``v`` or plays as ``v`` does (its rules'
            fingerprint is unchanged).
    """
    from cardrules.engine.state.compiled_rules import variant_fingerprint

    if not any(c.change for c in v.choices):
        return
    before = variant_fingerprint(v)
    for c in v.choices:
        if not c.change:
            continue
        try:
            after = variant_fingerprint(changed_by(v, c.change))
        except VariantError as exc:
            message = f"the house rule {c.change!r} makes no valid game: {exc.message}"
            raise _refuse(v, c, message) from None
        if after == before:
            raise _refuse(v, c, f"the house rule {c.change!r} does not change the game")


def _refuse(v: Variant, c: Choice, message: str) -> VariantError:
    """The error for choice ``c`` of ``v``, at its line when known."""
    if c.pos is not None and v.source:
        return error_at(
            message,
            path=v.path or c.pos.path,
            text=v.source,
            line=c.pos.line,
            column=c.pos.column,
            expected="a house rule that changes this game",
            code="bad_choice",
        )
    return VariantError(
        f"{v.name}: choice {c.statement!r}: {message}",
        expected="a house rule that changes this game",
        code="bad_choice",
    )
