"""Elimination: players knocked out between hands (``knocked out:``).

Only games whose rules knock players out (``_Rules.knockout`` > 0) come here;
for every other game the engine's state is the one it always was (every seat
dealt to, ``_next_seat`` the geometry's next seat) and none of this runs.

After each hand is scored, :func:`_knock_out` knocks out every seat still in
that took fewer tricks than the rules say (unless that would be every seat
still in: then nobody is), logs ``("knocked out", seat, hand_number)`` for each,
and re-links the order of play so that ``Game._next_seat[s]`` is the next seat still
in after any seat ``s``: the deal, the lead and each next player in a trick
then pass among those still in, with no extra work in the play of a card. A
seat knocked out is dealt no cards (:func:`_seats_in`), so it is ``out`` in
its views, has no legal action, and scores nothing in the later hands.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.engine.events import Entry
from cardrules.engine.state.transitions import log_event

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _seats_in(g: Game, order: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of ``order`` that are still in (not knocked out)."""
    out = g._out
    return tuple(s for s in order if not out[s])


def _knock_out(g: Game) -> None:
    """After a hand is scored: knock out the seats still in that took fewer
    tricks than the rules' number (none if that would be all of them), log
    each, and make the order of play skip them."""
    out = g._out
    tricks = g._tricks
    below = g._rules.knockout
    still = [s for s in range(g._players) if not out[s]]
    losing = [s for s in still if tricks[s] < below]
    if not losing or len(losing) == len(still):
        return
    hn = g._hand_index + 1
    out = g._out = out[:]  # replaced, never changed in place (a clone shares it)
    for s in losing:
        out[s] = True
        log_event(g, ("knocked out", s, hn))
    g._seats_per_trick = len(still) - len(losing)
    order = g._order
    # From every seat (in or out), the next seat still in; a seat alone returns itself.
    g._next_seat = tuple(next(t for t in order[s] if not out[t]) for s in range(g._players))


def _knocked_out(events: list[Entry]) -> tuple[tuple[int, int], ...]:
    """``(seat, hand number)`` for each seat knocked out so far, in order."""
    return tuple((ev[1], ev[2]) for ev in events if ev[0] == "knocked out")
