"""Regression: a Bhabhi game can end with a loser holding no cards (the power).

Found by Hypothesis in ``tests/test_catalog_bhabhi.py`` (3 players, seed 3,
rng seed 7488): the last two players play their last cards to one dead trick.
Its taker must lead again (``leader: draws a dead card``), so it is not out,
while the other player goes out; the taker is the last player in and loses,
with no card in hand. The watcher of ``tests/test_shedding_props.py`` used to
demand that the loser hold cards; it now checks this ending instead.
"""

from __future__ import annotations

import random

from test_shedding_props import Watcher

from cardrules import Game, load
from cardrules.engine import Take


def test_the_taker_of_the_last_dead_trick_loses_without_cards() -> None:
    g = Game(load("bhabhi"), players=3, seed=3)
    rng = random.Random(7488)
    watcher = Watcher(g)
    while not g.is_over:
        legal = g.legal_actions()
        plays = [a for a in legal if a != Take()]
        if Take() in legal:
            rng.random()  # the draw that decides whether to take (never, here)
        g.apply(rng.choice(plays), g.to_act)
        watcher.after(check_views=False)
    res = g.result
    assert res is not None and res.finished and res.loser == 1
    assert all(not g.hand(s) for s in range(3))
    last = next(e for e in reversed(g.events) if e[0] in ("dead", "pickup"))
    assert last[0] == "dead" and last[1] == 1
    watcher.finish()
