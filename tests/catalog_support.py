"""Shared helpers for the catalog tests (``tests/test_catalog_*.py``).

The catalog is the set of built-in variant files in ``variants/``. For each
file the tests check that it reads and writes back to itself, that it changes
exactly the rules it states compared with its parent, that random games of it
play to the end with the engine's invariants holding, and (in each module)
that its distinguishing rule works on a stacked deck.

Variant files cite public sources only (Pagat pages, a game's published rules):
:func:`internal_names` finds the internal names a comment must not use.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import attrs
from oracle import legal_plays

import cardrules
from cardrules import Bid, Card, Game, Play, card
from cardrules.card_rules import CardChoice
from cardrules.rules import BidStyle, FirstLead, FirstLeader, TrumpLead, Variant
from cardrules.scoring import Formula, score_env

#: Fields that name a variant rather than describe its rules.
#: The fields that name or explain a game (the cases of its score too), not its rules.
IDENTITY = frozenset({"name", "title", "summary", "aliases", "parent", "cases"})


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def stack(*hands: str, turn: str | None = None) -> list[Card]:
    """A deck that deals ``hands[i]`` to the i-th seat in dealing order, one card at a
    time (the dealer's neighbour first, in the direction of play), then ``turn``."""
    per = [cards(h) for h in hands]
    size = len(per[0])
    assert all(len(h) == size for h in per)
    order = [per[j][i] for i in range(size) for j in range(len(per))]
    return [*order, card(turn)] if turn else order


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def bid(g: Game, *bids: int) -> None:
    for b in bids:
        g.apply(Bid(b), g.to_act)


def dealer_bids(g: Game) -> list[int]:
    return [a.n for a in g.legal_actions() if isinstance(a, Bid)]


def plays(g: Game) -> set[str]:
    return {str(a.card) for a in g.legal_actions() if isinstance(a, Play)}


def hand_scores(g: Game) -> list[tuple[Any, ...]]:
    """The ``score`` events: ``(hand, bids, tricks, points, totals)``."""
    return [e[1:] for e in g.events if e[0] == "score"]


def deals(g: Game) -> list[int]:
    """The cards dealt to each player in each hand so far."""
    return [e[3] for e in g.events if e[0] == "deal"]


def trumps(g: Game) -> list[Any]:
    return [e[2] for e in g.events if e[0] == "trump"]


# --------------------------------------------------------------------------- files


def roundtrip(v: Variant) -> None:
    """``parse(format(v)) == v`` for a resolved variant (``extends`` is kept as
    the parent's name and not followed, so nothing needs looking up)."""
    text = cardrules.format(v)
    assert cardrules.parse(text, validate=False) == v
    assert cardrules.format(cardrules.parse(text, validate=False)) == text


def leaf_differences(a: Any, b: Any, prefix: str = "") -> set[str]:
    """The dotted attrs field paths where ``a`` and ``b`` differ (recursively;
    fields with ``eq=False`` such as source positions are skipped)."""
    leaf = (Formula, CardChoice)
    if attrs.has(type(a)) and type(a) is type(b) and not isinstance(a, leaf):
        out: set[str] = set()
        for f in attrs.fields(type(a)):
            if not f.eq:
                continue
            out |= leaf_differences(getattr(a, f.name), getattr(b, f.name), prefix + f.name + ".")
        return out
    return set() if a == b else {prefix.rstrip(".")}


def rule_differences(name: str) -> set[str]:
    """The rule fields in which the catalog file ``name`` differs from its parent."""
    v = cardrules.load(name)
    assert v.parent is not None, f"{name} extends nothing"
    parent = cardrules.load(v.parent)
    return {d for d in leaf_differences(v, parent) if d.split(".")[0] not in IDENTITY}


#: Names of internal texts and files that a variant file's comment must not use: the
#: reader has no way to look them up.
_INTERNAL = re.compile(
    r"\bseeds?\s*0\d*\b|\bseeds?/|\bshared/|\brules texts?\b|\b(oh hell|rules) sheet\b"
    r"|\b(dutch|english) kachuful text\b|\b[\w-]+\.(md|txt|py|json)\b",
    re.IGNORECASE,
)


def leading_comment(source: str) -> list[str]:
    """The comment lines at the top of a variant file, up to its first statement."""
    lines: list[str] = []
    for line in source.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            break
        lines.append(line)
    return lines


def internal_names(comment: str) -> list[str]:
    """The internal names (``seed 002``, ``the Oh Hell sheet``, ``README.md``...) in
    ``comment``, in order; empty when it cites only public sources."""
    return [m.group(0) for m in _INTERNAL.finditer(comment)]


def check_file(name: str, expected: set[str] | None) -> None:
    """The common checks of one catalog file: loads by name, states where it comes
    from in a leading comment, round-trips, and differs from its parent in exactly
    ``expected`` (``None``: a game of its own, extending nothing)."""
    v = cardrules.load(name)
    assert v.name == name and v.title and v.summary
    assert v.source.startswith("# "), f"{name} must open with a comment"
    lead = " ".join(line.lstrip("#").strip() for line in leading_comment(v.source)).lower()
    assert re.search(r"https?://[a-z0-9.-]+\.[a-z]{2,}/", lead), (
        f"{name} must say where its rule comes from: a public source, such as a pagat.com page"
    )
    internal = internal_names(lead)
    assert not internal, f"{name}'s comment names internal texts {internal}: cite public sources"
    roundtrip(v)
    if expected is None:
        assert v.parent is None, f"{name} extends {v.parent}"
        return
    assert rule_differences(name) == expected


# --------------------------------------------------------------------------- random play


def play_random(v: Variant, players: int, seed: int, *, oracle_every: int = 1) -> Game:
    """Play one game of ``v`` with random legal actions, checking as it goes:

    * card conservation after every action: hands, the trick, won tricks, the
      undealt cards and the turned card partition the pack;
    * every offered play is what the independent oracle (``tests/oracle.py``)
      allows (checked every ``oracle_every`` plays);

    and from the log once the game is over:

    * the hook: when the dealer bids last under the hook, the bids never add up
      to the tricks of the hand;
    * each hand's points are the score formula on the final bids, tricks and
      blindness, the tricks are the ``trick`` events, and the totals add up;
    * the hands dealt follow the schedule, tie-break hands having the largest size.
    """
    rng = random.Random(seed)
    g = Game(v, players=players, seed=seed)
    pack = v.deck.cards.mask
    p = v.play
    played: list[Card] = []
    broken = p.trump_lead is TrumpLead.ANY_TIME
    hand_number = g.hand_number
    n_plays = 0
    while not g.is_over:
        if g.hand_number != hand_number:
            hand_number, played = g.hand_number, []
            broken = p.trump_lead is TrumpLead.ANY_TIME
        seat = g.to_act
        legal = g.legal_actions()
        if g.phase == "play" and n_plays % oracle_every == 0:
            trick = [c for _, c in g.current_trick()]
            trump = g.trump
            first = not played and not trick
            allowed = legal_plays(
                list(g.hand(seat)),
                trick,
                trump,
                must_follow=p.must_follow,
                must_trump=p.must_trump,
                must_beat=p.must_beat,
                trumps_broken=broken,
                first_lead=p.lead_card if first and p.first_lead is FirstLead.CARD else None,
                first_lead_suit=(
                    p.lead_card.suit if first and p.first_lead is FirstLead.SUIT else None
                ),
            )
            assert {a.card for a in legal} == allowed
        action = rng.choice(legal)
        g.apply(action, g.to_act)
        if isinstance(action, Play):
            n_plays += 1
            played.append(action.card)
            broken = broken or action.card.suit == g.trump
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask, "a card is in two places"
            union |= part.mask
        assert union == pack, "a card went missing"
    check_log(v, g)
    return g


def check_log(v: Variant, g: Game) -> None:
    """The checks of :func:`play_random` that read the finished game's log."""
    players = g.players
    formula = v.scoring.formula
    assert formula is not None
    hook = v.bidding.hook and v.bidding.style is BidStyle.IN_TURN
    totals = [0] * players
    size = 0
    blind: dict[int, bool] = {}
    won = [0] * players
    dealt: list[int] = []
    for e in g.events:
        kind = e[0]
        if kind == "deal":
            size = e[3]
            dealt.append(size)
            blind, won = {}, [0] * players
        elif kind == "bid":
            blind[e[1]] = bool(e[3])
        elif kind == "amend":
            blind[e[1]] = False
        elif kind == "bids" and hook:
            assert sum(e[1]) != size, f"the hook was broken: {e[1]} with {size} cards"
        elif kind == "trick":
            won[e[1]] += 1
        elif kind == "score":
            hn, bids, tricks, points, running = e[1:]
            assert list(tricks) == won and sum(tricks) == size
            for s in range(players):
                env = score_env(
                    bid=bids[s] if bids[s] is not None else 0,
                    tricks=tricks[s],
                    cards=size,
                    hand=hn,
                    players=players,
                    blind=blind.get(s, False),
                )
                assert points[s] == formula.evaluate(env)
                totals[s] += points[s]
            assert tuple(totals) == tuple(running)
    assert g.result is not None and g.result.finished
    assert tuple(totals) == tuple(g.scores) == g.result.totals
    sizes = v.hand_sizes(players)
    assert dealt[: len(sizes)] == list(sizes)
    assert all(d == max(sizes) for d in dealt[len(sizes) :])
    assert len([e for e in g.events if e[0] == "score"]) == len(dealt)


def games(players: range, count: int) -> Iterator[tuple[int, int]]:
    """``count`` (players, seed) pairs cycling through the allowed player counts."""
    counts = list(players)
    for i in range(count):
        yield counts[i % len(counts)], 1000 + i


__all__ = [
    "FirstLeader",
    "bid",
    "cards",
    "check_file",
    "dealer_bids",
    "deals",
    "games",
    "hand_scores",
    "internal_names",
    "leading_comment",
    "leaf_differences",
    "play",
    "play_random",
    "plays",
    "roundtrip",
    "rule_differences",
    "stack",
    "trumps",
]
