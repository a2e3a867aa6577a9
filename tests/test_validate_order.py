"""The validator reports the first problem in a fixed order of setting families
(players and pack, shedding trumps, schedule, ..., teams, score, match): a
variant with two problems names the earlier family's, and once that is fixed,
the later one's. Issue 22 split ``_check`` by family; this pins the order."""

from __future__ import annotations

import attrs
import pytest

from cardrules.dsl import load, validate
from cardrules.errors import VariantError
from cardrules.rules import Variant


def first_problem(v: Variant) -> str:
    """The message of the error ``validate`` raises for ``v``."""
    with pytest.raises(VariantError) as info:
        validate(v)
    return str(info.value)


def test_shedding_trumps_before_the_pass() -> None:
    kazhutha, whist, hearts = load("kazhutha"), load("whist"), load("hearts")
    passes_across = attrs.evolve(kazhutha, passing=hearts.passing)  # 3 to 8 players
    both = attrs.evolve(passes_across, trumps=whist.trumps)
    assert "shedding games are played without trumps, so turned-up trumps" in first_problem(both)
    assert "nobody sits across the table from a player at a table of 3" in first_problem(
        passes_across
    )


def test_teams_before_the_score() -> None:
    whist, donkey = load("whist"), load("donkey")
    no_score = attrs.evolve(whist, scoring=donkey.scoring)
    both = attrs.evolve(no_score, teams=((0, 1), (2, 3), (4, 5)))
    assert "the teams hold 6 seats, but the game is for 4 players" in first_problem(both)
    assert "a trick-taking game needs a `score:` line" in first_problem(no_score)


def test_match_word_in_a_trick_game_before_last_one_in() -> None:
    whist, donkey = load("whist"), load("donkey")
    last_one_in = attrs.evolve(whist, winning=attrs.evolve(whist.winning, last_one_in=True))
    both = attrs.evolve(last_one_in, match=donkey.match)
    assert "`match word` is for shedding games" in first_problem(both)
    assert "`winner: last one in` needs players to be knocked out" in first_problem(last_one_in)


def test_the_schedule_before_the_teams() -> None:
    whist, oh_hell = load("whist"), load("oh-hell")
    # Whist's teams seat 4, and its 13 cards each cannot go to 5 players or more.
    more_players = attrs.evolve(whist, players=oh_hell.players)
    assert "13 cards each for 5 players needs 65 cards; the pack has 52" in first_problem(
        more_players
    )
    fewer_cards = attrs.evolve(
        more_players, schedule=attrs.evolve(whist.schedule, start=oh_hell.schedule.start)
    )
    assert "the teams hold 4 seats" in first_problem(fewer_cards)
