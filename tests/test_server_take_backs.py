"""Take-back requests at the server (issue 21 item 1): a seat takes back alone
only what nobody else has acted on; past another seat's action it asks
(``request_take_back``) and the seats asked answer (``answer_take_back``), as
on a chess site. Bots agree, a stand-in for an absent player declines, and a
request nobody answers is withdrawn after ``Limits.take_back_wait`` seconds.

Time is a :class:`~cardrules.server.timers.ManualClock`; nothing sleeps.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server_support import drain as _drain
from server_support import send as _send
from server_support import settle as _settle

import cardrules
from cardrules.server.hub import Client, Hub, Limits
from cardrules.server.timers import ManualClock

POLICY = "until the trick is complete"


def _table(
    tmp: Path, clock: ManualClock, kinds: list[str], **limits: Any
) -> tuple[Hub, str, dict[int, Client]]:
    """A table of oh-hell-short under POLICY; a client for every human seat."""
    variants = {"oh-hell-short": cardrules.load("oh-hell-short")}
    hub = Hub(variants, tmp, Limits(**limits), clock=clock)
    humans = [s for s, k in enumerate(kinds) if k == "human"]
    first = Client(hub.limits)
    assert hub.connect(first)
    got = _send(
        hub, first, type="create", variant="oh-hell-short", seats=kinds, seat=humans[0],
        take_backs=POLICY,
    )  # fmt: skip
    tid = next(m for m in got if m["type"] == "created")["table"]
    clients = {humans[0]: first}
    for s in humans[1:]:
        c = Client(hub.limits)
        assert hub.connect(c)
        _send(hub, c, type="join", table=tid, seat=s, name=f"p{s}")
        clients[s] = c
    for c in clients.values():
        _drain(c)
    return hub, tid, clients


def _act(hub: Hub, c: Client) -> list[dict[str, Any]]:
    legal = hub.tables[c.table or ""].game.legal_actions(c.seat)
    assert legal, f"not seat {c.seat}'s turn"
    return _send(hub, c, type="act", action=legal[0].id)


def _state(msgs: list[dict[str, Any]]) -> dict[str, Any]:
    return [m for m in msgs if m["type"] == "state"][-1]


def _codes(msgs: list[dict[str, Any]]) -> list[str]:
    return [m["code"] for m in msgs if m["type"] == "error"]


def test_past_another_seats_action_a_take_back_is_a_request_the_other_accepts(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        hub, tid, cs = _table(tmp_path, ManualClock(), ["human"] * 4)
        game = hub.tables[tid].game
        a = game.to_act
        assert a is not None
        before = game.legal_actions(a)
        _act(hub, cs[a])
        b = game.to_act
        assert b is not None and b != a
        _act(hub, cs[b])
        # Alone: refused (seat b acted on it), with the way to ask.
        got = _send(hub, cs[a], type="take_back")
        assert _codes(got) == ["take_back_refused"]
        assert "request_take_back" in got[-1]["message"]
        assert _state(_drain(cs[a]) or _send(hub, cs[a], type="state"))["can_request_take_back"]
        got = _send(hub, cs[a], type="request_take_back")
        asked = next(m for m in got if m["type"] == "take_back_requested")
        assert asked == {"type": "take_back_requested", "count": 2, "asked": [b]}
        # Everyone at the table sees the request in the view.
        seen = _state(_drain(cs[b]))["view"]["take_back_request"]
        assert seen == {"seat": a, "count": 2, "asked": [b], "agreed": []}
        # Only a seat asked may answer; the requester may not agree for them.
        other = next(s for s in cs if s not in (a, b))
        assert _codes(_send(hub, cs[other], type="answer_take_back", accept=True)) == ["not_asked"]
        assert _codes(_send(hub, cs[a], type="answer_take_back", accept=True)) == ["not_asked"]
        assert _codes(_send(hub, cs[b], type="answer_take_back", accept="yes")) == ["bad_message"]
        got = _send(hub, cs[b], type="answer_take_back", accept=True)
        assert any(m["type"] == "answered" and m["accept"] for m in got)
        taken = [m for m in _drain(cs[a]) if m["type"] == "taken_back"]
        assert taken == [{"type": "taken_back", "count": 2, "agreed": True}]
        assert game.to_act == a and game.take_back_request is None
        assert game.legal_actions(a) == before

    asyncio.run(main())


def test_a_declined_request_takes_nothing_back(tmp_path: Path) -> None:
    async def main() -> None:
        hub, tid, cs = _table(tmp_path, ManualClock(), ["human"] * 4)
        game = hub.tables[tid].game
        a = game.to_act
        assert a is not None
        _act(hub, cs[a])
        b = game.to_act
        assert b is not None
        _act(hub, cs[b])
        saved = game.to_json()
        _send(hub, cs[a], type="request_take_back")
        assert _codes(_send(hub, cs[a], type="request_take_back")) == ["take_back_pending"]
        _send(hub, cs[b], type="answer_take_back", accept=False)
        assert game.take_back_request is None
        assert game.to_json() == saved  # declined: the game is as before the request
        assert not [m for m in _drain(cs[a]) if m["type"] == "taken_back"]
        assert _codes(_send(hub, cs[b], type="answer_take_back", accept=True)) == [
            "no_take_back_request"
        ]

    asyncio.run(main())


def test_bots_agree_and_a_stand_in_for_an_absent_player_declines(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub, tid, cs = _table(tmp_path, clock, ["human", "random", "random", "random"])
        await _settle(hub)
        game = hub.tables[tid].game
        (me,) = cs
        while game.to_act != me:  # the bots bid before the human's turn comes
            await _settle(hub)
        _act(hub, cs[me])
        await _settle(hub)
        # The bots acted after the human: only a request can take its action back.
        assert not game.can_undo(me) and game.can_request_take_back(me)
        got = _send(hub, cs[me], type="request_take_back")
        asked = next(m for m in got if m["type"] == "take_back_requested")["asked"]
        assert asked and all(hub.tables[tid].seats[s].is_bot for s in asked)
        assert [m for m in got if m["type"] == "taken_back"], got  # the bots agreed at once
        assert game.to_act == me and game.take_back_request is None
        # A stand-in for an absent player declines: its player's cards stay unseen.
        _act(hub, cs[me])
        await _settle(hub)
        table = hub.tables[tid]
        bot = next(s for s in range(4) if s != me)
        table.seats[bot].kind = "human"
        table.seats[bot].stand_in = "random"
        assert game.can_request_take_back(me)
        got = _send(hub, cs[me], type="request_take_back")
        assert not [m for m in got if m["type"] == "taken_back"]
        assert game.take_back_request is None and game.to_act == me

    asyncio.run(main())


def test_an_unanswered_request_is_withdrawn_and_holds_the_bots_meanwhile(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub, tid, cs = _table(
            tmp_path, clock, ["human", "human", "random", "random"], take_back_wait=30.0
        )
        game = hub.tables[tid].game
        await _settle(hub)
        # Play until seat 0 acts and seat 1 acts right after it.
        for _ in range(400):
            s = game.to_act
            assert s is not None, "seat 0 never could ask"
            if s in cs:
                _act(hub, cs[s])
            # Seat 1 has just acted after seat 0, and a bot is to act next.
            if s == 1 and game.can_request_take_back(0) and game.to_act not in cs:
                break
            await _settle(hub)
        version = game.version
        _send(hub, cs[0], type="request_take_back")
        request = game.take_back_request
        assert request is not None and 1 in request.asked  # a person is asked: it waits
        await _settle(hub)
        assert game.take_back_request == request and game.version == version  # bots wait
        clock.advance(29.0)
        assert game.take_back_request is not None
        clock.advance(2.0)
        assert game.take_back_request is None
        assert game.version == version  # withdrawn: nothing taken back

    asyncio.run(main())


def test_the_table_version_is_the_games_across_take_backs_and_requests(tmp_path: Path) -> None:
    """Issue 21: the table's `version` and the game's no longer part ways."""

    async def main() -> None:
        hub, tid, cs = _table(tmp_path, ManualClock(), ["human"] * 4)
        table = hub.tables[tid]
        game = table.game
        a = game.to_act
        assert a is not None
        _act(hub, cs[a])
        assert _send(hub, cs[a], type="take_back")[0]["type"] == "taken_back"
        assert table.version == game.version == 2  # an action and a take-back
        _act(hub, cs[a])
        b = game.to_act
        assert b is not None
        _act(hub, cs[b])
        _send(hub, cs[a], type="request_take_back")
        assert table.version == game.version == 4  # a request is no new version
        st = _state(_send(hub, cs[b], type="answer_take_back", accept=True))
        assert table.version == game.version == 5
        assert st["version"] == st["view"]["version"] == 5

    asyncio.run(main())


def test_a_reconnect_with_since_and_digest_after_another_seats_take_back(tmp_path: Path) -> None:
    """Issue 21 item 2 at the server: a client that held N entries of its
    stream, away while another seat took back and played on, asks for the
    rest with ``since`` and the ``digest`` it was sent: what it gets, appended,
    is the stream as it is now; a wrong digest gets the whole stream again."""

    async def main() -> None:
        hub, tid, cs = _table(tmp_path, ManualClock(), ["human"] * 4)
        game = hub.tables[tid].game
        a = game.to_act
        assert a is not None
        watcher = next(s for s in cs if s != a)
        held = _state(_send(hub, cs[watcher], type="state", since=0))
        mine = held["events"]
        assert held["events_from"] == 0 and mine
        digest = held["digest"]
        assert digest == game.stream_digest(watcher, len(mine))
        _act(hub, cs[a])
        _send(hub, cs[a], type="take_back")
        _act(hub, cs[a])
        back = cs[watcher]
        _drain(back)  # the states sent meanwhile are lost (the client was away)
        got = _state(_send(hub, back, type="state", since=len(mine), digest=digest))
        assert got["events_from"] == len(mine)
        stream = mine + got["events"]
        assert stream == [ev.to_dict() for ev in game.events_for(watcher)]
        assert [e["kind"] for e in got["events"]].count("take back") == 1
        assert got["digest"] == game.stream_digest(watcher)
        # A digest of other entries: the whole stream again.
        wrong = _state(_send(hub, back, type="state", since=len(mine), digest="0" * 64))
        assert wrong["events_from"] == 0 and len(wrong["events"]) == len(stream)
        codes = _codes(_send(hub, back, type="state", digest=digest))
        assert codes == ["bad_message"]

    asyncio.run(main())
