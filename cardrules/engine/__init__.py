"""The generic card-game engine: :class:`Game`, actions, views and :func:`replay`."""

from __future__ import annotations

from cardrules.engine.actions import (
    NUM_ACTIONS,
    PASS_BASE,
    Action,
    Alone,
    Amend,
    Bid,
    Decline,
    Discard,
    Look,
    Name,
    OrderUp,
    Pass,
    Play,
    Take,
    WithPartner,
)
from cardrules.engine.game import Event, Game, replay, variant_fingerprint
from cardrules.engine.match import Match
from cardrules.engine.observation import ObservationSlice, observation_layout
from cardrules.engine.view import ForbiddenBid, HandResult, Result, TakeBackRequest, View

__all__ = [
    "NUM_ACTIONS",
    "PASS_BASE",
    "Action",
    "Alone",
    "Amend",
    "Bid",
    "Decline",
    "Discard",
    "Event",
    "ForbiddenBid",
    "Game",
    "HandResult",
    "Look",
    "Match",
    "Name",
    "ObservationSlice",
    "OrderUp",
    "Pass",
    "Play",
    "Result",
    "Take",
    "TakeBackRequest",
    "View",
    "WithPartner",
    "observation_layout",
    "replay",
    "variant_fingerprint",
]
