"""The start of a hand: the first dealer, the deal and the trumps.

:func:`_begin` finds the first dealer (the rules' way, such as cutting for the
deal, or the seat given) and starts the first hand. :func:`_start_hand` deals
hand after hand: its card order comes from the recorded deals (restore and
replay), a given deck, or the seed's shuffle (:mod:`~cardrules.engine.state.deck_order`);
the cards go one at a time from the dealer's neighbour (to the seats still in,
when players are knocked out: :mod:`~cardrules.engine.phases.knockout`); a card is turned up for
trumps in the hands the rules say (or the trump suit of the hand is the rules'
fixed one; or the dealer's own last card, which stays in the dealer's hand
and is known to everyone), and set with its rank tables by
:func:`~cardrules.engine.state.ranks._set_trump`; the hand's state is reset and the pass of
cards (:func:`~cardrules.engine.phases.passing._start_passing`, in games that pass), the
trumps phase of a player's choice (:func:`~cardrules.engine.phases.trumps._open_after_deal`),
the bidding (:func:`~cardrules.engine.phases.bidding._start_bidding`) or, without bids, the
play (:func:`~cardrules.engine.phases.play._start_play`) begins.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardrules.cards import CARDS, deal_copies
from cardrules.engine.phases.bidding import _start_bidding
from cardrules.engine.phases.knockout import _seats_in
from cardrules.engine.phases.passing import _start_passing
from cardrules.engine.phases.play import _start_play
from cardrules.engine.phases.trumps import (
    NAMER_ORDER_UP,
    _open_after_deal,
    _open_show,
    _reset_calls,
    _turned_special_suit,
)
from cardrules.engine.state.deck_order import (
    _check_deal,
    _first_dealer,
    _given_cut,
    _random_words,
    _shuffled,
)
from cardrules.engine.state.ranks import _set_trump
from cardrules.engine.state.tables import _BITS, _SUIT_OF, _SUITS
from cardrules.engine.state.transitions import log_event
from cardrules.rules import MAX_REDEALS_IN_A_ROW, HandSituation

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _begin(g: Game) -> None:
    """The first dealer (unless given) and the first hand."""
    words = _random_words(g._seed, 0, len(g._rules.pack) > 52, len(g._rules.pack))
    dealer = g._first_dealer_given
    if dealer is None:
        if g._cuts:
            dealer = _given_cut(g._variant, g._players, g._rules.pack_mask, g._cuts, g._events)
        else:
            dealer = _first_dealer(g._variant, g._players, g._rules.pack, words, g._events)
    _start_hand(g, dealer, words)


def _deck_for(g: Game, idx: int, k: int, words: tuple[int, ...] | None) -> Sequence[int]:
    """The card order for hand ``idx`` (0-based) that deals ``k`` cards: a given
    deck, else the seed's shuffle (``words``: the hand's random words, if drawn).
    After deals thrown in (``redeal:``), each deal takes the next given deck."""
    deal = idx + g._redeals
    if g._decks:
        if g._decks_reuse:
            return g._decks[0]
        if deal < len(g._decks):
            return g._decks[deal]
    pack = g._rules.pack
    return _shuffled(words or _random_words(g._seed, idx, len(pack) > 52, len(pack)), pack, k + 1)


def _thrown_in(g: Game, hands: list[int], trump: int, so: Sequence[int]) -> int:
    """The first seat in the order of the deal (``so``) whose hand meets the
    ``redeal:`` condition, in a hand whose trump suit is ``trump`` (-1: none)."""
    rule = g._rules.redeal
    if rule is None:
        return -1
    masks = rule.masks(g._rules.pack_mask, trump)
    for s in so:
        h = hands[s]
        for m in masks:
            if not h & m:
                return s
    return -1


def _deal_again(
    g: Game, idx: int, dealer: int, hands: list[int], turned: int, trump: int, seat: int
) -> int:
    """Throw in hand ``idx``'s deal: the deal as it came, then ``seat`` shows its
    hand (a public event); the dealer of the deal again is returned."""
    hn = idx + 1
    ev = g._events
    ev.append(("deal", hn, dealer, g._size, tuple(hands)))
    ev.append(("trump", hn, _SUITS[trump], None if turned < 0 else CARDS[turned & 63]))
    ev.append(("redeal", hn, seat, hands[seat]))
    g._redeals += 1
    g._hand_index = idx - 1
    return g._next_seat[dealer] if g._rules.redeal_next_dealer else dealer


def _dealt(
    g: Game,
    idx: int,
    so: Sequence[int],
    k: int,
    words: tuple[int, ...] | None,
    turn_up: bool,
    dealers_card: bool,
) -> tuple[list[int], int]:
    """The hands (a mask per seat) and the card turned up (-1: none) of hand
    ``idx`` dealt from its card order: ``k`` cards one at a time to the seats
    ``so``, the dealer last; the next card turned up (``turn_up``), or the
    dealer's own last card (``dealers_card``)."""
    order = _deck_for(g, idx, k, words)
    d = len(so)
    hands = [0] * g._players
    for j in range(d):
        m = 0
        for c in order[j:k:d]:
            m |= _BITS[c]
        hands[so[j]] = m
    turned = -1
    if turn_up:
        if k < len(order):
            turned = order[k]
        elif not g._rules.trump_rule.none_when_pack_empty:
            turned = order[k - 1]
    elif dealers_card:
        # The last card dealt, the dealer's own.
        turned = order[k - 1]
    return hands, turned


def _canonical_deal(hands: list[int], turned: int) -> tuple[list[int], int]:
    """A deal of several packs with its copies renumbered (the turned card, when
    in no hand, first; see :func:`~cardrules.cards.deal_copies`): so a deal is
    the same whichever copies the shuffle gave, and a log's deal, which tells
    only the cards, replays it exactly. A turned card in a hand (the dealer's
    own) becomes that hand's lowest copy of it."""
    holder = next((s for s, h in enumerate(hands) if turned >= 0 and h >> turned & 1), -1)
    if turned >= 0 and holder < 0:
        turned &= 63
        return list(deal_copies(hands, 1 << turned)), turned
    out = list(deal_copies(hands))
    if holder >= 0:
        base = turned & 63
        turned = next(base + 64 * k for k in range(4) if out[holder] >> (base + 64 * k) & 1)
    return out, turned


def _dealt_trump(g: Game, hn: int, turned: int, by_card: bool) -> int:
    """The trump suit of hand ``hn`` as dealt (-1: none): the turned card's
    suit when a card decides it (``by_card``), else the rules' fixed one."""
    if by_card:
        base = turned & 63  # a copy of a card (several packs) is its card
        if turned >= 0 and base >= 54:
            return _turned_special_suit(g, turned)
        if turned >= 0 and base >= 52:
            # A joker (``special turned up: jokers, ...``): the suit it counts as, or none yet
            # (no trumps; or the dealer names them in the trumps phase).
            joker_suit = g._rules.turned_joker
            return joker_suit if 0 <= joker_suit < 4 else -1
        return -1 if turned < 0 else _SUIT_OF[turned]
    fixed = g._rules.trump_rule.fixed_trump(hn)
    return -1 if fixed is None else int(fixed)


def _start_hand(
    g: Game, dealer: int, words: tuple[int, ...] | None = None, in_a_row: int = 0
) -> None:
    """Deal the next hand, with ``dealer`` dealing: the cards, the trumps, the
    hand's fresh state, then the bidding or the play. A deal that meets the
    ``redeal:`` condition is thrown in and dealt again (``in_a_row``: the deals
    of this hand thrown in so far; after :data:`MAX_REDEALS_IN_A_ROW`, the deal
    stands)."""
    r = g._rules
    n = g._players
    idx = g._hand_index + 1
    g._hand_index = idx
    hn = idx + 1
    sizes = g._sizes
    size = sizes[idx] if idx < len(sizes) else g._largest
    if r.by_hand:
        # Lines under a condition on the hand: this hand's rules.
        last = len(sizes) - 1
        r = g._rules = r.for_hand(HandSituation(size, idx == 0, idx == last, idx > last))
    g._size = size
    g._dealer = dealer
    trule = r.trump_rule
    turn_up = r.turn_up_all or (r.turn_up_any and trule.is_turn_up_hand(hn))
    dealers_card = r.dealers_card and not (trule.no_trump_every and hn % trule.no_trump_every == 0)
    so = g._order[dealer]
    if r.knockout:
        so = _seats_in(g, so)  # the seats still in, the dealer last
    g._seats = so
    d = len(so)
    k = len(r.pack) if r.whole_pack and not r.tricks_mode else size * d
    if idx + g._redeals < len(g._forced):
        hands_t, turned = g._forced[idx + g._redeals]
        hands = list(hands_t)
        _check_deal(r, n, so, hn, size, hands, turned, turn_up, dealers_card)
    else:
        if in_a_row:
            # A deal again (``redeal:``) is shuffled with its own words: the n-th
            # of the game with the key -n (a hand's own key is its index, >= 0).
            words = _random_words(g._seed, -g._redeals, len(r.pack) > 52)
        hands, turned = _dealt(g, idx, so, k, words, turn_up, dealers_card)
    if r.copies:
        hands, turned = _canonical_deal(hands, turned)
    g._hands = hands
    g._turned = turned
    trump = _dealt_trump(g, hn, turned, turn_up or dealers_card)
    if r.redeal is not None and not r.redeal_may and in_a_row < MAX_REDEALS_IN_A_ROW:
        # In an order-up game the turned card is only offered: no trumps yet.
        shown = -1 if r.trump_namer == NAMER_ORDER_UP else trump
        seat = _thrown_in(g, hands, shown, so)
        if seat >= 0:
            again = _deal_again(g, idx, dealer, hands, turned, shown, seat)
            _start_hand(g, again, None, in_a_row + 1)
            return
    dealt = 0
    for h in hands:
        dealt |= h
    g._undealt = r.pack_mask & ~dealt & ~(_BITS[turned] if turned >= 0 else 0)
    # The kitty (``kitty:``): the cards left, face down, for the declarer.
    g._kitty = g._undealt if r.kitty else 0
    g._won = [0] * n
    prev_tricks = g._tricks if idx and r.trump_rule.is_named_hand(hn) else None
    if r.trump_namer == NAMER_ORDER_UP:
        trump = -1  # the turned card is only offered: ordered up, it makes trumps
    _set_trump(g, trump)
    _fresh_hand(g, hands, dealer, turned if dealers_card else -1)
    ev = g._events
    ev.append(("deal", hn, dealer, size, tuple(hands)))
    ev.append(("trump", hn, _SUITS[trump], None if turned < 0 else CARDS[turned & 63]))
    if r.redeal_may and in_a_row < MAX_REDEALS_IN_A_ROW:
        # Each seat in turn keeps its hand or shows it (the trumps phase's stage).
        g._redeal_run = in_a_row
        g._redeal_prev = prev_tricks
        _open_show(g, so[0])
        return
    _after_deal(g, prev_tricks)


def _fresh_hand(g: Game, hands: list[int], dealer: int, dealers_card: int) -> None:
    """The state of a hand before its first action: no tricks, calls, dead cards
    or broken suits yet (``dealers_card``: the dealer's own turned card, which
    only the dealer knows, or -1)."""
    n = g._players
    g._tricks = [0] * n
    in_count = 0
    for h in hands:
        if h:
            in_count += 1
    g._seats_per_trick = in_count
    g._known = [0] * n
    if dealers_card >= 0:
        g._known[dealer] = _BITS[dealers_card]
    _reset_calls(g)
    g._out = [not h for h in hands]
    g._dead = 0
    g._dead_by = [0] * n
    g._tricks_played = 0
    g._trick = []
    g._trick_seats = []
    g._broken_suits = 0
    g._broken_prev = 0
    g._forced_lead = False


def _after_deal(g: Game, prev_tricks: list[int] | None) -> None:
    """The deal stands: the pass of cards, the choice of trumps, the bidding or
    the play comes next (``prev_tricks``: the tricks of the previous hand, when
    the next trumps are named by them)."""
    if g._rules.passing and _start_passing(g):
        return
    if not _open_after_deal(g, prev_tricks) and not _start_bidding(g):
        _start_play(g)


def _deal_stands(g: Game) -> None:
    """Every seat kept its hand (``redeal: ... may be shown``): the hand goes on."""
    _after_deal(g, g._redeal_prev)


def _deal_shown(g: Game) -> None:
    """The seat to act showed its hand (``redeal: ... may be shown``): the deal
    is thrown in and the hand dealt again, by the same dealer or the next."""
    seat = g._to_act
    idx = g._hand_index
    log_event(g, ("redeal", idx + 1, seat, g._hands[seat]))
    g._redeals += 1
    g._hand_index = idx - 1
    dealer = g._dealer
    if g._rules.redeal_next_dealer:
        dealer = g._next_seat[dealer]
    _start_hand(g, dealer, None, g._redeal_run + 1)
