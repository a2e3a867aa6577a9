"""What the settings' effect checks share: the variant being checked and its
facts (:class:`Context`), what a check finds (:class:`NoOp`), where a setting
has an effect (:class:`Effect`), and the small helpers their messages use.

Each family module (``pack_settings``, ``bidding_settings``, ...) holds the
checks of its own settings; :mod:`cardrules.dsl.validate` runs them through
:data:`cardrules.dsl.settings.registry.EFFECTS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from attrs import field, frozen

from cardrules.counted import count_range
from cardrules.rules import (
    Mode,
    Pattern,
    ScheduleRule,
    SizeEntry,
    SourcePos,
    TrumpKind,
    TrumpNamer,
    Variant,
)
from cardrules.scoring import Formula, format_expr

from .. import limits

__all__ = [
    "POINT_VARIABLES",
    "Check",
    "Context",
    "Effect",
    "NoOp",
    "and_or",
    "cards_text",
    "entry_text",
    "formulas_of",
    "hands_text",
    "is_option",
    "players_text",
    "point_variables_used",
    "schedule_length",
    "shedding_only",
    "trick_game_only",
    "trick_setting",
    "variables_used",
]

#: The formula variables that read the card points taken (``card points:``).
POINT_VARIABLES: Final = frozenset({"points", "all_points", "most_points", "team_points"})


def formulas_of(v: Variant) -> list[tuple[str, Formula]]:
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


def variables_used(v: Variant) -> set[str]:
    """The variables every formula of the game reads."""
    return {name for _, f in formulas_of(v) for name in f.uses()}


def point_variables_used(v: Variant) -> set[str]:
    """What the game's formulas read of the card points taken: the variables of
    :data:`POINT_VARIABLES` and the questions ``points of <cards>``."""
    asked = {
        format_expr(q)
        for _, f in formulas_of(v)
        for q in f.questions()
        if q.question == "points of"
    }
    return (variables_used(v) & POINT_VARIABLES) | asked


def cards_text(n: int) -> str:
    """``1 card``, ``2 cards``..."""
    return f"{n} card" if n == 1 else f"{n} cards"


def and_or(items: list[str], word: str) -> str:
    """``3``, ``3 or 4``, ``2, 4 or 13``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def players_text(v: Variant) -> str:
    """``4 players``, ``3 to 7 players``: the numbers of players a game allows."""
    return count_range(v.players.min, v.players.max, "player")


def entry_text(e: SizeEntry) -> str:
    """One row of a ``hand size`` table as the line writes it."""
    if (e.min_players, e.max_players) == (1, limits.MAX_PLAYERS):
        return str(e.size)
    if e.min_players == e.max_players:
        return f"{e.size} for {e.min_players} players"
    if e.max_players == limits.MAX_PLAYERS:
        return f"{e.size} for {e.min_players} or more players"
    return f"{e.size} for {e.min_players} to {e.max_players} players"


def hands_text(n: int) -> str:
    """``1 hand``, ``1,000 hands``."""
    return f"{n} hand" if n == 1 else f"{n:,} hands"


def is_option(pos: SourcePos) -> bool:
    """Whether ``pos`` is an option given at load time (not a line of a file)."""
    return pos.path.startswith("<option")


def schedule_length(schedule: ScheduleRule, players: int, deck_size: int) -> int:
    """How many hands the schedule deals, computed without listing them."""
    p = schedule.pattern
    if p is Pattern.WHOLE_PACK:
        one = 1
    elif p is Pattern.SAME:
        one = schedule.count
    elif p is Pattern.LIST:
        one = len(schedule.sizes)
    elif p is Pattern.STEPS:
        one = len(schedule.hand_sizes(players, deck_size))
    else:
        s = schedule.start.start_for(players, deck_size)
        one = max(s, 0) if p in (Pattern.DOWN, Pattern.UP) else max(2 * s - 1, 0)
    return one * schedule.repeat


@frozen
class NoOp:
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


class Context:
    """A variant and the facts the checks share (computed when first needed)."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.tricks = v.mode is Mode.TRICKS
        self.bidding = v.has_bidding
        t = v.trumps
        self.never_trumps = not self.tricks or (
            # A player who names trumps (the highest bidder, the winner of most
            # tricks, order-up) gives the hand a trump suit whatever the kind.
            t.namer is TrumpNamer.NOBODY
            and (
                t.kind is TrumpKind.NONE
                or (t.kind is TrumpKind.FIXED and t.suit is None)
                or (t.kind is TrumpKind.CYCLE and all(s is None for s in t.cycle))
            )
        )
        if not self.tricks:
            self.no_trumps_why = "a shedding game has no trumps"
        elif t.kind is TrumpKind.CYCLE:
            self.no_trumps_why = "the trump cycle has no trump suit in it"
        else:
            self.no_trumps_why = "this game has no trumps (`trumps: none`)"
        self._dealt: frozenset[int] | None = None

    def stated(self, key: str) -> bool:
        """Whether a line (or an option) says the setting ``key``."""
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


#: A setting's effect check: the ways it (or a part of it) changes nothing.
Check = Callable[[Context], Iterator[NoOp]]


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
    check: Check = field(eq=False, repr=False)


_SHEDDING_GAME: Final = (
    "has no effect in a shedding game: nobody scores, the last player with cards loses"
)


def trick_setting(key: str) -> Check:
    """The check of a setting that only means something in a trick-taking game."""

    def check(c: Context) -> Iterator[NoOp]:
        if not c.tricks and c.stated(key):
            yield NoOp(key, f"`{key}` {_SHEDDING_GAME}", ("mode",))

    return check


def trick_game_only(key: str, changed: Callable[[Variant], bool]) -> Check:
    """The check of a setting that only a trick-taking game has: a line of it,
    or a value other than the default, in a shedding game changes nothing."""

    def check(c: Context) -> Iterator[NoOp]:
        if not c.tricks and (c.stated(key) or changed(c.v)):
            yield NoOp(key, f"`{key}` {_SHEDDING_GAME}", ("mode",))

    return check


def shedding_only(key: str, changed: Callable[[Variant], bool]) -> Check:
    """The check of a setting that only a shedding game has: any line of it (or
    a value other than the default) in a trick-taking game changes nothing."""

    def check(c: Context) -> Iterator[NoOp]:
        if c.tricks and (c.stated(key) or changed(c.v)):
            yield NoOp(
                key,
                f"`{key}` is for shedding games; add `mode: shedding`",
                ("mode",),
                hint=None,
                warning=f"`{key}` is for shedding games: it has no effect in this "
                "trick-taking game",
            )

    return check
