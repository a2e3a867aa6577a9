"""Issue 10, items 13, 16, 17, 18, 19, 20, 21 and 22: rules pages that say only what
the engine does, for any file a user may write, safely.

* Item 13: every player count the language allows gets seat names and a page.
* Item 16: text from a variant file never becomes HTML, a link or a way out of the
  code block that shows the file (checked on the HTML that Markdown makes of it,
  with the extensions of ``mkdocs.yml``).
* Item 17: the trumps of each hand come from the rule the engine uses, per hand and
  per number of players (a deal of the whole pack leaves no card to turn up).
* Item 18: face-down dead tricks are described as the engine plays them: every
  card is seen as it is played, the trick just finished stays in view, older
  dead tricks are not.
* Item 19: each page says what happens after a tie, safety bound included.
* Item 20: every sentence of a page is about a feature its config has (random
  valid configs, with Hypothesis).
* Item 21: the examples of legal and illegal plays on a page are data that these
  tests replay through :class:`cardrules.Game`; the follow rule never contradicts
  itself; the blind-bid comparison never compares a score with itself.
* Item 22: a page made for a user's own file shows commands that work for that
  file and never an internal field name; "1 card", not "1 cards".
"""

from __future__ import annotations

import re
import string
from html.parser import HTMLParser
from pathlib import Path

import attrs
import markdown
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cardrules
import cardrules.rules as rules_module
from cardrules.cards import ALL_CARDS, Card, Suit, card
from cardrules.cli import main
from cardrules.dsl import load, load_text
from cardrules.dsl.limits import MAX_PLAYERS
from cardrules.dsl.parser import OVERRIDABLE_SETTINGS
from cardrules.dsl.validate import validate
from cardrules.engine import Bid, Game, Look, Play
from cardrules.errors import VariantError
from cardrules.rulebook import builtin_variants, comparison_page, rulebook
from cardrules.rules import (
    MAX_TIE_HANDS,
    BiddingRule,
    BidStyle,
    DeadTricks,
    DealerRule,
    DeckRule,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    MatchRule,
    Mode,
    PassRule,
    Pattern,
    PlayerRange,
    PlayRule,
    ScheduleRule,
    ScoringRule,
    SheddingRule,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpLead,
    TrumpRule,
    Variant,
    WinRule,
)
from cardrules.scoring import parse_formula

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = builtin_variants()


def ids(vs: list[Variant]) -> list[str]:
    return [v.name for v in vs]


def prose(page: str, *, differences: bool = True) -> str:
    """The page above the variant file, without inline code (which quotes the file).

    Args:
        page: the page.
        differences: keep the "Differences from" section, which speaks of the
            parent's rules too.
    """
    text = page.split("## The variant file")[0]
    if not differences and "## Differences from" in text:
        head, rest = text.split("## Differences from", 1)
        text = head + rest[rest.index("\n## ") :]
    return re.sub(r"(`+)(.+?)\1", " ", text)


# --------------------------------------------------------------------------- item 13


def test_item13_seat_names_for_every_count_the_language_allows() -> None:
    from cardrules.rulebook.play_examples import seat_names

    for n in range(1, MAX_PLAYERS + 1):
        names = seat_names(n)
        assert len(names) == n == len(set(names)), n
    assert seat_names(4) == ("Asha", "Ben", "Chitra", "Dev")


def _widest(v: Variant) -> Variant:
    """``v`` with its players range widened to the largest count it can still be dealt to
    (with its own hand sizes, or else with as many cards as the pack allows)."""
    candidates = [v]
    if v.mode is Mode.TRICKS and v.schedule.pattern is not Pattern.LIST:
        candidates.append(v.evolve(schedule=attrs.evolve(v.schedule, start=HandSizeRule())))
    best = v
    for cand in candidates:
        for top in range(MAX_PLAYERS, best.players.max, -1):
            wide = cand.evolve(players=PlayerRange(cand.players.min, top))
            try:
                validate(wide)
            except VariantError:
                continue
            best = wide
            break
    return best


@pytest.mark.parametrize("v", BUILTINS, ids=ids(BUILTINS))
def test_item13_every_builtin_widened_has_a_page_at_its_largest_count(v: Variant) -> None:
    wide = _widest(v)
    top = wide.players.max
    page = rulebook(wide, players=top)
    assert page.startswith(f"# {v.title}")
    from cardrules.rulebook.play_examples import seat_names

    last = seat_names(top)[-1]
    if "## A worked hand" in page or "worked through" in page:
        assert last in page
    # The whole page, every count in its tables.
    whole = rulebook(wide)
    # A game with teams is for exactly the seats of its teams: it cannot widen.
    span = f"{wide.players.min} to {top}" if wide.players.min < top else str(top)
    assert f"| Players | {span} |" in whole


def test_item13_the_issue_cases_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    donkey = tmp_path / "big-donkey.cardrules"
    donkey.write_text("game: big-donkey\nextends: donkey\nplayers: 9 to 12\n", encoding="utf-8")
    assert main(["rules", str(donkey)]) == 0
    out = capsys.readouterr().out
    assert "Player" not in out or "Ines" in out
    assert main(["rules", str(donkey), "--players", "12"]) == 0
    assert "Leela" in capsys.readouterr().out  # the twelfth seat
    oh = tmp_path / "big-oh-hell.cardrules"
    oh.write_text(
        "game: big-oh-hell\nextends: oh-hell\nplayers: 3 to 10\n"
        "hand size: 10 for 3 to 5 players, 8 for 6 players, 7 for 7 players, 5 for 8 to "
        "10 players\n",
        encoding="utf-8",
    )
    assert main(["rules", str(oh), "--players", "10"]) == 0
    out = capsys.readouterr().out
    assert "Jai" in out  # the tenth seat, in the worked hand
    assert main(["rules", str(oh)]) == 0


@pytest.mark.parametrize(
    "text",
    [
        "game: crowd\nextends: oh-hell\nplayers: 2 to 52\nhand size: largest\n",
        "game: crowd\nextends: kazhutha\nplayers: 3 to 52\n",
        "game: crowd\nextends: oh-hell\nplayers: 52\nhand size: 1\nbidding: none\n"
        "hook: no\nscore: tricks\n",
    ],
    ids=["tricks", "shedding", "no-bids"],
)
def test_item13_the_languages_largest_count(text: str) -> None:
    v = load_text(text)
    assert v.players.max == MAX_PLAYERS
    page = rulebook(v, players=MAX_PLAYERS)
    assert f"{MAX_PLAYERS} players" in page or "Player 52" in page
    assert "# " in rulebook(v)


# --------------------------------------------------------------------------- item 16

EVIL = (
    "# a comment with a fence ``` and ~~~ in it\n"
    "# ```\n"
    "# ~~~\n"
    "# ````text\n"
    "#     ```\n"
    "# </code></pre><script>alert(3)</script>\n"
    "game: evil\n"
    "extends: kachuful\n"
    'title: "Kachuful <img src=x onerror=alert(1)> *em* {: onclick=alert(5) } &lt;b&gt;"\n'
    'summary: "[link](javascript:alert(2))"\n'
    'also called: "<b>bold</b>", "`code`", "<a href=javascript:alert(6)>x</a>", '
    '"[r]: javascript:alert(7)"\n'
    "options: hook\n"
)


def render(page: str) -> str:
    """The HTML Markdown makes of ``page`` with the extensions the site uses."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    names: list[str] = []
    configs: dict[str, dict[str, object]] = {}
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict):
            ((name, conf),) = ext.items()
            names.append(name)
            configs[name] = conf or {}
        else:
            names.append(ext)
    return markdown.markdown(page, extensions=names, extension_configs=configs)


class Html(HTMLParser):
    """Every tag and attribute of a page, its text outside ``<pre>`` and inside it."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.pre: list[str] = []
        self._pre = 0
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs_: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs_)))
        if tag == "pre":
            self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._pre -= 1

    def handle_data(self, data: str) -> None:
        (self.pre if self._pre else self.text).append(data)


SAFE_TAGS = {
    # Folded parts of a page (the variant file, issue 25 item 7): plain HTML.
    "details",
    "summary",
    "h1",
    "h2",
    "h3",
    "p",
    "em",
    "strong",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "ul",
    "ol",
    "li",
    "a",
    "code",
    "pre",
    "div",
    "span",
}


def assert_safe(html: str, allowed_links: set[str]) -> Html:
    doc = Html(html)
    for tag, attributes in doc.tags:
        assert tag in SAFE_TAGS, (tag, attributes)
        for name, value in attributes.items():
            assert not name.startswith("on") and name != "src", (tag, name)
            if name == "style":  # the tables' own column alignment, nothing else
                assert tag in ("th", "td") and re.fullmatch(r"text-align: \w+;", value or "")
            if name == "href":
                assert value is not None and (value.startswith("#") or value in allowed_links), (
                    value
                )
    assert "javascript:" not in " ".join(str(a) for _, a in doc.tags)
    return doc


def test_item16_author_text_never_becomes_html_or_a_link(tmp_path: Path) -> None:
    path = tmp_path / "evil.cardrules"
    path.write_text(EVIL, encoding="utf-8")
    v = load(path)
    page = rulebook(v, settings=[("hook", "no <img src=y onerror=alert(8)>")])
    doc = assert_safe(render(page), {"../kachuful/"})
    text = "".join(doc.text)
    # The author's words are shown, as words.
    assert v.title in text
    assert "[link](javascript:alert(2))" in text
    assert "<b>bold</b>" in text and "`code`" in text
    # The file at the bottom is shown whole, exactly, inside its code block.
    assert "".join(doc.pre).strip("\n") == EVIL.strip("\n")


@pytest.mark.parametrize(
    "comment",
    ["```", "~~~", "````", "  ```", "~~~~~ text", "```` ````", "\t```", "</pre>"],
)
def test_item16_no_fence_in_a_comment_breaks_out_of_the_code_block(comment: str) -> None:
    source = f"# {comment}\n#{comment}\ngame: fenced\nextends: kachuful\n# {comment}\n"
    v = load_text(source)
    doc = assert_safe(render(rulebook(v, engine_examples=False)), {"../kachuful/"})
    # Markdown turns tabs into spaces, at stops of four; nothing else changes.
    assert "".join(doc.pre).strip("\n") == source.expandtabs(4).strip("\n")


def test_item16_a_parent_name_never_becomes_a_script_link() -> None:
    v = cardrules.load("kachuful-zon").evolve(
        parent="javascript:alert(1)", title="Zon <script>x</script>"
    )
    page = rulebook(v, engine_examples=False)
    doc = assert_safe(render(page), set())
    assert "javascript:alert(1)" in "".join(doc.text)
    assert "<script>x</script>" in "".join(doc.text)


def test_item16_the_comparison_page_escapes_titles() -> None:
    evil = cardrules.load("kachuful").evolve(
        name="x", title="<img src=x onerror=alert(1)> [a](javascript:b)"
    )
    doc = assert_safe(render(comparison_page([evil], link="{name}.md")), {"x.md"})
    assert "<img src=x onerror=alert(1)> [a](javascript:b)" in "".join(doc.text)


def test_item16_the_site_navigation_escapes_titles(tmp_path: Path) -> None:
    """The theme puts navigation titles into the HTML as they are, so the hook escapes them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hook", ROOT / "docs/hooks/rulebook_pages.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    base = cardrules.load("kachuful")
    evil = base.evolve(name="evil", parent="kachuful", title="<img src=x onerror=alert(1)>")
    nav = hook._nav([base, evil], tmp_path)
    text = repr(nav)
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text


# --------------------------------------------------------------------------- item 17


def table_after(page: str, heading: str) -> list[list[str]]:
    lines = page.splitlines()
    i = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[i + 1 :]:
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


def test_item17_oh_hell_13_trumps_column_and_quick_facts() -> None:
    v = cardrules.load("oh-hell-13")
    page = rulebook(v, engine_examples=False)
    rows = table_after(page, "### Deal schedule")[1:-1]
    by_size = {int(r[2].split()[0]): r[1] for r in rows}
    assert by_size[13] == "no trumps"
    assert all(label == "turned-up card" for size, label in by_size.items() if size < 13)
    facts = dict(table_after(page, "## At a glance")[1:])
    assert facts["Trumps"] != "turned-up card"
    assert "no trumps" in facts["Trumps"] and "13" in facts["Trumps"]
    # What the engine deals: the 13-card hands have no trumps.
    g = Game(v, players=4, seed=5)
    assert g.hand_size == 13 and g.trump is None and g.turned_up is None


def test_item17_trumps_per_hand_and_player_count() -> None:
    from cardrules.rulebook.page_tables import schedule_rows

    v = cardrules.load("oh-hell", hand_size="largest")
    rows = schedule_rows(v, list(v.players.counts()))
    first = rows[0]
    assert first.cards[4] == 13 and first.trumps_for(4) == "no trumps"
    assert first.trumps_for(3) == "turned-up card" and first.trumps_for(5) == "turned-up card"
    page = rulebook(v, engine_examples=False)
    line = next(x for x in page.splitlines() if x.startswith("| 1 |"))
    assert "no trumps for 4 players" in line


def test_item17_a_whole_pack_every_hand_has_no_trumps() -> None:
    v = load_text(
        "game: whist-ish\nextends: oh-hell\nplayers: 4\nhand size: 13\n"
        "hands: 3 hands of the same size\n"
    )
    page = rulebook(v, engine_examples=False)
    facts = dict(table_after(page, "## At a glance")[1:])
    assert facts["Trumps"] == "none"
    assert "turned-up card" not in page.split("## The variant file")[0]


# --------------------------------------------------------------------------- item 18


def test_item18_face_down_says_every_card_is_seen_as_it_is_played() -> None:
    v = cardrules.load("kazhutha-face-down")
    page = prose(rulebook(v))
    assert "only the players who played them know" not in page
    assert "everyone sees every card as it is played" in page
    assert "the trick just finished" in page
    # The engine: every seat sees the whole trick just finished, not older dead cards.
    from cardrules.rulebook.shed import _plan, _stack

    plan = _plan(v, 4)
    assert plan is not None
    g = Game(v, players=4, first_dealer=0, deck=_stack(plan[0]))
    for c in plan[1]:
        g.apply(Play(c), g.to_act)
    assert g.events[-1][0] == "dead"
    for seat in range(4):
        assert {c for _, c in g.view(seat).last_trick} == set(plan[1])
        assert len(g.view(seat).dead) == 1  # only its own dead card stays in view


# --------------------------------------------------------------------------- item 19


def test_item19_each_tie_rule_says_what_happens() -> None:
    base = cardrules.load("kachuful")

    def winning(page: str) -> str:
        return page.split("## Winning")[1].split("\n## ")[0]

    endless = rulebook(base.evolve(winning=WinRule(TieBreak.EXTRA_HANDS, None)))
    words = winning(endless)
    # Tied players play another hand until one leads alone; the engine's bound
    # (MAX_TIE_HANDS) is not a rule of the game and is not shown as one (issue 25).
    assert "another hand of the largest size" in words and "leads alone" in words
    assert str(MAX_TIE_HANDS) not in words and "unfinished" not in words
    capped = rulebook(base.evolve(winning=WinRule(TieBreak.EXTRA_HANDS, 3)))
    words = winning(capped)
    assert "at most three extra hands" in words and "share the win" in words
    one = rulebook(base.evolve(winning=WinRule(TieBreak.EXTRA_HANDS, 1)), engine_examples=False)
    assert "at most one extra hand" in winning(one)
    shared = rulebook(base.evolve(winning=WinRule(TieBreak.SHARED, None)))
    words = winning(shared)
    assert "share the win" in words and "extra hand" not in words


# --------------------------------------------------------------------------- item 20

WHIST = (
    'game: whist-house\nextends: oh-hell\ntitle: "Whist house rule"\nplayers: 4\n'
    "hand size: 13\nhands: 5 hands of the same size\nbidding: none\nhook: no\n"
    "score: tricks\n"
)


def test_item20_a_whist_style_page_speaks_of_no_bids_and_no_trumps() -> None:
    v = load_text(WHIST)
    page = prose(rulebook(v), differences=False)
    assert not re.search(r"\bbid", page, re.I), re.search(r".{60}\bbid.{60}", page, re.I | re.S)
    assert "hook" not in page.lower()
    no_trumps = re.sub(r"\b(no|without) trumps\b|\| Trumps \| none \|", "", page)
    assert not re.search(r"trump", no_trumps, re.I), re.search(r".{60}trump.{60}", no_trumps, re.I)
    assert "Nobody made" not in page and "exactly the number of tricks" not in page


NO_BID_FORMULAS = ["tricks", "10 - tricks", "tricks * 2 - cards // 3 + hand + players"]
BID_FORMULAS = [
    "if exact then 10 + bid else 0",
    "tricks + (if exact then 10 else 0)",
    "if exact then 10 else -10",
    "if exact then 10 * bid + (if bid = 0 then 10 else 0) else -diff",
    "(if exact then 10 + bid else 0) * (if blind then 2 else 1)",
    "if tricks >= bid then bid + 0.1 * (tricks - bid) else -bid",
]
POINT_FORMULAS = [
    "points",
    "if points = all_points then 0 else if most_points = all_points then all_points else points",
    "tricks + points",
]
TEXTS = st.text(alphabet=string.ascii_letters + " <>&*_[]()`#!{}|:-.", max_size=20)


def _maybe(rule: object, draw: st.DrawFn, **choices: list[object]) -> object:
    """``rule`` with each setting of ``choices`` that the config model has drawn from
    its list (settings the model does not have are left out)."""
    have = {f.name for f in attrs.fields(type(rule))}
    changes = {k: draw(st.sampled_from(v)) for k, v in choices.items() if k in have and v}
    return attrs.evolve(rule, **changes)  # type: ignore[misc]


@st.composite
def valid_variants(draw: st.DrawFn) -> Variant:
    """Configs the validator accepts, built mode by mode so that most of them pass."""
    mode = draw(st.sampled_from(list(Mode)))
    shedding = mode is Mode.SHEDDING
    removed = 0
    for c in draw(st.lists(st.sampled_from(ALL_CARDS), max_size=3)):
        removed |= 1 << c
    deck = 52 - removed.bit_count()
    lo = draw(st.integers(2, 6))
    hi = draw(st.integers(lo, lo + 5))
    first = draw(st.sampled_from(list(FirstDealer)))
    leader = draw(st.sampled_from(list(FirstLeader)))
    pack = [c for c in ALL_CARDS if not removed >> c & 1]
    if leader is FirstLeader.HOLDER or draw(st.booleans()):
        lead_card: Card | None = draw(st.sampled_from(pack))
        lead = draw(st.sampled_from(list(FirstLead)))
    else:
        lead_card, lead = None, FirstLead.ANY
    follow = draw(st.booleans())
    flags = dict(
        must_follow=follow,
        must_trump=follow and draw(st.booleans()),
        must_beat=follow and draw(st.booleans()),
        trump_lead=draw(st.sampled_from(list(TrumpLead))),
    )
    make = getattr(PlayRule, "from_flags", PlayRule)
    play = make(first_leader=leader, lead_card=lead_card, first_lead=lead, **flags)
    common = dict(
        name="random",
        title=draw(TEXTS),
        summary=draw(TEXTS),
        aliases=tuple(draw(st.lists(TEXTS.filter(bool), unique=True, max_size=2))),
        mode=mode,
        players=PlayerRange(lo, hi),
        deck=DeckRule(removed),
        direction=draw(st.sampled_from(list(Direction))),
        dealer=DealerRule(first, draw(st.integers(0, lo - 1)) if first is FirstDealer.SEAT else 0),
        play=play,
        options=tuple(
            draw(st.lists(st.sampled_from(OVERRIDABLE_SETTINGS), unique=True, max_size=4))
        ),
    )
    if shedding:
        word = draw(st.sampled_from(["", "DONKEY", "KAZHUTHA", "X"]))
        return Variant(
            **common,  # type: ignore[arg-type]
            schedule=ScheduleRule(pattern=Pattern.WHOLE_PACK),
            trumps=TrumpRule(kind=TrumpKind.NONE),
            bidding=BiddingRule(style=BidStyle.NONE, hook=False),
            shedding=_maybe(
                SheddingRule(
                    draw(st.sampled_from(list(DeadTricks))),
                    draw(st.sampled_from(list(EndWhenAllOut))),
                ),
                draw,
                loser=list(getattr(rules_module, "ShedLoser", ())),
                loser_tie=list(getattr(rules_module, "LoserTie", ())),
                first_trick_cuts=[True, False],
            ),
            match=MatchRule(word, bool(word) and draw(st.booleans())),
        )
    most = max(1, (deck - 1) // hi)
    pattern = draw(st.sampled_from([p for p in Pattern if p is not Pattern.WHOLE_PACK]))
    size = draw(st.integers(1, min(most, 8)))
    start = draw(
        st.sampled_from(
            [
                HandSizeRule(table=(SizeEntry(1, 52, size),), largest=False),
                HandSizeRule(cap=size),
                HandSizeRule(table=(SizeEntry(lo, lo, size),), cap=max(1, size - 1)),
            ]
        )
    )
    schedule = ScheduleRule(
        start,
        pattern,
        draw(st.integers(1, 4)) if pattern is Pattern.SAME else 1,
        tuple(draw(st.lists(st.integers(1, size), min_size=1, max_size=4)))
        if pattern is Pattern.LIST
        else (),
        draw(st.integers(1, 2)),
    )
    kind = draw(st.sampled_from(list(TrumpKind)))
    every = draw(st.none() | st.integers(2, 5))
    if kind is TrumpKind.FIXED:
        trumps = TrumpRule(kind, suit=draw(st.sampled_from(list(Suit))), no_trump_every=every)
    elif kind is TrumpKind.CYCLE:
        cyc = draw(st.lists(st.none() | st.sampled_from(list(Suit)), min_size=1, max_size=4))
        trumps = TrumpRule(kind, cycle=tuple(cyc), no_trump_every=every)
    else:
        trumps = TrumpRule(kind, no_trump_every=every)
    style = draw(st.sampled_from(list(BidStyle)))
    if style is BidStyle.NONE:
        bidding = BiddingRule(style=style, hook=False)
        formula = draw(st.sampled_from(NO_BID_FORMULAS))
    else:
        in_turn = style is BidStyle.IN_TURN
        bidding = BiddingRule(
            style=style,
            hook=in_turn and draw(st.booleans()),
            min_bid=draw(st.integers(0, 1)),
            max_bid=draw(st.none() | st.integers(1, 8)),
            blind=draw(st.booleans()),
            forehead_sizes=tuple(draw(st.lists(st.integers(1, 3), unique=True, max_size=2))),
            amend=in_turn and draw(st.booleans()),
        )
        if bidding.blind:
            bidding = _maybe(bidding, draw, blind_only=[(), (0,), (0, 1)])
        formula = draw(st.sampled_from(BID_FORMULAS + NO_BID_FORMULAS))
    tie = draw(st.sampled_from(list(TieBreak)))
    card_points: tuple[int, ...] = ()
    if draw(st.booleans()):
        card_points = tuple(draw(st.lists(st.integers(-3, 13), min_size=52, max_size=52)))
        if any(card_points):
            formula = draw(st.sampled_from(POINT_FORMULAS))
        else:
            card_points = ()
    return Variant(
        **common,  # type: ignore[arg-type]
        schedule=schedule,
        trumps=trumps,
        bidding=bidding,
        scoring=ScoringRule(parse_formula(formula), draw(st.booleans()), card_points),
        winning=WinRule(
            tie,
            draw(st.none() | st.integers(1, 5)) if tie is TieBreak.EXTRA_HANDS else None,
            draw(st.none() | st.integers(1, 200)),
        ),
    )


def has_trumps(v: Variant) -> bool:
    """Whether any hand of any allowed count, tie-break hands too, has trumps (from the
    rules: a turned-up trump needs a card left over)."""
    if v.mode is Mode.SHEDDING:
        return False
    t = v.trumps
    for n in v.players.counts():
        sizes = v.hand_sizes(n)
        extra = v.winning.extra_hand_limit
        for h in range(1, len(sizes) + extra + 1):
            size = sizes[h - 1] if h <= len(sizes) else max(sizes)
            if t.is_turn_up_hand(h):
                if size * n < v.deck.size:
                    return True
            elif t.fixed_trump(h) is not None:
                return True
            elif t.kind is TrumpKind.DEALERS_CARD and not (
                t.no_trump_every and h % t.no_trump_every == 0
            ):
                return True  # the dealer's own last card, always there
    return False


#: Sentences a page may only hold when its config has the feature.
def mentions(v: Variant, text: str) -> list[str]:
    """The features ``text`` speaks of that ``v`` does not have."""
    wrong = []
    low = text.lower()
    in_turn = v.has_bidding and v.bidding.style is BidStyle.IN_TURN
    if not v.has_bidding:
        for word in (r"\bbid", "blind", "forehead", "hook"):
            if re.search(word, low):
                wrong.append(word)
    if not (in_turn and v.bidding.hook) and "hook" in low:
        wrong.append("hook")
    if v.has_bidding and not v.bidding.blind and "blind" in low:
        wrong.append("blind")
    only = getattr(v.bidding, "blind_only", ())
    if v.has_bidding and v.bidding.blind and not only and "but only a bid of" in low:
        wrong.append("blind only")
    if v.has_bidding and not v.bidding.amend and re.search(r"change (your|a) bid", low):
        wrong.append("amend")
    no_trumps = re.sub(r"\b(no|without) trumps\b|\| trumps \| none \|", "", low)
    if not has_trumps(v) and re.search(r"trump", no_trumps):
        wrong.append("trump")
    if v.mode is Mode.SHEDDING:
        for word in ("## scoring", "scoring table", "worked hand", "extra hand"):
            if word in low:
                wrong.append(word)
        if getattr(v.shedding, "first_trick_cuts", True) and "does not cut" in low:
            wrong.append("no cut on the first trick")
        most = getattr(getattr(v.shedding, "loser", None), "name", "") == "MOST_CARDS"
        if most and "play goes on until at most one player" in low:
            wrong.append("last player holding cards")
        if not most and "most cards" in low:
            wrong.append("most cards")
        if not v.match.word and "letter" in low:
            wrong.append("letter")
    elif v.winning.tie is TieBreak.SHARED and "extra hand" in low:
        wrong.append("extra hand")
    shed = v.mode is Mode.SHEDDING
    if (shed or not v.scoring.card_points) and "carry points" in low:
        wrong.append("card points")
    if (shed or v.winning.target is None) and ("or sooner" in low or "when the game ends" in low):
        wrong.append("target")
    if not v.play.must_beat and re.search(r"\bbeat", low):
        wrong.append("beat")
    if not v.play.must_trump and "must play a trump" in low:
        wrong.append("must play a trump")
    if not v.play.must_follow and "must follow" in low:
        wrong.append("must follow")
    if v.play.trump_lead is TrumpLead.ANY_TIME and "may not lead a trump" in low:
        wrong.append("trumps broken")
    for bad in (
        r"(?<![\d.])1 (cards|tricks|hands|players|letters|points)\b",
        r"\bone (cards|tricks|hands|players|letters)\b",
        r"(?<![\d.])1 extra hands\b",
        r"\b(\d+) (to|or) \1 players\b",
    ):
        found = re.search(bad, text)
        if found:
            wrong.append(found.group(0))
    return wrong


@settings(
    max_examples=70,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(valid_variants(), st.booleans())
def test_item20_pages_of_random_valid_configs_mention_only_their_features(
    v: Variant, one_count: bool
) -> None:
    try:
        validate(v)
    except VariantError:
        assume(False)
    players = v.players.max if one_count else None
    page = rulebook(v, players=players)
    # The generator's words only: the title, other names and summary are the author's.
    words = prose(page)[page.index("\n## ") :]
    wrong = mentions(v, words)
    assert not wrong, (wrong, page)


# --------------------------------------------------------------------------- item 21


def _one_hand(v: Variant, ex: object) -> Variant:
    from cardrules.rulebook.play_examples import PlayExample

    assert isinstance(ex, PlayExample)
    if v.mode is Mode.SHEDDING:
        return v
    start = HandSizeRule(table=(SizeEntry(ex.players, ex.players, ex.cards),), largest=False)
    # The trump order stays (a pack with jokers needs it to rank them).
    trumps = (
        TrumpRule(kind=TrumpKind.NONE)
        if ex.trump is None
        else TrumpRule(kind=TrumpKind.FIXED, suit=ex.trump, order=v.trumps.order)
    )
    # The page's cases are of a hand as dealt: no pass of cards before it.
    return v.evolve(
        schedule=ScheduleRule(start=start, pattern=Pattern.SAME, count=1),
        trumps=trumps,
        passing=PassRule(),
    )


def _bid_through(g: Game) -> None:
    """Everyone bids (openly, the lowest bid allowed) until play begins; in an
    auction with no bid left above the highest, a seat passes."""
    while g.phase == "bid":
        seat = g.to_act if g.to_act is not None else min(g.waiting_for)
        actions = g.legal_actions(seat)
        if Look() in actions:
            g.apply(Look(), seat)
            actions = g.legal_actions(seat)
        g.apply(next((a for a in actions if type(a) is Bid and not a.blind), actions[-1]), seat)


CARD_RE = re.compile(r"the (10|[2-9JQKA])([♠♥♦♣])")


def _cards_named(text: str) -> list[Card]:
    return [card(r + s) for r, s in CARD_RE.findall(text)]


def replay(v: Variant, page: str) -> int:
    """Play every example of ``page`` through a fresh Game; return how many were checked."""
    from cardrules.rulebook.play_examples import play_examples, seat_names

    checked = 0
    for ex in play_examples(v):
        # The page says it, in these words.
        line = next(x for x in page.splitlines() if x.startswith("- ") and ex.text in x)
        verdict = re.search(
            r"(?P<who>[A-Z][\w ]*?) holds (?P<held>[^:]*): (?P=who) may play (?P<ok>.+?)"
            r"(?:, but not (?P<no>.+?))?(?: \((?P<why>[^)]*)\))?\.$",
            line,
        )
        assert verdict is not None, line
        names = seat_names(ex.players)
        assert verdict["who"] == names[ex.seat]
        ok = _cards_named(verdict["ok"])
        no = _cards_named(verdict["no"] or "")
        assert {c for c, legal in ex.checks if legal} == set(ok), line
        assert {c for c, legal in ex.checks if not legal} == set(no), line
        # The engine agrees.
        g = Game(_one_hand(v, ex), players=ex.players, deck=list(ex.deck), first_dealer=ex.dealer)
        _bid_through(g)
        for seat, c in ex.plays:
            assert g.to_act == seat, line
            g.apply(Play(c), g.to_act)
        assert g.to_act == ex.seat, line
        held = _cards_named(verdict["held"])
        # (several packs: a copy of a card is held as its card)
        assert set(held) <= {c.base for c in g.hand(ex.seat)}, line
        if "among others" not in verdict["held"]:
            assert set(held) == set(g.hand(ex.seat)), line
        legal = {a.card for a in g.legal_actions() if isinstance(a, Play)}
        for c, expected in ex.checks:
            assert (c in legal) is expected, (line, c)
        checked += 1
    return checked


@pytest.mark.parametrize("v", BUILTINS, ids=ids(BUILTINS))
def test_item21_every_play_example_of_a_builtin_page_replays(v: Variant) -> None:
    page = rulebook(v)
    assert replay(v, page) >= 2


#: Every ``follow:`` and ``leading trumps:`` line a variant file may write.
FOLLOW_LINES = [
    (follow, lead)
    for follow in (
        "must follow suit",
        "any card",
        "must follow suit, must trump when void",
        "must follow suit, must beat when able",
        "must follow suit, must trump when void, must beat when able",
    )
    for lead in ("any time", "once broken")
]


@pytest.mark.parametrize("lines", FOLLOW_LINES, ids=[f"{f}|{t}" for f, t in FOLLOW_LINES])
def test_item21_every_follow_rule_example_replays(lines: tuple[str, str]) -> None:
    follow, lead = lines
    for name in ("kachuful", "callbreak", "kazhutha", "kazhutha-neighbour-leads"):
        text = f"game: x\nextends: {name}\nfollow: {follow}\n"
        if not name.startswith("kazhutha"):
            text += f"leading trumps: {lead}\n"
        v = load_text(text)
        page = rulebook(v)
        assert replay(v, page) >= 2, name
        words = prose(page, differences=False)
        if "must trump" in follow or "must beat" in follow:
            assert "a trump or not" not in words, name
        if "must follow" not in follow:
            assert "must follow" not in words


#: Play rules written as card-set lists (``follow:``, ``lead:``, ``first trick:``,
#: ``broken by:``), which the page words set by set.
LIST_RULES = [
    "game: l1\nextends: oh-hell\nfollow: suit led and higher than 9, otherwise suit led, "
    "otherwise trumps and winning, otherwise any card\nlead: any card except unbroken hearts, "
    "otherwise any card\nfirst trick: not hearts\nbroken by: void play\n",
    "game: l2\nextends: callbreak\nfollow: suit led and winning, otherwise suit led, otherwise "
    "trumps and winning, otherwise not trumps\n",
    "game: l3\nextends: kazhutha\nfollow: suit led and winning, otherwise suit led, otherwise "
    "any card\n",
    "game: l4\nextends: kachuful\nfollow: suit led, otherwise trumps, otherwise any card\n"
    "lead: not unbroken trumps\n",
    "game: l5\nextends: kazhutha\nfirst trick: not hearts\n",
]


@pytest.mark.parametrize("text", LIST_RULES, ids=[t.split("\n")[0] for t in LIST_RULES])
def test_item21_card_set_list_examples_replay(text: str) -> None:
    v = load_text(text)
    page = rulebook(v)
    assert replay(v, page) >= 2
    words = prose(page, differences=False)
    assert "a trump or not" not in words and "You need not follow suit" not in words
    assert "When you follow to a trick, you must play" in words


def test_item21_callbreak_says_a_void_player_must_beat_by_trumping() -> None:
    """Callbreak (must follow, must beat): a void player holding a trump that beats the
    trick must play it; the page never also says "any card, a trump or not"."""
    v = cardrules.load("callbreak")
    page = prose(rulebook(v), differences=False)
    assert "a trump or not" not in page
    if v.play.must_trump:
        assert "you must play a trump" in page
    else:
        assert "hold a trump that would win the trick so far" in page
        assert "you must play such a trump" in page


def test_item21_blind_bids_never_compare_a_score_with_itself() -> None:
    v = cardrules.load("kachuful-blind", score="if exact then 10 + bid else 0")
    page = rulebook(v, engine_examples=False)
    for a, b in re.findall(r"scores (-?[\d.]+) \(instead of (-?[\d.]+)\)", page):
        assert a != b
    assert "rewards" not in page
    assert "same as" in page
    real = rulebook(cardrules.load("kachuful-blind"), engine_examples=False)
    assert "an exact blind bid of 1 scores 22 (instead of 11)" in real


def test_item21_blind_only_some_bids_and_shedding_house_rules() -> None:
    """Blind nil: the page names the one blind bid and compares its score truly. A
    shedding game whose first trick has no cuts, or whose loser is the most cards when
    the first player goes out, says so, and its examples replay."""
    nil = load_text("game: nil\nextends: kachuful-blind\nblind bids: only 0\n")
    page = rulebook(nil, engine_examples=False)
    assert "but only a bid of 0" in page
    assert "an exact blind bid of 0 scores 20 (instead of 10)" in page
    assert "scores the same as an open one" not in page
    no_cut = load_text("game: s1\nextends: kazhutha\ncuts on the first trick: no\n")
    page = rulebook(no_cut)
    assert "does not cut: their card joins the trick, which goes on" in page
    assert replay(no_cut, page) >= 2
    most = load_text(
        "game: s2\nextends: kazhutha\nloser: most cards when the first goes out, ties first "
        "in turn\n"
    )
    page = rulebook(most)
    assert "The game ends as soon as a player goes out" in page
    assert "Play goes on until at most one player holds cards" not in prose(page, differences=False)
    assert replay(most, page) >= 2


# --------------------------------------------------------------------------- item 22


def test_item22_a_users_file_page_shows_commands_that_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "my house.cardrules"
    path.write_text("game: mine\nextends: kachuful\noptions: hook, hand size\n", encoding="utf-8")
    v = load(path)
    page = rulebook(v)
    options = page.split("## Options")[1].split("## ")[0]
    assert "cardrules rules mine" not in options and 'load("mine"' not in options
    shell = re.search(r"`(cardrules rules .+? --set hook=VALUE)`", options)
    python = re.search(r"`(cardrules\.load\(.+?, hook=VALUE\))`", options)
    assert shell is not None and python is not None
    # Both work, VALUE given.
    import shlex

    argv = shlex.split(shell.group(1).replace("VALUE", "no"))
    assert main(argv[1:]) == 0
    assert "the dealer may bid any number" in capsys.readouterr().out.lower()
    loaded = eval(python.group(1).replace("VALUE", '"no"'), {"cardrules": cardrules})
    assert loaded.bidding.hook is False
    # A built-in's page still names the built-in.
    assert "`cardrules rules kachuful --set hook=VALUE`" in rulebook(cardrules.load("kachuful"))


@pytest.mark.parametrize(
    "text",
    [
        # A no-op line of the file itself is an error now (issue 11), so the shedding
        # cases inherit theirs from a trick-taking parent that turned into a shedding
        # game, where they only warn.
        "game: low\nextends: shed-parent\n",
        "game: same\nextends: kachuful\n"
        "hand size: 10 for 3 to 5 players, 8 for 6 players, 7 for 7 players, largest\n",
        "game: same\nextends: shed-parent-broken\n",
    ],
)
def test_item22_no_internal_field_name_on_a_page(text: str, tmp_path: Path) -> None:
    (tmp_path / "shed-parent.cardrules").write_text(
        "game: shed-parent\nextends: oh-hell\nwinner: lowest total\n", encoding="utf-8"
    )
    (tmp_path / "shed-parent-broken.cardrules").write_text(
        "game: shed-parent-broken\nextends: oh-hell-trumps-broken\n", encoding="utf-8"
    )
    shed = (
        "mode: shedding\nhands: whole pack\ntrumps: none\nbidding: none\n"
        "first lead: holder of A♠ leads it\n"
    )
    if "shed-parent" in text:
        text += shed
    try:
        v = load_text(text, search=[tmp_path])
    except VariantError as e:
        pytest.fail(f"the file should load: {e}")
    page = rulebook(v, engine_examples=False).split("## Options")[0].split("## The variant file")[0]
    found = re.search(r".{0,40}\b[a-z]+\.[a-z_]+\b.{0,40}", page)
    assert found is None, found
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", page)
    if "shed-parent" not in text:
        assert "makes no difference in play" in page


def test_item22_one_card_and_one_count_in_words() -> None:
    v = load_text(
        "game: tiny\nextends: oh-hell\nplayers: 3\nhand size: 1\n"
        "hands: 2 hands of the same size\ntie: extra hands, at most 1\n"
    )
    page = rulebook(v)
    assert not re.search(r"\b1 cards\b", page), re.search(r".{40}\b1 cards.{40}", page)
    assert not re.search(r"\b3 (to|or) 3 players\b", page)
    assert "1 extra hands" not in page
