"""Every built-in page speaks only of what its game has, its worked hand's summary
agrees with its scores, and a game played to a target never presents its hands
bound as its length (issue 25, items 2 and 4)."""

from __future__ import annotations

import functools
import re

import pytest

from cardrules.rulebook import builtin_variants, comparison_page, rulebook
from cardrules.rulebook.hand_trumps import has_trumps
from cardrules.rulebook.length import length_is_a_guard, play_to, status_length
from cardrules.rules import Variant

BUILTINS = {v.name: v for v in builtin_variants()}

#: Sections that speak of other games (variations, sources) or quote the file.
_OTHER_GAMES = ("Variations", "Sources", "The variant file", "Options", "Differences")


@functools.cache
def _page(name: str) -> str:
    return rulebook(BUILTINS[name])


def _prose(page: str) -> str:
    """The page's own sentences: no code, no folded text, no sections on other games."""
    page = re.sub(r"```.*?```", "", page, flags=re.S)
    page = re.sub(r"<details.*?</details>", "", page, flags=re.S)
    out, skip = [], False
    for line in page.splitlines():
        if line.startswith("## "):
            skip = any(k in line for k in _OTHER_GAMES)
        if not skip:
            out.append(line)
    return "\n".join(out)


def _sentences(page: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n", _prose(page)) if s.strip()]


def _lacks(v: Variant, sentence: str) -> str | None:
    """The feature ``sentence`` speaks of that ``v`` does not have, or ``None``."""
    if not v.has_bidding and re.search(r"\bbid(s|ding|der)?\b", sentence, re.I):
        return "bidding"
    counts = list(v.players.counts())
    if (
        not has_trumps(v, counts)
        and re.search(r"\btrumps?\b", sentence, re.I)
        and not re.search(r"\bno trumps?\b|\bnone\b|without trumps", sentence, re.I)
    ):
        return "trumps"
    if not v.passing.count and re.search(
        r"\bcards? to pass\b|\bpass(ing|es)? cards\b|passed cards", sentence, re.I
    ):
        return "passing"
    return None


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_no_sentence_speaks_of_a_feature_the_game_lacks(name: str) -> None:
    v = BUILTINS[name]
    wrong = [(what, s) for s in _sentences(_page(name)) if (what := _lacks(v, s))]
    assert not wrong, wrong


def test_the_sentence_check_catches_the_reported_ones() -> None:
    kazhutha = BUILTINS["kazhutha"]
    said = "The rest of the game is played out, each player taking the lowest bid."
    assert _lacks(kazhutha, said) == "bidding"
    assert _lacks(BUILTINS["hearts"], "Spades are trumps.") == "trumps"
    assert _lacks(BUILTINS["oh-hell"], "Everyone chooses 3 cards to pass.") == "passing"
    assert _lacks(BUILTINS["hearts"], "There are no trumps.") is None


def _score_table(page: str) -> list[list[str]]:
    """The worked hand's score table: rows of player, bid, tricks, points, total."""
    part = page.split("## A worked hand", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in part.splitlines() if ln.startswith("| ") and "Running total" not in ln]
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines if "---" not in ln]


def _worked_pages() -> list[str]:
    return sorted(n for n in BUILTINS if "## A worked hand" in _page(n))


@pytest.mark.parametrize("name", _worked_pages())
def test_every_worked_hand_summary_agrees_with_its_scores(name: str) -> None:
    page, v = _page(name), BUILTINS[name]
    part = page.split("## A worked hand", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in _score_table(page) if len(r) == 5]
    if not rows:  # no bids column: nothing to summarise
        return
    exact = {r[0] for r in rows if r[1] not in ("—", "pass") and r[1] == r[2]}
    said = re.search(r"^Exact bids: (.*)\.$", part, re.M)
    if said:
        named = set(re.split(r", | and ", said.group(1)))
        assert named == exact, (named, exact)
        assert not v.teams
    if "Nobody made their bid exactly" in part:
        assert not exact and not v.teams
    for m in re.finditer(r"(\w+(?:, \w+)*(?: and \w+)?) bid (\d+) together and took (\d+)", part):
        members = re.split(r", | and ", m.group(1))
        by = {r[0]: r for r in rows}
        bid = sum(int(by[p][1]) for p in members if by[p][1].isdigit())
        took = sum(int(by[p][2]) for p in members)
        assert (bid, took) == (int(m.group(2)), int(m.group(3))), m.group(0)


def test_spades_worked_hand_does_not_say_nobody_made_their_bid() -> None:
    """Regression: the Spades worked hand said "Nobody made their bid exactly"
    although a side made 7 on 5."""
    part = _page("spades").split("## A worked hand", 1)[1].split("\n## ", 1)[0]
    assert "made their bid exactly" not in part and "Exact bids" not in part
    assert "together and took" in part


def test_kazhutha_example_speaks_of_the_base_game_only() -> None:
    """Regression: Kazhutha's worked example spoke of bids and ended with the
    loser-deals house rule ("Seat 3 deals the next game")."""
    page = _prose(_page("kazhutha"))
    assert "lowest bid" not in page and "deals the next game" not in page
    assert "deals the next game" in _prose(_page("kazhutha-loser-deals"))


def test_no_page_calls_a_game_by_another_built_in_game_s_name() -> None:
    """Regression: Kachuful's page said "Also called Judgement", a separate game here."""
    for name in BUILTINS:
        titles = {v.title for v in BUILTINS.values() if v.title and v.name != name}
        line = next((ln for ln in _page(name).splitlines() if ln.startswith("*Also called")), "")
        names = set(re.split(r", | or ", line.removeprefix("*Also called ").removesuffix(".*")))
        assert not names & titles, (name, line)
    assert "*Also called Kachufool or Kachoofool.*" in _page("kachuful")


# --------------------------------------------------------------------------- item 2


def test_the_guard_is_decided_from_the_settings() -> None:
    guarded = {n for n, v in BUILTINS.items() if length_is_a_guard(v)}
    assert {"hearts", "spades", "euchre", "whist", "five-hundred"} <= guarded
    for n in guarded:
        assert BUILTINS[n].winning.target is not None
    assert not guarded & {"kachuful", "oh-hell", "callbreak", "knockout-whist", "kazhutha"}
    assert status_length(BUILTINS["hearts"], 3, 20) == " · play to 100"
    assert status_length(BUILTINS["kachuful"], 20, 19) == " (tie-break)"
    assert play_to(BUILTINS["oh-hell"]) is None


@pytest.mark.parametrize("name", sorted(n for n, v in BUILTINS.items() if length_is_a_guard(v)))
def test_no_page_presents_a_safety_bound_as_the_game_s_length(name: str) -> None:
    v = BUILTINS[name]
    bound = v.schedule.count
    prose = _prose(_page(name))
    assert not re.search(rf"\b{bound} hands\b", prose), name
    assert not re.search(rf"\| \**Hands in a game\** \|[^\n]*\b{bound}\b", prose), name
    assert f"reaches {v.winning.target} point" in prose
    assert not re.search(r"The game is \d", prose) and "ends sooner" not in prose
    # Regression: Five Hundred's page said "The game ends after the last hand, or sooner".
    assert "after the last hand" not in prose, name


def test_hearts_page_and_comparison_table_say_until_someone_reaches_100() -> None:
    """Regression: Hearts' page said "The game is 20 hands" (no Hearts game can
    reach a 17th hand); Spades and Euchre said 200 hands."""
    hearts = _page("hearts")
    assert "| Hands in a game | no fixed number: play until someone reaches 100 points |" in hearts
    assert "20 hands" not in _prose(hearts) and "| every hand | 13 |" in hearts
    table = comparison_page(list(BUILTINS.values()))
    assert "until someone reaches 100 points" in table
    assert "until a side reaches 500 points" in table
    assert not re.search(r"\b200 hands\b|\b20 hands\b", table)


def test_an_auction_without_trumps_does_not_promise_the_right_to_choose_them() -> None:
    """Regression (a Hypothesis example of test_audit10_rulebook's item 20): an
    auction in a game without trumps was said to be for "the right to choose
    trumps"."""
    from cardrules.dsl.loader import load_text

    v = load_text(
        "game: plain-auction\nplayers: 4\nhand size: 13\n"
        "hands: 3 hands of the same size\ntrumps: none\nbidding: auction\nhook: no\n"
        "bids: 1 to 7\nfollow: must follow suit\n"
        "score: if tricks >= bid then bid else -bid\n"
    )
    prose = _prose(rulebook(v))
    bare = re.sub(r"\b(no|without) trumps\b|\| trumps \| none \|", "", prose, flags=re.I)
    assert "trump" not in bare.lower()
    assert "a promise of tricks that the bid says, to be made without trumps" in prose
    assert "the right to choose trumps" in _prose(_page("bid-whist"))
