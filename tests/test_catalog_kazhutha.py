"""The Kazhutha family of the built-in catalog: ``kazhutha`` and its house rules, from
seed ``001_e4032eef84513c77.txt`` (Kazhutha rules).

These tests check the files only: that each reads, writes back to itself, and
changes exactly the rule it states. The engine does not play ``mode: shedding``
yet; the random-play and stacked-deck tests of this family (the A♠ opening, a dead
trick, the cut and pick-up example, the letters, the house rules in play) are to be
added when it does.
"""

from __future__ import annotations

import pytest
from catalog_support import check_file

import cardrules
from cardrules.cards import Suit, card
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
    PlayerRange,
    TrumpKind,
)

#: file -> the rule fields in which it differs from kazhutha.
FAMILY: dict[str, set[str]] = {
    "donkey": {"match.word"},
    "kazhutha-any-spade": {"play.first_lead"},
    "kazhutha-neighbour-leads": {"play.first_leader", "play.lead_card", "play.first_lead"},
    "kazhutha-face-down": {"shedding.dead_tricks"},
    "kazhutha-loser-deals": {"match.loser_deals"},
}


def test_kazhutha_is_the_seed_game_001() -> None:
    """001_e4032eef84513c77.txt: 3 to 8 players, one 52-card pack dealt out whole, no
    trumps, play to the right, the A♠ holder leads it, follow suit, the letters of
    K-A-Z-H-U-T-H-A; dead tricks thrown away face up (face down is a house rule)."""
    v = cardrules.load("kazhutha")
    assert v.parent is None and v.mode is Mode.SHEDDING
    assert v.players == PlayerRange(3, 8) and v.deck.size == 52
    assert v.schedule.pattern is Pattern.WHOLE_PACK
    assert v.trumps.kind is TrumpKind.NONE and v.bidding.style is BidStyle.NONE
    assert v.direction is Direction.ANTICLOCKWISE
    assert v.play.first_leader is FirstLeader.HOLDER and v.play.lead_card == card("A♠")
    assert v.play.first_lead is FirstLead.CARD and v.play.must_follow
    assert not v.play.must_trump and not v.play.must_beat
    assert v.shedding.dead_tricks is DeadTricks.FACE_UP
    assert v.shedding.all_out is EndWhenAllOut.NO_LOSER
    assert v.match.word == "KAZHUTHA" and len(v.match.word) == 8
    assert not v.match.loser_deals and v.dealer.first is FirstDealer.RANDOM
    assert v.scoring.formula is None
    assert cardrules.parse(cardrules.format(v), validate=False) == v


@pytest.mark.parametrize(("players", "most"), [(3, 18), (4, 13), (5, 11), (7, 8), (8, 7)])
def test_whole_pack_some_get_one_more_001(players: int, most: int) -> None:
    """001_e4032eef84513c77.txt: the whole pack is dealt one at a time; some players
    get one card more than others."""
    assert cardrules.load("kazhutha").hand_sizes(players) == (most,)


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_file(name: str) -> None:
    """Parses, formats back to itself, loads, and changes exactly its stated rule."""
    check_file(name, FAMILY[name])
    assert cardrules.load(name).parent == "kazhutha"


def test_house_rules_001() -> None:
    """001_e4032eef84513c77.txt, house rules: any spade first, the dealer's neighbour
    leading, dead tricks face down, the loser dealing; D-O-N-K-E-Y in English homes."""
    assert cardrules.load("donkey").match.word == "DONKEY"
    spade = cardrules.load("kazhutha-any-spade").play
    assert spade.first_lead is FirstLead.SUIT and spade.lead_card is not None
    assert spade.lead_card.suit is Suit.SPADES and spade.first_leader is FirstLeader.HOLDER
    neighbour = cardrules.load("kazhutha-neighbour-leads").play
    assert neighbour.first_leader is FirstLeader.DEALER_NEXT
    assert neighbour.lead_card is None and neighbour.first_lead is FirstLead.ANY
    face_down = cardrules.load("kazhutha-face-down").shedding
    assert face_down.dead_tricks is DeadTricks.FACE_DOWN
    assert cardrules.load("kazhutha-loser-deals").match.loser_deals
