"""Issue 14 item 1: a perfect-recall information state built from a seat's event
stream (``Game.information_state``, ``information_state_string``, the tensor),
and the view's JSON kept as ``observation_string``."""

from __future__ import annotations

import doctest
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Card, CardSet, Game, card
from cardrules.cards import CARDS, Suit
from cardrules.dsl import builtin_names
from cardrules.engine import Bid, Play
from cardrules.engine.events import CutEvent, Event
from cardrules.engine.views import infostate as infostate_module
from cardrules.engine.views.infostate import information_state_tensor_size
from cardrules.errors import InvalidAction

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}
DOCS = Path(__file__).resolve().parent.parent / "docs"

#: No trumps, three cards each, three players: small enough to stack by hand.
PAIR_TEXT = (
    "game: void-pair\nplayers: 3\nhands: list 3\ntrumps: none\nbidding: in turn\nscore: tricks\n"
)

#: The benchmarked one-hand Oh Hell (benchmarks/bench_engine.py).
ONE_HAND_TEXT = """\
game: one-hand-oh-hell
extends: oh-hell
players: 3 to 5
hands: list 10
trumps: turned up
bid changes: no
tie: shared
"""


def _stack(*hands: str) -> list[Card]:
    """A deck dealing ``hands[i]`` to the i-th seat in dealing order."""
    per = [[card(t) for t in h.split()] for h in hands]
    return [per[j][i] for i in range(len(per[0])) for j in range(len(per))]


def _void_history(seat1: str, seat2: str, first_trick: tuple[str, str]) -> Game:
    """Seat 0 leads A♣ and wins two tricks; one opponent shows out of clubs."""
    g = Game(
        cardrules.load_text(PAIR_TEXT), 3, deck=_stack("A♣ K♠ Q♠", seat1, seat2), first_dealer=2
    )
    for _ in range(3):
        g.apply_as_current(Bid(0))
    for t in ("A♣", *first_trick, "K♠", "5♦", "7♦"):
        g.apply_as_current(Play(card(t)))
    return g


def test_void_in_clubs_pair_golden() -> None:
    """Two histories that differ only in which opponent showed out of clubs:
    the information state tells them apart and records who played what. (The
    view tells them apart too since it carries ``showed_out``; it did not when
    the issue was filed, and the view's JSON was the only string.)"""
    a = _void_history("2♥ 5♦ 6♦", "3♣ 7♦ 8♦", ("2♥", "3♣"))  # seat 1 shows out of clubs
    b = _void_history("3♣ 5♦ 6♦", "2♥ 7♦ 8♦", ("3♣", "2♥"))  # seat 2 shows out of clubs
    assert a.to_act == b.to_act == 0
    assert a.view(0).showed_out == ((), (Suit.CLUBS, Suit.SPADES), (Suit.SPADES,))
    assert b.view(0).showed_out == ((), (Suit.SPADES,), (Suit.CLUBS, Suit.SPADES))
    assert a.observation_string(0) != b.observation_string(0)
    assert a.information_state(0) != b.information_state(0)
    assert a.information_state_string(0) == a.information_state(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)
    assert a.information_state(0).splitlines() == [
        "start[3,null,2,null]",
        'deal[1,2,3,[["A♣","Q♠","K♠"],null,null]]',
        "trump[1,null,null]",
        "bid[0,0,false]",
        "bid[1,0,false]",
        "bid[2,0,false]",
        "bids[[0,0,0]]",
        'play[0,"A♣"]',
        'play[1,"2♥"]',
        'play[2,"3♣"]',
        'trick[0,[0,1,2],["A♣","2♥","3♣"]]',
        'play[0,"K♠"]',
        'play[1,"5♦"]',
        'play[2,"7♦"]',
        'trick[0,[0,1,2],["K♠","5♦","7♦"]]',
    ]
    assert b.information_state(0).splitlines()[8:10] == ['play[1,"3♣"]', 'play[2,"2♥"]']


def test_who_played_which_club_equal_views_distinct_information_states() -> None:
    """Two histories that differ only in which opponent played which club to
    the first trick (both followed): the view (and the observation string) is
    the same, since the view shows only the last trick; the information state
    and its tensor are not."""
    a = _void_history("2♣ 5♦ 6♦", "3♣ 7♦ 8♦", ("2♣", "3♣"))
    b = _void_history("3♣ 5♦ 6♦", "2♣ 7♦ 8♦", ("3♣", "2♣"))
    assert a.view(0) == b.view(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state(0) != b.information_state(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)


def test_tensor_layout_golden() -> None:
    """The tensor of the void pair: own hand, no-trump flag, bids of 0, the
    plays by relative seat and card, in order."""
    a = _void_history("2♥ 5♦ 6♦", "3♣ 7♦ 8♦", ("2♥", "3♣"))
    t = a.information_state_tensor(1)
    n, c, tricks = 3, 52, 3
    assert (
        len(t)
        == information_state_tensor_size(a)
        == 4 * c + 5 + n * (tricks + 1) + tricks * n * (n + c)
    )
    pack = list(CARDS[:52])
    assert {pack[i] for i in range(c) if t[i]} == {card(x) for x in ("2♥", "5♦", "6♦")}
    assert t[2 * c + 4] == 1.0 and sum(t[2 * c : 2 * c + 4]) == 0  # no trumps
    o_bids = 4 * c + 5
    for rel in range(n):
        assert t[o_bids + rel * (tricks + 1)] == 1.0  # every seat bid 0
    o_plays = o_bids + n * (tricks + 1)
    rows = [t[o_plays + i * (n + c) : o_plays + (i + 1) * (n + c)] for i in range(tricks * n)]
    got = [(row[:n].index(1.0), pack[row[n:].index(1.0)]) for row in rows if any(row)]
    # Seen from seat 1: seat 0 is relative 2, seat 2 is relative 1.
    assert got == [
        (2, card("A♣")),
        (0, card("2♥")),
        (1, card("3♣")),
        (2, card("K♠")),
        (0, card("5♦")),
        (1, card("7♦")),
    ]
    assert sum(t) == 3 + 1 + 3 + 6 * 2


def test_tensor_refuses_multi_hand_and_shedding_games() -> None:
    for name in ("oh-hell", "kazhutha"):
        g = Game(VARIANTS[name], VARIANTS[name].players.min, seed=1)
        with pytest.raises(InvalidAction, match="one-hand trick-taking games only") as err:
            g.information_state_tensor(0)
        assert err.value.code == "not_in_variant"
        assert g.information_state(0)  # the string covers every game


def test_bad_seats_are_refused() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=1)
    for bad in (None, -1, 4, "0", 1.0, True):
        for method in (
            g.information_state,
            g.information_state_string,
            g.observation_string,
            g.information_state_tensor,
        ):
            with pytest.raises(InvalidAction):
                method(bad)  # type: ignore[arg-type]


def _step(g: Game, rng: random.Random) -> None:
    seat = min(g.waiting_for)
    g.apply(rng.choice(g.legal_actions(seat)), seat)


def _cards_in(value: object) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, CardSet):
        yield from value
    elif isinstance(value, tuple):
        for v in value:
            yield from _cards_in(v)


def _stream_cards(events: list[Event]) -> set[Card]:
    out: set[Card] = set()
    for ev in events:
        for name in type(ev).__attrs_attrs__:  # type: ignore[attr-defined]
            out.update(_cards_in(getattr(ev, name.name)))
    return out


_CARD_NAME = re.compile(r'"([^"]*)"')
_BY_NAME = {str(c): c for c in CARDS}


def _state_cards(state: str) -> set[Card]:
    """Every card named in a state (as a JSON string of its own, or inside an
    action's text)."""
    out: set[Card] = set()
    for text in _CARD_NAME.findall(state):
        for word in re.split(r"[\s,]+", text):
            if word in _BY_NAME:
                out.add(_BY_NAME[word])
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


def _play_out(g: Game, rng: random.Random, steps: int) -> list[tuple[object, int]]:
    done: list[tuple[object, int]] = []
    for _ in range(steps):
        if g.is_over:
            break
        seat = min(g.waiting_for)
        a = rng.choice(g.legal_actions(seat))
        g.apply(a, seat)
        done.append((a, seat))
    return done


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 2**32),
    big=st.booleans(),
    prefix=st.integers(0, 60),
    branch=st.integers(0, 2**32),
)
def test_states_equal_iff_streams_equal(
    name: str, seed: int, big: bool, prefix: int, branch: int
) -> None:
    """For every seat: replaying the same actions gives the same state; two
    random continuations of one prefix (and games of another seed) give equal
    states exactly when the seat's streams are equal; the state names no card
    the stream does not show."""
    v = VARIANTS[name]
    players = v.players.max if big else v.players.min
    a = Game(v, players, seed)
    rng = random.Random(seed)
    done = _play_out(a, rng, prefix)
    b = a.clone()
    c = Game(v, players, seed)
    for act, seat in done:
        c.apply(act, seat)  # type: ignore[arg-type]
    d = Game(v, players, seed ^ 1)
    _play_out(a, random.Random(branch), 25)
    _play_out(b, random.Random(branch + 1), 25)
    _play_out(c, random.Random(branch), 25)
    _play_out(d, random.Random(branch), prefix + 25)
    for seat in range(players):
        sa = a.information_state(seat)
        assert sa == c.information_state(seat)  # the same actions, replayed
        for other in (b, c, d):
            assert (sa == other.information_state(seat)) == (
                a.events_for(seat) == other.events_for(seat)
            )
        assert _state_cards(sa) <= _stream_cards(a.events_for(seat))


def _check_secrecy(name: str, players: int, seed: int, limit: int) -> None:
    """After every action, the state of every seat names only cards that seat
    has seen in its views so far (or in a public cut for the deal)."""
    g = Game(VARIANTS[name], players, seed)
    rng = random.Random(seed)
    seen: dict[int, set[Card]] = {s: _view_cards(g.view(s)) for s in range(players)}
    for _ in range(limit):
        for s in range(players):
            seen[s] |= _view_cards(g.view(s))
            for ev in g.events_for(s):
                if isinstance(ev, CutEvent):
                    seen[s].update(cd for _, cd in ev.cuts)
            leaked = _state_cards(g.information_state(s)) - seen[s]
            assert not leaked, f"{name}: seat {s}'s state names {leaked}"
        if g.is_over:
            break
        _step(g, rng)


@pytest.mark.parametrize("name", NAMES)
def test_state_never_names_an_unseen_card(name: str) -> None:
    v = VARIANTS[name]
    _check_secrecy(name, v.players.max, seed=21, limit=120)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), big=st.booleans())
def test_state_never_names_an_unseen_card_property(name: str, seed: int, big: bool) -> None:
    v = VARIANTS[name]
    _check_secrecy(name, v.players.max if big else v.players.min, seed, limit=60)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_tensor_is_fixed_length_and_follows_the_stream(players: int, seed: int, steps: int) -> None:
    """One-hand Oh Hell: the tensor has its derived length at every point,
    and equal streams give equal tensors."""
    v = cardrules.load_text(ONE_HAND_TEXT)
    g = Game(v, players, seed)
    rng = random.Random(seed)
    size = information_state_tensor_size(g)
    assert size == 4 * 52 + 5 + players * 11 + 10 * players * (players + 52)
    for _ in range(steps):
        if g.is_over:
            break
        _step(g, rng)
        for s in range(players):
            t = g.information_state_tensor(s)
            assert len(t) == size and set(t) <= {0.0, 1.0}
    h = g.clone()
    for s in range(players):
        assert h.information_state_tensor(s) == g.information_state_tensor(s)


def test_string_is_canonical_json_per_line() -> None:
    """Each line is the kind then a JSON list of the record's fields but
    ``kind`` and ``version``, in the record's order."""
    g = Game(VARIANTS["euchre"], 4, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        _step(g, rng)
    for seat in range(4):
        lines = g.information_state(seat).splitlines()
        events = g.events_for(seat)
        assert len(lines) == len(events)
        for line, ev in zip(lines, events, strict=True):
            d = ev.to_dict()
            assert line.startswith(ev.kind + "[")
            assert json.loads(line[len(ev.kind) :]) == [
                v for k, v in d.items() if k not in ("kind", "version")
            ]


@pytest.mark.parametrize("name", ["oh-hell", "kazhutha", "hearts", "euchre"])
def test_direct_lines_match_the_generic_form(name: str) -> None:
    """The lines written directly for plays and tricks are the generic ones."""
    v = VARIANTS[name]
    g = Game(v, v.players.max, seed=8)
    rng = random.Random(8)
    for _ in range(200):
        if g.is_over:
            break
        _step(g, rng)
    kinds = set()
    for ev in g.events_for(0):
        assert infostate_module._token(ev) == infostate_module._generic_token(ev)
        kinds.add(ev.kind)
    assert {"play", "trick"} <= kinds or {"play", "pickup"} <= kinds


def test_module_docstrings_run() -> None:
    result = doctest.testmod(infostate_module)
    assert result.failed == 0 and result.attempted > 0


def test_docs_page_runs() -> None:
    result = doctest.testfile(str(DOCS / "infostate.md"), module_relative=False)
    assert result.failed == 0 and result.attempted > 0
