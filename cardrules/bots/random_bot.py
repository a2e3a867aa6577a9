"""A bot that plays uniformly at random among the legal actions."""

from __future__ import annotations

import random

from cardrules.engine.actions import Action
from cardrules.engine.views.context import DecisionContext, SeatView

__all__ = ["RandomBot"]


class RandomBot:
    """Picks a legal action uniformly at random (a baseline and a fuzzer).

    Args:
        seed: the seed of the bot's own random generator; the same seed and the
            same views give the same choices.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_context(self, ctx: DecisionContext) -> Action:
        """Pick a legal action at random from the seat's decision context
        (reads only ``ctx.legal_actions``: the same choice as :meth:`choose`).

        Args:
            ctx: the seat's decision context.

        Returns:
            One of ``ctx.legal_actions``.

        Example:
            >>> import cardrules
            >>> from cardrules.bots import DecisionContext
            >>> g = cardrules.Game(cardrules.load("oh-hell"), 4, seed=1)
            >>> ctx = DecisionContext(g, g.to_act)
            >>> RandomBot(3).choose_context(ctx) == RandomBot(3).choose(g.view(g.to_act))
            True
        """
        return self.choose(ctx)

    def choose(self, view: SeatView) -> Action:
        """Pick a legal action at random.

        Args:
            view: the seat's view (or decision context); its ``legal_actions``
                must not be empty.

        Returns:
            One of ``view.legal_actions``.

        Raises:
            ValueError: if the seat has no legal action.
        """
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action")
        return legal[self._rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"
