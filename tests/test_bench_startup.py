"""The start-up benchmark runs and prints every row (untimed: no figure is checked)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_startup.py"


def test_the_startup_benchmark_reports_every_row() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    report = json.loads(done.stdout)
    assert report["runs"] == 1
    assert list(report["rows"]) == ["python", "import", "import_load", "list", "check"]
    for row in report["rows"].values():
        assert row["median_ms"] > 0
        assert len(row["runs_ms"]) == 1
