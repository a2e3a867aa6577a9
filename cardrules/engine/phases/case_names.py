"""The words of a hand's score: the cases each seat's hand fell in (``case``).

A variant file may name the cases of its score in the game's own words
(:class:`~cardrules.rules.ScoreCase`: "shot the moon", "nil failed",
"march"). When a hand is scored, the score phase
(:func:`~cardrules.engine.phases.score._end_hand`) asks :func:`_hand_record`
for the variables each seat's hand was scored with and keeps them in
``Game._hand_cases``; :meth:`Game.hand_cases
<cardrules.engine.game.Game.hand_cases>` (and :attr:`View.last_hand
<cardrules.engine.views.view.View.last_hand>`) names the cases from them. No
event changes, and a game whose file names no case never comes here.

:func:`~cardrules.engine.phases.team_score._hand_envs` gives the variables
each seat's score read, the very ones the team scoring reads: the cases name
the hand the score was given for. Every function takes the game as its first argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardrules.engine.phases.team_score import SeatEnvs, _hand_envs
from cardrules.scoring import Value

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = ["HandVars", "SeatEnvs"]

#: One seat's variables, as a hand's record keeps them (never changed).
HandVars = Mapping[str, Value]


def _hand_record(g: Game, tricks: list[int], won: list[int]) -> tuple[HandVars | None, ...]:
    """What the cases of the hand just played are named from: each seat's own
    variables (``None`` for a seat knocked out before the hand, which has no
    hand). The words are worked out only when asked for
    (:meth:`Game.hand_cases <cardrules.engine.game.Game.hand_cases>`), so a
    game pays one building of the variables per hand, not the naming."""
    r = g._rules
    knocked = g._out if r.knockout else [False] * g._players
    envs = _hand_envs(g, tricks, won)
    if r.case_questions:
        # The cases ask about the cards each seat took (``took J♦``): their answers too.
        return tuple(
            None if out else {**own, **dict(r.card_answers(won[s], won, r.case_questions))}
            for s, ((own, _), out) in enumerate(zip(envs, knocked, strict=True))
        )
    return tuple(None if out else own for (own, _), out in zip(envs, knocked, strict=True))
