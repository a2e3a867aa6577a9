"""Worked examples read like a game, and the site's navigation agrees with the
catalog (issue 25, items 3 and 7).

Every built-in page tells each example the variant file carries as a short story
with the players' names the page uses elsewhere (Asha, Ben...), never "Seat N",
an action count, "**Holds:**" or "it may"; the numbers in a story (the scores,
who takes a trick, who loses) are the engine's, from the example's run; and under
each story, folded, is the example as the file holds it, which still plays and
holds when it is read back from the page. The sidebar's families are the
catalog's, and reader pages and developer pages are two sections.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import re
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

import cardrules
from cardrules.dsl.example_syntax import PlayOut, points_text
from cardrules.dsl.loader import load_text
from cardrules.example_runner import run_all, run_examples
from cardrules.rulebook import builtin_variants, rulebook
from cardrules.rulebook.catalog import families
from cardrules.rulebook.play_examples import seat_names

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = {v.name: v for v in builtin_variants()}
WITH_EXAMPLES = sorted(n for n, v in BUILTINS.items() if v.examples)

_SOURCE = re.compile(r'<pre class="cr-example-source"><code>(.*?)</code></pre>', re.S)


@functools.cache
def _section(name: str) -> str:
    """The worked examples section of a built-in's page."""
    page = rulebook(BUILTINS[name], pictures=True)
    return page.split("## Worked examples", 1)[1].split("\n## ", 1)[0]


def _cases(name: str) -> list[str]:
    """The section, one text per example (from its heading to the next)."""
    return _section(name).split("\n### ")[1:]


def _told(case: str) -> str:
    """What a case tells in words: without the file's lines, the numbering of the
    seats that introduces them, and the pictures."""
    case = _SOURCE.sub("", case)
    case = re.sub(r"<figure.*?</figure>", "", case, flags=re.S)
    return "\n".join(ln for ln in case.splitlines() if not ln.startswith("In the file, "))


def test_every_builtin_page_has_stories() -> None:
    assert len(WITH_EXAMPLES) >= 40
    for name in WITH_EXAMPLES:
        cases = _cases(name)
        assert len(cases) == len(BUILTINS[name].examples), name
        for case in cases:
            assert case.count('<details class="cr-example-check"') == 1, (name, case[:80])
            assert "The example as <code>cardrules check</code> plays it" in case


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_examples_speak_of_players_by_name(name: str) -> None:
    """No seat numbers, action counts, "Holds:" lines or "it may" outside the
    file's own lines; every story names the players the page names."""
    for case, ex in zip(_cases(name), BUILTINS[name].examples, strict=True):
        told = _told(case)
        assert not re.search(r"\bseat \d", told, flags=re.I), (name, ex.title)
        assert not re.search(r"\(\d[\d,]* actions?\)", told), (name, ex.title)
        assert "**Holds:**" not in told and "the engine says" not in told
        assert not re.search(r"\bit (may|holds)\b|\bits own\b", told), (name, ex.title)
        players = ex.deal.players or BUILTINS[name].players.min
        first = told.split("\n\n")[1]  # the opening of the story, after the title
        assert first.startswith(", ".join(seat_names(players)[:-1])), (name, first)


@pytest.mark.parametrize("name", ["hearts", "spades", "euchre", "kazhutha", "oh-hell", "whist"])
def test_a_story_tells_the_engines_numbers(name: str) -> None:
    """Each hand scored, trick taken and game lost in an example's run is in its
    story, with the player's name and the engine's numbers."""
    v = BUILTINS[name]
    for case, run in zip(_cases(name), run_all(v), strict=True):
        assert run.holds, run.example.title
        names = seat_names(run.players)
        told = _told(case)
        for r in run.steps:
            for ev in r.events:
                if ev[0] == "score":
                    for s, p in enumerate(ev[4]):
                        word = "point" if Fraction(p) in (1, -1) else "points"
                        assert f"{names[s]} {points_text(Fraction(p))} {word}" in told
                elif ev[0] == "trick" and not isinstance(r.step, PlayOut):
                    assert f"{names[ev[1]]} wins the trick" in told, run.example.title
                elif ev[0] == "over" and v.mode.name == "SHEDDING" and ev[5] is not None:
                    assert f"{names[ev[5]]} loses" in told, run.example.title


@pytest.mark.parametrize("name", ["hearts", "spades", "kachuful", "kazhutha", "euchre"])
def test_the_folded_example_plays_as_the_file_holds_it(name: str) -> None:
    """The lines folded under each story, read back from the page, are an example
    ``cardrules check`` plays, and it holds."""
    lines = [html.unescape(m) for m in _SOURCE.findall(_section(name))]
    assert len(lines) == len(BUILTINS[name].examples)
    text = f"game: from-the-page\nextends: {name}\n\n" + "\n\n".join(lines) + "\n"
    v = load_text(text, path="page.cardrules")
    assert [ex.title for ex in v.examples] == [ex.title for ex in BUILTINS[name].examples]
    assert run_examples(v) == []


def test_a_long_story_is_folded_under_its_opening() -> None:
    """Kazhutha's example of eight players plays many tricks: its story is folded,
    its opening (who plays, who deals) is not."""
    case = next(c for c in _cases("kazhutha") if c.startswith("when the taker of a dead trick"))
    opening, rest = case.split('<details class="cr-example-story" markdown="1">', 1)
    assert "Hari deals the whole pack." in opening
    assert "picks it up" in rest and "picks it up" not in opening


def test_the_deal_for_other_player_counts_is_folded() -> None:
    page = rulebook(BUILTINS["kachuful"], pictures=True)
    shown, folded = page.split('<details class="cr-more-charts" markdown="1">', 1)
    assert "Cards each in every hand for 3 to 5 players" in shown
    assert "<summary>The deal for 6 players and for 7 players</summary>" in folded
    assert "Cards each in every hand for 7 players" in folded.split("</details>", 1)[0]


# --------------------------------------------------------------------------- navigation


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hook", ROOT / "docs/hooks/rulebook_pages.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


def test_the_navigation_families_are_the_catalogs() -> None:
    """Spades and Callbreak have families of their own in the sidebar, as on the
    home and comparison pages: both come from ``catalog.families``."""
    variants = builtin_variants()
    nav = _hook()._nav(variants, ROOT / "docs")
    assert [next(iter(d)) for d in nav] == ["Home", "Rules of the games", "For developers"]
    reader = nav[1]["Rules of the games"]
    assert reader[0] == "games/index.md"
    shown: list[list[str]] = []
    for entry in reader[1:]:
        ((_title, value),) = entry.items()
        if isinstance(value, list):
            shown.append([next(iter(d.values())) for d in value])
        elif value.startswith("games/"):
            shown.append([value])
    expected = [[f"games/{v.name}.md" for v in members] for members in families(variants).values()]
    assert shown == expected
    groups = {t for e in reader[1:] for t, val in e.items() if isinstance(val, list)}
    assert {"Spades family", "Callbreak family", "Oh Hell family"} <= groups


def test_reader_and_developer_pages_are_apart() -> None:
    nav = _hook()._nav(builtin_variants(), ROOT / "docs")
    reader = str(nav[1]["Rules of the games"])
    developer = str(nav[2]["For developers"])
    for page in ("tutorial.md", "bots.md"):
        assert page in reader and page not in developer
    for page in ("dsl.md", "api.md", "research.md", "json.md", "contributing.md"):
        assert page in developer and page not in reader
    listed = set(re.findall(r"'([\w-]+\.md)'", reader + developer))
    on_disk = {p.name for p in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert on_disk <= listed  # every page of docs/ is in one of the two


@pytest.mark.parametrize("name", ["bid-whist", "bid-whist-jokers", "five-hundred"])
def test_an_auction_s_stories_do_not_open_without_trumps(name: str) -> None:
    """Regression: the examples of games whose auction names trumps opened with
    "there are no trumps", before anyone had bid."""
    from cardrules.rulebook import rulebook

    page = rulebook(cardrules.load(name))
    assert "there are no trumps" not in page
    assert "deals the first hand, " in page and "the auction will decide the trumps" in page
