"""The package's two Lark parsers, loaded from tables shipped with it.

Building a Lark LALR parser from its grammar costs a few hundred milliseconds
of CPU; where the ``interegular`` package is installed, Lark also compares
every pair of terminals for collisions while it builds the lexers (about three
seconds for the variant grammar). A process should pay neither, so the parse
tables of each grammar are generated once, written next to this module as JSON
(:data:`TABLES`), shipped in the wheel and read at the first parse.

* The tables are data (JSON), never a pickle, and are read only from the
  package's own directory, never from a temporary or cache directory that
  another user could write to.
* A table file records a key (a SHA-256 of the grammar text and of the options
  that shape the tables) and the Lark version that wrote it. When either does
  not match (the grammar was edited and the tables not regenerated, or another
  Lark version is installed), the parser is built from the grammar instead,
  without the collision check. ``tests/test_parser_tables.py`` checks that the
  shipped tables match the grammars and that the check is done strictly there.
* Regenerate after editing a grammar::

      python -c "from cardrules.dsl.parser import write_parser_tables as w; w()"

This module imports nothing of the package, so that :mod:`cardrules.scoring`
and :mod:`cardrules.dsl.parser` can both use it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import lark
import lark.exceptions
import lark.grammar
import lark.lexer
from lark import Lark

__all__ = ["TABLES", "ParserSpec", "build_fresh", "load_parser", "write_tables"]

#: The table files, by parser name (in this module's directory).
TABLES: Final = {
    "variant": Path(__file__).with_name("parser_tables_variant.json"),
    "formula": Path(__file__).with_name("parser_tables_formula.json"),
}

#: Options that may be given again when tables are loaded (they do not shape
#: the tables, or are objects that JSON cannot hold).
_RUNTIME_OPTIONS: Final = frozenset({"transformer", "postlex"})

_BUILD_LOCK: Final = threading.Lock()


class ParserSpec:
    """One grammar and the options its parser is built with.

    Args:
        name: the key of its table file in :data:`TABLES`.
        grammar: the Lark grammar text.
        options: Lark options that shape the tables (``parser``, ``lexer``...);
            plain values only.
        runtime: Lark options given at load time (``transformer``,
            ``postlex``); a ``postlex``'s ``always_accept`` shapes the tables
            and is part of the key.
    """

    def __init__(
        self,
        name: str,
        grammar: str,
        options: Mapping[str, Any],
        runtime: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.grammar = grammar
        self.options = dict(options)
        self.runtime = dict(runtime or {})
        if set(self.runtime) - _RUNTIME_OPTIONS:
            raise ValueError(
                f"not a load-time option: {sorted(set(self.runtime) - _RUNTIME_OPTIONS)}"
            )

    @property
    def key(self) -> str:
        """The SHA-256 of what shapes the tables: the grammar and the options."""
        postlex = self.runtime.get("postlex")
        shape = {
            "grammar": self.grammar,
            "options": self.options,
            "always_accept": sorted(getattr(postlex, "always_accept", ())),
        }
        text = json.dumps(shape, sort_keys=True, ensure_ascii=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@contextmanager
def _no_collision_check() -> Iterator[None]:
    """Build without Lark's terminal-collision check (done in the tests, strict).

    Lark runs the check whenever ``interegular`` can be imported; its flag is
    lowered for the build only, under a lock.
    """
    with _BUILD_LOCK:
        saved = lark.lexer.has_interegular
        lark.lexer.has_interegular = False
        try:
            yield
        finally:
            lark.lexer.has_interegular = saved


def build_fresh(spec: ParserSpec) -> Lark:
    """Build ``spec``'s parser from its grammar (no collision check)."""
    with _no_collision_check():
        return Lark(spec.grammar, **spec.options, **spec.runtime)


def _encode(x: Any) -> Any:
    """``x`` for JSON: a dict whose keys are not all text (Lark numbers its
    parse states and its memo) becomes ``{"__items__": [[key, value], ...]}``
    and a tuple ``{"__tuple__": [...]}``, so that the tables read back are the
    values Lark wrote."""
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {k: _encode(v) for k, v in x.items()}
        return {"__items__": [[k, _encode(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"__tuple__": [_encode(v) for v in x]}
    if isinstance(x, list):
        return [_encode(v) for v in x]
    return x


def _decode(d: dict[str, Any]) -> Any:
    """The inverse of :func:`_encode`, as a ``json`` object hook."""
    if set(d) == {"__items__"}:
        return {k: v for k, v in d["__items__"]}
    if set(d) == {"__tuple__"}:
        return tuple(d["__tuple__"])
    return d


def _read_tables(spec: ParserSpec, path: Path) -> dict[str, Any] | None:
    """The table file's contents if it was written for ``spec`` by this Lark."""
    try:
        with path.open(encoding="utf-8") as f:
            doc = json.load(f, object_hook=_decode)
    except (OSError, ValueError, TypeError):
        return None
    if not isinstance(doc, dict) or doc.get("key") != spec.key:
        return None
    if doc.get("lark") != lark.__version__:
        return None
    return doc


def load_parser(spec: ParserSpec, path: Path | None = None) -> tuple[Lark, str]:
    """``spec``'s parser, from its shipped tables when they match.

    Args:
        spec: the grammar and options.
        path: the table file (default: ``TABLES[spec.name]``).

    Returns:
        The parser, and where it came from: ``"tables"`` or ``"grammar"``.
    """
    doc = _read_tables(spec, path or TABLES[spec.name])
    if doc is not None:
        try:
            data, memo = doc["data"], doc["memo"]
            loaded: Lark = Lark._load_from_dict(data, memo, **spec.runtime)  # type: ignore[no-untyped-call]
            return loaded, "tables"
        except (KeyError, TypeError, ValueError, AttributeError, lark.exceptions.LarkError):
            pass  # damaged tables: build from the grammar
    return build_fresh(spec), "grammar"


def tables_text(spec: ParserSpec) -> str:
    """The JSON text of ``spec``'s tables (what :func:`write_tables` writes)."""
    parser = build_fresh(spec)
    data, memo = parser.memo_serialize([lark.lexer.TerminalDef, lark.grammar.Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _RUNTIME_OPTIONS}
    doc = _encode({"key": spec.key, "lark": lark.__version__, "data": data, "memo": memo})
    return json.dumps(doc, sort_keys=True, ensure_ascii=True, separators=(",", ":")) + "\n"


def write_tables(specs: Iterable[ParserSpec]) -> list[Path]:
    """Write the table file of each of ``specs``; returns the paths written.

    :func:`cardrules.dsl.parser.write_parser_tables` writes both of the
    package's.

    Lark numbers its parse states in no fixed order, so two runs may write
    different bytes for the same grammar; the test compares what the tables
    parse, not their bytes.
    """
    written = []
    for spec in specs:
        path = TABLES[spec.name]
        path.write_text(tables_text(spec), encoding="utf-8")
        written.append(path)
    return written
