"""Rules pages: a variant's rules in plain English, generated from its config.

:func:`rulebook` turns a :class:`~cardrules.rules.Variant` into a Markdown page
that a family can print and play from: a summary, quick facts, the deal
schedule, bidding and the hook with a worked example, play, a scoring table,
a worked hand played by the engine, and the variant file itself. Every table
is computed from the config, so when a variant file changes its page changes
with it.

Examples:
    >>> import cardrules
    >>> page = cardrules.rulebook(cardrules.load("kachuful"))  # doctest: +SKIP
    >>> print(page.splitlines()[0])  # doctest: +SKIP
    # Kachuful
"""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.rulebook_play import NAMES, HookExample, hook_examples
from cardrules.rulebook_tables import (
    comparison_table,
    format_points,
    hands_in_game,
    markdown_table,
    schedule_table,
    scoring_bids,
    scoring_table,
)
from cardrules.rulebook_words import (
    Difference,
    amend_phrase,
    bidding_phrase,
    blind_phrase,
    count_word,
    dealer_phrase,
    deck_phrase,
    differences,
    direction_phrase,
    first_lead_phrase,
    follow_phrase,
    forehead_phrase,
    hook_phrase,
    join_words,
    left_or_right,
    options_note,
    players_phrase,
    players_short,
    schedule_phrase,
    scoring_phrase,
    tie_phrase,
    trump_lead_phrase,
    trumps_phrase,
    trumps_short,
    winner_phrase,
)
from cardrules.rules import BidStyle, Mode, TrumpKind, Variant

__all__ = ["builtin_variants", "comparison_page", "load_parent", "rulebook"]

#: Cards each in the scoring table.
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
    from pathlib import Path

    from cardrules.dsl.loader import load

    folders: list[list[Path] | None] = [None]
    if variant.path:
        folders.insert(0, [Path(variant.path).parent])
    for search in folders:
        try:
            return load(variant.parent, search=search)
        except (ValueError, OSError):
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
) -> str:
    """The rules of ``variant`` as a Markdown page.

    Args:
        variant: the resolved variant (options already applied).
        players: show the schedule and examples for this many players only;
            ``None`` shows every allowed number.
        parent: the variant it extends, resolved; loaded by name when omitted.
        link: the address of another variant's page, with ``{name}`` in it
            (the site uses ``"{name}.md"``).
        engine_examples: include the worked examples played by the engine
            (when the engine is available).
        settings: the options given from outside the file (as ``--set
            NAME=VALUE``), as ``(name, value)`` pairs, already applied to
            ``variant``; a note near the top lists them in words.

    Returns:
        The page, as Markdown text.

    Raises:
        ValueError: if ``players`` is not allowed by the variant.
    """
    if players is not None and players not in variant.players:
        raise ValueError(
            f"{variant.title or variant.name} is for {players_phrase(variant)}, not {players}"
        )
    counts = [players] if players is not None else list(variant.players.counts())
    if parent is None and variant.parent is not None:
        parent = load_parent(variant)
    title = variant.title or variant.name
    out: list[str] = [f"# {title}", ""]
    if variant.aliases:
        out += [f"*Also called {join_words(list(variant.aliases), 'or')}.*", ""]
    if variant.summary:
        out += [variant.summary.rstrip(".") + ".", ""]
    if settings:
        out += [options_note(variant, settings), ""]
    if variant.parent is not None:
        out += _differences_section(variant, parent, link)
    out += _quick_facts(variant, counts)
    out += _deal_section(variant, counts)
    if variant.mode is Mode.SHEDDING:
        out += _shedding_sections(variant, players, engine_examples)
    else:
        out += _bidding_section(variant, players)
        out += _play_section(variant)
        out += _scoring_section(variant)
        if engine_examples:
            from cardrules.rulebook_hand import worked_hand_section

            out += worked_hand_section(variant, players)
        out += ["## Winning", "", tie_phrase(variant), ""]
    out += _options_section(variant)
    out += _source_section(variant)
    return "\n".join(out).rstrip() + "\n"


def _differences_section(variant: Variant, parent: Variant | None, link: str) -> list[str]:
    name = variant.parent or ""
    ptitle = (parent.title or parent.name) if parent is not None else name
    href = link.format(name=name)
    out = [f"## Differences from {ptitle}", ""]
    if parent is None:
        return [
            *out,
            f"This game extends [{ptitle}]({href}); see that page for the rules it shares.",
            "",
        ]
    diffs = differences(variant, parent)
    if not diffs:
        return [
            *out,
            f"This game plays exactly like [{ptitle}]({href}); only its name differs.",
            "",
        ]
    n = len(diffs)
    what = "one rule" if n == 1 else f"{count_word(n)} rules"
    out += [
        f"This is [{ptitle}]({href}) with {what} changed. Everything else is as in "
        f"{ptitle}, and is repeated below so that this page is complete on its own.",
        "",
    ]
    out += [_difference_line(d, ptitle) for d in diffs]
    return [*out, ""]


def _difference_line(d: Difference, ptitle: str) -> str:
    return f"- **{d.label}:** {d.here} *(In {ptitle}: {d.parent})*"


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
            ["Goal", "get rid of your cards; the last player holding cards loses"],
        ]
        if v.match.word:
            rows.append(["A match", f"until someone spells {'-'.join(v.match.word.upper())}"])
    else:
        rows += [
            ["Hands in a game", hands_in_game(v, counts)],
            ["Trumps", trumps_short(v)],
        ]
        if v.has_bidding:
            hook = (
                "with the hook"
                if v.bidding.hook and (v.bidding.style is BidStyle.IN_TURN)
                else "no hook"
            )
            rows.append(["Bidding", f"{v.bidding.style.value}, {hook}"])
        rows.append(["Goal", "take exactly the number of tricks you bid"])
    return ["## Quick facts", "", markdown_table(["Rule", "In this game"], rows), ""]


def _deal_section(v: Variant, counts: Sequence[int]) -> list[str]:
    side = left_or_right(v)
    out = [
        "## The deal",
        "",
        dealer_phrase(v),
        f"The dealer deals one card at a time, starting with the player to their {side} "
        f"and going {direction_phrase(v).split(' (')[0]}.",
        "",
        schedule_phrase(v),
        "",
    ]
    if v.mode is not Mode.SHEDDING:
        out += [trumps_phrase(v), ""]
    out += ["### Deal schedule", "", schedule_table(v, counts), ""]
    return out


def _bidding_section(v: Variant, players: int | None) -> list[str]:
    out = ["## Bidding", ""]
    if not v.has_bidding:
        return [*out, "Nobody bids in this game.", ""]
    out += [
        "After the deal, everyone looks at their cards and says how many tricks they "
        "expect to take: that is their bid. The scorekeeper writes every bid down.",
        "",
        bidding_phrase(v),
        "",
        hook_phrase(v),
        "",
    ]
    extras = []
    if v.bidding.blind:
        extras.append(blind_phrase(v))
    if v.bidding.forehead_sizes:
        extras.append(forehead_phrase(v))
    if v.bidding.amend:
        extras.append(amend_phrase(v))
    if extras:
        out += [" ".join(extras), ""]
    examples = hook_examples(v, players)
    if examples:
        out += ["### The hook, worked through" if v.bidding.hook else "### The dealer's bid", ""]
        for ex in examples:
            out += [_hook_text(v, ex), ""]
    return out


def _hook_text(v: Variant, ex: HookExample) -> str:
    dealer = NAMES[ex.players - 1]
    said = join_words([f"{NAMES[i]} bids {b}" for i, b in enumerate(ex.others)])
    total = sum(ex.others)
    allowed = join_words([str(b) for b in ex.allowed], "or")
    head = (
        f"{count_word(ex.players).capitalize()} players, {ex.cards} cards each, and "
        f"{dealer} deals. {said}. The bids so far add up to {total}, and there are "
        f"{ex.cards} tricks to take."
    )
    if ex.forbidden is not None:
        return (
            f"{head} If {dealer} bid {ex.forbidden}, the bids would add up to exactly "
            f"{ex.cards}, so {dealer} may bid {allowed}, but not {ex.forbidden}."
        )
    if v.bidding.hook:
        return (
            f"{head} The others have already bid more than there are tricks, so no bid can "
            f"make the total come out exactly: {dealer} may bid anything ({allowed})."
        )
    gap = ex.cards - total
    even = f", even {gap}, which makes the bids add up exactly" if gap in ex.allowed else ""
    return f"{head} There is no hook, so {dealer} may bid {allowed}{even}."


def _play_section(v: Variant) -> list[str]:
    return [
        "## Playing the tricks",
        "",
        first_lead_phrase(v),
        "",
        follow_phrase(v),
        "",
        trump_lead_phrase(v),
        "",
        winner_phrase(v),
        "",
    ]


def _scoring_section(v: Variant) -> list[str]:
    out = ["## Scoring", ""]
    if v.scoring.formula is None:
        return [*out, "This game keeps no score.", ""]
    out += [
        scoring_phrase(v),
        "",
        "### Scoring table",
        "",
        f"Points for one player in one hand of {SCORING_CARDS} cards each, by bid (rows) and "
        "tricks taken (columns). An exact bid is in bold.",
        "",
        scoring_table(v, SCORING_CARDS),
        "",
    ]
    if v.has_bidding and v.bidding.blind:
        from cardrules.rulebook_tables import score

        bids = [b for b in scoring_bids(v, SCORING_CARDS) if b > 0][:3]
        parts = []
        for b in bids:
            blind = score(v, bid=b, tricks=b, cards=SCORING_CARDS, blind=True)
            open_ = score(v, bid=b, tricks=b, cards=SCORING_CARDS, blind=False)
            parts.append(
                f"an exact blind bid of {b} scores {format_points(blind)} "
                f"(instead of {format_points(open_)})"
            )
        if parts:
            out += ["Blind bids: " + join_words(parts) + ".", ""]
    return out


def _shedding_sections(v: Variant, players: int | None, engine_examples: bool) -> list[str]:
    from cardrules.rulebook_shed import shedding_sections

    return shedding_sections(v, players, engine_examples=engine_examples)


def _options_section(v: Variant) -> list[str]:
    if not v.options:
        return []
    names = ", ".join(f"`{o}`" for o in v.options)
    example = v.options[0].replace(" ", "_")
    return [
        "## Options",
        "",
        f"This variant has settings you can change without writing a new file: {names}. "
        f"For example, `cardrules rules {v.name} --set {example}=VALUE` on the command line, "
        f'or `cardrules.load("{v.name}", {example}=VALUE)` in Python, where VALUE is written '
        "as it would be in a variant file.",
        "",
    ]


def _source_section(v: Variant) -> list[str]:
    if not v.source:
        return []
    name = v.path.rsplit("/", 1)[-1] if v.path else v.name
    fence = "```"
    while fence in v.source:
        fence += "`"
    return [
        "## The variant file",
        "",
        f"This page was generated from the file `{name}` below. Copy it to start your own "
        "house rules.",
        "",
        f"{fence}text",
        v.source.rstrip("\n"),
        fence,
        "",
    ]


def comparison_page(variants: Sequence[Variant], link: str = "{name}.md") -> str:
    """A Markdown page comparing ``variants`` on the main rule dimensions.

    Args:
        variants: the variants, in the order to list them.
        link: the address of a variant's page, with ``{name}`` in it.
    """
    tricks = [v for v in variants if v.mode is not Mode.SHEDDING]
    shed = [v for v in variants if v.mode is Mode.SHEDDING]
    out = [
        "# Compare the games",
        "",
        "Every built-in game, side by side. The schedule column counts the hands for four "
        "players (or the nearest allowed number); click a game for its full rules.",
        "",
    ]
    if tricks:
        out += ["## Trick-taking games", "", comparison_table(tricks, link), ""]
    if shed:
        out += ["## Shedding games", "", comparison_table(shed, link), ""]
    turn_up = sum(1 for v in tricks if v.trumps.kind is TrumpKind.TURN_UP)
    out += [
        f"{len(variants)} games in all; {turn_up} of the trick-taking games turn up a card "
        "for trumps.",
        "",
    ]
    return "\n".join(out)
