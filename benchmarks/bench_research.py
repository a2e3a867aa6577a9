"""The research speed race: cardrules against OpenSpiel's ``oh_hell``, call for call.

Run ``python benchmarks/bench_research.py``, ``--quick`` for a short run,
``--smoke`` to check in seconds that everything runs (its figures mean
nothing), ``--json`` for machine-readable output, ``--out FILE`` to keep the
JSON, ``--installed`` to measure the installed ``cardrules`` (such as a wheel
compiled with mypyc) rather than this checkout's.

Each row pairs one of our calls with OpenSpiel's equivalent on the same kind
of position, and the two are timed in the same process, run for run
interleaved, so that both see the same machine load; the ratio of their
medians (ours / theirs, by CPU time) is the claim, next to its target where
the issue sets one (:data:`TARGETS`):

* ``api``: one-hand Oh Hell through the public API (``Game(...)``, then
  ``apply(rng.choice(legal_actions()), to_act)`` to the end), against
  OpenSpiel driven the fastest way from Python
  (``openspiel_peer`` driver ``"uniform"``: the reference row of
  ``bench_engine.py``);
* ``ids``: the same one-hand games through the integer path (issue 24
  item 3): ``apply_id(rng.choice(legal_action_ids()), current_player())``
  until ``is_terminal()`` (no action objects), against the same reference;
  under it, the bound of that driver: the same loop and calls on a stub
  whose methods return at once (what CPython costs before any engine);
* ``playout``: ``Game(...).playout(None, rng)`` (the whole hand inside the
  engine, random policy) against OpenSpiel's C++ random playout
  (``pyspiel.evaluate_bots`` with uniform random bots, one call a hand:
  driver ``"native"``);
* ``clone``: ``Game.clone()`` against ``State.clone()``, mid-hand;
* ``observation``: ``Game.observation(seat)`` against
  ``State.information_state_tensor(player)`` (``oh_hell`` has no
  ``observation_tensor``: the row says so);
* ``information_state``: ``Game.information_state(seat)`` (text) against
  ``State.information_state_string(player)``, and
  ``information_state_tensor`` against ``information_state_tensor``;
* ``sample_world``: ``Game.sample_world(seat, rng)`` against
  ``State.resample_from_infostate(player, sampler)`` (when the engine has
  ``sample_world``; else the row says so);
* ``random_bot``: Kachuful through ``play_game`` with random bots (their
  decision context, no view), against the bare loop
  ``apply(choice(legal_actions()))`` on the same games (issue 24 item 2: the
  ratio is ours / ours, no OpenSpiel row);
* ``pimc`` / ``ismcts``: CPU ms per decision of seat 0 at hands 1, 6, 14 and
  19 of a Kachuful game, default budgets (``bench_decisions.search``); the
  target is under 50 ms at every point in the compiled build (the verdict
  reads the mean of each hand; the max is shown too);
* ``undo``: ``Game.undo()`` of a card just played against
  ``State.undo_action(player, action)`` (``oh_hell`` does not implement it:
  the row says so and shows ours alone).

The positions ("mid-hand") are a pool of random one-hand games of 4 players
and 10 cards, each stopped after the bids and a random number (0 to 35) of
cards played, drawn the same way in both engines. Calls that could reuse
what an earlier call built (our event streams) are made each on a fresh
copy of a position, made before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import bench_decisions  # noqa: E402
import bench_engine  # noqa: E402
import openspiel_peer  # noqa: E402

import cardrules  # noqa: E402

#: The targets of the issue, by row and build (ours / OpenSpiel, medians):
#: None where the issue sets none for that build.
TARGETS: dict[str, dict[str, float | None]] = {
    "api": {"pure Python": 1.5, "compiled with mypyc": 3.0},
    "ids": {"pure Python": 1.5, "compiled with mypyc": 3.0},
    "sample_world": {"pure Python": 0.2, "compiled with mypyc": 0.2},
    "random_bot": {"pure Python": 0.5, "compiled with mypyc": 0.5},
    "playout": {"pure Python": None, "compiled with mypyc": 1.0},
    "clone": {"pure Python": 1.0, "compiled with mypyc": 1.0},
    "observation": {"pure Python": 10.0, "compiled with mypyc": 10.0},
}

#: The search bots' target: CPU ms per decision, by build (None: no target).
DECISION_MS: dict[str, float | None] = {"pure Python": None, "compiled with mypyc": 50.0}

#: The decisions of a one-hand game of 4 players and 10 cards: 4 bids, 40 cards.
DECISIONS = 44

#: The run modes: (runs, scale of the counts).
MODES: dict[str, tuple[int, float]] = {
    "full": (7, 1.0),
    "quick": (5, 0.3),
    "smoke": (3, 0.01),
}

#: (wall seconds, CPU seconds) of one timed run.
Times = tuple[float, float]


def _clock(fn: Callable[[], object]) -> Times:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


# --------------------------------------------------------------------------- positions


def our_positions(variant: cardrules.Variant, count: int, seed: int) -> list[cardrules.Game]:
    """``count`` one-hand games stopped mid-hand: after the bids and 0 to 35 cards."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        g = cardrules.Game(variant, players=4, seed=seed * 1_000_003 + i)
        cards = rng.randrange(36)
        while not (g.phase == "play" and len(g.current_trick()) + 4 * sum(g.tricks_won) >= cards):
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        out.append(g)
    return out


def spiel_positions(count: int, seed: int) -> list[Any]:
    """OpenSpiel's ``oh_hell`` states drawn as :func:`our_positions` draws ours."""
    game = openspiel_peer.load_game(4, 10)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        cards = rng.randrange(36)
        played = -1
        while played < cards:
            if not state.is_chance_node() and state.legal_actions()[0] < openspiel_peer.NUM_CARDS:
                played += 1  # a decision among cards: the play has started
                if played == cards:
                    break
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out


# --------------------------------------------------------------------------- timing


def over(items: list[Any], call: Callable[[Any], object]) -> Callable[[], None]:
    """One call on each item of ``items``, in order."""

    def run() -> None:
        for x in items:
            call(x)

    return run


def rates(what: str, unit: str, size: int, times: list[Times]) -> dict[str, Any]:
    return bench_engine.rates(what, unit, size, times)


def race(
    runs: int,
    ours: Callable[[int], Times],
    theirs: Callable[[int], Times] | None,
) -> tuple[list[Times], list[Times]]:
    """``runs`` runs of each, interleaved (ours, then theirs); each gets the run's index."""
    a: list[Times] = []
    b: list[Times] = []
    for i in range(runs):
        a.append(ours(i))
        if theirs is not None:
            b.append(theirs(i))
    return a, b


def ratio(mine: dict[str, Any], spiel: dict[str, Any], key: str, build: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "median": mine["median"] / spiel["median"],
        "median_wall": mine["median_wall"] / spiel["median_wall"],
        "runs": [a / b for a, b in zip(mine["runs"], spiel["runs"], strict=True)],
    }
    target = TARGETS.get(key, {}).get(build)
    if target is not None:
        out["target"] = target
        out["meets_target"] = out["median"] >= target
    return out


# --------------------------------------------------------------------------- the rows


def run(mode: str, seed: int) -> dict[str, Any]:
    """Every row, in ``mode`` (a key of :data:`MODES`)."""
    runs, scale = MODES[mode]

    def n(x: int) -> int:
        return max(3, int(x * scale))

    machine = bench_engine.machine()
    build = machine["build"]["kind"]
    variant = cardrules.load_text(bench_engine.ONE_HAND_TEXT)
    have_spiel = openspiel_peer.available()
    rows: dict[str, Any] = {}
    no_spiel = "open_spiel not installed"

    def pair(
        key: str,
        what: str,
        theirs_what: str,
        unit: str,
        size: int,
        ours: Callable[[int], Times],
        theirs: Callable[[int], Times] | None,
        missing: str | None = None,
    ) -> None:
        a, b = race(runs, ours, theirs)
        row: dict[str, Any] = {"ours": rates(what, unit, size, a)}
        if theirs is not None:
            row["theirs"] = rates(theirs_what, unit, size, b)
            row["ratio"] = ratio(row["ours"], row["theirs"], key, build)
        else:
            row["theirs"] = {"what": theirs_what, "skipped": missing or no_spiel}
            target = TARGETS.get(key, {}).get(build)
            if target is not None:
                row["target"] = target
        rows[key] = row

    # Warm up: the engine's action tables, OpenSpiel's game.
    bench_engine.time_games(variant, 4, n(200), seed)
    if have_spiel:
        rows_check = 3 if mode == "smoke" else 20
        chance_nodes = openspiel_peer.check_uniform_chance(rows_check, seed)
        for driver in ("uniform", "native"):
            openspiel_peer.time_random_hands(20, seed, driver)

    # One-hand games: the public API, and playout(), against OpenSpiel's drivers.
    games = n(3000)
    pair(
        "api",
        "one-hand Oh Hell games/s, public API: apply(rng.choice(legal_actions()))",
        "OpenSpiel oh_hell hands/s, reference: rng.choice(legal_actions()) at every node",
        "games/s",
        games,
        lambda i: bench_engine.time_games(variant, 4, games, seed + i),
        (lambda i: openspiel_peer.time_random_hands(games, seed + i, "uniform"))
        if have_spiel
        else None,
    )
    if have_spiel:
        rows["api"]["chance_check"] = {"hands": rows_check, "chance_nodes": chance_nodes}

    # What bounds the api row: the driver's own loop, 44 rng.choice() calls a
    # game (4 bids and 40 cards) and no engine at all.
    def driver_alone(i: int) -> Times:
        choice = random.Random(seed + i).choice
        legal = tuple(range(10))

        def go() -> None:
            for _ in range(games):
                for _ in range(DECISIONS):
                    choice(legal)

        return _clock(go)

    rows["api"]["driver_alone"] = rates(
        f"  the driver alone: {DECISIONS} rng.choice() a game, no engine (a bound on the api row)",
        "games/s",
        games,
        [driver_alone(i) for i in range(runs)],
    )

    # The integer path: the same games, ids only.
    ids_games = games
    pair(
        "ids",
        "one-hand Oh Hell games/s, integer path: apply_id(choice(legal_action_ids()))",
        "OpenSpiel oh_hell hands/s, reference: rng.choice(legal_actions()) at every node",
        "games/s",
        ids_games,
        lambda i: bench_engine.time_games_ids(variant, 4, ids_games, seed + i),
        (lambda i: openspiel_peer.time_random_hands(ids_games, seed + i, "uniform"))
        if have_spiel
        else None,
    )
    rows["ids"]["driver_alone"] = rates(
        "  the integer driver on a stub game: the same loop and calls, no engine (a bound)",
        "games/s",
        ids_games,
        [_stub_ids_driver(ids_games, seed + i) for i in range(runs)],
    )

    playouts = n(10_000)

    def our_playouts(i: int) -> Times:
        rng = random.Random(seed + i)
        base = seed * 1_000_003 + i * playouts
        game = cardrules.Game

        def go() -> None:
            for k in range(playouts):
                game(variant, 4, seed=base + k).playout(None, rng)

        return _clock(go)

    pair(
        "playout",
        "one-hand Oh Hell games/s, Game(...).playout(None, rng) (random policy)",
        "OpenSpiel oh_hell hands/s, native: C++ evaluate_bots, uniform random bots",
        "games/s",
        playouts,
        our_playouts,
        (lambda i: openspiel_peer.time_random_hands(playouts, seed + i, "native"))
        if have_spiel
        else None,
    )

    # Calls on mid-hand positions.
    pool = n(400)
    ours_pos = our_positions(variant, pool, seed)
    spiel_pos = spiel_positions(pool, seed) if have_spiel else []
    reps = max(1, int(n(100_000) / pool))

    def fresh(positions: list[Any], copies: int) -> list[Any]:
        return [p.clone() for _ in range(copies) for p in positions]

    def timed_over(
        make: Callable[[], list[Any]], call: Callable[[Any], object]
    ) -> Callable[[int], Times]:
        def one(i: int) -> Times:
            items = make()
            return _clock(over(items, call))

        return one

    clone_items_ours = ours_pos * reps
    clone_items_spiel = spiel_pos * reps
    pair(
        "clone",
        "clone()/s, one-hand Oh Hell mid-hand",
        "OpenSpiel State.clone()/s, oh_hell mid-hand",
        "calls/s",
        len(clone_items_ours),
        timed_over(lambda: clone_items_ours, lambda g: g.clone()),
        timed_over(lambda: clone_items_spiel, lambda s: s.clone()) if have_spiel else None,
    )

    copies = max(1, int(n(5_000) / pool))
    calls = pool * copies

    def seat_of(g: cardrules.Game) -> int:
        s = g.to_act
        assert s is not None
        return s

    pair(
        "observation",
        "observation(seat)/s, mid-hand, seat to act, each on a fresh copy",
        "OpenSpiel information_state_tensor(player)/s, mid-hand",
        "calls/s",
        calls,
        timed_over(lambda: fresh(ours_pos, copies), lambda g: g.observation(seat_of(g))),
        timed_over(
            lambda: fresh(spiel_pos, copies),
            lambda s: s.information_state_tensor(s.current_player()),
        )
        if have_spiel
        else None,
    )
    observation_tensor = (
        "not provided by OpenSpiel's oh_hell (GameType.provides_observation_tensor is False)"
    )
    if have_spiel and openspiel_peer.load_game(4, 10).get_type().provides_observation_tensor:
        observation_tensor = ""
    rows["observation"]["observation_tensor"] = observation_tensor or "provided"

    pair(
        "information_state",
        "information_state(seat)/s (text), mid-hand, each on a fresh copy",
        "OpenSpiel information_state_string(player)/s, mid-hand",
        "calls/s",
        calls,
        timed_over(lambda: fresh(ours_pos, copies), lambda g: g.information_state(seat_of(g))),
        timed_over(
            lambda: fresh(spiel_pos, copies),
            lambda s: s.information_state_string(s.current_player()),
        )
        if have_spiel
        else None,
    )
    pair(
        "information_state_tensor",
        "information_state_tensor(seat)/s, mid-hand, each on a fresh copy",
        "OpenSpiel information_state_tensor(player)/s, mid-hand",
        "calls/s",
        calls,
        timed_over(
            lambda: fresh(ours_pos, copies), lambda g: g.information_state_tensor(seat_of(g))
        ),
        timed_over(
            lambda: fresh(spiel_pos, copies),
            lambda s: s.information_state_tensor(s.current_player()),
        )
        if have_spiel
        else None,
    )

    worlds = max(1, int(n(1_000) / pool)) * pool
    if hasattr(cardrules.Game, "sample_world"):
        world_rng = random.Random(seed)

        def sample(g: cardrules.Game) -> object:
            return g.sample_world(seat_of(g), world_rng)  # type: ignore[attr-defined]

        spiel_sampler: Callable[[int], Times] | None = None
        if have_spiel:
            import pyspiel

            sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
            spiel_sampler = timed_over(
                lambda: fresh(spiel_pos, worlds // pool),
                lambda s: s.resample_from_infostate(s.current_player(), sampler),
            )
        pair(
            "sample_world",
            "sample_world(seat, rng)/s, mid-hand, each on a fresh copy",
            "OpenSpiel resample_from_infostate(player, sampler)/s, mid-hand",
            "calls/s",
            worlds,
            timed_over(lambda: fresh(ours_pos, worlds // pool), sample),
            spiel_sampler,
        )
    else:
        rows["sample_world"] = {
            "ours": {
                "what": "sample_world(seat, rng)/s",
                "skipped": "not in this build of cardrules (no Game.sample_world)",
            },
            "theirs": {"what": "OpenSpiel resample_from_infostate(player, sampler)/s"},
        }

    # Item 2: the random bot through play_game against the bare loop, and the
    # search bots' CPU per decision.
    bot_games = max(1, int(6 * scale)) if mode != "smoke" else 1
    decisions = bench_decisions.games(runs, bot_games)
    bare = decisions["bare loop: apply(choice(legal_actions()))"]
    ctx = decisions["play_game, random bots (context)"]
    rb: dict[str, Any] = {
        "ours": {
            "what": "Kachuful actions/s, play_game with random bots (decision context)",
            "median": ctx["rate"],
        },
        "bare": {
            "what": "Kachuful actions/s, bare loop apply(choice(legal_actions()))",
            "median": bare["rate"],
        },
        "ratio_self": ctx["rate"] / bare["rate"],
    }
    target = TARGETS["random_bot"].get(build)
    if target is not None:
        rb["target"] = target
        rb["meets_target"] = rb["ratio_self"] >= target
    rows["random_bot"] = rb
    hands = bench_decisions.HANDS if mode != "smoke" else (1,)
    searched = bench_decisions.search(hands, 7, smoke=mode == "smoke")
    limit = DECISION_MS.get(build)
    for bot in ("pimc", "ismcts"):
        points = [r for r in searched if r["bot"] == bot]
        entry: dict[str, Any] = {"points": points}
        if limit is not None:
            entry["target_ms"] = limit
            entry["meets_target"] = all(r["mean_ms"] < limit for r in points)
            entry["meets_target_max"] = all(r["max_ms"] < limit for r in points)
        rows[bot] = entry

    undos = n(20_000)

    def played(copies_: int) -> list[cardrules.Game]:
        out = []
        for g in fresh(ours_pos, copies_):
            g.apply(g.legal_actions()[0], seat_of(g))
            out.append(g)
        return out

    undo_copies = max(1, undos // pool)
    pair(
        "undo",
        "undo()/s of the card just played, mid-hand, each on a fresh copy",
        "OpenSpiel State.undo_action(player, action)/s",
        "calls/s",
        undo_copies * pool,
        timed_over(lambda: played(undo_copies), lambda g: g.undo()),
        None,
        missing="not implemented by OpenSpiel's oh_hell "
        "(SpielError: UndoAction function is not overridden)"
        if have_spiel and not _spiel_undoes(spiel_pos)
        else None,
    )
    return {"machine": machine, "mode": mode, "runs": runs, "seed": seed, "rows": rows}


class _Stub:
    """A game whose integer-path methods return at once: the bound of the
    ``ids`` row's driver (:func:`_stub_ids_driver`)."""

    __slots__ = ("_left",)

    _IDS: tuple[int, ...] = tuple(range(10))

    def __init__(self) -> None:
        self._left = DECISIONS

    def legal_action_ids(self) -> list[int]:
        return list(self._IDS)

    def apply_id(self, action_id: int, seat: int) -> None:
        self._left -= 1

    def current_player(self) -> int:
        return 0

    def is_terminal(self) -> bool:
        return not self._left


def _stub_ids_driver(games: int, seed: int) -> Times:
    """:func:`bench_engine.play_out_ids` over ``games`` stub games of
    :data:`DECISIONS` decisions each (a stub made per game, as ``Game(...)``)."""
    rng = random.Random(seed)

    def go() -> None:
        for _ in range(games):
            bench_engine.play_out_ids(_Stub(), rng)  # type: ignore[arg-type]

    return _clock(go)


def _spiel_undoes(states: list[Any]) -> bool:
    """Whether OpenSpiel's ``oh_hell`` takes an action back (``undo_action``)."""
    s = states[0].clone()
    player, action = s.current_player(), s.legal_actions()[0]
    s.apply_action(action)
    try:
        s.undo_action(player, action)
    except Exception:  # pyspiel.SpielError: not overridden
        return False
    return True


# --------------------------------------------------------------------------- output


def _fmt(x: float) -> str:
    return bench_engine._fmt(x)


_W = 84

#: The rows in the order of the table.
ORDER = (
    "api",
    "ids",
    "playout",
    "clone",
    "observation",
    "information_state",
    "information_state_tensor",
    "sample_world",
    "random_bot",
    "pimc",
    "ismcts",
    "undo",
)


def table(report: dict[str, Any]) -> str:
    m = report["machine"]
    mode = "" if report["mode"] == "full" else f" (--{report['mode']})"
    lines = [
        f"cardrules {m['cardrules']} research benchmark, {m['date']}",
        f"Python {m['python']} on {m['platform']}, {m['cpu']}, {m['cpus']} CPUs"
        + (f", open_spiel {m['open_spiel']}" if m["open_spiel"] else ""),
        f"median of {report['runs']} runs{mode}, ours and OpenSpiel's interleaved run for run; "
        "rates per second of CPU time (wall time: the `wall` column)",
        f"load average at the start: {m['load_average']}",
        f"engine measured: {m['build']['kind']} ({m['build']['game_module']})",
        "",
        f"{'benchmark':<{_W}} {'median':>10} {'wall':>10}  {'runs (CPU)':<s}",
        "-" * 132,
    ]

    def row(r: dict[str, Any]) -> None:
        if "skipped" in r:
            lines.append(f"{r['what']:<{_W}} {r['skipped']}")
            return
        runs = " ".join(_fmt(x) for x in r["runs"])
        lines.append(
            f"{r['what']:<{_W}} {_fmt(r['median']):>10} {_fmt(r['median_wall']):>10}  [{runs}]"
        )

    rows = report["rows"]
    for key in ORDER:
        r = rows[key]
        if key == "random_bot":
            _random_bot_lines(lines, r)
            continue
        if key in ("pimc", "ismcts"):
            _search_lines(lines, key, r)
            continue
        row(r["ours"])
        if "skipped" in r["theirs"] or "median" in r["theirs"]:
            row(r["theirs"])
        if key in ("api", "ids") and "driver_alone" in r:
            row(r["driver_alone"])
            if "median" in r["theirs"]:
                bound = r["driver_alone"]["median"] / r["theirs"]["median"]
                lines.append(
                    f"  (so, with this driver, ours / OpenSpiel is below {bound:.2f} "
                    "whatever the engine costs)"
                )
        if key == "api" and "chance_check" in r:
            c = r["chance_check"]
            lines.append(
                f"  (oh_hell chance outcomes checked uniform in this run: {c['chance_nodes']:,} "
                f"chance nodes of {c['hands']} hands)"
            )
        if key == "observation" and "observation_tensor" in r:
            lines.append(f"  (OpenSpiel observation_tensor: {r['observation_tensor']})")
        if "ratio" in r:
            q = r["ratio"]
            runs = " ".join(f"{x:.2f}" for x in q["runs"])
            label = f"  ratio ours / OpenSpiel ({key})"
            lines.append(f"{label:<{_W}} {q['median']:>10.2f} {q['median_wall']:>10.2f}  [{runs}]")
            if "target" in q:
                verdict = "meets" if q["meets_target"] else "MISSES"
                lines.append(f"  ({verdict} the target of {q['target']} for this build)")
        elif "target" in r:
            lines.append(f"  (target {r['target']} for this build: no OpenSpiel row to compare)")
    return "\n".join(lines)


def _random_bot_lines(lines: list[str], r: dict[str, Any]) -> None:
    """The ``random_bot`` row: two rates of ours and their ratio (no OpenSpiel)."""
    for part in ("ours", "bare"):
        lines.append(f"{r[part]['what']:<{_W}} {_fmt(r[part]['median']):>10}")
    label = "  ratio play_game random bots / bare loop (random_bot)"
    lines.append(f"{label:<{_W}} {r['ratio_self']:>10.2f}")
    if "target" in r:
        verdict = "meets" if r["meets_target"] else "MISSES"
        lines.append(f"  ({verdict} the target of {r['target']} for this build)")


def _search_lines(lines: list[str], bot: str, r: dict[str, Any]) -> None:
    """A search bot's row: CPU ms per decision at each hand timed, and the verdict."""
    for p in r["points"]:
        what = (
            f"{bot} CPU ms/decision, Kachuful hand {p['hand']} "
            f"({p['decisions']} decisions; mean, max)"
        )
        lines.append(f"{what:<{_W}} {p['mean_ms']:>10.1f} {p['max_ms']:>10.1f}")
    if "target_ms" in r:
        verdict = "meets" if r["meets_target"] else "MISSES"
        worst = max((p["mean_ms"] for p in r["points"]), default=0.0)
        lines.append(
            f"  ({verdict} the target of under {r['target_ms']:g} ms a decision for this "
            f"build, by the mean of each hand: worst {worst:.1f} ms; by the max: "
            f"{'meets' if r['meets_target_max'] else 'MISSES'})"
        )
    else:
        lines.append("  (no target for this build: the issue's target is for the compiled build)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true", help="fewer calls and 5 runs")
    modes.add_argument(
        "--smoke", action="store_true", help="a few calls of each row, to check that it runs"
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
    report["command"] = " ".join(["python", "benchmarks/bench_research.py", *sys.argv[1:]])
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
