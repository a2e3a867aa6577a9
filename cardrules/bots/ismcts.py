"""An information-set Monte-Carlo tree search bot (single-observer ISMCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search"
(IEEE TCIAIG 2012), the single-observer variant (SO-ISMCTS): one tree whose
nodes are the searching seat's information sets, its edges the actions of
every seat. Each iteration

1. takes a world consistent with what the seat has seen
   (:meth:`Game.sample_world`): a *determinization*. Sampling a world
   replays the game's hands so far, a clone costs a thousandth of that, so
   the iterations take the clones of a pool of ``worlds`` sampled worlds in
   turn (``worlds=iterations``: a new world every iteration, as in the
   paper);
2. descends the tree in that world, choosing among the actions legal *there*
   by UCB1 with availability counts (an edge's exploration term counts the
   visits of its parent in which it was legal, not all of them);
3. adds one new edge, plays the rest of the hand out with a playout policy
   (random by default) and
4. backs the rewards up, each edge credited with the reward of the seat
   that took it (its points in the hand; see
   :func:`~cardrules.bots.search_support.hand_rewards`).

It then plays the most visited of its legal actions. The search ends with
the hand: rewards are the points of the current hand. The exploration term
is scaled by the spread of the rewards seen so far, so one constant suits
games scored in ones (Oh Hell) and in tens (Spades).

It is a :class:`~cardrules.bots.search_support.GameBot`: from a view alone
(``choose(view)``) it plays as the heuristic bot.

Example:
    >>> import cardrules
    >>> from cardrules.bots import ISMCTSBot
    >>> g = cardrules.Game(cardrules.load("callbreak"), 4, seed=5)
    >>> bot = ISMCTSBot(1, iterations=50)
    >>> bot.choose_in(g, g.to_act) in g.legal_actions(g.to_act)
    True
"""

from __future__ import annotations

import math
import time

from cardrules.bots.search_support import (
    SearchBot,
    actor,
    hand_rewards,
    playout_hand,
    sample_world,
)
from cardrules.engine.actions import Action
from cardrules.engine.game import Game

__all__ = ["ISMCTSBot"]

#: The largest iteration budget a bot accepts.
MAX_ITERATIONS = 10_000_000


class _Node:
    """An information set of the searching seat: its edges by action."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0  # rewards of the seat that took the edge into this node


class ISMCTSBot(SearchBot):
    """Single-observer ISMCTS with UCB1 and availability counts.

    Args:
        seed: the seed of the bot's generator: the same seed and positions
            give the same choices with an iteration budget.
        iterations: iterations per decision, 1 to 10,000,000.
        worlds: the most worlds sampled per decision (1 to 10,000,000); the
            iterations cycle through them, each on a fresh clone.
        time_limit: seconds per decision, or ``None``: stop once spent (after
            at least one iteration); choices then depend on the machine.
        exploration: the UCB1 constant (times the spread of rewards seen).
        policy: the playout policy, ``"random"`` or ``"heuristic"``.

    Raises:
        ValueError: for a budget out of bounds or an unknown policy.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = 200,
        worlds: int = 40,
        time_limit: float | None = None,
        exploration: float = 0.7,
        policy: str = "random",
    ) -> None:
        if type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(
                f"iterations must be an int from 1 to {MAX_ITERATIONS:,}, got {iterations!r}"
            )
        if type(worlds) is not int or not 1 <= worlds <= MAX_ITERATIONS:
            raise ValueError(f"worlds must be an int from 1 to {MAX_ITERATIONS:,}, got {worlds!r}")
        if not isinstance(exploration, int | float) or not 0 <= exploration <= 100:
            raise ValueError(f"exploration must be from 0 to 100, got {exploration!r}")
        super().__init__(seed, time_limit, policy)
        self.iterations = iterations
        self.worlds = worlds
        self.exploration = float(exploration)

    def _pick(self, game: Game, seat: int, legal: tuple[Action, ...]) -> Action:
        root = self._search(game, seat)
        best = legal[0]
        best_visits = -1
        for a in legal:  # lowest id first among equals
            child = root.children.get(a)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = a, visits
        return best

    def _search(self, game: Game, seat: int) -> _Node:
        rng = self._rng
        policy = self._policy
        before = game.scores
        hand = game.hand_number
        root = _Node()
        low, high = math.inf, -math.inf
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        c = self.exploration
        pool: list[Game] = []
        for i in range(self.iterations):
            if len(pool) < self.worlds:
                pool.append(sample_world(game, seat, rng))
            world = pool[i % self.worlds].clone()
            node = root
            path: list[tuple[_Node, int]] = []
            mover = seat
            expanded = False
            while not (world.is_over or world.hand_number != hand):
                if path:
                    mover = actor(world)
                legal = world.legal_actions(mover)
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node()
                    for a in legal:
                        if a is not action and a in children:
                            children[a].avail += 1
                    expanded = True
                else:
                    spread = (high - low) if high > low else 1.0
                    best_score = -math.inf
                    child = node
                    action = legal[0]
                    for a in legal:
                        ch = children[a]
                        ch.avail += 1
                        score = ch.total / ch.visits + c * spread * math.sqrt(
                            math.log(ch.avail) / ch.visits
                        )
                        if score > best_score:
                            best_score, action, child = score, a, ch
                world.apply(action, mover)
                path.append((child, mover))
                node = child
                if expanded:
                    break
            done = True
            if not (world.is_over or world.hand_number != hand):
                done = playout_hand(world, policy, rng)
            rewards = hand_rewards(world, before, done)
            for r in rewards:
                low = min(low, r)
                high = max(high, r)
            for child, who in path:
                child.visits += 1
                child.total += rewards[who]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return root

    def __repr__(self) -> str:
        return f"ISMCTSBot(iterations={self.iterations})"
