"""JSON text from strangers, read within bounds: :func:`loads`.

``json.loads`` alone lets a few hundred bytes cost far more than they should:
text nested a few thousand levels deep raises ``RecursionError`` (or, nested a
little less, parses and then breaks whatever walks the result recursively, a
``repr`` or a ``json.dumps``); a number of 4,301 digits raises ``ValueError``,
and one of 4,300 parses and then raises wherever it is printed; ``NaN``,
``Infinity`` and ``1e999`` (which is ``inf``) are not JSON, yet are read; and
``"\\ud800"`` gives text with a lone surrogate, which cannot be written back out
as UTF-8. :func:`loads` checks the text for all of these BEFORE it is parsed
(the nesting and the numbers, from a scan of the text without its strings, in
linear time) or while it is parsed (the constants and the floats), and the text
it returns holds no lone surrogate.

Every refusal is a :class:`BadJSON` (a ``ValueError``) whose :attr:`~BadJSON.reason`
says which bound was broken. This module imports nothing of cardrules, so any
module may use it (:mod:`cardrules.errors` included); each caller turns a
refusal into its own error (``SaveError``, the server's ``bad_json``...).

Example:
    >>> loads('{"a": [1, 2.5, "x"]}')
    {'a': [1, 2.5, 'x']}
    >>> loads("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    cardrules.jsontext.BadJSON: nested 100 levels deep; at most 64
    >>> loads('{"n": NaN}')
    Traceback (most recent call last):
    ...
    cardrules.jsontext.BadJSON: NaN and Infinity are not JSON numbers
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any, Final

__all__ = ["MAX_DEPTH", "MAX_NUMBER", "BadJSON", "check_text", "describe", "loads"]

#: The deepest nesting of lists and objects :func:`loads` reads by default.
MAX_DEPTH: Final = 64
#: The most characters of one number :func:`loads` reads by default (a running
#: total of :data:`cardrules.scoring.MAX_TOTAL_DIGITS` digits fits).
MAX_NUMBER: Final = 320

# Bytes kept to measure the nesting: the brackets, "{" and "}" read as "[" and "]".
_BRACKETS: Final = bytes(range(256)).translate(None, b"[]{}")
_UNIFY: Final = bytes.maketrans(b"{}", b"[]")
# Every character that may be part of a number becomes "0", any other " ".
_NUMBERS: Final = bytes.maketrans(
    b"-+0123456789.eE" + bytes(c for c in range(256) if c not in b"-+0123456789.eE"),
    b"0" * 15 + b" " * 241,
)
# +1 for "[", -1 for "]": the running sum is the depth.
_STEP: Final = [0] * 256
_STEP[ord("[")], _STEP[ord("]")] = 1, -1


class BadJSON(ValueError):
    """JSON text that :func:`loads` refuses.

    Attributes:
        reason: which bound: ``"encoding"`` (not UTF-8), ``"size"``, ``"syntax"``
            (not JSON at all), ``"depth"``, ``"number"`` (too long, or not
            finite: ``NaN``, ``Infinity``, ``1e999``) or ``"surrogate"`` (text
            with a lone surrogate such as ``"\\ud800"``).
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def check_text(text: str, *, max_depth: int = MAX_DEPTH, max_number: int = MAX_NUMBER) -> None:
    """Check JSON text's nesting and numbers without parsing it (linear time).

    The strings are taken out first, so neither a bracket nor a digit inside a
    string counts. Text that is not JSON may pass
    (the parser refuses it then); text that is refused here would break a bound
    if it were parsed.

    Raises:
        BadJSON: nested deeper than ``max_depth`` (reason ``"depth"``), or a
            number longer than ``max_number`` characters, ``NaN`` or
            ``Infinity`` (reason ``"number"``).
    """
    # Without its escaped backslashes and quotes, a string is '"' to the next
    # '"': every other piece of the split is outside the strings.
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    bare = outside.encode("utf-8", "surrogatepass")
    brackets = bare.translate(_UNIFY, _BRACKETS)
    if len(brackets) > 2 * max_depth:
        # Each pass takes out the innermost pairs: the depth goes down by one,
        # and a few passes empty ordinary text. What is left, if anything, is
        # measured by its running sum.
        passes = 0
        while passes < 8:
            shorter = brackets.replace(b"[]", b"")
            if len(shorter) == len(brackets):
                break
            brackets = shorter
            passes += 1
        depth = passes + max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
        if depth > max_depth:
            raise BadJSON(f"nested {depth:,} levels deep; at most {max_depth}", "depth")
    if b"NaN" in bare or b"Infinity" in bare:
        raise BadJSON("NaN and Infinity are not JSON numbers", "number")
    if b"0" * (max_number + 1) in bare.translate(_NUMBERS):
        # Rare: where it is, for the message (the first such run in the text).
        m = re.search(f"(?<![-+0-9.eE])[-+0-9.eE]{{{max_number + 1}}}", text)
        where = "" if m is None else f" (after {text[max(0, m.start() - 24) : m.start()]!r})"
        raise BadJSON(f"a number longer than {max_number} characters{where}", "number")


def describe(x: object) -> str:
    """A short description of a value from a stranger, for a message: never a
    ``repr`` that recurses into a value nested thousands deep, never a
    4,000-digit number or a megabyte of text.

    Example:
        >>> describe([[[]]]), describe(10**5000), describe("x" * 100)
        ('a list of 1 items', 'an int of 16,610 bits', "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...'")
    """
    if type(x) is int and x.bit_length() > 64:
        return f"an int of {x.bit_length():,} bits"
    if isinstance(x, str):
        return repr(x) if len(x) <= 30 else repr(x[:27] + "...")
    if x is None or isinstance(x, bool | int | float):
        return repr(x)
    if isinstance(x, list | tuple):
        return f"a list of {len(x):,} items"
    if isinstance(x, dict):
        return "an object"
    return type(x).__name__


def _constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON number", "number")


def _finite(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise BadJSON(f"{text[:20]} is too large for a number", "number")
    return x


def _surrogate(value: Any) -> bool:
    """Whether a parsed value holds text with a lone surrogate (iterative)."""
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(x, dict):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def loads(
    text: str | bytes,
    *,
    max_bytes: int | None = None,
    max_depth: int = MAX_DEPTH,
    max_number: int = MAX_NUMBER,
) -> Any:
    """Parse JSON text from a stranger, within bounds.

    Args:
        text: the text, or its UTF-8 bytes.
        max_bytes: the most bytes of UTF-8 (``None``: no bound here; the caller
            bounds the size).
        max_depth: the deepest nesting of lists and objects.
        max_number: the most characters of one number.

    Returns:
        The parsed value: ints, finite floats, text without lone surrogates.

    Raises:
        BadJSON: naming the bound that was broken (its ``reason``).
    """
    if isinstance(text, bytes | bytearray | memoryview):
        raw = bytes(text)
        if max_bytes is not None and len(raw) > max_bytes:
            raise BadJSON(f"{len(raw):,} bytes; at most {max_bytes:,}", "size")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadJSON(f"not UTF-8 text: {e}", "encoding") from None
    elif max_bytes is not None and len(text) > max_bytes:
        raise BadJSON(f"{len(text):,} characters; at most {max_bytes:,} bytes", "size")
    elif not text.isascii():
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            raise BadJSON("text with a lone surrogate", "surrogate") from None
        if max_bytes is not None and size > max_bytes:
            raise BadJSON(f"{size:,} bytes; at most {max_bytes:,}", "size")
    check_text(text, max_depth=max_depth, max_number=max_number)
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_finite)
    except BadJSON:
        raise
    except (ValueError, RecursionError) as e:
        raise BadJSON(f"not JSON text: {str(e)[:120]}", "syntax") from None
    if "\\u" in text and _surrogate(value):
        raise BadJSON("text with a lone surrogate (such as \\ud800)", "surrogate")
    return value
