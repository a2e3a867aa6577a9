"""The settings of trumps: which suit is trumps (``trumps``, ``no trumps``,
``trump order``), and how a player makes trumps in order-up and named-trumps
games (``stick the dealer`` ... ``trump ties``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token

from cardrules.cards import MAX_CONTRACT_LEVEL, STRAIN_WORDS, Suit, card, parse_rank
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    DowntownRule,
    JokerNoTrump,
    NamerTie,
    TrumpCard,
    TrumpCardKind,
    TrumpKind,
    TrumpNamer,
    TrumpRule,
    Variant,
    hands_without_trumps,
)

from .. import limits
from .declaration import SettingSpec, always
from .effect_checks import Context, NoOp, hands_text
from .rendering import ordinal, yes_no
from .statement import Setting, StatementBuilder, strain_code, suit_of, tokens, yes

__all__ = ["MAKING_TRUMPS", "TRUMP_SUIT"]


# ---- how each is written


def _trumps(v: Variant) -> str:
    t = v.trumps
    if t.namer is TrumpNamer.HIGHEST_BIDDER:
        return "named by the highest bidder"
    if t.namer is TrumpNamer.ORDER_UP:
        return "order up"
    if t.kind is TrumpKind.DEALERS_CARD:
        return "dealer's last card"
    then = ", then named by the winner of most tricks" if t.namer is TrumpNamer.MOST_TRICKS else ""
    if t.kind is TrumpKind.NONE:
        return "none"
    if t.kind is TrumpKind.FIXED:
        return t.suit.word + then if t.suit is not None else "none"
    if t.kind is TrumpKind.TURN_UP:
        return (
            "turned up"
            + (", no trumps when the pack runs out" if t.none_when_pack_empty else "")
            + then
        )
    return "cycle " + ", ".join(s.word if s is not None else "no trumps" for s in t.cycle) + then


def _no_trumps(v: Variant) -> str:
    every = v.trumps.no_trump_every
    return f"every {ordinal(every)} hand" if every else "never"


# ---- where each changes nothing


def _check_no_trumps(c: Context) -> Iterator[NoOp]:
    v = c.v
    every = v.trumps.no_trump_every
    if every is None:
        return
    shown = f"`no trumps: every {ordinal(every)} hand` has no effect"
    if c.never_trumps:
        yield NoOp("no trumps", f"{shown}: {c.no_trumps_why}", ("trumps",))
        return
    longest = c.longest
    if every > longest:
        yield NoOp(
            "no trumps",
            f"{shown}: no game is longer than {hands_text(longest)}",
            ("hands", "hand size", "players", "tie"),
        )
        return
    t = v.trumps
    if t.kind is TrumpKind.CYCLE and all(
        t.cycle[(h - 1) % len(t.cycle)] is None for h in range(every, longest + 1, every)
    ):
        yield NoOp(
            "no trumps",
            f"{shown}: the trump cycle already has no trumps in those hands",
            ("trumps",),
        )


def _trump_suits(v: Variant) -> list[Suit]:
    """The suits that can be trumps in some hand of ``v``."""
    t = v.trumps
    if t.namer is not TrumpNamer.NOBODY:
        return list(Suit)  # a player names (or orders up) any suit
    if t.kind is TrumpKind.FIXED:
        return [t.suit] if t.suit is not None else []
    if t.kind is TrumpKind.CYCLE:
        return [s for s in Suit if s in t.cycle]
    return list(Suit) if t.kind is TrumpKind.TURN_UP else []


def _check_trump_order(c: Context) -> Iterator[NoOp]:
    v = c.v
    if not v.trumps.order:
        return
    if c.never_trumps:
        yield NoOp(
            "trump order", f"`trump order` has no effect: {c.no_trumps_why}", ("trumps", "mode")
        )
        return
    pack = v.deck.cards
    if all(
        v.trumps.trump_cards(s, pack) == tuple(reversed(pack.of_suit(s))) for s in _trump_suits(v)
    ):
        yield NoOp(
            "trump order",
            "`trump order` has no effect: it ranks the trumps in their usual order, ace high",
            ("trumps", "deck"),
        )


def _check_stick_dealer(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.stick_dealer and t.namer is not TrumpNamer.ORDER_UP:
        yield NoOp(
            "stick the dealer",
            "`stick the dealer` has no effect: only order-up (`trumps: order up`) has a "
            "second round for the dealer to be stuck in",
            ("trumps",),
        )


def _check_going_alone(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.going_alone and (t.namer is not TrumpNamer.ORDER_UP or not c.v.teams):
        yield NoOp(
            "going alone",
            "`going alone` has no effect: only a maker of trumps by order-up "
            "(`trumps: order up`) with a partner (`teams:`) can play alone",
            ("trumps", "teams"),
        )


def _check_downtown(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.downtown is not DowntownRule.NO and t.namer is not TrumpNamer.HIGHEST_BIDDER:
        yield NoOp(
            "downtown",
            "`downtown` has no effect: only a highest bidder who names trumps "
            "(`trumps: named by the highest bidder`) declares uptown or downtown",
            ("trumps",),
        )


def _check_kitty(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.kitty and t.namer is not TrumpNamer.HIGHEST_BIDDER:
        yield NoOp(
            "kitty",
            "`kitty` has no effect: only a highest bidder who names trumps "
            "(`trumps: named by the highest bidder`) takes the kitty",
            ("trumps",),
        )


def _check_misere(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.misere and t.namer is not TrumpNamer.HIGHEST_BIDDER:
        yield NoOp(
            "misere",
            "`misere` has no effect: only a highest bidder who names trumps "
            "(`trumps: named by the highest bidder`) may declare misère",
            ("trumps",),
        )


def _parse_misere(b: StatementBuilder, c: list[Any]) -> Setting:
    if c[2].type == "V_A_BID_ABOVE":
        # A bid of the auction of contracts, just above the bid named.
        level = b.number(c[3], 0, MAX_CONTRACT_LEVEL, "a level")
        above = (level, strain_code(c[4]))
        return b.setting(c, ("trumps.misere", True), ("bidding.misere_above", above))
    return b.setting(c, ("trumps.misere", yes(c[2])), ("bidding.misere_above", None))


def _misere(v: Variant) -> str:
    above = v.bidding.misere_above
    if above is None:
        return yes_no(v.trumps.misere)
    return f"a bid above {above[0]} {STRAIN_WORDS[above[1]]}"


def _check_open_misere(c: Context) -> Iterator[NoOp]:
    if (
        c.v.bidding.open_misere_above is not None
        and c.v.trumps.namer is not TrumpNamer.HIGHEST_BIDDER
    ):
        yield NoOp(
            "open misere",
            "`open misère` has no effect: only a highest bidder who names trumps "
            "(`trumps: named by the highest bidder`) may bid open misère",
            ("trumps",),
        )


def _parse_open_misere(b: StatementBuilder, c: list[Any]) -> Setting:
    # A bid of the auction of contracts, just above the bid named.
    level = b.number(c[3], 0, MAX_CONTRACT_LEVEL, "a level")
    return b.setting(c, ("bidding.open_misere_above", (level, strain_code(c[4]))))


def _open_misere(v: Variant) -> str:
    above = v.bidding.open_misere_above
    if above is None:
        return "no"
    return f"a bid above {above[0]} {STRAIN_WORDS[above[1]]}"


def _kitty(v: Variant) -> str:
    t = v.trumps
    if not t.kitty:
        return "none"
    text = f"{t.kitty} card" + ("" if t.kitty == 1 else "s")
    return text + (", the discards count as a trick for the declarer" if t.kitty_trick else "")


def _check_defending_alone(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.defend_alone and not (t.going_alone and t.namer is TrumpNamer.ORDER_UP and c.v.teams):
        yield NoOp(
            "defending alone",
            "`defending alone` has no effect: only a lone maker (`going alone: yes`, "
            "with `trumps: order up` and `teams:`) can be defended alone",
            ("going alone", "trumps", "teams"),
        )


def _check_keep_turned(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.keep_turned and t.namer is not TrumpNamer.ORDER_UP:
        yield NoOp(
            "dealer keeps the turned card",
            "`dealer keeps the turned card` has no effect: only in order-up (`trumps: order "
            "up`) does a dealer take the turned card",
            ("trumps",),
        )


def _check_name_no_trumps(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.name_no_trumps and t.namer is TrumpNamer.NOBODY:
        yield NoOp(
            "may name no trumps",
            "`may name no trumps` has no effect: nobody names trumps in this game",
            ("trumps",),
        )


def _check_trump_ties(c: Context) -> Iterator[NoOp]:
    t = c.v.trumps
    if t.namer_tie is not NamerTie.FIRST_IN_TURN and t.namer not in (
        TrumpNamer.HIGHEST_BIDDER,
        TrumpNamer.MOST_TRICKS,
    ):
        yield NoOp(
            "trump ties",
            "`trump ties` has no effect: only the highest bidder or the winner of most "
            "tricks names trumps after a tie",
            ("trumps",),
        )


def _check_jokers_without_trumps(c: Context) -> Iterator[NoOp]:
    v = c.v
    if v.trumps.joker_no_trump is None:
        return
    if not any(k.is_joker for k in v.deck.cards):
        yield NoOp(
            "jokers without trumps",
            "`jokers without trumps` has no effect: the pack has no joker",
            ("deck",),
        )
    elif not hands_without_trumps(v):
        yield NoOp(
            "jokers without trumps",
            "`jokers without trumps` has no effect: every hand of this game has trumps",
            ("trumps", "no trumps", "may name no trumps"),
        )


# --------------------------------------------------------------------------- the parse


def _parse_trumps(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    namer = TrumpNamer.NOBODY
    if any(t.type == "V_THEN_NAMED" for t in tokens(c[3:])):
        namer = TrumpNamer.MOST_TRICKS
    if tok.type == "V_NAMED_BY_BIDDER":
        rule = TrumpRule(TrumpKind.NONE)
        namer = TrumpNamer.HIGHEST_BIDDER
    elif tok.type == "V_ORDER_UP":
        rule = TrumpRule(TrumpKind.TURN_UP, none_when_pack_empty=True)
        namer = TrumpNamer.ORDER_UP
    elif tok.type == "V_DEALERS_CARD":
        rule = TrumpRule(TrumpKind.DEALERS_CARD)
    elif tok.type in ("V_NONE", "NO_TRUMPS"):
        rule = TrumpRule(TrumpKind.NONE)
    elif tok.type == "SUIT":
        rule = TrumpRule(TrumpKind.FIXED, suit=suit_of(tok))
    elif tok.type == "V_TURNED_UP":
        empty_ok = any(t.type == "V_NONE_WHEN_EMPTY" for t in tokens(c[3:]))
        rule = TrumpRule(TrumpKind.TURN_UP, none_when_pack_empty=empty_ok)
    else:
        items = [x for x in c[3:] if isinstance(x, tuple)]
        if len(items) > limits.MAX_LIST_ITEMS:
            raise b.error(items[-1][0], "the cycle is too long")
        rule = TrumpRule(TrumpKind.CYCLE, cycle=tuple(s for _, s in items))
    return b.setting(
        c,
        ("trumps.kind", rule.kind),
        ("trumps.suit", rule.suit),
        ("trumps.cycle", rule.cycle),
        ("trumps.none_when_pack_empty", rule.none_when_pack_empty),
        ("trumps.namer", namer),
    )


def _parse_no_trumps(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    if tok.type == "V_NEVER":
        return b.setting(c, ("trumps.no_trump_every", None))
    ordinal: Token = c[3]
    digits = "".join(ch for ch in str(ordinal) if ch.isdigit())
    num = Token("INT", digits, line=ordinal.line, column=ordinal.column)
    every = b.number(num, 2, MAX_SCHEDULE_HANDS, "a hand number")
    return b.setting(c, ("trumps.no_trump_every", every))


def _parse_trump_order(b: StatementBuilder, c: list[Any]) -> Setting:
    entries: list[TrumpCard] = []
    for tok in tokens(c[2:]):
        if tok.type == "V_USUAL":
            break
        if tok.type == "CARD":
            entry = TrumpCard(TrumpCardKind.CARD, card=card(str(tok)))
        else:
            words = str(tok).split()
            kind = (
                TrumpCardKind.OF_TRUMPS
                if words[-1].lower() == "trumps"
                else TrumpCardKind.SAME_COLOUR
            )
            entry = TrumpCard(kind, rank=int(parse_rank(words[0])))
        if entry in entries:
            raise b.error(tok, f"{entry} is named twice")
        if len(entries) >= limits.MAX_LIST_ITEMS:
            raise b.error(tok, "the trump order is too long")
        entries.append(entry)
    return b.setting(c, ("trumps.order", tuple(entries)))


def _parse_stick_dealer(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("trumps.stick_dealer", yes(c[2])))


def _parse_going_alone(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("trumps.going_alone", yes(c[2])))


def _parse_downtown(b: StatementBuilder, c: list[Any]) -> Setting:
    tok = c[2]
    if tok.type == "V_ACE_HIGH":
        return b.setting(c, ("trumps.downtown", DowntownRule.ACE_HIGH))
    if tok.type == "V_ACE_LOW":
        return b.setting(c, ("trumps.downtown", DowntownRule.ACE_LOW))
    if yes(tok):
        raise b.error(
            tok,
            "say where the ace ranks downtown",
            expected="`ace high` (A, 2, 3 ... K) or `ace low` (2, 3 ... K, A), or `no`",
        )
    return b.setting(c, ("trumps.downtown", DowntownRule.NO))


def _parse_kitty(b: StatementBuilder, c: list[Any]) -> Setting:
    if c[2].type == "V_NONE":
        return b.setting(c, ("trumps.kitty", 0), ("trumps.kitty_trick", False))
    count = b.number(c[2], 1, 52, "the cards of the kitty")
    trick = any(isinstance(x, Token) and x.type == "V_KITTY_TRICK" for x in c[3:])
    return b.setting(c, ("trumps.kitty", count), ("trumps.kitty_trick", trick))


def _parse_defending_alone(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("trumps.defend_alone", yes(c[2])))


def _parse_keep_turned(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("trumps.keep_turned", yes(c[2])))


def _parse_name_no_trumps(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("trumps.name_no_trumps", yes(c[2])))


def _parse_trump_ties(b: StatementBuilder, c: list[Any]) -> Setting:
    tie = NamerTie.CUT if c[2].type == "V_A_CUT" else NamerTie.FIRST_IN_TURN
    return b.setting(c, ("trumps.namer_tie", tie))


def _parse_jokers_without_trumps(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    rule = JokerNoTrump.CANNOT_WIN if tok.type == "V_CANNOT_WIN" else JokerNoTrump.HIGHEST_CARD
    return b.setting(c, ("trumps.joker_no_trump", rule))


#: Which suit is trumps, in the canonical order of a formatted file.
TRUMP_SUIT: Final = (
    SettingSpec(
        "trumps",
        "K_TRUMPS",
        "trumps",
        (
            "trumps.kind",
            "trumps.suit",
            "trumps.cycle",
            "trumps.none_when_pack_empty",
            "trumps.namer",
        ),
        parse=_parse_trumps,
        samples=(
            "trumps: cycle spades, no trumps",
            "trumps: turned up",
            "trumps: hearts",
            "trumps: order up",
            "trumps: named by the highest bidder",
            "trumps: dealer's last card",
            "trumps: turned up, then named by the winner of most tricks",
        ),
        render=_trumps,
        written=always,
        page_rule="Trumps",
        old_saves={"trumps.namer": TrumpNamer.NOBODY},
    ),
    SettingSpec(
        "no trumps",
        "NO_TRUMPS",
        "no_trumps",
        ("trumps.no_trump_every",),
        parse=_parse_no_trumps,
        samples=("no trumps: every 5th hand",),
        render=_no_trumps,
        written=lambda v: v.trumps.no_trump_every is not None,
        where="games with trumps, long enough to reach such a hand, in which it would have trumps",
        check=_check_no_trumps,
        page_rule="Trumps",
    ),
    SettingSpec(
        "trump order",
        "K_TRUMP_ORDER",
        "trump_order",
        ("trumps.order",),
        parse=_parse_trump_order,
        samples=(
            "trump order: J of trumps, J of the same colour, 2♦",
            "trump order: usual",
        ),
        render=lambda v: ", ".join(str(e) for e in v.trumps.order) or "usual",
        written=lambda v: bool(v.trumps.order),
        where="games with trumps, in which it ranks some trump otherwise than the usual order",
        check=_check_trump_order,
        page_rule="Rank of trumps",
        old_saves={"trumps.order": ()},
    ),
    SettingSpec(
        "jokers without trumps",
        "K_JOKERS_WITHOUT_TRUMPS",
        "jokers_without_trumps",
        ("trumps.joker_no_trump",),
        parse=_parse_jokers_without_trumps,
        samples=("jokers without trumps: highest card", "jokers without trumps: cannot win"),
        render=lambda v: v.trumps.joker_no_trump.value if v.trumps.joker_no_trump else "",
        where="games whose pack has jokers and some of whose hands have no trumps",
        check=_check_jokers_without_trumps,
        page_rule="Rank of trumps",
        old_saves={"trumps.joker_no_trump": None},
    ),
)

#: How a player makes trumps (order-up, named trumps), in the canonical order.
MAKING_TRUMPS: Final = (
    SettingSpec(
        "stick the dealer",
        "K_STICK_DEALER",
        "stick_dealer",
        ("trumps.stick_dealer",),
        parse=_parse_stick_dealer,
        samples=("stick the dealer: yes",),
        render=lambda v: yes_no(v.trumps.stick_dealer),
        where="order-up games (`trumps: order up`)",
        check=_check_stick_dealer,
        page_rule="Trumps",
        old_saves={"trumps.stick_dealer": False},
    ),
    SettingSpec(
        "going alone",
        "K_GOING_ALONE",
        "going_alone",
        ("trumps.going_alone",),
        parse=_parse_going_alone,
        samples=("going alone: yes",),
        render=lambda v: yes_no(v.trumps.going_alone),
        where="order-up games with teams",
        check=_check_going_alone,
        page_rule="Trumps",
        old_saves={"trumps.going_alone": False},
    ),
    SettingSpec(
        "defending alone",
        "K_DEFENDING_ALONE",
        "defending_alone",
        ("trumps.defend_alone",),
        parse=_parse_defending_alone,
        samples=("defending alone: yes",),
        render=lambda v: yes_no(v.trumps.defend_alone),
        where="order-up games with teams and going alone",
        check=_check_defending_alone,
        page_rule="Trumps",
        old_saves={"trumps.defend_alone": False},
    ),
    SettingSpec(
        "dealer keeps the turned card",
        "K_KEEP_TURNED",
        "keep_turned",
        ("trumps.keep_turned",),
        parse=_parse_keep_turned,
        samples=("dealer keeps the turned card: yes",),
        render=lambda v: yes_no(v.trumps.keep_turned),
        where="order-up games (`trumps: order up`)",
        check=_check_keep_turned,
        page_rule="Trumps",
        old_saves={"trumps.keep_turned": False},
    ),
    SettingSpec(
        "may name no trumps",
        "K_NAME_NO_TRUMPS",
        "name_no_trumps",
        ("trumps.name_no_trumps",),
        parse=_parse_name_no_trumps,
        samples=("may name no trumps: yes",),
        render=lambda v: yes_no(v.trumps.name_no_trumps),
        where="games in which a player names trumps (or a suit in order-up's second round)",
        check=_check_name_no_trumps,
        page_rule="Trumps",
        old_saves={"trumps.name_no_trumps": False},
    ),
    SettingSpec(
        "downtown",
        "K_DOWNTOWN",
        "downtown",
        ("trumps.downtown",),
        parse=_parse_downtown,
        samples=("downtown: ace high", "downtown: ace low", "downtown: no"),
        render=lambda v: v.trumps.downtown.value,
        where="games in which the highest bidder names trumps",
        check=_check_downtown,
        page_rule="Trumps",
        old_saves={"trumps.downtown": DowntownRule.NO},
    ),
    SettingSpec(
        "misere",
        "K_MISERE",
        "misere",
        ("trumps.misere", "bidding.misere_above"),
        parse=_parse_misere,
        samples=("misere: yes", "misere: a bid above 8 spades"),
        render=_misere,
        where="games in which the highest bidder names trumps",
        check=_check_misere,
        page_rule="Trumps",
        old_saves={"trumps.misere": False, "bidding.misere_above": None},
    ),
    SettingSpec(
        "open misere",
        "K_OPEN_MISERE",
        "open_misere",
        ("bidding.open_misere_above",),
        parse=_parse_open_misere,
        samples=("open misere: a bid above 10 diamonds",),
        render=_open_misere,
        where="games in which the highest bidder names trumps",
        check=_check_open_misere,
        page_rule="Trumps",
        old_saves={"bidding.open_misere_above": None},
    ),
    SettingSpec(
        "kitty",
        "K_KITTY",
        "kitty",
        ("trumps.kitty", "trumps.kitty_trick"),
        parse=_parse_kitty,
        samples=(
            "kitty: 4 cards",
            "kitty: 6 cards, the discards count as a trick for the declarer",
            "kitty: none",
        ),
        render=_kitty,
        where="games in which the highest bidder names trumps",
        check=_check_kitty,
        page_rule="Trumps",
        old_saves={"trumps.kitty": 0, "trumps.kitty_trick": False},
    ),
    SettingSpec(
        "trump ties",
        "K_TRUMP_TIES",
        "trump_ties",
        ("trumps.namer_tie",),
        parse=_parse_trump_ties,
        samples=("trump ties: cut",),
        render=lambda v: v.trumps.namer_tie.value,
        where="games in which the highest bidder or the winner of most tricks names trumps",
        check=_check_trump_ties,
        page_rule="Trumps",
        old_saves={"trumps.namer_tie": NamerTie.FIRST_IN_TURN},
    ),
)
