"""Reading a variant's rule of play (what may be led and followed) for the rules pages.

A :class:`~cardrules.rules.PlayRule` says what a player may play either with the
shorthand of a variant file (``follow: must follow suit, must trump when void,
must beat when able`` and ``leading trumps: any time`` or ``once broken``) or, where
the model has them, with card-set lists (:mod:`cardrules.card_rules`): "the
first set of this list of which you hold a card". The pages word the shorthand
in the phrases a card player knows, and give any other list set by set, as it
is written; :func:`play_flags` tells the two apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardrules.cards import Card, Suit
from cardrules.rules import PlayRule, TrumpLead

__all__ = [
    "PlayFlags",
    "best_card",
    "break_phrase",
    "choice_phrase",
    "choice_words",
    "choose",
    "first_trick_rule",
    "lead_rule",
    "play_flags",
    "uses_unbroken",
]


@dataclass(frozen=True)
class PlayFlags:
    """The shorthand of a play rule.

    Attributes:
        must_follow: follow suit when able.
        must_trump: play a trump when void in the suit led, holding one.
        must_beat: beat the best card so far when able (following, or trumping when void).
        trump_lead: when trumps may be led.
    """

    must_follow: bool
    must_trump: bool
    must_beat: bool
    trump_lead: TrumpLead


_COMBOS = (
    (True, False, False),
    (False, False, False),
    (True, True, False),
    (True, False, True),
    (True, True, True),
)


def _follow_flags(p: PlayRule) -> tuple[bool, bool, bool] | None:
    follow = getattr(p, "follow", None)
    if follow is None:  # a model with the flags themselves
        return (
            bool(getattr(p, "must_follow", True)),
            bool(getattr(p, "must_trump", False)),
            bool(getattr(p, "must_beat", False)),
        )
    from cardrules.card_rules import follow_choice

    for mf, mt, mb in _COMBOS:
        if follow == follow_choice(must_follow=mf, must_trump=mt, must_beat=mb):
            return (mf, mt, mb)
    return None


def lead_rule(p: PlayRule) -> TrumpLead | None:
    """When trumps may be led, when the lead rule is a ``leading trumps:`` shorthand."""
    lead = getattr(p, "lead", None)
    if lead is None:
        return TrumpLead(getattr(p, "trump_lead", TrumpLead.ANY_TIME))
    from cardrules.card_rules import lead_choice

    for broken in (False, True):
        if lead == lead_choice(trumps_once_broken=broken):
            return TrumpLead.BROKEN if broken else TrumpLead.ANY_TIME
    return None


def first_trick_rule(p: PlayRule) -> Any:
    """The extra rule of the first trick of a hand, or ``None`` when there is none."""
    rule = getattr(p, "first_trick", None)
    if rule is None:
        return None
    from cardrules.card_rules import ANY_CARD

    return None if rule == ANY_CARD else rule


def play_flags(p: PlayRule) -> PlayFlags | None:
    """The shorthand of ``p``, or ``None`` when its follow or lead rule is another list
    (or the first trick has a rule of its own)."""
    follow = _follow_flags(p)
    lead = lead_rule(p)
    if follow is None or lead is None or first_trick_rule(p) is not None:
        return None
    return PlayFlags(*follow, lead)


# --------------------------------------------------------------------------- lists in words

_RANKS = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _term_words(term: Any) -> str:
    """One term of a card set as a qualifier of "a card"."""
    from cardrules.card_rules import TermKind

    kind = term.kind
    unbroken = "unbroken " if term.unbroken else ""
    no = term.negated
    if kind is TermKind.ANY:
        return "" if not no else "that does not exist"
    if kind is TermKind.SUIT_LED:
        return f"{'not ' if no else ''}of the {unbroken}suit led"
    if kind is TermKind.TRUMPS:
        return f"that is {'not ' if no else ''}{'an unbroken' if unbroken else 'a'} trump"
    if kind is TermKind.WINNING:
        return f"that would {'not ' if no else ''}win the trick so far"
    if kind is TermKind.SUIT:
        suit = term.suit.word if term.suit is not None else "that suit"
        return f"{'not ' if no else ''}of {unbroken}{suit}"
    if kind is TermKind.CARD:
        return f"{'other than' if no else 'that is'} the {term.card}"
    rank = _RANKS.get(term.rank, str(term.rank))
    side = "above" if kind is TermKind.HIGHER else "below"
    return f"{'not ' if no else ''}ranked {side} {'an' if rank == 'ace' else 'a'} {rank}"


def _set_words(card_set: Any) -> str:
    quals = [w for w in (_term_words(t) for t in card_set.terms) if w]
    return "any card" if not quals else "a card " + " and ".join(quals)


def choice_words(choice: Any) -> list[str]:
    """Each set of a card-set list in words, such as ``"a card of the suit led"``."""
    return [_set_words(o) for o in choice.options]


def choice_phrase(choice: Any, when: str) -> str:
    """A card-set list in words: ``when`` (such as "When you follow"), then what to play.

    Args:
        choice: a :class:`~cardrules.card_rules.CardChoice`.
        when: the situation, capitalised, without a comma.
    """
    options = [_set_words(o) for o in choice.options]
    if len(options) == 1:
        return f"{when}, you may play {options[0]}."
    first, *rest = options
    text = f"{when}, you must play {first} if you hold one"
    for o in rest:
        text += f"; otherwise {o}" + ("" if o == "any card" else " if you hold one")
    if options[-1] != "any card":
        text += "; holding none of these, any card"
    return text + "."


def best_card(trick: Sequence[Card], trump: Suit | None) -> Card:
    """The card winning ``trick`` so far: the highest trump, else the highest of the suit led."""
    best = trick[0]
    for c in trick[1:]:
        if c.suit == best.suit:
            if c.rank > best.rank:
                best = c
        elif c.suit == trump:
            best = c
    return best


def uses_unbroken(p: PlayRule) -> bool:
    """True when a list of ``p`` has an ``unbroken`` term."""
    lists = [getattr(p, name, None) for name in ("follow", "lead", "first_trick")]
    return any(
        t.unbroken for rule in lists if rule is not None for o in rule.options for t in o.terms
    )


def break_phrase(p: PlayRule) -> str:
    """When a suit is broken, in words: ``"a card of it has been played to a trick"``."""
    triggers = [t.name for t in getattr(p, "broken_by", ())] or ["ANY_PLAY"]
    words = {
        "ANY_PLAY": "a card of it has been played to a trick",
        "VOID_PLAY": "a card of it has been played by someone who could not follow suit",
        "FORCED_LEAD": "a card of it has been led by someone whose lead rule left nothing else",
    }
    parts = [words[t] for t in triggers if t in words]
    text = parts[0] if len(parts) == 1 else ", or ".join(parts)
    also = getattr(p, "also_breaks", ())
    if also:
        more = "; ".join(f"{k} breaks {s.word} too" for k, s in also)
        more += (
            ", when it is played in the same way"
            if len(also) == 1
            else (", when they are played in the same way")
        )
        return f"once {text} in the hand ({more})"
    return f"once {text} in the hand"


def _term_cards(
    term: Any, trick: list[Card], trump: Suit | None, broken: frozenset[Suit]
) -> frozenset[Card]:
    """The cards (of the whole pack) that one term matches, as the engine reads it."""
    from cardrules.card_rules import TermKind

    kind = term.kind
    if kind is TermKind.SUIT_LED or kind is TermKind.TRUMPS or kind is TermKind.WINNING:
        cards = _trick_term_cards(kind, trick, trump)
    else:
        cards = _pack_term_cards(term)
    if term.unbroken:
        cards = frozenset(c for c in cards if c.suit not in broken)
    return cards


def _trick_term_cards(kind: Any, trick: list[Card], trump: Suit | None) -> frozenset[Card]:
    """The cards a term of the trick (``suit led``, ``trumps``, ``winning``) matches."""
    from cardrules.card_rules import TermKind
    from cardrules.cards import ALL_CARDS

    if kind is TermKind.SUIT_LED:
        return frozenset(c for c in ALL_CARDS if trick and c.suit == trick[0].suit)
    if kind is TermKind.TRUMPS:
        return frozenset(c for c in ALL_CARDS if c.suit == trump)
    if not trick:
        return frozenset(ALL_CARDS)
    best = best_card(trick, trump)
    return frozenset(
        c
        for c in ALL_CARDS
        if (c.suit == best.suit and c.rank > best.rank) or (c.suit == trump and best.suit != trump)
    )


def _pack_term_cards(term: Any) -> frozenset[Card]:
    """The cards a term of the pack alone (any card, a suit, a card, a rank) matches."""
    from cardrules.card_rules import TermKind
    from cardrules.cards import ALL_CARDS

    kind = term.kind
    if kind is TermKind.ANY:
        return frozenset(ALL_CARDS)
    if kind is TermKind.SUIT:
        return frozenset(c for c in ALL_CARDS if c.suit == term.suit)
    if kind is TermKind.CARD:
        return frozenset({term.card})
    if kind is TermKind.HIGHER:
        return frozenset(c for c in ALL_CARDS if c.rank > term.rank)
    return frozenset(c for c in ALL_CARDS if c.rank < term.rank)


def choose(
    choice: Any,
    hand: frozenset[Card],
    trick: list[Card],
    trump: Suit | None,
    broken: frozenset[Suit] = frozenset(),
) -> tuple[frozenset[Card], int]:
    """The cards of ``hand`` in the first set of ``choice`` that holds one, and the set's
    index (``hand`` and -1 when none does): a card-set list as the rules define it."""
    for i, option in enumerate(choice.options):
        m = hand
        for term in option.terms:
            cards = _term_cards(term, trick, trump, broken)
            m = m - cards if term.negated else m & cards
            if not m:
                break
        if m:
            return m, i
    return hand, -1
