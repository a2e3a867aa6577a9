"""Trumps chosen by a player: the ``"trumps"`` phase of a hand.

A variant whose :attr:`~cardrules.rules.TrumpRule.namer` is not ``NOBODY`` has
a phase in which players choose the hand's trumps (``Game._phase`` is
:data:`~cardrules.engine.state.tables._TRUMPS`). The stages (``Game._call_stage``):

* ``_NAME``: one player (the highest bidder, after the bidding; or the
  winner of most tricks in the previous hand, after the deal) names a suit,
  or no trumps when the rules allow it (:class:`~cardrules.engine.actions.Name`);
* ``_ORDER``: order-up, first round: from the dealer's neighbour, each player
  orders the turned card up (:class:`~cardrules.engine.actions.OrderUp`) or
  passes (:class:`~cardrules.engine.actions.Decline`);
* ``_SECOND``: order-up, second round (everyone passed): each in turn names a
  suit other than the turned card's, or passes (not the dealer, when the rules
  stick the dealer); if all pass, the hand is thrown in;
* ``_DISCARD``: the card was ordered up: the dealer, holding it, discards one
  card face down (:class:`~cardrules.engine.actions.Discard`);
* ``_LONE``: games with ``going alone: yes``: trumps are made, and the maker
  plays alone (:class:`~cardrules.engine.actions.Alone`, see
  :mod:`~cardrules.engine.phases.alone`) or with its partners
  (:class:`~cardrules.engine.actions.WithPartner`);
* ``_DEFEND``: games with ``defending alone: yes``, after the maker went
  alone: each defender in turn from the maker's left defends alone
  (``Alone``; its partners sit out too) or not (``WithPartner``);
* ``_SHOW``: games with ``redeal: ... may be shown``, right after the deal:
  each seat in turn from the dealer's neighbour keeps its hand
  (:class:`~cardrules.engine.actions.Keep`) or, when it meets the condition,
  shows it (:class:`~cardrules.engine.actions.Show`): the deal is thrown in
  (:func:`~cardrules.engine.phases.deal._deal_shown`). Every seat is asked, so
  that being asked tells nothing of a hand;
* ``_JOKER_SUIT``: in the middle of the play, games with ``jokers without
  trumps: highest card``: a joker has just been led in a hand without trumps,
  and its player names the suit it stands for (``Name``), which the others
  must follow; the play then goes on (:func:`_open_joker_suit`);
* ``_DIRECTION``: games with ``downtown:``, once the highest bidder has named
  trumps: it plays the hand uptown or downtown
  (:class:`~cardrules.engine.actions.Downtown`).

Once trumps are made, the hand goes on to the bidding (if it has one and it has
not happened yet) or the play
(:func:`~cardrules.engine.phases.bidding._after_trumps`); a hand thrown in is
followed by the next deal (:func:`~cardrules.engine.phases.end._next_hand`). Each
action is logged as ``("call", seat, action)``; the making of trumps as
``("made", hand_number, seat, suit or None)``; the declarer taking the kitty
as ``("kitty", seat, cards)``; a hand thrown in as
``("thrown in", hand_number)``.

The dealer's last card turned for trumps (``TrumpKind.DEALERS_CARD``) needs no
phase: :mod:`~cardrules.engine.phases.deal` turns it and marks it known.

Every function takes the game as its first argument.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Final

from cardrules.cards import OPEN_MISERE_STRAIN, Suit
from cardrules.engine.actions import (
    Action,
    Alone,
    Contract,
    Decline,
    Discard,
    Downtown,
    Keep,
    Misere,
    Name,
    OrderUp,
    Show,
    WithPartner,
)
from cardrules.engine.phases.alone import _defend_alone, _defenders, _go_alone
from cardrules.engine.state.compiled_rules import TURNED_JOKER_DEALER_NAMES
from cardrules.engine.state.ranks import _set_downtown, _set_joker_suit, _set_trump
from cardrules.engine.state.tables import _BITS, _PLAY, _SUIT_OF, _SUITS, _TRUMPS
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

#: The stages of the trumps phase (``Game._call_stage``).
_NAME: Final = 0
_ORDER: Final = 1
_SECOND: Final = 2
_DISCARD: Final = 3
_LONE: Final = 4
_DEFEND: Final = 5
_SHOW: Final = 6
_JOKER_SUIT: Final = 7
_DIRECTION: Final = 8

#: The compiled namer codes (``_Rules.trump_namer``).
NAMER_NOBODY: Final = 0
NAMER_BIDDER: Final = 1
NAMER_MOST_TRICKS: Final = 2
NAMER_ORDER_UP: Final = 3

#: What follows an action of the trumps phase (:func:`_do_call`).
CALL_GOES_ON: Final = 0
CALL_MADE: Final = 1
CALL_THROWN_IN: Final = 2
#: ``_SHOW``: every seat kept its hand (the deal stands), or one showed it.
CALL_KEPT: Final = 3
CALL_SHOWN: Final = 4

_ORDER_UP: Final = OrderUp()
_DECLINE: Final = Decline()
_NAME_ANY: Final = tuple(Name(s) for s in Suit)
_NO_TRUMPS: Final = Name(None)
_ALONE: Final = Alone()
_WITH_PARTNER: Final = WithPartner()
_LONE_OPTIONS: Final = (_WITH_PARTNER, _ALONE)
_KEEP: Final = Keep()
_SHOW_OPTIONS: Final = (_KEEP, Show())


def _may_show(g: Game, s: int) -> bool:
    """Whether seat ``s``'s hand meets the ``redeal:`` condition (a hand that
    ``may be shown``), in a hand whose trumps are the ones made so far."""
    rule = g._rules.redeal
    if rule is None:
        return False
    h = g._hands[s]
    return any(not h & m for m in rule.masks(g._rules.pack_mask, g._trump))


_DIRECTIONS: Final = (Downtown(False), Downtown(True))
_MISERE: Final = Misere()


def _cut(g: Game, tied: list[int], salt: bytes) -> int:
    """One of the ``tied`` seats at random: a cut. The draw follows from the
    hand's deal (hashed with the hand number), so that a game rebuilt from its
    deals alone, such as a record without its seed, cuts the same way."""
    dealt = b",".join(b"%d" % h for h in g._hands)
    data = b"cardrules:cut:%s:%d:%s" % (salt, g._hand_index, dealt)
    digest = hashlib.shake_128(data).digest(8)
    return tied[int.from_bytes(digest, "big") % len(tied)]


def _first_of(g: Game, values: list[int], salt: bytes) -> int:
    """The seat still in with the largest of ``values``; a tie as the rules say
    (the first in turn from the dealer's neighbour, or a cut)."""
    best = max(values)
    tied = [s for s in g._seats if values[s] == best]
    if len(tied) > 1 and g._rules.namer_cut:
        return _cut(g, tied, salt)
    return tied[0]


def _reset_calls(g: Game) -> None:
    """A new hand: nobody has made trumps, nothing is discarded."""
    g._maker = -1
    g._alone = -1
    g._defender = -1
    g._next_seat_all = ()
    g._discarded = 0
    g._downtown = False
    g._misere = False
    g._open_seat = -1
    g._call_stage = _NAME
    g._call_pos = 0


def _open_trumps(g: Game, stage: int, first: int) -> None:
    """Enter the trumps phase at ``stage`` with seat ``first`` to act."""
    enter_phase(g, _TRUMPS)
    g._call_stage = stage
    g._call_pos = 0
    give_turn(g, first)
    forget_legal_cards(g)


def _no_bids_yet(g: Game) -> None:
    """Before the bidding: no bids, every seat has looked at its cards."""
    n = g._players
    g._bids = [-1] * n
    g._blind = [False] * n
    g._looked = [True] * n
    g._waiting = None
    g._amender = -1
    g._forehead = False
    g._contract = -1
    g._contract_seat = -1


def _open_show(g: Game, first: int) -> None:
    """After the deal (``redeal: ... may be shown``): each seat in turn from
    ``first`` keeps its hand or shows it (stage ``_SHOW``)."""
    _no_bids_yet(g)
    _open_trumps(g, _SHOW, first)


def _open_after_deal(g: Game, prev_tricks: list[int] | None) -> bool:
    """After the deal: open the trumps phase when a player chooses now (the
    previous hand's winner of most tricks; order-up) and return True; else
    return False (the bidding or the play comes next). ``prev_tricks``: the
    tricks of the previous hand, when the rules name by them."""
    r = g._rules
    namer = r.trump_namer
    turned = g._turned
    if 52 <= turned < 54 and r.turned_joker == TURNED_JOKER_DEALER_NAMES:
        # A joker turned up (``special turned up: jokers, the dealer names trumps``).
        first = g._dealer
        stage = _NAME
    elif namer == NAMER_ORDER_UP and turned >= 0 and _turned_suit(g) >= 0:
        first = g._seats[0]
        stage = _ORDER
    elif r.turned_names and g._turned >= 0 and r.turned_names >> g._turned & 1:
        # A special card turned up that lets the dealer name trumps
        # (``special turned up: <kind>, the dealer names trumps``).
        first = g._dealer
        stage = _NAME
    elif namer == NAMER_MOST_TRICKS and prev_tricks is not None:
        first = _first_of(g, prev_tricks, b"tricks")
        stage = _NAME
    else:
        return False
    _no_bids_yet(g)
    _open_trumps(g, stage, first)
    return True


def _turned_special_suit(g: Game, turned: int) -> int:
    """The trump suit a special card (54-63) turned up for trumps makes: the suit
    it counts as (``count as``, ``rank above``), else none (-1): a card that always
    wins or loses has no suit, a kind turned up that means no trumps
    (``special turned up: jesters, no trumps``) makes none, and one that lets the
    dealer name trumps leaves the hand without until the dealer names them
    (:func:`_open_after_deal`)."""
    r = g._rules
    if (r.turned_none | r.turned_names) >> turned & 1:
        return -1
    for c, k, _up in r.special_ranks:
        if c == turned:
            return _SUIT_OF[k]
    return -1


def _turned_suit(g: Game) -> int:
    """The suit of the card turned up (-1: no trumps): its printed suit, for a
    special card the suit it counts as, or for a joker the suit the rules give
    it (``special turned up: jokers,`` followed by a suit)."""
    t = g._turned
    if t < 52:
        return _SUIT_OF[t]
    if t >= 54:
        return _turned_special_suit(g, t)
    joker_suit = g._rules.turned_joker
    return joker_suit if 0 <= joker_suit < 4 else -1


def _open_for_bidder(g: Game) -> bool:
    """The bidding is over: open the trumps phase for the highest bidder and
    return True when the rules say so; else return False (the play comes next)."""
    if g._rules.trump_namer != NAMER_BIDDER:
        return False
    _open_trumps(g, _NAME, _first_of(g, g._bids, b"bids"))
    return True


def _declare_contract(g: Game, s: int, bid: Contract) -> bool:
    """The auction of contracts is over: seat ``s``'s winning ``bid`` makes
    trumps (its suit, no trumps, or a misère: no trumps and the declarer
    alone), and the declarer takes the kitty and discards. Returns True when
    the play starts now (no kitty and nothing more to choose)."""
    _open_trumps(g, _NAME, s)
    if bid.misere:
        g._misere = True
        if bid.strain == OPEN_MISERE_STRAIN:
            g._open_seat = s
        _make(g, s, -1)
        _go_alone(g, s)
    else:
        suit = bid.suit
        _make(g, s, -1 if suit is None else int(suit))
    then = _contract_made(g)
    if then == CALL_MADE:
        forget_legal(g)
        return True
    return False


def _open_joker_suit(g: Game, s: int) -> None:
    """Seat ``s`` has just led a joker in a hand without trumps (``jokers
    without trumps: highest card``): it is to name the suit the joker stands
    for, in the trumps phase's :data:`_JOKER_SUIT` stage."""
    _open_trumps(g, _JOKER_SUIT, s)


def _name_joker_suit(g: Game, suit: int) -> None:
    """The joker led stands for ``suit``: the hand's tables say so, and the
    play goes on with the next seat."""
    joker = g._trick[0]
    _set_joker_suit(g, joker, suit)
    enter_phase(g, _PLAY)
    nxt = g._next_seat[g._trick_seats[-1]]
    give_turn(g, nxt)


def _trump_options(g: Game) -> tuple[Action, ...]:
    """The actions of the seat to act in the trumps phase."""
    r = g._rules
    stage = g._call_stage
    if stage == _JOKER_SUIT:
        return _NAME_ANY
    if stage == _NAME:
        names = (*_NAME_ANY, _NO_TRUMPS) if r.name_no_trumps else _NAME_ANY
        return (*names, _MISERE) if r.misere else names
    if stage == _ORDER:
        return (_ORDER_UP, _DECLINE)
    if stage in (_LONE, _DEFEND):
        return _LONE_OPTIONS
    if stage == _SHOW:
        return _SHOW_OPTIONS if _may_show(g, g._to_act) else (_KEEP,)
    if stage == _DIRECTION:
        return _DIRECTIONS
    if stage == _SECOND:
        turned_suit = _turned_suit(g)
        names = tuple(a for a in _NAME_ANY if a.suit != turned_suit)
        if r.name_no_trumps:
            names = (*names, _NO_TRUMPS)
        if r.stick_dealer and g._to_act == g._dealer:
            return names
        return (*names, _DECLINE)
    hand = g._hands[g._to_act]
    if r.keep_turned:
        hand &= ~_BITS[g._turned]
    return tuple(Discard(c) for c in range(64) if hand >> c & 1)


def _make(g: Game, s: int, trump: int) -> None:
    """Seat ``s`` has made ``trump`` (-1: no trumps) the trumps of the hand."""
    g._maker = s
    _set_trump(g, trump)
    log_event(g, ("made", g._hand_index + 1, s, _SUITS[trump]))


def _take_turned(g: Game) -> None:
    """Trumps are made by the turned card: the dealer takes it into hand (known
    to everyone) and is to discard one card face down."""
    t = g._turned
    dealer = g._dealer
    g._hands[dealer] |= _BITS[t]
    known = g._known[:]  # replaced, never changed in place (a clone shares it)
    known[dealer] |= _BITS[t]
    g._known = known
    g._call_stage = _DISCARD
    give_turn(g, dealer)


def _made(g: Game) -> int:
    """Trumps are made (and any discard done): the maker's choice to play alone
    comes next when the rules allow it, else the hand goes on."""
    if g._rules.going_alone:
        g._call_stage = _LONE
        give_turn(g, g._maker)
        return CALL_GOES_ON
    return CALL_MADE


def _contract_made(g: Game) -> int:
    """The highest bidder has named trumps (and uptown or downtown): with a
    kitty, it takes the kitty into hand and discards as many cards next; else
    trumps are made."""
    kitty = g._kitty
    if not kitty:
        return _made(g)
    s = g._maker
    log_event(g, ("kitty", s, kitty))
    g._hands[s] |= kitty
    g._undealt &= ~kitty
    g._kitty = 0
    g._call_stage = _DISCARD
    forget_legal_cards(g)
    return CALL_GOES_ON


def _do_call(g: Game, s: int, action: Action) -> int:
    """Seat ``s`` makes the legal ``action`` of the trumps phase. Returns what
    the caller does next: :data:`CALL_GOES_ON` (the phase goes on),
    :data:`CALL_MADE` (trumps are made: the bidding, if still to come, or the
    play) or :data:`CALL_THROWN_IN` (everyone passed twice: the next hand)."""
    forget_legal(g)
    ev = g._events
    ev.append(("call", s, action))
    stage = g._call_stage
    if stage == _SHOW:
        if action is not _KEEP:
            return CALL_SHOWN
        seats = g._seats
        pos = g._call_pos + 1
        if pos < len(seats):
            g._call_pos = pos
            give_turn(g, seats[pos])
            return CALL_GOES_ON
        return CALL_KEPT
    if stage == _LONE:
        if action is _ALONE:
            _go_alone(g, s)
            if g._rules.defend_alone:
                defenders = _defenders(g)
                if defenders:
                    g._call_stage = _DEFEND
                    g._call_pos = 0
                    give_turn(g, defenders[0])
                    return CALL_GOES_ON
        return CALL_MADE
    if stage == _DEFEND:
        if action is _ALONE:
            _defend_alone(g, s)
            return CALL_MADE
        defenders = _defenders(g)
        pos = g._call_pos + 1
        if pos < len(defenders):
            g._call_pos = pos
            give_turn(g, defenders[pos])
            return CALL_GOES_ON
        return CALL_MADE
    if stage == _JOKER_SUIT and type(action) is Name and action.suit is not None:
        _name_joker_suit(g, int(action.suit))
        return CALL_GOES_ON
    if type(action) is Name:
        _make(g, s, -1 if action.suit is None else int(action.suit))
        if stage == _NAME and g._rules.trump_namer == NAMER_ORDER_UP:
            # The dealer named trumps for a turned-up joker: as if ordered up,
            # the dealer takes it and discards.
            _take_turned(g)
            return CALL_GOES_ON
        if g._rules.downtown:
            g._call_stage = _DIRECTION
            return CALL_GOES_ON
        return _contract_made(g)
    if action is _MISERE:
        # No trumps; the declarer's partners sit out; it must take no trick.
        g._misere = True
        _make(g, s, -1)
        _go_alone(g, s)
        return _contract_made(g)
    if type(action) is Downtown:
        if action.low:
            g._downtown = True
            _set_downtown(g)
        return _contract_made(g)
    if action is _ORDER_UP:
        _make(g, s, _turned_suit(g))
        _take_turned(g)
        return CALL_GOES_ON
    if type(action) is Discard:
        c = int(action.card)
        bit = _BITS[c]
        g._hands[s] &= ~bit
        g._discarded |= bit
        if g._turned >= 0:
            # Nobody else may tell whether the turned card was the one discarded.
            known = g._known[:]  # replaced, never changed in place (slots.py)
            known[s] &= ~_BITS[g._turned]
            g._known = known
        if g._discarded.bit_count() < g._rules.kitty:
            return CALL_GOES_ON  # more of the kitty's count to discard
        return _made(g)
    # A pass.
    seats = g._seats  # the seats dealt to, from the dealer's neighbour, the dealer last
    pos = g._call_pos + 1
    if pos < len(seats):
        g._call_pos = pos
        give_turn(g, seats[pos])
        return CALL_GOES_ON
    if stage == _ORDER:
        g._call_stage = _SECOND
        g._call_pos = 0
        give_turn(g, seats[0])
        return CALL_GOES_ON
    ev.append(("thrown in", g._hand_index + 1))
    return CALL_THROWN_IN


def _try_call(g: Game, actor: int, action: Action) -> int:
    """The trumps phase's path of :meth:`Game.apply`: make ``action`` by seat
    ``actor`` if it is legal (see :func:`_do_call` for the result), else raise
    IllegalAction with the reason (the game unchanged)."""
    if actor != g._to_act:
        raise _refusal(
            "not_your_turn",
            f"it is seat {g._to_act}'s turn to choose trumps, not seat {actor}'s",
            actor,
            action,
            {"to_act": g._to_act, "phase": "trumps"},
        )
    opts = _trump_options(g)
    if action in opts:
        return _do_call(g, actor, action)
    code, why = _explain_call(g, actor, action)
    data: dict[str, object] = {"phase": "trumps"}
    if type(action) is Discard:
        data["card"] = str(action.card)
    elif type(action) is Name:
        data["suit"] = None if action.suit is None else action.suit.word
    raise _refusal(code, why, actor, action, data)


def _explain_call(g: Game, actor: int, action: Action) -> tuple[str, str]:
    """Why ``action`` by seat ``actor`` is not legal in the trumps phase: the
    error code and the message."""
    r = g._rules
    stage = g._call_stage
    if stage == _SHOW:
        if type(action) is Show:
            return (
                "may_not_show",
                f"seat {actor}'s hand does not meet the redeal rule: keep the hand",
            )
        return (
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} keeps the hand or shows it "
            "(the redeal rule)",
        )
    if type(action) is Downtown and not r.downtown:
        return "not_in_variant", "this variant has no downtown: the ranks are always as usual"
    if action is _MISERE and not r.misere:
        return "not_in_variant", "this variant has no misère contract"
    if stage == _LONE:
        return (
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} made trumps and must "
            "go alone or play with partner",
        )
    if stage == _DIRECTION:
        return (
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} has named trumps and must "
            "play the hand uptown or downtown",
        )
    if stage == _DEFEND:
        return (
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} must defend alone against "
            "the lone maker (go alone) or play with partner",
        )
    if stage == _JOKER_SUIT:
        return (
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} led a joker and must name "
            "the suit it stands for",
        )
    if stage == _DISCARD:
        if type(action) is Discard and int(action.card) == g._turned:
            return (
                "keeps_turned_card",
                f"the dealer keeps the turned card ({action.card}): discard another card",
            )
        if type(action) is Discard:
            return (
                "card_not_in_hand",
                f"seat {actor} does not hold {action.card}: discard one of your cards",
            )
        if r.kitty:
            left = r.kitty - g._discarded.bit_count()
            return (
                "must_discard",
                f"seat {actor} has taken the kitty and must discard {left} more "
                f"card{'' if left == 1 else 's'} first",
            )
        return (
            "must_discard",
            f"seat {actor} has taken the turned card and must discard a card first",
        )
    if stage == _ORDER:
        return (
            "not_in_phase",
            f"{action.label} is not possible now: order up the turned card or pass "
            "(the first round)",
        )
    if type(action) is Name:
        if action.suit is None:
            return "not_in_variant", "this variant does not allow naming no trumps"
        return (
            "suit_turned_down",
            f"{action.suit.word} cannot be named: it is the suit of the card turned down",
        )
    if type(action) is Decline and stage == _SECOND:
        return (
            "stick_the_dealer",
            "the dealer may not pass in the second round (stick the dealer)",
        )
    what = "name a suit or pass" if stage == _SECOND else "name trumps"
    if stage == _NAME and r.trump_namer == NAMER_BIDDER:
        what = "name trumps (the highest bidder)"
    return "not_in_phase", f"{action.label} is not possible now: seat {actor} must {what}"
