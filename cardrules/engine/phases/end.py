"""The end of a hand and of the game: the next hand, tie-breaks and the result.

After a hand is scored, :func:`_next_hand` decides what follows: with
``knocked out:``, the seats that took too few tricks are knocked out first
(:func:`~cardrules.engine.phases.knockout._knock_out`) and the game ends when one is
left; then the next hand
of the schedule (unless some running total has reached the rules' target, which
ends the schedule there), a tie-break hand while the leaders are tied (up to the rules'
bound), or the end of the game, finished or not (``max_tricks`` reached, or
still tied at the bound when a tie is not shared). :func:`_game_over` ends the
game and logs the ``"over"`` event: in trick-taking games the winners are the
seats with the best total (:func:`_leaders`); in shedding games everyone but
the loser is safe, and :func:`_most_cards` names the loser when the game ends
as the first player goes out.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.engine.phases.alone import _end_alone
from cardrules.engine.phases.deal import _start_hand
from cardrules.engine.phases.knockout import _knock_out
from cardrules.engine.state.tables import _OVER
from cardrules.engine.state.transitions import enter_phase, give_turn, log_event, set_legal
from cardrules.engine.state.undo import _mark_hand

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _leaders(g: Game) -> list[int]:
    """The seats with the best running total (highest or lowest, as the rules say);
    with ``winner: last one in``, among the seats still in."""
    scores = g._scores
    if g._rules.last_one_in:
        seats = [s for s in range(g._players) if not g._out[s]]
        best = max(scores[s] for s in seats)
        return [s for s in seats if scores[s] == best]
    best = max(scores) if g._rules.higher_wins else min(scores)
    return [s for s in range(g._players) if scores[s] == best]


def _leading_sides(g: Game, leaders: list[int]) -> int:
    """How many sides share the best total: teams, in a game with teams (partners'
    totals are equal), else seats."""
    index = g._rules.team_index
    return len({index[s] for s in leaders}) if index else len(leaders)


def _next_hand(g: Game) -> None:
    """After a hand is scored: the next hand, a tie-break hand or the game's end."""
    # The game's end comes first: reaching max_tricks on its very last trick
    # still finishes it; max_tricks only stops a game with hands to come.
    r = g._rules
    if g._next_seat_all:
        _end_alone(g)
    if r.knockout:
        _knock_out(g)
        if g._seats_per_trick == 1:
            # One player left: the game is over (the last one in, or the best total, wins).
            _game_over(g, finished=True)
            return
    # A target total reached ends the game as the schedule's end would.
    if r.target_by_declarer:
        # Only the declarer's side goes out by reaching the target, and it wins.
        maker = g._maker
        if maker >= 0 and r.target is not None and g._scores[maker] >= r.target:
            _game_over(g, finished=True, winners=_side_of(g, maker))
            return
        reached = r.lose_at is not None and min(g._scores) <= r.lose_at
    else:
        reached = (r.target is not None and max(g._scores) >= r.target) or (
            r.lose_at is not None and min(g._scores) <= r.lose_at
        )
    scheduled = not reached and g._hand_index + 1 < len(g._sizes)
    tied = not scheduled and r.tie_extra and _leading_sides(g, _leaders(g)) > 1
    extra = tied and g._extra < r.max_extra
    if tied and not extra and not r.share_after_extra:
        # Still tied at the safety bound: the game did not reach its end.
        _game_over(g, finished=False)
    elif not (scheduled or extra):
        _game_over(g, finished=True)
    elif g._max_tricks is not None and g._total_tricks >= g._max_tricks:
        _game_over(g, finished=False)
    else:
        if extra:
            g._extra += 1
        _start_hand(g, g._next_seat[g._dealer])
        if g._undo is not None:
            # A game that takes actions back keeps the state at each hand's start
            # (the end of the action that dealt it): see engine/state/undo.py.
            _mark_hand(g)


def _most_cards(g: Game, left: list[int], leader: int) -> int | None:
    """The seat still in with the most cards (a game that ends when the first
    player goes out); a tie as the rules say."""
    counts = [g._hands[s].bit_count() for s in left]
    most = max(counts)
    tied = [s for s, k in zip(left, counts, strict=True) if k == most]
    if len(tied) == 1:
        return tied[0]
    if not g._rules.loser_tie_first_in_turn:
        return None
    order = g._order[leader]  # from the leader's neighbour round to the leader
    return min(tied, key=order.index)


def _side_of(g: Game, s: int) -> list[int]:
    """Seat ``s`` and its partners (in a game with teams), in seat order."""
    for team in g._rules.teams_of(g._players):
        if s in team:
            return sorted(team)
    return [s]


def _game_over(
    g: Game, *, finished: bool, loser: int | None = None, winners: list[int] | None = None
) -> None:
    """End the game (``finished``: it reached its end, rather than a bound) and
    log the ``"over"`` event; nobody may act any more. ``winners``: the seats
    that win whatever the totals (the declarer's side that reached the target,
    ``reached by the declarer only``); else the best totals win."""
    # Shedding: no winner as such; everyone but the loser is safe.
    if winners is not None:
        leaders = winners
    elif g._rules.tricks_mode:
        leaders = _leaders(g)
    else:
        leaders = [s for s in range(g._players) if s != loser]
    won = tuple(leaders) if finished else ()
    g._result = None  # built on demand from the "over" event (see Game.result)
    enter_phase(g, _OVER)
    give_turn(g, -1)
    g._waiting = None
    g._amender = -1
    set_legal(g, (), 0)
    log_event(
        g,
        (
            "over",
            won,
            tuple(g._scores),
            finished and _leading_sides(g, leaders) > 1,
            finished,
            loser,
        ),
    )
