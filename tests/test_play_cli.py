"""`cardrules play`: a whole game driven through stdin, refusals, quit, save/load, a pty."""

from __future__ import annotations

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardrules
from cardrules.bots import HeuristicBot, play_game
from cardrules.cli import main
from cardrules.engine import Game

# Answers that always end a game: every prompt tries 1, 2, ... 10 until one is legal.
CYCLE = "".join(f"{k}\n" for _ in range(400) for k in range(1, 11))


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_game_through_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, ["kachuful", "--seed", "5"], CYCLE)
    assert code == 0 and err == "" and "Traceback" not in out
    assert "Kachuful: 4 players. You are seat 1; the others are heuristic bots." in out
    assert "=== Hand 19 of 19: 10 cards each" in out
    assert "cards each, You deal ===" in out and "You deals" not in out
    assert "Trumps: ♠ spades" in out and "Trumps: ♦ diamonds" in out
    assert re.search(r"Your hand: ♠ [^\n]*\n +1\) ", out)  # sorted by suit, numbered
    # the table: a column per seat in the order of play, a row per figure
    assert re.search(
        r"^seat +You +Bot 2 +Bot 3 +Bot 4\nbid +[-?\d]+ +[-?\d]+ +[-?\d]+ +[-?\d]+$", out, re.M
    )
    assert re.search(r"^won +\d+ +\d+ +\d+ +\d+\nscore +\d+ +\d+ +\d+ +\d+\ntrick +", out, re.M)
    assert re.search(r"^Bids so far: \d+ for 10 tricks\.$", out, re.M)
    assert re.search(r"^Your turn: you lead trick \d+ of \d+\.$", out, re.M)
    assert re.search(r"^Your turn: trick \d+ of \d+, Bot \d led [♠♥♦♣]\.$", out, re.M)
    assert re.search(r"^Hand 1 over: you bid \d+ and (made it|took \d+) \([-+]\d+\)\.", out, re.M)
    assert re.search(r"You bid \d+", out) and re.search(r"You play \S+", out)
    assert "-> Bot" in out or "-> You win the trick" in out
    assert "Not allowed: must follow" in out  # the cycle tries cards it may not play
    final = out[out.rindex("Final totals:") :]
    assert re.match(r"Final totals: You \d+   Bot 2 \d+   Bot 3 \d+   Bot 4 \d+", final)
    assert re.search(r"(You win!|Bot \d wins\.|Shared win: )", final)
    sheet = out[out.rindex("hand cards trump") : out.rindex("Final totals:")]
    assert len(re.findall(r"^ +\d+ +\d+ +[♠♥♦♣] +\|", sheet, re.M)) >= 19


def test_cards_are_taken_in_every_spelling_and_illegal_ones_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    v = cardrules.load("kachuful")
    g = Game(v, players=4, seed=9)
    dealer = g.dealer  # the human deals, so bids last: the hook applies
    play_game(g, [HeuristicBot()] * 4, until_seat=dealer)
    forbidden = g.hand_size - sum(b for b in g.bids if b is not None)
    assert 0 <= forbidden <= g.hand_size
    legal_bid = next(a.n for a in g.legal_actions())  # type: ignore[attr-defined]
    g.apply(cardrules.Bid(legal_bid), g.to_act)
    play_game(g, [HeuristicBot()] * 4, until_seat=dealer)
    hand = list(g.hand(dealer))
    legal = {a.card for a in g.legal_actions()}  # type: ignore[attr-defined]
    illegal = [c for c in hand if c not in legal]
    first = sorted(legal)[0]
    spellings = [
        f"{first.rank.label}{first.suit.letter}",
        f"{first.rank.label.lower()}{first.suit.symbol}",
    ]
    lines = [
        "eleven",
        "11",
        str(forbidden),
        str(legal_bid),
        "zz",
        "99",
        *(f"{c.rank.label}{c.suit.letter.lower()}" for c in illegal[:1]),
        "2C" if all(str(c) != "2♣" for c in hand) else "help",
        spellings[len(hand) % 2],
        "quit",
    ]
    code, out, _ = run(
        monkeypatch,
        capsys,
        ["kachuful", "--seed", "9", "--seat", str(dealer + 1)],  # seats count from 1
        "\n".join(lines) + "\n",
    )
    assert code == 0 and "Traceback" not in out
    assert "Bid a number of tricks" in out
    assert "Not allowed: bids run from 0 to 10 in a 10-card hand, not 11" in out
    assert f"Not allowed: the dealer may not bid {forbidden}: the bids would add up to 10" in out
    assert f"You bid {legal_bid}" in out
    assert "Not a card: 'zz'" in out
    assert "There is no card number 99: choose 1 to 10." in out
    if illegal:
        assert "Not allowed: must follow" in out
    assert f"You play {first}" in out
    assert out.rstrip().endswith("Bye.")


def test_quit_and_end_of_input_end_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, ["oh-hell", "--seed", "1"], "quit\n")
    assert code == 0 and out.rstrip().endswith("Bye.") and err == ""
    code, out, err = run(monkeypatch, capsys, ["oh-hell", "--seed", "1"], "")
    assert code == 0 and out.rstrip().endswith("Bye.") and err == ""


def test_ctrl_c_stops_and_saves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    save = tmp_path / "g.json"
    code = main(["play", "kachuful", "--seed", "2", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 130 and "Stopped." in out and "Traceback" not in out
    assert json.loads(save.read_text())["format"] == "cardrules.play"


def test_save_and_load_continue_the_same_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    argv = ["kachuful", "--seed", "4", "--players", "5", "--set", "hook=no", "--seat", "2"]
    first = "".join(f"{k}\n" for _ in range(20) for k in range(1, 11)) + "quit\n"
    code, out, _ = run(monkeypatch, capsys, [*argv, "--save", str(save)], first)
    assert code == 0 and f"Game saved to {save}" in out
    data = json.loads(save.read_text())
    assert data["variant"] == "kachuful" and data["overrides"] == ["hook=no"]
    assert data["seat"] == 1 and data["bots"] == "heuristic"  # --seat 2: the index 1
    saved = Game.from_json(json.dumps(data["game"]), cardrules.load("kachuful", hook="no"))
    assert saved.players == 5 and not saved.is_over and len(saved.events) > 20
    code, out, _ = run(monkeypatch, capsys, ["--load", str(save)], CYCLE)
    assert code == 0 and "You are seat 2" in out and "Bot 4" in out
    assert "Continuing the saved game at hand" in out and "=== Hand 1 of" not in out
    assert "Final totals:" in out
    # the autosave holds the finished game
    done = json.loads(save.read_text())
    assert done["game"]["state"]["phase"] == "over"


def test_load_refuses_garbage(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(monkeypatch, capsys, ["--load", str(bad)], "")
    assert code == 1 and "not a saved game" in err
    code, _, err = run(monkeypatch, capsys, ["--load", str(tmp_path / "missing.json")], "")
    assert code == 1 and "cannot read" in err
    code, _, err = run(monkeypatch, capsys, [], "")
    assert code == 2 and "name a variant" in err


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_play_in_a_pseudo_terminal(tmp_path: Path) -> None:
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, on the pty
        os.environ["NO_COLOR"] = "1"
        # A runner started in the background ignores SIGINT, and an ignored
        # signal stays ignored across exec: give the game a real Ctrl-C.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execv(
            sys.executable,
            [
                sys.executable,
                "-c",
                "import sys; from cardrules.cli import main; sys.exit(main())",
                "play",
                "kachuful",
                "--seed",
                "3",
            ],
        )
    out = b""

    def read_until(marker: bytes, timeout: float = 20.0) -> None:
        nonlocal out
        end = time.monotonic() + timeout
        while marker not in out:
            left = end - time.monotonic()
            assert left > 0, out.decode(errors="replace")[-2000:]
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk

    try:
        read_until(b"Your bid (0-10")
        os.write(fd, b"1\r")
        read_until(b"You bid 1")
        read_until(b"Your card")
        # Ctrl-C, through the terminal driver. A SIGINT that lands between
        # readline printing the prompt and waiting for a key is only noticed at
        # the next key (a CPython race), so press it again, as a person would.
        for _ in range(10):
            os.write(fd, b"\x03")
            try:
                read_until(b"Stopped.", timeout=1.0)
                break
            except AssertionError:
                continue
        read_until(b"Stopped.")
    except BaseException:
        os.kill(pid, signal.SIGKILL)  # a failed step must never leave the suite waiting
        raise
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert b"Traceback" not in out


def test_help_lists_the_options() -> None:
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from cardrules.cli import main; sys.exit(main())",
            "play",
            "--help",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    for opt in ("--players", "--seat", "--set", "--bots", "--seed", "--save", "--load"):
        assert opt in res.stdout


def test_a_human_passes_cards_in_hearts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a game with `pass:` the prompt asks for cards to pass, one at a time;
    the exchange names what the human passed and received, and nothing else."""
    code, out, err = run(monkeypatch, capsys, ["hearts", "--seed", "3"], CYCLE)
    assert code == 0 and err == "" and "Traceback" not in out
    assert "A card to pass (QS, q♠, 10h or its number; help, quit) > " in out
    assert "Passing to Bot 2; chosen so far: none yet" in out
    assert re.search(r"You choose \S+ to pass", out)
    exchange = re.search(r"The passed cards change hands: ([^\n]*)", out)
    assert exchange is not None
    parts = exchange.group(1).split("; ")
    # The human's own pass and the pass it received: never a bot-to-bot pass.
    assert len(parts) == 2 and parts[0].startswith("You pass") and parts[1].endswith("to You")
    assert "Final totals:" in out
    # The recaps, the end and its winner follow Hearts' rule: the lowest total wins.
    final = re.search(r"^Final totals: (.*)$", out, re.M)
    assert final is not None and "The lowest total wins." in out
    totals = {n: int(x) for n, x in re.findall(r"(You|Bot \d) (-?\d+)", final.group(1))}
    low = min(totals.values())
    winners = [n for n, x in totals.items() if x == low]
    if len(winners) == 1:
        assert ("You win!" if winners[0] == "You" else f"{winners[0]} wins.") in out
    assert "(lowest wins)" in out


def test_a_target_game_status_line_names_the_target_never_a_safety_bound(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25 item 2: Hearts showed "Hand 1 of 20" (no Hearts game reaches a 17th
    hand): a game played to a target says "Hand 1 · play to 100"."""
    code, out, err = run(monkeypatch, capsys, ["hearts", "--seed", "3"], "quit\n")
    assert code == 0 and err == ""
    assert "=== Hand 1 · play to 100: 13 cards each" in out
    assert re.search(r"^Hand 1 · play to 100 · 13 cards", out, re.M)
    assert not re.search(r"Hand \d+ of \d+", out)
    # A game of a fixed number of hands keeps its count.
    code, out, err = run(monkeypatch, capsys, ["kachuful", "--seed", "3"], "quit\n")
    assert "=== Hand 1 of 19:" in out and "play to" not in out
