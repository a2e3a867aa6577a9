"""The game engine: one :class:`Game` class plays every variant a :class:`Variant` describes.

State layout (all plain ints and lists, so that :meth:`Game.clone` is a few
list copies):

* hands, cards won and undealt cards are 52-bit int masks (bit ``i`` is card ``i``);
* bids are ints (``-1``: not bid yet); flags are lists of bools;
* the current trick is two parallel lists (cards, seats) plus the running
  winner (``_best`` card, ``_best_seat``), updated on each play;
* the log (:attr:`Game.events`) is a list of small tuples whose first item is
  the event kind. The log *is* the history: saves and :func:`replay` read it.

The trick loop is split into small steps (:meth:`Game._legal_plays`,
:meth:`Game.apply`, :meth:`Game._finish_trick`, :meth:`Game._next_hand`) so
that the shedding mode can replace the trick-completion step (dead tricks,
cuts and pick-ups, :meth:`Game._shed_step`) and skip seats that are out, on
the same engine.

This module holds the state and the loop; the rest lives beside it:

* :mod:`~cardrules.engine.compiled_rules`: a variant compiled for the loop
  (:class:`_Rules`), its fingerprint and the scoring of a hand;
* :mod:`~cardrules.engine.dealing`: seeded shuffles, given decks, the first
  dealer and the checks of recorded deals;
* :mod:`~cardrules.engine.events`: the log's public form and one seat's view of it;
* :mod:`~cardrules.engine.explain`: the reasons given by ``IllegalAction``;
* :mod:`~cardrules.engine.saves`: :meth:`Game.to_json`, :meth:`Game.from_json`
  and :func:`replay`.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final, overload

from cardrules.cards import ALL_CARDS, FULL_DECK_MASK, SUIT_MASKS, Card, CardSet, Suit
from cardrules.engine.actions import Action, Amend, Bid, Look, Play
from cardrules.engine.compiled_rules import (
    CompiledChoice,
    Num,
    _compile,
    _Rules,
    variant_fingerprint,
)
from cardrules.engine.dealing import (
    _check_deal,
    _first_dealer,
    _normalise_decks,
    _random_words,
    _shuffled,
)
from cardrules.engine.events import Event, _events_for, _public
from cardrules.engine.explain import _explain_bid, _explain_play
from cardrules.engine.saves import MAX_SAVE_BYTES as MAX_SAVE_BYTES
from cardrules.engine.saves import SAVE_FORMAT as SAVE_FORMAT
from cardrules.engine.saves import SAVE_VERSION as SAVE_VERSION
from cardrules.engine.saves import _load_text, _save_text, replay
from cardrules.engine.view import Result, View
from cardrules.errors import IllegalAction, InvalidAction, ScoreError, VariantError
from cardrules.rules import Variant
from cardrules.scoring import check_total

__all__ = ["Event", "Game", "replay", "variant_fingerprint"]

_BID: Final = 0
_PLAY: Final = 1
_OVER: Final = 2
_PHASE_NAMES: Final = ("bid", "play", "over")

_BITS: Final[tuple[int, ...]] = tuple(1 << i for i in range(52))
_SUIT_OF: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
_SHIFT: Final[tuple[int, ...]] = (0, 13, 26, 39)
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(i) for i in range(52))
_ZERO: Final = Fraction(0)
_SUIT_BIT: Final[tuple[int, ...]] = (1, 2, 4, 8)
# Broken suits (a 4-bit set) -> the mask of the cards of the suits not broken.
_UNBROKEN: Final[tuple[int, ...]] = tuple(
    sum(SUIT_MASKS[x] for x in range(4) if not b >> x & 1) for b in range(16)
)
# Suit by number, with index -1 (no trumps) giving None.
_SUITS: Final[tuple[Suit | None, ...]] = (*Suit, None)
_LOOK: Final = Look()

# Per suit, the tuple of Play actions for each 13-bit pattern, built on demand.
_SUIT_TABLES: Final[list[list[tuple[Play, ...] | None]]] = [[None] * 8192 for _ in range(4)]


def _suit_plays(suit: int, pattern: int) -> tuple[Play, ...]:
    t = _SUIT_TABLES[suit][pattern]
    if t is None:
        base = 13 * suit
        t = tuple(_PLAYS[base + i] for i in range(13) if pattern >> i & 1)
        _SUIT_TABLES[suit][pattern] = t
    return t


def _plays_of(mask: int) -> tuple[Play, ...]:
    """The Play actions of a card mask, lowest id first (no allocation for one suit)."""
    out: tuple[Play, ...] = ()
    tables = _SUIT_TABLES
    p = mask & 0x1FFF
    if p:
        t = tables[0][p]
        out = t if t is not None else _suit_plays(0, p)
    p = (mask >> 13) & 0x1FFF
    if p:
        t = tables[1][p]
        if t is None:
            t = _suit_plays(1, p)
        out = out + t if out else t
    p = (mask >> 26) & 0x1FFF
    if p:
        t = tables[2][p]
        if t is None:
            t = _suit_plays(2, p)
        out = out + t if out else t
    p = (mask >> 39) & 0x1FFF
    if p:
        t = tables[3][p]
        if t is None:
            t = _suit_plays(3, p)
        out = out + t if out else t
    return out


#: The largest seed a game takes (seeds are 64-bit; a longer one is refused).
MAX_SEED: Final = 2**64 - 1
#: The largest ``max_tricks`` bound a game takes.
MAX_TRICKS_LIMIT: Final = 10**9


def _describe(x: object) -> str:
    """A short, safe description of a bad argument (never a 5,000-digit repr)."""
    if type(x) is int and x.bit_length() > 64:
        return f"an int of {x.bit_length():,} bits"
    if isinstance(x, str):
        return repr(x) if len(x) <= 30 else repr(x[:27] + "...")
    return repr(x) if isinstance(x, int | float | bool | type(None)) else type(x).__name__


# --------------------------------------------------------------------------- the game


class Game:
    """One game of a variant, from the first deal to the result.

    The game is always waiting for a decision (or over): the first hand is
    dealt when the game is created, and each next hand as soon as the
    previous one is scored.

    Args:
        variant: the rules.
        players: the number of seats (0 to ``players - 1``).
        seed: the random seed for the first dealer and the shuffles, an int
            from 0 to ``2**64 - 1``; ``None`` draws one from the operating
            system's generator (:mod:`secrets`). The seed is kept, so saves
            restore exactly, and it determines every future deal: a seed you
            give is your secret, and a save that carries it (``to_json``) must
            not be shown to players while the game goes on.
        deck: deal exactly this card order instead of shuffling. Either one
            order (reused for every hand) or a list of orders, one per hand
            (hands beyond the list are shuffled from ``seed``). Cards are dealt
            one at a time from the front, starting with the dealer's neighbour
            in the direction of play; the next card is turned up for trumps
            when the variant turns one. A partial order is completed with the
            rest of the pack, lowest card first. Cards may be ``Card`` objects,
            ints or text such as ``"A♠"``.
        first_dealer: the first dealer's seat, overriding the variant's rule.
        max_tricks: an optional bound on the number of tricks; when reached,
            the game ends unfinished (``result.finished`` is False).

    Raises:
        VariantError: if the variant cannot be played by this many players.
        CardError: if ``deck`` is not a valid card order for the variant's pack.
        ValueError: for a bad ``players``, ``first_dealer`` or ``max_tricks``.

    Example:
        >>> g = Game(variant, players=4, seed=7)        # doctest: +SKIP
        >>> while not g.is_over:                          # doctest: +SKIP
        ...     g.apply(g.legal_actions()[0])
    """

    __slots__ = (
        "_amender",
        "_best",
        "_best_seat",
        "_bid_pos",
        "_bids",
        "_blind",
        "_broken_suits",
        "_dead",
        "_dead_by",
        "_dealer",
        "_decks",
        "_decks_reuse",
        "_events",
        "_extra",
        "_fd_param",
        "_forced",
        "_forced_lead",
        "_forehead",
        "_hand_index",
        "_hands",
        "_in_count",
        "_known",
        "_largest",
        "_leader",
        "_legal",
        "_legal_mask",
        "_looked",
        "_max_tricks",
        "_n",
        "_nxt",
        "_order",
        "_out",
        "_phase",
        "_r",
        "_result",
        "_scores",
        "_seed",
        "_size",
        "_sizes",
        "_to_act",
        "_total_tricks",
        "_trick",
        "_trick_seats",
        "_tricks",
        "_tricks_played",
        "_trump",
        "_turned",
        "_undealt",
        "_v",
        "_waiting",
        "_won",
    )

    _r: _Rules
    _v: Variant
    _n: int
    _seed: int
    _fd_param: int | None
    _max_tricks: int | None
    _decks: tuple[tuple[int, ...], ...]
    _decks_reuse: bool
    _forced: list[tuple[tuple[int, ...], int]]
    _sizes: tuple[int, ...]
    _largest: int
    _nxt: tuple[int, ...]
    _order: tuple[tuple[int, ...], ...]
    _hand_index: int
    _size: int
    _dealer: int
    _trump: int
    _turned: int
    _undealt: int
    _hands: list[int]
    _in_count: int
    _known: list[int]
    _out: list[bool]
    _dead: int
    _dead_by: list[int]
    _won: list[int]
    _tricks: list[int]
    _bids: list[int]
    _blind: list[bool]
    _looked: list[bool]
    _forehead: bool
    _phase: int
    _to_act: int
    _waiting: list[int] | None
    _bid_pos: int
    _amender: int
    _trick: list[int]
    _trick_seats: list[int]
    _leader: int
    _best: int
    _best_seat: int
    _broken_suits: int
    _forced_lead: bool
    _tricks_played: int
    _total_tricks: int
    _scores: list[Num]
    _extra: int
    _events: list[Event]
    _legal: tuple[Action, ...] | None
    _legal_mask: int
    _result: Result | None

    def __init__(
        self,
        variant: Variant,
        players: int = 4,
        seed: int | None = None,
        *,
        deck: Sequence[Any] | str | None = None,
        first_dealer: int | None = None,
        max_tricks: int | None = None,
        _forced: list[tuple[tuple[int, ...], int]] | None = None,
        _blank: bool = False,
    ) -> None:
        # _forced: recorded deals (restore and replay); _blank: an empty shell
        # for clone() (a plain constructor call, so the class can be compiled).
        if _blank:
            return
        self._setup(variant, players, seed, deck, first_dealer, max_tricks, _forced or [])
        self._begin()

    # ----------------------------------------------------------------- setup

    def _setup(
        self,
        variant: Variant,
        players: int,
        seed: int | None,
        deck: Sequence[Any] | str | None,
        first_dealer: int | None,
        max_tricks: int | None,
        forced: list[tuple[tuple[int, ...], int]],
    ) -> None:
        r = _compile(variant)
        # Checked before the geometry cache: 4.0 == 4 would find the entry of 4.
        if type(players) is not int:
            raise ValueError(f"players must be an int, got {_describe(players)}")
        allowed = variant.players
        if players not in allowed:
            counts = (
                f"{allowed.min} players"
                if allowed.min == allowed.max
                else f"{allowed.min} to {allowed.max} players"
            )
            raise VariantError(f"{variant.name} is for {counts}, not {_describe(players)}")
        geo = r.geometry(players)
        if seed is None:
            # The operating system's generator: a seed drawn from Python's Mersenne
            # Twister could be predicted from the seeds of earlier games' saves.
            seed = secrets.randbits(63)
        elif type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise ValueError(
                f"seed must be an int from 0 to 2**64 - 1 or None, got {_describe(seed)}"
            )
        if first_dealer is not None and (
            type(first_dealer) is not int or not 0 <= first_dealer < players
        ):
            raise ValueError(
                f"first_dealer must be a seat from 0 to {players - 1}, "
                f"got {_describe(first_dealer)}"
            )
        if max_tricks is not None and (
            type(max_tricks) is not int or not 1 <= max_tricks <= MAX_TRICKS_LIMIT
        ):
            raise ValueError(
                f"max_tricks must be an int from 1 to {MAX_TRICKS_LIMIT:,} or None, "
                f"got {_describe(max_tricks)}"
            )
        self._r = r
        self._v = variant
        self._n = n = players
        self._seed = seed
        self._fd_param = first_dealer
        self._max_tricks = max_tricks
        if deck is not None:
            # One deck per hand at most: the schedule's and the tie-break hands.
            most = len(geo[0]) + (r.max_extra if r.tie_extra else 0)
            self._decks, self._decks_reuse = _normalise_decks(deck, r.pack_mask, most)
        else:
            self._decks, self._decks_reuse = (), False
        self._forced = forced
        self._sizes, self._largest, self._nxt, self._order = geo
        # The per-hand state (hands, bids, tricks, flags...) is set by _start_hand.
        self._hand_index = -1
        self._phase = _BID
        self._to_act = -1
        self._bid_pos = 0
        self._leader = -1
        self._best = -1
        self._best_seat = -1
        self._total_tricks = 0
        self._scores = [0] * n
        self._extra = 0
        self._events = [("start", n, seed, first_dealer, max_tricks)]
        self._legal_mask = 0
        self._result = None

    def _begin(self) -> None:
        words = _random_words(self._seed, 0)
        dealer = self._fd_param
        if dealer is None:
            dealer = _first_dealer(self._v, self._n, self._r.pack, words, self._events)
        self._start_hand(dealer, words)

    # ----------------------------------------------------------------- dealing

    def _deck_for(self, idx: int, k: int, words: tuple[int, ...] | None) -> Sequence[int]:
        """The card order for hand ``idx`` (0-based)."""
        if self._decks:
            if self._decks_reuse:
                return self._decks[0]
            if idx < len(self._decks):
                return self._decks[idx]
        return _shuffled(words or _random_words(self._seed, idx), self._r.pack, k + 1)

    def _start_hand(self, dealer: int, words: tuple[int, ...] | None = None) -> None:
        r = self._r
        n = self._n
        idx = self._hand_index + 1
        self._hand_index = idx
        hn = idx + 1
        sizes = self._sizes
        size = sizes[idx] if idx < len(sizes) else self._largest
        self._size = size
        self._dealer = dealer
        trule = r.trump_rule
        turn_up = r.turn_up_all or (r.turn_up_any and trule.is_turn_up_hand(hn))
        k = len(r.pack) if r.whole_pack and not r.tricks_mode else size * n
        if idx < len(self._forced):
            hands_t, turned = self._forced[idx]
            hands = list(hands_t)
            _check_deal(r, n, self._order[dealer], hn, size, hands, turned, turn_up)
        else:
            order = self._deck_for(idx, k, words)
            so = self._order[dealer]
            hands = [0] * n
            for j in range(n):
                m = 0
                for c in order[j:k:n]:
                    m |= _BITS[c]
                hands[so[j]] = m
            turned = -1
            if turn_up:
                if k < len(order):
                    turned = order[k]
                elif not trule.none_when_pack_empty:
                    turned = order[k - 1]
        self._hands = hands
        self._turned = turned
        if turn_up:
            trump = -1 if turned < 0 else _SUIT_OF[turned]
        else:
            fixed = trule.fixed_trump(hn)
            trump = -1 if fixed is None else int(fixed)
        self._trump = trump
        dealt = 0
        for h in hands:
            dealt |= h
        self._undealt = r.pack_mask & ~dealt & ~(_BITS[turned] if turned >= 0 else 0)
        self._won = [0] * n
        self._tricks = [0] * n
        in_count = 0
        for h in hands:
            if h:
                in_count += 1
        self._in_count = in_count
        self._known = [0] * n
        self._out = [not h for h in hands]
        self._dead = 0
        self._dead_by = [0] * n
        self._tricks_played = 0
        self._trick = []
        self._trick_seats = []
        self._broken_suits = 0
        self._forced_lead = False
        ev = self._events
        ev.append(("deal", hn, dealer, size, tuple(hands)))
        ev.append(("trump", hn, _SUITS[trump], None if turned < 0 else ALL_CARDS[turned]))
        self._forehead = forehead = size in r.forehead and r.bid_style != 0
        self._bids = [-1] * n
        self._blind = [False] * n
        self._amender = -1
        self._legal = None
        style = r.bid_style
        if style:
            self._phase = _BID
            self._looked = [not r.blind or forehead] * n
            order0 = self._order[dealer]
            self._bid_pos = 0
            self._to_act = order0[0]
            self._waiting = list(order0) if style == 2 else None
        else:
            self._looked = [True] * n
            self._waiting = None
            self._start_play()

    # ----------------------------------------------------------------- bidding

    def _bid_options(self, s: int) -> tuple[Action, ...]:
        r = self._r
        size = self._size
        hi = size if r.max_bid is None else min(r.max_bid, size)
        lo = min(r.min_bid, hi)
        excl = -1
        if r.hook and self._bid_pos == self._n - 1 and s == self._dealer:
            total = 0
            for b in self._bids:
                if b > 0:
                    total += b
            excl = size - total
            if not lo <= excl <= hi or lo == hi:
                excl = -1
        blind = r.blind and not self._looked[s]
        key = (lo, hi, excl, blind)
        opts = r.bid_cache.get(key)
        if opts is None:
            only = r.blind_only if blind else frozenset()
            opts = tuple(
                Bid(b, blind=blind)
                for b in range(lo, hi + 1)
                if b != excl and (not only or b in only)
            )
            if blind:
                opts = (_LOOK, *opts)
            r.bid_cache[key] = opts
        return opts

    def _amend_options(self, s: int) -> tuple[Action, ...]:
        if s < 0 or s != self._amender or self._phase != _BID:
            return ()
        r = self._r
        size = self._size
        hi = size if r.max_bid is None else min(r.max_bid, size)
        lo = min(r.min_bid, hi)
        cur = self._bids[s]
        return tuple(Amend(b) for b in range(lo, hi + 1) if b != cur)

    def _do_bid(self, s: int, action: Action) -> None:
        self._legal = None
        if action is _LOOK:
            self._looked[s] = True
            self._events.append(("look", s))
            return
        if type(action) is Amend:
            self._bids[s] = action.n
            self._blind[s] = False
            self._events.append(("amend", s, action.n))
            return
        assert type(action) is Bid
        self._bids[s] = action.n
        self._blind[s] = action.blind
        self._looked[s] = True
        self._events.append(("bid", s, action.n, action.blind))
        n = self._n
        if self._waiting is None:
            pos = self._bid_pos + 1
            self._bid_pos = pos
            self._amender = s if self._r.amend and pos < n else -1
            if pos < n:
                self._to_act = self._order[self._dealer][pos]
                return
        else:
            w = self._waiting
            w.remove(s)
            if w:
                self._to_act = w[0]
                return
        self._events.append(("bids", tuple(self._bids)))
        self._amender = -1
        self._waiting = None
        self._start_play()

    # ----------------------------------------------------------------- play

    def _start_play(self) -> None:
        r = self._r
        self._phase = _PLAY
        leader = self._order[self._dealer][0]
        if r.leader_holder:
            bit = _BITS[r.lead_card]
            for s, h in enumerate(self._hands):
                if h & bit:
                    leader = s
                    break
        self._leader = leader
        self._to_act = leader
        self._legal = None

    def _legal_plays(self, s: int) -> tuple[int, int, int]:
        """The mask of cards seat ``s`` may play now, the rule that limited it and
        which set of that rule's list applied.

        Rule codes: 0 none, 1 the first lead's card, 2 the first lead's suit,
        3 the lead rule, 4 the follow rule, 5 the first trick's rule.
        """
        hand = self._hands[s]
        r = self._r
        trick = self._trick
        first_trick = self._tricks_played == 0
        if not trick:
            if first_trick and r.first_lead:
                lc = r.lead_card
                if r.first_lead == 1:
                    if hand >> lc & 1:
                        return _BITS[lc], 1, 0
                else:
                    m = hand & SUIT_MASKS[lc // 13]
                    if m:
                        return m, (2 if m != hand else 0), 0
            rule, code = r.lead, 3
        else:
            rule, code = r.follow, 4
        mask, option = hand, -1
        if rule is not None:
            mask, option = self._choose(rule, hand)
            if mask == hand:
                code = 0
        if first_trick and r.first_trick is not None:
            narrowed, opt = self._choose(r.first_trick, mask)
            if narrowed != mask:
                return narrowed, 5, opt
        return mask, (code if option >= 0 else 0), option

    def _choose(self, rule: CompiledChoice, hand: int) -> tuple[int, int]:
        """The cards of ``hand`` in the first set of ``rule`` that holds one, and
        that set's index (``hand`` and -1 when no set does)."""
        trick = self._trick
        trump = self._trump
        trumps = SUIT_MASKS[trump] if trump >= 0 else 0
        led = SUIT_MASKS[_SUIT_OF[trick[0]]] if trick else 0
        win = -1
        unbroken = _UNBROKEN[self._broken_suits]
        for i, (const, dyn) in enumerate(rule):
            m = hand & const
            for code, cmask, only_unbroken, negated in dyn:
                if not m:
                    break
                if code == 1:
                    t = led
                elif code == 2:
                    t = trumps
                elif code == 3:
                    if win < 0:
                        win = self._winning_mask(trumps)
                    t = win
                else:
                    t = cmask
                if only_unbroken:
                    t &= unbroken
                m = m & ~t if negated else m & t
            if m:
                return m, i
        return hand, -1

    def _winning_mask(self, trumps: int) -> int:
        """The cards that would win the trick as it stands (all of them, when leading)."""
        if not self._trick:
            return FULL_DECK_MASK
        best = self._best
        above = ~((2 << best) - 1)
        if trumps and trumps >> best & 1:
            return trumps & above
        return (SUIT_MASKS[_SUIT_OF[best]] & above) | trumps

    def _finish_trick(self) -> None:
        w = self._best_seat
        trick = self._trick
        self._tricks[w] += 1
        m = 0
        for c in trick:
            m |= _BITS[c]
        self._won[w] |= m
        # The lists go into the log as they are: they are replaced, never changed.
        self._events.append(("trick", w, self._trick_seats, trick))
        self._trick = []
        self._trick_seats = []
        self._tricks_played += 1
        self._total_tricks += 1
        self._to_act = w
        self._leader = w
        if self._tricks_played == self._size:
            self._end_hand()
        elif self._max_tricks is not None and self._total_tricks >= self._max_tricks:
            self._game_over(finished=False)
        elif self._r.free_lead:
            # The winner's lead (not the first of the hand): the whole hand, now.
            hand = self._hands[w]
            self._legal = _plays_of(hand)
            self._legal_mask = hand

    def _shed_step(self, s: int, c: int) -> None:
        """Shedding mode, after seat ``s`` played ``c``: a cut ends the trick and the
        highest card of the suit led picks it up; when every seat still in has
        followed, the trick is dead and leaves the game."""
        self._known[s] &= ~_BITS[c]
        trick = self._trick
        nxt = self._nxt
        out = self._out
        r = self._r
        if (
            len(trick) > 1
            and _SUIT_OF[c] != _SUIT_OF[trick[0]]
            and (r.first_trick_cuts or self._total_tricks)
        ):
            taker = self._best_seat
            m = sum(map(_BITS.__getitem__, trick))
            self._hands[taker] |= m
            self._known[taker] |= m
            self._events.append(("pickup", taker, tuple(self._trick_seats), tuple(trick)))
        elif len(trick) == self._in_count:
            taker = self._best_seat
            for seat, card_ in zip(self._trick_seats, trick, strict=True):
                self._dead_by[seat] |= _BITS[card_]
                self._dead |= _BITS[card_]
            self._events.append(("dead", taker, tuple(self._trick_seats), tuple(trick)))
        else:
            t = nxt[s]
            while out[t]:
                t = nxt[t]
            self._to_act = t
            return
        leader = self._leader
        seats = self._trick_seats
        self._trick = []
        self._trick_seats = []
        self._tricks_played += 1
        self._total_tricks += 1
        hands = self._hands
        for seat in range(self._n):
            if not out[seat] and not hands[seat]:
                out[seat] = True
                self._events.append(("out", seat))
        left = [seat for seat in range(self._n) if not out[seat]]
        went_out = self._in_count - len(left)
        self._in_count = len(left)
        if r.first_out_ends and went_out and left:
            self._game_over(finished=True, loser=self._most_cards(left, leader))
            return
        if len(left) <= 1:
            if left:
                loser: int | None = left[0]
            else:
                loser = leader if self._r.all_out_leader_loses else None
            self._game_over(finished=True, loser=loser)
            return
        if out[taker] and self._r.leader_out_highest:
            # The player of the next-highest card of the suit led who is still in.
            suit = _SUIT_OF[trick[0]]
            for card_, seat in sorted(zip(trick, seats, strict=True), reverse=True):
                if _SUIT_OF[card_] == suit and not out[seat]:
                    taker = seat
                    break
        while out[taker]:
            taker = nxt[taker]
        self._to_act = taker
        self._leader = taker
        if self._max_tricks is not None and self._total_tricks >= self._max_tricks:
            self._game_over(finished=False)

    def _most_cards(self, left: list[int], leader: int) -> int | None:
        """The seat still in with the most cards (a game that ends when the first
        player goes out); a tie as the rules say."""
        counts = [self._hands[s].bit_count() for s in left]
        most = max(counts)
        tied = [s for s, k in zip(left, counts, strict=True) if k == most]
        if len(tied) == 1:
            return tied[0]
        if not self._r.loser_tie_first_in_turn:
            return None
        order = self._order[leader]  # from the leader's neighbour round to the leader
        return min(tied, key=order.index)

    def _hand_points(self, tricks: list[int]) -> list[Num]:
        """Each seat's points for this hand with ``tricks`` taken (ScoreError if
        the formula cannot give them)."""
        r = self._r
        n = self._n
        hn = self._hand_index + 1
        size = self._size
        points: list[Num] = []
        bids = self._bids
        blind = self._blind
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

    def _check_hand_score(self, s: int, c: int, broken_before: int) -> None:
        """Before the last trick of a hand is gathered, with a formula that can
        give fractions: score the hand and check the new totals; if they cannot
        be kept (ScoreError), take back the card ``s`` just played, so that the
        game is unchanged, and raise."""
        tricks = self._tricks[:]
        tricks[self._best_seat] += 1
        try:
            points = self._hand_points(tricks)
            for seat, (old, p) in enumerate(zip(self._scores, points, strict=True)):
                check_total(old + p, seat=seat, hand=self._hand_index + 1, formula=self._r.formula)
        except ScoreError:
            self._take_back_play(s, c)
            self._broken_suits = broken_before
            raise

    def _take_back_play(self, s: int, c: int) -> None:
        """Undo the play of card ``c`` by seat ``s`` that completed a trick (before
        the trick is gathered)."""
        self._hands[s] |= _BITS[c]
        trick = self._trick
        trick.pop()
        self._trick_seats.pop()
        self._events.pop()
        best = trick[0]
        best_seat = self._trick_seats[0]
        trump = self._trump
        for card_, seat in zip(trick, self._trick_seats, strict=True):
            if _SUIT_OF[card_] == _SUIT_OF[best]:
                if card_ > best:
                    best, best_seat = card_, seat
            elif _SUIT_OF[card_] == trump:
                best, best_seat = card_, seat
        self._best = best
        self._best_seat = best_seat
        self._legal = None

    def _end_hand(self) -> None:
        hn = self._hand_index + 1
        scores = self._scores
        tricks = self._tricks
        points = self._hand_points(tricks)
        for s, p in enumerate(points):
            scores[s] += p
        self._events.append(("score", hn, tuple(self._bids), tuple(tricks), points, tuple(scores)))
        self._next_hand()

    def _leaders(self) -> list[int]:
        scores = self._scores
        best = max(scores) if self._r.higher_wins else min(scores)
        return [s for s in range(self._n) if scores[s] == best]

    def _next_hand(self) -> None:
        # The game's end comes first: reaching max_tricks on its very last trick
        # still finishes it; max_tricks only stops a game with hands to come.
        r = self._r
        scheduled = self._hand_index + 1 < len(self._sizes)
        tied = not scheduled and r.tie_extra and len(self._leaders()) > 1
        extra = tied and self._extra < r.max_extra
        if tied and not extra and not r.share_after_extra:
            # Still tied at the safety bound: the game did not reach its end.
            self._game_over(finished=False)
        elif not (scheduled or extra):
            self._game_over(finished=True)
        elif self._max_tricks is not None and self._total_tricks >= self._max_tricks:
            self._game_over(finished=False)
        else:
            if extra:
                self._extra += 1
            self._start_hand(self._nxt[self._dealer])

    def _game_over(self, *, finished: bool, loser: int | None = None) -> None:
        if self._r.tricks_mode:
            leaders = self._leaders()
        else:
            # Shedding: no winner as such; everyone but the loser is safe.
            leaders = [s for s in range(self._n) if s != loser]
        winners = tuple(leaders) if finished else ()
        self._result = None  # built on demand from the "over" event (see .result)
        self._phase = _OVER
        self._to_act = -1
        self._waiting = None
        self._amender = -1
        self._legal = ()
        self._legal_mask = 0
        self._events.append(
            ("over", winners, tuple(self._scores), finished and len(leaders) > 1, finished, loser)
        )

    # ----------------------------------------------------------------- public: acting

    # The implementations of the public methods that take a seat or an id take
    # ``object`` (the overloads give the public types), so that a compiled (mypyc)
    # build checks the argument itself and raises the same InvalidAction as the
    # pure-Python one, not a TypeError at the call.
    @overload
    def legal_actions(self) -> tuple[Action, ...]: ...
    @overload
    def legal_actions(self, seat: int | None) -> tuple[Action, ...]: ...
    def legal_actions(self, seat: object = None) -> tuple[Action, ...]:
        """The legal actions of a seat, lowest id first.

        Args:
            seat: the seat to ask about; ``None`` for :attr:`to_act`. Other seats
                have actions only while bids are simultaneous or while they may
                amend their bid.

        Returns:
            A tuple of interned, hashable actions (empty when the seat may not act).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < self._n:
                raise InvalidAction(f"seat must be an int from 0 to {self._n - 1}, got {seat!r}")
            if seat != self._to_act:
                if self._phase == _BID:
                    if self._waiting is not None and seat in self._waiting:
                        return self._bid_options(seat)
                    if seat == self._amender:
                        return self._amend_options(seat)
                return ()
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        ph = self._phase
        legal: tuple[Action, ...]
        if ph == _PLAY:
            s = self._to_act
            trick = self._trick
            r = self._r
            hand = self._hands[s]
            mask = -1
            if trick:
                if r.plain_follow:
                    # The common case: must follow, nothing else.
                    mask = hand & SUIT_MASKS[_SUIT_OF[trick[0]]]
                    if not mask and r.free_void:
                        mask = hand
            else:
                if r.break_forced:
                    # Leading only what the lead rule's first set bars breaks it.
                    lead = r.lead
                    self._forced_lead = lead is not None and self._choose(lead, hand)[1] > 0
                if r.free_lead and (
                    self._tricks_played or (not r.first_lead and r.first_trick_free)
                ):
                    mask = hand
            if mask <= 0:
                mask = self._legal_plays(s)[0]
            legal = _plays_of(mask)
            self._legal_mask = mask
        else:
            self._legal_mask = 0
            legal = self._bid_options(self._to_act) if ph == _BID else ()
        self._legal = legal
        return legal

    # The implementations take ``object`` (the overloads give the public types), so
    # that a compiled (mypyc) build checks the arguments itself and raises the same
    # InvalidAction as the pure-Python one, not a TypeError at the call.
    @overload
    def apply(self, action: Action) -> None: ...
    @overload
    def apply(self, action: Action, seat: int | None) -> None: ...
    def apply(self, action: object, seat: object = None) -> None:
        """Make a move.

        Args:
            action: the action, such as ``Bid(2)`` or ``Play(card("A♠"))``.
            seat: who makes it; ``None`` for :attr:`to_act` (or, for an
                :class:`Amend`, the seat that may amend). Needed for a
                simultaneous bid by a seat other than :attr:`to_act`.

        Raises:
            InvalidAction: if ``action`` is not an action or ``seat`` not a seat.
            IllegalAction: if the rules forbid it now; the reason is in the
                message and the game is unchanged.
        """
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if type(action) is Play:
            # The hot path: a legal card (in play, ``_legal_mask`` is the mask of
            # the cards that may be played; elsewhere it is 0).
            c = action.id
            if not self._legal_mask >> c & 1 or (
                seat is not None and (seat.__class__ is not int or seat != self._to_act)
            ):
                self._apply_slow(action, seat)
                return
            s = self._to_act
            hands = self._hands
            hands[s] ^= _BITS[c]
            trick = self._trick
            suit = _SUIT_OF[c]
            trump = self._trump
            if trick:
                best = self._best
                if suit == _SUIT_OF[best]:
                    if c > best:
                        self._best = c
                        self._best_seat = s
                elif suit == trump:
                    self._best = c
                    self._best_seat = s
                led = _SUIT_OF[trick[0]]
            else:
                self._best = c
                self._best_seat = s
                self._leader = s
                led = suit
            r = self._r
            broken_before = self._broken_suits
            if (
                r.break_any
                or (r.break_void and trick and suit != led)
                or (r.break_forced and not trick and self._forced_lead)
            ):
                self._broken_suits = broken_before | _SUIT_BIT[suit]
            trick.append(c)
            self._trick_seats.append(s)
            self._events.append(("play", s, c))
            if not r.tricks_mode:
                self._legal = None
                self._shed_step(s, c)
            elif len(trick) == self._n:
                self._legal = None
                if r.score_guard and self._tricks_played + 1 == self._size:
                    self._check_hand_score(s, c, broken_before)
                self._finish_trick()
            else:
                t = self._nxt[s]
                self._to_act = t
                if r.plain_follow:
                    # The next seat's legal cards, now: one suit's interned tuple.
                    hand = hands[t]
                    p = (hand >> _SHIFT[led]) & 0x1FFF
                    if p:
                        lt = _SUIT_TABLES[led][p]
                        self._legal = lt if lt is not None else _suit_plays(led, p)
                        self._legal_mask = p << _SHIFT[led]
                        return
                    if r.free_void:
                        self._legal = _plays_of(hand)
                        self._legal_mask = hand
                        return
                self._legal = None
            return
        if (
            action in legal
            and (seat is None or (seat.__class__ is int and seat == self._to_act))
            and self._phase == _BID
        ):
            assert isinstance(action, Action)
            self._do_bid(self._to_act, action)
            return
        self._apply_slow(action, seat)

    def _apply_slow(self, action: object, seat_: object) -> None:
        if not isinstance(action, Action):
            raise InvalidAction(
                f"{action!r} is not an action: use Bid(n), Play(card), Look(), Amend(n) "
                "or Action.from_id(i)"
            )
        seat: int | None = None
        if seat_ is not None:
            if type(seat_) is not int or not 0 <= seat_ < self._n:
                raise InvalidAction(f"seat must be an int from 0 to {self._n - 1}, got {seat_!r}")
            seat = seat_
        if self._phase == _OVER:
            raise IllegalAction(f"the game is over: {action.label} is not possible")
        if type(action) is Amend:
            actor = self._amender if seat is None else seat
            if not self._r.amend:
                raise IllegalAction("this variant does not allow changing a bid")
            if self._phase != _BID or actor < 0 or actor != self._amender:
                raise IllegalAction(
                    "a bid may only be changed by the last seat to bid, before the next seat bids"
                )
            if action in self._amend_options(actor):
                self._do_bid(actor, action)
                return
            raise IllegalAction(
                _explain_bid(self._r, self._size, self._bids, actor, action.n, amend=True)
            )
        actor = self._to_act if seat is None else seat
        if self._phase == _BID:
            if self._waiting is not None:
                if actor not in self._waiting:
                    raise IllegalAction(f"seat {actor} has already bid this hand")
            elif actor != self._to_act:
                raise IllegalAction(f"it is seat {self._to_act}'s turn to bid, not seat {actor}'s")
            if type(action) is Play:
                raise IllegalAction(
                    f"the bidding is not over: seat {actor} must bid before playing"
                )
            opts = self._bid_options(actor)
            if action in opts:
                self._do_bid(actor, action)
                return
            if action is _LOOK:
                raise IllegalAction(
                    "you have already looked at your cards"
                    if self._r.blind
                    else "this variant has no blind bidding: your cards are already visible"
                )
            assert isinstance(action, Bid)
            if action.blind and not (self._r.blind and not self._looked[actor]):
                raise IllegalAction(
                    "a blind bid is only possible before you look at your cards"
                    if self._r.blind
                    else "this variant has no blind bids"
                )
            if action.blind and self._r.blind_only and action.n not in self._r.blind_only:
                allowed = " or ".join(map(str, sorted(self._r.blind_only)))
                raise IllegalAction(
                    f"only {allowed} may be bid blind: look at your cards to bid {action.n}"
                )
            if not action.blind and not self._looked[actor]:
                raise IllegalAction("you have not looked at your cards: bid blind, or Look() first")
            raise IllegalAction(
                _explain_bid(self._r, self._size, self._bids, actor, action.n, amend=False)
            )
        # Play phase.
        if actor != self._to_act:
            raise IllegalAction(f"it is seat {self._to_act}'s turn to play, not seat {actor}'s")
        if type(action) is not Play:
            raise IllegalAction(f"the bidding is over: {action.label} is not possible now")
        c = int(action.card)
        raise IllegalAction(
            _explain_play(
                self._r,
                c,
                self._hands[actor],
                self._legal_plays(actor),
                self._trump,
                self._trick,
                self._best,
            )
        )

    # ----------------------------------------------------------------- public: state

    @property
    def variant(self) -> Variant:
        """The rules of this game."""
        return self._v

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def seed(self) -> int:
        """The random seed (the first dealer and every shuffled deal follow from it)."""
        return self._seed

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or ``None`` when the game is over.

        While bids are simultaneous this is the first waiting seat in bidding
        order; :attr:`waiting_for` has them all.
        """
        return None if self._to_act < 0 else self._to_act

    @property
    def waiting_for(self) -> frozenset[int]:
        """Every seat that may act now: the waiting seats of a simultaneous bid,
        or :attr:`to_act` plus the seat that may still amend its bid."""
        if self._phase == _OVER:
            return frozenset()
        if self._waiting is not None:
            return frozenset(self._waiting)
        if self._amender >= 0 and self._amend_options(self._amender):
            return frozenset((self._to_act, self._amender))
        return frozenset((self._to_act,))

    @property
    def phase(self) -> str:
        """``"bid"``, ``"play"`` or ``"over"``."""
        return _PHASE_NAMES[self._phase]

    @property
    def hand_number(self) -> int:
        """The current (or last) hand, from 1; tie-break hands continue the count."""
        return self._hand_index + 1

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat in the current hand."""
        return self._size

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """The scheduled hand sizes of this game (tie-break hands not included)."""
        return self._sizes

    @property
    def extra_hands(self) -> int:
        """How many tie-break hands have been started."""
        return self._extra

    @property
    def dealer(self) -> int:
        """The dealer of the current hand."""
        return self._dealer

    @property
    def trump(self) -> Suit | None:
        """The current hand's trump suit, or ``None`` for no trumps."""
        return None if self._trump < 0 else Suit(self._trump)

    @property
    def turned_up(self) -> Card | None:
        """The card turned up for trumps this hand, if any."""
        return None if self._turned < 0 else ALL_CARDS[self._turned]

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Every seat's bid this hand (``None``: not yet bid). All of them,
        hidden or not: use :meth:`view` for what one seat may see."""
        return tuple(b if b >= 0 else None for b in self._bids)

    @property
    def blind_bids(self) -> tuple[bool, ...]:
        """Whether each seat's bid this hand was blind."""
        return tuple(self._blind)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each seat has won this hand."""
        return tuple(self._tricks)

    @property
    def scores(self) -> tuple[Fraction, ...]:
        """Running totals, exact."""
        return tuple(map(Fraction, self._scores))

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self._phase == _OVER

    @property
    def result(self) -> Result | None:
        """The winners and final totals once the game is over, else ``None``."""
        if self._result is None and self._phase == _OVER:
            _, winners, totals, shared, finished, loser = self._events[-1]
            self._result = Result(
                winners=winners,
                totals=tuple(map(Fraction, totals)),
                shared=shared,
                finished=finished,
                loser=loser,
            )
        return self._result

    @property
    def events(self) -> list[Event]:
        """The log, a list of tuples (a copy). Kinds and items:

        * ``("start", players, seed, first_dealer, max_tricks)``
        * ``("cut", ((seat, card), ...))``: a round of cutting for the first deal
        * ``("deal", hand_number, dealer, size, (CardSet per seat))``
        * ``("trump", hand_number, suit or None, turned-up card or None)``
        * ``("look", seat)``, ``("bid", seat, n, blind)``, ``("amend", seat, n)``
        * ``("bids", (bid per seat))``: the bidding is over (all bids public)
        * ``("play", seat, card)``
        * ``("trick", winner, (seats in play order), (cards in play order))``
        * ``("score", hand_number, bids, tricks, points, totals)`` (Fractions)
        * ``("dead", winner, (seats), (cards))``: shedding, a dead trick leaves the game;
          ``winner`` played its highest card of the suit led (it leads next unless it
          has just gone out, when the next seat still in leads)
        * ``("pickup", taker, (seats), (cards))``: shedding, a cut; ``taker`` picks up
        * ``("out", seat)``: shedding, the seat has no cards left and is safe
        * ``("over", winners, totals, shared, finished, loser)``
        """
        return [_public(ev) for ev in self._events]

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def events_for(self, seat: int) -> list[Event]: ...
    def events_for(self, seat: object) -> list[Event]:
        """The log as ``seat`` may see it: other seats' cards, hidden bids and
        the seed are replaced by ``None``.

        Every card is played face up, so every ``("play", ...)`` event and the
        cards of every completed trick (``"trick"``, ``"dead"``, ``"pickup"``)
        are shown to every seat, also in shedding games whose dead tricks go
        face down: "face down" only means that a gathered dead trick cannot be
        looked at again, so :meth:`view` shows in ``dead`` and ``played`` only
        the face-down cards ``seat`` played itself (``last_trick`` shows the
        trick just completed whole).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        s = self._check_seat(seat)
        r = self._r
        return _events_for(
            self._events,
            s,
            current_hand=self._hand_index + 1,
            sees_own=self._sees_own(s),
            bids_hidden=self._phase == _BID and self._waiting is not None,
            forehead_sizes=r.forehead if r.bid_style != 0 else (),
        )

    def _check_seat(self, seat: object) -> int:
        """``seat`` as a seat number; InvalidAction (a ValueError) if it is not one."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise InvalidAction(f"seat must be an int from 0 to {self._n - 1}, got {seat!r}")
        return seat

    def _sees_own(self, seat: int) -> bool:
        return not (self._phase == _BID and (self._forehead or not self._looked[seat]))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def hand(self, seat: int) -> CardSet: ...
    def hand(self, seat: object) -> CardSet:
        """The cards ``seat`` holds now (all-seeing: use :meth:`view` for players).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        return CardSet(self._hands[self._check_seat(seat)])

    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)`` pairs in play order."""
        return tuple(zip(self._trick_seats, (ALL_CARDS[c] for c in self._trick), strict=True))

    def card_locations(self) -> dict[str, CardSet]:
        """Where every card of the pack is (for checks): ``hands``, ``trick``,
        ``won`` (tricks taken), ``dead`` (shedding games: dead tricks out of the
        game), ``undealt`` and ``turned`` (the turned card when it is in no hand)."""
        hands = 0
        for h in self._hands:
            hands |= h
        trick = 0
        for c in self._trick:
            trick |= _BITS[c]
        won = 0
        for w in self._won:
            won |= w
        turned = (
            _BITS[self._turned]
            if self._turned >= 0 and not (hands | won | trick) >> self._turned & 1
            else 0
        )
        return {
            "hands": CardSet(hands),
            "trick": CardSet(trick),
            "won": CardSet(won),
            "dead": CardSet(self._dead),
            "undealt": CardSet(self._undealt),
            "turned": CardSet(turned),
        }

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def view(self, seat: int) -> View: ...
    def view(self, seat: object) -> View:
        """Everything ``seat`` may know now, and nothing more.

        Args:
            seat: the seat.

        Returns:
            A frozen :class:`View`; ``view.to_dict()`` is JSON-ready.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        return self._view(self._check_seat(seat))

    def _view(self, seat: int) -> View:
        n = self._n
        bidding = self._phase == _BID
        own = self._sees_own(seat)
        hand = tuple(CardSet(self._hands[seat])) if own else None
        visible: tuple[tuple[int, tuple[Card, ...]], ...] = ()
        if bidding and self._forehead:
            visible = tuple((s, tuple(CardSet(self._hands[s]))) for s in range(n) if s != seat)
        hidden_bids = bidding and self._waiting is not None
        bids = tuple(
            None if b < 0 or (hidden_bids and s != seat) else b for s, b in enumerate(self._bids)
        )
        played: list[Card] = []
        for w in self._won:
            played.extend(CardSet(w))
        dead = self._dead if self._r.dead_face_up else self._dead_by[seat]
        played.extend(CardSet(dead))
        played.extend(ALL_CARDS[c] for c in self._trick)
        known = tuple(
            (s, tuple(CardSet(self._known[s] & self._hands[s])))
            for s in range(n)
            if s != seat and self._known[s] & self._hands[s]
        )
        last: tuple[tuple[int, Card], ...] = ()
        if self._tricks_played and self._events:
            for ev in reversed(self._events):
                if ev[0] in ("trick", "dead", "pickup"):
                    # Every card of a trick is played face up, so the trick just
                    # completed is shown whole to every seat, even a dead trick
                    # that goes face down (face down: nobody looks back at it later).
                    last = tuple(zip(ev[2], map(ALL_CARDS.__getitem__, ev[3]), strict=True))
                    break
        return View(
            seat=seat,
            players=n,
            phase=_PHASE_NAMES[self._phase],
            hand_number=self._hand_index + 1,
            hand_size=self._size,
            dealer=self._dealer,
            trump=self.trump,
            turned_up=self.turned_up,
            hand=hand,
            visible_hands=visible,
            hand_counts=tuple(h.bit_count() for h in self._hands),
            bids=bids,
            bid_made=tuple(b >= 0 for b in self._bids),
            blind=tuple(self._blind),
            tricks_won=tuple(self._tricks),
            trick=self.current_trick(),
            leader=None if self._phase != _PLAY else self._leader,
            last_trick=last,
            played=tuple(sorted(played)),
            dead=tuple(CardSet(dead)),
            dead_count=self._dead.bit_count(),
            known_hands=known,
            out=tuple(self._out),
            mode=self._v.mode.value,
            direction=self._v.direction.value,
            seat_order=self._order[seat],
            pack_size=len(self._r.pack),
            pack_removed=self._r.pack_removed,
            trumps_broken=self._trump >= 0 and bool(self._broken_suits >> self._trump & 1),
            scores=tuple(map(Fraction, self._scores)),
            to_act=self.to_act,
            waiting_for=tuple(sorted(self.waiting_for)),
            legal_actions=self.legal_actions(seat),
            result=self.result,
        )

    def clone(self) -> Game:
        """An independent copy (cheap: a few list copies), for search."""
        g = Game(self._v, _blank=True)
        g._amender = self._amender
        g._best = self._best
        g._best_seat = self._best_seat
        g._bid_pos = self._bid_pos
        g._bids = self._bids[:]
        g._blind = self._blind[:]
        g._broken_suits = self._broken_suits
        g._forced_lead = self._forced_lead
        g._dealer = self._dealer
        g._decks = self._decks
        g._decks_reuse = self._decks_reuse
        g._events = self._events[:]
        g._extra = self._extra
        g._fd_param = self._fd_param
        g._forced = self._forced[:]
        g._forehead = self._forehead
        g._hand_index = self._hand_index
        g._hands = self._hands[:]
        g._dead = self._dead
        g._in_count = self._in_count
        g._known = self._known[:]
        g._out = self._out[:]
        g._dead_by = self._dead_by[:]
        g._largest = self._largest
        g._leader = self._leader
        g._legal = self._legal
        g._legal_mask = self._legal_mask
        g._looked = self._looked[:]
        g._max_tricks = self._max_tricks
        g._n = self._n
        g._nxt = self._nxt
        g._order = self._order
        g._phase = self._phase
        g._r = self._r
        g._result = self._result
        g._scores = self._scores[:]
        g._seed = self._seed
        g._size = self._size
        g._sizes = self._sizes
        g._to_act = self._to_act
        g._total_tricks = self._total_tricks
        g._trick = self._trick[:]
        g._trick_seats = self._trick_seats[:]
        g._tricks = self._tricks[:]
        g._tricks_played = self._tricks_played
        g._trump = self._trump
        g._turned = self._turned
        g._undealt = self._undealt
        g._v = self._v
        g._waiting = None if self._waiting is None else self._waiting[:]
        g._won = self._won[:]
        return g

    def __copy__(self) -> Game:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._v == other._v and self._events == other._events

    def __hash__(self) -> int:
        raise TypeError("a Game is mutable and cannot be hashed")

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.phase}, seat {self._to_act} to act"
        return f"<Game {self._v.name} {self._n}p hand {self.hand_number}: {state}>"

    # ----------------------------------------------------------------- OpenSpiel-flavoured

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def apply_action(self, action_id: int) -> None: ...
    def apply_action(self, action_id: object) -> None:
        """Apply an action by id (OpenSpiel style), for :meth:`current_player`.

        Raises:
            InvalidAction: if ``action_id`` is not an action id.
            IllegalAction: as :meth:`apply`.
        """
        # Action.from_id checks the id (an Any argument: no compiled check here).
        any_id: Any = action_id
        self.apply(Action.from_id(any_id))

    @overload
    def legal_action_ids(self) -> list[int]: ...
    @overload
    def legal_action_ids(self, seat: int | None) -> list[int]: ...
    def legal_action_ids(self, seat: object = None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        any_seat: Any = seat  # legal_actions checks it
        return [a.id for a in self.legal_actions(any_seat)]

    def current_player(self) -> int:
        """:attr:`to_act`, or -4 (OpenSpiel's terminal id) when the game is over."""
        return -4 if self._to_act < 0 else self._to_act

    def is_terminal(self) -> bool:
        """Same as :attr:`is_over`."""
        return self._phase == _OVER

    def returns(self) -> list[float]:
        """Each seat's running total as a float (the final totals once over)."""
        return [float(x) for x in self._scores]

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def information_state_string(self, seat: int) -> str: ...
    def information_state_string(self, seat: object) -> str:
        """A compact text of :meth:`view` (everything ``seat`` may know).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        return self._view(self._check_seat(seat)).to_json()

    # ----------------------------------------------------------------- save and restore

    def to_json(self) -> str:
        """The whole game as JSON text: settings, every deal and every action.

        :meth:`from_json` restores it exactly (it replays the actions, so a
        restored game is checked by the rules). The save holds the seed, so it
        tells every future deal: keep it from the players while the game goes
        on. A save beyond :meth:`from_json`'s limits (a shedding game or bid
        changes past 312,000 actions) is written but cannot be restored.
        """
        return _save_text(self)

    def _summary(self) -> dict[str, Any]:
        return {
            "hand_number": self._hand_index + 1,
            "phase": _PHASE_NAMES[self._phase],
            "to_act": self.to_act,
            "scores": [str(x) for x in self._scores],
        }

    @overload
    @classmethod
    def from_json(cls, text: str, variant: Variant | None = None) -> Game: ...
    @overload
    @classmethod
    def from_json(cls, text: bytes, variant: Variant | None = None) -> Game: ...
    @classmethod
    def from_json(cls, text: object, variant: Variant | None = None) -> Game:
        """Restore a game saved by :meth:`to_json`. Saves are untrusted input.

        A save carries its resolved rules (the variant as canonical text), so it
        restores without the file it was played from, with exactly those rules.
        A server that must enforce its own rules passes ``variant=``: the save's
        variant must then be that one (same name and rules fingerprint), else
        :class:`SaveError`.

        Args:
            text: the saved JSON (``str`` or UTF-8 ``bytes``).
            variant: the variant it must have been played with. When ``None``,
                the rules stored in the save are used; a save without them (a
                hand-built variant no text can describe) is restored only if it
                names a built-in variant (``cardrules.dsl.builtin_names()``),
                loaded with ``cardrules.load``; otherwise pass ``variant=``.

        A save is bounded before it is read: at most ``MAX_SAVE_BYTES``
        (5,000,000) bytes of UTF-8 and ``saves.MAX_SAVE_CONTAINERS`` lists,
        objects and fields, and no more decks, deals, hands, cards or actions
        than its rules allow. A UTF-8 byte-order mark is allowed, int fields must
        be JSON ints (not ``true`` or ``2.0``), and its deals must be exactly the
        deals its seed and decks deal. The rules text it carries goes through
        every check of :func:`cardrules.load_text`.

        Raises:
            SaveError: for anything malformed, inconsistent or impossible, with
                a message saying what.
        """
        return _load_text(text, variant)
