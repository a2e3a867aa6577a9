"""The bots that fill the other seats of a single-seat environment.

:func:`opponent_bots` reads the ``opponents`` argument of
:class:`cardrules.gymnasium.CardrulesEnv` and :func:`cardrules.llm.play`: a
built-in bot's name (``"heuristic"``, ``"random"``, ``"pimc"``,
``"ismcts"``), a bot factory (a callable taking a seed and returning a bot, as
:class:`~cardrules.bots.RandomBot` is), or a sequence of those, one for each
other seat in seat order. Every bot's seed is drawn from one seed, so a seeded
episode repeats.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from cardrules.bots import BOTS, Bot, make_bot

__all__ = ["Opponents", "check_opponents", "opponent_bots"]

#: What ``opponents`` may be: a bot's name, a factory, or one of those per other seat.
Opponents = str | Callable[[int], Any] | Sequence[str | Callable[[int], Any]]


def _one(spec: object, seed: int) -> Bot:
    if isinstance(spec, str):
        return make_bot(spec, seed)
    if callable(spec):
        bot = spec(seed)
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(
                f"the opponent factory {spec!r} gave {bot!r}, which has no choose(view)"
            )
        return bot  # type: ignore[no-any-return]
    raise TypeError(
        f"an opponent is a bot's name ({', '.join(sorted(BOTS))}) or a factory "
        f"taking a seed, got {type(spec).__name__}"
    )


def check_opponents(spec: object, players: int) -> None:
    """Refuse a bad ``opponents`` argument early (before any game).

    Raises:
        ValueError: an unknown bot name, or a sequence of the wrong length.
        TypeError: anything else that is not a name or a factory.
    """
    specs = _specs(spec, players)
    for s in specs:
        if isinstance(s, str):
            if s.strip().lower() not in BOTS:
                raise ValueError(f"unknown bot {s!r}: choose from {', '.join(sorted(BOTS))}")
        elif not callable(s):
            _one(s, 0)  # raises the TypeError


def _specs(spec: object, players: int) -> list[object]:
    if isinstance(spec, str) or callable(spec):
        return [spec] * (players - 1)
    if isinstance(spec, Sequence):
        if len(spec) != players - 1:
            raise ValueError(
                f"opponents needs one bot for each of the {players - 1} other seats, "
                f"got {len(spec)}"
            )
        return list(spec)
    raise TypeError(
        f"opponents must be a bot's name, a factory or a sequence of them, "
        f"got {type(spec).__name__}"
    )


def opponent_bots(spec: object, players: int, seat: int, seed: int) -> list[Bot | None]:
    """One bot for each seat but ``seat`` (``None`` there), seeded from ``seed``.

    Args:
        spec: the ``opponents`` argument (see the module).
        players: the number of seats.
        seat: the seat left to the agent.
        seed: the seed every bot's own seed is drawn from.

    Returns:
        A list as long as the seats.

    Raises:
        ValueError: an unknown bot name, or a sequence of the wrong length.
        TypeError: anything else that is not a name or a factory.

    Example:
        >>> bots = opponent_bots("random", 3, 1, seed=5)
        >>> [type(b).__name__ for b in bots]
        ['RandomBot', 'NoneType', 'RandomBot']
    """
    specs = _specs(spec, players)
    rng = random.Random(seed)
    out: list[Bot | None] = []
    others = iter(specs)
    for s in range(players):
        out.append(None if s == seat else _one(next(others), rng.getrandbits(63)))
    return out
