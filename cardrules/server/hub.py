"""The server's rules side, free of any web framework: tables, seats, bots, saves.

A :class:`Hub` owns every table. Connections (:class:`Client`) hand it the text
of each message they receive (:meth:`Hub.handle`); the hub answers by putting
JSON messages on the connections' outgoing queues, never by awaiting, so every
change to a table happens in one step of the event loop and no other message
can see a table half changed. The web layer (:mod:`cardrules.server.app`) only
moves text between the sockets and these queues.

Thread safety: everything here belongs to ONE asyncio event loop, the loop
that runs the server. A :class:`~cardrules.engine.game.Game` is not
thread-safe, and neither is a hub, a table or a client: share none of them
between threads. Work for another thread (a long analysis of a position) is
given a copy (``Game.from_json(game.to_json())`` or ``game.clone()``), and its
answer is brought back to the loop (``loop.call_soon_threadsafe``) before it
touches a table.

Every move follows the same order: apply it (``game.apply(action, seat)``,
always naming the seat), save the table, then tell the clients. A client is
therefore never shown a state the save directory does not hold, and a server
killed at any moment restarts from a state every client has seen or will see.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from attrs import define, field, frozen

from cardrules import jsontext
from cardrules.bots import BOTS, Bot, make_bot
from cardrules.counted import count_range
from cardrules.dsl import format as format_variant
from cardrules.dsl import load
from cardrules.dsl.loader import read_regular_file
from cardrules.engine.actions import Action
from cardrules.engine.game import Game
from cardrules.engine.views.notation import action_from_dict, parse_action
from cardrules.errors import (
    CardrulesError,
    IllegalAction,
    InvalidAction,
    TakeBackRefused,
    VariantError,
)
from cardrules.rules import TakeBacks, Variant
from cardrules.server.store import SNAPSHOT_EVERY, Store
from cardrules.server.timers import (
    Alarm,
    Clock,
    LoopClock,
    OptionError,
    Pause,
    TableOptions,
    ended_by,
)

__all__ = [
    "PROTOCOL",
    "SAVE_SUFFIX",
    "Client",
    "Hub",
    "Limits",
    "Seat",
    "Table",
    "load_variants",
    "public_view",
]

log = logging.getLogger("cardrules.server")

#: The protocol's version, sent in the ``hello`` message.
PROTOCOL: Final = 1

#: The ending of a table's save file in the save directory.
SAVE_SUFFIX: Final = ".table.json"

#: What a save file of the server starts with (its ``format`` field).
SAVE_FORMAT: Final = "cardrules-server-table"

#: The largest save file the server reads back (a game save is at most 5 MB).
MAX_TABLE_FILE: Final = 5_200_000

#: Refused messages in a row, beyond the rate limit, that close a connection.
FLOOD_CLOSE: Final = 200

#: The deepest nesting of lists and objects in a client's message (``bad_json``
#: beyond), and the longest number in one, in characters (``bad_message``).
MESSAGE_DEPTH: Final = 16
MESSAGE_NUMBER: Final = 24

# The same bounds for a table file (its game is a JSON string inside it, read
# by Game.from_json with the bounds of a save).
_FILE_DEPTH: Final = 16
_FILE_NUMBER: Final = 40

_TABLE_ID = re.compile(r"[0-9a-f]{12}")
_HASH = re.compile(r"[0-9a-f]{64}")
_HUMAN: Final = "human"

#: Why a bot plays for a human seat: its time ran out (any message from the
#: seat's player gives the seat back) or its player asked (only ``resume`` does).
_STAND_IN_WHY: Final = frozenset({"time", "asked"})

#: The longest invitation code or bot name the server reads.
_MAX_CODE: Final = 64


@frozen
class Limits:
    """Bounds on what clients may send and make the server hold.

    Attributes:
        max_message_bytes: the longest message the server reads (UTF-8 bytes);
            a longer one is refused with ``too_big`` and the connection stays.
        max_frame_bytes: the longest websocket frame the transport accepts; a
            longer one closes the connection (code 1009, "message too big").
        max_tables: tables held at once, finished ones included (when full, a
            finished table nobody is at makes room for a new one; see
            ``abandoned_after``).
        max_clients: connections at once.
        max_clients_per_address: connections at once from one network address.
        max_spectators_per_table: spectators watching one table. Seats never
            count: a seat's holder (rejoining with its token, or taking a free
            seat) is never refused for the spectators.
        max_tables_per_client: tables one connection may create.
        max_tables_per_address: unfinished tables created from one network
            address held at once.
        max_name: the longest player name, in characters.
        abandoned_after: seconds after which a table nobody is at (no seat
            holder, no spectator), finished or not, is forgotten and its save
            removed.
        idle_timeout: seconds after which the web layer closes a connection
            that has sent nothing (a ``ping`` keeps it open).
        rate: messages per second a connection may send on average...
        burst: ...and at most this many in a burst; beyond, ``rate_limited``.
        max_queue: messages waiting to go out to one connection; a client that
            reads slower than that is disconnected (it may join again).
        take_back_wait: seconds a take-back request waits for its answers
            before it is withdrawn (the bots wait for it meanwhile).
    """

    max_message_bytes: int = 8_192
    max_frame_bytes: int = 65_536
    max_tables: int = 100
    max_clients: int = 500
    max_clients_per_address: int = 50
    max_spectators_per_table: int = 32
    max_tables_per_client: int = 8
    max_tables_per_address: int = 10
    max_name: int = 32
    abandoned_after: float = 300.0
    idle_timeout: float = 300.0
    rate: float = 20.0
    burst: int = 40
    max_queue: int = 512
    take_back_wait: float = 60.0

    def to_dict(self) -> dict[str, Any]:
        """The limits a client should know, for the ``hello`` message."""
        return {
            "max_message_bytes": self.max_message_bytes,
            "max_tables": self.max_tables,
            "max_name": self.max_name,
            "rate": self.rate,
            "burst": self.burst,
            "idle_timeout": self.idle_timeout,
        }


class Refusal(Exception):
    """A message the server refuses: becomes an ``error`` message to its sender."""

    def __init__(self, code: str, message: str, engine_error: CardrulesError | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: The engine's refusal behind it, if any: its code and data go to the
        #: client as ``reason`` and ``data`` (about the client's own seat only).
        self.engine_error = engine_error


@define
class Seat:
    """One seat of a table.

    Attributes:
        kind: ``"human"`` or a bot's name (``"random"``, ``"heuristic"``).
        name: the player's name (a bot's is its kind).
        token_hash: the SHA-256 of the seat's token (hex), ``None`` while the
            seat is free. Only the hash is kept, in memory and in the save.
        stand_in: the bot playing for a human seat while its player is away
            (its time ran out, or it handed the seat to a bot), else ``None``.
        stand_in_why: ``"time"`` or ``"asked"`` while a stand-in plays.
    """

    kind: str
    name: str = ""
    token_hash: str | None = None
    stand_in: str | None = None
    stand_in_why: str | None = None

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.kind != _HUMAN

    def to_dict(self) -> dict[str, Any]:
        """The save's form (with the token's hash)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "token_hash": self.token_hash,
            "stand_in": self.stand_in,
            "stand_in_why": self.stand_in_why,
        }


class Client:
    """One connection, as the hub sees it: an outgoing queue of JSON texts.

    The web layer reads :attr:`outbox` and writes each text to the socket; the
    item ``None`` means "close the connection" with :attr:`close_code` and
    :attr:`close_reason`. :attr:`address` is the peer's network address (the
    web layer knows it; ``None`` for a client without one): the hub bounds
    the connections and the tables of each address.
    """

    def __init__(
        self, limits: Limits, *, clock: Any = time.monotonic, address: str | None = None
    ) -> None:
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limits.max_queue + 1)
        self.address = address
        self.table: str | None = None
        self.seat: int | None = None
        # How much of its stream of events the client has: the game and seat
        # of that stream and its length (a new seat or game starts at 0).
        self.events_of: tuple[object, int | None] | None = None
        self.events_sent = 0
        self.created = 0
        self.flooding = 0
        self.closing = False
        self.close_code = 1000
        self.close_reason = ""
        self._limits = limits
        self._clock = clock
        self._allowance = float(limits.burst)
        self._last = clock()

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for the client (dropped once the client is closing)."""
        if self.closing:
            return
        if self.outbox.qsize() >= self._limits.max_queue:
            self.close(1008, "too many messages waiting: read faster, then join again")
            return
        self.outbox.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def close(self, code: int, reason: str) -> None:
        """Close the connection once the queued messages are sent."""
        if self.closing:
            return
        self.closing = True
        self.close_code = code
        self.close_reason = reason[:120]
        self.outbox.put_nowait(None)

    def take_token(self) -> bool:
        """Spend one message of the rate limit; False when none is left."""
        now = self._clock()
        lim = self._limits
        self._allowance = min(float(lim.burst), self._allowance + (now - self._last) * lim.rate)
        self._last = now
        if self._allowance < 1.0:
            return False
        self._allowance -= 1.0
        return True


@define
class Table:
    """A game, its seats, its bots and the connections attached to it.

    Attributes:
        id: twelve hex digits.
        variant_key: the name the server offers the variant under.
        game: the game.
        seats: one per seat of the game.
        version: the game's version (:attr:`Game.version
            <cardrules.engine.game.Game.version>`: actions and take-backs so
            far, strictly increasing); every client message can name the
            version it saw, to detect that it acted on a stale state.
        created: when the table was created (seconds since the epoch).
        touched: when a move was last made or a seat last taken.
        last_seat: the seat that made the last move, if any.
        seat_options: per seat, what it may do now (``None`` while the game
            does not wait for it, else the ids of its legal actions).
        seat_options_changed: per seat, the table version at which its
            :attr:`seat_options` last changed: a move sent with an older
            version is ``stale``, one sent with this version or later is not
            (in a simultaneous phase the other seats' moves do not make it stale).
        address: the network address of the connection that created the table
            (not saved), for the bound on tables per address.
        empty_since: when (on the hub's clock) the last connection left the
            table; ``None`` while anyone is at it.
        options: the pause, turn timer, stand-in bot and privacy chosen at ``create``.
        invite_hash: the SHA-256 of a private table's invitation code.
        rematch: the id of the table created as this one's rematch, if any.
        pause: the pause after a trick or a hand the bots wait out, if any.
        deadlines: when each timed human seat's decision time runs out (on the
            hub's clock), for the seats the game waits for.
    """

    id: str
    variant_key: str
    game: Game
    seats: list[Seat]
    version: int = 0
    created: float = field(factory=time.time)
    touched: float = field(factory=time.time)
    last_seat: int | None = None
    bots: dict[int, Bot] = field(factory=dict)
    clients: list[Client] = field(factory=list)
    bot_task: asyncio.Task[None] | None = None
    options: TableOptions = field(factory=TableOptions)
    invite_hash: str | None = None
    rematch: str | None = None
    pause: Pause | None = None
    deadlines: dict[int, float] = field(factory=dict)
    alarms: dict[str, tuple[float, Alarm]] = field(factory=dict)
    stand_in_bots: dict[int, Bot] = field(factory=dict)
    rematch_invite: str | None = None
    events_seen: int = 0
    seat_options: list[tuple[int, ...] | None] = field(factory=list)
    seat_options_changed: list[int] = field(factory=list)
    address: str | None = None
    empty_since: float | None = None

    def note_seat_options(self) -> None:
        """Record, for each seat whose options changed, the current version."""
        g = self.game
        waiting = g.waiting_for if not g.is_over else ()
        now = [
            tuple(a.id for a in g.legal_actions(s)) if s in waiting else None
            for s in range(len(self.seats))
        ]
        if len(self.seat_options) != len(now):
            self.seat_options_changed = [self.version] * len(now)
        else:
            for s, (old, new) in enumerate(zip(self.seat_options, now, strict=True)):
                if old != new:
                    self.seat_options_changed[s] = self.version
        self.seat_options = now

    def seats_dict(self, now: float | None = None) -> list[dict[str, Any]]:
        """The public facts of every seat (never a token); with ``now`` (the
        hub's clock), the seconds left to a timed seat's decision."""
        held = {c.seat for c in self.clients if c.seat is not None}
        return [
            {
                "seat": s,
                "kind": seat.kind,
                "name": seat.name,
                "taken": seat.is_bot or seat.token_hash is not None,
                "connected": seat.is_bot or s in held,
                "stand_in": None
                if seat.stand_in is None
                else {"bot": seat.stand_in, "why": seat.stand_in_why},
                "time_left": round(max(0.0, self.deadlines[s] - now), 1)
                if now is not None and s in self.deadlines
                else None,
            }
            for s, seat in enumerate(self.seats)
        ]

    def options_dict(self) -> dict[str, Any]:
        """The table's options as ``tables`` and ``state`` show them: its
        take-back policy with the options chosen at ``create``."""
        return {"take_backs": self.game.take_back_policy.value, **self.options.to_dict()}

    def summary(self, now: float | None = None) -> dict[str, Any]:
        """The table as the ``tables`` list shows it."""
        g = self.game
        return {
            "table": self.id,
            "variant": self.variant_key,
            "players": g.players,
            "version": self.version,
            "hand_number": g.hand_number,
            "over": g.is_over,
            "seats": self.seats_dict(now),
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "options": self.options_dict(),
        }

    def to_save(self, log_seq: int = 0) -> str:
        """The table's snapshot: the seats and the game's own save, with the
        number of the last log entry it includes (see :mod:`cardrules.server.store`)."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "format_version": 2,
                "log_seq": log_seq,
                "id": self.id,
                "variant": self.variant_key,
                "created": self.created,
                "touched": self.touched,
                "version": self.version,
                "last_seat": self.last_seat,
                "seats": [s.to_dict() for s in self.seats],
                "options": self.options.to_dict(),
                "invite_hash": self.invite_hash,
                "rematch": self.rematch,
                "game": self.game.to_json(),
            },
            ensure_ascii=False,
        )


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def public_view(game: Game) -> dict[str, Any]:
    """What an onlooker at the table may see: the engine's
    :meth:`~cardrules.engine.game.Game.public_view` (only what EVERY seat sees:
    no hand, no hidden bid, no passed or face-down card, no legal action), as
    a dict.

    Args:
        game: the game.

    Returns:
        ``game.public_view().to_dict()``: shaped like a seat's view, with
        ``seat`` and ``hand`` set to ``None``.
    """
    return game.public_view().to_dict()


class Hub:
    """Every table of one server, and the protocol that drives them.

    Args:
        variants: the variants offered, by the name clients use. Clients name
            one of these; they never send a path.
        save_dir: where each table is saved after every move (``None``: no
            saves, for tests of the protocol alone).
        limits: the bounds on clients.
        bot_delay: seconds a bot waits before each move (0 in tests; a second
            or so lets people follow the play).
        fsync: flush each log entry and each snapshot to the disk before
            anyone is told of the change (the default). Without it a save
            still survives a crash of the server, but not one of the machine.
        snapshot_every: log entries between two snapshots of a table
            (:class:`~cardrules.server.store.Store`).
        save_mode: ``"log"`` (the default: a log entry a move, a snapshot now
            and then), or ``"snapshot"``: the whole table rewritten after every
            move, as before the log (kept to compare the two in
            ``benchmarks/bench_server.py``).
        group_commit: with ``fsync``, flush the log entries of all tables
            together, in a worker thread, instead of one flush a move that
            stops the event loop; whoever sends the queued messages must then
            ``await hub.durable()`` before sending each (the web layer does):
            no message leaves before the saves made before it are on the disk.
        allowed_origins: the web pages (``Origin`` headers such as
            ``"https://cards.example"``) whose scripts may connect; ``None``
            (the default) allows only pages of the host the client connected
            to (its ``Host`` header), and ``"*"`` in the list allows any.
            A connection without an ``Origin`` (not from a browser) is always
            allowed. The web layer checks it (:mod:`cardrules.server.app`).
        clock: the clock of the pauses, turn timers and the reaping of
            abandoned tables (default: the event loop's; tests pass a
            :class:`~cardrules.server.timers.ManualClock`).
    """

    def __init__(
        self,
        variants: Mapping[str, Variant],
        save_dir: Path | None = None,
        limits: Limits | None = None,
        *,
        bot_delay: float = 0.0,
        fsync: bool = True,
        snapshot_every: int = SNAPSHOT_EVERY,
        save_mode: str = "log",
        group_commit: bool = False,
        allowed_origins: Iterable[str] | None = None,
        clock: Clock | None = None,
    ) -> None:
        if not variants:
            raise ValueError("a server needs at least one variant")
        self.variants = dict(variants)
        self.save_dir = save_dir
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.fsync = fsync
        self._store = (
            None
            if save_dir is None
            else Store(
                save_dir,
                fsync=fsync,
                snapshot_every=snapshot_every,
                mode=save_mode,
                group_commit=group_commit,
            )
        )
        self.allowed_origins = (
            None if allowed_origins is None else tuple(_origin(o) for o in allowed_origins)
        )
        self.tables: dict[str, Table] = {}
        self.clients: set[Client] = set()
        self.clock: Clock = clock or LoopClock()
        self._rules: dict[str, dict[str, Any]] = {}
        self._reaping: Alarm | None = None

    # ------------------------------------------------------------ start-up

    def restore(self) -> list[str]:
        """Load every table saved in the save directory.

        A file that cannot be read (whatever is wrong with it: not JSON, nested
        too deep, a number too large, not a regular file...), names a variant
        this server does not offer, or holds a game that breaks its rules is
        skipped (and left in place) with a warning; the other tables are
        restored. The temporary files of saves cut short (``.*.tmp``, left by
        a server killed while it wrote) are removed.

        Returns:
            The warnings, one line each (also logged).
        """
        warnings: list[str] = []
        if self.save_dir is None:
            return warnings
        self.save_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        for tmp in self.save_dir.glob(".*.tmp"):
            try:
                if tmp.is_file():
                    tmp.unlink()
            except OSError as e:
                warnings.append(f"{tmp.name}: cannot remove a temporary file: {e}")

        def mtime(p: Path) -> float:
            try:
                return p.lstat().st_mtime
            except OSError:
                return 0.0

        files = sorted(self.save_dir.glob("*" + SAVE_SUFFIX), key=mtime)
        if len(files) > self.limits.max_tables:
            warnings.append(
                f"{len(files)} saved tables, more than max_tables {self.limits.max_tables}: "
                "the oldest are restored"
            )
            files = files[: self.limits.max_tables]
        for path in files:
            try:
                table = self._read_table(path)
            except Exception as e:  # whatever is wrong with one file, the others are served
                warnings.append(f"{path.name}: not restored: {str(e)[:300] or type(e).__name__}")
                continue
            table.empty_since = self.clock.now()  # its players have a while to come back
            self.tables[table.id] = table
        for w in warnings:
            log.warning("%s", w)
        return warnings

    def _read_table(self, path: Path) -> Table:
        raw = read_regular_file(path, MAX_TABLE_FILE, ValueError, path.name)
        try:
            data = jsontext.loads(raw, max_depth=_FILE_DEPTH, max_number=_FILE_NUMBER)
        except jsontext.BadJSON as e:
            raise ValueError(f"not a table file: {e}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("not a cardrules server table")
        tid = data.get("id")
        if (
            not isinstance(tid, str)
            or not _TABLE_ID.fullmatch(tid)
            or path.name != tid + SAVE_SUFFIX
        ):
            raise ValueError("bad table id")
        key = data.get("variant")
        variant = self.variants.get(key) if isinstance(key, str) else None
        if variant is None or not isinstance(key, str):
            raise ValueError(f"variant {key!r} is not offered by this server")
        text = data.get("game")
        if not isinstance(text, str):
            raise ValueError("no game")
        game = Game.from_json(text, variant=variant)
        seats = self._read_seats(data.get("seats"), game.players)
        version = data.get("version")
        if type(version) is not int or version < 0:
            raise ValueError("bad version")
        last = data.get("last_seat")
        if last is not None and (type(last) is not int or not 0 <= last < game.players):
            raise ValueError("bad last seat")
        options, invite, rematch = _read_options(data)
        table = Table(
            tid,
            key,
            game,
            seats,
            version=game.version,  # the game's (an older save may have counted otherwise)
            created=_when(data.get("created")),
            touched=_when(data.get("touched")),
            last_seat=last,
            options=options,
            invite_hash=invite,
            rematch=rematch,
        )
        log_seq = data.get("log_seq", 0)  # absent before the log (format_version 1)
        if type(log_seq) is not int or not 0 <= log_seq < 2**53:
            raise ValueError("bad log_seq")
        if self._store is not None:
            self._store.restore(table, log_seq)  # replays the log past the snapshot
        table.note_seat_options()
        self._make_bots(table)
        self._start_counting(table)
        return table

    def _read_seats(self, raw_seats: object, players: int) -> list[Seat]:
        """The seats of a table file (``ValueError`` for anything else)."""
        if not isinstance(raw_seats, list) or len(raw_seats) != players:
            raise ValueError("bad seats")
        seats: list[Seat] = []
        for raw in raw_seats:
            if not isinstance(raw, dict):
                raise ValueError("bad seat")
            kind, name, th = raw.get("kind"), raw.get("name"), raw.get("token_hash")
            if kind != _HUMAN and kind not in BOTS:
                raise ValueError(f"bad seat kind {kind!r}")
            if not isinstance(name, str) or len(name) > self.limits.max_name:
                raise ValueError("bad seat name")
            if th is not None and not (isinstance(th, str) and _HASH.fullmatch(th)):
                raise ValueError("bad token hash")
            # Saves from before stand-ins have none.
            stand_in, why = raw.get("stand_in"), raw.get("stand_in_why")
            if stand_in is not None and (
                kind != _HUMAN or stand_in not in BOTS or why not in _STAND_IN_WHY
            ):
                raise ValueError("bad stand-in")
            seats.append(Seat(kind, name, th, stand_in, why if stand_in is not None else None))
        return seats

    def start(self) -> None:
        """Set the bots and turn timers of every restored table going, and
        the reaping of abandoned tables (call inside the loop)."""
        for table in self.tables.values():
            self._pace(table)
            if table.game.take_back_request is not None:  # its wait starts again
                when = self.clock.now() + self.limits.take_back_wait
                self._set_alarm(table, "request", when)
            self._kick_bots(table)
        if self._reaping is None:
            self._reap_later()

    async def stop(self) -> None:
        """Stop every bot task, timer and the reaping (the tables are already saved)."""
        for table in self.tables.values():
            self._cancel_alarms(table)
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        if self._reaping is not None:
            self._reaping.cancel()
            self._reaping = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._store is not None:
            await self.durable()
            self._store.close()

    async def durable(self) -> None:
        """Return once every save made so far is on the disk: await it before
        sending a queued message (at once, unless ``group_commit``)."""
        if self._store is not None and self._store.unflushed():
            await self._store.flushed()

    # ------------------------------------------------------------ connections

    def connect(self, client: Client) -> bool:
        """Admit a new connection and greet it; False when the server is full,
        or holds as many connections from the client's address as it takes
        (then :attr:`Client.close_reason` says which)."""
        if len(self.clients) >= self.limits.max_clients:
            client.close_reason = "the server is full: try again later"
            return False
        if client.address is not None:
            same = sum(1 for c in self.clients if c.address == client.address)
            if same >= self.limits.max_clients_per_address:
                client.close_reason = "too many connections from your address"
                return False
        self.clients.add(client)
        client.send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "variants": [
                    {
                        "key": k,
                        "name": v.name,
                        "title": v.title or v.name,
                        "summary": v.summary,
                        "players": [v.players.min, v.players.max],
                    }
                    for k, v in sorted(self.variants.items())
                ],
                "bots": sorted(BOTS),
                "limits": self.limits.to_dict(),
            }
        )
        return True

    def disconnect(self, client: Client) -> None:
        """Forget a connection that has gone (its seat stays reserved for its token)."""
        self.clients.discard(client)
        self._detach(client)

    def handle(self, client: Client, text: str | bytes) -> None:
        """Read one message from ``client`` and act on it.

        Every refusal is an ``error`` message to the sender (a ``code`` and a
        ``message``); nothing a client sends raises here or ends the connection,
        except a flood far beyond the rate limit.
        """
        ref: object = None
        try:
            if not client.take_token():
                client.flooding += 1
                if client.flooding > FLOOD_CLOSE:
                    client.close(1008, "too many messages beyond the rate limit")
                    return
                raise Refusal("rate_limited", "too many messages: slow down")
            client.flooding = 0
            data = self._decode(text)
            ref = data.get("ref")
            if ref is not None and not (
                (isinstance(ref, str) and len(ref) <= 64) or type(ref) is int
            ):
                ref = None
                raise Refusal("bad_message", "'ref' is a string of at most 64 characters or an int")
            kind = data.get("type")
            handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise Refusal(
                    "unknown_type",
                    "'type' must be one of: " + ", ".join(sorted(_HANDLERS)),
                )
            if kind not in _NOT_A_RETURN:
                self._returned(client)
            handler(self, client, data, ref)
        except Refusal as r:
            err: dict[str, Any] = {"type": "error", "code": r.code, "message": r.message}
            if r.engine_error is not None:
                err["reason"] = r.engine_error.code
                err["data"] = r.engine_error.data
            if ref is not None:
                err["ref"] = ref
            client.send(err)

    def _decode(self, text: str | bytes) -> dict[str, Any]:
        # (A str from elsewhere than a text frame may hold a lone surrogate,
        # which has no UTF-8: it is refused below.)
        size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        if size > self.limits.max_message_bytes:
            raise Refusal(
                "too_big",
                f"a message is at most {self.limits.max_message_bytes:,} bytes, got {size:,}",
            )
        try:
            data = jsontext.loads(text, max_depth=MESSAGE_DEPTH, max_number=MESSAGE_NUMBER)
        except jsontext.BadJSON as e:
            if e.reason in ("syntax", "encoding", "depth"):
                raise Refusal("bad_json", f"not JSON text: {str(e)[:80]}") from None
            raise Refusal(
                "bad_message",
                f"{e}: numbers are finite and at most {MESSAGE_NUMBER} characters, "
                "text is Unicode without lone surrogates",
            ) from None
        if not isinstance(data, dict):
            raise Refusal("bad_message", "a message is a JSON object with a 'type'")
        return data

    # ------------------------------------------------------------ messages

    def _on_ping(self, client: Client, data: dict[str, Any], ref: object) -> None:
        client.send(_with_ref({"type": "pong"}, ref))

    def _on_tables(self, client: Client, data: dict[str, Any], ref: object) -> None:
        now = self.clock.now()
        # A private table is listed only to the connections at it.
        tables = [
            t.summary(now)
            for t in self.tables.values()
            if not t.options.private or client.table == t.id
        ]
        client.send(_with_ref({"type": "tables", "tables": tables}, ref))

    def _on_create(self, client: Client, data: dict[str, Any], ref: object) -> None:
        key, variant = self._requested_variant(data)
        seats = _requested_seats(data, key, variant)
        n = len(seats)
        sit = data.get("seat")
        humans = [s for s, seat in enumerate(seats) if not seat.is_bot]
        if sit is None:
            sit = humans[0] if humans else None
        elif type(sit) is not int or sit not in humans:
            raise Refusal("bad_seat", f"'seat' must be a human seat of the new table: {humans}")
        name = self._name(data) if sit is not None else ""
        policy = data.get("take_backs")
        if policy is not None and policy not in {p.value for p in TakeBacks}:
            raise Refusal(
                "bad_message",
                "'take_backs' is one of: " + ", ".join(repr(p.value) for p in TakeBacks),
            )
        try:
            options = TableOptions.read(data, BOTS)
        except OptionError as e:
            raise Refusal("bad_option", str(e)) from None
        self._room_for_a_table(client)
        table, invite = self._new_table(
            key, Game(variant, players=n, take_backs=policy), seats, options
        )
        table.address = client.address
        client.created += 1
        created: dict[str, Any] = {"type": "created", "table": table.id}
        if invite is not None:
            created["invite"] = invite
        client.send(_with_ref(created, ref))
        if sit is None:
            self._attach(client, table, None)
        else:
            self._take_seat(client, table, sit, name, ref)
        self._kick_bots(table)

    def _requested_variant(self, data: dict[str, Any]) -> tuple[str, Variant]:
        """The variant a ``create`` message names (its key and rules), one of
        this server's."""
        key = data.get("variant")
        variant = self.variants.get(key) if isinstance(key, str) else None
        if variant is None or not isinstance(key, str):
            raise Refusal(
                "unknown_variant",
                "'variant' must be one of this server's variants: "
                + ", ".join(sorted(self.variants)[:50]),
            )
        return key, variant

    def _room_for_a_table(self, client: Client) -> None:
        """Refuse a new table the client or the server has no room for."""
        lim = self.limits
        if client.created >= lim.max_tables_per_client:
            raise Refusal(
                "too_many_tables", f"one connection may create at most {lim.max_tables_per_client}"
            )
        self.reap()  # what strangers left behind makes room first
        if client.address is not None:
            mine = sum(
                1
                for t in self.tables.values()
                if t.address == client.address and not t.game.is_over
            )
            if mine >= lim.max_tables_per_address:
                raise Refusal(
                    "too_many_tables",
                    f"your address already has {mine} unfinished tables "
                    f"(at most {lim.max_tables_per_address}): finish or leave one",
                )
        if len(self.tables) >= lim.max_tables and not self._evict():
            raise Refusal("server_full", f"this server holds at most {lim.max_tables} tables")

    def _new_table(
        self, key: str, game: Game, seats: list[Seat], options: TableOptions
    ) -> tuple[Table, str | None]:
        """A new table, held and saved, with its bots and turn timers set (but
        not yet going: call ``_kick_bots``), and a private table's invitation code."""
        tid = secrets.token_hex(6)
        while tid in self.tables:  # pragma: no cover - 48 random bits
            tid = secrets.token_hex(6)
        invite = secrets.token_urlsafe(16) if options.private else None
        table = Table(
            tid,
            key,
            game,
            seats,
            options=options,
            invite_hash=None if invite is None else _hash(invite),
        )
        table.empty_since = self.clock.now()  # until a client is attached
        table.note_seat_options()
        self._make_bots(table)
        self._start_counting(table)
        self.tables[tid] = table
        self._pace(table)
        self._save_or_log(table)
        return table, invite

    def _on_join(self, client: Client, data: dict[str, Any], ref: object) -> None:
        table = self._table(data)
        token = data.get("token")
        if token is not None:
            if not isinstance(token, str) or len(token) > 100:
                raise Refusal("bad_token", "'token' is the text the server gave when you joined")
            h = _hash(token)
            for s, seat in enumerate(table.seats):
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, h):
                    self._attach(client, table, s)
                    joined = {"type": "joined", "table": table.id, "seat": s}
                    client.send(_with_ref(self._about(table, joined), ref))
                    # A seat whose time ran out is its player's again (and every
                    # client is sent its state); else only this client is.
                    if not self._returned(client):
                        self._send_state(table, client)
                    return
            raise Refusal("bad_token", "that token holds no seat at this table")
        self._check_invite(client, table, data)
        seat_no = data.get("seat")
        if type(seat_no) is not int or not 0 <= seat_no < len(table.seats):
            raise Refusal("bad_seat", f"'seat' is a seat number from 0 to {len(table.seats) - 1}")
        if client.table == table.id and client.seat is not None:
            raise Refusal("already_seated", f"you hold seat {client.seat} at this table")
        seat = table.seats[seat_no]
        if seat.is_bot:
            raise Refusal("seat_taken", f"seat {seat_no} is played by a bot")
        if seat.token_hash is not None:
            raise Refusal("seat_taken", f"seat {seat_no} is taken (rejoin it with its token)")
        self._take_seat(client, table, seat_no, self._name(data), ref)

    def _on_watch(self, client: Client, data: dict[str, Any], ref: object) -> None:
        table = self._table(data)
        self._check_invite(client, table, data)
        self._attach(client, table, None)
        client.send(_with_ref(self._about(table, {"type": "watching", "table": table.id}), ref))
        self._send_state(table, client)

    def _on_leave(self, client: Client, data: dict[str, Any], ref: object) -> None:
        self._detach(client)
        client.send(_with_ref({"type": "left"}, ref))

    def _on_state(self, client: Client, data: dict[str, Any], ref: object) -> None:
        table = self._my_table(client)
        since = data.get("since")
        digest = data.get("digest")
        if digest is not None and since is None:
            raise Refusal("bad_message", "'digest' goes with 'since': the digest of those entries")
        if since is not None:
            # A client that kept its events (a reconnect) asks only for the rest.
            have = len(table.game.events_for(client.seat))
            if type(since) is not int or not 0 <= since <= have:
                raise Refusal("bad_message", f"since must be an int from 0 to {have}")
            if digest is not None and not (
                isinstance(digest, str) and len(digest) == 64 and digest.isascii()
            ):
                raise Refusal("bad_message", "'digest' is the 'digest' of a state message")
            if digest is not None and digest != table.game.stream_digest(client.seat, since):
                # Not this stream's first entries (another game or seat): all of it again.
                since = 0
            client.events_of = (table.game, client.seat)
            client.events_sent = since
        self._send_state(table, client)

    def _on_act(self, client: Client, data: dict[str, Any], ref: object) -> None:
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "spectators cannot act: join a seat first")
        self._not_handed(table, seat)
        claimed = data.get("seat")
        if claimed is not None and (type(claimed) is not int or claimed != seat):
            raise Refusal("not_your_seat", f"you hold seat {seat}: you may act only for it")
        version = data.get("version")
        # Stale only if what this seat may do changed since the version it saw:
        # while all seats act at once (a pass, hidden bids) the others' moves
        # do not make its move stale.
        if version is not None and (
            type(version) is not int
            or version > table.version
            or version < table.seat_options_changed[seat]
        ):
            self._send_state(table, client)
            raise Refusal(
                "stale",
                f"you acted on version {version if type(version) is int else '(not a number)'}; "
                f"the table is at version {table.version}, and what your seat may do "
                f"changed at version {table.seat_options_changed[seat]} "
                "(the new state has been sent)",
            )
        game = table.game
        if game.is_over:
            raise Refusal("game_over", "the game is over")
        action = _read_action(data.get("action"))
        if seat not in game.waiting_for or not game.legal_actions(seat):
            # Checked here, so that the refusal describes no other seat's cards.
            who = game.to_act
            raise Refusal(
                "not_your_turn",
                f"it is not seat {seat}'s turn" + ("" if who is None else f" (seat {who} acts)"),
            )
        try:
            game.apply(action, seat)
        except IllegalAction as e:
            raise Refusal("illegal_action", str(e)[:400], e) from None
        except CardrulesError as e:
            raise Refusal("invalid_action", str(e)[:400], e) from None
        self._moved(table, seat, "act", seat, action.id)
        self._kick_bots(table)

    def _on_take_back(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """A seat takes back its last action (with the actions made after it), if
        the table's take-back policy allows it (``Game.take_back``)."""
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "spectators cannot take anything back: join a seat first")
        self._not_handed(table, seat)
        self._check_version(table, client, data)
        try:
            taken = table.game.take_back(seat)
        except TakeBackRefused as e:
            hint = (
                " (other seats have acted since: send 'request_take_back' to ask them)"
                if table.game.can_request_take_back(seat)
                else ""
            )
            raise Refusal("take_back_refused", str(e)[:400] + hint, e) from None
        # How many actions, never which: another seat's hidden bid stays hidden.
        client.send(_with_ref({"type": "taken_back", "count": len(taken)}, ref))
        self._moved(table, seat, "take_back", seat)
        self._kick_bots(table)

    def _on_request_take_back(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """A seat asks to take back its last action with the actions other seats
        made after it (``Game.request_take_back``): every seat whose action it
        would undo must agree (``answer_take_back``). A bot agrees at once; a
        seat a stand-in bot plays for (its player away) declines at once, so
        nobody learns a card of an absent player and chooses again. While the
        request waits, the bots wait too; it ends when answered, withdrawn, on
        any move, or after :attr:`Limits.take_back_wait` seconds."""
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "spectators cannot take anything back: join a seat first")
        self._not_handed(table, seat)
        self._check_version(table, client, data)
        game = table.game
        try:
            request = game.request_take_back(seat)
        except TakeBackRefused as e:
            raise Refusal(e.code, str(e)[:400], e) from None
        client.send(
            _with_ref(
                {
                    "type": "take_back_requested",
                    "count": request.count,
                    "asked": list(request.asked),
                },
                ref,
            )
        )
        taken: tuple[Action, ...] = ()
        for s in request.asked:
            other = table.seats[s]
            if other.is_bot or other.stand_in is not None:
                # A bot agrees; a stand-in for an absent player declines.
                taken = game.answer(s, other.is_bot)
                if game.take_back_request is None:
                    break
        self._after_request(table, seat, taken)

    def _on_answer_take_back(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """A seat asked by a take-back request agrees or declines (``accept``);
        the requester may withdraw it (``accept: false``)."""
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "spectators are not asked: join a seat first")
        accept = data.get("accept")
        if type(accept) is not bool:
            raise Refusal("bad_message", "'accept' is true or false")
        game = table.game
        request = game.take_back_request
        try:
            taken = game.answer(seat, accept)
        except TakeBackRefused as e:
            raise Refusal(e.code, str(e)[:400], e) from None
        client.send(_with_ref({"type": "answered", "accept": accept}, ref))
        assert request is not None  # answer refused otherwise
        self._after_request(table, request.seat, taken)

    def _after_request(self, table: Table, requester: int, taken: tuple[Action, ...]) -> None:
        """A take-back request was made, answered or withdrawn: the table
        changed (saved, every client sent its state); the requester is told
        how many actions were taken back once the others agreed."""
        game = table.game
        pending = game.take_back_request
        self._set_alarm(
            table,
            "request",
            None if pending is None else self.clock.now() + self.limits.take_back_wait,
        )
        if taken:
            for c in table.clients:
                if c.seat == requester:
                    # How many actions, never which (a hidden bid stays hidden).
                    c.send({"type": "taken_back", "count": len(taken), "agreed": True})
        self._moved(table, requester)
        self._kick_bots(table)

    def _request_alarm(self, table: Table) -> None:
        """A take-back request went unanswered too long: it is withdrawn."""
        if self.tables.get(table.id) is not table:
            return
        request = table.game.take_back_request
        if request is None:
            return
        table.game.answer(request.seat, False)
        self._after_request(table, request.seat, ())

    def _check_version(self, table: Table, client: Client, data: dict[str, Any]) -> None:
        """Refuse a message sent on a version of the table older than its own."""
        version = data.get("version")
        if version is not None and (type(version) is not int or version != table.version):
            self._send_state(table, client)
            raise Refusal(
                "stale",
                f"you asked on version {version if type(version) is int else '(not a number)'}; "
                f"the table is at version {table.version} "
                "(the new state has been sent)",
            )

    def _on_rules(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """The rules of one of the server's variants, before any table."""
        key = data.get("variant")
        if not isinstance(key, str) or key not in self.variants:
            raise Refusal(
                "unknown_variant",
                "'variant' must be one of this server's variants: "
                + ", ".join(sorted(self.variants)[:50]),
            )
        client.send(_with_ref({"type": "rules", "rules": self._rules_of(key)}, ref))

    def _on_ack(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """A seat has seen the last trick or hand: the pause no longer waits for
        it. An ``ack`` with no pause waiting for the seat changes nothing."""
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "only a seat acknowledges a pause: join a seat first")
        pause = table.pause
        if pause is None or seat not in pause.waiting:
            return
        pause.waiting.discard(seat)
        if not pause.waiting:
            self._end_pause(table)
            return
        self._broadcast(table)

    def _on_hand_to_bot(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """The seat's player hands the seat to a bot, until it sends ``resume``."""
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "only a seat can be handed to a bot: join a seat first")
        bot = data.get("bot", table.options.stand_in)
        if not isinstance(bot, str) or bot not in BOTS:
            raise Refusal("unknown_bot", "'bot' is one of: " + ", ".join(sorted(BOTS)))
        if table.game.is_over:
            raise Refusal("game_over", "the game is over")
        held = table.seats[seat]
        if held.stand_in != bot:
            table.stand_in_bots.pop(seat, None)
        held.stand_in, held.stand_in_why = bot, "asked"
        table.deadlines.pop(seat, None)
        self._gone_from_pause(table, seat, announce=False)
        self._pace(table)
        self._save_or_log(table)
        client.send(_with_ref({"type": "handed_to_bot", "seat": seat, "bot": bot}, ref))
        self._broadcast(table)
        self._kick_bots(table)

    def _on_resume(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """The seat's player takes the seat back from the bot playing for it
        (if one does: ``resume`` is always answered ``resumed``)."""
        table = self._my_table(client)
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "spectators have no seat to resume: join a seat first")
        client.send(_with_ref({"type": "resumed", "seat": seat}, ref))
        if table.seats[seat].stand_in is not None:
            self._give_back(table, seat)

    def _on_rematch(self, client: Client, data: dict[str, Any], ref: object) -> None:
        """A seat of a finished game asks for another: a new table with the
        same variant, seats and options, which every seat holder joins with
        its token; every client at this table is told its id (and a private
        table's new invitation code). Asked again, the same table is named."""
        table = self._my_table(client)
        if client.seat is None:
            raise Refusal("not_seated", "only a seat can ask for a rematch")
        if not table.game.is_over:
            raise Refusal("game_not_over", "a rematch follows a finished game: finish this one")
        if table.rematch is not None and table.rematch in self.tables:
            client.send(_with_ref(self._rematch_message(table), ref))
            return
        self._room_for_a_table(client)
        old = table.game
        game = Game(old.variant, players=old.players, take_backs=old.take_back_policy)
        seats = [Seat(s.kind, s.name, s.token_hash if not s.is_bot else None) for s in table.seats]
        new, invite = self._new_table(table.variant_key, game, seats, table.options)
        new.address = client.address
        client.created += 1
        table.rematch, table.rematch_invite = new.id, invite
        self._save_or_log(table)
        for c in list(table.clients):
            c.send(_with_ref(self._rematch_message(table), ref if c is client else None))
        self._broadcast(table)
        self._kick_bots(new)

    def _rematch_message(self, table: Table) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "rematch", "table": table.id, "new_table": table.rematch}
        if table.rematch_invite is not None:
            message["invite"] = table.rematch_invite
        return message

    # ------------------------------------------------------------ helpers

    def _name(self, data: dict[str, Any]) -> str:
        name = data.get("name", "")
        if not isinstance(name, str):
            raise Refusal("bad_name", "'name' is text")
        name = " ".join(name.split())
        if len(name) > self.limits.max_name or not name.isprintable():
            raise Refusal(
                "bad_name", f"a name is printable text of at most {self.limits.max_name} characters"
            )
        return name

    def _table(self, data: dict[str, Any]) -> Table:
        tid = data.get("table")
        table = self.tables.get(tid) if isinstance(tid, str) else None
        if table is None:
            raise Refusal("no_such_table", "no table has that id")
        return table

    def _my_table(self, client: Client) -> Table:
        table = self.tables.get(client.table) if client.table is not None else None
        if table is None:
            raise Refusal("not_at_table", "join or watch a table first")
        return table

    def _take_seat(self, client: Client, table: Table, s: int, name: str, ref: object) -> None:
        token = secrets.token_urlsafe(24)
        table.seats[s].token_hash = _hash(token)
        table.seats[s].name = name
        table.touched = time.time()
        self._attach(client, table, s)
        self._pace(table)  # the seat's turn timer runs once it is taken
        self._save_or_log(table)
        joined = {"type": "joined", "table": table.id, "seat": s, "token": token}
        client.send(_with_ref(self._about(table, joined), ref))
        self._broadcast(table)

    def _attach(self, client: Client, table: Table, seat: int | None) -> None:
        if client.table == table.id and client.seat == seat:
            return
        if seat is None:
            # Only spectators are counted: a seat's holder is never refused for them.
            watching = sum(1 for c in table.clients if c.seat is None and c is not client)
            if watching >= self.limits.max_spectators_per_table:
                raise Refusal(
                    "table_full",
                    f"this table has {watching} spectators, the most it takes "
                    "(its seats can still be joined)",
                )
        self._detach(client)
        if seat is not None:
            for other in list(table.clients):
                if other.seat == seat:
                    self._detach(other)
                    other.send(
                        {"type": "error", "code": "replaced", "message": "your seat joined again"}
                    )
                    other.close(4000, "your seat joined again from another connection")
        client.table = table.id
        client.seat = seat
        table.clients.append(client)
        table.empty_since = None

    def _detach(self, client: Client) -> None:
        table = self.tables.get(client.table) if client.table is not None else None
        seat = client.seat
        if table is not None and client in table.clients:
            table.clients.remove(client)
            if not table.clients:
                table.empty_since = self.clock.now()
        client.table = None
        client.seat = None
        if table is not None and seat is not None:
            self._gone_from_pause(table, seat)

    def _evict(self) -> bool:
        """Make room: forget the finished table nobody is at that was touched
        longest ago (the abandoned ones are already reaped)."""
        done = [t for t in self.tables.values() if not t.clients and t.game.is_over]
        if not done:
            return False
        self._forget(min(done, key=lambda t: t.touched))
        return True

    def reap(self) -> list[str]:
        """Forget every table nobody has been at for ``abandoned_after`` seconds
        (finished or not; bots alone do not keep a table), and remove its save.
        The hub calls this every 30 seconds (or a tenth of ``abandoned_after``,
        if shorter) once started, and before every ``create``.

        Returns:
            The ids of the tables forgotten.
        """
        now = self.clock.now()
        after = self.limits.abandoned_after
        gone = [
            t
            for t in self.tables.values()
            if not t.clients and t.empty_since is not None and now - t.empty_since >= after
        ]
        for t in gone:
            self._forget(t)
        return [t.id for t in gone]

    def _forget(self, table: Table) -> None:
        """Drop a table nobody is at: its bots stop and its save is removed."""
        del self.tables[table.id]
        self._cancel_alarms(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
        if self._store is not None:
            self._store.remove(table.id)

    def _reap_later(self) -> None:
        """Reap every 30 seconds (or a tenth of ``abandoned_after``, if shorter)."""
        every = min(30.0, max(0.05, self.limits.abandoned_after / 10))

        def tick() -> None:
            try:
                self.reap()
            except Exception:  # a failing unlink must not stop the reaping
                log.exception("reaping abandoned tables failed")
            self._reap_later()

        self._reaping = self.clock.call_later(every, tick)

    def _make_bots(self, table: Table) -> None:
        table.bots = {
            s: make_bot(seat.kind, secrets.randbits(32))
            for s, seat in enumerate(table.seats)
            if seat.is_bot
        }

    def _save(self, table: Table, op: tuple[str, tuple[Any, ...]] | None = None) -> None:
        """Save a change of the table: append ``op`` (an operation of
        ``store.REPLAY`` and its arguments) to its log, flushed; or, for a
        change that is no such operation (``None``) and now and then, write
        its whole snapshot atomically (:class:`~cardrules.server.store.Store`)."""
        if self._store is not None:
            self._store.save(table, op)

    def _moved(self, table: Table, seat: int, *op: Any) -> None:
        """After a change of the game by ``seat``: count it, save it (``op``:
        the operation's name and arguments, for the log; none: a snapshot),
        then tell every client. The table's version is the game's (actions
        and take-backs so far): a take-back request or answer leaves it."""
        table.version = table.game.version
        table.last_seat = seat
        table.touched = time.time()
        table.note_seat_options()
        self._paused_by_move(table, seat)
        table.deadlines.pop(seat, None)  # a seat that moved starts its next turn afresh
        self._pace(table)
        self._save_or_log(table, (op[0], op[1:]) if op else None)
        self._broadcast(table)

    def _save_or_log(self, table: Table, op: tuple[str, tuple[Any, ...]] | None = None) -> None:
        """Save the table; a failure (a full disk) is logged and play goes on,
        so the next save that succeeds (a snapshot) brings the files up to date."""
        try:
            self._save(table, op)
        except OSError:
            log.exception("table %s: the save failed", table.id)

    def _broadcast(self, table: Table) -> None:
        # What every client is sent alike is built once: the seats, and the
        # onlookers' view if a spectator watches. A seat's view is built only
        # for a client that holds it (never for a bot's seat or a seat away).
        public: dict[str, Any] | None = None
        seats = table.seats_dict(self.clock.now())
        for c in list(table.clients):
            if c.seat is None and public is None:
                public = public_view(table.game)
            self._send_state(table, c, public, seats)

    def _send_state(
        self,
        table: Table,
        client: Client,
        public: dict[str, Any] | None = None,
        seats: list[dict[str, Any]] | None = None,
    ) -> None:
        g = table.game
        if client.seat is not None:
            view = g.view(client.seat).to_dict()
        else:
            view = public if public is not None else public_view(g)
        # The events the client does not have yet: the seat's stream only grows
        # (a take-back is an entry too), so the tail after what was sent is all
        # it needs; it starts again from 0 for a new seat or game.
        known = client.events_of
        since = client.events_sent if known and known[0] is g and known[1] == client.seat else 0
        try:
            tail = g.events_for(client.seat, since=since)
        except InvalidAction:
            since = 0
            tail = g.events_for(client.seat)
        client.events_of = (g, client.seat)
        client.events_sent = since + len(tail)
        now = self.clock.now()
        client.send(
            {
                "type": "state",
                "table": table.id,
                "variant": table.variant_key,
                "version": table.version,
                "seat": client.seat,
                "last_seat": table.last_seat,
                "seats": table.seats_dict(now) if seats is None else seats,
                "view": view,
                "events_from": since,
                "events": [ev.to_dict() for ev in tail],
                "digest": g.stream_digest(client.seat),
                "can_take_back": client.seat is not None and g.can_undo(client.seat),
                "can_request_take_back": client.seat is not None
                and g.can_request_take_back(client.seat),
                "options": table.options_dict(),
                "pause": None if table.pause is None else table.pause.to_dict(now),
                "rematch": table.rematch,
            }
        )

    # ------------------------------------------------------------ rules, invitations

    def _rules_of(self, key: str) -> dict[str, Any]:
        """The rules a client shows for the variant offered as ``key``: its
        name, title, summary and canonical text (``cardrules.dsl.format``)."""
        rules = self._rules.get(key)
        if rules is None:
            v = self.variants[key]
            try:
                text: str | None = format_variant(v)
            except (VariantError, TypeError):  # a hand-built variant no file describes
                text = None
            rules = self._rules[key] = {
                "key": key,
                "name": v.name,
                "title": v.title or v.name,
                "summary": v.summary,
                "text": text,
            }
        return rules

    def _about(self, table: Table, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` (``joined``, ``watching``) with the table's rules and options."""
        message["rules"] = self._rules_of(table.variant_key)
        message["options"] = table.options_dict()
        return message

    def _check_invite(self, client: Client, table: Table, data: dict[str, Any]) -> None:
        """Refuse a stranger's ``join`` or ``watch`` of a private table without
        its invitation code (a connection already at the table needs none)."""
        if table.invite_hash is None or client.table == table.id:
            return
        code = data.get("invite")
        if not (
            isinstance(code, str)
            and len(code) <= _MAX_CODE
            and hmac.compare_digest(_hash(code), table.invite_hash)
        ):
            raise Refusal(
                "bad_invite",
                "this table is private: 'invite' must be the invitation code its creator was given",
            )

    # ------------------------------------------------------------ stand-ins

    def _not_handed(self, table: Table, seat: int) -> None:
        if table.seats[seat].stand_in is not None:
            raise Refusal(
                "bot_playing",
                f"a {table.seats[seat].stand_in} bot plays for your seat: send 'resume' first",
            )

    def _bot_of(self, table: Table, s: int) -> Bot:
        """The bot that plays seat ``s``: its own, or the stand-in of a human seat."""
        bot = table.bots.get(s)
        if bot is None:
            bot = table.stand_in_bots.get(s)
            if bot is None:
                kind = table.seats[s].stand_in or table.options.stand_in
                bot = table.stand_in_bots[s] = make_bot(kind, secrets.randbits(32))
        return bot

    def _returned(self, client: Client) -> bool:
        """A message from a seat whose time ran out: the seat is its player's
        again (and every client at the table is sent its state). Whether it was."""
        table = self.tables.get(client.table) if client.table is not None else None
        if table is None or client.seat is None:
            return False
        seat = table.seats[client.seat]
        if seat.stand_in is None or seat.stand_in_why != "time":
            return False
        self._give_back(table, client.seat)
        return True

    def _give_back(self, table: Table, s: int) -> None:
        seat = table.seats[s]
        seat.stand_in = seat.stand_in_why = None
        table.stand_in_bots.pop(s, None)
        table.deadlines.pop(s, None)  # a full decision time again
        self._pace(table)
        self._save_or_log(table)
        self._broadcast(table)

    # ------------------------------------------------------------ turn timers

    def _cancel_alarms(self, table: Table) -> None:
        for _, alarm in table.alarms.values():
            alarm.cancel()
        table.alarms.clear()

    def _set_alarm(self, table: Table, name: str, when: float | None) -> None:
        """Keep one alarm ``name`` for ``table``, due at ``when`` (none: ``None``)."""
        old = table.alarms.get(name)
        if old is not None and old[0] == when:
            return
        if old is not None:
            old[1].cancel()
            del table.alarms[name]
        if when is None:
            return
        ring = {"turn": self._turn_alarm, "request": self._request_alarm}.get(
            name, self._pause_alarm
        )

        def call() -> None:
            if table.alarms.get(name, (None, None))[1] is alarm:
                del table.alarms[name]
            ring(table)

        alarm = self.clock.call_later(when - self.clock.now(), call)
        table.alarms[name] = (when, alarm)

    def _pace(self, table: Table) -> None:
        """Start or stop the decision time of each human seat the game waits
        for (none during a pause, or without a turn timer), and keep the
        table's alarm at the first to run out."""
        g = table.game
        turn = table.options.turn_time
        if turn is None or g.is_over or table.pause is not None:
            table.deadlines.clear()
        else:
            s = g.to_act
            waiting = {s} if s is not None else set(g.waiting_for)
            timed = {
                w
                for w in waiting
                if (seat := table.seats[w]).kind == _HUMAN
                and seat.token_hash is not None
                and seat.stand_in is None
            }
            for w in list(table.deadlines):
                if w not in timed:
                    del table.deadlines[w]
            now = self.clock.now()
            for w in timed:
                table.deadlines.setdefault(w, now + turn)
        self._set_alarm(table, "turn", min(table.deadlines.values(), default=None))

    def _turn_alarm(self, table: Table) -> None:
        """A seat's decision time ran out: the table's stand-in bot plays for it."""
        if self.tables.get(table.id) is not table:
            return
        now = self.clock.now()
        late = sorted(s for s, when in table.deadlines.items() if when <= now)
        for s in late:
            del table.deadlines[s]
            seat = table.seats[s]
            seat.stand_in, seat.stand_in_why = table.options.stand_in, "time"
            log.info("table %s: seat %d ran out of time; a bot plays for it", table.id, s)
        self._pace(table)
        if late:
            self._save_or_log(table)
            self._broadcast(table)
            self._kick_bots(table)

    # ------------------------------------------------------------ pauses

    def _start_counting(self, table: Table) -> None:
        """Count the onlookers' events seen so far, so that only a trick or a
        hand ended from now on pauses the table."""
        if table.options.pause > 0:
            table.events_seen = len(table.game.events_for(None))

    def _present(self, table: Table) -> set[int]:
        """The human seats whose player is at the table (no bot playing for it)."""
        held = {c.seat for c in table.clients if c.seat is not None}
        return {
            s
            for s, seat in enumerate(table.seats)
            if not seat.is_bot and seat.stand_in is None and s in held
        }

    def _paused_by_move(self, table: Table, seat: int) -> None:
        """After a move: a seat's move counts as its acknowledgement of the
        pause; a move that ended a trick or a hand starts a pause (if the
        table has them) for the seats present to acknowledge."""
        if table.pause is not None:
            table.pause.waiting.discard(seat)
        if table.options.pause > 0:
            after, table.events_seen = ended_by(table.game, table.events_seen)
            waiting = self._present(table) if after is not None else set()
            if after is not None and waiting:
                until = self.clock.now() + table.options.pause
                table.pause = Pause(after, until, waiting)
                self._set_alarm(table, "pause", until)
                return
        if table.pause is not None and not table.pause.waiting:
            table.pause = None
            self._set_alarm(table, "pause", None)

    def _gone_from_pause(self, table: Table, seat: int, *, announce: bool = True) -> None:
        """A seat left or was handed to a bot: the pause no longer waits for it."""
        pause = table.pause
        if pause is None or seat not in pause.waiting:
            return
        if any(c.seat == seat for c in table.clients) and table.seats[seat].stand_in is None:
            return  # another connection holds the seat
        pause.waiting.discard(seat)
        if not pause.waiting:
            self._end_pause(table, announce=announce)

    def _end_pause(self, table: Table, *, announce: bool = True) -> None:
        table.pause = None
        self._set_alarm(table, "pause", None)
        self._pace(table)
        if announce:
            self._broadcast(table)
        self._kick_bots(table)

    def _pause_alarm(self, table: Table) -> None:
        """The pause has lasted its time: the bots play on."""
        if self.tables.get(table.id) is not table or table.pause is None:
            return
        self._end_pause(table)

    # ------------------------------------------------------------ bots

    def _bot_to_move(self, table: Table) -> int | None:
        """The bot seat the game waits for, if any: the seat to act (or the
        first waiting seat); a bot never moves out of turn, so while bids are
        simultaneous a bot bids when its turn in the bidding order comes."""
        g = table.game
        if g.is_over or table.pause is not None or g.take_back_request is not None:
            # A pause holds the bots, and so does a take-back request waiting for answers.
            return None
        s = g.to_act
        if s is None:
            waiting = g.waiting_for
            if not waiting:
                return None
            s = min(waiting)
        seat = table.seats[s]
        return s if seat.is_bot or seat.stand_in is not None else None

    def _kick_bots(self, table: Table) -> None:
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self._bot_to_move(table) is None:
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(table))

    async def _bot_loop(self, table: Table) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            if self.tables.get(table.id) is not table:
                return
            s = self._bot_to_move(table)
            if s is None:
                return
            g = table.game
            try:
                action = self._bot_of(table, s).choose(g.view(s))
                g.apply(action, s)
            except Exception:  # a bot's bug must not stop the table
                log.exception(
                    "table %s: the bot of seat %d failed; it plays its first option", table.id, s
                )
                action = g.legal_actions(s)[0]
                g.apply(action, s)
            self._moved(table, s, "act", s, action.id)


def _when(x: object) -> float:
    """A time from a save (seconds since the epoch), or now if it is not one."""
    if isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= 1e11:
        return float(x)
    return time.time()


def _origin(text: str) -> str:
    """An allowed origin as the web layer compares it: lower case, no final ``/``."""
    return text.strip().rstrip("/").lower()


def _read_options(data: dict[str, Any]) -> tuple[TableOptions, str | None, str | None]:
    """A table file's options, invitation hash and rematch id (``ValueError``
    for anything else; saves from before table options have none: the defaults)."""
    raw_options = data.get("options")
    options = TableOptions.read(
        raw_options if isinstance(raw_options, dict) else {}, BOTS
    )  # an OptionError is a ValueError: the file is skipped
    invite, rematch = data.get("invite_hash"), data.get("rematch")
    if invite is not None and not (isinstance(invite, str) and _HASH.fullmatch(invite)):
        raise ValueError("bad invitation hash")
    if options.private != (invite is not None):
        raise ValueError("a private table has an invitation hash, and only it")
    if rematch is not None and not (isinstance(rematch, str) and _TABLE_ID.fullmatch(rematch)):
        raise ValueError("bad rematch id")
    return options, invite, rematch


def _requested_seats(data: dict[str, Any], key: str, variant: Variant) -> list[Seat]:
    """The seats a ``create`` message asks for (``'human'`` or a bot's name
    each), as many as ``variant`` (named ``key``) may seat."""
    kinds = data.get("seats")
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise Refusal(
            "bad_message", "'seats' is a list with one entry per seat: 'human' or a bot's name"
        )
    n = len(kinds)
    if n not in variant.players:
        raise Refusal(
            "bad_players",
            f"{key} is for {count_range(variant.players.min, variant.players.max, 'player')}, "
            f"not {n}",
        )
    seats: list[Seat] = []
    for k in kinds:
        kind = k.strip().lower()
        if kind != _HUMAN and kind not in BOTS:
            raise Refusal(
                "bad_message",
                f"a seat is 'human' or a bot ({', '.join(sorted(BOTS))}), not {k[:20]!r}",
            )
        seats.append(Seat(kind, f"{kind} bot" if kind != _HUMAN else ""))
    return seats


def _with_ref(message: dict[str, Any], ref: object) -> dict[str, Any]:
    if ref is not None:
        message["ref"] = ref
    return message


def _read_action(raw: object) -> Action:
    """An action as a client sends it: ``{"id": 51}``, ``51`` or ``"play A♠"``."""
    try:
        if isinstance(raw, str):
            return parse_action(raw)
        if type(raw) is int:
            return Action.from_id(raw)
        if isinstance(raw, dict):
            return action_from_dict(raw)
    except InvalidAction as e:
        raise Refusal("invalid_action", str(e)[:400]) from None
    raise Refusal(
        "invalid_action",
        "'action' is an action's id, its object {\"id\": ...} or its text such as 'play A♠'",
    )


_HANDLERS: Final = {
    "ack": Hub._on_ack,
    "act": Hub._on_act,
    "create": Hub._on_create,
    "hand_to_bot": Hub._on_hand_to_bot,
    "join": Hub._on_join,
    "leave": Hub._on_leave,
    "ping": Hub._on_ping,
    "rematch": Hub._on_rematch,
    "resume": Hub._on_resume,
    "rules": Hub._on_rules,
    "state": Hub._on_state,
    "tables": Hub._on_tables,
    "take_back": Hub._on_take_back,
    "request_take_back": Hub._on_request_take_back,
    "answer_take_back": Hub._on_answer_take_back,
    "watch": Hub._on_watch,
}

#: Messages that do not give a seat whose time ran out back to its player:
#: a ``ping`` may be a client's automatic keep-alive; the other two do it themselves.
_NOT_A_RETURN: Final = frozenset({"ping", "hand_to_bot", "resume"})


def load_variants(names: Iterable[str]) -> dict[str, Variant]:
    """The variants a server offers, from built-in names and files the operator
    gives, keyed by their ``game:`` name.

    Raises:
        VariantError: for a name or file that cannot be loaded, or two with one name.
    """
    out: dict[str, Variant] = {}
    for name in names:
        v = load(name)
        if v.name in out:
            raise VariantError(f"two variants are named {v.name!r}")
        out[v.name] = v
    return out
