"""Card-set rules: what a player may lead or play, as values of the language.

A rule is an ordered list of card sets, a :class:`CardChoice`: a player may
play the cards of the first set in the list of which they hold at least one.
Each set is the cards that match every one of its terms (:class:`CardTerm`):
the suit led, trumps, a named suit or card, the cards that would win the
trick, cards above or below a rank, each possibly limited to suits not yet
broken, or negated. So "follow suit, otherwise trump if able, otherwise
anything" is the list ``suit led, otherwise trumps, otherwise any card``, and
every house rule of that kind is a new list, not new engine code.

Examples:
    >>> from cardrules.card_rules import follow_choice
    >>> rule = follow_choice(must_follow=True, must_trump=False, must_beat=True)
    >>> [str(option) for option in rule.options]
    ['suit led and winning', 'suit led', 'trumps and winning', 'any card']

The text of a rule reads back with :func:`cardrules.dsl.parse_card_rule`.
"""

from __future__ import annotations

from enum import Enum

import attrs
from attrs import frozen

from cardrules.cards import Card, Suit

__all__ = [
    "ANY_CARD",
    "FOLLOW_SUIT",
    "BreakTrigger",
    "CardChoice",
    "CardSetRule",
    "CardTerm",
    "TermKind",
    "follow_choice",
    "lead_choice",
]


class TermKind(Enum):
    """What a term of a card set matches."""

    ANY = "any card"
    """Every card."""
    SUIT_LED = "suit led"
    """The cards of the suit led to this trick (none when leading)."""
    TRUMPS = "trumps"
    """The cards of the trump suit (none in a hand without trumps)."""
    WINNING = "winning"
    """The cards that would win the trick as it stands: a higher card of the suit
    led while no trump has been played, any trump while none has been played, or a
    higher trump than the best one played (every card, when leading)."""
    SUIT = "suit"
    """The cards of a named suit (``CardTerm.suit``)."""
    CARD = "card"
    """One named card (``CardTerm.card``)."""
    HIGHER = "higher than"
    """The cards ranked above ``CardTerm.rank`` (2 to 14, ace high), in any suit."""
    LOWER = "lower than"
    """The cards ranked below ``CardTerm.rank``, in any suit."""


_RANK_WORDS = {11: "J", 12: "Q", 13: "K", 14: "A"}


@frozen
class CardTerm:
    """One term of a card set.

    Attributes:
        kind: what it matches.
        suit: for ``TermKind.SUIT``.
        card: for ``TermKind.CARD``.
        rank: for ``TermKind.HIGHER`` and ``TermKind.LOWER`` (2 to 14).
        unbroken: only the cards of suits not yet broken in this hand
            (see :class:`BreakTrigger`).
        negated: the cards the term does *not* match.
    """

    kind: TermKind
    suit: Suit | None = None
    card: Card | None = None
    rank: int | None = None
    unbroken: bool = False
    negated: bool = False

    def __str__(self) -> str:
        if self.kind is TermKind.SUIT:
            assert self.suit is not None
            body = self.suit.word
        elif self.kind is TermKind.CARD:
            body = str(self.card)
        elif self.kind in (TermKind.HIGHER, TermKind.LOWER):
            assert self.rank is not None
            body = f"{self.kind.value} {_RANK_WORDS.get(self.rank, str(self.rank))}"
        else:
            body = self.kind.value
        if self.unbroken:
            body = "unbroken " + body
        return "not " + body if self.negated else body


@frozen
class CardSetRule:
    """The cards that match every term (an intersection)."""

    terms: tuple[CardTerm, ...]

    def __str__(self) -> str:
        out = str(self.terms[0])
        for term in self.terms[1:]:
            if term.negated:
                out += " except " + str(attrs.evolve(term, negated=False))
            else:
                out += " and " + str(term)
        return out


@frozen
class CardChoice:
    """An ordered list of card sets: a player may play the cards of the first set
    of which they hold one. The last set is usually ``any card``; when a player
    holds none of any set, every card they hold may be played."""

    options: tuple[CardSetRule, ...]

    def __str__(self) -> str:
        return ", otherwise ".join(map(str, self.options))


class BreakTrigger(Enum):
    """What breaks a suit, so that ``unbroken`` terms no longer bar it."""

    ANY_PLAY = "any play"
    """Any card of the suit played to a trick, led or not."""
    VOID_PLAY = "void play"
    """A card of the suit played by a player void in the suit led."""
    FORCED_LEAD = "forced lead"
    """A card of the suit led by a player whose lead rule left nothing else."""


def _set(*terms: CardTerm) -> CardSetRule:
    return CardSetRule(terms)


_ANY = CardTerm(TermKind.ANY)
_LED = CardTerm(TermKind.SUIT_LED)
_TRUMPS = CardTerm(TermKind.TRUMPS)
_WINNING = CardTerm(TermKind.WINNING)

#: ``any card``: no obligation.
ANY_CARD = CardChoice((_set(_ANY),))
#: ``suit led, otherwise any card``: follow suit, otherwise anything.
FOLLOW_SUIT = CardChoice((_set(_LED), _set(_ANY)))


def follow_choice(*, must_follow: bool, must_trump: bool, must_beat: bool) -> CardChoice:
    """The list that the shorthand ``follow: must follow suit, must trump, must beat``
    (or ``follow: any card``) stands for.

    ``must beat`` means: beat the best card so far when able, within the suit led
    while following and by trumping while void; ``must trump``: play a trump when
    void (after an over-trump, when ``must beat`` asks for one and the player can).
    """
    if not must_follow:
        return ANY_CARD
    options: list[CardSetRule] = []
    if must_beat:
        options.append(_set(_LED, _WINNING))
    options.append(_set(_LED))
    if must_beat:
        options.append(_set(_TRUMPS, _WINNING))
    if must_trump:
        options.append(_set(_TRUMPS))
    options.append(_set(_ANY))
    return CardChoice(tuple(options))


def lead_choice(*, trumps_once_broken: bool) -> CardChoice:
    """The lead rule of the shorthand ``leading trumps: any time`` or ``once broken``."""
    if not trumps_once_broken:
        return ANY_CARD
    return CardChoice(
        (_set(_ANY, CardTerm(TermKind.TRUMPS, unbroken=True, negated=True)), _set(_ANY))
    )
