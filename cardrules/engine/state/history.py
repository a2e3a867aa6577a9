"""A game's history: a player's take-back is a step of the game, appended.

The log (``Game._events``) is the current line of play: :meth:`Game.undo`
(the engine's exact unmake, for search) and a player's take-back both shorten
it. The streams of :meth:`Game.events_for` promise more: they only grow. So a
player's take-back (:meth:`Game.take_back`) is kept, as state of the game, in
a :class:`History`: the *history log* is the log as it was up to the last
take-back (the entries undone included), each take-back's entry
``("take back", seat, undone versions, agreeing seats, length of the log
after it)``, then the log from that length on. Every stream (each seat's, the
onlookers', the all-seeing :attr:`Game.events`) is built from the history
log: the entries a take-back undid stay in it (they happened), followed by a
:class:`~cardrules.engine.events.TakeBackEvent`, followed by what is played
next; :func:`current_line` applies the take-backs to a stream.

:attr:`Game.version` counts the steps of the history: the actions applied
(those taken back too) and the take-backs made, so it strictly increases as
the game goes on. A game no one took anything back in has no history
(``None``): its streams, versions and saves are what they always were.

:meth:`Game.undo` never touches the history (it unmakes the last action, to
the game as it was before it), and refuses to go back past the last take-back
(a take-back is not undone; :class:`~cardrules.errors.NothingToUndo`).

Bounds: a stranger could take back and play again forever, so a game allows
at most :data:`MAX_TAKE_BACKS` take-backs, taking back at most
:data:`MAX_TAKEN_BACK_ACTIONS` actions in all and :data:`MAX_SPAN` at once;
beyond, :meth:`Game.take_back` refuses with the code ``take_back_limit``.
What the history keeps is bounded with them (its saved form is at most about
100 kB), so that every save stays within
:data:`~cardrules.engine.state.saves.MAX_SAVE_BYTES`.

This module imports no other engine module but the events' (the game, the
take-backs of :mod:`~cardrules.engine.state.undo` and the saves call it).

Example:
    >>> import cardrules
    >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
    >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1,
    ...                    take_backs="until the next player acts")
    >>> seat = g.to_act
    >>> g.apply(g.legal_actions()[0], seat)
    >>> seen = g.events_for(0)
    >>> g.take_back(seat)
    (Bid(0),)
    >>> g.events_for(0)[: len(seen)] == seen, g.version
    (True, 2)
    >>> g.events_for(0)[-1].to_dict()
    {'kind': 'take back', 'version': 2, 'seat': 0, 'undone': [1], 'agreed': [], 'entries': 1}
    >>> current_line(g.events_for(0)) == current_line(seen)[:-1]
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from cardrules.engine.events import ACTION_KINDS, TAKE_BACK, Entry
from cardrules.engine.views.event_types import MAX_ITEMS, Event, TakeBackEvent
from cardrules.errors import NothingToUndo, TakeBackRefused

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = [
    "MAX_SPAN",
    "MAX_TAKEN_BACK_ACTIONS",
    "MAX_TAKE_BACKS",
    "History",
    "current_line",
]

#: The most take-backs one game allows.
MAX_TAKE_BACKS: Final = 1000
#: The most actions one game allows to be taken back, in all its take-backs.
MAX_TAKEN_BACK_ACTIONS: Final = 10_000
#: The most actions one take-back may undo (a record's list holds at most this many).
MAX_SPAN: Final = MAX_ITEMS

#: One take-back as a save keeps it: the seat, the seats that agreed, how many
#: actions the log kept, and the entries of the actions undone, in the order
#: they were made (:func:`~cardrules.engine.state.saves._save_text` writes them).
SavedTakeBack = tuple[int, tuple[int, ...], int, tuple[Entry, ...]]


class History:
    """What a game's take-backs keep (never changed: a take-back makes a new
    one, so clones share it).

    Attributes:
        past: the history log up to and including the last take-back's entry.
        base: the length of the log after the last take-back: the history log
            is ``past`` then the log from ``base`` on.
        line_versions: the version of each of the log's first actions, up to
            ``base`` (the later ones follow from ``offset``).
        offset: :attr:`Game.version` less the number of actions in the log:
            the actions taken back and the take-backs made.
        count: the take-backs made.
        undone: the actions taken back, in all.
        saved: each take-back, as a save writes it (:data:`SavedTakeBack`).
    """

    __slots__ = ("base", "count", "line_versions", "offset", "past", "saved", "undone")

    def __init__(
        self,
        past: tuple[Entry, ...],
        base: int,
        line_versions: tuple[int, ...],
        offset: int,
        count: int,
        undone: int,
        saved: tuple[SavedTakeBack, ...],
    ) -> None:
        self.past = past
        self.base = base
        self.line_versions = line_versions
        self.offset = offset
        self.count = count
        self.undone = undone
        self.saved = saved

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        return self.base == other.base and self.past == other.past

    def __hash__(self) -> int:
        return hash((self.base, len(self.past)))

    def log(self, events: list[Entry]) -> list[Entry]:
        """The history log, given the game's log (a new list)."""
        out = list(self.past)
        out.extend(events[self.base :])
        return out


def history_log(g: Game) -> list[Entry]:
    """``g``'s history log: its log itself when nothing was ever taken back."""
    h = g._history
    return g._events if h is None else h.log(g._events)


def _action_positions(events: Sequence[Entry]) -> list[int]:
    return [i for i, ev in enumerate(events) if ev[0] in ACTION_KINDS]


def check_undo(g: Game) -> None:
    """:meth:`Game.undo` may not go back past the last take-back: NothingToUndo."""
    h = g._history
    if h is None:
        return
    events = g._events
    for i in range(len(events) - 1, -1, -1):
        if events[i][0] in ACTION_KINDS:
            if i < h.base:
                raise NothingToUndo(
                    "there is nothing to undo since the last take-back "
                    "(a take-back is never undone)"
                )
            return


def over_limit(g: Game, span: int) -> str | None:
    """Why ``g`` may not make one more take-back, of ``span`` actions (a bound
    of this module), or None."""
    h = g._history
    made, undone = (0, 0) if h is None else (h.count, h.undone)
    why = None
    if made >= MAX_TAKE_BACKS:
        why = f"this game has had {MAX_TAKE_BACKS:,} take-backs, the most it allows"
    elif undone + span > MAX_TAKEN_BACK_ACTIONS:
        why = (
            f"this game has taken back {undone:,} actions; it allows at most "
            f"{MAX_TAKEN_BACK_ACTIONS:,} in all"
        )
    elif span > MAX_SPAN:
        why = f"a take-back undoes at most {MAX_SPAN:,} actions, not {span:,}"
    return why


def limit_refusal(g: Game, seat: int, span: int) -> TakeBackRefused | None:
    """The refusal (code ``take_back_limit``) of a take-back by ``seat`` of
    ``span`` actions past the bounds of this module, or None."""
    why = over_limit(g, span)
    if why is None:
        return None
    h = g._history
    made, undone = (0, 0) if h is None else (h.count, h.undone)
    return TakeBackRefused(
        f"seat {seat} may not take back its last action: {why}",
        code="take_back_limit",
        data={"seat": seat, "action": "take back", "take_backs": made, "taken_back": undone},
    )


def begin_take_back(g: Game, seat: int, span: int) -> list[Entry]:
    """Check that ``g`` may make one more take-back, of ``span`` actions, and
    return its log as it is (for :func:`end_take_back`).

    Raises:
        TakeBackRefused: code ``take_back_limit``, past a bound of this module.
    """
    refusal = limit_refusal(g, seat, span)
    if refusal is not None:
        raise refusal
    return g._events[:]


def end_take_back(g: Game, before: list[Entry], seat: int, agreed: tuple[int, ...]) -> None:
    """Append to ``g``'s history the take-back by ``seat`` that made its log
    ``before`` what it is now (the seats ``agreed`` consented)."""
    h = g._history
    events = g._events
    length = len(events)
    assert before[:length] == events, "a take-back only shortens the log"
    positions = _action_positions(before)
    kept = sum(1 for i in positions if i < length)
    if h is None:
        past: tuple[Entry, ...] = ()
        base = offset = made = undone = 0
        line_versions: tuple[int, ...] = ()
        saved: tuple[SavedTakeBack, ...] = ()
    else:
        past, base, line_versions = h.past, h.base, h.line_versions
        offset, made, undone, saved = h.offset, h.count, h.undone, h.saved
    versions = [
        line_versions[k] if k < len(line_versions) else k + 1 + offset
        for k in range(len(positions))
    ]
    count = len(positions) - kept
    marker = (TAKE_BACK, seat, tuple(versions[kept:]), agreed, length)
    taken = tuple(before[i] for i in positions[kept:])
    g._history = History(
        past=(*past, *before[base:], marker),
        base=length,
        line_versions=tuple(versions[:kept]),
        offset=offset + count + 1,
        count=made + 1,
        undone=undone + count,
        saved=(*saved, (seat, agreed, kept, taken)),
    )


def current_line(stream: Sequence[Event]) -> list[Event]:
    """A stream with its take-backs applied: each
    :class:`~cardrules.engine.events.TakeBackEvent` removes itself and the
    ``entries`` entries before it that are still in the line. What is left is
    the stream of the game as it now stands (its entries keep the versions at
    which they happened).

    Args:
        stream: a stream from :meth:`Game.events_for` or :attr:`Game.events`
            (or any part of one that starts at its beginning).

    Example:
        >>> from cardrules.cards import card
        >>> from cardrules.engine.events import PlayEvent
        >>> a = PlayEvent(version=1, seat=0, card=card("A♠"))
        >>> b = PlayEvent(version=2, seat=1, card=card("K♠"))
        >>> back = TakeBackEvent(version=3, seat=1, undone=(2,), agreed=(), entries=1)
        >>> current_line([a, b, back]) == [a]
        True
    """
    line: list[Event] = []
    for ev in stream:
        if isinstance(ev, TakeBackEvent):
            del line[max(0, len(line) - ev.entries) :]
        else:
            line.append(ev)
    return line
