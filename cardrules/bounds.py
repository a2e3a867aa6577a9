"""The bounds of observation vectors, for the learning environments' spaces.

:func:`observation_bounds` gives the lowest and highest value of each place of
:meth:`Game.observation <cardrules.engine.game.Game.observation>`, from its
layout (:func:`cardrules.observation_layout`): the ``Box`` bounds of
:mod:`cardrules.pettingzoo` and :mod:`cardrules.gymnasium`. It needs no extra.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import lru_cache

from cardrules.engine.views.observation_vector import ObservationSlice

__all__ = ["float32_packer", "observation_bounds"]


@lru_cache(maxsize=64)
def float32_packer(size: int) -> Callable[..., bytes]:
    """``struct.Struct(f"{size}f").pack``: ``size`` floats to their C float32
    bytes, which ``numpy.frombuffer(..., numpy.float32)`` reads about twice as
    fast as ``numpy.asarray`` converts a list of Python floats. Kept here by
    size (a ``Struct`` does not pickle, so environments keep the size).

    Example:
        >>> float32_packer(2)(1.0, 0.5)
        b'\\x00\\x00\\x80?\\x00\\x00\\x00?'
    """
    return struct.Struct(f"{size}f").pack


#: The slices of :func:`~cardrules.observation_layout` whose values are not in
#: [0, 1]: the running totals, which have no bound (a total over the target
#: score, or a negative one, is shown as it is). Every other slice is a one-hot,
#: a 0/1 flag or a share (a bid, tricks or a hand size over the largest hand,
#: cards over the pack size), all in [0, 1].
_UNBOUNDED = frozenset({"scores"})

#: Every slice name the layouts have today and is known to lie in [0, 1]; a
#: slice not named here or in ``_UNBOUNDED`` gets no bounds, so a new slice can
#: never make an observation fall outside its space.
_UNIT = frozenset(
    {
        "alone",
        "bid_made",
        "bids",
        "blind",
        "dead",
        "dead_count",
        "dealer",
        "defender_alone",
        "discarded",
        "downtown",
        "hand",
        "hand_counts",
        "hand_seen",
        "hand_size",
        "knocked_out",
        "known",
        "leader",
        "maker",
        "out",
        "pass_to",
        "passed",
        "phase",
        "played",
        "received",
        "teams",
        "to_act",
        "trick",
        "tricks",
        "trump",
        "trumps_broken",
        "turned",
    }
)


def observation_bounds(
    layout: tuple[ObservationSlice, ...],
) -> tuple[list[float], list[float]]:
    """The lowest and highest value of each place of an observation vector.

    A slice of ``[0, 1]`` values (one-hots, flags, shares of the largest hand
    or of the pack) gets ``[0, 1]``; the running totals (``scores``) and any
    slice this module does not know get ``(-inf, inf)``.

    Args:
        layout: the slices, as :func:`cardrules.observation_layout` gives them.

    Returns:
        ``(low, high)``, two lists as long as the vector.

    Example:
        >>> import cardrules
        >>> layout = cardrules.observation_layout(cardrules.load("oh-hell"), 4)
        >>> low, high = observation_bounds(layout)
        >>> len(low) == layout[-1].stop, low[0], high[0], low[-1], high[-1]
        (True, 0.0, 1.0, -inf, inf)
    """
    low: list[float] = []
    high: list[float] = []
    for s in layout:
        width = s.stop - s.start
        if s.name in _UNIT:
            low += [0.0] * width
            high += [1.0] * width
        else:
            low += [-float("inf")] * width
            high += [float("inf")] * width
    return low, high
