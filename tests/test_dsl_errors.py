"""Error messages: exact ``path:line:col``, the line, the caret, expected words, did-you-mean."""

from __future__ import annotations

import pytest

from cardrules.dsl import load, load_text, parse
from cardrules.errors import VariantError


def err(text: str, path: str = "house.cardrules") -> VariantError:
    with pytest.raises(VariantError) as info:
        parse(text, path=path)
    return info.value


def test_misspelt_setting_name():
    e = err("game: x\ntrumsp: spades\n")
    lines = str(e).split("\n")
    assert lines[0] == "house.cardrules:2:1: unknown setting 'trumsp'"
    assert lines[1] == "    trumsp: spades"
    assert lines[2] == "    ^"
    assert lines[3].startswith("expected one of: game, extends, title,")
    assert lines[4] == "did you mean 'trumps'?"
    assert isinstance(e, ValueError)


def test_misspelt_two_word_setting():
    e = err("game: x\nhand sise: 7\n")
    assert e.message == "unknown setting 'hand sise'"
    assert e.hint == "did you mean 'hand size'?"


def test_misspelt_suit():
    e = err("game: x\ntrumps: spdes\n")
    assert str(e) == (
        "house.cardrules:2:9: unexpected 'spdes'\n"
        "    trumps: spdes\n"
        "            ^\n"
        "expected one of: `no trumps`, `cycle`, `dealer's last card`, `named by the highest "
        "bidder`, `none`, `order up`, `turned up` or a suit: spades, hearts, "
        "diamonds or clubs\n"
        "did you mean 'spades'?"
    )


def test_misspelt_suit_in_cycle():
    e = err("game: x\n\ntrumps: cycle spades, diamonds, clubz, hearts\n")
    assert (e.line, e.column) == (3, 33)
    assert str(e).split("\n")[2] == "    " + " " * 32 + "^"
    assert e.expected == (
        "one of: `no trumps`, `then named by the winner of most tricks` or a suit: "
        "spades, hearts, diamonds or clubs"
    )
    assert e.hint == "did you mean 'clubs'?"


def test_misspelt_keyword_phrase():
    e = err("game: x\nfirst dealer: cut for higest card\n")
    assert (e.line, e.column) == (2, 15)
    assert e.hint == "did you mean 'cut for highest card'?"
    assert e.expected == "one of: `cut for highest card`, `random` or `seat`"


def test_hindi_suit_misspelt():
    e = err("game: x\ntrumps: cycle kali, chukat, fulli, laal\n")
    assert e.hint == "did you mean 'fuli'?"


def test_missing_colon():
    e = err("game: x\nplayers 3 to 7\n")
    assert str(e) == (
        "house.cardrules:2:9: unexpected '3'\n"
        "    players 3 to 7\n"
        "            ^\n"
        "expected a colon ':' after the setting name"
    )


def test_line_ends_too_soon():
    e = err("game: x\nplayers: 3 to\n")
    assert str(e) == (
        "house.cardrules:2:14: the line ends too soon\n"
        "    players: 3 to\n"
        "                 ^\n"
        "expected a number"
    )


def test_extra_words_after_a_complete_setting():
    e = err("game: x\nhook: yes please\n")
    assert e.message == "unexpected 'please': the setting is complete before it"
    assert (e.line, e.column, e.expected) == (2, 11, "the end of the line")


def test_bad_boolean():
    e = err("game: x\nhook: maybe\n")
    assert (e.message, e.expected) == ("unexpected 'maybe'", "yes or no")


def test_not_a_setting_line():
    e = err("hello world\n")
    assert e.message == "'hello world' is not a setting"
    assert e.expected == "a line of the form `setting: value`, such as `players: 3 to 7`"


def test_odd_character():
    e = err("game: x\n\u00a0players: 3\n")
    assert e.message == "unexpected character U+00A0 (no-break space)"
    assert (e.line, e.column) == (2, 1)


def test_semantic_error_points_at_the_line():
    e = err("game: x\nplayers: 3 to 7\nhand size: 8\nscore: if exact then 10 + bid else 0\n")
    assert str(e) == (
        "house.cardrules:3:1: 8 cards each for 7 players needs 56 cards; the pack has 52\n"
        "    hand size: 8\n"
        "    ^\n"
        "deal fewer cards, or allow fewer than 7 players"
    )


def test_option_did_you_mean():
    with pytest.raises(VariantError) as info:
        load("oh-hell", hok=False)
    e = info.value
    assert e.message == "oh-hell has no option 'hok'"
    assert e.expected == "one of: hook, hand_size, hands, trumps, bidding, score, tie"
    assert e.hint == "did you mean 'hook'?"


def test_option_not_offered():
    with pytest.raises(VariantError) as info:
        load("oh-hell", follow="any card")
    assert info.value.message == "'follow' is not one of the options of oh-hell"


def test_option_ill_typed():
    with pytest.raises(VariantError) as info:
        load("oh-hell", hook=3)
    e = info.value
    assert str(e) == (
        "<option hook>:1:7: unexpected '3'\n    hook: 3\n          ^\nexpected yes or no"
    )
    with pytest.raises(VariantError, match="cannot use a value of type dict"):
        load("oh-hell", hook={})


def test_unknown_parent_did_you_mean():
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: oh-hel\n", path="mine.cardrules")
    e = info.value
    assert (e.path, e.line, e.column) == ("mine.cardrules", 2, 10)
    assert e.message == "there is no variant called 'oh-hel'"
    assert e.hint == "did you mean 'oh-hell'?"


def test_unknown_builtin_name():
    with pytest.raises(VariantError) as info:
        load("kachufull")
    assert info.value.hint == "did you mean 'kachuful'?"


def test_error_in_a_parent_points_into_the_parent(tmp_path):
    (tmp_path / "base.cardrules").write_text(
        "game: base\nplayers: 3 to 7\nhand size: 9\nscore: tricks\n", encoding="utf-8"
    )
    (tmp_path / "child.cardrules").write_text("game: child\nextends: base\n", encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load(tmp_path / "child.cardrules")
    e = info.value
    assert e.path.endswith("base.cardrules")
    assert (e.line, e.source_line) == (3, "hand size: 9")


def test_not_utf8(tmp_path):
    f = tmp_path / "x.cardrules"
    f.write_bytes(b'game: x\ntitle: "caf\xe9"\n')
    with pytest.raises(VariantError) as info:
        load(f)
    assert (info.value.message, info.value.line, info.value.column) == (
        "the file is not UTF-8 text",
        2,
        12,
    )


def test_a_clash_points_at_the_house_rule_not_the_parent():
    """When a house rule's own line clashes with a rule it inherits, the error
    points at the house rule's line, which the writer can change."""
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: oh-hell\nbidding: fists\n", path="x.cardrules")
    assert str(info.value) == (
        "x.cardrules:3:1: the hook needs a dealer who bids last, but everyone bids at once\n"
        "    bidding: fists\n"
        "    ^\n"
        "add `hook: no`, or bid in turn"
    )
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: oh-hell\nhook: no\nbidding: none\n", path="x.cardrules")
    e = info.value
    assert (e.path, e.line, e.source_line) == ("x.cardrules", 4, "bidding: none")
    assert e.message == "the score uses exact, but this game has no bidding"
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: oh-hell\nplayers: 3 to 9\n", path="x.cardrules")
    assert (info.value.line, info.value.source_line) == (3, "players: 3 to 9")
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: kazhutha\ndeck: standard 52 without AS\n", path="x.cardrules")
    assert (info.value.line, info.value.message) == (
        3,
        "A♠ leads first, but it is taken out of the pack",
    )


def test_a_clash_from_an_option_points_at_the_option():
    with pytest.raises(VariantError) as info:
        load("oh-hell", bidding="all at once")
    e = info.value
    assert (e.path, e.source_line) == ("<option bidding>", "bidding: all at once")
    with pytest.raises(VariantError) as info:
        load("oh-hell", bidding="none", hook=False)
    assert info.value.path == "<option bidding>"
    assert info.value.message == "the score uses exact, but this game has no bidding"
