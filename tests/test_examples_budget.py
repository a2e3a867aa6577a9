"""The total work of a file's examples is bounded (issue 21, item 13).

Each example plays at most ``MAX_EXAMPLE_TRICKS`` tricks, but a file from a
stranger held 40 examples each playing out a 52-player, 1,000-hand game: 8.1 s
of CPU for ``cardrules check``. The examples of a file now share one budget of
actions (``MAX_FILE_EXAMPLE_ACTIONS``): the example that goes past it fails with
the code ``examples_too_large`` at its line, and the examples after it are not
played. The tests count the actions played (``ExampleRun.actions``), not time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.cli import main
from cardrules.dsl import builtin_names, load, load_text
from cardrules.errors import ERROR_CODES, VariantError
from cardrules.example_runner import (
    MAX_FILE_EXAMPLE_ACTIONS,
    ExampleBudget,
    run_all,
    run_example,
    run_examples,
)
from cardrules.rulebook.example_section import examples_section

#: A game of 52 players, one card each, 1,000 hands long.
LONG_GAME = """\
game: long-game
players: 52
deck: standard 52
hand size: 1
hands: 1000 hands of the same size
trumps: none
bidding: none
follow: must follow suit
score: tricks
winner: highest total
"""

#: Four players, the whole pack, ten hands: about 530 actions played out.
SHORT_GAME = """\
game: short-game
players: 4
deck: standard 52
hand size: 13
hands: 10 hands of the same size
trumps: none
bidding: none
follow: must follow suit
score: tricks
winner: highest total
"""


def _file(head: str, examples: int, players: int) -> str:
    """``head`` with ``examples`` examples, each playing out the whole game
    (the title padded, as a stranger's file of 3.3 kB examples)."""
    body = [
        f"example: the whole game, played out, number {i + 1}{' again' * 40}\n"
        f"  with {players} players, seat 1 deals\n"
        "  play out the game\n"
        "  expect the game is over\n"
        for i in range(examples)
    ]
    return head + "\n" + "\n".join(body)


def test_a_file_of_40_long_games_is_refused_at_its_line_with_its_code() -> None:
    text = _file(LONG_GAME, 40, 52)
    v = load_text(text, path="long.cardrules")
    assert len(v.examples) == 40
    budget = ExampleBudget()
    runs = run_all(v, budget)
    # The first example alone would play 52,000 actions: it is stopped, the
    # 39 others are not played.
    assert len(runs) == 1
    (failure,) = run_examples(v)
    assert failure.code == "examples_too_large" and failure.code in ERROR_CODES
    assert isinstance(failure, VariantError)
    assert (failure.path, failure.line, failure.column) == ("long.cardrules", 14, 3)
    assert failure.source_line is not None and "play out the game" in failure.source_line
    assert "more than 10,000 actions in all" in str(failure)
    assert str(failure).startswith('long.cardrules:14:3: example "the whole game, played out')
    # The work done: no more than the budget.
    assert budget.spent == runs[0].actions == MAX_FILE_EXAMPLE_ACTIONS
    assert failure.to_dict()["data"]["example"] == runs[0].example.title


def test_examples_each_within_bounds_are_bounded_in_all() -> None:
    """Short games, each well within an example's bound: the one that takes the
    file past the budget fails, at its own line; the ones before it hold."""
    v = load_text(_file(SHORT_GAME, 40, 4), path="short.cardrules")
    one = run_example(v, v.examples[0])
    assert one.holds and 400 < one.actions < 1000
    budget = ExampleBudget()
    runs = run_all(v, budget)
    first = MAX_FILE_EXAMPLE_ACTIONS // one.actions  # the examples that fit
    assert len(runs) == first + 1 < 40
    assert all(r.holds and r.actions == one.actions for r in runs[:first])
    last = runs[-1].failure
    assert last is not None and last.code == "examples_too_large"
    assert last.line == v.examples[first].steps[0].pos.line  # its `play out` line
    assert budget.spent == MAX_FILE_EXAMPLE_ACTIONS
    assert [f.code for f in run_examples(v)] == ["examples_too_large"]
    # Under a spent budget an example is not played at all.
    late = run_example(v, v.examples[-1], budget)
    assert late.failure is not None and late.failure.code == "examples_too_large"
    assert late.actions == 0 and late.steps == () and "not played" in late.failure.problem
    assert late.failure.line == v.examples[-1].pos.line


def test_the_hands_before_an_examples_own_count() -> None:
    text = (
        LONG_GAME + "\nexample: late in the game\n  with 52 players, hand 40, seat 1 deals\n"
        "  expect no trumps\n"
    )
    v = load_text(text, path="late.cardrules")
    budget = ExampleBudget(limit=500)
    (run,) = run_all(v, budget)
    assert run.failure is not None and run.failure.code == "examples_too_large"
    assert run.failure.line == 13  # the `with` line that asks for hand 40
    assert run.actions == budget.spent == 500


def test_check_refuses_such_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "long.cardrules"
    path.write_text(_file(LONG_GAME, 40, 52), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:14:3: example" in err and "10,000 actions in all" in err
    assert err.count("examples_too_large") == 0  # the words, as other errors
    assert err.count("example ") == 1  # one failure: the others are not played


def test_the_rules_page_plays_under_the_same_budget() -> None:
    v = load_text(_file(SHORT_GAME, 40, 4), path="short.cardrules")
    page = "\n".join(examples_section(v))
    shown = page.count("**This example does not hold:**")
    assert shown == 1 and "10,000 actions in all" in page
    assert page.count("number 40 again") == 0  # not played, not shown


def test_every_built_in_file_checks_within_the_budget() -> None:
    for name in builtin_names():
        v = load(name)
        budget = ExampleBudget()
        runs = run_all(v, budget)
        assert [r.failure for r in runs if r.failure is not None] == [], name
        assert len(runs) == len(v.examples)
        assert budget.spent <= MAX_FILE_EXAMPLE_ACTIONS // 3, (name, budget.spent)
