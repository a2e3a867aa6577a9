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
from typing import TYPE_CHECKING, Any

import attrs
from attrs import field, frozen

from cardrules.card_rules import (
    ANY_CARD,
    FOLLOW_SUIT,
    BreakTrigger,
    CardChoice,
    CardSetRule,
    TermKind,
    follow_choice,
    lead_choice,
)
from cardrules.cards import SUIT_MASKS, Card, CardSet, Suit, copies_mask
from cardrules.scoring import Formula

if TYPE_CHECKING:
    from cardrules.dsl.example_syntax import Example

__all__ = [
    "JOKERS_KIND",
    "MAX_REDEALS_IN_A_ROW",
    "MAX_TIE_HANDS",
    "BidStyle",
    "BiddingRule",
    "Choice",
    "Condition",
    "ConditionKind",
    "ConditionalSetting",
    "Counter",
    "DeadTricks",
    "DealerRule",
    "DeckRule",
    "Direction",
    "DowntownRule",
    "EndWhenAllOut",
    "FirstDealer",
    "FirstLead",
    "FirstLeader",
    "HandSituation",
    "HandSizeRule",
    "JokerNoTrump",
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
    "RedealRule",
    "ScheduleRule",
    "ScoreCase",
    "ScoringRule",
    "ShedLoser",
    "SheddingRule",
    "SizeEntry",
    "SourcePos",
    "SpecialKind",
    "SpecialPower",
    "SpecialPowerRule",
    "SpecialSymbol",
    "TakeBacks",
    "TakeHand",
    "TieBreak",
    "TrumpCard",
    "TrumpCardKind",
    "TrumpKind",
    "TrumpLead",
    "TrumpNamer",
    "TrumpRule",
    "TurnedSpecial",
    "Variant",
    "WinRule",
    "get_path",
    "hands_without_trumps",
    "jokers_turned",
    "jokers_without_trumps",
    "points_of_cards",
    "set_path",
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
    STEPS = "steps"
    """Steps of sizes (``ScheduleRule.steps``): ``1 x players, 2 to 7``."""


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


class DowntownRule(Enum):
    """Whether the declarer may reverse the ranks for the hand ("downtown"),
    and where the ace then ranks (:attr:`TrumpRule.downtown`)."""

    NO = "no"
    ACE_HIGH = "ace high"
    """Downtown ranks each suit A, 2, 3, ... K: the ace stays the highest."""
    ACE_LOW = "ace low"
    """Downtown ranks each suit 2, 3, ... K, A: the ace is the lowest."""


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


class JokerNoTrump(Enum):
    """What a joker is in a hand without trumps (:attr:`TrumpRule.joker_no_trump`)."""

    HIGHEST_CARD = "highest card"
    """A suit of its own that beats every card: it may be played only by a player
    with no card of the suit led (or led); it wins the trick. Led, its player
    names the suit it stands for, and the others must follow that suit."""
    CANNOT_WIN = "cannot win"
    """Worthless (Bid Whist's no-trump hand): it may be played only by a player
    with no card of the suit led (or led); it never wins the trick. Led, it
    sets no suit: the next card that is not a joker sets the suit to follow
    (and a trick of jokers only goes to the first played)."""


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
    AUCTION = "auction"
    """In turn from the dealer's neighbour, once round, dealer last: each player
    bids more than the highest bid so far or passes; the highest bid wins, and
    the dealer must bid when everyone else has passed."""


class FirstLeader(Enum):
    """Who leads to the first trick of a hand."""

    DEALER_NEXT = "dealer's neighbour"
    HOLDER = "holder"
    """The holder of ``PlayRule.lead_card``."""
    DECLARER = "declarer"
    """The player who made trumps (the declarer, the highest bidder who named
    them); the dealer's neighbour in a hand in which nobody did."""


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


class SpecialPower(Enum):
    """What a kind of special card does in a trick (``special cards:``)."""

    WINS = "always win"
    """It wins the trick whatever else is played; of several, the first played
    (or the last, ``SpecialPowerRule.last``) wins."""
    LOSES = "always lose"
    """It never wins the trick unless every card of the trick is of its kind;
    then the first played (or the last) wins."""
    SUIT = "count as"
    """It is a card of ``SpecialPowerRule.suit``, above its ace (or below its 2)."""
    ABOVE = "rank above"
    """It is a card of the suit of ``SpecialPowerRule.card``, just above that card."""
    BELOW = "rank below"
    """It is a card of the suit of ``SpecialPowerRule.card``, just below that card."""


@frozen
class SpecialKind:
    """One kind of special card a pack adds (``with 4 wizards``): its name and
    how many. The special cards of a pack are the ids 54-63 (``X1``-``X10``),
    given to the kinds in the order of the ``deck`` line."""

    plural: str
    """The name of the kind, as the file writes it (``wizards``)."""
    count: int
    """How many cards of the kind the pack holds (1 to 10 in all)."""
    singular: str
    """The name of one card of the kind (``wizard``)."""


@frozen
class SpecialSymbol:
    """How the cards of one kind of special card are written for people
    (``special symbols: wizards W (wizard)``): the letters before their number
    (``W1`` to ``W4``) and the name of one card. Saves, JSON and card ids keep
    the cards' canonical text (``X1``...); only text for people changes."""

    kind: str
    """The plural name of the kind (:attr:`SpecialKind.plural`)."""
    symbol: str
    """One or two letters, as the file writes them (``W``)."""
    singular: str
    """The name of one card of the kind (``wizard``)."""


@frozen
class SpecialPowerRule:
    """The power of one kind of special card (``wizards always win, the first
    played winning``)."""

    kind: str
    """The plural name of the kind (:attr:`SpecialKind.plural`)."""
    power: SpecialPower
    last: bool = False
    """With ``WINS``/``LOSES``: of several of the kind in one trick, the last
    played wins (else the first)."""
    suit: Suit | None = None
    """With ``SUIT``: the suit it counts as."""
    high: bool = True
    """With ``SUIT``: above the ace (else below the 2)."""
    card: Card | None = None
    """With ``ABOVE``/``BELOW``: the card it ranks next to."""
    any_time: bool = False
    """It may be played at any time, even by a player who could follow suit."""


class TurnedSpecial(Enum):
    """What a special card turned up for trumps means (``special turned up:``)."""

    DEALER_NAMES = "the dealer names trumps"
    NO_TRUMPS = "no trumps"


#: The kind name of the jokers in ``special turned up:`` (``jokers, the dealer
#: names trumps``): the jokers of ``deck: ... with 2 jokers``, cards 52 and 53.
JOKERS_KIND = "jokers"


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

    specials: tuple[SpecialKind, ...] = ()
    """The kinds of special card the pack adds (``with 4 wizards and 4
    jesters``), in order: they are cards 54 on (``X1``...), the first kind's first."""
    powers: tuple[SpecialPowerRule, ...] = ()
    """The powers of the special cards (``special cards:``), one per kind."""
    symbols: tuple[SpecialSymbol, ...] = ()
    """How the special cards are written for people (``special symbols:``), at
    most one entry per kind; a kind with none is written ``X1``... as before."""

    @property
    def special_mask(self) -> int:
        """The mask of the pack's special cards (ids 54 on)."""
        n = sum(k.count for k in self.specials)
        return ((1 << n) - 1) << 54 if 0 <= n <= 10 else 0

    def special_ids(self, plural: str) -> tuple[int, ...]:
        """The card ids of the special cards of the kind named ``plural``."""
        first = 54
        for k in self.specials:
            if k.plural == plural:
                return tuple(range(first, first + k.count))
            first += k.count
        return ()

    def special_kind(self, c: int) -> SpecialKind | None:
        """The kind of special card ``c`` (None for a card that is not one)."""
        first = 54
        for k in self.specials:
            if first <= c < first + k.count:
                return k
            first += k.count
        return None

    def special_kinds_named(self, plural: str) -> SpecialKind | None:
        """The kind of special card named ``plural`` (None: the pack has none)."""
        return next((k for k in self.specials if k.plural == plural), None)

    def singular_of(self, kind: SpecialKind) -> str:
        """The name of one card of ``kind``: the file's (``special symbols``), else
        the plural less its ``s``."""
        named = next((x for x in self.symbols if x.kind == kind.plural), None)
        return kind.singular if named is None else named.singular

    def card_names(self) -> dict[int, str]:
        """The text for people of each special card a symbol renames, by id
        (``{54: "W1", ...}``); empty without ``special symbols``."""
        out: dict[int, str] = {}
        for x in self.symbols:
            for n, c in enumerate(self.special_ids(x.kind), start=1):
                out[c] = f"{x.symbol}{n}"
        return out

    def power_of(self, plural: str) -> SpecialPowerRule | None:
        """The power the file gives the kind named ``plural`` (None: none given)."""
        return next((p for p in self.powers if p.kind == plural), None)

    @property
    def joker_mask(self) -> int:
        """The mask of the pack's jokers (before ``removed``)."""
        return (0, 1 << 53, 3 << 52)[self.jokers] if 0 <= self.jokers <= 2 else 0

    @property
    def cards(self) -> CardSet:
        """The cards in play (with ``removed_for``: the cards of a count of players
        that no entry names; see :meth:`cards_for`)."""
        mask = (_ranks_from(self.lowest) | self.joker_mask | self.special_mask) & ~self.removed
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


#: The most deals in a row a hand is thrown in and dealt again (``redeal:``):
#: after that many, the last deal stands and is played.
MAX_REDEALS_IN_A_ROW = 20


@frozen
class RedealRule:
    """A hand thrown in when a seat is dealt cards that meet a condition
    (``redeal: a hand without spades must be shown``).

    Attributes:
        without: the card sets of the condition: a hand meets it when it holds
            no card of one of them (``without spades or without higher than 10``).
        next_dealer: the deal passes to the next dealer (else the same dealer
            deals again).
        may: the holder may show the hand or keep it (every seat in turn
            says which, from the dealer's neighbour); else the first hand that
            meets the condition must be shown.
    """

    without: tuple[CardSetRule, ...]
    next_dealer: bool = False
    may: bool = False

    def masks(self, pack: int, trump: int) -> tuple[int, ...]:
        """The cards of each set of the condition in a pack (``pack``: its
        mask), in a hand whose trump suit is ``trump`` (-1: none). A set with no
        card in the pack (``trumps`` in a hand without trumps) is never missed:
        its mask is the whole pack, which no hand can lack."""
        out: list[int] = []
        for rule in self.without:
            cards = pack
            for t in rule.terms:
                k = t.kind
                if k is TermKind.SUIT and t.suit is not None:
                    m = SUIT_MASKS[int(t.suit)]
                elif k is TermKind.TRUMPS:
                    m = SUIT_MASKS[trump] if trump >= 0 else 0
                elif k is TermKind.CARD and t.card is not None:
                    m = 1 << int(t.card)
                elif k in (TermKind.HIGHER, TermKind.LOWER) and t.rank is not None:
                    ranks = range(t.rank + 1, 15) if k is TermKind.HIGHER else range(2, t.rank)
                    m = sum(1 << (13 * s + r - 2) for s in range(4) for r in ranks)
                else:  # any card (the suit led and winning cards are refused at parse time)
                    m = pack
                cards &= ~m if t.negated else m
            out.append(cards or pack)
        return tuple(out)

    def met_by(self, hand: int, pack: int, trump: int) -> bool:
        """Whether a hand (a mask) meets the condition: it holds no card of one
        of the sets (see :meth:`masks`)."""
        return any(not hand & m for m in self.masks(pack, trump))


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
    steps: tuple[tuple[int, int, bool], ...] = ()
    """For ``Pattern.STEPS``: (first size, last size, once per player): the
    sizes from the first to the last, one apart (``2 to 7``, ``7 to 2``), each
    dealt once, or as many times as there are players (``8 x players``)."""

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
        elif p is Pattern.STEPS:
            one = steps_sizes(self.steps, players)
        else:
            one = self.sizes
        return one * self.repeat

    def largest(self, players: int, deck_size: int = 52) -> int:
        """The largest hand of the game (the size of tie-break hands)."""
        sizes = self.hand_sizes(players, deck_size)
        return max(sizes) if sizes else 0


def steps_sizes(steps: tuple[tuple[int, int, bool], ...], players: int) -> tuple[int, ...]:
    """The hand sizes of ``hands: 1 x players, 2 to 7, ...`` for ``players``."""
    out: list[int] = []
    for first, last, per_player in steps:
        run = range(first, last + 1) if first <= last else range(first, last - 1, -1)
        for size in run:
            out.extend((size,) * (players if per_player else 1))
    return tuple(out)


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
    turned_special: tuple[tuple[str, TurnedSpecial | Suit], ...] = ()
    """Turned-up trumps: what a special card turned up means, by kind
    (``special turned up: wizards, the dealer names trumps; jesters, no trumps``).
    The kind :data:`JOKERS_KIND` is the jokers (a turned-up, order-up or
    dealer's-card game whose pack has jokers), which may also be given a suit
    they count as (``jokers, hearts``; in order-up, offered as a heart)."""
    joker_no_trump: JokerNoTrump | None = None
    """``jokers without trumps:``: what a joker is in a hand without trumps.
    ``None``: not said (the loader asks for it when such a hand can have jokers)."""

    @property
    def turned_joker(self) -> TurnedSpecial | Suit | None:
        """What a joker turned up for trumps does (``special turned up: jokers,
        ...``): the dealer names trumps, no trumps, or the suit it counts as;
        ``None`` when the file does not say."""
        return dict(self.turned_special).get(JOKERS_KIND)

    downtown: DowntownRule = DowntownRule.NO
    """Named by the highest bidder (``downtown: ace high``): having named trumps
    (or no trumps), the declarer plays the hand uptown (the ranks as usual) or
    downtown (each suit's ranks reversed, the ace where this says)."""
    misere: bool = False
    """Named by the highest bidder (``misère: yes``): instead of naming trumps,
    the declarer may declare misère: no trumps, its partners sit the hand out,
    and it must take no trick (the score reads ``misere``)."""
    kitty: int = 0
    """Named by the highest bidder (``kitty: 4 cards``): the cards left after
    the deal, face down; the declarer, having named trumps (and uptown or
    downtown), takes them into hand and discards as many face down."""
    kitty_trick: bool = False
    """With a kitty: the declarer's discards count as one trick it took."""

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
    until_others_pass: bool = False
    """In an auction (``auction: until the others pass``): the bidding goes
    round and round until every player but the highest bidder has passed, a
    player who passed staying out; ``False``: once round, dealer last."""
    all_pass_thrown_in: bool = False
    """In an auction (``all pass: the hand is thrown in``): anyone may pass, and
    when everyone passes the hand is thrown in and the next dealer deals;
    ``False``: the last player to speak must bid when the others have passed."""
    one_per_team: bool = False
    """With teams (``team bids: one per side``): each side makes one bid, the
    first of its partners in the bidding order bidding for it; the other
    partners do not bid (their bid is none, 0 in formulas) and the side's
    contract (``team_bid``) is that one bid."""
    strains: tuple[int, ...] = ()
    """In an auction (``bids: 6 to 10 in spades, clubs, diamonds, hearts, no
    trumps``): the strains of the contract bids, lowest first at equal level
    (0-3 the suits by number, 4 no trumps); a bid is then a level in a strain
    (``Contract``), and the winning bid makes trumps. Empty: bids are numbers."""
    misere_above: tuple[int, int] | None = None
    """With strains (``misère: a bid above 8 spades``): misère is a bid of the
    auction, ranking just above that level and strain; ``None``: it is not."""
    open_misere_above: tuple[int, int] | None = None
    """With strains (``open misère: a bid above 10 diamonds``): open misère is a
    bid of the auction, ranking just above that level and strain: the declarer
    plays alone without trumps to take no trick, and its hand is laid face up
    once the first trick is complete. ``None``: it is not a bid."""


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
class Choice:
    """A choice a variant file makes where its sources differ (``choice:``):
    shown on the rules page, never part of the rules (presentation only).

    Attributes:
        statement: the choice in one line, as the page states it ("Blind nil
            may be bid at any time").
        sources: what the sources say, each naming its source ("Pagat: only
            a side 100 or more points behind").
        change: the one line of the variant language, a house rule, that makes
            the other choice (``blind bids: none``); ``""`` when the language
            cannot say it. ``cardrules check`` plays it against the file: it
            must read, and must change the game.
    """

    statement: str
    sources: tuple[str, ...] = ()
    change: str = ""
    pos: SourcePos | None = field(default=None, eq=False, repr=False)
    """Where the choice's line is (for ``cardrules check``'s errors)."""


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
class ScoreCase:
    """A case of the score named in the game's own words (``case "made": ...``):
    presentation only, never a rule (no case changes a score, and the cases are
    left out of a variant's fingerprint).

    The rules page explains the score as a table of the file's cases; the
    terminal's recap and :attr:`View.last_hand
    <cardrules.engine.views.view.View.last_hand>` name the cases each seat's
    hand fell in. Cases need not exclude each other: a hand is named by every
    case whose condition holds (Spades: a nil failed, and the side made its
    bid).

    Attributes:
        label: the case's name, such as ``"shot the moon"``.
        when: the condition, a formula over the variables of a seat's hand
            (the ``score:`` formula's: ``bid``, ``tricks``, ``team_tricks``,
            ``points``, the counters as they stood before the hand...): the
            case holds when its value is not 0.
        means: what the case is and what it scores, in words, for the page.
        shown: how the recap names a hand in the case, with ``{formula}``
            holes filled in from the hand (``"made {team_tricks} on
            {team_bid}"``); empty: the label.
        example: a hand in the case for the page's worked number, as
            ``(variable, value)`` pairs (``bid 5, tricks 7``); empty: none.
    """

    label: str
    when: Formula
    means: str
    shown: str = ""
    example: tuple[tuple[str, int | bool], ...] = ()

    @property
    def name(self) -> str:
        """The case's label: a later line of the same label replaces it."""
        return self.label


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
    points a player took in the hand as ``points``. 54 values when a joker
    is given points, 64 when a special card is named (``X1 10``)."""
    kind_points: tuple[tuple[str, int], ...] = ()
    """Points given to every card of a kind of special card, or to the jokers
    (``card points: wizards 10, jokers 5``): (the kind's plural name, the
    points), in file order. A card named alone in ``card_points`` keeps its
    own value (see :func:`points_of_cards`)."""
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

    target_by_declarer: bool = False
    """``target: 500 points, reached by the declarer only``: only the side that
    made trumps this hand (the declarer's) ends the game by reaching the target,
    and it wins, whatever the others' totals (Five Hundred's "going out");
    another total past the target plays on."""

    lose_at: int | None = None
    """``lose at: -N points``: after each hand, a game in which some running
    total has fallen to ``-N`` or below ends too (Bid Whist's side at -7 loses:
    the other side, with the higher total, wins); ``None``: no such end."""

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


class ConditionKind(Enum):
    """What a condition on a setting reads (``hook: no when the hand has 1 card``)."""

    PLAYERS = "players"
    """The number of players: ``for 3 players``, ``for 3 to 6 players``."""
    HAND_SIZE = "hand size"
    """The cards each player is dealt: ``when the hand has 1 card``."""
    FIRST = "first hand"
    """The first hand of the game: ``in the first hand``."""
    LAST = "last hand"
    """The last hand of the schedule: ``in the last hand``."""
    TIE_BREAK = "tie-break hand"
    """An extra hand played to break a tie: ``in a tie-break hand``."""


@frozen
class Condition:
    """When a conditional line applies.

    Attributes:
        kind: what it reads.
        lo: the smallest number it accepts (players or cards; 0 for the others).
        hi: the largest.
    """

    kind: ConditionKind
    lo: int = 0
    hi: int = 0

    @property
    def per_hand(self) -> bool:
        """Whether it reads the hand (else the number of players)."""
        return self.kind is not ConditionKind.PLAYERS

    def holds_for_players(self, players: int) -> bool:
        """Whether a condition on the number of players holds for ``players``."""
        return self.kind is ConditionKind.PLAYERS and self.lo <= players <= self.hi

    def holds_for_hand(self, situation: HandSituation) -> bool:
        """Whether a condition on the hand holds in the hand ``situation``."""
        k = self.kind
        if k is ConditionKind.HAND_SIZE:
            return self.lo <= situation.size <= self.hi
        if k is ConditionKind.FIRST:
            return situation.first
        if k is ConditionKind.LAST:
            return situation.last
        if k is ConditionKind.TIE_BREAK:
            return situation.tie_break
        return False


@frozen
class HandSituation:
    """What a hand's conditions read: its size and where it falls in the game.

    Attributes:
        size: the cards each player is dealt.
        first: the first hand of the game.
        last: the last hand of the schedule.
        tie_break: an extra hand played to break a tie.
    """

    size: int
    first: bool = False
    last: bool = False
    tie_break: bool = False


@frozen
class ConditionalSetting:
    """A setting line with a condition: its changes apply only when the
    condition holds (the unconditional line, or the default, applies otherwise).

    Attributes:
        key: the setting's name, such as ``hook``.
        condition: when it applies.
        changes: ``(field path, value)`` pairs, as the setting's line makes them.
        pos: where the line is (not part of equality).
    """

    key: str
    condition: Condition
    changes: tuple[tuple[str, Any], ...]
    pos: SourcePos | None = field(default=None, eq=False)


def get_path(obj: Any, dotted: str) -> Any:
    """The value at ``dotted`` (``"bidding.hook"``) in a config ``obj``."""
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def set_path(obj: Any, dotted: str, value: Any) -> Any:
    """``obj`` with the value at ``dotted`` replaced by ``value`` (a new frozen config)."""
    head, _, rest = dotted.partition(".")
    if not rest:
        return attrs.evolve(obj, **{head: value})
    return attrs.evolve(obj, **{head: set_path(getattr(obj, head), rest, value)})


def apply_changes(v: Variant, changes: tuple[tuple[str, Any], ...]) -> Variant:
    """``v`` with a setting's ``(field path, value)`` changes made: ``@``
    paths are notes, a path ending in ``+`` adds named items (counters) to a
    tuple, replacing those of the same names."""
    out: Any = v
    for dotted, value in changes:
        if dotted.startswith("@"):
            continue
        if dotted.endswith("+"):
            dotted = dotted[:-1]
            names = {c.name for c in value}
            old = get_path(out, dotted)
            value = tuple(c for c in old if c.name not in names) + tuple(value)
        out = set_path(out, dotted, value)
    assert isinstance(out, Variant)
    return out


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
        story: the game's story (``story:`` lines: the origin of its name, where
            it is played), a paragraph a line; shown on the rules page, not
            part of equality (presentation, not rules).
        tips: practical tips for a beginner (``tip:`` lines), not part of
            equality.
        choices: the choices the file makes where its sources differ
            (``choice:`` lines), not part of equality and never inherited
            through ``extends`` (a house rule's file states its own).
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
    redeal: RedealRule | None = None
    """``redeal:``: when a deal is thrown in and dealt again (``None``: never)."""
    options: tuple[str, ...] = ()
    cases: tuple[ScoreCase, ...] = ()
    """``case "made": ...``: the cases of the score, named in the game's words
    (presentation only: left out of the fingerprint)."""
    conditional: tuple[ConditionalSetting, ...] = ()
    """Lines with a condition (``trumps: none when the hand has 1 card``), in
    the order written; the unconditional fields above are the base they change
    (see :meth:`for_players` and :meth:`for_hand`)."""
    story: tuple[str, ...] = field(default=(), eq=False, repr=False)
    tips: tuple[str, ...] = field(default=(), eq=False, repr=False)
    choices: tuple[Choice, ...] = field(default=(), eq=False, repr=False)
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
        """The cards each player gets in each scheduled hand, for ``players`` players
        (the lines with a condition on the number of players made)."""
        v = self.for_players(players) if self.conditional else self
        return v.schedule.hand_sizes(players, v.deck.size)

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

    def _with_lines(self, lines: tuple[ConditionalSetting, ...]) -> Variant:
        """This variant with the changes of ``lines`` made, each line's
        position recorded as its setting's, and the others kept."""
        v = self
        positions = dict(self.positions)
        for line in lines:
            v = apply_changes(v, line.changes)
            if line.pos is not None:
                positions[line.key] = line.pos
        kept = tuple(c for c in self.conditional if c not in lines)
        return attrs.evolve(v, conditional=kept, positions=tuple(positions.items()))

    def for_players(self, players: int) -> Variant:
        """The rules of a game of ``players`` players: the lines with a
        condition on the number of players that holds made, those whose
        condition fails dropped, the conditions on the hand kept (itself when
        it has no condition on the number of players)."""
        if not any(not c.condition.per_hand for c in self.conditional):
            return self
        holding = tuple(c for c in self.conditional if c.condition.holds_for_players(players))
        v = self._with_lines(holding)
        return attrs.evolve(v, conditional=tuple(c for c in v.conditional if c.condition.per_hand))

    def hand_lines(self, situation: HandSituation) -> tuple[ConditionalSetting, ...]:
        """The lines with a condition on the hand that hold in ``situation``."""
        return tuple(
            c
            for c in self.conditional
            if c.condition.per_hand and c.condition.holds_for_hand(situation)
        )

    def for_hand(self, situation: HandSituation) -> Variant:
        """The rules of one hand (after :meth:`for_players`): the lines whose
        condition holds in ``situation`` made, no condition left."""
        return attrs.evolve(self._with_lines(self.hand_lines(situation)), conditional=())

    def evolve(self, **changes: object) -> Variant:
        """A copy with some fields replaced (``attrs.evolve``)."""
        return attrs.evolve(self, **changes)  # type: ignore[arg-type]


def hands_without_trumps(v: Variant) -> str:
    """Why some hand of ``v`` could be played without trumps, or ``""`` when
    every hand has a trump suit (named, turned, ordered up, cycling or fixed)."""
    t = v.trumps
    if v.mode is not Mode.TRICKS:
        return "a shedding game is played without trumps"
    if t.no_trump_every is not None:
        return "some hands are played without trumps"
    if t.namer is not TrumpNamer.NOBODY and t.name_no_trumps:
        return "a player may name no trumps"
    if t.namer is TrumpNamer.HIGHEST_BIDDER and (
        4 in v.bidding.strains
        or v.bidding.misere_above is not None
        or v.bidding.open_misere_above is not None
    ):
        return "a contract may be bid in no trumps or misère"
    if t.namer is TrumpNamer.HIGHEST_BIDDER:
        return ""
    if t.kind is TrumpKind.NONE or (t.kind is TrumpKind.FIXED and t.suit is None):
        if t.namer is TrumpNamer.MOST_TRICKS:
            return "the first hand is played without trumps"
        return "the game is played without trumps"
    if t.kind is TrumpKind.CYCLE and (not t.cycle or None in t.cycle):
        return "the trump cycle has a no-trump hand"
    if jokers_turned(v) and t.turned_joker is TurnedSpecial.NO_TRUMPS:
        return "a turned-up joker makes a hand without trumps"
    if t.kind is TrumpKind.TURN_UP and t.none_when_pack_empty:
        for n in v.players.counts():
            if any(size * n >= v.deck.size for size in v.hand_sizes(n)):
                return "a hand that deals the whole pack has no card left to turn up"
    return ""


def jokers_turned(v: Variant) -> bool:
    """True when a joker of ``v``'s pack can be turned up for trumps (a
    turned-up, order-up or dealer's-card game whose pack has jokers)."""
    return (
        v.mode is Mode.TRICKS
        and v.trumps.kind in (TrumpKind.TURN_UP, TrumpKind.DEALERS_CARD)
        and any(c.is_joker for c in v.deck.cards)
    )


def jokers_without_trumps(v: Variant) -> str:
    """Why the jokers of ``v`` cannot be played (they have no suit or rank of
    their own), or ``""`` when they can: the game has trumps in some hand, and
    the file says what a joker is in a hand without trumps
    (:attr:`TrumpRule.joker_no_trump`) and what a joker turned up for trumps
    does (:attr:`TrumpRule.turned_joker`, ``special turned up: jokers, ...``)
    whenever either can happen."""
    t = v.trumps
    if v.mode is not Mode.TRICKS:
        return "a shedding game is played without trumps"
    if t.namer is TrumpNamer.NOBODY and (
        t.kind is TrumpKind.NONE
        or (t.kind is TrumpKind.FIXED and t.suit is None)
        or (t.kind is TrumpKind.CYCLE and all(s is None for s in t.cycle))
    ):
        return "the game is played without trumps"
    if jokers_turned(v) and t.turned_joker is None:
        return (
            "a joker can be turned up for trumps, and the file does not say what "
            "that does (`special turned up: jokers, ...`)"
        )
    why = hands_without_trumps(v)
    if why and t.joker_no_trump is None:
        return f"{why}, and the file does not say what a joker is then (`jokers without trumps:`)"
    return ""


def points_of_cards(v: Variant) -> tuple[int, ...]:
    """The points of each card of ``v``'s pack by id (``card points:``): the
    values of :attr:`ScoringRule.card_points`, with those of the kinds of
    special card (and the jokers) of :attr:`ScoringRule.kind_points` for the
    cards the pack holds of each kind (a card given points on its own keeps
    them). ``()`` when no card carries points; 64 values when a kind is given."""
    s = v.scoring
    if not s.kind_points:
        return s.card_points
    out = list(s.card_points) + [0] * (64 - len(s.card_points))
    own = {k for k, x in enumerate(s.card_points) if x}
    for kind, value in s.kind_points:
        ids: tuple[int, ...] = (52, 53) if kind == JOKERS_KIND else v.deck.special_ids(kind)
        for k in ids:
            if k not in own:
                out[k] = value
    return tuple(out)
