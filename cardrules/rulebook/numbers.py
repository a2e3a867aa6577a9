"""Numbers as a rules page writes them."""

from __future__ import annotations

from fractions import Fraction

__all__ = ["format_points"]


def format_points(x: Fraction) -> str:
    """Points as a person writes them: ``12``, ``-3``, ``3.1`` or ``7/3``."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    sign = "-" if x < 0 else ""
    a = abs(x)
    whole, rest = divmod(a.numerator, a.denominator)
    digits = ""
    while rest:
        rest *= 10
        q, rest = divmod(rest, a.denominator)
        digits += str(q)
    return f"{sign}{whole}.{digits}"
