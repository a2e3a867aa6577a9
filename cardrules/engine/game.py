"""The game: :class:`Game` holds the state of one game and its public API.

State layout (all plain ints and lists, so that :meth:`Game.clone` is a few
list copies):

* hands, cards won and undealt cards are 52-bit int masks (bit ``i`` is card ``i``);
* bids are ints (``-1``: not bid yet); flags are lists of bools;
* the current trick is two parallel lists (cards, seats) plus the running
  winner (``_winning_card`` card, ``_winning_seat``), updated on each play;
* the log (``_events``) is a list of small tuples whose first item is the
  event kind: the game's line of play, which saves and :func:`replay` read;
  players' take-backs are kept apart (``_history``,
  :mod:`~cardrules.engine.state.history`). :attr:`Game.events` and
  :meth:`Game.events_for` are typed records built from the log and the
  take-backs (and kept: a seat's stream only grows).

Each phase of a hand is a module of its own, driven by the compiled rules
(:class:`~cardrules.engine.state.compiled_rules._Rules`); their functions take the
game as their first argument:

* :mod:`~cardrules.engine.phases.deal`: the first dealer, each deal and its trumps;
* :mod:`~cardrules.engine.phases.passing`: the pass of cards before the bidding and
  the play (games with ``pass:``);
* :mod:`~cardrules.engine.phases.bidding`: the bids a seat may make, bidding, looking
  and changing a bid;
* :mod:`~cardrules.engine.phases.play`: the first leader and the cards a seat may
  play (the rules' card-set lists);
* :mod:`~cardrules.engine.phases.trick`: the play of a card to a trick
  (:func:`~cardrules.engine.phases.trick._play_card`, the engine's hot path, the one
  function :meth:`Game.apply`, the random playout and a joker's play call) and
  the end of a trick, trick-taking
  (:func:`~cardrules.engine.phases.trick._finish_trick`) or shedding (dead tricks,
  cuts and pick-ups, seats going out: :func:`~cardrules.engine.phases.trick._shed_step`);
* :mod:`~cardrules.engine.phases.score`: the points of a hand and the guard on the totals;
* :mod:`~cardrules.engine.phases.end`: the next hand, tie-break hands and the end of the game.

The state has owners: every slot of :class:`Game` is declared once in
:mod:`~cardrules.engine.state.slots`, with the module that writes it, and the
slots every phase changes (the log, the seat to act, the phase, the legal set)
are written through :mod:`~cardrules.engine.state.transitions`
(``tests/test_state_owners.py`` keeps it so). A variant with a trump order
(effective suits and card powers that change with trumps:
:mod:`~cardrules.engine.state.ranks`) plays by the hand's rank tables, with the same
function. No game has code of its own: what differs from one variant to
another is in the rules' values.
Around them:

* :mod:`~cardrules.engine.state.tables`: the card, suit and interned action tables;
* :mod:`~cardrules.engine.state.compiled_rules`: a variant compiled for the loop
  (:class:`_Rules`), its fingerprint and the scoring of a hand;
* :mod:`~cardrules.engine.state.deck_order`: seeded shuffles, given decks, the first
  dealer and the checks of recorded deals;
* :mod:`~cardrules.engine.events`: the typed event records, their JSON form and
  each seat's append-only stream of them;
* :mod:`~cardrules.engine.views.refusals`: the reasons given by ``IllegalAction``;
* :mod:`~cardrules.engine.state.saves`: the text of :meth:`Game.to_json`, the checks
  of :meth:`Game.from_json` and of :func:`replay`.

This module imports those; none of them imports it (the phases name
:class:`Game` for their type hints only, and :mod:`~cardrules.engine.state.saves` is
given the class), so the engine's imports have no cycle.
:mod:`~cardrules.engine.match` plays matches of games on top of this module.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal, overload

from cardrules.cards import CARDS, Card, CardSet, Suit
from cardrules.counted import count_range, counted
from cardrules.engine.actions import JOKER_BASE, Action, Amend, Pass, Play, Take
from cardrules.engine.events import (
    ALL,
    Entry,
    Event,
    _digest,
    _share,
    _stream,
    _Streams,
)
from cardrules.engine.phases.bidding import (
    _after_trumps,
    _amend_options,
    _bid_options,
    _bidders,
    _do_bid,
    _forbidden_bids,
    _try_amend,
    _try_bid,
)
from cardrules.engine.phases.deal import _begin, _deal_shown, _deal_stands
from cardrules.engine.phases.end import _next_hand
from cardrules.engine.phases.knockout import _knocked_out
from cardrules.engine.phases.passing import (
    _pass_options,
    _pass_target,
    _refuse_pass_outside,
    _try_pass,
)
from cardrules.engine.phases.play import _legal_copy, _play_legal, _refuse_play
from cardrules.engine.phases.ranked_play import _play_joker
from cardrules.engine.phases.trick import _play_card, _try_take
from cardrules.engine.phases.trumps import (
    CALL_KEPT,
    CALL_MADE,
    CALL_SHOWN,
    CALL_THROWN_IN,
    _trump_options,
    _try_call,
)
from cardrules.engine.search.playout import playout as _playout
from cardrules.engine.state.compiled_rules import (
    Num,
    _compile,
    _fractions,
    _Rules,
    variant_fingerprint,
)
from cardrules.engine.state.deck_order import _normalise_decks
from cardrules.engine.state.history import History, check_undo, history_log
from cardrules.engine.state.ranks import RankTables
from cardrules.engine.state.saves import MAX_SAVE_BYTES as MAX_SAVE_BYTES
from cardrules.engine.state.saves import SAVE_FORMAT as SAVE_FORMAT
from cardrules.engine.state.saves import SAVE_VERSION as SAVE_VERSION
from cardrules.engine.state.saves import _load_text, _replay, _save_text
from cardrules.engine.state.slots import GAME_SLOTS
from cardrules.engine.state.tables import (
    _BID,
    _BITS,
    _BYTE_IDS,
    _OVER,
    _PASS,
    _PHASE_NAMES,
    _PLAY,
    _TRUMPS,
)
from cardrules.engine.state.transitions import set_legal
from cardrules.engine.state.undo import (
    Checkpoint,
    _answer,
    _can_request,
    _can_undo,
    _checkpoint,
    _coerce_policy,
    _policy,
    _request,
    _take_back,
    _undo,
)
from cardrules.engine.views.notation import card_text as _card_text
from cardrules.engine.views.notation import label_of as _label_of
from cardrules.engine.views.notation import parse_in_game as _parse_in_game
from cardrules.engine.views.observation_vector import action_mask as _action_mask
from cardrules.engine.views.observation_vector import observation as _observation
from cardrules.engine.views.view import (
    ForbiddenBid,
    HandResult,
    Result,
    TakeBackRequest,
    View,
    _cards_of,
)
from cardrules.errors import IllegalAction, InvalidAction, VariantError
from cardrules.rules import TakeBacks, Variant
from cardrules.score_cases import name_hand
from cardrules.scoring import Value

__all__ = ["Event", "Game", "replay", "variant_fingerprint"]


#: The largest seed a game takes (seeds are 64-bit; a longer one is refused).
MAX_SEED: Final = 2**64 - 1
#: The largest ``max_tricks`` bound a game takes.
MAX_TRICKS_LIMIT: Final = 10**9

#: Whether this module runs compiled with mypyc (its file is then an extension).
_COMPILED: Final = not __file__.endswith(".py")
#: ``Game.__new__``, for :meth:`Game.clone`'s empty shell in pure Python.
_new_game: Final = object.__new__

#: The log kinds that end a trick (the last completed trick of a view).
_TRICK_KINDS: Final = frozenset({"trick", "dead", "pickup"})
#: The four suits by number (``Suit(n)`` without the enum's call).
_SUITS: Final = tuple(Suit(n) for n in range(4))
#: The actions of the play of a hand (not of its bidding, passing or calls):
#: the first of a hand ends the showing of the hand before's score.
_PLAY_KINDS: Final = frozenset({"play", "take"})


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
        take_backs: the table's take-back policy, overriding the variant's
            ``take backs:`` (a :class:`~cardrules.rules.TakeBacks` or its text,
            such as ``"until the trick is complete"``); ``None``: the variant's.
            See :meth:`can_undo`.

    Raises:
        VariantError: if the variant cannot be played by this many players.
        CardError: if ``deck`` is not a valid card order for the variant's pack.
        ValueError: for a bad ``players``, ``first_dealer``, ``max_tricks`` or
            ``take_backs``.

    Example:
        >>> g = Game(variant, players=4, seed=7)        # doctest: +SKIP
        >>> while not g.is_over:                          # doctest: +SKIP
        ...     g.apply(g.legal_actions()[0], g.to_act)
    """

    # Every slot is declared once, in engine/state/slots.py (SLOTS), with the
    # module that owns it; the annotations below and the body of clone() are
    # written from there (python cardrules/engine/state/slots.py).
    __slots__ = GAME_SLOTS

    # BEGIN the slots (written by cardrules/engine/state/slots.py)
    # game: the compiled rules (engine/state/compiled_rules.py); of this hand, when a line has a
    # condition on the hand
    _rules: _Rules
    # game: the variant, as loaded
    _variant: Variant
    # game: the number of seats
    _players: int
    # game: the random seed of the deals
    _seed: int
    # game: the first dealer given to the constructor
    _first_dealer_given: int | None
    # game: the bound on the number of tricks, if any
    _max_tricks: int | None
    # game: the card orders given to deal
    _decks: tuple[tuple[int, ...], ...]
    # game: whether the one given card order deals every hand
    _decks_reuse: bool
    # game: recorded draws of dead cards (the power)
    _draws: tuple[int, ...]
    # game: recorded cuts
    _cuts: tuple[tuple[tuple[int, Card], ...], ...]
    # game: recorded deals (restore, replay, sampled worlds)
    _forced: list[tuple[tuple[int, ...], int]]
    # game: the hand size of each hand of the schedule
    _sizes: tuple[int, ...]
    # game: the largest hand size of the schedule
    _largest: int
    # game: each dealer's seats in deal order
    _order: tuple[tuple[int, ...], ...]
    # deal: the index of the hand being played (-1 before)
    _hand_index: int
    # deal: this hand's size
    _size: int
    # deal: the deals thrown in so far (`redeal:`), the game's
    _redeals: int
    # deal: this hand's deals thrown in so far, in a row
    _redeal_run: int
    # deal: the previous hand's tricks, while seats keep or show (`may be shown`)
    _redeal_prev: list[int] | None
    # deal: this hand's dealer
    _dealer: int
    # deal: the card turned up for trumps (-1: none)
    _turned: int
    # deal: the mask of the cards not dealt (the stock)
    _undealt: int
    # deal: each seat's cards (a mask)
    _hands: list[int]
    # deal: each seat's cards that every seat knows it holds (replaced, never changed in place:
    # a clone shares it)
    _known: list[int]
    # deal: this hand's seats in order
    _seats: tuple[int, ...]
    # deal: the number of seats that play to a trick
    _seats_per_trick: int
    # deal: each seat: out of the game (replaced, never changed in place: a clone shares it)
    _out: list[bool]
    # deal: the mask of the cards in dead tricks
    _dead: int
    # deal: each seat's cards in dead tricks (replaced, never changed in place: a clone shares
    # it)
    _dead_by: list[int]
    # ranks: the trump suit (-1: none)
    _trump: int
    # ranks: this hand's effective suits and powers
    _ranks: RankTables
    # trick: each seat's won cards (a mask)
    _won: list[int]
    # trick: each seat's tricks won this hand
    _tricks: list[int]
    # bidding: each seat's bid (-1: none)
    _bids: list[int]
    # bidding: each seat: its bid was blind
    _blind: list[bool]
    # bidding: each seat: has looked at its cards
    _looked: list[bool]
    # bidding: whether this hand is played forehead
    _forehead: bool
    # transitions: the phase of the hand (engine/state/tables.py: _BID, _PLAY...)
    _phase: int
    # transitions: the seat to act (-1: none)
    _to_act: int
    # bidding: the seats yet to bid simultaneously (None: bids in turn)
    _waiting: list[int] | None
    # bidding: how many seats have bid in turn
    _bid_pos: int
    # bidding: the seats that have passed in an auction (a mask)
    _auction_out: int
    # bidding: an auction of contracts: the rank of the highest contract bid (-1: none)
    _contract: int
    # bidding: an auction of contracts: the seat that made the highest bid (-1: none)
    _contract_seat: int
    # bidding: the seat that may amend its bid (-1: none)
    _amender: int
    # trick: the cards of the trick in play
    _trick: list[int]
    # trick: who played them
    _trick_seats: list[int]
    # trick: the seat that led the trick
    _leader: int
    # trick: the trick's winning card so far
    _winning_card: int
    # trick: who played it
    _winning_seat: int
    # trick: the broken suits before the last card
    _broken_prev: int
    # trick: the broken suits (a 4-bit set)
    _broken_suits: int
    # play: whether the lead was forced (no choice)
    _forced_lead: bool
    # passing: each seat's cards chosen to pass (replaced, never changed in place: a clone
    # shares it)
    _chosen: list[int]
    # passing: how many seats along the cards go (0: no pass)
    _pass_distance: int
    # trumps: the seat that made trumps (-1: none)
    _maker: int
    # alone: the seat going alone (-1: none)
    _alone: int
    # alone: the seat defending alone (-1: none)
    _defender: int
    # trumps: the cards the dealer or declarer discarded, a mask (0: none)
    _discarded: int
    # trumps: the round of the choice of trumps
    _call_stage: int
    # trumps: whether the hand's ranks are reversed (downtown)
    _downtown: bool
    # trumps: whether the hand's contract is misère
    _misere: bool
    # trumps: the declarer of an open misère, its hand laid face up after the first trick (-1:
    # none)
    _open_seat: int
    # trumps: the kitty's cards, face down until the declarer takes them (a mask)
    _kitty: int
    # trumps: how many seats have spoken in the round
    _call_pos: int
    # alone: seat -> the next seat to play this hand
    _next_seat: tuple[int, ...]
    # alone: seat -> the next seat, nobody sitting out
    _next_seat_all: tuple[int, ...]
    # trick: the tricks completed this hand
    _tricks_played: int
    # trick: the tricks completed in the game
    _total_tricks: int
    # score: each seat's score (replaced at each hand's score, never changed in place: a clone
    # shares it)
    _scores: list[Num]
    # score: each seat's counters (replaced at each hand's score, never changed in place)
    _counters: list[tuple[int, ...]]
    # score: games whose file names cases of the score (``case``): each hand scored, with each
    # seat's variables its cases are named from (replaced, never changed in place)
    _hand_cases: tuple[tuple[int, tuple[Mapping[str, Value] | None, ...]], ...]
    # end: the extra hands played to break a tie
    _extra: int
    # transitions: the log
    _events: list[Entry]
    # game: the typed streams built so far and the count of actions (events.py), or None until
    # first asked for; shared with a clone, copied on write
    _streams: _Streams | None
    # transitions: the legal actions of the seat to act (None: not worked out yet)
    _legal: tuple[Action, ...] | None
    # transitions: in the play, the mask of the cards that may be played (else 0)
    _legal_mask: int
    # end: the result, once the game is over
    _result: Result | None
    # undo: the checkpoints for undo (engine/state/undo.py), None until first needed
    _undo: list[Checkpoint] | None
    # game: the table's take-back policy (None: the variant's)
    _take_backs: TakeBacks | None
    # undo: the pending take-back request (engine/state/undo.py), ended by any change
    _request: TakeBackRequest | None
    # undo: who made actions since taken back by players, after how many actions
    # (engine/state/undo.py, _take_back_span): (m, seats), m growing; replaced, never changed in
    # place (a clone shares it)
    _retracted: list[tuple[int, tuple[int, ...]]]
    # history: the players' take-backs (engine/state/history.py), None while there are none;
    # never changed: a take-back makes a new one
    _history: History | None
    # END the slots

    def __init__(
        self,
        variant: Variant,
        players: int = 4,
        seed: int | None = None,
        *,
        deck: Sequence[Any] | str | None = None,
        first_dealer: int | None = None,
        max_tricks: int | None = None,
        take_backs: TakeBacks | str | None = None,
        _forced: list[tuple[tuple[int, ...], int]] | None = None,
        _blank: bool = False,
        _draws: tuple[int, ...] = (),
        _cuts: tuple[tuple[tuple[int, Card], ...], ...] = (),
    ) -> None:
        # _forced: recorded deals (restore and replay); _blank: an empty shell
        # for clone() (a plain constructor call, so the class can be compiled);
        # _draws: recorded draws of dead cards (the power), in order, used instead
        # of the seed's while they last (a record without its seed, a replay);
        # _cuts: the rounds of a cut for the first deal, made instead of the
        # seed's (a world sampled for one seat, sample_world: engine/search/worlds.py).
        if _blank:
            return
        # Checkpoints for undo (engine/state/undo.py), made when first needed.
        self._undo = None
        # (None, the usual case, is checked inline: this runs once a game.)
        self._take_backs = None if take_backs is None else _coerce_policy(take_backs)
        self._request = None
        self._retracted = []
        self._draws = _draws
        self._cuts = _cuts
        self._setup(variant, players, seed, deck, first_dealer, max_tricks, _forced or [])
        _begin(self)
        if (self._take_backs or self._variant.take_backs) is not TakeBacks.NEVER:
            # A table that allows take-backs keeps checkpoints from the start.
            self._undo = [_checkpoint(self)]

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
        if r.pack_by_players:
            r = r.for_players(players)  # the pack of this number of players
        geo = r._geometry.get(players)
        if geo is None:
            allowed = variant.players
            if players not in allowed:
                counts = count_range(allowed.min, allowed.max, "player")
                raise VariantError(
                    f"{variant.name} is for {counts}, not {_describe(players)}",
                    code="bad_player_count",
                    data={"value": players, "min": allowed.min, "max": allowed.max},
                )
            geo = r.geometry(players)
        if seed is None:
            # The operating system's generator: a seed drawn from Python's Mersenne
            # Twister could be predicted from the seeds of earlier games' saves.
            seed = secrets.randbits(63)
        elif type(seed) is not int or seed < 0 or seed >> 64:
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
        self._rules = r
        self._variant = variant
        self._players = n = players
        self._seed = seed
        self._first_dealer_given = first_dealer
        self._max_tricks = max_tricks
        if deck is not None:
            # One deck per hand at most: the schedule's and the tie-break hands.
            most = len(geo[0]) + (r.max_extra if r.tie_extra else 0)
            self._decks, self._decks_reuse = _normalise_decks(deck, r.pack_mask, most)
        else:
            self._decks, self._decks_reuse = (), False
        self._forced = forced
        self._sizes, self._largest, self._next_seat, self._order = geo
        # Nobody is out before the first deal (seats are knocked out between hands).
        self._out = [False] * n
        # The per-hand state (hands, bids, tricks, flags...) is set by _start_hand.
        self._hand_index = -1
        self._redeals = 0
        self._redeal_run = 0
        self._redeal_prev = None
        self._phase = _BID
        self._to_act = -1
        self._bid_pos = 0
        self._auction_out = 0
        self._leader = -1
        self._winning_card = -1
        self._winning_seat = -1
        self._total_tricks = 0
        self._scores = [0] * n
        self._counters = [(0,) * len(r.counters)] * n
        self._hand_cases = ()
        self._extra = 0
        self._events = [("start", n, seed, first_dealer, max_tricks)]
        self._streams = None
        self._history = None
        self._legal_mask = 0
        self._result = None
        # The pass (games with ``pass:``): each seat's chosen cards and how many
        # seats along they go this hand (0: no pass), set by each hand's start.
        self._chosen = []
        self._pass_distance = 0

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
                have actions only while bids are simultaneous, while they may
                amend their bid, or while they choose cards to pass.

        Returns:
            A tuple of interned, hashable actions (empty when the seat may not act).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < self._players:
                raise self._bad_seat(seat)
            if seat != self._to_act:
                if self._phase == _PASS:
                    return _pass_options(self, seat)
                if self._phase == _BID:
                    if self._waiting is not None and seat in self._waiting:
                        return _bid_options(self, seat)
                    if seat == self._amender:
                        return _amend_options(self, seat)
                return ()
        legal = self._legal
        if legal is None:
            legal = _play_legal(self) if self._phase == _PLAY else self._legal_outside_play()
        return legal

    def _legal_outside_play(self) -> tuple[Action, ...]:
        """The legal actions of :attr:`to_act` in the bidding or the choice of
        trumps (none once the game is over), cached in ``_legal`` until the next
        action. In the play, :func:`~cardrules.engine.phases.play._play_legal` computes
        and caches them."""
        phase = self._phase
        if phase == _BID:
            legal = _bid_options(self, self._to_act)
        elif phase == _PASS:
            legal = _pass_options(self, self._to_act)
        elif phase == _TRUMPS:
            legal = _trump_options(self)
        else:
            legal = ()
        set_legal(self, legal, 0)
        return legal

    # The implementations take ``object`` (the overloads give the public types), so
    # that a compiled (mypyc) build checks the arguments itself and raises the same
    # InvalidAction as the pure-Python one, not a TypeError at the call.
    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def apply(self, action: Action, seat: int) -> None: ...
    def apply(self, action: object, seat: object) -> None:
        """Make a move for ``seat``.

        The seat is required, so that a server states who acts and a move
        sent by the wrong client is refused (``not_your_turn``) rather than
        made for whoever is to move. Scripts that act for whoever is to move
        use :meth:`apply_as_current`.

        Args:
            action: the action, such as ``Bid(2)``, ``Play(card("A♠"))`` or,
                while a player chooses trumps, ``OrderUp()`` or ``Name(Suit.CLUBS)``.
            seat: the seat that makes it: :attr:`to_act` in turn, any waiting
                seat during a simultaneous bid or the pass, the seat that may
                amend for an :class:`Amend`.

        Raises:
            InvalidAction: if ``action`` is not an action (code ``bad_action``)
                or ``seat`` not a seat (``bad_seat``).
            IllegalAction: if the rules forbid it now; ``err.code`` says why
                (``not_your_turn``, ``must_follow_suit``, ``hook``... see
                :data:`cardrules.errors.ERROR_CODES`), the message and
                ``err.data`` say it in words and facts, and the game is unchanged.
                A refusal describes only what ``seat`` may know.

        Example:
            >>> import cardrules
            >>> v = cardrules.load_text("game: house\\nplayers: 4\\nhand size: 5\\nscore: tricks")
            >>> g = cardrules.Game(v, 4, seed=3)
            >>> g.apply(g.legal_actions()[0], g.to_act)
            >>> try:
            ...     g.apply(g.legal_actions()[0], (g.to_act + 1) % 4)
            ... except cardrules.IllegalAction as err:
            ...     print(err.code)
            not_your_turn
        """
        if self._request is not None:
            self._apply_ending_request(action, seat)
            return
        legal = self._legal
        if legal is None:
            legal = _play_legal(self) if self._phase == _PLAY else self._legal_outside_play()
        if type(action) is Play:
            # The hot path, the play of a card: a legal card (in play,
            # ``_legal_mask`` is the mask of the cards that may be played; elsewhere
            # it is 0) joins the trick (engine/phases/trick.py).
            c = action.id
            if not self._legal_mask >> c & 1 or seat.__class__ is not int or seat != self._to_act:
                self._apply_slow(action, seat)
                return
            _play_card(self, self._to_act, c)
            return
        if (
            action in legal
            and seat.__class__ is int
            and seat == self._to_act
            and self._phase == _BID
        ):
            assert isinstance(action, Action)
            if _do_bid(self, self._to_act, action):
                _next_hand(self)  # everyone passed: the hand is thrown in
            return
        self._apply_slow(action, seat)

    def _apply_ending_request(self, action: object, seat: object) -> None:
        """:meth:`apply` while a take-back request is pending: an action made
        ends it (the position it was about has changed); a refused one leaves
        it, as the whole game, unchanged."""
        request = self._request
        self._request = None
        try:
            any_action: Any = action
            any_seat: Any = seat
            self.apply(any_action, any_seat)
        except BaseException:
            self._request = request
            raise

    def _apply_slow(self, action: object, seat_: object) -> None:
        """Everything :meth:`apply` does not do on its fast path: check the
        arguments, make a legal action that is not the fast path's (a change of
        bid, a simultaneous bid by another seat), or raise why it is not legal."""
        if not isinstance(action, Action):
            raise InvalidAction(
                f"{_describe(action)} is not an action: use Bid(n), Play(card), Look(), "
                "Amend(n), Pass(card), Name(suit), OrderUp(), Decline(), Discard(card), "
                "Take(), Action.from_id(i) or game.parse_action(text)",
                code="bad_action",
                data={"value": _describe(action)},
            )
        if self._phase == _OVER:
            raise IllegalAction(
                f"the game is over: {action.label} is not possible",
                code="game_over",
                data={
                    "seat": seat_ if type(seat_) is int and 0 <= seat_ < self._players else None,
                    "action": action.label,
                },
            )
        if seat_ is None:
            raise InvalidAction(
                f"apply needs the acting seat, as in apply(action, seat) (no seat for "
                f"{action.label}); a script that acts for whoever is to move uses "
                "apply_as_current(action)",
                code="bad_seat",
                data={"value": None, "action": action.label},
            )
        if type(seat_) is not int or not 0 <= seat_ < self._players:
            raise self._bad_seat(seat_)
        seat: int = seat_
        if self._rules.knockout and self._out[seat]:
            raise IllegalAction(
                f"seat {seat} is knocked out of the game: {action.label} is not possible",
                code="knocked_out",
                data={"seat": seat, "action": action.label},
            )
        if self._phase == _PASS:
            _try_pass(self, seat, action)
            return
        if type(action) is Pass:
            _refuse_pass_outside(action, seat)
        if type(action) is Amend:
            _try_amend(self, seat, action)
            return
        actor = seat
        if type(action) is Take:
            _try_take(self, actor)
            return
        if self._phase == _BID:
            if _try_bid(self, actor, action):
                _next_hand(self)  # everyone passed: the hand is thrown in
            return
        if self._phase == _TRUMPS:
            then = _try_call(self, actor, action)
            if then == CALL_MADE:
                _after_trumps(self)
            elif then == CALL_THROWN_IN:
                _next_hand(self)
            elif then == CALL_KEPT:
                _deal_stands(self)
            elif then == CALL_SHOWN:
                _deal_shown(self)
            return
        if type(action) is Play and action.id >= JOKER_BASE and _play_joker(self, actor, action):
            # A joker's id is not its card bit: its play comes here, not the hot path.
            return
        if type(action) is Play and self._rules.copies and actor == self._to_act:
            # Several packs: the card's Play plays the copy of it the seat may play.
            c = _legal_copy(self, action.id)
            if c >= 0:
                _play_card(self, actor, c)
                return
        _refuse_play(self, actor, action)

    def apply_as_current(self, action: Action) -> None:
        """Make a move for whoever is to move: for scripts, tests and bots playing
        every seat, never for a server relaying its clients' moves.

        The seat is :attr:`to_act` (for an :class:`Amend`, the seat that may
        amend its bid, if any). ``g.apply_as_current(a)`` is
        ``g.apply(a, g.to_act)`` with that exception; OpenSpiel's
        :meth:`apply_action` acts the same way.

        Raises:
            InvalidAction: as :meth:`apply`.
            IllegalAction: as :meth:`apply` (``game_over`` once the game is over).

        Example:
            >>> import cardrules
            >>> v = cardrules.load_text("game: house\\nplayers: 4\\nhand size: 5\\nscore: tricks")
            >>> g = cardrules.Game(v, 4, seed=3)
            >>> while not g.is_over:
            ...     g.apply_as_current(g.legal_actions()[0])
            >>> g.result.finished
            True
        """
        seat = self._to_act
        if type(action) is Amend and self._amender >= 0:
            seat = self._amender
        self.apply(action, seat)

    def parse_action(self, text: str) -> Action:
        """The one action a person's text names in this game.

        Reads ``"QS"``, ``"Q♠"``, ``"play 10h"``, ``"bid 2"``, ``"2"``,
        ``"bid 0 blind"``, ``"look"``, ``"change bid to 3"``, ``"pass Q♠"``,
        ``"name clubs"`` (or ``"clubs"``), ``"order up"``, ``"pass"`` (in the
        choice of trumps), ``"discard 9s"``, ``"take"``, ``"alone"``: any case,
        cards written any way :func:`cardrules.card` reads them. A card alone
        is what this game does with a card now: a play in the play, a card to
        pass while cards are passed, the discard of a dealer who took the
        turned card. Several cards to pass at once (``"pass 3♣ 4♦ 9♥"``) are
        :meth:`parse_actions`'. The text is read, not judged: :meth:`apply`
        says whether the action is legal for a seat.

        Args:
            text: what was typed (at most ``notation.MAX_ACTION_TEXT`` characters).

        Raises:
            InvalidAction: (code ``bad_action``) if the text names no action,
                or several.

        Example:
            >>> import cardrules
            >>> v = cardrules.load_text(
            ...     "game: house\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks\\n"
            ... )
            >>> g = cardrules.Game(v, 4, seed=3)
            >>> g.parse_action("bid 2"), g.parse_action("QS"), g.parse_action("Play 10h")
            (Bid(2), Play('Q♠'), Play('10♥'))
            >>> g.parse_action("clubs"), g.parse_action("look")
            (Name(Suit.CLUBS), Look())
        """
        actions = self.parse_actions(text)
        if len(actions) != 1:
            raise InvalidAction(
                f"{text.strip()[:40]!r} names {counted(len(actions), 'action')}: read it with "
                "parse_actions and apply them in turn",
                code="bad_action",
                data={"value": text.strip()[:40]},
            )
        return actions[0]

    def parse_actions(self, text: str) -> tuple[Action, ...]:
        """The actions a person's text names in this game, in order: one, as
        :meth:`parse_action` reads it, or one :class:`Pass` per card of text
        that chooses several cards to pass (``"pass 3♣ 4♦ 9♥"``, or the bare
        cards ``"3♣ 4♦ 9♥"`` while cards are passed).

        Raises:
            InvalidAction: (code ``bad_action``) if the text names no action.

        Example:
            >>> import cardrules
            >>> v = cardrules.load_text("game: house\\nplayers: 4\\nhand size: 5\\nscore: tricks")
            >>> g = cardrules.Game(v, 4, seed=3)
            >>> g.parse_actions("pass 3♣ 4d 9H")
            (Pass('3♣'), Pass('4♦'), Pass('9♥'))
        """
        kinds = {type(a) for s in self.waiting_for for a in self.legal_actions(s)}
        names = self._variant.deck.card_names() if self._variant.deck.symbols else None
        symbols = {t.casefold(): str(CARDS[c]) for c, t in names.items()} if names else None
        return _parse_in_game(text, kinds, symbols)

    def card_text(self, c: Card | int) -> str:
        """The text for people of card ``c`` in this game: a special card by the
        letters its variant gives it (``special symbols``: ``W1``), any other
        card as ``str(card)``. Saves and JSON keep the canonical text (``X1``),
        which :meth:`parse_action` also reads.

        Example:
            >>> import cardrules
            >>> v = cardrules.load_text(
            ...     "game: house\\nplayers: 4\\nhand size: 5\\nscore: tricks\\n"
            ...     "deck: standard 52 with 2 tigers\\nspecial cards: tigers always win\\n"
            ...     "special symbols: tigers T (tiger)\\n"
            ... )
            >>> g = cardrules.Game(v, 4, seed=1)
            >>> g.card_text(cardrules.Card(54)), g.card_text(cardrules.card("Q♠"))
            ('T1', 'Q♠')
        """
        return _card_text(Card(c), self._variant.deck.card_names())

    def action_label(self, action: Action) -> str:
        """The label for people of ``action`` in this game (``play W1`` where
        :attr:`Action.label` says ``play X1``); :meth:`parse_action` reads it back.

        Example:
            >>> import cardrules
            >>> v = cardrules.load_text(
            ...     "game: house\\nplayers: 4\\nhand size: 5\\nscore: tricks\\n"
            ...     "deck: standard 52 with 2 tigers\\nspecial cards: tigers always win\\n"
            ...     "special symbols: tigers T (tiger)\\n"
            ... )
            >>> g = cardrules.Game(v, 4, seed=1)
            >>> g.action_label(cardrules.Play(55)), g.parse_action("play T2")
            ('play T2', Play('X2'))
        """
        return _label_of(action, self._variant.deck.card_names())

    @overload
    def playout(
        self,
        policy: object = None,
        rng: random.Random | None = None,
        *,
        until: Literal["game"] = "game",
    ) -> Result: ...
    @overload
    def playout(
        self,
        policy: object = None,
        rng: random.Random | None = None,
        *,
        until: Literal["hand"],
    ) -> tuple[Fraction, ...]: ...
    def playout(
        self, policy: object = None, rng: object = None, *, until: object = "game"
    ) -> Result | tuple[Fraction, ...]:
        """Play the game in place to its end (or to the end of the current
        hand) inside the engine: the rollout of a search.

        With no ``policy``, every decision is random: the seat to act
        (:attr:`to_act`) takes ``legal[int(rng.random() * len(legal))]`` of
        ``legal = legal_actions()``, so a seeded ``rng`` gives the same game
        every time, and making those choices through :meth:`apply` plays
        exactly the same game. This loop builds no views and no actions (see
        :mod:`cardrules.engine.search.playout`). Clone first (:meth:`clone`) to keep
        the position.

        Args:
            policy: ``None`` (random, from ``rng``); a bot (anything with
                ``choose(view) -> Action``, shown each acting seat's view);
                a sequence of bots, one a seat; or a callable
                ``policy(game, seat) -> Action`` (shown the game itself).
            rng: the ``random.Random`` of the random policy; ``None``: a
                fresh unseeded one.
            until: ``"game"`` (to the end of the game) or ``"hand"`` (to the
                end of the current hand: the next hand is dealt, or the game
                is over).

        Returns:
            ``until="game"``: the :attr:`result`. ``until="hand"``: each
            seat's points for the hand (zeros if it scored nothing: thrown
            in, or the game was already over).

        Raises:
            ValueError: for a bad ``policy``, ``rng`` or ``until``.
            IllegalAction: if a policy's action is not legal (the game is
                left as it was before that action).

        Example:
            >>> import random, cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> v = cardrules.load_text(rules)
            >>> a, b = cardrules.Game(v, 4, seed=2), cardrules.Game(v, 4, seed=2)
            >>> a.playout(rng=random.Random(9)) == b.playout(rng=random.Random(9))
            True
            >>> a == b, a.is_over
            (True, True)
            >>> two = cardrules.load_text(rules.replace("hand size: 5", "hands: list 5 4"))
            >>> g = cardrules.Game(two, 4, seed=1)
            >>> points = g.playout(rng=random.Random(3), until="hand")
            >>> len(points), g.hand_number, g.hand_size
            (4, 2, 4)
        """
        request = self._request
        if request is None:
            return _playout(self, policy, rng, until)
        # An action made ends a pending take-back request; a refusal before
        # any (a bad argument) leaves it.
        self._request = None
        length = len(self._events)
        try:
            return _playout(self, policy, rng, until)
        except BaseException:
            if len(self._events) == length:
                self._request = request
            raise

    # ----------------------------------------------------------------- public: take-backs

    def undo(self) -> Action:
        """Take back the last action (as python-chess's ``Board.pop()``) and return it.

        The game is then exactly as it was before that action: equal (``==``),
        with the same :meth:`to_json`, views and :meth:`events_for` of every
        seat, also when the action completed a trick or ended a hand (the next
        deal is taken back; made again, the action deals it again, the same).
        The play of a card (that did not end its hand) is unmade in place, in a
        few microseconds; other actions replay from the start of their hand
        (see :mod:`cardrules.engine.state.undo`).

        This is the engine's unmake, for search and tools, whatever the
        take-back policy: players take back through :meth:`take_back`, which
        the policy governs (:meth:`can_undo`), or :meth:`request_take_back`.
        An undo ends a pending take-back request, and leaves alone the game's
        memory of the players' take-backs and their history: it goes back over
        the actions applied since the last take-back, never past it.

        Returns:
            The action taken back.

        Raises:
            NothingToUndo: an :class:`IllegalAction` (code ``nothing_to_undo``):
                no action has been made yet, or none since the last
                :meth:`take_back`; the game is unchanged.

        Example:
            >>> import cardrules
            >>> g = cardrules.Game(cardrules.load_text("game: demo\\nscore: tricks\\n"), 4, seed=1)
            >>> before = g.clone()
            >>> g.apply(g.legal_actions()[0], g.to_act)
            >>> g.undo() == before.legal_actions()[0], g == before
            (True, True)
        """
        check_undo(self)
        return _undo(self)

    @property
    def take_back_policy(self) -> TakeBacks:
        """The take-back policy in force: the table's (given to the constructor
        or set here), else the variant's ``take backs:``. Set it to a
        :class:`~cardrules.rules.TakeBacks`, its text, or ``None`` (back to the
        variant's). Saves keep the table's policy; :func:`replay` and records
        follow the variant's.

        Raises:
            ValueError: when set to anything else.
        """
        return _policy(self)

    @take_back_policy.setter
    def take_back_policy(self, value: TakeBacks | str | None) -> None:
        self._take_backs = _coerce_policy(value, "take_back_policy")
        self._request = None  # a pending request was made under the old policy

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def can_undo(self, seat: int) -> bool: ...
    def can_undo(self, seat: object) -> bool:
        """Whether ``seat`` may take back its last action alone, now, under
        the take-back policy (:attr:`take_back_policy`).

        A seat may take back alone only its own last action when it is the
        last action of the game and no other seat has acted after it, even in
        an action since taken back (another seat's card, bid, pass or call is
        something the taker has seen, and that seat chose it in answer to the
        action), inside the policy's window; and never once
        anything it would undo revealed hidden cards or bids to anyone (a deal,
        a turned or drawn card, passed cards received, a look, a blind bid, the
        end of hidden bids, a hand taken, a trick picked up, the end of the
        game). Taking back past another seat's action needs that seat's consent:
        :meth:`request_take_back`. So no player can see and then choose again.
        A server calls this (or :meth:`take_back`, which checks it) before
        taking anything back.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.

        Example:
            >>> import cardrules
            >>> g = cardrules.Game(cardrules.load_text("game: demo\\nscore: tricks\\n"), 4, seed=1,
            ...                    take_backs="until the trick is complete")
            >>> g.apply(cardrules.Bid(1), 0)
            >>> g.can_undo(0), g.can_undo(1)
            (True, False)
            >>> g.apply(cardrules.Bid(0), 1)   # seat 0 has seen seat 1's bid
            >>> g.can_undo(0), g.can_undo(1)
            (False, True)
        """
        return _can_undo(self, self._check_seat(seat))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def take_back(self, seat: int) -> tuple[Action, ...]: ...
    def take_back(self, seat: object) -> tuple[Action, ...]:
        """Take back ``seat``'s last action alone (with what followed it: a
        trick gathered, nothing anyone chose), if :meth:`can_undo` allows it.

        A take-back is a step of the game, as an action is: it adds 1 to
        :attr:`version`, and every stream (:meth:`events_for` of each seat and
        of onlookers, :attr:`events`) keeps the entries it undid and grows by
        a :class:`~cardrules.engine.events.TakeBackEvent` saying which actions
        were undone. A game allows at most
        :data:`~cardrules.engine.state.history.MAX_TAKE_BACKS` take-backs (and
        :data:`~cardrules.engine.state.history.MAX_TAKEN_BACK_ACTIONS` actions taken
        back in all).

        Returns:
            The actions taken back: ``seat``'s own last action (one).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
            TakeBackRefused: an :class:`IllegalAction` (code
                ``take_back_refused``) saying why not (the policy, something
                revealed, or another seat has acted since: then ask it,
                :meth:`request_take_back`), or (code ``take_back_limit``) past
                the game's bounds on take-backs; the game is unchanged.

        Example:
            >>> import cardrules
            >>> g = cardrules.Game(cardrules.load_text("game: demo\\nscore: tricks\\n"), 4, seed=1,
            ...                    take_backs="until the trick is complete")
            >>> g.apply(cardrules.Bid(1), 0)
            >>> g.take_back(0)
            (Bid(1),)
            >>> g.version, g.events_for(0)[-1].kind
            (2, 'take back')
            >>> g.apply(cardrules.Bid(1), 0)
            >>> g.apply(cardrules.Bid(0), 1)
            >>> try:
            ...     g.take_back(0)
            ... except cardrules.TakeBackRefused as err:
            ...     print(err.code)
            take_back_refused
        """
        return _take_back(self, self._check_seat(seat))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def can_request_take_back(self, seat: int) -> bool: ...
    def can_request_take_back(self, seat: object) -> bool:
        """Whether ``seat`` may ask now to take back its last action with the
        actions other seats made after it (:meth:`request_take_back` would
        not refuse): no request is pending, the policy's window holds them all
        (nothing revealed, under ``until the trick is complete`` no trick
        completed since...) and another seat has acted since, in the actions
        to take back or in actions since taken back (else nobody's consent is
        needed: :meth:`take_back`).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        return _can_request(self, self._check_seat(seat))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def request_take_back(self, seat: int) -> TakeBackRequest: ...
    def request_take_back(self, seat: object) -> TakeBackRequest:
        """Ask to take back ``seat``'s last action with every action made after
        it, as on a chess site: each other seat that made one of those actions
        must agree (:meth:`answer`), and each other seat that acted after it
        in an action since taken back (it saw ``seat``'s action and answered).
        The request is pending (:attr:`take_back_request`, shown in every
        view) until every seat asked
        has agreed (the take-back is then made), one declines, the requester
        withdraws it, or the game changes (any action applied, or an undo).

        A request needs another seat's action to take back: when ``seat``'s
        last action is the game's last, it is refused (``no_consent_needed``)
        and :meth:`take_back` takes it back alone. The policy's window applies
        as to :meth:`take_back`: under ``until the next player acts`` no request
        can be made, and nothing past a reveal, a completed trick (``until the
        trick is complete``) or a hand's end is ever taken back.

        Returns:
            The pending request (:class:`~cardrules.engine.views.view.TakeBackRequest`).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
            TakeBackRefused: with code ``take_back_refused`` (the policy does not
                allow it, with the reason), ``no_consent_needed`` (nobody else
                has acted since: use :meth:`take_back`) or ``take_back_pending``
                (a request is already waiting for answers). The game is unchanged.

        Example:
            >>> import cardrules
            >>> g = cardrules.Game(cardrules.load_text("game: demo\\nscore: tricks\\n"), 4, seed=1,
            ...                    take_backs="until the trick is complete")
            >>> g.apply(cardrules.Bid(1), 0)
            >>> g.apply(cardrules.Bid(0), 1)
            >>> g.apply(cardrules.Bid(2), 2)
            >>> g.request_take_back(0)
            TakeBackRequest(seat=0, count=3, asked=(1, 2), agreed=())
            >>> g.answer(2, True)
            ()
            >>> g.take_back_request.agreed
            (2,)
            >>> g.answer(1, True)
            (Bid(2), Bid(0), Bid(1))
            >>> g.take_back_request is None, g.to_act
            (True, 0)
        """
        return _request(self, self._check_seat(seat))

    @property
    def take_back_request(self) -> TakeBackRequest | None:
        """The take-back request waiting for answers (:meth:`request_take_back`),
        or ``None``. Saves, clones and ``==`` keep it; any action applied ends it."""
        return self._request

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def answer(self, seat: int, accept: bool) -> tuple[Action, ...]: ...
    def answer(self, seat: object, accept: object) -> tuple[Action, ...]:
        """``seat``'s answer to the pending take-back request: a seat asked
        agrees (``accept=True``) or declines (``False``: the request ends);
        the requester may withdraw it (``False``). When the last seat asked
        agrees, the take-back is made: the requester's last action and every
        action after it are taken back, as :meth:`take_back` takes them back.

        Returns:
            The actions taken back, the last one first (the requester's own is
            last), when this answer completed the consent; else ``()``.

        Raises:
            InvalidAction: if ``seat`` is not a seat number (``bad_seat``) or
                ``accept`` not a bool (``bad_argument``).
            TakeBackRefused: ``no_take_back_request`` (no request is pending)
                or ``not_asked`` (the request does not ask ``seat``, or the
                requester agreed to its own request). The game is unchanged.

        Example:
            >>> import cardrules
            >>> g = cardrules.Game(cardrules.load_text("game: demo\\nscore: tricks\\n"), 4, seed=1,
            ...                    take_backs="until the trick is complete")
            >>> g.apply(cardrules.Bid(1), 0)
            >>> g.apply(cardrules.Bid(0), 1)
            >>> g.request_take_back(0).asked
            (1,)
            >>> g.answer(1, False), g.take_back_request, g.version
            ((), None, 2)
        """
        s = self._check_seat(seat)
        if type(accept) is not bool:
            raise InvalidAction(
                f"accept must be True or False, got {_describe(accept)}",
                code="bad_argument",
                data={"seat": s, "value": _describe(accept)},
            )
        return _answer(self, s, accept)

    # ----------------------------------------------------------------- public: state

    @property
    def variant(self) -> Variant:
        """The rules of this game."""
        return self._variant

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._players

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
        """Every seat that may act now: the waiting seats of a simultaneous bid
        or of the pass, or :attr:`to_act` plus the seat that may still amend its
        bid. A set, for ``seat in game.waiting_for``; the same seats in bidding
        order are :attr:`waiting_order` (as :attr:`View.waiting_for
        <cardrules.engine.views.view.View.waiting_for>` and its JSON list give them)."""
        return frozenset(self.waiting_order)

    @property
    def waiting_order(self) -> tuple[int, ...]:
        """Every seat that may act now (:attr:`waiting_for`) in bidding order:
        from the dealer's neighbour in the direction of play, the dealer last
        (so a seat that may still amend its bid comes before the seat to bid
        after it). The order of :attr:`View.waiting_for
        <cardrules.engine.views.view.View.waiting_for>`, in every phase.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nhand size: 5\\nbidding: all at once\\nhook: no\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), players=4, seed=1)
            >>> g.phase, g.dealer, g.waiting_order
            ('bid', 3, (0, 1, 2, 3))
        """
        if self._phase == _OVER:
            return ()
        if self._waiting is not None:
            # Kept in bidding order (engine/phases/bidding.py, engine/phases/passing.py).
            return tuple(self._waiting)
        if self._amender >= 0 and _amend_options(self, self._amender):
            # The amender bid just before the seat to act.
            return (self._amender, self._to_act)
        return (self._to_act,)

    @property
    def phase(self) -> str:
        """``"pass"`` (choosing cards to pass), ``"trumps"`` (a player chooses trumps),
        ``"bid"``, ``"play"`` or ``"over"``."""
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
        return None if self._turned < 0 else CARDS[self._turned]

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
        return _fractions(self._scores)

    def hand_cases(self, hand_number: int) -> tuple[tuple[str, ...], ...]:
        """The cases of the score (the file's ``case`` lines) that a scored hand
        fell in, in the game's own words: for each seat, the recap words of
        every case that held for its hand, in the file's order
        (``("nil failed", "made 7 on 5")``); empty for a hand not scored yet,
        and in a game whose file names no case.

        Args:
            hand_number: the hand, from 1 (as the ``score`` event numbers it).

        Example:
            >>> import cardrules
            >>> from cardrules.dsl import builtin_names
            >>> g = cardrules.Game(cardrules.load(builtin_names()[0]), players=4, seed=3)
            >>> g.hand_cases(1)
            ()
        """
        r = self._rules
        for number, record in reversed(self._hand_cases):
            if number == hand_number:
                return tuple(
                    () if env is None else name_hand(r.score_cases, env, r.counter_names)
                    for env in record
                )
        return ()

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The partnerships, as tuples of seats (empty without teams)."""
        return self._rules.teams

    @property
    def counters(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The game's counters as ``(name, value per seat)`` pairs, after the last
        hand scored (with teams, partners hold their team's value)."""
        return tuple(
            (name, tuple(c[k] for c in self._counters))
            for k, name in enumerate(self._rules.counter_names)
        )

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
                totals=_fractions(totals),
                shared=shared,
                finished=finished,
                loser=loser,
                knocked_out=_knocked_out(self._events) if self._rules.knockout else (),
                teams=self._rules.teams,
            )
        return self._result

    @property
    def version(self) -> int:
        """The number of steps of the whole game so far (0 before the first):
        the actions applied, those taken back included, and the players'
        take-backs (:meth:`take_back`). Without take-backs, the number of
        actions applied. It strictly increases as the game goes on (only
        :meth:`undo`, the engine's unmake for search, brings it back to what
        it was), so a client that knows the version it last saw knows whether
        it missed something. It is in every :class:`View` and every event record.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> g.version
            0
            >>> g.apply(g.legal_actions()[0], g.to_act)
            >>> g.version
            1
        """
        streams = self._streams
        if streams is None:
            streams = self._streams = _Streams()
        elif streams.shared:
            streams = self._streams = streams.fork()  # shared with a clone
        h = self._history
        return streams.version(self._events) + (0 if h is None else h.offset)

    def _stream_of(self, seat: int | None, line: bool = False) -> list[Event]:
        """The stream of ``seat`` (``None``: onlookers, ``ALL``: every card), kept
        and extended as the game goes on (the records are never rebuilt).
        ``line``: the stream of the log alone, as if nothing had ever been
        taken back (versions counting the actions of the log): the stream a
        game made by those actions alone has (:meth:`sample_world`)."""
        streams = self._streams
        if streams is None:
            streams = self._streams = _Streams()
        elif streams.shared:
            streams = self._streams = streams.fork()  # shared with a clone
        r = self._rules
        if self._history is None:
            cache, log = streams.by_seat, self._events
        elif line:
            cache, log = streams.line_by_seat, self._events
        else:
            cache, log = streams.by_seat, history_log(self)
        return _stream(
            cache,
            log,
            seat,
            blind=r.blind,
            simultaneous=r.bid_style == 2,
            forehead_sizes=r.forehead if r.bid_style != 0 else (),
            bidding_now=self._phase == _BID,
        )

    @property
    def events(self) -> list[Event]:
        """The whole log, every card shown, as typed records (a new list each
        time): the all-seeing record of the game, for saves, replays and
        commentary, never to be sent to a player (use :meth:`events_for`).

        One frozen record class per kind (see :mod:`cardrules.engine.events`),
        each with its ``version`` (:attr:`version` when it happened) and
        ``to_dict()``. In order of their fields:

        * ``StartEvent(players, seed, first_dealer, max_tricks)``
        * ``CutEvent(cuts)``: a round of cutting for the first deal, ``(seat, card)`` pairs
        * ``DealEvent(hand_number, dealer, size, hands)`` (a CardSet per seat)
        * ``TrumpEvent(hand_number, suit, turned)``: suit or ``None``, turned-up card or ``None``
        * ``LookEvent(seat)``, ``BidEvent(seat, bid, blind)``, ``AmendEvent(seat, bid)``
        * ``PassEvent(seat, card)``: ``seat`` chooses ``card`` to pass (games with ``pass:``)
        * ``ExchangeEvent(hand_number, targets, cards)``: every seat has chosen;
          seat ``s``'s chosen cards go to seat ``targets[s]``
        * ``BidsEvent(bids)``: the bidding is over (all bids public)
        * ``CallEvent(seat, action)``: an action choosing trumps (``Name``,
          ``OrderUp``, ``Decline``, ``Discard``; and the maker's ``Alone`` or
          ``WithPartner``, games with ``going alone:``)
        * ``MadeEvent(hand_number, seat, suit)``: ``seat`` made trumps (named
          them or ordered the turned card up); before it, the hand's
          ``TrumpEvent`` has suit ``None`` when a player is to choose
        * ``ThrownInEvent(hand_number)``: everyone passed twice; the next
          dealer deals the next hand
        * ``PlayEvent(seat, card)``
        * ``TrickEvent(winner, seats, cards)``: seats and cards in play order
        * ``ScoreEvent(hand_number, bids, tricks, points, totals)`` (Fractions)
        * ``CountersEvent(hand_number, names, values)``: games with counters,
          after each score: each seat's counters (its team's) after the hand
        * ``DeadEvent(winner, seats, cards)``: shedding, a dead trick leaves the
          game; ``winner`` played its highest card of the suit led (it leads
          next; if it has just played its last card, as ``leader out:`` says)
        * ``PickupEvent(taker, seats, cards)``: shedding, a cut; ``taker`` picks up
        * ``OutEvent(seat)``: shedding, the seat has no cards left and is safe
        * ``KnockedOutEvent(seat, hand_number)``: after that hand was scored, the
          seat is out of the game (``knocked out:``): it is dealt no more cards
        * ``DrawEvent(seat, card)``: shedding with "the power" (``leader out:
          draws a dead card``): the seat took a dead trick with its last card,
          drew ``card`` from the earlier dead tricks and led it
        * ``TakeEvent(seat, neighbour, count)``: shedding (``take a hand
          from:``): the seat took the neighbour's ``count`` cards (which stay
          hidden); an ``OutEvent(neighbour)`` follows
        * ``OverEvent(winners, totals, shared, finished, loser)``
        * ``TakeBackEvent(seat, undone, agreed, entries)``: a player's
          :meth:`take_back` of the actions made at the versions ``undone``;
          the entries it undid stay before it (see :meth:`events_for`)

        For a transition from earlier versions' tuples, a record indexes like
        its old tuple (``ev[0]`` is the kind) and ``ev.astuple()`` gives it.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> " ".join(ev.kind for ev in g.events)
            'start deal trump'
        """
        return self._stream_of(ALL)[:]

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def events_for(
        self, seat: int | None, since: int = 0, digest: str | None = None
    ) -> list[Event]: ...
    def events_for(self, seat: object, since: object = 0, digest: object = None) -> list[Event]:
        """The log as ``seat`` may see it, from position ``since`` on.

        Each seat has its own stream of records, which only grows: the entry
        at a position never changes once it is there, so a server sends a
        client ``events_for(seat, since=n)``, where ``n`` is how many entries
        of that seat's stream the client has (positions count that seat's
        stream, from 0, not the game's log: a seat's stream holds
        :class:`~cardrules.engine.events.RevealEvent` entries that others' do
        not). ``since=len(events_for(seat))`` gives ``[]``.

        A player's take-back (:meth:`take_back`) does not shorten any stream:
        the entries it undid stay, and a
        :class:`~cardrules.engine.events.TakeBackEvent` follows them, saying
        which actions were undone and how many entries of the stream's current
        line it undoes (:func:`~cardrules.engine.state.history.current_line` applies
        it). Only :meth:`undo`, the engine's unmake for search, takes entries
        off the end (exactly those its action added).

        A client that holds the first ``n`` entries keeps their digest
        (:meth:`stream_digest`, which a server sends with them) and gives it
        back with ``since=n``: if the stream's first ``n`` entries are not
        the ones it holds (another game, another seat, a game restored from
        an older save), the call is refused instead of sending a tail that
        does not follow them.

        What the seat may not see is ``None``: other seats' cards in a
        ``DealEvent`` (but forehead hands), the seed, another seat's bid made at
        the same time as the others (the ``BidsEvent`` that ends the bidding
        shows every bid), the cards another seat passes (but those passed to
        ``seat``), and another seat's face-down ``Discard``. A seat that may
        not see its own cards when they are dealt (blind bids, forehead hands)
        gets them later in a ``RevealEvent`` (after it looks, or once the bids
        are in). Every card is played face up, so every ``PlayEvent`` and the
        cards of every completed trick (also dead tricks that go face down)
        are shown to every seat.

        Args:
            seat: the seat, or ``None`` for an onlooker at the table, who sees
                only what every seat sees (no hand, no hidden bid, no passed or
                discarded card; forehead hands neither).
            since: how many entries of the stream to skip (0 to its length).
            digest: if given, the :meth:`stream_digest` of the stream's first
                ``since`` entries, as the client has them.

        Raises:
            InvalidAction: code ``bad_seat`` if ``seat`` is not a seat number
                or ``None``; code ``bad_argument`` if ``since`` is not an int
                from 0 to the stream's length, or ``digest`` is not the digest
                of the stream's first ``since`` entries.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> seen = g.events_for(0)
            >>> mark = g.stream_digest(0)
            >>> g.apply(g.legal_actions()[0], g.to_act)
            >>> new = g.events_for(0, since=len(seen), digest=mark)
            >>> g.events_for(0) == seen + new
            True
            >>> " ".join(ev.to_dict()["kind"] for ev in new)
            'bid'
            >>> try:
            ...     g.events_for(1, since=len(seen), digest=mark)  # seat 1's stream
            ... except cardrules.InvalidAction as err:
            ...     print(err.code)
            bad_argument
        """
        key = None if seat is None else self._check_seat(seat)
        stream = self._stream_of(key)
        since = self._check_since(stream, since)
        if digest is not None and (
            type(digest) is not str or digest != self._digest_of(key, since)
        ):
            who = "the onlookers'" if key is None else f"seat {key}'s"
            raise InvalidAction(
                f"the first {since} entries of {who} stream are not the ones the "
                "digest names (another game's or seat's, or an older one): "
                "ask for the stream from 0",
                code="bad_argument",
                data={"since": since},
            )
        return stream[since:]

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def stream_digest(self, seat: int | None, length: int | None = None) -> str: ...
    def stream_digest(self, seat: object, length: object = None) -> str:
        """A digest of the first ``length`` entries of ``seat``'s stream (all of
        them: ``None``), for a client to give back to :meth:`events_for` with
        ``since=length``: equal digests mean the same entries.

        It is a chain of SHA-256 hashes, as hex: ``d(0) = sha256(b"")`` and
        ``d(k + 1) = sha256(d(k) + e(k))``, where ``d(k)`` is the 32 bytes of
        the digest of ``k`` entries and ``e(k)`` the UTF-8 bytes of entry
        ``k``'s :meth:`~cardrules.engine.events.Event.to_dict` as compact JSON
        (:func:`~cardrules.engine.events.entry_json`). The digest of a whole
        stream is kept and extended as it grows.

        Args:
            seat: the seat, or ``None`` for onlookers.
            length: how many entries (0 to the stream's length), ``None``: all.

        Raises:
            InvalidAction: code ``bad_seat`` for a bad seat, ``bad_argument``
                for a bad ``length``.

        Example:
            >>> import cardrules, hashlib
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> g.stream_digest(0, 0) == hashlib.sha256(b"").hexdigest()
            True
            >>> g.stream_digest(0) == g.stream_digest(0, len(g.events_for(0)))
            True
        """
        key = None if seat is None else self._check_seat(seat)
        stream = self._stream_of(key)
        n = len(stream) if length is None else self._check_since(stream, length, "length")
        return self._digest_of(key, n)

    def _digest_of(self, key: int | None, n: int) -> str:
        streams = self._streams
        assert streams is not None  # built by _stream_of
        return _digest(streams.by_seat[key], n)

    @staticmethod
    def _check_since(stream: list[Event], since: object, name: str = "since") -> int:
        if type(since) is not int or not 0 <= since <= len(stream):
            shown = _describe(since)
            raise InvalidAction(
                f"{name} must be an int from 0 to {len(stream)} (the length of the stream), "
                f"got {shown}",
                code="bad_argument",
                data={name: since if type(since) is int and since.bit_length() <= 64 else shown},
            )
        return since

    def _check_seat(self, seat: object) -> int:
        """``seat`` as a seat number; InvalidAction (a ValueError) if it is not one."""
        if type(seat) is not int or not 0 <= seat < self._players:
            raise self._bad_seat(seat)
        return seat

    def _bad_seat(self, seat: object) -> InvalidAction:
        """The refusal of ``seat``, which is not a seat of this game."""
        shown = _describe(seat)
        return InvalidAction(
            f"seat must be an int from 0 to {self._players - 1}, got {shown}",
            code="bad_seat",
            data={"value": seat if type(seat) is int and seat.bit_length() <= 64 else shown},
        )

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
        return tuple(zip(self._trick_seats, (CARDS[c & 63] for c in self._trick), strict=True))

    def card_locations(self) -> dict[str, CardSet]:
        """Where every card of the pack is (for checks): ``hands``, ``trick``,
        ``won`` (tricks taken), ``dead`` (shedding games: dead tricks out of the
        game), ``undealt``, ``turned`` (the turned card when it is in no hand
        and not discarded) and ``discarded`` (cards a dealer discarded face down
        after taking the turned card)."""
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
            if self._turned >= 0 and not (hands | won | trick | self._discarded) >> self._turned & 1
            else 0
        )
        return {
            "hands": CardSet(hands),
            "trick": CardSet(trick),
            "won": CardSet(won),
            "dead": CardSet(self._dead),
            "undealt": CardSet(self._undealt),
            "turned": CardSet(turned),
            "discarded": CardSet(self._discarded),
        }

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def view(self, seat: int | None) -> View: ...
    def view(self, seat: object) -> View:
        """Everything ``seat`` may know now, and nothing more.

        Args:
            seat: the seat; ``None`` for an onlooker (:meth:`public_view`).

        Returns:
            A frozen :class:`View`; ``view.to_dict()`` is JSON-ready.

        Raises:
            InvalidAction: if ``seat`` is not a seat number or ``None``.
        """
        if seat is None:
            return self._view(None, "public")
        return self._view(self._check_seat(seat), "seat")

    def public_view(self) -> View:
        """What an onlooker at the table sees: only what every seat sees (the
        same as ``view(None)``). No hand (``hand`` is ``None``), no hidden bid,
        no passed, discarded or face-down card, no forehead hand, no legal
        action; ``seat`` is ``None`` and ``audience`` is ``"public"``;
        ``seat_order`` starts at seat 0. Safe to send to anyone.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> v = g.public_view()
            >>> v.hand is None and v.visible_hands == () and v.audience
            'public'
        """
        return self._view(None, "public")

    def omniscient_view(self) -> View:
        """Every hand shown (in ``visible_hands``, every seat's), every bid, every
        dead and discarded card: for commentary, tests and analysis. NEVER send
        it to a player, or to anyone who may tell one; ``audience`` is
        ``"omniscient"`` so that a server can refuse to send it.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> v = g.omniscient_view()
            >>> len(v.visible_hands), v.audience
            (4, 'omniscient')
        """
        return self._view(None, "omniscient")

    def _view(self, seat: int | None, audience: str) -> View:
        """The view of ``seat`` (``None``: onlookers, or everything when
        ``audience`` is ``"omniscient"``)."""
        n = self._players
        omni = audience == "omniscient"
        own = seat is not None and self._sees_own(seat)
        hand = _cards_of(self._hands[seat]) if own and seat is not None else None
        hidden_bids = self._phase == _BID and self._waiting is not None and not omni
        bids = tuple(
            None if b < 0 or (hidden_bids and s != seat) else b for s, b in enumerate(self._bids)
        )
        played, dead = self._played_and_dead(seat, omni)
        pass_to, passed, received, known = self._pass_and_known(seat)
        last, last_hand = self._last_done()
        discarded: tuple[Card, ...] = ()
        # The discards are seen by the seat that made them: the dealer who took
        # the turned card, or the declarer who took the kitty.
        if omni or seat == (self._maker if self._rules.kitty else self._dealer):
            discarded = _cards_of(self._discarded)
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
            visible_hands=self._visible_hands(seat, omni),
            hand_counts=tuple(h.bit_count() for h in self._hands),
            bids=bids,
            bid_made=tuple(b >= 0 for b in self._bids),
            blind=tuple(self._blind),
            tricks_won=tuple(self._tricks),
            trick=self.current_trick(),
            leader=None if self._phase != _PLAY else self._leader,
            last_trick=last,
            played=_cards_of(played),
            dead=_cards_of(dead),
            dead_count=self._dead.bit_count(),
            known_hands=known,
            out=tuple(self._out),
            knocked_out=_knocked_out(self._events) if self._rules.knockout else (),
            mode=self._variant.mode.value,
            direction=self._variant.direction.value,
            seat_order=(0, *self._order[0][:-1]) if seat is None else self._order[seat],
            pack_size=len(self._rules.pack),
            pack_removed=self._rules.pack_removed,
            jokers=self._rules.pack_jokers,
            special_powers=self._rules.special_view,
            card_names=self._rules.card_names_view,
            jokers_without_trumps=self._rules.joker_no_trump_view,
            trump_order=tuple(CARDS[c] for c in self._ranks.top),
            pass_to=pass_to,
            passed=passed,
            received=received,
            card_points=self._rules.points_view,
            higher_wins=self._variant.scoring.higher_wins,
            trump_maker=None if self._maker < 0 else self._maker,
            downtown=self._downtown,
            contract=(
                None
                if self._contract < 0
                else self._rules.contracts[self._contract].label.removeprefix("bid ")
            ),
            alone=None if self._alone < 0 else self._alone,
            defender_alone=None if self._defender < 0 else self._defender,
            showed_out=self._showed_out(),
            discarded=discarded,
            bidders=_bidders(self) if self._rules.bid_style else (),
            trumps_broken=self._trumps_broken(),
            scores=_fractions(self._scores),
            teams=self._rules.teams,
            counters=self.counters,
            to_act=self.to_act,
            waiting_for=self.waiting_order,
            bid_range=self._rules.bid_range(self._size) if self._rules.bid_style else None,
            forbidden_bids=self._forbidden_bids(seat, omni),
            legal_actions=() if seat is None else self.legal_actions(seat),
            result=self.result,
            version=self.version,
            last_hand=last_hand,
            audience=audience,
            take_backs=_policy(self).value,
            take_back_request=self._request,
        )

    def _visible_hands(
        self, seat: int | None, omni: bool
    ) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """``View.visible_hands``: every hand for the all-seeing view; the other
        seats' hands while a forehead hand is bid; else none."""
        n = self._players
        if omni:
            return tuple((s, _cards_of(self._hands[s])) for s in range(n))
        if self._phase == _BID and self._forehead and seat is not None:
            return tuple((s, _cards_of(self._hands[s])) for s in range(n) if s != seat)
        return ()

    def _played_and_dead(self, seat: int | None, omni: bool) -> tuple[int, int]:
        """The masks of ``View.played`` (won, dead and trick cards) and
        ``View.dead`` (the dead cards ``seat`` sees) of the view of ``seat``."""
        # The won, dead and trick cards are disjoint: their mask in card order is
        # the sorted list of them.
        played = 0
        for w in self._won:
            played |= w
        if self._rules.dead_face_up or omni:
            dead = self._dead
        else:
            dead = 0 if seat is None else self._dead_by[seat]
        played |= dead
        for c in self._trick:
            played |= _BITS[c]
        return played, dead

    def _pass_and_known(
        self, seat: int | None
    ) -> tuple[
        int | None,
        tuple[Card, ...],
        tuple[Card, ...],
        tuple[tuple[int, tuple[Card, ...]], ...],
    ]:
        """``View.pass_to``, ``passed``, ``received`` and ``known_hands`` of the
        view of ``seat``."""
        n = self._players
        known_masks = self._known
        pass_to: int | None = None
        passed: tuple[Card, ...] = ()
        received: tuple[Card, ...] = ()
        if self._pass_distance and seat is not None:
            # The pass: this seat's own chosen cards, those it received once they
            # changed hands, and where the cards it passed are (if still held).
            target = _pass_target(self, seat)
            pass_to = target
            passed = _cards_of(self._chosen[seat])
            if self._phase != _PASS:
                source = self._order[seat][n - 1 - self._pass_distance]
                received = _cards_of(self._chosen[source])
                known_masks = known_masks[:]
                known_masks[target] |= self._chosen[seat]
        known = tuple(
            (s, _cards_of(known_masks[s] & self._hands[s]))
            for s in range(n)
            if s != seat and known_masks[s] & self._hands[s]
        )
        return pass_to, passed, received, known

    def _forbidden_bids(self, seat: int | None, omni: bool) -> tuple[ForbiddenBid, ...]:
        """``View.forbidden_bids`` for ``seat`` (``None``: an onlooker; ``omni``:
        the all-seeing view): the forbidden bids of each seat to bid now, in
        bidding order. What forbids a bid follows from the hand size and the
        bids made (the hook: their total), which every seat sees while bids are
        made in turn. While bids are hidden (made all at once) a seat sees only
        its own, which its legal actions tell it anyway (the engine has no hook
        then: the validator refuses it, as it would tell the hidden bids)."""
        if self._phase != _BID:
            return ()
        hidden = self._waiting is not None and not omni
        out: tuple[ForbiddenBid, ...] = ()
        # The seats to bid (not one that may only change its bid), in order.
        bidding = (self._to_act,) if self._waiting is None else self._waiting
        for s in bidding:
            if hidden and s != seat:
                continue
            out += _forbidden_bids(self, s)
        return out

    def _showed_out(self) -> tuple[tuple[Suit, ...], ...]:
        """The suits each seat has not followed this hand (``View.showed_out``),
        in the order it showed out of them."""
        found: list[list[Suit]] = [[] for _ in range(self._players)]
        for s, suit in self._shown_out():
            found[s].append(_SUITS[suit])
        return tuple(map(tuple, found))

    def _void_masks(self) -> list[int]:
        """:meth:`_showed_out` as a mask of suits for each seat (bit ``s`` for suit ``s``)."""
        masks = [0] * self._players
        for s, suit in self._shown_out():
            masks[s] |= 1 << suit
        return masks

    def _shown_out(self) -> list[tuple[int, int]]:
        """Each time a seat first did not follow a suit this hand, in order:
        (the seat, the suit led), read from this hand's completed tricks in the
        log (one pass back to the hand's deal) and the current trick."""
        suit_of = self._ranks.suit_of
        shown = [0] * self._players  # each seat's suits found, as a mask
        out: list[tuple[int, int]] = []
        events = self._events
        tricks: list[tuple[Sequence[int], Sequence[int]]] = [(self._trick_seats, self._trick)]
        i = len(events) - 1
        while i >= 0:
            e = events[i]
            kind = e[0]
            if kind == "deal":
                break
            if kind in _TRICK_KINDS:
                tricks.append((e[2], e[3]))
            i -= 1
        # Oldest trick first (the current one was put first, so it comes last).
        for seats, cards in reversed(tricks):
            if not cards:
                continue
            led = suit_of[cards[0]]
            if led > 3:  # not a suit (no card leads outside the four)
                continue
            bit = 1 << led
            for s, c in zip(seats[1:], cards[1:], strict=False):
                if suit_of[c] != led and not shown[s] & bit:
                    shown[s] |= bit
                    out.append((s, led))
        return out

    def _last_done(self) -> tuple[tuple[tuple[int, Card], ...], HandResult | None]:
        """The last completed trick and the last hand's score, from the log: within
        a hand, its previous trick (and no score); between the scoring of a hand
        and the next hand's first card played, that hand's last trick and its
        score: they stay through the next hand's bidding, passing and calls, so
        that people see them before the play goes on. Reads the log back only
        to the current hand's deal (the hand before's, when no card of the
        current hand has been played yet)."""
        trick: tuple[tuple[int, Card], ...] = ()
        score: Entry | None = None
        dealt = False  # passed the current hand's deal (now in the hand before)
        acted = False  # a card of the current hand was seen played
        log = self._events
        for i in range(len(log) - 1, -1, -1):
            ev = log[i]
            kind = ev[0]
            if kind in _TRICK_KINDS:
                # Every card of a trick is played face up, so the trick just
                # completed is shown whole to every seat, even a dead trick
                # that goes face down (face down: nobody looks back at it later).
                trick = tuple(zip(ev[2], (CARDS[c & 63] for c in ev[3]), strict=True))
                break
            if kind == "score":
                if score is None:
                    score = ev
            elif kind == "deal":
                if acted or dealt:
                    break
                dealt = True
            elif not dealt and kind in _PLAY_KINDS:
                acted = True
        last_hand: HandResult | None = None
        if score is not None:
            last_hand = HandResult(
                hand_number=score[1],
                bids=tuple(None if b < 0 else b for b in score[2]),
                tricks=tuple(score[3]),
                points=tuple(map(Fraction, score[4])),
                totals=tuple(map(Fraction, score[5])),
                last_trick=trick,
                cases=self.hand_cases(score[1]),
            )
        return trick, last_hand

    def _trumps_broken(self) -> bool:
        """Whether trumps are broken: by the file's ``broken by:`` rule when a
        card-set rule bars unbroken suits, else whether a trump has been played
        to a trick this hand."""
        trump = self._trump
        if trump < 0:
            return False
        if self._rules.track_breaks:
            return bool(self._broken_suits >> trump & 1)
        played = 0
        for w in self._won:
            played |= w
        played |= self._dead
        for c in self._trick:
            played |= _BITS[c]
        return bool(played & self._ranks.suit_masks[trump])

    def clone(self) -> Game:
        """An independent copy (cheap: a few list copies), for search."""
        # An empty shell: Game.__new__ in pure Python (no call of __init__ with
        # its keyword arguments); the compiled class is built by its own
        # constructor, a native call.
        g = Game(self._variant, _blank=True) if _COMPILED else _new_game(Game)
        # BEGIN the copy (written by cardrules/engine/state/slots.py)
        g._rules = self._rules
        g._variant = self._variant
        g._players = self._players
        g._seed = self._seed
        g._first_dealer_given = self._first_dealer_given
        g._max_tricks = self._max_tricks
        g._decks = self._decks
        g._decks_reuse = self._decks_reuse
        g._draws = self._draws
        g._cuts = self._cuts
        g._forced = self._forced[:]
        g._sizes = self._sizes
        g._largest = self._largest
        g._order = self._order
        g._hand_index = self._hand_index
        g._size = self._size
        g._redeals = self._redeals
        g._redeal_run = self._redeal_run
        g._redeal_prev = self._redeal_prev
        g._dealer = self._dealer
        g._turned = self._turned
        g._undealt = self._undealt
        g._hands = self._hands[:]
        g._known = self._known
        g._seats = self._seats
        g._seats_per_trick = self._seats_per_trick
        g._out = self._out
        g._dead = self._dead
        g._dead_by = self._dead_by
        g._trump = self._trump
        g._ranks = self._ranks
        g._won = self._won[:]
        g._tricks = self._tricks[:]
        g._bids = self._bids
        g._blind = self._blind
        g._looked = self._looked
        g._forehead = self._forehead
        g._phase = self._phase
        g._to_act = self._to_act
        g._waiting = None if self._waiting is None else self._waiting[:]
        g._bid_pos = self._bid_pos
        g._auction_out = self._auction_out
        g._contract = self._contract
        g._contract_seat = self._contract_seat
        g._amender = self._amender
        g._trick = self._trick[:]
        g._trick_seats = self._trick_seats[:]
        g._leader = self._leader
        g._winning_card = self._winning_card
        g._winning_seat = self._winning_seat
        g._broken_prev = self._broken_prev
        g._broken_suits = self._broken_suits
        g._forced_lead = self._forced_lead
        g._chosen = self._chosen
        g._pass_distance = self._pass_distance
        g._maker = self._maker
        g._alone = self._alone
        g._defender = self._defender
        g._discarded = self._discarded
        g._call_stage = self._call_stage
        g._downtown = self._downtown
        g._misere = self._misere
        g._open_seat = self._open_seat
        g._kitty = self._kitty
        g._call_pos = self._call_pos
        g._next_seat = self._next_seat
        g._next_seat_all = self._next_seat_all
        g._tricks_played = self._tricks_played
        g._total_tricks = self._total_tricks
        g._scores = self._scores
        g._counters = self._counters
        g._hand_cases = self._hand_cases
        g._extra = self._extra
        g._events = self._events[:]
        g._streams = _share(self._streams)
        g._legal = self._legal
        g._legal_mask = self._legal_mask
        g._result = self._result
        g._undo = None if self._undo is None else self._undo[:]
        g._take_backs = self._take_backs
        g._request = self._request
        g._retracted = self._retracted
        g._history = self._history
        # END the copy
        return g

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def sample_world(self, seat: int, rng: random.Random) -> Game: ...
    def sample_world(self, seat: object, rng: object) -> Game:
        """A full game that ``seat`` cannot tell from this one, its hidden
        cards drawn at random: for search (determinized Monte-Carlo, ISMCTS).

        The world is built from ``seat``'s event stream only: its
        :meth:`view` and :meth:`events_for` of ``seat`` equal this game's;
        every card the seat has not seen is drawn uniformly among the deals
        consistent with what it has seen (cards played and by whom, voids and
        every other constraint a play revealed under the rules, passed,
        picked-up and turned-up cards); other seats' hidden passes, discards
        and bids are drawn among the legal ones; hands after the current one
        are dealt from a fresh seed drawn from ``rng``. See
        :mod:`cardrules.engine.search.worlds` and docs/sampling.md for exactly what
        is uniform.

        Args:
            seat: the seat whose information the world keeps.
            rng: a :class:`random.Random`; the same state of it gives the same world.

        Returns:
            A new, independent :class:`Game` (saves, replay and clone work on it).

        Raises:
            InvalidAction: ``bad_seat`` for a bad seat, ``bad_argument`` if
                ``rng`` is not a :class:`random.Random`.
            IllegalAction: ``no_world`` if no consistent world was found within
                the attempts' bound (:data:`cardrules.engine.search.worlds.MAX_ATTEMPTS`).

        Example:
            >>> import cardrules, random
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> w = g.sample_world(0, random.Random(7))
            >>> w.view(0) == g.view(0) and w.events_for(0) == g.events_for(0)
            True
            >>> w.hand(0) == g.hand(0)
            True
        """
        from cardrules.engine.search.worlds import sample_world

        any_seat: Any = seat
        any_rng: Any = rng
        return sample_world(self, any_seat, any_rng)

    def deals(self) -> tuple[tuple[tuple[CardSet, ...], Card | None], ...]:
        """Every hand's deal so far, first hand first, as ``(hands, turned)``:
        each seat's cards as dealt (a :class:`CardSet` per seat) and the card
        turned up (``None``: none). All-seeing, like :meth:`hand`: never for a
        player. :meth:`from_deals` builds a game from them.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 3\\nhand size: 2\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 3, seed=4)
            >>> (hands, turned), = g.deals()
            >>> hands[0] == g.hand(0), turned == g.turned_up
            (True, True)
        """
        from cardrules.engine.search.worlds import deals_of

        return deals_of(self)

    @classmethod
    def from_deals(
        cls,
        variant: Variant,
        players: int,
        deals: Sequence[tuple[Sequence[CardSet], Card | None]],
        actions: Iterable[tuple[int, Action]] = (),
        *,
        seed: int | None = None,
        first_dealer: int | None = None,
        max_tricks: int | None = None,
    ) -> Game:
        """A game built from a given state: its first hands dealt exactly
        ``deals`` (as :meth:`deals` gives them; later hands are shuffled from
        ``seed``), then ``actions`` (``(seat, action)`` pairs) applied in order.

        Raises:
            SaveError: if a deal is not one the rules can deal, or there are
                more deals than the game can deal.
            IllegalAction: if an action is refused.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 3\\nhand size: 2\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 3, seed=4)
            >>> seat, bid = g.to_act, g.legal_actions()[0]
            >>> g.apply(bid, seat)
            >>> again = cardrules.Game.from_deals(
            ...     g.variant, 3, g.deals(), [(seat, bid)], first_dealer=g.dealer
            ... )
            >>> again.hand(1) == g.hand(1) and again.view(1) == g.view(1)
            True
        """
        from cardrules.engine.search.worlds import game_from_deals

        any_deals: Any = deals
        return game_from_deals(
            cls,
            variant,
            players,
            any_deals,
            actions,
            seed=seed,
            first_dealer=first_dealer,
            max_tricks=max_tricks,
        )

    def __copy__(self) -> Game:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self._variant == other._variant
            and self._events == other._events
            and self._request == other._request
            and self._retracted == other._retracted
            and self._history == other._history
        )

    def __hash__(self) -> int:
        raise TypeError("a Game is mutable and cannot be hashed")

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.phase}, seat {self._to_act} to act"
        return f"<Game {self._variant.name} {self._players}p hand {self.hand_number}: {state}>"

    # ----------------------------------------------------------------- OpenSpiel-flavoured

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def apply_action(self, action_id: int) -> None: ...
    def apply_action(self, action_id: object) -> None:
        """Apply an action by id (OpenSpiel style), for :meth:`current_player`.

        Like OpenSpiel's ``State.apply_action``, this acts for whoever is to
        move, by design (see :meth:`apply_as_current`); a server that hears
        from several clients uses :meth:`apply` with the client's seat.

        Raises:
            InvalidAction: if ``action_id`` is not an action id.
            IllegalAction: as :meth:`apply`.
        """
        if action_id.__class__ is int and 0 <= action_id < 52:
            # The play of a card (never an Amend): the integer path.
            self.apply_id(action_id, self._to_act)
            return
        # Action.from_id checks the id (an Any argument: no compiled check here).
        any_id: Any = action_id
        self.apply_as_current(Action.from_id(any_id))

    # ----------------------------------------------------------------- the integer path

    @overload
    def legal_mask(self) -> int: ...
    @overload
    def legal_mask(self, seat: int | None) -> int: ...
    def legal_mask(self, seat: object = None) -> int:
        """The legal action ids of a seat as one int: bit ``i`` is set exactly
        when the action of id ``i`` is among :meth:`legal_actions` (ids of the
        special cards, 400 to 429, are bits 400 to 429). For learning and search
        code that works with ids: in the play of a standard pack the mask is the
        engine's own mask of legal cards, read without building any action.

        Args:
            seat: the seat to ask about; ``None`` for :attr:`to_act` (as
                :meth:`legal_actions`).

        Returns:
            The mask (0 when the seat may not act).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> m = g.legal_mask()
            >>> [i for i in range(m.bit_length()) if m >> i & 1] == g.legal_action_ids()
            True
        """
        if self._phase == _PLAY and (
            seat is None or (seat.__class__ is int and seat == self._to_act)
        ):
            if self._legal is None:
                _play_legal(self)
            mask = self._legal_mask
            # The standard cards' bits are their Play ids; jokers, special cards,
            # copies and a shedding game's Take are counted one by one below.
            if not mask >> 52 and not self._rules.take_hand:
                return mask
        any_seat: Any = seat  # legal_actions checks it
        out = 0
        for a in self.legal_actions(any_seat):
            out |= 1 << a.id
        return out

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def apply_id(self, action_id: int, seat: int) -> None: ...
    def apply_id(self, action_id: object, seat: object) -> None:
        """:meth:`apply` of the action of id ``action_id`` for ``seat``: the
        integer path. The play of a legal standard card is made without
        building or looking up its action; anything else is
        ``apply(Action.from_id(action_id), seat)``.

        Raises:
            InvalidAction: ``bad_action`` if ``action_id`` is not an action id,
                ``bad_seat`` for a bad seat.
            IllegalAction: as :meth:`apply`, with the same codes; the game is
                then unchanged.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> while not g.is_terminal():
            ...     m = g.legal_mask()
            ...     g.apply_id((m & -m).bit_length() - 1, g.current_player())
            >>> g.result.finished
            True
        """
        if (
            self._phase == _PLAY
            and action_id.__class__ is int
            and seat.__class__ is int
            and seat == self._to_act
            and self._request is None
        ):
            c: int = action_id  # an int, checked above
            if 0 <= c < 52:
                if self._legal is None:
                    _play_legal(self)
                if self._legal_mask >> c & 1:
                    _play_card(self, self._to_act, c)
                    return
        any_id: Any = action_id  # Action.from_id checks it
        any_seat: Any = seat
        self.apply(Action.from_id(any_id), any_seat)

    @overload
    def legal_action_ids(self) -> list[int]: ...
    @overload
    def legal_action_ids(self, seat: int | None) -> list[int]: ...
    def legal_action_ids(self, seat: object = None) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        if seat is None:
            # The seat to act (the integer path's loop): its cached legal set.
            legal = self._legal
            if legal is None:
                legal = _play_legal(self) if self._phase == _PLAY else self._legal_outside_play()
            if _COMPILED and self._phase == _PLAY:
                # Compiled, the bits of the mask of legal cards (the standard
                # cards' ids) are cheaper than the actions' ids (Python objects).
                m = self._legal_mask
                if not m >> 52 and not self._rules.take_hand:
                    ids: list[int] = []
                    k = 0
                    while m:
                        b = m & 255
                        if b:
                            ids.extend(_BYTE_IDS[k][b])
                        m >>= 8
                        k += 1
                    return ids
            return [a.id for a in legal]
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
        """``seat``'s perfect-recall information state as text: the same as
        :meth:`information_state` (one line per event of
        :meth:`events_for`). :meth:`observation_string` is the JSON of the
        view (what the seat knows now, not how it came to be).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        from cardrules.engine.views.infostate import information_state

        return information_state(self, self._check_seat(seat))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def information_state(self, seat: int) -> str: ...
    def information_state(self, seat: object) -> str:
        """``seat``'s perfect-recall information state: one line per event of
        ``events_for(seat)`` (its kind, then its fields but the version as a
        JSON list). Equal for two games exactly when the seat's event streams
        are equal, so it tells apart every two histories the seat can: who
        played which card in every trick and in what order, the bids, passes,
        reveals and trump choices it saw. See
        :mod:`cardrules.engine.views.infostate`.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 3\\nhand size: 2\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 3, seed=4)
            >>> g.information_state(0).splitlines()[-1]
            'trump[1,"diamonds","10♦"]'
        """
        from cardrules.engine.views.infostate import information_state

        return information_state(self, self._check_seat(seat))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def information_state_tensor(self, seat: int) -> list[float]: ...
    def information_state_tensor(self, seat: object) -> list[float]:
        """``seat``'s perfect-recall information state as a fixed-length list of
        floats, for one-hand trick-taking games; the layout and its length
        (:func:`~cardrules.engine.views.infostate.information_state_tensor_size`)
        follow from the variant and the number of players.

        Raises:
            InvalidAction: if ``seat`` is not a seat number, or the game is not
                a one-hand trick-taking game (use :meth:`information_state`).
        """
        from cardrules.engine.views.infostate import information_state_tensor

        return information_state_tensor(self, self._check_seat(seat))

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def observation_string(self, seat: int) -> str: ...
    def observation_string(self, seat: object) -> str:
        """A compact text of :meth:`view` (everything ``seat`` may know now):
        its JSON. Not an information state: two histories that leave the same
        view (such as which opponent showed out of a suit) give equal strings.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.
        """
        return self._view(self._check_seat(seat), "seat").to_json()

    # ----------------------------------------------------------------- observations

    @overload
    def observation(self, seat: int, numpy: Literal[False] = False) -> list[float]: ...
    @overload
    def observation(self, seat: int, numpy: Literal[True]) -> Any: ...
    def observation(self, seat: object, numpy: bool = False) -> Any:
        """Everything ``seat`` may know, as a flat vector of floats, built from
        :meth:`view` (the slices are :func:`~cardrules.observation_layout`'s).

        Args:
            seat: the seat.
            numpy: return a ``numpy`` float32 array instead of a list (needs
                numpy installed).

        Raises:
            InvalidAction: if ``seat`` is not a seat number.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> obs = g.observation(0)
            >>> len(obs) == cardrules.observation_layout(g.variant, 4)[-1].stop
            True
            >>> sum(obs[:52]) == g.hand_size
            True
        """
        any_seat: Any = seat  # view checks it
        return _observation(self, any_seat, numpy)

    @overload  # type: ignore[misc]  # one public signature; the implementation takes object
    def action_mask(self, seat: int) -> list[int]: ...
    def action_mask(self, seat: object) -> list[int]:
        """1 for each legal action id of ``seat`` (:meth:`legal_actions`), 0 for
        every other id, as a list of length ``NUM_ACTIONS``.

        Raises:
            InvalidAction: if ``seat`` is not a seat number.

        Example:
            >>> import cardrules
            >>> rules = "game: doc\\nplayers: 4\\nhand size: 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(rules), 4, seed=1)
            >>> m = g.action_mask(g.to_act)
            >>> [i for i, x in enumerate(m) if x] == g.legal_action_ids(g.to_act)
            True
        """
        any_seat: Any = seat  # legal_actions checks it
        return _action_mask(self, any_seat)

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
        every check of :func:`cardrules.load_text`; the variant it gives is
        kept (the last 64 such texts that passed every check, with the save's
        idle settings), so that restoring another save of the same rules does
        not parse and check them again. Every action is replayed and checked
        each time.

        Raises:
            SaveError: for anything malformed, inconsistent or impossible, with
                a message saying what.
        """
        return _load_text(text, variant, cls)


def replay(variant: Variant, events: Iterable[Event | Entry]) -> Game:
    """Rebuild a game from its log (:attr:`Game.events`, or the tuples of
    :meth:`~cardrules.engine.events.Event.astuple`).

    The deals are taken from the log and the actions re-applied, so the result
    equals the original game (``replay(v, g.events) == g``), but for what the
    log does not hold: the table's take-back policy, a pending take-back
    request and who made actions players took back (:meth:`Game.to_json`
    keeps them). A log redacted for one seat cannot be replayed.

    Raises:
        SaveError: if the log is malformed or does not follow the rules.
    """
    return _replay(variant, events, Game)
