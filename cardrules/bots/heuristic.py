"""A rule-of-thumb bot: bids by counting likely tricks and plays to make its bid exactly.

Everything it knows comes from the :class:`~cardrules.engine.views.view.View` of its
seat (or the same fields of its
:class:`~cardrules.engine.views.context.DecisionContext`, read on demand):
its own cards, the trump (and the hand's trump order: the cards that are
trumps whatever their printed suit, ranked above the trump suit's ace), the
bids, the tricks won, the current trick and the cards played so far. From
these it works out which cards are still *unseen* (possibly in another hand)
and estimates, with simple hypergeometric odds, how likely each of its cards
is to win a trick.

Trick-taking games (Oh Hell, Kachuful, ...):

* **Bidding**: the sum over its cards of the chance that each wins a trick
  (high trumps, aces and kings guarded by length, long trumps, low trumps
  that can ruff a void or short suit), corrected for the lead in very small
  hands; then the legal bid nearest to that estimate (the hook may forbid
  one: it takes the next nearest).
* **Play**: while it still needs tricks it wins cheaply (the lowest card that
  takes the trick and is likely to keep it, the lowest trump when ruffing) and
  leads its sure winners; once its bid is made, or when it bid zero, it ducks
  (the highest card that still loses), discards its most dangerous high cards
  when void and leads the card least likely to win.
* **Known voids** (``view.showed_out``): a seat that did not follow a suit
  holds none of it. While it needs tricks, the bot does not count a winner of
  a suit an opponent still to play has shown out of (and may trump) as safe:
  it leads its other masters first, and keeps such a card back when it follows
  rather than throwing it under a likely ruff. Once its bid is made it leads
  into such a suit first, so that the opponent takes the trick.

Games scored by the card points taken, where the lowest total wins (Hearts):
it plays to take no tricks (as after a made bid), throws its most costly cards
when void, and passes (``pass:``) its most dangerous cards: the cards worth the
most points, the cards above a costly card of their suit that is not its own
(A♠ and K♠ catch Q♠ in Hearts), then its highest cards. A card worth minus
points (a bonus, J♦ in Omnibus Hearts) it keeps when passing, and it takes a
trick worth less than nothing when it plays last to it.

Shedding games (Kazhutha): see :meth:`HeuristicBot._shed`.

Choosing trumps (see :meth:`HeuristicBot._trumps`): it orders up the turned
card with at least 3 cards of its suit in 5 (about half its hand, counting the
card when it is the dealer), names its longest and strongest suit (and passes
in a second round unless that suit is as long), and as the dealer discards its
lowest card outside trumps, from its shortest suit. Having made trumps where
the rules let the maker go alone, it goes alone only with a very strong hand:
the highest trump and at least three more trumps, every other card an ace.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Final

from cardrules.cards import ALL_CARDS, CARDS, FULL_DECK_MASK, SUIT_MASKS, Card
from cardrules.engine.actions import (
    Action,
    Alone,
    Bid,
    Contract,
    Decline,
    Discard,
    Downtown,
    Keep,
    Look,
    Name,
    OrderUp,
    Pass,
    Play,
    Show,
    WithPartner,
)
from cardrules.engine.state.ranks import STANDARD, RankTables, tables_for
from cardrules.engine.views.context import DecisionContext, SeatView

__all__ = ["HeuristicBot"]

_LOOK: Final = Look()


#: In team games: how the heuristic scales its trick estimate, what it adds, and
#: below which estimate it bids 0 (tuned on Spades against itself).
_TEAM_BID_SCALE: Final = 1.0
_TEAM_BID_EXTRA: Final = 1.0
_TEAM_NIL_BELOW: Final = 0.5


def _points(points: tuple[int, ...], c: int) -> int:
    """The points card ``c`` carries (``view.card_points``; 0 beyond its end, as
    for a joker when only the standard 52 carry points)."""
    return points[c] if c < len(points) else 0


def _mask(cards: tuple[Card, ...] | list[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _hand_bits(view: SeatView) -> int:
    """The seat's cards as a mask (0 while it may not see them): a decision
    context's own mask, without building its cards; a view's hand, counted."""
    if type(view) is DecisionContext:
        return view.hand_mask or 0
    return _mask(view.hand or ())


def _played_bits(view: SeatView) -> int:
    """``view.played`` as a mask (a decision context's own, as :func:`_hand_bits`)."""
    if type(view) is DecisionContext:
        return view.played_mask
    return _mask(view.played)


def _p_at_least(k: int, pop: int, succ: int, draws: int) -> float:
    """P(X >= k) for X hypergeometric (``draws`` from ``pop`` with ``succ`` successes)."""
    if k <= 0:
        return 1.0
    if pop <= 0 or draws <= 0 or succ <= 0:
        return 0.0
    draws = min(draws, pop)
    total = comb(pop, draws)
    below = 0
    for i in range(min(k, succ + 1, draws + 1)):
        below += comb(succ, i) * comb(pop - succ, draws - i)
    return max(0.0, 1.0 - below / total)


def _rank(c: int) -> int:
    """A card's rank for comparing cards: 2 is 0, the ace 12; the little and the
    big joker 13 and 14."""
    return c % 13 if c < 52 else c - 39


#: Card id -> its rank for comparing cards of different suits (2 is 0, ace 12,
#: the jokers 13 and 14).
_STANDARD_RANKS: Final = tuple(_rank(c) for c in range(64))
_RANKS_CACHE: dict[tuple[int, ...], tuple[int, ...]] = {}


def _tables(view: SeatView) -> RankTables:
    """The hand's suits and powers as the view shows them: printed suits, aces
    high, unless the variant has a trump order (``view.trump_order``)."""
    if not view.trump_order or view.trump is None:
        return STANDARD
    return tables_for(int(view.trump), [int(c) for c in view.trump_order])


def _trump_of(view: SeatView) -> int:
    """The suit that beats the others in this hand's play (-1: none): the trump
    suit; in a hand without trumps whose jokers are the highest cards
    (``jokers without trumps: highest card``), the jokers' own suit (4 in
    :data:`STANDARD`), since a joker played off suit wins as a trump would."""
    if view.trump is not None:
        return int(view.trump)
    if view.jokers and view.jokers_without_trumps == "highest card":
        return 4
    return -1


def _cross_ranks(t: RankTables) -> tuple[int, ...]:
    """Card id -> a rank for comparing cards of different suits: the printed rank,
    and the trump order's cards above every ace (highest first)."""
    if not t.top:
        return _STANDARD_RANKS
    hit = _RANKS_CACHE.get(t.top)
    if hit is None:
        ranks = list(_STANDARD_RANKS)
        for i, c in enumerate(t.top):
            ranks[c] = 13 + len(t.top) - i
        hit = tuple(ranks)
        if len(_RANKS_CACHE) < 512:
            _RANKS_CACHE[t.top] = hit
    return hit


def _void_masks(view: SeatView) -> list[int]:
    """Per seat, a mask of the suits (bit ``s`` for suit ``s``) it showed out of
    this hand (``view.showed_out``; all zero for a hand-built view without it)."""
    if type(view) is DecisionContext:
        return list(view.void_masks)
    masks = [0] * view.players
    for seat, suits in enumerate(view.showed_out[: view.players]):
        for suit in suits:
            masks[seat] |= 1 << int(suit)
    return masks


class HeuristicBot:
    """A bot that bids by counting likely tricks and plays to make its bid exactly.

    It is deterministic: the same view always gives the same action.

    Args:
        seed: accepted so that every bot class can be built as ``Bot(seed)``;
            this bot does not use randomness.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def __repr__(self) -> str:
        return "HeuristicBot()"

    # ------------------------------------------------------------------ entry

    def choose_context(self, ctx: DecisionContext) -> Action:
        """Pick an action from the seat's decision context: the same choice
        as :meth:`choose` makes from the seat's view (it reads the same
        fields, computed on demand).

        Args:
            ctx: the seat's decision context; its ``legal_actions`` must not be empty.

        Returns:
            One of ``ctx.legal_actions``.
        """
        return self.choose(ctx)

    def choose(self, view: SeatView) -> Action:
        """Pick an action for the seat of ``view``.

        Args:
            view: the seat's view (or its decision context); its
                ``legal_actions`` must not be empty.

        Returns:
            One of ``view.legal_actions``.

        Raises:
            ValueError: if the seat has no legal action.
        """
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action")
        if len(legal) == 1:
            return legal[0]
        if view.special_powers and view.phase in ("bid", "play"):
            # A pack with special cards (always win, always lose): their own play.
            return _special_choice(view)
        if view.phase == "bid":
            return self._bid(view)
        if view.phase == "pass":
            return self._pass(view, [a for a in legal if isinstance(a, Pass)] or list(legal))
        if view.phase == "trumps":
            return self._trumps(view)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        if _is_shedding(view):
            return self._shed(view, plays)
        return self._play(view, plays)

    # ------------------------------------------------------------------ choosing trumps

    @staticmethod
    def _suit_strength(hand: tuple[Card, ...], suit: int) -> float:
        """How good ``suit`` would be as trumps: its length, plus a half for each
        card of it from the jack up."""
        mine = [c for c in hand if c // 13 == suit or c >= 52]  # a joker is a trump
        return len(mine) + 0.5 * sum(1 for c in mine if _rank(c) >= 9)

    def _trumps(self, view: SeatView) -> Action:
        """The choice of trumps: order up, name, pass or discard (see the module docs)."""
        legal = view.legal_actions
        hand = view.hand or ()
        if Keep() in legal:
            # A hand the redeal rule lets its holder show is the poor hand the
            # rule was written for: show it (and keep any other).
            return Show() if Show() in legal else Keep()
        if Alone() in legal:
            return Alone() if self._lone_hand(view) else WithPartner()
        if Downtown(True) in legal:
            return self._direction(hand)
        need = max(2, (len(hand) + 1) // 2)
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return self._discard(view, discards)
        if OrderUp() in legal and view.turned_up is not None:
            suit = view.turned_up // 13
            have = sum(1 for c in hand if c // 13 == suit)
            if view.seat == view.dealer:
                have += 1
            return OrderUp() if have >= need else Decline()
        names = [a for a in legal if isinstance(a, Name) and a.suit is not None]
        if not names:
            return legal[0]
        best = max(names, key=lambda a: self._suit_strength(hand, int(a.suit or 0)))
        length = sum(1 for c in hand if best.suit is not None and c // 13 == best.suit)
        if Decline() in legal and length < need:
            return Decline()
        return best

    @staticmethod
    def _direction(hand: tuple[Card, ...]) -> Action:
        """Uptown or downtown: downtown when the hand's low cards outnumber its
        high ones."""
        low = sum(1 for c in hand if c < 52 and _rank(c) <= 3)
        high = sum(1 for c in hand if c < 52 and 8 <= _rank(c) <= 11)
        return Downtown(low > high)

    @staticmethod
    def _discard(view: SeatView, discards: list[Discard]) -> Action:
        """The card to discard after taking up the turned card: a card outside
        trumps, from the shortest suit, the lowest."""
        hand = view.hand or ()
        trump = -1 if view.trump is None else int(view.trump)
        counts = [sum(1 for c in hand if c // 13 == s) for s in range(5)]

        def cost(a: Discard) -> tuple[int, int, int]:
            c = int(a.card)
            return (c // 13 == trump, counts[c // 13], _rank(c))

        return min(discards, key=cost)

    @staticmethod
    def _lone_hand(view: SeatView) -> bool:
        """Whether the hand is strong enough to play alone: it holds the highest
        trump and at least three more, and every card outside trumps is an ace."""
        hand = view.hand or ()
        if view.trump is None or not hand:
            return False
        suit = int(view.trump)
        top = {int(c) for c in view.trump_order}
        trumps = [c for c in hand if c // 13 == suit or c in top]
        highest = int(view.trump_order[0]) if view.trump_order else suit * 13 + 12
        others = [c for c in hand if c not in trumps]
        return (
            highest in trumps
            and len(trumps) >= min(4, len(hand))
            and all(_rank(c) == 12 for c in others)
        )

    # ------------------------------------------------------------------ shared knowledge

    @staticmethod
    def _unseen(view: SeatView, mine: int) -> int:
        """Cards that may be in another seat's hand: the pack (``view.pack_removed``
        left out) less its own, the played and the turned-up cards."""
        gone = _played_bits(view)
        if view.turned_up is not None:
            gone |= 1 << view.turned_up
        for _, cards in view.visible_hands:
            gone &= ~_mask(cards)
        pack = (FULL_DECK_MASK & ~_mask(view.pack_removed)) | _mask(view.jokers)
        return pack & ~mine & ~gone

    @staticmethod
    def seats_after(view: SeatView) -> tuple[int, ...] | None:
        """The seats still to play in the current trick after this seat, in order.

        Uses ``view.seat_order`` (the direction of play) and skips seats that are
        out or hold no cards; when this seat leads, every other seat still in.

        Returns:
            The seats, or ``None`` for a hand-built view without ``seat_order``.
        """
        order = view.seat_order
        if not order:
            return None
        leader = view.trick[0][0] if view.trick else view.seat
        out = view.out
        counts = view.hand_counts
        after: list[int] = []
        for s in order:
            if s == leader or s == view.seat:
                break
            if (out and out[s]) or (counts and counts[s] == 0):
                continue
            after.append(s)
        return tuple(after)

    @staticmethod
    def _leads_first_trick(view: SeatView) -> bool:
        """Whether this seat leads the first trick (bidding): the dealer's next
        seat in ``view.seat_order``; without it, a guess (nobody has bid yet)."""
        order = view.seat_order
        if order and view.dealer in order:
            return order[(order.index(view.dealer) + 1) % len(order)] == view.seat
        return not any(view.bid_made)

    # ------------------------------------------------------------------ bidding

    def estimate(self, view: SeatView) -> float:
        """The number of tricks this seat expects to win with its hand (bidding).

        Args:
            view: a view with ``hand`` set (or ``visible_hands`` in a forehead hand).

        Returns:
            The expected number of tricks, a float from 0 to the hand size.
        """
        if view.hand is None:
            return self._forehead_estimate(view)
        hand = view.hand
        t = _tables(view)
        so, masks = t.suit_of, t.suit_masks
        mine = _mask(hand)
        unseen = self._unseen(view, mine)
        n_unseen = unseen.bit_count()
        others = sum(view.hand_counts) - len(hand)
        opponents = max(1, view.players - 1)
        per_opp = others / opponents if opponents else 0.0
        q = min(1.0, others / n_unseen) if n_unseen else 0.0
        draws = round(per_opp)
        trump = -1 if view.trump is None else int(view.trump)
        # P(an opponent holds at least one trump)
        p_opp_trump = (
            _p_at_least(1, n_unseen, (unseen & masks[trump]).bit_count(), draws)
            if trump >= 0
            else 0.0
        )
        first_to_lead = self._leads_first_trick(view)
        est = 0.0
        low_trumps = 0
        for s in range(4):
            mine_s = sorted((c for c in hand if so[c] == s), key=t.power.__getitem__, reverse=True)
            u_s = (unseen & masks[s]).bit_count()
            for r, c in enumerate(mine_s, start=1):
                higher = (unseen & t.above[c]).bit_count()
                p_top = (1.0 - q) ** higher
                # Opponents run out of the suit by round r: everyone holds fewer than r.
                p_short = (1.0 - _p_at_least(r, n_unseen, u_s, draws)) ** opponents
                if s == trump:
                    p = max(p_top, p_short)
                    if p < 0.5:
                        low_trumps += 1
                else:
                    # The card must survive a ruff by an opponent short in the suit.
                    p_short_one = 1.0 - _p_at_least(r, n_unseen, u_s, draws)
                    survive = (1.0 - p_short_one * p_opp_trump) ** opponents
                    p = max(p_top * survive, p_short * (1.0 - p_opp_trump) ** opponents)
                    if view.hand_size <= 2 and not first_to_lead:
                        p *= 0.4  # its suit may never be led
                est += p
        if trump >= 0 and low_trumps:
            # Low trumps ruff the suits this hand is void or short in.
            for s in range(4):
                if s == trump or not low_trumps:
                    continue
                length = sum(1 for c in hand if so[c] == s)
                avg = (unseen & masks[s]).bit_count() * q / opponents
                if length == 0 and avg >= 1:
                    est += 0.6
                    low_trumps -= 1
                elif length == 1 and avg >= 2 and low_trumps:
                    est += 0.3
                    low_trumps -= 1
        return min(est, float(view.hand_size))

    def _forehead_estimate(self, view: SeatView) -> float:
        """A one-card hand seen on the others' foreheads: the chance an unseen card
        beats every visible one."""
        if not view.visible_hands:
            return view.hand_size / max(1, view.players)
        visible = [c for _, cs in view.visible_hands for c in cs]
        gone = _mask(view.played) | _mask(visible) | _mask(view.pack_removed)
        pool = [c for c in (*ALL_CARDS, *view.jokers) if not gone >> c & 1]
        if not pool:
            return 0.0
        trump = -1 if view.trump is None else int(view.trump)
        t = _tables(view)
        rk = _cross_ranks(t)

        def key(c: int) -> int:
            return (100 if t.suit_of[c] == trump else 0) + rk[c]

        best = max(key(c) for c in visible)
        wins = sum(1 for c in pool if key(c) > best)
        return view.hand_size * wins / len(pool)

    @staticmethod
    def _auction_bid(view: SeatView, bids: list[Bid]) -> Action:
        """A bid in an auction (a pass is among the actions): the highest bid
        the side's tricks, as this hand suggests, can make, else a pass. A bid
        ``b`` is read as ``b`` tricks over the tricks its range leaves out
        (Bid Whist's 1 to 7 of 13: 6 over), the side's tricks as this seat's
        sure ones (aces, kings with a guard, the length of its longest suit
        beyond four) and a share of the rest for its partner."""
        hand = [int(c) for c in view.hand or ()]
        tricks = view.hand_size
        lengths = [sum(1 for c in hand if c // 13 == s) for s in range(4)]
        sure = sum(1 for c in hand if _rank(c) == 12)
        sure += sum(1 for c in hand if _rank(c) == 11 and lengths[c // 13] >= 2)
        # Downtown, the low cards are the winners: the better of the two.
        low = sum(1 for c in hand if _rank(c) == 0)
        low += sum(1 for c in hand if _rank(c) == 1 and lengths[c // 13] >= 2)
        own = max(sure, low) + max(max(lengths) - 4, 0)
        side = own + (tricks - own) / 3 if view.teams else own
        top = max(b.n for b in bids)
        over = max(tricks - top, 0)
        fits = [b for b in bids if b.n + over <= side]
        if fits:
            return max(fits, key=lambda b: b.n)
        if Decline() in view.legal_actions:
            return Decline()
        return min(bids, key=lambda b: b.n)

    @staticmethod
    def _contract_bid(view: SeatView, bids: list[Contract]) -> Action:
        """A bid in an auction of contracts (``bids: ... in ...``): for each
        strain, the tricks this hand suggests (with a suit as trumps: its cards,
        the jokers and the jack of the same colour, and the aces of the other
        suits; in no trumps: the aces and the jokers), and the highest contract
        bid whose level that reaches; else a pass (else the lowest bid)."""
        hand = [int(c) for c in view.hand or ()]
        jokers = sum(1 for c in hand if 52 <= c < 54)
        aces = [c // 13 for c in hand if c < 52 and _rank(c) == 12]

        def tricks(strain: int) -> int:
            if strain >= 4:
                return len(aces) + jokers + (1 if strain == 4 and len(aces) >= 3 else 0)
            partner = 3 - strain  # the suit of the same colour
            jack = 13 * partner + 9
            trumps = sum(1 for c in hand if c < 52 and c // 13 == strain) + jokers
            trumps += 1 if jack in hand else 0
            side = sum(1 for s in aces if s != strain)
            return trumps + side

        fits = [b for b in bids if not b.misere and b.level <= tricks(b.strain)]
        if fits:
            return fits[-1]
        if Decline() in view.legal_actions:
            return Decline()
        return bids[0]

    def _bid(self, view: SeatView) -> Action:
        legal = view.legal_actions
        contracts = [a for a in legal if isinstance(a, Contract)]
        if contracts:
            return self._contract_bid(view, contracts)
        if Decline() in legal:
            return self._auction_bid(view, [a for a in legal if isinstance(a, Bid)])
        bids = [a for a in legal if isinstance(a, Bid) and not a.blind]
        if not bids:
            if _LOOK in legal:
                return _LOOK
            bids = [a for a in legal if isinstance(a, Bid)]
            if not bids:
                return legal[0]
        est = self.estimate(view)
        if view.teams and len(view.bidders) <= len(view.teams):
            # One bid per side (``team bids: one per side``): this seat bids for
            # its side without seeing its partner's cards; count the partner for
            # a share of the tricks this seat does not expect to take.
            others = max(len(view.seat_order) - 1, 1)
            est += (view.hand_size - est) / others
        elif view.teams:
            # With partners, the estimate is for this seat's own tricks, but the
            # side plays for its joint bid: a partner's winning card stands and a
            # high card this seat need not cash helps the side, so bid a little
            # more; and a bid of 0 stands alone (Spades' nil): bid it only when
            # the hand looks like taking nothing.
            est = est * _TEAM_BID_SCALE + _TEAM_BID_EXTRA
            if est >= _TEAM_NIL_BELOW:
                bids = [b for b in bids if b.n > 0] or bids
        return min(bids, key=lambda b: (abs(b.n - est), b.n))

    # ------------------------------------------------------------------ trick play

    @staticmethod
    def _avoids_points(view: SeatView) -> bool:
        """A game whose cards carry points and whose lowest total wins: take no tricks."""
        return bool(view.card_points) and not view.higher_wins

    def _pass(self, view: SeatView, passes: list[Action]) -> Action:
        """The card to pass next: the most dangerous one when points are to be
        avoided (see the module docs), else the lowest."""
        cards = [int(a.card) for a in passes if isinstance(a, Pass)]
        if not cards:
            return passes[0]
        if not self._avoids_points(view):
            return Pass(CARDS[min(cards, key=_rank)])
        points = view.card_points
        # The cards already chosen are as good as gone (they stay in the hand
        # until everyone has chosen).
        mine = _mask(view.hand or ()) & ~_mask(view.passed)

        def danger(c: int) -> tuple[int, int]:
            if _points(points, c) < 0:  # a bonus card: kept, passed last
                return (-1000 + _points(points, c), 0)
            if c >= 52:  # a joker: a high trump, and whatever points it carries
                return (max(_points(points, c), 0) * 2 + _rank(c), 0)
            suit = SUIT_MASKS[c // 13]
            # A costly card of the suit below this one, in another hand: this card
            # may have to take it.
            below = [k for k in range(13 * (c // 13), c) if points[k] >= 5 and not mine >> k & 1]
            length = (mine & suit).bit_count()
            exposed = 6 if below and length < 5 else 0
            return (max(points[c], 0) * 2 + exposed + _rank(c), -length)

        return Pass(CARDS[max(cards, key=danger)])

    def _play(self, view: SeatView, plays: list[Play]) -> Action:
        mine = _hand_bits(view)
        unseen = self._unseen(view, mine)
        trump = _trump_of(view)
        me = view.seat
        assert me is not None, "a bot plays for a seat, not from an onlooker's view"
        bid = view.bids[me]
        won = view.tricks_won[me]
        need = (bid - won) if bid is not None else (0 if self._avoids_points(view) else 1)
        left = len(view.hand or ())  # (several packs: a card held twice counts twice)
        cards = [int(a.card) for a in plays]
        trick = view.trick
        t = _tables(view)
        if view.teams:
            # A side's tricks count together: count the side's bids and tricks,
            # and let a partner's winning card stand.
            team = next((t for t in view.teams if me in t), (me,))
            bids = [view.bids[s] for s in team]
            if any(b is not None for b in bids) and bid != 0:
                need = sum(b or 0 for b in bids) - sum(view.tricks_won[s] for s in team)
            if trick:
                w = self._winner(t, trick, trump)
                best = next(int(c) for s_, c in trick if s_ == w)
                last = len(trick) == len(view.seat_order) - 1
                if (
                    w in team
                    and view.bids[w] != 0
                    and (last or (t.suit_of[best] == trump and not unseen & t.above[best]))
                ):
                    return Play(CARDS[self._discard_low(t, cards, trump)])
        ruffers = self._ruffers(view, unseen, trump, t.suit_masks[trump] if trump >= 0 else 0)
        if not trick:
            c = self._lead(t, cards, unseen, trump, need, left, ruffers)
        else:
            c = self._follow(t, view, cards, unseen, trump, need, left, ruffers)
        return Play(CARDS[c])

    @staticmethod
    def _ruffers(view: SeatView, unseen: int, trump: int, trump_mask: int) -> dict[int, float]:
        """Per suit other than trumps, the chance that an opponent still to play
        after this seat's lead (or card) trumps it: an opponent that showed out
        of the suit and may still hold a trump (it has not shown out of trumps
        and trumps are unseen). Suits nobody can be known to trump are left out.

        The chance is that of the opponent holding at least one of the unseen
        trumps, with its share of the unseen cards (a rough hypergeometric)."""
        if trump < 0 or (type(view) is not DecisionContext and not view.showed_out):
            return {}
        me = view.seat
        team = next((t_ for t_ in view.teams if me in t_), (me,))
        voids = _void_masks(view)
        n_unseen = unseen.bit_count()
        trumps_unseen = (unseen & trump_mask).bit_count()
        if not trumps_unseen or not n_unseen:
            return {}
        order = view.seat_order or tuple(range(view.players))
        trick_seats = {s_ for s_, _ in view.trick}
        counts = view.hand_counts
        chance: dict[int, float] = {}
        for seat in order:
            if seat in team or seat in trick_seats or voids[seat] >> trump & 1:
                continue
            held = counts[seat] if counts else 0
            if not held or not voids[seat]:
                continue
            # P(at least one unseen trump among its ``held`` unseen cards).
            p = _p_at_least(1, n_unseen, trumps_unseen, held)
            for suit in range(4):
                if suit != trump and voids[seat] >> suit & 1:
                    chance[suit] = 1.0 - (1.0 - chance.get(suit, 0.0)) * (1.0 - p)
        return chance

    @classmethod
    def _winner(cls, t: RankTables, trick: tuple[tuple[int, Card], ...], trump: int) -> int:
        """The seat whose card wins the trick so far."""
        seat, best = trick[0][0], int(trick[0][1])
        for s, card in trick[1:]:
            if cls._beats(t, int(card), best, trump):
                seat, best = s, int(card)
        return seat

    @staticmethod
    def _beats(t: RankTables, c: int, best: int, trump: int) -> bool:
        so = t.suit_of
        if so[c] == so[best]:
            return t.power[c] > t.power[best]
        return so[c] == trump

    def _lead(
        self,
        t: RankTables,
        cards: list[int],
        unseen: int,
        trump: int,
        need: int,
        left: int,
        ruffers: dict[int, float] | None = None,
    ) -> int:
        so = t.suit_of
        rk = _cross_ranks(t)
        ruff = ruffers or {}
        side = [c for c in cards if so[c] != trump]
        trumps = [c for c in cards if so[c] == trump]
        if need > 0:
            # A master in a suit an opponent is known to be able to trump is not
            # a master: lead it only when nothing safer is left.
            masters = [c for c in cards if not unseen & t.above[c] and ruff.get(so[c], 0.0) < 0.5]
            if masters:
                trump_masters = [c for c in masters if so[c] == trump]
                if trump_masters and len(trumps) >= 2:
                    return max(trump_masters, key=t.power.__getitem__)
                side_masters = [c for c in masters if so[c] != trump]
                return max(side_masters or masters, key=rk.__getitem__)
            if need >= left:
                return max(cards, key=lambda c: (so[c] == trump, rk[c]))
            pool = side or cards
            # Low from the longest suit: keeps the high cards for later tricks
            # (and away from a suit an opponent would trump, when it can).
            length = {s: sum(1 for c in pool if so[c] == s) for s in range(5)}  # 4: jokers
            return min(pool, key=lambda c: (ruff.get(so[c], 0.0) >= 0.5, -length[so[c]], rk[c]))
        # Avoid tricks: lead the card with the most unseen cards above it, into a
        # suit an opponent will trump first.
        pool = side or cards
        return max(
            pool,
            key=lambda c: (
                ruff.get(so[c], 0.0) >= 0.5,
                (unseen & t.above[c]).bit_count(),
                -rk[c],
            ),
        )

    def _follow(
        self,
        t: RankTables,
        view: SeatView,
        cards: list[int],
        unseen: int,
        trump: int,
        need: int,
        left: int,
        ruffers: dict[int, float] | None = None,
    ) -> int:
        so = t.suit_of
        trick = view.trick
        led = so[trick[0][1]]
        best = int(trick[0][1])
        for _, c in trick[1:]:
            if self._beats(t, int(c), best, trump):
                best = int(c)
        after = self.seats_after(view)
        if after is not None:
            last = not after
        else:  # a hand-built view without seat_order: count the seats with cards
            last = len(trick) >= max(self._active_seats(view), len(trick) + 1) - 1
        winners = [c for c in cards if self._beats(t, c, best, trump)]
        losers = [c for c in cards if not self._beats(t, c, best, trump)]
        following = any(so[c] == led for c in cards)
        if need > 0:
            if winners:
                return self._win_trick(
                    t,
                    view,
                    winners,
                    losers,
                    unseen,
                    trump,
                    need,
                    left,
                    last,
                    following,
                    after,
                    ruffers,
                )
            return self._discard_low(t, cards, trump)
        if last and winners and self._avoids_points(view):
            # The last card of a trick worth minus points (a bonus card, such as
            # a jack of diamonds at -10): take it, with the lowest winner that
            # adds no points, when the trick stays worth less than nothing.
            pts = view.card_points
            worth = sum(_points(pts, int(c)) for _, c in trick)
            safe = [c for c in winners if worth + _points(pts, c) < 0]
            if safe:
                rk = _cross_ranks(t)
                return min(safe, key=lambda c: (_points(pts, c), rk[c]))
        return self._duck(t, view, winners, losers, unseen, trump, last, following)

    @staticmethod
    def _active_seats(view: SeatView) -> int:
        """The seats with cards (all of them when the view has no counts)."""
        return sum(1 for k in view.hand_counts if k > 0) if view.hand_counts else view.players

    def _win_trick(
        self,
        t: RankTables,
        view: SeatView,
        winners: list[int],
        losers: list[int],
        unseen: int,
        trump: int,
        need: int,
        left: int,
        last: bool,
        following: bool,
        after: tuple[int, ...] | None,
        ruffers: dict[int, float] | None,
    ) -> int:
        """Following, when it wants the trick and may win it (``winners``): the
        lowest winner likely to hold, else the highest winner or the lowest loser."""
        so = t.suit_of
        rk = _cross_ranks(t)
        if last:
            return min(winners, key=lambda c: (so[c] == trump, rk[c]))
        if not following:  # ruffing: the lowest trump that wins
            return min(winners, key=rk.__getitem__)
        # The lowest winner likely to hold against the seats still to play.
        q = self._chance_behind(view, after, unseen, left)
        # An opponent still to play that showed out of the led suit may
        # trump the winner.
        survive = 1.0 - (ruffers or {}).get(so[view.trick[0][1]], 0.0)
        for w in sorted(winners, key=rk.__getitem__):
            if survive * (1.0 - q) ** (unseen & t.above[w]).bit_count() >= 0.5:
                return w
        if need >= left or not losers:
            return max(winners, key=rk.__getitem__)
        return min(losers, key=rk.__getitem__)

    def _chance_behind(
        self, view: SeatView, after: tuple[int, ...] | None, unseen: int, left: int
    ) -> float:
        """The chance that an unseen card is in a hand still to play to the trick."""
        n_unseen = max(1, unseen.bit_count())
        if after is not None:
            behind = sum(view.hand_counts[t] for t in after) if view.hand_counts else 0
            return min(1.0, (behind or len(after) * max(1, left - 1)) / n_unseen)
        to_play = max(0, self._active_seats(view) - len(view.trick) - 1)
        return min(1.0, to_play * max(1, left - 1) / n_unseen)

    @staticmethod
    def _duck(
        t: RankTables,
        view: SeatView,
        winners: list[int],
        losers: list[int],
        unseen: int,
        trump: int,
        last: bool,
        following: bool,
    ) -> int:
        """Following, when it wants no more tricks: the highest card that loses."""
        so = t.suit_of
        rk = _cross_ranks(t)
        # Avoid winning: duck under the best card with the highest card that loses.
        if losers:
            if following:
                return max(losers, key=rk.__getitem__)
            side = [c for c in losers if so[c] != trump]
            if side:  # void: throw the most costly card, else the most dangerous one
                pts = view.card_points
                return max(
                    side,
                    key=lambda c: (_points(pts, c), rk[c], -(unseen & t.above[c]).bit_count()),
                )
            return max(losers, key=rk.__getitem__)
        # Every card wins: win with the highest when nobody can overtake, else the lowest.
        if last:
            return max(winners, key=rk.__getitem__)
        return min(winners, key=rk.__getitem__)

    @staticmethod
    def _discard_low(t: RankTables, cards: list[int], trump: int) -> int:
        so = t.suit_of
        rk = _cross_ranks(t)
        side = [c for c in cards if so[c] != trump]
        pool = side or cards
        length = {s: sum(1 for c in pool if so[c] == s) for s in range(5)}  # 4: jokers
        # The lowest card, from the shortest suit (towards a void for ruffing).
        return min(pool, key=lambda c: (rk[c], length[so[c]]))

    # ------------------------------------------------------------------ shedding

    def _shed(self, view: SeatView, plays: list[Play]) -> Action:
        """Shedding play (Kazhutha): get rid of cards without picking up.

        * Void in the led suit (a cut): cut with its highest card, from its
          shortest suit on ties, so the card that is most likely to make it
          pick up later leaves first.
        * Following: duck under the highest card of the trick with its highest
          lower card (if someone cuts later, the highest card of the led suit
          picks the trick up); when it cannot duck, it plays its highest card
          of the suit if it is last (the trick is dead anyway) or the suit is
          still safe, else its lowest.
        * Leading: from the suit that the other players most likely still hold
          (a dead trick, no pick-up): its highest card while that suit is
          safe, else its lowest card; low cards of long suits are kept for the
          end, when cuts become likely. A suit a player still in has shown out
          of (``view.showed_out``, unless it was seen to pick a card of it up)
          is never safe: that player will cut.
        * Taking a neighbour's hand (``take a hand from:``): never; it only adds
          cards to its own hand (the choice is among ``plays`` alone).
        """
        hand = view.hand or ()
        mine = _mask(hand)
        unseen = self._unseen(view, mine)
        cards = [int(a.card) for a in plays]
        counts = view.hand_counts
        out = view.out or tuple(k == 0 for k in counts)
        # Seats still in, other than this one; cards they were seen to pick up.
        others = [s for s in range(view.players) if s != view.seat and not out[s]]
        known = {s: _mask(cs) for s, cs in view.known_hands}
        for cs in known.values():
            unseen &= ~cs
        n_unseen = max(1, unseen.bit_count())
        voids = _void_masks(view)

        def p_all_follow(suit: int, seats: list[int]) -> float:
            """The chance that every one of ``seats`` holds a card of ``suit``."""
            u = (unseen & SUIT_MASKS[suit]).bit_count()
            p = 1.0
            for t in seats:
                if known.get(t, 0) & SUIT_MASKS[suit]:
                    continue  # it was seen to pick one up
                if voids[t] >> suit & 1:
                    return 0.0  # it showed out of the suit: it will cut
                hidden = counts[t] - known.get(t, 0).bit_count()
                p *= _p_at_least(1, n_unseen, u, hidden)
            return p

        length = {s: (mine & SUIT_MASKS[s]).bit_count() for s in range(4)}
        if view.trick:
            return self._shed_follow(view, cards, length, others, p_all_follow)
        return self._shed_lead(cards, length, others, p_all_follow)

    def _shed_follow(
        self,
        view: SeatView,
        cards: list[int],
        length: dict[int, int],
        others: list[int],
        p_all_follow: Callable[[int, list[int]], float],
    ) -> Action:
        """Shedding, following a trick (see :meth:`_shed`): cut, duck, or play
        high when the trick will be dead."""
        trick = view.trick
        led = trick[0][1] // 13
        if not any(c // 13 == led for c in cards):  # cut
            return Play(CARDS[max(cards, key=lambda c: (_rank(c), -length[c // 13]))])
        best = max(int(c) for _, c in trick if c // 13 == led)
        lower = [c for c in cards if c < best]
        if lower:
            return Play(CARDS[max(lower)])
        after = self.seats_after(view)
        played = {s for s, _ in trick}
        to_play = list(after) if after is not None else [t for t in others if t not in played]
        if not to_play or p_all_follow(led, to_play) > 0.6:
            return Play(CARDS[max(cards)])
        return Play(CARDS[min(cards)])

    @staticmethod
    def _shed_lead(
        cards: list[int],
        length: dict[int, int],
        others: list[int],
        p_all_follow: Callable[[int, list[int]], float],
    ) -> Action:
        """Shedding, leading (see :meth:`_shed`): from the suit the others most
        likely all follow, high while it is safe, else low."""
        safety = {s: p_all_follow(s, others) for s in range(4) if length[s]}
        suit = max(safety, key=lambda s: (safety[s], length[s]))
        in_suit = [c for c in cards if c // 13 == suit] or cards
        if safety[suit] > 0.6:
            return Play(CARDS[max(in_suit)])
        return Play(CARDS[min(in_suit)])


def _is_shedding(view: SeatView) -> bool:
    """Whether the view is of a shedding game.

    Uses ``view.mode`` when the engine's View carries it; otherwise infers it:
    nobody bids and the whole pack (``view.pack_size`` cards) is dealt
    (Kazhutha), which no trick-taking built-in does.
    """
    mode = getattr(view, "mode", None)
    if mode is not None:
        return str(getattr(mode, "value", mode)) == "shedding"
    return (
        not any(view.bid_made)
        and all(b is None for b in view.bids)
        and view.hand_size * view.players >= view.pack_size - view.players
    )


# --------------------------------------------------------------------------- special cards


def _special_choice(view: SeatView) -> Action:
    """The bid or the play of a seat in a game whose pack has special cards
    (``view.special_powers``): count a card that always wins as a trick, aces
    and high trumps as likely ones; in play, win as cheaply as possible while
    the bid is not made, else lose with a card that always loses or the
    highest card that cannot win."""
    codes = dict(view.special_powers)
    trump = -1 if view.trump is None else int(view.trump)
    legal = view.legal_actions
    if view.phase == "bid":
        return _special_bid(view, codes, trump)
    plays = [int(a.card) for a in legal if isinstance(a, Play)]
    if not plays:
        return legal[0]
    me = view.seat
    assert me is not None, "a bot plays for a seat, not from an onlooker's view"
    bid = view.bids[me]
    need = 1 if bid is None else bid - view.tricks_won[me]
    trick = [int(c) for _, c in view.trick]

    def strength(c: int) -> int:
        code = codes.get(CARDS[c], 0)
        if code in (1, 2):
            return 1000
        if code in (3, 4) or c >= 52:
            return -1
        return (200 if c // 13 == trump else 0) + _rank(c)

    def wins(c: int) -> bool:
        return _beats_in_trick(codes, trump, trick, c)

    if need > 0:
        winners = [c for c in plays if not trick or wins(c)]
        if winners and trick:
            return Play(CARDS[min(winners, key=strength)])
        return Play(CARDS[max(plays, key=strength) if not trick else min(plays, key=strength)])
    losers = [c for c in plays if trick and not wins(c)]
    if losers:
        return Play(CARDS[max(losers, key=strength)])
    return Play(CARDS[min(plays, key=strength)])


def _special_bid(view: SeatView, codes: dict[Card, int], trump: int) -> Action:
    """The bid in a pack with special cards: a trick for each card that always
    wins, most of one for a high trump, some of one for an ace."""
    legal = view.legal_actions
    bids = [a for a in legal if isinstance(a, Bid) and not a.blind]
    if not bids:
        return legal[0]
    est = 0.0
    for c in view.hand or ():
        if codes.get(c) in (1, 2):
            est += 1.0
        elif c >= 52:
            continue
        elif c // 13 == trump:
            est += 0.9 if _rank(c) >= 10 else 0.3
        elif _rank(c) == 12:
            est += 0.6
    return min(bids, key=lambda b: (abs(b.n - est), b.n))


def _beats_in_trick(codes: dict[Card, int], trump: int, trick: list[int], c: int) -> bool:
    """Whether ``c`` would take ``trick`` (the cards so far, led first): a card
    that always wins beats all but an earlier one of its kind; one that always
    loses beats only a trick of them; else the suit led (its first card with a
    suit) and trumps decide."""
    code = codes.get(CARDS[c], 0)
    best = trick[0]
    led = -1
    for k in trick:
        kc = codes.get(CARDS[k], 0)
        if kc in (1, 2):
            return code == 2
        if kc == 0 and led < 0:
            led = k // 13
            best = k
        elif kc == 0 and (
            (k // 13 == best // 13 and k > best) or (k // 13 == trump and best // 13 != trump)
        ):
            best = k
    if code in (1, 2):
        return True
    if code:
        return False
    if led < 0:
        return True
    if c // 13 == best // 13:
        return c > best
    return c // 13 == trump
