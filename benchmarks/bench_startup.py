"""Start-up benchmark: the CPU time of a fresh process that imports cardrules,
loads a variant or runs a command (issue 24).

Run ``python benchmarks/bench_startup.py``, ``--quick`` for fewer runs,
``--smoke`` to check in seconds that everything runs (one run a row: its
figures mean little), ``--json`` for machine-readable output, ``--source DIR``
to measure another checkout's ``cardrules`` (``DIR`` is put first on
``PYTHONPATH``; the default is the checkout next to ``benchmarks/``), and
``--installed`` to measure the installed package.

Every row is a new Python process (the running interpreter) and every figure
is the median, over several runs (9, 5 with ``--quick``, 1 with ``--smoke``),
of that process's CPU time (user + system, from ``wait4``) in milliseconds:

* ``python``: the interpreter alone (``-c pass``), the floor of every row;
* ``import``: ``import cardrules``;
* ``import_load``: ``import cardrules; cardrules.load("kachuful")``, a cold
  load (the first in its process, so with the variant parser made);
* ``list``: ``cardrules list`` (every built-in loaded);
* ``check``: ``cardrules check`` on the built-in ``kachuful`` file (its
  examples played).

Each row runs once untimed first. The children write and read their bytecode
in a private directory (``PYTHONPYCACHEPREFIX``, made for the run), so they are
timed as an installed package is (with ``.pyc`` files), whatever
``PYTHONDONTWRITEBYTECODE`` says, and no file is written into the checkout.
Whether ``interegular`` is importable is printed: where it is, Lark checks
every pair of terminals for collisions at each parser it builds from a grammar.
``--no-interegular`` hides it from the children (``sys.modules["interegular"] =
None`` before anything else), to compare.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent

_CLI = "import sys; from cardrules.cli import main; sys.exit(main(sys.argv[1:]))"

#: The rows: (name, what it runs, the arguments after ``python``).
ROWS: tuple[tuple[str, str, list[str]], ...] = (
    ("python", "python -c pass", ["-c", "pass"]),
    ("import", "import cardrules", ["-c", "import cardrules"]),
    (
        "import_load",
        'import cardrules; cardrules.load("kachuful")',
        ["-c", "import cardrules; cardrules.load('kachuful')"],
    ),
    ("list", "cardrules list", ["-c", _CLI, "list"]),
    (
        "check",
        "cardrules check kachuful.cardrules",
        ["-c", _CLI, "check", str(ROOT / "variants" / "kachuful.cardrules")],
    ),
)


def _cpu_ms(args: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) of one child process, in milliseconds."""
    proc = subprocess.Popen(
        [sys.executable, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tempfile.gettempdir(),
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{args!r} failed ({proc.returncode}): {err.decode(errors='replace')}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def _env(source: Path | None, pycache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = pycache
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(source), os.environ.get("PYTHONPATH", "")) if p
        )
    return env


_HIDE: Final = "import sys; sys.modules['interegular'] = None\n"


def measure(runs: int, source: Path | None, hide_interegular: bool = False) -> dict[str, object]:
    """Every row's median CPU time over ``runs`` runs, and the runs."""
    with tempfile.TemporaryDirectory(prefix="cardrules-bench-pyc-") as pycache:
        env = _env(source, pycache)
        rows: dict[str, object] = {}
        for name, what, row_args in ROWS:
            args = ["-c", _HIDE + row_args[1], *row_args[2:]] if hide_interegular else row_args
            _cpu_ms(args, env)  # untimed: writes the bytecode
            times = [_cpu_ms(args, env) for _ in range(runs)]
            rows[name] = {"what": what, "median_ms": statistics.median(times), "runs_ms": times}
    return {
        "python": sys.version.split()[0],
        "interegular": not hide_interegular and importlib.util.find_spec("interegular") is not None,
        "source": str(source) if source is not None else "installed",
        "runs": runs,
        "rows": rows,
    }


def _print(report: dict[str, object]) -> None:
    print(
        f"start-up, CPU ms a process (median of {report['runs']}), Python {report['python']}, "
        f"interegular {'installed' if report['interegular'] else 'absent'}, "
        f"cardrules from {report['source']}"
    )
    rows = report["rows"]
    assert isinstance(rows, dict)
    for name, row in rows.items():
        print(f"  {name:<12} {row['median_ms']:8.0f}  {row['what']}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table (or JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    speed = ap.add_mutually_exclusive_group()
    speed.add_argument("--quick", action="store_true", help="5 runs a row")
    speed.add_argument("--smoke", action="store_true", help="1 run a row: checks it runs")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--source", type=Path, help="the checkout whose cardrules is measured")
    where.add_argument("--installed", action="store_true", help="measure the installed package")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument(
        "--no-interegular", action="store_true", help="hide interegular from the children"
    )
    args = ap.parse_args(argv)
    runs = 1 if args.smoke else 5 if args.quick else 9
    source = None if args.installed else (args.source or ROOT).resolve()
    report = measure(runs, source, args.no_interegular)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
