"""The rules page's words for partnerships, team scores and counters.

Everything here is worked out from the variant (``teams:``, ``team score:``,
``counter NAME:``), as the engine plays it (:mod:`cardrules.engine.phases.team_score`).
The module reads no other page module but the formula's words, so that the
words of the rules (:mod:`cardrules.rulebook.words`) can use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardrules.rulebook.formula import formula_sentence, points
from cardrules.rulebook.safe import md_text
from cardrules.rules import BidStyle, Variant
from cardrules.scoring import COUNTER_BOUND

__all__ = ["counters_lines", "team_score_phrase", "teams_phrase", "teams_short"]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def teams_short(v: Variant, names: Sequence[str] | None = None) -> str:
    """``Asha and Chitra against Ben and Dev`` (with ``names`` for the seats;
    without, ``seats 1 and 3 against seats 2 and 4``)."""
    if names is None:
        return " against ".join("seats " + _and([str(s + 1) for s in t]) for t in v.teams)
    return " against ".join(_and([names[s] for s in t]) for t in v.teams)


def teams_phrase(v: Variant, names: Sequence[str] | None = None) -> str:
    """How the partnerships play and score, or ``""`` without teams."""
    if not v.teams:
        return ""
    bids = (
        (
            " Each side makes one bid, said by its first player in turn."
            if v.bidding.one_per_team
            else (
                " Either partner may win the auction; the highest bid is the side's contract."
                if v.bidding.style is BidStyle.AUCTION
                else " Each partner bids; a side's bid is its partners' bids added up."
            )
        )
        if v.has_bidding
        else ""
    )
    return (
        f"The players play in partnerships: {teams_short(v, names)}. Partners sit apart, "
        "play their own cards and may not see each other's hand; the tricks either partner "
        "takes count for the side." + bids + " Partners score together: every point one "
        "partner scores is scored by the side, so partners' totals are always the same, "
        "and the side with the best total wins."
    )


def team_score_phrase(v: Variant, known: Mapping[str, bool] | None = None) -> str:
    """What a side (a player, without teams) scores once a hand, or ``""``;
    ``known``: variables the game fixes (see :func:`formula_sentence`)."""
    f = v.scoring.team_formula
    if f is None:
        return ""
    who = "side" if v.teams else "player"
    words = formula_sentence(f, known)
    words = words[:1].lower() + words[1:]
    bid = (
        (
            "its bid is the side's one bid, "
            if v.bidding.one_per_team
            else "its bid is the partners' bids added up, "
        )
        if v.has_bidding and v.bidding.style is not BidStyle.AUCTION
        else ""
    )
    team = (
        f" (for this, the side counts as one player: {bid}its tricks the tricks both take)"
        if v.teams
        else ""
    )
    also = " also" if v.scoring.formula is not None else ""
    return f"After each hand, each {who}{also} scores{team}: {words}"


def counters_lines(v: Variant, *, clamp: bool = True) -> list[str]:
    """The counters kept across hands: an introduction, then one line each; or
    ``[]``. ``clamp``: say the engine's bound on a count (a page that explains
    the score in the game's words leaves it out: no game reaches it)."""
    if not v.scoring.counters:
        return []
    whose = "each side" if v.teams else "each player"
    bound = f", and kept between -{COUNTER_BOUND:,} and {COUNTER_BOUND:,}" if clamp else ""
    out = [
        f"The scorekeeper also keeps a running count for {whose}, starting at 0, "
        "written on the score sheet after each hand. The scoring above reads each count "
        "as it stood before the hand; then it is worked out anew (rounded down to a "
        f"whole number{bound}):"
    ]
    for c in v.scoring.counters:
        words = points(c.formula.expr)
        out.append(f"- **{md_text(c.name)}**: after each hand, it becomes {words}.")
    return out
