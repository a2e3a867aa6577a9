"""The PettingZoo adapter (cardrules.pettingzoo): PettingZoo's own API and seed
tests for a built-in of every variant family, and the adapter's promises: the
mask is the legal actions, the observations are Game.observation, rewards add
up to the final totals, illegal actions are refused with the cardrules error."""

from __future__ import annotations

import contextlib
import copy
import doctest
import io
import pickle
import random
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy", reason="the pettingzoo extra: pip install -e '.[pettingzoo]'")
pytest.importorskip("pettingzoo", reason="the pettingzoo extra: pip install -e '.[pettingzoo]'")

import numpy as np
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

import cardrules
import cardrules.bounds
import cardrules.pettingzoo as cz
from cardrules.engine import NUM_ACTIONS, Action, Game, observation_layout
from cardrules.errors import IllegalAction, InvalidAction, VariantError
from cardrules.rulebook import builtin_variants
from cardrules.rules import Mode

BUILTINS = builtin_variants()
DOCS = Path(__file__).resolve().parent.parent / "docs"


def _one_hand() -> cardrules.Variant:
    return cardrules.load("oh-hell", hands="list 5", tie="shared")


#: One built-in of every family, as (id, variant, players, api_test cycles):
#: enough cycles to play the short games to their end (and past it, through
#: every agent's last step), a few hands of the long ones.
FAMILIES: list[tuple[str, Callable[[], cardrules.Variant], int, int]] = [
    ("oh-hell-one-hand", _one_hand, 4, 40),
    ("oh-hell", lambda: cardrules.load("oh-hell"), 4, 60),
    ("kachuful", lambda: cardrules.load("kachuful"), 5, 40),
    ("kachuful-blind", lambda: cardrules.load("kachuful-blind"), 4, 30),
    ("kachuful-forehead", lambda: cardrules.load("kachuful-forehead"), 4, 30),
    ("oh-hell-fists", lambda: cardrules.load("oh-hell-fists"), 4, 30),
    ("callbreak", lambda: cardrules.load("callbreak"), 4, 40),
    ("spades", lambda: cardrules.load("spades"), 4, 40),
    ("spades-jokers", lambda: cardrules.load("spades-jokers"), 4, 40),
    ("hearts", lambda: cardrules.load("hearts"), 4, 40),
    ("euchre-defend-alone", lambda: cardrules.load("euchre-defend-alone"), 4, 60),
    ("knockout-whist", lambda: cardrules.load("knockout-whist"), 4, 40),
    ("kazhutha", lambda: cardrules.load("kazhutha"), 4, 60),
    ("bhabhi", lambda: cardrules.load("bhabhi"), 3, 60),
]
FAMILY_IDS = [f[0] for f in FAMILIES]

#: The warnings api_test gives every environment whose observation is a dict
#: of an observation and an action mask (PettingZoo's own classic card games
#: are spared them only by being named in the test's lists).
_EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [
        str(w.message)
        for w in caught
        if not any(str(w.message).startswith(e) for e in _EXPECTED_WARNINGS)
    ]


@pytest.mark.parametrize(("name", "make", "players", "cycles"), FAMILIES, ids=FAMILY_IDS)
def test_pettingzoo_api_test_and_seed_test(
    name: str, make: Callable[[], cardrules.Variant], players: int, cycles: int
) -> None:
    """PettingZoo's api_test and seed_test pass, with no warning beyond the
    two every dict-observation environment gets."""
    v = make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            api_test(cz.env(v, players), num_cycles=cycles)
        seed_test(lambda: cz.env(v, players), num_cycles=cycles)
    assert "Passed API test" in out.getvalue()
    assert _unexpected(caught) == []


def _drive(e: Any, rng: random.Random, check: bool = False) -> dict[str, float]:
    """Play ``e`` (reset already) with random legal moves to the end; the
    rewards each agent got from ``last()``, summed."""
    got: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        got[agent] += reward
        if check:
            _check_step(e)
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    return got


#: Families whose whole random games are short enough to play to the end here.
_WHOLE_GAMES = [f for f in FAMILIES if f[0] not in ("spades", "spades-jokers")]


@pytest.mark.parametrize(("name", "make", "players", "cycles"), _WHOLE_GAMES, ids=lambda x: x)
def test_points_add_up_to_the_final_totals(
    name: str, make: Callable[[], cardrules.Variant], players: int, cycles: int
) -> None:
    """Over a whole game, each agent's rewards add up to its final total
    (negated when the lowest total wins), and every agent is terminated.
    Shedding games score no points, so they are played with points asked for:
    the rewards are then all 0, as their totals. Every step of the game, to
    its last hand, keeps the promises of ``_check_step``."""
    v = make()
    e = cz.env(v, players, reward="points")
    e.reset(seed=11)
    got = _drive(e, random.Random(11), check=True)
    game = e.unwrapped.game
    assert game.is_over and e.agents == []
    sign = 1 if v.scoring.higher_wins else -1
    result = game.result
    assert result is not None
    # float rewards of exact (sometimes fractional: Callbreak's 3.1) points
    assert got == pytest.approx(
        {f"player_{s}": float(sign * t) for s, t in enumerate(result.totals)}
    )
    assert any(got.values()) == (v.mode is Mode.TRICKS)  # points were scored


def test_hearts_rewards_are_the_negated_penalty_points() -> None:
    """In Hearts (lowest total wins) a hand's reward is minus its points, so
    the agents' rewards of a hand add up to minus the 26 points of the hand
    (or 3 × 26 when someone shoots the moon)."""
    e = cz.raw_env("hearts", 4)
    e.reset(seed=2)
    rng = random.Random(2)
    hand_totals = []
    while e.unwrapped.game.hand_number == 1:
        agent = e.agent_selection
        e.step(rng.choice(e.infos[agent]["legal_moves"]))
        if any(e.rewards.values()):
            hand_totals.append(sum(e.rewards.values()))
    assert hand_totals in ([-26.0], [-78.0])


def test_win_reward_shares_one_among_the_winning_sides() -> None:
    """``reward="win"``: nothing until the end, then 1 split among the sides
    that share the win; a team's seats each get the team's share."""
    for name, players, reward in (
        ("kazhutha", 4, "auto"),
        ("bhabhi", 5, "auto"),
        ("oh-hell", 3, "win"),
        ("euchre", 4, "win"),
    ):
        for seed in range(3):
            v = _one_hand() if name == "oh-hell" else cardrules.load(name)
            e = cz.env(v, players, reward=reward)
            e.reset(seed=seed)
            got = _drive(e, random.Random(seed))
            result = e.unwrapped.game.result
            teams = result.teams
            index = {s: k for k, t in enumerate(teams) for s in t}
            sides = {index.get(s, -1 - s) for s in result.winners}
            want = {
                f"player_{s}": (1 / len(sides) if s in result.winners else 0.0)
                for s in range(players)
            }
            assert got == pytest.approx(want)
            if teams:
                assert sum(got.values()) == pytest.approx(len(teams[0]))
            else:
                assert sum(got.values()) == pytest.approx(1.0)


def _f32(values: list[float]) -> Any:
    return np.asarray(values, dtype=np.float32)


def _check_step(e: Any) -> None:
    """What every step promises: the selected agent is the seat to act, its
    mask and legal moves are the game's legal action ids, every observation
    is the game's, in the observation space, and no other agent has a move."""
    env = e.unwrapped
    game: Game = env.game
    agent = env.agent_selection
    for a in env.agents:
        seat = int(a.split("_")[1])
        obs = env.observe(a)
        assert obs["observation"].dtype == np.float32
        assert np.array_equal(obs["observation"], _f32(game.observation(seat)))
        assert env.observation_space(a).contains(obs)
        live = not (env.terminations[a] or env.truncations[a])
        if a == agent and live:
            assert game.to_act == seat and seat in game.waiting_for
            legal = game.legal_action_ids(seat)
            assert legal and np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal)
            assert obs["action_mask"].tolist() == game.action_mask(seat)
            assert env.infos[a] == {"legal_moves": legal}
        else:
            assert not obs["action_mask"].any()
            assert env.infos[a] == {"legal_moves": []}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_every_step_of_every_builtin_keeps_the_promises(data: st.DataObject) -> None:
    """Hypothesis over every built-in variant and player count: at every step
    (through a pass, a simultaneous bid, the choice of trumps, shedding...),
    the mask and infos are the legal moves of the seat to act, observations
    are ``Game.observation`` and within the space, and the environment's game
    is the one ``Game(variant, players, seed)`` plays with the same moves."""
    v = data.draw(st.sampled_from(BUILTINS), label="variant")
    players = data.draw(st.integers(v.players.min, v.players.max), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    e = cz.env(v, players, max_actions=120)
    e.reset(seed=seed)
    twin = Game(v, players, seed=seed)
    rng = random.Random(seed)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        _check_step(e)
        if terminated or truncated:
            e.step(None)
            continue
        assert agent == f"player_{twin.to_act}"
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        twin.apply_action(action)
    assert e.agents == []
    assert e.unwrapped.game.to_json() == twin.to_json()


def test_simultaneous_phases_are_played_in_turn() -> None:
    """A simultaneous bid (fists) and Hearts' pass: every seat is selected in
    turn while it waits, each selected agent is among the waiting seats, and
    a seat that has chosen cannot see the others' hidden choices."""
    for name, phase in (("oh-hell-fists", "bid"), ("hearts", "pass")):
        e = cz.raw_env(name, 4)
        e.reset(seed=5)
        game = e.game
        acted = []
        rng = random.Random(5)
        while game.phase == phase and game.hand_number == 1:
            assert len(game.waiting_for) > 1 or acted
            seat = int(e.agent_selection.split("_")[1])
            assert seat in game.waiting_for
            acted.append(seat)
            e.step(rng.choice(e.infos[e.agent_selection]["legal_moves"]))
        assert set(acted) == {0, 1, 2, 3}
        # the env's observation of each seat is its view's: nothing of the others
        for s in range(4):
            assert np.array_equal(
                e.observe(f"player_{s}")["observation"], _f32(game.observation(s))
            )


def test_illegal_and_invalid_actions_are_refused_and_change_nothing() -> None:
    """An illegal action raises the cardrules IllegalAction with its code; a
    value that is no action id raises InvalidAction (bad_action); either way
    the game, the selected agent, the rewards and the infos are unchanged."""
    e = cz.env("oh-hell", 4)
    e.reset(seed=3)
    raw = e.unwrapped
    before = (raw.game.to_json(), raw.agent_selection, dict(raw.rewards), dict(raw.infos))
    legal = set(raw.infos[raw.agent_selection]["legal_moves"])
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(IllegalAction) as err:
        e.step(illegal)
    assert err.value.code
    for bad in (NUM_ACTIONS, -1, None, "Bid(2)", 1.0, True, np.float32(3.0)):
        with pytest.raises(InvalidAction) as bad_err:
            e.step(bad)
        assert bad_err.value.code == "bad_action"
    after = (raw.game.to_json(), raw.agent_selection, dict(raw.rewards), dict(raw.infos))
    assert after == before
    # a move for the right seat still works after the refusals, numpy ints too
    e.step(np.int64(min(legal)))
    assert raw.game.version == 1


def test_terminate_illegal_wrapper_gives_classic_behaviour() -> None:
    """Wrapped in PettingZoo's TerminateIllegalWrapper, an illegal action
    ends the game with the penalty instead of raising."""
    e = wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(cz.raw_env("callbreak"), illegal_reward=-1)
    )
    e.reset(seed=1)
    agent = e.agent_selection
    legal = set(e.infos[agent]["legal_moves"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(next(a for a in range(NUM_ACTIONS) if a not in legal))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_reset_seeds_repeat_and_follow_game_seeds() -> None:
    """``reset(seed=s)`` plays ``Game(seed=s)``; the resets after it without a
    seed play a sequence drawn from ``s``, the same every time."""
    v = cardrules.load("kachuful")
    e = cz.raw_env(v, 4)

    def games(seed: int) -> list[str]:
        e.reset(seed=seed)
        out = [e.game.to_json()]
        for _ in range(3):
            e.reset()
            out.append(e.game.to_json())
        return out

    first = games(9)
    assert first == games(9)
    assert first[0] == Game(v, 4, seed=9).to_json()
    assert len(set(first)) == 4
    assert games(10)[0] != first[0]
    e.reset(seed=np.int64(9))
    assert e.game.to_json() == first[0]
    before = e.game.to_json()
    for bad in (-1, 2**64, "9", 9.0):
        with pytest.raises(ValueError, match="seed"):
            e.reset(seed=bad)  # type: ignore[arg-type]
    assert e.game.to_json() == before
    e.reset()  # the refusals left the sequence drawn from 9 where it was
    assert e.game.to_json() == first[1]


def test_reset_from_a_given_game() -> None:
    """``reset(options={"game": g})`` starts from a copy of ``g`` mid-game
    (here a save read back); a game of other rules or players is refused."""
    v = cardrules.load("oh-hell")
    g = Game(v, 4, seed=4)
    rng = random.Random(4)
    for _ in range(30):
        g.apply_action(rng.choice(g.legal_action_ids()))
    saved = Game.from_json(g.to_json())
    e = cz.raw_env(v, 4)
    e.reset(options={"game": saved})
    assert e.game is not saved and e.game.to_json() == g.to_json()
    assert e.agent_selection == f"player_{g.to_act}"
    assert e.infos[e.agent_selection]["legal_moves"] == g.legal_action_ids(g.to_act)
    # rewards count from the given game's totals on
    got = _drive(e, rng)
    final = e.game.result.totals
    assert got == pytest.approx({f"player_{s}": float(final[s] - g.scores[s]) for s in range(4)})
    with pytest.raises(ValueError, match="players"):
        e.reset(options={"game": Game(v, 3, seed=1)})
    with pytest.raises(ValueError, match="Game"):
        e.reset(options={"game": "not a game"})
    e.reset(seed=1, options={"options": 1})  # other keys are ignored (as api_test passes)


def test_max_actions_truncates_every_agent() -> None:
    """``max_actions=N`` truncates every agent after N actions; then each
    steps None once and leaves."""
    e = cz.env("spades", 4, max_actions=25)
    e.reset(seed=6)
    steps = 0
    for _ in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if truncated:
            assert not terminated
            e.step(None)
            continue
        e.step(e.infos[e.agent_selection]["legal_moves"][0])
        steps += 1
    assert steps == 25 and e.agents == []
    assert not e.unwrapped.game.is_over


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(VariantError):
        cz.env("oh-hell", 9)
    with pytest.raises(ValueError, match="render_mode"):
        cz.env("oh-hell", render_mode="rgb_array")
    with pytest.raises(ValueError, match="reward"):
        cz.env("oh-hell", reward="money")
    with pytest.raises(ValueError, match="max_actions"):
        cz.env("oh-hell", max_actions=0)
    with pytest.raises(TypeError, match="variant"):
        cz.raw_env(42)  # type: ignore[arg-type]


def test_default_players_and_names() -> None:
    e = cz.raw_env("kazhutha")
    assert e.possible_agents == [f"player_{s}" for s in range(4)]
    assert str(e) == "cardrules_kazhutha_v0"
    assert cz.raw_env("callbreak").players == 4
    assert cz.raw_env("knockout-whist").players == 4


def test_spaces_come_from_the_layout() -> None:
    """The observation Box has the layout's length, [0, 1] bounds on every
    slice but the running totals, which are unbounded; the mask and the
    action space have one place per action id."""
    v = cardrules.load("hearts")
    e = cz.raw_env(v, 4)
    layout = observation_layout(v, 4)
    space = e.observation_space("player_2")
    box = space["observation"]
    assert box.shape == (layout[-1].stop,)
    for s in layout:
        lo, hi = box.low[s.start : s.stop], box.high[s.start : s.stop]
        if s.name == "scores":
            assert np.isneginf(lo).all() and np.isposinf(hi).all()
        else:
            assert (lo == 0).all() and (hi == 1).all()
    assert space["action_mask"].shape == (NUM_ACTIONS,)
    assert space["action_mask"].dtype == np.int8
    assert e.action_space("player_0").n == NUM_ACTIONS
    assert e.observation_space("player_0") is e.observation_space("player_0")


def test_every_slice_of_every_builtin_has_known_bounds() -> None:
    """Each slice name of each built-in's layout is one the adapter bounds on
    purpose: a new slice must be classified here (unknown ones are left
    unbounded, so they never push an observation out of its space)."""
    names = {
        s.name
        for v in BUILTINS
        for n in sorted({v.players.min, v.players.max})
        for s in observation_layout(v, n)
    }
    unit, unbounded = cardrules.bounds._UNIT, cardrules.bounds._UNBOUNDED
    assert names <= unit | unbounded, names - (unit | unbounded)
    assert not unit & unbounded


def test_render_text_of_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """``ansi`` returns the table (every hand face up, for people), ``human``
    prints it after each step; the text names every agent and the mover."""
    e = cz.env("kachuful", 4, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    game = e.unwrapped.game
    assert f"player_{game.to_act} to act" in text
    for s in range(4):
        assert f"player_{s}:" in text
        assert " ".join(map(str, game.hand(s))) in text
    h = cz.env("kachuful", 4, render_mode="human")
    h.reset(seed=1)
    first = h.agent_selection
    move = h.infos[first]["legal_moves"][-1]
    h.step(move)
    printed = capsys.readouterr().out
    assert printed.count(text.splitlines()[0]) == 2  # after the reset and the step
    assert f"{first}: total 0 bid {Action.from_id(move).n} tricks 0" in printed
    quiet = cz.env("kachuful", 4)
    quiet.reset(seed=1)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert quiet.render() is None
    over = cz.raw_env(_one_hand(), 4, render_mode="ansi")
    over.reset(seed=2)
    _drive(over, random.Random(2))
    assert "game over: winner" in over.render()


def test_state_is_every_seats_observation() -> None:
    e = cz.raw_env("oh-hell", 4)
    e.reset(seed=1)
    state = e.state()
    assert np.array_equal(state, _f32([x for s in range(4) for x in e.game.observation(s)]))
    assert e.state_space.contains(state)


def test_environments_pickle_and_copy() -> None:
    """An environment mid-game pickles and deep-copies (for vectorised and
    multiprocess training): the copy goes on from the same point, alone."""
    e = cz.env("hearts")
    e.reset(seed=1)
    e.step(e.infos[e.agent_selection]["legal_moves"][0])
    for other in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert other.unwrapped.game.to_json() == e.unwrapped.game.to_json()
        assert other.agent_selection == e.agent_selection
        other.step(other.infos[other.agent_selection]["legal_moves"][0])
        assert other.unwrapped.game.version == 2
    assert e.unwrapped.game.version == 1


def test_a_missing_extra_says_what_to_install() -> None:
    """Without PettingZoo, importing the adapter names the extra to install."""
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "try:\n    import cardrules.pettingzoo\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert "pip install 'cardrules[pettingzoo]'" in out


def test_module_doctests() -> None:
    failed, attempted = doctest.testmod(cz, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_docs_page_runs() -> None:
    result = doctest.testfile(
        str(DOCS / "pettingzoo.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0 and result.failed == 0
    hook = (DOCS / "hooks" / "rulebook_pages.py").read_text()
    assert '"pettingzoo.md"' in hook  # the page is in the site's navigation


def test_the_extra_is_declared() -> None:
    import tomllib

    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    extras = tomllib.loads(text)["project"]["optional-dependencies"]
    assert {"pettingzoo>=1.24", "gymnasium>=0.29"} <= set(extras["pettingzoo"])
    (dev,) = extras["dev"]
    assert "pettingzoo" in dev.split("[", 1)[1].rstrip("]").split(",")
