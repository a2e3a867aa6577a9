"""Elimination (``knocked out:``, ``winner: last one in``) and Knock-out Whist.

After each hand a player still in who took too few tricks is knocked out: the
next hands are dealt, bid, led and played only among the players still in, and
the last player left wins. Golden tests on stacked deals, properties of whole
random games (cards kept, one winner, those out never act, views that do not
leak), saves, replays and clones, and the checks of the language.
"""

from __future__ import annotations

import json
import random

import pytest
from catalog_support import check_file
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, Play, card
from cardrules.bots import HeuristicBot, RandomBot
from cardrules.cards import Card, CardSet
from cardrules.dsl import load_text
from cardrules.engine import replay
from cardrules.errors import IllegalAction, SaveError, VariantError
from cardrules.rules import Variant

KO = cardrules.load("knockout-whist")

#: Knock-out Whist with three cards down to one, for short stacked games; every
#: hand turns up its trumps, so that these games test the knock-outs alone (the
#: winner of most tricks naming the next trumps is tested in test_trumps.py).
KO3 = load_text(
    "game: ko-three\nextends: knockout-whist\nhand size: 3\ntrumps: turned up\n"
    "trump ties: first in turn\n"
)


def cards(text: str) -> list[Card]:
    return [card(t) for t in text.split()]


def stack(*hands: str, turn: str) -> list[Card]:
    """A deck dealing ``hands[i]`` to the i-th seat in dealing order, then ``turn``."""
    per = [cards(h) for h in hands]
    size = len(per[0])
    order = [per[j][i] for i in range(size) for j in range(len(per))]
    return [*order, card(turn)]


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def knocked(g: Game) -> list[tuple[int, int]]:
    return [(e[1], e[2]) for e in g.events if e[0] == "knocked out"]


# --------------------------------------------------------------------------- golden


def _three_hands() -> Game:
    """Seat 3 (index 2) deals. Hand 1: seat 2 takes no trick and is knocked out;
    hand 2 is dealt to seats 3 and 1 only (dealer seat 1, index 0)."""
    hand1 = stack("A♠ K♠ 2♥", "2♣ 3♣ 4♣", "A♥ K♥ Q♥", turn="2♦")
    # Hand 2: the dealer is seat 1 (index 0); seat 2 is out, so seat 3 is dealt first.
    hand2 = stack("A♣ K♣", "5♣ 6♣", turn="2♠")
    return Game(KO3, 3, seed=1, deck=[hand1, hand2], first_dealer=2)


def test_a_player_with_no_tricks_is_knocked_out_before_the_next_hand() -> None:
    g = _three_hands()
    assert g.hand_size == 3 and g.to_act == 0
    play(g, "A♠", "2♣", "Q♥")
    play(g, "K♠", "3♣", "K♥")
    assert knocked(g) == []
    play(g, "2♥", "4♣", "A♥")
    # Seat index 1 took nothing: knocked out after hand 1 was scored.
    assert knocked(g) == [(1, 1)]
    kinds = [e[0] for e in g.events]
    assert kinds.index("knocked out") == kinds.index("score") + 1
    assert g.hand_number == 2 and g.hand_size == 2
    # The deal passes from index 2 to the next seat still in (index 0), and only
    # the seats still in are dealt to; the dealer's next seat still in leads.
    assert g.dealer == 0
    assert [len(g.hand(s)) for s in range(3)] == [2, 0, 2]
    assert g.hand(2) == CardSet(cards("A♣ K♣")) and g.hand(0) == CardSet(cards("5♣ 6♣"))
    deal = [e for e in g.events if e[0] == "deal"][-1]
    assert deal[4][1] == CardSet()
    assert g.to_act == 2
    assert g.view(1).out == (False, True, False)
    assert g.view(0).out == (False, True, False)
    assert g.view(1).knocked_out == ((1, 1),)
    assert g.legal_actions(1) == ()


def test_a_trick_has_one_card_from_each_player_still_in_and_the_last_one_in_wins() -> None:
    g = _three_hands()
    play(g, "A♠", "2♣", "Q♥", "K♠", "3♣", "K♥", "2♥", "4♣", "A♥")
    before = g.events
    with pytest.raises(IllegalAction, match="seat 1 is knocked out of the game"):
        g.apply(Play(card("5♣")), seat=1)
    assert g.events == before
    play(g, "A♣", "5♣")  # a trick of two cards: seat index 1 is skipped
    trick = [e for e in g.events if e[0] == "trick"][-1]
    assert trick[1] == 2 and list(trick[2]) == [2, 0]
    assert g.to_act == 2 and g.current_trick() == ()
    play(g, "K♣", "6♣")
    assert g.is_over
    assert knocked(g) == [(1, 1), (0, 2)]
    res = g.result
    assert res is not None and res.finished
    assert res.winners == (2,) and not res.shared
    assert res.knocked_out == ((1, 1), (0, 2))
    assert res.totals == (2, 0, 3)
    assert res.to_dict()["knocked_out"] == [[1, 1], [0, 2]]
    # Seat index 0 scored 2 in hand 1 and nothing after; hand 2 scored 0 for the seat out.
    scores = [e for e in g.events if e[0] == "score"]
    assert list(scores[1][4]) == [0, 0, 2]


def test_the_last_one_in_wins_even_with_a_lower_total() -> None:
    # Hand 1: index 0 takes two tricks, index 2 one, index 1 none; hand 2: index 2
    # takes one of two tricks, index 0 the other; hand 3 (one card): index 2 wins.
    hand1 = stack("A♠ K♠ 2♥", "2♣ 3♣ 4♣", "A♥ K♥ Q♥", turn="2♦")
    hand2 = stack("A♣ 2♦", "5♣ A♦", turn="2♠")
    hand3 = stack("2♥", "A♥", turn="2♠")
    g = Game(KO3, 3, seed=1, deck=[hand1, hand2, hand3], first_dealer=2)
    play(g, "A♠", "2♣", "Q♥", "K♠", "3♣", "K♥", "2♥", "4♣", "A♥")
    play(g, "A♣", "5♣", "2♦", "A♦")
    assert knocked(g) == [(1, 1)]
    assert g.hand_number == 3 and g.hand_size == 1
    # The deal passed from index 0 to index 2 (index 1 is out); index 0 leads.
    assert g.dealer == 2 and g.to_act == 0
    play(g, "2♥", "A♥")
    assert g.is_over and knocked(g) == [(1, 1), (0, 3)]
    res = g.result
    assert res is not None
    assert res.totals == (3, 0, 3)  # a tie on totals: the last one in still wins alone
    assert res.winners == (2,) and not res.shared


def test_when_everyone_still_in_would_be_knocked_out_nobody_is() -> None:
    text = cardrules.format(KO3).replace(
        "knocked out: no tricks", "knocked out: fewer than 2 tricks"
    )
    v2 = load_text(text.replace("game: ko-three", "game: ko-two"))
    hand1 = stack("A♠ 2♣ 3♦", "2♠ A♣ 4♦", "3♠ 3♣ A♦", turn="2♥")
    g = Game(v2, 3, seed=1, deck=[hand1], first_dealer=2)
    play(g, "A♠", "2♠", "3♠")  # index 0
    play(g, "2♣", "A♣", "3♣")  # index 1
    play(g, "4♦", "A♦", "3♦")  # index 1 leads 4♦; index 2 wins with A♦
    assert [e[3] for e in g.events if e[0] == "score"] == [(1, 1, 1)]
    # Everyone took one trick, fewer than 2: nobody is knocked out.
    assert knocked(g) == [] and g.hand_number == 2
    assert [len(g.hand(s)) for s in range(3)] == [2, 2, 2]


def test_a_schedule_that_ends_with_several_in_shares_or_goes_on_as_tie_says() -> None:
    base = (
        "game: ko-short\nplayers: 3\nhand size: 3\nhands: 1 hands of the same size\n"
        "trumps: turned up\nbidding: none\nscore: tricks\nknocked out: no tricks\n"
        "winner: last one in\n"
    )
    hand1 = stack("A♠ 2♣ 3♦", "2♠ A♣ 4♦", "3♠ 3♣ A♦", turn="2♥")
    v = load_text(base + "tie: shared\n")
    g = Game(v, 3, seed=1, deck=[hand1], first_dealer=2)
    play(g, "A♠", "2♠", "3♠", "2♣", "A♣", "3♣", "4♦", "A♦", "3♦")
    res = g.result
    assert res is not None and res.winners == (0, 1, 2) and res.shared
    # Extra hands: dealt to those still in until one leads alone.
    v = load_text(base + "tie: extra hands\n")
    g = Game(v, 3, seed=1, deck=[hand1], first_dealer=2)
    play(g, "A♠", "2♠", "3♠", "2♣", "A♣", "3♣", "4♦", "A♦", "3♦")
    assert not g.is_over and g.hand_number == 2 and g.extra_hands == 1
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
    res = g.result
    assert res is not None and res.finished and len(res.winners) == 1
    assert not g.view(0).out[res.winners[0]]


def test_the_winner_by_total_when_knocking_out_without_last_one_in() -> None:
    text = cardrules.format(KO3).replace("winner: last one in", "winner: highest total")
    v = load_text(text.replace("game: ko-three", "game: ko-total"))
    hand1 = stack("A♠ K♠ Q♠", "2♣ 3♣ 4♣", "A♥ K♥ 2♥", turn="2♦")
    g = Game(v, 3, seed=1, deck=[hand1], first_dealer=2)
    play(g, "A♠", "2♣", "2♥", "K♠", "3♣", "K♥", "Q♠", "4♣", "A♥")
    # Index 0 took all three: both others are out, and the game ends at once.
    assert g.is_over and knocked(g) == [(1, 1), (2, 1)]
    assert g.result is not None and g.result.winners == (0,)


def test_bidding_passes_among_the_players_still_in() -> None:
    v = load_text("game: ko-bids\nextends: oh-hell\nknocked out: no tricks\n")
    rng = random.Random(5)
    for seed in range(40):
        g = Game(v, 4, seed=seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            assert not g.view(seat).out[seat]
            if g.phase == "bid":
                # The hook binds the last seat still in to bid, the dealer.
                assert seat != g.dealer or g.bids.count(None) == 1 + sum(g.view(0).out)
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        res = g.result
        assert res is not None and res.finished


# --------------------------------------------------------------------------- saves


def test_saves_replays_and_clones_of_a_stacked_game() -> None:
    g = _three_hands()
    play(g, "A♠", "2♣", "Q♥", "K♠", "3♣", "K♥", "2♥", "4♣", "A♥", "A♣")
    c = g.clone()
    assert c == g and c._out == g._out and c._next_seat == g._next_seat and c._seats == g._seats
    r = replay(KO3, g.events)
    assert r == g and r.to_act == g.to_act
    for h in (g, r):
        back = Game.from_json(h.to_json())
        assert back == g and back.view(1).out == (False, True, False)
    play(c, "5♣", "K♣", "6♣")
    assert c.is_over and not g.is_over  # the copy is independent
    play(g, "5♣", "K♣", "6♣")
    assert Game.from_json(g.to_json()).result == g.result


def test_a_recorded_deal_that_deals_to_a_player_knocked_out_is_refused() -> None:
    g = _three_hands()
    play(g, "A♠", "2♣", "Q♥", "K♠", "3♣", "K♥", "2♥", "4♣", "A♥")
    evs = g.events
    i = max(k for k, e in enumerate(evs) if e[0] == "deal")
    hands = list(evs[i][4])
    # Give the knocked-out seat a card nobody was dealt.
    moved = card("9♦")
    hands[1] = CardSet(1 << int(moved))
    evs[i] = (*evs[i][:4], tuple(hands))
    with pytest.raises(SaveError, match="knocked out"):
        replay(KO3, evs)
    data = json.loads(g.to_json())
    data["deals"][1]["hands"][1] = [str(moved)]
    with pytest.raises(SaveError):
        Game.from_json(json.dumps(data))


# --------------------------------------------------------------------------- whole games


def _check_game(v: Variant, players: int, seed: int, *, views: bool) -> Game:
    """A random game to the end, checking each step: cards kept, those out never
    act or hold cards, each trick one card a player still in, views that show a
    seat only its own cards."""
    rng = random.Random(seed)
    g = Game(v, players, seed=seed)
    pack = v.deck.cards.mask
    out: set[int] = set()
    sizes = v.hand_sizes(players)
    hand = 0
    while not g.is_over:
        if g.hand_number != hand:
            hand = g.hand_number
            out = {s for s, _ in knocked(g)}
            for s in range(players):
                want = 0 if s in out else sizes[hand - 1]
                assert len(g.hand(s)) == want
        seat = g.to_act
        assert seat is not None and seat not in out
        for s in out:
            assert g.legal_actions(s) == ()
        if views:
            for s in range(players):
                view = g.view(s)
                assert view.hand == tuple(g.hand(s))
                assert view.visible_hands == () and view.known_hands == ()
                assert tuple(i for i, o in enumerate(view.out) if o) == tuple(sorted(out))
                for e in g.events_for(s):
                    if e[0] == "deal":
                        assert all(h is None for k, h in enumerate(e[4]) if k != s)
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask, "a card is in two places"
            union |= part.mask
        assert union == pack, "a card went missing"
    gone: set[int] = set()
    for e in g.events:
        if e[0] == "knocked out":
            gone.add(e[1])
        elif e[0] == "trick":
            # One card from each player still in, and none from a player out.
            assert not set(e[2]) & gone and len(e[2]) == players - len(gone)
    res = g.result
    assert res is not None and res.finished
    left = [s for s in range(players) if s not in {k for k, _ in res.knocked_out}]
    if v.winning.last_one_in:
        assert res.winners == tuple(left) or (len(left) > 1 and set(res.winners) <= set(left))
    assert g.events[-1][0] == "over"
    return g


def test_two_hundred_seeded_games_of_knockout_whist_end_with_one_winner() -> None:
    ended_early = 0
    for i in range(200):
        players = 2 + i % 6
        g = _check_game(KO, players, 5000 + i, views=False)
        res = g.result
        assert res is not None and len(res.winners) == 1 and not res.shared
        assert len(res.knocked_out) == players - 1
        ended_early += g.hand_number < 7
        if i % 20 == 0:
            assert replay(KO, g.events) == g
            assert Game.from_json(g.to_json()) == g
    assert ended_early > 0


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32))
def test_property_knockout_whist_games(players: int, seed: int) -> None:
    g = _check_game(KO, players, seed, views=True)
    res = g.result
    assert res is not None and len(res.winners) == 1
    assert res.winners[0] not in {s for s, _ in res.knocked_out}


VARIANTS = {
    "fewer than 2": load_text(
        "game: ko-two-tricks\nextends: knockout-whist\nknocked out: fewer than 2 tricks\n"
    ),
    "by total": load_text(
        "game: ko-total\nextends: knockout-whist\nwinner: highest total\ntie: extra hands\n"
    ),
    "with bids": load_text("game: ko-bids\nextends: oh-hell\nknocked out: no tricks\n"),
}


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(sorted(VARIANTS)), players=st.integers(3, 6), seed=st.integers(0, 2**32)
)
def test_property_other_elimination_rules(name: str, players: int, seed: int) -> None:
    v = VARIANTS[name]
    if players not in v.players:
        return
    g = _check_game(v, players, seed, views=True)
    c = g.clone()
    assert c == g and replay(v, g.events) == g


# --------------------------------------------------------------------------- the file


def test_file() -> None:
    check_file("knockout-whist", None)


def test_the_file_rules() -> None:
    v = KO
    assert v.winning.knockout_below == 1 and v.winning.last_one_in
    assert v.players.min == 2 and v.players.max == 7
    for n in range(2, 8):
        assert v.hand_sizes(n) == (7, 6, 5, 4, 3, 2, 1)


def test_the_language_checks_elimination() -> None:
    with pytest.raises(VariantError, match="nobody ever is"):
        load_text("game: x\nextends: oh-hell\nwinner: last one in\n")
    with pytest.raises(VariantError, match=r"a number of tricks|too large"):
        load_text("game: x\nextends: oh-hell\nknocked out: fewer than 53 tricks\n")
    with pytest.raises(VariantError, match="has no effect in a shedding game"):
        load_text("game: x\nextends: kazhutha\nknocked out: no tricks\n")
    v = load_text("game: x\nextends: oh-hell\nknocked out: fewer than 3 tricks\n")
    assert v.winning.knockout_below == 3
    assert "knocked out: fewer than 3 tricks" in cardrules.format(v)
    # The older games keep their fingerprints: the new fields at their defaults
    # are left out of the text they are hashed from.
    from cardrules.engine.state.compiled_rules import _canon

    for name in ("oh-hell", "kazhutha"):
        text = json.dumps(_canon(cardrules.load(name)))
        assert "knockout_below" not in text and "last_one_in" not in text
    assert "knockout_below" in json.dumps(_canon(KO))


def test_the_rules_page_describes_elimination() -> None:
    from cardrules.rulebook import rulebook

    page = rulebook(KO)
    assert "knocked out" in page and "the last player left in wins" in page
    assert "at most 7" in page
    assert "Nobody is knocked out" not in rulebook(cardrules.load("oh-hell"))


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_bots_play_knockout_whist_legally(bot: type) -> None:
    for seed in range(20):
        players = 2 + seed % 6
        g = Game(KO, players, seed=seed)
        bots = [bot(seed * 10 + s) for s in range(players)]
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            action = bots[seat].choose(g.view(seat))
            assert action in g.legal_actions()
            g.apply(action, g.to_act)


def test_the_heuristic_beats_random_at_knockout_whist() -> None:
    from cardrules.simulate import simulate

    s = simulate(KO, 4, 1500, ["heuristic", "random"], seed=2024)
    assert s.games == 1500 and s.finished == 1500
    h_win = s.win_rate(0)
    r_win = max(s.win_rate(k) for k in (1, 2, 3))
    # A fair seat wins 25%, the heuristic about 34%; one standard error over
    # 1,500 games is 0.012.
    assert h_win > 0.29 and h_win - r_win > 0.05


def test_an_example_after_a_knock_out_says_why_it_cannot_be_dealt() -> None:
    from cardrules.example_runner import run_examples

    def problem(size: int, players: int) -> str:
        text = f"game: ko-ex\nextends: knockout-whist\nhand size: {size}\n\nexample: later\n"
        text += f"  with {players} players, hand 2, seat 1 deals\n  expect 2 cards each\n"
        (failure,) = run_examples(load_text(text))
        return failure.problem

    # Hand 1 played out with the lowest cards: one seat takes every trick...
    assert problem(3, 3) == "the game, its hands played out, is over after hand 1, before hand 2"
    # ... or some seats are knocked out, and hand 2 is not dealt to everyone.
    assert problem(6, 3) == (
        "the hands before hand 2, played out, knock out seat 2, so hand 2 cannot be dealt "
        "to every player: give the deal of an earlier hand"
    )


def test_the_play_command_says_who_is_knocked_out() -> None:
    from cardrules.commands.play import Table, narrate

    t = Table(["You", "Bot 1", "Bot 2"])
    assert narrate(("knocked out", 1, 1), t) == "Bot 1 is knocked out (too few tricks in hand 1)"
    assert narrate(("knocked out", 0, 2), t) == "You are knocked out (too few tricks in hand 2)"


def test_the_score_sheet_marks_the_players_knocked_out() -> None:
    from cardrules.commands.play import Table, score_sheet

    g = _three_hands()
    play(g, "A♠", "2♣", "Q♥", "K♠", "3♣", "K♥", "2♥", "4♣", "A♥", "A♣", "5♣", "K♣", "6♣")
    sheet = score_sheet(g.events, Table(["You", "Bot 1", "Bot 2"])).splitlines()
    hand1, hand2 = sheet[3], sheet[4]
    assert "out" not in hand1
    assert hand2.split("|")[2].split() == ["out", "0"]  # Bot 1, out since hand 1
    assert hand2.split("|")[1].split() == ["0", "2"]  # knocked out after hand 2


def test_simulate_shows_no_exact_bids_for_a_game_without_bids() -> None:
    from cardrules.commands.simulate import format_summary
    from cardrules.simulate import simulate

    text = format_summary(simulate(KO, 3, 20, ["heuristic", "random"], seed=1))
    assert "win rate" in text and "exact bids" not in text
    with_bids = format_summary(simulate(cardrules.load("oh-hell"), 3, 2, ["random"], seed=1))
    assert "exact bids" in with_bids
