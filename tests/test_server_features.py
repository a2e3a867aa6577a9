"""The server's table features without a network (issue 21, items 4-6): the
variant's rules sent to clients, the take-back policy and options shown, the
pause after tricks and hands, turn timers played out by a named bot, handing a
seat to a bot, rematches and private tables.

Time is a :class:`~cardrules.server.timers.ManualClock`: a test moves it on
and nothing sleeps.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from server_support import drain as _drain
from server_support import send as _send
from server_support import settle as _settle

import cardrules
from cardrules.dsl import format as format_variant
from cardrules.server.hub import SAVE_SUFFIX, Client, Hub, Limits
from cardrules.server.timers import MAX_PAUSE, ManualClock, TableOptions, ended_by

VARIANTS = ("oh-hell-short", "kazhutha")


def _hub(tmp: Path | None, clock: ManualClock) -> Hub:
    return Hub({k: cardrules.load(k) for k in VARIANTS}, tmp, Limits(), clock=clock)


def _client(hub: Hub) -> Client:
    c = Client(hub.limits)
    assert hub.connect(c)
    return c


def _error(hub: Hub, c: Client, **msg: Any) -> str:
    got = _send(hub, c, **msg)
    errors = [m for m in got if m["type"] == "error"]
    assert len(errors) == 1, got
    return str(errors[0]["code"])


def _create(hub: Hub, c: Client, seats: list[str], **extra: Any) -> tuple[str, str, list[Any]]:
    """A new table: its id, the creator's token, and every message it got."""
    got = _send(hub, c, type="create", variant="oh-hell-short", seats=seats, **extra)
    tid = next(m for m in got if m["type"] == "created")["table"]
    token = next((m for m in got if m["type"] == "joined"), {}).get("token", "")
    return tid, token, got


def _last_state(msgs: list[dict[str, Any]]) -> dict[str, Any]:
    return [m for m in msgs if m["type"] == "state"][-1]


def _act(hub: Hub, c: Client) -> None:
    table = hub.tables[c.table or ""]
    legal = table.game.legal_actions(c.seat)
    assert legal, "not this seat's turn"
    hub.handle(c, json.dumps({"type": "act", "action": legal[0].id}))


# --------------------------------------------------------------------------- item 4: the rules


def test_hello_joined_and_watching_carry_the_rules(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        c = Client(hub.limits)
        hub.connect(c)
        hello = _drain(c)[0]
        by_key = {v["key"]: v for v in hello["variants"]}
        v = cardrules.load("oh-hell-short")
        assert by_key["oh-hell-short"]["name"] == v.name
        assert by_key["oh-hell-short"]["title"] == v.title
        assert by_key["oh-hell-short"]["summary"] == v.summary
        _, _, got = _create(hub, c, ["human", "random", "random", "random"])
        joined = next(m for m in got if m["type"] == "joined")
        rules = joined["rules"]
        assert rules == {
            "key": "oh-hell-short",
            "name": v.name,
            "title": v.title,
            "summary": v.summary,
            "text": format_variant(v),
        }
        # The text is the variant itself: read back, the same rules.
        assert cardrules.load_text(rules["text"]) == v
        assert joined["options"]["take_backs"] == "never"
        # A spectator is sent them too, and a lobby may ask before any table.
        w = _client(hub)
        _drain(w)
        watching = next(m for m in _send(hub, w, type="watch", table=c.table) if "rules" in m)
        assert watching["type"] == "watching" and watching["rules"] == rules
        got = _send(hub, w, type="rules", variant="kazhutha", ref=3)
        assert got[0]["type"] == "rules" and got[0]["ref"] == 3
        assert got[0]["rules"]["text"] == format_variant(cardrules.load("kazhutha"))
        assert _error(hub, w, type="rules", variant="../kachuful") == "unknown_variant"
        await hub.stop()

    asyncio.run(main())


def test_the_take_back_policy_and_options_are_shown_to_all(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        c = _client(hub)
        tid, _, got = _create(
            hub,
            c,
            ["human", "random", "random", "random"],
            take_backs="until the trick is complete",
            pause=4,
            turn_time=30,
            stand_in="random",
        )
        want = {
            "take_backs": "until the trick is complete",
            "pause": 4.0,
            "turn_time": 30.0,
            "stand_in": "random",
            "private": False,
        }
        assert _last_state(got)["options"] == want
        other = _client(hub)
        listed = _send(hub, other, type="tables")[-1]["tables"]
        assert [t["options"] for t in listed if t["table"] == tid] == [want]
        w = _client(hub)
        _send(hub, w, type="watch", table=tid)
        assert _last_state(_send(hub, w, type="state"))["options"] == want
        await hub.stop()

    asyncio.run(main())


@pytest.mark.parametrize(
    "extra",
    [
        {"pause": MAX_PAUSE + 1},
        {"pause": -1},
        {"pause": "5"},
        {"pause": True},
        {"pause": 10**400},
        {"turn_time": 0.5},
        {"turn_time": 3601},
        {"turn_time": [30]},
        {"stand_in": "god"},
        {"stand_in": 3},
        {"private": "yes"},
        {"private": 1},
    ],
)
def test_options_out_of_bounds_are_refused(tmp_path: Path, extra: dict[str, Any]) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        c = _client(hub)
        _drain(c)
        code = _error(hub, c, type="create", variant="oh-hell-short", seats=["human"] * 4, **extra)
        # A number of 400 digits is refused as the message is read (issue 21 item 10).
        assert code == ("bad_message" if extra.get("pause") == 10**400 else "bad_option")
        assert hub.tables == {} and list(tmp_path.iterdir()) == []
        await hub.stop()

    asyncio.run(main())


# --------------------------------------------------------------------------- item 5: pauses


def test_ended_by_names_the_trick_and_the_hand() -> None:
    g = cardrules.Game(cardrules.load("oh-hell-short"), 4, seed=2)
    seen = len(g.events_for(None))
    ends = []
    while not g.is_over:
        s = g.to_act if g.to_act is not None else min(g.waiting_for)
        g.apply(g.legal_actions(s)[0], s)
        after, seen = ended_by(g, seen)
        ends.append(after)
    assert ends.count("hand") == g.hand_number - 1  # the last hand ends the game: no pause
    assert ends.count("trick") > ends.count("hand")
    assert ends[-1] is None


async def _until_paused(hub: Hub, humans: list[Client], *, bot_next: bool) -> dict[str, Any]:
    """Play the humans' turns until the table pauses (with a bot to act next,
    if ``bot_next``); the pause as the state shows it."""
    table = hub.tables[humans[0].table or ""]
    for _ in range(500):
        await _settle(hub)
        if table.pause is not None:
            nxt = table.game.to_act
            if not bot_next or (nxt is not None and table.seats[nxt].is_bot):
                return _last_state(_drain(humans[0]))["pause"]  # type: ignore[no-any-return]
            for h in humans:  # not the pause wanted: go on
                hub.handle(h, json.dumps({"type": "ack"}))
            continue
        movers = [h for h in humans if table.game.legal_actions(h.seat)]
        assert movers, "nobody can move"
        _act(hub, movers[0])
    raise AssertionError("no pause")


def test_a_paused_table_holds_its_bots_until_every_human_acknowledges(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a, b = _client(hub), _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "human", "random"], pause=8)
        _send(hub, b, type="join", table=tid, seat=2)
        table = hub.tables[tid]
        pause = await _until_paused(hub, [a, b], bot_next=True)
        assert pause["after"] in ("trick", "hand") and pause["waiting"] == [0, 2]
        assert pause["time_left"] == 8.0
        version = table.version
        # The bots wait: however long the loop runs, nothing moves.
        await _settle(hub)
        clock.advance(7.9)
        await _settle(hub)
        assert table.version == version and table.pause is not None
        # One acknowledgement: the other human is still waited for.
        _drain(b)
        _send(hub, a, type="ack")
        state = _last_state(_drain(b))
        assert state["pause"]["waiting"] == [2] and state["version"] == version
        await _settle(hub)
        assert table.version == version
        # A spectator cannot acknowledge for anyone.
        w = _client(hub)
        _send(hub, w, type="watch", table=tid)
        assert _error(hub, w, type="ack") == "not_seated"
        # The last one: the bots play on.
        _send(hub, b, type="ack")
        assert table.pause is None
        await _settle(hub)
        assert table.version > version
        # An ack with no pause changes nothing and is not answered.
        _drain(a)
        if table.pause is None:
            assert _send(hub, a, type="ack") == []
        await hub.stop()

    asyncio.run(main())


def test_a_pause_ends_by_itself_after_its_time(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a = _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "random", "random"], pause=3)
        table = hub.tables[tid]
        await _until_paused(hub, [a], bot_next=True)
        version = table.version
        clock.advance(2.9)
        await _settle(hub)
        assert table.version == version
        clock.advance(0.2)
        state = _last_state(_drain(a))
        assert state["pause"] is None  # every client is told the pause is over
        await _settle(hub)
        assert table.version > version
        await hub.stop()

    asyncio.run(main())


def test_a_pause_waits_only_for_the_humans_present(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a, b = _client(hub), _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "human", "random"], pause=30)
        _send(hub, b, type="join", table=tid, seat=2)
        table = hub.tables[tid]
        await _until_paused(hub, [a, b], bot_next=True)
        version = table.version
        _send(hub, a, type="ack")
        # The other human leaves: nobody is left to wait for.
        hub.disconnect(b)
        assert table.pause is None
        await _settle(hub)
        assert table.version > version
        await hub.stop()

    asyncio.run(main())


def test_no_pause_without_the_option_or_without_humans(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        a = _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "random", "random"])
        _send(hub, a, type="hand_to_bot")
        await _settle(hub)
        assert hub.tables[tid].game.is_over
        b = _client(hub)
        tid2, _, _ = _create(hub, b, ["random"] * 4, pause=10)
        await _settle(hub)
        assert hub.tables[tid2].game.is_over and hub.tables[tid2].pause is None
        await hub.stop()

    asyncio.run(main())


def test_no_turn_timer_runs_during_a_pause(tmp_path: Path) -> None:
    """A person's decision time starts once the pause is over, whole."""

    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a = _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "random", "random"], pause=5, turn_time=7)
        table = hub.tables[tid]
        for _ in range(500):
            await _settle(hub)
            if table.pause is not None and table.game.to_act == 0:
                break
            if table.pause is not None:
                _send(hub, a, type="ack")
            elif table.game.legal_actions(0):
                _act(hub, a)
        else:
            raise AssertionError("no pause before seat 0's turn")
        assert table.deadlines == {}
        clock.advance(4.0)
        assert table.seats[0].stand_in is None and table.deadlines == {}
        got = _send(hub, a, type="ack")
        assert table.pause is None
        assert _last_state(got)["seats"][0]["time_left"] == 7.0
        clock.advance(6.9)
        assert table.seats[0].stand_in is None
        clock.advance(0.1)
        assert table.seats[0].stand_in == "heuristic"
        await hub.stop()

    asyncio.run(main())


def test_the_manual_clock_calls_in_order_and_not_when_cancelled() -> None:
    clock = ManualClock(0.0)
    calls: list[tuple[str, float]] = []
    clock.call_later(2, lambda: calls.append(("b", clock.now())))
    clock.call_later(1, lambda: calls.append(("a", clock.now())))
    clock.call_later(1.5, lambda: calls.append(("x", clock.now()))).cancel()
    assert clock.pending == 2
    clock.advance(1.9)
    assert calls == [("a", 1.0)] and clock.now() == 1.9
    clock.advance(5)
    assert calls == [("a", 1.0), ("b", 2.0)] and clock.pending == 0


# --------------------------------------------------------------------------- item 6: turn timers


def test_a_timed_out_seat_is_played_by_the_named_bot_and_handed_back(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a, b = _client(hub), _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "human", "random"], turn_time=20)
        _send(hub, b, type="join", table=tid, seat=2)
        table = hub.tables[tid]
        # Play until seat 0 must act.
        for _ in range(200):
            await _settle(hub)
            if table.game.legal_actions(0) and table.game.to_act == 0:
                break
            if table.game.legal_actions(2):
                _act(hub, b)
        assert table.game.to_act == 0
        state = _last_state(_send(hub, b, type="state"))
        assert state["seats"][0]["time_left"] == 20.0 and state["seats"][2]["time_left"] is None
        version = table.version
        clock.advance(19.9)
        await _settle(hub)
        assert table.version == version and table.seats[0].stand_in is None
        clock.advance(0.1)
        # Everyone is shown who plays for the seat, and the bot plays.
        seat0 = _last_state(_drain(b))["seats"][0]
        assert seat0["stand_in"] == {"bot": "heuristic", "why": "time"}
        assert seat0["time_left"] is None
        await _settle(hub)
        assert table.version > version
        assert table.last_seat is not None
        # The stand-in is saved and restored with the table.
        saved = json.loads((tmp_path / (tid + SAVE_SUFFIX)).read_text(encoding="utf-8"))
        assert saved["seats"][0]["stand_in"] == "heuristic"
        assert saved["seats"][0]["stand_in_why"] == "time"
        # A ping is not a return (it may be an automatic keep-alive)...
        _send(hub, a, type="ping")
        assert table.seats[0].stand_in == "heuristic"
        # ... any other message of the seat's player is: the seat is theirs again.
        _drain(b)
        _send(hub, a, type="tables")
        assert table.seats[0].stand_in is None
        assert _last_state(_drain(b))["seats"][0]["stand_in"] is None
        await hub.stop()

    asyncio.run(main())


def test_rejoining_with_the_token_gives_a_timed_out_seat_back(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a, b = _client(hub), _client(hub)
        tid, token, _ = _create(
            hub, a, ["human", "human", "random", "random"], turn_time=5, stand_in="random"
        )
        _send(hub, b, type="join", table=tid, seat=1)
        table = hub.tables[tid]
        hub.disconnect(a)
        for _ in range(50):  # seat 0 is away: whenever it must act, its time runs out
            await _settle(hub)
            if table.seats[0].stand_in is not None:
                break
            if table.game.legal_actions(1):
                _act(hub, b)
            else:
                clock.advance(5)
        assert table.seats[0].stand_in == "random"
        c = _client(hub)
        _drain(c)
        got = _send(hub, c, type="join", table=tid, token=token)
        assert [m["type"] for m in got] == ["joined", "state"]
        assert table.seats[0].stand_in is None and got[-1]["seats"][0]["stand_in"] is None
        await hub.stop()

    asyncio.run(main())


def test_a_free_seat_has_no_timer(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a = _client(hub)
        tid, _, _ = _create(hub, a, ["human", "human", "random", "random"], turn_time=5)
        table = hub.tables[tid]
        for _ in range(30):  # the creator's seat 0 times out at any turn of its own
            clock.advance(5)
            await _settle(hub)
        # The game waits for seat 1, which nobody has taken: no timer, no bot.
        assert 1 in table.game.waiting_for and not table.game.is_over
        version = table.version
        clock.advance(600)
        await _settle(hub)
        assert table.version == version and table.deadlines == {}
        assert table.seats[1].stand_in is None
        await hub.stop()

    asyncio.run(main())


def test_hand_to_bot_and_resume(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = _hub(tmp_path, clock)
        a, b = _client(hub), _client(hub)
        tid, _, _ = _create(hub, a, ["human", "random", "human", "random"])
        _send(hub, b, type="join", table=tid, seat=2)
        table = hub.tables[tid]
        await _settle(hub)
        assert _error(hub, a, type="hand_to_bot", bot="god") == "unknown_bot"
        got = _send(hub, a, type="hand_to_bot", bot="random", ref="h")
        assert got[0] == {"type": "handed_to_bot", "seat": 0, "bot": "random", "ref": "h"}
        seat0 = _last_state(_drain(b))["seats"][0]
        assert seat0["stand_in"] == {"bot": "random", "why": "asked"}
        # The bot plays seat 0 until seat 2 must act; seat 0 may not act meanwhile.
        await _settle(hub)
        assert table.game.is_over or table.game.legal_actions(2)
        v = table.version
        assert _error(hub, a, type="act", action=0) == "bot_playing"
        assert _error(hub, a, type="take_back") == "bot_playing"
        _send(hub, a, type="state")  # only resume takes the seat back
        assert table.seats[0].stand_in == "random" and table.version == v
        got = _send(hub, a, type="resume")
        assert got[0] == {"type": "resumed", "seat": 0}
        assert table.seats[0].stand_in is None and _last_state(got)["seats"][0]["stand_in"] is None
        # Resume again: answered, nothing changes.
        assert _send(hub, a, type="resume") == [{"type": "resumed", "seat": 0}]
        w = _client(hub)
        _send(hub, w, type="watch", table=tid)
        assert _error(hub, w, type="hand_to_bot") == "not_seated"
        assert _error(hub, w, type="resume") == "not_seated"
        await hub.stop()

    asyncio.run(main())


# --------------------------------------------------------------------------- rematch


def test_a_rematch_seats_everyone_again_with_their_tokens(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        a, b, w = _client(hub), _client(hub), _client(hub)
        tid, token_a, _ = _create(
            hub, a, ["human", "random", "human", "heuristic"], pause=2, turn_time=40
        )
        token_b = next(m for m in _send(hub, b, type="join", table=tid, seat=2) if "token" in m)[
            "token"
        ]
        _send(hub, w, type="watch", table=tid)
        assert _error(hub, a, type="rematch") == "game_not_over"
        assert _error(hub, w, type="rematch") == "not_seated"
        for c in (a, b):
            _send(hub, c, type="hand_to_bot")
        await _settle(hub)
        old = hub.tables[tid]
        assert old.game.is_over
        for c in (a, b, w):
            _drain(c)
        got = _send(hub, a, type="rematch", ref=9)
        msg = next(m for m in got if m["type"] == "rematch")
        nid = msg["new_table"]
        assert msg == {"type": "rematch", "table": tid, "new_table": nid, "ref": 9}
        # Every client at the old table is told; the state names it for latecomers.
        for c in (b, w):
            assert {"type": "rematch", "table": tid, "new_table": nid} in _drain(c)
        assert _last_state(_send(hub, w, type="state"))["rematch"] == nid
        new = hub.tables[nid]
        assert new.variant_key == old.variant_key and new.options == old.options
        assert [s.kind for s in new.seats] == [s.kind for s in old.seats]
        assert new.game.version == 0 and not new.game.is_over
        # Asked again: the same table.
        again = next(m for m in _send(hub, b, type="rematch") if m["type"] == "rematch")
        assert again["new_table"] == nid and len(hub.tables) == 2
        # The seat holders take their seats with their tokens; nobody else can.
        c = _client(hub)
        assert _error(hub, c, type="join", table=nid, seat=0) == "seat_taken"
        for client, token, seat in ((a, token_a, 0), (b, token_b, 2)):
            got = _send(hub, client, type="join", table=nid, token=token)
            assert next(m for m in got if m["type"] == "joined")["seat"] == seat
        assert all(s.stand_in is None for s in new.seats)
        await hub.stop()

    asyncio.run(main())


# --------------------------------------------------------------------------- private tables


def test_a_private_table_is_listed_only_to_its_members_and_joined_with_its_code(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        a = _client(hub)
        tid, token, got = _create(hub, a, ["human", "human", "random", "random"], private=True)
        invite = next(m for m in got if m["type"] == "created")["invite"]
        assert isinstance(invite, str) and len(invite) >= 20
        public, _, _ = _create(hub, _client(hub), ["human", "random", "random", "random"])
        stranger = _client(hub)
        listed = {t["table"] for t in _send(hub, stranger, type="tables")[-1]["tables"]}
        assert listed == {public}
        mine = _send(hub, a, type="tables")[-1]["tables"]
        assert {t["table"] for t in mine} == {tid, public}
        assert next(t for t in mine if t["table"] == tid)["options"]["private"] is True
        # No code, a wrong code, a code of the wrong kind: refused, nothing changes.
        for code in (None, "x" * 22, invite[:-1], 5, "y" * 500):
            extra = {} if code is None else {"invite": code}
            assert _error(hub, stranger, type="watch", table=tid, **extra) == "bad_invite"
            assert _error(hub, stranger, type="join", table=tid, seat=1, **extra) == "bad_invite"
        table = hub.tables[tid]
        assert table.seats[1].token_hash is None and len(table.clients) == 1
        # With the code: watch, then take a seat (a member needs no code again).
        _send(hub, stranger, type="watch", table=tid, invite=invite)
        assert stranger.table == tid
        listed = {t["table"] for t in _send(hub, stranger, type="tables")[-1]["tables"]}
        assert tid in listed
        got = _send(hub, stranger, type="join", table=tid, seat=1)
        assert next(m for m in got if m["type"] == "joined")["seat"] == 1
        # A seat's token is proof enough.
        back = _client(hub)
        got = _send(hub, back, type="join", table=tid, token=token)
        assert next(m for m in got if m["type"] == "joined")["seat"] == 0
        # The code is not in the save (its hash is), and survives a restart.
        text = (tmp_path / (tid + SAVE_SUFFIX)).read_text(encoding="utf-8")
        assert invite not in text
        await hub.stop()
        hub2 = _hub(tmp_path, ManualClock())
        assert hub2.restore() == []
        other = _client(hub2)
        assert _error(hub2, other, type="watch", table=tid) == "bad_invite"
        _send(hub2, other, type="watch", table=tid, invite=invite)
        assert other.table == tid
        assert hub2.tables[tid].options == TableOptions(private=True)

    asyncio.run(main())


def test_a_private_rematch_has_a_new_code_for_its_members(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, ManualClock())
        a = _client(hub)
        tid, _, got = _create(hub, a, ["human", "random", "random", "random"], private=True)
        invite = next(m for m in got if m["type"] == "created")["invite"]
        w = _client(hub)
        _send(hub, w, type="watch", table=tid, invite=invite)
        _send(hub, a, type="hand_to_bot")
        await _settle(hub)
        _drain(w)
        msg = next(m for m in _send(hub, a, type="rematch") if m["type"] == "rematch")
        assert msg["invite"] != invite
        assert {
            "type": "rematch",
            "table": tid,
            "new_table": msg["new_table"],
            "invite": msg["invite"],
        } in _drain(w)
        stranger = _client(hub)
        nid = msg["new_table"]
        assert _error(hub, stranger, type="watch", table=nid, invite=invite) == "bad_invite"
        _send(hub, stranger, type="watch", table=nid, invite=msg["invite"])
        assert stranger.table == nid
        await hub.stop()

    asyncio.run(main())


# --------------------------------------------------------------------------- saves


def test_options_are_saved_and_old_saves_load_with_the_defaults(tmp_path: Path) -> None:
    async def main() -> str:
        hub = _hub(tmp_path, ManualClock())
        a = _client(hub)
        tid, _, _ = _create(
            hub, a, ["human", "random", "random", "random"], pause=2.5, turn_time=60
        )
        await hub.stop()
        return tid

    tid = asyncio.run(main())
    hub = _hub(tmp_path, ManualClock())
    assert hub.restore() == []
    assert hub.tables[tid].options == TableOptions(pause=2.5, turn_time=60.0)
    # A save from before the options (and the stand-ins) loads with the defaults.
    path = tmp_path / (tid + SAVE_SUFFIX)
    data = json.loads(path.read_text(encoding="utf-8"))
    for key in ("options", "invite_hash", "rematch"):
        del data[key]
    for seat in data["seats"]:
        del seat["stand_in"], seat["stand_in_why"]
    path.write_text(json.dumps(data), encoding="utf-8")
    hub = _hub(tmp_path, ManualClock())
    assert hub.restore() == []
    assert hub.tables[tid].options == TableOptions()
    # A save whose options are out of bounds is skipped like any bad file.
    data["options"] = {"pause": 1e9}
    path.write_text(json.dumps(data), encoding="utf-8")
    hub = _hub(tmp_path, ManualClock())
    assert len(hub.restore()) == 1 and hub.tables == {}


def test_every_refusal_code_is_in_the_docs_table() -> None:
    """Each ``Refusal`` code the hub raises is a row of docs/server.md's codes table."""
    import re

    root = Path(__file__).resolve().parent.parent
    source = (root / "cardrules" / "server" / "hub.py").read_text(encoding="utf-8")
    raised = set(re.findall(r'Refusal\(\s*"([a-z_]+)"', source))
    docs = (root / "docs" / "server.md").read_text(encoding="utf-8")
    table = docs[docs.index("| code | why |") :].split("\n\n")[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    documented = {code for line in rows for code in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    assert {"bad_option", "bad_invite", "unknown_bot", "bot_playing", "game_not_over"} <= raised
    assert raised <= documented, sorted(raised - documented)
