"""Dealing: seeded shuffles, given card orders, the first dealer and recorded deals.

A seed deals the same cards on every platform and Python version: each hand's
shuffle reads 52 words (54 for a pack with jokers) of SHAKE-128 of the seed and
the hand number.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Iterable, Sequence
from typing import Final

from cardrules.cards import CARD_BY_ID, CARDS, MAX_PACKS, Card, CardSet, card, is_copy_id
from cardrules.counted import counted
from cardrules.engine.events import Entry
from cardrules.engine.state.compiled_rules import _Rules
from cardrules.engine.views.refusals import _cards_text
from cardrules.errors import CardError, SaveError, VariantError
from cardrules.rules import FirstDealer, Variant

_U64X52: Final = struct.Struct("<52Q").unpack
_U64X54: Final = struct.Struct("<54Q").unpack


def _random_words(seed: int, idx: int, jokers: bool = False, size: int = 0) -> tuple[int, ...]:
    """52 uniform 64-bit words for hand ``idx`` (0-based) of the game with ``seed``;
    54 for a pack with more than 52 cards (``jokers``); ``size + 1`` for a pack of
    ``size`` cards over 54 (special cards, or several packs). SHAKE-128 is an
    extendable output: the first 52 of the 54 words are the 52 words, and so on."""
    digest = hashlib.shake_128(b"cardrules:%d:%d" % (seed, idx))
    if size > 54:
        return struct.unpack(f"<{size + 1}Q", digest.digest(8 * (size + 1)))
    return _U64X54(digest.digest(432)) if jokers else _U64X52(digest.digest(416))


def _shuffled(words: tuple[int, ...], pack: tuple[int, ...], k: int) -> list[int]:
    """The pack shuffled with the random words (a Fisher-Yates shuffle).

    The words come from SHAKE-128 of the seed and the hand number, so a seed
    deals the same cards on every platform and Python version; the modulo
    bias is below 2**-57. Only the first ``k`` places are shuffled (the rest are
    never dealt or seen); word 51 is left for the first dealer, so places 51
    and 52 of a pack with jokers read words 52 and 53.
    """
    order = list(pack)
    m = len(order)
    last = min(k, m - 1)
    for i in range(min(last, 51)):
        j = i + words[i] % (m - i)
        order[i], order[j] = order[j], order[i]
    for i in range(51, last):
        j = i + words[i + 1] % (m - i)
        order[i], order[j] = order[j], order[i]
    return order


def _cut_rank(c: int) -> int:
    """A card's rank in the cut for the first dealer: 0 (a two) to 12 (an ace), and
    13 and 14 for the little and the big joker."""
    return c % 13 if c < 52 else c - 39


def _first_dealer(
    v: Variant, n: int, pack: tuple[int, ...], words: tuple[int, ...], events: list[Entry]
) -> int:
    """The first dealer by the variant's rule (word 51 of the first hand's words
    drives a random choice or the cut); each round of cutting is logged."""
    rule = v.dealer
    if rule.first is FirstDealer.SEAT:
        if not 0 <= rule.seat < n:
            raise VariantError(
                f"{v.name}: the first dealer is seat {rule.seat}, but there are only {n} seats"
            )
        return rule.seat
    if rule.first is FirstDealer.RANDOM:
        return words[51] % n
    # Cut: every seat still in draws a card; the highest rank deals; ties cut again.
    rng = random.Random(words[51])
    contenders = list(range(n))
    cards = list(pack)
    while True:
        drawn = rng.sample(cards, len(contenders))
        cut = tuple((s, CARDS[c]) for s, c in zip(contenders, drawn, strict=True))
        events.append(("cut", cut))
        # By rank, aces high; a joker cuts above every ace, the big above the little.
        top = max(_cut_rank(c) for c in drawn)
        contenders = [s for s, c in zip(contenders, drawn, strict=True) if _cut_rank(c) == top]
        if len(contenders) == 1:
            return contenders[0]


#: The most rounds of a given cut for the first deal (each tie cuts again).
MAX_CUT_ROUNDS: Final = 64


def _given_cut(
    v: Variant,
    n: int,
    pack_mask: int,
    cuts: Sequence[Sequence[tuple[int, Card]]],
    events: list[Entry],
) -> int:
    """The first dealer of the given rounds of a cut (made instead of the
    seed's: a world sampled for one seat keeps the cut it saw), each round
    logged. The rounds must be a cut the rules make: every seat draws a
    card of the pack in the first round, the seats tied for the highest rank
    in the next, until one is highest. SaveError otherwise."""
    if v.dealer.first is not FirstDealer.CUT:
        raise SaveError(f"{v.name} does not cut for the first deal: no cut may be given")
    if len(cuts) > MAX_CUT_ROUNDS:
        raise SaveError(f"a cut for the deal has at most {MAX_CUT_ROUNDS} rounds, not {len(cuts)}")
    contenders = list(range(n))
    rounds: list[tuple[tuple[int, Card], ...]] = []
    for k, raw in enumerate(cuts):
        drawn = _given_cut_round(k, raw, contenders, pack_mask)
        rounds.append(tuple((s, c) for s, c in zip(contenders, drawn, strict=True)))
        top = max(_cut_rank(int(c)) for c in drawn)
        contenders = [s for s, c in zip(contenders, drawn, strict=True) if _cut_rank(int(c)) == top]
    if len(contenders) != 1:
        raise SaveError("the cut for the deal does not end with one seat highest")
    for cut in rounds:
        events.append(("cut", cut))
    return contenders[0]


def _given_cut_round(
    k: int, raw: Sequence[tuple[int, Card]], contenders: list[int], pack_mask: int
) -> list[Card]:
    """The cards drawn in round ``k`` (from 0) of a given cut, which must be
    cut by the seats still contending, each a different card of the pack."""
    if not contenders or len(contenders) == 1:
        raise SaveError(f"round {k + 1} of the cut comes after the first dealer is known")
    pairs = tuple(raw)
    seats = [p[0] if isinstance(p, tuple | list) and len(p) == 2 else None for p in pairs]
    if seats != contenders:
        raise SaveError(f"round {k + 1} of the cut must be cut by seats {contenders}")
    drawn = [p[1] for p in pairs]
    if not all(type(c) is Card and pack_mask >> int(c) & 1 for c in drawn):
        raise SaveError(f"round {k + 1} of the cut draws a card that is not in the pack")
    if len({int(c) for c in drawn}) != len(drawn):
        raise SaveError(f"round {k + 1} of the cut draws a card twice")
    return drawn


# --------------------------------------------------------------------------- given decks


def _parse_deck(cards: Iterable[object], pack_mask: int, what: str) -> tuple[int, ...]:
    out: list[int] = []
    seen = 0
    for x in cards:
        if isinstance(x, str):
            c = int(card(x))
        elif type(x) is Card or (type(x) is int and (0 <= x < 64 or is_copy_id(x))):
            c = int(x)  # type: ignore[call-overload,unused-ignore]
        else:
            raise CardError(f"{what}: {x!r} is not a card")
        while seen >> c & 1 and pack_mask >> (c + 64) & 1 and c < 52 + 64 * (MAX_PACKS - 1):
            c += 64  # several packs: a card named again is its next copy
        if seen >> c & 1:
            raise CardError(f"{what}: {CARD_BY_ID[c]} appears twice")
        if not pack_mask >> c & 1:
            raise CardError(f"{what}: {CARD_BY_ID[c]} is not in this variant's pack")
        seen |= 1 << c
        out.append(c)
    # Complete a partial deck with the rest of the pack, lowest card first.
    rest = pack_mask & ~seen
    out.extend(int(c) for c in CardSet(rest))
    return tuple(out)


def _normalise_decks(
    deck: object, pack_mask: int, max_decks: int
) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """Returns (decks, reuse). ``reuse``: one order used for every hand.

    A list of decks longer than ``max_decks`` (the most hands the game can deal)
    is refused before any of it is read: it may be untrusted (a saved game)."""
    if isinstance(deck, str):
        return (_parse_deck(deck.replace(",", " ").split(), pack_mask, "deck"),), True
    if isinstance(deck, CardSet):
        raise CardError("deck must be a card order (a list), not a CardSet")
    if not isinstance(deck, Sequence):
        raise CardError(
            f"deck must be a list of cards or a list of decks, got {type(deck).__name__}"
        )
    if deck and isinstance(deck[0], Sequence) and not isinstance(deck[0], str):
        if len(deck) > max_decks:
            raise CardError(
                f"{len(deck)} decks given, but this game deals at most {max_decks} hands"
            )
        decks = tuple(
            _parse_deck(
                d.replace(",", " ").split() if isinstance(d, str) else d,
                pack_mask,
                f"deck {i + 1}",
            )
            for i, d in enumerate(deck)
        )
        return decks, False
    return (_parse_deck(deck, pack_mask, "deck"),), True


# --------------------------------------------------------------------------- recorded deals


def _check_deal(
    r: _Rules,
    n: int,
    dealt_from: tuple[int, ...],
    hn: int,
    size: int,
    hands: list[int],
    turned: int,
    turn_up: bool,
    dealers_card: bool = False,
) -> None:
    """Validate a recorded deal (from a save or a log) of hand ``hn``; ``dealt_from``
    is the seats dealt to in dealing order, from the dealer's neighbour round to
    the dealer: every seat, or only those still in when players are knocked out
    (the others must hold no card); ``dealers_card``: the turned card is the
    dealer's own last card."""
    if len(hands) != n:
        raise SaveError(f"hand {hn}: {len(hands)} hands dealt for {n} players")
    seen = _check_dealt_hands(r, n, dealt_from, hn, size, hands)
    _check_turned(r, dealt_from, hn, size, hands, seen, turned, turn_up, dealers_card)


def _check_dealt_hands(
    r: _Rules, n: int, dealt_from: tuple[int, ...], hn: int, size: int, hands: list[int]
) -> int:
    """Each hand of a recorded deal must hold cards of the pack, none dealt
    twice, as many as the hand deals the seat; the cards of them all."""
    m = len(dealt_from)
    seen = 0
    for s, h in enumerate(hands):
        if type(h) is not int or h < 0 or h & ~r.pack_mask:
            raise SaveError(f"hand {hn}: seat {s} holds cards that are not in the pack")
        if h & seen:
            raise SaveError(f"hand {hn}: {_cards_text(h & seen)} dealt twice")
        want = size
        if r.whole_pack and not r.tricks_mode:
            want = len(range(dealt_from.index(s), len(r.pack), n))
        elif m < n and s not in dealt_from:
            want = 0  # knocked out: dealt nothing
        if h.bit_count() != want:
            raise SaveError(
                f"hand {hn}: seat {s} was dealt {counted(h.bit_count(), 'card')}, "
                f"but this hand deals {want}"
                + (" (the seat is knocked out)" if m < n and not want else "")
            )
        seen |= h
    return seen


def _check_turned(
    r: _Rules,
    dealt_from: tuple[int, ...],
    hn: int,
    size: int,
    hands: list[int],
    seen: int,
    turned: int,
    turn_up: bool,
    dealers_card: bool,
) -> None:
    """The card turned up in a recorded deal (``seen``: the cards dealt) must
    be the one the hand turns up: the dealer's last card, a card of the pack
    left after the deal (or the dealer's last when none is left), or none."""
    dealer = dealt_from[-1]
    m = len(dealt_from)
    if dealers_card:
        if turned < 0 or not hands[dealer] >> turned & 1:
            raise SaveError(f"hand {hn}: the dealer's last card must be turned up for trumps")
    elif turned >= 0:
        if not turn_up:
            raise SaveError(f"hand {hn}: a card is turned up, but this hand turns none")
        if not r.pack_mask >> turned & 1:
            raise SaveError(f"hand {hn}: the turned-up card is not in the pack")
        in_hand = bool(seen >> turned & 1)
        left = len(r.pack) > size * m
        if in_hand and (left or not hands[dealer] >> turned & 1):
            raise SaveError(f"hand {hn}: the turned-up card {CARD_BY_ID[turned]} is also in a hand")
        if not in_hand and not left:
            raise SaveError(f"hand {hn}: no card is left to turn up")
    elif turn_up and (len(r.pack) > size * m or not r.trump_rule.none_when_pack_empty):
        raise SaveError(f"hand {hn}: this hand turns up a card for trumps, but none was recorded")


def _deck_of_deal(
    r: _Rules,
    n: int,
    dealt_from: tuple[int, ...],
    size: int,
    hands: tuple[int, ...],
    turned: int,
) -> list[int]:
    """A card order that deals exactly ``hands`` (and turns up ``turned``) when
    dealt one card at a time from the front to the seats ``dealt_from`` (the
    dealer's neighbour round to the dealer), as a game deals: so a save of a game
    whose deals were given (:func:`~cardrules.engine.state.saves.replay`) can record
    them as decks. ``hands`` must be a valid deal (:func:`_check_deal`); with
    players knocked out, ``dealt_from`` holds only the seats still in."""
    n = len(dealt_from)
    k = len(r.pack) if r.whole_pack and not r.tricks_mode else size * n
    order = [0] * k
    dealt = 0
    for j in range(n):
        mask = hands[dealt_from[j]]
        dealt |= mask
        cs = [int(c) for c in CardSet(mask)]
        if turned >= 0 and mask >> turned & 1:
            # The pack ran out: the dealer's last card, the last one dealt, is turned.
            cs.remove(turned)
            cs.append(turned)
        order[j:k:n] = cs
    rest = r.pack_mask & ~dealt
    if turned >= 0 and rest >> turned & 1:
        order.append(turned)  # the next card, turned up
        rest &= ~(1 << turned)
    order.extend(int(c) for c in CardSet(rest))
    return order
