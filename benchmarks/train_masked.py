"""Train a small masked policy on one-hand Oh Hell against the heuristic bot, numpy only.

Not a test: a benchmark of whether the single-seat Gymnasium environment
(:class:`cardrules.gymnasium.CardrulesEnv`) can be learned from. The agent plays
seat 1 of a 4-player game of one hand of 5 cards (the built-in ``oh-hell`` with
``hands="list 5"`` and ``tie="shared"``, so that a game is exactly one hand:
a bid, then five cards) against three heuristic bots, and is trained by
REINFORCE with a learned linear baseline:

- the **bid** is a masked softmax over the legal bids, linear in features read
  from the observation (``--features trump``, the default: the hand seen from
  the trump suit, that is trumps by rank and the other suits' cards by rank,
  the number of trumps, of voids, the seat's place in the bidding and the
  bids already made; ``--features raw``: the raw observation vector);
- the **play** is a masked softmax over the legal cards, linear in a few
  features of each card (is it a trump, its rank, would it win the trick now,
  each crossed with whether the seat still needs tricks);
- the return is the episode's reward, the environment's ``reward="points"``:
  the hand's points, 1 a trick plus 10 for an exact bid.

Then every agent plays the same fixed evaluation seeds: the trained policy
(greedy), the same policy forced to bid 1 (the constant bid a PPO agent once
fell into), the heuristic bot, and a random agent. The table gives each one's
bid accuracy (the share of hands whose tricks equal the bid), mean points,
the distribution of its bids, and the correlation of its bid with the tricks
it took.

Run it (about four minutes of CPU with the defaults)::

    .venv/bin/python benchmarks/train_masked.py
    .venv/bin/python benchmarks/train_masked.py --episodes 2000 --eval 200   # a quick look
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

if "--installed" not in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardrules
from cardrules.bots import decide, make_bot
from cardrules.engine.actions import BID_BASE
from cardrules.engine.events import log_entries
from cardrules.engine.views.observation_vector import observation_layout
from cardrules.gymnasium import CardrulesEnv

HAND = 5
PLAYERS = 4
EVAL_SEED_BASE = 1_000_000_000
NUM_PLAY_FEATURES = 12


def one_hand_variant() -> cardrules.Variant:
    """Oh Hell as one hand of :data:`HAND` cards, a tie shared (no tie-break hand)."""
    return cardrules.load("oh-hell", hands=f"list {HAND}", tie="shared")


class Features:
    """Reads the observation by its named slices (:func:`cardrules.observation_layout`)."""

    def __init__(self, variant: cardrules.Variant, kind: str) -> None:
        layout = {s.name: slice(s.start, s.stop) for s in observation_layout(variant, PLAYERS)}
        self.s = layout
        self.kind = kind
        self.size = layout["scores"].stop + 1 if kind == "raw" else 34

    def trump(self, obs: Any) -> int | None:
        t = int(np.argmax(obs[self.s["trump"]]))
        return None if t == 4 else t

    def bid(self, obs: Any) -> Any:
        """The features of the bid decision."""
        if self.kind == "raw":
            return np.append(obs, 1.0)
        hand = obs[self.s["hand"]].reshape(4, 13)
        t = self.trump(obs)
        side = [s for s in range(4) if s != t]
        trumps = hand[t] if t is not None else np.zeros(13)
        others = hand[side].sum(axis=0) / 3.0
        voids = sum(1 for s in side if hand[s].sum() == 0) / 3.0
        made = obs[self.s["bid_made"]]
        place = np.zeros(4)
        place[int(made.sum())] = 1.0
        bids_so_far = float(obs[self.s["bids"]].sum())
        return np.concatenate(
            [trumps, others, [trumps.sum() / HAND, voids], place, [bids_so_far, 1.0]]
        )

    def play(self, obs: Any, cards: Any) -> Any:
        """One row of features per legal card (``cards``: their ids 0-51)."""
        t = self.trump(obs)
        trick = obs[self.s["trick"]].reshape(PLAYERS, 52)
        in_trick = [int(np.argmax(row)) for row in trick if row.any()]
        leader = int(np.argmax(obs[self.s["leader"]]))
        led = -1
        best = -1
        if in_trick:
            lead_card = int(np.argmax(trick[leader]))
            led = lead_card // 13
            best = max(in_trick, key=lambda c: _strength(c, led, t))
        bid = obs[self.s["bids"]][0] * HAND
        won = obs[self.s["tricks"]][0] * HAND
        need = 1.0 if bid - won > 0.5 else 0.0
        rows = np.zeros((len(cards), NUM_PLAY_FEATURES))
        for k, c in enumerate(cards):
            rank = (c % 13) / 12.0
            is_trump = 1.0 if t is not None and c // 13 == t else 0.0
            leading = 0.0 if in_trick else 1.0
            wins = 1.0 if in_trick and _strength(c, led, t) > _strength(best, led, t) else 0.0
            rows[k] = (
                need * wins,
                (1 - need) * wins,
                need * leading * rank,
                (1 - need) * leading * rank,
                need * is_trump,
                (1 - need) * is_trump,
                need * rank,
                (1 - need) * rank,
                leading * is_trump,
                need * (1 - wins) * rank,
                (1 - need) * (1 - wins) * rank,
                1.0,
            )
        return rows


def _strength(card: int, led: int, trump: int | None) -> float:
    """How strongly ``card`` stands in a trick led in suit ``led``."""
    if trump is not None and card // 13 == trump:
        return 100 + card % 13
    if card // 13 == led:
        return 50 + card % 13
    return card % 13 - 100.0


class Adam:
    """A tiny Adam optimiser for one array (gradient ascent)."""

    def __init__(self, shape: tuple[int, ...], lr: float) -> None:
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.t = 0
        self.lr = lr

    def step(self, w: Any, grad: Any) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9**self.t)
        v = self.v / (1 - 0.999**self.t)
        w += self.lr * m / (np.sqrt(v) + 1e-8)


def _softmax(logits: Any) -> Any:
    z = np.exp(logits - logits.max())
    return z / z.sum()


class Policy:
    """Linear masked softmax heads for bids and plays, and a linear baseline."""

    def __init__(self, feats: Features, lr: float) -> None:
        self.f = feats
        self.w_bid = np.zeros((HAND + 1, feats.size))
        self.w_play = np.zeros(NUM_PLAY_FEATURES)
        self.w_value = np.zeros(feats.size)
        self.opt_bid = Adam(self.w_bid.shape, lr)
        self.opt_play = Adam(self.w_play.shape, lr)
        self.opt_value = Adam(self.w_value.shape, lr * 3)

    def act(self, obs: Any, mask: Any, rng: np.random.Generator | None) -> tuple[int, Any]:
        """An action id (sampled, or greedy without ``rng``) and what training needs."""
        legal = mask.nonzero()[0]
        if legal[0] >= BID_BASE:  # a bid
            x = self.f.bid(obs)
            bids = legal - BID_BASE
            p = _softmax(self.w_bid[bids] @ x)
            k = int(rng.choice(len(bids), p=p)) if rng is not None else int(np.argmax(p))
            return int(legal[k]), ("bid", x, bids, p, k)
        rows = self.f.play(obs, legal)
        p = _softmax(rows @ self.w_play)
        k = int(rng.choice(len(legal), p=p)) if rng is not None else int(np.argmax(p))
        return int(legal[k]), ("play", rows, None, p, k)

    def learn(self, trace: list[Any], ret: float) -> None:
        """One REINFORCE step on an episode's decisions and its return."""
        x0 = next((d[1] for d in trace if d[0] == "bid"), None)
        baseline = float(self.w_value @ x0) if x0 is not None else 0.0
        adv = (ret - baseline) / 10.0
        g_bid = np.zeros_like(self.w_bid)
        g_play = np.zeros_like(self.w_play)
        for kind, x, bids, p, k in trace:
            if kind == "bid":
                onehot = np.zeros(len(bids))
                onehot[k] = 1.0
                g_bid[bids] += adv * np.outer(onehot - p, x)
            else:
                g_play += adv * (x[k] - p @ x)
        self.opt_bid.step(self.w_bid, g_bid)
        self.opt_play.step(self.w_play, g_play)
        if x0 is not None:
            self.opt_value.step(self.w_value, (ret - baseline) / 10.0 * x0)


Agent = Callable[[CardrulesEnv, Any, Any], int]


def policy_agent(policy: Policy, force_bid: int | None = None) -> Agent:
    """The policy, greedy (with ``force_bid``: that bid when legal, else the nearest)."""

    def act(env: CardrulesEnv, obs: Any, mask: Any) -> int:
        legal = mask.nonzero()[0]
        if force_bid is not None and legal[0] >= BID_BASE:
            return int(min(legal, key=lambda a: abs(a - BID_BASE - force_bid)))
        return policy.act(obs, mask, None)[0]

    return act


def heuristic_agent() -> Agent:
    """The heuristic bot in the agent's seat (seeded per episode)."""
    state: dict[str, Any] = {}

    def act(env: CardrulesEnv, obs: Any, mask: Any) -> int:
        game = env.game
        assert game is not None
        if state.get("game") is not game:
            state["game"] = game
            state["bot"] = make_bot("heuristic", 12345)
        return int(decide(state["bot"], game, env.seat).id)

    return act


def random_agent(seed: int) -> Agent:
    """A uniform choice among the legal actions."""
    rng = np.random.default_rng(seed)

    def act(env: CardrulesEnv, obs: Any, mask: Any) -> int:
        return int(rng.choice(mask.nonzero()[0]))

    return act


def play_episode(env: CardrulesEnv, seed: int, agent: Agent) -> tuple[int, int, float]:
    """One hand: the agent's bid, its tricks and its points."""
    obs, info = env.reset(seed=seed)
    total = 0.0
    done = False
    while not done:
        a = agent(env, obs, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(a)
        total += reward
        done = terminated or truncated
    return (*_bid_and_tricks(env), total)


def _bid_and_tricks(env: CardrulesEnv) -> tuple[int, int]:
    assert env.game is not None
    score = next(ev for ev in log_entries(env.game) if ev[0] == "score")
    return int(score[2][env.seat]), int(score[3][env.seat])


def evaluate(env: CardrulesEnv, agent: Agent, seeds: range) -> dict[str, Any]:
    """Bid accuracy, mean points, the bids' distribution and corr(bid, tricks)."""
    rows = np.array([play_episode(env, s, agent) for s in seeds], dtype=float)
    bids, tricks, points = rows[:, 0], rows[:, 1], rows[:, 2]
    dist = np.bincount(bids.astype(int), minlength=HAND + 1) / len(bids)
    corr = float(np.corrcoef(bids, tricks)[0, 1]) if bids.std() > 0 else float("nan")
    return {
        "accuracy": float((bids == tricks).mean()),
        "points": float(points.mean()),
        "mean_bid": float(bids.mean()),
        "bids": dist,
        "corr": corr,
    }


def train(env: CardrulesEnv, policy: Policy, episodes: int, seed: int, check: int) -> list[str]:
    """REINFORCE over ``episodes`` hands; returns the learning curve's lines."""
    rng = np.random.default_rng(seed)
    curve = []
    check_seeds = range(EVAL_SEED_BASE // 2, EVAL_SEED_BASE // 2 + 300)
    for ep in range(1, episodes + 1):
        obs, info = env.reset(seed=seed * 10_000_000 + ep)
        trace = []
        ret = 0.0
        done = False
        while not done:
            a, record = policy.act(obs, info["action_mask"], rng)
            trace.append(record)
            obs, reward, terminated, truncated, info = env.step(a)
            ret += reward
            done = terminated or truncated
        policy.learn(trace, ret)
        if check and (ep % check == 0 or ep == episodes):
            r = evaluate(env, policy_agent(policy), check_seeds)
            curve.append(
                f"{ep:>9,}  {100 * r['accuracy']:5.1f}%  {r['points']:6.2f}  {r['mean_bid']:5.2f}"
            )
    return curve


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=int, default=150_000, help="training hands (150,000)")
    p.add_argument("--eval", type=int, default=2_000, help="evaluation hands (2,000)")
    p.add_argument("--seed", type=int, default=0, help="the training seed (0)")
    p.add_argument("--lr", type=float, default=0.01, help="Adam's step size (0.01)")
    p.add_argument("--features", choices=("trump", "raw"), default="trump")
    p.add_argument("--checks", type=int, default=6, help="learning-curve points (6)")
    p.add_argument("--installed", action="store_true", help="use the installed cardrules")
    args = p.parse_args(argv)
    if not 1 <= args.episodes <= 10_000_000 or not 1 <= args.eval <= 1_000_000:
        p.error("--episodes 1 to 10,000,000 and --eval 1 to 1,000,000")
    variant = one_hand_variant()
    env = CardrulesEnv(variant, seat=0, opponents="heuristic", players=PLAYERS, reward="points")
    policy = Policy(Features(variant, args.features), args.lr)
    t0 = time.process_time()
    curve = train(env, policy, args.episodes, args.seed, max(1, args.episodes // args.checks))
    train_cpu = time.process_time() - t0
    seeds = range(EVAL_SEED_BASE, EVAL_SEED_BASE + args.eval)
    agents = [
        ("trained (greedy)", policy_agent(policy)),
        ("trained, bid 1 always", policy_agent(policy, force_bid=1)),
        ("heuristic bot", heuristic_agent()),
        ("random", random_agent(args.seed)),
    ]
    t1 = time.process_time()
    results = [(name, evaluate(env, agent, seeds)) for name, agent in agents]
    eval_cpu = time.process_time() - t1
    print(
        f"one-hand Oh Hell, {HAND} cards, {PLAYERS} players, seat 1 against 3 heuristic bots; "
        f"REINFORCE, linear masked policy, features {args.features!r}"
    )
    print(
        f"training: {args.episodes:,} hands, seed {args.seed}, {train_cpu:.0f} s CPU; "
        f"evaluation: {args.eval:,} fixed seeds, {eval_cpu:.0f} s CPU"
    )
    print()
    print("learning curve (greedy policy, 300 other seeds)")
    print(f"{'hands':>9}  {'exact':>6}  {'points':>6}  {'bid':>5}")
    print("\n".join(curve))
    print()
    head = "bids " + " ".join(f"{b:>5}" for b in range(HAND + 1))
    print(f"{'agent':<22} {'bid acc.':>8} {'points':>6} {'mean bid':>8} {'corr':>5}  {head}")
    for name, r in results:
        dist = " ".join(f"{100 * x:4.0f}%" for x in r["bids"])
        print(
            f"{name:<22} {100 * r['accuracy']:7.1f}% {r['points']:6.2f} {r['mean_bid']:8.2f} "
            f"{r['corr']:5.2f}       {dist}"
        )
    print()
    print(
        "bid acc.: share of hands whose tricks equal the bid; corr: correlation of bid and tricks"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
