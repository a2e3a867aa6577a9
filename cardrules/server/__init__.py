"""A reference websocket server for cardrules tables (the optional ``server`` extra).

Run it with ``cardrules serve`` (or ``python -m cardrules.server``) after
``pip install '.[server]'`` in a checkout of cardrules (or ``pip install
'dist/cardrules-0.1.0-py3-none-any.whl[server]'`` from a wheel built there);
``docs/server.md`` ("Building a card app") describes the protocol. The rules
side (:mod:`cardrules.server.hub`) needs only cardrules; the web side
(:mod:`cardrules.server.app`) needs Starlette and uvicorn, and is imported
only when the server runs.
"""

from __future__ import annotations

from cardrules.server.hub import PROTOCOL, Client, Hub, Limits, Seat, Table, public_view

__all__ = ["PROTOCOL", "Client", "Hub", "Limits", "Seat", "Table", "public_view"]
