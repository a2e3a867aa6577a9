"""The package's layout shows its architecture (issue 22).

* The engine keeps its public surface at its top (the game, actions, events,
  matches); every other engine module lives in the sub-package of its job
  (:data:`ENGINE_LAYOUT`: a module added to the engine must be placed here,
  consciously).
* No two modules of the package share a file name, so a name in a traceback,
  an editor tab or a grep says which module it is (a command module may share
  the name of what it runs).
* The module paths the documentation has shown keep importing, as the same
  modules, without a second module file.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import cardrules

PACKAGE_DIR = Path(cardrules.__file__).resolve().parent
ENGINE_DIR = PACKAGE_DIR / "engine"

#: Every engine module, by the place of its job ("" is the engine's top).
# <layout table>
ENGINE_LAYOUT: dict[str, set[str]] = {
    "": {
        "__init__",
        "actions",
        "events",
        "game",
        "match",
    },
    "phases": {
        "__init__",
        "alone",
        "bidding",
        "case_names",
        "deal",
        "end",
        "knockout",
        "passing",
        "play",
        "ranked_play",
        "score",
        "shedding",
        "team_score",
        "trick",
        "trumps",
    },
    "state": {
        "__init__",
        "compiled_rules",
        "deck_order",
        "history",
        "ranks",
        "saves",
        "slots",
        "tables",
        "transitions",
        "undo",
    },
    "views": {
        "__init__",
        "context",
        "event_types",
        "infostate",
        "jsonform",
        "notation",
        "observation_from_state",
        "observation_vector",
        "refusals",
        "view",
    },
    "search": {
        "__init__",
        "playout",
        "worlds",
    },
}
# </layout table>

#: Old module paths the documentation has shown -> where the module lives now.
OLD_PATHS = {
    "cardrules.engine.history": "cardrules.engine.state.history",
    "cardrules.engine.infostate": "cardrules.engine.views.infostate",
    "cardrules.engine.notation": "cardrules.engine.views.notation",
    "cardrules.engine.worlds": "cardrules.engine.search.worlds",
}

#: Names the documentation reads from the old paths.
DOCUMENTED_NAMES = {
    "cardrules.engine.history": ("current_line", "MAX_TAKE_BACKS"),
    "cardrules.engine.infostate": ("information_state_tensor_size",),
    "cardrules.engine.notation": ("parse_action", "action_to_dict", "action_from_dict"),
    "cardrules.engine.worlds": ("MAX_ATTEMPTS",),
}


def _python_files(root: Path) -> list[Path]:
    return [p for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts]


def test_every_engine_module_is_in_the_place_of_its_job() -> None:
    """The engine's files are exactly :data:`ENGINE_LAYOUT`: nothing unplaced,
    nothing missing, no other sub-package."""
    found: dict[str, set[str]] = {}
    for path in _python_files(ENGINE_DIR):
        place = "/".join(path.relative_to(ENGINE_DIR).parent.parts)
        found.setdefault(place, set()).add(path.stem)
    assert found == ENGINE_LAYOUT


def test_the_sub_packages_only_say_what_they_hold() -> None:
    """A sub-package's ``__init__.py`` is a docstring: no imports, no
    re-exports (importing one module of a room imports nothing else)."""
    for place in ENGINE_LAYOUT:
        if not place:
            continue
        module = importlib.import_module(f"cardrules.engine.{place}")
        assert module.__doc__ and module.__doc__.strip(), place
        text = (ENGINE_DIR / place / "__init__.py").read_text(encoding="utf-8")
        assert "import " not in text.replace(module.__doc__, ""), place


def test_no_two_modules_share_a_file_name() -> None:
    """But for ``__init__.py``/``__main__.py`` and the commands (``cardrules
    play`` runs ``commands/play.py``), every file name of the package is one
    module's."""
    seen: dict[str, Path] = {}
    clashes: list[str] = []
    for path in _python_files(PACKAGE_DIR):
        rel = path.relative_to(PACKAGE_DIR)
        if path.name in ("__init__.py", "__main__.py") or rel.parts[0] == "commands":
            continue
        if path.name in seen:
            clashes.append(f"{seen[path.name].relative_to(PACKAGE_DIR)} and {rel}")
        seen.setdefault(path.name, path)
    assert not clashes, "modules sharing a file name: " + "; ".join(clashes)


def test_the_old_documented_paths_import_the_same_modules() -> None:
    """``import cardrules.engine.notation`` (and the other paths the docs showed)
    gives the module at its new path, with the same objects; there is no
    second file for it."""
    for old, new in OLD_PATHS.items():
        moved = importlib.import_module(new)
        assert importlib.import_module(old) is moved
        assert sys.modules[old] is moved
        assert not (PACKAGE_DIR.parent / (old.replace(".", "/") + ".py")).exists()
        for name in DOCUMENTED_NAMES[old]:
            assert getattr(importlib.import_module(old), name) is getattr(moved, name)


def test_the_old_paths_work_in_a_fresh_interpreter() -> None:
    """Every form of import works first thing, before anything imported the
    module by its new path: ``import a.b``, ``import a.b as m``, ``from a
    import b``, ``from a.b import name``."""
    code = (
        "import cardrules.engine.notation\n"
        "import cardrules.engine.history as h\n"
        "from cardrules.engine import worlds\n"
        "from cardrules.engine.infostate import information_state_tensor_size\n"
        "from cardrules.engine.views import notation\n"
        "from cardrules.engine.state import history\n"
        "from cardrules.engine.search import worlds as new_worlds\n"
        "assert cardrules.engine.notation is notation\n"
        "assert h is history and worlds is new_worlds\n"
        "assert cardrules.engine.notation.parse_action('QS').label == 'play Q♠'\n"
        "assert callable(information_state_tensor_size)\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_importing_the_engine_does_not_import_the_old_paths() -> None:
    """The old paths cost nothing until asked for: ``import cardrules`` does not
    import the search modules through them."""
    code = (
        "import sys, cardrules\n"
        "print(sorted(m for m in sys.modules if m in {"
        + ", ".join(repr(m) for m in OLD_PATHS)
        + "}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
