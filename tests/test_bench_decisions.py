"""The decisions benchmark runs and prints every row (untimed: no figure is checked).

``benchmarks/bench_decisions.py --smoke`` plays a game per row and searches
with tiny budgets, so this only checks that the script works end to end and
that the rows played the same games (the bots shown contexts and the bots
shown whole views make the same choices).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_decisions.py"


def _run(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_smoke_run_reports_every_row() -> None:
    report = json.loads(_run("--json"))
    games = report["games"]
    assert len(games) == 5
    labels = list(games)
    assert labels[0].startswith("bare loop")
    # The same games whether the bots read contexts or whole views.
    assert games[labels[1]]["actions"] == games[labels[2]]["actions"]
    assert games[labels[3]]["actions"] == games[labels[4]]["actions"]
    assert {r["bot"] for r in report["search"]} == {"pimc", "ismcts"}
    assert all(r["decisions"] > 0 for r in report["search"])
    text = _run()
    assert "target: random bots (context) / bare >= 0.5" in text
    assert "pimc" in text and "ismcts" in text
