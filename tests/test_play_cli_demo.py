"""`cardrules demo`: a whole seeded Kachuful game between four heuristic bots."""

from __future__ import annotations

import re

import pytest

from cardrules.cli import main


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
