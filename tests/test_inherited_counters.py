"""A house rule reads the counters of the game it extends.

A file's formulas (``score:``, ``team score:``, ``counter``) and its ``case``
lines may read the counters it declares and those of the files it extends,
without repeating their lines: a house rule of Spades that names the penalty
for ten bags as a case of its own reads ``bags``. Before, a file's formulas
were read with its own counter lines only, so such a line was refused as an
unknown variable (a case of Spades with one bid a side could not name it).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardrules
from cardrules import Game
from cardrules.dsl.formatter import format_source
from cardrules.dsl.loader import inherited_counters
from cardrules.dsl.upgrade import upgrade_source
from cardrules.errors import VariantError

TEN_BAGS = (
    'case "ten bags": bags + max(team_tricks - team_bid, 0) >= 10; '
    '"When the side\'s bags reach 10 it loses 100."; shown "10 bags, -100"; '
    "for example bags 8, team_bid 5, team_tricks 8"
)

#: A Spades house rule whose score reads the bags Spades keeps: 50 off at 5
#: bags (and no nil: a bid of 0 is a bid like any other).
FIVE_BAGS = (
    "game: spades-five-bags\nextends: spades\nscore: 0\n"
    "team score: (if tricks >= bid then 10 * bid + (tricks - bid) else -10 * bid)"
    " - 50 * ((bags + max(tricks - bid, 0)) // 5)\n"
)


def test_a_case_reads_a_counter_of_the_game_it_extends() -> None:
    """The regression: this line was refused ("unknown variable 'bags'")."""
    v = cardrules.load_text(f"game: side-bags\nextends: spades-side-bids\n{TEN_BAGS}\n")
    assert [c.label for c in v.cases] == ["ten bags"]
    assert [c.name for c in v.scoring.counters] == ["bags"]


def test_a_score_reads_a_counter_of_the_game_it_extends() -> None:
    v = cardrules.load_text(FIVE_BAGS)
    assert v.scoring.team_formula is not None
    assert v.scoring.team_formula.counters == ("bags",)
    # Each side's points follow the file's line, with the bags Spades keeps.
    g = Game(v, 4, seed=5)
    rng = random.Random(5)
    for _ in range(3):
        bags = dict(g.counters)["bags"]
        before = g.scores
        g.playout(None, rng, until="hand")
        last = g.view(0).last_hand
        assert last is not None
        for s in (0, 1):
            team = (s, s + 2)
            bid = sum(last.bids[p] or 0 for p in team)
            tricks = sum(last.tricks[p] for p in team)
            over = max(tricks - bid, 0)
            made = 10 * bid + (tricks - bid) if tricks >= bid else -10 * bid
            assert g.scores[s] - before[s] == made - 50 * ((bags[s] + over) // 5)


def test_counters_come_through_every_file_up_the_chain(tmp_path: Path) -> None:
    (tmp_path / "base.cardrules").write_text(
        "game: base\nextends: oh-hell\n"
        "counter misses: misses + (if exact then 0 else 1)\n",
        encoding="utf-8",
    )
    (tmp_path / "middle.cardrules").write_text(
        'game: middle\nextends: "base.cardrules"\ntitle: "Middle"\n', encoding="utf-8"
    )
    child = tmp_path / "child.cardrules"
    child.write_text(
        "game: child\nextends: middle\nscore: tricks + (if exact then 10 else 0) - misses\n",
        encoding="utf-8",
    )
    assert inherited_counters(child.read_text(encoding="utf-8"), path=child) == ("misses",)
    v = cardrules.load(child)
    assert v.scoring.formula is not None and v.scoring.formula.counters == ("misses",)


def test_a_misspelt_counter_is_still_refused_where_it_is() -> None:
    with pytest.raises(VariantError) as err:
        cardrules.load_text(FIVE_BAGS.replace("(bags +", "(bagz +"))
    assert "unknown variable 'bagz'" in str(err.value)
    assert err.value.line == 4


def test_a_file_of_no_parent_inherits_nothing() -> None:
    assert inherited_counters("game: mine\nextends: no-such-game\nscore: 0") == ()
    assert inherited_counters("game: mine\nscore: 0") == ()
    with pytest.raises(VariantError, match="no variant called"):
        cardrules.load_text("game: mine\nextends: no-such-game\nscore: 0\n")


def test_a_quoted_path_outside_the_folders_is_not_read_for_counters(tmp_path: Path) -> None:
    """Finding the counters reads only what loading may read."""
    inside = tmp_path / "inside"
    inside.mkdir()
    (tmp_path / "secret.cardrules").write_text("game: secret\ncounter leak: 1\n", "utf-8")
    child = inside / "child.cardrules"
    child.write_text('game: child\nextends: "../secret.cardrules"\n', encoding="utf-8")
    assert inherited_counters(child.read_text(encoding="utf-8"), path=child) == ()
    text = 'game: child\nextends: "/etc/passwd"\n'
    assert inherited_counters(text) == ()


def test_formatting_and_upgrading_read_the_inherited_counters() -> None:
    text = f"game: side-bags\nextends: spades-side-bids\n{TEN_BAGS}\n"
    assert format_source(text) == text
    upgraded, notes = upgrade_source(text)
    assert upgraded == text and notes == []


def test_an_option_reads_the_games_counters() -> None:
    text = "game: spades-options\nextends: spades\noptions: team score\n"
    v = cardrules.load_text(text, team_score="10 * bid - bags")
    assert v.scoring.team_formula is not None
    assert v.scoring.team_formula.counters == ("bags",)
