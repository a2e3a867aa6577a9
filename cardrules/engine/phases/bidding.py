"""Bidding: the bids a seat may make, making one, and why a bid is refused.

A hand's bidding starts with :func:`_start_bidding` (in turn from the dealer's
neighbour, or simultaneous: every seat waits). :func:`_bid_options` lists the
bids a seat may make now from the compiled rules: the range of bids, the hook
(the last bidder may not make the bids add up to the tricks), blind bids before
a seat looks at its cards, and which bids may be made blind.
:func:`_hook_bid` is the hook itself, and :func:`_forbidden_bids` the bids a
seat to bid may not make, with the rule of each, for the view.
:func:`_amend_options` lists the changes the last seat to bid may make.
:func:`_do_bid` records a look, a bid or a change, and when every seat has bid
logs the bids and starts the play (:func:`~cardrules.engine.phases.play._start_play`),
or first the naming of trumps by the highest bidder
(:func:`~cardrules.engine.phases.trumps._open_for_bidder`); :func:`_after_trumps`
goes on once a player has made trumps.
:func:`_try_bid` and :func:`_try_amend` are the slow path of
:meth:`Game.apply <cardrules.engine.game.Game.apply>` in the bidding: they make
an action that is legal after all, or raise the reason it is not.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NoReturn, TypeVar

from cardrules.engine.actions import Action, Amend, Bid, Contract, Decline, Play
from cardrules.engine.phases.play import _start_play
from cardrules.engine.phases.trumps import NAMER_BIDDER, _declare_contract, _open_for_bidder
from cardrules.engine.state.tables import _BID, _LOOK
from cardrules.engine.state.transitions import enter_phase, forget_legal, give_turn, log_event
from cardrules.engine.views.refusals import _explain_bid, _refusal
from cardrules.engine.views.view import ForbiddenBid

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _bidders(g: Game) -> tuple[int, ...]:
    """The seats that bid this hand, in order: the seats dealt to (the dealer
    last), or with one bid per side (``team bids: one per side``) the first
    partner of each side among them."""
    seats = g._seats
    if not g._rules.team_bids:
        return seats
    teams = g._rules.teams_of(g._players)
    spoken: set[int] = set()
    out: list[int] = []
    for s in seats:
        t = next(i for i, team in enumerate(teams) if s in team)
        if t not in spoken:
            spoken.add(t)
            out.append(s)
    return tuple(out)


def _no_bids_yet(g: Game) -> None:
    """The bidding's state before a phase that comes first (the pass): nobody
    has bid, every seat has seen its cards, the hand is not played forehead."""
    n = g._players
    g._bids = [-1] * n
    g._blind = [False] * n
    g._looked = [True] * n
    g._forehead = False
    g._amender = -1
    g._auction_out = 0
    g._contract = -1
    g._contract_seat = -1


def _start_bidding(g: Game) -> bool:
    """A new hand's bids, blind bids and looks (nobody has bid yet), and the
    first seat to bid. Returns False, with every seat's cards looked at, when
    the variant has no bidding (the play starts at once)."""
    r = g._rules
    n = g._players
    g._forehead = forehead = g._size in r.forehead and r.bid_style != 0
    g._bids = [-1] * n
    g._blind = [False] * n
    g._amender = -1
    g._auction_out = 0
    g._contract = -1
    g._contract_seat = -1
    forget_legal(g)
    style = r.bid_style
    if not style:
        g._looked = [True] * n
        g._waiting = None
        return False
    enter_phase(g, _BID)
    g._looked = [not r.blind or forehead] * n
    order0 = _bidders(g) if r.team_bids else g._seats
    g._bid_pos = 0
    give_turn(g, order0[0])
    g._waiting = list(order0) if style == 2 else None
    return True


def _hook_bid(g: Game, s: int, lo: int, hi: int) -> int:
    """The bid the hook forbids seat ``s`` now, or -1: the number that would make
    the bids add up to the tricks, for the last seat to bid (the dealer; with one
    bid per side, the last side's bidder), when that number is a bid of the range
    ``lo`` to ``hi`` and not its only one. The one place the hook is worked out:
    for the legal bids (:func:`_bid_options`) and for the view
    (:func:`_forbidden_bids`)."""
    r = g._rules
    if not r.hook or lo == hi:
        return -1
    if r.team_bids:
        order = _bidders(g)
        last = g._bid_pos == len(order) - 1 and s == order[-1]
    else:
        last = g._bid_pos == len(g._seats) - 1 and s == g._dealer
    if not last:
        return -1
    total = 0
    for b in g._bids:
        if b > 0:
            total += b
    excl = g._size - total
    return excl if lo <= excl <= hi else -1


#: A pass in an auction (``bidding: auction``).
_AUCTION_PASS: Final = Decline()


def _auction_floor(g: Game) -> tuple[int, int, bool]:
    """In an auction: the smallest and the largest bid the seat to bid may make
    now, and whether it must bid (the dealer, when everyone else has passed)."""
    lo, hi = g._rules.bid_range(g._size)
    high = max(g._bids, default=-1)
    if g._rules.auction_throw_in:
        stuck = False  # everyone may pass: the hand is then thrown in
    elif g._rules.auction_rounds:
        # Round and round: the last seat in when everyone else has passed.
        stuck = high < 0 and g._auction_out.bit_count() == len(g._seats) - 1
    else:
        stuck = high < 0 and g._bid_pos == len(g._seats) - 1
    return max(lo, high + 1), hi, stuck


def _auction_options(g: Game) -> tuple[Action, ...]:
    """The actions of the seat to bid in an auction: each bid above the highest
    so far, and a pass (not for the dealer when everyone else has passed)."""
    r = g._rules
    floor, hi, stuck = _auction_floor(g)
    contracts = r.contracts
    if contracts:
        # Contract bids: every one that outranks the highest so far.
        floor, hi = g._contract + 1, len(contracts) - 1
    key = (floor, hi, -2, stuck)
    opts = r.bid_cache.get(key)
    if opts is None:
        bids: tuple[Action, ...] = (
            contracts[floor:] if contracts else tuple(Bid(b) for b in range(floor, hi + 1))
        )
        opts = bids if stuck else (*bids, _AUCTION_PASS)
        r.bid_cache[key] = opts
    return opts


def _bid_options(g: Game, s: int) -> tuple[Action, ...]:
    """The bids seat ``s`` may make now (with :class:`Look` first while it may
    still bid blind); cached by the rules per range, hook and blindness."""
    r = g._rules
    if r.auction:
        return _auction_options(g)
    lo, hi = r.bid_range(g._size)
    excl = _hook_bid(g, s, lo, hi)
    blind = r.blind and not g._looked[s]
    key = (lo, hi, excl, blind)
    opts = r.bid_cache.get(key)
    if opts is None:
        only = r.blind_only if blind else frozenset()
        opts = tuple(
            Bid(b, blind=blind) for b in range(lo, hi + 1) if b != excl and (not only or b in only)
        )
        if blind:
            opts = (_LOOK, *opts)
        r.bid_cache[key] = opts
    return opts


def _forbidden_bids(g: Game, s: int) -> tuple[ForbiddenBid, ...]:
    """The bids of this hand's range (``View.bid_range``) that seat ``s``, to bid
    now, may not make (once it has looked at its cards, in a game of blind
    bids), each with the code and the message of the refusal that
    :meth:`Game.apply <cardrules.engine.game.Game.apply>` raises for it: the
    same functions decide (:func:`_hook_bid`, as for :func:`_bid_options`) and
    explain (:func:`~cardrules.engine.views.refusals._explain_bid`, as for
    :func:`_try_bid`)."""
    lo, hi = g._rules.bid_range(g._size)
    if g._rules.contracts:
        return ()  # bids in strains: the legal actions list the ones that outrank
    if g._rules.auction:
        # An auction: the bids of the range not above the highest so far.
        floor = _auction_floor(g)[0]
        return tuple(
            ForbiddenBid(s, b, "bid_not_higher", _not_higher_words(g, b))
            for b in range(lo, min(floor, hi + 1))
        )
    n = _hook_bid(g, s, lo, hi)
    if n < 0:
        return ()
    code, why, _ = _explain_bid(g._rules, g._size, g._bids, s, n, amend=False)
    return (ForbiddenBid(s, n, code, why),)


def _amend_options(g: Game, s: int) -> tuple[Action, ...]:
    """The changes seat ``s`` may make to its bid now (none unless it is the
    last seat to have bid, before the next one bids)."""
    if s < 0 or s != g._amender or g._phase != _BID:
        return ()
    lo, hi = g._rules.bid_range(g._size)
    cur = g._bids[s]
    return tuple(Amend(b) for b in range(lo, hi + 1) if b != cur)


_T = TypeVar("_T")


def _with(values: list[_T], s: int, value: _T) -> list[_T]:
    """A copy of ``values`` with ``value`` at ``s``."""
    out = values[:]
    out[s] = value
    return out


def _do_bid(g: Game, s: int, action: Action) -> bool:
    """Seat ``s`` looks, bids or changes its bid (``action`` is legal); after the
    last bid, the bids are logged and the play starts. Returns True when
    everyone passed in an auction that throws the hand in (``all pass: the
    hand is thrown in``): the caller deals the next hand."""
    forget_legal(g)
    # Each seat's bids and flags are replaced, never changed in place, so that
    # a clone shares them (engine/state/slots.py: copy "value").
    if action is _LOOK:
        g._looked = _with(g._looked, s, True)
        log_event(g, ("look", s))
        return False
    if action is _AUCTION_PASS:
        log_event(g, ("call", s, action))
        g._auction_out |= 1 << s
        return _next_bidder(g, s)
    if type(action) is Amend:
        g._bids = _with(g._bids, s, action.n)
        g._blind = _with(g._blind, s, False)
        log_event(g, ("amend", s, action.n))
        return False
    if type(action) is Contract:
        # A contract bid: its level is the seat's bid, its rank the highest so far.
        g._bids = _with(g._bids, s, action.level)
        g._contract = g._rules.contract_rank[action]
        g._contract_seat = s
        log_event(g, ("call", s, action))
        return _next_bidder(g, s)
    assert type(action) is Bid
    g._bids = _with(g._bids, s, action.n)
    g._blind = _with(g._blind, s, action.blind)
    g._looked = _with(g._looked, s, True)
    log_event(g, ("bid", s, action.n, action.blind))
    return _next_bidder(g, s)


def _next_bidder(g: Game, s: int) -> bool:
    """Seat ``s`` has bid (or passed in an auction): the next seat to bid, or
    the end of the bidding. True when everyone passed and the hand is thrown
    in (see :func:`_do_bid`)."""
    # The seats dealt to, the dealer last (one per side: engine/phases/bidding._bidders).
    seats = _bidders(g) if g._rules.team_bids else g._seats
    n = len(seats)
    if g._rules.auction_rounds:
        nxt = _next_in_auction(g, s)
        if nxt >= 0:
            give_turn(g, nxt)
            return False
    elif g._waiting is None:
        pos = g._bid_pos + 1
        g._bid_pos = pos
        g._amender = s if g._rules.amend and pos < n else -1
        if pos < n:
            give_turn(g, seats[pos])
            return False
    else:
        w = g._waiting
        w.remove(s)
        if w:
            give_turn(g, w[0])
            return False
    g._amender = -1
    g._waiting = None
    if g._rules.auction_throw_in and max(g._bids, default=-1) < 0:
        # Everyone passed: the hand is thrown in (the caller deals the next).
        log_event(g, ("thrown in", g._hand_index + 1))
        return True
    log_event(g, ("bids", tuple(g._bids)))
    if g._rules.contracts:
        # The winning contract bid makes trumps (no naming step).
        if _declare_contract(g, g._contract_seat, g._rules.contracts[g._contract]):
            _start_play(g)
    elif not _open_for_bidder(g):
        _start_play(g)
    return False


def _next_in_auction(g: Game, s: int) -> int:
    """Round and round (``auction: until the others pass``), after seat ``s``
    has spoken: the next seat in turn that has not passed, or -1 when the
    auction is over (every seat but the highest bidder has passed)."""
    seats = g._seats
    out = g._auction_out
    k = seats.index(s)
    high = max(g._bids, default=-1)
    for step in range(1, len(seats) + 1):
        t = seats[(k + step) % len(seats)]
        if out >> t & 1:
            continue
        top = g._contract_seat == t if g._rules.contracts else g._bids[t] == high
        if high >= 0 and top and out.bit_count() == len(seats) - 1:
            return -1  # the highest bidder, everyone else out: it stands
        g._bid_pos += 1
        return t
    return -1


def _after_trumps(g: Game) -> None:
    """Trumps have just been made by a player: the bidding, when it is still to
    come, else the play."""
    forget_legal(g)
    if g._rules.trump_namer == NAMER_BIDDER or not _start_bidding(g):
        _start_play(g)


def _try_amend(g: Game, actor: int, action: Amend) -> None:
    """The slow path of a change of bid by seat ``actor``: make it if it is legal
    now, else raise IllegalAction with the reason (the game unchanged)."""
    if not g._rules.amend:
        raise _refusal(
            "not_in_variant", "this variant does not allow changing a bid", actor, action
        )
    if g._phase != _BID or actor < 0 or actor != g._amender:
        raise _refusal(
            "cannot_amend",
            "a bid may only be changed by the last seat to bid, before the next seat bids",
            actor,
            action,
        )
    if action in _amend_options(g, actor):
        _do_bid(g, actor, action)
        return
    code, why, data = _explain_bid(g._rules, g._size, g._bids, actor, action.n, amend=True)
    raise _refusal(code, why, actor, action, data)


def _try_bid(g: Game, actor: int, action: Action) -> bool:
    """The slow path of an action by seat ``actor`` in the bidding: make it if it
    is legal (a simultaneous bid by a seat other than the first one waiting),
    else raise IllegalAction with the reason (the game unchanged). True when
    the hand is thrown in (see :func:`_do_bid`)."""
    if g._waiting is not None:
        if actor not in g._waiting:
            raise _refusal("already_bid", f"seat {actor} has already bid this hand", actor, action)
    elif actor != g._to_act:
        raise _refusal(
            "not_your_turn",
            f"it is seat {g._to_act}'s turn to bid, not seat {actor}'s",
            actor,
            action,
            {"to_act": g._to_act, "phase": "bid"},
        )
    if type(action) is Play:
        raise _refusal(
            "not_in_phase",
            f"the bidding is not over: seat {actor} must bid before playing",
            actor,
            action,
            {"phase": "bid"},
        )
    opts = _bid_options(g, actor)
    if action in opts:
        return _do_bid(g, actor, action)
    _explain_refused_bid(g, actor, action)


def _explain_refused_bid(g: Game, actor: int, action: Action) -> NoReturn:
    """Raise the reason a look or bid by seat ``actor`` is not among its options."""
    r = g._rules
    if r.auction:
        _explain_auction_refusal(g, actor, action)
    if action is _LOOK:
        if r.blind:
            raise _refusal("already_looked", "you have already looked at your cards", actor, action)
        raise _refusal(
            "not_in_variant",
            "this variant has no blind bidding: your cards are already visible",
            actor,
            action,
        )
    if not isinstance(action, Bid):
        raise _refusal(
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} is to bid",
            actor,
            action,
            {"phase": "bid"},
        )
    if action.blind and not (r.blind and not g._looked[actor]):
        if r.blind:
            raise _refusal(
                "blind_after_look",
                "a blind bid is only possible before you look at your cards",
                actor,
                action,
            )
        raise _refusal("not_in_variant", "this variant has no blind bids", actor, action)
    if action.blind and r.blind_only and action.n not in r.blind_only:
        allowed = " or ".join(map(str, sorted(r.blind_only)))
        raise _refusal(
            "blind_bid_value",
            f"only {allowed} may be bid blind: look at your cards to bid {action.n}",
            actor,
            action,
            {"value": action.n, "allowed": sorted(r.blind_only)},
        )
    if not action.blind and not g._looked[actor]:
        raise _refusal(
            "not_looked",
            "you have not looked at your cards: bid blind, or Look() first",
            actor,
            action,
        )
    code, why, data = _explain_bid(r, g._size, g._bids, actor, action.n, amend=False)
    raise _refusal(code, why, actor, action, data)


def _explain_auction_refusal(g: Game, actor: int, action: Action) -> None:
    """Raise the reason a pass or a bid in an auction is refused, when it is
    the auction's own rule (a bid not above the highest, the dealer's pass when
    everyone else passed); return for a reason the other bids share."""
    floor, hi, stuck = _auction_floor(g)
    if g._rules.contracts or type(action) is Contract:
        _explain_contract_refusal(g, actor, action)
    if action is _AUCTION_PASS and stuck:
        raise _refusal(
            "dealer_must_bid",
            "everyone else has passed: the dealer must bid",
            actor,
            action,
            {"phase": "bid"},
        )
    lo = g._rules.bid_range(g._size)[0]
    if type(action) is Bid and not action.blind and lo <= action.n <= hi and action.n < floor:
        raise _refusal(
            "bid_not_higher",
            _not_higher_words(g, action.n),
            actor,
            action,
            {"value": action.n, "lowest": floor},
        )


def _explain_contract_refusal(g: Game, actor: int, action: Action) -> None:
    """Raise the reason a contract bid (or a bid of a number, in an auction of
    contracts) is refused; return for a reason the other bids share."""
    r = g._rules
    if type(action) is Contract and not r.contracts:
        raise _refusal(
            "not_in_variant",
            "this game's bids are numbers, not a level in a strain",
            actor,
            action,
        )
    if type(action) is Bid:
        raise _refusal(
            "not_in_variant",
            "a bid of this game is a level in a strain, such as "
            f"{r.contracts[0].label.removeprefix('bid ')}",
            actor,
            action,
        )
    if type(action) is not Contract:
        return
    rank = r.contract_rank.get(action, -1)
    if rank < 0:
        raise _refusal(
            "bid_out_of_range",
            f"{action.label.removeprefix('bid ')} is not a bid of this game",
            actor,
            action,
            {"value": action.label},
        )
    standing = r.contracts[g._contract].label.removeprefix("bid ")
    raise _refusal(
        "bid_not_higher",
        f"a bid must outrank the highest bid so far ({standing}): bid higher, or pass",
        actor,
        action,
        {"value": action.label, "highest": standing},
    )


def _not_higher_words(g: Game, n: int) -> str:
    """Why a bid of ``n`` (in the range, not above the highest) is refused in an
    auction: the words of the refusal and of the view's forbidden bids."""
    floor, hi, _ = _auction_floor(g)
    if floor > hi:
        return f"the highest bid ({hi}) has been made: pass"
    return (
        f"a bid must be higher than the highest bid so far ({floor - 1}): bid {floor} "
        "or more, or pass"
    )
