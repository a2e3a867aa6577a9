"""Scoring formulas in words, for the rules pages and the comparison table.

:func:`formula_sentence` turns a parsed :class:`~cardrules.scoring.Formula` into
one plain-English sentence ("If you take exactly as many tricks as you bid, you
score 10 plus your bid; otherwise you score nothing."), and
:func:`formula_short` into a few words for a table cell ("made: 10 + bid;
else 0"). Both work from the formula's tree, so any formula a variant file may
hold has a reading; the common shapes (a bonus for an exact bid, points a
trick, a penalty a trick off, a doubled blind bid) get the words a card player
would use.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from cardrules.scoring import (
    And,
    Call,
    Compare,
    Expr,
    Formula,
    If,
    Neg,
    Not,
    Num,
    Or,
    Product,
    Sum,
    Taken,
    Var,
)

__all__ = ["formula_sentence", "formula_short", "specialise"]

_OFF = "for each trick you are over or under your bid"
_QUANTITY = {
    "bid": "your bid",
    "tricks": "the number of tricks you take",
    "cards": "the number of cards each player is dealt",
    "diff": "the number of tricks you are over or under your bid",
    "hand": "the hand number",
    "players": "the number of players",
    "points": "your points",
    "all_points": "the points everyone takes in the hand",
    "most_points": "the most points one player takes in the hand",
    "team_bid": "your side's bids added up",
    "team_tricks": "the tricks your side takes",
    "team_points": "the points your side takes",
    "partner_bid": "your partners' bids added up",
    "partner_tricks": "the tricks your partners take",
    "maker_tricks": "the tricks taken by the player (or side) who made trumps",
    "bid_level": "the highest bid (the contract)",
    "bid_strain": "the place of the contract's strain in the list of strains (from 0)",
}
_CONDITION = {
    "exact": "you take exactly as many tricks as you bid",
    "over": "you take more tricks than you bid",
    "under": "you take fewer tricks than you bid",
    "blind": "you bid blind",
    "maker": "you (or your side) made trumps",
    "alone": "your side made trumps and its maker played alone",
    "defended_alone": "your side defended and one of you defended alone",
    "downtown": "the ranks are reversed (downtown)",
    "no_trumps": "the hand has no trumps",
    "misere": "the contract is misère",
    "open_misere": "the contract is open misère",
}
_COMPARE_WORDS = {
    "=": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
}
#: Quantities said with a plural noun: "your points are ...", not "is".
_PLURAL = frozenset({"points", "all_points", "team_points"})
_TIMES = {2: "doubled", 3: "tripled"}


def _num(x: Fraction) -> str:
    from cardrules.rulebook.numbers import format_points

    return format_points(x)


def _is_num(e: Expr, value: int | None = None) -> bool:
    return isinstance(e, Num) and (value is None or e.value == value)


def _is_var(e: Expr, name: str) -> bool:
    return isinstance(e, Var) and e.name == name


def _over_bid(e: Expr) -> bool:
    """``tricks - bid``."""
    return (
        isinstance(e, Sum)
        and _is_var(e.first, "tricks")
        and len(e.rest) == 1
        and e.rest[0][0] == "-"
        and _is_var(e.rest[0][1], "bid")
    )


def _per_trick(e: Expr) -> tuple[str, str] | None:
    """``k * tricks``, ``k * diff``, ``k * (tricks - bid)``: (k, what a trick is), or None."""
    k = "1"
    x = e
    if (
        isinstance(e, Product)
        and len(e.rest) == 1
        and e.rest[0][0] == "*"
        and isinstance(e.first, Num)
    ):
        k, x = _num(e.first.value), e.rest[0][1]
    if _is_var(x, "tricks"):
        return k, "for each trick you take"
    if _is_var(x, "diff"):
        return k, _OFF
    if _over_bid(x) and k != "1":
        return k, "for each trick over your bid"
    return None


def _scaled(e: Expr) -> tuple[Expr, Fraction, Expr] | None:
    """``(if c then k else 1) * x`` or ``x * (if c then k else 1)``: (c, k, x), or None."""
    if not (isinstance(e, Product) and len(e.rest) == 1 and e.rest[0][0] == "*"):
        return None
    for a, b in ((e.first, e.rest[0][1]), (e.rest[0][1], e.first)):
        if isinstance(a, If) and isinstance(a.then, Num) and _is_num(a.orelse, 1):
            return a.cond, a.then.value, b
    return None


# --------------------------------------------------------------------------- words


def _group_words(group: tuple[str, ...]) -> str:
    """A group of cards in words: "the hearts and Q♠"."""
    words = [f"the {item}" if item.isalpha() else item for item in group]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _taken_words(e: Taken) -> str:
    """A question about the cards taken, as a clause or a noun phrase."""
    cards = _group_words(e.group)
    who = "someone takes" if e.anyone else "you take"
    if e.question == "took all":
        return f"{who} all of {cards}"
    if e.question == "took any":
        return f"{who} any of {cards}"
    if e.question == "took":
        return f"{who} {cards}"
    if e.question == "points of":
        return f"the points of {cards} you take"
    return f"the number of cards of {cards} you take"


def _short_taken(e: Taken) -> str:
    """A question about the cards taken, in a few words ("took all hearts + Q♠")."""
    cards = " + ".join(e.group)
    if e.question == "points of":
        return f"points of {cards}"
    if e.question == "cards taken of":
        return f"count of {cards}"
    who = "anyone " if e.anyone else ""
    return f"{who}{e.question} {cards}"


def condition(e: Expr) -> str:
    """A condition as a clause: ``bid = 0`` is "you bid zero"."""
    if isinstance(e, Var):
        return _CONDITION.get(e.name, e.name)
    if isinstance(e, Taken):
        return _taken_words(e)
    if isinstance(e, Not):
        inner = e.operand
        if _is_var(inner, "exact"):
            return "you miss your bid"
        if _is_var(inner, "blind"):
            return "you bid with your cards in view"
        if _is_var(inner, "maker"):
            return "you (or your side) did not make trumps"
        return f"it is not so that {condition(inner)}"
    if isinstance(e, And):
        return " and ".join(condition(x) for x in e.operands)
    if isinstance(e, Or):
        return " or ".join(condition(x) for x in e.operands)
    if isinstance(e, Compare):
        left, op, right = e.left, e.op, e.right
        if _is_var(left, "bid") and _is_num(right, 0) and op == "=":
            return "you bid zero"
        if _is_var(left, "bid") and _is_var(right, "cards") and op == "=":
            return "you bid every trick in the hand"
        if _is_var(left, "tricks") and _is_var(right, "bid"):
            words = {
                "=": "you take exactly as many tricks as you bid",
                "!=": "you miss your bid",
                ">=": "you take at least as many tricks as you bid",
                ">": "you take more tricks than you bid",
                "<=": "you take no more tricks than you bid",
                "<": "you take fewer tricks than you bid",
            }
            return words[op]
        verb = _COMPARE_WORDS.get(op, op)
        if isinstance(left, Var) and left.name in _PLURAL:
            verb = "are" + verb[2:]
        return f"{quantity(left)} {verb} {quantity(right)}"
    return quantity(e)


def quantity(e: Expr) -> str:
    """A number the formula works out, as a noun phrase ("your bid", "10 times your bid")."""
    if isinstance(e, Num):
        return _num(e.value)
    if isinstance(e, Taken):
        return _taken_words(e)
    if isinstance(e, Var):
        # A name not in the table is a counter of the game (``counter bags:``).
        return _QUANTITY.get(e.name, f"your {e.name} (the count as it stood before the hand)")
    return points(e)


def _factor(e: Expr) -> str:
    if isinstance(e, Var):
        return quantity(e)
    text = points(e)
    return f"({text})" if isinstance(e, Sum | If) else text


def points(e: Expr) -> str:
    """An amount of points as a noun phrase ("10 plus your bid", "1 point for each trick")."""
    per = _per_trick(e)
    if per is not None:
        k, what = per
        unit = "point" if k == "1" else "points"
        return f"{k} {unit} {what}"
    if isinstance(e, Num | Var | Taken):
        return quantity(e)
    if isinstance(e, Neg):
        return f"minus {_factor(e.operand)}"
    if isinstance(e, Sum):
        return _sum_points(e)
    if isinstance(e, Product):
        return _product_points(e)
    if isinstance(e, If):
        return f"{points(e.orelse)}, or {points(e.then)} if {condition(e.cond)}"
    if isinstance(e, Call):
        args = [_factor(a) for a in e.args]
        if e.func == "abs":
            return f"{args[0]}, counted without its sign"
        which = "smallest" if e.func == "min" else "largest"
        return f"the {which} of {', '.join(args[:-1])} and {args[-1]}"
    return condition(e)


def _sum_points(e: Sum) -> str:
    """:func:`points` for a sum: "10 plus your bid", a bonus "if" a condition holds."""
    out = points(e.first)
    for op, term in e.rest:
        if op == "+" and isinstance(term, If) and _is_num(term.orelse, 0):
            if isinstance(term.then, If):
                out += f", plus a bonus if {condition(term.cond)}: {points(term.then)}"
            else:
                out += f", plus {points(term.then)} if {condition(term.cond)}"
        else:
            out += f" {'plus' if op == '+' else 'minus'} {_factor(term)}"
    return out


def _product_points(e: Product) -> str:
    """:func:`points` for a product: "doubled if ...", "times", "divided by"."""
    scaled = _scaled(e)
    if scaled is not None:
        cond, factor, x = scaled
        how = _TIMES.get(int(factor)) if factor.denominator == 1 else None
        return f"{points(x)}, {how or f'times {_num(factor)}'} if {condition(cond)}"
    out = _factor(e.first)
    words = {"*": "times", "/": "divided by", "//": "divided by (rounded down)"}
    for op, x in e.rest:
        out += f" {words[op]} {_factor(x)}"
    return out


def _negated(e: Expr) -> Expr | None:
    """``x`` when ``e`` is ``-x``, ``-k * x`` (as ``k * x``) or a negative number; else None."""
    if isinstance(e, Neg):
        return e.operand
    if isinstance(e, Num) and e.value < 0:
        return Num(-e.value)
    if isinstance(e, Product) and isinstance(e.first, Neg) and isinstance(e.first.operand, Num):
        return Product(e.first.operand, e.rest)
    return None


def _clause(e: Expr, top: bool = True) -> str:
    """What a player scores: "you score X", "you lose X" or "you score nothing"."""
    if _is_num(e, 0):
        return "you score nothing"
    lost = _negated(e)
    if lost is not None:
        if _is_var(lost, "bid"):
            return "you lose as many points as you bid"
        return f"you lose {points(lost)}"
    if isinstance(e, If) and top:
        return f"if {condition(e.cond)}, {_clause(e.then, False)}; otherwise, {_clause(e.orelse)}"
    return f"you score {points(e)}"


def formula_sentence(f: Formula, known: Mapping[str, bool] | None = None) -> str:
    """The formula as one sentence addressed to a player, ending with a full stop.

    Args:
        f: the formula.
        known: variables whose value the game fixes (``{"blind": False}`` when
            nobody may bid blind), so that the sentence leaves out what cannot
            happen.
    """
    text = _clause(specialise(f.expr, known or {}))
    return text[0].upper() + text[1:] + "."


# --------------------------------------------------------------------------- fixed values


def _cond_value(e: Expr, known: Mapping[str, bool]) -> bool | None:
    """The value of a condition when the known variables decide it, else ``None``."""
    if isinstance(e, Var) and e.name in known:
        return known[e.name]
    if isinstance(e, Not):
        inner = _cond_value(e.operand, known)
        return None if inner is None else not inner
    if isinstance(e, And | Or):
        values = [_cond_value(x, known) for x in e.operands]
        if isinstance(e, And):
            if False in values:
                return False
            return True if all(x is True for x in values) else None
        if True in values:
            return True
        return False if all(x is False for x in values) else None
    return None


def specialise(e: Expr, known: Mapping[str, bool]) -> Expr:
    """``e`` with the variables of ``known`` fixed: the branches they rule out are
    dropped, and a factor of 1 or a term of 0 that is left over goes too."""
    if not known:
        return e
    if isinstance(e, Var) and e.name in known:
        return Num(Fraction(int(known[e.name])))
    if isinstance(e, If):
        value = _cond_value(e.cond, known)
        if value is not None:
            return specialise(e.then if value else e.orelse, known)
        return If(specialise(e.cond, known), specialise(e.then, known), specialise(e.orelse, known))
    if isinstance(e, Neg):
        return Neg(specialise(e.operand, known))
    if isinstance(e, Not):
        return Not(specialise(e.operand, known))
    if isinstance(e, And):
        return And(tuple(specialise(x, known) for x in e.operands))
    if isinstance(e, Or):
        return Or(tuple(specialise(x, known) for x in e.operands))
    if isinstance(e, Compare):
        return Compare(specialise(e.left, known), e.op, specialise(e.right, known))
    if isinstance(e, Call):
        return Call(e.func, tuple(specialise(x, known) for x in e.args))
    if isinstance(e, Sum):
        return _specialise_sum(e, known)
    if isinstance(e, Product):
        return _specialise_product(e, known)
    return e


def _specialise_sum(e: Sum, known: Mapping[str, bool]) -> Expr:
    """:func:`specialise` for a sum: its terms of 0 left out."""
    terms = [("+", specialise(e.first, known))]
    terms += [(op, specialise(x, known)) for op, x in e.rest]
    kept = [(op, x) for op, x in terms if not _is_num(x, 0)] or [("+", Num(Fraction(0)))]
    first_op, first = kept[0]
    if first_op == "-":
        first = Neg(first)
    return first if len(kept) == 1 else Sum(first, tuple(kept[1:]))


def _specialise_product(e: Product, known: Mapping[str, bool]) -> Expr:
    """:func:`specialise` for a product: its factors (and divisors) of 1 left out."""
    factors = [("*", specialise(e.first, known))]
    factors += [(op, specialise(x, known)) for op, x in e.rest]
    kept = [(op, x) for op, x in factors if not (op in ("*", "/", "//") and _is_num(x, 1))]
    if kept and kept[0][0] != "*":
        kept.insert(0, ("*", Num(Fraction(1))))
    if not kept:
        return Num(Fraction(1))
    return kept[0][1] if len(kept) == 1 else Product(kept[0][1], tuple(kept[1:]))


# --------------------------------------------------------------------------- short


def _short_condition(e: Expr) -> str:
    if isinstance(e, Taken):
        return _short_taken(e)
    if isinstance(e, Var):
        words = {"exact": "made", "maker": "made trumps", "misere": "misère"}
        return words.get(e.name, _SHORT_NAMES.get(e.name, e.name))
    if isinstance(e, Compare):
        if _is_var(e.left, "bid") and _is_num(e.right, 0) and e.op == "=":
            return "bid 0"
        if _is_var(e.left, "bid") and _is_var(e.right, "cards") and e.op == "=":
            return "bid all"
        if _is_var(e.left, "tricks") and _is_var(e.right, "bid"):
            return {
                "=": "made",
                ">=": "at least the bid",
                ">": "over",
                "<": "under",
                "<=": "at most the bid",
                "!=": "missed",
            }[e.op]
        return f"{_short_factor(e.left)} {e.op} {_short_factor(e.right)}"
    if isinstance(e, Not):
        return f"not {_short_condition(e.operand)}"
    if isinstance(e, And | Or):
        word = " and " if isinstance(e, And) else " or "
        return word.join(_short_condition(x) for x in e.operands)
    return _short(e)


#: Formula variables as a table cell writes them (words, not identifiers).
_SHORT_NAMES: Final = {
    "all_points": "all points",
    "most_points": "most points",
    "maker_tricks": "makers' tricks",
    "bid_level": "contract",
    "bid_strain": "strain's place",
    "open_misere": "open misère",
    "no_trumps": "no trumps",
}


def _short_factor(e: Expr) -> str:
    if isinstance(e, Var):
        return _SHORT_NAMES.get(e.name, e.name)
    text = _short(e)
    return f"({text})" if isinstance(e, Sum | If) else text


def _short(e: Expr) -> str:
    per = _per_trick(e)
    if per is not None:
        k, what = per
        tail = {_OFF: "a trick off", "for each trick over your bid": "a trick over"}
        return f"{k} {tail.get(what, 'a trick')}"
    if isinstance(e, Num):
        return _num(e.value)
    if isinstance(e, Var):
        return _SHORT_NAMES.get(e.name, e.name)
    if isinstance(e, Taken):
        return _short_taken(e)
    lost = _negated(e)
    if lost is not None:
        return f"-{_short(lost) if isinstance(lost, Var) else _short_factor(lost)}"
    if isinstance(e, Sum):
        out = _short(e.first)
        for op, term in e.rest:
            if op == "+" and isinstance(term, If) and _is_num(term.orelse, 0):
                out += f" + {_short(term.then)} if {_short_condition(term.cond)}"
            else:
                out += f" {op} {_short_factor(term)}"
        return out
    if isinstance(e, Product):
        scaled = _scaled(e)
        if scaled is not None:
            cond, factor, x = scaled
            return f"{_short(x)}, ×{_num(factor)} if {_short_condition(cond)}"
        out = _short_factor(e.first)
        for op, x in e.rest:
            out += f" {'×' if op == '*' else op} {_short_factor(x)}"
        return out
    if isinstance(e, If):
        return f"{_short(e.orelse)} ({_short(e.then)} if {_short_condition(e.cond)})"
    if isinstance(e, Call):
        return f"{e.func}({', '.join(_short_factor(a) for a in e.args)})"
    return _short_condition(e)


def formula_short(f: Formula, known: Mapping[str, bool] | None = None) -> str:
    """The formula in a few words, for a table cell ("made: 10 + bid; else 0")."""
    e = specialise(f.expr, known or {})
    if isinstance(e, If):
        return f"{_short_condition(e.cond)}: {_short(e.then)}; else {_short(e.orelse)}"
    return _short(e)
