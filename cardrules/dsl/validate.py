"""Semantic checks: a variant that reads well but cannot be played, or that
says something that changes nothing.

Each check raises a :class:`~cardrules.errors.VariantError` pointing at the line
of the setting that caused the problem (for a setting inherited through
``extends``, the line in the parent file; for a setting left at its default,
the ``game:`` line). When settings clash, the one given as an option or written
in the file being loaded is pointed at: ``mode: shedding`` under a game's default
turned-up trumps, ``mode: tricks`` under an inherited match word.

No silent no-ops: :data:`EFFECTS` says, setting by setting, where each has an
effect (derived from the settings' declarations, :mod:`cardrules.dsl.settings`,
whose family modules hold the checks), and its checks find the lines (and the
parts of lines) that change nothing in the game they are in (``winner:`` in a
shedding game, ``leading trumps: once broken`` without trumps). Such a line is
an error when the file being checked says it, and a warning
(:func:`check_warnings`, printed by ``cardrules check``) when it is inherited
through ``extends`` or made idle by an option given at load time, so that a
house rule changing the mode of the game it extends stays usable.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Final

from attrs import frozen

from cardrules.cards import Rank
from cardrules.errors import VariantError
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    BidStyle,
    FirstLeader,
    Mode,
    PassTo,
    Pattern,
    ScheduleRule,
    SourcePos,
    TrumpKind,
    TrumpNamer,
    Variant,
    jokers_without_trumps,
)

from . import limits
from .errors import error_at, source_line
from .settings.effect_checks import POINT_VARIABLES, Effect, NoOp, is_option, schedule_length
from .settings.effect_checks import Context as _Context
from .settings.effect_checks import and_or as _and_or
from .settings.effect_checks import cards_text as _cards
from .settings.effect_checks import formulas_of as _formulas
from .settings.effect_checks import players_text as _players_text
from .settings.effect_checks import variables_used as _uses
from .settings.registry import ALWAYS_EFFECTIVE, EFFECTS
from .settings.rendering import ordinal as _ordinal

__all__ = [
    "ALWAYS_EFFECTIVE",
    "BID_VARIABLES",
    "EFFECTS",
    "MAKER_VARIABLES",
    "NOT_SETTINGS",
    "POINT_VARIABLES",
    "Effect",
    "VariantWarning",
    "check_warnings",
    "schedule_length",
    "validate",
]

#: Formula variables that only mean something when players bid.
BID_VARIABLES: Final = frozenset(
    {"bid", "diff", "exact", "over", "under", "blind", "team_bid", "partner_bid"}
)
#: The variables of a seat's own bid (not its side's): a partner who does not
#: bid (``team bids: one per side``) has none.
_SEAT_BID_VARIABLES: Final = frozenset(
    {"bid", "diff", "exact", "over", "under", "blind", "partner_bid"}
)
#: The formula variables that read who made trumps (a player's choice of trumps).
MAKER_VARIABLES: Final = frozenset({"maker", "maker_tricks", "alone", "defended_alone"})


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


def validate(
    v: Variant, *, sources: Mapping[str, str] | None = None, warn_only: Collection[str] = ()
) -> None:
    """Check that ``v`` can be played; raise :class:`VariantError` at the culprit line.

    A line that changes nothing in this game (see :data:`EFFECTS`) is an error
    when the file being checked (or an option given at load time) says it; when
    it is inherited through ``extends``, or idled by an option, it is only a
    warning, which :func:`check_warnings` returns. So is a part of a line that
    changes nothing (a term of a card-set list, a row of a hand size table).

    Args:
        v: a resolved variant.
        sources: file path -> text, to show the offending line of inherited
            settings (``v.source`` is used for ``v.path``).
        warn_only: settings whose lines that change nothing are only warnings,
            wherever they are written: for text that states every setting of a
            variant that had those warnings, such as a saved game's rules
            (``format`` writes inherited lines as the variant's own).

    Raises:
        VariantError: for the first problem found, at its line.
    """
    _check(v, sources, frozenset(warn_only))


def check_warnings(
    v: Variant, *, sources: Mapping[str, str] | None = None
) -> tuple[VariantWarning, ...]:
    """The warnings of a valid variant: settings that change nothing in it, but
    that its own file does not say (inherited from the game it extends, or made
    idle by an option given at load time). ``cardrules check`` prints them.

    Args:
        v: a resolved variant, as :func:`cardrules.dsl.load` returns it.
        sources: as for :func:`validate`.

    Returns:
        The warnings, in the canonical order of the settings (empty if none).

    Raises:
        VariantError: if ``v`` is not valid at all (as :func:`validate`).

    Example:
        >>> from cardrules.dsl import load_text
        >>> v = load_text("game: house\nextends: oh-hell-trumps-broken\ntrumps: none\n")
        >>> [w.setting for w in check_warnings(v)]
        ['leading trumps']
    """
    return tuple(_check(v, sources, frozenset()))


def _check_jokers(
    v: Variant,
    fail: Callable[..., VariantError],
    culprit: Callable[..., str],
) -> None:
    """A pack with jokers: every hand has trumps, and the trump order ranks each
    joker (they have no suit or rank of their own: a joker is a trump)."""
    jokers = [c for c in v.deck.cards if c.is_joker]
    if not jokers:
        return
    why = jokers_without_trumps(v)
    if why:
        raise fail(
            culprit("deck", "trumps", "mode"),
            f"a joker has no suit or rank and plays as a trump, but {why}",
            hint="play jokers in a game whose every hand has a trump suit "
            "(such as `trumps: spades`), and rank them in `trump order:`",
        )
    named = {e.card for e in v.trumps.order if e.card is not None}
    missing = [str(c) for c in jokers if c not in named]
    if missing:
        raise fail(
            culprit("trump order", "deck"),
            f"the pack has {' and '.join(missing)}, but the trump order does not rank "
            + ("it" if len(missing) == 1 else "them"),
            expected="`trump order:` naming each joker, such as `trump order: BJ, LJ`",
        )


def _check(
    v: Variant, sources: Mapping[str, str] | None, warn_only: frozenset[str]
) -> list[VariantWarning]:
    """Every check of :func:`validate`; returns the warnings."""
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
        deck = v.deck.size_for(n)  # the pack of this number of players
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
    namer = v.trumps.namer
    if namer is not TrumpNamer.NOBODY and not tricks:
        raise fail(
            culprit("trumps", "mode"),
            "shedding games are played without trumps, so nobody can name them",
        )
    if namer is TrumpNamer.HIGHEST_BIDDER and not bidding:
        raise fail(
            culprit("trumps", "bidding"),
            "trumps named by the highest bidder need bidding",
            hint="add `bidding: in turn`, or another trump rule",
        )
    if namer is TrumpNamer.HIGHEST_BIDDER and v.trumps.kind is not TrumpKind.NONE:
        raise fail("trumps", "trumps named by the highest bidder come from no card or suit")
    if namer is TrumpNamer.ORDER_UP and v.trumps.kind is not TrumpKind.TURN_UP:
        raise fail("trumps", "order-up needs a card turned up (trumps kind TURN_UP)")
    if namer is TrumpNamer.MOST_TRICKS and (
        v.trumps.kind in (TrumpKind.NONE, TrumpKind.DEALERS_CARD)
        or (v.trumps.kind is TrumpKind.FIXED and v.trumps.suit is None)
    ):
        raise fail(
            "trumps",
            "`then named by the winner of most tricks` follows a first hand's trumps: "
            "turned up, a suit or a cycle",
        )
    formula_uses = _uses(v)
    if formula_uses & MAKER_VARIABLES and namer is TrumpNamer.NOBODY:
        raise fail(
            culprit("score", "trumps"),
            "the score uses maker, maker_tricks or alone, but nobody makes trumps in this game",
            hint="let a player choose trumps (such as `trumps: order up`), or take them "
            "out of the score",
        )

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
    if b.max_bid is not None and b.max_bid < b.min_bid:
        raise fail("bids", "the highest bid is less than the lowest")
    seat_bid_vars = (
        v.scoring.formula.uses() & _SEAT_BID_VARIABLES if v.scoring.formula is not None else ()
    )
    if b.one_per_team and v.teams and bidding and seat_bid_vars:
        raise fail(
            culprit("score", "team bids"),
            f"the score reads {_and_or(sorted(seat_bid_vars), 'and')}, but with "
            "`team bids: one per side` only one partner of each side bids",
            hint="score the side's bid in `team score:` (where `bid` is the side's bid), "
            "or read `team_bid` in `score:`",
        )

    # ---- passing
    ps = v.passing
    if ps.count or ps.cycle:
        if not 1 <= ps.count <= limits.MAX_PASS_CARDS or not ps.cycle:
            raise fail(
                "pass",
                f"a pass is 1 to {limits.MAX_PASS_CARDS} cards with a cycle of directions",
                expected="a line such as `pass: 3 cards left, right, across, none`",
            )
        if all(to is PassTo.NONE for to in ps.cycle):
            raise fail("pass", "every hand of the pass cycle has no pass")
        if PassTo.ACROSS in ps.cycle:
            odd = [n for n in v.players.counts() if n % 2]
            if odd:
                raise fail(
                    culprit("pass", "players"),
                    f"nobody sits across the table from a player at a table of {odd[0]}: "
                    "`across` needs an even number of players",
                    hint="allow only even numbers of players, or pass left or right",
                )
        for n in v.players.counts():
            small = _smallest_hand(sched, n, v.deck.size_for(n))
            if ps.count > small:
                raise fail(
                    culprit("pass", sched_key, "players"),
                    f"each player passes {_cards(ps.count)}, but some hands for {n} players "
                    f"have only {_cards(small)}",
                )
        if tricks and v.winning.knockout_below:
            raise fail(
                culprit("pass", "knocked out"),
                "cards cannot be passed in a game that knocks players out: a knocked-out "
                "player holds no cards to pass or receive",
            )
        if tricks and v.trumps.namer is not TrumpNamer.NOBODY:
            raise fail(
                culprit("pass", "trumps"),
                "cards cannot be passed in a game where a player chooses trumps: the two "
                "phases cannot yet follow one another",
                hint="pass cards, or let a player choose trumps, not both",
            )
        if bidding and (b.blind or b.forehead_sizes):
            raise fail(
                culprit("pass", "blind bids" if b.blind else "forehead hands"),
                "players choose the cards they pass from their hands, so they cannot bid "
                + ("blind" if b.blind else "without seeing their cards"),
            )

    # ---- play
    p = v.play
    if p.first_leader is FirstLeader.HOLDER and p.lead_card is None:
        raise fail("first lead", "the first lead names no card")
    if p.lead_card is not None and p.lead_card not in v.deck.cards:
        raise fail(
            culprit("first lead", "deck"),
            f"{p.lead_card} leads first, but it is taken out of the pack",
        )
    for n in v.players.counts():
        pack_n = v.deck.cards_for(n)
        if p.lead_card is not None and not any(
            k in pack_n for k in (p.lead_card, *p.lead_card_else)
        ):
            named = _and_or([str(k) for k in (p.lead_card, *p.lead_card_else)], "and")
            raise fail(
                culprit("first lead", "deck"),
                f"{named} {'is' if not p.lead_card_else else 'are all'} taken out of the "
                f"pack for {n} players, so nobody leads first",
                hint=f"name a card that stays in, such as `holder of {p.lead_card} otherwise "
                f"{next(iter(pack_n))} leads it`",
            )
    for entry in v.trumps.order:
        if entry.card is not None and entry.card not in v.deck.cards:
            raise fail(
                culprit("trump order", "deck"),
                f"the trump order names {entry.card}, but it is not in the pack",
            )
        if entry.card is None and entry.rank < v.deck.lowest:
            raise fail(
                culprit("trump order", "deck"),
                f"the trump order names {entry}, but the pack has no "
                f"{Rank(entry.rank).label}s ({v.deck.size} cards, "
                f"{Rank(v.deck.lowest).label} to ace)",
            )
    _check_jokers(v, fail, culprit)
    if (p.must_trump or p.must_beat) and not p.must_follow:
        raise fail("follow", "`must trump` and `must beat` go with `must follow suit`")

    # ---- teams
    if v.teams:
        seats = sorted(s for team in v.teams for s in team)
        if seats != list(range(len(seats))) or any(len(team) < 2 for team in v.teams):
            raise fail("teams", "every seat must be in exactly one team of 2 or more")
        if len(v.teams) < 2:
            raise fail(
                "teams",
                "one team of every player is no partnership: nobody would play against it",
                expected="two teams or more, such as `teams: 1 and 3, 2 and 4`",
            )
        if (v.players.min, v.players.max) != (len(seats), len(seats)):
            raise fail(
                culprit("teams", "players"),
                f"the teams hold {len(seats)} seats, but the game is for {_players_text(v)}",
                expected=f"`players: {len(seats)}`",
            )

    # ---- scoring, mode by mode
    formula = v.scoring.formula
    if tricks:
        if formula is None and v.scoring.team_formula is None:
            raise fail(
                "score",
                "a trick-taking game needs a `score:` line",
                expected="a line such as `score: if exact then 10 + bid else 0`",
            )
        names = {c.name for c in v.scoring.counters}
        for key, f in _formulas(v):
            missing = sorted(set(f.counters) - names)
            if missing:
                raise fail(
                    key,
                    f"the formula {f.text!r} reads the counter {missing[0]!r}, "
                    "but this game keeps no such counter",
                    hint=f"add a line such as `counter {missing[0]}: {missing[0]} + 1`",
                )
        uses = _uses(v)
        counted = uses & POINT_VARIABLES
        if counted and not v.scoring.card_points:
            raise fail(
                culprit("score", "team score", "counter", "card points"),
                f"the score uses {', '.join(sorted(counted))}, but no card carries points",
                hint="add a line such as `card points: hearts 1, Q♠ 13`",
            )
        used = uses & BID_VARIABLES
        if used and not bidding:
            raise fail(
                culprit("score", "team score", "counter", "bidding"),
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
    if v.winning.last_one_in and not v.winning.knockout_below:
        raise fail(
            culprit("winner", "knocked out"),
            "`winner: last one in` needs players to be knocked out, but nobody ever is",
            hint="add a line such as `knocked out: no tricks`",
        )
    w = v.match.word
    if w and not (w.isascii() and w.isalpha()):
        raise fail("match word", "the match word must be plain letters")

    # ---- settings that change nothing (the game is otherwise sound by now)
    warnings: list[VariantWarning] = []
    ctx = _Context(v)
    for effect in EFFECTS.values():
        for found in effect.check(ctx):
            pos, is_error = _classify(v, found)
            if is_error and found.setting not in warn_only:
                raise fail(found.setting, found.message, hint=found.hint, expected=found.expected)
            warnings.append(
                VariantWarning(
                    found.setting, found.warning or found.message, pos.path, pos.line, pos.column
                )
            )
    return warnings


def show_position(v: Variant, key: str) -> str | None:
    """The source line of a setting, for messages."""
    pos = v.position(key)
    if pos is None:
        return None
    return source_line(v.source, pos.line) if pos.path == v.path else None


# --------------------------------------------------------------------------- no-ops


@frozen
class VariantWarning:
    """Something that changes nothing in the game but is not an error: a line
    that the file checked does not say itself (it is inherited through
    ``extends``, or an option given at load time idles it), or a part of a line
    (a term of a card-set list, a row of a hand size table).

    Attributes:
        setting: the setting's name, such as ``winner``.
        message: what changes nothing, and why.
        path: the file that says it.
        line: its line (1-based).
        column: its column (1-based).
    """

    setting: str
    message: str
    path: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _classify(v: Variant, found: NoOp) -> tuple[SourcePos, bool]:
    """Where to report a no-op, and whether it is an error (else a warning)."""
    pos = v.position(found.setting)
    if pos is None:
        # A value no line wrote: a config built in Python, checked as it is.
        return _where(v, found.setting), not found.part
    if found.part:
        return pos, False
    if is_option(pos):
        return pos, True
    if pos.path != v.path:
        return pos, False  # inherited through extends
    for cause in found.causes:
        at = v.position(cause)
        if at is not None and is_option(at):
            return pos, False  # the file's line is fine; the option idles it
    return pos, True


#: Fields of :class:`~cardrules.rules.Variant` that no setting writes: where the
#: settings were written, the text, the file and its worked examples.
NOT_SETTINGS: Final = ("positions", "source", "path", "examples")
