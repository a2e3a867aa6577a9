"""Issue 23, capability 2: conditions on settings (``hook: no when the hand has 1
card``, ``deck: 9 to ace for 3 players``), the schedule's steps (``1 x players,
2 to 7``), and the built-ins ``romanian-whist`` and ``oh-hell-one-card-bare``.

The engine's choices are checked against an independent reading of each
condition: from the ``deal`` event's size and the hand's place in the game,
the test works out whether a line holds, and compares what the engine did
(a trump suit or none; the dealer's bid that makes the bids add up, offered
or not).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import Bid, Game, card
from cardrules.dsl import format, format_source, load_text, parse
from cardrules.errors import VariantError
from cardrules.rulebook import rulebook
from cardrules.rules import Condition, ConditionKind, HandSituation, Pattern
from cardrules.simulate import simulate

# --------------------------------------------------------------------------- the language


def test_a_condition_is_read_for_any_setting_and_written_back() -> None:
    v = load_text(
        "game: t\nextends: oh-hell\n"
        "trumps: none when the hand has 1 card\n"
        "hook: no when the hand has 1 to 2 cards\n"
        "score: tricks in the last hand\n"
        "follow: any card in the first hand\n"
    )
    kinds = {c.key: c.condition for c in v.conditional}
    assert kinds == {
        "trumps": Condition(ConditionKind.HAND_SIZE, 1, 1),
        "hook": Condition(ConditionKind.HAND_SIZE, 1, 2),
        "score": Condition(ConditionKind.LAST),
        "follow": Condition(ConditionKind.FIRST),
    }
    # The base rules are untouched by the lines with a condition.
    assert v.trumps == cardrules.load("oh-hell").trumps and v.bidding.hook
    text = format(v)
    assert "hook: no when the hand has 1 to 2 cards" in text
    assert "score: tricks in the last hand" in text
    assert parse(text, validate=False) == v


def test_the_pack_may_depend_on_the_number_of_players() -> None:
    """The issue: `deck: 9 to ace for 3 players` was refused."""
    v = load_text(
        "game: t\nextends: oh-hell\nplayers: 3 to 5\ndeck: 9 to ace for 3 players\n"
        "hand size: 7 for 3 players, 10 for 4 to 5 players\n"
    )
    assert v.for_players(3).deck.size == 24 and v.for_players(4).deck.size == 52
    g = Game(v, players=3, seed=1)
    assert g.view(0).pack_size == 24 and g.hand_size == 7
    assert all(c.rank >= 9 for c in g.view(0).hand)
    assert Game(v, players=4, seed=1).view(0).pack_size == 52


def test_the_settings_own_words_keep_for_n_players() -> None:
    v = load_text(
        "game: t\nextends: oh-hell\nhand size: 10 for 3 to 5 players, 7 for 6 to 7 players\n"
    )
    assert not v.conditional
    w = load_text("game: t\nextends: oh-hell\ndeck: standard 52 without 2♦ for 3 players\n")
    assert not w.conditional and w.deck.removed_for


def test_words_in_a_comment_or_a_text_are_no_condition() -> None:
    v = load_text("game: t\nextends: oh-hell\nhook: no  # for 3 players\n")
    assert v.conditional == () and not v.bidding.hook
    v = load_text('game: t\nextends: oh-hell\ntitle: "Oh Hell # for 3 players"\n')
    assert v.title == "Oh Hell # for 3 players"
    v = load_text("game: t\nextends: oh-hell\ndeck: 7 to ace for 3 players  # without the 2s\n")
    assert [c.key for c in v.conditional] == ["deck"]


def test_a_file_tidied_keeps_its_conditions() -> None:
    text = "game: t\nextends: oh-hell\nhook:   NO  when the hand has 1 card  # bare\n"
    assert format_source(text).splitlines()[-1] == "hook: no when the hand has 1 card  # bare"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("hook: no when the hand has 11 cards", "never holds"),
        ("hook: no for 8 players", "never holds"),
        ("trumps: none in a tie-break hand\ntie: shared", "never holds"),
        ("hook: yes when the hand has 1 card", "changes nothing"),
        ("deck: 9 to ace when the hand has 1 card", "number of players only"),
        ("players: 4 for 4 players", "cannot have a condition"),
        ("game: x for 3 players", "cannot have a condition"),
        ("hook: no when the hand has 99999 cards", "cannot be the number of cards"),
        ("hook: no for 5 to 4 players", "fewer than"),
    ],
)
def test_conditions_refused_at_their_line(line: str, words: str) -> None:
    with pytest.raises(VariantError, match=words) as info:
        load_text(f"game: t\nextends: oh-hell\n{line}\n")
    assert info.value.line == 3 or "game:" in line
    assert info.value.code in ("bad_condition", "bad_variant")


def test_the_same_condition_twice_is_refused() -> None:
    with pytest.raises(VariantError, match="already set on line 3"):
        load_text(
            "game: t\nextends: oh-hell\nhook: no in the last hand\nhook: no in the last hand\n"
        )


def test_every_reachable_combination_is_checked() -> None:
    """`deck: 9 to ace for 3 players` leaves 24 cards: a 10-card first hand for 3
    players does not fit, and the check says so (the line of the table).
    """
    with pytest.raises(VariantError, match="3 players"):
        load_text(
            "game: t\nextends: oh-hell\nhand size: 10\nhands: down to 1\n"
            "deck: 9 to ace for 3 players\n"
        )


def test_an_unconditional_line_of_a_house_rule_replaces_the_conditions() -> None:
    v = load_text("game: t\nextends: oh-hell-one-card-bare\nhook: yes\n")
    assert [c.key for c in v.conditional] == ["trumps"]
    w = cardrules.load("oh-hell-one-card-bare", hook="no")
    assert [c.key for c in w.conditional] == ["trumps"] and not w.bidding.hook


def test_files_without_conditions_keep_their_rules() -> None:
    v = cardrules.load("oh-hell")
    assert v.conditional == () and v.for_players(4) is v


def test_hands_steps() -> None:
    v = cardrules.load("romanian-whist")
    assert parse(format(v), validate=False) == v
    assert v.schedule.pattern is Pattern.STEPS
    for n in v.players.counts():
        want = [1] * n + list(range(2, 8)) + [8] * n + list(range(7, 1, -1)) + [1] * n
        assert list(v.hand_sizes(n)) == want


def test_the_rules_page_says_each_condition() -> None:
    page = rulebook(cardrules.load("oh-hell-one-card-bare"))
    assert "In the 1-card hands, there are no trumps." in page
    assert "In the 1-card hands, there is no hook" in page
    assert "| 10 | no trumps; turned-up card for 6 or 7 players |" in page
    assert "| Trumps | turned-up card; none when the hand has 1 card |" in page
    rw = rulebook(cardrules.load("romanian-whist"))
    assert "for 3 players, a 24-card pack, 9 to ace" in rw
    assert "for 6 players, a 48-card pack, 3 to ace" in rw


# --------------------------------------------------------------------------- golden deals


def _cards(text: str) -> list[cardrules.Card]:
    return [card(t) for t in text.split()]


def _bid_until_dealer(g: Game, bids: list[int]) -> None:
    for n in bids:
        g.apply(Bid(n), g.to_act)


def test_golden_one_card_bare() -> None:
    """Two hands (2 cards, then 1) on stacked decks: the 2-card hand has its
    turned-up trump and the hook; the 1-card hand has neither."""
    v = cardrules.load("oh-hell-one-card-bare", hands="list 2, 1", tie="shared")
    # 4 players, seat 3 deals first (seat 0 first to receive), one card at a time.
    first = _cards("A♠ K♠ Q♠ J♠ 2♥ 3♥ 4♥ 5♥ 9♦")  # 9♦ turned up
    second = _cards("5♣ 7♣ 9♠ K♣")
    g = Game(v, players=4, seed=7, deck=[first, second], first_dealer=3)
    assert g.hand_size == 2 and g.trump == cardrules.Suit.DIAMONDS
    _bid_until_dealer(g, [1, 0, 0])
    assert {a.n for a in g.legal_actions()} == {0, 2}  # the hook: not 1
    g.apply(Bid(0), g.to_act)
    while g.hand_number == 1:
        g.apply(g.legal_actions()[0], g.to_act)
    assert g.hand_size == 1 and g.trump is None and g.turned_up is None
    _bid_until_dealer(g, [0, 0, 0])
    assert {a.n for a in g.legal_actions()} == {0, 1}  # no hook
    g.apply(Bid(1), g.to_act)
    for _ in range(4):
        g.apply(g.legal_actions()[0], g.to_act)
    # Seat 1 (dealt first this hand) leads 5♣; K♣ of seat 0 wins with no trumps.
    trick = [e for e in g.events if e[0] == "trick"][-1]
    assert trick[1] == 0
    assert g.is_over


def test_golden_romanian_whist_first_hand() -> None:
    """Three players, the 24-card pack; seat 0 bids 1 and takes the trick: 6
    points; seat 1 bids 1 and takes none: -1; seat 2 bids 0 and takes none: 5."""
    v = cardrules.load("romanian-whist")
    g = Game(v, players=3, seed=3, deck=[_cards("A♠ K♠ 10♠ 9♣")], first_dealer=2)
    assert g.view(0).pack_size == 24 and g.hand_size == 1 and g.trump == cardrules.Suit.CLUBS
    _bid_until_dealer(g, [1, 1])
    assert {a.n for a in g.legal_actions()} == {0, 1}  # 1 + 1 + x == 1 is out of reach
    g.apply(Bid(0), g.to_act)
    for _ in range(3):
        g.apply(g.legal_actions()[0], g.to_act)
    score = next(e for e in g.events if e[0] == "score")
    assert list(score[4]) == [6, -1, 5]


# --------------------------------------------------------------------------- random play


def _lowest_rank(players: int) -> int:
    """Romanian Whist's pack, read independently: 8 cards a player, the lowest
    ranks left out."""
    return 15 - 2 * players


def play_checked(
    v: cardrules.Variant,
    players: int,
    seed: int,
    no_trumps: object,
    hooked: object,
    pack_size: int,
    lowest: int = 2,
) -> Game:
    """Play one game at random, checking after every action that the cards are
    conserved, and in every hand that trumps and the hook are as the
    independent readings ``no_trumps(situation)`` and ``hooked(situation)`` say."""
    rng = random.Random(seed)
    g = Game(v, players=players, seed=seed)
    sizes = v.hand_sizes(players)
    seen_hands: set[int] = set()
    while not g.is_over:
        hn = g.hand_number
        if hn not in seen_hands:
            seen_hands.add(hn)
            size = g.hand_size
            sit = HandSituation(size, hn == 1, hn == len(sizes), hn > len(sizes))
            if hn <= len(sizes):
                assert size == sizes[hn - 1]
            held = [c for part in g.card_locations().values() for c in part]
            assert len(held) == pack_size and min(c.rank for c in held) == lowest
            assert (g.trump is None) == no_trumps(sit), (hn, size, g.trump)  # type: ignore[operator]
        legal = g.legal_actions()
        bids = [a.n for a in legal if isinstance(a, Bid)]
        if bids and g.to_act == g.dealer:
            made = [b for b in g.view(g.to_act).bids if b is not None]
            need = g.hand_size - sum(made)
            if len(made) == players - 1 and 0 <= need <= g.hand_size:
                sit = HandSituation(g.hand_size, hn == 1, hn == len(sizes), hn > len(sizes))
                assert (need not in bids) == hooked(sit), (hn, need, bids)  # type: ignore[operator]
        g.apply(rng.choice(legal), g.to_act)
        union = 0
        for part in g.card_locations().values():
            assert not union & part.mask, "a card is in two places"
            union |= part.mask
        assert union.bit_count() == pack_size, "a card went missing"
    assert g.result is not None
    return g


def test_romanian_whist_200_games() -> None:
    v = cardrules.load("romanian-whist")
    for i in range(200):
        n = 3 + i % 4
        g = play_checked(
            v,
            n,
            5000 + i,
            no_trumps=lambda s: s.size == 8,
            hooked=lambda s: True,
            pack_size=8 * n,
            lowest=_lowest_rank(n),
        )
        # Each hand's points: 5 + bid when exact, minus the difference otherwise.
        for e in g.events:
            if e[0] == "score":
                for bid, took, pts in zip(e[2], e[3], e[4], strict=True):
                    assert pts == (5 + bid if bid == took else -abs(bid - took))


def test_one_card_bare_200_games() -> None:
    v = cardrules.load("oh-hell-one-card-bare")
    for i in range(200):
        play_checked(
            v,
            3 + i % 5,
            7000 + i,
            no_trumps=lambda s: s.size == 1,
            hooked=lambda s: s.size != 1,
            pack_size=52,
        )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lo=st.integers(1, 4),
    span=st.integers(0, 3),
    what=st.sampled_from(["trumps", "hook", "both"]),
    where=st.sampled_from(["size", "first", "last"]),
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
)
def test_conditions_hold_exactly_in_the_hands_they_name(
    lo: int, span: int, what: str, where: str, players: int, seed: int
) -> None:
    """A random condition on the hand, on a short Oh Hell: trumps and the hook
    are as an independent reading of the condition says, hand by hand."""
    hi = lo + span
    suffix = {
        "size": f"when the hand has {lo} to {hi} cards" if span else f"when the hand has {lo} card",
        "first": "in the first hand",
        "last": "in the last hand",
    }[where]
    if where == "size" and lo == 1 and not span:
        suffix = "when the hand has 1 card"

    def holds(s: HandSituation) -> bool:
        if where == "size":
            return lo <= s.size <= hi
        return s.first if where == "first" else s.last

    lines = []
    if what in ("trumps", "both"):
        lines.append(f"trumps: none {suffix}")
    if what in ("hook", "both"):
        lines.append(f"hook: no {suffix}")
    v = load_text(
        "game: t\nextends: oh-hell\nhand size: 5\nhands: down to 1 and back up\ntie: shared\n"
        + "\n".join(lines)
        + "\n"
    )
    play_checked(
        v,
        players,
        seed,
        no_trumps=lambda s: what != "hook" and holds(s),
        hooked=lambda s: not (what != "trumps" and holds(s)),
        pack_size=52,
    )


def test_a_tie_break_hand_has_its_own_rules() -> None:
    """`trumps: none in a tie-break hand`: three players, one hand of one card,
    bids 0 0 0; seat 0 takes the trick (1 point), seats 1 and 2 tie on 10: an
    extra hand, played without trumps, though the scheduled hand had them."""
    v = load_text(
        "game: t\nextends: oh-hell\nhands: list 1\ntrumps: none in a tie-break hand\nhook: no\n"
    )
    g = Game(v, players=3, seed=1, deck=[_cards("A♠ 2♥ 3♦ 9♣")], first_dealer=2)
    assert g.trump == cardrules.Suit.CLUBS
    _bid_until_dealer(g, [0, 0, 0])
    for _ in range(3):
        g.apply(g.legal_actions()[0], g.to_act)
    assert not g.is_over and g.hand_number == 2
    assert g.trump is None and g.turned_up is None


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("name", ["romanian-whist", "oh-hell-one-card-bare"])
def test_heuristic_beats_random(name: str) -> None:
    """200 games, one heuristic seat against random ones: a fair seat would win
    a quarter of them (one standard error: 0.03)."""
    s = simulate(name, 4, 200, ["heuristic", "random"], seed=2024)
    assert s.games == 200 and s.finished == 200
    assert s.win_rate(0) > 0.6
    assert max(s.win_rate(k) for k in (1, 2, 3)) < 0.2


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lowest=st.integers(2, 8),
    lo=st.integers(3, 5),
    span=st.integers(0, 2),
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
)
def test_a_pack_for_some_tables_only(
    lowest: int, lo: int, span: int, players: int, seed: int
) -> None:
    """`deck: L to ace for N to M players`: the pack of each table, read
    independently (4 suits of the ranks from L to the ace at the tables named,
    the standard 52 at the others), is the pack the game deals from."""
    hi = min(lo + span, 5)
    rank = {11: "J", 12: "Q", 13: "K"}.get(lowest, str(lowest))
    v = load_text(
        "game: t\nextends: oh-hell\nplayers: 3 to 5\nhand size: 5\ntie: shared\n"
        f"deck: {rank} to ace for {lo} to {hi} players\n"
        if lowest > 2
        else "game: t\nextends: oh-hell\nplayers: 3 to 5\nhand size: 5\ntie: shared\n"
        f"hook: no for {lo} to {hi} players\n"
    )
    named = lo <= players <= hi
    low = lowest if named else 2
    play_checked(
        v,
        players,
        seed,
        no_trumps=lambda s: False,
        hooked=lambda s: not (lowest == 2 and named),
        pack_size=4 * (15 - low),
        lowest=low,
    )
