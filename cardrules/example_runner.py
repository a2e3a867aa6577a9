"""Play the worked examples of a variant file through the engine.

A variant file may carry examples (see :mod:`cardrules.dsl.example_syntax` for the
lines and ``docs/dsl.md`` for the language): a deal, the bids and plays up to a
point, and what must hold then. :func:`run_examples` plays each one in a real
:class:`~cardrules.engine.Game` of the variant and returns what failed, each
failure a :class:`ExampleFailure` reading like any other error of a file::

    house.cardrules:14:3: example "must over-trump": expected seat 3 to be allowed
    only 9♠, but seat 3 may play 3♠ 9♠

How an example is played:

* the game is the file's own, from its first hand (or the hand ``with hand N``
  names: the hands before it are played out first, each dealt from the pack in
  order, every seat taking the first action the engine offers);
* the example's hand is stacked: each seat gets the cards its ``holds`` line
  names, and the rest of its hand from the cards no line names, lowest first,
  one card at a time round the table from the dealer's neighbour, as a dealer
  deals (a seat ``void in`` a suit gets none of it); with turned-up trumps, the
  turned card is the one the ``with`` line names, or the lowest card of the
  trump suit it names, or else the lowest card left after the deal; when the
  dealer's last card shows trumps (``trumps: dealer's last card``), it is the
  card the ``with`` line names, or the dealer's lowest card of the trump suit
  it names (the lowest free one given to the dealer if the dealer holds none
  named), or else the dealer's lowest card;
* bids, calls and plays are made in turn by whoever is to act; ``seat N passes ...``
  chooses that seat's cards to pass (games with ``pass:``; the cards change
  hands after the last seat's line); ``play out the hand`` and ``play out the
  game`` let every seat take the first action the engine offers (its lowest
  cards to pass, the lowest bid, the lowest card it may play);
* an ``expect`` line is checked against the game as it then stands.

An example is one game: ``takes the letter`` and ``deals the next game`` say
what a match (:class:`~cardrules.engine.Match`) does after that game, the
first of the match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

import attrs
from attrs import frozen

from cardrules.cards import CARDS, WIDE_SUIT_MASKS, Card, CardSet, Suit, base_mask, deal_copies
from cardrules.dsl.example_syntax import (
    BidItem,
    Bids,
    Calls,
    ChangeBid,
    Deal,
    Example,
    Expect,
    ExpectKind,
    PassCards,
    PlayOut,
    Plays,
    Step,
    TakeCards,
    points_text,
)
from cardrules.dsl.syntax_errors import source_line
from cardrules.errors import IllegalAction, VariantError
from cardrules.rules import (
    Direction,
    FirstDealer,
    HandSituation,
    Mode,
    Pattern,
    SourcePos,
    TakeHand,
    TrumpKind,
    Variant,
)

if TYPE_CHECKING:
    from cardrules.engine.actions import Action
    from cardrules.engine.events import Event
    from cardrules.engine.game import Game

__all__ = [
    "MAX_EXAMPLE_TRICKS",
    "MAX_FILE_EXAMPLE_ACTIONS",
    "ExampleBudget",
    "ExampleFailure",
    "ExampleRun",
    "StepResult",
    "after_game",
    "run_all",
    "run_example",
    "run_examples",
]

#: The most tricks one example may play in all (the hands played out before its
#: own, and ``play out``): a game that has not ended by then fails the example.
MAX_EXAMPLE_TRICKS: Final = 1000
#: The most actions the examples of one file may play in all (bids, plays and
#: every other action: those of the hands played out before an example's own,
#: of ``play out`` and of the lines that name them), so that checking a file
#: from a stranger stays quick whatever its examples ask: each example is
#: bounded by :data:`MAX_EXAMPLE_TRICKS`, and their sum by this. The built-in
#: variant files play at most 1,428 (``oh-hell``).
MAX_FILE_EXAMPLE_ACTIONS: Final = 10_000
#: The seed of an example's game (it deals nothing: every deal is given).
SEED: Final = 0


class ExampleFailure(VariantError):
    """A worked example that does not hold (or cannot be played) in its file.

    The message reads ``path:line:column: example "title": expected ..., but
    ...``, pointing at the line that failed, as other errors of a file do.

    Attributes:
        example: the example.
        title: its title.
        problem: what went wrong, without the place and the title.
    """

    default_code: ClassVar[str] = "bad_example"

    def __init__(
        self,
        example: Example,
        pos: SourcePos | None,
        problem: str,
        source: str | None,
        *,
        code: str | None = None,
    ) -> None:
        self.example = example
        self.title = example.title
        self.problem = problem
        where = pos or example.pos
        super().__init__(
            f'example "{example.title}": {problem}',
            path=where.path if where else None,
            line=where.line if where else None,
            column=where.column if where else None,
            source_line=source,
            code=code,
            data={"example": example.title},
        )


@attrs.define
class ExampleBudget:
    """The actions the examples of one file may play in all, shared by them:
    :func:`run_examples` (``cardrules check``) and the rules page play every
    example of a file under one budget.

    Attributes:
        limit: the most actions the examples may play
            (:data:`MAX_FILE_EXAMPLE_ACTIONS`).
        spent: the actions they have played so far.

    Example:
        >>> budget = ExampleBudget(limit=100)
        >>> budget.left, budget.spent
        (100, 0)
    """

    limit: int = MAX_FILE_EXAMPLE_ACTIONS
    spent: int = 0

    @property
    def left(self) -> int:
        """The actions the examples may still play (never below 0)."""
        return max(self.limit - self.spent, 0)


@frozen
class StepResult:
    """One step of an example as the engine played it (for the rules page).

    Attributes:
        step: the step of the file.
        events: what the engine logged during the step (see
            :attr:`cardrules.engine.Game.events`): bids, plays, tricks won,
            dead or picked up, seats going out, hands scored, new deals.
        note: for ``may not`` expectations, the engine's refusal of the first
            card or bid named; for ``play out``, how many actions were taken.
    """

    step: Step
    events: tuple[Event, ...] = ()
    note: str = ""


@frozen
class ExampleRun:
    """An example as the engine played it.

    Attributes:
        example: the example.
        players: the number of players.
        hand: the hand the example starts at.
        size: the cards dealt to each seat in it.
        dealer: the dealer of that hand.
        hands: each seat's cards as dealt (empty when the deal failed).
        named: each seat's cards that the example names.
        trump: the hand's trump suit, or ``None``.
        turned_up: the card turned up for trumps, if any.
        steps: the steps played, up to a failure.
        failure: what failed, or ``None`` when every line holds.
        actions: the actions the example played (what it spent of its file's
            :class:`ExampleBudget`).
    """

    example: Example
    players: int
    hand: int
    size: int
    dealer: int
    hands: tuple[CardSet, ...]
    named: tuple[CardSet, ...]
    trump: Suit | None
    turned_up: Card | None
    steps: tuple[StepResult, ...]
    failure: ExampleFailure | None
    actions: int = 0

    @property
    def holds(self) -> bool:
        """True when every line of the example holds."""
        return self.failure is None


class _Fail(Exception):
    """Internal: a step failed (turned into an :class:`ExampleFailure`)."""

    def __init__(self, pos: SourcePos | None, problem: str, code: str | None = None) -> None:
        super().__init__(problem)
        self.pos = pos
        self.problem = problem
        self.code = code


def _spent(budget: ExampleBudget, pos: SourcePos | None) -> _Fail:
    """The failure of the example that has spent its file's budget, at ``pos``."""
    return _Fail(
        pos,
        f"the examples of this file play more than {budget.limit:,} actions in all "
        "(the most a file's examples may play): this one is stopped here",
        code="examples_too_large",
    )


def _within(budget: ExampleBudget, g: Game, pos: SourcePos | None) -> None:
    """Raise the failure of ``pos`` if the example's game ``g`` (its actions are
    ``g.version``) has spent what is left of ``budget``."""
    if g.version >= budget.left:
        raise _spent(budget, pos)


def _seat(s: int) -> str:
    return f"seat {s + 1}"


def _cards(cards: Sequence[Card] | CardSet) -> str:
    return " ".join(str(c) for c in cards) or "nothing"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --------------------------------------------------------------------------- the deal


@frozen
class _Deal:
    players: int
    hand: int
    size: int
    dealer: int
    first_dealer: int
    order: tuple[int, ...]  # the seats from the dealer's neighbour round to the dealer
    shares: tuple[int, ...]  # cards each seat is dealt
    hands: tuple[int, ...]  # card masks per seat
    named: tuple[int, ...]
    turned: int  # -1: none
    deck: tuple[int, ...]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _ids(mask: int) -> list[int]:
    return [int(c) for c in CardSet(mask)]


def _fill(
    needs: list[int], voids: list[int], free: list[int], order: Sequence[int]
) -> list[int] | None:
    """Deal ``free`` (card ids, in the order to deal them) one at a time round
    ``order``, each card to the next seat that needs cards and is not void in
    its suit; returns the masks given to each seat, or ``None`` if some seat
    could not be filled."""
    need = needs[:]
    got = [0] * len(needs)
    at = 0
    n = len(order)
    for c in free:
        for k in range(n):
            s = order[(at + k) % n]
            if need[s] and not voids[s] >> c & 1:
                got[s] |= 1 << c
                need[s] -= 1
                at = (at + k + 1) % n
                break
        if not any(need):
            return got
    return got if not any(need) else None


@frozen
class _Table:
    """The table of an example's hand, checked: what the steps of the deal share."""

    at: SourcePos | None  # the deal's line (or the example's)
    players: int
    hand: int  # the example's hand number
    size: int  # the cards each seat is dealt in it
    shedding: bool
    pack: int  # the mask of the pack of this number of players
    pack_size: int
    dealt: int  # the cards dealt in the hand
    step: int  # 1 clockwise, -1 anticlockwise


def _rules_of_hand(v: Variant, ex: Example) -> Variant:
    """The rules of the example's table and hand, when lines have conditions
    (``deck: 9 to ace for 3 players``, ``trumps: none when the hand has 1 card``)."""
    n = ex.deal.players if ex.deal.players is not None else v.players.min
    if n not in v.players:
        return v  # refused by _table, with its words
    v = v.for_players(n)
    sizes = v.hand_sizes(n)
    hn = ex.deal.hand
    if not sizes or hn < 1:
        return v
    last = len(sizes)
    size = sizes[hn - 1] if hn <= last else max(sizes)
    return v.for_hand(HandSituation(size, hn == 1, hn == last, hn > last))


def _stack(v: Variant, ex: Example) -> _Deal:
    """The deal of the example's hand, as a card order for the engine."""
    if v.conditional:
        v = _rules_of_hand(v, ex)
    d = ex.deal
    table = _table(v, ex)
    n, hn = table.players, table.hand
    dealer = _dealer_of(v, ex, table)
    first = (dealer - table.step * (hn - 1)) % n
    order = tuple((dealer + table.step * j) % n for j in range(1, n + 1))
    shares = [0] * n
    for j, s in enumerate(order):
        shares[s] = len(range(j, table.dealt, n))
    named, voids = _named_cards(ex, table, shares)
    # Trumps: the turned card, or the hand's own trumps.
    turn_up = not table.shedding and v.trumps.is_turn_up_hand(hn)
    left = table.pack_size > table.dealt
    turned, in_hand = _turned_card(v, d, table, named, dealer, shares)
    if v.trumps.order and not table.shedding:
        voids = _voids_by_effective_suit(v, ex, table, turned, turn_up, voids)
    for held in ex.holdings:
        s = held.seat
        if named[s] & voids[s]:
            raise _Fail(
                held.pos,
                f"{_seat(s)} holds {_cards(CardSet(named[s] & voids[s]))}, "
                "so is not void in its suit",
            )
    hands = _complete_hands(table, named, voids, shares, order, turned, in_hand)
    dealt = 0
    for h in hands:
        dealt |= h
    if turn_up and left and turned < 0:
        turned = _lowest(table.pack & ~dealt)
    if in_hand and turned < 0:
        turned = _lowest(hands[dealer])
    return _Deal(
        n,
        hn,
        table.size,
        dealer,
        first,
        order,
        tuple(shares),
        tuple(hands),
        tuple(named),
        turned,
        _deck_order(table, order, hands, dealt, turned, in_hand),
    )


def _table(v: Variant, ex: Example) -> _Table:
    """The example's table and hand, checked against the game: the number of
    players, the hand number and the cards dealt in it."""
    d = ex.deal
    at = d.pos or ex.pos
    n = d.players if d.players is not None else v.players.min
    if n not in v.players:
        lo, hi = v.players.min, v.players.max
        allowed = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
        raise _Fail(at, f"the game is for {allowed}, not {n}")
    shedding = v.mode is Mode.SHEDDING
    sizes = v.hand_sizes(n)
    hn = d.hand
    if shedding and hn != 1:
        raise _Fail(at, "a shedding game is played in one hand: there is no hand " + str(hn))
    if hn > len(sizes):
        raise _Fail(at, f"the game has {_plural(len(sizes), 'hand')} for {n} players, not {hn}")
    size = sizes[hn - 1]
    pack_size = v.deck.size_for(n)
    whole = shedding and v.schedule.pattern is Pattern.WHOLE_PACK
    return _Table(
        at=at,
        players=n,
        hand=hn,
        size=size,
        shedding=shedding,
        pack=v.deck.cards_for(n).mask,  # the pack of this number of players
        pack_size=pack_size,
        dealt=pack_size if whole else size * n,
        step=1 if v.direction is Direction.CLOCKWISE else -1,
    )


def _dealer_of(v: Variant, ex: Example, table: _Table) -> int:
    """The dealer of the example's hand (and so the game's first dealer):
    the one the rules make deal it, or the one the deal line names."""
    d = ex.deal
    at, n, hn, step = table.at, table.players, table.hand, table.step
    if v.dealer.first is FirstDealer.SEAT:
        if v.dealer.seat >= n:
            raise _Fail(
                at, f"the game's first dealer is seat {v.dealer.seat + 1}, at a table of {n}"
            )
        real = (v.dealer.seat + step * (hn - 1)) % n
        if d.dealer is not None and d.dealer != real:
            raise _Fail(
                at,
                f"{_seat(d.dealer)} cannot deal hand {hn}: in this game {_seat(real)} deals it "
                f"(first dealer: seat {v.dealer.seat + 1})",
            )
        dealer = real
    else:
        dealer = d.dealer if d.dealer is not None else (-step) % n
    if dealer >= n:
        raise _Fail(at, f"there is no {_seat(dealer)} at a table of {n}")
    return dealer


def _named_cards(ex: Example, table: _Table, shares: list[int]) -> tuple[list[int], list[int]]:
    """The cards each seat's ``holds`` line names, and the suits it is void in
    (masks per seat), checked against the pack and the seat's share."""
    n = table.players
    named = [0] * n
    voids = [0] * n
    taken = 0
    for held in ex.holdings:
        if held.seat >= n:
            raise _Fail(held.pos, f"there is no {_seat(held.seat)} at a table of {n}")
        for c in held.cards:
            if not table.pack >> int(c) & 1:
                raise _Fail(held.pos, f"{c} is not in this game's pack")
            k = int(c)
            while taken >> k & 1 and table.pack >> (k + 64) & 1:
                k += 64  # several packs: a card named again is its next copy
            taken |= 1 << k
            named[held.seat] |= 1 << k
        for suit in held.void:
            voids[held.seat] |= WIDE_SUIT_MASKS[suit]
        if len(held.cards) > shares[held.seat]:
            raise _Fail(
                held.pos,
                f"{_seat(held.seat)} is dealt {_plural(shares[held.seat], 'card')} in hand "
                f"{table.hand}, but {len(held.cards)} are named",
            )
    return named, voids


def _turned_card(
    v: Variant, d: Deal, table: _Table, named: list[int], dealer: int, shares: list[int]
) -> tuple[int, bool]:
    """The card turned up for trumps as the deal line asks (-1: none, or not
    chosen yet), and whether it is the dealer's last card; checks the line's
    trumps against the hand's. A turned card the dealer holds is added to
    ``named``."""
    hn, shedding = table.hand, table.shedding
    turn_up = not shedding and v.trumps.is_turn_up_hand(hn)
    every = v.trumps.no_trump_every
    # The dealer's own last card shows trumps (``trumps: dealer's last card``).
    dealers = (
        not shedding and v.trumps.kind is TrumpKind.DEALERS_CARD and not (every and hn % every == 0)
    )
    taken = 0
    for m in named:
        taken |= m
    if turn_up and table.pack_size > table.dealt:
        return _turned_from_pack(d, table, taken), False
    if turn_up and v.trumps.none_when_pack_empty:
        if d.trumps is not None or d.turned_up is not None:
            raise _Fail(
                table.at,
                f"hand {hn} deals the whole pack, so no card is left to turn up: "
                "it is played without trumps",
            )
        return -1, False
    if turn_up or dealers:
        # The dealer's last card is turned up.
        return _turned_by_dealer(d, table, taken, named, dealer, shares), True
    fixed = None if shedding else v.trumps.fixed_trump(hn)
    _check_not_turned(d, table, fixed)
    return -1, False


def _turned_from_pack(d: Deal, table: _Table, taken: int) -> int:
    """The card turned up from what is left of the pack: the one the deal line
    names, or the lowest free card of the trump suit it names (-1: the lowest
    card left after the deal, chosen later)."""
    at = table.at
    if d.no_trumps:
        raise _Fail(at, f"hand {table.hand} turns up a card for trumps, so it has trumps")
    if d.turned_up is not None:
        turned = int(d.turned_up)
        if not table.pack >> turned & 1:
            raise _Fail(at, f"{d.turned_up} is not in this game's pack")
        return turned
    if d.trumps is not None:
        spare = table.pack & d.trumps.mask & ~taken
        if not spare:
            raise _Fail(at, f"no {d.trumps.word[:-1]} is left to turn up: every one is named")
        return _lowest(spare)
    return -1


def _turned_by_dealer(
    d: Deal, table: _Table, taken: int, named: list[int], dealer: int, shares: list[int]
) -> int:
    """The dealer's last card, turned up: the one the deal line names, or the
    dealer's lowest card of the trump suit it names (the lowest free one given
    to the dealer if it holds none named); -1: the dealer's lowest card,
    chosen later. The card is added to the dealer's ``named`` cards."""
    at = table.at
    turned = -1
    dealer_cards = named[dealer]
    if d.turned_up is not None:
        turned = int(d.turned_up)
        named[dealer] |= 1 << turned
    elif d.trumps is not None:
        mine = dealer_cards & d.trumps.mask
        spare = table.pack & d.trumps.mask & ~taken
        if mine:
            turned = _lowest(mine)
        elif spare:
            turned = _lowest(spare)
            named[dealer] |= 1 << turned
        else:
            raise _Fail(at, f"the dealer cannot turn up a {d.trumps.word[:-1]}: none is left")
    if named[dealer].bit_count() > shares[dealer]:
        raise _Fail(at, f"the turned card does not fit in {_seat(dealer)}'s hand")
    return turned


def _check_not_turned(d: Deal, table: _Table, fixed: Suit | None) -> None:
    """A hand that turns up no card: the deal line's trumps must be the hand's
    own (``fixed``, ``None`` for no trumps)."""
    at, hn = table.at, table.hand
    if d.turned_up is not None:
        has = f"{fixed.word} as trumps" if fixed is not None else "no trumps"
        raise _Fail(at, f"hand {hn} turns up no card: it has {has}")
    if d.trumps is not None and d.trumps is not fixed:
        has = f"{fixed.word} as trumps" if fixed is not None else "no trumps"
        raise _Fail(at, f"hand {hn} has {has}, not {d.trumps.word}")
    if d.no_trumps and fixed is not None:
        raise _Fail(at, f"hand {hn} has {fixed.word} as trumps")


def _voids_by_effective_suit(
    v: Variant, ex: Example, table: _Table, turned: int, turn_up: bool, voids: list[int]
) -> list[int]:
    """With a trump order, "void in" a suit is by effective suit (with hearts
    trumps and the jack of the same colour high, J♦ counts as a heart, not a
    diamond): the voids again, when the hand's trumps are known, else ``voids``."""
    if turned >= 0 and CARDS[turned].is_joker:
        tj = v.trumps.turned_joker  # `special turned up: jokers, spades`, else not yet known
        trump = tj if isinstance(tj, Suit) else None
    else:
        trump = (
            CARDS[turned].suit
            if turned >= 0
            else (None if turn_up else v.trumps.fixed_trump(table.hand))
        )
    if trump is None:
        return voids
    top = CardSet(v.trumps.ranking(trump, CardSet(table.pack))).mask
    effective = [0] * table.players
    for held in ex.holdings:
        for suit in held.void:
            effective[held.seat] |= (suit.mask & ~top) | (top if suit is trump else 0)
    return effective


def _complete_hands(
    table: _Table,
    named: list[int],
    voids: list[int],
    shares: list[int],
    order: tuple[int, ...],
    turned: int,
    in_hand: bool,
) -> list[int]:
    """Each seat's hand: its named cards and the free ones dealt round to fill
    it (first in order, else the suits some seats may not take first)."""
    n = table.players
    taken = 0
    for m in named:
        taken |= m
    reserved = (1 << turned) if turned >= 0 and not in_hand else 0
    free_mask = table.pack & ~taken & ~reserved
    needs = [shares[s] - named[s].bit_count() for s in range(n)]
    free = _ids(free_mask)
    got = _fill(needs, voids, free, order)
    if got is None:
        # Deal first the suits that some seats may not take, then the rest.
        def key(c: int) -> tuple[int, int]:
            return (-sum(1 for s in range(n) if needs[s] and voids[s] >> c & 1), c)

        got = _fill(needs, voids, sorted(free, key=key), order)
    if got is None:
        raise _Fail(
            table.at, "the cards no line names cannot complete the deal with the voids given"
        )
    return [named[s] | got[s] for s in range(n)]


def _deck_order(
    table: _Table,
    order: tuple[int, ...],
    hands: list[int],
    dealt: int,
    turned: int,
    in_hand: bool,
) -> tuple[int, ...]:
    """The pack in the order the engine deals it: the hands one card at a time
    round ``order`` (the dealer's turned card last), then the turned card and
    the rest of the pack."""
    k, n = table.dealt, table.players
    deck = [0] * k
    for j, s in enumerate(order):
        cs = _ids(hands[s])
        if in_hand and turned in cs:
            cs.remove(turned)
            cs.append(turned)  # the dealer's last card, turned up
        deck[j:k:n] = cs
    rest = table.pack & ~dealt
    if turned >= 0 and rest >> turned & 1:
        deck.append(turned)
        rest &= ~(1 << turned)
    deck.extend(_ids(rest))
    return tuple(deck)


# --------------------------------------------------------------------------- playing


def _first_deal(g: Game, hn: int) -> tuple[int, tuple[CardSet, ...]]:
    """The dealer and the hands of hand ``hn``'s first deal: the stacked one,
    even when it was thrown in and dealt again (``redeal:``)."""
    ev = next(ev for ev in g.events if ev[0] == "deal" and ev[1] == hn)
    return ev[2], tuple(ev[4])


def _auto(g: Game) -> None:
    """The first action the engine offers to the seat to act."""
    g.apply_as_current(g.legal_actions()[0])


class _Runner:
    def __init__(
        self, v: Variant, ex: Example, g: Game, deal: _Deal, budget: ExampleBudget
    ) -> None:
        self.budget = budget
        self.v = v
        self.ex = ex
        self.g = g
        self.deal = deal
        self.note = ""
        self.start = len(g.events)  # the log before this is the hands played out first

    # ---- whose turn
    def _not_playing(self, seat: int) -> str | None:
        g = self.g
        if g.is_over:
            return "but the game is over"
        if g.phase == "bid":
            return f"but the bidding is not over ({_seat(g.to_act or 0)} is to bid)"
        if g.to_act != seat:
            return f"but it is {_seat(g.to_act or 0)}'s turn to play"
        return None

    def _not_bidding(self, seat: int) -> str | None:
        g = self.g
        if g.is_over:
            return "but the game is over"
        if g.phase != "bid":
            return "but the bidding is over"
        if seat != g.to_act and seat not in g.waiting_for:
            return f"but it is {_seat(g.to_act or 0)}'s turn to bid"
        return None

    # ---- actions
    def step(self, step: Step) -> StepResult:
        """Play one step of the example (an action line, ``play out`` or an
        ``expect`` line)."""
        if isinstance(step, Bids | ChangeBid | TakeCards | PassCards | Plays):
            self._keep_hands()
        if isinstance(step, Bids):
            return self.bids(step)
        if isinstance(step, ChangeBid):
            return self.change_bid(step)
        if isinstance(step, TakeCards):
            return self.take_cards(step)
        if isinstance(step, PassCards):
            return self.pass_cards(step)
        if isinstance(step, Plays):
            return self.plays(step)
        if isinstance(step, Calls):
            return self.calls(step)
        if isinstance(step, PlayOut):
            return self.play_out(step)
        return self.expect(step)

    def _keep_hands(self) -> None:
        """Every seat still to keep or show its hand keeps it (``redeal: ... may
        be shown``), before a line that bids, passes or plays: only a ``calls``
        line shows a hand."""
        from cardrules.engine.actions import Keep

        g = self.g
        keep = Keep()
        while not g.is_over and g.phase == "trumps" and keep in g.legal_actions():
            g.apply(keep, g.to_act or 0)

    def bids(self, step: Bids) -> StepResult:
        from cardrules.engine.actions import Look

        g = self.g
        start = len(g.events)
        for item in step.bids:
            if g.is_over or g.phase != "bid":
                raise _Fail(step.pos, f"nobody may bid {item}: the bidding is over")
            seat = g.to_act or 0
            try:
                if not item.blind and Look() in g.legal_actions(seat):
                    g.apply(Look(), seat)
                g.apply(_bid_action(item), seat)
            except IllegalAction as exc:
                raise _Fail(step.pos, f"{_seat(seat)} cannot bid {item}: {exc}") from None
        return StepResult(step, tuple(g.events[start:]))

    def change_bid(self, step: ChangeBid) -> StepResult:
        from cardrules.engine.actions import Amend

        g = self.g
        start = len(g.events)
        try:
            g.apply(Amend(step.n), step.seat)
        except IllegalAction as exc:
            raise _Fail(
                step.pos, f"{_seat(step.seat)} cannot change its bid to {step.n}: {exc}"
            ) from None
        return StepResult(step, tuple(g.events[start:]))

    def take_cards(self, step: TakeCards) -> StepResult:
        from cardrules.engine.actions import Take

        g = self.g
        start = len(g.events)
        who = _seat(step.seat)
        problem = self._not_playing(step.seat)
        if problem is not None:
            raise _Fail(step.pos, f"{who} cannot take the cards of {_seat(step.other)}, {problem}")
        try:
            g.apply(Take(), step.seat)
        except IllegalAction as exc:
            raise _Fail(step.pos, f"{who} cannot take a hand: {exc}") from None
        taken = int(g.events[start][2])
        if taken != step.other:
            raise _Fail(
                step.pos,
                f"{who} took the cards of {_seat(taken)}, not of {_seat(step.other)}: "
                "the rules say whose hand it may take",
            )
        return StepResult(step, tuple(g.events[start:]))

    def pass_cards(self, step: PassCards) -> StepResult:
        from cardrules.engine.actions import Pass

        g = self.g
        start = len(g.events)
        who = _seat(step.seat)
        for c in step.cards:
            if g.is_over or g.phase != "pass":
                raise _Fail(step.pos, f"{who} cannot pass {c}: nobody is passing cards now")
            try:
                g.apply(Pass(c), step.seat)
            except IllegalAction as exc:
                raise _Fail(step.pos, f"{who} cannot pass {c}: {exc}") from None
        return StepResult(step, tuple(g.events[start:]))

    def calls(self, step: Calls) -> StepResult:
        from cardrules.dsl.example_syntax import call_text
        from cardrules.engine.actions import (
            Alone,
            Decline,
            Discard,
            Downtown,
            Keep,
            Misere,
            Name,
            OrderUp,
            Show,
            WithPartner,
        )

        g = self.g
        start = len(g.events)
        for what, suit, c in step.calls:
            said = call_text((what, suit, c))
            # A pass is a call in an auction too (``bidding: auction``).
            auction_pass = what == "pass" and g.phase == "bid"
            if g.is_over or (g.phase != "trumps" and not auction_pass):
                raise _Fail(step.pos, f"nobody may {said}: nobody is choosing trumps now")
            seat = g.to_act or 0
            act: Action
            if what == "pass":
                act = Decline()
            elif what == "order up":
                act = OrderUp()
            elif what == "go alone":
                act = Alone()
            elif what == "play with partner":
                act = WithPartner()
            elif what == "keep the hand":
                act = Keep()
            elif what == "show the hand":
                act = Show()
            elif what in ("uptown", "downtown"):
                act = Downtown(what == "downtown")
            elif what == "misère":
                act = Misere()
            elif what == "name":
                act = Name(suit)
            else:
                assert c is not None
                act = Discard(c)
            try:
                g.apply(act, seat)
            except IllegalAction as exc:
                raise _Fail(step.pos, f"{_seat(seat)} cannot {said}: {exc}") from None
        return StepResult(step, tuple(g.events[start:]))

    def plays(self, step: Plays) -> StepResult:
        from cardrules.engine.actions import Play

        g = self.g
        start = len(g.events)
        for c in step.cards:
            if g.is_over:
                raise _Fail(step.pos, f"{c} cannot be played: the game is over")
            if g.phase == "bid":
                raise _Fail(
                    step.pos,
                    f"{c} cannot be played: the bidding is not over "
                    f"({_seat(g.to_act or 0)} is to bid)",
                )
            if g.phase == "pass":
                waiting = ", ".join(_seat(s) for s in sorted(g.waiting_for))
                raise _Fail(
                    step.pos,
                    f"{c} cannot be played: the pass is not over ({waiting} still to pass)",
                )
            if g.phase == "trumps":
                raise _Fail(
                    step.pos,
                    f"{c} cannot be played: trumps are not chosen yet "
                    f"({_seat(g.to_act or 0)} is to choose)",
                )
            seat = g.to_act or 0
            try:
                g.apply(Play(c), seat)
            except IllegalAction as exc:
                raise _Fail(step.pos, f"{_seat(seat)} cannot play {c}: {exc}") from None
        return StepResult(step, tuple(g.events[start:]))

    def play_out(self, step: PlayOut) -> StepResult:
        g = self.g
        start = len(g.events)
        hand = g.hand_number
        count = 0
        while not g.is_over and (step.game or g.hand_number == hand):
            _within(self.budget, g, step.pos)
            _auto(g)
            count += 1
        res = g.result
        if step.game and res is not None and not res.finished:
            raise _Fail(
                step.pos,
                f"the game did not end within {MAX_EXAMPLE_TRICKS:,} tricks "
                "(the most an example plays)",
            )
        return StepResult(step, tuple(g.events[start:]), _plural(count, "action"))

    # ---- expectations
    def expect(self, e: Expect) -> StepResult:
        if e.seat is not None and e.seat >= self.deal.players:
            raise _Fail(e.pos, f"there is no {_seat(e.seat)} at a table of {self.deal.players}")
        self.note = ""
        problem = _CHECKS[e.kind](self, e)
        if problem is not None:
            raise _Fail(e.pos, problem)
        return StepResult(e, (), self.note)

    def _refusal(self, g: Game, action: Action, seat: int | None = None) -> str:
        """The engine's refusal of ``action`` in a copy of ``g`` (``""`` if allowed)."""
        try:
            if seat is None:
                g.clone().apply_as_current(action)
            else:
                g.clone().apply(action, seat)
        except IllegalAction as exc:
            return str(exc)
        return ""

    def check_receives(self, e: Expect) -> str | None:
        g = self.g
        seat = e.seat or 0
        who = _seat(seat)
        if g.phase == "pass":
            waiting = ", ".join(_seat(s) for s in sorted(g.waiting_for))
            return (
                f"expected {who} to have received cards, but the pass is not over "
                f"({waiting} still to pass)"
            )
        view = g.view(seat)
        if view.pass_to is None:
            return f"expected {who} to receive cards, but nobody passes in this hand"
        got = CardSet(view.received)
        if got != CardSet(e.cards):
            want = _cards(CardSet(e.cards))
            return f"expected {who} to receive {want}, but it received {_cards(got)}"
        return None

    def check_play(self, e: Expect) -> str | None:
        from cardrules.engine.actions import Play

        g = self.g
        seat = e.seat or 0
        who = _seat(seat)
        if (why := self._not_playing(seat)) is not None:
            return f"expected {who} to be the one to play, {why}"
        held = g.hand(seat)
        # Several packs: a card held in any copy is held (its Play plays it).
        hand = CardSet(base_mask(held.mask)) if held.mask >> 64 else held
        legal = CardSet([a.card for a in g.legal_actions() if isinstance(a, Play)])
        for c in e.cards:
            if c not in hand:
                return f"expected {who} to hold {c}, but {who} holds {_cards(hand)}"
        if e.kind is ExpectKind.MAY_NOT_PLAY:
            for c in e.cards:
                if c in legal:
                    return (
                        f"expected {who} not to be allowed {c}, but {who} may play {_cards(legal)}"
                    )
                reason = self._refusal(g, Play(c))
                self.note = self.note or reason
                if e.reason and e.reason.lower() not in reason.lower():
                    return f"expected the refusal of {c} to say {e.reason!r}, but it says: {reason}"
            return None
        if e.any_card:
            if legal != hand:
                return (
                    f"expected {who} to be allowed any card, "
                    f"but {who} may play only {_cards(legal)} of {_cards(hand)}"
                )
            return None
        if e.only and legal != CardSet(e.cards):
            return (
                f"expected {who} to be allowed only {_cards(e.cards)}, "
                f"but {who} may play {_cards(legal)}"
            )
        for c in e.cards:
            if c not in legal:
                reason = self._refusal(g, Play(c))
                return f"expected {who} to be allowed {c}, but the engine refuses it: {reason}"
        return None

    def _offered(self, seat: int, blind: bool) -> tuple[list[int], Game]:
        """The bids ``seat`` may make now (the blind ones, or those after looking
        at its cards), and the game to ask (a copy that has looked, if needed)."""
        from cardrules.engine.actions import Bid, Look

        g = self.g
        opts = g.legal_actions(seat)
        if not blind and Look() in opts:
            g = g.clone()
            g.apply(Look(), seat)
            opts = g.legal_actions(seat)
        return sorted(a.n for a in opts if isinstance(a, Bid) and a.blind == blind), g

    def check_bid(self, e: Expect) -> str | None:
        from cardrules.engine.actions import Bid

        seat = e.seat or 0
        who = _seat(seat)
        if (why := self._not_bidding(seat)) is not None:
            return f"expected {who} to be the one to bid, {why}"
        if any(b.strain is not None for b in e.bids):
            return self._check_contract_bid(e, seat)
        for blind in (False, True):
            items = [b.n for b in e.bids if b.blind == blind]
            if not items:
                continue
            offered, game = self._offered(seat, blind)
            shown = _bid_words(offered, blind)
            if e.kind is ExpectKind.MAY_BID:
                if e.only and sorted(items) != offered:
                    want = _bid_words(sorted(items), blind)
                    return f"expected {who} to be offered only {want}, but {who} may bid {shown}"
                for n in items:
                    if n not in offered:
                        return (
                            f"expected {who} to be allowed to bid {_bid_words([n], blind)}, "
                            f"but {who} may bid {shown}"
                        )
                continue
            for n in items:
                word = _bid_words([n], blind)
                if n in offered:
                    return (
                        f"expected {who} not to be allowed to bid {word}, but {who} may bid {shown}"
                    )
                reason = self._refusal(game, Bid(n, blind=blind), seat)
                self.note = self.note or reason
                if e.reason and e.reason.lower() not in reason.lower():
                    return (
                        f"expected the refusal of the bid {word} to say {e.reason!r}, "
                        f"but it says: {reason}"
                    )
        return None

    def _check_contract_bid(self, e: Expect, seat: int) -> str | None:
        """``expect seat N may bid (only) 7 hearts ...`` (or ``may not bid``) in
        an auction of contracts."""
        from cardrules.engine.actions import Contract

        who = _seat(seat)
        offered = [a for a in self.g.legal_actions(seat) if type(a) is Contract]
        shown = ", ".join(a.label.removeprefix("bid ") for a in offered) or "nothing"
        wanted = [_bid_action(b) for b in e.bids]
        for a in wanted:
            word = a.label.removeprefix("bid ")
            if e.kind is ExpectKind.MAY_BID and a not in offered:
                return f"expected {who} to be allowed to bid {word}, but {who} may bid {shown}"
            if e.kind is not ExpectKind.MAY_BID and a in offered:
                return f"expected {who} not to be allowed to bid {word}, but {who} may bid {shown}"
            if e.kind is not ExpectKind.MAY_BID:
                reason = self._refusal(self.g, a, seat)
                self.note = self.note or reason
                if e.reason and e.reason.lower() not in reason.lower():
                    return (
                        f"expected the refusal of the bid {word} to say {e.reason!r}, "
                        f"but it says: {reason}"
                    )
        if e.kind is ExpectKind.MAY_BID and e.only and set(wanted) != set(offered):
            want = ", ".join(a.label.removeprefix("bid ") for a in wanted)
            return f"expected {who} to be offered only {want}, but {who} may bid {shown}"
        return None

    def check_leads(self, e: Expect) -> str | None:
        g = self.g
        want = f"expected {_seat(e.seat or 0)} to lead"
        if g.is_over:
            return f"{want}, but the game is over"
        if g.phase == "bid":
            return f"{want}, but the bidding is not over ({_seat(g.to_act or 0)} is to bid)"
        trick = g.current_trick()
        if trick:
            return (
                f"{want}, but a trick is under way: "
                f"{_seat(trick[0][0])} led and {_seat(g.to_act or 0)} plays next"
            )
        if g.to_act != e.seat:
            return f"{want}, but {_seat(g.to_act or 0)} leads"
        return None

    def check_trick(self, e: Expect) -> str | None:
        g = self.g
        seen = g.events[self.start :]
        last = next((ev for ev in reversed(seen) if ev[0] in ("trick", "dead", "pickup")), None)
        dead = e.kind is ExpectKind.TRICK_DEAD
        want = (
            "expected the trick to be dead"
            if dead
            else f"expected the trick to go to {_seat(e.seat or 0)}"
        )
        if last is None:
            return f"{want}, but no trick has been completed"
        kind, taker = str(last[0]), int(last[1])
        if kind == "dead":
            return None if dead else f"{want}, but it was dead: everyone followed suit"
        if dead and kind == "pickup":
            return f"{want}, but it was cut: {_seat(taker)} picked it up"
        if dead:
            return f"{want}, but {_seat(taker)} won it (only a shedding game has dead tricks)"
        if taker != e.seat:
            return f"{want}, but {_seat(taker)} {'picked it up' if kind == 'pickup' else 'won it'}"
        return None

    def check_scores(self, e: Expect) -> str | None:
        who = _seat(e.seat or 0)
        want = f"expected {who} to score {points_text(e.points or Fraction(0))}"
        scored = [ev for ev in self.g.events[self.start :] if ev[0] == "score"]
        if not scored:
            return f"{want}, but no hand has been scored yet"
        hand, points = int(scored[-1][1]), Fraction(scored[-1][4][e.seat or 0])
        if points != e.points:
            return f"{want} for hand {hand}, but {who} scored {points_text(points)}"
        return None

    def check_counter(self, e: Expect) -> str | None:
        who = _seat(e.seat or 0)
        want = f"expected {who} to have {e.count} {e.counter}"
        counters = dict(self.g.counters)
        if e.counter not in counters:
            names = ", ".join(counters) or "none"
            return f"{want}, but the game keeps no counter {e.counter!r} (its counters: {names})"
        got = counters[e.counter][e.seat or 0]
        return None if got == e.count else f"{want}, but it has {got}"

    def check_trumps(self, e: Expect) -> str | None:
        got = self.g.trump
        if got is e.suit:
            return None
        want = f"{e.suit.word} as trumps" if e.suit is not None else "no trumps"
        has = f"{got.word} are trumps" if got is not None else "there are no trumps"
        return f"expected {want} in hand {self.g.hand_number}, but {has}"

    def check_cards_each(self, e: Expect) -> str | None:
        g = self.g
        if g.hand_size == e.count:
            return None
        return (
            f"expected {_plural(e.count or 0, 'card')} each in hand {g.hand_number}, "
            f"but it deals {g.hand_size}"
        )

    def check_maker(self, e: Expect) -> str | None:
        g = self.g
        made = [ev for ev in g.events[self.start :] if ev[0] == "made"]
        want = f"expected {_seat(e.seat or 0)} to make trumps"
        if not made:
            return f"{want}, but nobody has made trumps"
        if made[-1][2] != e.seat:
            return f"{want}, but {_seat(int(made[-1][2]))} made them"
        return None

    def check_thrown_in(self, e: Expect) -> str | None:
        if any(ev[0] == "thrown in" for ev in self.g.events[self.start :]):
            return None
        return "expected the hand to be thrown in, but it was not"

    def _shown(self) -> list[Any]:
        """The ``redeal`` events of the example's hand (a deal thrown in is
        thrown in as it is dealt, before the example's first line)."""
        hn = self.deal.hand
        return [ev for ev in self.g.events if ev[0] == "redeal" and ev[1] == hn]

    def check_shows(self, e: Expect) -> str | None:
        shown = self._shown()
        want = f"expected {_seat(e.seat or 0)} to show the hand"
        if not shown:
            return f"{want}, but no deal of hand {self.deal.hand} was thrown in"
        if shown[0][2] != e.seat:
            return f"{want}, but {_seat(int(shown[0][2]))} showed it"
        return None

    def check_dealt_again(self, e: Expect) -> str | None:
        if self._shown():
            return None
        return f"expected hand {self.deal.hand} to be dealt again, but its deal stood"

    def check_over(self, e: Expect) -> str | None:
        g = self.g
        return (
            None if g.is_over else f"expected the game to be over, but hand {g.hand_number} goes on"
        )

    def check_out(self, e: Expect) -> str | None:
        seat = e.seat or 0
        who = _seat(seat)
        if self.v.mode is not Mode.SHEDDING:
            if not self.v.winning.knockout_below:
                return (
                    f"expected {who} to be out, but only the players of a shedding game go "
                    "out (or of a game that knocks players out)"
                )
            if not self.g.view(seat).out[seat]:
                return f"expected {who} to be knocked out, but {who} is still in"
            return None
        if not self.g.view(seat).out[seat]:
            return f"expected {who} to be out, but {who} still holds {_cards(self.g.hand(seat))}"
        return None

    def check_draws(self, e: Expect) -> str | None:
        seat = e.seat or 0
        who = _seat(seat)
        want = f"expected {who} to draw a dead card and lead it"
        seen = self.g.events[self.start :]
        last = next((ev for ev in reversed(seen) if ev[0] in ("dead", "pickup", "draw")), None)
        if last is None or last[0] != "draw":
            return f"{want}, but no card was drawn after the last trick"
        if last[1] != seat:
            return f"{want}, but {_seat(int(last[1]))} drew one"
        return None

    def check_take(self, e: Expect) -> str | None:
        from cardrules.engine.actions import Take
        from cardrules.engine.phases.shedding import _neighbour

        seat = e.seat or 0
        who, other = _seat(seat), _seat(e.other or 0)
        g = self.g
        if e.negated:
            want = f"expected {who} not to be allowed to take the cards of {other}"
        else:
            want = f"expected {who} to be allowed to take the cards of {other}"
        if self.v.mode is not Mode.SHEDDING or self.v.shedding.take_hand is TakeHand.NONE:
            return f"{want}, but in this game nobody takes another player's cards"
        neighbour = _neighbour(g, seat)
        if neighbour != e.other:
            return (
                f"{want}, but the rules would give {who} the cards of {_seat(neighbour)}, "
                f"not of {other}"
            )
        copy = g.clone()
        refusal = ""
        try:
            copy.apply(Take(), seat)
        except IllegalAction as exc:
            refusal = str(exc)
        took = next((ev for ev in copy.events[len(g.events) :] if ev[0] == "take"), None)
        if e.negated:
            if took is not None:
                return f"{want}, but {who} may take them"
            if e.reason and e.reason.lower() not in refusal.lower():
                return f"expected the refusal to say {e.reason!r}, but it says: {refusal}"
            self.note = refusal
            return None
        if took is None:
            return f"{want}, but the engine refuses: {refusal}"
        return None

    def check_holds_count(self, e: Expect) -> str | None:
        seat = e.seat or 0
        held = len(self.g.hand(seat))
        if held == e.count:
            return None
        return (
            f"expected {_seat(seat)} to hold {_plural(e.count or 0, 'card')}, but it holds {held}"
        )

    def check_result(self, e: Expect) -> str | None:
        who = _seat(e.seat or 0)
        want = {
            ExpectKind.LOSES: f"expected {who} to lose the game",
            ExpectKind.WINS: f"expected {who} to win the game",
            ExpectKind.NO_LOSER: "expected the game to end with no loser",
        }[e.kind]
        res = self.g.result
        if res is None:
            return f"{want}, but the game is not over"
        if not res.finished:
            return f"{want}, but the game did not finish"
        shedding = self.v.mode is Mode.SHEDDING
        if e.kind is ExpectKind.WINS:
            if shedding:
                return f"{want}, but a shedding game has a loser, not a winner"
            if e.seat not in res.winners:
                return f"{want}, but the game is won by {', '.join(map(_seat, res.winners))}"
            return None
        if not shedding:
            return f"{want}, but only a shedding game has a loser"
        if res.loser == (None if e.kind is ExpectKind.NO_LOSER else e.seat):
            return None
        return f"{want}, but " + (
            "nobody lost" if res.loser is None else f"{_seat(res.loser)} lost"
        )

    def check_match(self, e: Expect) -> str | None:
        g = self.g
        who = _seat(e.seat or 0)
        letter = e.kind is ExpectKind.TAKES_LETTER
        if letter:
            want = f"expected {who} to take the letter {e.letter}"
        else:
            want = f"expected {who} to deal the next game"
        if not self.v.match.word:
            return f"{want}, but this game is not played as a match (it has no match word)"
        if not g.is_over:
            return f"{want}, but the game is not over"
        loser, taken, dealer = after_game(self.v, g)
        if letter:
            if taken is None:
                return f"{want}, but nobody takes a letter: the game had no loser"
            if loser != e.seat or taken != e.letter:
                return f"{want}, but {_seat(loser or 0)} takes the letter {taken}"
            return None
        return None if dealer == e.seat else f"{want}, but {_seat(dealer)} deals it"

    def check_sees(self, e: Expect) -> str | None:
        seat = e.seat or 0
        who = _seat(seat)
        view = self.g.view(seat)
        nt = "not " if e.negated else ""
        if e.kind is ExpectKind.SEES_OWN:
            sees = view.hand is not None
            what = "its cards"
        elif e.kind is ExpectKind.SEES_SEAT:
            # A hand on the forehead, or one laid face up (every card of it
            # known to the seat: an open misère after the first trick).
            held = dict(self.g.omniscient_view().visible_hands).get(e.other or 0, ())
            known = dict(view.known_hands).get(e.other or 0, ())
            sees = e.other in dict(view.visible_hands) or (bool(held) and set(held) <= set(known))
            what = f"the cards of {_seat(e.other or 0)}"
        else:
            dead = CardSet()
            for ev in self.g.events:
                if ev[0] == "dead":
                    dead = dead | CardSet(ev[3])
            if not dead:
                return f"expected {who} {nt}to see the dead cards, but no trick is dead yet"
            hidden = dead - CardSet(view.dead)
            sees = not hidden
            what = "the dead cards"
            if sees == e.negated:
                how = "sees every one" if sees else f"does not see {_cards(hidden)}"
                return f"expected {who} {nt}to see the dead cards, but {who} {how}"
            return None
        if sees == e.negated:
            did = "sees" if sees else "does not see"
            return f"expected {who} {nt}to see {what}, but {who} {did} them"
        return None


def after_game(v: Variant, g: Game) -> tuple[int | None, str | None, int]:
    """What a :class:`~cardrules.engine.Match` does after ``g``, its first game:
    the seat that takes a letter (``None``: nobody), that letter, and the seat
    that deals the next game.

    A finished game's loser takes the first letter of the match word; the deal
    passes to the next player, or to the loser with ``deal passes: to the loser``.
    """
    res = g.result
    loser = res.loser if res is not None and res.finished else None
    letter = v.match.word[:1] if loser is not None and v.match.word else None
    if v.match.loser_deals and loser is not None:
        return loser, letter, loser
    return loser, letter, g.view(g.dealer).seat_order[0]  # the deal passes on


def _bid_action(item: BidItem) -> Action:
    """The action of one bid of an example: a ``Bid``, or a ``Contract`` for a
    bid in a strain (``7 hearts``, ``misère``)."""
    from cardrules.engine.actions import Bid, contract_bid

    if item.strain is not None:
        return contract_bid(item.n, item.strain)
    return Bid(item.n, blind=item.blind)


def _bid_words(bids: Sequence[int], blind: bool) -> str:
    return " ".join(("blind " if blind else "") + str(b) for b in bids) or "nothing"


#: Each kind of expectation, checked: ``None`` when it holds, else what happened.
_CHECKS: Final[dict[ExpectKind, Callable[[_Runner, Expect], str | None]]] = {
    ExpectKind.MAY_PLAY: _Runner.check_play,
    ExpectKind.MAY_NOT_PLAY: _Runner.check_play,
    ExpectKind.MAY_BID: _Runner.check_bid,
    ExpectKind.MAY_NOT_BID: _Runner.check_bid,
    ExpectKind.LEADS: _Runner.check_leads,
    ExpectKind.RECEIVES: _Runner.check_receives,
    ExpectKind.TRICK_TO: _Runner.check_trick,
    ExpectKind.TRICK_DEAD: _Runner.check_trick,
    ExpectKind.SCORES: _Runner.check_scores,
    ExpectKind.COUNTER: _Runner.check_counter,
    ExpectKind.TRUMPS: _Runner.check_trumps,
    ExpectKind.CARDS_EACH: _Runner.check_cards_each,
    ExpectKind.GAME_OVER: _Runner.check_over,
    ExpectKind.MAKES_TRUMPS: _Runner.check_maker,
    ExpectKind.THROWN_IN: _Runner.check_thrown_in,
    ExpectKind.SHOWS: _Runner.check_shows,
    ExpectKind.DEALT_AGAIN: _Runner.check_dealt_again,
    ExpectKind.IS_OUT: _Runner.check_out,
    ExpectKind.DRAWS: _Runner.check_draws,
    ExpectKind.MAY_TAKE: _Runner.check_take,
    ExpectKind.HOLDS_COUNT: _Runner.check_holds_count,
    ExpectKind.LOSES: _Runner.check_result,
    ExpectKind.WINS: _Runner.check_result,
    ExpectKind.NO_LOSER: _Runner.check_result,
    ExpectKind.TAKES_LETTER: _Runner.check_match,
    ExpectKind.DEALS_NEXT: _Runner.check_match,
    ExpectKind.SEES_OWN: _Runner.check_sees,
    ExpectKind.SEES_SEAT: _Runner.check_sees,
    ExpectKind.SEES_DEAD: _Runner.check_sees,
}


class _FailureOf(Protocol):
    """The failure of an example at a place (:func:`run_example`'s ``failure``)."""

    def __call__(
        self, pos: SourcePos | None, problem: str, code: str | None = None
    ) -> ExampleFailure: ...


def run_example(
    variant: Variant, example: Example, budget: ExampleBudget | None = None
) -> ExampleRun:
    """Play one example of ``variant`` through the engine.

    Never raises for a wrong example: what went wrong is in the result's
    ``failure``.

    Args:
        variant: the variant the example belongs to.
        example: one of its examples.
        budget: what the examples of the file may still play, shared by them
            (spent by this one's actions, :attr:`ExampleRun.actions`); a fresh
            one when not given. An example that would play more fails with the
            code ``examples_too_large`` at the line that goes past it, and an
            example given a spent budget fails at once, unplayed.
    """
    budget = ExampleBudget() if budget is None else budget
    source = variant.source

    def failure(pos: SourcePos | None, problem: str, code: str | None = None) -> ExampleFailure:
        where = pos or example.pos
        line = source_line(source, where.line) if where and source else None
        return ExampleFailure(example, where, problem, line, code=code)

    if budget.left <= 0:
        f = _spent(budget, example.pos)
        n = example.deal.players or variant.players.min
        empty = ExampleRun(example, n, example.deal.hand, 0, 0, (), (), None, None, (), None)
        return _evolve(empty, failure=failure(f.pos, "not played: " + f.problem, f.code))
    run = _run(variant, example, budget, failure)
    budget.spent += run.actions
    return run


def _run(
    variant: Variant,
    example: Example,
    budget: ExampleBudget,
    failure: _FailureOf,
) -> ExampleRun:
    """:func:`run_example`, its actions counted in the run (not yet spent)."""
    from cardrules.engine.game import Game

    n = example.deal.players or variant.players.min
    empty = ExampleRun(example, n, example.deal.hand, 0, 0, (), (), None, None, (), None)
    try:
        deal = _stack(variant, example)
    except _Fail as f:
        return _evolve(empty, failure=failure(f.pos, f.problem))
    decks: list[list[int]] = [[] for _ in range(deal.hand - 1)] + [list(deal.deck)]
    try:
        g = Game(
            variant,
            deal.players,
            SEED,
            deck=decks,
            first_dealer=deal.first_dealer,
            max_tricks=MAX_EXAMPLE_TRICKS,
        )
    except ValueError as exc:  # CardrulesError and the engine's argument checks
        return _evolve(empty, failure=failure(example.pos, f"cannot be played: {exc}"))
    try:
        while not g.is_over and g.hand_number < deal.hand:
            _within(budget, g, example.deal.pos)
            _auto(g)
    except _Fail as f:
        return _evolve(empty, failure=failure(f.pos, f.problem, f.code), actions=g.version)
    except ValueError as exc:  # CardrulesError: a hand before the example's own
        bad = failure(example.pos, f"cannot be played: {exc}")
        return _evolve(empty, failure=bad, actions=g.version)
    empty = _evolve(empty, actions=g.version)
    problem = _hand_not_reached(variant, g, deal)
    if problem is not None:
        return _evolve(empty, failure=failure(example.deal.pos, problem))
    hands = tuple(CardSet(m) for m in deal.hands)
    redealt = any(ev[0] == "redeal" for ev in g.events)
    if any(m >> 64 for m in deal.hands):
        # Several packs: the engine numbers a deal's copies its own way (and the
        # log shows a copy as its card, so the hands are read from the game).
        hands = tuple(CardSet(m) for m in deal_copies(deal.hands, _turned_taken(g, deal)))
        dealt = (g.dealer, tuple(g.hand(s) for s in range(deal.players)))
    else:
        dealt = _first_deal(g, deal.hand)
    if (
        g.hand_number != deal.hand
        or dealt != (deal.dealer, hands)
        or (not redealt and g.turned_up is not None and int(g.turned_up) != deal.turned)
    ):  # pragma: no cover - a stacked deal the engine dealt otherwise: a bug
        problem = "cannot be dealt as written (the engine dealt otherwise: please report this)"
        return _evolve(empty, failure=failure(example.pos, problem))
    run = ExampleRun(
        example,
        deal.players,
        deal.hand,
        deal.size,
        deal.dealer,
        hands,
        tuple(CardSet(m) for m in deal.named),
        g.trump,
        g.turned_up,
        (),
        None,
    )
    return _play_steps(run, _Runner(variant, example, g, deal, budget), failure)


def _turned_taken(g: Game, deal: _Deal) -> int:
    """The turned card's bit when it is in no hand (it is its card's first copy)."""
    t = deal.turned
    if t < 0 or any(m >> t & 1 for m in deal.hands):
        return 0
    return 1 << (t & 63)


def _hand_not_reached(variant: Variant, g: Game, deal: _Deal) -> str | None:
    """Why the game ``g``, its hands before the example's played out, cannot
    deal the example's hand; ``None`` when it can."""
    if g.hand_number < deal.hand and g.is_over and g.result is not None and g.result.finished:
        return (
            f"the game, its hands played out, is over after hand {g.hand_number}, "
            f"before hand {deal.hand}"
        )
    if g.hand_number < deal.hand:
        return (
            f"the hands before hand {deal.hand} take more than {MAX_EXAMPLE_TRICKS:,} tricks "
            "to play out (the most an example plays)"
        )
    gone = [s for s in range(deal.players) if g.view(s).out[s]] if not g.is_over else []
    if gone and variant.mode is not Mode.SHEDDING:
        names = [_seat(s) for s in gone]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return (
            f"the hands before hand {deal.hand}, played out, knock out "
            f"{who}, so hand {deal.hand} cannot be dealt "
            "to every player: give the deal of an earlier hand"
        )
    return None


def _play_steps(run: ExampleRun, runner: _Runner, failure: _FailureOf) -> ExampleRun:
    """Play the example's steps on the runner's game, its hand dealt: ``run``
    with the steps played, up to the first that fails."""
    g, budget = runner.g, runner.budget
    done: list[StepResult] = []
    for step in run.example.steps:
        try:
            done.append(runner.step(step))
            if g.version > budget.left:  # the bids and plays the step names
                raise _spent(budget, step.pos)
        except _Fail as f:
            bad = failure(f.pos, f.problem, f.code)
            return _evolve(run, steps=tuple(done), failure=bad, actions=g.version)
        except ValueError as exc:  # pragma: no cover - every refusal is caught above
            bad = failure(step.pos, str(exc))
            return _evolve(run, steps=tuple(done), failure=bad, actions=g.version)
    return _evolve(run, steps=tuple(done), actions=g.version)


def _evolve(run: ExampleRun, **changes: object) -> ExampleRun:
    return attrs.evolve(run, **changes)  # type: ignore[arg-type]


def run_examples(variant: Variant) -> list[ExampleFailure]:
    """Play every example of ``variant`` through the engine; the ones that fail.

    ``cardrules check`` prints each failure (``str(failure)``) and exits 1 when
    there is any. The examples share one :class:`ExampleBudget`: once they have
    played :data:`MAX_FILE_EXAMPLE_ACTIONS` actions, the one playing fails
    (code ``examples_too_large``, at its line that went past it) and the
    examples after it are not played.

    Example:
        >>> from cardrules import load
        >>> run_examples(load("oh-hell"))
        []
    """
    return [r.failure for r in run_all(variant) if r.failure is not None]


def run_all(variant: Variant, budget: ExampleBudget | None = None) -> list[ExampleRun]:
    """Play the examples of ``variant`` in order under one budget (a fresh
    :class:`ExampleBudget` when not given), up to and including the first
    that spends it (its failure has the code ``examples_too_large``): the runs.

    Example:
        >>> from cardrules import load
        >>> budget = ExampleBudget()
        >>> runs = run_all(load("oh-hell"), budget)
        >>> all(r.holds for r in runs), sum(r.actions for r in runs) == budget.spent
        (True, True)
    """
    budget = ExampleBudget() if budget is None else budget
    runs: list[ExampleRun] = []
    for ex in variant.examples:
        run = run_example(variant, ex, budget)
        runs.append(run)
        if run.failure is not None and run.failure.code == "examples_too_large":
            break
    return runs
