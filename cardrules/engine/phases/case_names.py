"""The words of a hand's score: the cases each seat's hand fell in (``case``).

A variant file may name the cases of its score in the game's own words
(:class:`~cardrules.rules.ScoreCase`: "shot the moon", "nil failed",
"march"). When a hand is scored, the score phase
(:func:`~cardrules.engine.phases.score._end_hand`) asks :func:`_hand_cases`
for the words of each seat's hand and keeps them in ``Game._hand_cases``, which
:meth:`Game.hand_cases <cardrules.engine.game.Game.hand_cases>` and
:attr:`View.last_hand <cardrules.engine.views.view.View.last_hand>` read. No
event changes, and a game whose file names no case never comes here.

:func:`_hand_envs` gives the variables each seat's score read, built as the
scoring builds them (:mod:`~cardrules.engine.phases.score` and
:mod:`~cardrules.engine.phases.team_score`): the cases name the hand the score
was given for. Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.score_cases import name_hand
from cardrules.scoring import Value, score_env

if TYPE_CHECKING:
    from cardrules.engine.game import Game

#: One seat's variables: those its own formula read, and those of its side's.
SeatEnvs = tuple[dict[str, Value], dict[str, Value]]


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


def _hand_cases(g: Game, tricks: list[int], won: list[int]) -> tuple[tuple[str, ...], ...]:
    """The words of the cases each seat's hand fell in (a seat knocked out
    before the hand: none), every case that holds, in the file's order."""
    r = g._rules
    cases = r.score_cases
    names = r.counter_names
    knocked = g._out if r.knockout else [False] * g._players
    return tuple(
        () if out else name_hand(cases, own, names)
        for (own, _), out in zip(_hand_envs(g, tricks, won), knocked, strict=True)
    )
