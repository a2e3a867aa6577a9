"""The play of a joker (cards 52 and 53, in a game with a trump order).

In a hand without trumps of a game whose jokers are then the highest cards
(``jokers without trumps: highest card``), a joker played to a trick wins it,
and a joker led is followed by its player's naming of the suit it stands for
(:func:`~cardrules.engine.phases.trumps._open_joker_suit`).

A joker's action id is not its card's bit, so :meth:`Game.apply
<cardrules.engine.game.Game.apply>`'s hot path never takes it: the slow path
sends it here, and a legal joker is played as every card is, by
:func:`~cardrules.engine.phases.trick._play_card` (which reads the hand's effective
suits and powers, :class:`~cardrules.engine.state.ranks.RankTables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.engine.phases.trick import _play_card, _play_highest_joker
from cardrules.engine.phases.trumps import _open_joker_suit
from cardrules.engine.state.tables import _PLAY

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
    if g._trump < 0 and c < 54 and g._rules.joker_highest:
        # A hand without trumps, whose jokers are the highest cards.
        led = not g._trick
        _play_highest_joker(g, s, c)
        if led and g._trick:
            _open_joker_suit(g, s)
        return True
    _play_card(g, s, c)
    return True
