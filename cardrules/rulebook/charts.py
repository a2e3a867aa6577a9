"""The chart of a game's deal schedule: cards each in every hand, and its trumps.

:func:`schedule_chart` draws one bar per hand, as tall as the number of cards
each player is dealt, with the number on top, the hand number below and, under
that, a sign for the hand's trumps (the suit, a face-down card for the
turned-up card, a crossed circle for no trumps, a question mark for trumps
chosen at the table). A run of identical hands (Spades' 13 cards with spades
trumps, hand after hand) is one wide bar saying which hands it covers, so a
schedule of 200 hands still fits a phone. The sizes and the trumps are those
of :func:`cardrules.rulebook.page_tables.schedule_rows`, the rows of the schedule
table, worked out from the rule the engine deals by; the page keeps that table
as text under the chart.

Like :mod:`cardrules.rulebook.svg_cards`, everything here is a pure function
returning SVG (or HTML) text: the same schedule always gives the same text.

Examples:
    >>> svg = chart_svg([(1, 3, "spades ♠"), (2, 2, "no trumps"), (3, 1, "hearts ♥")],
    ...                 "Cards each")
    >>> svg.count('class="cr-bar"'), 'data-cards="3"' in svg
    (3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardrules.cards import Suit
from cardrules.rulebook.hand_trumps import NO_TRUMPS_LABEL, TURN_UP_LABEL
from cardrules.rulebook.svg_cards import FONT, esc, suit_path
from cardrules.rules import Mode, Variant

__all__ = [
    "Bar",
    "bars",
    "chart_svg",
    "legend_html",
    "schedule_chart",
    "schedule_groups",
    "trump_sign",
]

#: The width of the plotting area, in ``viewBox`` units.
PLOT_W = 400
#: The height of the tallest bar.
PLOT_H = 110
#: The most bars a chart draws, and the most charts a page shows: a schedule that
#: needs more (a house rule's, say) keeps its table alone.
MOST_BARS = 80
MOST_CHARTS = 6
#: A run of at least this many identical hands is drawn as one bar.
RUN = 4
#: Pixels per ``viewBox`` unit on a wide screen (a narrow one scales the chart down).
ZOOM = 1.4
#: The bar colour.
BAR = "#2e7d32"


@dataclass(frozen=True)
class Bar:
    """One bar of the chart: hands ``first`` to ``last`` (from 1), each of ``cards``
    cards each, with trumps ``trumps`` (a label of :mod:`cardrules.rulebook.hand_trumps`)."""

    first: int
    last: int
    cards: int
    trumps: str

    @property
    def hands(self) -> str:
        """``"7"`` or ``"1–200"``."""
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def bars(hands: Sequence[tuple[int, int, str]]) -> list[Bar]:
    """The bars for ``(hand, cards each, trumps)`` rows: runs of :data:`RUN` or more equal
    consecutive hands become one bar.

    Examples:
        >>> [b.hands for b in bars([(h, 13, "no trumps") for h in range(1, 9)])]
        ['1–8']
        >>> [b.hands for b in bars([(1, 2, "x"), (2, 1, "x"), (3, 2, "x")])]
        ['1', '2', '3']
    """
    out: list[Bar] = []
    i = 0
    while i < len(hands):
        j = i
        while j + 1 < len(hands) and hands[j + 1][1:] == hands[i][1:]:
            j += 1
        if j - i + 1 >= RUN:
            out.append(Bar(hands[i][0], hands[j][0], hands[i][1], hands[i][2]))
        else:
            out += [Bar(h, h, c, t) for h, c, t in hands[i : j + 1]]
        i = j + 1
    return out


def _suit_of(label: str) -> Suit | None:
    for s in Suit:
        if label == f"{s.word} {s.symbol}":
            return s
    return None


def trump_sign(label: str, x: float, y: float, size: float) -> str:
    """The sign of a trumps label as SVG, ``size`` units square at (``x``, ``y``).

    A suit is its sign in its colour; the turned-up card a small face-down card; no
    trumps a crossed circle; anything else (trumps chosen at the table) a question
    mark in a circle.

    Examples:
        >>> 'data-suit="hearts"' in trump_sign("hearts ♥", 0, 0, 10)
        True
        >>> 'data-sign="no trumps"' in trump_sign("no trumps", 0, 0, 10)
        True
    """
    suit = _suit_of(label)
    if suit is not None:
        return suit_path(suit, x, y, size)
    k = size / 10
    sign = esc(label)
    if label == TURN_UP_LABEL:
        return (
            f'<g data-sign="{sign}"><rect x="{x + 2 * k:.2f}" y="{y:.2f}" width="{6 * k:.2f}" '
            f'height="{10 * k:.2f}" rx="{k:.2f}" fill="#1e5aa8" stroke="#8fb3e3" '
            f'stroke-width="{0.6 * k:.2f}"/></g>'
        )
    cx, cy, r = x + 5 * k, y + 5 * k, 4.2 * k
    if label == NO_TRUMPS_LABEL:
        return (
            f'<g data-sign="{sign}" fill="none" stroke="#616161" stroke-width="{1.3 * k:.2f}">'
            f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:.2f}"/>'
            f'<path d="M{cx - 3 * k:.2f} {cy + 3 * k:.2f}L{cx + 3 * k:.2f} {cy - 3 * k:.2f}"/></g>'
        )
    return (
        f'<g data-sign="{sign}"><circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:.2f}" fill="none" '
        f'stroke="#6a1b9a" stroke-width="{k:.2f}"/><text x="{cx:.2f}" y="{cy + 2.6 * k:.2f}" '
        f'font-family="{FONT}" font-size="{7.5 * k:.2f}" font-weight="700" fill="#6a1b9a" '
        'text-anchor="middle">?</text></g>'
    )


def _trumps_words(label: str) -> str:
    suit = _suit_of(label)
    if suit is not None:
        return f"{suit.word} trumps"
    if label == NO_TRUMPS_LABEL:
        return "no trumps"
    return f"trumps: {label}"


@dataclass(frozen=True)
class _Frame:
    """Where a chart draws: the width of one hand's slot, the top size (the axis's
    highest number), the left edge of the bars and the base line, the size of a trump
    sign, and how often a single hand's number is written under its bar."""

    slot: float
    top: int
    left: float
    base: float
    sign: float
    every: int


def _axis_svg(frame: _Frame, width: float) -> list[str]:
    """The axis: a line at 0 and at the top size (and half way up), with their numbers."""
    left, base, top = frame.left, frame.base, frame.top
    out = []
    for value in sorted({0, top, *((top // 2,) if top >= 4 else ())}):
        y = base - PLOT_H * value / top
        out.append(
            f'<path d="M{left - 3:.2f} {y:.2f}H{width - 2:.2f}" stroke="#9e9e9e" '
            f'stroke-width="{1 if value == 0 else 0.5}" fill="none"/>'
            f'<text x="{left - 5:.2f}" y="{y + 3.5:.2f}" font-family="{FONT}" font-size="10" '
            f'text-anchor="end" fill="currentColor">{value}</text>'
        )
    return out


def _bar_svg(frame: _Frame, b: Bar, x: float, w: float, last: bool) -> list[str]:
    """One bar at ``x``, ``w`` wide: the bar, its size above it, its hands below (when
    written) and its trump sign."""
    slot, base = frame.slot, frame.base
    h = PLOT_H * b.cards / frame.top
    y = base - h
    out = [
        f'<rect class="cr-bar" data-hands="{b.hands}" data-cards="{b.cards}" '
        f'data-trumps="{esc(b.trumps)}" x="{x + 1.5:.2f}" y="{y:.2f}" '
        f'width="{w - 3:.2f}" height="{h:.2f}" rx="1.5" fill="{BAR}"/>'
    ]
    size = 10 if slot >= 14 or b.first != b.last else (8 if b.cards < 10 else 6.5)
    out.append(
        f'<text x="{x + w / 2:.2f}" y="{y - 3:.2f}" font-family="{FONT}" font-size="{size}" '
        f'text-anchor="middle" fill="currentColor">{b.cards}</text>'
    )
    if b.first != b.last or b.first % frame.every == 0 or b.first == 1 or last:
        out.append(
            f'<text x="{x + w / 2:.2f}" y="{base + 12:.2f}" font-family="{FONT}" '
            f'font-size="{9 if len(b.hands) > 2 else 10}" text-anchor="middle" '
            f'fill="#616161">{b.hands}</text>'
        )
    out.append(trump_sign(b.trumps, x + (w - frame.sign) / 2, base + 16, frame.sign))
    return out


def _bar_words(b: Bar) -> str:
    """One bar in words, for the chart's alt text."""
    many = f"hands {b.first} to {b.last}" if b.first != b.last else f"hand {b.first}"
    cards = "1 card" if b.cards == 1 else f"{b.cards} cards"
    return f"{many}: {cards} each, {_trumps_words(b.trumps)}"


def chart_svg(hands: Sequence[tuple[int, int, str]], title: str) -> str:
    """The bar chart of a deal schedule.

    Args:
        hands: ``(hand number, cards each, trumps label)`` for every hand, in order.
        title: what the chart shows, for its alt text (the hands are listed after it).

    Returns:
        One ``<svg>`` element; each bar is a ``<rect class="cr-bar">`` with
        ``data-hands``, ``data-cards`` and ``data-trumps`` attributes.
    """
    bs = bars(hands)
    slots = sum(2 if b.first != b.last else 1 for b in bs) or 1
    slot = min(26.0, max(9.0, PLOT_W / slots))
    left, head = 26.0, 14.0
    frame = _Frame(
        slot=slot,
        top=max((b.cards for b in bs), default=1) or 1,
        left=left,
        base=head + PLOT_H,
        sign=min(12.0, slot - 2),
        every=1 if slot >= 14 else 5,
    )
    width = left + slot * slots + 4
    height = frame.base + 16 + frame.sign + 6
    out = _axis_svg(frame, width)
    x = left
    for b in bs:
        w = slot * (2 if b.first != b.last else 1)
        out += _bar_svg(frame, b, x, w, b is bs[-1])
        x += w
    alt = f"{title}. " + "; ".join(_bar_words(b) for b in bs) + "."
    t = esc(alt)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cr-chart" role="img" '
        f'aria-label="{t}" viewBox="0 0 {width:.2f} {height:.2f}" '
        f'width="{width * ZOOM:.2f}" height="{height * ZOOM:.2f}"><title>{t}</title>'
        f"{''.join(out)}</svg>"
    )


def legend_html(labels: Sequence[str]) -> str:
    """A key to the trump signs of a chart: one small sign and its words per label.

    Examples:
        >>> "no trumps" in legend_html(["no trumps"])
        True
    """
    items = []
    for label in dict.fromkeys(labels):
        icon = (
            '<svg xmlns="http://www.w3.org/2000/svg" class="cr-key-sign" viewBox="0 0 12 12" '
            f'width="12" height="12" aria-hidden="true">{trump_sign(label, 1, 1, 10)}</svg>'
        )
        items.append(f'<span class="cr-key">{icon} {esc(_trumps_words(label))}</span>')
    return " ".join(items)


def schedule_groups(
    v: Variant, counts: Sequence[int]
) -> list[tuple[tuple[int, ...], list[tuple[int, int, str]]]]:
    """The player counts that share a schedule (the same cards and trumps in every hand),
    each with its ``(hand, cards each, trumps)`` rows, from the schedule table's rows."""
    from cardrules.rulebook.page_tables import schedule_rows

    rows = schedule_rows(v, counts)
    groups: dict[tuple[tuple[int, int, str], ...], list[int]] = {}
    for n in counts:
        key = tuple((r.hand, r.cards[n], r.trumps_for(n)) for r in rows if n in r.cards)
        groups.setdefault(key, []).append(n)
    return [(tuple(ns), list(key)) for key, ns in groups.items()]


def _counts_words(ns: Sequence[int]) -> str:
    from cardrules.rulebook.words import counts_phrase

    return counts_phrase(list(ns))


def schedule_chart(v: Variant, counts: Sequence[int]) -> list[str]:
    """The schedule chart(s) of a trick-taking game as Markdown lines (HTML blocks): one
    chart per group of player counts with the same schedule (those after the first folded
    under a ``<details>``: most readers play at the usual count); empty for a shedding game or
    an empty schedule, and for a schedule too long to draw (more than :data:`MOST_BARS`
    bars, or :data:`MOST_CHARTS` charts)."""
    from cardrules.rulebook.length import length_is_a_guard
    from cardrules.rulebook.svg_cards import figure

    if v.mode is Mode.SHEDDING or not counts or length_is_a_guard(v):
        return []  # a game played to a target: its number of hands is no rule to draw
    groups = [(ns, hs) for ns, hs in schedule_groups(v, counts) if hs]
    if (
        not groups
        or len(groups) > MOST_CHARTS
        or any(len(bars(hs)) > MOST_BARS for _, hs in groups)
    ):
        return []  # too many to draw legibly: the page keeps the table alone
    out = []
    for i, (ns, hs) in enumerate(groups):
        who = f" for {_counts_words(ns)}" if len(counts) > 1 else ""
        title = f"Cards each in every hand{who}"
        cap = f"{title}, and each hand's trumps."
        if i == 1:
            # The first chart is the usual table; the others are folded.
            from cardrules.rulebook.words import join_words

            words = [_counts_words(n) for n, _ in groups[1:]]
            others = join_words([words[0], *(f"for {w}" for w in words[1:])], "and")
            out += [
                '<details class="cr-more-charts" markdown="1">',
                f"<summary>The deal for {others}</summary>",
                "",
            ]
        out += [figure(chart_svg(hs, title), cap, cls="cr-figure cr-chart-figure"), ""]
    if len(groups) > 1:
        out += ["</details>", ""]
    labels = [t for _, hs in groups for _, _, t in hs]
    out += [f'<p class="cr-legend" data-search-exclude>{legend_html(labels)}</p>', ""]
    return out
