"""The words of :class:`~cardrules.errors.IllegalAction`: why a bid or a card is
not allowed now, with the error's code and data (see :data:`cardrules.errors.ERROR_CODES`).

:func:`_refusal` builds every refusal of the engine: its data holds the acting
``seat`` and the ``action``'s label, plus what the reason adds. A refusal
describes only what the acting seat may know (its own hand, the table).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.card_rules import CardTerm, TermKind
from cardrules.cards import CARDS, CardSet, Suit
from cardrules.counted import counted
from cardrules.engine.actions import Action
from cardrules.engine.state.compiled_rules import _Rules
from cardrules.engine.state.ranks import _led_suit
from cardrules.engine.state.tables import _SUIT_OF
from cardrules.errors import IllegalAction


def _refusal(
    code: str, message: str, seat: int, action: Action, data: dict[str, object] | None = None
) -> IllegalAction:
    """The IllegalAction of an action refused by the rules: ``code`` (a key of
    ``ERROR_CODES``), the message, and data with the ``seat`` and ``action``."""
    d: dict[str, object] = {"seat": seat, "action": action.label}
    if data:
        d.update(data)
    return IllegalAction(message, code=code, data=d)


def _cards_text(mask: int) -> str:
    return " ".join(str(c) for c in CardSet(mask))


def _explain_bid(
    r: _Rules, size: int, bids: list[int], s: int, n: int, *, amend: bool
) -> tuple[str, str, dict[str, object]]:
    """Why seat ``s`` may not bid (or, with ``amend``, change its bid to) ``n``
    in a ``size``-card hand where the bids so far are ``bids`` (-1: none yet):
    the error code, the message and its data."""
    lo, hi = r.bid_range(size)
    if not lo <= n <= hi:
        return (
            "bid_out_of_range",
            f"bids run from {lo} to {hi} in a {size}-card hand, not {n}",
            {"value": n, "min": lo, "max": hi, "hand_size": size},
        )
    if amend and n == bids[s]:
        return "same_bid", f"your bid is already {n}", {"value": n}
    total = sum(b for b in bids if b >= 0) + n
    if r.team_bids:
        return (
            "hook",
            f"the last side to bid may not bid {n}: the sides' bids would add up to "
            f"{counted(total, 'trick')}, the number of tricks in the hand",
            {"value": n, "total": total, "hand_size": size},
        )
    return (
        "hook",
        f"the dealer may not bid {n}: the bids would add up to {counted(total, 'trick')}, "
        f"the number of tricks in the hand",
        {"value": n, "total": total, "hand_size": size},
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
    codes: tuple[int, ...] = (),
) -> tuple[str, str, dict[str, object]]:
    """Why card ``c`` may not be played from ``hand`` (the error code, the message
    and its data): ``legal`` is the mask of the cards that may be played, the code
    of the rule that limited it and the index of the set of that rule's list that
    applied (see ``play._legal_plays``); ``trick`` the cards played to the trick so
    far, ``best`` the card winning it and ``suit_of`` the suit each card counts as
    in this hand (its effective suit), ``codes`` the cards' powers in a trick
    decided by powers (empty otherwise: then the first card sets the suit). The
    message and data describe only the acting seat's own hand (``hand``) and the
    cards on the table."""
    cd = CARDS[c & 63]  # a copy (several packs) is told as its card
    if not hand >> c & 1:
        return "card_not_in_hand", f"you do not hold {cd}", {"card": str(cd)}
    mask, code, option = legal
    held = _cards_text(mask)
    data: dict[str, object] = {"card": str(cd), "legal": held.split()}
    if code == 1:
        lead = CARDS[r.lead_card]
        data["lead_card"] = str(lead)
        return "must_lead_card", f"the first lead of the hand must be {lead}", data
    if code == 2:
        word = Suit(suit_of[r.lead_card]).word
        data["suit"] = word
        return "must_lead_suit", f"the first lead must be a {word[:-1]}: you hold {held}", data
    rule = {3: r.lead_rule, 4: r.follow_rule, 5: r.first_trick_rule}.get(code)
    if rule is None or not 0 <= option < len(rule.options):
        return "illegal_card", f"{cd} may not be played now", data  # pragma: no cover
    data["rule"] = str(rule.options[option])
    terms = rule.options[option].terms
    led_suit = (
        (_led_suit(codes, tuple(suit_of), trick) if codes else suit_of[trick[0]]) if trick else -1
    )
    # (no suit led: a card that always wins, or only cards that always lose, so far)
    led = Suit(led_suit).word if 0 <= led_suit < 4 else "no suit"
    trumps = Suit(trump).word if trump >= 0 else "trumps"
    best_card = CARDS[best & 63] if trick else None
    if trick:
        data["led"] = led
        data["winning"] = str(best_card)
    if code == 3 and terms == _NOT_UNBROKEN_TRUMPS:
        data["trumps"] = trumps
        return (
            "cannot_lead",
            f"trumps ({trumps}) have not been broken: lead another suit, you hold {held}",
            data,
        )
    if code == 4:
        if terms == _LED:
            return "must_follow_suit", f"must follow {led}: you hold {held}", data
        if terms == _LED_WINNING:
            return "must_beat", f"must beat {best_card}: you hold {held}", data
        if terms == _TRUMPS_WINNING:
            return (
                "must_beat_with_trump",
                f"must beat {best_card} with a trump: you hold {held}",
                data,
            )
        if terms == _TRUMPS:
            return "must_trump", f"must trump when void in {led}: you hold {held}", data
    where = {3: "to lead", 4: "to follow", 5: "on the first trick of a hand"}[code]
    kind = {3: "cannot_lead", 4: "follow_rule", 5: "first_trick_rule"}[code]
    return kind, f"the rule {where} here is “{rule.options[option]}”: you may play {held}", data


_LED = (CardTerm(TermKind.SUIT_LED),)
_TRUMPS = (CardTerm(TermKind.TRUMPS),)
_LED_WINNING = (CardTerm(TermKind.SUIT_LED), CardTerm(TermKind.WINNING))
_TRUMPS_WINNING = (CardTerm(TermKind.TRUMPS), CardTerm(TermKind.WINNING))
_NOT_UNBROKEN_TRUMPS = (
    CardTerm(TermKind.ANY),
    CardTerm(TermKind.TRUMPS, unbroken=True, negated=True),
)
