"""``lose at: -N points`` (issue 23, for Bid Whist): a total fallen to -N or
below ends the game after that hand, and the higher total wins."""

from __future__ import annotations

import random

import pytest

from cardrules import Game
from cardrules.dsl import load_text
from cardrules.errors import VariantError

TEXT = (
    "game: lose-at-test\nextends: oh-hell\nplayers: 3\nhand size: 3\n"
    "hands: 20 hands of the same size\nscore: if exact then 0 else -1\n"
)


def test_a_total_at_the_floor_ends_the_game() -> None:
    v = load_text(TEXT + "lose at: -2 points\n")
    for seed in range(20):
        g = Game(v, 3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply_as_current(rng.choice(g.legal_actions()))
        totals = [e[5] for e in g._events if e[0] == "score"]
        # An independent reading: the game ends at the first hand some total
        # is -2 or less and one player alone has the highest total (a tie for
        # it plays on: ``tie: extra hands``), or after its 20 hands.
        first = next(
            (i for i, t in enumerate(totals) if min(t) <= -2 and t.count(max(t)) == 1),
            None,
        )
        if first is not None:
            assert len(totals) == first + 1
        else:
            assert len(totals) >= 20


def test_the_page_says_it() -> None:
    from cardrules.rulebook.words import end_phrase

    v = load_text(TEXT + "lose at: -2 points\n")
    assert "minus 2 points or less" in end_phrase(v)


def test_a_positive_floor_is_refused() -> None:
    with pytest.raises(VariantError):
        load_text(TEXT + "lose at: 2 points\n")
