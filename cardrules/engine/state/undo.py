"""Take-backs: :meth:`Game.undo` (the engine's unmake of an action) and the
take-back policy (:meth:`Game.can_undo`, :meth:`Game.take_back`).

Undo
----
:func:`_undo` takes back the last action of the log, exactly: the game is
then equal (``==``, :meth:`Game.to_json`, every view and every seat's events)
to what it was before that action, including across the end of a trick or of
a hand (the deal that followed is taken back too, and dealt again, the same,
when the action is made again: deals follow from the seed, the given decks or
the recorded deals, never from the order of calls).

* The common case, the play of a card in a trick-taking game, is unmade in
  place (:func:`_unmake_play`): the card goes back to the hand, the trick's
  running winner is worked out again from the trick's other cards, and the log
  loses its last entry; a card that completed a trick (but not its hand) first
  has the trick put back on the table from the log's entry
  (:func:`_ungather`). No work is done on :meth:`Game.apply`'s path for this:
  what the unmake needs is in the state and the log.
* Every other action is taken back by replay: the state of the game at a
  checkpoint before it is restored and the log's actions after the checkpoint
  are applied again, up to the one taken back (the rules check each one again,
  and the log they make must be the log as it was). The first checkpoint, the
  game as it was created, is rebuilt when first needed by creating the game
  again from its settings (a game whose table allows take-backs keeps it from
  its creation). From then on, the game keeps a checkpoint of the state at the
  start of each hand (the end of the action that dealt it, in
  :func:`~cardrules.engine.phases.end._next_hand`), so that a take-back replays at
  most from the start of its hand; a game that never takes anything back
  keeps none and does no work for them. A checkpoint holds the state's values
  (a few lists of one int per seat), never the log: at most one a hand, and
  only the latest :data:`MAX_HAND_CHECKPOINTS` hands' (a take-back further back
  replays from the game's start, as exactly).

The internal log stays the history: an undo removes the entries the action
added (its own and those of what followed, such as a completed trick, a
score, the next deal).

The take-back policy
--------------------
``undo()`` is always available (search needs it); what a *player* may take
back is the policy's: the variant's ``take backs:`` setting
(:class:`~cardrules.rules.TakeBacks`, ``never`` by default) or the table's
(``Game(..., take_backs=...)``, :attr:`Game.take_back_policy`). A take-back
undoes a seat's own last action with every action made after it
(:func:`_window`), and only inside the policy's window:

* ``never``: no take-backs;
* ``until the next player acts``: nobody has acted since;
* ``until the trick is complete``: no trick has been completed since (not even
  by the action itself);
* ``before the hand ends``: the hand has not ended since (its last card was not
  played).

**See and choose again.** Another seat's action after the taker's (a card, a
bid, a pass, a call) is something the taker has seen, and that seat chose it
knowing the taker's action: taking it back would let the taker choose again
knowing it (a card played is a card of a hidden hand, back in it). So:

* a seat takes back *alone* (:meth:`Game.can_undo`, :meth:`Game.take_back`)
  only its own action that no other seat has acted on since: the last action
  of the game, after which no other seat acted even in an action since taken
  back (:func:`_span`);
* taking back past other seats' actions needs the consent of each seat that
  made one of them, or acted after the action in an action since taken back
  (:meth:`Game.request_take_back`, :meth:`Game.answer`, as chess sites' take-back
  requests). The request is pending (in every view, in saves and clones) until
  all have agreed (the take-back is made), one declines, the requester
  withdraws it, or the game changes (any action applied, an undo, a new
  policy).

Both are made by :func:`_take_back_span`, which also remembers who made the
actions taken back (``Game._retracted``, in saves): each of them acted after
every action left, so a later take-back of one of those needs their consent
as if their actions were still there. Without it, seat A plays, seat B plays
a card and takes it back alone, and A, the last to act again, could take back
its card and choose again knowing B holds that card. The engine's
:meth:`Game.undo` (search, tools) neither reads nor changes that memory.

Under every policy, nothing may be taken back if the action, or any action to
be taken back with it, revealed hidden information to anyone: the deal of a
hand (a hand's last card, a hand thrown in), a card turned up or drawn (the
power), the cards of a pass changing hands, a look at one's cards or a blind
bid (the bidder then sees its cards), the end of a bidding whose bids were
hidden (simultaneous bids) or whose bidders could not see their own cards
(forehead hands), a hand taken from a neighbour, a trick picked up in a
shedding game, and the end of the game. Those moments end every window, even
with everyone's consent: what a take-back undoes was seen by everyone (cards
played face up, public bids) or only by the seat that made it (a card it
chose to pass, its hidden bid before the others are in). A server enforces the
policy with :meth:`Game.can_undo` (or :meth:`Game.take_back`, which refuses
with :class:`~cardrules.errors.TakeBackRefused`) and the request's calls,
which refuse with the same class (codes ``no_consent_needed``,
``take_back_pending``, ``no_take_back_request``, ``not_asked``).

This module does not import :mod:`~cardrules.engine.game` (which imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cardrules.counted import counted
from cardrules.engine.actions import Action, Amend, Bid, Look, Pass, Take
from cardrules.engine.events import ACTION_KINDS, _count_actions
from cardrules.engine.state import history as _history
from cardrules.engine.state.ranks import _special_beats
from cardrules.engine.state.slots import NOT_STATE_SLOTS as NOT_STATE_SLOTS
from cardrules.engine.state.slots import STATE_SLOTS
from cardrules.engine.state.tables import _BITS, _OVER, _PLAY, _PLAYS
from cardrules.engine.state.transitions import forget_legal_cards, give_turn, unlog_event
from cardrules.engine.views.view import TakeBackRequest
from cardrules.errors import NothingToUndo, TakeBackRefused
from cardrules.rules import TakeBacks

if TYPE_CHECKING:
    from cardrules.engine.events import Entry
    from cardrules.engine.game import Game


#: The log entries after which nothing can be taken back: each reveals hidden
#: cards to someone (or ends the game). ``"bids"`` is decided by the hand.
_REVEALING: Final = {
    "deal": "a hand has been dealt since",
    "trump": "a hand has been dealt since",
    "cut": "a hand has been dealt since",
    "draw": "a card has been drawn since",
    "exchange": "the passed cards have changed hands since",
    "pickup": "a trick has been picked up since",
    "take": "a hand has been taken since",
    "look": "cards have been looked at since",
    "kitty": "the kitty has been taken since",
    "shown": "the declarer's hand has been shown since",
    "over": "the game is over",
}

#: The entries that complete a trick, and the one that ends a hand.
_TRICK_DONE: Final = frozenset({"trick", "dead", "pickup"})

_LOOK: Final = Look()
_TAKE: Final = Take()

#: A checkpoint: the length of the log and the state's values (lists copied).
Checkpoint = tuple[int, tuple[Any, ...]]

#: The most checkpoints of hands' starts a game keeps (besides its first state):
#: the latest ones; a take-back further back replays from the game's start.
MAX_HAND_CHECKPOINTS: Final = 64


def _checkpoint(g: Game) -> Checkpoint:
    """The state of ``g`` now (between two actions), without its log."""
    values = []
    for name in STATE_SLOTS:
        v = getattr(g, name)
        values.append(v[:] if type(v) is list else v)
    return len(g._events), tuple(values)


def _restore(g: Game, cp: Checkpoint) -> None:
    """Put ``g`` back in the state of the checkpoint (its log cut to the
    checkpoint's length; the checkpoint stays usable)."""
    length, values = cp
    for name, v in zip(STATE_SLOTS, values, strict=True):
        setattr(g, name, v[:] if type(v) is list else v)
    del g._events[length:]


def _mark_hand(g: Game) -> None:
    """Keep a checkpoint of the state now, the start of a hand (a game that
    takes actions back: ``g._undo`` is not None), at most
    :data:`MAX_HAND_CHECKPOINTS` of them after the first."""
    marks = g._undo
    assert marks is not None
    marks.append(_checkpoint(g))
    if len(marks) > MAX_HAND_CHECKPOINTS + 1:
        del marks[1]


def _first_checkpoint(g: Game) -> Checkpoint:
    """The game as it was created: made again from its settings."""
    if not g._decks:
        deck: Any = None
    elif g._decks_reuse:
        deck = list(g._decks[0])
    else:
        deck = [list(d) for d in g._decks]
    fresh = type(g)(
        g._variant,
        g._players,
        g._seed,
        deck=deck,
        first_dealer=g._first_dealer_given,
        max_tricks=g._max_tricks,
        _forced=g._forced,
        _draws=g._draws,
        _cuts=g._cuts,
    )
    start = fresh._events
    if start != g._events[: len(start)]:  # pragma: no cover - the engine is deterministic
        raise RuntimeError("undo: the game made again from its settings does not start the same")
    return _checkpoint(fresh)


def _action_of(ev: Entry) -> tuple[int, Action]:
    """The seat and the action of an action entry of the log."""
    kind = ev[0]
    if kind == "play":
        return ev[1], _PLAYS[ev[2] & 63]  # a copy (several packs): its card's Play
    if kind == "bid":
        return ev[1], Bid(ev[2], blind=ev[3])
    if kind == "look":
        return ev[1], _LOOK
    if kind == "amend":
        return ev[1], Amend(ev[2])
    if kind == "take":
        return ev[1], _TAKE
    if kind == "pass":
        return ev[1], Pass(ev[2])
    assert kind == "call"
    action: Action = ev[2]
    return ev[1], action


def _last_action(events: list[Entry]) -> int:
    """The position of the last action entry of the log (-1: none)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i][0] in ACTION_KINDS:
            return i
    return -1


# --------------------------------------------------------------------------- undo


def _undo(g: Game) -> Action:
    """:meth:`Game.undo`: take back the last action and return it."""
    events = g._events
    i = _last_action(events)
    if i < 0:
        raise NothingToUndo("there is nothing to undo: no action has been made in this game")
    g._request = None  # the game changes: a pending take-back request ends
    ev = events[i]
    seat, action = _action_of(ev)
    if ev[0] == "play":
        last = len(events) - 1
        if i == last and _unmake_play(g, seat, ev[2]):
            return action
        if i == last - 1 and events[last][0] == "trick" and _ungather(g):
            done = _unmake_play(g, seat, ev[2])
            assert done  # _ungather checked what it needs
            return action
    _replay_to(g, i)
    return action


def _ungather(g: Game) -> bool:
    """Put back on the table the trick the log's last entry gathered (in a
    trick-taking game, a trick that did not end its hand): the state just
    before its gathering, its last card still played, so that
    :func:`_unmake_play` takes that card back. False (nothing changed) when
    the game is not in that state."""
    r = g._rules
    if not r.tricks_mode or g._trick or g._phase == _OVER:
        return False
    if r.track_breaks and g._broken_prev < 0:
        return False  # the suits broken before the card are not known: replay
    _, w, seats, cards = unlog_event(g)
    m = 0
    for c in cards:
        m |= _BITS[c]
    g._tricks[w] -= 1
    g._won[w] &= ~m
    # Copies: the log's entry (also in clones' logs) is never changed.
    g._trick = list(cards)
    g._trick_seats = list(seats)
    g._tricks_played -= 1
    g._total_tricks -= 1
    g._leader = seats[0]
    return True


def _unmake_play(g: Game, s: int, c: int) -> bool:
    """Take back, in place, seat ``s``'s play of ``c`` that did not complete a
    trick (the log's last entry) in a trick-taking game; False (nothing
    changed) when the play is not such a play."""
    r = g._rules
    trick = g._trick
    if not r.tricks_mode or not trick or trick[-1] != c or g._trick_seats[-1] != s:
        return False
    if g._phase != _PLAY:
        # The play opened another phase (a joker led without trumps: its
        # leader names the suit it stands for): replay.
        return False
    if r.track_breaks:
        # The suits broken before the play (the play set _broken_prev); it is
        # known for the last play only: an undo before it replays.
        prev = g._broken_prev
        if prev < 0:
            return False
        g._broken_suits = prev
        g._broken_prev = -1
    g._hands[s] |= _BITS[c]
    trick.pop()
    seats = g._trick_seats
    seats.pop()
    unlog_event(g)
    give_turn(g, s)
    forget_legal_cards(g)
    if trick:
        # The running winner of the trick's other cards, as the plays made it.
        best, best_seat = trick[0], seats[0]
        trump = g._trump
        suit_of, power = g._ranks.suit_of, g._ranks.power
        special = g._rules.card_powers
        for card_, seat in zip(trick, seats, strict=True):
            if special:
                # A pack with special cards, or jokers that cannot win without
                # trumps: their powers decide (ranks._special_beats).
                if card_ != best and _special_beats(g._ranks.codes, g._ranks, trump, best, card_):
                    best, best_seat = card_, seat
            elif suit_of[card_] == suit_of[best]:
                if power[card_] > power[best]:
                    best, best_seat = card_, seat
            elif suit_of[card_] == trump or (
                # A joker off suit in a hand without trumps whose jokers are the
                # highest cards (``jokers without trumps: highest card``) wins.
                trump < 0
                and 52 <= card_ < 54
                and g._rules.joker_highest
                and (best < 52 or best < card_)
            ):
                best, best_seat = card_, seat
    else:
        # The lead taken back: the running winner is the last trick's, as it was.
        best, best_seat = -1, -1
        for e in reversed(g._events):
            if e[0] == "trick":
                best_seat = e[1]
                best = e[3][e[2].index(best_seat)]
                break
    g._winning_card = best
    g._winning_seat = best_seat
    return True


def _replay_to(g: Game, length: int) -> None:
    """Put ``g`` in the state it had when its log was ``length`` entries long
    (between two actions): from the last checkpoint at or before it, the log's
    actions are applied again."""
    marks = g._undo
    if marks is None:
        marks = g._undo = [_first_checkpoint(g)]
    while marks[-1][0] > length:
        marks.pop()
    cp = marks[-1]
    events = g._events
    tail = events[cp[0] : length]
    _restore(g, cp)
    events = g._events
    for ev in tail:
        if ev[0] not in ACTION_KINDS:
            continue
        seat, action = _action_of(ev)
        g.apply(action, seat)  # a hand dealt adds its checkpoint (engine/phases/end.py)
    if events[cp[0] :] != tail:  # pragma: no cover - the engine is deterministic
        raise RuntimeError("undo: the actions applied again did not make the same log")


# --------------------------------------------------------------------------- the policy


def _policy(g: Game) -> TakeBacks:
    """The take-back policy in force: the table's, else the variant's."""
    return g._variant.take_backs if g._take_backs is None else g._take_backs


def _coerce_policy(value: object, what: str = "take_backs") -> TakeBacks | None:
    """A policy given by a caller: a :class:`TakeBacks`, its text, or ``None``
    (the variant's). ValueError for anything else."""
    if value is None or isinstance(value, TakeBacks):
        return value
    if isinstance(value, str):
        for p in TakeBacks:
            if value.strip().lower() == p.value:
                return p
    choices = ", ".join(repr(p.value) for p in TakeBacks)
    shown = repr(value) if isinstance(value, str) and len(value) <= 40 else type(value).__name__
    raise ValueError(f"{what} must be a TakeBacks, one of {choices}, or None; got {shown}")


def _revealing_action(ev: Entry) -> str | None:
    """Why the action ``ev`` itself revealed hidden cards (to its own seat), or None."""
    kind = ev[0]
    if kind == "bid" and ev[3]:
        return "a blind bid has been made since (the bidder then sees its cards)"
    return _REVEALING.get(kind)


def _revealing_entry(g: Game, ev: Entry) -> str | None:
    """Why the log entry ``ev``, which followed an action, revealed hidden
    information to someone, or None."""
    kind = ev[0]
    if kind == "bids" and (g._rules.bid_style == 2 or g._forehead):
        # Simultaneous bids are shown; in a forehead hand, each seat's own cards.
        return "the bids have been revealed since"
    return _REVEALING.get(kind)


def _window(g: Game, seat: int) -> tuple[int, tuple[int, ...]] | str:
    """The actions a take-back by ``seat`` would undo now: how many (its last
    action and every action after it) and the other seats that made any of
    them (sorted: the seats whose consent it needs), or why the policy does
    not allow one."""
    policy = _policy(g)
    if policy is TakeBacks.NEVER:
        return "take-backs are not allowed in this game"
    if g._phase == _OVER:
        return "the game is over"
    events = g._events
    count = 0
    others: set[int] = set()
    # From the end back: each action's consequences come before the action.
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        kind = ev[0]
        if kind in ACTION_KINDS:
            count += 1
            why = _revealing_action(ev)
            if why is not None:
                return why
            if ev[1] == seat:
                if g._retracted:
                    # Seats that acted after it in actions since taken back.
                    others |= _retracted_after(g, _count_actions(events) - count)
                    others.discard(seat)
                    if others and policy is TakeBacks.NEXT_ACTION:
                        return "another seat has acted since (an action since taken back)"
                return count, tuple(sorted(others))
            if policy is TakeBacks.NEXT_ACTION:
                return "another seat has acted since"
            others.add(ev[1])
            continue
        why = _revealing_entry(g, ev)
        if why is not None:
            return why
        if policy is TakeBacks.TRICK and kind in _TRICK_DONE:
            return "a trick has been completed since"
        if kind == "score":
            return "the hand has ended since"
    return f"seat {seat} has made no action"  # pragma: no cover - a deal comes first


def _retracted_after(g: Game, p: int) -> set[int]:
    """The seats that made an action, since taken back by a player, after the
    action of the log numbered ``p`` (from 0)."""
    found: set[int] = set()
    for m, seats in g._retracted:
        if m > p:
            found.update(seats)
    return found


def _seats_text(seats: tuple[int, ...]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def _span(g: Game, seat: int) -> int | str:
    """How many actions a take-back by ``seat`` alone undoes now (its own last
    action, the last action of the game, with what followed it), or why it
    may not take back alone: the policy, or another seat has acted since (that
    seat saw the action and answered it, and the taker saw its answer: only a
    request that seat accepts takes it back, :func:`_request`)."""
    window = _window(g, seat)
    if isinstance(window, str):
        return window
    count, others = window
    if others:
        return (
            f"another seat has acted since ({_seats_text(others)}): taking back "
            "another seat's action needs its consent (request_take_back)"
        )
    return count


def _can_undo(g: Game, seat: int) -> bool:
    """:meth:`Game.can_undo`."""
    span = _span(g, seat)
    return type(span) is int and _history.over_limit(g, span) is None


def _refused(seat: int, why: str, *, code: str = "take_back_refused") -> TakeBackRefused:
    return TakeBackRefused(why, code=code, data={"seat": seat, "action": "take back"})


def _take_back(g: Game, seat: int) -> tuple[Action, ...]:
    """:meth:`Game.take_back`: the actions taken back, the last one first."""
    span = _span(g, seat)
    if isinstance(span, str):
        raise _refused(seat, f"seat {seat} may not take back its last action: {span}")
    return _take_back_span(g, seat, span, ())


def _take_back_span(g: Game, seat: int, span: int, agreed: tuple[int, ...]) -> tuple[Action, ...]:
    """Take back the last ``span`` actions for ``seat`` (its own last action
    and what followed it), with the consent of the seats ``agreed`` (empty for
    a take-back alone): every player's take-back, alone or agreed, is made
    here. The pending request, if any, ends. Returns the actions taken back,
    the last one first.

    The game remembers who made the actions taken back (``g._retracted``):
    every one of those seats has acted after each action left in the log (the
    others saw its action before it was taken back), so a later take-back of
    one of those needs their consent as if their actions were still there
    (:func:`_window`). Without this, a seat whose action another seat answered
    (and then took back its answer) could take back its own and choose again
    knowing the card the other seat has back in its hand.

    The take-back is appended to the game's history
    (:mod:`cardrules.engine.state.history`): every stream grows by a
    :class:`~cardrules.engine.events.TakeBackEvent` and the version by 1.

    Raises:
        TakeBackRefused: code ``take_back_limit``, past the history's bounds
            (the game unchanged).
    """
    before_log = _history.begin_take_back(g, seat, span)
    g._request = None
    events = g._events
    seats: set[int] = set()
    left = span
    for i in range(len(events) - 1, -1, -1):
        if left == 0:
            break
        if events[i][0] in ACTION_KINDS:
            seats.add(events[i][1])
            left -= 1
    taken = tuple(_undo(g) for _ in range(span))
    _history.end_take_back(g, before_log, seat, agreed)
    m = _count_actions(g._events)
    kept: list[tuple[int, tuple[int, ...]]] = []
    for k, before in g._retracted:
        if k >= m:
            seats.update(before)  # the actions after m are gone: they now follow m
        else:
            kept.append((k, before))
    kept.append((m, tuple(sorted(seats))))
    g._retracted = kept
    return taken


# --------------------------------------------------------------------------- requests


def _can_request(g: Game, seat: int) -> bool:
    """:meth:`Game.can_request_take_back`."""
    if g._request is not None:
        return False
    window = _window(g, seat)
    return (
        not isinstance(window, str)
        and bool(window[1])
        and _history.over_limit(g, window[0]) is None
    )


def _request(g: Game, seat: int) -> TakeBackRequest:
    """:meth:`Game.request_take_back`."""
    pending = g._request
    if pending is not None:
        raise _refused(
            seat,
            f"seat {pending.seat}'s take-back request is waiting for an answer: "
            "one request at a time",
            code="take_back_pending",
        )
    window = _window(g, seat)
    if isinstance(window, str):
        raise _refused(seat, f"seat {seat} may not take back its last action: {window}")
    count, others = window
    if not others:
        raise _refused(
            seat,
            f"no other seat has acted since seat {seat}'s last action: nobody's consent "
            "is needed, take it back with take_back",
            code="no_consent_needed",
        )
    refusal = _history.limit_refusal(g, seat, count)
    if refusal is not None:
        raise refusal
    request = TakeBackRequest(seat=seat, count=count, asked=others)
    g._request = request
    return request


def _answer(g: Game, seat: int, accept: bool) -> tuple[Action, ...]:
    """:meth:`Game.answer`."""
    request = g._request
    if request is None:
        raise _refused(seat, "there is no take-back request to answer", code="no_take_back_request")
    if seat == request.seat and not accept:
        g._request = None  # withdrawn
        return ()
    if seat not in request.asked:
        raise _refused(
            seat,
            f"seat {request.seat}'s take-back request does not ask seat {seat}: it asks "
            f"{_seats_text(request.asked)}",
            code="not_asked",
        )
    if not accept:
        g._request = None  # declined
        return ()
    agreed = tuple(sorted({*request.agreed, seat}))
    if agreed != request.asked:
        g._request = TakeBackRequest(
            seat=request.seat, count=request.count, asked=request.asked, agreed=agreed
        )
        return ()
    # Every seat asked agreed. The request ends at any change of the game, so
    # its actions are still the last ones.
    window = _window(g, request.seat)
    if window != (request.count, request.asked):  # pragma: no cover - cancelled by any change
        raise RuntimeError("take-back request: the game changed under a pending request")
    return _take_back_span(g, request.seat, request.count, agreed)


def _check_retracted(g: Game, value: list[tuple[int, tuple[int, ...]]]) -> str | None:
    """Why ``value`` is not a record of actions taken back that ``g`` can
    keep (a save's), or None."""
    total = _count_actions(g._events)
    last = -1
    for m, seats in value:
        if not last < m <= total:
            return f"the counts of actions must grow, each at most {total}"
        last = m
        if (
            not seats
            or list(seats) != sorted(set(seats))
            or not 0 <= seats[0] <= seats[-1] < g._players
        ):
            return "each holds seats of the game, each once, lowest first"
    return None


def _check_request(g: Game, request: TakeBackRequest) -> str | None:
    """Why ``request`` is not a request pending in ``g`` as it is (a save's),
    or None."""
    window = _window(g, request.seat)
    if isinstance(window, str):
        return f"seat {request.seat} may not take back now: {window}"
    count, others = window
    if (request.count, request.asked) != (count, others) or not others:
        return (
            f"seat {request.seat}'s take-back would undo {counted(count, 'action')} of the seats "
            f"{', '.join(map(str, others)) or '(none)'}, not what the request says"
        )
    if not set(request.agreed) < set(request.asked):
        return "the seats that agreed must be some of the seats asked, not all"
    return None
