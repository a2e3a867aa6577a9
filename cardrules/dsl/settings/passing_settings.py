"""The setting of passing cards before the play: ``pass``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token

from cardrules.errors import VariantError
from cardrules.rules import PassRule, PassTo, Variant

from .. import limits
from .declaration import SettingSpec
from .effect_checks import Context, NoOp, hands_text, schedule_length
from .statement import Setting, StatementBuilder

__all__ = ["PASSING"]


def _pass(v: Variant) -> str:
    """``3 cards left, right, across, none``, or ``none`` (nobody passes)."""
    p = v.passing
    if p.count == 0 and not p.cycle:
        return "none"
    if (
        type(p.count) is not int
        or not 1 <= p.count <= limits.MAX_PASS_CARDS
        or not p.cycle
        or len(p.cycle) > limits.MAX_LIST_ITEMS
        or not all(isinstance(to, PassTo) for to in p.cycle)
        or all(to is PassTo.NONE for to in p.cycle)
    ):
        raise VariantError(
            f"the pass must be 1 to {limits.MAX_PASS_CARDS} cards with a cycle of "
            "directions (left, right, across, none) that is not all none"
        )
    cards = "card" if p.count == 1 else "cards"
    return f"{p.count} {cards} " + ", ".join(to.value for to in p.cycle)


def _check_pass(c: Context) -> Iterator[NoOp]:
    v = c.v
    ps = v.passing
    if not ps.count or not ps.cycle:
        return  # `pass: none` says what happens anyway
    extra = v.winning.extra_hand_limit if c.tricks else 0
    reached = max(schedule_length(v.schedule, n, v.deck.size) + extra for n in v.players.counts())
    if all(ps.to(h) is PassTo.NONE for h in range(1, min(reached, len(ps.cycle)) + 1)):
        yield NoOp(
            "pass",
            f"nobody ever passes: the game has {hands_text(reached)} and the pass cycle "
            f"passes in none of {'it' if reached == 1 else 'them'}",
            ("hands",),
            hint="start the cycle with a direction, or delete the line",
        )


# --------------------------------------------------------------------------- the parse


def _parse_passing(b: StatementBuilder, c: list[Any]) -> Setting:
    if not isinstance(c[2], Token) or c[2].type == "V_NONE":
        return b.setting(c, ("passing.count", 0), ("passing.cycle", ()))
    count = b.number(c[2], 1, limits.MAX_PASS_CARDS, "the cards passed")
    items = [x for x in c[3:] if isinstance(x, tuple)]
    if len(items) > limits.MAX_LIST_ITEMS:
        raise b.error(items[-1][0], "the cycle of passes is too long")
    cycle = tuple(to for _, to in items)
    if all(to is PassTo.NONE for to in cycle):
        raise b.error(
            items[0][0],
            "every hand of this cycle has no pass",
            expected="a direction: left, right or across (or `pass: none`)",
        )
    return b.setting(c, ("passing.count", count), ("passing.cycle", cycle))


#: The passing settings.
PASSING: Final = (
    SettingSpec(
        "pass",
        "K_PASS",
        "passing",
        ("passing.count", "passing.cycle"),
        parse=_parse_passing,
        samples=(
            "pass: 3 cards left, right, across, none",
            "pass: 1 card right",
            "pass: none",
        ),
        render=_pass,
        written=lambda v: v.passing.count != 0 or bool(v.passing.cycle),
        where="every game that reaches a hand whose entry of the cycle is a direction",
        check=_check_pass,
        page_rule="Passing cards",
        old_saves={"passing": PassRule()},
    ),
)
