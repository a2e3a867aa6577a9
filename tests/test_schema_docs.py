"""docs/json.md and the docstrings of the JSON contract run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_json_page_examples_run() -> None:
    result = doctest.testfile(
        str(DOCS / "json.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 20 and result.failed == 0


def test_json_page_is_in_the_navigation() -> None:
    hook = (DOCS / "hooks" / "rulebook_pages.py").read_text("utf-8")
    assert '"json.md"' in hook


@pytest.mark.parametrize(
    "module",
    [
        "cardrules.schema",
        "cardrules.engine.views.jsonform",
        "cardrules.engine.views.view",
        "cardrules.engine.views.notation",
    ],
)
def test_docstring_examples_run(module: str) -> None:
    mod = importlib.import_module(module)  # the module (cardrules.schema is also a function)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0
