"""``cardrules fmt --upgrade``: rewrite a variant file written for an older
cardrules in the current language.

The language only grew over the last year (every older line still parses), but
one change made older files refused, and one changed what a line means:

* **Lines that change nothing are refused** (issue 11). A line that has no
  effect in its game, such as ``hand size: 7`` beside ``hands: list 7, 6, 5``
  (the list gives the size of every hand), ``hook: yes`` in a game without
  bidding or ``leading trumps: once broken`` with ``trumps: none``, used to be
  accepted and is now an error at its line. The upgrade deletes such lines
  (each becomes a comment saying what was deleted and why); the game plays
  exactly as it did, since the line changed nothing.
* **``tie: extra hands`` without a limit** used to stop after 20 extra hands
  and share the win; it now plays until one player leads alone, as the Oh Hell
  rules say (issue 10). The upgrade leaves the line as it is (the new rule is
  the published one) and says how to keep the old one:
  ``tie: extra hands, at most 20``.

The upgrade reads nothing but the given text and the built-in variants shipped
with cardrules: a file that extends another file by its path (``extends:
"base.cardrules"``) gets only the upgrades its own text decides (``hand size``
beside ``hands: list``). It runs nothing of the file (its worked examples are
not played), bounds the text as the loader does, and the result is tidied as
``cardrules fmt`` tidies.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from cardrules.errors import VariantError
from cardrules.rules import Pattern, TieBreak, Variant

from . import limits
from .formatter import format_source
from .loader import _Loader, inherited_counters
from .parser import ParsedFile, apply_settings, normalize_text, parse_file
from .validate import _check, validate

__all__ = ["KNOWN_UPGRADES", "UpgradeNote", "upgrade_source"]

#: What ``fmt --upgrade`` knows, one line each (shown in the command's help).
KNOWN_UPGRADES: Final = (
    "deletes a line that changes nothing in its game (refused since then), such as "
    "`hand size: N` beside `hands: list ...`",
    "notes `tie: extra hands` without a limit: it used to stop after 20 extra hands and "
    "share the win; write `tie: extra hands, at most 20` to keep that",
)


@frozen
class UpgradeNote:
    """What the upgrade did or found at one line of the file.

    Attributes:
        line: the line of the original file (1-based).
        message: what was changed, or what to know.
        changed: whether the line was rewritten (else it is only a note).
    """

    line: int
    message: str
    changed: bool = True


def upgrade_source(text: str | bytes, *, path: str = "<string>") -> tuple[str, list[UpgradeNote]]:
    """The file rewritten in the current language, and a note for each upgrade.

    Args:
        text: the file's text (``bytes`` are decoded as UTF-8), bounded as the
            loader bounds a file.
        path: the name to show in notes and errors (nothing is read from it).

    Returns:
        The upgraded text, tidied as ``cardrules fmt`` tidies, and the notes in
        the order of the file's lines.

    Raises:
        VariantError: if the text does not parse (the upgrade rewrites only
            files that parse), or is too large.
    """
    source = normalize_text(text, path)
    pf = parse_file(source, path=path, counters=inherited_counters(source, path=path))
    lines = source.split("\n")
    deleted: dict[int, str] = {}
    listed = _hand_size_beside_list(pf)
    if listed is not None:
        deleted[listed] = "`hands: list ...` gives the size of every hand"
    if not _extends_a_path(pf):
        deleted.update(_lines_that_change_nothing(lines, path, set(deleted)))
    notes = [
        UpgradeNote(n, f"deleted `{lines[n - 1].strip()}`: {why}") for n, why in deleted.items()
    ]
    for n in deleted:
        old = lines[n - 1].strip()
        lines[n - 1] = f"# deleted by cardrules fmt --upgrade, as it changed nothing: {old}"
    notes += _tie_notes(pf)
    notes.sort(key=lambda note: note.line)
    return format_source("\n".join(lines), path=path), notes


def _extends_a_path(pf: ParsedFile) -> bool:
    s = pf.get("extends")
    return s is not None and bool(dict(s.changes).get("@path"))


def _hand_size_beside_list(pf: ParsedFile) -> int | None:
    """The line of ``hand size`` when the same file says ``hands: list ...``."""
    size, hands = pf.get("hand size"), pf.get("hands")
    if size is None or hands is None:
        return None
    sched = apply_settings(Variant(name="x"), [hands]).schedule
    return size.pos.line if sched.pattern is Pattern.LIST else None


def _lines_that_change_nothing(lines: list[str], path: str, gone: set[int]) -> dict[int, str]:
    """The lines of the file refused because they change nothing, with why: found
    by checking the file (its parent a built-in, or none) with every no-op only a
    warning, one line at a time, each deleted before the next check."""
    found: dict[int, str] = {}
    # Each round deletes a line or stops: at most one round per line of the file.
    for _ in range(min(len(lines), limits.MAX_LINES) + 1):
        text = "\n".join("" if n in gone or n in found else t for n, t in enumerate(lines, 1))
        idle = _first_idle_line(text, path)
        if idle is None:
            break
        found[idle[0]] = idle[1]
    return found


def _first_idle_line(text: str, path: str) -> tuple[int, str] | None:
    """The first line of ``text`` that is refused only because it changes nothing."""
    loader = _Loader([])
    try:
        pf = parse_file(text, path=path, counters=loader.inherited_counters(text, None))
        loader.sources[path] = pf.text
        v = loader.resolve(pf, None, None, ())
    except VariantError:
        return None  # a parent that cannot be found or read: `check` will say so
    try:
        validate(v, sources=loader.sources)
        return None  # valid as it is
    except VariantError as refused:
        if refused.path != path or refused.line is None:
            return None  # not a line of this file: nothing to upgrade
        line = refused.line
    names = frozenset(s.key for s in pf.settings)
    try:
        relaxed = _check(v, loader.sources, names)  # every no-op only a warning
    except VariantError:
        return None  # refused for a reason other than a line that changes nothing
    for w in relaxed:
        if w.path == path and w.line == line:
            return line, w.message
    return None


def _tie_notes(pf: ParsedFile) -> list[UpgradeNote]:
    s = pf.get("tie")
    if s is None:
        return []
    changes = dict(s.changes)
    if (
        changes.get("winning.tie") is TieBreak.EXTRA_HANDS
        and changes.get("winning.max_extra_hands") is None
    ):
        return [
            UpgradeNote(
                s.pos.line,
                "`tie: extra hands` now plays extra hands until one player leads alone "
                "(before: at most 20, then the win was shared); write "
                "`tie: extra hands, at most 20` to keep the old rule",
                changed=False,
            )
        ]
    return []
