"""The wire benchmark runs and prints every row (untimed: no figure is checked).

``benchmarks/bench_wire.py --smoke`` times a few calls of each kind on its two
games, so this only checks that the script works end to end and reports what
its README line says: one row a call for each game, the rows of methods the
engine does not have yet marked ``not available``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cardrules

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_wire.py"

#: The rows of each game, in the report's order.
ROWS = (
    "view",
    "view_to_dict",
    "view_to_json",
    "events_for",
    "events_for_since",
    "to_json",
    "from_json",
    "from_json_cold",
    "from_json_variant",
    "undo",
)


def _smoke(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), "--smoke", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_smoke_run_prints_every_row_of_both_games() -> None:
    proc = _smoke()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "(--smoke)" in out
    assert "mid-game one-hand Oh Hell" in out
    assert "finished Kachuful" in out
    lines = out.splitlines()
    for row in (
        "view(seat) ",
        "view(seat).to_dict() ",
        "view(seat).to_json() ",
        "events_for(seat) ",
        "events_for(seat, since=",
        "to_json() ",
        "Game.from_json(text) ",
        "Game.from_json(text), variant cache emptied ",
        "Game.from_json(text, variant=v) ",
        "undo() of the last action ",
    ):
        found = [ln for ln in lines if ln.startswith(row)]
        assert len(found) == 2, f"{row!r} is not printed once a game in:\n{out}"


def test_smoke_json_has_every_row_and_the_games_it_measured() -> None:
    proc = _smoke("--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["mode"] == "smoke"
    assert report["target_us"] == 100.0
    oh, kachuful = report["results"]["oh_hell"], report["results"]["kachuful"]
    # Mid-game: the play of the one hand, after the bids and 5 of the 10 tricks.
    assert (oh["players"], oh["hand_number"], oh["phase"]) == (4, 1, "play")
    assert oh["actions"] == 4 + 5 * 4
    assert kachuful["variant"] == "kachuful" and kachuful["phase"] == "over"
    for game in (oh, kachuful):
        assert tuple(game["rows"]) == ROWS
        for key, row in game["rows"].items():
            if "skipped" in row:
                assert row["skipped"] in ("not available", "no cache"), key
                continue
            assert len(row["runs_us"]) == report["runs"], key
            assert row["calls"] >= 1 and sum(row["runs_us"]) > 0, key
    # What the engine has is measured, not skipped.
    game = cardrules.Game(cardrules.load("oh-hell"), players=4, seed=1)
    has = {"undo": hasattr(game, "undo"), "from_json_cold": True}
    for key, present in has.items():
        assert ("skipped" not in oh["rows"][key]) == present, key
    for key in ("view", "view_to_dict", "events_for", "to_json", "from_json"):
        assert "meets_target" in oh["rows"][key], key
