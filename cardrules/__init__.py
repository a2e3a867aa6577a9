"""cardrules: play card games from rules written as small text files.

The public surface::

    import cardrules
    v = cardrules.load("kachuful")            # a built-in by name, or a path
    g = cardrules.Game(v, players=4, seed=7)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
"""

from __future__ import annotations

from cardrules.cards import Card, CardSet, Rank, Suit, card
from cardrules.errors import (
    CardError,
    CardrulesError,
    IllegalAction,
    InvalidAction,
    SaveError,
    VariantError,
)
from cardrules.rules import Variant

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardError",
    "CardSet",
    "CardrulesError",
    "IllegalAction",
    "InvalidAction",
    "Rank",
    "SaveError",
    "Suit",
    "Variant",
    "VariantError",
    "__version__",
    "card",
]
