"""Fair take-backs (issue 21, item 1): no player can see something and then
choose again. A seat takes back alone only its own action that nobody has
acted on since; taking back past another seat's action needs that seat's
consent (``request_take_back`` / ``answer``, as chess sites' take-back
requests). The policy a table plays by, and a pending request, are in every
view."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, InvalidAction, SaveError, TakeBackRefused, TakeBacks, View
from cardrules.cards import Card, CardSet
from cardrules.dsl import builtin_names
from cardrules.engine import Bid, Play, TakeBackRequest
from cardrules.engine.events import ACTION_KINDS
from cardrules.engine.state.history import current_line

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}
POLICIES = list(TakeBacks)


def _play_phase(g: Game) -> None:
    """Bid (the first legal action of each seat) until the play begins."""
    while g.phase != "play":
        seat = g.to_act
        assert seat is not None
        g.apply(g.legal_actions(seat)[0], seat)


def _act(g: Game, seat: int | None = None) -> None:
    s = g.to_act if seat is None else seat
    assert s is not None
    g.apply(g.legal_actions(s)[0], s)


def _last_actor(g: Game) -> int | None:
    for ev in reversed(g._events):
        if ev[0] in ACTION_KINDS:
            return int(ev[1])
    return None


def _actions(g: Game) -> int:
    """The number of actions in the game's log (what ``_retracted`` counts)."""
    return sum(1 for ev in g._events if ev[0] in ACTION_KINDS)


def _refused(fn: Any, code: str) -> TakeBackRefused:
    with pytest.raises(TakeBackRefused) as info:
        fn()
    assert info.value.code == code, (info.value.code, str(info.value))
    return info.value


def _state(g: Game) -> tuple[object, ...]:
    """What a refusal must leave unchanged."""
    return (
        g.to_json(),
        g.take_back_request,
        tuple(g.view(s) for s in range(g.players)),
        tuple(tuple(g.events_for(s)) for s in range(g.players)),
    )


# --------------------------------------------------------------------------- the reported bug


def test_a_leader_cannot_see_two_cards_and_lead_again() -> None:
    """The report: Kachuful, seed 5, ``until the trick is complete``: after the
    leader and the next two seats play, the leader may not take back (its
    take-back would return their cards, which it has seen, to their hands)."""
    g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs="until the trick is complete")
    _play_phase(g)
    leader = g.to_act
    assert leader is not None
    for _ in range(3):
        _act(g)
    seen = [c for s, c in g.current_trick() if s != leader]
    assert len(seen) == 2
    assert not g.can_undo(leader)
    before = _state(g)
    err = _refused(lambda: g.take_back(leader), "take_back_refused")
    assert "another seat has acted since" in str(err)
    assert err.data["seat"] == leader
    assert _state(g) == before
    assert all(c not in g.hand(s) for s in range(4) for c in seen)


def test_a_take_back_is_offered_only_to_the_last_seat_to_act() -> None:
    """Not to a seat that acted before others: its take-back would take back
    their actions with its own."""
    for policy in ("until the trick is complete", "before the hand ends"):
        g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs=policy)
        rng = random.Random(3)
        for _ in range(30):
            seat = rng.choice(sorted(g.waiting_for))
            g.apply(rng.choice(g.legal_actions(seat)), seat)
            last = _last_actor(g)
            for s in range(4):
                if s != last:
                    assert not g.can_undo(s), (policy, s, last)
                    with pytest.raises(TakeBackRefused):
                        g.take_back(s)


def test_a_simultaneous_pass_is_taken_back_alone_only_while_it_is_the_last_action() -> None:
    g = Game(VARIANTS["hearts"], 4, seed=5, take_backs="before the hand ends")
    assert g.phase == "pass"
    g.apply(g.legal_actions(1)[0], 1)
    assert g.can_undo(1)
    g.apply(g.legal_actions(2)[0], 2)
    # Seat 2's choice is hidden from seat 1, but seat 1 may not undo it alone.
    assert not g.can_undo(1) and g.can_undo(2)
    request = g.request_take_back(1)
    assert (request.count, request.asked) == (2, (2,))
    assert len(g.answer(2, True)) == 2
    # (The stream keeps the passes taken back: the game as it stands has none.)
    assert not any(ev.kind == "pass" for ev in current_line(g.events_for(1)))


# --------------------------------------------------------------------------- requests


def _game(policy: str = "until the trick is complete") -> Game:
    """Kachuful seed 5 in its play: the leader and the next two seats have played."""
    g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs=policy)
    _play_phase(g)
    for _ in range(3):
        _act(g)
    return g


def test_a_request_accepted_by_every_seat_asked_takes_back() -> None:
    g = _game()
    leader, lead = g.current_trick()[0]
    before = g.clone()
    for _ in range(3):
        before.undo()
    assert g.can_request_take_back(leader)
    request = g.request_take_back(leader)
    asked = tuple(sorted({s for s, _ in g.current_trick()} - {leader}))
    assert request == TakeBackRequest(seat=leader, count=3, asked=asked, agreed=())
    assert g.take_back_request == request
    assert not any(g.can_request_take_back(s) for s in range(4))  # one at a time
    assert g.answer(asked[1], True) == ()
    assert g.take_back_request == TakeBackRequest(leader, 3, asked, (asked[1],))
    assert g.answer(asked[1], True) == ()  # again: nothing more
    taken = g.answer(asked[0], True)
    assert len(taken) == 3 and taken[-1] == Play(lead)
    assert g.take_back_request is None
    # The position of before (the streams keep what was taken back and the
    # take-back; the version counts it too).
    assert current_line(g.events) == before.events and g._events == before._events
    assert all(
        attrs.evolve(g.view(s), version=0) == attrs.evolve(before.view(s), version=0)
        for s in range(4)
    )
    # The game remembers who made the actions taken back: each of them acted
    # after every action left (a later take-back of one needs their consent).
    assert g._retracted == [(_actions(g), tuple(sorted({leader, *asked})))]
    assert g != before


def test_a_declined_or_withdrawn_request_changes_nothing_else() -> None:
    g = _game()
    leader = g.current_trick()[0][0]
    start = g.clone()
    request = g.request_take_back(leader)
    g.answer(request.asked[0], True)
    assert g.answer(request.asked[1], False) == ()
    assert g.take_back_request is None and g == start and g.to_json() == start.to_json()
    g.request_take_back(leader)
    assert g.answer(leader, False) == ()  # the requester withdraws it
    assert g.take_back_request is None and g == start


def test_any_change_of_the_game_ends_a_pending_request() -> None:
    g = _game()
    leader = g.current_trick()[0][0]
    g.request_take_back(leader)
    _act(g)  # the next seat plays (the trick completes)
    assert g.take_back_request is None
    _refused(lambda: g.answer(1, True), "no_take_back_request")
    # An undo ends it; a changed policy ends it; a playout ends it.
    for end in (
        lambda x: x.undo(),
        lambda x: setattr(x, "take_back_policy", "before the hand ends"),
        lambda x: x.playout(rng=random.Random(1), until="hand"),
    ):
        h = _game()
        h.request_take_back(h.current_trick()[0][0])
        end(h)
        assert h.take_back_request is None


def test_a_refused_move_or_request_keeps_the_request_and_the_game() -> None:
    g = _game()
    leader = g.current_trick()[0][0]
    request = g.request_take_back(leader)
    before = _state(g)
    wrong = next(s for s in range(4) if s != g.to_act)
    with pytest.raises(cardrules.IllegalAction):
        g.apply(g.legal_actions(g.to_act)[0], wrong)
    with pytest.raises(ValueError):
        g.playout(policy="no such policy")
    err = _refused(lambda: g.request_take_back(request.asked[0]), "take_back_pending")
    assert err.data == {"seat": request.asked[0], "action": "take back"}
    not_asked = g.to_act
    assert not_asked not in request.asked and not_asked != leader
    _refused(lambda: g.answer(not_asked, True), "not_asked")
    _refused(lambda: g.answer(leader, True), "not_asked")
    with pytest.raises(InvalidAction) as info:
        g.answer(request.asked[0], 1)
    assert info.value.code == "bad_argument"
    with pytest.raises(InvalidAction):
        g.answer(4, True)
    assert _state(g) == before and g.take_back_request == request


def test_request_refusals_have_codes_and_change_nothing() -> None:
    # Nobody else has acted since: take_back does it alone.
    g = _game()
    last = _last_actor(g)
    assert last is not None
    before = _state(g)
    assert g.can_undo(last) and not g.can_request_take_back(last)
    _refused(lambda: g.request_take_back(last), "no_consent_needed")
    assert _state(g) == before
    _refused(lambda: g.answer(0, True), "no_take_back_request")
    # Outside the policy's window: never, the next player has acted, a trick
    # completed, a reveal.
    for policy in ("never", "until the next player acts"):
        h = _game(policy)
        leader = h.current_trick()[0][0]
        state = _state(h)
        assert not h.can_request_take_back(leader)
        _refused(lambda h=h, leader=leader: h.request_take_back(leader), "take_back_refused")
        assert _state(h) == state
    h = _game()
    _act(h)  # the trick completes
    assert not any(h.can_request_take_back(s) for s in range(4))
    err = _refused(lambda: h.request_take_back(0), "take_back_refused")
    assert "a trick has been completed since" in str(err)
    h = Game(VARIANTS["kachuful"], 4, seed=5, take_backs="before the hand ends")
    first = h.to_act
    assert first is not None
    _act(h)
    assert not h.can_request_take_back(first)  # nobody else acted since the deal
    while h.hand_number == 1:
        _act(h)
    assert not any(h.can_request_take_back(s) for s in range(4))
    _refused(lambda: h.request_take_back(first), "take_back_refused")


def test_saves_clones_and_equality_keep_the_request() -> None:
    g = _game()
    leader = g.current_trick()[0][0]
    plain = g.clone()
    request = g.request_take_back(leader)
    assert g != plain  # the request is part of the game's state
    copy = g.clone()
    assert copy == g and copy.take_back_request == request
    copy.answer(request.asked[0], True)
    assert g.take_back_request == request  # independent
    data = json.loads(g.to_json())
    assert data["take_back_request"] == {
        "seat": leader,
        "count": 3,
        "asked": list(request.asked),
        "agreed": [],
    }
    restored = Game.from_json(g.to_json())
    assert restored == g and restored.take_back_request == request
    assert "take_back_request" not in json.loads(plain.to_json())
    g.answer(request.asked[1], True)
    restored = Game.from_json(g.to_json())
    assert restored.take_back_request == g.take_back_request
    assert len(restored.answer(request.asked[0], True)) == 3
    # A save's request must be the one the game can have.
    for bad in (
        {**data["take_back_request"], "count": 2},
        {**data["take_back_request"], "asked": [request.asked[0]]},
        {**data["take_back_request"], "agreed": list(request.asked)},
        {**data["take_back_request"], "seat": 9},
        {**data["take_back_request"], "seat": request.asked[0]},
        {**data["take_back_request"], "asked": "all"},
        {"seat": leader},
        [leader, 3],
    ):
        with pytest.raises(SaveError):
            Game.from_json(json.dumps({**data, "take_back_request": bad}))
    with pytest.raises(SaveError):
        Game.from_json(
            json.dumps(
                {
                    **json.loads(_game("never").to_json()),
                    "take_back_request": data["take_back_request"],
                }
            )
        )


def test_the_save_schema_describes_a_save_with_a_request() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    g = _game()
    g.request_take_back(g.current_trick()[0][0])
    data = json.loads(g.to_json())
    jsonschema.Draft202012Validator(cardrules.schema("save")).validate(data)
    view = json.loads(g.view(0).to_json())
    jsonschema.Draft202012Validator(cardrules.schema("view")).validate(view)


def test_a_sampled_world_keeps_the_request() -> None:
    g = _game()
    g.request_take_back(g.current_trick()[0][0])
    w = g.sample_world(2, random.Random(4))
    assert w.view(2) == g.view(2) and w.take_back_request == g.take_back_request


# --------------------------------------------------------------------------- views


def test_every_view_shows_the_policy_and_the_request() -> None:
    g = _game("before the hand ends")
    leader = g.current_trick()[0][0]
    views = [g.view(s) for s in range(4)] + [g.public_view(), g.omniscient_view()]
    assert all(
        v.take_backs == "before the hand ends" and v.take_back_request is None for v in views
    )
    request = g.request_take_back(leader)
    g.answer(request.asked[0], True)
    views = [g.view(s) for s in range(4)] + [g.public_view(), g.omniscient_view()]
    for v in views:
        assert v.take_back_request == g.take_back_request
        d = json.loads(v.to_json())
        assert d["take_backs"] == "before the hand ends"
        assert d["take_back_request"] == {
            "seat": leader,
            "count": 3,
            "asked": list(request.asked),
            "agreed": [request.asked[0]],
        }
        assert View.from_dict(d) == v
    assert Game(VARIANTS["oh-hell"], 4, seed=1).view(0).take_backs == "never"


def test_a_view_with_a_bad_request_is_refused() -> None:
    g = _game()
    request = g.request_take_back(g.current_trick()[0][0])
    d = json.loads(g.view(0).to_json())
    good = d["take_back_request"]
    for bad in (
        {**good, "seat": 7},
        {**good, "asked": [*good["asked"], 6]},
        {**good, "asked": [request.seat]},
        {**good, "asked": list(reversed(good["asked"]))},
        {**good, "asked": []},
        {**good, "agreed": list(good["asked"])},
        {**good, "agreed": [request.seat]},
        {**good, "count": 0},
        {**good, "extra": 1},
    ):
        with pytest.raises(SaveError):
            View.from_dict({**d, "take_back_request": bad})
    with pytest.raises(SaveError):
        View.from_dict({**d, "take_backs": "sometimes"})


def test_a_request_shows_nothing_hidden() -> None:
    """Simultaneous bids: a request past another seat's hidden bid shows its
    seat and the count, never the bid."""
    g = Game(VARIANTS["oh-hell-fists"], 4, seed=5, take_backs="until the trick is complete")
    g.apply(g.legal_actions(2)[0], 2)
    secret = g.legal_actions(0)[-1]
    g.apply(secret, 0)
    request = g.request_take_back(2)
    assert (request.count, request.asked) == (2, (0,))
    for s in (1, 2, 3):
        d = json.loads(g.view(s).to_json())
        assert d["bids"][0] is None and d["take_back_request"]["asked"] == [0]


# --------------------------------------------------------------------------- the property


def _cards_in(value: object, out: set[int]) -> None:
    """Every card in an event record's field value, as card numbers."""
    if isinstance(value, Card):
        out.add(int(value))
    elif isinstance(value, CardSet):
        out.update(int(c) for c in value)
    elif isinstance(value, tuple | list):
        for v in value:
            _cards_in(v, out)


class _Memory:
    """What each seat has seen: every card in any event of its stream, ever
    (a take-back shortens the stream; the player remembers)."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.seen: list[set[int]] = [set() for _ in range(g.players)]
        self.read = [0] * g.players

    def update(self) -> None:
        for s in range(self.g.players):
            stream = self.g.events_for(s)
            start = min(self.read[s], len(stream))
            for ev in stream[start:]:
                for name in ev.__attrs_attrs__:  # type: ignore[attr-defined]
                    _cards_in(getattr(ev, name.name), self.seen[s])
            self.read[s] = len(stream)

    def knows(self, seen: set[int], taker: int) -> list[set[int]]:
        """The cards now in each other seat's hand that ``taker`` saw (``seen``)."""
        g = self.g
        return [
            set() if s == taker else seen & {int(c) for c in g.hand(s)} for s in range(g.players)
        ]


def _run(g: Game, rng: random.Random, steps: int) -> dict[str, int]:
    """Random play with random take-backs, alone and by request; checks every
    take-back made (see test_no_take_back_lets_a_seat_see_and_choose_again)."""
    n = g.players
    memory = _Memory(g)
    memory.update()
    # The memory of every seat before each action of the log still in it.
    before_action: list[list[set[int]]] = []
    # For each action of the log, every seat that acted after it, ever (in
    # actions still in the log or since taken back): a model of the rule.
    after: list[set[int]] = []
    counts = {"alone": 0, "agreed": 0, "declined": 0, "refused": 0}

    def took_back(taker: int, count: int, agreed: bool) -> None:
        del_from = len(before_action) - count
        then = before_action[del_from][taker]
        del before_action[del_from:]
        del after[del_from:]
        if not agreed:
            # The taker knows no card now in another seat's hand that it did
            # not know before the action it took back.
            now = memory.knows(memory.seen[taker], taker)
            was = memory.knows(then, taker)
            for s in range(n):
                assert now[s] <= was[s], (taker, s, now[s] - was[s])
        memory.update()

    for _ in range(steps):
        if g.is_over:
            break
        roll = rng.random()
        seat = rng.randrange(n)
        if roll < 0.2:
            last = _last_actor(g)
            if g.can_undo(seat):
                assert seat == last and not after[-1] - {seat}
                # Alone: its own last action, the game's last (one action).
                assert len(g.take_back(seat)) == 1
                took_back(seat, 1, agreed=False)
                counts["alone"] += 1
            else:
                state = g.to_json()
                with pytest.raises(TakeBackRefused):
                    g.take_back(seat)
                assert g.to_json() == state
                counts["refused"] += 1
            continue
        if roll < 0.35:
            if not g.can_request_take_back(seat):
                state = g.to_json()
                with pytest.raises(TakeBackRefused):
                    g.request_take_back(seat)
                assert g.to_json() == state and g.take_back_request is None
                counts["refused"] += 1
                continue
            actors = [int(ev[1]) for ev in g._events if ev[0] in ACTION_KINDS]
            request = g.request_take_back(seat)
            undone = actors[len(actors) - request.count :]
            assert undone[0] == seat and seat not in undone[1:]
            assert request.asked == tuple(sorted(after[len(actors) - request.count] - {seat}))
            assert set(undone[1:]) <= set(request.asked)
            order = list(request.asked)
            rng.shuffle(order)
            taken: tuple[object, ...] = ()
            for s in order:
                if rng.random() < 0.2:
                    assert g.answer(s, False) == ()
                    counts["declined"] += 1
                    break
                taken = g.answer(s, True)
            assert g.take_back_request is None
            if taken:
                assert len(taken) == request.count
                took_back(seat, request.count, agreed=True)
                counts["agreed"] += 1
            continue
        actor = rng.choice(sorted(g.waiting_for))
        before_action.append([set(x) for x in memory.seen])
        g.apply(rng.choice(g.legal_actions(actor)), actor)
        for seen_by in after:
            seen_by.add(actor)
        after.append(set())
        memory.update()
    return counts


@pytest.mark.parametrize("name", NAMES)
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32), policy=st.sampled_from(POLICIES))
def test_no_take_back_lets_a_seat_see_and_choose_again(
    name: str, seed: int, policy: TakeBacks
) -> None:
    """Over random games of every built-in variant under every policy, with
    random take-backs alone and by request (answers accepted or declined at
    random): after any take-back the taker knows no card in any other seat's
    hand that it did not know before the action it took back (a card it saw
    in its event stream, which it remembers), unless every seat whose action
    was undone agreed; and only the last seat to act may take back alone."""
    v = VARIANTS[name]
    rng = random.Random(seed)
    g = Game(
        v,
        rng.randint(v.players.min, min(v.players.max, max(5, v.players.min))),
        seed=seed,
        take_backs=policy,
    )
    _run(g, rng, 160)


def test_the_property_sees_the_reported_bug() -> None:
    """The property's check finds the see-and-retry of the report: the old
    take-back (the leader's card with the two after it) gives the leader two
    cards now back in other hands."""
    g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs="until the trick is complete")
    _play_phase(g)
    memory = _Memory(g)
    memory.update()
    leader = g.to_act
    assert leader is not None
    then = [set(x) for x in memory.seen]
    for _ in range(3):
        _act(g)
        memory.update()
    for _ in range(3):
        g.undo()  # what take_back(leader) did before the fix
    now = memory.knows(memory.seen[leader], leader)
    was = memory.knows(then[leader], leader)
    assert sum(len(now[s] - was[s]) for s in range(4)) == 2


def test_the_property_makes_take_backs_of_every_kind() -> None:
    """The random driver does take back alone and by agreement, and refuses."""
    total = {"alone": 0, "agreed": 0, "declined": 0, "refused": 0}
    for seed in range(6):
        for policy in (TakeBacks.TRICK, TakeBacks.HAND):
            g = Game(VARIANTS["kachuful"], 4, seed=seed, take_backs=policy)
            for k, v in _run(g, random.Random(seed), 120).items():
                total[k] += v
    assert all(v > 0 for v in total.values()), total


def test_bids_are_taken_back_with_consent_only() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=2, take_backs="before the hand ends")
    first = g.to_act
    assert first is not None
    g.apply(Bid(0), first)
    _act(g)
    assert not g.can_undo(first)
    assert g.request_take_back(first).count == 2


def test_the_docs_promise_consent() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text("utf-8")
    section = text.split("### `take backs:`", 1)[1].split("\n## ", 1)[0]
    assert "request_take_back" in section and "consent" in section


def test_an_answer_taken_back_still_counts_as_seen() -> None:
    """Seat A plays, seat B plays and takes its card back alone: A saw B's
    card, now back in B's hand, so A may not take back its own (now the last
    action) without B's consent."""
    g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs="until the trick is complete")
    _play_phase(g)
    a = g.to_act
    assert a is not None
    _act(g)
    b = g.to_act
    assert b is not None
    _act(g)
    assert g.take_back(b) == (g.legal_actions(b)[0],)
    assert _last_actor(g) == a and not g.can_undo(a)
    err = _refused(lambda: g.take_back(a), "take_back_refused")
    assert f"seat {b}" in str(err)
    request = g.request_take_back(a)
    assert (request.count, request.asked) == (1, (b,))
    # Saves and clones remember it.
    for copy in (g.clone(), Game.from_json(g.to_json())):
        assert copy == g and not copy.can_undo(a)
    assert len(g.answer(b, True)) == 1 and g.to_act == a
    # A's own actions in a row: B, who acted after both, must agree again.
    assert g._retracted == [(_actions(g), tuple(sorted({a, b})))]


def test_the_saved_record_of_take_backs_is_checked() -> None:
    g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs="before the hand ends")
    _play_phase(g)
    _act(g)
    b = g.to_act
    _act(g)
    assert b is not None
    g.take_back(b)
    data = json.loads(g.to_json())
    assert data["retracted"] == [[_actions(g), [b]]]
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(cardrules.schema("save")).validate(data)
    for bad in (
        [[_actions(g) + 1, [b]]],
        [[_actions(g), []]],
        [[_actions(g), [7]]],
        [[_actions(g), [2, 1]]],
        [[1, [b]], [1, [b]]],
        [[_actions(g), [-1]]],
        [[_actions(g), b]],
        [_actions(g), [b]],
        "all",
    ):
        with pytest.raises(SaveError):
            Game.from_json(json.dumps({**data, "retracted": bad}))
