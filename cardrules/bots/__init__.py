"""Bots that play any variant: :class:`RandomBot`, :class:`HeuristicBot` and
the search bots :class:`PIMCBot` and :class:`ISMCTSBot`.

A bot is anything with a ``choose(view) -> Action`` method (the :class:`Bot`
protocol). It is shown only a :class:`~cardrules.engine.views.view.View`, never the
game itself, so it cannot see hidden cards. A bot that also has
``choose_context(ctx)`` (a :class:`ContextBot`, as the random and heuristic bots) is
given its seat's :class:`DecisionContext` instead: the view's fields read on
demand, the whole view built only if asked for (``ctx.view``). A search bot is a
:class:`GameBot`: it also has ``choose_in(game, seat)``, which the drivers
call instead (:func:`decide`), and reads the game only through what its seat
may know, sampling the hidden cards (``game.sample_world(seat, rng)``)::

    from cardrules import Game, load
    from cardrules.bots import HeuristicBot, RandomBot, play_game

    g = Game(load("kachuful"), players=4, seed=1)
    play_game(g, [HeuristicBot(), RandomBot(1), RandomBot(2), RandomBot(3)])
    print(g.result)
"""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.bots.base import Bot, BotFactory, ContextBot
from cardrules.bots.heuristic import HeuristicBot
from cardrules.bots.ismcts import ISMCTSBot
from cardrules.bots.pimc import PIMCBot
from cardrules.bots.random_bot import RandomBot
from cardrules.bots.search_support import GameBot, decide
from cardrules.engine.game import Game
from cardrules.engine.views.context import DecisionContext

__all__ = [
    "BOTS",
    "Bot",
    "BotFactory",
    "ContextBot",
    "DecisionContext",
    "GameBot",
    "HeuristicBot",
    "ISMCTSBot",
    "PIMCBot",
    "RandomBot",
    "decide",
    "make_bot",
    "play_game",
]

#: The built-in bots by name.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": PIMCBot,
    "ismcts": ISMCTSBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build a built-in bot by name.

    Args:
        name: ``"random"``, ``"heuristic"``, ``"pimc"`` or ``"ismcts"``
            (case-insensitive; the search bots with their default budgets).
        seed: the bot's seed.

    Returns:
        A new bot.

    Raises:
        ValueError: for an unknown name (the message lists the known ones).
    """
    factory = BOTS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(BOTS))}")
    return factory(0 if seed is None else seed)


def play_game(game: Game, bots: Sequence[Bot], *, until_seat: int | None = None) -> None:
    """Let bots make every move of ``game`` (or until ``until_seat`` must act).

    Each bot is shown only its own seat's view, or its decision context (a
    :class:`GameBot` is given the game and its seat, see :func:`decide`).

    Args:
        game: the game, played in place.
        bots: one bot per seat (``bots[s]`` plays seat ``s``).
        until_seat: stop, without moving, when this seat may act (for a human seat).

    Raises:
        ValueError: if there are not as many bots as seats.
    """
    if len(bots) != game.players:
        raise ValueError(f"need {game.players} bots, one per seat, got {len(bots)}")
    while not game.is_over:
        seat = game.to_act
        if seat is None:  # simultaneous bids: anyone still to bid
            seat = min(game.waiting_for)
        if seat == until_seat:
            return
        game.apply(decide(bots[seat], game, seat), seat)
