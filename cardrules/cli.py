"""The ``cardrules`` command line.

Subcommands live in the modules of the :mod:`cardrules.commands` package. Each
module defines ``COMMANDS``, a list of :class:`Command`; this file finds them
(by listing the package), so adding a subcommand means adding a module there
and nothing else. When two modules define the same name, the one with the
higher ``priority`` wins (so a real ``demo`` can replace the placeholder).

Exit codes: 0 success, 1 a command failed (an invalid variant, say), 2 bad
command-line usage.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence

import attrs

from cardrules.errors import CardrulesError

__all__ = ["Command", "build_parser", "discover_commands", "main"]


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
    sys.exit(main())
