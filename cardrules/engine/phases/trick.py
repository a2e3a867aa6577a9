"""The play of a card to a trick, and the end of a trick, in both modes of play.

:func:`_play_card` is the one function that plays a legal card: :meth:`Game.apply
<cardrules.engine.game.Game.apply>`'s hot path, the random playout
(:mod:`~cardrules.engine.search.playout`) and the joker's play
(:mod:`~cardrules.engine.phases.ranked_play`) all call it. The card leaves the hand and
joins the trick, the trick's running winner and the broken suits follow, the
log gets its ``play`` entry; then the trick ends, or the next seat is to play
(with its legal cards worked out at once when following suit is plain).

Trick-taking mode (:func:`_finish_trick`), once every seat has played: the
trick's winner takes it (its cards join the winner's won cards) and leads the
next; after the hand's last trick the hand is scored
(:func:`~cardrules.engine.phases.score._end_hand`); ``max_tricks`` can end the game
unfinished.

Shedding mode (:func:`_shed_step`), after every card: a card off the suit led
(a cut; in the game's first trick only if the rules say so) ends the trick and
the player of the highest card of the suit led picks it up; when every seat
still in has followed, the trick is dead and leaves the game. Seats without
cards go out; the game ends when at most one seat is left, or, if the rules
say so, when the first player goes out (:func:`~cardrules.engine.phases.end._game_over`).
With "the power" (``leader out: draws a dead card``) the taker of a dead trick
who has no cards left stays in: it draws a card from the earlier dead tricks
and leads it (:mod:`~cardrules.engine.phases.shedding`). :func:`_try_take` makes the
``Take`` action (``take a hand from:``): a leader takes a neighbour's cards, and
the neighbour is out.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardrules.engine.phases.end import _game_over, _most_cards
from cardrules.engine.phases.score import _check_hand_score, _end_hand
from cardrules.engine.phases.shedding import (
    _TAKE,
    _draw_card,
    _lead_drawn,
    _neighbour,
    _why_not_take,
)
from cardrules.engine.state.ranks import _led_suit, _special_beats
from cardrules.engine.state.tables import (
    _BITS,
    _SHIFT,
    _SUIT_BIT,
    _SUIT_OF,
    _SUIT_TABLES,
    _plays_of,
    _suit_plays,
)
from cardrules.engine.state.transitions import forget_legal, give_turn, log_event
from cardrules.engine.views.refusals import _refusal

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _play_card(g: Game, s: int, c: int) -> None:
    """Seat ``s`` (the seat to act) plays ``c``, a card known legal (a bit of
    ``_legal_mask``), by the hand's effective suits and powers (``_ranks``:
    printed suits, aces high, unless the variant has a trump order).

    The hot path of the engine: :meth:`Game.apply` and the random playout call
    it for every card; it writes the turn, the legal set and the log inline (the
    same writes as :mod:`~cardrules.engine.state.transitions`' functions, without
    their calls)."""
    t = g._ranks
    suit_of = t.suit_of
    hands = g._hands
    hands[s] ^= _BITS[c]
    trick = g._trick
    suit = suit_of[c]
    r = g._rules
    if trick:
        best = g._winning_card
        if r.card_powers:
            # A pack with special cards (always win, always lose), or jokers
            # that cannot win without trumps: the powers of the hand's tables.
            if _special_beats(t.codes, t, g._trump, best, c):
                g._winning_card = c
                g._winning_seat = s
            led = _led_suit(t.codes, suit_of, trick)
        else:
            if suit == suit_of[best]:
                power = t.power
                if power[c] > power[best]:
                    g._winning_card = c
                    g._winning_seat = s
                elif power[c] == power[best] and r.identical_last:
                    # Several packs: of two identical cards, the last played ranks higher.
                    g._winning_card = c
                    g._winning_seat = s
            elif suit == g._trump:
                g._winning_card = c
                g._winning_seat = s
            led = suit_of[trick[0]]
    else:
        g._winning_card = c
        g._winning_seat = s
        g._leader = s
        led = suit
    if r.track_breaks:
        # Only when a card-set rule bars unbroken suits (see broken_by).
        g._broken_prev = g._broken_suits
        if (
            r.break_any
            or (
                r.break_void
                and trick
                and suit != led
                and led >= 0
                and not hands[s] & t.suit_masks[led]
            )
            or (r.break_forced and not trick and g._forced_lead)
        ):
            g._broken_suits |= _SUIT_BIT[suit] | r.break_extra[c]
    trick.append(c)
    g._trick_seats.append(s)
    g._events.append(("play", s, c))
    if not r.tricks_mode:
        g._legal = None
        _shed_step(g, s, c)
    elif len(trick) == g._seats_per_trick:
        g._legal = None
        if r.score_guard and g._tricks_played + 1 == g._size:
            _check_hand_score(g, s, c, g._broken_prev)
        _finish_trick(g)
    else:
        nxt = g._next_seat[s]
        g._to_act = nxt
        if r.plain_follow:
            # The next seat's legal cards, now: one suit's interned tuple.
            hand = hands[nxt]
            p = (hand >> _SHIFT[led]) & 0x1FFF
            if p:
                lt = _SUIT_TABLES[led][p]
                g._legal = lt if lt is not None else _suit_plays(led, p)
                g._legal_mask = p << _SHIFT[led]
                return
            if r.free_void:
                g._legal = _plays_of(hand)
                g._legal_mask = hand
                return
        g._legal = None


def _play_highest_joker(g: Game, s: int, c: int) -> None:
    """Seat ``s`` plays joker ``c`` (legal) in a hand without trumps of a game
    whose jokers are then the highest cards (``jokers without trumps: highest
    card``): played to a trick, it wins it (unless a higher joker is winning);
    led, it is played as any card (its player names its suit next, see
    :func:`~cardrules.engine.phases.trumps._open_joker_suit`). Not on the hot
    path: a joker's play comes through the slow path of :meth:`Game.apply`."""
    if g._trick:
        best = g._winning_card
        if best < 52 or 52 <= best < c:  # a card of a suit, or the little joker
            # Winning before it is played: _play_card then keeps it winning,
            # since no card of another suit (and no trump: there are none) beats it.
            g._winning_card = c
            g._winning_seat = s
    _play_card(g, s, c)


def _lay_open(g: Game, s: int) -> None:
    """The first trick of an open misère is complete: the declarer ``s`` lays
    its hand face up; every seat knows its cards from now on (``known_hands``)."""
    hand = g._hands[s]
    known = g._known[:]  # replaced, never changed in place (a clone shares it)
    known[s] |= hand
    g._known = known
    log_event(g, ("shown", s, hand))


def _finish_trick(g: Game) -> None:
    """Trick-taking mode, after the last card of a trick: the winner takes it and
    leads next (with its whole hand legal when the lead is free); then the
    hand's end or the trick bound, if reached."""
    w = g._winning_seat
    trick = g._trick
    g._tricks[w] += 1
    m = 0
    for c in trick:
        m |= _BITS[c]
    g._won[w] |= m
    # The lists go into the log as they are: they are replaced, never changed.
    # (The end of a trick is on the hot path with the play of a card, so it
    # writes the log and the turn inline too: see transitions.log_event and
    # give_turn.)
    g._events.append(("trick", w, g._trick_seats, trick))
    g._trick = []
    g._trick_seats = []
    g._tricks_played += 1
    g._total_tricks += 1
    g._to_act = w
    g._leader = w
    if g._tricks_played == 1 and g._open_seat >= 0 and g._size > 1:
        _lay_open(g, g._open_seat)
    if g._tricks_played == g._size:
        _end_hand(g)
    elif g._max_tricks is not None and g._total_tricks >= g._max_tricks:
        _game_over(g, finished=False)
    elif g._rules.free_lead_inline:
        # The winner's lead (not the first of the hand): the whole hand, now.
        hand = g._hands[w]
        g._legal = g._rules.plays_of(hand)
        g._legal_mask = hand


def _shed_step(g: Game, s: int, c: int) -> None:
    """Shedding mode, after seat ``s`` played ``c``: a cut ends the trick and the
    highest card of the suit led picks it up; when every seat still in has
    followed, the trick is dead and leaves the game (its taker draws a dead card
    to lead when the rules give it "the power" and it has no cards left)."""
    if g._known[s] >> c & 1:  # (a card it was seen to pick up)
        known = g._known[:]  # replaced, never changed in place (slots.py)
        known[s] &= ~_BITS[c]
        g._known = known
    trick = g._trick
    nxt = g._next_seat
    out = g._out
    r = g._rules
    draw = -1
    if (
        len(trick) > 1
        and _SUIT_OF[c] != _SUIT_OF[trick[0]]
        and (r.first_trick_cuts or g._total_tricks)
    ):
        taker = g._winning_seat
        m = sum(map(_BITS.__getitem__, trick))
        g._hands[taker] |= m
        known = g._known[:]  # replaced, never changed in place (slots.py)
        known[taker] |= m
        g._known = known
        log_event(g, ("pickup", taker, tuple(g._trick_seats), tuple(trick)))
    elif len(trick) == g._seats_per_trick:
        taker = g._winning_seat
        if r.power and not g._hands[taker] and g._dead:
            # Drawn from the dead tricks before this one (led below, once the
            # trick is cleared and the seats without cards are out).
            draw = _draw_card(g, g._dead)
        dead_by = g._dead_by[:]  # replaced, never changed in place (slots.py)
        for seat, card_ in zip(g._trick_seats, trick, strict=True):
            dead_by[seat] |= _BITS[card_]
            g._dead |= _BITS[card_]
        g._dead_by = dead_by
        log_event(g, ("dead", taker, tuple(g._trick_seats), tuple(trick)))
    else:
        t = nxt[s]
        while out[t]:
            t = nxt[t]
        give_turn(g, t)
        return
    _end_shed_trick(g, taker, draw)


def _end_shed_trick(g: Game, taker: int, draw: int) -> None:
    """Shedding mode, once the trick is picked up or dead: clear it, put out
    the seats without cards, end the game if that ends it, else give the lead
    to ``taker`` (or the next seat still in), who leads ``draw`` when it drew
    a dead card (-1: none)."""
    trick = g._trick
    out = g._out
    r = g._rules
    leader = g._leader
    seats = g._trick_seats
    g._trick = []
    g._trick_seats = []
    g._tricks_played += 1
    g._total_tricks += 1
    hands = g._hands
    draw_seat = taker if draw >= 0 else -1
    copied = False
    for seat in range(g._players):
        if not out[seat] and not hands[seat] and seat != draw_seat:
            if not copied:
                out = g._out = out[:]  # replaced, never changed in place (slots.py)
                copied = True
            out[seat] = True
            log_event(g, ("out", seat))
    left = [seat for seat in range(g._players) if not out[seat]]
    went_out = g._seats_per_trick - len(left)
    g._seats_per_trick = len(left)
    if r.first_out_ends and went_out and left:
        _game_over(g, finished=True, loser=_most_cards(g, left, leader))
        return
    if len(left) <= 1:
        if left:
            loser: int | None = left[0]
        else:
            loser = leader if g._rules.all_out_leader_loses else None
        _game_over(g, finished=True, loser=loser)
        return
    if out[taker] and g._rules.leader_out_highest:
        taker = _highest_still_in(trick, seats, out, taker, r.identical_last)
    nxt = g._next_seat
    while out[taker]:
        taker = nxt[taker]
    give_turn(g, taker)
    g._leader = taker
    if g._max_tricks is not None and g._total_tricks >= g._max_tricks:
        _game_over(g, finished=False)
    elif draw >= 0:
        _lead_drawn(g, taker, draw)


def _highest_still_in(
    trick: list[int], seats: list[int], out: list[bool], taker: int, identical_last: bool = False
) -> int:
    """The player of the next-highest card of the suit led who is still in
    (``taker`` when none is)."""
    suit = _SUIT_OF[trick[0]]
    # By rank (a copy of several packs ranks as its card); of identical cards
    # the first played first (the sort is stable), unless the last ranks higher.
    plays = list(zip(trick, seats, strict=True))
    if identical_last:
        plays.reverse()
    for card_, seat in sorted(plays, key=lambda p: p[0] & 63, reverse=True):
        if _SUIT_OF[card_] == suit and not out[seat]:
            return seat
    return taker


def _try_take(g: Game, s: int) -> None:
    """Seat ``s`` takes every card of its neighbour (IllegalAction, the game
    unchanged, if it may not): the neighbour is out and safe; ``s`` then leads,
    unless that leaves one player holding cards (who loses) or the game ends
    as the first player goes out."""
    why = _why_not_take(g, s)
    if why is not None:
        code, text = why
        raise _refusal(
            code,
            f"take a neighbour's hand: not possible now: {text}",
            s,
            _TAKE,
            {"to_act": g._to_act},
        )
    t = _neighbour(g, s)
    hands = g._hands
    got = hands[t]
    hands[s] |= got
    hands[t] = 0
    known = g._known = g._known[:]  # replaced, never changed in place (slots.py)
    known[s] |= known[t]  # what everyone knew of the neighbour's cards
    known[t] = 0
    out = g._out[:]  # replaced, never changed in place (a clone shares it)
    out[t] = True
    g._out = out
    g._seats_per_trick -= 1
    log_event(g, ("take", s, t, got.bit_count()))
    log_event(g, ("out", t))
    forget_legal(g)
    left = [seat for seat in range(g._players) if not g._out[seat]]
    if g._rules.first_out_ends:
        _game_over(g, finished=True, loser=_most_cards(g, left, s))
    elif len(left) <= 1:
        _game_over(g, finished=True, loser=left[0] if left else None)
