"""The wheel carries the grammar and its parse tables, py.typed, every built-in
variant and the JSON Schemas, and a plain `pip install` outside the checkout gives a working
`cardrules list`."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    (whl,) = out.glob("cardrules-*.whl")
    return whl


def test_wheel_holds_grammar_types_and_every_variant(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cardrules/py.typed" in names
    assert "cardrules/dsl/grammar.lark" in names
    # The parse tables of both grammars, so that no process builds a parser.
    assert "cardrules/parser_tables_variant.json" in names
    assert "cardrules/parser_tables_formula.json" in names
    shipped = {Path(n).name for n in names if n.startswith("cardrules/_variants/")}
    in_repo = {p.name for p in (ROOT / "variants").glob("*.cardrules")}
    assert in_repo and shipped == in_repo
    schemas = {Path(n).name for n in names if n.startswith("cardrules/schemas/")}
    in_package = {p.name for p in (ROOT / "cardrules" / "schemas").glob("*.json")}
    assert len(in_package) == 6 and schemas == in_package


def test_installed_wheel_lists_the_builtins_outside_the_checkout(
    wheel: Path, tmp_path: Path
) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    done = subprocess.run(
        [str(env_dir / "bin" / "cardrules"), "list"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    for name in ("oh-hell", "kachuful", "kazhutha"):
        assert name in done.stdout
    where = subprocess.run(
        [str(py), "-c", "import cardrules.dsl as d; print(d.builtin_dir())"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout
    assert "site-packages" in where and str(ROOT) not in where
