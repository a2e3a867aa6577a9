"""Hatchling build hook: an optional mypyc-compiled engine.

``pip install .`` and ``pip install -e .`` build a pure-Python package, as
always. With ``CARDRULES_COMPILE=1`` in the environment, a (non-editable)
wheel build also compiles the modules in :data:`COMPILED` with mypyc and puts
the extension modules next to their ``.py`` sources (Python imports the
extension first). Any failure of that step (no C compiler, no mypyc, a mypyc
error) prints a warning and the wheel is built pure Python: the compiled part
can never break an installation. pip shows a build's messages only with
``-v``, so that warning is easy to miss: with ``CARDRULES_COMPILE=require``
the hook compiles the same way but a failed compile fails the build, with the
module mypyc failed on and the end of its output (``make compile`` and
``tests/test_compiled_build.py`` use it).

With ``CARDRULES_COMPILE`` set, the hook asks the build front end (pip) for
``mypy`` (which ships mypyc), ``setuptools`` and the package's own
dependencies, so that mypyc sees the same types as ``mypy cardrules``. To
build with the tools already in a virtual environment instead, use
``pip install --no-build-isolation .``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from textwrap import indent
from typing import Any, Literal

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled with mypyc (paths relative to the project root): the
#: engine's game (``game.py``), the modules of the phases of a hand it drives,
#: and every other engine module they call (compiled together, their calls to
#: one another and the attributes of ``Game`` and ``_Rules`` are native).
#: ``actions.py``, ``notation.py``, ``view.py`` (with ``jsonform.py``, its JSON
#: reader, and ``observation_vector.py``, which reads views), ``context.py`` (a
#: bot's decision context, whose fields are descriptors of its own) and
#: ``match.py`` stay Python.
COMPILED = (
    "cardrules/engine/game.py",
    "cardrules/engine/phases/deal.py",
    "cardrules/engine/phases/bidding.py",
    "cardrules/engine/phases/passing.py",
    "cardrules/engine/phases/play.py",
    "cardrules/engine/phases/trick.py",
    "cardrules/engine/phases/shedding.py",
    "cardrules/engine/state/ranks.py",
    "cardrules/engine/phases/ranked_play.py",
    "cardrules/engine/phases/score.py",
    "cardrules/engine/phases/end.py",
    "cardrules/engine/phases/knockout.py",
    "cardrules/engine/phases/alone.py",
    "cardrules/engine/phases/trumps.py",
    "cardrules/engine/state/tables.py",
    "cardrules/engine/state/transitions.py",
    "cardrules/engine/state/slots.py",
    "cardrules/engine/state/compiled_rules.py",
    "cardrules/engine/state/deck_order.py",
    "cardrules/engine/events.py",
    "cardrules/engine/views/refusals.py",
    "cardrules/engine/state/saves.py",
    "cardrules/engine/phases/team_score.py",
    "cardrules/engine/phases/case_names.py",
    "cardrules/engine/state/undo.py",
    "cardrules/engine/state/history.py",
    "cardrules/engine/views/infostate.py",
    "cardrules/engine/search/worlds.py",
    "cardrules/engine/search/playout.py",
    "cardrules/engine/views/observation_from_state.py",
)

#: The name of the shared library of the compiled modules (mypyc adds ``__mypyc``):
#: ``cardrules/engine/compiled__mypyc.*.so``.
GROUP = "cardrules.engine.compiled"

_ENV = "CARDRULES_COMPILE"
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")
_REQUIRE = "require"

#: What the script prints between its two steps: mypyc's translation to C, then
#: the C compiler's build of the extension modules.
_TRANSLATED = "cardrules: mypyc translated the modules to C; compiling them"

#: How many of the last lines of the failed step's output an error quotes.
_TAIL_LINES = 25

# Run in a child process, so that mypy/mypyc and setuptools state never leaks
# into the build front end, and a crash there is just a failed step.
_BUILD_SCRIPT = r"""
import inspect
import sys
from mypyc.build import mypycify
from setuptools import Distribution
from setuptools.command.build_ext import build_ext

TRANSLATED, target, lib, temp, group, *paths = sys.argv[1:]
# One group: the modules share one library (named after the group, inside the
# package, where the mypyc version allows naming it) and call one another natively.
named = "group_name" in inspect.signature(mypycify).parameters
exts = mypycify(
    ["--cache-dir", target + "/.mypy_cache", *paths],
    opt_level="3",
    target_dir=target,
    **({"group_name": group} if named else {}),
)
print(TRANSLATED, flush=True)
dist = Distribution({"name": "cardrules-compiled", "ext_modules": exts})
cmd = build_ext(dist)
cmd.build_lib = lib
cmd.build_temp = temp
cmd.inplace = False
cmd.ensure_finalized()
cmd.run()
"""


Mode = Literal["off", "try", "require", "unknown"]


def _mode() -> Mode:
    """What ``CARDRULES_COMPILE`` asks for: nothing (``off``), a compiled
    engine if the compile works (``try``: ``1``, ``true``, ``yes``, ``on``),
    a compiled engine or a failed build (``require``), or a value the hook
    does not know (``unknown``: warned about, and built pure Python)."""
    value = os.environ.get(_ENV, "").strip().lower()
    if value in _OFF:
        return "off"
    if value in _ON:
        return "try"
    return "require" if value == _REQUIRE else "unknown"


#: A line of mypy's or mypyc's output about a place in a module: ``path.py:line:``.
_PLACE = re.compile(r"^(?P<path>[^\s:\"]+\.py):(?P<line>\d+):", re.MULTILINE)


def failure_message(returncode: int, output: str) -> str:
    """The error of a failed compile: which module mypyc failed on (or that the
    C build failed) and the end of the build script's output.

    Args:
        returncode: The exit status of the build script.
        output: Its standard output and error, together.

    Returns:
        A message whose first line names the modules (with the first line
        number in each) that mypy or mypyc reported on, and whose other lines
        quote the last lines of ``output``.
    """
    lines = output.strip().splitlines()
    tail = indent("\n".join(lines[-_TAIL_LINES:]), "    ")
    if _TRANSLATED in output:
        what = "the C build of the code mypyc generated failed"
    else:
        places: dict[str, str] = {}
        for m in _PLACE.finditer(output):
            places.setdefault(m["path"], m["line"])
        where = ", ".join(f"{path} (line {line})" for path, line in places.items())
        what = f"mypyc failed on {where}" if where else "mypyc failed (its output names no module)"
    return f"{what}; exit status {returncode}; the end of its output:\n{tail}"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    #: The compile's scratch directory, from ``initialize`` to ``finalize``.
    _tmp: tempfile.TemporaryDirectory[str] | None = None

    def dependencies(self) -> list[str]:
        if _mode() not in ("try", "require"):
            return []
        return ["mypy>=1.10", "setuptools>=64", *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        mode = _mode()
        if mode == "off" or self.target_name != "wheel":
            return
        if mode == "unknown":
            self.app.display_warning(
                f"cardrules: {_ENV}={os.environ[_ENV]!r} is not 1 or {_REQUIRE}: "
                "building pure Python"
            )
            return
        if version == "editable":
            if mode == "require":
                raise RuntimeError(
                    f"cardrules: {_ENV}={_REQUIRE}, but an editable install is never "
                    "compiled (use pip install . without -e)"
                )
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="cardrules-mypyc-")
        try:
            built = self._compile(Path(self._tmp.name))
        except Exception as e:
            if mode == "require":
                raise RuntimeError(f"cardrules: {_ENV}={_REQUIRE}: {e}") from e
            self.app.display_warning(  # any failure: build pure Python
                f"cardrules: WARNING: the mypyc build failed, building pure Python "
                f"instead (set {_ENV}={_REQUIRE} to make this an error): {e}"
            )
            return
        for src, rel in built:
            build_data["force_include"][str(src)] = rel
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        names = ", ".join(rel for _, rel in built)
        self.app.display_info(f"cardrules: compiled with mypyc: {names}")

    def _compile(self, tmp: Path) -> list[tuple[Path, str]]:
        root = Path(self.root)
        lib, temp = tmp / "lib", tmp / "temp"
        script = [sys.executable, "-c", _BUILD_SCRIPT, _TRANSLATED]
        cmd = [*script, str(tmp / "c"), str(lib), str(temp), GROUP, *COMPILED]
        proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            raise RuntimeError(failure_message(proc.returncode, proc.stdout + proc.stderr))
        exts = sorted(p for p in lib.rglob("*") if p.suffix in (".so", ".pyd"))
        if not exts:
            raise RuntimeError("mypyc produced no extension module")
        # Every compiled module must have its extension (else it would stay Python).
        for path in COMPILED:
            stem = Path(path).with_suffix("")
            if not any(
                e.relative_to(lib).as_posix().startswith(f"{stem.as_posix()}.") for e in exts
            ):
                raise RuntimeError(f"no extension module was built for {path}")
        return [(e, e.relative_to(lib).as_posix()) for e in exts]

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
