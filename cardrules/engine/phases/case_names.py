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

:func:`_hand_envs` gives the variables each seat's score read, built as the
scoring builds them (:mod:`~cardrules.engine.phases.score` and
:mod:`~cardrules.engine.phases.team_score`): the cases name the hand the score
was given for. Every function takes the game as its first argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardrules.scoring import Value, score_env

if TYPE_CHECKING:
    from cardrules.engine.game import Game

#: One seat's variables: those its own formula read, and those of its side's.
SeatEnvs = tuple[dict[str, Value], dict[str, Value]]
#: One seat's variables, as a hand's record keeps them (never changed).
HandVars = Mapping[str, Value]


def _contract(g: Game) -> tuple[int, bool, bool, bool, int, bool]:
    """The hand's contract, as the team scoring reads it (``bid_level``...)."""
    r = g._rules
    if r.contracts and g._contract >= 0:
        won_bid = r.contracts[g._contract]
        return (
            won_bid.level,
            False,
            g._trump < 0,
            g._misere,
            r.strain_index[won_bid.strain],
            g._open_seat >= 0,
        )
    return (max(0, max(g._bids, default=0)), g._downtown, g._trump < 0, g._misere, -1, False)


def _hand_envs(g: Game, tricks: list[int], won: list[int]) -> list[SeatEnvs]:
    """Each seat's variables for the hand just played, with ``tricks`` scored
    and the cards of ``won`` (masks): its own (the ``score:`` formula's) and its
    side's (the ``team score:`` formula's, the team counting as one player),
    the counters as they stood before the hand."""
    r = g._rules
    n = g._players
    hn = g._hand_index + 1
    size = g._size
    taken = [r.card_points_of(w) for w in won] if r.card_points else [0] * n
    everyone = sum(taken)
    most = max(taken)
    bids = [b if b > 0 else 0 for b in g._bids]
    maker = g._maker
    teams = r.teams_of(n)
    makers = next((t for t in teams if maker in t), ())
    maker_tricks = sum(tricks[s] for s in makers)
    contract = _contract(g)
    out: list[SeatEnvs] = [({}, {})] * n
    for team in teams:
        tb = sum(bids[s] for s in team)
        tt = sum(tricks[s] for s in team)
        tp = sum(taken[s] for s in team)
        made = team == makers
        held = dict(zip(r.counter_names, g._counters[team[0]], strict=True))
        lone = made and g._alone >= 0
        lone_defence = g._defender >= 0 and g._defender in team
        side = score_env(
            bid=tb,
            tricks=tt,
            cards=size,
            hand=hn,
            players=n,
            blind=any(g._blind[s] for s in team),
            points=tp,
            all_points=everyone,
            most_points=most,
            counters=held,
            maker=made,
            maker_tricks=maker_tricks,
            alone=lone,
            defended_alone=lone_defence,
            contract=contract,
        )
        for s in team:
            own = score_env(
                bid=bids[s],
                tricks=tricks[s],
                cards=size,
                hand=hn,
                players=n,
                blind=g._blind[s],
                points=taken[s],
                all_points=everyone,
                most_points=most,
                team_bid=tb,
                team_tricks=tt,
                team_points=tp,
                counters=held,
                maker=made,
                maker_tricks=maker_tricks,
                alone=lone,
                defended_alone=lone_defence,
                contract=contract,
            )
            out[s] = (own, side)
    return out


def _hand_record(g: Game, tricks: list[int], won: list[int]) -> tuple[HandVars | None, ...]:
    """What the cases of the hand just played are named from: each seat's own
    variables (``None`` for a seat knocked out before the hand, which has no
    hand). The words are worked out only when asked for
    (:meth:`Game.hand_cases <cardrules.engine.game.Game.hand_cases>`), so a
    game pays one building of the variables per hand, not the naming."""
    knocked = g._out if g._rules.knockout else [False] * g._players
    return tuple(
        None if out else own
        for (own, _), out in zip(_hand_envs(g, tricks, won), knocked, strict=True)
    )
