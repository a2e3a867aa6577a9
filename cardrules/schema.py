"""The JSON contract: JSON Schemas (draft 2020-12) of every object that crosses a wire.

Each object a server sends or stores has a ``to_dict()`` whose JSON the schema of
its name describes exactly (every field required, no others, enums of phases,
modes, cards and codes):

=========  ==============================================================
name       the JSON of
=========  ==============================================================
view       :meth:`View.to_dict <cardrules.engine.views.view.View.to_dict>`
action     an action (``notation.action_to_dict``: ``{"id", "label"}``)
result     :meth:`Result.to_dict <cardrules.engine.views.view.Result.to_dict>`
save       :meth:`Game.to_json <cardrules.engine.game.Game.to_json>`'s text
event      one entry of an event stream (``game.events_for(seat)``), as JSON
error      an error (``{"error", "code", "message", "data"}``)
=========  ==============================================================

The schemas are shipped in the package (``cardrules/schemas/NAME.json``), so a
client in any language can validate what it receives; ``cardrules schema NAME``
prints one.

The view and result schemas are built from the records' attrs fields and type
hints (:func:`cardrules.engine.views.jsonform.schema_of`, the same walk that builds
``View.from_dict``), the event schema from the event records' (one branch per
kind), and the error schema from the error classes and their codes; so after a
field, an event kind or an error code is added, the shipped files are rebuilt
with ``make schemas``, and a test fails until they are.

Examples:
    >>> import cardrules
    >>> s = cardrules.schema("view")
    >>> s["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    >>> "hand" in s["required"], s["additionalProperties"]
    (True, False)
    >>> cardrules.schema_names()
    ('action', 'error', 'event', 'result', 'save', 'view')
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any, Final

from cardrules.errors import CardrulesError

__all__ = ["SCHEMA_DIALECT", "schema", "schema_names"]

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
_NAMES: Final = ("action", "error", "event", "result", "save", "view")


def schema_names() -> tuple[str, ...]:
    """The names :func:`schema` knows, in alphabetical order."""
    return _NAMES


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the JSON form named ``name``, parsed (a fresh copy).

    Args:
        name: one of :func:`schema_names` (``"view"``, ``"action"``, ``"result"``,
            ``"save"``, ``"event"``, ``"error"``).

    Raises:
        CardrulesError: if no schema has that name.

    Example:
        >>> [r["maximum"] for r in schema("action")["properties"]["id"]["anyOf"]]
        [336, 501]
    """
    if name not in _NAMES:
        shown = repr(name[:30]) if isinstance(name, str) else type(name).__name__
        raise CardrulesError(f"no schema named {shown}; the schemas are {', '.join(_NAMES)}")
    return copy.deepcopy(_load(name))


@cache
def _load(name: str) -> dict[str, Any]:
    text = resources.files("cardrules").joinpath("schemas", f"{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
