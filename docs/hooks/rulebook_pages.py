"""MkDocs hook: generate the rules pages of the built-in variants at build time.

At ``on_config`` the hook loads every built-in variant, writes (in memory) one
rules page per variant under ``games/``, the comparison page
``games/index.md`` and the API reference ``api.md``, and builds the site
navigation around them. At ``on_files`` it adds those pages to the build.
Nothing generated is written into ``docs/``, so nothing generated is committed.
"""

from __future__ import annotations

import html
import importlib.util
import logging
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from cardrules.rulebook import builtin_variants, comparison_page, rulebook
from cardrules.rules import Variant

log = logging.getLogger("mkdocs.hooks.rulebook_pages")

#: Generated pages: path under docs/ -> Markdown text.
_PAGES: dict[str, str] = {}

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


def _root(v: Variant, by_name: dict[str, Variant]) -> Variant:
    seen = {v.name}
    while v.parent is not None and v.parent in by_name and v.parent not in seen:
        v = by_name[v.parent]
        seen.add(v.name)
    return v


def _nav_title(v: Variant) -> str:
    """A variant's title for the navigation, which the theme puts into the HTML as it
    is: escaped, so that a title can never be markup."""
    return html.escape(" ".join((v.title or v.name).split()))


def _nav(variants: list[Variant], docs_dir: Path) -> list[Any]:
    by_name = {v.name: v for v in variants}
    families: dict[str, list[Variant]] = {}
    for v in variants:
        families.setdefault(_root(v, by_name).name, []).append(v)
    games: list[Any] = ["games/index.md"]
    for root_name in sorted(families, key=lambda n: (n not in ("oh-hell", "kachuful"), n)):
        members = sorted(families[root_name], key=lambda v: (v.name != root_name, v.name))
        entries = [{_nav_title(v): f"games/{v.name}.md"} for v in members]
        if len(entries) == 1:
            games += entries
        else:
            root = by_name[root_name]
            games.append({f"{_nav_title(root)} family": entries})
    nav: list[Any] = [{"Home": "index.md"}]
    if (docs_dir / "tutorial.md").exists():
        nav.append({"Write your own house rule": "tutorial.md"})
    if (docs_dir / "dsl.md").exists():
        nav.append({"The variant language": "dsl.md"})
    nav.append({"The games": games})
    if (docs_dir / "bots.md").exists():
        nav.append({"Bots, play and simulation": "bots.md"})
    if (docs_dir / "records.md").exists():
        nav.append({"Game records": "records.md"})
    if (docs_dir / "events.md").exists():
        nav.append({"Events, versions and onlookers": "events.md"})
    if (docs_dir / "server.md").exists():
        nav.append({"Building a card app": "server.md"})
    if (docs_dir / "json.md").exists():
        nav.append({"The JSON contract": "json.md"})
    if (docs_dir / "errors.md").exists():
        nav.append({"Errors and their codes": "errors.md"})
    if (docs_dir / "infostate.md").exists():
        nav.append({"Information states": "infostate.md"})
    if (docs_dir / "shedding-length.md").exists():
        nav.append({"How long Kazhutha runs": "shedding-length.md"})
    if (docs_dir / "research.md").exists():
        nav.append({"Observations for learning": "research.md"})
    if (docs_dir / "pettingzoo.md").exists():
        nav.append({"PettingZoo environments": "pettingzoo.md"})
    nav.append({"API reference": "api.md"})
    return nav


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate the pages and the navigation."""
    variants = builtin_variants()
    by_name = {v.name: v for v in variants}
    _PAGES.clear()
    _PAGES["games/index.md"] = comparison_page(variants, link="{name}.md")
    for v in variants:
        parent = by_name.get(v.parent) if v.parent else None
        _PAGES[f"games/{v.name}.md"] = rulebook(
            v, parent=parent, link="{name}.md", pictures=True
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
