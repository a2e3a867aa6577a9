"""Hatchling build hook: an optional mypyc-compiled engine.

``pip install .`` and ``pip install -e .`` build a pure-Python package, as
always. With ``CARDRULES_COMPILE=1`` in the environment, a (non-editable)
wheel build also compiles the modules in :data:`COMPILED` with mypyc and puts
the extension modules next to their ``.py`` sources (Python imports the
extension first). Any failure of that step (no C compiler, no mypyc, a mypyc
error) prints a warning and the wheel is built pure Python: the compiled part
can never break an installation.

With ``CARDRULES_COMPILE=1`` the hook asks the build front end (pip) for
``mypy`` (which ships mypyc), ``setuptools`` and the package's own
dependencies, so that mypyc sees the same types as ``mypy cardrules``. To
build with the tools already in a virtual environment instead, use
``pip install --no-build-isolation .``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled with mypyc (paths relative to the project root): the
#: engine's game (``game.py``), the modules of the phases of a hand it drives,
#: and every other engine module they call (compiled together, their calls to
#: one another and the attributes of ``Game`` and ``_Rules`` are native).
#: ``actions.py``, ``notation.py``, ``view.py`` (with ``jsonform.py``, its JSON
#: reader, and ``observation.py``, which reads views) and ``match.py`` stay Python.
COMPILED = (
    "cardrules/engine/game.py",
    "cardrules/engine/deal.py",
    "cardrules/engine/bidding.py",
    "cardrules/engine/passing.py",
    "cardrules/engine/play.py",
    "cardrules/engine/trick.py",
    "cardrules/engine/shedding.py",
    "cardrules/engine/ranks.py",
    "cardrules/engine/ranked_play.py",
    "cardrules/engine/score.py",
    "cardrules/engine/end.py",
    "cardrules/engine/knockout.py",
    "cardrules/engine/alone.py",
    "cardrules/engine/trumps.py",
    "cardrules/engine/tables.py",
    "cardrules/engine/transitions.py",
    "cardrules/engine/state_slots.py",
    "cardrules/engine/compiled_rules.py",
    "cardrules/engine/dealing.py",
    "cardrules/engine/events.py",
    "cardrules/engine/explain.py",
    "cardrules/engine/saves.py",
    "cardrules/engine/teams.py",
    "cardrules/engine/undo.py",
    "cardrules/engine/history.py",
    "cardrules/engine/infostate.py",
    "cardrules/engine/worlds.py",
    "cardrules/engine/playout.py",
    "cardrules/engine/observation_state.py",
)

#: The name of the shared library of the compiled modules (mypyc adds ``__mypyc``):
#: ``cardrules/engine/compiled__mypyc.*.so``.
GROUP = "cardrules.engine.compiled"

_ENV = "CARDRULES_COMPILE"

# Run in a child process, so that mypy/mypyc and setuptools state never leaks
# into the build front end, and a crash there is just a failed step.
_BUILD_SCRIPT = r"""
import inspect
import sys
from mypyc.build import mypycify
from setuptools import Distribution
from setuptools.command.build_ext import build_ext

target, lib, temp, group, *paths = sys.argv[1:]
# One group: the modules share one library (named after the group, inside the
# package, where the mypyc version allows naming it) and call one another natively.
named = "group_name" in inspect.signature(mypycify).parameters
exts = mypycify(
    ["--cache-dir", target + "/.mypy_cache", *paths],
    opt_level="3",
    target_dir=target,
    **({"group_name": group} if named else {}),
)
dist = Distribution({"name": "cardrules-compiled", "ext_modules": exts})
cmd = build_ext(dist)
cmd.build_lib = lib
cmd.build_temp = temp
cmd.inplace = False
cmd.ensure_finalized()
cmd.run()
"""


def _wanted() -> bool:
    return os.environ.get(_ENV, "").strip().lower() in ("1", "true", "yes", "on")


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def _active(self, version: str) -> bool:
        return _wanted() and self.target_name == "wheel" and version != "editable"

    def dependencies(self) -> list[str]:
        if not _wanted():
            return []
        return ["mypy>=1.10", "setuptools>=64", *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not self._active(version):
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="cardrules-mypyc-")
        try:
            built = self._compile(Path(self._tmp.name))
        except Exception as e:  # any failure: build pure Python
            self.app.display_warning(
                f"cardrules: the mypyc build failed, building pure Python instead ({e})"
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
        cmd = [sys.executable, "-c", _BUILD_SCRIPT, str(tmp / "c"), str(lib), str(temp), GROUP]
        proc = subprocess.run(
            [*cmd, *COMPILED],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            raise RuntimeError(f"mypyc exited with {proc.returncode}:\n{tail}")
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
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
            self._tmp = None
