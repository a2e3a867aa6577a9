"""Error codes (issue 13, items 3 and 4): every refusal has a stable code and
JSON data; actions from the wire; ``apply`` requires the acting seat.

(tests/conftest.py also checks every error any test provokes: a documented code
and JSON-native data that round-trip.)
"""

from __future__ import annotations

import ast
import json
import pickle
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import check_error
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, load
from cardrules.cards import ALL_CARDS, card
from cardrules.dsl import builtin_names
from cardrules.engine.actions import (
    NUM_ACTIONS,
    Action,
    Amend,
    Bid,
    Decline,
    Discard,
    Look,
    Name,
    OrderUp,
    Pass,
    Play,
    Take,
)
from cardrules.errors import (
    ERROR_CODES,
    CardError,
    CardrulesError,
    IllegalAction,
    InvalidAction,
    SaveError,
    ScoreError,
    VariantError,
)

ROOT = Path(__file__).resolve().parent.parent
_CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def refused(fn: object, kind: type[CardrulesError] = IllegalAction) -> CardrulesError:
    """The error ``fn()`` raises, checked (documented code, JSON data)."""
    assert callable(fn)
    with pytest.raises(kind) as info:
        fn()
    check_error(info.value)
    return info.value


def _until(name: str, until: Callable[[Game], bool], seeds: int = 50) -> Game:
    """The first state of seeded random games of ``name`` where ``until(g)``."""
    for seed in range(seeds):
        rng = random.Random(seed)
        g = Game(load(name), players=4, seed=seed)
        while not g.is_over:
            if until(g):
                return g
            g.apply(rng.choice(g.legal_actions()), g.to_act)  # type: ignore[arg-type]
    raise AssertionError(f"no such state in {seeds} games of {name}")


# --------------------------------------------------------------------------- the table


def test_the_docs_table_is_error_codes() -> None:
    """docs/errors.md lists exactly ERROR_CODES, with the same meanings, in order."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_0-9]+)` \| (.+?) \|$", text, flags=re.M)
    assert rows == list(ERROR_CODES.items())
    # The site's navigation (built by the docs hook) lists the page.
    hook = (ROOT / "docs" / "hooks" / "rulebook_pages.py").read_text(encoding="utf-8")
    assert '"errors.md"' in hook


def _codes_in_source() -> tuple[set[str], list[str]]:
    """Every code the package's source raises (``code=``, ``default_code``, the
    first item of ``_refusal`` and of the explain functions' tuples, the third of
    ``_want``), and those that are not in ERROR_CODES."""
    found: set[str] = set()
    bad: list[str] = []
    for path in sorted((ROOT / "cardrules").rglob("*.py")):
        if path.name == "errors.py" and path.parent.name == "cardrules":
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "default_code":
                    assert isinstance(node.value, ast.Constant)
                    found.add(node.value.value)
                if (
                    isinstance(node, ast.keyword)
                    and node.arg == "code"
                    and isinstance(node.value, ast.Constant)
                ):
                    found.add(node.value.value)
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hits: list[ast.expr] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "code":
                hits.append(node.value)
            elif (
                isinstance(node, ast.AnnAssign | ast.Assign)
                and "default_code" in ast.unparse(node).split("=")[0]
            ):
                assert node.value is not None
                hits.append(node.value)
            elif isinstance(node, ast.Call) and ast.unparse(node.func) == "_refusal" and node.args:
                hits.append(node.args[0])
            elif isinstance(node, ast.Call) and ast.unparse(node.func) == "_want":
                if len(node.args) == 3:
                    hits.append(node.args[2])
            elif isinstance(node, ast.FunctionDef) and (
                node.name.startswith("_explain") or node.name == "_why_not_take"
            ):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Dict) and all(
                        isinstance(x, ast.Constant) and x.value in ERROR_CODES for x in ret.values
                    ):
                        hits.extend(x for x in ret.values if x is not None)
                    if (
                        isinstance(ret, ast.Return)
                        and isinstance(ret.value, ast.Tuple)
                        and isinstance(ret.value.elts[0], ast.Constant)
                    ):
                        hits.append(ret.value.elts[0])
        for h in hits:
            if isinstance(h, ast.Constant) and isinstance(h.value, str):
                found.add(h.value)
                if h.value not in ERROR_CODES:
                    bad.append(f"{path.relative_to(ROOT)}:{h.lineno}: {h.value!r}")
    return found, bad


#: Codes in the table that no raise site uses (none today).
RESERVED: frozenset[str] = frozenset()


def test_every_code_raised_is_in_the_table_and_every_code_is_raised() -> None:
    found, bad = _codes_in_source()
    assert not bad, "codes raised but not in ERROR_CODES:\n" + "\n".join(bad)
    assert set(ERROR_CODES) - found == RESERVED
    for code in ERROR_CODES:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code)


def test_every_error_class_has_a_default_code() -> None:
    for cls, code in [
        (CardrulesError, "error"),
        (CardError, "bad_card"),
        (VariantError, "bad_variant"),
        (InvalidAction, "bad_action"),
        (IllegalAction, "illegal_action"),
        (SaveError, "bad_save"),
        (ScoreError, "score_too_large"),
    ]:
        assert cls.default_code == code in ERROR_CODES
        assert cls("x").code == code


# --------------------------------------------------------------------------- to_dict / from_dict


def test_to_dict_and_from_dict() -> None:
    err = IllegalAction(
        "must follow ♥", code="must_follow_suit", data={"seat": 1, "cards": [card("Q♥")]}
    )
    d = err.to_dict()
    assert d == {
        "error": "IllegalAction",
        "code": "must_follow_suit",
        "message": "must follow ♥",
        "data": {"seat": 1, "cards": ["Q♥"]},
    }
    back = CardrulesError.from_dict(json.loads(json.dumps(d)))
    assert type(back) is IllegalAction and back.to_dict() == d
    assert isinstance(IllegalAction.from_dict(d), IllegalAction)
    # A VariantError keeps its whole message and its place.
    with pytest.raises(VariantError) as info:
        cardrules.load_text("game: x\nplayrs: 4\n")
    v = info.value
    assert v.code == "unknown_setting" and v.data["line"] == 2 and v.data["setting"]
    again = CardrulesError.from_dict(v.to_dict())
    assert type(again) is VariantError and str(again) == str(v) and again.line == 2
    # Pickling (multiprocessing) keeps the class, code and data.
    for e in (err, v, ScoreError("too big", formula="x*x")):
        p = pickle.loads(pickle.dumps(e))
        assert (type(p), p.code, p.data, str(p)) == (type(e), e.code, e.data, str(e))


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        "x",
        {"code": 3},
        {"code": "Not Snake"},
        {"code": "x" * 100},
        {"code": "x", "message": 4},
        {"code": "x", "message": "m" * 200_000},
        {"code": "x", "data": []},
        {"code": "x", "data": {"x": float("nan")}},
        {"code": "x", "data": {"x": "y" * 200_000}},
        {"code": "x", "error": 7},
    ],
)
def test_from_dict_refuses_what_is_not_an_error(bad: object) -> None:
    with pytest.raises(CardrulesError) as info:
        CardrulesError.from_dict(bad)
    assert info.value.code == "bad_json"
    # Called on a subclass, the error must be of that class.
    with pytest.raises(CardrulesError) as info:
        InvalidAction.from_dict({"error": "CardError", "code": "bad_card", "message": ""})
    assert info.value.code == "bad_json"


def test_an_unknown_class_or_code_from_a_newer_version_is_kept() -> None:
    e = CardrulesError.from_dict({"error": "FutureError", "code": "new_thing", "message": "m"})
    assert type(e) is CardrulesError and e.code == "new_thing" and str(e) == "m"


# --------------------------------------------------------------------------- refusals, by code


def test_codes_of_bidding_refusals_golden() -> None:
    """Oh Hell, seed 1, 4 players: the refusals of the bidding and their data."""
    g = Game(load("oh-hell"), players=4, seed=1, first_dealer=3)
    assert g.to_act == 0 and g.hand_size == 10
    e = refused(lambda: g.apply(Bid(1), 1))
    assert (e.code, e.data["seat"], e.data["to_act"]) == ("not_your_turn", 1, 0)
    e = refused(lambda: g.apply(Bid(11), 0))
    assert e.code == "bid_out_of_range"
    assert e.data == {
        "seat": 0,
        "action": "bid 11",
        "value": 11,
        "min": 0,
        "max": 10,
        "hand_size": 10,
    }
    e = refused(lambda: g.apply(Play(next(iter(g.hand(0)))), 0))
    assert e.code == "not_in_phase"
    e = refused(lambda: g.apply(Look(), 0))
    assert e.code == "not_in_variant"
    for s, b in [(0, 3), (1, 3), (2, 3)]:
        g.apply(Bid(b), s)
    e = refused(lambda: g.apply(Bid(1), 3))
    assert e.code == "hook" and e.data["value"] == 1 and e.data["total"] == 10
    g.apply(Bid(0), 3)
    # The play: a bid now is not in the phase.
    e = refused(lambda: g.apply(Bid(1), g.to_act))
    assert e.code == "not_in_phase" and e.data["phase"] == "play"
    e = refused(lambda: g.apply(Bid(-52), g.to_act), InvalidAction)
    assert e.code == "bad_action"
    e = refused(lambda: g.apply("A♠", g.to_act), InvalidAction)
    assert e.code == "bad_action"
    e = refused(lambda: g.apply(Play("A♠"), 9), InvalidAction)
    assert e.code == "bad_seat" and e.data["value"] == 9


def test_codes_of_play_refusals_and_the_cards_they_name() -> None:
    g = Game(load("oh-hell"), players=4, seed=1, first_dealer=3)
    while g.phase == "bid":
        g.apply(g.legal_actions()[0], g.to_act)
    s = g.to_act
    assert s is not None
    not_held = next(c for c in ALL_CARDS if c not in g.hand(s))
    e = refused(lambda: g.apply(Play(not_held), s))
    assert e.code == "card_not_in_hand" and e.data["card"] == str(not_held)
    lead = g.legal_actions()[0]
    assert isinstance(lead, Play)
    g.apply(lead, s)
    t = g.to_act
    assert t is not None
    legal = {a.card for a in g.legal_actions() if isinstance(a, Play)}
    off = [c for c in g.hand(t) if c not in legal]
    if off:  # seat t holds the suit led and some other card
        e = refused(lambda: g.apply(Play(off[0]), t))
        assert e.code == "must_follow_suit"
        assert e.data["led"] == lead.card.suit.word
        assert e.data["legal"] == [str(c) for c in sorted(legal)]
    # Game over.
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)
    e = refused(lambda: g.apply(Play("2♣"), g.to_act))  # type: ignore[arg-type]
    assert e.code == "game_over"
    e = refused(lambda: g.apply(Bid(0), 0))
    assert e.code == "game_over"


def _candidates(g: Game, s: int) -> list[Action]:
    """The actions worth trying for seat ``s``: each kind, with its own cards and
    bids up to the hand size (a few dozen, not every id)."""
    own = list(g.hand(s))
    out: list[Action] = [Look(), Take(), Decline(), OrderUp(), Name(None)]
    out += [Name(x) for x in ("clubs", "diamonds", "hearts", "spades")]
    out += [Bid(n) for n in range(g.hand_size + 2)] + [Bid(n, blind=True) for n in range(3)]
    out += [Amend(n) for n in range(g.hand_size + 1)]
    for c in own:
        out += [Play(c), Pass(c), Discard(c)]
    if g.turned_up is not None:
        out.append(Discard(g.turned_up))
    return out


def _find(name: str, want: str, seeds: int = 6) -> CardrulesError:
    """The first refusal with code ``want`` met while trying the actions of the
    seat to act at the states of seeded random games (each leaves the game as
    it was)."""
    v = cardrules.load_text(name) if "\n" in name else load(name)
    for seed in range(seeds):
        rng = random.Random(seed)
        g = Game(v, players=4, seed=seed)
        steps = 0
        while not g.is_over and steps < 150:
            steps += 1
            s = min(g.waiting_for)
            legal = g.legal_actions(s)
            for a in _candidates(g, s):
                if a in legal:
                    continue
                before = len(g.events)
                try:
                    g.apply(a, s)
                except IllegalAction as err:
                    assert len(g.events) == before
                    if err.code == want:
                        check_error(err)
                        return err
                    continue
                raise AssertionError(f"{a} by {s} was applied though not legal")
            acts = g.legal_actions()
            # Pass the turned card mostly, so that the choice of trumps goes round.
            act = Decline() if Decline() in acts and rng.random() < 0.9 else rng.choice(acts)
            g.apply(act, g.to_act)  # type: ignore[arg-type]
    raise AssertionError(f"no {want} refusal found in {name}")


#: Euchre where the dealer keeps the card it takes up (a house rule).
_KEEPS = "game: house\nextends: euchre\ndealer keeps the turned card: yes\n"


@pytest.mark.parametrize(
    ("name", "code", "fields"),
    [
        ("spades", "cannot_lead", {"rule", "legal"}),
        ("hearts", "card_already_chosen", {"card"}),
        ("hearts", "must_lead_card", {"lead_card"}),
        ("spades", "blind_after_look", set()),
        ("euchre-stick-the-dealer", "stick_the_dealer", {"phase"}),
        ("euchre", "suit_turned_down", {"suit"}),
        ("euchre", "must_discard", set()),
        (_KEEPS, "keeps_turned_card", {"card"}),
        ("oh-hell-amend", "same_bid", {"value"}),
        ("bhabhi", "cannot_take", {"to_act"}),
    ],
)
def test_refusal_kinds_are_met_with_their_code(name: str, code: str, fields: set[str]) -> None:
    err = _find(name, code)
    assert {"seat", "action"} | fields <= set(err.data)


# ---------------------------------------------------------------- apply requires the seat


def test_apply_without_a_seat_acts_for_nobody_and_describes_no_hand() -> None:
    """Regression (issue 13): ``apply(action)`` acted for whoever was to move, so a
    server that forgot ``seat=`` let any client move for another, and the refusal
    of an illegal card described the other seat's hand ("must follow ♥: you hold
    ..."). Now the seat is required: without it nothing is made and nothing of
    any hand is said."""
    g = Game(load("oh-hell"), players=4, seed=1, first_dealer=3)
    while g.phase == "bid":
        g.apply(g.legal_actions()[0], g.to_act)
    lead = g.legal_actions()[0]
    g.apply(lead, g.to_act)
    t = g.to_act
    assert t is not None
    before = g.to_json()
    hand = {str(c) for c in g.hand(t)}
    with pytest.raises(TypeError):
        g.apply(lead)  # type: ignore[call-overload]
    for action in [Play(c) for c in ALL_CARDS] + [Bid(0)]:
        e = refused(lambda a=action: g.apply(a, None), InvalidAction)  # type: ignore[misc]
        assert e.code == "bad_seat"
        named = set(_CARD.findall(str(e))) | set(_CARD.findall(json.dumps(e.data)))
        assert named <= {str(action.card)} if isinstance(action, Play) else not named
        assert not (named - {str(getattr(action, "card", ""))}) & hand
    assert g.to_json() == before


#: The codes of an action by a seat that may not act now.
_SEAT_MAY_NOT_ACT = {
    "not_your_turn",
    "already_bid",
    "already_passed",
    "cannot_amend",
    "not_in_variant",
    "not_in_phase",
    "knocked_out",
    "game_over",
}


def _hidden_from(g: Game, seat: int) -> set[str]:
    """The cards of other seats' hands that ``seat`` cannot see now."""
    view = g.view(seat)
    seen = {str(c) for _, cs in view.visible_hands for c in cs}
    seen |= {str(c) for _, cs in view.known_hands for c in cs}
    seen |= {str(c) for c in view.received}
    # Its own cards (several packs: naming a card it holds tells nothing of
    # another seat's copy of it).
    seen |= {str(c) for c in g.hand(seat)}
    out: set[str] = set()
    for s in range(g.players):
        if s != seat:
            out |= {str(c) for c in g.hand(s)}
    return out - seen


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(builtin_names()), seed=st.integers(0, 2**32), stop=st.integers(0, 60))
def test_a_refusal_never_describes_a_hand_its_seat_cannot_see(
    name: str, seed: int, stop: int
) -> None:
    """At a random point of a random game of every variant, every action by every
    seat that may not make it is refused with a documented code (a seat that may
    not act now: ``not_your_turn``, or for a finished or knocked-out seat its own
    code), leaves the game unchanged, and names no card the seat cannot see
    (except the card it named itself)."""
    v = load(name)
    players = 4 if 4 in v.players else v.players.min
    rng = random.Random(seed)
    g = Game(v, players=players, seed=seed)
    for _ in range(stop):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    before = g.events
    ids = rng.sample(range(NUM_ACTIONS), 25)
    for seat in range(players):
        hidden = _hidden_from(g, seat)
        may_act = seat in g.waiting_for
        for aid in ids:
            a = Action.from_id(aid)
            if a in g.legal_actions(seat):
                continue
            with pytest.raises(IllegalAction) as info:
                g.apply(a, seat)
            err = info.value
            check_error(err)
            assert err.data["seat"] == seat
            if not may_act:
                assert err.code in _SEAT_MAY_NOT_ACT, (a, err.code, str(err))
            own = {str(a.card)} if hasattr(a, "card") else set()
            named = set(_CARD.findall(str(err))) | set(_CARD.findall(json.dumps(err.data)))
            assert not (named - own) & hidden, (seat, a, str(err))
            assert g.events == before


# --------------------------------------------------------------------------- apply_as_current


def test_apply_as_current_plays_the_game_apply_to_act_plays() -> None:
    v = load("oh-hell-amend")
    a = Game(v, players=4, seed=5)
    b = Game(v, players=4, seed=5)
    rng = random.Random(5)
    while not a.is_over:
        act = rng.choice(a.legal_actions())
        a.apply(act, a.to_act)  # type: ignore[arg-type]
        b.apply_as_current(act)
    assert a == b and a.to_json() == b.to_json()
    e = refused(lambda: b.apply_as_current(Bid(0)))
    assert e.code == "game_over"
    # An Amend acts for the seat that may amend (the last seat to bid).
    g = Game(v, players=4, seed=2, first_dealer=3)
    g.apply(Bid(1), 0)
    g.apply_as_current(Amend(2))
    assert g.bids[0] == 2
    # OpenSpiel's apply_action acts for the current player, by design.
    g.apply_action(g.legal_action_ids()[0])
    assert g.bids[1] is not None


def test_match_apply_requires_the_seat() -> None:
    m = cardrules.Match(load("kazhutha"), players=4, seed=3, max_games=1)
    s = m.to_act
    assert s is not None
    e = refused(lambda: m.apply(m.legal_actions()[0], (s + 1) % 4))
    assert e.code == "not_your_turn"
    while not m.is_over:
        m.apply_as_current(m.legal_actions()[0])
    e = refused(lambda: m.apply(Play("2♣"), 0))
    assert e.code == "match_over"


# --------------------------------------------------------------------------- actions from the wire


def test_every_action_round_trips_through_its_dict() -> None:
    for aid in range(NUM_ACTIONS):
        a = Action.from_id(aid)
        d = json.loads(json.dumps(a.to_dict()))
        assert Action.from_dict(d) is a and type(a).from_dict(d) is a
        assert Action.from_dict({"id": aid}) is a
        assert cardrules.engine.views.notation.action_from_dict(d) is a


@pytest.mark.parametrize(
    "bad",
    [None, 3, "play A♠", {}, {"id": "51"}, {"id": 10**30}, {"id": -1}, {"id": True},
     {"id": 51, "label": "play K♠"}, {"id": 51, "label": ["x"]}],
)  # fmt: skip
def test_action_from_dict_refuses_what_is_not_an_action(bad: object) -> None:
    e = refused(lambda: Action.from_dict(bad), InvalidAction)
    assert e.code == "bad_action"


def test_from_dict_on_a_kind_checks_the_kind() -> None:
    e = refused(lambda: Bid.from_dict({"id": 51}), InvalidAction)
    assert e.code == "bad_action" and "not a Bid" in str(e)


def test_parse_action_reads_what_a_person_types_in_this_game() -> None:
    g = Game(load("oh-hell"), players=4, seed=1, first_dealer=3)
    assert g.parse_action("bid 2") is Bid(2) and g.parse_action(" 2 ") is Bid(2)
    assert g.parse_action("QS") is Play("Q♠") and g.parse_action("q♠") is Play("Q♠")
    # Cards to pass, while cards are passed.
    h = Game(load("hearts"), players=4, seed=1)
    assert h.phase == "pass"
    assert h.parse_action("QS") is Pass("Q♠")
    assert h.parse_actions("pass 3♣ 4♦ 9♥") == (Pass("3♣"), Pass("4♦"), Pass("9♥"))
    assert h.parse_actions("3c, 4d, 9h") == (Pass("3♣"), Pass("4♦"), Pass("9♥"))
    e = refused(lambda: h.parse_action("pass 3♣ 4♦ 9♥"), InvalidAction)
    assert e.code == "bad_action" and "parse_actions" in str(e)
    # The choice of trumps: "pass" declines, a suit is named, a bare card discards.
    eu = _until("euchre", lambda g: g.phase == "trumps")
    assert eu.parse_action("pass") is Decline()
    assert eu.parse_action("name clubs") is Name("clubs") and eu.parse_action("♣") is Name("clubs")
    eu = _until("euchre", lambda g: any(isinstance(a, Discard) for a in g.legal_actions()))
    held = next(iter(eu.hand(eu.dealer)))
    assert eu.parse_action(str(held)) is Discard(held)
    assert eu.parse_action("play " + str(held)) is Play(held)
    assert g.parse_action("take") is Take() and g.parse_action("look") is Look()
    for bad in ["", "bid", "bid two", "x" * 200, "pass pass", "QS KS"]:
        e = refused(lambda t=bad: g.parse_action(t), InvalidAction)  # type: ignore[misc]
        assert e.code == "bad_action"
    e = refused(lambda: g.parse_action(7), InvalidAction)  # type: ignore[arg-type]
    assert e.code == "bad_action"


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(builtin_names()), seed=st.integers(0, 2**32))
def test_every_legal_action_is_read_back_from_its_label(name: str, seed: int) -> None:
    """Over a random game of every variant, ``parse_action(a.label)`` is ``a`` for
    every legal action of every seat that may act."""
    v = load(name)
    players = 4 if 4 in v.players else v.players.min
    rng = random.Random(seed)
    g = Game(v, players=players, seed=seed)
    steps = 0
    while not g.is_over and steps < 120:
        steps += 1
        for s in g.waiting_for:
            for a in g.legal_actions(s):
                assert g.parse_action(a.label) is a
                assert g.parse_action(a.label.upper()) is a
        g.apply(rng.choice(g.legal_actions()), g.to_act)


def test_a_parse_error_chains_no_parser_exception() -> None:
    # Regression: the VariantError of a file Lark could not read was raised inside
    # the handler of Lark's exception, so its __context__ held the lexer (and its
    # `re` module). Picklers that write an exception's context (dask's tblib,
    # imported by tests/test_simulate.py) then failed with "cannot pickle 'module'".
    for text in ("game: x\nplayrs: 4\n", "game: x\nplayers: 4\nscore: 3 +* 2\n"):
        with pytest.raises(VariantError) as info:
            cardrules.load_text(text)
        assert info.value.__context__ is None and info.value.__cause__ is None
        assert pickle.loads(pickle.dumps(info.value)).code == info.value.code
