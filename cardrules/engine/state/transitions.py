"""The shared transitions of a game: log an event, give the turn, enter a phase,
set the legal set.

Every phase of a hand (the deal, the bidding, the pass, the choice of trumps,
the play, the end) changes the same few slots of
:class:`~cardrules.engine.game.Game`: the log (``_events``), the seat to act
(``_to_act``), the phase (``_phase``) and the legal actions of the seat to act
(``_legal``, with ``_legal_mask`` in the play). This module owns them
(:data:`~cardrules.engine.state.slots.SLOTS`): the phase modules call these
functions instead of writing the slots, so that what a transition does is
written once, and ``tests/test_state_owners.py`` fails on a write anywhere else.

The one exception is the hot path of the engine, the play of a card
(:func:`~cardrules.engine.phases.trick._play_card`), which makes the same writes
inline: it runs for every card of every playout, where a call costs more than
the write (its slot declarations list ``trick`` beside the owner).

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardrules.engine.actions import Action
    from cardrules.engine.events import Entry
    from cardrules.engine.game import Game


def log_event(g: Game, entry: Entry) -> None:
    """Add ``entry`` to the end of the game's log."""
    g._events.append(entry)


def unlog_event(g: Game) -> Entry:
    """Take the last entry off the game's log and return it (an undo)."""
    return g._events.pop()


def give_turn(g: Game, seat: int) -> None:
    """Make ``seat`` the seat to act (-1: nobody, the game is over)."""
    g._to_act = seat


def enter_phase(g: Game, phase: int) -> None:
    """Enter the phase ``phase`` of the hand (``_BID``, ``_PASS``, ``_TRUMPS``,
    ``_PLAY`` or ``_OVER``, from :mod:`~cardrules.engine.state.tables`)."""
    g._phase = phase


def set_legal(g: Game, legal: tuple[Action, ...], mask: int) -> None:
    """The legal actions of the seat to act are ``legal`` (lowest id first); in
    the play, ``mask`` is the mask of the cards among them (else 0)."""
    g._legal = legal
    g._legal_mask = mask


def forget_legal(g: Game) -> None:
    """The legal actions of the seat to act are to be worked out again when
    next asked for (:meth:`Game.legal_actions`, :meth:`Game.apply`)."""
    g._legal = None


def forget_legal_cards(g: Game) -> None:
    """As :func:`forget_legal`, and no card may be played until they are."""
    g._legal = None
    g._legal_mask = 0
