"""The setting of the pack: ``deck``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from cardrules.cards import CardSet, Rank
from cardrules.rules import Variant

from .declaration import SettingSpec, always
from .effect_checks import Context, NoOp

__all__ = ["PACK"]


def _deck(v: Variant) -> str:
    low = v.deck.lowest
    text = "standard 52" if low == 2 else f"{Rank(low).label} to ace"
    if v.deck.jokers:
        text += f" with {v.deck.jokers} joker" + ("s" if v.deck.jokers > 1 else "")
    if v.deck.removed:
        text += ("," if v.deck.jokers else "") + " without "
        text += " ".join(str(c) for c in CardSet(v.deck.removed))
    elif v.deck.removed_for:
        text += (
            ("," if v.deck.jokers else "")
            + " without "
            + ", ".join(
                " ".join(str(c) for c in CardSet(mask))
                + f" for {lo if lo == hi else f'{lo} to {hi}'} players"
                for lo, hi, mask in v.deck.removed_for
            )
        )
    return text


def _check_deck(c: Context) -> Iterator[NoOp]:
    counts = set(c.v.players.counts())
    for lo, hi, _mask in c.v.deck.removed_for:
        if not counts & set(range(lo, hi + 1)):
            what = f"{lo}" if lo == hi else f"{lo} to {hi}"
            yield NoOp(
                "deck",
                f"the cards out `for {what} players` in `deck` have no effect: the game is "
                f"for {c.v.players.min} to {c.v.players.max} players",
                ("players",),
                hint="take them out of the line",
                part=True,
            )


#: The pack's settings.
PACK: Final = (
    SettingSpec(
        "deck",
        "K_DECK",
        "deck",
        ("deck.removed", "deck.lowest", "deck.jokers", "deck.removed_for"),
        render=_deck,
        written=always,
        where="every game; cards out for a number of players only for a number the game allows",
        check=_check_deck,
        page_rule="Pack",
        old_saves={"deck.lowest": 2, "deck.jokers": 0, "deck.removed_for": ()},
    ),
)
