"""The catalog parts of a rules page (cardrules.rulebook.catalog): families, the
Variations and Sources sections, the comparison page and the home page's table."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import cardrules
from cardrules.rulebook import builtin_variants, comparison_page, rulebook
from cardrules.rulebook import catalog as catalog_module
from cardrules.rulebook.catalog import (
    families,
    families_table,
    source_urls,
    sources_section,
    variations_section,
)

ALL = builtin_variants()
BY_NAME = {v.name: v for v in ALL}


def _section(page: str, heading: str) -> str:
    start = page.index(f"## {heading}\n")
    end = page.find("\n## ", start + 3)
    return page[start : end if end >= 0 else len(page)]


def test_doctests() -> None:
    failed, tried = doctest.testmod(catalog_module)
    assert tried >= 6 and failed == 0


def test_families_partition_the_catalog() -> None:
    fams = families(ALL)
    members = [v.name for ms in fams.values() for v in ms]
    assert sorted(members) == sorted(BY_NAME)
    for head, ms in fams.items():
        assert ms[0].name == head
        for v in ms[1:]:
            assert v.parent == head, (head, v.name)
    assert list(fams)[:2] == ["oh-hell", "kachuful"]
    assert [v.name for v in fams["callbreak"]] == ["callbreak", "callbreak-in-suit"]


def test_every_page_names_its_sources_as_links() -> None:
    for v in ALL:
        urls = source_urls(v)
        assert urls, v.name
        section = "\n".join(sources_section(v, BY_NAME.get(v.parent or "")))
        links = re.findall(r"\]\((https?://[^)]+)\)", section)
        assert links == urls, v.name
        assert all(u in v.source for u in urls)


def test_variations_list_every_relative() -> None:
    for v in ALL:
        text = "\n".join(variations_section(v, ALL, link="{name}.md"))
        children = [c for c in ALL if c.parent == v.name]
        siblings = [c for c in ALL if v.parent and c.parent == v.parent and c.name != v.name]
        for c in children + siblings:
            assert f"]({c.name}.md)**: " in text, (v.name, c.name)
        assert f"]({v.name}.md)**" not in text
        if not children and not siblings and v.parent is None:
            assert text == ""


def test_a_variation_line_names_the_rules_it_changes() -> None:
    text = "\n".join(variations_section(BY_NAME["kachuful"], ALL, link="{name}.md"))
    zon = next(line for line in text.splitlines() if "(kachuful-zon.md)" in line)
    assert zon == (
        "- **[Kachuful with Zon](kachuful-zon.md)**: Kachuful whose trump cycle has a fifth, "
        "no-trump hand. *(changes: trumps)*"
    )


def test_a_strangers_file_never_turns_its_addresses_into_links(tmp_path: Path) -> None:
    path = tmp_path / "house.cardrules"
    path.write_text(
        '# Our rule, see https://example.org/a"onclick=x and https://evil.example/(x)\n'
        'game: house\nextends: kachuful\ntitle: "House"\nsummary: "Ours."\nhook: no\n',
        encoding="utf-8",
    )
    v = cardrules.load(path)
    assert source_urls(v) == ["https://example.org/a", "https://evil.example/"]
    page = rulebook(v, engine_examples=False)
    sources = _section(page, "Sources")
    assert "`https://example.org/a`" in sources and "](http" not in sources
    # Nor does an evolved built-in: only the file exactly as it ships is trusted.
    changed = BY_NAME["kachuful"].evolve(title="Changed")
    assert "](http" not in "\n".join(sources_section(changed))


def test_comparison_page_and_home_table_are_html_tables_with_labels() -> None:
    page = comparison_page(ALL, link="{name}.html")
    for v in ALL:
        assert f'<a href="{v.name}.html">' in page
    cells = re.findall(r'<td data-label="([^"]+)">', page)
    assert cells and set(cells) <= {
        "Game",
        "Players",
        "Trumps",
        "Schedule",
        "Hook",
        "Bidding",
        "Scoring",
        "Follow rule",
    }
    home = families_table(ALL, link="games/{name}.html")
    assert home.count("<tr><td") == len(families(ALL))
    assert "Fraction" not in home and "Fraction" not in page
