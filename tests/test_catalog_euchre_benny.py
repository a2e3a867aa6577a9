"""The built-in ``euchre-benny``, after Pagat's Euchre page
(https://www.pagat.com/euchre/euchre.html): 25 cards, the joker (the benny,
best bower) the highest trump whatever the suit. The file's own checks, its
defining rules on stacked deals (the benny over the right bower, the benny a
trump for following and leading, a turned-up benny), 200 seeded games to the
end, its rules page, and bots.
"""

from __future__ import annotations

import random

import pytest
from catalog_support import check_file, play, plays, stack

import cardrules
from cardrules import Game
from cardrules.cards import Suit, card
from cardrules.engine.actions import Decline, Discard, Name, OrderUp, WithPartner
from cardrules.errors import IllegalAction
from cardrules.rulebook import rulebook
from cardrules.simulate import simulate

BENNY = cardrules.load("euchre-benny")

#: Seat 2 holds the benny; seat 1 the right bower of hearts, seat 3 the left.
DEAL = stack(
    "J♥ A♣ K♣ Q♣ 10♣",
    "BJ A♠ K♠ Q♠ 10♠",
    "J♦ A♦ K♦ Q♦ 10♦",
    "10♥ 9♣ 9♦ 9♠ Q♥",
    turn="9♥",
)


def test_the_file_says_where_it_comes_from_and_changes_the_pack_and_the_trumps() -> None:
    check_file(
        "euchre-benny",
        {"deck.jokers", "trumps.order", "trumps.turned_special"},
    )
    assert "pagat.com/euchre/euchre.html" in BENNY.source.split("game:")[0]


def test_the_pack_is_25_cards_with_one_joker() -> None:
    assert len(BENNY.deck.cards) == 25
    assert [c for c in BENNY.deck.cards if c.is_joker] == [card("BJ")]
    g = Game(BENNY, 4, seed=1)
    locations = g.card_locations()
    assert len(locations["hands"]) == 20 and len(locations["undealt"]) == 4


def _ordered_up() -> Game:
    g = Game(BENNY, 4, deck=DEAL, first_dealer=3)
    g.apply(OrderUp(), g.to_act)  # seat 1 makes hearts; the dealer takes the 9♥
    g.apply(Discard("9♣"), 3)
    g.apply(WithPartner(), g.to_act)
    return g


def test_the_benny_beats_the_right_bower() -> None:
    g = _ordered_up()
    assert g.trump is Suit.HEARTS
    play(g, "J♥")
    assert plays(g) == {"BJ"}  # a trump led: the benny is seat 2's only trump
    play(g, "BJ", "J♦", "9♥")
    trick = g.events[-1]
    assert trick.kind == "trick" and trick.winner == 1


def test_the_benny_led_calls_for_trumps() -> None:
    deal = stack(
        "BJ A♣ K♣ Q♣ 10♣", "J♦ A♠ K♠ Q♠ 10♠", "J♥ A♦ K♦ Q♦ 10♦", "10♥ 9♣ 9♦ 9♠ Q♥", turn="9♥"
    )
    g = Game(BENNY, 4, deck=deal, first_dealer=3)
    g.apply(OrderUp(), 0)
    g.apply(Discard("9♣"), 3)
    g.apply(WithPartner(), 0)
    play(g, "BJ")
    # Hearts are trumps: seat 2's only trump is the left bower, a heart.
    assert plays(g) == {"J♦"}
    play(g, "J♦")
    assert plays(g) == {"J♥"}
    play(g, "J♥", "9♥")
    assert g.events[-1].kind == "trick" and g.events[-1].winner == 0


def test_a_turned_up_benny_lets_the_dealer_name_trumps_and_take_it() -> None:
    deal = stack(
        "J♥ A♣ K♣ Q♣ 10♣", "A♠ K♠ Q♠ 10♠ 9♠", "J♦ A♦ K♦ Q♦ 10♦", "10♥ 9♣ 9♦ 9♥ Q♥", turn="BJ"
    )
    g = Game(BENNY, 4, deck=deal, first_dealer=3)
    assert g.turned_up == card("BJ") and g.phase == "trumps" and g.to_act == 3
    assert set(g.legal_actions()) == {Name(s) for s in Suit}
    with pytest.raises(IllegalAction):
        g.apply(OrderUp(), 0)
    g.apply(Name(Suit.HEARTS), 3)
    assert g.trump is Suit.HEARTS and g.view(0).trump_maker == 3
    assert card("BJ") in g.hand(3) and len(g.hand(3)) == 6
    g.apply(Discard("9♣"), 3)
    assert len(g.hand(3)) == 5 and list(g.card_locations()["discarded"]) == [card("9♣")]
    g.apply(WithPartner(), 3)
    assert g.phase == "play" and g.to_act == 0
    play(g, "J♥", "9♠", "J♦")
    assert plays(g) == {"BJ", "10♥", "9♥", "Q♥"}
    play(g, "BJ")
    assert g.events[-1].winner == 3


def test_a_benny_never_turned_plays_as_euchre() -> None:
    g = Game(BENNY, 4, deck=DEAL, first_dealer=3)
    for _ in range(4):
        g.apply(Decline(), g.to_act)
    assert Name(Suit.HEARTS) not in g.legal_actions()
    g.apply(Name(Suit.SPADES), g.to_act)
    assert g.trump is Suit.SPADES


def _play(seed: int) -> Game:
    g = Game(BENNY, 4, seed=seed)
    rng = random.Random(seed)
    pack = BENNY.deck.cards.mask
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), g.to_act)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask
            union |= part.mask
        assert union == pack
    return g


def test_200_seeded_games_play_to_the_end() -> None:
    turned = 0
    for seed in range(200):
        g = _play(seed)
        assert g.result is not None and g.result.finished and max(g.scores) >= 10
        for e in g.events:
            if e.kind == "trump" and e.turned == card("BJ"):
                turned += 1
            if e.kind == "score":
                p = e[4]
                assert p[0] == p[2] and p[1] == p[3]
                assert sorted(p) in ([0, 0, 1, 1], [0, 0, 2, 2], [0, 0, 4, 4]), e
    assert turned > 0  # the turned-up benny's rule was met


def test_the_rules_page_says_what_the_benny_is() -> None:
    page = rulebook(BENNY)
    assert "the big joker (BJ), the jack of trumps and the jack of the same colour" in page
    assert "When a joker is turned up for trumps, the dealer names the trump suit" in page
    assert "BJ J♥ J♦ A♥ K♥ Q♥ 10♥ 9♥" in page


def test_the_heuristic_beats_random() -> None:
    """A side of heuristic bots (seats 1 and 3) beats a side of random ones."""
    s = simulate(BENNY, 4, 100, bots=["heuristic", "random", "heuristic", "random"], seed=11)
    assert s.finished == 100 and s.wins[0] == s.wins[2] and s.wins[0] > 80
