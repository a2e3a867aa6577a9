"""The JSON form of the engine's frozen records, read back field by field.

:meth:`View.from_dict <cardrules.engine.views.view.View.from_dict>` and
:meth:`Result.from_dict <cardrules.engine.views.view.Result.from_dict>` read what
``to_dict()`` wrote, from strangers: every value is checked for its type, its
bounds and its size before anything is built from it, and every refusal is a
:class:`~cardrules.errors.SaveError` naming the path of the bad field
(``view.trick[2][1]: expected a card such as 'A♠' or '10♥', got 'Z♠'``), with
the code ``bad_json`` and that path in its data when errors carry codes.

The readers follow the records' attrs fields and their type hints, so a field
added to :class:`View` is read (and described by its JSON Schema) with no
change here: the same walk over the types builds both the reader and the
schema (:func:`schema_of`). The JSON form of each type:

=========================  ===========================================
type                       JSON
=========================  ===========================================
``int``, ``bool``, ``str``   themselves (ints: never ``true`` or ``2.0``)
``Fraction``               an int when whole, else ``"p/q"`` in lowest terms
``Card``                   its text (``"A♠"``, ``"10♥"``: ``str(card)``)
``CardSet``                a list of card texts in the order of the pack
``Suit``                   its word (``"clubs"``)
``Action``                 ``{"id": 51, "label": "play A♠"}``
``X | None``               ``null`` or the form of ``X``
``tuple[X, ...]``          a list (at most 208 items, four packs, unless a field says less)
``tuple[A, B]``            a list of two
``tuple[tuple[K, V], ...]``  an object ``{str(K): V}`` for the fields in
                           :data:`_AS_OBJECT` (``visible_hands``...)
attrs record               an object with every field (``result``)
=========================  ===========================================

cattrs (a core dependency) is not used here: its structuring hooks would have
had to be written for every one of these types anyway, and they neither give
the path of a bad value nor bound sizes before building.

Example:
    >>> read = decoder_of(tuple[Card, ...], "hand")
    >>> read(["A♠", "10♥"], "view.hand")
    (Card('A♠'), Card('10♥'))
    >>> read(["A♠", "Z"], "view.hand")
    Traceback (most recent call last):
    ...
    cardrules.errors.SaveError: view.hand[1]: expected a card such as 'A♠' or '10♥', got 'Z'
    >>> schema_of(tuple[Card, ...], "hand")
    {'type': 'array', 'items': {'$ref': '#/$defs/card'}, 'maxItems': 208}
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, Union

import attrs

from cardrules.cards import CARDS, MAX_PACKS, Card, CardSet, Suit, cards_with_copies
from cardrules.counted import counted
from cardrules.engine.actions import (
    CONTRACT_END,
    NUM_ACTIONS,
    SPECIAL_ACTION_BASE,
    Action,
    is_action_id,
)
from cardrules.engine.state.tables import _PHASE_NAMES
from cardrules.errors import CardError, CardrulesError, SaveError
from cardrules.jsontext import describe as _show
from cardrules.rules import Direction, JokerNoTrump, Mode, TakeBacks
from cardrules.scoring import COUNTER_BOUND, MAX_COUNTERS, MAX_VALUE_DIGITS

__all__ = [
    "DEFS",
    "EVENT_RULES",
    "Decoder",
    "decoder_of",
    "nested_records",
    "record_schema",
    "schema_of",
]

#: A reader of one JSON value: ``(value, path) -> the Python value``.
Decoder = Callable[[object, str], Any]

#: An action id: 0 to ``NUM_ACTIONS - 1``, or a special card's or a contract bid's
#: (engine/actions.py).
ACTION_ID_SCHEMA: Final[dict[str, Any]] = {
    "type": "integer",
    "anyOf": [
        {"minimum": 0, "maximum": NUM_ACTIONS - 1},
        {"minimum": SPECIAL_ACTION_BASE, "maximum": CONTRACT_END - 1},
    ],
}
_SEATS: Final = 52  # the most players a variant may have (dsl.limits.MAX_PLAYERS)
_PACK: Final = 64  # the standard 52, two jokers and ten special cards
#: The most cards of a game, in any list of cards: several standard packs.
_MOST_CARDS: Final = 52 * MAX_PACKS
_HANDS: Final = 2000  # the most hands a game deals (saves.MAX_SAVE_HANDS)
#: Ints of fields without a bound of their own stay within what every JSON
#: reader holds exactly (JavaScript's safe integers).
_INT_LIMIT: Final = 2**53 - 1
_MAX_TEXT: Final = 64
#: The longest text of a rule in words (a refusal's message, in a view).
_MAX_RULE_TEXT: Final = 300
_MAX_FRACTION_TEXT: Final = 2 * (MAX_VALUE_DIGITS + 1) + 2
#: A fraction's text: its denominator is at least 2 (a whole number is an int).
_FRACTION_RE: Final = re.compile(r"-?[1-9][0-9]*/(?:[2-9]|[1-9][0-9]+)")
_NAME_RE: Final = r"^[A-Za-z_][A-Za-z0-9_]*$"
_SEAT_KEY_RE: Final = r"^(0|[1-9][0-9]?)$"

_CARDS: Final[dict[str, Card]] = {str(c): c for c in CARDS}
_SUITS: Final[dict[str, Suit]] = {s.word: s for s in Suit}

#: Fields whose ``(key, value)`` pairs are written as a JSON object.
_AS_OBJECT: Final = frozenset({"visible_hands", "known_hands", "counters"})


@attrs.frozen
class _Rule:
    """What a field's values may be, beyond their type."""

    lo: int = -_INT_LIMIT
    hi: int = _INT_LIMIT
    enum: tuple[str, ...] = ()
    max_items: int = _MOST_CARDS
    #: Exact list lengths allowed (empty: any up to ``max_items``).
    lengths: tuple[int, ...] = ()
    #: Whether the field's ints are seats (each below ``players`` in a view).
    seats: bool = False
    #: The longest text of the field (strings).
    max_text: int = _MAX_TEXT


_SEAT: Final = _Rule(0, _SEATS - 1, seats=True)
_COUNT: Final = _Rule(0, _PACK)
#: A number of cards held or out of the game (several packs: up to 208).
_CARDS_COUNT: Final = _Rule(0, _MOST_CARDS)
#: Bounds of the fields of View and Result (by field name; the same name means
#: the same thing in both). A field not listed takes the defaults.
_RULES: Final[dict[str, _Rule]] = {
    "seat": _SEAT,
    "dealer": _SEAT,
    "leader": _SEAT,
    "to_act": _SEAT,
    "pass_to": _SEAT,
    "trump_maker": _SEAT,
    "alone": _SEAT,
    "loser": _SEAT,
    "winners": _SEAT,
    "waiting_for": _SEAT,
    "seat_order": _SEAT,
    "teams": _SEAT,
    "trick": _SEAT,
    "last_trick": _SEAT,
    "visible_hands": _SEAT,
    "known_hands": _SEAT,
    "players": _Rule(1, _SEATS),
    "hand_number": _Rule(1, _HANDS),
    "hand_size": _COUNT,
    "hand_counts": _CARDS_COUNT,
    "bids": _COUNT,
    "tricks_won": _COUNT,
    "dead_count": _CARDS_COUNT,
    "pack_size": _Rule(1, _MOST_CARDS),
    "knocked_out": _Rule(0, _HANDS),
    "card_points": _Rule(-100, 100, lengths=(0, 52, 54, 64)),  # dsl.limits.MAX_CARD_POINTS
    "counters": _Rule(-COUNTER_BOUND, COUNTER_BOUND, max_items=MAX_COUNTERS),
    "legal_actions": _Rule(max_items=NUM_ACTIONS),
    "phase": _Rule(enum=_PHASE_NAMES),
    "mode": _Rule(enum=tuple(m.value for m in Mode)),
    "direction": _Rule(enum=tuple(d.value for d in Direction)),
    "version": _Rule(0, _INT_LIMIT),
    "audience": _Rule(enum=("seat", "public", "omniscient")),
    "jokers_without_trumps": _Rule(enum=("", *(j.value for j in JokerNoTrump))),
    "take_backs": _Rule(enum=tuple(p.value for p in TakeBacks)),
    "count": _Rule(1, _INT_LIMIT),
    "asked": _SEAT,
    "agreed": _SEAT,
    "tricks": _COUNT,
    # View.bid_range and View.forbidden_bids (ForbiddenBid): the codes of the
    # rules that may forbid a bid within the range (engine/phases/bidding._forbidden_bids),
    # and their messages (engine/views/refusals._explain_bid).
    "bid_range": _COUNT,
    "bid": _COUNT,
    "rule": _Rule(enum=("hook", "bid_not_higher")),
    "text": _Rule(max_text=_MAX_RULE_TEXT),
    "contract": _Rule(max_text=20),
}
_DEFAULT: Final = _Rule()
#: Bounds of the fields of the event records (their JSON is read by their own
#: ``from_dict``; these bounds are what the engine writes, for their schema).
_EVENT_SEATS: Final = (
    "seat dealer winner taker neighbour first_dealer winners seats targets loser agreed"
)
EVENT_RULES: Final[dict[str, _Rule]] = {
    **dict.fromkeys((*_EVENT_SEATS.split(), "cuts"), _SEAT),
    "players": _Rule(1, _SEATS),
    "hand_number": _Rule(1, _HANDS),
    "size": _COUNT,
    "count": _COUNT,
    "tricks": _COUNT,
    "bid": _COUNT,
    "bids": _Rule(-1, 52),  # -1: no bid, in the "bids" event
    "version": _Rule(0, _INT_LIMIT),
    "game": _Rule(1, _INT_LIMIT),
    "seed": _Rule(0, 2**64 - 1),
    "max_tricks": _Rule(1, 10**9),
    "values": _Rule(-COUNTER_BOUND, COUNTER_BOUND),
    "names": _Rule(max_items=MAX_COUNTERS),
    # A take-back: the versions of the actions it undid, the entries it undoes.
    "undone": _Rule(1, _INT_LIMIT, max_items=1000),
    "entries": _Rule(0, _INT_LIMIT),
}


def _refuse(path: str, message: str) -> SaveError:
    """The refusal of the value at ``path``: a SaveError whose code (when errors
    carry codes) is ``bad_json`` and whose data names the path."""
    err = SaveError(f"{path}: {message}")
    err.__dict__.update(code="bad_json", data={"path": path})
    return err


def _bad(path: str, want: str, x: object) -> SaveError:
    return _refuse(path, f"expected {want}, got {_show(x)}")


# --------------------------------------------------------------------------- schema parts

#: The JSON Schema definitions the generated schemas share (``#/$defs/...``).
DEFS: Final[dict[str, Any]] = {
    "card": {
        "description": "A card as its text: rank (2-10, J, Q, K, A) then suit symbol.",
        "enum": list(_CARDS),
    },
    "suit": {"description": "A suit as its word.", "enum": list(_SUITS)},
    "fraction": {
        "description": "An exact number: an int when whole, else 'p/q' in lowest terms.",
        "oneOf": [
            {"type": "integer"},
            {
                "type": "string",
                "pattern": "^" + _FRACTION_RE.pattern + "$",
                "maxLength": _MAX_FRACTION_TEXT,
            },
        ],
    },
    "action": {
        "description": "An action: its id decides; the label is for people.",
        "type": "object",
        "properties": {
            "id": ACTION_ID_SCHEMA,
            "label": {"type": "string", "minLength": 1, "maxLength": _MAX_TEXT},
        },
        "required": ["id", "label"],
        "additionalProperties": False,
    },
}


# --------------------------------------------------------------------------- readers


def _int_reader(rule: _Rule) -> Decoder:
    lo, hi = rule.lo, rule.hi

    def read(x: object, path: str) -> int:
        if type(x) is not int:
            raise _bad(path, "an int", x)
        if not lo <= x <= hi:
            raise _refuse(path, f"{_show(x)} is out of range ({lo} to {hi})")
        return x

    return read


def _read_bool(x: object, path: str) -> bool:
    if type(x) is not bool:
        raise _bad(path, "true or false", x)
    return x


def _str_reader(rule: _Rule) -> Decoder:
    enum = frozenset(rule.enum)
    most = rule.max_text

    def read(x: object, path: str) -> str:
        if type(x) is not str or len(x) > most:
            raise _bad(path, f"text of at most {most} characters", x)
        if enum and x not in enum:
            raise _bad(path, "one of " + ", ".join(map(repr, rule.enum)), x)
        return x

    return read


def _read_fraction(x: object, path: str) -> Fraction:
    if type(x) is int:
        if x.bit_length() > 4 * MAX_VALUE_DIGITS:
            raise _refuse(path, f"{_show(x)} is too large")
        return Fraction(x)
    if type(x) is str and len(x) <= _MAX_FRACTION_TEXT and _FRACTION_RE.fullmatch(x):
        f = Fraction(x)
        if str(f) == x:  # lowest terms, and not whole
            return f
    raise _bad(path, "an int or a fraction 'p/q' in lowest terms", x)


def _read_card(x: object, path: str) -> Card:
    c = _CARDS.get(x) if type(x) is str else None
    if c is None:
        raise _bad(path, "a card such as 'A♠' or '10♥'", x)
    return c


def _read_suit(x: object, path: str) -> Suit:
    s = _SUITS.get(x) if type(x) is str else None
    if s is None:
        raise _bad(path, "a suit word such as 'clubs'", x)
    return s


def _read_action(x: object, path: str) -> Action:
    if type(x) is not dict or not x.keys() <= {"id", "label"}:
        raise _bad(path, "an action {'id': ..., 'label': ...}", x)
    aid = x.get("id")
    if not is_action_id(aid):
        raise _bad(path + ".id", f"an action id (0 to {NUM_ACTIONS - 1})", aid)
    assert isinstance(aid, int)
    action = Action.from_id(aid)
    label = x.get("label")
    if label is not None and label != action.label:
        raise _refuse(path + ".label", f"action {aid} is {action.label!r}, not {_show(label)}")
    return action


def _read_cardset(x: object, path: str) -> CardSet:
    if type(x) is not list or len(x) > _MOST_CARDS:
        raise _bad(path, f"a list of at most {_MOST_CARDS} cards", x)
    cards = [_read_card(c, f"{path}[{i}]") for i, c in enumerate(x)]
    cs = CardSet(cards)
    if len(cs) != len(cards):
        # Several packs: a card written again is its next copy (as a view gives them).
        try:
            return CardSet(cards_with_copies(cards, MAX_PACKS))
        except CardError:
            raise _refuse(path, "a card appears twice") from None
    return cs


def _optional(inner: Decoder) -> Decoder:
    def read(x: object, path: str) -> Any:
        return None if x is None else inner(x, path)

    return read


def _list_reader(item: Decoder, rule: _Rule) -> Decoder:
    most, lengths = rule.max_items, frozenset(rule.lengths)
    cards = item is _read_card

    def read(x: object, path: str) -> tuple[Any, ...]:
        if type(x) is not list:
            raise _bad(path, "a list", x)
        if len(x) > most or (lengths and len(x) not in lengths):
            sizes = " or ".join(map(str, sorted(lengths))) if lengths else f"at most {most}"
            raise _refuse(path, f"{len(x):,} items, expected {sizes}")
        try:
            if cards:  # the common case, one look-up a card
                return tuple([_CARDS[v] for v in x])
            return tuple([item(v, path) for v in x])
        except (SaveError, KeyError, TypeError) as e:
            # Read again with each item's own path, for the message (readers have
            # no side effects; this costs only on a refusal).
            for i, v in enumerate(x):
                item(v, f"{path}[{i}]")
            if isinstance(e, SaveError):
                raise
            raise _refuse(path, "expected a list of cards") from None

    return read


def _fixed_reader(items: tuple[Decoder, ...]) -> Decoder:
    n = len(items)

    def read(x: object, path: str) -> tuple[Any, ...]:
        if type(x) is not list or len(x) != n:
            raise _bad(path, f"a list of {n}", x)
        try:
            return tuple([r(v, path) for r, v in zip(items, x, strict=True)])
        except SaveError:  # again with each item's path, as in _list_reader
            for i, (r, v) in enumerate(zip(items, x, strict=True)):
                r(v, f"{path}[{i}]")
            raise

    return read


def _object_reader(key: Decoder, value: Decoder, key_is_int: bool, rule: _Rule) -> Decoder:
    most = rule.max_items

    def read(x: object, path: str) -> tuple[tuple[Any, Any], ...]:
        if type(x) is not dict:
            raise _bad(path, "an object", x)
        if len(x) > most:
            raise _refuse(path, f"{len(x):,} entries, expected at most {most}")
        out = []
        for k, v in x.items():
            if type(k) is not str:
                raise _refuse(path, f"expected text keys, got {_show(k)}")
            where = f"{path}[{k[:30]!r}]"
            if key_is_int:
                if not re.fullmatch(_SEAT_KEY_RE, k):
                    raise _refuse(where, "expected a seat number as the key")
                out.append((key(int(k), where), value(v, where)))
            else:
                if not re.fullmatch(_NAME_RE, k) or len(k) > _MAX_TEXT:
                    raise _refuse(where, "expected a name as the key")
                out.append((key(k, where), value(v, where)))
        return tuple(out)

    return read


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _record_reader(cls: type) -> Decoder:
    """The reader of an attrs record: an object with its fields (those with
    defaults may be left out; no other keys)."""
    hints = _hints(cls)
    fields = [
        (f.name, decoder_of(hints[f.name], f.name), f.default is attrs.NOTHING)
        for f in attrs.fields(cls)
    ]
    names = frozenset(name for name, _, _ in fields)
    check = _CHECKS.get(cls.__name__)

    def read(x: object, path: str) -> Any:
        if type(x) is not dict:
            raise _bad(path, f"an object ({cls.__name__})", x)
        extra = [k for k in x if k not in names]
        if extra:
            raise _refuse(path, f"unknown field {_show(extra[0])} in a {cls.__name__}")
        kwargs: dict[str, Any] = {}

        def fill(paths: bool) -> None:
            for name, reader, required in fields:
                if name in x:
                    kwargs[name] = reader(x[name], f"{path}.{name}" if paths else path)
                elif required:
                    raise _refuse(path, f"missing field {name!r}")

        try:
            fill(False)
        except SaveError:  # again with each field's path, for the message
            fill(True)
            raise
        try:
            obj = cls(**kwargs)
        except CardrulesError:
            raise
        except (TypeError, ValueError) as e:  # an attrs validator of the record
            raise _refuse(path, str(e)) from None
        if check is not None:
            check(obj, path)
        return obj

    return read


def _seats_in(x: object) -> list[int]:
    """The ints in a field's value (its seats), cards left out."""
    if type(x) is int:
        return [x]
    if isinstance(x, tuple):
        return [s for v in x for s in _seats_in(v)]
    return []


#: The per-seat fields of a view: one item per seat.
_PER_SEAT: Final = ("hand_counts", "bids", "bid_made", "blind", "tricks_won", "scores")
#: Fields with one item per seat, or none.
_PER_SEAT_OR_NONE: Final = ("out", "seat_order")


#: The fields whose ints are seats.
_SEAT_FIELDS: Final = tuple(name for name, rule in _RULES.items() if rule.seats)


def _check_view(view: Any, path: str) -> None:
    """A view's fields must agree on the number of seats."""
    n = view.players
    for name in _PER_SEAT:
        got = len(getattr(view, name))
        if got != n:
            raise _refuse(f"{path}.{name}", f"{counted(got, 'item')} for {n} players")
    for name in _PER_SEAT_OR_NONE:
        got = len(getattr(view, name))
        if got not in (0, n):
            raise _refuse(f"{path}.{name}", f"{counted(got, 'item')} for {n} players")
    for name in _SEAT_FIELDS:
        for s in _seats_in(getattr(view, name, ())):
            if s >= n:
                raise _refuse(f"{path}.{name}", f"seat {s} in a game of {n} players")
    request = getattr(view, "take_back_request", None)
    if request is not None:
        for s in (request.seat, *request.asked):
            if s >= n:
                raise _refuse(f"{path}.take_back_request", f"seat {s} in a game of {n} players")
    for i, f in enumerate(view.forbidden_bids):
        if f.seat >= n:
            raise _refuse(f"{path}.forbidden_bids[{i}]", f"seat {f.seat} in a game of {n} players")
    if view.bid_range is not None and view.bid_range[0] > view.bid_range[1]:
        raise _refuse(f"{path}.bid_range", f"{list(view.bid_range)} is not a range of bids")


def _check_result(result: Any, path: str) -> None:
    """A result's seats must be seats of its totals."""
    n = len(result.totals)
    for name in ("winners", "loser", "teams", "knocked_out"):
        value = getattr(result, name)
        seats = _seats_in(value) if name != "knocked_out" else [s for s, _ in value]
        for s in seats:
            if s >= n:
                raise _refuse(f"{path}.{name}", f"seat {s} in a game of {n} players")


def _check_hand_result(hand: Any, path: str) -> None:
    """A hand's summary: one item per seat in each of its lists."""
    n = len(hand.totals)
    for name in ("bids", "tricks", "points"):
        got = len(getattr(hand, name))
        if got != n:
            raise _refuse(f"{path}.{name}", f"{got} items for {n} seats")
    for s in _seats_in(hand.last_trick):
        if s >= n:
            raise _refuse(f"{path}.last_trick", f"seat {s} in a game of {n} players")


def _check_take_back_request(request: Any, path: str) -> None:
    """A take-back request asks other seats, each once, in order; the seats
    that agreed are some of them."""
    asked, agreed = request.asked, request.agreed
    if not asked or list(asked) != sorted(set(asked)) or request.seat in asked:
        raise _refuse(f"{path}.asked", "other seats than the requester, each once, lowest first")
    if list(agreed) != sorted(set(agreed)) or not set(agreed) < set(asked):
        raise _refuse(f"{path}.agreed", "some of the seats asked (not all), lowest first")


#: Checks across the fields of a record, by class name, run once it is read.
_CHECKS: Final[dict[str, Callable[[Any, str], None]]] = {
    "TakeBackRequest": _check_take_back_request,
    "View": _check_view,
    "Result": _check_result,
    "HandResult": _check_hand_result,
}


def _split(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    return typing.get_origin(tp), typing.get_args(tp)


def _is_optional(tp: Any) -> Any:
    """``X`` for ``X | None``, else ``None``."""
    origin, args = _split(tp)
    if origin in (Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return None


def decoder_of(tp: Any, field: str = "", *, nested: bool = False) -> Decoder:
    """The reader of the JSON form of values of type ``tp`` (a field's type hint),
    with the bounds of the field named ``field``.

    ``nested``: for the items of the field's value (a field's own size bound and
    object form apply to the value itself only).

    Raises:
        TypeError: if ``tp`` has no JSON form (a programming error).
    """
    rule = _RULES.get(field, _DEFAULT)
    sizes = _DEFAULT if nested else rule
    inner = _is_optional(tp)
    if inner is not None:
        return _optional(decoder_of(inner, field, nested=nested))
    origin, args = _split(tp)
    if tp is bool:
        return _read_bool
    if tp is int:
        return _int_reader(rule)
    if tp is str:
        return _str_reader(rule)
    simple: dict[Any, Decoder] = {
        CardSet: _read_cardset,
        Fraction: _read_fraction,
        Card: _read_card,
        Suit: _read_suit,
        Action: _read_action,
    }
    if tp in simple:
        return simple[tp]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if field in _AS_OBJECT and not nested:
                k, v = typing.get_args(item)
                key, value = decoder_of(k, field, nested=True), decoder_of(v, field, nested=True)
                return _object_reader(key, value, k is int, sizes)
            return _list_reader(decoder_of(item, field, nested=True), sizes)
        return _fixed_reader(tuple(decoder_of(a, field, nested=True) for a in args))
    if isinstance(tp, type) and attrs.has(tp):
        return _record_reader(tp)
    raise TypeError(f"no JSON form for {tp!r} (field {field!r})")


# --------------------------------------------------------------------------- schemas


def _int_schema(rule: _Rule) -> dict[str, Any]:
    return {"type": "integer", "minimum": rule.lo, "maximum": rule.hi}


def _nullable(s: dict[str, Any]) -> dict[str, Any]:
    if "type" in s and isinstance(s["type"], str):
        out = dict(s)
        out["type"] = [s["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return out
    return {"anyOf": [s, {"type": "null"}]}


def schema_of(
    tp: Any,
    field: str = "",
    refs: dict[type, str] | None = None,
    *,
    nested: bool = False,
    rules: dict[str, _Rule] = _RULES,
) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the JSON form of ``tp``, as
    :func:`decoder_of` reads it; records named in ``refs`` are ``$ref``'d to
    ``#/$defs/NAME`` (the caller puts them there). ``rules``: the bounds of the
    fields by name (:data:`EVENT_RULES` for the event records)."""
    refs = refs or {}
    rule = rules.get(field, _DEFAULT)
    sizes = _DEFAULT if nested else rule
    inner = _is_optional(tp)
    if inner is not None:
        return _nullable(schema_of(inner, field, refs, nested=nested, rules=rules))
    origin, args = _split(tp)
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return _int_schema(rule)
    if tp is str:
        if rule.enum:
            return {"type": "string", "enum": list(rule.enum)}
        return {"type": "string", "maxLength": rule.max_text}
    named = {Fraction: "fraction", Card: "card", Suit: "suit", Action: "action"}
    if tp in named:
        return {"$ref": f"#/$defs/{named[tp]}"}
    if tp is CardSet:
        return {
            "description": "A set of cards, in the order of the pack; in a game of "
            "several packs a card held twice is written twice.",
            "type": "array",
            "items": {"$ref": "#/$defs/card"},
            "maxItems": _MOST_CARDS,
        }
    if origin is tuple:
        return _tuple_schema(args, field, refs, nested, sizes, rules)
    if isinstance(tp, type) and attrs.has(tp):
        if tp in refs:
            return {"$ref": f"#/$defs/{refs[tp]}"}
        return record_schema(tp, refs, rules=rules)
    raise TypeError(f"no JSON form for {tp!r} (field {field!r})")


def _tuple_schema(
    args: tuple[Any, ...],
    field: str,
    refs: dict[type, str],
    nested: bool,
    sizes: _Rule,
    rules: dict[str, _Rule],
) -> dict[str, Any]:
    """The JSON Schema of a tuple type of arguments ``args`` (see
    :func:`schema_of`): an array, or an object keyed by seat or name for the
    fields of :data:`_AS_OBJECT` (``sizes``: the bounds of its length)."""
    if len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        if field in _AS_OBJECT and not nested:
            k, v = typing.get_args(item)
            keys: dict[str, Any] = {"pattern": _SEAT_KEY_RE if k is int else _NAME_RE}
            if k is not int:
                keys["maxLength"] = _MAX_TEXT
            return {
                "type": "object",
                "propertyNames": keys,
                "maxProperties": sizes.max_items,
                "additionalProperties": schema_of(v, field, refs, nested=True, rules=rules),
            }
        items = schema_of(item, field, refs, nested=True, rules=rules)
        out: dict[str, Any] = {"type": "array", "items": items}
        if sizes.lengths:
            return {"anyOf": [{**out, "minItems": n, "maxItems": n} for n in sorted(sizes.lengths)]}
        out["maxItems"] = sizes.max_items
        return out
    return {
        "type": "array",
        "prefixItems": [schema_of(a, field, refs, nested=True, rules=rules) for a in args],
        "minItems": len(args),
        "items": False,
    }


def _descriptions(cls: type) -> dict[str, str]:
    """Each field's description from the ``Attributes:`` section of the class's
    docstring."""
    doc = cls.__doc__ or ""
    out: dict[str, str] = {}
    inside = False
    name = ""
    for line in doc.splitlines():
        if line.strip() == "Attributes:":
            inside = True
            continue
        if not inside:
            continue
        m = re.match(r"^\s{8}(\w+): (.*)$", line)
        if m:
            name = m.group(1)
            out[name] = m.group(2).strip()
        elif line.startswith(" " * 12) and name:
            out[name] += " " + line.strip()
        elif line.strip():
            break
    words = {"None": "null", "True": "true", "False": "false"}
    for k, v in out.items():
        v = re.sub(r":\w+:`~?([^`]+)`", r"\1", v).replace("``", "")
        out[k] = re.sub(r"\b(None|True|False)\b", lambda m: words[m.group(1)], v)
    return out


def record_schema(
    cls: type, refs: dict[type, str] | None = None, *, rules: dict[str, _Rule] = _RULES
) -> dict[str, Any]:
    """The JSON Schema of an attrs record's ``to_dict()``: every field required,
    no others."""
    hints = _hints(cls)
    about = _descriptions(cls)
    props: dict[str, Any] = {}
    for f in attrs.fields(cls):
        s = schema_of(hints[f.name], f.name, refs, rules=rules)
        if f.name in about:
            s = {"description": about[f.name], **s}
        props[f.name] = s
    return {
        "type": "object",
        "properties": props,
        "required": [name for name in props if name not in _ONLY_WHEN_SET],
        "additionalProperties": False,
    }


#: Fields a record's JSON form writes only when they are set (a view's
#: ``special_powers``, for a pack with special cards; a hand's ``cases``, for a
#: game whose file names them): not required.
_ONLY_WHEN_SET: Final = frozenset(
    {"special_powers", "card_names", "jokers_without_trumps", "contract", "cases"}
)


def nested_records(cls: type) -> list[type]:
    """The attrs records the fields of ``cls`` hold (``Result`` in a view...),
    in field order, each once: the schemas put them in ``$defs``."""
    out: list[type] = []

    def walk(tp: Any) -> None:
        if isinstance(tp, type) and attrs.has(tp):
            if tp not in out:
                out.append(tp)
            return
        for a in typing.get_args(tp):
            walk(a)

    hints = _hints(cls)
    for f in attrs.fields(cls):
        walk(hints[f.name])
    return out
