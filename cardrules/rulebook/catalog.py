"""The built-in games as a catalog: families, variations, sources and the comparison page.

A *family* is a game that extends no other, or a game that has variations of
its own, together with the games that extend it directly: Kachuful and its
house rules, Spades and its two variations, Kazhutha and its house rules. The
comparison page has one table per family with only the columns in which the
family's games differ (what they share is said once, above the table), and the
home page a table of the families. A rules page ends with the variations of
its game (every built-in that extends it, or that extends the same game) and
its sources: the public references named in the variant file's opening
comment.

Tables meant for narrow screens are written as HTML (``cr-table``): every cell
carries its column's name, so that the site's style sheet can show a row as a
small card on a phone.

Examples:
    >>> import cardrules
    >>> source_urls(cardrules.load("oh-hell"))
    ['https://www.pagat.com/exact/ohhell.html']
    >>> objective_line(cardrules.load("kazhutha"))
    '**The object of the game:** get rid of your cards; the last player holding cards loses.'
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from cardrules.rules import Mode, Variant

__all__ = [
    "comparison_page",
    "families",
    "families_table",
    "game_length",
    "html_table",
    "is_builtin",
    "objective_line",
    "source_urls",
    "sources_section",
    "variations_section",
]

#: A public web address in a variant file's comment: scheme, host and a path of
#: plain characters only (never a quote, bracket or space), so that it can go into
#: a Markdown link as it is.
_URL = re.compile(r"https?://[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?:/[A-Za-z0-9._~%/+-]*)?")

#: Names for the hosts of well-known sources.
_HOSTS = {"pagat.com": "Pagat", "wikipedia.org": "Wikipedia"}


@functools.cache
def _builtins() -> tuple[Variant, ...]:
    from cardrules.dsl import loader

    return tuple(loader.load(name) for name in loader.builtin_names())


@functools.cache
def _builtin(name: str) -> Variant | None:
    from cardrules.dsl import loader

    try:
        return loader.load(name)
    except Exception:  # a built-in that does not load has no page to trust
        return None


def is_builtin(v: Variant) -> bool:
    """True when ``v`` is a built-in variant (by name, and by file when it has one)."""
    from pathlib import Path

    from cardrules.dsl.loader import builtin_dir, builtin_names

    if v.name not in builtin_names():
        return False
    if not v.path:
        return True
    try:
        return Path(v.path).resolve().parent == builtin_dir().resolve()
    except (OSError, ValueError):
        return False


def _exactly_builtin(v: Variant) -> bool:
    """True when ``v`` is a built-in exactly as it ships (no option, title or parent
    changed), so that the addresses in its file may become links."""
    return is_builtin(v) and _builtin(v.name) == v


def _title(v: Variant) -> str:
    from cardrules.rulebook.safe import plain

    return plain(v.title or v.name)


# --------------------------------------------------------------------------- families


def families(variants: Sequence[Variant]) -> dict[str, list[Variant]]:
    """The families of ``variants``: the name of each family's game -> its games, that
    game first and the rest by name; the families of games that extend no other
    first, the largest first.

    A family's game is one that extends none of ``variants``, or one that has
    variations of its own; every other game belongs to the family of the game it
    extends.

    Example:
        >>> from cardrules.rulebook import builtin_variants
        >>> fams = families(builtin_variants())
        >>> [v.name for v in fams["spades"]]
        ['spades', 'spades-jokers', 'spades-side-bids']
    """
    by_name = {v.name: v for v in variants}
    parents = {v.parent for v in variants if v.parent in by_name}
    out: dict[str, list[Variant]] = {}
    for v in variants:
        if v.parent not in by_name or v.name in parents:
            out.setdefault(v.name, []).insert(0, v)
        else:
            assert v.parent is not None
            out.setdefault(v.parent, []).append(v)
    for name, members in out.items():
        head = [m for m in members if m.name == name]
        out[name] = head + sorted((m for m in members if m.name != name), key=lambda m: m.name)
    # The games that extend no other first, then the largest families.
    order = sorted(out, key=lambda n: (_depth(by_name[n], by_name) > 0, -len(out[n]), n))
    return {n: out[n] for n in order if n in by_name}


def _depth(v: Variant, by_name: dict[str, Variant]) -> int:
    depth, seen = 0, {v.name}
    while v.parent in by_name and v.parent not in seen:
        v = by_name[v.parent]
        seen.add(v.name)
        depth += 1
    return depth


def game_length(v: Variant) -> str:
    """How long a game lasts, in a few words: ``"19 hands (4 players)"``.

    Example:
        >>> import cardrules
        >>> game_length(cardrules.load("kachuful"))
        '19 hands (4 players)'
        >>> game_length(cardrules.load("spades"))
        'until a side reaches 500 points'
    """
    from cardrules.rulebook.words import match_word, plural

    if v.mode is Mode.SHEDDING:
        match = f"; a match until someone spells {match_word(v)}" if v.match.word else ""
        return f"one deal a game{match}"
    counts = list(v.players.counts())
    rep = 4 if 4 in counts else counts[0]
    hands = plural(len(v.hand_sizes(rep)), "hand")
    if v.winning.knockout_below:
        return f"at most {hands}, until one player is left"
    if v.winning.target is not None:
        from cardrules.rulebook.length import length_is_a_guard, target_words

        words = target_words(v)
        return words if length_is_a_guard(v) else f"at most {hands}, or {words}"
    return f"{hands} ({rep} players)"


# --------------------------------------------------------------------------- HTML tables


def _cell_text(markdown: str) -> str:
    """A table cell written for Markdown, as HTML text (backslash escapes undone)."""
    return html.escape(html.unescape(re.sub(r"\\(.)", r"\1", markdown)), quote=False)


def _link(v: Variant, link: str) -> str:
    from cardrules.rulebook.safe import page_link

    title = html.escape(_title(v), quote=False)
    href = page_link(link, v.name)
    return f'<a href="{html.escape(href)}">{title}</a>' if href is not None else title


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    """A table as one block of HTML, each cell labelled with its column's name.

    Args:
        header: the column names, plain text.
        rows: the cells, already HTML (escape text with :func:`html.escape`).
        cls: more class names for the table.

    Example:
        >>> print(html_table(["Game", "Players"], [["Whist", "4"]]))
        <table class="cr-table">
        <thead><tr><th>Game</th><th>Players</th></tr></thead>
        <tbody>
        <tr><td data-label="Game">Whist</td><td data-label="Players">4</td></tr>
        </tbody>
        </table>
    """
    names = [html.escape(h) for h in header]
    klass = " ".join(["cr-table", *cls.split()])
    out = [f'<table class="{klass}">', "<thead><tr>" + "".join(f"<th>{h}</th>" for h in names)]
    out[-1] += "</tr></thead>"
    out.append("<tbody>")
    for row in rows:
        cells = "".join(f'<td data-label="{h}">{c}</td>' for h, c in zip(names, row, strict=True))
        out.append(f"<tr>{cells}</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


#: The columns of the comparison rows (cardrules.rulebook.page_tables.comparison_rows).
COLUMNS = ("Game", "Players", "Trumps", "Schedule", "Hook", "Bidding", "Scoring", "Follow rule")


def comparison_page(variants: Sequence[Variant], link: str = "{name}.md") -> str:
    """The comparison page: one table per family, with only the columns that differ.

    What every game of a family shares is said once, in a line above its table.

    Args:
        variants: the games to compare.
        link: the address of a game's page, with ``{name}`` in it.

    Example:
        >>> from cardrules.rulebook import builtin_variants
        >>> page = comparison_page(builtin_variants(), link="{name}.html")
        >>> "## The Kachuful family" in page and "<th>Trumps</th>" in page
        True
    """
    from cardrules.rulebook.hand_trumps import has_trumps
    from cardrules.rules import TrumpKind

    fams = families(variants)
    out = [
        "# Compare the games",
        "",
        "The games grouped by family: a game and the house rules and variations that "
        "extend it. Each table shows only the rules in which the family's games differ; "
        "what they all share is said above it. Schedules count the hands for four players "
        "(or the nearest allowed number). Click a game for its full rules.",
        "",
    ]
    for members in fams.values():
        out += _family_comparison(members, link)
    turn_up = sum(
        1
        for v in variants
        if v.mode is not Mode.SHEDDING and v.trumps.kind is TrumpKind.TURN_UP and has_trumps(v)
    )
    out += [
        f"{len(variants)} games in all, in {len(fams)} families; {turn_up} of the "
        "trick-taking games turn up a card for trumps.",
        "",
    ]
    return "\n".join(out)


def _family_comparison(members: Sequence[Variant], link: str) -> list[str]:
    """One family of :func:`comparison_page`: its heading and summary, the rules its
    games share, and a table of the columns in which they differ."""
    from cardrules.rulebook.page_tables import comparison_rows
    from cardrules.rulebook.safe import md_line

    rows = comparison_rows(members, "{name}")
    title = md_line(_title(members[0]))
    out = [f"## The {title} family" if len(members) > 1 else f"## {title}", ""]
    if plain_summary := members[0].summary.strip():
        out += [md_line(" ".join(plain_summary.split()).rstrip(".")) + ".", ""]
    differ = [i for i in range(1, len(COLUMNS)) if len({r[i] for r in rows}) > 1 or len(rows) == 1]
    same = [i for i in range(1, len(COLUMNS)) if i not in differ]
    if same and len(rows) > 1:
        shared = "; ".join(
            f"{COLUMNS[i].lower()}: {_cell_text(rows[0][i])}"
            for i in same
            if rows[0][i] not in ("—", "")
        )
        if shared:
            out += [f"Every game here shares these rules: {_md_escape(shared)}.", ""]
    header = ["Game", *(COLUMNS[i] for i in differ)]
    cells = [
        [_link(v, link), *(_cell_text(r[i]) for i in differ)]
        for v, r in zip(members, rows, strict=True)
    ]
    return [*out, html_table(header, cells, "cr-compare"), ""]


def _md_escape(text: str) -> str:
    """HTML text (entities already made) as Markdown text: Markdown's own characters escaped."""
    return re.sub(r"([\\`*_{}\[\]|#])", r"\\\1", text)


def families_table(variants: Sequence[Variant], link: str = "{name}.md") -> str:
    """The families at a glance, for the home page: the game, how many play, how long
    it lasts, what it is, and how many variations it has.

    Example:
        >>> from cardrules.rulebook import builtin_variants
        >>> "<td data-label=\\"Players\\">3 to 7</td>" in families_table(builtin_variants())
        True
    """
    from cardrules.rulebook.words import players_short

    rows = []
    for members in families(variants).values():
        head = members[0]
        n = len(members) - 1
        rows.append(
            [
                _link(head, link),
                html.escape(players_short(head)),
                html.escape(game_length(head)),
                html.escape(" ".join(head.summary.split())),
                str(n) if n else "—",
            ]
        )
    return html_table(["Game", "Players", "A game lasts", "In short", "Variations"], rows)


# --------------------------------------------------------------------------- a page's sections


def objective_line(v: Variant, counts: Sequence[int] | None = None) -> str:
    """The object of the game, first on its page."""
    from cardrules.rulebook.words import goal_phrase

    goal = goal_phrase(v, counts).replace(" (see Scoring)", "")
    return f"**The object of the game:** {goal}."


def _leading_comment(source: str) -> str:
    lines = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        lines.append(stripped.lstrip("#").strip())
    return " ".join(lines)


def source_urls(v: Variant) -> list[str]:
    """The web addresses named in the opening comment of ``v``'s file, in order, once each."""
    seen: list[str] = []
    for url in _URL.findall(_leading_comment(v.source or "")):
        url = url.rstrip(".")
        if url not in seen:
            seen.append(url)
    return seen


def _source_label(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    name = next((n for h, n in _HOSTS.items() if host == h or host.endswith("." + h)), host)
    return f"{name}, {host}{parts.path}" if parts.path not in ("", "/") else name


def sources_section(
    v: Variant, parent: Variant | None = None, link: str = "{name}.md"
) -> list[str]:
    """The "Sources" section: the public references the variant file names.

    For a built-in game the addresses are links; for any other file they are shown
    as text only, never as links, since the file's author chose them.
    """
    from cardrules.rulebook.safe import md_code, md_text, page_link

    urls = source_urls(v)
    builtin = _exactly_builtin(v)
    out = ["## Sources", ""]
    if urls:
        for url in urls:
            if builtin:
                out.append(f"- [{md_text(_source_label(url))}]({url})")
            else:
                out.append(f"- {md_code(url)}")
        out.append("")
    else:
        out += ["The variant file names no source.", ""]
    if parent is not None and source_urls(parent):
        href = page_link(link, parent.name)
        ptitle = md_text(_title(parent))
        named = f"[{ptitle}]({href})" if href is not None and builtin else ptitle
        out += [f"For the rules it shares with {ptitle}, see the sources of {named}.", ""]
    if v.source:
        out += [
            "The comment at the top of the variant file says which rule comes from where, "
            "and what was chosen where the sources differ or say nothing.",
            "",
        ]
    return out


def variations_section(
    v: Variant, catalog: Sequence[Variant] | None = None, link: str = "{name}.md"
) -> list[str]:
    """The "Variations" section: every game of ``catalog`` that extends ``v``, and the
    other variations of the game ``v`` extends, one line each (its summary and the
    rules it changes). Empty when there are none.

    Args:
        v: the game of the page.
        catalog: the games to look through; the built-ins when ``v`` is one.
        link: the address of a game's page, with ``{name}`` in it.
    """
    from cardrules.rulebook.safe import md_text, page_link
    from cardrules.rulebook.words import differences

    if catalog is None:
        if not is_builtin(v):
            return []
        catalog = _builtins()
    by_name = {c.name: c for c in catalog}

    def line(c: Variant, base: Variant, depth: int) -> str:
        href = page_link(link, c.name)
        title = md_text(_title(c))
        named = f"[{title}]({href})" if href is not None else title
        summary = md_text(" ".join(c.summary.split()).rstrip("."))
        try:
            labels = [d.label.lower() for d in differences(c, base)]
        except Exception:  # a difference that cannot be put in words: leave it out
            labels = []
        changed = f" *(changes: {md_text(', '.join(labels))})*" if labels else ""
        return f"{'    ' * depth}- **{named}**: {summary}.{changed}"

    def tree(base: Variant, depth: int) -> list[str]:
        # Differences from the game as it ships, not as this page's options set it.
        base = by_name.get(base.name, base)
        lines = []
        for c in sorted((c for c in catalog if c.parent == base.name), key=lambda c: c.name):
            if c.name == v.name:
                continue
            lines.append(line(c, base, depth))
            lines += tree(c, depth + 1)
        return lines

    out: list[str] = []
    own = tree(v, 0)
    if own:
        out += [f"Built-in games that extend {md_text(_title(v))}:", "", *own, ""]
    parent = by_name.get(v.parent) if v.parent else None
    if parent is not None:
        others = tree(parent, 0)
        href = page_link(link, parent.name)
        ptitle = md_text(_title(parent))
        named = f"[{ptitle}]({href})" if href is not None else ptitle
        if others:
            out += [f"Other variations of {named}:", "", *others, ""]
        elif not own:
            out += [f"This game is the only built-in variation of {named}.", ""]
    if not out:
        return []
    return ["## Variations", "", *out]
