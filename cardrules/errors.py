"""The exceptions cardrules raises. Every one is a ``ValueError``.

* :class:`CardError`: a card or suit string that cannot be read.
* :class:`VariantError`: a variant file (or an option override) that is wrong;
  its message reads ``path:line:column: what is wrong``, then the line with a
  caret under the column, then what was expected.
* :class:`InvalidAction`: something that is not an action at all (an id out
  of range, a bid of -52).
* :class:`IllegalAction`: a well-formed action that the rules forbid now;
  :class:`NothingToUndo` (``Game.undo`` at the start of a game) and
  :class:`TakeBackRefused` (a take-back the table's policy does not allow) are
  kinds of it.
* :class:`SaveError`: a saved game or event log that cannot be restored.
* :class:`ScoreError`: a scoring formula, or a running total, that reached a
  number too large to work with (see :data:`cardrules.scoring.MAX_VALUE_DIGITS`).
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "CardrulesError",
    "IllegalAction",
    "InvalidAction",
    "NothingToUndo",
    "SaveError",
    "ScoreError",
    "TakeBackRefused",
    "VariantError",
]


class CardrulesError(ValueError):
    """Base class of every error raised for bad input."""


class CardError(CardrulesError):
    """A card, rank or suit written in a way cardrules cannot read."""


class VariantError(CardrulesError):
    """A variant file, or an option given for one, is not valid.

    Attributes:
        message: what is wrong, in words.
        path: the file (or ``<string>``), if known.
        line: 1-based line number, if known.
        column: 1-based column, if known.
        source_line: the text of the offending line, if known.
        expected: what would have been valid there, in words.
        hint: a suggestion, such as a did-you-mean.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.source_line = source_line
        self.expected = expected
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        """The full message: location, what is wrong, the line and a caret."""
        where = ""
        if self.path is not None or self.line is not None:
            where = self.path or "<string>"
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        parts = [where + self.message]
        if self.source_line is not None and self.line is not None:
            shown = self.source_line.rstrip("\n")
            if len(shown) > 200:
                shown = shown[:200] + "..."
            parts.append("    " + shown)
            if self.column is not None and self.column <= len(shown) + 1:
                parts.append("    " + " " * (self.column - 1) + "^")
        if self.expected:
            parts.append(f"expected {self.expected}")
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.render()


class InvalidAction(CardrulesError):
    """Not an action of this game at all (malformed, or an id out of range)."""


class IllegalAction(CardrulesError):
    """A real action that the rules forbid in the current state.

    The game is left exactly as it was.
    """


class NothingToUndo(IllegalAction):
    """:meth:`Game.undo <cardrules.engine.game.Game.undo>` with no action to take
    back (no action has been made since the game began). The game is unchanged."""

    #: The machine-readable code of this error.
    code = "nothing_to_undo"
    default_code = "nothing_to_undo"


class TakeBackRefused(IllegalAction):
    """:meth:`Game.take_back <cardrules.engine.game.Game.take_back>` of an action
    that the take-back policy does not let that seat take back now (the message
    says why). The game is unchanged."""

    #: The machine-readable code of this error.
    code = "take_back_refused"
    default_code = "take_back_refused"


class SaveError(CardrulesError):
    """A saved game or event log that is malformed or describes an impossible game."""


class ScoreError(CardrulesError):
    """A score that cannot be worked out: a formula reached a number too large to
    work with, or a player's running total grew too large.

    The load-time check of a formula (see :func:`cardrules.scoring.parse_formula`)
    refuses every formula that could do this with the values a game passes; this
    is raised for what that check cannot see, such as values given from Python
    beyond those ranges, or a total that grows hand after hand.

    Attributes:
        message: what is wrong, in words.
        formula: the text of the formula concerned, if any.
    """

    def __init__(self, message: str, *, formula: str | None = None) -> None:
        self.message = message
        self.formula = formula
        super().__init__(message)
