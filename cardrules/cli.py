"""The ``cardrules`` command line.

Subcommands live in the modules of the :mod:`cardrules.commands` package. Each
module defines ``COMMANDS``, a list of :class:`Command`; this file finds them
(by listing the package), so adding a subcommand means adding a module there
and nothing else. When two modules define the same name, the one with the
higher ``priority`` wins (so a real ``demo`` can replace the placeholder).

Exit codes: 0 success, 1 a command failed (an invalid variant or save, a
number of players the variant does not allow, a file that cannot be read), 2
bad command-line usage (an unknown option, or a number outside the bounds the
option's help gives: :class:`UsageError`). Every refusal is a message on
stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import math
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import ClassVar

import attrs

from cardrules.errors import CardrulesError

__all__ = [
    "Command",
    "UsageError",
    "build_parser",
    "check_number",
    "describe_number",
    "discover_commands",
    "main",
]


class UsageError(CardrulesError):
    """A command-line argument that is out of bounds; :func:`main` exits with 2."""

    default_code: ClassVar[str] = "bad_argument"


def describe_number(n: int) -> str:
    """``n`` for a message: its digits, or ``a number of 4,000 digits`` for a huge one."""
    if -(10**18) < n < 10**18:
        return str(n)
    if n.bit_length() <= 14_000:  # str() of an int is refused beyond 4,300 digits
        return f"a number of {len(str(abs(n))):,} digits"
    return f"a number of about {int(n.bit_length() * math.log10(2)) + 1:,} digits"


def check_number(option: str, value: int, low: int, high: int, high_text: str = "") -> int:
    """Return ``value`` if ``low <= value <= high``, else raise :class:`UsageError`.

    Args:
        option: the option as the user typed it, such as ``--games``.
        value: the number given.
        low: the smallest allowed.
        high: the largest allowed.
        high_text: how to write ``high`` in the message (``2**64 - 1``).

    Raises:
        UsageError: saying which option, its bounds and the value given.
    """
    if not low <= value <= high:
        top = high_text or f"{high:,}"
        raise UsageError(f"{option} must be from {low:,} to {top}, not {describe_number(value)}")
    return value


@attrs.frozen
class Command:
    """One subcommand.

    Attributes:
        name: what the user types, such as ``check``.
        help: one line for ``cardrules --help``.
        configure: adds the subcommand's arguments to its parser.
        run: does the work; returns the exit code.
        priority: the higher wins when two modules define the same name.
        description: a longer text for ``cardrules NAME --help``.
    """

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    priority: int = 0
    description: str | None = None


#: The package searched for command modules.
COMMANDS_PACKAGE = "cardrules.commands"


def discover_commands(package: str = COMMANDS_PACKAGE) -> dict[str, Command]:
    """Every :class:`Command` defined by a module of ``package``, by name."""
    found: dict[str, Command] = {}
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{package}.{info.name}")
        except Exception as exc:  # a broken plug-in must not break the other commands
            if os.environ.get("CARDRULES_DEBUG"):
                raise
            print(
                f"cardrules: warning: commands in {info.name} are unavailable "
                f"({type(exc).__name__}: {exc})",
                file=sys.stderr,
            )
            continue
        for cmd in getattr(module, "COMMANDS", ()):
            if not isinstance(cmd, Command):
                continue
            old = found.get(cmd.name)
            if old is None or cmd.priority > old.priority:
                found[cmd.name] = cmd
    return found


def build_parser(commands: dict[str, Command]) -> argparse.ArgumentParser:
    """The argument parser with one subparser per command."""
    from cardrules import __version__

    parser = argparse.ArgumentParser(
        prog="cardrules",
        description="Play and check card games described by small rules files.",
    )
    parser.add_argument("--version", action="version", version=f"cardrules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in sorted(commands):
        cmd = commands[name]
        p = sub.add_parser(name, help=cmd.help, description=cmd.description or cmd.help)
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    commands = discover_commands()
    parser = build_parser(commands)
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse has printed the usage message
        return exc.code if isinstance(exc.code, int) else 2
    run: Callable[[argparse.Namespace], int] = args._run
    try:
        return run(args)
    except UsageError as exc:
        print(f"cardrules: {exc}", file=sys.stderr)
        return 2
    except CardrulesError as exc:
        print(f"cardrules: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("cardrules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0


if __name__ == "__main__":  # pragma: no cover
    # Run as ``python -m cardrules.cli`` this file is ``__main__``, a second copy
    # of the module whose ``Command`` class the command modules never subclass:
    # hand over to the one ``cardrules.cli`` they import.
    from cardrules.cli import main as _main

    sys.exit(_main())
