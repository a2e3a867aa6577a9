"""Worked examples for the rules pages, computed for the variant at hand.

The hook example asks the engine which bids the dealer may make (falling back
to the bidding rule itself when the engine is not available); the worked hand
is a seeded game played by a simple, fixed way of choosing.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardrules.rules import (
    BidStyle,
    HandSizeRule,
    Pattern,
    ScheduleRule,
    SizeEntry,
    Variant,
)

__all__ = [
    "NAMES",
    "HookExample",
    "dealer_bids_by_rule",
    "example_players",
    "hook_examples",
    "one_hand_variant",
]

#: Names for the seats in worked examples, seat 0 first.
NAMES = ("Asha", "Ben", "Chitra", "Dev", "Ema", "Farid", "Gita", "Hari")


def example_players(v: Variant, prefer: int = 3) -> int:
    """The table size used by a worked example: ``prefer`` if allowed, else the nearest."""
    return min(max(prefer, v.players.min), v.players.max)


def one_hand_variant(v: Variant, players: int, cards: int) -> Variant:
    """``v`` with a schedule of a single hand of ``cards`` cards for ``players`` players."""
    start = HandSizeRule(table=(SizeEntry(players, players, cards),), largest=False)
    return v.evolve(schedule=ScheduleRule(start=start, pattern=Pattern.SAME, count=1))


def bid_limits(v: Variant, cards: int) -> tuple[int, int]:
    """The lowest and highest bid allowed in a hand of ``cards`` cards."""
    hi = cards if v.bidding.max_bid is None else min(cards, v.bidding.max_bid)
    return v.bidding.min_bid, hi


def dealer_bids_by_rule(v: Variant, cards: int, others: tuple[int, ...]) -> tuple[int, ...]:
    """The dealer's allowed bids, computed from the bidding rule alone."""
    lo, hi = bid_limits(v, cards)
    forbidden = cards - sum(others) if v.bidding.hook else None
    return tuple(b for b in range(lo, hi + 1) if b != forbidden)


@dataclass(frozen=True)
class HookExample:
    """The dealer's choice after the others have bid.

    Attributes:
        players: the number of players.
        cards: cards each.
        others: the bids before the dealer's, in bidding order.
        allowed: the bids the dealer may make.
        forbidden: the bid the hook forbids, if any.
        by_engine: True when ``allowed`` came from the engine's legal actions.
    """

    players: int
    cards: int
    others: tuple[int, ...]
    allowed: tuple[int, ...]
    forbidden: int | None
    by_engine: bool


def _dealer_bids_by_engine(
    v: Variant, players: int, cards: int, others: tuple[int, ...]
) -> tuple[int, ...] | None:
    try:
        from cardrules.engine import Bid, Game, Look
    except ImportError:
        return None
    g = Game(one_hand_variant(v, players, cards), players=players, seed=0)
    for b in (*others, None):
        actions = g.legal_actions()
        if Look() in actions:  # blind-bidding games: look first, then bid openly
            g.apply(Look())
            actions = g.legal_actions()
        if b is not None:
            g.apply(Bid(b))
    return tuple(sorted(a.n for a in actions if isinstance(a, Bid) and not a.blind))


def _example_cards(v: Variant, players: int) -> int:
    sizes = v.hand_sizes(players)
    if 3 in sizes:
        return 3
    small = [s for s in sizes if s >= 2]
    return min(small) if small else max(sizes, default=1)


def hook_examples(v: Variant, players: int | None = None) -> list[HookExample]:
    """Two worked cases of the dealer's last bid: the usual one and the "already past" one.

    Returns an empty list for a game without bidding in turn.
    """
    if not v.has_bidding or v.bidding.style is not BidStyle.IN_TURN:
        return []
    n = players if players is not None else example_players(v)
    cards = _example_cards(v, n)
    lo, hi = bid_limits(v, cards)
    usual = [max(lo, min(hi, 1 - i % 2)) for i in range(n - 1)]
    while sum(usual) >= cards and any(b > lo for b in usual):
        i = max(i for i, b in enumerate(usual) if b > lo)
        usual[i] -= 1
    past = [max(lo, min(hi, 2 if i == 0 else 1)) for i in range(n - 1)]
    while sum(past) <= cards and any(b < hi for b in past):
        i = max(i for i, b in enumerate(past) if b < hi)
        past[i] += 1
    cases = [tuple(usual)]
    if sum(past) > cards:
        cases.append(tuple(past))
    out = []
    for others in cases:
        engine = _dealer_bids_by_engine(v, n, cards, others)
        allowed = engine if engine is not None else dealer_bids_by_rule(v, cards, others)
        gap = cards - sum(others)
        forbidden = gap if v.bidding.hook and lo <= gap <= hi else None
        out.append(HookExample(n, cards, others, allowed, forbidden, engine is not None))
    return out
