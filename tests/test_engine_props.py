"""Property tests of the engine: random variants, player counts, seeds and random legal play.

Every check compares the engine with something independent of it: the
simple rules in ``oracle.py``, the scoring formula evaluated afresh, the
schedule from ``rules.py``, a save/restore round trip or a replay of the log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from oracle import legal_plays, trick_winner

from cardrules.cards import SUIT_MASKS, Card, CardSet, Suit
from cardrules.engine import NUM_ACTIONS, Action, Amend, Bid, Game, Play, replay
from cardrules.errors import IllegalAction, InvalidAction
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    DealerRule,
    DeckRule,
    Direction,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    ScoringRule,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpLead,
    TrumpRule,
    Variant,
    WinRule,
)
from cardrules.scoring import parse_formula, score_env

FORMULAS = (
    "if exact then 10 + bid else 0",
    "tricks + (if exact then 10 else 0)",
    "if exact then 10 * bid + 10 else -10 * diff",
    "if exact then (if blind then 2 else 1) * (10 + bid) else -diff / 2",
    "tricks",
    "0",
)
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def variants(draw: st.DrawFn) -> tuple[Variant, int]:
    """A random trick-taking variant with small hands, and a player count for it."""
    players = draw(st.integers(3, 7))
    pattern = draw(
        st.sampled_from([Pattern.DOWN, Pattern.DOWN_UP, Pattern.UP, Pattern.SAME, Pattern.LIST])
    )
    removed = draw(st.sampled_from([0, SUIT_MASKS[0] & 0b1111]))  # maybe no 2-5 of clubs
    deck = DeckRule(removed=removed)
    if draw(st.booleans()):
        start = HandSizeRule(table=(SizeEntry(3, 7, draw(st.integers(1, 4))),), largest=False)
    else:
        start = HandSizeRule(largest=True, cap=draw(st.sampled_from([2, 3])))
    sizes = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)))
    schedule = ScheduleRule(
        start=start, pattern=pattern, count=draw(st.integers(1, 3)), sizes=sizes
    )
    kind = draw(st.sampled_from(list(TrumpKind)))
    trumps = TrumpRule(
        kind=kind,
        suit=draw(st.sampled_from(list(Suit))),
        cycle=tuple(draw(st.lists(st.sampled_from([*Suit, None]), min_size=1, max_size=5))),
        no_trump_every=draw(st.sampled_from([None, 2, 3])),
        none_when_pack_empty=draw(st.booleans()),
    )
    style = draw(st.sampled_from(list(BidStyle)))
    min_bid = draw(st.integers(0, 1))
    bidding = BiddingRule(
        style=style,
        hook=draw(st.booleans()),
        min_bid=min_bid,
        max_bid=draw(st.sampled_from([None, min_bid + 1, min_bid + 3])),
        blind=draw(st.booleans()),
        forehead_sizes=tuple(draw(st.lists(st.integers(1, 2), max_size=2))),
        amend=draw(st.booleans()),
    )
    lead_card = draw(st.sampled_from([None, Card(51), Card(20)]))
    play = PlayRule.from_flags(
        first_leader=draw(st.sampled_from(list(FirstLeader))),
        lead_card=lead_card,
        first_lead=draw(st.sampled_from(list(FirstLead))),
        must_follow=draw(st.booleans()) or draw(st.booleans()),
        must_trump=draw(st.booleans()),
        must_beat=draw(st.booleans()),
        trump_lead=draw(st.sampled_from(list(TrumpLead))),
    )
    first = draw(st.sampled_from(list(FirstDealer)))
    v = Variant(
        name="prop",
        players=PlayerRange(3, 7),
        deck=deck,
        direction=draw(st.sampled_from(list(Direction))),
        dealer=DealerRule(first=first, seat=draw(st.integers(0, players - 1))),
        schedule=schedule,
        trumps=trumps,
        bidding=bidding,
        play=play,
        scoring=ScoringRule(
            formula=parse_formula(draw(st.sampled_from(FORMULAS))),
            higher_wins=draw(st.booleans()),
        ),
        winning=WinRule(
            tie=draw(st.sampled_from(list(TieBreak))),
            max_extra_hands=draw(st.integers(0, 3)),
        ),
    )
    return v, players


# --------------------------------------------------------------------------- checks


def check_conservation(g: Game) -> None:
    loc = g.card_locations()
    total = 0
    count = 0
    for part in loc.values():
        assert total & part.mask == 0, "a card is in two places"
        total |= part.mask
        count += len(part)
    assert total == g.variant.deck.cards.mask
    assert count == g.variant.deck.size


def cards_in(obj: Any) -> Iterator[str]:
    """Every string in a JSON-like structure."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from cards_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from cards_in(v)


def check_views(g: Game) -> None:
    n = g.players
    forehead = g.variant.has_bidding and g.hand_size in g.variant.bidding.forehead_sizes
    forehead_bidding = forehead and g.phase == "bid"
    sim_bidding = g.phase == "bid" and g.variant.bidding.style is BidStyle.SIMULTANEOUS
    for seat in range(n):
        view = g.view(seat)
        d = view.to_dict()
        if view.last_hand is not None:
            # Between hands: the last hand's last trick, whose cards may be dealt again.
            del d["last_hand"], d["last_trick"]
        seen = set(cards_in(d))
        if not forehead_bidding:
            for other in range(n):
                if other != seat:
                    # Cards everyone knows another seat holds (picked up, or the
                    # dealer's own turned-up last card) are shown as known.
                    known = {str(c) for c in dict(view.known_hands).get(other, ())}
                    hidden = {str(c) for c in g.hand(other)} - known
                    assert not (seen & hidden), f"seat {seat} sees seat {other}'s cards"
            assert view.visible_hands == ()
        if view.hand is not None:
            assert CardSet(view.hand) == g.hand(seat)
        if sim_bidding:
            assert all(b is None for s, b in enumerate(view.bids) if s != seat)
        for ev in g.events_for(seat):
            if ev[0] == "deal" and ev[1] == g.hand_number and not forehead:
                assert all(h is None for s, h in enumerate(ev[4]) if s != seat)


def check_round_trip(g: Game) -> None:
    v = g.variant
    text = g.to_json()
    back = Game.from_json(text, variant=v)
    assert back == g and back.to_json() == text
    assert replay(v, g.events) == g
    assert g.clone() == g


def check_illegal_leaves_game_unchanged(g: Game, rng: random.Random) -> None:
    legal = {a.id for s in g.waiting_for for a in g.legal_actions(s)}
    bad = [i for i in rng.sample(range(NUM_ACTIONS), 12) if i not in legal]
    before = g.to_json()
    for i in bad[:3]:
        try:
            g.apply(Action.from_id(i), g.to_act)
        except (IllegalAction, InvalidAction) as e:
            assert str(e)
        else:
            raise AssertionError(f"{Action.from_id(i)} was accepted")
    assert g.to_json() == before


class Tracker:
    """Checks every step of a game against the oracle and the formula."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.v = g.variant
        self.seen_events = 0

    def before_play(self, seat: int) -> None:
        g = self.g
        p = self.v.play
        trick = [c for _, c in g.current_trick()]
        first_trick = self._tricks_this_hand() == 0
        lead = p.lead_card if p.lead_card is not None and first_trick else None
        expected = legal_plays(
            list(g.hand(seat)),
            trick,
            g.trump,
            must_follow=p.must_follow,
            must_trump=p.must_trump,
            must_beat=p.must_beat,
            trumps_broken=p.trump_lead is TrumpLead.ANY_TIME or self._trump_played(),
            first_lead=lead if p.first_lead is FirstLead.CARD else None,
            first_lead_suit=lead.suit
            if lead is not None and p.first_lead is FirstLead.SUIT
            else None,
        )
        got = {a.card for a in g.legal_actions(seat) if isinstance(a, Play)}
        assert got == expected

    def _since_deal(self) -> list[tuple[Any, ...]]:
        evs = self.g.events
        i = max(k for k, e in enumerate(evs) if e[0] == "deal")
        return evs[i:]

    def _tricks_this_hand(self) -> int:
        return sum(e[0] == "trick" for e in self._since_deal())

    def _trump_played(self) -> bool:
        t = self.g.trump
        return any(e[0] == "play" and e[2].suit == t for e in self._since_deal())

    def before_bid(self) -> None:
        g = self.g
        b = self.v.bidding
        if (
            b.style is BidStyle.IN_TURN
            and b.hook
            and g.to_act == g.dealer
            and sum(x is not None for x in g.bids) == g.players - 1
        ):
            others = sum(x or 0 for x in g.bids)
            bids = [a.n for a in g.legal_actions() if isinstance(a, Bid)]
            if len(bids) > 1 or others + bids[0] != g.hand_size:
                assert all(others + n != g.hand_size for n in bids)

    def after(self) -> None:
        g = self.g
        evs = g.events
        for ev in evs[self.seen_events :]:
            if ev[0] == "trick":
                _, winner, seats, cards = ev
                trump = self._trump_of(evs, ev)
                assert seats[trick_winner(cards, trump)] == winner
            elif ev[0] == "score":
                self._check_score(evs, ev)
        self.seen_events = len(evs)

    @staticmethod
    def _trump_of(evs: list[tuple[Any, ...]], ev: tuple[Any, ...]) -> Suit | None:
        i = evs.index(ev)
        return next(e[2] for e in reversed(evs[:i]) if e[0] == "trump")

    def _check_score(self, evs: list[tuple[Any, ...]], ev: tuple[Any, ...]) -> None:
        _, hn, bids, tricks, points, _totals = ev
        i = evs.index(ev)
        deal = next(e for e in reversed(evs[:i]) if e[0] == "deal")
        size = deal[3]
        blind = [False] * self.g.players
        for e in evs[evs.index(deal) : i]:
            if e[0] == "bid":
                blind[e[1]] = e[3]
            elif e[0] == "amend":
                blind[e[1]] = False
        f = self.v.scoring.formula
        assert f is not None
        for s in range(self.g.players):
            env = score_env(
                bid=bids[s] or 0,
                tricks=tricks[s],
                cards=size,
                hand=hn,
                players=self.g.players,
                blind=blind[s],
            )
            assert points[s] == f.evaluate(env)
        assert sum(tricks) == size
        b = self.v.bidding
        if b.style is BidStyle.IN_TURN and b.hook and self.v.has_bidding:
            lo = min(b.min_bid, size)
            hi = size if b.max_bid is None else min(b.max_bid, size)
            if lo < hi:
                assert sum(bids) != size
                assert any(bid != t for bid, t in zip(bids, tricks, strict=True))


def play_game(g: Game, rng: random.Random, *, deep: float = 0.05) -> None:
    """Random legal play to the end, checking everything along the way."""
    tr = Tracker(g)
    tr.after()
    steps = 0
    while not g.is_over:
        check_conservation(g)
        if rng.random() < deep:
            check_views(g)
            check_round_trip(g)
            check_illegal_leaves_game_unchanged(g, rng)
        seat = rng.choice(sorted(g.waiting_for))
        legal = g.legal_actions(seat)
        assert legal, f"seat {seat} is waited for but has no legal action"
        action = rng.choice(legal)
        if g.phase == "play":
            tr.before_play(seat)
        elif not isinstance(action, Amend):
            tr.before_bid()
        g.apply(action, seat=seat)
        tr.after()
        steps += 1
        assert steps < 5000
    check_conservation(g)
    check_round_trip(g)


def check_schedule_end(g: Game) -> None:
    v = g.variant
    sizes = v.hand_sizes(g.players)
    deals = [e[3] for e in g.events if e[0] == "deal"]
    extra = len(deals) - len(sizes)
    assert list(deals[: len(sizes)]) == list(sizes)
    assert 0 <= extra <= v.winning.extra_hand_limit
    assert all(d == max(sizes) for d in deals[len(sizes) :])
    totals_after = [e[5] for e in g.events if e[0] == "score"]
    pick = max if v.scoring.higher_wins else min

    def tied(totals: tuple[Any, ...]) -> bool:
        best = pick(totals)
        return sum(t == best for t in totals) > 1

    for k in range(len(sizes), len(deals)):
        assert tied(totals_after[k - 1]), "an extra hand was played without a tie"
    final = totals_after[-1]
    res = g.result
    assert res is not None
    assert res.totals == final == g.scores
    if extra < v.winning.extra_hand_limit:
        assert not tied(final)
    if not res.finished:
        # Only a tie still open at the safety bound leaves a game unfinished.
        assert v.winning.max_extra_hands is None and extra == v.winning.extra_hand_limit
        assert tied(final) and res.winners == ()
        return
    assert set(res.winners) == {s for s, t in enumerate(final) if t == pick(final)}


# --------------------------------------------------------------------------- tests


@SETTINGS
@given(vp=variants(), seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**16))
def test_random_games(vp: tuple[Variant, int], seed: int, rng_seed: int) -> None:
    v, players = vp
    g = Game(v, players=players, seed=seed)
    play_game(g, random.Random(rng_seed))
    check_schedule_end(g)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 7), seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**16))
def test_random_kachuful_games(players: int, seed: int, rng_seed: int) -> None:
    """The classic game, whole: 19 (15, 13) hands, every action checked cheaply."""
    from oracle import kachuful

    g = Game(kachuful(), players=players, seed=seed)
    play_game(g, random.Random(rng_seed), deep=0.01)
    check_schedule_end(g)


class GameMachine(RuleBasedStateMachine):
    """Steps through a random game, trying illegal moves, saves and replays on the way."""

    def __init__(self) -> None:
        super().__init__()
        self.g: Game | None = None
        self.rng = random.Random(0)

    @initialize(vp=variants(), seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**16))
    def start(self, vp: tuple[Variant, int], seed: int, rng_seed: int) -> None:
        v, players = vp
        self.g = Game(v, players=players, seed=seed)
        self.rng = random.Random(rng_seed)
        self.tracker = Tracker(self.g)

    @rule()
    def act(self) -> None:
        g = self.g
        assert g is not None
        if g.is_over:
            return
        seat = self.rng.choice(sorted(g.waiting_for))
        action = self.rng.choice(g.legal_actions(seat))
        if g.phase == "play":
            self.tracker.before_play(seat)
        g.apply(action, seat=seat)
        self.tracker.after()

    @rule()
    def act_many(self) -> None:
        for _ in range(10):
            self.act()

    @rule()
    def illegal(self) -> None:
        assert self.g is not None
        check_illegal_leaves_game_unchanged(self.g, self.rng)

    @rule()
    def wrong_seat(self) -> None:
        g = self.g
        assert g is not None
        if g.is_over:
            return
        others = [s for s in range(g.players) if s not in g.waiting_for]
        if not others:
            return
        before = g.to_json()
        seat = self.rng.choice(others)
        action = self.rng.choice(g.legal_actions())
        try:
            g.apply(action, seat=seat)
        except IllegalAction:
            pass
        else:
            raise AssertionError("a seat acted out of turn")
        assert g.to_json() == before

    @rule()
    def round_trip(self) -> None:
        assert self.g is not None
        check_round_trip(self.g)

    @rule()
    def clone_is_independent(self) -> None:
        g = self.g
        assert g is not None
        c = g.clone()
        before = g.to_json()
        while not c.is_over:
            c.apply(c.legal_actions()[0], c.to_act)  # never an amendment: always progress
        assert g.to_json() == before

    @invariant()
    def conserved(self) -> None:
        if self.g is not None:
            check_conservation(self.g)

    @invariant()
    def views_hide(self) -> None:
        if self.g is not None:
            check_views(self.g)


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(
    max_examples=60,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
