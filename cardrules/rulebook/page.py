"""Rules pages: a variant's rules in plain English, generated from its config.

:func:`rulebook` turns a :class:`~cardrules.rules.Variant` into a Markdown page
that a family can print and play from: a summary, quick facts, the deal
schedule (with each hand's trumps, per number of players), bidding and the hook
with a worked example, play with examples of which cards may be played, a
scoring table, a worked hand played by the engine, what happens after a tie,
and the variant file itself. Every sentence and table is computed from the
config, and speaks only of what the game has, so when a variant file changes
its page changes with it; text that comes from the file is escaped
(:mod:`cardrules.rulebook.safe`), so a page can be rendered as HTML safely.

Examples:
    >>> import cardrules
    >>> page = cardrules.rulebook(cardrules.load("kachuful"))  # doctest: +SKIP
    >>> print(page.splitlines()[0])  # doctest: +SKIP
    # Kachuful
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from pathlib import Path

from cardrules.dsl.example_syntax import with_symbols
from cardrules.errors import CardrulesError, ScoreError
from cardrules.rulebook.cases import scoring_cases_lines
from cardrules.rulebook.catalog import (
    is_builtin,
    objective_line,
    sources_section,
    variations_section,
)
from cardrules.rulebook.example_section import examples_section
from cardrules.rulebook.hand_trumps import has_trumps
from cardrules.rulebook.length import length_is_a_guard, target_words
from cardrules.rulebook.page_tables import (
    contract_table,
    format_points,
    hands_in_game,
    markdown_table,
    schedule_table,
    scoring_table,
)
from cardrules.rulebook.play_examples import (
    HookExample,
    hook_examples,
    play_examples_section,
    seat_names,
)
from cardrules.rulebook.safe import md_code, md_fence, md_line, md_text, page_link, plain
from cardrules.rulebook.story import choices_section, story_section, tips_section
from cardrules.rulebook.team_words import counters_lines, teams_phrase, teams_short
from cardrules.rulebook.words import (
    Difference,
    amend_phrase,
    bidding_phrase,
    blind_difference,
    blind_phrase,
    conditions_phrase,
    count_word,
    dealer_phrase,
    deck_phrase,
    differences,
    direction_phrase,
    first_lead_phrase,
    first_trick_phrase,
    follow_phrase,
    forehead_phrase,
    goal_phrase,
    has_hook,
    hook_phrase,
    join_words,
    knockout_phrase,
    left_or_right,
    match_word,
    options_note,
    pass_phrase,
    players_phrase,
    players_short,
    plural,
    schedule_phrase,
    scoring_phrase,
    side_bids,
    take_backs_phrase,
    tie_phrase,
    trump_lead_phrase,
    trump_order_phrase,
    trumps_phrase,
    trumps_short,
    unbroken_phrase,
    winner_phrase,
)
from cardrules.rules import BidStyle, Mode, TakeBacks, Variant

__all__ = ["builtin_variants", "comparison_page", "load_parent", "rulebook"]

#: Cards each in the scoring table (fewer when the game never deals that many).
SCORING_CARDS = 4


def builtin_variants() -> list[Variant]:
    """Every built-in variant, resolved with its default options, sorted by name."""
    from cardrules.dsl import loader

    return [loader.load(name) for name in loader.builtin_names()]


def load_parent(variant: Variant) -> Variant | None:
    """The resolved parent of ``variant``, loaded with its default options, if it can be found.

    Looks in the built-in variants and, for a variant read from a file, in
    that file's folder.
    """
    if variant.parent is None:
        return None
    from cardrules.dsl.loader import load

    folders: list[list[Path] | None] = [None]
    if variant.path:
        folders.insert(0, [Path(variant.path).parent])
    for search in folders:
        try:
            return load(variant.parent, search=search)
        except (CardrulesError, ValueError, OSError):
            continue
    return None


def rulebook(
    variant: Variant,
    players: int | None = None,
    *,
    parent: Variant | None = None,
    link: str = "../{name}/",
    engine_examples: bool = True,
    settings: Sequence[tuple[str, str]] = (),
    catalog: Sequence[Variant] | None = None,
    pictures: bool = False,
) -> str:
    """The rules of ``variant`` as a Markdown page.

    Every sentence is worked out from the variant's rules, and speaks only of
    what the game has (a game without bidding never mentions bids, a game whose
    hands have no trumps never mentions trumps). Text from the variant file or
    from ``settings`` is escaped (see :mod:`cardrules.rulebook.safe`): it shows
    as text, never as HTML or a link, and the file at the bottom of the page
    sits in a code block it cannot close.

    Args:
        variant: the resolved variant (options already applied).
        players: show the schedule and examples for this many players only;
            ``None`` shows every allowed number.
        parent: the variant it extends, resolved; loaded by name when omitted.
        link: the address of another variant's page, with ``{name}`` in it
            (the site uses ``"{name}.md"``); used only for plain catalog names.
        engine_examples: include the worked examples played by the engine
            (when the engine is available).
        settings: the options given from outside the file (as ``--set
            NAME=VALUE``), as ``(name, value)`` pairs, already applied to
            ``variant``; a note near the top lists them in words.
        catalog: the games whose variations of this one the page lists (see
            :func:`~cardrules.rulebook.catalog.variations_section`); the built-ins
            when omitted and ``variant`` is one of them, none otherwise.
        pictures: draw the cards, the deal schedule and the table as SVG pictures
            (inline HTML, for the rules site; see :mod:`cardrules.rulebook.svg_cards`),
            keeping the tables they draw as text; ``False`` gives plain Markdown.

    Returns:
        The page, as Markdown text.

    Raises:
        ValueError: if ``players`` is not allowed by the variant.
    """
    if players is not None and players not in variant.players:
        raise ValueError(
            f"{plain(variant.title or variant.name)} is for {players_phrase(variant)}, "
            f"not {players}"
        )
    counts = [players] if players is not None else list(variant.players.counts())
    if parent is None and variant.parent is not None:
        parent = load_parent(variant)
    out = _page_top(variant, counts, settings)
    out += _quick_facts(variant, counts)
    out += story_section(variant, parent, load_parent)
    if variant.parent is not None:
        out += _differences_section(variant, parent, link)
    out += _deal_section(variant, counts, pictures=pictures, engine=engine_examples)
    out += _passing_section(variant, counts, pictures=pictures and engine_examples)
    if variant.mode is Mode.SHEDDING:
        out += _shedding_sections(variant, players, engine_examples, pictures=pictures)
    else:
        out += _trick_taking_sections(variant, counts, players, engine_examples, pictures)
    if variant.take_backs is not TakeBacks.NEVER:
        out += ["## Take-backs", "", take_backs_phrase(variant), ""]
    if variant.conditional:
        out += ["## Rules that depend on the hand or the table", "", conditions_phrase(variant), ""]
    out += choices_section(variant)
    out += tips_section(variant, parent, load_parent)
    out += examples_section(
        variant, engine=engine_examples, options_given=bool(settings), pictures=pictures
    )
    out += variations_section(variant, catalog, link)
    out += sources_section(variant, parent, link)
    out += _options_section(variant)
    # A pack with `special symbols` shows its special cards by them (W1, not X1);
    # the source below is the file's own text, already written with them.
    out = [with_symbols(line, variant.deck.card_names()) for line in out]
    out += _source_section(variant)
    return "\n".join(out).rstrip() + "\n"


def _own_aliases(variant: Variant) -> list[str]:
    """The file's other names for the game, less any that is the name of another
    built-in game (Kachuful's file says "also called Judgement", but Judgement is a
    game of its own here, with other scoring: the page must not call them one)."""
    from cardrules.dsl import loader

    others = set(loader.builtin_names()) - {variant.name}
    return [
        a for a in variant.aliases if re.sub(r"[^a-z0-9]+", "-", a.lower()).strip("-") not in others
    ]


def _page_top(
    variant: Variant, counts: Sequence[int], settings: Sequence[tuple[str, str]]
) -> list[str]:
    """The top of a page: the title, other names, the objective, the summary and the
    options given from outside the file."""
    title = md_line(variant.title or variant.name)
    out: list[str] = [f"# {title}", ""]
    if variant.aliases:
        names = [md_text(a) for a in _own_aliases(variant) if plain(a)]
        if names:
            out += [f"*Also called {join_words(names, 'or')}.*", ""]
    out += [objective_line(variant, counts), ""]
    if plain(variant.summary):
        out += [md_line(plain(variant.summary).rstrip(".")) + ".", ""]
    if settings:
        out += [options_note(variant, settings), ""]
    return out


def _passing_section(variant: Variant, counts: Sequence[int], *, pictures: bool) -> list[str]:
    """The passing of cards (empty for a game without), with the table drawn when
    ``pictures``."""
    passing = pass_phrase(variant)
    if not passing:
        return []
    out = ["## Passing cards", "", passing, ""]
    if pictures:
        from cardrules.rulebook.seating import passing_section

        n = _table_size(variant, counts)
        out += passing_section(variant, n, seat_names(n))
    return out


def _trick_taking_sections(
    variant: Variant,
    counts: Sequence[int],
    players: int | None,
    engine_examples: bool,
    pictures: bool,
) -> list[str]:
    """The sections of a trick-taking game: bidding, play, scoring, a worked hand and
    winning."""
    out = [*_bidding_section(variant, players)]
    out += _play_section(variant, counts, players)
    out += _scoring_section(variant, counts)
    if engine_examples:
        from cardrules.rulebook.hand import worked_hand_section

        out += worked_hand_section(variant, players, pictures=pictures)
    knocked = [knockout_phrase(variant), ""] if variant.winning.knockout_below else []
    return [*out, "## Winning", "", *knocked, tie_phrase(variant), ""]


def _differences_section(variant: Variant, parent: Variant | None, link: str) -> list[str]:
    name = variant.parent or ""
    ptitle = md_text((parent.title or parent.name) if parent is not None else name)
    href = page_link(link, name)
    named = f"[{ptitle}]({href})" if href is not None else ptitle
    out = [f"## Differences from {ptitle}", ""]
    if parent is None:
        return [
            *out,
            f"This game extends {named}; see the rules of {ptitle} for what it shares with it.",
            "",
        ]
    diffs = differences(variant, parent)
    if not diffs:
        return [
            *out,
            f"This game plays exactly like {named}; only its name differs.",
            "",
        ]
    n = len(diffs)
    what = "one rule" if n == 1 else f"{count_word(n)} rules"
    out += [
        f"This is {named} with {what} changed. Everything else is as in "
        f"{ptitle}, and is repeated below so that this page is complete on its own.",
        "",
    ]
    out += [_difference_line(d, ptitle) for d in diffs]
    return [*out, ""]


def _difference_line(d: Difference, ptitle: str) -> str:
    return f"- **{d.label}:** {d.here} *(In {ptitle}: {d.parent})*"


def _bidding_fact(v: Variant) -> str:
    if side_bids(v):
        how = "at once" if v.bidding.style is BidStyle.SIMULTANEOUS else "in turn"
        return f"one bid per side, {how}" + (", with the hook" if has_hook(v) else "")
    if v.bidding.style is BidStyle.SIMULTANEOUS:
        return "everyone at once"
    if v.bidding.style is BidStyle.AUCTION:
        rounds = "round and round" if v.bidding.until_others_pass else "once round"
        if v.bidding.strains:
            return f"an auction, {rounds}: a number of tricks in a suit or no trumps"
        return f"an auction, {rounds}: each bid higher, or pass"
    return "in turn, with the hook" if has_hook(v) else "in turn, the dealer last"


def _quick_facts(v: Variant, counts: Sequence[int]) -> list[str]:
    rows = [
        ["Players", players_short(v)],
        ["Pack", deck_phrase(v)],
        ["Direction of play", direction_phrase(v)],
    ]
    if v.mode is Mode.SHEDDING:
        rows += [
            ["Deal", "the whole pack, one deal per game"],
            ["Trumps", "none"],
            ["Goal", goal_phrase(v, counts)],
        ]
        if v.match.word:
            rows.append(["A match", f"until someone spells {match_word(v)}"])
    else:
        hands = hands_in_game(v, counts)
        if v.winning.knockout_below:
            hands = f"at most {hands} (players are knocked out)"
        elif length_is_a_guard(v):
            hands = f"no fixed number: play {target_words(v)}"
        elif v.winning.target is not None:
            floor = v.winning.lose_at
            low = "" if floor is None else f"at a total of {floor} or less, or "
            who = "the declarer's total" if v.winning.target_by_declarer else "a total"
            hands = f"at most {hands}; the game ends {low}once {who} reaches {v.winning.target}"
        if v.teams:
            rows.append(["Partnerships", teams_short(v, seat_names(v.players.min))])
        rows += [
            ["Hands in a game", hands],
            ["Trumps", trumps_short(v, counts)],
        ]
        if v.has_bidding:
            rows.append(["Bidding", _bidding_fact(v)])
        rows.append(["Goal", goal_phrase(v, counts)])
    return ["## At a glance", "", markdown_table(["Rule", "In this game"], rows), ""]


def _table_size(v: Variant, counts: Sequence[int]) -> int:
    """The table drawn on the page: its only count, else 4 players (or the nearest)."""
    return counts[0] if len(counts) == 1 else min(max(4, v.players.min), v.players.max)


def _deal_section(
    v: Variant, counts: Sequence[int], *, pictures: bool = False, engine: bool = True
) -> list[str]:
    side = left_or_right(v)
    out = [
        "## The deal",
        "",
        dealer_phrase(v),
        f"The dealer deals one card at a time, starting with the player to their {side} "
        f"and going {direction_phrase(v).split(' (')[0]}.",
        "",
    ]
    if pictures and engine:
        from cardrules.rulebook.seating import seating_section

        n = _table_size(v, counts)
        out += seating_section(v, n, seat_names(n))
    out += [
        schedule_phrase(v),
        "",
    ]
    if v.mode is not Mode.SHEDDING and v.winning.target is not None and not length_is_a_guard(v):
        out += [
            "The game ends sooner when, after a hand, "
            + ("the declarer's total has" if v.winning.target_by_declarer else "some total has")
            + f" reached {v.winning.target} or more (see Winning): the schedule below is the most "
            "hands it can have.",
            "",
        ]
    if v.mode is not Mode.SHEDDING and v.winning.knockout_below:
        out += [
            "Each hand is dealt only to the players still in: a player knocked out (see "
            "Winning) is dealt no more cards, and the game can end before the last hand "
            "of the schedule below.",
            "",
        ]
    if v.mode is not Mode.SHEDDING:
        out += [trumps_phrase(v, counts), ""]
    chart: list[str] = []
    if pictures:
        from cardrules.rulebook.charts import schedule_chart

        chart = schedule_chart(v, counts)
    if chart:
        out += [
            "### Deal schedule",
            "",
            *chart,
            '<details class="cr-as-text" markdown="1">',
            "<summary>The deal schedule as a table</summary>",
            "",
            schedule_table(v, counts),
            "",
            "</details>",
            "",
        ]
        return out
    out += ["### Deal schedule", "", schedule_table(v, counts), ""]
    return out


def _bidding_section(v: Variant, players: int | None) -> list[str]:
    if not v.has_bidding:
        return []
    counts = [players] if players is not None else list(v.players.counts())
    auction_words = (
        "After the deal, the players bid for the contract: the right to choose trumps, "
        "against a promise of tricks that the bid says."
        if has_trumps(v, counts)
        else "After the deal, the players bid for the contract: a promise of tricks "
        "that the bid says, to be made without trumps."
    )
    intro = (
        auction_words
        if v.bidding.style is BidStyle.AUCTION
        else "After the deal, each player says how many tricks they expect to take: that is "
        "their bid. The scorekeeper writes every bid down."
    )
    out = ["## Bidding", "", intro, "", bidding_phrase(v), ""]
    hook = hook_phrase(v)
    if hook:
        out += [hook, ""]
    extras = [
        text
        for text in (blind_phrase(v, *_scoring_size(v, players)), forehead_phrase(v, counts))
        if text
    ]
    if v.bidding.amend and v.bidding.style is BidStyle.IN_TURN:
        extras.append(amend_phrase(v))
    if extras:
        out += [" ".join(extras), ""]
    try:
        examples = hook_examples(v, players)
    except CardrulesError:  # the engine refused the example deal: no example
        examples = []
    if examples:
        last = "### The last bid" if side_bids(v) else "### The dealer's bid"
        out += ["### The hook, worked through" if has_hook(v) else last, ""]
        for ex in examples:
            out += [_hook_text(v, ex), ""]
    return out


def _hook_text(v: Variant, ex: HookExample) -> str:
    names = seat_names(ex.players)
    dealer = names[ex.dealer]
    bidders = ex.bidders or tuple(range(ex.players - 1))
    said = join_words([f"{names[s]} bids {b}" for s, b in zip(bidders, ex.others, strict=True)])
    if ex.last is not None:
        said += f" for {'their side' if len(bidders) == 1 else 'their sides'}"
    total = sum(ex.others)
    allowed = join_words([str(b) for b in ex.allowed], "or")
    head = (
        f"{count_word(ex.players).capitalize()} players, {plural(ex.cards, 'card')} each, and "
        f"{dealer} deals. {said}. The bids so far add up to {total}, and there "
        f"{'is 1 trick' if ex.cards == 1 else f'are {ex.cards} tricks'} to take."
    )
    if ex.last is not None:
        # One bid per side: the last side's first player bids last, not the dealer.
        dealer = names[ex.last]
        head += f" {dealer} bids last, for the other side."
    gap = ex.cards - total
    if ex.forbidden is not None:
        return (
            f"{head} If {dealer} bid {ex.forbidden}, the bids would add up to exactly "
            f"{ex.cards}, so {dealer} may bid {allowed}, but not {ex.forbidden}."
        )
    if has_hook(v):
        if gap < 0:
            why = "The others have already bid more than there are tricks, so no bid can make "
            why += "the total come out exactly"
        else:
            why = f"Only a bid of {gap} would make the total come out exactly, and that is "
            why += "not a bid anyone may make"
        return f"{head} {why}: {dealer} may bid anything ({allowed})."
    even = f", even {gap}, which makes the bids add up exactly" if gap in ex.allowed else ""
    whose = "The last bid" if ex.last is not None else "The dealer's bid"
    return f"{head} {whose} is not limited, so {dealer} may bid {allowed}{even}."


def _play_section(v: Variant, counts: Sequence[int], players: int | None) -> list[str]:
    trumps = has_trumps(v, counts)
    out = [
        "## Playing the tricks",
        "",
        first_lead_phrase(v),
        "",
        follow_phrase(v, trumps),
        "",
    ]
    for text in (
        trump_order_phrase(v, counts),
        trump_lead_phrase(v, trumps),
        first_trick_phrase(v),
        unbroken_phrase(v),
    ):
        if text:
            out += [text, ""]
    out += [winner_phrase(v, trumps), ""]
    out += play_examples_section(v, players)
    return out


def _scoring_size(v: Variant, players: int | None) -> tuple[int, int]:
    """Cards each and players for the scoring table: 4 cards (fewer when the game never
    deals that many) for the page's number of players (4 when allowed)."""
    n = players if players is not None else min(max(4, v.players.min), v.players.max)
    largest = max(v.hand_sizes(n), default=SCORING_CARDS)
    return max(1, min(SCORING_CARDS, largest)), n


def _scoring_section(v: Variant, counts: Sequence[int]) -> list[str]:
    """The scoring section: in words, with a table of points when one player's score
    depends only on their bid and tricks."""
    out = ["## Scoring", ""]
    f = v.scoring.formula
    if v.cases:
        # The file names its cases: a table of them, then the tables of points
        # the page gives without them (by bid and tricks, the contracts), the
        # formula folded.
        n = _scoring_size(v, counts[0] if len(counts) == 1 else None)[1]
        plain = _scoring_section(v.evolve(cases=()), counts)
        tables = next((plain[k:] for k, line in enumerate(plain) if line.startswith("### ")), [])
        return [*out, *scoring_cases_lines(v, n, tables)]
    if v.teams or v.scoring.team_formula is not None or v.scoring.counters:
        return [*out, *_scoring_in_words(v)]
    if f is None:
        return [*out, "This game keeps no score.", ""]
    cards, n = _scoring_size(v, counts[0] if len(counts) == 1 else None)
    uses = f.uses()
    if uses & {"points", "all_points", "most_points"} or f.questions():
        # The score depends on the cards taken, not on a count of tricks: no table.
        return [*out, scoring_phrase(v), ""]
    if uses & {"maker", "maker_tricks"} and v.bidding.strains:
        # Bids in strains: the value of each contract, worked out from the formula.
        return [*out, scoring_phrase(v), "", *_contract_lines(v, cards, n)]
    if uses & {"maker", "maker_tricks"}:
        # The score depends on who made trumps, not on one player's tricks alone.
        return [*out, scoring_phrase(v), ""]
    where = f" for {n} players" if "players" in uses else ""
    where += " in the first hand" if "hand" in uses else ""
    by = "by bid (rows) and tricks taken (columns)" if v.has_bidding else "by tricks taken"
    exact = " An exact bid is in bold." if v.has_bidding else ""
    out += [
        scoring_phrase(v),
        "",
        "### Scoring table",
        "",
        f"Points for one player in one hand of {plural(cards, 'card')} each{where}, {by}.{exact}",
        "",
        scoring_table(v, cards, n),
        "",
    ]
    if v.has_bidding and v.bidding.blind:
        out += _blind_scoring_lines(v, cards, n)
    return out


def _contract_lines(v: Variant, cards: int, n: int) -> list[str]:
    """The contracts' values (bids in strains): what the declarer scores for each
    contract made with exactly the tricks bid, from the score formula."""
    try:
        table = contract_table(v, max(v.hand_sizes(n), default=cards), n)
    except ScoreError:
        return []
    return [
        "### The contracts",
        "",
        "What the declarer scores for each contract made with exactly the tricks bid "
        "(a misère: with no trick), worked out from the score above.",
        "",
        table,
        "",
    ]


def _scoring_in_words(v: Variant) -> list[str]:
    """Scores by side, and counts kept across hands: in words, no table."""
    out = [text for text in (teams_phrase(v, seat_names(v.players.min)), "") if v.teams]
    out += [scoring_phrase(v).replace("everyone scores", "each player scores"), ""]
    lines = counters_lines(v)
    if lines:
        out += [*lines, ""]
    return out


def _blind_scoring_lines(v: Variant, cards: int, n: int) -> list[str]:
    """What a blind bid scores instead of an open one, in a few cases of the table's."""
    diffs = blind_difference(v, cards, n)
    exact_diffs = [d for d in diffs if d[0] == d[1]]
    exact_diffs = ([d for d in exact_diffs if d[0] > 0] or exact_diffs)[:3]
    missed = [d for d in diffs if d[0] != d[1]][:1]
    parts = [
        f"an exact blind bid of {b} scores {format_points(bl)} (instead of {format_points(op)})"
        for b, _, bl, op in exact_diffs
    ]
    parts += [
        f"a blind bid of {b} with {plural(t, 'trick')} taken scores {format_points(bl)} "
        f"(instead of {format_points(op)})"
        for b, t, bl, op in missed
    ]
    if parts:
        return ["Blind bids: " + join_words(parts) + ".", ""]
    return ["Blind bids: a blind bid scores the same as an open one.", ""]


def _shedding_sections(
    v: Variant, players: int | None, engine_examples: bool, *, pictures: bool = False
) -> list[str]:
    from cardrules.rulebook.shed import shedding_sections

    return shedding_sections(v, players, engine_examples=engine_examples, pictures=pictures)


def _is_builtin(v: Variant) -> bool:
    """True when ``v`` is a built-in variant (by name, and by file when it has one)."""
    return is_builtin(v)


def _is_file(v: Variant) -> bool:
    return bool(v.path) and not v.path.startswith("<")


#: Options that only apply when players bid (in turn, for the hook and bid changes).
_BID_OPTIONS = frozenset({"hook", "bids", "blind bids", "forehead hands", "bid changes"})


def _example_option(v: Variant) -> str:
    """The option the page's example sets: the first that applies to the game as it is
    (not ``hook`` in a game without bidding in turn, say)."""
    for name in v.options:
        key = " ".join(name.replace("_", " ").split()).lower()
        if key in _BID_OPTIONS and not v.has_bidding:
            continue
        if key in ("hook", "bid changes") and v.bidding.style is not BidStyle.IN_TURN:
            continue
        return name
    return v.options[0]


def _options_section(v: Variant) -> list[str]:
    if not v.options:
        return []
    names = ", ".join(md_code(o) for o in v.options)
    example = plain(_example_option(v)).replace(" ", "_")
    text = f"This variant has settings you can change without writing a new file: {names}."
    if _is_builtin(v):
        shell, python = v.name, json.dumps(v.name)
    elif _is_file(v):
        shell, python = shlex.quote(v.path), json.dumps(v.path)
    else:
        shell = python = ""
    if shell:
        text += (
            f" For example, {md_code(f'cardrules rules {shell} --set {example}=VALUE')} on "
            f"the command line, or {md_code(f'cardrules.load({python}, {example}=VALUE)')} "
            "in Python, where VALUE is written as it would be in a variant file."
        )
    else:
        text += (
            " Give them as --set NAME=VALUE after the variant file on the command line, or "
            "as keyword arguments of cardrules.load in Python, where VALUE is written as it "
            "would be in a variant file."
        )
    return ["## Options", "", text, ""]


def _source_section(v: Variant) -> list[str]:
    from cardrules.rulebook.svg_cards import esc

    if not v.source:
        return []
    name = v.path.replace("\\", "/").rsplit("/", 1)[-1] if _is_file(v) else f"{v.name}.cardrules"
    return [
        "## The variant file",
        "",
        f"This page was generated from the file {md_code(name)} below. Copy it to start "
        "your own house rules.",
        "",
        # Folded: most readers play from the rules above (issue 25, item 7).
        '<details class="cr-variant-file" markdown="1">',
        f"<summary>The file <code>{esc(name)}</code></summary>",
        "",
        *md_fence(v.source),
        "",
        "</details>",
        "",
    ]


def comparison_page(variants: Sequence[Variant], link: str = "{name}.md") -> str:
    """A Markdown page comparing ``variants``: one table per family, with only the
    columns in which the family's games differ (see
    :func:`cardrules.rulebook.catalog.comparison_page`).

    Args:
        variants: the variants, in the order to list them.
        link: the address of a variant's page, with ``{name}`` in it.
    """
    from cardrules.rulebook import catalog

    return catalog.comparison_page(variants, link)
