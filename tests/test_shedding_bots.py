"""Bots, ``simulate`` and ``cardrules play`` on real Kazhutha games.

Rules: seed ``001_e4032eef84513c77.txt`` (Kazhutha rules).
"""

from __future__ import annotations

import io
import json
import math
import re
import sys
from pathlib import Path

import attrs
import pytest
from test_bots import _shed_view

import cardrules
from cardrules.bots import HeuristicBot, RandomBot, play_game
from cardrules.cards import card
from cardrules.cli import main
from cardrules.engine import Game, Match, Play
from cardrules.simulate import DEFAULT_MAX_TRICKS, simulate

# --------------------------------------------------------------------------- bots


def test_bots_play_whole_games_of_every_file() -> None:
    for name in ("kazhutha", "donkey", "kazhutha-face-down", "kazhutha-any-spade",
                 "kazhutha-neighbour-leads", "kazhutha-loser-deals"):  # fmt: skip
        for players in (3, 8):
            g = Game(cardrules.load(name), players=players, seed=players)
            play_game(g, [HeuristicBot(), *(RandomBot(s) for s in range(1, players))])
            assert g.is_over and g.result is not None and g.result.finished


def test_heuristic_uses_the_picked_up_cards_it_saw() -> None:
    """Seat 3 leads with 2♥ 2♣. The only hearts not yet dead are K♥ Q♥ J♥: on its
    own, a heart lead would likely be cut, so it leads the club; once it has seen
    seats 0, 1 and 2 pick up one of them each (``known_hands``), a heart lead is a
    sure dead trick."""
    gone = "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ A♥"
    v = _shed_view("2♥ 2♣", [], (5, 5, 5, 2), gone=gone)
    assert HeuristicBot().choose(v) == Play("2♣")
    known = tuple((s, (card(f"{r}♥"),)) for s, r in ((0, "K"), (1, "Q"), (2, "J")))
    seen = attrs.evolve(v, known_hands=known, out=(False,) * 4)
    assert HeuristicBot().choose(seen) == Play("2♥")


def test_heuristic_is_rarely_the_kazhutha() -> None:
    """One Heuristic against three Randoms, 300 seeded 4-player games: a fair seat
    is the kazhutha 25% of the time; the Heuristic far less (about 3%, see the
    report; one standard error at 25% over 300 games is 2.5%)."""
    s = simulate("kazhutha", 4, 300, ["heuristic", "random"], seed=2024)
    assert s.games == s.finished == 300 and s.mode == "shedding"
    assert sum(s.losers) + s.no_loser == 300
    assert s.loser_rate(0) < 0.08
    assert min(s.loser_rate(k) for k in (1, 2, 3)) > 0.15
    se = math.sqrt(0.25 * 0.75 / 300)
    assert 0.25 - s.loser_rate(0) > 7 * se


# --------------------------------------------------------------------------- simulate


def test_simulate_counts_dead_tricks_and_pickups_as_tricks() -> None:
    s = simulate("kazhutha", 4, 20, "random", seed=3)
    lengths = []
    plays = 0
    from cardrules.simulate import game_seed

    for i in range(20):
        g = Game(cardrules.load("kazhutha"), 4, seed=game_seed(3, i), max_tricks=DEFAULT_MAX_TRICKS)
        bots = [RandomBot(game_seed(3, i, seat)) for seat in range(4)]
        play_game(g, bots)
        lengths.append(sum(1 for e in g.events if e[0] in ("dead", "pickup")))
        plays += sum(1 for e in g.events if e[0] == "play")
    assert s.tricks == sum(lengths) and s.hands == 20
    assert dict(s.length_counts) == {k: lengths.count(k) for k in set(lengths)}
    assert s.actions == plays


def test_simulate_bounds_games_by_default() -> None:
    import inspect

    assert inspect.signature(simulate).parameters["max_tricks"].default == DEFAULT_MAX_TRICKS
    s = simulate("kazhutha", 6, 10, "random", seed=1, max_tricks=5)
    assert s.games == 10 and s.unfinished == 10 and s.finished == 0
    assert s.tricks == 50 and s.to_dict()["unfinished"] == 10


def test_simulate_command_prints_losers_and_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "kazhutha", "--players", "4", "--games", "200", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("kazhutha: 200 games, 4 players, seed 0\n")
    assert "unfinished" not in out.splitlines()[0]
    rows = re.findall(r"^ +(\d)  heuristic +(\d+) +([\d.]+)%$", out, re.M)
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    m = re.search(r"games with no loser: (\d+)", out)
    assert m and sum(int(r[1]) for r in rows) + int(m.group(1)) == 200
    m = re.search(r"tricks per game: (\d+) to (\d+), [\d.]+ on average, median (\d+), "
                  r"99th percentile (\d+)", out)  # fmt: skip
    assert m and int(m[1]) <= int(m[3]) <= int(m[4]) <= int(m[2])
    assert "unfinished games (stopped by the trick limit): 0" in out
    code = main(["simulate", "kazhutha", "--players", "4", "--games", "20", "--json",
                 "--bots", "heuristic,random", "--no-progress"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "shedding" and sum(data["game_lengths"].values()) == 20
    assert sum(seat["lost"] for seat in data["seats"]) + data["no_loser"] == 20


# --------------------------------------------------------------------------- play

#: Every prompt tries card 1, 2, ... 52 until one is legal.
CYCLE = "".join(f"{k}\n" for _ in range(200) for k in range(1, 53))


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_a_whole_kazhutha_game_through_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, ["kazhutha", "--seed", "3"], CYCLE)
    assert code == 0 and err == "" and "Traceback" not in out
    assert "Kazhutha: 4 players. You are seat 1; the others are heuristic bots." in out
    assert "Trumps" not in out and "Bids:" not in out and "Final totals" not in out
    assert re.search(r"seat +You( +Bot \d){3}\ncards +13 +13 +13 +13\n", out)
    assert "-> dead trick, out of the game;" in out
    assert re.search(r"-> (Bot \d cuts|You cut): (Bot \d picks|You pick) up ", out)
    assert re.search(r"(Bot \d holds|You hold) \(picked up\): ", out)
    assert "has no cards left: out and safe" in out
    assert "Not allowed: must follow" in out
    end = out.rstrip().splitlines()[-1]
    assert re.fullmatch(
        r"(You are|Bot \d is) left holding cards: the kazhutha\.|You are safe\."
        r"|Everyone went out together: nobody is the kazhutha\.",
        end,
    )


def test_play_a_whole_match_shows_the_letters(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "m.json"
    argv = ["donkey", "--match", "--players", "3", "--seed", "4", "--bots", "random"]
    # Play a few cards, quit (saving), then continue the match to its end.
    code, out, _ = run(monkeypatch, capsys, [*argv, "--save", str(save)], "1\n1\nquit\n")
    assert code == 0 and "A match: each game's loser takes the next letter of D-O-N-K-E-Y." in out
    data = json.loads(save.read_text())
    assert data["match"] is True and data["game"]["format"] == "cardrules.match"
    code, out, _ = run(monkeypatch, capsys, ["--load", str(save)], CYCLE)
    assert code == 0 and "Traceback" not in out
    assert "##### Game 2 #####" in out
    assert re.search(r"(You take|Bot \d takes) the letter D", out)
    assert re.search(r"Letters: +You \S+ +Bot 2 \S+ +Bot 3 \S+", out)
    assert re.search(r"(You have|Bot \d has) the whole word and (lose|loses) the match\.", out)
    final = re.search(r"Letters: You (\S+)   Bot 2 (\S+)   Bot 3 (\S+)\n(.*)\n*$", out)
    assert final is not None and "DONKEY" in final.groups()[:3]
    m = Match.from_json(json.dumps(json.loads(save.read_text())["game"]), cardrules.load("donkey"))
    assert m.is_over and m.result is not None and m.letters[m.result.loser or 0] == "DONKEY"


def test_play_match_needs_a_match_word(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(monkeypatch, capsys, ["kachuful", "--match"], "")
    assert code == 1 and "no match word" in err
