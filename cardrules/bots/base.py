"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from cardrules.engine.actions import Action
from cardrules.engine.views.context import DecisionContext
from cardrules.engine.views.view import View

__all__ = ["Bot", "BotFactory", "ContextBot"]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action from what one seat may see.

    A bot is only ever shown a :class:`~cardrules.engine.views.view.View` (never the
    :class:`~cardrules.engine.game.Game`), so it cannot see hidden cards; one
    that also has ``choose_context`` (a :class:`ContextBot`) is shown its
    seat's :class:`~cardrules.engine.views.context.DecisionContext` instead,
    the same fields read on demand. It may
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


@runtime_checkable
class ContextBot(Bot, Protocol):
    """A bot that also decides from a seat's
    :class:`~cardrules.engine.views.context.DecisionContext`: the fields of
    the seat's view read on demand, the whole view built only if the bot
    asks for it (``ctx.view``). The drivers call ``choose_context`` when a bot
    has it (:func:`~cardrules.bots.search_support.decide`), which spares
    building a whole view at every decision; ``choose(view)`` must still
    work for drivers that hold only a view (a server's remote seat).

    Example:
        >>> import cardrules
        >>> from cardrules.bots import play_game
        >>> class FirstBot:
        ...     def choose(self, view):
        ...         return view.legal_actions[0]
        ...     def choose_context(self, ctx):
        ...         return self.choose(ctx)  # a context has the view's fields
        >>> g = cardrules.Game(cardrules.load("kachuful"), 4, seed=3)
        >>> play_game(g, [FirstBot() for _ in range(4)])
        >>> g.is_over
        True
    """

    def choose_context(self, ctx: DecisionContext) -> Action:
        """Pick one of ``ctx.legal_actions``.

        Args:
            ctx: the seat's decision context, valid during the call only
                (keep ``ctx.view`` or the fields read to look at it later).

        Returns:
            One of ``ctx.legal_actions``.
        """
        ...


#: Builds a bot from a seed (the class of a bot is one: ``RandomBot(seed)``).
BotFactory = Callable[[int], Bot]
