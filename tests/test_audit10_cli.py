"""Issue 10, items 5, 6, 7 and 11: the command line and the loader on hostile input.

* Item 5: paths that are not regular files (FIFOs, ``/dev/zero``) and oversized
  files are refused before anything blocks or reads without bound.
* Item 6: numbers far too big (players, games, jobs, seeds, trick limits) are
  refused, from the command line and from :func:`cardrules.simulate.simulate`,
  before anything is allocated.
* Item 7: a refused ``extends`` tells the author "outside the folders this
  loader may read" without naming the server's folders (they go to the log), and
  the did-you-mean of an unknown name looks at a bounded number of files.
* Item 11: ``fmt`` reads only ``.cardrules`` files with the checks of ``check``;
  ``play --load`` never loads a variant a save names; ``fmt --write`` reports an
  unwritable folder; ``--jobs`` and ``--max-tricks`` of 0 or less are refused.

Commands that could hang or eat memory before the fixes run in a subprocess
with a timeout (and an address-space limit where the platform has one), so a
regression fails the test instead of hanging it.
"""

from __future__ import annotations

import concurrent.futures as cf
import io
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardrules
import cardrules.simulate as simulate_module
from cardrules.cli import main
from cardrules.dsl import builtin_dir, limits, load, load_text
from cardrules.engine.state.saves import MAX_SAVE_BYTES
from cardrules.errors import CardrulesError, VariantError
from cardrules.simulate import MAX_GAMES, MAX_JOBS, SimulationError, simulate

CLI = "import sys; from cardrules.cli import main; sys.exit(main())"


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    try:
        import resource
    except ImportError:
        return
    two_gb = 2 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (two_gb, two_gb))


def cli(
    *argv: str, cwd: Path, timeout: float = 60, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``cardrules ARGV`` in a child process; a hang fails the test."""
    try:
        return subprocess.run(
            [sys.executable, "-c", CLI, *argv],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=_limit_memory if os.name == "posix" else None,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"cardrules {' '.join(argv)} did not finish in {timeout} s")


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Run ``cardrules ARGV`` in this process."""
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, err: str, *words: str, usage: bool = False) -> None:
    """A clean refusal: non-zero exit, one line on stderr naming ``words``, no traceback."""
    assert code == (2 if usage else 1), err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("cardrules: "), err
    for w in words:
        assert w in lines[0], err


def best_time(fn: Callable[[], object], tries: int = 3) -> float:
    """The shortest of a few runs of ``fn`` (which must raise a CardrulesError)."""
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        with pytest.raises(CardrulesError):
            fn()
        best = min(best, time.perf_counter() - start)
    return best


# --------------------------------------------------------------------------- item 5


def test_fmt_refuses_a_fifo_instead_of_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.cardrules")
    res = cli("fmt", "pipe.cardrules", cwd=tmp_path, timeout=30)
    assert_refused(res.returncode, res.stderr, "pipe.cardrules", "not a regular file")
    res = cli("fmt", "--check", "pipe.cardrules", cwd=tmp_path, timeout=30)
    assert_refused(res.returncode, res.stderr, "not a regular file")


def test_play_load_refuses_a_fifo_instead_of_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "save.json")
    res = cli("play", "--load", "save.json", cwd=tmp_path, timeout=30)
    assert_refused(res.returncode, res.stderr, "save.json", "not a regular file")


def test_play_load_refuses_dev_zero_unread(tmp_path: Path) -> None:
    res = cli("play", "--load", os.devnull.replace("null", "zero"), cwd=tmp_path, timeout=60)
    assert_refused(res.returncode, res.stderr, "not a regular file")


def test_play_load_refuses_an_oversized_save_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_SAVE_BYTES + 1)  # sparse: nothing is written
    code, _, err = run(capsys, "play", "--load", str(big))
    assert_refused(code, err, "too large", f"{MAX_SAVE_BYTES:,}")


def test_fmt_refuses_an_oversized_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    big = tmp_path / "big.cardrules"
    with open(big, "wb") as f:
        f.truncate(limits.MAX_FILE_BYTES + 1)
    code, _, err = run(capsys, "fmt", str(big))
    assert code == 1 and "too large" in err and "Traceback" not in err


def test_paths_with_a_nul_are_refused_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    """From Python, ``main()`` may be handed a path no file system has."""
    code, _, err = run(capsys, "play", "--load", "a\x00b.json")
    assert_refused(code, err, "NUL")
    code, _, err = run(capsys, "fmt", "a\x00b.cardrules")
    assert_refused(code, err, "NUL")


# --------------------------------------------------------------------------- item 6: CLI


def test_simulate_refuses_a_trillion_players_at_once(tmp_path: Path) -> None:
    start = time.monotonic()
    res = cli(
        "simulate",
        "kachuful",
        "--players",
        "1000000000000",
        "--games",
        "1",
        "--no-progress",
        cwd=tmp_path,
    )
    assert_refused(res.returncode, res.stderr, "kachuful is for 3 to 7 players")
    assert time.monotonic() - start < 30


def test_simulate_refuses_ten_billion_games_at_once(tmp_path: Path) -> None:
    res = cli(
        "simulate",
        "kachuful",
        "--players",
        "4",
        "--games",
        "10000000000",
        "--no-progress",
        cwd=tmp_path,
    )
    assert_refused(res.returncode, res.stderr, "--games", f"{MAX_GAMES:,}", usage=True)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--games", "-1", ("--games", f"0 to {MAX_GAMES:,}")),
        ("--jobs", "0", ("--jobs", f"1 to {MAX_JOBS}")),
        ("--jobs", "-4", ("--jobs", f"1 to {MAX_JOBS}")),
        ("--jobs", "1000000", ("--jobs", f"1 to {MAX_JOBS}")),
        ("--max-tricks", "0", ("--max-tricks",)),
        ("--max-tricks", "-1", ("--max-tricks",)),
        ("--max-tricks", str(10**12), ("--max-tricks",)),
        ("--seed", "-1", ("--seed", "2**64 - 1")),
        ("--seed", str(2**64), ("--seed", "2**64 - 1")),
        ("--seed", "9" * 4000, ("--seed", "a number of 4,000 digits")),
    ],
)
def test_simulate_refuses_bad_numbers(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    value: str,
    words: tuple[str, ...],
) -> None:
    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a process pool was asked for: {kwargs}")

    monkeypatch.setattr(cf, "ProcessPoolExecutor", no_pool)
    code, out, err = run(
        capsys,
        "simulate",
        "kachuful",
        "--players",
        "4",
        "--games",
        "2",
        "--no-progress",
        option,
        value,
    )
    assert_refused(code, err, *words, usage=True)
    assert out == ""


def test_simulate_jobs_auto_is_bounded(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []

    class FakePool(cf.ThreadPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            asked.append(max_workers)
            super().__init__(max_workers=1)

    monkeypatch.setattr(os, "cpu_count", lambda: 100_000)
    monkeypatch.setattr(cf, "ProcessPoolExecutor", FakePool)
    code, out, err = run(
        capsys,
        "simulate",
        "kachuful",
        "--players",
        "4",
        "--games",
        "2",
        "--jobs",
        "auto",
        "--no-progress",
        "--json",
    )
    assert code == 0, err
    assert asked == [MAX_JOBS]
    assert json.loads(out)["games"] == 2


@pytest.mark.parametrize(
    ("argv", "words", "usage"),
    [
        (["demo", "--seed", "-5", "--no-tricks"], ("--seed", "2**64 - 1"), True),
        (["demo", "--seed", str(2**64)], ("--seed",), True),
        (["demo", "--players", str(10**12)], ("kachuful is for 3 to 7 players",), False),
        (["play", "kachuful", "--seed", "-1"], ("--seed", "2**64 - 1"), True),
        (["play", "kachuful", "--players", str(10**12)], ("kachuful is for 3 to 7",), False),
        (["play", "kachuful", "--seat", str(10**30)], ("--seat", "1 to 4"), True),
        (["rules", "kachuful", "--players", str(10**12)], ("kachuful is for 3 to 7",), False),
    ],
)
def test_demo_play_and_rules_refuse_bad_numbers(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: tuple[str, ...], usage: bool
) -> None:
    code, out, err = run(capsys, *argv, stdin="quit\n")
    assert_refused(code, err, *words, usage=usage)
    assert out == ""


# --------------------------------------------------------------------------- item 6: Python


@pytest.fixture(scope="module")
def kachuful() -> cardrules.Variant:
    return load("kachuful")


def test_simulate_refuses_millions_of_players_fast(kachuful: cardrules.Variant) -> None:
    elapsed = best_time(lambda: simulate(kachuful, 5_000_000, 1))
    assert elapsed < 0.5
    with pytest.raises(VariantError, match=r"kachuful is for 3 to 7 players, not 5000000"):
        simulate(kachuful, 5_000_000, 1)
    with pytest.raises(VariantError, match="an int of 3,322 bits"):
        simulate(kachuful, 10**1000, 1)


def test_simulate_never_asks_for_a_million_workers(
    kachuful: cardrules.Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a process pool was asked for: {kwargs}")

    monkeypatch.setattr(cf, "ProcessPoolExecutor", no_pool)
    with pytest.raises(SimulationError, match=f"jobs must be an int from 1 to {MAX_JOBS}"):
        simulate(kachuful, 4, 10, jobs=1_000_000)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"games": 10**10}, f"games must be an int from 0 to {MAX_GAMES:,}"),
        ({"games": -1}, "games must be"),
        ({"games": True}, "games must be"),
        ({"jobs": 0}, "jobs must be"),
        ({"seed": -1}, r"seed must be an int from 0 to 2\*\*64 - 1"),
        ({"seed": 2**64}, r"seed must be"),
        ({"seed": 1.5}, r"seed must be"),
        ({"max_tricks": 0}, "max_tricks must be"),
        ({"max_tricks": -3}, "max_tricks must be"),
        ({"max_tricks": 10**12}, "max_tricks must be"),
        ({"chunk_size": 0}, "chunk_size must be"),
        ({"chunk_size": 2.0}, "chunk_size must be"),
        ({"players": "4"}, "players must be an int"),
        ({"bots": iter(["random"] * 10**6)}, "more than 4 bots for 4 seats"),
        ({"progress": 3}, "progress must be callable"),
    ],
)
def test_simulate_refuses_bad_arguments(
    kachuful: cardrules.Variant,
    monkeypatch: pytest.MonkeyPatch,
    kwargs: dict[str, Any],
    match: str,
) -> None:
    played: list[object] = []
    monkeypatch.setattr(simulate_module, "_run_chunk", played.append)
    args: dict[str, Any] = {"players": 4, "games": 10, "bots": "random"} | kwargs
    with pytest.raises(SimulationError, match=match):
        simulate(kachuful, **args)
    assert played == []


def test_simulate_bounds_the_tasks_in_flight(
    kachuful: cardrules.Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an executor, chunks are handed over a bounded number at a time (not
    one future per game of a ten-million-game run held at once)."""

    class Counting(cf.ThreadPoolExecutor):
        def __init__(self) -> None:
            super().__init__(max_workers=1)
            self.lock = threading.Lock()
            self.outstanding = 0
            self.most = 0

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
            with self.lock:
                self.outstanding += 1
                self.most = max(self.most, self.outstanding)
            fut = super().submit(fn, *args, **kwargs)
            fut.add_done_callback(self._done)
            return fut

        def _done(self, fut: cf.Future[Any]) -> None:
            with self.lock:
                self.outstanding -= 1

    def slow_empty_chunk(job: Any) -> simulate_module.Summary:
        time.sleep(0.0005)
        return simulate_module.Summary(
            variant=job.variant.name,
            mode="tricks",
            players=job.players,
            bots=job.names,
            seed=job.seed,
        )

    monkeypatch.setattr(simulate_module, "_run_chunk", slow_empty_chunk)
    done: list[int] = []
    with Counting() as ex:
        simulate(
            kachuful,
            4,
            3000,
            "random",
            executor=ex,
            chunk_size=1,
            progress=lambda d, t: done.append(d),
        )
    assert 0 < ex.most <= 1024
    assert len(done) == 3001


# --------------------------------------------------------------------------- item 7


def test_extends_outside_names_no_server_folder(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    served = tmp_path / "served-folder"
    served.mkdir()
    (tmp_path / "secret.cardrules").write_text("game: secret\nextends: oh-hell\n")
    text = 'game: x\nextends: "../secret.cardrules"\n'
    with caplog.at_level(logging.DEBUG, logger="cardrules"), pytest.raises(VariantError) as info:
        load_text(text, search=[served])
    message = str(info.value)
    assert "outside the folders this loader may read" in message
    assert str(served) not in message and str(builtin_dir()) not in message
    assert "allowed" not in message
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert str(served) in logged  # the operator's log keeps the folders


def test_path_outside_names_no_server_folder(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    served = tmp_path / "served-folder"
    served.mkdir()
    f = tmp_path / "x.cardrules"
    f.write_text("game: x\nextends: oh-hell\n")
    with caplog.at_level(logging.DEBUG, logger="cardrules"), pytest.raises(VariantError) as info:
        load(f, search=[served])
    message = str(info.value)
    assert "outside the folders this loader may read" in message
    assert str(served) not in message and str(builtin_dir()) not in message
    assert str(served) in "\n".join(r.getMessage() for r in caplog.records)


def test_unknown_name_in_a_huge_folder_is_refused_fast(tmp_path: Path) -> None:
    for i in range(20_000):
        (tmp_path / f"variant-{i:05d}.cardrules").touch()
    elapsed = best_time(lambda: load("no-such-thing", search=[tmp_path]))
    assert elapsed < 0.5
    with pytest.raises(VariantError, match="there is no variant called 'no-such-thing'"):
        load("no-such-thing", search=[tmp_path])


def test_did_you_mean_still_works_in_a_small_folder(tmp_path: Path) -> None:
    (tmp_path / "my-house.cardrules").write_text("game: my-house\nextends: oh-hell\n")
    with pytest.raises(VariantError, match="did you mean 'my-house'"):
        load("my-hose", search=[tmp_path])
    with pytest.raises(VariantError, match="did you mean 'kachuful'"):
        load("kachufl", search=[tmp_path])


# --------------------------------------------------------------------------- item 11


def test_fmt_does_not_read_or_echo_a_non_variant_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    secret = tmp_path / "notes.txt"
    secret.write_text("TOP-SECRET-LINE:x:0:0\n")
    code, out, err = run(capsys, "fmt", str(secret))
    assert_refused(code, err, "not a variant file", ".cardrules")
    assert "TOP-SECRET" not in err + out


def test_fmt_refuses_a_symlink_out_of_its_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    secret = other / "secret.cardrules"
    secret.write_text("TOP-SECRET-LINE\n")
    here = tmp_path / "here"
    here.mkdir()
    (here / "link.cardrules").symlink_to(secret)
    code, out, err = run(capsys, "fmt", str(here / "link.cardrules"))
    assert code == 1 and "outside the folders this loader may read" in err
    assert "TOP-SECRET" not in err + out
    # check refuses it the same way
    code, out, err = run(capsys, "check", str(here / "link.cardrules"))
    assert code == 1 and "outside the folders this loader may read" in err


def test_fmt_write_reports_an_unwritable_folder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    f = tmp_path / "messy.cardrules"
    f.write_text("game:   messy\nextends:    oh-hell\n")
    before = f.read_text()

    def read_only(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Read-only file system")

    import tempfile

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    code, _, err = run(capsys, "fmt", "--write", str(f))
    assert_refused(code, err, "cannot write", "messy.cardrules", "Read-only file system")
    assert f.read_text() == before


def _saved_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> dict[str, Any]:
    save = tmp_path / "game.json"
    code, _, err = run(
        capsys, "play", "kachuful", "--seed", "3", "--save", str(save), stdin="quit\n"
    )
    assert code == 0, err
    data: dict[str, Any] = json.loads(save.read_text())
    return data


def test_play_load_never_loads_the_variant_a_save_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _saved_game(capsys, tmp_path)
    evil = tmp_path / "elsewhere" / "evil.cardrules"
    evil.parent.mkdir()
    evil.write_text("game: kachuful\nEVIL-MARKER: read\n")
    for name in (str(evil), "../elsewhere/evil.cardrules", "no-such-variant"):
        save = tmp_path / "crafted.json"
        save.write_text(json.dumps({**data, "variant": name}))
        code, out, err = run(capsys, "play", "--load", str(save), stdin="quit\n")
        assert code == 0, err
        assert "EVIL-MARKER" not in out + err
        assert "Continuing the saved game" in out and "Kachuful" in out


def test_play_load_with_a_named_variant_checks_the_save_against_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _saved_game(capsys, tmp_path)
    save = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "kachuful", "--load", str(save), stdin="quit\n")
    assert code == 0 and "Continuing the saved game" in out, err
    code, out, err = run(capsys, "play", "oh-hell", "--load", str(save), stdin="quit\n")
    assert code == 1 and "kachuful" in err and "oh-hell" in err
    # --set without naming the variant would change the saved rules: refused
    code, out, err = run(capsys, "play", "--load", str(save), "--set", "hook=no")
    assert_refused(code, err, "--set", usage=True)
    # settings that the save holds are not taken from the command line
    code, out, err = run(capsys, "play", "--load", str(save), "--players", "5")
    assert_refused(code, err, "--players", usage=True)
    assert data["variant"] == "kachuful"
