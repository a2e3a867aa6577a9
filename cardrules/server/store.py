"""The server's save folder: per table, a snapshot and an append-only log.

Each table has two files in the save folder:

* ``<table>.table.json``, the **snapshot**: the whole table as the server's
  save (``Table.to_save``: the seats and ``game.to_json()``), with
  ``log_seq``, the number of the last log entry it includes. It is rewritten
  now and then (every ``snapshot_every`` entries, at the end of a hand once
  the log holds a quarter of that, and when the game ends), always atomically:
  a temporary file, flushed (``fsync``), renamed over the old one, the folder
  flushed; only then is the log emptied.
* ``<table>.table.log``, the **log**: one compact JSON line for each change
  since the snapshot, appended and flushed (one ``fsync``) before any client
  is told of it::

      {"n":13,"op":"act","args":[2,51],"v":13,"last":2,"t":1764638000.123}

  ``n`` numbers the entries of the table (one more each line, never reset),
  ``op`` and ``args`` are the operation and its arguments (:data:`REPLAY`
  says how each is replayed: ``act`` is ``game.apply(Action.from_id(id),
  seat)``, ``take_back`` is ``game.take_back(seat)``; a change that is no
  such operation is saved as a snapshot), and ``v``, ``last`` and ``t`` the
  table's version, last seat and time of the change after it.

Restoring reads the snapshot and replays the entries numbered after its
``log_seq``, in order, each through the rules again. A crash at any point
loses no entry that was flushed:

* during an append, the last line is torn (it has no newline): it was never
  acknowledged and is ignored;
* between the snapshot's rename and the log's truncation, the log's entries
  are all in the snapshot already: their numbers are not after ``log_seq``;
* during a snapshot, the old snapshot and the whole log are still there.

A log is untrusted input, like a save: its size, the length of a line and the
number of entries replayed are bounded (:data:`MAX_LOG_BYTES`,
:data:`MAX_LOG_LINE`, :data:`MAX_LOG_ENTRIES`), every line is checked (its
fields, its number, each argument's type, and the move against the rules), and
a table whose log cannot be read is not restored (the caller warns and leaves
its files in place).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

from cardrules.engine.actions import Action
from cardrules.engine.game import Game

__all__ = [
    "LOG_SUFFIX",
    "MAX_LOG_BYTES",
    "MAX_LOG_ENTRIES",
    "MAX_LOG_LINE",
    "REPLAY",
    "SNAPSHOT_EVERY",
    "Store",
    "read_log",
    "replay",
]

#: The ending of a table's log file (next to its ``<table>.table.json`` snapshot).
LOG_SUFFIX: Final = ".table.log"

#: The longest line a log may hold, in bytes (a line is about 80).
MAX_LOG_LINE: Final = 4_096

#: The largest log file read back.
MAX_LOG_BYTES: Final = 8_000_000

#: The most entries replayed past a snapshot (a server writes a snapshot every
#: ``snapshot_every`` entries, at most :data:`MAX_SNAPSHOT_EVERY`).
MAX_LOG_ENTRIES: Final = 4_096

#: The default number of log entries between two snapshots.
SNAPSHOT_EVERY: Final = 128

#: The largest ``snapshot_every`` a store accepts (so that a log it writes is
#: always short enough to be read back).
MAX_SNAPSHOT_EVERY: Final = 1_024

log = logging.getLogger("cardrules.server")

_TMP = re.compile(r"\.[0-9a-f]{12}\.[0-9]{1,10}\.tmp")
_MAX_COUNT: Final = 2**53  # entry numbers and versions (exact in any JSON reader)
_ENTRY_KEYS: Final = frozenset({"n", "op", "args", "v", "last", "t"})


class TableLike(Protocol):
    """What the store reads and the replay changes of a table (``hub.Table``)."""

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> Game: ...
    @property
    def seats(self) -> list[Any]: ...

    version: int
    last_seat: int | None
    touched: float

    def to_save(self, log_seq: int = 0) -> str: ...


# --------------------------------------------------------------------------- replay


def _act(table: TableLike, seat: int, action: int) -> None:
    table.game.apply(Action.from_id(action), seat)


def _take_back(table: TableLike, seat: int) -> None:
    table.game.take_back(seat)


#: How each logged operation is replayed: its name, the type of each argument,
#: and the function that makes the change again. A new operation is one line
#: here and one ``_moved(table, seat, name, *args)`` call in the hub.
REPLAY: Final[Mapping[str, tuple[tuple[type, ...], Callable[..., None]]]] = {
    "act": ((int, int), _act),
    "take_back": ((int,), _take_back),
}


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


def _entry(line: bytes) -> dict[str, Any]:
    """One log line, checked for its shape (not yet against the rules)."""
    if len(line) > MAX_LOG_LINE:
        raise ValueError(f"a line longer than {MAX_LOG_LINE:,} bytes")
    try:
        e = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"not a JSON line: {str(err)[:80]}") from None
    if not isinstance(e, dict) or set(e) != _ENTRY_KEYS:
        raise ValueError("a line is an object with n, op, args, v, last and t")
    n, op, args, v, last, t = e["n"], e["op"], e["args"], e["v"], e["last"], e["t"]
    if type(n) is not int or not 0 < n < _MAX_COUNT:
        raise ValueError("bad entry number")
    spec = REPLAY.get(op) if isinstance(op, str) else None
    if spec is None:
        raise ValueError(f"unknown operation {str(op)[:20]!r}")
    types = spec[0]
    if (
        not isinstance(args, list)
        or len(args) != len(types)
        or not all(type(a) is k for a, k in zip(args, types, strict=True))
    ):
        raise ValueError(f"bad arguments for {op}")
    if (
        type(v) is not int
        or not 0 <= v < _MAX_COUNT
        or (last is not None and type(last) is not int)
    ):
        raise ValueError("bad version or last seat")
    # (Bounded before any float(): a 400-digit int would overflow.)
    if type(t) not in (int, float) or not -1e11 < t < 1e11 or not math.isfinite(t):
        raise ValueError("bad time")
    return e


def read_log(raw: bytes, after: int) -> list[dict[str, Any]]:
    """The entries of a log to replay past a snapshot that includes entry
    ``after``: checked for their shape and numbering, in order.

    A last line without its newline is a torn write (the server was stopped in
    the middle of an append, before anyone was told of it) and is ignored.

    Raises:
        ValueError: for a log too big, a bad line, entries out of order or
            missing, or more than :data:`MAX_LOG_ENTRIES` to replay.
    """
    if len(raw) > MAX_LOG_BYTES:
        raise ValueError(f"a log larger than {MAX_LOG_BYTES:,} bytes")
    lines = raw.split(b"\n")
    lines.pop()  # the torn tail, or b"" after the last newline
    out: list[dict[str, Any]] = []
    prev: int | None = None
    for i, line in enumerate(lines, 1):
        try:
            e = _entry(line)
        except ValueError as err:
            raise ValueError(f"log line {i}: {err}") from None
        n = e["n"]
        if prev is not None and n != prev + 1:
            raise ValueError(f"log line {i}: entry {n} after entry {prev}")
        prev = n
        if n <= after:
            continue  # already in the snapshot
        if not out and n != after + 1:
            raise ValueError(f"log line {i}: entry {n}, but the snapshot ends at entry {after}")
        if len(out) >= MAX_LOG_ENTRIES:
            raise ValueError(f"more than {MAX_LOG_ENTRIES:,} entries past the snapshot")
        out.append(e)
    return out


def replay(table: TableLike, entries: list[dict[str, Any]]) -> None:
    """Make each entry's change again on ``table`` (restored from its snapshot).

    Raises:
        ValueError: for an entry the table's rules or seats refuse (its
            message says which); the table is then half replayed: drop it.
    """
    from cardrules.errors import CardrulesError

    n = len(table.seats)
    for e in entries:
        fn = REPLAY[e["op"]][1]
        try:
            fn(table, *e["args"])
        except (CardrulesError, ValueError) as err:
            raise ValueError(f"log entry {e['n']} ({e['op']}): {str(err)[:200]}") from None
        last = e["last"]
        if last is not None and not 0 <= last < n:
            raise ValueError(f"log entry {e['n']}: bad last seat")
        table.version = e["v"]
        table.last_seat = last
        table.touched = float(e["t"])


# --------------------------------------------------------------------------- writing


class _Files:
    """The state of one table's files: the log's descriptor, the number of
    the last entry written and of the last one in the snapshot, the log's size,
    and whether the next save must be a snapshot."""

    __slots__ = ("broken", "fd", "hand", "seq", "size", "snap_seq")

    def __init__(self, seq: int, hand: int) -> None:
        self.fd: int | None = None
        self.seq = seq
        self.snap_seq = seq
        self.size = 0
        self.hand = hand
        self.broken = True  # no snapshot written by this process yet


class Store:
    """The save folder of a hub: one snapshot and one log per table.

    Args:
        folder: the save folder (created by the hub).
        fsync: flush each append and each snapshot to the disk (without it a
            save survives a crash of the server, not one of the machine).
        snapshot_every: log entries between two snapshots (at most
            :data:`MAX_SNAPSHOT_EVERY`); a snapshot is also written at the end
            of a hand once the log holds a quarter of that, and at the end of
            the game.
        mode: ``"log"`` (the default), or ``"snapshot"``: every save rewrites
            the whole snapshot, as the server did before the log (kept to
            compare the two in ``benchmarks/bench_server.py``).
        group_commit: with ``fsync``, do not flush each append at once: the
            web layer awaits :meth:`flushed` before it sends any message, and
            one flush, in a worker thread, covers the appends of every table
            since the last (group commit). Nothing is sent before the saves
            made before it are on the disk, as without it, but the event loop
            never waits for the disk and one flush serves many moves.
    """

    def __init__(
        self,
        folder: Path,
        *,
        fsync: bool = True,
        snapshot_every: int = SNAPSHOT_EVERY,
        mode: str = "log",
        group_commit: bool = False,
    ) -> None:
        if not 1 <= snapshot_every <= MAX_SNAPSHOT_EVERY:
            raise ValueError(f"snapshot_every is from 1 to {MAX_SNAPSHOT_EVERY}")
        if mode not in ("log", "snapshot"):
            raise ValueError("mode is 'log' or 'snapshot'")
        self.folder = folder
        self.fsync = fsync
        self.snapshot_every = snapshot_every
        self.mode = mode
        self.group_commit = group_commit and fsync and mode == "log"
        self._files: dict[str, _Files] = {}
        # Group commit: appends written, and covered by the last finished flush;
        # the tables written since the last flush began; the flush under way.
        self._written = 0
        self._flushed = 0
        self._dirty: dict[str, _Files] = {}
        self._flush: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ paths

    def snapshot_path(self, tid: str) -> Path:
        return self.folder / (tid + ".table.json")

    def log_path(self, tid: str) -> Path:
        return self.folder / (tid + LOG_SUFFIX)

    # ------------------------------------------------------------ reading

    def restore(self, table: TableLike, log_seq: int) -> None:
        """Replay ``table``'s log past its snapshot (which includes entry
        ``log_seq``), then take the table over: when the log held anything, a
        new snapshot is written at once and the log emptied (so a torn line
        is gone before anything is appended).

        Raises:
            ValueError: the log cannot be read or replayed (the table must not
                be served; its files are left as they are).
            OSError: a file could not be read.
        """
        path = self.log_path(table.id)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            size = -1
        if size > MAX_LOG_BYTES:
            raise ValueError(f"{path.name}: larger than {MAX_LOG_BYTES:,} bytes")
        entries: list[dict[str, Any]] = []
        if size > 0:
            try:
                entries = read_log(path.read_bytes(), log_seq)
                replay(table, entries)
            except ValueError as e:
                raise ValueError(f"{path.name}: {e}") from None
        files = _Files(log_seq + len(entries), table.game.hand_number)
        self._files[table.id] = files
        if size <= 0:
            files.broken = False  # the snapshot is the whole table
        else:
            # A failure leaves the files whole; the next save tries again.
            with contextlib.suppress(OSError):
                self._snapshot(table, files)

    def clean(self) -> list[str]:
        """Remove the temporary files of snapshots a crash interrupted.

        Returns:
            The names removed.
        """
        gone = []
        for p in self.folder.iterdir():
            if _TMP.fullmatch(p.name):
                with contextlib.suppress(OSError):
                    p.unlink()
                    gone.append(p.name)
        return gone

    # ------------------------------------------------------------ writing

    def save(self, table: TableLike, op: tuple[str, tuple[Any, ...]] | None = None) -> None:
        """Save a change of ``table``: append ``op`` (an operation of
        :data:`REPLAY` and its arguments) to the log, or write a snapshot when
        ``op`` is ``None``, when it is time to, or after a failed write.

        Raises:
            OSError: the disk refused; the next save writes a snapshot.
        """
        files = self._files.get(table.id)
        if files is None:
            files = self._files[table.id] = _Files(0, table.game.hand_number)
        g = table.game
        hand = g.hand_number
        since = files.seq - files.snap_seq
        if (
            op is None
            or files.broken
            or self.mode == "snapshot"
            or g.is_over
            or since + 1 >= self.snapshot_every
            or (hand != files.hand and since >= self.snapshot_every // 4)
        ):
            files.seq += op is not None
            self._snapshot(table, files)
            return
        name, args = op
        line = json.dumps(
            {
                "n": files.seq + 1,
                "op": name,
                "args": args,
                "v": table.version,
                "last": table.last_seat,
                "t": round(table.touched, 3),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode("utf-8")
        self._append(files, table.id, line + b"\n")
        files.seq += 1

    def remove(self, tid: str) -> None:
        """Forget a table: close its log and delete its files."""
        files = self._files.pop(tid, None)
        if files is not None and files.fd is not None:
            with contextlib.suppress(OSError):
                os.close(files.fd)
        self.snapshot_path(tid).unlink(missing_ok=True)
        self.log_path(tid).unlink(missing_ok=True)

    def close(self) -> None:
        """Flush what is not yet flushed and close every open log (a later
        save opens it again)."""
        for files in self._dirty.values():
            if files.fd is not None:
                with contextlib.suppress(OSError):
                    _datasync(files.fd)
        self._dirty.clear()
        self._flushed = self._written
        for files in self._files.values():
            if files.fd is not None:
                with contextlib.suppress(OSError):
                    os.close(files.fd)
                files.fd = None

    # ------------------------------------------------------------ group commit

    def unflushed(self) -> bool:
        """Whether an append is not yet known to be on the disk (group commit)."""
        return self._flushed < self._written

    async def flushed(self) -> None:
        """Return once every append made so far is on the disk (at once
        without group commit). The appends of every table since the last flush
        are flushed together, in a worker thread; a caller that comes while a
        flush is under way waits for it, then for the next if it must."""
        target = self._written
        while self._flushed < target:
            if self._flush is None:
                self._flush = asyncio.get_running_loop().create_task(self._flush_dirty())
            await asyncio.shield(self._flush)

    async def _flush_dirty(self) -> None:
        upto = self._written
        dirty = list(self._dirty.values())
        self._dirty.clear()
        # Duplicates of the descriptors, so that a log closed meanwhile (its
        # table forgotten) is still flushed, and no number is reused under us.
        fds: list[tuple[_Files, int]] = []
        for files in dirty:
            if files.fd is not None:
                with contextlib.suppress(OSError):
                    fds.append((files, os.dup(files.fd)))
        failed: set[int] = set()
        try:
            failed = await asyncio.to_thread(_sync_all, [fd for _, fd in fds])
        except Exception:  # pragma: no cover - a thread that could not start
            log.exception("the flush of the logs failed")
            failed = {fd for _, fd in fds}
        finally:
            for files, fd in fds:
                if fd in failed:
                    files.broken = True  # the next save of that table: a snapshot
                with contextlib.suppress(OSError):
                    os.close(fd)
            if failed:
                log.error("%d logs could not be flushed: their tables are rewritten", len(failed))
            self._flushed = max(self._flushed, upto)
            self._flush = None

    # ------------------------------------------------------------ the two writes

    def _open_log(self, tid: str, files: _Files) -> int:
        if files.fd is None:
            files.fd = os.open(
                self.log_path(tid), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600
            )
            files.size = os.fstat(files.fd).st_size
            if self.fsync and files.size == 0:
                _sync_folder(self.folder)  # a new file: its name must survive a power cut
        return files.fd

    def _append(self, files: _Files, tid: str, data: bytes) -> None:
        try:
            fd = self._open_log(tid, files)
            _write_all(fd, data)
            if self.group_commit:
                self._dirty[tid] = files
                self._written += 1
            elif self.fsync:
                _datasync(fd)
        except OSError:
            files.broken = True
            if files.fd is not None:  # cut a partial line, if the disk lets us
                with contextlib.suppress(OSError):
                    os.ftruncate(files.fd, files.size)
            raise
        files.size += len(data)

    def _snapshot(self, table: TableLike, files: _Files) -> None:
        """Write the snapshot (through entry ``files.seq``), then empty the log."""
        files.broken = True
        tid = table.id
        data = table.to_save(files.seq).encode("utf-8")
        tmp = self.folder / f".{tid}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            _write_all(fd, data)
            if self.fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.snapshot_path(tid))
        if self.mode == "log":
            log_fd = self._open_log(tid, files)
            if self.fsync:
                _sync_folder(self.folder)  # the rename is durable before the log is cut
            # Only now may the log be emptied: every entry in it is in the
            # snapshot (a crash before this line leaves entries the restore skips).
            if files.size:
                os.ftruncate(log_fd, 0)
                files.size = 0
        files.snap_seq = files.seq
        files.hand = table.game.hand_number
        files.broken = False


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _datasync(fd: int) -> None:
    sync = getattr(os, "fdatasync", None)
    if sync is not None:
        sync(fd)
    else:  # pragma: no cover - macOS, Windows
        os.fsync(fd)


def _sync_all(fds: list[int]) -> set[int]:
    """Flush each descriptor (in a worker thread); the ones that failed."""
    failed = set()
    for fd in fds:
        try:
            _datasync(fd)
        except OSError:
            failed.add(fd)
    return failed


def _sync_folder(folder: Path) -> None:
    """Flush the folder itself, so a rename or a new file survives a power cut."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - Windows opens no folder
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)
