"""The Kachuful family of the built-in catalog: ``kachuful`` and the files extending
it, from seeds ``000_05789f49e1c2534d.txt`` (Kachuful in English) and
``003_b8808002a4adcb43.txt`` (Kachuful in Dutch).

Random play: 200 seeded games to the end for every file (``kachuful-double`` plays
38 hands a game for four); player counts cycle through 3 to 7.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from catalog_support import (
    bid,
    check_file,
    dealer_bids,
    deals,
    games,
    hand_scores,
    play,
    play_random,
    plays,
    stack,
    trumps,
)

import cardrules
from cardrules import Bid, Game, Look, Suit, card
from cardrules.errors import IllegalAction
from cardrules.rules import FirstDealer, Pattern, PlayerRange, TrumpKind
from cardrules.scoring import score_env

KA_CHU_FU_L = (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS)

#: file -> the rule fields in which it differs from kachuful.
FAMILY: dict[str, set[str]] = {
    "kachuful-zon": {"trumps.cycle"},
    "kachuful-down": {"schedule.pattern"},
    "kachuful-no-trump-fifth": {"trumps.no_trump_every"},
    "kachuful-turn-up": {"trumps.kind", "trumps.cycle"},
    "judgement": {"scoring.formula"},
    "kachuful-penalty": {"scoring.formula"},
    "kachuful-minus-bid": {"scoring.formula"},
    "kachuful-times-ten": {"scoring.formula"},
    "kachuful-whole-hand-bonus": {"scoring.formula"},
    "kachuful-blind": {"bidding.blind", "scoring.formula"},
    "kachuful-forehead": {"bidding.forehead_sizes"},
    "kachuful-strict": {"play.follow"},
    "kachuful-double": {"schedule.repeat"},
    "kachuful-no-hook": {"bidding.hook"},
}

#: file -> how many random games to play.
GAMES = 200  # seeded random games played to the end, per file


def score(name: str, bid_: int, tricks: int, cards: int = 7, blind: bool = False) -> Fraction:
    f = cardrules.load(name).scoring.formula
    assert f is not None
    env = score_env(bid=bid_, tricks=tricks, cards=cards, hand=1, players=4, blind=blind)
    return Fraction(f.evaluate(env))


def short(name: str, sizes: str, **options: object) -> cardrules.Variant:
    """The file with a short schedule (its `hands` option); every other rule is the
    file's. Kachuful has no `tie` option, so stacked games stop after the scored hand."""
    return cardrules.load(name, hands=f"list {sizes}", **options)


def finish_hand(g: Game) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Fraction, ...]]:
    """Play the rest of the hand with the lowest legal card; its bids, tricks, points."""
    while not hand_scores(g):
        g.apply(g.legal_actions()[0], g.to_act)
    _, bids, tricks, points, _ = hand_scores(g)[0]
    return bids, tricks, points


# --------------------------------------------------------------------------- the files


def test_kachuful_is_the_classic_game_000_003() -> None:
    """kachuful after 000_05789f49e1c2534d.txt and 003_b8808002a4adcb43.txt: 3 to 7
    players, one 52-card pack, the classic 10/8/7 start down to 1 and back up, the
    Ka-Chu-Fu-L cycle, first dealer by cut, the hook, 10 + bid for an exact bid."""
    v = cardrules.load("kachuful")
    assert v.parent is None and v.players == PlayerRange(3, 7) and v.deck.size == 52
    assert v.schedule.pattern is Pattern.DOWN_UP
    assert [v.hand_sizes(n)[0] for n in range(3, 8)] == [10, 10, 10, 8, 7]
    assert v.trumps.kind is TrumpKind.CYCLE and v.trumps.cycle == KA_CHU_FU_L
    assert v.dealer.first is FirstDealer.CUT and v.bidding.hook
    assert not v.play.must_trump and not v.play.must_beat
    assert cardrules.parse(cardrules.format(v), validate=False) == v


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_file(name: str) -> None:
    """Parses, formats back to itself, loads, and changes exactly its stated rules."""
    check_file(name, FAMILY[name])
    assert cardrules.load(name).parent == "kachuful"


@pytest.mark.parametrize("name", ["kachuful", *sorted(FAMILY)])
def test_random_games(name: str) -> None:
    """Seeded random games to the end with the property checks of catalog_support."""
    v = cardrules.load(name)
    for players, seed in games(v.players.counts(), GAMES):
        play_random(v, players, seed)


# --------------------------------------------------------------------------- the texts' tables


@pytest.mark.parametrize(
    ("bid_", "tricks", "points"), [(0, 0, 10), (2, 2, 12), (3, 4, 0), (1, 0, 0)]
)
def test_scoring_table_000(bid_: int, tricks: int, points: int) -> None:
    """000_05789f49e1c2534d.txt, the scoring table, scored by the kachuful file."""
    assert score("kachuful", bid_, tricks) == points


@pytest.mark.parametrize(("bid_", "points"), [(0, 10), (3, 13), (5, 15), (10, 20)])
def test_exact_bids_003(bid_: int, points: int) -> None:
    """003_b8808002a4adcb43.txt: exact bids of 0, 3 and 5 score 10, 13 and 15, and an
    exact 10 in the ten-card hand is worth 20."""
    assert score("kachuful", bid_, bid_, cards=10) == points
    assert score("kachuful", bid_, bid_ + 1, cards=11) == 0


def test_suit_names_table_000() -> None:
    """000_05789f49e1c2534d.txt, the name table: Ka(li) spades, Chu(kat) diamonds,
    Fu(li) clubs, L(aal) hearts; the Hindi names read as the suits, in cycle order."""
    v = cardrules.load("kachuful", trumps="cycle kali, chukat, fuli, laal")
    assert v.trumps.cycle == KA_CHU_FU_L == cardrules.load("kachuful").trumps.cycle
    g = play_random(cardrules.load("kachuful"), 4, 7)
    assert trumps(g)[:19] == [KA_CHU_FU_L[i % 4] for i in range(19)]


@pytest.mark.parametrize(("players", "largest"), [(4, 13), (5, 10), (6, 8), (7, 7)])
def test_largest_possible_hand_000(players: int, largest: int) -> None:
    """000_05789f49e1c2534d.txt: the largest hand is 52 divided by the players, rounded
    down (13, 10, 8, 7); many families cap the start at 7 or 8."""
    assert cardrules.load("kachuful", hand_size="largest").hand_sizes(players)[0] == largest
    capped = cardrules.load("kachuful", hand_size="largest, at most 8")
    assert capped.hand_sizes(players)[0] == min(largest, 8)


@pytest.mark.parametrize(("players", "hands"), [(3, 19), (4, 19), (5, 19), (6, 15), (7, 13)])
def test_number_of_hands_003(players: int, hands: int) -> None:
    """003_b8808002a4adcb43.txt counts 10-1-10 = 19 hands for four players in its
    winning section (and 17 elsewhere, which no schedule it gives produces); the
    kachuful file takes the classic 10/8/7 start, so 19, 19, 19, 15 and 13 hands.
    The descending-only game (kachuful-down) is 10 to 1."""
    assert len(cardrules.load("kachuful").hand_sizes(players)) == hands
    assert len(cardrules.load("kachuful-down").hand_sizes(players)) == (hands + 1) // 2


def test_sample_round_000() -> None:
    """000_05789f49e1c2534d.txt, the sample round, played by the kachuful file: four
    players, four cards, clubs trumps. Nisha 1, Dev 2, Rohan 0; the dealer Tara may not
    bid 1 and bids 0. Tricks 1, 1, 0, 2; Nisha scores 11, Rohan 10, the others 0."""
    v = short("kachuful", "4", trumps="clubs")
    deck = stack("A♠ 5♦ 6♦ 7♦", "A♥ 8♦ 9♦ 10♦", "2♠ 3♠ 2♥ 3♥", "A♣ K♣ 2♦ 3♦")
    g = Game(v, players=4, deck=deck, first_dealer=3)
    bid(g, 1, 2, 0)
    assert 1 not in dealer_bids(g)
    bid(g, 0)
    play(g, "A♠", "8♦", "2♠", "2♦")
    play(g, "5♦", "9♦", "2♥", "3♦")
    play(g, "A♥", "3♥", "K♣", "6♦")
    play(g, "A♣", "7♦", "10♦", "3♠")
    ((_, bids, tricks, points, _),) = hand_scores(g)
    assert bids == (1, 2, 0, 0) and tricks == (1, 1, 0, 2) and points == (11, 0, 10, 0)


def test_trick_example_000() -> None:
    """000_05789f49e1c2534d.txt: hearts trumps, clubs led, K♣ 4♣ 2♥ A♣: the 2♥ wins;
    a player who cannot follow need not trump (the kachuful file)."""
    g = Game(
        short("kachuful", "1", trumps="hearts"),
        players=4,
        deck=stack("K♣", "4♣", "2♥", "A♣"),
        first_dealer=3,
    )
    bid(g, 0, 0, 0, 0)
    play(g, "K♣", "4♣", "2♥", "A♣")
    assert hand_scores(g)[0][2] == (0, 0, 1, 0)


# --------------------------------------------------------------------------- each file's rule


def test_no_hook_dealer_may_complete_the_total_003() -> None:
    """003_b8808002a4adcb43.txt: bids totalling 7 in an 8-card round bar the dealer from 1
    under the hook; kachuful-no-hook lets the dealer bid it (six players, whose
    first hand has 8 cards)."""
    for name, barred in (("kachuful", True), ("kachuful-no-hook", False)):
        g = Game(cardrules.load(name), players=6, seed=1, first_dealer=5)
        assert g.hand_size == 8
        bid(g, 3, 2, 2, 0, 0)
        assert (1 not in dealer_bids(g)) is barred
        assert dealer_bids(g)[-1] == 8


def test_zon_fifth_hand_without_trumps_003() -> None:
    """003_b8808002a4adcb43.txt: spades, diamonds, clubs, hearts, then Zon (no trumps)."""
    g = play_random(cardrules.load("kachuful-zon"), 4, 11)
    cycle = (*KA_CHU_FU_L, None)
    assert trumps(g)[:19] == [cycle[i % 5] for i in range(19)]
    # In the no-trump hand the top card of the suit led wins.
    v = cardrules.load("kachuful-zon", hands="list 1, 1, 1, 1, 1")
    deck = [stack("2♣", "3♣", "A♠", "4♣")] * 5
    g = Game(v, players=4, deck=deck, first_dealer=3)
    while g.hand_number < 5:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.trump is None
    bid(g, 0, 0, 0, 0)
    play(g, "2♣", "3♣", "A♠", "4♣")
    assert hand_scores(g)[-1][2] == (0, 0, 0, 1)


def test_every_fifth_hand_without_trumps_003() -> None:
    """003_b8808002a4adcb43.txt: every 5th hand has no trumps whatever the cycle says."""
    g = play_random(cardrules.load("kachuful-no-trump-fifth"), 4, 12)
    expected = [None if i % 5 == 4 else KA_CHU_FU_L[i % 4] for i in range(19)]
    assert trumps(g)[:19] == expected
    assert trumps(g)[5] is Suit.DIAMONDS  # the cycle keeps counting hands


def test_turned_up_trump_003() -> None:
    """003_b8808002a4adcb43.txt: the next card after the deal is turned up for trumps,
    instead of the cycle (kachuful-turn-up)."""
    v = cardrules.load("kachuful-turn-up")
    rest = [c for c in cardrules.CardSet.full() if c != card("Q♥")]
    for players, start in ((4, 10), (6, 8), (7, 7)):
        deck = [*rest[: start * players], card("Q♥"), *rest[start * players :]]
        g = Game(v, players=players, deck=deck, first_dealer=0)
        assert g.turned_up == card("Q♥") and g.trump is Suit.HEARTS
        assert card("Q♥") not in g.card_locations()["hands"]
    g = Game(cardrules.load("kachuful"), players=4, seed=0)
    assert g.turned_up is None and g.trump is Suit.SPADES


@pytest.mark.parametrize(
    ("name", "rows"),
    [
        # 003: Judgement, +10 for an exact bid without trick points, -10 for a miss.
        ("judgement", [(0, 0, 10), (4, 4, 10), (2, 3, -10), (5, 1, -10)]),
        # 003 and 000: minus the margin: one trick off -1, two off -2.
        ("kachuful-penalty", [(3, 3, 13), (3, 2, -1), (3, 1, -2), (1, 4, -3)]),
        # 000: minus the bid for a miss.
        ("kachuful-minus-bid", [(3, 3, 13), (3, 1, -3), (1, 4, -1), (0, 2, 0)]),
        # 000: bid x 10, a made zero 10.
        ("kachuful-times-ten", [(0, 0, 10), (1, 1, 10), (3, 3, 30), (3, 2, 0)]),
    ],
)
def test_scoring_alternatives_000_003(name: str, rows: list[tuple[int, int, int]]) -> None:
    """The popular scoring alternatives of 000_05789f49e1c2534d.txt and the variants
    of 003_b8808002a4adcb43.txt, scored by their catalog files."""
    for b, t, points in rows:
        assert score(name, b, t) == points, (b, t)


@pytest.mark.parametrize(
    ("name", "points"),
    [
        ("kachuful", (12, 0, 10, 0)),
        ("judgement", (10, -10, 10, -10)),
        ("kachuful-penalty", (12, -1, 10, -1)),
        ("kachuful-minus-bid", (12, -1, 10, -1)),
        ("kachuful-times-ten", (20, 0, 10, 0)),
        ("kachuful-whole-hand-bonus", (22, 0, 10, 0)),
    ],
)
def test_scoring_on_a_stacked_hand(name: str, points: tuple[int, ...]) -> None:
    """Each scoring file on the same two-card hand, spades trumps: seat 0 bids 2 and
    takes both tricks (the whole hand), seat 1 bids 1 and takes none, seat 2 makes a
    zero, and the dealer bids 1 and takes none (the bids already pass 2, so the hook
    does not bar it)."""
    deck = stack("A♠ K♠", "2♥ 3♥", "2♦ 3♦", "2♣ 3♣")
    g = Game(short(name, "2"), players=4, deck=deck, first_dealer=3)
    assert g.trump is Suit.SPADES
    bid(g, 2, 1, 0, 1)
    _, tricks, pts = finish_hand(g)
    assert tricks == (2, 0, 0, 0)
    assert pts == points


def test_whole_hand_bonus_000() -> None:
    """000_05789f49e1c2534d.txt: an exact bid of the whole hand earns a bonus (10 here)."""
    assert score("kachuful-whole-hand-bonus", 5, 5, cards=5) == 25
    assert score("kachuful-whole-hand-bonus", 4, 4, cards=5) == 14
    assert score("kachuful-whole-hand-bonus", 1, 1, cards=1) == 21


def test_blind_exact_bid_doubled_003() -> None:
    """003_b8808002a4adcb43.txt, Blind Kachuful: bid before looking; an exact blind
    bid counts double (kachuful-blind)."""
    g = Game(short("kachuful-blind", "1"), players=3, deck=stack("A♠", "2♣", "3♣"), first_dealer=2)
    assert g.view(0).hand is None and Look() in g.legal_actions()
    g.apply(Bid(1, blind=True), g.to_act)
    g.apply(Look(), g.to_act)
    g.apply(Bid(0), g.to_act)
    g.apply(Look(), g.to_act)
    g.apply(Bid(1), g.to_act)  # 1 + 0 + 0 would make 1: the hook
    play(g, "A♠", "2♣", "3♣")
    ((_, _, tricks, points, _),) = hand_scores(g)
    assert tricks == (1, 0, 0) and points == (22, 10, 0)
    plain = Game(short("kachuful", "1"), players=3, seed=0)
    assert Look() not in plain.legal_actions() and plain.view(0).hand is not None


def test_forehead_hand_hides_exactly_your_own_card_003() -> None:
    """003_b8808002a4adcb43.txt: the one-card hand is played on the forehead: each player
    sees every other player's card and not their own (kachuful-forehead). The one-card
    hand is hand 10 of the real schedule for four players."""
    v = cardrules.load("kachuful-forehead")
    hands = ["A♠", "K♥", "7♦", "2♣"]
    deck: list[object] = [[]] * 9 + [stack(*hands)]
    g = Game(v, players=4, deck=deck, first_dealer=0, seed=3)
    assert g.view(1).hand is not None  # a 10-card hand: seen as usual
    while g.hand_number < 10:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.hand_size == 1 and g.phase == "bid"
    for seat in range(4):
        view = g.view(seat)
        mine = g.hand(seat)
        assert view.hand is None
        shown = dict(view.visible_hands)
        assert set(shown) == set(range(4)) - {seat}
        for other, cs in shown.items():
            assert cs == tuple(g.hand(other))
        assert str(next(iter(mine))) not in view.to_json()
    while g.phase == "bid":
        g.apply(g.legal_actions()[0], g.to_act)
    assert all(g.view(s).hand == tuple(g.hand(s)) for s in range(4))


def test_strict_refuses_a_discard_when_holding_a_trump_000() -> None:
    """000_05789f49e1c2534d.txt: some groups play a stricter version: void in the suit
    led, you must trump when you can (kachuful-strict); plain kachuful lets you discard."""
    deck = stack("K♣ 2♠", "4♣ A♣", "2♥ 9♦", "5♥ 6♦")
    for name, strict in (("kachuful-strict", True), ("kachuful", False)):
        v = short(name, "2", trumps="diamonds")
        g = Game(v, players=4, deck=deck, first_dealer=3)
        bid(g, 0, 0, 0, 0)
        play(g, "K♣", "4♣")
        assert plays(g) == ({"9♦"} if strict else {"2♥", "9♦"})
        if strict:
            with pytest.raises(IllegalAction, match="must trump"):
                g.apply(cardrules.Play(card("2♥")), g.to_act)


def test_double_cycle_38_hands_for_four_003() -> None:
    """003_b8808002a4adcb43.txt: for a long session play the cycle twice: 38 hands."""
    v = cardrules.load("kachuful-double")
    assert len(v.hand_sizes(4)) == 38
    g = play_random(v, 4, 5)
    one = [*range(10, 0, -1), *range(2, 11)]
    assert deals(g)[:38] == one + one
    assert trumps(g)[:38] == [KA_CHU_FU_L[i % 4] for i in range(38)]


def test_down_only_ten_hands_for_four_003() -> None:
    """003_b8808002a4adcb43.txt: the descending half only, 10 to 1: 10 hands for four."""
    g = play_random(cardrules.load("kachuful-down"), 4, 6)
    assert deals(g)[:10] == list(range(10, 0, -1))
    assert cardrules.load("kachuful-down").hand_sizes(4) == tuple(range(10, 0, -1))
