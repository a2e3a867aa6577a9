"""The rules site: `mkdocs build --strict` passes and holds every built-in variant."""

from __future__ import annotations

import functools
import html
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("material")

from cardrules.rulebook import builtin_variants

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def build_site() -> Path:
    """Build the site once per test session into a temporary folder; return the folder.

    Raises:
        AssertionError: with mkdocs' output if the strict build fails.
    """
    out = Path(tempfile.mkdtemp(prefix="cardrules-site-"))
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    return out


@pytest.fixture(scope="module")
def site() -> Path:
    return build_site()


def text_of(page: Path) -> str:
    """The visible text of an HTML page, roughly (tags removed, entities decoded)."""
    raw = page.read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
    raw = re.sub(r"</?(span|code|a|em|strong)\b[^>]*>", "", raw)  # inline: no gap
    text = html.unescape(re.sub(r"<[^>]+>", " ", raw))
    return re.sub(r"[ \t]+", " ", text)


def test_catalog_has_the_core_games() -> None:
    names = {v.name for v in builtin_variants()}
    assert {"oh-hell", "kachuful", "kazhutha"} <= names


def test_every_builtin_variant_has_a_page(site: Path) -> None:
    for v in builtin_variants():
        page = site / "games" / f"{v.name}.html"
        assert page.is_file(), f"no page for {v.name}"
        text = text_of(page)
        assert v.title in text
        assert "Deal schedule" in text
        # The object first, the rules at a glance, and the sources named by the file.
        raw = page.read_text(encoding="utf-8")
        body = raw[raw.index("<article") : raw.index("</article>")]
        article = html.unescape(re.sub(r"<[^>]+>", "", body))
        assert article.index("The object of the game:") < article.index("At a glance")
        assert "Sources" in article
        # The variant file is shown at the bottom of its page.
        first_line = next(line for line in v.source.splitlines() if line.strip())
        assert html.unescape(first_line.strip()) in text


def test_every_builtin_variant_is_in_the_comparison_table(site: Path) -> None:
    raw = (site / "games" / "index.html").read_text(encoding="utf-8")
    tables = re.findall(r"<table class=\"cr-table cr-compare\">.*?</table>", raw, flags=re.S)
    assert tables
    rows = [r for t in tables for r in re.findall(r"<tr>.*?</tr>", t, flags=re.S)]
    linked = {m for r in rows for m in re.findall(r'<a href="([^"/]+)\.html">', r)}
    for v in builtin_variants():
        assert v.name in linked, f"{v.name} is missing from the comparison table"


def test_house_rule_pages_link_to_their_parent(site: Path) -> None:
    children = [v for v in builtin_variants() if v.parent]
    assert children
    for v in children:
        raw = (site / "games" / f"{v.name}.html").read_text(encoding="utf-8")
        assert "Differences from" in raw
        assert f'href="{v.parent}.html"' in raw


def test_home_tutorial_and_api_pages(site: Path) -> None:
    home = text_of(site / "index.html")
    assert "cardrules rules kachuful" in home
    assert "make serve" in home
    # Install instructions that work today, and how it will be installed once released.
    assert "pip install ." in home and "pip install dist/cardrules-*.whl" in home
    assert "pip install cardrules will install it; it is not published there yet" in home
    # For players first: the families at a glance, playing, house rules; then Python.
    order = ["The games at a glance", "Play in your terminal", "Write your house rule", "In Python"]
    assert [home.index(h) for h in order] == sorted(home.index(h) for h in order)
    assert "Fraction(" not in home
    assert (site / "tutorial.html").is_file()
    api = text_of(site / "api.html")
    for name in (
        "cardrules.cards",
        "cardrules.rules",
        "cardrules.rulebook",
        "CardSet",
        "cardrules.bots",
        "HeuristicBot",
        "cardrules.simulate",
    ):
        assert name in api


def test_bots_page_reports_heuristic_against_random(site: Path) -> None:
    bots = text_of(site / "bots.html")
    assert "cardrules simulate kachuful --players 4 --games 2000 --bots heuristic,random" in bots
    assert "cardrules play kachuful" in bots and "make demo" in bots
    rows = re.findall(
        r"\| *(\d) *\| *(heuristic|random) *\|", (ROOT / "docs" / "bots.md").read_text()
    )
    assert [bot for _, bot in rows[:4]] == ["heuristic", "random", "random", "random"]
    assert "Bots, play and simulation" in text_of(site / "index.html")


def test_nothing_is_fetched_from_elsewhere(site: Path) -> None:
    """No web fonts, scripts or styles from other hosts: the site works offline."""
    for page in site.rglob("*.html"):
        raw = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", raw):
            assert not re.search(r'(src|href)="(https?:)?//', tag), f"{page}: {tag}"
    css = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "fonts.gstatic" not in css


def test_print_css(site: Path) -> None:
    css = (site / "css" / "cardrules.css").read_text(encoding="utf-8")
    block = css[css.index("@media print") :]
    for selector in (".md-header", ".md-sidebar", ".md-footer"):
        assert selector in block
    assert "break-inside: avoid" in block
    assert "css/cardrules.css" in (site / "games" / "kachuful.html").read_text(encoding="utf-8")


def _code_blocks(markdown: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}[^\n]*\n(.*?)```", markdown, flags=re.S)


def test_home_page_python_example_runs() -> None:
    """The quick start's Python example plays a whole game and prints the page title."""
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    (code,) = _code_blocks(home, "python")
    assert len(code.strip().splitlines()) <= 12
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "winner: seat" in proc.stdout
    # Numbers as people write them: "13", never "Fraction(13, 1)".
    assert "Fraction" not in proc.stdout
    assert re.search(r"^totals: \d+, \d+, \d+, \d+$", proc.stdout, flags=re.M), proc.stdout
    assert proc.stdout.rstrip().endswith("# Kachuful")


def test_tutorial_variant_changes_exactly_what_it_says(tmp_path: Path) -> None:
    """The tutorial's finished file loads, and differs from Kachuful in three rules."""
    from cardrules.dsl import load
    from cardrules.rulebook import rulebook
    from cardrules.rulebook.words import differences

    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = _code_blocks(tutorial, "text")
    whole = next(b for b in blocks if b.startswith("# Kachuful as the Menon family"))
    path = tmp_path / "menon-kachuful.cardrules"
    path.write_text(whole, encoding="utf-8")
    v = load(path)
    kachuful = load("kachuful")
    assert [d.label for d in differences(v, kachuful)] == ["Deal schedule", "Scoring", "Ties"]
    assert all(len(v.hand_sizes(n)) == 13 for n in v.players.counts())
    page = rulebook(v)
    assert "## Differences from Kachuful" in page
    # Each step's snippet is a line of the finished file.
    for snippet in blocks:
        if snippet.startswith(("hand size", "score: if exact then 10 + bid else -diff", "tie")):
            assert snippet.strip() in whole
    misspelt = whole.replace("10 + bid else", "10 + bdi else")
    bad = tmp_path / "bad.cardrules"
    bad.write_text(misspelt, encoding="utf-8")
    with pytest.raises(ValueError, match="bid"):
        load(bad)


def test_home_page_lists_every_family(site: Path) -> None:
    """The home page's table of the families: each family's game, linked, with how
    many play and how long a game lasts."""
    from cardrules.rulebook.catalog import families, game_length

    raw = (site / "index.html").read_text(encoding="utf-8")
    (table,) = re.findall(r'<table class="cr-table">.*?</table>', raw, flags=re.S)
    fams = families(builtin_variants())
    rows = re.findall(r"<tr><td.*?</tr>", table, flags=re.S)
    assert len(rows) == len(fams)
    for name, members in fams.items():
        row = next(r for r in rows if f'href="games/{name}.html"' in r)
        assert html.escape(game_length(members[0]), quote=False) in row
        assert f'data-label="Variations">{len(members) - 1 or "—"}<' in row


def test_site_links_are_files_and_search_is_offline(site: Path) -> None:
    """Opened from disk, every link must name a file: no link ends in a folder, and
    search reads its index from a script next to the pages, not by fetching it."""
    for page in site.rglob("*.html"):
        if page.name == "404.html":  # shown by a web server only, for any address
            continue
        raw = page.read_text(encoding="utf-8")
        for href in re.findall(r'<a [^>]*href="([^"#]*)(?:#[^"]*)?"', raw):
            if not href or re.match(r"(https?|mailto):", href):
                continue
            assert not href.endswith("/"), f"{page.relative_to(site)}: {href}"
            target = (page.parent / href).resolve()
            assert target.is_file(), f"{page.relative_to(site)}: {href} is not a file"
    assert (site / "search" / "search_index.js").is_file()


def test_rules_pages_print_as_a_card_box_sheet(site: Path) -> None:
    """The worked examples, options and variant file are marked screen-only, and the
    print styles leave them out."""
    raw = (site / "games" / "kachuful.html").read_text(encoding="utf-8")
    found = re.findall(r'<section class="cr-section([^"]*)" data-section="([^"]+)"', raw)
    assert len(found) >= 8
    screen_only = {name for extra, name in found if "cr-screen-only" in extra}
    assert {"worked-examples", "the-variant-file"} <= screen_only
    assert not screen_only & {"at-a-glance", "the-deal", "scoring", "sources"}
    css = (site / "css" / "cardrules.css").read_text(encoding="utf-8")
    assert ".cr-screen-only" in css[css.index("@media print") :]
