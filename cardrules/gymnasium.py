"""Gymnasium environments: one seat of a cardrules game against bots.

:class:`CardrulesEnv` is a single-agent `Gymnasium <https://gymnasium.farama.org/>`_
environment: the agent plays ``seat`` and bots play every other seat
(``opponents``: a built-in bot's name, a factory, or one per seat, see
:mod:`cardrules.opponents`). Between two of the agent's moves the bots play
on, inside :meth:`~CardrulesEnv.step`.

- **Observation**: a float32 ``Box``, the seat's
  :meth:`Game.observation <cardrules.engine.game.Game.observation>` (its
  slices named by :func:`cardrules.observation_layout`; everything the seat
  may know and nothing else). Its bounds are
  :func:`cardrules.bounds.observation_bounds`' (``scores`` unbounded, every
  other slice in [0, 1]).
- **Action**: ``Discrete(num_actions_of(variant))``, the action ids of
  :mod:`cardrules.engine.actions` (``NUM_ACTIONS`` for most games, more for a
  pack with special cards or an auction of contracts), as the PettingZoo
  environments use.
- **Mask**: ``info["action_mask"]``, int8, 1 for each legal id of the seat (all
  zeros once the episode has ended); :meth:`~CardrulesEnv.action_masks` gives
  it as a bool array, the name sb3-contrib's ``MaskablePPO`` calls.
- **Reward**: ``reward="points"`` (the default in trick-taking games): the
  change of the seat's running total over the step (the bots' moves
  included), negated where the lowest total wins, so an episode's rewards add
  up to the seat's final total (negated there). ``reward="win"`` (the default
  in shedding games): at the end, the seat's share of the win (1 split among
  the sides that share it), else 0.
- **Illegal actions**: ``illegal="terminate"`` (the default, PettingZoo's and
  pgx's classic rule) ends the episode: ``terminated=True``, reward
  ``illegal_reward`` (-1.0), ``info["illegal_action"]=True``; the game is left
  as it was. ``illegal="raise"`` raises the engine's
  :class:`~cardrules.errors.IllegalAction` (or
  :class:`~cardrules.errors.InvalidAction` for what is not an action id) and
  changes nothing, so the step can be retried.
- **Episode**: one whole game (``terminated`` at its end), or ``max_actions``
  actions of the game (``truncated``).

Importing this module registers one id per built-in variant,
``cardrules/<name>-v0`` (``cardrules/oh-hell-v0``, ``cardrules/hearts-v0``,
``cardrules/kazhutha-v0``...), so ``gymnasium.make`` builds them; keyword
arguments pass through (``variant=`` a :class:`~cardrules.rules.Variant`
for options, ``players=``, ``seat=``, ``opponents=``).

Needs Gymnasium and numpy: ``pip install 'cardrules[gymnasium]'`` (the
``pettingzoo`` extra brings them too).

Example:
    >>> import gymnasium
    >>> import cardrules.gymnasium
    >>> env = gymnasium.make("cardrules/oh-hell-v0", opponents="random")
    >>> obs, info = env.reset(seed=7)
    >>> obs.shape, info["action_mask"].shape
    ((401,), (337,))
    >>> legal = info["action_mask"].nonzero()[0]
    >>> obs, reward, terminated, truncated, info = env.step(int(legal[0]))
    >>> terminated, truncated
    (False, False)
"""

from __future__ import annotations

import random
import struct
from fractions import Fraction
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - the tests install the extra
    raise ImportError(
        "cardrules.gymnasium needs Gymnasium and numpy: pip install 'cardrules[gymnasium]'"
    ) from e

from cardrules.bounds import float32_packer, observation_bounds
from cardrules.engine.actions import Action, num_actions_of
from cardrules.engine.game import Game
from cardrules.env_setup import resolve_table
from cardrules.errors import IllegalAction, InvalidAction
from cardrules.opponents import check_opponents, opponent_bots
from cardrules.rules import Mode, Variant

__all__ = [
    "ILLEGAL",
    "ONE_HAND",
    "CardrulesEnv",
    "env_id",
    "one_hand_env",
    "register_builtins",
    "register_one_hand",
]

#: What :class:`CardrulesEnv` does with an illegal action.
ILLEGAL = ("terminate", "raise")


class CardrulesEnv(gymnasium.Env):
    """One seat of a cardrules game against bots (see the module).

    Args:
        variant: a built-in's name, a path to a ``.cardrules`` file or a
            :class:`~cardrules.rules.Variant`.
        seat: the agent's seat.
        opponents: the other seats' bots (``"heuristic"``, ``"random"``,
            ``"pimc"``, ``"ismcts"``, a factory taking a seed, or one per other
            seat in seat order).
        players: the number of seats (``None``: 4 where the variant allows
            it, else its fewest).
        reward: ``"points"``, ``"win"`` or ``"auto"`` (points in trick-taking
            games, the win in shedding games).
        illegal: ``"terminate"`` or ``"raise"`` (see the module).
        illegal_reward: the reward of an illegal action under ``"terminate"``.
        max_actions: truncate after this many actions of the game (``None``:
            play it to its end).
        render_mode: ``None`` or ``"ansi"`` (:meth:`render` returns the seat's
            view as text, :func:`cardrules.llm.describe`'s).

    Raises:
        VariantError: if the variant cannot be loaded or is not for ``players``.
        ValueError: for a bad seat, opponents, reward, illegal, max_actions or
            render mode.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Variant = "oh-hell",
        seat: int = 0,
        opponents: object = "heuristic",
        players: int | None = None,
        reward: str = "auto",
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        max_actions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        variant, players, layout = resolve_table(variant, players)
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat number from 0 to {players - 1}, got {seat!r}")
        check_opponents(opponents, players)
        if reward not in ("auto", "points", "win"):
            raise ValueError(f"reward must be 'auto', 'points' or 'win', got {reward!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'terminate' or 'raise', got {illegal!r}")
        if max_actions is not None and (type(max_actions) is not int or max_actions < 1):
            raise ValueError(f"max_actions must be a positive int or None, got {max_actions!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.variant = variant
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.render_mode = render_mode
        self._reward = (
            ("points" if variant.mode is Mode.TRICKS else "win") if reward == "auto" else reward
        )
        self._illegal = illegal
        self._illegal_reward = float(illegal_reward)
        self._max_actions = max_actions
        self._sign = 1 if variant.scoring.higher_wins else -1
        n_actions = num_actions_of(variant)
        self._num_actions = n_actions
        low, high = observation_bounds(layout)
        self.observation_space = spaces.Box(
            low=np.asarray(low, dtype=np.float32),
            high=np.asarray(high, dtype=np.float32),
            shape=(len(low),),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(n_actions)
        self._size = len(low)
        self.game: Game | None = None
        self._bots: list[Any] = []
        self._rng: random.Random | None = None
        self._start = 0
        self._done = True
        self._total = Fraction(0)

    # ------------------------------------------------------------ the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new game and let the bots play until the seat must act.

        Args:
            seed: ``reset(seed=s)`` plays ``Game(variant, players, seed=s)``
                (the bots' seeds are drawn from ``s`` too); later resets
                without a seed draw their seeds from ``s``; with no seed ever,
                from the operating system.
            options: ``{"game": g}`` starts from a copy of the game ``g`` (of
                these rules and players) instead of a new deal.

        Returns:
            ``(observation, info)``; ``info["action_mask"]`` is the mask.

        Raises:
            ValueError: for a bad seed or ``options["game"]``.
        """
        if isinstance(seed, np.integer):
            seed = int(seed)
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**64):
            raise ValueError(f"seed must be an int from 0 to 2**64 - 1 or None, got {seed!r}")
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        game_seed = seed if seed is not None else self._rng.getrandbits(63)
        given = None if options is None else options.get("game")
        if given is not None:
            if not isinstance(given, Game):
                raise ValueError(f"options['game'] must be a Game, got {type(given).__name__}")
            if given.variant != self.variant or given.players != self.players:
                raise ValueError("options['game'] is not a game of these rules and players")
            game = given.clone()
        else:
            game = Game(self.variant, self.players, seed=game_seed)
        self.game = game
        self._bots = opponent_bots(self.opponents, self.players, self.seat, game_seed)
        self._start = game.version
        self._done = False
        self._total = self._signed_total()
        self._run_bots()
        self._done = game.is_over
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action id) for the seat, then the bots' moves
        until the seat must act again or the game ends.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            RuntimeError: if the episode has ended (call :meth:`reset`).
            InvalidAction: with ``illegal="raise"``, if ``action`` is not an
                action id; IllegalAction: if the rules forbid it now.
        """
        game = self.game
        if game is None or self._done:
            raise RuntimeError("the episode has ended: call reset()")
        if isinstance(action, np.integer):
            action = int(action)
        try:
            if type(action) is not int:
                raise InvalidAction(
                    f"step needs an action id (an int from 0 to {self._num_actions - 1}), "
                    f"got {type(action).__name__}",
                    code="bad_action",
                )
            game.apply(Action.from_id(action), self.seat)
        except (IllegalAction, InvalidAction):
            if self._illegal == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self._illegal_reward, True, False, info
        self._run_bots()
        terminated = game.is_over
        truncated = not terminated and self._over_budget()
        self._done = terminated or truncated
        return self._observation(), self._step_reward(), terminated, truncated, self._info()

    def _over_budget(self) -> bool:
        game = self.game
        assert game is not None
        return self._max_actions is not None and game.version - self._start >= self._max_actions

    def _run_bots(self) -> None:
        """The bots' moves until the seat may act, the game ends or the budget is spent."""
        from cardrules.bots import decide

        game = self.game
        assert game is not None
        seat = self.seat
        while not game.is_over and not self._over_budget():
            waiting = game.waiting_order
            if seat in waiting:
                return
            s = waiting[0]
            game.apply(decide(self._bots[s], game, s), s)

    def _signed_total(self) -> Fraction:
        game = self.game
        assert game is not None
        return self._sign * Fraction(game.scores[self.seat])

    def _step_reward(self) -> float:
        game = self.game
        assert game is not None
        if self._reward == "points":
            now = self._signed_total()
            reward = float(now - self._total)
            self._total = now
            return reward
        result = game.result
        if result is None or self.seat not in result.winners:
            return 0.0
        index = {s: k for k, team in enumerate(result.teams) for s in team}
        sides = {index.get(s, -1 - s) for s in result.winners}
        return 1.0 / len(sides)

    def _observation(self) -> Any:
        game = self.game
        assert game is not None
        vec = game.observation(self.seat)
        try:  # packed as C floats: about twice as fast as asarray on a list
            return np.frombuffer(bytearray(float32_packer(self._size)(*vec)), dtype=np.float32)
        except (OverflowError, struct.error):  # pragma: no cover - no such observation
            return np.asarray(vec, dtype=np.float32)

    def _mask(self) -> Any:
        mask = np.zeros(self._num_actions, dtype=np.int8)
        game = self.game
        if game is not None and not self._done:
            mask[game.legal_action_ids(self.seat)] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    def action_masks(self) -> Any:
        """The legal ids of the seat now, as a bool array (sb3-contrib's name)."""
        return self._mask().astype(bool)

    # ------------------------------------------------------------ showing it

    def render(self) -> str | None:
        """The seat's view as text (``render_mode="ansi"``; see
        :func:`cardrules.llm.describe`): what the agent may know, nothing more."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode ('ansi')")
            return None
        if self.game is None:
            return f"{self.variant.name}: not started (call reset)"
        from cardrules.llm import describe

        return describe(self.game.view(self.seat), self.variant.name)


def env_id(name: str) -> str:
    """The Gymnasium id of a built-in variant: ``cardrules/<name>-v0``.

    Example:
        >>> env_id("oh-hell")
        'cardrules/oh-hell-v0'
    """
    return f"cardrules/{name}-v0"


def register_builtins() -> list[str]:
    """Register :func:`env_id` of every built-in variant with Gymnasium (done
    when this module is imported; registering again changes nothing).

    Returns:
        The ids, sorted by variant name.
    """
    from cardrules.dsl.loader import builtin_names

    ids = []
    for name in builtin_names():
        i = env_id(name)
        if i not in gymnasium.registry:
            gymnasium.register(
                id=i,
                entry_point="cardrules.gymnasium:CardrulesEnv",
                kwargs={"variant": name},
                disable_env_checker=False,
            )
        ids.append(i)
    return ids


#: The built-ins with a one-hand preset, ``cardrules/<name>-1hand-v0``, and the
#: cards each player holds in it unless ``cards=`` says otherwise. Their files
#: offer ``hands`` and ``tie`` as options: the preset is one hand of that many
#: cards, players tied on points sharing the win (no tie-break hands).
ONE_HAND: dict[str, int] = {"oh-hell": 5, "callbreak": 13}


def one_hand_env(variant: str = "oh-hell", cards: int | None = None, **kwargs: Any) -> CardrulesEnv:
    """One hand of a built-in as an episode: ``hands: list <cards>`` and
    ``tie: shared``, so no tie-break hand ever follows (the entry point of the
    ``cardrules/<name>-1hand-v0`` ids; ``kwargs`` go to :class:`CardrulesEnv`).

    Args:
        variant: a built-in of :data:`ONE_HAND`.
        cards: the cards each player is dealt; :data:`ONE_HAND`'s number when ``None``.
        **kwargs: ``seat``, ``opponents``, ``players``... as for :class:`CardrulesEnv`.

    Raises:
        ValueError: if ``variant`` has no one-hand preset or ``cards`` is not an int.
        VariantError: if ``cards`` is more than the pack allows.

    Example:
        >>> env = one_hand_env("oh-hell", cards=3, opponents="random")
        >>> _ = env.reset(seed=1)
        >>> env.game.hand_size, env.variant.winning.tie.value
        (3, 'shared')
    """
    if variant not in ONE_HAND:
        raise ValueError(f"no one-hand preset for {variant!r}; there is one for {sorted(ONE_HAND)}")
    cards = ONE_HAND[variant] if cards is None else cards
    if type(cards) is not int or cards < 1:
        raise ValueError(f"cards must be a positive int, got {cards!r}")
    from cardrules.dsl import load

    rules = load(variant, hands=f"list {cards}", tie="shared")
    return CardrulesEnv(rules, **kwargs)


def register_one_hand() -> list[str]:
    """Register ``cardrules/<name>-1hand-v0`` for each built-in of :data:`ONE_HAND`
    (done when this module is imported).

    Returns:
        The ids, sorted.

    Example:
        >>> register_one_hand()
        ['cardrules/callbreak-1hand-v0', 'cardrules/oh-hell-1hand-v0']
    """
    ids = []
    for name in sorted(ONE_HAND):
        i = f"cardrules/{name}-1hand-v0"
        if i not in gymnasium.registry:
            gymnasium.register(
                id=i,
                entry_point="cardrules.gymnasium:one_hand_env",
                kwargs={"variant": name},
                disable_env_checker=False,
            )
        ids.append(i)
    return ids


register_builtins()
register_one_hand()
