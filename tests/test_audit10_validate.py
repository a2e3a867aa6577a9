"""Issue 10, items 12, 14, 15 and 23: settings that cannot work are refused by
``check`` at the line that causes them, and the tutorial says what ``check`` prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardrules
from cardrules.cards import ALL_CARDS
from cardrules.cli import main
from cardrules.dsl import load, load_text, parse
from cardrules.errors import CardrulesError, VariantError

ROOT = Path(__file__).resolve().parent.parent


def refused(text: str, path: str = "house.cardrules") -> VariantError:
    with pytest.raises(VariantError) as info:
        load_text(text, path=path)
    return info.value


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> tuple[int, str, str, Path]:
    """Run ``cardrules check`` on ``text`` written to a file; (code, out, err, file)."""
    f = tmp_path / "house.cardrules"
    f.write_text(text, encoding="utf-8")
    code = main(["check", str(f)])
    out, err = capsys.readouterr()
    return code, out, err, f


# ---------------------------------------------------------------- item 12: match word in tricks


def test_match_word_refused_in_a_trick_taking_game() -> None:
    """A trick-taking game has no loser, so a match of it never ends."""
    e = refused("game: house\nextends: oh-hell\nmatch word: DONKEY\n")
    assert (e.path, e.line, e.column) == ("house.cardrules", 3, 1)
    assert "`match word`" in e.message and "no loser" in e.message
    assert str(e).split("\n")[1:3] == ["    match word: DONKEY", "    ^"]


def test_deal_passes_to_the_loser_refused_in_a_trick_taking_game() -> None:
    e = refused("game: house\nextends: oh-hell\n\ndeal passes: to the loser\n")
    assert (e.line, e.column) == (4, 1)
    assert "`deal passes: to the loser`" in e.message and "no loser" in e.message


def test_match_settings_that_say_nothing_still_load_in_a_trick_taking_game() -> None:
    v = load_text(
        "game: house\nextends: oh-hell\nmatch word: none\ndeal passes: to the next player\n"
    )
    assert (v.match.word, v.match.loser_deals) == ("", False)


def test_a_trick_taking_game_made_from_kazhutha_points_at_the_mode_line() -> None:
    """The match word is Kazhutha's; the line that makes it unusable is this file's."""
    e = refused(
        "game: house\nextends: kazhutha\nplayers: 4\nmode: tricks\nscore: tricks\nbidding: none\n"
    )
    assert (e.path, e.line) == ("house.cardrules", 4)
    assert "`match word`" in e.message


def test_shedding_settings_inherited_into_a_trick_taking_game_only_warn() -> None:
    """A trick-taking house rule made from a shedding game: the shedding lines it
    inherits change nothing, so they are warnings (issue 11's no-op rule), not errors."""
    from cardrules.dsl import check_warnings

    v = cardrules.load_text(
        "game: house\nextends: kazhutha\nplayers: 4\nmode: tricks\nscore: tricks\n"
        "bidding: none\nmatch word: none\n",
        path="house.cardrules",
    )
    warned = {w.setting: w for w in check_warnings(v)}
    assert {"dead tricks", "all out together"} <= set(warned)
    assert "is for shedding games" in warned["dead tricks"].message


def test_check_refuses_match_word_in_a_trick_taking_game(capsys, tmp_path) -> None:
    code, out, err, f = check(capsys, tmp_path, "game: house\nextends: oh-hell\nmatch word: ABC\n")
    assert code == 1 and out == ""
    assert err.startswith(f"{f}:3:1: `match word` is for shedding games")
    assert "Traceback" not in err


def test_match_word_still_fine_in_shedding_games() -> None:
    assert load("donkey").match.word == "DONKEY"
    assert load("kazhutha-loser-deals").match.loser_deals is True


# ---------------------------------------------------------------- item 14: whole pack in tricks


TRICKS_WHOLE_PACK = """\
game: t
players: {players}
deck: {deck}
hands: whole pack
trumps: {trumps}
bidding: none
score: tricks
"""


def _deck(removed: int) -> str:
    if not removed:
        return "standard 52"
    return "standard 52 without " + " ".join(str(c) for c in ALL_CARDS[:removed])


def test_whole_pack_trick_game_refused_at_the_hands_line() -> None:
    e = refused("game: house\nextends: oh-hell\nhands: whole pack\n")
    assert (e.path, e.line, e.column) == ("house.cardrules", 3, 1)
    assert "3 players" in e.message and "52" in e.message
    assert e.hint is not None and "4" in e.hint


def test_whole_pack_trick_game_for_four_loads_and_deals() -> None:
    v = load_text("game: house\nextends: oh-hell\nplayers: 4\nhands: whole pack\n")
    assert v.hand_sizes(4) == (13,)
    g = cardrules.Game(v, players=4, seed=1)
    assert len(g.legal_actions()) > 0


def test_check_refuses_a_whole_pack_that_cannot_be_shared(capsys, tmp_path) -> None:
    text = "game: house\nextends: oh-hell\nplayers: 4 to 5\nhands: whole pack\n"
    code, out, err, f = check(capsys, tmp_path, text)
    assert code == 1 and out == ""
    assert err.startswith(f"{f}:4:1: ")
    assert "5 players" in err.split("\n")[0]


@pytest.mark.parametrize("trumps", ["none", "turned up, no trumps when the pack runs out"])
def test_whole_pack_verdict_agrees_with_the_engine(trumps: str) -> None:
    """For every pack size and every player count, ``check`` accepts a trick-taking
    whole-pack game exactly when the engine can deal it; a range of counts is
    accepted exactly when every count in it is."""
    for removed in range(0, 13):
        size = 52 - removed
        engine_ok: dict[int, bool] = {}
        for n in range(2, min(size, 14) + 1):
            text = TRICKS_WHOLE_PACK.format(players=n, deck=_deck(removed), trumps=trumps)
            v = parse(text, validate=False)
            try:
                cardrules.Game(v, players=n, seed=0)
                engine_ok[n] = True
            except CardrulesError:
                engine_ok[n] = False
            try:
                load_text(text)
                check_ok = True
            except VariantError:
                check_ok = False
            assert check_ok == engine_ok[n], (size, n)
        for lo in range(2, 6):
            hi = lo + 3
            text = TRICKS_WHOLE_PACK.format(
                players=f"{lo} to {hi}", deck=_deck(removed), trumps=trumps
            )
            try:
                load_text(text)
                check_ok = True
            except VariantError:
                check_ok = False
            assert check_ok == all(engine_ok[n] for n in range(lo, hi + 1)), (size, lo, hi)


def test_whole_pack_shedding_games_still_deal_unevenly() -> None:
    v = load("kazhutha")
    for n in v.players.counts():
        cardrules.Game(v, players=n, seed=0)


# ---------------------------------------------------------------- item 15: shedding with trumps


@pytest.mark.parametrize(
    "trumps",
    [
        "hearts",
        "cycle spades, diamonds, clubs, hearts",
        "cycle spades, no trumps",
        "cycle no trumps",
        "turned up",
        "turned up, no trumps when the pack runs out",
    ],
)
def test_shedding_game_with_trumps_refused_at_the_trumps_line(trumps: str) -> None:
    """Seat 0 cut with 2♥ and picked up while seat 1 played A♣: shedding games
    are defined without trumps, so a trumps setting is refused."""
    e = refused(f"game: house\nextends: kazhutha\n\ntrumps: {trumps}\n")
    assert (e.path, e.line, e.column) == ("house.cardrules", 4, 1)
    assert "shedding games are played without trumps" in e.message
    assert e.expected == "`trumps: none`"


def test_shedding_game_with_no_trump_hands_refused_at_its_line() -> None:
    e = refused("game: house\nextends: kazhutha\nno trumps: every 2nd hand\n")
    assert (e.line, e.column) == (3, 1)
    assert "shedding games are played without trumps" in e.message
    assert "`no trumps: every 2nd hand`" in e.message


def test_shedding_game_left_with_default_trumps_points_at_a_line() -> None:
    """A shedding file that never says `trumps:` has turned-up trumps by default."""
    e = refused("game: shed\nmode: shedding\nplayers: 3 to 8\nhands: whole pack\nbidding: none\n")
    assert e.line == 2  # the mode line: the default trumps are fine in a trick-taking game
    assert "the default trumps (turned up)" in e.message
    assert "shedding games are played without trumps" in e.message
    assert e.expected == "`trumps: none`"


def test_check_refuses_a_shedding_game_with_trumps(capsys, tmp_path) -> None:
    code, out, err, f = check(capsys, tmp_path, "game: house\nextends: kazhutha\ntrumps: hearts\n")
    assert code == 1 and out == ""
    assert err.startswith(f"{f}:3:1: shedding games are played without trumps")
    assert "expected `trumps: none`" in err


def test_shedding_game_without_trumps_still_loads() -> None:
    v = load_text("game: house\nextends: kazhutha\ntrumps: none\nno trumps: never\n")
    assert v.trumps.kind is cardrules.rules.TrumpKind.NONE


# ---------------------------------------------------------------- item 23: what check says


def test_tutorial_shows_what_check_prints(capsys, tmp_path, monkeypatch) -> None:
    """The tutorial's first file, checked as the tutorial says, prints the line it shows."""
    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    step1 = tutorial.split("## Step 1", 1)[1].split("## Step 2", 1)[0]
    titled = r'```text title="house-rules/menon-kachuful.cardrules"\n(.*?)```'
    (first,) = re.findall(titled, step1, re.S)
    (command,) = re.findall(r"```bash\n(cardrules check [^\n]*)\n```", step1)
    (tmp_path / "house-rules").mkdir()
    (tmp_path / "house-rules" / "menon-kachuful.cardrules").write_text(first, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(command.split()[1:]) == 0
    out = capsys.readouterr().out
    assert out == "house-rules/menon-kachuful.cardrules: ok, menon-kachuful (extends kachuful)\n"
    shown = re.findall(r"```text\n(.*?)```", step1, re.S)
    assert out in shown
    assert "No output" not in step1


def test_one_card_is_singular_in_messages() -> None:
    e = refused(
        "game: house\nextends: oh-hell\nbids: 2 to the hand size\nhook: no\nscore: tricks\n"
    )
    assert "only 1 card" in e.message and "1 cards" not in e.message
    four = " ".join(str(c) for c in ALL_CARDS[4:])
    e = refused(
        f"game: house\nplayers: 4\ndeck: standard 52 without {four}\nhand size: 1\n"
        "hands: 2 hands of the same size\ntrumps: turned up\nscore: tricks\n"
    )
    assert "1 card each" in e.message and "1 cards" not in e.message
