"""Variant-file commands: ``list``, ``check``, ``show`` and ``fmt``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile

from cardrules.cli import Command, describe_number
from cardrules.counted import count_range
from cardrules.dsl import builtin_names, format, format_source, load, parse_override
from cardrules.dsl.choices import check_choices
from cardrules.dsl.formatter import to_dict
from cardrules.dsl.loader import read_source
from cardrules.dsl.upgrade import KNOWN_UPGRADES, upgrade_source
from cardrules.dsl.validate import check_warnings
from cardrules.errors import VariantError
from cardrules.example_runner import run_examples
from cardrules.rules import Variant

__all__ = ["COMMANDS", "add_set_option", "check_players", "load_argument"]


def add_set_option(p: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--set NAME=VALUE`` option that :func:`load_argument` reads."""
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one of the variant's options, such as hook=off (repeatable)",
    )


def load_argument(name_or_path: str, overrides: list[str] | None = None) -> Variant:
    """Load a variant named on the command line: a built-in name (lower-case
    letters, digits and dashes, such as ``oh-hell``) or a ``.cardrules`` file.

    A file or folder in the current directory that happens to carry a built-in's
    name does not hide the built-in; anything else that is not a ``.cardrules``
    file is refused without being read."""
    options: dict[str, object] = {}
    for text in overrides or ():
        key, value = parse_override(text)
        options[key] = value
    return load(name_or_path, overrides=options)


def check_players(v: Variant, players: int) -> int:
    """Return ``players`` if the variant allows that many, else refuse it.

    Raises:
        VariantError: naming the variant's range (exit code 1).
    """
    if players not in v.players:
        raise VariantError(
            f"{v.name} is for {count_range(v.players.min, v.players.max, 'player')}, "
            f"not {describe_number(players)}"
        )
    return players


# ---- list


def _configure_list(p: argparse.ArgumentParser) -> None:
    del p


def _run_list(args: argparse.Namespace) -> int:
    names = builtin_names()
    width = max((len(n) for n in names), default=0)
    status = 0
    for name in names:
        try:
            v = load(name)
        except VariantError as exc:
            print(f"{name.ljust(width)}  (invalid: {exc.message})")
            status = 1
            continue
        print(f"{name.ljust(width)}  {v.summary or v.title}".rstrip())
    return status


# ---- check


def _configure_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="variant files (or built-in names)")
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print nothing for valid files (warnings still go to stderr)",
    )


def _run_check(args: argparse.Namespace) -> int:
    bad = 0
    for item in args.files:
        try:
            v = load_argument(item)
            warnings = check_warnings(v)
            # Each choice's house rule must read and change the game.
            check_choices(v)
        except VariantError as exc:
            print(str(exc), file=sys.stderr)
            bad += 1
            continue
        # What changes nothing without being the file's error (a line it
        # inherits, a line an option idles, a part of a line): only warn.
        for w in warnings:
            print(f"warning: {w}", file=sys.stderr)
        # Every worked example of the file, played through the engine.
        failures = run_examples(v)
        for failure in failures:
            print(str(failure), file=sys.stderr)
        if failures:
            bad += 1
            continue
        if not args.quiet:
            extra = f" (extends {v.parent})" if v.parent else ""
            print(f"{item}: ok, {v.name}{extra}")
    if bad:
        print(f"{bad} of {len(args.files)} invalid", file=sys.stderr)
    return 1 if bad else 0


# ---- show


def _configure_show(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="NAME_OR_FILE", help="a built-in name or a variant file")
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of variant text")


def _run_show(args: argparse.Namespace) -> int:
    v = load_argument(args.variant, args.overrides)
    if args.json:
        print(json.dumps(to_dict(v), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(format(v))
    return 0


# ---- fmt


def _configure_fmt(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="the variant file to tidy")
    p.add_argument("--write", action="store_true", help="rewrite the file in place")
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 (and print nothing) if the file is not already tidy",
    )
    p.add_argument(
        "--upgrade",
        action="store_true",
        help="also rewrite a file written for an older cardrules in the current language; "
        "it knows these changes: " + "; ".join(KNOWN_UPGRADES) + ". Each upgrade is "
        "noted on the error output; only the file and the built-in variants are read",
    )


def _replace(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a crash leaves the old file.

    Raises:
        VariantError: if the folder or the file cannot be written.
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".cardrules-fmt-", dir=folder)
    except OSError as exc:
        raise VariantError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        with contextlib.suppress(OSError):
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise VariantError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _run_fmt(args: argparse.Namespace) -> int:
    # The checks of `check`: a .cardrules file, regular, in its folder, not too large.
    data = read_source(args.file)
    if args.upgrade:
        tidy, notes = upgrade_source(data, path=args.file)
        if not args.check:
            for note in notes:
                said = "upgraded" if note.changed else "note"
                print(f"{args.file}:{note.line}: {said}: {note.message}", file=sys.stderr)
    else:
        tidy = format_source(data, path=args.file)
    if args.check:
        return 0 if tidy.encode("utf-8") == data else 1
    if args.write:
        if tidy.encode("utf-8") != data:
            # The file itself, not a symlink to it (read_source kept it in its folder).
            _replace(os.path.realpath(args.file), tidy)
        return 0
    sys.stdout.write(tidy)
    return 0


COMMANDS = [
    Command("list", "list the built-in variants", _configure_list, _run_list),
    Command(
        "check",
        "check variant files; print errors and warnings, exit 1 if any file is invalid",
        _configure_check,
        _run_check,
    ),
    Command(
        "show",
        "print a variant resolved (extends and --set applied) as canonical text or JSON",
        _configure_show,
        _run_show,
    ),
    Command(
        "fmt",
        "print a variant file in canonical form (--write to rewrite it; --upgrade for an "
        "older file)",
        _configure_fmt,
        _run_fmt,
    ),
]
