"""Regression tests for the bugs the trial of issue 23 met (each failed before its fix)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.cli import main

STREAK_FILE = """\
extends: oh-hell
game: oh-hell-streak
counter streak: if exact then streak + 1 else 0
score: tricks + (if exact then 10 + streak else 0)
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_page_of_a_score_reading_a_counter(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`cardrules rules` used to exit 1 ("uses 'streak', but no value was given")."""
    path = tmp_path / "streak.cardrules"
    path.write_text(STREAK_FILE, encoding="utf-8")
    assert run(capsys, "check", str(path))[0] == 0
    code, page, err = run(capsys, "rules", str(path))
    assert code == 0, err
    # the page says the counter is kept, starts at 0, and how it changes
    assert "running count for each player, starting at 0" in page
    assert "**streak**: after each hand, it becomes 0, or your streak" in page
    assert "plus 10 plus your streak (the count as it stood before the hand)" in page
    # and it claims nothing the counter could make false
    assert "take exactly the number of tricks you bid;" not in page


def _tie_section() -> str:
    text = (Path(__file__).parents[1] / "docs" / "dsl.md").read_text(encoding="utf-8")
    start = text.index("### `tie:`")
    return text[start : text.index("\n### ", start + 1)]


def test_tie_rule_docs_pages_and_engine_say_one_thing() -> None:
    """docs/dsl.md said "extra hands (at most 20)" and a capped tie shared the win; the
    engine plays up to MAX_TIE_HANDS extra hands and then ends unfinished, no winner."""
    from cardrules import Game, load
    from cardrules.rulebook.words import tie_phrase
    from cardrules.rules import MAX_TIE_HANDS

    section = " ".join(_tie_section().split())
    assert "at most 20" not in section
    assert f"through {MAX_TIE_HANDS} extra hands" in section
    assert "unfinished, with no winner" in section
    assert "stops after N extra hands (N from 1 to 1,000) and those still tied share" in section
    # the page of the default says what the players do, in the game's words; the
    # engine's bound is no rule of the game and is not shown as one (issue 25)
    page = tie_phrase(load("oh-hell"))
    assert "another hand of the largest size" in page and "until one player leads alone" in page
    assert str(MAX_TIE_HANDS) not in page and "unfinished" not in page
    assert "share the win" in tie_phrase(load("oh-hell", tie="extra hands, at most 3"))
    # and the engine: everyone scores 0, so the tie never breaks
    g = Game(load("oh-hell", score="0", hands="list 1"), players=3, seed=1)
    while not g.is_over:
        seat = min(g.waiting_for)
        g.apply(g.legal_actions(seat)[0], seat=seat)
    assert g.extra_hands == MAX_TIE_HANDS
    assert g.result is not None and not g.result.finished and g.result.winners == ()


def test_hook_refusal_says_one_trick() -> None:
    """The hook's refusal said "the bids would add up to 1 tricks"."""
    from cardrules import Game, load
    from cardrules.engine.actions import Bid
    from cardrules.errors import IllegalAction

    g = Game(load("oh-hell", hands="list 1"), players=3, seed=1)
    for _ in range(2):  # the two players before the dealer bid 0
        g.apply(Bid(0), seat=min(g.waiting_for))
    dealer = min(g.waiting_for)
    with pytest.raises(IllegalAction) as caught:
        g.apply(Bid(1), seat=dealer)
    assert caught.value.code == "hook"
    assert "would add up to 1 trick, the number of tricks" in str(caught.value)


def test_counts_in_messages_agree_with_their_number() -> None:
    """One helper writes a count and its noun; a range of one count is that count."""
    from cardrules.counted import count_range, counted

    assert [counted(k, "trick") for k in (0, 1, 2)] == ["0 tricks", "1 trick", "2 tricks"]
    assert counted(1_000, "card") == "1,000 cards"
    assert count_range(3, 3, "player") == "3 players"
    assert count_range(3, 7, "player") == "3 to 7 players"
    assert count_range(1, 1, "copy", "copies") == "1 copy"


@pytest.mark.parametrize(
    "call",
    ["game", "simulate", "observation_layout", "openspiel"],
)
def test_a_game_of_one_count_of_players_is_not_for_3_to_3(call: str) -> None:
    """Messages naming the players a game allows said "for 3 to 3 players"."""
    from cardrules import Game
    from cardrules.dsl.loader import load_text
    from cardrules.errors import CardrulesError

    v = load_text("extends: oh-hell\ngame: oh-hell-3-only\nplayers: 3\n")
    with pytest.raises((CardrulesError, ValueError)) as caught:
        if call == "game":
            Game(v, players=4)
        elif call == "simulate":
            from cardrules.simulate import simulate

            simulate(v, players=4, games=1)
        elif call == "observation_layout":
            from cardrules.engine.views.observation_vector import observation_layout

            observation_layout(v, 4)
        else:
            pytest.importorskip("pyspiel")
            from cardrules.openspiel import load_game

            load_game(v, players=4, name="oh_hell_3_only")
    assert "3 to 3" not in str(caught.value)
    assert "for 3 players" in str(caught.value)


def test_a_per_table_child_gets_no_warnings_about_its_parents_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A child of a built-in for one table got "the game is for 3 to 3 players" and an
    inherited `hand size` warning pointing into the built-in file."""
    path = tmp_path / "three.cardrules"
    path.write_text("extends: oh-hell\ngame: oh-hell-three\nplayers: 3\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(path))
    assert code == 0 and out == f"{path}: ok, oh-hell-three (extends oh-hell)\n"
    assert err == ""  # the rows for 6 and 7 players: the child meant it, the parent is fine
    path.write_text(
        "extends: oh-hell\ngame: oh-hell-three\nplayers: 3\nhands: list 10, 9, 8\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "check", str(path))
    assert code == 0
    # one warning, at the child's own `hands:` line, naming the inherited line
    (warning,) = err.rstrip("\n").split("\n")
    assert warning.startswith(f"warning: {path}:4: `hand size` has no effect")
    assert "inherited from oh-hell.cardrules, line " in warning
    assert "variants" not in warning and "3 to 3" not in warning


def test_a_warning_the_parent_has_on_its_own_is_kept(tmp_path: Path) -> None:
    """A file's warnings are its parent's and those its own lines make: what the
    parent's own lines idle stays a warning at the parent's line."""
    from cardrules.dsl.loader import load_text
    from cardrules.dsl.validate import check_warnings

    (tmp_path / "base.cardrules").write_text(
        "extends: oh-hell-trumps-broken\ngame: base\ntrumps: none\n", encoding="utf-8"
    )
    (tmp_path / "rows.cardrules").write_text(
        "extends: oh-hell\ngame: rows\nplayers: 3 to 5\n"
        "hand size: 10 for 3 to 5 players, 8 for 6 players\n",
        encoding="utf-8",
    )
    for parent, setting, line in (("base", "leading trumps", 3), ("rows", "hand size", 4)):
        alone = load_text(
            (tmp_path / f"{parent}.cardrules").read_text(encoding="utf-8"),
            path=str(tmp_path / f"{parent}.cardrules"),
        )
        v = load_text(
            f'extends: "{parent}.cardrules"\ngame: child\nhook: no\n',
            path=str(tmp_path / "child.cardrules"),
            search=tmp_path,
        )
        assert check_warnings(v) == check_warnings(alone)
        (w,) = check_warnings(v)
        assert (w.setting, w.path, w.line) == (setting, str(tmp_path / f"{parent}.cardrules"), line)
    # and a grandchild of a per-table file sees nothing its parent did not
    (tmp_path / "three.cardrules").write_text(
        "extends: oh-hell\ngame: three\nplayers: 3\n", encoding="utf-8"
    )
    v = load_text(
        'extends: "three.cardrules"\ngame: child\nhook: no\n',
        path=str(tmp_path / "child.cardrules"),
        search=tmp_path,
    )
    assert check_warnings(v) == ()


def _events_doc() -> str:
    return (Path(__file__).parents[1] / "docs" / "events.md").read_text(encoding="utf-8")


def test_every_public_event_class_is_described_in_the_docs() -> None:
    """Named trumps arrive as a MadeEvent that no page described: every event class a
    user can receive has a row in docs/events.md with its kind and its fields."""
    import attrs

    from cardrules.engine import events

    doc = _events_doc()
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| `(\w+Event)` \| `\"([^\"]+)\"` \| ([^|]*) \|", doc, re.M)
    }
    public = [
        name
        for name in events.__all__
        if isinstance(getattr(events, name), type)
        and issubclass(getattr(events, name), events.Event)
        and getattr(events, name) is not events.Event
    ]
    assert sorted(public) == sorted(events.EVENT_TYPES[k].__name__ for k in events.EVENT_TYPES)
    assert sorted(rows) == sorted(public)
    for name in public:
        cls = getattr(events, name)
        kind, fields = rows[name]
        assert kind == cls.kind, name
        shown = [f.strip(" `") for f in fields.split(",")]
        assert shown == [f.name for f in attrs.fields(cls) if f.name != "version"], name


def test_the_events_page_example_runs() -> None:
    """The page's example of a hand whose trumps a player makes runs as written."""
    doc = _events_doc()
    section = doc[doc.index("### Every kind of event") :]
    (code,) = re.findall(r"^```python\n(.*?)^```", section.split("\n## ", 1)[0], re.M | re.S)
    exec(compile(code, "docs/events.md", "exec"), {"__name__": "events_doc"})


def test_stacked_decks_are_documented_with_a_running_example() -> None:
    """`Game(deck=...)` was documented only in a docstring."""
    root = Path(__file__).parents[1]
    records = (root / "docs" / "records.md").read_text(encoding="utf-8")
    section = records[records.index("## Stacked decks: dealing the cards you choose") :]
    (code,) = re.findall(r"^```python\n(.*?)^```", section, re.M | re.S)
    exec(compile(code, "docs/records.md", "exec"), {"__name__": "records_doc"})
    index = (root / "docs" / "index.md").read_text(encoding="utf-8")
    assert "records.md#stacked-decks-dealing-the-cards-you-choose" in index
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert 'first_dealer=3, deck="A♠ K♠ Q♠ J♠")` deals them one at a time' in readme
    # the one-line example both pages give does what they say
    from cardrules import Game, load
    from cardrules.cards import card

    g = Game(load("oh-hell"), players=4, first_dealer=3, deck="A♠ K♠ Q♠ J♠")
    assert [card(c) in g.view(s).hand for s, c in enumerate(["A♠", "K♠", "Q♠", "J♠"])] == [True] * 4


# --------------------------------------------------------------------------- fmt --upgrade

OLD_HOUSE = "game: old-house\nextends: oh-hell\nhand size: 7\nhands: list 7, 6, 5\n"


def test_an_old_file_is_refused_with_a_pointer_to_the_upgrade(tmp_path: Path) -> None:
    """`hand size: N` beside `hands: list N` loaded before the no-op rule; it is refused
    now, and the refusal says how to upgrade the file."""
    from cardrules.dsl.loader import load_text
    from cardrules.errors import VariantError

    with pytest.raises(VariantError) as refused:
        load_text(OLD_HOUSE, path="old-house.cardrules")
    assert refused.value.line == 3
    assert "`cardrules fmt --upgrade --write old-house.cardrules`" in str(refused.value)


def test_fmt_upgrade_as_the_docs_show_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "dsl.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Upgrading an older file") :].split("\n## ", 1)[0]
    old, session = re.findall(r"^```text\n(.*?)^```", section, re.M | re.S)
    assert old.split("\n", 1)[1] == OLD_HOUSE
    (tmp_path / "old-house.cardrules").write_text(old, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    command, *shown = session.rstrip("\n").split("\n")
    assert main(command.split()[2:]) == 0
    out, err = capsys.readouterr()
    assert err + out == "\n".join(shown) + "\n"
    # --check says the file needs it; --write saves it, and then it checks ok
    assert main(["fmt", "--upgrade", "--check", "old-house.cardrules"]) == 1
    assert main(["fmt", "--upgrade", "--write", "old-house.cardrules"]) == 0
    assert main(["check", "old-house.cardrules"]) == 0
    assert main(["fmt", "--upgrade", "--check", "old-house.cardrules"]) == 0
    capsys.readouterr()


def test_fmt_upgrade_notes_the_tie_rule_and_reads_no_other_file(tmp_path: Path) -> None:
    from cardrules.dsl.upgrade import upgrade_source

    text = 'game: h\nextends: "base.cardrules"\nhand size: 7\nhands: list 7, 6\ntie: extra hands\n'
    # base.cardrules exists nowhere: only the file's own text decides
    out, notes = upgrade_source(text, path=str(tmp_path / "h.cardrules"))
    assert [(n.line, n.changed) for n in notes] == [(3, True), (5, False)]
    assert "at most 20" in notes[1].message
    assert "# deleted by cardrules fmt --upgrade, as it changed nothing: hand size: 7" in out
    assert "tie: extra hands\n" in out
    assert upgrade_source(out, path="h.cardrules")[0] == out  # nothing more to do
    # a parent that cannot be found: the text's own upgrade, and `check` says the rest
    unknown = text.replace('"base.cardrules"', "no-such-game")
    assert [n.line for n in upgrade_source(unknown, path="h.cardrules")[1]] == [3, 5]


#: Lines that change nothing beside the first line of their group (each was accepted
#: before the no-op rule): the upgrade must delete exactly the idle ones.
IDLE_GROUPS = (
    ("hands: list 5, 4, 3", "hand size: 7"),
    ("trumps: none", "leading trumps: once broken", "no trumps: every 3rd hand"),
    ("bidding: none", "score: tricks", "hook: yes", "bids: 0 to the hand size"),
)


def _resolve_unchecked(text: str) -> object:
    """The variant a file meant before the no-op rule: resolved, not validated."""
    from cardrules.dsl.loader import _Loader
    from cardrules.dsl.parser import parse_file

    loader = _Loader([])
    pf = parse_file(text, path="house.cardrules")
    loader.sources["house.cardrules"] = pf.text
    return loader.resolve(pf, None, None, ())


def _log(variant: object, players: int, seed: int) -> list[tuple[object, ...]]:
    import random

    from cardrules import Game

    g = Game(variant, players, seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not g.is_over:
        seat = min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
    return [ev.astuple() for ev in g.events]


@settings(max_examples=25, deadline=None)
@given(
    groups=st.lists(st.sampled_from(IDLE_GROUPS), min_size=1, max_size=3, unique=True),
    seed=st.integers(0, 2**16),
)
def test_an_upgraded_file_loads_and_plays_as_the_old_one_did(
    groups: list[tuple[str, ...]], seed: int
) -> None:
    from cardrules.dsl.loader import load_text
    from cardrules.dsl.upgrade import upgrade_source

    lines = [line for group in groups for line in group]
    text = "game: house\nextends: oh-hell\n" + "".join(f"{line}\n" for line in lines)
    old = _resolve_unchecked(text)
    out, notes = upgrade_source(text, path="house.cardrules")
    new = load_text(out, path="house.cardrules")  # valid now
    kept = [line for line in out.split("\n") if line and not line.startswith("#")]
    deleted = [n.line for n in notes if n.changed]
    # only lines after the first of their group were idle, and every one left does work
    assert all(text.split("\n")[n - 1] not in {g[0] for g in groups} for n in deleted)
    assert len(kept) + len(deleted) == len(lines) + 2
    assert _log(new, 3, seed) == _log(old, 3, seed)
