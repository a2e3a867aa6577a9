"""``from_dict`` is fed by strangers: on any junk it raises a cardrules error and
nothing else, and whatever it accepts writes back JSON its schema accepts."""

from __future__ import annotations

import contextlib
import json
from functools import cache
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, Result, View
from cardrules.engine.views.notation import action_from_dict
from cardrules.errors import CardrulesError

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.sampled_from(["A♠", "10♥", "Z♠", "bid", "play", "spades", "3/2", "2/4", "-1/3", "0"])
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(["0", "1", "id", "label"]), inner, max_size=5
        )
    ),
    max_leaves=20,
)


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(cardrules.schema(name))


@cache
def real_views() -> tuple[dict[str, Any], ...]:
    """Views of a few games at a few points, as JSON objects."""
    out = []
    for name, players in (("kachuful", 4), ("kazhutha", 4), ("euchre", 4), ("hearts", 4)):
        g = Game(cardrules.load(name), players, seed=3, max_tricks=6)
        step = 0
        while not g.is_over:
            seat = g.to_act if g.to_act is not None else min(g.waiting_for)
            if step % 5 == 0:
                out.append(g.view(seat).to_dict())
            g.apply(g.legal_actions(seat)[0], seat)
            step += 1
        out.append(g.view(0).to_dict())
    return tuple(json.loads(json.dumps(v)) for v in out)


def _accepts(reader: Any, data: object, schema_name: str, *, exact: bool = True) -> None:
    """``reader(data)`` refuses with a cardrules error, or gives an object which
    reads back equal from its ``to_dict()`` and (``exact``) whose ``to_dict()``
    its schema accepts."""
    try:
        obj = reader(data)
    except CardrulesError:
        return
    d = obj.to_dict() if hasattr(obj, "to_dict") else {"id": obj.id, "label": obj.label}
    if exact:
        errors = list(validator(schema_name).iter_errors(d))
        assert not errors, errors[0].message
    assert reader(json.loads(json.dumps(d))) == obj


@SETTINGS
@given(json_values)
def test_view_from_dict_on_junk(data: object) -> None:
    _accepts(View.from_dict, data, "view")


@SETTINGS
@given(json_values)
def test_result_from_dict_on_junk(data: object) -> None:
    _accepts(Result.from_dict, data, "result")


@SETTINGS
@given(json_values)
def test_action_from_dict_on_junk(data: object) -> None:
    _accepts(action_from_dict, data, "action")


@SETTINGS
@given(st.data())
def test_view_from_dict_on_a_real_view_with_one_field_broken(data: st.DataObject) -> None:
    views = real_views()
    view = dict(data.draw(st.sampled_from(views)))
    field = data.draw(st.sampled_from(sorted(view)))
    how = data.draw(st.sampled_from(["replace", "drop", "nest", "borrow"]))
    if how == "replace":
        view[field] = data.draw(json_values)
    elif how == "drop":
        del view[field]
    elif how == "borrow":  # the same field from another view (other seats, other games)
        view[field] = data.draw(st.sampled_from(views))[field]
    else:  # break one item inside a list or object
        value = view[field]
        if isinstance(value, list) and value:
            value = list(value)
            value[data.draw(st.integers(0, len(value) - 1))] = data.draw(json_values)
        elif isinstance(value, dict) and value:
            value = dict(value)
            value[data.draw(st.sampled_from(sorted(value)))] = data.draw(json_values)
        view[field] = value
    _accepts(View.from_dict, view, "view")


@SETTINGS
@given(
    st.sampled_from([None, 1.5, float("nan"), (1, 2), {1: 2}, {"seat": object()}, b"{}", {(): 1}])
)
def test_from_dict_on_values_json_never_makes(data: object) -> None:
    for reader in (View.from_dict, Result.from_dict, action_from_dict):
        with contextlib.suppress(CardrulesError):
            reader(data)


def _event_reader() -> Any:
    """``Event.from_dict`` once events are typed records (the events engineer's
    branch); before that, a reader that refuses everything (events were tuples)."""
    from cardrules.engine import events

    record = getattr(events, "EVENT_TYPES", None)
    if record is not None:
        return next(iter(record.values())).__mro__[1].from_dict

    def refuse(data: object) -> Any:
        raise CardrulesError("events have no JSON form yet")

    return refuse


def _error_reader() -> Any:
    """``CardrulesError.from_dict`` once errors have a JSON form (the errors
    engineer's branch); before that, a reader that refuses everything."""
    reader = getattr(CardrulesError, "from_dict", None)
    if reader is not None:
        return reader

    def refuse(data: object) -> Any:
        raise CardrulesError("errors have no JSON form yet")

    return refuse


event_like = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["play", "deal", "score", "bid", "trick", "reveal", "nope"]),
        "version": json_values,
    },
    optional={
        "seat": json_values,
        "card": json_values,
        "hands": json_values,
        "bid": json_values,
        "blind": json_values,
        "cards": json_values,
        "winner": json_values,
        "seats": json_values,
        "hand_number": json_values,
    },
)


@SETTINGS
@given(json_values | event_like)
def test_event_from_dict_on_junk(data: object) -> None:
    """Event.from_dict checks types but not bounds (it reads seat 99 back), so
    what it accepts is not held to the schema's bounds here."""
    _accepts(_event_reader(), data, "event", exact=False)


error_like = st.fixed_dictionaries(
    {
        "error": st.sampled_from(["IllegalAction", "SaveError", "Nope", "CardrulesError"]),
        "code": st.sampled_from(["not_your_turn", "bad_json", "hook", "no_such_code"])
        | json_values,
        "message": json_values,
        "data": json_values,
    }
)


@SETTINGS
@given(json_values | error_like)
def test_error_from_dict_on_junk(data: object) -> None:
    """An error read back from JSON: a cardrules error is raised, or the error
    read writes JSON the error schema accepts when its code is a known one."""
    reader = _error_reader()
    try:
        err = reader(data)
    except CardrulesError:
        return
    from cardrules import errors

    d = err.to_dict()
    if d["code"] in getattr(errors, "ERROR_CODES", {}):
        assert not list(validator("error").iter_errors(d))
