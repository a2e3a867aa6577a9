"""The terminal table of ``cardrules play``: colour, widths and the seat grid.

Everything here is plain text in, plain text out: the layout functions take
names, cells and a width and return lines that never run past that width
(colour codes are not counted). The colour is a few SGR codes, only when the
output is a terminal that wants them (``NO_COLOR``, ``--no-color`` and
``TERM=dumb`` turn it off).

Example:
    >>> lines = seat_grid(["You", "Bot 1", "Bot 2"], [("bid", ["1", "0", "-"])], 80)
    >>> print("\\n".join(lines))
    seat  You     Bot 1   Bot 2
    bid   1       0       -
    >>> plural(1, "card"), plural(3, "card")
    ('1 card', '3 cards')
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import TextIO

from cardrules.cards import Card, Suit

__all__ = [
    "Style",
    "colour_wanted",
    "fit",
    "plural",
    "seat_grid",
    "short_names",
    "strip_ansi",
    "visible_len",
]

#: The width a layout aims at when the terminal does not say (and the most it uses).
DEFAULT_WIDTH = 80

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def strip_ansi(text: str) -> str:
    """``text`` without its colour codes.

    Example:
        >>> strip_ansi("\\x1b[31mA♥\\x1b[0m")
        'A♥'
    """
    return _ANSI.sub("", text)


def visible_len(text: str) -> int:
    """How many columns ``text`` takes on the screen (colour codes take none).

    Example:
        >>> visible_len("\\x1b[1;31m10♦\\x1b[0m")
        3
    """
    return len(strip_ansi(text))


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible_len(text))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word agreeing with it.

    Example:
        >>> plural(1, "trick"), plural(0, "trick"), plural(2, "is", "are")
        ('1 trick', '0 tricks', '2 are')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


def colour_wanted(
    stream: TextIO, flag: bool | None = None, env: Mapping[str, str] | None = None
) -> bool:
    """Whether to colour what goes to ``stream``.

    Args:
        stream: the output.
        flag: ``False`` for ``--no-color``, ``True`` to force colour, ``None`` to decide.
        env: the environment (``os.environ`` by default).

    Colour is off when ``NO_COLOR`` is set to anything (https://no-color.org),
    when ``TERM`` is ``dumb`` and when the stream is not a terminal.

    Example:
        >>> import io
        >>> colour_wanted(io.StringIO())
        False
    """
    if flag is not None:
        return flag
    env = os.environ if env is None else env
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def pack_entries(entries: list[str], width: int | None, indent: str) -> list[str]:
    """``entries`` two spaces apart on lines of at most ``width`` columns, each line
    starting with ``indent``, never cutting an entry (``None``: one line).

    Example:
        >>> pack_entries(["1) A♠", "2) K♠", "3) 10♥"], 16, "  ")
        ['  1) A♠  2) K♠', '  3) 10♥']
    """
    lines: list[str] = []
    line = ""
    for entry in entries:
        grown = f"{line}  {entry}" if line else entry
        if line and width is not None and len(indent) + visible_len(grown) > width:
            lines.append(indent + line)
            grown = entry
        line = grown
    return [*lines, indent + line]


def fit(text: str, width: int = DEFAULT_WIDTH, indent: str = "    ") -> list[str]:
    """``text`` (one line) cut into lines of at most ``width`` columns, at
    spaces where it can; the following lines start with ``indent``.

    Colour codes are kept and not counted. A word longer than the whole line is
    cut. The spaces inside a line are kept as they are.

    Example:
        >>> fit("Last trick: You A♣, Bot 1 9♣, Bot 2 3♣", 20)
        ['Last trick: You A♣,', '    Bot 1 9♣, Bot 2', '    3♣']
    """
    width = max(width, len(indent) + 8)
    if visible_len(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    gap = ""  # the spaces before the next word, kept inside a line
    for token in re.findall(r"\S+|\s+", text):
        if token.isspace():
            gap = token
            continue
        word = token
        while visible_len(word) > width - len(indent):  # too long for any line: cut it
            plain = strip_ansi(word)
            room = width - visible_len(line) - len(gap)
            if room <= 0:
                lines.append(line.rstrip())
                line, gap = indent, ""
                continue
            lines.append(line + gap + plain[:room])
            line, gap, word = indent, "", plain[room:]
        if line.strip() and visible_len(line) + len(gap) + visible_len(word) > width:
            lines.append(line.rstrip())
            line, gap = indent, ""
        line += gap + word
        gap = ""
    if line.strip():
        lines.append(line.rstrip())
    return lines


def short_names(names: Sequence[str], width: int) -> list[str]:
    """The seat names, shortened to ``width`` columns when they are longer:
    ``Bot 3`` becomes ``B3``, other names their first letters.

    Example:
        >>> short_names(["You", "Bot 1", "Bot 12"], 4)
        ['You', 'B1', 'B12']
    """
    out = []
    for name in names:
        if len(name) > width:
            words = name.split()
            if len(words) > 1 and words[-1].isdigit():
                name = words[0][0] + words[-1]
            name = name[:width]
        out.append(name)
    return out


def seat_grid(
    names: Sequence[str],
    rows: Sequence[tuple[str, Sequence[str]]],
    width: int = DEFAULT_WIDTH,
    *,
    head: str = "seat",
) -> list[str]:
    """A table with a column per seat: a header of names, then each row's label
    and one cell per seat, all within ``width`` columns.

    The columns share the width left after the labels (at most 8 columns
    each, at least 3); names and cells longer than a column are shortened.

    Args:
        names: one name per column, in the order to show them.
        rows: ``(label, cells)``, one cell per column (colour codes allowed).
        width: the most columns a line may take.
        head: the label of the header row.

    Example:
        >>> for line in seat_grid(["You", "Bot 1"], [("won", ["2", "0"])], 20):
        ...     print(line)
        seat  You    Bot 1
        won   2      0
    """
    label_w = max([len(head), *(len(label) for label, _ in rows)]) + 2
    n = max(1, len(names))
    col = max(3, min(8, (width - label_w) // n))
    if label_w + n * col > width:  # very narrow: shrink the labels too
        label_w = max(1, width - n * col)
    shown = short_names(names, col - 1)

    def line(label: str, cells: Sequence[str]) -> str:
        parts = []
        for i, cell in enumerate(cells):
            if visible_len(cell) > col - 1:
                cell = strip_ansi(cell)[: col - 1]
            parts.append(cell if i == len(cells) - 1 else _pad(cell, col))
        return (_pad(label[: label_w - 1], label_w) + "".join(parts)).rstrip()

    return [line(head, shown), *(line(label, cells) for label, cells in rows)]


class Style:
    """How cards and marks are coloured on one stream (or not at all).

    Args:
        colour: write colour codes.
        unicode: suit symbols (``A♠``) rather than letters (``AS``).

    Example:
        >>> from cardrules.cards import card
        >>> Style(colour=False).card(card("QH"))
        'Q♥'
        >>> Style(colour=True).card(card("QH"))
        '\\x1b[31mQ♥\\x1b[0m'
    """

    RED = "31"
    BOLD = "1"
    DIM = "2"
    TRUMP = "33"
    TURN = "1;36"

    def __init__(
        self, colour: bool = False, unicode: bool = True, names: Mapping[int, str] | None = None
    ) -> None:
        self.colour = colour
        self.unicode = unicode
        #: The text of the special cards a variant's ``special symbols`` renames
        #: (``{54: "W1"}``), by card id.
        self.names: Mapping[int, str] = names or {}

    def paint(self, text: str, *codes: str) -> str:
        """``text`` in the SGR ``codes`` (plain when colour is off)."""
        if not self.colour or not codes or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def red(self, suit: Suit | None) -> bool:
        """Whether a suit is written in red (hearts and diamonds)."""
        return suit in (Suit.HEARTS, Suit.DIAMONDS)

    def card(self, c: Card, *, legal: bool | None = None, trump: Suit | None = None) -> str:
        """One card, red when it is a heart or a diamond; bold when ``legal`` is
        True, dim when False; the trump suit underlined."""
        text = self.names.get(int(c.base)) or (str(c) if self.unicode else c.code)
        codes = []
        if c < 52 and self.red(c.suit):
            codes.append(self.RED)
        if legal is True:
            codes.append(self.BOLD)
        elif legal is False:
            codes.append(self.DIM)
        if trump is not None and c < 52 and c.suit is trump:
            codes.append("4")
        return self.paint(text, *codes)

    def suit(self, s: Suit, trump: Suit | None = None) -> str:
        """A suit's mark (``♥`` or ``H``), red for hearts and diamonds, in the
        trump colour when it is trumps."""
        mark = s.symbol if self.unicode else s.letter
        codes = [self.RED] if self.red(s) else []
        if s is trump:
            codes += [self.BOLD, "4"]
        return self.paint(mark, *codes)
