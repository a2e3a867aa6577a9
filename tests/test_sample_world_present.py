"""Worlds drawn from the present against the reference sampler.

``sample_world`` builds a world from a clone of the game as it stands, the
hidden cards of the current hand drawn again under every constraint the seat
has seen; ``sample_world_replay`` (the reference) deals every hand again and
replays it. These tests check that the fast sampler is used where it should
be, that its worlds are full games the seat cannot tell from the real one,
that the two samplers draw from the same distribution (uniform over the
consistent deals, counted by brute force), and that the shortcut it takes to
find what a play revealed gives the rules' own answer.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Amend, Game, replay
from cardrules.cards import CardSet
from cardrules.dsl import builtin_names
from cardrules.engine.actions import Discard
from cardrules.engine.search import worlds
from cardrules.engine.search.worlds import sample_world, sample_world_replay
from cardrules.engine.views.event_types import PlayEvent
from cardrules.errors import IllegalAction, SaveError

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}

#: Families drawn from the present (a pass of cards, a kitty and a shedding
#: game's first hand too), and those left to the replaying sampler (several
#: packs).
PRESENT = (
    *("kachuful", "oh-hell", "callbreak", "wizard", "spades", "kachuful-strict"),
    *("hearts", "bid-whist", "five-hundred", "kazhutha"),
)
REPLAYED = ("kazhutha-two-packs",)


def _step(g: Game, rng: random.Random) -> None:
    s = g.to_act
    assert s is not None
    g.apply(rng.choice([a for a in g.legal_actions(s) if type(a) is not Amend]), s)


def _in_play(name: str, players: int, seed: int, cards: int) -> Game:
    """A game of ``name`` in the play of a hand, ``cards`` cards into it (or
    fewer, if the hand ends first)."""
    rng = random.Random(seed)
    g = Game(VARIANTS[name], players, seed=seed)
    while g.phase != "play":
        _step(g, rng)
    hn = g.hand_number
    for _ in range(cards):
        _step(g, rng)
        if g.phase != "play" or g.hand_number != hn:
            break
    while g.phase != "play":
        _step(g, rng)
    return g


@pytest.mark.parametrize("name", PRESENT)
def test_these_families_are_drawn_from_the_present(name: str) -> None:
    v = VARIANTS[name]
    g = _in_play(name, v.players.min, 3, 5)
    assert worlds._present_world(g, g.to_act, random.Random(1)) is not None


@pytest.mark.parametrize("name", REPLAYED)
def test_these_families_are_replayed(name: str) -> None:
    v = VARIANTS[name]
    g = _in_play(name, v.players.min, 3, 5)
    assert worlds._present_world(g, g.to_act, random.Random(1)) is None
    # ...and sample_world is then the reference sampler's world, draw for draw.
    assert sample_world(g, 0, random.Random(4)) == sample_world_replay(g, 0, random.Random(4))


def _players(name: str, k: int) -> int:
    p = VARIANTS[name].players
    lo, hi = max(p.min, 3), min(p.max, 7)
    if lo > hi:
        lo, hi = p.min, p.max
    return lo + k % (hi - lo + 1)


@pytest.mark.parametrize("name", NAMES)
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
)
@given(k=st.integers(0, 4), seed=st.integers(0, 2**32), actions=st.integers(0, 300))
def test_worlds_from_the_present_are_games_the_seat_cannot_tell(
    name: str, k: int, seed: int, actions: int
) -> None:
    """Every built-in: a world's view and stream of the seat are the real
    game's, the other seats hold as many cards as they do, the world saves,
    replays and plays on; sampling twice from one position (the
    second from what the first kept) is the same as sampling afresh."""
    players = _players(name, k)
    rng = random.Random(seed)
    g = Game(VARIANTS[name], players, seed=seed)
    for _ in range(actions):
        if g.is_over:
            break
        _step(g, rng)
    seat = seed % players
    w = sample_world(g, seat, random.Random(seed))
    assert w.view(seat) == g.view(seat)
    assert w.events_for(seat) == g.events_for(seat)
    assert [len(w.hand(s)) for s in range(players)] == [len(g.hand(s)) for s in range(players)]
    assert Game.from_json(w.to_json()) == w
    assert replay(VARIANTS[name], w.events) == w
    again = sample_world(g, seat, random.Random(seed))
    assert again == w
    worlds._FORBID.clear()
    worlds._PAST.clear()
    worlds._PLANS.clear()
    worlds._OPENING.clear()
    assert sample_world(g.clone(), seat, random.Random(seed)) == w
    # It plays on under the rules (a few hands: random Spades may last long).
    for _ in range(400):
        if w.is_over:
            break
        _step(w, rng)


def test_the_peeled_constraints_are_the_rules_answer_card_by_card() -> None:
    """What a play revealed, found in a few calls of the rules (the present
    sampler's way), is what asking the rules with each two-card hand finds
    (the reference's way): every card, at points of the play of every
    built-in of one pack."""
    checked = 0
    for i, name in enumerate(NAMES):
        v = VARIANTS[name]
        g = Game(v, _players(name, i), seed=i)
        if g._rules.copies:
            continue
        rng = random.Random(i)
        for step in range(160):
            if g.is_over:
                break
            if g.phase == "play" and step % 3 == 0:
                s = g.to_act
                assert s is not None
                for c in CardSet(g._rules.pack_mask):
                    a = worlds._forbidden(g, s, int(c))
                    assert worlds._forbidden_peeled(g, s, int(c)) == a, (name, step, c)
                    checked += 1
            _step(g, rng)
    assert checked > 20_000


# --------------------------------------------------------------------------- same distribution


def _chi2_limit(df: int) -> float:
    """A generous upper quantile (about p = 0.0001) of chi-square with ``df``
    degrees of freedom (Wilson-Hilferty)."""
    z = 3.72
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _consistent(g: Game, seat: int) -> set[tuple[CardSet, ...]]:
    """Every holding of the other seats (in seat order) under which the hand's
    play so far is legal and the seat sees the same stream: brute force, each
    candidate deal replayed by the rules (a one-hand game of one pack with no
    pass, the seat's own deal known)."""
    v = g.variant
    n = g.players
    stream = g.events_for(seat)
    others = [s for s in range(n) if s != seat]
    counts = [len(g.hand(s)) for s in others]
    unseen = sorted(int(c) for s in others for c in g.hand(s))
    ((deal0, turned),) = g.deals()
    played = {
        s: CardSet(
            sum(1 << int(ev.card) for ev in stream if isinstance(ev, PlayEvent) and ev.seat == s)
        )
        for s in others
    }
    actions = [(ev.seat, cardrules.Play(ev.card)) for ev in stream if isinstance(ev, PlayEvent)]
    bids = [(s, a) for s, a in _bids(g)]
    out: set[tuple[CardSet, ...]] = set()

    def parts(cards: list[int], sizes: list[int]) -> list[list[tuple[int, ...]]]:
        if not sizes:
            return [[]]
        res = []
        for first in itertools.combinations(cards, sizes[0]):
            left = [x for x in cards if x not in first]
            for tail in parts(left, sizes[1:]):
                res.append([first, *tail])
        return res

    for split in parts(unseen, counts):
        holding = {
            s: CardSet(sum(1 << x for x in part)) for s, part in zip(others, split, strict=True)
        }
        hands = tuple(deal0[s] if s == seat else holding[s] | played[s] for s in range(n))
        try:
            cand = Game.from_deals(
                v, n, [(hands, turned)], [*bids, *actions], first_dealer=g.dealer
            )
        except (IllegalAction, SaveError):
            continue
        if cand.events_for(seat)[1:] == stream[1:]:
            out.add(tuple(holding[s] for s in others))
    return out


def _bids(g: Game) -> list[tuple[int, cardrules.Action]]:
    """The bids of the hand, as actions (``(seat, action)``), in order."""
    from cardrules.engine.state.undo import _action_of

    return [_action_of(e) for e in g._events if e[0] == "bid"]


def _draws(
    sampler: Callable[[Game, int, random.Random], Game], g: Game, seat: int, n: int, seed: int
) -> Counter[tuple[CardSet, ...]]:
    rng = random.Random(seed)
    others = [s for s in range(g.players) if s != seat]
    got: Counter[tuple[CardSet, ...]] = Counter()
    for _ in range(n):
        w = sampler(g, seat, rng)
        got[tuple(w.hand(s) for s in others)] += 1
    return got


def _same_and_uniform(g: Game, seat: int, per: int) -> None:
    """Both samplers draw exactly the consistent holdings, each uniformly, and
    their counts agree (a two-sample chi-square)."""
    consistent = _consistent(g, seat)
    assert len(consistent) >= 3
    n = per * len(consistent)
    fast = _draws(sample_world, g, seat, n, 1)
    slow = _draws(sample_world_replay, g, seat, n, 2)
    assert set(fast) == consistent == set(slow)
    limit = _chi2_limit(len(consistent) - 1)
    expected = n / len(consistent)
    for got in (fast, slow):
        chi2 = sum((x - expected) ** 2 / expected for x in got.values())
        assert chi2 < limit, (chi2, len(consistent))
    two = sum((fast[k] - slow[k]) ** 2 / (fast[k] + slow[k]) for k in consistent)
    assert two < limit, (two, len(consistent))


def test_both_samplers_are_uniform_late_in_a_plain_hand() -> None:
    """Voids only (follow suit): late in a 13-card hand of 4 players."""
    v = cardrules.load_text("game: t\nplayers: 4\nhand size: 13\nbidding: none\nscore: tricks\n")
    rng = random.Random(8)
    g = Game(v, 4, seed=8)
    for _ in range(4 * 10 + 1):
        _step(g, rng)
    assert worlds._present_world(g, 1, random.Random(0)) is not None
    _same_and_uniform(g, 1, 40)


def test_both_samplers_are_uniform_under_must_beat_and_must_trump() -> None:
    """Callbreak (follow, beat the trick and trump when void, if one can):
    the constraints the plays revealed, late in the hand."""
    g = _in_play("callbreak", 4, 11, 4 * 11 + 1)
    assert g.phase == "play" and worlds._present_world(g, 2, random.Random(0)) is not None
    _same_and_uniform(g, 2, 30)


def test_what_one_seat_learned_serves_another_seat_regression() -> None:
    """A bug fixed: the plays' constraints kept for the hand were only the
    other seats' of the first seat sampled, so a second seat's worlds missed
    the first seat's own void (judgement, 3 players: seat 1 showed out of
    diamonds, yet seat 2's worlds gave it diamonds)."""
    rng = random.Random(181)
    g = Game(VARIANTS["judgement"], 3, seed=181)
    for _ in range(44):
        _step(g, rng)
    diamonds = CardSet(0x3FFE000)  # the second suit's thirteen cards
    assert g.events_for(1)[-1].kind == "play"
    worlds._FORBID.clear()
    sample_world(g, 1, random.Random(0))  # learns the hand for seat 1 first
    r = random.Random(1)
    for _ in range(50):
        assert not sample_world(g, 2, r).hand(1) & diamonds


def test_a_dealer_given_the_turned_card_discards_regression() -> None:
    """A bug fixed in the reference sampler: a dealer that takes the turned
    card without an order-up (a turned Benny goes to the dealer) and discards
    face down was not given the card, so no deal fitted (``no_world``) in
    every later hand of the game (euchre-benny, 4 players)."""
    rng = random.Random(32)
    g = Game(VARIANTS["euchre-benny"], 4, seed=32)
    for _ in range(196):
        _step(g, rng)
    for sampler in (sample_world, sample_world_replay):
        w = sampler(g, 0, random.Random(32))
        assert w.view(0) == g.view(0) and w.events_for(0) == g.events_for(0)


# --------------------------------------------------------------------------- a pass of cards

PASSING = (
    "game: t\nplayers: 4\nhand size: 13\nhands: 2 hands of the same size\n"
    "trumps: none\nbidding: none\npass: 3 cards left\nscore: tricks\n"
)


def _consistent_after_a_pass(g: Game, seat: int) -> set[tuple[CardSet, ...]]:
    """:func:`_consistent` for a hand that began with a pass of cards: every
    holding of the other seats (after the pass) under which the seat sees the
    same stream. The cards passed between other seats are not seen, so any
    choice of them serves: each receiver is given its lowest cards."""
    v = g.variant
    n = g.players
    stream = g.events_for(seat)
    (ex,) = [e for e in g._events if e[0] == "exchange"]
    targets, chosen = ex[2], ex[3]
    src = {t: s for s, t in enumerate(targets)}
    others = [s for s in range(n) if s != seat]
    counts = [len(g.hand(s)) for s in others]
    unseen = sorted(int(c) for s in others for c in g.hand(s))
    played = [0] * n
    for e in g._events:
        if e[0] == "play":
            played[e[1]] |= 1 << e[2]
    own_hold = g.hand(seat).mask | played[seat]
    plays = [
        (e[1], cardrules.Play(cardrules.cards.CARDS[e[2]])) for e in g._events if e[0] == "play"
    ]
    pass_order = [e[1] for e in g._events if e[0] == "pass"]
    ((_deal0, turned),) = g.deals()
    out: set[tuple[CardSet, ...]] = set()
    for split in _parts(unseen, counts):
        hold = [0] * n
        hold[seat] = own_hold
        for s, part in zip(others, split, strict=True):
            hold[s] = sum(1 << x for x in part) | played[s]
        got = [0] * n
        for t in range(n):
            s = src[t]
            if s == seat or t == seat:
                got[t] = chosen[s]
            else:
                got[t] = sum(1 << x for x in worlds._bits(hold[t])[:3]) if hold[t] else 0
        if got[targets[seat]] & ~hold[targets[seat]]:
            continue
        deal = tuple(CardSet((hold[s] & ~got[s]) | got[targets[s]]) for s in range(n))
        mine = [e[2] for e in g._events if e[0] == "pass" and e[1] == seat]
        queues = {s: worlds._bits(got[targets[s]]) for s in range(n)}
        queues[seat] = mine
        actions = [(s, cardrules.Pass(cardrules.cards.CARDS[queues[s].pop(0)])) for s in pass_order]
        try:
            cand = Game.from_deals(
                v, n, [(deal, turned)], [*actions, *plays], first_dealer=g.dealer
            )
        except (IllegalAction, SaveError):
            continue
        if cand.events_for(seat)[1:] == stream[1:]:
            out.add(tuple(CardSet(hold[s] & ~played[s]) for s in others))
    return out


def _parts(cards: list[int], sizes: list[int]) -> list[list[tuple[int, ...]]]:
    """Every way to share ``cards`` into parts of ``sizes``."""
    if not sizes:
        return [[]]
    res = []
    for first in itertools.combinations(cards, sizes[0]):
        left = [x for x in cards if x not in first]
        for tail in _parts(left, sizes[1:]):
            res.append([first, *tail])
    return res


def test_both_samplers_are_uniform_after_a_pass_of_cards() -> None:
    """A pass of three cards to the left, late in a 13-card hand: the seat's
    passed cards are in its left neighbour's holding, and the holdings after
    the pass are drawn uniformly by both samplers, from the present and by
    replay."""
    v = cardrules.load_text(PASSING)
    rng = random.Random(5)
    g = Game(v, 4, seed=5)
    while g.phase == "pass":
        _step(g, rng)
    for _ in range(4 * 10 + 1):
        _step(g, rng)
    assert worlds._present_world(g, 1, random.Random(0)) is not None
    consistent = _consistent_after_a_pass(g, 1)
    assert len(consistent) >= 3
    per = 40
    n = per * len(consistent)
    fast = _draws(sample_world, g, 1, n, 1)
    slow = _draws(sample_world_replay, g, 1, n, 2)
    assert set(fast) == consistent == set(slow)
    limit = _chi2_limit(len(consistent) - 1)
    expected = n / len(consistent)
    for got in (fast, slow):
        chi2 = sum((x - expected) ** 2 / expected for x in got.values())
        assert chi2 < limit, (chi2, len(consistent))
    two = sum((fast[k] - slow[k]) ** 2 / (fast[k] + slow[k]) for k in consistent)
    assert two < limit, (two, len(consistent))


@pytest.mark.parametrize(
    "name",
    [
        *("hearts", "hearts-3-to-6", "omnibus-hearts", "bid-whist", "five-hundred"),
        *("kazhutha", "kazhutha-face-down", "donkey"),
    ],
)
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
)
@given(k=st.integers(0, 4), seed=st.integers(0, 2**32), actions=st.integers(0, 400))
def test_passes_kitties_and_pickups_are_drawn_without_a_leak_in_any_hand(
    name: str, k: int, seed: int, actions: int
) -> None:
    """Games with a pass of cards, a kitty or cards picked up (shedding), at
    any point of any hand (the passes between other seats, kitties and
    discards of past hands are drawn again too): the world is one the seat
    cannot tell from the game, and it is the same world from a game
    differing only in what the seat did not see (the reference's world of
    it: other passes, kitties, holdings)."""
    players = _players(name, k)
    rng = random.Random(seed)
    g = Game(VARIANTS[name], players, seed=seed)
    for _ in range(actions):
        if g.is_over:
            break
        _step(g, rng)
    seat = seed % players
    twin = sample_world_replay(g, seat, random.Random(~seed))
    a = sample_world(g, seat, random.Random(seed))
    assert a.view(seat) == g.view(seat) and a.events_for(seat) == g.events_for(seat)
    assert Game.from_json(a.to_json()) == a
    assert replay(VARIANTS[name], a.events) == a
    assert sample_world(twin, seat, random.Random(seed)) == a


# --------------------------------------------------------------------------- a kitty


def _consistent_with_a_kitty(g: Game, seat: int) -> set[tuple[CardSet, ...]]:
    """:func:`_consistent` for a hand whose declarer (not ``seat``) took the
    kitty and discarded: every holding of the other seats and every set of
    discards under which the seat sees the same stream. Which cards of the
    declarer's came from the kitty is not seen, so any choice serves: the
    declarer is dealt its lowest cards."""
    from cardrules.engine.state.undo import _action_of

    v = g.variant
    n = g.players
    stream = g.events_for(seat)
    maker = next(e[1] for e in g._events if e[0] == "kitty")
    assert maker != seat
    real = [e[2] for e in g._events if e[0] == "call" and type(e[2]) is Discard]
    others = [s for s in range(n) if s != seat]
    counts = [len(g.hand(s)) for s in others] + [len(real)]
    unseen = sorted([int(c) for s in others for c in g.hand(s)] + [int(a.card) for a in real])
    played = [0] * n
    for e in g._events:
        if e[0] == "play":
            played[e[1]] |= 1 << e[2]
    ((deal0, turned),) = g.deals()
    dealt = len(deal0[maker])
    out: set[tuple[CardSet, ...]] = set()
    for split in _parts(unseen, counts):
        hold = {
            s: sum(1 << x for x in part) | played[s]
            for s, part in zip(others, split[:-1], strict=True)
        }
        gone = split[-1]
        pool = hold[maker] | sum(1 << x for x in gone)
        mine = sum(1 << x for x in worlds._bits(pool)[:dealt])
        deal = tuple(
            deal0[s] if s == seat else CardSet(mine if s == maker else hold[s]) for s in range(n)
        )
        queue = list(gone)
        actions: list[tuple[int, cardrules.Action]] = []
        for e in g._events:
            if e[0] == "call" and type(e[2]) is Discard:
                actions.append((e[1], Discard(queue.pop(0))))
            elif e[0] in ("bid", "call", "play", "look"):
                actions.append(_action_of(e))
        try:
            cand = Game.from_deals(v, n, [(deal, turned)], actions, first_dealer=g.dealer)
        except (IllegalAction, SaveError):
            continue
        if cand.events_for(seat)[1:] == stream[1:]:
            key = [CardSet(hold[s] & ~played[s]) for s in others]
            out.add((*key, CardSet(sum(1 << x for x in gone))))
    return out


def test_both_samplers_are_uniform_after_the_kitty_is_taken() -> None:
    """Bid Whist late in a hand, seen by a seat that is not the declarer: the
    other holdings and the declarer's four discards (face down) are drawn
    uniformly by both samplers, from the present and by replay."""
    v = VARIANTS["bid-whist"]
    for seed in range(40):
        rng = random.Random(seed)
        g = Game(v, 4, seed=seed)
        while g.phase != "play":
            _step(g, rng)
        for _ in range(4 * 11 + 1):
            _step(g, rng)
        maker = next(e[1] for e in g._events if e[0] == "kitty")
        seat = (maker + 1) % 4
        if g.hand_number == 1 and g.phase == "play" and len(_consistent_with_a_kitty(g, seat)) >= 4:
            break
    consistent = _consistent_with_a_kitty(g, seat)
    assert worlds._present_world(g, seat, random.Random(0)) is not None
    others = [s for s in range(4) if s != seat]
    n = 40 * len(consistent)
    counts = []
    for sampler, r in ((sample_world, random.Random(1)), (sample_world_replay, random.Random(2))):
        got: Counter[tuple[CardSet, ...]] = Counter()
        for _ in range(n):
            w = sampler(g, seat, r)
            got[(*(w.hand(s) for s in others), CardSet(w._discarded))] += 1
        counts.append(got)
    fast, slow = counts
    assert set(fast) == consistent == set(slow)
    limit = _chi2_limit(len(consistent) - 1)
    expected = n / len(consistent)
    for got in (fast, slow):
        chi2 = sum((x - expected) ** 2 / expected for x in got.values())
        assert chi2 < limit, (chi2, len(consistent))


# --------------------------------------------------------------------------- the exact sampler


def _problems() -> st.SearchStrategy[
    tuple[list[tuple[frozenset[int], list[int]]], tuple[int, ...]]
]:
    """Small problems of the exact sampler: classes of cards (each allowed
    some bins) and bins' capacities that add up to the cards."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[tuple[frozenset[int], list[int]]], tuple[int, ...]]:
        nbins = draw(st.integers(2, 4))
        sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
        classes = []
        card = 0
        for size in sizes:
            bins = draw(st.sets(st.integers(0, nbins - 1), min_size=1))
            classes.append((frozenset(bins), list(range(card, card + size))))
            card += size
        caps = [0] * nbins
        for _ in range(card):
            caps[draw(st.integers(0, nbins - 1))] += 1
        return classes, tuple(caps)

    return build()


def _assignments(
    classes: list[tuple[frozenset[int], list[int]]], caps: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """Every assignment of the cards to bins that the classes and the
    capacities allow (brute force), as each card's bin in card order."""
    allowed = [sorted(bins) for bins, cards in classes for _ in cards]
    out = []
    for choice in itertools.product(*allowed):
        if all(choice.count(b) == c for b, c in enumerate(caps)):
            out.append(choice)
    return out


@settings(max_examples=60, deadline=None, derandomize=True)
@given(problem=_problems())
def test_the_exact_sampler_counts_and_draws_every_assignment(
    problem: tuple[list[tuple[frozenset[int], list[int]]], tuple[int, ...]],
) -> None:
    """The sampler's count (over the narrow bins, the open ones by a
    constant factor) is the number of assignments found by brute force, and
    its draws are among them (none when there is none)."""
    classes, caps = problem
    every = _assignments(classes, caps)
    s = worlds._Sampler([(a, c[:]) for a, c in classes], caps)
    start = tuple(caps[b] for b in s.narrow)
    open_ways = math.factorial(sum(caps[b] for b in s.open))
    for b in s.open:
        open_ways //= math.factorial(caps[b])
    counted = s.count(0, start) * open_ways if s.cards and s.ok else int(s.ok)
    assert counted == len(every)
    ncards = sum(len(c) for _, c in classes)
    r = random.Random(0)
    for _ in range(5):
        where = s.sample(r)
        if not every:
            assert where is None
            break
        assert where is not None and tuple(where[:ncards]) in every


def test_the_exact_sampler_is_uniform_with_every_kind_of_class() -> None:
    """A problem whose last two classes share some narrow bins and not
    others, with an open bin: each of its assignments is drawn equally often
    (chi-square)."""
    classes = [
        (frozenset({0, 3}), [0, 1]),
        (frozenset({1, 3}), [2]),
        (frozenset({0, 1, 3}), [3, 4]),
        (frozenset({0, 2, 3}), [5, 6]),
    ]
    caps = (2, 2, 1, 2)
    every = _assignments(classes, caps)
    assert len(every) >= 10
    s = worlds._Sampler([(a, c[:]) for a, c in classes], caps)
    r = random.Random(3)
    n = 60 * len(every)
    got: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        where = s.sample(r)
        assert where is not None
        got[tuple(where[:7])] += 1
    assert set(got) == set(every)
    expected = n / len(every)
    chi2 = sum((x - expected) ** 2 / expected for x in got.values())
    assert chi2 < _chi2_limit(len(every) - 1), (chi2, len(every))


# --------------------------------------------------------------------------- a shedding game


def _consistent_shedding(g: Game, seat: int) -> set[tuple[CardSet, ...]]:
    """:func:`_consistent` for a shedding game's first hand: every holding
    of the other seats now under which the seat sees the same stream (each
    seat's dealt cards found by walking the hand back: a card played came
    from the hand, the cards picked up went into it)."""
    v = g.variant
    n = g.players
    stream = g.events_for(seat)
    others = [s for s in range(n) if s != seat]
    counts = [len(g.hand(s)) for s in others]
    unseen = sorted(int(c) for s in others for c in g.hand(s))
    ((deal0, turned),) = g.deals()
    actions = [
        (e[1], cardrules.Play(cardrules.cards.CARDS[e[2]])) for e in g._events if e[0] == "play"
    ]
    out: set[tuple[CardSet, ...]] = set()
    for split in _parts(unseen, counts):
        now = [g.hand(seat).mask if s == seat else 0 for s in range(n)]
        for s, part in zip(others, split, strict=True):
            now[s] = sum(1 << x for x in part)
        dealt = now[:]
        for e in reversed(g._events):
            if e[0] == "play":
                dealt[e[1]] |= 1 << e[2]
            elif e[0] == "pickup":
                for c in e[3]:
                    dealt[e[1]] &= ~(1 << c)
        deal = tuple(deal0[s] if s == seat else CardSet(dealt[s]) for s in range(n))
        try:
            cand = Game.from_deals(v, n, [(deal, turned)], actions, first_dealer=g.dealer)
        except (IllegalAction, SaveError):
            continue
        if cand.events_for(seat)[1:] == stream[1:]:
            out.add(tuple(CardSet(now[s]) for s in others))
    return out


def test_both_samplers_are_uniform_in_a_shedding_game() -> None:
    """Kazhutha late in its first hand (cards picked up, seats out): the other
    seats' cards are drawn uniformly by both samplers, from the present and by
    replay."""
    v = VARIANTS["kazhutha"]
    for seed in range(200):
        rng = random.Random(seed)
        g = Game(v, 4, seed=seed)
        while not g.is_over and g.hand_number == 1:
            seat = g.to_act
            assert seat is not None
            hidden = sum(len(g.hand(s)) for s in range(4) if s != seat)
            picked = any(e[0] == "pickup" for e in g._events)
            if picked and 5 <= hidden <= 7 and worlds._present_world(g, seat, random.Random(0)):
                break
            _step(g, rng)
        else:
            continue
        consistent = _consistent_shedding(g, seat)
        if len(consistent) >= 4:
            break
    assert len(consistent) >= 4
    n = 40 * len(consistent)
    fast = _draws(sample_world, g, seat, n, 1)
    slow = _draws(sample_world_replay, g, seat, n, 2)
    assert set(fast) == consistent == set(slow)
    limit = _chi2_limit(len(consistent) - 1)
    expected = n / len(consistent)
    for got in (fast, slow):
        chi2 = sum((x - expected) ** 2 / expected for x in got.values())
        assert chi2 < limit, (chi2, len(consistent))


@pytest.mark.parametrize(("name", "hand"), [("hearts", 3), ("bid-whist", 2), ("five-hundred", 2)])
def test_later_hands_with_passes_or_a_kitty_are_drawn_from_the_present(
    name: str, hand: int
) -> None:
    """The hands before hid something (passes between other seats, a kitty
    and its discards): a world is still drawn from the present, those hands
    drawn again, and its records of them are not the game's."""
    v = VARIANTS[name]
    for seed in range(50):
        rng = random.Random(seed)
        g = Game(v, v.players.min, seed=seed)
        while not g.is_over and (g.hand_number < hand or g.phase != "play"):
            _step(g, rng)
        if not g.is_over:
            break
    past = [i for i, e in enumerate(g._events) if e[0] == "deal"][:-1]
    redrawn = False
    for seat in range(g.players):
        w = worlds._present_world(g, seat, random.Random(1))
        assert w is not None
        assert w.view(seat) == g.view(seat) and w.events_for(seat) == g.events_for(seat)
        assert replay(v, w.events) == w
        redrawn = redrawn or any(w._events[i] != g._events[i] for i in past)
    assert redrawn  # (the declarer itself knows the kitty: its world keeps it)
