"""Issue 13 (items 2 and 6): typed event records, append-only per-seat streams,
``Game.version``, onlookers' and the all-seeing views, and the last trick and
last hand shown across the hand boundary."""

from __future__ import annotations

import doctest
import json
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Card, CardSet, Game, SaveError, card
from cardrules.dsl import builtin_names
from cardrules.engine import Bid, Look, Play
from cardrules.engine import events as events_module
from cardrules.engine.events import (
    ACTION_KINDS,
    EVENT_TYPES,
    BidEvent,
    BidsEvent,
    CutEvent,
    DealEvent,
    Event,
    LookEvent,
    PlayEvent,
    RevealEvent,
    StartEvent,
    _public,
)
from cardrules.errors import InvalidAction

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}


def _step(g: Game, rng: random.Random) -> None:
    seat = min(g.waiting_for)
    g.apply(rng.choice(g.legal_actions(seat)), seat)


def _cards_in(value: object) -> Iterator[Card]:
    """Every card a record's field holds (cards, card sets, nested tuples); a
    copy of a game of several packs as its card (a view shows it so)."""
    if isinstance(value, Card):
        yield value.base
    elif isinstance(value, CardSet):
        yield from (c.base for c in value)
    elif isinstance(value, tuple):
        for v in value:
            yield from _cards_in(v)


def _record_cards(ev: Event) -> set[Card]:
    if isinstance(ev, CutEvent):
        return set()  # cards cut for the deal, shown to all and put back
    out: set[Card] = set()
    for a in attrs.fields(type(ev)):
        out.update(_cards_in(getattr(ev, a.name)))
    return out


def _view_cards(v: cardrules.View) -> set[Card]:
    out: set[Card] = set(v.hand or ())
    for _, cs in (*v.visible_hands, *v.known_hands):
        out.update(cs)
    out.update(c for _, c in (*v.trick, *v.last_trick))
    out.update((*v.played, *v.dead, *v.passed, *v.received, *v.discarded))
    if v.turned_up is not None:
        out.add(v.turned_up)
    if v.last_hand is not None:
        out.update(c for _, c in v.last_hand.last_trick)
    return out


def _check_game(name: str, players: int, seed: int, limit: int = 600) -> None:
    """Play a seeded game; after every action, for every seat and onlookers:
    the stream only grows, ``since=`` gives the new tail, no record shows a
    card the audience has not seen in its views, versions count the actions."""
    g = Game(VARIANTS[name], players, seed)
    rng = random.Random(seed)
    audiences: list[int | None] = [*range(players), None]
    prev = {s: g.events_for(s) for s in audiences}
    seen = {s: _view_cards(g.view(s)) for s in audiences}
    for s in audiences:
        for ev in prev[s]:
            assert _record_cards(ev) <= seen[s], f"{name}: {ev.kind} shows seat {s} too much"
    actions = 0
    steps = 0
    while not g.is_over and steps < limit:
        hand = g.hand_number
        _step(g, rng)
        steps += 1
        actions += 1
        assert g.version == actions
        for s in audiences:
            now = g.events_for(s)
            old = prev[s]
            assert now[: len(old)] == old, f"{name}: seat {s}'s stream changed an entry"
            assert g.events_for(s, since=len(old)) == now[len(old) :]
            assert all(ev.version <= actions for ev in now)
            assert all(ev.version == actions for ev in now[len(old) :])
            view = g.view(s)
            assert view.version == actions
            if view.hand_number != hand:
                seen[s] = set()  # a new hand: what it shows must be in this hand's views
            seen[s] |= _view_cards(view)
            for ev in now[len(old) :]:
                shown = _record_cards(ev)
                assert shown <= seen[s], f"{name}: {ev.kind} shows seat {s} {shown - seen[s]}"
            prev[s] = now
    # The streams kept step by step are the ones built at once from the log.
    fresh = g.clone()
    for s in audiences:
        assert fresh.events_for(s) == prev[s]
    assert fresh.events == g.events
    assert [ev.astuple() for ev in g.events] == [_public(ev) for ev in g._events]
    assert sum(1 for ev in g._events if ev[0] in ACTION_KINDS) == g.version


CASES = [
    (name, p)
    for name in NAMES
    for p in sorted({VARIANTS[name].players.min, VARIANTS[name].players.max})
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_streams_only_grow_and_never_leak(name: str, players: int) -> None:
    _check_game(name, players, seed=11)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), big=st.booleans())
def test_streams_property_over_random_games(name: str, seed: int, big: bool) -> None:
    v = VARIANTS[name]
    _check_game(name, v.players.max if big else v.players.min, seed, limit=250)


@pytest.mark.parametrize("name", NAMES)
def test_every_record_round_trips_through_json(name: str) -> None:
    v = VARIANTS[name]
    g = Game(v, v.players.max, seed=5)
    rng = random.Random(5)
    steps = 0
    while not g.is_over and steps < 300:
        _step(g, rng)
        steps += 1
    for stream in (g.events, g.events_for(0), g.events_for(None)):
        for ev in stream:
            text = json.dumps(ev.to_dict(), ensure_ascii=False)
            back = Event.from_dict(json.loads(text))
            assert back == ev and type(back) is type(ev)
            assert type(ev).from_dict(ev.to_dict()) == ev


def test_records_are_frozen_slotted_and_typed() -> None:
    for kind, cls in EVENT_TYPES.items():
        assert cls.kind == kind
        assert "__slots__" in cls.__dict__, cls
        assert attrs.fields(cls)[0].name == "version"
    ev = PlayEvent(version=1, seat=0, card=card("A♠"))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ev.seat = 2  # type: ignore[misc]
    assert ev[0] == "play" and ev[1:] == (0, card("A♠")) and len(ev) == 3
    assert ev.astuple() == ("play", 0, card("A♠"))
    assert hash(ev) == hash(PlayEvent(1, 0, card("A♠")))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "must be a dict"),
        ({"kind": "nope"}, "unknown kind"),
        ({"kind": "play", "version": 1, "seat": 0}, "missing card"),
        ({"kind": "play", "version": 1, "seat": 0, "card": "A♠", "x": 1}, "unknown x"),
        ({"kind": "play", "version": 1, "seat": 0, "card": "Z♠"}, "play.card"),
        ({"kind": "play", "version": True, "seat": 0, "card": "A♠"}, "must be an int"),
        ({"kind": "trick", "version": 1, "winner": 0, "seats": [0] * 2000, "cards": []},
         "more than"),
        ({"kind": "reveal", "version": 1, "seat": 0, "hand_number": 1, "cards": ["A♠", "A♠"]},
         "twice"),
        ({"kind": "score", "version": 1, "hand_number": 1, "bids": [], "tricks": [],
          "points": ["1/0"], "totals": []}, "p/q"),
        ({"kind": "call", "version": 1, "seat": 0, "action": {"id": 0, "label": "bid 9"}}, "not"),
        ({"kind": "trump", "version": 0, "hand_number": 1, "suit": "stars", "turned": None},
         "suit"),
    ],
)  # fmt: skip
def test_from_dict_refuses_bad_input(data: Any, words: str) -> None:
    with pytest.raises(SaveError, match=words):
        Event.from_dict(data)


def test_from_dict_on_a_subclass_checks_the_kind() -> None:
    d = PlayEvent(1, 0, card("A♠")).to_dict()
    assert PlayEvent.from_dict(d) == PlayEvent(1, 0, card("A♠"))
    with pytest.raises(SaveError, match="a 'bid' event, not 'play'"):
        BidEvent.from_dict(d)


def test_fractions_and_none_in_json() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=3)
    rng = random.Random(3)
    while not any(ev.kind == "score" for ev in g.events):
        _step(g, rng)
    score = next(ev for ev in g.events if ev.kind == "score")
    d = score.to_dict()
    assert all(type(x) is int for x in d["totals"])
    assert Event.from_dict({**d, "totals": ["1/2"] * len(d["totals"])}).totals[0] == Fraction(1, 2)
    start = g.events_for(0)[0]
    assert isinstance(start, StartEvent) and start.seed is None
    assert start.to_dict()["seed"] is None


def test_since_counts_the_seats_stream_and_is_checked() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=2)
    n = len(g.events_for(1))
    assert g.events_for(1, since=n) == []
    assert g.events_for(1, since=0) == g.events_for(1)
    for bad in (-1, n + 1, "1", 1.0, None):
        with pytest.raises(InvalidAction, match="since must be an int"):
            g.events_for(1, since=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction):
        g.events_for(7)


def test_a_blind_hand_is_hidden_then_revealed_by_a_new_record() -> None:
    """Kachuful with blind bids: a seat's deal hides its own hand until it looks;
    the look adds a RevealEvent, the deal's entry stays as it was."""
    g = Game(VARIANTS["kachuful-blind"], 4, seed=1)
    s = g.to_act
    assert s is not None
    before = g.events_for(s)
    deal = next(ev for ev in before if isinstance(ev, DealEvent))
    assert deal.hands == (None,) * 4
    assert g.view(s).hand is None
    g.apply(Look(), s)
    after = g.events_for(s)
    assert after[: len(before)] == before
    assert after[len(before) :] == [
        LookEvent(1, s),
        RevealEvent(1, s, 1, g.hand(s)),
    ]
    assert set(g.view(s).hand or ()) == set(g.hand(s))
    # Another seat sees the look, never the cards.
    other = (s + 1) % 4
    assert [ev.kind for ev in g.events_for(other)[len(before) :]] == ["look"]


def test_a_blind_bid_reveals_the_hand_after_it() -> None:
    g = Game(VARIANTS["kachuful-blind"], 4, seed=4)
    s = g.to_act
    assert s is not None
    blind = next(a for a in g.legal_actions(s) if isinstance(a, Bid) and a.blind)
    n = len(g.events_for(s))
    g.apply(blind, s)
    tail = g.events_for(s, since=n)
    assert [ev.kind for ev in tail] == ["bid", "reveal"]
    assert g.view(s).hand is not None


def test_forehead_hands_reveal_each_own_hand_when_the_bids_are_in() -> None:
    v = VARIANTS["kachuful-forehead"]
    g = Game(v, 4, seed=1)
    rng = random.Random(1)
    while g.hand_size not in v.bidding.forehead_sizes:
        _step(g, rng)
    start = {s: len(g.events_for(s)) for s in range(4)}
    deal = [ev for ev in g.events_for(0) if isinstance(ev, DealEvent)][-1]
    assert deal.hands[0] is None and all(h is not None for h in deal.hands[1:])
    while g.phase == "bid":
        _step(g, rng)
    for s in range(4):
        tail = g.events_for(s, since=start[s])
        kinds = [ev.kind for ev in tail]
        assert kinds.index("reveal") == kinds.index("bids") + 1
        reveal = tail[kinds.index("reveal")]
        assert isinstance(reveal, RevealEvent) and reveal.seat == s


def test_bids_made_at_once_stay_hidden_and_the_bids_record_shows_them() -> None:
    g = Game(VARIANTS["oh-hell-fists"], 4, seed=1)
    first = min(g.waiting_for)
    g.apply(g.legal_actions(first)[0], first)
    other = (first + 1) % 4
    bid = [ev for ev in g.events_for(other) if isinstance(ev, BidEvent)][-1]
    assert bid.bid is None and bid.seat == first
    assert [ev for ev in g.events_for(first) if isinstance(ev, BidEvent)][-1].bid is not None
    assert [ev for ev in g.events_for(None) if isinstance(ev, BidEvent)][-1].bid is None
    while g.phase == "bid":
        s = min(g.waiting_for)
        g.apply(g.legal_actions(s)[0], s)
    for s in (*range(4), None):
        bids = [ev for ev in g.events_for(s) if isinstance(ev, BidsEvent)][-1]
        assert bids.bids == tuple(b if b is not None else -1 for b in g.bids)


def test_version_in_views_records_clones_and_saves() -> None:
    g = Game(VARIANTS["spades"], 4, seed=9)
    rng = random.Random(9)
    for _ in range(30):
        _step(g, rng)
    assert g.version == 30 == g.view(0).version == g.public_view().version
    assert g.events[-1].version == 30
    assert g.clone().version == 30
    assert Game.from_json(g.to_json()).version == 30
    assert cardrules.replay(g.variant, g.events).version == 30
    assert g.view(0).to_dict()["version"] == 30


def test_onlookers_see_what_every_seat_sees() -> None:
    """``view(None)``/``public_view()`` hold no card that some seat cannot see,
    no hidden bid, no legal action; the all-seeing view holds every hand."""
    for name in ("hearts", "oh-hell-fists", "kachuful-forehead", "euchre", "kazhutha"):
        v = VARIANTS[name]
        g = Game(v, v.players.min, seed=6)
        rng = random.Random(6)
        steps = 0
        while not g.is_over and steps < 200:
            pub = g.view(None)
            assert pub == g.public_view()
            assert pub.seat is None and pub.hand is None and pub.audience == "public"
            assert pub.legal_actions == () and pub.visible_hands == () and pub.passed == ()
            every = set.intersection(*(_view_cards(g.view(s)) for s in range(g.players)))
            assert _view_cards(pub) <= every, name
            for s in range(g.players):
                seat_bids = g.view(s).bids
                assert all(b is None or b == seat_bids[k] for k, b in enumerate(pub.bids))
            omni = g.omniscient_view()
            assert omni.audience == "omniscient"
            assert dict(omni.visible_hands) == {s: tuple(g.hand(s)) for s in range(g.players)}
            assert json.loads(pub.to_json())["seat"] is None
            _step(g, rng)
            steps += 1


def test_last_trick_and_last_hand_stay_until_the_next_hands_first_card() -> None:
    """Oh Hell, stacked: hand 1 has one card each; after its last card the view
    still shows that trick and the hand's score, through the next hand's
    bidding, until its first card is played (issue 21: people see them)."""
    v = VARIANTS["oh-hell"]
    g = Game(v, 4, seed=1)
    rng = random.Random(1)
    hand = g.hand_number
    last_card = None
    while g.hand_number == hand:
        if g.phase == "play":
            last_card = g.to_act, next(iter(g.legal_actions(g.to_act)))
        _step(g, rng)
    assert last_card is not None
    score = [ev for ev in g.events if ev.kind == "score"][-1]
    trick = [ev for ev in g.events if ev.kind == "trick"][-1]
    pairs = tuple(zip(trick.seats, trick.cards, strict=True))
    for s in (*range(4), None):
        view = g.view(s)
        assert view.last_trick == pairs and view.trick == ()
        assert view.last_hand is not None
        assert view.last_hand.hand_number == hand
        assert view.last_hand.tricks == score.tricks and view.last_hand.totals == score.totals
        assert view.last_hand.last_trick == pairs
        assert view.to_dict()["last_hand"]["hand_number"] == hand
    while g.phase != "play":  # the next hand's bidding: still shown
        _step(g, rng)
        assert g.view(0).last_hand is not None and g.view(0).last_hand.hand_number == hand
        assert g.view(None).last_trick == pairs
    _step(g, rng)  # the next hand's first card
    view = g.view(0)
    assert view.last_hand is None and view.last_trick == ()


def test_last_trick_within_a_hand_is_unchanged() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=1)
    rng = random.Random(1)
    while not (g.phase == "play" and g.view(0).last_trick == () and g.hand_size > 2):
        _step(g, rng)
    while not [ev for ev in g.events if ev.kind == "trick" and ev.version > 0] or g.view(0).trick:
        _step(g, rng)
    tricks = [ev for ev in g.events if ev.kind == "trick"]
    assert g.view(0).last_trick == tuple(zip(tricks[-1].seats, tricks[-1].cards, strict=True))
    assert g.view(0).last_hand is None or g.hand_number > 1


def test_game_over_view_keeps_the_last_hand() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=8)
    rng = random.Random(8)
    while not g.is_over:
        _step(g, rng)
    view = g.view(2)
    assert view.last_hand is not None and view.last_hand.hand_number == g.hand_number
    assert view.last_trick


def test_play_records_match_the_hot_path() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=12)
    while g.phase != "play":
        g.apply(g.legal_actions(g.to_act)[0], g.to_act)
    s = g.to_act
    assert s is not None
    a = g.legal_actions(s)[0]
    assert isinstance(a, Play)
    g.apply(a, s)
    assert g.events[-1] == PlayEvent(g.version, s, a.card) or g.events[-1].kind == "trick"


def test_docstring_examples_run() -> None:
    from cardrules.engine import game as game_module
    from cardrules.engine.views import event_types as event_records
    from cardrules.engine.views import view as view_module

    for mod in (events_module, event_records, game_module, view_module):
        failed, _ = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert failed == 0, mod.__name__


def test_streams_and_version_follow_a_log_taken_back() -> None:
    """A take-back pops entries off the internal log: the version and every
    stream then follow the shorter log (they are rebuilt, not kept stale)."""
    g = Game(VARIANTS["oh-hell"], 4, seed=21)
    rng = random.Random(21)
    for _ in range(7):
        _step(g, rng)
    snap = g.clone()
    before = {s: snap.events_for(s) for s in (0, 1, None)}
    n = len(g._events)
    for _ in range(5):
        _step(g, rng)
    assert g.version == 12 and len(g.events_for(0)) > len(before[0])
    del g._events[n:]  # what an undo does to the log
    assert g.version == snap.version == 7
    for s, stream in before.items():
        assert g.events_for(s) == stream
    assert g.events == snap.events


def test_golden_two_one_card_hands_show_the_first_hands_end_until_the_next_bid() -> None:
    """Stacked: two 1-card hands, no trumps, seat 3 deals first. Hand 1: seats
    0-3 hold 9♣ K♣ 2♣ 5♦ and bid 0 1 0 1; K♣ wins. After the last card the
    view is at hand 2, still showing hand 1's trick and score, until hand 2's
    first bid."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from oracle import one_hand

    from cardrules.rules import Pattern, ScheduleRule

    v = one_hand(1, schedule=ScheduleRule(pattern=Pattern.LIST, sizes=(1, 1)))
    decks = [
        [card(c) for c in ("9♣", "K♣", "2♣", "5♦")],
        [card(c) for c in ("A♠", "2♠", "3♠", "4♠")],
    ]
    g = Game(v, 4, deck=decks)
    for b in (0, 1, 0, 1):
        g.apply(Bid(b), g.to_act)
    for c in ("9♣", "K♣", "2♣"):
        g.apply(Play(card(c)), g.to_act)
    assert g.view(0).last_trick == () and g.view(0).last_hand is None
    g.apply(Play(card("5♦")), g.to_act)
    assert g.hand_number == 2 and g.phase == "bid"
    pairs = ((0, card("9♣")), (1, card("K♣")), (2, card("2♣")), (3, card("5♦")))
    for s in (0, 2, None):
        view = g.view(s)
        assert view.last_trick == pairs and view.trick == ()
        assert view.last_hand is not None
        assert view.last_hand.hand_number == 1
        assert view.last_hand.bids == (0, 1, 0, 1) and view.last_hand.tricks == (0, 1, 0, 0)
        assert view.last_hand.totals == g.scores and view.last_hand.last_trick == pairs
    assert g.view(1).to_dict()["last_hand"]["last_trick"] == [
        [0, "9♣"],
        [1, "K♣"],
        [2, "2♣"],
        [3, "5♦"],
    ]
    g.apply(Bid(0), g.to_act)  # hand 2's first bid: the last hand is still shown
    assert g.view(0).last_hand is not None and g.view(0).last_trick == pairs
    while g.phase != "play":
        g.apply(g.legal_actions(g.to_act)[0], g.to_act)
    g.apply(g.legal_actions(g.to_act)[0], g.to_act)  # hand 2's first card
    assert g.view(0).last_hand is None and g.view(0).last_trick == ()
