"""No input may raise anything but VariantError, and hostile input is refused fast."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.dsl import builtin_dir, format_source, load, load_text, parse
from cardrules.dsl.limits import MAX_FILE_BYTES
from cardrules.dsl.parser import lark_parser
from cardrules.errors import VariantError

BUILTINS = {
    p.name: p.read_text(encoding="utf-8") for p in sorted(builtin_dir().glob("*.cardrules"))
}

FRAGMENTS = [
    "game",
    "title",
    "players",
    "deck",
    "hand size",
    "hands",
    "trumps",
    "no trumps",
    "bidding",
    "hook",
    "bids",
    "blind bids",
    "forehead hands",
    "bid changes",
    "first lead",
    "follow",
    "score",
    "tie",
    "options",
    "extends",
    "mode",
    "shedding",
    "match word",
    "dead tricks",
    ":",
    ",",
    "\n",
    " ",
    "#",
    '"',
    "\\",
    "to",
    "for",
    "players",
    "largest",
    "keep one for trumps",
    "at most",
    "down to",
    "1",
    "and back up",
    "list",
    "whole pack",
    "twice",
    "times",
    "cycle",
    "spades",
    "kali",
    "♠",
    "none",
    "turned up",
    "every",
    "5th",
    "hand",
    "yes",
    "no",
    "A♠",
    "10h",
    "holder of",
    "leads it",
    "leads any",
    "must follow suit",
    "(",
    ")",
    "if",
    "then",
    "else",
    "exact",
    "bid",
    "+",
    "0",
    "52",
    "9" * 30,
    "oh-hell",
    "../x",
    "\x00",
    "\ud800",
    "\u00a0",
    "\r",
    "\t",
    "é",
    "\u2028",
]


def only_variant_errors(text: str) -> None:
    for fn in (parse, load_text, format_source):
        try:
            fn(text)
        except VariantError as exc:
            assert str(exc)  # the message renders
            exc.render().encode("utf-8")  # and can be printed


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    lark_parser()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_random_text(text: str) -> None:
    only_variant_errors(text)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    for fn in (parse, load_text):
        with contextlib.suppress(VariantError):
            fn(data)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_random_fragments(parts: list[str]) -> None:
    only_variant_errors(" ".join(parts))
    only_variant_errors("game: x\n" + "".join(parts))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(BUILTINS)),
    st.lists(
        st.tuples(
            st.integers(0, 2000),
            st.integers(0, 12),
            st.sampled_from(FRAGMENTS) | st.text(max_size=5),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_mutated_builtins(name: str, edits: list[tuple[int, int, str]]) -> None:
    text = BUILTINS[name]
    for pos, cut, insert in edits:
        pos %= len(text) + 1
        text = text[:pos] + insert + text[pos + cut :]
    only_variant_errors(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(BUILTINS)), st.data())
def test_shuffled_and_dropped_lines(name: str, data: st.DataObject) -> None:
    lines = BUILTINS[name].split("\n")
    picked = data.draw(st.permutations(lines))
    keep = data.draw(st.integers(0, len(lines)))
    only_variant_errors("\n".join(picked[:keep]))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.sampled_from(["hook", "hand_size", "trumps", "hands", "score"]))
def test_random_option_values(value: str, key: str) -> None:
    with contextlib.suppress(VariantError):
        load("kachuful", **{key: value})


# ---------------------------------------------------------------- hostile input


def refused_fast(fn, *args, **kwargs) -> VariantError:
    start = time.perf_counter()
    with pytest.raises(VariantError) as info:
        fn(*args, **kwargs)
    assert time.perf_counter() - start < 1.0
    return info.value


def test_nesting_10000_deep() -> None:
    text = "game: x\nscore: " + "(" * 10_000 + "1" + ")" * 10_000 + "\n"
    e = refused_fast(parse, text)
    assert "too long" in e.message
    text = "game: x\nscore: " + "(" * 900 + "bid" + ")" * 900 + "\n"
    e = refused_fast(parse, text)
    assert "too many parentheses" in e.message
    assert (e.line, e.column) == (2, 58)


def test_five_megabyte_file(tmp_path: Path) -> None:
    big = "game: x\n" + "# " + "x" * 5_000_000 + "\n"
    e = refused_fast(parse, big)
    assert e.message.startswith("the file is too large")
    assert e.expected == f"at most {MAX_FILE_BYTES:,} bytes"
    f = tmp_path / "big.cardrules"
    f.write_text(big, encoding="utf-8")
    e = refused_fast(load, f)
    assert e.message == f"the file is too large ({len(big):,} bytes)"
    e = refused_fast(parse, big.encode("utf-8"))
    assert e.message.startswith("the file is too large")


def test_too_many_lines() -> None:
    e = refused_fast(parse, "game: x\n" + "\n" * 50_000)
    assert e.message == "the file has too many lines (50,002)"


def test_huge_number() -> None:
    e = refused_fast(parse, "game: x\nplayers: 3 to " + "9" * 1500 + "\n")
    assert e.message == "999999... (1500 digits) is too large for players"
    assert (e.line, e.column) == (2, 15)
    e = refused_fast(parse, "game: x\nhands: " + "9" * 50_000 + " hands of the same size\n")
    assert e.message == "line 2 is too long (50,030 characters)"


def test_huge_schedule() -> None:
    e = refused_fast(
        parse,
        "game: x\nplayers: 3\nhand size: 1\nscore: tricks\nbidding: none\n"
        "hands: 1000 hands of the same size, 1000 times\n",
    )
    assert e.message == "a game of 3 players would have 1,000,000 hands"


def test_extends_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.cardrules").write_text("game: a\nextends: b\n", encoding="utf-8")
    (tmp_path / "b.cardrules").write_text("game: b\nextends: c\n", encoding="utf-8")
    (tmp_path / "c.cardrules").write_text("game: c\nextends: a\n", encoding="utf-8")
    e = refused_fast(load, "a", search=[tmp_path])
    assert e.message == "the variants extend one another in a circle: a -> b -> c -> a"
    assert e.path is not None and e.path.endswith("c.cardrules")


def test_extends_etc_passwd(tmp_path: Path) -> None:
    e = refused_fast(load_text, 'game: x\nextends: "../../etc/passwd"\n', search=[tmp_path])
    assert e.message == "'../../etc/passwd' is outside the folders this loader may read"
    e = refused_fast(load_text, 'game: x\nextends: "/etc/passwd"\n')
    assert e.message == "`extends` may not name an absolute path"


def test_long_line_of_list_items() -> None:
    e = refused_fast(parse, "game: x\ntrumps: cycle " + "spades, " * 5000 + "hearts\n")
    assert "too long" in e.message


def test_long_runs_of_blanks_before_a_condition_are_read_in_one_pass() -> None:
    # Regression: the search for a line's condition (`... when the hand has 1
    # card`) once tried again at every blank of a long run, so that 45 lines
    # of 1,990 blanks took seconds to refuse.
    line = "hook: no" + " " * 1_990 + "x\n"
    e = refused_fast(parse, "game: x\n" + line * 45)
    assert e.line == 2
