"""``redeal:``: a deal thrown in and dealt again when a hand misses the cards
the line names, and Callbreak's redeal for a hand without a spade, an option
of ``callbreak`` (off by default: the game plays as it always did)."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Game, record
from cardrules.card_rules import CardSetRule, CardTerm, TermKind
from cardrules.cards import Suit
from cardrules.dsl import format as format_variant
from cardrules.dsl import load_text
from cardrules.dsl.settings.deal_settings import redeal_chance
from cardrules.engine import Keep, Show, replay
from cardrules.engine.views.event_types import DealEvent, RedealEvent
from cardrules.errors import IllegalAction, VariantError
from cardrules.example_runner import run_examples
from cardrules.rules import MAX_REDEALS_IN_A_ROW, RedealRule
from cardrules.simulate import simulate

NO_SPADE = "a hand without spades must be shown, dealt again by the same dealer"
NO_SPADE_NEXT = "a hand without spades must be shown, dealt again by the next dealer"
COURT = "a hand without spades or without higher than 10 and lower than A must be shown"
MAY = "a hand without spades may be shown, dealt again by the same dealer"


def callbreak(redeal: str = NO_SPADE) -> cardrules.Variant:
    """Callbreak with its redeal option turned on."""
    return cardrules.load("callbreak", redeal=redeal)


def house(line: str, base: str = "callbreak") -> cardrules.Variant:
    return load_text(f"game: house\nextends: {base}\n{line}\n")


# --------------------------------------------------------------------------- the line


def test_the_line_reads_and_writes_back() -> None:
    for line in (
        f"redeal: {NO_SPADE}",
        f"redeal: {NO_SPADE_NEXT}",
        f"redeal: {MAY}",
        "redeal: a hand without trumps or without higher than 10 and lower than A must be "
        "shown, dealt again by the same dealer",
    ):
        v = house(line)
        assert v.redeal is not None
        text = format_variant(v)
        assert line in text
        assert load_text(text).redeal == v.redeal
    assert house("redeal: a hand without spades must be shown").redeal == RedealRule(
        house(f"redeal: {NO_SPADE}").redeal.without  # type: ignore[union-attr]
    )
    assert house("redeal: none").redeal is None


def test_callbreak_is_unchanged_and_offers_the_redeal() -> None:
    v = cardrules.load("callbreak")
    assert v.redeal is None
    assert "redeal" in v.options
    g = Game(v, 4, seed=5)
    while not g.is_over:
        g.apply_as_current(g.legal_actions()[0])
    assert not any(ev.kind == "redeal" for ev in g.events)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("redeal: a hand without 2♠ must be shown", "would throw in about 100% of the deals"),
        ("redeal: a hand without higher than 3 must be shown", "has no effect"),
        ("redeal: a hand without suit led must be shown", "no trick yet"),
        ("redeal: a hand without winning must be shown", "no trick yet"),
    ],
)
def test_a_condition_that_cannot_work_is_refused_at_its_line(line: str, words: str) -> None:
    with pytest.raises(VariantError) as err:
        house(line)
    assert words in str(err.value)
    assert err.value.line == 3


def test_the_chance_of_a_throw_in_is_computed() -> None:
    chance, n, k = redeal_chance(callbreak())
    # Four hands of 13: each misses the 13 spades with chance C(39,13)/C(52,13).
    one = math.comb(39, 13) / math.comb(52, 13)
    assert (n, k) == (4, 13)
    assert chance == pytest.approx(1 - (1 - one) ** 4)
    assert 0.04 < chance < 0.06


def test_the_rules_page_says_the_redeal() -> None:
    from cardrules.rulebook.words import dealer_phrase

    assert "must show" not in dealer_phrase(cardrules.load("callbreak"))
    said = dealer_phrase(callbreak())
    assert "without spades must show it to everyone" in said
    assert "the same dealer deals again" in said
    assert "the next player deals" in dealer_phrase(callbreak(NO_SPADE_NEXT))
    assert "without a card higher than 10 and lower than A" in dealer_phrase(callbreak(COURT))
    assert "without spades may show it to everyone" in dealer_phrase(callbreak(MAY))


def test_may_be_shown_needs_players_who_see_their_cards() -> None:
    with pytest.raises(VariantError) as err:
        load_text(f"game: house\nextends: callbreak\nblind bids: yes\nredeal: {MAY}\n")
    assert "must be shown" in str(err.value)


# --------------------------------------------------------------------------- a stacked deal


def _stack(hands: list[str]) -> list[str]:
    """A deck that deals ``hands`` (the first to the dealer's neighbour, in the
    order of the deal), one card at a time."""
    cards = [h.split() for h in hands]
    return [cards[j][i] for i in range(len(cards[0])) for j in range(len(cards))]


def _cs(text: str) -> cardrules.CardSet:
    return cardrules.CardSet(cardrules.card(x) for x in text.split())


SPADELESS = [
    "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
    "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
    "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥",
    "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠",
]
MIXED = [
    "2♣ 6♣ 10♣ A♣ 3♦ 7♦ J♦ 4♥ 8♥ Q♥ 5♠ 9♠ K♠",
    "3♣ 7♣ J♣ 2♦ 6♦ 10♦ A♦ 5♥ 9♥ K♥ 4♠ 8♠ Q♠",
    "4♣ 8♣ Q♣ 5♦ 9♦ K♦ 2♥ 6♥ 10♥ A♥ 3♠ 7♠ J♠",
    "5♣ 9♣ K♣ 4♦ 8♦ Q♦ 3♥ 7♥ J♥ 2♠ 6♠ 10♠ A♠",
]


def test_golden_a_stacked_deal_without_spades_is_shown_and_dealt_again() -> None:
    # Seat 2 deals (anticlockwise: seat 1 is dealt first, then seat 4, 3, 2).
    g = Game(callbreak(), 4, deck=[_stack(SPADELESS), _stack(MIXED)], first_dealer=1)
    kinds = [ev.kind for ev in g.events]
    assert kinds == ["start", "deal", "trump", "redeal", "deal", "trump"]
    thrown, shown, again = g.events[1], g.events[3], g.events[4]
    assert isinstance(thrown, DealEvent) and isinstance(shown, RedealEvent)
    assert isinstance(again, DealEvent)
    # The first hand dealt (seat 1's, every club) has no spade: seat 1 shows it.
    assert (shown.hand_number, shown.seat, shown.cards) == (1, 0, _cs(SPADELESS[0]))
    assert thrown.dealer == again.dealer == 1 and again.hand_number == 1
    assert g.hand(0) == _cs(MIXED[0])
    assert g.hand_number == 1 and g.phase == "bid" and g.to_act == 0
    # Every seat sees the hand shown; the other hands of the deal thrown in stay hidden.
    for seat in range(4):
        stream = g.events_for(seat)
        assert RedealEvent(0, 1, 0, _cs(SPADELESS[0])) in stream
        deal = next(ev for ev in stream if isinstance(ev, DealEvent))
        assert [h is not None for h in deal.hands] == [s == seat for s in range(4)]


def test_golden_the_next_dealer_deals_again() -> None:
    g = Game(callbreak(NO_SPADE_NEXT), 4, deck=[_stack(SPADELESS), _stack(MIXED)], first_dealer=1)
    deals = [ev for ev in g.events if isinstance(ev, DealEvent)]
    # Anticlockwise, the deal passes to the right: from seat 2 to seat 1.
    assert [d.dealer for d in deals] == [1, 0]
    assert g.dealer == 0
    # Seat 4 is now the dealer's neighbour and the first to be dealt.
    assert g.hand(3) == _cs(MIXED[0])


def test_golden_a_hand_that_may_be_shown_is_shown_or_kept() -> None:
    deck = [_stack(SPADELESS), _stack(MIXED)]
    g = Game(callbreak(MAY), 4, deck=deck, first_dealer=1)
    # Every seat in turn, from the dealer's neighbour, keeps its hand or shows it.
    assert (g.phase, g.to_act, g.legal_actions()) == ("trumps", 0, (Keep(), Show()))
    # Anticlockwise: seats 1, 4, 3 (every club, diamond, heart) may show; seat 2 may not.
    for seat in (0, 3, 2):
        assert (g.to_act, g.legal_actions()) == (seat, (Keep(), Show()))
        g.apply(Keep(), seat)
    assert (g.to_act, g.legal_actions()) == (1, (Keep(),))
    with pytest.raises(IllegalAction) as err:
        g.apply(Show(), 1)
    assert err.value.code == "may_not_show"
    g.apply(Keep(), 1)
    assert g.phase == "bid" and g.hand(0) == _cs(SPADELESS[0])
    assert not any(isinstance(ev, RedealEvent) for ev in g.events)

    g = Game(callbreak(MAY), 4, deck=deck, first_dealer=1)
    g.apply(Show(), 0)
    kinds = [ev.kind for ev in g.events]
    assert kinds == ["start", "deal", "trump", "call", "redeal", "deal", "trump"]
    shown = g.events[4]
    assert isinstance(shown, RedealEvent) and shown.cards == _cs(SPADELESS[0])
    assert g.dealer == 1 and g.hand(0) == _cs(MIXED[0])
    # The new deal is asked again; this one has a spade in every hand.
    assert (g.phase, g.to_act, g.legal_actions()) == ("trumps", 0, (Keep(),))


def test_a_deal_that_stands_is_played_as_dealt() -> None:
    g = Game(callbreak(), 4, deck=[_stack(MIXED)], first_dealer=1)
    assert not any(ev.kind == "redeal" for ev in g.events)


def test_after_the_most_deals_in_a_row_the_deal_stands() -> None:
    # A condition that always holds (three hands of four miss A♠) is refused in
    # a file; a config built in Python is capped while it plays.
    ace = CardSetRule((CardTerm(TermKind.CARD, card=cardrules.card("A♠")),))
    sure = attrs.evolve(callbreak(), redeal=RedealRule((ace,)))
    g = Game(sure, 4, seed=3)
    while not g.is_over:
        g.apply_as_current(g.legal_actions()[0])
    per_hand: dict[int, int] = {}
    for ev in g.events:
        if isinstance(ev, RedealEvent):
            per_hand[ev.hand_number] = per_hand.get(ev.hand_number, 0) + 1
    assert per_hand == {h: MAX_REDEALS_IN_A_ROW for h in range(1, g.hand_number + 1)}
    assert g.result is not None and g.result.finished


# --------------------------------------------------------------------------- whole games


def _finish(g: Game, rng: random.Random) -> None:
    while not g.is_over:
        g.apply_as_current(rng.choice(g.legal_actions()))


def _deals(g: Game) -> list[tuple[DealEvent, bool]]:
    """Each deal of the log, and whether it was thrown in."""
    out: list[tuple[DealEvent, bool]] = []
    for ev in g.events:
        if isinstance(ev, DealEvent):
            out.append((ev, False))
        elif isinstance(ev, RedealEvent):
            out[-1] = (out[-1][0], True)
    return out


def _no_spade(hand: cardrules.CardSet) -> bool:
    """An independent reading of the condition: no card of the hand is a spade."""
    return all(c.suit is not Suit.SPADES for c in hand)


def test_two_hundred_seeded_games_with_the_redeal_play_to_the_end() -> None:
    v = callbreak()
    thrown = 0
    for seed in range(200):
        g = Game(v, 4, seed=seed)
        _finish(g, random.Random(seed))
        assert g.result is not None and g.result.finished
        deals = _deals(g)
        thrown += sum(1 for _, t in deals if t)
        for deal, was_thrown in deals:
            assert any(_no_spade(h) for h in deal.hands) == was_thrown
    # About 5% of the deals are thrown in: 1,000 hands, some 50 deals again.
    assert 20 < thrown < 100


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    line=st.sampled_from([NO_SPADE, NO_SPADE_NEXT, COURT, MAY]),
    plays=st.integers(0, 300),
)
def test_property_no_hand_meeting_the_condition_is_played_and_cards_are_conserved(
    seed: int, line: str, plays: int
) -> None:
    v = callbreak(line)
    g = Game(v, 4, seed=seed)
    rng = random.Random(seed)
    for _ in range(plays):
        if g.is_over:
            break
        g.apply_as_current(rng.choice(g.legal_actions()))
    court = "court" in line or "higher than 10" in line

    def meets(hand: cardrules.CardSet) -> bool:
        return _no_spade(hand) or (court and not any(c.rank in (11, 12, 13) for c in hand))

    may = "may" in line
    run = 0
    for deal, thrown in _deals(g):
        # Cards are conserved: every deal, thrown in or not, is the whole pack once.
        seen = [c for h in deal.hands for c in h]
        assert len(seen) == len(set(seen)) == 52
        if may:
            # A deal is thrown in only when a hand could be shown.
            assert not thrown or any(meets(h) for h in deal.hands)
        else:
            # ``must``: a hand meeting the condition is never played.
            assert thrown == any(meets(h) for h in deal.hands)
        run = run + 1 if thrown else 0
        assert run <= MAX_REDEALS_IN_A_ROW
    last = _deals(g)[-1]
    assert not last[1]
    # The seat shown is the first, in the order of the deal, that meets it.
    for ev in g.events:
        if isinstance(ev, RedealEvent):
            assert meets(ev.cards)


# ----------------------------------------------------------------- saves, replays, records


def _game_with_redeals(v: cardrules.Variant, hands_in: int = 1) -> Game:
    for seed in range(1000):
        g = Game(v, 4, seed=seed)
        if any(isinstance(ev, RedealEvent) for ev in g.events):
            rng = random.Random(seed)
            for _ in range(56 * hands_in + 7):
                g.apply_as_current(rng.choice(g.legal_actions()))
            return g
    raise AssertionError("no seed throws the first deal in")


def test_two_hundred_seeded_games_where_a_hand_may_be_shown_play_to_the_end() -> None:
    v = callbreak(MAY)
    shown = kept = 0
    for seed in range(200):
        g = Game(v, 4, seed=seed)
        _finish(g, random.Random(seed))
        assert g.result is not None and g.result.finished
        for deal, was_thrown in _deals(g):
            seen = [c for h in deal.hands for c in h]
            assert len(seen) == len(set(seen)) == 52
            if was_thrown:
                shown += 1
            elif any(_no_spade(h) for h in deal.hands):
                kept += 1
        for ev in g.events:
            if isinstance(ev, RedealEvent):
                assert _no_spade(ev.cards)
    # A random player shows a hand it may show half the time.
    assert shown > 5 and kept > 5


def _game_shown(v: cardrules.Variant) -> Game:
    """A game of ``v`` (``may be shown``) in which a hand was shown, part played."""
    for seed in range(1000):
        g = Game(v, 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply_as_current(Show() if Show() in legal else rng.choice(legal))
        if any(isinstance(ev, RedealEvent) for ev in g.events) and not g.is_over:
            return g
    raise AssertionError("no seed shows a hand")


@pytest.mark.parametrize("line", [NO_SPADE, NO_SPADE_NEXT, MAY])
def test_saves_replays_clones_and_records_keep_the_deals_thrown_in(line: str) -> None:
    v = callbreak(line)
    g = _game_shown(v) if "may" in line else _game_with_redeals(v)
    for other in (
        Game.from_json(g.to_json(), v),
        replay(v, g.events),
        g.clone(),
        record.load(record.dump(g, seed=True)),
        record.load(record.dump(g)),
    ):
        assert [ev for ev in other.events if ev.kind != "start"] == [
            ev for ev in g.events if ev.kind != "start"
        ]
        assert other.hand(g.to_act or 0) == g.hand(g.to_act or 0)
    text = record.dump(g)
    assert re.search(r"seat \d shows the hand: thrown in", text)


@pytest.mark.parametrize("line", [COURT, MAY])
def test_a_world_sampled_after_a_deal_thrown_in_matches_the_seat_stream(line: str) -> None:
    v = callbreak(line)
    g = _game_shown(v) if "may" in line else _game_with_redeals(v, hands_in=0)
    rng = random.Random(1)
    seat = g.to_act or 0
    for _ in range(20):
        w = g.sample_world(seat, rng)
        assert w.events_for(seat) == g.events_for(seat)
        assert w.hand(seat) == g.hand(seat)


# --------------------------------------------------------------------------- bots and examples


@pytest.mark.parametrize("line", [NO_SPADE, MAY])
def test_bots_play_it_legally_and_the_heuristic_beats_random(line: str) -> None:
    v = callbreak(line)
    s = simulate(v, 4, 60, ["heuristic", "random"], seed=2024)
    assert s.games == s.finished == 60
    assert s.win_rate(0) > max(s.win_rate(k) for k in (1, 2, 3))
    assert s.win_rate(0) > 0.5


DOC = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text(encoding="utf-8")


def test_the_documented_example_plays() -> None:
    section = DOC[DOC.index("### `redeal:`") :]
    block = re.findall(r"^```\n(example:.*?)^```", section, re.M | re.S)[0]
    v = load_text(f"game: doc\nextends: callbreak\nredeal: {NO_SPADE}\n\n{block}")
    assert v.examples and run_examples(v) == []


def test_examples_keep_or_show_a_hand_that_may_be_shown() -> None:
    text = f"""game: doc
extends: callbreak
redeal: {MAY}

example: a hand without a spade may be shown: the same dealer deals again
  with 4 players, seat 2 deals
  seat 1 holds 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣
  calls show the hand
  expect seat 1 shows the hand
  expect the hand is dealt again

example: or kept, and the hand is played as dealt
  with 4 players, seat 2 deals
  seat 1 holds 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣
  calls keep the hand, keep the hand, keep the hand, keep the hand
  bids 1 1 1 1
  play 2♣
  expect seat 4 may play 3♠

example: a line that bids keeps every hand
  with 4 players, seat 2 deals
  seat 1 holds 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣
  bids 1 1 1 1
  expect seat 1 leads
"""
    v = load_text(text)
    assert len(v.examples) == 3 and run_examples(v) == []


def test_an_example_that_expects_a_redeal_that_does_not_come_fails() -> None:
    text = f"""game: doc
extends: callbreak
redeal: {NO_SPADE}

example: a hand with a spade stands
  with 4 players, seat 2 deals
  seat 1 holds 2♠
  expect the hand is dealt again
"""
    (failure,) = run_examples(load_text(text))
    assert "its deal stood" in str(failure)
