"""The scoring section of a game whose file names the cases of its score
(``case "made": ...``): a table of the cases in the game's own words, each with
a worked number where its example gives one, and the literal formula folded
underneath (a collapsible ``??? note``, for those who want it).

The worked number of a case is the score its example's hand gets by the file's
own formulas (:func:`case_score`): the seat's ``score:`` formula and, when there
is one, its side's ``team score:`` formula, a partner scoring nothing of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Final

from cardrules.cards import Suit
from cardrules.errors import CardrulesError
from cardrules.rulebook.numbers import format_points
from cardrules.rulebook.play_examples import seat_names
from cardrules.rulebook.safe import md_text
from cardrules.rulebook.team_words import counters_lines, teams_phrase
from cardrules.rulebook.words import card_points_phrase, end_phrase, plural, scoring_phrase
from cardrules.rules import ScoreCase, Variant
from cardrules.score_cases import example_env
from cardrules.scoring import Value, score_env

__all__ = ["case_score", "example_words", "scoring_cases_lines"]

#: How an example's value reads, for each variable it may give (the counters:
#: "8 bags before the hand").
_WORDS: Final[Mapping[str, str]] = {
    "bid": "bid {n}",
    "tricks": "took {tricks}",
    "team_bid": "the side bid {n}",
    "team_tricks": "the side took {tricks}",
    "points": "took {points}",
    "all_points": "{points} in the hand",
    "most_points": "no player more than {points}",
    "team_points": "the side took {points}",
    "maker_tricks": "the makers took {tricks}",
    "cards": "{n} cards each",
    "hand": "hand {n}",
    "players": "{n} players",
    "bid_level": "a contract of {n}",
}
_FLAGS: Final[Mapping[str, tuple[str, str]]] = {
    "blind": ("bid blind", "bid after looking"),
    "maker": ("your side made trumps", "the other side made trumps"),
    "alone": ("the maker went alone", "the maker played with a partner"),
    "defended_alone": ("defended alone", "defended with a partner"),
    "no_trumps": ("no trumps", "with trumps"),
    "downtown": ("downtown", "uptown"),
    "misere": ("a misère", "not a misère"),
    "open_misere": ("an open misère", "not an open misère"),
}
#: The words that differ without teams: one declarer, no sides.
_ALONE_FLAGS: Final[Mapping[str, tuple[str, str]]] = {
    "maker": ("you are the declarer", "another player is the declarer"),
}
_ALONE_WORDS: Final[Mapping[str, str]] = {"maker_tricks": "the declarer took {tricks}"}


def _strain_words(strains: Sequence[int], place: int) -> str:
    """``in hearts`` for the strain at ``place`` of the file's list of strains."""
    if not 0 <= place < len(strains):
        return "no strain"
    strain = strains[place]
    return "in no trumps" if strain >= len(Suit) else f"in {Suit(strain).name.lower()}"


def _answer_words(question: str, value: int | bool) -> str:
    """An example's answer to a question about the cards taken, in words:
    ``took J♦``, ``did not take J♦``, ``someone took all hearts and Q♠``,
    ``nobody took all hearts and Q♠``, ``points of J♦: -10``."""
    if not isinstance(value, bool):
        return f"{question}: {value}"
    if question.startswith("anyone took ") and value:
        return "someone took " + question.removeprefix("anyone took ")
    if value:
        return question
    if question.startswith("anyone took "):
        return "nobody took " + question.removeprefix("anyone took ")
    return "did not take " + question.removeprefix("took ")


def example_words(case: ScoreCase, strains: Sequence[int] = (), *, teams: bool = True) -> str:
    """A case's example hand in words: ``bid 2, took 4 tricks; the side bid 5``
    (``strains``: the file's strains of contract bids, for ``bid_strain``;
    ``teams``: whether the game has sides, else a declarer plays alone)."""
    flags = _FLAGS if teams else {**_FLAGS, **_ALONE_FLAGS}
    words = _WORDS if teams else {**_WORDS, **_ALONE_WORDS}
    given = dict(case.example)
    parts: list[str] = []
    for name, value in case.example:
        if name == "misere" and given.get("open_misere") is True:
            continue  # "an open misère" says it
        if name == "bid_strain" and not isinstance(value, bool):
            parts.append(_strain_words(strains, value))
        elif " " in name:  # a question about the cards taken: "took J♦"
            parts.append(_answer_words(name, value))
        elif isinstance(value, bool):
            yes, no = flags.get(name, (name, f"not {name}"))
            parts.append(yes if value else no)
        elif name in words:
            parts.append(
                words[name].format(
                    n=value,
                    tricks=plural(value, "trick"),
                    points=plural(value, "point"),
                )
            )
        else:  # a counter
            parts.append(f"{value} {name} before the hand")
    return ", ".join(parts)


def case_score(v: Variant, case: ScoreCase, players: int) -> Fraction | None:
    """The points of ``case``'s example hand by ``v``'s formulas (a partner
    scoring nothing of their own), or ``None`` when the case has no example, its
    condition does not hold for it at this table, or the formulas cannot give it."""
    if not case.example:
        return None
    counters = tuple(c.name for c in v.scoring.counters)
    cards = max(v.hand_sizes(players), default=1)
    asked = [q for f in (v.scoring.formula, v.scoring.team_formula) if f for q in f.questions()]
    own = example_env(case, cards=cards, players=players, counters=counters, questions=asked)
    try:
        if not case.when.evaluate(own):
            return None
        return _points(v, own, counters)
    except CardrulesError:
        return None


def _points(v: Variant, own: Mapping[str, Value], counters: Sequence[str]) -> Fraction:
    """A seat's points for a hand with the variables ``own``, by ``v``'s formulas."""
    f = v.scoring.formula
    sides = bool(v.teams) or v.scoring.team_formula is not None or bool(counters)
    total = Fraction(0)
    if f is not None:
        total += f.evaluate(own)
    elif not sides:
        total += 10 + int(own["bid"]) if own["exact"] else 0
    if v.scoring.team_formula is not None:
        side = score_env(
            bid=int(own["team_bid"]),
            tricks=int(own["team_tricks"]),
            cards=int(own["cards"]),
            hand=int(own["hand"]),
            players=int(own["players"]),
            blind=bool(own["blind"]),
            points=int(own["team_points"]),
            all_points=int(own["all_points"]),
            most_points=int(own["most_points"]),
            counters={c: int(own[c]) for c in counters},
            maker=bool(own["maker"]),
            maker_tricks=int(own["maker_tricks"]),
            alone=bool(own["alone"]),
            defended_alone=bool(own["defended_alone"]),
            contract=(
                int(own["bid_level"]),
                bool(own["downtown"]),
                bool(own["no_trumps"]),
                bool(own["misere"]),
                int(own["bid_strain"]),
                bool(own["open_misere"]),
            ),
        )
        # The team's answers about the cards taken: the seat's own (a partner
        # taking nothing of its own).
        side.update({k: val for k, val in own.items() if k not in side})
        total += v.scoring.team_formula.evaluate(side)
    return total


def _cell(text: str) -> str:
    """Text for a cell of a Markdown table."""
    return md_text(text).replace("|", "\\|")


def _table(v: Variant, players: int) -> list[str]:
    whose = "your side scores" if v.teams else "you score"
    rows = ["| Case | What it means | For example |", "| --- | --- | --- |"]
    for case in v.cases:
        points = case_score(v, case, players)
        example = (
            ""
            if points is None
            else f"{example_words(case, v.bidding.strains, teams=bool(v.teams))}; "
            f"{whose} {format_points(points)}"
        )
        rows.append(f"| **{_cell(case.label)}** | {_cell(case.means)} | {_cell(example)} |")
    return rows


def _fold(lines: Sequence[str]) -> list[str]:
    """``lines`` folded under a collapsible note titled "The formula"."""
    out = ['??? note cr-formula "The formula"', ""]
    for line in lines:
        out.append(f"    {line}" if line else "")
    return [*out, ""]


def scoring_cases_lines(v: Variant, players: int, tables: Sequence[str] = ()) -> list[str]:
    """The scoring section's body for a game whose file names cases (without
    its heading): who scores together, what the cards are worth, the table of
    cases, the counts kept, the end of the game, ``tables`` (the page's tables
    of points, each under its own heading), then the formula folded."""
    out: list[str] = []
    if v.teams:
        out += [teams_phrase(v, seat_names(v.players.min)), ""]
    points = card_points_phrase(v)
    if points:
        out += [points, ""]
    per = "side" if v.teams else "player"
    out += [
        f"After each hand, each {per} scores by the cases below (the worked numbers "
        f"are for {plural(players, 'player')}).",
        "",
        *_table(v, players),
        "",
    ]
    if v.scoring.counters:
        whose = "each side" if v.teams else "each player"
        names = ", ".join(f"**{md_text(c.name)}**" for c in v.scoring.counters)
        out += [
            f"The score sheet keeps a running count of {names} for {whose}, from 0, "
            "as the cases above say.",
            "",
        ]
    out += [end_phrase(v), "", *tables]
    formula = [scoring_phrase(v).replace("everyone scores", "each player scores")]
    counts = counters_lines(v, clamp=False)
    if counts:
        formula += ["", *counts]
    return out + _fold(formula)
