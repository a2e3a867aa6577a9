"""The environments benchmark runs and prints every row (untimed: no figure
is checked): ``benchmarks/bench_envs.py --smoke`` plays one game of each loop."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_envs.py"


def test_smoke_run_reports_every_loop_of_every_game() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    report = json.loads(proc.stdout)
    assert report["mode"] == "smoke" and len(report["rows"]) == 3
    for row in report["rows"]:
        for loop in ("bare", "aec", "parallel", "gym"):
            assert row[loop]["us_per_action"] > 0 and row[loop]["actions_per_run"] > 0
        assert row["bare"]["x_bare"] == 1.0
