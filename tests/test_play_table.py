"""An evening at one terminal (issue 25, items 8 to 12): the recap's leader by
the game's own winner rule, score sheets with the game's columns, several people
at one screen, seats counted from 1, passing several cards at once, bot levels."""

from __future__ import annotations

import io
import re
import sys
from fractions import Fraction

import pytest

import cardrules
from cardrules.bots import HeuristicBot, PIMCBot, RandomBot, play_game
from cardrules.cli import main
from cardrules.commands.play import (
    HARD_BUDGET,
    Table,
    _Session,
    help_text,
    leaders,
    make_player_bot,
    narrate,
    rewards_exact_bid,
    score_sheet,
    seats_from_one,
)
from cardrules.dsl.loader import builtin_names
from cardrules.engine import Game

CYCLE = "".join(f"{k}\n" for _ in range(400) for k in range(1, 11))
TRICK_GAMES = [n for n in builtin_names() if cardrules.load(n).mode.value != "shedding"]


def _played(name: str, players: int | None = None, seed: int = 1) -> Game:
    v = cardrules.load(name)
    n = players or v.players.min
    g = Game(v, players=n, seed=seed)
    play_game(g, [HeuristicBot(seed=s) for s in range(n)])
    return g


def _names(players: int) -> list[str]:
    return ["You", *(f"Bot {s + 1}" for s in range(1, players))]


@pytest.mark.parametrize("variant", TRICK_GAMES)
def test_every_recap_names_the_leader_by_the_games_winner_rule(variant: str) -> None:
    """Issue 25 item 8: Hearts' recap named the highest total ("Bot 3 leads with
    13" while Bot 2 had 0). After every hand of every built-in, the leader the
    recap names is the best total by the game's `winner:` rule, and at the end
    the same rule names the engine's winners."""
    g = _played(variant)
    v = g.variant
    session = _Session(g, [0], "heuristic", out=io.StringIO(), save_path=None, meta={})
    gone: set[int] = set()
    for i, ev in enumerate(g.events):
        if ev[0] == "knocked out":
            gone.add(ev[1])
        if ev[0] != "score":
            continue
        recap = session.recap(g.events[: i + 1], ev)
        totals = ev[5]
        seats = [s for s in range(g.players) if not (v.winning.last_one_in and s in gone)]
        best = (max if v.scoring.higher_wins else min)(totals[s] for s in seats)
        expected = [session.t.name(s) for s in seats if totals[s] == best]
        found = re.search(r"\. (.+?) (?:leads?|share the lead) with (-?[\d/]+)", recap)
        assert found is not None, recap
        assert found.group(1).split(", ") == expected, recap
        assert Fraction(found.group(2)) == best
        assert ("(lowest wins)" in recap) != v.scoring.higher_wins
    res = g.result
    assert res is not None
    if res.finished:
        out = {ev[1] for ev in g.events if ev[0] == "knocked out"}
        assert tuple(leaders(v, res.totals, out)) == res.winners


def test_the_hearts_recap_names_the_lowest_total() -> None:
    g = Game(cardrules.load("hearts"), players=4, seed=1)
    session = _Session(g, [0], "heuristic", out=io.StringIO(), save_path=None, meta={})
    ev = (
        "score",
        1,
        (None,) * 4,
        (3, 5, 4, 1),
        tuple(map(Fraction, (0, 13, 13, 0))),
        tuple(map(Fraction, (4, 13, 0, 9))),
    )
    recap = session.recap([ev], ev)
    assert recap == (
        "Hand 1 over: you took 3 tricks, scoring 0. Bot 3 leads with 0 (lowest wins); you have 4."
    )
    assert leaders(g.variant, [4, 13, 0, 9]) == [2]
    assert leaders(cardrules.load("oh-hell"), [4, 13, 0, 9]) == [1]


def test_the_score_sheets_take_their_columns_from_the_game() -> None:
    """Issue 25 item 9: no bid/won in Hearts (the points taken); Spades' bags by
    name and no exact-bid mark (its scoring rewards a bid made or beaten); the
    maker's mark in Euchre; the mark in Oh Hell, whose scoring rewards an exact bid."""
    hearts = _played("hearts", 4)
    sheet = score_sheet(hearts.events, Table(_names(4)), variant=hearts.variant)
    assert "bid/won" not in sheet and "points total" in sheet
    first = next(ev for ev in hearts.events if ev[0] == "score")
    row = sheet.splitlines()[3].split("|")[1:]
    assert [c.split()[0] for c in row] == [str(p) for p in first[4]]  # the points, not tricks

    spades = _played("spades", 4)
    sheet = score_sheet(spades.events, Table(_names(4)), variant=spades.variant)
    assert "bags" in sheet and "✓" not in sheet and "made it" not in sheet
    assert all(len(line) <= 80 for line in sheet.splitlines())
    bags = [ev for ev in spades.events if ev[0] == "counters"]
    assert bags and narrate(bags[0], Table(_names(4))).startswith("Bags after hand 1: You ")

    euchre = _played("euchre", 4)
    sheet = score_sheet(euchre.events, Table(_names(4)), variant=euchre.variant)
    assert "won total" in sheet and "M " in sheet and "bid" not in sheet

    oh_hell = _played("oh-hell", 4)
    sheet = score_sheet(oh_hell.events, Table(_names(4)), variant=oh_hell.variant)
    assert "bid/won total" in sheet and "✓" in sheet
    assert [rewards_exact_bid(cardrules.load(n)) for n in ("oh-hell", "spades", "callbreak")] == [
        True,
        False,
        False,
    ]


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_spades_prints_no_debug_line_and_shows_bags(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each hand: look at the cards (Spades lets a player bid blind nil first), then
    # the numbers from 1 up: a bid, then cards by their number in the hand.
    stdin = "".join("look\n" + "".join(f"{k}\n" for k in range(1, 14)) for _ in range(60))
    code, out, _ = _run(monkeypatch, capsys, ["play", "spades", "--seed", "2"], stdin)
    assert code == 0 and "Traceback" not in out
    assert "Hand 1 over:" in out
    assert "counters:" not in out and "('bags',)" not in out
    assert "bags" in out and "✓" not in out


def test_several_cards_are_passed_at_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ah ac ad` was refused ("'hacad' is not a suit"): each word is a card to pass."""
    g = Game(cardrules.load("hearts"), players=4, seed=3)
    hand = sorted(g.view(0).hand or ())
    words = " ".join(c.code.lower() for c in hand[:3])
    code, out, _ = _run(
        monkeypatch, capsys, ["play", "hearts", "--seed", "3"], f"{words}\nquit\ny\n"
    )
    assert code == 0 and "is not a suit" not in out
    for c in hand[:3]:
        assert f"You choose {c} to pass" in out
    assert "The passed cards change hands: You pass" in out


def test_help_always_lists_undo_and_says_when_it_is_available() -> None:
    v = cardrules.load("oh-hell")
    assert "undo           not in this game: start it with --take-backs" in help_text(v, undo=None)
    assert "take back your last action (take backs: always)" in help_text(v, undo="always")
    assert "not in a match" in help_text(cardrules.load("kazhutha"), undo="always", match=True)


def test_two_people_at_one_table_through_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--humans 1,3`: seats 1 and 3 are people, named by their seats; without a
    screen to hide (a pipe) each turn is announced; the others are bots."""
    argv = ["play", "oh-hell", "--players", "4", "--seed", "3", "--humans", "1,3"]
    code, out, _ = _run(monkeypatch, capsys, argv, CYCLE)
    assert code == 0 and "Traceback" not in out
    assert "At this screen: Player 1, Player 3; the others are heuristic bots." in out
    assert "--- Player 1's turn ---" in out and "--- Player 3's turn ---" in out
    assert re.search(r"Player 1 bids \d", out) and re.search(r"Player 3 bids \d", out)
    assert re.search(r"Bot 2 bids \d", out) and "Bot 1 " not in out
    assert "You bid" not in out and "You play" not in out  # the narration names each person
    assert re.search(r"Hand 1 over: Player 1 bid \d+ and [^;]+; Player 3 bid \d+", out)
    assert "Final totals: Player 1 " in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--humans", "1,5"], "--humans must be from 1 to 4, not 5"),
        (["--humans", "2,2"], "--humans names a seat twice"),
        (["--humans", "x"], "--humans takes seats from 1 to 4"),
        (["--humans", "1", "--seat", "2"], "give --seat or --humans, not both"),
        (["--seat", "0"], "--seat must be from 1 to 4, not 0"),
        (["--level", "hard", "--bots", "random"], "give --bots or --level, not both"),
    ],
)
def test_seats_and_levels_are_refused_with_a_reason(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    code, _, err = _run(monkeypatch, capsys, ["play", "oh-hell", "--players", "4", *argv], "")
    assert code == 2 and message in err


def test_levels_choose_the_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert isinstance(make_player_bot("random", 1, "easy"), RandomBot)
    assert isinstance(make_player_bot("heuristic", 1, "normal"), HeuristicBot)
    hard = make_player_bot("pimc", 1, "hard")
    assert isinstance(hard, PIMCBot) and hard.time_limit == HARD_BUDGET < 1
    code, out, _ = _run(
        monkeypatch, capsys, ["play", "oh-hell", "--seed", "1", "--level", "easy"], "quit\n"
    )
    assert code == 0 and "the others are easy (random) bots" in out


def test_engine_messages_count_seats_from_1() -> None:
    assert seats_from_one("seat 0 does not hold A♥") == "seat 1 does not hold A♥"
    assert seats_from_one("Seats 3 and 4") == "Seats 4 and 4"  # only the number after the word


def test_a_shedding_game_pauses_when_a_player_goes_out() -> None:
    """Issue 25 item 11: after a player went out in Kazhutha, about 40 lines of
    play scrolled past; now the table waits for Enter (on a terminal)."""
    g = Game(cardrules.load("kazhutha"), players=4, seed=1)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    while not any(ev[0] == "out" for ev in g.events):
        seat = g.to_act if g.to_act is not None else min(g.waiting_for)
        g.apply(bots[seat].choose(g.view(seat)), seat)
    assert not g.is_over
    out = io.StringIO()
    session = _Session(g, [0], "heuristic", out=out, save_path=None, meta={}, pause=True)
    waits: list[str] = []
    session.wait = waits.append  # type: ignore[method-assign]
    session.catch_up()
    assert waits == ["the rest of the game"]
    assert out.getvalue().rstrip().endswith("no cards left: out and safe")
