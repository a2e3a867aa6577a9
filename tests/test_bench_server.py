"""The server load test runs and prints its rows (untimed: no figure is checked).

``benchmarks/bench_server.py --smoke --max-tables 1`` starts the real server
three times (whole-file saves, the log flushed each move, the log with group
commit), plays one table of four websocket bot clients for a moment on each,
and times a few moves of the hub alone; this only checks that it works end to
end and reports what its README section says.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_server.py"


def test_smoke_run_prints_both_save_modes() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--max-tables", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "(--smoke)" in out and "the hub alone" in out
    for mode in ("snapshot", "log", "group"):
        assert f"saves: {mode}" in out
    for mode in ("snapshot", "log"):
        assert f"saves {mode}" in out
    assert "moves/s" in out and "p99 ms" in out and "CPU/move ms" in out
    report = json.loads(out[out.index("\n{") :])
    for mode in ("snapshot", "log", "group"):
        (row,) = report["runs"][mode]
        assert row["tables"] == 1 and row["moves"] > 0 and row["errors"] == 0
    for mode in ("snapshot", "log"):
        assert len(report["hub_alone"][mode]) == 3
