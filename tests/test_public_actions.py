"""The actions a player sends are importable from ``cardrules`` and ``cardrules.engine``."""

from __future__ import annotations

import doctest

import cardrules
import cardrules.engine
from cardrules.engine import actions


def test_alone_and_with_partner_are_public() -> None:
    """Euchre-style games ask the maker for ``Alone()`` or ``WithPartner()``
    (docs/dsl.md): both are exported where ``Play`` and ``Bid`` are."""
    for name in ("Alone", "WithPartner"):
        assert name in cardrules.__all__ and name in cardrules.engine.__all__
        assert getattr(cardrules, name) is getattr(actions, name)
        assert getattr(cardrules.engine, name) is getattr(actions, name)
    assert cardrules.Alone() is actions.Alone()
    assert cardrules.WithPartner().label == "play with partner"


def test_the_actions_doctests() -> None:
    """The examples in :mod:`cardrules.engine.actions` hold (``Alone`` among them)."""
    result = doctest.testmod(actions)
    assert result.attempted > 0 and result.failed == 0
