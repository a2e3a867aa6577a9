"""Semantic checks: a variant that reads well but cannot be played, or that
says something that changes nothing.

Each check raises a :class:`~cardrules.errors.VariantError` pointing at the line
of the setting that caused the problem (for a setting inherited through
``extends``, the line in the parent file; for a setting left at its default,
the ``game:`` line). When settings clash, the one given as an option or written
in the file being loaded is pointed at: ``mode: shedding`` under a game's default
turned-up trumps, ``mode: tricks`` under an inherited match word.

No silent no-ops: :data:`EFFECTS` says, setting by setting, where each has an
effect, and its checks find the lines (and the parts of lines) that change
nothing in the game they are in (``winner:`` in a shedding game, ``leading
trumps: once broken`` without trumps). Such a line is an error when the file
being checked says it, and a warning (:func:`check_warnings`, printed by
``cardrules check``) when it is inherited through ``extends`` or made idle by an
option given at load time, so that a house rule changing the mode of the game
it extends stays usable.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Final

import attrs
from attrs import field, frozen

from cardrules.card_rules import (
    ANY_CARD,
    FOLLOW_SUIT,
    BreakTrigger,
    CardChoice,
    CardTerm,
    TermKind,
    follow_choice,
    lead_choice,
)
from cardrules.cards import Rank, Suit
from cardrules.errors import VariantError
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    BiddingRule,
    BidStyle,
    DeadTricks,
    Direction,
    FirstLeader,
    HandSizeRule,
    LeaderOut,
    Mode,
    NamerTie,
    PassTo,
    Pattern,
    ScheduleRule,
    ScoringRule,
    SheddingRule,
    ShedLoser,
    SizeEntry,
    SourcePos,
    TrumpKind,
    TrumpNamer,
    Variant,
    WinRule,
    jokers_without_trumps,
)
from cardrules.scoring import Formula

from . import limits
from .errors import error_at, source_line

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
#: The formula variables that read the card points taken (``card points:``).
POINT_VARIABLES: Final = frozenset({"points", "all_points", "most_points", "team_points"})


def _formulas(v: Variant) -> list[tuple[str, Formula]]:
    """Every formula of a game with the setting that wrote it: ``score``,
    ``team score`` and each ``counter``."""
    sc = v.scoring
    out: list[tuple[str, Formula]] = []
    if sc.formula is not None:
        out.append(("score", sc.formula))
    if sc.team_formula is not None:
        out.append(("team score", sc.team_formula))
    out += [("counter", c.formula) for c in sc.counters]
    return out


def _uses(v: Variant) -> set[str]:
    """The variables every formula of the game reads."""
    return {name for _, f in _formulas(v) for name in f.uses()}


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


class _Checking:
    """A variant being checked, with what the checks of every family share:
    the text of its files, the way to point at a line, and the facts most
    checks read.

    Attributes:
        v: the variant.
        sources: file path -> text, ``v.source`` among them.
        tricks: whether it is a trick-taking game (else a shedding game).
        bidding: whether its players bid.
        schedule_key: the setting that sizes its hands: ``hands`` for a list
            of sizes or the whole pack, else ``hand size``.
    """

    __slots__ = ("bidding", "schedule_key", "sources", "tricks", "v")

    def __init__(self, v: Variant, sources: Mapping[str, str] | None) -> None:
        src: dict[str, str] = dict(sources or {})
        if v.path and v.path not in src:
            src[v.path] = v.source
        self.v = v
        self.sources: Mapping[str, str] = src
        self.tricks = v.mode is Mode.TRICKS
        self.bidding = v.has_bidding
        whole_or_list = v.schedule.pattern in (Pattern.LIST, Pattern.WHOLE_PACK)
        self.schedule_key = "hands" if whole_or_list else "hand size"

    def fail(self, key: str, message: str, **kw: str | None) -> VariantError:
        """The error to raise at the line of setting ``key``.

        Args:
            key: the setting at fault.
            message: what is wrong.
            **kw: ``expected`` and ``hint``, as :class:`VariantError` takes them.

        Returns:
            The error, pointing at the line (and showing it when its text is known).
        """
        return _fail(self.v, key, message, self.sources, **kw)

    def stated(self, key: str) -> bool:
        """Whether a line (or an option) says setting ``key``."""
        return self.v.position(key) is not None

    def culprit(self, *keys: str) -> str:
        """Of settings that clash, the one to point at: an option given at load
        time, else a line of the file being loaded (not of a game it extends),
        else the first one written anywhere, else the first of ``keys``."""
        v = self.v
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


# ---- the checks that a game can be played, family by family


def _check_players(c: _Checking) -> None:
    """Players and the pack: 2 players or more, a card for each, and a first
    dealer's seat that exists."""
    v, fail = c.v, c.fail
    deck = v.deck.size
    if v.players.min < 2:
        raise fail("players", "a game needs at least 2 players", expected="2 or more")
    if v.players.max < v.players.min:
        raise fail("players", "the most players is fewer than the fewest")
    if v.players.max > deck:
        raise fail(
            c.culprit("players", "deck"),
            f"{v.players.max} players cannot each get a card from a pack of {deck}",
            expected=f"at most {deck} players",
        )
    if v.dealer.seat >= v.players.min:
        raise fail(
            c.culprit("first dealer", "players"),
            f"seat {v.dealer.seat + 1} does not exist with {v.players.min} players",
            expected=f"a seat from 1 to {v.players.min}",
        )


def _trumps_text(c: _Checking) -> str:
    """The trumps of a game, in words: ``hearts as trumps``, ``a trump cycle``..."""
    t = c.v.trumps
    if not c.stated("trumps"):
        return "the default trumps (turned up)"
    if t.kind is TrumpKind.FIXED and t.suit is not None:
        return f"{t.suit.word} as trumps"
    if t.kind is TrumpKind.CYCLE:
        return "a trump cycle"
    return "turned-up trumps"


def _check_shedding_trumps(c: _Checking) -> None:
    """Shedding games have no trumps: a cut ends the trick and the highest card
    of the suit led picks it up, whatever else was played."""
    t = c.v.trumps
    if c.tricks:
        return
    if t.kind is not TrumpKind.NONE:
        raise c.fail(
            c.culprit("trumps", "mode"),
            f"shedding games are played without trumps, so {_trumps_text(c)} cannot be used",
            expected="`trumps: none`",
        )
    if t.no_trump_every is not None:
        raise c.fail(
            c.culprit("no trumps", "mode"),
            "shedding games are played without trumps, so "
            f"`no trumps: every {_ordinal(t.no_trump_every)} hand` cannot be used",
            expected="`no trumps: never`",
        )


def _turns_up_always(v: Variant) -> bool:
    """Whether every hand turns a card up for trumps (so one must be left)."""
    return v.trumps.kind is TrumpKind.TURN_UP and not v.trumps.none_when_pack_empty


def _check_schedule(c: _Checking) -> None:
    """The schedule: hands to deal, and cards enough for them with every number
    of players."""
    v = c.v
    sched = v.schedule
    if sched.pattern is Pattern.LIST and not sched.sizes:
        raise c.fail("hands", "the list of hand sizes is empty")
    if sched.pattern is Pattern.WHOLE_PACK and _turns_up_always(v):
        raise c.fail(
            c.culprit("trumps", "hands"),
            "the whole pack is dealt, so no card is left to turn up for trumps",
            hint="write `trumps: turned up, no trumps when the pack runs out`, or another "
            "trump rule",
        )
    for n in v.players.counts():
        deck = v.deck.size_for(n)  # the pack of this number of players
        _check_first_hand(c, n, deck)
        _check_schedule_length(c, n, deck)
        _check_hands_fit(c, n, deck)


def _check_first_hand(c: _Checking, n: int, deck: int) -> None:
    """A hand size table that deals ``n`` players a card each from a pack of ``deck``."""
    start = c.v.schedule.start
    if c.v.schedule.pattern in (Pattern.LIST, Pattern.WHOLE_PACK):
        return
    if start.start_for(n, deck) < 1:
        why = (
            f"the hand size table says nothing for {n} players"
            if not start.largest
            else f"the pack of {deck} cannot give {n} players a card each"
        )
        raise c.fail(
            c.culprit("hand size", "players", "deck"),
            why,
            hint="add an entry, or end the list with `largest`",
        )


def _check_schedule_length(c: _Checking, n: int, deck: int) -> None:
    """A game of ``n`` players has hands, but not too many."""
    length = schedule_length(c.v.schedule, n, deck)
    if length > MAX_SCHEDULE_HANDS:
        raise c.fail(
            "hands",
            f"a game of {n} players would have {length:,} hands",
            expected=f"at most {MAX_SCHEDULE_HANDS:,} hands",
        )
    if length < 1:
        raise c.fail("hands", f"a game of {n} players would have no hands at all")


def _check_hands_fit(c: _Checking, n: int, deck: int) -> None:
    """Every hand of ``n`` players fits in the pack of ``deck`` (with a card to
    turn up for trumps), and has tricks enough for the lowest bid."""
    v, sched = c.v, c.v.schedule
    big = _largest_hand(sched, n, deck)
    need = big * n
    if sched.pattern is Pattern.WHOLE_PACK and c.tricks and need > deck:
        # Everyone holds the same number of cards in a trick-taking game.
        fits = [str(m) for m in v.players.counts() if deck % m == 0]
        other = "set a `hand size:` and another `hands:` pattern"
        raise c.fail(
            c.culprit("hands", "players", "deck"),
            f"the whole pack of {deck} does not share out evenly among {n} players, "
            "and in a trick-taking game everyone gets the same number of cards",
            hint=f"it shares out evenly among {_and_or(fits, 'or')} players "
            f"(`players: {fits[0]}`); or {other}"
            if fits
            else other,
        )
    if sched.pattern is not Pattern.WHOLE_PACK and need > deck:
        raise c.fail(
            c.culprit(c.schedule_key, "players", "deck"),
            f"{_cards(big)} each for {n} players needs {need} cards; the pack has {deck}",
            hint=f"deal fewer cards, or allow fewer than {n} players",
        )
    if _turns_up_always(v) and need + 1 > deck:
        raise c.fail(
            c.culprit(c.schedule_key, "trumps", "players", "deck"),
            f"{_cards(big)} each for {n} players uses the whole pack of {deck}, "
            "and no card is left to turn up for trumps",
            hint="deal fewer cards, or add `, no trumps when the pack runs out` to the trumps line",
        )
    if c.bidding and v.bidding.min_bid > _smallest_hand(sched, n, deck):
        raise c.fail(
            c.culprit("bids", c.schedule_key),
            f"bids start at {v.bidding.min_bid}, but some hands have only "
            f"{_cards(_smallest_hand(sched, n, deck))}",
        )


def _check_blind_bids(c: _Checking) -> None:
    """Blind bids limited to some values: values a bid may take."""
    b = c.v.bidding
    if not b.blind_only:
        return
    top = b.max_bid
    outside = [n for n in b.blind_only if n < b.min_bid or (top is not None and n > top)]
    if outside:
        raise c.fail(
            c.culprit("blind bids", "bids"),
            f"{outside[0]} may be bid blind, but bids run from {b.min_bid} to "
            f"{'the hand size' if top is None else top}",
        )


def _check_trumps(c: _Checking) -> None:
    """Trumps: a fixed trump's suit, a cycle, and a hand without trumps now and then."""
    t = c.v.trumps
    if t.kind is TrumpKind.FIXED and t.suit is None:
        raise c.fail("trumps", "a fixed trump needs a suit")
    if t.kind is TrumpKind.CYCLE and not t.cycle:
        raise c.fail("trumps", "the trump cycle is empty")
    if t.no_trump_every is not None and t.no_trump_every < 2:
        raise c.fail("no trumps", "every hand would be played without trumps")


def _check_trump_namer(c: _Checking) -> None:
    """A player who names trumps: in a trick-taking game, with what the way of
    naming them needs (bidding, a card turned up, a first hand's trumps)."""
    t = c.v.trumps
    namer = t.namer
    if namer is not TrumpNamer.NOBODY and not c.tricks:
        raise c.fail(
            c.culprit("trumps", "mode"),
            "shedding games are played without trumps, so nobody can name them",
        )
    if namer is TrumpNamer.HIGHEST_BIDDER and not c.bidding:
        raise c.fail(
            c.culprit("trumps", "bidding"),
            "trumps named by the highest bidder need bidding",
            hint="add `bidding: in turn`, or another trump rule",
        )
    if namer is TrumpNamer.HIGHEST_BIDDER and t.kind is not TrumpKind.NONE:
        raise c.fail("trumps", "trumps named by the highest bidder come from no card or suit")
    if namer is TrumpNamer.ORDER_UP and t.kind is not TrumpKind.TURN_UP:
        raise c.fail("trumps", "order-up needs a card turned up (trumps kind TURN_UP)")
    if namer is TrumpNamer.MOST_TRICKS and (
        t.kind in (TrumpKind.NONE, TrumpKind.DEALERS_CARD)
        or (t.kind is TrumpKind.FIXED and t.suit is None)
    ):
        raise c.fail(
            "trumps",
            "`then named by the winner of most tricks` follows a first hand's trumps: "
            "turned up, a suit or a cycle",
        )
    if _uses(c.v) & MAKER_VARIABLES and namer is TrumpNamer.NOBODY:
        raise c.fail(
            c.culprit("score", "trumps"),
            "the score uses maker, maker_tricks or alone, but nobody makes trumps in this game",
            hint="let a player choose trumps (such as `trumps: order up`), or take them "
            "out of the score",
        )


def _check_bidding(c: _Checking) -> None:
    """Bidding: the hook and changed bids need bids in turn; the range of bids;
    a side's one bid is not read as a seat's own."""
    v = c.v
    b = v.bidding
    if b.style is BidStyle.SIMULTANEOUS and b.hook and c.bidding:
        raise c.fail(
            c.culprit("hook", "bidding"),
            "the hook needs a dealer who bids last, but everyone bids at once",
            hint="add `hook: no`, or bid in turn",
        )
    if b.style is BidStyle.SIMULTANEOUS and b.amend and c.bidding:
        raise c.fail(
            c.culprit("bid changes", "bidding"),
            "bids cannot be changed until the next bid when everyone bids at once",
        )
    if b.max_bid is not None and b.max_bid < b.min_bid:
        raise c.fail("bids", "the highest bid is less than the lowest")
    seat_bid_vars = (
        v.scoring.formula.uses() & _SEAT_BID_VARIABLES if v.scoring.formula is not None else ()
    )
    if b.one_per_team and v.teams and c.bidding and seat_bid_vars:
        raise c.fail(
            c.culprit("score", "team bids"),
            f"the score reads {_and_or(sorted(seat_bid_vars), 'and')}, but with "
            "`team bids: one per side` only one partner of each side bids",
            hint="score the side's bid in `team score:` (where `bid` is the side's bid), "
            "or read `team_bid` in `score:`",
        )


def _check_passing(c: _Checking) -> None:
    """Passing cards: a pass that can be made, in a game whose other rules let
    players pass."""
    ps = c.v.passing
    if ps.count or ps.cycle:
        _check_pass(c)
        _check_pass_clashes(c)


def _check_pass(c: _Checking) -> None:
    """A pass of 1 card or more, to a player who sits there, from hands that
    hold that many cards."""
    v = c.v
    ps = v.passing
    if not 1 <= ps.count <= limits.MAX_PASS_CARDS or not ps.cycle:
        raise c.fail(
            "pass",
            f"a pass is 1 to {limits.MAX_PASS_CARDS} cards with a cycle of directions",
            expected="a line such as `pass: 3 cards left, right, across, none`",
        )
    if all(to is PassTo.NONE for to in ps.cycle):
        raise c.fail("pass", "every hand of the pass cycle has no pass")
    odd = [n for n in v.players.counts() if n % 2]
    if PassTo.ACROSS in ps.cycle and odd:
        raise c.fail(
            c.culprit("pass", "players"),
            f"nobody sits across the table from a player at a table of {odd[0]}: "
            "`across` needs an even number of players",
            hint="allow only even numbers of players, or pass left or right",
        )
    for n in v.players.counts():
        small = _smallest_hand(v.schedule, n, v.deck.size_for(n))
        if ps.count > small:
            raise c.fail(
                c.culprit("pass", c.schedule_key, "players"),
                f"each player passes {_cards(ps.count)}, but some hands for {n} players "
                f"have only {_cards(small)}",
            )


def _check_pass_clashes(c: _Checking) -> None:
    """The rules a pass cannot go with: knocking players out, a player who
    chooses trumps, bids made without seeing one's cards."""
    v = c.v
    b = v.bidding
    if c.tricks and v.winning.knockout_below:
        raise c.fail(
            c.culprit("pass", "knocked out"),
            "cards cannot be passed in a game that knocks players out: a knocked-out "
            "player holds no cards to pass or receive",
        )
    if c.tricks and v.trumps.namer is not TrumpNamer.NOBODY:
        raise c.fail(
            c.culprit("pass", "trumps"),
            "cards cannot be passed in a game where a player chooses trumps: the two "
            "phases cannot yet follow one another",
            hint="pass cards, or let a player choose trumps, not both",
        )
    if c.bidding and (b.blind or b.forehead_sizes):
        raise c.fail(
            c.culprit("pass", "blind bids" if b.blind else "forehead hands"),
            "players choose the cards they pass from their hands, so they cannot bid "
            + ("blind" if b.blind else "without seeing their cards"),
        )


def _check_first_lead(c: _Checking) -> None:
    """The first lead: a card that is in the pack, for every number of players."""
    v = c.v
    p = v.play
    if p.first_leader is FirstLeader.HOLDER and p.lead_card is None:
        raise c.fail("first lead", "the first lead names no card")
    if p.lead_card is None:
        return
    if p.lead_card not in v.deck.cards:
        raise c.fail(
            c.culprit("first lead", "deck"),
            f"{p.lead_card} leads first, but it is taken out of the pack",
        )
    leaders = (p.lead_card, *p.lead_card_else)
    for n in v.players.counts():
        pack_n = v.deck.cards_for(n)
        if not any(k in pack_n for k in leaders):
            named = _and_or([str(k) for k in leaders], "and")
            raise c.fail(
                c.culprit("first lead", "deck"),
                f"{named} {'is' if not p.lead_card_else else 'are all'} taken out of the "
                f"pack for {n} players, so nobody leads first",
                hint=f"name a card that stays in, such as `holder of {p.lead_card} otherwise "
                f"{next(iter(pack_n))} leads it`",
            )


def _check_trump_order(c: _Checking) -> None:
    """The trump order names cards and ranks that are in the pack."""
    v = c.v
    for entry in v.trumps.order:
        if entry.card is not None and entry.card not in v.deck.cards:
            raise c.fail(
                c.culprit("trump order", "deck"),
                f"the trump order names {entry.card}, but it is not in the pack",
            )
        if entry.card is None and entry.rank < v.deck.lowest:
            raise c.fail(
                c.culprit("trump order", "deck"),
                f"the trump order names {entry}, but the pack has no "
                f"{Rank(entry.rank).label}s ({v.deck.size} cards, "
                f"{Rank(v.deck.lowest).label} to ace)",
            )


def _check_jokers(c: _Checking) -> None:
    """A pack with jokers: every hand has trumps, and the trump order ranks each
    joker (they have no suit or rank of their own: a joker is a trump)."""
    v = c.v
    jokers = [card for card in v.deck.cards if card.is_joker]
    if not jokers:
        return
    why = jokers_without_trumps(v)
    if why:
        raise c.fail(
            c.culprit("deck", "trumps", "mode"),
            f"a joker has no suit or rank and plays as a trump, but {why}",
            hint="play jokers in a game whose every hand has a trump suit "
            "(such as `trumps: spades`), and rank them in `trump order:`",
        )
    named = {e.card for e in v.trumps.order if e.card is not None}
    missing = [str(card) for card in jokers if card not in named]
    if missing:
        raise c.fail(
            c.culprit("trump order", "deck"),
            f"the pack has {' and '.join(missing)}, but the trump order does not rank "
            + ("it" if len(missing) == 1 else "them"),
            expected="`trump order:` naming each joker, such as `trump order: BJ, LJ`",
        )


def _check_follow(c: _Checking) -> None:
    """``must trump`` and ``must beat`` only add to ``must follow suit``."""
    p = c.v.play
    if (p.must_trump or p.must_beat) and not p.must_follow:
        raise c.fail("follow", "`must trump` and `must beat` go with `must follow suit`")


def _check_teams(c: _Checking) -> None:
    """Teams: two or more, of 2 seats or more, that seat every player."""
    v = c.v
    if not v.teams:
        return
    seats = sorted(s for team in v.teams for s in team)
    if seats != list(range(len(seats))) or any(len(team) < 2 for team in v.teams):
        raise c.fail("teams", "every seat must be in exactly one team of 2 or more")
    if len(v.teams) < 2:
        raise c.fail(
            "teams",
            "one team of every player is no partnership: nobody would play against it",
            expected="two teams or more, such as `teams: 1 and 3, 2 and 4`",
        )
    if (v.players.min, v.players.max) != (len(seats), len(seats)):
        raise c.fail(
            c.culprit("teams", "players"),
            f"the teams hold {len(seats)} seats, but the game is for {_players_text(v)}",
            expected=f"`players: {len(seats)}`",
        )


def _check_score(c: _Checking) -> None:
    """A trick-taking game's score: a formula, whose variables the game has
    (its counters, card points, bids)."""
    v = c.v
    if not c.tricks:
        return
    if v.scoring.formula is None and v.scoring.team_formula is None:
        raise c.fail(
            "score",
            "a trick-taking game needs a `score:` line",
            expected="a line such as `score: if exact then 10 + bid else 0`",
        )
    names = {counter.name for counter in v.scoring.counters}
    for key, f in _formulas(v):
        missing = sorted(set(f.counters) - names)
        if missing:
            raise c.fail(
                key,
                f"the formula {f.text!r} reads the counter {missing[0]!r}, "
                "but this game keeps no such counter",
                hint=f"add a line such as `counter {missing[0]}: {missing[0]} + 1`",
            )
    uses = _uses(v)
    counted = uses & POINT_VARIABLES
    if counted and not v.scoring.card_points:
        raise c.fail(
            c.culprit("score", "team score", "counter", "card points"),
            f"the score uses {', '.join(sorted(counted))}, but no card carries points",
            hint="add a line such as `card points: hearts 1, Q♠ 13`",
        )
    used = uses & BID_VARIABLES
    if used and not c.bidding:
        raise c.fail(
            c.culprit("score", "team score", "counter", "bidding"),
            f"the score uses {', '.join(sorted(used))}, but this game has no bidding",
            hint="score with tricks, cards, hand and players only, or add bidding",
        )


def _check_match_mode(c: _Checking) -> None:
    """Only a shedding game has a loser, to take a letter and deal the next game."""
    if c.tricks and c.v.match.word:
        raise c.fail(
            c.culprit("match word", "mode"),
            "`match word` is for shedding games: a trick-taking game has no loser "
            "to take a letter, so a match of it would never end",
            hint="write `match word: none`",
        )


def _check_winner(c: _Checking) -> None:
    """``winner: last one in`` needs players to be knocked out."""
    winning = c.v.winning
    if winning.last_one_in and not winning.knockout_below:
        raise c.fail(
            c.culprit("winner", "knocked out"),
            "`winner: last one in` needs players to be knocked out, but nobody ever is",
            hint="add a line such as `knocked out: no tricks`",
        )


def _check_match_word(c: _Checking) -> None:
    """The match word is plain letters (each loss takes the next)."""
    w = c.v.match.word
    if w and not (w.isascii() and w.isalpha()):
        raise c.fail("match word", "the match word must be plain letters")


#: The checks that a game can be played, in the order they run: the first
#: problem found is the error raised, so a new check goes where its problem
#: should be reported before the ones after it.
_PLAYABLE_CHECKS: Final[tuple[Callable[[_Checking], None], ...]] = (
    _check_players,
    _check_shedding_trumps,
    _check_schedule,
    _check_blind_bids,
    _check_trumps,
    _check_trump_namer,
    _check_bidding,
    _check_passing,
    _check_first_lead,
    _check_trump_order,
    _check_jokers,
    _check_follow,
    _check_teams,
    _check_score,
    _check_match_mode,
    _check_winner,
    _check_match_word,
)


def _check(
    v: Variant, sources: Mapping[str, str] | None, warn_only: frozenset[str]
) -> list[VariantWarning]:
    """Every check of :func:`validate`: that the game can be played (family by
    family, in the order of :data:`_PLAYABLE_CHECKS`), then the settings that
    change nothing (:data:`EFFECTS`). Returns the warnings."""
    checking = _Checking(v, sources)
    for check_playable in _PLAYABLE_CHECKS:
        check_playable(checking)
    fail = checking.fail

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


#: How to switch off each bidding setting, for a game without bidding.
_OFF: Final = {
    "hook": "add `hook: no`",
    "blind bids": "add `blind bids: no`",
    "forehead hands": "add `forehead hands: none`",
    "bid changes": "add `bid changes: no`",
    "team bids": "add `team bids: each partner`",
    "bids": "add `bids: 0 to the hand size`",
}


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


@frozen
class _NoOp:
    """What one check found: ``setting`` (or a part of it) changes nothing.

    ``causes`` are the settings that make it so (an option among them turns an
    error of the file's own line into a warning); ``warning`` is the wording for
    a line that is not the file's own, when the error's advice would not fit;
    ``part``: only a part of the line changes nothing (a term of a list, a row of
    a table), which is always a warning: the line itself has an effect."""

    setting: str
    message: str
    causes: tuple[str, ...] = ()
    hint: str | None = "delete the line"
    expected: str | None = None
    warning: str | None = None
    part: bool = False


@frozen
class Effect:
    """Where a setting has an effect, and the check that finds where it has none.

    Attributes:
        fields: the config fields (dotted, as in ``bidding.hook``) the setting
            writes.
        where: in words, the games in which the setting has an effect.
        check: finds the ways the setting (or a part of it) changes nothing in
            a variant that passes every other check.
    """

    fields: tuple[str, ...]
    where: str
    check: Callable[[_Context], Iterator[_NoOp]] = field(eq=False, repr=False)


class _Context:
    """A variant and the facts the checks share (computed when first needed)."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.tricks = v.mode is Mode.TRICKS
        self.bidding = v.has_bidding
        t = v.trumps
        self.never_trumps = (
            not self.tricks
            or t.kind is TrumpKind.NONE
            or (t.kind is TrumpKind.FIXED and t.suit is None)
            or (t.kind is TrumpKind.CYCLE and all(s is None for s in t.cycle))
        )
        if not self.tricks:
            self.no_trumps_why = "a shedding game has no trumps"
        elif t.kind is TrumpKind.CYCLE:
            self.no_trumps_why = "the trump cycle has no trump suit in it"
        else:
            self.no_trumps_why = "this game has no trumps (`trumps: none`)"
        self._dealt: frozenset[int] | None = None

    def stated(self, key: str) -> bool:
        return self.v.position(key) is not None

    @property
    def dealt(self) -> frozenset[int]:
        """Every hand size a game deals, for any number of players (tie-break
        hands are of the largest size, which is among them)."""
        if self._dealt is None:
            v = self.v
            self._dealt = frozenset(n for p in v.players.counts() for n in v.hand_sizes(p))
        return self._dealt

    @property
    def largest(self) -> int:
        """The largest hand of any game."""
        return max(self.dealt, default=0)

    @property
    def longest(self) -> int:
        """The most hands any game can have, tie-break hands included."""
        v = self.v
        extra = v.winning.extra_hand_limit if self.tricks else 0
        return max(schedule_length(v.schedule, n, v.deck.size) for n in v.players.counts()) + extra


def _classify(v: Variant, found: _NoOp) -> tuple[SourcePos, bool]:
    """Where to report a no-op, and whether it is an error (else a warning)."""
    pos = v.position(found.setting)
    if pos is None:
        # A value no line wrote: a config built in Python, checked as it is.
        return _where(v, found.setting), not found.part
    if found.part:
        return pos, False
    if _is_option(pos):
        return pos, True
    if pos.path != v.path:
        return pos, False  # inherited through extends
    for cause in found.causes:
        at = v.position(cause)
        if at is not None and _is_option(at):
            return pos, False  # the file's line is fine; the option idles it
    return pos, True


def _is_option(pos: SourcePos) -> bool:
    return pos.path.startswith("<option")


def _players_text(v: Variant) -> str:
    lo, hi = v.players.min, v.players.max
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"


def _entry_text(e: SizeEntry) -> str:
    if (e.min_players, e.max_players) == (1, limits.MAX_PLAYERS):
        return str(e.size)
    if e.min_players == e.max_players:
        return f"{e.size} for {e.min_players} players"
    if e.max_players == limits.MAX_PLAYERS:
        return f"{e.size} for {e.min_players} or more players"
    return f"{e.size} for {e.min_players} to {e.max_players} players"


def _hands(n: int) -> str:
    return f"{n} hand" if n == 1 else f"{n:,} hands"


# ---- the checks, setting by setting


def _direction(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    if v.players.max <= 2 and v.direction is Direction.ANTICLOCKWISE:
        yield _NoOp(
            "direction",
            "`direction: anticlockwise` has no effect with 2 players: play, bidding and "
            "the deal go back and forth the same way in either direction",
            ("players",),
        )


def _deal_passes(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    if not v.match.loser_deals:
        return
    if c.tricks:
        yield _NoOp(
            "deal passes",
            "`deal passes: to the loser` is for shedding games: a trick-taking game "
            "has no loser to deal the next game",
            ("mode",),
            hint="write `deal passes: to the next player`",
        )
    elif not v.match.word:
        yield _NoOp(
            "deal passes",
            "`deal passes: to the loser` has no effect without a match word: a single "
            "game has no next game to deal",
            ("match word",),
            hint="add a `match word:`, or delete the line",
        )


def _hand_size(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    sched = v.schedule
    start = sched.start
    if start == HandSizeRule():
        return  # `largest`, the default, said again: no surprise in it
    if sched.pattern in (Pattern.LIST, Pattern.WHOLE_PACK):
        why = (
            "`hands: list ...` gives the size of every hand"
            if sched.pattern is Pattern.LIST
            else "`hands: whole pack` deals out the whole pack"
        )
        yield _NoOp("hand size", f"`hand size` has no effect: {why}", ("hands",))
        return
    counts = v.players.counts()
    for e in start.table:
        if e.max_players < v.players.min or e.min_players > v.players.max:
            yield _NoOp(
                "hand size",
                f"`{_entry_text(e)}` in `hand size` has no effect: the game is for "
                f"{_players_text(v)}",
                ("players",),
                hint="take it out of the line",
                part=True,
            )
    if not start.largest:
        return
    rest = [n for n in counts if not any(e.min_players <= n <= e.max_players for e in start.table)]
    if not rest:
        yield _NoOp(
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
        yield _NoOp(
            "hand size",
            "`keep one for trumps` in `hand size` has no effect: keeping a card back "
            f"leaves the largest hand as it is ({_cards(min(deck // n, cap))} each for "
            f"{n} players)",
            ("players", "deck"),
            hint="take it out of the line",
            part=True,
        )
    if start.cap is not None:
        most = max((deck - (1 if start.keep_one else 0)) // n for n in rest)
        if start.cap >= most:
            yield _NoOp(
                "hand size",
                f"`at most {start.cap}` in `hand size` has no effect: the pack gives at "
                f"most {_cards(most)} each",
                ("players", "deck"),
                hint="take it out of the line",
                part=True,
            )


def _no_trumps(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    every = v.trumps.no_trump_every
    if every is None:
        return
    shown = f"`no trumps: every {_ordinal(every)} hand` has no effect"
    if c.never_trumps:
        yield _NoOp("no trumps", f"{shown}: {c.no_trumps_why}", ("trumps",))
        return
    longest = c.longest
    if every > longest:
        yield _NoOp(
            "no trumps",
            f"{shown}: no game is longer than {_hands(longest)}",
            ("hands", "hand size", "players", "tie"),
        )
        return
    t = v.trumps
    if t.kind is TrumpKind.CYCLE and all(
        t.cycle[(h - 1) % len(t.cycle)] is None for h in range(every, longest + 1, every)
    ):
        yield _NoOp(
            "no trumps",
            f"{shown}: the trump cycle already has no trumps in those hands",
            ("trumps",),
        )


def _bidding(c: _Context) -> Iterator[_NoOp]:
    b = c.v.bidding
    if (
        not c.tricks
        and b.style is not BidStyle.NONE
        and (c.stated("bidding") or b.style is not BiddingRule().style)
    ):
        yield _NoOp(
            "bidding",
            "shedding games have no bidding",
            ("mode",),
            hint=None,
            expected="`bidding: none`",
            warning="`bidding` has no effect: shedding games have no bidding",
        )


def _without_bidding(c: _Context, key: str) -> _NoOp:
    why = "this game has no bidding" if c.tricks else "shedding games have no bidding"
    return _NoOp(
        key,
        f"`{key}` needs bidding, but {why}",
        ("bidding", "mode"),
        hint=_OFF.get(key),
        warning=f"`{key}` has no effect: {why}",
    )


def _stick_dealer(c: _Context) -> Iterator[_NoOp]:
    t = c.v.trumps
    if t.stick_dealer and t.namer is not TrumpNamer.ORDER_UP:
        yield _NoOp(
            "stick the dealer",
            "`stick the dealer` has no effect: only order-up (`trumps: order up`) has a "
            "second round for the dealer to be stuck in",
            ("trumps",),
        )


def _going_alone(c: _Context) -> Iterator[_NoOp]:
    t = c.v.trumps
    if t.going_alone and (t.namer is not TrumpNamer.ORDER_UP or not c.v.teams):
        yield _NoOp(
            "going alone",
            "`going alone` has no effect: only a maker of trumps by order-up "
            "(`trumps: order up`) with a partner (`teams:`) can play alone",
            ("trumps", "teams"),
        )


def _defending_alone(c: _Context) -> Iterator[_NoOp]:
    t = c.v.trumps
    if t.defend_alone and not (t.going_alone and t.namer is TrumpNamer.ORDER_UP and c.v.teams):
        yield _NoOp(
            "defending alone",
            "`defending alone` has no effect: only a lone maker (`going alone: yes`, "
            "with `trumps: order up` and `teams:`) can be defended alone",
            ("going alone", "trumps", "teams"),
        )


def _keep_turned(c: _Context) -> Iterator[_NoOp]:
    t = c.v.trumps
    if t.keep_turned and t.namer is not TrumpNamer.ORDER_UP:
        yield _NoOp(
            "dealer keeps the turned card",
            "`dealer keeps the turned card` has no effect: only in order-up (`trumps: order "
            "up`) does a dealer take the turned card",
            ("trumps",),
        )


def _name_no_trumps(c: _Context) -> Iterator[_NoOp]:
    t = c.v.trumps
    if t.name_no_trumps and t.namer is TrumpNamer.NOBODY:
        yield _NoOp(
            "may name no trumps",
            "`may name no trumps` has no effect: nobody names trumps in this game",
            ("trumps",),
        )


def _trump_ties(c: _Context) -> Iterator[_NoOp]:
    t = c.v.trumps
    if t.namer_tie is not NamerTie.FIRST_IN_TURN and t.namer not in (
        TrumpNamer.HIGHEST_BIDDER,
        TrumpNamer.MOST_TRICKS,
    ):
        yield _NoOp(
            "trump ties",
            "`trump ties` has no effect: only the highest bidder or the winner of most "
            "tricks names trumps after a tie",
            ("trumps",),
        )


def _hook(c: _Context) -> Iterator[_NoOp]:
    if not c.bidding and c.v.bidding.hook and c.stated("hook"):
        yield _without_bidding(c, "hook")


def _bids(c: _Context) -> Iterator[_NoOp]:
    b = c.v.bidding
    default = BiddingRule()
    if not c.bidding:
        if (b.min_bid, b.max_bid) != (default.min_bid, default.max_bid):
            yield _without_bidding(c, "bids")
        return
    if b.max_bid is not None and b.max_bid >= c.largest:
        yield _NoOp(
            "bids",
            f"the top of `bids: {b.min_bid} to {b.max_bid}` has no effect: no hand has "
            f"more than {_cards(c.largest)}",
            ("hand size", "hands", "players", "deck"),
            hint=f"write `bids: {b.min_bid} to the hand size`",
            part=True,
        )


def _blind_bids(c: _Context) -> Iterator[_NoOp]:
    if not c.bidding and c.v.bidding.blind:
        yield _without_bidding(c, "blind bids")


def _forehead_hands(c: _Context) -> Iterator[_NoOp]:
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
    yield _NoOp(
        "forehead hands",
        f"{what} has no effect: no hand has {_and_or(list(map(str, dead)), 'or')} {cards}",
        ("hand size", "hands", "players", "deck"),
        hint="delete the line"
        if len(dead) == len(sizes)
        else f"take {'it' if len(dead) == 1 else 'them'} out of the line",
        part=len(dead) < len(sizes),
    )


def _team_bids(c: _Context) -> Iterator[_NoOp]:
    if not c.v.bidding.one_per_team:
        return
    if not c.bidding:
        yield _without_bidding(c, "team bids")
    elif not c.v.teams:
        yield _NoOp(
            "team bids",
            "`team bids: one per side` has no effect: every player is on their own (no `teams:`)",
            ("teams",),
        )


def _bid_changes(c: _Context) -> Iterator[_NoOp]:
    if not c.bidding and c.v.bidding.amend:
        yield _without_bidding(c, "bid changes")


def _constant(c: _Context, term: CardTerm, leading: bool | None) -> tuple[bool, str] | None:
    """Whether a term of a card-set list matches every card (True) or none
    (False) in this game whatever happens, and why (``""`` for a plain ``any
    card``); ``None`` if it depends on the play. ``leading``: the list is for
    the leader (True), a follower (False) or both (None)."""
    v = c.v
    k = term.kind
    if k is TermKind.ANY:
        every, why = True, ""
    elif k is TermKind.TRUMPS and c.never_trumps:
        every, why = False, c.no_trumps_why
    elif k is TermKind.SUIT_LED and leading:
        every, why = False, "the leader of a trick has no suit led"
    elif k is TermKind.WINNING and leading:
        every, why = True, "every card a leader leads is winning"
    elif k is TermKind.CARD and term.card is not None and term.card not in v.deck.cards:
        every, why = False, f"{term.card} is taken out of the pack"
    elif k in (TermKind.SUIT, TermKind.HIGHER, TermKind.LOWER):
        # A joker has no printed suit or rank: no such term names it.
        pack = [x for x in v.deck.cards if not x.is_joker]
        if k is TermKind.SUIT:
            matched = sum(1 for x in pack if x.suit is term.suit)
        elif k is TermKind.HIGHER:
            matched = sum(1 for x in pack if x.rank > (term.rank or 0))
        else:
            matched = sum(1 for x in pack if x.rank < (term.rank or 0))
        if 0 < matched < v.deck.size:
            return None
        every = matched > 0
        plain = str(attrs.evolve(term, negated=False, unbroken=False))
        if k is TermKind.SUIT and term.suit is not None:
            plain = f"a {term.suit.word[:-1]}"
        why = f"{'every' if every else 'no'} card of the pack is {plain}"
    else:
        return None
    if every and term.unbroken:
        return None  # the unbroken part of every card still depends on the play
    return (not every if term.negated else every), why


def _choice(
    c: _Context, key: str, choice: CardChoice, leading: bool | None, default: CardChoice
) -> Iterator[_NoOp]:
    """The card-set list of ``key``: as a whole, when (not being ``default``) it
    leaves every card playable whatever happens; else each term or set in it
    that changes nothing."""
    options = choice.options
    parts: list[str] = []
    reasons: list[str] = []
    imposes = False  # some set, reached, may leave out some cards
    decided = False
    for i, option in enumerate(options):
        facts = [(term, _constant(c, term, leading)) for term in option.terms]
        for term, fact in facts:
            if fact is not None and fact[1]:
                parts.append(
                    f"`{attrs.evolve(term, negated=False)}` in `{key}:` has no effect: {fact[1]}"
                )
                reasons.append(fact[1])
        dead = any(fact is not None and not fact[0] for _, fact in facts)
        everything = all(fact is not None and fact[0] for _, fact in facts)
        if not decided and not dead:
            decided = True
            imposes = not everything
        if everything and i + 1 < len(options):
            parts.extend(
                f"`{later}` in `{key}:` has no effect: `{option}` before it always leaves "
                "a card to play"
                for later in options[i + 1 :]
            )
            break
    if key != "follow" and not imposes and choice != default:
        why = reasons[0] if reasons else f"`{options[0]}` comes first"
        verb = "led" if leading else "played"
        yield _NoOp(
            key,
            f"`{key}` has no effect: {why}, so any card may be {verb} as before",
            ("trumps", "deck"),
        )
        return
    for message in dict.fromkeys(parts):
        yield _NoOp(key, message, ("trumps", "deck"), hint="take it out of the list", part=True)


def _follow(c: _Context) -> Iterator[_NoOp]:
    p = c.v.play
    if p.follow == follow_choice(must_follow=True, must_trump=p.must_trump, must_beat=p.must_beat):
        # A short form: its own trumps terms come with `must beat` and `must trump`.
        if p.must_trump and c.never_trumps:
            yield _NoOp(
                "follow",
                f"`must trump when void` in `follow` has no effect: {c.no_trumps_why}",
                ("trumps",),
                hint="take it out of the line",
                part=True,
            )
        return
    yield from _choice(c, "follow", p.follow, False, FOLLOW_SUIT)


def _lead_keys(v: Variant) -> tuple[str, str | None]:
    """The setting that gave the lead rule (``lead`` or ``leading trumps``), and
    the other one if the same file says it too (and so it changes nothing)."""
    said = [(k, pos) for k in ("lead", "leading trumps") if (pos := v.position(k)) is not None]
    if not said:
        return ("leading trumps" if v.play.lead == ANY_CARD else "lead"), None
    rank = {k: (_is_option(pos), pos.path == v.path, pos.line) for k, pos in said}
    winner = max(rank, key=lambda k: rank[k])
    others = [(k, pos) for k, pos in said if k != winner]
    win_pos = v.position(winner)
    if others and win_pos is not None and others[0][1].path == win_pos.path:
        return winner, others[0][0]
    return winner, None


def _lead(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    key, replaced = _lead_keys(v)
    if replaced is not None:
        pos = v.position(key)
        assert pos is not None
        yield _NoOp(
            replaced,
            f"`{replaced}` has no effect: `{key}:` on line {pos.line} replaces it",
            hint="delete one of the two lines",
        )
    lead = v.play.lead
    if key == "leading trumps":
        if lead == lead_choice(trumps_once_broken=True) and c.never_trumps:
            yield _NoOp(
                key,
                f"`leading trumps: once broken` has no effect: {c.no_trumps_why}",
                ("trumps",),
                hint="write `leading trumps: any time`, or delete the line",
            )
        return
    yield from _choice(c, key, lead, True, ANY_CARD)


def _first_trick(c: _Context) -> Iterator[_NoOp]:
    yield from _choice(c, "first trick", c.v.play.first_trick, None, ANY_CARD)


def _broken_by(c: _Context) -> Iterator[_NoOp]:
    p = c.v.play
    if p.broken_by == (BreakTrigger.ANY_PLAY,):
        return  # the default rule said again
    lists = (p.follow, p.lead, p.first_trick)
    if not any(t.unbroken for rule in lists for o in rule.options for t in o.terms):
        yield _NoOp(
            "broken by",
            "`broken by` has no effect: no `follow:`, `lead:` or `first trick:` rule "
            "uses `unbroken`",
            ("follow", "lead", "leading trumps", "first trick"),
        )


def _deck(c: _Context) -> Iterator[_NoOp]:
    counts = set(c.v.players.counts())
    for lo, hi, _mask in c.v.deck.removed_for:
        if not counts & set(range(lo, hi + 1)):
            what = f"{lo}" if lo == hi else f"{lo} to {hi}"
            yield _NoOp(
                "deck",
                f"the cards out `for {what} players` in `deck` have no effect: the game is "
                f"for {c.v.players.min} to {c.v.players.max} players",
                ("players",),
                hint="take them out of the line",
                part=True,
            )


def _first_lead(c: _Context) -> Iterator[_NoOp]:
    p = c.v.play
    if not p.lead_card_else or p.lead_card is None:
        return
    packs = [c.v.deck.cards_for(n) for n in c.v.players.counts()]
    named = (p.lead_card, *p.lead_card_else)
    for i, k in enumerate(p.lead_card_else, start=1):
        if not any(k in pack and not any(x in pack for x in named[:i]) for pack in packs):
            yield _NoOp(
                "first lead",
                f"`otherwise {k}` in `first lead` has no effect: for every number of players "
                f"a card named before it is in the pack",
                ("deck", "players"),
                hint="take it out of the line",
                part=True,
            )


def _breaking_cards(c: _Context) -> Iterator[_NoOp]:
    p = c.v.play
    if not p.also_breaks:
        return
    lists = (p.follow, p.lead, p.first_trick)
    if not any(t.unbroken for rule in lists for o in rule.options for t in o.terms):
        yield _NoOp(
            "breaking cards",
            "`breaking cards` has no effect: no `follow:`, `lead:` or `first trick:` rule "
            "uses `unbroken`",
            ("follow", "lead", "leading trumps", "first trick"),
        )
        return
    pack = c.v.deck.cards
    for k, s in p.also_breaks:
        if k not in pack:
            yield _NoOp(
                "breaking cards",
                f"`{k} breaks {s.word}` in `breaking cards` has no effect: {k} is taken out "
                "of the pack",
                ("deck",),
                hint=f"take `{k} breaks {s.word}` out of the line",
                part=len(p.also_breaks) > 1,
            )


def _shedding_only(
    key: str, changed: Callable[[Variant], bool]
) -> Callable[[_Context], Iterator[_NoOp]]:
    """The check of a setting that only a shedding game has: any line of it (or
    a value other than the default) in a trick-taking game changes nothing."""

    def check(c: _Context) -> Iterator[_NoOp]:
        if c.tricks and (c.stated(key) or changed(c.v)):
            yield _NoOp(
                key,
                f"`{key}` is for shedding games; add `mode: shedding`",
                ("mode",),
                hint=None,
                warning=f"`{key}` is for shedding games: it has no effect in this "
                "trick-taking game",
            )

    return check


def _leader_out(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    yield from _shedding_only("leader out", lambda v: v.play.leader_out is not LeaderOut.NEXT_IN)(c)
    if c.tricks or v.play.leader_out is not LeaderOut.NEXT_HIGHEST:
        return
    shown = "`leader out: next highest card` has no effect"
    if v.shedding.loser is ShedLoser.MOST_CARDS:
        yield _NoOp(
            "leader out",
            f"{shown}: the game ends as soon as a player goes out "
            "(`loser: most cards when the first goes out`), so nobody leads after it",
            ("loser",),
        )
    elif v.players.max <= 2:
        yield _NoOp(
            "leader out",
            f"{shown} with 2 players: when one goes out, the game is over",
            ("players",),
        )


def _dead_tricks(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    yield from _shedding_only(
        "dead tricks", lambda v: v.shedding.dead_tricks is not SheddingRule().dead_tricks
    )(c)
    if not c.tricks and v.shedding.dead_tricks is DeadTricks.FACE_DOWN and v.players.max <= 2:
        yield _NoOp(
            "dead tricks",
            "`dead tricks: face down` has no effect with 2 players: both play to every "
            "dead trick, and see its cards",
            ("players",),
        )


def _loser(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    plain = SheddingRule()
    yield from _shedding_only(
        "loser",
        lambda v: (v.shedding.loser, v.shedding.loser_tie) != (plain.loser, plain.loser_tie),
    )(c)
    if not c.tricks and v.shedding.loser is ShedLoser.MOST_CARDS and v.players.max <= 2:
        yield _NoOp(
            "loser",
            "`loser: most cards when the first goes out` has no effect with 2 players: "
            "when one goes out, the other is the last player holding cards",
            ("players",),
        )


def _score(c: _Context) -> Iterator[_NoOp]:
    if not c.tricks and c.v.scoring.formula is not None:
        yield _NoOp(
            "score",
            "shedding games are not scored with a formula: the last player with cards loses",
            ("mode",),
            hint="use `match word:` to play a match of several games",
            warning="`score` has no effect in a shedding game: nobody scores, the last "
            "player with cards loses",
        )


def _card_points(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    values = v.scoring.card_points
    if not values:
        return
    if not c.tricks:
        yield _NoOp(
            "card points",
            "`card points` has no effect in a shedding game: nobody scores, the last "
            "player with cards loses",
            ("mode",),
        )
        return
    if _formulas(v) and not _uses(v) & POINT_VARIABLES:
        yield _NoOp(
            "card points",
            "the card points change nothing: no formula uses points, "
            "all_points, most_points or team_points",
            ("score",),
            hint="use `points` in the `score:` line, or delete this line",
        )
        return
    pack = v.deck.cards.mask
    if not any(x and pack >> k & 1 for k, x in enumerate(values)):
        yield _NoOp(
            "card points",
            "no card of the pack carries points: every card given points is taken out",
            ("deck",),
        )


def _trump_suits(v: Variant) -> list[Suit]:
    """The suits that can be trumps in some hand of ``v``."""
    t = v.trumps
    if t.kind is TrumpKind.FIXED:
        return [t.suit] if t.suit is not None else []
    if t.kind is TrumpKind.CYCLE:
        return [s for s in Suit if s in t.cycle]
    return list(Suit) if t.kind is TrumpKind.TURN_UP else []


def _trump_order(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    if not v.trumps.order:
        return
    if c.never_trumps:
        yield _NoOp(
            "trump order", f"`trump order` has no effect: {c.no_trumps_why}", ("trumps", "mode")
        )
        return
    pack = v.deck.cards
    if all(
        v.trumps.trump_cards(s, pack) == tuple(reversed(pack.of_suit(s))) for s in _trump_suits(v)
    ):
        yield _NoOp(
            "trump order",
            "`trump order` has no effect: it ranks the trumps in their usual order, ace high",
            ("trumps", "deck"),
        )


def _target(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    if v.winning.target is None:
        return
    if not c.tricks:
        yield _NoOp(
            "target",
            "`target` has no effect in a shedding game: nobody scores, the last player "
            "with cards loses",
            ("mode",),
        )
    elif all(schedule_length(v.schedule, n, v.deck.size) <= 1 for n in v.players.counts()):
        yield _NoOp(
            "target",
            "`target` has no effect in a game of one hand: it ends after that hand anyway",
            ("hands",),
            hint="give `hands:` more hands, or delete the line",
        )


def _knocked_out(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    below = v.winning.knockout_below
    if not below:
        return
    if not c.tricks:
        yield _NoOp(
            "knocked out",
            "`knocked out` has no effect in a shedding game: players go out by shedding "
            "their cards",
            ("mode",),
        )
        return
    largest = max(max(v.hand_sizes(n)) for n in v.players.counts())
    if below > largest:
        yield _NoOp(
            "knocked out",
            f"nobody is ever knocked out: no hand has {below} or more tricks, and when "
            "every player still in would be knocked out, nobody is",
            ("hands",),
            hint="name fewer tricks, or delete the line",
        )


def _pass(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    ps = v.passing
    if not ps.count or not ps.cycle:
        return  # `pass: none` says what happens anyway
    extra = v.winning.extra_hand_limit if c.tricks else 0
    reached = max(schedule_length(v.schedule, n, v.deck.size) + extra for n in v.players.counts())
    if all(ps.to(h) is PassTo.NONE for h in range(1, min(reached, len(ps.cycle)) + 1)):
        yield _NoOp(
            "pass",
            f"nobody ever passes: the game has {_hands(reached)} and the pass cycle "
            f"passes in none of {'it' if reached == 1 else 'them'}",
            ("hands",),
            hint="start the cycle with a direction, or delete the line",
        )


def _trick_setting(key: str) -> Callable[[_Context], Iterator[_NoOp]]:
    """The check of a setting that only means something in a trick-taking game."""

    def check(c: _Context) -> Iterator[_NoOp]:
        if not c.tricks and c.stated(key):
            yield _NoOp(
                key,
                f"`{key}` has no effect in a shedding game: nobody scores, the last player "
                "with cards loses",
                ("mode",),
            )

    return check


def _trick_game_only(
    key: str, changed: Callable[[Variant], bool]
) -> Callable[[_Context], Iterator[_NoOp]]:
    """The check of a setting that only a trick-taking game has."""

    def check(c: _Context) -> Iterator[_NoOp]:
        if not c.tricks and (c.stated(key) or changed(c.v)):
            yield _NoOp(
                key,
                f"`{key}` has no effect in a shedding game: nobody scores, the last player "
                "with cards loses",
                ("mode",),
            )

    return check


#: Settings that change nothing in a game of the other mode (a trick-taking
#: game's bidding and scoring, a shedding game's ending), as options.
_MODE_SETTINGS: Final = {
    Mode.SHEDDING: frozenset(
        {
            "trumps",
            "no trumps",
            "trump order",
            "bidding",
            "hook",
            "bids",
            "blind bids",
            "forehead hands",
            "bid changes",
            "team bids",
            "leading trumps",
            "card points",
            "score",
            "teams",
            "team score",
            "counter",
            "winner",
            "tie",
            "target",
            "knocked out",
        }
    ),
    Mode.TRICKS: frozenset(
        {
            "dead tricks",
            "all out together",
            "loser",
            "cuts on the first trick",
            "take a hand from",
            "leader out",
            "match word",
            "deal passes",
        }
    ),
}


def _options(c: _Context) -> Iterator[_NoOp]:
    v = c.v
    idle = [name for name in v.options if name in _MODE_SETTINGS[v.mode]]
    if not idle:
        return
    game = "a trick-taking game" if c.tricks else "a shedding game"
    shown = _and_or([f"`{name}`" for name in idle], "and")
    yield _NoOp(
        "options",
        f"{shown} in `options` {'has' if len(idle) == 1 else 'have'} no effect: "
        f"no value of {'it' if len(idle) == 1 else 'them'} changes {game}",
        ("mode",),
        hint="take " + ("it" if len(idle) == 1 else "them") + " out of the line",
        part=True,
    )


#: Where each setting has an effect, in the canonical order of the settings: the
#: table the validator runs. Every field of the config model is here or in
#: :data:`ALWAYS_EFFECTIVE` (``tests/test_noops.py`` checks it), so a new
#: setting cannot slip past. A stated value that only says what happens anyway
#: (``hook: no`` without bidding, ``leading trumps: any time`` without trumps,
#: ``broken by: any play``, ``deal passes: to the next player``, ``match word:
#: none``) is never a no-op. Combinations the grammar cannot write (``first
#: lead: dealer's neighbour`` with a card to lead, ``tie: shared`` with a limit
#: of extra hands) need no check.
EFFECTS: Final[dict[str, Effect]] = {
    "direction": Effect(("direction",), "games for more than 2 players", _direction),
    "deal passes": Effect(
        ("match.loser_deals",),
        "shedding games with a match word (`to the loser`)",
        _deal_passes,
    ),
    "hand size": Effect(
        (
            "schedule.start.table",
            "schedule.start.largest",
            "schedule.start.keep_one",
            "schedule.start.cap",
        ),
        "games whose `hands:` start from it (not a list, not the whole pack); each entry "
        "for a number of players the game allows, `largest` for a number the table "
        "misses, `keep one` and `at most` when they make a hand smaller",
        _hand_size,
    ),
    "no trumps": Effect(
        ("trumps.no_trump_every",),
        "games with trumps, long enough to reach such a hand, in which it would have trumps",
        _no_trumps,
    ),
    "trump order": Effect(
        ("trumps.order",),
        "games with trumps, in which it ranks some trump otherwise than the usual order",
        _trump_order,
    ),
    "pass": Effect(
        ("passing.count", "passing.cycle"),
        "every game that reaches a hand whose entry of the cycle is a direction",
        _pass,
    ),
    "stick the dealer": Effect(
        ("trumps.stick_dealer",), "order-up games (`trumps: order up`)", _stick_dealer
    ),
    "going alone": Effect(("trumps.going_alone",), "order-up games with teams", _going_alone),
    "defending alone": Effect(
        ("trumps.defend_alone",), "order-up games with teams and going alone", _defending_alone
    ),
    "dealer keeps the turned card": Effect(
        ("trumps.keep_turned",), "order-up games (`trumps: order up`)", _keep_turned
    ),
    "may name no trumps": Effect(
        ("trumps.name_no_trumps",),
        "games in which a player names trumps (or a suit in order-up's second round)",
        _name_no_trumps,
    ),
    "trump ties": Effect(
        ("trumps.namer_tie",),
        "games in which the highest bidder or the winner of most tricks names trumps",
        _trump_ties,
    ),
    "bidding": Effect(("bidding.style",), "trick-taking games", _bidding),
    "hook": Effect(("bidding.hook",), "games with bidding in turn", _hook),
    "bids": Effect(
        ("bidding.min_bid", "bidding.max_bid"),
        "games with bidding; the top only below the largest hand",
        _bids,
    ),
    "blind bids": Effect(
        ("bidding.blind", "bidding.blind_only"), "games with bidding", _blind_bids
    ),
    "forehead hands": Effect(
        ("bidding.forehead_sizes",),
        "games with bidding that deal hands of those sizes",
        _forehead_hands,
    ),
    "bid changes": Effect(("bidding.amend",), "games with bidding in turn", _bid_changes),
    "team bids": Effect(("bidding.one_per_team",), "games with teams and bidding", _team_bids),
    "follow": Effect(
        ("play.follow",),
        "every game; each term matching some cards and not others, each set reachable",
        _follow,
    ),
    "lead": Effect(
        ("play.lead",),
        "every game, unless `leading trumps:` in the same file replaces it; each term "
        "matching some of a leader's cards",
        _lead,
    ),
    "first trick": Effect(
        ("play.first_trick",),
        "every game; each term matching some cards and not others",
        _first_trick,
    ),
    "deck": Effect(
        ("deck.removed", "deck.lowest", "deck.jokers", "deck.removed_for"),
        "every game; cards out for a number of players only for a number the game allows",
        _deck,
    ),
    "first lead": Effect(
        (
            "play.first_leader",
            "play.lead_card",
            "play.first_lead",
            "play.lead_card_else",
        ),
        "every game; the cards after `otherwise` only when the card before is taken out "
        "for some number of players",
        _first_lead,
    ),
    "breaking cards": Effect(
        ("play.also_breaks",),
        "games whose card-set rules use `unbroken`, for cards in the pack",
        _breaking_cards,
    ),
    "broken by": Effect(
        ("play.broken_by",), "games whose card-set rules use `unbroken`", _broken_by
    ),
    "leader out": Effect(
        ("play.leader_out",),
        "shedding games that play on after a player goes out, for more than 2 players",
        _leader_out,
    ),
    "leading trumps": Effect(
        ("play.lead",),
        "games with trumps (`once broken`), unless `lead:` in the same file replaces it",
        # The lead rule's check, under `lead`, looks at both lines.
        lambda c: iter(()),
    ),
    "dead tricks": Effect(
        ("shedding.dead_tricks",),
        "shedding games (`face down`: for more than 2 players)",
        _dead_tricks,
    ),
    "all out together": Effect(
        ("shedding.all_out",),
        "shedding games",
        _shedding_only(
            "all out together", lambda v: v.shedding.all_out is not SheddingRule().all_out
        ),
    ),
    "loser": Effect(
        ("shedding.loser", "shedding.loser_tie"),
        "shedding games (`most cards ...`: for more than 2 players)",
        _loser,
    ),
    "cuts on the first trick": Effect(
        ("shedding.first_trick_cuts",),
        "shedding games",
        _shedding_only(
            "cuts on the first trick",
            lambda v: v.shedding.first_trick_cuts is not SheddingRule().first_trick_cuts,
        ),
    ),
    "take a hand from": Effect(
        ("shedding.take_hand",),
        "shedding games",
        _shedding_only(
            "take a hand from",
            lambda v: v.shedding.take_hand is not SheddingRule().take_hand,
        ),
    ),
    "card points": Effect(
        ("scoring.card_points",),
        "trick-taking games whose score uses points, all_points or most_points, with "
        "some card of the pack given points",
        _card_points,
    ),
    "teams": Effect(("teams",), "trick-taking games", _trick_setting("teams")),
    "score": Effect(("scoring.formula",), "trick-taking games", _score),
    "team score": Effect(
        ("scoring.team_formula",), "trick-taking games", _trick_setting("team score")
    ),
    "counter": Effect(
        ("scoring.counters",),
        "trick-taking games (a counter is shown on the score sheet, and formulas may read it)",
        _trick_setting("counter"),
    ),
    "winner": Effect(
        ("scoring.higher_wins", "winning.last_one_in"),
        "trick-taking games (`last one in`: with `knocked out`)",
        _trick_game_only(
            "winner",
            lambda v: (
                v.scoring.higher_wins is not ScoringRule().higher_wins or v.winning.last_one_in
            ),
        ),
    ),
    "tie": Effect(
        ("winning.tie", "winning.max_extra_hands"),
        "trick-taking games",
        _trick_game_only(
            "tie",
            lambda v: (
                attrs.evolve(v.winning, target=None, knockout_below=0, last_one_in=False)
                != WinRule()
            ),
        ),
    ),
    "target": Effect(("winning.target",), "trick-taking games of more than one hand", _target),
    "knocked out": Effect(
        ("winning.knockout_below",),
        "trick-taking games with a hand of at least that many tricks",
        _knocked_out,
    ),
    "options": Effect(("options",), "each option: a setting the game's mode has", _options),
}

#: Settings with an effect in every game that passes the other checks, and the
#: fields they write. (A shedding game accepts only `trumps: none`, and a
#: trick-taking game only `match word: none`; `, no trumps when the pack runs
#: out` says what happens if it does, and is not checked.)
ALWAYS_EFFECTIVE: Final[dict[str, tuple[str, ...]]] = {
    "game": ("name",),
    "extends": ("parent",),
    "title": ("title",),
    "also called": ("aliases",),
    "summary": ("summary",),
    "mode": ("mode",),
    "players": ("players.min", "players.max"),
    "first dealer": ("dealer.first", "dealer.seat"),
    "hands": ("schedule.pattern", "schedule.count", "schedule.sizes", "schedule.repeat"),
    "trumps": (
        "trumps.kind",
        "trumps.suit",
        "trumps.cycle",
        "trumps.none_when_pack_empty",
        "trumps.namer",
    ),
    "match word": ("match.word",),
    # Every game has actions a player could take back.
    "take backs": ("take_backs",),
}

#: Fields of :class:`~cardrules.rules.Variant` that no setting writes: where the
#: settings were written, the text, the file and its worked examples.
NOT_SETTINGS: Final = ("positions", "source", "path", "examples")
