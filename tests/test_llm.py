"""Text for language-model agents (cardrules.llm): every legal move's number
and text parse back to that move, replies are read forgivingly but never
wrongly, and the harness plays whole games with scripted fake agents (the
retry bound and the fallback counted)."""

from __future__ import annotations

import doctest
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import llm
from cardrules.engine.actions import Play
from cardrules.errors import IllegalAction, InvalidAction
from cardrules.rulebook import builtin_variants

BUILTINS = {v.name: v for v in builtin_variants()}


def _position(name: str, seed: int, moves: int) -> cardrules.Game:
    v = BUILTINS[name]
    n = max(v.players.min, min(4, v.players.max))
    g = cardrules.Game(v, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_action_ids()
        g.apply_action(legal[int(rng.random() * len(legal))])
    return g


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(BUILTINS)), seed=st.integers(0, 10**6), moves=st.integers(0, 40))
def test_every_legal_moves_number_and_text_parse_back(name: str, seed: int, moves: int) -> None:
    g = _position(name, seed, moves)
    if g.is_over:
        return
    for seat in g.waiting_for:
        legal = g.legal_actions(seat)
        text = llm.prompt(g, seat)
        for k, a in enumerate(legal, 1):
            assert f"\n{k}. {a.label}\n" in text + "\n"
            assert llm.parse_reply(g, seat, str(k)) == a
            assert llm.parse_reply(g, seat, a.label) == a
            assert llm.parse_reply(g, seat, f"Thinking...\nMove: {a.label.upper()}.") == a
            assert llm.parse_reply(g, seat, f"`{k}`") == a
            assert llm.parse_reply(g, seat, f"I choose:\n{k}. {a.label}") == a


def test_prompt_of_a_seat_not_to_act_has_no_moves() -> None:
    g = cardrules.Game(BUILTINS["oh-hell"], 4, seed=7)
    other = (g.to_act + 1) % 4
    text = llm.prompt(g, other)
    assert text.endswith("You have no move now.")
    with pytest.raises(InvalidAction):
        llm.parse_reply(g, other, "1")


def test_bad_replies_are_refused_with_reasons() -> None:
    g = cardrules.Game(BUILTINS["oh-hell"], 4, seed=7)
    seat = g.to_act
    n = len(g.legal_actions(seat))
    with pytest.raises(InvalidAction, match=f"choose 1 to {n}"):
        llm.parse_reply(g, seat, str(n + 1))
    with pytest.raises(InvalidAction):
        llm.parse_reply(g, seat, "I am not sure.")
    with pytest.raises(InvalidAction):
        llm.parse_reply(g, seat, "x" * 1_000_000)  # bounded: read from its end
    with pytest.raises(InvalidAction):
        llm.parse_reply(g, seat, None)  # type: ignore[arg-type]
    # a real move the rules forbid now: the engine's code
    with pytest.raises(IllegalAction) as err:
        llm.parse_reply(g, seat, "play " + str(next(iter(g.hand(seat)))))
    assert err.value.code == "not_in_phase"
    # in the play: not following suit (the first such position of a few games)
    for seed in range(20):
        g = cardrules.Game(BUILTINS["oh-hell"], 4, seed=seed)
        while not g.is_over and (g.phase != "play" or not g.current_trick()):
            g.apply_action(g.legal_action_ids()[0])
        seat = g.to_act
        led = g.current_trick()[0][1]
        hand = list(g.hand(seat))
        off = [c for c in hand if c.suit != led.suit]
        if off and any(c.suit == led.suit for c in hand):
            break
    else:
        raise AssertionError("no position to test")
    with pytest.raises(IllegalAction) as err:
        llm.parse_reply(g, seat, str(off[0]))
    assert err.value.code == "must_follow_suit"
    assert Play(off[0]) not in g.legal_actions(seat)


def _scripted(replies: list[str]) -> Callable[[str], str]:
    """An agent that gives ``replies`` in turn, then the last one forever."""
    it = iter(replies)
    last = [replies[-1]]

    def agent(prompt: str) -> str:
        assert "Your legal moves:" in prompt
        last[0] = next(it, last[0])
        return last[0]

    return agent


@pytest.mark.parametrize("name", ["oh-hell", "hearts", "kazhutha", "euchre"])
def test_a_first_move_agent_plays_whole_games(name: str) -> None:
    g = cardrules.Game(BUILTINS[name], 4, seed=3)
    report = llm.play(lambda p: "1", g, seat=1, opponents="random", seed=2)
    assert g.is_over and report.totals == g.result.totals  # type: ignore[union-attr]
    assert report.decisions == report.replies > 0
    assert report.bad_replies == report.fallbacks == 0


def test_retries_then_fallback() -> None:
    # two bad replies then a good one: retried, no fallback
    g = cardrules.Game(BUILTINS["oh-hell"], 4, seed=5)
    seen: list[str] = []

    def agent(prompt: str) -> str:
        seen.append(prompt)
        return ["what?", "99", "1"][(len(seen) - 1) % 3]

    report = llm.play(agent, g, seat=0, opponents="random", retries=2, max_decisions=3)
    assert report.decisions == 3 and report.replies == 9
    assert report.bad_replies == 6 and report.fallbacks == 0
    assert "Your last reply was refused" in seen[1] and "choose 1 to" in seen[2]
    # always bad: each decision asks 1 + retries times, then plays the first move
    g = cardrules.Game(BUILTINS["oh-hell"], 4, seed=5)
    report = llm.play(_scripted(["no idea"]), g, seat=0, opponents="random", retries=1)
    assert g.is_over
    assert report.replies == 2 * report.decisions
    assert report.fallbacks == report.decisions and report.bad_reply_rate == 1.0


def test_play_refuses_bad_arguments() -> None:
    g = cardrules.Game(BUILTINS["oh-hell"], 4, seed=5)
    with pytest.raises(ValueError, match="seat"):
        llm.play(lambda p: "1", g, seat=4)
    with pytest.raises(ValueError, match="retries"):
        llm.play(lambda p: "1", g, retries=11)
    with pytest.raises(ValueError, match="max_decisions"):
        llm.play(lambda p: "1", g, max_decisions=0)
    with pytest.raises(ValueError, match="unknown bot"):
        llm.play(lambda p: "1", g, opponents="oracle")
    assert g.version == 0


def test_describe_writes_what_the_view_holds() -> None:
    g = cardrules.Game(BUILTINS["hearts"], 4, seed=1)
    text = llm.describe(g.view(0), "hearts")
    hand = " ".join(map(str, g.hand(0)))
    assert f"Your hand: {hand}." in text
    assert "Scores (lowest total wins)" in text and "You pass to seat" in text
    for s in (1, 2, 3):  # no other seat's card is written
        assert not any(str(c) in text for c in g.hand(s))


def test_module_doctests() -> None:
    failed, attempted = doctest.testmod(llm)
    assert failed == 0 and attempted >= 4
    from cardrules import opponents

    failed, attempted = doctest.testmod(opponents)
    assert failed == 0 and attempted >= 1


def test_the_core_and_the_text_need_no_extra() -> None:
    """``import cardrules`` and the text for agents load neither Gymnasium,
    PettingZoo nor numpy (checked in a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys, cardrules, cardrules.llm, cardrules.opponents, cardrules.bounds\n"
        "bad = {'gymnasium', 'pettingzoo', 'numpy'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_agent_harness_script_runs() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "llm_agents.py"
    out = subprocess.run(
        [sys.executable, str(script), "--games", "1", "--variant", "kazhutha"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "bad replies" in out and "fallbacks" in out and "mean total" in out
