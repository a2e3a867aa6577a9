"""Going alone (``going alone: yes``): the maker of trumps plays without a partner.

Only games whose compiled rules say ``_Rules.going_alone`` come here; for every
other game none of this runs and the state is the one it always was.

Once trumps are made (and the dealer has discarded, when the card was ordered
up), the maker chooses :class:`~cardrules.engine.actions.Alone` or
:class:`~cardrules.engine.actions.WithPartner` (the trumps phase's last stage,
:data:`~cardrules.engine.phases.trumps._LONE`). Alone, :func:`_go_alone` sits the
maker's partners out for the hand: ``Game._alone`` is the maker, the order of
play (``Game._next_seat``) and the seats in the hand (``Game._seats``) skip the
partners, and a trick is complete at one card fewer (``Game._seats_per_trick``), so
the play of a card does no extra work. The partners keep their dealt cards,
face down and unplayed; they are not out of the game. When the hand has been
scored, :func:`_end_alone` restores the order of play (saved in
``Game._next_seat_all``) before the next dealer is found. The choice is logged
like every action of the trumps phase, as ``("call", seat, Alone())``.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _partners(g: Game, s: int) -> tuple[int, ...]:
    """The partners of seat ``s`` (its team without it)."""
    for team in g._rules.teams_of(g._players):
        if s in team:
            return tuple(t for t in team if t != s)
    return ()


def _go_alone(g: Game, s: int) -> None:
    """Seat ``s``, the maker, plays alone: its partners sit this hand out."""
    g._alone = s
    _sit_out(g, _partners(g, s))


def _defend_alone(g: Game, s: int) -> None:
    """Seat ``s``, a defender, defends alone against the lone maker
    (``defending alone: yes``): its partners sit this hand out too."""
    g._defender = s
    _sit_out(g, _partners(g, s))


def _defenders(g: Game) -> tuple[int, ...]:
    """The defenders still in the hand, in turn from the lone maker's left."""
    out = []
    x = g._next_seat[g._alone]
    maker_team = set(_partners(g, g._alone)) | {g._alone}
    while x != g._alone:
        if x not in maker_team:
            out.append(x)
        x = g._next_seat[x]
    return tuple(out)


def _sit_out(g: Game, away: tuple[int, ...]) -> None:
    """The seats ``away`` sit this hand out: the order of play, the seats in the
    hand and the cards a trick takes leave them out (the full order of play is
    kept for the next hand)."""
    if not away:
        return
    nxt = g._next_seat
    if not g._next_seat_all:
        g._next_seat_all = nxt
    skip = []
    for t in range(g._players):
        x = nxt[t]
        while x in away and x != t:
            x = nxt[x]
        skip.append(x)
    g._next_seat = tuple(skip)
    g._seats = tuple(t for t in g._seats if t not in away)
    g._seats_per_trick -= sum(1 for t in away if g._hands[t])


def _end_alone(g: Game) -> None:
    """After a hand played alone is scored: the partners are back in the order
    of play (the hand's own state is reset by the next deal)."""
    if g._next_seat_all:
        g._next_seat = g._next_seat_all
        g._next_seat_all = ()
