"""Limits that keep the parser and loader safe on hostile input.

Anything past these limits is refused with a :class:`~cardrules.errors.VariantError`
before any expensive work is done. They are documented in ``docs/dsl.md``.
"""

from __future__ import annotations

from typing import Final

from cardrules.rules import MAX_SCHEDULE_HANDS

__all__ = [
    "MAX_CARD_POINTS",
    "MAX_CHOICE_OPTIONS",
    "MAX_CONDITIONS",
    "MAX_EXTENDS_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_LINES",
    "MAX_LINE_LENGTH",
    "MAX_LIST_ITEMS",
    "MAX_NAME_LENGTH",
    "MAX_NUMBER",
    "MAX_OPTIONS",
    "MAX_PASS_CARDS",
    "MAX_PLAYERS",
    "MAX_SCHEDULE_HANDS",
    "MAX_SUGGESTION_ENTRIES",
    "MAX_TARGET",
    "MAX_TEXT_LENGTH",
    "MAX_WORD_LENGTH",
]

#: The largest variant file accepted, in bytes (UTF-8).
MAX_FILE_BYTES: Final = 100_000
#: The most lines a variant file may have.
MAX_LINES: Final = 2_000
#: The longest line accepted, in characters.
MAX_LINE_LENGTH: Final = 2_000
#: The largest number a setting may hold (the schedule limit is lower, see below).
MAX_NUMBER: Final = 10_000
#: How many files one chain of ``extends`` may go through (the file itself not counted).
MAX_EXTENDS_DEPTH: Final = 8
#: The most players any variant may allow (a 52-card pack, one card each).
MAX_PLAYERS: Final = 52
#: The most items in one list (hand sizes, trump cycle, other names, removed cards).
MAX_LIST_ITEMS: Final = MAX_SCHEDULE_HANDS
#: The longest game name, in characters.
MAX_NAME_LENGTH: Final = 64
#: The longest title, summary or other name, in characters.
MAX_TEXT_LENGTH: Final = 300
#: The longest match word (K-A-Z-H-U-T-H-A has 8 letters).
MAX_WORD_LENGTH: Final = 26
#: The most card sets one card-set rule (``follow:``, ``lead:``...) may list.
MAX_CHOICE_OPTIONS: Final = 20
#: The most settings one ``options:`` line may name.
MAX_OPTIONS: Final = 40
#: How many entries of each search folder the did-you-mean of an unknown variant
#: name looks at (so its cost does not grow with a folder of 20,000 files).
MAX_SUGGESTION_ENTRIES: Final = 1_000
#: The most points (either sign) one card may carry (``card points:``).
MAX_CARD_POINTS: Final = 100
#: The largest target total (``target:``).
MAX_TARGET: Final = MAX_NUMBER
#: The largest N of ``knocked out: fewer than N tricks`` (a hand has at most 52 tricks).
MAX_KNOCKOUT_TRICKS: Final = 52
#: The most cards each player may pass (``pass: N cards ...``): a whole suit.
MAX_PASS_CARDS: Final = 13
#: Setting lines with a condition (``hook: no when the hand has 1 card``) in a file.
MAX_CONDITIONS: Final = 64
#: The most special cards one pack may add besides the two jokers (``with 4
#: wizards and 4 jesters``): the card ids 54-63, ``X1`` to ``X10``.
MAX_SPECIAL_CARDS: Final = 10
#: The most standard packs shuffled together (``deck: 2 standard packs``).
MAX_PACKS: Final = 4
