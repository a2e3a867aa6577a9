"""The play of a card in a game with a trump order (``_Rules.ranked``).

:meth:`Game.apply <cardrules.engine.game.Game.apply>` plays a legal card inline
with printed suits and aces high; a game whose variant has a trump order sends
each play here instead: the same steps (the trick's running winner, broken
suits, the log, the end of the trick or the next seat) with the hand's
effective suits and powers (:class:`~cardrules.engine.ranks.RankTables`, set by
:func:`~cardrules.engine.ranks._set_trump`). The jokers (cards 52 and 53),
whose action ids are not their card bits, come here by :func:`_play_joker`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.engine.score import _check_hand_score
from cardrules.engine.tables import _BITS, _PLAY, _SUIT_BIT
from cardrules.engine.trick import _finish_trick, _shed_step

if TYPE_CHECKING:
    from cardrules.engine.actions import Play
    from cardrules.engine.game import Game


def _play_joker(g: Game, s: int, action: Play) -> bool:
    """Seat ``s`` plays a joker (``action``), if that is legal now: True when it
    is played. A joker's action id is not its card's bit, so the hot path of
    :meth:`Game.apply <cardrules.engine.game.Game.apply>` never takes it; a pack
    has jokers only in a game with a trump order (``_Rules.ranked``)."""
    c = int(action.card)
    if g._phase != _PLAY or s != g._to_act or not g._legal_mask >> c & 1:
        return False
    _play_ranked(g, s, c)
    return True


def _play_ranked(g: Game, s: int, c: int) -> None:
    """Seat ``s`` plays the legal card ``c`` in a game with a trump order: what
    :meth:`Game.apply <cardrules.engine.game.Game.apply>` does inline, with the
    hand's effective suits and powers (:class:`RankTables`)."""
    t = g._ranks
    suit_of = t.suit_of
    hands = g._hands
    hands[s] ^= _BITS[c]
    trick = g._trick
    suit = suit_of[c]
    if trick:
        best = g._best
        if suit == suit_of[best]:
            if t.power[c] > t.power[best]:
                g._best = c
                g._best_seat = s
        elif suit == g._trump:
            g._best = c
            g._best_seat = s
        led = suit_of[trick[0]]
    else:
        g._best = c
        g._best_seat = s
        g._leader = s
        led = suit
    r = g._r
    if r.track_breaks:
        g._broken_prev = g._broken_suits
        if (
            r.break_any
            or (r.break_void and trick and suit != led and not hands[s] & t.suit_masks[led])
            or (r.break_forced and not trick and g._forced_lead)
        ):
            g._broken_suits |= _SUIT_BIT[suit] | r.break_extra[c]
    trick.append(c)
    g._trick_seats.append(s)
    g._events.append(("play", s, c))
    g._legal = None
    if not r.tricks_mode:
        _shed_step(g, s, c)
    elif len(trick) == g._in_count:
        if r.score_guard and g._tricks_played + 1 == g._size:
            _check_hand_score(g, s, c, g._broken_prev)
        _finish_trick(g)
    else:
        g._to_act = g._nxt[s]
