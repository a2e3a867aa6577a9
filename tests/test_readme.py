"""The examples in README.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_a_short_whole_game_example() -> None:
    blocks = python_blocks()
    assert blocks, "README.md should show a Python example"
    assert len(blocks[0].strip().splitlines()) < 15
    assert "Game(" in blocks[0] and "is_over" in blocks[0]


def test_readme_python_examples_run(capsys) -> None:  # type: ignore[no-untyped-def]
    for block in python_blocks():
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "♠" in out or "♣" in out or "♦" in out or "♥" in out  # seat 1's hand was printed
