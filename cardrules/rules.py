"""The configuration model: one frozen, slotted attrs class per rule dimension.

The DSL parser (:mod:`cardrules.dsl`) produces a :class:`Variant`; the engine
reads nothing else. Every class is immutable and hashable. Source positions
are kept for error messages but do not take part in equality.

The derived facts that both the engine and the rules pages need (the hand
sizes of a game, the trumps of a hand) are methods here, so that there is one
source of truth for them.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

import attrs
from attrs import field, frozen

from cardrules.card_rules import (
    ANY_CARD,
    FOLLOW_SUIT,
    BreakTrigger,
    CardChoice,
    follow_choice,
    lead_choice,
)
from cardrules.cards import Card, CardSet, Suit, copies_mask
from cardrules.scoring import Formula

if TYPE_CHECKING:
    from cardrules.dsl.example_syntax import Example

__all__ = [
    "MAX_TIE_HANDS",
    "BidStyle",
    "BiddingRule",
    "Counter",
    "DeadTricks",
    "DealerRule",
    "DeckRule",
    "Direction",
    "EndWhenAllOut",
    "FirstDealer",
    "FirstLead",
    "FirstLeader",
    "HandSizeRule",
    "LeaderOut",
    "LoserTie",
    "MatchRule",
    "Mode",
    "NamerTie",
    "PassRule",
    "PassTo",
    "Pattern",
    "PlayRule",
    "PlayerRange",
    "ScheduleRule",
    "ScoringRule",
    "ShedLoser",
    "SheddingRule",
    "SizeEntry",
    "SourcePos",
    "TakeBacks",
    "TakeHand",
    "TieBreak",
    "TrumpCard",
    "TrumpCardKind",
    "TrumpKind",
    "TrumpLead",
    "TrumpNamer",
    "TrumpRule",
    "Variant",
    "WinRule",
    "jokers_without_trumps",
]

#: Hard limit on the number of hands one game's schedule may hold.
MAX_SCHEDULE_HANDS = 1000
#: A safety bound on tie-break hands when the file sets none (``tie: extra hands``):
#: far above anything that happens in play. A game still tied after this many
#: extra hands ends unfinished (``Result.finished`` is False), never silently shared.
MAX_TIE_HANDS = 200


class Mode(Enum):
    """What the game is about."""

    TRICKS = "tricks"
    """Bid and take tricks (the Oh Hell family)."""
    SHEDDING = "shedding"
    """Get rid of your cards; the last player holding cards loses (Kazhutha)."""


class Direction(Enum):
    """Direction of play, dealing and bidding."""

    CLOCKWISE = "clockwise"
    """To the left: seat 0, 1, 2, ..."""
    ANTICLOCKWISE = "anticlockwise"
    """To the right: seat 0, n-1, n-2, ..."""


class FirstDealer(Enum):
    """How the first dealer of a game is chosen."""

    RANDOM = "random"
    CUT = "cut"
    """Everyone cuts; the highest card deals (ties cut again)."""
    SEAT = "seat"
    """A given seat (``DealerRule.seat``)."""


class Pattern(Enum):
    """How hand sizes run through a game, from the starting size ``s``."""

    DOWN = "down"
    """s, s-1, ..., 1."""
    DOWN_UP = "down and up"
    """s, ..., 1, ..., s (the one-card hand once)."""
    UP = "up"
    """1, 2, ..., s."""
    UP_DOWN = "up and down"
    """1, ..., s, ..., 1 (the largest hand once)."""
    SAME = "same"
    """s, ``count`` times."""
    LIST = "list"
    """An explicit list of sizes (``ScheduleRule.sizes``)."""
    WHOLE_PACK = "whole pack"
    """One hand: the whole pack dealt out, some players getting one more."""


class TrumpKind(Enum):
    """How the trump suit of a hand is chosen."""

    NONE = "none"
    TURN_UP = "turn up"
    """The next card after the deal is turned face up; its suit is trumps."""
    FIXED = "fixed"
    CYCLE = "cycle"
    """A fixed cycle of suits by hand number (``None`` in it: a no-trump hand)."""
    DEALERS_CARD = "dealer's last card"
    """The last card dealt, the dealer's own, is turned face up; its suit is
    trumps and it stays in the dealer's hand (known to everyone until played)."""


class TrumpNamer(Enum):
    """Who, if anyone, chooses a hand's trumps (:attr:`TrumpRule.namer`)."""

    NOBODY = "nobody"
    """The trumps come from :attr:`TrumpRule.kind` alone."""
    HIGHEST_BIDDER = "highest bidder"
    """After the bidding, the highest bidder names trumps (ties:
    :attr:`TrumpRule.namer_tie`)."""
    MOST_TRICKS = "most tricks"
    """From the second hand on, the player who took the most tricks in the
    previous hand names trumps after the deal (ties: :attr:`TrumpRule.namer_tie`);
    the first hand's trumps come from :attr:`TrumpRule.kind`."""
    ORDER_UP = "order up"
    """The card turned up (``kind`` must be ``TURN_UP``) is ordered up or refused by
    each player in turn from the dealer's neighbour; ordered up, its suit is trumps
    and the dealer takes it and discards a card face down. If all refuse, a second
    round lets each in turn name another suit or pass; if all pass again, the hand
    is thrown in (unless :attr:`TrumpRule.stick_dealer`)."""


class NamerTie(Enum):
    """Who names trumps when several players tie for the right."""

    FIRST_IN_TURN = "first in turn"
    """The first of them in turn from the dealer's neighbour (the bidding order)."""
    CUT = "cut"
    """They cut: one of them at random (drawn from the hand's deal, so a replay cuts alike)."""


class TrumpCardKind(Enum):
    """How an entry of a trump order (``trump order:``) names its card."""

    OF_TRUMPS = "of trumps"
    """The card of the entry's rank in the trump suit (``J of trumps``)."""
    SAME_COLOUR = "of the same colour"
    """The card of the entry's rank in the other suit of the trump suit's colour
    (``J of the same colour``: with hearts trumps, the jack of diamonds)."""
    CARD = "card"
    """A named card, whatever the trump suit (``2♦``)."""


@frozen
class TrumpCard:
    """One entry of a trump order: a card named by its rank relative to the trump
    suit, or a named card."""

    kind: TrumpCardKind
    rank: int = 0
    """For ``OF_TRUMPS`` and ``SAME_COLOUR``: the rank, 2-14."""
    card: Card | None = None
    """For ``CARD``."""

    def resolve(self, trump: Suit) -> Card:
        """The card this entry names when ``trump`` is the trump suit."""
        if self.kind is TrumpCardKind.CARD:
            assert self.card is not None
            return self.card
        suit = trump if self.kind is TrumpCardKind.OF_TRUMPS else same_colour(trump)
        return Card.of(self.rank, suit)

    def __str__(self) -> str:
        if self.kind is TrumpCardKind.CARD:
            return str(self.card)
        return f"{_RANK_LABEL[self.rank]} {self.kind.value}"


_RANK_LABEL: dict[int, str] = {r: (str(r) if r <= 10 else "JQKA"[r - 11]) for r in range(2, 15)}


def same_colour(suit: Suit) -> Suit:
    """The other suit of ``suit``'s colour (clubs and spades are black, diamonds
    and hearts red)."""
    return Suit(3 - int(suit))


class BidStyle(Enum):
    """How bids are made."""

    NONE = "none"
    IN_TURN = "in turn"
    """One at a time from the dealer's neighbour, dealer last."""
    SIMULTANEOUS = "simultaneous"
    """Everyone at once ("fists"): no bid is seen before all are in."""


class FirstLeader(Enum):
    """Who leads to the first trick of a hand."""

    DEALER_NEXT = "dealer's neighbour"
    HOLDER = "holder"
    """The holder of ``PlayRule.lead_card``."""


class FirstLead(Enum):
    """What the first leader of a hand must lead."""

    ANY = "any"
    CARD = "card"
    """Exactly ``PlayRule.lead_card``."""
    SUIT = "suit"
    """Any card of the suit of ``PlayRule.lead_card``."""


class TrumpLead(Enum):
    """When trumps may be led."""

    ANY_TIME = "any time"
    BROKEN = "once broken"
    """Only after a trump has been played to a trick, or when holding only trumps."""


class DeadTricks(Enum):
    """Shedding games: how a dead trick (everyone followed) leaves the game."""

    FACE_UP = "face up"
    """Everyone may see (and count) the cards."""
    FACE_DOWN = "face down"
    """Only the cards' players know what they were."""


class EndWhenAllOut(Enum):
    """Shedding games: what happens when the last players all go out in one dead trick."""

    NO_LOSER = "no loser"
    LAST_LEADER = "last leader loses"
    """The player who led that last trick is the loser."""


class ShedLoser(Enum):
    """Shedding games: who loses, and so when the game ends."""

    LAST_HOLDING = "last holding cards"
    """Play on until one player is left holding cards: that player loses."""
    MOST_CARDS = "most cards when the first goes out"
    """The game ends as soon as a player goes out; whoever then holds the most
    cards loses (``SheddingRule.loser_tie`` settles a tie)."""


class LoserTie(Enum):
    """Shedding games that end when the first player goes out: a tie for most cards."""

    NO_LOSER = "no loser"
    FIRST_IN_TURN = "first in turn"
    """Of the tied players, the first in the direction of play after the player
    who led the last trick loses."""


class TakeBacks(Enum):
    """When a player may take back an action (``take backs:``): the window of
    :meth:`Game.can_undo <cardrules.engine.game.Game.can_undo>`.

    Under every value, nothing that revealed hidden cards (or hidden bids) to
    anyone may be taken back: see :mod:`cardrules.engine.state.undo`.
    """

    NEVER = "never"
    """No take-backs (the default)."""
    NEXT_ACTION = "until the next player acts"
    """A player may take back its last action until anyone acts again."""
    TRICK = "until the trick is complete"
    """A player may take back its last action (and the actions made after it)
    until a trick is completed."""
    HAND = "before the hand ends"
    """A player may take back its last action (and the actions made after it)
    until the hand's last card is played."""


class TieBreak(Enum):
    """What happens when several players share the best total."""

    EXTRA_HANDS = "extra hands"
    """Play more hands of the largest size until one player leads alone
    (``WinRule.max_extra_hands`` says when to stop trying)."""
    SHARED = "shared"


@frozen
class SourcePos:
    """Where a statement stands in a variant file (1-based)."""

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@frozen
class PlayerRange:
    """How many players the game allows."""

    min: int = 3
    max: int = 7

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and self.min <= n <= self.max

    def counts(self) -> range:
        """Every allowed number of players."""
        return range(self.min, self.max + 1)


def _ranks_from(lowest: int) -> int:
    """The mask of the cards of every suit ranked ``lowest`` (2-14) to the ace."""
    mask = 0
    for suit in range(4):
        for rank in range(lowest, 15):
            mask |= 1 << (13 * suit + rank - 2)
    return mask


@frozen
class DeckRule:
    """The pack: the cards of each suit from rank ``lowest`` up to the ace (a
    short pack such as ``9 to ace``: 24 cards), less ``removed`` (a card mask,
    the ``without`` list)."""

    removed: int = 0
    lowest: int = 2
    """The lowest rank of each suit (2: the standard 52; 9: the 24-card pack
    9 to ace; 7: the 32-card pack 7 to ace)."""
    jokers: int = 0
    """How many jokers the pack adds (0-2, ``with 2 jokers``): two are the
    little joker (card 52, ``LJ``) and the big joker (53, ``BJ``); one is the
    big joker. They have no suit or rank: the trump order must rank them."""

    removed_for: tuple[tuple[int, int, int], ...] = ()
    """Cards taken out for some numbers of players only (``without 2♦ for 3
    players, 2♦ 2♣ for 5 players``): ``(fewest, most, card mask)`` entries, by
    number of players; a count no entry names keeps the whole pack."""

    packs: int = 1
    """How many standard packs are shuffled together (1-4, ``deck: 2 standard
    packs``): copy k of card c is card ``c + 64 * k`` (see :mod:`cardrules.cards`);
    ``removed`` takes out every copy of its cards."""

    identical: str = ""
    """Of two identical cards (several packs) played to one trick, which ranks
    higher: ``"first"`` played or ``"last"`` played (``identical cards:``);
    ``""``: not said (one pack)."""

    @property
    def joker_mask(self) -> int:
        """The mask of the pack's jokers (before ``removed``)."""
        return (0, 1 << 53, 3 << 52)[self.jokers] if 0 <= self.jokers <= 2 else 0

    @property
    def cards(self) -> CardSet:
        """The cards in play (with ``removed_for``: the cards of a count of players
        that no entry names; see :meth:`cards_for`)."""
        mask = (_ranks_from(self.lowest) | self.joker_mask) & ~self.removed
        if self.packs > 1:
            return CardSet(copies_mask(mask, self.packs))
        return CardSet(mask)

    @property
    def size(self) -> int:
        """The number of cards in the pack."""
        return len(self.cards)

    def removed_for_players(self, players: int) -> int:
        """The mask of the cards taken out for ``players`` players only.

        Example:
            >>> from cardrules.cards import card
            >>> d = DeckRule(removed_for=((3, 3, 1 << int(card("2♦"))),))
            >>> len(d.cards_for(3)), len(d.cards_for(4))
            (51, 52)
        """
        for lo, hi, mask in self.removed_for:
            if lo <= players <= hi:
                return mask
        return 0

    def cards_for(self, players: int) -> CardSet:
        """The cards in play in a game of ``players`` players."""
        out = self.removed_for_players(players)
        if self.packs > 1:
            out = copies_mask(out, self.packs)
        return CardSet(self.cards.mask & ~out)

    def size_for(self, players: int) -> int:
        """The number of cards in the pack for ``players`` players."""
        return len(self.cards_for(players))


@frozen
class DealerRule:
    """Who deals first; the deal then passes on in the direction of play."""

    first: FirstDealer = FirstDealer.RANDOM
    seat: int = 0


@frozen
class SizeEntry:
    """``size`` cards each when ``min_players <= players <= max_players``."""

    min_players: int
    max_players: int
    size: int


@frozen
class HandSizeRule:
    """The starting (largest) hand size, which may depend on the number of players.

    The first matching ``table`` entry wins; otherwise, with ``largest``, the
    most the pack allows (keeping one card back when ``keep_one``), capped at
    ``cap`` when given.
    """

    table: tuple[SizeEntry, ...] = ()
    largest: bool = True
    keep_one: bool = False
    cap: int | None = None

    def start_for(self, players: int, deck_size: int = 52) -> int:
        """The starting hand size for ``players`` players, or 0 if none is defined."""
        for entry in self.table:
            if entry.min_players <= players <= entry.max_players:
                return entry.size
        if not self.largest:
            return 0
        size = (deck_size - (1 if self.keep_one else 0)) // players
        if self.cap is not None:
            size = min(size, self.cap)
        return size


@frozen
class ScheduleRule:
    """The sizes of the hands of one game."""

    start: HandSizeRule = HandSizeRule()
    pattern: Pattern = Pattern.DOWN_UP
    count: int = 1
    """For ``Pattern.SAME``: how many hands."""
    sizes: tuple[int, ...] = ()
    """For ``Pattern.LIST``: the sizes, in order."""
    repeat: int = 1
    """Play the whole pattern this many times."""

    def hand_sizes(self, players: int, deck_size: int = 52) -> tuple[int, ...]:
        """Cards dealt to each player in each hand of a game (not counting tie-breaks).

        For ``Pattern.WHOLE_PACK`` this is one entry, the larger share
        (``ceil(deck_size / players)``).
        """
        s = self.start.start_for(players, deck_size)
        p = self.pattern
        if p is Pattern.WHOLE_PACK:
            one: tuple[int, ...] = (-(-deck_size // players),)
        elif p is Pattern.DOWN:
            one = tuple(range(s, 0, -1))
        elif p is Pattern.DOWN_UP:
            one = tuple(range(s, 0, -1)) + tuple(range(2, s + 1))
        elif p is Pattern.UP:
            one = tuple(range(1, s + 1))
        elif p is Pattern.UP_DOWN:
            one = tuple(range(1, s + 1)) + tuple(range(s - 1, 0, -1))
        elif p is Pattern.SAME:
            one = (s,) * self.count
        else:
            one = self.sizes
        return one * self.repeat

    def largest(self, players: int, deck_size: int = 52) -> int:
        """The largest hand of the game (the size of tie-break hands)."""
        sizes = self.hand_sizes(players, deck_size)
        return max(sizes) if sizes else 0


@frozen
class TrumpRule:
    """How each hand's trump suit is chosen."""

    kind: TrumpKind = TrumpKind.TURN_UP
    suit: Suit | None = None
    """For ``TrumpKind.FIXED``."""
    cycle: tuple[Suit | None, ...] = ()
    """For ``TrumpKind.CYCLE``: by hand number, repeating; ``None`` is a no-trump hand."""
    no_trump_every: int | None = None
    """Every n-th hand is played without trumps, whatever the rule above says."""
    none_when_pack_empty: bool = True
    """Turned-up trumps: when no card is left to turn, play without trumps."""
    order: tuple[TrumpCard, ...] = ()
    """``trump order:``, the highest trumps, highest first: in a hand with
    trumps each is a trump whatever its printed suit (for following, leading,
    the ``trumps`` and ``suit led`` terms and broken suits), and they beat the
    other trumps, which rank below them in their usual order. Empty: the usual
    order (ace high) and every card of its printed suit. A hand without trumps
    ignores it."""

    namer: TrumpNamer = TrumpNamer.NOBODY
    """Who chooses the trumps, if anyone (see :class:`TrumpNamer`)."""
    name_no_trumps: bool = False
    """A player who names trumps may name no trumps instead of a suit."""
    stick_dealer: bool = False
    """Order-up: in the second round the dealer may not pass ("stick the dealer")."""
    going_alone: bool = False
    """Order-up with teams: the player who makes trumps chooses to play alone
    (``Alone()``) or with a partner (``WithPartner()``); alone, the maker's
    partners sit the hand out, their cards face down and unplayed."""
    defend_alone: bool = False
    """With ``going alone``: once the maker has gone alone, each defender in
    turn from the maker's left may defend alone (``Alone()``) or not
    (``WithPartner()``); the first who does plays alone against the maker, its
    partners sitting the hand out too (``defending alone: yes``)."""
    keep_turned: bool = False
    """Order-up: the dealer, having taken the turned card, may not discard it."""
    namer_tie: NamerTie = NamerTie.FIRST_IN_TURN
    """Who names when several players have the same right (most tricks, or the
    same highest bid)."""

    def ranking(self, trump: Suit, pack: CardSet) -> tuple[Card, ...]:
        """The cards of ``pack`` that are the hand's highest trumps by
        :attr:`order` when ``trump`` is the trump suit, highest first (an entry
        naming a card already named, or a card not in the pack, is skipped)."""
        out: list[Card] = []
        for entry in self.order:
            c = entry.resolve(trump)
            if c in pack and c not in out:
                out.append(c)
        return tuple(out)

    def effective_suit(self, c: Card, trump: Suit | None, pack: CardSet) -> Suit:
        """The suit ``c`` belongs to when ``trump`` is the trump suit: the trump
        suit for a card of the trump order, else its printed suit."""
        if trump is not None and self.order and c in self.ranking(trump, pack):
            return trump
        return c.suit

    def trump_cards(self, trump: Suit, pack: CardSet) -> tuple[Card, ...]:
        """Every trump of ``pack`` from the highest: the trump order's cards, then
        the other cards of the trump suit from the ace down."""
        top = self.ranking(trump, pack)
        rest = [c for c in reversed(pack.of_suit(trump)) if c not in top]
        return (*top, *rest)

    def fixed_trump(self, hand_number: int) -> Suit | None:
        """The trump of hand ``hand_number`` (1-based) when it does not depend on the deal.

        Returns ``None`` for a no-trump hand. For ``TURN_UP`` the answer depends on
        the card turned, so this returns ``None`` unless the hand is an every-n-th
        no-trump hand; use :meth:`is_turn_up_hand` to tell the cases apart.
        """
        if self.no_trump_every and hand_number % self.no_trump_every == 0:
            return None
        if self.kind is TrumpKind.FIXED:
            return self.suit
        if self.kind is TrumpKind.CYCLE and self.cycle:
            return self.cycle[(hand_number - 1) % len(self.cycle)]
        return None

    def is_turn_up_hand(self, hand_number: int) -> bool:
        """True when hand ``hand_number``'s trump comes from a turned-up card."""
        if self.no_trump_every and hand_number % self.no_trump_every == 0:
            return False
        return self.kind is TrumpKind.TURN_UP and not self.is_named_hand(hand_number)

    def is_named_hand(self, hand_number: int) -> bool:
        """True when a player names hand ``hand_number``'s trumps after the deal
        (the previous hand's winner of most tricks, from the second hand on)."""
        return self.namer is TrumpNamer.MOST_TRICKS and hand_number > 1


@frozen
class BiddingRule:
    """How players bid (trick-taking games)."""

    style: BidStyle = BidStyle.IN_TURN
    hook: bool = True
    """The dealer (last to bid) may not make the bids add up to the tricks, unless
    the others have already bid past it."""
    min_bid: int = 0
    max_bid: int | None = None
    """``None``: up to the cards dealt."""
    blind: bool = False
    """A player may bid before looking at their cards (``blind`` in formulas)."""
    blind_only: tuple[int, ...] = ()
    """With ``blind``: the only bids that may be made blind (``blind bids: only 0``:
    "blind nil"); empty: any bid."""
    forehead_sizes: tuple[int, ...] = ()
    """Hand sizes played "on the forehead": each sees every card but their own."""
    amend: bool = False
    """A bid may be changed until the next player has bid."""
    one_per_team: bool = False
    """With teams (``team bids: one per side``): each side makes one bid, the
    first of its partners in the bidding order bidding for it; the other
    partners do not bid (their bid is none, 0 in formulas) and the side's
    contract (``team_bid``) is that one bid."""


class PassTo(Enum):
    """Where a player's passed cards go, relative to the direction of play."""

    LEFT = "left"
    """The next player in the direction of play (the one who plays after you:
    your left neighbour when play goes clockwise)."""
    RIGHT = "right"
    """The previous player in the direction of play (the one who plays before you)."""
    ACROSS = "across"
    """The player half-way round the table (even numbers of players only)."""
    NONE = "none"
    """Nobody: this hand has no pass."""


@frozen
class PassRule:
    """Passing cards before the play (``pass: 3 cards left, right, across, none``).

    After the deal, and before any bidding, every player chooses ``count`` cards
    of their hand; when everyone has chosen, the cards go to the player
    ``cycle`` names for this hand: hand ``h`` (from 1) uses
    ``cycle[(h - 1) % len(cycle)]``, and a hand whose entry is ``PassTo.NONE``
    has no pass. ``count == 0`` (the default): nobody passes.
    """

    count: int = 0
    cycle: tuple[PassTo, ...] = ()

    def to(self, hand_number: int) -> PassTo:
        """Where the cards go in hand ``hand_number`` (from 1)."""
        if not self.count or not self.cycle:
            return PassTo.NONE
        return self.cycle[(hand_number - 1) % len(self.cycle)]


class LeaderOut(Enum):
    """Shedding games: who leads when the player who took the lead has just gone out."""

    NEXT_IN = "next player still in"
    """The next player still holding cards, in the direction of play."""
    NEXT_HIGHEST = "next highest card"
    """The player of the next-highest card of the suit led in that trick who is
    still in (the next player still in, if none is)."""
    DRAWS = "draws a dead card"
    """"The power": the player whose last card took a dead trick is not out. They
    draw a card at random from the dead tricks played before that one and lead
    it at once; they go out only when someone beats a card they lead and they
    hold no cards. (With no dead cards to draw, the next player still in leads.)"""


def _standard_follow() -> CardChoice:
    return FOLLOW_SUIT


def _any_card() -> CardChoice:
    return ANY_CARD


def _any_play() -> tuple[BreakTrigger, ...]:
    return (BreakTrigger.ANY_PLAY,)


@frozen
class PlayRule:
    """Leading, following and winning tricks.

    What a player may play is a :class:`~cardrules.card_rules.CardChoice`: the
    first card set of a list of which the player holds a card. ``follow`` is the
    list for a player following to a trick, ``lead`` for the leader, and
    ``first_trick`` narrows both on the first trick of each hand (its first set
    that leaves a card to play). On the first trick the first leader must also
    lead ``lead_card`` (or its suit) as ``first_lead`` says.
    """

    first_leader: FirstLeader = FirstLeader.DEALER_NEXT
    lead_card: Card | None = None
    first_lead: FirstLead = FirstLead.ANY
    lead_card_else: tuple[Card, ...] = ()
    """When ``lead_card`` is not in the pack (taken out for this number of
    players), the first of these that is takes its place (``holder of 2♣
    otherwise 3♣ leads it``)."""
    follow: CardChoice = attrs.field(factory=_standard_follow)
    lead: CardChoice = attrs.field(factory=_any_card)
    first_trick: CardChoice = attrs.field(factory=_any_card)
    broken_by: tuple[BreakTrigger, ...] = attrs.field(factory=_any_play)
    """What breaks a suit, for the ``unbroken`` terms of the lists."""
    also_breaks: tuple[tuple[Card, Suit], ...] = ()
    """Cards that break another suit as well as their own when they break
    (``breaking cards: Q♠ breaks hearts``), sorted by card then suit."""
    leader_out: LeaderOut = LeaderOut.NEXT_IN

    @classmethod
    def from_flags(
        cls,
        *,
        must_follow: bool = True,
        must_trump: bool = False,
        must_beat: bool = False,
        trump_lead: TrumpLead = TrumpLead.ANY_TIME,
        **others: object,
    ) -> PlayRule:
        """A rule from the shorthand flags (``follow: must follow suit, must trump,
        must beat`` and ``leading trumps:``), other fields as keywords.

        Example:
            >>> str(PlayRule.from_flags(must_trump=True).follow)
            'suit led, otherwise trumps, otherwise any card'
        """
        follow = follow_choice(must_follow=must_follow, must_trump=must_trump, must_beat=must_beat)
        lead = lead_choice(trumps_once_broken=trump_lead is TrumpLead.BROKEN)
        return cls(follow=follow, lead=lead, **others)  # type: ignore[arg-type]

    def _shorthand(self) -> tuple[bool, bool, bool] | None:
        for flags in _FOLLOW_FLAGS:
            mf, mt, mb = flags
            if self.follow == follow_choice(must_follow=mf, must_trump=mt, must_beat=mb):
                return flags
        return None

    @property
    def is_shorthand(self) -> bool:
        """True when ``follow`` is one of the ``must follow suit, ...`` shorthands and
        ``lead`` one of the ``leading trumps:`` ones (and nothing else is set)."""
        return (
            self._shorthand() is not None
            and self.lead in (ANY_CARD, lead_choice(trumps_once_broken=True))
            and self.first_trick == ANY_CARD
            and self.broken_by == (BreakTrigger.ANY_PLAY,)
        )

    @property
    def must_follow(self) -> bool:
        """The shorthand's ``must follow suit`` (False when ``follow`` is not a shorthand)."""
        flags = self._shorthand()
        return flags is not None and flags[0]

    @property
    def must_trump(self) -> bool:
        """The shorthand's ``must trump`` (False when ``follow`` is not a shorthand)."""
        flags = self._shorthand()
        return flags is not None and flags[1]

    @property
    def must_beat(self) -> bool:
        """The shorthand's ``must beat`` (False when ``follow`` is not a shorthand)."""
        flags = self._shorthand()
        return flags is not None and flags[2]

    @property
    def trump_lead(self) -> TrumpLead:
        """The ``leading trumps:`` shorthand this ``lead`` list is (``ANY_TIME``
        for a list that is neither)."""
        if self.lead == lead_choice(trumps_once_broken=True):
            return TrumpLead.BROKEN
        return TrumpLead.ANY_TIME


_FOLLOW_FLAGS: tuple[tuple[bool, bool, bool], ...] = (
    (True, False, False),
    (False, False, False),
    (True, True, False),
    (True, False, True),
    (True, True, True),
)


class TakeHand(Enum):
    """Shedding games: whose cards a player about to lead may take instead of
    leading at once (``take a hand from:``)."""

    NONE = "none"
    NEXT = "next player still in"
    """The next player still holding cards, in the direction of play."""
    PREVIOUS = "previous player still in"
    """The player still holding cards who plays just before, in the direction of play."""


@frozen
class SheddingRule:
    """Shedding games (``Mode.SHEDDING``): dead tricks and the end."""

    dead_tricks: DeadTricks = DeadTricks.FACE_UP
    all_out: EndWhenAllOut = EndWhenAllOut.NO_LOSER
    loser: ShedLoser = ShedLoser.LAST_HOLDING
    loser_tie: LoserTie = LoserTie.NO_LOSER
    """With ``ShedLoser.MOST_CARDS``: what happens when several hold the most cards."""
    first_trick_cuts: bool = True
    """False: on the first trick of a game, a player void in the suit led discards
    (the card joins the trick, which goes on) instead of cutting."""
    take_hand: TakeHand = TakeHand.NONE
    """A player about to lead a trick (any but the game's first) may first take
    every card of that player (the ``Take`` action), once per lead; the player
    whose cards are taken is out and safe."""


@frozen
class Counter:
    """A number kept for each team (each player, without teams) across hands
    (``counter bags: <formula>``): Spades' bags.

    Every counter starts a game at 0. After each hand is scored, each team's
    counter becomes the value of ``formula`` for that team, worked out as the
    ``team score:`` formula is (the team counts as one player) and reading every
    counter as it stood before the hand; the new value is rounded down to a
    whole number and kept within ``-COUNTER_BOUND`` to ``COUNTER_BOUND``
    (:data:`cardrules.scoring.COUNTER_BOUND`). The score formulas of a hand
    read the counters as they stood before the hand.
    """

    name: str
    formula: Formula


@frozen
class ScoringRule:
    """Points for one player for one hand (trick-taking games).

    A seat's points for a hand are its ``formula``'s value plus, when there is
    one, its team's ``team_formula`` value, with the ``formula`` values of its
    partners added: every partner scores the same, so partners' running totals
    are always equal (the team's total). Without teams every seat is a team of
    one. ``formula`` sees the seat's own bid and tricks (``bid``, ``tricks``...)
    and its team's (``team_bid``, ``team_tricks``, ``partner_bid``...);
    ``team_formula`` is worked out once per team, the team counting as one
    player (``bid`` is the team's bids added up, ``tricks`` its tricks,
    ``points`` its card points, ``blind`` whether any partner bid blind).
    """

    formula: Formula | None = None
    higher_wins: bool = True
    card_points: tuple[int, ...] = ()
    """The points of each card, indexed by ``int(card)`` (52 values), or ``()``
    when the cards carry no points (``card points:``). A formula reads the
    points a player took in the hand as ``points``."""
    team_formula: Formula | None = None
    """``team score:``: the points a team scores for a hand, once per team
    (see above); ``None``: none."""
    counters: tuple[Counter, ...] = ()
    """``counter NAME: formula`` lines, in file order (see :class:`Counter`)."""


@frozen
class WinRule:
    """Who wins a game of several hands."""

    tie: TieBreak = TieBreak.EXTRA_HANDS
    max_extra_hands: int | None = None
    """With ``EXTRA_HANDS``: ``None`` plays extra hands until one player leads
    alone (up to the safety bound :data:`MAX_TIE_HANDS`, after which the game
    ends unfinished); a number ``n`` (``tie: extra hands, at most n``) shares the
    win among the leaders after ``n`` extra hands, as the file says."""

    target: int | None = None
    """``target: N points``: after each hand, a game in which some running total
    has reached ``N`` or more ends (the schedule is then the most hands it can
    have); ``None``: the game ends after its schedule."""

    knockout_below: int = 0
    """``knocked out: no tricks`` (1) or ``knocked out: fewer than N tricks`` (N):
    after each hand, every player still in who took fewer tricks than this is
    knocked out: the later hands are dealt, played and led only among the
    players still in, and the game ends as soon as one player is left (or after
    its schedule). When every player still in would be knocked out, nobody is.
    0: nobody is ever knocked out."""

    last_one_in: bool = False
    """``winner: last one in`` (with ``knocked out:``): the last player left
    wins; when the schedule (or the target) ends the game with several still
    in, those still in with the best total win (extra hands among them, or a
    shared win, as ``tie:`` says)."""

    @property
    def extra_hand_limit(self) -> int:
        """The most tie-break hands a game can play (0 when ties are shared)."""
        if self.tie is not TieBreak.EXTRA_HANDS:
            return 0
        return MAX_TIE_HANDS if self.max_extra_hands is None else self.max_extra_hands


@frozen
class MatchRule:
    """A match of several games (shedding games): the loser of a game takes the
    next letter of ``word``; the first to hold the whole word loses the match."""

    word: str = ""
    loser_deals: bool = False
    """The loser of a game deals the next one (otherwise the deal passes on)."""


def _no_positions() -> tuple[tuple[str, SourcePos], ...]:
    return ()


@frozen
class Variant:
    """A whole game, resolved (inheritance and options already applied).

    Attributes:
        name: the catalog name, such as ``kachuful``.
        title: the display name, such as ``Kachuful``.
        summary: one line for ``cardrules list``.
        aliases: other names for the game.
        parent: the name of the variant this one extends, if any.
        options: the setting names a caller may override at load time.
        examples: the file's worked examples (:mod:`cardrules.dsl.example_syntax`),
            never inherited through ``extends``; not part of equality (they
            prove the rules, they are not rules).
        positions: where each setting was written (not part of equality).
        source: the text of the file (not part of equality).
        path: the file it came from (not part of equality).
    """

    name: str
    title: str = ""
    summary: str = ""
    aliases: tuple[str, ...] = ()
    parent: str | None = None
    mode: Mode = Mode.TRICKS
    players: PlayerRange = PlayerRange()
    deck: DeckRule = DeckRule()
    direction: Direction = Direction.CLOCKWISE
    dealer: DealerRule = DealerRule()
    schedule: ScheduleRule = ScheduleRule()
    trumps: TrumpRule = TrumpRule()
    bidding: BiddingRule = BiddingRule()
    passing: PassRule = PassRule()
    play: PlayRule = PlayRule()
    shedding: SheddingRule = SheddingRule()
    scoring: ScoringRule = ScoringRule()
    winning: WinRule = WinRule()
    match: MatchRule = MatchRule()
    teams: tuple[tuple[int, ...], ...] = ()
    """Partnerships (``teams: 1 and 3, 2 and 4``): each team's seats (0-based,
    ascending, teams ordered by their first seat); ``()``: every player for
    themselves. A game with teams is for exactly as many players as the teams
    hold."""
    take_backs: TakeBacks = TakeBacks.NEVER
    """``take backs:``: when a player may take back an action (a house rule that
    a table may override: ``Game(..., take_backs=...)``)."""
    options: tuple[str, ...] = ()
    examples: tuple[Example, ...] = field(default=(), eq=False, repr=False)
    positions: tuple[tuple[str, SourcePos], ...] = field(
        factory=_no_positions, eq=False, repr=False
    )
    source: str = field(default="", eq=False, repr=False)
    path: str = field(default="", eq=False, repr=False)

    def position(self, key: str) -> SourcePos | None:
        """Where the setting ``key`` was written, if known."""
        for k, pos in self.positions:
            if k == key:
                return pos
        return None

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        """The cards each player gets in each scheduled hand, for ``players`` players."""
        return self.schedule.hand_sizes(players, self.deck.size)

    @property
    def has_bidding(self) -> bool:
        """True when players bid."""
        return self.mode is Mode.TRICKS and self.bidding.style is not BidStyle.NONE

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s team (``(seat,)`` without teams)."""
        for team in self.teams:
            if seat in team:
                return team
        return (seat,)

    def evolve(self, **changes: object) -> Variant:
        """A copy with some fields replaced (``attrs.evolve``)."""
        return attrs.evolve(self, **changes)  # type: ignore[arg-type]


def jokers_without_trumps(v: Variant) -> str:
    """Why some hand of ``v`` could be played without trumps (or by a turned
    card, which could be a joker), or ``""`` when every hand has a trump suit
    that no card of the deal decides."""
    t = v.trumps
    if v.mode is not Mode.TRICKS:
        return "a shedding game is played without trumps"
    if t.no_trump_every is not None:
        return "some hands are played without trumps"
    if t.kind is TrumpKind.FIXED and t.suit is None:
        return "the game is played without trumps"
    if t.kind is TrumpKind.CYCLE and (not t.cycle or None in t.cycle):
        return "the trump cycle has a no-trump hand"
    if t.kind not in (TrumpKind.FIXED, TrumpKind.CYCLE):
        if t.kind is TrumpKind.NONE:
            return "the game is played without trumps"
        return "the trump suit comes from a turned card, which could be a joker"
    if t.namer is not TrumpNamer.NOBODY and t.name_no_trumps:
        return "a player may name no trumps"
    return ""
