"""Regression tests for the bugs the trial of issue 23 met (each failed before its fix)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.cli import main

STREAK_FILE = """\
extends: oh-hell
game: oh-hell-streak
counter streak: if exact then streak + 1 else 0
score: tricks + (if exact then 10 + streak else 0)
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_page_of_a_score_reading_a_counter(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`cardrules rules` used to exit 1 ("uses 'streak', but no value was given")."""
    path = tmp_path / "streak.cardrules"
    path.write_text(STREAK_FILE, encoding="utf-8")
    assert run(capsys, "check", str(path))[0] == 0
    code, page, err = run(capsys, "rules", str(path))
    assert code == 0, err
    # the page says the counter is kept, starts at 0, and how it changes
    assert "running count for each player, starting at 0" in page
    assert "**streak**: after each hand, it becomes 0, or your streak" in page
    assert "plus 10 plus your streak (the count as it stood before the hand)" in page
    # and it claims nothing the counter could make false
    assert "take exactly the number of tricks you bid;" not in page
