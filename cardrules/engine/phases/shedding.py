"""Two rules of shedding games beyond the trick itself: "the power" and taking a hand.

* The power (``leader out: draws a dead card``): when the player whose card
  took a dead trick has no cards left, they do not go out. :func:`_draw_card`
  picks a card at random from the dead tricks played before that one (the
  choice follows from the game's seed, the hand and the trick, so saves and
  replays draw the same card), and :func:`_lead_drawn` leads it at once: it is
  face up in the new trick before anyone may act, so no view ever shows it in a
  hand. The trick itself is :mod:`~cardrules.engine.phases.trick`'s
  (:func:`~cardrules.engine.phases.trick._shed_step`).
* Taking a hand (``take a hand from:``): a player about to lead a trick, any
  but the game's first, may first take every card of a neighbour still in (the
  next or the previous player, as the rules say), once per lead: the
  :class:`~cardrules.engine.actions.Take` action (:func:`_may_take`, and
  :func:`~cardrules.engine.phases.trick._try_take`, which makes it). The neighbour is
  out and safe; the taker then leads.

Every function takes the game as its first argument.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Final

from cardrules.engine.actions import Take
from cardrules.engine.state.tables import _BITS, _PLAY, _SUIT_BIT, _SUIT_OF
from cardrules.engine.state.transitions import forget_legal, give_turn, log_event

if TYPE_CHECKING:
    from cardrules.engine.game import Game

#: The interned Take action.
_TAKE: Final = Take()


def _draw_card(g: Game, pool: int) -> int:
    """A card drawn at random from the mask ``pool`` (not empty): the same card
    for the same seed, hand and trick, so a restored game draws it too. A game
    given its draws (a replayed log, a record without its seed) draws those
    while they last, each one that is in ``pool`` (the loader of a record checks
    that the game drew what the record says)."""
    forced = g._draws
    if forced:
        k = sum(1 for ev in g._events if ev[0] == "draw")
        if k < len(forced) and pool >> forced[k] & 1:
            return forced[k]
    key = b"cardrules:draw:%d:%d:%d" % (g._seed, g._hand_index, g._total_tricks)
    k = int.from_bytes(hashlib.shake_128(key).digest(16), "big") % pool.bit_count()
    for _ in range(k):
        pool &= pool - 1
    return (pool & -pool).bit_length() - 1


def _lead_drawn(g: Game, s: int, c: int) -> None:
    """Seat ``s``, holding no cards, leads the card ``c`` drawn from the dead
    tricks: it leaves the dead cards and opens the next trick."""
    bit = _BITS[c]
    g._dead &= ~bit
    dead_by = g._dead_by = g._dead_by[:]  # replaced, never changed in place (slots.py)
    for seat in range(g._players):
        dead_by[seat] &= ~bit
    log_event(g, ("draw", s, c))
    g._trick = [c]
    g._trick_seats = [s]
    g._winning_card = c
    g._winning_seat = s
    g._leader = s
    r = g._rules
    if r.track_breaks:
        # A drawn card is a forced lead, and a play.
        g._broken_prev = g._broken_suits
        if r.break_any or r.break_forced:
            g._broken_suits |= _SUIT_BIT[_SUIT_OF[c]] | r.break_extra[c]
    t = g._next_seat[s]
    out = g._out
    while out[t]:
        t = g._next_seat[t]
    give_turn(g, t)
    forget_legal(g)


def _neighbour(g: Game, s: int) -> int:
    """The seat still in whose hand seat ``s`` may take (the rules' neighbour)."""
    out = g._out
    if g._rules.take_hand == 1:
        t = g._next_seat[s]
        while out[t]:
            t = g._next_seat[t]
        return t
    back = -1 if g._rules.clockwise else 1
    n = g._players
    t = (s + back) % n
    while out[t]:
        t = (t + back) % n
    return t


def _why_not_take(g: Game, s: int) -> tuple[str, str] | None:
    """Why seat ``s`` may not take a hand now, as an error code and a message
    (``None``: it may)."""
    if not g._rules.take_hand:
        return "not_in_variant", "this game has no taking of hands (`take a hand from:`)"
    if g._phase != _PLAY:
        return "not_in_phase", "a hand may be taken only during the play"
    if s != g._to_act:
        return "not_your_turn", f"it is seat {g._to_act}'s turn, not seat {s}'s"
    if g._trick:
        return (
            "cannot_take",
            "a hand may be taken only by the player about to lead, before the lead",
        )
    if not g._tricks_played:
        return (
            "cannot_take",
            "no hand may be taken before the first trick of the game is played",
        )
    if g._events[-2][0] == "take":  # ("take", ...), ("out", neighbour): this lead's take
        return (
            "cannot_take",
            "this player has just taken a hand, and leads now (one hand per lead)",
        )
    return None


def _may_take(g: Game) -> bool:
    """Whether the seat to act may take a hand now."""
    return _why_not_take(g, g._to_act) is None
