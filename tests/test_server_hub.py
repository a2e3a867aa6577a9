"""The server's rules side without a network (cardrules.server.hub): the
spectator view, saves and restores, bots, and the bounds on clients."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

import cardrules
from cardrules.bots import make_bot
from cardrules.dsl import builtin_names
from cardrules.engine.actions import Action
from cardrules.server.hub import SAVE_SUFFIX, Client, Hub, Limits, public_view

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


def _drain(c: Client) -> list[dict[str, Any]]:
    out = []
    while not c.outbox.empty():
        text = c.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def _settle(hub: Hub) -> None:
    """Let the bot tasks run until every table waits for a human (or is over)."""
    for _ in range(10_000):
        tasks = [t.bot_task for t in hub.tables.values() if t.bot_task is not None]
        if all(t.done() for t in tasks):
            return
        await asyncio.sleep(0)
    raise AssertionError("the bots did not settle")


def _hub(tmp: Path, **limits: Any) -> Hub:
    return Hub(
        {"oh-hell-short": cardrules.load("oh-hell-short"), "kazhutha": cardrules.load("kazhutha")},
        tmp,
        Limits(**limits),
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
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    assert (path.stat().st_mode & 0o777) == 0o600  # the save holds the seed
    assert token not in path.read_text(encoding="utf-8")  # only the token's hash

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
