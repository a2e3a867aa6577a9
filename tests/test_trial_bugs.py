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


def _tie_section() -> str:
    text = (Path(__file__).parents[1] / "docs" / "dsl.md").read_text(encoding="utf-8")
    start = text.index("### `tie:`")
    return text[start : text.index("\n### ", start + 1)]


def test_tie_rule_docs_pages_and_engine_say_one_thing() -> None:
    """docs/dsl.md said "extra hands (at most 20)" and a capped tie shared the win; the
    engine plays up to MAX_TIE_HANDS extra hands and then ends unfinished, no winner."""
    from cardrules import Game, load
    from cardrules.rulebook.words import tie_phrase
    from cardrules.rules import MAX_TIE_HANDS

    section = " ".join(_tie_section().split())
    assert "at most 20" not in section
    assert f"through {MAX_TIE_HANDS} extra hands" in section
    assert "unfinished, with no winner" in section
    assert "stops after N extra hands (N from 1 to 1,000) and those still tied share" in section
    # the page of the default says the same bound and the same end
    page = tie_phrase(load("oh-hell"))
    assert f"through {MAX_TIE_HANDS} extra hands" in page and "unfinished, with no winner" in page
    assert "share the win" in tie_phrase(load("oh-hell", tie="extra hands, at most 3"))
    # and the engine: everyone scores 0, so the tie never breaks
    g = Game(load("oh-hell", score="0", hands="list 1"), players=3, seed=1)
    while not g.is_over:
        seat = min(g.waiting_for)
        g.apply(g.legal_actions(seat)[0], seat=seat)
    assert g.extra_hands == MAX_TIE_HANDS
    assert g.result is not None and not g.result.finished and g.result.winners == ()
