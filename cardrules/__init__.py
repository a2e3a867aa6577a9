"""cardrules: play card games from rules written as small text files.

The public surface::

    import cardrules
    v = cardrules.load("kachuful")            # a built-in by name, or a path
    g = cardrules.Game(v, players=4, seed=7)
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)
    print(g.result)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardrules.cards import Card, CardSet, Rank, Suit, card
from cardrules.dsl import format, load, load_text, parse
from cardrules.errors import (
    CardError,
    CardrulesError,
    IllegalAction,
    InvalidAction,
    NothingToUndo,
    SaveError,
    ScoreError,
    TakeBackRefused,
    VariantError,
)
from cardrules.rules import TakeBacks, Variant
from cardrules.schema import schema, schema_names

if TYPE_CHECKING:
    from cardrules.engine import (
        Action,
        Alone,
        Amend,
        Bid,
        Contract,
        Event,
        Game,
        Look,
        Match,
        Pass,
        Play,
        Result,
        View,
        WithPartner,
        observation_layout,
        replay,
    )
    from cardrules.rulebook import rulebook
    from cardrules.simulate import simulate

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Alone",
    "Amend",
    "Bid",
    "Card",
    "CardError",
    "CardSet",
    "CardrulesError",
    "Contract",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidAction",
    "Look",
    "Match",
    "NothingToUndo",
    "Pass",
    "Play",
    "Rank",
    "Result",
    "SaveError",
    "ScoreError",
    "Suit",
    "TakeBackRefused",
    "TakeBacks",
    "Variant",
    "VariantError",
    "View",
    "WithPartner",
    "__version__",
    "card",
    "format",
    "load",
    "load_text",
    "observation_layout",
    "parse",
    "replay",
    "rulebook",
    "schema",
    "schema_names",
    "simulate",
]

# Heavier parts (the engine, pages, simulation, schemas) are imported on first
# use, so that `import cardrules` and `load()` stay quick.
_LAZY = {
    "Action": ("cardrules.engine", "Action"),
    "Alone": ("cardrules.engine", "Alone"),
    "Amend": ("cardrules.engine", "Amend"),
    "Bid": ("cardrules.engine", "Bid"),
    "Contract": ("cardrules.engine", "Contract"),
    "Event": ("cardrules.engine", "Event"),
    "Game": ("cardrules.engine", "Game"),
    "Look": ("cardrules.engine", "Look"),
    "Match": ("cardrules.engine", "Match"),
    "Pass": ("cardrules.engine", "Pass"),
    "Play": ("cardrules.engine", "Play"),
    "Result": ("cardrules.engine", "Result"),
    "View": ("cardrules.engine", "View"),
    "WithPartner": ("cardrules.engine", "WithPartner"),
    "observation_layout": ("cardrules.engine", "observation_layout"),
    "replay": ("cardrules.engine", "replay"),
    "rulebook": ("cardrules.rulebook", "rulebook"),
    "simulate": ("cardrules.simulate", "simulate"),
}


def __getattr__(name: str) -> Any:
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'cardrules' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value
    return value
