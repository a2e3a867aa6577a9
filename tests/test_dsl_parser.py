"""Parser tests: every rule dimension, valid and invalid."""

from __future__ import annotations

import pytest

from cardrules.cards import Suit, card
from cardrules.dsl import load_text, parse
from cardrules.errors import VariantError
from cardrules.rules import (
    BidStyle,
    DeadTricks,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    Mode,
    Pattern,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpLead,
)

BASE = """\
game: test
players: 3 to 7
hand size: 7
score: if exact then 10 + bid else 0
"""

SHED = """\
game: shed
mode: shedding
players: 3 to 8
hands: whole pack
trumps: none
bidding: none
"""


def p(extra: str, base: str = BASE):
    return parse(base + extra, path="t.cardrules")


def bad(extra: str, base: str = BASE) -> VariantError:
    with pytest.raises(VariantError) as info:
        parse(base + extra, path="t.cardrules")
    return info.value


# ---------------------------------------------------------------- identity


def test_identity():
    v = p('title: "Kachuful"\nalso called: "Judgement", "Oh Hell"\nsummary: "Bid exactly."\n')
    assert v.name == "test"
    assert v.title == "Kachuful"
    assert v.aliases == ("Judgement", "Oh Hell")
    assert v.summary == "Bid exactly."


def test_quoted_text_escapes_and_hash():
    v = p('title: "The \\"Big\\" game # not a comment"  # a comment\n')
    assert v.title == 'The "Big" game # not a comment'


def test_game_name_must_be_lower_case():
    with pytest.raises(VariantError) as info:
        parse("game: Oh Hell\n")
    assert "expected a name in lower case" in str(info.value)


def test_game_line_required():
    e = bad("", base="players: 3 to 7\n")
    assert "no `game:` line" in e.message
    assert (e.line, e.column) == (1, 1)


def test_repeated_setting():
    e = bad("players: 4\n")
    assert e.message == "`players` is already set on line 2"
    assert e.line == 5


def test_keywords_are_case_insensitive():
    v = p("Trumps: Turned Up\nHOOK: NO\n")
    assert v.trumps.kind is TrumpKind.TURN_UP
    assert v.bidding.hook is False


def test_comments_and_blank_lines():
    text = (
        "\n# a comment\n\n   game: x   # the name\n\n\n\tplayers: 4   \n" + BASE.split("\n", 2)[2]
    )
    v = parse(text)
    assert (v.name, v.players.min, v.players.max) == ("x", 4, 4)
    assert v.position("players").line == 7
    assert v.position("game").column == 4


def test_mode():
    assert p("").mode is Mode.TRICKS
    assert p("mode: trick-taking\n").mode is Mode.TRICKS
    assert parse(SHED).mode is Mode.SHEDDING


# ---------------------------------------------------------------- players, deck, direction


def test_players():
    v = parse(BASE.replace("3 to 7", "4"))
    assert (v.players.min, v.players.max) == (4, 4)
    assert 5 in p("").players


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 to 4", "a game needs at least 2 players"),
        ("5 to 3", "the most players (3) is fewer than the fewest (5)"),
        ("3 to 60", "60 is too large for players"),
    ],
)
def test_players_invalid(text, message):
    with pytest.raises(VariantError) as info:
        parse(BASE.replace("3 to 7", text))
    assert info.value.message == message
    if "too large" in message:
        assert info.value.expected == "a number from 2 to 52"


def test_deck_standard_and_removed_cards():
    v = p("deck: standard 52 without 2♣ 2d\n")
    assert v.deck.size == 50
    assert card("2♣") not in v.deck.cards
    assert card("2♦") not in v.deck.cards
    assert p("deck: standard\n").deck.size == 52


def test_deck_invalid():
    assert "only the standard 52-card pack" in bad("deck: standard 32\n").message
    assert bad("deck: standard 52 without 2c 2♣\n").message == "2♣ is taken out twice"
    assert "a card such as" in str(bad("deck: standard 52 without 1x\n"))


def test_players_beyond_the_deck():
    e = bad(
        "deck: standard 52 without " + " ".join(f"{r}♠" for r in "23456789TJQKA") + "\n",
        base=BASE.replace("3 to 7", "3 to 40").replace("hand size: 7", "hand size: 1"),
    )
    assert e.message == "40 players cannot each get a card from a pack of 39"


def test_direction():
    assert p("").direction is Direction.CLOCKWISE
    assert p("direction: anticlockwise\n").direction is Direction.ANTICLOCKWISE
    assert p("direction: counter-clockwise\n").direction is Direction.ANTICLOCKWISE
    assert "expected one of: `anticlockwise` or `clockwise`" in str(bad("direction: left\n"))


# ---------------------------------------------------------------- dealer


def test_first_dealer():
    assert p("").dealer.first is FirstDealer.RANDOM
    assert p("first dealer: cut for highest card\n").dealer.first is FirstDealer.CUT
    assert p("first dealer: cut for the highest card\n").dealer.first is FirstDealer.CUT
    d = p("first dealer: seat 2\n").dealer
    assert (d.first, d.seat) == (FirstDealer.SEAT, 1)


def test_first_dealer_invalid():
    assert bad("first dealer: seat 0\n").message == "0 is too small for a seat"
    e = bad("first dealer: seat 5\n")
    assert e.message == "seat 5 does not exist with 3 players"


def test_deal_passes():
    # Who deals the next game matters only in a match.
    shed = SHED + "match word: kazhutha\n"
    assert parse(shed).match.loser_deals is False
    assert parse(shed + "deal passes: to the loser\n").match.loser_deals is True
    assert parse(shed + "deal passes: to the next player\n").match.loser_deals is False


# ---------------------------------------------------------------- schedule


def test_hand_size_table():
    v = p(
        "",
        base=BASE.replace(
            "hand size: 7", "hand size: 10 for 3 to 5 players, 8 for 6 players, 7 for 7 players"
        ),
    )
    assert [v.schedule.start.start_for(n) for n in range(3, 8)] == [10, 10, 10, 8, 7]
    assert v.schedule.start.largest is False
    assert len(v.hand_sizes(4)) == 19


def test_hand_size_largest_keep_one_cap():
    v = p(
        "trumps: turned up\n",
        base=BASE.replace("hand size: 7", "hand size: largest, keep one for trumps, at most 8"),
    )
    r = v.schedule.start
    assert (r.largest, r.keep_one, r.cap) == (True, True, 8)
    assert r.start_for(4) == 8 and r.start_for(7) == 7
    assert r.start_for(5, 52) == 8


def test_hand_size_or_more_and_fallback():
    base = BASE.replace("3 to 7", "3 to 6")
    v = p(
        "",
        base=base.replace("hand size: 7", "hand size: 10 for 3 players, 8 for 4 or more players"),
    )
    assert v.schedule.start.table[1] == SizeEntry(4, 52, 8)


def test_hand_size_invalid():
    base = BASE.replace("hand size: 7\n", "")
    assert bad("hand size: 10 for 3 to 5 players, 8 for 5 to 6 players\n", base).message == (
        "two hand sizes are given for 5 players"
    )
    assert bad("hand size: keep one for trumps\n", base).message == (
        "`keep one for trumps` only applies to `largest`"
    )
    assert bad("hand size: 0\n", base).message == "0 is too small for a hand"
    e = bad("hand size: 10 for 3 to 5 players\n", base)
    assert e.message == "the hand size table says nothing for 6 players"
    e = bad("hand size: 10\n", base)
    assert e.message == "10 cards each for 6 players needs 60 cards; the pack has 52"
    assert e.line == 4


@pytest.mark.parametrize(
    ("text", "pattern", "sizes4"),
    [
        ("down to 1", Pattern.DOWN, (7, 6, 5, 4, 3, 2, 1)),
        ("down to 1 and back up", Pattern.DOWN_UP, (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)),
        ("up from 1", Pattern.UP, (1, 2, 3, 4, 5, 6, 7)),
        ("up from 1 and back down", Pattern.UP_DOWN, (1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1)),
        ("3 hands of the same size", Pattern.SAME, (7, 7, 7)),
        ("list 3, 2, 1", Pattern.LIST, (3, 2, 1)),
        ("list 3 2 1", Pattern.LIST, (3, 2, 1)),
        ("down to 1, twice", Pattern.DOWN, (7, 6, 5, 4, 3, 2, 1) * 2),
        ("list 2, 1, 3 times", Pattern.LIST, (2, 1) * 3),
    ],
)
def test_hands(text, pattern, sizes4):
    # `hand size:` changes nothing when `hands: list ...` gives every size.
    base = BASE.replace("hand size: 7\n", "") if pattern is Pattern.LIST else BASE
    v = p(f"hands: {text}\n", base)
    assert v.schedule.pattern is pattern
    assert v.hand_sizes(4) == sizes4


def test_contract_whist_schedule():
    v = parse(BASE.replace("hand size: 7", "hand size: 7\nhands: down to 1 and back up"))
    assert all(len(v.hand_sizes(n)) == 13 for n in range(3, 8))


def test_whole_pack():
    v = parse(SHED)
    assert v.schedule.pattern is Pattern.WHOLE_PACK
    assert v.hand_sizes(5) == (11,)


def test_hands_invalid():
    assert "expected the number 1" in str(bad("hands: down to 2\n"))
    e = bad("hands: 999 hands of the same size, 5 times\n")
    assert e.message == "a game of 3 players would have 4,995 hands"
    assert bad("hands: 2000 hands of the same size\n").message == "2000 is too large for a game"
    e = bad("hands: list 8, 9\n")
    assert e.message == "9 cards each for 6 players needs 54 cards; the pack has 52"
    assert e.line == 5


# ---------------------------------------------------------------- trumps


def test_trumps():
    assert p("").trumps.kind is TrumpKind.TURN_UP
    assert p("trumps: none\n").trumps.kind is TrumpKind.NONE
    assert p("trumps: no trumps\n").trumps.kind is TrumpKind.NONE
    t = p("trumps: hearts\n").trumps
    assert (t.kind, t.suit) == (TrumpKind.FIXED, Suit.HEARTS)
    t = p("trumps: turned up\n").trumps
    assert (t.kind, t.none_when_pack_empty) == (TrumpKind.TURN_UP, False)
    t = p("trumps: turned up, no trumps when the pack runs out\n").trumps
    assert t.none_when_pack_empty is True


def test_trump_cycle_with_hindi_names_and_no_trump():
    t = p("trumps: cycle kali, chukat, fuli, laal, no trumps\n").trumps
    assert t.kind is TrumpKind.CYCLE
    assert t.cycle == (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, None)
    assert [t.fixed_trump(n) for n in (1, 5, 6)] == [Suit.SPADES, None, Suit.SPADES]


def test_no_trumps_every_nth_hand():
    t = p("trumps: cycle spades, hearts\nno trumps: every 5th hand\n").trumps
    assert t.no_trump_every == 5
    assert t.fixed_trump(5) is None and t.fixed_trump(6) is Suit.HEARTS
    assert p("no trumps: never\n").trumps.no_trump_every is None
    assert bad("no trumps: every 1st hand\n").message == "1 is too small for a hand number"


def test_trump_cycle_unknown_suit():
    e = bad("trumps: cycle spades, hartz\n")
    assert e.expected == (
        "one of: `no trumps`, `then named by the winner of most tricks` or a suit: "
        "spades, hearts, diamonds or clubs"
    )
    assert e.hint == "did you mean 'hearts'?"


def test_turned_up_needs_a_spare_card():
    base = BASE.replace("3 to 7", "4").replace("hand size: 7", "hand size: 13")
    e = bad("trumps: turned up\n", base)
    assert "no card is left to turn up for trumps" in e.message
    assert e.line == 3  # the hand size line
    v = parse(base + "trumps: turned up, no trumps when the pack runs out\n")
    assert v.hand_sizes(4)[0] == 13


def test_whole_pack_with_turned_up_trumps():
    e = bad(
        "trumps: turned up\n",
        SHED.replace("trumps: none\n", "")
        .replace("mode: shedding\n", "")
        .replace("bidding: none\n", "score: tricks\nbidding: none\n"),
    )
    assert e.message == "the whole pack is dealt, so no card is left to turn up for trumps"


# ---------------------------------------------------------------- bidding


def test_bidding_styles():
    assert p("").bidding.style is BidStyle.IN_TURN
    assert p("bidding: all at once\nhook: no\n").bidding.style is BidStyle.SIMULTANEOUS
    assert p("bidding: fists\nhook: off\n").bidding.style is BidStyle.SIMULTANEOUS
    v = p("bidding: none\n", base=BASE.replace("if exact then 10 + bid else 0", "tricks"))
    assert v.bidding.style is BidStyle.NONE and not v.has_bidding


def test_hook():
    assert p("").bidding.hook is True
    assert p("hook: no\n").bidding.hook is False
    assert p("hook: on\n").bidding.hook is True


def test_hook_with_simultaneous_bidding():
    e = bad("bidding: all at once\nhook: yes\n")
    assert e.message == "the hook needs a dealer who bids last, but everyone bids at once"
    assert e.line == 6
    e = bad("bidding: all at once\n")
    assert e.line == 5 and e.hint == "add `hook: no`, or bid in turn"


def test_blind_forehead_amend_bids():
    b = p(
        "blind bids: yes\nforehead hands: 1, 2\nbid changes: until the next bid\nbids: 1 to 8\n"
    ).bidding
    assert (b.blind, b.forehead_sizes, b.amend, b.min_bid, b.max_bid) == (True, (1, 2), True, 1, 8)
    b = p("bids: 0 to the hand size\nforehead hands: none\nbid changes: no\n").bidding
    assert (b.max_bid, b.forehead_sizes, b.amend) == (None, (), False)


def test_bidding_settings_without_bidding():
    base = BASE.replace("if exact then 10 + bid else 0", "tricks") + "bidding: none\n"
    assert (
        bad("blind bids: yes\n", base).message
        == "`blind bids` needs bidding, but this game has no bidding"
    )
    assert bad("forehead hands: 1\n", base).message.startswith("`forehead hands` needs bidding")
    assert bad("hook: yes\n", base).message.startswith("`hook` needs bidding")
    assert parse(base + "hook: no\n").bidding.hook is False


def test_bids_invalid():
    assert bad("bids: 3 to 2\n").message == "2 is less than 3"
    e = bad("bids: 2 to 8\n")
    assert e.message == "bids start at 2, but some hands have only 1 card"


def test_score_uses_bid_without_bidding():
    e = bad("bidding: none\n")
    assert e.message == "the score uses bid, exact, but this game has no bidding"
    assert (e.line, e.column) == (4, 1)


def test_missing_score_in_trick_game():
    e = bad("", base="game: x\nplayers: 3 to 5\n")
    assert e.message == "a trick-taking game needs a `score:` line"
    assert e.line == 1


# ---------------------------------------------------------------- play


def test_first_lead():
    pl = p("").play
    assert (pl.first_leader, pl.lead_card, pl.first_lead) == (
        FirstLeader.DEALER_NEXT,
        None,
        FirstLead.ANY,
    )
    pl = p("first lead: holder of A♠ leads it\n").play
    assert (pl.first_leader, pl.lead_card, pl.first_lead) == (
        FirstLeader.HOLDER,
        card("AS"),
        FirstLead.CARD,
    )
    pl = p("first lead: holder of as leads any spade\n").play
    assert pl.first_lead is FirstLead.SUIT
    pl = p("first lead: holder of 10h leads any card\n").play
    assert (pl.lead_card, pl.first_lead) == (card("10♥"), FirstLead.ANY)
    assert p("first lead: holder of A♠\n").play.first_lead is FirstLead.CARD


def test_first_lead_invalid():
    e = bad("first lead: holder of A♠ leads any heart\n")
    assert e.message == "A♠ is not one of the hearts"
    assert e.column == 36
    e = bad("deck: standard 52 without A♠\nfirst lead: holder of A♠ leads it\n")
    assert e.message == "A♠ leads first, but it is taken out of the pack"
    assert e.line == 6


def test_follow():
    pl = p("").play
    assert (pl.must_follow, pl.must_trump, pl.must_beat) == (True, False, False)
    pl = p("follow: must follow suit, must trump when void, must beat when able\n").play
    assert (pl.must_follow, pl.must_trump, pl.must_beat) == (True, True, True)
    assert p("follow: any card\n").play.must_follow is False
    assert (
        bad("follow: must follow suit, must trump, must trump\n").message
        == "`must trump` is given twice"
    )


def test_leading_trumps():
    assert p("").play.trump_lead is TrumpLead.ANY_TIME
    assert p("leading trumps: once broken\n").play.trump_lead is TrumpLead.BROKEN


# ---------------------------------------------------------------- shedding


def test_shedding_settings():
    v = parse(
        SHED + "dead tricks: face down\nall out together: last leader loses\nmatch word: kazhutha\n"
        "first lead: holder of A♠ leads it\n"
    )
    assert v.shedding.dead_tricks is DeadTricks.FACE_DOWN
    assert v.shedding.all_out is EndWhenAllOut.LAST_LEADER
    assert v.match.word == "KAZHUTHA"
    assert parse(SHED + "match word: none\n").match.word == ""


def test_shedding_settings_in_a_trick_game():
    assert (
        bad("dead tricks: face up\n").message
        == "`dead tricks` is for shedding games; add `mode: shedding`"
    )


def test_shedding_rejects_bidding_and_score():
    with pytest.raises(VariantError, match="shedding games are not scored"):
        parse(SHED + "score: tricks\n")
    with pytest.raises(VariantError, match="shedding games have no bidding"):
        parse(SHED.replace("bidding: none", "bidding: in turn"))


# ---------------------------------------------------------------- scoring and winning


@pytest.mark.parametrize(
    "formula",
    [
        "if exact then 10 + bid else 0",
        "if exact then (if bid = 0 then 10 else bid * 10) else 0",
        "if exact then 10 + bid else -bid",
        "if exact then 10 + bid else -diff",
        "if exact and bid = cards then 10 + bid + 10 else (if exact then 10 + bid else 0)",
        "tricks + (if exact then 10 else 0)",
        "tricks + (if exact then (if bid = 0 then 5 + cards else 10) else 0)",
        "if exact then 10 * tricks + (if bid = 0 then 10 else 0) else -10 * diff",
        "if exact then 10 else -10",
        "if exact then 10 + bid else -diff",
        "(if exact then 10 + bid else 0) * (if blind then 2 else 1)",
    ],
)
def test_every_seed_formula(formula):
    v = p("blind bids: yes\n", base=BASE.replace("if exact then 10 + bid else 0", formula))
    assert v.scoring.formula is not None
    assert v.scoring.formula.text


def test_score_error_points_into_the_file():
    e = bad("", base=BASE.replace("10 + bid", "10 + bdi"))
    assert (e.path, e.line, e.column) == ("t.cardrules", 4, 27)
    assert e.hint == "did you mean 'bid'?"


def test_winner_and_tie():
    v = p("winner: lowest total\ntie: shared\n")
    assert v.scoring.higher_wins is False and v.winning.tie is TieBreak.SHARED
    w = p("tie: extra hands, at most 5\n").winning
    assert (w.tie, w.max_extra_hands) == (TieBreak.EXTRA_HANDS, 5)


# ---------------------------------------------------------------- options


def test_options_line():
    v = p("options: hook, hand size, hand_size_x\n".replace(", hand_size_x", ", trumps"))
    assert v.options == ("hook", "hand size", "trumps")


def test_options_invalid():
    e = bad("options: hok\n")
    assert e.message == "'hok' is not a setting"
    assert e.hint == "did you mean 'hook'?"
    assert bad("options: title\n").message == "'title' cannot be an option: it names the game"
    assert bad("options: hook, hook\n").message == "'hook' is listed twice"


def test_extends_is_recorded_by_parse():
    v = parse("game: x\nextends: oh-hell\nhook: no\n")
    assert v.parent == "oh-hell"
    assert load_text("game: x\nextends: oh-hell\nhook: no\n").players.max == 7


def test_grammar_is_lalr_strict_with_named_terminals():
    pytest.importorskip("interegular", reason="strict mode needs interegular")
    from lark import Lark

    from cardrules.dsl.parser import GRAMMAR_PATH, lark_parser

    text = GRAMMAR_PATH.read_text(encoding="utf-8")
    parser = Lark(text, parser="lalr", lexer="contextual", strict=True)
    assert parser.options.strict is True
    assert lark_parser().options.parser == "lalr"
    assert lark_parser().options.lexer == "contextual"
    # Named terminals only: no anonymous "..." literals inside rules.
    rules = text.split("// ---- terminals")[0]
    body = "\n".join(line.split("//")[0] for line in rules.splitlines())
    assert '"' not in body
    assert all(not t.name.startswith("__ANON") for t in parser.terminals)
