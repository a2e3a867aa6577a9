"""Issue 10 (the outside audit), the engine's own items: arguments checked before any
cache or allocation (item 8 and the Game part of item 6), unpredictable seeds (item 9)
and bounded seeds (item 10's seed part).

Each test here failed on the engine before its fix.
"""

from __future__ import annotations

import random
import time

import pytest

import cardrules
from cardrules.engine.game import MAX_SEED


def kachuful() -> cardrules.Variant:
    return cardrules.load("kachuful")


def test_float_players_refused_after_a_cached_int_item_8() -> None:
    """``Game(v, 4.0)`` after ``Game(v, 4)``: the same clear ValueError as on a fresh
    variant, not a TypeError from the geometry cached for 4 (4.0 == 4)."""
    v = kachuful()
    cardrules.Game(v, 4, seed=1)
    for bad in (4.0, True, "4", None):
        with pytest.raises(ValueError, match="players must be an int") as info:
            cardrules.Game(v, bad, seed=1)  # type: ignore[arg-type]
        assert not isinstance(info.value, TypeError)
    assert cardrules.Game(v, 4, seed=1).players == 4


def test_huge_player_count_refused_at_once_item_6() -> None:
    v = kachuful()
    for bad in (5_000_000, 10**12, 10**5000):
        t0 = time.perf_counter()
        with pytest.raises(cardrules.VariantError, match="players"):
            cardrules.Game(v, bad, seed=1)
        assert time.perf_counter() - t0 < 0.1


def test_unseeded_games_do_not_follow_pythons_global_generator_item_9() -> None:
    """Two unseeded games made right after the same ``random.seed(...)`` get different
    seeds: the seed comes from the operating system, not the Mersenne Twister whose
    state ~700 saved seeds would reveal."""
    v = kachuful()
    random.seed(1234)
    first = cardrules.Game(v, 4).seed
    random.seed(1234)
    second = cardrules.Game(v, 4).seed
    assert first != second
    assert 0 <= first <= MAX_SEED and 0 <= second <= MAX_SEED


@pytest.mark.parametrize("bad", [-1, MAX_SEED + 1, 10**4299, 1.0, True, "7"])
def test_seed_outside_64_bits_refused_item_10(bad: object) -> None:
    """A 4,299-digit seed (legal JSON) used to go into every derived seed and
    message; now anything but an int from 0 to 2**64 - 1 is refused, briefly."""
    with pytest.raises(ValueError, match="seed must be an int from 0 to 2\\*\\*64 - 1") as info:
        cardrules.Game(kachuful(), 4, bad)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200


def test_largest_seed_accepted() -> None:
    g = cardrules.Game(kachuful(), 4, MAX_SEED)
    assert g.seed == MAX_SEED
    assert cardrules.Game.from_json(g.to_json()) == g


@pytest.mark.parametrize("bad", [0, -5, 10**100, 2.0, True])
def test_bad_max_tricks_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="max_tricks must be an int from 1"):
        cardrules.Game(kachuful(), 4, 1, max_tricks=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- item 1

#: Loads (every value of one hand stays within the bound) but the running total's
#: denominator grows with every hand: the lcm of ever new denominators.
GROWING = (
    "1/(999999999989*999999999989*999999999989*999999999989*999999999989"
    "*999999999989*999999999989*hand + 1)"
)


def growing_game() -> cardrules.Game:
    v = cardrules.load_text(
        "game: growing\nextends: kachuful\n"
        f"score: {GROWING}\nhands: down to 1 and back up, 4 times\n",
        path="growing.cardrules",
    )
    return cardrules.Game(v, 4, seed=3)


def test_a_total_that_grows_too_large_is_a_clear_error_and_changes_nothing_item_1() -> None:
    """A formula that checks ok but whose running total would pass the documented size
    (before the fix: ``to_json`` raised "Exceeds the limit (4300 digits)" later on):
    the action that would score the hand raises ScoreError and leaves the game as it
    was; every later use of the game (views, saves) still works."""
    g = growing_game()
    rng = random.Random(1)
    while True:
        before = g.to_json()
        action = rng.choice(g.legal_actions())
        try:
            g.apply(action, g.to_act)
        except cardrules.ScoreError as e:
            assert "300" in str(e) and "digits" in str(e)
            break
        assert not g.is_over, "the total never grew too large"
    assert g.to_json() == before
    assert cardrules.Game.from_json(before) == g
    for s in range(4):
        g.view(s).to_json()
    g.information_state_string(0)
    # The refused action is refused again, the same way (nothing half-done).
    with pytest.raises(cardrules.ScoreError):
        g.apply(action, g.to_act)
    assert g.to_json() == before


def test_whole_number_formulas_need_no_total_check() -> None:
    from cardrules.engine.state.compiled_rules import _compile

    assert not _compile(kachuful()).score_guard
    assert _compile(growing_game().variant).score_guard
