"""Many games at once: a batched stepper over numpy arrays.

:func:`batch` builds a batch of ``n`` games of one variant that advance in
lockstep: one call of :meth:`~GameBatch.step` makes one action in every game
(each for the seat to act there). Two layers share one interface:

- :class:`GameBatch`, the generic layer: ``n`` :class:`~cardrules.Game`\\ s
  driven through the integer path (:meth:`Game.legal_mask
  <cardrules.engine.game.Game.legal_mask>`, :meth:`Game.apply_id
  <cardrules.engine.game.Game.apply_id>`) and :meth:`Game.observation
  <cardrules.engine.game.Game.observation>`. It plays every variant, exactly
  as the engine does (it *is* the engine), and is the baseline the fast
  layer is checked against.
- :class:`TrickKernel`, the fast layer: the whole batch as numpy arrays (each
  seat's hand a ``uint64`` bit mask, the trick, the bids, the tricks won, the
  scores), for the rules it can play: whole games of plain trick-taking
  with a fixed schedule of hands and shared ties (:func:`kernel_refusal`
  says, from the variant's settings, never its name, whether a variant is
  one of them and why not).

:func:`batch` picks the kernel where :func:`kernel_refusal` allows it, else
the generic layer (``kernel=False`` forces the generic layer, ``kernel=True``
refuses a variant the kernel cannot play).

Shapes (``N`` games, ``P`` players, ``A`` the variant's action space,
:func:`~cardrules.engine.actions.num_actions_of`: 337 for a standard pack,
more with special cards or contract bids):

- :attr:`~GameBatch.seats`: ``(N,)`` int64, the seat to act in each game;
- :meth:`~GameBatch.legal_masks`: ``(N, A)`` bool, the legal ids of that seat;
- :meth:`~GameBatch.observations`: ``(N, size)`` float32, that seat's
  :meth:`Game.observation <cardrules.engine.game.Game.observation>` (slices of
  :func:`cardrules.observation_layout`);
- :meth:`~GameBatch.step` takes ``(N,)`` action ids and sets
  :attr:`~GameBatch.rewards` (``(N, P)`` float64: the change of each seat's
  running total over the step), :attr:`~GameBatch.terminated` (``(N,)`` bool:
  the game ended with this step) and :attr:`~GameBatch.final_scores`
  (``(N, P)`` float64: the final totals of the games that ended, else 0).

**Auto-reset.** A game that ends in a step is replaced at once by a new deal
(Gymnasium's ``SAME_STEP`` auto-reset mode): after the step, ``seats``,
``legal_masks()`` and ``observations()`` are the new game's, and the ended
game is seen only through ``terminated``, ``rewards`` and ``final_scores``.
So every game of the batch always has a seat to act.

**Deals.** The generic layer plays ``Game(variant, players, seed=s)`` with
``s`` drawn in turn from ``random.Random(seed)`` (:attr:`GameBatch.seeds`
says each game's). The kernel deals its own games from a numpy generator
seeded by ``seed``: they are uniform deals, but not the engine's for the same
seed; :meth:`TrickKernel.engine_game` builds the engine's game of the kernel's
current deal (:meth:`Game.from_deals
<cardrules.engine.game.Game.from_deals>`), which is how the tests check the
kernel action for action against the engine.

Needs numpy: ``pip install 'cardrules[numpy]'``.

Example:
    >>> import numpy as np
    >>> import cardrules
    >>> from cardrules.batch import batch
    >>> v = cardrules.load("oh-hell", hands="list 5", tie="shared")
    >>> b = batch(v, 8, players=4, seed=1)
    >>> type(b).__name__, b.legal_masks().shape, b.observations().shape
    ('TrickKernel', (8, 337), (8, 401))
    >>> rng = np.random.default_rng(0)
    >>> while not b.terminated.any():
    ...     b.step(b.sample_actions(rng))
    >>> bool(b.terminated.all()), b.final_scores.shape
    (True, (8, 4))
"""

from __future__ import annotations

import functools
import importlib
import random
from typing import Any

import attrs

from cardrules.engine.actions import BID_BASE, NUM_ACTIONS, num_actions_of
from cardrules.engine.game import Game
from cardrules.engine.views.observation_vector import observation_layout
from cardrules.errors import VariantError
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    DeckRule,
    Direction,
    FirstDealer,
    MatchRule,
    Mode,
    PassRule,
    TieBreak,
    TrumpKind,
    TrumpRule,
    Variant,
    WinRule,
)

__all__ = ["GameBatch", "TrickKernel", "batch", "kernel_refusal"]

#: The most games the kernel holds at once, and the most hands it deals
#: ahead (games times the hands of a game): bounds on memory.
MAX_GAMES = 1 << 20
MAX_DEALT_HANDS = 1 << 22
#: The most games of the generic layer (about 4 KiB each).
MAX_ENGINE_GAMES = 1 << 16

#: The score formula's variables the kernel can work out (no teams, no card points).
_KERNEL_VARIABLES = frozenset(
    {"bid", "tricks", "cards", "hand", "players", "diff", "exact", "over", "under"}
)

#: The observation slices the kernel fills.
_KERNEL_SLICES = frozenset(
    {
        "hand",
        "played",
        "trick",
        "leader",
        "bid_made",
        "bids",
        "tricks",
        "trump",
        "turned",
        "phase",
        "hand_size",
        "dealer",
        "to_act",
        "scores",
    }
)

# The play of a plain trick-taking game: any lead, follow suit if able, the
# highest trump or else the highest card of the suit led wins, the dealer's
# neighbour leads first. The kernel compares a variant's ``play`` with this.
_PLAIN_TEXT = """\
game: batch-plain
players: 3 to 7
hand size: 5
bidding: in turn
first lead: dealer's neighbour
follow: must follow suit
leading trumps: any time
score: tricks
"""


@functools.cache
def _np() -> Any:
    """numpy, imported by name (so that the engine never needs it)."""
    try:
        return importlib.import_module("numpy")
    except ImportError as e:  # pragma: no cover - numpy is installed in the tests
        raise ImportError("cardrules.batch needs numpy: pip install 'cardrules[numpy]'") from e


def _players_of(variant: Variant, players: int | None) -> int:
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a cardrules Variant, got {type(variant).__name__}")
    if players is None:
        players = 4 if 4 in variant.players else variant.players.min
    observation_layout(variant, players)  # checks players
    return players


def _check_n(n: object, most: int = MAX_GAMES) -> int:
    if type(n) is not int or not 1 <= n <= most:
        raise ValueError(f"n must be an int from 1 to {most}, got {n!r}")
    return n


def _check_seed(seed: object) -> int | None:
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**64):
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1 or None, got {seed!r}")
    return seed


def _plain_play() -> Any:
    from cardrules.dsl import load_text

    return load_text(_PLAIN_TEXT).play


def kernel_refusal(variant: Variant, players: int) -> str:
    """Why :class:`TrickKernel` cannot play ``variant`` with ``players``
    players, or ``""`` when it can. Read from the settings alone:

    - a fixed schedule of hands (one hand or many: Oh Hell's 10 down to 1
      and back up, Kachuful's), a standard 52-card pack, no teams, no
      passing, no redeal, no line with a condition;
    - the plain play: any lead, follow suit if able, the highest trump or
      else the highest card of the suit led wins, the dealer's neighbour
      leads first;
    - trumps turned up after the deal (the pack never running out), a
      fixed suit, a cycle, every n-th hand without trumps, or none; the
      first dealer at random, cut for (which the kernel draws uniformly, as
      a cut does) or a given seat, the deal passing on each hand;
    - bids in turn from 0 to the hand size, with or without the hook;
    - a score formula of the bid, the tricks and the hand's numbers only (no
      card points, counters or card questions), and no tie-break hands (a
      game's length is its schedule's);
    - an observation layout of the slices the kernel fills.

    Example:
        >>> import cardrules
        >>> kernel_refusal(cardrules.load("oh-hell", hands="list 5", tie="shared"), 4)
        ''
        >>> kernel_refusal(cardrules.load("oh-hell", tie="shared"), 4)
        ''
        >>> kernel_refusal(cardrules.load("oh-hell"), 4)
        'tie-break hands or a target'
    """
    v = variant
    if v.mode is not Mode.TRICKS:
        return "not a trick-taking game"
    if v.conditional:
        return "a setting with a condition"
    sizes = v.hand_sizes(players)
    if v.deck != DeckRule():
        return "not a standard 52-card pack"
    if v.teams:
        return "teams"
    if v.passing != PassRule() or v.redeal is not None or v.match != MatchRule():
        return "passing, a redeal or a match rule"
    if v.play != _plain_play():
        return "not the plain play (follow suit, highest trump wins)"
    t = v.trumps
    kinds = (TrumpKind.NONE, TrumpKind.TURN_UP, TrumpKind.FIXED, TrumpKind.CYCLE)
    # (the pack never runs out in the kernel's hand: none_when_pack_empty is moot)
    same = TrumpRule(
        kind=t.kind,
        suit=t.suit,
        cycle=t.cycle,
        none_when_pack_empty=t.none_when_pack_empty,
        # every n-th hand without trumps: by hand number, unless turned up
        no_trump_every=None if t.kind is TrumpKind.TURN_UP else t.no_trump_every,
    )
    if t.kind not in kinds or t != same:
        return "trumps other than turned up, fixed, a cycle or none"
    turned = 1 if t.kind is TrumpKind.TURN_UP else 0
    if min(sizes) < 1 or players * max(sizes) + turned > 52:
        return "the pack runs out"
    b = v.bidding
    if b != BiddingRule(style=BidStyle.IN_TURN, hook=b.hook):
        return "bidding other than in turn from 0 to the hand size"
    s = v.scoring
    if s.card_points or s.kind_points or s.team_formula is not None or s.counters:
        return "card points, counters or a team score"
    f = s.formula
    if f is None or f.questions() or not f.uses() <= _KERNEL_VARIABLES:
        return "a score formula of more than the bid and the tricks"
    if v.winning != attrs.evolve(WinRule(), tie=TieBreak.SHARED):
        return "tie-break hands or a target"
    names = {x.name for x in observation_layout(v, players)}
    if not names <= _KERNEL_SLICES:
        return "an observation slice the kernel does not fill"
    return ""


def _hand_trump(t: TrumpRule, hand: int) -> int:
    """The trump suit of hand ``hand`` (from 1) of a game whose trumps are
    not turned up, as an int (-1: no trumps), by the rules' own
    :meth:`~cardrules.rules.TrumpRule.fixed_trump`."""
    suit = t.fixed_trump(hand)
    return -1 if suit is None else int(suit)


def batch(
    variant: Variant,
    n: int,
    players: int | None = None,
    seed: int | None = None,
    kernel: bool | None = None,
) -> GameBatch | TrickKernel:
    """A batch of ``n`` games of ``variant``: the fast :class:`TrickKernel`
    where :func:`kernel_refusal` allows it (``kernel=None``), else the
    generic :class:`GameBatch`.

    Args:
        variant: the rules.
        n: the number of games (1 to :data:`MAX_GAMES` for the kernel, whose
            games times hands may be at most :data:`MAX_DEALT_HANDS`; to
            :data:`MAX_ENGINE_GAMES` for the generic layer).
        players: the number of seats (``None``: 4 where the variant allows
            it, else its fewest).
        seed: the seed of every deal (``None``: from the operating system).
        kernel: ``None`` to choose, ``False`` for the generic layer, ``True``
            for the kernel (refused where it cannot play the variant).

    Raises:
        VariantError: if the variant is not for ``players``, or ``kernel=True``
            and the kernel cannot play it.
        ValueError: for a bad ``n`` or ``seed``.
    """
    p = _players_of(variant, players)
    if kernel is False:
        return GameBatch(variant, n, p, seed)
    why = kernel_refusal(variant, p)
    if not why:
        return TrickKernel(variant, n, p, seed)
    if kernel:
        raise VariantError(f"the batch kernel cannot play {variant.name}: {why}")
    return GameBatch(variant, n, p, seed)


def _bool_rows(masks: list[int], width: int) -> Any:
    """``(len(masks), width)`` bool: bit ``j`` of ``masks[i]`` at ``[i, j]``."""
    np = _np()
    nbytes = (width + 7) // 8
    raw = b"".join(m.to_bytes(nbytes, "little") for m in masks)
    bits = np.unpackbits(
        np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), nbytes), axis=1, bitorder="little"
    )
    return bits[:, :width].astype(bool)


class GameBatch:
    """``n`` games of one variant stepped together through the engine (see
    the module): every variant, exactly the engine's play.

    Args:
        variant: the rules.
        n: the number of games.
        players: the number of seats (``None``: as :func:`batch`).
        seed: the seed the games' seeds are drawn from (``None``: the
            operating system's).

    Attributes:
        games: the ``n`` games being played.
        seeds: each game's seed (``Game(variant, players, seed=seeds[i])``).
        rewards: ``(n, players)`` float64, set by :meth:`step`.
        terminated: ``(n,)`` bool, set by :meth:`step`.
        final_scores: ``(n, players)`` float64, set by :meth:`step`.
    """

    def __init__(
        self, variant: Variant, n: int, players: int | None = None, seed: int | None = None
    ) -> None:
        np = _np()
        self.variant = variant
        self.players = _players_of(variant, players)
        self.n = _check_n(n, MAX_ENGINE_GAMES)
        self.num_actions = num_actions_of(variant)
        self.observation_size = observation_layout(variant, self.players)[-1].stop
        self.games: list[Game] = []
        self.seeds: list[int] = []
        self._rng = random.Random()
        self.rewards = np.zeros((self.n, self.players))
        self.terminated = np.zeros(self.n, dtype=bool)
        self.final_scores = np.zeros((self.n, self.players))
        self.reset(seed)

    def _new_game(self) -> tuple[Game, int]:
        s = self._rng.getrandbits(63)
        return Game(self.variant, self.players, seed=s), s

    def reset(self, seed: int | None = None) -> None:
        """Deal ``n`` new games (seeds drawn from ``seed``; ``None``: the
        operating system's)."""
        self._rng = random.Random(_check_seed(seed))
        made = [self._new_game() for _ in range(self.n)]
        self.games = [g for g, _ in made]
        self.seeds = [s for _, s in made]
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.final_scores[:] = 0.0

    @property
    def seats(self) -> Any:
        """``(n,)`` int64: the seat to act in each game."""
        np = _np()
        return np.array([g.current_player() for g in self.games], dtype=np.int64)

    def legal_masks(self) -> Any:
        """``(n, num_actions)`` bool: the legal action ids of each game's seat to act."""
        return _bool_rows([g.legal_mask() for g in self.games], self.num_actions)

    def observations(self) -> Any:
        """``(n, observation_size)`` float32: each game's seat to act's observation."""
        np = _np()
        out = np.empty((self.n, self.observation_size), dtype=np.float32)
        for i, g in enumerate(self.games):
            out[i] = g.observation(g.current_player())
        return out

    @property
    def scores(self) -> Any:
        """``(n, players)`` float64: each game's running totals."""
        return _np().array([g.returns() for g in self.games], dtype=float)

    def step(self, actions: Any, active: Any = None) -> None:
        """One action in every game (or every game of ``active``), for its
        seat to act; then a new deal in each game that ended (see the module:
        auto-reset).

        Args:
            actions: ``n`` action ids (a sequence or an array).
            active: ``None`` (every game), or ``n`` bools: only the games
                marked act (the others' ids are not read, their rewards are 0).

        Raises:
            ValueError: if ``actions`` is not ``n`` ids, or one is not legal in
                its game (nothing is played then).
        """
        ids = _check_actions(actions, self.n)
        on = _check_active(active, self.n)
        games = self.games
        for i, (g, a) in enumerate(zip(games, ids, strict=True)):
            if on[i] and not (0 <= a < self.num_actions and g.legal_mask() >> a & 1):
                raise ValueError(f"game {i}: action {a} is not legal for seat {g.to_act}")
        rewards, ended, finals = self.rewards, self.terminated, self.final_scores
        rewards[:] = 0.0
        ended[:] = False
        finals[:] = 0.0
        for i, (g, a) in enumerate(zip(games, ids, strict=True)):
            if not on[i]:
                continue
            before = g.returns()
            g.apply_id(a, g.current_player())
            after = g.returns()
            rewards[i] = [x - y for x, y in zip(after, before, strict=True)]
            if g.is_terminal():
                ended[i] = True
                finals[i] = after
                games[i], self.seeds[i] = self._new_game()

    def sample_actions(self, rng: Any) -> Any:
        """``(n,)`` int64: one legal action id per game, uniformly at random
        (a numpy ``Generator``)."""
        return _sample(self.legal_masks(), rng)


def _check_actions(actions: Any, n: int) -> list[int]:
    np = _np()
    arr = np.asarray(actions)
    if arr.shape != (n,) or not (arr.dtype.kind in "iu" or arr.size == 0):
        raise ValueError(f"actions must be {n} action ids, got shape {arr.shape} of {arr.dtype}")
    return [int(x) for x in arr.tolist()]


def _check_active(active: Any, n: int) -> Any:
    """``active`` as ``n`` bools (``None``: all true)."""
    np = _np()
    if active is None:
        return np.ones(n, dtype=bool)
    arr = np.asarray(active)
    if arr.shape != (n,) or arr.dtype != bool:
        raise ValueError(f"active must be {n} bools, got shape {arr.shape} of {arr.dtype}")
    return arr


@functools.cache
def _select13() -> Any:
    """``t[m * 13 + k]``: the place of the ``k``-th set bit (from 0) of the
    13-bit ``m`` (0 where ``m`` has fewer bits)."""
    np = _np()
    m = np.arange(1 << 13, dtype=np.int64)
    bits = (m[:, None] >> np.arange(13)) & 1
    rank = np.cumsum(bits, axis=1) - 1  # the rank of each set bit
    out = np.zeros((1 << 13, 13), dtype=np.int64)
    rows, places = np.nonzero(bits)
    out[rows, rank[rows, places]] = places
    return out.reshape(-1)


def _sample(masks: Any, rng: Any) -> Any:
    """One true column per row of ``masks``, uniformly at random."""
    np = _np()
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    return np.argmax(keys, axis=1).astype(np.int64)


class TrickKernel:
    """``n`` games of a plain trick-taking variant as numpy arrays
    (see the module and :func:`kernel_refusal`): the same interface as
    :class:`GameBatch`, many times faster.

    Each seat's hand is a ``uint64`` bit mask (bit ``c``: card ``c``, the
    engine's numbering, which is also its play's action id); the trick, the
    bids, the tricks won and the scores are integer arrays over the games.
    Every hand is ``players`` bids then ``players * hand size`` cards and
    every game the same schedule of hands, so a batch stays in lockstep from
    one reset to the next (all of a game's hands are dealt when it begins).

    Args:
        variant: the rules (refused unless :func:`kernel_refusal` allows them).
        n: the number of games.
        players: the number of seats (``None``: as :func:`batch`).
        seed: the seed of the kernel's numpy generator (``None``: the
            operating system's).

    Raises:
        VariantError: if the kernel cannot play the variant.
    """

    def __init__(
        self, variant: Variant, n: int, players: int | None = None, seed: int | None = None
    ) -> None:
        np = _np()
        from cardrules.scoring import score_env

        p = _players_of(variant, players)
        why = kernel_refusal(variant, p)
        if why:
            raise VariantError(f"the batch kernel cannot play {variant.name}: {why}")
        self.variant = variant
        self.players = p
        self.n = _check_n(n)
        self.num_actions = NUM_ACTIONS
        layout = observation_layout(variant, p)
        self.observation_size = layout[-1].stop
        self._at = {x.name: x.start for x in layout}
        sizes = variant.hand_sizes(p)
        nh = len(sizes)
        if self.n * nh > MAX_DEALT_HANDS:
            raise ValueError(
                f"n times the {nh} hands of a game must be at most {MAX_DEALT_HANDS}, got {n!r}"
            )
        big = max(1, *sizes)
        #: the largest hand (the widest range of bids)
        self.hand_size = big
        self._sizes = np.array(sizes, dtype=np.int64)
        self._ends = p + p * self._sizes  # the decisions of each hand
        self._dir = 1 if variant.direction is Direction.CLOCKWISE else -1
        self._turn_up = variant.trumps.kind is TrumpKind.TURN_UP
        self._trump_of = np.array(
            [_hand_trump(variant.trumps, k + 1) for k in range(nh)], dtype=np.int64
        )
        self._dealer_seat = (
            variant.dealer.seat % p if variant.dealer.first is FirstDealer.SEAT else -1
        )
        self._hook = variant.bidding.hook
        formula = variant.scoring.formula
        assert formula is not None  # kernel_refusal checked it
        # _table[k, bid, tricks]: a seat's points in hand k (from 0), by the
        # engine's own formula
        self._table = np.zeros((nh, big + 1, big + 1))
        for k, h in enumerate(sizes):
            for b in range(h + 1):
                for won in range(h + 1):
                    env = score_env(bid=b, tricks=won, cards=h, hand=k + 1, players=p)
                    self._table[k, b, won] = float(formula.evaluate(env))
        self._suits = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)
        self._bit = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
        self._cards = np.arange(52, dtype=np.uint64)
        self._all = np.arange(self.n)
        self._tables(np)
        shape = (self.n, p)
        self.hands = np.zeros(shape, dtype=np.uint64)
        self.dealt = np.zeros(shape, dtype=np.uint64)
        self.trick = np.full(shape, -1, dtype=np.int64)
        self.bids = np.full(shape, -1, dtype=np.int64)
        self.tricks = np.zeros(shape, dtype=np.int64)
        self.played = np.zeros(self.n, dtype=np.uint64)
        self.t = np.zeros(self.n, dtype=np.int64)
        self.to_act = np.zeros(self.n, dtype=np.int64)
        self.leader = np.zeros(self.n, dtype=np.int64)
        self.led = np.zeros(self.n, dtype=np.int64)
        self.best = np.zeros(self.n, dtype=np.int64)
        self.best_seat = np.zeros(self.n, dtype=np.int64)
        self.dealer = np.zeros(self.n, dtype=np.int64)
        self.trump = np.full(self.n, -1, dtype=np.int64)
        self.turned = np.full(self.n, -1, dtype=np.int64)
        self.totals = np.zeros(shape)
        self.hand = np.zeros(self.n, dtype=np.int64)  # each game's hand, from 0
        self._hs = np.zeros(self.n, dtype=np.int64)  # its size
        self._end_of = np.zeros(self.n, dtype=np.int64)  # its decisions
        self._deals = np.zeros((self.n, nh, p), dtype=np.uint64)
        self._turns = np.full((self.n, nh), -1, dtype=np.int64)
        self.first_dealer = np.zeros(self.n, dtype=np.int64)
        self.rewards = np.zeros(shape)
        self.terminated = np.zeros(self.n, dtype=bool)
        self.final_scores = np.zeros(shape)
        self._rng = np.random.default_rng(_check_seed(seed))
        # The lockstep path (every game at the same decision: after reset()
        # and as long as every step is a step of all games) and its state.
        self._sync = True
        self._tick = 0
        self._ended = False
        self._follow = np.zeros(self.n, dtype=np.uint64)
        self._base = np.zeros(self.n, dtype=np.int64)
        self._tbase = np.zeros(self.n, dtype=np.int64)
        self._legal_at = -1
        self._legal = self._follow
        self.reset(seed)

    def _tables(self, np: Any) -> None:
        """The lookup tables of the lockstep path."""
        p = self.players
        self._rows_p = np.arange(self.n, dtype=np.int64) * p
        self._next = np.array([(s + self._dir) % p for s in range(p)], dtype=np.int64)
        suit_of = np.arange(52, dtype=np.int64) // 13
        self._suit_of = suit_of
        self._follow_of = self._suits[suit_of]
        # the power of card c when trumps are tc (4: none) and suit led is
        # led: _power[(tc * 4 + led) * 52 + c], as _play reckons it
        power = np.zeros((5, 4, 52), dtype=np.int64)
        rank = np.arange(52) % 13
        for tc in range(5):
            for led in range(4):
                power[tc, led] = np.where(
                    suit_of == tc, 100 + rank, np.where(suit_of == led, 1 + rank, 0)
                )
        self._power = power.reshape(-1)
        self._select13 = _select13()

    # ------------------------------------------------------------ dealing

    def reset(self, seed: int | None = None) -> None:
        """Deal ``n`` new games from a generator seeded by ``seed`` (``None``:
        the operating system's)."""
        np = _np()
        self._rng = np.random.default_rng(_check_seed(seed))
        self._deal(self._all)
        self._sync = True
        self._tick = 0
        self._legal_at = -1
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.final_scores[:] = 0.0

    def _shuffle(self, k: int) -> Any:
        """``(k, 52)``: a uniform shuffle of the pack for each of ``k`` deals."""
        np = _np()
        # 58 random bits a card, its number in the low 6 (so that no two keys
        # tie), sorted: several times faster than an argsort of random floats.
        six = np.uint64(6)
        keys = self._rng.bit_generator.random_raw((k, 52))
        keys >>= six
        keys <<= six
        keys |= self._cards
        keys.sort(axis=1)
        return (keys & np.uint64(63)).astype(np.int64)

    def _deal(self, idx: Any) -> None:
        """New games in ``idx``: every hand dealt now, the first one started."""
        np = _np()
        k = len(idx)
        p = self.players
        for hand, h in enumerate(self._sizes.tolist()):
            perm = self._shuffle(k)
            bits = self._bit[perm[:, : p * h]].reshape(k, p, h)
            hands = bits[:, :, 0].copy()
            for j in range(1, h):  # (faster than a reduce over a short axis)
                hands |= bits[:, :, j]
            self._deals[idx, hand] = hands
            if self._turn_up:
                self._turns[idx, hand] = perm[:, p * h]
        if self._dealer_seat >= 0:
            dealer = np.full(k, self._dealer_seat, dtype=np.int64)
        else:
            dealer = self._rng.integers(0, p, size=k)
        self.first_dealer[idx] = dealer
        self.totals[idx] = 0.0
        self.hand[idx] = 0
        self._start_hand(idx, dealer)

    def _start_hand(self, idx: Any, dealer: Any) -> None:
        """Hand ``self.hand`` of the games in ``idx``, dealt by ``dealer``."""
        np = _np()
        p = self.players
        hand = self.hand[idx]
        self._hs[idx] = self._sizes[hand]
        self._end_of[idx] = self._ends[hand]
        hands = self._deals[idx, hand]
        self.hands[idx] = hands
        self.dealt[idx] = hands
        if self._turn_up:
            turned = self._turns[idx, hand]
            self.turned[idx] = turned
            self.trump[idx] = turned // 13
        else:
            self.trump[idx] = self._trump_of[hand]
        self.dealer[idx] = dealer
        first = (dealer + self._dir) % p
        self.to_act[idx] = first
        self.leader[idx] = first
        self.t[idx] = 0
        self.trick[idx] = -1
        self.bids[idx] = -1
        self.tricks[idx] = 0
        self.played[idx] = 0
        self.led[idx] = -1
        self.best[idx] = 0
        self.best_seat[idx] = 0
        self._tbase[idx] = np.where(self.trump[idx] < 0, 4, self.trump[idx]) * 208

    def engine_game(self, i: int) -> Game:
        """The engine's game of game ``i``'s deals (every hand's, dealt when
        the game began), before any action (:meth:`Game.from_deals
        <cardrules.engine.game.Game.from_deals>`): apply the same ids to it
        from the start of game ``i`` to replay it."""
        from cardrules.cards import CARDS, CardSet

        deals = []
        for k in range(len(self._sizes)):
            hands = tuple(CardSet(int(m)) for m in self._deals[i, k])
            turned = CARDS[int(self._turns[i, k])] if self._turn_up else None
            deals.append((hands, turned))
        return Game.from_deals(
            self.variant, self.players, deals, first_dealer=int(self.first_dealer[i])
        )

    # ------------------------------------------------------------ reading

    @property
    def seats(self) -> Any:
        """``(n,)`` int64: the seat to act in each game."""
        return self.to_act.copy()

    @property
    def scores(self) -> Any:
        """``(n, players)`` float64: each game's running totals."""
        return self.totals.copy()

    def _forbidden_bids(self, idx: Any) -> Any:
        """The hooked bid of each game of ``idx`` (-1: none)."""
        np = _np()
        h = self._hs[idx]
        if not self._hook:
            return np.full(len(idx), -1, dtype=np.int64)
        last = self.t[idx] == self.players - 1
        f = h - np.maximum(self.bids[idx], 0).sum(axis=1)
        return np.where(last & (f >= 0) & (f <= h), f, -1)

    def _legal_cards(self, idx: Any) -> Any:
        """The legal cards of each game of ``idx`` (in play) as bit masks."""
        np = _np()
        hand = self.hands[idx, self.to_act[idx]]
        leading = (self.t[idx] - self.players) % self.players == 0
        follow = hand & self._suits[np.maximum(self.led[idx], 0)]
        return np.where(leading | (follow == 0), hand, follow)

    def legal_masks(self) -> Any:
        """``(n, 337)`` bool: the legal action ids of each game's seat to act."""
        np = _np()
        out = np.zeros((self.n, self.num_actions), dtype=bool)
        bidding = self.t < self.players
        bid = np.flatnonzero(bidding)
        if len(bid):
            bids = np.arange(self.hand_size + 1)
            out[bid, BID_BASE : BID_BASE + self.hand_size + 1] = bids <= self._hs[bid, None]
            f = self._forbidden_bids(bid)
            hooked = f >= 0
            out[bid[hooked], BID_BASE + f[hooked]] = False
        play = np.flatnonzero(~bidding)
        if len(play):
            cards = self._legal_cards(play)
            out[play, :52] = (cards[:, None] >> self._cards) & np.uint64(1) != 0
        return out

    def sample_actions(self, rng: Any) -> Any:
        """``(n,)`` int64: one legal action id per game, uniformly at random
        (a numpy ``Generator``), without building the masks."""
        np = _np()
        if self._sync:
            if self._tick >= self.players:
                return self._sample_cards(rng)
            if not (self._hook and self._tick == self.players - 1):  # no bid hooked
                return BID_BASE + rng.integers(0, self._hs + 1)
        out = np.empty(self.n, dtype=np.int64)
        bidding = self.t < self.players
        bid = np.flatnonzero(bidding)
        if len(bid):
            f = self._forbidden_bids(bid)
            hooked = f >= 0
            k = rng.integers(0, self._hs[bid] + 1 - hooked)
            out[bid] = BID_BASE + k + (hooked & (k >= f))
        play = np.flatnonzero(~bidding)
        if len(play):
            cards = self._legal_cards(play)
            legal = (cards[:, None] >> self._cards) & np.uint64(1)
            keys = rng.random((len(play), 52)) + 1.0
            out[play] = np.argmax(keys * legal, axis=1)
        return out

    def observations(self) -> Any:
        """``(n, observation_size)`` float32: each game's seat to act's
        observation, value for value :meth:`Game.observation
        <cardrules.engine.game.Game.observation>`'s."""
        np = _np()
        n, p, big = self.n, self.players, self.hand_size
        at = self._at
        rows = self._all
        me = self.to_act
        out = np.zeros((n, self.observation_size), dtype=np.float32)
        one = np.uint64(1)
        out[:, 0:52] = (self.hands[rows, me][:, None] >> self._cards) & one
        out[:, at["played"] : at["played"] + 52] = (self.played[:, None] >> self._cards) & one
        d = self._dir
        for s in range(p):
            rel = ((s - me) * d) % p
            c = self.trick[:, s]
            has = c >= 0
            out[rows[has], at["trick"] + rel[has] * 52 + c[has]] = 1.0
            b = self.bids[:, s]
            made = b >= 0
            out[rows[made], at["bid_made"] + rel[made]] = 1.0
            out[rows[made], at["bids"] + rel[made]] = b[made] / big
            out[rows, at["tricks"] + rel] = self.tricks[:, s] / big
            out[rows, at["scores"] + rel] = self.totals[:, s] / 100
        playing = self.t >= p
        lead_rel = ((self.leader - me) * d) % p
        out[rows[playing], at["leader"] + lead_rel[playing]] = 1.0
        if "trump" in at:
            out[rows, at["trump"] + np.where(self.trump < 0, 4, self.trump)] = 1.0
        if "turned" in at:
            out[rows, at["turned"] + self.turned] = 1.0
        out[rows, at["phase"] + playing.astype(np.int64)] = 1.0
        out[:, at["hand_size"]] = self._hs / big
        out[rows, at["dealer"] + ((self.dealer - me) * d) % p] = 1.0
        out[:, at["to_act"]] = 1.0  # the seat to act is the observer: relative 0
        return out

    # ------------------------------------------------------------ stepping

    def step(self, actions: Any, active: Any = None) -> None:
        """One action in every game (or every game of ``active``), for its
        seat to act; then a new deal in the games that ended (see the module:
        auto-reset).

        Args:
            actions: ``n`` action ids (a sequence or an array).
            active: ``None`` (every game), or ``n`` bools: only the games
                marked act (the others' ids are not read, their rewards are 0).

        Raises:
            ValueError: if ``actions`` is not ``n`` ids, or one is not legal in
                its game (nothing is played then).
        """
        np = _np()
        a = np.asarray(actions)
        if a.shape != (self.n,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.n} action ids, got shape {a.shape}")
        a = a.astype(np.int64)
        if active is None and self._sync:
            self._sync_step(a)
            return
        self._sync = False
        p = self.players
        bidding = self.t < p
        if active is None:
            bid = np.flatnonzero(bidding)
            play = np.flatnonzero(~bidding)
        else:
            on = _check_active(active, self.n)
            bid = np.flatnonzero(bidding & on)
            play = np.flatnonzero(~bidding & on)
        bids = a[bid] - BID_BASE
        cards = a[play]
        bad = np.zeros(self.n, dtype=bool)
        if len(bid):
            f = self._forbidden_bids(bid)
            bad[bid] = (bids < 0) | (bids > self._hs[bid]) | (bids == f)
        if len(play):
            legal = self._legal_cards(play)
            ok = (cards >= 0) & (cards < 52)
            bit = self._bit[np.where(ok, cards, 0)]
            bad[play] = ~ok | ((legal & bit) == 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"game {i}: action {int(a[i])} is not legal for seat {int(self.to_act[i])}"
            )
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.final_scores[:] = 0.0
        if len(bid):
            seat = self.to_act[bid]
            self.bids[bid, seat] = bids
            self.to_act[bid] = (seat + self._dir) % p
            self.t[bid] += 1
        if len(play):
            self._play(play, cards)
            ended = play[self.t[play] == self._end_of[play]]
            if len(ended):
                self._end_hand(ended)

    def _play(self, idx: Any, cards: Any) -> None:
        np = _np()
        p = self.players
        seat = self.to_act[idx]
        bit = self._bit[cards]
        self.hands[idx, seat] &= ~bit
        self.played[idx] |= bit
        pos = (self.t[idx] - p) % p
        suit = cards // 13
        leading = pos == 0
        led = np.where(leading, suit, self.led[idx])
        self.led[idx] = led
        rank = cards % 13
        power = np.where(suit == self.trump[idx], 100 + rank, np.where(suit == led, 1 + rank, 0))
        better = leading | (power > self.best[idx])
        self.best[idx] = np.where(better, power, self.best[idx])
        best_seat = np.where(better, seat, self.best_seat[idx])
        self.best_seat[idx] = best_seat
        self.trick[idx, seat] = cards
        self.t[idx] += 1
        done = pos == p - 1
        nxt = np.where(done, best_seat, (seat + self._dir) % p)
        self.to_act[idx] = nxt
        if done.any():
            won = idx[done]
            self.tricks[won, best_seat[done]] += 1
            self.leader[won] = best_seat[done]
            self.trick[won] = -1

    # ------------------------------------------------------------ lockstep

    def _sync_legal(self) -> Any:
        """The legal cards of every game (all in the play, in lockstep)."""
        if self._legal_at == self._tick:
            return self._legal
        np = _np()
        hand = self._hands_flat()[self._rows_p + self.to_act]
        if (self._tick - self.players) % self.players == 0:
            legal = hand
        else:
            follow = hand & self._follow
            legal = np.where(follow == 0, hand, follow)
        self._legal, self._legal_at = legal, self._tick
        return legal

    def _hands_flat(self) -> Any:
        return self.hands.reshape(-1)

    def _sample_cards(self, rng: Any) -> Any:
        """A legal card of every game, uniformly at random (lockstep play):
        the suit by the cards of each suit, then the card in its suit."""
        np = _np()
        legal = self._sync_legal()
        k = (rng.random(self.n) * np.bitwise_count(legal)).astype(np.int64)
        m13 = np.uint64(0x1FFF)
        c0 = np.bitwise_count(legal & m13).astype(np.int64)
        c1 = c0 + np.bitwise_count((legal >> np.uint64(13)) & m13)
        c2 = c1 + np.bitwise_count((legal >> np.uint64(26)) & m13)
        g0, g1, g2 = k >= c0, k >= c1, k >= c2
        suit = g0.astype(np.int64)
        suit += g1
        suit += g2
        below = np.where(g2, c2, np.where(g1, c1, np.where(g0, c0, 0)))
        part = ((legal >> (suit * 13).astype(np.uint64)) & m13).astype(np.int64)
        return suit * 13 + self._select13[part * 13 + (k - below)]

    def _sync_step(self, a: Any) -> None:
        """:meth:`step` of every game in lockstep (the same decision in each)."""
        np = _np()
        p, t = self.players, self._tick
        seat = self.to_act
        fi = self._rows_p + seat
        if t < p:
            bids = a - BID_BASE
            bad = (bids < 0) | (bids > self._hs)
            if self._hook and t == p - 1:  # only the last bidder is hooked
                bad |= bids == self._forbidden_bids(self._all)
            if bad.any():
                self._refuse(bad, a)
            self.bids.reshape(-1)[fi] = bids
        else:
            legal = self._sync_legal()
            bit = self._bit[a & 63]
            if (a >> 6).any() or not (legal & bit).all():
                self._refuse((a >> 6 != 0) | ((legal & bit) == 0), a)
            hands = self._hands_flat()
            hands[fi] ^= bit
            self.played |= bit
            pos = (t - p) % p
            if pos == 0:
                self.led = self._suit_of[a]
                self._follow = self._follow_of[a]
                self._base = self._tbase + self.led * 52
                self.best = self._power[self._base + a]
                self.best_seat = seat.copy()
            else:
                power = self._power[self._base + a]
                better = power > self.best
                self.best = np.maximum(power, self.best)
                self.best_seat = np.where(better, seat, self.best_seat)
            self.trick.reshape(-1)[fi] = a
            if pos == p - 1:
                won = self.best_seat
                self.tricks.reshape(-1)[self._rows_p + won] += 1
                # (copies: _deal writes into these arrays game by game)
                self.leader = won.copy()
                self.to_act = won.copy()
                self.trick.fill(-1)
            else:
                self.to_act = self._next[seat]
        if t < p:
            self.to_act = self._next[seat]
        self._tick = t + 1
        self.t += 1
        if self._ended:
            self.rewards.fill(0.0)
            self.terminated.fill(False)
            self.final_scores.fill(0.0)
            self._ended = False
        if self._tick == self._end_of[0]:  # (every game at the same point)
            self._end_hand(self._all)
            self._tick = 0
        self._legal_at = -1

    def _refuse(self, bad: Any, a: Any) -> None:
        i = int(_np().flatnonzero(bad)[0])
        raise ValueError(
            f"game {i}: action {int(a[i])} is not legal for seat {int(self.to_act[i])}"
        )

    def _end_hand(self, idx: Any) -> None:
        """Score the hand just ended in the games of ``idx``; deal the next
        hand, or end the game and deal a new one."""
        hand = self.hand[idx]
        points = self._table[hand[:, None], self.bids[idx], self.tricks[idx]]
        self.totals[idx] += points
        self.rewards[idx] = points
        self._ended = True
        hand += 1
        self.hand[idx] = hand
        over = hand == len(self._sizes)
        done = idx[over]
        if len(done):
            self.final_scores[done] = self.totals[done]
            self.terminated[done] = True
            self._deal(done)
        more = idx[~over]
        if len(more):
            self._start_hand(more, (self.dealer[more] + self._dir) % self.players)
