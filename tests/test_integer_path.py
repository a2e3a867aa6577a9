"""Issue 24 item 3: the integer path (``Game.legal_mask``, ``Game.apply_id``),
the information state kept as the game goes on, and clones that share the
streams copy-on-write.

Every property draws a built-in variant and a number of players inside that
variant's range, and plays random legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game
from cardrules.dsl import builtin_names
from cardrules.engine.actions import CONTRACT_END, NUM_ACTIONS, Action, Amend, mask_ids
from cardrules.engine.views.infostate import (
    information_state_reference,
    information_state_tensor_reference,
)
from cardrules.errors import CardrulesError, IllegalAction, InvalidAction

NAMES = builtin_names()
VARIANTS = {name: cardrules.load(name) for name in NAMES}

#: An upper bound on the steps a property plays (whole games of the short variants).
STEPS = 120


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int]:
    """A built-in's name, a number of players in its range and a seed."""
    name = draw(st.sampled_from(NAMES))
    allowed = VARIANTS[name].players
    players = draw(st.integers(allowed.min, allowed.max))
    return name, players, draw(st.integers(0, 2**32))


def _mask_of(actions: tuple[Action, ...]) -> int:
    out = 0
    for a in actions:
        out |= 1 << a.id
    return out


def _refusal(call: Callable[[], object]) -> tuple[type, str] | None:
    """The class and code of the refusal ``call()`` raises, or None if it acts."""
    try:
        call()
    except CardrulesError as err:
        return type(err), err.code
    return None


def _acting_seat(g: Game) -> int:
    return min(g.waiting_for)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_integer_path_agrees_with_actions(game: tuple[str, int, int], data: st.DataObject) -> None:
    """At every step: ``legal_mask(seat)`` is the mask of ``legal_actions(seat)``
    for every seat (and ``None``), ``legal_action_ids()`` its ids; an id refused
    by ``apply_id`` is refused by ``apply`` with the same class and code, both
    games unchanged; a legal id makes the same move as its action."""
    name, players, seed = game
    v = VARIANTS[name]
    ref, ids, spiel = Game(v, players, seed), Game(v, players, seed), Game(v, players, seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        assert ids.legal_mask() == _mask_of(ref.legal_actions())
        assert ids.legal_action_ids() == [a.id for a in ref.legal_actions()]
        assert mask_ids(ids.legal_mask()) == sorted(ids.legal_action_ids())
        for s in range(players):
            assert ids.legal_mask(s) == _mask_of(ref.legal_actions(s)), (name, s)
        if ref.is_over:
            assert ids.is_terminal() and ids.legal_mask() == 0
            break
        # A wrong try: any id (legal or not) by any seat, or a bad id.
        seat = data.draw(st.integers(0, players - 1))
        wrong = data.draw(
            st.one_of(
                st.integers(0, CONTRACT_END - 1),
                st.sampled_from([-1, NUM_ACTIONS, CONTRACT_END, 2**70, "3", None, True]),
            )
        )
        if not (type(wrong) is int and wrong >= 0 and ids.legal_mask(seat) >> wrong & 1):
            before = ids.clone()
            refused = _refusal(lambda: ids.apply_id(wrong, seat))  # noqa: B023
            assert refused is not None, (name, wrong, seat)
            assert issubclass(refused[0], InvalidAction | IllegalAction)
            if type(wrong) is int and (0 <= wrong < NUM_ACTIONS or 400 <= wrong < CONTRACT_END):
                expected = _refusal(lambda: ref.apply(Action.from_id(wrong), seat))  # noqa: B023
            else:
                expected = (InvalidAction, "bad_action")
            assert refused == expected, (name, wrong, seat)
            assert ids == before and ids.to_act == before.to_act
        acting = _acting_seat(ref)
        action = rng.choice(ref.legal_actions(acting))
        current = ref.current_player()
        ref.apply(action, acting)
        ids.apply_id(action.id, acting)
        if acting == current and type(action) is not Amend:
            spiel.apply_action(action.id)  # OpenSpiel's name, for the seat to act
        else:
            spiel.apply(action, acting)
        assert ids == ref and spiel == ref
    assert ids.to_json() == ref.to_json()


def test_apply_id_refusals_golden() -> None:
    """The codes of a few refusals, each the same as ``apply``'s."""
    v = cardrules.load_text("game: doc\nplayers: 4\nhand size: 5\nbidding: in turn\nscore: tricks")
    g = Game(v, 4, seed=1)
    seat = g.to_act
    assert seat is not None
    other = (seat + 1) % 4
    codes = {}
    for label, (aid, who) in {
        "bad id": (-1, seat),
        "bad type": ("52", seat),
        "bad seat": (52, 9),
        "wrong turn": (52, other),
        "a play in the bidding": (0, seat),
    }.items():
        with pytest.raises((InvalidAction, IllegalAction)) as err:
            g.apply_id(aid, who)  # type: ignore[arg-type]
        codes[label] = err.value.code
    assert codes == {
        "bad id": "bad_action",
        "bad type": "bad_action",
        "bad seat": "bad_seat",
        "wrong turn": "not_your_turn",
        "a play in the bidding": "not_in_phase",
    }
    assert g.version == 0


def _step(g: Game, rng: random.Random) -> None:
    seat = _acting_seat(g)
    g.apply(rng.choice(g.legal_actions(seat)), seat)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_kept_information_state_equals_the_reference(
    game: tuple[str, int, int], data: st.DataObject
) -> None:
    """The information state kept with the streams equals the one rebuilt from
    the whole stream, for every seat, at random points of a game, of clones
    that go their own way, and after the engine's undo."""
    name, players, seed = game
    g = Game(VARIANTS[name], players, seed)
    rng = random.Random(seed)
    tensor = cardrules.engine.views.infostate._layout_or_none(g) is not None
    others: list[Game] = []
    for _ in range(STEPS):
        if g.is_over:
            break
        what = data.draw(st.sampled_from(["step", "step", "step", "look", "clone", "undo"]))
        if what == "clone":
            others.append(g.clone())
        elif what == "undo" and g.version > 0 and g.can_undo(_acting_seat(g)):
            g.undo()
        elif what == "look":
            s = data.draw(st.integers(0, players - 1))
            assert g.information_state(s) == information_state_reference(g, s)
            if tensor:
                assert g.information_state_tensor(s) == information_state_tensor_reference(g, s)
        else:
            _step(g, rng)
        for o in others[-2:]:
            if not o.is_over:
                _step(o, rng)
    for game_ in (g, *others):
        for s in range(players):
            assert game_.information_state(s) == information_state_reference(game_, s)
            if tensor:
                got = game_.information_state_tensor(s)
                assert got == information_state_tensor_reference(game_, s)


def _state(g: Game) -> tuple[object, ...]:
    """What the game's state shows beyond its log: the all-seeing view, every
    seat's observation and legal actions, the bids and flags."""
    n = g.players
    return (
        g.omniscient_view(),
        [g.observation(s) for s in range(n)],
        [g.legal_actions(s) for s in range(n)],
        g.bids,
        g.blind_bids,
        g.tricks_won,
        g.scores,
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), before=st.integers(0, 80), after=st.integers(1, 40))
def test_clones_are_independent(game: tuple[str, int, int], before: int, after: int) -> None:
    """Playing on a clone (and asking it for streams and information states)
    never changes the original, and playing on the original never changes the
    clone, whichever of them asked for its streams first."""
    name, players, seed = game
    g = Game(VARIANTS[name], players, seed)
    rng = random.Random(seed)
    for _ in range(before):
        if g.is_over:
            break
        _step(g, rng)
    states = [g.information_state(s) for s in range(players)]  # the streams exist
    saved, events, seen = g.to_json(), g.events, _state(g)
    c = g.clone()
    for _ in range(after):
        if c.is_over:
            break
        _step(c, rng)
        c.information_state(_acting_seat(c) if not c.is_over else 0)
    assert g.to_json() == saved and g.events == events and _state(g) == seen
    assert [g.information_state(s) for s in range(players)] == states
    assert [information_state_reference(g, s) for s in range(players)] == states
    # And the other way round: the original moves on, the clone stays.
    c_saved, c_seen = c.to_json(), _state(c)
    c_states = [c.information_state(s) for s in range(players)]
    d = c.clone()
    for _ in range(after):
        if c.is_over:
            break
        _step(c, rng)
        c.information_state(0)
    assert d.to_json() == c_saved and _state(d) == c_seen
    assert [d.information_state(s) for s in range(players)] == c_states
    assert [information_state_reference(d, s) for s in range(players)] == c_states


def _snapshot(g: Game) -> dict[str, object]:
    """Every slot of ``g``'s state, lists by value (a copy of each)."""
    from cardrules.engine.state.slots import STATE_SLOTS

    out: dict[str, object] = {}
    for name in STATE_SLOTS:
        v = getattr(g, name)
        out[name] = list(v) if type(v) is list else v
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), before=st.integers(0, 150), after=st.integers(1, 150))
def test_a_clone_changes_no_slot_of_its_original(
    game: tuple[str, int, int], before: int, after: int
) -> None:
    """Playing on a clone leaves every slot of the original's state as it was,
    and playing on the original leaves the clone's: the lists a clone shares
    (known cards, seats out, dead cards by seat, chosen passes, scores) are
    replaced, never changed in place."""
    name, players, seed = game
    g = Game(VARIANTS[name], players, seed)
    rng = random.Random(seed)
    for _ in range(before):
        if g.is_over:
            break
        _step(g, rng)
    seen = _snapshot(g)
    c = g.clone()
    for _ in range(after):
        if c.is_over:
            break
        _step(c, rng)
    assert _snapshot(g) == seen
    c_seen = _snapshot(c)
    for _ in range(after):
        if g.is_over:
            break
        _step(g, rng)
    assert _snapshot(c) == c_seen


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games())
def test_ids_read_from_the_mask_of_legal_cards(game: tuple[str, int, int]) -> None:
    """In the play, the ids of the mask of legal cards read byte by byte
    (``_BYTE_IDS``: the compiled build's ``legal_action_ids``) are
    ``legal_action_ids()`` whenever the mask holds only standard cards."""
    from cardrules.engine.state.tables import _BYTE_IDS

    name, players, seed = game
    g = Game(VARIANTS[name], players, seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        if g.is_over:
            break
        if g.phase == "play":
            ids = g.legal_action_ids()
            m, k = g.legal_mask(), 0
            read: list[int] = []
            if not m >> 52 and not g._rules.take_hand:
                while m:
                    read.extend(_BYTE_IDS[k][m & 255])
                    m >>= 8
                    k += 1
                assert read == ids, name
        _step(g, rng)
