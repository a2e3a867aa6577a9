"""Saved games and replays: :meth:`Game.to_json`'s text, :meth:`Game.from_json`'s
checks of untrusted saves (shared with :meth:`Match.from_json`), and the checks
of :func:`~cardrules.engine.game.replay` of a log.

This module does not import :mod:`~cardrules.engine.game` (which imports it):
the functions that build a game are given the :class:`Game` class, and the
type is named for the type hints only.

A save records the settings, every deal and every action. Restoring rebuilds the
game from the settings (its seed and any decks deal the cards again) and
re-applies the actions, so the rules check every step; each recorded deal must
be exactly the deal the game made, and the recorded summary must match.
:func:`~cardrules.engine.game.replay` takes the deals from the log instead (a
log records no deck).

Saves are untrusted input, so everything in one is bounded before it is read.
The bounds come from the largest save a game can make: 1,000 scheduled hands and
up to 1,000 tie-break hands (:data:`MAX_SAVE_HANDS`), up to 52 players and a
pack of up to 54 cards (the standard 52 and two jokers), a look and a bid per
seat per hand (:data:`MAX_SAVE_ACTIONS`) and a deck per hand. Such a save is
about 4.3 MB (4.7 MB at most); so:

* a save over :data:`MAX_SAVE_BYTES` (5,000,000 bytes of UTF-8), or holding more
  than :data:`MAX_SAVE_CONTAINERS` lists, objects and fields, is refused unparsed;
* so is one nested deeper than :data:`cardrules.jsontext.MAX_DEPTH` levels or
  holding a number longer than :data:`cardrules.jsontext.MAX_NUMBER` characters;
  ``NaN``, ``Infinity``, a float too large to hold (``1e999``) and text with a
  lone surrogate (``"\\ud800"``) are refused as they are read
  (:func:`cardrules.jsontext.loads`);
* the numbers of decks, deals, hands, cards and actions are checked against what
  the save's own rules allow before any of them is read, and a card's text is
  at most :data:`MAX_CARD_TEXT` characters.

Shedding games (whose cut tricks go back into a hand) and games with bid changes
have no such bound of their own: their saves are held to the same limits. A
game longer than that still plays, but its save cannot be restored.
"""

from __future__ import annotations

import gc
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from cardrules import jsontext
from cardrules.cards import CARDS, ID_LIMIT, MAX_PACKS, Card, CardSet, card, deal_copies
from cardrules.counted import count_range, counted
from cardrules.engine.actions import (
    _BY_ID,
    CONTRACT_END,
    NUM_ACTIONS,
    SPECIAL_ACTION_BASE,
    Action,
    Alone,
    Amend,
    Bid,
    Contract,
    Decline,
    Discard,
    Downtown,
    Keep,
    Look,
    Misere,
    Name,
    OrderUp,
    Pass,
    Play,
    Show,
    Take,
    WithPartner,
    is_action_id,
)
from cardrules.engine.events import TAKE_BACK, Entry, Event, _public
from cardrules.engine.state.compiled_rules import _compile, _Rules
from cardrules.engine.state.deck_order import MAX_CUT_ROUNDS, _deck_of_deal
from cardrules.engine.state.history import MAX_TAKE_BACKS, MAX_TAKEN_BACK_ACTIONS
from cardrules.engine.state.tables import _OVER
from cardrules.engine.views.refusals import _cards_text
from cardrules.errors import CardError, CardrulesError, SaveError, VariantError
from cardrules.jsontext import describe as _show
from cardrules.rules import MAX_REDEALS_IN_A_ROW, MAX_SCHEDULE_HANDS, TakeBacks, Variant

if TYPE_CHECKING:
    from cardrules.engine.game import Game

SAVE_FORMAT: Final = "cardrules.game"
SAVE_VERSION: Final = 1

#: The largest pack: the standard 52 and two jokers.
_PACK: Final = 64
#: The most cards of any game (four standard packs): the longest deck of a save.
_MOST_CARDS: Final = 52 * MAX_PACKS
#: The most seats a game has (one card each from a 52-card pack).
_SEATS: Final = 52
#: The most hands a game deals: 1,000 scheduled hands (the most a variant may
#: schedule) and as many tie-break hands (``tie: extra hands, at most 1000``).
MAX_SAVE_HANDS: Final = 2 * MAX_SCHEDULE_HANDS
#: The most actions a saved game may hold: in each of :data:`MAX_SAVE_HANDS` hands,
#: 52 cards played and a look and a bid by each of 52 seats (312,000). A pack
#: with jokers plays at most 54 cards, but only with 27 seats or fewer (two
#: cards each; 52 seats get one card each): 54 + 2 * 27 actions, fewer.
MAX_SAVE_ACTIONS: Final = MAX_SAVE_HANDS * (_SEATS + 2 * _SEATS)
#: Saves (of games and of matches) longer than this many bytes of UTF-8 are refused
#: unparsed. The largest save a game can make is about 4.7 MB at most: 2,000 deals
#: of 52 cards (1.05 MB; 54 cards with jokers, 1.09 MB), 2,000 decks (0.74 MB;
#: 0.77 MB), 312,000 actions (2.81 MB) and the rules (at most 0.1 MB).
MAX_SAVE_BYTES: Final = 5_000_000
#: Saves holding more ``[``, ``{`` and ``:`` than this are refused unparsed (the
#: largest save a game can make holds about 432,000, and its rules text a few).
MAX_SAVE_CONTAINERS: Final = 450_000
#: The longest text of one card in a save (``to_json`` writes 2 or 3 characters).
MAX_CARD_TEXT: Final = 24
_MAX_SEED: Final = 2**64 - 1

_LOOK: Final = Look()
_TAKE: Final = Take()

#: Each card's text in a save (``str(card)``), by card number.
_TEXT: Final[tuple[str, ...]] = tuple(str(c) for c in CARDS)
#: The card number of each text :data:`_TEXT` holds, so that reading the cards
#: ``to_json`` wrote is one look-up (any other spelling goes through ``card``).
_NUMBER: Final[dict[str, int]] = {t: i for i, t in enumerate(_TEXT)}


#: For each byte of a card mask (cards 8k to 8k + 7) and each value of that
#: byte, the texts of its cards in card order (7 x 256 tuples).
_BYTE_TEXTS: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(
        tuple(_TEXT[8 * k + b] for b in range(8) if p >> b & 1 and 8 * k + b < 64)
        for p in range(256)
    )
    for k in range(8)
)


def _texts(m: int) -> list[str]:
    """The texts of the cards of mask ``m`` (54 bits), in card order (as
    ``CardSet``'s). A mask of several packs gives each copy as its card's text."""
    if m >> 64:
        return [_TEXT[c & 63] for c in sorted(CardSet(m), key=lambda c: (c & 63, c))]
    t = _BYTE_TEXTS
    out = [
        *t[0][m & 255],
        *t[1][m >> 8 & 255],
        *t[2][m >> 16 & 255],
        *t[3][m >> 24 & 255],
        *t[4][m >> 32 & 255],
        *t[5][m >> 40 & 255],
        *t[6][m >> 48 & 255],
    ]
    if m >> 56:
        # The special cards 56-63 (a pack with special cards only).
        out += t[7][m >> 56]
    return out


# --------------------------------------------------------------------------- caches

#: The variants of the rules texts read from saves, most recently used last:
#: (rules text, idle settings) -> the variant that text parses and validates to.
#: Parsing and checking a variant's text is most of the cost of restoring a
#: save, and a process restores many saves of the same few variants. Only texts
#: that passed every check are kept (a refused one is checked again each time),
#: at most :data:`_MAX_CACHED_VARIANTS` of them, each at most
#: :data:`_MAX_CACHED_RULES` characters (a built-in variant's text is 1 to 2 KB).
_VARIANTS: Final[OrderedDict[tuple[str, tuple[str, ...]], Variant]] = OrderedDict()
_MAX_CACHED_VARIANTS: Final = 64
_MAX_CACHED_RULES: Final = 16_384

#: The JSON of the ``"variant"`` part of a save, by variant (by identity, as
#: :func:`~cardrules.engine.state.compiled_rules._compile` caches its rules): the
#: canonical rules text and the idle settings take far longer to work out than
#: the rest of a save. At most :data:`_MAX_CACHED_VARIANTS` are kept.
_WRITTEN: Final[dict[int, tuple[Variant, str]]] = {}


#: Guards both caches (a server may restore and save games in several threads).
_CACHE_LOCK: Final = threading.Lock()


def _clear_variant_cache() -> None:
    """Forget the variants parsed from saves and the variant parts written in
    saves: the next save of each is parsed and checked (or written) again (for
    benchmarks and tests)."""
    with _CACHE_LOCK:
        _VARIANTS.clear()
        _WRITTEN.clear()


#: The number of items of each kind of log entry that replay() reads.
_EVENT_LENGTHS: Final = {
    "start": 5,
    "deal": 5,
    "trump": 4,
    "play": 3,
    "bid": 4,
    "look": 2,
    "amend": 3,
    "knocked out": 3,
    "take": 4,
    "pass": 3,
    "call": 3,
    "take back": 5,
}

# --------------------------------------------------------------------------- saving


def _action_log(events: list[Entry]) -> list[list[int]]:
    """Every action of the log as ``[seat, action id]``."""
    out: list[list[int]] = []
    for ev in events:
        k = ev[0]
        if k == "play":
            out.append([ev[1], Play(ev[2] & 63).id])  # a copy (several packs): its card
        elif k == "bid":
            out.append([ev[1], Bid(ev[2], blind=ev[3]).id])
        elif k == "look":
            out.append([ev[1], _LOOK.id])
        elif k == "amend":
            out.append([ev[1], Amend(ev[2]).id])
        elif k == "take":
            out.append([ev[1], _TAKE.id])
        elif k == "pass":
            out.append([ev[1], Pass(ev[2]).id])
        elif k == "call":
            out.append([ev[1], ev[2].id])
    return out


def _saved_history(g: Game) -> list[dict[str, Any]] | None:
    """The players' take-backs of ``g`` as its save writes them (``None``: none;
    :mod:`~cardrules.engine.state.history`): ``{"seat", "agreed", "kept", "undone"}``
    each, ``kept`` the number of actions the log kept and ``undone`` the
    actions taken back as a flat list ``[seat, action id, seat, action id,
    ...]``, in the order they were made."""
    h = g._history
    if h is None:
        return None
    return [
        {
            "seat": seat,
            "agreed": list(agreed),
            "kept": kept,
            "undone": [x for pair in _action_log(list(taken)) for x in pair],
        }
        for seat, agreed, kept, taken in h.saved
    ]


def _deal_log(events: list[Entry]) -> list[dict[str, Any]]:
    """Every deal of the log that stood: hand number, dealer, the hands and the
    turned-up card (a deal thrown in, ``redeal:``, is dealt again on restore)."""
    out: list[dict[str, Any]] = []
    for ev in events:
        if ev[0] == "deal":
            out.append(
                {
                    "hand": ev[1],
                    "dealer": ev[2],
                    "hands": [_texts(CardSet(h).mask) for h in ev[4]],
                }
            )
        elif ev[0] == "trump":
            out[-1]["turned"] = None if ev[3] is None else _TEXT[ev[3]]
        elif ev[0] == "redeal":
            out.pop()  # a deal thrown in: the seed (or the deck) deals it again
    return out


def _saved_decks(g: Game) -> tuple[list[list[int]], bool]:
    """The decks a save records: the game's own, or, for a game whose first deals
    were given to it (:func:`~cardrules.engine.game.replay`), decks that deal
    exactly those hands (the later hands are shuffled from the seed, as in the
    game itself)."""
    decks = [list(d) for d in g._decks]
    if not g._forced:
        return decks, g._decks_reuse
    r = g._rules
    recorded: list[list[int]] = []
    deal: Entry | None = None
    for ev in g._events:
        if ev[0] == "deal" and ev[1] <= len(g._forced):
            deal = ev
        elif ev[0] == "trump" and deal is not None:
            _, _, dealer, size, hands = deal
            turned = -1 if ev[3] is None else int(ev[3])
            masks = tuple(CardSet(h).mask for h in hands)
            dealt_from = g._order[dealer]
            if r.knockout:  # only the seats still in were dealt to
                dealt_from = tuple(s for s in dealt_from if masks[s])
            recorded.append(_deck_of_deal(r, g._players, dealt_from, size, masks, turned))
            deal = None
    if g._decks_reuse:
        most = len(g._sizes) + (r.max_extra if r.tie_extra else 0)
        return recorded + decks[:1] * (most - len(recorded)), False
    return recorded + decks[len(recorded) :], False


def _variant_json(g: Game) -> str:
    """The JSON text of a save's ``"variant"`` object for ``g``'s variant."""
    v = g._variant
    hit = _WRITTEN.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1]
    text = json.dumps(
        {
            "name": v.name,
            "fingerprint": g._rules.fingerprint,
            "rules": _rules_text(v),
            "idle": _idle_settings(v),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )
    with _CACHE_LOCK:
        if len(_WRITTEN) >= _MAX_CACHED_VARIANTS:
            _WRITTEN.clear()
        _WRITTEN[id(v)] = (v, text)
    return text


def _save_text(g: Game) -> str:
    """:meth:`Game.to_json`."""
    decks, reuse = _saved_decks(g)
    data: dict[str, Any] = {
        "players": g._players,
        "seed": g._seed,
        "first_dealer": g._first_dealer_given,
        "max_tricks": g._max_tricks,
        "decks": [[_TEXT[c & 63] for c in d] for d in decks],
        "decks_reuse": reuse,
        "deals": _deal_log(g._events),
        "actions": _action_log(g._events),
        "state": g._summary(),
    }
    taken_back = _saved_history(g)
    if taken_back is not None:
        # The players' take-backs (engine/state/history.py): restoring makes them again.
        data["taken_back"] = taken_back
    if g._draws:
        # Draws given to the game (a record without its seed): the seed alone
        # would draw other cards.
        data["draws"] = [_TEXT[c] for c in g._draws]
    if g._cuts:
        # A cut for the first deal given to the game (a world sampled for one
        # seat keeps the cut it saw): the seed alone would cut other cards.
        data["cuts"] = [[[s, _TEXT[int(c)]] for s, c in cut] for cut in g._cuts]
    if g._take_backs is not None:
        # The table's take-back policy (only when it overrides the variant's).
        data["take_backs"] = g._take_backs.value
    if g._retracted:
        # Who made actions players have taken back, after how many actions.
        data["retracted"] = [[m, list(seats)] for m, seats in g._retracted]
    if g._request is not None:
        # A take-back request waiting for answers (only when there is one).
        data["take_back_request"] = g._request.to_dict()
    # check_circular=False: the object is made here, of new lists (no cycle can
    # be in it); the text is the same, without a look-up per list.
    rest = json.dumps(data, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    # The same text as json.dumps of the whole object, its "variant" part cached.
    return (
        f'{{"format":{json.dumps(SAVE_FORMAT)},"version":{SAVE_VERSION},'
        f'"variant":{_variant_json(g)},{rest[1:]}'
    )


def _idle_settings(v: Variant) -> list[str]:
    """The settings whose lines change nothing in this game but were only warnings
    when it was loaded (inherited ones): the saved rules text states every setting
    as the variant's own, so restoring it checks these lines as warnings too.

    Every setting is let through as a warning while they are found, so that a
    variant read back from such a text (whose lines are all its own) names the
    same settings again, and its own save or record restores too."""
    from cardrules.dsl.syntax_errors import SETTING_NAMES
    from cardrules.dsl.validate import check_warnings

    try:
        return sorted({w.setting for w in check_warnings(v, warn_only=SETTING_NAMES)})
    except CardrulesError:
        return []


def _rules_text(v: Variant) -> str | None:
    """The resolved rules as canonical variant text, so that a save of a game
    played with options or a house-rule file restores without that file."""
    from cardrules.dsl import format as format_variant

    if v.story or v.tips or v.choices:
        # Presentation, not rules: a save carries what plays, not the story.
        v = v.evolve(story=(), tips=(), choices=())
    try:
        return format_variant(v)
    except CardrulesError:
        return None  # a hand-built config no file can describe: from_json needs variant=


# --------------------------------------------------------------------------- reading a save


def _want(cond: bool, msg: str, code: str = "bad_save") -> None:
    if not cond:
        raise SaveError(msg, code=code)


def _is_int(x: object) -> bool:
    return type(x) is int


def _containers(text: str) -> int:
    """How many lists, objects and fields JSON text can hold at most (its ``[``,
    ``{`` and ``:``, counted without parsing)."""
    return text.count("[") + text.count("{") + text.count(":")


def _read_json(text: object, what: str) -> dict[str, Any]:
    """The JSON object of a save (``what``: ``"saved game"`` or ``"saved match"``):
    ``str`` or UTF-8 ``bytes``, a byte-order mark allowed, at most
    :data:`MAX_SAVE_BYTES` bytes and :data:`MAX_SAVE_CONTAINERS` containers, both
    checked before the JSON is parsed."""
    limit = f"at most {MAX_SAVE_BYTES:,} bytes"
    if isinstance(text, bytes | bytearray):
        _want(
            len(text) <= MAX_SAVE_BYTES,
            f"{what} is too large ({len(text):,} bytes; {limit})",
            "save_too_large",
        )
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SaveError(f"{what} is not UTF-8 text: {e}") from None
    elif isinstance(text, str):
        _want(
            len(text) <= MAX_SAVE_BYTES,
            f"{what} is too large ({len(text):,} characters; {limit})",
            "save_too_large",
        )
        if len(text) * 4 > MAX_SAVE_BYTES:  # only then can the UTF-8 be too long
            size = len(text.encode("utf-8", "surrogatepass"))
            _want(
                size <= MAX_SAVE_BYTES,
                f"{what} is too large ({size:,} bytes; {limit})",
                "save_too_large",
            )
    else:
        raise SaveError(f"a {what} is JSON text (str or bytes), not {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    count = _containers(text)
    _want(
        count <= MAX_SAVE_CONTAINERS,
        f"{what} is too large: it holds {count:,} lists, objects and fields "
        f"(a save holds at most {MAX_SAVE_CONTAINERS:,})",
        "save_too_large",
    )
    # The parse makes up to MAX_SAVE_CONTAINERS lists and dicts and no cycles: the
    # cyclic collector is paused for it, or it would walk the whole heap of a busy
    # process several times over (a 100,000-action save: 20 ms alone, 110 ms in a
    # process holding much else).
    collecting = gc.isenabled()
    gc.disable()
    try:
        data = jsontext.loads(text)
    except jsontext.BadJSON as e:
        what_is_wrong = "valid JSON" if e.reason == "syntax" else "a save cardrules reads"
        raise SaveError(f"{what} is not {what_is_wrong}: {str(e)[:200]}") from None
    finally:
        if collecting:
            gc.enable()
    _want(isinstance(data, dict), f"a {what} is a JSON object, not {_show(data)}")
    assert isinstance(data, dict)
    return data


def _resolve_variant(
    name: object, variant: Variant | None, rules: object = None, idle: object = None
) -> Variant:
    if variant is not None:
        if not isinstance(variant, Variant):
            raise SaveError(f"variant must be a Variant, got {type(variant).__name__}")
        return variant
    if rules is not None:
        return _variant_of_rules(rules, idle)
    # No rules in the save: only a built-in variant is looked up by the save's
    # name (never a file path or a name on the search path the save chooses),
    # with cardrules.dsl.load (which is cardrules.load: the package itself is not
    # imported here, as it imports the engine).
    from cardrules.dsl import builtin_names, load

    if not isinstance(name, str) or name not in builtin_names():
        raise SaveError(
            f"the save holds no rules and {_show(name)} is not a built-in variant: "
            "pass variant= to Game.from_json"
        )
    try:
        return load(name)
    except CardrulesError as e:
        raise SaveError(f"the saved game's variant {name!r} cannot be loaded: {e}") from None


def _variant_of_rules(rules: object, idle: object) -> Variant:
    """The variant of a save's own resolved rules (``idle``: the settings that
    change nothing, warnings when it was played), cached by text."""
    # The save carries its own resolved rules. They go through every check of
    # load_text: the syntax and limits (parse) and the semantic checks
    # (validate), also when the text has an `extends` line, which is recorded,
    # never followed (the text states every setting; no file is read).
    if not isinstance(rules, str):
        raise SaveError("the save's rules must be variant text")
    if idle is None:
        idle = []
    if type(idle) is list and all(type(k) is str for k in idle):
        # A text and idle list kept here passed every check below before.
        key = (rules, tuple(idle))
        with _CACHE_LOCK:
            hit = _VARIANTS.get(key)
            if hit is not None:
                _VARIANTS.move_to_end(key)
        if hit is not None:
            return hit
    from cardrules.dsl import parse as parse_variant
    from cardrules.dsl import validate
    from cardrules.dsl.syntax_errors import SETTING_NAMES

    _want(
        isinstance(idle, list)
        and len(idle) <= len(SETTING_NAMES)
        and all(isinstance(k, str) and k in SETTING_NAMES for k in idle),
        "the save's idle settings must be a list of setting names",
    )
    assert isinstance(idle, list)
    key = (rules, tuple(idle))
    try:
        v = parse_variant(rules, path="<saved game>", validate=False)
        # Lines that change nothing cannot change play: those the save lists
        # (inherited when it was played) are warnings, as they were then.
        validate(v, warn_only=idle)
    except CardrulesError as e:
        raise SaveError(f"the save's rules are not a valid variant: {e}") from None
    if len(rules) <= _MAX_CACHED_RULES:
        with _CACHE_LOCK:
            _VARIANTS[key] = v
            if len(_VARIANTS) > _MAX_CACHED_VARIANTS:
                _VARIANTS.popitem(last=False)
    return v


def _save_variant(data: dict[str, Any], variant: Variant | None, label: str = "") -> Variant:
    """The variant of a game save: its format and version checked, its rules
    resolved (or ``variant``), and its name and fingerprint matching them."""
    _want(
        data.get("format") == SAVE_FORMAT,
        f"{label}not a cardrules saved game (format must be {SAVE_FORMAT!r})",
    )
    version = data.get("version")
    _want(
        _is_int(version) and version == SAVE_VERSION,
        f"{label}unsupported save version {_show(version)}",
    )
    vinfo = data.get("variant")
    _want(
        isinstance(vinfo, dict) and isinstance(vinfo.get("name"), str),
        f"{label}the save does not name its variant",
    )
    assert isinstance(vinfo, dict)
    name = vinfo["name"]
    v = _resolve_variant(name, variant, vinfo.get("rules"), vinfo.get("idle"))
    _want(
        name == v.name,
        f"{label}the save is a game of {_show(name)}, not of {v.name!r}",
        "save_variant_mismatch",
    )
    try:
        fp = _compile(v).fingerprint
    except VariantError as e:
        raise SaveError(f"{label}{e}") from None
    _want(
        vinfo.get("fingerprint") == fp,
        f"{label}the save was made with different rules for {v.name!r} "
        f"(fingerprint {_show(vinfo.get('fingerprint'))}, these rules have {fp!r})",
        "save_variant_mismatch",
    )
    return v


def _saved_take_backs(data: dict[str, Any]) -> TakeBacks | None:
    """A save's table take-back policy (``None``: the variant's), checked."""
    value = data.get("take_backs")
    if value is None:
        return None
    for p in TakeBacks:
        if value == p.value:
            return p
    choices = ", ".join(repr(p.value) for p in TakeBacks)
    raise SaveError(f"take_backs must be one of {choices} or absent, not {_show(value)}")


def _saved_request(g: Game, data: dict[str, Any]) -> None:
    """Put the save's record of the players' take-backs and its pending
    take-back request, if any, in the restored game ``g``: the request must be
    the one its seat would make now (the same actions and seats asked), some
    of them agreed."""
    from cardrules.engine.state.undo import _check_request, _check_retracted
    from cardrules.engine.views.jsonform import decoder_of
    from cardrules.engine.views.view import TakeBackRequest

    retracted = data.get("retracted")
    if retracted is not None:
        _want(
            type(retracted) is list and len(retracted) <= MAX_SAVE_ACTIONS,
            f"retracted must be a list of at most {MAX_SAVE_ACTIONS:,} items",
        )
        read: list[tuple[int, tuple[int, ...]]] = []
        for item in retracted:
            _want(
                type(item) is list
                and len(item) == 2
                and _is_int(item[0])
                and type(item[1]) is list
                and len(item[1]) <= g._players
                and all(_is_int(x) for x in item[1]),
                "retracted: each item is [a count of actions, [seats]]",
            )
            read.append((item[0], tuple(item[1])))
        why = _check_retracted(g, read)
        _want(why is None, f"retracted: {why}")
        g._retracted = read
    value = data.get("take_back_request")
    if value is None:
        return

    try:
        request = decoder_of(TakeBackRequest)(value, "take_back_request")
    except SaveError as e:
        raise SaveError(f"the saved take-back request is not valid: {e}") from None
    _want(
        request.seat < g._players,
        f"take_back_request: seat {request.seat} in a game of {g._players} players",
    )
    why = _check_request(g, request)
    _want(why is None, f"the saved take-back request is not one the game can have: {why}")
    g._request = request


def _settings(data: dict[str, Any], label: str = "") -> tuple[int, int, int | None, int | None]:
    """A save's players, seed, first dealer and trick bound, each checked by type
    (``true`` and ``2.0`` are not ints) and the seed by range."""
    players = data.get("players")
    seed = data.get("seed")
    fd = data.get("first_dealer")
    mt = data.get("max_tricks")
    if type(players) is not int:
        raise SaveError(f"{label}players must be an int, not {_show(players)}")
    if type(seed) is not int or not 0 <= seed <= _MAX_SEED:
        raise SaveError(f"{label}the seed must be an int from 0 to 2**64 - 1, not {_show(seed)}")
    if fd is not None and type(fd) is not int:
        raise SaveError(f"{label}first_dealer must be an int or null, not {_show(fd)}")
    if mt is not None and type(mt) is not int:
        raise SaveError(f"{label}max_tricks must be an int or null, not {_show(mt)}")
    return players, seed, fd, mt


def _most_hands(v: Variant, players: int, label: str = "") -> tuple[_Rules, int]:
    """The compiled rules and the most hands a game of ``players`` deals (the
    schedule's and the tie-break hands), ``players`` checked against the rules."""
    try:
        r = _compile(v)
    except VariantError as e:
        raise SaveError(f"{label}{e}") from None
    allowed = v.players
    _want(
        players in allowed,
        f"{label}{v.name} is for {count_range(allowed.min, allowed.max, 'player')}, "
        f"not {_show(players)}",
    )
    try:
        r = r.for_players(players)  # the pack of this number of players
        sizes = r.geometry(players)[0]
    except (VariantError, ValueError) as e:
        raise SaveError(f"{label}the saved settings are not valid: {e}") from None
    return r, len(sizes) + (r.max_extra if r.tie_extra else 0)


def _saved_deck(
    data: dict[str, Any], most: int, label: str = ""
) -> list[list[str]] | list[str] | None:
    """The ``deck=`` of a save (one order, or one per hand), its counts checked
    against the hands the game deals before any card is read."""
    decks = data.get("decks", [])
    _want(isinstance(decks, list), f"{label}decks must be a list of card lists")
    assert isinstance(decks, list)
    reuse = data.get("decks_reuse", False)
    _want(isinstance(reuse, bool), f"{label}decks_reuse must be true or false")
    _want(not reuse or len(decks) <= 1, f"{label}decks_reuse: the save must hold one deck")
    _want(
        len(decks) <= most,
        f"{label}{len(decks)} decks given, but this game deals at most {most} hands",
    )
    for i, d in enumerate(decks):
        if not isinstance(d, list) or len(d) > _MOST_CARDS:
            raise SaveError(
                f"{label}deck {i + 1} must be a list of at most {_MOST_CARDS} cards, not {_show(d)}"
            )
        for x in d:
            if not isinstance(x, str) or len(x) > MAX_CARD_TEXT:
                raise SaveError(f"{label}deck {i + 1}: {_show(x)} is not a card")
    if not decks:
        return None
    return decks[0] if reuse else decks


def _saved_draws(data: dict[str, Any], most: int, label: str = "") -> tuple[int, ...]:
    """The draws of dead cards a save gives its game (at most one per action)."""
    draws = data.get("draws", [])
    _want(isinstance(draws, list), f"{label}draws must be a list of cards")
    assert isinstance(draws, list)
    _want(len(draws) <= most, f"{label}the save has more draws ({len(draws):,}) than actions")
    out: list[int] = []
    for x in draws:
        if not isinstance(x, str) or len(x) > MAX_CARD_TEXT:
            raise SaveError(f"{label}draws: {_show(x)} is not a card")
        try:
            out.append(int(card(x)))
        except CardError:
            raise SaveError(f"{label}draws: {_show(x)} is not a card") from None
    return tuple(out)


def _saved_cuts(
    data: dict[str, Any], players: int, label: str = ""
) -> tuple[tuple[tuple[int, Card], ...], ...]:
    """The rounds of a cut for the first deal a save gives its game (checked
    against the rules when the game is made: dealing._given_cut)."""
    cuts = data.get("cuts", [])
    _want(isinstance(cuts, list), f"{label}cuts must be a list of rounds")
    assert isinstance(cuts, list)
    _want(
        len(cuts) <= MAX_CUT_ROUNDS,
        f"{label}the save has {len(cuts):,} rounds of cutting (at most {MAX_CUT_ROUNDS})",
    )
    out: list[tuple[tuple[int, Card], ...]] = []
    for k, raw in enumerate(cuts):
        where = f"{label}cuts: round {k + 1}"
        _want(
            isinstance(raw, list) and 1 <= len(raw) <= players,
            f"{where} must be a list of at most {players} [seat, card] pairs",
        )
        pairs: list[tuple[int, Card]] = []
        for x in raw:
            _want(
                isinstance(x, list) and len(x) == 2 and _is_int(x[0]) and isinstance(x[1], str),
                f"{where}: {_show(x)} is not a [seat, card] pair",
            )
            pairs.append((x[0], CARDS[_card_of(x[1], where)]))
        out.append(tuple(pairs))
    return tuple(out)


def _most_actions(r: _Rules, players: int, hands: int, max_tricks: int | None) -> int:
    """The most actions ``hands`` hands of a game can hold: every card played once
    and a look and a bid per seat (and the cards each seat passes, in games that
    pass cards), in a trick-taking game without bid changes;
    ``max_tricks`` tricks of ``players`` cards in a shedding game; at most
    :data:`MAX_SAVE_ACTIONS` in any game."""
    most = MAX_SAVE_ACTIONS
    if r.tricks_mode and not r.amend:
        per_hand = len(r.pack)
        if r.bid_style:
            per_hand += players * (2 if r.blind else 1)
        if r.auction_rounds:
            # Round and round: each bid above the last, every one of them at most once.
            per_hand += len(r.contracts) if r.contracts else r.bid_range(len(r.pack))[1] + 1
        if r.passing:
            per_hand += players * r.pass_count
        if r.trump_namer:
            # Two rounds of calls and a discard at most (order-up).
            per_hand += 2 * players + 1
        if r.redeal_may:
            # Each seat keeps or shows, for every deal of the hand (those thrown in too).
            per_hand += players * (MAX_REDEALS_IN_A_ROW + 1)
        most = min(most, hands * per_hand)
    elif not r.tricks_mode and max_tricks is not None:
        passes = hands * players * r.pass_count if r.passing else 0
        most = min(most, max_tricks * players + passes)
    return most


def _saved_lists(
    data: dict[str, Any], r: _Rules, players: int, most_hands: int, label: str = ""
) -> tuple[list[Any], list[Any]]:
    """A save's deals and actions, their counts checked against the rules before
    either is read."""
    deals = data.get("deals")
    _want(isinstance(deals, list) and len(deals) >= 1, f"{label}the save has no deals")
    assert isinstance(deals, list)
    _want(
        len(deals) <= most_hands,
        f"{label}the save has {len(deals):,} deals, but this game deals at most {most_hands} hands",
    )
    actions = data.get("actions")
    _want(isinstance(actions, list), f"{label}actions must be a list")
    assert isinstance(actions, list)
    most = _most_actions(r, players, len(deals), data.get("max_tricks"))
    hands = f"{len(deals):,} {'hand' if len(deals) == 1 else 'hands'}"
    _want(
        len(actions) <= most,
        f"{label}the save has {len(actions):,} actions, but this game allows at most "
        f"{most:,} in {hands}",
    )
    return deals, actions


def _card_of(x: object, where: str) -> int:
    """A card of a save; ``where`` says where, for the message."""
    if not isinstance(x, str) or len(x) > MAX_CARD_TEXT:
        raise SaveError(f"{where}: {_show(x)} is not a card")
    try:
        return int(card(x))
    except CardError as e:
        raise SaveError(f"{where}: {e}") from None


def _check_saved_deal(g: Game, raw: object, hn: int, label: str) -> None:
    """The save's record of hand ``hn`` must be exactly the deal the game made
    (from its deck, or shuffled from its seed): else SaveError naming the deal
    and the seat."""
    dealer, dealt, turned = _made_deal(g, hn)
    idx = hn - 1
    by_deck = bool(g._decks) and (g._decks_reuse or idx < len(g._decks))
    source = "the save's deck" if by_deck else "the seed"
    where = f"{label}deal {hn}"
    _want(isinstance(raw, dict), f"{where} must be an object")
    assert isinstance(raw, dict)
    hands = raw.get("hands")
    _want(isinstance(hands, list), f"{where}: hands must be a list")
    assert isinstance(hands, list)
    n = len(dealt)
    _want(len(hands) == n, f"{where}: {len(hands):,} hands for {n} players")
    seen = 0
    for s, h in enumerate(hands):
        m = _saved_hand(h, s, seen, where, g._rules.copies)
        seen |= m
        want = CardSet(dealt[s]).mask
        # Several packs: which copy a seat was dealt is never saved; the cards
        # and their counts must be the deal's.
        if (m >> 64 or want >> 64) and sorted(c & 63 for c in CardSet(m)) == sorted(
            c & 63 for c in CardSet(want)
        ):
            continue
        if m != want:
            k, w = m.bit_count(), want.bit_count()
            _want(
                k == w, f"{where}: seat {s} was dealt {counted(k, 'card')}, but this hand deals {w}"
            )
            raise SaveError(
                f"{where}: seat {s} holds {_cards_text(m & ~want)} where {source} "
                f"deals it {_cards_text(want & ~m)}"
            )
    t_raw = raw.get("turned")
    t = -1 if t_raw is None else _card_of(t_raw, f"{where}: the turned-up card")
    if t != turned:
        shown = "no card" if t < 0 else str(CARDS[t])
        real = "no card" if turned < 0 else str(CARDS[turned])
        raise SaveError(f"{where}: the save turns up {shown} where {source} turns up {real}")
    _check_saved_numbers(raw, dealer, hn, where)


def _made_deal(g: Game, hn: int) -> tuple[int, Any, int]:
    """The dealer, the hands and the turned-up card (-1: none) of the deal of
    hand ``hn`` the game made (the last deal of its log)."""
    deal: Entry | None = None
    turned = -1
    for ev in reversed(g._events):  # the deal is among the last few events
        if ev[0] == "trump" and ev[1] == hn:
            turned = -1 if ev[3] is None else int(ev[3])
        elif ev[0] == "deal" and ev[1] == hn:
            deal = ev
            break
    assert deal is not None
    _, _, dealer, _, dealt = deal
    return dealer, dealt, turned


def _saved_hand(h: object, s: int, seen: int, where: str, copies: bool) -> int:
    """The mask of seat ``s``'s hand in a save's deal (``seen``: the cards of
    the seats before it, which it may not hold again; ``copies``: a game of
    several packs, where a card written again is its next copy)."""
    if not isinstance(h, list):
        raise SaveError(f"{where}: seat {s}'s hand must be a list of cards")
    if len(h) > _PACK:
        raise SaveError(f"{where}: seat {s} holds {len(h):,} cards (a pack has {_PACK})")
    m = 0
    for x in h:
        if type(x) is not str:
            c = _card_of(x, f"{where}: seat {s}")
        else:
            hit = _NUMBER.get(x)
            if hit is not None:
                c = hit
            elif len(x) <= MAX_CARD_TEXT:
                try:
                    c = int(card(x))
                except CardError as e:
                    raise SaveError(f"{where}: seat {s}: {e}") from None
            else:
                c = _card_of(x, f"{where}: seat {s}")
        while copies and (m | seen) >> c & 1 and c + 64 < ID_LIMIT and c & 63 < 52:
            # Several packs: a card written again is its next copy (a joker or a
            # special card has none).
            c += 64
        if (m | seen) >> c & 1:
            raise SaveError(f"{where}: {CARDS[c & 63]} appears twice")
        m |= 1 << c
    return m


def _check_saved_numbers(raw: dict[str, Any], dealer: int, hn: int, where: str) -> None:
    """A save's deal, if it says who dealt and which hand it is, must say the
    game's."""
    if "dealer" in raw:
        d = raw["dealer"]
        _want(
            _is_int(d) and d == dealer,
            f"{where}: the save says seat {_show(d)} dealt, but it was seat {dealer}",
        )
    if "hand" in raw:
        _want(
            _is_int(raw["hand"]) and raw["hand"] == hn,
            f"{where} is numbered {_show(raw['hand'])} in the save",
        )


def _replay_into(
    g: Game,
    deals: list[Any],
    actions: list[Any],
    apply: Callable[[Action, int], None],
    label: str = "",
) -> None:
    """Re-apply a save's actions to ``g`` (through ``apply``: the game's own, or
    its match's), checking each hand's recorded deal as it is dealt."""
    n = g._players
    # A deal its seats may still show (``redeal: ... may be shown``) is checked
    # when its hand is over, and the last one at the end: the deal a save lists
    # for a hand is the one that stood.
    later = g._rules.redeal_may
    if not later:
        _check_saved_deal(g, deals[0], g._hand_index + 1, label)
    reached = g._hand_index
    by_id = _BY_ID
    for i, a in enumerate(actions, 1):
        if type(a) is not list or len(a) != 2:
            raise SaveError(f"{label}action {i} must be [seat, action id]")
        seat, aid = a
        if type(seat) is not int or type(aid) is not int:
            raise SaveError(f"{label}action {i} must be [seat, action id]")
        if not 0 <= aid < NUM_ACTIONS:
            if not is_action_id(aid):
                raise SaveError(
                    f"{label}action {i}: {_show(aid)} is not an action id (0 to {NUM_ACTIONS - 1},"
                    f" or a special card's or a contract bid's, {SPECIAL_ACTION_BASE} to "
                    f"{CONTRACT_END - 1})"
                )
            act = Action.from_id(aid)
        else:
            act = by_id[aid]
        if not 0 <= seat < n:
            raise SaveError(f"{label}action {i}: {_show(seat)} is not a seat of this game")
        if g._phase == _OVER:
            raise SaveError(
                f"{label}action {i} ({act.label} by seat {seat}) comes after the end of the game",
                code="save_illegal_action",
                data={"action": act.label, "seat": seat, "index": i},
            )
        try:
            apply(act, seat)
        except SaveError:
            raise
        except CardrulesError as e:
            raise SaveError(
                f"{label}action {i} ({act.label} by seat {seat}) is not legal: {e}",
                code="save_illegal_action",
                data={"action": act.label, "seat": seat, "index": i, "refusal": e.code},
            ) from None
        if g._hand_index != reached:
            if later:
                _check_saved_deal(g, deals[reached], reached + 1, label)
            reached = g._hand_index
            _want(
                reached < len(deals),
                f"{label}the actions reach hand {reached + 1}, but the save has only "
                f"{len(deals)} {'deal' if len(deals) == 1 else 'deals'}",
            )
            if not later:
                _check_saved_deal(g, deals[reached], reached + 1, label)
    if later and reached < len(deals):
        _check_saved_deal(g, deals[reached], reached + 1, label)
    _want(
        reached + 1 == len(deals),
        f"{label}the save has {len(deals)} deals but its actions reach hand {reached + 1}",
    )


def _same(a: object, b: object) -> bool:
    """JSON equality that tells ints from floats and bools (``1.0`` and ``true``
    are not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _check_state(g: Game, data: dict[str, Any], label: str = "") -> None:
    state = data.get("state")
    if state is not None:
        _want(isinstance(state, dict), f"{label}state must be an object")
        _want(
            _same(state, g._summary()),
            f"{label}the saved summary (scores, hand, turn) does not match the actions",
        )


# --------------------------------------------------------------------------- restoring


def _load_text(text: object, variant: Variant | None, game: type[Game]) -> Game:
    """:meth:`Game.from_json`: the save ``text`` restored as a ``game``."""
    return _restore(_read_json(text, "saved game"), variant, game)


def _restore(data: dict[str, Any], variant: Variant | None, game: type[Game]) -> Game:
    """The game of a save's JSON object, built with the class ``game`` and every
    recorded action re-applied (SaveError for anything wrong)."""
    v = _save_variant(data, variant)
    players, seed, fd, mt = _settings(data)
    r, most = _most_hands(v, players)
    deck = _saved_deck(data, most)
    deals, actions = _saved_lists(data, r, players, most)
    draws = _saved_draws(data, len(actions))
    take_backs = _saved_take_backs(data)
    cuts = _saved_cuts(data, players)
    try:
        g = game(
            v,
            players,
            seed,
            deck=deck,
            first_dealer=fd,
            max_tricks=mt,
            take_backs=take_backs,
            _draws=draws,
            _cuts=cuts,
        )
    except SaveError:
        raise
    except (CardrulesError, ValueError) as e:
        raise SaveError(f"the saved settings are not valid: {e}") from None
    _replay_into(g, deals, actions, g.apply)
    _check_state(g, data)
    if "taken_back" in data:
        g = _with_history(g, data["taken_back"], actions, game)
    _saved_request(g, data)
    return g


def _saved_take_back(
    x: object, i: int, players: int
) -> tuple[int, tuple[int, ...], int, list[Any]]:
    """One take-back of a save's ``taken_back`` list, its types and seats checked."""
    where = f"taken_back[{i}]"
    _want(
        isinstance(x, dict) and set(x) == {"seat", "agreed", "kept", "undone"},
        f"{where} must be an object with seat, agreed, kept and undone",
    )
    assert isinstance(x, dict)
    seat, agreed, kept, undone = x["seat"], x["agreed"], x["kept"], x["undone"]
    _want(_is_int(seat) and 0 <= seat < players, f"{where}: {_show(seat)} is not a seat")
    _want(
        isinstance(agreed, list)
        and len(agreed) < players
        and all(_is_int(a) and 0 <= a < players for a in agreed),
        f"{where}: agreed must be a list of seats",
    )
    _want(_is_int(kept) and kept >= 0, f"{where}: kept must be an int from 0")
    _want(
        isinstance(undone, list)
        and 2 <= len(undone) <= 2 * MAX_TAKEN_BACK_ACTIONS
        and len(undone) % 2 == 0
        and all(_is_int(a) for a in undone),
        f"{where}: undone must be a list [seat, action id, ...] of at least one action",
    )
    assert isinstance(undone, list)
    return seat, tuple(agreed), kept, [undone[k : k + 2] for k in range(0, len(undone), 2)]


def _with_history(g: Game, raw: object, actions: list[Any], game: type[Game]) -> Game:
    """The game ``g`` restored with the take-backs of its save (``raw``, its
    ``taken_back`` list): a game made again from the same settings, in which
    the actions and the take-backs are made in the order they were, must
    reach ``g``'s log."""
    from cardrules.engine.state.undo import _take_back_span

    _want(
        isinstance(raw, list) and 1 <= len(raw) <= MAX_TAKE_BACKS,
        f"taken_back must be a list of 1 to {MAX_TAKE_BACKS:,} take-backs",
    )
    assert isinstance(raw, list)
    items = [_saved_take_back(x, i, g._players) for i, x in enumerate(raw)]
    _want(
        sum(len(undone) for _, _, _, undone in items) <= MAX_TAKEN_BACK_ACTIONS,
        f"the save takes back more than {MAX_TAKEN_BACK_ACTIONS:,} actions",
    )
    # The line of play before each take-back, from the last one back: the line
    # after take-back t is the first ``kept`` actions of the line before the next.
    lines: list[list[Any]] = []
    after = actions
    # (A slice, not reversed(): mypyc 2.4 fails on reversed() of a list of tuples.)
    for _seat, _agreed, kept, undone in items[::-1]:
        _want(kept <= len(after), "taken_back: a take-back keeps more actions than were made")
        before = after[:kept] + undone
        lines.append(before)
        after = before
    lines.reverse()
    h = game(
        g._variant,
        g._players,
        g._seed,
        deck=_decks_arg(g),
        first_dealer=g._first_dealer_given,
        max_tricks=g._max_tricks,
        take_backs=g._take_backs,
        _draws=g._draws,
        _cuts=g._cuts,
    )
    done = 0  # the actions of the line so far
    for (seat, agreed, kept, undone), line in zip(items, lines, strict=True):
        _apply_saved(h, line[done:], done)
        try:
            _take_back_span(h, seat, len(undone), agreed)
        except CardrulesError as e:
            raise SaveError(f"taken_back: {e}") from None
        done = kept
    _apply_saved(h, actions[done:], done)
    _want(h._events == g._events, "the save's take-backs do not lead to its actions")
    return h


def _decks_arg(g: Game) -> Any:
    """The ``deck`` argument that makes ``g``'s decks again."""
    if not g._decks:
        return None
    if g._decks_reuse:
        return list(g._decks[0])
    return [list(d) for d in g._decks]


def _apply_saved(g: Game, actions: list[Any], done: int) -> None:
    """Apply a save's ``[seat, action id]`` pairs (checked) to ``g``."""
    for i, a in enumerate(actions, done + 1):
        if type(a) is not list or len(a) != 2 or not all(_is_int(x) for x in a):
            raise SaveError(f"taken_back: action {i} must be [seat, action id]")
        seat, aid = a
        if not is_action_id(aid) or not 0 <= seat < g._players:
            raise SaveError(f"taken_back: action {i} is not [seat, action id]")
        act = Action.from_id(aid)
        try:
            g.apply(act, seat)
        except CardrulesError as e:
            raise SaveError(
                f"taken_back: action {i} ({act.label} by seat {seat}) is not legal: {e}",
                code="save_illegal_action",
                data={"action": act.label, "seat": seat, "index": i},
            ) from None


# --------------------------------------------------------------------------- replaying


def _replay(variant: Variant, events: Iterable[Event | Entry], game: type[Game]) -> Game:
    """:func:`~cardrules.engine.game.replay`: the game of a log, built with the
    class ``game`` from the log's deals, its actions re-applied.

    Raises:
        SaveError: if the log is malformed or does not follow the rules.
    """
    evs = _log_entries(events)
    seed = evs[0][2]  # (a start entry has its length: kind, players, seed, dealer, tricks)
    _want(_is_int(seed), "the log has no seed (a log redacted for one seat cannot be replayed)")
    forced, draws = _log_deals(evs, variant.deck.packs > 1)
    g = _log_game(variant, evs, game, forced, draws)
    for i, ev in enumerate(evs):
        act = _log_action(g, ev, i)
        if act is None:
            continue
        try:
            g.apply(act, seat=ev[1])
        except CardrulesError as e:
            raise SaveError(
                f"event {i + 1} ({act.label} by seat {ev[1]!r}) is not legal: {e}",
                code="save_illegal_action",
                data={"action": act.label, "index": i + 1, "refusal": e.code},
            ) from None
    made = (
        [_public(ev) for ev in g._events]
        if g._history is None
        else [ev.astuple() for ev in g.events]
    )
    _want(made == evs, "the log does not match the game its actions produce")
    return g


def _log_entries(events: Iterable[Event | Entry]) -> list[Any]:
    """The entries of a log given to replay, in their tuple form, each checked
    to be an entry of its kind's length, the first a start event."""
    try:
        # list[Any], not list[Entry]: a compiled build would check each item's type
        # as it reads it (a TypeError), before the checks below.
        evs: list[Any] = list(events)
    except TypeError:
        raise SaveError(f"a log is a list of events, got {type(events).__name__}") from None
    # Typed records (Game.events) are read in their tuple form.
    evs = [ev.astuple() if isinstance(ev, Event) else ev for ev in evs]
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
    return evs


def _log_deals(
    evs: list[Any], copies: bool = False
) -> tuple[list[tuple[tuple[int, ...], int]], list[int]]:
    """The deals of a log (each hand's masks and turned-up card, -1: none) and
    the cards drawn, as the game is told them (``copies``: a game of several
    packs, whose logged hands number each card's copies from 0)."""
    forced: list[tuple[tuple[int, ...], int]] = []
    draws: list[int] = []
    for ev in evs:
        if ev[0] == "draw":
            c = ev[2] if len(ev) == 3 else None
            _want(isinstance(c, Card), f"a draw event's card must be a Card: {c!r}")
            assert isinstance(c, Card)
            draws.append(int(c))
        elif ev[0] == "deal":
            hands = ev[4]
            _want(
                isinstance(hands, tuple | list) and all(isinstance(h, CardSet) for h in hands),
                "a deal event must hold every hand",
            )
            masks = tuple(h.mask for h in hands)
            forced.append((deal_copies(masks) if copies else masks, -1))
        elif ev[0] == "trump":
            _want(bool(forced), "a trump event before any deal")
            c = ev[3]
            _want(c is None or isinstance(c, Card), f"a trump event's card must be a Card: {c!r}")
            forced[-1] = (forced[-1][0], -1 if c is None else int(c))
            if copies and c is not None:
                # The turned card, in no hand, is its card's first copy (as dealt).
                forced[-1] = (deal_copies(forced[-1][0], 1 << int(c)), int(c))
    return forced, draws


def _log_game(
    variant: Variant,
    evs: list[Any],
    game: type[Game],
    forced: list[tuple[tuple[int, ...], int]],
    draws: list[int],
) -> Game:
    """The game of a log's start event, dealt the log's deals (and cuts, when
    they are not the seed's), before any action."""
    _, players, seed, fd, mt = evs[0]
    try:
        g = game(
            variant,
            players,
            seed,
            first_dealer=fd,
            max_tricks=mt,
            _forced=forced,
            _draws=tuple(draws),
        )
        cuts = [ev for ev in evs if ev[0] == "cut"]
        if cuts and [_public(ev) for ev in g._events if ev[0] == "cut"] != cuts:
            # A cut given to the game (a world sampled for one seat), not the seed's.
            g = game(
                variant,
                players,
                seed,
                first_dealer=fd,
                max_tricks=mt,
                _forced=forced,
                _draws=tuple(draws),
                _cuts=tuple(tuple(ev[1]) for ev in cuts),
            )
    except SaveError:
        raise
    except (CardrulesError, ValueError, TypeError) as e:
        raise SaveError(f"the log's settings are not valid: {e}") from None
    return g


def _log_action(g: Game, ev: Any, i: int) -> Action | None:
    """The action of log entry ``i`` (None: not an action to apply; a
    take-back is made again on ``g`` here)."""
    k = ev[0]
    try:
        if k == "play":
            return Play(ev[2])
        if k == "bid":
            return Bid(ev[2], blind=ev[3])
        if k == "look":
            return _LOOK
        if k == "amend":
            return Amend(ev[2])
        if k == "take":
            return _TAKE
        if k == "pass":
            return Pass(ev[2])
        if k == TAKE_BACK:
            _replay_take_back(g, ev, i)
            return None
        if k == "call":
            _want(
                type(ev[2])
                in (
                    Name,
                    OrderUp,
                    Decline,
                    Discard,
                    Alone,
                    WithPartner,
                    Keep,
                    Show,
                    Downtown,
                    Misere,
                    Contract,
                ),
                f"event {i + 1}: a call is Name, OrderUp, Decline, Discard, Alone, "
                f"WithPartner, Keep, Show, Downtown, Misere or Contract, not {ev[2]!r}",
            )
            act: Action = ev[2]
            return act
        return None
    except (CardrulesError, TypeError) as e:
        raise SaveError(f"event {i + 1} ({ev!r}) is not a valid action: {e}") from None


def _replay_take_back(g: Game, ev: Any, i: int) -> None:
    """A take-back of a log given to replay: made again (the policy not asked)."""
    from cardrules.engine.state.undo import _take_back_span

    _, seat, undone, agreed, _entries = ev
    _want(
        _is_int(seat)
        and 0 <= seat < g._players
        and isinstance(undone, tuple | list)
        and 1 <= len(undone) <= MAX_TAKEN_BACK_ACTIONS
        and isinstance(agreed, tuple | list)
        and all(_is_int(a) and 0 <= a < g._players for a in agreed),
        f"event {i + 1}: a take-back is (seat, undone versions, agreeing seats, entries)",
    )
    try:
        _take_back_span(g, seat, len(undone), tuple(agreed))
    except CardrulesError as e:
        raise SaveError(f"event {i + 1}: the take-back cannot be made: {e}") from None
