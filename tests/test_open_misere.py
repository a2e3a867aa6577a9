"""Open misère in Five Hundred (Pagat, https://www.pagat.com/euchre/500.html):
a bid of the auction just above 10 diamonds, worth 500; the declarer plays
alone without trumps to take no trick, and once the first trick is complete
its hand is laid face up: a public ``shown`` event, and from then on every
seat's view lists its cards in ``known_hands`` (the sampler keeps them)."""

from __future__ import annotations

import random

from catalog_support import stack
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Contract, Game, Suit
from cardrules.cards import CardSet, card
from cardrules.engine.actions import Decline, Discard, Play
from cardrules.engine.events import ShownEvent
from cardrules.engine.views.context import DecisionContext
from cardrules.engine.views.observation_vector import (
    _game_plan,
    _observation_from_view,
    observation_layout,
)

FH = cardrules.load("five-hundred")
OPEN = Contract(0, "open misère")

#: Seat 1 (index 0) holds low cards; seat 3 deals; the kitty is three aces.
LOW_HAND = [
    *stack(
        "7♠ 8♠ 9♠ 7♣ 8♣ 9♣ 7♦ 8♦ 9♦ 7♥",
        "BJ A♠ K♠ Q♠ A♣ K♣ Q♣ K♦ Q♦ J♦",
        "10♠ J♠ 10♣ J♣ 10♦ 8♥ 9♥ 10♥ J♥ Q♥",
    ),
    *(card(c) for c in ("A♦", "A♥", "K♥")),
]


def _open_misere_by_0(deck: list[cardrules.Card] | None = None, seed: int = 0) -> Game:
    """A hand in which seat 0 bids open misère over 10 diamonds and the others
    pass; seat 0 has taken the kitty and not yet discarded."""
    g = Game(FH, 3, deck=deck, first_dealer=2, seed=seed)
    g.apply(Contract(10, Suit.DIAMONDS), 0)
    assert OPEN in g.legal_actions() and Contract(10, Suit.HEARTS) in g.legal_actions()
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    return g


def _bid_open_misere(seed: int) -> Game:
    """Seat 0 bids open misère at once and the others pass."""
    g = Game(FH, 3, first_dealer=2, seed=seed)
    g.apply(OPEN, 0)
    assert Contract(10, Suit.HEARTS) in g.legal_actions()
    assert Contract(10, Suit.DIAMONDS) not in g.legal_actions()
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    return g


def test_open_misere_is_a_bid_between_10_diamonds_and_10_hearts() -> None:
    g = _open_misere_by_0(LOW_HAND)
    assert g.view(0).contract == "10 diamonds"
    g = Game(FH, 3, deck=LOW_HAND, first_dealer=2)
    g.apply(Contract(10, Suit.DIAMONDS), 0)
    g.apply(OPEN, 1)
    legal = g.legal_actions()
    assert Contract(10, Suit.HEARTS) in legal and Contract(10, Suit.DIAMONDS) not in legal
    assert OPEN not in legal
    assert OPEN.id == 501


def test_golden_open_misere_hand_laid_face_up_after_the_first_trick() -> None:
    """A stacked hand: seat 0 bids open misère, discards the kitty's aces and
    the K♥, loses every trick and scores 500; its hand is shown (public)
    right after the first trick."""
    g = Game(FH, 3, deck=LOW_HAND, first_dealer=2)
    g.apply(OPEN, 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    assert g.view(0).contract == "open misère" and g.view(1).trump is None
    for c in ("A♦", "A♥", "K♥"):
        g.apply(Discard(c), 0)
    for s in (1, 2):
        assert 0 not in dict(g.view(s).known_hands)
    assert not any(e[0] == "shown" for e in g._events)
    g.apply(Play(card("7♠")), 0)
    g.apply(Play(card("A♠")), 1)
    assert 0 not in dict(g.view(2).known_hands)
    g.apply(Play(card("10♠")), 2)
    rest = CardSet(map(card, ["8♠", "9♠", "7♣", "8♣", "9♣", "7♦", "8♦", "9♦", "7♥"]))
    assert g._events[-1] == ("shown", 0, rest.mask)
    assert g._events[-2][0] == "trick"
    want = tuple(rest)
    for s in (1, 2):
        assert dict(g.view(s).known_hands)[0] == want
        ev = g.events_for(s)[-1]
        assert type(ev) is ShownEvent and ev.seat == 0 and ev.cards == rest
    assert dict(g.public_view().known_hands)[0] == want
    # A card the declarer plays leaves the shown hand.
    g.apply(Play(card("K♠")), 1)
    g.apply(Play(card("J♠")), 2)
    g.apply(Play(card("8♠")), 0)
    assert card("8♠") not in dict(g.view(2).known_hands)[0]
    while not g.is_over and g.hand_number == 1:
        g.apply_as_current(g.legal_actions()[0])
    score = next(e for e in g._events if e[0] == "score")
    assert score[3][0] == 0 and score[4] == [500, 0, 0]
    assert g.is_over and g.result is not None  # 500 reached by the declarer: out
    assert sum(1 for e in g._events if e[0] == "shown") == 1


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 100), max_size=40))
def test_no_seat_sees_the_declarers_hand_before_the_first_trick_and_every_seat_after(
    seed: int, picks: list[int]
) -> None:
    g = _bid_open_misere(seed)
    for k in picks:
        g.apply_as_current(g.legal_actions()[k % len(g.legal_actions())])
        if g.hand_number != 1:
            break
        held = set(g.omniscient_view().visible_hands[0][1])
        done = any(e[0] == "trick" for e in g._events)
        for s in (1, 2, None):
            v = g.public_view() if s is None else g.view(s)
            known = set(dict(v.known_hands).get(0, ()))
            assert 0 not in dict(v.visible_hands)
            if done:
                assert known == held
            else:
                assert not known & held


def test_a_sampled_world_after_the_reveal_keeps_the_declarers_shown_hand() -> None:
    g = Game(FH, 3, deck=LOW_HAND, first_dealer=2)
    g.apply(OPEN, 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("A♦", "A♥", "K♥"):
        g.apply(Discard(c), 0)
    for c in ("7♠", "A♠", "10♠"):
        g.apply_as_current(Play(card(c)))
    shown = g._hands[0]
    for seed in range(4):
        for s in (1, 2):
            w = g.sample_world(s, random.Random(seed))
            assert w._hands[0] == shown
            assert w._hands[s] == g._hands[s]
            assert w.view(s) == g.view(s)


def test_the_observation_and_the_decision_context_show_the_hand_laid_face_up() -> None:
    g = Game(FH, 3, deck=LOW_HAND, first_dealer=2)
    g.apply(OPEN, 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("A♦", "A♥", "K♥"):
        g.apply(Discard(c), 0)
    layout = {s.name: s for s in observation_layout(FH, 3)}
    known = layout["known"]
    g.apply_as_current(Play(card("7♠")))
    before = g.observation(1)[known.start : known.stop]
    assert not any(before)
    for c in ("A♠", "10♠"):
        g.apply_as_current(Play(card(c)))
    assert g.to_act == 1
    after = g.observation(1)[known.start : known.stop]
    assert sum(after) == 9  # the declarer's nine cards, in its relative seat's block
    ctx = DecisionContext(g, 1)
    assert dict(ctx.known_hands)[0] == dict(g.view(1).known_hands)[0]
    assert _observation_from_view(g.view(1), _game_plan(g)) == g.observation(1)


def test_a_save_after_the_reveal_restores_it_and_an_undo_takes_it_back() -> None:
    g = Game(FH, 3, deck=LOW_HAND, first_dealer=2)
    g.apply(OPEN, 0)
    g.apply(Decline(), 1)
    g.apply(Decline(), 2)
    for c in ("A♦", "A♥", "K♥"):
        g.apply(Discard(c), 0)
    for c in ("7♠", "A♠", "10♠"):
        g.apply_as_current(Play(card(c)))
    back = Game.from_json(g.to_json())
    assert back == g and back.view(2) == g.view(2)
    assert back.events_for(2) == g.events_for(2)
    g.undo()
    assert not any(e[0] == "shown" for e in g._events)
    assert 0 not in dict(g.view(2).known_hands)
    g.apply_as_current(Play(card("10♠")))
    assert back.view(1) == g.view(1)
