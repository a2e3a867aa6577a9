"""Issue 11, item 9: errors for what people actually type.

An unknown setting of two or more words is an unknown setting with a
did-you-mean (not "expected a colon"), and a misspelt value is compared with
the phrases valid at that place, the whole phrase first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.cli import main
from cardrules.dsl import load_text
from cardrules.errors import VariantError


def check(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> tuple[int, str, Path]:
    """Run ``cardrules check`` on ``text`` in a file; (exit code, stderr, file)."""
    f = tmp_path / "house.cardrules"
    f.write_text(text, encoding="utf-8")
    code = main(["check", str(f)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err, f


def refused(text: str) -> VariantError:
    with pytest.raises(VariantError) as info:
        load_text(text, path="house.cardrules")
    return info.value


@pytest.mark.parametrize(
    ("line", "typed", "meant"),
    [
        ("winner out: second highest leads", "winner out", "leader out"),
        ("hand size for 3 players: 10", "hand size for 3 players", "hand size"),
        ("trumps lead: once broken", "trumps lead", "leading trumps"),
        ("hook up: no", "hook up", "hook"),
        ("bids blind: yes", "bids blind", "blind bids"),
    ],
)
def test_unknown_setting_of_several_words_is_unknown_with_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, typed: str, meant: str
) -> None:
    """The first word is a setting (`winner`), the rest is not: the whole words
    before the colon are the setting that was meant."""
    code, err, f = check(capsys, tmp_path, f"game: house\nextends: kazhutha\n{line}\n")
    assert code == 1
    first, shown, caret, expected, hint = err.split("\n")[:5]
    assert first == f"{f}:3:1: unknown setting {typed!r}"
    assert (shown, caret) == (f"    {line}", "    ^")
    assert expected.startswith("expected one of: game, extends, title")
    assert hint == f"did you mean {meant!r}?"
    assert "a colon" not in err


def test_two_word_setting_whose_first_word_is_not_a_setting_still_gets_a_suggestion() -> None:
    e = refused("game: house\nleadr out: next highest card\n")
    assert (e.line, e.column, e.message) == (2, 1, "unknown setting 'leadr out'")
    assert e.hint == "did you mean 'leader out'?"


def test_a_setting_without_its_colon_is_still_told_to_write_one() -> None:
    """No colon anywhere on the line: the colon is what is missing."""
    e = refused("game: house\nwinner highest total\n")
    assert e.message == "unexpected 'highest'"
    assert e.expected == "a colon ':' after the setting name"
    e = refused("game: house\nhook = no\n")
    assert e.expected == "a colon ':' after the setting name"
    assert e.hint == "write a colon, as in `players: 3 to 7`"


def test_trumps_winner_chooses_does_not_suggest_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Nothing valid there is like "winner chooses": the trump rules are listed,
    and no rule is offered on the strength of one word ("winner" ~ "none")."""
    code, err, f = check(
        capsys, tmp_path, "game: house\nextends: oh-hell\ntrumps: winner chooses\n"
    )
    assert code == 1
    assert err.startswith(f"{f}:3:9: unexpected 'winner'")
    assert (
        "expected one of: `no trumps`, `cycle`, `dealer's last card`, `named by the highest "
        "bidder`, `none`, `order up`, `turned up` or a suit"
    ) in err
    assert "did you mean" not in err


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ("trumps: turnd up", "turned up"),
        ("trumps: turned-up", "turned up"),
        ("trumps: cycel spades, hearts", "cycle"),
        ("trumps: spdes", "spades"),
        ("hands: dwn to 1", "down to"),
        ("trumps: turned up, no trump when pack runs out", "no trumps when the pack runs out"),
        ("loser: most cards when first goes out", "most cards when the first goes out"),
        ("leader out: next higest card", "next highest card"),
        ("bidding: al at once", "all at once"),
    ],
)
def test_a_misspelt_value_suggests_the_closest_phrase(line: str, meant: str) -> None:
    e = refused(f"game: house\nextends: oh-hell\n{line}\n")
    assert e.hint == f"did you mean {meant!r}?", str(e)


def test_the_whole_phrase_is_compared_before_its_first_word() -> None:
    """`turned over` shares a word with `turned up` and nothing with `none`."""
    e = refused("game: house\nextends: oh-hell\ntrumps: turned over\n")
    assert e.hint == "did you mean 'turned up'?"
    e = refused("game: house\nextends: oh-hell\nfirst lead: winner leads\n")
    assert e.hint is None or "none" not in e.hint


def test_the_did_you_mean_of_a_misspelt_setting_is_the_same_in_every_process() -> None:
    """Regression: the candidates came from a set, so a tie between two setting
    names went one way or the other with PYTHONHASHSEED (' J expect no trumps'
    suggested 'no trumps' in some processes, 'may name no trumps' in others)."""
    import os
    import subprocess
    import sys

    code = (
        "import cardrules\n"
        "try:\n"
        "    cardrules.load_text('game: x\\n J expect no trumps\\n')\n"
        "except Exception as e:\n"
        "    print(str(e).splitlines()[-1])\n"
    )
    hints: set[str] = set()
    for seed in range(6):
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        hints.add(out)
    assert hints == {"did you mean 'no trumps'?"}
