"""The reference server end to end (issue 13 item 8): a real server process,
real websocket clients, whole games, a kill and a restart, and no leaks.

The server runs as ``python -m cardrules.server`` on 127.0.0.1 with a port the
system picks (it prints the port). Test-driven "human" seats pick a legal
action from what the server sent them; bots play the other seats. Every wait
is on a message or a process, with generous time-outs (the machine may be slow
and loaded); there is no fixed sleep.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets", reason="the server extra: pip install -e '.[server]'")
pytest.importorskip("uvicorn", reason="the server extra: pip install -e '.[server]'")

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

import cardrules
from cardrules.errors import ERROR_CODES
from cardrules.server.hub import SAVE_SUFFIX
from cardrules.server.store import LOG_SUFFIX

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0  # for one message: generous, the machine may be loaded
CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


# --------------------------------------------------------------------------- the server process


class Server:
    """``python -m cardrules.server`` in a subprocess; ``url`` once it listens."""

    def __init__(self, save_dir: Path, *args: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
        self.log = save_dir.parent / f"server-{time.monotonic_ns()}.log"
        with self.log.open("wb") as err:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cardrules.server",
                    "--save-dir",
                    str(save_dir),
                    "--port",
                    "0",
                    *args,
                ],
                stdout=subprocess.PIPE,
                stderr=err,
                cwd=ROOT,
                env=env,
            )
        self.url = self._wait_for_port()

    def _wait_for_port(self) -> str:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + TIMEOUT
        line = b""
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            ready, _, _ = select.select([self.proc.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1)
                if not chunk:
                    break
                line += chunk
        m = re.search(rb"ws://127\.0\.0\.1:(\d+)/ws", line)
        if m is None:
            self.kill()
            raise AssertionError(f"the server did not start: {line!r}\n{self.log.read_text()}")
        return f"ws://127.0.0.1:{int(m.group(1))}/ws"

    def kill(self) -> None:
        """SIGKILL: no chance to tidy up (the saves must already be whole)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=TIMEOUT)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """The servers a test starts; every one is killed at the end."""
    started: list[Server] = []
    yield started
    for s in started:
        s.kill()


# --------------------------------------------------------------------------- clients


async def recv(ws: ClientConnection) -> dict[str, Any]:
    raw = await asyncio.wait_for(ws.recv(), TIMEOUT)
    assert isinstance(raw, str)
    msg = json.loads(raw)
    assert isinstance(msg, dict)
    return msg


async def recv_type(ws: ClientConnection, kind: str, log: list[dict[str, Any]]) -> dict[str, Any]:
    """The next message of ``kind`` (others are logged on the way)."""
    while True:
        msg = await recv(ws)
        log.append(msg)
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


async def send(ws: ClientConnection, **msg: Any) -> None:
    await ws.send(json.dumps(msg, ensure_ascii=False))


@dataclass
class Human:
    """A test-driven seat: it plays a random legal action from each state it is sent."""

    table: str
    seat: int
    token: str
    rng: random.Random
    log: list[dict[str, Any]] = field(default_factory=list)
    acted: int = -1
    actions: int = 0

    async def play(self, ws: ClientConnection, hold_from: int | None, held: asyncio.Event) -> str:
        """Play until the game is over ("over"), until this seat must act at
        version ``hold_from`` or later ("held"), or until the server goes ("closed")."""
        try:
            while True:
                msg = await recv(ws)
                self.log.append(msg)
                assert msg["type"] != "error", msg
                if msg["type"] != "state":
                    continue
                view = msg["view"]
                if view["result"] is not None:
                    return "over"
                legal = view["legal_actions"]
                if legal and msg["version"] > self.acted:
                    if hold_from is not None and msg["version"] >= hold_from:
                        held.set()
                        return "held"
                    a = self.rng.choice(legal)
                    # By id, by its object and by its text, in turn.
                    wire: Any = (a["id"], a, a["label"])[self.actions % 3]
                    self.actions += 1
                    self.acted = msg["version"]
                    await send(ws, type="act", action=wire, version=msg["version"])
        except ConnectionClosed:
            return "closed"


async def watch(ws: ClientConnection, log: list[dict[str, Any]]) -> str:
    try:
        while True:
            msg = await recv(ws)
            log.append(msg)
            if msg["type"] == "state" and msg["view"]["result"] is not None:
                return "over"
    except ConnectionClosed:
        return "closed"


# --------------------------------------------------------------------------- the truth, from a save


@dataclass
class Truth:
    """What each seat held and when each card became public, from a finished
    game's full log (the final save)."""

    deals: dict[int, tuple[frozenset[str], ...]]
    public: dict[int, list[tuple[int, str]]]  # hand -> (version played, card)
    looked: dict[tuple[int, int], int]  # (hand, seat) -> version of its first look or bid
    own_plays: dict[tuple[int, int], list[tuple[int, str]]]
    moves: int

    @classmethod
    def of(cls, game: cardrules.Game) -> Truth:
        deals: dict[int, tuple[frozenset[str], ...]] = {}
        public: dict[int, list[tuple[int, str]]] = {}
        looked: dict[tuple[int, int], int] = {}
        own: dict[tuple[int, int], list[tuple[int, str]]] = {}
        version = 0
        hand = 0
        for ev in game.events:
            kind = ev[0]
            if kind == "deal":
                hand = ev[1]
                deals[hand] = tuple(frozenset(str(c) for c in cs) for cs in ev[4])
                public[hand] = []
            elif kind in ("look", "bid", "amend", "play"):
                version += 1
                seat = ev[1]
                if kind in ("look", "bid"):
                    looked.setdefault((hand, seat), version)
                if kind == "play":
                    public[hand].append((version, str(ev[2])))
                    own.setdefault((hand, seat), []).append((version, str(ev[2])))
        return cls(deals, public, looked, own, version)

    def public_at(self, hand: int, version: int) -> set[str]:
        return {c for v, c in self.public.get(hand, []) if v <= version}


def check_no_leak(
    truth: Truth,
    seat: int | None,
    log: list[dict[str, Any]],
    *,
    tricks: bool,
    blind: bool,
    stream: list[dict[str, Any]] | None = None,
) -> int:
    """Every card a client was sent is its own or public at that moment.

    For a seat: every card text in every state message is in the seat's deal
    of that hand or was played in that hand by then (or is the card turned up
    for trumps); its ``hand`` is exactly its deal less its own plays (trick
    games), or within its deal and the cards played (a shedding game's pickups);
    ``hand`` is shown once the seat has looked or bid, and hidden before
    (in a blind-bidding game).
    For a spectator (``seat`` None): only cards played by then, and no hand.
    Between hands, ``last_trick`` and ``last_hand`` show the hand before's last
    trick (public then). The ``events`` tails, each appended at ``events_from``
    (0: start again, a new connection), add up to ``stream``: the seat's own
    stream, whose secrecy the engine's property tests check.
    Other messages carry no card at all. Returns how many states were checked.
    """
    states = 0
    got: list[dict[str, Any]] = []
    for msg in log:
        if msg["type"] != "state":
            # The variant's text (``rules``, in joined and watching) is public.
            shown = {k: v for k, v in msg.items() if k != "rules"}
            assert not CARD.search(json.dumps(shown, ensure_ascii=False)), msg
            continue
        msg = dict(msg)
        start, tail = msg.pop("events_from"), msg.pop("events")
        assert start in (0, len(got)), (start, len(got))
        got = got[:start] + tail
        states += 1
        assert msg["seat"] == seat
        view = msg["view"] = dict(msg["view"])
        h, v = view["hand_number"], msg["version"]
        if view["last_hand"] is not None:
            before = truth.public_at(h - 1, v) | truth.public_at(h, v)
            shown = json.dumps([view.pop("last_hand"), view.pop("last_trick")])
            assert set(CARD.findall(shown)) <= before, (seat, v, shown)
        text = json.dumps(msg, ensure_ascii=False)
        if view["result"] is not None:
            continue  # the final state: the last hand is over and every card is out
        public = truth.public_at(h, v)
        allowed = set(public)
        if view["turned_up"] is not None:
            allowed.add(view["turned_up"])
        if seat is not None:
            allowed |= truth.deals[h][seat]
        for key in ("pack_removed",):
            for c in view[key]:
                allowed.add(c)
        leaked = set(CARD.findall(text)) - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at version {v}, hand {h}"
        assert view["visible_hands"] == {}
        if seat is None:
            assert view["hand"] is None and view["legal_actions"] == []
            continue
        hand = view["hand"]
        first_look = truth.looked.get((h, seat))
        if blind and view["phase"] == "bid":
            # A blind-bidding seat sees its cards only once it has looked or bid.
            unseen = first_look is None or v < first_look
            assert (hand is None) == unseen, msg
        if hand is None:
            assert blind, msg
            continue
        played = {c for pv, c in truth.own_plays.get((h, seat), []) if pv <= v}
        if tricks:
            assert set(hand) == truth.deals[h][seat] - played, (seat, v, hand)
        else:
            # A shedding seat may pick up cards played to a trick (its own too).
            assert set(hand) <= truth.deals[h][seat] | public, (seat, v, hand)
    if stream is not None:
        assert got == stream, "the event tails do not add up to the seat's stream"
    return states


# --------------------------------------------------------------------------- the test


# (variant as the server is told, key clients use, seats, whether a trick game)
TABLES = [
    ("oh-hell-short", "oh-hell-short", ["human", "heuristic", "human", "random"], True),
    # A file the operator passes: clients still name it, never its path.
    (
        str(ROOT / "variants" / "kazhutha.cardrules"),
        "kazhutha",
        ["human", "random", "heuristic", "human"],
        False,
    ),
    ("kachuful-blind", "kachuful-blind", ["heuristic", "human", "human"], True),
]
HOLD_FROM = 12  # each table stops at a human's turn from this version on, for the kill


def test_whole_games_with_a_kill_and_restart_and_no_leaks(
    tmp_path: Path, servers: list[Server]
) -> None:
    save_dir = tmp_path / "tables"
    args: list[str] = []
    for spec, _, _, _ in TABLES:
        args += ["--variant", spec]
    servers.append(Server(save_dir, *args))
    started = time.monotonic()

    humans: list[Human] = []
    spectator_log: list[dict[str, Any]] = []
    table_ids: list[str] = []

    async def first_half() -> None:
        conns: list[tuple[Human, ClientConnection]] = []
        watchers: list[ClientConnection] = []
        for i, (_, key, seats, _) in enumerate(TABLES):
            ws = await connect(servers[-1].url)
            hello = await recv(ws)
            assert hello["type"] == "hello" and key in {v["key"] for v in hello["variants"]}
            log: list[dict[str, Any]] = []
            await send(ws, type="create", variant=key, seats=seats, name=f"creator {i}")
            tid = (await recv_type(ws, "created", log))["table"]
            joined = await recv_type(ws, "joined", log)
            table_ids.append(tid)
            h = Human(tid, joined["seat"], joined["token"], random.Random(i * 10 + joined["seat"]))
            conns.append((h, ws))
            for s in [s for s, k in enumerate(seats) if k == "human" and s != joined["seat"]]:
                ws2 = await connect(servers[-1].url)
                await recv(ws2)
                await send(ws2, type="join", table=tid, seat=s, name=f"guest {s}")
                j2 = await recv_type(ws2, "joined", [])
                assert j2["seat"] == s
                conns.append((Human(tid, s, j2["token"], random.Random(i * 10 + s)), ws2))
        # A spectator at the shedding table.
        w = await connect(servers[-1].url)
        await recv(w)
        await send(w, type="watch", table=table_ids[1])
        watchers.append(w)
        humans.extend(h for h, _ in conns)
        held = {tid: asyncio.Event() for tid in table_ids}
        tasks = [asyncio.create_task(h.play(ws, HOLD_FROM, held[h.table])) for h, ws in conns]
        wtask = asyncio.create_task(watch(w, spectator_log))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in held.values())), 4 * TIMEOUT)
        # Every table now waits for a human who holds: kill the server mid-game.
        await asyncio.to_thread(servers[-1].kill)
        outcomes = await asyncio.wait_for(asyncio.gather(*tasks, wtask), TIMEOUT)
        assert set(outcomes) <= {"held", "closed"}, outcomes
        for _, ws in conns:
            await ws.close()
        await w.close()

    asyncio.run(first_half())
    saved = {p.name for p in save_dir.iterdir()}
    snapshots = {tid + SAVE_SUFFIX for tid in table_ids}
    # A snapshot and a log each, and no temporary file left.
    assert snapshots <= saved <= snapshots | {tid + LOG_SUFFIX for tid in table_ids}, saved
    # The version each table was held at: the newest state any of its clients saw.
    held_versions: dict[str, int] = {}
    for h in humans:
        seen = max(m["version"] for m in h.log if m["type"] == "state")
        held_versions[h.table] = max(seen, held_versions.get(h.table, 0))

    servers.append(Server(save_dir, *args))

    async def second_half() -> None:
        tasks = []
        for h in humans:
            ws = await connect(servers[-1].url)
            await recv(ws)
            await send(ws, type="join", table=h.table, token=h.token)
            joined = await recv_type(ws, "joined", h.log)
            assert joined["seat"] == h.seat and "token" not in joined
            tasks.append(asyncio.create_task(h.play(ws, None, asyncio.Event())))
        w = await connect(servers[-1].url)
        await recv(w)
        await send(w, type="watch", table=table_ids[1])
        outcomes = await asyncio.wait_for(
            asyncio.gather(*tasks, watch(w, spectator_log)), 6 * TIMEOUT
        )
        assert set(outcomes) == {"over"}, outcomes

    asyncio.run(second_half())

    # The first state after the restart is the state the table was held at.
    for h in humans:
        after = [m for m in h.log if m["type"] == "joined"]
        assert after
        i = h.log.index(after[-1])
        first = next(m for m in h.log[i:] if m["type"] == "state")
        assert first["version"] == held_versions[h.table]

    for i, (spec, key, _seats, tricks) in enumerate(TABLES):
        data = json.loads((save_dir / (table_ids[i] + SAVE_SUFFIX)).read_text(encoding="utf-8"))
        variant = cardrules.load(spec)
        game = cardrules.Game.from_json(data["game"], variant=variant)
        assert game.is_over and data["variant"] == key
        truth = Truth.of(game)
        assert truth.moves == data["version"]
        for h in humans:
            if h.table != table_ids[i]:
                continue
            final = [m for m in h.log if m["type"] == "state"][-1]
            assert final["view"]["result"] == game.result.to_dict() if game.result else False
            assert h.actions > 0
            blind = key == "kachuful-blind"
            mine = [ev.to_dict() for ev in game.events_for(h.seat)]
            assert check_no_leak(truth, h.seat, h.log, tricks=tricks, blind=blind, stream=mine) > 10
        if i == 1:
            seen = [ev.to_dict() for ev in game.events_for(None)]
            assert (
                check_no_leak(truth, None, spectator_log, tricks=False, blind=False, stream=seen)
                > 10
            )
        # Seat tokens are kept only as hashes.
        for h in humans:
            assert h.token not in json.dumps(data)
    assert time.monotonic() - started < 300


def test_kill_during_saves_loses_no_acknowledged_move_and_the_log_is_recovered(
    tmp_path: Path, servers: list[Server]
) -> None:
    """Bots play as fast as they can (the server is saving most of the time)
    and the server is killed with SIGKILL; a torn line is then added to the log
    and a temporary file of a snapshot left behind. The server flushes with
    group commit (a state waits for the flush of the saves before it). The
    restarted server holds every move any client was sent, from the snapshot
    and the log, and plays on."""
    save_dir = tmp_path / "tables"
    # With group commit (the other kill test flushes each move as it is made).
    servers.append(Server(save_dir, "--variant", "kachuful", "--group-commit"))

    async def first() -> tuple[str, int]:
        ws = await connect(servers[-1].url)
        await recv(ws)
        await send(ws, type="create", variant="kachuful", seats=["random"] * 4)
        tid = (await recv_type(ws, "created", []))["table"]
        seen = 0
        while seen < 90:
            msg = await recv(ws)
            if msg["type"] == "state":
                seen = max(seen, msg["version"])
        await asyncio.to_thread(servers[-1].kill)
        try:  # what the server sent before it died counts too
            while True:
                msg = await recv(ws)
                if msg["type"] == "state":
                    seen = max(seen, msg["version"])
        except ConnectionClosed:
            pass
        return tid, seen

    tid, seen = asyncio.run(first())
    snapshot = json.loads((save_dir / (tid + SAVE_SUFFIX)).read_text(encoding="utf-8"))
    log = save_dir / (tid + LOG_SUFFIX)
    entries = [
        json.loads(line)
        for line in log.read_bytes().splitlines(keepends=True)
        if line.endswith(b"\n")
    ]
    moves = [e for e in entries if e["n"] > snapshot["log_seq"] and e["op"] == "act"]
    # The snapshot and the moves of the log past it hold every move a client saw
    # (the log is empty only if the kill fell right after a snapshot).
    assert snapshot["version"] + len(moves) >= seen
    # A torn line (a write cut by a crash of the machine) and a stale temporary file.
    with log.open("ab") as f:
        f.write(b'{"n":999999,"op":"act","ar')
    (save_dir / f".{tid}.99999.tmp").write_text("half a snapshot")

    servers.append(Server(save_dir, "--variant", "kachuful"))

    async def second() -> None:
        ws = await connect(servers[-1].url)
        await recv(ws)
        await send(ws, type="watch", table=tid)
        first_state = await recv_type(ws, "state", [])
        assert first_state["version"] >= seen
        if first_state["view"]["result"] is None:  # the bots may have finished already
            assert await watch(ws, []) == "over"

    asyncio.run(second())
    assert not [p.name for p in save_dir.iterdir() if p.name.endswith(".tmp")]
    final = json.loads((save_dir / (tid + SAVE_SUFFIX)).read_text(encoding="utf-8"))
    game = cardrules.Game.from_json(final["game"], variant=cardrules.load("kachuful"))
    assert game.is_over and final["version"] == game.version
    assert log.read_bytes() == b""  # the end of the game is a snapshot


# --------------------------------------------------------------------------- seats that walk away


def test_a_timed_out_seat_is_played_by_a_bot_and_handed_back_at_a_private_table(
    tmp_path: Path, servers: list[Server]
) -> None:
    """Issue 21 item 6 over real websockets: a private table (not listed to a
    stranger, watched only with its code) whose human seat runs out of its
    decision time; the named bot plays for it, everyone is shown so, and
    ``resume`` gives the seat back to its player, who plays again."""
    servers.append(Server(tmp_path / "tables", "--variant", "oh-hell-short", "--bot-delay", "0.05"))
    url = servers[-1].url

    async def main() -> None:
        a = await connect(url)
        hello = await recv(a)
        v = cardrules.load("oh-hell-short")
        assert hello["variants"][0]["summary"] == v.summary
        log: list[dict[str, Any]] = []
        await send(
            a,
            type="create",
            variant="oh-hell-short",
            seats=["human", "random", "heuristic", "random"],
            turn_time=3,  # seconds: time enough to answer on a loaded machine
            stand_in="random",
            private=True,
        )
        created = await recv_type(a, "created", log)
        tid, invite = created["table"], created["invite"]
        joined = await recv_type(a, "joined", log)
        assert joined["seat"] == 0 and cardrules.load_text(joined["rules"]["text"]) == v
        assert joined["options"]["private"] and joined["options"]["turn_time"] == 3.0

        # A stranger does not see the table, and cannot watch it without the code.
        s = await connect(url)
        await recv(s)
        await send(s, type="tables")
        assert tid not in {t["table"] for t in (await recv_type(s, "tables", []))["tables"]}
        await send(s, type="watch", table=tid)
        e = await recv(s)
        assert e["type"] == "error" and e["code"] == "bad_invite", e
        await send(s, type="watch", table=tid, invite=invite)
        assert (await recv_type(s, "watching", []))["table"] == tid

        # Seat 0 does nothing: once its time runs out, the bot plays for it,
        # and the spectator is shown so.
        while True:
            st = await recv_type(s, "state", [])
            if st["seats"][0]["stand_in"] is not None and st["last_seat"] == 0:
                break
        assert st["seats"][0]["stand_in"] == {"bot": "random", "why": "time"}
        away_version = st["version"]
        # Its player comes back: the seat is theirs again.
        await send(a, type="resume", ref="back")
        assert (await recv_type(a, "resumed", log)) == {"type": "resumed", "seat": 0, "ref": "back"}
        while True:
            st = await recv_type(a, "state", log)
            if st["seats"][0]["stand_in"] is None and st["view"]["legal_actions"]:
                break
            assert st["view"]["result"] is None, "the game ended before seat 0 acted again"
        assert st["version"] > away_version
        await send(a, type="act", action=st["view"]["legal_actions"][0]["id"])
        while True:
            mine = await recv_type(a, "state", log)
            if mine["version"] > st["version"]:
                break
        assert mine["last_seat"] == 0 and mine["seats"][0]["stand_in"] is None
        for ws in (a, s):
            await ws.close()

    asyncio.run(main())


async def until(ws: ClientConnection, pred: Any) -> dict[str, Any]:
    """The next message ``pred`` accepts (an error refused on the way fails)."""
    while True:
        msg = await recv(ws)
        assert msg["type"] != "error", msg
        if pred(msg):
            return msg


def test_a_take_back_request_declined_then_accepted(tmp_path: Path, servers: list[Server]) -> None:
    """Issue 21 item 1 over real websockets: past another seat's action a
    take-back alone is refused; asked, the other seat declines (nothing taken
    back) and then accepts (both actions taken back, the asker to act again)."""
    servers.append(Server(tmp_path / "tables", "--variant", "oh-hell-short"))
    url = servers[-1].url

    async def main() -> None:
        ws = [await connect(url) for _ in range(4)]
        for w in ws:
            await recv(w)  # hello
        await send(
            ws[0], type="create", variant="oh-hell-short", seats=["human"] * 4,
            take_backs="until the trick is complete",
        )  # fmt: skip
        tid = (await until(ws[0], lambda m: m["type"] == "created"))["table"]
        for s in (1, 2, 3):
            await send(ws[s], type="join", table=tid, seat=s)
            await until(ws[s], lambda m: m["type"] == "joined")

        async def state_of(s: int, version: int) -> dict[str, Any]:
            return await until(ws[s], lambda m: m["type"] == "state" and m["version"] >= version)

        st = await state_of(0, 0)
        a = st["view"]["to_act"]
        first = await state_of(a, 0)
        await send(ws[a], type="act", action=first["view"]["legal_actions"][0]["id"])
        b = (await state_of(a, 1))["view"]["to_act"]
        after_b = await state_of(b, 1)
        await send(ws[b], type="act", action=after_b["view"]["legal_actions"][0]["id"])
        mine = await state_of(a, 2)
        assert not mine["can_take_back"] and mine["can_request_take_back"]
        await send(ws[a], type="take_back")
        refused = await recv(ws[a])
        assert refused["code"] == "take_back_refused", refused

        # Asked, seat b declines: nothing is taken back.
        await send(ws[a], type="request_take_back")
        asked = await until(ws[a], lambda m: m["type"] == "take_back_requested")
        assert asked["count"] == 2 and asked["asked"] == [b]
        seen = await until(ws[b], lambda m: m["type"] == "state" and m["view"]["take_back_request"])
        assert seen["view"]["take_back_request"]["seat"] == a
        await send(ws[b], type="answer_take_back", accept=False)
        await until(ws[b], lambda m: m["type"] == "answered")
        st = await until(
            ws[a], lambda m: m["type"] == "state" and m["view"]["take_back_request"] is None
        )
        assert st["view"]["to_act"] not in (a, b)

        # Asked again, seat b accepts: both actions are taken back.
        await send(ws[a], type="request_take_back")
        await until(ws[a], lambda m: m["type"] == "take_back_requested")
        await until(ws[b], lambda m: m["type"] == "state" and m["view"]["take_back_request"])
        await send(ws[b], type="answer_take_back", accept=True)
        done = await until(ws[a], lambda m: m["type"] == "taken_back")
        assert done["count"] == 2 and done["agreed"] is True
        st = await until(ws[a], lambda m: m["type"] == "state")
        assert st["view"]["to_act"] == a and st["view"]["legal_actions"]
        assert st["version"] > mine["version"]  # the version never goes back
        for w in ws:
            await w.close()

    asyncio.run(main())


# --------------------------------------------------------------------------- refusals


def test_refusals_come_back_as_errors_and_the_connection_stays(
    tmp_path: Path, servers: list[Server]
) -> None:
    servers.append(Server(tmp_path / "tables", "--variant", "oh-hell-short", "--max-tables", "2"))
    url = servers[-1].url

    async def main() -> None:
        a = await connect(url)
        await recv(a)
        log: list[dict[str, Any]] = []

        async def error(ws: ClientConnection, **msg: Any) -> dict[str, Any]:
            await send(ws, **msg)
            while True:
                m = await recv(ws)
                if m["type"] == "error":
                    return m

        await send(
            a, type="create", variant="oh-hell-short", seats=["human", "human", "random", "random"]
        )
        tid = (await recv_type(a, "created", log))["table"]
        ja = await recv_type(a, "joined", log)
        b = await connect(url)
        await recv(b)
        await send(b, type="join", table=tid, seat=1 - ja["seat"])
        assert (await recv_type(b, "joined", []))["seat"] == 1 - ja["seat"]

        # Whose turn it is (once the bots have moved): ask both for their state.
        await send(a, type="state")
        sa = await recv_type(a, "state", [])
        await send(b, type="state")
        sb = await recv_type(b, "state", [])
        while not sa["view"]["legal_actions"] and not sb["view"]["legal_actions"]:
            await send(a, type="state")
            sa = await recv_type(a, "state", [])
            await send(b, type="state")
            sb = await recv_type(b, "state", [])
        if sa["view"]["legal_actions"]:
            mover, idle, sm, si = a, b, sa, sb
        else:
            mover, idle, sm, si = b, a, sb, sa
        legal = sm["view"]["legal_actions"]

        # Out of turn: the idle seat tries the mover's legal action.
        e = await error(idle, type="act", action=legal[0]["id"])
        assert e["code"] == "not_your_turn"
        # The refusal names no card of anyone's hand.
        assert not CARD.search(e["message"]), e
        # For another seat: the mover's action, claimed for the other seat.
        e = await error(idle, type="act", action=legal[0]["id"], seat=sm["seat"])
        assert e["code"] == "not_your_seat"
        e = await error(mover, type="act", action=legal[0]["id"], seat=si["seat"])
        assert e["code"] == "not_your_seat"
        # Stale: acting on an old version.
        e = await error(mover, type="act", action=legal[0]["id"], version=sm["version"] - 1)
        assert e["code"] == "stale"
        # Malformed messages.
        for raw, code in [
            ("{", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('{"type": "dance"}', "unknown_type"),
            ("[" * 3000 + "]" * 3000, "bad_json"),
            ('{"type": "act", "action": "play the fool"}', "invalid_action"),
            ('{"type": "act", "action": 99999}', "invalid_action"),
            ('{"type": "act", "action": {"id": "x"}}', "invalid_action"),
            ('{"type": "act", "action": null}', "invalid_action"),
            ('{"type": "join", "table": "nope", "seat": 0}', "no_such_table"),
            (json.dumps({"type": "join", "table": tid, "seat": 0}), "already_seated"),
            (json.dumps({"type": "join", "table": tid, "token": "guess"}), "bad_token"),
            (
                '{"type": "create", "variant": "../../etc/passwd", "seats": ["human"]}',
                "unknown_variant",
            ),
            ('{"type": "create", "variant": "oh-hell-short", "seats": ["human"]}', "bad_players"),
            (
                json.dumps(
                    {
                        "type": "create",
                        "variant": "oh-hell-short",
                        "seats": ["human"] * 4,
                        "name": "x" * 33,
                    }
                ),
                "bad_name",
            ),
        ]:
            await idle.send(raw)
            while True:
                m = await recv(idle)
                if m["type"] == "error":
                    break
            assert m["code"] == code, (raw[:60], m)
        # Another connection cannot take a seat that is held, or a bot's.
        other = await connect(url)
        await recv(other)
        for s in (0, 1, 2):
            e = await error(other, type="join", table=tid, seat=s)
            assert e["code"] == "seat_taken", e
        await other.close()
        # An illegal action of the mover's own: the reason comes back, the game is unchanged.
        illegal = next(
            (i for i in range(212) if i not in {x["id"] for x in legal} and i < 52), None
        )
        assert illegal is not None
        e = await error(mover, type="act", action=illegal)
        assert e["code"] in ("illegal_action",), e
        # The engine's code and data come with it, about the mover's own seat.
        assert e["reason"] in ERROR_CODES and e["data"]["seat"] == sm["seat"], e
        # Oversized: past the message limit the connection stays...
        e = await error(idle, type="ping", pad="x" * 9000)
        assert e["code"] == "too_big"
        await send(idle, type="ping", ref="still here")
        assert (await recv_type(idle, "pong", []))["ref"] == "still here"
        # ... past the frame limit the transport closes it (1009: message too big).
        c = await connect(url, max_size=None)
        await recv(c)
        await c.send("x" * 200_000)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(c.recv(), TIMEOUT)
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009
        # A flood is cut by the rate limit.
        flood = await connect(url)
        await recv(flood)
        for _ in range(80):
            await send(flood, type="ping")
        codes = []
        for _ in range(80):
            m = await recv(flood)
            codes.append(m.get("code", m["type"]))
        assert "rate_limited" in codes and "pong" in codes
        # The table limit (2): the second table fits, the third does not.
        await send(flood, type="create", variant="oh-hell-short", seats=["random"] * 4)
        while (m := await recv(flood))["type"] not in ("created", "error"):
            pass
        if m["type"] == "error":  # still rate limited: the bucket refills
            assert m["code"] == "rate_limited"
        c3 = await connect(url)
        await recv(c3)
        await send(c3, type="create", variant="oh-hell-short", seats=["random"] * 4)
        m = await recv(c3)
        if m["type"] == "created":
            await send(c3, type="create", variant="oh-hell-short", seats=["random"] * 4)
            while (m := await recv(c3))["type"] != "error":
                pass
        assert m["type"] == "error" and m["code"] == "server_full", m
        # The mover still plays: every refusal left the game as it was.
        await send(mover, type="act", action=legal[0]["label"], version=sm["version"])
        while True:
            m = await recv(mover)
            assert m["type"] != "error", m
            if m["type"] == "state" and m["version"] > sm["version"]:
                break
        assert m["last_seat"] == sm["seat"]
        for ws in (a, b, flood, c3):
            await ws.close()

    asyncio.run(main())


def test_serve_without_the_extra_says_how_to_install(tmp_path: Path) -> None:
    """With Starlette missing, ``cardrules serve`` says how to install it (exit 1)."""
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "starlette.py").write_text("raise ImportError('No module named starlette')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(blocker), str(ROOT)]))
    proc = subprocess.run(
        [sys.executable, "-m", "cardrules.server", "--save-dir", str(tmp_path / "t")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 1, proc.stderr
    # cardrules is not on the package index: the hint says what works.
    assert "pip install 'cardrules[server]'" not in proc.stderr
    assert "pip install '.[server]'" in proc.stderr
    assert f"cardrules-{cardrules.__version__}-py3-none-any.whl[server]" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_serve_refuses_bad_start_up_options_without_a_traceback(tmp_path: Path) -> None:
    import socket

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = str(taken.getsockname()[1])
    try:
        for args, code, words in [
            (["--save-dir", str(a_file)], 2, "--save-dir"),
            (["--save-dir", str(tmp_path / "t"), "--variant", "no-such-game"], 1, "no variant"),
            (["--save-dir", str(tmp_path / "t"), "--port", "70000"], 2, "--port"),
            (["--save-dir", str(tmp_path / "t"), "--port", port], 1, "cannot listen"),
            (["--save-dir", str(tmp_path / "t"), "--allow-origin", "evil"], 2, "--allow-origin"),
            (["--save-dir", str(tmp_path / "t"), "--idle-timeout", "0"], 2, "--idle-timeout"),
            (["--save-dir", str(tmp_path / "t"), "--abandoned-after", "0"], 2, "--abandoned"),
        ]:
            proc = subprocess.run(
                [sys.executable, "-m", "cardrules.server", "--variant", "kazhutha", *args],
                capture_output=True,
                text=True,
                env=env,
                cwd=ROOT,
                timeout=TIMEOUT,
            )
            assert proc.returncode == code, (args, proc.stderr)
            assert words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    finally:
        taken.close()


# --------------------------------------------------------------------------- issue 21: hardening


def test_origins_idle_connections_hostile_text_and_a_spectator_crowd(
    tmp_path: Path, servers: list[Server]
) -> None:
    """Issue 21 items 9, 10 and 11 over real sockets. A page of another site
    cannot open a websocket (HTTP 403); a page of the server's own host, and a
    client that is not a page (no Origin), can; ``--allow-origin`` replaces
    the default. A connection that sends nothing is closed (4001) and pings
    keep one open. NaN, Infinity, a 4,301-digit number and a lone surrogate
    are each refused at once as ``bad_message`` and the connection plays on.
    A crowd of spectators does not lock a seat's holder out."""
    from websockets.exceptions import InvalidStatus

    servers.append(Server(tmp_path / "a", "--variant", "kazhutha", "--idle-timeout", "3"))
    url = servers[-1].url
    port = url.split(":")[2].split("/")[0]
    servers.append(
        Server(tmp_path / "b", "--variant", "kazhutha", "--allow-origin", "https://cards.example")
    )
    other = servers[-1].url

    async def refused(u: str, origin: str) -> int:
        with pytest.raises(InvalidStatus) as info:
            await connect(u, origin=origin)  # type: ignore[arg-type]
        return int(info.value.response.status_code)

    async def hello(u: str, origin: str | None) -> None:
        ws = await connect(u, origin=origin)  # type: ignore[arg-type]
        assert (await recv(ws))["type"] == "hello"
        await ws.close()

    async def main() -> None:
        # Origins.
        assert await refused(url, "https://evil.example") == 403
        assert await refused(url, f"http://localhost.evil.example:{port}") == 403
        await hello(url, f"http://127.0.0.1:{port}")
        await hello(url, None)
        await hello(other, "https://cards.example")
        await hello(other, None)
        assert await refused(other, "https://evil.example") == 403
        assert await refused(other, other.replace("ws://", "http://").removesuffix("/ws")) == 403

        # Idle connections: the silent one is closed, the pinging one stays.
        started = time.monotonic()
        silent = await connect(url)
        talker = await connect(url)
        await recv(silent)
        await recv(talker)

        async def keep_talking() -> None:
            for i in range(10):  # 5 s in all: longer than the time-out
                await send(talker, type="ping", ref=i)
                assert (await recv(talker))["ref"] == i
                await asyncio.sleep(0.5)

        talking = asyncio.get_running_loop().create_task(keep_talking())
        with pytest.raises(ConnectionClosed) as info:
            while True:
                await asyncio.wait_for(silent.recv(), TIMEOUT)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4001
        assert 2.9 < time.monotonic() - started < TIMEOUT
        await talking
        await talker.close()

        # Hostile text, answered at once, and the connection stays (on the
        # other server, whose idle time-out is the default 300 s: the machine
        # may be slow).
        talker = await connect(other)
        await recv(talker)
        for raw in [
            '{"type": "ping", "x": NaN}',
            '{"type": "ping", "x": Infinity}',
            '{"type": "ping", "x": ' + "7" * 4301 + "}",
            '{"type": "act", "action": ' + "7" * 4300 + "}",
            '{"type": "ping", "ref": "a\\udc00b"}',
            '{"type": "create", "variant": "kazhutha", "seats": ["human"], "name": "\\ud800"}',
        ]:
            t = time.monotonic()
            await talker.send(raw)
            m = await recv(talker)
            assert m["type"] == "error" and m["code"] == "bad_message", (raw[:40], m)
            assert time.monotonic() - t < 5.0
            await send(talker, type="ping", ref="still here")
            assert (await recv(talker))["ref"] == "still here"
        await talker.close()

        # A spectator crowd: the seat's holder comes back, a free seat is taken.
        owner = await connect(other)
        await recv(owner)
        log: list[dict[str, Any]] = []
        await send(
            owner,
            type="create",
            variant="kazhutha",
            seats=["human", "human", "random", "random"],
            name="owner",
        )
        tid = (await recv_type(owner, "created", log))["table"]
        token = (await recv_type(owner, "joined", log))["token"]
        await owner.close()
        crowd = []
        for _ in range(32):
            w = await connect(other)
            await recv(w)
            await send(w, type="watch", table=tid)
            await recv_type(w, "watching", [])
            crowd.append(w)
        late = await connect(other)
        await recv(late)
        await send(late, type="watch", table=tid)
        while (m := await recv(late))["type"] != "error":
            pass
        assert m["code"] == "table_full"
        back = await connect(other)
        await recv(back)
        await send(back, type="join", table=tid, token=token)
        assert (await recv_type(back, "joined", []))["seat"] == 0
        await send(late, type="join", table=tid, seat=1, name="late")
        assert (await recv_type(late, "joined", []))["seat"] == 1
        for ws in (*crowd, late, back):
            await ws.close()

    asyncio.run(main())
