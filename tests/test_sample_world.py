"""Game.sample_world: worlds a seat cannot tell from the real game.

Every world must give the seat the real game's view and event stream, keep
every card somewhere exactly once, respect what the seat saw (voids, cards
passed and picked up, the cut, the turned card), be a full game of its own
(saves, replay, play on to the end), not depend on what the seat did not see,
and be drawn uniformly over the consistent deals (checked against a brute
force on a small case).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Amend, Game, replay
from cardrules.cards import SUIT_MASKS, CardSet, base_mask, card
from cardrules.dsl import builtin_names
from cardrules.engine.views.event_types import (
    ExchangeEvent,
    PickupEvent,
    PlayEvent,
    TrickEvent,
)
from cardrules.errors import IllegalAction, InvalidAction, SaveError

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}


def _step(g: Game, rng: random.Random) -> None:
    """A random legal action of the seat to act (never a change of bid, which
    could go on for ever)."""
    s = g.to_act
    assert s is not None
    legal = [a for a in g.legal_actions(s) if type(a) is not Amend]
    g.apply(rng.choice(legal), s)


def _play(g: Game, rng: random.Random, actions: int) -> Game:
    """``actions`` random legal actions (fewer if the game ends)."""
    for _ in range(actions):
        if g.is_over:
            break
        _step(g, rng)
    return g


def _to_end(g: Game, rng: random.Random) -> None:
    for _ in range(20_000):
        if g.is_over:
            return
        _step(g, rng)
    raise AssertionError("the game did not end")


def _deck(hands: dict[int, str], dealer: int, n: int) -> list[str]:
    """A card order that deals ``hands`` (text per seat), dealer ``dealer``, in a
    clockwise game."""
    per = {s: h.split() for s, h in hands.items()}
    size = len(per[0])
    seats = [(dealer + 1 + j) % n for j in range(n)]
    return [per[seats[j]][i] for i in range(size) for j in range(n)]


def _check_world(g: Game, seat: int, w: Game) -> None:
    """What every world must be: the seat's view and stream, and every card of
    the pack in exactly one place."""
    assert w.view(seat) == g.view(seat)
    assert w.events_for(seat) == g.events_for(seat)
    # (Cards compared as cards: in a game of several packs, which copy is
    # where is bookkeeping, numbered by each deal; one pack: the same masks.)
    if g.view(seat).hand is not None:
        assert _cards(w.hand(seat)) == _cards(g.hand(seat))  # (one not looked: drawn too)
    places = w.card_locations()
    real = g.card_locations()
    seen = 0
    for name, cs in places.items():
        assert not seen & cs.mask, name
        seen |= cs.mask
    assert _cards(CardSet(seen)) == sorted(c for cs in real.values() for c in _cards(cs))
    # Public places are the same.
    for name in ("trick", "won", "dead"):
        assert _cards(places[name]) == _cards(real[name]), name


def _cards(cs: CardSet) -> list[int]:
    """The cards of a set, a copy (several packs) as its card."""
    return sorted(int(c) & 63 for c in cs)


def _voids(g: Game, seat: int) -> dict[int, int]:
    """The suits each other seat showed out of in the current hand of a
    must-follow trick-taking game (a card of another suit on a led suit), as
    masks; from the seat's own stream."""
    out: dict[int, int] = {}
    stream = g.events_for(seat)
    start = max(i for i, ev in enumerate(stream) if ev.kind == "deal")
    trick: list[PlayEvent] = []
    for ev in stream[start:]:
        if isinstance(ev, PlayEvent):
            if trick and ev.card.suit != trick[0].card.suit and ev.seat != seat:
                out[ev.seat] = out.get(ev.seat, 0) | SUIT_MASKS[int(trick[0].card.suit)]
            trick.append(ev)
        elif isinstance(ev, TrickEvent):
            trick = []
    return out


def _plain_follow(name: str) -> bool:
    v = VARIANTS[name]
    g = Game(v, v.players.min, seed=0)
    r = g._rules
    return bool(r.tricks_mode and r.plain_follow and not r.ranked)


# --------------------------------------------------------------------------- every variant


@pytest.mark.parametrize("name", NAMES)
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 120), big=st.booleans())
def test_worlds_of_every_variant_are_full_consistent_games(
    name: str, seed: int, actions: int, big: bool
) -> None:
    """At a random point of a random game of every built-in variant, worlds for
    every seat keep its view and stream, conserve the cards, respect the voids
    shown, save and replay, and play on legally to the end."""
    v = VARIANTS[name]
    players = v.players.max if big else v.players.min
    rng = random.Random(seed)
    g = _play(Game(v, players, seed=seed), rng, actions)
    follow = _plain_follow(name)
    for seat in {seed % players, (seed + 1) % players}:
        w = g.sample_world(seat, random.Random(seed + seat))
        _check_world(g, seat, w)
        if follow and not g.is_over:
            for s, suits in _voids(g, seat).items():
                assert not base_mask(w.hand(s).mask) & suits, (s, w.hand(s))
    w = g.sample_world(seed % players, random.Random(seed))
    assert Game.from_json(w.to_json()) == w
    assert replay(v, w.events) == w
    c = w.clone()
    assert c == w
    _to_end(w, rng)
    assert c != w or g.is_over


def test_thousands_of_worlds_across_every_family() -> None:
    """Many samples at several phases of every variant (ten worlds at each of
    four points of a game): each one the seat's view and stream, the cards
    conserved."""
    phases: Counter[str] = Counter()
    count = 0
    for k, name in enumerate(NAMES):
        v = VARIANTS[name]
        players = (v.players.min, v.players.max)[k % 2]
        rng = random.Random(k)
        g = Game(v, players, seed=k)
        for _point in range(4):
            seat = rng.randrange(players)
            for _ in range(10):
                _check_world(g, seat, g.sample_world(seat, rng))
                count += 1
            phases[g.phase] += 1
            if g.is_over:
                break
            _play(g, rng, rng.randrange(1, 12))
    assert count >= 2000
    assert {"bid", "play", "pass", "trumps"} <= set(phases)


# --------------------------------------------------------------------------- golden cases

PLAIN = "game: t\nplayers: 4\nhand size: 3\nbidding: none\nscore: tricks\n"


def test_a_seat_that_showed_out_of_clubs_never_gets_a_club() -> None:
    v = cardrules.load_text(PLAIN)
    hands = {0: "2♣ 3♥ 4♥", 1: "5♣ 6♥ 7♥", 2: "8♥ 9♥ 10♥", 3: "J♣ Q♣ K♣"}
    g = Game(v, 4, deck=_deck(hands, 3, 4), first_dealer=3)
    for c in ("2♣", "5♣", "8♥"):
        g.apply(cardrules.Play(card(c)), g.to_act)
    rng = random.Random(1)
    clubs = SUIT_MASKS[0]
    got = Counter()
    for _ in range(300):
        w = g.sample_world(0, rng)
        assert not w.hand(2).mask & clubs
        assert len(w.hand(2)) == 2 and len(w.hand(1)) == 2 and len(w.hand(3)) == 3
        got[len(w.hand(1) & CardSet(clubs))] += 1
    # Seat 1 followed clubs and may well hold more of them: it sometimes does.
    assert got[0] and sum(got.values()) - got[0]


def test_a_callbreak_seat_that_did_not_beat_holds_no_higher_card() -> None:
    v = VARIANTS["callbreak"]
    pack = [str(c) for c in cardrules.cards.CARDS[:52]]

    def deal(by_seat: dict[int, list[str]]) -> Game:
        hands = tuple(CardSet(map(card, by_seat[s])) for s in range(4))
        g = Game.from_deals(v, 4, [(hands, None)], first_dealer=3)
        while g.phase == "bid":
            g.apply(g.legal_actions()[0], g.to_act)
        return g

    # Who leads, and who plays second (the direction of play is the rules').
    probe = deal({s: pack[13 * s : 13 * s + 13] for s in range(4)})
    leader = probe.to_act
    probe.apply(probe.legal_actions()[0], leader)
    second = probe.to_act
    high = ["J♣", "Q♣", "K♣", "A♣"]
    rest = [c for c in pack if c not in {"10♣", "3♣", *high}]
    random.Random(5).shuffle(rest)
    no_clubs = [c for c in rest if not c.endswith("♣")]
    by_seat = {leader: ["10♣", *no_clubs[:12]], second: ["3♣", *no_clubs[12:24]]}
    left = [c for c in pack if not any(c in h for h in by_seat.values())]
    third, fourth = (s for s in range(4) if s not in by_seat)
    by_seat[third], by_seat[fourth] = left[:13], left[13:]
    g = deal(by_seat)
    assert g.to_act == leader
    g.apply(cardrules.Play(card("10♣")), leader)
    g.apply(cardrules.Play(card("3♣")), second)
    # Seat ``second`` followed with 3♣ where the rules make a seat beat 10♣ if it can.
    rng = random.Random(2)
    higher = CardSet(map(card, high))
    for _ in range(200):
        w = g.sample_world(third, rng)
        assert not (w.hand(second) & higher)
        assert higher <= w.hand(third) | w.hand(fourth)


def test_passed_cards_sit_where_they_were_passed() -> None:
    v = VARIANTS["hearts"]
    rng = random.Random(3)
    g = Game(v, 4, seed=3)
    while not any(isinstance(ev, ExchangeEvent) for ev in g.events_for(0)):
        _play(g, rng, 1)
    ex = next(ev for ev in g.events_for(0) if isinstance(ev, ExchangeEvent))
    passed = ex.cards[0]
    assert passed is not None
    target = ex.targets[0]
    _play(g, rng, 3)
    for _ in range(100):
        w = g.sample_world(0, rng)
        played = CardSet(
            sum(
                1 << int(ev.card)
                for ev in w.events_for(0)
                if isinstance(ev, PlayEvent) and ev.seat == target
            )
        )
        assert passed <= w.hand(target) | played
        # The seat's own deal is the real one.
        assert w.deals()[-1][0][0] == g.deals()[-1][0][0]


def test_kazhutha_pickups_stay_with_the_seat_that_took_them() -> None:
    v = VARIANTS["kazhutha"]
    for seed in range(30):
        rng = random.Random(seed)
        g = Game(v, 4, seed=seed)
        while not g.is_over and not any(isinstance(ev, PickupEvent) for ev in g.events_for(0)[-3:]):
            _play(g, rng, 1)
        if g.is_over:
            continue
        pick = [ev for ev in g.events_for(0) if isinstance(ev, PickupEvent)][-1]
        taken = CardSet(sum(1 << int(c) for c in pick.cards))
        for _ in range(50):
            w = g.sample_world(0, rng)
            assert taken <= w.hand(pick.taker)
        return
    raise AssertionError("no pickup in 30 games")


def test_the_cut_for_the_first_deal_is_kept_and_saved() -> None:
    v = VARIANTS["kachuful"]
    g = Game(v, 4, seed=12)
    w = g.sample_world(1, random.Random(4))
    cuts = [ev for ev in g.events_for(1) if ev.kind == "cut"]
    assert cuts and [ev for ev in w.events_for(1) if ev.kind == "cut"] == cuts
    assert w.seed != g.seed
    back = Game.from_json(w.to_json())
    assert back == w and back.dealer == g.dealer


# --------------------------------------------------------------------------- no leak


def test_the_world_depends_only_on_what_the_seat_saw() -> None:
    """Two games that give seat 0 the same stream but differ in the hidden
    cards (and in their seeds, so in every later deal) give the same world."""
    v = VARIANTS["oh-hell"]
    mine = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠"
    hearts = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥"
    clubs = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣"
    diamonds = "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦"
    a = {0: mine, 1: hearts, 2: clubs, 3: diamonds}
    b = {0: mine, 1: diamonds, 2: hearts, 3: clubs}
    ga = Game(v, 4, seed=1, deck=[_deck(a, 3, 4)], first_dealer=3)
    gb = Game(v, 4, seed=2, deck=[_deck(b, 3, 4)], first_dealer=3)
    assert ga.turned_up == gb.turned_up
    for g in (ga, gb):
        while g.phase == "bid":
            g.apply(g.legal_actions()[0], g.to_act)
    assert ga.events_for(0) == gb.events_for(0)
    assert ga.hand(1) != gb.hand(1)
    wa = ga.sample_world(0, random.Random(9))
    wb = gb.sample_world(0, random.Random(9))
    assert wa == wb and wa.to_json() == wb.to_json()
    # Played on the same way, the next hands are dealt the same (a fresh seed
    # from the rng, not the real one).
    ra, rb = random.Random(1), random.Random(1)
    _to_end(wa, ra)
    _to_end(wb, rb)
    assert wa.deals() == wb.deals()
    assert wa.deals()[1] != ga.clone().deals()[0]


# --------------------------------------------------------------------------- uniform


def _chi2_limit(df: int) -> float:
    """A generous upper quantile (about p = 0.0001) of chi-square with ``df``
    degrees of freedom (Wilson-Hilferty)."""
    z = 3.72
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_worlds_are_uniform_over_the_consistent_deals() -> None:
    """Late in a 13-card hand, every assignment of the unseen cards that the
    rules allow (found by brute force: each candidate deal replayed) is drawn,
    and equally often."""
    v = cardrules.load_text("game: t\nplayers: 4\nhand size: 13\nbidding: none\nscore: tricks\n")
    rng = random.Random(8)
    g = Game(v, 4, seed=8)
    _play(g, rng, 4 * 10 + 1)
    seat = 1
    stream = g.events_for(seat)
    counts = [len(g.hand(s)) for s in range(4)]
    others = [s for s in range(4) if s != seat]
    unseen = sorted(int(c) for s in others for c in g.hand(s))
    deal0 = g.deals()[0][0]
    consistent = set()
    a, b, c3 = others
    for first in itertools.combinations(unseen, counts[a]):
        left = [x for x in unseen if x not in first]
        for second in itertools.combinations(left, counts[b]):
            third = [x for x in left if x not in second]
            holding = {
                a: CardSet(sum(1 << x for x in first)),
                b: CardSet(sum(1 << x for x in second)),
                c3: CardSet(sum(1 << x for x in third)),
            }
            key = tuple(holding[s] for s in others)
            hands = []
            for s in range(4):
                if s == seat:
                    hands.append(deal0[s])
                else:
                    played = CardSet(
                        sum(
                            1 << int(ev.card)
                            for ev in stream
                            if isinstance(ev, PlayEvent) and ev.seat == s
                        )
                    )
                    hands.append(holding[s] | played)
            actions = [
                (ev.seat, cardrules.Play(ev.card)) for ev in stream if isinstance(ev, PlayEvent)
            ]
            try:
                cand = Game.from_deals(v, 4, [(tuple(hands), None)], actions, first_dealer=g.dealer)
            except (IllegalAction, SaveError):
                continue
            # (The start record differs: this game is given its first dealer.)
            if cand.events_for(seat)[1:] == stream[1:]:
                consistent.add(key)
    assert len(consistent) >= 4
    n = 60 * len(consistent)
    freq: Counter[tuple[CardSet, ...]] = Counter()
    r = random.Random(3)
    for _ in range(n):
        w = g.sample_world(seat, r)
        freq[tuple(w.hand(s) for s in others)] += 1
    assert set(freq) == consistent
    expected = n / len(consistent)
    chi2 = sum((x - expected) ** 2 / expected for x in freq.values())
    assert chi2 < _chi2_limit(len(consistent) - 1), (chi2, len(consistent))


# --------------------------------------------------------------------------- bounds and errors


def test_bad_arguments_are_refused_with_codes() -> None:
    g = Game(cardrules.load_text(PLAIN), 4, seed=1)
    before = g.to_json()
    for bad in (4, -1, True, "0", None, 2**70):
        with pytest.raises(InvalidAction) as e:
            g.sample_world(bad, random.Random(1))  # type: ignore[arg-type]
        assert e.value.code == "bad_seat"
    for rng in (7, None, "rng", random):
        with pytest.raises(InvalidAction) as e:
            g.sample_world(0, rng)  # type: ignore[arg-type]
        assert e.value.code == "bad_argument"
    assert g.to_json() == before


def test_the_same_rng_state_gives_the_same_world() -> None:
    g = _play(Game(VARIANTS["spades"], 4, seed=4), random.Random(4), 9)
    assert g.sample_world(2, random.Random(5)) == g.sample_world(2, random.Random(5))
    assert g.sample_world(2, random.Random(5)).seed == g.sample_world(2, random.Random(5)).seed


def test_from_deals_refuses_impossible_deals() -> None:
    v = cardrules.load_text(PLAIN)
    g = Game(v, 4, seed=2)
    ((hands, turned),) = g.deals()
    with pytest.raises(SaveError):
        Game.from_deals(v, 4, [(hands[:3], turned)])
    with pytest.raises(SaveError):
        Game.from_deals(v, 4, [((hands[0], hands[0], hands[2], hands[3]), turned)])
    with pytest.raises(SaveError):
        Game.from_deals(v, 4, [(hands, turned)] * 10_000)
    again = Game.from_deals(v, 4, g.deals(), first_dealer=g.dealer)
    assert again.view(0) == g.view(0) and again.hand(3) == g.hand(3)


def test_the_sampling_page_runs() -> None:
    """docs/sampling.md's examples are true of the engine."""
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "sampling.md"
    result = doctest.testfile(str(page), module_relative=False)
    assert result.failed == 0 and result.attempted >= 8
