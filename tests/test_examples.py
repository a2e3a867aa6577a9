"""Worked examples in variant files (issue 11, item 6).

A file may carry examples: a stacked deal, the actions up to a point and what
must hold then. They are read by the grammar, written back by the formatter,
never inherited through ``extends``, played through the engine by
:func:`cardrules.example_runner.run_examples` (what ``cardrules check`` reports) and
shown on the rules page. Every built-in file proves its own rules with them,
and a broken copy of each fails with its line and what happened instead.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from cardrules.cards import CardSet, Suit, card
from cardrules.dsl import builtin_dir, builtin_names, format, format_source, load, load_text, parse
from cardrules.dsl.example_syntax import (
    MAX_EXAMPLE_ACTIONS,
    MAX_EXAMPLE_LINES,
    MAX_EXAMPLES,
    BidItem,
    Bids,
    Expect,
    ExpectKind,
    Plays,
)
from cardrules.engine import Match
from cardrules.errors import CardrulesError, VariantError
from cardrules.example_runner import ExampleFailure, after_game, run_example, run_examples
from cardrules.rulebook import rulebook

DOC = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text(encoding="utf-8")

#: The example of the brief (issue 11), as a house rule of Oh Hell, clockwise.
OVER_TRUMP = """\
game: over-trump
extends: oh-hell
follow: must follow suit, must trump when void, must beat when able

example: a player void in the suit led must over-trump
  with 4 players, hand 8, seat 4 deals, trumps spades
  seat 1 holds K♥ 2♣ 3♣
  seat 2 holds 5♠ 4♦ 6♣
  seat 3 holds 9♠ 3♠ 6♦
  seat 4 holds 2♠ 8♣ 7♥
  bids 1 1 0 0
  play K♥ 5♠
  expect seat 3 may play only 9♠
  expect seat 3 may not play 3♠: must beat
  play 9♠ 7♥
  expect the trick goes to seat 3
  expect seat 3 leads
"""


def _failures(text: str, path: str = "house.cardrules") -> list[ExampleFailure]:
    return run_examples(load_text(text, path=path))


def _one_failure(text: str) -> ExampleFailure:
    (failure,) = _failures(text)
    return failure


# --------------------------------------------------------------------------- reading


def test_the_lines_of_an_example_are_read_into_the_model() -> None:
    v = load_text(OVER_TRUMP)
    (ex,) = v.examples
    assert ex.title == "a player void in the suit led must over-trump"
    assert (ex.deal.players, ex.deal.hand, ex.deal.dealer, ex.deal.trumps) == (
        4,
        8,
        3,
        Suit.SPADES,
    )
    assert [h.seat for h in ex.holdings] == [0, 1, 2, 3]  # seats are 1-based in files
    assert ex.holdings[0].cards == (card("K♥"), card("2♣"), card("3♣"))
    assert ex.steps[0] == Bids((BidItem(1), BidItem(1), BidItem(0), BidItem(0)))
    assert ex.steps[1] == Plays((card("K♥"), card("5♠")))
    may = ex.steps[2]
    assert isinstance(may, Expect)
    assert (may.kind, may.seat, may.cards, may.only) == (
        ExpectKind.MAY_PLAY,
        2,
        (card("9♠"),),
        True,
    )
    assert ex.pos is not None and (ex.pos.path, ex.pos.line) == ("<string>", 5)
    assert may.pos is not None and (may.pos.line, may.pos.column) == (13, 3)


def test_only_may_come_after_the_cards() -> None:
    a = parse("game: x\nexample: t\n  expect seat 3 may play 9♠ only\n", validate=False)
    b = parse("game: x\nexample: t\n  expect seat 3 may play only 9♠\n", validate=False)
    assert a.examples == b.examples and a.examples[0].expectations[0].only


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("  seat 1 holds A♠\n", 2, "belongs to an example"),
        ("example: t\n  expect seat 1 leads\nhook: no\n  play A♠\n", 5, "belongs to an example"),
        ("example: t\n  seat 1 holds A♠\n  with 4 players\n  expect seat 1 leads\n", 4, "first"),
        (
            "example: t\n  play A♠\n  seat 1 holds A♠\n  expect seat 1 leads\n",
            4,
            "before the first",
        ),
        ("example: t\n  seat 1 holds A♠\n  seat 1 holds K♠\n  expect seat 1 leads\n", 4, "already"),
        ("example: t\n  seat 1 holds A♠\n  seat 2 holds A♠\n  expect seat 1 leads\n", 4, "A♠ is"),
        (
            "example: t\n  with turned up A♠\n  seat 2 holds A♠\n  expect seat 1 leads\n",
            4,
            "turned",
        ),
        (
            "example: t\n  with 3 players\n  seat 4 holds A♠\n  expect seat 1 leads\n",
            4,
            "no seat 4",
        ),
        ("example: t\n  with 3 players, seat 4 deals\n  expect seat 1 leads\n", 3, "cannot deal"),
        ("example: t\n  with 4 players, 5 players\n  expect seat 1 leads\n", 3, "twice"),
        ("example: t\n  with trumps hearts, turned up 2♠\n  expect no trumps\n", 3, "not one of"),
        ("example: t\n  with no trumps, trumps hearts\n  expect no trumps\n", 3, "contradicts"),
        ("example: t\n  play A♠ A♠\n  expect seat 1 leads\n", 3, "named twice"),
        ("example: t\n  expect seat 1 may bid 1 1\n", 3, "named twice"),
        ("example: t\n  play A♠\n", 2, "no `expect` line"),
        ("example: t\n  expect seat 1 leads\nexample: T\n  expect seat 1 leads\n", 4, "already on"),
        ("example: t\n  expect seat 53 leads\n", 3, "too large"),
        ("example: t\n  with hand 41\n  expect seat 1 leads\n", 3, "too large"),
        ("example: t\n  expect seat 1 scores 1/0\n", 3, "0 below the bar"),
        ("example: t\n  expect seat 1 takes the letter KA\n", 3, "not one letter"),
        ("example: t\n  expect seat 1 can see the cards of seat 1\n", 3, "its cards"),
    ],
)
def test_a_wrong_example_line_is_refused_at_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(VariantError) as info:
        parse("game: x\n" + text, path="x.cardrules", validate=False)
    err = info.value
    assert err.path == "x.cardrules" and err.line == line, str(err)
    assert words in err.message, err.message
    assert "Traceback" not in str(err)


def test_a_seat_void_in_a_suit_it_holds_fails_at_its_line() -> None:
    """Whether a named card is of a suit the seat is void in depends on the hand's
    trumps under a trump order (J♦ is a heart with the jack of the same colour among
    the trumps), so it is checked when the example runs, at the seat's line."""
    v = parse(
        "game: x\nplayers: 4\nhand size: 5\ntrumps: none\nbidding: none\nscore: tricks\n"
        "example: t\n  seat 1 holds A♠, void in spades\n  expect seat 1 leads\n",
        path="x.cardrules",
        validate=False,
    )
    (failure,) = run_examples(v)
    assert failure.line == 8 and "seat 1 holds A♠, so is not void in its suit" in str(failure)


def test_a_misspelt_example_line_is_refused_at_its_line() -> None:
    with pytest.raises(VariantError) as info:
        parse("game: x\nexample: t\n  expcet seat 1 leads\n", validate=False)
    assert (info.value.line, info.value.column) == (3, 3)
    assert "expcet seat 1 leads" in str(info.value)


def test_examples_lines_and_actions_are_bounded() -> None:
    one = "example: e{}\n  expect seat 1 leads\n"
    many = "game: x\n" + "".join(one.format(i) for i in range(MAX_EXAMPLES + 1))
    with pytest.raises(VariantError) as info:
        parse(many, validate=False)
    assert info.value.line == 2 + 2 * MAX_EXAMPLES and "too many examples" in info.value.message
    long = "game: x\nexample: t\n" + "  expect seat 1 leads\n" * (MAX_EXAMPLE_LINES + 1)
    with pytest.raises(VariantError) as info:
        parse(long, validate=False)
    assert info.value.line == 3 + MAX_EXAMPLE_LINES and "too many lines" in info.value.message
    bids = " ".join(["0"] * 50)
    busy = "game: x\nexample: t\n" + f"  bids {bids}\n" * (MAX_EXAMPLE_ACTIONS // 50 + 1)
    with pytest.raises(VariantError) as info:
        parse(busy + "  expect seat 1 leads\n", validate=False)
    assert info.value.line == 3 + MAX_EXAMPLE_ACTIONS // 50
    assert "too many bids and plays" in info.value.message


def test_a_refused_example_is_refused_quickly() -> None:
    text = "game: x\n" + "".join(f"example: e{i}\n  expect seat 1 leads\n" for i in range(900))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with pytest.raises(VariantError):
            parse(text, validate=False)
        best = min(best, time.perf_counter() - start)
    assert best < 1.0


# --------------------------------------------------------------------------- writing back


@pytest.mark.parametrize("name", builtin_names())
def test_format_writes_the_examples_back(name: str) -> None:
    v = load(name)
    back = parse(format(v), validate=False)
    assert back == v and back.examples == v.examples and v.examples


def test_format_source_writes_example_lines_in_canonical_form_with_comments() -> None:
    text = (
        "game: x\n"
        "extends: oh-hell\n"
        "EXAMPLE:   the hook   # why\n"
        "      With 4 Players,Hand 8\n"
        "  bids 1,0 , 1\n"
        "expect seat 4 MAY BID ONLY 0,2 3 # the dealer\n"
    )
    tidy = format_source(text)
    assert tidy == (
        "game: x\n"
        "extends: oh-hell\n"
        "example: the hook  # why\n"
        "  with 4 players, hand 8\n"
        "  bids 1 0 1\n"
        "  expect seat 4 may bid only 0 2 3  # the dealer\n"
    )
    assert format_source(tidy) == tidy
    assert load_text(tidy).examples == load_text(text).examples


def test_every_built_in_file_is_tidy_where_it_has_examples() -> None:
    for path in sorted(builtin_dir().glob("*.cardrules")):
        text = path.read_text(encoding="utf-8")
        tidy = format_source(text).splitlines()
        for i, line in enumerate(text.splitlines()):
            if line.startswith(("example:", "  ")):
                assert tidy[i] == line, (path.name, i + 1)


def test_a_title_no_file_could_hold_is_refused_by_format() -> None:
    v = load("blackout")
    ex = v.examples[0]
    for bad in ("two\nlines", "a # b", " padded", ""):
        with pytest.raises(VariantError):
            format(v.evolve(examples=(ex.__class__(bad, ex.deal, ex.holdings, ex.steps),)))


def test_examples_are_not_rules() -> None:
    """They take no part in equality (nor in a save's fingerprint)."""
    v = load("oh-hell")
    assert v.examples and v.evolve(examples=()) == v


# --------------------------------------------------------------------------- extends


def test_extends_does_not_inherit_the_parents_examples() -> None:
    parent = load("oh-hell")
    assert parent.examples
    child = load_text("game: mine\nextends: oh-hell\nhook: no\n")
    assert child.examples == ()
    own = load_text(
        "game: mine\nextends: oh-hell\n\nexample: t\n  with 4 players\n  expect 10 cards each\n"
    )
    assert [ex.title for ex in own.examples] == ["t"]
    assert [ex.title for ex in load("blackout").examples] != [ex.title for ex in parent.examples]


def test_examples_before_the_extends_line_are_kept() -> None:
    text = "game: mine\nexample: t\n  with 4 players\n  expect 10 cards each\nextends: oh-hell\n"
    assert [ex.title for ex in load_text(text).examples] == ["t"]
    assert [ex.title for ex in parse(text).examples] == ["t"]


# --------------------------------------------------------------------------- running


def test_the_briefs_example_holds() -> None:
    assert _failures(OVER_TRUMP) == []


def test_a_failing_example_names_the_file_line_and_difference() -> None:
    text = OVER_TRUMP.replace("may play only 9♠", "may play only 3♠")
    failure = _one_failure(text)
    assert (failure.path, failure.line, failure.column) == ("house.cardrules", 13, 3)
    assert str(failure).splitlines() == [
        'house.cardrules:13:3: example "a player void in the suit led must over-trump": '
        "expected seat 3 to be allowed only 3♠, but seat 3 may play 9♠",
        "      expect seat 3 may play only 3♠",
        "      ^",
    ]
    assert isinstance(failure, CardrulesError) and failure.title.startswith("a player")


def test_a_refused_play_fails_with_the_engines_reason() -> None:
    failure = _one_failure(OVER_TRUMP.replace("play 9♠ 7♥", "play 3♠ 7♥"))
    assert failure.line == 15
    assert failure.problem.startswith("seat 3 cannot play 3♠: must beat 5♠")


def test_the_reason_words_must_be_the_engines() -> None:
    failure = _one_failure(OVER_TRUMP.replace(": must beat", ": must follow"))
    assert failure.line == 14
    assert "expected the refusal of 3♠ to say 'must follow', but it says: must beat" in str(failure)


def test_every_failing_example_is_reported() -> None:
    second = OVER_TRUMP.split("\n\n", 1)[1].replace("example: a player", "example: b player")
    text = OVER_TRUMP.replace("expect seat 3 leads", "expect seat 2 leads") + (
        "\n" + second.replace("goes to seat 3", "goes to seat 1")
    )
    lines = text.split("\n")
    want = [
        lines.index("  expect seat 2 leads") + 1,
        lines.index("  expect the trick goes to seat 1") + 1,
    ]
    assert [f.line for f in _failures(text)] == want


def test_the_deal_gives_named_cards_and_fills_the_rest_lowest_first() -> None:
    v = load_text(
        "game: x\nextends: oh-hell\n\nexample: t\n"
        "  with 4 players, hand 8, seat 4 deals, trumps hearts\n"
        "  seat 2 holds A♠\n  seat 3 holds K♠, void in clubs\n  expect trumps hearts\n"
    )
    run = run_example(v, v.examples[0])
    assert run.holds and run.turned_up == card("2♥") and run.trump is Suit.HEARTS
    # Round the table from seat 1, lowest first, seat 3 taking no club.
    assert run.hands == tuple(
        CardSet.parse(h) for h in ("2♣ 5♣ 8♣", "3♣ 6♣ A♠", "2♦ 3♦ K♠", "4♣ 7♣ 9♣")
    )
    assert run.named[1] == CardSet.parse("A♠") and run.dealer == 3 and run.size == 3


def test_a_whole_pack_deal_honours_the_voids() -> None:
    v = load_text(
        "game: x\nextends: kazhutha\n\nexample: t\n  with 4 players, seat 4 deals\n"
        "  seat 1 holds A♠, void in hearts and diamonds\n  expect seat 1 leads\n"
    )
    run = run_example(v, v.examples[0])
    assert run.holds, run.failure
    assert not any(c.suit in (Suit.HEARTS, Suit.DIAMONDS) for c in run.hands[0])
    assert sorted(len(h) for h in run.hands) == [13, 13, 13, 13]


@pytest.mark.parametrize(
    ("base", "lines", "words"),
    [
        ("oh-hell", "  with 9 players\n", "the game is for 3 to 7 players, not 9"),
        ("oh-hell", "  with 4 players, hand 20\n", "19 hands for 4 players, not 20"),
        ("kachuful", "  with 4 players, trumps hearts\n", "hand 1 has spades as trumps"),
        ("kachuful", "  with 4 players, turned up 2♥\n", "turns up no card"),
        ("oh-hell-13", "  with 4 players, trumps hearts\n", "no card is left to turn up"),
        ("oh-hell", "  with 4 players, no trumps\n", "turns up a card"),
        ("kazhutha", "  with 4 players, hand 2\n", "one hand"),
        ("oh-hell", "  with 4 players, hand 10\n  seat 1 holds A♠ K♠\n", "1 card in hand 10"),
        ("oh-hell", "  seat 4 holds A♠\n", "no seat 4 at a table of 3"),
        ("callbreak", "  with 4 players, seat 2 deals\n  expect seat 5 leads\n", "no seat 5"),
    ],
)
def test_an_example_that_cannot_be_set_up_fails(base: str, lines: str, words: str) -> None:
    text = f"game: x\nextends: {base}\n\nexample: t\n{lines}  expect seat 1 leads\n"
    failure = _one_failure(text)
    assert words in failure.problem, failure.problem
    assert failure.line in (5, 6)


def test_a_fixed_first_dealer_decides_who_deals() -> None:
    base = "game: x\nextends: oh-hell\nfirst dealer: seat 2\n\nexample: t\n"
    v = load_text(base + "  with 4 players, hand 3\n  expect 8 cards each\n")
    assert run_example(v, v.examples[0]).dealer == 3  # seat 2 deals hand 1, seat 4 hand 3
    failure = _one_failure(base + "  with 4 players, seat 1 deals\n  expect 10 cards each\n")
    assert "seat 2 deals it (first dealer: seat 2)" in failure.problem


#: One case of each kind of expectation that holds, and a line that does not.
KINDS = [
    (
        "oh-hell",
        "  with 4 players, hand 8, seat 4 deals\n  bids 1 0 1\n",
        "expect seat 4 may bid only 0 2 3",
        "expect seat 4 may bid only 0 1 2 3",
        "to be offered only 0 1 2 3, but seat 4 may bid 0 2 3",
    ),
    (
        "oh-hell",
        "  with 4 players, hand 8, seat 4 deals\n  bids 1 0 1\n",
        "expect seat 4 may not bid 1: the dealer may not bid 1",
        "expect seat 4 may not bid 2",
        "not to be allowed to bid 2, but seat 4 may bid 0 2 3",
    ),
    (
        "oh-hell",
        "  with 4 players, hand 8, seat 4 deals\n  bids 1 0 1\n",
        "expect seat 4 may bid 3",
        "expect seat 3 may bid 3",
        "it is seat 4's turn to bid",
    ),
    (
        "oh-hell",
        "  with 4 players, hand 8, seat 4 deals\n  bids 1 0 1 0\n",
        "expect seat 1 leads",
        "expect seat 2 leads",
        "but seat 1 leads",
    ),
    (
        "kachuful",
        "  with 4 players\n",
        "expect trumps spades",
        "expect trumps hearts",
        "but spades are trumps",
    ),
    (
        "oh-hell-13",
        "  with 4 players\n",
        "expect no trumps",
        "expect trumps clubs",
        "but there are no trumps",
    ),
    (
        "kachuful",
        "  with 4 players, hand 3\n",
        "expect 8 cards each",
        "expect 9 cards each",
        "but it deals 8",
    ),
    (
        "kachuful-blind",
        "  with 4 players, hand 8, seat 4 deals\n",
        "expect seat 1 cannot see its cards",
        "expect seat 1 can see its cards",
        "but seat 1 does not see them",
    ),
    (
        "kachuful-blind",
        "  with 4 players, hand 8, seat 4 deals\n",
        "expect seat 1 may bid blind 2",
        "expect seat 1 may bid blind 4",
        "to be allowed to bid blind 4, but seat 1 may bid blind 0 blind 1 blind 2 blind 3",
    ),
    (
        "kachuful-forehead",
        "  with 4 players, hand 10, seat 4 deals\n",
        "expect seat 1 can see the cards of seat 3",
        "expect seat 1 cannot see the cards of seat 3",
        "not to see the cards of seat 3, but seat 1 sees them",
    ),
    (
        "oh-hell",
        "  with 4 players, hand 10, seat 4 deals\n  seat 1 holds A♠\n  bids 1 0 0 1\n  play A♠\n",
        "expect seat 2 may play any card",
        "expect seat 2 may not play 2♣",
        "not to be allowed 2♣, but seat 2 may play 2♣",
    ),
    (
        "oh-hell",
        "  with 4 players, hand 10, seat 4 deals, turned up 2♥\n  seat 1 holds A♠\n"
        "  bids 1 0 0 1\n  play out the hand\n",
        "expect seat 1 scores 11",
        "expect seat 1 scores 1",
        "to score 1 for hand 10, but seat 1 scored 11",
    ),
    (
        "callbreak",
        "  with 4 players, seat 2 deals\n  bids 8 1 3 1\n  play out the hand\n",
        "expect seat 2 scores 1.3",
        "expect seat 2 scores 13/10 points",
        None,
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  seat 2 holds A♠\n  seat 1 holds 9♠\n"
        "  seat 4 holds 3♠\n  seat 3 holds 5♠\n  play A♠ 9♠ 3♠ 5♠\n",
        "expect the trick is dead",
        "expect the trick goes to seat 2",
        "but it was dead: everyone followed suit",
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  seat 2 holds A♠\n  seat 1 holds 9♠\n"
        "  seat 4 holds 3♠\n  seat 3 holds 5♠\n  play A♠ 9♠ 3♠ 5♠\n",
        "expect seat 4 can see the dead cards",
        "expect seat 4 cannot see the dead cards",
        "but seat 4 sees every one",
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  seat 2 holds A♠\n"
        "  seat 1 holds 2♠\n  seat 4 holds 7♥, void in spades\n  play A♠ 2♠ 7♥\n",
        "expect the trick goes to seat 2",
        "expect the trick is dead",
        "but it was cut: seat 2 picked it up",
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  play out the game\n",
        "expect seat 3 loses",
        "expect no loser",
        "but seat 3 lost",
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  play out the game\n",
        "expect seat 3 takes the letter K",
        "expect seat 3 takes the letter A",
        "but seat 3 takes the letter K",
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  play out the game\n",
        "expect seat 3 deals the next game",
        "expect seat 2 deals the next game",
        "but seat 3 deals it",
    ),
    (
        "kazhutha",
        "  with 4 players, seat 4 deals\n  play out the game\n",
        "expect the game is over",
        "expect seat 3 is out",
        "but seat 3 still holds",
    ),
    (
        "oh-hell-short",
        "  with 4 players, hand 10, turned up 2♥\n  seat 1 holds A♠\n  bids 1 0 0 1\n"
        "  play out the game\n",
        "expect the game is over",
        "expect seat 4 wins",
        "but the game is won by",
    ),
]


@pytest.mark.parametrize(("base", "setup", "good", "bad", "words"), KINDS)
def test_each_kind_of_expectation(
    base: str, setup: str, good: str, bad: str, words: str | None
) -> None:
    head = f"game: x\nextends: {base}\n\nexample: t\n{setup}"
    assert _failures(f"{head}  {good}\n") == []
    if words is None:  # the same number written another way: it holds too
        assert _failures(f"{head}  {bad}\n") == []
        return
    failure = _one_failure(f"{head}  {bad}\n")
    assert failure.line == head.count("\n") + 1
    assert failure.problem.startswith("expected ") and words in failure.problem, failure.problem


def test_an_expectation_about_the_wrong_kind_of_game_fails_with_why() -> None:
    head = "game: x\nextends: oh-hell\n\nexample: t\n  with 4 players, hand 10\n"
    for line, words in (
        ("expect seat 1 is out", "only the players of a shedding game go out"),
        ("expect seat 1 takes the letter K", "not played as a match"),
        ("expect the trick is dead", "no trick has been completed"),
        ("expect seat 1 scores 1", "no hand has been scored yet"),
        ("expect seat 1 loses", "the game is not over"),
    ):
        assert words in _one_failure(f"{head}  {line}\n").problem


@pytest.mark.parametrize("name", ["kazhutha", "kazhutha-loser-deals", "donkey-first-out"])
def test_what_happens_after_a_game_is_what_a_match_does(name: str) -> None:
    """``takes the letter`` and ``deals the next game`` agree with the engine's Match."""
    v = load(name)
    for seed in range(6):
        m = Match(v, 4, seed)
        first = m.game
        while m.game_number == 1 and not m.is_over:
            m.apply(m.legal_actions()[0], m.to_act)
        loser, letter, dealer = after_game(v, first)
        letters = m.letters
        assert letter is None or letters[loser or 0] == letter
        assert sum(len(x) for x in letters) == (0 if letter is None else 1)
        assert m.game.dealer == dealer


def test_an_example_runs_well_under_a_second() -> None:
    v = load("kachuful-double")  # hand 19: eighteen hands played out first
    (ex,) = v.examples
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run = run_example(v, ex)
        best = min(best, time.perf_counter() - start)
    assert run.holds and best < 0.5


# --------------------------------------------------------------------------- the built-ins


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_has_examples_and_they_hold(name: str) -> None:
    v = load(name)
    assert v.examples, f"{name} has no worked example"
    assert [str(f) for f in run_examples(v)] == []


def test_the_base_games_prove_several_rules() -> None:
    titles = {name: " / ".join(ex.title for ex in load(name).examples) for name in builtin_names()}
    for words in ("follow suit", "hook", "scores", "trump"):
        assert words in titles["oh-hell"] and words in titles["kachuful"], words
    for words in ("dead", "cuts", "ace of spades", "loses"):
        assert words in titles["kazhutha"], words
    assert len(load("callbreak").examples) >= 4


def _broken(line: str, players: int) -> str | None:
    """``line`` (an ``expect`` line) changed so that it no longer holds."""
    body = line.strip()
    if m := re.search(r"scores (-?[0-9.]+)", body):
        return line.replace(m.group(0), f"scores {float(m.group(1)) + 7:g}")
    if m := re.search(r"takes the letter (\w)", body):
        return line.replace(m.group(0), "takes the letter Z")
    if " see " in body:
        return (
            line.replace("cannot see", "CAN see")
            .replace(" can see", " cannot see")
            .replace("CAN see", "can see")
        )
    if m := re.search(r"(\d+) cards? each", body):
        return line.replace(m.group(0), f"{int(m.group(1)) + 1} cards each")
    if m := re.search(r"trumps (\w+)", body):
        return line.replace(m.group(0), "trumps hearts" if m.group(1) != "hearts" else "no trumps")
    if body == "expect no trumps":
        return line.replace("no trumps", "trumps spades")
    seats = list(re.finditer(r"seat (\d+)", body))
    if seats:
        m = seats[-1]
        other = int(m.group(1)) % players + 1
        at = line.rindex(m.group(0))
        return line[:at] + f"seat {other}" + line[at + len(m.group(0)) :]
    return None


@pytest.mark.parametrize("name", builtin_names())
def test_a_broken_copy_of_each_example_fails_with_its_line(name: str) -> None:
    """Change one expected seat, card, number or suit in each example: `check`
    reports the example, at that line, with what happened instead."""
    path = builtin_dir() / f"{name}.cardrules"
    text = path.read_text(encoding="utf-8")
    v = load(name)
    lines = text.split("\n")
    for ex in v.examples:
        players = ex.deal.players or v.players.min
        for e in reversed(ex.expectations):
            assert e.pos is not None
            broken = _broken(lines[e.pos.line - 1], players)
            if broken is not None:
                break
        else:  # pragma: no cover - every example has a line the test can change
            pytest.fail(f"{name}: {ex.title!r} has no expectation to break")
        copy = lines[:]
        copy[e.pos.line - 1] = broken
        failures = run_examples(load_text("\n".join(copy), path=f"{name}.cardrules"))
        assert len(failures) == 1, (ex.title, broken)
        (f,) = failures
        assert (f.line, f.title) == (e.pos.line, ex.title)
        message = str(f)
        assert message.startswith(f'{name}.cardrules:{e.pos.line}:3: example "{ex.title}": ')
        assert "expected " in f.problem and ", but " in f.problem, message
        assert broken.strip() in message  # the line is shown


# --------------------------------------------------------------------------- the page


def test_the_rules_page_shows_each_example_as_a_worked_case() -> None:
    page = rulebook(load("oh-hell"))
    assert "## Worked examples" in page
    part = page.split("### you must follow suit when you can", 1)[1].split("###", 1)[0]
    # A story with the players' names; the deal and the file's lines folded under it.
    assert "| Ben | 5♥ A♥ 3♠ |" in part
    assert "Asha, Ben, Chitra and Dev have played the hands before hand 8; Dev deals it, " in part
    assert "3 cards each; the 2♠ is turned up, so spades are trumps" in part
    assert "Asha leads K♥. Ben can play only the 5♥ or the A♥." in part
    assert "Ben cannot play the 3♠: “must follow hearts" in part
    assert "<summary>The example as <code>cardrules check</code> plays it</summary>" in part
    assert "\n  expect seat 2 may play only 5♥ A♥\n" in part
    assert "Seat" not in part and "Holds" not in part and "actions)" not in part
    assert rulebook(load("oh-hell"), engine_examples=False).count("## Worked examples") == 0


def test_the_page_marks_the_named_cards_and_what_the_engine_did() -> None:
    page = rulebook(load("kazhutha"))
    assert "**A♠**" in page  # named among dealt cards
    assert "the trick is cut and Ben, with the highest card of the suit led, picks it up" in page
    assert "the game is over: Chitra loses." in page


def test_a_failing_example_is_shown_failing_on_the_page() -> None:
    v = load_text(OVER_TRUMP.replace("goes to seat 3", "goes to seat 2"))
    page = rulebook(v)
    assert "**This example does not hold:** expected the trick to go to seat 2, but seat 3" in page
    assert "Ben wins the trick." not in page


def test_with_options_given_the_page_does_not_play_the_files_examples() -> None:
    """The examples prove the file as written: with ``--set hook=off`` the hook
    example would not hold, so the page says why it shows none."""
    v = load("kachuful", hook=False)
    assert any(f.title.startswith("the hook") for f in run_examples(v))
    page = rulebook(v, settings=[("hook", "off")])
    part = page.split("## Worked examples", 1)[1].split("\n## ", 1)[0]
    assert "carries 4 worked examples, written for its own settings" in part
    assert "###" not in part


def test_the_page_escapes_the_titles() -> None:
    text = OVER_TRUMP.replace(
        "example: a player void in the suit led must over-trump",
        "example: <img src=x onerror=alert(1)> [link](javascript:alert(2)) *bold*",
    )
    page = rulebook(load_text(text)).split("## The variant file")[0]
    assert "<img" not in page and "[link](javascript:" not in page
    assert (
        "### &lt;img src=x onerror=alert(1)&gt; \\[link\\](javascript:alert(2)) \\*bold\\*" in page
    )


# --------------------------------------------------------------------------- the docs


def _section(doc: str) -> str:
    return doc.split("\n## Examples\n", 1)[1].split("\n## ", 1)[0]


def test_every_example_block_of_the_docs_loads_and_holds() -> None:
    blocks = re.findall(r"^```\n(.*?)^```", _section(DOC), re.M | re.S)
    with_examples = [b for b in blocks if "example:" in b]
    assert len(with_examples) >= 6
    failing = [b for b in with_examples if "may play only 5♠\n" in b and b.startswith("game:")]
    for body in with_examples:
        if body in failing:
            continue
        if body.startswith("game:"):
            assert run_examples(load_text(body)) == []
            continue
        bases = ("oh-hell", "kachuful", "kazhutha", "callbreak", "oh-hell-amend")
        ok = any(
            not run_examples(load_text(f"game: doc-example\nextends: {b}\n{body}")) for b in bases
        )
        assert ok, body


def test_the_failure_shown_in_the_docs_is_the_failure_printed() -> None:
    section = _section(DOC)
    blocks = re.findall(r"^```\n(.*?)^```", section, re.M | re.S)
    (shown,) = [b for b in blocks if b.startswith("our-rules.cardrules:")]
    (body,) = [b for b in blocks if b.startswith("game: our-rules\n")]
    (failure,) = run_examples(load_text(body, path="our-rules.cardrules"))
    assert str(failure) == shown.rstrip("\n")


def test_the_docs_list_every_kind_of_expectation() -> None:
    section = _section(DOC)
    shown = re.findall(r"^\| `(expect [^`]+)`", section, re.M)
    kinds = set()
    for line in shown:
        v = parse(f"game: x\nexample: t\n  {line}\n", validate=False)
        kinds |= {e.kind for e in v.examples[0].expectations}
    for line in re.findall(r"`(expect [^`]+)`", section):
        if line.startswith("expect "):
            v = parse(f"game: x\nexample: t\n  {line}\n", validate=False)
            kinds |= {e.kind for e in v.examples[0].expectations}
    assert kinds == set(ExpectKind)


def test_a_childs_examples_are_not_a_difference_from_its_parent() -> None:
    """Examples are not rules: the page's list of differences leaves them out.

    Needs ``"examples"`` in ``IDENTITY_FIELDS`` of ``cardrules/rulebook/words.py``."""
    from cardrules.rulebook.words import differences

    assert [d.label for d in differences(load("kachuful-zon"), load("kachuful"))] == ["Trumps"]
    assert "Another setting" not in rulebook(load("blackout"), engine_examples=False)


def test_cardrules_check_reports_a_failing_example(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """``cardrules check`` plays the examples: a failing one is printed like any
    error of the file, and the check exits 1.

    Needs the call to :func:`cardrules.example_runner.run_examples` in
    ``cardrules/commands/variants.py`` (see the report of issue 11, item 6)."""
    from cardrules.cli import main

    (tmp_path / "good.cardrules").write_text(
        OVER_TRUMP.replace("over-trump", "good", 1), encoding="utf-8"
    )
    bad = OVER_TRUMP.replace("over-trump", "bad", 1).replace("goes to seat 3", "goes to seat 1")
    (tmp_path / "bad.cardrules").write_text(bad, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "good.cardrules"]) == 0
    assert capsys.readouterr().out == "good.cardrules: ok, good (extends oh-hell)\n"
    assert main(["check", "bad.cardrules"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        'bad.cardrules:16:3: example "a player void in the suit led must over-trump": '
        "expected the trick to go to seat 1, but seat 3 won it\n"
    )
