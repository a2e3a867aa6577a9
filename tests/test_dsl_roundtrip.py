"""The formatter: ``parse(format(v)) == v`` for built-ins and generated configs;
``format_source`` keeps a file's comments and order."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.cards import ALL_CARDS, Suit
from cardrules.dsl import builtin_dir, builtin_names, format, format_source, load, parse
from cardrules.dsl.loader import inherited_counters
from cardrules.dsl.parser import OVERRIDABLE_SETTINGS
from cardrules.dsl.validate import validate
from cardrules.errors import VariantError
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    DeadTricks,
    DealerRule,
    DeckRule,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    MatchRule,
    Mode,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    ScoringRule,
    SheddingRule,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpLead,
    TrumpRule,
    Variant,
    WinRule,
)
from cardrules.scoring import parse_formula

FORMULAS = [
    "if exact then 10 + bid else 0",
    "tricks + (if exact then 10 else 0)",
    "if exact then 10 else -10",
    "tricks",
    "if exact then 10 * bid + (if bid = 0 then 10 else 0) else -diff",
    "(if exact then 10 + bid else 0) * (if blind then 2 else 1)",
    "tricks * 2 - cards // 3 + hand + players",
]

names = st.from_regex(r"[a-z0-9][a-z0-9-]{0,15}", fullmatch=True)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)


@st.composite
def hand_size_rules(draw: st.DrawFn) -> HandSizeRule:
    table: list[SizeEntry] = []
    lo = draw(st.integers(1, 8))
    for _ in range(draw(st.integers(0, 3))):
        hi = draw(st.integers(lo, lo + 3))
        if draw(st.booleans()) and not table:
            hi = 52
        table.append(SizeEntry(lo, hi, draw(st.integers(1, 13))))
        if hi >= 51:
            break
        lo = hi + 1
    largest = draw(st.booleans()) or not table
    keep = largest and draw(st.booleans())
    cap = draw(st.none() | st.integers(1, 13)) if largest else None
    return HandSizeRule(tuple(table), largest, keep, cap)


@st.composite
def schedules(draw: st.DrawFn) -> ScheduleRule:
    pattern = draw(st.sampled_from(list(Pattern)))
    count = draw(st.integers(1, 20)) if pattern is Pattern.SAME else 1
    sizes = (
        tuple(draw(st.lists(st.integers(1, 13), min_size=1, max_size=6)))
        if pattern is Pattern.LIST
        else ()
    )
    steps: tuple[tuple[int, int, bool], ...] = ()
    if pattern is Pattern.STEPS:
        # `hands: 1 x players, 2 to 7, ...`: each step a size or a run of sizes.
        step = st.tuples(st.integers(1, 13), st.integers(1, 13), st.booleans()).map(
            lambda t: (t[0], t[0], True) if t[2] else (t[0], t[1], False)
        )
        steps = tuple(draw(st.lists(step, min_size=1, max_size=3)))
    repeat = 1 if steps else draw(st.integers(1, 4))  # a bounded number of hands
    return ScheduleRule(draw(hand_size_rules()), pattern, count, sizes, repeat, steps)


@st.composite
def trump_rules(draw: st.DrawFn) -> TrumpRule:
    kind = draw(st.sampled_from(list(TrumpKind)))
    every = draw(st.none() | st.integers(2, 12))
    if kind is TrumpKind.FIXED:
        return TrumpRule(kind, suit=draw(st.sampled_from(list(Suit))), no_trump_every=every)
    if kind is TrumpKind.CYCLE:
        cyc = draw(st.lists(st.none() | st.sampled_from(list(Suit)), min_size=1, max_size=6))
        return TrumpRule(kind, cycle=tuple(cyc), no_trump_every=every)
    if kind is TrumpKind.TURN_UP:
        return TrumpRule(kind, no_trump_every=every, none_when_pack_empty=draw(st.booleans()))
    return TrumpRule(kind, no_trump_every=every)


@st.composite
def bidding_rules(draw: st.DrawFn) -> BiddingRule:
    lo = draw(st.integers(0, 3))
    return BiddingRule(
        style=draw(st.sampled_from(list(BidStyle))),
        hook=draw(st.booleans()),
        min_bid=lo,
        max_bid=draw(st.none() | st.integers(lo, 13)),
        blind=draw(st.booleans()),
        forehead_sizes=tuple(draw(st.lists(st.integers(1, 13), unique=True, max_size=3))),
        amend=draw(st.booleans()),
    )


@st.composite
def play_rules(draw: st.DrawFn) -> PlayRule:
    leader = draw(st.sampled_from(list(FirstLeader)))
    if leader in (FirstLeader.DEALER_NEXT, FirstLeader.DECLARER):
        lead_card, lead = None, FirstLead.ANY
    else:
        lead_card = draw(st.sampled_from(ALL_CARDS))
        lead = draw(st.sampled_from(list(FirstLead)))
    follow = draw(st.booleans())
    return PlayRule.from_flags(
        first_leader=leader,
        lead_card=lead_card,
        first_lead=lead,
        must_follow=follow,
        must_trump=follow and draw(st.booleans()),
        must_beat=follow and draw(st.booleans()),
        trump_lead=draw(st.sampled_from(list(TrumpLead))),
    )


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    lo = draw(st.integers(2, 8))
    first = draw(st.sampled_from(list(FirstDealer)))
    tie = draw(st.sampled_from(list(TieBreak)))
    word = draw(st.text(alphabet=string.ascii_uppercase, max_size=10).filter(lambda w: w != "NONE"))
    formula = draw(st.none() | st.sampled_from(FORMULAS))
    removed = 0
    for c in draw(st.lists(st.sampled_from(ALL_CARDS), max_size=4)):
        removed |= 1 << c
    return Variant(
        name=draw(names),
        title=draw(texts),
        summary=draw(texts),
        aliases=tuple(draw(st.lists(texts.filter(bool), unique=True, max_size=3))),
        parent=draw(st.none() | names | st.just("../base file.cardrules")),
        mode=draw(st.sampled_from(list(Mode))),
        players=PlayerRange(lo, draw(st.integers(lo, lo + 6))),
        deck=DeckRule(removed),
        direction=draw(st.sampled_from(list(Direction))),
        dealer=DealerRule(first, draw(st.integers(0, 5)) if first is FirstDealer.SEAT else 0),
        schedule=draw(schedules()),
        trumps=draw(trump_rules()),
        bidding=draw(bidding_rules()),
        play=draw(play_rules()),
        shedding=SheddingRule(
            draw(st.sampled_from(list(DeadTricks))), draw(st.sampled_from(list(EndWhenAllOut)))
        ),
        scoring=ScoringRule(
            parse_formula(formula) if formula is not None else None, draw(st.booleans())
        ),
        winning=WinRule(
            tie, draw(st.none() | st.integers(1, 50)) if tie is TieBreak.EXTRA_HANDS else None
        ),
        match=MatchRule(word, draw(st.booleans())),
        options=tuple(
            draw(st.lists(st.sampled_from(OVERRIDABLE_SETTINGS), unique=True, max_size=5))
        ),
    )


@settings(max_examples=400, deadline=None)
@given(variants())
def test_parse_format_roundtrip(v: Variant) -> None:
    text = format(v)
    back = parse(text, validate=False)
    assert back == v, text
    assert format(back) == text


@settings(max_examples=300, deadline=None)
@given(variants())
def test_roundtrip_of_valid_variants_passes_validation(v: Variant) -> None:
    try:
        validate(v)
    except VariantError:
        return
    v = v.evolve(parent=None)
    assert parse(format(v)) == v


def test_builtins_roundtrip():
    for name in builtin_names():
        v = load(name)
        assert parse(format(v), validate=False) == v


def test_format_is_canonical_text():
    assert format(load("kachuful")).splitlines()[:12] == [
        "game: kachuful",
        'title: "Kachuful"',
        'also called: "Judgement", "Kachufool", "Kachoofool"',
        'summary: "Bid exactly; trumps cycle spades, diamonds, clubs, hearts; 10 + bid for a '
        'made bid."',
        "mode: tricks",
        "players: 3 to 7",
        "deck: standard 52",
        "direction: clockwise",
        "first dealer: cut for highest card",
        "hand size: 10 for 3 to 5 players, 8 for 6 players, 7 for 7 players",
        "hands: down to 1 and back up",
        "trumps: cycle spades, diamonds, clubs, hearts",
    ]


def test_format_source_keeps_comments_and_order():
    text = (
        "# My house rules\n"
        "\n\n"
        "Game:   mine   # the name\n"
        "EXTENDS: kachuful\n"
        "Trumps:   Cycle Kali,Laal   # Hindi names\n"
        "hook: off\n"
        'title: "A # in it"   # and a comment\n'
    )
    assert format_source(text) == (
        "# My house rules\n"
        "\n"
        "game: mine  # the name\n"
        "extends: kachuful\n"
        "trumps: cycle spades, hearts  # Hindi names\n"
        "hook: no\n"
        'title: "A # in it"  # and a comment\n'
    )


def test_format_source_of_builtins_is_stable():
    for path in sorted(builtin_dir().glob("*.cardrules")):
        text = path.read_text(encoding="utf-8")
        once = format_source(text)
        assert format_source(once) == once
        # (A house rule's formulas may read the counters of the game it extends.)
        counters = inherited_counters(text)
        assert parse(once, validate=False, counters=counters) == parse(
            text, validate=False, counters=counters
        )
