"""`cardrules demo`: a whole seeded Kachuful game between four heuristic bots."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardrules.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_demo_plays_a_whole_seeded_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Kachuful: 4 heuristic bots, seed 2024.")
    hands = re.findall(r"^=== Hand (\d+) of 19: (\d+) cards? each, (\w+) deals ===$", out, re.M)
    assert [int(h) for h, _, _ in hands][:19] == list(range(1, 20))
    assert [int(n) for _, n, _ in hands][:19] == [*range(10, 0, -1), *range(2, 11)]
    # every seat's cards, the bids, each trick and the sheet after every hand
    assert re.search(r"^  North  ♠ ", out, re.M) or re.search(r"^  North  [♠♥♣♦]", out, re.M)
    assert len(re.findall(r"^Bids: North \d+   East \d+   South \d+   West \d+", out, re.M)) >= 19
    assert len(re.findall(r"-> (North|East|South|West)$", out, re.M)) >= 109
    assert out.count("hand cards trump") >= 19
    winner = re.search(r"^Winner: (North|East|South|West)$", out, re.M)
    assert winner and out.rstrip().endswith(winner.group(0))
    totals = re.search(
        r"^Final totals: North (\d+)   East (\d+)   South (\d+)   West (\d+)$", out, re.M
    )
    assert totals
    best = max(range(4), key=lambda i: int(totals.group(i + 1)))
    assert winner.group(1) == ("North", "East", "South", "West")[best]
    # seeded: the same game every time
    assert main(["demo"]) == 0
    assert capsys.readouterr().out == out
    assert main(["demo", "--seed", "1", "--no-tricks"]) == 0
    other = capsys.readouterr().out
    assert other != out and "-> North" not in other


@pytest.mark.parametrize(("variant", "players"), [("kachuful", 6), ("hearts", 4)])
def test_demo_keeps_every_line_within_80_columns_and_seats_count_from_1(
    capsys: pytest.CaptureFixture[str], variant: str, players: int
) -> None:
    """Issue 25: `cardrules demo --players 6` printed the cut, the bids and the
    tricks wider than 80 columns; seats are counted from 1; the leader after
    each hand follows the game's winner rule (Hearts: the lowest total)."""
    assert main(["demo", variant, "--players", str(players), "--no-tricks"]) == 0
    out = capsys.readouterr().out
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert wide == []
    if players == 6:
        assert "Seat 1 " in out and "Seat 6" in out and "Seat 0" not in out
    else:  # Hearts: no bids, no exact-bid line, points in the sheet, the lowest leads
        assert "Made their bids" not in out and "points total" in out
        assert "counters:" not in out
        final = re.search(r"^Final totals: (.*)$", out, re.M)
        assert final is not None
        totals = {n: int(x) for n, x in re.findall(r"(\w+) (-?\d+)", final.group(1))}
        leads = re.findall(
            r"^(?:Leads|Share the lead): (.*) with (-?\d+) \(lowest wins\)$", out, re.M
        )
        assert leads and int(leads[-1][1]) == min(totals.values())


def test_make_demo_installs_the_library_alone(tmp_path: Path) -> None:
    """Issue 25 item 13: `make demo` installed every extra (OpenSpiel, Playwright)
    before showing a game. It installs the library alone now; `make test` and
    `make docs` still install what they need."""
    if shutil.which("make") is None:
        pytest.fail("make is needed to read the Makefile's recipes")
    venv = str(tmp_path / "venv")

    def dry_run(target: str) -> str:
        res = subprocess.run(
            # Under `make test` this make is nested: without --no-print-directory
            # it would add "Entering directory" lines around the recipe.
            ["make", "--no-print-directory", "-n", target, f"VENV={venv}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return res.stdout

    demo = dry_run("demo")
    assert "pip install --quiet -e .\n" in demo and "[dev]" not in demo
    assert demo.rstrip().endswith(f"{venv}/bin/cardrules demo")
    for target in ("test", "docs"):
        assert "pip install --quiet -e '.[dev]'" in dry_run(target)
