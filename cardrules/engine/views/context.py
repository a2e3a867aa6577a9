"""A seat's decision context: what a bot reads to decide, without a whole view.

Building a :class:`~cardrules.engine.views.view.View` reads every part of the
game a seat may know (the log of the hand for its last trick and the suits
seats showed out of, the pass, the forbidden bids, the result...), about 60
fields, at every decision. A bot reads a few of them: the random bot only
its legal actions. A :class:`DecisionContext` is the seat's view read on
demand: each field is computed from the engine's state the first time it is
read (then kept), and holds exactly what the same field of
``game.view(seat)`` holds (``tests/test_decision_context.py`` checks every
field in random games of every built-in family). The whole view is built
only when asked for (:attr:`DecisionContext.view`).

A bot that accepts a context has a ``choose_context(ctx)`` method; the drivers
(:func:`cardrules.bots.play_game`, :func:`cardrules.bots.decide`,
:func:`cardrules.simulate`, :meth:`Game.playout`) call it instead of
``choose(view)`` when it is there. A bot with only ``choose(view)`` is given
its view, as before.

Fair play: a context shows only what the seat's view shows. Its public
fields (:data:`FIELDS`), :attr:`~DecisionContext.view` and
:meth:`~DecisionContext.legal_ids`, and two of those fields as masks of card
ids (:attr:`~DecisionContext.hand_mask`, :attr:`~DecisionContext.played_mask`,
for bots that count cards with bits) and the suits each seat showed out of as
masks (:attr:`~DecisionContext.void_masks`) are the whole of its API; none of them
returns the game or anything of another seat's hidden cards. It reads the
game through one private slot while the decision is made, and the driver
closes it when the bot has answered (:meth:`DecisionContext.close`): a bot
that keeps a context cannot read the game later through it (fields read
before are kept; any other raises :class:`RuntimeError`). Python has no
private attributes: a bot that reached into ``_game`` would cheat, as one
that walked the interpreter's frames to the driver's ``game`` would with a
view; the public API is what the tests check.

Example:
    >>> import cardrules
    >>> from cardrules.engine.views.context import DecisionContext
    >>> text = "game: doc\\nplayers: 4\\nhands: list 10\\nbidding: in turn\\nscore: tricks"
    >>> g = cardrules.Game(cardrules.load_text(text), 4, seed=1)
    >>> ctx = DecisionContext(g, g.to_act)
    >>> ctx.legal_actions == g.view(g.to_act).legal_actions
    True
    >>> ctx.hand == g.view(g.to_act).hand
    True
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, Generic, TypeAlias, TypeVar, overload

from cardrules.cards import CARDS, Card, Suit
from cardrules.engine.actions import Action
from cardrules.engine.phases.bidding import _bidders
from cardrules.engine.state.compiled_rules import _fractions
from cardrules.engine.state.tables import _BID, _PHASE_NAMES, _PLAY
from cardrules.engine.views.view import View, _cards_of

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = ["FIELDS", "DecisionContext", "SeatView"]

#: The fields a context reads on demand, each the :class:`View` field of the
#: same name (every other field: through :attr:`DecisionContext.view`).
FIELDS: Final = (
    "seat",
    "players",
    "phase",
    "hand_number",
    "hand_size",
    "dealer",
    "trump",
    "turned_up",
    "hand",
    "visible_hands",
    "hand_counts",
    "bids",
    "bid_made",
    "blind",
    "tricks_won",
    "trick",
    "leader",
    "played",
    "known_hands",
    "passed",
    "out",
    "mode",
    "seat_order",
    "pack_size",
    "pack_removed",
    "jokers",
    "special_powers",
    "jokers_without_trumps",
    "trump_order",
    "card_points",
    "higher_wins",
    "teams",
    "showed_out",
    "bidders",
    "trumps_broken",
    "scores",
    "to_act",
    "legal_actions",
)


_T = TypeVar("_T")


class cached_property(Generic[_T]):  # named as functools' own
    """A field computed the first time it is read, then kept in the instance
    (:func:`functools.cached_property` without its lock, which Python 3.11
    takes at every first read: a context is read by one thread)."""

    def __init__(self, fn: Callable[[Any], _T]) -> None:
        self._fn = fn
        self._name = fn.__name__
        self.__doc__ = fn.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> cached_property[_T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...
    def __get__(self, obj: object, owner: type | None = None) -> _T | cached_property[_T]:
        if obj is None:
            return self
        value = self._fn(obj)
        obj.__dict__[self._name] = value
        return value


def _card_bits(mask: int) -> int:
    """A mask of the engine's cards as a mask of card ids: the same, but in a
    game of several packs (copies from bit 64), one bit for each card held."""
    if not mask >> 64:
        return mask
    bits = 0
    for card in _cards_of(mask):
        bits |= 1 << card
    return bits


class DecisionContext:
    """One seat's view of the game at one decision, read on demand.

    Each field (:data:`FIELDS`) equals the field of the same name of
    ``game.view(seat)``; :attr:`view` is that view, built the first time it
    is read. Valid while the decision is made: the game must not change
    until the context is closed (:meth:`close`), as the drivers do.

    Args:
        game: the game (read, never changed).
        seat: the deciding seat.

    Example:
        A bot that accepts a context (drivers call ``choose_context`` when a
        bot has it, else ``choose`` with the view)::

            >>> import cardrules
            >>> from cardrules.bots import play_game
            >>> class LowestBot:
            ...     def choose(self, view):
            ...         return view.legal_actions[0]
            ...     def choose_context(self, ctx):
            ...         return ctx.legal_actions[0]  # the same code reads either
            >>> text = "game: doc\\nplayers: 4\\nhands: list 5\\nbidding: in turn\\nscore: tricks"
            >>> g = cardrules.Game(cardrules.load_text(text), 4, seed=2)
            >>> play_game(g, [LowestBot() for _ in range(4)])
            >>> g.is_over
            True
    """

    def __init__(self, game: Game, seat: int) -> None:
        self._game: Game | None = game
        self.seat: Final = seat

    def close(self) -> None:
        """End the decision: the game is no longer read (fields read so far
        are kept; reading any other raises :class:`RuntimeError`)."""
        self._game = None

    def _g(self) -> Game:
        g = self._game
        if g is None:
            raise RuntimeError(
                "a decision context is read only while its decision is made "
                "(keep ctx.view, or the fields read, to look at it later)"
            )
        return g

    def __repr__(self) -> str:
        return f"DecisionContext(seat={self.seat})"

    @cached_property
    def view(self) -> View:
        """The seat's whole :class:`View` (``game.view(seat)``), built once."""
        return self._g().view(self.seat)

    def legal_ids(self) -> tuple[int, ...]:
        """The ids of :attr:`legal_actions`, lowest first."""
        return tuple(a.id for a in self.legal_actions)

    @cached_property
    def legal_actions(self) -> tuple[Action, ...]:
        """``View.legal_actions``: this seat's legal actions now."""
        return self._g().legal_actions(self.seat)

    @cached_property
    def players(self) -> int:
        """``View.players``."""
        return self._g()._players

    @cached_property
    def phase(self) -> str:
        """``View.phase``."""
        return _PHASE_NAMES[self._g()._phase]

    @cached_property
    def hand_number(self) -> int:
        """``View.hand_number``."""
        return self._g()._hand_index + 1

    @cached_property
    def hand_size(self) -> int:
        """``View.hand_size``."""
        return self._g()._size

    @cached_property
    def dealer(self) -> int:
        """``View.dealer``."""
        return self._g()._dealer

    @cached_property
    def trump(self) -> Suit | None:
        """``View.trump``."""
        return self._g().trump

    @cached_property
    def turned_up(self) -> Card | None:
        """``View.turned_up``."""
        return self._g().turned_up

    @cached_property
    def hand(self) -> tuple[Card, ...] | None:
        """``View.hand``: this seat's cards, ``None`` while it may not see them."""
        g = self._g()
        return _cards_of(g._hands[self.seat]) if g._sees_own(self.seat) else None

    @cached_property
    def hand_mask(self) -> int | None:
        """:attr:`hand` as a mask of card ids (bit ``c`` for card ``c``; in a
        game of several packs, one bit for a card held twice), read without
        building its cards; ``None`` while the seat may not see it."""
        g = self._g()
        return _card_bits(g._hands[self.seat]) if g._sees_own(self.seat) else None

    @cached_property
    def visible_hands(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """``View.visible_hands`` (forehead hands while they are bid)."""
        return self._g()._visible_hands(self.seat, False)

    @cached_property
    def hand_counts(self) -> tuple[int, ...]:
        """``View.hand_counts``."""
        return tuple(h.bit_count() for h in self._g()._hands)

    @cached_property
    def bids(self) -> tuple[int | None, ...]:
        """``View.bids`` (another seat's hidden bid as ``None``)."""
        g = self._g()
        seat = self.seat
        hidden = g._phase == _BID and g._waiting is not None
        return tuple(None if b < 0 or (hidden and s != seat) else b for s, b in enumerate(g._bids))

    @cached_property
    def bid_made(self) -> tuple[bool, ...]:
        """``View.bid_made``."""
        return tuple(b >= 0 for b in self._g()._bids)

    @cached_property
    def blind(self) -> tuple[bool, ...]:
        """``View.blind``."""
        return tuple(self._g()._blind)

    @cached_property
    def tricks_won(self) -> tuple[int, ...]:
        """``View.tricks_won``."""
        return tuple(self._g()._tricks)

    @cached_property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """``View.trick``."""
        return self._g().current_trick()

    @cached_property
    def leader(self) -> int | None:
        """``View.leader``."""
        g = self._g()
        return None if g._phase != _PLAY else g._leader

    @cached_property
    def played(self) -> tuple[Card, ...]:
        """``View.played``."""
        return _cards_of(self._g()._played_and_dead(self.seat, False)[0])

    @cached_property
    def played_mask(self) -> int:
        """:attr:`played` as a mask of card ids, as :attr:`hand_mask`."""
        return _card_bits(self._g()._played_and_dead(self.seat, False)[0])

    @cached_property
    def _pass_and_known(
        self,
    ) -> tuple[
        int | None,
        tuple[Card, ...],
        tuple[Card, ...],
        tuple[tuple[int, tuple[Card, ...]], ...],
    ]:
        return self._g()._pass_and_known(self.seat)

    @cached_property
    def known_hands(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """``View.known_hands``."""
        return self._pass_and_known[3]

    @cached_property
    def passed(self) -> tuple[Card, ...]:
        """``View.passed``."""
        return self._pass_and_known[1]

    @cached_property
    def out(self) -> tuple[bool, ...]:
        """``View.out``."""
        return tuple(self._g()._out)

    @cached_property
    def mode(self) -> str | None:
        """``View.mode``."""
        return self._g()._variant.mode.value

    @cached_property
    def seat_order(self) -> tuple[int, ...]:
        """``View.seat_order``."""
        return self._g()._order[self.seat]

    @cached_property
    def pack_size(self) -> int:
        """``View.pack_size``."""
        return len(self._g()._rules.pack)

    @cached_property
    def pack_removed(self) -> tuple[Card, ...]:
        """``View.pack_removed``."""
        return self._g()._rules.pack_removed

    @cached_property
    def jokers(self) -> tuple[Card, ...]:
        """``View.jokers``."""
        return self._g()._rules.pack_jokers

    @cached_property
    def special_powers(self) -> tuple[tuple[Card, int], ...]:
        """``View.special_powers``."""
        return self._g()._rules.special_view

    @cached_property
    def jokers_without_trumps(self) -> str:
        """``View.jokers_without_trumps``."""
        return self._g()._rules.joker_no_trump_view

    @cached_property
    def trump_order(self) -> tuple[Card, ...]:
        """``View.trump_order``."""
        return tuple(CARDS[c] for c in self._g()._ranks.top)

    @cached_property
    def card_points(self) -> tuple[int, ...]:
        """``View.card_points``."""
        return self._g()._variant.scoring.card_points

    @cached_property
    def higher_wins(self) -> bool:
        """``View.higher_wins``."""
        return self._g()._variant.scoring.higher_wins

    @cached_property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """``View.teams``."""
        return self._g()._rules.teams

    @cached_property
    def showed_out(self) -> tuple[tuple[Suit, ...], ...]:
        """``View.showed_out``."""
        return self._g()._showed_out()

    @cached_property
    def void_masks(self) -> tuple[int, ...]:
        """:attr:`showed_out` as a mask of suits for each seat (bit ``s`` for
        suit ``s``), read without building its suits."""
        return tuple(self._g()._void_masks())

    @cached_property
    def bidders(self) -> tuple[int, ...]:
        """``View.bidders``."""
        g = self._g()
        return _bidders(g) if g._rules.bid_style else ()

    @cached_property
    def trumps_broken(self) -> bool:
        """``View.trumps_broken``."""
        return self._g()._trumps_broken()

    @cached_property
    def scores(self) -> tuple[Fraction, ...]:
        """``View.scores``."""
        return _fractions(self._g()._scores)

    @cached_property
    def to_act(self) -> int | None:
        """``View.to_act``."""
        return self._g().to_act


#: What a bot that reads either reads: a seat's :class:`View` or its
#: :class:`DecisionContext` (the fields of :data:`FIELDS` are in both).
SeatView: TypeAlias = View | DecisionContext
