"""Properties of the real Kazhutha files under random legal play (Hypothesis).

Rules: seed ``001_e4032eef84513c77.txt`` (Kazhutha rules). ``test_engine_shedding``
checks a hand-built variant; these draw one of the built-in files (``kazhutha``,
``donkey`` and the house rules), 3 to 8 players, a seed and a random player, and
check after every action:

* the 52 cards are conserved: hands + current trick + dead pile;
* a seat that is out never acts again (and never holds a card again);
* a cut ends the trick at once and gives every card of it to the highest card of
  the suit led; a dead trick is all of one suit and has one card per seat still in;
* every view hides the other hands, except the picked-up cards, which every other
  seat sees in the new owner's ``known_hands`` until they are played again;
  face-down files show a seat only its own dead cards;
* at the end, the loser (if any) is the only seat holding cards;
* saves (``to_json``/``from_json``), ``replay`` and ``clone`` reproduce the game,
  and a saved ``Match`` restores and plays on exactly as the original.
"""

from __future__ import annotations

import random
from functools import cache

import hypothesis.strategies as st
from hypothesis import given, settings

import cardrules
from cardrules.cards import Card, CardSet
from cardrules.engine import Game, Match, replay
from cardrules.rules import DeadTricks, LeaderOut, Variant

FILES = (
    "kazhutha",
    "donkey",
    "kazhutha-any-spade",
    "kazhutha-neighbour-leads",
    "kazhutha-face-down",
    "kazhutha-loser-deals",
)


@cache
def load(name: str) -> Variant:
    return cardrules.load(name)


def check_round_trip(g: Game) -> None:
    text = g.to_json()
    back = Game.from_json(text, variant=g.variant)
    assert back == g and back.to_json() == text
    assert replay(g.variant, g.events) == g
    assert g.clone() == g


class Watcher:
    """Follows one game action by action and checks the invariants."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.n = g.players
        self.seen = len(g.events)
        self.out: set[int] = set()
        self.known: dict[int, set[Card]] = {s: set() for s in range(self.n)}  # picked up, held
        self.face_up = g.variant.shedding.dead_tricks is DeadTricks.FACE_UP
        self.dead_by: dict[int, set[Card]] = {s: set() for s in range(self.n)}
        self.cuts = self.deads = 0

    def before(self) -> None:
        g = self.g
        seat = g.to_act
        assert seat is not None and seat not in self.out, "a seat that is out acts"
        assert g.hand(seat)

    def after(self, check_views: bool) -> None:
        g = self.g
        in_before = self.n - len(self.out)
        for ev in g.events[self.seen :]:
            kind = ev[0]
            if kind == "play":
                assert ev[1] not in self.out
                self.known[ev[1]].discard(ev[2])
            elif kind == "pickup":
                self.cuts += 1
                _, taker, seats, cs = ev
                led = cs[0].suit
                assert all(c.suit == led for c in cs[:-1]) and cs[-1].suit != led
                top = max((c for c in cs if c.suit == led), key=lambda c: c.rank)
                assert seats[cs.index(top)] == taker
                assert set(cs) <= set(g.hand(taker))
                assert len(cs) <= in_before
                self.known[taker] |= set(cs)
            elif kind == "dead":
                self.deads += 1
                _, _, seats, cs = ev
                # One suit, but for the first trick of a game without cuts on it.
                first_free = self.cuts + self.deads == 1 and not g.variant.shedding.first_trick_cuts
                assert len({c.suit for c in cs}) == 1 or first_free
                assert len(cs) == in_before
                for s, c in zip(seats, cs, strict=True):
                    self.dead_by[s].add(c)
            elif kind == "out":
                assert ev[1] not in self.out
                self.out.add(ev[1])
            elif kind == "draw":
                # The power: a dead card, drawn and led at once by a seat without cards.
                _, s, c = ev
                assert s not in self.out and not g.hand(s)
                assert g.current_trick()[0] == (s, c)
                for cs in self.dead_by.values():
                    cs.discard(c)
            elif kind == "take":
                # A neighbour's hand taken: what was known of it is known of the taker.
                _, s, t, count = ev
                assert t not in self.out and s != t and count > 0
                self.known[s] |= self.known[t]
                self.known[t] = set()
        self.seen = len(g.events)
        if g.is_over:
            return
        # A cut or dead trick empties the trick; otherwise it goes on.
        loc = g.card_locations()
        hands, trick, dead = loc["hands"], loc["trick"], loc["dead"]
        assert len(hands) + len(trick) + len(dead) == 52
        assert CardSet(hands.mask | trick.mask | dead.mask).mask == (1 << 52) - 1
        for s in self.out:
            assert not g.hand(s)
        if check_views:
            self.check_views()

    def check_views(self) -> None:
        g = self.g
        for s in range(self.n):
            v = g.view(s)
            assert set(v.hand or ()) == set(g.hand(s))
            known = dict(v.known_hands)
            assert s not in known
            for t in range(self.n):
                if t == s:
                    continue
                assert set(known.get(t, ())) == self.known[t]
            text = set(v.to_json().replace("[", '"').replace("]", '"').split('"'))
            for t in range(self.n):
                if t != s:
                    hidden = set(g.hand(t)) - self.known[t]
                    assert not {str(c) for c in hidden} & text, "a hidden card shows"
            all_dead = set().union(*self.dead_by.values())
            assert set(v.dead) == (all_dead if self.face_up else self.dead_by[s])
            assert v.dead_count == len(all_dead)
            assert v.out == tuple(t in self.out for t in range(self.n))

    def finish(self) -> None:
        g = self.g
        res = g.result
        assert res is not None
        if res.finished:
            holding = [s for s in range(self.n) if g.hand(s)]
            if res.loser is not None and not holding:
                # The power: the last two players played their last cards to one
                # dead trick; its taker must lead again and so stays in, with no
                # card left (it would draw a dead card), while the other goes out.
                last = next(e for e in reversed(g.events) if e[0] in ("dead", "pickup"))
                assert last[0] == "dead" and last[1] == res.loser
                assert g.variant.play.leader_out is LeaderOut.DRAWS, "only the power does that"
            else:
                assert holding == ([] if res.loser is None else [res.loser])
            assert res.winners == tuple(s for s in range(self.n) if s != res.loser)
        else:
            assert res.loser is None and res.winners == ()


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(FILES),
    players=st.integers(3, 8),
    seed=st.integers(0, 2**63 - 1),
    rng_seed=st.integers(0, 2**32),
)
def test_random_games_of_the_real_files(name: str, players: int, seed: int, rng_seed: int) -> None:
    g = Game(load(name), players=players, seed=seed, max_tricks=3000)
    rng = random.Random(rng_seed)
    w = Watcher(g)
    w.after(check_views=True)
    save_at = rng.randrange(10, 60)
    steps = 0
    while not g.is_over:
        w.before()
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        steps += 1
        w.after(check_views=steps % 3 == 0)
        if steps == save_at:
            check_round_trip(g)
    w.after(check_views=False)
    w.finish()
    assert w.cuts + w.deads == sum(1 for e in g.events if e[0] in ("dead", "pickup")) > 0
    check_round_trip(g)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**63 - 1), cap=st.integers(1, 30))
def test_max_tricks_stops_cleanly(players: int, seed: int, cap: int) -> None:
    """Any bound ends the game as finished (it ended first) or unfinished, never raises."""
    g = Game(load("kazhutha"), players=players, seed=seed, max_tricks=cap)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    tricks = sum(1 for e in g.events if e[0] in ("dead", "pickup"))
    res = g.result
    assert res is not None and tricks <= cap
    if not res.finished:
        assert tricks == cap and res.loser is None and res.winners == ()
    check_round_trip(g)


@settings(max_examples=10, deadline=None)
@given(
    name=st.sampled_from(("kazhutha", "donkey", "kazhutha-loser-deals")),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 400),
)
def test_match_save_restore_plays_on_identically(
    name: str, players: int, seed: int, stop: int
) -> None:
    v = load(name)
    m = Match(v, players=players, seed=seed, max_tricks=3000)
    rng = random.Random(seed)
    for _ in range(stop):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_actions()), m.to_act)
    back = Match.from_json(m.to_json(), variant=v)
    assert back == m and back.letters == m.letters and back.to_act == m.to_act
    assert back.view(0) == m.view(0)
    state = rng.getstate()
    for mm in (m, back):
        rng.setstate(state)
        while not mm.is_over:
            mm.apply(rng.choice(mm.legal_actions()), mm.to_act)
    assert back == m and back.result == m.result and back.letters == m.letters
    res = m.result
    assert res is not None and res.loser is not None
    assert m.letters[res.loser] == v.match.word
