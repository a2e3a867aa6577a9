"""Per-seat views and game results: frozen, JSON-serialisable snapshots."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from attrs import frozen

from cardrules.cards import CARDS, Card, Suit
from cardrules.engine.actions import Action
from cardrules.engine.views.jsonform import Decoder, decoder_of

__all__ = ["ForbiddenBid", "HandResult", "Result", "TakeBackRequest", "View"]

#: Each card's text (``str(card)``), by card number: ``to_dict`` writes cards by it.
_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
_text = _TEXT.__getitem__

#: For each byte of a card mask (cards 8k to 8k + 7) and each value of that
#: byte, its cards in card order (7 x 256 tuples).
_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(
        tuple(CARDS[8 * k + b] for b in range(8) if p >> b & 1 and 8 * k + b < 64)
        for p in range(256)
    )
    for k in range(8)
)


def _cards_of(m: int) -> tuple[Card, ...]:
    """The cards of the 54-bit mask ``m`` in card order: ``tuple(CardSet(m))``,
    by table (views are built from masks on every call). A mask of several
    packs (copies from bit 64) gives each copy as its card, copies side by
    side: a view never tells which copy a seat holds."""
    if m >> 64:
        return _copies_as_cards(m)
    t = _BYTE_CARDS
    out = (
        *t[0][m & 255],
        *t[1][m >> 8 & 255],
        *t[2][m >> 16 & 255],
        *t[3][m >> 24 & 255],
        *t[4][m >> 32 & 255],
        *t[5][m >> 40 & 255],
        *t[6][m >> 48 & 255],
    )
    # The special cards 56-63 (a pack with special cards only).
    return out + t[7][m >> 56] if m >> 56 else out


def _copies_as_cards(m: int) -> tuple[Card, ...]:
    """:func:`_cards_of` for a mask of several packs: each card once per copy held."""
    ids: list[int] = []
    while m:
        low = m & -m
        ids.append(low.bit_length() - 1)
        m ^= low
    return tuple(CARDS[c & 63] for c in sorted(ids, key=lambda c: (c & 63, c)))


def _frac(x: Fraction) -> int | str:
    return x.numerator if x.denominator == 1 else str(x)


def _cards(cs: tuple[Card, ...] | None) -> list[str] | None:
    return None if cs is None else list(map(_text, cs))


@frozen
class Result:
    """How a finished game came out.

    Attributes:
        winners: the winning seat(s), lowest seat first (several when shared).
        totals: every seat's final total.
        shared: True when more than one seat shares the win.
        finished: False when the game was stopped by ``max_tricks`` before its end.
        loser: shedding games: the seat left holding cards, if any.
        knocked_out: games that knock players out (``knocked out:``): each seat
            knocked out, with the hand after which it was, as ``(seat, hand
            number)`` pairs in the order it happened (empty otherwise).
        teams: the partnerships, as tuples of seats (empty without teams); the
            winners are then every seat of the winning team (of each, when shared).
    """

    winners: tuple[int, ...]
    totals: tuple[Fraction, ...]
    shared: bool = False
    finished: bool = True
    loser: int | None = None
    knocked_out: tuple[tuple[int, int], ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (fractions as ints or ``"p/q"`` strings)."""
        return {
            "winners": list(self.winners),
            "totals": [_frac(t) for t in self.totals],
            "shared": self.shared,
            "finished": self.finished,
            "loser": self.loser,
            "knocked_out": [list(p) for p in self.knocked_out],
            "teams": [list(t) for t in self.teams],
        }

    @classmethod
    def from_dict(cls, data: object) -> Result:
        """The result :meth:`to_dict` wrote (untrusted input: every field is
        checked).

        Raises:
            SaveError: naming the bad field, if ``data`` is not such an object.

        Example:
            >>> r = Result(winners=(1,), totals=(Fraction(3), Fraction(7, 2)))
            >>> Result.from_dict(r.to_dict()) == r
            True
        """
        return _reader(cls)(data, "result")  # type: ignore[no-any-return]


@frozen
class HandResult:
    """How the last hand scored (the score of its :class:`ScoreEvent`), shown
    in :attr:`View.last_hand` until the next hand's first card is played.

    Attributes:
        hand_number: the hand, from 1.
        bids: each seat's bid (``None``: none made, or a game without bids).
        tricks: tricks each seat won in the hand.
        points: each seat's points for the hand.
        totals: each seat's running total after it.
        last_trick: the hand's last trick, as ``(seat, card)`` pairs.
        cases: in a game whose file names the cases of its score (``case``):
            for each seat, the words of the cases its hand fell in (``["nil
            failed", "made 7 on 5"]``); empty, and left out of the JSON form,
            in other games.
    """

    hand_number: int
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    points: tuple[Fraction, ...]
    totals: tuple[Fraction, ...]
    last_trick: tuple[tuple[int, Card], ...] = ()
    cases: tuple[tuple[str, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (fractions as ints or ``"p/q"`` strings)."""
        out: dict[str, Any] = {
            "hand_number": self.hand_number,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "points": [_frac(x) for x in self.points],
            "totals": [_frac(x) for x in self.totals],
            "last_trick": [[s, str(c)] for s, c in self.last_trick],
        }
        if self.cases:
            # Only a game whose file names cases has the key: every other view is as it was.
            out["cases"] = [list(words) for words in self.cases]
        return out


@frozen
class TakeBackRequest:
    """A seat's request to take back its last action with the actions other
    seats made after it (:meth:`Game.request_take_back
    <cardrules.engine.game.Game.request_take_back>`), waiting for the consent
    of each of those seats (:meth:`Game.answer
    <cardrules.engine.game.Game.answer>`). Shown to every seat and onlooker in
    :attr:`View.take_back_request`: everyone saw those actions being made (a
    hidden bid or a card chosen to pass only as made, not what it was), so the
    request shows nothing hidden.

    Attributes:
        seat: the seat that asks to take back its last action.
        count: how many actions the take-back would undo (its own last action
            and every action after it).
        asked: the seats whose consent it needs (every other seat that made
            one of those actions, or acted after the requester's action in an
            action since taken back), lowest first.
        agreed: the seats asked that have agreed so far, lowest first.
    """

    seat: int
    count: int
    asked: tuple[int, ...]
    agreed: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict.

        Example:
            >>> TakeBackRequest(seat=1, count=3, asked=(2, 3), agreed=(3,)).to_dict()
            {'seat': 1, 'count': 3, 'asked': [2, 3], 'agreed': [3]}
        """
        return {
            "seat": self.seat,
            "count": self.count,
            "asked": list(self.asked),
            "agreed": list(self.agreed),
        }


@frozen
class ForbiddenBid:
    """A bid a seat to bid may not make now, and the rule that forbids it
    (:attr:`View.forbidden_bids`).

    Attributes:
        seat: the seat that may not make the bid (one of the seats to bid now).
        bid: the number it may not bid, within the hand's ``bid_range``.
        rule: the rule's code: the code of the
            :class:`~cardrules.errors.IllegalAction` that ``apply`` raises for
            the bid (a key of :data:`~cardrules.errors.ERROR_CODES`; ``"hook"``:
            the last to bid may not make the bids add up to the tricks;
            ``"bid_not_higher"``: in an auction, a bid not above the highest).
        text: the rule for people: the message of that refusal.

    Example:
        >>> import cardrules
        >>> rules = "game: doc\\nhand size: 5\\nbidding: in turn\\nhook: yes\\nscore: tricks"
        >>> g = cardrules.Game(cardrules.load_text(rules), players=3, seed=1)
        >>> for _ in range(2):
        ...     g.apply(cardrules.Bid(0), g.to_act)
        >>> g.view(None).forbidden_bids[0].to_dict()["rule"]
        'hook'
    """

    seat: int
    bid: int
    rule: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"seat", "bid", "rule", "text"}``."""
        return {"seat": self.seat, "bid": self.bid, "rule": self.rule, "text": self.text}


@frozen
class View:
    """Everything one seat may know about the game, and nothing more.

    Attributes:
        seat: whose view this is; ``None`` for an onlooker's
            (:meth:`Game.public_view`) or the all-seeing one
            (:meth:`Game.omniscient_view`).
        players: the number of seats.
        phase: ``"pass"``, ``"trumps"`` (a player chooses trumps), ``"bid"``,
            ``"play"`` or ``"over"``.
        hand_number: the current hand, from 1 (tie-break hands continue the count).
        hand_size: cards dealt to each seat this hand.
        dealer: the dealer of this hand.
        trump: this hand's trump suit, or ``None``.
        turned_up: the card turned up for trumps, if any.
        hand: this seat's cards, or ``None`` while it may not see them (before
            looking in a blind-bidding game, or in a forehead hand's bidding).
        visible_hands: other seats' hands this seat can see (forehead hands),
            as ``(seat, cards)`` pairs.
        hand_counts: how many cards each seat holds.
        bids: each seat's bid, ``None`` if not made yet or not revealed.
        bid_made: whether each seat has bid (also true for a hidden bid).
        blind: whether each seat's bid was blind.
        tricks_won: tricks each seat has won this hand.
        trick: the current trick as ``(seat, card)`` pairs, in play order.
        leader: who led (or leads) the current trick.
        last_trick: the last completed trick, as ``(seat, card)`` pairs in play
            order: the previous trick of this hand, or, until the next hand's
            first card is played, the last trick of the hand before (empty
            otherwise).
        played: every card played so far this hand that the seat may still see
            (in shedding games with face-down dead tricks, only its own dead cards).
        dead: shedding games: the dead cards this seat may see (all of them when
            dead tricks go face up, else only the ones it played).
        dead_count: shedding games: how many cards have left the game.
        known_hands: cards of other seats' hands this seat knows of, as
            ``(seat, cards)`` pairs: in shedding games, cards a seat picked up and
            still holds (everyone saw them picked up); the dealer's turned-up
            last card (``trumps: dealer's last card``) until played; the turned
            card a dealer took up until the dealer discards; in games that pass
            cards, the cards this seat passed that their receiver still holds.
        out: shedding games: which seats have no cards left (the seats still in
            are the others); games that knock players out (``knocked out:``):
            which seats are knocked out (dealt no cards in this hand).
        knocked_out: games that knock players out: each seat knocked out so far,
            with the hand after which it was, as ``(seat, hand number)`` pairs.
        letters: in a :class:`~cardrules.engine.match.Match`, each seat's letters.
        mode: ``"tricks"`` or ``"shedding"`` (the variant's mode; always set by
            :meth:`Game.view`, ``None`` only in hand-built views).
        direction: ``"clockwise"`` or ``"anticlockwise"``, the variant's direction
            of play (``None`` only in hand-built views).
        seat_order: every seat in order of play, starting with the seat that plays
            after this one and ending with this seat (so ``seat_order[0]`` is the
            next player); empty only in hand-built views. Shedding games: seats
            that are ``out`` are still listed (they are skipped in play). An
            onlooker's view lists every seat in order of play from seat 0.
        pack_size: the number of cards in the pack (52 less ``pack_removed``,
            plus ``jokers``).
        pack_removed: the cards of the standard 52 that are not in this pack
            (empty for a full pack).
        jokers: the jokers in this pack (``LJ``, ``BJ``; empty for a pack
            without them). A joker is a trump: ``trump_order`` ranks it.
        special_powers: the special cards of this pack (``X1``...; ``special
            cards:``) and the power of each: 1 always wins (the first of them
            played winning), 2 always wins (the last), 3 always loses (a trick
            of them only to the first played), 4 always loses (to the last), 0 a
            card of a suit. Empty, and left out of the JSON form, for a pack
            without special cards.
        card_names: the special cards this pack's ``special symbols`` renames,
            each with its text for people (``[["X1", "W1"], ...]`` in JSON):
            every other field keeps the canonical text (``X1``). Empty, and
            left out of the JSON form, for a pack without the line.
        jokers_without_trumps: what a joker is in a hand without trumps
            (``jokers without trumps:``): ``"highest card"`` (it wins the
            trick), ``"cannot win"`` (it never does), or empty, and left out
            of the JSON form, when the file does not say.
        trump_order: this hand's highest trumps by the variant's trump order
            (``trump order:``), highest first: trumps whatever their printed
            suit, above the trump suit's ace (empty without one, or without trumps).
        pass_to: games with ``pass:``: the seat this seat passes to this hand
            (``None`` when the hand has no pass).
        passed: the cards this seat has chosen to pass this hand (still in its
            hand until every seat has chosen; then given to ``pass_to``).
        received: the cards this seat received in this hand's pass (empty until
            every seat has chosen).
        card_points: the points each card carries when won in a trick, indexed
            by card number (52 values, or 54 when a joker carries points), or
            empty when no card carries points
            (``card points:``; the rules, known to every seat).
        higher_wins: whether the highest total wins (``False``: the lowest).
        trump_maker: the seat that made this hand's trumps (named them or
            ordered the turned card up), or ``None``.
        downtown: whether the declarer plays this hand downtown, its ranks
            reversed (``downtown:``); ``False`` uptown and in other games.
        contract: in an auction of bids in strains (``bids: ... in ...``), the
            highest bid so far in words (``"7 diamonds"``, ``"misère"``): the
            hand's contract once the auction is over; ``None`` before any bid
            and in other games (and then absent from :meth:`to_dict`).
        showed_out: for each seat, the suits it has not followed this hand, in
            the order it showed out of them (the led card's suit as the hand's
            trump order counts suits: a left bower leads trumps). Everyone saw
            it happen. Where the rules make a seat follow suit, it holds no card
            of these suits, except cards everyone saw it pick up
            (``known_hands``). Empty before the first trick and in hand-built views.
        defender_alone: the seat defending this hand alone against a lone maker
            (``defending alone:``; its partners sit out too), or ``None``.
        bidders: the seats that bid this hand, in the order they bid: every
            seat dealt to, or with one bid per side (``team bids: one per side``)
            the first partner of each side (empty in games without bidding).
        alone: the seat playing this hand alone (``going alone:``; its partners
            sit the hand out, their cards face down and unplayed), or ``None``.
        discarded: the cards this seat discarded face down this hand (only
            its own: nobody else sees them).
        trumps_broken: whether trumps are broken: as the variant's ``broken by:``
            says when one of its card-set rules bars unbroken suits, otherwise
            whether a trump has been played to a trick this hand.
        scores: running totals (with teams, partners' totals are equal: the team's).
        teams: the partnerships, as tuples of seats (empty without teams).
        counters: the game's counters (``counter bags: ...``) as ``(name, value
            per seat)`` pairs, as they stand after the last hand scored (with
            teams, partners hold their team's value).
        to_act: the seat to act, or ``None``.
        waiting_for: every seat that may act now, in bidding order (from the
            dealer's neighbour in the direction of play, the dealer last), in
            every phase: :attr:`Game.waiting_order`.
        bid_range: the smallest and largest bid of this hand (``bids: N to M``,
            at most the hand size), the same for every seat: a bid outside it
            is refused with the code ``bid_out_of_range``; ``None`` in games
            without bidding.
        forbidden_bids: the bids within ``bid_range`` that a seat to bid may
            not make now, each with the rule that forbids it
            (:class:`ForbiddenBid`), in bidding order of the seats, such as the
            dealer's hook. ``apply`` refuses exactly these bids (after a Look,
            in a game of blind bids), with the same code and message. Public,
            as the bids they follow from: every seat and onlookers see them,
            except while bids are hidden (made all at once), when a seat sees
            only its own (empty outside the bidding).
        legal_actions: this seat's legal actions now (empty if none).
        result: the result once the game is over.
        version: :attr:`Game.version` (the number of actions applied and
            take-backs made so far).
        last_hand: how the last hand scored, from its scoring until the next
            hand's first card is played (through its bidding), and at the end
            of the game; else ``None``.
        audience: ``"seat"`` (one seat's view), ``"public"`` (an onlooker at
            the table: what every seat sees) or ``"omniscient"`` (every hand
            shown, in ``visible_hands``: for commentary, never to be sent to a
            player).
        take_backs: the take-back policy the table plays by
            (:attr:`Game.take_back_policy`, the text of a
            :class:`~cardrules.rules.TakeBacks`, such as ``"never"`` or
            ``"until the trick is complete"``).
        take_back_request: the take-back request waiting for answers
            (:class:`TakeBackRequest`), or ``None``.
    """

    seat: int | None
    players: int
    phase: str
    hand_number: int
    hand_size: int
    dealer: int
    trump: Suit | None
    turned_up: Card | None
    hand: tuple[Card, ...] | None
    visible_hands: tuple[tuple[int, tuple[Card, ...]], ...]
    hand_counts: tuple[int, ...]
    bids: tuple[int | None, ...]
    bid_made: tuple[bool, ...]
    blind: tuple[bool, ...]
    tricks_won: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    leader: int | None
    last_trick: tuple[tuple[int, Card], ...]
    played: tuple[Card, ...]
    trumps_broken: bool
    scores: tuple[Fraction, ...]
    to_act: int | None
    waiting_for: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    result: Result | None
    dead: tuple[Card, ...] = ()
    dead_count: int = 0
    known_hands: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    out: tuple[bool, ...] = ()
    mode: str | None = None
    letters: tuple[str, ...] = ()
    direction: str | None = None
    seat_order: tuple[int, ...] = ()
    pack_size: int = 52
    pack_removed: tuple[Card, ...] = ()
    knocked_out: tuple[tuple[int, int], ...] = ()
    trump_order: tuple[Card, ...] = ()
    pass_to: int | None = None
    passed: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()
    card_points: tuple[int, ...] = ()
    higher_wins: bool = True
    teams: tuple[tuple[int, ...], ...] = ()
    counters: tuple[tuple[str, tuple[int, ...]], ...] = ()
    trump_maker: int | None = None
    downtown: bool = False
    contract: str | None = None
    alone: int | None = None
    discarded: tuple[Card, ...] = ()
    jokers: tuple[Card, ...] = ()
    special_powers: tuple[tuple[Card, int], ...] = ()
    card_names: tuple[tuple[Card, str], ...] = ()
    jokers_without_trumps: str = ""
    version: int = 0
    last_hand: HandResult | None = None
    audience: str = "seat"
    bidders: tuple[int, ...] = ()
    defender_alone: int | None = None
    showed_out: tuple[tuple[Suit, ...], ...] = ()
    take_backs: str = "never"
    take_back_request: TakeBackRequest | None = None
    bid_range: tuple[int, int] | None = None
    forbidden_bids: tuple[ForbiddenBid, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: cards as text (``"A♠"``, ``"10♥"``), actions as
        ``{"id": ..., "label": ...}``, fractions as ints or ``"p/q"`` strings."""
        out = {
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase,
            "hand_number": self.hand_number,
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "trump": None if self.trump is None else self.trump.word,
            "turned_up": None if self.turned_up is None else _text(self.turned_up),
            "hand": _cards(self.hand),
            "visible_hands": {str(s): _cards(h) for s, h in self.visible_hands},
            "hand_counts": list(self.hand_counts),
            "bids": list(self.bids),
            "bid_made": list(self.bid_made),
            "blind": list(self.blind),
            "tricks_won": list(self.tricks_won),
            "trick": [[s, _text(c)] for s, c in self.trick],
            "leader": self.leader,
            "last_trick": [[s, _text(c)] for s, c in self.last_trick],
            "played": list(map(_text, self.played)),
            "dead": list(map(_text, self.dead)),
            "dead_count": self.dead_count,
            "known_hands": {str(s): _cards(h) for s, h in self.known_hands},
            "out": list(self.out),
            "knocked_out": [list(p) for p in self.knocked_out],
            "mode": self.mode,
            "letters": list(self.letters),
            "direction": self.direction,
            "seat_order": list(self.seat_order),
            "pack_size": self.pack_size,
            "pack_removed": list(map(_text, self.pack_removed)),
            "jokers": list(map(_text, self.jokers)),
            "trump_order": list(map(_text, self.trump_order)),
            "pass_to": self.pass_to,
            "passed": list(map(_text, self.passed)),
            "received": list(map(_text, self.received)),
            "card_points": list(self.card_points),
            "higher_wins": self.higher_wins,
            "trump_maker": self.trump_maker,
            "downtown": self.downtown,
            "alone": self.alone,
            "discarded": list(map(_text, self.discarded)),
            "bidders": list(self.bidders),
            "defender_alone": self.defender_alone,
            "showed_out": [[x.word for x in suits] for suits in self.showed_out],
            "trumps_broken": self.trumps_broken,
            "scores": [_frac(x) for x in self.scores],
            "teams": [list(t) for t in self.teams],
            "counters": {name: list(values) for name, values in self.counters},
            "to_act": self.to_act,
            "waiting_for": list(self.waiting_for),
            "bid_range": None if self.bid_range is None else list(self.bid_range),
            "forbidden_bids": [f.to_dict() for f in self.forbidden_bids],
            "legal_actions": [{"id": a.id, "label": a.label} for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_dict(),
            "version": self.version,
            "last_hand": None if self.last_hand is None else self.last_hand.to_dict(),
            "audience": self.audience,
            "take_backs": self.take_backs,
            "take_back_request": None
            if self.take_back_request is None
            else self.take_back_request.to_dict(),
        }
        if self.contract is not None:
            # Only an auction of contracts has the key: every other view is as it was.
            out["contract"] = self.contract
        if self.special_powers:
            # Only a pack with special cards has the key: every other view is as it was.
            out["special_powers"] = [[_text(c), p] for c, p in self.special_powers]
        if self.card_names:
            # Only a pack with `special symbols` has the key: cards keep their text.
            out["card_names"] = [[_text(c), name] for c, name in self.card_names]
        if self.jokers_without_trumps:
            # Only a game that says what a joker is without trumps has the key.
            out["jokers_without_trumps"] = self.jokers_without_trumps
        return out

    @classmethod
    def from_dict(cls, data: object) -> View:
        """The view :meth:`to_dict` wrote, read back: what a remote player (or
        bot) rebuilds from what a server sends. Untrusted input: every field is
        checked for its type, bounds and size, and the seats for agreement with
        ``players``. Every field of the class is read by its type, so fields
        with defaults may be left out; unknown fields are refused.

        Raises:
            SaveError: naming the path of the bad field (``view.hand[3]: ...``).

        Example:
            >>> import json, cardrules
            >>> from cardrules.dsl import builtin_names
            >>> g = cardrules.Game(cardrules.load(builtin_names()[0]), players=4, seed=1)
            >>> v = g.view(0)
            >>> View.from_dict(json.loads(v.to_json())) == v
            True
        """
        return _reader(cls)(data, "view")  # type: ignore[no-any-return]

    def to_json(self) -> str:
        """The view as compact JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


_READERS: dict[type, Decoder] = {}


def _reader(cls: type) -> Decoder:
    """The JSON reader of ``cls``, built from its fields once."""
    r = _READERS.get(cls)
    if r is None:
        r = _READERS[cls] = decoder_of(cls)
    return r
