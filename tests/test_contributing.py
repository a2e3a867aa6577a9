"""docs/contributing.md, the contributor's page, stays true.

The page is a map: every file it names must exist, every name it puts beside a
file must be in that file, and its worked "adding a setting" (``team bids``)
must be the setting as the package declares it. A module moved, a function
renamed or a step added elsewhere makes this test fail and say which.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules.dsl.settings.registry import BY_NAME

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")

#: A backquoted repository path: a file or folder of the project.
_PATH = re.compile(r"`((?:cardrules|docs|tests|variants|benchmarks)/[\w./-]*)`")
#: A backquoted Python or grammar name.
_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def _section(title: str) -> str:
    """The text of the page's section ``## title`` (to the next ``## ``)."""
    start = PAGE.index(f"## {title}\n")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start : end if end != -1 else len(PAGE)]


def _rows(section: str) -> list[list[str]]:
    """The body rows of the Markdown table in ``section``, as cells."""
    lines = [ln for ln in section.splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in ln.strip("|").split(" | ")] for ln in lines[1:]]


def test_every_path_the_page_names_exists() -> None:
    paths = sorted(set(_PATH.findall(PAGE)))
    assert len(paths) > 25, "the page should name the package's rooms"
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"docs/contributing.md names paths that do not exist: {missing}"


def test_the_map_covers_every_folder_of_the_package() -> None:
    """A new sub-package is a new room: the map must show it."""
    named = set(_PATH.findall(_section("The map of the package")))
    folders = {
        p.relative_to(ROOT).as_posix() + "/"
        for p in (ROOT / "cardrules").rglob("__init__.py")
        for p in [p.parent]
        if p.parent.name != "__pycache__" and p != ROOT / "cardrules"
    }
    missing = sorted(f for f in folders if f not in named)
    assert not missing, f"the map of docs/contributing.md misses {missing}"


@pytest.mark.parametrize("row", _rows(_section("Adding a setting")), ids=lambda r: r[0])
def test_each_step_names_what_is_in_its_files(row: list[str]) -> None:
    """Step by step: each name the step shows is in one of the step's files."""
    step, where, what = row
    files = [ROOT / p for p in _PATH.findall(where) if (ROOT / p).is_file()]
    if not files:  # "a variant file in `variants/`": any of them
        files = sorted((ROOT / "variants").glob("*"))
    text = "\n".join(f.read_text(encoding="utf-8") for f in files if f.is_file())
    # Code names, not words: anything but a plain lower-case word, and the
    # declaration's two functions.
    names = [n for n in _NAME.findall(what) if not n.isalpha() or not n.islower()]
    names += [n for n in _NAME.findall(what) if n in ("parse", "render")]
    for name in names:
        assert re.search(rf"\b{re.escape(name)}\b", text), f"{step}: `{name}` is not in {where}"


def test_the_worked_setting_is_declared_as_the_page_says() -> None:
    spec = BY_NAME["team bids"]
    table = _section("Adding a setting")
    assert f"`{spec.key_terminal}`" in table
    assert f"`{spec.grammar_rule}`" in table
    for field in spec.fields:
        assert f"`{field}`" in table
    assert f'`"{spec.page_rule}"`' in table
    assert spec.old_saves, "the page says the setting keeps old saves' fingerprints"


def test_the_engine_names_the_page_gives_exist() -> None:
    section = _section("The engine's state and who writes it")
    for path, names in (
        ("cardrules/engine/state/slots.py", ("SLOTS",)),
        ("cardrules/engine/state/transitions.py", ("log_event", "give_turn", "enter_phase")),
        ("cardrules/engine/phases/trick.py", ("_play_card",)),
    ):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert f"`{path}`" in section
        for name in names:
            assert f"`{name}`" in section
            assert re.search(rf"\b{name}\b", text), f"`{name}` is not in {path}"
    transitions = (ROOT / "cardrules/engine/state/transitions.py").read_text(encoding="utf-8")
    for name in re.findall(r"`(\w+)`", section.split("transitions.py`")[1].split(")")[0]):
        assert f"def {name}(" in transitions, f"transitions.py has no function {name}"
