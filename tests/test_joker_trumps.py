"""Jokers with trumps that are named, turned up, ordered up or cycling (issue 23,
capability 3): the checks that ask what a turned-up joker does (`special
turned up: jokers, ...`) and what a joker is in a hand without trumps (`jokers without trumps:`),
Spades with jokers where the highest bidder names trumps (refused before, with
the false message "the game is played without trumps"), the turned-up joker
in each of its three rules, the joker as the highest card of a no-trump hand,
and properties: with jokers and each kind of trumps, cards are conserved, every
card played follows suit as an independent reading of the trump order says,
and every trick goes to the card that reading says.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from catalog_support import stack
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import Bid, Card, Game, Play, Variant, card
from cardrules.bots import HeuristicBot, RandomBot, play_game
from cardrules.cards import Suit
from cardrules.dsl import load_text
from cardrules.engine.actions import Decline, Discard, Name, OrderUp
from cardrules.errors import IllegalAction, VariantError
from cardrules.rules import TrumpCardKind

#: Spades with two jokers, the highest trumps, whose highest bidder names trumps
#: (or no trumps): the game of the issue that was refused. Three cards each, so
#: that a stacked deal is short; no blind bids, so that a bid needs no look.
SPADES_NAMED = """game: spades-named-jokers
extends: spades
deck: standard 52 with 2 jokers, without 2♣ 2♦
trumps: named by the highest bidder
may name no trumps: yes
trump order: BJ, LJ
jokers without trumps: highest card
hand size: 3
blind bids: no
"""

#: Oh Hell with two jokers, the highest trumps; a joker turned up lets the dealer name.
OH_HELL_JOKERS = """game: oh-hell-jokers
extends: oh-hell
deck: standard 52 with 2 jokers
trump order: BJ, LJ
special turned up: jokers, the dealer names trumps
"""


def _load(text: str) -> Variant:
    return load_text(text)


def _refusal(text: str) -> str:
    with pytest.raises(VariantError) as info:
        load_text(text)
    return str(info.value)


# --------------------------------------------------------------------------- the checks


def test_spades_with_jokers_and_named_trumps_loads() -> None:
    v = _load(SPADES_NAMED)
    assert v.trumps.joker_no_trump is not None
    # Without the no-trump rule the file is refused, and the message is true.
    why = _refusal(SPADES_NAMED.replace("jokers without trumps: highest card\n", ""))
    assert "a player may name no trumps" in why
    assert "jokers without trumps" in why
    assert "played without trumps" not in why.split("but")[1].split(",")[0]
    # Without no trumps to name, every hand has trumps: no rule is needed, and
    # the line would do nothing.
    no_nt = SPADES_NAMED.replace("may name no trumps: yes\n", "")
    _load(no_nt.replace("jokers without trumps: highest card\n", ""))
    assert "has no effect" in _refusal(no_nt)


def test_a_turned_up_joker_must_be_given_a_rule() -> None:
    why = _refusal(
        OH_HELL_JOKERS.replace("special turned up: jokers, the dealer names trumps\n", "")
    )
    assert "turned up for trumps" in why and "special turned up: jokers" in why
    _load(OH_HELL_JOKERS)
    # A game whose trumps are never turned up has no use for the line.
    fixed = "game: x\nextends: spades-jokers\nspecial turned up: jokers, the dealer names trumps\n"
    assert "has no effect" in _refusal(fixed)


def test_jokers_are_still_refused_where_there_are_never_trumps() -> None:
    why = _refusal(
        "game: x\nextends: oh-hell\ntrumps: none\ndeck: standard 52 with 2 jokers\n"
        "trump order: BJ, LJ\njokers without trumps: highest card\n"
    )
    assert "played without trumps" in why
    assert "without trumps" in _refusal(
        "game: x\nextends: kazhutha\ndeck: standard 52 with 2 jokers\n"
    )


def test_a_no_trump_turned_joker_needs_the_no_trump_rule() -> None:
    text = OH_HELL_JOKERS.replace("the dealer names trumps", "no trumps")
    why = _refusal(text)
    assert "turned-up joker makes a hand without trumps" in why
    _load(text + "jokers without trumps: highest card\n")


# --------------------------------------------------------------------------- named trumps


def _spades(deck: list[Card]) -> Game:
    return Game(_load(SPADES_NAMED), 4, deck=deck, first_dealer=3)


def _bid_and_name(g: Game, suit: Suit | None) -> None:
    for b in (2, 1, 0, 0):
        g.apply(Bid(b), g.to_act)
    assert g.phase == "trumps" and g.to_act == 0
    g.apply(Name(suit), g.to_act)


def _play(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply(Play(card(t)), g.to_act)


def _tricks(g: Game) -> list[tuple[int, tuple[Card, ...]]]:
    return [(e.winner, e.cards) for e in g.events if e.kind == "trick"]


SPADES_DEAL = stack("A♥ 3♣ 4♣", "BJ 3♠ 4♠", "K♥ 5♣ 6♣", "LJ 5♠ 6♠")


def test_a_joker_is_a_trump_of_the_named_suit() -> None:
    g = _spades(SPADES_DEAL)
    _bid_and_name(g, Suit.HEARTS)
    assert g.trump is Suit.HEARTS
    _play(g, "A♥")
    # The big joker is a heart now: its holder, with no other heart, must play it.
    assert {str(a.card) for a in g.legal_actions()} == {"BJ"}
    _play(g, "BJ", "K♥", "LJ")
    assert _tricks(g)[-1][0] == 1


def test_a_joker_is_the_highest_card_without_trumps() -> None:
    g = _spades(SPADES_DEAL)
    _bid_and_name(g, None)
    assert g.trump is None
    _play(g, "A♥")
    # No trumps: the jokers are a suit of their own, playable when void in hearts.
    assert {str(a.card) for a in g.legal_actions()} == {"BJ", "3♠", "4♠"}
    _play(g, "BJ", "K♥", "LJ")
    assert _tricks(g)[-1][0] == 1  # the big joker over the little, both over the ace


def test_a_joker_played_off_suit_wins_without_trumps() -> None:
    g = _spades(stack("3♣ 4♣ 5♦", "LJ 3♠ 4♠", "5♣ 6♣ 6♦", "A♠ 5♠ 6♠"))
    _bid_and_name(g, None)
    _play(g, "3♣", "LJ", "5♣", "5♠")  # void in clubs: the little joker wins
    assert _tricks(g)[-1][0] == 1 and g.to_act == 1
    _play(g, "3♠", "6♣", "6♠", "4♣")
    assert _tricks(g)[-1][0] == 3  # the 6♠ over the 3♠: no trumps, suit led
    g = _spades(stack("3♣ 4♣ 5♦", "3♠ 4♠ 5♥", "5♣ 6♣ 6♦", "A♠ BJ 6♠"))
    _bid_and_name(g, None)
    _play(g, "3♣", "5♥", "5♣", "A♠")
    assert _tricks(g)[-1][0] == 2  # the 5♣: the ace of spades is no trump
    _play(g, "6♦")
    # Seat 4, void in diamonds, may play the big joker, and it wins.
    assert "BJ" in {str(a.card) for a in g.legal_actions()}
    _play(g, "BJ", "5♦", "3♠")
    assert _tricks(g)[-1][0] == 3 and g.to_act == 3


def test_a_joker_may_not_be_played_while_holding_the_suit_led() -> None:
    g = _spades(stack("3♣ 4♣ 5♦", "LJ 7♣ 4♠", "5♣ 6♣ 6♦", "A♠ 5♠ 6♠"))
    _bid_and_name(g, None)
    _play(g, "3♣")
    assert {str(a.card) for a in g.legal_actions()} == {"7♣"}
    with pytest.raises(IllegalAction):
        g.apply(Play(card("LJ")), 1)


def test_a_led_joker_names_a_suit_in_the_middle_of_the_trick() -> None:
    deck = stack("BJ 3♣ 4♣", "A♥ 3♠ 4♠", "K♥ 5♣ 6♣", "Q♥ 5♠ 6♠")
    g = _spades(deck)
    _bid_and_name(g, None)
    _play(g, "BJ")
    # Its leader names the suit it stands for, before anyone follows.
    assert g.phase == "trumps" and g.to_act == 0
    assert set(g.legal_actions()) == {Name(s) for s in Suit}
    with pytest.raises(IllegalAction):
        g.apply(Name(None), 0)
    g.apply(Name(Suit.HEARTS), 0)
    assert g.phase == "play" and g.to_act == 1
    # The others must follow hearts; the joker wins the trick.
    assert {str(a.card) for a in g.legal_actions()} == {"A♥"}
    _play(g, "A♥", "K♥", "Q♥")
    assert _tricks(g)[-1] == (0, (card("BJ"), card("A♥"), card("K♥"), card("Q♥")))
    assert g.to_act == 0
    # Named clubs instead: a player void in clubs may play anything.
    g = _spades(deck)
    _bid_and_name(g, None)
    _play(g, "BJ")
    g.apply(Name(Suit.CLUBS), 0)
    assert {str(a.card) for a in g.legal_actions()} == {"A♥", "3♠", "4♠"}
    _play(g, "A♥", "5♣")
    assert {str(a.card) for a in g.legal_actions()} == {"Q♥", "5♠", "6♠"}
    _play(g, "Q♥")
    assert _tricks(g)[-1][0] == 0


# --------------------------------------------------------------------------- a turned-up joker


def _turned_joker_game(rule: str) -> Game:
    text = OH_HELL_JOKERS.replace("the dealer names trumps", rule)
    if rule == "no trumps":
        text += "jokers without trumps: highest card\n"
    v = _load(text)
    hand = v.hand_sizes(4)[0]
    pack = [c for c in v.deck.cards if not c.is_joker]
    deck = [*pack[: 4 * hand], card("BJ")]
    return Game(v, 4, deck=deck, first_dealer=3)


def test_a_turned_up_joker_lets_the_dealer_name_trumps() -> None:
    g = _turned_joker_game("the dealer names trumps")
    assert g.turned_up == card("BJ")
    assert g.phase == "trumps" and g.to_act == 3
    assert set(g.legal_actions()) == {Name(s) for s in Suit}
    g.apply(Name(Suit.DIAMONDS), 3)
    assert g.trump is Suit.DIAMONDS and g.phase == "bid" and g.to_act == 0
    made = [e for e in g.events if e.kind == "made"]
    assert made[-1].seat == 3 and made[-1].suit is Suit.DIAMONDS


def test_a_turned_up_joker_can_mean_no_trumps_or_a_suit() -> None:
    g = _turned_joker_game("no trumps")
    assert g.trump is None and g.phase == "bid"
    g = _turned_joker_game("clubs")
    assert g.trump is Suit.CLUBS and g.phase == "bid"


EUCHRE_JOKER_HEARTS = """game: euchre-joker-hearts
extends: euchre
deck: 9 to ace with 1 joker
trump order: BJ, J of trumps, J of the same colour
special turned up: jokers, hearts
"""


def test_an_order_up_joker_given_a_suit_is_offered_as_that_suit() -> None:
    v = _load(EUCHRE_JOKER_HEARTS)
    deal = stack(
        "A♥ A♣ K♣ Q♣ 10♣", "J♦ A♠ K♠ Q♠ 10♠", "J♥ A♦ K♦ Q♦ 10♦", "10♥ 9♣ 9♦ 9♠ Q♥", turn="BJ"
    )
    g = Game(v, 4, deck=deal, first_dealer=3)
    assert g.phase == "trumps" and set(g.legal_actions()) == {OrderUp(), Decline()}
    for _ in range(4):
        g.apply(Decline(), g.to_act)
    # Turned down: hearts, the suit it was offered as, cannot be named.
    assert Name(Suit.HEARTS) not in g.legal_actions()
    g = Game(v, 4, deck=deal, first_dealer=3)
    g.apply(OrderUp(), g.to_act)
    assert g.trump is Suit.HEARTS and card("BJ") in g.hand(3)
    g.apply(Discard(card("9♣")), 3)
    assert g.phase in ("trumps", "play")


# --------------------------------------------------------------------------- properties


def _top(v: Variant, trump: Suit | None) -> list[Card]:
    """The trump order read afresh: the cards it names when ``trump`` is trumps,
    highest first, those in the pack (none without trumps)."""
    if trump is None:
        return []
    twin = {Suit.CLUBS: Suit.SPADES, Suit.SPADES: Suit.CLUBS}
    twin |= {Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}
    out: list[Card] = []
    for e in v.trumps.order:
        if e.kind is TrumpCardKind.CARD:
            assert e.card is not None
            c = e.card
        else:
            s = trump if e.kind is TrumpCardKind.OF_TRUMPS else twin[trump]
            c = Card(int(s) * 13 + e.rank - 2)
        if c in v.deck.cards and c not in out:
            out.append(c)
    return out


def _suit(c: Card, trump: Suit | None, top: list[Card], named: Suit | None) -> object:
    """The suit ``c`` counts as: trumps for a card of the order, the named suit
    for a joker led without trumps, ``"joker"`` for another joker without trumps."""
    if c in top:
        return trump
    if c.is_joker:
        return named if named is not None else "joker"
    return c.suit


def _oracle_winner(
    cards: list[Card], trump: Suit | None, top: list[Card], named: Suit | None
) -> int:
    """The position in the trick of its winning card, read from the rules alone."""
    suits = [_suit(c, trump, top, named if i == 0 else None) for i, c in enumerate(cards)]

    def power(i: int) -> tuple[int, int]:
        c = cards[i]
        if c in top:
            return (3, len(top) - top.index(c))
        if c.is_joker:  # no trumps: the jokers beat every card, the big the little
            return (4, int(c))
        if suits[i] == trump:
            return (2, c.rank)
        if suits[i] == suits[0]:
            return (1, c.rank)
        return (0, 0)

    return max(range(len(cards)), key=power)


_PROPERTY_FILES = {
    "fixed": "game: p\nextends: spades-jokers\n",
    "named": SPADES_NAMED.replace("hand size: 3", "hand size: 6"),
    "turned": OH_HELL_JOKERS,
    "turned-no-trumps": OH_HELL_JOKERS.replace("the dealer names trumps", "no trumps")
    + "jokers without trumps: highest card\n",
    "order-up": (
        "game: p\nextends: euchre\ndeck: 9 to ace with 1 joker\n"
        "trump order: BJ, J of trumps, J of the same colour\n"
        "special turned up: jokers, the dealer names trumps\n"
    ),
    "order-up-suit": EUCHRE_JOKER_HEARTS,
    "cycle": (
        "game: p\nextends: kachuful\ndeck: standard 52 with 2 jokers\ntrump order: BJ, LJ\n"
        "trumps: cycle spades, no trumps, hearts\njokers without trumps: highest card\n"
    ),
}


@cache
def _property_variant(kind: str) -> Variant:
    return load_text(_PROPERTY_FILES[kind])


def _check_play(
    g: Game, v: Variant, seat: int, c: Card, trick: list[Card], named: Suit | None
) -> None:
    """``c``, played by ``seat`` to ``trick``, follows suit as the rules read afresh say."""
    if not trick:
        return
    trump = g.trump
    top = _top(v, trump)
    led = _suit(trick[0], trump, top, named)
    hand = g.hand(seat)
    if _suit(c, trump, top, None) != led:
        held = [k for k in hand if k != c and _suit(k, trump, top, None) == led]
        assert not held, f"{c} played to {trick} (led {led}) while holding {held}"


@settings(max_examples=35, deadline=None)
@given(
    kind=st.sampled_from(sorted(_PROPERTY_FILES)),
    seed=st.integers(0, 10_000),
    choices=st.integers(0, 2**32 - 1),
)
def test_jokers_conserve_cards_follow_suit_and_win_as_the_trump_order_says(
    kind: str, seed: int, choices: int
) -> None:
    v = _property_variant(kind)
    g = Game(v, 4, seed=seed, max_tricks=40)
    rng = random.Random(choices)
    pack = v.deck.cards.mask
    trick: list[Card] = []
    named: Suit | None = None
    tricks_seen = 0
    while g.result is None:
        legal = g.legal_actions()
        action = rng.choice(legal)
        seat = g.to_act
        if isinstance(action, Play) and g.phase == "play":
            _check_play(g, v, seat, action.card, trick, named)
            if not trick:
                named = None
            trick.append(action.card)
            trump_now, top_now = g.trump, _top(v, g.trump)
        elif isinstance(action, Name) and g.phase == "trumps" and trick:
            named = action.suit  # a joker led without trumps stands for this suit
        g.apply(action, seat)
        done = [e for e in g.events if e.kind == "trick"]
        if len(done) > tricks_seen:
            tricks_seen = len(done)
            last = done[-1]
            assert list(last.cards) == trick
            want = _oracle_winner(trick, trump_now, top_now, named)
            assert last.winner == last.seats[want], (kind, trick, trump_now, named)
            trick = []
            named = None
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask
            union |= part.mask
        assert union == pack


@pytest.mark.parametrize("kind", ["named", "turned-no-trumps", "order-up-suit", "cycle"])
def test_the_bots_play_jokers_with_every_kind_of_trumps_legally(kind: str) -> None:
    """The heuristic bot and the random one play whole hands with jokers, in
    hands with trumps and without (every action they choose is legal, or
    ``apply`` would refuse it)."""
    v = _property_variant(kind)
    for seed in range(12):
        g = Game(v, 4, seed=seed, max_tricks=60)
        play_game(g, [HeuristicBot(), RandomBot(seed), HeuristicBot(), RandomBot(seed + 1)])
        assert g.result is not None
