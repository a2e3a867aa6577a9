"""Issue 21, item 2: streams that never shrink. A player's take-back is an
appended step of the game (a ``TakeBackEvent``), every stream only grows,
``game.version`` strictly increases, and ``events_for(seat, since=N)`` cannot
be misread (a digest the client gives back; a bad ``since`` is ``bad_argument``)."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, InvalidAction, NothingToUndo, SaveError, TakeBackRefused
from cardrules.dsl import builtin_names
from cardrules.engine import Action, Play
from cardrules.engine.events import Event, PlayEvent, TakeBackEvent
from cardrules.engine.state import history as history_module
from cardrules.engine.state.history import current_line
from cardrules.engine.state.saves import _action_log

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}


def _audiences(g: Game) -> list[int | None]:
    return [*range(g.players), None]


def _no_version(events: list[Event]) -> list[Event]:
    return [attrs.evolve(ev, version=0) for ev in events]


def _kachuful_after_two_plays() -> tuple[Game, int, int]:
    """Kachuful, seed 5, whoever may take back until the hand ends: the bids
    are in and two cards are on the table. Returns the game, the seat that
    led and the seat that followed."""
    g = Game(VARIANTS["kachuful"], 4, seed=5, take_backs="before the hand ends")
    while g.phase != "play":
        s = g.to_act
        g.apply(g.legal_actions(s)[0], s)
    leader = g.to_act
    g.apply(g.legal_actions(leader)[0], leader)
    follower = g.to_act
    g.apply(g.legal_actions(follower)[0], follower)
    return g, leader, follower


# --------------------------------------------------------------------------- regression


def test_a_client_that_reconnects_after_a_take_back_keeps_a_true_history() -> None:
    """The bug of issue 21: a client of seat 3 holds its stream; seat 1 takes
    its card back and plays another; the client comes back with since=N. On
    main the stream had shrunk and grown again: its first N entries were no
    longer the client's (the same numbers, another history)."""
    g, leader, follower = _kachuful_after_two_plays()
    watcher = next(s for s in range(4) if s not in (leader, follower))
    held = g.events_for(watcher)
    version = g.version
    assert g.can_undo(follower)
    (taken,) = g.take_back(follower)
    again = next(a for a in g.legal_actions(follower) if a != taken)
    g.apply(again, follower)
    # What the client holds is still the start of the stream: the tail it is
    # sent tells the take-back, then the new card.
    assert g.events_for(watcher)[: len(held)] == held
    tail = g.events_for(watcher, since=len(held))
    assert [ev.kind for ev in tail] == ["take back", "play"]
    back, play = tail
    assert isinstance(back, TakeBackEvent) and isinstance(play, PlayEvent)
    assert back.seat == follower and back.undone == (version,) and back.entries == 1
    assert back.version == version + 1 and play.version == version + 2 == g.version
    # The client rebuilds the game as it stands: the card taken back is gone.
    line = current_line(held + tail)
    assert [ev.kind for ev in line[-2:]] == ["play", "play"]
    assert isinstance(line[-1], PlayEvent) and isinstance(line[-2], PlayEvent)
    assert isinstance(again, Play) and line[-1].card == again.card and line[-2].seat == leader


def test_the_version_never_goes_back_across_take_backs() -> None:
    g, _, follower = _kachuful_after_two_plays()
    seen = [g.version]
    g.take_back(follower)
    seen.append(g.version)
    g.apply(g.legal_actions(follower)[0], follower)
    seen.append(g.version)
    assert seen == sorted(set(seen)), seen
    assert all(g.view(s).version == g.version for s in _audiences(g))


def test_since_out_of_range_and_a_wrong_digest_are_bad_argument() -> None:
    g, _, _ = _kachuful_after_two_plays()
    n = len(g.events_for(0))
    for bad in (-1, n + 1, "3", 2.0, None, 10**30):
        with pytest.raises(InvalidAction) as err:
            g.events_for(0, since=bad)  # type: ignore[arg-type]
        assert err.value.code == "bad_argument"
    digest = g.stream_digest(0)
    assert g.events_for(0, since=n, digest=digest) == []
    assert g.stream_digest(0, n) == digest
    for wrong in (g.stream_digest(1), g.stream_digest(0, n - 1), "", 7):
        with pytest.raises(InvalidAction) as err:
            g.events_for(0, since=n, digest=wrong)  # type: ignore[arg-type]
        assert err.value.code == "bad_argument"
    with pytest.raises(InvalidAction) as err:
        g.stream_digest(0, n + 1)
    assert err.value.code == "bad_argument"


def test_the_digest_is_the_documented_chain_and_survives_a_take_back() -> None:
    import hashlib

    from cardrules.engine.events import entry_json

    g, _, follower = _kachuful_after_two_plays()
    held = g.events_for(None)
    mark = g.stream_digest(None)
    chain = hashlib.sha256(b"").digest()
    for ev in held:
        chain = hashlib.sha256(chain + entry_json(ev)).digest()
    assert chain.hex() == mark
    g.take_back(follower)
    g.apply(g.legal_actions(follower)[-1], follower)
    # The entries the client holds did not change: its digest is still good.
    assert g.events_for(None, since=len(held), digest=mark)[0].kind == "take back"
    assert g.stream_digest(None, len(held)) == mark
    # A clone, a save restored and a game replayed from its log agree.
    for other in (g.clone(), Game.from_json(g.to_json()), cardrules.replay(g.variant, g.events)):
        assert other == g
        for s in _audiences(g):
            assert other.events_for(s) == g.events_for(s)
            assert other.stream_digest(s) == g.stream_digest(s)


def test_the_engines_undo_stays_exact_and_never_undoes_a_take_back() -> None:
    g, _, follower = _kachuful_after_two_plays()
    g.take_back(follower)
    before = g.clone()
    with pytest.raises(NothingToUndo):
        g.undo()
    assert g == before
    for action in g.legal_actions(follower):
        g.apply(action, follower)
        g.undo()
        assert g == before and g.to_json() == before.to_json()
        assert g.version == before.version
        for s in _audiences(g):
            assert g.events_for(s) == before.events_for(s)
            assert g.view(s) == before.view(s)


def test_a_game_without_take_backs_is_as_it_was() -> None:
    g = Game(VARIANTS["oh-hell"], 4, seed=3, take_backs="before the hand ends")
    g.playout(rng=random.Random(1), until="hand")
    assert g._history is None
    assert "taken_back" not in json.loads(g.to_json())
    assert not any(isinstance(ev, TakeBackEvent) for ev in g.events)
    assert g.version == len(_action_log(g._events))


def test_take_backs_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history_module, "MAX_TAKE_BACKS", 2)
    g, _, follower = _kachuful_after_two_plays()
    for _ in range(2):
        g.take_back(follower)
        g.apply(g.legal_actions(follower)[0], follower)
    before = g.clone()
    assert not g.can_undo(follower)  # the policy would allow it; the bound does not
    with pytest.raises(TakeBackRefused) as err:
        g.take_back(follower)
    assert err.value.code == "take_back_limit"
    assert err.value.data["take_backs"] == 2
    assert g == before and g.version == before.version
    # Nor may another seat ask for one.
    leader = g.current_trick()[0][0]
    assert not g.can_request_take_back(leader)
    with pytest.raises(TakeBackRefused) as err:
        g.request_take_back(leader)
    assert err.value.code == "take_back_limit" and g.take_back_request is None
    monkeypatch.setattr(history_module, "MAX_TAKE_BACKS", 1000)
    monkeypatch.setattr(history_module, "MAX_TAKEN_BACK_ACTIONS", 2)
    with pytest.raises(TakeBackRefused, match="at most 2 in all") as err:
        g.take_back(follower)
    assert err.value.code == "take_back_limit"


def test_the_bounds_keep_the_largest_save_within_the_save_limits() -> None:
    """The saved take-backs add at most ~100 kB and ~7,000 containers to the
    largest save (4.7 MB and ~432,000 containers: saves.py)."""
    from cardrules.engine.state import saves

    one = {"seat": 51, "agreed": list(range(1, 51)), "kept": 312_000, "undone": []}
    per_take_back = len(json.dumps(one, separators=(",", ":"))) - 2
    per_action = len("51,1000,")
    extra = (
        history_module.MAX_TAKE_BACKS * (per_take_back - 140)  # agreed: a few seats
        + history_module.MAX_TAKEN_BACK_ACTIONS * per_action
    )
    assert extra < 150_000 and 4_700_000 + extra < saves.MAX_SAVE_BYTES
    assert 432_000 + 7 * history_module.MAX_TAKE_BACKS < saves.MAX_SAVE_CONTAINERS


def test_a_save_with_take_backs_round_trips_and_bad_ones_are_refused() -> None:
    g, leader, follower = _kachuful_after_two_plays()
    g.take_back(follower)
    g.apply(g.legal_actions(follower)[-1], follower)
    g.request_take_back(leader)  # the leader's card and the follower's new one
    assert len(g.answer(follower, True)) == 2
    back = g.events_for(None)[-1]
    assert isinstance(back, TakeBackEvent)
    assert (back.seat, back.agreed, back.count, back.entries) == (leader, (follower,), 2, 2)
    g.apply(g.legal_actions(leader)[-1], leader)
    text = g.to_json()
    data = json.loads(text)
    assert [t["seat"] for t in data["taken_back"]] == [follower, leader]
    back = Game.from_json(text)
    assert back == g and back.to_json() == text and back.version == g.version
    from cardrules.schema import schema

    jsonschema.Draft202012Validator(schema("save")).validate(data)
    for change in (
        lambda d: d["taken_back"][0].__setitem__("seat", 9),
        lambda d: d["taken_back"][0].__setitem__("kept", 10**6),
        lambda d: d["taken_back"][0].__setitem__("undone", []),
        lambda d: d["taken_back"][0].__setitem__("undone", [0, 10**6]),
        lambda d: d["taken_back"][1]["undone"].extend([1, 5]),
        lambda d: d["taken_back"][0].pop("agreed"),
        lambda d: d.__setitem__("taken_back", []),
        lambda d: d.__setitem__("taken_back", {}),
    ):
        bad = json.loads(text)
        change(bad)
        with pytest.raises(SaveError):
            Game.from_json(json.dumps(bad, ensure_ascii=False))


def test_the_record_json_and_schema_of_a_take_back() -> None:
    from cardrules.schema import schema

    ev = TakeBackEvent(version=12, seat=2, undone=(10, 11), agreed=(0,), entries=3)
    d = ev.to_dict()
    assert d == {
        "kind": "take back",
        "version": 12,
        "seat": 2,
        "undone": [10, 11],
        "agreed": [0],
        "entries": 3,
    }
    assert Event.from_dict(d) == ev and TakeBackEvent.from_dict(d) == ev
    assert ev.astuple() == ("take back", 2, (10, 11), (0,), 3) and ev.count == 2
    jsonschema.Draft202012Validator(schema("event")).validate(d)
    with pytest.raises(SaveError):
        Event.from_dict({**d, "undone": "10"})


def test_a_record_writes_the_game_as_it_stands() -> None:
    from cardrules import record

    g, _, follower = _kachuful_after_two_plays()
    g.take_back(follower)
    g.apply(g.legal_actions(follower)[-1], follower)
    again = record.load(record.dump(g))
    assert again._events[-2:] == g._events[-2:]
    assert record.dump(again) == record.dump(g)


def test_a_world_is_sampled_after_a_take_back() -> None:
    g, _, follower = _kachuful_after_two_plays()
    g.take_back(follower)
    g.apply(g.legal_actions(follower)[-1], follower)
    w = g.sample_world(0, random.Random(2))
    assert w.hand(0) == g.hand(0)
    assert _no_version(w.events_for(0)) == _no_version(current_line(g.events_for(0)))


# --------------------------------------------------------------------------- the property


def _fresh(g: Game) -> Game:
    """A game made by the actions of ``g``'s log alone (nothing taken back)."""
    fresh = Game(g.variant, g.players, g.seed, max_tricks=g._max_tricks)
    for seat, aid in _action_log(g._events):
        fresh.apply(Action.from_id(aid), seat)
    return fresh


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 2**32),
    rate=st.sampled_from([0.1, 0.3, 0.6]),
    big=st.booleans(),
)
def test_every_stream_only_grows_over_whole_games_with_take_backs(
    name: str, seed: int, rate: float, big: bool
) -> None:
    """For every seat and onlookers (and the all-seeing log), over whole games
    (short ones: a bound on the tricks) of every variant with random
    take-backs: each stream is a prefix of every later one, ``version``
    strictly increases (in the views and the records too), and the stream
    with its take-backs applied is the stream of the game as it stands."""
    v = VARIANTS[name]
    rng = random.Random(seed)
    players = v.players.max if big else v.players.min
    # At most 6 seats, to keep the games short, but never fewer than the game seats.
    seats = max(min(players, 6), v.players.min)
    g = Game(v, seats, seed=seed, take_backs="before the hand ends", max_tricks=8)
    audiences = _audiences(g)
    held: dict[Any, list[Event]] = {s: g.events_for(s) for s in audiences}
    held["all"] = g.events
    version = g.version
    take_backs = 0
    for _ in range(400):
        if g.is_over:
            break
        if rng.random() < rate:
            seat = rng.randrange(g.players)
            if not g.can_undo(seat):
                continue
            assert g.take_back(seat)
            take_backs += 1
        else:
            seat = rng.choice(sorted(g.waiting_for))
            g.apply(rng.choice(g.legal_actions(seat)), seat)
        assert g.version > version
        version = g.version
        for s in [*audiences, "all"]:
            now = g.events if s == "all" else g.events_for(s)
            assert now[: len(held[s])] == held[s], f"{name}: {s}'s stream changed an entry"
            assert all(ev.version == version for ev in now[len(held[s]) :])
            held[s] = now
            if s != "all":
                assert g.view(s).version == version
    # The streams with the take-backs applied: those of the game as it stands.
    fresh = _fresh(g)
    for s in audiences:
        assert _no_version(current_line(g.events_for(s))) == _no_version(fresh.events_for(s))
    assert sum(isinstance(ev, TakeBackEvent) for ev in g.events) == take_backs
    # Saves, clones and replays keep the history.
    for other in (Game.from_json(g.to_json()), g.clone(), cardrules.replay(v, g.events)):
        assert other == g and other.version == g.version
        assert all(other.events_for(s) == g.events_for(s) for s in audiences)


def test_docstring_examples_run() -> None:
    import doctest

    from cardrules.engine.views import event_types as event_records

    for mod in (history_module, event_records):
        failed, attempted = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert failed == 0 and attempted > 0, mod.__name__


def test_the_information_state_tensor_reads_the_game_as_it_stands() -> None:
    from cardrules.engine.views.infostate import information_state_tensor

    text = "game: doc\nplayers: 4\nhands: list 5\nbidding: in turn\nscore: tricks"
    v = cardrules.load_text(text)
    g = Game(v, 4, seed=2, take_backs="before the hand ends")
    while g.phase != "play":
        g.apply(g.legal_actions(g.to_act)[0], g.to_act)
    seat = g.to_act
    assert seat is not None
    before = information_state_tensor(g, 0)
    g.apply(g.legal_actions(seat)[0], seat)
    g.take_back(seat)
    assert information_state_tensor(g, 0) == before


def test_a_consented_take_back_says_who_agreed_and_is_kept() -> None:
    """The take-back path the consent flow uses (undo.py's _take_back_span):
    the seats that agreed are in the record, the save and a replay."""
    from cardrules.engine.state.undo import _take_back_span

    g, leader, follower = _kachuful_after_two_plays()
    taken = _take_back_span(g, leader, 2, (follower,))
    assert len(taken) == 2 and g.to_act == leader
    back = g.events_for(None)[-1]
    assert isinstance(back, TakeBackEvent)
    assert back.seat == leader and back.agreed == (follower,) and back.entries == 2
    assert back.undone == (g.version - 2, g.version - 1)
    data = json.loads(g.to_json())
    assert data["taken_back"][0]["agreed"] == [follower]
    for other in (Game.from_json(g.to_json()), cardrules.replay(g.variant, g.events)):
        assert other == g and other.events_for(None)[-1] == back
