"""What every environment adapter resolves first: the rules and the number of seats.

:class:`cardrules.gymnasium.CardrulesEnv` and :class:`cardrules.pettingzoo.CardrulesEnv`
take the same ``variant`` and ``players`` arguments and read them the same way,
here: a built-in's name or a path is loaded, anything but a
:class:`~cardrules.rules.Variant` is refused, and ``players=None`` means 4 where
the game allows 4 players, else its fewest.

Example:
    >>> from cardrules.env_setup import resolve_table
    >>> variant, players, layout = resolve_table("oh-hell", None)
    >>> variant.name, players, layout[0].name
    ('oh-hell', 4, 'hand')
"""

from __future__ import annotations

from cardrules.dsl import load
from cardrules.engine.views.observation_vector import ObservationSlice, observation_layout
from cardrules.rules import Variant

__all__ = ["default_players", "resolve_table"]


def default_players(variant: Variant) -> int:
    """The seats of an environment built without ``players``: 4 where the
    game allows 4 players, else its fewest.

    Args:
        variant: the rules.

    Returns:
        The number of seats.
    """
    low, high = variant.players.min, variant.players.max
    return 4 if low <= 4 <= high else low


def resolve_table(
    variant: object, players: int | None
) -> tuple[Variant, int, tuple[ObservationSlice, ...]]:
    """The rules, the number of seats and the observation layout of an environment.

    Args:
        variant: a built-in's name, a path to a ``.cardrules`` file or a
            :class:`~cardrules.rules.Variant`.
        players: the number of seats, or ``None`` for :func:`default_players`.

    Returns:
        ``(variant, players, layout)``, the layout being
        :func:`cardrules.observation_layout`'s for these rules and seats.

    Raises:
        TypeError: if ``variant`` is neither a name, a path nor a Variant.
        VariantError: if the variant cannot be loaded or is not for ``players``.
    """
    if isinstance(variant, str):
        variant = load(variant)
    if not isinstance(variant, Variant):
        raise TypeError(
            f"variant must be a built-in's name, a path or a Variant, got {type(variant).__name__}"
        )
    if players is None:
        players = default_players(variant)
    layout = observation_layout(variant, players)  # checks players
    return variant, players, layout
