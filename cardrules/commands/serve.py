"""The ``serve`` command: run the reference websocket server (the ``server`` extra)."""

from __future__ import annotations

import argparse
import logging
import re
import sys
from pathlib import Path

from cardrules import __version__
from cardrules.cli import Command, UsageError, check_number

__all__ = ["COMMANDS", "INSTALL_HINT"]

#: What to do when the server's packages are missing (cardrules is not on the
#: Python Package Index: the extra is installed from a checkout or a wheel).
INSTALL_HINT = (
    "the server needs the optional 'server' extra (Starlette, uvicorn, websockets): "
    "from a checkout of cardrules, pip install '.[server]'; from a wheel, "
    f"pip install 'dist/cardrules-{__version__}-py3-none-any.whl[server]'"
)


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--variant",
        dest="variants",
        action="append",
        default=[],
        metavar="NAME_OR_FILE",
        help="offer this variant: a built-in name or a .cardrules file (repeatable; "
        "default: every built-in). Clients choose among these by name, never by path",
    )
    p.add_argument(
        "--save-dir",
        type=Path,
        required=True,
        help="the folder where every table is saved after every move, and restored "
        "from at start-up (saves hold each game's seed: keep the folder private)",
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=8765, help="the port (8765; 0 picks a free one and prints it)"
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="how long a bot waits before each move (0)",
    )
    p.add_argument(
        "--no-fsync",
        dest="fsync",
        action="store_false",
        help="do not flush each save to the disk: a save still survives a crash of the "
        "server, not one of the machine (a move costs a few ms less)",
    )
    p.add_argument(
        "--allow-origin",
        dest="origins",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="let web pages of this origin (such as https://cards.example) connect; "
        "repeatable, '*' allows any. Default: only pages of the host the client "
        "connected to. Clients that are not web pages (no Origin header) always may",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="close a connection that sends nothing for this long (300; a ping keeps it open)",
    )
    p.add_argument(
        "--abandoned-after",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="forget a table nobody has been at for this long, and remove its save (300)",
    )
    p.add_argument("--max-tables", type=int, default=100, help="tables held at once (100)")
    p.add_argument("--max-clients", type=int, default=500, help="connections at once (500)")
    p.add_argument(
        "--max-clients-per-address",
        type=int,
        default=50,
        help="connections at once from one network address (50)",
    )
    p.add_argument(
        "--max-tables-per-address",
        type=int,
        default=10,
        help="unfinished tables created from one network address held at once (10)",
    )
    p.add_argument(
        "--max-message-bytes",
        type=int,
        default=8192,
        help="the longest message a client may send (8192)",
    )
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])


def _run(args: argparse.Namespace) -> int:
    try:
        from cardrules.server.app import build_hub, serve
    except ImportError as e:
        print(f"cardrules: {INSTALL_HINT} ({e})", file=sys.stderr)
        return 1
    from cardrules.server.hub import Limits

    check_number("--port", args.port, 0, 65535)
    check_number("--max-tables", args.max_tables, 1, 100_000)
    check_number("--max-clients", args.max_clients, 1, 100_000)
    check_number("--max-clients-per-address", args.max_clients_per_address, 1, 100_000)
    check_number("--max-tables-per-address", args.max_tables_per_address, 1, 100_000)
    check_number("--max-message-bytes", args.max_message_bytes, 256, 1_000_000)
    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay must be from 0 to 60 seconds, not {args.bot_delay}")
    if not 1 <= args.idle_timeout <= 86_400:
        raise UsageError(f"--idle-timeout must be from 1 to 86400 seconds, not {args.idle_timeout}")
    if not 1 <= args.abandoned_after <= 30 * 86_400:
        raise UsageError(
            f"--abandoned-after must be from 1 to 2592000 seconds, not {args.abandoned_after}"
        )
    for origin in args.origins or ():
        if origin != "*" and not re.fullmatch(r"[a-z][a-z0-9+.-]*://[^/\s]+/?", origin.lower()):
            raise UsageError(
                f"--allow-origin takes an origin such as https://cards.example or '*', "
                f"not {origin[:80]!r}"
            )
    try:
        args.save_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        raise UsageError(
            f"--save-dir: cannot use {str(args.save_dir)!r} as a folder: {e}"
        ) from None
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s: %(message)s")
    limits = Limits(
        max_tables=args.max_tables,
        max_clients=args.max_clients,
        max_message_bytes=args.max_message_bytes,
        max_frame_bytes=max(65_536, 4 * args.max_message_bytes),
        max_clients_per_address=args.max_clients_per_address,
        max_tables_per_address=args.max_tables_per_address,
        idle_timeout=args.idle_timeout,
        abandoned_after=args.abandoned_after,
    )
    hub = build_hub(
        args.variants,
        args.save_dir,
        limits,
        bot_delay=args.bot_delay,
        fsync=args.fsync,
        allowed_origins=args.origins,
    )
    try:
        serve(hub, host=args.host, port=args.port, log_level=args.log_level)
    except OSError as e:  # the port is taken, or the address is not this machine's
        print(f"cardrules: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    return 0


COMMANDS = [
    Command(
        "serve",
        "run the reference websocket server: tables of any variant, human and bot seats",
        _configure,
        _run,
        description=(
            "Host card tables over websockets (JSON messages; see 'Building a card app' "
            "in the docs). Each client sees only its own seat's view; bots play their "
            "seats; every table is saved after every move and restored at start-up. "
            "Needs the optional 'server' extra: from a checkout, pip install '.[server]'."
        ),
    )
]
