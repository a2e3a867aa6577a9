"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from cardrules.engine.actions import Action
from cardrules.engine.views.view import View

__all__ = ["Bot", "BotFactory"]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action from what one seat may see.

    A bot is only ever shown a :class:`~cardrules.engine.views.view.View` (never the
    :class:`~cardrules.engine.game.Game`), so it cannot see hidden cards. It may
    keep state between calls, but must not rely on being asked about every
    move: a driver asks it only when its seat has to act.

    Example:
        >>> class FirstBot:
        ...     def choose(self, view):
        ...         return view.legal_actions[0]
    """

    def choose(self, view: View) -> Action:
        """Pick one of ``view.legal_actions``.

        Args:
            view: what the bot's seat may know now; ``view.legal_actions`` is
                never empty when a driver asks.

        Returns:
            One of ``view.legal_actions``.
        """
        ...


#: Builds a bot from a seed (the class of a bot is one: ``RandomBot(seed)``).
BotFactory = Callable[[int], Bot]
