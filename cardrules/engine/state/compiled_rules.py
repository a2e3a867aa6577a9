"""A :class:`Variant` compiled once to plain attributes for the engine's hot loops.

:class:`_Rules` holds the rules as ints and bools, the scoring of one seat's
hand (cached), the seat orders per player count, and the variant's
fingerprint; :func:`_compile` caches one per variant object.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any, Final

import attrs

from cardrules.card_rules import ANY_CARD, FOLLOW_SUIT, BreakTrigger, CardChoice, CardTerm, TermKind
from cardrules.cards import (
    CARDS,
    FULL_DECK_MASK,
    ID_LIMIT,
    JOKER_MASK,
    MISERE_STRAIN,
    OPEN_MISERE_STRAIN,
    PACK54_MASK,
    SPECIAL_MASK,
    SUIT_MASKS,
    Card,
    CardSet,
    base_mask,
    copies_mask,
)
from cardrules.counted import count_range, counted
from cardrules.dsl.settings.registry import OLD_SAVE_DEFAULTS, PRESENTATION_FIELDS
from cardrules.engine.actions import (
    CONTRACT_END,
    NUM_ACTIONS,
    SPECIAL_ACTION_END,
    Action,
    Contract,
    Play,
    contract_bid,
)
from cardrules.engine.state.ranks import STANDARD, RankTables, several_packs
from cardrules.engine.state.tables import (
    _plays_of,
    _plays_of_copies,
    _plays_with_jokers,
    _plays_with_specials,
)
from cardrules.errors import ScoreError, VariantError
from cardrules.rules import (
    BidStyle,
    ConditionalSetting,
    DeadTricks,
    Direction,
    DowntownRule,
    EndWhenAllOut,
    FirstLead,
    FirstLeader,
    HandSituation,
    JokerNoTrump,
    LeaderOut,
    LoserTie,
    Mode,
    NamerTie,
    PassTo,
    Pattern,
    ScoreCase,
    ShedLoser,
    SpecialPower,
    TakeHand,
    TieBreak,
    TrumpKind,
    TrumpNamer,
    TurnedSpecial,
    Variant,
    jokers_turned,
    jokers_without_trumps,
    points_of_cards,
)

#: Exact numbers: whole numbers are kept as ints internally, for speed.
Num = int | Fraction

# --------------------------------------------------------------------------- scoring


def _local_env(
    *,
    bid: int,
    tricks: int,
    cards: int,
    hand: int,
    players: int,
    blind: bool = False,
    points: int = 0,
    all_points: int = 0,
    most_points: int = 0,
    maker: bool = False,
    maker_tricks: int = 0,
    alone: bool = False,
) -> dict[str, int | Fraction | bool]:
    return {
        "alone": alone,
        "defended_alone": False,  # only with teams (engine/phases/team_score.py)
        "maker": maker,
        "maker_tricks": maker_tricks,
        "points": points,
        "all_points": all_points,
        "most_points": most_points,
        "bid": bid,
        "tricks": tricks,
        "cards": cards,
        "hand": hand,
        "players": players,
        "blind": blind,
        "exact": bid == tricks,
        "over": tricks > bid,
        "under": tricks < bid,
        "diff": abs(tricks - bid),
    }


def _cards(n: int) -> str:
    return counted(n, "card")


#: A compiled card-set rule: for each set, (the mask of its constant terms, its
#: terms that depend on the trick: (code, mask, unbroken only, negated)). Codes:
#: 0 a constant mask, 1 the suit led, 2 trumps, 3 winning cards, 4 a named suit
#: by the hand's effective suits (a trump order; mask: the suit's number).
CompiledChoice = tuple[tuple[int, tuple[tuple[int, int, bool, bool], ...]], ...]

_DYNAMIC: Final = {TermKind.SUIT_LED: 1, TermKind.TRUMPS: 2, TermKind.WINNING: 3}


def _term_mask(t: CardTerm) -> int:
    """The cards of a term that does not depend on the trick."""
    k = t.kind
    if k is TermKind.ANY:
        return PACK54_MASK
    if k is TermKind.SUIT:
        assert t.suit is not None
        return SUIT_MASKS[t.suit]
    if k is TermKind.CARD:
        assert t.card is not None
        return 1 << int(t.card)
    assert t.rank is not None
    ranks = range(t.rank + 1, 15) if k is TermKind.HIGHER else range(2, t.rank)
    mask = 0
    for suit in range(4):
        for rank in ranks:
            mask |= 1 << (13 * suit + rank - 2)
    return mask


def _compile_choice(
    choice: CardChoice, ranked: bool = False, packs: int = 1
) -> CompiledChoice | None:
    """A card-set rule as masks and codes for the loop; ``None`` when it never limits
    what may be played (``any card``). With ``ranked`` (a trump order), a named
    suit is the hand's effective suit: code 4, with the suit's number for mask.
    With ``packs`` > 1 (several packs) each mask holds every copy of its cards."""
    if choice == ANY_CARD or not choice.options:
        return None
    if packs > 1:
        return tuple(
            (
                copies_mask(const, packs),
                tuple((k, copies_mask(m, packs) if k == 0 else m, u, n) for k, m, u, n in dyn),
            )
            for const, dyn in _compile_choice(choice, ranked) or ()
        )
    out: list[tuple[int, tuple[tuple[int, int, bool, bool], ...]]] = []
    for option in choice.options:
        const = PACK54_MASK
        dyn: list[tuple[int, int, bool, bool]] = []
        for t in option.terms:
            if ranked and t.kind is TermKind.SUIT and t.suit is not None:
                dyn.append((4, int(t.suit), t.unbroken, t.negated))
                continue
            code = _DYNAMIC.get(t.kind, 0)
            mask = 0 if code else _term_mask(t)
            if code or t.unbroken:
                dyn.append((code, mask, t.unbroken, t.negated))
            elif t.negated:
                const &= ~mask
            else:
                const &= mask
        out.append((const, tuple(dyn)))
    return tuple(out)


def _whole_valued(node: object) -> bool:
    """True when a formula tree can only give whole numbers: no ``/`` and no
    number with a fraction (``//``, ``abs``, ``min``, ``max``, ``if`` keep whole
    numbers whole)."""
    from cardrules.scoring import Num as NumberNode
    from cardrules.scoring import Product

    if isinstance(node, NumberNode):
        return node.value.denominator == 1
    if isinstance(node, Product) and any(op == "/" for op, _ in node.rest):
        return False
    if isinstance(node, tuple):
        return all(_whole_valued(x) for x in node)
    kind: Any = type(node)
    if attrs.has(kind):
        return all(_whole_valued(getattr(node, a.name)) for a in attrs.fields(kind))
    return True


def _env_builder() -> Callable[..., Mapping[str, int | Fraction | bool]]:
    try:
        from cardrules.scoring import score_env
    except ImportError:
        return _local_env
    return score_env


# --------------------------------------------------------------------------- compiled rules


#: Fields added after saves began to carry fingerprints: left out of the
#: fingerprint at these (default) values, so a variant without them keeps the
#: fingerprint its saves were made with. Each is declared with the setting that
#: fills it (its ``old_saves``, in ``cardrules/dsl/settings/``).
_LATER_FIELDS: Final[dict[tuple[str, str], object]] = OLD_SAVE_DEFAULTS

#: The codes of the questions about the cards taken (``cardrules.scoring.CARD_QUESTIONS``).
_POINTS_OF, _CARDS_OF, _TOOK_ANY, _TOOK_ALL = range(4)
_QUESTION_CODES: Final = {
    "points of": _POINTS_OF,
    "cards taken of": _CARDS_OF,
    "took any": _TOOK_ANY,
    "took all": _TOOK_ALL,
    "took": _TOOK_ALL,
}

#: The formula variables that read who made trumps (a player's choice of trumps).
MAKER_VARIABLES: Final = frozenset({"maker", "maker_tricks", "alone", "defended_alone"})
#: The variables of a hand's contract: read only by scoring team by team
#: (engine/phases/team_score.py), which a formula using them switches on.
CONTRACT_VARIABLES: Final = frozenset(
    {"bid_level", "downtown", "no_trumps", "misere", "bid_strain"}
)


def _uses(formula: object) -> frozenset[str]:
    """The variables ``formula`` reads (none for ``None``)."""
    uses = getattr(formula, "uses", None)
    return frozenset() if uses is None else frozenset(uses())


_NAMER_CODES: Final = {
    TrumpNamer.NOBODY: 0,
    TrumpNamer.HIGHEST_BIDDER: 1,
    TrumpNamer.MOST_TRICKS: 2,
    TrumpNamer.ORDER_UP: 3,
}
#: ``_Rules.turned_joker``: a turned-up joker makes no trumps, or the dealer
#: names them (0-3: it counts as a card of that suit; -2: no joker can be turned).
TURNED_JOKER_NO_TRUMPS: Final = -1
TURNED_JOKER_DEALER_NAMES: Final = 4


#: Option names of settings added after saves began to carry fingerprints: left
#: out of a variant's ``options`` in the fingerprint, so that a built-in that
#: comes to offer one (a redeal) keeps the fingerprint of its saves.
_LATER_OPTIONS: Final = frozenset({"redeal"})


def _later_change(path: str, value: object) -> bool:
    """Whether a conditional line's change ``(path, value)`` sets a field added
    after saves began to its old-save default (so that it leaves the
    fingerprint as it was, as the field itself does)."""
    head, _, last = path.rpartition(".")
    owner: object = _DEFAULT_VARIANT
    for part in head.split(".") if head else ():
        owner = getattr(owner, part, None)
    key = (type(owner).__name__, last)
    return key in _LATER_FIELDS and value == _LATER_FIELDS[key]


_DEFAULT_VARIANT: Final = Variant(name="")


def _canon(x: object) -> object:
    if isinstance(x, Variant) and _LATER_OPTIONS.intersection(x.options):
        x = attrs.evolve(x, options=tuple(o for o in x.options if o not in _LATER_OPTIONS))
    if isinstance(x, ConditionalSetting):
        kept = tuple((path, value) for path, value in x.changes if not _later_change(path, value))
        x = attrs.evolve(x, changes=kept)
    if attrs.has(type(x)):
        fields = attrs.fields(type(x))  # type: ignore[arg-type]
        name = type(x).__name__
        return [name] + [
            [f.name, _canon(getattr(x, f.name))]
            for f in fields
            if f.eq
            and (name, f.name) not in PRESENTATION_FIELDS
            and not (
                (name, f.name) in _LATER_FIELDS
                and getattr(x, f.name) == _LATER_FIELDS[(name, f.name)]
            )
        ]
    if isinstance(x, Enum):
        return x.value
    if isinstance(x, tuple | list):
        return [_canon(i) for i in x]
    if x is None or isinstance(x, bool | int | str | float):
        return x if not isinstance(x, int) or isinstance(x, bool) else int(x)
    for name in ("text", "source"):
        text = getattr(x, name, None)
        if isinstance(text, str):
            return [type(x).__name__, text]
    return repr(x)


def variant_fingerprint(variant: Variant) -> str:
    """A short stable hash of a variant's rules (names, options and source positions
    aside from, everything that takes part in equality). Saved games carry it."""
    text = json.dumps(_canon(variant), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _jokers_ranked(v: Variant) -> bool:
    """Every joker of ``v``'s pack is in its trump order, and every hand has trumps."""
    named = sum(1 << int(e.card) for e in v.trumps.order if e.card is not None)
    jokers = v.deck.cards.mask & JOKER_MASK
    return jokers & named == jokers and not jokers_without_trumps(v)


class _Rules:
    """A variant compiled to plain attributes for the hot loops (one per variant)."""

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self._compile_pack(v)
        self._compile_bidding(v)
        self._compile_play(v)
        self._compile_shedding(v)
        self._compile_scoring(v)
        self._compile_winning(v)
        self._compile_passing(v)
        self.env = _env_builder()
        self.score_cache: dict[tuple[int | bool, ...], Num] = {}
        self.bid_cache: dict[tuple[int, int, int, bool], tuple[Action, ...]] = {}
        self._fingerprint: str | None = None
        # Cards out for some numbers of players only (``without 2♦ for 3
        # players``): a game compiles the rules of its number (for_players).
        # Lines with a condition on the number of players (``deck: 9 to ace
        # for 3 players``) resolve the same way, once per number.
        self.pack_by_players = bool(v.deck.removed_for) or any(
            not c.condition.per_hand for c in v.conditional
        )
        self._for_players: dict[int, _Rules] = {}
        # Lines with a condition on the hand (``hook: no when the hand has 1
        # card``): the deal selects each hand's rules (for_hand), compiled once
        # per distinct set of lines that hold; ``hand_base`` is the rules they
        # are selected from. A game without such lines never looks.
        self.by_hand = any(c.condition.per_hand for c in v.conditional)
        self.hand_base = self
        self._for_hand: dict[tuple[ConditionalSetting, ...], _Rules] = {}
        self._geometry: dict[
            int, tuple[tuple[int, ...], int, tuple[int, ...], tuple[tuple[int, ...], ...]]
        ] = {}
        self._compile_trumps(v)
        self._check_bids(v)

    def _compile_pack(self, v: Variant) -> None:
        """The mode of play, the direction and the pack (and the trump rule:
        the shedding trick has no trumps)."""
        self.tricks_mode = v.mode is Mode.TRICKS
        if not self.tricks_mode and (
            v.trumps.kind is not TrumpKind.NONE or v.trumps.no_trump_every is not None
        ):
            # A file is refused at load time; a config built in Python is refused here:
            # the shedding trick (a cut, picked up by the highest card of the suit
            # led) has no place for a trump.
            raise VariantError(
                f"{v.name}: shedding games are played without trumps "
                "(trumps must be TrumpKind.NONE, with no no-trump hands)"
            )
        self.clockwise = v.direction is Direction.CLOCKWISE
        self.compiled_deck = v.deck
        self.pack_mask = v.deck.cards.mask
        self.pack: tuple[int, ...] = tuple(int(c) for c in v.deck.cards)
        # The standard cards left out of the pack, for :meth:`Game.view`.
        self.pack_removed: tuple[Card, ...] = tuple(CardSet(FULL_DECK_MASK & ~self.pack_mask))
        # The pack's jokers (cards 52 and 53), for :meth:`Game.view`; the Play
        # actions of a card mask, with the jokers' only in a pack that has them.
        self.pack_jokers: tuple[Card, ...] = tuple(CardSet(JOKER_MASK & self.pack_mask))
        self.plays_of: Callable[[int], tuple[Play, ...]] = (
            _plays_with_jokers if self.pack_jokers else _plays_of
        )
        # Several standard packs (``deck: 2 standard packs``): copy k of card c is
        # card c + 64 * k. The legal set holds one copy of each card (the lowest
        # held) and offers its card's Play; the plain tables and fast paths of
        # one pack are off (see engine/phases/play.py and trick.py).
        # (read off the pack: its highest copy's number)
        self.packs = (self.pack_mask.bit_length() - 1 >> 6) + 1
        self.copies = self.packs > 1
        self.identical_last = self.copies and v.deck.identical == "last"
        self.plain_ranks: RankTables = several_packs() if self.copies else STANDARD
        if self.copies:
            self.plays_of = _plays_of_copies
            self.pack_removed = tuple(CardSet(FULL_DECK_MASK & ~base_mask(self.pack_mask)))
        self.trump_rule = v.trumps
        # ``redeal:``: the condition that throws a deal in (None: every deal stands).
        self.redeal = v.redeal
        self.redeal_next_dealer = v.redeal is not None and v.redeal.next_dealer
        # ``may be shown``: each seat in turn keeps its hand or shows it (a stage
        # of the trumps phase); else the deal is thrown in as it is dealt.
        self.redeal_may = v.redeal is not None and v.redeal.may
        self._compile_specials(v)

    def _compile_specials(self, v: Variant) -> None:
        """The special cards (54-63) and their powers (``special cards:``): a
        pack with none keeps ``special_trick`` false and plays as before."""
        self.special_trick = bool(self.pack_mask & SPECIAL_MASK) and self.tricks_mode
        # The action space (one more than the largest action id): widened for
        # the special cards' and the contract bids' ids only.
        self.num_actions = (
            CONTRACT_END
            if v.bidding.strains
            else (SPECIAL_ACTION_END if self.special_trick else NUM_ACTIONS)
        )
        # Card id -> its power in a trick: 0 none, 1 always wins (the first of
        # them played winning), 2 always wins (the last), 3 always loses (a trick
        # of them only to the first played), 4 always loses (to the last).
        codes = [0] * len(CARDS)
        # Card id -> (suit, card it ranks next to, above) for the powers that
        # make a special card a card of a suit.
        self.special_ranks: tuple[tuple[int, int, int], ...] = ()
        self.any_time_mask = 0
        # What a special card turned up for trumps means: card mask of those
        # letting the dealer name trumps, and of those meaning no trumps.
        self.turned_names = 0
        self.turned_none = 0
        self.special_view: tuple[tuple[Card, int], ...] = ()
        # ``special symbols``: each renamed special card and its text for people.
        self.card_names_view: tuple[tuple[Card, str], ...] = ()
        # ``jokers without trumps: cannot win``: in a hand without trumps the
        # jokers always lose (a trick of jokers only going to the first), and
        # the card after a joker led sets the suit: a trick decided by powers.
        self.joker_loses = (
            self.tricks_mode
            and bool(self.pack_mask & JOKER_MASK)
            and v.trumps.joker_no_trump is JokerNoTrump.CANNOT_WIN
        )
        # What a joker is without trumps, for the views (bots read it).
        rule = v.trumps.joker_no_trump
        self.joker_no_trump_view = rule.value if rule is not None and v.deck.jokers else ""
        # Whether tricks are decided by the cards' powers (ranks._special_beats).
        self.card_powers = self.special_trick or self.joker_loses
        if not self.special_trick:
            self.special_power: tuple[int, ...] = tuple(codes)
            self._no_trump_power = self._joker_codes(codes)
            return
        d = v.deck
        ranks: list[tuple[int, int, int]] = []
        for p in d.powers:
            ids = d.special_ids(p.kind)
            for c in ids:
                if p.any_time:
                    self.any_time_mask |= 1 << c
                if p.power is SpecialPower.WINS:
                    codes[c] = 2 if p.last else 1
                elif p.power is SpecialPower.LOSES:
                    codes[c] = 4 if p.last else 3
                elif p.power is SpecialPower.SUIT:
                    assert p.suit is not None
                    base = int(p.suit) * 13 + (12 if p.high else 0)
                    ranks.append((c, base, 1 if p.high else 0))
                else:
                    assert p.card is not None
                    ranks.append((c, int(p.card), 1 if p.power is SpecialPower.ABOVE else 0))
        self.special_power = tuple(codes)
        self._no_trump_power = self._joker_codes(codes)
        self.special_ranks = tuple(ranks)
        self.special_view = tuple(
            (CARDS[c], codes[c]) for c in range(54, len(CARDS)) if self.pack_mask >> c & 1
        )
        self.card_names_view = tuple((CARDS[c], t) for c, t in sorted(d.card_names().items()))
        self.plays_of = _plays_with_specials
        for kind, what in v.trumps.turned_special:
            for c in d.special_ids(kind):
                if what is TurnedSpecial.DEALER_NAMES:
                    self.turned_names |= 1 << c
                else:
                    self.turned_none |= 1 << c

    def _joker_codes(self, codes: list[int]) -> tuple[int, ...]:
        """The power codes of a hand without trumps: ``codes`` with the jokers
        always losing, the first played taking a trick of jokers only, when
        they cannot win then (``jokers without trumps: cannot win``)."""
        if not self.joker_loses:
            return tuple(codes)
        out = list(codes)
        out[52] = out[53] = 3
        return tuple(out)

    def powers_in(self, trump: int) -> tuple[int, ...]:
        """Card id -> its power code in a hand whose trump suit is ``trump``
        (-1: none), for the tables of a trick decided by powers."""
        return self._no_trump_power if trump < 0 else self.special_power

    def _compile_bidding(self, v: Variant) -> None:
        """The bidding: its style, the hook, the bounds, blind and forehead bids,
        amends and one bid per side."""
        b = v.bidding
        self.bid_style = (
            0
            if not v.has_bidding
            else (1 if b.style in (BidStyle.IN_TURN, BidStyle.AUCTION) else 2)
        )
        # An auction (``bidding: auction``): bids in turn, each above the last, or
        # a pass; once round, the dealer bidding when everyone else passed.
        self.auction = b.style is BidStyle.AUCTION and self.bid_style == 1
        # ``auction: until the others pass``: round and round, a pass final.
        self.auction_rounds = self.auction and b.until_others_pass
        # ``all pass: the hand is thrown in``: nobody must bid; no bid, no hand.
        self.auction_throw_in = self.auction and b.all_pass_thrown_in
        self.hook = b.hook and self.bid_style == 1 and not self.auction
        self.min_bid = b.min_bid
        self.max_bid = b.max_bid
        self.blind = b.blind
        self.forehead = frozenset(b.forehead_sizes)
        self.amend = b.amend and self.bid_style == 1 and not self.auction
        # One bid per side (``team bids: one per side``): only the first partner
        # of each side in the bidding order bids (engine/phases/bidding.py).
        self.team_bids = b.one_per_team and bool(v.teams) and self.bid_style != 0
        self.blind_only = frozenset(b.blind_only)
        self._compile_contracts(v)

    def _compile_contracts(self, v: Variant) -> None:
        """An auction of contracts (``bids: 6 to 10 in clubs, ...``): every
        contract bid, lowest first (each level in the file's strains, a misère
        bid just above the bid it follows), and each one's rank in that order.
        Empty without strains: the bids are numbers."""
        b = v.bidding
        order: list[Contract] = []
        if self.auction and b.strains and v.trumps.namer is TrumpNamer.HIGHEST_BIDDER:
            hi = b.max_bid if b.max_bid is not None else b.min_bid
            for level in range(b.min_bid, hi + 1):
                for k in b.strains:
                    order.append(contract_bid(level, k))
                    if b.misere_above == (level, k):
                        order.append(contract_bid(0, MISERE_STRAIN))
                    if b.open_misere_above == (level, k):
                        order.append(contract_bid(0, OPEN_MISERE_STRAIN))
        self.contracts: tuple[Contract, ...] = tuple(order)
        # Open misère is a bid: a declarer's hand may be laid face up.
        self.open_misere = contract_bid(0, OPEN_MISERE_STRAIN) in order
        self.contract_rank: dict[Action, int] = {a: i for i, a in enumerate(order)}
        # Each strain's place in the file's list (``bid_strain`` in formulas).
        self.strain_index: dict[int, int] = {k: i for i, k in enumerate(b.strains)}
        self.strain_index[MISERE_STRAIN] = -1
        self.strain_index[OPEN_MISERE_STRAIN] = -1

    def _compile_play(self, v: Variant) -> None:
        """The play: the lead card and first leader, the card-set rules of the
        lead and the follow (and their fast paths), the trump order, broken
        suits and the leader after a shedding trick."""
        p = v.play
        self.lead_card = -1 if p.lead_card is None else int(p.lead_card)
        if self.lead_card >= 0 and not self.pack_mask >> self.lead_card & 1:
            # Taken out of this pack: the first card named after it that is in it.
            self.lead_card = next(
                (int(k) for k in p.lead_card_else if self.pack_mask >> int(k) & 1),
                self.lead_card,
            )
        self.leader_holder = p.first_leader is FirstLeader.HOLDER and self.lead_card >= 0
        # The declarer (the player who made trumps) leads (``first lead: declarer``).
        self.leader_declarer = p.first_leader is FirstLeader.DECLARER
        self.first_lead = (
            0
            if self.lead_card < 0 or p.first_lead is FirstLead.ANY
            else (1 if p.first_lead is FirstLead.CARD else 2)
        )
        self._compile_card_sets(v)
        self._compile_breaks(v)
        self.leader_out_highest = p.leader_out is LeaderOut.NEXT_HIGHEST
        # "The power": a dead trick's taker without cards draws a dead card and leads it.
        self.power = p.leader_out is LeaderOut.DRAWS and not self.tricks_mode

    def _compile_card_sets(self, v: Variant) -> None:
        """The card-set rules of the follow, the lead and the first trick,
        their fast paths, and the trump order (a pack with jokers needs one
        that ranks them)."""
        t = v.trumps
        p = v.play
        # The card-set rules, compiled (see _compile_choice); None: no limit.
        ranked = bool(v.trumps.order) and self.tricks_mode
        packs = self.packs
        self.follow = _compile_choice(p.follow, ranked, packs)
        self.lead = _compile_choice(p.lead, ranked, packs)
        self.first_trick = _compile_choice(p.first_trick, ranked, packs)
        self.follow_rule = p.follow
        self.lead_rule = p.lead
        self.first_trick_rule = p.first_trick
        # Fast paths of the loop, read off the rule values: a player holding the
        # suit led may play any card of it (and, with free_void, any card when void).
        first = p.follow.options[0].terms if p.follow.options else ()
        # A trump order (effective suits, powers other than the rank): every play
        # reads the hand's rank tables (engine/state/ranks.py, one per trump suit,
        # built once and kept here).
        self.ranked = bool(t.order) and self.tricks_mode
        self.rank_cache: dict[int, RankTables] = {}
        # ``jokers without trumps: highest card``: in a hand without trumps a
        # joker wins the trick it is played to, and a joker led is named a suit
        # (engine/phases/ranked_play.py; a joker's play never takes the hot path).
        self.joker_highest = (
            self.ranked
            and bool(self.pack_mask & JOKER_MASK)
            and t.joker_no_trump is JokerNoTrump.HIGHEST_CARD
        )
        self.joker_cache: dict[tuple[RankTables, int, int], RankTables] = {}
        if self.pack_mask & JOKER_MASK and not (self.ranked and _jokers_ranked(v)):
            # A file is refused at load time (dsl/validate.py says why); a config
            # built in Python is refused here: a joker has no suit or rank of its own.
            raise VariantError(
                f"{v.name}: a pack with jokers needs a trick-taking game with trumps in "
                "every hand and a trump order that ranks each joker"
            )
        self.plain_follow = (
            first == (CardTerm(TermKind.SUIT_LED),)
            and self.first_trick is None
            and not self.ranked
            and not self.card_powers
        )
        if self.copies:
            self.plain_follow = False  # its fast path reads one pack's 13-bit suits
        self.free_void = self.plain_follow and p.follow == FOLLOW_SUIT
        self.free_lead = self.lead is None
        # The end of a trick gives the winner's free lead inline (one pack only).
        self.free_lead_inline = self.free_lead and not self.copies
        self.first_trick_free = self.first_trick is None

    def _compile_breaks(self, v: Variant) -> None:
        """Broken suits: whether they are tracked, and what breaks them."""
        p = v.play
        # Broken suits are tracked only when a list bars unbroken suits.
        self.track_breaks = any(
            t.unbroken
            for choice in (p.follow, p.lead, p.first_trick)
            for option in choice.options
            for t in option.terms
        )
        self.break_any = BreakTrigger.ANY_PLAY in p.broken_by
        self.break_void = BreakTrigger.VOID_PLAY in p.broken_by
        self.break_forced = BreakTrigger.FORCED_LEAD in p.broken_by
        # Card -> the other suits (a 4-bit set) it breaks too (``breaking cards:``).
        extra = [0] * (ID_LIMIT if self.copies else len(CARDS))
        for k, s in p.also_breaks:
            for copy in range(self.packs):
                extra[int(k) + 64 * copy] |= 1 << int(s)
        self.break_extra: tuple[int, ...] = tuple(extra)

    def _compile_shedding(self, v: Variant) -> None:
        """The shedding game: the loser, cuts, taking a neighbour's hand, the
        end when all are out and dead tricks."""
        sh = v.shedding
        self.first_out_ends = sh.loser is ShedLoser.MOST_CARDS
        self.loser_tie_first_in_turn = sh.loser_tie is LoserTie.FIRST_IN_TURN
        self.first_trick_cuts = sh.first_trick_cuts
        # Taking a neighbour's hand before a lead: 0 never, 1 the next player, 2 the previous.
        self.take_hand = (
            0
            if self.tricks_mode or sh.take_hand is TakeHand.NONE
            else (1 if sh.take_hand is TakeHand.NEXT else 2)
        )
        self.all_out_leader_loses = v.shedding.all_out is EndWhenAllOut.LAST_LEADER
        self.dead_face_up = v.shedding.dead_tricks is DeadTricks.FACE_UP

    def _compile_scoring(self, v: Variant) -> None:
        """The scoring: the formulas, counters, teams and card points."""
        self.formula = v.scoring.formula
        # A formula whose values are always whole numbers keeps every running
        # total within bounds (the parser bounds each value; a game has at most
        # 2,000 hands). Only one that can give fractions needs its totals checked
        # before a hand is scored (score._check_hand_score, as its last trick ends).
        self.team_formula = v.scoring.team_formula
        self.counters: tuple[tuple[str, Any], ...] = tuple(
            (c.name, c.formula) for c in v.scoring.counters
        )
        self.counter_names: tuple[str, ...] = tuple(name for name, _ in self.counters)
        # The cases of the score the file names (``case``): the score phase
        # records the words of each hand's cases; a game without them never looks.
        self.score_cases: tuple[ScoreCase, ...] = v.cases
        self.teams: tuple[tuple[int, ...], ...] = v.teams
        # The seat's team number, for each seat of a game with teams.
        self.team_index: tuple[int, ...] = tuple(
            k for s in range(sum(map(len, v.teams))) for k, t in enumerate(v.teams) if s in t
        )
        # Scoring by team (engine/phases/team_score.py): only games with teams, a team score
        # or counters; the others score seat by seat, as before.
        self.team_scoring = (
            bool(v.teams)
            or self.team_formula is not None
            or bool(self.counters)
            or bool(_uses(self.formula) & CONTRACT_VARIABLES)
        )
        self._solo: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.score_guard = any(
            f is not None
            and (getattr(f, "expr", None) is None or not _whole_valued(getattr(f, "expr", None)))
            for f in (self.formula, self.team_formula)
        )
        self.higher_wins = v.scoring.higher_wins
        # Card points, as (points, mask of the cards worth them) for each value
        # other than 0; empty when the cards carry no points (no work then).
        # (A kind of special card given points: every card of the kind;
        # points_of_cards.)
        cp = points_of_cards(v)
        self.points_view = cp
        self.card_points: tuple[tuple[int, int], ...] = tuple(
            (value, sum(1 << k for k in range(len(cp)) if cp[k] == value))
            for value in sorted(set(cp) - {0})
        )
        # The questions the formulas ask about the cards taken (``took J♦``,
        # ``cards taken of clubs``), each once, as (its name in the formulas' values,
        # its code, its cards, anyone); empty when none is asked (no work then).
        from cardrules.scoring import format_expr

        questions: dict[tuple[str, int, int, bool], None] = {}
        for f in (self.formula, self.team_formula, *(f for _, f in self.counters)):
            for q in getattr(f, "questions", tuple)():
                questions[(format_expr(q), _QUESTION_CODES[q.question], q.mask, q.anyone)] = None
        self.card_questions: tuple[tuple[str, int, int, bool], ...] = tuple(questions)
        # With the questions the file's cases ask (``case "moon with the jack":
        # took J♦ and ...``): answered for a hand's record only, when a case asks one.
        asked = {q for case in v.cases for q in case.when.questions()}
        for q in asked:
            questions[(format_expr(q), _QUESTION_CODES[q.question], q.mask, q.anyone)] = None
        self.case_questions: tuple[tuple[str, int, int, bool], ...] = (
            tuple(questions) if asked else ()
        )

    def _compile_winning(self, v: Variant) -> None:
        """The end of the game: the target, knock-outs, tie-break hands and
        the schedule's whole-pack deal."""
        self.target = v.winning.target
        # Only the declarer's side ends the game by reaching the target, and wins.
        self.target_by_declarer = v.winning.target_by_declarer
        # A total fallen to this or below ends the game too (``lose at:``).
        self.lose_at = v.winning.lose_at
        # Elimination (``knocked out:``): after each hand, a seat still in that took
        # fewer tricks than this is out of the later hands; 0: nobody ever is (and
        # the engine does none of that work).
        self.knockout = v.winning.knockout_below if self.tricks_mode else 0
        self.last_one_in = v.winning.last_one_in and self.knockout > 0
        self.tie_extra = v.winning.tie is TieBreak.EXTRA_HANDS
        self.max_extra = v.winning.extra_hand_limit
        # After the file's own limit the win is shared; after the safety bound
        # (no limit in the file) the game ends unfinished.
        self.share_after_extra = v.winning.max_extra_hands is not None
        self.whole_pack = v.schedule.pattern is Pattern.WHOLE_PACK

    def _compile_passing(self, v: Variant) -> None:
        """The pass of cards, and the settings it cannot be played with."""
        t = v.trumps
        b = v.bidding
        # Passing (``pass:``): the flag the hand's start reads; nothing else
        # changes for a game without it.
        ps = v.passing
        self.pass_count = ps.count
        self.pass_cycle: tuple[PassTo, ...] = ps.cycle
        self.passing = ps.count > 0 and any(to is not PassTo.NONE for to in ps.cycle)
        if (ps.count or ps.cycle) and (
            type(ps.count) is not int
            or not 1 <= ps.count <= 13
            or not self.passing
            or not all(isinstance(to, PassTo) for to in ps.cycle)
        ):
            raise VariantError(
                f"{v.name}: a pass is 1 to 13 cards with a cycle of directions "
                "(left, right, across, none) that is not all none"
            )
        if self.passing and self.knockout:
            raise VariantError(
                f"{v.name}: cards cannot be passed in a game that knocks players out "
                "(a knocked-out seat holds no cards to pass or receive)"
            )
        if self.passing and t.namer is not TrumpNamer.NOBODY:
            raise VariantError(
                f"{v.name}: cards cannot be passed in a game where a player chooses trumps"
            )
        if self.passing and (b.blind or b.forehead_sizes) and self.bid_style:
            raise VariantError(
                f"{v.name}: players choose the cards they pass from their hands, so they "
                "cannot bid blind or without seeing their cards"
            )

    def _compile_trumps(self, v: Variant) -> None:
        """The trumps: turned up, the dealer's card, a player's choice of
        trumps, going and defending alone."""
        t = v.trumps
        self.turn_up_any = t.kind is TrumpKind.TURN_UP
        # A player's choice of trumps (see engine/phases/trumps.py): 0 nobody, 1 the
        # highest bidder, 2 the previous hand's winner of most tricks, 3 order-up.
        self.trump_namer = _NAMER_CODES[t.namer]
        self.turn_up_all = (
            self.turn_up_any and not t.no_trump_every and t.namer is not TrumpNamer.MOST_TRICKS
        )
        self.dealers_card = t.kind is TrumpKind.DEALERS_CARD
        self.name_no_trumps = t.name_no_trumps
        self.stick_dealer = t.stick_dealer
        self.going_alone = t.going_alone and t.namer is TrumpNamer.ORDER_UP and bool(v.teams)
        self.defend_alone = self.going_alone and t.defend_alone
        self.keep_turned = t.keep_turned
        # A joker turned up for trumps (``special turned up: jokers, ...``): read
        # only when the turned card is a joker (52 or 53), so other games never look.
        tj = t.turned_joker
        self.turned_joker = (
            -2
            if tj is None or not jokers_turned(v)
            else TURNED_JOKER_DEALER_NAMES
            if tj is TurnedSpecial.DEALER_NAMES
            else TURNED_JOKER_NO_TRUMPS
            if tj is TurnedSpecial.NO_TRUMPS
            else int(tj)
        )
        self.namer_cut = t.namer_tie is NamerTie.CUT
        # The kitty the declarer takes and discards into (``kitty:``): its size
        # (0: none) and whether the discards count as a trick for the declarer.
        bidder_names = t.namer is TrumpNamer.HIGHEST_BIDDER
        self.kitty = t.kitty if bidder_names else 0
        # The declarer may declare misère instead of trumps (``misère: yes``).
        self.misere = t.misere and bidder_names
        self.kitty_trick = t.kitty_trick and self.kitty > 0
        # Uptown or downtown, declared by the highest bidder (``downtown:``):
        # 0 never, 1 downtown with the ace high, 2 with the ace low.
        self.downtown = (
            0
            if t.downtown is DowntownRule.NO or t.namer is not TrumpNamer.HIGHEST_BIDDER
            else (1 if t.downtown is DowntownRule.ACE_HIGH else 2)
        )
        uses = getattr(self.formula, "uses", None)
        self.maker_vars = bool(
            self.trump_namer and uses is not None and set(uses()) & MAKER_VARIABLES
        )

    def _check_bids(self, v: Variant) -> None:
        """Refuse bounds of the bids that no bid can meet."""
        b = v.bidding
        t = v.trumps
        if b.max_bid is not None and b.max_bid < b.min_bid:
            raise VariantError(
                f"{v.name}: the largest bid ({b.max_bid}) is below the smallest ({b.min_bid})"
            )
        if b.min_bid < 0:
            raise VariantError(f"{v.name}: the smallest bid may not be negative ({b.min_bid})")
        if t.kind is TrumpKind.FIXED and t.suit is None and not t.no_trump_every:
            pass  # a fixed "no trump" game: allowed, every hand without trumps

    def geometry(
        self, players: int
    ) -> tuple[tuple[int, ...], int, tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """(hand sizes, largest, next seat, seats from each dealer's neighbour
        round to the dealer) for ``players`` players, checked once and cached."""
        hit = self._geometry.get(players)
        if hit is not None:
            return hit
        v = self.variant
        if type(players) is not int:
            raise ValueError(f"players must be an int, got {players!r}")
        if players not in v.players:
            lo, hi = v.players.min, v.players.max
            allowed = count_range(lo, hi, "player")
            raise VariantError(
                f"{v.name} is for {allowed}, not {players}",
                code="bad_player_count",
                data={"value": players},
            )
        if players < 2:
            raise VariantError(
                f"a game needs at least 2 players, not {players}",
                code="bad_player_count",
                data={"value": players},
            )
        sizes = v.hand_sizes(players)
        pack_size = len(self.pack)
        if not sizes:
            raise VariantError(
                f"{v.name}: the schedule has no hands for {players} players",
                code="bad_player_count",
                data={"value": players},
            )
        for i, s in enumerate(sizes):
            if s < 1:
                raise VariantError(
                    f"{v.name}: hand {i + 1} would deal {_cards(s)} each to {players} players",
                    code="bad_player_count",
                )
            if s * players > pack_size and not (self.whole_pack and not self.tricks_mode):
                raise VariantError(
                    f"{v.name}: hand {i + 1} needs {_cards(s)} each for {players} players, "
                    f"{s * players} in all, but the pack has {pack_size}",
                    code="bad_player_count",
                )
        if self.passing:
            if PassTo.ACROSS in self.pass_cycle and players % 2:
                raise VariantError(
                    f"{v.name}: nobody sits across the table at a table of {players}: "
                    "`across` needs an even number of players",
                    code="bad_player_count",
                )
            if self.pass_count > min(sizes):
                raise VariantError(
                    f"{v.name}: each player passes {_cards(self.pass_count)}, but some "
                    f"hands for {players} players have only {_cards(min(sizes))}",
                    code="bad_player_count",
                )
        step = 1 if self.clockwise else -1
        n = players
        nxt = tuple((s + step) % n for s in range(n))
        order = tuple(tuple((d + step * k) % n for k in range(1, n + 1)) for d in range(n))
        geo = (sizes, max(sizes), nxt, order)
        self._geometry[players] = geo
        return geo

    def for_players(self, players: int) -> _Rules:
        """The rules of a game of ``players`` players: these, or, when the pack
        takes some cards out for that number only, the rules compiled with that
        pack (the same variant and fingerprint)."""
        if not self.pack_by_players:
            return self
        hit = self._for_players.get(players)
        if hit is None:
            v = self.variant.for_players(players)
            d = v.deck
            out = d.removed | d.removed_for_players(players)
            hit = _Rules(v.evolve(deck=attrs.evolve(d, removed=out, removed_for=())))
            hit.variant = v
            hit._fingerprint = self.fingerprint
            if len(self._for_players) < 64:
                self._for_players[players] = hit
        return hit

    def for_hand(self, situation: HandSituation) -> _Rules:
        """The rules of one hand of a game with lines under a condition on the
        hand: these rules with the lines that hold in ``situation`` made
        (compiled once per distinct set of lines; the same variant, fingerprint
        and geometry)."""
        base = self.hand_base
        lines = base.variant.hand_lines(situation)
        hit = base._for_hand.get(lines)
        if hit is None:
            v = base.variant
            hv = v.for_hand(situation)
            hit = _Rules(hv.evolve(deck=base.compiled_deck))
            hit.variant = v
            hit._fingerprint = base.fingerprint
            hit._geometry = base._geometry
            hit.by_hand = True
            hit.hand_base = base
            if len(base._for_hand) < 256:
                base._for_hand[lines] = hit
        return hit

    def pass_offset(self, hand_number: int, players: int) -> int:
        """How many seats along, in the direction of play, a seat's passed cards go
        in hand ``hand_number`` (from 1): 1 left, ``players - 1`` right,
        ``players // 2`` across; 0 when the hand has no pass."""
        if not self.passing:
            return 0
        to = self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]
        if to is PassTo.LEFT:
            return 1
        if to is PassTo.RIGHT:
            return players - 1
        if to is PassTo.ACROSS:
            return players // 2
        return 0

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = variant_fingerprint(self.variant)
        return self._fingerprint

    def bid_range(self, size: int) -> tuple[int, int]:
        """The smallest and largest bid of a ``size``-card hand (``bids: N to M``,
        the largest at most the hand size, the smallest at most the largest):
        the one place the range is worked out, for the legal bids, the reasons
        a bid is refused and :attr:`View.bid_range
        <cardrules.engine.views.view.View.bid_range>`."""
        hi = size if self.max_bid is None else min(self.max_bid, size)
        return min(self.min_bid, hi), hi

    def teams_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams of a game of ``players`` (without teams: each seat alone)."""
        if self.teams:
            return self.teams
        hit = self._solo.get(players)
        if hit is None:
            hit = self._solo[players] = tuple((s,) for s in range(players))
        return hit

    def card_points_of(self, mask: int) -> int:
        """The card points of the cards of ``mask``."""
        return sum(value * (mask & m).bit_count() for value, m in self.card_points)

    def card_answers(
        self,
        own: int,
        each: Sequence[int],
        questions: tuple[tuple[str, int, int, bool], ...] | None = None,
    ) -> tuple[tuple[str, int | bool], ...]:
        """The answers to the formulas' questions about the cards taken, each
        with its name in the formulas' values (see :attr:`card_questions`).

        Args:
            own: the cards the player (or, for a team formula, the team) took.
            each: the cards each player (or team) took, for ``anyone took``.
            questions: the questions to answer (default: the formulas',
                :attr:`card_questions`; a hand's record answers
                :attr:`case_questions`).
        """
        played = 0
        for taken in each:
            played |= taken
        answers: list[tuple[str, int | bool]] = []
        for name, code, mask, anyone in self.card_questions if questions is None else questions:
            value: int | bool
            if code == _POINTS_OF:
                value = self.card_points_of(own & mask)
            elif code == _CARDS_OF:
                value = (own & mask).bit_count()
            else:
                sides = each if anyone else (own,)
                if code == _TOOK_ANY:
                    value = any(side & mask for side in sides)
                else:  # took (one card), took all: all of them that were played
                    wanted = mask & played
                    value = wanted != 0 and any(side & wanted == wanted for side in sides)
            answers.append((name, value))
        return tuple(answers)

    def points(
        self,
        bid: int,
        tricks: int,
        cards: int,
        hand: int,
        players: int,
        blind: bool,
        taken: tuple[int, int, int] | None = None,
        made: tuple[bool, int] | None = None,
        answers: tuple[tuple[str, int | bool], ...] = (),
    ) -> Num:
        """One seat's points for one hand: an int when whole (fast to add), else a Fraction.

        Args:
            bid: the seat's bid (0 without bidding).
            tricks: the tricks it took.
            cards: the cards dealt to each player.
            hand: the hand number, from 1.
            players: the number of players.
            blind: whether it bid blind.
            taken: with card points, (the seat's points, everyone's, the most
                one seat took); ``None`` without them.
            made: when the formula reads who made trumps, (whether this seat
                made them, the tricks the maker took); ``None`` otherwise.
            answers: the answers to the formula's questions about the cards
                taken (:meth:`card_answers`); ``()`` when it asks none.

        Raises:
            ScoreError: if the formula cannot be worked out (a number too large,
                or any other failure), with the variant's name and the hand.
        """
        key: tuple[int | bool, ...] = (bid, tricks, cards, hand, players, blind)
        if taken is not None:
            key += taken
        if made is not None:
            key += made
        if answers:
            key += tuple(value for _, value in answers)
        hit = self.score_cache.get(key)
        if hit is not None:
            return hit
        value: Num
        if self.formula is None:
            value = 10 + bid if bid == tricks else 0
        else:
            pts, all_pts, most = (0, 0, 0) if taken is None else taken
            extra: dict[str, int | bool] = {}
            if made is not None:
                extra = {"maker": made[0], "maker_tricks": made[1]}
            env = self.env(
                bid=bid,
                tricks=tricks,
                cards=cards,
                hand=hand,
                players=players,
                blind=blind,
                points=pts,
                all_points=all_pts,
                most_points=most,
                **extra,
            )
            if answers:
                env = {**env, **dict(answers)}
            text = str(getattr(self.formula, "text", self.formula))
            try:
                f = Fraction(self.formula.evaluate(env))
            except ScoreError as exc:
                raise ScoreError(
                    f"{self.variant.name}, hand {hand}: {exc.message}", formula=text
                ) from None
            except (ArithmeticError, ValueError, TypeError, RecursionError, MemoryError) as exc:
                raise ScoreError(
                    f"{self.variant.name}, hand {hand}: the score formula {text[:80]!r} "
                    f"cannot be worked out for bid {bid}, tricks {tricks}, {_cards(cards)}, "
                    f"{players} players: {type(exc).__name__}: {exc}",
                    formula=text,
                ) from None
            value = f.numerator if f.denominator == 1 else f
        if len(self.score_cache) > 100_000:
            self.score_cache.clear()
        self.score_cache[key] = value
        return value


_COMPILED: dict[int, tuple[Variant, _Rules]] = {}


def _compile(v: Variant) -> _Rules:
    hit = _COMPILED.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1]
    if not isinstance(v, Variant):
        raise TypeError(f"Game needs a cardrules Variant, got {type(v).__name__}")
    r = _Rules(v)
    if len(_COMPILED) > 256:
        _COMPILED.clear()
    _COMPILED[id(v)] = (v, r)
    return r


#: ``Fraction(k)`` of the ints met so far (at most :data:`_FRACTIONS_KEPT`):
#: a Fraction costs about a microsecond to build, and the totals of a result,
#: a view or :attr:`Game.scores` are mostly the same few small ints. Fractions
#: are immutable, so one may be shared.
_FRACTIONS: Final[dict[int, Fraction]] = {}
_FRACTIONS_KEPT: Final = 4096


def _fractions(values: tuple[Num, ...] | list[Num]) -> tuple[Fraction, ...]:
    """``tuple(map(Fraction, values))``, with the Fractions of ints kept."""
    out: list[Fraction] = []
    kept = _FRACTIONS
    for x in values:
        if type(x) is int:
            f = kept.get(x)
            if f is None:
                f = Fraction(x)
                if len(kept) < _FRACTIONS_KEPT:
                    kept[x] = f
            out.append(f)
        else:
            out.append(Fraction(x))
    return tuple(out)
