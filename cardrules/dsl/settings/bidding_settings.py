"""The settings of the bidding: ``bidding``, ``auction``, ``all pass``, ``hook``, ``bids``,
``blind bids``, ``forehead hands``, ``bid changes`` and ``team bids``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token

from cardrules.cards import MAX_CONTRACT_LEVEL, STRAIN_WORDS
from cardrules.rules import BiddingRule, BidStyle, Mode, Variant

from .. import limits
from .declaration import SettingSpec, changed
from .effect_checks import Context, NoOp, and_or, cards_text
from .rendering import yes_no
from .statement import Setting, StatementBuilder, strain_code, tokens, yes

__all__ = ["BIDDING"]


# ---- how each is written

_STYLES: Final = {
    BidStyle.NONE: "none",
    BidStyle.IN_TURN: "in turn",
    BidStyle.SIMULTANEOUS: "all at once",
    BidStyle.AUCTION: "auction",
}


def _bidding(v: Variant) -> str:
    return _STYLES[v.bidding.style]


def _hook(v: Variant) -> str:
    return yes_no(v.bidding.hook)


def _bids(v: Variant) -> str:
    b = v.bidding
    top = "the hand size" if b.max_bid is None else str(b.max_bid)
    if b.strains:
        return f"{b.min_bid} to {top} in " + ", ".join(STRAIN_WORDS[k] for k in b.strains)
    return f"{b.min_bid} to {top}"


def _blind_bids(v: Variant) -> str:
    b = v.bidding
    if b.blind and b.blind_only:
        return "only " + ", ".join(map(str, b.blind_only))
    return yes_no(b.blind)


def _forehead_hands(v: Variant) -> str:
    return ", ".join(str(n) for n in v.bidding.forehead_sizes) or "none"


def _bid_changes(v: Variant) -> str:
    return "until the next bid" if v.bidding.amend else "no"


# ---- where each changes nothing

#: How to switch off each bidding setting, for a game without bidding.
_OFF: Final = {
    "hook": "add `hook: no`",
    "blind bids": "add `blind bids: no`",
    "forehead hands": "add `forehead hands: none`",
    "bid changes": "add `bid changes: no`",
    "team bids": "add `team bids: each partner`",
    "bids": "add `bids: 0 to the hand size`",
}


def _without_bidding(c: Context, key: str) -> NoOp:
    why = "this game has no bidding" if c.tricks else "shedding games have no bidding"
    return NoOp(
        key,
        f"`{key}` needs bidding, but {why}",
        ("bidding", "mode"),
        hint=_OFF.get(key),
        warning=f"`{key}` has no effect: {why}",
    )


def _check_bidding(c: Context) -> Iterator[NoOp]:
    b = c.v.bidding
    if (
        not c.tricks
        and b.style is not BidStyle.NONE
        and (c.stated("bidding") or b.style is not BiddingRule().style)
    ):
        yield NoOp(
            "bidding",
            "shedding games have no bidding",
            ("mode",),
            hint=None,
            expected="`bidding: none`",
            warning="`bidding` has no effect: shedding games have no bidding",
        )


def _check_hook(c: Context) -> Iterator[NoOp]:
    if not c.bidding and c.v.bidding.hook and c.stated("hook"):
        yield _without_bidding(c, "hook")


def _check_bids(c: Context) -> Iterator[NoOp]:
    b = c.v.bidding
    default = BiddingRule()
    if not c.bidding:
        if (b.min_bid, b.max_bid) != (default.min_bid, default.max_bid):
            yield _without_bidding(c, "bids")
        return
    if b.max_bid is not None and b.max_bid >= c.largest and not b.strains:
        yield NoOp(
            "bids",
            f"the top of `bids: {b.min_bid} to {b.max_bid}` has no effect: no hand has "
            f"more than {cards_text(c.largest)}",
            ("hand size", "hands", "players", "deck"),
            hint=f"write `bids: {b.min_bid} to the hand size`",
            part=True,
        )


def _check_blind_bids(c: Context) -> Iterator[NoOp]:
    if not c.bidding and c.v.bidding.blind:
        yield _without_bidding(c, "blind bids")


def _check_forehead_hands(c: Context) -> Iterator[NoOp]:
    sizes = c.v.bidding.forehead_sizes
    if not sizes:
        return
    if not c.bidding:
        yield _without_bidding(c, "forehead hands")
        return
    dead = [n for n in sizes if n not in c.dealt]
    if not dead:
        return
    shown = ", ".join(map(str, dead))
    what = (
        f"`forehead hands: {shown}`"
        if len(dead) == len(sizes)
        else f"`{shown}` in `forehead hands`"
    )
    cards = "card" if dead == [1] else "cards"
    yield NoOp(
        "forehead hands",
        f"{what} has no effect: no hand has {and_or(list(map(str, dead)), 'or')} {cards}",
        ("hand size", "hands", "players", "deck"),
        hint="delete the line"
        if len(dead) == len(sizes)
        else f"take {'it' if len(dead) == 1 else 'them'} out of the line",
        part=len(dead) < len(sizes),
    )


def _check_team_bids(c: Context) -> Iterator[NoOp]:
    if not c.v.bidding.one_per_team:
        return
    if not c.bidding:
        yield _without_bidding(c, "team bids")
    elif not c.v.teams:
        yield NoOp(
            "team bids",
            "`team bids: one per side` has no effect: every player is on their own (no `teams:`)",
            ("teams",),
        )


def _check_bid_changes(c: Context) -> Iterator[NoOp]:
    if not c.bidding and c.v.bidding.amend:
        yield _without_bidding(c, "bid changes")


# --------------------------------------------------------------------------- the parse


def _parse_bidding(b: StatementBuilder, c: list[Any]) -> Setting:
    styles = {
        "V_NONE": BidStyle.NONE,
        "V_IN_TURN": BidStyle.IN_TURN,
        "V_ALL_AT_ONCE": BidStyle.SIMULTANEOUS,
        "V_AUCTION": BidStyle.AUCTION,
    }
    return b.setting(c, ("bidding.style", styles[c[2].type]))


def _parse_hook(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("bidding.hook", yes(c[2])))


def _parse_bids(b: StatementBuilder, c: list[Any]) -> Setting:
    lo = b.number(c[2], 0, limits.MAX_PLAYERS, "a bid")
    hi: int | None = None
    if c[4].type == "INT":
        hi = b.number(c[4], 0, limits.MAX_PLAYERS, "a bid")
        if hi < lo:
            raise b.error(c[4], f"{hi} is less than {lo}", expected=f"{lo} or more")
    strains: list[int] = []
    for tok in tokens(c[5:]):
        if tok.type not in ("SUIT", "NO_TRUMPS"):
            continue
        k = strain_code(tok)
        if k in strains:
            raise b.error(tok, f"{STRAIN_WORDS[k]} is listed twice")
        strains.append(k)
    if strains and (hi is None or hi > MAX_CONTRACT_LEVEL):
        raise b.error(
            c[4],
            "a bid in a strain needs a highest level"
            + ("" if hi is None else f" of at most {MAX_CONTRACT_LEVEL}"),
            expected=f"a number up to {MAX_CONTRACT_LEVEL}",
        )
    return b.setting(
        c, ("bidding.min_bid", lo), ("bidding.max_bid", hi), ("bidding.strains", tuple(strains))
    )


def _parse_blind_bids(b: StatementBuilder, c: list[Any]) -> Setting:
    if c[2].type == "V_ONLY":
        values: list[int] = []
        for tok in tokens(c[3:]):
            n = b.number(tok, 0, 52, "a blind bid")
            if n in values:
                raise b.error(tok, f"{n} is given twice")
            values.append(n)
        return b.setting(c, ("bidding.blind", True), ("bidding.blind_only", tuple(sorted(values))))
    return b.setting(c, ("bidding.blind", yes(c[2])), ("bidding.blind_only", ()))


def _parse_forehead_hands(b: StatementBuilder, c: list[Any]) -> Setting:
    sizes: list[int] = []
    for t in tokens(c[2:]):
        if t.type == "INT":
            n = b.number(t, 1, limits.MAX_PLAYERS, "a hand")
            if n in sizes:
                raise b.error(t, f"{n} is listed twice")
            sizes.append(n)
    return b.setting(c, ("bidding.forehead_sizes", tuple(sizes)))


def _parse_bid_changes(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    return b.setting(c, ("bidding.amend", tok.type == "V_UNTIL_NEXT_BID" or yes(tok)))


def _parse_auction(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("bidding.until_others_pass", c[2].type == "V_UNTIL_OTHERS_PASS"))


def _check_auction(c: Context) -> Iterator[NoOp]:
    b = c.v.bidding
    if b.until_others_pass and (not c.bidding or b.style is not BidStyle.AUCTION):
        yield NoOp(
            "auction",
            "`auction` has no effect: this game's bidding is not an auction",
            ("bidding",),
            hint="add `bidding: auction`, or delete the line",
        )


def _parse_all_pass(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("bidding.all_pass_thrown_in", c[2].type == "V_THROWN_IN"))


def _check_all_pass(c: Context) -> Iterator[NoOp]:
    b = c.v.bidding
    if b.all_pass_thrown_in and (not c.bidding or b.style is not BidStyle.AUCTION):
        yield NoOp(
            "all pass",
            "`all pass` has no effect: this game's bidding is not an auction",
            ("bidding",),
            hint="add `bidding: auction`, or delete the line",
        )


def _parse_team_bids(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("bidding.one_per_team", c[2].type == "V_ONE_PER_SIDE"))


#: The bidding settings, in the canonical order of a formatted file.
BIDDING: Final = (
    SettingSpec(
        "bidding",
        "K_BIDDING",
        "bidding",
        ("bidding.style",),
        parse=_parse_bidding,
        samples=("bidding: all at once", "bidding: auction"),
        render=_bidding,
        written=lambda v: v.mode is Mode.TRICKS or changed(_bidding, v),
        where="trick-taking games",
        check=_check_bidding,
        page_rule="Bidding",
    ),
    SettingSpec(
        "auction",
        "K_AUCTION",
        "auction",
        ("bidding.until_others_pass",),
        parse=_parse_auction,
        samples=("auction: until the others pass", "auction: once round"),
        render=lambda v: "until the others pass" if v.bidding.until_others_pass else "once round",
        written=lambda v: v.bidding.until_others_pass,
        where="games whose bidding is an auction",
        check=_check_auction,
        page_rule="Bidding",
        old_saves={"bidding.until_others_pass": False},
    ),
    SettingSpec(
        "all pass",
        "K_ALL_PASS",
        "all_pass",
        ("bidding.all_pass_thrown_in",),
        parse=_parse_all_pass,
        samples=("all pass: the hand is thrown in", "all pass: the last player must bid"),
        render=lambda v: (
            "the hand is thrown in" if v.bidding.all_pass_thrown_in else "the last player must bid"
        ),
        written=lambda v: v.bidding.all_pass_thrown_in,
        where="games whose bidding is an auction",
        check=_check_all_pass,
        page_rule="Bidding",
        old_saves={"bidding.all_pass_thrown_in": False},
    ),
    SettingSpec(
        "hook",
        "K_HOOK",
        "hook",
        ("bidding.hook",),
        parse=_parse_hook,
        samples=("hook: no",),
        render=_hook,
        written=lambda v: v.has_bidding or changed(_hook, v),
        where="games with bidding in turn",
        check=_check_hook,
        page_rule="The hook",
    ),
    SettingSpec(
        "bids",
        "K_BIDS",
        "bids",
        ("bidding.min_bid", "bidding.max_bid", "bidding.strains"),
        parse=_parse_bids,
        samples=("bids: 1 to 8", "bids: 6 to 10 in spades, clubs, diamonds, hearts, no trumps"),
        render=_bids,
        written=lambda v: v.has_bidding or changed(_bids, v),
        where="games with bidding; the top only below the largest hand",
        check=_check_bids,
        page_rule="Bidding",
        old_saves={"bidding.strains": ()},
    ),
    SettingSpec(
        "blind bids",
        "K_BLIND_BIDS",
        "blind_bids",
        ("bidding.blind", "bidding.blind_only"),
        parse=_parse_blind_bids,
        samples=("blind bids: only 0",),
        render=_blind_bids,
        written=lambda v: v.has_bidding or changed(_blind_bids, v),
        where="games with bidding",
        check=_check_blind_bids,
        page_rule="Blind bids",
    ),
    SettingSpec(
        "forehead hands",
        "K_FOREHEAD_HANDS",
        "forehead_hands",
        ("bidding.forehead_sizes",),
        parse=_parse_forehead_hands,
        samples=("forehead hands: 1",),
        render=_forehead_hands,
        written=lambda v: v.has_bidding or changed(_forehead_hands, v),
        where="games with bidding that deal hands of those sizes",
        check=_check_forehead_hands,
        page_rule="Forehead hands",
    ),
    SettingSpec(
        "bid changes",
        "K_BID_CHANGES",
        "bid_changes",
        ("bidding.amend",),
        parse=_parse_bid_changes,
        samples=("bid changes: until the next bid",),
        render=_bid_changes,
        written=lambda v: v.has_bidding or changed(_bid_changes, v),
        where="games with bidding in turn",
        check=_check_bid_changes,
        page_rule="Changing a bid",
    ),
    SettingSpec(
        "team bids",
        "K_TEAM_BIDS",
        "team_bids",
        ("bidding.one_per_team",),
        parse=_parse_team_bids,
        samples=(
            "team bids: one per side",
            "team bids: each partner",
        ),
        render=lambda v: "one per side" if v.bidding.one_per_team else "each partner",
        where="games with teams and bidding",
        check=_check_team_bids,
        page_rule="Bidding",
        old_saves={"bidding.one_per_team": False},
    ),
)
