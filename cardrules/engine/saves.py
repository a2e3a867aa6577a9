"""Saved games and replays: :meth:`Game.to_json`'s text, :meth:`Game.from_json`'s
checks of untrusted saves, and :func:`replay` of a log.

Both ways rebuild a game the same way: the recorded deals are forced and the
actions re-applied, so the rules check every step.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from cardrules.cards import ALL_CARDS, Card, CardSet, card
from cardrules.engine.actions import Action, Amend, Bid, Look, Play
from cardrules.engine.compiled_rules import _compile
from cardrules.engine.events import Event
from cardrules.errors import CardError, CardrulesError, InvalidAction, SaveError, VariantError
from cardrules.rules import Variant

if TYPE_CHECKING:
    from cardrules.engine.game import Game

SAVE_FORMAT: Final = "cardrules.game"
SAVE_VERSION: Final = 1
#: Saved games larger than this are refused unread.
MAX_SAVE_BYTES: Final = 20_000_000

_LOOK: Final = Look()

#: The number of items of each kind of log entry that replay() reads.
_EVENT_LENGTHS: Final = {
    "start": 5,
    "deal": 5,
    "trump": 4,
    "play": 3,
    "bid": 4,
    "look": 2,
    "amend": 3,
}

# --------------------------------------------------------------------------- saving


def _action_log(events: list[Event]) -> list[list[int]]:
    """Every action of the log as ``[seat, action id]``."""
    out: list[list[int]] = []
    for ev in events:
        k = ev[0]
        if k == "play":
            out.append([ev[1], int(ev[2])])
        elif k == "bid":
            out.append([ev[1], Bid(ev[2], blind=ev[3]).id])
        elif k == "look":
            out.append([ev[1], _LOOK.id])
        elif k == "amend":
            out.append([ev[1], Amend(ev[2]).id])
    return out


def _deal_log(events: list[Event]) -> list[dict[str, Any]]:
    """Every deal of the log: hand number, dealer, the hands and the turned-up card."""
    out: list[dict[str, Any]] = []
    for ev in events:
        if ev[0] == "deal":
            out.append(
                {
                    "hand": ev[1],
                    "dealer": ev[2],
                    "hands": [[str(c) for c in CardSet(h)] for h in ev[4]],
                }
            )
        elif ev[0] == "trump":
            out[-1]["turned"] = None if ev[3] is None else str(ev[3])
    return out


def _save_text(g: Game) -> str:
    """:meth:`Game.to_json`."""
    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "variant": {
            "name": g._v.name,
            "fingerprint": g._r.fingerprint,
            "rules": _rules_text(g._v),
        },
        "players": g._n,
        "seed": g._seed,
        "first_dealer": g._fd_param,
        "max_tricks": g._max_tricks,
        "decks": [[str(ALL_CARDS[c]) for c in d] for d in g._decks],
        "decks_reuse": g._decks_reuse,
        "deals": _deal_log(g._events),
        "actions": _action_log(g._events),
        "state": g._summary(),
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _rules_text(v: Variant) -> str | None:
    """The resolved rules as canonical variant text, so that a save of a game
    played with options or a house-rule file restores without that file."""
    from cardrules.dsl import format as format_variant

    try:
        return format_variant(v)
    except CardrulesError:
        return None  # a hand-built config no file can describe: from_json needs variant=


# --------------------------------------------------------------------------- restoring


def _load_text(text: object, variant: Variant | None) -> Game:
    """:meth:`Game.from_json`."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_SAVE_BYTES:
            raise SaveError("saved game is too large")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SaveError(f"saved game is not UTF-8 text: {e}") from None
    if not isinstance(text, str):
        raise SaveError(f"a saved game is JSON text, got {type(text).__name__}")
    if len(text) > MAX_SAVE_BYTES:
        raise SaveError("saved game is too large")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise SaveError(f"saved game is not valid JSON: {e}") from None
    return _restore(data, variant)


def _want(cond: bool, msg: str) -> None:
    if not cond:
        raise SaveError(msg)


def _is_int(x: object) -> bool:
    return type(x) is int


def _resolve_variant(name: object, variant: Variant | None, rules: object = None) -> Variant:
    if variant is not None:
        if not isinstance(variant, Variant):
            raise SaveError(f"variant must be a Variant, got {type(variant).__name__}")
        return variant
    if rules is not None:
        # The save carries its own resolved rules. Parsing them reads no file
        # (an `extends` line is recorded, not followed) and runs every check.
        from cardrules.dsl import parse as parse_variant

        if not isinstance(rules, str):
            raise SaveError("the save's rules must be variant text")
        try:
            return parse_variant(rules, path="<saved game>")
        except CardrulesError as e:
            raise SaveError(f"the save's rules are not a valid variant: {e}") from None
    # No rules in the save: only a built-in variant is looked up by the save's
    # name (never a file path or a name on the search path the save chooses).
    import cardrules
    from cardrules.dsl import builtin_names

    load = getattr(cardrules, "load", None)
    if load is None or not isinstance(name, str) or name not in builtin_names():
        raise SaveError(
            f"the save holds no rules and {name!r} is not a built-in variant: "
            "pass variant= to Game.from_json"
        )
    try:
        v = load(name)
    except CardrulesError as e:
        raise SaveError(f"the saved game's variant {name!r} cannot be loaded: {e}") from None
    if not isinstance(v, Variant):
        raise SaveError(f"cardrules.load({name!r}) did not return a Variant")
    return v


def _restore(data: object, variant: Variant | None) -> Game:
    from cardrules.engine.game import Game

    _want(isinstance(data, dict), "a saved game is a JSON object")
    assert isinstance(data, dict)
    _want(
        data.get("format") == SAVE_FORMAT,
        f"not a cardrules saved game (format must be {SAVE_FORMAT!r})",
    )
    _want(data.get("version") == SAVE_VERSION, f"unsupported save version {data.get('version')!r}")
    vinfo = data.get("variant")
    _want(
        isinstance(vinfo, dict) and isinstance(vinfo.get("name"), str),
        "the save does not name its variant",
    )
    assert isinstance(vinfo, dict)
    v = _resolve_variant(vinfo["name"], variant, vinfo.get("rules"))
    _want(
        vinfo["name"] == v.name,
        f"the save is a game of {vinfo['name']!r}, not of {v.name!r}",
    )
    try:
        fp = _compile(v).fingerprint
    except VariantError as e:
        raise SaveError(str(e)) from None
    _want(
        vinfo.get("fingerprint") == fp,
        f"the save was made with different rules for {v.name!r} "
        f"(fingerprint {vinfo.get('fingerprint')!r}, these rules have {fp!r})",
    )
    players = data.get("players")
    _want(_is_int(players), "players must be an int")
    assert isinstance(players, int)
    seed = data.get("seed")
    _want(_is_int(seed), "seed must be an int")
    fd = data.get("first_dealer")
    _want(fd is None or _is_int(fd), "first_dealer must be an int or null")
    mt = data.get("max_tricks")
    _want(mt is None or _is_int(mt), "max_tricks must be an int or null")
    decks_raw = data.get("decks", [])
    _want(
        isinstance(decks_raw, list) and all(isinstance(d, list) for d in decks_raw),
        "decks must be a list of card lists",
    )
    reuse = data.get("decks_reuse", False)
    _want(isinstance(reuse, bool), "decks_reuse must be true or false")
    _want(not reuse or len(decks_raw) <= 1, "decks_reuse: the save must hold one deck")
    deck: list[list[Any]] | list[Any] | None = None
    if decks_raw:
        deck = decks_raw[0] if reuse else decks_raw
    deals_raw = data.get("deals")
    _want(isinstance(deals_raw, list) and len(deals_raw) >= 1, "the save has no deals")
    assert isinstance(deals_raw, list)
    actions = data.get("actions")
    _want(isinstance(actions, list), "actions must be a list")
    assert isinstance(actions, list)
    forced: list[tuple[tuple[int, ...], int]] = []
    for i, d in enumerate(deals_raw):
        _want(isinstance(d, dict), f"deal {i + 1} must be an object")
        hands_raw = d.get("hands")
        _want(isinstance(hands_raw, list), f"deal {i + 1}: hands must be a list")
        masks: list[int] = []
        seen = 0
        for s, h in enumerate(hands_raw):
            _want(isinstance(h, list), f"deal {i + 1}: seat {s}'s hand must be a list of cards")
            m = 0
            for x in h:
                _want(isinstance(x, str), f"deal {i + 1}: {x!r} is not a card")
                try:
                    c = int(card(x))
                except CardError as e:
                    raise SaveError(f"deal {i + 1}: {e}") from None
                _want(not (m | seen) >> c & 1, f"deal {i + 1}: {ALL_CARDS[c]} appears twice")
                m |= 1 << c
            seen |= m
            masks.append(m)
        turned_raw = d.get("turned")
        turned = -1
        if turned_raw is not None:
            _want(isinstance(turned_raw, str), f"deal {i + 1}: the turned-up card must be text")
            try:
                turned = int(card(turned_raw))
            except CardError as e:
                raise SaveError(f"deal {i + 1}: {e}") from None
        forced.append((tuple(masks), turned))
    try:
        g = Game(v, players, seed, deck=deck, first_dealer=fd, max_tricks=mt, _forced=forced)
    except SaveError:
        raise
    except CardrulesError as e:
        raise SaveError(f"the saved settings are not valid: {e}") from None
    except ValueError as e:
        raise SaveError(f"the saved settings are not valid: {e}") from None
    _check_deal_meta(g, deals_raw)
    for i, a in enumerate(actions):
        _want(
            isinstance(a, list) and len(a) == 2 and _is_int(a[0]) and _is_int(a[1]),
            f"action {i + 1} must be [seat, action id]",
        )
        seat, aid = a
        try:
            act = Action.from_id(aid)
        except InvalidAction as e:
            raise SaveError(f"action {i + 1}: {e}") from None
        if g.is_over:
            raise SaveError(
                f"action {i + 1} ({act.label} by seat {seat}) comes after the end of the game"
            )
        try:
            g.apply(act, seat=seat)
        except CardrulesError as e:
            raise SaveError(
                f"action {i + 1} ({act.label} by seat {seat}) is not legal: {e}"
            ) from None
        except SaveError:
            raise
    _want(
        g._hand_index + 1 == len(forced),
        f"the save has {len(forced)} deals but its actions reach hand {g._hand_index + 1}",
    )
    _check_deal_meta(g, deals_raw)
    state = data.get("state")
    if state is not None:
        _want(isinstance(state, dict), "state must be an object")
        _want(
            state == g._summary(),
            "the saved summary (scores, hand, turn) does not match the actions",
        )
    return g


def _check_deal_meta(g: Game, deals_raw: list[Any]) -> None:
    dealt = [ev for ev in g._events if ev[0] == "deal"]
    for ev, d in zip(dealt, deals_raw, strict=False):
        if "dealer" in d:
            _want(
                d["dealer"] == ev[2],
                f"deal {ev[1]}: the save says seat {d['dealer']!r} dealt, but it was seat {ev[2]}",
            )
        if "hand" in d:
            _want(d["hand"] == ev[1], f"deal {ev[1]} is numbered {d['hand']!r} in the save")


# --------------------------------------------------------------------------- replaying


def replay(variant: Variant, events: Iterable[Event]) -> Game:
    """Rebuild a game from its log (:attr:`Game.events`).

    The deals are taken from the log and the actions re-applied, so the result
    equals the original game (``replay(v, g.events) == g``). A log redacted
    for one seat cannot be replayed.

    Raises:
        SaveError: if the log is malformed or does not follow the rules.
    """
    from cardrules.engine.game import Game

    try:
        # list[Any], not list[Event]: a compiled build would check each item's type
        # as it reads it (a TypeError), before the checks below.
        evs: list[Any] = list(events)
    except TypeError:
        raise SaveError(f"a log is a list of events, got {type(events).__name__}") from None
    for i, ev in enumerate(evs):
        _want(
            isinstance(ev, tuple | list) and len(ev) >= 1 and isinstance(ev[0], str),
            f"event {i + 1} is not a log entry (a tuple whose first item is its kind): {ev!r}",
        )
        want = _EVENT_LENGTHS.get(ev[0])
        _want(
            want is None or len(ev) == want,
            f"event {i + 1}: a {ev[0]!r} event has {want} items, not {len(ev)}",
        )
    _want(bool(evs) and evs[0][0] == "start", "the log must begin with a start event")
    _, players, seed, fd, mt = evs[0]
    _want(_is_int(seed), "the log has no seed (a log redacted for one seat cannot be replayed)")
    forced: list[tuple[tuple[int, ...], int]] = []
    for ev in evs:
        if ev[0] == "deal":
            hands = ev[4]
            _want(
                isinstance(hands, tuple | list) and all(isinstance(h, CardSet) for h in hands),
                "a deal event must hold every hand",
            )
            forced.append((tuple(h.mask for h in hands), -1))
        elif ev[0] == "trump":
            _want(bool(forced), "a trump event before any deal")
            c = ev[3]
            _want(c is None or isinstance(c, Card), f"a trump event's card must be a Card: {c!r}")
            forced[-1] = (forced[-1][0], -1 if c is None else int(c))
    try:
        g = Game(variant, players, seed, first_dealer=fd, max_tricks=mt, _forced=forced)
    except SaveError:
        raise
    except (CardrulesError, ValueError, TypeError) as e:
        raise SaveError(f"the log's settings are not valid: {e}") from None
    for i, ev in enumerate(evs):
        k = ev[0]
        act: Action
        try:
            if k == "play":
                act = Play(ev[2])
            elif k == "bid":
                act = Bid(ev[2], blind=ev[3])
            elif k == "look":
                act = _LOOK
            elif k == "amend":
                act = Amend(ev[2])
            else:
                continue
        except (CardrulesError, TypeError) as e:
            raise SaveError(f"event {i + 1} ({ev!r}) is not a valid action: {e}") from None
        try:
            g.apply(act, seat=ev[1])
        except CardrulesError as e:
            raise SaveError(
                f"event {i + 1} ({act.label} by seat {ev[1]!r}) is not legal: {e}"
            ) from None
    _want(g.events == evs, "the log does not match the game its actions produce")
    return g
