"""Load test of the reference server: tables of 4 bot clients over real
websockets on 127.0.0.1, more and more tables until the latency degrades.

Run ``python benchmarks/bench_server.py`` (``--quick`` for shorter steps,
``--smoke`` to check in seconds that it all runs: its figures mean nothing;
``--json`` for machine-readable output, ``--hub-only`` to time only the hub
without a server or sockets).

The server is the real one (``cardrules.server.app.serve`` of a
:class:`~cardrules.server.hub.Hub`, uvicorn), in a subprocess of its own, on
127.0.0.1 with a free port and a temporary save folder, with the bounds on
clients raised so that the load test is not rate limited. This process runs
the clients, with the ``websockets`` package: each table has four human seats,
each held by one connection that plays as a bot from the states it is sent (a
random legal action from its ``view``, sent with the ``version`` it saw), and
a table whose game ends is replaced by a new one.

The load grows by steps: 1, 2, 4, 8... tables (up to ``--max-tables``), each
step a warm-up then a measured window. For each window it prints:

* ``moves/s``: the moves the server made (states acknowledging a move);
* ``p50``, ``p99``: the latency of a move, from sending ``act`` to receiving
  the ``state`` that shows it, in milliseconds;
* ``CPU/move``: the server process's CPU time (user + system, from
  ``/proc/<pid>/stat``) over the window, divided by the moves (this is the
  figure that is least disturbed by other work on the machine), then its
  ``user`` and ``sys`` parts (``sys``: the kernel's work for the process:
  sockets, writes, flushes);
* ``CPU %``: the server's CPU time over the window's wall time (100 = one
  core), and ``clients CPU %``: this process's, which plays every seat (when
  it nears 100, the clients, not the server, bound the moves a second).

It stops when the p99 latency passes ``--p99-limit`` milliseconds (or
``--degrade`` times the p99 of one table), at ``--max-tables``, or when the
time budget runs out. Each save mode is run in turn on a fresh server:
``snapshot`` (the whole table rewritten after every move, as before the log)
``log`` (one log line a move, flushed at once, a snapshot now and then) and
``group`` (the log with group commit, ``cardrules serve --group-commit``: the lines
of every table flushed together in a worker thread, each message sent once
the saves before it are on the disk; the hub alone is not timed for it, its
flushes being the web layer's); ``--save-mode`` picks one, ``--no-fsync``
runs them without flushing to the disk, and ``--compression`` has the server
offer ``permessage-deflate`` (off by default, as in ``cardrules serve``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: The run modes: (warm-up seconds, measured seconds, largest table count, time budget).
MODES: dict[str, tuple[float, float, int, float]] = {
    "full": (2.0, 6.0, 64, 240.0),
    "quick": (1.0, 3.0, 32, 90.0),
    "smoke": (0.3, 0.7, 2, 20.0),
}

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# --------------------------------------------------------------------------- the server


def serve(folder: str, variant: str, save_mode: str, fsync: bool, compression: bool) -> None:
    """The server subprocess: a hub with the bounds raised, served on a free port."""
    sys.path.insert(0, str(ROOT))
    from cardrules.server.app import serve as run
    from cardrules.server.hub import Hub, Limits, load_variants

    bounds = {"max_clients_per_address": 10_000, "max_tables_per_address": 10_000}
    fields = getattr(Limits, "__attrs_attrs__", ())
    known = {f.name for f in fields}
    limits = Limits(
        **{k: v for k, v in bounds.items() if k in known},  # the bounds by address, if any
        max_tables=10_000,
        max_clients=10_000,
        max_tables_per_client=10_000,
        rate=100_000.0,
        burst=100_000,
        max_queue=100_000,
    )
    hub = Hub(
        load_variants([variant]),
        Path(folder),
        limits,
        fsync=fsync,
        save_mode="log" if save_mode == "group" else save_mode,
        group_commit=save_mode == "group",
    )
    hub.restore()
    out = os.environ.get("BENCH_SERVER_PROFILE")  # a cProfile of the server, to this file
    if not out:
        run(hub, host="127.0.0.1", port=0, compression=compression)
        return
    import cProfile

    prof = cProfile.Profile()
    prof.enable()
    try:
        run(hub, host="127.0.0.1", port=0, compression=compression)
    finally:
        prof.disable()
        prof.dump_stats(out)


class Server:
    """The server subprocess, its URL and its CPU time."""

    def __init__(
        self, folder: Path, variant: str, save_mode: str, fsync: bool, compression: bool
    ) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
        cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--serve",
            str(folder),
            variant,
            save_mode,
            "1" if fsync else "0",
            "1" if compression else "0",
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, cwd=ROOT)
        assert self.proc.stdout is not None
        line = b""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            ready, _, _ = select.select([self.proc.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1)
                if not chunk:
                    break
                line += chunk
        m = re.search(rb"ws://127\.0\.0\.1:(\d+)/ws", line)
        if m is None:
            self.stop()
            raise SystemExit(f"the server did not start: {line!r}")
        self.url = f"ws://127.0.0.1:{int(m.group(1))}/ws"

    def cpu(self) -> tuple[float, float]:
        """The server's CPU time so far (user, system), in seconds."""
        with open(f"/proc/{self.proc.pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) / TICK, int(fields[12]) / TICK

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


# --------------------------------------------------------------------------- the clients


@dataclass
class Stats:
    """Moves and latencies, since the last :meth:`reset`."""

    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0

    def reset(self) -> None:
        self.moves = 0
        self.latencies = []
        self.errors = 0


async def _recv(ws: Any) -> dict[str, Any]:
    msg = json.loads(await ws.recv())
    assert isinstance(msg, dict)
    return msg


async def seat_loop(ws: Any, rng: random.Random, stats: Stats, seat0: bool) -> None:
    """Play one seat from the states it is sent until the game ends."""
    acted = -1
    sent_at = 0.0
    while True:
        msg = await _recv(ws)
        kind = msg["type"]
        if kind == "error":
            stats.errors += 1
            continue
        if kind != "state":
            continue
        version = msg["version"]
        if acted >= 0 and version > acted:
            stats.latencies.append(time.perf_counter() - sent_at)
            acted = -1
        if seat0 and msg["last_seat"] is not None:
            stats.moves += 1  # one client of the table counts its moves
        view = msg["view"]
        if view["result"] is not None:
            return
        legal = view["legal_actions"]
        if legal and acted < 0:
            action = rng.choice(legal)
            acted = version
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action["id"], "version": version}))


async def table_loop(url: str, variant: str, seed: int, stats: Stats, stop: asyncio.Event) -> None:
    """One table after another (a new one when a game ends), four seats each."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    while not stop.is_set():
        conns = [await connect(url, max_size=None) for _ in range(4)]
        try:
            for ws in conns:
                await _recv(ws)  # hello
            await conns[0].send(
                json.dumps({"type": "create", "variant": variant, "seats": ["human"] * 4})
            )
            created = await _recv(conns[0])
            while created["type"] != "created":
                created = await _recv(conns[0])
            tid = created["table"]
            for s in (1, 2, 3):
                await conns[s].send(json.dumps({"type": "join", "table": tid, "seat": s}))
            seats = [
                asyncio.create_task(seat_loop(ws, random.Random(rng.random()), stats, i == 0))
                for i, ws in enumerate(conns)
            ]
            await asyncio.wait(
                [*seats, asyncio.create_task(stop.wait())], return_when=asyncio.FIRST_COMPLETED
            )
            if not stop.is_set():
                await asyncio.gather(*seats)
            for t in seats:
                t.cancel()
        finally:
            for ws in conns:
                await ws.close()


# --------------------------------------------------------------------------- the hub alone


def hub_alone(variant: str, save_mode: str, fsync: bool, skip: int, moves: int, seed: int) -> float:
    """CPU milliseconds a move of the hub alone, without sockets: one table of
    four human seats held by four in-memory clients, ``skip`` moves played,
    then ``moves`` timed (each: the ``act`` message read, the move applied and
    saved, the four states built as JSON text and queued)."""
    sys.path.insert(0, str(ROOT))
    from cardrules.server.hub import Client, Hub, Limits, load_variants

    with tempfile.TemporaryDirectory(prefix="cardrules-bench-") as folder:

        async def run() -> float:
            limits = Limits(rate=1e9, burst=10**9, max_queue=10**6)
            hub = Hub(
                load_variants([variant]), Path(folder), limits, fsync=fsync, save_mode=save_mode
            )
            clients = [Client(limits) for _ in range(4)]
            for c in clients:
                hub.connect(c)
            create = {"type": "create", "variant": variant, "seats": ["human"] * 4}
            hub.handle(clients[0], json.dumps(create))
            tid = next(iter(hub.tables))
            for s in (1, 2, 3):
                hub.handle(clients[s], json.dumps({"type": "join", "table": tid, "seat": s}))
            table = hub.tables[tid]
            g = table.game
            rng = random.Random(seed)
            spent = 0.0
            timed = 0
            for i in range(skip + moves):
                if g.is_over:
                    break
                for c in clients:
                    while not c.outbox.empty():
                        c.outbox.get_nowait()
                s = g.to_act if g.to_act is not None else min(g.waiting_for)
                text = json.dumps(
                    {
                        "type": "act",
                        "action": rng.choice(g.legal_actions(s)).id,
                        "version": table.version,
                    }
                )
                t = time.process_time()
                hub.handle(clients[s], text)
                if i >= skip:
                    spent += time.process_time() - t
                    timed += 1
            await hub.stop()
            return spent * 1e3 / max(1, timed)

        return asyncio.run(run())


# --------------------------------------------------------------------------- a run


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def ramp(
    server: Server,
    variant: str,
    mode: str,
    *,
    p99_limit: float,
    degrade: float,
    max_tables: int | None,
    seed: int,
) -> list[dict[str, Any]]:
    warm, window, most, budget = MODES[mode]
    if max_tables is not None:
        most = max_tables
    stats = Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    n = 1
    base_p99: float | None = None
    while n <= most:
        while len(tasks) < n:
            tasks.append(
                asyncio.create_task(table_loop(server.url, variant, seed + len(tasks), stats, stop))
            )
        await asyncio.sleep(warm)
        stats.reset()
        cpu0, t0, mine0 = server.cpu(), time.perf_counter(), time.process_time()
        await asyncio.sleep(window)
        cpu1, t1, mine1 = server.cpu(), time.perf_counter(), time.process_time()
        lat = [x * 1e3 for x in stats.latencies]
        moves = stats.moves
        user, system = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        row = {
            "tables": n,
            "moves": moves,
            "moves_per_s": moves / (t1 - t0),
            "p50_ms": _pct(lat, 0.5),
            "p99_ms": _pct(lat, 0.99),
            "cpu_ms_per_move": (user + system) * 1e3 / moves if moves else float("nan"),
            "user_ms_per_move": user * 1e3 / moves if moves else float("nan"),
            "sys_ms_per_move": system * 1e3 / moves if moves else float("nan"),
            "cpu_percent": (user + system) / (t1 - t0) * 100,
            "client_cpu_percent": (mine1 - mine0) / (t1 - t0) * 100,
            "errors": stats.errors,
        }
        rows.append(row)
        print(_row(row), flush=True)
        p99 = row["p99_ms"]
        if base_p99 is None:
            base_p99 = p99
        if failed := [t for t in tasks if t.done() and t.exception() is not None]:
            raise RuntimeError("a table failed") from failed[0].exception()
        if p99 > p99_limit or p99 > degrade * base_p99:
            row["stopped"] = "latency"
            break
        if time.monotonic() - started > budget:
            row["stopped"] = "time budget"
            break
        n *= 2
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rows


HEADER = (
    f"{'tables':>6} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
    f"{'CPU/move ms':>12} {'user':>6} {'sys':>6} {'CPU %':>6} {'clients CPU %':>14}"
)


def _row(r: dict[str, Any]) -> str:
    return (
        f"{r['tables']:>6} {r['moves_per_s']:>9,.0f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} "
        f"{r['cpu_ms_per_move']:>12.3f} {r['user_ms_per_move']:>6.3f} {r['sys_ms_per_move']:>6.3f} "
        f"{r['cpu_percent']:>6.0f} {r['client_cpu_percent']:>14.0f}"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        folder, variant, save_mode, fsync, compression = argv[1:6]
        with contextlib.suppress(KeyboardInterrupt):  # how the bench stops it
            serve(folder, variant, save_mode, fsync == "1", compression == "1")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="shorter steps, at most 32 tables")
    modes.add_argument("--smoke", action="store_true", help="tiny steps: checks that it all runs")
    ap.add_argument("--json", action="store_true", help="print JSON after the tables")
    ap.add_argument("--variant", default="kachuful", help="the variant played (kachuful)")
    ap.add_argument(
        "--save-mode",
        choices=["all", "snapshot", "log", "group"],
        default="all",
        help="the saves compared: snapshot (before the log), log (a flush a move), group "
        "(the log with group commit, serve --group-commit), or all (the default)",
    )
    ap.add_argument("--no-fsync", dest="fsync", action="store_false", help="saves not flushed")
    ap.add_argument(
        "--compression",
        action="store_true",
        help="the server offers permessage-deflate (off by default, as in cardrules serve)",
    )
    ap.add_argument("--max-tables", type=int, help="the most tables (64; 32 --quick; 2 --smoke)")
    ap.add_argument("--p99-limit", type=float, default=250.0, help="stop past this p99 (ms)")
    ap.add_argument(
        "--degrade", type=float, default=20.0, help="stop past this many times one table's p99"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--hub-only", action="store_true", help="time the hub alone (no server, no sockets)"
    )
    args = ap.parse_args(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    report: dict[str, Any] = {
        "command": " ".join(["python", "benchmarks/bench_server.py", *argv]),
        "variant": args.variant,
        "fsync": args.fsync,
        "compression": args.compression,
        "mode": mode,
        "runs": {},
    }
    print(
        f"cardrules server load test ({'--' + mode if mode != 'full' else 'full'}): "
        f"{args.variant}, 4 websocket bot clients a table, saves "
        f"{'flushed (fsync)' if args.fsync else 'not flushed (--no-fsync)'}, "
        f"{'compressed (--compression)' if args.compression else 'uncompressed'} messages, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    save_modes = ["snapshot", "log", "group"] if args.save_mode == "all" else [args.save_mode]
    # The hub alone first: the work that is the server's own, without sockets.
    skip, moves, runs = {"full": (150, 250, 7), "quick": (150, 150, 5), "smoke": (20, 10, 3)}[mode]
    print(
        f"\nthe hub alone, no sockets: CPU ms a move, moves {skip + 1}-{skip + moves} of a "
        f"4-seat {args.variant} game (mid-game), median of {runs} runs [each run]"
    )
    report["hub_alone"] = {}
    for save_mode in [m for m in save_modes if m != "group"]:
        each = [
            hub_alone(args.variant, save_mode, args.fsync, skip, moves, args.seed + r)
            for r in range(runs)
        ]
        report["hub_alone"][save_mode] = each
        print(
            f"  saves {save_mode:<8} {statistics.median(each):.3f} ms  "
            f"[{' '.join(f'{x:.3f}' for x in each)}]",
            flush=True,
        )
    for save_mode in [] if args.hub_only else save_modes:
        with tempfile.TemporaryDirectory(prefix="cardrules-bench-") as folder:
            server = Server(Path(folder), args.variant, save_mode, args.fsync, args.compression)
            print(f"\nsaves: {save_mode}\n{HEADER}", flush=True)
            try:
                rows = asyncio.run(
                    ramp(
                        server,
                        args.variant,
                        mode,
                        p99_limit=args.p99_limit,
                        degrade=args.degrade,
                        max_tables=args.max_tables,
                        seed=args.seed,
                    )
                )
            finally:
                server.stop()
            report["runs"][save_mode] = rows
            best = min((r["cpu_ms_per_move"] for r in rows), default=float("nan"))
            med = statistics.median(r["cpu_ms_per_move"] for r in rows) if rows else float("nan")
            stop = rows[-1].get("stopped", "the most tables") if rows else "-"
            print(f"CPU/move: median {med:.3f} ms, best {best:.3f} ms; stopped: {stop}")
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
