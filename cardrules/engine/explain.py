"""The words of :class:`~cardrules.errors.IllegalAction`: why a bid or a card is
not allowed now."""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.card_rules import CardTerm, TermKind
from cardrules.cards import CARDS, CardSet, Suit
from cardrules.engine.compiled_rules import _Rules
from cardrules.engine.tables import _SUIT_OF


def _cards_text(mask: int) -> str:
    return " ".join(str(c) for c in CardSet(mask))


def _explain_bid(r: _Rules, size: int, bids: list[int], s: int, n: int, *, amend: bool) -> str:
    """Why seat ``s`` may not bid (or, with ``amend``, change its bid to) ``n``
    in a ``size``-card hand where the bids so far are ``bids`` (-1: none yet)."""
    hi = size if r.max_bid is None else min(r.max_bid, size)
    lo = min(r.min_bid, hi)
    if not lo <= n <= hi:
        return f"bids run from {lo} to {hi} in a {size}-card hand, not {n}"
    if amend and n == bids[s]:
        return f"your bid is already {n}"
    total = sum(b for b in bids if b >= 0) + n
    if r.team_bids:
        return (
            f"the last side to bid may not bid {n}: the sides' bids would add up to "
            f"{total} tricks, the number of tricks in the hand"
        )
    return (
        f"the dealer may not bid {n}: the bids would add up to {total} tricks, "
        f"the number of tricks in the hand"
    )


def _explain_play(
    r: _Rules,
    c: int,
    hand: int,
    legal: tuple[int, int, int],
    trump: int,
    trick: list[int],
    best: int,
    suit_of: Sequence[int] = _SUIT_OF,
) -> str:
    """Why card ``c`` may not be played from ``hand``: ``legal`` is the mask of the
    cards that may be played, the code of the rule that limited it and the index of
    the set of that rule's list that applied (see ``play._legal_plays``); ``trick``
    the cards played to the trick so far, ``best`` the card winning it and
    ``suit_of`` the suit each card counts as in this hand (its effective suit)."""
    cd = CARDS[c]
    if not hand >> c & 1:
        return f"you do not hold {cd}"
    mask, code, option = legal
    held = _cards_text(mask)
    if code == 1:
        return f"the first lead of the hand must be {CARDS[r.lead_card]}"
    if code == 2:
        return f"the first lead must be a {Suit(suit_of[r.lead_card]).word[:-1]}: you hold {held}"
    rule = {3: r.lead_rule, 4: r.follow_rule, 5: r.first_trick_rule}.get(code)
    if rule is None or not 0 <= option < len(rule.options):
        return f"{cd} may not be played now"  # pragma: no cover
    terms = rule.options[option].terms
    led = Suit(suit_of[trick[0]]).word if trick else ""
    trumps = Suit(trump).word if trump >= 0 else "trumps"
    best_card = CARDS[best] if trick else None
    if code == 3 and terms == _NOT_UNBROKEN_TRUMPS:
        return f"trumps ({trumps}) have not been broken: lead another suit, you hold {held}"
    if code == 4:
        if terms == _LED:
            return f"must follow {led}: you hold {held}"
        if terms == _LED_WINNING:
            return f"must beat {best_card}: you hold {held}"
        if terms == _TRUMPS_WINNING:
            return f"must beat {best_card} with a trump: you hold {held}"
        if terms == _TRUMPS:
            return f"must trump when void in {led}: you hold {held}"
    where = {3: "to lead", 4: "to follow", 5: "on the first trick of a hand"}[code]
    return f"the rule {where} here is “{rule.options[option]}”: you may play {held}"


_LED = (CardTerm(TermKind.SUIT_LED),)
_TRUMPS = (CardTerm(TermKind.TRUMPS),)
_LED_WINNING = (CardTerm(TermKind.SUIT_LED), CardTerm(TermKind.WINNING))
_TRUMPS_WINNING = (CardTerm(TermKind.TRUMPS), CardTerm(TermKind.WINNING))
_NOT_UNBROKEN_TRUMPS = (
    CardTerm(TermKind.ANY),
    CardTerm(TermKind.TRUMPS, unbroken=True, negated=True),
)
