"""MkDocs hook: generate the rules pages of the built-in variants at build time.

At ``on_config`` the hook loads every built-in variant, writes (in memory) one
rules page per variant under ``games/``, the comparison page
``games/index.md`` and the API reference ``api.md``, and builds the site
navigation around them. At ``on_files`` it adds those pages to the build.
Nothing generated is written into ``docs/``, so nothing generated is committed.

At ``on_page_markdown`` it fills in the home page's table of the game families
(where ``docs/index.md`` holds the line ``<!-- families -->``). At
``on_page_content`` it wraps each section of a rules page (from one ``h2`` to
the next) in a ``<section>`` named after its heading, so that the print style
sheet can leave out what a card-box sheet does not need (the worked examples,
the options and the variant file) and keep each section's heading with it.
"""

from __future__ import annotations

import html
import importlib.util
import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from cardrules.rulebook import builtin_variants, comparison_page, rulebook
from cardrules.rulebook.catalog import families, families_table
from cardrules.rules import Variant

log = logging.getLogger("mkdocs.hooks.rulebook_pages")

#: Generated pages: path under docs/ -> Markdown text.
_PAGES: dict[str, str] = {}

#: The built-in variants of this build.
_VARIANTS: list[Variant] = []

#: The line of docs/index.md that the table of the game families replaces.
FAMILIES_MARK = "<!-- families -->"

#: Sections of a rules page left out on paper, by the id of their heading: a
#: card-box sheet keeps the rules and leaves the worked examples to the screen.
SCREEN_ONLY = ("a-worked-hand", "worked-examples", "options", "the-variant-file", "variations")

#: Modules documented on the API page, in order, when they can be imported.
API_MODULES: tuple[tuple[str, str], ...] = (
    ("cardrules.dsl.loader", "Loading variants"),
    ("cardrules.engine", "The engine"),
    ("cardrules.rules", "The config model"),
    ("cardrules.cards", "Cards"),
    ("cardrules.scoring", "Scoring formulas"),
    ("cardrules.rulebook", "Rules pages"),
    ("cardrules.bots", "Bots"),
    ("cardrules.simulate", "Simulation"),
    ("cardrules.pettingzoo", "PettingZoo environments"),
    ("cardrules.gymnasium", "Gymnasium environments"),
    ("cardrules.batch", "Many games at once"),
    ("cardrules.gymnasium_vector", "A vectorised Gymnasium environment"),
    ("cardrules.llm", "Text for language-model agents"),
    ("cardrules.openspiel", "OpenSpiel"),
    ("cardrules.errors", "Errors"),
)


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def api_page() -> str:
    """The API reference page: mkdocstrings directives for the modules that exist."""
    out = [
        "# API reference",
        "",
        "Generated from the docstrings of the `cardrules` package. The short version: "
        "`cardrules.load(name)` gives a `Variant`, `cardrules.Game(variant, players=4)` plays "
        "it, and `cardrules.rulebook(variant)` writes its rules page.",
        "",
        "## The `cardrules` package",
        "",
        "::: cardrules",
        "    options:",
        "      members: false",
        "      show_root_heading: false",
        "",
    ]
    for module, title in API_MODULES:
        if _importable(module):
            out += [
                f"## {title}",
                "",
                f"::: {module}",
                "    options:",
                "      heading_level: 3",
                "",
            ]
    return "\n".join(out)


def _nav_title(v: Variant) -> str:
    """A variant's title for the navigation, which the theme puts into the HTML as it
    is: escaped, so that a title can never be markup."""
    return html.escape(" ".join((v.title or v.name).split()))


#: Pages for people who play the games (after the games themselves), in order:
#: path under docs/ -> title in the navigation.
READER_PAGES: tuple[tuple[str, str], ...] = (
    ("tutorial.md", "Write your own house rule"),
    ("bots.md", "Play at the terminal, bots and simulation"),
)

#: Pages for people who program with cardrules, in order (the API reference,
#: generated, comes last).
DEVELOPER_PAGES: tuple[tuple[str, str], ...] = (
    ("dsl.md", "The variant language"),
    ("records.md", "Game records"),
    ("events.md", "Events, versions and onlookers"),
    ("server.md", "Building a card app"),
    ("json.md", "The JSON contract"),
    ("errors.md", "Errors and their codes"),
    ("ladder.md", "The bot ladder"),
    ("infostate.md", "Information states"),
    ("sampling.md", "Sampling hidden hands"),
    ("shedding-length.md", "How long Kazhutha runs"),
    ("research.md", "Observations for learning"),
    ("pettingzoo.md", "PettingZoo environments"),
    ("batch.md", "Many games at once"),
    ("openspiel.md", "OpenSpiel"),
    ("contributing.md", "Contributing: adding a setting"),
)


def nav_families(variants: list[Variant]) -> list[Any]:
    """The games in the navigation: the comparison page, then one entry per family
    of :func:`cardrules.rulebook.catalog.families` (the families of the home and
    comparison pages, in their order): a game alone, or a family's games under
    the family's name."""
    games: list[Any] = ["games/index.md"]
    for members in families(variants).values():
        entries = [{_nav_title(v): f"games/{v.name}.md"} for v in members]
        if len(entries) == 1:
            games += entries
        else:
            games.append({f"{_nav_title(members[0])} family": entries})
    return games


def _nav(variants: list[Variant], docs_dir: Path) -> list[Any]:
    """The site's navigation: the home page, then two sections, one for the people
    who play the games (the comparison page as its index, the families, and the
    pages on house rules and play) and one for developers."""
    reader: list[Any] = nav_families(variants)
    reader += [{title: path} for path, title in READER_PAGES if (docs_dir / path).exists()]
    developer: list[Any] = [
        {title: path} for path, title in DEVELOPER_PAGES if (docs_dir / path).exists()
    ]
    developer.append({"API reference": "api.md"})
    return [
        {"Home": "index.md"},
        {"Rules of the games": reader},
        {"For developers": developer},
    ]


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate the pages and the navigation."""
    variants = builtin_variants()
    by_name = {v.name: v for v in variants}
    _PAGES.clear()
    _VARIANTS[:] = variants
    # The comparison tables are HTML, which MkDocs does not rewrite: link the pages.
    _PAGES["games/index.md"] = comparison_page(variants, link="{name}.html")
    for v in variants:
        parent = by_name.get(v.parent) if v.parent else None
        _PAGES[f"games/{v.name}.md"] = rulebook(
            v, parent=parent, link="{name}.md", catalog=variants, pictures=True
        )
    _PAGES["api.md"] = api_page()
    config.nav = _nav(variants, Path(config.docs_dir))
    log.info("rulebook_pages: generated %d variant pages", len(variants))
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages to the build."""
    for path, text in _PAGES.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """Fill in the home page's table of the game families."""
    if FAMILIES_MARK in markdown:
        table = families_table(_VARIANTS or builtin_variants(), link="games/{name}.html")
        markdown = markdown.replace(FAMILIES_MARK, table)
    return markdown


_H2 = re.compile(r'<h2 id="([^"]+)"')

#: Body rows a table keeps on paper; a longer table prints these and a note.
PRINT_ROWS = 24

_TBODY = re.compile(r"<tbody>(.*?)</tbody>", re.S)
_ROW = re.compile(r"<tr>.*?</tr>", re.S)


def _cut_long_tables(content: str) -> str:
    """Mark the body rows of a long table after the first ``PRINT_ROWS`` (all but the
    last, its total) as left out on paper, and add a note row that says so."""

    def cut(m: re.Match[str]) -> str:
        rows = _ROW.findall(m.group(1))
        if len(rows) <= PRINT_ROWS + 2:
            return m.group(0)
        cols = max(1, rows[0].count("<td"))
        left_out = len(rows) - PRINT_ROWS - 1
        note = (
            f'<tr class="cr-print-note"><td colspan="{cols}">... {left_out} more rows, '
            "on the page on the screen</td></tr>"
        )
        kept = rows[:PRINT_ROWS]
        hidden = [r.replace("<tr>", '<tr class="cr-print-cut">', 1) for r in rows[PRINT_ROWS:-1]]
        return "<tbody>" + "".join([*kept, note, *hidden, rows[-1]]) + "</tbody>"

    return _TBODY.sub(cut, content)


def on_page_content(content: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """Wrap each ``h2`` section of a rules page in a ``<section>`` for the print styles."""
    if not page.file.src_uri.startswith("games/") or page.file.src_uri == "games/index.md":
        return content
    content = _cut_long_tables(content)
    starts = [m.start() for m in _H2.finditer(content)]
    if not starts:
        return content
    out = [content[: starts[0]]]
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(content)
        ident = _H2.match(content, start)
        name = ident.group(1) if ident else ""
        extra = " cr-screen-only" if name in SCREEN_ONLY else ""
        out.append(f'<section class="cr-section{extra}" data-section="{html.escape(name)}">')
        out.append(content[start:end])
        out.append("</section>")
    return "".join(out)
