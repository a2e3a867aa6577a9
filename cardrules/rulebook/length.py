"""How long a game lasts, as a person tells it: a game that ends at a target says
"until someone reaches 100", never the hands bound that only guards against an
endless game.

A variant file gives every game a number of hands. In a game that ends at a
target (``target:``) whose hands are all the same size (``hands: 200 hands of the
same size``), that number is not a rule anyone plays by: it only stops a game
that would otherwise never end (Hearts' twenty hands cannot even be reached, as
every hand hands out 26 points). The pages, the comparison table and the
terminal's status line say "until someone reaches 100" for such a game, and
never print the bound as the game's length. The decision reads the variant's
settings only, never its name.

Example:
    >>> import cardrules
    >>> length_is_a_guard(cardrules.load("hearts")), target_words(cardrules.load("hearts"))
    (True, 'until someone reaches 100 points')
    >>> length_is_a_guard(cardrules.load("kachuful"))
    False
"""

from __future__ import annotations

from cardrules.rules import Mode, Pattern, Variant

__all__ = ["length_is_a_guard", "play_to", "status_length", "target_words"]


def length_is_a_guard(v: Variant) -> bool:
    """True when the game's number of hands only guards against an endless game.

    That is a game that ends at a target, knocks nobody out, and deals hands all
    of the same size: its schedule says nothing a player needs, so the target is
    the game's length.

    Args:
        v: the variant.

    Returns:
        Whether the number of hands must not be presented as the game's length.
    """
    return (
        v.mode is not Mode.SHEDDING
        and v.winning.target is not None
        and not v.winning.knockout_below
        and v.schedule.pattern is Pattern.SAME
    )


def _points(n: int) -> str:
    word = "point" if abs(n) == 1 else "points"
    return f"{n} {word}" if n >= 0 else f"minus {-n} {word}"


def target_words(v: Variant) -> str:
    """How a target game ends, in a few words: ``"until someone reaches 100 points"``.

    Args:
        v: a variant with a target (``v.winning.target`` is set).

    Returns:
        The phrase, naming a side for a partnership game, the declarer for a
        target reached by the declarer only, and the floor of ``lose at:``.
    """
    target = v.winning.target
    assert target is not None, "target_words needs a game with a target"
    who = "a side" if v.teams else "someone"
    text = f"until {who} reaches {_points(target)}"
    if v.winning.target_by_declarer:
        text = f"until the declarer reaches {_points(target)}"
    if v.winning.lose_at is not None:
        text += f" (or {who} falls to {_points(v.winning.lose_at)})"
    return text


def play_to(v: Variant) -> int | None:
    """The target a terminal names after the hand number ("play to 100"), or ``None``
    for a game whose number of hands is its length.

    Example:
        >>> import cardrules
        >>> play_to(cardrules.load("spades")), play_to(cardrules.load("oh-hell"))
        (500, None)
    """
    return v.winning.target if length_is_a_guard(v) else None


def status_length(v: Variant, hand_number: int, hands: int) -> str:
    """The game's length after "Hand 3" on the terminal's status line.

    Args:
        v: the variant.
        hand_number: the hand being played (from 1).
        hands: the number of hands the schedule has for this table.

    Returns:
        ``" · play to 100"`` for a game whose number of hands is only a guard,
        ``" of 19"`` for a game of a fixed number of hands, ``" (tie-break)"`` for
        a hand played after the schedule.

    Example:
        >>> import cardrules
        >>> status_length(cardrules.load("hearts"), 3, 20)
        ' · play to 100'
        >>> status_length(cardrules.load("kachuful"), 3, 19)
        ' of 19'
    """
    if length_is_a_guard(v):
        return f" · play to {v.winning.target}"
    if hand_number > hands:
        return " (tie-break)"
    return f" of {hands}"
