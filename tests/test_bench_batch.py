"""The batch benchmark runs and prints every row (untimed: no figure is
checked): ``benchmarks/bench_batch.py --smoke`` plays a game or two of each."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_batch.py"
sys.path.insert(0, str(ROOT / "benchmarks"))

import openspiel_peer  # noqa: E402

HAVE_SPIEL = importlib.util.find_spec("pyspiel") is not None and openspiel_peer.available()


def test_smoke_run_prints_every_row_and_the_ratio(tmp_path: Path) -> None:
    out_file = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--out", str(out_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for label in ("TrickKernel, N = 1,024", "N = 8,192", "GameBatch", "evaluate_bots"):
        assert label in proc.stdout, proc.stdout
    report = json.loads(out_file.read_text(encoding="utf-8"))
    rows = report["rows"]
    assert report["mode"] == "smoke" and len(rows["kernel"]["runs"]) == 3
    assert all(x > 0 for x in rows["kernel"]["runs"] + rows["generic"]["runs"])
    if HAVE_SPIEL:
        assert rows["ratio"]["target"] == 10.0 and "target of 10" in proc.stdout
    else:
        assert rows["openspiel"]["skipped"] == "open_spiel not installed"
