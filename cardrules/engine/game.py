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
:meth:`Game._play`, :meth:`Game._finish_trick`, :meth:`Game._next_hand`) so
that the shedding mode can replace the trick-completion step (dead tricks,
cuts and pick-ups) and skip seats that are out, on the same engine.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any, Final

import attrs

from cardrules.cards import ALL_CARDS, SUIT_MASKS, Card, CardSet, Suit, card
from cardrules.engine.actions import (
    Action,
    Amend,
    Bid,
    Look,
    Play,
)
from cardrules.engine.view import Result, View
from cardrules.errors import (
    CardError,
    CardrulesError,
    IllegalAction,
    InvalidAction,
    SaveError,
    VariantError,
)
from cardrules.rules import (
    BidStyle,
    DeadTricks,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    Mode,
    Pattern,
    TieBreak,
    TrumpKind,
    TrumpLead,
    Variant,
)

__all__ = ["Event", "Game", "replay", "variant_fingerprint"]

#: Exact numbers: whole numbers are kept as ints internally, for speed.
Num = int | Fraction

#: One log entry: a tuple whose first item is the kind (see :attr:`Game.events`).
Event = tuple[Any, ...]

SAVE_FORMAT: Final = "cardrules.game"
SAVE_VERSION: Final = 1
#: Saved games larger than this are refused unread.
MAX_SAVE_BYTES: Final = 20_000_000

_BID: Final = 0
_PLAY: Final = 1
_OVER: Final = 2
_PHASE_NAMES: Final = ("bid", "play", "over")

_BITS: Final[tuple[int, ...]] = tuple(1 << i for i in range(52))
_SUIT_OF: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
_SHIFT: Final[tuple[int, ...]] = (0, 13, 26, 39)
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(i) for i in range(52))
_ZERO: Final = Fraction(0)
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


def _cards_text(mask: int) -> str:
    return " ".join(str(c) for c in CardSet(mask))


_U64X52: Final = struct.Struct("<52Q").unpack


def _random_words(seed: int, idx: int) -> tuple[int, ...]:
    """52 uniform 64-bit words for hand ``idx`` (0-based) of the game with ``seed``."""
    return _U64X52(hashlib.shake_128(b"cardrules:%d:%d" % (seed, idx)).digest(416))


def _shuffled(words: tuple[int, ...], pack: tuple[int, ...], k: int) -> list[int]:
    """The pack shuffled with 52 random words (a Fisher-Yates shuffle).

    The words come from SHAKE-128 of the seed and the hand number, so a seed
    deals the same cards on every platform and Python version; the modulo
    bias is below 2**-57. Only the first ``k`` places are shuffled (the rest are
    never dealt or seen); word 51 is left for the first dealer.
    """
    order = list(pack)
    m = len(order)
    for i in range(min(k, m - 1)):
        j = i + words[i] % (m - i)
        order[i], order[j] = order[j], order[i]
    return order


# --------------------------------------------------------------------------- scoring


def _local_env(
    *, bid: int, tricks: int, cards: int, hand: int, players: int, blind: bool = False
) -> dict[str, int | Fraction | bool]:
    return {
        "bid": bid,
        "tricks": tricks,
        "cards": cards,
        "hand": hand,
        "players": players,
        "blind": blind,
        "exact": bid == tricks,
        "over": tricks > bid,
        "under": tricks < bid,
        "diff": abs(tricks - bid),
    }


def _env_builder() -> Callable[..., Mapping[str, int | Fraction | bool]]:
    try:
        from cardrules.scoring import score_env
    except ImportError:
        return _local_env
    return score_env


# --------------------------------------------------------------------------- compiled rules


def _canon(x: object) -> object:
    if attrs.has(type(x)):
        fields = attrs.fields(type(x))  # type: ignore[arg-type]
        return [type(x).__name__] + [[f.name, _canon(getattr(x, f.name))] for f in fields if f.eq]
    if isinstance(x, Enum):
        return x.value
    if isinstance(x, tuple | list):
        return [_canon(i) for i in x]
    if x is None or isinstance(x, bool | int | str | float):
        return x if not isinstance(x, int) or isinstance(x, bool) else int(x)
    for name in ("text", "source"):
        text = getattr(x, name, None)
        if isinstance(text, str):
            return [type(x).__name__, text]
    return repr(x)


def variant_fingerprint(variant: Variant) -> str:
    """A short stable hash of a variant's rules (names, options and source positions
    aside from, everything that takes part in equality). Saved games carry it."""
    text = json.dumps(_canon(variant), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class _Rules:
    """A variant compiled to plain attributes for the hot loops (one per variant)."""

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self.tricks_mode = v.mode is Mode.TRICKS
        self.clockwise = v.direction is Direction.CLOCKWISE
        self.pack_mask = v.deck.cards.mask
        self.pack: tuple[int, ...] = tuple(int(c) for c in v.deck.cards)
        t = v.trumps
        self.trump_rule = t
        b = v.bidding
        self.bid_style = 0 if not v.has_bidding else (1 if b.style is BidStyle.IN_TURN else 2)
        self.hook = b.hook and self.bid_style == 1
        self.min_bid = b.min_bid
        self.max_bid = b.max_bid
        self.blind = b.blind
        self.forehead = frozenset(b.forehead_sizes)
        self.amend = b.amend and self.bid_style == 1
        p = v.play
        self.lead_card = -1 if p.lead_card is None else int(p.lead_card)
        self.leader_holder = p.first_leader is FirstLeader.HOLDER and self.lead_card >= 0
        self.first_lead = (
            0
            if self.lead_card < 0 or p.first_lead is FirstLead.ANY
            else (1 if p.first_lead is FirstLead.CARD else 2)
        )
        self.must_follow = p.must_follow
        self.must_trump = p.must_trump
        self.must_beat = p.must_beat
        self.plain_follow = p.must_follow and not p.must_beat
        self.free_void = not p.must_trump and not p.must_beat
        self.trump_broken_rule = p.trump_lead is TrumpLead.BROKEN
        self.free_lead = not self.trump_broken_rule
        self.formula = v.scoring.formula
        self.higher_wins = v.scoring.higher_wins
        self.tie_extra = v.winning.tie is TieBreak.EXTRA_HANDS
        self.max_extra = v.winning.max_extra_hands
        self.whole_pack = v.schedule.pattern is Pattern.WHOLE_PACK
        self.env = _env_builder()
        self.score_cache: dict[tuple[int, int, int, int, int, bool], Num] = {}
        self.bid_cache: dict[tuple[int, int, int, bool], tuple[Action, ...]] = {}
        self._fingerprint: str | None = None
        self._geometry: dict[
            int, tuple[tuple[int, ...], int, tuple[int, ...], tuple[tuple[int, ...], ...]]
        ] = {}
        self.turn_up_any = t.kind is TrumpKind.TURN_UP
        self.turn_up_all = self.turn_up_any and not t.no_trump_every
        self.all_out_leader_loses = v.shedding.all_out is EndWhenAllOut.LAST_LEADER
        self.dead_face_up = v.shedding.dead_tricks is DeadTricks.FACE_UP
        if b.max_bid is not None and b.max_bid < b.min_bid:
            raise VariantError(
                f"{v.name}: the largest bid ({b.max_bid}) is below the smallest ({b.min_bid})"
            )
        if b.min_bid < 0:
            raise VariantError(f"{v.name}: the smallest bid may not be negative ({b.min_bid})")
        if t.kind is TrumpKind.FIXED and t.suit is None and not t.no_trump_every:
            pass  # a fixed "no trump" game: allowed, every hand without trumps

    def geometry(
        self, players: int
    ) -> tuple[tuple[int, ...], int, tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """(hand sizes, largest, next seat, seats from each dealer's neighbour
        round to the dealer) for ``players`` players, checked once and cached."""
        hit = self._geometry.get(players)
        if hit is not None:
            return hit
        v = self.variant
        if type(players) is not int:
            raise ValueError(f"players must be an int, got {players!r}")
        if players not in v.players:
            raise VariantError(
                f"{v.name} is for {v.players.min} to {v.players.max} players, not {players}"
            )
        if players < 2:
            raise VariantError(f"a game needs at least 2 players, not {players}")
        sizes = v.hand_sizes(players)
        pack_size = len(self.pack)
        if not sizes:
            raise VariantError(f"{v.name}: the schedule has no hands for {players} players")
        for i, s in enumerate(sizes):
            if s < 1:
                raise VariantError(
                    f"{v.name}: hand {i + 1} would deal {s} cards each to {players} players"
                )
            if s * players > pack_size and not (self.whole_pack and not self.tricks_mode):
                raise VariantError(
                    f"{v.name}: hand {i + 1} needs {s} cards each for {players} players, "
                    f"{s * players} in all, but the pack has {pack_size}"
                )
        step = 1 if self.clockwise else -1
        n = players
        nxt = tuple((s + step) % n for s in range(n))
        order = tuple(tuple((d + step * k) % n for k in range(1, n + 1)) for d in range(n))
        geo = (sizes, max(sizes), nxt, order)
        self._geometry[players] = geo
        return geo

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = variant_fingerprint(self.variant)
        return self._fingerprint

    def points(
        self, bid: int, tricks: int, cards: int, hand: int, players: int, blind: bool
    ) -> Num:
        """One seat's points for one hand: an int when whole (fast to add), else a Fraction."""
        key = (bid, tricks, cards, hand, players, blind)
        hit = self.score_cache.get(key)
        if hit is not None:
            return hit
        value: Num
        if self.formula is None:
            value = 10 + bid if bid == tricks else 0
        else:
            env = self.env(
                bid=bid, tricks=tricks, cards=cards, hand=hand, players=players, blind=blind
            )
            f = Fraction(self.formula.evaluate(env))
            value = f.numerator if f.denominator == 1 else f
        if len(self.score_cache) > 100_000:
            self.score_cache.clear()
        self.score_cache[key] = value
        return value


_COMPILED: dict[int, tuple[Variant, _Rules]] = {}


def _compile(v: Variant) -> _Rules:
    hit = _COMPILED.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1]
    if not isinstance(v, Variant):
        raise TypeError(f"Game needs a cardrules Variant, got {type(v).__name__}")
    r = _Rules(v)
    if len(_COMPILED) > 256:
        _COMPILED.clear()
    _COMPILED[id(v)] = (v, r)
    return r


# --------------------------------------------------------------------------- decks


def _parse_deck(cards: Iterable[object], pack_mask: int, what: str) -> tuple[int, ...]:
    out: list[int] = []
    seen = 0
    for x in cards:
        if isinstance(x, str):
            c = int(card(x))
        elif type(x) is Card or (type(x) is int and 0 <= x < 52):
            c = int(x)  # type: ignore[call-overload,unused-ignore]
        else:
            raise CardError(f"{what}: {x!r} is not a card")
        if seen >> c & 1:
            raise CardError(f"{what}: {ALL_CARDS[c]} appears twice")
        if not pack_mask >> c & 1:
            raise CardError(f"{what}: {ALL_CARDS[c]} is not in this variant's pack")
        seen |= 1 << c
        out.append(c)
    # Complete a partial deck with the rest of the pack, lowest card first.
    rest = pack_mask & ~seen
    out.extend(int(c) for c in CardSet(rest))
    return tuple(out)


def _normalise_decks(deck: object, pack_mask: int) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """Returns (decks, reuse). ``reuse``: one order used for every hand."""
    if isinstance(deck, str):
        return (_parse_deck(deck.replace(",", " ").split(), pack_mask, "deck"),), True
    if isinstance(deck, CardSet):
        raise CardError("deck must be a card order (a list), not a CardSet")
    if not isinstance(deck, Sequence):
        raise CardError(
            f"deck must be a list of cards or a list of decks, got {type(deck).__name__}"
        )
    if deck and isinstance(deck[0], Sequence) and not isinstance(deck[0], str):
        decks = tuple(
            _parse_deck(
                d.replace(",", " ").split() if isinstance(d, str) else d,
                pack_mask,
                f"deck {i + 1}",
            )
            for i, d in enumerate(deck)
        )
        return decks, False
    return (_parse_deck(deck, pack_mask, "deck"),), True


# --------------------------------------------------------------------------- the game


class Game:
    """One game of a variant, from the first deal to the result.

    The game is always waiting for a decision (or over): the first hand is
    dealt when the game is created, and each next hand as soon as the
    previous one is scored.

    Args:
        variant: the rules.
        players: the number of seats (0 to ``players - 1``).
        seed: the random seed for the first dealer and the shuffles; ``None``
            picks one (it is kept, so saves restore exactly).
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
        "_broken",
        "_dead",
        "_dead_by",
        "_dealer",
        "_decks",
        "_decks_reuse",
        "_events",
        "_extra",
        "_fd_param",
        "_forced",
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
    _broken: bool
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
        geo = r.geometry(players)
        if seed is None:
            seed = random.getrandbits(63)
        elif type(seed) is not int:
            raise ValueError(f"seed must be an int or None, got {seed!r}")
        if first_dealer is not None and (
            type(first_dealer) is not int or not 0 <= first_dealer < players
        ):
            raise ValueError(
                f"first_dealer must be a seat from 0 to {players - 1}, got {first_dealer!r}"
            )
        if max_tricks is not None and (type(max_tricks) is not int or max_tricks < 1):
            raise ValueError(f"max_tricks must be a positive int or None, got {max_tricks!r}")
        self._r = r
        self._v = variant
        self._n = n = players
        self._seed = seed
        self._fd_param = first_dealer
        self._max_tricks = max_tricks
        if deck is not None:
            self._decks, self._decks_reuse = _normalise_decks(deck, r.pack_mask)
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
        self._start_hand(self._choose_first_dealer(words), words)

    def _choose_first_dealer(self, words: tuple[int, ...]) -> int:
        n = self._n
        if self._fd_param is not None:
            return self._fd_param
        rule = self._v.dealer
        if rule.first is FirstDealer.SEAT:
            if not 0 <= rule.seat < n:
                raise VariantError(
                    f"{self._v.name}: the first dealer is seat {rule.seat}, "
                    f"but there are only {n} seats"
                )
            return rule.seat
        if rule.first is FirstDealer.RANDOM:
            return words[51] % n
        # Cut: every seat still in draws a card; the highest rank deals; ties cut again.
        rng = random.Random(words[51])
        contenders = list(range(n))
        pack = list(self._r.pack)
        while True:
            drawn = rng.sample(pack, len(contenders))
            cut = tuple((s, ALL_CARDS[c]) for s, c in zip(contenders, drawn, strict=True))
            self._events.append(("cut", cut))
            top = max(c % 13 for c in drawn)
            contenders = [s for s, c in zip(contenders, drawn, strict=True) if c % 13 == top]
            if len(contenders) == 1:
                return contenders[0]

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
            self._check_deal(hn, size, dealer, hands, turned, turn_up)
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
        self._broken = False
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

    def _check_deal(
        self, hn: int, size: int, dealer: int, hands: list[int], turned: int, turn_up: bool
    ) -> None:
        """Validate a recorded deal (from a save or a log)."""
        r = self._r
        if len(hands) != self._n:
            raise SaveError(f"hand {hn}: {len(hands)} hands dealt for {self._n} players")
        seen = 0
        for s, h in enumerate(hands):
            if type(h) is not int or h < 0 or h & ~r.pack_mask:
                raise SaveError(f"hand {hn}: seat {s} holds cards that are not in the pack")
            if h & seen:
                raise SaveError(f"hand {hn}: {_cards_text(h & seen)} dealt twice")
            want = size
            if r.whole_pack and not r.tricks_mode:
                want = len(range(self._order[dealer].index(s), len(r.pack), self._n))
            if h.bit_count() != want:
                raise SaveError(
                    f"hand {hn}: seat {s} was dealt {h.bit_count()} cards, "
                    f"but this hand deals {want}"
                )
            seen |= h
        if turned >= 0:
            if not turn_up:
                raise SaveError(f"hand {hn}: a card is turned up, but this hand turns none")
            if not r.pack_mask >> turned & 1:
                raise SaveError(f"hand {hn}: the turned-up card is not in the pack")
            in_hand = bool(seen >> turned & 1)
            left = len(r.pack) > size * self._n
            if in_hand and (left or not hands[dealer] >> turned & 1):
                raise SaveError(
                    f"hand {hn}: the turned-up card {ALL_CARDS[turned]} is also in a hand"
                )
            if not in_hand and not left:
                raise SaveError(f"hand {hn}: no card is left to turn up")
        elif turn_up and (len(r.pack) > size * self._n or not r.trump_rule.none_when_pack_empty):
            raise SaveError(
                f"hand {hn}: this hand turns up a card for trumps, but none was recorded"
            )

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
            opts = tuple(Bid(b, blind=blind) for b in range(lo, hi + 1) if b != excl)
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

    def _legal_plays(self, s: int) -> tuple[int, int]:
        """The mask of cards seat ``s`` may play now, and the rule that limited it.

        Rule codes: 0 none, 1 first lead card, 2 first lead suit, 3 trumps not
        broken, 4 follow suit, 5 beat while following, 6 beat by trumping,
        7 must trump.
        """
        hand = self._hands[s]
        r = self._r
        trump = self._trump
        trick = self._trick
        if not trick:
            if self._tricks_played == 0 and r.first_lead:
                lc = r.lead_card
                if r.first_lead == 1:
                    if hand >> lc & 1:
                        return _BITS[lc], 1
                else:
                    m = hand & SUIT_MASKS[lc // 13]
                    if m:
                        return m, 2
            if r.trump_broken_rule and trump >= 0 and not self._broken:
                m = hand & ~SUIT_MASKS[trump]
                if m and m != hand:
                    return m, 3
            return hand, 0
        best = self._best
        led = trick[0] // 13
        follow = hand & SUIT_MASKS[led]
        if follow:
            if r.must_follow:
                if r.must_beat and best // 13 == led:
                    higher = follow & ~((2 << best) - 1)
                    if higher and higher != follow:
                        return higher, 5
                return follow, (4 if follow != hand else 0)
            return hand, 0
        if trump >= 0 and (r.must_trump or r.must_beat):
            trumps = hand & SUIT_MASKS[trump]
            if trumps:
                if r.must_beat:
                    beaters = trumps & ~((2 << best) - 1) if best // 13 == trump else trumps
                    if beaters:
                        return beaters, (6 if beaters != hand else 0)
                if r.must_trump:
                    return trumps, (7 if trumps != hand else 0)
        return hand, 0

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
        if len(trick) > 1 and _SUIT_OF[c] != _SUIT_OF[trick[0]]:
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
        self._in_count = len(left)
        if len(left) <= 1:
            if left:
                loser: int | None = left[0]
            else:
                loser = leader if self._r.all_out_leader_loses else None
            self._game_over(finished=True, loser=loser)
            return
        while out[taker]:
            taker = nxt[taker]
        self._to_act = taker
        self._leader = taker
        if self._max_tricks is not None and self._total_tricks >= self._max_tricks:
            self._game_over(finished=False)

    def _end_hand(self) -> None:
        r = self._r
        n = self._n
        hn = self._hand_index + 1
        size = self._size
        points = []
        scores = self._scores
        bids = self._bids
        tricks = self._tricks
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
            scores[s] += p
        self._events.append(("score", hn, tuple(bids), tuple(tricks), points, tuple(scores)))
        if self._max_tricks is not None and self._total_tricks >= self._max_tricks:
            self._game_over(finished=False)
            return
        self._next_hand()

    def _leaders(self) -> list[int]:
        scores = self._scores
        best = max(scores) if self._r.higher_wins else min(scores)
        return [s for s in range(self._n) if scores[s] == best]

    def _next_hand(self) -> None:
        if self._hand_index + 1 < len(self._sizes):
            self._start_hand(self._nxt[self._dealer])
            return
        leaders = self._leaders()
        if len(leaders) > 1 and self._r.tie_extra and self._extra < self._r.max_extra:
            self._extra += 1
            self._start_hand(self._nxt[self._dealer])
            return
        self._game_over(finished=True)

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

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The legal actions of a seat, lowest id first.

        Args:
            seat: the seat to ask about; ``None`` for :attr:`to_act`. Other seats
                have actions only while bids are simultaneous or while they may
                amend their bid.

        Returns:
            A tuple of interned, hashable actions (empty when the seat may not act).
        """
        if seat is None or seat == self._to_act:
            legal = self._legal
            if legal is None:
                legal = self._compute_legal()
            return legal
        if self._phase == _BID:
            if self._waiting is not None and seat in self._waiting:
                return self._bid_options(seat)
            if seat == self._amender:
                return self._amend_options(seat)
        return ()

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
            elif r.free_lead and (self._tricks_played or not r.first_lead):
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

    def apply(self, action: Action, seat: int | None = None) -> None:
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
            if not self._legal_mask >> c & 1 or (seat is not None and seat != self._to_act):
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
            if suit == trump:
                self._broken = True
            trick.append(c)
            self._trick_seats.append(s)
            self._events.append(("play", s, c))
            r = self._r
            if not r.tricks_mode:
                self._legal = None
                self._shed_step(s, c)
            elif len(trick) == self._n:
                self._legal = None
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
        if action in legal and (seat is None or seat == self._to_act) and self._phase == _BID:
            self._do_bid(self._to_act, action)
            return
        self._apply_slow(action, seat)

    def _apply_slow(self, action: object, seat: int | None) -> None:
        if not isinstance(action, Action):
            raise InvalidAction(
                f"{action!r} is not an action: use Bid(n), Play(card), Look(), Amend(n) "
                "or Action.from_id(i)"
            )
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._n):
            raise InvalidAction(f"seat must be an int from 0 to {self._n - 1}, got {seat!r}")
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
            raise IllegalAction(self._explain_bid(actor, action.n, amend=True))
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
            if not action.blind and not self._looked[actor]:
                raise IllegalAction("you have not looked at your cards: bid blind, or Look() first")
            raise IllegalAction(self._explain_bid(actor, action.n, amend=False))
        # Play phase.
        if actor != self._to_act:
            raise IllegalAction(f"it is seat {self._to_act}'s turn to play, not seat {actor}'s")
        if type(action) is not Play:
            raise IllegalAction(f"the bidding is over: {action.label} is not possible now")
        raise IllegalAction(self._explain_play(actor, int(action.card)))

    def _explain_bid(self, s: int, n: int, *, amend: bool) -> str:
        r = self._r
        size = self._size
        hi = size if r.max_bid is None else min(r.max_bid, size)
        lo = min(r.min_bid, hi)
        if not lo <= n <= hi:
            return f"bids run from {lo} to {hi} in a {size}-card hand, not {n}"
        if amend and n == self._bids[s]:
            return f"your bid is already {n}"
        total = sum(b for b in self._bids if b >= 0) + n
        return (
            f"the dealer may not bid {n}: the bids would add up to {total} tricks, "
            f"the number of tricks in the hand"
        )

    def _explain_play(self, s: int, c: int) -> str:
        hand = self._hands[s]
        cd = ALL_CARDS[c]
        if not hand >> c & 1:
            return f"you do not hold {cd}"
        mask, code = self._legal_plays(s)
        held = _cards_text(mask)
        r = self._r
        if code == 1:
            return f"the first lead of the hand must be {ALL_CARDS[r.lead_card]}"
        if code == 2:
            return f"the first lead must be a {Suit(r.lead_card // 13).word[:-1]}: you hold {held}"
        if code == 3:
            return (
                f"trumps ({Suit(self._trump).word}) have not been broken: lead another suit, "
                f"you hold {held}"
            )
        led = Suit(self._trick[0] // 13).word
        if code == 4:
            return f"must follow {led}: you hold {held}"
        best = ALL_CARDS[self._best]
        if code == 5:
            return f"must beat {best}: you hold {held}"
        if code == 6:
            return f"must beat {best} with a trump: you hold {held}"
        if code == 7:
            return f"must trump when void in {led}: you hold {held}"
        return f"{cd} may not be played now"  # pragma: no cover

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
        * ``("dead", next_leader, (seats), (cards))``: shedding, a dead trick leaves the game
        * ``("pickup", taker, (seats), (cards))``: shedding, a cut; ``taker`` picks up
        * ``("out", seat)``: shedding, the seat has no cards left and is safe
        * ``("over", winners, totals, shared, finished, loser)``
        """
        return [_public(ev) for ev in self._events]

    def events_for(self, seat: int) -> list[Event]:
        """The log as ``seat`` may see it: other seats' cards, hidden bids and
        the seed are replaced by ``None``."""
        self._check_seat(seat)
        out: list[Event] = []
        cur = self._hand_index + 1
        bidding = self._phase == _BID
        sim_hidden = bidding and self._waiting is not None
        last_deal = max(i for i, e in enumerate(self._events) if e[0] == "deal")
        for i, ev in enumerate(self._events):
            kind = ev[0]
            if kind == "start":
                out.append((kind, ev[1], None, ev[3], ev[4]))
                continue
            ev = _public(ev)
            if kind == "deal":
                hn = ev[1]
                forehead = ev[3] in self._r.forehead and self._r.bid_style != 0
                hands = tuple(
                    h
                    if (
                        (s == seat and (hn != cur or self._sees_own(seat)))
                        or (s != seat and forehead)
                    )
                    else None
                    for s, h in enumerate(ev[4])
                )
                out.append((kind, hn, ev[2], ev[3], hands))
            elif kind == "bid" and sim_hidden and ev[1] != seat and i > last_deal:
                out.append((kind, ev[1], None, ev[3]))
            else:
                out.append(ev)
        return out

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self._n:
            raise ValueError(f"seat must be an int from 0 to {self._n - 1}, got {seat!r}")

    def _sees_own(self, seat: int) -> bool:
        return not (self._phase == _BID and (self._forehead or not self._looked[seat]))

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (all-seeing: use :meth:`view` for players)."""
        self._check_seat(seat)
        return CardSet(self._hands[seat])

    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)`` pairs in play order."""
        return tuple(zip(self._trick_seats, (ALL_CARDS[c] for c in self._trick), strict=True))

    def card_locations(self) -> dict[str, CardSet]:
        """Where every card of the pack is (for checks): ``hands``, ``trick``,
        ``won``, ``undealt`` and ``turned`` (the turned card when it is in no hand)."""
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

    def view(self, seat: int) -> View:
        """Everything ``seat`` may know now, and nothing more.

        Args:
            seat: the seat.

        Returns:
            A frozen :class:`View`; ``view.to_dict()`` is JSON-ready.
        """
        self._check_seat(seat)
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
            trumps_broken=self._broken,
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
        g._broken = self._broken
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

    def apply_action(self, action_id: int) -> None:
        """Apply an action by id (OpenSpiel style), for :meth:`current_player`."""
        self.apply(Action.from_id(action_id))

    def legal_action_ids(self, seat: int | None = None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending."""
        return [a.id for a in self.legal_actions(seat)]

    def current_player(self) -> int:
        """:attr:`to_act`, or -4 (OpenSpiel's terminal id) when the game is over."""
        return -4 if self._to_act < 0 else self._to_act

    def is_terminal(self) -> bool:
        """Same as :attr:`is_over`."""
        return self._phase == _OVER

    def returns(self) -> list[float]:
        """Each seat's running total as a float (the final totals once over)."""
        return [float(x) for x in self._scores]

    def information_state_string(self, seat: int) -> str:
        """A compact text of :meth:`view` (everything ``seat`` may know)."""
        return self.view(seat).to_json()

    # ----------------------------------------------------------------- save and restore

    def _action_log(self) -> list[list[int]]:
        out: list[list[int]] = []
        for ev in self._events:
            k = ev[0]
            if k == "play":
                out.append([ev[1], int(ev[2])])
            elif k == "bid":
                out.append([ev[1], Bid(ev[2], blind=ev[3]).id])
            elif k == "look":
                out.append([ev[1], _LOOK.id])
            elif k == "amend":
                out.append([ev[1], Amend(ev[2]).id])
        return out

    def _deal_log(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for ev in self._events:
            if ev[0] == "deal":
                out.append(
                    {
                        "hand": ev[1],
                        "dealer": ev[2],
                        "hands": [[str(c) for c in CardSet(h)] for h in ev[4]],
                    }
                )
            elif ev[0] == "trump":
                out[-1]["turned"] = None if ev[3] is None else str(ev[3])
        return out

    def to_json(self) -> str:
        """The whole game as JSON text: settings, every deal and every action.

        :meth:`from_json` restores it exactly (it replays the actions, so a
        restored game is checked by the rules).
        """
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "variant": {
                "name": self._v.name,
                "fingerprint": self._r.fingerprint,
                "rules": _rules_text(self._v),
            },
            "players": self._n,
            "seed": self._seed,
            "first_dealer": self._fd_param,
            "max_tricks": self._max_tricks,
            "decks": [[str(ALL_CARDS[c]) for c in d] for d in self._decks],
            "decks_reuse": self._decks_reuse,
            "deals": self._deal_log(),
            "actions": self._action_log(),
            "state": self._summary(),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def _summary(self) -> dict[str, Any]:
        return {
            "hand_number": self._hand_index + 1,
            "phase": _PHASE_NAMES[self._phase],
            "to_act": self.to_act,
            "scores": [str(x) for x in self._scores],
        }

    @classmethod
    def from_json(cls, text: str | bytes, variant: Variant | None = None) -> Game:
        """Restore a game saved by :meth:`to_json`. Saves are untrusted input.

        Args:
            text: the saved JSON.
            variant: the variant it was played with; when ``None``, the variant
                is looked up by name with ``cardrules.load``, if available.

        Raises:
            SaveError: for anything malformed, inconsistent or impossible, with
                a message saying what.
        """
        if isinstance(text, bytes | bytearray):
            if len(text) > MAX_SAVE_BYTES:
                raise SaveError("saved game is too large")
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                raise SaveError(f"saved game is not UTF-8 text: {e}") from None
        if not isinstance(text, str):
            raise SaveError(f"a saved game is JSON text, got {type(text).__name__}")
        if len(text) > MAX_SAVE_BYTES:
            raise SaveError("saved game is too large")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise SaveError(f"saved game is not valid JSON: {e}") from None
        return _restore(data, variant)


# --------------------------------------------------------------------------- restore helpers


def _want(cond: bool, msg: str) -> None:
    if not cond:
        raise SaveError(msg)


def _is_int(x: object) -> bool:
    return type(x) is int


def _rules_text(v: Variant) -> str | None:
    """The resolved rules as canonical variant text, so that a save of a game
    played with options or a house-rule file restores without that file."""
    from cardrules.dsl import format as format_variant

    try:
        return format_variant(v)
    except CardrulesError:
        return None  # a hand-built config no file can describe: from_json needs variant=


def _resolve_variant(name: object, variant: Variant | None, rules: object = None) -> Variant:
    if variant is not None:
        if not isinstance(variant, Variant):
            raise SaveError(f"variant must be a Variant, got {type(variant).__name__}")
        return variant
    if rules is not None:
        # The save carries its own resolved rules. Parsing them reads no file
        # (an `extends` line is recorded, not followed) and runs every check.
        from cardrules.dsl import parse as parse_variant

        if not isinstance(rules, str):
            raise SaveError("the save's rules must be variant text")
        try:
            return parse_variant(rules, path="<saved game>")
        except CardrulesError as e:
            raise SaveError(f"the save's rules are not a valid variant: {e}") from None
    import cardrules

    load = getattr(cardrules, "load", None)
    if load is None:
        raise SaveError(f"cannot look up variant {name!r}: pass variant= to Game.from_json")
    try:
        v = load(name)
    except CardrulesError as e:
        raise SaveError(f"the saved game's variant {name!r} cannot be loaded: {e}") from None
    if not isinstance(v, Variant):
        raise SaveError(f"cardrules.load({name!r}) did not return a Variant")
    return v


def _restore(data: object, variant: Variant | None) -> Game:
    _want(isinstance(data, dict), "a saved game is a JSON object")
    assert isinstance(data, dict)
    _want(
        data.get("format") == SAVE_FORMAT,
        f"not a cardrules saved game (format must be {SAVE_FORMAT!r})",
    )
    _want(data.get("version") == SAVE_VERSION, f"unsupported save version {data.get('version')!r}")
    vinfo = data.get("variant")
    _want(
        isinstance(vinfo, dict) and isinstance(vinfo.get("name"), str),
        "the save does not name its variant",
    )
    assert isinstance(vinfo, dict)
    v = _resolve_variant(vinfo["name"], variant, vinfo.get("rules"))
    _want(
        vinfo["name"] == v.name,
        f"the save is a game of {vinfo['name']!r}, not of {v.name!r}",
    )
    try:
        fp = _compile(v).fingerprint
    except VariantError as e:
        raise SaveError(str(e)) from None
    _want(
        vinfo.get("fingerprint") == fp,
        f"the save was made with different rules for {v.name!r} "
        f"(fingerprint {vinfo.get('fingerprint')!r}, these rules have {fp!r})",
    )
    players = data.get("players")
    _want(_is_int(players), "players must be an int")
    assert isinstance(players, int)
    seed = data.get("seed")
    _want(_is_int(seed), "seed must be an int")
    fd = data.get("first_dealer")
    _want(fd is None or _is_int(fd), "first_dealer must be an int or null")
    mt = data.get("max_tricks")
    _want(mt is None or _is_int(mt), "max_tricks must be an int or null")
    decks_raw = data.get("decks", [])
    _want(
        isinstance(decks_raw, list) and all(isinstance(d, list) for d in decks_raw),
        "decks must be a list of card lists",
    )
    reuse = data.get("decks_reuse", False)
    _want(isinstance(reuse, bool), "decks_reuse must be true or false")
    deck: list[list[Any]] | list[Any] | None = None
    if decks_raw:
        deck = decks_raw[0] if reuse else decks_raw
    deals_raw = data.get("deals")
    _want(isinstance(deals_raw, list) and len(deals_raw) >= 1, "the save has no deals")
    assert isinstance(deals_raw, list)
    actions = data.get("actions")
    _want(isinstance(actions, list), "actions must be a list")
    assert isinstance(actions, list)
    forced: list[tuple[tuple[int, ...], int]] = []
    for i, d in enumerate(deals_raw):
        _want(isinstance(d, dict), f"deal {i + 1} must be an object")
        hands_raw = d.get("hands")
        _want(isinstance(hands_raw, list), f"deal {i + 1}: hands must be a list")
        masks: list[int] = []
        seen = 0
        for s, h in enumerate(hands_raw):
            _want(isinstance(h, list), f"deal {i + 1}: seat {s}'s hand must be a list of cards")
            m = 0
            for x in h:
                _want(isinstance(x, str), f"deal {i + 1}: {x!r} is not a card")
                try:
                    c = int(card(x))
                except CardError as e:
                    raise SaveError(f"deal {i + 1}: {e}") from None
                _want(not (m | seen) >> c & 1, f"deal {i + 1}: {ALL_CARDS[c]} appears twice")
                m |= 1 << c
            seen |= m
            masks.append(m)
        turned_raw = d.get("turned")
        turned = -1
        if turned_raw is not None:
            _want(isinstance(turned_raw, str), f"deal {i + 1}: the turned-up card must be text")
            try:
                turned = int(card(turned_raw))
            except CardError as e:
                raise SaveError(f"deal {i + 1}: {e}") from None
        forced.append((tuple(masks), turned))
    try:
        g = Game(v, players, seed, deck=deck, first_dealer=fd, max_tricks=mt, _forced=forced)
    except SaveError:
        raise
    except CardrulesError as e:
        raise SaveError(f"the saved settings are not valid: {e}") from None
    except ValueError as e:
        raise SaveError(f"the saved settings are not valid: {e}") from None
    _check_deal_meta(g, deals_raw)
    for i, a in enumerate(actions):
        _want(
            isinstance(a, list) and len(a) == 2 and _is_int(a[0]) and _is_int(a[1]),
            f"action {i + 1} must be [seat, action id]",
        )
        seat, aid = a
        try:
            act = Action.from_id(aid)
        except InvalidAction as e:
            raise SaveError(f"action {i + 1}: {e}") from None
        if g.is_over:
            raise SaveError(
                f"action {i + 1} ({act.label} by seat {seat}) comes after the end of the game"
            )
        try:
            g.apply(act, seat=seat)
        except CardrulesError as e:
            raise SaveError(
                f"action {i + 1} ({act.label} by seat {seat}) is not legal: {e}"
            ) from None
        except SaveError:
            raise
    _want(
        g._hand_index + 1 == len(forced),
        f"the save has {len(forced)} deals but its actions reach hand {g._hand_index + 1}",
    )
    _check_deal_meta(g, deals_raw)
    state = data.get("state")
    if state is not None:
        _want(isinstance(state, dict), "state must be an object")
        _want(
            state == g._summary(),
            "the saved summary (scores, hand, turn) does not match the actions",
        )
    return g


def _check_deal_meta(g: Game, deals_raw: list[Any]) -> None:
    dealt = [ev for ev in g._events if ev[0] == "deal"]
    for ev, d in zip(dealt, deals_raw, strict=False):
        if "dealer" in d:
            _want(
                d["dealer"] == ev[2],
                f"deal {ev[1]}: the save says seat {d['dealer']!r} dealt, but it was seat {ev[2]}",
            )
        if "hand" in d:
            _want(d["hand"] == ev[1], f"deal {ev[1]} is numbered {d['hand']!r} in the save")


def _public(ev: Event) -> Event:
    """An internal log entry in its public form (hands as CardSets, tuples, exact
    Fractions, ``None`` for a missing bid); the internal form is cheaper to build."""
    kind = ev[0]
    if kind == "play":
        return (kind, ev[1], ALL_CARDS[ev[2]])
    if kind == "deal":
        return (kind, ev[1], ev[2], ev[3], tuple(map(CardSet, ev[4])))
    if kind in ("trick", "dead", "pickup"):
        return (kind, ev[1], tuple(ev[2]), tuple(map(ALL_CARDS.__getitem__, ev[3])))
    if kind == "score":
        return (
            kind,
            ev[1],
            tuple(None if b < 0 else b for b in ev[2]),
            ev[3],
            tuple(map(Fraction, ev[4])),
            tuple(map(Fraction, ev[5])),
        )
    if kind == "over":
        return (kind, ev[1], tuple(map(Fraction, ev[2])), ev[3], ev[4], ev[5])
    return ev


def replay(variant: Variant, events: Iterable[Event]) -> Game:
    """Rebuild a game from its log (:attr:`Game.events`).

    The deals are taken from the log and the actions re-applied, so the result
    equals the original game (``replay(v, g.events) == g``). A log redacted
    for one seat cannot be replayed.

    Raises:
        SaveError: if the log is malformed or does not follow the rules.
    """
    evs = list(events)
    _want(
        bool(evs) and isinstance(evs[0], tuple | list) and evs[0][0] == "start",
        "the log must begin with a start event",
    )
    start = evs[0]
    _want(
        len(start) == 5, "the start event must be (start, players, seed, first_dealer, max_tricks)"
    )
    _, players, seed, fd, mt = start
    _want(_is_int(seed), "the log has no seed (a log redacted for one seat cannot be replayed)")
    forced: list[tuple[tuple[int, ...], int]] = []
    for ev in evs:
        if ev[0] == "deal":
            hands = ev[4]
            _want(
                isinstance(hands, tuple | list) and all(isinstance(h, CardSet) for h in hands),
                "a deal event must hold every hand",
            )
            forced.append((tuple(h.mask for h in hands), -1))
        elif ev[0] == "trump":
            _want(bool(forced), "a trump event before any deal")
            c = ev[3]
            forced[-1] = (forced[-1][0], -1 if c is None else int(c))
    try:
        g = Game(variant, players, seed, first_dealer=fd, max_tricks=mt, _forced=forced)
    except SaveError:
        raise
    except (CardrulesError, ValueError) as e:
        raise SaveError(f"the log's settings are not valid: {e}") from None
    for i, ev in enumerate(evs):
        k = ev[0]
        act: Action
        if k == "play":
            act = Play(ev[2])
        elif k == "bid":
            act = Bid(ev[2], blind=ev[3])
        elif k == "look":
            act = _LOOK
        elif k == "amend":
            act = Amend(ev[2])
        else:
            continue
        try:
            g.apply(act, seat=ev[1])
        except CardrulesError as e:
            raise SaveError(
                f"event {i + 1} ({act.label} by seat {ev[1]}) is not legal: {e}"
            ) from None
    _want(g.events == evs, "the log does not match the game its actions produce")
    return g
