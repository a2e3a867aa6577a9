"""The settings of the special cards a pack adds (``deck: standard 52 with 4
wizards and 4 jesters``): ``special cards`` (each kind's power in a trick) and
``special turned up`` (what a special card turned up for trumps means) and
``special symbols`` (how people read and write the cards of each kind)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token

from cardrules.cards import Suit, card
from cardrules.rules import (
    JOKERS_KIND,
    SpecialPower,
    SpecialPowerRule,
    SpecialSymbol,
    TrumpKind,
    TurnedSpecial,
    Variant,
    jokers_turned,
)

from .. import limits
from .declaration import SettingSpec
from .effect_checks import Context, NoOp
from .statement import Setting, StatementBuilder, suit_of

__all__ = ["SPECIALS", "power_text"]


def power_text(p: SpecialPowerRule) -> str:
    """The power as a ``special cards:`` line writes it (``wizards always win,
    the first played winning``)."""
    if p.power is SpecialPower.WINS or p.power is SpecialPower.LOSES:
        text = f"{p.kind} {p.power.value}, the {'last' if p.last else 'first'} played winning"
    elif p.power is SpecialPower.SUIT:
        assert p.suit is not None
        text = f"{p.kind} count as {p.suit.word} {'above the ace' if p.high else 'below the 2'}"
    else:
        text = f"{p.kind} {p.power.value} {p.card}"
    return text + (", played at any time" if p.any_time else "")


def _special_cards(v: Variant) -> str:
    return "; ".join(power_text(p) for p in v.deck.powers)


def _special_turned(v: Variant) -> str:
    return "; ".join(
        f"{kind}, {what.word if isinstance(what, Suit) else _TURNED_WORDS[what]}"
        for kind, what in v.trumps.turned_special
    )


def _special_symbols(v: Variant) -> str:
    return ", ".join(f"{x.kind} {x.symbol} ({x.singular})" for x in v.deck.symbols)


_TURNED_WORDS: Final = {
    TurnedSpecial.DEALER_NAMES: "the dealer names trumps",
    TurnedSpecial.NO_TRUMPS: "no trumps",
}


def _check_special_cards(c: Context) -> Iterator[NoOp]:
    if c.v.deck.powers and not c.tricks:
        yield NoOp(
            "special cards",
            "`special cards` has no effect: a shedding game has no special cards",
            ("mode",),
        )


def _check_special_turned(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    specials = [k for k, _ in t.turned_special if k != JOKERS_KIND]
    if specials and (not c.tricks or t.kind is not TrumpKind.TURN_UP):
        yield NoOp(
            "special turned up",
            "`special turned up` has no effect: no card is turned up for trumps "
            "(`trumps: turned up`)",
            ("trumps", "mode"),
        )
    elif t.turned_joker is not None and not jokers_turned(c.v):
        yield NoOp(
            "special turned up",
            "`special turned up: jokers, ...` has no effect: no joker is turned up for "
            "trumps in this game (it needs jokers in the pack, `deck: ... with 1 joker`, "
            "and trumps turned up, ordered up or the dealer's last card)",
            ("deck", "trumps", "mode"),
        )


# --------------------------------------------------------------------------- the parse


def _split(c: list[Any]) -> list[list[Token]]:
    """The statement's tokens after the colon, cut at each semicolon."""
    parts: list[list[Token]] = [[]]
    for x in c[2:]:
        if not isinstance(x, Token) or x.type == "COMMA":
            continue
        if x.type == "SEMICOLON":
            parts.append([])
        else:
            parts[-1].append(x)
    return parts


def _parse_special_cards(b: StatementBuilder, c: list[Any]) -> Setting:
    powers: list[SpecialPowerRule] = []
    for part in _split(c):
        kind_tok, word = part[0], part[1]
        kind = str(kind_tok).lower()
        if any(p.kind == kind for p in powers):
            raise b.error(kind_tok, f"the {kind} are given a power twice", hint="give it once")
        rest = part[2:]
        if word.type == "V_COUNT_AS":
            power = SpecialPower.SUIT
            rule = SpecialPowerRule(
                kind, power, suit=suit_of(part[2]), high=part[3].type == "V_ABOVE_ACE"
            )
            rest = part[4:]
        elif word.type in ("V_RANK_ABOVE", "V_RANK_BELOW"):
            power = SpecialPower.ABOVE if word.type == "V_RANK_ABOVE" else SpecialPower.BELOW
            named = card(str(part[2]))
            if named.is_joker or named.is_special:
                raise b.error(
                    part[2],
                    f"{named} has no rank of its own",
                    expected="a card of the standard 52, such as A♠",
                )
            rule = SpecialPowerRule(kind, power, card=named)
            rest = part[3:]
        else:
            power = SpecialPower.WINS if word.type == "V_ALWAYS_WIN" else SpecialPower.LOSES
            rule = SpecialPowerRule(kind, power)
        for extra in rest:
            if extra.type == "V_PLAYED_ANY_TIME":
                rule = SpecialPowerRule(
                    rule.kind, rule.power, rule.last, rule.suit, rule.high, rule.card, True
                )
            elif power in (SpecialPower.WINS, SpecialPower.LOSES):
                last = extra.type == "V_LAST_PLAYED"
                rule = SpecialPowerRule(rule.kind, rule.power, last, any_time=rule.any_time)
            else:
                raise b.error(
                    extra,
                    f"the {kind} rank as cards of a suit: which of them is played first "
                    "does not decide",
                    hint="say `the first played winning` only of cards that always win or lose",
                )
        powers.append(rule)
    return b.setting(c, ("deck.powers", tuple(powers)))


def _parse_special_turned(b: StatementBuilder, c: list[Any]) -> Setting:
    out: list[tuple[str, TurnedSpecial | Suit]] = []
    for part in _split(c):
        jokers = part[0].type == "V_JOKERS"
        kind = JOKERS_KIND if jokers else str(part[0]).lower()
        if any(k == kind for k, _ in out):
            raise b.error(part[0], f"the {kind} turned up are given twice", hint="give it once")
        what: TurnedSpecial | Suit
        if part[1].type == "SUIT":
            if not jokers:
                raise b.error(
                    part[1],
                    f"the {kind} turned up make their own trumps: only the jokers, which have "
                    "no suit, are given one here",
                    hint="say `the dealer names trumps` or `no trumps`",
                )
            what = suit_of(part[1])
        elif part[1].type == "V_DEALER_NAMES":
            what = TurnedSpecial.DEALER_NAMES
        else:
            what = TurnedSpecial.NO_TRUMPS
        out.append((kind, what))
    return b.setting(c, ("trumps.turned_special", tuple(out)))


#: Letters a symbol may not be: the canonical text of the special cards and
#: jokers (``X1``, ``LJ``...), which every game reads as they are.
_TAKEN_SYMBOLS: Final = frozenset({"x", "lj", "bj"})


def _parse_special_symbols(b: StatementBuilder, c: list[Any]) -> Setting:
    toks = [x for x in c[2:] if isinstance(x, Token) and x.type != "COMMA"]
    out: list[SpecialSymbol] = []
    i = 0
    while i < len(toks):
        kind_tok, sym_tok = toks[i], toks[i + 1]
        i += 2
        kind = str(kind_tok).lower()
        if len(kind) > limits.MAX_WORD_LENGTH:
            raise b.error(kind_tok, f"{kind[:20]!r}... is too long a name for a kind of card")
        symbol = str(sym_tok)
        if not (1 <= len(symbol) <= 2 and symbol.isascii() and symbol.isalpha()):
            raise b.error(
                sym_tok,
                f"{symbol[:20]!r} is not a symbol for the {kind}",
                expected="one or two letters, such as `W` (the cards then read W1, W2...)",
            )
        if symbol.lower() in _TAKEN_SYMBOLS:
            raise b.error(
                sym_tok,
                f"{symbol} is already the text of other cards (X1..., LJ, BJ)",
                hint="choose other letters",
            )
        singular = kind[:-1] if kind.endswith("s") and len(kind) > 1 else kind
        if i < len(toks) and toks[i].type == "SYMBOL_NAME":
            singular = " ".join(str(toks[i])[1:-1].split()).lower()
            if len(singular) > limits.MAX_WORD_LENGTH:
                raise b.error(toks[i], f"{singular[:20]!r}... is too long a name for a card")
            i += 1
        if any(x.kind == kind for x in out):
            raise b.error(kind_tok, f"the {kind} are given a symbol twice", hint="give it once")
        if any(x.symbol.lower() == symbol.lower() for x in out):
            raise b.error(sym_tok, f"two kinds are given the symbol {symbol}")
        out.append(SpecialSymbol(kind, symbol, singular))
    return b.setting(c, ("deck.symbols", tuple(out)))


#: The special cards' settings.
SPECIALS: Final = (
    SettingSpec(
        "special cards",
        "K_SPECIAL_CARDS",
        "special_cards",
        ("deck.powers",),
        parse=_parse_special_cards,
        samples=(
            "special cards: wizards always win, the first played winning, played at any time; "
            "jesters always lose, the first played winning, played at any time",
            "special cards: tigers count as spades above the ace; mice rank below 2♣",
        ),
        render=_special_cards,
        where="trick-taking games",
        check=_check_special_cards,
        page_rule="Pack",
        old_saves={"deck.powers": ()},
    ),
    SettingSpec(
        "special turned up",
        "K_SPECIAL_TURNED",
        "special_turned",
        ("trumps.turned_special",),
        parse=_parse_special_turned,
        samples=(
            "special turned up: wizards, the dealer names trumps; jesters, no trumps",
            "special turned up: jokers, the dealer names trumps",
            "special turned up: jokers, hearts",
        ),
        render=_special_turned,
        where="trick-taking games whose trumps are turned up (jokers: or ordered up, or "
        "the dealer's last card)",
        check=_check_special_turned,
        page_rule="Trumps",
        old_saves={"trumps.turned_special": ()},
    ),
    SettingSpec(
        "special symbols",
        "K_SPECIAL_SYMBOLS",
        "special_symbols",
        ("deck.symbols",),
        parse=_parse_special_symbols,
        samples=(
            "special symbols: wizards W (wizard), jesters N (jester)",
            "special symbols: mice M",
        ),
        render=_special_symbols,
        page_rule="Pack",
        old_saves={"deck.symbols": ()},
    ),
)
