"""What the tests of the server's hub share: a hub's messages read from a
client's outgoing queue, a message sent and the answer read, and the bots let
run until every table waits for a person (no network, no sleeping)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from cardrules.server.hub import Client, Hub


def drain(c: Client) -> list[dict[str, Any]]:
    """Every message queued for ``c`` since the last call, decoded."""
    out = []
    while not c.outbox.empty():
        text = c.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def send(hub: Hub, c: Client, **msg: Any) -> list[dict[str, Any]]:
    """Send ``msg`` from ``c``; every message ``c`` got since the last call."""
    hub.handle(c, json.dumps(msg))
    return drain(c)


async def settle(hub: Hub) -> None:
    """Let the bot tasks run until every table waits for a person, a pause or its end."""
    for _ in range(20_000):
        tasks = [t.bot_task for t in hub.tables.values() if t.bot_task is not None]
        if all(t.done() for t in tasks):
            return
        await asyncio.sleep(0)
    raise AssertionError("the bots did not settle")
