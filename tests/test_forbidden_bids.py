"""The bidding constraints a view shows (``View.bid_range``, ``View.forbidden_bids``)
and the order of ``View.waiting_for``.

What a view says a seat may not bid is checked against what ``apply`` refuses
(the same code, the same words), and against worlds the seat (or an onlooker)
cannot tell from the real game: a view never shows what its audience may not
know.
"""

from __future__ import annotations

import json
import random

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import cardrules
from cardrules import Bid, Game, View, load, load_text
from cardrules.dsl import builtin_names
from cardrules.engine import ForbiddenBid, Look, Match
from cardrules.errors import ERROR_CODES, IllegalAction, SaveError

#: Every built-in variant with bidding.
BIDDING = tuple(n for n in builtin_names() if load(n).has_bidding)

HOOK_TEXT = (
    "the dealer may not bid 7: the bids would add up to 10 tricks, the number of tricks in the hand"
)


def _refusal(g: Game, seat: int, n: int) -> tuple[str, str] | None:
    """What ``apply`` says to seat ``seat`` bidding ``n`` now, once it has
    looked at its cards: ``None`` when the bid is made, else (code, message)."""
    h = g.clone()
    if Look() in h.legal_actions(seat):
        h.apply(Look(), seat)
    try:
        h.apply(Bid(n), seat)
    except IllegalAction as e:
        return e.code, str(e)
    return None


# --------------------------------------------------------------------------- golden


@pytest.mark.parametrize(("name", "dealer"), [("kachuful", 0), ("oh-hell", 1)])
def test_the_dealers_hook_is_shown_to_every_seat_and_onlookers(name: str, dealer: int) -> None:
    g = Game(load(name), players=4, seed=5)
    assert g.dealer == dealer and g.view(None).bid_range == (0, 10)
    for b in (1, 2):
        g.apply(Bid(b), g.to_act)
        # Not the dealer's turn yet: nothing is forbidden.
        assert all(g.view(s).forbidden_bids == () for s in (None, 0, 1, 2, 3))
    g.apply(Bid(0), g.to_act)
    assert g.to_act == dealer
    hook = ForbiddenBid(seat=dealer, bid=7, rule="hook", text=HOOK_TEXT)
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        assert v.forbidden_bids == (hook,)
        assert v.to_dict()["forbidden_bids"] == [
            {"seat": dealer, "bid": 7, "rule": "hook", "text": HOOK_TEXT}
        ]
        assert v.to_dict()["bid_range"] == [0, 10]
    assert g.omniscient_view().forbidden_bids == (hook,)
    # Exactly what apply refuses, in the same words.
    with pytest.raises(IllegalAction) as e:
        g.apply(Bid(7), dealer)
    assert (e.value.code, str(e.value)) == ("hook", HOOK_TEXT)
    assert Bid(7) not in g.legal_actions(dealer)
    g.apply(Bid(6), dealer)
    assert g.phase == "play" and g.view(None).forbidden_bids == ()
    assert g.view(None).bid_range == (0, 10)  # the range the bids were made in


def test_no_hook_no_forbidden_bid() -> None:
    g = Game(load("oh-hell-no-hook"), players=4, seed=5)
    while g.phase == "bid":
        assert g.view(None).forbidden_bids == ()
        g.apply(Bid(0), g.to_act)


def test_a_hook_past_the_range_forbids_nothing() -> None:
    """Bids of 3 each in a 10-card hand: the dealer could not reach 10 (it would
    need -(-1)), so nothing is forbidden."""
    g = Game(load("kachuful"), players=4, seed=5)
    for _ in range(3):
        g.apply(Bid(4), g.to_act)
    assert g.view(None).forbidden_bids == ()
    assert _refusal(g, g.to_act or 0, 0) is None


def test_bid_range_of_a_smallest_bid() -> None:
    """Callbreak: bids of 1 to 8 in a 13-card hand; 0 is out of range."""
    g = Game(load("callbreak"), players=4, seed=1)
    v = g.view(None)
    assert v.bid_range == (1, 8) and v.forbidden_bids == ()
    refused = _refusal(g, g.to_act or 0, 0)
    assert refused is not None and refused[0] == "bid_out_of_range"


def test_no_bidding_no_range() -> None:
    g = Game(load("hearts"), players=4, seed=1)
    v = g.view(0)
    assert v.bid_range is None and v.forbidden_bids == ()
    assert v.to_dict()["bid_range"] is None and v.to_dict()["forbidden_bids"] == []


def test_the_hook_of_one_bid_per_side() -> None:
    text = "game: sides-hook\nextends: spades-side-bids\nhook: yes\n"
    g = Game(load_text(text), players=4, seed=3)
    first = g.to_act
    g.apply(Bid(5), first)
    last = g.to_act
    assert last is not None and g.view(None).bidders == (first, last)
    (f,) = g.view(None).forbidden_bids
    assert (f.seat, f.bid, f.rule) == (last, 8, "hook")
    assert f.text.startswith("the last side to bid may not bid 8")
    assert _refusal(g, last, 8) == ("hook", f.text)


def test_a_blind_seat_is_shown_the_bids_it_may_not_make_once_it_looks() -> None:
    g = Game(load("oh-hell-blind-nil"), players=3, seed=2)
    while g.to_act != g.dealer:
        g.apply(Bid(1, blind=False) if Look() not in g.legal_actions() else Look(), g.to_act)
    dealer = g.dealer
    assert Look() in g.legal_actions(dealer)  # not looked yet
    (f,) = g.view(dealer).forbidden_bids
    assert f.bid == g.view(None).hand_size - 2
    assert _refusal(g, dealer, f.bid) == ("hook", f.text)


def test_while_bids_are_hidden_a_seat_sees_only_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bids made all at once are hidden until all are made: what forbids a bid
    could follow from them (the engine has no such rule: the validator refuses
    the hook there). A rule forbidding each seat a bid is shown to that seat
    only (its legal actions tell it anyway), and to the omniscient view."""
    import cardrules.engine.game as game_module

    def every_seat_one(g: Game, s: int) -> tuple[ForbiddenBid, ...]:
        return (ForbiddenBid(s, 1, "hook", f"seat {s} may not bid 1"),)

    monkeypatch.setattr(game_module, "_forbidden_bids", every_seat_one)
    g = Game(load("oh-hell-fists"), players=4, seed=1)
    g.apply(Bid(2), 0)
    assert g.view(None).forbidden_bids == ()
    for s in range(4):
        assert [f.seat for f in g.view(s).forbidden_bids] == ([s] if s != 0 else [])
    assert [f.seat for f in g.omniscient_view().forbidden_bids] == [1, 2, 3]
    # In turn, every bid is public: so is what it forbids.
    g = Game(load("oh-hell"), players=4, seed=1)
    assert g.view(None).forbidden_bids == every_seat_one(g, g.to_act or 0)


def test_the_hook_and_bids_all_at_once_never_meet() -> None:
    text = "game: fists-hook\nextends: oh-hell-fists\nhook: yes\n"
    with pytest.raises(cardrules.VariantError, match="everyone bids at once"):
        load_text(text)


def test_forbidden_bids_round_trip_and_are_checked() -> None:
    g = Game(load("kachuful"), players=4, seed=5)
    for b in (1, 2, 0):
        g.apply(Bid(b), g.to_act)
    v = g.view(1)
    data = json.loads(v.to_json())
    assert View.from_dict(data) == v
    bad = json.loads(v.to_json())
    bad["forbidden_bids"][0]["seat"] = 4
    with pytest.raises(SaveError, match=r"view\.forbidden_bids\[0\]: seat 4 in a game of 4"):
        View.from_dict(bad)
    bad = json.loads(v.to_json())
    bad["forbidden_bids"][0]["rule"] = "whim"
    with pytest.raises(SaveError, match="rule"):
        View.from_dict(bad)
    bad = json.loads(v.to_json())
    bad["bid_range"] = [5, 2]
    with pytest.raises(SaveError, match="bid_range"):
        View.from_dict(bad)
    schema = cardrules.schema("view")
    rules = schema["$defs"]["forbidden_bid"]["properties"]["rule"]["enum"]
    assert rules and set(rules) <= set(ERROR_CODES)


# --------------------------------------------------------------------------- waiting_for


def test_waiting_for_in_bidding_order_in_python_and_json() -> None:
    # The pass of Hearts: every seat at once, from the dealer's neighbour.
    g = Game(load("hearts"), players=4, seed=2)
    assert g.phase == "pass"
    order = g.view(g.dealer).seat_order  # after the dealer, the dealer last
    assert g.waiting_order == order and g.waiting_for == frozenset(order)
    for s in (None, 0, 1, 2, 3):
        assert g.view(s).waiting_for == order
        assert json.loads(g.view(s).to_json())["waiting_for"] == list(order)
    assert order != tuple(sorted(order))  # the order is not the seats' numbers
    # Bids all at once: the seats still to bid, in bidding order.
    g = Game(load("oh-hell-fists"), players=5, seed=4)
    order = g.view(g.dealer).seat_order
    assert order != tuple(sorted(order))
    g.apply(Bid(1), order[1])
    assert g.view(None).waiting_for == (order[0], *order[2:])
    # A change of bid: the seat that may change its bid bid before the seat to bid.
    g = Game(load("oh-hell-amend"), players=4, seed=2)
    first = g.to_act
    g.apply(Bid(1), first)
    assert g.view(None).waiting_for == (first, g.to_act)
    assert g.waiting_for == {first, g.to_act}
    # A match: its game's.
    m = Match(load("donkey"), players=4, seed=2)
    assert m.waiting_order == m.game.waiting_order == m.view(None).waiting_for
    assert set(m.waiting_order) == m.waiting_for


# --------------------------------------------------------------------------- properties


def _check_bidding(g: Game, rng: random.Random) -> None:
    """At a decision of the bidding: what every view says of each seat to bid
    is what ``apply`` does, and what worlds indistinguishable from the game say."""
    public = g.public_view()
    lo_hi = public.bid_range
    assert lo_hi is not None
    lo, hi = lo_hi
    size = public.hand_size
    hidden = g.variant.bidding.style.name == "SIMULTANEOUS"
    for s in g.waiting_order:
        if not any(isinstance(a, Bid) for a in g.legal_actions(s)) and Look() not in (
            g.legal_actions(s)
        ):
            continue  # a seat that may only change its bid
        own = {f.bid: f for f in g.view(s).forbidden_bids if f.seat == s}
        assert all(f.rule in ERROR_CODES for f in own.values())
        for n in range(size + 2):
            got = _refusal(g, s, n)
            if not lo <= n <= hi:
                assert n not in own and got is not None and got[0] == "bid_out_of_range"
            elif n in own:
                assert got == (own[n].rule, own[n].text)
            else:
                assert got is None, (s, n, got)
    views = {s: g.view(s).forbidden_bids for s in range(g.players)}
    if not hidden:
        assert all(fb == public.forbidden_bids for fb in views.values())
    for s in range(g.players):
        assert {f.seat for f in views[s]} <= set(g.waiting_order)
        if hidden:
            assert {f.seat for f in views[s]} <= {s}
        w = g.sample_world(s, rng)
        assert w.view(s).forbidden_bids == views[s]
        assert w.view(s).bid_range == lo_hi
        assert w.public_view().forbidden_bids == public.forbidden_bids


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(BIDDING), seed=st.integers(0, 2**32), big=st.booleans())
def test_forbidden_bids_are_what_apply_refuses_and_leak_nothing(
    name: str, seed: int, big: bool
) -> None:
    """Over random games of every built-in variant with bidding: for each seat
    to bid, a bid of ``bid_range`` is in its ``forbidden_bids`` exactly when
    ``apply`` refuses it, with that rule's code and words (outside the range:
    ``bid_out_of_range``); every audience sees the same forbidden bids while
    bids are public; a world the seat (or an onlooker) cannot tell from the game
    shows the same; ``waiting_for`` lists its seats in bidding order."""
    v = load(name)
    players = v.players.max if big else v.players.min
    g = Game(v, players, seed)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(120):
        if g.is_over:
            break
        view = g.public_view()
        order = g.view(g.dealer).seat_order
        assert list(view.waiting_for) == sorted(view.waiting_for, key=order.index)
        assert set(view.waiting_for) == g.waiting_for
        if g.phase == "bid":
            _check_bidding(g, rng)
            decisions += 1
            if decisions >= 12:
                break
        else:
            assert view.forbidden_bids == ()
        seat = rng.choice(g.waiting_order)
        g.apply(rng.choice(g.legal_actions(seat)), seat)
