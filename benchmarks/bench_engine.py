"""Engine benchmarks: how fast cardrules plays, copies and loads, and how it
compares with OpenSpiel's ``oh_hell``.

Run ``python benchmarks/bench_engine.py`` (``make bench``), ``--quick`` for a
short run, ``--smoke`` to check in seconds that everything runs (its figures
mean nothing), ``--json`` for machine-readable output. Every rate is the median
of several runs (7, 5 with ``--quick``, 3 with ``--smoke``); the individual
runs are in ``--json``.

What is measured (all through the public API, with seeded random choices):

* ``one_hand``: random one-hand games of Oh Hell, 4 players, 10 cards, turned-up
  trump, hook, 1 a trick + 10 for an exact bid (:data:`ONE_HAND_TEXT`), from
  ``Game(...)`` to the score: ``legal_actions()`` and ``apply(rng.choice(...))``;
* ``one_hand_ids``: the same games through the integer path (issue 24):
  ``apply_id(rng.choice(legal_action_ids()), current_player())`` until
  ``is_terminal()``, timed run for run with ``one_hand`` and OpenSpiel (its
  ratio to the reference row: ``ratio_ids``, same targets);
* ``kachuful``: whole Kachuful games (4 players, 19 hands, tie-break hands included);
* ``kazhutha_4`` / ``kazhutha_6``: whole Kazhutha games, when the engine plays
  ``mode: shedding`` (else reported as not supported yet);
* ``clone_*``: ``Game.clone()`` of a one-hand Oh Hell game after the bids and
  two tricks, and of a Kachuful game in its tenth hand (the log is longer);
* ``information_state_along``, ``information_state_tensor_along``,
  ``observation_along``: the call for the seat to act at every decision of
  random one-hand games, each on a clone of the game at that decision made
  before the clock starts (the clone shares the streams and information
  states the game had kept up to the previous decision, as a search asking at
  each node would find them);
* ``load_builtins``: ``cardrules.load(name)`` of every built-in variant;
* ``memory``: tracemalloc over 10,000 one-hand games played in a loop, sampled
  at 1k, 5k and 10k games (traced memory now, and the peak since the previous
  sample), to show it stays flat;
* ``openspiel``: OpenSpiel's ``oh_hell`` (players=4, num_tricks_fixed=10) with
  random chance outcomes and random legal actions, played three ways (see
  ``openspiel_peer.DRIVERS``): the reference row, the fastest driver from
  Python (``state.apply_action(rng.choice(state.legal_actions()))`` at every
  node, chance nodes included, after checking in the same run that
  ``oh_hell``'s chance outcomes are uniform); an extra row with the slower
  driver that draws chance outcomes through a probability loop; and the native
  row, OpenSpiel's C++ playout (``pyspiel.evaluate_bots`` with uniform random
  bots). All are timed in the same process, run for run interleaved with
  ``one_hand``; the ratios of the medians are ours / the reference (target:
  1.5 pure Python, 3 compiled, :data:`TARGET_RATIO`) and ours / the native row.
  ``bench_research.py`` races the rest of the research API (playout, clone,
  observation, information state, sample_world, undo) against OpenSpiel's.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# The checkout's sources, unless --installed: then the cardrules installed in
# this Python (such as a wheel built with CARDRULES_COMPILE=1) is measured.
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import openspiel_peer  # noqa: E402

import cardrules  # noqa: E402
from cardrules.dsl import builtin_names  # noqa: E402
from cardrules.errors import VariantError  # noqa: E402

#: The benchmarked Oh Hell hand: the built-in oh-hell rules with a one-hand
#: schedule of 10 cards. Bids are final once made and a tie is shared (the
#: parent plays extra hands), so that one game is exactly one hand, as in
#: OpenSpiel's oh_hell.
ONE_HAND_TEXT = """\
game: bench-oh-hell
extends: oh-hell
title: "Oh Hell, one hand of 10"
players: 3 to 5
hands: list 10
trumps: turned up
hook: yes
bid changes: no
score: tricks + (if exact then 10 else 0)
tie: shared
"""

#: The speed targets (issue 14), by build: our one-hand games per second over
#: OpenSpiel's hands per second with its fastest Python driver (the reference
#: row), both from Python.
TARGET_RATIO: dict[str, float] = {"pure Python": 1.5, "compiled with mypyc": 3.0}

#: OpenSpiel's rows, by driver (see ``openspiel_peer.DRIVERS``): the key in the
#: report and the row's label. The first is the reference for the ratio.
SPIEL_ROWS: dict[openspiel_peer.Driver, tuple[str, str]] = {
    "uniform": (
        "openspiel",
        "OpenSpiel hands/s, reference: rng.choice(legal_actions()) at every node",
    ),
    "by_probability": (
        "openspiel_by_probability",
        "OpenSpiel hands/s, extra: chance by a probability loop (slow)",
    ),
    "native": (
        "openspiel_native",
        "OpenSpiel hands/s, native: C++ evaluate_bots, uniform random bots",
    ),
}

#: (wall seconds, CPU seconds) of one timed run.
Times = tuple[float, float]


class Clock:
    """Wall time and this process's CPU time over a ``with`` block.

    The figures are rates per second of CPU time by default: on a machine
    whose cores are shared, wall time also counts the time spent waiting for a
    core, which says more about the neighbours than about the code. Both are
    recorded.
    """

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.times: Times = (time.perf_counter() - self.wall, time.process_time() - self.cpu)


# --------------------------------------------------------------------------- playing


def play_out(game: cardrules.Game, rng: random.Random, max_steps: int = 1_000_000) -> int:
    """Play random legal actions to the end; returns the number of actions."""
    steps = 0
    choice = rng.choice
    while not game.is_over:
        game.apply(choice(game.legal_actions()), game.to_act)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"no end after {max_steps} actions")
    return steps


def time_games(variant: cardrules.Variant, players: int, games: int, seed: int) -> Times:
    """Create and play ``games`` seeded games with random legal actions."""
    rng = random.Random(seed)
    with Clock() as c:
        for i in range(games):
            play_out(cardrules.Game(variant, players=players, seed=seed * 1_000_003 + i), rng)
    return c.times


def play_out_ids(game: cardrules.Game, rng: random.Random) -> int:
    """Play random legal actions to the end through the integer path (issue 24):
    ``apply_id(rng.choice(legal_action_ids()), current_player())``."""
    steps = 0
    choice = rng.choice
    ids = game.legal_action_ids
    apply_id = game.apply_id
    current = game.current_player
    terminal = game.is_terminal
    while not terminal():
        apply_id(choice(ids()), current())
        steps += 1
    return steps


def time_games_ids(variant: cardrules.Variant, players: int, games: int, seed: int) -> Times:
    """:func:`time_games` through the integer path (:func:`play_out_ids`)."""
    rng = random.Random(seed)
    with Clock() as c:
        for i in range(games):
            play_out_ids(cardrules.Game(variant, players=players, seed=seed * 1_000_003 + i), rng)
    return c.times


def time_along(
    variant: cardrules.Variant, games: int, seed: int, call: Callable[[cardrules.Game, int], object]
) -> tuple[Times, int]:
    """``call(game, seat)`` for the seat to act at every decision of ``games``
    random one-hand games played before the clock starts (each call on the game
    as it stood: a clone per decision, made untimed, that shares what the game
    had built, as a search that asks at each node does); the calls made."""
    rng = random.Random(seed)
    stops: list[tuple[cardrules.Game, int]] = []
    for i in range(games):
        g = cardrules.Game(variant, players=4, seed=seed * 1_000_003 + i)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            stops.append((g.clone(), seat))
            call(g, seat)  # the game keeps what it built, as play goes on
            g.apply(rng.choice(g.legal_actions()), seat)
    with Clock() as c:
        for g, seat in stops:
            call(g, seat)
    return c.times, len(stops)


def time_clones(game: cardrules.Game, clones: int) -> Times:
    clone = game.clone
    with Clock() as c:
        for _ in range(clones):
            clone()
    return c.times


def advance(game: cardrules.Game, rng: random.Random, stop: Callable[[], bool]) -> None:
    while not stop():
        game.apply(rng.choice(game.legal_actions()), game.to_act)


def time_load_builtins() -> Times:
    names = builtin_names()
    with Clock() as c:
        for name in names:
            cardrules.load(name)
    return c.times


def shedding_supported(variant: cardrules.Variant, players: int) -> str | None:
    """None when the engine plays this variant, else the reason it does not."""
    try:
        cardrules.Game(variant, players=players, seed=0)
    except (VariantError, NotImplementedError) as e:
        return str(e)
    return None


def _action_tables() -> int | None:
    """How many entries of the engine's interned per-suit action tables are filled.

    The engine builds, on demand, one tuple of ``Play`` actions per suit and
    13-bit pattern of cards (at most 4 x 8,191, about 3 MB): a bounded cache
    that fills up during the first games. Reading it is a peek at a private
    detail, so a missing table gives None.
    """
    tables = getattr(sys.modules.get("cardrules.engine.game"), "_SUIT_TABLES", None)
    if not isinstance(tables, list):
        return None
    return sum(t is not None for suit in tables for t in suit)


def memory_profile(variant: cardrules.Variant, games: int, marks: list[int]) -> dict[str, Any]:
    """Traced memory while ``games`` one-hand games are played in a loop.

    At each mark: the memory traced now (what the loop has kept), the peak
    since the previous mark, and the working set of a game (that peak minus
    what is kept now). "Flat" means the working set does not grow and what is
    kept grows by less than 1 KiB a game between the last two marks (the
    engine's bounded action tables still filling; no game is kept).
    """
    rng = random.Random(99)
    samples: list[dict[str, Any]] = []
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    for i in range(1, games + 1):
        play_out(cardrules.Game(variant, players=4, seed=i), rng)
        if i in marks:
            current, peak = tracemalloc.get_traced_memory()
            now, top = (current - base) / 1024, (peak - base) / 1024
            samples.append(
                {
                    "games": i,
                    "current_kib": now,
                    "peak_kib": top,
                    "working_set_kib": top - now,
                    "action_tables": _action_tables(),
                }
            )
            tracemalloc.reset_peak()
    tracemalloc.stop()
    first_ws = samples[0]["working_set_kib"]
    ws_flat = all(s["working_set_kib"] <= first_ws * 1.25 + 16.0 for s in samples[1:])
    a, b = samples[-2], samples[-1]
    kept_per_game = (b["current_kib"] - a["current_kib"]) * 1024 / (b["games"] - a["games"])
    return {
        "games": games,
        "samples": samples,
        "kept_bytes_per_game_last_window": kept_per_game,
        "flat": ws_flat and kept_per_game < 1024,
    }


# --------------------------------------------------------------------------- running


def rates(what: str, unit: str, size: int, times: list[Times]) -> dict[str, Any]:
    """``size`` things per second over each run, by CPU time (``median``) and wall time."""
    cpu = [size / t[1] for t in times]
    wall = [size / t[0] for t in times]
    return {
        "what": what,
        "unit": unit,
        "size": size,
        "median": statistics.median(cpu),
        "runs": cpu,
        "median_wall": statistics.median(wall),
        "runs_wall": wall,
    }


def engine_build() -> dict[str, Any]:
    """Which engine is measured: compiled with mypyc (extension modules) or pure
    Python, and from where (the game module's path, and which engine modules
    are compiled)."""
    import cardrules.engine.game as game_module

    path = str(getattr(game_module, "__file__", "") or "")
    compiled = path.endswith((".so", ".pyd"))
    modules = sorted(
        name.rsplit(".", 1)[1]
        for name, mod in list(sys.modules.items())
        if name.startswith("cardrules.engine.")
        and not name.endswith("__mypyc")
        and str(getattr(mod, "__file__", "") or "").endswith((".so", ".pyd"))
    )
    return {
        "compiled": compiled,
        "kind": "compiled with mypyc" if compiled else "pure Python",
        "game_module": path,
        "compiled_modules": modules,
    }


def machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        import importlib.metadata as md

        spiel = md.version("open_spiel")
    except Exception:
        spiel = None
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "cardrules": cardrules.__version__,
        "open_spiel": spiel,
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "build": engine_build(),
    }


#: The run modes: (runs, scale of the number of games, games of the memory profile).
MODES: dict[str, tuple[int, float, int]] = {
    "full": (7, 1.0, 10_000),
    "quick": (5, 0.25, 2_000),
    "smoke": (3, 0.02, 300),
}


def run(mode: str, seed: int) -> dict[str, Any]:
    """Every benchmark, in ``mode`` (a key of :data:`MODES`)."""
    runs, scale, games = MODES[mode]

    def n(x: int) -> int:
        return max(1, int(x * scale))

    one_hand = cardrules.load_text(ONE_HAND_TEXT)
    kachuful = cardrules.load("kachuful")
    kazhutha = cardrules.load("kazhutha")
    results: dict[str, Any] = {}

    # Warm the engine's tables (the per-suit action tuples, the bid cache).
    time_games(one_hand, 4, n(200), seed)

    # One-hand Oh Hell, interleaved run for run with OpenSpiel's oh_hell played
    # by each of its drivers, so that all of them see the same machine load.
    ours_hands = n(3000)
    spiel_hands: dict[openspiel_peer.Driver, int] = {
        "uniform": n(3000),
        "by_probability": n(1500),
        "native": n(10_000),
    }
    have_spiel = openspiel_peer.available()
    ours: list[Times] = []
    ours_ids: list[Times] = []
    theirs: dict[openspiel_peer.Driver, list[Times]] = {
        driver: [] for driver in openspiel_peer.DRIVERS
    }
    if have_spiel:
        check_hands = 3 if mode == "smoke" else 20
        results["openspiel_chance_check"] = {
            "what": "oh_hell chance outcomes: chance_outcomes() lists exactly "
            "legal_actions(), with equal probabilities",
            "hands": check_hands,
            "chance_nodes": openspiel_peer.check_uniform_chance(check_hands, seed),
            "uniform": True,  # else check_uniform_chance raised
        }
        for driver in openspiel_peer.DRIVERS:  # load the game, warm up
            openspiel_peer.time_random_hands(50, seed, driver)
    for i in range(runs):
        ours.append(time_games(one_hand, 4, ours_hands, seed + i))
        ours_ids.append(time_games_ids(one_hand, 4, ours_hands, seed + i))
        if have_spiel:
            for driver in openspiel_peer.DRIVERS:
                theirs[driver].append(
                    openspiel_peer.time_random_hands(spiel_hands[driver], seed + i, driver)
                )
    results["one_hand"] = rates(
        "one-hand Oh Hell games/s (4 players, 10 cards, turned-up trump, hook)",
        "games/s",
        ours_hands,
        ours,
    )
    results["one_hand_ids"] = rates(
        "one-hand Oh Hell games/s, integer path: apply_id(choice(legal_action_ids()))",
        "games/s",
        ours_hands,
        ours_ids,
    )
    if have_spiel:
        for driver, (key, what) in SPIEL_ROWS.items():
            results[key] = {
                **rates(what, "hands/s", spiel_hands[driver], theirs[driver]),
                "driver": driver,
            }
        for key, mine_key, against, what in (
            (
                "ratio",
                "one_hand",
                "openspiel",
                "ours / OpenSpiel reference (fastest Python driver)",
            ),
            (
                "ratio_native",
                "one_hand",
                "openspiel_native",
                "ours / OpenSpiel native (C++ playout)",
            ),
            (
                "ratio_ids",
                "one_hand_ids",
                "openspiel",
                "ours (integer path) / OpenSpiel reference (fastest Python driver)",
            ),
        ):
            mine = results[mine_key]
            spiel = results[against]
            ratio = mine["median"] / spiel["median"]
            results[key] = {
                "what": f"{what}, one-hand games per second of CPU time",
                "against": against,
                "median": ratio,
                "median_wall": mine["median_wall"] / spiel["median_wall"],
                "runs": [a / b for a, b in zip(mine["runs"], spiel["runs"], strict=True)],
            }
        target = TARGET_RATIO[engine_build()["kind"]]
        for key in ("ratio", "ratio_ids"):
            results[key]["target"] = target
            results[key]["meets_target"] = results[key]["median"] >= target
    else:
        for key, what in SPIEL_ROWS.values():
            results[key] = {"what": what, "skipped": "open_spiel not installed"}

    kg = n(120)
    results["kachuful"] = rates(
        "whole Kachuful games/s (4 players)",
        "games/s",
        kg,
        [time_games(kachuful, 4, kg, seed + i) for i in range(runs)],
    )

    for players in (4, 6):
        key = f"kazhutha_{players}"
        what = f"whole Kazhutha games/s ({players} players)"
        why = shedding_supported(kazhutha, players)
        if why is None:
            zg = n(100)
            times = [time_games(kazhutha, players, zg, seed + i) for i in range(runs)]
            results[key] = rates(what, "games/s", zg, times)
        else:
            results[key] = {"what": what, "skipped": "not supported yet", "reason": why}

    rng = random.Random(seed)
    mid = cardrules.Game(one_hand, players=4, seed=seed)
    advance(mid, rng, lambda: mid.phase == "play" and sum(mid.tricks_won) >= 2)
    clones = n(100_000)
    results["clone_one_hand"] = rates(
        "clone()/s: one-hand Oh Hell after the bids and 2 tricks",
        "clones/s",
        clones,
        [time_clones(mid, clones) for _ in range(runs)],
    )
    late = cardrules.Game(kachuful, players=4, seed=seed)
    advance(late, rng, lambda: late.hand_number >= 10 and late.phase == "play")
    results["clone_kachuful"] = rates(
        "clone()/s: Kachuful at the start of play in hand 10 of 19",
        "clones/s",
        clones,
        [time_clones(late, clones) for _ in range(runs)],
    )
    results["clone_kachuful"]["events"] = len(late.events)

    # The information state and the observation at every decision (issue 24).
    along = n(60)
    for key, what, call in (
        (
            "information_state_along",
            "information_state(seat)/s (text), at every decision of one-hand games",
            lambda g, s: g.information_state(s),
        ),
        (
            "information_state_tensor_along",
            "information_state_tensor(seat)/s, at every decision of one-hand games",
            lambda g, s: g.information_state_tensor(s),
        ),
        (
            "observation_along",
            "observation(seat)/s, at every decision of one-hand games",
            lambda g, s: g.observation(s),
        ),
    ):
        timed = [time_along(one_hand, along, seed + i, call) for i in range(runs)]
        results[key] = rates(what, "calls/s", timed[0][1], [t for t, _ in timed])

    names = builtin_names()
    cold = time_load_builtins()
    loads = [time_load_builtins() for _ in range(runs)]
    results["load_builtins"] = {
        "what": f"load() every built-in variant ({len(names)}), ms",
        "unit": "ms",
        "variants": names,
        "first_ms": cold[1] * 1000,
        "median": statistics.median(t[1] for t in loads) * 1000,
        "runs": [t[1] * 1000 for t in loads],
        "median_wall": statistics.median(t[0] for t in loads) * 1000,
        "runs_wall": [t[0] * 1000 for t in loads],
    }

    marks = [games // 10, games // 2, games]
    results["memory"] = {
        "what": f"tracemalloc over {games:,} one-hand games in a loop",
        **memory_profile(one_hand, games, marks),
    }
    return {"machine": machine(), "mode": mode, "runs": runs, "seed": seed, "results": results}


# --------------------------------------------------------------------------- output


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"


#: Width of the label column of the table.
_W = 72


def table(report: dict[str, Any]) -> str:
    """The report as a text table, one row a benchmark."""
    m = report["machine"]
    res = report["results"]
    mode = "" if report["mode"] == "full" else f" (--{report['mode']})"
    lines = [
        f"cardrules {m['cardrules']} engine benchmark, {m['date']}",
        f"Python {m['python']} on {m['platform']}, {m['cpu']}, {m['cpus']} CPUs"
        + (f", open_spiel {m['open_spiel']}" if m["open_spiel"] else ""),
        f"median of {report['runs']} runs{mode}; "
        "rates per second of CPU time (wall time: the `wall` column)",
        f"load average at the start: {m['load_average']}",
        f"engine measured: {m['build']['kind']} ({m['build']['game_module']})"
        + (
            f"; compiled modules: {', '.join(m['build']['compiled_modules'])}"
            if m["build"].get("compiled_modules")
            else ""
        ),
        "",
        f"{'benchmark':<{_W}} {'median':>10} {'wall':>10}  {'runs (CPU)':<s}",
        "-" * 120,
    ]
    for key in (
        "one_hand",
        "one_hand_ids",
        "openspiel",
        "openspiel_by_probability",
        "openspiel_native",
        "kachuful",
        "kazhutha_4",
        "kazhutha_6",
        "clone_one_hand",
        "clone_kachuful",
        "information_state_along",
        "information_state_tensor_along",
        "observation_along",
        "load_builtins",
    ):
        r = res[key]
        if "skipped" in r:
            lines.append(f"{r['what']:<{_W}} {r['skipped']:>21}")
            continue
        runs = " ".join(_fmt(x) for x in r["runs"])
        lines.append(
            f"{r['what']:<{_W}} {_fmt(r['median']):>10} {_fmt(r['median_wall']):>10}  [{runs}]"
        )
        if key == "openspiel" and "openspiel_chance_check" in res:
            c = res["openspiel_chance_check"]
            lines.append(
                f"  (oh_hell chance outcomes checked uniform in this run: {c['chance_nodes']:,} "
                f"chance nodes of {c['hands']} hands, chance_outcomes() = legal_actions(), "
                "equal probabilities)"
            )
        if key == "load_builtins":
            lines.append(f"{'  (first load in this process, ms)':<{_W}} {_fmt(r['first_ms']):>10}")
    for key, label in (
        ("ratio", "ratio ours / OpenSpiel reference (one-hand games/s)"),
        ("ratio_native", "ratio ours / OpenSpiel native C++ playout"),
        ("ratio_ids", "ratio ours, integer path / OpenSpiel reference (one-hand games/s)"),
    ):
        if key not in res:
            continue
        r = res[key]
        runs = " ".join(f"{x:.2f}" for x in r["runs"])
        lines.append(f"{label:<{_W}} {r['median']:>10.2f} {r['median_wall']:>10.2f}  [{runs}]")
        if "target" in r:
            verdict = "meets" if r["meets_target"] else "MISSES"
            lines.append(f"  ({verdict} the target of {r['target']})")
    mem = res["memory"]
    lines.append("")
    lines.append(f"memory: {mem['what']} (KiB above the start)")
    for s in mem["samples"]:
        tables = "" if s["action_tables"] is None else f", action tables {s['action_tables']:,}"
        lines.append(
            f"  after {s['games']:>6,} games: kept {s['current_kib']:>7,.1f} KiB, "
            f"peak {s['peak_kib']:>7,.1f} KiB, working set {s['working_set_kib']:>6,.1f} KiB"
            + tables
        )
    lines.append(
        f"  kept per game over the last window: {mem['kept_bytes_per_game_last_window']:,.1f} B; "
        f"flat: {'yes' if mem['flat'] else 'NO'}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="fewer games and 5 runs")
    modes.add_argument(
        "--smoke",
        action="store_true",
        help="a few games of each kind and 3 runs, to check that it all runs (no real figures)",
    )
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--seed", type=int, default=1, help="seed for deals and choices")
    ap.add_argument("--out", metavar="FILE", help="also write the JSON report to FILE")
    ap.add_argument(
        "--installed",
        action="store_true",
        help="measure the installed cardrules (such as a compiled wheel), not this checkout's",
    )
    args = ap.parse_args(argv)
    report = run("smoke" if args.smoke else "quick" if args.quick else "full", args.seed)
    report["command"] = " ".join(["python", "benchmarks/bench_engine.py", *sys.argv[1:]])
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
