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

from cardrules.cards import (
    ID_LIMIT,
    JOKER_MASK,
    SPECIAL_MASK,
    SUIT_MASKS,
    WIDE_SUIT_MASKS,
    CardSet,
    Suit,
)
from cardrules.engine.state.tables import _BITS, _SUIT_OF, _UNBROKEN
from cardrules.rules import TrumpRule

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = [
    "STANDARD",
    "RankTables",
    "downtown_tables",
    "joker_led_tables",
    "rank_tables",
    "several_packs",
    "special_tables",
    "tables_for",
]


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
    codes: tuple[int, ...] = ()
    """Card id -> its power in a trick decided by powers (``_Rules.card_powers``:
    a pack with special cards, or jokers that cannot win a hand without trumps):
    0 none, 1 or 2 always wins, 3 or 4 always loses (see :func:`_special_beats`).
    Empty in the tables of a game whose tricks are not decided by powers."""


def _standard() -> RankTables:
    # The jokers (52, 53) count as a fifth suit of their own here, the big above
    # the little: a pack with jokers is refused unless every hand has trumps and
    # the trump order ranks them, so no hand plays by these tables with jokers.
    # The special cards (54-63) count with the jokers here: a pack that has them
    # plays by special_tables; these entries only keep a view's reader in range.
    masks = (*SUIT_MASKS, JOKER_MASK | SPECIAL_MASK)
    above = tuple(masks[min(c // 13, 4)] & ~((2 << c) - 1) for c in range(64))
    return RankTables(_SUIT_OF, masks, tuple(range(64)), above, _UNBROKEN)


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


def special_tables(
    base: RankTables, codes: Sequence[int], ranks: Sequence[tuple[int, int, int]]
) -> RankTables:
    """``base`` (a hand's tables) with the special cards (54-63) of a pack that
    has them: a card that always wins counts as a suit of its own (5), one that
    always loses as another (6), each of power 0 (so of two of a kind the first
    played stays the best: the trick decides the rest, see
    :func:`~cardrules.engine.phases.trick._special_beats`); a card that counts as
    a suit, or ranks next to a card, is a card of that suit just above or below
    it. ``codes``: card id -> power code (0 none, 1-2 wins, 3-4 loses);
    ``ranks``: (card, the card it ranks next to, 1 above / 0 below). A pack
    with special cards is one pack: its ids are below 64."""
    n = 64
    suit_of = [*base.suit_of, *([4] * (n - len(base.suit_of)))]
    power = [2 * p for p in base.power] + [0] * (n - len(base.power))
    for c in range(52, n):  # the jokers too (``jokers without trumps: cannot win``)
        if codes[c]:
            suit_of[c] = 5 if codes[c] <= 2 else 6
            power[c] = 0
    for c, k, up in ranks:
        suit_of[c] = suit_of[k]
        power[c] = power[k] + (1 if up else -1)
    masks = [0] * 7
    for c in range(n):
        masks[suit_of[c]] |= _BITS[c]
    above = tuple(
        sum(_BITS[x] for x in range(n) if suit_of[x] == suit_of[c] and power[x] > power[c])
        for c in range(n)
    )
    unbroken = tuple(sum(masks[x] for x in range(4) if not b >> x & 1) for b in range(16))
    return RankTables(
        tuple(suit_of), tuple(masks), tuple(power), above, unbroken, base.top, tuple(codes)
    )


def _special_beats(codes: tuple[int, ...], t: RankTables, trump: int, best: int, c: int) -> bool:
    """In a pack with special cards, whether ``c`` beats ``best``, the trick's
    best card so far. ``codes``: card id -> 0 (an ordinary card), 1 or 2 (always
    wins: the first, or the last, of them played winning), 3 or 4 (always loses:
    a trick of them only goes to the first, or the last, played)."""
    kc = codes[c]
    kb = codes[best]
    if kb == 1 or kb == 2:
        return kc == 2
    if kc == 1 or kc == 2:
        return True
    if kc:
        return kb == 4 and kc == 4
    if kb:
        return True
    suit_of = t.suit_of
    suit = suit_of[c]
    if suit == suit_of[best]:
        return t.power[c] > t.power[best]
    return suit == trump


def _led_suit(codes: tuple[int, ...], suit_of: tuple[int, ...], trick: list[int]) -> int:
    """In a pack with special cards, the suit led to ``trick``: the suit of its
    first card that has one (a card that always loses has none); -1 when none
    has, or when a card that always wins came first (then any card may follow)."""
    for k in trick:
        code = codes[k]
        if code == 1 or code == 2:
            return -1
        if not code:
            return suit_of[k]
    return -1


def downtown_tables(trump: int, ace_high: bool, top: Sequence[int] = ()) -> RankTables:
    """The tables of a hand played downtown: each suit's ranks reversed (2 the
    highest, then 3 ... K), the ace the highest of its suit (``ace_high``) or
    the lowest; ``trump`` the trump suit (-1: none), whose cards beat every
    plain card. The cards ``top`` (the trump order's, highest first: jokers
    above the trump suit, say) stay the highest trumps, above the reversed trump suit; the
    order is not reversed. Without trumps ``top`` is ignored."""
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
    if trump < 0 or not top:
        masks = STANDARD.suit_masks
        above = tuple(
            sum(_BITS[x] for x in range(54) if _SUIT_OF[x] == _SUIT_OF[c] and power[x] > power[c])
            for c in range(54)
        )
        return RankTables(_SUIT_OF, masks, tuple(power), above, _UNBROKEN)
    suit_of = list(_SUIT_OF)
    for i, c in enumerate(top):
        suit_of[c] = trump
        power[c] = 200 + len(top) - i
    masks_l = [0, 0, 0, 0, 0]
    for c in range(54):
        masks_l[suit_of[c]] |= _BITS[c]
    above = tuple(
        sum(_BITS[x] for x in range(54) if suit_of[x] == suit_of[c] and power[x] > power[c])
        for c in range(54)
    )
    unbroken = tuple(sum(masks_l[x] for x in range(4) if not b >> x & 1) for b in range(16))
    return RankTables(tuple(suit_of), tuple(masks_l), tuple(power), above, unbroken, tuple(top))


def _set_downtown(g: Game) -> None:
    """The declarer has declared the hand downtown: its ranks are reversed for
    the rest of the hand (:func:`downtown_tables`, the trump order's cards
    staying the highest trumps, and the powers of a trick decided by powers;
    cached by the rules)."""
    r = g._rules
    trump = g._trump
    key = 100 + trump
    tables = r.rank_cache.get(key)
    if tables is None:
        top: Sequence[int] = ()
        if r.ranked and trump >= 0:
            top = [int(c) for c in r.trump_rule.ranking(Suit(trump), CardSet(r.pack_mask))]
        tables = downtown_tables(trump, r.downtown == 1, top)
        if r.card_powers:
            tables = special_tables(tables, r.powers_in(trump), r.special_ranks)
        r.rank_cache[key] = tables
    g._ranks = tables


def _set_trump(g: Game, trump: int) -> None:
    """Set the trump suit of the hand (``-1``: no trumps) and the hand's rank
    tables (:class:`RankTables`). Whatever sets or changes a hand's trumps calls
    this, so that following suit and the trick's winner read the right tables."""
    g._trump = trump
    r = g._rules
    if r.card_powers:
        # A pack with special cards, or jokers that cannot win without trumps:
        # their suits and powers in every hand's tables.
        special = r.rank_cache.get(trump)
        if special is None:
            base = STANDARD
            if r.ranked and trump >= 0:
                base = rank_tables(r.trump_rule, trump, r.pack_mask)
            special = special_tables(base, r.powers_in(trump), r.special_ranks)
            r.rank_cache[trump] = special
        g._ranks = special
        return
    if not r.ranked or trump < 0:
        g._ranks = r.plain_ranks
        return
    tables = r.rank_cache.get(trump)
    if tables is None:
        tables = rank_tables(r.trump_rule, trump, r.pack_mask)
        r.rank_cache[trump] = tables
    g._ranks = tables


def joker_led_tables(base: RankTables, joker: int, suit: int) -> RankTables:
    """``base`` (a hand's tables without trumps) with ``joker`` led and named as
    ``suit`` (``jokers without trumps: highest card``): that joker counts as a
    card of ``suit`` above its ace; every other card, the other joker too,
    keeps its suit and power. The joker is played, so the change lasts only as
    long as the trick it leads matters."""
    suit_of = list(base.suit_of)
    power = list(base.power)
    suit_of[joker] = suit
    power[joker] = 200 + joker
    masks = list(base.suit_masks)
    masks[base.suit_of[joker]] &= ~_BITS[joker]
    masks[suit] |= _BITS[joker]
    cards = range(len(power))  # the cards the tables rank (54, or 64 with special cards)
    above = tuple(
        sum(1 << x for x in cards if suit_of[x] == suit_of[c] and power[x] > power[c])
        for c in cards
    )
    unbroken = tuple(sum(masks[x] for x in range(4) if not b >> x & 1) for b in range(16))
    return RankTables(
        tuple(suit_of), tuple(masks), tuple(power), above, unbroken, base.top, base.codes
    )


def _set_joker_suit(g: Game, joker: int, suit: int) -> None:
    """Joker ``joker``, just led in a hand without trumps, stands for ``suit``:
    the hand's tables from now on (:func:`joker_led_tables`)."""
    r = g._rules
    key = (g._ranks, joker, suit)
    tables = r.joker_cache.get(key)
    if tables is None:
        tables = joker_led_tables(g._ranks, joker, suit)
        r.joker_cache[key] = tables
    g._ranks = tables
