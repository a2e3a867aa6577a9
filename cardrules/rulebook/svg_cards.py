"""Playing cards drawn as SVG, for the pictures of the rules pages.

Every function here is pure: it takes cards (and names, already chosen by the
page) and returns SVG text, the same text for the same input, with no network,
no image files and no web fonts (the ranks are set in the reader's own sans-serif
font; the suit signs are drawn as paths, so they look the same everywhere).
Hearts and diamonds are red, spades and clubs black; the little joker is black
and the big joker red; a card face down shows a patterned back.

Each picture is one ``<svg>`` element with ``role="img"``, an ``aria-label``
and a ``<title>`` saying in words what it shows, so a screen reader (or a
reader whose browser shows no images) gets the same facts. Text that is not
ours (a name) is escaped with :func:`esc`. The pictures scale with the width of
the page (``viewBox``, no fixed size), so they fit a 390-pixel phone.

Examples:
    >>> from cardrules.cards import card
    >>> svg = card_svg(card("Q♥"))
    >>> svg.startswith("<svg") and RED in svg and "queen of hearts" in svg
    True
    >>> card_name(card("10♣")), card_name(card("BJ")), card_name(None)
    ('10 of clubs', 'big joker', 'a card face down')
    >>> hand_svg([card("A♠"), card("K♦")], "Asha's hand") == hand_svg(
    ...     [card("A♠"), card("K♦")], "Asha's hand")
    True
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

from cardrules.cards import Card, Rank, Suit

__all__ = [
    "BLACK",
    "CARD_H",
    "CARD_W",
    "RED",
    "card_group",
    "card_name",
    "card_svg",
    "cards_phrase",
    "esc",
    "figure",
    "hand_svg",
    "hands_svg",
    "suit_color",
    "suit_path",
    "trick_grid",
    "trick_svg",
    "tricks_svg",
]

#: The colour of hearts, diamonds and the big joker.
RED = "#c62828"
#: The colour of spades, clubs and the little joker.
BLACK = "#1b1b1b"
#: The width and height of a card, in the units of a picture's ``viewBox``.
CARD_W = 50
CARD_H = 70
#: The colour that marks a card (the winner of a trick, a cut).
MARK = "#f9a825"
#: The font of every text in the pictures: the reader's own, never a web font.
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

#: The suit signs, drawn in a 100 x 100 box.
_PATHS = {
    Suit.DIAMONDS: "M50 2L88 50L50 98L12 50Z",
    Suit.HEARTS: (
        "M50 94C38 82 4 60 4 32C4 15 16 4 30 4C40 4 47 10 50 19C53 10 60 4 70 4"
        "C84 4 96 15 96 32C96 60 62 82 50 94Z"
    ),
    Suit.SPADES: (
        "M50 3C40 18 5 40 5 63C5 78 16 86 29 86C38 86 44 81 47 75L41 97H59L53 75"
        "C56 81 62 86 71 86C84 86 95 78 95 63C95 40 60 18 50 3Z"
    ),
    Suit.CLUBS: (
        "M30 28a20 20 0 1 0 40 0a20 20 0 1 0 -40 0Z"
        "M7 60a20 20 0 1 0 40 0a20 20 0 1 0 -40 0Z"
        "M53 60a20 20 0 1 0 40 0a20 20 0 1 0 -40 0Z"
        "M45 40H55L60 97H40Z"
    ),
}

_RANK_WORDS = {Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king", Rank.ACE: "ace"}


#: Characters XML does not allow (control characters, surrogates, non-characters),
#: and the line breaks of other scripts: each becomes a space.
_NOT_XML = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def esc(text: str) -> str:
    """``text`` on one line, escaped for SVG (and HTML) text and attribute values; the
    characters XML does not allow become spaces.

    Examples:
        >>> esc('<b> & "x"'), esc("a\x1bb")
        ('&lt;b&gt; &amp; &quot;x&quot;', 'a b')
    """
    return html.escape(" ".join(_NOT_XML.sub(" ", str(text)).split()), quote=True)


def suit_color(suit: Suit) -> str:
    """:data:`RED` for hearts and diamonds, :data:`BLACK` for spades and clubs.

    Examples:
        >>> suit_color(Suit.HEARTS) == RED, suit_color(Suit.CLUBS) == BLACK
        (True, True)
    """
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


#: The colour of the special cards (54-63, ``X1``-``X10``: wizards, jesters...).
SPECIAL = "#6a3d9a"


def _color(c: Card) -> str:
    if c.is_special:
        return SPECIAL
    if c.is_joker:
        return RED if int(c) == 53 else BLACK
    return suit_color(c.suit)


def _num(x: float) -> str:
    """A coordinate without needless digits (``12``, ``12.5``)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def suit_path(suit: Suit, x: float, y: float, size: float, *, cls: str = "") -> str:
    """The sign of ``suit`` as an SVG ``<path>``, ``size`` units square, its top left at
    (``x``, ``y``), filled in the suit's colour.

    Examples:
        >>> suit_path(Suit.HEARTS, 0, 0, 10).startswith('<path fill="#c62828"')
        True
    """
    k = size / 100
    extra = f' class="{esc(cls)}"' if cls else ""
    return (
        f'<path fill="{suit_color(suit)}" data-suit="{suit.word}"{extra} '
        f'transform="translate({_num(x)} {_num(y)}) scale({_num(k)})" d="{_PATHS[suit]}"/>'
    )


def card_name(c: Card | None) -> str:
    """A card in words, for alt text: ``"ace of spades"``, ``"10 of hearts"``,
    ``"little joker"``; ``None`` is a card face down."""
    if c is None:
        return "a card face down"
    if c.is_special:
        return f"special card {c.code}"
    if c.is_joker:
        return "big joker" if int(c) == 53 else "little joker"
    rank = _RANK_WORDS.get(c.rank, str(int(c.rank)))
    return f"{rank} of {c.suit.word}"


def cards_phrase(cards: Sequence[Card | None]) -> str:
    """Cards in words, for alt text: ``"ace of spades, 2 of hearts"`` (``"no cards"``)."""
    return ", ".join(card_name(c) for c in cards) if cards else "no cards"


def _back(x: float, y: float) -> str:
    """The back of a card: a blue panel with a diamond lattice."""
    x0, y0, w, h = x + 4, y + 4, CARD_W - 8, CARD_H - 8
    segs = []
    for k in range(8, w + h, 8):
        # The lines px + py = k and px - py = k - h, inside the panel.
        a, b = max(0, k - h), min(w, k)
        segs.append(f"M{_num(x0 + a)} {_num(y0 + k - a)}L{_num(x0 + b)} {_num(y0 + k - b)}")
        a, b = max(0, k - h), min(w, k)
        segs.append(f"M{_num(x0 + a)} {_num(y0 + h - k + a)}L{_num(x0 + b)} {_num(y0 + h - k + b)}")
    return (
        '<g class="cr-card cr-back" data-card="back">'
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{CARD_W}" height="{CARD_H}" rx="5" '
        'fill="#fff" stroke="#888" stroke-width="1"/>'
        f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{w}" height="{h}" rx="3" fill="#1e5aa8"/>'
        f'<path d="{"".join(segs)}" stroke="#8fb3e3" stroke-width="1" fill="none"/>'
        "</g>"
    )


def card_group(
    c: Card | None, x: float = 0, y: float = 0, *, mark: bool = False, covered: bool = False
) -> str:
    """One card as an SVG ``<g>`` (to go inside a picture), its top left at (``x``, ``y``).

    Args:
        c: the card; ``None`` draws its back (a card face down).
        x: the left edge.
        y: the top edge.
        mark: outline the card (the card that won a trick, say).
        covered: the card lies under the next one of a hand, which hides its middle:
            only its corner (rank and suit) is drawn.

    Examples:
        >>> from cardrules.cards import card
        >>> 'data-card="7♦"' in card_group(card("7d"))
        True
    """
    if c is None:
        return _back(x, y)
    color = _color(c)
    stroke = f'stroke="{MARK}" stroke-width="3"' if mark else 'stroke="#888" stroke-width="1"'
    out = [
        f'<g class="cr-card{" cr-mark" if mark else ""}" data-card="{esc(str(c))}">',
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{CARD_W}" height="{CARD_H}" rx="5" '
        f'fill="#fff" {stroke}/>',
    ]
    if c.is_special:
        out += _special_face(c, x, y, color, covered)
    elif c.is_joker:
        # The corner: "BJ" or "LJ" and a small star; uncovered, a big star and "JOKER".
        out.append(
            f'<text x="{_num(x + 3)}" y="{_num(y + 15)}" fill="{color}" font-family="{FONT}" '
            f'font-size="12" font-weight="700" letter-spacing="-1">{c.code}</text>'
        )
        out.append(_star(x + 10, y + 26, 6, color))
        if not covered:
            out.append(_star(x + 29, y + 38, 14, color))
            out.append(
                f'<text x="{_num(x + 29)}" y="{_num(y + 64)}" fill="{color}" '
                f'font-family="{FONT}" font-size="8" font-weight="700" text-anchor="middle">'
                "JOKER</text>"
            )
    else:
        label = c.rank.label
        tight = ' letter-spacing="-1.5"' if len(label) > 1 else ""
        out.append(
            f'<text x="{_num(x + 4)}" y="{_num(y + 17)}" fill="{color}" font-family="{FONT}" '
            f'font-size="{14 if len(label) > 1 else 17}" font-weight="700"{tight}>'
            f"{label}</text>"
        )
        out.append(suit_path(c.suit, x + 5, y + 21, 11))
        if not covered:
            out.append(suit_path(c.suit, x + 17, y + 33, 27))
    out.append("</g>")
    return "".join(out)


def _special_face(c: Card, x: float, y: float, color: str, covered: bool) -> list[str]:
    """A special card's face (``X1``...): its code and a small ring in the corner;
    uncovered, a big ring round the code. The variant names the kind (wizards,
    jesters): the page's words say which code is which."""
    out = [
        f'<text x="{_num(x + 3)}" y="{_num(y + 15)}" fill="{color}" font-family="{FONT}" '
        f'font-size="12" font-weight="700" letter-spacing="-1">{c.code}</text>',
        f'<circle cx="{_num(x + 10)}" cy="{_num(y + 26)}" r="5" fill="none" '
        f'stroke="{color}" stroke-width="2"/>',
    ]
    if not covered:
        out.append(
            f'<circle cx="{_num(x + 29)}" cy="{_num(y + 42)}" r="15" fill="none" '
            f'stroke="{color}" stroke-width="3"/>'
        )
        out.append(
            f'<text x="{_num(x + 29)}" y="{_num(y + 47)}" fill="{color}" font-family="{FONT}" '
            f'font-size="13" font-weight="700" text-anchor="middle">{c.code}</text>'
        )
    return out


def _star(cx: float, cy: float, r: float, colour: str) -> str:
    """A five-pointed star of radius ``r`` centred on (``cx``, ``cy``)."""
    points = []
    for k in range(10):
        a = math.pi * (k / 5 - 0.5)
        rr = r if k % 2 == 0 else r * 0.42
        points.append(f"{_num(cx + rr * math.cos(a))},{_num(cy + rr * math.sin(a))}")
    return f'<polygon points="{" ".join(points)}" fill="{colour}"/>'


def _svg(width: float, height: float, title: str, body: str, cls: str) -> str:
    t = esc(title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{esc(cls)}" role="img" '
        f'aria-label="{t}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(width)}" height="{_num(height)}">'
        f"<title>{t}</title>{body}</svg>"
    )


def card_svg(c: Card | None) -> str:
    """One card as a picture of its own (``None``: face down)."""
    return _svg(CARD_W + 2, CARD_H + 2, card_name(c), card_group(c, 1, 1), "cr-cards")


#: How far apart the cards of a hand are (they overlap, as in the hand).
_FAN = 22


def hand_svg(cards: Sequence[Card | None], title: str) -> str:
    """A hand of cards, overlapping left to right as it is held.

    Args:
        cards: the cards, in the order to show them (``None`` is a card face down).
        title: what the picture is, for the alt text; the cards are named after it.
    """
    n = len(cards)
    width = CARD_W + _FAN * max(0, n - 1) + 2
    body = "".join(card_group(c, 1 + _FAN * i, 1, covered=i < n - 1) for i, c in enumerate(cards))
    return _svg(width, CARD_H + 2, f"{title}: {cards_phrase(cards)}", body, "cr-cards cr-hand")


#: The width of a name column in :func:`hands_svg`.
_NAME_W = 64


def hands_svg(rows: Sequence[tuple[str, Sequence[Card | None]]], title: str) -> str:
    """Several hands in one picture, one row each, with the holder's name on the left.

    Args:
        rows: ``(name, cards)`` for each hand, in order.
        title: what the picture is, for the alt text.
    """
    longest = max((len(cs) for _, cs in rows), default=0)
    width = _NAME_W + CARD_W + _FAN * max(0, longest - 1) + 2
    row_h = CARD_H + 8
    body = []
    words = []
    for r, (name, cards) in enumerate(rows):
        y = 1 + r * row_h
        body.append(
            f'<text x="{_NAME_W - 6}" y="{_num(y + CARD_H / 2 + 5)}" font-family="{FONT}" '
            f'font-size="13" text-anchor="end" fill="currentColor">{esc(name)}</text>'
        )
        last = len(cards) - 1
        body += [
            card_group(c, _NAME_W + _FAN * i, y, covered=i < last) for i, c in enumerate(cards)
        ]
        words.append(f"{name}: {cards_phrase(cards)}")
    height = max(1, len(rows)) * row_h
    alt = f"{title}. " + "; ".join(words) + "."
    return _svg(width, height, alt, "".join(body), "cr-cards cr-hands")


#: The width of one play in a trick picture.
_PLAY_W = CARD_W + 14


def _trick_row(
    plays: Sequence[tuple[str, Card | None]], y: float, marked: frozenset[int], note: str
) -> str:
    out = []
    for i, (name, c) in enumerate(plays):
        x = 8 + i * _PLAY_W
        bold = ' font-weight="700"' if i in marked else ""
        out.append(card_group(c, x, y, mark=i in marked))
        out.append(
            f'<text x="{_num(x + CARD_W / 2)}" y="{_num(y + CARD_H + 14)}" font-family="{FONT}" '
            f'font-size="12" text-anchor="middle" fill="currentColor"{bold}>{esc(name)}</text>'
        )
    if note:
        out.append(
            f'<text x="8" y="{_num(y - 5)}" font-family="{FONT}" font-size="12" '
            f'fill="currentColor">{esc(note)}</text>'
        )
    return "".join(out)


def trick_svg(
    plays: Sequence[tuple[str, Card | None]],
    title: str,
    *,
    marked: Sequence[int] = (),
    note: str = "",
) -> str:
    """One trick: the cards in the order they were played, each with its player's name.

    Args:
        plays: ``(name, card)`` for each play, in order.
        title: what the picture is, for the alt text; the plays are named after it.
        marked: the positions (in ``plays``) of the cards to outline, such as the winner.
        note: a line of text above the cards (``"Trick 1, won by Ben"``).
    """
    return tricks_svg([(plays, tuple(marked), note)], title)


def tricks_svg(
    tricks: Sequence[tuple[Sequence[tuple[str, Card | None]], Sequence[int], str]],
    title: str,
) -> str:
    """Several tricks in one picture, one row each (see :func:`trick_svg`).

    Args:
        tricks: ``(plays, marked, note)`` for each trick, in order.
        title: what the picture is, for the alt text.

    Examples:
        >>> from cardrules.cards import card
        >>> svg = tricks_svg([([("Asha", card("5h")), ("Ben", card("9h"))], [1], "won by Ben")],
        ...                  "A trick")
        >>> "Asha: 5 of hearts, Ben: 9 of hearts" in svg
        True
    """
    widest = max((len(p) for p, _, _ in tricks), default=0)
    longest_note = max((len(note) for _, _, note in tricks), default=0)
    # A note is about 6.6 units a character at its size: the picture is wide enough.
    width = max(16 + _PLAY_W * max(1, widest) - 14, 16 + 6.6 * longest_note)
    row_h = CARD_H + 40
    body = []
    words = []
    for r, (plays, marked, note) in enumerate(tricks):
        y = 20 + r * row_h
        body.append(_trick_row(plays, y, frozenset(marked), note))
        said = ", ".join(f"{name}: {card_name(c)}" for name, c in plays)
        words.append(f"{note}: {said}" if note else said)
    height = 20 + max(1, len(tricks)) * row_h - 18
    alt = f"{title}. " + "; ".join(words) + "."
    return _svg(width, height, alt, "".join(body), "cr-cards cr-tricks")


def trick_grid(
    tricks: Sequence[tuple[Sequence[tuple[str, Card | None]], Sequence[int], str]],
    title: str,
) -> str:
    """Several tricks as a group of small pictures, one per trick, that the page lays out
    side by side as far as its width allows (one under the other on a phone).

    Args:
        tricks: ``(plays, marked, note)`` for each trick, in order (see :func:`trick_svg`).
        title: what the group is, for screen readers.

    Examples:
        >>> from cardrules.cards import card
        >>> html = trick_grid([([("Asha", card("5h"))], [0], "Trick 1")] * 2, "Tricks")
        >>> html.count("<svg"), html.startswith('<div class="cr-trick-grid" role="group"')
        (2, True)
    """
    pics = "".join(
        trick_svg(plays, note or title, marked=marked, note=note) for plays, marked, note in tricks
    )
    return f'<div class="cr-trick-grid" role="group" aria-label="{esc(title)}">{pics}</div>'


def figure(svg: str, caption: str = "", *, cls: str = "cr-figure") -> str:
    """A picture as one block of HTML for a Markdown page: ``<figure>``, the SVG, and an
    optional caption (escaped). The block has no blank line, so Markdown keeps it as
    it is. The site's search leaves it out (``data-search-exclude``): what a picture
    says is in the text and tables around it.

    Examples:
        >>> figure("<svg></svg>", "Two <cards>")  # doctest: +NORMALIZE_WHITESPACE
        '<figure class="cr-figure" data-search-exclude><svg></svg><figcaption>Two
        &lt;cards&gt;</figcaption></figure>'
    """
    cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
    return f'<figure class="{esc(cls)}" data-search-exclude>{svg}{cap}</figure>'
