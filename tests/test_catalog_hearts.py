"""The catalog's ``hearts`` (after https://www.pagat.com/reverse/hearts.html).

The file's own checks (source, round trip, the rules it states), its worked
examples, and 200 seeded games to the end by random legal actions: cards
conserved at every step (passed cards included), 26 points a hand or the moon,
totals that add up, and an end at 100 points with the lowest total winning.
The golden games and properties of the pass are in ``tests/test_passing.py``.
"""

from __future__ import annotations

import random

from catalog_support import roundtrip

import cardrules
from cardrules.example_runner import run_examples
from cardrules.rules import PassRule, PassTo

HEARTS = cardrules.load("hearts")


def test_hearts_file() -> None:
    v = HEARTS
    assert v.name == "hearts" and v.title == "Hearts" and v.summary
    assert v.parent is None
    lead = v.source.split("game:")[0]
    assert lead.startswith("# ") and "https://www.pagat.com/reverse/hearts.html" in lead
    roundtrip(v)
    assert v.passing == PassRule(3, (PassTo.LEFT, PassTo.RIGHT, PassTo.ACROSS, PassTo.NONE))
    assert tuple(v.players.counts()) == (4,)
    assert v.winning.target == 100 and not v.scoring.higher_wins
    assert sum(v.scoring.card_points) == 26
    assert str(v.play.lead_card) == "2♣"


def test_hearts_examples_pass() -> None:
    assert len(HEARTS.examples) >= 5
    assert run_examples(HEARTS) == []


def test_hearts_rules_page_describes_the_pass() -> None:
    page = cardrules.rulebook(HEARTS, engine_examples=False)
    assert "## Passing cards" in page
    assert "every player chooses 3 cards" in page
    assert "in the 1st hand to the next player to play after you (on your left)" in page
    assert "in the 3rd hand to the player sitting across the table" in page
    assert "in the 4th hand nobody passes" in page


def test_200_seeded_games_to_the_end() -> None:
    pack = HEARTS.deck.cards.mask
    for seed in range(200):
        rng = random.Random(seed)
        g = cardrules.Game(HEARTS, 4, seed=seed)
        while not g.is_over:
            if g.phase == "pass":
                s = rng.choice(sorted(g.waiting_for))
                g.apply(rng.choice(g.legal_actions(s)), s)
            else:
                g.apply(rng.choice(g.legal_actions()), g.to_act)
            union = 0
            for part in g.card_locations().values():
                assert not union & part.mask
                union |= part.mask
            assert union == pack
        totals = [0] * 4
        for e in g.events:
            if e[0] == "score":
                points = [int(x) for x in e[4]]
                assert sum(points) == 26 or sorted(points) == [0, 26, 26, 26]
                totals = [t + p for t, p in zip(totals, points, strict=True)]
                assert list(e[5]) == totals
        result = g.result
        assert result is not None and result.finished
        assert max(totals) >= 100
        # The game stopped at the first hand that took someone to 100.
        running = [e[5] for e in g.events if e[0] == "score"]
        assert all(max(r) < 100 for r in running[:-1])
        low = min(totals)
        assert result.winners == tuple(s for s in range(4) if totals[s] == low)
