"""The tables of a rules page, computed from a :class:`~cardrules.rules.Variant`.

Each table exists twice: as data (for tests that check it against the
engine) and as Markdown (for the page). Both come from the same function, so
what is printed is what is tested.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from cardrules.cards import MISERE_STRAIN, NO_TRUMPS_STRAIN, OPEN_MISERE_STRAIN, STRAIN_WORDS
from cardrules.rulebook.hand_trumps import (
    NO_TRUMPS_LABEL,
    TURN_UP_LABEL,
    hand_trump_label,
    has_trumps,
    no_card_left,
)
from cardrules.rulebook.length import length_is_a_guard, target_words
from cardrules.rulebook.numbers import format_points
from cardrules.rulebook.safe import md_text, page_link
from cardrules.rulebook.words import (
    counts_phrase,
    follow_short,
    join_words,
    plural,
    trumps_short,
)
from cardrules.rules import Mode, TrumpKind, Variant

__all__ = [
    "NO_TRUMPS_LABEL",
    "TURN_UP_LABEL",
    "ScheduleRow",
    "comparison_table",
    "format_points",
    "hands_in_game",
    "markdown_table",
    "schedule_rows",
    "schedule_table",
    "score",
    "scoring_grid",
    "scoring_table",
    "trump_label",
]


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str = "") -> str:
    """A GitHub-style Markdown table.

    Args:
        header: the column titles.
        rows: the cells, row by row.
        align: one letter per column, ``l``, ``c`` or ``r`` (default left).
    """
    marks = {"l": ":---", "c": ":---:", "r": "---:"}
    seps = [marks.get(align[i] if i < len(align) else "l", "---") for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        # A pipe already escaped (text from a variant file, see rulebook.safe) stays one.
        return (
            "| "
            + " | ".join(re.sub(r"(?<!\\)\|", r"\\|", c).replace("\n", " ") for c in cells)
            + " |"
        )

    return "\n".join([line(header), "| " + " | ".join(seps) + " |", *(line(r) for r in rows)])


def trump_label(v: Variant, hand: int, players: int, size: int) -> str:
    """The trumps of hand ``hand`` (1-based) of ``size`` cards each for ``players`` players,
    as the schedule table shows them (see
    :func:`~cardrules.rulebook.hand_trumps.hand_trump_label`)."""
    return hand_trump_label(v, hand, players, size)


@dataclass(frozen=True)
class ScheduleRow:
    """One hand of the deal schedule.

    Attributes:
        hand: the hand number, from 1.
        trumps: what the trumps column says: one label (a suit, ``"turned-up card"``
            or ``"no trumps"``) when it is the same for every count shown, else the
            commonest label and the others with their counts (``"turned-up card; no
            trumps for 4 players"``).
        cards: players -> cards each, for every player count whose game has this hand.
        no_card: the player counts for which a turned-up-trump hand has no card to turn
            (so it is played without trumps).
        labels: players -> the trumps label of this hand for that many players.
    """

    hand: int
    trumps: str
    cards: dict[int, int]
    no_card: frozenset[int]
    labels: dict[int, str]

    def trumps_for(self, players: int) -> str:
        """The trumps label of this hand for ``players`` players."""
        return self.labels[players]


def _column_text(labels: dict[int, str]) -> str:
    if not labels:
        return ""
    groups: dict[str, list[int]] = {}
    for n, label in labels.items():
        groups.setdefault(label, []).append(n)
    if len(groups) == 1:
        return next(iter(groups))
    main = max(groups, key=lambda label: (len(groups[label]), -min(groups[label])))
    others = [f"{label} for {counts_phrase(ns)}" for label, ns in groups.items() if label != main]
    return "; ".join([main, *others])


def schedule_rows(v: Variant, counts: Sequence[int]) -> list[ScheduleRow]:
    """The deal schedule of a trick-taking game, one row per hand.

    Args:
        v: the variant.
        counts: the numbers of players to show.
    """
    sizes = {n: v.hand_sizes(n) for n in counts}
    longest = max((len(s) for s in sizes.values()), default=0)
    rows = []
    for h in range(1, longest + 1):
        cards = {n: s[h - 1] for n, s in sizes.items() if h <= len(s)}
        no_card: frozenset[int] = frozenset()
        if v.trumps.is_turn_up_hand(h) and v.trumps.kind is TrumpKind.TURN_UP:
            no_card = frozenset(n for n, c in cards.items() if no_card_left(v, n, c))
        labels = {n: hand_trump_label(v, h, n, c) for n, c in cards.items()}
        rows.append(ScheduleRow(h, _column_text(labels), cards, no_card, labels))
    return rows


def hands_in_game(v: Variant, counts: Sequence[int]) -> str:
    """``"19 (3 to 5 players), 15 (6 players), 13 (7 players)"``: grouped by equal lengths."""
    groups: list[tuple[int, int, int]] = []  # (hands, first count, last count)
    for n in counts:
        k = len(v.hand_sizes(n))
        if groups and groups[-1][0] == k and groups[-1][2] == n - 1:
            groups[-1] = (k, groups[-1][1], n)
        else:
            groups.append((k, n, n))
    if len(groups) == 1 and len(counts) > 1:
        return str(groups[0][0])
    parts = []
    for k, lo, hi in groups:
        who = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
        parts.append(f"{k} ({who})")
    return ", ".join(parts)


def schedule_table(v: Variant, counts: Sequence[int]) -> str:
    """The deal schedule as Markdown: hand, trumps and cards each per number of players."""
    if v.mode is Mode.SHEDDING or not counts:
        return whole_pack_table(v, counts)
    rows = schedule_rows(v, counts)
    one = len(counts) == 1
    # A game whose hands never have trumps gets no trumps column.
    trumps = has_trumps(v, counts)
    header = ["Hand", *(["Trumps"] if trumps else [])]
    header += ["Cards each"] if one else [f"{n} players" for n in counts]
    body = []
    for r in rows:
        cells = [str(r.hand), *([r.trumps] if trumps else [])]
        cells += [str(r.cards[n]) if n in r.cards else "—" for n in counts]
        body.append(cells)
    if length_is_a_guard(v):
        # The number of hands only guards against an endless game: never printed.
        if len({tuple(b[1:]) for b in body}) == 1:
            body = [["every hand", *body[0][1:]]]
        return markdown_table(header, body, ("rl" if trumps else "r") + "r" * len(counts))
    total = ["**Hands in a game**", *([""] if trumps else [])]
    total += [f"**{len(v.hand_sizes(n))}**" for n in counts]
    body.append(total)
    return markdown_table(header, body, ("rl" if trumps else "r") + "r" * len(counts))


def whole_pack_table(v: Variant, counts: Sequence[int]) -> str:
    """For a game that deals the whole pack: how many cards each player gets."""
    rows = []
    for n in counts:
        small, extra = divmod(v.deck.size_for(n), n)
        if extra == 0:
            rows.append([str(n), f"{small} each"])
        else:
            who = "the first player" if extra == 1 else f"the first {extra} players"
            rows.append(
                [
                    str(n),
                    f"{small + 1} for {who} after the dealer, {small} for the others",
                ]
            )
    return markdown_table(["Players", "Cards each"], rows, "rl")


def score(
    v: Variant,
    *,
    bid: int,
    tricks: int,
    cards: int,
    hand: int = 1,
    players: int = 4,
    blind: bool = False,
) -> Fraction:
    """What the variant's formula scores for one player and one hand.

    Raises:
        ValueError: if the variant has no scoring formula.
    """
    from cardrules.scoring import score_env

    f = v.scoring.formula
    if f is None:
        raise ValueError(f"{v.name} has no scoring formula")
    env = score_env(bid=bid, tricks=tricks, cards=cards, hand=hand, players=players, blind=blind)
    return f.evaluate(env)


def contract_value(v: Variant, level: int, strain: int, cards: int, players: int) -> Fraction:
    """What the variant's formula scores the declarer for the contract bid of
    ``level`` in strain number ``strain`` (``bids: ... in ...``; 5: misère) when
    it takes exactly the tricks bid (none for a misère): the contract's value.

    Raises:
        ValueError: if the variant has no scoring formula.
    """
    from cardrules.scoring import score_env

    f = v.scoring.formula if v.scoring.team_formula is None else v.scoring.team_formula
    if f is None:
        raise ValueError(f"{v.name} has no scoring formula")
    misere = strain >= MISERE_STRAIN
    tricks = 0 if misere else level
    index = -1 if misere else v.bidding.strains.index(strain)
    env = score_env(
        bid=tricks,
        tricks=tricks,
        cards=cards,
        hand=1,
        players=players,
        maker=True,
        maker_tricks=tricks,
        contract=(
            0 if misere else level,
            False,
            strain >= NO_TRUMPS_STRAIN,
            misere,
            index,
            strain == OPEN_MISERE_STRAIN,
        ),
    )
    return f.evaluate(env)


def contract_table(v: Variant, cards: int, players: int) -> str:
    """The value of every contract bid (``bids: ... in ...``), worked out from the
    score formula: one row per level, one column per strain; a misère bid, when
    the file has one, in a row of its own."""
    b = v.bidding
    top = b.max_bid if b.max_bid is not None else b.min_bid
    header = ["Tricks bid", *(STRAIN_WORDS[k] for k in b.strains)]
    rows = [
        [str(level)]
        + [format_points(contract_value(v, level, k, cards, players)) for k in b.strains]
        for level in range(b.min_bid, top + 1)
    ]
    table = markdown_table(header, rows, "l" + "r" * len(b.strains))
    if b.misere_above is not None:
        value = format_points(contract_value(v, 0, MISERE_STRAIN, cards, players))
        table += f"\n\nMisère: {value}."
    if b.open_misere_above is not None:
        value = format_points(contract_value(v, 0, OPEN_MISERE_STRAIN, cards, players))
        table += f"\n\nOpen misère: {value}."
    return table


def scoring_bids(v: Variant, cards: int) -> list[int]:
    """The bids shown in the scoring table for a hand of ``cards`` cards (``[0]`` for a game
    without bidding, whose formula does not look at bids)."""
    if not v.has_bidding:
        return [0]
    lo = v.bidding.min_bid
    hi = cards if v.bidding.max_bid is None else min(cards, v.bidding.max_bid)
    return list(range(lo, hi + 1))


def scoring_grid(
    v: Variant, cards: int = 4, players: int = 4, blind: bool = False
) -> dict[tuple[int, int], Fraction]:
    """``(bid, tricks) -> points`` for every bid the table shows and tricks 0..cards."""
    return {
        (b, t): score(v, bid=b, tricks=t, cards=cards, players=players, blind=blind)
        for b in scoring_bids(v, cards)
        for t in range(cards + 1)
    }


def scoring_table(v: Variant, cards: int = 4, players: int = 4, blind: bool = False) -> str:
    """The scoring grid as Markdown: one row per bid, one column per number of tricks
    (one row of points for a game without bidding)."""
    grid = scoring_grid(v, cards, players, blind)
    bids = scoring_bids(v, cards)
    if not v.has_bidding:
        header = ["Tricks taken →"] + [str(t) for t in range(cards + 1)]
        points = [format_points(grid[0, t]) for t in range(cards + 1)]
        return markdown_table(header, [["**Points**", *points]], "l" + "r" * (cards + 1))
    header = ["Bid ↓ / tricks taken →"] + [str(t) for t in range(cards + 1)]
    rows = []
    for b in bids:
        cells = [f"**{b}**"]
        for t in range(cards + 1):
            text = format_points(grid[b, t])
            cells.append(f"**{text}**" if b == t else text)
        rows.append(cells)
    return markdown_table(header, rows, "l" + "r" * (cards + 1))


def comparison_rows(variants: Sequence[Variant], link: str = "{name}.md") -> list[list[str]]:
    """One row per variant: name, players, trumps, schedule, hook, bidding, scoring, follow."""
    from cardrules.rulebook.words import players_phrase

    rows = []
    for v in variants:
        title = md_text(v.title or v.name)
        href = page_link(link, v.name)
        name = f"[{title}]({href})" if href is not None else title
        hook, bidding = _bidding_cells(v)
        rows.append(
            [
                name,
                players_phrase(v).replace(" players", ""),
                trumps_short(v),
                _schedule_cell(v),
                hook,
                bidding,
                _scoring_cell(v),
                follow_short(v) + "".join(f"; {x}" for x in _shedding_extras(v)),
            ]
        )
    return rows


def _schedule_cell(v: Variant) -> str:
    """The deal schedule in short, for 4 players (or the fewest allowed)."""
    if v.mode is Mode.SHEDDING:
        return "whole pack, one deal"
    counts = list(v.players.counts())
    rep = 4 if 4 in counts else counts[0]
    sizes = v.hand_sizes(rep)
    shape = v.schedule.pattern.value
    if len(set(sizes)) == 1:
        shape = f"{plural(sizes[0], 'card')} every hand"
    if length_is_a_guard(v):
        return f"{shape}, {target_words(v)}"
    return f"{shape}, {plural(len(sizes), 'hand')} ({rep} players)"


def _bidding_cells(v: Variant) -> tuple[str, str]:
    """The hook (yes, no or a dash) and the bidding in short."""
    if not v.has_bidding:
        return "—", "none"
    from cardrules.rules import BidStyle

    simultaneous = v.bidding.style is BidStyle.SIMULTANEOUS
    hook = "yes" if v.bidding.hook and not simultaneous else "no"
    extras = []
    if v.bidding.blind:
        extras.append("blind allowed")
    if v.bidding.forehead_sizes:
        extras.append(
            join_words([str(n) for n in v.bidding.forehead_sizes], "or") + "-card hands blind"
        )
    if v.bidding.amend:
        extras.append("may amend")
    return hook, ", ".join([v.bidding.style.value, *extras])


def _scoring_cell(v: Variant) -> str:
    """The scoring in short, with the knock-out rule of a knock-out game."""
    if v.mode is Mode.SHEDDING:
        scoring = "letters " + "-".join(v.match.word.upper()) if v.match.word else "one loser"
    elif v.scoring.formula is not None:
        from cardrules.rulebook.formula import formula_short
        from cardrules.rulebook.words import fixed_variables

        scoring = formula_short(v.scoring.formula, fixed_variables(v))
    else:
        scoring = "—"
    below = v.winning.knockout_below
    if v.mode is Mode.TRICKS and below:
        took = "no tricks" if below == 1 else f"under {plural(below, 'trick')}"
        ending = "; last one in wins" if v.winning.last_one_in else ""
        scoring = f"{scoring}; {took} in a hand: knocked out{ending}"
    return scoring


def _shedding_extras(v: Variant) -> list[str]:
    """The shedding rules beyond follow-and-cut that a game has, in short."""
    if v.mode is not Mode.SHEDDING:
        return []
    from cardrules.rules import LeaderOut, TakeHand

    out = []
    if not v.shedding.first_trick_cuts:
        out.append("no cut on the first trick")
    if v.play.leader_out is LeaderOut.DRAWS:
        out.append("the power (a last card that takes a dead trick draws a dead card)")
    if v.shedding.take_hand is not TakeHand.NONE:
        who = "next" if v.shedding.take_hand is TakeHand.NEXT else "previous"
        out.append(f"the leader may take the {who} player's hand")
    return out


def comparison_table(variants: Sequence[Variant], link: str = "{name}.md") -> str:
    """Every variant against the main rule dimensions, as one Markdown table.

    Args:
        variants: the variants, in the order to show them.
        link: the page of a variant, with ``{name}`` for its name.
    """
    header = [
        "Game",
        "Players",
        "Trumps",
        "Schedule",
        "Hook",
        "Bidding",
        "Scoring",
        "Follow rule",
    ]
    return markdown_table(header, comparison_rows(variants, link))
