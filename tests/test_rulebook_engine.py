"""The tables of the rules pages agree with what the engine actually does.

For every built-in variant: the deal schedule printed on its page is the
hands a Game deals (sizes and trumps, hand by hand, for every allowed number
of players); the scoring table is what the engine scores; the hook example's
allowed bids are the engine's legal bids; the worked hand is the engine's.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import attrs
import pytest

from cardrules.cards import Suit
from cardrules.cli import main
from cardrules.engine import Bid, Game, Look
from cardrules.engine.actions import Contract
from cardrules.rulebook import builtin_variants, rulebook
from cardrules.rulebook.hand import play_worked_hand, simple_choice
from cardrules.rulebook.length import length_is_a_guard
from cardrules.rulebook.page_tables import format_points, score
from cardrules.rulebook.play_examples import hook_examples, one_hand_variant
from cardrules.rules import Mode, Variant
from cardrules.scoring import score_env

VARIANTS = builtin_variants()
TRICKS = [v for v in VARIANTS if v.mode is Mode.TRICKS]
#: Games scored seat by seat by one formula on tricks and bids alone, whose pages
#: carry a scoring table (games with teams, a team score or counters are scored
#: in words instead, and a game scored on card points taken has none: the score
#: is not a function of the tricks).
TABLED = [
    v
    for v in TRICKS
    if not (
        v.teams or v.scoring.team_formula is not None or v.scoring.counters or v.scoring.card_points
    )
]
SUITS = {f"{s.word} {s.symbol}": s for s in Suit}


def ids(vs: list[Variant]) -> list[str]:
    return [v.name for v in vs]


def table_after(page: str, heading: str) -> list[list[str]]:
    """The cells of the first Markdown table after ``heading`` (header row first)."""
    lines = page.splitlines()
    i = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[i + 1 :]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


def dealt(v: Variant, players: int, seed: int = 3) -> list[tuple[int, Suit | None, Any]]:
    """(cards each, trump, turned-up card) of every scheduled hand a whole game deals
    (a game that knocks players out is played without the knock-outs, so that it
    deals its whole schedule, the most it can deal)."""
    if v.winning.knockout_below:
        v = v.evolve(winning=attrs.evolve(v.winning, knockout_below=0, last_one_in=False))
    g = Game(v, players=players, seed=seed)
    while not g.is_over:
        g.apply(simple_choice(g), g.to_act)
    deals = [e for e in g.events if e[0] == "deal"]
    trumps = {e[1]: (e[2], e[3]) for e in g.events if e[0] == "trump"}
    made = {e[1]: e[3] for e in g.events if e[0] == "made"}  # trumps a player chose
    out = []
    for e in deals[: len(v.hand_sizes(players))]:
        hand, size = e[1], e[3]
        trump, turned = trumps[hand]
        out.append((size, made.get(hand, trump), turned))
    return out


def label_for(text: str, players: int) -> str:
    """The trumps of one count from the trumps column: ``"turned-up card; no trumps for
    4 players"`` gives ``"no trumps"`` for 4 and ``"turned-up card"`` for the others."""
    main, *others = text.split("; ")
    for part in others:
        label, _, who = part.partition(" for ")
        numbers: set[int] = set()
        for lo, hi in re.findall(r"(\d+)(?: (?:to|or) (\d+))?", who):
            numbers.update(range(int(lo), int(hi or lo) + 1))
        if players in numbers:
            return label
    return main


@pytest.mark.parametrize("v", TRICKS, ids=ids(TRICKS))
def test_schedule_table_is_what_the_engine_deals(v: Variant) -> None:
    page = rulebook(v, engine_examples=False)
    rows = table_after(page, "### Deal schedule")
    header, body = rows[0], rows[1:-1]
    guard = length_is_a_guard(v)
    if guard:
        # Played to a target (issue 25): one row for every hand, no count of hands.
        assert [r[0] for r in rows[1:]] == ["every hand"]
        body = rows[1:] * len(v.hand_sizes(v.players.min))
    # A game whose hands never have trumps has no trumps column.
    first = 2 if header[1] == "Trumps" else 1
    if len(v.players.counts()) == 1:
        # One table size: a single "Cards each" column.
        assert header[first:] == ["Cards each"]
        counts = [v.players.min]
    else:
        counts = [int(h.split()[0]) for h in header[first:]]
    assert counts == list(v.players.counts())
    for col, n in enumerate(counts, start=first):
        hands = dealt(v, n)
        printed = [(r[1] if first == 2 else "no trumps", r[col]) for r in body if r[col] != "—"]
        assert len(printed) == len(v.hand_sizes(n))
        assert guard or rows[-1][col] == f"**{len(printed)}**"
        # A game with a target may end before its schedule does: the hands it
        # dealt are the first of the table.
        assert len(hands) == len(printed) or (
            v.winning.target is not None and len(hands) < len(printed)
        )
        for (column, cell), (size, trump, turned) in zip(printed, hands, strict=False):
            assert int(cell) == size
            label = label_for(column, n)
            if label == "turned-up card":
                # A special card turned up (issue 23) makes what its rule says.
                assert turned is not None and (turned.is_special or trump == turned.suit)
            elif label == "ordered up or named":
                assert turned is not None  # offered; the suit is chosen by a player
            elif label.startswith("named by ") or label == "the suit of the winning bid":
                assert turned is None  # no card turned: a player names the suit
            elif label == "dealer's last card":
                # A special card turned up (issue 23) makes what its rule says.
                assert turned is not None and (turned.is_special or trump == turned.suit)
            elif label == "no trumps":
                assert trump is None
            else:
                assert trump == SUITS[label]


def test_trumps_column_per_count_is_what_the_engine_deals() -> None:
    """With the largest hands the pack allows, four players get 13 cards in the first
    hand and nothing is left to turn up: that hand has no trumps for four players only."""
    import cardrules

    v = cardrules.load("oh-hell", hand_size="largest")
    page = rulebook(v, engine_examples=False)
    rows = table_after(page, "### Deal schedule")
    assert rows[1][1] == "turned-up card; no trumps for 4 players"
    for n in v.players.counts():
        size, trump, _ = dealt(v, n)[0]
        assert (trump is None) is (n == 4) is (size * n == 52), n
        assert label_for(rows[1][1], n) == ("no trumps" if n == 4 else "turned-up card")


def test_kachuful_trumps_go_ka_chu_fu_l() -> None:
    kachuful = next(v for v in VARIANTS if v.name == "kachuful")
    trumps = [t for _, t, _ in dealt(kachuful, 4)]
    cycle = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS]
    assert trumps == [cycle[i % 4] for i in range(19)]


def _play_one_hand(v: Variant, seed: int) -> list[tuple[int, int, Fraction]]:
    """Random bids and plays in one 4-card hand for 4 players; (bid, tricks, points) per seat."""
    rng = random.Random(seed)
    g = Game(one_hand_variant(v, 4, 4), players=4, seed=seed)
    while not g.is_over:
        actions = g.legal_actions()
        if Look() in actions:
            g.apply(Look(), g.to_act)
            continue
        choices = [a for a in actions if not (isinstance(a, Bid) and a.blind)]
        g.apply(rng.choice(choices), g.to_act)
    ev = next(e for e in g.events if e[0] == "score")
    return list(zip(ev[2], ev[3], ev[4], strict=True))


def test_a_card_points_game_has_no_scoring_table() -> None:
    points = [v for v in TRICKS if v.scoring.card_points]
    assert points
    for v in points:
        assert "### Scoring table" not in rulebook(v, engine_examples=False)


@pytest.mark.parametrize("v", TABLED, ids=ids(TABLED))
def test_scoring_table_is_what_the_engine_scores(v: Variant) -> None:
    page = rulebook(v, engine_examples=False)
    if "### Scoring table" not in page:
        # No table when the points do not follow from one player's bid and tricks.
        assert v.scoring.formula is not None
        assert v.scoring.formula.uses() & {
            "points",
            "all_points",
            "most_points",
            "maker",
            "maker_tricks",
        }
        return
    rows = table_after(page, "### Scoring table")
    # With bids, a row per bid; without, one row of points by tricks taken.
    printed = {
        (int(r[0].strip("*")) if v.has_bidding else 0, t): cell.strip("*")
        for r in rows[1:]
        for t, cell in enumerate(r[1:])
    }
    seen: set[tuple[int, int]] = set()
    for seed in range(150):
        for bid, tricks, points in _play_one_hand(v, seed):
            bid = bid or 0
            assert printed[bid, tricks] == format_points(Fraction(points)), (bid, tricks)
            seen.add((bid, tricks))
    assert len(seen) >= (8 if v.has_bidding else 4)  # a good part of the table


@pytest.mark.parametrize("v", TRICKS, ids=ids(TRICKS))
def test_hook_example_comes_from_the_engine(v: Variant) -> None:
    for ex in hook_examples(v):
        assert ex.by_engine
        if v.bidding.hook:
            gap = ex.cards - sum(ex.others)
            assert gap not in ex.allowed or gap < 0 or gap > ex.cards
            assert set(ex.allowed) | ({gap} if 0 <= gap <= ex.cards else set()) == set(
                range(ex.cards + 1)
            )


@pytest.mark.parametrize("v", TRICKS, ids=ids(TRICKS))
def test_worked_hand_on_the_page_is_the_engines(v: Variant) -> None:
    page = rulebook(v)
    n = min(max(4, v.players.min), v.players.max)
    w = play_worked_hand(v, n)
    assert f"**Hand {w.hand}:** {w.size} cards each" in page
    rows = table_after(page, "## A worked hand")
    passes = ["Passes"] if v.passing.count else []
    assert rows[0] == ["Player", "Cards dealt", *passes, *(["Bid"] if v.has_bidding else [])]
    if passes:
        # Each seat's passed cards and their receiver, as the engine passed them.
        assert w.passed and w.pass_to
        for s in range(n):
            assert rows[1 + s][2].endswith(f" to {rows[1 + w.pass_to[s]][0]}")
    made = w.maker is not None and v.scoring.formula is not None
    for s in range(n):
        if v not in TABLED:  # partners score alike (test_catalog_spades checks the points)
            assert all(w.points[p] == w.points[s] for p in v.team_of(s))
        elif made:
            assert w.maker is not None and v.scoring.formula is not None
            # An auction of contracts: the winning bid (the last contract called)
            # is the hand's contract, its strain's place in the file's list.
            bids = [a for _, a in w.calls if isinstance(a, Contract)]
            won = bids[-1] if bids else None
            contract: tuple[int, bool, bool, bool, int, bool] = (0, False, False, False, -1, False)
            if won is not None:
                place = v.bidding.strains.index(won.strain)
                contract = (won.level, False, won.strain == 4, False, place, False)
            env = score_env(
                bid=w.bids[s] or 0,
                tricks=w.won[s],
                cards=w.size,
                hand=w.hand,
                players=n,
                maker=s == w.maker,
                maker_tricks=w.won[w.maker],
                contract=contract,
            )
            assert v.scoring.formula.evaluate(env) == w.points[s]
        else:
            points = score(
                v, bid=w.bids[s] or 0, tricks=w.won[s], cards=w.size, hand=w.hand, players=n
            )
            assert points == w.points[s]
        assert f"| {format_points(w.points[s])} | {format_points(w.totals[s])} |" in page
    assert sum(w.won) == w.size
    assert len(w.tricks) == w.size


def test_rules_command_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "kachuful", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Kachuful\n")
    assert "| Hand | Trumps | Cards each |" in out
    assert main(["rules", "oh-hell", "--set", "hook=off"]) == 0
    assert "The dealer may bid any number" in capsys.readouterr().out
    assert main(["rules", "kachuful", "--players", "2"]) == 1
    assert "3 to 7 players, not 2" in capsys.readouterr().err


def test_rules_command_says_which_options_were_set(capsys: pytest.CaptureFixture[str]) -> None:
    """``--set`` options are named near the top of the page, in words read from the
    variant as changed, and the page itself follows them."""
    assert main(["rules", "kachuful", "--set", "hook=off", "--set", "hand size=7"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    note = "**Played here with:** hook off, 7 cards in the first hand."
    i = next(k for k, line in enumerate(lines) if line.startswith(note))
    assert i < lines.index("## At a glance")
    assert "The dealer may bid any number" in out
    # A name given twice keeps its last value; underscores read as spaces.
    args = ["rules", "kazhutha", "--set", "dead_tricks=face up", "--set", "dead tricks=face down"]
    assert main([*args, "--set", "match word=DONKEY"]) == 0
    out = capsys.readouterr().out
    assert (
        "**Played here with:** dead tricks put aside face down, the match word D-O-N-K-E-Y." in out
    )
    assert out.count("Played here with") == 1 and "face up," not in out.split("##")[0]
    # Without --set there is no note.
    assert main(["rules", "kachuful"]) == 0
    assert "Played here with" not in capsys.readouterr().out
