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
from pathlib import PurePath
from typing import Final

from attrs import frozen

from cardrules.cards import STRAIN_WORDS, Rank
from cardrules.errors import VariantError
from cardrules.rules import (
    JOKERS_KIND,
    MAX_SCHEDULE_HANDS,
    BidStyle,
    ConditionalSetting,
    ConditionKind,
    FirstLeader,
    HandSituation,
    Mode,
    PassTo,
    Pattern,
    PlayerRange,
    ScheduleRule,
    SourcePos,
    SpecialPower,
    TakeHand,
    TrumpKind,
    TrumpNamer,
    Variant,
    apply_changes,
    jokers_without_trumps,
    points_of_cards,
)
from cardrules.score_cases import MAX_CASES

from . import limits
from .conditions import condition_text
from .settings.deal_settings import MAX_REDEAL_CHANCE, redeal_chance
from .settings.effect_checks import (
    POINT_VARIABLES,
    Context,
    Effect,
    NoOp,
    and_or,
    cards_text,
    formulas_of,
    is_option,
    players_text,
    point_variables_used,
    schedule_length,
    variables_used,
)
from .settings.registry import ALWAYS_EFFECTIVE, EFFECTS
from .settings.rendering import ordinal
from .syntax_errors import error_at, source_line

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
    if p is Pattern.STEPS:
        return max(schedule.hand_sizes(players, deck_size), default=0)
    return schedule.start.start_for(players, deck_size)


def _smallest_hand(schedule: ScheduleRule, players: int, deck_size: int) -> int:
    p = schedule.pattern
    if p is Pattern.WHOLE_PACK:
        return deck_size // players
    if p is Pattern.LIST:
        return min(schedule.sizes, default=0)
    if p is Pattern.STEPS:
        return min(schedule.hand_sizes(players, deck_size), default=0)
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
    v: Variant, *, sources: Mapping[str, str] | None = None, warn_only: Collection[str] = ()
) -> tuple[VariantWarning, ...]:
    """The warnings of a valid variant: settings that change nothing in it, but
    that its own file does not say (inherited from the game it extends, or made
    idle by an option given at load time). ``cardrules check`` prints them.

    Args:
        v: a resolved variant, as :func:`cardrules.dsl.load` returns it.
        sources: as for :func:`validate`.
        warn_only: as for :func:`validate`: these settings' lines that change
            nothing are warnings too, even where the text says them itself
            (the rules text of a save or a record states every setting).

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
    return tuple(_check(v, sources, frozenset(warn_only)))


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
        whole_or_list = v.schedule.pattern in (Pattern.LIST, Pattern.WHOLE_PACK, Pattern.STEPS)
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
            f"`no trumps: every {ordinal(t.no_trump_every)} hand` cannot be used",
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
    if c.v.schedule.pattern in (Pattern.LIST, Pattern.WHOLE_PACK, Pattern.STEPS):
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
            hint=f"it shares out evenly among {and_or(fits, 'or')} players "
            f"(`players: {fits[0]}`); or {other}"
            if fits
            else other,
        )
    if sched.pattern is not Pattern.WHOLE_PACK and need > deck:
        raise c.fail(
            c.culprit(c.schedule_key, "players", "deck"),
            f"{cards_text(big)} each for {n} players needs {need} cards; the pack has {deck}",
            hint=f"deal fewer cards, or allow fewer than {n} players",
        )
    if _turns_up_always(v) and need + 1 > deck:
        raise c.fail(
            c.culprit(c.schedule_key, "trumps", "players", "deck"),
            f"{cards_text(big)} each for {n} players uses the whole pack of {deck}, "
            "and no card is left to turn up for trumps",
            hint="deal fewer cards, or add `, no trumps when the pack runs out` to the trumps line",
        )
    if c.bidding and v.bidding.min_bid > _smallest_hand(sched, n, deck):
        raise c.fail(
            c.culprit("bids", c.schedule_key),
            f"bids start at {v.bidding.min_bid}, but some hands have only "
            f"{cards_text(_smallest_hand(sched, n, deck))}",
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
    if variables_used(c.v) & MAKER_VARIABLES and namer is TrumpNamer.NOBODY:
        raise c.fail(
            c.culprit("score", "trumps"),
            "the score uses maker, maker_tricks or alone, but nobody makes trumps in this game",
            hint="let a player choose trumps (such as `trumps: order up`), or take them "
            "out of the score",
        )


def _check_kitty(c: _Checking) -> None:
    """The kitty is the cards left after the deal: as many in every hand of
    every table."""
    v = c.v
    t = v.trumps
    if not t.kitty or t.namer is not TrumpNamer.HIGHEST_BIDDER:
        return
    for players in v.players.counts():
        pack = len(v.deck.cards_for(players))
        for size in sorted(set(v.hand_sizes(players))):
            left = pack - players * size
            if left != t.kitty:
                raise c.fail(
                    "kitty",
                    f"the kitty is the cards left after the deal, but {players} players "
                    f"dealt {size} each from {pack} cards leave {left}, not {t.kitty}",
                    hint=f"write `kitty: {left} cards`, or change the hand size"
                    if left > 0
                    else "deal fewer cards each",
                )


def _check_auction(c: _Checking) -> None:
    """An auction (``bidding: auction``): each bid above the last, so no hook,
    no changed, blind or forehead bids, and one bid per seat."""
    b = c.v.bidding
    if b.style is not BidStyle.AUCTION or not c.bidding:
        return
    clashes = (
        ("hook", b.hook, "add `hook: no`"),
        ("bid changes", b.amend, "add `bid changes: no`"),
        ("blind bids", b.blind, "add `blind bids: no`"),
        ("forehead hands", bool(b.forehead_sizes), "add `forehead hands: none`"),
        ("team bids", b.one_per_team, "add `team bids: each partner`"),
    )
    for key, on, hint in clashes:
        if on:
            raise c.fail(
                c.culprit(key, "bidding"),
                f"`{key}` does not go with an auction, in which each bid is above the last",
                hint=hint,
            )


def _check_contracts(c: _Checking) -> None:
    """Bids in strains (``bids: ... in ...``): an auction whose winning bid makes
    trumps; a misère bid (``misère: a bid above ...``) placed above one of them."""
    v = c.v
    b = v.bidding
    if b.strains and (b.style is not BidStyle.AUCTION or not c.bidding):
        raise c.fail(
            c.culprit("bids", "bidding"),
            "bids in strains need an auction, in which each bid is above the last",
            hint="add `bidding: auction`",
        )
    if b.strains and v.trumps.namer is not TrumpNamer.HIGHEST_BIDDER:
        raise c.fail(
            c.culprit("bids", "trumps"),
            "bids in strains make trumps, but the trumps of this game are chosen otherwise",
            hint="add `trumps: named by the highest bidder`",
        )
    for key, word, above in (
        ("misere", "misère", b.misere_above),
        ("open misere", "open misère", b.open_misere_above),
    ):
        if above is not None:
            _check_bid_above(c, key, word, above)
    if b.misere_above is not None and b.misere_above == b.open_misere_above:
        raise c.fail(
            "open misere",
            "misère and open misère are placed above the same bid",
            expected="open misère above another bid than misère",
        )


def _check_bid_above(c: _Checking, key: str, word: str, above: tuple[int, int]) -> None:
    """A misère bid (``misère:`` or ``open misère:``, named ``word``, whose
    statement is ``key``) placed ``above`` a bid of the auction of strains."""
    b = c.v.bidding
    hint = "list the strains in `bids:` (`bids: 6 to 10 in spades, ...`)"
    if not b.strains:
        raise c.fail(
            c.culprit(key, "bids"),
            f"{word} is a bid above another only in an auction of bids in strains",
            hint=hint + (", or write `misère: yes`" if key == "misere" else ""),
        )
    level, strain = above
    top = b.max_bid if b.max_bid is not None else b.min_bid
    if strain not in b.strains or not b.min_bid <= level <= top:
        raise c.fail(
            key,
            f"{word} is placed above {level} {STRAIN_WORDS[strain]}, which is not a bid of "
            "this game",
            expected=f"a level from {b.min_bid} to {top} in one of the strains of `bids:`",
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
    _check_auction(c)
    _check_contracts(c)
    seat_bid_vars = (
        v.scoring.formula.uses() & _SEAT_BID_VARIABLES if v.scoring.formula is not None else ()
    )
    if b.one_per_team and v.teams and c.bidding and seat_bid_vars:
        raise c.fail(
            c.culprit("score", "team bids"),
            f"the score reads {and_or(sorted(seat_bid_vars), 'and')}, but with "
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
                f"each player passes {cards_text(ps.count)}, but some hands for {n} players "
                f"have only {cards_text(small)}",
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
            named = and_or([str(k) for k in leaders], "and")
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


def _check_kind_points(c: _Checking) -> None:
    """``card points: wizards 10``: each kind given points is a kind of special
    card the pack adds (``deck: ... with 4 wizards``), or its jokers."""
    v = c.v
    for kind, _ in v.scoring.kind_points:
        if kind == JOKERS_KIND:
            if not v.deck.jokers:
                raise c.fail(
                    c.culprit("card points", "deck"),
                    "the card points give the jokers points, but the pack has no joker",
                    hint="add the jokers to the pack (`deck: standard 52 with 2 jokers`)",
                )
            continue
        if v.deck.special_kinds_named(kind) is None:
            known = [k.plural for k in v.deck.specials]
            raise c.fail(
                c.culprit("card points", "deck"),
                f"the card points give {kind} points, but the pack has no {kind}",
                hint=(
                    f"name a kind the pack adds: {', '.join(known)}"
                    if known
                    else "name a suit or a card, such as `hearts 1` or `Q♠ 13`"
                ),
            )


def _check_jokers(c: _Checking) -> None:
    """A pack with jokers: the game has trumps, the trump order ranks each joker
    (they have no suit or rank of their own: a joker is a trump), and the file
    says what a joker is in a hand without trumps and what a turned-up joker
    does, whenever either can happen."""
    v = c.v
    jokers = [card for card in v.deck.cards if card.is_joker]
    if not jokers:
        return
    why = jokers_without_trumps(v)
    if why:
        if "special turned up" in why:
            hint = "add a line such as `special turned up: jokers, the dealer names trumps`"
        elif "jokers without trumps" in why:
            hint = "add the line `jokers without trumps: highest card`"
        else:
            hint = (
                "play jokers in a game with trumps (such as `trumps: spades`), "
                "and rank them in `trump order:`"
            )
        raise c.fail(
            c.culprit("deck", "trumps", "mode"),
            f"a joker has no suit or rank and plays as a trump, but {why}",
            hint=hint,
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


def _check_redeal(c: _Checking) -> None:
    """A ``redeal:`` condition that holds so often that deals would be thrown
    in without end (see :func:`~cardrules.dsl.settings.deal_settings.redeal_chance`)."""
    r = c.v.redeal
    if r is not None and r.may and (c.v.bidding.blind or c.v.bidding.forehead_sizes):
        raise c.fail(
            "redeal",
            "a hand that `may be shown` is shown by a player who has looked at it, but "
            "players bid blind or with their cards on their foreheads in this game",
            hint="write `must be shown`: the hand is then shown as it is dealt",
        )
    chance, n, k = redeal_chance(c.v)
    if chance > MAX_REDEAL_CHANCE:
        raise c.fail(
            "redeal",
            f"`redeal` would throw in about {round(100 * chance)}% of the deals "
            f"({n} players, {k} cards each): the game could be dealt again without end",
            hint=f"name more cards, so that at most {round(100 * MAX_REDEAL_CHANCE)}% "
            "of the deals are thrown in",
        )


def _check_specials(c: _Checking) -> None:
    """A pack with special cards: a trick-taking game, each kind given one power,
    and ``special cards``, ``special turned up`` and ``special symbols`` naming only
    kinds of the pack."""
    v = c.v
    kinds = [k.plural for k in v.deck.specials]
    for key, named in (
        ("special cards", [p.kind for p in v.deck.powers]),
        ("special turned up", [k for k, _ in v.trumps.turned_special if k != JOKERS_KIND]),
        ("special symbols", [x.kind for x in v.deck.symbols]),
    ):
        for kind in named:
            if kind not in kinds:
                raise c.fail(
                    key,
                    f"the pack has no {kind}",
                    expected="a kind of special card the `deck` line adds"
                    + (f": {', '.join(kinds)}" if kinds else ", such as `with 4 wizards`"),
                )
    if not kinds:
        return
    if v.mode is not Mode.TRICKS:
        raise c.fail(c.culprit("deck", "mode"), "special cards are for trick-taking games")
    missing = [k for k in kinds if v.deck.power_of(k) is None]
    if missing:
        raise c.fail(
            "deck",
            f"the {' and '.join(missing)} have no power: say what they do in a trick",
            expected="a line such as `special cards: "
            + "; ".join(f"{k} always win" for k in missing)
            + "`",
        )
    for power in (SpecialPower.WINS, SpecialPower.LOSES):
        if len({p.last for p in v.deck.powers if p.power is power}) > 1:
            raise c.fail(
                "special cards",
                f"the kinds that {power.value} disagree on which of them wins a trick",
                expected="`the first played winning` for each of them, or "
                "`the last played winning` for each",
            )
    for p in v.deck.powers:
        if p.card is not None and p.card not in v.deck.cards:
            raise c.fail(
                "special cards", f"the {p.kind} rank next to {p.card}, which is not in the pack"
            )


def _check_packs(c: _Checking) -> None:
    """Several standard packs: the file says which of two identical cards ranks
    higher; a trump order and the pass are not known with them yet."""
    v = c.v
    if v.deck.packs <= 1:
        return
    if not v.deck.identical:
        raise c.fail(
            "deck",
            f"with {v.deck.packs} packs two identical cards can meet in a trick, "
            "but the file does not say which ranks higher",
            expected="`identical cards: the first played ranks higher` "
            "(or `the last played ranks higher`)",
        )
    if v.trumps.order:
        raise c.fail(
            c.culprit("trump order", "deck"),
            "a trump order is not known with several packs yet",
            hint="play several packs with plain suits, aces high",
        )
    if v.shedding.take_hand is not TakeHand.NONE:
        raise c.fail(
            c.culprit("take a hand from", "deck"),
            "taking a neighbour's hand is not known with several packs yet",
            hint="play several packs without `take a hand from:`",
        )
    if v.passing.count:
        raise c.fail(
            c.culprit("pass", "deck"),
            "passing cards is not known with several packs yet",
            hint="play several packs without `pass:`",
        )
    if v.deck.specials:
        raise c.fail(
            "deck",
            "special cards are not known with several packs yet",
            hint="play several packs without special cards",
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
            f"the teams hold {len(seats)} seats, but the game is for {players_text(v)}",
            expected=f"`players: {len(seats)}`",
        )


def _check_cases(c: _Checking) -> None:
    """The cases of the score (``case "made": ...``): at most
    :data:`~cardrules.score_cases.MAX_CASES` of them."""
    problem = ""
    if len(c.v.cases) > MAX_CASES:
        problem = f"a file names at most {MAX_CASES} cases of the score"
    names = {counter.name for counter in c.v.scoring.counters}
    for case in c.v.cases:
        missing = sorted(set(case.when.counters) - names)
        if missing and not problem:
            problem = (
                f"the case {case.label!r} reads the counter {missing[0]!r}, "
                "but this game keeps no such counter"
            )
    if problem:
        err = c.fail("case", problem)
        err.code = "bad_score_case"
        raise err


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
    for key, f in formulas_of(v):
        missing = sorted(set(f.counters) - names)
        if missing:
            raise c.fail(
                key,
                f"the formula {f.text!r} reads the counter {missing[0]!r}, "
                "but this game keeps no such counter",
                hint=f"add a line such as `counter {missing[0]}: {missing[0]} + 1`",
            )
    uses = variables_used(v)
    counted = point_variables_used(v)
    if counted and not points_of_cards(v):
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
    _check_kitty,
    _check_bidding,
    _check_passing,
    _check_first_lead,
    _check_trump_order,
    _check_jokers,
    _check_kind_points,
    _check_redeal,
    _check_specials,
    _check_packs,
    _check_follow,
    _check_teams,
    _check_score,
    _check_cases,
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
    if v.conditional:
        _check_conditional(checking)
    else:
        for check_playable in _PLAYABLE_CHECKS:
            check_playable(checking)
    fail = checking.fail

    # ---- settings that change nothing (the game is otherwise sound by now)
    warnings: list[VariantWarning] = []
    ctx = Context(v)
    for effect in EFFECTS.values():
        for found in effect.check(ctx):
            own = _idled_by_own_line(v, found)
            if own is not None:
                if not found.part:
                    warnings.append(_idled_warning(v, found, own))
                continue
            pos, is_error = _classify(v, found)
            if is_error and found.setting not in warn_only:
                raise fail(
                    found.setting,
                    found.message,
                    hint=_upgrade_hint(v, found),
                    expected=found.expected,
                )
            warnings.append(
                VariantWarning(
                    found.setting, found.warning or found.message, pos.path, pos.line, pos.column
                )
            )
    return warnings


def _situations(v: Variant, n: int) -> list[HandSituation]:
    """Every situation a hand of ``v`` (resolved for ``n`` players) can be in:
    each scheduled hand, and a tie-break hand when ties are played off."""
    sizes = v.hand_sizes(n)
    last = len(sizes) - 1
    out = [HandSituation(s, i == 0, i == last) for i, s in enumerate(sizes)]
    if sizes and v.winning.extra_hand_limit:
        out.append(HandSituation(max(sizes), tie_break=True))
    return out


def _check_conditional(c: _Checking) -> None:
    """A game with lines under a condition: every combination a game can reach
    (each number of players, each situation of a hand) passes the checks that
    the game can be played, with the lines that hold there made; a line whose
    condition never holds, or that changes nothing where it holds, is an
    error at its line."""
    v = c.v
    reached: set[ConditionalSetting] = set()
    changes: set[ConditionalSetting] = set()
    plain = v.evolve(conditional=())
    for n in v.players.counts():
        for line in v.conditional:
            if line.condition.holds_for_players(n):
                reached.add(line)
                if apply_changes(plain, line.changes) != plain:
                    changes.add(line)
        vn = v.for_players(n)
        table = vn.evolve(players=PlayerRange(n, n))
        bare = table.evolve(conditional=())
        for check_playable in _PLAYABLE_CHECKS:
            check_playable(_Checking(bare, c.sources))
        checked: set[tuple[ConditionalSetting, ...]] = {()}
        for situation in _situations(vn, n):
            lines = vn.hand_lines(situation)
            for line in lines:
                reached.add(line)
                if apply_changes(bare, line.changes) != bare:
                    changes.add(line)
            if lines in checked:
                continue
            checked.add(lines)
            hand = table.for_hand(situation)
            for check_playable in _PLAYABLE_CHECKS:
                check_playable(_Checking(hand, c.sources))
    for line in v.conditional:
        if line not in reached or line not in changes:
            why = (
                f"its condition never holds in this game ({_reach(v, line.condition.kind)})"
                if line not in reached
                else "the line changes nothing where its condition holds"
            )
            raise _fail_at(c, line, f"`{line.key}: ... {condition_text(line.condition)}`: {why}")


def _reach(v: Variant, kind: ConditionKind) -> str:
    """What a game reaches, for the error of a condition that never holds."""
    if kind is ConditionKind.PLAYERS:
        lo, hi = v.players.min, v.players.max
        return f"it is for {lo} players" if lo == hi else f"it is for {lo} to {hi} players"
    if kind is ConditionKind.HAND_SIZE:
        sizes = {s for n in v.players.counts() for s in v.hand_sizes(n)}
        if not sizes:
            return "it deals no hands"
        return f"its hands have {min(sizes)} to {max(sizes)} cards"
    return "ties are not played off with extra hands"


def _fail_at(c: _Checking, line: ConditionalSetting, message: str) -> VariantError:
    """The error at a line with a condition."""
    pos = line.pos or _where(c.v, line.key)
    text = c.sources.get(pos.path)
    if text is None:
        return VariantError(message, path=pos.path, line=pos.line, code="bad_condition")
    return error_at(
        message, path=pos.path, text=text, line=pos.line, column=pos.column, code="bad_condition"
    )


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


def _upgrade_hint(v: Variant, found: NoOp) -> str:
    """The hint of a line that changes nothing, pointing to ``cardrules fmt --upgrade``,
    which deletes such lines from a file written when they were still accepted."""
    target = v.path if v.path.endswith(".cardrules") else "FILE"
    upgrade = (
        "a file written for an older cardrules, which accepted such lines, is upgraded "
        f"by `cardrules fmt --upgrade --write {target}`"
    )
    return f"{found.hint}; {upgrade}" if found.hint else upgrade


def _idled_by_own_line(v: Variant, found: NoOp) -> SourcePos | None:
    """The line that makes an inherited line (or part of one) change nothing, when
    it is written in a later file than the idled line (the file checked, or a file
    between it and the idled line's file), else ``None``. A child that says
    ``trumps: none`` idles its parent's ``leading trumps``, ``hands: list ...`` its
    ``hand size``, and ``players: 3`` the rows of its ``hand size`` for other
    tables. The child cannot take the parent's line out, so the warning belongs at
    the child's line; a part of a line (a row, a term) is not reported at all: the
    inherited line still has its effect, and its own file is fine. So a file's
    warnings are its parent's and those its own lines make. A no-op whose cause
    stands in the idled line's own file, or is an option, is reported as before."""
    pos = v.position(found.setting)
    if pos is None or pos.path == v.path or is_option(pos):
        return None
    for cause in found.causes:
        at = v.position(cause)
        if at is not None and at.path != pos.path and not is_option(at):
            return at
    return None


def _idled_warning(v: Variant, found: NoOp, own: SourcePos) -> VariantWarning:
    """The warning of an inherited line idled by ``own``, a line of a later file."""
    pos = v.position(found.setting)
    parent = "the game it extends" if pos is None else f"{PurePath(pos.path).name}, line {pos.line}"
    message = found.warning or found.message
    return VariantWarning(
        found.setting,
        f"{message}; that line is inherited from {parent}, and this line makes it so",
        own.path,
        own.line,
        own.column,
    )


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
#: settings were written, the text, the file, its worked examples and its lines
#: with a condition (each a setting's line, kept aside).
NOT_SETTINGS: Final = ("positions", "source", "path", "examples", "conditional")
