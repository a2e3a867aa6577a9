"""Cards, suits, ranks and a bitmask card set.

A card is a small int subclass numbered 0-51: ``suit * 13 + (rank - 2)``, so
that within a suit a higher bit is a higher card; 52 and 53 are the little and
the big joker (``LJ``, ``BJ``), in play only in a pack that has them. A
:class:`CardSet` wraps a 54-bit int; suit masks make "do I hold a heart?" a
single ``&``.

Examples:
    >>> from cardrules.cards import card, CardSet, Suit
    >>> card("A♠"), card("10h"), card("td")
    (Card('A♠'), Card('10♥'), Card('10♦'))
    >>> hand = CardSet.parse("A♠ K♠ 2♥")
    >>> len(hand), card("K♠") in hand, hand.of_suit(Suit.SPADES)
    (3, True, CardSet('K♠ A♠'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Any, Final

from cardrules.errors import CardError

__all__ = [
    "ALL_CARDS",
    "ANY_CARD_MASK",
    "BIG_JOKER",
    "CARDS",
    "CARD_BY_ID",
    "FULL_DECK_MASK",
    "ID_LIMIT",
    "JOKER_MASK",
    "LITTLE_JOKER",
    "MAX_CONTRACT_LEVEL",
    "MAX_PACKS",
    "MISERE_STRAIN",
    "NO_TRUMPS_STRAIN",
    "OPEN_MISERE_STRAIN",
    "PACK54_MASK",
    "SPECIAL_BASE",
    "SPECIAL_MASK",
    "STRAIN_WORDS",
    "SUIT_MASKS",
    "WIDE_SUIT_MASKS",
    "Card",
    "CardSet",
    "Rank",
    "Suit",
    "base_mask",
    "canonical_copies",
    "card",
    "cards_with_copies",
    "copies_mask",
    "copies_of",
    "deal_copies",
    "is_copy_id",
    "lowest_copies",
    "parse_rank",
    "parse_suit",
]


class Suit(IntEnum):
    """The four suits. The values give the card numbering, not a ranking."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The suit symbol, such as ``♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The one-letter code, such as ``S``."""
        return "CDHS"[self]

    @property
    def mask(self) -> int:
        """The 52-bit mask of every card of this suit."""
        return SUIT_MASKS[self]

    @property
    def word(self) -> str:
        """The plural English name in lower case, such as ``spades``."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.word


class Rank(IntEnum):
    """Ranks from two (2) up to ace (14); aces are high."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """The printed label: ``2``-``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LABELS[self]

    def __str__(self) -> str:
        return self.label


_SUIT_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_RANK_LABELS: Final = {r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank}

#: The highest level a contract bid (``bids: ... in ...``) can carry.
MAX_CONTRACT_LEVEL: Final = 13
#: The strains of a contract bid: 0-3 the suits (their numbers), then no trumps,
#: misère and open misère.
NO_TRUMPS_STRAIN: Final = 4
MISERE_STRAIN: Final = 5
OPEN_MISERE_STRAIN: Final = 6
#: The words of each strain of a contract bid, by number.
STRAIN_WORDS: Final = (
    "clubs",
    "diamonds",
    "hearts",
    "spades",
    "no trumps",
    "misère",
    "open misère",
)

#: Names accepted for each suit, lower case: English, letters, symbols, and the
#: Hindi names used for the Ka-Chu-Fu-L trump cycle.
SUIT_NAMES: Final[dict[str, Suit]] = {
    "clubs": Suit.CLUBS,
    "club": Suit.CLUBS,
    "c": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "fuli": Suit.CLUBS,
    "phuli": Suit.CLUBS,
    "falli": Suit.CLUBS,
    "diamonds": Suit.DIAMONDS,
    "diamond": Suit.DIAMONDS,
    "d": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "chukat": Suit.DIAMONDS,
    "chukti": Suit.DIAMONDS,
    "hearts": Suit.HEARTS,
    "heart": Suit.HEARTS,
    "h": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "laal": Suit.HEARTS,
    "lal": Suit.HEARTS,
    "spades": Suit.SPADES,
    "spade": Suit.SPADES,
    "s": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "kali": Suit.SPADES,
    "kari": Suit.SPADES,
}

_RANK_NAMES: Final[dict[str, Rank]] = {
    **{str(v): Rank(v) for v in range(2, 11)},
    "t": Rank.TEN,
    "j": Rank.JACK,
    "q": Rank.QUEEN,
    "k": Rank.KING,
    "a": Rank.ACE,
    "jack": Rank.JACK,
    "queen": Rank.QUEEN,
    "king": Rank.KING,
    "ace": Rank.ACE,
}

SUIT_MASKS: Final[tuple[int, int, int, int]] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
#: The standard 52 cards (no jokers).
FULL_DECK_MASK: Final = (1 << 52) - 1
#: The two jokers: card 52, the little joker (``LJ``), and card 53, the big joker (``BJ``).
JOKER_MASK: Final = 3 << 52
#: The standard 52 and the two jokers.
PACK54_MASK: Final = FULL_DECK_MASK | JOKER_MASK
#: The first of the further special cards of one pack (ids 54-63): the extra
#: jokers, wizards, jesters and other named cards a variant's pack adds
#: (``deck: standard 52 with 4 wizards and 4 jesters``), written ``X1`` to
#: ``X10`` in the pack's order. They have no suit or rank of their own: the
#: variant gives each its power.
SPECIAL_BASE: Final = 54
#: The ten special cards' bits (ids 54-63).
SPECIAL_MASK: Final = ((1 << 10) - 1) << SPECIAL_BASE
#: Every card id of one pack: the standard 52, the two jokers, the ten specials.
_ALL_MASK: Final = PACK54_MASK | SPECIAL_MASK
_JOKER_TEXT: Final = ("LJ", "BJ", *(f"X{i}" for i in range(1, 11)))
_JOKER_NAMES: Final[dict[str, int]] = {
    "lj": 52,
    "littlejoker": 52,
    "bj": 53,
    "bigjoker": 53,
    **{f"x{i}": 53 + i for i in range(1, 11)},
}


class Card(int):
    """One playing card: an int from 0 to 53. Cards 0-51 have a suit and a rank;
    52 is the little joker (``LJ``) and 53 the big joker (``BJ``), which have
    neither (:attr:`is_joker`): a pack holds them only when its variant says so
    (``deck: standard 52 with 2 jokers``), and its trump order ranks them.

    Cards are interned: ``Card(5) is Card(5)``. Build them with :func:`card`,
    :meth:`Card.of` or ``Card(index)``.

    Examples:
        >>> Card(53), card("little joker"), Card(53).is_joker, Card(51).is_joker
        (Card('BJ'), Card('LJ'), True, False)
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        """Return the card numbered ``index`` (0-53: 52 and 53 are the jokers)."""
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 64:
            return CARDS[index]
        raise CardError(
            f"card number must be 0 to 63 (52 and 53 the jokers, 54 to 63 the special "
            f"cards), got {index!r}"
        )

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """Return the card of the given rank and suit."""
        if not 2 <= int(rank) <= 14 or not 0 <= int(suit) <= 3:
            raise CardError(f"no card of rank {rank!r} and suit {suit!r}")
        return ALL_CARDS[int(suit) * 13 + int(rank) - 2]

    @property
    def is_joker(self) -> bool:
        """True for the two jokers (cards 52 and 53), which have no suit or rank."""
        return 52 <= (self & 63) < 54

    @property
    def is_special(self) -> bool:
        """True for the further special cards (54-63, ``X1`` to ``X10``): no suit or
        rank of their own; the variant gives each its power."""
        return (self & 63) >= SPECIAL_BASE

    @property
    def suit(self) -> Suit:
        """The card's printed suit.

        Raises:
            CardError: for a joker, which has none.
        """
        if self >= 52:
            if self >= 64:
                return _SUITS[(self & 63) // 13]  # a copy (several packs)
            kind = "a joker" if self < 54 else "a special card"
            raise CardError(f"{self} is {kind}: it has no suit")
        return _SUITS[self // 13]

    @property
    def rank(self) -> Rank:
        """The card's rank (2-14, ace high).

        Raises:
            CardError: for a joker, which has none.
        """
        if self >= 52:
            if self >= 64:
                return _RANKS[(self & 63) % 13]  # a copy (several packs)
            kind = "a joker" if self < 54 else "a special card"
            raise CardError(f"{self} is {kind}: it has no rank")
        return _RANKS[self % 13]

    @property
    def bit(self) -> int:
        """The card's bit in a :class:`CardSet` mask."""
        return 1 << self

    @property
    def code(self) -> str:
        """An ASCII code such as ``AS``, ``10H`` or ``BJ`` (the big joker)."""
        if self >= 52:
            if self >= 64:
                return CARDS[self & 63].code  # a copy reads as its card
            return _JOKER_TEXT[self - 52]
        return f"{self.rank.label}{self.suit.letter}"

    @property
    def base(self) -> Card:
        """The card itself, copy 0: a copy of a game of several packs reads as it."""
        return CARDS[self & 63] if self >= 64 else self

    @property
    def copy(self) -> int:
        """Which copy of its card this is: 0 in one pack, 0 to 3 in several."""
        return self >> 6

    def __str__(self) -> str:
        if self >= 52:
            if self >= 64:
                return str(CARDS[self & 63])  # a copy reads as its card
            return _JOKER_TEXT[self - 52]
        return f"{self.rank.label}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # A copy (several packs) is no card number ``Card()`` takes: by its table.
        return (Card, (int(self),)) if self < 64 else (_copy_card, (int(self),))


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
#: Every card by number, 0-63 (the jokers, then the special cards, last):
#: ``CARDS[i]`` is ``Card(i)``.
CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(64))
#: The standard 52 cards, clubs 2 first (no jokers).
ALL_CARDS: Final[tuple[Card, ...]] = CARDS[:52]
LITTLE_JOKER: Final = CARDS[52]
BIG_JOKER: Final = CARDS[53]


def parse_suit(text: str) -> Suit:
    """Parse a suit from a name, letter, symbol or Hindi name.

    Raises:
        CardError: if ``text`` names no suit.
    """
    suit = SUIT_NAMES.get(text.strip().lower())
    if suit is None:
        raise CardError(
            f"{text!r} is not a suit: expected spades, hearts, diamonds or clubs "
            "(or S, H, D, C, ♠ ♥ ♦ ♣, or Kali, Chukat, Fuli, Laal)"
        )
    return suit


def parse_rank(text: str) -> Rank:
    """Parse a rank such as ``A``, ``10``, ``T`` or ``queen``.

    Raises:
        CardError: if ``text`` names no rank.
    """
    rank = _RANK_NAMES.get(text.strip().lower())
    if rank is None:
        raise CardError(f"{text!r} is not a rank: expected 2-10, J, Q, K or A (T for ten)")
    return rank


#: Parsed card texts, bounded in keys and in characters: only texts of at most
#: ``_CACHE_TEXT`` characters are kept (a padded text parses, but is not kept).
_CARD_CACHE: dict[str, Card] = {}
_CACHE_KEYS: Final = 4096
_CACHE_TEXT: Final = 24


def card(text: str | Card) -> Card:
    """Parse a card as a person types it: ``A♠``, ``AS``, ``as``, ``10h``, ``Td``, ``10♦``,
    or a joker: ``LJ`` or ``little joker``, ``BJ`` or ``big joker``.

    Args:
        text: the rank (2-10, T, J, Q, K, A) followed by the suit (a letter,
            a symbol or a name), or a joker's name.

    Returns:
        The card.

    Raises:
        CardError: with a message saying which part was wrong.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card must be written as text like 'A♠' or 'qh', got {text!r}")
    hit = _CARD_CACHE.get(text)
    if hit is not None:
        return hit
    s = text.strip().replace(" of ", " ").replace(" ", "")
    if not s:
        raise CardError("empty card: write a rank and a suit, such as 'A♠', 'QS' or '10h'")
    if len(s) > 12:
        raise CardError(f"{text[:20]!r}... is too long to be a card")
    joker = _JOKER_NAMES.get(s.lower())
    if joker is not None:
        return CARDS[joker]
    # Split rank from suit: the rank is a leading run of digits, or a letter
    # ("A") or a word ("ace"). Try the longest rank first, but never swallow the
    # suit: "AC" is the ace of clubs, not the start of "ace".
    if s[0].isdigit():
        i = 1
        while i < len(s) and s[i].isdigit():
            i += 1
        splits = [i]
    else:
        i = 1
        while i < len(s) and s[i].isalpha() and s[: i + 1].lower() in _RANK_PREFIXES:
            i += 1
        splits = list(range(i, 0, -1))
    for cut in splits:
        rank_text, suit_text = s[:cut], s[cut:]
        if suit_text and rank_text.lower() in _RANK_NAMES and suit_text.lower() in SUIT_NAMES:
            break
    else:
        rank_text, suit_text = s[: splits[0]], s[splits[0] :]
    if not suit_text:
        raise CardError(f"{text!r} has no suit: add one, such as '{s}♠' or '{s}s'")
    try:
        rank = parse_rank(rank_text)
    except CardError:
        raise CardError(
            f"{text!r}: {rank_text!r} is not a rank; expected 2-10, J, Q, K or A (T for ten)"
        ) from None
    try:
        suit = parse_suit(suit_text)
    except CardError:
        raise CardError(
            f"{text!r}: {suit_text!r} is not a suit; expected S, H, D, C or ♠ ♥ ♦ ♣"
        ) from None
    result = ALL_CARDS[suit * 13 + rank - 2]
    if len(_CARD_CACHE) < _CACHE_KEYS and len(text) <= _CACHE_TEXT:
        _CARD_CACHE[text] = result
    return result


_RANK_PREFIXES: Final = frozenset(
    name[:n] for name in ("jack", "queen", "king", "ace") for n in range(1, len(name) + 1)
)


_JOKER_WORDS: Final = re.compile(r"\b(big|little)\s+joker\b", re.IGNORECASE)


def _joker_code(m: re.Match[str]) -> str:
    return "BJ" if m.group(1).lower() == "big" else "LJ"


class CardSet:
    """An immutable set of cards stored as a 54-bit int mask (bits 52 and 53:
    the little and the big joker).

    Supports ``in``, ``len``, iteration (low to high: clubs, diamonds, hearts,
    spades, each 2 to A, then the little and the big joker), ``|``, ``&``,
    ``-``, ``^`` and comparison with other card sets. ``CardSet.mask`` is the raw int for hot loops.
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card | str] | int = 0) -> None:
        """Build a set from an int mask or from cards (or card strings)."""
        if isinstance(cards, int):
            if not 0 <= cards <= _ALL_MASK and not (cards > 0 and not cards & ~ANY_CARD_MASK):
                raise CardError(f"card mask out of range: {cards!r}")
            mask = cards
        else:
            mask = 0
            for c in cards:
                mask |= 1 << card(c)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas, such as ``"A♠ 10h qd"`` or
        ``"BJ, little joker"``."""
        return cls(t for t in _JOKER_WORDS.sub(_joker_code, text.replace(",", " ")).split())

    @classmethod
    def full(cls) -> CardSet:
        """The standard 52-card pack."""
        return cls(FULL_DECK_MASK)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, int) and 0 <= item < ID_LIMIT and bool(self.mask >> item & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __iter__(self) -> Iterator[Card]:
        m = self.mask
        while m:
            low = m & -m
            yield CARD_BY_ID[low.bit_length() - 1]  # type: ignore[misc]
            m ^= low

    def __reversed__(self) -> Iterator[Card]:
        m = self.mask
        while m:
            top = m.bit_length() - 1
            yield CARD_BY_ID[top]  # type: ignore[misc]
            m ^= 1 << top

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def of_suit(self, suit: Suit | int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & WIDE_SUIT_MASKS[suit])

    def suits(self) -> list[Suit]:
        """The suits present, clubs first."""
        return [s for s in Suit if self.mask & WIDE_SUIT_MASKS[s]]

    def highest(self) -> Card | None:
        """The card with the highest number (spades beat hearts here): for ranking
        within one suit, call it on :meth:`of_suit`."""
        if self.mask >> 64:
            return max(self, key=lambda c: (c & 63, -(c >> 6)))
        return CARDS[self.mask.bit_length() - 1] if self.mask else None

    def sorted_for_display(self, trump: Suit | None = None) -> list[Card]:
        """Cards grouped by suit (trumps first when given), high to low in each;
        jokers first, the big one before the little."""
        order = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
        if trump is not None:
            order.remove(trump)
            order.insert(0, trump)
        jokers = [c for c in reversed(CardSet(self.mask & (JOKER_MASK | SPECIAL_MASK)))]
        if self.mask >> 64:
            # Several packs: the copies of a card side by side.
            return jokers + [
                c
                for s in order
                for c in sorted(self.of_suit(s), key=lambda c: (c & 63, -(c >> 6)), reverse=True)
            ]
        return jokers + [c for s in order for c in reversed(self.of_suit(s))]

    def __str__(self) -> str:
        if self.mask >> 64:
            return " ".join(str(c) for c in sorted(self, key=lambda c: (c & 63, c >> 6)))
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet('{self}')"


# --------------------------------------------------------------------------- several packs
#
# A game of several standard packs (``deck: 2 standard packs``) holds each card
# more than once: copy k (k >= 1) of card c is the card numbered ``c + 64 * k``,
# so a :class:`CardSet` of such a game is a wider int mask, and the mask of a
# one-pack game is exactly as before. A copy reads as its card everywhere (``A♠``
# and its copy both print ``A♠``; a hand ``A♠ A♠`` holds two): which copy a
# player holds is bookkeeping, never a rule.

#: The most standard packs a game may use.
MAX_PACKS: Final = 4
#: One past the highest card number of any game (copy 3 of the last card).
ID_LIMIT: Final = 64 * MAX_PACKS


def is_copy_id(index: int) -> bool:
    """True for the number of a copy (k >= 1) of a standard card."""
    return 64 <= index < ID_LIMIT and index & 63 < 52


def copies_mask(mask: int, packs: int) -> int:
    """The standard cards of ``mask`` in each of ``packs`` packs (copy 0 is ``mask``)."""
    out = 0
    for k in range(packs):
        out |= (mask & FULL_DECK_MASK) << (64 * k)
    return out | (mask & ~FULL_DECK_MASK & ((1 << 64) - 1))


def base_mask(mask: int) -> int:
    """The cards of ``mask`` with every copy read as its card (copy 0)."""
    out = mask & ((1 << 64) - 1)
    mask >>= 64
    while mask:
        out |= mask & ((1 << 64) - 1)
        mask >>= 64
    return out


def lowest_copies(mask: int) -> int:
    """Of each card ``mask`` holds in several copies, only the lowest copy."""
    low = mask & ((1 << 64) - 1)
    seen = low
    mask >>= 64
    shift = 64
    while mask:
        block = mask & ((1 << 64) - 1) & ~seen
        low |= block << shift
        seen |= block
        mask >>= 64
        shift += 64
    return low


def canonical_copies(mask: int) -> int:
    """``mask`` with each card's copies renumbered from 0 up: the same cards and
    counts, whichever copies they were (a one-pack mask is itself)."""
    if not mask >> 64:
        return mask
    layers: list[int] = []
    while mask:
        carry = mask & ((1 << 64) - 1)
        mask >>= 64
        for i, layer in enumerate(layers):
            layers[i], carry = layer | carry, layer & carry
        if carry:
            layers.append(carry)
    return sum(layer << (64 * k) for k, layer in enumerate(layers))


def deal_copies(hands: Iterable[int], taken: int = 0) -> tuple[int, ...]:
    """A deal of several packs with its copies renumbered, hand by hand: each
    card of a hand becomes the lowest copy of it that no earlier hand (and not
    ``taken``) holds. The same cards and counts in each hand; which copies they
    are depends only on them, so a deal read back from its cards is the same."""
    seen = taken
    out: list[int] = []
    for h in hands:
        m = 0
        while h:
            low = h & -h
            k = (low.bit_length() - 1) & 63
            while (seen | m) >> k & 1:
                k += 64
            m |= 1 << k
            h ^= low
        seen |= m
        out.append(m)
    return tuple(out)


def copies_of(mask: int, packs: int) -> int:
    """Every copy, in ``packs`` packs, of the cards of ``mask`` (any copy of them)."""
    return copies_mask(base_mask(mask), packs)


#: Each suit's cards in every copy of the pack (a one-pack mask reads the same).
WIDE_SUIT_MASKS: Final[tuple[int, int, int, int]] = tuple(  # type: ignore[assignment]
    copies_mask(m, MAX_PACKS) for m in SUIT_MASKS
)
#: Every card of every game: the 54 and each copy of the standard 52.
ANY_CARD_MASK: Final = PACK54_MASK | copies_mask(FULL_DECK_MASK, MAX_PACKS)

_COPIES: Final[tuple[Card, ...]] = tuple(
    int.__new__(Card, 64 * k + i) for k in range(1, MAX_PACKS) for i in range(52)
)
#: Every card by number, copies too: ``CARD_BY_ID[c]`` is card ``c`` (``None``
#: for a number no card has).
CARD_BY_ID: Final[tuple[Card | None, ...]] = (
    *CARDS,
    *(None,) * (64 - len(CARDS)),
    *(x for k in range(1, MAX_PACKS) for x in (*_COPIES[52 * (k - 1) : 52 * k], *(None,) * 12)),
)


def _copy_card(index: int) -> Card:
    """The copy numbered ``index`` (unpickling)."""
    c = CARD_BY_ID[index] if is_copy_id(index) else None
    if c is None:
        raise CardError(f"no copy of a card is numbered {index!r}")
    return c


def cards_with_copies(cards: Iterable[Card | str], packs: int) -> int:
    """The mask of ``cards`` where a card named again is its next copy (``A♠ A♠``
    in two packs: both aces of spades).

    Raises:
        CardError: if a card is named more often than there are packs.
    """
    mask = 0
    for c in cards:
        x = int(card(c))
        k = 0
        while mask >> (x + 64 * k) & 1:
            k += 1
        if k >= max(packs, 1) or (k and x >= 52):
            raise CardError(f"{CARDS[x]} is named more often than the {packs} pack(s) hold")
        mask |= 1 << (x + 64 * k)
    return mask
