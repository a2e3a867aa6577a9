"""The batched stepper (cardrules.batch): both layers checked action for action
against single games of the engine played with the same ids (legal masks,
seats, observations, rewards and final scores), the kernel's eligibility read
from the settings, auto-reset, and refusals of bad input."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
import cardrules.batch as cb
from cardrules import Game
from cardrules.batch import GameBatch, TrickKernel, batch, kernel_refusal
from cardrules.dsl.loader import builtin_names
from cardrules.errors import VariantError

#: A built-in of every family, with its number of players, for the generic layer.
FAMILIES = [
    ("oh-hell", 4),
    ("kachuful", 5),
    ("spades", 4),
    ("hearts", 4),
    ("euchre", 4),
    ("whist", 4),
    ("callbreak", 4),
    ("kazhutha", 4),
    ("bhabhi", 3),
    ("five-hundred", 3),  # contract bids: ids past the special cards'
    ("wizard", 4),  # special cards
    ("knockout-whist", 5),
    ("oh-hell-fists", 4),  # bids at the same time
    ("kachuful-blind", 5),  # blind bids, looking
    ("kazhutha-two-packs", 9),  # two packs: copies of cards
]

#: Built-ins whose one-hand game (``hands: list 5``, ``tie: shared``) the kernel plays.
KERNEL_FAMILIES = ["oh-hell", "oh-hell-no-hook", "kachuful", "blackout", "contract-whist"]


def one_hand(name: str, size: int = 5) -> cardrules.Variant:
    """``name`` cut to one hand of ``size`` cards, ties shared."""
    v = cardrules.load(name)
    one = cardrules.load("oh-hell", hands=f"list {size}", tie="shared")
    return v.evolve(schedule=one.schedule, winning=one.winning)


def mask_int(row: np.ndarray) -> int:
    return sum(1 << int(j) for j in np.flatnonzero(row))


def check_step(b: GameBatch | TrickKernel, games: list[Game]) -> None:
    """Seats, legal masks and observations of the batch equal the games'."""
    masks, obs, seats = b.legal_masks(), b.observations(), b.seats
    assert masks.shape == (b.n, b.num_actions) and masks.dtype == bool
    assert obs.shape == (b.n, b.observation_size) and obs.dtype == np.float32
    for i, g in enumerate(games):
        seat = g.current_player()
        assert seats[i] == seat
        assert mask_int(masks[i]) == g.legal_mask()
        assert np.array_equal(obs[i], np.asarray(g.observation(seat), dtype=np.float32))


def play_along(
    b: GameBatch | TrickKernel,
    new_game: object,
    steps: int,
    rng: np.random.Generator,
    some_after: int | None = None,
) -> int:
    """``steps`` random steps of ``b``, each checked against single games made
    by ``new_game(i)`` (again after each auto-reset); the games finished.
    From step ``some_after`` on, each step moves a random subset of the games
    (``active``)."""
    make = new_game  # a callable: index -> a fresh engine game of the batch's deal
    games: list[Game] = [make(i) for i in range(b.n)]  # type: ignore[operator]
    finished = 0
    for step in range(steps):
        check_step(b, games)
        acts = b.sample_actions(rng)
        some = some_after is not None and step >= some_after
        active = rng.random(b.n) < 0.6 if some else np.ones(b.n, dtype=bool)
        before = [g.returns() for g in games]
        for g, a, on in zip(games, acts, active, strict=True):
            if on:
                g.apply_id(int(a), g.current_player())
        b.step(acts, active if some else None)
        for i, g in enumerate(games):
            after = g.returns()
            assert list(b.rewards[i]) == [x - y for x, y in zip(after, before[i], strict=True)]
            assert bool(b.terminated[i]) == g.is_terminal()
            if g.is_terminal():
                finished += 1
                assert list(b.final_scores[i]) == after
                games[i] = make(i)  # type: ignore[operator]
            else:
                assert not b.final_scores[i].any()
    check_step(b, games)
    return finished


@pytest.mark.parametrize(("name", "players"), FAMILIES)
def test_the_generic_layer_plays_every_family_as_the_engine(name: str, players: int) -> None:
    v = cardrules.load(name)
    b = batch(v, 3, players=players, seed=11, kernel=False)
    assert isinstance(b, GameBatch)
    play_along(b, lambda i: Game(v, players, seed=b.seeds[i]), 60, np.random.default_rng(2))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**63 - 1), n=st.integers(1, 3))
def test_the_generic_layer_plays_any_builtin_as_the_engine(
    data: st.DataObject, seed: int, n: int
) -> None:
    name = data.draw(st.sampled_from(builtin_names()), label="variant")
    v = cardrules.load(name)
    players = data.draw(st.integers(v.players.min, v.players.max), label="players")
    b = batch(v, n, players=players, seed=seed, kernel=False)
    play_along(b, lambda i: Game(v, players, seed=b.seeds[i]), 25, np.random.default_rng(seed))


def test_the_generic_layer_resets_finished_games_at_once() -> None:
    v = one_hand("hearts", 3)
    b = GameBatch(v, 4, players=4, seed=5)
    done = play_along(b, lambda i: Game(v, 4, seed=b.seeds[i]), 40, np.random.default_rng(0))
    assert done >= 4  # every game ended at least once, and went on from a new deal


@pytest.mark.parametrize("name", KERNEL_FAMILIES)
def test_the_kernel_plays_one_hand_as_the_engine(name: str) -> None:
    v = one_hand(name)
    for players in (v.players.min, v.players.max):
        assert kernel_refusal(v, players) == ""
        b = batch(v, 12, players=players, seed=players)
        assert isinstance(b, TrickKernel)
        steps = 2 * (players + 5 * players) + 3  # two whole games and a bit
        done = play_along(b, b.engine_game, steps, np.random.default_rng(players))
        assert done == 2 * b.n


@pytest.mark.parametrize("kernel", [False, True])
def test_a_subset_of_the_games_steps_as_the_engine(kernel: bool) -> None:
    v = one_hand("oh-hell", 3)
    b = batch(v, 10, players=4, seed=8, kernel=kernel)
    # the lockstep first, then games at different points, auto-reset apart
    new_game = (
        b.engine_game if isinstance(b, TrickKernel) else (lambda i: Game(v, 4, seed=b.seeds[i]))
    )
    rng = np.random.default_rng(8)
    assert play_along(b, new_game, 80, rng, some_after=5) >= b.n


#: Whole games of several hands (a short schedule, ties shared) the kernel plays.
MANY_HANDS = [
    "game: t\nextends: oh-hell\nhand size: 3\nhands: down to 1 and back up\ntie: shared\n",
    "game: t\nextends: kachuful\nhand size: 4\ntie: shared\n",
    "game: t\nextends: kachuful-no-trump-fifth\nhand size: 5\nhands: down to 1\ntie: shared\n",
    "game: t\nextends: judgement\nhand size: 3\ntie: shared\n",
]


@pytest.mark.parametrize("text", MANY_HANDS)
def test_the_kernel_plays_whole_games_as_the_engine(text: str) -> None:
    v = cardrules.load_text(text)
    sizes = v.hand_sizes(4)
    assert len(sizes) > 1 and kernel_refusal(v, 4) == ""
    b = batch(v, 6, players=4, seed=len(sizes))
    assert isinstance(b, TrickKernel)
    steps = sum(4 + 4 * h for h in sizes)
    rng = np.random.default_rng(3)
    assert play_along(b, b.engine_game, steps + 2, rng) == b.n
    # and again with games moved a subset at a time, at different hands
    b.reset(9)
    assert play_along(b, b.engine_game, 2 * steps, rng, some_after=3) >= b.n


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    n=st.integers(1, 9),
    players=st.integers(3, 7),
    sizes=st.lists(st.integers(1, 7), min_size=1, max_size=3),
    hook=st.booleans(),
    trumps=st.sampled_from(["turned up", "spades", "none"]),
)
def test_the_kernel_equals_the_engine_on_any_seed(
    seed: int, n: int, players: int, sizes: list[int], hook: bool, trumps: str
) -> None:
    hands = "list " + " ".join(map(str, sizes))
    v = cardrules.load("oh-hell", hands=hands, tie="shared", hook=hook, trumps=trumps)
    b = batch(v, n, players=players, seed=seed, kernel=True)
    steps = sum(players + players * h for h in sizes)
    assert play_along(b, b.engine_game, steps, np.random.default_rng(seed)) == n


def test_a_seed_gives_the_same_games() -> None:
    v = one_hand("oh-hell")
    for kernel in (False, True):
        a, b = batch(v, 5, seed=3, kernel=kernel), batch(v, 5, seed=3, kernel=kernel)
        assert np.array_equal(a.observations(), b.observations())
        a.reset(4)
        b.reset(4)
        assert np.array_equal(a.legal_masks(), b.legal_masks())


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("hearts", "passing, a redeal or a match rule"),
        ("kazhutha", "not a trick-taking game"),
        ("oh-hell", "tie-break hands or a target"),
        ("spades", "teams"),
    ],
)
def test_the_kernel_refuses_from_the_settings(name: str, why: str) -> None:
    v = cardrules.load(name)
    assert kernel_refusal(v, 4) == why
    assert isinstance(batch(v, 2, players=4, seed=1), GameBatch)
    with pytest.raises(VariantError, match=why):
        batch(v, 2, players=4, kernel=True)


def test_the_kernel_refuses_what_it_cannot_play_one_hand() -> None:
    assert kernel_refusal(one_hand("spades"), 4) == "teams"
    assert "plain play" in kernel_refusal(one_hand("callbreak"), 4)
    assert "tie-break" in kernel_refusal(cardrules.load("oh-hell", hands="list 5"), 4)
    assert "passing" in kernel_refusal(one_hand("hearts"), 4)
    assert "pack" in kernel_refusal(one_hand("euchre"), 4)
    points = cardrules.load("oh-hell", hands="list 5", tie="shared", score="tricks + cards")
    assert kernel_refusal(points, 4) == ""
    cards = points.evolve(scoring=one_hand("hearts").scoring)
    assert "card points" in kernel_refusal(cards, 4)


@pytest.mark.parametrize("kernel", [False, True])
def test_an_illegal_action_changes_nothing(kernel: bool) -> None:
    b = batch(one_hand("oh-hell"), 3, seed=2, kernel=kernel)
    obs = b.observations()
    masks = b.legal_masks()
    acts = b.sample_actions(np.random.default_rng(0))
    acts[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(ValueError, match="game 1"):
        b.step(acts)
    with pytest.raises(ValueError, match="action ids"):
        b.step(acts[:2])
    with pytest.raises(ValueError, match="action ids"):
        b.step(np.zeros(3))
    assert np.array_equal(b.observations(), obs)


def test_bad_arguments_are_refused() -> None:
    v = one_hand("oh-hell")
    for bad in (0, -1, 1.5, cb.MAX_GAMES + 1):
        with pytest.raises(ValueError, match="n must be"):
            batch(v, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n must be"):
        batch(v, cb.MAX_ENGINE_GAMES + 1, kernel=False)
    with pytest.raises(ValueError, match="hands of a game"):
        batch(cardrules.load("oh-hell", tie="shared"), cb.MAX_GAMES, kernel=True)
    with pytest.raises(ValueError, match="seed"):
        batch(v, 2, seed=-1)
    with pytest.raises(VariantError):
        batch(v, 2, players=9)
    with pytest.raises(TypeError):
        batch("oh-hell", 2)  # type: ignore[arg-type]


def test_the_module_examples_run() -> None:
    assert doctest.testmod(cb).failed == 0


def test_the_page_examples_run_and_the_page_is_in_the_navigation() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    result = doctest.testfile(
        str(docs / "batch.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0 and result.failed == 0
    hook = (docs / "hooks" / "rulebook_pages.py").read_text(encoding="utf-8")
    assert '"batch.md"' in hook and '"cardrules.batch"' in hook


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


def test_the_kernel_deals_and_draws_uniformly() -> None:
    """Chi-square at the 0.999 level, fixed seeds: every card as likely in a
    hand and turned up; sample_actions as likely to play any card of a hand."""
    v = one_hand("oh-hell")
    b = TrickKernel(v, 4000, players=4, seed=21)
    held = np.zeros(52)
    for c in range(52):
        held[c] = ((b.dealt[:, 0] >> np.uint64(c)) & np.uint64(1)).sum()
    assert chi_square(held) < 87.0  # 51 degrees of freedom
    assert chi_square(np.bincount(b.turned, minlength=52).astype(float)) < 87.0
    assert chi_square(np.bincount(b.dealer, minlength=4).astype(float)) < 16.3  # 3
    rng = np.random.default_rng(5)
    for _ in range(4):  # the bids, then the first lead: any card of the hand
        b.step(b.sample_actions(rng))
    hands = b.hands[np.arange(b.n), b.seats].copy()
    cards = b.sample_actions(rng)
    pairs = zip(hands.tolist(), cards.tolist(), strict=True)
    below = np.array([(h & ((1 << c) - 1)).bit_count() for h, c in pairs])
    assert chi_square(np.bincount(below, minlength=5).astype(float)) < 18.5  # 4
