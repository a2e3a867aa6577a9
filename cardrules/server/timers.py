"""Time at the server's tables: the clock the hub reads and sets alarms on, and
the per-table options that use it (the pause after a trick or a hand, the turn
timer and its stand-in bot), read from a ``create`` message or a save.

The hub never sleeps to wait for a person: it asks its :class:`Clock` to call
it back (``call_later``) and reads the time from it (``now``). The server uses
:class:`LoopClock` (the asyncio loop's alarms); tests use :class:`ManualClock`,
whose time moves only when the test says so (:meth:`ManualClock.advance`), so a
test of a time-out waits for nothing.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

from attrs import define, field, frozen

from cardrules.engine.game import Game

__all__ = [
    "MAX_PAUSE",
    "MAX_TURN_TIME",
    "MIN_TURN_TIME",
    "Alarm",
    "Clock",
    "LoopClock",
    "ManualClock",
    "Pause",
    "TableOptions",
    "ended_by",
]

#: The longest pause after a trick or a hand a table may ask for, in seconds.
MAX_PAUSE: Final = 30.0

#: The bounds of a table's decision time (turn timer), in seconds.
MIN_TURN_TIME: Final = 1.0
MAX_TURN_TIME: Final = 3600.0

#: The default bot that plays for a seat whose time ran out.
DEFAULT_STAND_IN: Final = "heuristic"


class Alarm(Protocol):
    """A pending call of :meth:`Clock.call_later`."""

    def cancel(self) -> None:
        """Do not make the call (nothing happens if it was made)."""


class Clock(Protocol):
    """The time as the hub reads it, and its alarms."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Alarm:
        """Call ``callback()`` (in the event loop) once ``delay`` seconds have passed."""


class LoopClock:
    """The server's clock: ``time.monotonic`` and the running loop's alarms."""

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Alarm:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)


class _ManualAlarm:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock for tests: time stands still until :meth:`advance` moves it,
    which makes the calls that fall due, in order, as it goes."""

    def __init__(self, start: float = 1000.0) -> None:
        self.time = start
        self._due: list[tuple[float, int, _ManualAlarm, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    def call_later(self, delay: float, callback: Callable[[], None]) -> Alarm:
        alarm = _ManualAlarm()
        heapq.heappush(self._due, (self.time + max(0.0, delay), next(self._order), alarm, callback))
        return alarm

    @property
    def pending(self) -> int:
        """How many calls are still to be made."""
        return sum(1 for _, _, a, _ in self._due if not a.cancelled)

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, making every call that falls due."""
        end = self.time + seconds
        while self._due and self._due[0][0] <= end:
            when, _, alarm, callback = heapq.heappop(self._due)
            self.time = max(self.time, when)
            if not alarm.cancelled:
                callback()
        self.time = end


class OptionError(ValueError):
    """A table option a client (or a save) gave that the server refuses."""


def _seconds(data: Mapping[str, Any], key: str, low: float, high: float) -> float | None:
    raw = data.get(key)
    if raw is None:
        return None
    # NaN and the infinities fail the comparison; so does an int of any size.
    if type(raw) not in (int, float) or not low <= raw <= high:
        raise OptionError(f"{key!r} is a number of seconds from {low:g} to {high:g}")
    return float(raw)


@frozen
class TableOptions:
    """How a table is paced and who may see it, chosen at ``create``.

    Attributes:
        pause: seconds to hold the bots after each trick and each hand, until
            every human seat present acknowledges (0: no pause).
        turn_time: a human seat's decision time in seconds (``None``: no timer);
            when it runs out, :attr:`stand_in` plays for the seat.
        stand_in: the bot that plays for a seat whose time ran out (or whose
            player handed it to a bot without naming one).
        private: the table is listed only to the connections at it, and joined
            or watched only with its invitation code.
    """

    pause: float = 0.0
    turn_time: float | None = None
    stand_in: str = DEFAULT_STAND_IN
    private: bool = False

    @classmethod
    def read(cls, data: Mapping[str, Any], bots: Mapping[str, object]) -> TableOptions:
        """The options in a ``create`` message (or a save), each bounded.

        Raises:
            OptionError: for an option of the wrong kind or out of its bounds.
        """
        pause = _seconds(data, "pause", 0.0, MAX_PAUSE) or 0.0
        turn_time = _seconds(data, "turn_time", MIN_TURN_TIME, MAX_TURN_TIME)
        stand_in = data.get("stand_in", DEFAULT_STAND_IN)
        if not isinstance(stand_in, str) or stand_in not in bots:
            raise OptionError("'stand_in' is one of the bots: " + ", ".join(sorted(bots)))
        private = data.get("private", False)
        if type(private) is not bool:
            raise OptionError("'private' is true or false")
        return cls(pause, turn_time, stand_in, private)

    def to_dict(self) -> dict[str, Any]:
        """The options as ``tables``, ``state`` and saves show them."""
        return {
            "pause": self.pause,
            "turn_time": self.turn_time,
            "stand_in": self.stand_in,
            "private": self.private,
        }


@define
class Pause:
    """A table holding its bots after a trick or a hand.

    Attributes:
        after: ``"trick"`` or ``"hand"``.
        until: when it ends anyway (on the hub's clock).
        waiting: the human seats whose acknowledgement it still waits for.
    """

    after: str
    until: float
    waiting: set[int] = field(factory=set)

    def to_dict(self, now: float) -> dict[str, Any]:
        """The pause as ``state`` shows it."""
        return {
            "after": self.after,
            "waiting": sorted(self.waiting),
            "time_left": round(max(0.0, self.until - now), 1),
        }


#: Public events that end a trick, and the one that ends a hand.
_TRICK_ENDS: Final = frozenset({"trick", "dead", "pickup"})
_HAND_ENDS: Final = frozenset({"score"})


def ended_by(game: Game, seen: int) -> tuple[str | None, int]:
    """What the moves since position ``seen`` of the onlookers' stream ended:
    ``"hand"``, ``"trick"`` or ``None`` (nothing, or the game), and the
    stream's length now (to pass as ``seen`` next time)."""
    try:
        new = game.events_for(None, since=seen)
    except ValueError:  # the stream got shorter (a take-back): look at none of it
        return None, len(game.events_for(None))
    if game.is_over:
        return None, seen + len(new)
    kinds = {ev.kind for ev in new}
    if kinds & _HAND_ENDS:
        return "hand", seen + len(new)
    if kinds & _TRICK_ENDS:
        return "trick", seen + len(new)
    return None, seen + len(new)
