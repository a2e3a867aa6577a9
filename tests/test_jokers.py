"""Jokers (issue 12, item 7): ``deck: standard 52 with 2 jokers`` and jokers in
``trump order:``, and the built-in ``spades-jokers``.

Golden games on stacked deals (the big joker beats everything, the little
joker every card but the big joker, a joker led calls for trumps, a player
whose only trump is a joker must play it to a trump lead, a joker is not led
before trumps are broken), Hypothesis properties over whole games
(conservation of the 52 cards of a pack with jokers, legal cards obeying the
rank order, each trick's winner by the order, views never showing a joker a
seat may not know), saves, replays, records and clones, the formatter's round
trip, the deal (52-card games shuffle as before), card points on a joker, the
refusal of a Python-built pack with jokers the engine could not rank, 200
seeded games of ``spades-jokers`` to the end and its bots.

The oracle of the properties is :class:`cardrules.rules.TrumpRule`'s
``trump_cards`` and ``effective_suit``, not the engine's tables.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import attrs
import pytest
from catalog_support import cards, check_file
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Card, Game, Pass, Play, card, record
from cardrules.cards import BIG_JOKER, LITTLE_JOKER, CardSet, Suit
from cardrules.dsl import format, load_text, parse
from cardrules.engine import Look, replay
from cardrules.engine.actions import Action
from cardrules.engine.state.compiled_rules import variant_fingerprint
from cardrules.engine.state.deck_order import _random_words, _shuffled
from cardrules.engine.views.notation import action_from_dict, action_to_dict, parse_action
from cardrules.errors import IllegalAction, VariantError
from cardrules.rulebook import rulebook
from cardrules.rules import DeckRule, Variant
from cardrules.simulate import simulate

SJ = cardrules.load("spades-jokers")
SPADES = cardrules.load("spades")
BJ, LJ = BIG_JOKER, LITTLE_JOKER


def deal(*hands: str) -> list[Any]:
    """A deck giving ``hands[i]`` to the i-th seat to be dealt to (the dealer's
    left first), one card at a time."""
    per = [cards(h) for h in hands]
    return [per[j][i] for i in range(13) for j in range(4)]


def bid(g: Game, *bids: int) -> None:
    for b in bids:
        if Look() in g.legal_actions():
            g.apply(Look(), g.to_act)
        g.apply(Bid(b), g.to_act)


def play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def legal(g: Game) -> set[str]:
    return {str(a.card) for a in g.legal_actions() if isinstance(a, Play)}


def last_trick(g: Game) -> tuple[int, tuple[int, ...]]:
    ev = [e for e in g.events if e[0] == "trick"][-1]
    return ev[1], tuple(int(c) for c in ev[3])


# Seat 1 (the dealer's left: seat 4 deals) holds every club but the 2♣ and
# the A♥; seat 2 the little joker and no club; seat 3 the big joker and no
# club; seat 4 the A♠ and no club.
STACK = deal(
    "3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ A♥",
    "LJ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 2♥ 3♥ 4♥ 5♥ 2♠ 3♠",
    "BJ 9♦ 10♦ J♦ Q♦ K♦ 6♥ 7♥ 8♥ 9♥ 4♠ 5♠ 6♠",
    "A♠ A♦ 10♥ J♥ Q♥ K♥ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
)


# Seat 1 holds the big joker and otherwise only spades, seat 2 a single spade
# (the A♠), seat 3 the little joker and no spade, seat 4 neither.
JOKER_LEAD = deal(
    "BJ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
    "A♠ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
    "LJ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
    "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥",
)


def stacked() -> Game:
    g = Game(SJ, 4, deck=STACK, first_dealer=3)
    bid(g, 3, 3, 3, 3)
    return g


def test_the_pack_has_two_jokers_and_no_two_of_clubs_or_diamonds() -> None:
    pack = SJ.deck.cards
    assert len(pack) == 52 and SJ.deck.jokers == 2
    assert BJ in pack and LJ in pack and card("2♣") not in pack and card("2♦") not in pack
    assert SJ.trumps.trump_cards(Suit.SPADES, pack)[:3] == (BJ, LJ, card("A♠"))
    g = Game(SJ, 4, seed=5)
    assert [len(g.hand(s)) for s in range(4)] == [13] * 4
    assert g.view(0).jokers == (LJ, BJ) and g.view(0).pack_size == 52
    assert g.view(0).to_dict()["jokers"] == ["LJ", "BJ"]
    assert g.view(0).trump_order == (BJ, LJ)


def test_the_big_joker_beats_the_little_joker_and_the_ace_of_trumps() -> None:
    g = stacked()
    play(g, "3♣", "LJ", "BJ", "A♠")
    assert last_trick(g) == (2, (int(card("3♣")), 52, 53, int(card("A♠"))))


def test_the_little_joker_beats_the_ace_of_trumps() -> None:
    g = stacked()
    play(g, "3♣", "LJ", "4♠", "A♠")
    assert last_trick(g) == (1, (int(card("3♣")), 52, int(card("4♠")), int(card("A♠"))))


@pytest.mark.parametrize("lead", ["BJ", "2♠"])
def test_a_joker_is_a_trump_for_following(lead: str) -> None:
    """Seat 1 holds the big joker and otherwise only spades, so it may lead
    trumps before they are broken; a joker led calls for trumps like a spade,
    and a player whose only trump is a joker must play it to a trump lead."""
    g = Game(SJ, 4, deck=JOKER_LEAD, first_dealer=3)
    bid(g, 3, 3, 3, 3)
    assert g.to_act == 0 and {"BJ", "2♠"} <= legal(g)
    play(g, lead)
    assert legal(g) == {"A♠"}  # seat 2's only spade, clubs aside
    play(g, "A♠")
    assert legal(g) == {"LJ"}  # seat 3: the little joker and diamonds
    play(g, "LJ")
    assert legal(g) == {str(c) for c in g.hand(3)}  # seat 4: no trump, any card
    play(g, "2♥")
    assert last_trick(g)[0] == (0 if lead == "BJ" else 2)


def test_a_joker_is_not_led_before_spades_are_broken() -> None:
    g = Game(
        SJ,
        4,
        deck=deal(
            "BJ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
            "LJ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
            "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠",
            "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥",
        ),
        first_dealer=3,
    )
    bid(g, 3, 3, 3, 3)
    assert legal(g) == {str(c) for c in g.hand(0)} - {"BJ"}
    before = g.to_json()
    with pytest.raises(IllegalAction, match="unbroken spades"):
        g.apply(Play(BJ), g.to_act)
    with pytest.raises(IllegalAction):
        g.apply_action(Play(BJ).id)
    assert g.to_json() == before
    # Seat 2 plays the little joker to a club lead (void in clubs): it wins,
    # and spades are broken.
    play(g, "3♣", "LJ", "2♠", "2♥")
    assert last_trick(g)[0] == 1 and g.view(0).trumps_broken
    play(g, "3♦", "3♠", "3♥", "4♣")
    assert last_trick(g)[0] == 2
    # A spade led: seat 1's only trump is the big joker, which it must play.
    play(g, "4♠", "4♥")
    assert legal(g) == {"BJ"}
    play(g, "BJ", "4♦")
    assert last_trick(g)[0] == 0


def test_a_joker_by_a_seat_not_to_play_or_not_holding_it_is_refused() -> None:
    g = stacked()
    before = g.to_json()
    with pytest.raises(IllegalAction, match="turn"):
        g.apply(Play(LJ), 1)
    with pytest.raises(IllegalAction, match="you do not hold LJ"):
        g.apply(Play(LJ), g.to_act)
    assert g.to_json() == before


# --------------------------------------------------------------------------- properties


def _winner_oracle(v: Variant, trump: Suit, plays: list[tuple[int, Card]]) -> int:
    order = v.trumps.trump_cards(trump, v.deck.cards)
    trumps = [(order.index(c), s) for s, c in plays if c in order]
    if trumps:
        return min(trumps)[1]
    led = plays[0][1].suit
    return max((int(c.rank), s) for s, c in plays if c.suit is led)[1]


JOKER_GAMES = [
    SJ,
    load_text(
        """\
game: one-joker-test
players: 3 to 5
deck: standard 52 with 1 joker
hand size: 7
hands: 3 hands of the same size
trumps: cycle hearts, spades, clubs
trump order: BJ, J of trumps, J of the same colour
bidding: none
follow: must follow suit, must trump when void
score: tricks
tie: shared
"""
    ),
]


@given(st.integers(0, 2**32), st.sampled_from(range(len(JOKER_GAMES))))
@settings(max_examples=40, deadline=None)
def test_whole_games_conserve_the_cards_and_obey_the_rank_order(seed: int, which: int) -> None:
    v = JOKER_GAMES[which]
    players = 4 if v is SJ else 3 + seed % 3
    g = Game(v, players, seed=seed, max_tricks=300)
    rng = random.Random(seed)
    pack = v.deck.cards
    must_trump = v.play.must_trump
    plays: list[tuple[int, Card]] = []
    hand = g.hand_number
    steps = 0
    while not g.is_over and steps < 400:
        steps += 1
        if g.hand_number != hand:
            hand, plays = g.hand_number, []
        every = CardSet()
        for part in g.card_locations().values():
            assert not every & part
            every |= part
        assert every == pack
        s = g.to_act
        assert s is not None
        if g.phase != "play":
            g.apply(rng.choice(g.legal_actions()), g.to_act)
            continue
        trump = g.trump
        assert trump is not None  # every hand of a pack with jokers has trumps
        held = g.hand(s)
        ok = CardSet([a.card for a in g.legal_actions() if isinstance(a, Play)])
        if plays:
            led = v.trumps.effective_suit(plays[0][1], trump, pack)
            suit = CardSet([c for c in held if v.trumps.effective_suit(c, trump, pack) is led])
            trumps_held = CardSet(
                [c for c in held if v.trumps.effective_suit(c, trump, pack) is trump]
            )
            if suit:
                assert ok == suit
            elif must_trump:
                assert ok == (trumps_held or held)
            else:
                assert ok == held
        for seat in range(players):
            view = g.view(seat)
            # A seat sees its own cards (once it has looked) and the played ones.
            assert view.hand is None or set(view.hand) == set(g.hand(seat))
            assert not view.visible_hands and not view.known_hands
            shown = set(view.hand or ()) | set(view.played) | {c for _, c in view.trick}
            # The last trick (of this hand or the hand before) was played face up.
            seen = shown | {c for _, c in view.last_trick}
            if view.last_hand is not None:
                seen |= {c for _, c in view.last_hand.last_trick}
            text = view.to_json()
            for j in (LJ, BJ):
                if j in pack and j not in seen:
                    # A joker this seat may not see appears only as a rule: in the
                    # pack's list of jokers and in the trump order.
                    assert text.count(f'"{j}"') == 2, (j, seat)
            for other in range(players):
                if other != seat:
                    assert not set(g.hand(other)) & shown
        a = rng.choice(g.legal_actions())
        assert isinstance(a, Play)
        plays.append((s, a.card))
        g.apply(a, g.to_act)
        if len(plays) == g.players:
            ev = [e for e in g.events if e[0] == "trick"][-1]
            assert ev[1] == _winner_oracle(v, trump, plays)
            plays = []
        if rng.random() < 0.05:
            assert g.clone() == g
            assert g.clone().legal_actions() == g.legal_actions()
    assert Game.from_json(g.to_json()) == g
    assert replay(v, g.events) == g


def test_views_never_show_another_seats_joker() -> None:
    for seed in range(30):
        g = Game(SJ, 4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number == 1:
            for seat in range(4):
                d = g.view(seat).to_dict()
                mine = set(d["hand"] or [])
                shown = set(d["played"]) | {c for _, c in d["trick"]} | mine
                assert not d["visible_hands"] and not d["known_hands"]
                for other in range(4):
                    if other != seat:
                        assert not {str(c) for c in g.hand(other)} & shown
                # The jokers' names are rules, known to all; where they are is not.
                assert d["jokers"] == ["LJ", "BJ"] and d["trump_order"] == ["BJ", "LJ"]
                deals = [e for e in g.events_for(seat) if e[0] == "deal"]
                assert len(deals) == 1
                hands = deals[0][4]
                assert all(h is None for k, h in enumerate(hands) if k != seat)
                played = [e[2] for e in g.events if e[0] == "play" and e[1] == seat]
                # A blind bidder's hand is hidden in the deal; once it may see
                # it, a reveal entry follows (streams only grow).
                reveals = [e.cards for e in g.events_for(seat) if e.kind == "reveal"]
                assert hands[seat] is None or not reveals
                if d["hand"] is None:  # a blind bidder who has not looked at its cards
                    assert hands[seat] is None and not reveals
                else:
                    own = hands[seat] if hands[seat] is not None else reveals[-1]
                    assert own == g.hand(seat) | CardSet(played)
            g.apply(rng.choice(g.legal_actions()), g.to_act)


# --------------------------------------------------------------------------- saves, records


def test_saves_replays_records_and_clones_carry_the_jokers() -> None:
    for seed in range(6):
        g = Game(SJ, 4, seed=seed)
        rng = random.Random(seed)
        n = rng.randrange(20, 120)
        for _ in range(n):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        again = Game.from_json(g.to_json())
        assert again == g and again.legal_actions() == g.legal_actions()
        assert g.clone() == g
        assert replay(SJ, g.events) == g
        text = record.dump(g)
        assert record.dump(record.load(text)) == text


def test_a_joker_played_is_saved_by_its_own_action_id() -> None:
    g = Game(
        SJ,
        4,
        deck=deal(
            "BJ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
            "A♠ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
            "LJ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
            "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥",
        ),
        first_dealer=3,
    )
    bid(g, 3, 3, 3, 3)
    g.apply_action(Play(BJ).id)
    play(g, "A♠", "LJ")
    d = json.loads(g.to_json())
    ids = [a[1] for a in d["actions"]]
    assert ids[-3:] == [327, 51, 326]
    assert "BJ" in d["decks"][0] and "LJ" in d["decks"][0]
    assert Game.from_json(g.to_json()) == g
    text = record.dump(g)
    assert "seat 1: play BJ" in text and "seat 3: play LJ" in text
    assert re.search(r"seat 1 holds [^\n]* BJ\n", text) and re.search(
        r"seat 3 holds [^\n]* LJ\n", text
    )
    again = record.load(text)
    assert record.dump(again) == text and again.legal_actions() == g.legal_actions()
    assert again.view(3) == g.view(3)


# --------------------------------------------------------------------------- the language


def test_format_round_trips_a_pack_with_jokers() -> None:
    text = format(SJ)
    assert "deck: standard 52 with 2 jokers, without 2♣ 2♦\n" in text
    assert "trump order: BJ, LJ\n" in text
    assert parse(text) == attrs.evolve(parse(text))
    w = load_text(text)
    assert format(w) == text and w.deck == SJ.deck and w.trumps == SJ.trumps
    one = JOKER_GAMES[1]
    assert "deck: standard 52 with 1 joker\n" in format(one)
    assert load_text(format(one)).deck == one.deck


@pytest.mark.parametrize(
    "line",
    [
        "deck: standard 52 with 2 jokers, without 2♣ 2♦",
        "deck: standard 52 with 2 jokers without 2♣, 2♦",
        "deck: STANDARD 52 WITH 2 JOKERS, WITHOUT 2c 2d",
    ],
)
def test_the_deck_line_reads_in_the_ways_people_write_it(line: str) -> None:
    text = SJ.source.replace("deck: standard 52 with 2 jokers, without 2♣ 2♦", line)
    assert load_text(text).deck == DeckRule(
        removed=card("2♣").bit | card("2♦").bit, lowest=2, jokers=2
    )


def test_a_short_pack_with_a_joker() -> None:
    v = load_text(
        """\
game: benny-test
players: 4
teams: 1 and 3, 2 and 4
deck: 9 to ace with 1 joker
hand size: 6
hands: 2 hands of the same size
trumps: cycle hearts, spades
trump order: BJ, J of trumps, J of the same colour
bidding: none
follow: must follow suit
score: tricks
tie: shared
"""
    )
    assert v.deck.size == 25 and BJ in v.deck.cards and LJ not in v.deck.cards
    g = Game(v, 4, seed=3)
    assert g.view(0).trump_order == (BJ, card("J♥"), card("J♦"))
    while not g.is_over:
        g.apply(g.legal_actions()[-1], g.to_act)
    assert Game.from_json(g.to_json()) == g
    page = rulebook(v)
    assert "a 25-card pack" in page and "one joker (BJ)" in page


def test_fingerprints_of_packs_without_jokers_are_unchanged() -> None:
    assert SPADES.deck.jokers == 0
    with_field = SPADES.evolve(deck=attrs.evolve(SPADES.deck, jokers=0))
    assert variant_fingerprint(with_field) == variant_fingerprint(SPADES)
    # The spades file's fingerprint from before jokers existed: tests/golden/fingerprints.json.
    assert variant_fingerprint(SJ) != variant_fingerprint(SPADES)


def test_a_joker_can_carry_card_points() -> None:
    v = load_text(
        """\
game: points-test
players: 4
deck: standard 52 with 2 jokers, without 2♣ 2♦
hand size: 13
hands: 1 hands of the same size
trumps: spades
trump order: BJ, LJ
bidding: none
follow: must follow suit
card points: BJ 5, LJ -2
score: points
tie: shared
"""
    )
    values = v.scoring.card_points
    assert len(values) == 54 and values[53] == 5 and values[52] == -2 and sum(values) == 3
    assert "card points: BJ 5, LJ -2\n" in format(v)
    assert load_text(format(v)) == v
    g = Game(v, 4, deck=JOKER_LEAD, first_dealer=3)
    play(g, "BJ", "A♠", "LJ", "2♥")
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)
    points = next(e[4] for e in g.events if e[0] == "score")
    assert list(points) == [3, 0, 0, 0]


def test_a_python_built_pack_with_jokers_the_engine_cannot_rank_is_refused() -> None:
    v = SPADES.evolve(deck=DeckRule(jokers=2, removed=card("2♣").bit | card("2♦").bit))
    with pytest.raises(VariantError, match="a pack with jokers needs"):
        Game(v, 4, seed=1)


def test_the_shuffle_of_a_52_card_pack_is_unchanged_and_jokers_are_dealt_anywhere() -> None:
    # The first 52 words are those of SHAKE-128's first 416 bytes, as before jokers.
    import hashlib
    import struct

    words = _random_words(7, 0)
    assert words == struct.unpack("<52Q", hashlib.shake_128(b"cardrules:7:0").digest(416))
    assert _random_words(7, 0, jokers=True)[:52] == words
    # A 54-card pack is shuffled whole with words 0-50, 52 and 53: word 51, the
    # first dealer's, plays no part in it.
    big = _random_words(7, 0, jokers=True)
    pack54 = tuple(range(54))
    dealt = _shuffled(big, pack54, 54)
    assert sorted(dealt) == list(pack54)
    assert _shuffled((*big[:51], big[51] ^ 12345, *big[52:]), pack54, 54) == dealt
    assert _shuffled((*big[:52], big[52] + 1, big[53]), pack54, 54) != dealt
    pack52 = tuple(range(52))
    order = list(pack52)
    for i in range(51):
        j = i + words[i] % (52 - i)
        order[i], order[j] = order[j], order[i]
    assert _shuffled(words, pack52, 52) == order
    seats = {BJ: set(), LJ: set()}
    for seed in range(40):
        g = Game(SJ, 4, seed=seed)
        for s in range(4):
            for j in (BJ, LJ):
                if j in g.hand(s):
                    seats[j].add(s)
    assert seats[BJ] == seats[LJ] == {0, 1, 2, 3}


# --------------------------------------------------------------------------- the built-in


def test_the_file_says_where_it_comes_from_and_differs_from_spades_in_the_pack() -> None:
    check_file("spades-jokers", {"deck.removed", "deck.jokers", "trumps.order"})
    assert "pagat.com/auctionwhist/spades.html" in SJ.source


def test_the_rules_page_says_what_the_pack_is_and_where_the_jokers_rank() -> None:
    page = rulebook(SJ)
    assert "a 54-card pack: the standard 52 and two jokers" in page.lower()
    assert "without 2♣ 2♦ (52 cards)" in page
    assert "the big joker (BJ) and the little joker (LJ)" in page
    assert "BJ LJ A♠ K♠ Q♠" in page
    assert "a player who holds one and no other spade must play a joker" in page


def test_200_seeded_games_play_to_the_end() -> None:
    jokers_won = 0
    for seed in range(200):
        g = Game(SJ, 4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        assert g.result is not None and g.result.finished
        assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]
        for e in g.events:
            if e[0] == "trick":
                seats, cards_ = e[2], e[3]
                if BJ in cards_:
                    # The big joker wins every trick it is played to.
                    assert seats[cards_.index(BJ)] == e[1]
                    jokers_won += 1
                elif LJ in cards_:
                    assert seats[cards_.index(LJ)] == e[1]
    assert jokers_won > 0


def test_the_bots_play_legally_and_the_heuristic_beats_random() -> None:
    s = simulate(SJ, 4, 30, bots=["heuristic", "random", "heuristic", "random"], seed=11)
    assert s.finished == 30 and s.wins[0] == s.wins[2] and s.wins[0] > 24


def test_a_joker_can_be_passed_and_the_pass_round_trips() -> None:
    v = load_text(
        "game: pass-jokers\nextends: spades-jokers\nblind bids: no\npass: 2 cards across\n"
    )
    g = Game(v, 4, deck=JOKER_LEAD, first_dealer=3)
    assert g.phase == "pass" and Pass(BJ) in g.legal_actions(0)
    g.apply(Pass(BJ), 0)
    g.apply(Pass("2♠"), 0)
    for seat in (1, 2, 3):
        for a in [a for a in g.legal_actions(seat) if isinstance(a, Pass)][:2]:
            g.apply(a, seat)
    # Across: seat 1's big joker is now seat 3's, and a view shows it to seat 3 only.
    assert BJ in g.hand(2) and BJ not in g.hand(0)
    assert g.view(2).received and BJ in g.view(2).received
    assert BJ in g.view(0).passed and BJ not in set(g.view(1).hand or ())
    d = json.loads(g.to_json())
    assert [0, Pass(BJ).id] in d["actions"] and Pass(BJ).id == 329
    assert Game.from_json(g.to_json()) == g and replay(v, g.events) == g


@given(
    st.sampled_from([2, 7, 9]),
    st.integers(0, 2),
    st.lists(st.integers(0, 53), max_size=4, unique=True),
)
@settings(max_examples=60, deadline=None)
def test_format_round_trips_any_pack(lowest: int, jokers: int, out: list[int]) -> None:
    pack = DeckRule(lowest=lowest, jokers=jokers).cards
    removed = sum(1 << c for c in out if c in pack)
    v = SJ.evolve(deck=DeckRule(removed=removed, lowest=lowest, jokers=jokers))
    text = format(v)
    assert parse(text, validate=False) == v
    assert format(parse(text, validate=False)) == text


def test_the_rules_page_says_a_joker_must_be_played_only_where_suit_must_be_followed() -> None:
    text = SJ.source.split("\n# Worked examples")[0] + "\nfollow: any card\nlead: any card\n"
    free = load_text(text.replace("game: spades-jokers", "game: free-jokers"))
    page = rulebook(free)
    assert "they count as trumps (spades)." in page
    assert "must play a joker" not in page
    assert "must play a joker" in rulebook(SJ)


def test_the_command_line_shows_jokers_first() -> None:
    from cardrules.commands.play import format_hand, sort_for_display

    hand = [card("A♠"), LJ, card("2♥"), BJ]
    assert format_hand(hand, Suit.SPADES) == "BJ LJ   ♠ A   ♥ 2"
    assert format_hand(hand, Suit.SPADES, unicode=False) == "BJ LJ   S A   H 2"
    assert sort_for_display(hand, Suit.SPADES) == [BJ, LJ, card("A♠"), card("2♥")]
    assert CardSet(hand).sorted_for_display(Suit.SPADES) == [BJ, LJ, card("A♠"), card("2♥")]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("BJ", Play(BJ)),
        ("play lj", Play(LJ)),
        ("play big joker", Play(BJ)),
        ("Little Joker", Play(LJ)),
        ("pass big joker", Pass(BJ)),
    ],
)
def test_typed_text_names_a_joker_action(text: str, action: Action) -> None:
    assert parse_action(text) is action
    assert parse_action(action.label) is action
    assert action_from_dict(action_to_dict(action)) is action
