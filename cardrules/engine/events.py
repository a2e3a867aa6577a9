"""The game log's entries: the :data:`Event` type, their public form, and the
log as one seat may see it.

Inside the engine an entry is a cheap tuple (cards as ints, hands as masks,
lists that are never changed again); :func:`_public` turns one into the form
:attr:`Game.events` documents.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from typing import Any

from cardrules.cards import ALL_CARDS, CardSet
from cardrules.engine.actions import Discard

#: One log entry: a tuple whose first item is the kind (see :attr:`Game.events`).
Event = tuple[Any, ...]


def _public(ev: Event) -> Event:
    """An internal log entry in its public form (hands as CardSets, tuples, exact
    Fractions, ``None`` for a missing bid); the internal form is cheaper to build."""
    kind = ev[0]
    if kind in ("play", "draw"):
        return (kind, ev[1], ALL_CARDS[ev[2]])
    if kind == "deal":
        return (kind, ev[1], ev[2], ev[3], tuple(map(CardSet, ev[4])))
    if kind == "pass":
        return (kind, ev[1], ALL_CARDS[ev[2]])
    if kind == "exchange":
        return (kind, ev[1], tuple(ev[2]), tuple(map(CardSet, ev[3])))
    if kind in ("trick", "dead", "pickup"):
        return (kind, ev[1], tuple(ev[2]), tuple(map(ALL_CARDS.__getitem__, ev[3])))
    if kind == "bids":
        # A seat that does not bid (``team bids: one per side``) has no bid.
        return (kind, tuple(None if b < 0 else b for b in ev[1]))
    if kind == "score":
        return (
            kind,
            ev[1],
            tuple(None if b < 0 else b for b in ev[2]),
            ev[3],
            tuple(map(Fraction, ev[4])),
            tuple(map(Fraction, ev[5])),
        )
    if kind == "over":
        return (kind, ev[1], tuple(map(Fraction, ev[2])), ev[3], ev[4], ev[5])
    return ev


def _events_for(
    events: list[Event],
    seat: int,
    *,
    current_hand: int,
    sees_own: bool,
    bids_hidden: bool,
    forehead_sizes: Collection[int],
) -> list[Event]:
    """The log as ``seat`` may see it: other seats' cards, hidden bids, the cards
    other seats choose to pass (in an ``"exchange"``, all but the seat's own and
    those passed to it), other seats' discards (face down) and the seed are
    replaced by ``None``.

    ``sees_own``: whether ``seat`` sees its own cards in the current hand;
    ``bids_hidden``: whether the current hand's bids are simultaneous and not
    all made; ``forehead_sizes``: the hand sizes where every seat sees the
    others' cards (empty when the variant has no bidding). Every card played
    is public, so completed tricks (dead ones too) are shown whole.
    """
    out: list[Event] = []
    last_deal = max(i for i, e in enumerate(events) if e[0] == "deal")
    for i, ev in enumerate(events):
        kind = ev[0]
        if kind == "start":
            out.append((kind, ev[1], None, ev[3], ev[4]))
            continue
        ev = _public(ev)
        if kind == "deal":
            hn = ev[1]
            forehead = ev[3] in forehead_sizes
            hands = tuple(
                h
                if ((s == seat and (hn != current_hand or sees_own)) or (s != seat and forehead))
                else None
                for s, h in enumerate(ev[4])
            )
            out.append((kind, hn, ev[2], ev[3], hands))
        elif kind == "bid" and bids_hidden and ev[1] != seat and i > last_deal:
            out.append((kind, ev[1], None, ev[3]))
        elif kind == "pass" and ev[1] != seat:
            out.append((kind, ev[1], None))
        elif kind == "exchange":
            targets = ev[2]
            shown = tuple(
                cs if s == seat or targets[s] == seat else None for s, cs in enumerate(ev[3])
            )
            out.append((kind, ev[1], targets, shown))
        elif kind == "call" and ev[1] != seat and type(ev[2]) is Discard:
            # A discard is face down: only the seat that made it knows the card.
            out.append((kind, ev[1], None))
        else:
            out.append(ev)
    return out
