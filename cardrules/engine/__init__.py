"""The generic card-game engine: :class:`Game`, actions, views and :func:`replay`.

Besides the public surface at its top (:mod:`~cardrules.engine.game`,
:mod:`~cardrules.engine.actions`, :mod:`~cardrules.engine.events`,
:mod:`~cardrules.engine.match`), the engine's modules live in sub-packages by
job: :mod:`~cardrules.engine.phases` (the phases of a hand),
:mod:`~cardrules.engine.state` (the state and what it is built from),
:mod:`~cardrules.engine.views` (what a seat is shown) and
:mod:`~cardrules.engine.search` (worlds and playouts). The older paths
``cardrules.engine.history``, ``cardrules.engine.infostate``,
``cardrules.engine.notation``, ``cardrules.engine.worlds`` still import, as the
same modules.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from cardrules.engine.actions import (
    NUM_ACTIONS,
    PASS_BASE,
    Action,
    Alone,
    Amend,
    Bid,
    Contract,
    Decline,
    Discard,
    Downtown,
    Keep,
    Look,
    Misere,
    Name,
    OrderUp,
    Pass,
    Play,
    Show,
    Take,
    WithPartner,
)
from cardrules.engine.game import Event, Game, replay, variant_fingerprint
from cardrules.engine.match import Match
from cardrules.engine.views.observation_vector import ObservationSlice, observation_layout
from cardrules.engine.views.view import ForbiddenBid, HandResult, Result, TakeBackRequest, View

if TYPE_CHECKING:
    import importlib.abc

# Old module paths the documentation has shown, from before the engine's modules
# moved into sub-packages: ``import cardrules.engine.notation`` (and ``from
# cardrules.engine import notation``) give the module that now lives at
# ``cardrules.engine.views.notation``, the same object. A finder on
# ``sys.meta_path`` maps the old name when it is first imported, so nothing is
# imported before it is asked for.
_OLD_PATHS = {
    "cardrules.engine.history": "cardrules.engine.state.history",
    "cardrules.engine.infostate": "cardrules.engine.views.infostate",
    "cardrules.engine.notation": "cardrules.engine.views.notation",
    "cardrules.engine.worlds": "cardrules.engine.search.worlds",
}


class _OldPathFinder:
    """Imports an old module path as the module it moved to (a finder on
    ``sys.meta_path`` and the loader of the specs it finds)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _OLD_PATHS:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("importlib.abc.Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return importlib.import_module(_OLD_PATHS[spec.name])

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module ran when it was imported by its new path."""


if not any(isinstance(f, _OldPathFinder) for f in sys.meta_path):
    sys.meta_path.append(_OldPathFinder())

__all__ = [
    "NUM_ACTIONS",
    "PASS_BASE",
    "Action",
    "Alone",
    "Amend",
    "Bid",
    "Contract",
    "Decline",
    "Discard",
    "Downtown",
    "Event",
    "ForbiddenBid",
    "Game",
    "HandResult",
    "Keep",
    "Look",
    "Match",
    "Misere",
    "Name",
    "ObservationSlice",
    "OrderUp",
    "Pass",
    "Play",
    "Result",
    "Show",
    "Take",
    "TakeBackRequest",
    "View",
    "WithPartner",
    "observation_layout",
    "replay",
    "variant_fingerprint",
]
