"""The engine benchmark runs and prints every row (untimed: no figure is checked).

``benchmarks/bench_engine.py --smoke`` plays a handful of games of each kind,
so this only checks that the script works end to end and reports what its
README says it reports: our one-hand rate, OpenSpiel's ``oh_hell`` driven the
fastest way from Python (the reference row), the older probability-loop driver
as a labelled extra row, OpenSpiel's own C++ random playout (the native row),
and the ratios against the reference and the native rows. The OpenSpiel
drivers themselves are checked to play whole, well-formed hands.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
sys.path.insert(0, str(BENCH))

import openspiel_peer  # noqa: E402

HAVE_SPIEL = importlib.util.find_spec("pyspiel") is not None and openspiel_peer.available()

#: Chance nodes of one 4-player, 10-trick hand: the number of tricks, the
#: dealer, 40 cards dealt and the turned-up card.
CHANCE_NODES_A_HAND = 1 + 1 + 40 + 1
#: Decisions of such a hand: 4 bids and 40 cards.
DECISIONS_A_HAND = 4 + 40


def _smoke(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH / "bench_engine.py"), "--smoke", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_smoke_run_prints_the_reference_extra_and_native_rows() -> None:
    """Every row of the table is printed, OpenSpiel's three drivers by their labels."""
    proc = _smoke()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "(--smoke)" in out
    for row in (
        "one-hand Oh Hell games/s",
        "integer path: apply_id(choice(legal_action_ids()))",
        "whole Kachuful games/s",
        "clone()/s: one-hand Oh Hell",
        "information_state(seat)/s (text), at every decision",
        "information_state_tensor(seat)/s, at every decision",
        "observation(seat)/s, at every decision",
        "load() every built-in variant",
        "memory: tracemalloc",
    ):
        assert row in out, f"no {row!r} row in:\n{out}"
    if HAVE_SPIEL:
        lines = out.splitlines()
        reference = [ln for ln in lines if ln.startswith("OpenSpiel") and "reference" in ln]
        extra = [ln for ln in lines if ln.startswith("OpenSpiel") and "extra" in ln]
        native = [ln for ln in lines if ln.startswith("OpenSpiel") and "native" in ln]
        assert len(reference) == len(extra) == len(native) == 1, out
        assert "rng.choice(legal_actions())" in reference[0]
        assert "probability loop" in extra[0]
        assert "evaluate_bots" in native[0]
        assert "chance outcomes checked uniform" in out
        assert any(ln.startswith("ratio ours / OpenSpiel reference") for ln in lines), out
        assert any(ln.startswith("ratio ours / OpenSpiel native") for ln in lines), out
        assert any(ln.startswith("ratio ours, integer path / OpenSpiel") for ln in lines), out
        assert "target of 1.5" in out  # the pure-Python build's (issue 14)
    else:
        assert "open_spiel not installed" in out


def test_smoke_json_has_each_openspiel_driver_and_both_ratios() -> None:
    """The JSON report keeps every run of every driver and the per-run ratios."""
    proc = _smoke("--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["mode"] == "smoke"
    res = report["results"]
    runs = report["runs"]
    assert len(res["one_hand"]["runs"]) == runs
    assert len(res["one_hand_ids"]["runs"]) == runs
    for key in ("information_state_along", "information_state_tensor_along", "observation_along"):
        assert len(res[key]["runs"]) == runs and res[key]["size"] > 0, key
    if HAVE_SPIEL:
        for key in ("openspiel", "openspiel_by_probability", "openspiel_native"):
            assert len(res[key]["runs"]) == runs, key
            assert all(rate > 0 for rate in res[key]["runs"]), key
        assert res["openspiel"]["driver"] == "uniform"
        assert res["openspiel_by_probability"]["driver"] == "by_probability"
        assert res["openspiel_native"]["driver"] == "native"
        check = res["openspiel_chance_check"]
        assert check["uniform"] is True
        assert check["chance_nodes"] == check["hands"] * CHANCE_NODES_A_HAND
        ratio = res["ratio"]
        assert ratio["against"] == "openspiel"
        assert ratio["median"] == res["one_hand"]["median"] / res["openspiel"]["median"]
        assert len(ratio["runs"]) == runs
        assert res["ratio_native"]["against"] == "openspiel_native"
        ids = res["ratio_ids"]
        assert ids["against"] == "openspiel" and "target" in ids
        assert ids["median"] == res["one_hand_ids"]["median"] / res["openspiel"]["median"]
    else:
        assert "skipped" in res["openspiel"]


def test_openspiel_drivers_play_whole_hands() -> None:
    """Each driver plays complete 4-player, 10-trick hands, reproducibly from its seed."""
    if not HAVE_SPIEL:
        assert not openspiel_peer.available()
        return
    assert openspiel_peer.check_uniform_chance(hands=2, seed=3) == 2 * CHANCE_NODES_A_HAND
    for driver in openspiel_peer.DRIVERS:
        first = openspiel_peer.sample_hands(driver, hands=3, seed=7)
        again = openspiel_peer.sample_hands(driver, hands=3, seed=7)
        assert first == again, driver
        assert len(first) == 3
        for history, returns in first:
            assert len(history) == CHANCE_NODES_A_HAND + DECISIONS_A_HAND, driver
            assert len(returns) == 4
            # A point a trick, plus 10 for an exact bid; the hooked dealer
            # keeps the four bids from all being exact.
            assert 10 <= sum(returns) <= 10 + 3 * 10, (driver, returns)
        other = openspiel_peer.sample_hands(driver, hands=3, seed=8)
        assert other != first, driver
    for driver in openspiel_peer.DRIVERS:
        wall, cpu = openspiel_peer.time_random_hands(5, 1, driver=driver)
        assert wall > 0 and cpu >= 0
