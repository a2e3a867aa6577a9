"""Turn Lark's parse errors into :class:`~cardrules.errors.VariantError` messages
a card player can act on.

Every error reads ``path:line:column: what is wrong``, then the line with a caret
under the column, then what was expected in words (built from the set of
terminals the parser would have accepted there), and a did-you-mean for a
misspelt setting name, keyword or suit.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from typing import Final

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardrules.errors import VariantError

# Derived from the settings' declarations (cardrules/dsl/settings/): every
# setting name in canonical order, and grammar terminal -> setting name.
from .settings.registry import KEY_TERMINALS, SETTING_NAMES

__all__ = [
    "KEY_TERMINALS",
    "SETTING_NAMES",
    "closest_setting",
    "did_you_mean",
    "error_at",
    "from_lark",
    "join_words",
    "phrase_score",
    "source_line",
]

_SUIT_WORDS: Final = "a suit: spades, hearts, diamonds or clubs"

#: Terminal name -> (how to name it in "expected ...", the phrases to offer in a
#: did-you-mean). Keyword phrases are shown in backticks.
TERMINALS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "COLON": ("a colon ':' after the setting name", ()),
    "COMMA": ("a comma", ()),
    "_NL": ("the end of the line", ()),
    "$END": ("the end of the file", ()),
    "INT": ("a number", ()),
    "ONE": ("the number 1", ()),
    "ORDINAL": ("a position such as 5th", ()),
    "SUIT": (
        _SUIT_WORDS,
        ("spades", "hearts", "diamonds", "clubs", "kali", "chukat", "fuli", "laal"),
    ),
    "CARD": ("a card such as A♠, QH or 10d", ()),
    # A special card by its symbol (W1), in example lines: said as any card.
    "SYMBOL_CARD": ("a card such as A♠, QH or 10d", ()),
    "SYMBOL_NAME": ("the name of one card in brackets, such as (wizard)", ()),
    "POINTS_KIND": ("a kind of special card such as wizards, or jokers", ()),
    "NAME": ("a name in lower case letters, digits and dashes, such as oh-hell", ()),
    "STRING": ('text in double quotes, such as "Oh Hell"', ()),
    "WORD": ("a word in plain letters, such as KAZHUTHA", ()),
    "OPTION": ("a setting name, such as hook or hand size", ()),
    "FORMULA": ("a scoring formula, such as: if exact then 10 + bid else 0", ()),
    "BOOL": ("yes or no", ("yes", "no", "on", "off")),
    "TO": ("`to`", ("to",)),
    "PLAYERS": ("`players`", ("players",)),
    "NO_TRUMPS": ("`no trumps`", ("no trumps",)),
    "K_TRUMPS": ("`trumps`", ("trumps",)),
    "RANK_WORD": ("a rank such as 10, J, Q, K or A", ()),
    "TRUMP_CARD": ("a trump such as `J of trumps` or `J of the same colour`", ()),
}

_PHRASES: Final[dict[str, str]] = {
    "V_TRICKS": "tricks",
    "V_SHEDDING": "shedding",
    "V_STANDARD": "standard",
    "V_WITHOUT": "without",
    "V_CLOCKWISE": "clockwise",
    "V_ANTICLOCKWISE": "anticlockwise",
    "V_RANDOM": "random",
    "V_CUT": "cut for highest card",
    "V_SEAT": "seat",
    "V_TO_NEXT_PLAYER": "to the next player",
    "V_TO_LOSER": "to the loser",
    "V_FOR": "for",
    "V_OR_MORE": "or more",
    "V_LARGEST": "largest",
    "V_KEEP_ONE": "keep one for trumps",
    "V_AT_MOST": "at most",
    "V_LIST": "list",
    "V_DOWN_TO": "down to",
    "V_UP_FROM": "up from",
    "V_AND_BACK_UP": "and back up",
    "V_AND_BACK_DOWN": "and back down",
    "V_HANDS_SAME_SIZE": "hands of the same size",
    "V_WHOLE_PACK": "whole pack",
    "V_TWICE": "twice",
    "V_TIMES": "times",
    "V_NONE": "none",
    "V_TURNED_UP": "turned up",
    "V_THEN_NAMED": "then named by the winner of most tricks",
    "V_NAMED_BY_BIDDER": "named by the highest bidder",
    "V_ORDER_UP": "order up",
    "V_DEALERS_CARD": "dealer's last card",
    "V_A_CUT": "cut",
    "V_NONE_WHEN_EMPTY": "no trumps when the pack runs out",
    "V_CYCLE": "cycle",
    "V_USUAL": "usual",
    "V_NEVER": "never",
    "V_EVERY": "every",
    "V_HAND": "hand",
    "V_IN_TURN": "in turn",
    "V_ALL_AT_ONCE": "all at once",
    "V_HAND_SIZE": "the hand size",
    "V_UNTIL_NEXT_BID": "until the next bid",
    "V_UNTIL_NEXT_ACTS": "until the next player acts",
    "V_UNTIL_TRICK_DONE": "until the trick is complete",
    "V_BEFORE_HAND_ENDS": "before the hand ends",
    "V_DEALERS_NEIGHBOUR": "dealer's neighbour",
    "V_HOLDER_OF": "holder of",
    "V_LEADS_IT": "leads it",
    "V_LEADS_ANY": "leads any",
    "V_CARD": "card",
    "V_CARDS": "cards",
    "V_LEFT": "left",
    "V_RIGHT": "right",
    "V_ACROSS": "across",
    "V_ANY_CARD": "any card",
    "V_MUST_FOLLOW": "must follow suit",
    "V_MUST_TRUMP": "must trump when void",
    "V_MUST_BEAT": "must beat when able",
    "V_ANY_TIME": "any time",
    "V_ONCE_BROKEN": "once broken",
    "V_OTHERWISE": "otherwise",
    "V_ONLY": "only",
    "V_LAST_HOLDING": "last holding cards",
    "V_MOST_CARDS": "most cards when the first goes out",
    "V_TIES": "ties",
    "V_FIRST_IN_TURN": "first in turn",
    "V_AND": "and",
    "V_EXCEPT": "except",
    "V_NOT": "not",
    "V_UNBROKEN": "unbroken",
    "V_SUIT_LED": "suit led",
    "V_WINNING": "winning",
    "V_HIGHER_THAN": "higher than",
    "V_LOWER_THAN": "lower than",
    "V_ANY_PLAY": "any play",
    "V_VOID_PLAY": "void play",
    "V_FORCED_LEAD": "forced lead",
    "V_NEXT_PLAYER_IN": "next player still in",
    "V_NEXT_HIGHEST": "next highest card",
    "V_CANNOT_WIN": "cannot win",
    "V_DRAWS_DEAD": "draws a dead card",
    "V_PREVIOUS_PLAYER_IN": "previous player still in",
    "V_FACE_UP": "face up",
    "V_FACE_DOWN": "face down",
    "V_NO_LOSER": "no loser",
    "V_LAST_LEADER_LOSES": "last leader loses",
    "V_HIGHEST_TOTAL": "highest total",
    "V_LOWEST_TOTAL": "lowest total",
    "V_LAST_ONE_IN": "last one in",
    "V_NO_TRICKS": "no tricks",
    "V_FEWER_THAN": "fewer than",
    "V_TRICK_WORD": "tricks",
    "V_SHARED": "shared",
    "V_EXTRA_HANDS": "extra hands",
}
for _name, _phrase in _PHRASES.items():
    TERMINALS[_name] = (f"`{_phrase}`", (_phrase,))

_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def join_words(words: Iterable[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` (duplicates dropped, order kept)."""
    items = list(dict.fromkeys(words))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def source_line(text: str, line: int) -> str | None:
    """Line ``line`` (1-based) of ``text``, with control characters made visible."""
    if line < 1:
        return None
    lines = text.split("\n")
    if line > len(lines):
        return None
    return _CONTROL.sub("?", lines[line - 1])


def _words(text: str) -> list[str]:
    return text.lower().split()


def _word_score(typed: list[str], cand: list[str]) -> float:
    """How alike two phrases are word by word, in any order: each word of one
    is paired with at most one of the other (the closest first, if at least 0.6
    alike), and the pairs' likeness counts against all the words of both."""
    pairs = sorted(
        (
            (difflib.SequenceMatcher(None, t, c).ratio(), i, j)
            for i, t in enumerate(typed)
            for j, c in enumerate(cand)
        ),
        reverse=True,
    )
    used_t: set[int] = set()
    used_c: set[int] = set()
    total = 0.0
    for ratio, i, j in pairs:
        if ratio < 0.6:
            break
        if i in used_t or j in used_c:
            continue
        used_t.add(i)
        used_c.add(j)
        total += ratio
    return 2 * total / (len(typed) + len(cand)) if typed or cand else 0.0


def phrase_score(typed: str, cand: str) -> float:
    """How alike a typed phrase and a valid one are, from 0 to 1: letter by
    letter or word by word (``winner out`` is more like ``leader out`` than like
    ``winner``), whichever is closer."""
    a, b = " ".join(_words(typed)), " ".join(_words(cand))
    if not a or not b:
        return 0.0
    return max(difflib.SequenceMatcher(None, a, b).ratio(), _word_score(a.split(), b.split()))


def closest_setting(typed: str, names: Iterable[str] = SETTING_NAMES) -> str | None:
    """The setting name that the words ``typed`` before a colon most likely mean.

    The whole words are compared (:func:`phrase_score`). A name that the typed
    words merely begin with (``winner`` for ``winner out``) is offered only when
    no other name is close: the extra words say that it is probably another
    setting (``leader out``), but ``hand size for 3 players`` is ``hand size``.
    ``None`` if nothing is close.
    """
    words = _words(typed)
    if not words:
        return None
    best: tuple[float, str] | None = None
    prefix: str | None = None
    for name in dict.fromkeys(names):
        parts = name.split()
        if len(parts) < len(words) and words[: len(parts)] == parts:
            if prefix is None or len(parts) > len(prefix.split()):
                prefix = name
            continue
        score = phrase_score(typed, name)
        if score >= _NAME_CUTOFF and (best is None or score > best[0]):
            best = (score, name)
    found = best[1] if best is not None else prefix
    return None if found == " ".join(words) else found


#: How alike typed words and a setting name must be to be offered.
_NAME_CUTOFF: Final = 0.6


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A ``did you mean 'x'?`` hint for ``word``, or ``None`` if nothing is close."""
    word = word.strip().lower()
    if not word:
        return None
    pool = list(dict.fromkeys(c for c in choices if c))
    best = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not best or best[0] == word:
        return None
    return f"did you mean '{best[0]}'?"


def error_at(
    message: str,
    *,
    path: str,
    text: str,
    line: int,
    column: int,
    expected: str | None = None,
    hint: str | None = None,
    code: str | None = None,
    data: dict[str, object] | None = None,
) -> VariantError:
    """A :class:`VariantError` at a place in ``text``, showing that line (code
    ``bad_variant`` unless ``code`` says finer)."""
    return VariantError(
        message,
        path=path,
        line=line,
        column=column,
        source_line=source_line(text, line),
        expected=expected,
        hint=hint,
        code=code,
        data=data,
    )


def _expected_words(names: Iterable[str]) -> str:
    names = set(names)
    keys = sorted(
        (KEY_TERMINALS[n] for n in names if n in KEY_TERMINALS),
        key=SETTING_NAMES.index,
    )
    words: list[str] = []
    if len(keys) > 3:
        words.append("a setting name such as `players:`, `trumps:` or `score:`")
        names = {n for n in names if n not in KEY_TERMINALS}
    for name in sorted(names, key=_term_order):
        if name in TERMINALS:
            words.append(TERMINALS[name][0])
        elif name in KEY_TERMINALS:
            words.append(f"`{KEY_TERMINALS[name]}`")
        else:
            words.append(name.lower())
    if keys and len(keys) > 3:
        for name in ("_NL", "$END"):
            if TERMINALS[name][0] in words:
                words.remove(TERMINALS[name][0])
    if len(words) > 1:
        return "one of: " + join_words(words)
    return join_words(words)


def _term_order(name: str) -> tuple[int, str]:
    # Keywords first (in backticks), then kinds of value, then punctuation.
    if name.startswith("V_") or name in ("TO", "NO_TRUMPS", "PLAYERS"):
        return (0, name)
    if name in ("COLON", "COMMA", "_NL", "$END"):
        return (2, name)
    return (1, name)


_WORD_RE: Final = re.compile(r"[^\s,:#]+")


def _suggest(rest: str, names: Iterable[str]) -> str | None:
    """Did-you-mean for the text ``rest`` (from the error to the end of the line).

    At the start of a line, the words before the colon are compared with the
    setting names. Elsewhere the phrases valid at that place are compared with
    the typed item (up to the next comma), the whole phrase first; a phrase is
    also compared with as many typed words as it has, but must then be closer
    (so that ``winner chooses`` is not taken for ``none`` on the strength of
    ``winner``).
    """
    names = set(names)
    candidates: list[str] = []
    for name in names:
        if name in KEY_TERMINALS:
            candidates.append(KEY_TERMINALS[name])
        elif name in TERMINALS:
            candidates.extend(TERMINALS[name][1])
    if not candidates:
        return None
    # In canonical order, so that a tie goes the same way in every process (a
    # set's order of strings changes with PYTHONHASHSEED).
    rank = {name: i for i, name in enumerate(SETTING_NAMES)}
    candidates = sorted(set(candidates), key=lambda c: (rank.get(c, len(rank)), c))
    if "K_GAME" in names:
        typed_name = " ".join(_WORD_RE.findall(rest.split(":")[0])).lower()
        return _hint(closest_setting(typed_name, candidates))
    words = [w.lower() for w in _WORD_RE.findall(rest)]
    if not words:
        return None
    item = " ".join(_WORD_RE.findall(re.split(r"[,#]", rest, maxsplit=1)[0])).lower()
    best: tuple[float, str] | None = None
    for cand in sorted(set(candidates)):
        typed = " ".join(words[: len(cand.split())])
        if cand in (typed, item):
            continue
        score = phrase_score(item, cand) if item else 0.0
        if score < 0.6:
            score = 0.0
        prefix = difflib.SequenceMatcher(None, typed, cand).ratio()
        if prefix >= _PREFIX_CUTOFF:
            score = max(score, prefix)
        if score > 0 and (best is None or score > best[0]):
            best = (score, cand)
    return _hint(best[1] if best else None)


#: How alike the first words typed must be to a phrase, compared alone.
_PREFIX_CUTOFF: Final = 0.7


def _hint(phrase: str | None) -> str | None:
    return f"did you mean '{phrase}'?" if phrase else None


def _unknown_setting(
    column: int, text: str, path: str, line: int, here: str
) -> VariantError | None:
    """A line ``words: value`` that starts with a setting name and has more words
    before the colon, where the error is (``winner out:``, read as ``winner`` and
    then a stray word): an unknown setting, named by all its words, with a
    did-you-mean."""
    colon = here.split("#", 1)[0].find(":")
    if colon < 0 or column - 1 > colon:
        return None
    typed = " ".join(here[:colon].split())
    words = _words(typed)
    if " ".join(words) in SETTING_NAMES or not any(
        words[: len(name.split())] == name.split() for name in SETTING_NAMES
    ):
        return None
    start = len(here) - len(here.lstrip()) + 1
    return error_at(
        f"unknown setting {_show(typed)}",
        path=path,
        text=text,
        line=line,
        column=start,
        expected="one of: " + ", ".join(SETTING_NAMES),
        hint=_hint(closest_setting(typed)),
        code="unknown_setting",
        data={"setting": typed[:80]},
    )


def from_lark(exc: UnexpectedInput, text: str, path: str) -> VariantError:
    """Convert a Lark parse error on ``text`` into a :class:`VariantError`."""
    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        line, column = _end_of(text)
    lines = text.split("\n")
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    rest = here[column - 1 :]
    expected_names = _expected_names(exc)
    at_start = "K_GAME" in expected_names
    odd = _odd_character(rest)
    if odd is not None:
        return error_at(
            f"unexpected character {odd}",
            path=path,
            text=text,
            line=line,
            column=column,
            expected=_expected_words(expected_names) or None,
            hint=_COLON_HINT
            if expected_names == {"COLON"} and rest[:1] == "="
            else "retype the line with plain spaces and letters",
            code="syntax",
        )
    unknown = None if at_start else _unknown_setting(column, text, path, line, here)
    if unknown is not None:
        return unknown
    if at_start:
        return _not_a_setting(rest, expected_names, path, text, line, column)
    message = _unexpected(exc, rest)
    if expected_names == {"_NL"} or expected_names == {"_NL", "$END"}:
        message += ": the setting is complete before it"
    hint = _suggest(rest, expected_names)
    if hint is None and expected_names == {"COLON"} and "=" in rest[:1]:
        hint = _COLON_HINT
    return error_at(
        message,
        path=path,
        text=text,
        line=line,
        column=column,
        expected=_expected_words(expected_names) or None,
        hint=hint,
        code="syntax",
    )


def _expected_names(exc: UnexpectedInput) -> set[str]:
    """The terminals Lark would have accepted where ``exc`` stopped (not
    white space or comments)."""
    expected_names: set[str]
    if isinstance(exc, UnexpectedCharacters):
        expected_names = set(exc.allowed or ())
    elif isinstance(exc, (UnexpectedToken, UnexpectedEOF)):
        expected_names = set(exc.expected or ())
    else:  # pragma: no cover - Lark has no other kinds
        expected_names = set()
    expected_names.discard("WS")
    expected_names.discard("COMMENT")
    return expected_names


def _not_a_setting(
    rest: str, expected_names: set[str], path: str, text: str, line: int, column: int
) -> VariantError:
    """The error of a line where a setting should start (``rest``, from the
    error's column) but none does: an unknown setting, or not a setting line."""
    stripped = rest.strip()
    name = stripped.split(":")[0].strip() if stripped else ""
    hint = _suggest(rest, expected_names)
    if ":" not in stripped and hint is None:
        message = f"{_show(name)} is not a setting"
        expected = "a line of the form `setting: value`, such as `players: 3 to 7`"
        code = "syntax"
    else:
        message = f"unknown setting {_show(name)}"
        expected = "one of: " + ", ".join(SETTING_NAMES)
        code = "unknown_setting"
    return error_at(
        message,
        path=path,
        text=text,
        line=line,
        column=column,
        expected=expected,
        hint=hint,
        code=code,
        data={"setting": name[:80]},
    )


def _unexpected(exc: UnexpectedInput, rest: str) -> str:
    """What Lark stopped at, in words: the line ending too soon, or the
    unexpected word (``rest`` is the line from the error's column)."""
    if isinstance(exc, UnexpectedToken) and exc.token.type in ("_NL", "$END"):
        return "the line ends too soon"
    if isinstance(exc, UnexpectedToken) and exc.token.type in KEY_TERMINALS:
        return f"unexpected {_show(str(exc.token))}"
    if not rest.strip():
        return "the line ends too soon"
    word = _WORD_RE.match(rest)
    shown = word.group(0) if word else rest[:1]
    return f"unexpected {_show(shown)}"


_COLON_HINT: Final = "write a colon, as in `players: 3 to 7`"


def _odd_character(rest: str) -> str | None:
    """A description of the first character of ``rest`` if no statement could use it."""
    if not rest:
        return None
    ch = rest[0]
    if ch.isalnum() or ch in "\"'\u2019#,:-_" or ch in "♠♤♥♡♦♢♣♧" or (ch.isspace() and ch in " \t"):
        return None
    try:
        name = unicodedata.name(ch).lower()
    except ValueError:
        name = "control character" if ord(ch) < 32 or ord(ch) == 127 else "character"
    return f"U+{ord(ch):04X} ({name})"


def _show(text: str) -> str:
    text = _CONTROL.sub("?", text)
    if len(text) > 40:
        text = text[:37] + "..."
    return repr(text)


def _end_of(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    return len(lines), len(lines[-1]) + 1
