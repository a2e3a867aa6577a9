"""Jokers that cannot win a hand without trumps (``jokers without trumps:
cannot win``, issue 23, capabilities 1 and 3) and the built-in
``bid-whist-jokers`` (Pagat's main Bid Whist, with the big and little joker):
the file's own checks, the joker's rules on stacked deals (with trumps, uptown
and downtown; without, where a joker never wins and the card after a joker led
sets the suit), a refusal that names no suit after a joker led, a Hypothesis
property that every trick's winner and every card's legality match an
independent reading of the rules, and bots that play it legally.
"""

from __future__ import annotations

import random

import pytest
from catalog_support import check_file, stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Card, Game, Play, card
from cardrules.bots import HeuristicBot, RandomBot, play_game
from cardrules.cards import Suit
from cardrules.dsl import load_text
from cardrules.engine.actions import Decline, Discard, Downtown, Name
from cardrules.errors import IllegalAction
from cardrules.rules import JokerNoTrump
from cardrules.simulate import simulate

BWJ = cardrules.load("bid-whist-jokers")

#: Seat 1 (the dealer's neighbour) holds the hearts but the ace, the jokers are
#: with seats 1 and 2; the kitty is six low spades.
DEAL = [
    *stack(
        "BJ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥",
        "LJ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣",
        "K♥ A♥ K♣ A♣ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦",
        "10♦ J♦ Q♦ K♦ A♦ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠",
    ),
    *(card(c) for c in ("2♠", "3♠", "4♠", "5♠", "6♠", "7♠")),
]


def _declare(g: Game, suit: Suit | None, low: bool = False) -> None:
    """Seat 1 bids 4, the others pass; it names ``suit`` and discards the kitty."""
    g.apply(Bid(4), 0)
    for s in (1, 2, 3):
        g.apply(Decline(), s)
    g.apply(Name(suit), 0)
    g.apply(Downtown(low), 0)
    for c in ("2♠", "3♠", "4♠", "5♠", "6♠", "7♠"):
        g.apply(Discard(c), 0)


def _play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def _last_trick(g: Game) -> tuple[int, tuple[Card, ...]]:
    e = [e for e in g.events if e.kind == "trick"][-1]
    return e.winner, tuple(e.cards)


def test_the_file_says_where_it_comes_from_and_round_trips() -> None:
    check_file(
        "bid-whist-jokers",
        {"deck.jokers", "trumps.order", "trumps.kitty", "trumps.joker_no_trump"},
    )
    lead = BWJ.source.split("game:")[0].lower()
    assert "pagat.com/auctionwhist/bidwhist.html" in lead
    assert BWJ.trumps.joker_no_trump is JokerNoTrump.CANNOT_WIN
    assert len(BWJ.deck.cards) == 54 and BWJ.trumps.kitty == 6


def test_the_deal_leaves_a_kitty_of_six() -> None:
    g = Game(BWJ, 4, seed=3)
    places = g.card_locations()
    assert len(places["hands"]) == 48 and len(places["undealt"]) == 6


def test_with_trumps_a_joker_is_the_highest_trump() -> None:
    g = Game(BWJ, 4, deck=DEAL, first_dealer=3)
    _declare(g, Suit.SPADES)
    _play(g, "2♥")
    # Seat 2 has no heart: the little joker is a spade (a trump), and wins.
    _play(g, "LJ", "K♥", "A♠")
    assert _last_trick(g)[0] == 1


def test_downtown_the_jokers_stay_above_the_reversed_trumps() -> None:
    g = Game(BWJ, 4, deck=DEAL, first_dealer=3)
    _declare(g, Suit.HEARTS, low=True)
    # Hearts trumps, downtown ace high: BJ, LJ, A♥, 2♥, 3♥ ... K♥.
    _play(g, "BJ", "LJ", "A♥", "10♦")
    assert _last_trick(g)[0] == 0
    _play(g, "2♥", "2♣", "K♥", "J♦")
    assert _last_trick(g)[0] == 0  # the 2♥ over the K♥ downtown


def test_without_trumps_a_joker_never_wins() -> None:
    g = Game(BWJ, 4, deck=DEAL, first_dealer=3)
    _declare(g, None)
    _play(g, "2♥")
    # Seat 2, void in hearts, may throw the little joker; it cannot win.
    assert "LJ" in {str(a.card) for a in g.legal_actions()}
    _play(g, "LJ", "K♥", "10♦")
    assert _last_trick(g)[0] == 2


def test_without_trumps_a_joker_led_lets_the_next_card_set_the_suit() -> None:
    g = Game(BWJ, 4, deck=DEAL, first_dealer=3)
    _declare(g, None)
    _play(g, "BJ")
    # No suit is led yet: seat 2 may play any card, the other joker too.
    assert {str(a.card) for a in g.legal_actions()} == {str(c) for c in g.hand(1)}
    _play(g, "LJ")
    assert {str(a.card) for a in g.legal_actions()} == {str(c) for c in g.hand(2)}
    _play(g, "K♣")
    # Clubs now: seat 4 has none, and plays anything; the K♣ wins.
    _play(g, "A♠")
    assert _last_trick(g) == (2, (card("BJ"), card("LJ"), card("K♣"), card("A♠")))


def test_a_refusal_after_a_joker_led_names_the_suit_the_next_card_set() -> None:
    g = Game(BWJ, 4, deck=DEAL, first_dealer=3)
    _declare(g, None)
    _play(g, "BJ", "2♣")
    with pytest.raises(IllegalAction) as info:
        g.apply(Play(card("K♥")), 2)  # seat 3 holds the K♣ and the A♣
    assert info.value.code == "must_follow_suit"
    assert "must follow clubs" in str(info.value)


def test_a_refusal_after_a_card_that_always_loses_is_led_does_not_crash() -> None:
    """Regression: with a card that always loses led (Wizard's jester), the
    refusal of a card off the suit the next card set read the jester's own
    'suit' as a suit of the pack and raised ValueError, not IllegalAction."""
    v = load_text("game: x\nextends: wizard\nhand size: 2\nhands: 3 hands of the same size\n")
    deal = stack("X5 3♣", "7♥ 4♣", "K♥ 4♦", "2♦ 5♦", turn="2♠")
    g = Game(v, 4, deck=deal, first_dealer=3)
    for s, b in enumerate((1, 1, 1, 0)):
        g.apply(Bid(b), s)
    _play(g, "X5", "7♥")
    with pytest.raises(IllegalAction) as info:
        g.apply(Play(card("4♦")), 2)
    assert info.value.code == "must_follow_suit"
    assert "must follow hearts" in str(info.value)


def test_the_rules_page_says_a_joker_is_worthless_without_trumps() -> None:
    from cardrules.rulebook.words import joker_no_trump_words

    text = joker_no_trump_words(BWJ)
    assert "worthless" in text and "never wins" in text
    assert "next card played that is not a joker" in text


def test_the_old_rule_still_makes_a_joker_the_highest_card() -> None:
    v = load_text("game: x\nextends: bid-whist-jokers\njokers without trumps: highest card\n")
    g = Game(v, 4, deck=DEAL, first_dealer=3)
    _declare(g, None)
    _play(g, "2♥", "LJ", "K♥", "10♦")
    assert _last_trick(g)[0] == 1


# --------------------------------------------------------------------------- the property


def _rank_power(c: Card, low: bool) -> int:
    """The power of a card of a suit: uptown aces high; downtown (ace high)
    A, 2, 3 ... K."""
    rank = int(c) % 13  # 0 for a 2 ... 12 for an ace
    if not low:
        return rank
    return 20 if rank == 12 else 13 - rank


def _oracle(cards: list[Card], trump: Suit | None, low: bool) -> int:
    """The position of the trick's winning card, read from the rules alone: with
    trumps the jokers are the highest trumps (big, little) and a joker led is a
    trump led; without, a joker never wins and the first card that is not a
    joker sets the suit (a trick of jokers only goes to the first)."""
    if trump is None:
        plain = [i for i, c in enumerate(cards) if not c.is_joker]
        if not plain:
            return 0
        led = cards[plain[0]].suit
        return max(
            (i for i in plain if cards[i].suit is led), key=lambda i: _rank_power(cards[i], low)
        )
    led_suit = trump if cards[0].is_joker else cards[0].suit

    def power(i: int) -> int:
        c = cards[i]
        if c.is_joker:
            return 1000 + (1 if c == card("BJ") else 0)
        if c.suit is trump:
            return 500 + _rank_power(c, low)
        return _rank_power(c, low) if c.suit is led_suit else -1

    return max(range(len(cards)), key=power)


def _counts_as(c: Card, trump: Suit | None) -> object:
    if c.is_joker:
        return trump if trump is not None else "joker"
    return c.suit


def _check_follow(hand: list[Card], c: Card, trick: list[Card], trump: Suit | None) -> None:
    """``c``, played from ``hand`` to ``trick``, follows suit as the rules say."""
    if trump is None:
        led = next((k.suit for k in trick if not k.is_joker), None)
    else:
        led = _counts_as(trick[0], trump) if trick else None
    if led is None:
        return
    if _counts_as(c, trump) != led:
        held = [k for k in hand if k != c and _counts_as(k, trump) == led]
        assert not held, f"{c} played to {trick} (led {led}) while holding {held}"


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    choices=st.integers(0, 2**32 - 1),
    no_trumps=st.floats(0.3, 1.0),
)
def test_every_trick_with_jokers_goes_where_an_independent_reading_says(
    seed: int, choices: int, no_trumps: float
) -> None:
    v = BWJ
    g = Game(v, 4, seed=seed, max_tricks=36)
    rng = random.Random(choices)
    pack = v.deck.cards.mask
    trick: list[Card] = []
    tricks_seen = 0
    low = False
    while g.result is None:
        legal = g.legal_actions()
        seat = g.to_act
        names = [a for a in legal if isinstance(a, Name)]
        if names and rng.random() < no_trumps and Name(None) in names:
            action = Name(None)  # most hands without trumps
        else:
            action = rng.choice(legal)
        if isinstance(action, Downtown):
            low = action.low
        if isinstance(action, Play) and g.phase == "play":
            _check_follow(list(g.hand(seat)), action.card, trick, g.trump)
            trick.append(action.card)
            trump_now = g.trump
        g.apply(action, seat)
        done = [e for e in g.events if e.kind == "trick"]
        if len(done) > tricks_seen:
            tricks_seen = len(done)
            last = done[-1]
            assert list(last.cards) == trick
            want = _oracle(trick, trump_now, low)
            assert last.winner == last.seats[want], (trick, trump_now, low)
            trick = []
        if g.phase == "bid":
            low = False
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask
            union |= part.mask
        assert union == pack


def test_the_bots_play_it_legally() -> None:
    for seed in range(8):
        g = Game(BWJ, 4, seed=seed, max_tricks=48)
        play_game(g, [HeuristicBot(), RandomBot(seed), HeuristicBot(), RandomBot(seed + 1)])
        assert g.result is not None


def test_200_seeded_games_play_to_the_end() -> None:
    """Random play of 200 seeded games ends every one, with the side's totals
    the sum of its hands, and with no-trump hands in which a joker was played."""
    joker_no_trump = 0
    for seed in range(200):
        g = Game(BWJ, 4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        assert g.result is not None and g.result.finished
        totals = [0, 0, 0, 0]
        trump: object = 0
        for e in g._events:
            if e[0] == "score":
                totals = [t + p for t, p in zip(totals, e[4], strict=True)]
            if e[0] == "made":
                trump = e[3]
            if e[0] == "trick" and trump is None:
                joker_no_trump += any(52 <= c < 54 for c in e[3])
        assert max(totals) >= 7 or min(totals) <= -7
        assert list(g.scores) == totals
    assert joker_no_trump


def test_the_rules_page_says_the_jokers_rules() -> None:
    page = cardrules.rulebook(BWJ)
    assert "The 6 cards left after the deal are the kitty" in page
    assert "the jokers are worthless" in page
    assert "stay the highest trumps" in page


def test_the_heuristic_beats_random() -> None:
    """A side of heuristic bots (seats 1 and 3) beats a side of random ones."""
    s = simulate(BWJ, 4, 60, bots=["heuristic", "random", "heuristic", "random"], seed=11)
    assert s.finished == 60 and s.wins[0] == s.wins[2] and s.wins[0] > 45


def test_the_heuristic_bot_knows_a_joker_wins_off_suit_without_trumps() -> None:
    """With ``jokers without trumps: highest card`` a defender void in the suit
    led cuts with its joker (it wins the trick); with ``cannot win`` it keeps
    the joker and throws a low card, since the joker would win nothing."""
    high = load_text("game: x\nextends: bid-whist-jokers\njokers without trumps: highest card\n")
    for variant, want in ((high, "LJ"), (BWJ, "2♣")):
        g = Game(variant, 4, deck=DEAL, first_dealer=3)
        _declare(g, None)
        _play(g, "2♥")
        view = g.view(1)
        assert view.jokers_without_trumps == variant.trumps.joker_no_trump.value
        action = HeuristicBot().choose(view)
        assert action == Play(card(want)), (variant.name, action)


def test_the_view_says_what_a_joker_is_without_trumps_only_when_the_file_does() -> None:
    g = Game(BWJ, 4, seed=1)
    assert g.view(0).to_dict()["jokers_without_trumps"] == "cannot win"
    assert (
        "jokers_without_trumps"
        not in Game(cardrules.load("bid-whist"), 4, seed=1).view(0).to_dict()
    )
    from cardrules.engine.views.view import View

    assert View.from_dict(g.view(0).to_dict()) == g.view(0)


@pytest.mark.parametrize(("rule", "winner"), [("highest card", 1), ("cannot win", 2)])
def test_a_take_back_keeps_the_trick_winner_a_joker_made(rule: str, winner: int) -> None:
    """Regression: with ``jokers without trumps: highest card``, taking back the
    card played after a joker that was winning gave the trick back to the card
    led (the take-back's recount read a joker off suit as a loser)."""
    v = load_text(
        f"game: x\nextends: bid-whist-jokers\njokers without trumps: {rule}\n"
        "take backs: until the next player acts\n"
    )
    g = Game(v, 4, deck=DEAL, first_dealer=3)
    _declare(g, None)
    _play(g, "2♥", "LJ", "K♥")
    g.take_back(2)
    _play(g, "A♥", "10♦")
    assert _last_trick(g)[0] == winner
