"""Rank orders that change with trumps: each hand's effective suits and card powers.

A variant with a trump order (``trump order: J of trumps, J of the same
colour``) makes some cards trumps whatever their printed suit, above the rest
of the trumps. Once the trump suit of a hand is known, :func:`_set_trump` sets
it and the hand's :class:`RankTables`: the suit each card counts as (its
*effective* suit), the mask of each effective suit, each card's power (higher
beats lower within an effective suit) and, per card, the cards of its effective
suit that beat it. Every place that asks "which suit is this card?" or "does
this card beat that one?" (following suit, the card-set lists, broken suits,
the trick's winner, the rules' refusals) reads these tables.

A variant without a trump order, or a hand without trumps, uses
:data:`STANDARD` (printed suits, aces high: each card's power is its id). The
play of a card (:func:`~cardrules.engine.phases.trick._play_card`) reads the hand's
tables whichever they are.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple

from cardrules.cards import ID_LIMIT, JOKER_MASK, SUIT_MASKS, WIDE_SUIT_MASKS, CardSet, Suit
from cardrules.engine.state.tables import _BITS, _SUIT_OF, _UNBROKEN
from cardrules.rules import TrumpRule

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = ["STANDARD", "RankTables", "rank_tables", "several_packs", "tables_for"]


class RankTables(NamedTuple):
    """One hand's suits and powers, by card id (0-53: 52 and 53 are the jokers)."""

    suit_of: tuple[int, ...]
    """Card id -> the suit it counts as (its effective suit)."""
    suit_masks: tuple[int, ...]
    """Suit number -> the mask of the cards that count as that suit."""
    power: tuple[int, ...]
    """Card id -> its power: of two cards of one effective suit, the higher wins."""
    above: tuple[int, ...]
    """Card id -> the mask of the cards of its effective suit that beat it."""
    unbroken: tuple[int, ...]
    """Broken suits (a 4-bit set) -> the mask of the cards of the suits not broken."""
    top: tuple[int, ...] = ()
    """The cards of the trump order, highest first (above the rest of the trumps)."""


def _standard() -> RankTables:
    # The jokers (52, 53) count as a fifth suit of their own here, the big above
    # the little: a pack with jokers is refused unless every hand has trumps and
    # the trump order ranks them, so no hand plays by these tables with jokers.
    masks = (*SUIT_MASKS, JOKER_MASK)
    above = tuple(masks[c // 13] & ~((2 << c) - 1) for c in range(54))
    return RankTables(_SUIT_OF, masks, tuple(range(54)), above, _UNBROKEN)


#: Printed suits, aces high: every hand without a trump order, or without trumps.
STANDARD: Final = _standard()


@cache
def several_packs() -> RankTables:
    """:data:`STANDARD` for a game of several packs (``deck: 2 standard packs``),
    built once, when such a game is first played."""
    # A game of several packs: each copy of a card (id c + 64 * k) counts as its
    # card, with its card's power (so of two identical cards, neither beats the
    # other by power: the trick's rule for identical cards decides), and each
    # suit's mask holds every copy. No joker and no trump order here (refused).
    suit_of = tuple(min((c & 63) // 13, 4) for c in range(ID_LIMIT))
    masks = (*WIDE_SUIT_MASKS, JOKER_MASK)
    power = tuple(c & 63 for c in range(ID_LIMIT))
    above = tuple(
        sum(1 << x for x in range(ID_LIMIT) if suit_of[x] == suit_of[c] < 4 and power[x] > power[c])
        for c in range(ID_LIMIT)
    )
    unbroken = tuple(sum(masks[x] for x in range(4) if not b >> x & 1) for b in range(16))
    return RankTables(suit_of, masks, power, above, unbroken)


def rank_tables(rule: TrumpRule, trump: int, pack: int) -> RankTables:
    """The tables of a hand whose trump suit is ``trump`` (-1: none) under ``rule``
    for the cards of ``pack`` (a mask)."""
    if trump < 0 or not rule.order:
        return STANDARD
    return tables_for(trump, [int(c) for c in rule.ranking(Suit(trump), CardSet(pack))])


def tables_for(trump: int, top: Sequence[int]) -> RankTables:
    """The tables of a hand whose trump suit is ``trump`` (-1: none) and whose
    highest trumps are the cards ``top``, highest first (empty: :data:`STANDARD`).
    The bots build them from a view's ``trump`` and ``trump_order``."""
    if trump < 0 or not top:
        return STANDARD
    suit_of = list(_SUIT_OF)
    # Within a plain suit the rank decides (ids rise with rank); the trump suit's
    # own cards rank above every plain card, and the trump order's above them.
    # A joker the order does not name stays in the jokers' own suit (4), the
    # big above the little (the loader refuses a pack whose order leaves one out).
    power = [c % 13 if c < 52 else c for c in range(54)]
    for c in range(52):
        if c // 13 == trump:
            power[c] = 100 + c % 13
    for i, c in enumerate(top):
        suit_of[c] = trump
        power[c] = 200 + len(top) - i
    masks = [0, 0, 0, 0, 0]
    for c in range(54):
        masks[suit_of[c]] |= _BITS[c]
    above = tuple(
        sum(_BITS[x] for x in range(54) if suit_of[x] == suit_of[c] and power[x] > power[c])
        for c in range(54)
    )
    unbroken = tuple(sum(masks[x] for x in range(4) if not b >> x & 1) for b in range(16))
    return RankTables(tuple(suit_of), tuple(masks), tuple(power), above, unbroken, tuple(top))


def _set_trump(g: Game, trump: int) -> None:
    """Set the trump suit of the hand (``-1``: no trumps) and the hand's rank
    tables (:class:`RankTables`). Whatever sets or changes a hand's trumps calls
    this, so that following suit and the trick's winner read the right tables."""
    g._trump = trump
    r = g._rules
    if not r.ranked or trump < 0:
        g._ranks = r.plain_ranks
        return
    tables = r.rank_cache.get(trump)
    if tables is None:
        tables = rank_tables(r.trump_rule, trump, r.pack_mask)
        r.rank_cache[trump] = tables
    g._ranks = tables
