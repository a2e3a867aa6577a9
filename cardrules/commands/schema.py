"""The ``schema`` command: print the JSON Schema of an object of the JSON contract."""

from __future__ import annotations

import argparse
import json

from cardrules.cli import Command, UsageError
from cardrules.schema import schema, schema_names

__all__ = ["COMMANDS"]


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "name",
        nargs="?",
        metavar="NAME",
        help="one of: " + ", ".join(schema_names()) + " (without a name: list them)",
    )


def _run(args: argparse.Namespace) -> int:
    if args.name is None:
        for name in schema_names():
            print(name)
        return 0
    if args.name not in schema_names():
        raise UsageError(
            f"no schema named {args.name[:30]!r}; the schemas are {', '.join(schema_names())}"
        )
    print(json.dumps(schema(args.name), ensure_ascii=False, indent=2))
    return 0


COMMANDS = [
    Command(
        "schema",
        "print the JSON Schema of a view, action, result, save, event or error",
        _configure,
        _run,
        description=(
            "Print the JSON Schema (draft 2020-12) of one object of the JSON contract: "
            "what View.to_dict(), Result.to_dict(), an action, Game.to_json(), an event "
            "or an error looks like as JSON. Without a name, list the names."
        ),
    )
]
