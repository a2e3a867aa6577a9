"""Passing cards before the play (``pass:``, issue 12 item 4), with Hearts.

Golden games on stacked deals (``catalog_support.stack``: the dealer's neighbour
gets the first card): a pass received in each direction of Hearts' cycle, a hand
without a pass, a moon shot; the protocol (everyone chooses at once, the cards
change hands when all have chosen), refusals that leave the game unchanged,
saves, replays and clones in the middle of a pass, the load-time refusals, and
Hypothesis properties over whole games: card conservation including passed
cards, 26 points a hand (or the moon), and views that show a seat only its own
pass and the cards passed to it.
"""

from __future__ import annotations

import json
import random

import pytest
from catalog_support import stack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import CardSet, Game, IllegalAction, Pass, Play, card, load_text, replay
from cardrules.dsl import format, parse
from cardrules.engine.actions import NUM_ACTIONS, PASS_BASE, Action
from cardrules.errors import InvalidAction, SaveError, VariantError
from cardrules.rules import PassRule, PassTo

HEARTS = cardrules.load("hearts")

#: Hand 1 (dealer seat 3): seat 0 gets the first hand, and so on.
H0 = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
H1 = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"
H2 = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
H3 = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
SUITED = stack(H0, H1, H2, H3)


def cs(text: str) -> CardSet:
    return CardSet([card(t) for t in text.split()])


def pass_top3(g: Game) -> dict[int, CardSet]:
    """Every seat passes its three highest cards, seats in a shuffled order; the
    cards each seat chose."""
    chosen = {}
    for s in (2, 0, 3, 1):
        top = sorted(g.hand(s), key=int)[-3:]
        for c in top:
            g.apply(Pass(c), s)
        chosen[s] = CardSet(top)
    return chosen


def play_lowest(g: Game) -> None:
    """The rest of the hand: the lowest legal action each time (passes too)."""
    hand = g.hand_number
    while not g.is_over and g.hand_number == hand:
        s = g.to_act
        assert s is not None
        g.apply(g.legal_actions(s)[0], s)


# --------------------------------------------------------------------------- golden


def test_the_first_hand_passes_left_to_the_next_player_in_the_direction_of_play() -> None:
    g = Game(HEARTS, 4, seed=1, deck=SUITED, first_dealer=3)
    assert g.phase == "pass" and g.waiting_for == {0, 1, 2, 3}
    assert g.hand(0) == cs(H0)
    chosen = pass_top3(g)
    assert g.phase == "play"
    # Left: seat s to seat s + 1 (play goes clockwise).
    for s in range(4):
        v = g.view(s)
        assert v.pass_to == (s + 1) % 4
        assert CardSet(v.passed) == chosen[s]
        assert CardSet(v.received) == chosen[(s - 1) % 4]
        assert g.hand(s) == (
            CardSet(cs([H0, H1, H2, H3][s]).mask & ~chosen[s].mask) | chosen[(s - 1) % 4]
        )
    # Seat 0 passed its top clubs, so it no longer holds the 2♣'s suit top; seat 0
    # still holds 2♣ and leads it.
    assert g.to_act == 0 and g.legal_actions() == (Play("2C"),)
    # The exchange event: the cards and where they went.
    (ex,) = [e.astuple() for e in g.events if e[0] == "exchange"]
    assert ex == ("exchange", 1, (1, 2, 3, 0), tuple(chosen[s] for s in range(4)))


def test_the_second_hand_passes_right_the_third_across_the_fourth_not_at_all() -> None:
    g = Game(HEARTS, 4, seed=1, deck=SUITED, first_dealer=3)
    pass_top3(g)
    play_lowest(g)
    assert g.hand_number == 2 and g.dealer == 0 and g.phase == "pass"
    # Dealer seat 0: seat 1 gets the first stacked hand (the clubs).
    assert g.hand(1) == cs(H0)
    chosen = pass_top3(g)
    for s in range(4):
        assert g.view(s).pass_to == (s - 1) % 4
        assert CardSet(g.view(s).received) == chosen[(s + 1) % 4]
    play_lowest(g)
    assert g.hand_number == 3 and g.phase == "pass"
    chosen = pass_top3(g)
    for s in range(4):
        assert g.view(s).pass_to == (s + 2) % 4
        assert CardSet(g.view(s).received) == chosen[(s + 2) % 4]
    play_lowest(g)
    assert g.hand_number == 4
    # The fourth hand of the cycle: no pass; the play starts at once.
    assert g.phase == "play" and g.view(0).pass_to is None
    assert not any(isinstance(a, Pass) for a in g.legal_actions())
    assert [e for e in g.events if e[0] == "exchange"][-1][1] == 3
    play_lowest(g)
    # The cycle starts again: hand 5 passes left.
    if not g.is_over:
        assert g.hand_number == 5 and g.phase == "pass"
        pass_top3(g)
        assert g.view(0).pass_to == 1


def test_passing_right_with_anticlockwise_play_goes_to_the_previous_player() -> None:
    """Directions follow the direction of play: anticlockwise, the next player
    of seat s is seat s - 1, so `left` goes to seat s - 1 and `right` to s + 1."""
    v = load_text(
        "game: anti-pass\nextends: hearts\ndirection: anticlockwise\npass: 1 card left, right\n"
    )
    g = Game(v, 4, seed=2, first_dealer=1)
    for s in range(4):
        g.apply(g.legal_actions(s)[0], s)
    assert [g.view(s).pass_to for s in range(4)] == [3, 0, 1, 2]
    play_lowest(g)
    assert g.hand_number == 2 and g.phase == "pass"
    assert [g.view(s).pass_to for s in range(4)] == [1, 2, 3, 0]


MOON_HAND = stack(H3, H0, H1, H2)  # dealer seat 2: seat 3, 0, 1, 2 in dealing order


def test_a_moon_shot_scores_nothing_for_the_shooter_and_26_for_everyone_else() -> None:
    """Hand 4 has no pass. Seat 0 holds every club: it leads 2♣, wins it (nobody
    else has a club; no points may go on the first trick), then leads clubs to
    the end, and everyone else must throw away their hearts and Q♠ on them."""
    g = Game(HEARTS, 4, seed=5, deck=[SUITED, SUITED, SUITED, MOON_HAND], first_dealer=3)
    for _ in range(3):
        pass_top3(g)
        play_lowest(g)
    assert g.hand_number == 4 and g.dealer == 2 and g.phase == "play"
    assert g.hand(0) == cs(H0)
    before = g.scores
    # Trick 1: seat 0 leads 2♣; seat 1 (diamonds) and seat 2 (hearts: none
    # other than hearts) and seat 3 (spades, but not Q♠ on the first trick).
    assert g.to_act == 0
    g.apply(Play("2C"), g.to_act)
    assert {a.card for a in g.legal_actions()} == set(cs(H1))
    g.apply(Play("2D"), g.to_act)
    # Seat 2 holds only hearts: on the first trick it may then play any of them.
    assert {a.card for a in g.legal_actions()} == set(cs(H2))
    g.apply(Play("2H"), g.to_act)
    assert card("QS") not in {a.card for a in g.legal_actions()}
    g.apply(Play("2S"), g.to_act)
    play_lowest(g)
    score = [e for e in g.events if e[0] == "score"][-1]
    assert score[1] == 4 and list(score[4]) == [0, 26, 26, 26]
    assert tuple(a - b for a, b in zip(g.scores, before, strict=True)) == (0, 26, 26, 26)


def test_hearts_may_not_be_led_until_broken_and_q_spades_does_not_break_them() -> None:
    g = Game(HEARTS, 4, seed=5, deck=[SUITED, SUITED, SUITED, MOON_HAND], first_dealer=3)
    for _ in range(3):
        pass_top3(g)
        play_lowest(g)
    # Seat 0 holds every club, so it wins every trick; seat 3 (spades) throws Q♠
    # on the second trick: that breaks spades, not hearts.
    for c in ("2C", "2D", "2H", "2S", "3C", "3D", "4H", "QS"):
        g.apply(Play(c), g.to_act)
    assert not g.view(0).trumps_broken


# --------------------------------------------------------------------------- protocol


def test_everyone_chooses_at_once_and_nobody_sees_another_seats_choice() -> None:
    g = Game(HEARTS, 4, seed=11, first_dealer=3)
    assert g.to_act == 0 and g.waiting_for == {0, 1, 2, 3}
    # Any waiting seat may choose; its options are its cards not yet chosen.
    c = g.legal_actions(2)[0]
    assert isinstance(c, Pass) and c.card in g.hand(2)
    g.apply(c, 2)
    assert c not in g.legal_actions(2) and len(g.legal_actions(2)) == 12
    # The chosen card stays in the hand until everyone has chosen.
    assert c.card in g.hand(2) and c.card in g.view(2).hand
    assert g.view(2).passed == (c.card,)
    for s in (0, 1, 3):
        v = g.view(s)
        assert v.passed == () and v.received == ()
        assert c.card not in {x for _, cards in v.known_hands for x in cards}
        assert g.events_for(s)[-1].astuple() == ("pass", 2, None)
    assert g.events_for(2)[-1].astuple() == ("pass", 2, c.card)
    # Seat 2 finishes; it waits no more.
    for a in g.legal_actions(2)[:2]:
        g.apply(a, 2)
    assert g.waiting_for == {0, 1, 3} and g.legal_actions(2) == ()
    with pytest.raises(IllegalAction, match="already chosen its cards"):
        g.apply(Pass(sorted(g.hand(2), key=int)[-1]), 2)


def test_a_seat_knows_where_its_passed_cards_are_and_nobody_else_does() -> None:
    g = Game(HEARTS, 4, seed=1, deck=SUITED, first_dealer=3)
    chosen = pass_top3(g)
    for s in range(4):
        known = dict(g.view(s).known_hands)
        assert known == {(s + 1) % 4: tuple(chosen[s])}
    # Once seat 1 plays one of the cards it received from seat 0, seat 0 knows
    # only the others.
    g.apply(Play("2C"), g.to_act)  # seat 0
    assert g.to_act == 1
    # Seat 1 holds clubs now (J♣ Q♣ K♣... the top three of seat 0): it must follow.
    top = sorted(chosen[0], key=int)
    g.apply(Play(top[0]), g.to_act)
    assert dict(g.view(0).known_hands) == {1: tuple(top[1:])}


def test_the_log_shows_a_seat_its_own_pass_and_the_cards_passed_to_it() -> None:
    g = Game(HEARTS, 4, seed=1, deck=SUITED, first_dealer=3)
    chosen = pass_top3(g)
    full = next(e for e in g.events if e[0] == "exchange")
    for s in range(4):
        (ex,) = [e for e in g.events_for(s) if e[0] == "exchange"]
        giver = (s - 1) % 4
        assert ex[2] == full[2]
        assert ex[3] == tuple(chosen[x] if x in (s, giver) else None for x in range(4))
        for e in g.events_for(s):
            if e[0] == "pass":
                assert (e[2] is not None) == (e[1] == s)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play("2C"), "the pass is not over: seat 0 must choose 3 more cards to pass"),
        (Pass("2D"), "seat 0 does not hold 2♦"),
        (cardrules.Bid(1), "the pass is not over"),
    ],
)
def test_refusals_in_the_pass_leave_the_game_unchanged(action: Action, message: str) -> None:
    g = Game(HEARTS, 4, seed=1, deck=SUITED, first_dealer=3)
    before = g.to_json()
    with pytest.raises(IllegalAction, match=message):
        g.apply(action, 0)
    assert g.to_json() == before


def test_a_card_cannot_be_chosen_twice_nor_passed_outside_the_pass() -> None:
    g = Game(HEARTS, 4, seed=1, deck=SUITED, first_dealer=3)
    g.apply(Pass("AC"), 0)
    with pytest.raises(IllegalAction, match="already chosen A♣"):
        g.apply(Pass("AC"), 0)
    pass_rest = [("KC", 0), ("QC", 0)]
    for c, s in pass_rest:
        g.apply(Pass(c), s)
    for s in (1, 2, 3):
        for a in g.legal_actions(s)[:3]:
            g.apply(a, s)
    assert g.phase == "play"
    before = g.to_json()
    with pytest.raises(IllegalAction, match="cards are passed only after the deal"):
        g.apply(Pass("2C"), g.to_act)
    assert g.to_json() == before
    oh_hell = cardrules.load("oh-hell")
    h = Game(oh_hell, 4, seed=1)
    with pytest.raises(IllegalAction, match="pass 2♣ is not possible now"):
        h.apply(Pass("2C"), h.to_act)


def test_pass_actions_have_their_own_id_block() -> None:
    from cardrules.engine.actions import JOKER_BASE, SHED_BASE, TRUMP_BASE

    # The pass block comes right after Amend; the trump-choice block after it,
    # then the shedding games' actions.
    assert PASS_BASE == 212 and TRUMP_BASE == PASS_BASE + 52 < SHED_BASE < NUM_ACTIONS
    for i in range(52):
        a = Action.from_id(PASS_BASE + i)
        assert a is Pass(i) and int(a.card) == i and a.label == f"pass {a.card}"
    assert Pass("Q♠") is Pass(card("QS")) and repr(Pass("QS")) == "Pass('Q♠')"
    # The jokers (cards 52 and 53) pass with ids after every other block but the
    # redeal's Keep/Show and the declarer's Downtown/Misere (issue 23).
    assert Pass(52).id == JOKER_BASE + 2 == 328 and Action.from_id(329) is Pass("BJ")
    for bad in (64, -1, "X", 1.0):  # 54-63: the special cards (issue 23)
        with pytest.raises(InvalidAction):
            Pass(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- saves


def test_saves_replays_and_clones_in_the_middle_of_a_pass() -> None:
    g = Game(HEARTS, 4, seed=21)
    g.apply(g.legal_actions(1)[3], 1)
    g.apply(g.legal_actions(3)[0], 3)
    restored = Game.from_json(g.to_json())
    assert restored == g and restored.view(1) == g.view(1)
    assert restored.legal_actions(1) == g.legal_actions(1)
    assert replay(HEARTS, g.events) == g
    clone = g.clone()
    clone.apply(clone.legal_actions(1)[0], 1)
    assert clone.view(1).passed != g.view(1).passed
    assert len(g.view(1).passed) == 1
    # The saved actions carry the pass ids.
    data = json.loads(g.to_json())
    assert [a[1] for a in data["actions"]] == [
        g.events[-2][2] + PASS_BASE,
        g.events[-1][2] + PASS_BASE,
    ]


def test_a_save_whose_pass_is_not_legal_is_refused() -> None:
    g = Game(HEARTS, 4, seed=21)
    s = g.legal_actions(1)[0]
    g.apply(s, 1)
    data = json.loads(g.to_json())
    data["actions"].append(data["actions"][0])  # the same card chosen again
    data["state"] = None
    with pytest.raises(SaveError, match="already chosen"):
        Game.from_json(json.dumps(data))


# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("pass: 3 cards across\nplayers: 3 to 5\nhand size: 10", "`across` needs an even number"),
        ("pass: 14 cards left", "from 1 to 13"),
        ("pass: 3 cards none", "every hand of this cycle has no pass"),
        ("pass: 3 cards left\nhand size: 2", "have only 2 cards"),
    ],
)
def test_the_pass_lines_refused_at_load(lines: str, message: str) -> None:
    with pytest.raises(VariantError, match=message):
        load_text(f"game: bad-pass\nextends: hearts\n{lines}\n")


def test_blind_bids_cannot_go_with_a_pass() -> None:
    with pytest.raises(VariantError, match="cannot bid blind"):
        load_text("game: bad-pass\nextends: oh-hell\npass: 1 card left\nblind bids: yes\n")


def test_a_pass_that_never_happens_is_a_no_op() -> None:
    with pytest.raises(VariantError, match="nobody ever passes"):
        load_text(
            "game: idle-pass\nextends: hearts\nhands: 1 hands of the same size\n"
            "pass: 3 cards none, left\n"
        )


def test_configs_built_in_python_are_checked_by_the_engine() -> None:
    with pytest.raises(VariantError, match="needs an even number"):
        Game(HEARTS.evolve(players=cardrules.rules.PlayerRange(3, 5)), 3)
    bad = HEARTS.evolve(passing=PassRule(3, ()))
    with pytest.raises(VariantError, match="a pass is 1 to 13 cards"):
        Game(bad, 4)
    with pytest.raises(VariantError):
        format(bad)


@pytest.mark.parametrize(
    "line",
    ["pass: 3 cards left, right, across, none", "pass: 1 card right", "pass: 2 cards across, left"],
)
def test_pass_lines_round_trip(line: str) -> None:
    v = load_text(f"game: rt\nextends: hearts\n{line}\n")
    assert parse(format(v), validate=False) == v
    assert line in format(v)


def test_old_variants_keep_their_fingerprints() -> None:
    """A variant without a pass hashes as before the setting existed."""
    from cardrules.engine.state.compiled_rules import _LATER_FIELDS

    assert _LATER_FIELDS[("Variant", "passing")] == PassRule()
    v = cardrules.load("oh-hell")
    assert v.passing == PassRule() and v.passing.to(1) is PassTo.NONE


# --------------------------------------------------------------------------- properties


def _random_game(seed: int, checks: bool) -> Game:
    """A whole game of Hearts by random legal actions (passes by a random waiting
    seat), checking card conservation and every seat's view after each action."""
    rng = random.Random(seed)
    g = Game(HEARTS, 4, seed=seed)
    pack = HEARTS.deck.cards.mask
    while not g.is_over:
        if g.phase == "pass":
            s = rng.choice(sorted(g.waiting_for))
            g.apply(rng.choice(g.legal_actions(s)), s)
        else:
            g.apply(rng.choice(g.legal_actions()), g.to_act)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask, "a card is in two places"
            union |= part.mask
        assert union == pack, "a card went missing"
        if checks:
            _check_views(g)
    return g


def _check_views(g: Game) -> None:
    n = g.players
    for s in range(n):
        v = g.view(s)
        assert v.hand is not None and CardSet(v.hand) == g.hand(s)
        assert v.visible_hands == ()
        assert CardSet(v.passed).mask & ~g.hand(s).mask == 0 or g.phase != "pass"
        # What a seat knows of other hands: only cards it passed itself.
        for other, cards in v.known_hands:
            assert other == v.pass_to and set(cards) <= set(v.passed)
            assert set(cards) <= set(g.hand(other))
        # No other seat's pass shows in its log.
        for e in g.events_for(s):
            if e[0] == "pass" and e[1] != s:
                assert e[2] is None
            if e[0] == "exchange":
                for giver, shown in enumerate(e[3]):
                    if shown is not None:
                        assert giver == s or e[2][giver] == s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_property_whole_games_conserve_cards_and_views_never_leak(seed: int) -> None:
    g = _random_game(seed, checks=True)
    assert g.result is not None and g.result.finished


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_property_every_hand_hands_out_26_points_or_the_moon(seed: int) -> None:
    g = _random_game(seed, checks=False)
    for e in g.events:
        if e[0] == "score":
            points = sorted(e[4])
            assert sum(points) == 26 or points == [0, 26, 26, 26], points
    result = g.result
    assert result is not None
    assert max(result.totals) >= 100
    assert result.winners == tuple(s for s in range(4) if result.totals[s] == min(result.totals))
    assert Game.from_json(g.to_json()) == g


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 13),
    st.lists(st.sampled_from(list(PassTo)), min_size=1, max_size=8).filter(
        lambda c: any(to is not PassTo.NONE for to in c)
    ),
)
def test_property_any_pass_line_formats_and_parses_back(count: int, cycle: list[PassTo]) -> None:
    v = HEARTS.evolve(passing=PassRule(count, tuple(cycle)))
    text = format(v)
    assert parse(text, validate=False) == v
    assert format(parse(text, validate=False)) == text


def test_a_game_record_carries_the_passes() -> None:
    """Game records (``cardrules.record``) write each pass as ``seat N: pass Q♠``
    and replay them through the rules."""
    from cardrules import record

    g = Game(HEARTS, 4, seed=3)
    while not g.is_over:
        g.apply(g.legal_actions()[0], g.to_act)
    text = record.dump(g)
    assert "  seat 2: pass 7♣" in text.splitlines()[9]
    again = record.load(text)
    assert again.result == g.result and record.dump(again) == text
    bad = text.replace("  seat 2: pass 7♣\n", "  seat 2: pass 7♣\n  seat 2: pass 7♣\n", 1)
    with pytest.raises(SaveError, match="already chosen 7♣"):
        record.load(bad)


def test_a_pass_cannot_go_with_knock_outs() -> None:
    """A knocked-out seat holds no cards to pass or receive: refused at load, and
    by the engine for a config built in Python."""
    with pytest.raises(VariantError, match="knocks players out"):
        load_text("game: bad-pass\nextends: knockout-whist\npass: 1 card left\n")
    ko = cardrules.load("knockout-whist")
    with pytest.raises(VariantError, match="knocks players out"):
        Game(ko.evolve(passing=PassRule(1, (PassTo.LEFT,))), 4)
