"""How the shipped JSON Schemas (``cardrules/schemas/``) are built from the code:
the records' attrs fields, the event kinds and the error classes (used by
``make schemas`` and by the test that the shipped files are up to date). Reading
a schema needs only :mod:`cardrules.schema`, which never imports this module, so
``import cardrules`` does not load the engine."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Final

from cardrules.cards import MAX_PACKS
from cardrules.engine.state.history import MAX_TAKE_BACKS, MAX_TAKEN_BACK_ACTIONS
from cardrules.engine.state.saves import (
    MAX_SAVE_ACTIONS,
    MAX_SAVE_HANDS,
    SAVE_FORMAT,
    SAVE_VERSION,
)
from cardrules.engine.state.tables import _PHASE_NAMES
from cardrules.engine.views.jsonform import (
    ACTION_ID_SCHEMA,
    DEFS,
    EVENT_RULES,
    nested_records,
    record_schema,
)
from cardrules.engine.views.view import Result, TakeBackRequest, View
from cardrules.errors import CardrulesError
from cardrules.rules import TakeBacks
from cardrules.schema import _NAMES, SCHEMA_DIALECT

__all__ = ["build", "schema_text", "write_schemas"]

_SEAT: Final = {"type": "integer", "minimum": 0, "maximum": 51}
_NULLABLE_SEAT: Final = {"type": ["integer", "null"], "minimum": 0, "maximum": 51}


def _head(name: str, title: str, description: str) -> dict[str, Any]:
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"urn:cardrules:schema:{name}",
        "title": title,
        "description": description,
    }


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _view() -> dict[str, Any]:
    records = nested_records(View)  # Result, and any record a field of View holds
    refs = {r: _snake(r.__name__) for r in records}
    return {
        **_head("view", "View", "Everything one seat may know about a game: View.to_dict()."),
        **record_schema(View, refs),
        "$defs": {**DEFS, **{refs[r]: record_schema(r, refs) for r in records}},
    }


def _result() -> dict[str, Any]:
    return {
        **_head("result", "Result", "How a finished game came out: Result.to_dict()."),
        **record_schema(Result),
        "$defs": DEFS,
    }


def _action() -> dict[str, Any]:
    action = dict(DEFS["action"])
    del action["description"]
    return {
        **_head("action", "Action", "An action: its id decides; the label is for people."),
        **action,
    }


def _cards(most: int = 52 * MAX_PACKS) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": most}


#: The fields of a save written only when they have something to say.
_OPTIONAL_SAVE_FIELDS: Final = frozenset(
    {"draws", "take_backs", "retracted", "take_back_request", "taken_back"}
)


def _save() -> dict[str, Any]:
    closed = {"additionalProperties": False}
    props: dict[str, Any] = {
        "format": {"const": SAVE_FORMAT},
        "version": {"const": SAVE_VERSION},
        "variant": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 64},
                "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
                "rules": {
                    "description": "The resolved rules as canonical variant text (null for "
                    "a hand-built variant no text can describe).",
                    "type": ["string", "null"],
                    "maxLength": 100_000,
                },
                "idle": {
                    "description": "Settings whose lines were only warnings when loaded.",
                    "type": "array",
                    "items": {"type": "string", "maxLength": 64},
                },
            },
            "required": ["name", "fingerprint", "rules", "idle"],
            **closed,
        },
        "players": {"type": "integer", "minimum": 1, "maximum": 52},
        "seed": {
            "description": "The seed of every deal: keep a save from the players.",
            "type": "integer",
            "minimum": 0,
            "maximum": 2**64 - 1,
        },
        "first_dealer": _NULLABLE_SEAT,
        "max_tricks": {"type": ["integer", "null"], "minimum": 1, "maximum": 10**9},
        "decks": {
            "description": "Stacked decks given to the game, one per hand (empty: shuffled).",
            "type": "array",
            "items": _cards(),
            "maxItems": MAX_SAVE_HANDS,
        },
        "decks_reuse": {"type": "boolean"},
        "deals": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_SAVE_HANDS,
            "items": {
                "type": "object",
                "properties": {
                    "hand": {"type": "integer", "minimum": 1, "maximum": MAX_SAVE_HANDS},
                    "dealer": _SEAT,
                    "hands": {"type": "array", "items": _cards(), "maxItems": 52},
                    "turned": {
                        "anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}],
                    },
                },
                "required": ["hand", "dealer", "hands", "turned"],
                **closed,
            },
        },
        "actions": {
            "description": "Every action, as [seat, action id].",
            "type": "array",
            "maxItems": MAX_SAVE_ACTIONS,
            "items": {
                "type": "array",
                "prefixItems": [
                    _SEAT,
                    ACTION_ID_SCHEMA,
                ],
                "minItems": 2,
                "items": False,
            },
        },
        "state": {
            "description": "A summary the restore checks against the replayed actions.",
            "type": "object",
            "properties": {
                "hand_number": {"type": "integer", "minimum": 1, "maximum": MAX_SAVE_HANDS},
                "phase": {"enum": list(_PHASE_NAMES)},
                "to_act": _NULLABLE_SEAT,
                "scores": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^-?[0-9]+(/[1-9][0-9]*)?$"},
                    "maxItems": 52,
                },
            },
            "required": ["hand_number", "phase", "to_act", "scores"],
            **closed,
        },
        "draws": {
            "description": "Dead cards drawn, given to a game rebuilt from a record.",
            **_cards(MAX_SAVE_ACTIONS),
        },
        "take_backs": {
            "description": "The table's take-back policy, when it overrides the variant's.",
            "enum": [p.value for p in TakeBacks],
        },
        "retracted": {
            "description": "Who made actions that players took back: [m, seats], each of "
            "those seats acted after each of the first m actions (m growing).",
            "type": "array",
            "maxItems": MAX_SAVE_ACTIONS,
            "items": {
                "type": "array",
                "prefixItems": [
                    {"type": "integer", "minimum": 0, "maximum": MAX_SAVE_ACTIONS},
                    {"type": "array", "items": _SEAT, "minItems": 1, "maxItems": 52},
                ],
                "minItems": 2,
                "items": False,
            },
        },
        "take_back_request": {
            "description": "The take-back request waiting for answers, if any.",
            **record_schema(TakeBackRequest),
        },
        "taken_back": {
            "description": "The players' take-backs, in order (absent: none): the seat, "
            "the seats that agreed, how many actions the line of play kept, and the "
            "actions undone as a flat list [seat, action id, ...].",
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_TAKE_BACKS,
            "items": {
                "type": "object",
                "properties": {
                    "seat": _SEAT,
                    "agreed": {"type": "array", "items": _SEAT, "maxItems": 51},
                    "kept": {"type": "integer", "minimum": 0, "maximum": MAX_SAVE_ACTIONS},
                    "undone": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0},
                        "minItems": 2,
                        "maxItems": 2 * MAX_TAKEN_BACK_ACTIONS,
                    },
                },
                "required": ["seat", "agreed", "kept", "undone"],
                **closed,
            },
        },
    }
    return {
        **_head("save", "Saved game", "A saved game: Game.to_json()'s text."),
        "type": "object",
        "properties": props,
        "required": [k for k in props if k not in _OPTIONAL_SAVE_FIELDS],
        **closed,
        "$defs": {"card": DEFS["card"]},
    }


def _error_classes() -> list[str]:
    """The names of the error classes of :mod:`cardrules.errors`, base first."""
    from cardrules import errors

    found = [
        c
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, CardrulesError) and c.__module__ == errors.__name__
    ]
    return [c.__name__ for c in sorted(found, key=lambda c: (len(c.__mro__), c.__name__))]


def _error() -> dict[str, Any]:
    from cardrules import errors

    codes: dict[str, str] | None = getattr(errors, "ERROR_CODES", None)
    code: dict[str, Any] = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "maxLength": 64}
    if codes is not None:
        code = {
            "description": "The stable machine-readable code (cardrules.errors.ERROR_CODES).",
            "enum": list(codes),
        }
    return {
        **_head("error", "Error", "A refusal: a CardrulesError's to_dict()."),
        "type": "object",
        "properties": {
            "error": {"description": "The class of the error.", "enum": _error_classes()},
            "code": code,
            "message": {"description": "What is wrong, in words (str(err)).", "type": "string"},
            "data": {
                "description": "The facts behind the refusal (seat, rule, cards as text...).",
                "type": "object",
            },
        },
        "required": ["error", "code", "message", "data"],
        "additionalProperties": False,
    }


def _first_line(cls: type) -> str:
    doc = (cls.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split()).replace("``", "")


def _event() -> dict[str, Any]:
    from cardrules.engine import events

    types: dict[str, type] | None = getattr(events, "EVENT_TYPES", None)
    head = _head("event", "Event", "One entry of an event stream: an event record's to_dict().")
    if types is None:  # the log's entries are tuples: no JSON form yet
        kinds = sorted({*_EVENT_KINDS})
        return {
            **head,
            "type": "object",
            "properties": {"kind": {"enum": kinds}},
            "required": ["kind"],
        }
    variants = []
    for kind, cls in types.items():
        record = record_schema(cls, rules=EVENT_RULES)
        variants.append(
            {
                "title": cls.__name__,
                "description": _first_line(cls),
                "type": "object",
                "properties": {"kind": {"const": kind}, **record["properties"]},
                "required": ["kind", *record["required"]],
                "additionalProperties": False,
            }
        )
    return {
        **head,
        "type": "object",
        "properties": {"kind": {"enum": list(types)}},
        "required": ["kind"],
        "oneOf": variants,
        "$defs": DEFS,
    }


#: The kinds of the log's entries (Game.events).
_EVENT_KINDS: Final = (
    "start", "cut", "deal", "trump", "look", "bid", "amend", "pass", "exchange", "bids",
    "call", "made", "thrown in", "redeal", "play", "trick", "score", "counters", "dead", "pickup",
    "out", "knocked out", "draw", "take", "over",
)  # fmt: skip


_BUILDERS: Final = {
    "action": _action,
    "error": _error,
    "event": _event,
    "result": _result,
    "save": _save,
    "view": _view,
}


def build(name: str) -> dict[str, Any]:
    """The schema ``name`` (one of ``cardrules.schema_names()``) as this version
    of the code builds it: what the shipped file must hold."""
    if name not in _NAMES:
        raise CardrulesError(f"no schema named {name!r}")
    return _BUILDERS[name]()


def schema_text(data: dict[str, Any]) -> str:
    """A schema as the shipped file holds it: indented JSON and a last newline."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_schemas(folder: Path | None = None) -> None:
    """Write every schema to ``folder`` (by default the package's ``schemas/``:
    ``make schemas``, a maintainer's tool)."""
    out = Path(__file__).parent / "schemas" if folder is None else folder
    for name in _NAMES:
        (out / f"{name}.json").write_text(schema_text(build(name)), encoding="utf-8")
