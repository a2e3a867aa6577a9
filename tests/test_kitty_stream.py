"""The declarer's stream shows the kitty it takes; the others' streams only
that it took it (a regression: no entry of the log named the kitty's cards, so
the declarer's stream and information state never said what it held)."""

from __future__ import annotations

import random

import cardrules
from cardrules.engine.events import KittyEvent
from cardrules.engine.game import Game


def _to_discards(g: Game, rng: random.Random) -> None:
    while g.phase != "trumps" or not any(
        type(a).__name__ == "Discard" for a in g.legal_actions(g.to_act)
    ):
        seat = g.to_act
        assert seat is not None
        g.apply(rng.choice(g.legal_actions(seat)), seat)


def test_the_declarer_alone_sees_the_kitty_in_its_stream() -> None:
    v = cardrules.load("bid-whist")
    for seed in range(6):
        g = Game(v, 4, seed)
        _to_discards(g, random.Random(seed))
        declarer = g.to_act
        assert declarer is not None
        held = set(g.hand(declarer))
        for seat in range(4):
            kitties = [e for e in g.events_for(seat) if isinstance(e, KittyEvent)]
            assert len(kitties) == 1 and kitties[0].seat == declarer
            if seat == declarer:
                cards = kitties[0].cards
                assert cards is not None and len(cards) == 4 and set(cards) <= held
                assert all(str(c) in g.information_state(seat) for c in cards)
            else:
                assert kitties[0].cards is None
        whole = [e for e in g.events if isinstance(e, KittyEvent)]
        assert whole[0].cards is not None
        # The event round-trips through its JSON form.
        assert KittyEvent.from_dict(whole[0].to_dict()) == whole[0]
