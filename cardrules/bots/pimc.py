"""A determinized Monte-Carlo bot (PIMC: perfect-information Monte Carlo).

For each decision it samples worlds consistent with what its seat has seen
(:meth:`Game.sample_world`), tries every legal action in each world, plays the
rest of the hand out with a playout policy (the heuristic bot by default, so
that a bid is judged by how the hand goes when every seat plays to make its
bid), and takes the action with the best average reward (its points in the
hand, its side's with teams; see
:func:`~cardrules.bots.search_support.hand_rewards`). Bids, trump calls,
passes and plays all go through the same search. Every action is tried with
the same random numbers in a world (common random numbers), so the
comparison between actions is not drowned by the playouts' own noise.

It is a :class:`~cardrules.bots.search_support.GameBot`: the drivers give it
the game through ``choose_in(game, seat)``; from a view alone
(``choose(view)``) it plays as the heuristic bot.

Example:
    >>> import cardrules
    >>> from cardrules.bots import PIMCBot
    >>> g = cardrules.Game(cardrules.load("oh-hell"), 4, seed=5)
    >>> bot = PIMCBot(1, worlds=2)
    >>> bot.choose_in(g, g.to_act) in g.legal_actions(g.to_act)
    True
"""

from __future__ import annotations

import random
import time

from cardrules.bots.search_support import (
    SearchBot,
    hand_rewards,
    playout_hand,
    sample_world,
)
from cardrules.engine.actions import Action
from cardrules.engine.game import Game

__all__ = ["PIMCBot"]

#: The largest budgets a bot accepts (a bound on the work of one decision).
MAX_WORLDS = 100_000


class PIMCBot(SearchBot):
    """Samples worlds, plays every legal action out in each, takes the best average.

    Args:
        seed: the seed of the bot's generator (worlds and playouts): the same
            seed and the same positions give the same choices with an
            iteration budget.
        worlds: worlds sampled per decision (1 to 100,000).
        playouts: playouts of each action in each world (1 to 100,000).
        time_limit: seconds per decision, or ``None``: stop sampling worlds
            once it is spent (after at least one world); choices then depend
            on the machine's speed.
        policy: the playout policy, ``"heuristic"`` or ``"random"``.

    Raises:
        ValueError: for a budget out of bounds or an unknown policy.
    """

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        *,
        worlds: int = 12,
        playouts: int = 1,
        time_limit: float | None = None,
        policy: str = "heuristic",
    ) -> None:
        for label, value in (("worlds", worlds), ("playouts", playouts)):
            if type(value) is not int or not 1 <= value <= MAX_WORLDS:
                raise ValueError(f"{label} must be an int from 1 to {MAX_WORLDS:,}, got {value!r}")
        super().__init__(seed, time_limit, policy)
        self.worlds = worlds
        self.playouts = playouts

    def _pick(self, game: Game, seat: int, legal: tuple[Action, ...]) -> Action:
        return legal[self._best(game, seat, legal)]

    def _best(self, game: Game, seat: int, legal: tuple[Action, ...]) -> int:
        rng = self._rng
        before = game.scores
        totals = [0.0] * len(legal)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for _ in range(self.worlds):
            world = sample_world(game, seat, rng)
            for _ in range(self.playouts):
                stream = rng.getrandbits(64)
                for i, action in enumerate(legal):
                    w = world.clone()
                    w.apply(action, seat)
                    done = playout_hand(w, self._policy, random.Random(stream))
                    totals[i] += hand_rewards(w, before, done)[seat]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = 0
        for i in range(1, len(legal)):
            if totals[i] > totals[best]:
                best = i
        return best

    def __repr__(self) -> str:
        return f"PIMCBot(worlds={self.worlds}, playouts={self.playouts})"
