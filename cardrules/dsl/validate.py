"""Semantic checks: a variant that reads well but cannot be played.

Each check raises a :class:`~cardrules.errors.VariantError` pointing at the line
of the setting that caused the problem (for a setting inherited through
``extends``, the line in the parent file; for a setting left at its default,
the ``game:`` line). When settings clash, the one given as an option or written
in the file being loaded is pointed at: ``mode: shedding`` under a game's default
turned-up trumps, ``mode: tricks`` under an inherited match word.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from cardrules.errors import VariantError
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    BiddingRule,
    BidStyle,
    FirstLeader,
    Mode,
    Pattern,
    ScheduleRule,
    SheddingRule,
    SourcePos,
    TrumpKind,
    Variant,
)

from .errors import error_at, source_line

__all__ = ["BID_VARIABLES", "schedule_length", "validate"]

#: Formula variables that only mean something when players bid.
BID_VARIABLES: Final = frozenset({"bid", "diff", "exact", "over", "under", "blind"})


def _where(v: Variant, key: str) -> SourcePos:
    pos = v.position(key) or v.position("game")
    return pos or SourcePos(v.path or "<string>", 1, 1)


def _fail(
    v: Variant,
    key: str,
    message: str,
    sources: Mapping[str, str],
    *,
    expected: str | None = None,
    hint: str | None = None,
) -> VariantError:
    pos = _where(v, key)
    text = sources.get(pos.path)
    if text is None and pos.path == v.path:
        text = v.source
    if text is not None:
        return error_at(
            message,
            path=pos.path,
            text=text,
            line=pos.line,
            column=pos.column,
            expected=expected,
            hint=hint,
        )
    return VariantError(
        message, path=pos.path, line=pos.line, column=pos.column, expected=expected, hint=hint
    )


def _cards(n: int) -> str:
    """``1 card``, ``2 cards``..."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _and_or(items: list[str], word: str) -> str:
    """``3``, ``3 or 4``, ``2, 4 or 13``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _ordinal(n: int) -> str:
    """``2nd``, ``5th``, ``11th``, ``21st``: as a ``no trumps:`` line writes it."""
    suffix = "th" if n % 100 in (11, 12, 13) else _SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"


_SUFFIXES: Final = {1: "st", 2: "nd", 3: "rd"}


def schedule_length(schedule: ScheduleRule, players: int, deck_size: int) -> int:
    """How many hands the schedule deals, computed without listing them."""
    p = schedule.pattern
    if p is Pattern.WHOLE_PACK:
        one = 1
    elif p is Pattern.SAME:
        one = schedule.count
    elif p is Pattern.LIST:
        one = len(schedule.sizes)
    else:
        s = schedule.start.start_for(players, deck_size)
        one = max(s, 0) if p in (Pattern.DOWN, Pattern.UP) else max(2 * s - 1, 0)
    return one * schedule.repeat


def _largest_hand(schedule: ScheduleRule, players: int, deck_size: int) -> int:
    p = schedule.pattern
    if p is Pattern.WHOLE_PACK:
        return -(-deck_size // players)
    if p is Pattern.LIST:
        return max(schedule.sizes, default=0)
    return schedule.start.start_for(players, deck_size)


def _smallest_hand(schedule: ScheduleRule, players: int, deck_size: int) -> int:
    p = schedule.pattern
    if p is Pattern.WHOLE_PACK:
        return deck_size // players
    if p is Pattern.LIST:
        return min(schedule.sizes, default=0)
    if p is Pattern.SAME:
        return schedule.start.start_for(players, deck_size)
    return 1


def validate(v: Variant, *, sources: Mapping[str, str] | None = None) -> None:
    """Check that ``v`` can be played; raise :class:`VariantError` at the culprit line.

    Args:
        v: a resolved variant.
        sources: file path -> text, to show the offending line of inherited
            settings (``v.source`` is used for ``v.path``).
    """
    src: dict[str, str] = dict(sources or {})
    if v.path and v.path not in src:
        src[v.path] = v.source

    def fail(key: str, message: str, **kw: str | None) -> VariantError:
        return _fail(v, key, message, src, **kw)

    def stated(key: str) -> bool:
        return v.position(key) is not None

    def culprit(*keys: str) -> str:
        """Of settings that clash, the one to point at: an option given at load
        time, else a line of the file being loaded (not of a game it extends),
        else the first one written anywhere, else the first of ``keys``."""
        for pick in (
            lambda pos: pos.path.startswith("<option"),
            lambda pos: pos.path == v.path,
            lambda pos: True,
        ):
            for key in keys:
                pos = v.position(key)
                if pos is not None and pick(pos):
                    return key
        return keys[0]

    deck = v.deck.size
    tricks = v.mode is Mode.TRICKS
    bidding = v.has_bidding

    # ---- players and the pack
    if v.players.min < 2:
        raise fail("players", "a game needs at least 2 players", expected="2 or more")
    if v.players.max < v.players.min:
        raise fail("players", "the most players is fewer than the fewest")
    if v.players.max > deck:
        raise fail(
            culprit("players", "deck"),
            f"{v.players.max} players cannot each get a card from a pack of {deck}",
            expected=f"at most {deck} players",
        )
    if v.dealer.seat >= v.players.min:
        raise fail(
            culprit("first dealer", "players"),
            f"seat {v.dealer.seat + 1} does not exist with {v.players.min} players",
            expected=f"a seat from 1 to {v.players.min}",
        )

    # ---- shedding games have no trumps: a cut ends the trick and the highest card
    # of the suit led picks it up, whatever else was played
    t = v.trumps
    if not tricks and t.kind is not TrumpKind.NONE:
        if not stated("trumps"):
            what = "the default trumps (turned up)"
        elif t.kind is TrumpKind.FIXED and t.suit is not None:
            what = f"{t.suit.word} as trumps"
        elif t.kind is TrumpKind.CYCLE:
            what = "a trump cycle"
        else:
            what = "turned-up trumps"
        raise fail(
            culprit("trumps", "mode"),
            f"shedding games are played without trumps, so {what} cannot be used",
            expected="`trumps: none`",
        )
    if not tricks and t.no_trump_every is not None:
        raise fail(
            culprit("no trumps", "mode"),
            "shedding games are played without trumps, so "
            f"`no trumps: every {_ordinal(t.no_trump_every)} hand` cannot be used",
            expected="`no trumps: never`",
        )

    # ---- the schedule
    sched = v.schedule
    sched_key = "hands" if sched.pattern in (Pattern.LIST, Pattern.WHOLE_PACK) else "hand size"
    if sched.pattern is Pattern.LIST and not sched.sizes:
        raise fail("hands", "the list of hand sizes is empty")
    turn_up_strict = v.trumps.kind is TrumpKind.TURN_UP and not v.trumps.none_when_pack_empty
    if sched.pattern is Pattern.WHOLE_PACK and turn_up_strict:
        raise fail(
            culprit("trumps", "hands"),
            "the whole pack is dealt, so no card is left to turn up for trumps",
            hint="write `trumps: turned up, no trumps when the pack runs out`, or another "
            "trump rule",
        )
    for n in v.players.counts():
        if sched.pattern not in (Pattern.LIST, Pattern.WHOLE_PACK):
            start = sched.start.start_for(n, deck)
            if start < 1:
                why = (
                    f"the hand size table says nothing for {n} players"
                    if not sched.start.largest
                    else f"the pack of {deck} cannot give {n} players a card each"
                )
                raise fail(
                    culprit("hand size", "players", "deck"),
                    why,
                    hint="add an entry, or end the list with `largest`",
                )
        length = schedule_length(sched, n, deck)
        if length > MAX_SCHEDULE_HANDS:
            raise fail(
                "hands",
                f"a game of {n} players would have {length:,} hands",
                expected=f"at most {MAX_SCHEDULE_HANDS:,} hands",
            )
        if length < 1:
            raise fail("hands", f"a game of {n} players would have no hands at all")
        big = _largest_hand(sched, n, deck)
        need = big * n
        if sched.pattern is Pattern.WHOLE_PACK and tricks and need > deck:
            # Everyone holds the same number of cards in a trick-taking game.
            fits = [str(m) for m in v.players.counts() if deck % m == 0]
            other = "set a `hand size:` and another `hands:` pattern"
            raise fail(
                culprit("hands", "players", "deck"),
                f"the whole pack of {deck} does not share out evenly among {n} players, "
                "and in a trick-taking game everyone gets the same number of cards",
                hint=f"it shares out evenly among {_and_or(fits, 'or')} players "
                f"(`players: {fits[0]}`); or {other}"
                if fits
                else other,
            )
        if sched.pattern is not Pattern.WHOLE_PACK and need > deck:
            raise fail(
                culprit(sched_key, "players", "deck"),
                f"{_cards(big)} each for {n} players needs {need} cards; the pack has {deck}",
                hint=f"deal fewer cards, or allow fewer than {n} players",
            )
        if turn_up_strict and need + 1 > deck:
            raise fail(
                culprit(sched_key, "trumps", "players", "deck"),
                f"{_cards(big)} each for {n} players uses the whole pack of {deck}, "
                "and no card is left to turn up for trumps",
                hint="deal fewer cards, or add `, no trumps when the pack runs out` to "
                "the trumps line",
            )
        if bidding and v.bidding.min_bid > _smallest_hand(sched, n, deck):
            raise fail(
                culprit("bids", sched_key),
                f"bids start at {v.bidding.min_bid}, but some hands have only "
                f"{_cards(_smallest_hand(sched, n, deck))}",
            )

    # ---- blind bids limited to some values
    only = v.bidding.blind_only
    if only:
        top = v.bidding.max_bid
        outside = [n for n in only if n < v.bidding.min_bid or (top is not None and n > top)]
        if outside:
            raise fail(
                culprit("blind bids", "bids"),
                f"{outside[0]} may be bid blind, but bids run from {v.bidding.min_bid} to "
                f"{'the hand size' if top is None else top}",
            )

    # ---- trumps
    if v.trumps.kind is TrumpKind.FIXED and v.trumps.suit is None:
        raise fail("trumps", "a fixed trump needs a suit")
    if v.trumps.kind is TrumpKind.CYCLE and not v.trumps.cycle:
        raise fail("trumps", "the trump cycle is empty")
    if v.trumps.no_trump_every is not None and v.trumps.no_trump_every < 2:
        raise fail("no trumps", "every hand would be played without trumps")

    # ---- bidding
    b = v.bidding
    if b.style is BidStyle.SIMULTANEOUS and b.hook and bidding:
        raise fail(
            culprit("hook", "bidding"),
            "the hook needs a dealer who bids last, but everyone bids at once",
            hint="add `hook: no`, or bid in turn",
        )
    if b.style is BidStyle.SIMULTANEOUS and b.amend and bidding:
        raise fail(
            culprit("bid changes", "bidding"),
            "bids cannot be changed until the next bid when everyone bids at once",
        )
    if not bidding:
        why = "this game has no bidding" if tricks else "shedding games have no bidding"
        default = BiddingRule()
        for key, on in (
            ("hook", b.hook and stated("hook")),
            ("blind bids", b.blind),
            ("forehead hands", bool(b.forehead_sizes)),
            ("bid changes", b.amend),
            ("bids", (b.min_bid, b.max_bid) != (default.min_bid, default.max_bid)),
        ):
            if on:
                raise fail(
                    culprit(key, "bidding", "mode"),
                    f"`{key}` needs bidding, but {why}",
                    hint=_OFF.get(key),
                )
        if (
            not tricks
            and b.style is not BidStyle.NONE
            and (stated("bidding") or b.style is not default.style)
        ):
            raise fail("bidding", "shedding games have no bidding", expected="`bidding: none`")
    if b.max_bid is not None and b.max_bid < b.min_bid:
        raise fail("bids", "the highest bid is less than the lowest")

    # ---- play
    p = v.play
    if p.first_leader is FirstLeader.HOLDER and p.lead_card is None:
        raise fail("first lead", "the first lead names no card")
    if p.lead_card is not None and v.deck.removed >> p.lead_card & 1:
        raise fail(
            culprit("first lead", "deck"),
            f"{p.lead_card} leads first, but it is taken out of the pack",
        )
    if (p.must_trump or p.must_beat) and not p.must_follow:
        raise fail("follow", "`must trump` and `must beat` go with `must follow suit`")

    # ---- scoring, mode by mode
    formula = v.scoring.formula
    if tricks:
        if formula is None:
            raise fail(
                "score",
                "a trick-taking game needs a `score:` line",
                expected="a line such as `score: if exact then 10 + bid else 0`",
            )
        used = set(formula.uses()) & BID_VARIABLES
        if used and not bidding:
            raise fail(
                culprit("score", "bidding"),
                f"the score uses {', '.join(sorted(used))}, but this game has no bidding",
                hint="score with tricks, cards, hand and players only, or add bidding",
            )
        # Only a shedding game has a loser, to take a letter and deal the next game.
        if v.match.word:
            raise fail(
                culprit("match word", "mode"),
                "`match word` is for shedding games: a trick-taking game has no loser "
                "to take a letter, so a match of it would never end",
                hint="write `match word: none`",
            )
        if v.match.loser_deals:
            raise fail(
                culprit("deal passes", "mode"),
                "`deal passes: to the loser` is for shedding games: a trick-taking game "
                "has no loser to deal the next game",
                hint="write `deal passes: to the next player`",
            )
        plain = SheddingRule()
        for key, on in (
            ("dead tricks", stated("dead tricks") or v.shedding.dead_tricks != plain.dead_tricks),
            ("all out together", stated("all out together") or v.shedding.all_out != plain.all_out),
        ):
            if on:
                raise fail(
                    culprit(key, "mode"), f"`{key}` is for shedding games; add `mode: shedding`"
                )
    else:
        if formula is not None:
            raise fail(
                "score",
                "shedding games are not scored with a formula: the last player with cards loses",
                hint="use `match word:` to play a match of several games",
            )

    w = v.match.word
    if w and not (w.isascii() and w.isalpha()):
        raise fail("match word", "the match word must be plain letters")


#: How to switch off each bidding setting, for a game without bidding.
_OFF: Final = {
    "hook": "add `hook: no`",
    "blind bids": "add `blind bids: no`",
    "forehead hands": "add `forehead hands: none`",
    "bid changes": "add `bid changes: no`",
    "bids": "add `bids: 0 to the hand size`",
}


def show_position(v: Variant, key: str) -> str | None:
    """The source line of a setting, for messages."""
    pos = v.position(key)
    if pos is None:
        return None
    return source_line(v.source, pos.line) if pos.path == v.path else None
