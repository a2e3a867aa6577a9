"""Worked examples for the rules pages, computed for the variant at hand.

The hook example asks the engine which bids the dealer may make (falling back
to the bidding rule itself when the engine is not available); the worked hand
is a seeded game played by a simple, fixed way of choosing.

The examples of play (:func:`play_examples`) are data: a deal, the cards played
before, and for some cards of the player to act whether they may be played. The
verdicts come from :func:`allowed_plays`, the follow rules as the page states
them in words, and the page prints them; the tests replay every example through
the engine, so a page can only say what the engine does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cardrules.cards import Card, Rank, Suit
from cardrules.rulebook.follow import (
    PlayFlags,
    best_card,
    choice_words,
    choose,
    first_trick_rule,
    play_flags,
    uses_unbroken,
)
from cardrules.rulebook.hand_trumps import has_trumps
from cardrules.rulebook.words import first_trick_cuts, join_words, side_bids, suit_one
from cardrules.rules import (
    BidStyle,
    Direction,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    Mode,
    PassRule,
    Pattern,
    ScheduleRule,
    SizeEntry,
    TrumpLead,
    Variant,
)

__all__ = [
    "NAMES",
    "HookExample",
    "PlayExample",
    "allowed_plays",
    "best_card",
    "dealer_bids_by_rule",
    "example_players",
    "hook_examples",
    "one_hand_variant",
    "play_examples",
    "play_examples_section",
    "seat_names",
    "stack_deck",
]

#: Names for the seats in worked examples, seat 0 first (one for each letter).
NAMES = (
    "Asha",
    "Ben",
    "Chitra",
    "Dev",
    "Ema",
    "Farid",
    "Gita",
    "Hari",
    "Ines",
    "Jai",
    "Kiran",
    "Leela",
    "Mohan",
    "Nina",
    "Omar",
    "Priya",
    "Quinn",
    "Ravi",
    "Sita",
    "Tara",
    "Uma",
    "Vikram",
    "Wen",
    "Xavier",
    "Yusuf",
    "Zara",
)


def seat_names(players: int) -> tuple[str, ...]:
    """A name for each of ``players`` seats, seat 0 first.

    Up to 26 seats get the names of :data:`NAMES`; a larger table (the language
    allows up to 52 players) gets ``"Player 1"``, ``"Player 2"``, and so on, so
    every count has distinct names.
    """
    if players <= len(NAMES):
        return NAMES[:players]
    return tuple(f"Player {i + 1}" for i in range(players))


def example_players(v: Variant, prefer: int = 3) -> int:
    """The table size used by a worked example: ``prefer`` if allowed, else the nearest."""
    return min(max(prefer, v.players.min), v.players.max)


def base_rules(v: Variant, players: int) -> Variant:
    """The rules the worked cases show for ``players`` players: the lines with
    a condition on the number of players made (the pack of that table), those
    with a condition on the hand left out (the page says them apart)."""
    return v.for_players(players).evolve(conditional=()) if v.conditional else v


def one_hand_variant(v: Variant, players: int, cards: int) -> Variant:
    """``v`` with a schedule of a single hand of ``cards`` cards for ``players`` players
    (and no pass of cards: the worked cases show the bidding and the play of a hand
    as dealt)."""
    start = HandSizeRule(table=(SizeEntry(players, players, cards),), largest=False)
    return v.evolve(
        schedule=ScheduleRule(start=start, pattern=Pattern.SAME, count=1), passing=PassRule()
    )


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
        dealer: the dealer's seat (the last seat).
        bidders: the seats that bid before the dealer, in bidding order.
        last: the seat that bids last, when it is not the dealer (one bid per
            side, ``team bids: one per side``: the first partner of the last
            side in turn); ``None``: the dealer.
    """

    players: int
    cards: int
    others: tuple[int, ...]
    allowed: tuple[int, ...]
    forbidden: int | None
    by_engine: bool
    dealer: int = 0
    bidders: tuple[int, ...] = field(default=())
    last: int | None = None


def _order_after(v: Variant, players: int, seat: int) -> list[int]:
    """The other seats in the direction of play, starting after ``seat``."""
    step = 1 if v.direction is Direction.CLOCKWISE else -1
    return [(seat + step * k) % players for k in range(1, players)]


def _dealer_bids_by_engine(
    v: Variant, players: int, cards: int, others: tuple[int, ...]
) -> tuple[int, ...] | None:
    try:
        from cardrules.engine import Bid, Game, Look
    except ImportError:
        return None
    g = Game(one_hand_variant(v, players, cards), players=players, seed=0, first_dealer=players - 1)
    for b in (*others, None):
        actions = g.legal_actions()
        if Look() in actions:  # blind-bidding games: look first, then bid openly
            g.apply_as_current(Look())
            actions = g.legal_actions()
        if b is not None:
            g.apply_as_current(Bid(b))
    return tuple(sorted(a.n for a in actions if isinstance(a, Bid) and not a.blind))


def _example_cards(v: Variant, players: int) -> int:
    sizes = v.hand_sizes(players)
    if 3 in sizes:
        return 3
    small = [s for s in sizes if s >= 2]
    return min(small) if small else max(sizes, default=1)


def _hook_bid_order(v: Variant, n: int) -> list[int]:
    """The seats that bid in a hook example, in turn, the dealer last (one partner of
    each side when a side bids as one)."""
    order = [*_order_after(v, n, n - 1), n - 1]
    if side_bids(v):
        # One bid per side: the first partner of each side in turn bids.
        order = [s for i, s in enumerate(order) if not set(v.team_of(s)) & set(order[:i])]
    return order


def _hook_cases(lo: int, hi: int, cards: int, bidders: int) -> list[tuple[int, ...]]:
    """The bids before the dealer's in each hook example: a usual total below
    ``cards``, and one already past it when the bid limits allow."""
    usual = [max(lo, min(hi, 1 - i % 2)) for i in range(bidders)]
    while sum(usual) >= cards and any(b > lo for b in usual):
        i = max(i for i, b in enumerate(usual) if b > lo)
        usual[i] -= 1
    past = [max(lo, min(hi, 2 if i == 0 else 1)) for i in range(bidders)]
    while sum(past) <= cards and any(b < hi for b in past):
        i = max(i for i, b in enumerate(past) if b < hi)
        past[i] += 1
    cases = [tuple(usual)]
    if sum(past) > cards:
        cases.append(tuple(past))
    return cases


def hook_examples(v: Variant, players: int | None = None) -> list[HookExample]:
    """Two worked cases of the dealer's last bid: the usual one and the "already past" one.

    Returns an empty list for a game without bidding in turn.
    """
    if not v.has_bidding or v.bidding.style is not BidStyle.IN_TURN:
        return []
    n = players if players is not None else example_players(v)
    v = base_rules(v, n)
    cards = _example_cards(v, n)
    lo, hi = bid_limits(v, cards)
    order = _hook_bid_order(v, n)
    bidders = tuple(order[:-1])
    out = []
    for others in _hook_cases(lo, hi, cards, len(bidders)):
        engine = _dealer_bids_by_engine(v, n, cards, others)
        allowed = engine if engine is not None else dealer_bids_by_rule(v, cards, others)
        gap = cards - sum(others)
        forbidden = gap if v.bidding.hook and lo <= gap <= hi else None
        last = None if order[-1] == n - 1 else order[-1]
        out.append(
            HookExample(
                n, cards, others, allowed, forbidden, engine is not None, n - 1, bidders, last
            )
        )
    return out


# ------------------------------------------------------------------ which cards may be played


def allowed_plays(
    v: Variant,
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    *,
    first_trick: bool,
    broken: bool,
    broken_suits: frozenset[Suit] = frozenset(),
) -> tuple[frozenset[Card], str]:
    """The cards of ``hand`` that may be played, by the rules as the page words them.

    Args:
        v: the variant (its play rules).
        hand: the cards of the player to act.
        trick: the cards played to the trick so far, in order (empty to lead).
        trump: the trump suit of the hand, or ``None``.
        first_trick: whether this is the first trick of the hand.
        broken: whether a trump has been played earlier in the hand.
        broken_suits: the suits broken so far in the hand (for the ``unbroken`` terms
            of a card-set list).

    Returns:
        The allowed cards and why, as a short code: ``"first card"``, ``"first
        suit"``, ``"not broken"``, ``"only trumps"``, ``"lead"`` (leading), ``"free"``
        (no need to follow), ``"follow"``, ``"cannot beat"``, ``"trumped"``,
        ``"beat"`` (following), ``"trump to beat"``, ``"overtrump"``, ``"trump"``,
        ``"void, cannot beat"`` and ``"void"`` (not holding the suit led); for a play
        rule given as card-set lists, ``"list N"`` (the N-th set of the lead or follow
        list, -1 for none) or ``"first trick N"`` (the first trick's list).
    """
    p = play_flags(v.play)
    if p is None:
        return _allowed_by_lists(v, frozenset(hand), trick, trump, first_trick, broken_suits)
    cards = frozenset(hand)
    if not trick:
        return _allowed_leads(v, p, cards, trump, first_trick=first_trick, broken=broken)
    led = trick[0].suit
    best = best_card(trick, trump)
    follow = frozenset(x for x in cards if x.suit == led)
    if follow:
        return _allowed_follows(p, cards, follow, best, led)
    return _allowed_when_void(p, cards, best, trump)


def _allowed_leads(
    v: Variant,
    p: PlayFlags,
    cards: frozenset[Card],
    trump: Suit | None,
    *,
    first_trick: bool,
    broken: bool,
) -> tuple[frozenset[Card], str]:
    """:func:`allowed_plays` for the lead of a trick."""
    c = v.play.lead_card
    if first_trick and c is not None and v.play.first_lead is FirstLead.CARD and c in cards:
        return frozenset({c}), "first card"
    if first_trick and c is not None and v.play.first_lead is FirstLead.SUIT:
        suit = frozenset(x for x in cards if x.suit == c.suit)
        if suit:
            return suit, "first suit"
    if trump is not None and p.trump_lead is TrumpLead.BROKEN and not broken:
        plain = frozenset(x for x in cards if x.suit != trump)
        if not plain:
            return cards, "only trumps"
        if plain != cards:
            return plain, "not broken"
    return cards, "lead"


def _allowed_follows(
    p: PlayFlags, cards: frozenset[Card], follow: frozenset[Card], best: Card, led: Suit
) -> tuple[frozenset[Card], str]:
    """:func:`allowed_plays` for a player holding ``follow``, cards of the suit led."""
    if not p.must_follow:
        return cards, "free"
    if p.must_beat and best.suit == led:
        higher = frozenset(x for x in follow if x.rank > best.rank)
        if higher:
            return higher, "beat" if higher != follow else "follow"
        return follow, "cannot beat"
    return follow, "trumped" if p.must_beat else "follow"


def _allowed_when_void(
    p: PlayFlags, cards: frozenset[Card], best: Card, trump: Suit | None
) -> tuple[frozenset[Card], str]:
    """:func:`allowed_plays` for a player holding no card of the suit led."""
    if trump is None or not (p.must_trump or p.must_beat):
        return cards, "void"
    trumps = frozenset(x for x in cards if x.suit == trump)
    if not trumps:
        return cards, "void"
    if p.must_beat:
        over = best.suit == trump
        beaters = frozenset(x for x in trumps if x.rank > best.rank) if over else trumps
        if beaters:
            return beaters, "overtrump" if over else "trump to beat"
    if p.must_trump:
        return trumps, "trump"
    return cards, "void, cannot beat"


def _allowed_by_lists(
    v: Variant,
    cards: frozenset[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    first_trick: bool,
    broken: frozenset[Suit],
) -> tuple[frozenset[Card], str]:
    """:func:`allowed_plays` for a play rule given as card-set lists."""
    p = v.play
    c = p.lead_card
    if not trick and first_trick and c is not None:
        if p.first_lead is FirstLead.CARD and c in cards:
            return frozenset({c}), "first card"
        if p.first_lead is FirstLead.SUIT:
            suit = frozenset(x for x in cards if x.suit == c.suit)
            if suit:
                return suit, "first suit"
    rule = getattr(p, "lead" if not trick else "follow")
    mask, option = choose(rule, cards, list(trick), trump, broken)
    first = first_trick_rule(p)
    if first_trick and first is not None:
        narrowed, n = choose(first, mask, list(trick), trump, broken)
        if narrowed != mask:
            return narrowed, f"first trick {n}"
    return mask, f"list {option}"


@dataclass(frozen=True)
class PlayExample:
    """One example of which cards may be played, as the page states it.

    The deal is that of a single hand: ``cards`` cards each (a trick-taking
    game, played as one hand of that size with ``trump`` as trumps) or the whole
    pack (a shedding game, played under its own rules), dealt one card at a
    time from ``deck``, starting with the dealer's neighbour. After everyone has
    bid, ``plays`` are played, and then the player in ``seat`` may play the
    cards ``checks`` marks True and not those it marks False.

    Attributes:
        text: the sentence on the page.
        players: the number of players.
        cards: cards each (0 for a shedding game, which deals the whole pack).
        dealer: the dealer's seat.
        trump: the trump suit of the hand, or ``None``.
        deck: the cards in the order they are dealt.
        plays: the cards played before, as ``(seat, card)``.
        seat: the player to act.
        checks: ``(card, may be played)`` for the cards the sentence names.
    """

    text: str
    players: int
    cards: int
    dealer: int
    trump: Suit | None
    deck: tuple[Card, ...]
    plays: tuple[tuple[int, Card], ...]
    seat: int
    checks: tuple[tuple[Card, bool], ...]


@dataclass
class _Spec:
    """A case before it is dealt: positions count from the first leader (0)."""

    trump: Suit | None
    setup: list[tuple[int, Card]]
    actor: int
    fixed: dict[int, list[Card]]
    avoid: dict[int, set[Suit]] = field(default_factory=dict)


def stack_deck(hands: Sequence[Sequence[Card]]) -> list[Card]:
    """The card order that deals ``hands`` (by position, the dealer's neighbour first)
    one card at a time."""
    queues = [list(h) for h in hands]
    deck: list[Card] = []
    while any(queues):
        for q in queues:
            if q:
                deck.append(q.pop(0))
    return deck


def _example_pack(v: Variant) -> list[Card]:
    """The cards the page's examples deal: the pack less every card a trump order
    names for some trump suit, whose suit and rank then depend on the hand (the
    examples reason with printed suits, aces high; the trump order has its own
    paragraph)."""
    pack = v.deck.cards
    special = {c for s in Suit for c in v.trumps.ranking(s, pack)} if v.trumps.order else set()
    # The special cards (54-63) have no suit or rank: their powers have their
    # own words on the page and their own examples in the file.
    return [c for c in pack if c not in special and not c.is_special]


class _Pack:
    """The cards of a variant's pack still free for an example."""

    def __init__(self, v: Variant) -> None:
        self.cards = set(_example_pack(v))
        # A pack short of some ranks (Euchre's nine to ace): a case asking for
        # ranks the pack lacks takes the nearest rank it has instead.
        self.short = len(v.deck.cards) < 52

    def take(self, suit: Suit, ranks: Sequence[int], *, strict: bool = False) -> Card | None:
        """The first free card of ``suit`` among ``ranks`` (in that order); in a
        short pack, unless ``strict``, else the free card of the suit nearest the
        first of them."""
        for r in ranks:
            c = Card.of(Rank(r), suit)
            if c in self.cards:
                self.cards.discard(c)
                return c
        if self.short and not strict and ranks:
            free = sorted(
                (c for c in self.cards if c.suit == suit),
                key=lambda c: (abs(int(c.rank) - ranks[0]), int(c.rank)),
            )
            if free:
                self.cards.discard(free[0])
                return free[0]
        return None

    def below(self, c: Card) -> Card | None:
        """The lowest free card of ``c``'s suit below it."""
        return self.take(c.suit, range(2, int(c.rank)), strict=True)

    def above(self, c: Card) -> Card | None:
        """The highest free card of ``c``'s suit above it."""
        return self.take(c.suit, range(14, int(c.rank), -1), strict=True)


_MID = (8, 9, 7, 10, 6, 11, 5, 12, 4, 13, 3, 14, 2)


def _cards_each(v: Variant, n: int) -> int:
    if v.mode is Mode.SHEDDING:
        return 0
    c = max(3, v.bidding.min_bid if v.has_bidding else 0)
    return min(c, v.deck.size // n)


@dataclass(frozen=True)
class _CaseRules:
    """What the cases of :func:`_specs` are built from: the table, the suits they use
    and the variant's rules of the first lead and of following.

    Attributes:
        v: the variant.
        n: the number of players.
        room: the most cards a case may fix for one position.
        trump: the trump suit of the cases, or ``None``.
        led_suit: the suit the first leader leads.
        neutral: a suit neither led nor trumps.
        fourth: the other suit neither led nor trumps.
        lead_card: the variant's lead card, or ``None``.
        holder: whether the holder of the lead card leads first.
        must_card: the card the first lead must be, or ``None``.
        must_suit: the suit the first lead must be of, or ``None``.
        must_follow: whether a player must follow suit.
        must_trump: whether a player without the suit led must trump.
        must_beat: whether a player must beat the best card when able.
        trumps_broken: whether trumps may not be led before they are broken.
    """

    v: Variant
    n: int
    room: int
    trump: Suit | None
    led_suit: Suit
    neutral: Suit
    fourth: Suit
    lead_card: Card | None
    holder: bool
    must_card: Card | None
    must_suit: Suit | None
    must_follow: bool
    must_trump: bool
    must_beat: bool
    trumps_broken: bool

    def fresh(self) -> tuple[_Pack, Card | None, list[Card]]:
        """A pack, the card led by the first leader, and the first leader's own cards."""
        pk = _Pack(self.v)
        if self.lead_card is not None and self.holder:
            pk.cards.discard(self.lead_card)
        if self.must_card is not None:
            led: Card | None = self.must_card
            pk.cards.discard(self.must_card)
        else:
            led = pk.take(self.led_suit, _MID)
        own = [led] if led is not None else []
        if self.holder and self.lead_card is not None and self.lead_card not in own:
            own.append(self.lead_card)
        return pk, led, own

    def hand(self, mine: Sequence[Card | None]) -> list[Card]:
        """The cards of ``mine`` that were found, as many as a position may hold."""
        return [x for x in mine if x is not None][: self.room]


def _found(*cards: Card | None) -> bool:
    """Whether every card asked of the pack was found."""
    return all(x is not None for x in cards)


def _suits(*suits: Suit | None) -> set[Suit]:
    """The suits given, less the ``None`` ones."""
    return {s for s in suits if s is not None}


def _led_suit(v: Variant, must_card: Card | None, must_suit: Suit | None) -> Suit:
    """The suit the cases lead: the first lead's, else hearts, else the longest suit."""
    if must_card is not None:
        return must_card.suit
    if must_suit is not None:
        return must_suit
    if len(v.deck.cards.of_suit(Suit.HEARTS)) >= 6:
        return Suit.HEARTS
    return sorted(Suit, key=lambda s: -len(v.deck.cards.of_suit(s)))[0]


def _case_trump(v: Variant, led_suit: Suit) -> Suit | None:
    """The trump suit of the cases: one the variant names if it can, never the suit led."""
    if v.mode is Mode.SHEDDING or not has_trumps(v):
        return None
    theirs = [v.trumps.suit] if v.trumps.suit is not None else []
    theirs += [s for s in v.trumps.cycle if s is not None]
    return next(
        s
        for s in [*theirs, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
        if s != led_suit and len(v.deck.cards.of_suit(s)) >= 5
    )


def _case_rules(v: Variant, n: int, c: int) -> _CaseRules:
    """The :class:`_CaseRules` of ``v`` for ``n`` players of ``c`` cards each."""
    flags = play_flags(v.play)
    # A play rule of card-set lists: every case, the lists decide what it shows.
    lead_card = v.play.lead_card
    must_card = lead_card if v.play.first_lead is FirstLead.CARD else None
    must_suit = lead_card.suit if v.play.first_lead is FirstLead.SUIT and lead_card else None
    led_suit = _led_suit(v, must_card, must_suit)
    trump = _case_trump(v, led_suit)
    others = [
        s
        for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
        if s not in (led_suit, trump)
    ]
    return _CaseRules(
        v=v,
        n=n,
        room=c if v.mode is not Mode.SHEDDING else 13,
        trump=trump,
        led_suit=led_suit,
        neutral=others[0],
        fourth=others[1],
        lead_card=lead_card,
        holder=v.play.first_leader is FirstLeader.HOLDER and lead_card is not None,
        must_card=must_card,
        must_suit=must_suit,
        must_follow=flags.must_follow if flags else True,
        must_trump=flags.must_trump if flags else True,
        must_beat=flags.must_beat if flags else True,
        trumps_broken=flags.trump_lead is TrumpLead.BROKEN if flags else True,
    )


def _first_lead_specs(cr: _CaseRules) -> list[_Spec]:
    """The first lead of the hand, when a rule binds it: by its leader, and by another
    card when the leader need not hold the lead card."""
    lead_card = cr.lead_card
    if lead_card is None or cr.v.play.first_lead is FirstLead.ANY:
        return []
    specs: list[_Spec] = []
    pk = _Pack(cr.v)
    pk.cards.discard(lead_card)
    first: list[Card | None] = (
        [lead_card] if cr.holder or cr.must_card is not None else [pk.take(lead_card.suit, _MID)]
    )
    plain_suits = [s for s in Suit if s not in (lead_card.suit, cr.trump)][:2]
    mine = [*first, pk.take(plain_suits[0], (9, 10, 8)), pk.take(plain_suits[1], (5, 6, 4))]
    if _found(*mine):
        specs.append(_Spec(cr.trump, [], 0, {0: cr.hand(mine)}, {}))
    if not cr.holder:
        pk = _Pack(cr.v)
        pk.cards.discard(lead_card)
        mine = [pk.take(plain_suits[0], (9, 10, 8)), pk.take(plain_suits[1], (5, 6, 4))]
        if _found(*mine):
            gone = lead_card.suit if cr.must_suit is not None else None
            avoid = _suits(gone, cr.trump if cr.trumps_broken else None)
            specs.append(_Spec(cr.trump, [], 0, {0: cr.hand(mine)}, {0: avoid}))
    return specs


def _second_hand_spec(cr: _CaseRules, led: Card, own: list[Card], mine: list[Card | None]) -> _Spec:
    """The case of the second position holding ``mine`` after the first leads ``led``."""
    return _Spec(
        cr.trump,
        [(0, led)],
        1,
        {0: own, 1: cr.hand(mine)},
        {1: _suits(cr.led_suit, cr.trump)},
    )


def _follow_specs(cr: _CaseRules) -> list[_Spec]:
    """Following suit."""
    if cr.n < 2:
        return []
    pk, led, own = cr.fresh()
    mine = [pk.below(led) or pk.above(led)] if led is not None else []
    mine += [pk.take(cr.neutral, (9, 10, 8, 11, 7)), pk.take(cr.fourth, (5, 6, 4, 7, 3))]
    if _found(led, *mine) and led is not None:
        return [_second_hand_spec(cr, led, own, mine)]
    return []


def _beat_specs(cr: _CaseRules) -> list[_Spec]:
    """Beating the best card of the suit led."""
    if cr.n < 2 or not (cr.must_follow and cr.must_beat):
        return []
    pk, led, own = cr.fresh()
    if led is None:
        return []
    mine = [pk.above(led), pk.below(led), pk.take(cr.neutral, _MID)]
    if _found(*mine[:2]):
        return [_second_hand_spec(cr, led, own, mine)]
    return []


def _void_specs(cr: _CaseRules) -> list[_Spec]:
    """Not holding the suit led."""
    if cr.n < 2:
        return []
    pk, led, own = cr.fresh()
    if led is None:
        return []
    if cr.trump is not None:
        mine = [pk.take(cr.trump, (4, 5, 3, 6, 2)), pk.take(cr.neutral, (9, 10, 8))]
        mine += [pk.take(cr.fourth, (5, 6, 4))]
    else:
        mine = [pk.take(cr.neutral, (9, 10, 8)), pk.take(cr.fourth, (5, 6, 4))]
        mine += [pk.take(cr.neutral, (3, 4, 2))]
    if _found(*mine[:2]):
        return [_second_hand_spec(cr, led, own, mine)]
    return []


def _after_trump_spec(cr: _CaseRules, trump: Suit, case: str) -> _Spec | None:
    """After the second position has trumped, the third holding a higher trump
    (``case`` ``"over"``), only a lower one (``"under"``) or the suit led (``"follow"``)."""
    pk, led, own = cr.fresh()
    ruff = pk.take(trump, (12, 11, 10, 9))
    if led is None or ruff is None:
        return None
    if case == "over":
        mine = [pk.above(ruff), pk.below(ruff), pk.take(cr.neutral, (9, 10, 8))]
    elif case == "under":
        mine = [pk.below(ruff), pk.take(cr.neutral, (9, 10, 8)), pk.take(cr.fourth, (3, 4, 5))]
    else:
        mine = [pk.above(led), pk.below(led), pk.take(cr.neutral, (9, 10, 8))]
    if not _found(*mine[:2]) or (cr.room < 3 and case == "over"):
        return None
    avoid = _suits(cr.led_suit, trump)
    return _Spec(
        trump,
        [(0, led), (1, ruff)],
        2,
        {0: own, 1: [ruff], 2: cr.hand(mine)},
        {1: avoid, 2: set(avoid)},
    )


def _after_trump_specs(cr: _CaseRules) -> list[_Spec]:
    """After someone has trumped."""
    trump = cr.trump
    if cr.n < 3 or trump is None or not (cr.must_trump or cr.must_beat):
        return []
    cases = ("over", "under", "follow") if cr.must_beat else ("over", "under")
    specs = [_after_trump_spec(cr, trump, case) for case in cases]
    return [s for s in specs if s is not None]


def _trump_lead_spec(cr: _CaseRules, trump: Suit, only: bool) -> _Spec | None:
    """Leading before trumps are broken, holding nothing but trumps (``only``) or not."""
    pk = _Pack(cr.v)
    if cr.lead_card is not None:
        pk.cards.discard(cr.lead_card)
    plain_suits = [s for s in (cr.neutral, cr.fourth) if s != cr.must_suit]
    if only:
        mine = [pk.take(trump, (9, 10, 8)), pk.take(trump, (5, 6, 4)), pk.take(trump, (3, 2))]
    elif plain_suits:
        mine = [pk.take(trump, (9, 10, 8)), pk.take(plain_suits[0], (5, 6, 4))]
        mine += [pk.take(plain_suits[-1], (7, 8, 6))]
    else:
        return None
    if cr.must_suit is not None and any(x is not None and x.suit == cr.must_suit for x in mine):
        return None
    if not _found(*mine[:2]):
        return None
    return _Spec(trump, [], 0, {0: cr.hand(mine)}, {0: _suits(trump, cr.must_suit)})


def _trump_lead_specs(cr: _CaseRules) -> list[_Spec]:
    """Leading trumps before they are broken (the first leader must not be bound by
    the first-lead rule: not its holder)."""
    trump = cr.trump
    if trump is None or not cr.trumps_broken or cr.holder:
        return []
    specs = [_trump_lead_spec(cr, trump, only) for only in (False, True)]
    return [s for s in specs if s is not None]


def _specs(v: Variant, n: int, c: int) -> list[_Spec]:
    """The cases the page shows, before dealing."""
    cr = _case_rules(v, n, c)
    return [
        *_first_lead_specs(cr),
        *_follow_specs(cr),
        *_beat_specs(cr),
        *_void_specs(cr),
        *_after_trump_specs(cr),
        *_trump_lead_specs(cr),
    ]


def _seats(v: Variant, n: int) -> tuple[int, list[int]]:
    """The dealer, and the seat of each position (position 0 leads first, next to the
    dealer), for ``n`` players."""
    step = 1 if v.direction is Direction.CLOCKWISE else -1
    return (-step) % n, [(step * k) % n for k in range(n)]


def _deal(v: Variant, n: int, c: int, spec: _Spec) -> list[list[Card]] | None:
    """Every position's cards: the case's own cards, then others from the pack."""
    shed = v.mode is Mode.SHEDDING
    size = v.deck.size
    sizes = [size // n + (1 if k < size % n else 0) for k in range(n)] if shed else [c] * n
    hands = [list(spec.fixed.get(k, [])) for k in range(n)]
    used = {x for h in hands for x in h}
    if len(used) != sum(len(h) for h in hands) or not used <= set(_example_pack(v)):
        return None
    if any(len(h) > sizes[k] for k, h in enumerate(hands)):
        return None
    pool = sorted(
        (x for x in _example_pack(v) if x not in used),
        key=lambda x: (x.suit not in (Suit.CLUBS, Suit.DIAMONDS), int(x.suit), -int(x.rank)),
    )
    if not _fill_hands(v, spec, hands, sizes, pool):
        return None
    if shed and pool:
        return None
    return hands


def _fill_hands(
    v: Variant, spec: _Spec, hands: list[list[Card]], sizes: Sequence[int], pool: list[Card]
) -> bool:
    """Fill each of ``hands`` up to its size from ``pool`` (taking the cards from it),
    the most constrained positions first; whether the pool had enough cards."""
    lead_card = v.play.lead_card
    holder = v.play.first_leader is FirstLeader.HOLDER and lead_card is not None
    # The most constrained positions first; the lead card stays with the first leader.
    order = sorted(range(len(hands)), key=lambda k: (-len(spec.avoid.get(k, ())), k))
    for k in order:
        bar = spec.avoid.get(k, set())
        while len(hands[k]) < sizes[k]:
            pick = next(
                (x for x in pool if x.suit not in bar and not (holder and x == lead_card)),
                None,
            )
            if pick is None:
                return False
            pool.remove(pick)
            hands[k].append(pick)
    return True


def _play_text(
    v: Variant, names: Sequence[str], plays: Sequence[tuple[int, Card]], trump: Suit | None
) -> str:
    led = plays[0][1].suit
    parts = [f"{names[plays[0][0]]} leads the {plays[0][1]}"]
    for seat, x in plays[1:]:
        if x.suit == led:
            parts.append(f"{names[seat]} plays the {x}")
        elif x.suit == trump:
            parts.append(f"{names[seat]}, with no {led.word}, trumps with the {x}")
        else:
            parts.append(f"{names[seat]}, with no {led.word}, plays the {x}")
    return join_words(parts)


def _why(v: Variant, reason: str, trick: Sequence[Card], trump: Suit | None) -> str:
    c = v.play.lead_card
    deal = "game" if v.mode is Mode.SHEDDING else "hand"
    if reason.startswith(("list ", "first trick ")):
        return _list_why(v, reason, trick)
    if not trick:
        return {
            "first card": f"the first lead of the {deal} must be the {c}",
            "first suit": f"the first lead of the {deal} must be a {suit_one(c.suit) if c else ''}",
            "not broken": f"no trump may be led before one has been played in the {deal}",
            "only trumps": "with nothing but trumps, a trump may be led",
        }.get(reason, "the first lead may be any card")
    led = trick[0].suit
    best = best_card(trick, trump)
    if reason == "void" and v.mode is Mode.SHEDDING:
        if not first_trick_cuts(v):
            return (
                f"with no {led.word}, any card may be played; on the first trick of a game it "
                "does not cut, and the trick goes on"
            )
        return f"with no {led.word}, any card may be played, and it cuts the trick"
    return {
        "free": "nobody has to follow suit",
        "follow": "you must follow suit",
        "cannot beat": f"you must follow suit, and no {suit_one(led)} you hold beats the {best}",
        "trumped": (
            f"you must follow suit; the trick has been trumped, so any {suit_one(led)} will do"
        ),
        "beat": f"you must beat the {best} when you can",
        "trump to beat": f"with no {led.word}, you must trump, as any trump beats the {best}",
        "overtrump": (
            f"with no {led.word}, you must beat the {best} with a higher trump when you can"
        ),
        "trump": f"with no {led.word}, you must play a trump",
        "void, cannot beat": (
            f"with no {led.word} and no trump higher than the {best}, any card will do"
        ),
    }.get(reason, f"with no {led.word}, any card will do")


def _list_why(v: Variant, reason: str, trick: Sequence[Card]) -> str:
    """Why, for a play rule of card-set lists: the set of the list that applied."""
    *head, number = reason.split()
    index = int(number)
    if head == ["first", "trick"]:
        rule = first_trick_rule(v.play)
        words = choice_words(rule)[index] if rule is not None else "any card"
        return f"on the first trick, {words} comes first"
    rule = getattr(v.play, "lead" if not trick else "follow")
    if index < 0:
        return "holding none of the cards the rule lists, any card will do"
    what = "lead" if not trick else "follow"
    words = choice_words(rule)[index]
    if words == "any card":
        return f"the {what} rule leaves any card here"
    return f"the {what} rule: {words}, the first on its list that you hold"


def _cards_text(cards: Iterable[Card], last: str = "and") -> str:
    return join_words([f"the {x}" for x in cards], last)


def _play_setup(
    v: Variant, held: list[set[Card]], spec: _Spec
) -> tuple[list[Card], bool, frozenset[Suit]] | None:
    """Play the case's cards before the actor's turn, from ``held`` (the cards leave
    it): the trick, whether a trump was played, and the suits broken; ``None`` when
    the rules forbid one of the cards."""
    trick: list[Card] = []
    broken = False
    suits: set[Suit] = set()
    triggers = {t.name for t in getattr(v.play, "broken_by", ())} or {"ANY_PLAY"}
    for pos, x in spec.setup:
        allowed, _ = allowed_plays(
            v,
            held[pos],
            trick,
            spec.trump,
            first_trick=True,
            broken=broken,
            broken_suits=frozenset(suits),
        )
        if x not in allowed:
            return None
        if "ANY_PLAY" in triggers or (
            "VOID_PLAY" in triggers and trick and x.suit != trick[0].suit
        ):
            suits.add(x.suit)
            suits.update(s for k, s in getattr(v.play, "also_breaks", ()) if k == x)
        held[pos].discard(x)
        trick.append(x)
        broken = broken or x.suit == spec.trump
    return trick, broken, frozenset(suits)


def _setup_text(
    v: Variant,
    names: Sequence[str],
    who: str,
    plays: Sequence[tuple[int, Card]],
    first_hand: set[Card],
    trump: Suit | None,
) -> str:
    """The opening of an example's sentence: the trumps, and the cards played before
    (or who leads)."""
    deal = "game" if v.mode is Mode.SHEDDING else "hand"
    lead_card = v.play.lead_card
    if plays:
        setup = _play_text(v, names, plays, trump)
    elif v.play.first_leader is FirstLeader.HOLDER and lead_card in first_hand:
        setup = f"{who} has the {lead_card}, so leads the first trick of the {deal}"
    else:
        setup = f"{who} leads the first trick of the {deal}"
    if trump is not None:
        setup = f"With {trump.word} {trump.symbol} as trumps, {setup}"
    return setup


def _example(v: Variant, n: int, c: int, spec: _Spec) -> PlayExample | None:
    """The case ``spec`` dealt, played up to the actor's turn and put in words; ``None``
    when it cannot be dealt or played, or the actor may play none of the cards shown."""
    hands = _deal(v, n, c, spec)
    if hands is None:
        return None
    dealer, seat_of = _seats(v, n)
    names = seat_names(n)
    trump = spec.trump
    held = [set(h) for h in hands]
    played = _play_setup(v, held, spec)
    if played is None:
        return None
    trick, broken, suits = played
    cut = len(trick) > 1 and trick[-1].suit != trick[0].suit
    if v.mode is Mode.SHEDDING and cut and first_trick_cuts(v):
        return None  # a cut would have ended the trick
    allowed, reason = allowed_plays(
        v,
        held[spec.actor],
        trick,
        trump,
        first_trick=True,
        broken=broken,
        broken_suits=suits,
    )
    shown = (
        sorted(held[spec.actor], key=lambda x: (x.suit != trump, -int(x.suit), -int(x.rank)))
        if v.mode is Mode.TRICKS
        else list(spec.fixed[spec.actor])
    )
    checks = tuple((x, x in allowed) for x in shown)
    yes = [x for x, legal in checks if legal]
    no = [x for x, legal in checks if not legal]
    if not yes:
        return None
    plays = tuple((seat_of[pos], x) for pos, x in spec.setup)
    who = names[seat_of[spec.actor]]
    setup = _setup_text(v, names, who, plays, held[0], trump)
    among = ", among others" if v.mode is Mode.SHEDDING else ""
    text = (
        f"{setup}. {who} holds {_cards_text(shown)}{among}: {who} may play {_cards_text(yes, 'or')}"
    )
    if no:
        text += f", but not {_cards_text(no, 'or')}"
    text += f" ({_why(v, reason, trick, trump)})."
    deck = stack_deck(hands)
    return PlayExample(
        text=text,
        players=n,
        cards=c,
        dealer=dealer,
        trump=trump,
        deck=tuple(deck),
        plays=plays,
        seat=seat_of[spec.actor],
        checks=checks,
    )


def play_examples(v: Variant, players: int | None = None) -> list[PlayExample]:
    """Examples of which cards may be played, worked out from the variant's play rules.

    Each is the first trick of a hand: following suit, beating (when the variant
    says so), not holding the suit led, after someone has trumped, leading trumps
    before they are broken, and the first lead, as far as the rules have them.

    Args:
        v: the variant.
        players: the number of players (the smallest allowed near three if ``None``).
    """
    n = players if players is not None else example_players(v, 4 if v.mode is Mode.SHEDDING else 3)
    v = base_rules(v, n)
    c = _cards_each(v, n)
    triggers = {t.name for t in getattr(v.play, "broken_by", ())}
    if "FORCED_LEAD" in triggers and uses_unbroken(v.play):
        return []  # whether a lead was forced is not worked out here: no examples
    if v.mode is Mode.TRICKS and c < 2:
        return []
    out = []
    seen: set[str] = set()
    for spec in _specs(v, n, c):
        ex = _example(v, n, c, spec)
        if ex is not None and ex.text not in seen:
            seen.add(ex.text)
            out.append(ex)
    return out


def play_examples_section(v: Variant, players: int | None = None) -> list[str]:
    """The examples of play as Markdown lines (empty when there are none)."""
    examples = play_examples(v, players)
    if not examples:
        return []
    n = examples[0].players
    names = seat_names(n)
    dealer = names[examples[0].dealer]
    deal = "game" if v.mode is Mode.SHEDDING else "hand"
    out = [
        "### Which cards may be played",
        "",
        f"Some cases from the first trick of a {deal}, worked out from the rules above, for "
        f"{n} players ({join_words(list(names))}); {dealer} deals each time.",
        "",
    ]
    out += [f"- {ex.text}" for ex in examples]
    return [*out, ""]
