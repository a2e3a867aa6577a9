"""An honest stand-in for ``Game.sample_world`` in the first hand of a trick-taking
game without passing, for the search-bot tests (tests only).

It deals the cards the seat has not seen at random among the other seats
(each keeping the cards it has been seen to play), builds that game from a
stacked deck and replays the seat's event stream; a deal in which a replayed
play is illegal (a seat that showed out of a suit would hold it) is drawn
again: rejection sampling, so uniform over the consistent deals. It reads
only the seat's view and events, and the rules.
"""

from __future__ import annotations

import random

from cardrules.engine import Bid, Game, Look, Play
from cardrules.engine.dealing import _deck_of_deal
from cardrules.engine.event_records import BidEvent, LookEvent, PlayEvent
from cardrules.errors import CardrulesError


def honest_world(game: Game, seat: int, rng: random.Random) -> Game:
    """A world ``seat`` cannot tell from ``game`` (first hand, no passing)."""
    view = game.view(seat)
    assert view.hand_number == 1 and view.hand is not None
    events = game.events_for(seat)
    played: dict[int, list[int]] = {s: [] for s in range(game.players)}
    actions: list[tuple[int, object]] = []
    for ev in events:
        if isinstance(ev, PlayEvent):
            played[ev.seat].append(int(ev.card))
            actions.append((ev.seat, Play(ev.card)))
        elif isinstance(ev, BidEvent):
            assert ev.bid is not None, "simultaneous bids are not supported here"
            actions.append((ev.seat, Bid(ev.bid)))
        elif isinstance(ev, LookEvent):
            actions.append((ev.seat, Look()))
    mine = [int(c) for c in view.hand] + played[seat]
    turned = -1 if view.turned_up is None else int(view.turned_up)
    r = game._r
    seen = set(mine) | {c for s in played for c in played[s]} | ({turned} if turned >= 0 else set())
    pool = [c for c in r.pack if c not in seen]
    size = view.hand_size
    dealer = view.dealer
    dealers_card = turned >= 0 and size * game.players >= len(r.pack)
    if dealers_card and dealer != seat and turned not in played[dealer]:
        played[dealer].append(turned)  # the dealer's last card, turned up
    dealt_from = game._order[view.dealer]
    for _ in range(10_000):
        rng.shuffle(pool)
        hands = [0] * game.players
        k = 0
        for s in range(game.players):
            cards = mine if s == seat else played[s] + pool[k : k + size - len(played[s])]
            if s != seat:
                k += size - len(played[s])
            hands[s] = sum(1 << c for c in cards)
        deck = _deck_of_deal(r, game.players, dealt_from, size, tuple(hands), turned)
        world = Game(
            game.variant,
            game.players,
            seed=rng.getrandbits(63),
            deck=[deck],
            first_dealer=view.dealer,
        )
        try:
            for s, a in actions:
                world.apply(a, s)  # type: ignore[arg-type]
        except CardrulesError:
            continue
        return world
    raise AssertionError("no consistent world found")
