"""Rank orders that change with trumps (issue 12, item 7): ``trump order:``.

Euchre's bowers as a value of the language (``trump order: J of trumps, J of
the same colour``): golden games on stacked deals (the right bower winning, the
left bower beating the ace of trumps, following as a trump and not as its
printed suit, a holder of it with no other card of its printed suit void, the
tables rebuilt when the next hand's trumps differ, broken trumps, must-beat,
named suits in card-set lists, the refusals' words), worked examples run
through the engine, Hypothesis properties over whole games (legal cards obey
effective suits, conservation, the winner of every trick is the highest by the
rank order, saves and clones), the parser's and validator's refusals, the
formatter's round trip and the rules page's words.

The oracle of the properties is :class:`cardrules.rules.TrumpRule`'s own
``trump_cards`` and ``effective_suit``, not the engine's tables.
"""

from __future__ import annotations

import attrs
import pytest
from catalog_support import stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Card, Game, Play, card
from cardrules.cards import CardSet, Suit
from cardrules.dsl import format, load_text, parse
from cardrules.engine import replay
from cardrules.engine.actions import Action
from cardrules.engine.state.compiled_rules import variant_fingerprint
from cardrules.engine.state.ranks import STANDARD, rank_tables
from cardrules.errors import IllegalAction, VariantError
from cardrules.example_runner import run_examples
from cardrules.rulebook import rulebook
from cardrules.rules import TrumpCard, TrumpCardKind, Variant

BASE = """\
game: bower-test
players: 4
deck: 9 to ace
hand size: 5
hands: 2 hands of the same size
trumps: {trumps}
trump order: {order}
bidding: none
follow: {follow}
score: tricks
tie: shared
"""

BOWERS = "J of trumps, J of the same colour"


def variant(
    trumps: str = "hearts", order: str = BOWERS, follow: str = "must follow suit", extra: str = ""
) -> Variant:
    return load_text(BASE.format(trumps=trumps, order=order, follow=follow) + extra)


def legal(g: Game) -> set[str]:
    return {str(a.card) for a in g.legal_actions() if isinstance(a, Play)}


def play(g: Game, *cards: str) -> None:
    for c in cards:
        g.apply(Play(card(c)), g.to_act)


def tricks(g: Game) -> list[tuple[int, tuple[int, ...]]]:
    return [(e[1], tuple(e[3])) for e in g.events if e[0] == "trick"]


# --------------------------------------------------------------------------- golden games


def test_the_right_bower_wins_and_the_left_bower_must_follow_trumps() -> None:
    g = Game(
        variant(),
        4,
        deck=stack(
            "A♥ 9♣ 10♣ Q♣ K♣",
            "J♥ 9♦ 10♦ Q♦ K♦",
            "J♦ 9♠ 10♠ Q♠ K♠",
            "K♥ A♣ A♦ A♠ J♣",
        ),
        first_dealer=3,
    )
    play(g, "A♥")
    assert legal(g) == {"J♥"}
    play(g, "J♥")
    # J♦ is a heart here: seat 2's only trump, so it must follow with it.
    assert legal(g) == {"J♦"}
    play(g, "J♦")
    assert legal(g) == {"K♥"}
    play(g, "K♥")
    assert tricks(g)[-1][0] == 1
    assert g.to_act == 1


def test_the_left_bower_of_a_void_player_beats_the_ace_of_trumps() -> None:
    g = Game(
        variant(),
        4,
        deck=stack(
            "A♣ K♣ 9♦ 10♦ Q♦",
            "J♦ 9♠ 10♠ Q♠ K♠",
            "A♥ K♥ 9♥ A♠ A♦",
            "9♣ 10♣ Q♣ J♣ K♦",
        ),
        first_dealer=3,
    )
    play(g, "A♣")
    assert legal(g) == {"J♦", "9♠", "10♠", "Q♠", "K♠"}  # void in clubs
    play(g, "J♦", "A♥")
    assert legal(g) == {"9♣", "10♣", "Q♣", "J♣"}
    play(g, "9♣")
    assert tricks(g)[-1][0] == 1


def test_a_player_whose_only_diamond_is_the_left_bower_is_void_in_diamonds() -> None:
    g = Game(
        variant(),
        4,
        deck=stack(
            "A♦ 9♣ 10♣ Q♣ K♣",
            "J♦ 9♠ 10♠ Q♠ K♠",
            "K♦ 9♥ A♣ A♠ J♣",
            "Q♦ 10♥ A♥ J♠ 9♦",
        ),
        first_dealer=3,
    )
    play(g, "A♦")
    assert legal(g) == {"J♦", "9♠", "10♠", "Q♠", "K♠"}
    play(g, "J♦")  # a trump: it takes the trick from the A♦
    play(g, "K♦", "Q♦")
    assert tricks(g)[-1][0] == 1
    assert g.view(0).trumps_broken


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    g = Game(
        variant(),
        4,
        deck=stack(
            "A♦ 9♣ 10♣ Q♣ K♣",
            "J♦ 9♦ 10♠ Q♠ K♠",
            "K♦ 9♥ A♣ A♠ J♣",
            "Q♦ 10♥ A♥ J♠ 10♦",
        ),
        first_dealer=3,
    )
    play(g, "A♦")
    assert legal(g) == {"9♦"}
    before = g.events
    with pytest.raises(IllegalAction, match="must follow diamonds: you hold 9♦"):
        g.apply(Play(card("J♦")), g.to_act)
    assert g.events == before


def test_leading_the_left_bower_leads_trumps() -> None:
    g = Game(
        variant(),
        4,
        deck=stack(
            "J♦ 9♣ 10♣ Q♣ K♣",
            "9♥ 9♦ 10♠ Q♠ K♠",
            "K♦ Q♦ A♣ A♠ J♣",
            "A♦ 10♥ A♥ J♠ 10♦",
        ),
        first_dealer=3,
    )
    play(g, "J♦")
    assert legal(g) == {"9♥"}  # hearts were led: the 9♦ does not follow
    play(g, "9♥")
    assert legal(g) == {"K♦", "Q♦", "A♣", "A♠", "J♣"}  # no heart: any card
    play(g, "K♦")
    assert legal(g) == {"10♥", "A♥"}
    play(g, "A♥")
    assert tricks(g)[-1][0] == 0  # the left bower beats the ace of trumps


def test_each_hand_ranks_by_its_own_trumps() -> None:
    """Turned-up trumps: spades in the first hand (the J♠, then the J♣, highest),
    hearts in the second (the J♣ is a plain club again)."""
    first = stack(
        "J♣ 9♣ 10♣ Q♣ K♣",
        "A♠ 9♦ 10♦ Q♦ K♦",
        "J♠ 9♥ 10♥ Q♥ K♥",
        "K♠ A♣ A♦ A♥ J♥",
        turn="9♠",
    )
    # The second hand: seat 0 deals, seat 1 gets the first card and leads.
    second = stack(
        "A♣ 9♦ 10♦ Q♦ K♦",
        "J♣ 9♣ 10♣ Q♣ A♠",
        "J♠ 9♠ 10♠ Q♠ K♠",
        "J♦ K♣ A♦ A♥ J♥",
        turn="9♥",
    )
    g = Game(variant(trumps="turned up"), 4, deck=[first, second], first_dealer=3)
    assert g.trump is Suit.SPADES
    play(g, "J♣")
    assert legal(g) == {"A♠"}  # the J♣ led spades
    play(g, "A♠")
    assert legal(g) == {"J♠"}
    play(g, "J♠", "K♠")
    assert tricks(g)[-1][0] == 2  # the jack of trumps
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.trump is Suit.HEARTS and g.to_act == 1
    play(g, "A♣")
    assert legal(g) == {"J♣", "9♣", "10♣", "Q♣"}  # a plain club now
    play(g, "J♣", "9♠")
    assert legal(g) == {"K♣"}
    play(g, "K♣")
    assert tricks(g)[-1][0] == 1


def test_the_second_hand_uses_the_tables_of_its_trumps() -> None:
    v = variant(trumps="turned up")
    g = Game(v, 4, seed=3)
    seen: set[Suit | None] = set()
    while not g.is_over:
        seen.add(g.trump)
        assert g.trump is not None
        assert g._ranks == rank_tables(v.trumps, int(g.trump), v.deck.cards.mask)
        g.apply(g.legal_actions()[-1], g.to_act)
    assert seen


def test_trumps_are_not_led_before_they_are_broken_not_even_the_left_bower() -> None:
    g = Game(
        variant(extra="leading trumps: once broken\n"),
        4,
        deck=stack(
            "J♦ A♣ 10♣ Q♣ K♣",
            "9♥ 9♦ 10♠ Q♠ K♠",
            "K♦ Q♦ 9♣ A♠ J♣",
            "A♦ 10♥ A♥ J♠ 10♦",
        ),
        first_dealer=3,
    )
    assert legal(g) == {"A♣", "10♣", "Q♣", "K♣"}
    with pytest.raises(IllegalAction, match=r"trumps \(hearts\) have not been broken"):
        g.apply(Play(card("J♦")), g.to_act)
    play(g, "A♣")
    play(g, "9♥")  # void in clubs, seat 1 trumps: trumps are broken
    play(g, "9♣", "10♥")
    assert g.view(0).trumps_broken
    assert tricks(g)[-1][0] == 3  # the 10♥ over the 9♥
    assert legal(g) == {"A♦", "A♥", "J♠", "10♦"}  # trumps may now be led


def test_must_beat_counts_the_left_bower_above_the_ten_of_trumps() -> None:
    g = Game(
        variant(follow="must follow suit, must beat when able"),
        4,
        deck=stack(
            "10♥ A♣ 10♣ Q♣ K♣",
            "J♦ 9♥ 10♠ Q♠ K♠",
            "K♦ Q♦ 9♣ A♠ J♣",
            "A♦ Q♥ A♥ J♠ 10♦",
        ),
        first_dealer=3,
    )
    play(g, "10♥")
    assert legal(g) == {"J♦"}  # 9♥ does not beat the 10♥; the left bower does
    play(g, "J♦")
    assert legal(g) == {"K♦", "Q♦", "9♣", "A♠", "J♣"}
    play(g, "K♦")
    assert legal(g) == {"Q♥", "A♥"}  # neither beats the left bower: any heart


def test_a_named_suit_in_a_card_set_list_is_the_effective_suit() -> None:
    g = Game(
        variant(extra="lead: not hearts, otherwise any card\n"),
        4,
        deck=stack(
            "J♦ A♦ 10♣ Q♣ K♣",
            "9♥ 9♦ 10♠ Q♠ K♠",
            "K♦ Q♦ 9♣ A♠ J♣",
            "A♣ 10♥ A♥ J♠ 10♦",
        ),
        first_dealer=3,
    )
    assert legal(g) == {"A♦", "10♣", "Q♣", "K♣"}  # the J♦ is a heart


# --------------------------------------------------------------------------- examples

EXAMPLES = """
example: the jack of trumps is the highest trump, the jack of the same colour the next
  with 4 players, seat 4 deals, turned up 9♥
  seat 1 holds A♥
  seat 2 holds J♦
  seat 3 holds J♥
  seat 4 holds K♥
  play A♥
  expect seat 2 may play only J♦
  play J♦ J♥ K♥
  expect the trick goes to seat 3

example: the jack of the same colour is a trump, so its holder may be void in its printed suit
  with 4 players, seat 4 deals, turned up 9♥
  seat 1 holds A♦
  seat 2 holds J♦ 9♣, void in diamonds
  play A♦
  expect seat 2 may play any card
  play J♦

example: the jack of the same colour does not follow its printed suit
  with 4 players, seat 4 deals, turned up 9♥
  seat 1 holds A♦
  seat 2 holds 9♠, void in diamonds
  seat 3 holds K♦ J♦
  play A♦ 9♠
  expect seat 3 may play K♦
  expect seat 3 may not play J♦: must follow diamonds
"""


def test_worked_examples_use_effective_suits() -> None:
    v = variant(trumps="turned up", extra=EXAMPLES)
    assert len(v.examples) == 3
    assert run_examples(v) == []


def test_an_example_void_in_the_trump_suit_cannot_hold_the_left_bower() -> None:
    bad = EXAMPLES.split("\nexample: the jack of the same colour does")[0].replace(
        "seat 2 holds J♦ 9♣, void in diamonds", "seat 2 holds J♦ 9♣, void in hearts"
    )
    failures = run_examples(variant(trumps="turned up", extra=bad))
    assert len(failures) == 1
    assert "seat 2 holds J♦, so is not void in its suit" in str(failures[0])


# --------------------------------------------------------------------------- properties

ORDERS = [
    BOWERS,
    "J of trumps, J of the same colour",
    "9 of trumps, A of the same colour",
    "A♠, J of trumps, K of the same colour",
    "Q♣, 9♦",
]


def _winner_oracle(v: Variant, trump: Suit | None, plays: list[tuple[int, Card]]) -> int:
    pack = v.deck.cards
    if trump is not None:
        order = v.trumps.trump_cards(trump, pack)
        trumps = [(order.index(c), s) for s, c in plays if c in order]
        if trumps:
            return min(trumps)[1]
    led = v.trumps.effective_suit(plays[0][1], trump, pack)
    return max(
        (int(c.rank), s) for s, c in plays if v.trumps.effective_suit(c, trump, pack) is led
    )[1]


@given(
    st.integers(0, 2**32),
    st.sampled_from(ORDERS),
    st.sampled_from(["hearts", "turned up", "cycle spades, no trumps, clubs"]),
    st.sampled_from(["must follow suit", "must follow suit, must trump when void"]),
)
@settings(max_examples=60, deadline=None)
def test_whole_games_obey_the_rank_order(seed: int, order: str, trumps: str, follow: str) -> None:
    import random

    v = variant(trumps=trumps, order=order, follow=follow)
    g = Game(v, 4, seed=seed)
    rng = random.Random(seed)
    pack = v.deck.cards
    plays: list[tuple[int, Card]] = []
    hand = g.hand_number
    while not g.is_over:
        if g.hand_number != hand:
            hand, plays = g.hand_number, []
        trump = g.trump
        where = g.card_locations()
        every = CardSet()
        for part in where.values():
            assert not every & part
            every |= part
        assert every == pack
        s = g.to_act
        assert s is not None
        held = g.hand(s)
        ok = CardSet([a.card for a in g.legal_actions() if isinstance(a, Play)])
        if plays:
            led = v.trumps.effective_suit(plays[0][1], trump, pack)
            suit = CardSet([c for c in held if v.trumps.effective_suit(c, trump, pack) is led])
            if suit:
                assert ok == suit
            elif "must trump" in follow and trump is not None:
                mine = CardSet(
                    [c for c in held if v.trumps.effective_suit(c, trump, pack) is trump]
                )
                assert ok == (mine or held)
            else:
                assert ok == held
        else:
            assert ok == held
        a = rng.choice(g.legal_actions())
        assert isinstance(a, Play)
        plays.append((s, a.card))
        g.apply(a, g.to_act)
        if len(plays) == 4:
            ev = [e for e in g.events if e[0] == "trick"][-1]
            assert ev[1] == _winner_oracle(v, trump, plays)
            plays = []
        if rng.random() < 0.05:
            assert g.clone() == g
            assert g.clone().legal_actions() == g.legal_actions()
    assert Game.from_json(g.to_json()) == g
    assert replay(v, g.events) == g


def test_a_save_restores_a_game_half_way_with_its_rank_tables() -> None:
    v = variant(trumps="turned up")
    g = Game(v, 4, seed=11)
    for _ in range(7):
        g.apply(g.legal_actions()[0], g.to_act)
    back = Game.from_json(g.to_json())
    assert back == g and back._ranks == g._ranks
    while not g.is_over:
        a: Action = g.legal_actions()[-1]
        assert back.legal_actions() == g.legal_actions()
        g.apply(a, g.to_act)
        back.apply(a, back.to_act)
    assert back.result == g.result


def test_games_without_a_trump_order_keep_the_standard_tables() -> None:
    g = Game(cardrules.load("oh-hell"), 4, seed=1)
    assert g._ranks is STANDARD and not g._rules.ranked and g._rules.plain_follow
    v = variant(trumps="turned up")
    g = Game(v.evolve(trumps=attrs.evolve(v.trumps, order=())), 4, seed=1)
    assert g._ranks is STANDARD


def test_a_hand_without_trumps_ignores_the_trump_order() -> None:
    v = variant(trumps="cycle no trumps, hearts")
    g = Game(v, 4, seed=5)
    assert g.trump is None and g._ranks is STANDARD
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.trump is Suit.HEARTS and g._ranks is not STANDARD


# --------------------------------------------------------------------------- the language


def test_the_setting_parses_to_entries() -> None:
    v = variant(order="J of trumps, jack of the same color, 9♦, 10 of trumps")
    assert v.trumps.order == (
        TrumpCard(TrumpCardKind.OF_TRUMPS, rank=11),
        TrumpCard(TrumpCardKind.SAME_COLOUR, rank=11),
        TrumpCard(TrumpCardKind.CARD, card=card("9♦")),
        TrumpCard(TrumpCardKind.OF_TRUMPS, rank=10),
    )


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ("J of trumps, J of trumps", "J of trumps is named twice"),
        ("2 of trumps", "the trump order names 2 of trumps, but the pack has no 2s"),
        ("2♦", "the trump order names 2♦, but it is not in the pack"),
        ("A of trumps, K of trumps", "it ranks the trumps in their usual order"),
        ("J of the trumps", "trump order"),
    ],
)
def test_bad_trump_orders_are_refused(order: str, message: str) -> None:
    with pytest.raises(VariantError) as err:
        variant(order=order)
    assert message in str(err.value)


def test_a_trump_order_without_trumps_is_refused() -> None:
    with pytest.raises(VariantError, match="`trump order` has no effect"):
        variant(trumps="none")


@given(
    st.lists(
        st.one_of(
            st.builds(
                TrumpCard,
                st.sampled_from([TrumpCardKind.OF_TRUMPS, TrumpCardKind.SAME_COLOUR]),
                st.integers(9, 14),
            ),
            st.builds(
                lambda c: TrumpCard(TrumpCardKind.CARD, card=c),
                st.sampled_from(list(CardSet.parse("9♣ J♦ A♠ Q♥ 10♣"))),
            ),
        ),
        min_size=1,
        max_size=6,
        unique=True,
    )
)
@settings(max_examples=60, deadline=None)
def test_format_round_trips_any_trump_order(order: list[TrumpCard]) -> None:
    v = variant()
    w = v.evolve(trumps=attrs.evolve(v.trumps, order=tuple(order)))
    text = format(w)
    assert parse(text, validate=False) == w
    assert format(parse(text, validate=False)) == text


def test_format_writes_the_setting_and_only_when_set() -> None:
    text = format(variant())
    assert "trump order: J of trumps, J of the same colour\n" in text
    assert "trump order" not in format(cardrules.load("oh-hell"))


def test_the_fingerprint_of_games_without_a_trump_order_is_unchanged() -> None:
    v = cardrules.load("kachuful")
    assert v.trumps.order == ()
    same = v.evolve(trumps=attrs.evolve(v.trumps, order=()))
    assert variant_fingerprint(same) == variant_fingerprint(v)
    other = v.evolve(trumps=attrs.evolve(v.trumps, order=(TrumpCard(TrumpCardKind.OF_TRUMPS, 11),)))
    assert variant_fingerprint(other) != variant_fingerprint(v)


def test_the_rules_page_describes_the_rank_order_from_the_config() -> None:
    page = rulebook(variant())
    assert (
        "The highest trumps are, from the highest, the jack of trumps and the jack of the "
        "same colour as trumps" in page
    )
    assert "With hearts trumps the trumps are, from the highest, J♥ J♦ A♥ K♥ Q♥ 10♥ 9♥." in page
    assert "The J♦ counts as a trump (hearts), not as a diamond" in page
    page = rulebook(variant(trumps="spades", order="A♦, J of trumps"))
    assert "With spades trumps the trumps are, from the highest, A♦ J♠ A♠ K♠ Q♠ 10♠ 9♠." in page
    assert "The A♦ counts as a trump (spades), not as a diamond" in page


# --------------------------------------------------------------------------- views and bots


def test_the_view_shows_the_hands_trump_order() -> None:
    g = Game(variant(), 4, seed=2)
    view = g.view(0)
    assert view.trump_order == (card("J♥"), card("J♦"))
    assert view.to_dict()["trump_order"] == ["J♥", "J♦"]
    assert Game(cardrules.load("oh-hell"), 4, seed=2).view(0).trump_order == ()


def test_the_bots_play_legally_and_the_heuristic_beats_random() -> None:
    from cardrules.bots.heuristic import HeuristicBot
    from cardrules.bots.random_bot import RandomBot

    v = variant(trumps="turned up").evolve(
        bidding=attrs.evolve(variant().bidding, style=cardrules.rules.BidStyle.IN_TURN, hook=False)
    )
    v = load_text(format(v).replace("score: tricks", "score: tricks + (if exact then 10 else 0)"))
    wins = 0
    for i in range(60):
        g = Game(v, 4, seed=i)
        bots = [HeuristicBot(), RandomBot(3 * i + 1), RandomBot(3 * i + 2), RandomBot(3 * i + 3)]
        while not g.is_over:
            s = g.to_act
            assert s is not None
            a = bots[s].choose(g.view(s))
            assert a in g.legal_actions()
            g.apply(a, g.to_act)
        result = g.result
        assert result is not None
        wins += 0 in result.winners
    assert wins >= 35  # about 90% over many games; a random seat wins about a quarter


def test_a_trump_order_in_a_game_that_knocks_players_out_plays_to_the_end() -> None:
    """The ranked play path ends a trick when every seat still in has played."""
    import random

    text = (
        BASE.format(trumps="turned up", order=BOWERS, follow="must follow suit")
        .replace("hands: 2 hands of the same size", "hands: 6 hands of the same size")
        .replace("tie: shared\n", "tie: shared\nknocked out: no tricks\nwinner: last one in\n")
    )
    v = load_text(text)
    knocked = 0
    for seed in range(30):
        g = Game(v, 4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        result = g.result
        assert result is not None
        knocked += len(result.knocked_out)
        assert replay(v, g.events) == g
    assert knocked
