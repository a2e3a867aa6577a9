"""Variant file text -> :class:`~cardrules.rules.Variant`.

A variant file is a list of statements, one a line: ``setting: value``. The Lark
grammar (``grammar.lark``) reads them; a Transformer turns each statement into a
:class:`Setting`: the setting's name, where it was written, and the changes it
makes to the frozen attrs classes of :mod:`cardrules.rules`. Each statement is
read by its setting's declaration (the ``parse`` of its
:class:`~cardrules.dsl.settings.declaration.SettingSpec`, in
:mod:`cardrules.dsl.settings`); the transformer gives it the helpers it uses
and reads the sub-rules the statements share. Applying the
settings of a file, in order, to a base variant (the defaults, or the resolved
parent of an ``extends``) gives the file's variant.

:func:`parse` reads one file on its own (an ``extends`` is recorded, not
followed: :mod:`cardrules.dsl.loader` follows it). Nothing but
:class:`~cardrules.errors.VariantError` escapes from here, whatever the input.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs
from attrs import frozen
from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from cardrules.card_rules import (
    BreakTrigger,
    CardChoice,
    CardSetRule,
    CardTerm,
    TermKind,
)
from cardrules.cards import Card, Suit, card
from cardrules.errors import CardError, VariantError
from cardrules.parser_tables import ParserSpec, load_parser, write_tables
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    Condition,
    ConditionalSetting,
    PassTo,
    Pattern,
    SizeEntry,
    SourcePos,
    Variant,
    get_path,
    set_path,
)
from cardrules.score_cases import MAX_CASES
from cardrules.scoring import MAX_COUNTERS, formula_parser_spec

from . import limits
from .conditions import check_condition, split_conditions
from .example_syntax import Example, ExampleRules, ExLine, assemble
from .settings.registry import SETTINGS
from .settings.statement import Setting, StatementBuilder, short_number, suit_of, tokens
from .settings.story_settings import LISTED_SETTINGS, NOT_A_CHANGE
from .syntax_errors import (
    KEY_TERMINALS,
    SETTING_NAMES,
    did_you_mean,
    error_at,
    from_lark,
    join_words,
)

__all__ = [
    "GRAMMAR_PATH",
    "IDENTITY_SETTINGS",
    "OVERRIDABLE_SETTINGS",
    "ParsedFile",
    "Setting",
    "apply_settings",
    "counter_names",
    "lark_parser",
    "parse",
    "parse_file",
    "variant_parser_spec",
    "write_parser_tables",
]

#: The Lark grammar of variant files.
GRAMMAR_PATH: Final = Path(__file__).with_name("grammar.lark")

#: Settings that name a variant; they are never inherited through ``extends``.
IDENTITY_SETTINGS: Final = frozenset({"game", "title", "also called", "summary"})
#: Settings that a variant's ``options:`` line may offer for overriding at load time.
OVERRIDABLE_SETTINGS: Final[tuple[str, ...]] = tuple(
    k for k in SETTING_NAMES if k not in IDENTITY_SETTINGS | {"extends", "options", "mode"}
)

#: ``N`` alone in ``hand size:`` means N cards for any number of players.
ANY_PLAYERS: Final = (1, limits.MAX_PLAYERS)


@frozen
class ParsedFile:
    """The statements of one variant file, not yet applied to anything.

    ``examples`` are the file's worked examples (also carried by the last
    setting, ``examples``, so that applying the settings sets them).
    """

    path: str
    text: str
    settings: tuple[Setting, ...]
    examples: tuple[Example, ...] = ()

    def get(self, key: str) -> Setting | None:
        """The statement setting ``key``, if the file has one."""
        for s in self.settings:
            if s.key == key:
                return s
        return None

    @property
    def name(self) -> str:
        """The ``game:`` name (``""`` if the file has none)."""
        s = self.get("game")
        return str(s.changes[0][1]) if s else ""

    @property
    def extends(self) -> Setting | None:
        """The ``extends:`` statement, if any."""
        return self.get("extends")


def variant_parser_spec() -> ParserSpec:
    """The variant grammar and the options of its parser."""
    return ParserSpec(
        "variant",
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False},
    )


def write_parser_tables() -> list[Path]:
    """Write the shipped parse tables of the variant and formula grammars.

    Run after editing either grammar (``tests/test_parser_tables.py`` says
    when): ``python -c "from cardrules.dsl.parser import write_parser_tables as
    w; w()"``.
    """
    return write_tables([variant_parser_spec(), formula_parser_spec()])


@functools.cache
def lark_parser(strict: bool = False) -> Lark:
    """The Lark parser of variant files (made once, at the first parse).

    It is loaded from the parse tables shipped with the package
    (:mod:`cardrules.parser_tables`), or built from the grammar when they do not
    match it; never at import.

    Args:
        strict: build from the grammar in Lark's strict mode (no shift/reduce
            conflicts, no colliding terminals; needs ``interegular``). That
            check costs seconds, so the library never does it; the test suite
            does.
    """
    if strict:
        spec = variant_parser_spec()
        return Lark(spec.grammar, strict=True, **spec.options)
    return load_parser(variant_parser_spec())[0]


# --------------------------------------------------------------------------- the transformer

_PATTERNS: Final = {
    ("down", False): Pattern.DOWN,
    ("down", True): Pattern.DOWN_UP,
    ("up", False): Pattern.UP,
    ("up", True): Pattern.UP_DOWN,
}


class _Build(ExampleRules, Transformer[Token, Any]):
    """Statements -> :class:`Setting` objects (values checked on the spot), and
    example lines -> :class:`~cardrules.dsl.example_syntax.ExLine` objects.

    A statement's grammar rule is read by its declaration's ``parse``
    (installed as the rule's method below the class); the methods here are the
    helpers those use (a
    :class:`~cardrules.dsl.settings.statement.StatementBuilder`) and the
    sub-rules the statements share (sizes, patterns, card rules...).
    """

    #: Every setting name, in canonical order.
    setting_names: Final = SETTING_NAMES
    #: The settings an ``options:`` line may offer.
    option_names: Final = OVERRIDABLE_SETTINGS

    def __init__(self, path: str, text: str, inherited: tuple[str, ...] = ()) -> None:
        super().__init__(visit_tokens=False)
        self.path = path
        self.text = text
        # The counters its formulas may read: those this file declares, and
        # those of the files it extends (``inherited``).
        self.counters = tuple(sorted({*counter_names(text), *inherited}))
        self.stated: dict[str, Any] = {}

    # ---- helpers (the StatementBuilder interface)
    def pos(self, tok: Token) -> SourcePos:
        """Where ``tok`` is."""
        return SourcePos(self.path, tok.line or 1, tok.column or 1)

    def error(
        self, tok: Token, message: str, expected: str | None = None, hint: str | None = None
    ) -> VariantError:
        """The error to raise at ``tok`` (with the line shown)."""
        return error_at(
            message,
            path=self.path,
            text=self.text,
            line=tok.line or 1,
            column=tok.column or 1,
            expected=expected,
            hint=hint,
        )

    def number(
        self,
        tok: Token,
        lo: int = 0,
        hi: int = limits.MAX_NUMBER,
        what: str = "",
        shown_lo: int | None = None,
    ) -> int:
        """The whole number ``tok`` holds, from ``lo`` to ``hi``."""
        digits = str(tok)
        if len(digits) > len(str(limits.MAX_NUMBER)) or int(digits) > hi:
            raise self.error(
                tok,
                f"{short_number(digits)} is too large" + (f" for {what}" if what else ""),
                expected=f"a number from {lo if shown_lo is None else shown_lo} to {hi}",
            )
        value = int(digits)
        if value < lo:
            raise self.error(
                tok,
                f"{value} is too small" + (f" for {what}" if what else ""),
                expected=f"a number from {lo} to {hi}",
            )
        return value

    def setting(self, c: Sequence[Any], *changes: tuple[str, Any]) -> Setting:
        """The statement whose children are ``c``, making ``changes``."""
        key_tok: Token = c[0]
        value_tok = next((t for t in tokens(c[2:])), key_tok)
        # The values stated so far: the example lines below read the special
        # cards' symbols from them.
        self.stated.update(changes)
        return Setting(
            KEY_TERMINALS[key_tok.type], tuple(changes), self.pos(key_tok), self.pos(value_tok)
        )

    def string(self, tok: Token, what: str) -> str:
        """The text of a quoted string, unescaped and checked."""
        raw = str(tok)[1:-1]
        out: list[str] = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                i += 1
                ch = raw[i]
            out.append(ch)
            i += 1
        return self._checked_text(tok, "".join(out), what)

    def did_you_mean(self, word: str, choices: Iterable[str]) -> str | None:
        """A ``did you mean 'x'?`` hint for ``word``, or ``None``."""
        return did_you_mean(word, choices)

    def join_words(self, words: Iterable[str]) -> str:
        """``a``, ``a or b``, ``a, b or c``."""
        return join_words(words)

    # ---- the pack
    def deck_cards(self, c: list[Any]) -> list[Token]:
        return list(tokens(c))

    def deck_ranks(self, c: list[Any]) -> dict[str, Any]:
        return {"ranks": c[0], "cards": c[2] if len(c) > 2 else []}

    def deck_for(self, c: list[Any]) -> tuple[list[Token], Token, Token | None]:
        ints = [t for t in tokens(c[1:]) if t.type == "INT"]
        return c[0], ints[0], ints[1] if len(ints) > 1 else None

    # ---- dealing
    def size_entry(self, c: list[Any]) -> tuple[Token, str, Any]:
        size = self.number(c[0], 1, limits.MAX_PLAYERS, "a hand")
        if len(c) == 1:
            return (c[0], "entry", SizeEntry(*ANY_PLAYERS, size))
        lo = self.number(c[2], 1, limits.MAX_PLAYERS, "players")
        if c[3].type == "TO":
            hi = self.number(c[4], 1, limits.MAX_PLAYERS, "players")
            if hi < lo:
                raise self.error(c[4], f"{hi} is fewer than {lo}", expected=f"{lo} or more")
        elif c[3].type == "V_OR_MORE":
            hi = limits.MAX_PLAYERS
        else:
            hi = lo
        return (c[0], "entry", SizeEntry(lo, hi, size))

    def size_largest(self, c: list[Any]) -> tuple[Token, str, Any]:
        return (c[0], "largest", True)

    def size_keep_one(self, c: list[Any]) -> tuple[Token, str, Any]:
        return (c[0], "keep one", True)

    def size_cap(self, c: list[Any]) -> tuple[Token, str, Any]:
        return (c[0], "cap", self.number(c[1], 1, limits.MAX_PLAYERS, "a hand"))

    def pattern_down(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (_PATTERNS["down", len(c) > 2], 1, ())

    def pattern_up(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (_PATTERNS["up", len(c) > 2], 1, ())

    def pattern_same(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (Pattern.SAME, self.number(c[0], 1, MAX_SCHEDULE_HANDS, "a game"), ())

    def pattern_whole_pack(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (Pattern.WHOLE_PACK, 1, ())

    def step_per_player(self, c: list[Any]) -> tuple[int, int, bool]:
        size = self.number(c[0], 1, limits.MAX_PLAYERS, "a hand")
        return (size, size, True)

    def step_run(self, c: list[Any]) -> tuple[int, int, bool]:
        first = self.number(c[0], 1, limits.MAX_PLAYERS, "a hand")
        return (first, self.number(c[2], 1, limits.MAX_PLAYERS, "a hand"), False)

    def repeat(self, c: list[Any]) -> int:
        if c[0].type == "V_TWICE":
            return 2
        return self.number(c[0], 1, MAX_SCHEDULE_HANDS, "repeats")

    # ---- trumps
    def cycle_item(self, c: list[Any]) -> tuple[Token, Suit | None]:
        tok: Token = c[0]
        return (tok, suit_of(tok) if tok.type == "SUIT" else None)

    # ---- passing
    def pass_to(self, c: list[Any]) -> tuple[Token, PassTo]:
        tok: Token = c[0]
        kinds = {
            "V_LEFT": PassTo.LEFT,
            "V_RIGHT": PassTo.RIGHT,
            "V_ACROSS": PassTo.ACROSS,
            "V_NONE": PassTo.NONE,
        }
        return (tok, kinds[tok.type])

    # ---- card-set rules
    def rank(self, c: list[Any]) -> int:
        tok: Token = c[0]
        text = str(tok).lower()
        if tok.type == "RANK_WORD":
            return _RANK_WORDS[text[0]]
        value = self.number(tok, 2, 14, "a rank")
        if not 2 <= value <= 10:
            raise self.error(
                tok, f"there is no rank {value}", expected="a rank from 2 to 10, J, Q, K or A"
            )
        return value

    def term_body(self, c: list[Any]) -> CardTerm:
        tok: Token = c[0]
        kind = tok.type
        if kind == "V_ANY_CARD":
            return CardTerm(TermKind.ANY)
        if kind == "V_SUIT_LED":
            return CardTerm(TermKind.SUIT_LED)
        if kind == "K_TRUMPS":
            return CardTerm(TermKind.TRUMPS)
        if kind == "V_WINNING":
            return CardTerm(TermKind.WINNING)
        if kind == "SUIT":
            return CardTerm(TermKind.SUIT, suit=suit_of(tok))
        if kind == "CARD":
            return CardTerm(TermKind.CARD, card=card(str(tok)))
        higher = kind == "V_HIGHER_THAN"
        return CardTerm(TermKind.HIGHER if higher else TermKind.LOWER, rank=c[1])

    def card_term(self, c: list[Any]) -> CardTerm:
        body: CardTerm = c[-1]
        words = {t.type for t in c[:-1] if isinstance(t, Token)}
        return attrs.evolve(body, negated="V_NOT" in words, unbroken="V_UNBROKEN" in words)

    def card_set(self, c: list[Any]) -> CardSetRule:
        terms: list[CardTerm] = [c[0]]
        for i in range(1, len(c), 2):
            term: CardTerm = c[i + 1]
            if c[i].type == "V_EXCEPT":
                term = attrs.evolve(term, negated=not term.negated)
            terms.append(term)
        return CardSetRule(tuple(terms))

    def card_choice(self, c: list[Any]) -> CardChoice:
        options = tuple(x for x in c if isinstance(x, CardSetRule))
        if len(options) > limits.MAX_CHOICE_OPTIONS:
            raise self.error(
                c[0] if isinstance(c[0], Token) else _first_token(c),
                f"a card rule may list at most {limits.MAX_CHOICE_OPTIONS} sets",
            )
        return CardChoice(options)

    def break_trigger(self, c: list[Any]) -> BreakTrigger:
        return {
            "V_ANY_PLAY": BreakTrigger.ANY_PLAY,
            "V_VOID_PLAY": BreakTrigger.VOID_PLAY,
            "V_FORCED_LEAD": BreakTrigger.FORCED_LEAD,
        }[c[0].type]

    def break_card(self, c: list[Any]) -> tuple[Token, list[tuple[Card, Suit]]]:
        tok: Token = c[0]
        k = card(str(tok))
        return tok, [(k, suit_of(t)) for t in c[2:] if isinstance(t, Token) and t.type == "SUIT"]

    # ---- scoring and winning
    def points_item(self, c: list[Any]) -> tuple[Token, tuple[int, ...], int]:
        """``hearts 1`` or ``Q♠ 13``: (the token, the cards it names, their points)."""
        tok: Token = c[0]
        num: Token = c[1]
        text = str(num)
        lo, hi = -limits.MAX_CARD_POINTS, limits.MAX_CARD_POINTS
        if not re.fullmatch(r"-?[0-9]{1,6}", text) or not lo <= int(text) <= hi:
            raise self.error(
                num,
                f"{short_number(text)} cannot be the points of a card",
                expected=f"a whole number from {lo} to {hi}",
            )
        if tok.type == "SUIT":
            suit = int(suit_of(tok))
            cards = tuple(range(13 * suit, 13 * suit + 13))
        elif tok.type == "POINTS_KIND":
            cards = ()  # a kind of special card: its cards are the pack's (points_of_cards)
        else:
            cards = (int(card(str(tok))),)
        return (tok, cards, int(text))

    def team_item(self, c: list[Any]) -> tuple[Token, tuple[int, ...]]:
        nums = [t for t in c if isinstance(t, Token) and t.type == "INT"]
        seats = [self.number(t, 1, limits.MAX_PLAYERS, "a seat") - 1 for t in nums]
        return (nums[0], tuple(seats))

    def formula(self, tok: Token) -> Any:
        """The score formula ``tok`` holds."""
        from cardrules.scoring import parse_formula

        line = tok.line or 1
        try:
            return parse_formula(
                str(tok).rstrip(),
                counters=self.counters,
                path=self.path,
                line=line,
                column=tok.column or 1,
                source_line=_source_line(self.text, line),
            )
        except VariantError:
            raise
        except (RecursionError, MemoryError, ValueError, TypeError, LarkError) as exc:
            raise self.error(tok, f"cannot read the score formula ({type(exc).__name__})") from None

    def start(self, c: list[Any]) -> list[Setting | ExLine]:
        return [x for x in c if isinstance(x, Setting | ExLine)]


def _install_statement_parses() -> None:
    """Each declaration's parse becomes the transformer's method for its
    statement's grammar rule (a plain function, so Lark calls it with the
    transformer as its builder and the statement's children)."""
    for spec in SETTINGS:
        if hasattr(_Build, spec.grammar_rule):
            raise TypeError(f"the transformer already has an attribute {spec.grammar_rule}")
        setattr(_Build, spec.grammar_rule, spec.parse)


_install_statement_parses()

if TYPE_CHECKING:
    # The transformer is the builder a setting's parse is given.
    _BUILDER: type[StatementBuilder] = _Build


_RANK_WORDS: Final = {"j": 11, "q": 12, "k": 13, "a": 14}


def _first_token(items: Iterable[Any]) -> Token:
    for x in items:
        if isinstance(x, Token):
            return x
        if isinstance(x, Tree):
            return _first_token(x.children)
    raise ValueError("no token")


def _source_line(text: str, line: int) -> str | None:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else None


# --------------------------------------------------------------------------- parsing


def _check_size(text: str, path: str) -> None:
    if (
        len(text) > limits.MAX_FILE_BYTES
        or len(text.encode("utf-8", "surrogatepass")) > limits.MAX_FILE_BYTES
    ):
        raise VariantError(
            f"the file is too large ({len(text):,} characters)",
            path=path,
            expected=f"at most {limits.MAX_FILE_BYTES:,} bytes",
            code="variant_too_large",
        )
    n_lines = text.count("\n") + 1
    if n_lines > limits.MAX_LINES:
        raise VariantError(
            f"the file has too many lines ({n_lines:,})",
            path=path,
            line=limits.MAX_LINES + 1,
            expected=f"at most {limits.MAX_LINES:,} lines",
            code="variant_too_large",
        )
    for i, line in enumerate(text.split("\n"), 1):
        if len(line) > limits.MAX_LINE_LENGTH:
            raise error_at(
                f"line {i} is too long ({len(line):,} characters)",
                path=path,
                text=text,
                line=i,
                column=limits.MAX_LINE_LENGTH + 1,
                expected=f"at most {limits.MAX_LINE_LENGTH:,} characters a line",
                code="variant_too_large",
            )
    bad = _SURROGATE.search(text)
    if bad is not None:
        at = bad.start()
        line_no = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise error_at(
            "the text holds an invalid character",
            path=path,
            text=text,
            line=line_no,
            column=column,
            code="syntax",
        )


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def normalize_text(text: str | bytes, path: str) -> str:
    """Decode (UTF-8, BOM allowed) and normalise newlines; refuse oversized input."""
    if isinstance(text, bytes | bytearray):
        if len(text) > limits.MAX_FILE_BYTES:
            raise VariantError(
                f"the file is too large ({len(text):,} bytes)",
                path=path,
                expected=f"at most {limits.MAX_FILE_BYTES:,} bytes",
                code="variant_too_large",
            )
        data = bytes(text)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            good = data[: exc.start].decode("utf-8", "replace")
            line = good.count("\n") + 1
            column = len(good) - (good.rfind("\n") + 1) + 1
            raise VariantError(
                "the file is not UTF-8 text",
                path=path,
                line=line,
                column=column,
                hint="save the file as UTF-8",
                code="syntax",
            ) from None
    if not isinstance(text, str):
        raise VariantError(f"a variant must be text, not {type(text).__name__}", path=path)
    if len(text) > limits.MAX_FILE_BYTES:
        _check_size(text, path)
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    _check_size(text, path)
    return text


#: A text this long or shorter is remembered by :func:`parse_file` (with the
#: cache's size, at most a few megabytes are kept).
_CACHED_TEXT: Final = 16_000


def parse_file(
    text: str | bytes,
    *,
    path: str = "<string>",
    require_game: bool = True,
    counters: tuple[str, ...] = (),
) -> ParsedFile:
    """Read the statements of one variant file, without applying them.

    Its formulas (``score:``, ``counter``, ``case`` lines) may read the
    counters the file declares and ``counters``: those of the files it extends
    (:func:`~cardrules.dsl.loader.inherited_counters`), which only the loader
    can find.

    A :class:`ParsedFile` is immutable, so the last few hundred files read (of
    at most :data:`_CACHED_TEXT` characters) are remembered: a parent that many
    variants extend (``cardrules list`` loads them all) is parsed once a
    process. A file with an error is read again each time.

    Raises:
        VariantError: for any syntax error, value out of range, repeated setting
            or missing ``game:`` line.
    """
    if isinstance(text, str) and len(text) <= _CACHED_TEXT:
        return _parse_file_cached(text, path, require_game, counters)
    return _parse_file(text, path, require_game, counters)


@functools.lru_cache(maxsize=256)
def _parse_file_cached(
    text: str, path: str, require_game: bool, counters: tuple[str, ...]
) -> ParsedFile:
    return _parse_file(text, path, require_game, counters)


def _parse_tree(body: str, text: str, path: str) -> Tree[Token]:
    """The parse tree of ``body``, or its :class:`VariantError`, raised after the
    parser's own exception is handled: the error keeps no ``__context__`` that
    holds the parser (a chained lexer cannot be pickled, e.g. by dask's tblib)."""
    error: VariantError
    try:
        return lark_parser().parse(body + "\n")
    except UnexpectedInput as exc:
        error = from_lark(exc, text, path)
    except (LarkError, RecursionError) as exc:  # pragma: no cover - a safety net
        error = VariantError(f"cannot read the file ({type(exc).__name__})", path=path)
    raise error


def _parse_file(
    text: str | bytes, path: str, require_game: bool, counters: tuple[str, ...] = ()
) -> ParsedFile:
    text = normalize_text(text, path)
    body, conditions = split_conditions(text, path)
    items = _transform(_parse_tree(body, text, path), text, path, counters)
    if conditions:
        items = _with_conditions(items, conditions, text)
    settings = [x for x in items if isinstance(x, Setting)]
    _check_counters(settings, text, path)
    _check_cases(settings, text, path)
    # A card may be named as often as the file's own `deck:` line has packs.
    packs = next((v for s in settings for k, v in s.changes if k == "deck.packs"), 1)
    examples = assemble([x if isinstance(x, ExLine) else None for x in items], path, text, packs)
    _check_listed(settings, text, path)
    check_changes_read(settings, text, path)
    seen: dict[tuple[str, Condition | None], Setting] = {}
    for s in settings:
        if (s.key, s.condition) in seen and s.key not in ("counter", "case", *LISTED_SETTINGS):
            first = seen[s.key, s.condition].pos
            raise error_at(
                f"`{s.key}` is already set on line {first.line}",
                path=path,
                text=text,
                line=s.pos.line,
                column=s.pos.column,
                hint="give each setting once; delete one of the two lines",
            )
        seen[s.key, s.condition] = s
    if require_game and ("game", None) not in seen:
        first = settings[0].pos if settings else SourcePos(path, 1, 1)
        raise error_at(
            "the file has no `game:` line",
            path=path,
            text=text,
            line=first.line,
            column=first.column,
            expected="a line such as `game: my-house-rules` naming the variant",
        )
    if examples:
        first = examples[0].pos or SourcePos(path, 1, 1)
        settings.append(Setting("examples", (("examples", examples),), first, first))
    return ParsedFile(path, text, tuple(settings), examples)


_COUNTER_LINE: Final = re.compile(r"(?im)^[ \t]*counter[ \t]+([a-z]+)[ \t]*:")


def counter_names(text: str) -> set[str]:
    """The names of the counters a variant file's text declares (its ``counter
    NAME:`` lines), read before its statements so that its formulas may read them."""
    return {m.lower() for m in _COUNTER_LINE.findall(text)}


def _check_counters(settings: list[Setting], text: str, path: str) -> None:
    """Refuse more than :data:`MAX_COUNTERS` ``counter NAME:`` lines, or a name given twice."""
    lines = [s for s in settings if s.key == "counter"]
    if len(lines) > MAX_COUNTERS:
        raise error_at(
            f"the file has {len(lines)} counters",
            path=path,
            text=text,
            line=lines[MAX_COUNTERS].pos.line,
            column=lines[MAX_COUNTERS].pos.column,
            expected=f"at most {MAX_COUNTERS}",
            code="variant_too_large",
        )
    names: set[str] = set()
    for s in lines:
        (counter,) = s.changes[0][1]
        if counter.name in names:
            raise error_at(
                f"the counter {counter.name!r} is given twice",
                path=path,
                text=text,
                line=s.pos.line,
                column=s.pos.column,
                hint="give each counter once; delete one of the two lines",
            )
        names.add(counter.name)


def _check_cases(settings: list[Setting], text: str, path: str) -> None:
    """Refuse more than :data:`~cardrules.score_cases.MAX_CASES` ``case`` lines,
    or a case's name given twice (code ``bad_score_case``)."""
    lines = [s for s in settings if s.key == "case"]
    labels: set[str] = set()
    for i, s in enumerate(lines):
        (case,) = s.changes[0][1]
        if i >= MAX_CASES or case.label in labels:
            raise error_at(
                f"the file names more than {MAX_CASES} cases of the score"
                if i >= MAX_CASES
                else f"the case {case.label!r} is named twice",
                path=path,
                text=text,
                line=s.pos.line,
                column=s.pos.column,
                hint="give each case once" if i < MAX_CASES else None,
                code="bad_score_case",
            )
        labels.add(case.label)


def _check_listed(settings: list[Setting], text: str, path: str) -> None:
    """Refuse more ``story:``, ``tip:`` or ``choice:`` lines than a file may hold."""
    for key, (_field, most) in LISTED_SETTINGS.items():
        lines = [s for s in settings if s.key == key]
        if len(lines) > most:
            raise error_at(
                f"the file has {len(lines)} `{key}:` lines",
                path=path,
                text=text,
                line=lines[most].pos.line,
                column=lines[most].pos.column,
                expected=f"at most {most}",
                code="variant_too_large",
            )


def check_changes_read(settings: list[Setting], text: str, path: str) -> None:
    """Refuse a ``choice:`` line whose ``change`` is not one setting line of the
    language that changes a rule (``bad_choice``). Its effect on the game is
    checked by ``cardrules check`` (:func:`cardrules.dsl.choices.check_choices`).
    """
    for s in settings:
        if s.key != "choice":
            continue
        ((_, (choice,)),) = s.changes
        if not choice.change:
            continue

        def refuse(message: str, expected: str, at: Setting = s) -> VariantError:
            return error_at(
                message,
                path=path,
                text=text,
                line=at.value_pos.line,
                column=at.value_pos.column,
                expected=expected,
                code="bad_choice",
            )

        try:
            parsed = parse_file(choice.change, path="<change>", require_game=False)
        except VariantError as exc:
            raise refuse(
                f"the house rule {choice.change[:60]!r} cannot be read: {exc.message}",
                "one setting line of the variant language, such as `hook: no`",
            ) from None
        keys = [x.key for x in parsed.settings]
        if len(keys) != 1 or parsed.examples:
            raise refuse("the house rule of a choice is one setting line", "such as `hook: no`")
        if keys[0] in NOT_A_CHANGE:
            raise refuse(
                f"`{keys[0]}:` names or describes the game; it is not a house rule",
                "a line that changes a rule, such as `hook: no`",
            )


def _with_conditions(
    items: list[Setting | ExLine], conditions: dict[int, tuple[Condition, int]], text: str
) -> list[Setting | ExLine]:
    """The statements with the conditions of their lines attached (each checked
    to be one its setting may take)."""
    out: list[Setting | ExLine] = []
    for x in items:
        found = conditions.get(x.pos.line) if isinstance(x, Setting) else None
        if isinstance(x, Setting) and found is not None:
            x = attrs.evolve(x, condition=found[0])
            check_condition(x, found[1], text)
        out.append(x)
    return out


def _transform(
    tree: Tree[Token], text: str, path: str, counters: tuple[str, ...] = ()
) -> list[Setting | ExLine]:
    error: VariantError
    try:
        return list(_Build(path, text, counters).transform(tree))
    except VisitError as exc:
        orig = exc.orig_exc
        if isinstance(orig, VariantError):
            error = orig
        elif isinstance(orig, CardError):
            error = VariantError(str(orig), path=path)
        else:
            error = VariantError(f"cannot read the file ({type(orig).__name__})", path=path)
    # Raised after the handler, without Lark's exception as its context (see
    # _parse_tree); an error of our own loses the traceback of Lark's visit.
    error.__context__ = None
    raise error.with_traceback(None)


def apply_settings(base: Variant, settings: Iterable[Setting]) -> Variant:
    """``base`` with every setting applied in order, positions recorded.

    A line with a condition is kept in :attr:`Variant.conditional` (replacing
    one of the same setting and condition); an unconditional line drops the
    conditional lines of its setting that ``base`` had (a house rule's
    ``hook: no`` replaces its parent's hook in every hand)."""
    settings = list(settings)
    v = base
    positions = dict(base.positions)
    stated = {s.key for s in settings if s.condition is None}
    conditional = [c for c in base.conditional if c.key not in stated]
    listed: set[str] = set()
    for s in settings:
        if s.condition is not None:
            cond = s.condition
            conditional = [c for c in conditional if (c.key, c.condition) != (s.key, cond)]
            conditional.append(ConditionalSetting(s.key, cond, s.changes, s.pos))
            continue
        for dotted, value in s.changes:
            if dotted.startswith("@"):
                continue
            if dotted.endswith("+"):
                dotted = dotted[:-1]
                names = {c.name for c in value}
                old = get_path(v, dotted)
                value = tuple(c for c in old if c.name not in names) + tuple(value)
            elif s.key in listed:
                # A second `tip:` line of the file adds to the first; the first
                # replaces what the parent had.
                value = get_path(v, dotted) + tuple(value)
            v = set_path(v, dotted, value)
        if s.key in LISTED_SETTINGS:
            listed.add(s.key)
        if s.key != "examples":  # each example keeps its own positions
            positions[s.key] = s.pos
    order = {k: i for i, k in enumerate(SETTING_NAMES)}
    ordered = tuple(sorted(positions.items(), key=lambda kv: order.get(kv[0], len(order))))
    # In the canonical order of the settings (as the formatter writes them);
    # the lines of one setting in the order written (a later one that holds wins).
    conditional.sort(key=lambda c: order.get(c.key, len(order)))
    return attrs.evolve(v, positions=ordered, conditional=tuple(conditional))


def parse(
    text: str | bytes,
    *,
    path: str = "<string>",
    validate: bool = True,
    counters: tuple[str, ...] = (),
) -> Variant:
    """Parse one variant file on its own.

    An ``extends:`` line is recorded in :attr:`Variant.parent` but not followed
    (use :func:`cardrules.dsl.load_text` for that): the settings apply to the
    defaults of :class:`~cardrules.rules.Variant`. Its formulas may read
    ``counters`` besides its own (those of the files it extends:
    :func:`~cardrules.dsl.loader.inherited_counters`).

    Args:
        text: the file's text (``bytes`` are decoded as UTF-8).
        path: the name to show in error messages.
        validate: run the semantic checks of :mod:`cardrules.dsl.validate`
            (skipped for a file that extends another, whose meaning depends on
            its parent).

    Raises:
        VariantError: for anything wrong in the file.
    """
    pf = parse_file(text, path=path, counters=counters)
    v = apply_settings(Variant(name=pf.name), pf.settings)
    v = attrs.evolve(v, source=pf.text, path=path)
    if validate and pf.extends is None:
        from .validate import validate as _validate

        _validate(v, sources={path: pf.text})
    return v


def card_text(c: Card) -> str:
    """A card as the formatter writes it (``A♠``)."""
    return str(c)
