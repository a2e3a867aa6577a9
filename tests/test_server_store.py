"""The server's save folder (cardrules.server.store, issue 21 item 7): a log
entry a move, a snapshot now and then, a restore that replays the log past the
snapshot, a torn last line recovered, hostile logs skipped, the old
single-file saves still read, and a crash at any step losing no acknowledged
move."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from server_support import drain as _drain

import cardrules
from cardrules.server import store
from cardrules.server.hub import SAVE_SUFFIX, Client, Hub, Limits
from cardrules.server.store import LOG_SUFFIX, MAX_LOG_ENTRIES, read_log

VARIANTS = {"oh-hell-short": cardrules.load("oh-hell-short")}
LOOSE = {"rate": 1e9, "burst": 10**9, "max_queue": 10**6}


def _hub(tmp: Path, **kw: Any) -> Hub:
    return Hub(VARIANTS, tmp, Limits(**LOOSE), **kw)


class Table4:
    """A hub with one table of four human seats, each held by a client."""

    def __init__(self, hub: Hub, **create: Any) -> None:
        self.hub = hub
        self.clients = [Client(hub.limits) for _ in range(4)]
        for c in self.clients:
            hub.connect(c)
        msg = {"type": "create", "variant": "oh-hell-short", "seats": ["human"] * 4, **create}
        hub.handle(self.clients[0], json.dumps(msg))
        first = _drain(self.clients[0])
        self.tid = next(m for m in first if m["type"] == "created")["table"]
        for s in (1, 2, 3):
            hub.handle(self.clients[s], json.dumps({"type": "join", "table": self.tid, "seat": s}))
        self.tokens = {0: next(m for m in first if m["type"] == "joined")["token"]}
        for s, c in enumerate(self.clients[1:], 1):
            self.tokens[s] = next(m for m in _drain(c) if m["type"] == "joined")["token"]

    @property
    def table(self) -> Any:
        return self.hub.tables[self.tid]

    def seat_to_act(self) -> int:
        g = self.table.game
        return g.to_act if g.to_act is not None else min(g.waiting_for)

    def move(self, pick: int = 0) -> None:
        s = self.seat_to_act()
        legal = self.table.game.legal_actions(s)
        self.hub.handle(
            self.clients[s],
            json.dumps({"type": "act", "action": legal[pick % len(legal)].id}),
        )


def _restored(tmp: Path, **kw: Any) -> tuple[Hub, list[str]]:
    hub = _hub(tmp, **kw)
    return hub, hub.restore()


def _same(a: Any, b: Any) -> None:
    assert a.game.to_json() == b.game.to_json()
    assert (a.version, a.last_seat) == (b.version, b.last_seat)
    assert [s.to_dict() for s in a.seats] == [s.to_dict() for s in b.seats]
    assert a.touched == pytest.approx(b.touched, abs=0.01)


def test_each_move_is_one_log_line_and_the_restore_replays_them(tmp_path: Path) -> None:
    t = Table4(_hub(tmp_path))
    for i in range(7):
        t.move(i)
    log = (tmp_path / (t.tid + LOG_SUFFIX)).read_bytes()
    lines = [json.loads(line) for line in log.splitlines()]
    # Three seats taken (the creator's is in the first snapshot... or the log),
    # then one line a move, numbered one after the other.
    assert [e["op"] for e in lines][-7:] == ["act"] * 7
    assert all(set(e) == {"n", "op", "args", "v", "last", "t"} for e in lines)
    assert [e["n"] for e in lines] == list(range(lines[0]["n"], lines[0]["n"] + len(lines)))
    assert lines[-1]["v"] == t.table.version == 7
    assert all(len(line) < 200 for line in log.splitlines())
    snap = json.loads((tmp_path / (t.tid + SAVE_SUFFIX)).read_text(encoding="utf-8"))
    assert snap["format_version"] == 2 and snap["log_seq"] == lines[0]["n"] - 1
    hub, warnings = _restored(tmp_path)
    assert warnings == []
    _same(hub.tables[t.tid], t.table)
    # The restore wrote a new snapshot and emptied the log.
    assert (tmp_path / (t.tid + LOG_SUFFIX)).read_bytes() == b""
    # A seat rejoins with its token and plays on; a second restore agrees.
    c = Client(hub.limits)
    hub.connect(c)
    hub.handle(c, json.dumps({"type": "join", "table": t.tid, "token": t.tokens[2]}))
    assert [m["type"] for m in _drain(c)] == ["hello", "joined", "state"]
    again, _ = _restored(tmp_path)
    _same(again.tables[t.tid], hub.tables[t.tid])


def test_a_snapshot_every_k_entries_empties_the_log(tmp_path: Path) -> None:
    t = Table4(_hub(tmp_path, snapshot_every=8))
    path, log = tmp_path / (t.tid + SAVE_SUFFIX), tmp_path / (t.tid + LOG_SUFFIX)
    seqs = []
    while not t.table.game.is_over:
        t.move(t.table.version)
        assert len(log.read_bytes().splitlines()) < 8
        seqs.append(json.loads(path.read_text(encoding="utf-8"))["log_seq"])
        if t.table.version % 5 == 0:  # a restore at any point is the table
            hub, warnings = _restored(tmp_path, snapshot_every=8)
            assert warnings == []
            _same(hub.tables[t.tid], t.table)
            hub._store.close()  # type: ignore[union-attr]
    assert seqs == sorted(seqs) and len(set(seqs)) > 5
    # At the end of the game the snapshot is the whole table and the log is empty.
    assert log.read_bytes() == b""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == t.table.version
    assert cardrules.Game.from_json(data["game"]).is_over


def test_take_backs_are_logged_and_replayed(tmp_path: Path) -> None:
    t = Table4(_hub(tmp_path), take_backs="until the next player acts")
    taken = 0
    for i in range(12):
        s = t.seat_to_act()
        t.move(i)
        if i % 3 == 1 and t.table.game.can_undo(s):
            t.hub.handle(t.clients[s], json.dumps({"type": "take_back"}))
            assert any(m["type"] == "taken_back" for m in _drain(t.clients[s]))
            taken += 1
    assert taken >= 2
    ops = [json.loads(x)["op"] for x in (tmp_path / (t.tid + LOG_SUFFIX)).read_bytes().split()]
    assert ops.count("take_back") == taken
    hub, warnings = _restored(tmp_path)
    assert warnings == []
    _same(hub.tables[t.tid], t.table)


def test_a_torn_last_line_is_ignored_and_cut(tmp_path: Path) -> None:
    t = Table4(_hub(tmp_path))
    for i in range(5):
        t.move(i)
    log = tmp_path / (t.tid + LOG_SUFFIX)
    lines = log.read_bytes().splitlines(keepends=True)
    whole = b"".join(lines)
    # The server died in the middle of writing the next line: every cut of it.
    nxt = lines[-1].replace(b'"op":"act"', b'"op":"act"  ')
    for cut in (1, len(nxt) // 2, len(nxt) - 1):
        log.write_bytes(whole + nxt[:cut])
        hub, warnings = _restored(tmp_path)
        assert warnings == []
        _same(hub.tables[t.tid], t.table)
        assert log.read_bytes() == b""  # cut, before anything is appended to it
        hub._store.close()  # type: ignore[union-attr]
    # ... and the restored table plays on, appending to a clean log.
    hub, _ = _restored(tmp_path)
    c = Client(hub.limits)
    hub.connect(c)
    s = hub.tables[t.tid].game.to_act
    hub.handle(c, json.dumps({"type": "join", "table": t.tid, "token": t.tokens[s]}))
    legal = hub.tables[t.tid].game.legal_actions(s)
    hub.handle(c, json.dumps({"type": "act", "action": legal[0].id}))
    assert [json.loads(x)["op"] for x in log.read_bytes().splitlines()] == ["act"]
    again, warnings = _restored(tmp_path)
    assert warnings == []
    _same(again.tables[t.tid], hub.tables[t.tid])


def _entry(n: int, op: str = "act", args: list[Any] | None = None, **kw: Any) -> bytes:
    e = {"n": n, "op": op, "args": [0, 0] if args is None else args, "v": n, "last": 0}
    e["t"] = 1.0
    e.update(kw)
    return json.dumps(e).encode() + b"\n"


def test_hostile_logs_skip_their_table_quickly_and_the_others_are_served(
    tmp_path: Path,
) -> None:
    good = Table4(_hub(tmp_path))
    for i in range(4):
        good.move(i)
    snap = (tmp_path / (good.tid + SAVE_SUFFIX)).read_text(encoding="utf-8")
    log = (tmp_path / (good.tid + LOG_SUFFIX)).read_bytes()
    first = json.loads(log.splitlines()[0])["n"]
    real = log.splitlines(keepends=True)
    bad_lines: dict[str, bytes] = {
        "garbage in the middle": real[0] + b"not json\n" + b"".join(real[1:]),
        "deep": real[0] + b"[" * 3000 + b"]" * 3000 + b"\n",
        "deep object": b'{"n": ' + b"[" * 2000 + b"1" + b"]" * 2000 + b"}\n",
        "a long line": real[0] + b" " * 5000 + real[1],
        "NaN time": _entry(first, t=float("nan")),
        "Infinity": real[0].replace(b'"t":', b'"t":Infinity,"x":'),
        "a huge number": _entry(first).replace(b'"v": %d' % first, b'"v": ' + b"9" * 4000),
        "a huge time": _entry(first, t=10**400),
        "unknown op": _entry(first, op="format_disk"),
        "bool for an int": _entry(first, args=[True, 0]),
        "too many args": _entry(first, args=[0, 0, 0]),
        "an illegal action": _entry(first, args=[0, 51]),
        "no such action": _entry(first, args=[0, 10**12]),
        "no such seat": _entry(first, args=[9, 0]),
        "out of order": real[0] + real[2],
        "a gap after the snapshot": b"".join(real[1:]),
        "a string for an int": _entry(first, op="take_back", args=["0"]),
        "a take-back the rules refuse": _entry(first, op="take_back", args=[0], last=7),
        "not utf-8": real[0] + b'{"n": "\xff\xfe"}\n',
        "a list": real[0] + b"[1, 2, 3]\n",
        "negative n": _entry(-1),
    }
    ids = {}
    for i, (why, text) in enumerate(bad_lines.items()):
        tid = f"{i:012x}"
        ids[tid] = why
        (tmp_path / (tid + SAVE_SUFFIX)).write_text(snap.replace(good.tid, tid), encoding="utf-8")
        (tmp_path / (tid + LOG_SUFFIX)).write_bytes(text)
    # A snapshot whose log_seq is no count.
    for tid, seq in (("ffffffffff01", 2**53), ("ffffffffff02", -1), ("ffffffffff03", True)):
        data = json.loads(snap.replace(good.tid, tid))
        data["log_seq"] = seq
        (tmp_path / (tid + SAVE_SUFFIX)).write_text(json.dumps(data), encoding="utf-8")
    # A log too big to read.
    big = "ffffffffff00"
    (tmp_path / (big + SAVE_SUFFIX)).write_text(snap.replace(good.tid, big), encoding="utf-8")
    with (tmp_path / (big + LOG_SUFFIX)).open("wb") as f:
        f.truncate(store.MAX_LOG_BYTES + 1)
    started = time.process_time()
    hub, warnings = _restored(tmp_path)
    assert time.process_time() - started < 10
    assert set(hub.tables) == {good.tid}, {t: ids.get(t) for t in hub.tables}
    assert len(warnings) == len(bad_lines) + 4, warnings
    assert all("not restored" in w for w in warnings)
    _same(hub.tables[good.tid], good.table)
    # The files of a skipped table are left as they were.
    assert (tmp_path / ("0" * 12 + LOG_SUFFIX)).read_bytes() == bad_lines["garbage in the middle"]


def test_read_log_bounds_the_entries_it_replays() -> None:
    lines = b"".join(_entry(n) for n in range(1, MAX_LOG_ENTRIES + 2))
    with pytest.raises(ValueError, match="more than"):
        read_log(lines, 0)
    # Entries already in the snapshot are skipped, not counted.
    assert len(read_log(lines, 1)) == MAX_LOG_ENTRIES
    assert read_log(lines + b'{"n": 4', MAX_LOG_ENTRIES + 1) == []  # a torn tail
    with pytest.raises(ValueError, match="snapshot ends"):
        read_log(_entry(5), 3)


def test_old_single_file_saves_are_restored(tmp_path: Path) -> None:
    """A save of the server before the log (format_version 1, no log_seq and
    no log file) is restored, and the table plays on with a log."""
    t = Table4(_hub(tmp_path))
    for i in range(6):
        t.move(i)
    data = json.loads(t.table.to_save())
    del data["log_seq"]
    data["format_version"] = 1
    old = tmp_path / "old"
    old.mkdir()
    (old / (t.tid + SAVE_SUFFIX)).write_text(json.dumps(data), encoding="utf-8")
    hub, warnings = _restored(old)
    assert warnings == []
    _same(hub.tables[t.tid], t.table)
    c = Client(hub.limits)
    hub.connect(c)
    s = hub.tables[t.tid].game.to_act
    hub.handle(c, json.dumps({"type": "join", "table": t.tid, "token": t.tokens[s]}))
    hub.handle(
        c, json.dumps({"type": "act", "action": hub.tables[t.tid].game.legal_actions(s)[0].id})
    )
    assert (old / (t.tid + LOG_SUFFIX)).read_bytes().count(b"\n") == 1
    again, warnings = _restored(old)
    assert warnings == []
    _same(again.tables[t.tid], hub.tables[t.tid])


def test_the_snapshot_mode_rewrites_the_whole_table_each_move(tmp_path: Path) -> None:
    t = Table4(_hub(tmp_path, save_mode="snapshot"))
    for i in range(5):
        t.move(i)
    assert not (tmp_path / (t.tid + LOG_SUFFIX)).exists()
    data = json.loads((tmp_path / (t.tid + SAVE_SUFFIX)).read_text(encoding="utf-8"))
    assert data["version"] == 5
    hub, warnings = _restored(tmp_path)
    assert warnings == []
    _same(hub.tables[t.tid], t.table)


def test_interrupted_snapshots_leave_no_temporary_file(tmp_path: Path) -> None:
    t = Table4(_hub(tmp_path))
    t.move()
    stale = tmp_path / f".{t.tid}.4242.tmp"
    stale.write_text("half a snapshot")
    other = tmp_path / "notes.tmp"
    other.write_text("not ours")
    _restored(tmp_path)
    assert not stale.exists() and other.exists()


# --------------------------------------------------------------------------- a crash at every step


class Crash(BaseException):
    """The process dies here (not an OSError: nothing catches it)."""


class DyingOs:
    """``os`` for the store, dying at its ``at``-th call of a write, a flush,
    a rename or a truncation (a write dies halfway through its bytes)."""

    CALLS = ("write", "fsync", "fdatasync", "replace", "ftruncate")

    def __init__(self, at: int) -> None:
        self.at = at
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        real = getattr(os, name)
        if name not in self.CALLS:
            return real

        def call(*args: Any) -> Any:
            self.calls += 1
            if self.calls == self.at:
                if name == "write":
                    fd, data = args
                    os.write(fd, bytes(data)[: max(1, len(data) // 2)])
                raise Crash(name)
            return real(*args)

        return call


def test_a_crash_at_any_step_of_a_save_loses_no_acknowledged_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server dies at each call of a save in turn (a half-written line, a
    flush, the rename of a snapshot, the truncation of the log...): what the
    folder holds then restores to the last state a client was sent, or to the
    move being saved (never told to anyone), and never anything else."""
    steps = 0
    at = 1
    while True:
        folder = tmp_path / f"crash{at}"
        folder.mkdir()
        dying = DyingOs(at)
        monkeypatch.setattr(store, "os", dying)
        states: dict[int, str] = {}  # version -> the game, as every client was told it
        told = -1
        t: Table4 | None = None
        try:
            t = Table4(_hub(folder, snapshot_every=4))
            states[0] = t.table.game.to_json()
            told = 0
            while t.table.version < 14:
                t.move(t.table.version)
                msgs = _drain(t.clients[0])
                for m in msgs:
                    if m["type"] == "state":
                        told = max(told, m["version"])
                states[t.table.version] = t.table.game.to_json()
        except Crash:
            if t is not None:  # the move being saved: applied, never told
                states[t.table.version] = t.table.game.to_json()
        finally:
            monkeypatch.setattr(store, "os", os)
        if dying.calls < at:  # no crash: every step has been tried
            break
        steps += 1
        if told < 0:  # it died creating the table: nobody was told of it
            at += 1
            continue
        hub, warnings = _restored(folder)
        assert warnings == [], (at, warnings)
        (table,) = hub.tables.values()
        assert table.version in (told, told + 1), (at, table.version, told)
        assert table.game.to_json() == states[table.version], at
        assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
        hub._store.close()  # type: ignore[union-attr]
        at += 1
    assert steps > 40


def test_a_failed_append_is_caught_up_by_a_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk: the append fails (logged), play goes on, the next save is a
    snapshot, and the folder then holds the whole table."""
    t = Table4(_hub(tmp_path))
    t.move()
    real_write = os.write

    def full(fd: int, data: Any) -> int:
        real_write(fd, bytes(data)[:5])
        raise OSError(28, "No space left on device")

    class FullOs:
        def __getattr__(self, name: str) -> Any:
            return full if name == "write" else getattr(os, name)

    monkeypatch.setattr(store, "os", FullOs())
    t.move(1)
    monkeypatch.setattr(store, "os", os)
    assert t.table.version == 2
    # The partial line was cut; the folder is one move behind until the next save.
    log = tmp_path / (t.tid + LOG_SUFFIX)
    assert log.read_bytes().endswith(b"\n") or log.read_bytes() == b""
    t.move(2)
    hub, warnings = _restored(tmp_path)
    assert warnings == []
    _same(hub.tables[t.tid], t.table)


def test_the_bots_of_a_table_play_on_from_the_log(tmp_path: Path) -> None:
    async def first() -> tuple[str, int]:
        hub = Hub(VARIANTS, tmp_path, Limits(**LOOSE))
        c = Client(hub.limits)
        hub.connect(c)
        hub.handle(
            c,
            json.dumps({"type": "create", "variant": "oh-hell-short", "seats": ["random"] * 4}),
        )
        tid = next(iter(hub.tables))
        while hub.tables[tid].version < 21:
            await asyncio.sleep(0)
        await hub.stop()
        return tid, hub.tables[tid].version

    tid, version = asyncio.run(first())
    assert (tmp_path / (tid + LOG_SUFFIX)).read_bytes().count(b"\n") > 0
    hub, warnings = _restored(tmp_path)
    assert warnings == [] and hub.tables[tid].version == version


def test_group_commit_flushes_many_moves_at_once_before_anything_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With group commit a move is written at once but not flushed: the web
    layer awaits ``hub.durable()`` before it sends any message, and one flush
    (in a worker thread) covers the moves of every table since the last."""
    synced: list[int] = []
    real = store._datasync

    def counting(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(store, "_datasync", counting)

    async def main() -> None:
        hub = _hub(tmp_path, group_commit=True)
        tables = [Table4(hub) for _ in range(3)]
        synced.clear()
        for i in range(6):
            for t in tables:
                t.move(i)
        assert synced == []  # nothing flushed while the moves were made...
        assert hub._store is not None and hub._store.unflushed()
        log = tmp_path / (tables[0].tid + LOG_SUFFIX)
        assert log.read_bytes().count(b"\n") >= 6  # ... but every line written
        await asyncio.gather(*(hub.durable() for _ in range(5)))
        assert not hub._store.unflushed()
        assert len(synced) == 3  # one flush: one fdatasync a table, for 18 moves
        # A table forgotten while its flush is under way: still flushed, no harm.
        tables[1].move(7)
        waiting = asyncio.ensure_future(hub.durable())
        await asyncio.sleep(0)
        hub._store.remove(tables[1].tid)
        await waiting
        assert not hub._store.unflushed()
        tables[0].move(8)
        await hub.stop()  # flushes what is left
        assert not hub._store.unflushed()
        restored, warnings = _restored(tmp_path)
        assert warnings == [] and set(restored.tables) == {tables[0].tid, tables[2].tid}
        _same(restored.tables[tables[0].tid], tables[0].table)

    asyncio.run(main())
