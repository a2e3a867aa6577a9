"""The built-in files of issue 11, each a rule of the language: golden tests on
stacked deals of the rule that makes each file what it is, and 200 seeded games to
the end of each under the property checks (the card-set oracle of
``test_card_rules``, card conservation, the score formula).
"""

from __future__ import annotations

import random

import pytest
from catalog_support import check_log, stack
from test_card_rules import Context, breaks, oracle_choose, oracle_legal

import cardrules
from cardrules.cards import card
from cardrules.engine import Bid, Game, Look, Play
from cardrules.errors import IllegalAction
from cardrules.rules import Mode

NEW_FILES = (
    "oh-hell-broken-off-suit",
    "callbreak-in-suit",
    "oh-hell-no-ruffing",
    "oh-hell-blind-nil",
    "kazhutha-next-highest-leads",
    "donkey-first-out",
    "callbreak",
)


def legal(g: Game) -> set[str]:
    return {str(a.card) for a in g.legal_actions() if isinstance(a, Play)}


def play_checked(v: cardrules.Variant, players: int, seed: int) -> Game:
    """A seeded random game, every play checked against the card-set oracle."""
    rng = random.Random(seed)
    g = Game(v, players, seed, max_tricks=5_000)
    p = v.play
    pack = v.deck.cards.mask
    ctx = Context([], g.trump)
    hand_number = g.hand_number
    tricks_this_hand = 0
    while not g.is_over:
        if g.hand_number != hand_number:
            hand_number, tricks_this_hand = g.hand_number, 0
            ctx = Context([], g.trump)
        seat = min(g.waiting_for)
        actions = g.legal_actions(seat)
        if g.phase == "play":
            hand = set(g.hand(seat))
            ctx.trick = [c for _, c in g.current_trick()]
            got = {a.card for a in actions if isinstance(a, Play)}
            assert got == oracle_legal(p, hand, ctx, tricks_this_hand == 0)
            action = rng.choice(actions)
            assert isinstance(action, Play)
            forced = not ctx.trick and oracle_choose(p.lead, hand, ctx)[1] > 0
            if breaks(p, action.card, ctx, forced, hand):
                ctx.broken.add(action.card.suit)
            before = g.tricks_won, len(g.events)
            g.apply(action, seat=seat)
            if any(e[0] in ("trick", "dead", "pickup") for e in g.events[before[1] :]):
                tricks_this_hand += 1
        else:
            g.apply(rng.choice(actions), seat=seat)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask
            union |= part.mask
        assert union == pack
    return g


@pytest.mark.parametrize("name", NEW_FILES)
def test_new_file_checks_and_plays_200_games(name: str) -> None:
    v = cardrules.load(name)
    assert v.source.startswith("# ")
    assert "pagat" in v.source.lower() or "house rule" in v.source
    counts = list(v.players.counts())
    for i in range(200):
        g = play_checked(v, counts[i % len(counts)], 5000 + i)
        assert g.result is not None
        if v.mode is Mode.TRICKS:
            check_log(v, g)
        else:
            assert g.result.finished


# --------------------------------------------------------------------------- golden


def oh_hell_deal(name: str, hands: dict[int, str], turned: str) -> Game:
    """A one-hand-of-3 start of ``name`` for four players, seat 0 dealing."""
    v = cardrules.load(name, hands="list 3")
    order: list[str] = []
    for i in range(3):
        for seat in (1, 2, 3, 0):
            order.append(hands[seat].split()[i])
    order.append(turned)
    g = Game(v, 4, 1, deck=order, first_dealer=0)
    while g.phase == "bid":
        g.apply(g.legal_actions()[0], g.to_act)
    return g


def test_broken_off_suit_a_forced_trump_lead_does_not_break() -> None:
    """oh-hell-broken-off-suit: seat 1 holds only spades (trumps, turned 2♠) and
    leads one; seat 2 follows and wins; it may still not lead its other trump."""
    g = oh_hell_deal(
        "oh-hell-broken-off-suit",
        {1: "Q♠ J♠ 10♠", 2: "K♠ A♠ 5♦", 3: "3♠ 7♦ 8♦", 0: "4♠ 9♦ 10♦"},
        "2♠",
    )
    assert g.trump is cardrules.Suit.SPADES
    for c in ("Q♠", "K♠", "3♠", "4♠"):
        g.apply(Play(card(c)), g.to_act)
    assert g.to_act == 2 and legal(g) == {"5♦"}
    with pytest.raises(IllegalAction, match="have not been broken"):
        g.apply(Play(card("A♠")), g.to_act)


def test_broken_off_suit_void_players_must_trump() -> None:
    g = oh_hell_deal(
        "oh-hell-broken-off-suit",
        {1: "A♥ 2♣ 3♣", 2: "K♠ 5♦ 6♦", 3: "4♥ 7♦ 8♦", 0: "5♥ 9♦ 10♦"},
        "2♠",
    )
    g.apply(Play(card("A♥")), g.to_act)
    assert legal(g) == {"K♠"}


def test_no_ruffing_void_player_keeps_trumps() -> None:
    g = oh_hell_deal(
        "oh-hell-no-ruffing",
        {1: "A♥ 2♣ 3♣", 2: "K♠ 5♦ 6♦", 3: "Q♠ J♠ 9♠", 0: "5♥ 9♦ 10♦"},
        "2♠",
    )
    g.apply(Play(card("A♥")), g.to_act)
    assert legal(g) == {"5♦", "6♦"}
    g.apply(Play(card("5♦")), g.to_act)
    assert legal(g) == {"Q♠", "J♠", "9♠"}  # nothing but trumps: may trump


#: Callbreak dealt by seat 0, anticlockwise: seat 3 leads first.
CALLBREAK = stack(
    "K♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",  # seat 3
    "5♠ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦",  # seat 2
    "3♠ 9♠ A♦ A♣ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥",  # seat 1
    "2♠ 4♠ 6♠ 7♠ 8♠ 10♠ J♠ Q♠ A♠ K♠ J♥ Q♥ A♥",  # seat 0
)


def callbreak(name: str) -> Game:
    g = Game(cardrules.load(name), 4, 1, deck=CALLBREAK, first_dealer=0)
    while g.phase == "bid":
        g.apply(Bid(1), g.to_act)
    assert g.to_act == 3
    return g


def test_callbreak_following_a_trumped_trick() -> None:
    """callbreak: seat 3 leads K♥; seat 2 is void and must trump (5♠); seat 1 holds
    hearts: it cannot beat a trumped trick, so any heart will do."""
    g = callbreak("callbreak")
    g.apply(Play(card("K♥")), g.to_act)
    assert g.to_act == 2 and legal(g) == {"5♠"}
    g.apply(Play(card("5♠")), g.to_act)
    assert g.to_act == 1
    assert legal(g) == {"2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥"}


UNDER = stack(
    "K♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ A♥",  # seat 3 leads K♥
    "9♠ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦",  # seat 2 must trump: 9♠
    "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ A♦ 2♣ 3♣ 4♣ 5♣ 6♣",  # seat 1: void, only lower trumps
    "10♠ J♠ Q♠ K♠ A♠ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",  # seat 0: void, higher trumps
)


def test_callbreak_over_trump_or_any_card() -> None:
    """The published rule (issue 11): a player void in the suit led who cannot beat
    the trump already played may play any card; the old file forced an under-trump
    (2♠ to 8♠ here). A player who can over-trump must."""
    g = Game(cardrules.load("callbreak"), 4, 1, deck=UNDER, first_dealer=0)
    while g.phase == "bid":
        g.apply(Bid(1), g.to_act)
    g.apply(Play(card("K♥")), g.to_act)
    assert legal(g) == {"9♠"}
    g.apply(Play(card("9♠")), g.to_act)
    assert g.to_act == 1 and legal(g) == {str(c) for c in g.hand(1)}
    g.apply(Play(card("2♣")), g.to_act)
    assert legal(g) == {"10♠", "J♠", "Q♠", "K♠", "A♠"}


def test_callbreak_in_suit_void_player_is_free() -> None:
    g = callbreak("callbreak-in-suit")
    g.apply(Play(card("K♥")), g.to_act)
    assert legal(g) == {"5♠", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "10♦"} | {
        "J♦",
        "Q♦",
        "K♦",
    }


def test_blind_nil_only_zero_may_be_bid_blind() -> None:
    v = cardrules.load("oh-hell-blind-nil")
    g = Game(v, 4, 3)
    seat = g.to_act
    assert g.legal_actions() == (Look(), Bid(0, blind=True))
    with pytest.raises(IllegalAction, match="only 0 may be bid blind"):
        g.apply(Bid(2, blind=True), g.to_act)
    g.apply(Bid(0, blind=True), g.to_act)
    assert g.blind_bids[seat]


@pytest.mark.parametrize(("tricks", "points"), [(0, 50), (1, -50), (3, -50)])
def test_blind_nil_scores(tricks: int, points: int) -> None:
    from cardrules.scoring import score_env

    f = cardrules.load("oh-hell-blind-nil").scoring.formula
    assert f is not None
    env = score_env(bid=0, tricks=tricks, cards=7, hand=1, players=4, blind=True)
    assert f.evaluate(env) == points
    env = score_env(bid=0, tricks=0, cards=7, hand=1, players=4, blind=False)
    assert f.evaluate(env) == 10


def dead_trick_leads(name: str, games: int) -> list[tuple[int, int, set[int]]]:
    """From seeded random games of ``name``: for every dead trick whose winner went out
    with it, (the seat that leads next, the expected seat by the next-highest rule,
    the seats still in)."""
    found = []
    for seed in range(games):
        g = Game(cardrules.load(name), 4, seed)
        rng = random.Random(seed)
        while not g.is_over:
            n = len(g.events)
            g.apply(rng.choice(g.legal_actions()), g.to_act)
            new = g.events[n:]
            dead = [e for e in new if e[0] == "dead"]
            outs = {e[1] for e in new if e[0] == "out"}
            if dead and dead[0][1] in outs and not g.is_over:
                _, _, seats, trick = dead[0]
                led = trick[0].suit
                still_in = {s for s in range(4) if not g.view(0).out[s]}
                ranked = sorted((c, s) for c, s in zip(trick, seats, strict=True) if c.suit == led)
                nxt = [s for _, s in reversed(ranked) if s in still_in]
                assert g.to_act is not None
                found.append((g.to_act, nxt[0] if nxt else -1, still_in))
    return found


def test_next_highest_leads_after_the_winner_goes_out() -> None:
    """kazhutha-next-highest-leads: when the winner of a dead trick has just played its
    last card, the player of the next-highest card of the suit led leads; in plain
    Kazhutha the next player still in (anticlockwise) does."""
    found = dead_trick_leads("kazhutha-next-highest-leads", 300)
    assert len(found) >= 20
    for to_act, expected, _ in found:
        assert to_act == expected
    plain = dead_trick_leads("kazhutha", 300)
    assert len(plain) >= 20
    assert any(to_act != expected for to_act, expected, _ in plain)


def test_donkey_first_out_ends_the_game_and_most_cards_loses() -> None:
    v = cardrules.load("donkey-first-out")
    ties = 0
    for seed in range(100):
        g = Game(v, 4, seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
            if any(e[0] == "out" for e in g.events):
                break
        assert g.is_over, "the game goes on after the first player went out"
        assert g.result is not None and g.result.finished
        counts = {s: len(g.hand(s)) for s in range(4) if len(g.hand(s))}
        most = max(counts.values())
        top = [s for s, k in counts.items() if k == most]
        if len(top) == 1:
            assert g.result.loser == top[0]
        else:
            ties += 1
            assert g.result.loser is None
    plain = Game(cardrules.load("donkey"), 4, 1)
    rng = random.Random(1)
    while not any(e[0] == "out" for e in plain.events):
        plain.apply(rng.choice(plain.legal_actions()), plain.to_act)
    assert not plain.is_over


def first_trick_end(v: cardrules.Variant, seed: int) -> tuple[str, int]:
    g = Game(v, 4, seed)
    rng = random.Random(seed)
    while True:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        done = [e for e in g.events if e[0] in ("dead", "pickup")]
        if done:
            return done[0][0], len(done[0][3])


def test_no_cut_on_the_first_trick() -> None:
    """``cuts on the first trick: no``: a player void in the suit led on the first
    trick discards; the trick goes round and is dead, never picked up."""
    v = cardrules.load_text(
        "game: k\nextends: kazhutha\ncuts on the first trick: no\n", path="k.cardrules"
    )
    plain = cardrules.load("kazhutha")
    ends = [first_trick_end(v, seed) for seed in range(150)]
    assert all(end == ("dead", 4) for end in ends)
    assert any(first_trick_end(plain, seed)[0] == "pickup" for seed in range(150))


def test_a_blind_bid_outside_the_bids_is_refused_at_its_line() -> None:
    with pytest.raises(cardrules.VariantError, match="0 may be bid blind, but bids run from 1"):
        cardrules.load_text(
            "game: b\nextends: oh-hell\nblind bids: only 0\nbids: 1 to the hand size\n",
            path="b.cardrules",
        )
