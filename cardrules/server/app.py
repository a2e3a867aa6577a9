"""The web side of the server: a Starlette app with one websocket route, run by uvicorn.

``/ws`` is the game protocol (see ``docs/server.md``); ``/health`` answers
``{"ok": true, ...}`` for a load balancer. The app only moves text between
each socket and its :class:`~cardrules.server.hub.Client` queue; every rule,
seat and save is the :class:`~cardrules.server.hub.Hub`'s, on the one event
loop uvicorn runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardrules.server.hub import Client, Hub, Limits

__all__ = ["create_app", "serve"]

log = logging.getLogger("cardrules.server")


def create_app(hub: Hub) -> Starlette:
    """The ASGI app serving ``hub``'s tables.

    On start-up it sets the bots of restored tables going; on shut-down it
    stops them (every table is already saved).
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        yield
        await hub.stop()

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"ok": True, "tables": len(hub.tables), "clients": len(hub.clients)})

    async def play(ws: WebSocket) -> None:
        await ws.accept()
        client = Client(hub.limits)
        if not hub.connect(client):
            await ws.close(code=1013, reason="the server is full: try again later")
            return
        writer = asyncio.get_running_loop().create_task(_write(ws, client, hub))
        try:
            while not client.closing:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    text = msg.get("bytes") or b""
                hub.handle(client, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(client)
            client.close(1000, "bye")
            try:
                await asyncio.wait_for(writer, timeout=5)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()
            except Exception:  # the socket already went away
                pass

    return Starlette(
        routes=[Route("/health", health), WebSocketRoute("/ws", play)],
        lifespan=lifespan,
    )


async def _write(ws: WebSocket, client: Client, hub: Hub) -> None:
    """Send the client's queued messages until it is closed, each once the
    saves made before it are on the disk (``Hub.durable``: group commit)."""
    try:
        while True:
            text = await client.outbox.get()
            await hub.durable()
            if text is None:
                await ws.close(code=client.close_code, reason=client.close_reason)
                return
            await ws.send_text(text)
    except Exception:  # the peer went away: the reader sees it too
        client.closing = True


def serve(
    hub: Hub,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    log_level: str = "warning",
    compression: bool = False,
) -> None:
    """Run the server until interrupted (Ctrl-C or SIGTERM).

    Prints ``cardrules server listening on ws://HOST:PORT/ws`` once it is
    ready; with ``port=0`` the system picks a free port and the line says which.
    ``compression=True`` offers the websocket's per-message compression
    (``permessage-deflate``). It is off by default: a state message is a few
    kilobytes, and compressing each costs the server about a tenth of a
    millisecond of CPU, more than the rest of a move's work for its seat
    (``benchmarks/bench_server.py --compression`` measures it).
    """
    config = uvicorn.Config(
        create_app(hub),
        host=host,
        port=port,
        ws="auto",
        ws_max_size=hub.limits.max_frame_bytes,
        ws_per_message_deflate=compression,
        log_level=log_level,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    bound = sock.getsockname()[1]

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            print(f"cardrules server listening on ws://{shown}:{bound}/ws", flush=True)
        await task

    try:
        asyncio.run(main())
    finally:
        sock.close()
    sys.stdout.flush()


def build_hub(
    variants: list[str],
    save_dir: Path | None,
    limits: Limits | None = None,
    *,
    bot_delay: float = 0.0,
    fsync: bool = True,
    group_commit: bool = False,
) -> Hub:
    """A hub for the named variants (all built-ins when none), restored from ``save_dir``."""
    from cardrules.dsl import builtin_names
    from cardrules.server.hub import load_variants

    hub = Hub(
        load_variants(variants or builtin_names()),
        save_dir,
        limits,
        bot_delay=bot_delay,
        fsync=fsync,
        group_commit=group_commit,
    )
    hub.restore()
    return hub
