"""A vectorised Gymnasium environment: one seat of ``num_envs`` games at once.

:class:`CardrulesVectorEnv` is a ``gymnasium.vector.VectorEnv`` over a batch
of :mod:`cardrules.batch`: the agent plays ``seat`` in every game, and
opponents play every other seat, between two of the agent's moves, inside
:meth:`~CardrulesVectorEnv.step`. It is the vector form of
:class:`cardrules.gymnasium.CardrulesEnv` (same observation, action ids and
``"points"`` reward).

- **Observations**: ``(num_envs, size)`` float32, each game's
  :meth:`Game.observation <cardrules.engine.game.Game.observation>` of the
  agent's seat.
- **Actions**: ``MultiDiscrete`` of the action ids, one per game.
- **Mask**: ``infos["action_mask"]``, ``(num_envs, num_actions)`` bool
  (also :meth:`~CardrulesVectorEnv.action_masks`).
- **Rewards**: ``(num_envs,)``, the change of the seat's running total over
  the step (the opponents' moves included), negated where the lowest total
  wins; an episode's rewards add up to its final total.
- **Auto-reset**: ``SAME_STEP`` (``metadata["autoreset_mode"]``): a game that
  ends in a step is dealt again at once and the opponents play on to the
  agent's first move of the new game; the observation and mask returned are
  the new game's, with ``terminations`` true for that step, and
  ``infos["final_scores"]`` (``(num_envs, players)``) holding the ended
  games' totals. No episode is truncated.
- **Illegal actions** are refused (``ValueError``; nothing is played), as the
  batch does: mask them.

**Opponents.** ``opponents="random"`` (each move uniform among the legal
ones) is vectorised: on the fast :class:`~cardrules.batch.TrickKernel` where
the variant allows it, the opponents' moves are drawn for the whole batch at
once. Any other opponent (a built-in bot's name such as ``"heuristic"``, a
factory, one per seat: :mod:`cardrules.opponents`) needs each game's state,
so those moves are made game by game through the engine
(:class:`~cardrules.batch.GameBatch`): a bot cannot be vectorised.

Example:
    >>> import numpy as np
    >>> import cardrules
    >>> from cardrules.gymnasium_vector import CardrulesVectorEnv
    >>> v = cardrules.load("oh-hell", hands="list 5", tie="shared")
    >>> env = CardrulesVectorEnv(v, num_envs=16, opponents="random")
    >>> obs, infos = env.reset(seed=3)
    >>> obs.shape, infos["action_mask"].shape
    ((16, 401), (16, 337))
    >>> rng = np.random.default_rng(0)
    >>> done = np.zeros(16, dtype=bool)
    >>> while not done.all():
    ...     keys = rng.random(infos["action_mask"].shape) * infos["action_mask"]
    ...     obs, rewards, terminations, truncations, infos = env.step(keys.argmax(axis=1))
    ...     done |= terminations
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - the tests install the extra
    raise ImportError(
        "cardrules.gymnasium_vector needs Gymnasium and numpy: pip install 'cardrules[gymnasium]'"
    ) from e

from cardrules.batch import GameBatch, TrickKernel, batch
from cardrules.bounds import observation_bounds
from cardrules.dsl import load
from cardrules.engine.views.observation_vector import observation_layout
from cardrules.opponents import check_opponents, opponent_bots
from cardrules.rules import Variant

__all__ = ["CardrulesVectorEnv"]

#: The most opponents' moves between two of the agent's (a bound on a step).
MAX_OPPONENT_MOVES = 100_000


class CardrulesVectorEnv(gymnasium.vector.VectorEnv):
    """One seat of ``num_envs`` games against opponents (see the module).

    Args:
        variant: a built-in's name, a path or a :class:`~cardrules.rules.Variant`.
        num_envs: the number of games.
        seat: the agent's seat in every game.
        opponents: ``"random"`` (vectorised), or any ``opponents`` of
            :class:`cardrules.gymnasium.CardrulesEnv` (played game by game).
        players: the number of seats (``None``: 4 where the variant allows
            it, else its fewest).
        kernel: ``None`` to use the fast kernel where it can play the variant
            (random opponents only), ``False`` for the engine's games,
            ``True`` to refuse a variant or opponents the kernel cannot play.

    Raises:
        VariantError: if the variant cannot be loaded or is not for ``players``.
        ValueError: for a bad seat, opponents or ``num_envs``, or
            ``kernel=True`` with opponents other than ``"random"``.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Variant = "oh-hell",
        num_envs: int = 8,
        seat: int = 0,
        opponents: object = "random",
        players: int | None = None,
        kernel: bool | None = None,
    ) -> None:
        if isinstance(variant, str):
            variant = load(variant)
        if not isinstance(variant, Variant):
            raise TypeError(f"variant must be a name, a path or a Variant, got {variant!r}")
        if players is None:
            players = 4 if 4 in variant.players else variant.players.min
        observation_layout(variant, players)  # checks players
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat number from 0 to {players - 1}, got {seat!r}")
        check_opponents(opponents, players)
        self._random = isinstance(opponents, str) and opponents.strip().lower() == "random"
        if kernel and not self._random:
            raise ValueError("kernel=True needs opponents='random': a bot cannot be vectorised")
        self.batch: GameBatch | TrickKernel = batch(
            variant, num_envs, players, kernel=kernel if self._random else False
        )
        self.variant = variant
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.num_envs = num_envs
        self._sign = 1.0 if variant.scoring.higher_wins else -1.0
        low, high = observation_bounds(observation_layout(variant, players))
        self.single_observation_space = spaces.Box(
            low=np.asarray(low, dtype=np.float32),
            high=np.asarray(high, dtype=np.float32),
            shape=(len(low),),
            dtype=np.float32,
        )
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        self._bots: list[list[Any]] = []

    # ------------------------------------------------------------ the episodes

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal every game again (from ``seed``) and let the opponents play
        until the agent must act in each.

        Returns:
            ``(observations, infos)``; ``infos["action_mask"]`` is the mask.
        """
        super().reset(seed=seed)
        self._rng = np.random.default_rng(seed)
        self.batch.reset(None if seed is None else int(self._rng.integers(2**63)))
        b = self.batch
        if isinstance(b, GameBatch) and not self._random:
            self._bots = [self._bots_for(s) for s in b.seeds]
        ended = np.zeros(self.num_envs, dtype=bool)
        self._run_opponents(np.zeros(self.num_envs), ended, np.zeros((self.num_envs, self.players)))
        return b.observations(), {"action_mask": b.legal_masks()}

    def _bots_for(self, game_seed: int) -> list[Any]:
        return opponent_bots(self.opponents, self.players, self.seat, game_seed)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Play ``actions`` (one id per game) for the seat, then the
        opponents' moves until the seat must act again in every game.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``.

        Raises:
            ValueError: if an action is not legal for the seat in its game.
        """
        b = self.batch
        rewards = np.zeros(self.num_envs)
        ended = np.zeros(self.num_envs, dtype=bool)
        finals = np.zeros((self.num_envs, self.players))
        b.step(np.asarray(actions))
        self._collect(rewards, ended, finals)
        self._run_opponents(rewards, ended, finals)
        infos = {"action_mask": b.legal_masks(), "final_scores": finals}
        truncated = np.zeros(self.num_envs, dtype=bool)
        return b.observations(), rewards, ended, truncated, infos

    def _collect(self, rewards: Any, ended: Any, finals: Any) -> None:
        """Add the last batch step's rewards to the games not yet ended, and
        note the games that ended."""
        b = self.batch
        live = ~ended
        rewards[live] += self._sign * b.rewards[live, self.seat]
        new = b.terminated & live
        finals[new] = b.final_scores[new]
        ended |= b.terminated
        if new.any() and isinstance(b, GameBatch) and not self._random:
            for i in np.flatnonzero(new):
                self._bots[i] = self._bots_for(b.seeds[i])

    def _run_opponents(self, rewards: Any, ended: Any, finals: Any) -> None:
        b = self.batch
        for _ in range(MAX_OPPONENT_MOVES):
            others = b.seats != self.seat
            if not others.any():
                return
            acts = b.sample_actions(self._rng) if self._random else self._bot_actions(others)
            b.step(acts, others)
            self._collect(rewards, ended, finals)
        raise RuntimeError("the opponents did not let the seat act")  # pragma: no cover

    def _bot_actions(self, others: Any) -> Any:
        from cardrules.bots import decide

        b = self.batch
        assert isinstance(b, GameBatch)
        acts = np.zeros(self.num_envs, dtype=np.int64)
        for i in np.flatnonzero(others):
            g = b.games[i]
            s = g.current_player()
            acts[i] = decide(self._bots[i][s], g, s).id
        return acts

    def action_masks(self) -> Any:
        """``(num_envs, num_actions)`` bool: the seat's legal ids in each game."""
        return self.batch.legal_masks()
