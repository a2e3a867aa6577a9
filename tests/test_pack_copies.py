"""Packs as data: whole ranks out (``without 2s to 6s``), several standard packs
(``deck: 2 standard packs``) and which of two identical cards ranks higher."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules.cards import Card, CardSet, Rank, Suit, card
from cardrules.dsl.formatter import format as format_variant
from cardrules.engine import Game, Play
from cardrules.errors import VariantError

BASE = "game: x\nplayers: 4\nhand size: 5\nscore: tricks\n"


def _load(deck_line: str) -> cardrules.Variant:
    return cardrules.load_text(BASE + deck_line)


def _ranks_left(v: cardrules.Variant) -> set[int]:
    return {int(c.rank) for c in v.deck.cards}


@pytest.mark.parametrize(
    ("line", "ranks_out", "extra_out"),
    [
        ("deck: standard 52 without 2s to 6s", {2, 3, 4, 5, 6}, 0),
        ("deck: standard 52 without 2s, 3s and 4s", {2, 3, 4}, 0),
        ("deck: standard 52 without 2s, 3s, and 4s, 5♣", {2, 3, 4}, 1),
        ("deck: standard 52 without jacks and queens", {11, 12}, 0),
        ("deck: standard 52 without 10s and aces", {10, 14}, 0),
    ],
)
def test_whole_ranks_come_out(line: str, ranks_out: set[int], extra_out: int) -> None:
    v = _load(line)
    # Read independently: four cards for each rank out, and the extra cards.
    assert v.deck.size == 52 - 4 * len(ranks_out) - extra_out
    assert _ranks_left(v) & ranks_out == set()
    again = cardrules.load_text(format_variant(v))
    assert again == v


def test_one_plural_rank_alone_is_still_the_two_of_spades() -> None:
    v = _load("deck: standard 52 without 2s 3s")
    assert v.deck.size == 50
    assert {str(c) for c in v.deck.cards}.isdisjoint({"2♠", "3♠"})
    assert Rank.TWO in {c.rank for c in v.deck.cards}


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("deck: standard 52 without 6s to 2s", "the ranks run from 6s down to 2s"),
        ("deck: 9 to ace without 2s to 6s", "the 2s are not in a pack of 9 to ace"),
        ("deck: standard 52 without 2s to 6s, 3♣", "taken out twice"),
        ("deck: standard 52 without 2s to aces", "every card of the pack is taken out"),
    ],
)
def test_ranks_out_refusals(line: str, words: str) -> None:
    with pytest.raises(VariantError, match=words):
        _load(line)


# --------------------------------------------------------------------------- several packs

TWO = BASE + "deck: 2 standard packs\nidentical cards: the first played ranks higher\n"


def test_two_packs_hold_each_card_twice() -> None:
    v = cardrules.load_text(TWO)
    assert v.deck.packs == 2 and v.deck.identical == "first"
    assert v.deck.size == 104
    counts = Counter(str(c) for c in v.deck.cards)
    assert set(counts.values()) == {2} and len(counts) == 52
    again = cardrules.load_text(format_variant(v))
    assert again == v
    short = cardrules.load_text(
        BASE + "deck: 3 standard packs without 2s to 6s\n"
        "identical cards: the last played ranks higher\n"
    )
    assert short.deck.size == 96 and short.deck.identical == "last"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (BASE + "deck: 5 standard packs\n", "5 is too large for a number of packs"),
        (BASE + "deck: 2 standard packs\n", "does not say which ranks higher"),
        (BASE + "deck: 2 standard packs with 2 jokers\n", "jokers are not known"),
        (BASE + "identical cards: the first played ranks higher\n", "has no effect"),
        (TWO + "trumps: spades\ntrump order: J of trumps\n", "trump order is not known"),
        (
            "game: h2\nextends: hearts\ndeck: 2 standard packs\n"
            "identical cards: the first played ranks higher\n",
            "passing cards is not known with several packs",
        ),
    ],
)
def test_several_packs_refusals(text: str, words: str) -> None:
    with pytest.raises(VariantError, match=words):
        cardrules.load_text(text)


def test_the_rules_page_says_two_packs_and_the_identical_rule() -> None:
    page = cardrules.rulebook(cardrules.load("kazhutha-two-packs"))
    assert "two standard 52-card packs shuffled together (104 cards: each card twice)" in page
    assert "of two identical cards played to one trick, the first played ranks higher" in page
    assert "Of the players holding an A♠, the first in turn" in page


def test_one_pack_games_keep_their_card_ids_and_actions() -> None:
    g = Game(cardrules.load("kazhutha"), 4, seed=1)
    assert g._rules.copies is False and not g._rules.pack_mask >> 64
    assert all(a.id < 52 for a in g.legal_actions())


def test_two_packs_play_to_the_end_with_every_card_twice() -> None:
    v = cardrules.load("kazhutha-two-packs")
    for seed in range(10):
        g = Game(v, 9, seed=seed)
        dealt = Counter(int(c) & 63 for s in range(9) for c in g.hand(s))
        assert set(dealt.values()) == {2} and len(dealt) == 52
        g.playout()
        assert g.is_over


# --------------------------------------------------------------------------- kazhutha-two-packs

#: Seats in deal order when seat 9 (index 8) deals Kazhutha (anticlockwise).
DEAL_ORDER = [7, 6, 5, 4, 3, 2, 1, 0, 8]


def _stacked(hands: dict[int, str], variant: cardrules.Variant) -> Game:
    """Nine players, seat index 8 deals; each seat holds the cards named (the
    rest of the two packs dealt round to fill the hands)."""
    shares = {s: 12 if j < 5 else 11 for j, s in enumerate(DEAL_ORDER)}
    pool = Counter({str(c): 2 for c in CardSet.full()})
    held = {s: hands.get(s, "").split() for s in range(9)}
    for cs in held.values():
        pool.subtract(cs)
    assert min(pool.values()) >= 0
    rest = [c for c, n in pool.items() for _ in range(n)]
    for s in DEAL_ORDER:
        while len(held[s]) < shares[s]:
            held[s].append(rest.pop())
    deck = [held[DEAL_ORDER[j % 9]][j // 9] for j in range(104)]
    return Game(variant, players=9, deck=deck, first_dealer=8)


#: Every seat holds a spade; two aces of spades (seats 7 and 5), two kings of hearts
#: (seats 7 and 6); seat 5 has no heart.
GOLDEN = {
    7: "A♠ K♥ 2♣",
    6: "K♠ K♥ 3♣",
    5: "A♠ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
    4: "2♠",
    3: "3♠",
    2: "4♠",
    1: "5♠",
    0: "6♠",
    8: "7♠",
}


def _no_hearts_for_seat_5(g: Game) -> None:
    assert not g.hand(5).of_suit(Suit.HEARTS)


@pytest.mark.parametrize(("identical", "dead_to", "pickup_to"), [("first", 7, 7), ("last", 5, 6)])
def test_golden_two_identical_cards(identical: str, dead_to: int, pickup_to: int) -> None:
    v = cardrules.load("kazhutha-two-packs")
    if identical == "last":
        v = cardrules.load_text(
            "game: k2-last\nextends: kazhutha-two-packs\n"
            "identical cards: the last played ranks higher\n"
        )
    g = _stacked(GOLDEN, v)
    _no_hearts_for_seat_5(g)
    # Of the two holders of A♠, seat 7 is first in turn from the dealer's neighbour.
    assert g.to_act == 7
    assert [str(a) for a in g.legal_actions()] == ["Play('A♠')"]
    for seat, c in zip(
        DEAL_ORDER, ["A♠", "K♠", "A♠", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠"], strict=True
    ):
        g.apply(Play(card(c)), seat)
    kind, taker, _seats, played = g.events[-1].astuple()[:4]
    assert kind == "dead" and taker == dead_to
    assert [str(c) for c in played] == ["A♠", "K♠", "A♠", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠"]
    assert g.to_act == dead_to
    if dead_to != 7:
        return
    # Seat 7 leads K♥, seat 6 plays the other K♥, seat 5 cuts: the first K♥ picks up.
    g.apply(Play(card("K♥")), 7)
    g.apply(Play(card("K♥")), 6)
    g.apply(Play(card("A♣")), 5)
    kind, taker = g.events[-1].astuple()[:2]
    assert kind == "pickup" and taker == pickup_to
    assert [str(c) for c in g.hand(7) if str(c) == "K♥"] == ["K♥", "K♥"]


def test_golden_last_played_picks_up_with_the_second_copy() -> None:
    v = cardrules.load_text(
        "game: k2-last\nextends: kazhutha-two-packs\n"
        "identical cards: the last played ranks higher\n"
    )
    hands = dict(GOLDEN)
    hands[7], hands[5] = "A♠ K♥ 2♣", "A♠ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣"
    g = _stacked(hands, v)
    g.apply(Play(card("A♠")), 7)
    g.apply(Play(card("K♠")), 6)
    g.apply(Play(card("A♠")), 5)  # the last A♠ now ranks higher
    g.apply(Play(card("2♠")), 4)
    for s in (3, 2, 1, 0, 8):
        g.apply(g.legal_actions()[0], s)
    assert g.events[-1].astuple()[:2] == ("dead", 5)


# --------------------------------------------------------------------------- properties


def _count_by_card(g: Game) -> Counter[int]:
    """Every copy of this hand accounted for, read from the public log and the
    hands: the hands, the current trick and the hand's dead tricks (kazhutha)
    or won ones."""
    counts: Counter[int] = Counter()
    for s in range(g.players):
        counts.update(int(c) & 63 for c in g.hand(s))
    counts.update(int(c) & 63 for _, c in g.current_trick())
    events = [ev.astuple() for ev in g.events]
    last_deal = max(i for i, t in enumerate(events) if t[0] == "deal")
    for t in events[last_deal:]:
        if t[0] in ("dead", "trick"):
            counts.update(int(c) & 63 for c in t[3])
    return counts


def _oracle_taker(seats: tuple[int, ...], played: tuple[Card, ...], last: bool) -> int:
    """Who takes a trick by an independent reading of the rules: the highest card
    of the suit led (ranks by the printed rank); of identical cards the first
    played (``last``: the last played)."""
    led = played[0].suit
    best = -1
    who = -1
    for s, c in zip(seats, played, strict=True):
        if c.suit != led:
            continue
        if int(c.rank) > best or (last and int(c.rank) == best):
            best, who = int(c.rank), s
    return who


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(9, 12), last=st.booleans())
def test_cards_conserved_and_every_trick_taken_by_the_oracle(
    seed: int, players: int, last: bool
) -> None:
    text = "game: k2p\nextends: kazhutha-two-packs\n"
    if last:
        text += "identical cards: the last played ranks higher\n"
    g = Game(cardrules.load_text(text), players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply_as_current(rng.choice(g.legal_actions()))
        t = g.events[-1].astuple()
        if t[0] in ("dead", "pickup"):
            assert t[1] == _oracle_taker(t[2], t[3], last)
        counts = _count_by_card(g)
        # Picked-up cards are back in a hand: still two of each card in all.
        assert set(counts.values()) == {2} and len(counts) == 52


def test_two_pack_tricks_game_winner_by_the_oracle() -> None:
    """A trick-taking game of two packs (trumps spades): every trick's winner
    read independently, over seeded random games, cards conserved."""
    for last in (False, True):
        which = "last" if last else "first"
        v = cardrules.load_text(
            "game: two-pack-whist\nplayers: 4 to 8\nhand size: 13\ntrumps: spades\n"
            "follow: must follow suit\nscore: tricks\ndeck: 2 standard packs\n"
            f"identical cards: the {which} played ranks higher\n"
        )
        for seed in range(20):
            g = Game(v, 6, seed=seed)
            rng = random.Random(seed)
            while not g.is_over:
                seen = len(g.events)
                g.apply_as_current(rng.choice(g.legal_actions()))
                if g.events[-1].astuple()[0] == "trick" and not g.is_over:
                    assert sum(_count_by_card(g).values()) == g.hand_size * 6
                for ev in g.events[seen:]:
                    t = ev.astuple()
                    if t[0] != "trick":
                        continue
                    seats, played = t[2], t[3]
                    trumps = [c for c in played if c.suit is Suit.SPADES]
                    if trumps and played[0].suit is not Suit.SPADES:
                        # Ruffed: the highest trump takes it (the same reading).
                        pos = [i for i, c in enumerate(played) if c.suit is Suit.SPADES]
                        expect = _oracle_taker(
                            tuple(seats[i] for i in pos), tuple(played[i] for i in pos), last
                        )
                    else:
                        expect = _oracle_taker(seats, played, last)
                    assert t[1] == expect


def test_views_never_tell_which_copy() -> None:
    g = Game(cardrules.load("kazhutha-two-packs"), 9, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        g.apply_as_current(rng.choice(g.legal_actions()))
    for s in range(9):
        view = g.view(s)
        assert all(int(c) < 52 for c in view.hand or ())
        assert all(int(c) < 52 for c in view.played)
        assert all(int(a.card) < 52 for a in view.legal_actions if isinstance(a, Play))
        for ev in g.events_for(s):
            for c in getattr(ev, "cards", ()) or ():
                assert int(c) < 52
    # A save and its replay give the same game, seen by every seat.
    again = Game.from_json(g.to_json())
    assert all(again.view(s) == g.view(s) for s in range(9))
    w = g.sample_world(3, random.Random(1))
    assert w.view(3) == g.view(3) and w.events_for(3) == g.events_for(3)
    # The same cards, as many of each (which copies is bookkeeping).
    assert sorted(int(c) & 63 for c in w.hand(3)) == sorted(int(c) & 63 for c in g.hand(3))


def test_200_seeded_games_play_to_the_end() -> None:
    """200 seeded games of kazhutha-two-packs between random bots, every one
    played to the end with a loser (or none when the last go out together)."""
    s = cardrules.simulate("kazhutha-two-packs", 9, 200, ["random"], seed=2026)
    assert s.games == 200 and s.finished == 200
    assert sum(s.losers) + s.no_loser == 200


def test_the_heuristic_beats_random() -> None:
    """60 seeded games, one heuristic seat against eight random ones: a fair seat
    would lose a ninth of them (about 7); the heuristic loses at most 2, fewer
    than any random seat on average."""
    s = cardrules.simulate("kazhutha-two-packs", 9, 60, ["heuristic", "random"], seed=2026)
    assert s.finished == 60
    assert s.losers[0] <= 2
    assert s.losers[0] * 8 < sum(s.losers[1:])


def test_search_bots_play_two_packs_legally() -> None:
    """PIMC and ISMCTS search worlds sampled from a seat's view (one of several
    packs: the unseen cards shared again) and choose a legal card."""
    from cardrules.bots import ISMCTSBot, PIMCBot

    g = Game(cardrules.load("kazhutha-two-packs"), 9, seed=4)
    rng = random.Random(0)
    for _ in range(25):
        g.apply_as_current(rng.choice(g.legal_actions()))
    for bot in (PIMCBot(seed=1, worlds=2), ISMCTSBot(seed=1, iterations=20, worlds=4)):
        seat = g.to_act
        assert seat is not None
        assert bot.choose_in(g, seat) in g.legal_actions()


def test_observation_counts_the_copies_of_each_card() -> None:
    """A game of two packs gives each copy a place, filled in card order: a card
    held once fills its first copy's place, twice both, whichever copies the
    seat holds (so the observation never tells which)."""
    v = cardrules.load_text(
        "game: two-pack-whist\nplayers: 4 to 8\nhand size: 13\ntrumps: spades\n"
        "follow: must follow suit\nscore: tricks\ndeck: 2 standard packs\n"
        "identical cards: the first played ranks higher\n"
    )
    g = Game(v, 6, seed=1)
    layout = cardrules.observation_layout(v, 6)
    hand = next(s for s in layout if s.name == "hand")
    assert hand.stop - hand.start == 104
    obs = g.observation(0)
    assert len(obs) == layout[-1].stop
    bits = obs[hand.start : hand.stop]
    counts = Counter(int(c) & 63 for c in g.hand(0))
    # Places 0-51: the first copies, 52-103: the second, in card order.
    assert [i for i in range(52) if bits[i]] == sorted(counts)
    assert [i for i in range(52) if bits[52 + i]] == sorted(c for c, n in counts.items() if n == 2)


def test_a_world_of_two_packs_shares_the_undealt_cards_too() -> None:
    """With cards left undealt, a sampled world deals the unseen cards anew among
    the other hands and the undealt rest: the seat's view is the same, and over
    a few worlds the undealt cards are not always the real ones."""
    v = cardrules.load_text(
        "game: two-pack-whist\nplayers: 4 to 8\nhand size: 13\ntrumps: spades\n"
        "follow: must follow suit\nscore: tricks\ndeck: 2 standard packs\n"
        "identical cards: the first played ranks higher\n"
    )
    g = Game(v, 4, seed=3)
    rng = random.Random(3)
    for _ in range(9):
        g.apply_as_current(rng.choice(g.legal_actions()))
    real = g.card_locations()["undealt"]
    undealt = set()
    for k in range(5):
        w = g.sample_world(0, random.Random(k))
        assert w.view(0) == g.view(0) and w.events_for(0) == g.events_for(0)
        undealt.add(w.card_locations()["undealt"])
    assert undealt != {real}


def test_the_page_s_worked_tricks_at_a_table_of_nine() -> None:
    """The rules page plays a dead trick and a cut through the engine, at 9."""
    from cardrules.rulebook.shed import play_worked_tricks

    w = play_worked_tricks(cardrules.load("kazhutha-two-packs"), 9)
    assert w is not None
    (plays1, dead), (_plays2, pickup) = w.tricks
    assert dead[0] == "dead" and pickup[0] == "pickup"
    assert len(plays1) == 9 and str(plays1[0][2]) == "A♠"
    assert w.next_leader == pickup[1]
