"""Find, read and resolve variant files: ``extends``, options, validation.

The loader reads only files inside the folders it is given (``search``) and
the built-in variants folder. A file named by a catalog name is looked up as
``<folder>/<name>.cardrules`` in those folders, in order, the built-ins last. A
quoted ``extends: "file.cardrules"`` is a path relative to the extending file
(or, for text given directly, to the first search folder), and must stay inside
the folders after following symlinks; absolute paths are refused.

A server that accepts house rules from its users should call
``load_text(text, search=[...])`` or ``load(name, search=[...])``: then no
file outside those folders (and the built-ins) is ever opened. A refusal tells
the variant's author only that a file is "outside the folders this loader may
read"; the folders themselves are logged (logger ``cardrules.dsl.loader``, level
INFO) for the operator, never put in the message.

Only regular files are read (a FIFO or a device is refused before it is opened
for reading, and checked again on the open file), and at most
:data:`~cardrules.dsl.limits.MAX_FILE_BYTES` of them.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Final

import attrs

from cardrules.cards import Card, Suit
from cardrules.counted import count_range
from cardrules.errors import VariantError
from cardrules.rules import PlayerRange, SourcePos, Variant

from . import limits
from .parser import (
    IDENTITY_SETTINGS,
    OVERRIDABLE_SETTINGS,
    ParsedFile,
    Setting,
    apply_settings,
    counter_names,
    normalize_text,
    parse_file,
)
from .syntax_errors import did_you_mean, error_at, join_words
from .validate import validate

__all__ = [
    "EXTENSION",
    "builtin_dir",
    "builtin_names",
    "inherited_counters",
    "load",
    "load_text",
    "narrow_players",
    "option_key",
    "parse_override",
    "read_regular_file",
    "read_source",
    "render_option_value",
]

_log = logging.getLogger(__name__)

#: The file name extension of variant files.
EXTENSION: Final = ".cardrules"

_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]*")
#: The start of a path that is not relative: a home, a root or a drive.
_ABSOLUTE: Final = re.compile(r"[~/\\]|[A-Za-z]:")

PathLike = str | os.PathLike[str]


def builtin_dir() -> Path:
    """The folder of the built-in variant files.

    In an installed wheel this is ``cardrules/_variants/``; in a source checkout
    (editable install, or running from the repository) it is ``<repo>/variants/``.
    """
    package = Path(__file__).resolve().parent.parent
    installed = package / "_variants"
    if installed.is_dir():
        return installed
    return package.parent / "variants"


def _scan(folder: Path, limit: int | None = None) -> tuple[list[str], bool]:
    """The variant names in ``folder``, sorted, and whether that is all of them:
    with ``limit``, only the first ``limit`` entries the folder lists are looked
    at (for a did-you-mean, whose cost must not grow with the folder)."""
    out: list[str] = []
    try:
        with os.scandir(folder) as it:
            for seen, entry in enumerate(it):
                if limit is not None and seen >= limit:
                    return sorted(out), False
                stem, dot, ext = entry.name.rpartition(".")
                if not dot or f".{ext}" != EXTENSION or not _NAME.fullmatch(stem):
                    continue
                try:
                    if entry.is_file():
                        out.append(stem)
                except OSError:
                    continue
    except OSError:
        return [], True
    return sorted(out), True


def _names_in(folder: Path) -> list[str]:
    return _scan(folder)[0]


def builtin_names() -> list[str]:
    """The names of the built-in variants, sorted."""
    return _names_in(builtin_dir())


def option_key(name: str) -> str:
    """An option name as a setting name: ``hand_size`` -> ``hand size``."""
    return " ".join(name.replace("_", " ").replace("-", " ").lower().split())


def parse_override(text: str) -> tuple[str, str]:
    """Split a command-line override ``NAME=VALUE`` (as in ``--set hook=off``).

    Returns:
        ``(name, value)`` with the name in Python form (``hand_size``), ready for
        ``load(..., **{name: value})``.

    Raises:
        VariantError: if there is no ``=`` or no name.
    """
    if not isinstance(text, str) or "=" not in text:
        raise VariantError(
            f"cannot read the option {str(text)[:60]!r}",
            expected="NAME=VALUE, such as hook=off or 'hand size=7'",
            code="bad_option",
        )
    name, _, value = text.partition("=")
    key = option_key(name)
    if not key:
        raise VariantError(
            f"the option {text[:60]!r} has no name",
            expected="NAME=VALUE, such as hook=off",
            code="bad_option",
        )
    return key.replace(" ", "_"), value.strip()


def render_option_value(name: str, value: object) -> str:
    """A Python value as the variant-file text of a setting's value.

    ``True``/``False`` -> ``yes``/``no``, ints as digits, suits by name, cards
    as ``A♠``, enums by their value, lists and tuples joined with commas,
    ``None`` -> ``none``; strings are used as written.
    """
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, Suit):
        text = value.word
    elif isinstance(value, Card):
        text = str(value)
    elif isinstance(value, Enum):
        text = str(value.value)
    elif isinstance(value, int):
        text = str(value)
    elif value is None:
        text = "none"
    elif isinstance(value, list | tuple):
        if len(value) > limits.MAX_LIST_ITEMS:
            raise VariantError(f"option {name}: too many items", code="bad_option")
        text = ", ".join(render_option_value(name, x) for x in value)
    else:
        raise VariantError(
            f"option {name}: cannot use a value of type {type(value).__name__}",
            expected="text, a number, True/False, a Suit, a Card or a list of these",
            code="bad_option",
        )
    if any(ch in text for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        raise VariantError(f"option {name}: the value must be on one line", code="bad_option")
    if len(text) > limits.MAX_LINE_LENGTH:
        raise VariantError(f"option {name}: the value is too long", code="bad_option")
    return text


# --------------------------------------------------------------------------- reading files

#: ``os.open`` flags that never block on a FIFO nor make a terminal ours.
_OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _kind(mode: int) -> str:
    for test, word in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return word
    return "not a regular file"


def read_regular_file(
    path: PathLike,
    limit: int,
    fail: Callable[[str], Exception],
    display: str | None = None,
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, read safely.

    What is not a regular file (a FIFO, a device such as ``/dev/zero``, a
    folder) is refused from its ``stat`` before it is opened, and again from
    the open file (opened without blocking, in case it was swapped in between);
    a file larger than ``limit`` is refused unread, and at most ``limit + 1``
    bytes are ever read (for a file that grows while it is read).

    Args:
        path: the file.
        limit: the most bytes accepted.
        fail: builds the exception to raise from a one-line message (such as
            ``SaveError``).
        display: the file's name in messages (``path`` by default).

    Returns:
        The file's bytes.

    Raises:
        Exception: ``fail(message)`` for anything refused, saying what is wrong.
    """
    shown = display if display is not None else os.fspath(path)

    def check(st: os.stat_result) -> None:
        if not stat.S_ISREG(st.st_mode):
            kind = _kind(st.st_mode)
            detail = "" if kind == "not a regular file" else f" ({kind})"
            raise fail(f"{shown} is not a regular file{detail}")
        if st.st_size > limit:
            raise fail(f"{shown} is too large ({st.st_size:,} bytes; at most {limit:,})")

    def problem(exc: OSError | ValueError) -> Exception:
        if isinstance(exc, OSError):
            return fail(f"cannot read {shown}: {exc.strerror or exc}")
        # A NUL in the path: no file system has such a name.
        return fail(f"cannot read {shown[:80]!r}: the path holds a NUL character")

    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise problem(exc) from None
    check(st)  # refused unopened: opening some devices does something
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        raise problem(exc) from None
    try:
        check(os.fstat(fd))  # the file opened may not be the one looked at
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise fail(f"cannot read {shown}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if got > limit:
        raise fail(f"{shown} is too large (more than {limit:,} bytes)")
    return b"".join(chunks)


# --------------------------------------------------------------------------- the loader


#: The lines after which the cases a file extends no longer name its hands: its
#: own cases, a score of its own, or another kind of game (`mode:`).
_RESCORING: Final = frozenset({"case", "score", "team score", "counter", "card points", "mode"})


#: An ``extends:`` line: the name it extends, or its quoted path.
_EXTENDS_LINE: Final = re.compile(
    r'(?im)^[ \t]*extends[ \t]*:[ \t]*(?:"([^"\n]*)"|([a-z0-9][a-z0-9-]*))'
)


class _Loader:
    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots: list[Path] = []
        self.real_roots: list[Path] = []
        for r in [*roots, builtin_dir()]:
            try:
                real = r.resolve()
            except (OSError, RuntimeError):
                continue
            if real not in self.real_roots:
                self.roots.append(r)
                self.real_roots.append(real)
        self.sources: dict[str, str] = {}

    # ---- files
    def _inside(self, real: Path) -> bool:
        return any(real == root or real.is_relative_to(root) for root in self.real_roots)

    def refuse_outside(self, display: str, real: Path) -> None:
        """Log, for the operator, a path refused for leaving the folders."""
        _log.info(
            "refused to read %s (%s): outside the search folders %s",
            display,
            real,
            ", ".join(str(r) for r in self.roots),
        )

    def read_bytes(
        self, path: Path, display: str, where: tuple[ParsedFile, Setting] | None
    ) -> bytes:
        def fail(message: str, short: str | None = None) -> VariantError:
            """``message`` names the file; ``short`` is for after the path."""
            if where is not None:
                pf, s = where
                return error_at(
                    message,
                    path=pf.path,
                    text=pf.text,
                    line=s.value_pos.line,
                    column=s.value_pos.column,
                )
            return VariantError(short or message, path=display)

        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise fail(f"no such file: {display}", "no such file") from None
        if not self._inside(real):
            self.refuse_outside(display, real)
            raise fail(
                f"{display} is outside the folders this loader may read",
                "the file is outside the folders this loader may read",
            )
        try:
            st = os.stat(real)
        except OSError:
            raise fail(f"cannot read {display}", "cannot read the file") from None
        if st.st_size > limits.MAX_FILE_BYTES and stat.S_ISREG(st.st_mode):
            raise VariantError(
                f"the file is too large ({st.st_size:,} bytes)",
                path=display,
                expected=f"at most {limits.MAX_FILE_BYTES:,} bytes",
                code="variant_too_large",
            )
        # In the extending file's message the target is named; else the
        # message follows the path (``x.cardrules: the file is ...``).
        named = display if where is not None else "the file"
        return read_regular_file(real, limits.MAX_FILE_BYTES, fail, named)

    def read(self, path: Path, display: str, where: tuple[ParsedFile, Setting] | None) -> str:
        text = normalize_text(self.read_bytes(path, display, where), display)
        self.sources[display] = text
        return text

    def names(self) -> tuple[list[str], bool]:
        """The names a did-you-mean may offer, and whether they are all the
        names: at most :data:`~cardrules.dsl.limits.MAX_SUGGESTION_ENTRIES`
        entries of each folder are looked at."""
        out: list[str] = []
        seen: set[str] = set()
        complete = True
        for root in self.roots:
            names, whole = _scan(root, limits.MAX_SUGGESTION_ENTRIES)
            complete = complete and whole
            for n in names:
                if n not in seen:
                    seen.add(n)
                    out.append(n)
        return out, complete

    def find_name(self, name: str) -> tuple[Path, str] | None:
        for root in self.roots:
            candidate = root / f"{name}{EXTENSION}"
            try:
                if candidate.is_file() and self._inside(candidate.resolve()):
                    return candidate, str(candidate)
            except (OSError, RuntimeError):
                continue
        return None

    def unknown(self, name: str) -> tuple[str, str | None, str | None]:
        known, complete = self.names()
        listed = complete and 0 < len(known) <= 30
        expected = "one of: " + join_words(known) if listed else None
        shown = name if len(name) <= 80 else name[:77] + "..."
        return f"there is no variant called {shown!r}", expected, did_you_mean(name, known)

    # ---- resolution
    def load_file(self, path: Path, display: str, by_name: str | None) -> ParsedFile:
        text = self.read(path, display, None)
        pf = parse_file(text, path=display, counters=self.inherited_counters(text, path.parent))
        if by_name is not None and pf.name != by_name:
            game = pf.get("game")
            pos = game.value_pos if game else SourcePos(display, 1, 1)
            raise error_at(
                f"the file {Path(display).name} is the variant {pf.name!r}",
                path=display,
                text=pf.text,
                line=pos.line,
                column=pos.column,
                expected=f"`game: {by_name}`: a variant file's game name must match its file name",
            )
        return pf

    def inherited_counters(self, text: str, base_dir: Path | None) -> tuple[str, ...]:
        """The counters of the files ``text`` extends (its parent's, the
        parent's parent's...), read from their ``counter NAME:`` lines as a
        file's own are, before its statements, so that its formulas may read
        them. A parent that cannot be found or read ends the search: resolving
        the file then says why."""
        found: set[str] = set()
        seen: set[Path] = set()
        for _ in range(limits.MAX_EXTENDS_DEPTH):
            m = _EXTENDS_LINE.search(text)
            path = None if m is None else self._find_parent(m.group(2), m.group(1), base_dir)
            if path is None or path.resolve() in seen:
                break
            seen.add(path.resolve())
            try:
                text = self.read(path, str(path), None)
            except VariantError:
                break
            found |= counter_names(text)
            base_dir = path.parent
        return tuple(sorted(found))

    def _find_parent(
        self, name: str | None, quoted: str | None, base_dir: Path | None
    ) -> Path | None:
        """The file an ``extends:`` names (``name``) or points to (``quoted``,
        relative to ``base_dir``), when it is a file inside the loader's
        folders; else None (:meth:`locate_parent` says why)."""
        if name is not None:
            found = self.find_name(name)
            return None if found is None else found[0]
        if not quoted or _ABSOLUTE.match(quoted) or Path(quoted).is_absolute():
            return None
        candidate = (base_dir if base_dir is not None else self.roots[0]) / quoted
        try:
            real = candidate.resolve()
            return candidate if self._inside(real) and real.is_file() else None
        except (OSError, RuntimeError):
            return None

    def locate_parent(
        self, pf: ParsedFile, s: Setting, base_dir: Path | None
    ) -> tuple[Path, str, str | None]:
        target = str(s.changes[0][1])
        is_path = bool(dict(s.changes).get("@path"))

        def fail(
            message: str, expected: str | None = None, hint: str | None = None
        ) -> VariantError:
            return error_at(
                message,
                path=pf.path,
                text=pf.text,
                line=s.value_pos.line,
                column=s.value_pos.column,
                expected=expected,
                hint=hint,
            )

        if not is_path:
            found = self.find_name(target)
            if found is None:
                message, expected, hint = self.unknown(target)
                raise fail(message, expected, hint)
            return found[0], found[1], target
        rel = Path(target)
        if rel.is_absolute() or _ABSOLUTE.match(target):
            raise fail(
                "`extends` may not name an absolute path",
                hint="name a variant (extends: oh-hell) or a file next to this one",
            )
        folder = base_dir if base_dir is not None else self.roots[0]
        candidate = folder / rel
        try:
            real = candidate.resolve()
        except (OSError, RuntimeError):
            raise fail(f"cannot follow the path {target!r}") from None
        if not self._inside(real):
            self.refuse_outside(target, real)
            raise fail(
                f"{target!r} is outside the folders this loader may read",
                hint="name a variant (extends: oh-hell) or a file beside this one",
            )
        if not real.is_file():
            raise fail(f"no such file: {target!r}")
        return candidate, str(candidate), None

    def resolve(
        self,
        pf: ParsedFile,
        real: Path | None,
        base_dir: Path | None,
        chain: tuple[tuple[Path, str], ...],
    ) -> Variant:
        ext = pf.extends
        settings = [s for s in pf.settings if s.key != "extends"]
        if ext is None:
            v = apply_settings(Variant(name=pf.name), settings)
            return attrs.evolve(v, source=pf.text, path=pf.path)
        if len(chain) >= limits.MAX_EXTENDS_DEPTH:
            raise error_at(
                f"too many files extend one another (more than {limits.MAX_EXTENDS_DEPTH})",
                path=pf.path,
                text=pf.text,
                line=ext.pos.line,
                column=ext.pos.column,
                code="variant_too_large",
            )
        here = (*chain, (real, pf.name)) if real is not None else chain
        path, display, by_name = self.locate_parent(pf, ext, base_dir)
        parent_real = path.resolve()
        if any(p == parent_real for p, _ in here):
            names = [n for _, n in here] + [by_name or path.stem]
            raise error_at(
                "the variants extend one another in a circle: " + " -> ".join(names),
                path=pf.path,
                text=pf.text,
                line=ext.value_pos.line,
                column=ext.value_pos.column,
            )
        ppf = self.load_file(path, display, by_name)
        parent = self.resolve(ppf, parent_real, path.parent, here)
        # A file's own `case` lines replace the cases it extends; a file that
        # scores otherwise (or plays another kind of game) names its own, or none.
        rescored = any(s.key in _RESCORING for s in settings)
        dropped = ("extends", "choice", "case") if rescored else ("extends", "choice")
        kept = tuple(
            (k, p) for k, p in parent.positions if k not in IDENTITY_SETTINGS and k not in dropped
        )
        base = attrs.evolve(
            parent,
            name=pf.name,
            title="",
            summary="",
            aliases=(),
            parent=parent.name,
            positions=kept,
            cases=() if rescored else parent.cases,
            # A house rule changes its parent's choices: its file states its own.
            choices=(),
        )
        v = apply_settings(base, [ext, *settings])
        return attrs.evolve(v, parent=parent.name, source=pf.text, path=pf.path)

    # ---- options
    def apply_options(self, v: Variant, options: Mapping[str, object]) -> Variant:
        for name, value in options.items():
            key = option_key(name)
            if key not in v.options:
                offered = ", ".join(o.replace(" ", "_") for o in v.options)
                if not v.options:
                    message = f"{v.name} has no options, so {name!r} cannot be set"
                    expected = None
                elif key in OVERRIDABLE_SETTINGS:
                    message = f"{key!r} is not one of the options of {v.name}"
                    expected = f"one of: {offered}"
                else:
                    message = f"{v.name} has no option {name!r}"
                    expected = f"one of: {offered}"
                choices = [*v.options, *(o.replace(" ", "_") for o in v.options)]
                hint = did_you_mean(name, choices)
                raise VariantError(
                    message,
                    path=f"<option {name}>",
                    expected=expected,
                    hint=hint,
                    code="bad_option",
                )
            text = f"{key}: {render_option_value(name, value)}"
            where = f"<option {key}>"
            opf = parse_file(
                text,
                path=where,
                require_game=False,
                counters=tuple(c.name for c in v.scoring.counters),
            )
            if len(opf.settings) != 1 or opf.settings[0].key != key:
                raise VariantError(
                    f"option {name}: cannot read the value", path=where, code="bad_option"
                )
            self.sources[where] = opf.text
            before = v
            v = apply_settings(v, opf.settings)
            if key in _RESCORING and v != before:
                # Another score: the file's cases named the hands of its own.
                v = attrs.evolve(v, cases=())
        return v

    def finish(self, v: Variant, options: Mapping[str, object]) -> Variant:
        v = self.apply_options(v, options)
        validate(v, sources=self.sources)
        return v


def _roots(search: Iterable[PathLike] | PathLike | None) -> list[Path]:
    if search is None:
        return []
    items: Iterable[object]
    if isinstance(search, str | os.PathLike):
        items = [search]
    else:
        try:
            items = list(search)
        except TypeError:
            raise VariantError(
                f"search must be a folder or a list of folders, not {type(search).__name__}"
            ) from None
    roots: list[Path] = []
    for item in items:
        if not isinstance(item, str | os.PathLike):
            raise VariantError(f"a search folder must be a path, not {type(item).__name__}")
        roots.append(_path(item))
    return roots


def _path(item: PathLike) -> Path:
    """``Path(item)``, refusing what no file system accepts (a NUL, bytes paths)."""
    try:
        text = os.fspath(item)
    except TypeError:
        raise VariantError(f"a path must be text, not {type(item).__name__}") from None
    if not isinstance(text, str):
        raise VariantError(f"a path must be text, not {type(text).__name__}")
    if "\x00" in text:
        raise VariantError(f"the path {text[:80]!r} holds a NUL character")
    return Path(text)


def _options(
    overrides: Mapping[str, object] | None, options: Mapping[str, object]
) -> dict[str, object]:
    if overrides is not None and not isinstance(overrides, Mapping):
        raise VariantError(f"overrides must be a mapping, not {type(overrides).__name__}")
    merged = {**(overrides or {}), **options}
    for name in merged:
        if not isinstance(name, str):
            raise VariantError(f"an option name must be text, not {type(name).__name__}")
    return merged


def read_source(path: PathLike) -> bytes:
    """The bytes of a variant file, read with the checks :func:`load` makes of a path.

    The path must end in ``.cardrules``, lead (after symlinks) to a regular file
    in its own folder or the built-ins, and hold at most
    :data:`~cardrules.dsl.limits.MAX_FILE_BYTES`. Anything else is refused
    before a byte is read, so nothing of another file is ever shown. The bytes
    are not decoded nor parsed (``cardrules fmt`` compares them with the tidy
    text).

    Raises:
        VariantError: saying what is wrong with the path.
    """
    p = _path(path)
    text = os.fspath(p)
    if p.suffix != EXTENSION:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise VariantError(
            f"{shown!r} is not a variant file (a variant file's name ends in {EXTENSION})"
        )
    return _Loader([p.parent]).read_bytes(p, text, None)


def load(
    name_or_path: PathLike,
    *,
    search: Iterable[PathLike] | PathLike | None = None,
    overrides: Mapping[str, object] | None = None,
    players: int | None = None,
    **options: object,
) -> Variant:
    """Load a variant by catalog name or file path, resolved and validated.

    Args:
        name_or_path: a catalog name such as ``"oh-hell"`` (looked up as
            ``<folder>/oh-hell.cardrules`` in ``search``, then in the built-ins),
            or a path to a ``.cardrules`` file.
        search: the folders files may be read from (the built-in folder is
            always added last). When ``None`` and a path is given, the folder of
            that file, and the path must end in ``.cardrules``; when ``None``
            and a name is given, only the built-ins. With ``search`` given
            (``search=[]`` for the built-ins alone), a path outside those
            folders is refused. A program that passes on names from its users
            should always give ``search``.
        **options: overrides for the settings the variant lists in its
            ``options:`` line, with ``_`` for spaces: ``hook=False``,
            ``hand_size=7``, ``trumps=Suit.HEARTS``, ``trumps="cycle spades,
            hearts"``. Values are written as variant-file text and read with
            the same grammar, so the same checks apply.
        overrides: the same as a mapping (as built from ``--set`` options by
            :func:`parse_override`); ``**options`` win over it.
        players: narrow the game to exactly this many players (see
            :func:`narrow_players`); ``None`` keeps the variant's range. (A
            variant that offers ``players`` in its ``options:`` line is given a
            new range with ``overrides={"players": "4 to 6"}``.)

    Returns:
        The resolved :class:`~cardrules.rules.Variant` (``parent`` set when it
        extends another).

    Raises:
        VariantError: for anything wrong: unknown name (with a did-you-mean), a
            file outside the folders, a syntax or semantic error, an extends
            cycle, an unknown or ill-typed option; ``bad_player_count`` when
            ``players`` is not a number the variant allows.
    """
    if not isinstance(name_or_path, str | os.PathLike):
        raise VariantError(
            f"a variant name or path must be text, not {type(name_or_path).__name__}"
        )
    text = os.fspath(_path(name_or_path))
    if isinstance(name_or_path, str) and _NAME.fullmatch(text):
        loader = _Loader(_roots(search))
        found = loader.find_name(text)
        if found is None:
            message, expected, hint = loader.unknown(text)
            raise VariantError(message, expected=expected, hint=hint, code="unknown_variant")
        path, display = found
        pf = loader.load_file(path, display, text)
    else:
        path = Path(text)
        if search is None and path.suffix != EXTENSION:
            # Without `search`, the caller allows only this one file's folder; a
            # name that is neither a variant nor a .cardrules file is refused
            # before anything is opened (a server passing on a user's
            # "../../etc/passwd" must not read it, nor echo its first line).
            hint = None
            if isinstance(name_or_path, str):
                names = _Loader([]).names()[0]
                lower = text.strip().lower()
                hint = f"did you mean {lower!r}?" if lower in names else did_you_mean(text, names)
            raise VariantError(
                f"{text[:80]!r} is neither a built-in variant nor a variant file",
                expected=f"a variant name such as oh-hell, or a file ending in {EXTENSION}",
                hint=hint,
                code="unknown_variant",
            )
        roots = _roots(search) if search is not None else [path.parent]
        loader = _Loader(roots)
        # A built-in file must be the variant its name says, however it is loaded.
        try:
            builtin = path.resolve().parent == builtin_dir().resolve()
        except (OSError, RuntimeError):
            builtin = False
        by_name = path.stem if builtin and path.suffix == EXTENSION else None
        pf = loader.load_file(path, text, by_name)
    v = loader.resolve(pf, path.resolve(), path.parent, ())
    return _narrowed(loader.finish(v, _options(overrides, options)), players)


def load_text(
    text: str | bytes,
    *,
    path: str = "<string>",
    search: Iterable[PathLike] | PathLike | None = None,
    overrides: Mapping[str, object] | None = None,
    players: int | None = None,
    **options: object,
) -> Variant:
    """Parse variant text, following ``extends`` inside ``search`` and the built-ins.

    Args:
        text: the variant file's text.
        path: the name to show in error messages (no file is read from it).
        search: the folders a parent may be read from (the built-ins always
            count); a quoted ``extends`` path is taken relative to the first.
        overrides: option overrides as a mapping, as for :func:`load`.
        players: narrow the game to exactly this many players, as for :func:`load`.
        **options: option overrides, as for :func:`load`.

    Raises:
        VariantError: for anything wrong with the text, its parents or the
            options, or a number of players the variant does not allow.
    """
    loader = _Loader(_roots(search))
    source = normalize_text(text, path)
    pf = parse_file(source, path=path, counters=loader.inherited_counters(source, None))
    loader.sources[path] = pf.text
    v = loader.resolve(pf, None, None, ())
    return _narrowed(loader.finish(v, _options(overrides, options)), players)


def inherited_counters(text: str, *, path: PathLike | None = None) -> tuple[str, ...]:
    """The counters a variant file may read besides its own: those of the
    files it extends, found as :func:`load` finds them (a quoted ``extends``
    path beside ``path``, a name in the built-ins and beside ``path``).

    Args:
        text: the file's text.
        path: where the file is; None, or a name that is no file (such as
            ``"<string>"``), for text of no file.

    Returns:
        The counters' names, sorted.

    Example:
        >>> inherited_counters("game: mine\\nextends: spades\\nscore: 0")
        ('bags',)
    """
    folder = None if path is None or not Path(path).is_file() else Path(path).parent
    loader = _Loader([] if folder is None else [folder])
    return loader.inherited_counters(normalize_text(text, str(path or "<string>")), folder)


def _narrowed(v: Variant, players: int | None) -> Variant:
    return v if players is None else narrow_players(v, players)


def narrow_players(v: Variant, players: int) -> Variant:
    """``v`` for exactly ``players`` players.

    The lines with a condition on the number of players are resolved for
    ``players`` (:meth:`~cardrules.rules.Variant.for_players`), the range
    becomes ``players: N``, and the worked examples for other numbers of
    players are dropped, so the result is itself a valid variant (its saves
    restore and ``cardrules check`` passes on its formatted text). Nothing else
    changes: a game of ``players`` players plays as with ``v``.

    Raises:
        VariantError: ``bad_player_count`` when ``players`` is not a whole
            number in ``v``'s range.
    """
    if type(players) is not int or players not in v.players:
        shown = repr(players) if type(players) is int else type(players).__name__
        if type(players) is int and not -(10**6) < players < 10**6:
            shown = "a number out of range"
        raise VariantError(
            f"{v.name} is for {count_range(v.players.min, v.players.max, 'player')}, not {shown}",
            expected=f"players= from {v.players.min} to {v.players.max}",
            code="bad_player_count",
        )
    fewest = v.players.min
    examples = tuple(
        e for e in v.examples if (fewest if e.deal.players is None else e.deal.players) == players
    )
    return v.for_players(players).evolve(players=PlayerRange(players, players), examples=examples)
