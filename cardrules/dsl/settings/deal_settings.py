"""The settings of the deal: ``direction``, ``first dealer``, ``deal passes``,
``hand size``, ``hands`` and ``redeal``."""

from __future__ import annotations

from collections.abc import Iterator
from math import comb
from typing import Any, Final

from lark import Token

from cardrules.card_rules import CardSetRule, TermKind
from cardrules.errors import VariantError
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    DealerRule,
    Direction,
    FirstDealer,
    HandSizeRule,
    Mode,
    Pattern,
    RedealRule,
    SizeEntry,
    Variant,
    steps_sizes,
)

from .. import limits
from .declaration import SettingSpec, always, changed
from .effect_checks import Context, NoOp, cards_text, entry_text, players_text
from .statement import Setting, StatementBuilder, tokens

__all__ = ["DEAL", "MAX_REDEAL_CHANCE", "redeal_chance"]


# ---- how each is written


def _direction(v: Variant) -> str:
    return "clockwise" if v.direction is Direction.CLOCKWISE else "anticlockwise"


def _dealer(v: Variant) -> str:
    d = v.dealer
    if d.first is FirstDealer.RANDOM:
        return "random"
    if d.first is FirstDealer.CUT:
        return "cut for highest card"
    return f"seat {d.seat + 1}"


def _deal_passes(v: Variant) -> str:
    return "to the loser" if v.match.loser_deals else "to the next player"


def _entry(e: SizeEntry) -> str:
    if (e.min_players, e.max_players) == (1, limits.MAX_PLAYERS):
        return str(e.size)
    if e.min_players == e.max_players:
        word = "player" if e.min_players == 1 else "players"
        return f"{e.size} for {e.min_players} {word}"
    if e.max_players == limits.MAX_PLAYERS:
        return f"{e.size} for {e.min_players} or more players"
    return f"{e.size} for {e.min_players} to {e.max_players} players"


def _hand_size(v: Variant) -> str:
    r = v.schedule.start
    items = [_entry(e) for e in r.table]
    if r.largest:
        items.append("largest")
        if r.keep_one:
            items.append("keep one for trumps")
        if r.cap is not None:
            items.append(f"at most {r.cap}")
    elif r.keep_one or r.cap is not None or not items:
        raise VariantError("this hand size rule cannot be written as a variant file")
    return ", ".join(items)


def _hands(v: Variant) -> str:
    s = v.schedule
    text = {
        Pattern.DOWN: "down to 1",
        Pattern.DOWN_UP: "down to 1 and back up",
        Pattern.UP: "up from 1",
        Pattern.UP_DOWN: "up from 1 and back down",
        Pattern.WHOLE_PACK: "whole pack",
    }.get(s.pattern)
    if s.pattern is Pattern.SAME:
        text = f"{s.count} hands of the same size"
    elif s.pattern is Pattern.LIST:
        text = "list " + ", ".join(str(n) for n in s.sizes)
    elif s.pattern is Pattern.STEPS:
        text = ", ".join(f"{a} x players" if per else f"{a} to {b}" for a, b, per in s.steps)
    if text is None:  # pragma: no cover - every pattern is covered above
        raise VariantError(f"unknown pattern {s.pattern!r}")
    if s.repeat == 2:
        text += ", twice"
    elif s.repeat != 1:
        text += f", {s.repeat} times"
    return text


def _redeal(v: Variant) -> str:
    r = v.redeal
    if r is None:
        return "none"
    sets = " or without ".join(str(x) for x in r.without)
    who = "the next dealer" if r.next_dealer else "the same dealer"
    verb = "may" if r.may else "must"
    return f"a hand without {sets} {verb} be shown, dealt again by {who}"


# ---- where each changes nothing


def _check_direction(c: Context) -> Iterator[NoOp]:
    v = c.v
    if v.players.max <= 2 and v.direction is Direction.ANTICLOCKWISE:
        yield NoOp(
            "direction",
            "`direction: anticlockwise` has no effect with 2 players: play, bidding and "
            "the deal go back and forth the same way in either direction",
            ("players",),
        )


def _check_deal_passes(c: Context) -> Iterator[NoOp]:
    v = c.v
    if not v.match.loser_deals:
        return
    if c.tricks:
        yield NoOp(
            "deal passes",
            "`deal passes: to the loser` is for shedding games: a trick-taking game "
            "has no loser to deal the next game",
            ("mode",),
            hint="write `deal passes: to the next player`",
        )
    elif not v.match.word:
        yield NoOp(
            "deal passes",
            "`deal passes: to the loser` has no effect without a match word: a single "
            "game has no next game to deal",
            ("match word",),
            hint="add a `match word:`, or delete the line",
        )


def _check_hand_size(c: Context) -> Iterator[NoOp]:
    v = c.v
    sched = v.schedule
    start = sched.start
    if start == HandSizeRule():
        return  # `largest`, the default, said again: no surprise in it
    if sched.pattern in (Pattern.LIST, Pattern.WHOLE_PACK, Pattern.STEPS):
        why = {
            Pattern.LIST: "`hands: list ...` gives the size of every hand",
            Pattern.STEPS: "`hands:` gives the size of every hand",
        }.get(sched.pattern, "`hands: whole pack` deals out the whole pack")
        yield NoOp("hand size", f"`hand size` has no effect: {why}", ("hands",))
        return
    for e in start.table:
        if e.max_players < v.players.min or e.min_players > v.players.max:
            yield NoOp(
                "hand size",
                f"`{entry_text(e)}` in `hand size` has no effect: the game is for "
                f"{players_text(v)}",
                ("players",),
                hint="take it out of the line",
                part=True,
            )
    if start.largest:
        yield from _check_largest(c)


def _check_largest(c: Context) -> Iterator[NoOp]:
    """The ``largest`` part of a ``hand size`` line, with its ``keep one for
    trumps`` and ``at most``."""
    v = c.v
    start = v.schedule.start
    counts = v.players.counts()
    rest = [n for n in counts if not any(e.min_players <= n <= e.max_players for e in start.table)]
    if not rest:
        yield NoOp(
            "hand size",
            "`largest` in `hand size` has no effect: the table gives a size for every "
            "number of players the game allows",
            ("players",),
            hint="take it out of the line",
            part=True,
        )
        return
    deck = v.deck.size
    cap = start.cap if start.cap is not None else deck
    if start.keep_one and all(min((deck - 1) // n, cap) == min(deck // n, cap) for n in rest):
        n = rest[0]
        yield NoOp(
            "hand size",
            "`keep one for trumps` in `hand size` has no effect: keeping a card back "
            f"leaves the largest hand as it is ({cards_text(min(deck // n, cap))} each for "
            f"{n} players)",
            ("players", "deck"),
            hint="take it out of the line",
            part=True,
        )
    if start.cap is not None:
        most = max((deck - (1 if start.keep_one else 0)) // n for n in rest)
        if start.cap >= most:
            yield NoOp(
                "hand size",
                f"`at most {start.cap}` in `hand size` has no effect: the pack gives at "
                f"most {cards_text(most)} each",
                ("players", "deck"),
                hint="take it out of the line",
                part=True,
            )


#: The highest chance a deal may have of being thrown in (``redeal:``): a
#: condition that holds more often is refused (20 deals in a row, the most the
#: engine deals before a deal stands, then come less than once in a million games).
MAX_REDEAL_CHANCE: Final = 0.5


def redeal_chance(v: Variant) -> tuple[float, int, int]:
    """The highest chance that a deal of ``v`` is thrown in under its
    ``redeal:`` condition, with the number of players and the hand size it
    comes at (``(0.0, 0, 0)`` without one). Each seat misses a set of ``s`` of
    the pack's ``N`` cards with chance C(N-s, k)/C(N, k) in a hand of ``k``;
    a seat's chances are summed over the sets (at most 1) and the seats are
    taken as independent: near enough to refuse a condition that is certain
    or nearly so."""
    r = v.redeal
    best = (0.0, 0, 0)
    if r is None:
        return best
    for n in v.players.counts():
        pack = v.deck.cards_for(n).mask
        total = pack.bit_count()
        sizes = [(m & pack).bit_count() for m in r.masks(pack, 0)]
        for k in set(v.hand_sizes(n)):
            if k <= 0 or k > total:
                continue
            seat = min(1.0, sum(comb(total - s, k) / comb(total, k) for s in sizes))
            chance = 1.0 - (1.0 - seat) ** n
            if chance > best[0]:
                best = (chance, n, k)
    return best


def _check_redeal(c: Context) -> Iterator[NoOp]:
    """A ``redeal:`` condition that no hand of the game can meet: every hand is
    larger than the cards outside one of its sets, in every deal."""
    v = c.v
    r = v.redeal
    if r is None:
        return
    for n in v.players.counts():
        pack = v.deck.cards_for(n).mask
        outside = [(pack & ~m).bit_count() for m in r.masks(pack, 0)]
        for k in set(v.hand_sizes(n)):
            if any(k <= room for room in outside):
                return
    yield NoOp(
        "redeal",
        "`redeal` has no effect: every hand is too large to miss the cards it names",
        ("hand size", "hands", "deck"),
        hint="name fewer cards, or delete the line",
    )


# --------------------------------------------------------------------------- the parse

#: The words of a ``hand size:`` line's options, as an error names them.
_SIZE_WORDS: Final = {"largest": "largest", "keep one": "keep one for trumps", "cap": "at most"}


def _parse_direction(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    d = Direction.CLOCKWISE if tok.type == "V_CLOCKWISE" else Direction.ANTICLOCKWISE
    return b.setting(c, ("direction", d))


def _parse_first_dealer(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    if tok.type == "V_RANDOM":
        rule = DealerRule(FirstDealer.RANDOM)
    elif tok.type == "V_CUT":
        rule = DealerRule(FirstDealer.CUT)
    else:
        seat = b.number(c[3], 1, limits.MAX_PLAYERS, "a seat")
        rule = DealerRule(FirstDealer.SEAT, seat - 1)
    return b.setting(c, ("dealer", rule))


def _parse_deal_passes(b: StatementBuilder, c: list[Any]) -> Setting:
    tok: Token = c[2]
    return b.setting(c, ("match.loser_deals", tok.type == "V_TO_LOSER"))


def _parse_hand_size(b: StatementBuilder, c: list[Any]) -> Setting:
    items = [x for x in c[2:] if isinstance(x, tuple)]
    table: list[SizeEntry] = []
    seen: dict[str, Token] = {}
    for tok, kind, value in items:
        if kind == "entry":
            for other in table:
                if (
                    value.min_players <= other.max_players
                    and other.min_players <= value.max_players
                ):
                    both = max(value.min_players, other.min_players)
                    raise b.error(
                        tok,
                        f"two hand sizes are given for {both} players",
                        hint="give each number of players one size",
                    )
            table.append(value)
        elif kind in seen:
            raise b.error(tok, f"`{_SIZE_WORDS[kind]}` is given twice")
        else:
            seen[kind] = tok
    largest = "largest" in seen
    for kind in ("keep one", "cap"):
        if kind in seen and not largest:
            raise b.error(
                seen[kind],
                f"`{_SIZE_WORDS[kind]}` only applies to `largest`",
                hint="add `largest`, as in `hand size: largest, keep one for trumps`",
            )
    cap = next((v for _, k, v in items if k == "cap"), None)
    rule = HandSizeRule(tuple(table), largest, "keep one" in seen, cap)
    return b.setting(c, ("schedule.start", rule))


def _parse_hands(b: StatementBuilder, c: list[Any]) -> Setting:
    rest = c[2:]
    repeat = next((x for x in rest if isinstance(x, int) and not isinstance(x, Token)), 1)
    steps: tuple[tuple[int, int, bool], ...] = tuple(
        x for x in rest if isinstance(x, tuple) and len(x) == 3 and isinstance(x[2], bool)
    )
    if steps:
        if len(steps_sizes(steps, limits.MAX_PLAYERS)) * repeat > MAX_SCHEDULE_HANDS:
            raise b.error(
                c[0],
                "too many hands for the largest table",
                expected=f"at most {MAX_SCHEDULE_HANDS}",
            )
        pattern, count = Pattern.STEPS, 1
        sizes: tuple[int, ...] = ()
    elif isinstance(rest[0], tuple):
        pattern, count, sizes = rest[0]
    else:
        nums = [t for t in tokens(rest) if t.type == "INT"]
        if len(nums) > MAX_SCHEDULE_HANDS:
            raise b.error(
                nums[MAX_SCHEDULE_HANDS],
                "too many hands",
                expected=f"at most {MAX_SCHEDULE_HANDS}",
            )
        pattern, count = Pattern.LIST, 1
        sizes = tuple(b.number(t, 1, limits.MAX_PLAYERS, "a hand") for t in nums)
    return b.setting(
        c,
        ("schedule.pattern", pattern),
        ("schedule.count", count),
        ("schedule.sizes", sizes),
        ("schedule.repeat", repeat),
        ("schedule.steps", steps),
    )


#: The terms a ``redeal:`` set may not use: a dealt hand has no trick yet.
_TRICK_TERMS: Final = {TermKind.SUIT_LED: "the suit led", TermKind.WINNING: "winning"}


def _parse_redeal(b: StatementBuilder, c: list[Any]) -> Setting:
    if c[2].type == "V_NONE":
        return b.setting(c, ("redeal", None))
    sets = [x for x in c if isinstance(x, CardSetRule)]
    if len(sets) > limits.MAX_CHOICE_OPTIONS:
        raise b.error(c[0], "too many sets", expected=f"at most {limits.MAX_CHOICE_OPTIONS}")
    for rule in sets:
        for t in rule.terms:
            word = _TRICK_TERMS.get(t.kind) or ("unbroken" if t.unbroken else None)
            if word is not None:
                raise b.error(
                    c[0],
                    f"`{word}` has no meaning in a hand just dealt: there is no trick yet",
                    hint="name suits, cards, ranks (`higher than 10`) or trumps",
                )
    next_dealer = any(isinstance(x, Token) and x.type == "V_NEXT_DEALER" for x in c)
    may = any(isinstance(x, Token) and x.type == "V_MAY_BE_SHOWN" for x in c)
    return b.setting(c, ("redeal", RedealRule(tuple(sets), next_dealer, may)))


#: The deal's settings, in the canonical order of a formatted file.
DEAL: Final = (
    SettingSpec(
        "direction",
        "K_DIRECTION",
        "direction",
        ("direction",),
        parse=_parse_direction,
        samples=("direction: anticlockwise",),
        render=_direction,
        written=always,
        where="games for more than 2 players",
        check=_check_direction,
        page_rule="Direction of play",
    ),
    SettingSpec(
        "first dealer",
        "K_FIRST_DEALER",
        "first_dealer",
        ("dealer.first", "dealer.seat"),
        parse=_parse_first_dealer,
        samples=(
            "first dealer: seat 2",
            "first dealer: random",
        ),
        render=_dealer,
        written=always,
        page_rule="Dealer",
    ),
    SettingSpec(
        "deal passes",
        "K_DEAL_PASSES",
        "deal_passes",
        ("match.loser_deals",),
        parse=_parse_deal_passes,
        samples=("deal passes: to the loser",),
        render=_deal_passes,
        written=lambda v: v.mode is not Mode.TRICKS or changed(_deal_passes, v),
        where="shedding games with a match word (`to the loser`)",
        check=_check_deal_passes,
        page_rule="Dealer",
    ),
    SettingSpec(
        "hand size",
        "K_HAND_SIZE",
        "hand_size",
        (
            "schedule.start.table",
            "schedule.start.largest",
            "schedule.start.keep_one",
            "schedule.start.cap",
        ),
        parse=_parse_hand_size,
        samples=("hand size: 10 for 3 to 5 players, largest, keep one for trumps, at most 8",),
        render=_hand_size,
        written=lambda v: (
            v.schedule.pattern not in (Pattern.WHOLE_PACK, Pattern.LIST, Pattern.STEPS)
            or changed(_hand_size, v)
        ),
        where="games whose `hands:` start from it (not a list, not the whole pack); each "
        "entry for a number of players the game allows, `largest` for a number the table "
        "misses, `keep one` and `at most` when they make a hand smaller",
        check=_check_hand_size,
        page_rule="Deal schedule",
    ),
    SettingSpec(
        "hands",
        "K_HANDS",
        "hands",
        (
            "schedule.pattern",
            "schedule.count",
            "schedule.sizes",
            "schedule.repeat",
            "schedule.steps",
        ),
        parse=_parse_hands,
        samples=(
            "hands: list 3, 2, 1, twice",
            "hands: 5 hands of the same size",
            "hands: 1 x players, 2 to 7, 8 x players, 7 to 2, 1 x players",
        ),
        render=_hands,
        written=always,
        page_rule="Deal schedule",
        old_saves={"schedule.steps": ()},
    ),
    SettingSpec(
        "redeal",
        "K_REDEAL",
        "redeal",
        ("redeal",),
        parse=_parse_redeal,
        samples=(
            "redeal: a hand without spades must be shown, dealt again by the same dealer",
            "redeal: a hand without trumps or without higher than 10 must be shown, "
            "dealt again by the next dealer",
            "redeal: a hand without spades may be shown",
            "redeal: none",
        ),
        render=_redeal,
        where="games whose hands can miss the cards the line names",
        check=_check_redeal,
        page_rule="Dealer",
        old_saves={"redeal": None},
    ),
)
