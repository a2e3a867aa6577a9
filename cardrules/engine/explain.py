"""The words of :class:`~cardrules.errors.IllegalAction`: why a bid or a card is
not allowed now."""

from __future__ import annotations

from cardrules.cards import ALL_CARDS, CardSet, Suit
from cardrules.engine.compiled_rules import _Rules


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
    return (
        f"the dealer may not bid {n}: the bids would add up to {total} tricks, "
        f"the number of tricks in the hand"
    )


def _explain_play(
    r: _Rules,
    c: int,
    hand: int,
    legal: tuple[int, int],
    trump: int,
    trick: list[int],
    best: int,
) -> str:
    """Why card ``c`` may not be played from ``hand``: ``legal`` is the mask of the
    cards that may be played and the code of the rule that limited it (see
    ``Game._legal_plays``); ``trick`` the cards played to the trick so far and
    ``best`` the card winning it."""
    cd = ALL_CARDS[c]
    if not hand >> c & 1:
        return f"you do not hold {cd}"
    mask, code = legal
    held = _cards_text(mask)
    if code == 1:
        return f"the first lead of the hand must be {ALL_CARDS[r.lead_card]}"
    if code == 2:
        return f"the first lead must be a {Suit(r.lead_card // 13).word[:-1]}: you hold {held}"
    if code == 3:
        return (
            f"trumps ({Suit(trump).word}) have not been broken: lead another suit, you hold {held}"
        )
    led = Suit(trick[0] // 13).word
    if code == 4:
        return f"must follow {led}: you hold {held}"
    best_card = ALL_CARDS[best]
    if code == 5:
        return f"must beat {best_card}: you hold {held}"
    if code == 6:
        return f"must beat {best_card} with a trump: you hold {held}"
    if code == 7:
        return f"must trump when void in {led}: you hold {held}"
    return f"{cd} may not be played now"  # pragma: no cover
