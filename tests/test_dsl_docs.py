"""docs/dsl.md, the reference for house-rule writers, says what the language does.

Every setting has a section with an example; every example line parses and works
on top of a built-in game; the whole files shown load (and the two written out in
full are the built-in games); the error and the command-line output shown are
what ``cardrules`` prints.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardrules
from cardrules.cli import main
from cardrules.dsl import load, load_text
from cardrules.dsl.parser import parse_file
from cardrules.dsl.syntax_errors import SETTING_NAMES
from cardrules.errors import VariantError

DOC = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text(encoding="utf-8")

#: (language, body, the heading above it) for every fenced block of the page.
BLOCKS: list[tuple[str, str, str]] = []
_heading = ""
for _m in re.finditer(r"^(#{2,3} [^\n]*)$|^```(\w*)\n(.*?)^```", DOC, re.M | re.S):
    if _m.group(1):
        _heading = _m.group(1)
    else:
        BLOCKS.append((_m.group(2), _m.group(3), _heading))

#: Blocks that are variant text: not shell sessions, messages or Python.
VARIANT_BLOCKS = [
    (body, heading)
    for lang, body, heading in BLOCKS
    if not lang
    and not any(
        line.startswith(("$", "cardrules ", " ")) or re.match(r"[\w.-]+\.cardrules:", line)
        for line in body.splitlines()
    )
]
WHOLE_FILES = [
    body
    for body, _ in VARIANT_BLOCKS
    if re.search(r"^game:", body, re.M) and len(re.findall(r"^\w", body, re.M)) > 1
]
EXAMPLE_LINES = [
    (line, heading)
    for body, heading in VARIANT_BLOCKS
    if body not in WHOLE_FILES
    for line in body.splitlines()
    if line.strip() and not line.startswith("#")
]
#: Games an example line is tried on, in turn, until one accepts it.
BASES = (
    "oh-hell",
    "kachuful",
    "kazhutha",
    "callbreak",
    "oh-hell-broken-off-suit",
    "knockout-whist",
    "spades",
    "wizard",
    "kazhutha-two-packs",
    "five-hundred",
)


def test_the_page_was_read() -> None:
    assert len(WHOLE_FILES) == 4
    assert len(EXAMPLE_LINES) > 50


def test_every_setting_has_a_section_with_an_example() -> None:
    sections = re.findall(r"^### `([a-z ]+):`$", DOC, re.M)
    assert sorted(sections) == sorted(SETTING_NAMES)
    shown = {parse_file(line, require_game=False).settings[0].key for line, _ in EXAMPLE_LINES}
    assert shown >= set(SETTING_NAMES) - {"game"}


@pytest.mark.parametrize(("line", "heading"), EXAMPLE_LINES, ids=[x for x, _ in EXAMPLE_LINES])
def test_example_line_parses(line: str, heading: str) -> None:
    (setting,) = parse_file(line, require_game=False).settings
    assert setting.key in SETTING_NAMES


@pytest.mark.parametrize(("body", "heading"), [b for b in VARIANT_BLOCKS if b[1].startswith("###")])
def test_a_section_shows_its_own_setting(body: str, heading: str) -> None:
    first = next(line for line in body.splitlines() if line.strip())
    (setting,) = parse_file(first, require_game=False).settings
    assert heading == f"### `{setting.key}:`"


@pytest.mark.parametrize(
    "line", [x for x, _ in EXAMPLE_LINES if not x.startswith(("game:", "extends:"))]
)
def test_example_line_works_on_a_built_in_game(line: str) -> None:
    """Each example is a rule a real game can take (some need a base without
    bidding or with trumps that are not turned up), so none of them is a
    statement that reads well but can never be played."""
    errors = []
    for base in BASES:
        key = parse_file(line, require_game=False).settings[0].key
        extra = ""
        if key == "bidding" and "none" in line:
            extra = "hook: no\nscore: tricks\n"
        if key == "bidding" and "auction" in line:
            extra = "hook: no\n"
        if key in ("auction", "all pass"):
            extra = "bidding: auction\nhook: no\n"
        if key == "score" and "blind" in line:
            extra = "blind bids: yes\n"
        if key == "score" and "points" in line:
            extra = "card points: hearts 1, Q♠ 13\n"
        if key == "card points":
            extra = "score: points\n"
        if key == "deck" and "joker" in line:  # the jokers must be ranked
            extra = "trump order: big joker, little joker\n"
        if key == "trump order" and "joker" in line.replace("BJ", "big joker"):
            two = "little joker" in line or "LJ" in line
            extra = f"deck: standard 52 with {'2 jokers' if two else '1 joker'}\n"
        if key == "teams":  # a game with teams is for as many players as they hold
            extra = f"players: {len(re.findall(r'[0-9]+', line))}\n"
        if key in ("stick the dealer", "dealer keeps the turned card") or (
            key == "score" and "maker" in line
        ):
            extra = "trumps: order up\n"
        if key == "defending alone":  # a lone maker to defend against
            extra = "trumps: order up\nplayers: 4\nteams: 1 and 3, 2 and 4\ngoing alone: yes\n"
        if key == "going alone":  # order-up, with partners
            extra = "trumps: order up\nplayers: 4\nteams: 1 and 3, 2 and 4\n"
        if key == "team bids":  # partners, and a score that reads the side's bid
            extra = (
                "players: 4\nteams: 1 and 3, 2 and 4\n"
                "score: if team_tricks >= team_bid then 1 else 0\n"
            )
        if key in ("may name no trumps", "trump ties", "downtown", "misere") or line == (
            "first lead: declarer"
        ):
            extra = "trumps: named by the highest bidder\n"
        if key == "special turned up" and "jokers" in line:  # jokers, trumps turned up
            extra = "deck: standard 52 with 2 jokers\ntrump order: BJ, LJ\n"
            if "no trumps" in line:
                extra += "jokers without trumps: highest card\n"
        if key == "jokers without trumps":  # and a hand without trumps
            extra = (
                "deck: standard 52 with 2 jokers\ntrump order: BJ, LJ\n"
                "trumps: named by the highest bidder\nmay name no trumps: yes\n"
            )
        if key == "kitty":  # 4 players, 12 cards each: 4 cards left
            extra = (
                "trumps: named by the highest bidder\nplayers: 4\nhand size: 12\n"
                "hands: 3 hands of the same size\n"
            )
        try:
            load_text(f"game: doc-example\nextends: {base}\n{extra}{line}\n")
            return
        except VariantError as exc:
            errors.append(f"{base}: {exc.message}")
    pytest.fail(f"{line!r} fits no built-in game: {errors}")


def test_extends_examples(tmp_path) -> None:
    lines = [x for x, _ in EXAMPLE_LINES if x.startswith("extends:")]
    assert lines == ["extends: oh-hell", 'extends: "our-base.cardrules"']
    assert load_text(f"game: doc-example\n{lines[0]}\n").parent == "oh-hell"
    (tmp_path / "our-base.cardrules").write_text(
        "game: our-base\nextends: kachuful\nhook: no\n", encoding="utf-8"
    )
    v = load_text(f"game: doc-example\n{lines[1]}\n", search=[tmp_path])
    assert (v.parent, v.bidding.hook) == ("our-base", False)


def test_kachuful_is_written_out_in_full() -> None:
    """The page's \"Kachuful written out in full\" is the built-in game."""
    (text,) = [t for t in WHOLE_FILES if t.startswith("game: kachuful\n")]
    assert load_text(text) == load("kachuful")


def test_kazhutha_shown_has_the_rules_of_the_built_in() -> None:
    (text,) = [t for t in WHOLE_FILES if t.startswith("game: kazhutha\n")]
    shown, built_in = load_text(text), load("kazhutha")
    identity = {"title": "", "summary": "", "aliases": (), "options": ()}
    assert shown.evolve(**identity) == built_in.evolve(**identity)


def test_the_house_rule_shown_loads() -> None:
    (text,) = [t for t in WHOLE_FILES if "extends: kachuful" in t]
    v = load_text(text)
    assert (v.parent, v.bidding.hook, v.bidding.forehead_sizes) == ("kachuful", False, (1,))


def test_the_error_shown_is_the_error_printed() -> None:
    body = next(b for lang, b, _ in BLOCKS if b.startswith("house.cardrules:"))
    first = body.split("\n")[0]
    line, column = (int(x) for x in first.split(":")[1:3])
    source = body.split("\n")[1].strip()
    text = "game: house\nextends: oh-hell\n" + "\n" * (line - 3) + source + "\n"
    with pytest.raises(VariantError) as info:
        load_text(text, path="house.cardrules")
    assert str(info.value) == body.rstrip("\n")
    assert info.value.column == column


def test_the_check_shown_is_the_check_printed(tmp_path, monkeypatch, capsys) -> None:
    house = WHOLE_FILES[0]
    assert "extends: kachuful" in house
    (tmp_path / "kachuful-at-home.cardrules").write_text(house, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    session = next(b for _, b, _ in BLOCKS if b.startswith("$ cardrules check"))
    command, output = session.rstrip("\n").split("\n")
    assert main(command.split()[2:]) == 0
    assert capsys.readouterr().out.rstrip("\n") == output


def test_the_options_shown_work(capsys) -> None:
    session = next(b for _, b, _ in BLOCKS if b.startswith("$ cardrules show"))
    assert session.strip() == '$ cardrules show oh-hell --set hook=off --set "hand size=largest"'
    assert main(["show", "oh-hell", "--set", "hook=off", "--set", "hand size=largest"]) == 0
    assert "hook: no" in capsys.readouterr().out
    python = next(b for lang, b, _ in BLOCKS if lang == "python")
    namespace: dict[str, object] = {}
    exec(python, namespace)  # the page's own example, run as written
    v = namespace["v"]
    assert isinstance(v, cardrules.Variant) and not v.bidding.hook


def test_the_euchre_benny_shown_is_checked_and_is_the_built_in(tmp_path, capsys) -> None:
    """The Euchre-with-the-benny file of the page passes the checker, and its
    rules are the built-in ``euchre-benny``'s."""
    (text,) = [t for t in WHOLE_FILES if "special turned up: jokers" in t]
    path = tmp_path / "our-euchre-benny.cardrules"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "ok" in capsys.readouterr().out
    identity = {"name": "x", "title": "", "summary": "", "aliases": (), "options": ()}
    shown, built_in = load_text(text), load("euchre-benny")
    assert shown.evolve(**identity) == built_in.evolve(**identity)
