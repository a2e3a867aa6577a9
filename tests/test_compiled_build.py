"""The mypyc-compiled engine builds, and plays exactly as the pure-Python engine.

``CARDRULES_COMPILE=1 pip install .`` builds pure Python when the compile fails
(an install must never break), and pip shows the warning only with ``-v``: a
mypyc crash on ``engine/state/saves.py`` once went unnoticed for a whole issue. So
this test builds the wheel as ``make compile`` does, with
``CARDRULES_COMPILE=require`` (a failed compile fails the build and names the
module mypyc failed on), without build isolation (mypy, which ships mypyc, and
setuptools come from the ``test`` extra); checks that the wheel holds an
extension module for every path of ``hatch_build.COMPILED`` and the group's
shared library; installs it into a scratch directory; and plays whole games of
Kachuful, Kazhutha and Euchre, with take-backs, undos, a clone and saves
(``tests/compiled_support.py``), with the compiled engine and with the pure
engine of the checkout, each in a child process, and compares everything they
give.

The build is most of the time: about a minute and a half of CPU (mypyc, then
the C compiler on the generated code). It needs a C compiler and Python's
headers, and skips (saying so) without them.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUPPORT = Path(__file__).with_name("compiled_support.py")


def _load_hatch_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hatch_build = _load_hatch_build()
#: The modules the build compiles, as dotted names.
MODULES = [p.removesuffix(".py").replace("/", ".") for p in hatch_build.COMPILED]


def _tail(text: str, lines: int = 60) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _missing_build_tools() -> str | None:
    """Why a C extension cannot be built here (``None``: it can)."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(shlex.split(compiler)[0]) is None:
        return f"no C compiler ({compiler!r} is not on PATH)"
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").is_file():
        return f"no Python headers (no Python.h in {include})"
    return None


@pytest.fixture(scope="module")
def compiled_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built with ``CARDRULES_COMPILE=require``, without build isolation."""
    missing = _missing_build_tools()
    if missing:
        pytest.skip(f"the compiled build needs a C compiler and Python's headers: {missing}")
    out = tmp_path_factory.mktemp("compiled-wheel")
    env = {**os.environ, "CARDRULES_COMPILE": "require"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
    )  # fmt: skip
    if done.returncode != 0:
        output = done.stdout + done.stderr
        # The hook's error (which module mypyc failed on) first, then pip's output.
        said = [s.strip() for s in output.splitlines() if "cardrules: CARDRULES_COMPILE" in s]
        pytest.fail(
            "\n".join(["CARDRULES_COMPILE=require pip wheel failed:", *said[:1], _tail(output)]),
            pytrace=False,
        )
    (wheel,) = out.glob("cardrules-*.whl")
    return wheel


@pytest.fixture(scope="module")
def compiled_dir(compiled_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch directory the compiled wheel is installed into (``--target``)."""
    target = tmp_path_factory.mktemp("compiled-install")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(compiled_wheel)],
        check=True,
        capture_output=True,
        text=True,
    )  # fmt: skip
    return target


def _play(where: Path, kind: str, cwd: Path) -> dict[str, Any]:
    """What ``tests/compiled_support.py`` prints with ``where`` first on
    ``sys.path``, after checking that every compiled module is imported as ``kind``."""
    done = subprocess.run(
        [sys.executable, str(SUPPORT), str(where), kind, *MODULES],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    assert done.returncode == 0, f"the {kind} engine's games failed:\n{_tail(done.stderr)}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_wheel_holds_an_extension_module_for_every_compiled_module(
    compiled_wheel: Path,
) -> None:
    names = set(zipfile.ZipFile(compiled_wheel).namelist())
    suffixes = importlib.machinery.EXTENSION_SUFFIXES

    def extension(stem: str) -> bool:
        return any(stem + suffix in names for suffix in suffixes)

    missing = [p for p in hatch_build.COMPILED if not extension(p.removesuffix(".py"))]
    assert not missing, f"compiled, but no extension module in the wheel: {missing}"
    assert all(p in names for p in hatch_build.COMPILED)  # the sources stay beside them
    group = hatch_build.GROUP.replace(".", "/") + "__mypyc"
    assert extension(group), f"no shared library {group}.* in the wheel"
    assert not compiled_wheel.name.endswith("-none-any.whl")


def test_the_compiled_engine_plays_exactly_as_the_pure_one(
    compiled_dir: Path, tmp_path: Path
) -> None:
    """The same games, with take-backs, undos, a clone, saves and a playout, give
    the same event logs, results and saves with both engines."""
    compiled = _play(compiled_dir, "compiled", tmp_path)
    pure = _play(ROOT, "pure", tmp_path)
    assert set(compiled["modules"]) == set(MODULES)
    assert compiled["games"].keys() == pure["games"].keys()
    for key, game in pure["games"].items():
        assert compiled["games"][key] == game, f"{key}: the compiled engine plays differently"
    # The games did what the comparison relies on.
    games = pure["games"].values()
    assert {k.split("/")[0] for k in pure["games"]} == {"kachuful", "kazhutha", "euchre"}
    for game in games:
        checks = game["checks"]
        assert checks["clone"]["original unchanged"]
        for save in (checks["save"], checks["final save"]):
            assert save["loaded equal"] and save["saves again the same"]
        assert game["result"] is not None and game["playout"]["result"]["winners"]
    assert all(game["take-backs"] for game in games)
    assert all(game["checks"]["final save"]["take-backs in the save"] for game in games)
    assert sum(len(game["undos"]) for game in games) >= 6


# --------------------------------------------------------------------------- the build hook


#: What mypyc 2.4 printed when it crashed on ``reversed()`` in engine/state/saves.py.
MYPYC_CRASH = """\
Traceback (most recent call last):
  File "mypyc/irbuild/builder.py", line 373, in accept
  File "mypy/nodes.py", line 2011, in accept
  File "mypyc/irbuild/builder.py", line 1152, in get_sequence_type_from_type
cardrules/engine/state/saves.py:1036: AssertionError: Any
cardrules/engine/state/saves.py:1036: note: this is an internal mypyc error; please report \
a bug at https://github.com/mypyc/mypyc/issues
"""


class _App:
    """What the hook says, kept (hatchling's ``Application`` prints it)."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.infos: list[str] = []

    def display_warning(self, message: str = "") -> None:
        self.warnings.append(message)

    def display_info(self, message: str = "") -> None:
        self.infos.append(message)


def _hook(tmp_path: Path, target: str = "wheel") -> tuple[Any, _App]:
    app = _App()
    hook = hatch_build.CustomBuildHook(str(ROOT), {}, None, None, str(tmp_path), target, app)
    return hook, app


def _failing_compile(self: object, tmp: Path) -> list[tuple[Path, str]]:
    raise RuntimeError(hatch_build.failure_message(2, MYPYC_CRASH))


def test_a_failed_compile_names_the_module_mypyc_failed_on() -> None:
    message = hatch_build.failure_message(2, MYPYC_CRASH)
    first, *rest = message.splitlines()
    assert first.startswith(
        "mypyc failed on cardrules/engine/state/saves.py (line 1036); exit status 2"
    )
    assert "    cardrules/engine/state/saves.py:1036: AssertionError: Any" in rest
    errors = "cardrules/engine/phases/play.py:3: error: x\ncardrules/engine/game.py:9: error: y\n"
    assert hatch_build.failure_message(1, errors).startswith(
        "mypyc failed on cardrules/engine/phases/play.py (line 3), "
        "cardrules/engine/game.py (line 9);"
    )
    c_build = f"{hatch_build._TRANSLATED}\nbuild/__native.c:7:1: error: z\n"
    assert hatch_build.failure_message(1, c_build).startswith(
        "the C build of the code mypyc generated failed; exit status 1"
    )


def test_compile_1_falls_back_to_pure_python_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDRULES_COMPILE", "1")
    monkeypatch.setattr(hatch_build.CustomBuildHook, "_compile", _failing_compile)
    hook, app = _hook(tmp_path)
    build_data: dict[str, Any] = {"force_include": {}}
    hook.initialize("standard", build_data)
    hook.finalize("standard", build_data, "")
    assert build_data == {"force_include": {}}  # a pure-Python wheel
    (warning,) = app.warnings
    assert "building pure Python" in warning and "CARDRULES_COMPILE=require" in warning
    assert "mypyc failed on cardrules/engine/state/saves.py" in warning


def test_compile_require_fails_the_build_naming_the_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDRULES_COMPILE", "require")
    monkeypatch.setattr(hatch_build.CustomBuildHook, "_compile", _failing_compile)
    hook, app = _hook(tmp_path)
    with pytest.raises(
        RuntimeError, match=r"require: mypyc failed on cardrules/engine/state/saves\.py"
    ):
        hook.initialize("standard", {"force_include": {}})
    hook.finalize("standard", {}, "")
    assert not app.warnings
    with pytest.raises(RuntimeError, match="an editable install is never compiled"):
        hook.initialize("editable", {"force_include": {}})


def test_other_values_of_compile_build_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hatch_build.CustomBuildHook, "_compile", _failing_compile)
    for value, warned in (("", False), ("0", False), ("off", False), ("requird", True)):
        monkeypatch.setenv("CARDRULES_COMPILE", value)
        hook, app = _hook(tmp_path)
        build_data: dict[str, Any] = {"force_include": {}}
        hook.initialize("standard", build_data)
        assert build_data == {"force_include": {}}
        assert bool(app.warnings) == warned, value
        assert hook.dependencies() == []
    monkeypatch.setenv("CARDRULES_COMPILE", "require")
    hook, app = _hook(tmp_path, target="sdist")
    hook.initialize("standard", {"force_include": {}})  # an sdist is source: nothing to do
    assert not app.warnings
