"""``special symbols:``: the letters and the singular name a file gives each kind
of special card (``wizards W (wizard)``). People read and write the cards by
them (``W1``, ``play N2``); ids, saves and JSON keep the canonical text (``X1``),
which a game still reads."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Card, Game, card, load, load_text
from cardrules.commands.play import Table, format_hand
from cardrules.dsl.formatter import format_source
from cardrules.engine.actions import Play
from cardrules.engine.views.view import View
from cardrules.errors import VariantError
from cardrules.example_runner import run_examples
from cardrules.rulebook import rulebook

WIZARD = load("wizard")
WIZARD_TEXT = Path(__file__).resolve().parent.parent / "variants" / "wizard.cardrules"
SYMBOLS_LINE = "special symbols: wizards W (wizard), jesters N (jester)\n"


def _text() -> str:
    with open(WIZARD_TEXT, encoding="utf-8") as f:
        return f.read()


def _without_symbols() -> str:
    """Wizard as it was before the line: its examples in the canonical text."""
    head, sep, tail = _text().partition("# Worked examples")
    tail = re.sub(r"\bW([1-4])\b", r"X\1", tail)
    tail = re.sub(r"\bN([1-4])\b", lambda m: f"X{int(m.group(1)) + 4}", tail)
    return (head + sep + tail).replace(SYMBOLS_LINE, "")


# --------------------------------------------------------------------------- the line


def test_the_line_parses_and_is_written_back() -> None:
    assert [(x.kind, x.symbol, x.singular) for x in WIZARD.deck.symbols] == [
        ("wizards", "W", "wizard"),
        ("jesters", "N", "jester"),
    ]
    assert WIZARD.deck.card_names() == {
        54: "W1",
        55: "W2",
        56: "W3",
        57: "W4",
        58: "N1",
        59: "N2",
        60: "N3",
        61: "N4",
    }
    text = cardrules.format(WIZARD)
    assert SYMBOLS_LINE in text
    assert load_text(text) == WIZARD
    assert format_source(_text()) == _text()


def test_the_singular_is_optional() -> None:
    v = load_text("game: w\nextends: wizard\nspecial symbols: wizards Wz\n")
    assert v.deck.symbols[0].singular == "wizard"
    assert v.deck.card_names()[54] == "Wz1"
    assert 58 not in v.deck.card_names()  # the jesters keep X5...


def test_without_the_line_the_cards_read_as_before() -> None:
    v = load_text(_without_symbols())
    assert v.deck.symbols == ()
    g = Game(v, 4, seed=2)
    assert g.card_text(Card(54)) == "X1"
    assert g.action_label(Play(58)) == "play X5"
    assert "4 wizards (X1 to X4)" in rulebook(v)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("special symbols: wizards X", "already the text of other cards"),
        ("special symbols: wizards BJ", "already the text of other cards"),
        ("special symbols: wizards WIZ", "is not a symbol"),
        ("special symbols: wizards W, jesters w", "two kinds are given the symbol"),
        ("special symbols: wizards W, wizards V", "given a symbol twice"),
        ("special symbols: dragons D", "the pack has no dragons"),
    ],
)
def test_bad_lines_are_refused(line: str, why: str) -> None:
    with pytest.raises(VariantError, match=why):
        load_text(f"game: w\nextends: wizard\n{line}\n")


def test_a_pack_without_special_cards_refuses_the_line() -> None:
    with pytest.raises(VariantError, match="the pack has no wizards"):
        load_text("game: w\nextends: oh-hell\nspecial symbols: wizards W\n")


# --------------------------------------------------------------------------- the game


def test_parse_action_reads_symbols_and_canonical_text() -> None:
    g = Game(WIZARD, 4, seed=1)
    for text in ("play W1", "W1", "w1", "X1", "play x1"):
        assert g.parse_action(text) == Play(54), text
    assert g.parse_action("play N4") == Play(61)
    assert g.parse_action("Q♠") == Play(card("Q♠"))
    assert g.parse_action("bid 2").label == "bid 2"
    with pytest.raises(cardrules.InvalidAction):
        g.parse_action("play N5")  # four jesters only


def test_card_text_and_labels() -> None:
    g = Game(WIZARD, 4, seed=1)
    assert [g.card_text(Card(c)) for c in (54, 57, 58, 61)] == ["W1", "W4", "N1", "N4"]
    assert g.card_text(card("10♥")) == "10♥"
    assert g.action_label(Play(55)) == "play W2"
    assert g.action_label(Play(card("A♠"))) == "play A♠"
    assert Play(55).label == "play X2"  # the canonical label is unchanged


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_action_labels_round_trip_in_wizard(players: int, seed: int, steps: int) -> None:
    g = Game(WIZARD, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps + 1):
        seat = g.to_act
        if g.is_over or seat is None:
            break
        legal = g.legal_actions(seat)
        for a in legal:
            label = g.action_label(a)
            assert not re.search(r"\bX\d", label), label
            assert g.parse_action(label) == a, label
        g.apply(rng.choice(legal), seat)


def test_the_terminal_shows_and_reads_symbols() -> None:
    t = Table(["a", "b", "c", "d"], True, False, WIZARD.deck.card_names())
    assert t.card(Card(54)) == "W1"
    hand = format_hand([Card(54), Card(59), card("Q♠")], None, style=t.style)
    assert hand == "N2 W1   ♠ Q"


def test_the_terminal_shows_a_hand_with_special_cards_without_symbols() -> None:
    # Regression: the hand asked a special card for its suit and failed.
    assert format_hand([Card(54), card("Q♠")], None) == "X1   ♠ Q"


# --------------------------------------------------------------------------- the file and the page


def test_the_examples_read_symbols_and_still_pass() -> None:
    assert "play A♥ W1 A♠ K♥" in _text()
    assert run_examples(WIZARD) == []
    old = load_text(_without_symbols())
    assert old.examples == WIZARD.examples  # the same cards, by id
    assert run_examples(old) == []


def test_an_example_naming_an_unknown_symbol_is_refused() -> None:
    text = _text().replace("seat 2 holds W1, void in hearts", "seat 2 holds Z1, void in hearts")
    with pytest.raises(VariantError, match="Z1 is not a card"):
        load_text(text)


def test_the_rules_page_uses_symbols_and_singular_names() -> None:
    page = rulebook(WIZARD)
    assert "4 wizards (W1 to W4)" in page
    assert "4 jesters (N1 to N4)" in page
    body = page.split("# Worked examples")[0]
    assert not re.search(r"\bX\d", body)
    fools = load_text("game: w\nextends: wizard\nspecial symbols: jesters F (fool)\n")
    page = rulebook(fools)
    assert "A fool never wins" in page
    assert "if it is a fool, there are no trumps" in page
    assert "4 jesters (F1 to F4)" in page


# --------------------------------------------------------------------------- saves


def test_a_save_written_before_the_line_loads_after() -> None:
    old = load_text(_without_symbols())
    g = Game(old, 4, seed=5)
    rng = random.Random(5)
    for _ in range(12):
        seat = g.to_act
        assert seat is not None
        g.apply(rng.choice(g.legal_actions(seat)), seat)
    text = g.to_json()
    assert "W1" not in text and "N1" not in text
    back = Game.from_json(text)
    assert back.variant.deck.symbols == ()
    assert back.legal_actions(back.to_act) == g.legal_actions(g.to_act)
    assert [back.action_label(a) for a in back.legal_actions(back.to_act)] == [
        a.label for a in g.legal_actions(g.to_act)
    ]


def test_a_save_keeps_the_canonical_card_text() -> None:
    g = Game(WIZARD, 4, seed=7)
    rng = random.Random(7)
    for _ in range(12):
        seat = g.to_act
        assert seat is not None
        g.apply(rng.choice(g.legal_actions(seat)), seat)
    text = g.to_json()
    assert not re.search(r'"[WN][1-4]"', text)
    back = Game.from_json(text)
    assert back.legal_actions(back.to_act) == g.legal_actions(g.to_act)
    assert back.view(0).to_dict() == g.view(0).to_dict()
    assert back.card_text(Card(54)) == "W1"


def test_a_save_written_by_the_code_before_the_line_loads() -> None:
    """A wizard save written before ``special symbols`` existed (the code and
    the built-in of then): it carries its rules, and loads as they were."""
    text = (
        Path(__file__).resolve().parent / "golden" / "wizard_save_before_symbols.json"
    ).read_text(encoding="utf-8")
    g = Game.from_json(text)
    assert g.variant.deck.symbols == ()
    # (Examples and cases are presentation: the save's file had its own.)
    today = load_text(_without_symbols())
    assert g.variant == today.evolve(examples=g.variant.examples, cases=g.variant.cases)
    seat = g.to_act
    assert seat is not None
    assert all(g.parse_action(g.action_label(a)) == a for a in g.legal_actions(seat))
    # Given today's built-in, whose rules differ by the line, it is refused as
    # any save of other rules is (the rules a save was made with decide).
    with pytest.raises(cardrules.SaveError) as err:
        Game.from_json(text, WIZARD)
    assert err.value.code == "save_variant_mismatch"


def test_a_view_adds_a_name_map_and_keeps_the_card_text() -> None:
    g = Game(WIZARD, 4, seed=3)
    v = g.view(0)
    data = v.to_dict()
    assert data["card_names"][0] == ["X1", "W1"]
    assert data["card_names"][-1] == ["X8", "N4"]
    assert not any(re.fullmatch(r"[WN]\d", c) for c in data["hand"])
    assert View.from_dict(json.loads(v.to_json())) == v
    assert "card_names" not in Game(load("oh-hell"), 4, seed=3).view(0).to_dict()
