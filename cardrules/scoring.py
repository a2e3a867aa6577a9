"""Scoring formulas: the small expression language of a variant's ``score:`` line.

A formula gives one player's points for one hand, for example::

    if exact then 10 + bid else 0
    tricks + (if exact then 10 else 0)
    if tricks >= bid then bid + 1/10 * (tricks - bid) else -bid

The language has

* numbers: integers and exact decimals (``0.1`` is exactly one tenth; no float is
  ever involved), at most :data:`MAX_NUMBER_DIGITS` digits each;
* the variables of :data:`VARIABLES` (``bid``, ``tricks``, ``exact``...);
* arithmetic ``+ - * /`` (``/`` is exact division) and ``//`` (division rounded
  down), unary minus and parentheses;
* comparisons ``= != < <= > >=`` (``==`` is accepted for ``=``), which do not chain;
* ``and``, ``or``, ``not``;
* ``if C then A else B``, nestable; it takes everything to its right, so inside a
  larger expression it must be put in parentheses;
* the functions ``abs(x)``, ``min(a, b, ...)`` and ``max(a, b, ...)``;
* questions about the cards the player took in the hand (:data:`CARD_QUESTIONS`,
  :class:`Taken`): ``took J♦``, ``took all hearts and Q♠``, ``took any hearts``,
  ``anyone took ...`` (conditions), ``points of hearts`` and ``cards taken of
  hearts`` (numbers). A group of cards is suits and cards joined by ``and``; it
  is read only after the words that take one (the lexer is contextual). The
  engine answers the questions (:meth:`Formula.questions`);
* ``#`` comments, to the end of the text.

From loosest to tightest binding: ``if``, ``or``, ``and``, ``not``, comparisons,
``+ -``, ``* / //``, unary ``-``. Every value is either a *number* or a
*condition* (true or false); the two are never mixed, and this is checked when
the formula is parsed. A whole formula must be a number.

Numbers stay small enough to work with: the numerator and the denominator of
every number a formula computes, at every step, have at most
:data:`MAX_VALUE_DIGITS` digits. When a formula is parsed, its numbers are
bounded over the largest values the variables take in a game
(:data:`VARIABLE_BOUNDS`), and a formula that could go past the limit is
refused. Evaluation checks every step as well, for values beyond those ranges,
and raises :class:`~cardrules.errors.ScoreError`. A running total is checked
with :func:`check_total` (at most :data:`MAX_TOTAL_DIGITS` digits).

Parsing never runs Python's ``eval``: a Lark LALR parser builds a tree of frozen
attrs nodes (:data:`Expr`), which is compiled once into nested closures.
"""

from __future__ import annotations

import difflib
import functools
import math
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final, TypeAlias, cast

import attrs
from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedToken

from cardrules.cards import SUIT_MASKS, SUIT_NAMES, card
from cardrules.errors import CardrulesError, ScoreError, VariantError
from cardrules.parser_tables import ParserSpec, load_parser

__all__ = [
    "CARD_QUESTIONS",
    "COUNTER_BOUND",
    "FUNCTIONS",
    "MAX_COUNTERS",
    "MAX_DEPTH",
    "MAX_FORMULA_LENGTH",
    "MAX_NUMBER_DIGITS",
    "MAX_TOTAL_DIGITS",
    "MAX_VALUE_DIGITS",
    "VARIABLES",
    "VARIABLE_BOUNDS",
    "VARIABLE_KINDS",
    "And",
    "Call",
    "Compare",
    "Expr",
    "Formula",
    "If",
    "Neg",
    "Not",
    "Num",
    "Or",
    "Product",
    "Sum",
    "Taken",
    "Value",
    "Var",
    "check_total",
    "format_expr",
    "format_formula",
    "formula_parser",
    "formula_parser_spec",
    "parse_formula",
    "score_env",
]

#: The longest formula text accepted, in characters.
MAX_FORMULA_LENGTH: Final = 2000
#: The deepest nesting accepted: levels of parentheses, and levels of the formula's tree.
MAX_DEPTH: Final = 50
#: The most digits one number written in a formula may have.
MAX_NUMBER_DIGITS: Final = 12
#: The most digits the numerator, and the denominator, of any number a formula
#: computes may have, at every step of its evaluation and in its result.
MAX_VALUE_DIGITS: Final = 100
#: The most digits the numerator, and the denominator, of a running total may
#: have (see :func:`check_total`): far below the 4,300 digits at which Python
#: stops converting an int to text.
MAX_TOTAL_DIGITS: Final = 300

# The same limits in bits, for a quick first test: a number of at most this many
# bits has at most the digits above (2**332 < 10**100); only larger ones are
# compared with the power of ten.
_VALUE_LIMIT: Final = 10**MAX_VALUE_DIGITS
_VALUE_BITS: Final = _VALUE_LIMIT.bit_length() - 1
_TOTAL_LIMIT: Final = 10**MAX_TOTAL_DIGITS
_TOTAL_BITS: Final = _TOTAL_LIMIT.bit_length() - 1

#: A value a formula works with: a number (int or Fraction) or a condition (bool).
Value: TypeAlias = int | Fraction | bool

NUMBER: Final = "number"
CONDITION: Final = "condition"

_VARIABLE_TABLE: Final[tuple[tuple[str, str, str], ...]] = (
    ("bid", NUMBER, "the number of tricks the player bid"),
    ("tricks", NUMBER, "the number of tricks the player took"),
    ("cards", NUMBER, "the number of cards dealt to each player this hand"),
    ("hand", NUMBER, "the hand number, counting from 1"),
    ("players", NUMBER, "the number of players in the game"),
    ("diff", NUMBER, "how far the player missed the bid by: abs(tricks - bid)"),
    ("exact", CONDITION, "true when the player took exactly the tricks bid"),
    ("over", CONDITION, "true when the player took more tricks than bid"),
    ("under", CONDITION, "true when the player took fewer tricks than bid"),
    ("blind", CONDITION, "true when the player bid blind, before seeing the cards"),
    ("points", NUMBER, "the card points the player took in the hand (see card points)"),
    ("all_points", NUMBER, "the card points all the players took in the hand together"),
    ("most_points", NUMBER, "the most card points any one player took in the hand"),
    ("team_bid", NUMBER, "the bids of the player's team added up (its own bid without teams)"),
    ("team_tricks", NUMBER, "the tricks the player's team took (its own without teams)"),
    ("team_points", NUMBER, "the card points the player's team took (its own without teams)"),
    ("partner_bid", NUMBER, "the bids of the player's partners added up (0 without teams)"),
    ("partner_tricks", NUMBER, "the tricks the player's partners took (0 without teams)"),
    (
        "maker",
        CONDITION,
        "true when the player (with teams: the player's team) made trumps this hand",
    ),
    (
        "maker_tricks",
        NUMBER,
        "the tricks taken this hand by the player (with teams: the team) who made trumps",
    ),
    (
        "alone",
        CONDITION,
        "true for the side that made trumps when its maker played alone (`going alone`)",
    ),
    (
        "defended_alone",
        CONDITION,
        "true for the side that defended when one of its players defended alone against a "
        "lone maker (`defending alone`)",
    ),
    ("bid_level", NUMBER, "the highest bid of the hand, the contract's level (0 if nobody bid)"),
    ("downtown", CONDITION, "true when the hand's ranks are reversed (`downtown`: declared low)"),
    ("no_trumps", CONDITION, "true when the hand is played without trumps"),
    ("misere", CONDITION, "true when the hand's contract is misère (`misère: yes`)"),
    (
        "open_misere",
        CONDITION,
        "true when the hand's contract is open misère (`open misère: a bid above ...`)",
    ),
    (
        "bid_strain",
        NUMBER,
        "the strain of the winning contract bid (`bids: ... in ...`): its place in the file's "
        "list, from 0 (-1 for misère or open misère, or when bids are numbers)",
    ),
)

#: Every variable a formula may use, with a one-line description.
VARIABLES: Final[Mapping[str, str]] = MappingProxyType(
    {name: text for name, _, text in _VARIABLE_TABLE}
)
#: Whether each variable is a ``"number"`` or a ``"condition"``.
VARIABLE_KINDS: Final[Mapping[str, str]] = MappingProxyType(
    {name: kind for name, kind, _ in _VARIABLE_TABLE}
)
#: The functions a formula may call, with a one-line description.
FUNCTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "abs": "abs(x): x without its sign",
        "min": "min(a, b, ...): the smallest of two or more numbers",
        "max": "max(a, b, ...): the largest of two or more numbers",
    }
)
#: The largest value each number variable takes in a game: the check made when a
#: formula is parsed bounds its numbers for whole-number variables of at most this size
#: (either sign). A pack has at most 52 cards, so a hand, a bid, the tricks taken
#: and ``diff`` are at most 52; a game has at most 52 players, and at most 1,000
#: scheduled hands (:data:`cardrules.rules.MAX_SCHEDULE_HANDS`) plus at most
#: 1,000 tie-break hands (``tie: extra hands, at most 1000``). A card carries at
#: most 100 points of either sign (``card points:``), so the points of a hand, one
#: player's or everyone's, are at most 52 * 100.
VARIABLE_BOUNDS: Final[Mapping[str, int]] = MappingProxyType(
    {
        "bid": 52,
        "tricks": 52,
        "cards": 52,
        "hand": 2000,
        "players": 52,
        "diff": 52,
        "points": 5200,
        "all_points": 5200,
        "most_points": 5200,
        "team_bid": 52,
        "team_tricks": 52,
        "team_points": 5200,
        "partner_bid": 52,
        "partner_tricks": 52,
        "maker_tricks": 52,
        "bid_level": 52,
        "bid_strain": 5,
    }
)
#: The largest value of a counter (``counter bags: ...``), either sign: a
#: counter's new value after a hand is rounded down to a whole number and kept
#: within this bound, so a formula reading a counter is bounded like any other.
COUNTER_BOUND: Final = 1_000_000
#: The most counters one game may keep.
MAX_COUNTERS: Final = 8

# The counter names the formula being parsed may read (set by parse_formula).
_COUNTERS: ContextVar[frozenset[str]] = ContextVar("_COUNTERS", default=frozenset())
_KEYWORDS: Final = ("if", "then", "else", "and", "or", "not")


# --------------------------------------------------------------------------- the tree


@attrs.frozen
class Num:
    """A number written in the formula (never negative: ``-1`` is ``Neg(Num(1))``)."""

    value: Fraction


@attrs.frozen
class Var:
    """A variable, one of :data:`VARIABLES`."""

    name: str


@attrs.frozen
class Neg:
    """Unary minus."""

    operand: Expr


@attrs.frozen
class Not:
    """``not`` a condition."""

    operand: Expr


@attrs.frozen
class Sum:
    """``first`` followed by ``+ term`` or ``- term`` for each ``(op, term)`` of ``rest``."""

    first: Expr
    rest: tuple[tuple[str, Expr], ...]


@attrs.frozen
class Product:
    """``first`` followed by ``* x``, ``/ x`` or ``// x`` for each ``(op, x)`` of ``rest``."""

    first: Expr
    rest: tuple[tuple[str, Expr], ...]


@attrs.frozen
class Compare:
    """``left op right``; ``op`` is one of ``= != < <= > >=``."""

    left: Expr
    op: str
    right: Expr


@attrs.frozen
class And:
    """Two or more conditions joined by ``and``."""

    operands: tuple[Expr, ...]


@attrs.frozen
class Or:
    """Two or more conditions joined by ``or``."""

    operands: tuple[Expr, ...]


@attrs.frozen
class If:
    """``if cond then then else orelse``."""

    cond: Expr
    then: Expr
    orelse: Expr


@attrs.frozen
class Call:
    """A call of one of :data:`FUNCTIONS`."""

    func: str
    args: tuple[Expr, ...]


#: The questions a formula may ask about the cards taken in the hand, with what
#: each gives: ``took J♦`` (one card), ``took all hearts and Q♠`` (every card of
#: the group that was played in the hand, and at least one), ``took any hearts``
#: (at least one card of the group), ``points of hearts`` (the card points of the
#: group's cards taken) and ``cards taken of hearts`` (how many of them).
CARD_QUESTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "took": CONDITION,
        "took all": CONDITION,
        "took any": CONDITION,
        "points of": NUMBER,
        "cards taken of": NUMBER,
    }
)


@attrs.frozen
class Taken:
    """A question about the cards the player (in a ``team score:`` or counter
    formula, the team) took in the hand: one of :data:`CARD_QUESTIONS`, about a
    group of cards and suits.

    The formula does not answer it: the engine does, from the cards each seat
    won, and passes the answers in the formula's variables, each under the
    question's canonical text (see :meth:`Formula.questions`).

    Attributes:
        question: one of :data:`CARD_QUESTIONS`.
        group: the group's suits and cards as written canonically (``hearts``,
            ``Q♠``), in the order written, each once.
        mask: the group's cards, as a bitmask of card ids.
        anyone: ``anyone took ...``: whether some player (in a team formula,
            some team) took them, rather than this one.
    """

    question: str
    group: tuple[str, ...]
    mask: int
    anyone: bool = False


#: A node of a parsed formula. Nodes compare by structure: the tree keeps the
#: grouping written in the source (``(a + b) + c`` differs from ``a + b + c``) but
#: no source positions, no redundant parentheses and no spacing.
Expr: TypeAlias = Num | Var | Neg | Not | Sum | Product | Compare | And | Or | If | Call | Taken

_Fn: TypeAlias = Callable[[Mapping[str, Value]], Value]


# --------------------------------------------------------------------------- formulas


@attrs.frozen
class Formula:
    """A parsed scoring formula.

    Build one with :func:`parse_formula` (which reports errors at their place in a
    file) or with ``Formula(text)``. Two formulas are equal, and hash alike, when
    their canonical texts are equal, which is when their trees are equal; where
    the text came from plays no part.

    Attributes:
        text: the canonical text (see :func:`format_formula`).
        expr: the formula's tree.

    Raises:
        VariantError: from ``Formula(text)``, if ``text`` is not a valid formula.
    """

    text: str
    counters: tuple[str, ...] = attrs.field(default=(), repr=False)
    expr: Expr = attrs.field(init=False, eq=False, repr=False)
    _fn: _Fn = attrs.field(init=False, eq=False, repr=False)
    _uses: frozenset[str] = attrs.field(init=False, eq=False, repr=False)
    _questions: tuple[Taken, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        parsed = parse_formula(self.text, counters=self.counters)
        _fill(self, parsed.text, parsed.expr, parsed.counters)

    @classmethod
    def _of(cls, text: str, expr: Expr, counters: tuple[str, ...] = ()) -> Formula:
        """A formula from its canonical text and tree, without parsing again."""
        self = cls.__new__(cls)
        _fill(self, text, expr, counters)
        return self

    def evaluate(self, env: Mapping[str, Value]) -> Fraction:
        """The formula's value, computed exactly.

        Division by zero does not fail: a literal zero divisor is refused when the
        formula is parsed, and a divisor that turns out to be zero when evaluating
        (``tricks / bid`` with a bid of 0) makes that division (``/`` or ``//``)
        worth 0. ``//`` rounds down (towards minus infinity).

        Every step is checked: a number whose numerator or denominator has more
        than :data:`MAX_VALUE_DIGITS` digits raises :class:`ScoreError`. With
        values within :data:`VARIABLE_BOUNDS` (all a game passes) that never
        happens, since such formulas are refused when parsed.

        Args:
            env: a value for every variable the formula uses (see :meth:`uses`),
                such as the dict :func:`score_env` returns. Numbers must be ints or
                Fractions, conditions bools.

        Returns:
            The points, as a Fraction (an integer score has denominator 1).

        Raises:
            VariantError: if ``env`` lacks a variable the formula uses.
            ScoreError: if a step or the result is too large (see above), or the
                values of ``env`` cannot be computed with (not numbers).
        """
        try:
            result = self._fn(env)
            if type(result) is int:
                if result.bit_length() > _VALUE_BITS:
                    _fit(result)
                value = Fraction(result)
            else:
                value = _fit(result if type(result) is Fraction else Fraction(result))
        except KeyError as exc:
            name = exc.args[0] if exc.args else "?"
            raise VariantError(
                f"the formula {self.text!r} uses {name!r}, but no value was given for it",
                expected=f"values for {', '.join(sorted(self._uses))}",
            ) from None
        except _TooLarge as exc:
            raise self._too_large(exc, env) from None
        except CardrulesError:  # pragma: no cover - nothing inside raises one
            raise
        except (ArithmeticError, TypeError, ValueError) as exc:
            raise ScoreError(
                f"the score formula {_clip(self.text)!r} cannot be worked out with "
                f"{_show_env(env, self._uses)}: {type(exc).__name__}: {exc}",
                formula=self.text,
                code="score_error",
            ) from None
        return value

    def _too_large(self, exc: _TooLarge, env: Mapping[str, Value]) -> ScoreError:
        which, d = _oversize(exc.value, _VALUE_LIMIT)
        where = "its result" if exc.node is None else f"the step {_clip(format_expr(exc.node))!r}"
        return ScoreError(
            f"the score formula {_clip(self.text)!r}, with {_show_env(env, self._uses)}, "
            f"reached a number too large to work with: {where} has a {which} of "
            f"{d:,} digits, and a score may have at most {MAX_VALUE_DIGITS}",
            formula=self.text,
        )

    def uses(self) -> frozenset[str]:
        """The names of the variables the formula uses."""
        return self._uses

    def questions(self) -> tuple[Taken, ...]:
        """The questions the formula asks about the cards taken (``took J♦``,
        ``points of hearts``...), each once, in the order written.

        :meth:`evaluate` reads each one's answer from its ``env`` under the
        question's canonical text, ``format_expr(question)``: a bool for
        ``took``, ``took all`` and ``took any``, an int for ``points of`` and
        ``cards taken of``.
        """
        return self._questions

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[type[Formula], tuple[str, tuple[str, ...]]]:
        return (Formula, (self.text, self.counters))


def _fill(f: Formula, text: str, expr: Expr, counters: tuple[str, ...] = ()) -> None:
    # Only the counters the formula reads are kept: equal texts, equal formulas.
    used = _variables(expr)
    object.__setattr__(f, "counters", tuple(sorted(c for c in counters if c in used)))
    object.__setattr__(f, "text", text)
    object.__setattr__(f, "expr", expr)
    object.__setattr__(f, "_fn", _compile(expr))
    object.__setattr__(f, "_uses", frozenset(_variables(expr)))
    object.__setattr__(f, "_questions", _questions_of(expr))


def check_total(
    total: int | Fraction,
    *,
    seat: int | None = None,
    hand: int | None = None,
    formula: Formula | str | None = None,
) -> None:
    """Check that a running total is small enough to keep.

    A formula's every value is bounded, but a sum of them is not: the total of
    ``1/(hand + 7)`` over a long game has for its denominator the least common
    multiple of 8, 9, 10... A total whose numerator or denominator has more than
    :data:`MAX_TOTAL_DIGITS` digits is refused. The test is a bit count, quick
    enough to make after every hand.

    Args:
        total: the running total.
        seat: whose total it is, for the message.
        hand: the hand just scored, for the message.
        formula: the scoring formula, for the message.

    Raises:
        ScoreError: if the total is too large.
    """
    if type(total) is int:
        if total.bit_length() <= _TOTAL_BITS:
            return
    elif (
        total.numerator.bit_length() <= _TOTAL_BITS
        and total.denominator.bit_length() <= _TOTAL_BITS
    ):
        return
    which, d = _oversize(total, _TOTAL_LIMIT)
    if not d:
        return
    whose = "the running total" if seat is None else f"the running total of seat {seat}"
    when = "" if hand is None else f" after hand {hand}"
    text = formula.text if isinstance(formula, Formula) else formula
    rule = "" if text is None else f" (score: {_clip(text)})"
    raise ScoreError(
        f"{whose}{when} is too large to keep{rule}: its {which} has {d:,} digits, "
        f"and a total may have at most {MAX_TOTAL_DIGITS}",
        formula=text,
    )


def format_formula(f: Formula) -> str:
    """The canonical text of a formula.

    The canonical text has single spaces around binary operators and keywords, no
    redundant parentheses, ``=`` for ``==``, numbers without needless zeros
    (``0.10`` becomes ``0.1``) and no comments. ``parse_formula(format_formula(f))
    == f`` always holds.
    """
    return f.text


def score_env(
    *,
    bid: int,
    tricks: int,
    cards: int,
    hand: int,
    players: int,
    blind: bool = False,
    points: int = 0,
    all_points: int = 0,
    most_points: int = 0,
    team_bid: int | None = None,
    team_tricks: int | None = None,
    team_points: int | None = None,
    counters: Mapping[str, int] | None = None,
    maker: bool = False,
    maker_tricks: int = 0,
    alone: bool = False,
    defended_alone: bool = False,
    contract: tuple[int, bool, bool, bool, int, bool] = (0, False, False, False, -1, False),
) -> dict[str, Value]:
    """The variables of one player's hand, ready for :meth:`Formula.evaluate`.

    Args:
        bid: the tricks the player bid.
        tricks: the tricks the player took.
        cards: the cards dealt to each player this hand.
        hand: the hand number, from 1.
        players: the number of players.
        blind: whether the bid was made blind.
        points: the card points the player took in the hand.
        all_points: the card points everyone took in the hand.
        most_points: the most card points one player took in the hand.
        team_bid: the bids of the player's team together (``None``: its own bid,
            a team of one).
        team_tricks: the tricks its team took (``None``: its own).
        team_points: the card points its team took (``None``: its own).
        counters: the values of the game's counters for the player's team.
        maker: whether the player made trumps this hand (with teams: the
            player's team, one of whose players made them).
        maker_tricks: the tricks the player who made trumps took (with teams:
            that player's team).
        alone: whether the player's side made trumps and its maker played alone.
        defended_alone: whether the player's side defended and one of its players
            defended alone.
        contract: the hand's contract: the highest bid (0: none), whether the
            ranks are reversed (downtown), whether it has no trumps, whether it
            is misère, the strain of the winning contract bid (-1: none), and
            whether it is open misère.

    Returns:
        Every name of :data:`VARIABLES`, with ``exact``, ``over``, ``under`` and
        ``diff`` worked out from ``bid`` and ``tricks``, ``partner_bid`` and
        ``partner_tricks`` from the team's and the player's own; and the counters.
    """
    tb = bid if team_bid is None else team_bid
    tt = tricks if team_tricks is None else team_tricks
    env: dict[str, Value] = {
        "bid": bid,
        "tricks": tricks,
        "cards": cards,
        "hand": hand,
        "players": players,
        "diff": abs(tricks - bid),
        "exact": tricks == bid,
        "over": tricks > bid,
        "under": tricks < bid,
        "blind": bool(blind),
        "points": points,
        "all_points": all_points,
        "most_points": most_points,
        "team_bid": tb,
        "team_tricks": tt,
        "team_points": points if team_points is None else team_points,
        "partner_bid": tb - bid,
        "partner_tricks": tt - tricks,
        "maker": bool(maker),
        "maker_tricks": maker_tricks,
        "alone": bool(alone),
        "defended_alone": bool(defended_alone),
        "bid_level": contract[0],
        "downtown": bool(contract[1]),
        "no_trumps": bool(contract[2]),
        "misere": bool(contract[3]),
        "bid_strain": contract[4],
        "open_misere": bool(contract[5]),
    }
    if counters:
        env.update(counters)
    return env


# --------------------------------------------------------------------------- grammar

#: One suit or card of a group (as the variant language writes them): a suit's
#: name or symbol, or a card such as ``Q♠``, ``qs``, ``10h`` or a joker.
_GROUP_ITEM: Final = (
    r"(?:spades?|hearts?|diamonds?|clubs?|[♠♤♥♡♦♢♣♧]"
    r"|(?:10|[2-9tjqka])(?:[shdc]|[♠♤♥♡♦♢♣♧])|[bl]j|(?:big|little)[ \t]+joker)(?![\w'-])"
)
_GROUP_JOIN: Final = re.compile(r"[ \t]+and[ \t]+", re.IGNORECASE)

_GRAMMAR: Final = r"""
?start: expr

?expr: or_test
     | IF expr _THEN expr _ELSE expr       -> cond

?or_test: and_test (OR and_test)*
?and_test: not_test (AND not_test)*
?not_test: comparison
         | NOT not_test                    -> not_
?comparison: sum (COMP_OP sum)?
?sum: product ((PLUS | MINUS) product)*
?product: unary ((STAR | SLASH | DSLASH) unary)*
?unary: atom
      | MINUS unary                        -> neg
?atom: NUMBER                              -> number
     | NAME                                -> var
     | NAME _LPAR args _RPAR               -> call
     | NAME _OF GROUP                      -> points_of
     | NAME TAKEN _OF GROUP                -> cards_taken_of
     | ANYONE? TOOK (ALL | ANY)? _OF? GROUP -> took
     | _LPAR expr _RPAR
args: expr (_COMMA expr)*

IF: "if"
_THEN: "then"
_ELSE: "else"
AND: "and"
OR: "or"
NOT: "not"
TOOK: "took"
ANYONE: "anyone"
ALL: "all"
ANY: "any"
TAKEN: "taken"
_OF: "of"
// A group of cards: suits and cards joined by "and" (hearts and Q♠). It is read
// only where a group is expected (the lexer is contextual), before a name.
GROUP.2: /_ITEM([ \t]+and[ \t]+_ITEM)*/i
NAME: /[A-Za-z_][A-Za-z0-9_]*/
NUMBER: /[0-9]+(\.[0-9]+)?/
COMP_OP: /==|!=|<=|>=|=|<|>/
PLUS: "+"
MINUS: "-"
STAR: "*"
DSLASH: "//"
SLASH: "/"
_LPAR: "("
_RPAR: ")"
_COMMA: ","
COMMENT: /#[^\n]*/
WS: /[ \t\f\r\n]+/
%ignore WS
%ignore COMMENT
""".replace("_ITEM", _GROUP_ITEM)


class _FormulaError(Exception):
    """A problem found while building the tree, at an offset in the text."""

    def __init__(
        self, message: str, offset: int, expected: str | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.expected = expected
        self.hint = hint


# --------------------------------------------------------------------------- the bound


@attrs.frozen
class _Bound:
    """What the parser knows of the values a number part can take, over the ranges
    of :data:`VARIABLE_BOUNDS`: each field bounds every value the part computes.

    Attributes:
        mag: the largest absolute value.
        num: the largest absolute numerator (in lowest terms).
        den: the largest denominator.
        mult: a number every denominator divides, when one is known (a sum of
            tenths has denominators dividing 10, however many terms it has).
        const: the value itself, when the part uses no variable.
    """

    mag: Fraction
    num: int
    den: int
    mult: int | None
    const: Fraction | None = None


def _exact(v: Fraction) -> _Bound:
    return _Bound(abs(v), abs(v.numerator), v.denominator, v.denominator, v)


def _bound(mag: Fraction, num: int, den: int, mult: int | None) -> _Bound:
    """A bound, each field tightened by the others (|num| = |value| * den)."""
    if mult is not None:
        den = min(den, mult)
    num = min(num, math.floor(mag * den))
    mag = min(mag, Fraction(num))
    if mag.denominator.bit_length() > 64:
        mag = Fraction(math.ceil(mag))  # keep the bound itself small
    return _Bound(mag, num, den, mult)


def _var_bound(name: str) -> _Bound:
    top = VARIABLE_BOUNDS[name]
    return _Bound(Fraction(top), top, 1, 1)


def _join(bounds: Iterable[_Bound]) -> _Bound:
    """The bound of a value that is one of several (``if``, ``min``, ``max``)."""
    bs = list(bounds)
    mults = [b.mult for b in bs]
    mult = None if None in mults else math.lcm(*cast(list[int], mults))
    return _bound(max(b.mag for b in bs), max(b.num for b in bs), max(b.den for b in bs), mult)


def _step(op: str, a: _Bound, b: _Bound) -> _Bound:
    """The bound of ``a op b``, computed as :func:`_compile` does (x / 0 is 0)."""
    if a.const is not None and b.const is not None:
        # Both known: the value itself (both are small, and so is the result of
        # one step, though it may be over the limit, which the caller checks).
        return _exact(Fraction(_BINARY_EXACT[op](a.const, b.const)))
    both = None if a.mult is None or b.mult is None else (a.mult, b.mult)
    if op in ("+", "-"):
        mult = None if both is None else math.lcm(*both)
        return _bound(a.mag + b.mag, a.num * b.den + b.num * a.den, a.den * b.den, mult)
    if op == "*":
        mult = None if both is None else both[0] * both[1]
        return _bound(a.mag * b.mag, a.num * b.num, a.den * b.den, mult)
    if b.const == 0:  # refused when parsed; worth 0 when evaluated
        return _exact(Fraction(0))
    if b.const is not None:
        # Division by a known number c = p/q (not 0): a * q / p.
        p, q = abs(b.const.numerator), b.const.denominator
        mag = a.mag / p * q
        quotient = _bound(mag, a.num * q, a.den * p, None if a.mult is None else a.mult * p)
    else:
        # b is 0 (and the division worth 0) or at least 1/b.den in size.
        mag = a.mag * b.den
        quotient = _bound(mag, a.num * b.den, a.den * max(b.num, 1), None)
    if op == "/":
        return quotient
    top = math.ceil(quotient.mag)  # |floor(x)| <= ceil(|x|)
    return _Bound(Fraction(top), top, 1, 1)


def _exact_div(x: Fraction, y: Fraction) -> Fraction:
    return Fraction(0) if y == 0 else x / y


def _exact_floordiv(x: Fraction, y: Fraction) -> Fraction:
    return Fraction(0) if y == 0 else Fraction(x // y)


_BINARY_EXACT: Final[Mapping[str, Callable[[Fraction, Fraction], Fraction]]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": _exact_div,
    "//": _exact_floordiv,
}


def _check_bound(b: _Bound, offset: int) -> None:
    """Refuse, at ``offset``, a part that can compute a number over the limit."""
    for which, n in (("numerator", b.num), ("denominator", b.den)):
        if n >= _VALUE_LIMIT:
            ranges = ", ".join(f"{k} {v:,}" for k, v in VARIABLE_BOUNDS.items())
            raise _FormulaError(
                f"a number too large to work with: at this step its {which} could "
                f"have {_digits(n):,} digits, more than the {MAX_VALUE_DIGITS} allowed",
                offset,
                expected=f"numbers whose numerator and denominator have at most "
                f"{MAX_VALUE_DIGITS} digits at every step, with variables up to "
                f"{ranges}",
                hint="use smaller numbers, or multiply or divide by fewer of them",
            )


@attrs.define(slots=True)
class _Part:
    """A piece of the tree being built: its node, kind, start offset and depth,
    and for a number the bound of its values."""

    node: Expr
    kind: str
    start: int
    depth: int
    bound: _Bound | None = None


_EXPECT_KIND: Final = {
    NUMBER: "a number, such as 'bid' or '10 * tricks'",
    CONDITION: "a condition (true or false), such as 'exact' or 'tricks > bid'",
}
_KIND_WORDS: Final = {NUMBER: "a number", CONDITION: "a condition (true or false)"}


def _start(tok: Token) -> int:
    return tok.start_pos or 0


def _describe(part: _Part) -> str:
    if isinstance(part.node, Var):
        return f"{part.node.name!r} is {_KIND_WORDS[part.kind]}"
    return f"this is {_KIND_WORDS[part.kind]}"


def _need(part: _Part, kind: str, where: str) -> None:
    if part.kind != kind:
        raise _FormulaError(
            f"{where} must be {_KIND_WORDS[kind]}, but {_describe(part)}",
            part.start,
            expected=_EXPECT_KIND[kind],
        )


def _part(
    node: Expr, kind: str, start: int, children: Iterable[_Part], bound: _Bound | None = None
) -> _Part:
    depth = 1 + max((c.depth for c in children), default=0)
    if depth > MAX_DEPTH:
        raise _FormulaError(
            f"the formula is nested too deeply (more than {MAX_DEPTH} levels)",
            start,
            hint="split it up, or write it more simply",
        )
    return _Part(node, kind, start, depth, bound)


def _bound_of(part: _Part) -> _Bound:
    if part.bound is None:  # pragma: no cover - every number part has one
        raise _FormulaError("internal error: a number without a bound", part.start)
    return part.bound


def _did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


#: The most cards of a pack, the largest number ``cards taken of`` can give
#: (the 52 cards and two jokers).
_MOST_CARDS: Final = 54


def _group(tok: Token) -> tuple[tuple[str, ...], int]:
    """A group's items in canonical form (each once, in the order written) and its cards."""
    items: dict[str, None] = {}
    mask = 0
    for word in _GROUP_JOIN.split(tok.value.strip()):
        suit = SUIT_NAMES.get(word.lower())
        if suit is not None:
            items[suit.name.lower()] = None
            mask |= SUIT_MASKS[suit]
        else:
            c = card(word)
            items[str(c)] = None
            mask |= 1 << int(c)
    return tuple(items), mask


class _Builder(Transformer[Token, Any]):
    """Builds :class:`_Part` objects as the LALR parser reduces (no recursion)."""

    def number(self, children: list[Token]) -> _Part:
        (tok,) = children
        digits = len(tok.value) - tok.value.count(".")
        if digits > MAX_NUMBER_DIGITS:
            raise _FormulaError(
                f"the number {tok.value[:20]}{'...' if len(tok.value) > 20 else ''} is too long",
                _start(tok),
                expected=f"a number of at most {MAX_NUMBER_DIGITS} digits",
            )
        value = Fraction(tok.value)
        return _Part(Num(value), NUMBER, _start(tok), 1, _exact(value))

    def var(self, children: list[Token]) -> _Part:
        (tok,) = children
        name = tok.value
        if name in _COUNTERS.get() and name not in VARIABLES:
            bound = _Bound(Fraction(COUNTER_BOUND), COUNTER_BOUND, 1, 1)
            return _Part(Var(name), NUMBER, _start(tok), 1, bound)
        kind = VARIABLE_KINDS.get(name)
        if kind is None:
            known = ", ".join(VARIABLES)
            if name in FUNCTIONS:
                raise _FormulaError(
                    f"{name!r} is a function, not a variable",
                    _start(tok),
                    expected=f"{name}(...)",
                    hint=f"write it as {FUNCTIONS[name].split(':')[0]}",
                )
            if name.lower() in VARIABLES:
                hint: str | None = f"names are lower case: write {name.lower()!r}"
            else:
                hint = _did_you_mean(name, VARIABLES)
            raise _FormulaError(
                f"unknown variable {name!r}",
                _start(tok),
                expected=f"one of the variables {known}",
                hint=hint,
            )
        return _Part(Var(name), kind, _start(tok), 1, _var_bound(name) if kind == NUMBER else None)

    def args(self, children: list[_Part]) -> list[_Part]:
        return children

    def took(self, children: list[Token]) -> _Part:
        anyone = children[0].type == "ANYONE"
        words = [t for t in children if t.type in ("ALL", "ANY")]
        group_tok = children[-1]
        group, mask = _group(group_tok)
        question = "took"
        if mask.bit_count() > 1:
            if not words:
                raise _FormulaError(
                    f"'took' names one card, but {group_tok.value!r} is a group of cards",
                    _start(group_tok),
                    expected="took all <cards>, took any <cards>, or took <one card>",
                    hint=f"write 'took all {group_tok.value}' (every one of them) or "
                    f"'took any {group_tok.value}' (at least one)",
                )
            question = f"took {words[0].value.lower()}"
        node = Taken(question, group, mask, anyone)
        return _Part(node, CONDITION, _start(children[0]), 1)

    def points_of(self, children: list[Token]) -> _Part:
        name_tok, group_tok = children
        return self._counted(name_tok, "points", "points of", group_tok)

    def cards_taken_of(self, children: list[Token]) -> _Part:
        name_tok, _taken, group_tok = children
        return self._counted(name_tok, "cards", "cards taken of", group_tok)

    def _counted(self, name_tok: Token, name: str, question: str, group_tok: Token) -> _Part:
        """``points of G`` or ``cards taken of G``: a number, from the word before it."""
        if name_tok.value != name:
            raise _FormulaError(
                f"{name_tok.value!r} cannot be read for a group of cards",
                _start(name_tok),
                expected="points of <cards> or cards taken of <cards>",
                hint="write 'points of hearts' for the card points of the hearts taken, "
                "or 'cards taken of hearts' for how many of them",
            )
        group, mask = _group(group_tok)
        top = VARIABLE_BOUNDS["points"] if question == "points of" else _MOST_CARDS
        bound = _Bound(Fraction(top), top, 1, 1)
        return _Part(Taken(question, group, mask), NUMBER, _start(name_tok), 1, bound)

    def call(self, children: list[Any]) -> _Part:
        tok: Token = children[0]
        args: list[_Part] = children[1]
        name = tok.value
        if name in VARIABLES:
            raise _FormulaError(
                f"{name!r} is a variable, not a function",
                _start(tok),
                expected=f"one of the functions {', '.join(FUNCTIONS)}",
                hint="is an operator missing? Write '*' to multiply, as in 'bid * (tricks + 1)'",
            )
        if name not in FUNCTIONS:
            raise _FormulaError(
                f"unknown function {name!r}",
                _start(tok),
                expected=f"one of the functions {', '.join(FUNCTIONS)}",
                hint=_did_you_mean(name, FUNCTIONS),
            )
        if name == "abs" and len(args) != 1:
            raise _FormulaError(
                f"abs takes one number, but {len(args)} were given",
                _start(tok),
                expected="abs(x)",
            )
        if name != "abs" and len(args) < 2:
            raise _FormulaError(
                f"{name} takes two or more numbers, but 1 was given",
                _start(tok),
                expected=f"{name}(a, b, ...)",
            )
        for a in args:
            _need(a, NUMBER, f"{name}()")
        if name == "abs":
            b = _bound_of(args[0])
            bound = attrs.evolve(b, const=None if b.const is None else abs(b.const))
        else:
            bound = _join(_bound_of(a) for a in args)
        return _part(Call(name, tuple(a.node for a in args)), NUMBER, _start(tok), args, bound)

    def neg(self, children: list[Any]) -> _Part:
        tok: Token = children[0]
        operand: _Part = children[1]
        _need(operand, NUMBER, "'-'")
        b = _bound_of(operand)
        bound = attrs.evolve(b, const=None if b.const is None else -b.const)
        return _part(Neg(operand.node), NUMBER, _start(tok), [operand], bound)

    def not_(self, children: list[Any]) -> _Part:
        tok: Token = children[0]
        operand: _Part = children[1]
        _need(operand, CONDITION, "'not'")
        return _part(Not(operand.node), CONDITION, _start(tok), [operand])

    def _chain(self, children: list[Any], kind: str) -> tuple[_Part, list[tuple[str, _Part]]]:
        first: _Part = children[0]
        rest: list[tuple[str, _Part]] = []
        for i in range(1, len(children), 2):
            op: Token = children[i]
            rest.append((op.value, children[i + 1]))
        _need(first, kind, f"{rest[0][0]!r}")
        for op_text, p in rest:
            _need(p, kind, f"{op_text!r}")
        return first, rest

    def _fold(self, first: _Part, rest: list[tuple[str, _Part]]) -> _Bound:
        """The bound of a chain, checked after every step (each is a value computed)."""
        acc = _bound_of(first)
        for op, p in rest:
            acc = _step(op, acc, _bound_of(p))
            _check_bound(acc, p.start)
        return acc

    def sum(self, children: list[Any]) -> _Part:
        first, rest = self._chain(children, NUMBER)
        bound = self._fold(first, rest)
        node = Sum(first.node, tuple((op, p.node) for op, p in rest))
        return _part(node, NUMBER, first.start, [first, *(p for _, p in rest)], bound)

    def product(self, children: list[Any]) -> _Part:
        first, rest = self._chain(children, NUMBER)
        for op, p in rest:
            if op not in ("/", "//"):
                continue
            const = _bound_of(p).const
            if const == 0 or (
                const is None and not _variables(p.node) and _compile(p.node)({}) == 0
            ):
                raise _FormulaError(
                    "division by zero",
                    p.start,
                    expected="a divisor that is not zero",
                )
        bound = self._fold(first, rest)
        node = Product(first.node, tuple((op, p.node) for op, p in rest))
        return _part(node, NUMBER, first.start, [first, *(p for _, p in rest)], bound)

    def comparison(self, children: list[Any]) -> _Part:
        left: _Part = children[0]
        tok: Token = children[1]
        right: _Part = children[2]
        op = "=" if tok.value == "==" else tok.value
        if op in ("=", "!="):
            if left.kind != right.kind:
                raise _FormulaError(
                    f"{op!r} compares {_KIND_WORDS[left.kind]} with {_KIND_WORDS[right.kind]}",
                    right.start,
                    expected=f"{_KIND_WORDS[left.kind]}, like the left side",
                )
        else:
            _need(left, NUMBER, f"{op!r}")
            _need(right, NUMBER, f"{op!r}")
        return _part(Compare(left.node, op, right.node), CONDITION, left.start, [left, right])

    def and_test(self, children: list[Any]) -> _Part:
        first, rest = self._chain(children, CONDITION)
        parts = [first, *(p for _, p in rest)]
        return _part(And(tuple(p.node for p in parts)), CONDITION, first.start, parts)

    def or_test(self, children: list[Any]) -> _Part:
        first, rest = self._chain(children, CONDITION)
        parts = [first, *(p for _, p in rest)]
        return _part(Or(tuple(p.node for p in parts)), CONDITION, first.start, parts)

    def cond(self, children: list[Any]) -> _Part:
        tok: Token = children[0]
        c: _Part = children[1]
        a: _Part = children[2]
        b: _Part = children[3]
        _need(c, CONDITION, "the part after 'if'")
        if a.kind != b.kind:
            raise _FormulaError(
                f"the 'else' part is {_KIND_WORDS[b.kind]}, "
                f"but the 'then' part is {_KIND_WORDS[a.kind]}",
                b.start,
                expected=_EXPECT_KIND[a.kind],
            )
        bound = _join([_bound_of(a), _bound_of(b)]) if a.kind == NUMBER else None
        return _part(If(c.node, a.node, b.node), a.kind, _start(tok), [c, a, b], bound)


class _Keywords:
    """Keeps the formulas' words reserved with the contextual lexer: each is
    looked for everywhere, so that a keyword where it cannot stand is an error
    at that word rather than a name (no tokens are changed)."""

    always_accept: Final = (
        "IF",
        "_THEN",
        "_ELSE",
        "AND",
        "OR",
        "NOT",
        "TOOK",
        "ANYONE",
        "ALL",
        "ANY",
        "TAKEN",
        "_OF",
    )

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


def formula_parser_spec() -> ParserSpec:
    """The formula grammar and the options of its parser."""
    return ParserSpec(
        "formula",
        _GRAMMAR,
        # Contextual: a group of cards (hearts, Q♠) is read only after the words
        # that take one, so everywhere else a name is a name.
        {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False},
        {"postlex": _Keywords(), "transformer": _Builder()},
    )


@functools.cache
def formula_parser() -> Lark:
    """The formula parser, made at the first formula parsed (never at import).

    It is loaded from the parse tables shipped with the package
    (:mod:`cardrules.parser_tables`). Strict mode (no shift/reduce conflicts, no
    colliding terminals) costs seconds; the test suite builds the same grammar
    strict instead.
    """
    return load_parser(formula_parser_spec())[0]


# --------------------------------------------------------------------------- parsing

_TERMINAL_WORDS: Final = {
    "NUMBER": "a number",
    "NAME": "a variable",
    "MINUS": "'-'",
    "_LPAR": "'('",
    "IF": "'if'",
    "NOT": "'not'",
    "OPERATOR": "an operator (+ - * / //)",
    "PLUS": "'+'",
    "STAR": "'*'",
    "SLASH": "'/'",
    "DSLASH": "'//'",
    "COMP_OP": "a comparison (= != < <= > >=)",
    "AND": "'and'",
    "OR": "'or'",
    "_THEN": "'then'",
    "_ELSE": "'else'",
    "_COMMA": "','",
    "_RPAR": "')'",
    "TOOK": "'took'",
    "ANYONE": "'anyone'",
    "ALL": "'all'",
    "ANY": "'any'",
    "TAKEN": "'taken'",
    "_OF": "'of'",
    "GROUP": "cards or suits, such as 'hearts and Q♠'",
    "$END": "the end of the formula",
}
_OPERATORS: Final = frozenset({"PLUS", "MINUS", "STAR", "SLASH", "DSLASH"})
_KEYWORD_TERMINALS: Final = {
    "IF": "if",
    "_THEN": "then",
    "_ELSE": "else",
    "AND": "and",
    "OR": "or",
    "NOT": "not",
}

_CHAR_HINTS: Final = {
    "&": "write 'and'",
    "|": "write 'or'",
    "!": "write 'not', or '!=' for 'is not equal to'",
    "×": "write '*' to multiply",
    "÷": "write '/' to divide",
    "≤": "write '<='",
    "≥": "write '>='",
    "≠": "write '!='",
    "^": "there is no power operator: multiply instead",
    "%": "there is no remainder operator",
    "?": "write 'if ... then ... else ...'",
    ":": "write 'if ... then ... else ...'",
    "'": "formulas have no quoted text",
    '"': "formulas have no quoted text",
    "[": "use '(' and ')' for grouping",
    "{": "use '(' and ')' for grouping",
}


def _join_words(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _expected_words(terminals: set[str]) -> str:
    names = set(terminals)
    if names - {"TAKEN", "_OF"}:
        # "of" and "taken" continue only 'points of' and 'cards taken of': not
        # worth naming beside the rest.
        names -= {"TAKEN", "_OF"}
    if names >= _OPERATORS:
        # After an operand: '(' only continues a function call; leave it out.
        names -= _OPERATORS | {"_LPAR"}
        names.add("OPERATOR")
    return _join_words([w for t, w in _TERMINAL_WORDS.items() if t in names])


def _token_words(tok: Token) -> str:
    if tok.type == "NAME":
        return f"name {tok.value!r}"
    if tok.type == "NUMBER":
        return f"number {tok.value}"
    return f"{tok.value!r}"


def _syntax_error(exc: UnexpectedToken, text: str) -> _FormulaError:
    tok: Token = exc.token
    accepts: set[str] = set(exc.accepts or exc.expected)
    if exc.accepts is None and exc.state is not None:
        # Found by the lexer (a word that cannot stand here): what the parser's
        # state takes, without the words the lexer looks for everywhere.
        accepts &= set(exc.state.parse_conf.states[exc.state.position])
    expected = _expected_words(accepts)
    if tok.type == "$END":
        if not text.strip() or tok.end_pos is None:
            return _FormulaError("the formula is empty", 0, expected=expected)
        hint = "every 'if ... then ...' needs an 'else' part" if "_ELSE" in accepts else None
        return _FormulaError("the formula ends too soon", tok.end_pos, expected=expected, hint=hint)
    hint = None
    if tok.type == "IF" and "NUMBER" in accepts:
        hint = (
            "put 'if ... then ... else ...' in parentheses when it is part of a larger "
            "expression, as in 'tricks + (if exact then 10 else 0)'"
        )
    elif tok.type == "COMP_OP" and "COMP_OP" not in accepts and "AND" in accepts:
        hint = (
            "comparisons do not chain: join them with 'and', as in 'bid <= tricks and tricks <= 5'"
        )
    elif tok.type == "NAME" and (
        words := [w for t, w in _KEYWORD_TERMINALS.items() if t in accepts]
    ):
        hint = _did_you_mean(tok.value, words)
    if hint is None and tok.type in ("NAME", "NUMBER", "_LPAR") and "PLUS" in accepts:
        hint = "is an operator missing? Write '*' to multiply, as in '10 * bid'"
    return _FormulaError(f"unexpected {_token_words(tok)}", _start(tok), expected, hint)


def _check_text(text: str) -> None:
    """Refuse, without parsing, text that is too long, on several lines or too nested."""
    if len(text) > MAX_FORMULA_LENGTH:
        raise _FormulaError(
            f"the formula is too long ({len(text):,} characters)",
            0,
            expected=f"at most {MAX_FORMULA_LENGTH:,} characters",
        )
    body = text.rstrip()
    for i, ch in enumerate(body):
        if ch in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029":
            raise _FormulaError(
                "a formula must be written on one line", i, expected="the end of the formula"
            )
    depth = 0
    for i, ch in enumerate(body):
        if ch == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise _FormulaError(
                    f"the formula has too many parentheses inside each other "
                    f"(more than {MAX_DEPTH})",
                    i,
                )
        elif ch == ")":
            depth -= 1


def _parse(text: str) -> Expr:
    _check_text(text)
    try:
        part = cast(_Part, formula_parser().parse(text))
    except UnexpectedToken as exc:
        raise _syntax_error(exc, text) from None
    except UnexpectedCharacters as exc:
        ch = exc.char
        raise _FormulaError(
            f"unexpected character {ch!r}",
            exc.pos_in_stream or 0,
            expected="numbers, variables, + - * / // ( ) , = != < <= > >= "
            "and the words if, then, else, and, or, not",
            hint=_CHAR_HINTS.get(ch),
        ) from None
    if part.kind != NUMBER:
        raise _FormulaError(
            "a score must be a number, but this formula is a condition (true or false)",
            part.start,
            expected=_EXPECT_KIND[NUMBER],
            hint="for points when a condition holds, write 'if <condition> then <points> else 0'",
        )
    return part.node


def parse_formula(
    text: str,
    *,
    path: str = "<string>",
    line: int = 1,
    column: int = 1,
    source_line: str | None = None,
    counters: Iterable[str] = (),
) -> Formula:
    """Parse a scoring formula.

    Args:
        text: the formula, on one line (trailing whitespace and a ``#`` comment
            are allowed).
        path: the file the formula was read from, for error messages.
        line: the file line the formula is on (1-based).
        column: the file column where ``text`` starts (1-based); an error at
            offset ``i`` of ``text`` is reported at column ``column + i``.
        source_line: the whole file line, shown under the error with a caret.
            When left out and ``column`` is 1, ``text`` itself is shown.
        counters: the names of the game's counters (``counter bags: ...``),
            which the formula may read as numbers from ``-COUNTER_BOUND`` to
            ``COUNTER_BOUND``.

    Returns:
        The formula.

    Raises:
        VariantError: if the text is not a valid formula, with the place of the
            problem, what was expected there and, for a misspelt name, a
            did-you-mean hint. Text longer than :data:`MAX_FORMULA_LENGTH`, nested
            deeper than :data:`MAX_DEPTH` or with a number longer than
            :data:`MAX_NUMBER_DIGITS` digits is refused the same way, and so is
            a formula that, with variables within :data:`VARIABLE_BOUNDS`, might
            compute a number (at any step) whose numerator or denominator has
            more than :data:`MAX_VALUE_DIGITS` digits; the error points at the
            step. The bound is worked out from the formula's tree, never by
            trying values, and errs on the side of refusing.
    """
    if source_line is None and column == 1 and isinstance(text, str) and "\n" not in text:
        source_line = text
    try:
        if not isinstance(text, str):
            raise _FormulaError(
                f"a formula must be text, not {type(text).__name__}", 0, expected="text"
            )
        names = frozenset(counters)
        token = _COUNTERS.set(names)
        try:
            expr = _parse(text)
        finally:
            _COUNTERS.reset(token)
    except _FormulaError as err:
        raise VariantError(
            err.message,
            path=path,
            line=line,
            column=column + err.offset,
            source_line=source_line,
            expected=err.expected,
            hint=err.hint,
        ) from None
    except (LarkError, RecursionError, _TooLarge) as exc:  # pragma: no cover - a safety net
        raise VariantError(
            f"cannot read the formula ({type(exc).__name__})",
            path=path,
            line=line,
            column=column,
            source_line=source_line,
        ) from None
    return Formula._of(format_expr(expr), expr, tuple(names))


# --------------------------------------------------------------------------- formatting

_PREC_IF, _PREC_OR, _PREC_AND, _PREC_NOT, _PREC_CMP, _PREC_SUM, _PREC_PRODUCT, _PREC_NEG = range(8)
_PREC_ATOM: Final = 8


def _precedence(node: Expr) -> int:
    if isinstance(node, If):
        return _PREC_IF
    if isinstance(node, Or):
        return _PREC_OR
    if isinstance(node, And):
        return _PREC_AND
    if isinstance(node, Not):
        return _PREC_NOT
    if isinstance(node, Compare):
        return _PREC_CMP
    if isinstance(node, Sum):
        return _PREC_SUM
    if isinstance(node, Product):
        return _PREC_PRODUCT
    if isinstance(node, Neg):
        return _PREC_NEG
    return _PREC_ATOM


def _format_number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    places = 0
    while den % 10 == 0:
        den //= 10
        places += 1
    while den % 2 == 0 or den % 5 == 0:
        den //= 2 if den % 2 == 0 else 5
        places += 1
    if den != 1:
        raise ValueError(f"{value} has no exact decimal form")
    scaled = abs(value.numerator) * 10**places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0")


def _fmt(node: Expr, min_prec: int) -> str:
    text = _fmt_bare(node)
    return f"({text})" if _precedence(node) < min_prec else text


def _fmt_bare(node: Expr) -> str:
    if isinstance(node, Num):
        return _format_number(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Taken):
        who = "anyone " if node.anyone else ""
        return f"{who}{node.question} {' and '.join(node.group)}"
    if isinstance(node, Neg):
        # -(-x) rather than --x, which reads like a typing mistake.
        inner = _PREC_ATOM if isinstance(node.operand, Neg) else _PREC_NEG
        return "-" + _fmt(node.operand, inner)
    if isinstance(node, Not):
        return "not " + _fmt(node.operand, _PREC_NOT)
    if isinstance(node, Sum):
        return _fmt(node.first, _PREC_PRODUCT) + "".join(
            f" {op} {_fmt(t, _PREC_PRODUCT)}" for op, t in node.rest
        )
    if isinstance(node, Product):
        return _fmt(node.first, _PREC_NEG) + "".join(
            f" {op} {_fmt(t, _PREC_NEG)}" for op, t in node.rest
        )
    if isinstance(node, Compare):
        return f"{_fmt(node.left, _PREC_SUM)} {node.op} {_fmt(node.right, _PREC_SUM)}"
    if isinstance(node, And):
        return " and ".join(_fmt(x, _PREC_NOT) for x in node.operands)
    if isinstance(node, Or):
        return " or ".join(_fmt(x, _PREC_AND) for x in node.operands)
    if isinstance(node, If):
        return (
            f"if {_fmt(node.cond, _PREC_OR)} then {_fmt(node.then, _PREC_OR)} "
            f"else {_fmt(node.orelse, _PREC_IF)}"
        )
    return f"{node.func}({', '.join(_fmt(a, _PREC_IF) for a in node.args)})"


def format_expr(node: Expr) -> str:
    """The canonical text of a formula tree (see :func:`format_formula`)."""
    return _fmt(node, _PREC_IF)


# --------------------------------------------------------------------------- evaluation


def _variables(node: Expr) -> set[str]:
    found: set[str] = set()
    stack: list[Expr] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Var):
            found.add(n.name)
        elif isinstance(n, Neg | Not):
            stack.append(n.operand)
        elif isinstance(n, Sum | Product):
            stack.append(n.first)
            stack.extend(t for _, t in n.rest)
        elif isinstance(n, Compare):
            stack += (n.left, n.right)
        elif isinstance(n, And | Or):
            stack.extend(n.operands)
        elif isinstance(n, If):
            stack += (n.cond, n.then, n.orelse)
        elif isinstance(n, Call):
            stack.extend(n.args)
    return found


def _questions_of(node: Expr) -> tuple[Taken, ...]:
    """The :class:`Taken` nodes of a tree, each once, in the order written."""
    found: dict[Taken, None] = {}
    stack: list[Expr] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Taken):
            found[n] = None
        elif isinstance(n, Neg | Not):
            stack.append(n.operand)
        elif isinstance(n, Sum | Product):
            stack.extend(reversed([n.first, *(t for _, t in n.rest)]))
        elif isinstance(n, Compare):
            stack += (n.right, n.left)
        elif isinstance(n, And | Or):
            stack.extend(reversed(n.operands))
        elif isinstance(n, If):
            stack += (n.orelse, n.then, n.cond)
        elif isinstance(n, Call):
            stack.extend(reversed(n.args))
    return tuple(found)


class _TooLarge(Exception):
    """A step of an evaluation made a number too large (turned into a ScoreError)."""

    def __init__(self, value: int | Fraction) -> None:
        super().__init__()
        self.value = value
        #: The Sum or Product whose step it was (None: the formula's result).
        self.node: Expr | None = None


def _digits(n: int) -> int:
    """The decimal digits of ``abs(n)``, counted without ``str`` (which refuses
    ints of more than 4,300 digits)."""
    n = abs(n)
    d = max(1, int(n.bit_length() * 0.30103))
    while d > 1 and 10 ** (d - 1) > n:
        d -= 1
    while 10**d <= n:
        d += 1
    return d


def _oversize(value: int | Fraction, limit: int) -> tuple[str, int]:
    """("numerator" or "denominator", its digits) if that part of ``value`` is not
    below ``limit`` (a power of ten), the larger one first; else ("", 0)."""
    num = value if type(value) is int else value.numerator
    den = 1 if type(value) is int else value.denominator
    if abs(num) >= limit and abs(num) >= den:
        return "numerator", _digits(num)
    if den >= limit:
        return "denominator", _digits(den)
    if abs(num) >= limit:
        return "numerator", _digits(num)
    return "", 0


def _fit(r: Any) -> Any:
    """``r``, if its numerator and denominator have at most MAX_VALUE_DIGITS digits."""
    if type(r) is int:
        if r.bit_length() <= _VALUE_BITS:
            return r
    elif type(r) is Fraction:
        if r.numerator.bit_length() <= _VALUE_BITS and r.denominator.bit_length() <= _VALUE_BITS:
            return r
    else:
        return r  # a bool, or a value of a type the caller was told not to pass
    if _oversize(r, _VALUE_LIMIT)[1]:
        raise _TooLarge(r)
    return r


def _clip(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def _show_env(env: Mapping[str, Value], names: Iterable[str]) -> str:
    """The values of the variables a formula uses, as ``bid = 2, hand = 10``."""
    shown = []
    for name in sorted(names):
        v = env.get(name, "?")
        if type(v) is int and v.bit_length() > 64:
            text = f"a number of {_digits(v):,} digits"
        elif type(v) is Fraction and max(v.numerator.bit_length(), v.denominator.bit_length()) > 64:
            text = f"a fraction of {_digits(v.numerator):,} over {_digits(v.denominator):,} digits"
        else:
            text = _clip(repr(v) if type(v) is str else str(v), 30)
        shown.append(f"{name} = {text}")
    return ", ".join(shown) if shown else "no variables"


# The steps: each result is checked with _fit, the common case (a small int) inline.


def _add(x: Any, y: Any) -> Value:
    r = x + y
    if type(r) is int and r.bit_length() <= _VALUE_BITS:
        return r
    return cast(Value, _fit(r))


def _sub(x: Any, y: Any) -> Value:
    r = x - y
    if type(r) is int and r.bit_length() <= _VALUE_BITS:
        return r
    return cast(Value, _fit(r))


def _mul(x: Any, y: Any) -> Value:
    r = x * y
    if type(r) is int and r.bit_length() <= _VALUE_BITS:
        return r
    return cast(Value, _fit(r))


def _div(x: Any, y: Any) -> Value:
    if y == 0:
        return 0
    return cast(Value, _fit(Fraction(x) / y))


def _floordiv(x: Any, y: Any) -> Value:
    if y == 0:
        return 0
    r = x // y
    if type(r) is int and r.bit_length() <= _VALUE_BITS:
        return r
    return cast(Value, _fit(r))


_BINARY: Final[Mapping[str, Callable[[Any, Any], Value]]] = {
    "+": _add,
    "-": _sub,
    "*": _mul,
    "/": _div,
    "//": _floordiv,
}
_COMPARE: Final[Mapping[str, Callable[[Any, Any], bool]]] = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _compile(node: Expr) -> _Fn:
    """Turn a tree into nested closures, built once and called for every score."""
    if isinstance(node, Num):
        v: Value = node.value.numerator if node.value.denominator == 1 else node.value
        return lambda env: v
    if isinstance(node, Var | Taken):
        name = node.name if isinstance(node, Var) else format_expr(node)
        return lambda env: env[name]
    if isinstance(node, Neg):
        f = _compile(node.operand)
        return lambda env: -f(env)
    if isinstance(node, Not):
        f = _compile(node.operand)
        return lambda env: not f(env)
    if isinstance(node, Sum | Product):
        return _compile_chain(node)
    if isinstance(node, Compare):
        cmp = _COMPARE[node.op]
        left, right = _compile(node.left), _compile(node.right)
        return lambda env: cmp(left(env), right(env))
    if isinstance(node, And):
        parts = [_compile(x) for x in node.operands]
        return lambda env: all(p(env) for p in parts)
    if isinstance(node, Or):
        parts = [_compile(x) for x in node.operands]
        return lambda env: any(p(env) for p in parts)
    if isinstance(node, If):
        c, a, b = _compile(node.cond), _compile(node.then), _compile(node.orelse)
        return lambda env: a(env) if c(env) else b(env)
    fns = [_compile(x) for x in node.args]
    if node.func == "abs":
        (g,) = fns
        return lambda env: cast(Value, abs(g(env)))
    pick: Callable[[Iterable[Any]], Any] = min if node.func == "min" else max
    return lambda env: cast(Value, pick(h(env) for h in fns))


def _compile_chain(node: Sum | Product) -> _Fn:
    """A Sum or Product: each step checked (see :func:`_fit`); a step too large is
    reported with this node, the innermost one around it."""
    first = _compile(node.first)
    steps = [(_BINARY[op], _compile(t)) for op, t in node.rest]
    if len(steps) == 1:
        ((op1, second),) = steps

        def one(env: Mapping[str, Value]) -> Value:
            try:
                return op1(first(env), second(env))
            except _TooLarge as exc:
                if exc.node is None:
                    exc.node = node
                raise

        return one

    def chain(env: Mapping[str, Value]) -> Value:
        try:
            acc = first(env)
            for op, g in steps:
                acc = op(acc, g(env))
        except _TooLarge as exc:
            if exc.node is None:
                exc.node = node
            raise
        return acc

    return chain
