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
from typing import TYPE_CHECKING, Final, NamedTuple

from cardrules.cards import JOKER_MASK, SUIT_MASKS, CardSet, Suit
from cardrules.engine.state.tables import _BITS, _SUIT_OF, _UNBROKEN
from cardrules.rules import TrumpRule

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = ["STANDARD", "RankTables", "downtown_tables", "rank_tables", "tables_for"]


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


def downtown_tables(trump: int, ace_high: bool) -> RankTables:
    """The tables of a hand played downtown: each suit's ranks reversed (2 the
    highest, then 3 ... K), the ace the highest of its suit (``ace_high``) or
    the lowest; ``trump`` the trump suit (-1: none), whose cards beat every
    plain card. Printed suits: a downtown hand has no trump order."""
    power = []
    for c in range(54):
        rank = c % 13  # 0 for a 2 ... 12 for an ace
        if c >= 52:
            p = c
        elif rank == 12:
            p = 14 if ace_high else 0
        else:
            p = 13 - rank
        if c < 52 and c // 13 == trump:
            p += 100
        power.append(p)
    masks = STANDARD.suit_masks
    above = tuple(
        sum(_BITS[x] for x in range(54) if _SUIT_OF[x] == _SUIT_OF[c] and power[x] > power[c])
        for c in range(54)
    )
    return RankTables(_SUIT_OF, masks, tuple(power), above, _UNBROKEN)


def _set_downtown(g: Game) -> None:
    """The declarer has declared the hand downtown: its ranks are reversed for
    the rest of the hand (:func:`downtown_tables`; cached by the rules)."""
    r = g._rules
    key = 100 + g._trump
    tables = r.rank_cache.get(key)
    if tables is None:
        tables = downtown_tables(g._trump, r.downtown == 1)
        r.rank_cache[key] = tables
    g._ranks = tables


def _set_trump(g: Game, trump: int) -> None:
    """Set the trump suit of the hand (``-1``: no trumps) and the hand's rank
    tables (:class:`RankTables`). Whatever sets or changes a hand's trumps calls
    this, so that following suit and the trick's winner read the right tables."""
    g._trump = trump
    r = g._rules
    if not r.ranked or trump < 0:
        g._ranks = STANDARD
        return
    tables = r.rank_cache.get(trump)
    if tables is None:
        tables = rank_tables(r.trump_rule, trump, r.pack_mask)
        r.rank_cache[trump] = tables
    g._ranks = tables
