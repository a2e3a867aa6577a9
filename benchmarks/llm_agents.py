"""Play a text agent against the bots and report its bad-reply rate and points.

``python benchmarks/llm_agents.py [--agent MODULE:FUNCTION] [--variant oh-hell]
[--games 10] [--opponents heuristic] [--retries 2] [--seed 1]`` plays
``--games`` games with the agent in seat 0 (:func:`cardrules.llm.play`) and
prints, over all of them, its replies, bad replies (the rate), fallbacks,
mean final total and wins, next to the same for the bots' seats. The agent is
any callable ``agent(prompt) -> str`` found by import path (your model's
client); without ``--agent``, a stub that answers a random move's number and,
one time in five, something unreadable (to show the retries). Nothing here
uses the network.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))

import cardrules  # noqa: E402
from cardrules import llm  # noqa: E402


def stub_agent(seed: int) -> Callable[[str], str]:
    """A stand-in for a model: a random move's number, or, one time in five,
    a reply that names no move."""
    rng = random.Random(seed)

    def agent(prompt: str) -> str:
        moves = [line for line in prompt.splitlines() if line[:1].isdigit()]
        if rng.random() < 0.2:
            return "Let me think about the trumps."
        return f"Move: {rng.randint(1, len(moves))}"

    return agent


def _load_agent(path: str) -> Callable[[str], str]:
    module, _, name = path.partition(":")
    agent = getattr(importlib.import_module(module), name)
    if not callable(agent):
        raise SystemExit(f"{path} is not callable")
    return agent  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--agent", help="MODULE:FUNCTION, a callable agent(prompt) -> str")
    ap.add_argument("--variant", default="oh-hell")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--installed", action="store_true", help="use the installed cardrules")
    args = ap.parse_args(argv)
    variant = cardrules.load(args.variant)
    agent = _load_agent(args.agent) if args.agent else stub_agent(args.seed)
    replies = bad = fallbacks = decisions = wins = 0
    totals: list[float] = []
    others: list[float] = []
    for k in range(args.games):
        game = cardrules.Game(variant, args.players, seed=args.seed + k)
        report = llm.play(
            agent, game, seat=0, opponents=args.opponents, retries=args.retries, seed=k
        )
        replies += report.replies
        bad += report.bad_replies
        fallbacks += report.fallbacks
        decisions += report.decisions
        wins += 0 in report.winners
        if report.totals is not None:
            totals.append(float(report.totals[0]))
            others += [float(t) for t in report.totals[1:]]
    print(f"{args.variant}, {args.players} players, {args.games} games against {args.opponents}")
    rate = bad / max(replies, 1)
    print(f"  decisions {decisions}, replies {replies}, bad replies {bad} ({rate:.1%})")
    print(f"  fallbacks {fallbacks} ({fallbacks / max(decisions, 1):.1%} of decisions)")
    mean = sum(totals) / max(len(totals), 1)
    bots = sum(others) / max(len(others), 1)
    print(f"  agent: mean total {mean:.1f}, wins {wins}; bots: mean total {bots:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
