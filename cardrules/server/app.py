"""The web side of the server: a Starlette app with one websocket route, run by uvicorn.

``/ws`` is the game protocol (see ``docs/server.md``); ``/health`` answers
``{"ok": true, ...}`` for a load balancer. The app only moves text between
each socket and its :class:`~cardrules.server.hub.Client` queue; every rule,
seat and save is the :class:`~cardrules.server.hub.Hub`'s, on the one event
loop uvicorn runs.

The app also refuses what the hub cannot see: a websocket opened by a page
of another site (its ``Origin`` is not allowed: HTTP 403 before the
handshake), and a connection that sends nothing for ``idle_timeout`` seconds
(closed with code 4001).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardrules.server.hub import Client, Hub, Limits

__all__ = ["IDLE_CLOSE", "build_hub", "create_app", "origin_allowed", "serve"]

log = logging.getLogger("cardrules.server")

#: The close code of a connection that sent nothing for ``Limits.idle_timeout``.
IDLE_CLOSE = 4001


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] | None) -> bool:
    """Whether a websocket from a page of ``origin`` may connect.

    Args:
        origin: the request's ``Origin`` header (``None``: not from a browser
            page, always allowed).
        host: the request's ``Host`` header.
        allowed: the allowed origins (``"https://cards.example"``; ``"*"`` for
            any), or ``None`` for pages of ``host`` only.

    Example:
        >>> origin_allowed("https://cards.example", "cards.example", None)
        True
        >>> origin_allowed("https://evil.example", "cards.example", None)
        False
        >>> origin_allowed(None, "cards.example", None)
        True
    """
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if allowed is not None:
        names = set(allowed)
        return "*" in names or origin in names
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and host is not None and netloc == host.strip().lower()


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
        if not origin_allowed(
            ws.headers.get("origin"), ws.headers.get("host"), hub.allowed_origins
        ):
            # Closing before the handshake answers HTTP 403: a page of another
            # site cannot drive a player's browser at this server.
            await ws.close(code=1008, reason="this origin may not connect")
            return
        await ws.accept()
        client = Client(hub.limits, address=ws.client.host if ws.client else None)
        if not hub.connect(client):
            await ws.close(code=1013, reason=client.close_reason)
            return
        loop = asyncio.get_running_loop()
        writer = loop.create_task(_write(ws, client))
        heard = [loop.time()]
        watchdog = loop.create_task(_watch_idle(client, heard, hub.limits.idle_timeout))
        try:
            while not client.closing:
                msg = await ws.receive()
                heard[0] = loop.time()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    text = msg.get("bytes") or b""
                hub.handle(client, text)
        except WebSocketDisconnect:
            pass
        finally:
            watchdog.cancel()
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


async def _watch_idle(client: Client, heard: list[float], idle: float) -> None:
    """Close the client once nothing has been heard from it for ``idle``
    seconds (``heard[0]``: when its last message came, on the loop's clock)."""
    loop = asyncio.get_running_loop()
    while not client.closing:
        left = heard[0] + idle - loop.time()
        if left <= 0:
            client.close(IDLE_CLOSE, f"nothing received for {idle:g} seconds: send a ping")
            return
        await asyncio.sleep(left)


async def _write(ws: WebSocket, client: Client) -> None:
    """Send the client's queued messages until it is closed."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                await ws.close(code=client.close_code, reason=client.close_reason)
                return
            await ws.send_text(text)
    except Exception:  # the peer went away (the reader sees it too), or a bug
        client.closing = True
        with contextlib.suppress(Exception):  # wakes the reader if the socket is still open
            await ws.close(code=1011, reason="the server could not send a message")


def serve(
    hub: Hub,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    log_level: str = "warning",
    allowed_origins: Iterable[str] | None = None,
) -> None:
    """Run the server until interrupted (Ctrl-C or SIGTERM).

    Prints ``cardrules server listening on ws://HOST:PORT/ws`` once it is
    ready; with ``port=0`` the system picks a free port and the line says which.
    ``allowed_origins``, if given, replaces the hub's (see :class:`Hub`).
    """
    if allowed_origins is not None:
        hub.allowed_origins = tuple(o.strip().rstrip("/").lower() for o in allowed_origins)
    config = uvicorn.Config(
        create_app(hub),
        host=host,
        port=port,
        ws="auto",
        ws_max_size=hub.limits.max_frame_bytes,
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
    allowed_origins: Iterable[str] | None = None,
) -> Hub:
    """A hub for the named variants (all built-ins when none), restored from
    ``save_dir``; ``allowed_origins`` as for :class:`Hub`."""
    from cardrules.dsl import builtin_names
    from cardrules.server.hub import load_variants

    hub = Hub(
        load_variants(variants or builtin_names()),
        save_dir,
        limits,
        bot_delay=bot_delay,
        fsync=fsync,
        allowed_origins=allowed_origins,
    )
    hub.restore()
    return hub
