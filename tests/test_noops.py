"""Issue 11, item 7: no silent no-ops.

A setting that changes nothing in the game it is in is an error at its line
when the file itself says it, and a warning (printed by ``cardrules check``,
returned by :func:`cardrules.dsl.validate.check_warnings`) when it is inherited
from the game the file extends, or made idle by an option given at load time.
Every field of the config model is filled by a declared setting that says
where it has an effect (``tests/test_settings_declared.py`` checks it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardrules
from cardrules.cli import main
from cardrules.dsl import builtin_dir, builtin_names, load, load_text
from cardrules.dsl.validate import (
    VariantWarning,
    check_warnings,
    validate,
)
from cardrules.errors import VariantError

# --------------------------------------------------------------------------- stated: errors

TRICKS = "game: house\nplayers: 3 to 7\nhand size: 7\nscore: if exact then 10 + bid else 0\n"
SHED = (
    "game: house\nmode: shedding\nplayers: 3 to 8\nhands: whole pack\ntrumps: none\nbidding: none\n"
)

#: case -> (the file, a fragment of the message). The last line is the culprit.
STATED: dict[str, tuple[str, str]] = {
    "winner in a shedding game": (SHED + "winner: highest total\n", "`winner` has no effect"),
    "tie in a shedding game": (SHED + "tie: shared\n", "`tie` has no effect"),
    "knocked out in a shedding game": (
        SHED + "knocked out: no tricks\n",
        "`knocked out` has no effect in a shedding game",
    ),
    "knocked out for more tricks than any hand has": (
        TRICKS + "knocked out: fewer than 8 tricks\n",
        "nobody is ever knocked out",
    ),
    "teams in a shedding game": (
        SHED.replace("3 to 8", "4") + "teams: 1 and 3, 2 and 4\n",
        "`teams` has no effect",
    ),
    "a counter in a shedding game": (
        SHED + "counter wins: wins + 1\n",
        "`counter` has no effect",
    ),
    "tie with a limit in a shedding game": (
        SHED + "tie: extra hands, at most 3\n",
        "`tie` has no effect",
    ),
    "leading trumps once broken without trumps": (
        TRICKS + "trumps: none\nleading trumps: once broken\n",
        "`leading trumps: once broken` has no effect",
    ),
    "a lead list with unbroken trumps without trumps": (
        TRICKS + "trumps: none\nlead: any card except unbroken trumps, otherwise any card\n",
        "`lead` has no effect: this game has no trumps (`trumps: none`), so any card may be led",
    ),
    "a first-trick list with trumps in a shedding game": (
        SHED + "first trick: any card except trumps, otherwise any card\n",
        "`first trick` has no effect: a shedding game has no trumps",
    ),
    "leading trumps once broken in a shedding game": (
        SHED + "leading trumps: once broken\n",
        "`leading trumps: once broken` has no effect",
    ),
    "no-trump hands without trumps": (
        TRICKS + "trumps: none\nno trumps: every 5th hand\n",
        "`no trumps: every 5th hand` has no effect",
    ),
    "no-trump hands past the end of the game": (
        TRICKS + "hands: 3 hands of the same size\ntie: shared\nno trumps: every 5th hand\n",
        "`no trumps: every 5th hand` has no effect",
    ),
    "no-trump hands the trump cycle already has": (
        TRICKS + "trumps: cycle spades, no trumps\nno trumps: every 2nd hand\n",
        "`no trumps: every 2nd hand` has no effect",
    ),
    "breaking cards without an unbroken term": (
        TRICKS + "breaking cards: Q♠ breaks hearts\n",
        "`breaking cards` has no effect",
    ),
    "broken by without an unbroken term": (
        TRICKS + "broken by: void play\n",
        "`broken by` has no effect",
    ),
    "hand size with a list of hands": (
        "game: house\nplayers: 3 to 7\nscore: tricks\nbidding: none\nhands: list 3, 2, 1\n"
        "hand size: 5\n",
        "`hand size` has no effect",
    ),
    "hand size in a whole-pack game": (SHED + "hand size: 7\n", "`hand size` has no effect"),
    "leader out in a trick-taking game": (
        TRICKS + "leader out: next highest card\n",
        "`leader out` is for shedding games",
    ),
    "loser in a trick-taking game": (
        TRICKS + "loser: most cards when the first goes out\n",
        "`loser` is for shedding games",
    ),
    "cuts on the first trick in a trick-taking game": (
        TRICKS + "cuts on the first trick: no\n",
        "`cuts on the first trick` is for shedding games",
    ),
    "take a hand from in a trick-taking game": (
        TRICKS + "take a hand from: next player still in\n",
        "`take a hand from` is for shedding games",
    ),
    "leader out when the first out ends the game": (
        SHED + "loser: most cards when the first goes out\nleader out: next highest card\n",
        "`leader out: next highest card` has no effect",
    ),
    "deal passes to the loser without a match": (
        SHED + "deal passes: to the loser\n",
        "`deal passes: to the loser` has no effect",
    ),
    "direction with two players": (
        "game: house\nplayers: 2\nhand size: 7\nscore: tricks\nbidding: none\n"
        "direction: anticlockwise\n",
        "`direction: anticlockwise` has no effect",
    ),
    "dead tricks face down with two players": (
        SHED.replace("players: 3 to 8", "players: 2") + "dead tricks: face down\n",
        "`dead tricks: face down` has no effect",
    ),
    "leading trumps replaced by lead in the same file": (
        TRICKS + "leading trumps: once broken\nlead: any card\n",
        "`leading trumps` has no effect: `lead:` on line 6 replaces it",
    ),
    "suit led in a lead list": (
        TRICKS + "lead: suit led, otherwise any card\n",
        "`lead` has no effect: the leader of a trick has no suit led",
    ),
    "a card taken out of the pack in a list": (
        TRICKS
        + "deck: standard 52 without 2♣\nfirst trick: any card except 2♣, otherwise any card\n",
        "`first trick` has no effect: 2♣ is taken out of the pack",
    ),
    "trump order without trumps": (
        TRICKS + "trumps: none\ntrump order: J of trumps\n",
        "`trump order` has no effect: this game has no trumps",
    ),
    "trump order in the usual order": (
        TRICKS + "trump order: A of trumps, K of trumps\n",
        "`trump order` has no effect: it ranks the trumps in their usual order",
    ),
    "one bid per side without teams": (
        TRICKS + "team bids: one per side\n",
        "`team bids: one per side` has no effect: every player is on their own",
    ),
    "one bid per side without bidding": (
        TRICKS.replace("players: 3 to 7", "players: 4").replace(
            "score: if exact then 10 + bid else 0", "score: tricks"
        )
        + "teams: 1 and 3, 2 and 4\nbidding: none\nteam bids: one per side\n",
        "`team bids` needs bidding, but this game has no bidding",
    ),
    "forehead hands never dealt": (
        TRICKS + "forehead hands: 9\n",
        "`forehead hands: 9` has no effect: no hand has 9 cards",
    ),
}

#: A part of a line that changes nothing (a term, a row, a cap, an option name):
#: a warning at the file's own line, since the line itself has an effect.
PARTS: dict[str, tuple[str, str]] = {
    "a hand size for a number of players the game does not allow": (
        "game: house\nplayers: 3 to 5\nscore: tricks\nbidding: none\n"
        "hand size: 10 for 3 to 5 players, 8 for 6 players\n",
        "`8 for 6 players` in `hand size` has no effect",
    ),
    "must trump without trumps": (
        TRICKS + "trumps: none\nfollow: must follow suit, must trump when void\n",
        "`must trump when void` in `follow` has no effect",
    ),
    "a follow list with trumps without trumps": (
        TRICKS
        + "trumps: none\nfollow: suit led, otherwise any card except trumps, otherwise any card\n",
        "`trumps` in `follow:` has no effect",
    ),
    "largest when the table covers every count": (
        "game: house\nplayers: 3 to 5\nscore: tricks\nbidding: none\n"
        "hand size: 10 for 3 to 5 players, largest\n",
        "`largest` in `hand size` has no effect",
    ),
    "keep one for trumps that keeps nothing back": (
        "game: house\nplayers: 3\nscore: tricks\nbidding: none\n"
        "hand size: largest, keep one for trumps\n",
        "`keep one for trumps` in `hand size` has no effect",
    ),
    "at most above what the pack gives": (
        "game: house\nplayers: 3 to 7\nscore: tricks\nbidding: none\n"
        "hand size: largest, at most 20\n",
        "`at most 20` in `hand size` has no effect",
    ),
    "a top bid above every hand": (TRICKS + "bids: 0 to 10\n", "the top of `bids: 0 to 10`"),
    "a forehead hand size never dealt": (
        TRICKS + "forehead hands: 1, 9\n",
        "`9` in `forehead hands` has no effect",
    ),
    "an option that cannot change a shedding game": (
        SHED + "options: dead tricks, hook\n",
        "`hook` in `options` has no effect",
    ),
    "a fallback lead card never needed": (
        TRICKS + "first lead: holder of 2♣ otherwise 3♣ leads it\n",
        "`otherwise 3♣` in `first lead` has no effect",
    ),
    "cards out for a number of players the game does not allow": (
        TRICKS + "deck: standard 52 without 2♦ for 3 players, 2♣ for 8 players\n",
        "the cards out `for 8 players` in `deck` have no effect",
    ),
    "a set after any card": (
        TRICKS + "follow: any card, otherwise suit led\n",
        "`suit led` in `follow:` has no effect",
    ),
}


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> tuple[int, str, str, Path]:
    """Run ``cardrules check`` on ``text`` in a file; (code, stdout, stderr, file)."""
    f = tmp_path / "house.cardrules"
    f.write_text(text, encoding="utf-8")
    code = main(["check", str(f)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err, f


@pytest.mark.parametrize("case", sorted(STATED))
def test_a_no_op_written_in_the_file_is_an_error_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    text, fragment = STATED[case]
    lines = text.rstrip("\n").split("\n")
    culprit = len(lines)
    if case == "leading trumps replaced by lead in the same file":
        culprit -= 1  # the earlier of the two lines is the one replaced
    code, out, err, f = check(capsys, tmp_path, text)
    assert code == 1 and out == "", err
    first = err.split("\n")[0]
    assert first.startswith(f"{f}:{culprit}:1: "), err
    assert fragment in first, err
    assert err.split("\n")[1] == "    " + lines[culprit - 1]


@pytest.mark.parametrize("case", sorted(PARTS))
def test_a_part_of_a_line_that_changes_nothing_is_a_warning_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    text, fragment = PARTS[case]
    line = len(text.rstrip("\n").split("\n"))
    code, out, err, f = check(capsys, tmp_path, text)
    assert code == 0, err
    assert out == f"{f}: ok, house\n"
    warned = err.rstrip("\n").split("\n")
    assert warned[0].startswith(f"warning: {f}:{line}: {fragment}"), err
    assert all(w.startswith(f"warning: {f}:{line}: ") for w in warned), err


def test_each_stated_case_loads_once_the_line_is_gone() -> None:
    """The culprit line is the only problem of each case."""
    for case, (text, _fragment) in STATED.items():
        lines = text.rstrip("\n").split("\n")
        drop = len(lines) - (2 if case == "leading trumps replaced by lead in the same file" else 1)
        kept = "\n".join(lines[:drop] + lines[drop + 1 :]) + "\n"
        v = load_text(kept, path="house.cardrules")
        assert check_warnings(v) == (), case


def test_a_setting_switched_off_is_not_a_no_op() -> None:
    """Saying that something is not there (`hook: no` without bidding, `leading
    trumps: any time` without trumps, `deal passes: to the next player` in a trick
    game, `broken by: any play`) is never refused."""
    v = load_text(
        TRICKS.replace("if exact then 10 + bid else 0", "tricks")
        + "bidding: none\nhook: no\nblind bids: no\nforehead hands: none\nbid changes: no\n"
        "bids: 0 to the hand size\ntrumps: none\nno trumps: never\nleading trumps: any time\n"
        "deal passes: to the next player\nmatch word: none\nbroken by: any play\n"
        "follow: must follow suit\nfirst trick: any card\n"
    )
    assert check_warnings(v) == ()
    v = load_text(SHED + "leading trumps: any time\nleader out: next player still in\n")
    assert check_warnings(v) == ()


# --------------------------------------------------------------------------- inherited: warnings


def test_a_shedding_house_rule_of_a_trick_game_loads_with_warnings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The trick game's score, winner, tie and hand size change nothing in a
    shedding game: warnings, and the file checks ok. The file's own lines
    (`mode: shedding`, `hands: whole pack`) idle them, so each warning is shown at
    the file's line that makes it so, naming the parent's line (issue 23)."""
    text = (
        "game: house\nextends: oh-hell\nmode: shedding\nplayers: 3 to 8\nhands: whole pack\n"
        "trumps: none\nbidding: none\nhook: no\noptions: none\n"
    )
    code, out, err, f = check(capsys, tmp_path, text)
    assert code == 0, err
    assert out == f"{f}: ok, house (extends oh-hell)\n"
    parent = builtin_dir() / "oh-hell.cardrules"
    plines = parent.read_text(encoding="utf-8").split("\n")

    def line_of(key: str) -> int:
        return next(i for i, t in enumerate(plines, 1) if t.startswith(key + ":"))

    own_lines = text.split("\n")

    def own_line_of(key: str) -> int:
        return next(i for i, t in enumerate(own_lines, 1) if t.startswith(key + ":"))

    warned = err.rstrip("\n").split("\n")
    assert len(warned) == 4, err
    for shown, key in zip(warned, ["hand size", "score", "winner", "tie"], strict=True):
        cause = "hands" if key == "hand size" else "mode"
        assert shown.startswith(f"warning: {f}:{own_line_of(cause)}: `{key}`"), shown
        assert "has no effect" in shown
        assert shown.endswith(
            f"; that line is inherited from {parent.name}, line {line_of(key)}, "
            "and this line makes it so"
        ), shown
    v = load_text(text, path="house.cardrules")
    assert [w.setting for w in check_warnings(v)] == ["hand size", "score", "winner", "tie"]


def test_a_trick_game_made_from_kazhutha_warns_about_its_shedding_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (
        "game: house\nextends: kazhutha\nplayers: 4\nmode: tricks\nscore: tricks\n"
        "bidding: none\nmatch word: none\noptions: none\n"
    )
    code, _out, err, _f = check(capsys, tmp_path, text)
    assert code == 0, err
    assert [line.split(": ", 2)[2].split(" ")[0] for line in err.strip().split("\n")] == [
        "`dead",
        "`all",
    ]
    assert all(line.startswith("warning: ") for line in err.strip().split("\n"))


def test_an_inherited_no_op_is_a_warning_from_python() -> None:
    v = load_text("game: house\nextends: oh-hell-trumps-broken\ntrumps: none\n", path="h.cardrules")
    (w,) = check_warnings(v)
    assert isinstance(w, VariantWarning)
    assert w.setting == "leading trumps"
    # shown at the file's own `trumps: none`, which idles the inherited line (issue 23)
    assert (w.path, w.line) == ("h.cardrules", 3)
    assert w.message.startswith("`leading trumps: once broken` has no effect")
    assert str(w) == f"{w.path}:{w.line}: {w.message}"
    shown = (builtin_dir() / "oh-hell-trumps-broken.cardrules").read_text(encoding="utf-8")
    parent_line = shown.split("\n").index("leading trumps: once broken") + 1
    assert f"inherited from oh-hell-trumps-broken.cardrules, line {parent_line}" in w.message


def test_a_no_op_made_by_an_option_is_a_warning() -> None:
    """The file's line is fine as written; the option given at load time idles it."""
    v = load("oh-hell-trumps-broken", trumps="none")
    assert [w.setting for w in check_warnings(v)] == ["leading trumps"]


def test_an_option_that_is_itself_a_no_op_is_refused() -> None:
    with pytest.raises(VariantError) as info:
        load("kazhutha", match_word="none", deal_passes="to the loser")
    assert info.value.path == "<option deal passes>"
    assert "`deal passes: to the loser` has no effect" in info.value.message


def test_builtins_have_no_no_ops(capsys: pytest.CaptureFixture[str]) -> None:
    names = builtin_names()
    assert main(["check", *names]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert len(out.strip().split("\n")) == len(names)
    for name in names:
        assert check_warnings(load(name)) == (), name


# --------------------------------------------------------------------------- docs and saves


def test_the_warning_shown_in_the_docs_is_what_check_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text(encoding="utf-8")
    section = doc.split("### Warnings", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```text\n(.*?)^```", section, re.M | re.S)
    files = [b for b in blocks if b.startswith("# ") and b.split("\n")[0].endswith(".cardrules")]
    assert len(files) == 2
    for body in files:
        (tmp_path / body.split("\n")[0][2:]).write_text(body, encoding="utf-8")
    (session,) = [b for b in blocks if b.startswith("$ cardrules check ")]
    command, *shown = session.rstrip("\n").split("\n")
    monkeypatch.chdir(tmp_path)
    assert main(command.split()[2:]) == 0
    out, err = capsys.readouterr()
    assert err + out == "\n".join(shown) + "\n"


def test_a_save_of_a_variant_with_warnings_restores_with_warn_only() -> None:
    """``format`` writes inherited lines as the variant's own; the text of such a
    variant validates once its warned settings are only warnings."""
    v = load_text(
        "game: house\nextends: kazhutha-next-highest-leads\n"
        "loser: most cards when the first goes out\n"
    )
    (w,) = check_warnings(v)
    text = cardrules.format(v)
    again = cardrules.parse(text, path="<saved game>", validate=False)
    with pytest.raises(VariantError, match="`leader out: next highest card` has no effect"):
        validate(again)
    validate(again, warn_only={w.setting})
    assert again == v


def test_an_inherited_bidding_line_without_bidding_is_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Oh Hell's `hook: yes` under a house rule that drops the bidding."""
    code, out, err, f = check(
        capsys, tmp_path, "game: house\nextends: oh-hell\nbidding: none\nscore: tricks\n"
    )
    assert code == 0 and out == f"{f}: ok, house (extends oh-hell)\n", err
    parent = builtin_dir() / "oh-hell.cardrules"
    line = parent.read_text(encoding="utf-8").split("\n").index("hook: yes") + 1
    # shown at the file's own `bidding: none` (line 3), which idles it (issue 23)
    assert err == (
        f"warning: {f}:3: `hook` has no effect: this game has no bidding; that line is "
        f"inherited from {parent.name}, line {line}, and this line makes it so\n"
    )


def test_a_config_built_in_python_is_checked_as_it_is() -> None:
    """No line wrote it, so the value itself is refused (at the game's start)."""
    from cardrules.rules import Mode, ScoringRule, TrumpKind, TrumpRule

    shed = load("kazhutha").evolve(positions=(), path="", scoring=ScoringRule(higher_wins=False))
    assert shed.mode is Mode.SHEDDING and shed.trumps == TrumpRule(TrumpKind.NONE)
    with pytest.raises(VariantError) as info:
        validate(shed)
    assert info.value.message.startswith("`winner` has no effect in a shedding game")


def test_a_game_whose_rules_only_warned_saves_and_restores() -> None:
    """A house rule whose inherited line changes nothing loads with a warning; its
    save states every setting as its own, so the save lists the idle settings and
    restoring checks them as warnings too (never a SaveError for a playable game)."""
    import json
    import random

    import cardrules
    from cardrules.dsl import check_warnings

    v = cardrules.load_text(
        "game: short-next\nextends: kazhutha-next-highest-leads\n"
        "loser: most cards when the first goes out, ties no loser\n",
        path="short-next.cardrules",
    )
    assert [w.setting for w in check_warnings(v)] == ["leader out"]
    g = cardrules.Game(v, 4, 7)
    rng = random.Random(7)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    saved = g.to_json()
    assert json.loads(saved)["variant"]["idle"] == ["leader out"]
    assert cardrules.Game.from_json(saved) == g
    # A save may not call a real rule idle: the list is only of setting names,
    # and a line that is not idle is checked as usual.
    d = json.loads(saved)
    d["variant"]["idle"] = ["not a setting"]
    with pytest.raises(cardrules.SaveError, match="idle settings"):
        cardrules.Game.from_json(json.dumps(d))
