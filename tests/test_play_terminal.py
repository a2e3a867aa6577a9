"""`cardrules play` as a person sees it: driven in a pseudo-terminal at 80x24
(pexpect), plus the layout functions of cardrules/commands/table.py.

The pty games are seeded; the human's moves are the ones the ``hint`` command
suggests, so every game goes on as a sensible player's would.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction

import pexpect
import pytest

import cardrules
from cardrules.bots import HeuristicBot, play_game
from cardrules.cards import Suit
from cardrules.commands.play import (
    Table,
    bid_choices,
    help_text,
    narrate,
    score_sheet,
)
from cardrules.commands.progress import PlainProgress, ProgressBar, progress_bar
from cardrules.commands.table import (
    Style,
    colour_wanted,
    fit,
    plural,
    seat_grid,
    strip_ansi,
    visible_len,
)
from cardrules.dsl.loader import builtin_names
from cardrules.engine import Bid, Event, Game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = "import sys; from cardrules.cli import main; sys.exit(main())"
SGR = re.compile(r"\x1b\[[0-9;]*m")
# Every escape sequence a terminal program may send (colour, readline's modes).
ESCAPE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[()][A-Z0-9]|[=>])")
PROMPTS = [
    r"Your bid \(([^)]*)\) > ",
    r"Your card \([^)]*\) > ",
    r"A card to pass \([^)]*\) > ",
    r"Your choice \([^)]*\) > ",
    r"Change your bid\? [^>]*> ",
    r"Press Enter for ([^(]*) \(or quit\) > ",
    r"(Player \d+), take the seat and press Enter \(or quit\) > ",
]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM", "COLUMNS")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH", "")) if p)
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


class Player:
    """A person at an 80x24 terminal, who plays what ``hint`` suggests."""

    def __init__(self, *args: str, cwd: str = ROOT, **env: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-c", CLI, "play", *args],
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=30,
            env=_env(**env),
            cwd=cwd,
        )
        self.screen = ""  # everything the terminal showed, as sent

    def expect(self, patterns: str | list[str]) -> int:
        k: int = self.child.expect(patterns)
        self.screen += self.child.before + (
            self.child.after if isinstance(self.child.after, str) else ""
        )
        return k

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def text(self) -> str:
        """The screen so far, without escape codes, one entry a line."""
        return ESCAPE.sub("", self.screen).replace("\r\n", "\n")

    def next_prompt(self) -> int:
        """Wait for the next prompt; its index in PROMPTS (-1 at the end)."""
        k = self.expect([*PROMPTS, pexpect.EOF])
        return -1 if k == len(PROMPTS) else k

    def play_hinted(self, prompt: int) -> None:
        """Answer a prompt as the heuristic bot would (Enter at a pause)."""
        if prompt in (5, 6):  # a pause, or hot-seat: the next person takes the seat
            self.send("")
            return
        if prompt == 4:
            self.send("")  # keep the bid
            return
        self.send("hint")
        self.expect(r"Hint: the heuristic bot would ([^\r\n]+)\.\r\n")
        what = strip_ansi(self.child.match.group(1))
        self.expect(PROMPTS[prompt])
        word = what.split(" ", 1)
        if (word[0] in ("play", "pass") and prompt in (1, 2)) or word[0] == "bid":
            self.send(word[1])
        else:
            self.send(what)

    def play_until(self, marker: str, waiting: int | None = None, turns: int = 400) -> int:
        """Play hinted moves (first at the ``waiting`` prompt, if one is) until
        ``marker`` (a regex) shows; the index of the prompt then waiting (-1
        when the game ended)."""
        if waiting is not None:
            self.play_hinted(waiting)
        for _ in range(turns):
            k = self.next_prompt()
            if k < 0 or re.search(marker, self.text()):
                return k
            self.play_hinted(k)
        raise AssertionError(f"{marker!r} never showed:\n{self.text()[-3000:]}")

    def command(self, line: str, until: str) -> str:
        """Type a command at the waiting prompt; what it printed, up to ``until``."""
        start = len(self.screen)
        self.send(line)
        self.expect(until)
        return ESCAPE.sub("", self.screen[start:]).replace("\r\n", "\n")

    def quit(self) -> None:
        """Quit at the waiting prompt (saying yes when asked)."""
        self.send("quit")
        k = self.expect([r"Quit anyway\? [^>]*> ", "Bye."])
        if k == 0:
            self.send("y")
            self.expect("Bye.")
        self.child.expect(pexpect.EOF)
        self.child.close()

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


@pytest.fixture
def player() -> Iterator[list[Player]]:
    made: list[Player] = []
    yield made
    for p in made:
        p.close()


def _too_wide(text: str) -> list[str]:
    """The lines wider than 80 columns (a \\r starts the line again)."""
    wide = []
    for line in text.split("\n"):
        for part in line.split("\r"):
            if visible_len(part) > 80:
                wide.append(part)
    return wide


# --------------------------------------------------------------------------- in a pty


@pytest.mark.parametrize(
    ("variant", "players", "marker"),
    [
        ("oh-hell", 3, r"Press Enter for hand 2"),
        ("oh-hell", 6, r"Press Enter for hand 2"),
        ("oh-hell", 7, r"Press Enter for hand 2"),
        ("kachuful", 7, r"Press Enter for hand 2"),
        ("kazhutha", 8, r"dead trick, out of the game"),
    ],
)
def test_a_game_at_80_columns_never_runs_past_80(
    player: list[Player], variant: str, players: int, marker: str
) -> None:
    """Three, six, seven (Oh Hell's most) and eight players (Kazhutha): every
    line fits 80 columns, the table has a column per seat, there is colour,
    and the game's own help and commands."""
    p = Player(variant, "--players", str(players), "--seed", "11")
    player.append(p)
    k = p.play_until(marker)
    shedding = variant == "kazhutha"
    if not shedding:  # the pause between hands, with a recap
        assert k == 5
        assert re.search(r"Hand 1 over: you bid \d+ and (made it|took \d+)", p.text())
        k = p.play_until(r"=== Hand 2 of \d+", waiting=5)
    while k not in (0, 1):  # to a bid or a card
        p.play_hinted(k)
        k = p.next_prompt()
    helped = p.command("help", r"quit +stop[^\r]*\r\n")
    assert ("bid that many tricks" in helped) != shedding
    assert ("dead" in helped) == shedding and ("sheet" in helped) != shedding
    # Neither game allows take-backs by default: help says so, and how to allow them.
    assert "undo           not in this game: start it with --take-backs" in helped
    if shedding:
        dead = p.command("dead", r"\d+ dead cards: [^\r]*\r\n")
        assert re.search(r"[♠♥♦♣] ", dead)
    else:
        sheet = p.command("sheet", r"\(hand[^\r]*\)\r\n|\r\n-+\r\n[^\r]*\r\n")
        assert "You" in sheet
    p.expect(PROMPTS)
    p.quit()
    text = p.text()
    assert "Traceback" not in text
    assert _too_wide(text) == []
    assert re.search(rf"^seat +You( +Bot \d){{{players - 1}}}$", text, re.M)
    # Seats are counted from 1 for people: the bots are Bot 2 to Bot N.
    assert "You are seat 1;" in text and "Bot 1 " not in text and f"Bot {players}" in text
    assert re.search(r"^trick +", text, re.M)
    assert "\x1b[31m" in p.screen  # a red heart or diamond on a terminal
    assert "Bye." in text


def test_no_colour_with_no_color_or_the_flag_and_no_pause_with_the_flag(
    player: list[Player],
) -> None:
    plain = Player("oh-hell", "--players", "4", "--seed", "2", NO_COLOR="1")
    player.append(plain)
    plain.play_until(r"Your turn: (you lead|trick)")
    plain.quit()
    assert "♥" in plain.screen or "♦" in plain.screen
    assert SGR.search(plain.screen) is None
    flag = Player("oh-hell", "--players", "3", "--seed", "2", "--no-color", "--no-pause")
    player.append(flag)
    flag.play_until(r"=== Hand 2 of \d+")
    flag.quit()
    assert SGR.search(flag.screen) is None
    assert "Hand 1 over:" in flag.text() and "Press Enter" not in flag.text()


def test_no_colour_and_no_pause_in_a_pipe() -> None:
    res = subprocess.run(
        [sys.executable, "-c", CLI, "play", "oh-hell", "--players", "3", "--seed", "2"],
        input="".join(f"{k}\n" for _ in range(15) for k in range(1, 11)) + "quit\ny\n",
        capture_output=True,
        text=True,
        env=_env(),
        cwd=ROOT,
        timeout=120,
    )
    assert res.returncode == 0 and "Traceback" not in res.stdout
    assert "\x1b" not in res.stdout and "\r" not in res.stdout
    assert "Press Enter" not in res.stdout
    assert "Hand 1 over:" in res.stdout


def test_the_bid_prompt_names_the_hook_and_the_commands_behave(
    player: list[Player], tmp_path: object
) -> None:
    """The dealer bids last: the prompt names the bid the hook forbids; then
    last, dead, hint, undo (with take-backs allowed), help and quit."""
    g = Game(cardrules.load("oh-hell"), players=4, seed=5)
    p = Player(
        *("oh-hell", "--players", "4", "--seed", "5", "--seat", str(g.dealer + 1)),
        *("--take-backs", "before the hand ends"),
        cwd=str(tmp_path),
    )
    player.append(p)
    assert p.next_prompt() == 0
    shown = p.child.match.group(1)
    bids = [int(n) for n in re.findall(r"Bot \d bids (\d+)", p.text())]
    assert len(bids) == 3  # the dealer bids last
    forbidden = g.hand_size - sum(bids)
    assert 0 <= forbidden <= g.hand_size, "the seed must be one where the hook bites"
    assert shown == f"0-{g.hand_size}, not {forbidden}: the hook; help, quit"
    refused = p.command(str(forbidden), PROMPTS[0])
    assert f"Not allowed: the dealer may not bid {forbidden}" in refused
    helped = p.command("help", r"quit +stop[^\r]*\r\n")
    assert "bid that many tricks" in helped and "undo" in helped and "dead" not in helped
    assert "before the hand ends" in helped and "cards to pass" not in helped
    p.expect(PROMPTS[0])
    assert "No trick is over yet" in p.command("last", PROMPTS[0])
    assert "This game has no dead cards" in p.command("dead", PROMPTS[0])
    k = p.play_until(r"-> (You win|Bot \d wins) the trick", waiting=0)
    while k != 1:
        p.play_hinted(k)
        k = p.next_prompt()
    last = p.command("last", PROMPTS[1])
    assert re.search(r"Last trick: [^\n]*\n +-> (You win|Bot \d wins) the trick", last)
    hint = p.command("hint", PROMPTS[1])
    found = re.search(r"Hint: the heuristic bot would play ([^\s.]+)\.", hint)
    assert found is not None and "You bid" in hint
    card = found.group(1)
    played = p.command(card, PROMPTS)
    assert f"You play {card}" in played
    p.send("undo")
    p.expect(r"Taken back: your play ([^\s,.]+)")
    assert strip_ansi(p.child.match.group(1)) == card
    p.expect(PROMPTS[1])
    # quit asks first: no, then save and quit
    asked = p.command("quit", r"Quit anyway\? \(y, n, or save FILE\) > ")
    assert "The game is not saved." in asked
    assert "Playing on." in p.command("n", PROMPTS[1])
    p.command("quit", r"Quit anyway\?")
    p.send("save g.json")  # a short name: the typed line fits the screen too
    p.expect("Game saved to g.json")
    p.expect("Bye.")
    p.child.expect(pexpect.EOF)
    assert os.path.exists(os.path.join(str(tmp_path), "g.json"))
    assert _too_wide(p.text()) == []
    assert "Traceback" not in p.text()


# --------------------------------------------------------------------------- the layout


NAMES = ["You", *(f"Bot {s}" for s in range(1, 8))]


@pytest.mark.parametrize("players", range(2, 9))
def test_the_seat_grid_fits_80_columns(players: int) -> None:
    names = NAMES[:players]
    style = Style(colour=True)
    trick = [style.card(cardrules.card("10H"))] * players
    rows = [
        ("bid", ["10"] * players),
        ("score", ["-1234"] * players),
        ("trick", trick),
    ]
    lines = seat_grid(names, rows, 80)
    assert len(lines) == 4
    assert all(visible_len(line) <= 80 for line in lines)
    header = lines[0].split()
    assert header[0] == "seat" and "You" in header
    assert strip_ansi(lines[3]).split()[1:] == ["10♥"] * players


def _sheet_events(players: int, hands: int, total: int) -> list[Event]:
    events: list[Event] = []
    for h in range(1, hands + 1):
        events.append(("deal", h, 0, 10))
        events.append(("trump", h, Suit.HEARTS, None))
        bids = tuple(10 for _ in range(players))
        won = tuple(10 if s % 2 else 9 for s in range(players))
        pts = tuple(Fraction(1) for _ in range(players))
        totals = tuple(Fraction(total) for _ in range(players))
        events.append(("score", h, bids, won, pts, totals))
    return events


@pytest.mark.parametrize("players", range(2, 9))
def test_the_score_sheet_fits_80_columns(players: int) -> None:
    t = Table(NAMES[:players])
    for total in (0, -120, 999, -999):
        sheet = score_sheet(_sheet_events(players, 19, total), t, width=80).splitlines()
        assert all(len(line) <= 80 for line in sheet), "\n".join(sheet)
        assert len([ln for ln in sheet if re.match(r" *\d+ ", ln)]) == 19
    if players <= 4:  # the full sheet, as before
        assert sheet[0].startswith("hand cards trump |")
    else:  # compact, with a legend
        assert sheet[-1].startswith("(hand")


TRICK_GAMES = [n for n in builtin_names() if cardrules.load(n).mode.value != "shedding"]


@pytest.mark.parametrize("variant", TRICK_GAMES)
def test_every_builtins_sheet_and_table_fit_at_its_most_players(variant: str) -> None:
    """Every built-in with a score sheet, at its most players (the widest sheet)."""
    v = cardrules.load(variant)
    players = v.players.max
    g = Game(v, players=players, seed=1)
    play_game(g, [HeuristicBot(seed=s) for s in range(players)])
    t = Table(NAMES[:players] if players <= 8 else [f"Bot {s}" for s in range(players)])
    sheet = score_sheet(g.events, t, width=80)
    assert all(len(line) <= 80 for line in sheet.splitlines()), sheet
    for ev in g.events:
        line = narrate(ev, t, g.hand_sizes)
        if line is not None:
            assert all(visible_len(x) <= 80 for part in line.split("\n") for x in fit(part))


def test_plurals_and_verbs() -> None:
    t = Table(["You", "Bot 1", "Bot 2"])
    # "You passe" was printed when the player passed in the choice of trumps
    assert t.does(0, "passes") == "You pass" and t.does(1, "passes") == "Bot 1 passes"
    assert t.does(0, "goes") == "You go" and t.does(0, "plays") == "You play"
    assert narrate(("deal", 7, 1, 1), t, (7,) * 7) == (
        "\n=== Hand 7 of 7: 1 card each, Bot 1 deals ==="
    )
    assert "2 cards each" in (narrate(("deal", 1, 0, 2), t) or "")
    assert narrate(("take", 0, 1, 1), t) == "You take the 1 card of Bot 1"
    assert plural(1, "dead card") == "1 dead card" and plural(2, "trick") == "2 tricks"


def test_bid_choices_are_derived_from_the_legal_bids() -> None:
    assert bid_choices([Bid(n) for n in range(8) if n != 3], hook=True) == "0-7, not 3: the hook"
    assert bid_choices([Bid(n) for n in range(1, 14)], hook=True) == "1-13"
    assert bid_choices([Bid(0)], hook=True) == "0"
    assert bid_choices([Bid(n) for n in (0, 2)], hook=False) == "0-2, not 1: not allowed now"
    assert bid_choices([], hook=True) == ""
    # In a real game: the dealer of a hooked variant sees the gap the engine makes.
    g = Game(cardrules.load("oh-hell"), players=4, seed=5)
    play_game(g, [HeuristicBot()] * 4, until_seat=g.dealer)
    forbidden = g.hand_size - sum(b for b in g.bids if b is not None)
    text = bid_choices(g.legal_actions(), hook=True)
    if 0 <= forbidden <= g.hand_size:
        assert text.endswith(f"not {forbidden}: the hook")


@pytest.mark.parametrize("variant", builtin_names())
def test_help_lists_only_the_commands_of_the_game(variant: str) -> None:
    v = cardrules.load(variant)
    text = help_text(v, undo=None)
    shedding = v.mode.value == "shedding"
    bids = v.bidding.style.value != "none" and not shedding
    assert ("bid that many tricks" in text) == bids
    assert ("blind N" in text) == (bids and v.bidding.blind)
    assert ("the cards to pass, one or all: ah ac ad" in text) == bool(v.passing.count)
    assert ("dead" in text) == shedding
    assert ("take your neighbour's cards" in text) == (
        shedding and v.shedding.take_hand.value != "none"
    )
    # undo is always listed, saying whether the game allows it (issue 25 item 11)
    assert "undo           not in this game: start it with --take-backs POLICY" in text
    assert "take back your last action (take backs: before the hand ends)" in help_text(
        v, undo="before the hand ends"
    )
    assert all(len(line) <= 80 for line in text.splitlines())


def test_colour_is_wanted_only_on_a_terminal_without_no_color() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    tty = Tty()
    assert colour_wanted(tty, env={"TERM": "xterm"})  # type: ignore[arg-type]
    assert not colour_wanted(tty, env={"NO_COLOR": "1"})  # type: ignore[arg-type]
    assert not colour_wanted(tty, env={"TERM": "dumb"})  # type: ignore[arg-type]
    assert not colour_wanted(tty, False, env={})  # type: ignore[arg-type]
    import io

    assert not colour_wanted(io.StringIO(), env={})
    hearts = Style(colour=True).card(cardrules.card("QH"), legal=True)
    assert hearts == "\x1b[31;1mQ♥\x1b[0m" and strip_ansi(hearts) == "Q♥"
    assert Style(colour=True).card(cardrules.card("QS")) == "Q♠"
    assert Style(colour=False).card(cardrules.card("QH"), legal=False) == "Q♥"


def test_fit_keeps_colour_and_spacing() -> None:
    red = Style(colour=True).card(cardrules.card("AH"))
    line = "Last trick: " + ", ".join(f"Bot {s} {red}" for s in range(1, 12))
    lines = fit(line, 40)
    assert len(lines) > 1 and all(visible_len(x) <= 40 for x in lines)
    assert strip_ansi(" ".join(x.strip() for x in lines)) == strip_ansi(line)
    assert fit("  a     b", 80) == ["  a     b"]
    assert all(len(x) <= 20 for x in fit("x" * 70, 20))


def test_progress_plain_in_a_pipe_and_in_place_on_a_terminal() -> None:
    import io

    out = io.StringIO()
    bar = PlainProgress(out, "kachuful")
    for done in range(0, 101):
        bar(done, 100)
    lines = out.getvalue().splitlines()
    assert lines[0] == "kachuful 0/100 games 0%" and lines[-1] == "kachuful 100/100 games 100%"
    assert len(lines) == 11 and "\r" not in out.getvalue() and "\x1b" not in out.getvalue()
    assert isinstance(progress_bar("x", stream=io.StringIO()), PlainProgress)
    tty = io.StringIO()
    drawn = ProgressBar(tty, width=10, label="k ")
    drawn(0, 3)
    drawn._last = -1.0
    drawn(3, 3)
    text = tty.getvalue()
    assert text.endswith("\n") and text.count("\r") == 2
    first, last = text.split("\r")[1:]
    assert len(last.rstrip("\n")) >= len(first)  # padded: nothing left over


def test_progress_on_a_terminal_uses_rich_or_the_plain_bar() -> None:
    import io

    from cardrules.commands.progress import RichProgress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(progress_bar("k", stream=Tty(), rich=False), ProgressBar)
    out = Tty()
    with progress_bar("kachuful", stream=out) as bar:
        assert isinstance(bar, RichProgress)
        for done in range(0, 101, 10):
            bar(done, 100)
    text = ESCAPE.sub("", out.getvalue())  # rich hides the cursor, then shows it again
    assert "kachuful" in text and "100/100" in text and text.endswith("\n")
    # stopped early (an error in the work): the bar still ends its line
    out = Tty()
    with pytest.raises(RuntimeError), progress_bar("x", stream=out, rich=False) as bar:
        bar(0, 10)
        raise RuntimeError("stop")
    assert out.getvalue().endswith("\n")


def test_two_people_share_the_screen_hot_seat(player: list[Player]) -> None:
    """`--humans 1,3`: two people at one terminal. Before each turn of a person
    other than the last, the screen (and what it scrolled) is cleared and that
    person is asked to take the seat; only then is a hand shown."""
    p = Player("kachuful", "--players", "4", "--seed", "3", "--humans", "1,3")
    player.append(p)
    k = p.play_until(r"=== Hand 2 of \d+")
    assert k >= 0
    p.quit()
    text = p.text()
    assert "Traceback" not in text and _too_wide(text) == []
    # A numbered card is never cut from its number at the end of a line.
    assert not re.search(r"\b\d+\)\s*\r?\n", ESCAPE.sub("", text))
    flowing = re.sub(r"\s+", " ", text)  # lines cut at 80 columns, read as one
    assert "At this screen: Player 1, Player 3; the others are heuristic" in flowing
    asked = re.findall(r"(Player \d), take the seat and press Enter", text)
    assert {"Player 1", "Player 3"} <= set(asked)
    assert all(a != b for a, b in itertools.pairwise(asked))  # only on a change
    # Each hand-over comes on a cleared screen: nothing of the last hand stays on it.
    segments = p.screen.split("\x1b[2J\x1b[3J\x1b[H")
    assert len(segments) == len(asked) + 1
    for seg in segments[1:]:
        seg = ESCAPE.sub("", seg)
        assert re.match(r"Player \d, take the seat", seg)
        # the one hand shown after a hand-over is that person's own
        assert seg.count("Your hand:") >= 1 or "Press Enter for" in seg
    assert re.search(r"Player 1 bids \d", text) and re.search(r"Player 3 bids \d", text)
    assert re.search(r"^seat +P1 +Bot 2 +P3 +Bot 4$", text, re.M) or re.search(
        r"^seat +P3 +Bot 4 +P1 +Bot 2$", text, re.M
    )
