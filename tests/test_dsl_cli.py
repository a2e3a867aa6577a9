"""The ``cardrules`` command line: list, check, show, fmt, demo; exit codes and output."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cardrules.cli import Command, build_parser, discover_commands, main
from cardrules.dsl import builtin_dir, builtin_names, load

VARIANT_FILES = sorted(str(p) for p in builtin_dir().glob("*.cardrules"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == builtin_names()
    for line in lines:  # every variant with its own one-line summary
        name, _, summary = line.partition(" ")
        assert summary.strip() == load(name).summary != ""
    kachuful = next(line for line in lines if line.startswith("kachuful "))
    assert "trumps cycle spades, diamonds, clubs, hearts" in kachuful


def test_check_every_builtin_file(capsys):
    code, out, err = run(capsys, "check", *VARIANT_FILES)
    assert code == 0, err
    assert err == ""
    assert len(out.splitlines()) == len(VARIANT_FILES)
    assert all(": ok, " in line for line in out.splitlines())


def test_check_reports_errors_on_stderr(capsys, tmp_path):
    good = tmp_path / "good.cardrules"
    good.write_text("game: good\nextends: oh-hell\n", encoding="utf-8")
    bad = tmp_path / "bad.cardrules"
    bad.write_text("game: bad\nextends: oh-hell\ntrumps: spdes\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(good), str(bad))
    assert code == 1
    assert out == f"{good}: ok, good (extends oh-hell)\n"
    assert err.startswith(f"{bad}:3:9: unexpected 'spdes'\n    trumps: spdes\n            ^\n")
    assert "did you mean 'spades'?" in err
    assert err.endswith("1 of 2 invalid\n")


def test_check_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "check", str(tmp_path / "nope.cardrules"))
    assert code == 1
    assert "no such file" in err


def test_show_text_and_set(capsys):
    code, out, err = run(capsys, "show", "oh-hell", "--set", "hook=off", "--set", "hand size=7")
    assert code == 0, err
    assert "hook: no\n" in out
    assert "hand size: 7\n" in out
    assert out.startswith("game: oh-hell\n")


def test_show_file(capsys):
    code, out, _ = run(capsys, "show", str(builtin_dir() / "donkey.cardrules"))
    assert code == 0
    assert "extends: kazhutha\n" in out and "match word: DONKEY\n" in out


def test_show_json(capsys):
    code, out, _ = run(capsys, "show", "kazhutha", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["mode"] == "shedding"
    assert data["play"]["lead_card"] == "A♠"
    assert data["direction"] == "anticlockwise"
    assert data["match"]["word"] == "KAZHUTHA"
    assert "positions" not in data and "source" not in data
    code, out, _ = run(capsys, "show", "kachuful", "--json")
    data = json.loads(out)
    assert data["trumps"]["cycle"] == ["spades", "diamonds", "clubs", "hearts"]
    assert data["scoring"]["formula"] == "if exact then 10 + bid else 0"


def test_show_bad_option(capsys):
    code, out, err = run(capsys, "show", "oh-hell", "--set", "hok=off")
    assert code == 1 and out == ""
    assert "did you mean 'hook'?" in err
    code, _, err = run(capsys, "show", "oh-hell", "--set", "hook")
    assert code == 1 and "NAME=VALUE" in err


def test_fmt(capsys, tmp_path):
    f = tmp_path / "mine.cardrules"
    f.write_text(
        "# mine\nGame: mine\nextends:   kachuful\nHook: OFF  # no hook\n", encoding="utf-8"
    )
    code, out, _ = run(capsys, "fmt", str(f))
    assert code == 0
    assert out == "# mine\ngame: mine\nextends: kachuful\nhook: no  # no hook\n"
    assert run(capsys, "fmt", "--check", str(f))[0] == 1
    assert run(capsys, "fmt", "--write", str(f))[0] == 0
    assert f.read_text(encoding="utf-8") == out
    assert run(capsys, "fmt", "--check", str(f))[0] == 0


def test_fmt_invalid_file(capsys, tmp_path):
    f = tmp_path / "x.cardrules"
    f.write_text("game: x\nplayers 3\n", encoding="utf-8")
    code, _, err = run(capsys, "fmt", "--write", str(f))
    assert code == 1 and f"{f}:2:9:" in err
    assert f.read_text(encoding="utf-8") == "game: x\nplayers 3\n"


def test_demo_command_runs(capsys):
    assert main(["demo"]) == 0
    assert capsys.readouterr().out


@pytest.mark.parametrize(
    "argv", [[], ["bogus"], ["check"], ["show"], ["list", "--nope"], ["show", "x", "--set"]]
)
def test_bad_usage_exits_2_without_traceback(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "usage: cardrules" in err
    assert "Traceback" not in err


def test_help_exits_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for name in ("list", "check", "show", "fmt", "demo"):
        assert name in out


def test_commands_are_discovered_from_modules():
    commands = discover_commands()
    assert {"list", "check", "show", "fmt", "demo"} <= set(commands)
    assert all(isinstance(c, Command) for c in commands.values())


def test_higher_priority_command_replaces(monkeypatch, tmp_path, capsys):
    pkg = tmp_path / "fakecmds"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text(
        "from cardrules.cli import Command\n"
        "COMMANDS = [Command('hello', 'h', lambda p: None, lambda a: 3)]\n",
        encoding="utf-8",
    )
    (pkg / "b.py").write_text(
        "from cardrules.cli import Command\n"
        "COMMANDS = [Command('hello', 'h2', lambda p: None, lambda a: 4, priority=5)]\n",
        encoding="utf-8",
    )
    (pkg / "broken.py").write_text("raise ImportError('work in progress')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = discover_commands("fakecmds")
    assert found["hello"].help == "h2"
    assert "commands in broken are unavailable" in capsys.readouterr().err
    parser = build_parser(found)
    args = parser.parse_args(["hello"])
    assert isinstance(args, argparse.Namespace) and args._run(args) == 4


def test_console_script_entry_point():
    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'cardrules = "cardrules.cli:main"' in text
