"""The engine's state has owners: who may write a slot of ``Game``, and who may read one.

Every slot of :class:`~cardrules.engine.game.Game` is declared once in
:data:`cardrules.engine.state.slots.SLOTS`, with the engine module that owns it
(and, in ``also``, the other modules that still write it). These tests read
the source with :mod:`ast` (nothing is run) and fail when:

* a module writes a slot it does not own and is not listed for (a write is
  ``x._slot = ...``, ``x._slot[...] = ...``, an augmented assignment, ``del``,
  a mutating call such as ``x._slot.append(...)``, or ``setattr(x, "_slot",
  ...)``); the derived machinery that writes every slot by the declaration
  (``Game.__init__``/``Game._setup``, which create the state, ``Game.clone``
  and undo's restore, which loops over the declared names) is the exception;
* a module listed in a slot's ``also`` no longer writes it (the list stays true);
* code outside ``cardrules/engine/`` reads (or writes) a private slot of a game;
* ``game.py``'s slot annotations or ``clone`` are not the ones the declarations
  write (``python cardrules/engine/state/slots.py`` rewrites them).

The receiver of an attribute is not typed here: ``self._x`` inside a class other
than ``Game`` is that class's own attribute and is left alone; any other
``name._x`` whose ``_x`` is a slot of ``Game`` counts.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import cardrules
from cardrules.engine.state import slots as state_slots
from cardrules.engine.state.slots import GAME_SLOTS, SLOTS, WRITERS

PACKAGE_DIR = Path(cardrules.__file__).resolve().parent
ENGINE_DIR = PACKAGE_DIR / "engine"

#: Calls that change a list (or dict) in place.
_MUTATING = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update"}
)
#: The functions that write every slot, by the declaration: (module, class, function).
_DERIVED = frozenset(
    {
        ("game", "Game", "__init__"),
        ("game", "Game", "_setup"),
        ("game", "Game", "clone"),
        ("undo", None, "_restore"),
    }
)
_SLOT_NAMES = frozenset(GAME_SLOTS)


def _slot_of(node: ast.expr, cls: str | None) -> str | None:
    """The slot of ``Game`` that ``node`` (an assignment's target, or what a
    mutating call is made on) is, or is an item of; None if it is none."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if not isinstance(node, ast.Attribute) or node.attr not in _SLOT_NAMES:
        return None
    if isinstance(node.value, ast.Name) and node.value.id == "self" and cls != "Game":
        return None  # another class's own attribute
    return node.attr


def _writes(tree: ast.AST) -> Iterator[tuple[str, str | None, str | None, int]]:
    """Each write of a slot in ``tree``: (slot, class, function, line)."""

    def visit(
        node: ast.AST, cls: str | None, fn: str | None
    ) -> Iterator[tuple[str, str | None, str | None, int]]:
        if isinstance(node, ast.ClassDef):
            cls, fn = node.name, None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            fn = node.name
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple | ast.List) else [target]:
                slot = _slot_of(t, cls)
                if slot is not None:
                    yield slot, cls, fn, t.lineno
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _MUTATING:
                slot = _slot_of(func.value, cls)
                if slot is not None:
                    yield slot, cls, fn, node.lineno
            if (
                isinstance(func, ast.Name)
                and func.id == "setattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in _SLOT_NAMES
            ):
                yield str(node.args[1].value), cls, fn, node.lineno
        for child in ast.iter_child_nodes(node):
            yield from visit(child, cls, fn)

    yield from visit(tree, None, None)


def _engine_writers() -> dict[str, dict[str, list[str]]]:
    """slot -> engine module -> the places (``module.py:line in function``) it writes it."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        module = path.stem
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for slot, cls, fn, line in _writes(tree):
            if (module, cls, fn) in _DERIVED:
                continue
            out[slot][module].append(f"{path.name}:{line} in {fn}")
    return out


def test_every_slot_is_written_only_by_its_owner_or_a_listed_writer() -> None:
    writers = _engine_writers()
    wrong = []
    for slot, by_module in sorted(writers.items()):
        allowed = set(WRITERS[slot])
        for module, places in sorted(by_module.items()):
            if module not in allowed:
                wrong.append(
                    f"{slot} (owner: engine/{WRITERS[slot][0]}.py) written by {', '.join(places)}"
                )
    assert not wrong, (
        "a slot of Game written by a module that does not own it: call the owner's "
        "function instead (engine/state/transitions.py for the log, the turn, the phase and "
        "the legal set), or declare the writer in engine/state/slots.py:\n  " + "\n  ".join(wrong)
    )


def test_every_listed_writer_still_writes_its_slot() -> None:
    writers = _engine_writers()
    stale = [
        f"{s.name}: engine/{module}.py"
        for s in SLOTS
        for module in s.also
        if module not in writers.get(s.name, {})
    ]
    assert not stale, (
        "listed in a slot's `also` in engine/state/slots.py but no longer writing it "
        "(take it off the list):\n  " + "\n  ".join(stale)
    )


def test_owners_are_engine_modules() -> None:
    modules = {p.stem for p in ENGINE_DIR.rglob("*.py")}
    unknown = sorted(
        f"{s.name}: {m}" for s in SLOTS for m in (s.owner, *s.also) if m not in modules
    )
    assert not unknown
    assert len(set(GAME_SLOTS)) == len(GAME_SLOTS)


def _outside_modules() -> Iterator[Path]:
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if ENGINE_DIR not in path.parents and "__pycache__" not in path.parts:
            yield path


def _private_reads(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Each use of a private slot of a game in ``tree``: (line, the code)."""

    def visit(node: ast.AST, cls: str | None) -> Iterator[tuple[int, str]]:
        if isinstance(node, ast.ClassDef):
            cls = node.name
        if isinstance(node, ast.Attribute) and node.attr in _SLOT_NAMES:
            own = isinstance(node.value, ast.Name) and node.value.id == "self" and cls
            if not own:
                yield node.lineno, ast.unparse(node)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in _SLOT_NAMES
        ):
            yield node.lineno, ast.unparse(node)
        for child in ast.iter_child_nodes(node):
            yield from visit(child, cls)

    yield from visit(tree, None)


def test_no_code_outside_the_engine_touches_a_private_slot_of_a_game() -> None:
    found = [
        f"{path.relative_to(PACKAGE_DIR.parent)}:{line}: {code}"
        for path in _outside_modules()
        for line, code in _private_reads(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, (
        "code outside cardrules/engine/ reads a private slot of a Game: use (or add) "
        "a public accessor of the engine:\n  " + "\n  ".join(found)
    )


def test_game_py_slots_and_clone_are_written_from_the_declarations() -> None:
    path = ENGINE_DIR / "game.py"
    text = path.read_text(encoding="utf-8")
    assert state_slots.game_source(text) == text, (
        "engine/game.py's slot annotations or clone() differ from engine/state/slots.py's "
        "SLOTS: run python cardrules/engine/state/slots.py"
    )


def test_the_checker_sees_each_kind_of_write() -> None:
    source = (
        "def f(g):\n"
        "    g._to_act = 1\n"
        "    g._hands[0] = 2\n"
        "    g._scores[1] += 3\n"
        "    g._events.append(('x',))\n"
        "    setattr(g, '_phase', 4)\n"
        "    a, g._leader = 1, 2\n"
        "class Other:\n"
        "    def m(self):\n"
        "        self._to_act = 5\n"
    )
    found = sorted(slot for slot, *_ in _writes(ast.parse(source)))
    assert found == ["_events", "_hands", "_leader", "_phase", "_scores", "_to_act"]
    reads = [code for _, code in _private_reads(ast.parse("x = game._scores\n" + source))]
    assert reads[0] == "game._scores" and "self._to_act" not in reads
