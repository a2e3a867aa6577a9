"""Actions: the typed, hashable, interned moves a seat can make.

Every action has a stable integer id, so that search and learning code can
work with plain ints:

=============  =====================================
ids            action
=============  =====================================
0-51           ``Play(card)`` (the card's number)
52-104         ``Bid(n)`` for n = 0..52
105-157        ``Bid(n, blind=True)`` for n = 0..52
158            ``Look()``: look at your cards (blind-bidding games)
159-211        ``Amend(n)``: change your bid to n (games with ``amend``)
212-263        ``Pass(card)``: choose a card to pass (games with ``pass:``)
264-267        ``Name(suit)``: name a trump suit (``Name(Suit.CLUBS)`` is 264)
268            ``Name(None)``: name no trumps
269            ``OrderUp()``: order up the turned card (make its suit trumps)
270            ``Decline()``: pass: refuse the turned card, or name nothing
271-322        ``Discard(card)``: the dealer discards a card face down
323            ``Take()``: take a neighbour's hand (shedding games
               with ``take a hand from:``)
324            ``Alone()``: the maker of trumps plays alone
               (games with ``going alone: yes``)
325            ``WithPartner()``: the maker plays with its partner
326-327        ``Play(card)`` of the little (``LJ``) and the big
               joker (``BJ``), in a pack with jokers
328-329        ``Pass(card)`` of the little and the big joker
330-331        ``Discard(card)`` of the little and the big joker
332            ``Keep()``: keep a hand the rules would let you show
               (games with ``redeal: ... may be shown``)
333            ``Show()``: show it, so that the deal is thrown in
334-335        ``Downtown(low)``: the declarer plays the ranks as
               usual (``uptown``) or reversed (``downtown``), in
               games with ``downtown:``
336            ``Misere()``: the highest bidder declares misère
               (games with ``misère:``)
400-429        ``Play``, ``Pass`` and ``Discard`` of the special cards
               ``X1``-``X10`` (cards 54-63), in a pack with special
               cards: outside ``NUM_ACTIONS``, so that the action space of
               every other game is unchanged
430-499        ``Contract(level, strain)``: a bid of a level (0 to 13)
               in a strain (the four suits by number, then no
               trumps), in games with ``bids: ... in ...``: id
               ``430 + 5 * level + strain``, outside ``NUM_ACTIONS``
500-501        ``Contract`` misère and open misère, bids of the
               auction (``misère: a bid above ...``, ``open misère:
               a bid above ...``)
=============  =====================================

``Play(card).id`` is the card's number for the standard 52 cards only: the
jokers (cards 52 and 53) take ids after every other block, so that the ids of
the standard cards' actions stay what they were before jokers existed.

Actions are interned: ``Play(card("A♠")) is Play(card("A♠"))``, so identity,
equality and hashing are all cheap.

Examples:
    >>> from cardrules.engine.actions import Action, Bid, Play
    >>> Play("A♠").id, Bid(2).id, Action.from_id(54)
    (51, 54, Bid(2))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cardrules.cards import (
    CARDS,
    MAX_CONTRACT_LEVEL,
    MISERE_STRAIN,
    NO_TRUMPS_STRAIN,
    OPEN_MISERE_STRAIN,
    STRAIN_WORDS,
    Card,
    Suit,
    card,
)
from cardrules.errors import CardError, InvalidAction

if TYPE_CHECKING:
    from cardrules.rules import Variant

__all__ = [
    "ALONE_ID",
    "AMEND_BASE",
    "BID_BASE",
    "BLIND_BASE",
    "CONTRACT_BASE",
    "CONTRACT_END",
    "DECLINE_ID",
    "DISCARD_BASE",
    "DOWNTOWN_BASE",
    "JOKER_BASE",
    "KEEP_ID",
    "LOOK_ID",
    "MAX_BID",
    "MISERE_ID",
    "NAME_NO_TRUMPS_ID",
    "NUM_ACTIONS",
    "ORDER_UP_ID",
    "PASS_BASE",
    "SHED_BASE",
    "SHOW_ID",
    "SPECIAL_ACTION_BASE",
    "SPECIAL_ACTION_END",
    "TAKE_ID",
    "TRUMP_BASE",
    "WITH_PARTNER_ID",
    "Action",
    "Alone",
    "Amend",
    "Bid",
    "Contract",
    "Decline",
    "Discard",
    "Downtown",
    "Keep",
    "Look",
    "Misere",
    "Name",
    "OrderUp",
    "Pass",
    "Play",
    "Show",
    "Take",
    "WithPartner",
    "contract_bid",
    "is_action_id",
    "mask_ids",
    "num_actions_of",
]

#: The largest bid any action can carry (a whole pack to one player).
MAX_BID: Final = 52
BID_BASE: Final = 52
BLIND_BASE: Final = BID_BASE + MAX_BID + 1
LOOK_ID: Final = BLIND_BASE + MAX_BID + 1
AMEND_BASE: Final = LOOK_ID + 1
#: ``Pass(card)`` is ``PASS_BASE + int(card)``.
PASS_BASE: Final = AMEND_BASE + MAX_BID + 1
#: The trump-choice block: ``Name(suit)`` for each suit, then ``Name(None)``.
TRUMP_BASE: Final = PASS_BASE + 52
NAME_NO_TRUMPS_ID: Final = TRUMP_BASE + 4
ORDER_UP_ID: Final = NAME_NO_TRUMPS_ID + 1
DECLINE_ID: Final = ORDER_UP_ID + 1
DISCARD_BASE: Final = DECLINE_ID + 1
#: The first id of the shedding games' actions (after the choice of trumps).
SHED_BASE: Final = DISCARD_BASE + 52
#: ``Take()``: take every card of a neighbour (``take a hand from:``).
TAKE_ID: Final = SHED_BASE
#: ``Alone()`` and ``WithPartner()``: the maker's choice (``going alone:``).
ALONE_ID: Final = TAKE_ID + 1
WITH_PARTNER_ID: Final = ALONE_ID + 1
#: ``Play``, ``Pass`` and ``Discard`` of the two jokers (cards 52 and 53), in
#: that order: ``Play(LJ)`` is ``JOKER_BASE``, ``Discard(BJ)`` ``JOKER_BASE + 5``.
JOKER_BASE: Final = WITH_PARTNER_ID + 1
#: ``Keep()`` and ``Show()``: a hand the rules let its holder show to have the
#: deal thrown in (``redeal: ... may be shown``), kept or shown.
KEEP_ID: Final = JOKER_BASE + 6
SHOW_ID: Final = KEEP_ID + 1
#: ``Downtown(False)`` (uptown) and ``Downtown(True)`` (downtown).
DOWNTOWN_BASE: Final = SHOW_ID + 1
#: ``Misere()``: the declarer's misère instead of trumps (``misère:``).
MISERE_ID: Final = DOWNTOWN_BASE + 2
#: The number of distinct action ids (ids run from 0 to ``NUM_ACTIONS - 1``) of
#: every game whose pack has no special card (54-63).
NUM_ACTIONS: Final = MISERE_ID + 1
#: ``Play``, ``Pass`` and ``Discard`` of the special cards 54-63 (``X1``-``X10``),
#: ten ids each: ``Play(X1)`` is ``SPECIAL_ACTION_BASE``.
SPECIAL_ACTION_BASE: Final = 400
SPECIAL_ACTION_END: Final = SPECIAL_ACTION_BASE + 30
#: ``Contract(level, strain)``: ``CONTRACT_BASE + 5 * level + strain`` (strain 0-3
#: the suits, 4 no trumps); then misère and open misère.
CONTRACT_BASE: Final = SPECIAL_ACTION_END
CONTRACT_END: Final = CONTRACT_BASE + 5 * (MAX_CONTRACT_LEVEL + 1) + 2


def is_action_id(action_id: object) -> bool:
    """Whether ``action_id`` is the id of an action: 0 to ``NUM_ACTIONS - 1``, or
    one of the special cards' (``SPECIAL_ACTION_BASE`` to ``SPECIAL_ACTION_END - 1``)."""
    return type(action_id) is int and (
        0 <= action_id < NUM_ACTIONS or SPECIAL_ACTION_BASE <= action_id < CONTRACT_END
    )


def mask_ids(mask: int) -> list[int]:
    """The ids of a mask of actions (:meth:`Game.legal_mask
    <cardrules.engine.game.Game.legal_mask>`), ascending: bit ``i`` set is id ``i``.

    Example:
        >>> mask_ids(0b1010), mask_ids(0)
        ([1, 3], [])
    """
    out: list[int] = []
    while mask > 0:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def num_actions_of(variant: Variant) -> int:
    """The size of ``variant``'s action space (one more than its largest action
    id): ``NUM_ACTIONS``, widened to the special cards' ids for a pack with
    special cards and to the contract bids' for an auction of contracts, so
    that every other game's space is unchanged."""
    if variant.bidding.strains:
        return CONTRACT_END
    return SPECIAL_ACTION_END if variant.deck.specials else NUM_ACTIONS


class Action:
    """Base class of every action. Subclasses are interned singletons.

    Attributes:
        id: the stable integer id of the action (see the module docs).
    """

    __slots__ = ("id",)
    id: int

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Action) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Action.from_id, (self.id,))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self

    @property
    def label(self) -> str:
        """A short human-readable label, such as ``play A♠`` or ``bid 2``."""
        raise NotImplementedError

    @staticmethod
    def from_id(action_id: int) -> Action:
        """The action with the given id.

        Args:
            action_id: an int from 0 to ``NUM_ACTIONS - 1``.

        Raises:
            InvalidAction: if ``action_id`` is not an int in range.
        """
        if type(action_id) is not int or not (
            0 <= action_id < NUM_ACTIONS or SPECIAL_ACTION_BASE <= action_id < CONTRACT_END
        ):
            shown = _shown(action_id)
            raise InvalidAction(
                f"action id must be an int from 0 to {NUM_ACTIONS - 1}, got {shown}",
                code="bad_action",
                data={"value": shown},
            )
        if action_id >= CONTRACT_BASE:
            return _CONTRACTS[action_id - CONTRACT_BASE]
        if action_id >= SPECIAL_ACTION_BASE:
            return _SPECIAL_BY_ID[action_id - SPECIAL_ACTION_BASE]
        return _BY_ID[action_id]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"id": ..., "label": ...}`` (the id decides; the label
        is for people).

        Example:
            >>> Play("A♠").to_dict()
            {'id': 51, 'label': 'play A♠'}
        """
        return {"id": self.id, "label": self.label}

    @classmethod
    def from_dict(cls, data: object) -> Action:
        """The action of a :meth:`to_dict` form (untrusted input).

        The id decides; a label given with it must be that action's. Called on
        a subclass (``Play.from_dict(...)``), the action must be of that kind.

        Raises:
            InvalidAction: (code ``bad_action``) if ``data`` is not such an object.

        Example:
            >>> Action.from_dict({"id": 51}), Bid.from_dict({"id": 54, "label": "bid 2"})
            (Play('A♠'), Bid(2))
        """
        if not isinstance(data, dict):
            raise InvalidAction(
                f"an action is an object with an id, not {type(data).__name__}",
                code="bad_action",
                data={"value": type(data).__name__},
            )
        aid = data.get("id")
        if type(aid) is not int:
            raise InvalidAction(
                "an action object needs an int 'id'", code="bad_action", data={"value": _shown(aid)}
            )
        action = Action.from_id(aid)
        label = data.get("label")
        if label is not None and label != action.label:
            shown = _shown(label)
            raise InvalidAction(
                f"action {aid} is {action.label!r}, not {shown}",
                code="bad_action",
                data={"value": shown, "id": aid},
            )
        if not isinstance(action, cls):
            raise InvalidAction(
                f"action {aid} ({action.label}) is not a {cls.__name__}",
                code="bad_action",
                data={"value": aid},
            )
        return action


def _shown(x: object) -> str:
    """A short, safe text of a bad value (never a 5,000-digit repr)."""
    if type(x) is int and x.bit_length() > 64:
        return f"an int of {x.bit_length():,} bits"
    if isinstance(x, str):
        return repr(x) if len(x) <= 30 else repr(x[:27] + "...")
    if isinstance(x, int | float | bool | type(None)):
        return repr(x)
    return type(x).__name__


def _new(cls: type[Action], action_id: int, **attrs: object) -> Any:
    obj = object.__new__(cls)
    object.__setattr__(obj, "id", action_id)
    for k, v in attrs.items():
        object.__setattr__(obj, k, v)
    return obj


def _card_id(kind: str, c: object, example: str) -> int:
    """The number of the card an action of ``kind`` names (a Card, 0-63, or text
    :func:`~cardrules.cards.card` reads); InvalidAction saying so if it is none."""
    if isinstance(c, str):
        try:
            c = card(c)
        except CardError as e:
            raise InvalidAction(
                f"{kind} needs a card: {e}", code="bad_card", data={"value": _shown(c)}
            ) from None
    if type(c) is Card or (type(c) is int and 0 <= c < 64):
        # A copy of a card (several packs) names its card: the action plays the copy held.
        return int(c) & 63
    shown = _shown(c)
    raise InvalidAction(
        f"{kind} needs a card (0-63: 52 and 53 the jokers, 54-63 the special cards; or "
        f"text like '{example}'), got {shown}",
        code="bad_action",
        data={"value": shown},
    )


class Play(Action):
    """Play a card: ``Play(card("A♠"))``, ``Play("A♠")`` or ``Play(51)``.

    Attributes:
        card: the card played.
    """

    __slots__ = ("card",)
    card: Card

    def __new__(cls, c: Card | int | str) -> Play:
        """Return the interned action for playing card ``c``.

        Raises:
            InvalidAction: if ``c`` is not a card.
        """
        return _PLAYS[_card_id("Play", c, "A♠")]

    @property
    def label(self) -> str:
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Play('{self.card}')"


class Bid(Action):
    """Bid ``n`` tricks; ``blind=True`` for a bid made without looking at the cards.

    Attributes:
        n: the number of tricks bid.
        blind: True for a blind bid.
    """

    __slots__ = ("blind", "n")
    n: int
    blind: bool

    def __new__(cls, n: int, blind: bool = False) -> Bid:
        """Return the interned bid action.

        Raises:
            InvalidAction: if ``n`` is not an int from 0 to 52.
        """
        if type(n) is not int or not 0 <= n <= MAX_BID:
            shown = _shown(n)
            raise InvalidAction(
                f"a bid must be a whole number from 0 to {MAX_BID}, got {shown}",
                code="bad_action",
                data={"value": shown},
            )
        return (_BLIND_BIDS if blind else _BIDS)[n]

    @property
    def label(self) -> str:
        return f"bid {self.n} blind" if self.blind else f"bid {self.n}"

    def __repr__(self) -> str:
        return f"Bid({self.n}, blind=True)" if self.blind else f"Bid({self.n})"


class Contract(Action):
    """A bid of an auction of contracts (``bids: 6 to 10 in clubs, ...``): a
    level in a strain, ``Contract(7, Suit.DIAMONDS)`` or ``Contract(6, None)`` for
    no trumps, or a misère (``Contract(0, "misère")``, ``Contract(0, "open
    misère")``; their level is 0). The winning bid is the hand's contract: its
    strain makes trumps (or no trumps, or the misère) with no naming step.

    Attributes:
        level: the number of tricks bid (0 for a misère).
        strain: 0-3 the suit (``Suit``'s number), 4 no trumps, 5 misère, 6 open
            misère.

    Example:
        >>> from cardrules.cards import Suit
        >>> Contract(7, Suit.DIAMONDS), Contract(7, Suit.DIAMONDS).id, Contract(6, None).label
        (Contract(7, Suit.DIAMONDS), 466, 'bid 6 no trumps')
    """

    __slots__ = ("level", "strain")
    level: int
    strain: int

    def __new__(cls, level: int, strain: Suit | str | None) -> Contract:
        """Return the interned contract bid.

        Raises:
            InvalidAction: if ``level`` is not an int from 0 to 13 or ``strain``
                not a suit, ``None``, ``"misère"`` or ``"open misère"``.
        """
        code = _strain_code(strain)
        if code >= MISERE_STRAIN:
            return _CONTRACTS[5 * (MAX_CONTRACT_LEVEL + 1) + code - MISERE_STRAIN]
        if type(level) is not int or not 0 <= level <= MAX_CONTRACT_LEVEL:
            shown = _shown(level)
            raise InvalidAction(
                f"a contract's level must be a whole number from 0 to {MAX_CONTRACT_LEVEL}, "
                f"got {shown}",
                code="bad_action",
                data={"value": shown},
            )
        return _CONTRACTS[5 * level + code]

    @property
    def suit(self) -> Suit | None:
        """The trump suit the contract makes (``None``: no trumps or a misère)."""
        return Suit(self.strain) if self.strain < NO_TRUMPS_STRAIN else None

    @property
    def misere(self) -> bool:
        """Whether the contract is a misère (open or not)."""
        return self.strain >= MISERE_STRAIN

    @property
    def label(self) -> str:
        if self.misere:
            return f"bid {STRAIN_WORDS[self.strain]}"
        return f"bid {self.level} {STRAIN_WORDS[self.strain]}"

    def __repr__(self) -> str:
        if self.misere:
            return f"Contract(0, {STRAIN_WORDS[self.strain]!r})"
        s = self.suit
        return f"Contract({self.level}, {'None' if s is None else 'Suit.' + s.name})"


def contract_bid(level: int, strain: int) -> Contract:
    """The contract bid of ``level`` in strain number ``strain`` (0-3 a suit's
    number, 4 no trumps; 5 and 6 the misères, whose level is 0); both in range."""
    if strain >= MISERE_STRAIN:
        return _CONTRACTS[5 * (MAX_CONTRACT_LEVEL + 1) + strain - MISERE_STRAIN]
    return _CONTRACTS[5 * level + strain]


def _strain_code(strain: object) -> int:
    """The strain number of ``strain`` (a suit, ``None`` for no trumps, or the
    words of a strain); InvalidAction if it is none."""
    if strain is None:
        return NO_TRUMPS_STRAIN
    if type(strain) is Suit:
        return int(strain)
    if isinstance(strain, str):
        w = strain.strip().lower().replace("misere", "misère")
        if w in STRAIN_WORDS:
            return STRAIN_WORDS.index(w)
        for x in Suit:
            if w in (x.symbol, x.word.rstrip("s")):
                return int(x)
    shown = _shown(strain)
    raise InvalidAction(
        f"a contract's strain is a suit, None (no trumps), 'misère' or 'open misère', got {shown}",
        code="bad_action",
        data={"value": shown},
    )


class Look(Action):
    """Look at your cards (blind-bidding games): after this, only open bids."""

    __slots__ = ()

    def __new__(cls) -> Look:
        """Return the singleton."""
        return _LOOK

    @property
    def label(self) -> str:
        return "look at cards"

    def __repr__(self) -> str:
        return "Look()"


class Amend(Action):
    """Change your bid to ``n`` (variants with ``amend``), before the next seat bids.

    Attributes:
        n: the new bid.
    """

    __slots__ = ("n",)
    n: int

    def __new__(cls, n: int) -> Amend:
        """Return the interned amendment.

        Raises:
            InvalidAction: if ``n`` is not an int from 0 to 52.
        """
        if type(n) is not int or not 0 <= n <= MAX_BID:
            shown = _shown(n)
            raise InvalidAction(
                f"an amended bid must be a whole number from 0 to {MAX_BID}, got {shown}",
                code="bad_action",
                data={"value": shown},
            )
        return _AMENDS[n]

    @property
    def label(self) -> str:
        return f"change bid to {self.n}"

    def __repr__(self) -> str:
        return f"Amend({self.n})"


class Take(Action):
    """Take every card of a neighbour instead of leading at once (shedding games
    with ``take a hand from:``): the neighbour is out and safe, and the taker
    then leads. Which neighbour is the variant's rule."""

    __slots__ = ()

    def __new__(cls) -> Take:
        """Return the singleton."""
        return _TAKE

    @property
    def label(self) -> str:
        return "take a neighbour's hand"

    def __repr__(self) -> str:
        return "Take()"


class Alone(Action):
    """The player who made trumps plays alone (games with ``going alone: yes``):
    its partners sit the hand out.

    Example:
        >>> import cardrules
        >>> cardrules.Alone(), cardrules.Alone().id, cardrules.WithPartner().id
        (Alone(), 324, 325)
        >>> cardrules.engine.Alone() is cardrules.Alone() is Alone()
        True
    """

    __slots__ = ()

    def __new__(cls) -> Alone:
        """Return the singleton."""
        return _ALONE

    @property
    def label(self) -> str:
        return "go alone"

    def __repr__(self) -> str:
        return "Alone()"


class WithPartner(Action):
    """The player who made trumps plays with its partners (games with
    ``going alone: yes``)."""

    __slots__ = ()

    def __new__(cls) -> WithPartner:
        """Return the singleton."""
        return _WITH_PARTNER

    @property
    def label(self) -> str:
        return "play with partner"

    def __repr__(self) -> str:
        return "WithPartner()"


class Keep(Action):
    """Keep a hand that the rules would let its holder show (``redeal: ... may be
    shown``): the deal stands, as far as this seat goes."""

    __slots__ = ()

    def __new__(cls) -> Keep:
        """Return the singleton."""
        return _KEEP

    @property
    def label(self) -> str:
        return "keep the hand"

    def __repr__(self) -> str:
        return "Keep()"


class Show(Action):
    """Show a hand that meets the ``redeal:`` condition to every player: the deal
    is thrown in and dealt again (``redeal: ... may be shown``)."""

    __slots__ = ()

    def __new__(cls) -> Show:
        """Return the singleton."""
        return _SHOW

    @property
    def label(self) -> str:
        return "show the hand"

    def __repr__(self) -> str:
        return "Show()"


class Pass(Action):
    """Choose a card to pass before the play (games with ``pass:``):
    ``Pass(card("Q♠"))``, ``Pass("Q♠")`` or ``Pass(50)``. Each seat chooses its
    cards one at a time; they change hands when every seat has chosen.

    Attributes:
        card: the card chosen.
    """

    __slots__ = ("card",)
    card: Card

    def __new__(cls, c: Card | int | str) -> Pass:
        """Return the interned action for passing card ``c``.

        Raises:
            InvalidAction: if ``c`` is not a card.
        """
        return _PASSES[_card_id("Pass", c, "Q♠")]

    @property
    def label(self) -> str:
        return f"pass {self.card}"

    def __repr__(self) -> str:
        return f"Pass('{self.card}')"


class Name(Action):
    """Name the trumps: ``Name(Suit.CLUBS)``, ``Name("clubs")``, or ``Name(None)``
    for no trumps (when the rules allow it).

    Attributes:
        suit: the suit named, or ``None`` for no trumps.
    """

    __slots__ = ("suit",)
    suit: Suit | None

    def __new__(cls, s: Suit | str | None) -> Name:
        """Return the interned action naming ``s``.

        Raises:
            InvalidAction: if ``s`` is not a suit (or ``None``).
        """
        if s is None:
            return _NAMES[4]
        if isinstance(s, str):
            for x in Suit:
                if s.strip().lower() in (x.word, x.symbol, x.word.rstrip("s")):
                    return _NAMES[x]
            raise InvalidAction(
                f"Name needs a suit such as 'clubs' or None, got {s[:30]!r}",
                code="bad_action",
                data={"value": _shown(s)},
            )
        if type(s) is Suit:
            return _NAMES[s]
        raise InvalidAction(
            f"Name needs a suit or None (no trumps), got {type(s).__name__}",
            code="bad_action",
            data={"value": type(s).__name__},
        )

    @property
    def label(self) -> str:
        return "name no trumps" if self.suit is None else f"name {self.suit.word}"

    def __repr__(self) -> str:
        return "Name(None)" if self.suit is None else f"Name(Suit.{self.suit.name})"


class Downtown(Action):
    """The declarer's choice of the ranks' direction (``downtown:``):
    ``Downtown(False)`` plays them as usual ("uptown"), ``Downtown(True)``
    reversed ("downtown").

    Attributes:
        low: True for downtown (the ranks reversed).
    """

    __slots__ = ("low",)
    low: bool

    def __new__(cls, low: bool) -> Downtown:
        """Return the interned action.

        Raises:
            InvalidAction: if ``low`` is not a bool.
        """
        if type(low) is not bool:
            raise InvalidAction(
                f"Downtown needs True (downtown) or False (uptown), got {_shown(low)}",
                code="bad_action",
                data={"value": _shown(low)},
            )
        return _DOWNTOWNS[low]

    @property
    def label(self) -> str:
        return "downtown" if self.low else "uptown"

    def __repr__(self) -> str:
        return f"Downtown({self.low})"


class Misere(Action):
    """The highest bidder declares misère (``misère: yes``): no trumps, its
    partners sit the hand out, and it must take no trick."""

    __slots__ = ()

    def __new__(cls) -> Misere:
        """Return the singleton."""
        return _MISERE

    @property
    def label(self) -> str:
        return "misère"

    def __repr__(self) -> str:
        return "Misere()"


class OrderUp(Action):
    """Order up the turned card: its suit is trumps, and the dealer takes it."""

    __slots__ = ()

    def __new__(cls) -> OrderUp:
        """Return the singleton."""
        return _ORDER_UP

    @property
    def label(self) -> str:
        return "order up"

    def __repr__(self) -> str:
        return "OrderUp()"


class Decline(Action):
    """Pass in the choice of trumps: refuse the turned card, or name no suit."""

    __slots__ = ()

    def __new__(cls) -> Decline:
        """Return the singleton."""
        return _DECLINE

    @property
    def label(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Decline()"


class Discard(Action):
    """The dealer, having taken the turned card, discards a card face down:
    ``Discard("9♠")`` or ``Discard(card)``.

    Attributes:
        card: the card discarded.
    """

    __slots__ = ("card",)
    card: Card

    def __new__(cls, c: Card | int | str) -> Discard:
        """Return the interned action for discarding card ``c``.

        Raises:
            InvalidAction: if ``c`` is not a card.
        """
        return _DISCARDS[_card_id("Discard", c, "A♠")]

    @property
    def label(self) -> str:
        return f"discard {self.card}"

    def __repr__(self) -> str:
        return f"Discard('{self.card}')"


def _joker_id(kind: int, c: int) -> int:
    """The id of joker ``c`` (52 or 53)'s action of ``kind`` (0 Play, 1 Pass, 2 Discard),
    or of special card ``c`` (54-63)'s."""
    if c >= 54:
        return SPECIAL_ACTION_BASE + 10 * kind + c - 54
    return JOKER_BASE + 2 * kind + c - 52


_PLAYS: Final[tuple[Play, ...]] = tuple(
    _new(Play, i if i < 52 else _joker_id(0, i), card=CARDS[i]) for i in range(64)
)
_BIDS: Final[tuple[Bid, ...]] = tuple(
    _new(Bid, BID_BASE + n, n=n, blind=False) for n in range(MAX_BID + 1)
)
_BLIND_BIDS: Final[tuple[Bid, ...]] = tuple(
    _new(Bid, BLIND_BASE + n, n=n, blind=True) for n in range(MAX_BID + 1)
)
_LOOK: Final[Look] = _new(Look, LOOK_ID)
_AMENDS: Final[tuple[Amend, ...]] = tuple(
    _new(Amend, AMEND_BASE + n, n=n) for n in range(MAX_BID + 1)
)
_PASSES: Final[tuple[Pass, ...]] = tuple(
    _new(Pass, PASS_BASE + i if i < 52 else _joker_id(1, i), card=CARDS[i]) for i in range(64)
)
_TAKE: Final[Take] = _new(Take, TAKE_ID)
_ALONE: Final[Alone] = _new(Alone, ALONE_ID)
_WITH_PARTNER: Final[WithPartner] = _new(WithPartner, WITH_PARTNER_ID)
_KEEP: Final[Keep] = _new(Keep, KEEP_ID)
_SHOW: Final[Show] = _new(Show, SHOW_ID)
_NAMES: Final[tuple[Name, ...]] = (
    *(_new(Name, TRUMP_BASE + int(x), suit=x) for x in Suit),
    _new(Name, NAME_NO_TRUMPS_ID, suit=None),
)
_ORDER_UP: Final[OrderUp] = _new(OrderUp, ORDER_UP_ID)
_DECLINE: Final[Decline] = _new(Decline, DECLINE_ID)
_DISCARDS: Final[tuple[Discard, ...]] = tuple(
    _new(Discard, DISCARD_BASE + i if i < 52 else _joker_id(2, i), card=CARDS[i]) for i in range(64)
)
_DOWNTOWNS: Final[tuple[Downtown, ...]] = (
    _new(Downtown, DOWNTOWN_BASE, low=False),
    _new(Downtown, DOWNTOWN_BASE + 1, low=True),
)
_MISERE: Final[Misere] = _new(Misere, MISERE_ID)
_BY_ID: Final[tuple[Action, ...]] = (
    *_PLAYS[:52],
    *_BIDS,
    *_BLIND_BIDS,
    _LOOK,
    *_AMENDS,
    *_PASSES[:52],
    *_NAMES,
    _ORDER_UP,
    _DECLINE,
    *_DISCARDS[:52],
    _TAKE,
    _ALONE,
    _WITH_PARTNER,
    *_PLAYS[52:54],
    *_PASSES[52:54],
    *_DISCARDS[52:54],
    _KEEP,
    _SHOW,
    *_DOWNTOWNS,
    _MISERE,
)
_SPECIAL_BY_ID: Final[tuple[Action, ...]] = (*_PLAYS[54:], *_PASSES[54:], *_DISCARDS[54:])
_CONTRACTS: Final[tuple[Contract, ...]] = (
    *(
        _new(Contract, CONTRACT_BASE + 5 * lv + k, level=lv, strain=k)
        for lv in range(MAX_CONTRACT_LEVEL + 1)
        for k in range(5)
    ),
    _new(Contract, CONTRACT_END - 2, level=0, strain=MISERE_STRAIN),
    _new(Contract, CONTRACT_END - 1, level=0, strain=OPEN_MISERE_STRAIN),
)
assert all(a.id == CONTRACT_BASE + i for i, a in enumerate(_CONTRACTS))
assert len(_BY_ID) == NUM_ACTIONS
assert all(a.id == i for i, a in enumerate(_BY_ID))
