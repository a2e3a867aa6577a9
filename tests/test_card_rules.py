"""Card-set rules (issue 11): ``follow:``, ``lead:``, ``first trick:`` and
``broken by:`` as values of the language.

The property test plays random games of random trick-taking variants whose play
rules are random lists of card sets, and at every play compares the engine's legal
cards with an independent reading of the same lists written here in plain Python
(sets of cards, no bitmasks), which also keeps its own record of broken suits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import cardrules
from cardrules.card_rules import (
    ANY_CARD,
    BreakTrigger,
    CardChoice,
    CardSetRule,
    CardTerm,
    TermKind,
    follow_choice,
)
from cardrules.cards import ALL_CARDS, Card, Suit, card
from cardrules.dsl import format as format_variant
from cardrules.dsl import load_text, parse
from cardrules.dsl import parse_card_rule as parse_choice_text
from cardrules.engine import Game, Play
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    ScoringRule,
    TrumpKind,
    TrumpRule,
    Variant,
)
from cardrules.scoring import parse_formula

# --------------------------------------------------------------------------- the oracle


@dataclass
class Context:
    """What a rule can look at: the trick so far, the trump, the broken suits."""

    trick: list[Card]
    trump: Suit | None
    broken: set[Suit] = field(default_factory=set)


def winner_so_far(trick: list[Card], trump: Suit | None) -> Card:
    best = trick[0]
    for c in trick[1:]:
        trumped = trump is not None and c.suit == trump and best.suit != trump
        if (c.suit == best.suit and c.rank > best.rank) or trumped:
            best = c
    return best


def term_matches(t: CardTerm, c: Card, ctx: Context) -> bool:
    if t.kind is TermKind.ANY:
        hit = True
    elif t.kind is TermKind.SUIT_LED:
        hit = bool(ctx.trick) and c.suit == ctx.trick[0].suit
    elif t.kind is TermKind.TRUMPS:
        hit = ctx.trump is not None and c.suit == ctx.trump
    elif t.kind is TermKind.WINNING:
        if not ctx.trick:
            hit = True
        else:
            best = winner_so_far(ctx.trick, ctx.trump)
            hit = (c.suit == best.suit and c.rank > best.rank) or (
                ctx.trump is not None and c.suit == ctx.trump and best.suit != ctx.trump
            )
    elif t.kind is TermKind.SUIT:
        hit = c.suit == t.suit
    elif t.kind is TermKind.CARD:
        hit = c == t.card
    elif t.kind is TermKind.HIGHER:
        hit = c.rank > (t.rank or 0)
    else:
        hit = c.rank < (t.rank or 0)
    if t.unbroken:
        hit = hit and c.suit not in ctx.broken
    return not hit if t.negated else hit


def oracle_choose(choice: CardChoice, hand: set[Card], ctx: Context) -> tuple[set[Card], int]:
    for i, option in enumerate(choice.options):
        cards = {c for c in hand if all(term_matches(t, c, ctx) for t in option.terms)}
        if cards:
            return cards, i
    return set(hand), -1


def oracle_legal(p: PlayRule, hand: set[Card], ctx: Context, first_trick: bool) -> set[Card]:
    if not ctx.trick and first_trick and p.lead_card is not None:
        if p.first_lead is FirstLead.CARD and p.lead_card in hand:
            return {p.lead_card}
        if p.first_lead is FirstLead.SUIT:
            same = {c for c in hand if c.suit == p.lead_card.suit}
            if same:
                return same
    base, _ = oracle_choose(p.lead if not ctx.trick else p.follow, hand, ctx)
    if first_trick:
        base, _ = oracle_choose(p.first_trick, base, ctx)
    return base


# --------------------------------------------------------------------------- strategies

TERM_KINDS = list(TermKind)


@st.composite
def terms(draw: st.DrawFn) -> CardTerm:
    kind = draw(st.sampled_from(TERM_KINDS))
    return CardTerm(
        kind,
        suit=draw(st.sampled_from(list(Suit))) if kind is TermKind.SUIT else None,
        card=draw(st.sampled_from(ALL_CARDS)) if kind is TermKind.CARD else None,
        rank=draw(st.integers(2, 14)) if kind in (TermKind.HIGHER, TermKind.LOWER) else None,
        unbroken=draw(st.booleans()),
        negated=draw(st.booleans()),
    )


@st.composite
def choices(draw: st.DrawFn) -> CardChoice:
    options = draw(st.lists(st.lists(terms(), min_size=1, max_size=3), min_size=1, max_size=4))
    if draw(st.booleans()):
        options.append([CardTerm(TermKind.ANY)])
    return CardChoice(tuple(CardSetRule(tuple(o)) for o in options))


@st.composite
def rule_variants(draw: st.DrawFn) -> Variant:
    lead_card = draw(st.sampled_from([None, card("2♣"), card("A♠")]))
    first_lead = FirstLead.ANY if lead_card is None else draw(st.sampled_from(list(FirstLead)))
    play = PlayRule(
        first_leader=FirstLeader.DEALER_NEXT if lead_card is None else FirstLeader.HOLDER,
        lead_card=lead_card,
        first_lead=first_lead,
        follow=draw(choices()),
        lead=draw(choices() | st.just(ANY_CARD)),
        first_trick=draw(choices() | st.just(ANY_CARD)),
        broken_by=tuple(
            draw(st.lists(st.sampled_from(list(BreakTrigger)), min_size=1, max_size=3, unique=True))
        ),
    )
    kind = draw(st.sampled_from([TrumpKind.NONE, TrumpKind.FIXED, TrumpKind.TURN_UP]))
    return Variant(
        name="rules-prop",
        players=PlayerRange(3, 5),
        schedule=ScheduleRule(
            start=HandSizeRule(largest=True, cap=draw(st.integers(2, 6))), pattern=Pattern.DOWN
        ),
        trumps=TrumpRule(
            kind=kind, suit=draw(st.sampled_from(list(Suit))) if kind is TrumpKind.FIXED else None
        ),
        bidding=BiddingRule(style=BidStyle.NONE, hook=False),
        play=play,
        scoring=ScoringRule(formula=parse_formula("tricks")),
    )


# --------------------------------------------------------------------------- the property


def breaks(p: PlayRule, c: Card, ctx: Context, forced: bool, hand: set[Card]) -> bool:
    """Whether playing ``c`` from ``hand`` breaks its suit under ``broken by:``."""
    triggers = set(p.broken_by)
    if BreakTrigger.ANY_PLAY in triggers:
        return True
    if BreakTrigger.VOID_PLAY in triggers and ctx.trick:
        led = ctx.trick[0].suit
        if c.suit != led and not any(h.suit == led for h in hand):
            return True
    return BreakTrigger.FORCED_LEAD in triggers and not ctx.trick and forced


def bars_unbroken(p: PlayRule) -> bool:
    """Whether any card-set rule of ``p`` has an ``unbroken`` term (only then do
    the break triggers matter; otherwise trumps are broken once one is played)."""
    return any(
        t.unbroken
        for choice in (p.follow, p.lead, p.first_trick)
        for option in choice.options
        for t in option.terms
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    v=rule_variants(),
    players=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    pick=st.integers(0, 2**16),
)
def test_engine_plays_the_lists_as_written(v: Variant, players: int, seed: int, pick: int) -> None:
    g = Game(v, players, seed)
    rng = random.Random(pick)
    p = v.play
    ctx = Context([], g.trump)
    hand_number = g.hand_number
    tricks_this_hand = 0
    while not g.is_over:
        if g.hand_number != hand_number:
            hand_number, tricks_this_hand = g.hand_number, 0
            ctx = Context([], g.trump)
        seat = g.to_act
        assert seat is not None and g.phase == "play"
        hand = set(g.hand(seat))
        ctx.trick = [c for _, c in g.current_trick()]
        expected = oracle_legal(p, hand, ctx, tricks_this_hand == 0)
        legal = {a.card for a in g.legal_actions() if isinstance(a, Play)}
        assert legal == expected, (str(p.follow), str(p.lead), ctx)
        c = rng.choice(sorted(legal))
        forced = not ctx.trick and oracle_choose(p.lead, hand, ctx)[1] > 0
        if breaks(p, c, ctx, forced, hand) if bars_unbroken(p) else True:
            ctx.broken.add(c.suit)
        before = len(ctx.trick)
        g.apply(Play(c), g.to_act)
        if before + 1 == players:
            tricks_this_hand += 1
            ctx.trick = []
        if not g.is_over and g.hand_number == hand_number:
            assert g.view(0).trumps_broken == (ctx.trump is not None and ctx.trump in ctx.broken)


@given(v=rule_variants())
@settings(max_examples=150, deadline=None)
def test_card_rules_round_trip_through_the_text(v: Variant) -> None:
    """Every card-set rule has one canonical text that reads back to it (the random
    configs may hold lines that change nothing, which validation refuses: the round
    trip of the text is what is tested here)."""
    for choice in (v.play.follow, v.play.lead, v.play.first_trick):
        assert parse_choice_text(str(choice)) == choice
    assert parse(format_variant(v), validate=False) == v


# --------------------------------------------------------------------------- shorthands


@pytest.mark.parametrize(
    ("shorthand", "flags"),
    [
        ("any card", (False, False, False)),
        ("must follow suit", (True, False, False)),
        ("must follow suit, must trump when void", (True, True, False)),
        ("must follow suit, must beat when able", (True, False, True)),
        ("must follow suit, must trump, must beat", (True, True, True)),
    ],
)
def test_the_old_follow_values_are_shorthand_for_lists(
    shorthand: str, flags: tuple[bool, bool, bool]
) -> None:
    base = "game: x\nscore: tricks\n"
    short = parse(base + f"follow: {shorthand}\n").play.follow
    mf, mt, mb = flags
    assert short == follow_choice(must_follow=mf, must_trump=mt, must_beat=mb)
    assert parse(base + f"follow: {short}\n").play.follow == short


def test_leading_trumps_once_broken_is_a_lead_list() -> None:
    base = "game: x\nscore: tricks\n"
    a = parse(base + "leading trumps: once broken\n")
    b = parse(base + "lead: any card except unbroken trumps, otherwise any card\n")
    assert a == b


# --------------------------------------------------------------------------- golden


def deal(v: Variant, hands: dict[int, str], trump: str | None = None) -> Game:
    """A one-hand game with these hands (seat -> cards), seat 0 dealing so seat 1 leads."""
    order: list[str] = []
    n = len(hands)
    size = len(hands[0].split())
    for i in range(size):
        for j in range(n):
            seat = (1 + j) % n
            order.append(hands[seat].split()[i])
    if trump is not None:
        order.append(trump)
    return Game(v, n, 1, deck=order, first_dealer=0)


def one_hand(rules: str) -> Variant:
    return load_text(
        "game: t\nextends: oh-hell\nhands: list 3\nbidding: none\nhook: no\n"
        "trumps: spades\nscore: tricks\n" + rules,
        path="t.cardrules",
    )


def legal(g: Game) -> set[str]:
    return {str(a.card) for a in g.legal_actions() if isinstance(a, Play)}


def test_beat_within_the_suit_led_only() -> None:
    """``suit led and winning, otherwise suit led, otherwise any card``."""
    v = one_hand("follow: suit led and winning, otherwise suit led, otherwise any card\n")
    g = deal(v, {1: "K♥ 2♣ 3♣", 2: "Q♥ A♥ 4♣", 3: "2♠ 5♣ 6♣", 0: "3♦ 7♣ 8♣"})
    g.apply(Play(card("K♥")), g.to_act)
    assert legal(g) == {"A♥"}  # must beat within hearts
    g.apply(Play(card("A♥")), g.to_act)
    assert legal(g) == {"2♠", "5♣", "6♣"}  # void: free, no obligation to trump


def test_no_ruffing() -> None:
    v = one_hand("follow: suit led, otherwise any card except trumps, otherwise any card\n")
    g = deal(v, {1: "K♥ 2♣ 3♣", 2: "2♠ 4♦ 4♣", 3: "3♠ 5♠ 6♠", 0: "3♦ 7♣ 8♣"})
    g.apply(Play(card("K♥")), g.to_act)
    assert legal(g) == {"4♦", "4♣"}  # holds other suits: may not trump
    g.apply(Play(card("4♦")), g.to_act)
    assert legal(g) == {"3♠", "5♠", "6♠"}  # nothing but trumps
    with pytest.raises(cardrules.IllegalAction, match="any card except trumps"):
        g2 = deal(v, {1: "K♥ 2♣ 3♣", 2: "2♠ 4♦ 4♣", 3: "3♠ 5♠ 6♠", 0: "3♦ 7♣ 8♣"})
        g2.apply(Play(card("K♥")), g2.to_act)
        g2.apply(Play(card("2♠")), g2.to_act)


@pytest.mark.parametrize(
    ("broken_by", "may_lead"),
    [
        ("void play", {"5♦"}),
        ("any play", {"A♠", "5♦"}),
        ("forced lead", {"A♠", "5♦"}),
        ("void play, forced lead", {"A♠", "5♦"}),
    ],
)
def test_what_breaks_trumps(broken_by: str, may_lead: set[str]) -> None:
    """Seat 1 holds nothing but trumps and must lead one; seat 2 follows with K♠ and
    wins. May seat 2 now lead its A♠? Only if a forced lead or any play of a trump
    breaks trumps: a player void in the suit led never trumped."""
    v = one_hand(
        f"lead: any card except unbroken trumps, otherwise any card\nbroken by: {broken_by}\n"
    )
    g = deal(v, {1: "Q♠ J♠ 10♠", 2: "K♠ A♠ 5♦", 3: "2♠ 7♦ 8♦", 0: "3♠ 9♦ 10♦"})
    assert legal(g) == {"Q♠", "J♠", "10♠"}
    for c in ("Q♠", "K♠", "2♠", "3♠"):
        g.apply(Play(card(c)), g.to_act)
    assert g.to_act == 2
    assert legal(g) == may_lead


def test_a_void_player_breaks_trumps() -> None:
    v = one_hand(
        "lead: any card except unbroken trumps, otherwise any card\nbroken by: void play\n"
    )
    g = deal(v, {1: "2♥ 3♥ 4♥", 2: "A♠ K♠ 5♦", 3: "5♥ 7♦ 8♦", 0: "6♥ 9♦ 10♦"})
    for c in ("2♥", "A♠", "5♥", "6♥"):
        g.apply(Play(card(c)), g.to_act)
    assert g.to_act == 2 and legal(g) == {"K♠", "5♦"}
    assert g.view(2).trumps_broken


def test_callbreak_over_trumps_when_able_otherwise_any_card() -> None:
    """The published Callbreak rule: void in the suit led, a trump that beats every
    trump in the trick if the player holds one, otherwise any card (no under-trump)."""
    v = one_hand("follow: must follow suit, must beat when able\n")
    g = deal(v, {1: "K♥ 2♣ 3♣", 2: "5♠ 4♦ 4♣", 3: "3♠ 9♠ 6♦", 0: "2♠ 8♣ 9♣"})
    g.apply(Play(card("K♥")), g.to_act)
    assert legal(g) == {"5♠"}  # void: must trump
    g.apply(Play(card("5♠")), g.to_act)
    assert legal(g) == {"9♠"}  # must over-trump when able
    g.apply(Play(card("9♠")), g.to_act)
    assert legal(g) == {"2♠", "8♣", "9♣"}  # cannot over-trump: any card


def test_a_trump_from_a_player_holding_the_suit_led_is_no_void_play() -> None:
    """``broken by: void play`` counts a trump played by a player void in the suit
    led; with ``follow: any card`` a player may trump while holding the suit led,
    and that does not break trumps (the engine once took any off-suit card)."""
    v = one_hand(
        "follow: any card\n"
        "lead: any card except unbroken trumps, otherwise any card\nbroken by: void play\n"
    )
    g = deal(v, {1: "2♥ 3♥ 4♥", 2: "A♠ K♠ 5♥", 3: "6♥ 7♦ 8♦", 0: "7♥ 9♦ 10♦"})
    for c in ("2♥", "A♠", "6♥", "7♥"):
        g.apply(Play(card(c)), g.to_act)
    assert g.to_act == 2 and not g.view(2).trumps_broken
    assert legal(g) == {"5♥"}
