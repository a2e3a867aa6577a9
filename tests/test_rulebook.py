"""Rules pages: the text and tables generated from a Variant.

These tests build Variants directly from the config model, so that they
check the generator itself, independent of the built-in catalog. The
catalog's own pages are checked in tests/test_rulebook_engine.py and
tests/test_site.py.
"""

from __future__ import annotations

import re
from fractions import Fraction

import attrs
import pytest

from cardrules.cards import Suit, card
from cardrules.rulebook import builtin_variants, comparison_page, rulebook
from cardrules.rulebook.page_tables import (
    format_points,
    hands_in_game,
    schedule_rows,
    scoring_grid,
)
from cardrules.rulebook.play_examples import dealer_bids_by_rule, hook_examples
from cardrules.rulebook.words import differences, leaf_settings
from cardrules.rules import (
    BiddingRule,
    BidStyle,
    DeadTricks,
    Direction,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    MatchRule,
    Mode,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    ScoringRule,
    SheddingRule,
    SizeEntry,
    TrumpKind,
    TrumpRule,
    Variant,
)
from cardrules.scoring import Formula

KCFL = (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS)
CLASSIC_START = HandSizeRule(table=(SizeEntry(3, 5, 10), SizeEntry(6, 6, 8), SizeEntry(7, 7, 7)))

KACHUFUL = Variant(
    name="kachuful",
    title="Kachuful",
    summary="Bid, then take exactly that many tricks",
    aliases=("Judgement",),
    players=PlayerRange(3, 7),
    schedule=ScheduleRule(start=CLASSIC_START, pattern=Pattern.DOWN_UP),
    trumps=TrumpRule(kind=TrumpKind.CYCLE, cycle=KCFL),
    scoring=ScoringRule(formula=Formula("if exact then 10 + bid else 0")),
    source='game: kachuful\ntitle: "Kachuful"\n',
)
ZON = KACHUFUL.evolve(
    name="kachuful-zon",
    title="Kachuful with a no-trump hand",
    parent="kachuful",
    trumps=TrumpRule(kind=TrumpKind.CYCLE, cycle=(*KCFL, None)),
)
OH_HELL = Variant(
    name="oh-hell",
    title="Oh Hell",
    schedule=ScheduleRule(start=CLASSIC_START),
    scoring=ScoringRule(formula=Formula("tricks + (if exact then 10 else 0)")),
)
OH_HELL_13 = OH_HELL.evolve(
    name="oh-hell-13",
    parent="oh-hell",
    players=PlayerRange(4, 4),
    schedule=ScheduleRule(start=HandSizeRule(), pattern=Pattern.UP),
)
NO_HOOK = OH_HELL.evolve(name="oh-hell-no-hook", parent="oh-hell", bidding=BiddingRule(hook=False))
FISTS = OH_HELL.evolve(
    name="oh-hell-fists",
    parent="oh-hell",
    bidding=BiddingRule(style=BidStyle.SIMULTANEOUS, hook=False),
)
BLIND = KACHUFUL.evolve(
    name="kachuful-blind",
    parent="kachuful",
    bidding=BiddingRule(blind=True),
    scoring=ScoringRule(
        formula=Formula("if exact then (10 + bid) * (if blind then 2 else 1) else 0")
    ),
)
CALLBREAK = Variant(
    name="callbreak",
    title="Callbreak",
    players=PlayerRange(4, 4),
    schedule=ScheduleRule(start=HandSizeRule(), pattern=Pattern.SAME, count=5),
    trumps=TrumpRule(kind=TrumpKind.FIXED, suit=Suit.SPADES),
    bidding=BiddingRule(hook=False, min_bid=1, max_bid=8),
    play=PlayRule.from_flags(must_trump=True, must_beat=True),
    scoring=ScoringRule(
        formula=Formula("if tricks >= bid then bid + 0.1 * (tricks - bid) else -bid")
    ),
)
KAZHUTHA = Variant(
    name="kazhutha",
    title="Kazhutha",
    mode=Mode.SHEDDING,
    players=PlayerRange(3, 8),
    direction=Direction.ANTICLOCKWISE,
    schedule=ScheduleRule(pattern=Pattern.WHOLE_PACK),
    trumps=TrumpRule(kind=TrumpKind.NONE),
    bidding=BiddingRule(style=BidStyle.NONE, hook=False),
    play=PlayRule(first_leader=FirstLeader.HOLDER, lead_card=card("A♠"), first_lead=FirstLead.CARD),
    match=MatchRule(word="kazhutha"),
)
FACE_DOWN = KAZHUTHA.evolve(
    name="kazhutha-face-down",
    parent="kazhutha",
    shedding=SheddingRule(dead_tricks=DeadTricks.FACE_DOWN),
)

ALL = (KACHUFUL, ZON, OH_HELL, OH_HELL_13, NO_HOOK, FISTS, BLIND, CALLBREAK, KAZHUTHA, FACE_DOWN)


def table_after(page: str, heading: str) -> list[list[str]]:
    """The cells of the first Markdown table after ``heading`` (header row first)."""
    lines = page.splitlines()
    i = lines.index(heading)
    rows = []
    for line in lines[i + 1 :]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


# --------------------------------------------------------------------------- schedule


def test_kachuful_schedule_table_has_ka_chu_fu_l_trumps_and_sizes() -> None:
    page = rulebook(KACHUFUL, engine_examples=False)
    rows = table_after(page, "### Deal schedule")
    assert rows[0] == ["Hand", "Trumps", *(f"{n} players" for n in range(3, 8))]
    body = rows[1:-1]
    assert [r[1] for r in body[:5]] == [
        "spades ♠",
        "diamonds ♦",
        "clubs ♣",
        "hearts ♥",
        "spades ♠",
    ]
    for col, n in enumerate(range(3, 8), start=2):
        sizes = tuple(int(r[col]) for r in body if r[col] != "—")
        assert sizes == KACHUFUL.hand_sizes(n)
    assert rows[-1][2:] == ["**19**", "**19**", "**19**", "**15**", "**13**"]
    assert "| Hands in a game | 19 (3 to 5 players), 15 (6 players), 13 (7 players) |" in page


def test_schedule_for_one_player_count() -> None:
    page = rulebook(KACHUFUL, players=6, engine_examples=False)
    rows = table_after(page, "### Deal schedule")
    assert rows[0] == ["Hand", "Trumps", "Cards each"]
    assert [int(r[2]) for r in rows[1:-1]] == [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
    assert "| Hands in a game | 15 (6 players) |" in page


def test_players_outside_the_range_is_refused() -> None:
    with pytest.raises(ValueError, match="3 to 7 players, not 2"):
        rulebook(KACHUFUL, players=2)


def test_no_trump_cycle_entry_shows_as_no_trumps() -> None:
    rows = schedule_rows(ZON, [4])
    assert [r.trumps for r in rows[:6]] == [
        "spades ♠",
        "diamonds ♦",
        "clubs ♣",
        "hearts ♥",
        "no trumps",
        "spades ♠",
    ]


def test_turned_up_trump_hand_without_a_card_left_is_marked() -> None:
    rows = schedule_rows(OH_HELL_13, [4])
    assert [r.cards[4] for r in rows] == list(range(1, 14))
    # The 13-card hand uses the whole pack: no card to turn up, so no trumps.
    assert [r.trumps for r in rows] == ["turned-up card"] * 12 + ["no trumps"]
    assert [r.hand for r in rows if r.no_card] == [13]
    page = rulebook(OH_HELL_13, engine_examples=False)
    assert "| 13 | no trumps | 13 |" in page
    assert "played without trumps" in page


def test_hands_in_game_groups_equal_counts() -> None:
    assert hands_in_game(KACHUFUL, range(3, 8)) == (
        "19 (3 to 5 players), 15 (6 players), 13 (7 players)"
    )
    assert hands_in_game(CALLBREAK, [4]) == "5 (4 players)"


# --------------------------------------------------------------------------- bidding


def test_hook_example_matches_the_rule() -> None:
    usual, past = hook_examples(KACHUFUL, players=3)
    assert (usual.players, usual.cards, usual.others) == (3, 3, (1, 0))
    assert usual.forbidden == 2
    assert usual.allowed == (0, 1, 3)
    assert past.others == (2, 2)
    assert past.forbidden is None
    assert past.allowed == (0, 1, 2, 3)
    page = rulebook(KACHUFUL, engine_examples=False)
    assert "### The hook, worked through" in page
    assert "Chitra may bid 0, 1 or 3, but not 2." in page
    assert "may bid anything (0, 1, 2 or 3)" in page


def test_the_worked_hook_examples_of_the_oh_hell_sheet() -> None:
    """002_d103a11c6570c2d3.txt: 3 cards, bids 1, 0, 1 -> the dealer may bid 0, 2 or 3;
    bids 2, 1, 1 -> anything."""
    assert dealer_bids_by_rule(OH_HELL, 3, (1, 0, 1)) == (0, 2, 3)
    assert dealer_bids_by_rule(OH_HELL, 3, (2, 1, 1)) == (0, 1, 2, 3)
    assert dealer_bids_by_rule(NO_HOOK, 3, (1, 0, 1)) == (0, 1, 2, 3)


def test_no_hook_and_simultaneous_bidding_are_explained() -> None:
    page = rulebook(NO_HOOK, parent=OH_HELL, engine_examples=False)
    assert "The dealer may bid any number, even one that makes all the bids add up" in page
    assert "### The dealer's bid" in page
    fists = rulebook(FISTS, parent=OH_HELL, engine_examples=False)
    assert "Everyone bids at the same time" in fists
    assert "nobody bids last" in fists
    assert "### The hook" not in fists


# --------------------------------------------------------------------------- scoring


def test_scoring_table_is_the_formula() -> None:
    page = rulebook(KACHUFUL, engine_examples=False)
    rows = table_after(page, "### Scoring table")
    assert rows[0] == ["Bid ↓ / tricks taken →", "0", "1", "2", "3", "4"]
    grid = scoring_grid(KACHUFUL)
    for row in rows[1:]:
        bid = int(row[0].strip("*"))
        for tricks, cell in enumerate(row[1:]):
            assert cell.strip("*") == format_points(grid[bid, tricks])
    # The seed's table (000_05789f49e1c2534d.txt): 0/0 -> 10, 2/2 -> 12, 3/4 -> 0, 1/0 -> 0.
    assert grid[0, 0] == 10 and grid[2, 2] == 12 and grid[3, 4] == 0 and grid[1, 0] == 0


def test_scoring_table_of_a_game_with_a_minimum_bid_and_decimals() -> None:
    grid = scoring_grid(CALLBREAK)
    assert min(b for b, _ in grid) == 1
    assert grid[2, 3] == Fraction(21, 10)
    assert grid[3, 1] == -3
    assert format_points(grid[2, 3]) == "2.1"
    assert format_points(Fraction(-7, 4)) == "-1.75"
    assert format_points(Fraction(1, 3)) == "1/3"


def test_blind_bids_are_scored_in_words() -> None:
    page = rulebook(BLIND, parent=KACHUFUL, engine_examples=False)
    assert "an exact blind bid of 1 scores 22 (instead of 11)" in page


# --------------------------------------------------------------------------- differences


def test_differences_list_exactly_the_changed_rules() -> None:
    assert [d.label for d in differences(ZON, KACHUFUL)] == ["Trumps"]
    assert [d.label for d in differences(BLIND, KACHUFUL)] == ["Blind bids", "Scoring"]
    assert [d.label for d in differences(FISTS, OH_HELL)] == ["Bidding", "The hook"]
    assert [d.label for d in differences(OH_HELL_13, OH_HELL)] == ["Players", "Deal schedule"]
    assert differences(KACHUFUL, KACHUFUL) == []


def test_each_single_setting_change_is_reported() -> None:
    def with_setting(obj: object, path: list[str], value: object) -> object:
        if len(path) == 1:
            return attrs.evolve(obj, **{path[0]: value})  # type: ignore[misc]
        inner = with_setting(getattr(obj, path[0]), path[1:], value)
        return attrs.evolve(obj, **{path[0]: inner})  # type: ignore[misc]

    checked = 0
    for name, value in leaf_settings(KACHUFUL):
        if isinstance(value, bool):
            child = with_setting(KACHUFUL, name.split("."), not value)
            assert isinstance(child, Variant)
            diffs = differences(child, KACHUFUL)
            assert len(diffs) == 1 and diffs[0].settings == (name,), name
            assert diffs[0].here != diffs[0].parent, name
            checked += 1
    assert checked >= 8


def test_differences_section_comes_first_and_links_to_the_parent() -> None:
    """The object of the game, then the rules at a glance, then what this house rule
    changes, before the rules in full."""
    page = rulebook(ZON, parent=KACHUFUL, link="{name}.md", engine_examples=False)
    lines = page.splitlines()
    objective = next(i for i, line in enumerate(lines) if line.startswith("**The object"))
    assert lines[objective].startswith("**The object of the game:** take exactly the number of")
    assert objective < lines.index("## At a glance")
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:3] == ["## At a glance", "## Differences from Kachuful", "## The deal"]
    assert "This is [Kachuful](kachuful.md) with one rule changed." in page
    assert "- **Trumps:** Trumps change every hand in a fixed order: spades, diamonds, " in page
    default = rulebook(ZON, parent=KACHUFUL, engine_examples=False)
    assert "[Kachuful](../kachuful/)" in default


# --------------------------------------------------------------------------- shedding


def test_shedding_page_works_through_a_dead_trick_a_cut_and_the_letters() -> None:
    page = rulebook(KAZHUTHA)
    assert "### A dead trick and a cut, worked through" in page
    assert "the trick is dead" in page
    assert "so Ben picks up all four cards (5♥, 9♥, K♥ and A♣)" in page
    assert "worked through" not in rulebook(KAZHUTHA, engine_examples=False)
    assert "K-A-Z-H-U-T-H-A" in page
    rows = table_after(page, "## Match letters")
    assert rows[-1] == ["8", "K-A-Z-H-U-T-H-A"]
    assert "Whoever holds the A♠ leads the first trick and must lead the A♠." in page
    assert "anticlockwise" in page
    deal = table_after(page, "### Deal schedule")
    assert deal[1] == ["3", "18 for the first player after the dealer, 17 for the others"]
    assert deal[2] == ["4", "13 each"]
    assert "## Scoring" not in page and "hook" not in page.lower()


def test_face_down_dead_tricks_differ_in_words() -> None:
    diffs = differences(FACE_DOWN, KAZHUTHA)
    assert [d.label for d in diffs] == ["Dead tricks"]
    assert "face down" in diffs[0].here and "face up" in diffs[0].parent


# --------------------------------------------------------------------------- page


def test_page_ends_with_the_variant_file() -> None:
    page = rulebook(KACHUFUL, engine_examples=False)
    # The file is folded under its own summary line (issue 25, item 7).
    assert page.rstrip().endswith(
        "<summary>The file <code>kachuful.cardrules</code></summary>\n\n"
        '```text\ngame: kachuful\ntitle: "Kachuful"\n```\n\n</details>'
    )
    # Judgement is a game of its own here (issue 25): not shown as another name.
    assert page.startswith("# Kachuful\n\n**The object of the game:**")
    other = rulebook(attrs.evolve(KACHUFUL, aliases=("Kachufool",)), engine_examples=False)
    assert other.startswith("# Kachuful\n\n*Also called Kachufool.*")


def test_comparison_page_has_a_row_per_variant() -> None:
    """One table per family, each with only the columns in which its games differ."""
    import re

    from cardrules.rulebook.catalog import families
    from cardrules.rulebook.page_tables import comparison_rows

    for v in ALL:
        assert f'<a href="{v.name}.md">{v.title or v.name}</a>' in comparison_page(ALL)
    catalog = builtin_variants()
    page = comparison_page(catalog)
    tables = re.findall(r"<table.*?</table>", page, flags=re.S)
    fams = families(catalog)
    assert len(tables) == len(fams)
    assert sum(len(m) for m in fams.values()) == len(catalog)
    (callbreak,) = [t for t in tables if 'href="callbreak.md"' in t]
    header = re.findall(r"<th>(.*?)</th>", callbreak)
    # Callbreak and its variation differ only in the follow rule: the rest is said above.
    assert header == ["Game", "Follow rule"]
    assert "Every game here shares these rules: players: 4; trumps: always ♠" in page
    row = next(r for r in comparison_rows(ALL, "{name}.md") if "(callbreak.md)" in r[0])
    assert row[1:] == [
        "4",
        "always ♠",
        "13 cards every hand, 5 hands (4 players)",
        "no",
        "in turn",
        "at least the bid: bid + 0.1 a trick over; else -bid",
        "follow suit, trump when void, beat when able",
    ]
    shipped = next(r for r in comparison_rows(catalog, "{name}.md") if "(callbreak.md)" in r[0])
    cells = re.findall(r'<td data-label="Follow rule">(.*?)</td>', callbreak)
    assert cells[0] == shipped[7]
    kachuful = next(t for t in tables if 'href="kachuful.md"' in t)
    assert "<th>Players</th>" not in kachuful and "<th>Scoring</th>" in kachuful


# --------------------------------------------------------------------------- plain English

#: Every scoring formula of the built-in variants (and one written the other way
#: round), with its sentence on the rules page and its words in the comparison table.
SCORING_WORDS = {
    "if exact then 10 + bid else 0": (
        "If you take exactly as many tricks as you bid, you score 10 plus your bid; "
        "otherwise, you score nothing.",
        "made: 10 + bid; else 0",
    ),
    "if exact then 10 + bid else -diff": (
        "If you take exactly as many tricks as you bid, you score 10 plus your bid; "
        "otherwise, you lose 1 point for each trick you are over or under your bid.",
        "made: 10 + bid; else -1 a trick off",
    ),
    "if exact then 10 + bid else -bid": (
        "If you take exactly as many tricks as you bid, you score 10 plus your bid; "
        "otherwise, you lose as many points as you bid.",
        "made: 10 + bid; else -bid",
    ),
    "if exact then 10 else -10": (
        "If you take exactly as many tricks as you bid, you score 10; otherwise, you lose 10.",
        "made: 10; else -10",
    ),
    "tricks + (if exact then 10 else 0)": (
        "You score 1 point for each trick you take, plus 10 if you take exactly as many "
        "tricks as you bid.",
        "1 a trick + 10 if made",
    ),
    "tricks + (if exact then (if bid = 0 then 5 else 10) else 0)": (
        "You score 1 point for each trick you take, plus a bonus if you take exactly as many "
        "tricks as you bid: 10, or 5 if you bid zero.",
        "1 a trick + 10 (5 if bid 0) if made",
    ),
    "if tricks >= bid then bid + 0.1 * (tricks - bid) else -bid": (
        "If you take at least as many tricks as you bid, you score your bid plus 0.1 points "
        "for each trick over your bid; otherwise, you lose as many points as you bid.",
        "at least the bid: bid + 0.1 a trick over; else -bid",
    ),
    "if exact then (if blind then 2 else 1) * (10 + bid) else 0": (
        "If you take exactly as many tricks as you bid, you score 10 plus your bid, doubled "
        "if you bid blind; otherwise, you score nothing.",
        "made: 10 + bid, ×2 if blind; else 0",
    ),
    "if exact then (10 + bid) * (if blind then 2 else 1) else 0": (
        "If you take exactly as many tricks as you bid, you score 10 plus your bid, doubled "
        "if you bid blind; otherwise, you score nothing.",
        "made: 10 + bid, ×2 if blind; else 0",
    ),
    "if exact then (if bid = 0 then 10 else 10 * bid) else -10 * diff": (
        "If you take exactly as many tricks as you bid, you score 10 times your bid, or 10 if "
        "you bid zero; otherwise, you lose 10 points for each trick you are over or under "
        "your bid.",
        "made: 10 × bid (10 if bid 0); else -10 a trick off",
    ),
    "if exact then 10 + bid + (if bid = cards then 10 else 0) else 0": (
        "If you take exactly as many tricks as you bid, you score 10 plus your bid, plus 10 "
        "if you bid every trick in the hand; otherwise, you score nothing.",
        "made: 10 + bid + 10 if bid all; else 0",
    ),
}


@pytest.mark.parametrize("text", sorted(SCORING_WORDS))
def test_scoring_formulas_read_as_plain_english(text: str) -> None:
    from cardrules.rulebook.formula import formula_sentence, formula_short

    sentence, short = SCORING_WORDS[text]
    assert formula_sentence(Formula(text)) == sentence
    assert formula_short(Formula(text)) == short


def test_every_builtin_formula_has_words() -> None:
    """A built-in scoring rule never reaches a page as a formula."""
    from cardrules.rulebook.formula import formula_sentence, formula_short

    for v in builtin_variants():
        f = v.scoring.formula
        if f is None:
            continue
        for words in (formula_sentence(f), formula_short(f)):
            assert " then " not in words and "`" not in words and "diff" not in words, v.name


#: Programming words that must never reach a family's rules page.
JARGON = [
    r"\bNone\b",
    r"\bTrue\b",
    r"\bFalse\b",
    r"\b[A-Z][a-z]+Kind\b",
    r"\b[A-Z][A-Za-z]+\.[A-Z_]{2,}\b",
    r"\b[a-z]+_[a-z_]+\b",
    r"`",
    r"\bthen\b.*\belse\b",
    r"\bdiff\b",
]


def _jargon(text: str) -> str | None:
    for pattern in JARGON:
        found = re.search(pattern, text)
        if found is not None:
            return text[max(0, found.start() - 60) : found.end() + 60]
    return None


def test_pages_are_plain_english_above_the_variant_file() -> None:
    variants = builtin_variants()
    for v in variants:
        page = rulebook(v, engine_examples=False)
        prose = page.split("## Options")[0].split("## The variant file")[0]
        assert _jargon(prose) is None, (v.name, _jargon(prose))
    comparison = re.sub(r"\]\([^)]*\)", "]", comparison_page(variants))
    assert _jargon(comparison) is None, _jargon(comparison)


def test_cardrules_rulebook_is_callable_after_importing_a_page_module() -> None:
    """The pages live in the package ``cardrules.rulebook`` (issue 11); importing one
    of its modules must not turn ``cardrules.rulebook(variant)`` into a module."""
    import importlib

    import cardrules

    importlib.import_module("cardrules.rulebook.words")
    assert cardrules.rulebook(cardrules.load("kachuful")).startswith("# Kachuful")


def test_a_game_that_ends_at_a_target_says_so_never_its_hands_bound() -> None:
    """Regression: Euchre's page said "Hands in a game: 200" and "The game is 200
    hands" although it ends once a side reaches 10 points; issue 25: a bound beside
    a target is never the game's length ("until a side reaches 10 points")."""
    targets = [v for v in builtin_variants() if v.winning.target is not None]
    assert {"euchre", "spades", "hearts", "whist"} <= {v.name for v in targets}
    for v in targets:
        page = rulebook(v, engine_examples=False)
        assert "| Hands in a game | no fixed number: play until " in page, v.name
        assert f"reaches {v.winning.target} points" in page, v.name
        assert "ends sooner" not in page and "| **Hands in a game** |" not in page, v.name
    plain = rulebook(
        next(v for v in builtin_variants() if v.name == "oh-hell"), engine_examples=False
    )
    assert "ends sooner" not in plain and "| Hands in a game | 19 " in plain


def test_a_plural_quantity_takes_a_plural_verb() -> None:
    # Regression: Hearts' page said "if your points is the points everyone takes".
    from cardrules.rulebook.formula import formula_sentence
    from cardrules.scoring import Formula

    words = formula_sentence(Formula("if points = all_points then 0 else points"))
    assert "your points are the points everyone takes" in words
    assert "your points is" not in words
