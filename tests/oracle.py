"""An independent, deliberately simple model of the trick rules, for the engine tests.

Nothing here imports the engine: cards are :class:`cardrules.cards.Card`
objects compared by suit and rank, hands are plain lists. The engine (bit
masks, incremental winners) is checked against it.

Also: small builders for the variants the engine tests play.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.cards import Card, Suit
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    DealerRule,
    FirstDealer,
    HandSizeRule,
    Pattern,
    PlayerRange,
    ScheduleRule,
    ScoringRule,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpRule,
    Variant,
    WinRule,
)
from cardrules.scoring import parse_formula

KACHUFUL_SCORE = "if exact then 10 + bid else 0"
COMMON_SCORE = "tricks + (if exact then 10 else 0)"
KA_CHU_FU_L = (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS)


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index (in play order) of the card that wins the trick."""
    led = cards[0].suit
    best = 0
    for i, c in enumerate(cards):
        b = cards[best]
        c_trump = trump is not None and c.suit == trump
        b_trump = trump is not None and b.suit == trump
        if c_trump and not b_trump:
            best = i
        elif c_trump and b_trump:
            if c.rank > b.rank:
                best = i
        elif not b_trump and c.suit == led and c.rank > b.rank:
            best = i
    return best


def legal_plays(
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    *,
    must_follow: bool = True,
    must_trump: bool = False,
    must_beat: bool = False,
    trumps_broken: bool = True,
    first_lead: Card | None = None,
    first_lead_suit: Suit | None = None,
) -> set[Card]:
    """The cards a player may play, written out rule by rule.

    ``trumps_broken=False`` means trumps may not be led yet (unless the hand
    holds nothing else). ``first_lead``/``first_lead_suit``: the first lead of
    the hand must be that card / a card of that suit, when held.
    """
    hand = list(hand)
    if not trick:
        if first_lead is not None and first_lead in hand:
            return {first_lead}
        if first_lead_suit is not None:
            of_suit = [c for c in hand if c.suit == first_lead_suit]
            if of_suit:
                return set(of_suit)
        if not trumps_broken and trump is not None:
            others = [c for c in hand if c.suit != trump]
            if others:
                return set(others)
        return set(hand)
    led = trick[0].suit
    winner = trick[trick_winner(trick, trump)]
    following = [c for c in hand if c.suit == led]
    if following:
        if not must_follow:
            return set(hand)
        if must_beat and winner.suit == led:
            higher = [c for c in following if c.rank > winner.rank]
            if higher:
                return set(higher)
        return set(following)
    trumps = [c for c in hand if trump is not None and c.suit == trump]
    if trumps and must_beat:
        beaters = [c for c in trumps if winner.suit != trump or c.rank > winner.rank]
        if beaters:
            return set(beaters)
    if trumps and must_trump:
        return set(trumps)
    return set(hand)


# --------------------------------------------------------------------------- variants


def formula(text: str) -> ScoringRule:
    return ScoringRule(formula=parse_formula(text))


def oh_hell_start() -> HandSizeRule:
    """10 cards for 3-5 players, 8 for six, 7 for seven (the Pagat sheet)."""
    return HandSizeRule(
        table=(SizeEntry(3, 5, 10), SizeEntry(6, 6, 8), SizeEntry(7, 7, 7)), largest=False
    )


def oh_hell(**changes: object) -> Variant:
    """Oh Hell after the 002 sheet: turned-up trumps, 10/8/7 down and up, hook."""
    v = Variant(
        name="oh-hell",
        players=PlayerRange(3, 7),
        schedule=ScheduleRule(start=oh_hell_start(), pattern=Pattern.DOWN_UP),
        trumps=TrumpRule(kind=TrumpKind.TURN_UP),
        scoring=formula(COMMON_SCORE),
    )
    return v.evolve(**changes) if changes else v


def kachuful(**changes: object) -> Variant:
    """Kachuful after the 000 text: Ka-Chu-Fu-L cycle, 10 + bid for an exact bid."""
    v = Variant(
        name="kachuful",
        players=PlayerRange(3, 7),
        schedule=ScheduleRule(start=oh_hell_start(), pattern=Pattern.DOWN_UP),
        trumps=TrumpRule(kind=TrumpKind.CYCLE, cycle=KA_CHU_FU_L),
        scoring=formula(KACHUFUL_SCORE),
    )
    return v.evolve(**changes) if changes else v


def one_hand(size: int, **changes: object) -> Variant:
    """A one-hand game of ``size`` cards (tie shared), for stacked-deck tests."""
    v = Variant(
        name=f"one-hand-{size}",
        players=PlayerRange(3, 7),
        schedule=ScheduleRule(pattern=Pattern.LIST, sizes=(size,)),
        trumps=TrumpRule(kind=TrumpKind.NONE),
        dealer=DealerRule(first=FirstDealer.SEAT, seat=3),
        winning=WinRule(tie=TieBreak.SHARED),
        scoring=formula(KACHUFUL_SCORE),
    )
    return v.evolve(**changes) if changes else v


def simultaneous(v: Variant) -> Variant:
    return v.evolve(bidding=BiddingRule(style=BidStyle.SIMULTANEOUS, hook=False))
