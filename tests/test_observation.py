"""Observation vectors and action masks (cardrules.engine.views.observation_vector)."""

from __future__ import annotations

import doctest
import itertools
import json
import math
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.cards import CARDS, card
from cardrules.engine import NUM_ACTIONS, Bid, Game, Play, View, observation_layout
from cardrules.engine.views.observation_vector import _game_plan, _observation_from_view
from cardrules.errors import InvalidAction, VariantError
from cardrules.rulebook import builtin_variants

BUILTINS = builtin_variants()

#: View fields that hold something only in some variants, and the slice that
#: must then be in the layout to carry it.
_COVERED = (
    ("known_hands", "known"),
    ("visible_hands", "known"),
    ("discarded", "discarded"),
    ("passed", "passed"),
    ("received", "received"),
    ("pass_to", "pass_to"),
    ("dead", "dead"),
    ("trump_maker", "maker"),
    ("alone", "alone"),
    ("defender_alone", "defender_alone"),
    ("turned_up", "turned"),
    ("knocked_out", "knocked_out"),
    ("trump", "trump"),
)

#: Slices that are one-hot (at most one 1, all else 0).
_ONE_HOT = ("leader", "trump", "turned", "maker", "alone", "defender_alone", "phase")
_ONE_HOT += ("dealer", "to_act", "pass_to")


def _slices(layout: tuple[cardrules.engine.ObservationSlice, ...]) -> dict[str, slice]:
    return {s.name: slice(s.start, s.stop) for s in layout}


def _check_seat(g: Game, seat: int) -> None:
    v = g.variant
    n = g.players
    layout = observation_layout(v, n)
    parts = _slices(layout)
    obs = g.observation(seat)
    view = g.view(seat)
    plan = _game_plan(g)
    # the observation is a function of the view: rebuilt from the view, and
    # from the view as a remote player receives it (JSON), it is the same
    assert obs == _observation_from_view(view, plan)
    sent = View.from_dict(json.loads(view.to_json()))
    assert _observation_from_view(sent, plan) == obs
    assert len(obs) == layout[-1].stop
    assert all(type(x) is float and math.isfinite(x) for x in obs)
    # the mask is the legal actions
    mask = g.action_mask(seat)
    # A pack with special cards (issue 23) has their action ids, 400-429, too;
    # an auction of bids in strains the contract bids', 430-501.
    wide = 502 if g.variant.bidding.strains else 430 if g.variant.deck.specials else NUM_ACTIONS
    assert len(mask) == wide
    assert [i for i, x in enumerate(mask) if x] == sorted(a.id for a in g.legal_actions(seat))
    assert set(mask) <= {0, 1}
    # the own-hand slice is the hand (when the seat may see it); places in
    # the pack are its cards in card order
    # (several packs: each copy has a place; the cards are compared as cards)
    places = sorted(
        (c for c in range(len(plan.index)) if plan.index[c] >= 0), key=plan.index.__getitem__
    )
    hand_bits = obs[parts["hand"]]
    if view.hand is None:
        assert sum(hand_bits) == 0
    else:
        held = sorted(places[i] & 63 for i, x in enumerate(hand_bits) if x)
        assert held == sorted(int(c) for c in view.hand)
        assert held == sorted(int(c) & 63 for c in g.hand(seat))
    for name in _ONE_HOT:
        if name in parts:
            assert sum(obs[parts[name]]) <= 1
    assert sum(obs[parts["phase"]]) == 1
    # what the view shows, the layout has room for
    for field, name in _COVERED:
        if getattr(view, field) not in (None, ()):
            assert name in parts, (v.name, field)


@pytest.mark.parametrize("v", BUILTINS, ids=lambda v: v.name)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big=st.booleans(), seed=st.integers(0, 2**32))
def test_observation_is_the_view_and_the_mask_the_legal_actions(
    v: cardrules.Variant, big: bool, seed: int
) -> None:
    """Every built-in variant, seeded games of random legal actions: at every
    step, for every seat, the observation is the view's, fits the layout, holds
    the seat's hand, and the mask is the legal actions."""
    n = v.players.max if big else v.players.min
    g = Game(v, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(200):
        for s in range(n):
            _check_seat(g, s)
        if g.is_over:
            break
        s = g.to_act if g.to_act is not None else min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(s)), s)


@pytest.mark.parametrize("v", BUILTINS, ids=lambda v: v.name)
def test_layout_is_contiguous_and_names_unique(v: cardrules.Variant) -> None:
    for n in range(v.players.min, v.players.max + 1):
        layout = observation_layout(v, n)
        assert layout[0].start == 0
        for a, b in itertools.pairwise(layout):
            assert a.stop == b.start and a.start < a.stop
        assert len({s.name for s in layout}) == len(layout)
        parts = _slices(layout)
        g = Game(v, n, seed=1)
        pack = g.view(0).pack_size
        assert parts["hand"].stop - parts["hand"].start == pack
        assert parts["trick"].stop - parts["trick"].start == n * pack
        assert ("dead" in parts) == (v.mode.value == "shedding")
        assert ("bids" in parts) == v.has_bidding


def test_layout_refuses_a_wrong_player_count() -> None:
    v = cardrules.load("oh-hell")
    with pytest.raises(VariantError, match="3 to 7 players"):
        observation_layout(v, 2)
    with pytest.raises(TypeError):
        observation_layout("oh-hell", 4)  # type: ignore[arg-type]


def test_bad_seat_is_refused() -> None:
    g = Game(cardrules.load("oh-hell"), 4, seed=1)
    with pytest.raises(InvalidAction):
        g.observation(4)
    with pytest.raises(InvalidAction):
        g.action_mask(-1)


def test_numpy_observation() -> None:
    np = pytest.importorskip("numpy")
    g = Game(cardrules.load("spades"), 4, seed=3)
    a = g.observation(2, numpy=True)
    assert a.dtype == np.float32
    assert a.tolist() == pytest.approx(g.observation(2))


def test_oh_hell_golden() -> None:
    """Oh Hell, 4 players, seat 3 deals 10 each from a pack in card order (seat
    0 gets 2♣ 6♣ 10♣ A♣ 5♦ ..., seat 1 3♣ 7♣ J♣ 2♦ ...), 3♠ turned: spades are
    trumps. Bids 2, 3, 1, 0; seat 0 leads 2♣; seat 1 to play."""
    v = cardrules.load("oh-hell")
    g = Game(v, 4, deck=list(CARDS[:52]), first_dealer=3)
    assert g.turned_up == card("3♠")
    for s, b in enumerate((2, 3, 1, 0)):
        g.apply(Bid(b), s)
    g.apply(Play(card("2♣")), 0)
    obs = g.observation(1)
    expected = [0.0] * 401
    for c in range(1, 40, 4):  # seat 1's hand: cards 1, 5, ..., 37
        expected[c] = 1.0
    expected[52 + 0] = 1.0  # played: 2♣
    expected[104 + 3 * 52 + 0] = 1.0  # trick: seat 0 (relative 3) played 2♣
    expected[312 + 3] = 1.0  # leader: relative 3
    expected[316:320] = [1.0] * 4  # everyone has bid
    expected[320:324] = [0.3, 0.1, 0.0, 0.2]  # seats 1, 2, 3, 0 bid 3, 1, 0, 2 of 10
    expected[328 + 3] = 1.0  # trumps: spades
    expected[333 + 40] = 1.0  # turned: 3♠
    expected[385 + 1] = 1.0  # phase: play
    expected[388] = 1.0  # 10 cards of the largest hand, 10
    expected[389 + 2] = 1.0  # dealer: seat 3, relative 2
    expected[393 + 0] = 1.0  # to act: this seat
    assert [(s.name, s.start, s.stop) for s in observation_layout(v, 4)] == [
        ("hand", 0, 52),
        ("played", 52, 104),
        ("trick", 104, 312),
        ("leader", 312, 316),
        ("bid_made", 316, 320),
        ("bids", 320, 324),
        ("tricks", 324, 328),
        ("trump", 328, 333),
        ("turned", 333, 385),
        ("phase", 385, 388),
        ("hand_size", 388, 389),
        ("dealer", 389, 393),
        ("to_act", 393, 397),
        ("scores", 397, 401),
    ]
    assert obs == expected
    mask = g.action_mask(1)
    # seat 1 must follow clubs: 3♣ 7♣ J♣
    assert [i for i, x in enumerate(mask) if x] == [1, 5, 9]


DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_research_page_examples_run() -> None:
    result = doctest.testfile(
        str(DOCS / "research.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 8 and result.failed == 0


def test_research_page_is_in_the_navigation() -> None:
    hook = (DOCS / "hooks" / "rulebook_pages.py").read_text("utf-8")
    assert '"research.md"' in hook


def test_observation_docstrings_run() -> None:
    from cardrules.engine.views import observation_vector as observation_module

    failed, attempted = doctest.testmod(observation_module, optionflags=doctest.ELLIPSIS)
    assert failed == 0 and attempted >= 4


def test_observation_benchmark_runs() -> None:
    bench = Path(__file__).resolve().parent.parent / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        import bench_observation

        report = bench_observation.run("smoke", 1)
    finally:
        sys.path.remove(str(bench))
    assert report["length"] == 401
    assert {"view", "observation", "action_mask"} <= set(report["rows"])
    assert all(r["median_us"] > 0 for r in report["rows"].values())


def test_other_hands_do_not_change_the_observation() -> None:
    """Two Oh Hell deals that differ only in seats 2 and 3's cards (swapped
    between them) give seat 1 the same view and the same observation, through
    the bids; seat 2's observation differs (its hand changed)."""
    v = cardrules.load("oh-hell")
    deck = list(CARDS[:52])
    swapped = deck[:]
    for i in range(10):  # seat 2 gets deck[4i + 2], seat 3 deck[4i + 3]
        swapped[4 * i + 2], swapped[4 * i + 3] = deck[4 * i + 3], deck[4 * i + 2]
    a = Game(v, 4, deck=deck, first_dealer=3)
    b = Game(v, 4, deck=swapped, first_dealer=3)
    assert a.hand(2) != b.hand(2)
    for s, bid in enumerate((2, 3, 1, 0)):
        assert a.view(1) == b.view(1)
        assert a.observation(1) == b.observation(1)
        assert a.observation(0) == b.observation(0)
        assert a.observation(2) != b.observation(2)
        a.apply(Bid(bid), s)
        b.apply(Bid(bid), s)


def test_a_misere_declarer_playing_alone_is_in_the_observation() -> None:
    """Regression (a Hypothesis example over the built-ins): a Five Hundred
    declarer of misère plays alone, which the view says, but the layout had no
    `alone` slice (only games with `going alone` had one)."""
    v = cardrules.load("five-hundred")
    assert "alone" in _slices(observation_layout(v, 3))
    lone = 0
    for seed in range(400):
        if lone:
            break
        g = Game(v, 3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number == 1:
            acts = g.legal_actions()
            misere = [a for a in acts if getattr(a, "misere", False)]
            g.apply(misere[0] if misere else rng.choice(acts), g.to_act)
            if g.view(0).alone is not None:
                lone += 1
                for seat in range(3):
                    _check_seat(g, seat)
    assert lone > 0
