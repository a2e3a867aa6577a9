"""The package's shape: an acyclic import graph, and an engine that knows no game.

The import graph is built from the source with :mod:`ast`, not by importing
anything: every ``import`` and ``from ... import`` statement of every module of
``cardrules/``, at module level and inside functions and classes alike (a lazy
import inside a function still closes a cycle). Only imports in the body of an
``if TYPE_CHECKING:`` block are left out: they never run. An import of
``a.b.c`` is an edge to the module ``a.b.c`` (its parent packages are not
counted: Python has them in ``sys.modules`` before any of their submodules
runs); ``from a.b import c`` is an edge to ``a.b.c`` when that is a module,
else to ``a.b``. Imports by string (``importlib.import_module``) are not
followed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import cardrules
from cardrules.dsl import builtin_names

PACKAGE_DIR = Path(cardrules.__file__).resolve().parent
ENGINE_DIR = PACKAGE_DIR / "engine"
PROJECT_DIR = PACKAGE_DIR.parent

Graph = dict[str, set[str]]


# --------------------------------------------------------------------------- the graph


def _modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module under ``root`` (a package directory): dotted name -> (path,
    whether it is a package's ``__init__``)."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        out[".".join(parts)] = (path, is_pkg)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree`` at any depth, but for the bodies of
    ``if TYPE_CHECKING:`` blocks (their ``else:`` branches run, so they count)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path = PACKAGE_DIR) -> Graph:
    """The import graph of the package at ``root``, between its own modules."""
    modules = _modules(root)

    def known(name: str) -> str | None:
        # The deepest module of the package that ``name`` is, or is inside of.
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {m: set() for m in modules}
    for name, (path, is_pkg) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        package = name if is_pkg else name.rpartition(".")[0]
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [known(a.name) for a in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                targets = []
                for a in node.names:
                    sub = f"{source}.{a.name}"
                    targets.append(sub if sub in modules else known(source))
            graph[name].update(t for t in targets if t is not None and t != name)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (each sorted),
    found without recursion (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp: list[str] = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def a_cycle(graph: Graph, component: list[str]) -> list[str]:
    """One closed path through ``component`` (for the failure message)."""
    members = set(component)
    start = component[0]
    # Breadth-first from start's successors back to start, inside the component.
    paths: dict[str, list[str]] = {}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    return [start, *paths.get(v, []), start] if v != start else [start, start]
                if w not in paths:
                    paths[w] = [*paths.get(v, []), w]
                    nxt.append(w)
        frontier = nxt
    return component


def _describe(graph: Graph, comps: list[list[str]]) -> str:
    return "; ".join(" -> ".join(a_cycle(graph, c)) for c in comps)


# --------------------------------------------------------------------------- the graph's tests


def test_the_graph_builder_sees_lazy_imports_and_skips_type_checking(tmp_path: Path) -> None:
    """The builder itself: a function-level import closes a cycle, a
    TYPE_CHECKING import does not, relative and ``from pkg import mod`` imports
    resolve to the module."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from . import b\n")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..a import x\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\nelse:\n    pass\n"
    )
    (pkg / "d.py").write_text("import pkg.c\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert graph["pkg.sub"] == {"pkg.sub.b"}
    assert graph["pkg.c"] == set()
    assert graph["pkg.d"] == {"pkg.c"}
    comps = cycles(graph)
    assert comps == [["pkg.a", "pkg.sub.b"]]
    assert a_cycle(graph, comps[0]) == ["pkg.a", "pkg.sub.b", "pkg.a"]


def test_no_import_cycle_through_the_engine() -> None:
    """No module of ``cardrules/engine/`` is on an import cycle: not among
    themselves (the game and its saves), and not through the rest of the
    package (``import cardrules`` from inside the engine would be one)."""
    graph = import_graph()
    assert "cardrules.engine.game" in graph and "cardrules.engine.state.saves" in graph
    # No module of the sub-packages (the phases, the state with the saves, the
    # views, search) imports the game: they name Game under TYPE_CHECKING only,
    # and saves.py is given the class.
    rooms = tuple(f"cardrules.engine.{p}." for p in ("phases", "state", "views", "search"))
    below_game = [m for m in graph if m.startswith(rooms)]
    assert {"cardrules.engine.phases.deal", "cardrules.engine.state.saves"} <= set(below_game)
    for m in below_game:
        assert "cardrules.engine.game" not in graph[m], m
    through_engine = [c for c in cycles(graph) if any(map(_in_engine, c))]
    assert not through_engine, (
        f"import cycles through the engine: {_describe(graph, through_engine)}"
    )


def _in_engine(module: str) -> bool:
    return module == "cardrules.engine" or module.startswith("cardrules.engine.")


def test_no_import_cycle_anywhere_in_the_package() -> None:
    """The whole package: no import cycle outside the engine either (the rules
    pages, the rule language, the commands...)."""
    graph = import_graph()
    assert len(graph) > 40 and "cardrules.rulebook" in graph and "cardrules.dsl" in graph
    found = cycles(graph)
    assert not found, f"import cycles: {_describe(graph, found)}"


# --------------------------------------------------------------------------- no game in the engine


def _game_names() -> set[str]:
    """Every built-in variant's name, its title (the part before any comma: the
    game's own name) and its aliases."""
    names: set[str] = set()
    for name in builtin_names():
        v = cardrules.load(name)
        names.add(name)
        names.add(v.title.split(",")[0])
        names.update(v.aliases)
    by_case: dict[str, str] = {}
    for n in sorted(n.strip() for n in names):  # "Kachuful" before "kachuful"
        if n:
            by_case.setdefault(n.casefold(), n)
    return set(by_case.values())


def _pattern(name: str) -> re.Pattern[str]:
    """``name`` in any case, its words separated by any spaces, hyphens,
    underscores or punctuation (also over a line break), each word written whole
    or spelled out letter by letter (``K-A-Z...``)."""
    words = [w for w in re.split(r"[\s_-]+", name) if w]
    spelled = [r"[-.\s]".join(map(re.escape, w)) for w in words]
    alternatives = [f"(?:{re.escape(w)}|{s})" for w, s in zip(words, spelled, strict=True)]
    return re.compile(r"[\W_]+".join(alternatives), re.IGNORECASE)


def test_the_game_name_pattern() -> None:
    """The pattern finds a name however it is written, and not other words."""
    p = _pattern("Oh Hell")
    assert p.search("the oh_hell game") and p.search("OH-HELL") and p.search("Oh\nHell")
    assert not p.search("oh, well")
    assert _pattern("Kazhutha").search("played to K-A-Z-H-U-T-H-A")
    assert not _pattern("Donkey").search("a don key")


def test_no_built_in_game_is_named_in_the_engine() -> None:
    """``grep -ri`` for any built-in game's name under ``cardrules/engine/`` finds
    nothing: not in code, comments or docstrings (the engine plays whatever the
    rules say; no game has a branch of its own)."""
    names = _game_names()
    assert {"Kachuful", "Kazhutha", "Callbreak", "Oh Hell", "Judgement", "Donkey"} <= names
    patterns = {n: _pattern(n) for n in sorted(names)}
    files = [
        p
        for p in sorted(ENGINE_DIR.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".so", ".pyd")
    ]
    assert any(p.name == "game.py" for p in files)
    hits: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        for name, pat in patterns.items():
            # The whole text: a name wrapped over two lines of a comment is found too.
            for m in pat.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                hits.append(f"{path.relative_to(PROJECT_DIR)}:{line}: {m.group()!r} ({name})")
    assert not hits, "game names in the engine:\n" + "\n".join(hits)


# --------------------------------------------------------------------------- the compiled build


def _compiled_list() -> tuple[str, ...]:
    """``COMPILED`` of ``hatch_build.py``, read from its source."""
    tree = ast.parse((PROJECT_DIR / "hatch_build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
            and isinstance(node.value, ast.Tuple)
        ):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("hatch_build.py has no COMPILED tuple")


#: Engine modules the game imports that stay Python in the compiled build (see
#: benchmarks/README.md: mypyc cannot compile the interned actions, and the views
#: and event records are attrs classes read only at the edges, as is their JSON
#: reader, jsonform; the notation reads typed text for Game.parse_action; the
#: observation vectors are built from views, at the same edge).
STAYS_PYTHON = {
    "cardrules.engine.views.observation_vector",
    "cardrules.engine.actions",
    "cardrules.engine.views.view",
    "cardrules.engine.views.event_types",
    "cardrules.engine.views.jsonform",
    "cardrules.engine.views.notation",
    # A bot's DecisionContext: its fields are read-once descriptors of its own
    # (a native class of mypyc cannot carry them); the compiled playouts import it.
    "cardrules.engine.views.context",
}


def test_the_compiled_build_covers_every_engine_module_of_the_game_loop() -> None:
    """Every engine module that ``engine/game.py`` imports, directly or not, is in
    ``hatch_build.COMPILED`` (but for the few that cannot be compiled), and every
    path there is an engine module."""
    graph = import_graph()
    reached: set[str] = set()
    todo = ["cardrules.engine.game"]
    while todo:
        m = todo.pop()
        if m in reached:
            continue
        reached.add(m)
        todo.extend(graph[m])
    engine = {m for m in reached if m.startswith("cardrules.engine.")}
    compiled = _compiled_list()
    as_modules = {p.removesuffix(".py").replace("/", ".") for p in compiled}
    for p in compiled:
        assert (PROJECT_DIR / p).is_file(), p
        assert p.startswith("cardrules/engine/"), p
    missing = engine - STAYS_PYTHON - as_modules
    assert not missing, f"not compiled: {sorted(missing)}"
