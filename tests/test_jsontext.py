"""JSON from strangers, read within bounds (issue 21 item 12): the shared reader
``cardrules.jsontext.loads`` and every reader of untrusted JSON that uses it
(``Game.from_json``, ``Match.from_json``, ``Event.from_dict``,
``CardrulesError.from_dict``): a value nested thousands deep, a number of
hundreds or thousands of digits, ``NaN``, ``Infinity`` and a lone surrogate
are each a clean refusal, never ``RecursionError``, ``OverflowError`` or a
``ValueError`` of Python's own."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.engine.events import Event
from cardrules.errors import CardrulesError, SaveError
from cardrules.jsontext import MAX_DEPTH, BadJSON, check_text, loads

# Text that tries to confuse the scan for strings: brackets, quotes, escapes.
TEXT = st.text(alphabet=st.sampled_from('[]{}"\\/ab:,0123456789eE.-+NaI♠\u00e9\U0001f600'))
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
SCALARS = st.none() | st.booleans() | st.integers() | FLOATS | TEXT
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=40,
)


def _depth(x: object) -> int:
    if isinstance(x, list):
        return 1 + max((_depth(v) for v in x), default=0)
    if isinstance(x, dict):
        return 1 + max((_depth(v) for v in x.values()), default=0)
    return 0


def _nest(value: Any, levels: int) -> Any:
    for k in range(levels):
        value = [value] if k % 2 else {"k": value}
    return value


@settings(max_examples=300, deadline=None)
@given(VALUES, st.integers(0, 12), st.booleans())
def test_loads_reads_every_value_within_bounds_and_refuses_the_deeper(
    value: Any, extra: int, ascii_only: bool
) -> None:
    """Whatever its strings hold, a value within the bounds reads back as
    itself, and one nested deeper than the bound is refused as ``depth``."""
    value = _nest(value, extra)
    text = json.dumps(value, ensure_ascii=ascii_only)
    depth = _depth(value)
    bound = max(1, depth - 1) if extra % 3 == 0 else depth
    if depth <= bound:
        assert loads(text, max_depth=bound) == value
    else:
        with pytest.raises(BadJSON) as info:
            loads(text, max_depth=bound)
        assert info.value.reason == "depth"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 5000 + "]" * 5000, "depth"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "depth"),
        ('{"a": ' * 70 + "1" + "}" * 70, "depth"),
        ("[" * 5000, "depth"),  # not JSON either
        ('{"x": NaN}', "number"),
        ('{"x": Infinity}', "number"),
        ('{"x": -Infinity}', "number"),
        ('{"x": 1e999}', "number"),
        ('{"x": -1e999}', "number"),
        ('{"x": ' + "9" * 321 + "}", "number"),
        ('{"x": ' + "9" * 4301 + "}", "number"),
        ('{"x": 1.' + "0" * 400 + "}", "number"),
        ('{"x": "\\ud800"}', "surrogate"),
        ('{"\\udfff": 1}', "surrogate"),
        ('["\\ud83d\\ud83d"]', "surrogate"),
        ('"\ud800"', "surrogate"),
        (b'"\xed\xa0\x80"', "encoding"),  # a surrogate written as UTF-8 bytes
        (b"\xff", "encoding"),
        ("{", "syntax"),
        ("[1]]", "syntax"),
        ("", "syntax"),
    ],
)
def test_loads_refuses_what_breaks_a_bound(text: str | bytes, reason: str) -> None:
    with pytest.raises(BadJSON) as info:
        loads(text)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)


def test_loads_keeps_what_is_within_bounds() -> None:
    assert loads('{"x": "\\ud83d\\ude00", "n": ' + "9" * 320 + "}") == {
        "x": "\U0001f600",
        "n": int("9" * 320),
    }
    assert loads('"NaN and Infinity in text [[[[ \\" ]"') == 'NaN and Infinity in text [[[[ " ]'
    assert loads('"\\\\"') == "\\"
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads(b"\xef\xbb\xbf[]".removeprefix(b"\xef\xbb\xbf")) == []
    with pytest.raises(BadJSON, match="bytes"):
        loads(b"[1, 2, 3]", max_bytes=5)


def test_the_scan_is_linear_on_hostile_text() -> None:
    """5 MB made to be slow for each step of the scan takes well under a second
    or two, not minutes (a run of escapes, of digits just short of the bound,
    of chains just within the depth, of unclosed quotes)."""
    hostile = [
        '"' + '\\"' * 2_000_000,
        "[" + ",".join(["9" * 320] * 15_000) + "]",
        "[" + ",".join(["[" * 60 + "]" * 60] * 40_000) + "]",
        '["' + "[" * 2_000_000,
    ]
    for text in hostile:
        started = time.process_time()
        with contextlib.suppress(BadJSON):
            check_text(text)
        assert time.process_time() - started < 5.0


# ------------------------------------------------------------------ the readers that use it


def _save() -> dict[str, Any]:
    g = cardrules.Game(cardrules.load("oh-hell-short"), 4, seed=1)
    for _ in range(5):
        s = g.to_act if g.to_act is not None else min(g.waiting_for)
        g.apply(g.legal_actions(s)[0], s)
    data: dict[str, Any] = json.loads(g.to_json())
    return data


@pytest.mark.parametrize(
    "value",
    [
        "[" * 5000 + "]" * 5000,
        "[" * 900 + "]" * 900,
        "9" * 400,
        "9" * 4301,
        "NaN",
        "-Infinity",
        "1e999",
        '"\\ud800"',
    ],
)
@pytest.mark.parametrize("key", ["seed", "players", "actions", "zz_unknown"])
def test_a_hostile_save_is_a_clean_bad_save(key: str, value: str) -> None:
    data = _save()
    text = json.dumps({**data, key: "@@"}, ensure_ascii=False).replace('"@@"', value)
    with pytest.raises(SaveError) as info:
        cardrules.Game.from_json(text)
    assert info.value.code == "bad_save"
    with pytest.raises(SaveError):
        cardrules.Match.from_json(text)


def test_a_save_within_bounds_still_restores() -> None:
    data = _save()
    text = json.dumps(data, ensure_ascii=True)  # escapes (\u2660) instead of ♠
    assert cardrules.Game.from_json(text).to_json() == json.dumps(
        data, ensure_ascii=False, separators=(",", ":")
    )


def _deep(levels: int) -> list[Any]:
    out: list[Any] = []
    cur = out
    for _ in range(levels):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    return out


START = {
    "kind": "start",
    "version": 0,
    "players": 4,
    "seed": None,
    "first_dealer": None,
    "max_tricks": None,
}


@pytest.mark.parametrize("field", ["kind", "version", "players", "seed", "first_dealer"])
@pytest.mark.parametrize(
    "value",
    [_deep(5000), 10**5000, -(10**400), 2**64, "9" * 5000],
    ids=["deep", "5000-digits", "400-digits", "2**64", "long-text"],
)
def test_event_from_dict_refuses_deep_and_huge_values_cleanly(field: str, value: object) -> None:
    """``Event.from_dict`` described a bad value with its ``repr``: a value
    nested 5,000 deep raised ``RecursionError``."""
    with pytest.raises(SaveError) as info:
        Event.from_dict({**START, field: value})
    assert len(str(info.value)) < 400
    assert Event.from_dict(START).to_dict() == START


def test_event_from_dict_keeps_a_64_bit_seed() -> None:
    ev = Event.from_dict({**START, "seed": 2**64 - 1})
    assert ev.to_dict()["seed"] == 2**64 - 1


@pytest.mark.parametrize(
    "data",
    [
        {"a": _deep(20)},
        {"a": _deep(900)},
        {"a": _deep(5000)},
        {"a": 10**400},
        {"a": float("nan")},
        {"a": float("inf")},
    ],
    ids=["20-deep", "900-deep", "5000-deep", "400-digits", "nan", "inf"],
)
def test_error_from_dict_bounds_the_depth_of_its_data(data: dict[str, Any]) -> None:
    """``CardrulesError.from_dict`` read ``data`` of any depth up to the
    interpreter's limit."""
    with pytest.raises(CardrulesError) as info:
        CardrulesError.from_dict({"code": "x", "message": "m", "data": data})
    assert info.value.code == "bad_json"
    ok = CardrulesError.from_dict({"code": "x", "data": {"a": _deep(10), "n": 10**30}})
    assert ok.data["n"] == 10**30
