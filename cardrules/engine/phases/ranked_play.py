"""The play of a joker (cards 52 and 53, in a game with a trump order).

A joker's action id is not its card's bit, so :meth:`Game.apply
<cardrules.engine.game.Game.apply>`'s hot path never takes it: the slow path
sends it here, and a legal joker is played as every card is, by
:func:`~cardrules.engine.phases.trick._play_card` (which reads the hand's effective
suits and powers, :class:`~cardrules.engine.state.ranks.RankTables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.engine.phases.trick import _play_card
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
    _play_card(g, s, c)
    return True
