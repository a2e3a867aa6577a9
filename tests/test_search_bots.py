"""The search bots (PIMC, ISMCTS): legal, deterministic, within budget, and blind.

Budgets are tiny: these check behaviour, not strength (the ladder,
benchmarks/ladder.py and docs/ladder.md, measures strength).

Worlds come from ``Game.sample_world`` (tests/test_sample_world.py checks
the sampler itself).
"""

from __future__ import annotations

import functools
import random
import time

import pytest

import cardrules
from cardrules.bots import (
    BOTS,
    GameBot,
    HeuristicBot,
    ISMCTSBot,
    PIMCBot,
    RandomBot,
    decide,
    make_bot,
    play_game,
)
from cardrules.bots.search_support import hand_rewards, playout_hand, random_policy
from cardrules.engine import Bid, Game
from cardrules.rulebook import builtin_variants

#: One variant of every family (the roots of the built-ins) and the ladder's games.
FAMILIES = sorted(
    {v.name for v in builtin_variants() if not v.parent}
    | {"spades", "callbreak", "bhabhi", "donkey", "kachuful-blind", "hearts-3-to-6"}
)


def _tiny(seed: int, kind: str) -> PIMCBot | ISMCTSBot:
    if kind == "pimc":
        return PIMCBot(seed, worlds=2)
    return ISMCTSBot(seed, iterations=12)


def _advance(g: Game, steps: int, seed: int = 0) -> None:
    bot = HeuristicBot(seed)
    for _ in range(steps):
        if g.is_over:
            return
        seat = g.to_act if g.to_act is not None else min(g.waiting_for)
        g.apply(bot.choose(g.view(seat)), seat)


def test_the_registry_builds_the_search_bots() -> None:
    """``make_bot("pimc")`` and ``make_bot("ismcts")`` give game bots."""
    assert {"pimc", "ismcts"} <= set(BOTS)
    for name, cls in (("pimc", PIMCBot), ("ismcts", ISMCTSBot)):
        bot = make_bot(name, 3)
        assert isinstance(bot, cls)
        assert isinstance(bot, GameBot)
    assert not isinstance(RandomBot(1), GameBot)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"worlds": 0},
        {"worlds": 10**9},
        {"playouts": 0},
        {"worlds": 1.5},
        {"time_limit": 0},
        {"time_limit": -1},
        {"policy": "oracle"},
    ],
)
def test_pimc_refuses_bad_budgets(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        PIMCBot(1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"iterations": 10**9},
        {"worlds": 0},
        {"time_limit": 0},
        {"exploration": -1},
    ],
)
def test_ismcts_refuses_bad_budgets(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", FAMILIES)
def test_search_bots_play_only_legal_actions_in_every_family(name: str) -> None:
    """Both bots (two seats each) play the first hand, or 20 tricks, of every
    family without an illegal action, and never change the game they search."""
    v = cardrules.load(name)
    players = max(v.players.min, min(4, v.players.max))
    g = Game(v, players, seed=11, max_tricks=20)
    bots = [_tiny(s, "pimc" if s % 2 == 0 else "ismcts") for s in range(players)]
    searched = 0
    while not g.is_over and g.hand_number == 1:
        seat = g.to_act if g.to_act is not None else min(g.waiting_for)
        before = g.clone()
        action = bots[seat].choose_in(g, seat)
        assert g == before, "the search changed the game"
        assert action in g.legal_actions(seat)
        g.apply(action, seat)
        searched += 1
    assert searched > 0


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_choices_are_deterministic_given_a_seed(kind: str) -> None:
    """The same seed and iteration budget give the same game, move for move."""

    def run(seed: int) -> list[str]:
        g = Game(cardrules.load("oh-hell"), 4, seed=5, max_tricks=12)
        bots = [_tiny(seed, kind), HeuristicBot(1), _tiny(seed + 1, kind), HeuristicBot(2)]
        play_game(g, bots)
        return [str(e) for e in g.events]

    assert run(7) == run(7)


def test_the_time_limit_is_respected() -> None:
    """A huge iteration budget stops at the time limit (loosely: one playout over)."""
    g = Game(cardrules.load("callbreak"), 4, seed=2)
    _advance(g, 4)  # the bids: the play starts with 13 cards
    seat = g.to_act
    assert seat is not None
    for bot in (
        ISMCTSBot(1, iterations=10**6, time_limit=0.2),
        PIMCBot(1, worlds=10**5, time_limit=0.2, policy="random"),
    ):
        t0 = time.perf_counter()
        action = bot.choose_in(g, seat)
        elapsed = time.perf_counter() - t0
        assert action in g.legal_actions(seat)
        assert 0.15 < elapsed < 1.5, (bot, elapsed)


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        ("oh-hell", 9),
        ("oh-hell", 60),  # the second hand
        ("spades", 9),
        ("callbreak", 30),
        ("kachuful", 9),
        ("hearts", 20),  # after the pass
        ("kazhutha", 12),
        ("euchre", 7),
    ],
)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_a_search_bot_never_reads_hidden_cards(name: str, steps: int, kind: str) -> None:
    """Two games the seat cannot tell apart (same view, same event stream, other
    hands different: two worlds sampled for it) get the same choice from bots
    with the same seed."""
    v = cardrules.load(name)
    base = Game(v, 4, seed=21)
    _advance(base, steps)
    seat = base.to_act if base.to_act is not None else min(base.waiting_for)
    rng = random.Random(4)
    a = base.sample_world(seat, rng)
    b = base.sample_world(seat, rng)
    assert a.view(seat) == b.view(seat)
    assert a.events_for(seat) == b.events_for(seat)
    others = [s for s in range(4) if s != seat]
    assert any(a.hand(s) != b.hand(s) for s in others), "the two games are the same"
    for seed in (1, 2):
        assert _tiny(seed, kind).choose_in(a, seat) == _tiny(seed, kind).choose_in(b, seat)


def test_pimc_bids_what_a_hand_of_top_trumps_takes() -> None:
    """Holding the four top trumps in a four-card hand, PIMC bids 4 (it judges a
    bid by playing the hand out with it); holding four low cards, 0."""
    text = (
        "game: top\nplayers: 4\nhand size: 4\nhands: 1 hands of the same size\ntrumps: spades\n"
        "bidding: in turn\nhook: no\nscore: if exact then 10 + bid else 0\n"
    )
    v = cardrules.load_text(text)
    # Dealt one at a time from seat 1 (seat 0 deals): seat 1 gets A♠ K♠ Q♠ J♠.
    strong = ["AS", "2C", "3C", "4C", "KS", "5C", "6C", "7C", "QS", "8C", "9C", "2D", "JS", "3D"]
    strong += ["4D", "5D"]
    g = Game(v, 4, deck=strong, first_dealer=0)
    assert g.to_act == 1
    assert PIMCBot(3, worlds=6).choose_in(g, 1) == Bid(4)
    weak = ["2H", "AC", "AD", "AS", "3H", "KC", "KD", "KS", "4H", "QC", "QD", "QS", "5H"]
    weak += ["JC", "JD", "JS"]
    g = Game(v, 4, deck=weak, first_dealer=0)
    assert PIMCBot(3, worlds=6).choose_in(g, 1) == Bid(0)


class _Recorder:
    """A game bot that records how it was asked."""

    name = "recorder"

    def __init__(self, seed: int = 0) -> None:
        self.calls: list[str] = []
        self._bot = RandomBot(seed)

    def choose(self, view: object) -> object:
        self.calls.append("view")
        return self._bot.choose(view)  # type: ignore[arg-type]

    def choose_in(self, game: Game, seat: int) -> object:
        self.calls.append("game")
        return self._bot.choose(game.view(seat))


def test_the_drivers_give_game_bots_the_game() -> None:
    """``play_game`` and ``decide`` call ``choose_in`` when a bot has it."""
    rec = _Recorder(1)
    g = Game(cardrules.load("oh-hell"), 4, seed=1, max_tricks=3)
    play_game(g, [rec, RandomBot(2), RandomBot(3), RandomBot(4)])  # type: ignore[list-item]
    assert rec.calls and set(rec.calls) == {"game"}
    g = Game(cardrules.load("oh-hell"), 4, seed=1)
    assert decide(RandomBot(5), g, g.to_act or 0) in g.legal_actions()


def test_simulate_plays_search_bots_by_name_and_by_factory() -> None:
    """``cardrules.simulate`` runs the search bots (registered names, and
    factories with their budgets) through ``choose_in``."""
    one_hand = cardrules.load_text(
        "game: one\nplayers: 3 to 5\nhand size: 3\nhands: 1 hands of the same size\nscore: tricks\n"
    )
    s = cardrules.simulate(
        one_hand, 4, 3, [functools.partial(PIMCBot, worlds=1), "ismcts", "heuristic"], seed=3
    )
    assert s.games == s.finished == 3
    assert s.bots[1] == "ismcts"


def test_playout_and_rewards() -> None:
    """A playout ends the hand; the rewards are each seat's points in it."""
    g = Game(cardrules.load("oh-hell"), 4, seed=9)
    before = g.scores
    w = g.clone()
    assert playout_hand(w, random_policy, random.Random(1))
    assert w.hand_number == 2
    rewards = hand_rewards(w, before)
    assert rewards == [float(a - b) for a, b in zip(w.scores, before, strict=True)]
    hearts = Game(cardrules.load("hearts"), 4, seed=9)
    before = hearts.scores
    w = hearts.clone()
    playout_hand(w, random_policy, random.Random(1))
    assert sum(hand_rewards(w, before)) < 0  # points taken in Hearts count against


def test_the_docstring_examples_run() -> None:
    """The examples in the search bots' docstrings (and the ladder's) are true."""
    import doctest
    import sys
    from pathlib import Path

    from cardrules.bots import ismcts, pimc, search_support

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import ladder

    for mod in (search_support, pimc, ismcts, ladder):
        failed, tried = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert failed == 0 and tried > 0, mod.__name__
