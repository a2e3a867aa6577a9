"""Issue 25, items 5 and 6: what makes a game itself (its story and tips) and
the choices a page makes where the sources differ, each with the one-line
house rule that plays it the other way; and the tie rule in the game's words
(no engine bound shown as a rule).

The story, tips and choices are presentation: they never change a variant's
equality or fingerprint (the golden fingerprints of tests/test_fingerprints_golden.py
hold). Every choice's house rule of every built-in reads, makes a valid game and
changes the fingerprint.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from catalog_support import internal_names
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.cli import main
from cardrules.dsl import builtin_names, format, load, load_text
from cardrules.dsl.choices import changed_by, check_choices
from cardrules.dsl.formatter import to_dict
from cardrules.dsl.settings.story_settings import MAX_TIPS
from cardrules.engine.state.compiled_rules import variant_fingerprint
from cardrules.errors import VariantError
from cardrules.rulebook import rulebook
from cardrules.rulebook.story import CHOICES_HEADING
from cardrules.rules import MAX_TIE_HANDS

#: The games the issue names, each with a story and tips of its own.
STORIED = (
    "kachuful",
    "oh-hell",
    "judgement",
    "callbreak",
    "spades",
    "hearts",
    "euchre",
    "whist",
    "kazhutha",
    "five-hundred",
    "wizard",
    "bid-whist",
)
#: The games whose comments state choices: each states them as choice: lines.
WITH_CHOICES = ("spades", "callbreak", "hearts", "euchre", "kachuful", "oh-hell", "five-hundred")

_PAGES: dict[str, str] = {}


def _page(name: str) -> str:
    """The rules page of a built-in (without the engine's examples: faster)."""
    if name not in _PAGES:
        _PAGES[name] = rulebook(load(name), engine_examples=False)
    return _PAGES[name]


def _section(page: str, heading: str) -> str:
    """The section of ``page`` under ``## heading`` (up to the next ``## ``)."""
    start = page.index(f"\n## {heading}\n")
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else None]


# --------------------------------------------------------------------------- story and tips


@pytest.mark.parametrize("name", STORIED)
def test_each_named_game_shows_its_story_and_tips(name: str) -> None:
    v = load(name)
    assert v.story and len(v.tips) >= 3, name
    page = _page(name)
    about = _section(page, "About the game")
    tips = _section(page, "Tips for a first game")
    for line in v.story:
        assert line[:40].replace("(", "").replace(")", "") in about.replace("(", "").replace(
            ")", ""
        ), (name, line[:40])
    for tip in v.tips:
        assert tip[:30] in tips, (name, tip)
    # the story cites a public source, and no text names an internal file
    assert re.search(r"Pagat|Wikipedia", " ".join(v.story)), name
    words = " ".join([*v.story, *v.tips, *(c.statement for c in v.choices)])
    words += " ".join(s for c in v.choices for s in c.sources)
    assert not internal_names(words), (name, internal_names(words))


def test_kachuful_explains_its_name() -> None:
    """Ka-Chu-Fu-L: the first sounds of the Hindi suit names, in the trump order."""
    about = _section(_page("kachuful"), "About the game")
    for word in ("Ka, Chu, Fu and L", "Kali (spades)", "Chukat (diamonds)", "Fuli (clubs)"):
        assert word in about
    assert "Laal (hearts)" in about and "Wikipedia" in about


def test_a_house_rule_shows_its_parents_story_under_the_parents_name() -> None:
    """kachuful-zon writes no story: it keeps Kachuful's, shown as Kachuful's."""
    page = _page("kachuful-zon")
    assert "\n## About Kachuful\n" in page and "\n## About the game\n" not in page
    assert "Ka, Chu, Fu and L" in page
    assert "\n## Tips for a first game of Kachuful\n" in page
    # Spades extends Oh Hell but tells its own story, never Oh Hell's
    spades = _page("spades")
    assert "Oh Hell is named for" not in spades and "\n## About the game\n" in spades


def test_a_child_replaces_the_story_and_tips_and_states_its_own_choices(
    tmp_path: Path,
) -> None:
    (tmp_path / "base.cardrules").write_text(
        'game: base\nextends: kachuful\ntitle: "Base"\nstory: "Base story."\n'
        'tip: "Base tip one."\ntip: "Base tip two."\n'
        'choice: "The hook", source "Pagat", change "hook: no"\n',
        encoding="utf-8",
    )
    child = tmp_path / "child.cardrules"
    child.write_text(
        'game: child\nextends: "base.cardrules"\ntitle: "Child"\ntip: "Own tip."\n',
        encoding="utf-8",
    )
    v = load(child)
    assert v.story == ("Base story.",)  # inherited
    assert v.tips == ("Own tip.",)  # replaced, not added to
    assert v.choices == ()  # a house rule states its own choices
    page = rulebook(v, engine_examples=False)
    assert "\n## About Base\n" in page and "Base story." in page
    assert "\n## Tips for a first game\n" in page and "Base tip" not in page
    assert CHOICES_HEADING not in page


# --------------------------------------------------------------------------- presentation only


@pytest.mark.parametrize("name", STORIED)
def test_story_tips_and_choices_are_not_rules(name: str) -> None:
    """Equality and the fingerprint ignore them (saves keep their fingerprints)."""
    v = load(name)
    bare = v.evolve(story=(), tips=(), choices=())
    assert bare == v
    assert variant_fingerprint(bare) == variant_fingerprint(v)
    assert "story" not in to_dict(v)
    # a save does not grow by them either, and restores with them
    g = cardrules.Game(v, players=v.players.min, seed=1)
    assert "story:" not in g.to_json() and "choice:" not in g.to_json()
    assert cardrules.Game.from_json(g.to_json()) == g


_TEXT = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=0x24FF, blacklist_characters="\x7f"),
    min_size=1,
    max_size=40,
).filter(lambda t: t.strip() == t and t.strip())


@settings(max_examples=40, deadline=None)
@given(
    story=st.lists(_TEXT, max_size=3),
    tips=st.lists(_TEXT, max_size=4),
    sources=st.lists(_TEXT, max_size=3),
)
def test_the_lines_round_trip_through_the_formatter(
    story: list[str], tips: list[str], sources: list[str]
) -> None:
    """Whatever their words, format then parse gives back the same lines, in order."""
    from cardrules.rules import Choice

    choices = (Choice("A choice", tuple(sources), "hook: no"), Choice("Another"))
    v = load("kachuful").evolve(story=tuple(story), tips=tuple(tips), choices=choices)
    back = load_text(format(v).replace("extends: kachuful\n", ""))
    assert (back.story, back.tips, back.choices) == (tuple(story), tuple(tips), choices)


# --------------------------------------------------------------------------- choices


@pytest.mark.parametrize("name", builtin_names())
def test_every_choice_of_every_built_in_changes_the_game(name: str) -> None:
    """Each house rule reads, makes a valid game of the file, and changes its
    fingerprint: a page can never offer a house rule that does not exist."""
    v = load(name)
    check_choices(v)
    before = variant_fingerprint(v)
    for c in v.choices:
        assert c.statement and c.sources, (name, c.statement)
        if c.change:
            assert variant_fingerprint(changed_by(v, c.change)) != before, (name, c.change)


@pytest.mark.parametrize("name", WITH_CHOICES)
def test_the_page_shows_a_box_of_its_choices(name: str) -> None:
    v = load(name)
    assert len(v.choices) >= 2, name
    box = _section(_page(name), CHOICES_HEADING)
    assert '!!! note "Where the sources differ"' in box
    for c in v.choices:
        assert c.statement[:30] in box, (name, c.statement)
        if c.change and not c.change.startswith(("score:", "team score:")):
            assert f"the line “{c.change}”" in box.replace("\\", "")
        elif c.change:
            assert "a house rule scores it so: if you take" in box
    if not all(c.change for c in v.choices):
        assert "No line of the variant language says the other way yet." in box


def test_the_choices_the_issue_names_are_stated() -> None:
    def statements(name: str) -> str:
        return " ".join(c.statement for c in load(name).choices)

    spades = statements("spades")
    assert "nil bidder's tricks count towards the side's contract" in spades
    assert "Blind nil may be bid at any time" in spades
    assert "exchanges no cards" in spades
    assert "beat the best card so far in the suit led" in statements("callbreak")
    blind = next(c for c in load("spades").choices if "Blind nil" in c.statement)
    assert blind.change == "blind bids: no" and any("100 points" in s for s in blind.sources)


def _house(tmp_path: Path, change: str) -> Path:
    path = tmp_path / "house.cardrules"
    path.write_text(
        "game: house\nextends: kachuful\n"
        f'choice: "The dealer may not make the bids add up", source "Pagat", change "{change}"\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("hok: no", "cannot be read: unknown setting 'hok'"),
        ('title: \\"X\\"', "`title:` names or describes the game"),
        ('choice: \\"x\\"', "`choice:` names or describes the game"),
        ("", "the house rule of the choice is empty"),
        ("example: a worked example", "cannot be read: the example"),
    ],
)
def test_a_change_that_does_not_read_is_refused_at_load(
    tmp_path: Path, change: str, words: str
) -> None:
    with pytest.raises(VariantError) as info:
        load(_house(tmp_path, change))
    assert words in info.value.message
    assert info.value.line == 3


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("hook: yes", "does not change the game"),
        ("players: 9", "makes no valid game"),
    ],
)
def test_a_change_that_changes_nothing_fails_the_check(
    tmp_path: Path, change: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _house(tmp_path, change)
    v = load(path)  # it reads ...
    with pytest.raises(VariantError) as info:
        check_choices(v)  # ... but is no house rule of this game
    assert info.value.code == "bad_choice" and words in info.value.message
    assert (info.value.line, info.value.column) == (3, 9)
    assert main(["check", str(path)]) == 1
    assert words in capsys.readouterr().err


def test_the_check_shown_in_the_docs_is_the_check_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "dsl.md").read_text(encoding="utf-8")
    shown = re.search(r"^\$ cardrules check house\.cardrules\n(.*)$", doc, re.M)
    assert shown is not None
    path = _house(tmp_path, "hook: yes")
    assert main(["check", str(path)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first.endswith(shown.group(1).removeprefix("house.cardrules"))


def test_the_code_is_stable_for_a_line_that_does_not_read(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        load(_house(tmp_path, "hok: no"))
    assert info.value.code == "bad_choice"


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('tip: "t"\n' * (MAX_TIPS + 1), "variant_too_large", f"{MAX_TIPS + 1} `tip:` lines"),
        ('tip: "t" for 4 players\n', "bad_condition", "`tip:` cannot have a condition"),
        (f'story: "{"x" * 301}"\n', "bad_variant", "the story is too long"),
        ('choice: ""\n', "bad_variant", "the choice is empty"),
        (
            'choice: "c", source "a", source "b", source "c", source "d", source "e"\n',
            "bad_variant",
            "too many sources",
        ),
        ('choice: "c", change "hook: no", source "a"\n', "syntax", ""),
    ],
)
def test_bad_lines_are_refused_with_stable_codes(text: str, code: str, words: str) -> None:
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: kachuful\n" + text)
    assert info.value.code == code, info.value
    assert words in info.value.message


# --------------------------------------------------------------------------- the tie rule


@pytest.mark.parametrize("name", ["kachuful", "oh-hell", "spades", "euchre", "callbreak"])
def test_the_tie_rule_is_told_in_the_games_words(name: str) -> None:
    """Tied players play another hand; the engine's bound is not a rule."""
    winning = _section(_page(name), "Winning")
    assert "another hand of the largest size" in winning
    assert "extra hands" not in winning and "unfinished" not in winning
    assert str(MAX_TIE_HANDS) not in winning
