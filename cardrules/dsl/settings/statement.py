"""What a setting's parse works with: the statement it returns
(:class:`Setting`) and the builder it is given (:class:`StatementBuilder`).

Each declaration (:class:`~cardrules.dsl.settings.declaration.SettingSpec`)
carries its ``parse``: a function of the builder and the Lark children of its
statement (the key token, the colon, then the value's tokens and the results of
its sub-rules), returning the statement's :class:`Setting`. The parser's
transformer (:mod:`cardrules.dsl.parser`) is the builder; this module lets the
family modules name it without importing the parser.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from attrs import frozen
from lark import Token

from cardrules.cards import NO_TRUMPS_STRAIN, SUIT_NAMES, Suit
from cardrules.errors import VariantError
from cardrules.rules import Condition, SourcePos

from .. import limits

__all__ = ["Setting", "StatementBuilder", "short_number", "suit_of", "tokens", "yes"]


@frozen
class Setting:
    """One statement of a variant file.

    Attributes:
        key: the setting's canonical name, such as ``hand size``.
        changes: ``(field path, value)`` pairs, such as ``("bidding.hook", False)``.
        pos: where the statement starts.
        value_pos: where its value starts.
        condition: when the line applies (``hook: no when the hand has 1
            card``); ``None``: always.
    """

    key: str
    changes: tuple[tuple[str, Any], ...]
    pos: SourcePos
    value_pos: SourcePos
    condition: Condition | None = None


class StatementBuilder(Protocol):
    """The parser's helpers that a setting's parse uses: positions, checked
    values, errors at a token, and the :class:`Setting` it returns."""

    @property
    def path(self) -> str:
        """The file's name, as error messages show it."""
        ...

    @property
    def text(self) -> str:
        """The file's whole text."""
        ...

    @property
    def counters(self) -> tuple[str, ...]:
        """The counters the file declares, which its formulas may read."""
        ...

    @property
    def setting_names(self) -> tuple[str, ...]:
        """Every setting name, in canonical order."""
        ...

    @property
    def option_names(self) -> tuple[str, ...]:
        """The settings an ``options:`` line may offer for overriding."""
        ...

    def pos(self, tok: Token) -> SourcePos:
        """Where ``tok`` is."""
        ...

    def error(
        self, tok: Token, message: str, expected: str | None = None, hint: str | None = None
    ) -> VariantError:
        """The error to raise at ``tok`` (with the line shown)."""
        ...

    def number(
        self,
        tok: Token,
        lo: int = 0,
        hi: int = limits.MAX_NUMBER,
        what: str = "",
        shown_lo: int | None = None,
    ) -> int:
        """The whole number ``tok`` holds, checked to be from ``lo`` to ``hi``
        (``what`` names it in the error; ``shown_lo`` is the lowest the error
        says, if not ``lo``)."""
        ...

    def string(self, tok: Token, what: str) -> str:
        """The text of a quoted string, unescaped and checked (``what`` names
        it in the error)."""
        ...

    def setting(self, c: Sequence[Any], *changes: tuple[str, Any]) -> Setting:
        """The statement whose children are ``c``, making ``changes``."""
        ...

    def formula(self, tok: Token) -> Any:
        """The score formula ``tok`` holds."""
        ...

    def did_you_mean(self, word: str, choices: Iterable[str]) -> str | None:
        """A ``did you mean 'x'?`` hint for ``word``, or ``None``."""
        ...

    def join_words(self, words: Iterable[str]) -> str:
        """``a``, ``a or b``, ``a, b or c``."""
        ...


def tokens(items: Iterable[Any]) -> Iterable[Token]:
    """The tokens among a rule's children, without commas and colons."""
    return (x for x in items if isinstance(x, Token) and x.type not in ("COMMA", "COLON"))


def strain_code(tok: Token) -> int:
    """A ``SUIT`` or ``NO_TRUMPS`` token's strain of a contract bid (0-3 the
    suit's number, 4 no trumps)."""
    if tok.type == "NO_TRUMPS":
        return NO_TRUMPS_STRAIN
    return int(SUIT_NAMES[str(tok).lower()])


def yes(tok: Token) -> bool:
    """A ``BOOL`` token's value (``yes``, ``on`` and ``true`` are true)."""
    return str(tok).lower() in ("yes", "on", "true")


def short_number(digits: str) -> str:
    """A number as an error shows it: cut short when it has over 12 digits."""
    return digits if len(digits) <= 12 else digits[:6] + "..." + f" ({len(digits)} digits)"


def suit_of(tok: Token) -> Suit:
    """The suit a ``SUIT`` token names."""
    return SUIT_NAMES[str(tok).lower()]
