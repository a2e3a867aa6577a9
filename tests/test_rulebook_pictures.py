"""The pictures of the rules pages: SVG cards, the deal-schedule chart, the seating circle.

Every picture must be valid SVG with alt text, draw hearts and diamonds red, be the
same on every build, and say what the engine does: the cards drawn for a trick are
the trick the engine played, the chart's bars are the variant's schedule as the
engine deals it, the seating circle's dealer, first leader, direction and passes
are the engine's.
"""

from __future__ import annotations

import doctest
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.cards import ALL_CARDS, Card, Suit, card
from cardrules.example_runner import run_example
from cardrules.rulebook import builtin_variants, charts, seating, svg_cards
from cardrules.rulebook.example_section import example_tricks
from cardrules.rulebook.hand import play_worked_hand, simple_choice
from cardrules.rulebook.length import length_is_a_guard
from cardrules.rulebook.play_examples import seat_names
from cardrules.rulebook.shed import play_worked_tricks
from cardrules.rulebook.svg_cards import BLACK, RED
from cardrules.rules import Mode, PassTo, Variant

SVG_NS = "{http://www.w3.org/2000/svg}"
VARIANTS = builtin_variants()
BY_NAME = {v.name: v for v in VARIANTS}


def _as_drawn(v: Variant, cards: list[str]) -> list[str]:
    """Cards as a page draws them: a special card by its symbol (``special
    symbols:``, W1 for X1), the rest as their text."""
    names = v.deck.card_names()
    return [names.get(int(card(c)), c) if c.startswith("X") else c for c in cards]


def _card_drawn(text: str) -> Card:
    """The card of a page's ``data-card`` (a special card's symbol read back too)."""
    for v in VARIANTS:
        for c, name in v.deck.card_names().items():
            if name == text:
                return Card(c)
    return card(text)


def _page(v: Variant) -> str:
    return cardrules.rulebook(v, pictures=True)


PAGES = {v.name: _page(v) for v in VARIANTS}


def svgs(text: str) -> list[ET.Element]:
    """Every ``<svg>`` element of a page, parsed (raises if one is not well-formed XML)."""
    return [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", text, flags=re.S)]


def figures(text: str, cls: str) -> list[str]:
    """The ``<figure>`` blocks of a page whose class list has ``cls``."""
    return [
        m.group(0)
        for m in re.finditer(r'<figure class="([^"]*)"[^>]*>.*?</figure>', text, flags=re.S)
        if cls in m.group(1).split()
    ]


def drawn_cards(svg_text: str) -> list[str]:
    """The cards a picture draws, in order (``"back"`` for a card face down)."""
    return re.findall(r'<g class="cr-card[^"]*" data-card="([^"]+)"', svg_text)


def _walk(el: ET.Element) -> Iterator[ET.Element]:
    yield el
    for child in el:
        yield from _walk(child)


# ----------------------------------------------------------------- valid, alt text, colours


def test_the_modules_doctests_pass() -> None:
    for mod in (svg_cards, charts, seating):
        failed, attempted = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert attempted > 0 and failed == 0, mod.__name__


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_picture_is_valid_svg_with_alt_text(name: str) -> None:
    page = PAGES[name]
    parsed = svgs(page)
    assert parsed, f"{name}: no pictures"
    for el in parsed:
        assert el.tag == f"{SVG_NS}svg"
        if el.get("aria-hidden") == "true":
            continue  # a key's small sign, next to its words
        assert el.get("role") == "img"
        label = el.get("aria-label") or ""
        title = el.find(f"{SVG_NS}title")
        assert title is not None and title.text and title.text.strip() == label.strip()
        assert len(label) > 10
        # Scales with the page: a viewBox, and the same proportions as its size.
        assert el.get("viewBox")


@pytest.mark.parametrize("name", sorted(PAGES))
def test_red_suits_are_red_and_black_suits_black(name: str) -> None:
    for el in svgs(PAGES[name]):
        for node in _walk(el):
            suit = node.get("data-suit")
            if suit is not None:
                want = RED if suit in ("hearts", "diamonds") else BLACK
                assert node.get("fill") == want, (name, suit)
            shown = node.get("data-card")
            if shown and shown != "back" and node.get("class", "").startswith("cr-card"):
                c = _card_drawn(shown)
                text = next(n for n in _walk(node) if n.tag == f"{SVG_NS}text")
                if c.is_special:
                    # Special cards (issue 23) have a colour of their own.
                    assert text.get("fill") == "#6a3d9a", (name, shown)
                elif c.is_joker:
                    assert text.get("fill") == (RED if int(c) == 53 else BLACK)
                else:
                    red = c.suit in (Suit.HEARTS, Suit.DIAMONDS)
                    assert text.get("fill") == (RED if red else BLACK), (name, shown)


def test_a_card_picture_names_its_card() -> None:
    for c in ALL_CARDS:
        el = ET.fromstring(svg_cards.card_svg(c))
        assert el.get("aria-label") == svg_cards.card_name(c)
        assert drawn_cards(svg_cards.card_svg(c)) == [str(c)]
    back = svg_cards.card_svg(None)
    assert drawn_cards(back) == ["back"] and "face down" in back
    assert "#c62828" in svg_cards.card_svg(card("BJ")) and RED not in svg_cards.card_svg(card("LJ"))


def test_pictures_are_deterministic() -> None:
    for name in ("oh-hell", "hearts", "kazhutha", "spades", "euchre"):
        assert _page(BY_NAME[name]) == PAGES[name]


def test_names_are_escaped() -> None:
    evil = '<script>alert("x")</script>'
    for svg in (
        svg_cards.hands_svg([(evil, [card("A♠")])], evil),
        svg_cards.trick_svg([(evil, card("2♥"))], evil, note=evil),
        seating.seating_svg([evil, "B", "C"], dealer=0, leader=1, clockwise=True, title=evil),
        seating.passing_svg([evil, "B", "C"], [1, 2, 0], evil),
        charts.chart_svg([(1, 3, evil)], evil),
    ):
        assert "<script" not in svg
        ET.fromstring(svg)  # still well-formed
    assert "<script" not in svg_cards.figure("<svg/>", evil)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.sampled_from([*ALL_CARDS, None]), max_size=14),
    st.text(max_size=20),
)
def test_any_hand_draws_as_valid_svg(cards: list[Card | None], name: str) -> None:
    svg = svg_cards.hands_svg([(name, cards)], "A hand")
    el = ET.fromstring(svg)
    assert drawn_cards(svg) == [("back" if c is None else str(c)) for c in cards]
    assert svg_cards.cards_phrase(cards) in (el.get("aria-label") or "")
    assert svg == svg_cards.hands_svg([(name, cards)], "A hand")


# --------------------------------------------------------------------------- what the engine does


def _trick_variants() -> list[Variant]:
    return [v for v in VARIANTS if v.mode is not Mode.SHEDDING]


@pytest.mark.parametrize("name", [v.name for v in _trick_variants()])
def test_worked_hand_pictures_are_the_engines_tricks(name: str) -> None:
    v = BY_NAME[name]
    page = PAGES[name]
    n = min(max(4, v.players.min), v.players.max)
    w = play_worked_hand(v, n)
    grids = [f for f in figures(page, "cr-figure") if "The tricks of hand" in f]
    assert len(grids) == 1, name
    drawn = drawn_cards(grids[0])
    assert drawn == _as_drawn(v, [str(c) for _, plays in w.tricks for _, c in plays])
    # The outlined card of each trick is its winner's.
    marked = re.findall(r'<g class="cr-card cr-mark" data-card="([^"]+)"', grids[0])
    assert marked == _as_drawn(v, [str(dict(plays)[winner]) for winner, plays in w.tricks])
    dealt = [f for f in figures(page, "cr-figure") if "The cards dealt in hand" in f]
    assert len(dealt) == 1
    dealt_cards = _as_drawn(v, [str(c) for h in w.hands for c in h])
    assert sorted(drawn_cards(dealt[0])) == sorted(dealt_cards)


@pytest.mark.parametrize("name", [v.name for v in VARIANTS if v.examples])
def test_example_pictures_are_the_engines_plays(name: str) -> None:
    v = BY_NAME[name]
    page = PAGES[name]
    drawn_grids = [f for f in figures(page, "cr-figure") if "The cards played in this example" in f]
    expected = []
    for ex in v.examples:
        run = run_example(v, ex)
        plays = [str(c) for trick, _, _ in example_tricks(run) for _, c in trick]
        # The plays are the engine's "play" events of the steps, in order.
        events = [
            str(Card(int(e[2])))
            for r in run.steps
            if type(r.step).__name__ != "PlayOut"
            for e in r.events
            if e[0] == "play"
        ]
        if any(type(r.step).__name__ == "PlayOut" for r in run.steps):
            assert events[: len(plays)] == plays
        else:
            assert plays == events
        if plays:
            expected.append(_as_drawn(v, plays))
    assert [drawn_cards(g) for g in drawn_grids] == expected


@pytest.mark.parametrize("name", [v.name for v in VARIANTS if v.mode is Mode.SHEDDING])
def test_shedding_cut_example_draws_the_engines_tricks(name: str) -> None:
    v = BY_NAME[name]
    w = play_worked_tricks(v, min(max(4, v.players.min), v.players.max))
    assert w is not None
    grid = [f for f in figures(PAGES[name], "cr-figure") if "The two tricks" in f]
    assert len(grid) == 1
    assert drawn_cards(grid[0]) == [str(Card(int(e[2]))) for plays, _ in w.tricks for e in plays]
    assert "cuts" in grid[0] and "picks up" in grid[0]


def _bars(svg_text: str) -> list[tuple[int, int, int, str]]:
    out = []
    for hands, cards_, trumps in re.findall(
        r'class="cr-bar" data-hands="([^"]+)" data-cards="(\d+)" data-trumps="([^"]*)"', svg_text
    ):
        lo, _, hi = hands.partition("–")
        out.append((int(lo), int(hi or lo), int(cards_), trumps))
    return out


def _expand(bars: list[tuple[int, int, int, str]]) -> list[tuple[int, str]]:
    return [(c, t) for lo, hi, c, t in bars for _ in range(lo, hi + 1)]


@pytest.mark.parametrize("name", [v.name for v in _trick_variants()])
def test_the_chart_is_the_schedule(name: str) -> None:
    v = BY_NAME[name]
    charts_ = figures(PAGES[name], "cr-chart-figure")
    if length_is_a_guard(v):
        # Played to a target (issue 25): no chart of a hands bound, the short table only.
        assert not charts_ and "| every hand |" in PAGES[name]
        return
    counts = list(v.players.counts())
    groups = charts.schedule_groups(v, counts)
    assert len(charts_) == len(groups)
    covered = []
    for chart, (ns, _) in zip(charts_, groups, strict=True):
        sizes = [c for c, _ in _expand(_bars(chart))]
        for n in ns:
            assert sizes == list(v.hand_sizes(n)), (name, n)
        covered += ns
    assert sorted(covered) == counts
    # The long table is still there, as text, under the chart.
    assert '<details class="cr-as-text" markdown="1">' in PAGES[name]


@pytest.mark.parametrize("name", ["oh-hell", "kachuful", "kachuful-double", "up-and-down"])
def test_the_chart_says_what_the_engine_deals(name: str) -> None:
    """Play a whole game: each hand's deal has the chart's size, and its trumps the chart's."""
    from cardrules.engine.game import Game

    v = BY_NAME[name]
    n = 4
    (chart,) = figures(cardrules.rulebook(v, players=n, pictures=True), "cr-chart-figure")
    want = _expand(_bars(chart))
    g = Game(v, players=n, seed=7)
    deals: list[int] = []
    trumps: dict[int, Suit | None] = {}
    while not g.is_over:
        g.apply_as_current(simple_choice(g))
    for e in g.events:
        if e[0] == "deal":
            deals.append(int(e[3]))
        elif e[0] == "trump":
            trumps[int(e[1])] = e[2]
    assert deals == [c for c, _ in want][: len(deals)] and len(deals) == len(want)
    for hand, (_, label) in enumerate(want, start=1):
        suit = trumps.get(hand)
        if label.startswith(tuple(s.word for s in Suit)):
            assert suit is not None and label == f"{suit.word} {suit.symbol}", (hand, label)
        elif label == "no trumps":
            assert suit is None, hand


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
def test_the_seating_circle_is_the_engines_table(name: str) -> None:
    from cardrules.engine.game import Game

    v = BY_NAME[name]
    n = min(max(4, v.players.min), v.players.max)
    (fig,) = figures(PAGES[name], "cr-seating-figure")
    names = seat_names(n)
    seats = re.findall(r'class="cr-seat" data-seat="(\d+)" data-name="([^"]+)"', fig)
    assert [s for _, s in seats] == list(names)
    dealer = re.findall(r'data-dealer="([^"]+)"', fig)
    leader = re.findall(r'data-leader="([^"]+)"', fig)
    way = re.findall(r'data-direction="([^"]+)"', fig)
    # An independent run of the engine: who deals, who plays first and second.
    g = Game(v, players=n, seed=1, first_dealer=0)
    while sum(1 for e in g.events if e[0] == "play") < 2:
        g.apply_as_current(simple_choice(g))
    plays = [int(e[1]) for e in g.events if e[0] == "play"]
    assert dealer == [names[g.dealer]]
    assert leader == [names[plays[0]]]
    assert way == ["clockwise" if plays[1] == (plays[0] + 1) % n else "anticlockwise"]
    assert ("clockwise" if v.direction.value == "clockwise" else "anticlockwise") == way[0]
    for k, team in enumerate(v.teams):
        for s in team:
            assert f'data-seat="{s}" data-name="{names[s]}" ' in fig
            assert re.search(rf'data-seat="{s}"[^>]*data-team="{k + 1}"', fig)


def test_golden_seating_of_known_games() -> None:
    def facts(name: str) -> seating.TableFacts:
        return seating.table_facts(BY_NAME[name], 4)

    oh = facts("oh-hell")
    assert (oh.dealer, oh.leader, oh.clockwise) == (0, 1, True)
    cb = facts("callbreak")
    assert (cb.dealer, cb.leader, cb.clockwise) == (0, 3, False)
    hearts = facts("hearts")
    assert hearts.first_card == card("2♣")
    # Pagat's Hearts: pass left, right, across, then keep.
    assert hearts.passes == ((1, (1, 2, 3, 0)), (2, (3, 0, 1, 2)), (3, (2, 3, 0, 1)))
    kz = facts("kazhutha")
    assert kz.first_card == card("A♠") and kz.clockwise is False


def test_the_passing_pictures_are_the_engines_exchanges() -> None:
    for v in VARIANTS:
        if not v.passing.count:
            assert "cr-passing" not in PAGES[v.name]
            continue
        n = min(max(4, v.players.min), v.players.max)
        names = seat_names(n)
        f = seating.table_facts(v, n)
        pics = figures(PAGES[v.name], "cr-pass-figure")
        assert len(pics) == len(v.passing.cycle)
        by_hand = dict(f.passes)
        for k, (pic, to) in enumerate(zip(pics, v.passing.cycle, strict=True)):
            arrows = re.findall(r'data-from="([^"]+)" data-to="([^"]+)"', pic)
            if to is PassTo.NONE:
                assert arrows == [] and "no pass" in pic
            else:
                assert arrows == [(names[s], names[t]) for s, t in enumerate(by_hand[k + 1])]


def test_pages_carry_the_figures_only_when_asked() -> None:
    oh = PAGES["oh-hell"]
    for cls in ("cr-seating", "cr-chart", "cr-hands", "cr-trick-grid", "cr-legend"):
        assert cls in oh, cls
    assert "cr-passing" in PAGES["hearts"]
    assert "cr-trick-grid" in PAGES["kazhutha"]
    for name in ("spades", "euchre", "whist", "callbreak", "hearts"):
        assert "cr-seating" in PAGES[name] and "cr-hands" in PAGES[name], name
    # Plain Markdown (the terminal's `cardrules rules`) has no pictures.
    for v in VARIANTS:
        assert "<svg" not in cardrules.rulebook(v, engine_examples=False)
    assert "<svg" not in cardrules.rulebook(BY_NAME["oh-hell"])


def test_a_long_even_schedule_is_one_bar() -> None:
    (chart,) = figures(PAGES["callbreak"], "cr-chart-figure")
    assert _bars(chart) == [(1, 5, 13, "spades ♠")]


def test_the_built_site_has_the_pictures() -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    from test_site import build_site

    site = build_site()
    for name in ("oh-hell", "hearts", "kazhutha", "spades"):
        # With or without directory URLs (games/NAME/index.html or games/NAME.html).
        path = site / "games" / name / "index.html"
        if not path.exists():
            path = site / "games" / f"{name}.html"
        html = path.read_text(encoding="utf-8")
        assert "<svg" in html and "&lt;svg" not in html, name
        assert 'class="cr-figure cr-seating-figure"' in html
        for el in svgs(html):
            assert el.tag == f"{SVG_NS}svg"


def test_a_schedule_too_long_to_draw_keeps_its_table_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(charts, "MOST_BARS", 5)
    page = _page(BY_NAME["oh-hell"])
    deal = page.split("### Deal schedule", 1)[1].split("\n## ", 1)[0]
    assert "cr-chart" not in page and "<details" not in deal
    assert deal.lstrip().startswith("| Hand |")
    # A short, even schedule still gets its one bar.
    assert figures(_page(BY_NAME["callbreak"]), "cr-chart-figure")
    # A game played to a target draws no bar of its hands bound.
    assert not figures(_page(BY_NAME["spades"]), "cr-chart-figure")
