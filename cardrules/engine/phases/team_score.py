"""Scoring by team, and the counters kept across hands.

Used only when the rules have teams, a ``team score:`` formula or counters
(``_Rules.team_scoring``); other games score seat by seat in
:mod:`cardrules.engine.phases.score`, with no work added.

A hand is scored team by team (without teams, every seat is a team of one):
each partner's ``score:`` formula, with the seat's own bid and tricks and its
team's, and the team's ``team score:`` formula once, the team counting as one
player; every partner scores the sum, so partners' running totals stay equal.
Who made trumps is read by team: in both formulas ``maker`` is true for every
seat of the team of the player who made trumps, and ``maker_tricks`` is the
tricks that team took. Questions about the cards taken (``took J♦``) are
about the seat's own cards in ``score:`` and about the team's in ``team score:``
and the counters (``anyone``: some seat, or some team).
Then each team's counters are worked out from their values before the hand
(which the score formulas read too), rounded down to whole numbers and kept
within :data:`~cardrules.scoring.COUNTER_BOUND`.

Every function takes the game as its first argument.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from cardrules.engine.state.compiled_rules import Num
from cardrules.errors import CardrulesError, ScoreError
from cardrules.scoring import COUNTER_BOUND, Formula, Value, score_env

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _value(g: Game, f: Formula, env: Mapping[str, Value], what: str) -> Fraction:
    """``f`` worked out, its failures as ScoreError naming the game and the hand."""
    try:
        return f.evaluate(env)
    except CardrulesError as exc:
        raise ScoreError(
            f"{g._variant.name}, hand {g._hand_index + 1}: {what}: {getattr(exc, 'message', exc)}",
            formula=f.text,
        ) from None


def _num(x: Fraction) -> Num:
    return x.numerator if x.denominator == 1 else x


def _cards_of(team: tuple[int, ...], won: list[int]) -> int:
    """The cards the seats of ``team`` won, together (a mask)."""
    cards = 0
    for s in team:
        cards |= won[s]
    return cards


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


def _team_hand(
    g: Game, tricks: list[int], won: list[int]
) -> tuple[list[Num], list[tuple[int, ...]]]:
    """Each seat's points for this hand (its team's), and each seat's counters
    after it (its team's), from the tricks and the cards won (masks) of each seat.

    Raises:
        ScoreError: if a formula cannot be worked out.
    """
    r = g._rules
    n = g._players
    points: list[Num] = [0] * n
    after: list[tuple[int, ...]] = [()] * n
    teams = r.teams_of(n)
    envs = _hand_envs(g, tricks, won)
    asks = bool(r.card_questions)
    # Each team's cards, for the team formulas' questions about the cards taken.
    sides = [_cards_of(team, won) for team in teams] if asks else []
    for team in teams:
        total = Fraction(0)
        if r.formula is not None:
            for s in team:
                env = envs[s][0]
                if asks:  # a copy: the hand's record keeps the variables as they were
                    env = dict(env)
                    env.update(r.card_answers(won[s], won))
                total += _value(g, r.formula, env, f"the score of seat {s + 1}")
        team_env = envs[team[0]][1]
        if asks:
            team_env = dict(team_env)
            team_env.update(r.card_answers(_cards_of(team, won), sides))
        if r.team_formula is not None:
            total += _value(g, r.team_formula, team_env, "the team score")
        values = tuple(
            max(-COUNTER_BOUND, min(COUNTER_BOUND, math.floor(_value(g, f, team_env, name))))
            for name, f in r.counters
        )
        for s in team:
            points[s] = _num(total)
            after[s] = values
    return points, after
