"""Small helpers the settings' render functions share: how a variant file
writes quoted text, yes/no and ordinals."""

from __future__ import annotations

from typing import Final

from cardrules.errors import VariantError

__all__ = ["ordinal", "quote", "yes_no"]


def quote(text: str) -> str:
    """``text`` in double quotes, with ``\\`` and ``"`` escaped.

    Raises:
        VariantError: if ``text`` holds a control character (no line can hold it).
    """
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise VariantError(f"{text!r} holds a control character and cannot be written")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ordinal(n: int) -> str:
    """``2nd``, ``5th``, ``11th``, ``21st``: as a ``no trumps:`` line writes it."""
    suffix = "th" if n % 100 in (11, 12, 13) else _SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"


_SUFFIXES: Final = {1: "st", 2: "nd", 3: "rd"}


def yes_no(flag: bool) -> str:
    """``yes`` or ``no``, as a variant file writes a switch."""
    return "yes" if flag else "no"
