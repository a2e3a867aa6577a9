"""The trumps of each hand, worked out from the rule the engine uses.

A hand's trump suit depends on the trump rule and the hand number, and for a
turned-up trump also on the deal: when the hand uses the whole pack (hand size
times players), no card is left to turn up, and with ``no trumps when the pack
runs out`` the hand is played without trumps. The rules pages take every
statement about trumps from here, per hand and per number of players, so that a
page never says "turned-up card" for a hand the engine plays without trumps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from cardrules.rules import HandSituation, Mode, TrumpKind, TrumpNamer, Variant

__all__ = [
    "BIDDER_LABEL",
    "CONTRACT_LABEL",
    "DEALERS_CARD_LABEL",
    "MOST_TRICKS_LABEL",
    "NO_TRUMPS_LABEL",
    "ORDER_UP_LABEL",
    "TURN_UP_LABEL",
    "hand_trump_label",
    "has_trumpless_hands",
    "has_trumps",
    "no_card_hands",
    "no_card_left",
]

#: What the trumps column says for a hand whose trump is the turned-up card.
TURN_UP_LABEL = "turned-up card"
#: What the trumps column says for a hand without trumps.
NO_TRUMPS_LABEL = "no trumps"
#: ... for a hand whose trumps the highest bidder names.
BIDDER_LABEL = "named by the highest bidder"
#: ... for a hand whose trumps are the suit of the winning bid (bids in strains).
CONTRACT_LABEL = "the suit of the winning bid"
#: ... for a hand whose trumps the previous hand's winner of most tricks names.
MOST_TRICKS_LABEL = "named by the winner of most tricks"
#: ... for an order-up hand (the turned card ordered up, or a suit named).
ORDER_UP_LABEL = "ordered up or named"
#: ... for a hand whose trumps are the dealer's own last card.
DEALERS_CARD_LABEL = "dealer's last card"

#: The most tie-break hands looked at for trumps (the trumps of hands repeat with a
#: period, the trump cycle's length times the no-trump period, usually far shorter).
_EXTRA_LOOK = 2000


def no_card_left(v: Variant, players: int, size: int) -> bool:
    """True when a deal of ``size`` cards to each of ``players`` players uses the whole pack."""
    deck = v.for_players(players).deck if v.conditional else v.deck
    return size * players >= deck.size


def hand_trump_label(v: Variant, hand: int, players: int, size: int) -> str:
    """The trumps of hand ``hand`` (from 1) of ``size`` cards each for ``players`` players.

    Returns:
        A suit such as ``"spades ♠"``, :data:`TURN_UP_LABEL` or :data:`NO_TRUMPS_LABEL`.
    """
    if v.conditional:
        # The rules of this hand at this table (lines with a condition made).
        table = v.for_players(players)
        last = len(table.hand_sizes(players))
        v = table.for_hand(HandSituation(size, hand == 1, hand == last, hand > last))
    t = v.trumps
    tricks = v.mode is Mode.TRICKS
    if tricks and t.namer is TrumpNamer.HIGHEST_BIDDER:
        return CONTRACT_LABEL if v.bidding.strains else BIDDER_LABEL
    if tricks and t.is_named_hand(hand):
        return MOST_TRICKS_LABEL
    if tricks and t.kind is TrumpKind.DEALERS_CARD:
        if t.no_trump_every and hand % t.no_trump_every == 0:
            return NO_TRUMPS_LABEL
        return DEALERS_CARD_LABEL
    if tricks and t.is_turn_up_hand(hand):
        if no_card_left(v, players, size) and t.none_when_pack_empty:
            return NO_TRUMPS_LABEL
        return ORDER_UP_LABEL if t.namer is TrumpNamer.ORDER_UP else TURN_UP_LABEL
    suit = t.fixed_trump(hand)
    return NO_TRUMPS_LABEL if suit is None else f"{suit.word} {suit.symbol}"


def _hands(v: Variant, players: int) -> Iterable[tuple[int, int]]:
    """``(hand number, cards each)`` of the scheduled hands and the first tie-break hands."""
    sizes = v.hand_sizes(players)
    yield from ((i + 1, s) for i, s in enumerate(sizes))
    if sizes and v.mode is Mode.TRICKS:
        t = v.trumps
        period = math.lcm(max(1, len(t.cycle)), t.no_trump_every or 1)
        extra = min(v.winning.extra_hand_limit, period, _EXTRA_LOOK)
        largest = max(sizes)
        yield from ((len(sizes) + k, largest) for k in range(1, extra + 1))


@lru_cache(maxsize=256)
def _labels(v: Variant, counts: tuple[int, ...]) -> frozenset[str]:
    return frozenset(hand_trump_label(v, h, n, s) for n in counts for h, s in _hands(v, n) if s > 0)


def has_trumps(v: Variant, counts: Sequence[int] | None = None) -> bool:
    """True when some hand (tie-break hands too) of some count in ``counts`` has trumps.

    Args:
        v: the variant.
        counts: the numbers of players; every allowed number when ``None``.
    """
    if v.mode is Mode.SHEDDING or (
        v.trumps.kind is TrumpKind.NONE and v.trumps.namer is TrumpNamer.NOBODY
    ):
        return False
    key = tuple(counts) if counts is not None else tuple(v.players.counts())
    return any(label != NO_TRUMPS_LABEL for label in _labels(v, key))


def has_trumpless_hands(v: Variant, counts: Sequence[int] | None = None) -> bool:
    """True when some hand of some count in ``counts`` is played without trumps."""
    key = tuple(counts) if counts is not None else tuple(v.players.counts())
    return v.mode is Mode.SHEDDING or NO_TRUMPS_LABEL in _labels(v, key)


def no_card_hands(v: Variant, counts: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """Players -> the sizes of the scheduled turned-up-trump hands that use the whole pack
    (so are played without trumps), for the counts where there are any."""
    t = v.trumps
    out: dict[int, tuple[int, ...]] = {}
    if v.mode is not Mode.TRICKS or t.kind is not TrumpKind.TURN_UP or not t.none_when_pack_empty:
        return out
    for n in counts:
        sizes = sorted(
            {
                s
                for h, s in enumerate(v.hand_sizes(n), start=1)
                if t.is_turn_up_hand(h) and no_card_left(v, n, s)
            },
            reverse=True,
        )
        if sizes:
            out[n] = tuple(sizes)
    return out
