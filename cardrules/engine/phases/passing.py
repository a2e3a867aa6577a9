"""Passing cards before the play (``pass: 3 cards left, right, across, none``).

After the deal, and before any bidding, a hand whose entry of the rules' pass
cycle names a direction starts with the pass (:func:`_start_passing`): every
seat chooses its cards *at the same time*, one :class:`~cardrules.engine.actions.Pass`
at a time, as in a simultaneous bidding (``waiting_for`` has every seat that has
not chosen all its cards; :attr:`Game.to_act` is the first of them in order from
the dealer's neighbour, and ``legal_actions(seat)`` answers for any waiting seat).
The legal passes of a seat are the cards of its hand it has not chosen yet
(:func:`_pass_options`). Chosen cards stay in the chooser's hand until every
seat has chosen; then they change hands all at once (:func:`_exchange`), the
``"exchange"`` event is logged, and the bidding (or, without bids, the play)
starts.

Directions are relative to the direction of play: ``left`` is the next seat
to play after you, ``right`` the seat that plays before you, ``across`` the
seat half-way round (even numbers of players only), i.e. 1, ``n - 1`` and
``n // 2`` seats along (:meth:`~cardrules.engine.state.compiled_rules._Rules.pass_offset`).

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from cardrules.cards import CARDS
from cardrules.engine.actions import Action, Pass
from cardrules.engine.phases.bidding import _no_bids_yet, _start_bidding
from cardrules.engine.phases.play import _start_play
from cardrules.engine.state.tables import _BITS, _PASS
from cardrules.engine.state.transitions import (
    enter_phase,
    forget_legal,
    forget_legal_cards,
    give_turn,
    log_event,
)
from cardrules.engine.views.refusals import _refusal

if TYPE_CHECKING:
    from cardrules.engine.game import Game

#: The interned Pass action of each card.
_PASSES: tuple[Pass, ...] = tuple(Pass(i) for i in range(64))


def _pass_target(g: Game, s: int) -> int:
    """The seat that seat ``s``'s passed cards go to this hand (``s`` itself when
    the hand has no pass)."""
    k = g._pass_distance
    return s if k <= 0 else g._order[s][k - 1]


def _start_passing(g: Game) -> bool:
    """The pass of a new hand, when its entry of the cycle names a direction:
    every seat waits to choose its cards. Returns False (nothing to do) for a
    hand without a pass."""
    n = g._players
    g._chosen = [0] * n
    k = g._rules.pass_offset(g._hand_index + 1, n)
    g._pass_distance = k
    if not k:
        return False
    # The bidding's state, for the views of the pass (nobody has bid yet).
    _no_bids_yet(g)
    enter_phase(g, _PASS)
    order0 = g._order[g._dealer]
    g._waiting = list(order0)
    give_turn(g, order0[0])
    forget_legal_cards(g)
    return True


def _pass_options(g: Game, s: int) -> tuple[Action, ...]:
    """The cards seat ``s`` may choose to pass now: those of its hand it has not
    chosen yet (none once it has chosen them all, or outside the pass)."""
    w = g._waiting
    if g._phase != _PASS or w is None or s not in w:
        return ()
    free = g._hands[s] & ~g._chosen[s]
    out: list[Action] = []
    while free:
        low = free & -free
        out.append(_PASSES[low.bit_length() - 1])
        free ^= low
    return tuple(out)


def _do_pass(g: Game, s: int, c: int) -> None:
    """Seat ``s`` chooses card ``c`` (a legal pass); once every seat has chosen
    all its cards, the cards change hands."""
    forget_legal(g)
    chosen = g._chosen[:]  # replaced, never changed in place (a clone shares it)
    chosen[s] |= _BITS[c]
    g._chosen = chosen
    log_event(g, ("pass", s, c))
    w = g._waiting
    assert w is not None
    if g._chosen[s].bit_count() == g._rules.pass_count:
        w.remove(s)
    if w:
        give_turn(g, w[0])
        return
    _exchange(g)


def _exchange(g: Game) -> None:
    """Every seat's chosen cards go to the seat the hand's direction names, all at
    once; the ``"exchange"`` event records who passed what to whom; then the
    bidding or the play starts."""
    n = g._players
    hands = g._hands
    chosen = g._chosen
    targets = tuple(_pass_target(g, s) for s in range(n))
    for s in range(n):
        hands[s] &= ~chosen[s]
    for s in range(n):
        hands[targets[s]] |= chosen[s]
    log_event(g, ("exchange", g._hand_index + 1, targets, tuple(chosen)))
    g._waiting = None
    if not _start_bidding(g):
        _start_play(g)


def _try_pass(g: Game, actor: int, action: Action) -> None:
    """The pass phase's handling of an action by seat ``actor``: make a legal
    pass, else raise IllegalAction with the reason (the game unchanged)."""
    w = g._waiting
    count = g._rules.pass_count
    if type(action) is not Pass:
        if w is not None and actor in w:
            left = count - g._chosen[actor].bit_count()
            more = "1 more card" if left == 1 else f"{left} more cards"
            raise _refusal(
                "not_in_phase",
                f"the pass is not over: seat {actor} must choose {more} to pass "
                f"before {action.label} is possible",
                actor,
                action,
                {"phase": "pass", "left": left},
            )
        raise _refusal(
            "not_in_phase",
            f"the pass is not over: {action.label} is not possible until every seat "
            "has chosen its cards to pass",
            actor,
            action,
            {"phase": "pass"},
        )
    if w is None or actor not in w:
        raise _refusal(
            "already_passed",
            f"seat {actor} has already chosen its cards to pass this hand",
            actor,
            action,
        )
    c = int(action.card)
    if g._chosen[actor] >> c & 1:
        raise _refusal(
            "card_already_chosen",
            f"seat {actor} has already chosen {CARDS[c]} to pass",
            actor,
            action,
            {"card": str(CARDS[c])},
        )
    if not g._hands[actor] >> c & 1:
        raise _refusal(
            "card_not_in_hand",
            f"seat {actor} does not hold {CARDS[c]}",
            actor,
            action,
            {"card": str(CARDS[c])},
        )
    _do_pass(g, actor, c)


def _refuse_pass_outside(action: Action, actor: int) -> NoReturn:
    """Raise why a pass by seat ``actor`` is refused outside the pass phase."""
    raise _refusal(
        "not_in_phase",
        f"{action.label} is not possible now: cards are passed only after the deal, "
        "before the bidding and the play, in a hand whose rules pass cards",
        actor,
        action,
    )
