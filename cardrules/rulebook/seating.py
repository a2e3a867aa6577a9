"""The seating circle of a rules page: who sits where, who deals, who leads, which way
play goes, the partnerships and where passed cards go.

The drawing functions (:func:`seating_svg`, :func:`passing_svg`) are pure: they
take the seats' names and the facts, and return SVG text, the same for the
same input. The facts come from the engine (:func:`table_facts`): a game of the
variant is dealt with the first seat dealing and played by the worked hand's
fixed rule (:func:`cardrules.rulebook.hand.simple_choice`) until the first
trick, so the seat drawn as leading first is the seat the engine let lead, and
the direction of the arrows is the order in which the engine let the seats play;
for a game that passes cards, its hands are played until each hand of the pass
cycle has passed, and the arrows are the engine's own exchange of cards.

Seats are drawn as seen from above, the first seat at the bottom, and "to the
left" (clockwise) goes from the bottom to the left side of the picture.

Examples:
    >>> svg = seating_svg(["Asha", "Ben", "Chitra", "Dev"], dealer=0, leader=1,
    ...                   clockwise=True, teams=[(0, 2), (1, 3)], title="The table")
    >>> svg.startswith("<svg") and 'data-dealer="Asha"' in svg and 'data-leader="Ben"' in svg
    True
    >>> 'data-from="Asha" data-to="Ben"' in passing_svg(["Asha", "Ben", "Chitra"], [1, 2, 0], "L")
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardrules.cards import Card
from cardrules.errors import CardrulesError
from cardrules.rulebook.svg_cards import FONT, esc
from cardrules.rules import FirstLeader, PassTo, Variant

__all__ = [
    "TableFacts",
    "passing_section",
    "passing_svg",
    "seating_section",
    "seating_svg",
    "table_facts",
]

#: The colours of the partnerships, in order (never red or black, the suits' colours).
TEAM_COLOURS = ("#1565c0", "#ef6c00", "#6a1b9a", "#00838f")
#: The colour of a seat without a partner.
SEAT = "#455a64"
#: The table's felt.
FELT = "#2e7d32"
#: The most hands played to find the passes of a cycle.
_MOST_HANDS = 12
#: The events that end a trick.
_TRICK_ENDS = frozenset({"trick", "dead", "pickup"})


def _angle(i: int, n: int) -> float:
    """Seat ``i`` of ``n``, in radians on screen (y down): seat 0 at the bottom, and the
    seats going round clockwise."""
    return math.pi / 2 + 2 * math.pi * i / n


def _at(cx: float, cy: float, r: float, a: float) -> tuple[float, float]:
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _arrowhead(x: float, y: float, a: float, size: float, colour: str) -> str:
    """A filled arrowhead at (x, y) pointing along angle ``a``."""
    back = a + math.pi
    p1 = _at(x, y, size, back + 0.45)
    p2 = _at(x, y, size, back - 0.45)
    return (
        f'<path d="M{_f(x)} {_f(y)}L{_f(p1[0])} {_f(p1[1])}L{_f(p2[0])} {_f(p2[1])}Z" '
        f'fill="{colour}"/>'
    )


def _svg(width: float, height: float, title: str, body: str, cls: str) -> str:
    t = esc(title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" role="img" aria-label="{t}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" width="{_f(width)}" height="{_f(height)}">'
        f"<title>{t}</title>{body}</svg>"
    )


def seating_svg(
    names: Sequence[str],
    *,
    dealer: int,
    leader: int | None,
    clockwise: bool,
    teams: Sequence[Sequence[int]] = (),
    title: str,
) -> str:
    """The table seen from above: the seats, the dealer, the first leader and the
    direction of play.

    Args:
        names: each seat's name, the first seat first.
        dealer: the dealer's seat (marked with a "D" button).
        leader: the seat that leads the first trick (marked "1st"), if known.
        clockwise: play goes clockwise (to the left); else anticlockwise.
        teams: the partnerships, as seats; partners share a colour.
        title: the alt text.
    """
    n = len(names)
    w, h = 330.0, 290.0
    cx, cy = w / 2, h / 2
    table_r, seat_r = 72.0, 126.0
    colour = {s: TEAM_COLOURS[k % len(TEAM_COLOURS)] for k, t in enumerate(teams) for s in t}
    out = [
        f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(table_r)}" fill="{FELT}" '
        'stroke="#1b5e20" stroke-width="3"/>'
    ]
    # Arrows round the inside of the table, in the direction of play.
    step = 1 if clockwise else -1
    arc_r = table_r - 28
    for k in range(3):
        a0 = _angle(0, 3) + 2 * math.pi * k / 3 + 0.35
        a1 = a0 + 2 * math.pi / 3 - 0.7
        if step < 0:
            a0, a1 = a1, a0
        x0, y0 = _at(cx, cy, arc_r, a0)
        x1, y1 = _at(cx, cy, arc_r, a1)
        sweep = 1 if step > 0 else 0
        out.append(
            f'<path class="cr-direction" d="M{_f(x0)} {_f(y0)}A{_f(arc_r)} {_f(arc_r)} 0 0 '
            f'{sweep} {_f(x1)} {_f(y1)}" fill="none" stroke="#e8f5e9" stroke-width="3"/>'
        )
        out.append(_arrowhead(x1, y1, a1 + step * math.pi / 2, 10, "#e8f5e9"))
    way = "clockwise" if clockwise else "anticlockwise"
    out.append(
        f'<text x="{_f(cx)}" y="{_f(cy + 4)}" font-family="{FONT}" font-size="11" '
        f'text-anchor="middle" fill="#fff" data-direction="{way}">{way}</text>'
    )
    for i, name in enumerate(names):
        a = _angle(i, n)
        x, y = _at(cx, cy, seat_r, a)
        fill = colour.get(i, SEAT)
        attrs = f'data-seat="{i}" data-name="{esc(name)}"'
        if i == dealer:
            attrs += f' data-dealer="{esc(name)}"'
        if i == leader:
            attrs += f' data-leader="{esc(name)}"'
        if i in colour:
            team = next(k for k, t in enumerate(teams) if i in t)
            attrs += f' data-team="{team + 1}"'
        out.append(
            f'<g class="cr-seat" {attrs}><rect x="{_f(x - 34)}" y="{_f(y - 13)}" width="68" '
            f'height="26" rx="13" fill="{fill}"/><text x="{_f(x)}" y="{_f(y + 4.5)}" '
            f'font-family="{FONT}" font-size="13" font-weight="600" text-anchor="middle" '
            f'fill="#fff">{esc(name)}</text></g>'
        )
        # The badges sit between the seat and the table.
        badges = [b for b, on in (("D", i == dealer), ("1st", i == leader)) if on]
        for k, badge in enumerate(badges):
            bx, by = _at(cx, cy, table_r - 3, a + (k - (len(badges) - 1) / 2) * 0.36)
            if badge == "D":
                out.append(
                    f'<g class="cr-dealer"><circle cx="{_f(bx)}" cy="{_f(by)}" r="10" '
                    f'fill="#fff" stroke="#212121" stroke-width="1.5"/><text x="{_f(bx)}" '
                    f'y="{_f(by + 4)}" font-family="{FONT}" font-size="11" font-weight="700" '
                    'text-anchor="middle" fill="#212121">D</text></g>'
                )
            else:
                out.append(
                    f'<g class="cr-leader"><rect x="{_f(bx - 13)}" y="{_f(by - 9)}" width="26" '
                    f'height="18" rx="4" fill="#f9a825" stroke="#212121" stroke-width="1"/>'
                    f'<text x="{_f(bx)}" y="{_f(by + 4)}" font-family="{FONT}" font-size="10" '
                    'font-weight="700" text-anchor="middle" fill="#212121">1st</text></g>'
                )
    return _svg(w, h, title, "".join(out), "cr-seating")


def passing_svg(names: Sequence[str], targets: Sequence[int], title: str) -> str:
    """Where passed cards go in one hand: an arrow from each seat to the seat it passes to.

    Args:
        names: each seat's name, the first seat first.
        targets: the seat each seat passes to (its own seat: no pass).
        title: the alt text (the passes are listed after it).
    """
    n = len(names)
    w, h = 170.0, 170.0
    cx, cy, r = w / 2, h / 2, 62.0
    out = [f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r - 14)}" fill="#e8f5e9"/>']
    words = []
    for i, t in enumerate(targets):
        if t == i:
            continue
        x0, y0 = _at(cx, cy, r, _angle(i, n))
        x1, y1 = _at(cx, cy, r, _angle(t, n))
        a = math.atan2(y1 - y0, x1 - x0)
        # Shorten the arrow to the seats' edges, and move it aside so that two
        # passes between the same seats (across) show as two arrows.
        side = a + math.pi / 2
        ox, oy = 4 * math.cos(side), 4 * math.sin(side)
        sx, sy = x0 + 15 * math.cos(a) + ox, y0 + 15 * math.sin(a) + oy
        ex, ey = x1 - 15 * math.cos(a) + ox, y1 - 15 * math.sin(a) + oy
        out.append(
            f'<g class="cr-pass" data-from="{esc(names[i])}" data-to="{esc(names[t])}">'
            f'<path d="M{_f(sx)} {_f(sy)}L{_f(ex)} {_f(ey)}" stroke="#37474f" '
            f'stroke-width="2" fill="none"/>{_arrowhead(ex, ey, a, 8, "#37474f")}</g>'
        )
        words.append(f"{names[i]} to {names[t]}")
    for i, name in enumerate(names):
        x, y = _at(cx, cy, r, _angle(i, n))
        out.append(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="13" fill="{SEAT}"/><text x="{_f(x)}" '
            f'y="{_f(y + 4.5)}" font-family="{FONT}" font-size="12" font-weight="700" '
            f'text-anchor="middle" fill="#fff">{esc(name[:1])}</text>'
        )
    alt = f"{title}: " + ("; ".join(words) if words else "no pass") + "."
    return _svg(w, h, alt, "".join(out), "cr-passing")


# --------------------------------------------------------------------------- from the engine


@dataclass(frozen=True)
class TableFacts:
    """What the engine did at the start of a game, for the seating circle.

    Attributes:
        players: the number of players.
        dealer: the seat that dealt the first hand.
        leader: the seat that led the first trick (``None`` if nobody played).
        order: the seats in the order they played to the first trick.
        clockwise: whether the second seat to play was the first leader's left-hand
            neighbour (seat + 1), as the engine let them play.
        passes: for each hand of the pass cycle, the seat each seat passed to (the
            engine's ``"exchange"`` events; a hand without a pass is omitted).
        first_card: the card that led the first trick.
    """

    players: int
    dealer: int
    leader: int | None
    order: tuple[int, ...]
    clockwise: bool
    passes: tuple[tuple[int, tuple[int, ...]], ...]
    first_card: Card | None = None


def table_facts(v: Variant, players: int, seed: int = 1) -> TableFacts:
    """Deal a game of ``v`` (the first seat dealing) and play it as the worked hand does
    (:func:`~cardrules.rulebook.hand.simple_choice`) until the first trick is played and,
    for a game that passes cards, until each hand of the pass cycle has been played.

    Raises:
        CardrulesError: if the engine refuses to deal the game.
    """
    from cardrules.engine.game import Game
    from cardrules.rulebook.hand import simple_choice

    g = Game(v, players=players, seed=seed, first_dealer=0)
    deal = next(e for e in g.events if e[0] == "deal")
    dealer = int(deal[2])
    hands_needed = len(v.passing.cycle) if v.passing.count else 0
    passes: list[tuple[int, tuple[int, ...]]] = []
    seen = 0
    hands = 0
    tricked = False
    while not g.is_over:
        g.apply_as_current(simple_choice(g))
        for e in g.events[seen:]:
            if e[0] == "exchange":
                passes.append((int(e[1]), tuple(int(t) for t in e[2])))
            elif e[0] == "score":
                hands += 1
            elif e[0] in _TRICK_ENDS:
                tricked = True
        seen = len(g.events)
        if (tricked and hands >= min(hands_needed, _MOST_HANDS)) or hands >= _MOST_HANDS:
            break
    order: list[int] = []
    first: Card | None = None
    for e in g.events:
        if e[0] in _TRICK_ENDS:
            break
        if e[0] == "play":
            order.append(int(e[1]))
            first = Card(int(e[2])) if first is None else first
    clockwise = order[1] == (order[0] + 1) % players if len(order) >= 2 else True
    return TableFacts(
        players=players,
        dealer=dealer,
        leader=order[0] if order else None,
        order=tuple(order),
        clockwise=clockwise,
        passes=tuple(passes),
        first_card=first,
    )


def _pass_word(to: PassTo) -> str:
    return {PassTo.LEFT: "left", PassTo.RIGHT: "right", PassTo.ACROSS: "across"}.get(to, "no pass")


def _leader_words(v: Variant, f: TableFacts, names: Sequence[str]) -> str:
    """Who leads the first trick; for a game where the holder of a card leads, which
    card it was in the engine's deal."""
    who = names[f.leader if f.leader is not None else 0]
    if v.play.first_leader is FirstLeader.HOLDER and f.first_card is not None:
        wanted = (v.play.lead_card, *v.play.lead_card_else)
        if f.first_card in wanted:
            return f"{who} holds the {f.first_card} in this deal, so leads the first trick (1st)"
        return f"in this deal {who} leads the first trick (1st)"
    return f"{who} leads the first trick (1st)"


def seating_section(v: Variant, players: int, names: Sequence[str]) -> list[str]:
    """The seating circle as Markdown lines (an HTML figure), or ``[]`` when the engine
    cannot deal the game."""
    from cardrules.rulebook.svg_cards import figure

    try:
        f = table_facts(v, players)
    except (CardrulesError, StopIteration):
        return []
    way = "clockwise, to the left" if f.clockwise else "anticlockwise, to the right"
    parts = [f"{names[f.dealer]} deals (D)"]
    if f.leader is not None:
        parts.append(_leader_words(v, f, names))
    parts.append(f"play goes {way}, as the arrows show")
    if v.teams:
        sides = " against ".join(" and ".join(names[s] for s in t) for t in v.teams)
        parts.append(f"partners share a colour: {sides}")
    caption = f"The table for {players} players: " + "; ".join(parts) + "."
    out = [
        figure(
            seating_svg(
                names,
                dealer=f.dealer,
                leader=f.leader,
                clockwise=f.clockwise,
                teams=v.teams,
                title=caption,
            ),
            caption,
            cls="cr-figure cr-seating-figure",
        ),
        "",
    ]
    return out


def passing_section(v: Variant, players: int, names: Sequence[str]) -> list[str]:
    """One small picture per hand of the pass cycle, the arrows taken from the engine's
    exchanges; ``[]`` when the game passes no cards or the engine cannot deal it."""
    from cardrules.rulebook.svg_cards import figure

    if not v.passing.count:
        return []
    try:
        f = table_facts(v, players)
    except (CardrulesError, StopIteration):
        return []
    by_hand = dict(f.passes)
    cycle = v.passing.cycle
    pics = []
    for k, to in enumerate(cycle):
        hand = k + 1
        if to is PassTo.NONE:
            title = f"Hand {hand}: no pass"
            targets: Sequence[int] = tuple(range(players))
        elif hand in by_hand:
            targets = by_hand[hand]
            title = f"Hand {hand}: pass {_pass_word(to)}"
        else:
            continue
        pics.append(
            figure(passing_svg(names, targets, title), title, cls="cr-figure cr-pass-figure")
        )
    if not pics:
        return []
    return ['<div class="cr-passes">' + "".join(pics) + "</div>", ""]
