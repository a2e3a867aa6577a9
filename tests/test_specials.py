"""Special cards (issue 23, capability 1): ``deck: standard 52 with 4 wizards and
4 jesters``, ``special cards:`` (their powers), ``special turned up:`` and the
built-in ``wizard``.

Golden tricks on a stacked deal, refusals with their lines, Hypothesis
properties over whole games (cards conserved; every trick's winner and every
legal set checked by an independent reading of the pack's powers, written here
from the definitions in docs/dsl.md, not by the engine's functions), saves and
replays, 200 seeded games, bots, and a standard pack that plays as before.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Card, Game, Play, card
from cardrules.cards import CardSet
from cardrules.dsl import format, load_text
from cardrules.engine import replay
from cardrules.engine.actions import Action, Name
from cardrules.errors import VariantError
from cardrules.rulebook import rulebook
from cardrules.rules import SpecialPower
from cardrules.simulate import simulate

WIZARD = cardrules.load("wizard")
W1, W2, J1, J2 = card("X1"), card("X2"), card("X5"), card("X6")

BASE = """\
game: test
players: 4
hand size: 5
hands: 5 hands of the same size
trumps: turned up, no trumps when the pack runs out
bidding: in turn
hook: no
score: tricks
"""


# --------------------------------------------------------------------------- the pack


def test_the_wizard_pack_has_60_cards_the_specials_x1_to_x8() -> None:
    d = WIZARD.deck
    assert d.size == 60
    assert d.special_ids("wizards") == (54, 55, 56, 57)
    assert d.special_ids("jesters") == (58, 59, 60, 61)
    assert [str(c) for c in d.cards if c.is_special] == [f"X{i}" for i in range(1, 9)]
    assert d.power_of("wizards").power is SpecialPower.WINS
    assert d.power_of("jesters").power is SpecialPower.LOSES


def test_a_standard_pack_keeps_its_ids_and_actions() -> None:
    assert Play("A♠").id == 51 and Play("BJ").id == 327
    assert Play(W1).id == 400 and Action.from_id(400) is Play(W1)
    assert CardSet.full().mask == (1 << 52) - 1


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("deck: standard 52 with 6 wizards and 5 jesters", "11 special cards are too many"),
        ("deck: standard 52 with 11 wizards", "a number of wizards"),
        ("deck: standard 52 with 4 wizards", "the wizards have no power"),
        (
            "deck: standard 52 with 4 wizards\n"
            "special cards: wizards always win; elves always lose",
            "the pack has no elves",
        ),
        (
            "deck: standard 52 with 4 wizards and 4 wizards",
            "the wizards are added twice",
        ),
        (
            "deck: standard 52 with 2 wizards\n"
            "special cards: wizards always win; wizards always lose",
            "given a power twice",
        ),
        (
            "deck: standard 52 with 2 wizards\nspecial cards: wizards always win\n"
            "special turned up: elves, no trumps",
            "the pack has no elves",
        ),
        (
            "deck: standard 52 with 2 elves and 2 orcs\nspecial cards: elves always win; "
            "orcs always win, the last played winning",
            "disagree on which of them wins",
        ),
    ],
)
def test_refusals_say_what_is_wrong_at_the_line(lines: str, message: str) -> None:
    with pytest.raises(VariantError, match=message) as err:
        load_text(BASE + lines + "\n")
    assert err.value.line is not None


def test_format_round_trips_the_special_lines() -> None:
    text = format(WIZARD)
    assert "deck: standard 52 with 4 wizards and 4 jesters" in text
    assert "special turned up: wizards, the dealer names trumps; jesters, no trumps" in text
    assert load_text(text) == WIZARD


# --------------------------------------------------------------------------- golden tricks


def _stacked(*hands: str, turned: str) -> Game:
    """A four-player game of the first hands of ``wizard`` dealt from a stacked
    deck: hand ``i`` (one card each) goes to seat ``i + 1`` (seat 0 deals),
    then the turned card."""
    deck = [card(h) for h in hands] + [card(turned)]
    return Game(WIZARD, 4, deck=deck, first_dealer=0)


def test_golden_a_wizard_beats_a_trump_and_the_first_wizard_wins() -> None:
    g = _stacked("A♥", "X2", "A♠", "X1", turned="2♠")
    assert g.trump == cardrules.Suit.SPADES
    for _ in range(4):
        g.apply(Bid(0), g.to_act)
    for c in ("A♥", "X2", "A♠", "X1"):
        g.apply(Play(card(c)), g.to_act)
    trick = [e for e in g.events if e[0] == "trick"][-1]
    assert trick[1] == 2  # seat 2 played X2, the first wizard
    assert g.scores == (20, 20, -10, 20)


def test_golden_jesters_lose_and_a_trick_of_jesters_goes_to_the_first() -> None:
    g = _stacked("X5", "2♣", "X6", "X7", turned="2♠")
    for _ in range(4):
        g.apply(Bid(0), g.to_act)
    for c in ("X5", "2♣", "X6", "X7"):
        g.apply(Play(card(c)), g.to_act)
    assert [e for e in g.events if e[0] == "trick"][-1][1] == 2
    g2 = _stacked("X5", "X6", "X7", "X8", turned="2♠")
    for _ in range(4):
        g2.apply(Bid(0), g2.to_act)
    for c in ("X5", "X6", "X7", "X8"):
        g2.apply(Play(card(c)), g2.to_act)
    assert [e for e in g2.events if e[0] == "trick"][-1][1] == 1


def test_golden_a_turned_wizard_lets_the_dealer_name_and_a_jester_means_none() -> None:
    g = _stacked("2♣", "3♣", "4♣", "5♣", turned="X1")
    assert g.phase == "trumps" and g.to_act == 0 and g.trump is None
    g.apply(Name(cardrules.Suit.HEARTS), 0)
    assert g.trump == cardrules.Suit.HEARTS and g.phase == "bid"
    g2 = _stacked("2♣", "3♣", "4♣", "5♣", turned="X5")
    assert g2.phase == "bid" and g2.trump is None


# --------------------------------------------------------------------------- the oracle


def _codes(v: cardrules.Variant) -> dict[Card, tuple[str, bool]]:
    """Each special card -> ("win" or "lose", whether the last played wins),
    read from the variant's powers as docs/dsl.md defines them."""
    out: dict[Card, tuple[str, bool]] = {}
    for p in v.deck.powers:
        for c in v.deck.special_ids(p.kind):
            word = "win" if p.power is SpecialPower.WINS else "lose"
            out[Card(c)] = (word, p.last)
    return out


def _oracle_winner(
    v: cardrules.Variant, trump: cardrules.Suit | None, plays: list[tuple[int, Card]]
) -> int:
    """The seat that takes a trick, by the definitions: a card that always wins
    takes it (the first such played, or the last); else the highest trump; else
    the highest card of the suit led (the first card with a suit); a trick of
    cards that always lose only goes to the first (or last) of them."""
    codes = _codes(v)
    winners = [(s, c) for s, c in plays if codes.get(c, ("", False))[0] == "win"]
    if winners:
        last = codes[winners[0][1]][1]
        return (winners[-1] if last else winners[0])[0]
    suited = [(s, c) for s, c in plays if c not in codes]
    if not suited:
        last = codes[plays[0][1]][1]
        return (plays[-1] if last else plays[0])[0]
    if trump is not None:
        trumps = [(s, c) for s, c in suited if c.suit is trump]
        if trumps:
            return max(trumps, key=lambda x: x[1].rank)[0]
    led = suited[0][1].suit
    return max(((s, c) for s, c in suited if c.suit is led), key=lambda x: x[1].rank)[0]


def _oracle_legal(v: cardrules.Variant, held: CardSet, trick: list[Card]) -> CardSet:
    """The cards a player may play to ``trick`` (must follow suit): the suit led
    is that of the first card with a suit, none after a card that always wins
    came first; special cards may be played at any time."""
    codes = _codes(v)
    any_time = CardSet([c for c in held if c in codes])
    led = None
    for c in trick:
        if c in codes:
            if codes[c][0] == "win":
                break
            continue
        led = c.suit
        break
    if led is None:
        return held
    suit = CardSet([c for c in held if c not in codes and c.suit is led])
    return (suit | any_time) if suit else held


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(3, 6))
def test_whole_games_conserve_the_cards_and_every_trick_obeys_the_powers(
    seed: int, players: int
) -> None:
    v = WIZARD
    g = Game(v, players, seed=seed)
    rng = random.Random(seed)
    pack = v.deck.cards
    plays: list[tuple[int, Card]] = []
    hand = g.hand_number
    steps = 0
    while not g.is_over and steps < 700:
        steps += 1
        if g.hand_number != hand:
            hand, plays = g.hand_number, []
        every = CardSet()
        for part in g.card_locations().values():
            assert not every & part
            every |= part
        assert every == pack
        if g.phase != "play":
            g.apply(rng.choice(g.legal_actions()), g.to_act)
            continue
        s = g.to_act
        assert s is not None
        ok = CardSet([a.card for a in g.legal_actions() if isinstance(a, Play)])
        assert ok == _oracle_legal(v, g.hand(s), [c for _, c in plays])
        trump = g.trump
        a = rng.choice(g.legal_actions())
        assert isinstance(a, Play)
        plays.append((s, a.card))
        g.apply(a, s)
        if len(plays) == players:
            ev = [e for e in g.events if e[0] == "trick"][-1]
            assert ev[1] == _oracle_winner(v, trump, plays)
            plays = []
    assert Game.from_json(g.to_json()) == g
    assert replay(v, g.events) == g


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    kinds=st.lists(
        st.tuples(st.sampled_from(["win", "lose"]), st.integers(1, 3)),
        min_size=1,
        max_size=3,
    ),
    lasts=st.tuples(st.booleans(), st.booleans()),
)
def test_any_pack_of_powers_agrees_with_the_oracle(
    seed: int, kinds: list[tuple[str, int]], lasts: tuple[bool, bool]
) -> None:
    # The kinds that always win (or lose) all say the same: first or last.
    kinds_ = [(word, lasts[word == "lose"], n) for word, n in kinds]
    names = ["elves", "gnomes", "trolls"][: len(kinds)]
    deck = " and ".join(f"{n} {name}" for (_, _, n), name in zip(kinds_, names, strict=True))
    powers = "; ".join(
        f"{name} always {word}, the {'last' if last else 'first'} played winning, "
        "played at any time"
        for (word, last, _), name in zip(kinds_, names, strict=True)
    )
    v = load_text(
        BASE.replace("hand size: 5", "hand size: 4")
        + f"deck: standard 52 with {deck}\nspecial cards: {powers}\nfollow: must follow suit\n"
    )
    g = Game(v, 4, seed=seed)
    rng = random.Random(seed)
    plays: list[tuple[int, Card]] = []
    while not g.is_over:
        if g.phase != "play":
            g.apply(rng.choice(g.legal_actions()), g.to_act)
            continue
        s = g.to_act
        assert s is not None
        ok = CardSet([a.card for a in g.legal_actions() if isinstance(a, Play)])
        assert ok == _oracle_legal(v, g.hand(s), [c for _, c in plays])
        trump = g.trump
        a = rng.choice(g.legal_actions())
        assert isinstance(a, Play)
        plays.append((s, a.card))
        g.apply(a, s)
        if len(plays) == 4:
            assert [e for e in g.events if e[0] == "trick"][-1][1] == _oracle_winner(
                v, trump, plays
            )
            plays = []


TIGERS = """\
game: tigers
players: 4
deck: standard 52 with 2 tigers and 1 mouse
special cards: tigers count as spades above the ace; mouse ranks below 2♥
hand size: 1
hands: 2 hands of the same size
trumps: none
bidding: none
score: tricks
tie: shared
"""


def _first_trick(v: cardrules.Variant, *cards_: str) -> int:
    g = Game(v, 4, deck=[card(c) for c in cards_], first_dealer=0)
    for c in cards_:
        g.apply(Play(card(c)), g.to_act)
    return int(next(e for e in g.events if e[0] == "trick")[1])


def test_a_special_card_that_counts_as_a_suit_or_ranks_by_a_card_plays_as_one() -> None:
    v = load_text(TIGERS)
    assert v.deck.specials[1].singular == "mouse"
    # Seat 1 leads A♠; the tigers are spades above the ace: the first one wins.
    assert _first_trick(v, "A♠", "X1", "K♠", "X2") == 2
    # The mouse is a heart just below the 2♥: it follows hearts and loses to it.
    assert _first_trick(v, "X3", "2♥", "K♠", "3♣") == 2
    assert _first_trick(v, "3♥", "X3", "2♣", "3♣") == 1


# --------------------------------------------------------------------------- games, pages, bots


def test_200_seeded_games_play_to_the_end() -> None:
    won_by_wizard = 0
    for seed in range(200):
        players = 3 + seed % 4
        g = Game(WIZARD, players, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        assert g.result is not None and g.result.finished
        assert g.hand_number == {3: 20, 4: 15, 5: 12, 6: 10}[players] or g.hand_number > 10
        for e in g.events:
            if e[0] == "trick":
                wizards = [i for i, c in enumerate(e[3]) if 54 <= c <= 57]
                if wizards:
                    assert e[1] == e[2][wizards[0]]
                    won_by_wizard += 1
    assert won_by_wizard > 1000


def test_the_rules_page_says_the_powers() -> None:
    page = rulebook(WIZARD)
    assert "4 wizards (W1 to W4), which always win the trick" in page
    assert "if it is a wizard, the dealer names the trump suit" in page
    assert "If a wizard was played, the first wizard played wins the trick." in page


def test_views_carry_the_powers_and_a_standard_view_is_unchanged() -> None:
    g = Game(WIZARD, 4, seed=1)
    assert dict(g.view(0).special_powers)[W1] == 1
    assert dict(g.view(0).special_powers)[J1] == 3
    assert "special_powers" not in Game(cardrules.load("oh-hell"), 4, seed=1).view(0).to_dict()


def test_the_bots_play_legally_and_the_heuristic_beats_random() -> None:
    s = simulate(WIZARD, 4, 30, bots=["heuristic", "random", "random", "random"], seed=5)
    assert s.finished == 30 and s.wins[0] >= 24
