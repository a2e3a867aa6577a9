"""PettingZoo environments for every cardrules variant.

:func:`env` builds an AEC (agent-environment cycle) environment, PettingZoo's
turn-based API, for any variant: a built-in by name, a ``.cardrules`` file or a
:class:`~cardrules.rules.Variant`. It follows the conventions of PettingZoo's
classic card games (``leduc_holdem_v4``, ``hanabi_v5``):

- agents ``"player_0"`` to ``"player_{n-1}"``, agent ``"player_k"`` playing seat ``k``;
- each agent's observation is a dict: ``"observation"``, the float32 vector of
  :meth:`Game.observation <cardrules.engine.game.Game.observation>` (its slices
  named by :func:`cardrules.observation_layout`), and ``"action_mask"``, int8 of
  length :data:`~cardrules.engine.actions.NUM_ACTIONS`, 1 for each legal action
  id of the agent to act (all zeros for the others);
- the action space is ``Discrete(NUM_ACTIONS)``: the action ids of
  :mod:`cardrules.engine.actions`, the same ids as ``Game.apply_action`` and
  ``Game.legal_action_ids``;
- ``infos[agent]["legal_moves"]`` lists the same legal ids (empty for the
  agents not to act).

The game is a :class:`~cardrules.engine.game.Game` (``env.unwrapped.game``).
Phases that are simultaneous in cardrules (a simultaneous bid, choosing cards
to pass) are played in turn: the agent selected is always ``Game.to_act``, the
first waiting seat, until each seat has acted (what one seat chose stays hidden
from the others as in the game, since observations come from views). Amending
a bid (``bid changes:``) is never offered: the agent selected is the seat to
act, and its mask holds only its own moves.

Rewards (``reward="points"``, the default of trick-taking games) are the
points of each hand: when a hand is scored, every agent's reward is the change
of its running total, negated in games whose lowest total wins (``winner:
lowest total``, as in Hearts), so that more reward is always better; over a
whole game an agent's rewards add up to its final total (negated in such
games). ``reward="win"`` (the default of shedding games, which score no
points) gives instead, once the game is over, 1 split equally among the sides
that share the win (each seat of a winning team gets its team's share) and 0
to the others. An illegal action is
refused with the cardrules error (:class:`~cardrules.errors.IllegalAction`,
or :class:`~cardrules.errors.InvalidAction` for what is not an action id) and
leaves the game and the environment unchanged; wrap the raw environment in
``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` for PettingZoo's
classic end-the-game-with-a-penalty behaviour instead.

Needs the ``pettingzoo`` extra: ``pip install 'cardrules[pettingzoo]'``.

Example:
    >>> from cardrules import pettingzoo as cz
    >>> e = cz.env(variant="oh-hell", players=4)
    >>> e.reset(seed=7)
    >>> e.agent_selection
    'player_0'
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(info["legal_moves"])
    ((401,), True)
    >>> legal = info["legal_moves"]
    >>> e.step(legal[0])
    >>> e.agent_selection
    'player_1'
"""

from __future__ import annotations

import random
import struct
from fractions import Fraction
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        AECEnv,
        ParallelEnv,
    )
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils.env_logger import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        EnvLogger,
    )
except ImportError as e:  # pragma: no cover - the tests install the extra
    raise ImportError(
        "cardrules.pettingzoo needs PettingZoo and Gymnasium: pip install 'cardrules[pettingzoo]'"
    ) from e

from cardrules.bounds import float32_packer, observation_bounds
from cardrules.counted import counted
from cardrules.engine.actions import NUM_ACTIONS, num_actions_of
from cardrules.engine.game import Game
from cardrules.engine.phases.score import running_scores
from cardrules.env_setup import resolve_table
from cardrules.errors import InvalidAction
from cardrules.rules import Mode, Variant

__all__ = [
    "REWARDS",
    "CardrulesEnv",
    "CardrulesParallelEnv",
    "env",
    "observation_bounds",
    "parallel_env",
    "raw_env",
]

#: The reward schemes :func:`env` accepts (``"auto"``: ``"points"`` in
#: trick-taking games, ``"win"`` in shedding games, which score no points).
REWARDS = ("auto", "points", "win")


def _sign(variant: Variant) -> int:
    return 1 if variant.scoring.higher_wins else -1


class CardrulesEnv(AECEnv):  # type: ignore[misc]  # AECEnv comes untyped
    """A cardrules game as a PettingZoo AEC environment (see the module).

    Build it with :func:`env` (wrapped in PettingZoo's order enforcing, as the
    classic games are) or :func:`raw_env`; the arguments are theirs.

    Attributes:
        variant: the rules.
        players: the number of seats.
        game: the current :class:`~cardrules.engine.game.Game` (after :meth:`reset`).
        layout: the observation's slices (:func:`cardrules.observation_layout`).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's own convention
        "render_modes": ["human", "ansi"],
        "name": "cardrules_v0",
        "is_parallelizable": False,
    }
    possible_agents: list[str]
    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agent_selection: str

    def __init__(
        self,
        variant: str | Variant = "oh-hell",
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "auto",
        max_actions: int | None = None,
    ) -> None:
        super().__init__()
        variant, players, self.layout = resolve_table(variant, players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be 'auto', 'points' or 'win', got {reward!r}")
        if reward == "auto":
            reward = "points" if variant.mode is Mode.TRICKS else "win"
        if max_actions is not None and (type(max_actions) is not int or max_actions < 1):
            raise ValueError(f"max_actions must be a positive int or None, got {max_actions!r}")
        self.variant = variant
        self.players = players
        self.render_mode = render_mode
        self._reward = reward
        self._max_actions = max_actions
        self._sign = _sign(variant)
        # A pack with special cards (54-63) has their action ids (400-429) too.
        n_actions = num_actions_of(variant)
        self._num_actions = n_actions
        self.metadata = {**type(self).metadata, "name": f"cardrules_{variant.name}_v0"}
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = []
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = observation_bounds(self.layout)
        size = len(low)
        self._size = size
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=np.asarray(low, dtype=np.float32),
                        high=np.asarray(high, dtype=np.float32),
                        shape=(size,),
                        dtype=np.float32,
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        #: the space of :meth:`state`: every seat's observation, one after the other
        self.state_space = spaces.Box(
            low=np.tile(np.asarray(low, dtype=np.float32), players),
            high=np.tile(np.asarray(high, dtype=np.float32), players),
            shape=(players * size,),
            dtype=np.float32,
        )
        self.game: Game | None = None
        self._rng: random.Random | None = None
        self._totals: list[int | Fraction] = []
        #: whether every agent's reward is 0 (the step changed no total)
        self._zero_rewards = True
        self._actions = 0
        #: the legal ids of the agent selected (its seat: ``_legal_seat``)
        self._legal: list[int] = []
        self._legal_seat = -1
        #: the mask of the agent selected (built once a step, in ``_select``)
        self._mask: Any = None
        #: every other agent's mask: all zeros, read-only, shared
        self._zeros = np.zeros(n_actions, dtype=np.int8)
        self._zeros.flags.writeable = False
        #: each seat's observation at this step (cleared by every step and reset)
        self._obs: dict[int, Any] = {}

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(NUM_ACTIONS)``."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the cycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        Args:
            seed: the game's seed: ``reset(seed=s)`` plays ``Game(variant,
                players, seed=s)``, and the resets after it without a seed play
                seeds drawn from ``s``, so the whole sequence repeats. Without
                any seed, the game's seed is drawn by the operating system.
            options: ``{"game": g}`` starts from a copy of the game ``g`` (of
                these rules and players, at any point, such as a save read with
                ``Game.from_json``) instead of a new deal; other keys are ignored.

        Raises:
            ValueError: if ``seed`` is not an int from 0 to 2**64 - 1, or the
                game of ``options`` is not a game of these rules and players.
        """
        if isinstance(seed, np.integer):
            seed = int(seed)
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**64):
            raise ValueError(f"seed must be an int from 0 to 2**64 - 1 or None, got {seed!r}")
        given = None if options is None else options.get("game")
        if given is not None:
            if not isinstance(given, Game):
                raise ValueError(f"options['game'] must be a Game, got {type(given).__name__}")
            if given.variant != self.variant or given.players != self.players:
                raise ValueError(
                    f"options['game'] is a game of {given.variant.name} for "
                    f"{given.players} players, not of {self.variant.name} for {self.players}"
                )
            game = given.clone()
        elif seed is not None:
            game = Game(self.variant, self.players, seed=seed)
        elif self._rng is not None:
            game = Game(self.variant, self.players, seed=self._rng.getrandbits(63))
        else:
            game = Game(self.variant, self.players)
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = game
        self._totals = list(running_scores(game))
        self._zero_rewards = True
        self._actions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"legal_moves": []} for a in self.agents}
        self._skip_agent_selection = None
        self._obs = {}
        self._legal = []
        self._legal_seat = -1
        self._mask = None
        if game.is_over:
            self._finish()
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        """Make the move ``action`` (an action id) for :attr:`agent_selection`.

        Raises:
            InvalidAction: if ``action`` is not an action id (code ``bad_action``).
            IllegalAction: if the rules forbid it now; the game and the
                environment are then unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if isinstance(action, np.integer):  # what Discrete.sample gives
            action = int(action)
        if type(action) is not int:
            raise InvalidAction(
                f"step needs an action id (an int from 0 to {NUM_ACTIONS - 1}), "
                f"got {type(action).__name__}",
                code="bad_action",
            )
        game.apply_id(action, self._seat[agent])
        self._obs = {}
        self._actions += 1
        self._cumulative_rewards[agent] = 0.0
        scored = self._score()
        if game.is_over:
            self._finish()
        elif self._max_actions is not None and self._actions >= self._max_actions:
            self._select()
            self.truncations = dict.fromkeys(self.agents, True)
            self._clear_infos()
            self._deads_step_first()
        else:
            self._select()
        if scored:  # else every reward is 0: nothing to add
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _score(self) -> bool:
        """Each agent's reward for the last action: the change of its total
        (signed), or the share of the win once over (``reward="win"``).

        Returns:
            Whether any agent's reward may be other than 0 (when not, the
            rewards of the step before, all 0, stand).
        """
        game = self.game
        assert game is not None
        # the running totals (ints or Fractions) change only when a hand is
        # scored: a comparison of the engine's own list with a copy of it (of
        # the same types, so no Fraction arithmetic), not game.scores, each step
        unchanged = (
            running_scores(game) == self._totals if self._reward == "points" else not game.is_over
        )
        if unchanged:
            if self._zero_rewards:
                return False
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero_rewards = True
            return False
        rewards = dict.fromkeys(self.agents, 0.0)
        self._zero_rewards = False
        if self._reward == "points":
            now = running_scores(game)
            for s, a in enumerate(self.possible_agents):
                if a in rewards:
                    rewards[a] = float(self._sign * (now[s] - self._totals[s]))
            self._totals = list(now)
        elif game.is_over:
            result = game.result
            assert result is not None
            index = {s: k for k, team in enumerate(result.teams) for s in team}
            sides = {index.get(s, -1 - s) for s in result.winners}
            for s in result.winners:
                rewards[self.possible_agents[s]] = 1.0 / len(sides)
        self.rewards = rewards
        return True

    def _select(self) -> None:
        """Select the seat to act and fill the infos: only the infos of the
        agent selected before and of the one selected now change (every other
        agent's legal moves stay empty)."""
        game = self.game
        assert game is not None
        seat = game.to_act
        assert seat is not None
        agent = self.possible_agents[seat]
        if self._legal_seat >= 0:
            self.infos[self.possible_agents[self._legal_seat]] = {"legal_moves": []}
        self._legal = legal = game.legal_action_ids()  # the seat to act's, cached
        self._legal_seat = seat
        buf = bytearray(self._num_actions)
        for i in legal:
            buf[i] = 1
        self._mask = np.frombuffer(buf, dtype=np.int8)
        self.infos[agent] = {"legal_moves": legal}
        self.agent_selection = agent

    def _clear_infos(self) -> None:
        """No agent has legal moves (the game is over or truncated)."""
        for a in self.agents:
            self.infos[a] = {"legal_moves": []}
        self._legal = []
        self._legal_seat = -1
        self._mask = None

    def _finish(self) -> None:
        """The game is over: every agent is terminated."""
        self.terminations = dict.fromkeys(self.agents, True)
        self._clear_infos()
        if self.agents and getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]
        self._deads_step_first()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: ``{"observation": ..., "action_mask": ...}``.

        Both arrays are computed once per step and seat and are the same
        arrays until the next step or reset (copy them before changing them in
        place): the observation when first asked for, the mask of the agent
        selected from the legal moves computed when it was selected. Every
        other agent's mask is one shared read-only array of zeros.
        """
        seat = self._seat[agent]
        obs = self._obs.get(seat)
        if obs is None:
            game = self.game
            assert game is not None
            obs = self._obs[seat] = self._array(game.observation(seat))
        if seat == self._legal_seat and agent == self.agent_selection:
            return {"observation": obs, "action_mask": self._mask}
        return {"observation": obs, "action_mask": self._zeros}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (or ``None`` with ``observe=False``),
        cumulative reward, flags and info (PettingZoo's ``AECEnv.last``)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _array(self, vec: list[float]) -> Any:
        """``vec`` as a float32 array: packed as C floats and read back, about
        twice as fast as ``numpy.asarray`` on a list of Python floats (the
        values are the same; a value too large for a float32, which no
        observation has, takes ``asarray``'s way)."""
        try:
            return np.frombuffer(bytearray(float32_packer(self._size)(*vec)), dtype=np.float32)
        except (OverflowError, struct.error):  # pragma: no cover - no such observation
            return np.asarray(vec, dtype=np.float32)

    # ------------------------------------------------------------ showing it

    def render(self) -> str | None:
        """The table as text, every hand face up (an onlooker's picture for
        people, not an observation): printed with ``render_mode="human"``,
        returned with ``"ansi"``."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode (human or ansi)")
            return None
        text = self._table()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table(self) -> str:
        game = self.game
        if game is None:
            return f"{self.variant.name}: not started (call reset)"
        view = game.omniscient_view()
        top = f"{self.variant.name}, hand {view.hand_number} ({counted(view.hand_size, 'card')}), "
        top += f"dealer {self.possible_agents[view.dealer]}"
        if view.trump is not None:
            top += f", trumps {view.trump}"
        elif view.mode == "tricks" and view.phase in ("bid", "play", "over"):
            top += ", no trumps"
        if view.turned_up is not None:
            top += f", turned {view.turned_up}"
        lines = [top]
        if game.is_over:
            result = game.result
            assert result is not None
            lines.append(
                "game over: winner " + ", ".join(self.possible_agents[s] for s in result.winners)
            )
        else:
            lines.append(f"{view.phase}: {self.agent_selection} to act")
        hands = dict(view.visible_hands)
        for s, a in enumerate(self.possible_agents):
            parts = [f"{a}:", f"total {_num(view.scores[s])}"]
            if view.bids and view.bid_made and view.bid_made[s]:
                parts.append(f"bid {view.bids[s]}")
            if view.mode == "tricks":
                parts.append(f"tricks {view.tricks_won[s]}")
            cards = hands.get(s, game.hand(s))
            parts.append("| " + (" ".join(map(str, cards)) or "-"))
            lines.append("  " + " ".join(parts))
        if view.trick:
            lines.append(
                "trick: " + ", ".join(f"{self.possible_agents[s]} {c}" for s, c in view.trick)
            )
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release (text rendering only)."""

    def state(self) -> Any:
        """The observations of every seat, one after the other (seat 0
        first), for centralised critics: everything any seat may know, in
        :attr:`state_space`."""
        game = self.game
        assert game is not None
        return np.asarray(
            [x for s in range(self.players) for x in game.observation(s)], dtype=np.float32
        )


def _num(x: Fraction | int) -> str:
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


def raw_env(
    variant: str | Variant = "oh-hell",
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "auto",
    max_actions: int | None = None,
) -> CardrulesEnv:
    """The environment without PettingZoo's wrappers (see :func:`env`).

    Example:
        >>> e = raw_env("kazhutha", players=4)
        >>> e.reset(seed=1)
        >>> e.possible_agents
        ['player_0', 'player_1', 'player_2', 'player_3']
    """
    return CardrulesEnv(
        variant, players, render_mode=render_mode, reward=reward, max_actions=max_actions
    )


def env(
    variant: str | Variant = "oh-hell",
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "auto",
    max_actions: int | None = None,
) -> Any:
    """A PettingZoo AEC environment playing ``variant`` (see the module).

    Args:
        variant: a built-in's name (``"oh-hell"``, ``"kazhutha"``...), a path
            to a ``.cardrules`` file, or a :class:`~cardrules.rules.Variant`
            (``cardrules.load("oh-hell", hands="list 5")`` for options).
        players: the number of seats; ``None``: 4 if the variant allows it,
            else its fewest.
        render_mode: ``None``, ``"human"`` (print the table after each step)
            or ``"ansi"`` (:meth:`~CardrulesEnv.render` returns the text).
        reward: ``"points"`` (each hand's points), ``"win"`` (the share of
            the win at the end) or ``"auto"`` (the default: points in
            trick-taking games, the win in shedding games).
        max_actions: truncate the game after this many actions (``None``:
            play it to its end).

    Returns:
        The :class:`CardrulesEnv`, in PettingZoo's ``OrderEnforcingWrapper``
        (``env.unwrapped`` is the environment itself).

    Raises:
        VariantError: if the variant cannot be loaded or is not for ``players``.
        ValueError: for a bad ``render_mode``, ``reward`` or ``max_actions``.

    Example:
        >>> e = env("callbreak", render_mode="ansi")
        >>> e.reset(seed=3)
        >>> e.render().splitlines()[1]
        'bid: player_3 to act'
    """
    return _OrderEnforcing(
        raw_env(variant, players, render_mode=render_mode, reward=reward, max_actions=max_actions)
    )


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's ``OrderEnforcingWrapper`` with a direct :meth:`last`: the
    same checks (nothing is observed before reset), without passing each of
    the five attributes ``last`` reads through the wrapper's ``__getattr__``."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, flags and info (see
        PettingZoo's ``AECEnv.last``)."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]

    # ``agent_iter`` reads these two at every step: read directly, with the
    # wrapper's check (not before reset), not through its ``__getattr__``.
    @property
    def agents(self) -> list[str]:
        """The agents still in the game (PettingZoo's ``agents``)."""
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        """The agent to act (PettingZoo's ``agent_selection``)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        """``OrderEnforcingWrapper.step``, calling the environment's directly."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


class CardrulesParallelEnv(ParallelEnv):  # type: ignore[misc]  # ParallelEnv comes untyped
    """A cardrules game as a PettingZoo parallel environment.

    In a card game one seat acts at a time (simultaneous phases are played in
    turn, as in :class:`CardrulesEnv`), so a parallel step is one action: each
    step takes a dict of actions, one for each agent in :attr:`agents`, uses
    the action of the agent whose mask is not all zeros (the seat to act) and
    ignores the others (send anything, such as 0, or leave them out). The
    step returns every agent's observation, the reward each agent got from
    that action, and the flags: every agent is terminated together when the
    game ends (truncated together after ``max_actions``), and :attr:`agents`
    is then empty. Observations, masks, rewards and illegal actions are
    :class:`CardrulesEnv`'s (an illegal action raises and changes nothing).

    Build it with :func:`parallel_env`; ``aec_to_parallel`` refuses the AEC
    environment (its cycle is not one action per agent), which is why this
    class exists.

    Attributes:
        aec: the :class:`CardrulesEnv` played underneath.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's own convention
        "render_modes": ["human", "ansi"],
        "name": "cardrules_parallel_v0",
    }
    agents: list[str]

    def __init__(self, aec: CardrulesEnv) -> None:
        self.aec = aec
        self.possible_agents = aec.possible_agents
        self.observation_spaces = aec.observation_spaces
        self.action_spaces = aec.action_spaces
        self.state_space = aec.state_space
        self.render_mode = aec.render_mode
        self.metadata = {**type(self).metadata, "name": aec.metadata["name"]}
        self.agents = []

    @property
    def game(self) -> Game | None:
        """The :class:`~cardrules.engine.game.Game` being played."""
        return self.aec.game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(NUM_ACTIONS)``."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game (``seed`` and ``options`` as :meth:`CardrulesEnv.reset`).

        Returns:
            ``(observations, infos)``, by agent.
        """
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observations(), {a: dict(self.aec.infos[a]) for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Make the move of the agent to act, ``actions[agent]``.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``, by
            agent (every agent of :attr:`agents` before the step).

        Raises:
            InvalidAction: (code ``bad_action``) if the agent to act has no
                action in ``actions``, or its action is not an action id.
            IllegalAction: if the rules forbid the action now; nothing changes.
        """
        aec = self.aec
        agents = self.agents
        if not agents:
            return {}, {}, {}, {}, {}
        agent = aec.agent_selection
        if not isinstance(actions, dict) or agent not in actions:
            raise InvalidAction(
                f"step needs the action of {agent}, the agent to act", code="bad_action"
            )
        aec.step(actions[agent])
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in agents}
        terminations = {a: aec.terminations[a] for a in agents}
        truncations = {a: aec.truncations[a] for a in agents}
        infos = {a: dict(aec.infos[a]) for a in agents}
        observations = self._observations()
        if any(terminations.values()) or any(truncations.values()):
            # every agent ends together: the AEC environment's dead steps
            # remove them one by one, all at once here
            while aec.agents:
                aec.step(None)
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def state(self) -> Any:
        """Every seat's observation, one after the other (see :meth:`CardrulesEnv.state`)."""
        return self.aec.state()

    def render(self) -> str | None:
        """The table as text (see :meth:`CardrulesEnv.render`)."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(
    variant: str | Variant = "oh-hell",
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "auto",
    max_actions: int | None = None,
) -> CardrulesParallelEnv:
    """A PettingZoo parallel environment playing ``variant``: one action a
    step, of the seat to act (see :class:`CardrulesParallelEnv`; the
    arguments are :func:`env`'s).

    Example:
        >>> e = parallel_env("hearts")
        >>> observations, infos = e.reset(seed=1)
        >>> masks = {a: o.get("action_mask") for a, o in observations.items()}
        >>> " ".join(a for a in e.agents if masks.get(a).any())
        'player_0'
        >>> legal = infos.get("player_0").get("legal_moves")
        >>> observations, rewards, terminations, truncations, infos = e.step({"player_0": legal[0]})
        >>> e.game.version, sorted(rewards.values())
        (1, [0.0, 0.0, 0.0, 0.0])
    """
    return CardrulesParallelEnv(
        raw_env(variant, players, render_mode=render_mode, reward=reward, max_actions=max_actions)
    )
