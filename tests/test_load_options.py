"""``load()`` options for research code (issue 24): ``players=`` narrows a
variant to one number of players, and ``tie="shared"`` makes a one-hand
schedule exactly one hand (no tie-break hands).

A narrowed variant plays exactly as the variant does at that number of
players (a Hypothesis property over the built-ins, each drawn with a count in
its own range), its saves restore, its formatted text is a valid variant whose
examples pass, and a count outside the range is refused with
``bad_player_count``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.dsl.loader import builtin_names, narrow_players
from cardrules.errors import VariantError
from cardrules.example_runner import run_examples
from cardrules.rules import PlayerRange, Variant

BUILTINS = builtin_names()


@st.composite
def _builtin_and_count(draw: st.DrawFn) -> tuple[str, int]:
    name = draw(st.sampled_from(BUILTINS))
    v = cardrules.load(name)
    return name, draw(st.integers(v.players.min, v.players.max))


@settings(max_examples=25, deadline=None)
@given(pick=_builtin_and_count(), seed=st.integers(0, 2**32 - 1))
def test_a_narrowed_variant_plays_as_the_variant(pick: tuple[str, int], seed: int) -> None:
    name, n = pick
    wide = cardrules.load(name)
    narrow = cardrules.load(name, players=n)
    assert narrow.players == PlayerRange(n, n)
    a = cardrules.Game(wide, n, seed=seed)
    b = cardrules.Game(narrow, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(120):
        if a.is_over:
            break
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        seat = a.to_act
        assert seat == b.to_act
        action = rng.choice(legal)
        a.apply(action, seat)
        b.apply(action, seat)
    assert b.is_over == a.is_over
    assert b.events == a.events
    assert b.scores == a.scores
    # The narrowed game saves and restores as itself.
    restored = cardrules.Game.from_json(b.to_json())
    assert restored.variant.players == PlayerRange(n, n)
    assert restored.events == b.events


@pytest.mark.parametrize(("name", "n"), [("romanian-whist", 4), ("oh-hell", 5), ("spades", 4)])
def test_a_narrowed_variant_is_a_valid_variant_with_its_examples(name: str, n: int) -> None:
    # romanian-whist has deck lines for 3, 4 and 5 players: the one for n is made.
    v = cardrules.load(name, players=n)
    assert not any(not c.condition.per_hand for c in v.conditional)
    again = cardrules.load_text(cardrules.format(v))
    assert again == v
    assert run_examples(again) == []
    assert all(e.deal.players in (None, n) for e in again.examples)
    assert cardrules.load_text(cardrules.format(v), players=n) == v


def test_load_text_narrows_too() -> None:
    text = "game: doc\nplayers: 3 to 5\nhand size: 5\nbidding: in turn\nscore: tricks\n"
    assert cardrules.load_text(text, players=5).players == PlayerRange(5, 5)


@pytest.mark.parametrize("bad", [2, 8, 0, -1, 10**400, True, "4", 4.0])
def test_a_count_outside_the_range_is_refused(bad: object) -> None:
    with pytest.raises(VariantError) as info:
        cardrules.load("oh-hell", players=bad)  # type: ignore[arg-type]
    assert info.value.code == "bad_player_count"
    assert "3 to 7 players" in str(info.value)
    assert len(str(info.value)) < 300


def test_narrow_players_keeps_the_variant_for_its_own_count() -> None:
    v = cardrules.load("hearts")
    assert narrow_players(v, 4) == narrow_players(narrow_players(v, 4), 4)
    with pytest.raises(VariantError):
        narrow_players(narrow_players(v, 4), 5)


def _play_out(v: Variant, seed: int) -> cardrules.Game:
    g = cardrules.Game(v, 4, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    return g


def test_tie_shared_makes_a_one_hand_schedule_exactly_one_hand() -> None:
    """Oh Hell breaks a tie for the lead with extra hands (``tie: extra hands``),
    so ``hands="list 5"`` alone plays a tie-break hand whenever two players
    share the best total; ``tie="shared"`` shares the win instead."""
    tied = cardrules.load("oh-hell", hands="list 5")
    one = cardrules.load("oh-hell", hands="list 5", tie="shared")
    assert tied.winning.extra_hand_limit > 0
    assert one.winning.extra_hand_limit == 0
    extra = 0
    for seed in range(40):
        g = _play_out(one, seed)
        assert g.hand_number == 1 and g.extra_hands == 0
        h = _play_out(tied, seed)
        extra += h.extra_hands > 0
    assert extra > 0  # the reason for the option: some of these games tie
