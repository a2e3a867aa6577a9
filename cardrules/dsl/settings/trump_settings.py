"""The settings of trumps: which suit is trumps (``trumps``, ``no trumps``,
``trump order``), and how a player makes trumps in order-up and named-trumps
games (``stick the dealer`` ... ``trump ties``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from cardrules.cards import Suit
from cardrules.rules import NamerTie, TrumpKind, TrumpNamer, Variant

from .declaration import SettingSpec, always
from .effect_checks import Context, NoOp, hands_text
from .rendering import ordinal, yes_no

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
        render=lambda v: ", ".join(str(e) for e in v.trumps.order) or "usual",
        written=lambda v: bool(v.trumps.order),
        where="games with trumps, in which it ranks some trump otherwise than the usual order",
        check=_check_trump_order,
        page_rule="Rank of trumps",
        old_saves={"trumps.order": ()},
    ),
)

#: How a player makes trumps (order-up, named trumps), in the canonical order.
MAKING_TRUMPS: Final = (
    SettingSpec(
        "stick the dealer",
        "K_STICK_DEALER",
        "stick_dealer",
        ("trumps.stick_dealer",),
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
        render=lambda v: yes_no(v.trumps.name_no_trumps),
        where="games in which a player names trumps (or a suit in order-up's second round)",
        check=_check_name_no_trumps,
        page_rule="Trumps",
        old_saves={"trumps.name_no_trumps": False},
    ),
    SettingSpec(
        "trump ties",
        "K_TRUMP_TIES",
        "trump_ties",
        ("trumps.namer_tie",),
        render=lambda v: v.trumps.namer_tie.value,
        where="games in which the highest bidder or the winner of most tricks names trumps",
        check=_check_trump_ties,
        page_rule="Trumps",
        old_saves={"trumps.namer_tie": NamerTie.FIRST_IN_TURN},
    ),
)
