"""Constant tables shared by the phases of a hand.

The phase codes of :class:`~cardrules.engine.game.Game` (``_phase``), the
card bit and suit tables, and the interned :class:`Play` actions: one tuple per
suit and 13-bit pattern of cards, built on demand, so that a mask of legal cards
becomes its tuple of actions without allocating (:func:`_plays_of`).

Everything here depends only on the cards, never on the rules.
"""

from __future__ import annotations

from typing import Final

from cardrules.cards import ID_LIMIT, SUIT_MASKS, Suit, lowest_copies
from cardrules.engine.actions import Look, Play

#: The phase codes (``Game._phase``) and their public names (``Game.phase``).
_BID: Final = 0
_PLAY: Final = 1
_OVER: Final = 2
_PASS: Final = 3
_TRUMPS: Final = 4
_PHASE_NAMES: Final = ("bid", "play", "over", "pass", "trumps")

#: Card id -> its bit in a card mask (52 and 53: the jokers; 54-63: the special
#: cards; from 64, the copies of a game of several packs, see :mod:`cardrules.cards`).
_BITS: Final[tuple[int, ...]] = tuple(1 << i for i in range(ID_LIMIT))
#: Card id -> its suit's number (the jokers and special cards, which have none:
#: 4, a suit of their own that only a hand without trumps could see).
_SUIT_OF: Final[tuple[int, ...]] = tuple(min((i & 63) // 13, 4) for i in range(ID_LIMIT))
#: Byte k of a mask of standard cards (0 to 6) -> for each byte value, the ids
#: of its cards, ascending (the integer path's ids, read from a mask).
_BYTE_IDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(7)
)
#: Suit number -> the position of its 13 bits in a card mask.
_SHIFT: Final[tuple[int, ...]] = (0, 13, 26, 39)
#: Card id -> the interned Play action of that card.
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(i) for i in range(64))
#: The jokers' bits (the mask shifted right by 52) -> their Play actions.
_JOKER_PLAYS: Final[tuple[tuple[Play, ...], ...]] = (
    (),
    (_PLAYS[52],),
    (_PLAYS[53],),
    _PLAYS[52:54],
)
#: Suit number -> its bit in a 4-bit set of suits (the broken suits); the jokers'
#: suit (4) and the special cards' (5, 6) break nothing.
_SUIT_BIT: Final[tuple[int, ...]] = (1, 2, 4, 8, 0, 0, 0)
#: Broken suits (a 4-bit set) -> the mask of the cards of the suits not broken.
_UNBROKEN: Final[tuple[int, ...]] = tuple(
    sum(SUIT_MASKS[x] for x in range(4) if not b >> x & 1) for b in range(16)
)
#: Suit by number, with index -1 (no trumps) giving None.
_SUITS: Final[tuple[Suit | None, ...]] = (*Suit, None)
#: The interned Look action.
_LOOK: Final = Look()

#: Per suit, the tuple of Play actions for each 13-bit pattern, built on demand
#: (bounded: at most 4 x 8,191 entries).
_SUIT_TABLES: Final[list[list[tuple[Play, ...] | None]]] = [[None] * 8192 for _ in range(4)]


def _suit_plays(suit: int, pattern: int) -> tuple[Play, ...]:
    """The Play actions of the cards of ``suit`` in the 13-bit ``pattern`` (built
    once, then read from :data:`_SUIT_TABLES`)."""
    t = _SUIT_TABLES[suit][pattern]
    if t is None:
        base = 13 * suit
        t = tuple(_PLAYS[base + i] for i in range(13) if pattern >> i & 1)
        _SUIT_TABLES[suit][pattern] = t
    return t


def _plays_of(mask: int) -> tuple[Play, ...]:
    """The Play actions of the standard cards of a card mask, lowest id first (no
    allocation for one suit); the jokers' are :func:`_plays_with_jokers`'s."""
    out: tuple[Play, ...] = ()
    tables = _SUIT_TABLES
    p = mask & 0x1FFF
    if p:
        t = tables[0][p]
        out = t if t is not None else _suit_plays(0, p)
    p = (mask >> 13) & 0x1FFF
    if p:
        t = tables[1][p]
        if t is None:
            t = _suit_plays(1, p)
        out = out + t if out else t
    p = (mask >> 26) & 0x1FFF
    if p:
        t = tables[2][p]
        if t is None:
            t = _suit_plays(2, p)
        out = out + t if out else t
    p = (mask >> 39) & 0x1FFF
    if p:
        t = tables[3][p]
        if t is None:
            t = _suit_plays(3, p)
        out = out + t if out else t
    return out


def _plays_with_jokers(mask: int) -> tuple[Play, ...]:
    """:func:`_plays_of` for a pack with jokers (``_Rules.plays_of``): the plays of
    the standard cards, then of the jokers (bits 52 and 53), whose ids come after
    every other block. A pack without jokers never pays for the check."""
    out = _plays_of(mask)
    jokers = mask >> 52
    return out + _JOKER_PLAYS[jokers] if jokers else out


def _plays_with_specials(mask: int) -> tuple[Play, ...]:
    """:func:`_plays_of` for a pack with special cards (54-63; ``_Rules.plays_of``):
    the plays of the standard cards, then of the jokers and the special cards, whose
    ids come after every other block."""
    out = _plays_of(mask)
    rest = mask >> 52
    if not rest:
        return out
    return out + tuple(_PLAYS[52 + i] for i in range(12) if rest >> i & 1)


def _plays_of_copies(mask: int) -> tuple[Play, ...]:
    """``_Rules.plays_of`` in a game of several packs: one Play action for each
    card of ``mask`` (a copy's action is its card's: which copy is played is
    bookkeeping), in card order whichever copies they are, so that the legal
    actions never tell which copy a seat holds. (The random playout draws its
    card from the mask, not from this order.)"""
    ids: list[int] = []
    while mask:
        low = mask & -mask
        ids.append((low.bit_length() - 1) & 63)
        mask ^= low
    ids.sort()
    return tuple([_PLAYS[c] for c in ids])


def legal_copies(mask: int) -> int:
    """Of the cards of ``mask`` a seat may play in a game of several packs, the
    one copy of each card it plays: the lowest copy it holds."""
    return lowest_copies(mask)
