"""Hearts' published variations (issue 12, item 2): packs that take cards out for
some numbers of players (``deck: ... without 2♦ for 3 players``), a first lead
that falls back when its card is out (``holder of 2♣ otherwise 3♣ leads it``),
cards that break another suit (``breaking cards: Q♠ breaks hearts``), and the
built-ins ``hearts-3-to-6`` and ``hearts-queen-breaks``.

Golden tests on stacked deals, the checks of the new lines, saves, properties
over whole games (cards conserved in each number's pack, 26 points a hand or
the moon, the lowest club in the pack leads, hearts led only once broken by a
heart or the queen) and 200 seeded games of each new file to the end.
"""

from __future__ import annotations

import random

import pytest
from catalog_support import check_file, roundtrip
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, Pass, Play, card
from cardrules.cards import Suit
from cardrules.dsl import load_text
from cardrules.dsl.validate import check_warnings
from cardrules.engine import replay
from cardrules.errors import IllegalAction, VariantError

HEARTS = cardrules.load("hearts")
MANY = cardrules.load("hearts-3-to-6")
QUEEN = cardrules.load("hearts-queen-breaks")

#: The cards out for each number of players, as the file's comment gives them.
OUT = {3: "2♦", 4: "", 5: "2♦ 2♣", 6: "2♦ 3♦ 2♣ 3♣"}
SIZES = {3: 17, 4: 13, 5: 10, 6: 8}
LEADS = {3: "2♣", 4: "2♣", 5: "3♣", 6: "4♣"}


def pack_of(n: int) -> set[str]:
    out = set(OUT[n].split())
    return {str(c) for c in HEARTS.deck.cards if str(c) not in out}


def plays(g: Game) -> set[str]:
    return {str(a.card) for a in g.legal_actions() if isinstance(a, Play)}


def deal_order(n: int, hands: list[list[str]]) -> list[str]:
    """The deck that deals ``hands[i]`` to the i-th seat after the dealer."""
    size = len(hands[0])
    return [hands[j][i] for i in range(size) for j in range(n)]


# --------------------------------------------------------------------------- the pack


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_each_number_of_players_has_its_pack_and_hand_size(n: int) -> None:
    assert {str(c) for c in MANY.deck.cards_for(n)} == pack_of(n)
    g = Game(MANY, n, seed=n)
    assert g.hand_size == SIZES[n] and len(pack_of(n)) == SIZES[n] * n
    view = g.view(0)
    assert view.pack_size == len(pack_of(n))
    assert {str(c) for c in view.pack_removed} == set(OUT[n].split())
    dealt = set()
    for s in range(n):
        dealt |= {str(c) for c in g.hand(s)}
    assert dealt == pack_of(n)


def test_a_stacked_deck_must_be_the_pack_of_that_number() -> None:
    with pytest.raises(cardrules.CardrulesError, match="2♦"):
        Game(MANY, 3, deck=[str(c) for c in HEARTS.deck.cards], first_dealer=2)
    deck = sorted(pack_of(3), key=lambda t: int(card(t)))
    g = Game(MANY, 3, deck=deck, first_dealer=2)
    assert sum(len(g.hand(s)) for s in range(3)) == 51


def test_five_players_the_holder_of_the_three_of_clubs_leads_it() -> None:
    g = Game(MANY, 5, seed=0, first_dealer=4)
    # Play to the third hand (no pass), whoever holds 3♣ leads it.
    rng = random.Random(0)
    while g.hand_number < 3:
        s = min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(s)), seat=s)
    holder = next(s for s in range(5) if card("3♣") in g.hand(s))
    assert g.phase == "play" and g.to_act == holder
    assert plays(g) == {"3♣"}
    with pytest.raises(IllegalAction, match="the first lead of the hand must be 3♣"):
        other = next(c for c in g.hand(holder) if c != card("3♣"))
        g.apply(Play(other), g.to_act)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_lowest_club_in_the_pack_leads_every_hand(n: int) -> None:
    rng = random.Random(n)
    g = Game(MANY, n, seed=100 + n)
    hand = 0
    while not g.is_over:
        if g.phase == "play" and not g.current_trick() and g.hand_number != hand:
            hand = g.hand_number
            holder = next(s for s in range(n) if card(LEADS[n]) in g.hand(s))
            assert g.to_act == holder and plays(g) == {LEADS[n]}
        s = min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(s)), seat=s)


def test_three_players_pass_left_then_right_then_keep() -> None:
    g = Game(MANY, 3, seed=7, first_dealer=2)
    assert g.phase == "pass"
    first = [sorted(g.hand(s), key=int)[:3] for s in range(3)]
    for s in range(3):
        for c in first[s]:
            g.apply(Pass(c), seat=s)
    for s in range(3):
        assert set(first[(s - 1) % 3]) <= set(g.hand(s))  # from the right-hand neighbour
        assert g.view(s).received == tuple(sorted(first[(s - 1) % 3]))
    assert MANY.passing.cycle[-1].value == "none"


# --------------------------------------------------------------------------- the queen


def test_the_queen_breaks_hearts_and_another_spade_does_not() -> None:
    for v, queen_breaks in ((QUEEN, True), (HEARTS, False)):
        hands = [
            "2♣ 3♠ 4♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦ 3♦",
            "A♣ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ K♠ A♠ 4♠ 2♦ 3♥",
            "3♣ Q♠ 2♥ 5♦ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥",
            "4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ K♥ A♥ 2♠",
        ]
        order = deal_order(4, [h.split() for h in hands])
        # The fourth hand has no pass: play the first three at random, then the
        # fourth is dealt from the stacked order (seat 4 deals).
        g = Game(v, 4, seed=0, deck=[order] * 4, first_dealer=0)
        rng = random.Random(1)
        while g.hand_number < 4:
            s = min(g.waiting_for)
            g.apply(rng.choice(g.legal_actions(s)), seat=s)
        assert g.phase == "play" and g.dealer == 3
        g.apply(Play(card("2♣")), g.to_act)
        for t in ("A♣", "3♣", "4♣"):
            g.apply(Play(card(t)), g.to_act)
        assert g.to_act == 1
        for t in ("5♠", "Q♠", "2♠", "3♠"):
            g.apply(Play(card(t)), g.to_act)
        assert g.to_act == 2
        assert ("2♥" in plays(g)) is queen_breaks
        assert "5♦" in plays(g)


def test_the_example_deal_of_the_file_shows_the_rule() -> None:
    from cardrules.example_runner import run_examples

    assert QUEEN.examples and run_examples(QUEEN) == []
    assert MANY.examples and run_examples(MANY) == []


# --------------------------------------------------------------------------- the lines


def test_both_files_read_and_write_back() -> None:
    check_file("hearts-queen-breaks", {"play.also_breaks"})
    check_file(
        "hearts-3-to-6",
        {
            "deck.removed_for",
            "passing.cycle",
            "play.lead_card_else",
            "players.max",
            "players.min",
            "schedule.count",
            "schedule.start.table",
        },
    )
    roundtrip(MANY)
    roundtrip(QUEEN)
    text = cardrules.format(MANY)
    assert "without 2♦ for 3 players, 2♣ 2♦ for 5 players" in text
    assert "holder of 2♣ otherwise 3♣ otherwise 4♣ leads it" in text
    assert "breaking cards: Q♠ breaks hearts" in cardrules.format(QUEEN)
    assert QUEEN.play.also_breaks == ((card("Q♠"), Suit.HEARTS),)
    assert HEARTS.play.also_breaks == () and HEARTS.deck.removed_for == ()


BASE = "game: x\nextends: hearts\n"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("breaking cards: Q♠ breaks spades", "Q♠ breaks spades anyway"),
        ("breaking cards: Q♠ breaks hearts, Q♠ breaks hearts", "Q♠ breaks hearts twice"),
        (
            "players: 3 to 5\ndeck: standard 52 without 2♦ for 3 players, 2♣ for 3 to 4 players",
            "already given",
        ),
        ("deck: standard 52 without 2♦ 2♦ for 3 players", "taken out twice"),
        (
            "players: 3 to 5\nhand size: 17 for 3 players, 13 for 4 players, 10 for 5 players\n"
            "pass: 3 cards left, right\ndeck: standard 52 without 2♦ 2♣ for 5 players",
            "2♣ is taken out of the pack for 5 players, so nobody leads first",
        ),
        (
            "players: 3\nhand size: 17\npass: 3 cards left, right\n"
            "deck: standard 52 without 2♦ 3♦ for 3 players",
            "17 cards each for 3 players needs 51 cards; the pack has 50",
        ),
    ],
)
def test_the_checks_of_the_new_lines(line: str, message: str) -> None:
    with pytest.raises(VariantError, match=message):
        load_text(BASE + line + "\n")


def test_a_card_out_for_three_players_is_still_checked_for_four() -> None:
    """13 each for 3 players from 51 cards is fine, 17 each is not."""
    v = load_text(
        BASE + "players: 3 to 4\nhand size: 17 for 3 players, 13 for 4 players\n"
        "pass: 3 cards left, right\ndeck: standard 52 without 2♦ for 3 players\n"
    )
    assert v.deck.size_for(3) == 51 and v.deck.size_for(4) == 52


def test_a_breaking_card_out_of_the_pack_changes_nothing() -> None:
    v = load_text(
        BASE + "deck: standard 52 without 2♠ 3♠ 4♠ 5♠\nhand size: 12\n"
        "breaking cards: 2♠ breaks hearts, Q♠ breaks hearts\n"
    )
    (w,) = check_warnings(v)
    assert "`2♠ breaks hearts` in `breaking cards` has no effect" in w.message


def test_saves_replay_and_clone_of_a_five_player_game() -> None:
    g = Game(MANY, 5, seed=12)
    rng = random.Random(2)
    for _ in range(120):
        s = min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(s)), seat=s)
    back = Game.from_json(g.to_json())
    assert back.events == g.events and back.view(0) == g.view(0)
    assert replay(MANY, g.events).events == g.events
    c = g.clone()
    assert c.view(3) == g.view(3)


def test_the_fingerprint_of_hearts_is_unchanged() -> None:
    from cardrules.engine.state.compiled_rules import variant_fingerprint

    # Hearts' own fingerprint is in the golden table (tests/test_fingerprints_golden.py).
    assert variant_fingerprint(MANY) != variant_fingerprint(HEARTS)


# --------------------------------------------------------------------------- whole games


def play_checked(v: cardrules.Variant, n: int, seed: int) -> Game:
    """A seeded random game with the invariants checked after every action:
    every card of this number's pack in one place; hearts led only once a heart
    (or, with the queen breaking, Q♠) has been played, or by a leader with
    nothing else."""
    rng = random.Random(seed)
    g = Game(v, n, seed=seed)
    pack = v.deck.cards_for(n).mask
    breakers = {"Q♠"} if v.play.also_breaks else set()
    broken = False
    hand = 0
    while not g.is_over:
        if g.hand_number != hand:
            hand, broken = g.hand_number, False
        s = min(g.waiting_for)
        a = rng.choice(g.legal_actions(s))
        if isinstance(a, Play) and not g.current_trick() and a.card.suit is Suit.HEARTS:
            held = g.hand(s)
            assert broken or all(c.suit is Suit.HEARTS for c in held)
        g.apply(a, seat=s)
        if isinstance(a, Play) and (a.card.suit is Suit.HEARTS or str(a.card) in breakers):
            broken = True
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask
            union |= part.mask
        assert union == pack
    return g


def check_scores(g: Game, n: int) -> None:
    total = 0
    for e in g.events:
        if e[0] == "score":
            points = [int(x) for x in e[4]]
            assert sum(points) in (26, 26 * (n - 1)), points
            total += 1
    r = g.result
    assert r is not None and r.finished
    low = min(g.scores)
    assert set(r.winners) == {s for s in range(n) if g.scores[s] == low}
    assert max(g.scores) >= 100 or total == 24


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_games_of_hearts_3_to_6(seed: int) -> None:
    n = 3 + seed % 4
    check_scores(play_checked(MANY, n, 5000 + seed), n)


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_games_of_hearts_queen_breaks(seed: int) -> None:
    check_scores(play_checked(QUEEN, 4, 6000 + seed), 4)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5, 6]))
def test_views_never_show_another_hand_at_any_table(seed: int, n: int) -> None:
    rng = random.Random(seed)
    g = Game(MANY, n, seed=seed, max_tricks=40)
    while not g.is_over:
        for s in range(n):
            view = g.view(s)
            assert view.visible_hands == ()
            assert view.hand is None or set(view.hand) == set(g.hand(s))
        s = min(g.waiting_for)
        g.apply(rng.choice(g.legal_actions(s)), seat=s)


@pytest.mark.parametrize("v", [MANY, QUEEN], ids=["hearts-3-to-6", "hearts-queen-breaks"])
def test_bots_play_legally_and_the_heuristic_beats_random(v: cardrules.Variant) -> None:
    from cardrules.bots import make_bot, play_game

    wins = 0
    games = 20
    for seed in range(games):
        n = 4 if v is QUEEN else 3 + seed % 4
        g = Game(v, n, seed=seed)
        bots = [make_bot("heuristic" if s == 0 else "random", seed=seed * 8 + s) for s in range(n)]
        play_game(g, bots)
        r = g.result
        assert r is not None and r.finished
        wins += 0 in r.winners
    assert wins >= games // 2
