"""Jokers turned up for trumps (issue 23, capability 3): the kind `jokers` of
`special turned up:` in each of its three rules (the dealer names trumps, no
trumps, a suit the joker counts as), and the check that asks for it.
"""

from __future__ import annotations

import pytest
from catalog_support import stack

from cardrules import Game, Variant, card
from cardrules.cards import Suit
from cardrules.dsl import load_text
from cardrules.engine.actions import Decline, Discard, Name, OrderUp
from cardrules.errors import VariantError

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


def test_a_turned_up_joker_must_be_given_a_rule() -> None:
    why = _refusal(
        OH_HELL_JOKERS.replace("special turned up: jokers, the dealer names trumps\n", "")
    )
    assert "turned up for trumps" in why and "special turned up: jokers" in why
    _load(OH_HELL_JOKERS)
    # A game whose trumps are never turned up has no use for the line.
    fixed = "game: x\nextends: spades-jokers\nspecial turned up: jokers, the dealer names trumps\n"
    assert "has no effect" in _refusal(fixed)


# --------------------------------------------------------------------------- a turned-up joker


def _turned_joker_game(rule: str) -> Game:
    text = OH_HELL_JOKERS.replace("the dealer names trumps", rule)
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


def test_a_turned_up_joker_can_mean_a_suit() -> None:
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
