"""Playing to a trick: who leads, which cards may be played, and why not.

The play phase of a hand starts with :func:`_start_play` (the first leader).
What a seat may play is the compiled rules' card-set lists evaluated on its
hand (:func:`_legal_plays`, :func:`_choose`): the first lead's card or suit,
then the lead rule or the follow rule, then the first trick's rule.
:func:`_play_legal` gives the legal actions of the seat to play, with a fast
path for plain follow-suit rules.

The play of a legal card itself is done inline by
:meth:`Game.apply <cardrules.engine.game.Game.apply>` (the engine's hot path: the
trick's running winner, broken suits, the log, the next seat); the end of a
trick is :mod:`~cardrules.engine.phases.trick`'s. :func:`_take_back_play` undoes a
play that completed a trick whose hand cannot be scored, and
:func:`_refuse_play` raises the reason a play is not legal.

Every function takes the game as its first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from cardrules.cards import FULL_DECK_MASK, SUIT_MASKS, copies_mask
from cardrules.engine.actions import Action, Amend, Bid, Look, Play
from cardrules.engine.phases.shedding import _TAKE, _may_take
from cardrules.engine.state.compiled_rules import CompiledChoice
from cardrules.engine.state.ranks import _led_suit, _special_beats
from cardrules.engine.state.tables import _BITS, _PLAY, _SUIT_OF, legal_copies
from cardrules.engine.state.transitions import (
    enter_phase,
    forget_legal,
    give_turn,
    set_legal,
    unlog_event,
)
from cardrules.engine.views.refusals import _explain_play, _refusal

if TYPE_CHECKING:
    from cardrules.engine.game import Game


def _start_play(g: Game) -> None:
    """The play phase of the hand: the first leader (the dealer's neighbour, or
    the holder of the lead card when the rules say so) is to act."""
    r = g._rules
    enter_phase(g, _PLAY)
    leader = g._seats[0]  # the dealer's neighbour (still in)
    if r.leader_declarer and g._maker >= 0:
        leader = g._maker
    elif r.leader_holder:
        bit = _BITS[r.lead_card]
        if r.copies:
            # Several packs: of the holders of a copy of the card, the first in
            # turn from the dealer's neighbour leads.
            bit = copies_mask(bit, r.packs)
            leader = next((s for s in g._seats if g._hands[s] & bit), leader)
        else:
            for s, h in enumerate(g._hands):
                if h & bit:
                    leader = s
                    break
    g._leader = leader
    give_turn(g, leader)
    forget_legal(g)


def _play_legal(g: Game) -> tuple[Action, ...]:
    """The legal actions of the seat to play, cached in ``g._legal`` until the
    next action (and ``g._legal_mask``, the mask of their cards).

    Under plain follow-suit rules (and a free lead after the first trick) the
    mask is read from the hand directly; otherwise the rules' lists decide
    (:func:`_legal_plays`). Also notes whether a lead now would be forced
    (for rules that break a suit by a forced lead).
    """
    s = g._to_act
    trick = g._trick
    r = g._rules
    hand = g._hands[s]
    mask = -1
    if trick:
        if r.plain_follow:
            # The common case: must follow, nothing else.
            mask = hand & SUIT_MASKS[_SUIT_OF[trick[0]]]
            if not mask and r.free_void:
                mask = hand
    else:
        if r.break_forced:
            # Leading only what the lead rule's first set bars breaks it.
            lead = r.lead
            g._forced_lead = lead is not None and _choose(g, lead, hand)[1] > 0
        if r.free_lead and (g._tricks_played or (not r.first_lead and r.first_trick_free)):
            mask = hand
    if mask <= 0:
        mask = _legal_plays(g, s)[0]
    if r.copies:
        mask = legal_copies(mask)
    legal: tuple[Action, ...] = r.plays_of(mask)
    if r.take_hand and not trick and _may_take(g):
        # A shedding game's leader may first take a neighbour's hand.
        legal = (*legal, _TAKE)
    set_legal(g, legal, mask)
    return legal


def _legal_copy(g: Game, c: int) -> int:
    """In a game of several packs, the copy of card ``c`` the seat to play may
    play now (the lowest it holds, as its legal set has it); -1 if none."""
    if g._phase != _PLAY or not 0 <= c < 52:
        return -1
    if g._legal is None:
        _play_legal(g)
    m = g._legal_mask & copies_mask(_BITS[c], g._rules.packs)
    return (m & -m).bit_length() - 1 if m else -1


def _legal_plays(g: Game, s: int) -> tuple[int, int, int]:
    """The mask of cards seat ``s`` may play now, the rule that limited it and
    which set of that rule's list applied.

    Rule codes: 0 none, 1 the first lead's card, 2 the first lead's suit,
    3 the lead rule, 4 the follow rule, 5 the first trick's rule.
    """
    hand = g._hands[s]
    r = g._rules
    trick = g._trick
    first_trick = g._tricks_played == 0
    if not trick:
        if first_trick and r.first_lead:
            lc = r.lead_card
            if r.first_lead == 1:
                if hand >> lc & 1:
                    return _BITS[lc], 1, 0
                if r.copies and hand & copies_mask(_BITS[lc], r.packs):
                    return hand & copies_mask(_BITS[lc], r.packs), 1, 0
            else:
                ranks = g._ranks
                m = hand & ranks.suit_masks[ranks.suit_of[lc]]
                if m:
                    return m, (2 if m != hand else 0), 0
        rule, code = r.lead, 3
    else:
        rule, code = r.follow, 4
    mask, option = hand, -1
    if rule is not None:
        mask, option = _choose(g, rule, hand)
        if mask == hand:
            code = 0
    if first_trick and r.first_trick is not None:
        narrowed, opt = _choose(g, r.first_trick, mask)
        if narrowed != mask:
            return narrowed | (hand & r.any_time_mask), 5, opt
    if r.any_time_mask:
        # Special cards that may be played at any time (``played at any time``).
        mask |= hand & r.any_time_mask
    return mask, (code if option >= 0 else 0), option


def _choose(g: Game, rule: CompiledChoice, hand: int) -> tuple[int, int]:
    """The cards of ``hand`` in the first set of ``rule`` that holds one, and
    that set's index (``hand`` and -1 when no set does)."""
    trick = g._trick
    trump = g._trump
    ranks = g._ranks
    suit_masks = ranks.suit_masks
    trumps = suit_masks[trump] if trump >= 0 else 0
    led = suit_masks[ranks.suit_of[trick[0]]] if trick else 0
    if trick and g._rules.card_powers:
        # The suit of the first card with a suit (none after a card that always wins).
        led_suit = _led_suit(ranks.codes, ranks.suit_of, trick)
        led = suit_masks[led_suit] if led_suit >= 0 else 0
    win = -1
    unbroken = ranks.unbroken[g._broken_suits]
    for i, (const, dyn) in enumerate(rule):
        m = hand & const
        for code, cmask, only_unbroken, negated in dyn:
            if not m:
                break
            if code == 1:
                t = led
            elif code == 2:
                t = trumps
            elif code == 3:
                if win < 0:
                    win = _winning_mask(g, trumps)
                t = win
            elif code == 4:
                t = suit_masks[cmask]
            else:
                t = cmask
            if only_unbroken:
                t &= unbroken
            m = m & ~t if negated else m & t
        if m:
            return m, i
    return hand, -1


def _winning_mask(g: Game, trumps: int) -> int:
    """The cards that would win the trick as it stands (all of them, when leading)."""
    if not g._trick:
        return FULL_DECK_MASK
    best = g._winning_card
    above = g._ranks.above[best]
    if trumps and trumps >> best & 1:
        return above
    return above | trumps


def _take_back_play(g: Game, s: int, c: int) -> None:
    """Undo the play of card ``c`` by seat ``s`` that completed a trick (before
    the trick is gathered)."""
    g._hands[s] |= _BITS[c]
    trick = g._trick
    trick.pop()
    g._trick_seats.pop()
    unlog_event(g)
    best = trick[0]
    best_seat = g._trick_seats[0]
    trump = g._trump
    suit_of, power = g._ranks.suit_of, g._ranks.power
    last = g._rules.identical_last
    for card_, seat in zip(trick, g._trick_seats, strict=True):
        if g._rules.card_powers:
            if card_ != best and _special_beats(g._ranks.codes, g._ranks, trump, best, card_):
                best, best_seat = card_, seat
        elif suit_of[card_] == suit_of[best]:
            if power[card_] > power[best] or (
                last and card_ != best and power[card_] == power[best]
            ):
                best, best_seat = card_, seat
        elif suit_of[card_] == trump or _joker_over(g, card_, best):
            best, best_seat = card_, seat
    g._winning_card = best
    g._winning_seat = best_seat
    forget_legal(g)


def _joker_over(g: Game, c: int, best: int) -> bool:
    """``c``, played off the suit of ``best``, beats it as a joker does in a hand
    without trumps with ``jokers without trumps: highest card`` (the big joker
    over the little one)."""
    return g._trump < 0 and 52 <= c < 54 and g._rules.joker_highest and (best < 52 or best < c)


def _refuse_play(g: Game, actor: int, action: Action) -> NoReturn:
    """Raise the reason ``action`` by seat ``actor`` is refused in the play
    phase (it is not legal now: the game is unchanged)."""
    if actor != g._to_act:
        raise _refusal(
            "not_your_turn",
            f"it is seat {g._to_act}'s turn to play, not seat {actor}'s",
            actor,
            action,
            {"to_act": g._to_act, "phase": "play"},
        )
    if type(action) is not Play:
        if isinstance(action, Bid | Look | Amend):
            raise _refusal(
                "not_in_phase",
                f"the bidding is over: {action.label} is not possible now",
                actor,
                action,
                {"phase": "play"},
            )
        raise _refusal(
            "not_in_phase",
            f"{action.label} is not possible now: seat {actor} is to play a card",
            actor,
            action,
            {"phase": "play"},
        )
    c = int(action.card)
    if g._rules.copies:
        # Several packs: the refusal is about the copy the seat holds, if any.
        held = g._hands[actor] & copies_mask(_BITS[c], g._rules.packs)
        c = (held & -held).bit_length() - 1 if held else c
    code, why, data = _explain_play(
        g._rules,
        c,
        g._hands[actor],
        _legal_plays(g, actor),
        g._trump,
        g._trick,
        g._winning_card,
        g._ranks.suit_of,
        g._ranks.codes,
    )
    raise _refusal(code, why, actor, action, data)
