"""A placeholder ``demo``: check and print every built-in variant.

The engine's real demo (a seeded game played out) replaces it by defining a
``demo`` command with a higher priority.
"""

from __future__ import annotations

import argparse

from cardrules.cli import Command
from cardrules.dsl import builtin_names, format, load
from cardrules.errors import VariantError

__all__ = ["COMMANDS"]


def _configure(p: argparse.ArgumentParser) -> None:
    del p


def _run(args: argparse.Namespace) -> int:
    names = builtin_names()
    bad = 0
    for name in names:
        print(f"# ---- {name} " + "-" * max(0, 60 - len(name)))
        try:
            v = load(name)
        except VariantError as exc:
            print(f"# INVALID\n{exc}")
            bad += 1
            continue
        for n in (v.players.min, v.players.max):
            sizes = v.hand_sizes(n)
            shown = " ".join(str(s) for s in sizes[:25]) + (" ..." if len(sizes) > 25 else "")
            print(f"# {n} players: {len(sizes)} hand(s): {shown}")
        print(format(v))
    print(f"# {len(names) - bad} of {len(names)} built-in variants are valid")
    return 1 if bad else 0


COMMANDS = [
    Command("demo", "check and print every built-in variant", _configure, _run, priority=0),
]
