"""The JSON contract: the shipped JSON Schemas describe exactly what ``to_dict()``
writes, and ``from_dict()`` reads it back.

Thousands of real objects from seeded games of every built-in variant (views of
every seat at many points, their legal actions, results, saves, events and
errors) are validated against the schemas and round-tripped through JSON text.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any

import attrs
import jsonschema
import pytest

import cardrules
from cardrules import Game, Result, View
from cardrules.bots import HeuristicBot
from cardrules.dsl import builtin_names
from cardrules.engine.actions import NUM_ACTIONS
from cardrules.engine.views.notation import action_from_dict, action_to_dict
from cardrules.errors import CardrulesError, IllegalAction, SaveError
from cardrules.schema import schema, schema_names
from cardrules.schema_build import build as _built
from cardrules.schema_build import schema_text as _text

NAMES = ("action", "error", "event", "result", "save", "view")
#: Tricks after which a game is stopped (a Result with finished=False): keeps
#: the 200-hand games short.
MAX_TRICKS = 90


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    s = schema(name)
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def check(name: str, data: Any) -> None:
    """``data`` is valid for the schema ``name``, and is JSON text's own form."""
    errors = sorted(validator(name).iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].json_path}: {errors[0].message}"


def wire(data: Any) -> Any:
    """``data`` through JSON text, as a client receives it."""
    return json.loads(json.dumps(data, ensure_ascii=False))


# --------------------------------------------------------------------------- the schemas


def test_schema_names_and_copies() -> None:
    assert cardrules.schema_names() == schema_names() == NAMES
    for name in NAMES:
        s = cardrules.schema(name)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert s["$id"] == f"urn:cardrules:schema:{name}"
        s["title"] = "changed"
        assert cardrules.schema(name)["title"] != "changed"  # a fresh copy each time


def test_unknown_schema_is_a_cardrules_error() -> None:
    with pytest.raises(CardrulesError, match="no schema named 'views'"):
        cardrules.schema("views")


@pytest.mark.parametrize("name", NAMES)
def test_shipped_schema_is_valid_and_up_to_date(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(schema(name))
    shipped = (
        __import__("importlib.resources").resources.files("cardrules") / "schemas" / f"{name}.json"
    ).read_text("utf-8")
    assert shipped == _text(_built(name)), "run `make schemas` and commit cardrules/schemas/"


def _closed_objects(s: Any, path: str = "#") -> Iterator[str]:
    """The paths of object schemas (with properties) that are not closed or do
    not require every property."""
    if isinstance(s, dict):
        if "properties" in s and s.get("type") == "object":
            if s.get("additionalProperties") is not False:
                yield path + " is open"
            optional = set(s["properties"]) - set(s.get("required", ()))
            # Written only when there is something to say: the draws of a
            # record's game, a table's take-back policy and take-backs, a
            # view's special cards (a pack with special cards only), what a
            # joker is without trumps (a file that says so only) and a view's
            # contract (an auction of bids in strains only), a hand's cases
            # (a file that names the cases of its score only).
            if optional - {
                "cases",
                "contract",
                "draws",
                "take_backs",
                "retracted",
                "take_back_request",
                "taken_back",
                "special_powers",
                "card_names",
                "jokers_without_trumps",
            }:
                yield f"{path} leaves {sorted(optional)} optional"
        for k, v in s.items():
            yield from _closed_objects(v, f"{path}/{k}")
    elif isinstance(s, list):
        for i, v in enumerate(s):
            yield from _closed_objects(v, f"{path}/{i}")


@pytest.mark.parametrize("name", ["action", "result", "save", "view"])
def test_schemas_are_exact(name: str) -> None:
    assert list(_closed_objects(schema(name))) == []


def test_view_schema_follows_the_fields() -> None:
    s = schema("view")
    names = [f.name for f in attrs.fields(View)]
    # special_powers: written only for a pack with special cards (issue 23);
    # jokers_without_trumps only when the file says what a joker is then;
    # contract: only in an auction of bids in strains, once a bid is made;
    # card_names: only for a pack with `special symbols`.
    optional = ("special_powers", "card_names", "jokers_without_trumps", "contract")
    written = [n for n in names if n not in optional]
    assert list(s["properties"]) == names and s["required"] == written
    assert list(s["$defs"]["result"]["properties"]) == [f.name for f in attrs.fields(Result)]
    assert s["properties"]["phase"]["enum"] == ["bid", "play", "over", "pass", "trumps"]
    # The standard 52, the two jokers and the ten special cards X1-X10.
    assert len(s["$defs"]["card"]["enum"]) == 64
    assert s["$defs"]["card"]["enum"][:2] == ["2♣", "3♣"]
    # every field of a view is written by to_dict (so the schema and from_dict see it)
    g = Game(cardrules.load("oh-hell"), 4, seed=3)
    assert set(g.view(0).to_dict()) == set(written)
    w = Game(cardrules.load("wizard"), 4, seed=3)
    assert set(w.view(0).to_dict()) == set(names) - {"jokers_without_trumps", "contract"}
    j = Game(cardrules.load("bid-whist-jokers"), 4, seed=3)
    assert set(j.view(0).to_dict()) == set(names) - {"special_powers", "card_names", "contract"}
    f = Game(cardrules.load("five-hundred"), 3, seed=3)
    f.apply_as_current(f.legal_actions()[0])
    five = set(f.view(0).to_dict())
    optional_here = {"special_powers", "card_names", "jokers_without_trumps"}
    assert five - {"jokers_without_trumps"} == set(names) - optional_here


def test_error_schema_matches_the_error_codes() -> None:
    """When errors carry codes (ERROR_CODES), the schema lists exactly those."""
    from cardrules import errors

    s = schema("error")
    classes = {
        n
        for n in dir(errors)
        if isinstance(getattr(errors, n), type) and issubclass(getattr(errors, n), CardrulesError)
    }
    assert set(s["properties"]["error"]["enum"]) == classes
    codes = getattr(errors, "ERROR_CODES", None)
    if codes is not None:
        assert set(s["properties"]["code"]["enum"]) == set(codes)


def test_schema_command_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["schema", "view"]) == 0
    assert json.loads(capsys.readouterr().out) == schema("view")
    assert main(["schema"]) == 0
    assert capsys.readouterr().out.split() == list(NAMES)
    assert main(["schema", "nope"]) == 2
    assert "no schema named 'nope'" in capsys.readouterr().err


# --------------------------------------------------------------------------- real objects


def _seat_to_act(g: Game) -> int:
    return g.to_act if g.to_act is not None else min(g.waiting_for)


def _player_counts(v: cardrules.Variant) -> list[int]:
    lo, hi = v.players.min, v.players.max
    return sorted({lo, min(hi, max(lo, 4)), min(hi, lo + 2)})[:2]


def _check_view(v: View) -> None:
    d = v.to_dict()
    check("view", d)
    assert View.from_dict(wire(d)) == v
    for a in v.legal_actions:
        ad = action_to_dict(a)
        check("action", ad)
        assert action_from_dict(wire(ad)) is a
        if hasattr(a, "to_dict"):  # the errors engineer's methods, once merged
            assert a.to_dict() == ad
            assert type(a).from_dict(wire(ad)) is a


@cache
def kind_validator(kind: str) -> jsonschema.protocols.Validator:
    """The validator of one kind of event: its branch of the event schema's oneOf."""
    s = schema("event")
    (branch,) = [b for b in s["oneOf"] if b["properties"]["kind"]["const"] == kind]
    return jsonschema.Draft202012Validator({**branch, "$defs": s["$defs"]})


#: How many events of each kind a game has validated against the schema (every
#: event is read back; validating all of them would take minutes).
EVENTS_PER_KIND = 25


def _check_events(g: Game, seat: int | None, seen: dict[str, int]) -> int:
    """Validate the seat's events when they are records with ``to_dict``: each
    read back from JSON; the first of each kind against the whole event schema,
    up to EVENTS_PER_KIND of each kind against its branch. ``seen`` counts
    the validated events by kind, across the seats of a game."""
    n = 0
    for ev in g.events_for(seat):  # type: ignore[arg-type]  # None: an onlooker's
        if not hasattr(ev, "to_dict"):
            continue
        d = ev.to_dict()
        assert type(ev).from_dict(wire(d)) == ev
        k = seen.get(d["kind"], 0)
        if k == 0:
            check("event", d)
        if k < EVENTS_PER_KIND:
            errors = list(kind_validator(d["kind"]).iter_errors(d))
            assert not errors, f"{d['kind']}: {errors[0].json_path}: {errors[0].message}"
        seen[d["kind"]] = k + 1
        n += 1
    return n


def _check_error(err: CardrulesError) -> int:
    """Validate a refusal when errors have ``to_dict`` (the errors engineer's)."""
    if not hasattr(err, "to_dict"):
        return 0
    d = err.to_dict()
    check("error", d)
    back = type(err).from_dict(wire(d))
    assert type(back) is type(err) and back.to_dict() == d
    return 1


def _check_save(g: Game) -> None:
    text = g.to_json()
    data = json.loads(text)
    check("save", data)
    back = Game.from_json(json.dumps(wire(data), ensure_ascii=False))
    assert back == g
    assert back.to_json() == text


def _play_and_check(name: str) -> dict[str, int]:
    kinds = ("views", "actions", "results", "saves", "events", "errors", "errors_as_json")
    counts = dict.fromkeys(kinds, 0)
    v = cardrules.load(name)
    for k, players in enumerate(_player_counts(v)):
        g = Game(v, players, seed=11 + k, max_tricks=MAX_TRICKS)
        rng = random.Random(k)
        step = 0
        every = 13 + 4 * k
        while not g.is_over:
            if step % every == 0:
                for seat in range(players):
                    view = g.view(seat)
                    _check_view(view)
                    counts["views"] += 1
                    counts["actions"] += len(view.legal_actions)
            if step % (every * 16) == 0:
                _check_save(g)
                counts["saves"] += 1
                # a refusal: a move by a seat that is not to act, or an action of another phase
                seat = _seat_to_act(g)
                other = (seat + 1) % players
                wrong = g.legal_actions(seat)[0]
                if other not in g.waiting_for:
                    with pytest.raises(CardrulesError) as info:
                        g.apply(wrong, other)
                    counts["errors"] += 1
                    counts["errors_as_json"] += _check_error(info.value)
            seat = _seat_to_act(g)
            g.apply(rng.choice(g.legal_actions(seat)), seat)
            step += 1
        seen: dict[str, int] = {}
        for seat in range(players):
            _check_view(g.view(seat))
            counts["views"] += 1
            counts["events"] += _check_events(g, seat, seen)
        if hasattr(g, "public_view"):  # spectators (the events engineer's), once merged
            _check_view(g.public_view())
            _check_view(g.omniscient_view())
            counts["events"] += _check_events(g, None, seen)
        result = g.result
        assert result is not None
        d = result.to_dict()
        check("result", d)
        assert Result.from_dict(wire(d)) == result
        counts["results"] += 1
        _check_save(g)
        counts["saves"] += 1
    return counts


@pytest.mark.parametrize("name", builtin_names())
def test_real_objects_of_every_variant_match_the_schemas(name: str) -> None:
    """Over the 48 built-ins: about 6,500 views, 7,000 actions, 240 saves, 90
    results and 150 refusals."""
    counts = _play_and_check(name)
    # 20: a random game of bid-whist may end after one hand (a side at -7); so
    # may one of five-hundred, whose random auction climbs to the top bids (open
    # misère and the tens, worth 500 or more: made or lost, the game is over).
    assert counts["views"] >= (9 if name == "five-hundred" else 20), counts
    assert counts["results"] >= 1 and counts["saves"] >= 2 and counts["errors"] >= 1, counts
    # events and errors as JSON: once their records and codes are merged in
    records = hasattr(Game(cardrules.load("oh-hell"), 4).events[0], "to_dict")
    assert (counts["events"] > 0) == records, counts
    if hasattr(CardrulesError, "to_dict"):
        assert counts["errors_as_json"] == counts["errors"], counts


# --------------------------------------------------------------------------- a remote bot


@pytest.mark.parametrize("name", builtin_names())
def test_a_remote_bot_plays_from_what_a_server_sends(name: str) -> None:
    """A bot far away runs HeuristicBot on View.from_dict of the JSON text a
    server sends, and chooses exactly what it would choose on the server."""
    v = cardrules.load(name)
    g = Game(v, 4 if 4 in v.players else v.players.min, seed=5, max_tricks=30)
    here, there = HeuristicBot(), HeuristicBot()
    moves = 0
    while not g.is_over:
        seat = _seat_to_act(g)
        sent = g.view(seat).to_json()  # what goes down the wire
        remote = View.from_dict(json.loads(sent))
        action = there.choose(remote)
        assert action == here.choose(g.view(seat))
        g.apply(action, seat)
        moves += 1
    assert moves > 20


# --------------------------------------------------------------------------- refusals


def _view_dict() -> dict[str, Any]:
    g = Game(cardrules.load("kachuful"), 4, seed=2)
    for _ in range(9):
        s = _seat_to_act(g)
        g.apply(g.legal_actions(s)[0], s)
    return g.view(1).to_dict()


def _set(key: str, value: Any) -> Any:
    return lambda d: d.__setitem__(key, value)


#: Broken views, what from_dict says, and whether the view schema refuses them
#: too (it cannot see what needs two fields, such as seats against players, or
#: arithmetic, such as lowest terms).
BROKEN_VIEWS = [
    (_set("hand", ["Z♠"]), r"view\.hand\[0\]: expected a card", True),
    (_set("seat", 7), r"view\.seat: seat 7 in a game of 4 players", False),
    (_set("seat", True), r"view\.seat: expected an int, got True", True),
    # JSON Schema counts 2.0 as an integer; from_dict reads only JSON ints
    (_set("players", 2.0), r"view\.players: expected an int", False),
    (_set("scores", [0, 0, 0]), r"view\.scores: 3 items for 4 players", False),
    (_set("scores", [0, "2/4", 0, 0]), r"view\.scores\[1\]: expected an int or a fraction", False),
    (_set("scores", [0, "4/1", 0, 0]), r"view\.scores\[1\]: expected an int or a fraction", True),
    (_set("scores", [0, 1.5, 0, 0]), r"view\.scores\[1\]: expected an int or a fraction", True),
    (_set("phase", "lunch"), r"view\.phase: expected one of 'bid'", True),
    (_set("hand", ["2♣"] * 209), r"view\.hand: 209 items, expected at most 208", True),
    (_set("trick", [[0]]), r"view\.trick\[0\]: expected a list of 2", True),
    (_set("colour", "red"), r"view: unknown field 'colour'", True),
    (lambda d: d.pop("seat"), r"view: missing field 'seat'", True),
    (_set("known_hands", {"x": []}), r"known_hands\['x'\]: expected a seat number", True),
    (_set("counters", {"9": [1]}), r"counters\['9'\]: expected a name", True),
    (
        _set("legal_actions", [{"id": 52, "label": "bid 3"}]),
        r"view\.legal_actions\[0\]\.label: action 52 is 'bid 0'",
        False,  # the schema does not list every action's label
    ),
    (
        _set("legal_actions", [{"id": 9999, "label": "x"}]),
        r"view\.legal_actions\[0\]\.id: expected an action id",
        True,
    ),
    (
        _set("result", {**Result((9,), (Fraction(1), Fraction(2))).to_dict()}),
        r"view\.result\.winners: seat 9 in a game of 2 players",
        False,
    ),
    (_set("result", []), r"view\.result: expected an object \(Result\)", True),
    (_set("bids", [0, 0, 10**30, 0]), r"view\.bids\[2\]: .* is out of range \(0 to 64\)", True),
]


@pytest.mark.parametrize(("change", "message", "schema_sees"), BROKEN_VIEWS)
def test_view_from_dict_refuses_with_the_path(change: Any, message: str, schema_sees: bool) -> None:
    d = _view_dict()
    check("view", d)
    change(d)
    with pytest.raises(SaveError, match=message):
        View.from_dict(d)
    assert validator("view").is_valid(d) is not schema_sees


def test_from_dict_refuses_what_is_not_an_object() -> None:
    for junk in (None, [], "view", 3):
        with pytest.raises(SaveError, match="expected an object"):
            View.from_dict(junk)
        with pytest.raises(SaveError, match="expected an object"):
            Result.from_dict(junk)


def test_result_round_trip_with_fractions() -> None:
    r = Result(
        winners=(0, 2),
        totals=(Fraction(7, 2), Fraction(-3), Fraction(7, 2)),
        shared=True,
        teams=((0, 2), (1,)),
        knocked_out=((1, 4),),
    )
    d = r.to_dict()
    assert d["totals"] == ["7/2", -3, "7/2"]
    check("result", d)
    assert Result.from_dict(wire(d)) == r


def test_errors_are_checked_when_they_have_to_dict() -> None:
    g = Game(cardrules.load("oh-hell"), 4, seed=1)
    with pytest.raises(IllegalAction) as info:
        g.apply(g.legal_actions(g.to_act)[0], (g.to_act + 1) % 4)
    assert _check_error(info.value) == int(hasattr(CardrulesError, "to_dict"))
    with pytest.raises(SaveError) as bad:
        View.from_dict({"seat": "x"})
    assert _check_error(bad.value) == int(hasattr(CardrulesError, "to_dict"))
    assert getattr(bad.value, "code", None) == "bad_json"
    assert getattr(bad.value, "data", None) == {"path": "view.seat"}


def test_every_action_matches_the_action_schema() -> None:
    from cardrules.engine.actions import NUM_ACTIONS, Action

    for i in range(NUM_ACTIONS):
        a = Action.from_id(i)
        d = action_to_dict(a)
        check("action", d)
        assert action_from_dict(wire(d)) is a
    assert not validator("action").is_valid({"id": NUM_ACTIONS, "label": "x"})
    assert not validator("action").is_valid({"id": 3, "label": "play 5♣", "seat": 1})


def test_the_save_schema_refuses_broken_saves() -> None:
    g = Game(cardrules.load("kazhutha"), 4, seed=8)
    for _ in range(5):
        s = _seat_to_act(g)
        g.apply(g.legal_actions(s)[0], s)
    good = json.loads(g.to_json())
    check("save", good)
    for change in (
        lambda d: d.__setitem__("format", "cardrules.match"),
        lambda d: d.__setitem__("seed", -1),
        lambda d: d["deals"][0]["hands"][0].__setitem__(0, "1♠"),
        lambda d: d["actions"].append([0, NUM_ACTIONS]),
        lambda d: d["state"].__setitem__("phase", "lunch"),
        lambda d: d.pop("deals"),
    ):
        bad = wire(good)
        change(bad)
        assert not validator("save").is_valid(bad)
        with pytest.raises(SaveError):
            Game.from_json(json.dumps(bad))
    # A field no version writes: the schema (what to_json writes) refuses it;
    # from_json reads past it.
    extra = {**wire(good), "notes": "hi"}
    assert not validator("save").is_valid(extra)
    assert Game.from_json(json.dumps(extra)) == g
