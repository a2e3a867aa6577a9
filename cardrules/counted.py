"""Counts in messages, in grammatical number: ``1 trick``, ``2 tricks``, ``3 players``.

The engine, the checker and the commands all write messages with counts in them;
this module, which imports nothing of the package, gives them one way to write a
count so that ``1 tricks`` and ``3 to 3 players`` cannot happen.
"""

from __future__ import annotations

__all__ = ["count_range", "counted"]


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the noun agreeing with it.

    Args:
        n: the count.
        word: the noun for one (``"trick"``).
        many: the noun for any other count, when it is not ``word + "s"``.

    Example:
        >>> counted(1, "trick"), counted(0, "trick"), counted(2, "copy", "copies")
        ('1 trick', '0 tricks', '2 copies')
    """
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def count_range(low: int, high: int, word: str, many: str | None = None) -> str:
    """A range of counts and its noun: ``3 to 5 players``, or ``3 players`` when
    ``low == high`` (never ``3 to 3 players``).

    Example:
        >>> count_range(3, 5, "player"), count_range(3, 3, "player"), count_range(1, 1, "card")
        ('3 to 5 players', '3 players', '1 card')
    """
    if low == high:
        return counted(low, word, many)
    return f"{low:,} to {high:,} {many or word + 's'}"
