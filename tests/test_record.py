"""Game records (cardrules.record) and actions read from text and JSON
(cardrules.engine.views.notation): issue 13 items 3 (in part) and 7."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import record
from cardrules.bots import make_bot
from cardrules.engine.actions import NUM_ACTIONS, Action, Bid, Play
from cardrules.engine.views.notation import (
    MAX_ACTION_TEXT,
    action_from_dict,
    action_to_dict,
    parse_action,
)
from cardrules.errors import InvalidAction, SaveError

FIXTURES = Path(__file__).parent / "fixtures" / "records"


def _played(name: str, players: int, seed: int, *, until: int | None = None) -> cardrules.Game:
    v = cardrules.load(name)
    g = cardrules.Game(v, players, seed)
    bots = [make_bot("random", seed * 31 + i) for i in range(players)]
    moves = 0
    while not g.is_over and (until is None or moves < until):
        seat = g.to_act
        assert seat is not None
        g.apply(bots[seat].choose(g.view(seat)), seat)
        moves += 1
    return g


def _actions(g: cardrules.Game) -> list[tuple[int, int]]:
    from cardrules.engine.state.saves import _action_log

    return [(s, a) for s, a in _action_log(g.events)]


# --------------------------------------------------------------------------- notation


def test_every_action_label_reads_back_as_that_action() -> None:
    for i in range(NUM_ACTIONS):
        a = Action.from_id(i)
        assert parse_action(a.label) is a
        assert parse_action(a.label.upper()) is a
        assert action_from_dict(action_to_dict(a)) is a


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("QS", Play("Q♠")),
        ("q♠", Play("Q♠")),
        ("play 10h", Play("10♥")),
        ("Play  T♦", Play("10♦")),
        ("2", Bid(2)),
        ("bid 0 blind", Bid(0, blind=True)),
        ("BID 13", Bid(13)),
    ],
)
def test_typed_text_names_the_action(text: str, want: Action) -> None:
    assert parse_action(text) is want


@pytest.mark.parametrize(
    "text", ["", "   ", "bid 99", "play Z♠", "fold", "x" * (MAX_ACTION_TEXT + 1)]
)
def test_text_that_names_no_action_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(InvalidAction) as e:
        parse_action(text)
    assert "action" in str(e.value)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"id": "51"},
        {"id": True},
        {"id": -1},
        {"id": NUM_ACTIONS},
        {"id": 51, "label": "bid 2"},
    ],
)
def test_action_json_that_is_not_an_action_is_refused(data: object) -> None:
    with pytest.raises(InvalidAction):
        action_from_dict(data)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=100))
def test_parse_action_never_fails_other_than_invalid_action(text: str) -> None:
    try:
        a = parse_action(text)
    except InvalidAction:
        return
    assert isinstance(a, Action)


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize("name", cardrules.dsl.builtin_names())
def test_records_of_every_builtin_round_trip(name: str) -> None:
    v = cardrules.load(name)
    for k, players in enumerate(
        sorted({v.players.min, v.players.max, 4} & set(v.players.counts()))
    ):
        g = _played(name, players, 100 + k)
        text = record.dump(g)
        again = record.load(text)
        assert again.result == g.result
        assert again.scores == g.scores
        assert _actions(again) == _actions(g)
        assert record.dump(again) == text
        # With its seed, the record is the game itself (issue 21).
        assert record.load(record.dump(g, seed=True)) == g


def test_a_record_without_its_seed_hides_future_deals_and_one_with_it_keeps_them() -> None:
    g = _played("kachuful", 4, 5, until=30)
    assert not g.is_over
    plain = record.dump(g)
    assert not [line for line in plain.splitlines() if line.startswith("seed")]
    again = record.load(plain)
    assert again.hand_number == g.hand_number and again.to_act == g.to_act
    assert again.legal_actions() == g.legal_actions()
    with_seed = record.load(record.dump(g, seed=True))
    assert with_seed.seed == g.seed
    # With the seed, the next hands are the ones the original game will deal.
    a, b = g.clone(), with_seed
    for _ in range(200):
        if a.is_over:
            break
        act = a.legal_actions()[0]
        a.apply(act, a.to_act)
        b.apply(act, b.to_act)
    assert record.dump(a, seed=True) == record.dump(b, seed=True)


def test_a_record_with_its_seed_of_a_game_dealt_from_given_decks_replays_the_decks() -> None:
    """A game whose deals were given (not drawn from its seed): its record
    with the seed still loads, from the deals it writes."""
    v = cardrules.load("oh-hell")
    rng = random.Random(4)
    deck = list(range(52))
    rng.shuffle(deck)
    g = cardrules.Game(v, players=4, seed=9, deck=[cardrules.Card(c) for c in deck])
    for _ in range(6):
        g.apply(g.legal_actions()[0], g.to_act)
    again = record.load(record.dump(g, seed=True))
    assert again.seed == 9 and record.dump(again, seed=True) == record.dump(g, seed=True)
    assert all(again.view(s) == g.view(s) for s in range(4))


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.name)
def test_records_written_on_2026_12_01_still_load(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    g = record.load(text)
    assert g.is_over
    last = [line for line in text.splitlines() if line.startswith("result:")]
    assert record.dump(g).splitlines()[-1] == last[0]


def test_the_committed_kachuful_record_is_the_game_it_says() -> None:
    g = record.load((FIXTURES / "kachuful-2026-12-01.txt").read_text(encoding="utf-8"))
    assert g.variant.name == "kachuful" and g.players == 4
    assert g.result is not None and g.result.winners == (2,)
    assert [int(t) for t in g.result.totals] == [97, 86, 150, 95]


def _lines(g: cardrules.Game) -> list[str]:
    return record.dump(g).splitlines()


def _first(lines: list[str], start: str) -> int:
    return next(i for i, line in enumerate(lines) if line.strip().startswith(start))


def test_an_illegal_action_is_refused_naming_its_line() -> None:
    lines = _lines(_played("oh-hell", 4, 3))
    i = _first(lines, "seat 2: play")
    _seat, _, rest = lines[i].strip().partition(": ")
    # Another card that seat does not hold, or cannot play now.
    lines[i] = "  seat 2: play 2♣" if "2♣" not in rest else "  seat 2: play 3♣"
    with pytest.raises(SaveError, match=rf"record line {i + 1}: "):
        record.load("\n".join(lines))


def test_a_move_out_of_turn_is_refused_in_the_records_seat_numbers() -> None:
    lines = _lines(_played("oh-hell", 4, 3))
    i = _first(lines, "seat 2: bid")
    lines[i] = lines[i].replace("seat 2", "seat 4")
    with pytest.raises(SaveError, match=r"seat 4 may not act now: it is the turn of seat 2"):
        record.load("\n".join(lines))


def test_a_changed_deal_is_refused() -> None:
    lines = _lines(_played("oh-hell", 4, 3))
    i = _first(lines, "seat 1 holds")
    j = _first(lines, "seat 2 holds")
    a, b = lines[i].split()[-1], lines[j].split()[-1]
    lines[i] = lines[i][: -len(a)] + b
    lines[j] = lines[j][: -len(b)] + a
    with pytest.raises(SaveError, match="record line"):
        record.load("\n".join(lines))


def test_a_wrong_result_line_is_refused() -> None:
    lines = _lines(_played("oh-hell", 4, 3))
    lines[-1] = lines[-1].replace("totals ", "totals 1")
    with pytest.raises(SaveError, match=rf"record line {len(lines)}: the actions give"):
        record.load("\n".join(lines))


def test_a_record_of_other_rules_is_refused_by_fingerprint() -> None:
    lines = _lines(_played("oh-hell", 4, 3))
    i = _first(lines, "fingerprint:")
    lines[i] = "fingerprint: 0000000000000000"
    with pytest.raises(SaveError, match="other rules"):
        record.load("\n".join(lines))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not a record",
        "cardrules record 2\nvariant: oh-hell\nplayers: 4\n",
        "cardrules record 1\nvariant: ../../etc/passwd\nplayers: 4\nhand 1: seat 1 deals\n",
        "cardrules record 1\nvariant: oh-hell\nplayers: 99\n",
        "cardrules record 1\nvariant: oh-hell\nplayers: 4\n",
        "cardrules record 1\nvariant: oh-hell\nplayers: 4\nhand 2: seat 1 deals\n",
        "cardrules record 1\nvariant: oh-hell\nplayers: 4\nseed: 18446744073709551616\n",
        "cardrules record 1\nvariant: oh-hell\nplayers: 4\nhand 1: seat 1 deals\n"
        "  seat 1 holds A♠ A♠\n",
        "cardrules record 1\nvariant: oh-hell\nplayers: 4\nwhatever: 3\n",
        "cardrules record 1\n" + "x" * 3000 + "\n",
        "cardrules record 1\nvariant: x\nrules:\n| game: x\n| players: 1000000\n",
    ],
)
def test_malformed_records_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(SaveError) as e:
        record.load(text)
    assert str(e.value)


def test_an_oversized_record_is_refused_unread() -> None:
    with pytest.raises(SaveError, match="too large"):
        record.load("cardrules record 1\n" + " " * record.MAX_RECORD_BYTES)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_record_with_any_line_changed_loads_or_is_refused_cleanly(data: st.DataObject) -> None:
    lines = _lines(_played("kachuful-no-trump-fifth", 4, 9, until=60))
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = data.draw(
        st.sampled_from(
            [lines[i][:-1], lines[i] + "x", "", "  seat 1: bid 3", "hand 1: seat 1 deals"]
        )
    )
    try:
        g = record.load("\n".join(lines))
    except SaveError:
        return
    assert isinstance(g, cardrules.Game)


def test_cardrules_replay_checks_a_record_file(tmp_path: Path) -> None:
    exe = [sys.executable, "-c", "from cardrules.cli import main; raise SystemExit(main())"]
    good = FIXTURES / "kazhutha-2026-12-01.txt"
    out = subprocess.run([*exe, "replay", str(good)], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "the record is valid" in out.stdout and "seat 1 loses" in out.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text(good.read_text(encoding="utf-8").replace("variant: kazhutha", "variant: nope"))
    out = subprocess.run([*exe, "replay", str(bad)], capture_output=True, text=True, check=False)
    assert out.returncode == 1
    assert "record line" in out.stderr and "Traceback" not in out.stderr
