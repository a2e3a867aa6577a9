"""The server's rules side without a network (cardrules.server.hub): the
spectator view, saves and restores, bots, and the bounds on clients."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_support import drain as _drain
from server_support import settle as _settle

import cardrules
from cardrules.bots import make_bot
from cardrules.dsl import builtin_names
from cardrules.engine.actions import Action
from cardrules.server.hub import SAVE_SUFFIX, Client, Hub, Limits, public_view
from cardrules.server.store import LOG_SUFFIX
from cardrules.server.timers import ManualClock

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def _cards(d: object) -> set[str]:
    return set(CARD.findall(json.dumps(d, ensure_ascii=False)))


@pytest.mark.parametrize("name", builtin_names())
def test_the_spectator_view_shows_only_what_every_seat_sees(name: str) -> None:
    """At every move of a seeded game of every built-in variant: no hand, no
    legal action, and no card that some seat's own view does not show; what
    every seat sees alike (the trick, the scores) is kept."""
    v = cardrules.load(name)
    n = 4 if 4 in v.players else v.players.min
    g = cardrules.Game(v, n, seed=11)
    bots = [make_bot("random", 5 + s) for s in range(n)]
    moves = 0
    while moves < 400:
        views = [g.view(s).to_dict() for s in range(n)]
        pv = public_view(g)
        assert pv["seat"] is None and pv["hand"] is None and pv["legal_actions"] == []
        assert set(pv) == set(views[0])
        seen_by_all = set.intersection(*(_cards(x) for x in views))
        assert _cards(pv) <= seen_by_all, (name, moves, _cards(pv) - seen_by_all)
        for key in ("trick", "scores", "hand_number", "phase", "to_act", "hand_counts"):
            assert pv[key] == views[0][key], key
        assert pv["visible_hands"] == {} or all(
            set(c) <= seen_by_all for c in pv["visible_hands"].values()
        )
        assert sorted(pv["seat_order"]) == list(range(n)) and pv["seat_order"][0] == 0
        if g.is_over:
            break
        s = g.to_act if g.to_act is not None else min(g.waiting_for)
        g.apply(bots[s].choose(g.view(s)), s)
        moves += 1


def test_hidden_bids_stay_hidden_from_spectators() -> None:
    """Simultaneous bids: a bid made is hidden until every seat has bid."""
    v = cardrules.load("oh-hell-fists")
    g = cardrules.Game(v, 4, seed=3)
    waiting = sorted(g.waiting_for)
    assert len(waiting) > 1
    s = waiting[0]
    g.apply(g.legal_actions(s)[0], s)
    pv = public_view(g)
    assert pv["bid_made"][s] and pv["bids"][s] is None
    assert g.view(s).to_dict()["bids"][s] is not None


# --------------------------------------------------------------------------- a hub without sockets


def _hub(tmp: Path | None, clock: Any = None, **limits: Any) -> Hub:
    return Hub(
        {"oh-hell-short": cardrules.load("oh-hell-short"), "kazhutha": cardrules.load("kazhutha")},
        tmp,
        Limits(**limits),
        **({} if clock is None else {"clock": clock}),
    )


def _play_human(hub: Hub, c: Client, moves: int) -> None:
    table = hub.tables[c.table or ""]
    for _ in range(moves):
        legal = table.game.legal_actions(c.seat)
        if not legal:
            return
        hub.handle(c, json.dumps({"type": "act", "action": legal[-1].id}))


def test_saves_restore_the_tables_exactly(tmp_path: Path) -> None:
    async def first() -> tuple[str, str, str, int]:
        hub = _hub(tmp_path)
        c = Client(hub.limits)
        hub.connect(c)
        seats = ["human", "heuristic", "random", "human"]
        hub.handle(c, json.dumps({"type": "create", "variant": "kazhutha", "seats": seats}))
        msgs = _drain(c)
        token = next(m for m in msgs if m["type"] == "joined")["token"]
        tid = next(m for m in msgs if m["type"] == "created")["table"]
        await _settle(hub)
        _play_human(hub, c, 1)
        await _settle(hub)
        table = hub.tables[tid]
        return tid, token, table.game.to_json(), table.version

    tid, token, saved_game, version = asyncio.run(first())
    path = tmp_path / (tid + SAVE_SUFFIX)
    log = tmp_path / (tid + LOG_SUFFIX)
    # The snapshot and the log, and no temporary file left.
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name, log.name]
    for p in (path, log):
        assert (p.stat().st_mode & 0o777) == 0o600  # the save holds the seed
        assert token not in p.read_text(encoding="utf-8")  # only the token's hash

    async def second() -> None:
        hub = _hub(tmp_path)
        assert hub.restore() == []
        hub.start()
        table = hub.tables[tid]
        assert table.game.to_json() == saved_game and table.version == version
        c = Client(hub.limits)
        hub.connect(c)
        hub.handle(c, json.dumps({"type": "join", "table": tid, "token": token}))
        msgs = _drain(c)
        assert [m["type"] for m in msgs] == ["hello", "joined", "state"]
        assert msgs[1]["seat"] == 0 and msgs[2]["version"] == version
        # The seat's other human is free; seat 0 is not.
        d = Client(hub.limits)
        hub.connect(d)
        hub.handle(d, json.dumps({"type": "join", "table": tid, "seat": 0}))
        assert _drain(d)[-1]["code"] == "seat_taken"
        await hub.stop()

    asyncio.run(second())


def test_restore_skips_what_it_cannot_trust(tmp_path: Path) -> None:
    async def make() -> str:
        hub = _hub(tmp_path)
        c = Client(hub.limits)
        hub.connect(c)
        hub.handle(
            c,
            json.dumps(
                {"type": "create", "variant": "oh-hell-short", "seats": ["human", *["random"] * 3]}
            ),
        )
        tid = next(m for m in _drain(c) if m["type"] == "created")["table"]
        await _settle(hub)
        return tid

    good = asyncio.run(make())
    data = json.loads((tmp_path / (good + SAVE_SUFFIX)).read_text(encoding="utf-8"))
    bad: dict[str, str] = {
        "a" * 12: "not json at all",
        "b" * 12: json.dumps({**data, "id": "b" * 12, "variant": "kachuful"}),  # not offered
        "c" * 12: json.dumps({**data, "id": "c" * 12, "variant": "kazhutha"}),  # other rules
        "d" * 12: json.dumps({**data, "id": "e" * 12}),  # id and file name differ
        "f" * 12: json.dumps({**data, "id": "f" * 12, "seats": data["seats"][:2]}),
        "0" * 12: json.dumps({**data, "id": "0" * 12, "version": -1}),
    }
    for tid, text in bad.items():
        (tmp_path / (tid + SAVE_SUFFIX)).write_text(text, encoding="utf-8")
    hub = _hub(tmp_path)
    warnings = hub.restore()
    assert set(hub.tables) == {good}
    assert len(warnings) == len(bad)
    assert all("not restored" in w for w in warnings)
    assert any("not offered" in w for w in warnings)


def test_a_failing_bot_does_not_stop_its_table(tmp_path: Path) -> None:
    class Broken:
        def choose(self, view: object) -> Action:
            raise RuntimeError("bug")

    async def main() -> None:
        hub = _hub(tmp_path)
        c = Client(hub.limits)
        hub.connect(c)
        hub.handle(
            c, json.dumps({"type": "create", "variant": "kazhutha", "seats": ["random"] * 4})
        )
        tid = next(m for m in _drain(c) if m["type"] == "created")["table"]
        table = hub.tables[tid]
        table.bots[2] = Broken()
        await _settle(hub)
        assert table.game.is_over

    asyncio.run(main())


def test_rate_limit_and_slow_readers() -> None:
    now = [0.0]
    lim = Limits(rate=2.0, burst=3, max_queue=4)

    async def main() -> None:
        c = Client(lim, clock=lambda: now[0])
        assert [c.take_token() for _ in range(4)] == [True, True, True, False]
        now[0] += 1.0  # two more
        assert [c.take_token() for _ in range(3)] == [True, True, False]
        slow = Client(lim)
        for i in range(10):
            slow.send({"i": i})
        assert slow.closing and slow.close_code == 1008
        assert slow.outbox.qsize() == 5

    asyncio.run(main())


def test_finished_tables_make_room(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, max_tables=1)
        c = Client(hub.limits)
        hub.connect(c)
        create = {"type": "create", "variant": "kazhutha", "seats": ["random"] * 4}
        hub.handle(c, json.dumps(create))
        first = next(m for m in _drain(c) if m["type"] == "created")["table"]
        hub.handle(c, json.dumps({**create, "seats": ["human", *["random"] * 3]}))
        # The first table is still being played by its bots, or watched by c.
        msgs = _drain(c)
        if hub.tables[first].game.is_over and not hub.tables[first].clients:
            assert any(m["type"] == "created" for m in msgs)
        else:
            assert msgs[-1]["code"] == "server_full"
            await _settle(hub)
            hub.handle(c, json.dumps({"type": "leave"}))
            _drain(c)
            hub.handle(c, json.dumps({**create, "seats": ["human", *["random"] * 3]}))
            assert any(m["type"] == "created" for m in _drain(c))
        assert first not in hub.tables
        assert not (tmp_path / (first + SAVE_SUFFIX)).exists()
        await hub.stop()

    asyncio.run(main())


def test_one_seat_per_connection_and_floods_are_cut(tmp_path: Path) -> None:
    async def main() -> None:
        hub = _hub(tmp_path, rate=1.0, burst=2)
        c = Client(hub.limits)
        hub.connect(c)
        seats = ["human", "human", "random", "random"]
        hub.handle(c, json.dumps({"type": "create", "variant": "kazhutha", "seats": seats}))
        tid = next(m for m in _drain(c) if m["type"] == "created")["table"]
        hub.handle(c, json.dumps({"type": "join", "table": tid, "seat": 1}))
        assert _drain(c)[-1]["code"] == "already_seated"
        assert hub.tables[tid].seats[1].token_hash is None
        flood = Client(hub.limits)
        hub.connect(flood)
        for _ in range(300):
            hub.handle(flood, '{"type": "ping"}')
        assert flood.closing and flood.close_code == 1008
        await hub.stop()

    asyncio.run(main())


MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "join", "watch", "create", "state", "leave", "tables", "x"])},
    optional={
        "action": st.one_of(
            st.integers(-5, 300),
            st.text(max_size=12),
            st.dictionaries(
                st.sampled_from(["id", "label"]), st.integers(-1, 300) | st.text(max_size=5)
            ),
            st.none(),
            st.booleans(),
            st.just("LEGAL"),
            st.integers(min_value=2**53) | st.floats(),  # huge, NaN, Infinity
        ),
        "seat": st.one_of(st.integers(-2, 5), st.booleans(), st.text(max_size=3)),
        "table": st.sampled_from(["T", "nope", "", "0" * 12]),
        "token": st.text(max_size=40),
        "version": st.one_of(st.integers(-1, 50), st.floats(), st.text(max_size=3)),
        "variant": st.sampled_from(["kazhutha", "oh-hell", "../x", ""]),
        "seats": st.lists(st.sampled_from(["human", "random", "robot", ""]), max_size=9),
        "name": st.text(max_size=40) | st.just("ann\ud800"),  # with a lone surrogate
        "ref": st.one_of(
            st.text(max_size=70),
            st.sampled_from(["a\udc00b", "\ud83d"]),  # lone surrogates
            st.integers(),
            st.lists(st.integers(), max_size=2),
        ),
    },
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(st.builds(lambda: {"type": "act", "action": "LEGAL"}), MESSAGES), max_size=12
    )
)
def test_any_message_is_answered_and_only_a_legal_move_changes_a_game(
    messages: list[dict[str, Any]],
) -> None:
    """Whatever a seated client sends, the hub answers without raising, a
    refused message leaves the game as it was, and the client never learns
    another seat's cards."""

    async def main() -> None:
        hub = Hub({"kazhutha": cardrules.load("kazhutha")}, None, Limits(rate=1e6, burst=10**6))
        c = Client(hub.limits)
        hub.connect(c)
        seats = ["human", "random", "heuristic", "random"]
        hub.handle(c, json.dumps({"type": "create", "variant": "kazhutha", "seats": seats}))
        tid = next(m for m in _drain(c) if m["type"] == "created")["table"]
        table = hub.tables[tid]
        for msg in messages:
            await _settle(hub)  # the bots move up to the human's turn
            _drain(c)
            if msg.get("table") == "T":
                msg["table"] = tid
            if msg.get("action") == "LEGAL":  # a legal move of the client's seat, if any
                legal = table.game.legal_actions(c.seat) if c.seat is not None else ()
                msg["action"] = legal[0].id if legal else 0
            before = table.game.to_json()
            seat, version = c.seat, table.version
            hub.handle(c, json.dumps(msg))
            for i in range(c.outbox.qsize()):  # every message can go out as UTF-8
                text = c.outbox._queue[i]  # type: ignore[attr-defined]
                assert text is None or text.encode("utf-8")
            out = _drain(c)
            assert out, msg  # every message gets an answer
            if any(m["type"] == "error" for m in out):
                assert table.game.to_json() == before and table.version == version
            if table.version != version:
                assert msg["type"] == "act" and seat is not None
            if c.seat is not None and not table.game.is_over:
                others = set()
                for s in range(4):
                    if s != c.seat:
                        others |= {str(x) for x in table.game.hand(s)}
                for m in out:
                    if m["type"] == "state":
                        shown = set(m["view"]["hand"] or []) | _cards(m["view"]["legal_actions"])
                        assert not shown & others
            if c.closing:
                break

    asyncio.run(main())


def test_bots_play_on_after_a_restore(tmp_path: Path) -> None:
    """A table saved while a bot was to move is finished by its bots after a restore."""

    async def first() -> tuple[str, int]:
        hub = _hub(tmp_path)
        c = Client(hub.limits)
        hub.connect(c)
        create = {"type": "create", "variant": "oh-hell-short", "seats": ["random"] * 4}
        hub.handle(c, json.dumps(create))
        tid = next(m for m in _drain(c) if m["type"] == "created")["table"]
        table = hub.tables[tid]
        while table.version < 30:
            await asyncio.sleep(0)
        await hub.stop()  # as a server going down between two bot moves
        assert not table.game.is_over
        return tid, table.version

    tid, version = asyncio.run(first())

    async def second() -> None:
        hub = _hub(tmp_path)
        assert hub.restore() == []
        assert hub.tables[tid].version == version
        hub.start()
        await _settle(hub)
        assert hub.tables[tid].game.is_over and hub.tables[tid].version > version

    asyncio.run(second())


def test_states_carry_the_seats_event_tails_and_state_since(tmp_path: Path) -> None:
    """Each state carries the entries of the client's stream it has not had
    (``events_from`` is where they go); they add up to ``events_for(seat)``;
    ``{"type": "state", "since": N}`` asks for the rest after N, and a bad N is
    refused."""

    async def run() -> None:
        hub = _hub(tmp_path)
        c = Client(hub.limits)
        hub.connect(c)
        seats = ["human", "random", "random", "random"]
        hub.handle(c, json.dumps({"type": "create", "variant": "oh-hell-short", "seats": seats}))
        await _settle(hub)
        got: list[dict[str, Any]] = []
        for _ in range(6):
            _play_human(hub, c, 1)
            await _settle(hub)
        states = [m for m in _drain(c) if m["type"] == "state"]
        assert len(states) > 3
        for m in states:
            assert m["events_from"] == len(got)
            got += m["events"]
        game = next(iter(hub.tables.values())).game
        assert got == [ev.to_dict() for ev in game.events_for(0)]
        assert got[-1]["version"] == game.version == states[-1]["view"]["version"]
        hub.handle(c, json.dumps({"type": "state", "since": 2}))
        (again,) = [m for m in _drain(c) if m["type"] == "state"]
        assert again["events_from"] == 2 and again["events"] == got[2:]
        hub.handle(c, json.dumps({"type": "state", "since": len(got) + 1}))
        assert _drain(c)[-1]["code"] == "bad_message"
        await hub.stop()

    asyncio.run(run())


# --------------------------------------------------------------------------- issue 21: hardening


def _created(c: Client) -> str:
    msgs = _drain(c)
    return str(next(m for m in msgs if m["type"] == "created")["table"])


def test_in_a_simultaneous_pass_no_move_is_stale_but_a_truly_stale_one_is() -> None:
    """Issue 21 item 3: in the Hearts pass all four seats choose at once, each
    sending the version of the state it decided on while the others' choices
    cross its own; none is refused. A move sent on a state from before what
    its seat may do changed (the pass over, the play begun) is still ``stale``."""

    async def main() -> None:
        hub = Hub({"hearts": cardrules.load("hearts")}, None, Limits(rate=1e6, burst=10**6))
        clients = [Client(hub.limits) for _ in range(4)]
        for c in clients:
            hub.connect(c)
        create = {"type": "create", "variant": "hearts", "seats": ["human"] * 4}
        hub.handle(clients[0], json.dumps(create))
        tid = _created(clients[0])
        for s in (1, 2, 3):
            hub.handle(clients[s], json.dumps({"type": "join", "table": tid, "seat": s}))
        table = hub.tables[tid]
        assert table.game.waiting_for == {0, 1, 2, 3}  # the pass: all at once
        last: list[dict[str, Any]] = [{} for _ in range(4)]
        refused: list[dict[str, Any]] = []
        before_play: list[int] = [0] * 4
        for _ in range(3):  # three cards each
            # Every seat decides on the latest state it has, then the moves cross.
            for s, c in enumerate(clients):
                hub.handle(c, json.dumps({"type": "state"}))
                states = [m for m in _drain(c) if m["type"] == "state"]
                last[s] = states[-1]
            for s, c in enumerate(clients):
                before_play[s] = last[s]["version"]
                legal = last[s]["view"]["legal_actions"]
                move = {"type": "act", "action": legal[0]["id"], "version": last[s]["version"]}
                hub.handle(c, json.dumps(move))
                refused += [m for m in _drain(c) if m["type"] == "error"]
        assert refused == []
        assert table.version == 12 and not table.game.waiting_for >= {0, 1, 2, 3}
        # The pass is over: the seat to lead acting on its state from the pass is stale.
        lead = table.game.to_act
        assert lead is not None
        legal = table.game.legal_actions(lead)
        before = table.game.to_json()
        move = {"type": "act", "action": legal[0].id, "version": before_play[lead]}
        hub.handle(clients[lead], json.dumps(move))
        out = _drain(clients[lead])
        errors = [m for m in out if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["stale"]
        assert any(m["type"] == "state" for m in out)  # the new state comes with it
        assert table.game.to_json() == before and table.version == 12
        # A version from the future is stale too; the current one is taken.
        hub.handle(clients[lead], json.dumps({**move, "version": 13}))
        assert _drain(clients[lead])[-1]["code"] == "stale"
        hub.handle(clients[lead], json.dumps({**move, "version": 12}))
        assert table.version == 13

    asyncio.run(main())


def test_strangers_who_create_tables_and_leave_do_not_lock_the_server() -> None:
    """Issue 21 item 8: a handful of connections from one address created
    table after table and left. Tables per connection and per address are
    bounded, a table nobody has been at for ``abandoned_after`` seconds is
    reaped (finished or not, its save removed), and a new player's ``create``
    is then served."""
    clock = ManualClock()

    async def main() -> None:
        hub = _hub(
            None,
            clock=clock,
            max_tables=6,
            max_tables_per_client=2,
            max_tables_per_address=4,
            abandoned_after=300.0,
        )
        create = {"type": "create", "variant": "kazhutha", "seats": ["human", *["random"] * 3]}
        codes: list[str] = []
        made: list[str] = []
        for _ in range(5):  # a handful of connections from one address
            c = Client(hub.limits, address="203.0.113.9")
            assert hub.connect(c)
            for _ in range(3):
                hub.handle(c, json.dumps(create))
                for m in _drain(c):
                    if m["type"] == "created":
                        made.append(m["table"])
                    elif m["type"] == "error":
                        codes.append(m["code"])
            hub.disconnect(c)
        assert len(made) == 4 and set(codes) == {"too_many_tables"}
        # Two more addresses fill the server.
        for addr in ("198.51.100.1", "198.51.100.2"):
            c = Client(hub.limits, address=addr)
            hub.connect(c)
            hub.handle(c, json.dumps(create))
            made.append(_created(c))
            hub.disconnect(c)
        assert len(hub.tables) == 6
        # A new player, a little later: the tables were left only a minute ago.
        clock.advance(60)
        newcomer = Client(hub.limits, address="192.0.2.7")
        hub.connect(newcomer)
        hub.handle(newcomer, json.dumps(create))
        assert _drain(newcomer)[-1]["code"] == "server_full"
        # A table someone is at is never reaped, however long.
        keeper = Client(hub.limits, address="198.51.100.1")
        hub.connect(keeper)
        hub.handle(keeper, json.dumps({"type": "watch", "table": made[-1]}))
        _drain(keeper)
        # Past abandoned_after, the abandoned tables are reaped on demand...
        clock.advance(241)
        hub.handle(newcomer, json.dumps(create))
        assert any(m["type"] == "created" for m in _drain(newcomer))
        newcomer_table = newcomer.table
        assert set(hub.tables) == {made[-1], newcomer_table}
        # ... and by the hub's own reaping, once it runs.
        hub.disconnect(newcomer)
        clock.advance(300)
        expected = [t for t in hub.tables if t != made[-1]]
        assert hub.reap() == expected == [newcomer_table]
        assert set(hub.tables) == {made[-1]}
        # The address's unfinished tables are gone: it may create again.
        again = Client(hub.limits, address="203.0.113.9")
        hub.connect(again)
        hub.handle(again, json.dumps(create))
        assert any(m["type"] == "created" for m in _drain(again))
        await hub.stop()

    asyncio.run(main())


def test_reaping_removes_saves_and_runs_by_itself(tmp_path: Path) -> None:
    """A reaped table's save goes, and a started hub reaps without being asked."""
    clock = ManualClock()

    async def main() -> None:
        hub = _hub(tmp_path, clock=clock, abandoned_after=0.5)
        c = Client(hub.limits)
        hub.connect(c)
        create = {"type": "create", "variant": "kazhutha", "seats": ["human", *["random"] * 3]}
        hub.handle(c, json.dumps(create))
        tid = _created(c)
        assert (tmp_path / (tid + SAVE_SUFFIX)).exists()
        hub.start()
        hub.disconnect(c)
        clock.advance(0.4)
        assert tid in hub.tables  # left less than abandoned_after ago
        clock.advance(0.2)
        assert tid not in hub.tables
        assert not (tmp_path / (tid + SAVE_SUFFIX)).exists()
        await hub.stop()

    asyncio.run(main())


def test_connections_per_address_are_bounded() -> None:
    async def main() -> None:
        hub = _hub(None, max_clients_per_address=2)
        a, b, c = (Client(hub.limits, address="192.0.2.1") for _ in range(3))
        assert hub.connect(a) and hub.connect(b)
        assert not hub.connect(c) and "your address" in c.close_reason
        assert hub.connect(Client(hub.limits, address="192.0.2.2"))
        hub.disconnect(a)
        assert hub.connect(c)

    asyncio.run(main())


def test_spectators_never_lock_a_seat_out() -> None:
    """Issue 21 item 9: a crowd of spectators fills a table's spectator limit;
    its seated owner rejoins with its token, and a newcomer takes a free seat;
    only one more spectator is refused (``table_full``)."""

    async def main() -> None:
        hub = _hub(None)
        owner = Client(hub.limits)
        hub.connect(owner)
        seats = ["human", "human", "random", "random"]
        hub.handle(owner, json.dumps({"type": "create", "variant": "kazhutha", "seats": seats}))
        msgs = _drain(owner)
        tid = next(m for m in msgs if m["type"] == "created")["table"]
        token = next(m for m in msgs if m["type"] == "joined")["token"]
        hub.disconnect(owner)  # a lost connection
        crowd = [Client(hub.limits) for _ in range(32)]
        for w in crowd:
            hub.connect(w)
            hub.handle(w, json.dumps({"type": "watch", "table": tid}))
            assert _drain(w)[-2]["type"] == "watching"
        back = Client(hub.limits)
        hub.connect(back)
        hub.handle(back, json.dumps({"type": "join", "table": tid, "token": token}))
        assert [m["type"] for m in _drain(back)] == ["hello", "joined", "state"]
        newcomer = Client(hub.limits)
        hub.connect(newcomer)
        hub.handle(newcomer, json.dumps({"type": "join", "table": tid, "seat": 1}))
        assert [m["type"] for m in _drain(newcomer)][1] == "joined"
        late = Client(hub.limits)
        hub.connect(late)
        hub.handle(late, json.dumps({"type": "watch", "table": tid}))
        assert _drain(late)[-1]["code"] == "table_full"
        assert late.table is None
        await hub.stop()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ('{"type": "ping", "x": NaN}', "bad_message"),
        ('{"type": "ping", "x": Infinity}', "bad_message"),
        ('{"type": "ping", "x": -Infinity}', "bad_message"),
        ('{"type": "ping", "x": 1e999}', "bad_message"),
        ('{"type": "act", "action": ' + "7" * 4301 + "}", "bad_message"),
        ('{"type": "act", "action": ' + "7" * 4300 + "}", "bad_message"),
        ('{"type": "act", "action": {"id": ' + "7" * 4000 + ', "label": "x"}}', "bad_message"),
        ('{"type": "act", "version": ' + "7" * 4000 + ', "action": 0}', "bad_message"),
        ('{"type": "ping", "ref": "a\\udc00b"}', "bad_message"),
        ('{"type": "act", "action": "play \\ud800"}', "bad_message"),
        ('{"type": "join", "table": "T", "seat": 1, "name": "\\ud83d"}', "bad_message"),
        ('{"type": "ping", "ref": "\ud800"}', "bad_message"),  # a str that is not UTF-8
        ("[" * 4000 + "]" * 4000, "bad_json"),
        ('{"type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}", "bad_json"),
        (b'{"type": "ping", "x": "\xff"}', "bad_json"),
    ],
)
def test_hostile_numbers_surrogates_and_nesting_are_refused_at_once(
    raw: str | bytes, code: str
) -> None:
    """Issue 21 item 10: NaN, Infinity, a huge number, a lone surrogate, a deep
    nesting: each is refused with its code within milliseconds, nothing that
    cannot be sent goes out, and the connection plays on."""
    import time

    async def main() -> None:
        hub = _hub(None)
        c = Client(hub.limits)
        hub.connect(c)
        seats = ["human", "human", "random", "random"]
        hub.handle(c, json.dumps({"type": "create", "variant": "kazhutha", "seats": seats}))
        tid = _created(c)
        text = raw.replace('"T"', json.dumps(tid)) if isinstance(raw, str) else raw
        started = time.perf_counter()
        hub.handle(c, text)
        took = time.perf_counter() - started
        out = [c.outbox.get_nowait() for _ in range(c.outbox.qsize())]
        assert all(t is not None for t in out) and not c.closing
        for t in out:
            assert t is not None
            t.encode("utf-8")  # every message can go out
        (error,) = [json.loads(t) for t in out if t is not None]
        assert error["type"] == "error" and error["code"] == code, error
        assert "ref" not in error
        assert took < 0.5
        hub.handle(c, '{"type": "ping", "ref": 1}')
        assert _drain(c) == [{"type": "pong", "ref": 1}]
        assert hub.tables[tid].version == 0
        await hub.stop()

    asyncio.run(main())


def test_restore_skips_hostile_files_and_serves_the_good_tables(tmp_path: Path) -> None:
    """Issue 21 item 12: a table file nested 5,000 deep, one whose ``created``
    is a 400-digit number, a FIFO, a device and more are each skipped with a
    warning; the good table is restored; the temporary files of cut-short
    saves are removed."""
    import os

    async def make() -> tuple[str, str]:
        hub = _hub(tmp_path)
        c = Client(hub.limits)
        hub.connect(c)
        create = {"type": "create", "variant": "kazhutha", "seats": ["human", *["random"] * 3]}
        hub.handle(c, json.dumps(create))
        tid = _created(c)
        await _settle(hub)
        await hub.stop()
        return tid, hub.tables[tid].game.to_json()

    good, good_game = asyncio.run(make())
    text = (tmp_path / (good + SAVE_SUFFIX)).read_text(encoding="utf-8")
    data = json.loads(text)

    def variant(tid: str, **changes: Any) -> str:
        return json.dumps({**data, "id": tid, **changes}, ensure_ascii=False)

    bad = {
        "1" * 12: '{"a": ' + "[" * 5000 + "]" * 5000 + "}",
        "2" * 12: variant("2" * 12).replace(
            '"created": ', '"created": ' + "9" * 400 + ', "x": ', 1
        ),
        "3" * 12: variant("3" * 12).replace(f'"created": {data["created"]}', '"created": 1e999'),
        "4" * 12: variant("4" * 12, created=None).replace('"created": null', '"created": NaN'),
        "5" * 12: variant(
            "5" * 12, seats=[{**data["seats"][0], "name": "@@"}, *data["seats"][1:]]
        ).replace('"@@"', '"\\ud800"'),
        "6" * 12: '{"format": "cardrules-server-table", "id": ' + "[" * 900 + "]" * 900 + "}",
        "7" * 12: variant("7" * 12, game='{"x": ' + "[" * 3000 + "]" * 3000 + "}"),
        "8" * 12: b"\xff\xfe not UTF-8",
    }
    for tid, content in bad.items():
        path = tmp_path / (tid + SAVE_SUFFIX)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    os.mkfifo(tmp_path / ("9" * 12 + SAVE_SUFFIX))
    (tmp_path / ("a" * 12 + SAVE_SUFFIX)).symlink_to("/dev/zero")
    (tmp_path / ("b" * 12 + SAVE_SUFFIX)).mkdir()
    stale = [tmp_path / f".{good}.4242.tmp", tmp_path / ".cafe00000000.77.tmp"]
    for t in stale:
        t.write_text(text[: len(text) // 2], encoding="utf-8")  # cut short by a kill -9
    keep = tmp_path / "notes.tmp"  # not a hidden temporary file of a save
    keep.write_text("x", encoding="utf-8")

    async def again() -> None:
        hub = _hub(tmp_path)
        warnings = hub.restore()
        assert set(hub.tables) == {good}
        assert len(warnings) == len(bad) + 3, warnings
        assert all("not restored" in w for w in warnings)
        assert not any(t.exists() for t in stale) and keep.exists()
        # The good table as it was: its snapshot and the moves of its log.
        assert hub.tables[good].game.to_json() == good_game

    asyncio.run(again())
