"""Scoring a hand: each seat's points, the guard on the totals, the ``"score"`` event.

Games with teams, a team score or counters are scored by
:func:`~cardrules.engine.phases.team_score._team_hand` instead (behind the compiled flag
``_Rules.team_scoring``), which also gives the counters after the hand, logged
as a ``"counters"`` event after the ``"score"`` one.

:func:`_hand_points` gives each seat's points for the hand from its bid (none:
0), its tricks, the card points it took (when the cards carry points: from the
cards it won) and the compiled rules' formula (read from the rules' score
cache when there). :func:`_end_hand` adds them to the running totals, logs the
``"score"`` event and moves on (:func:`~cardrules.engine.phases.end._next_hand`).

With a formula that can give fractions (``_Rules.score_guard``), the totals
are checked before the last trick of a hand is gathered
(:func:`_check_hand_score`): if a total could not be kept, the card just played
is taken back and :class:`~cardrules.errors.ScoreError` raised, so the game is
unchanged.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardrules.engine.phases.case_names import _hand_record
from cardrules.engine.phases.end import _next_hand
from cardrules.engine.phases.play import _take_back_play
from cardrules.engine.phases.team_score import _team_hand
from cardrules.engine.state.compiled_rules import Num
from cardrules.engine.state.transitions import log_event
from cardrules.errors import ScoreError
from cardrules.scoring import check_total

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _hand_points(g: Game, tricks: list[int], won: list[int]) -> list[Num]:
    """Each seat's points for this hand with ``tricks`` taken, and the cards of
    ``won`` (masks, seat by seat: read only with card points); ScoreError if the
    formula cannot give them. A seat knocked out before this hand (dealt
    nothing) scores 0."""
    r = g._rules
    if r.knockout:
        points = _seat_points(g, tricks, won)
        return [0 if out else p for p, out in zip(points, g._out, strict=True)]
    return _seat_points(g, tricks, won)


def _seat_points(g: Game, tricks: list[int], won: list[int]) -> list[Num]:
    """:func:`_hand_points` of every seat, by the formula."""
    r = g._rules
    if r.team_scoring:
        return _team_hand(g, tricks, won)[0]
    if r.card_points or r.maker_vars or r.card_questions:
        return _hand_points_with_cards(g, tricks, won)
    n = g._players
    hn = g._hand_index + 1
    size = g._size
    points: list[Num] = []
    bids = g._bids
    blind = g._blind
    cache = r.score_cache
    for s in range(n):
        b = bids[s]
        if b < 0:
            b = 0
        t = tricks[s]
        bl = blind[s]
        p = cache.get((b, t, size, hn, n, bl))
        if p is None:
            p = r.points(b, t, size, hn, n, bl)
        points.append(p)
    return points


def _hand_points_with_cards(g: Game, tricks: list[int], won: list[int]) -> list[Num]:
    """:func:`_hand_points` for a game whose cards carry points (each seat's
    points, everyone's and the most one seat took go into the formula), whose
    formula reads who made trumps (``maker``, ``maker_tricks``) or asks which
    cards were taken (``took J♦``, ``points of diamonds``: answered from ``won``)."""
    r = g._rules
    n = g._players
    hn = g._hand_index + 1
    cards = bool(r.card_points)
    taken = [r.card_points_of(w) for w in won] if cards else [0] * n
    everyone = sum(taken)
    most = max(taken)
    maker = g._maker
    made: list[tuple[bool, int] | None] = [None] * n
    if r.maker_vars:
        made_tricks = tricks[maker] if maker >= 0 else 0
        made = [(s == maker, made_tricks) for s in range(n)]
    return [
        r.points(
            max(g._bids[s], 0),
            tricks[s],
            g._size,
            hn,
            n,
            g._blind[s],
            (taken[s], everyone, most) if cards else None,
            made[s],
            r.card_answers(won[s], won) if r.card_questions else (),
        )
        for s in range(n)
    ]


def _check_hand_score(g: Game, s: int, c: int, broken_before: int) -> None:
    """Before the last trick of a hand is gathered, with a formula that can
    give fractions: score the hand and check the new totals; if they cannot
    be kept (ScoreError), take back the card ``s`` just played (and the suits
    it broke: ``broken_before``), so that the game is unchanged, and raise."""
    tricks = g._tricks[:]
    tricks[g._winning_seat] += 1
    if g._rules.kitty_trick and g._maker >= 0:
        tricks[g._maker] += 1
    won = g._won[:]
    for card in g._trick:
        won[g._winning_seat] |= 1 << card
    try:
        points = _hand_points(g, tricks, won)
        for seat, (old, p) in enumerate(zip(g._scores, points, strict=True)):
            check_total(old + p, seat=seat, hand=g._hand_index + 1, formula=g._rules.formula)
    except ScoreError:
        _take_back_play(g, s, c)
        g._broken_suits = broken_before
        raise


def _end_hand(g: Game) -> None:
    """Score the hand that has just ended, log it, and go on to what follows."""
    hn = g._hand_index + 1
    # Replaced, never changed in place: a clone shares the list (slots.py).
    scores = g._scores[:]
    tricks = g._tricks
    r = g._rules
    scored = tricks
    if r.kitty_trick and g._maker >= 0:
        # The declarer's discards count as one trick it took (``kitty:``) for
        # the score; the log keeps the tricks taken in play.
        scored = tricks[:]
        scored[g._maker] += 1
    if r.score_cases:
        # What the hand's cases (``case``) are named from, before the counters change.
        g._hand_cases = (*g._hand_cases, (hn, _hand_record(g, scored, g._won)))
    if r.team_scoring:
        points, g._counters = _team_hand(g, scored, g._won)
    else:
        points = _hand_points(g, scored, g._won)
    for s, p in enumerate(points):
        scores[s] += p
    g._scores = scores
    log_event(g, ("score", hn, tuple(g._bids), tuple(tricks), points, tuple(scores)))
    if r.counters:
        log_event(g, ("counters", hn, r.counter_names, tuple(g._counters)))
    _next_hand(g)


def running_scores(g: Game) -> Sequence[Num]:
    """Each seat's score as the engine keeps it (ints, or Fractions when points
    are fractional; not a copy: read it, never change it): a cheap comparison
    for a caller that asks after every action whether a hand was scored
    (:attr:`Game.scores` builds a tuple of Fractions)."""
    return g._scores
