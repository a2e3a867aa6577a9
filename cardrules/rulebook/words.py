"""Plain-English phrases for each rule of a :class:`~cardrules.rules.Variant`.

The rules pages (:mod:`cardrules.rulebook`) are assembled from these phrases,
and "Differences from <parent>" compares two variants rule by rule with them:
:data:`RULES` maps every setting of a variant to the rule it belongs to, so a
setting that changes is always reported under a name a card player knows (each
setting's declaration, in :mod:`cardrules.dsl.settings`, names its rule; the
rule's words are here).

Every phrase says what the engine does with the rule, and only speaks of a
feature the variant has: a game without bidding never hears of bids or the
hook, a game whose hands never have trumps never hears of trumps. Text from the
variant file (a match word, an option given on the command line) goes through
:mod:`cardrules.rulebook.safe`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import attrs

from cardrules.card_rules import CardSetRule, TermKind
from cardrules.cards import STRAIN_WORDS, Card, CardSet, Rank, Suit
from cardrules.dsl.conditions import condition_text, condition_words
from cardrules.dsl.settings.registry import BY_NAME, SETTING_LINES, page_rule_fields
from cardrules.rulebook.follow import (
    break_phrase,
    choice_phrase,
    choice_words,
    first_trick_rule,
    lead_rule,
    play_flags,
    uses_unbroken,
)
from cardrules.rulebook.hand_trumps import has_trumps, no_card_hands
from cardrules.rulebook.length import length_is_a_guard, target_words
from cardrules.rulebook.safe import md_text, plain
from cardrules.rules import (
    MAX_REDEALS_IN_A_ROW,
    BidStyle,
    DeadTricks,
    Direction,
    DowntownRule,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    JokerNoTrump,
    Mode,
    NamerTie,
    PassTo,
    Pattern,
    SpecialPower,
    TakeBacks,
    TieBreak,
    TrumpCard,
    TrumpCardKind,
    TrumpKind,
    TrumpLead,
    TrumpNamer,
    TurnedSpecial,
    Variant,
    apply_changes,
    jokers_turned,
)

__all__ = [
    "IDENTITY_FIELDS",
    "RULES",
    "SETTING_LINES",
    "Difference",
    "Rule",
    "count_word",
    "counts_phrase",
    "differences",
    "join_words",
    "leaf_settings",
    "left_or_right",
    "ordinal",
    "plural",
]

#: Settings that name or describe a variant rather than change how it plays
#: (the cases of the score name hands, never change them).
IDENTITY_FIELDS = frozenset(
    {
        "name",
        "title",
        "summary",
        "aliases",
        "parent",
        "options",
        "positions",
        "source",
        "path",
        "examples",
        "cases",
        "story",
        "tips",
        "choices",
    }
)

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)


def count_word(n: int) -> str:
    """``3`` -> ``"three"`` for small numbers, digits above ten."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def ordinal(n: int) -> str:
    """``1`` -> ``"1st"``, ``2`` -> ``"2nd"``, ``11`` -> ``"11th"``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def join_words(items: list[str], last: str = "and") -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def left_or_right(v: Variant) -> str:
    """Which neighbour of the dealer comes next: ``"left"`` or ``"right"``."""
    return "left" if v.direction is Direction.CLOCKWISE else "right"


def suit_word(s: Suit | None) -> str:
    """``Suit.SPADES`` -> ``"spades ♠"``; ``None`` -> ``"no trumps"``."""
    return "no trumps" if s is None else f"{s.word} {s.symbol}"


def _better(v: Variant, a: Fraction, b: Fraction) -> bool:
    """True when ``a`` points are better than ``b`` (more, or fewer when the lowest wins)."""
    return a > b if v.scoring.higher_wins else a < b


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1`` and ``"card"`` -> ``"1 card"``; ``3`` -> ``"3 cards"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def counts_phrase(counts: Sequence[int]) -> str:
    """``[4]`` -> ``"4 players"``; ``[3, 4, 5, 7]`` -> ``"3 to 5 and 7 players"``."""
    runs: list[tuple[int, int]] = []
    for n in sorted(counts):
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    parts = [
        str(lo) if lo == hi else (f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}")
        for lo, hi in runs
    ]
    return f"{join_words(parts)} players"


def suit_one(s: Suit) -> str:
    """``Suit.SPADES`` -> ``"spade"``."""
    return s.word[:-1]


# --------------------------------------------------------------------------- phrases


def players_phrase(v: Variant) -> str:
    """How many may play, such as ``"3 to 7 players"``."""
    lo, hi = v.players.min, v.players.max
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"


def _count_span(counts: Sequence[int]) -> str:
    """``[3]`` -> ``"3"``, ``[3, 4, 5]`` -> ``"3 to 5"``, ``[3, 5]`` -> ``"3 and 5"``."""
    if len(counts) > 2 and counts[-1] - counts[0] == len(counts) - 1:
        return f"{counts[0]} to {counts[-1]}"
    return join_words([str(n) for n in counts])


def players_short(v: Variant) -> str:
    """How many may play, as a bare range such as ``"3 to 7"``."""
    lo, hi = v.players.min, v.players.max
    return str(lo) if lo == hi else f"{lo} to {hi}"


def deck_phrase(v: Variant) -> str:
    """The pack, such as ``"one standard 52-card pack, aces high"``; a pack
    that depends on the number of players (``deck: 9 to ace for 3 players``)
    is given for each number."""
    if any(c.key == "deck" for c in v.conditional):
        by_pack: dict[str, list[int]] = {}
        for n in v.players.counts():
            text = deck_phrase(v.for_players(n).evolve(conditional=()))
            by_pack.setdefault(text, []).append(n)
        return "; ".join(
            f"for {_count_span(counts)} players, {text}" for text, counts in by_pack.items()
        )
    """The pack, such as ``"one standard 52-card pack, aces high"``, and the
    special cards it adds, with their powers."""
    text = _standard_deck_phrase(v)
    return text + special_cards_phrase(v) if v.deck.specials else text


def special_cards_phrase(v: Variant) -> str:
    """The special cards of the pack and their powers (``special cards:``), as
    a clause that follows the pack: ``"; and 8 special cards (60 cards in all):
    4 wizards (X1 to X4), which always win the trick..."``."""
    d = v.deck
    total = sum(k.count for k in d.specials)
    parts = []
    names = d.card_names()
    for k in d.specials:
        ids = d.special_ids(k.plural)
        first, last = (names.get(c, f"X{c - 53}") for c in (ids[0], ids[-1]))
        codes = first + (f" to {last}" if len(ids) > 1 else "")
        power = d.power_of(k.plural)
        parts.append(f"{k.count} {k.plural if k.count > 1 else d.singular_of(k)} ({codes})")
        if power is None:
            continue
        if power.power is SpecialPower.WINS:
            which = "last" if power.last else "first"
            parts[-1] += f", which always win the trick (of several, the {which} played wins)"
        elif power.power is SpecialPower.LOSES:
            which = "last" if power.last else "first"
            parts[-1] += (
                f", which always lose (a trick of {k.plural} only goes to the {which} played)"
            )
        elif power.power is SpecialPower.SUIT:
            assert power.suit is not None
            where = "above the ace" if power.high else "below the 2"
            parts[-1] += f", which count as {power.suit.word}, {where}"
        else:
            side = "above" if power.power is SpecialPower.ABOVE else "below"
            parts[-1] += f", which rank just {side} {power.card}, in its suit"
        if power.any_time:
            parts[-1] += ", and may be played at any time, even by a player who could follow suit"
    text = f"; and {total} special card{'s' if total > 1 else ''} ({d.size} cards in all): "
    text += "; ".join(parts)
    if any(p.power in (SpecialPower.WINS, SpecialPower.LOSES) for p in d.powers):
        text += (
            ". A card that always wins or always loses has no suit: the suit led to a trick is "
            "that of its first card with a suit, and once a card that always wins is led, any "
            "card may be played"
        )
    return text


def _standard_deck_phrase(v: Variant) -> str:
    """The pack without its special cards."""
    low = v.deck.lowest
    ranks = " ".join(Rank(r).label for r in range(14, low - 1, -1))
    if low > 2:
        order = f"aces high ({ranks})"
        pack = f"a {4 * (15 - low)}-card pack, {Rank(low).label} to ace in each suit"
    else:
        order = "aces high (A K Q J 10 ... 2)"
        pack = "a 52-card pack"
    by_count = ""
    if v.deck.removed_for:
        parts = [
            f"without {CardSet(mask)} for {lo if lo == hi else f'{lo} to {hi}'} players "
            f"({v.deck.size_for(lo)} cards)"
            for lo, hi, mask in v.deck.removed_for
        ]
        by_count = f" ({'; '.join(parts)})"
    if v.deck.packs > 1:
        return packs_phrase(v, order, by_count)
    jokers = v.deck.jokers
    if jokers:
        # "a 54-card pack: the standard 52 and two jokers (...)"
        base = (
            "the standard 52"
            if low == 2
            else f"the {4 * (15 - low)} cards {Rank(low).label} to ace"
        )
        added = (
            "one joker (BJ)"
            if jokers == 1
            else "two jokers (the big joker BJ and the little joker LJ)"
        )
        pack = f"a {4 * (15 - low) + jokers}-card pack: {base} and {added}"
        ranks = "the joker ranks as a trump" if jokers == 1 else "the jokers rank as trumps"
        order = f"{order} in each suit; {ranks} (see the order of the trumps)"
        if v.deck.removed == 0:
            return f"{pack}{by_count}, {order}"
    if v.deck.removed == 0:
        whole = f"one standard 52-card pack, {order}" if low == 2 else f"{pack}, {order}"
        return whole.replace(", ", by_count + ", ", 1) if by_count else whole
    gone = removed_phrase(v.deck.removed)
    comma = "," if jokers else ""
    return f"{pack}{comma} without {gone} ({v.deck.size} cards){by_count}, {order}"


_PACK_COUNT_WORDS: Final = {2: "two", 3: "three", 4: "four"}


def removed_phrase(removed: int) -> str:
    """The cards taken out, whole ranks as ranks: ``"the 2s to 6s"``, ``"the 2s
    and 9s, and 5♣"``, or the cards themselves."""
    ranks = [
        r for r in range(2, 15) if all(removed >> (13 * suit + r - 2) & 1 for suit in range(4))
    ]
    if len(ranks) < 2:
        return str(CardSet(removed))
    labels = [f"{Rank(r).label}s" for r in ranks]
    if len(ranks) >= 3 and ranks[-1] - ranks[0] == len(ranks) - 1:
        text = f"the {labels[0]} to {labels[-1]}"
    else:
        text = "the " + ", ".join(labels[:-1]) + f" and {labels[-1]}"
    rest = removed & ~sum(1 << (13 * suit + r - 2) for r in ranks for suit in range(4))
    return f"{text}, and {CardSet(rest)}" if rest else text


def packs_phrase(v: Variant, order: str, by_count: str) -> str:
    """Several standard packs shuffled together, and which of two identical
    cards ranks higher, such as ``"two standard 52-card packs shuffled together
    (104 cards: each card twice), aces high; of two identical cards played to
    one trick, the first played ranks higher"``."""
    n = v.deck.packs
    word = _PACK_COUNT_WORDS.get(n, str(n))
    times = {2: "twice", 3: "three times", 4: "four times"}.get(n, f"{n} times")
    gone = f", without every copy of {removed_phrase(v.deck.removed)}" if v.deck.removed else ""
    which = v.deck.identical or "first"
    return (
        f"{word} standard 52-card packs shuffled together{gone} ({v.deck.size} cards: "
        f"each card {times}){by_count}, {order}; of two identical cards played to one "
        f"trick, the {which} played ranks higher"
    )


def direction_phrase(v: Variant) -> str:
    """The direction of play in words."""
    if v.direction is Direction.CLOCKWISE:
        return "clockwise (to the left)"
    return "anticlockwise (to the right)"


def dealer_phrase(v: Variant) -> str:
    """How the first dealer is chosen and how the deal moves on."""
    first = v.dealer.first
    if first is FirstDealer.RANDOM:
        start = "The first dealer is chosen at random"
    elif first is FirstDealer.CUT:
        start = (
            "Everyone cuts the pack and the highest card deals first (players who tie cut again)"
        )
    else:
        start = f"The player in seat {v.dealer.seat + 1} deals first"
    if v.mode is Mode.SHEDDING and v.match.loser_deals:
        then = "after that, whoever lost the last game deals the next one"
    elif v.mode is Mode.SHEDDING:
        then = f"after that, the deal passes to the {left_or_right(v)} for each new game"
    elif v.winning.knockout_below:
        then = (
            f"after that, the deal passes to the {left_or_right(v)} after every hand, to "
            "the next player still in"
        )
    else:
        then = f"after that, the deal passes to the {left_or_right(v)} after every hand"
    return f"{start}; {then}." + redeal_phrase(v)


def redeal_phrase(v: Variant) -> str:
    """The ``redeal:`` rule as a sentence (with a leading space), or ``""``."""
    r = v.redeal
    if r is None:
        return ""
    sets = ", or without ".join(_redeal_set_words(x) for x in r.without)
    who = "the next player deals" if r.next_dealer else "the same dealer deals again"
    return (
        f" A player whose hand is without {sets}{',' if len(r.without) > 1 else ''} "
        + (
            "may show it to everyone (each player in turn, from the dealer's neighbour, "
            "keeps the hand or shows it; one shown ends the turn)"
            if r.may
            else "must show it to everyone"
        )
        + f": the deal is thrown in, nothing is scored, and {who} (after "
        f"{MAX_REDEALS_IN_A_ROW} deals in a row thrown in, the next deal stands)."
    )


def _redeal_set_words(rule: CardSetRule) -> str:
    """A set of a ``redeal:`` condition in words: ``spades``, ``trumps``,
    ``a card higher than 10 and lower than A``."""
    text = str(rule)
    first = rule.terms[0]
    if first.negated or first.kind is TermKind.ANY:
        return text
    if len(rule.terms) == 1 and first.kind in (TermKind.SUIT, TermKind.TRUMPS, TermKind.CARD):
        return text
    return "a card " + text


def _size_table_parts(rule: HandSizeRule, counts: range | None) -> tuple[list[str], set[int]]:
    """The entries of a starting-size table in words, for the allowed numbers of
    players only, and the numbers of players they cover."""
    parts: list[str] = []
    covered: set[int] = set()
    allowed = set(counts) if counts is not None else None
    for e in rule.table:
        lo, hi = e.min_players, e.max_players
        if allowed is not None:
            inside = [n for n in range(lo, hi + 1) if n in allowed]
            if not inside:
                continue
            lo, hi = inside[0], inside[-1]
        covered.update(range(lo, hi + 1))
        if allowed is not None and allowed <= covered and not parts:
            parts.append(plural(e.size, "card"))
            break
        cards = plural(e.size, "card") if not parts else str(e.size)
        who = f"{lo} players" if lo == hi else f"{lo} {'or' if hi == lo + 1 else 'to'} {hi} players"
        parts.append(f"{cards} for {who}")
    return parts, covered


def _largest_words(rule: HandSizeRule) -> str:
    """The "as many cards as the pack allows" hand size, with its limits."""
    most = "as many cards as the pack allows"
    if rule.keep_one:
        most += ", keeping one card back to turn up"
    if rule.cap is not None:
        most += f", but never more than {rule.cap}"
    return most


def start_phrase(rule: HandSizeRule, counts: range | None = None) -> str:
    """The starting (largest) hand size, such as ``"10 cards for 3 to 5 players, ..."``.

    Args:
        rule: the starting-size rule.
        counts: the allowed numbers of players; the "as many as the pack allows"
            fallback is only mentioned when some of them are not in the table.
    """
    parts, covered = _size_table_parts(rule, counts)
    text = join_words(parts)
    needs_fallback = counts is None or any(n not in covered for n in counts)
    if rule.largest and (needs_fallback or not text):
        most = _largest_words(rule)
        text = f"{text}; otherwise {most}" if text else most
    return text or "not set"


def schedule_phrase(v: Variant) -> str:
    """How the number of cards changes from hand to hand, in one or two sentences."""
    s = v.schedule
    start = start_phrase(s.start, v.players.counts())
    p = s.pattern
    if p is Pattern.WHOLE_PACK:
        even = all(v.deck.size_for(n) % n == 0 for n in v.players.counts())
        text = "The whole pack is dealt out, one card at a time, in a single deal"
        if not even:
            text += "; some players may get one card more than others"
    elif p is Pattern.DOWN:
        text = (
            f"The first hand is the largest: {start}. After that, each hand has one card "
            "fewer, down to a hand of 1 card, which ends the game"
        )
    elif p is Pattern.DOWN_UP:
        text = (
            f"The first hand is the largest: {start}. After that, each hand has one card "
            "fewer, down to 1, and then one more each hand back up to the start; the 1-card "
            "hand is played only once"
        )
    elif p is Pattern.UP:
        text = (
            "The first hand has 1 card, and each hand after it one more, up to the largest: "
            f"{start}"
        )
    elif p is Pattern.UP_DOWN:
        text = (
            "The first hand has 1 card, and each hand after it one more, up to the largest "
            f"({start}), and then one fewer each hand back down to 1; the largest hand is "
            "played only once"
        )
    elif p is Pattern.SAME and length_is_a_guard(v):
        goes_on = f"The game goes on {target_words(v)} (see Winning)"
        text = f"Every hand is the same size: {start}. {goes_on}"
    elif p is Pattern.SAME:
        if s.count == 1:
            text = f"The game is one hand: {start}"
        else:
            text = f"The game is {s.count} hands, all the same size: {start}"
    elif p is Pattern.STEPS:
        parts = [
            (
                f"as many hands of {plural(a, 'card')} as there are players"
                if per
                else f"one hand of {plural(a, 'card')}"
                if a == b
                else f"hands of {a} to {b} cards, one {'more' if b > a else 'fewer'} each hand"
            )
            for a, b, per in s.steps
        ]
        text = f"The hands run in this order: {join_words(parts)}"
    else:
        sizes = [str(n) for n in s.sizes]
        if len(set(s.sizes)) == 1:
            hands = "one hand" if len(sizes) == 1 else f"{len(sizes)} hands"
            each = "" if len(sizes) == 1 else " each"
            text = f"The game is {hands} of {plural(s.sizes[0], 'card')}{each}"
        else:
            text = f"The hands have these numbers of cards, in order: {join_words(sizes)}"
    if s.repeat == 2:
        text += ". The whole sequence is then played a second time"
    elif s.repeat > 2:
        text += f". The whole sequence is played {s.repeat} times over"
    return text + "."


def _no_card_words(v: Variant, counts: Sequence[int]) -> tuple[str, bool]:
    """The turned-up-trump hands that use the whole pack, in words, such as ``"the
    13-card hands"`` or ``"the 13-card hand for 4 players"`` (empty when there are
    none), and whether that is a single hand."""
    found = no_card_hands(v, counts)
    if not found:
        return "", False
    by_sizes: dict[tuple[int, ...], list[int]] = {}
    for n, sizes in found.items():
        by_sizes.setdefault(sizes, []).append(n)
    parts = []
    one = len(by_sizes) == 1
    for sizes, ns in by_sizes.items():
        single = all(sum(1 for s in v.hand_sizes(n) if s in sizes) == 1 for n in ns)
        one = one and single
        which = join_words([str(s) for s in sizes], "and")
        part = f"the {which}-card {'hand' if single else 'hands'}"
        if len(found) < len(counts) or len(by_sizes) > 1:
            part += f" for {counts_phrase(ns)}"
        parts.append(part)
    return join_words(parts), one


def _turned_special_words(v: Variant) -> str:
    """What a special card turned up for trumps means (``special turned up:``),
    as a clause of the turned-up trumps' sentence ("" for a pack without)."""
    d = v.deck
    if not d.specials:
        return ""
    said = dict(v.trumps.turned_special)
    parts = []
    for k in d.specials:
        what = said.get(k.plural)
        power = d.power_of(k.plural)
        one = d.singular_of(k)
        if what is TurnedSpecial.DEALER_NAMES:
            parts.append(f"if it is a {one}, the dealer names the trump suit")
        elif what is TurnedSpecial.NO_TRUMPS or (
            power is not None and power.power in (SpecialPower.WINS, SpecialPower.LOSES)
        ):
            parts.append(f"if it is a {one}, there are no trumps")
        elif power is not None:
            parts.append(f"if it is a {one}, the suit it counts as is trumps")
    return "; " + "; ".join(parts) if parts else ""


def trumps_phrase(v: Variant, counts: Sequence[int] | None = None) -> str:
    """How trumps are chosen, in one sentence, for the counts of players shown.

    Args:
        v: the variant.
        counts: the numbers of players the page is for (every allowed number if ``None``).
    """
    t = v.trumps
    shown = list(counts) if counts is not None else list(v.players.counts())
    chosen = _chosen_trumps_phrase(v, shown)
    if chosen:
        return chosen
    if not has_trumps(v, shown):
        if t.kind is TrumpKind.TURN_UP:
            return (
                "There are no trumps: every hand uses the whole pack, so no card is left "
                "to turn up."
            )
        return "There are no trumps."
    if t.kind is TrumpKind.TURN_UP:
        text = (
            "After the deal the next card of the pack is turned face up, and its suit "
            "is trumps for that hand"
        )
        empty, one = _no_card_words(v, shown)
        if empty:
            text += (
                f"; {empty} {'uses' if one else 'use'} the whole pack, so no card is left to "
                f"turn up, and {'that hand is' if one else 'those hands are'} played without "
                "trumps"
            )
        text += _turned_special_words(v)
    elif t.kind is TrumpKind.FIXED:
        text = f"{t.suit.word.capitalize() if t.suit else 'No suit'} are always trumps"
    elif t.kind is TrumpKind.DEALERS_CARD:
        text = (
            "The dealer turns the last card of the deal, the dealer's own, face up, and its "
            "suit is trumps for that hand; the card stays in the dealer's hand, and everyone "
            "knows the dealer holds it until it is played"
        )
    else:
        names = [("no trumps" if s is None else s.word) for s in t.cycle]
        text = (
            "Trumps change every hand in a fixed order: "
            + ", ".join(names)
            + ", then the same order again"
        )
    if t.no_trump_every:
        text += (
            f"; every {ordinal(t.no_trump_every)} hand is played without trumps, "
            "whatever that would have been"
        )
    return text + "."


_RANK_NAMES: dict[int, str] = {10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _trump_entry_words(e: TrumpCard) -> str:
    """One entry of a trump order in words, such as ``"the jack of trumps"``."""
    if e.kind is TrumpCardKind.CARD:
        if e.card is not None and e.card.is_joker:
            return f"the {'big' if e.card == 53 else 'little'} joker ({e.card})"
        return f"the {e.card}"
    rank = _RANK_NAMES.get(e.rank, str(e.rank))
    if e.kind is TrumpCardKind.OF_TRUMPS:
        return f"the {rank} of trumps"
    return f"the {rank} of the same colour as trumps"


def _order_example_suit(v: Variant) -> Suit:
    """The trump suit :func:`trump_order_phrase` shows: the game's own, else hearts."""
    t = v.trumps
    if t.kind is TrumpKind.FIXED and t.suit is not None:
        return t.suit
    if t.kind is TrumpKind.CYCLE:
        return next(s for s in t.cycle if s is not None)
    return Suit.HEARTS


def _jokers_trump_words(v: Variant, jokers: Sequence[Card], suit: Suit) -> str:
    """Why the jokers of a trump order count as trumps of ``suit`` (a sentence, with a
    leading space)."""
    one = len(jokers) == 1
    text = (
        f" {'A joker has' if one else 'The jokers have'} no suit of "
        f"{'its' if one else 'their'} own: {'it counts' if one else 'they count'} as "
        f"{'a trump' if one else 'trumps'} ({suit.word})"
    )
    if v.play.must_follow:
        text += (
            f", so that when {suit.word} are led {'it follows' if one else 'they follow'} "
            f"them, and a player who holds {'it' if one else 'one'} and no other "
            f"{suit.word[:-1]} must play {'it' if one else 'a joker'}"
        )
    return text + "."


def _moved_trump_words(moved: Sequence[Card], suit: Suit) -> str:
    """How the cards of a trump order printed with another suit count as trumps of
    ``suit`` (a sentence, with a leading space)."""
    one = len(moved) == 1
    cards = " and the ".join(str(c) for c in moved)
    suits = sorted({c.suit for c in moved})
    printed = " or ".join(f"a {s.word[:-1]}" for s in suits)
    it, holds = ("it", "it") if one else ("they", "them")
    return (
        f" The {cards} {'counts as a trump' if one else 'count as trumps'} "
        f"({suit.word}), not as {printed}: when {suits[0].word} are led {it} "
        f"{'does' if one else 'do'} not follow them, a player who holds {holds} and no "
        f"other {suits[0].word[:-1]} is void in {suits[0].word}, and when {suit.word} are led "
        f"{it} {'follows' if one else 'follow'} them."
    )


def trump_order_phrase(v: Variant, counts: Sequence[int] | None = None) -> str:
    """How the trumps rank when the file gives a trump order (empty otherwise, or
    when the game has no trumps), with the trumps of one suit as an example and
    the cards that count as trumps rather than as their printed suit."""
    t = v.trumps
    shown = list(counts) if counts is not None else list(v.players.counts())
    if not t.order or not has_trumps(v, shown):
        return ""
    pack = v.deck.cards
    entries = [_trump_entry_words(e) for e in t.order]
    named = entries[0] if len(entries) == 1 else ", ".join(entries[:-1]) + " and " + entries[-1]
    suit = _order_example_suit(v)
    top = t.ranking(suit, pack)
    every = t.trump_cards(suit, pack)
    text = (
        f"The highest trumps are, from the highest, {named}; the other trumps rank below "
        f"them from the ace down. With {suit.word} trumps the trumps are, from the highest, "
        f"{' '.join(str(c) for c in every)}."
    )
    jokers = [c for c in top if c.is_joker]
    if jokers:
        text += _jokers_trump_words(v, jokers, suit)
    moved = [c for c in top if not c.is_joker and c.suit is not suit]
    if moved:
        text += _moved_trump_words(moved, suit)
    return (
        text
        + " The trick goes to the highest trump played, in this order."
        + turned_joker_words(v)
        + joker_no_trump_words(v)
    )


def joker_no_trump_words(v: Variant) -> str:
    """What a joker is in a hand without trumps (``jokers without trumps:``), a
    sentence with a leading space; empty when the file does not say."""
    rule = v.trumps.joker_no_trump
    jokers = [c for c in v.deck.cards if c.is_joker]
    if rule is None or not jokers:
        return ""
    one = len(jokers) == 1
    if rule is JokerNoTrump.CANNOT_WIN:
        return (
            " In a hand without trumps "
            + ("the joker is" if one else "the jokers are")
            + " worthless: a player may play "
            + ("it" if one else "one")
            + " only when leading or holding no card of the suit led, and it never wins "
            "the trick. A joker led sets no suit: the next card played that is not a "
            "joker sets the suit the others must follow"
            + ("." if one else ", and a trick of jokers only goes to the first played.")
        )
    text = (
        " In a hand without trumps "
        + (
            "the joker is the highest card, a suit of its own"
            if one
            else (
                "a joker is the highest card (the big above the little), "
                "the jokers a suit of their own"
            )
        )
        + ": a player may play "
        + ("it" if one else "one")
        + " only when leading or holding no card of the suit led, and "
        + ("it wins" if one else "the highest joker played wins")
        + " the trick. A player who leads a joker names the suit it stands for, and the "
        "others must follow that suit."
    )
    return text


def turned_joker_words(v: Variant) -> str:
    """What a joker turned up for trumps does (``special turned up: jokers, ...``), a sentence
    with a leading space; empty when no joker can be turned up."""
    tj = v.trumps.turned_joker
    if tj is None or not jokers_turned(v):
        return ""
    order_up = v.trumps.namer is TrumpNamer.ORDER_UP
    if tj is TurnedSpecial.NO_TRUMPS:
        return " When a joker is turned up for trumps, the hand is played without trumps."
    if isinstance(tj, Suit):
        if order_up:
            return (
                f" When a joker is turned up, it is offered as a {tj.word[:-1]}: ordered up, "
                f"{tj.word} are trumps and the dealer takes the joker."
            )
        return f" When a joker is turned up for trumps, {tj.word} are trumps."
    text = " When a joker is turned up for trumps, the dealer names the trump suit and makes trumps"
    if order_up:
        text += (
            ", then takes the joker into hand and discards a card face down, as if it had "
            "been ordered up"
        )
    return text + "."


def _tie_words(v: Variant) -> str:
    """How a tie for the right to name trumps is settled."""
    if v.trumps.namer_tie is NamerTie.CUT:
        return "those tied cut for it (one of them at random)"
    return f"the first of those tied in turn from the dealer's {left_or_right(v)} names"


def _chosen_trumps_phrase(v: Variant, shown: Sequence[int]) -> str:
    """The trumps chosen by a player, in a few sentences (empty when nobody chooses)."""
    t = v.trumps
    if v.mode is not Mode.TRICKS or t.namer is TrumpNamer.NOBODY:
        return ""
    what = "a suit, or no trumps," if t.name_no_trumps else "a suit"
    if t.namer is TrumpNamer.HIGHEST_BIDDER and v.bidding.strains:
        misere = (
            " A misère contract has no trumps, and the declarer must take no trick."
            if v.bidding.misere_above is not None
            else ""
        )
        if v.bidding.open_misere_above is not None:
            misere += (
                " Open misère is played the same way, but once the first trick is complete "
                "the declarer lays its hand face up for every player to see."
            )
        return (
            "The winning bid is the contract: its suit is trumps for the hand (a bid in no "
            "trumps: the hand has none), with no naming afterwards. The declarer makes "
            "trumps." + misere + kitty_phrase(v)
        )
    if t.namer is TrumpNamer.HIGHEST_BIDDER:
        return (
            f"After the bidding, the player with the highest bid names {what} as trumps for "
            f"the hand; if several share the highest bid, {_tie_words(v)}. That player makes "
            "trumps." + misere_phrase(v) + downtown_phrase(v) + kitty_phrase(v)
        )
    if t.namer is TrumpNamer.MOST_TRICKS:
        first = trumps_phrase(
            attrs.evolve(v, trumps=attrs.evolve(t, namer=TrumpNamer.NOBODY)), shown
        )
        return (
            f"In the first hand: {first[0].lower()}{first[1:]} From the second hand on, after "
            f"the deal, the player who took the most tricks in the previous hand looks at "
            f"their cards and names {what} as trumps; if several took the most, "
            f"{_tie_words(v)}. That player makes trumps."
        )
    side = left_or_right(v)
    text = (
        "After the deal the next card of the pack is turned face up. Starting with the "
        f"player to the dealer's {side}, each player in turn may order it up or pass. "
        "When a player orders it up, its suit is trumps, that player makes trumps, and the "
        "dealer takes the card into hand and discards one card face down (only the dealer "
        f"knows which{', and it may not be the turned card' if t.keep_turned else ''}). "
        "If everyone passes, the card is turned down, and in a second round, "
        f"from the dealer's {side} again, each player may name {what} other than the "
        "turned card's suit, or pass; a player who names makes trumps. "
    )
    if t.stick_dealer:
        text += "The dealer may not pass in the second round and must name a suit."
    else:
        text += (
            "If everyone passes again, the hand is thrown in: nobody scores, and the "
            f"next dealer (to the {side}) deals a new hand, which counts as one of the "
            "game's hands."
        )
    if t.going_alone and v.teams:
        text += (
            " Once trumps are made (and any discard done), the player who made them "
            "chooses to go alone or to play with partner. Alone, the maker's partner "
            "sits the hand out, cards face down and unplayed, each trick has one card "
            "fewer, and if the partner would lead, the next player leads instead; the "
            "partner is back for the next hand."
        )
        if t.defend_alone:
            text += (
                " Against a lone maker, each defender in turn from the maker's "
                f"{left_or_right(v)} may defend alone; the first who does plays alone "
                "too, its partner sitting the hand out as well, so each trick has one "
                "card from each of the two."
            )
    empty, one = _no_card_words(v, shown)
    if empty:
        text += (
            f" {empty[0].upper()}{empty[1:]} {'uses' if one else 'use'} the whole pack, so no "
            f"card is left to turn up, and {'that hand is' if one else 'those hands are'} "
            "played without trumps."
        )
    return text


def misere_phrase(v: Variant) -> str:
    """The declarer's misère (empty without ``misère:``, or when misère is a bid
    of the auction), with a leading space."""
    t = v.trumps
    if not t.misere or t.namer is not TrumpNamer.HIGHEST_BIDDER or v.bidding.misere_above:
        return ""
    partner = " Its partner sits the hand out, cards face down." if v.teams else ""
    return (
        " Instead of naming trumps, that player may declare misère: the hand has no "
        f"trumps, and the declarer must take no trick.{partner}"
    )


def kitty_phrase(v: Variant) -> str:
    """The kitty the declarer takes (empty without ``kitty:``), with a leading
    space."""
    t = v.trumps
    if not t.kitty or t.namer is not TrumpNamer.HIGHEST_BIDDER:
        return ""
    n = t.kitty
    cards = f"{n} card" + ("" if n == 1 else "s")
    text = (
        f" The {cards} left after the deal are the kitty, face down. "
        + ("Once the auction is won, " if v.bidding.strains else "Once trumps are named, ")
        + f"that player takes the kitty into hand without showing it and discards {cards} "
        "face down (any of them, from the hand or the kitty); nobody else sees them."
    )
    if t.kitty_trick:
        text += " The discards count as one trick taken by that player."
    else:
        text += " The discards count for nobody."
    return text


def downtown_phrase(v: Variant) -> str:
    """The declarer's uptown or downtown (empty without ``downtown:``), with a
    leading space."""
    t = v.trumps
    if t.downtown is DowntownRule.NO or t.namer is not TrumpNamer.HIGHEST_BIDDER:
        return ""
    order = (
        "A (the highest), 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K (the lowest)"
        if t.downtown is DowntownRule.ACE_HIGH
        else "2 (the highest), 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A (the lowest)"
    )
    return (
        " Having named trumps, that player says uptown or downtown. Uptown, the cards rank "
        "as usual; downtown, every suit, trumps too, ranks the other way up for the hand: "
        f"{order}. A trump still beats every card of another suit."
        + (
            " The cards of the order of the trumps stay the highest trumps, in that order."
            if t.order
            else ""
        )
    )


def trumps_short(v: Variant, counts: Sequence[int] | None = None) -> str:
    """A few words for the quick facts and the comparison table, such as ``"cycle ♠ ♦ ♣ ♥"``."""
    t = v.trumps
    shown = list(counts) if counts is not None else list(v.players.counts())
    if v.mode is Mode.TRICKS and t.namer is TrumpNamer.HIGHEST_BIDDER and v.bidding.strains:
        return "the suit of the winning bid"
    if v.mode is Mode.TRICKS and t.namer is TrumpNamer.HIGHEST_BIDDER:
        return "named by the highest bidder"
    if v.mode is Mode.TRICKS and t.namer is TrumpNamer.ORDER_UP:
        return "ordered up, or named" + (", stick the dealer" if t.stick_dealer else "")
    if v.mode is Mode.TRICKS and t.kind is TrumpKind.DEALERS_CARD:
        return "dealer's last card"
    if v.mode is Mode.TRICKS and t.namer is TrumpNamer.MOST_TRICKS:
        first = trumps_short(
            attrs.evolve(v, trumps=attrs.evolve(t, namer=TrumpNamer.NOBODY)), shown
        )
        return f"{first} in hand 1, then named by the winner of most tricks"
    if not has_trumps(v, shown):
        return "none"
    if t.kind is TrumpKind.TURN_UP:
        text = "turned-up card"
        empty, _ = _no_card_words(v, shown)
        if empty:
            text += f"; no trumps in {empty}"
    elif t.kind is TrumpKind.FIXED:
        text = f"always {t.suit.symbol}" if t.suit else "none"
    else:
        text = "cycle " + " ".join("NT" if s is None else s.symbol for s in t.cycle)
    if t.no_trump_every:
        text += f", every {ordinal(t.no_trump_every)} hand none"
    for line in v.conditional:
        if line.key == "trumps":
            changed = trumps_short(apply_changes(v.evolve(conditional=()), line.changes), shown)
            text += f"; {changed} {condition_text(line.condition)}"
    return text


def _strain_list(strains: Sequence[int]) -> str:
    words = [STRAIN_WORDS[k] for k in strains]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def bid_range_phrase(v: Variant) -> str:
    """Which numbers a player may bid (with strains: which contracts)."""
    b = v.bidding
    if b.strains:
        text = (
            f"a number of tricks from {b.min_bid} to {b.max_bid} in a strain: "
            f"{_strain_list(b.strains)}, from the lowest to the highest. A bid outranks "
            "another when its number is higher, or when the numbers are equal and its strain "
            "is higher"
        )
        above = b.misere_above
        if above is not None:
            text += (
                f". Misère, a bid to take no trick, ranks just above {above[0]} "
                f"{STRAIN_WORDS[above[1]]}"
            )
        above = b.open_misere_above
        if above is not None:
            text += (
                f". Open misère, a bid to take no trick with the hand face up after the first "
                f"trick, ranks just above {above[0]} {STRAIN_WORDS[above[1]]}"
            )
        return text
    top = "the number of cards in hand" if b.max_bid is None else str(b.max_bid)
    if b.max_bid is not None:
        top += " (and never more than the cards in hand)"
    return f"any number from {b.min_bid} to {top}"


def bidding_phrase(v: Variant) -> str:
    """How bids are made, in one or two sentences (empty without bidding)."""
    b = v.bidding
    if not v.has_bidding:
        return ""
    if side_bids(v):
        if b.style is BidStyle.SIMULTANEOUS:
            text = (
                "Each side makes one bid, the tricks the partners will take together: the "
                "sides bid at the same time, each bid said by the side's first player in "
                f"turn from the dealer's {left_or_right(v)}; the other partners do not bid"
            )
        else:
            text = (
                "Each side makes one bid, the tricks the partners will take together. The "
                f"sides bid one at a time, starting with the side of the player to the "
                f"dealer's {left_or_right(v)}; each side's bid is said by its first player "
                "in turn, and its other partners do not bid"
            )
        return text + f". A bid is {bid_range_phrase(v)}."
    if b.style is BidStyle.AUCTION and b.until_others_pass:
        return (
            "The bidding is an auction: starting with the player to the dealer's "
            f"{left_or_right(v)} and going round the table as many times as it takes, each "
            f"player in turn either passes or {_higher_words(v)}. A "
            "player who passes is out of the auction for this hand. It ends when everyone "
            f"but the highest bidder has passed; {_all_pass_words(v, 'in')}. A bid is "
            f"{bid_range_phrase(v)}. The highest bid wins: that player is the declarer, "
            "and the bid is the contract."
        )
    if b.style is BidStyle.AUCTION:
        return (
            "The bidding is an auction, once round the table: starting with the player to "
            f"the dealer's {left_or_right(v)}, each player in turn either passes or "
            f"{_higher_words(v)}; the dealer speaks last, and "
            f"{_all_pass_words(v, 'dealer')}. A bid is {bid_range_phrase(v)}. The highest "
            "bid wins: that player is the declarer, and the bid is the contract."
        )
    if b.style is BidStyle.SIMULTANEOUS:
        text = (
            "Everyone bids at the same time: on a count of three, each player shows their "
            "bid (on their fingers, say), so nobody hears another bid first"
        )
    else:
        text = (
            f"Players bid one at a time, starting with the player to the dealer's "
            f"{left_or_right(v)}; the dealer bids last"
        )
    text += f". A bid is {bid_range_phrase(v)}."
    return text


def _higher_words(v: Variant) -> str:
    """An auction's bid: more than the highest so far, or (bids in strains) one
    that outranks it."""
    if v.bidding.strains:
        return "makes a bid that outranks the highest bid so far"
    return "bids more than the highest bid so far"


def _all_pass_words(v: Variant, last: str) -> str:
    """What happens when everyone passes in an auction: ``last`` is ``"dealer"``
    (once round) or ``"in"`` (round and round)."""
    if v.bidding.all_pass_thrown_in:
        return (
            "if everyone passes, the hand is thrown in: nobody scores, and the next dealer "
            "deals a new hand, which counts as one of the game's hands"
        )
    if last == "dealer":
        return "must bid if everyone else has passed"
    return "if everyone else passes without a bid, the last player in must bid"


def side_bids(v: Variant) -> bool:
    """True when each side makes one bid (``team bids: one per side``)."""
    return v.has_bidding and v.bidding.one_per_team and bool(v.teams)


def has_hook(v: Variant) -> bool:
    """True when the dealer, bidding last, may not make the bids add up (the hook)."""
    return v.has_bidding and v.bidding.style is BidStyle.IN_TURN and v.bidding.hook


def hook_phrase(v: Variant) -> str:
    """The hook (dealer's restriction), or what the dealer may bid without one."""
    if not v.has_bidding:
        return ""
    if v.bidding.style is BidStyle.SIMULTANEOUS:
        return "Since everyone bids at once, nobody bids last, and no bid is ever ruled out."
    if v.bidding.style is BidStyle.AUCTION:
        return ""
    if v.bidding.hook and side_bids(v):
        return (
            "The hook: the side that bids last may not bid the number that would make the "
            "sides' bids add up to the number of tricks in the hand. If the other sides "
            "have already bid more than that, it may bid anything."
        )
    if v.bidding.hook:
        return (
            "The hook: the dealer may not bid the number that would make all the bids add "
            "up to the number of tricks in the hand. If the others have already bid more "
            "than that, the dealer may bid anything."
        )
    return (
        "The dealer may bid any number, even one that makes all the bids add up to the "
        "number of tricks in the hand."
    )


def blind_difference(
    v: Variant, cards: int, players: int = 4
) -> list[tuple[int, int, Fraction, Fraction]]:
    """Where a blind bid scores otherwise than an open one, in a first hand of ``cards``
    cards each for ``players`` players: ``(bid, tricks, blind, open)``, exact bids first
    (``[]`` when the score reads a counter: the difference then depends on its value)."""
    from cardrules.scoring import score_env

    f = v.scoring.formula
    if f is None or not v.has_bidding or not v.bidding.blind or f.counters:
        return []
    lo = v.bidding.min_bid
    hi = cards if v.bidding.max_bid is None else min(cards, v.bidding.max_bid)
    only = blind_bids_only(v)
    out = []
    for exact in (True, False):
        for b in range(lo, hi + 1):
            if only and b not in only:
                continue
            for t in range(cards + 1):
                if (t == b) is not exact:
                    continue
                pts = [
                    Fraction(
                        f.evaluate(
                            score_env(
                                bid=b, tricks=t, cards=cards, hand=1, players=players, blind=bl
                            )
                        )
                    )
                    for bl in (True, False)
                ]
                blind, open_ = pts
                if blind != open_:
                    out.append((b, t, blind, open_))
    return out


def blind_bids_only(v: Variant) -> tuple[int, ...]:
    """The only bids that may be made blind (empty: any bid)."""
    return tuple(getattr(v.bidding, "blind_only", ()))


def blind_phrase(v: Variant, cards: int = 4, players: int = 4) -> str:
    """Blind bids, or an empty string without them."""
    if not v.has_bidding or not v.bidding.blind:
        return ""
    text = "A player may choose to bid blind, before looking at their cards"
    only = blind_bids_only(v)
    if only:
        which = join_words([str(b) for b in only], "or")
        text = (
            f"A player may choose to bid blind, before looking at their cards, but only a bid "
            f"of {which}"
        )
    f = v.scoring.formula
    if f is not None and f.counters:
        # what a blind bid scores depends on a count kept across hands too
        return text + "; what a blind bid scores is in the scoring rule (see Scoring)."
    diffs = blind_difference(v, cards, players)
    if not diffs:
        return text + "; a blind bid scores the same as an open one."
    exact = [d for d in diffs if d[0] == d[1]]
    if exact and all(_better(v, d[2], d[3]) for d in exact):
        return text + "; the scoring rewards an exact blind bid (see Scoring)."
    return text + "; a blind bid scores differently (see Scoring)."


def forehead_phrase(v: Variant, counts: Sequence[int] | None = None) -> str:
    """Hands bid "on the forehead" (those of the sizes the game deals), or an empty string."""
    if not v.bidding.forehead_sizes or not v.has_bidding:
        return ""
    shown = list(counts) if counts is not None else list(v.players.counts())
    dealt = {s for n in shown for s in v.hand_sizes(n)}
    sizes = sorted(set(v.bidding.forehead_sizes) & dealt)
    if not sizes:
        return ""
    which = join_words([str(n) for n in sizes], "or")
    card_s = "card" if sizes == [1] else "cards"
    return (
        f"Hands of {which} {card_s} are bid on the forehead: until everyone has bid, each "
        "player sees everyone's cards except their own; then everyone plays from their own "
        "hand as usual."
    )


def _pass_words(v: Variant, to: PassTo) -> str:
    """Where one hand's passed cards go, in words."""
    clockwise = v.direction is Direction.CLOCKWISE
    if to is PassTo.LEFT:
        side = "left" if clockwise else "right"
        return f"to the next player to play after you (on your {side})"
    if to is PassTo.RIGHT:
        side = "right" if clockwise else "left"
        return f"to the player who plays before you (on your {side})"
    if to is PassTo.ACROSS:
        return "to the player sitting across the table"
    return "nobody passes"


def pass_phrase(v: Variant) -> str:
    """The pass of cards before the play (``pass:``), or ``""`` when nobody passes."""
    ps = v.passing
    if not ps.count or all(to is PassTo.NONE for to in ps.cycle):
        return ""
    cards = plural(ps.count, "card")
    before = "the bidding" if v.has_bidding else "the play"
    lead = (
        f"After the deal, before {before}, every player chooses {cards} from their hand "
        "to pass face down. Everyone chooses at the same time, and the cards change "
        "hands only when everyone has chosen: nobody sees the cards they receive before "
        "choosing their own. You know where the cards you passed are; nobody else does."
    )
    cycle = ps.cycle
    if len(set(cycle)) == 1:
        return f"{lead} In every hand the cards go {_pass_words(v, cycle[0])}."
    parts = [f"in the {ordinal(i + 1)} hand {_pass_words(v, to)}" for i, to in enumerate(cycle)]
    return (
        f"{lead} Where they go follows a cycle of {len(cycle)} hands, over and over: "
        f"{'; '.join(parts)}."
    )


def amend_phrase(v: Variant) -> str:
    """Whether a bid may be changed (empty without bidding)."""
    if not v.has_bidding:
        return ""
    if v.bidding.amend and v.bidding.style is BidStyle.IN_TURN:
        return "You may change your bid, but only until the next player has bid."
    return "A bid stands once it is made."


def _lead_card_may_be_undealt(v: Variant) -> bool:
    return v.mode is Mode.TRICKS and any(
        s * n < v.deck.size_for(n) for n in v.players.counts() for s in v.hand_sizes(n)
    )


def first_lead_phrase(v: Variant) -> str:
    """Who leads the first trick of a hand, and with what."""
    p = v.play
    side = left_or_right(v)
    c: Card | None = p.lead_card
    holder = p.first_leader is FirstLeader.HOLDER and c is not None
    if p.first_leader is FirstLeader.DECLARER:
        return (
            "The declarer (the player who made trumps) leads the first trick and may lead "
            f"any card; in a hand in which nobody made trumps, the player to the dealer's "
            f"{side} leads."
        )
    who = f"Whoever holds the {c}" if holder else f"The player to the dealer's {side}"
    if holder and v.deck.packs > 1:
        # Several packs: the card is held twice or more.
        who = (
            f"Of the players holding an {c}, the first in turn from the player to the "
            f"dealer's {side}"
        )
    if p.first_lead is FirstLead.CARD and c is not None:
        what = f"must lead the {c}" if holder else f"must lead the {c} if they hold it"
    elif p.first_lead is FirstLead.SUIT and c is not None:
        what = f"must lead a {suit_one(c.suit)}"
        if not holder:
            what += " if they hold one"
    else:
        what = "may lead any card"
    text = f"{who} leads the first trick and {what}."
    if holder and p.lead_card_else:
        others = p.lead_card_else
        instead = (
            f"the {others[0]}"
            if len(others) == 1
            else "the first of " + join_words([str(k) for k in others]) + " left in the pack"
        )
        text += f" When the {c} is taken out of the pack, {instead} takes its place."
    if holder and _lead_card_may_be_undealt(v):
        text += f" If nobody was dealt the {c}, the player to the dealer's {side} leads."
    return text


def follow_phrase(v: Variant, trumps: bool | None = None) -> str:
    """The follow rules, in words, exactly as the engine applies them.

    Args:
        v: the variant.
        trumps: whether the hands the page speaks of can have trumps; worked out
            from the variant when ``None``.
    """
    if trumps is None:
        trumps = has_trumps(v)
    trumps = trumps and v.mode is Mode.TRICKS
    p = play_flags(v.play)
    if p is None:
        return _list_follow_phrase(v)
    if not p.must_follow:
        return "You need not follow suit: you may always play any card."
    parts = ["You must follow suit (play a card of the suit led) if you can."]
    if p.must_beat:
        text = (
            "When you follow suit, you must also play a card higher than the best card of "
            "that suit played so far, if you hold one"
        )
        if trumps:
            text += "; once someone has trumped the trick, any card of the suit led will do"
        parts.append(text + ".")
    if v.mode is Mode.SHEDDING:
        parts.append("If you cannot follow suit, you play any card: that is a cut (see below).")
        if not first_trick_cuts(v):
            parts.append(first_trick_cuts_phrase(v))
    elif not trumps:
        parts.append("If you cannot follow suit, you may play any card.")
    elif p.must_trump and p.must_beat:
        parts.append(
            "If you cannot follow suit but hold a trump, you must play a trump: one higher "
            "than any trump already played, if you hold one, or else any trump."
        )
    elif p.must_trump:
        parts.append(
            "If you cannot follow suit but hold a trump, you must play a trump, even one "
            "lower than a trump already played."
        )
    elif p.must_beat:
        parts.append(
            "If you cannot follow suit but hold a trump that would win the trick so far "
            "(any trump if none has been played yet, otherwise a higher one), you must play "
            "such a trump; if you hold none, you may play any card."
        )
    else:
        parts.append("If you cannot follow suit, you may play any card, a trump or not.")
    return " ".join(parts)


def _list_follow_phrase(v: Variant) -> str:
    """A follow rule that is not one of the shorthands, set by set."""
    p = v.play
    parts = [choice_phrase(getattr(p, "follow"), "When you follow to a trick")]  # noqa: B009
    if v.mode is Mode.SHEDDING:
        parts.append("A card not of the suit led is a cut (see below).")
        if not first_trick_cuts(v):
            parts.append(first_trick_cuts_phrase(v))
    return " ".join(parts)


def first_trick_phrase(v: Variant) -> str:
    """The rule of the first trick of a hand, when the variant has one (else empty)."""
    first = first_trick_rule(v.play)
    if first is None:
        return ""
    options = choice_words(first)
    text = (
        "On the first trick of a hand, leading or following, of the cards the rules allow you "
        f"must play {options[0]} if there is one"
    )
    for o in options[1:]:
        text += f"; otherwise {o}" + ("" if o == "any card" else " if there is one")
    text += "."
    if v.play.lead_card is not None and v.play.first_lead is not FirstLead.ANY:
        text += " This does not change the first lead of the hand, which follows its own rule."
    return text


def unbroken_phrase(v: Variant) -> str:
    """What "unbroken" means, when a card-set list of the variant uses it (else empty)."""
    if not uses_unbroken(v.play):
        return ""
    return f"A suit is broken {break_phrase(v.play)}; until then it is unbroken."


def follow_short(v: Variant) -> str:
    """A few words for the comparison table."""
    p = play_flags(v.play)
    if p is None:
        return "a list of its own"
    parts = ["follow suit" if p.must_follow else "any card"]
    if v.mode is Mode.SHEDDING:
        parts.append("cut when void")
    trumps = has_trumps(v)
    if p.must_trump and trumps:
        parts.append("trump when void")
    if p.must_beat:
        parts.append("beat when able")
    return ", ".join(parts)


def trump_lead_phrase(v: Variant, trumps: bool | None = None) -> str:
    """When trumps may be led (empty when there are none)."""
    if trumps is None:
        trumps = has_trumps(v)
    lead = lead_rule(v.play)
    if lead is None:
        return choice_phrase(getattr(v.play, "lead"), "When you lead")  # noqa: B009
    if not trumps:
        return ""
    if lead is TrumpLead.ANY_TIME:
        return "Trumps may be led at any time."
    broken = break_phrase(v.play).replace("a card of it", "a trump", 1).replace(" of it", "", 1)
    text = (
        f"You may not lead a trump until trumps are broken, {broken}, unless you hold "
        "nothing but trumps"
    )
    if v.play.first_lead is not FirstLead.ANY and v.play.lead_card is not None:
        text += "; the rule for the first lead of a hand, above, comes first"
    return text + "."


def lead_list_phrase(v: Variant) -> str:
    """The lead rule when it is a card-set list of its own (else empty)."""
    if lead_rule(v.play) is not None:
        return ""
    return choice_phrase(getattr(v.play, "lead"), "When you lead")  # noqa: B009


def winner_phrase(v: Variant, trumps: bool | None = None) -> str:
    """How a trick is won."""
    if v.mode is Mode.SHEDDING:
        return (
            "There are no trumps. When everyone follows, the highest card of the suit led "
            "decides who leads next; when someone cuts, it decides who picks the trick up."
        )
    if trumps is None:
        trumps = has_trumps(v)
    first = _special_winner_words(v)
    if not trumps:
        return (
            first
            + "The highest card of the suit led wins the trick, and the winner leads the next one."
        )
    return first + (
        "If any trumps were played, the highest trump wins the trick; otherwise the highest "
        "card of the suit led wins. Cards of other suits never win. The winner leads the next "
        "trick."
    )


def _special_winner_words(v: Variant) -> str:
    """The special cards' say in a trick (``special cards:``) before the usual
    rule: ``"If a wizard was played, the first wizard played wins the trick. "``."""
    out = ""
    d = v.deck
    for p in d.powers:
        kind = d.special_kinds_named(p.kind)
        if kind is None:
            continue
        which = "last" if p.last else "first"
        one = d.singular_of(kind)
        if p.power is SpecialPower.WINS:
            out += f"If a {one} was played, the {which} {one} played wins the trick. "
        elif p.power is SpecialPower.LOSES:
            out += (
                f"A {one} never wins, unless every card of the trick is a "
                f"{one}: then the {which} played wins. "
            )
    return out


def exact_is_best(v: Variant, counts: Sequence[int] | None = None) -> bool:
    """True when, in every hand of the game and for every bid, taking exactly the tricks
    bid scores strictly better than any other number of tricks."""
    from cardrules.scoring import score_env

    f = v.scoring.formula
    if f is None or not v.has_bidding:
        return False
    shown = list(counts) if counts is not None else list(v.players.counts())
    uses = set(f.uses())
    if uses & {"points", "all_points", "most_points", "maker", "maker_tricks"} or f.questions():
        # the score depends on the cards taken, or on who made trumps: claim nothing
        return False
    if f.counters:
        # the score reads a count kept across hands, which any hand may find at any
        # value: claim nothing
        return False
    seen: set[tuple[int, int, int]] = set()
    for n in shown:
        for h, size in enumerate(v.hand_sizes(n), start=1):
            key = (size, h if "hand" in uses else 0, n if "players" in uses else 0)
            if key in seen:
                continue
            if len(seen) >= 200:
                return False  # too many hands to check: claim nothing
            seen.add(key)
            hi = size if v.bidding.max_bid is None else min(size, v.bidding.max_bid)
            for b in range(v.bidding.min_bid, hi + 1):
                pts = [
                    Fraction(
                        f.evaluate(
                            score_env(bid=b, tricks=t, cards=size, hand=h, players=n, blind=False)
                        )
                    )
                    for t in range(size + 1)
                ]
                if not all(_better(v, pts[b], x) for t, x in enumerate(pts) if t != b):
                    return False
    return True


def goal_phrase(v: Variant, counts: Sequence[int] | None = None) -> str:
    """What a player is after, in a few words."""
    if v.mode is Mode.SHEDDING:
        if _most_cards(v):
            return "get rid of your cards; when the first player goes out, the most cards loses"
        return "get rid of your cards; the last player holding cards loses"
    side = "highest" if v.scoring.higher_wins else "lowest"
    if v.winning.last_one_in and v.winning.knockout_below:
        return f"{_stay_in_words(v)} in every hand to stay in; the last player left in wins"
    if exact_is_best(v, counts):
        return f"take exactly the number of tricks you bid; the {side} total wins"
    if v.winning.target is not None:
        return f"the {side} total when the game ends wins (see Scoring)"
    return f"the {side} total after the last hand wins (see Scoring)"


def _team_words(v: Variant) -> str:
    from cardrules.rulebook.team_words import teams_phrase

    return teams_phrase(v)


def _counter_words(v: Variant) -> list[str]:
    from cardrules.rulebook.team_words import counters_lines

    return [line.removeprefix("- ") for line in counters_lines(v)]


def _cases_words(v: Variant) -> str:
    """The score in the game's own words, in a few lines (the rule "Scoring" of
    a comparison or a list of differences), or ``""`` for a game that names no
    cases of its score."""
    if not v.cases:
        return ""
    per = "side" if v.teams else "player"
    names = " ".join(f"“{md_text(c.label)}”: {md_text(c.means.rstrip('.'))}." for c in v.cases)
    whose = "its" if v.teams else "their"
    lead = f"After each hand, each {per} scores by the cases {whose} hand falls in."
    return f"{lead} {names} {end_phrase(v)}"


def scoring_phrase(v: Variant) -> str:
    """The scoring rule in words, worked out from the variant's formulas (the
    ``score:`` line's for each player, and the ``team score:`` line's)."""
    f = v.scoring.formula
    if v.mode is Mode.SHEDDING:
        if _most_cards(v):
            return "No points: when the first player goes out, the most cards loses the game."
        return "No points: the last player holding cards loses the game."
    if v.scoring.team_formula is not None:
        from cardrules.rulebook.team_words import team_score_phrase

        team = team_score_phrase(v, fixed_variables(v))
        if f is None:
            return f"{team} {end_phrase(v)}"
        from cardrules.rulebook.formula import formula_sentence

        words = _lower_first(formula_sentence(f, fixed_variables(v)))
        return f"After each hand, each player scores: {words} {team} {end_phrase(v)}"
    if f is None:
        return "No scoring formula."
    from cardrules.rulebook.formula import formula_sentence

    words = _lower_first(formula_sentence(f, fixed_variables(v)))
    points = card_points_phrase(v)
    lead = f"{points} " if points else ""
    return f"{lead}After each hand, everyone scores: {words} {end_phrase(v)}"


def _points_words(n: int) -> str:
    """``1`` -> ``"1 point"``; ``-2`` -> ``"minus 2 points"``."""
    return plural(n, "point") if n >= 0 else "minus " + plural(-n, "point")


def _card_value_words(v: Variant, n: int) -> str:
    """A card's points in words: "1 point", "minus 10 points", with "(a bonus)"
    after points that lower a total where the lowest total wins."""
    words = _points_words(n)
    return f"{words} (a bonus)" if n < 0 and not v.scoring.higher_wins else words


def card_points_phrase(v: Variant) -> str:
    """What the cards a player wins are worth (``card points:``), or ``""`` when
    they carry no points or the score does not read them."""
    values = v.scoring.card_points
    f = v.scoring.formula
    uses = set(f.uses()) if f is not None else set()
    if f is not None and any(q.question == "points of" for q in f.questions()):
        uses.add("points")
    if len(values) != 52 or not uses & {"points", "all_points", "most_points"}:
        return ""
    pack = v.deck.cards.mask
    parts: list[str] = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        cards = [13 * suit + i for i in range(12, -1, -1) if pack >> (13 * suit + i) & 1]
        if not cards:
            continue
        row = [values[k] for k in cards]
        base = max(sorted(set(row)), key=lambda x: (row.count(x), x == 0))
        odd = [k for k in cards if values[k] != base]
        parts += [f"{Card(k)} {_card_value_words(v, values[k])}" for k in odd]
        if base:
            each = f"each of the other {suit.word}" if odd else f"each of the {suit.word}"
            parts.append(f"{each} {_card_value_words(v, base)}")
    shown = md_text("; ".join(parts))
    return (
        f"The cards you win in tricks carry points: {shown}; every other card is worth "
        "nothing. In the score, your points are the points of the cards you took in the "
        "hand."
    )


def _stay_in_words(v: Variant) -> str:
    """``take at least one trick`` (``knocked out: no tricks``), or ``take at
    least N tricks``."""
    below = v.winning.knockout_below
    return f"take at least {'one trick' if below == 1 else plural(below, 'trick')}"


def knockout_phrase(v: Variant) -> str:
    """Elimination (``knocked out:``), as the engine plays it."""
    below = v.winning.knockout_below
    if v.mode is Mode.SHEDDING or not below:
        return "Nobody is knocked out."
    took = "no tricks" if below == 1 else f"fewer than {plural(below, 'trick')}"
    text = (
        f"After each hand, every player who took {took} in it is knocked out: they are "
        "dealt no more cards, and the later hands are dealt, led and played among the "
        "players still in, the deal passing to the next player still in (a trick has one "
        "card from each of them). If every player still in would be knocked out, nobody "
        "is, that hand. The game ends as soon as one player is left"
    )
    if v.winning.last_one_in:
        return f"{text}, and that player wins."
    side = "highest" if v.scoring.higher_wins else "lowest"
    return f"{text}; the {side} total, of every player, in or out, wins."


def end_phrase(v: Variant) -> str:
    """When the game ends and who wins, as the engine decides it after each hand."""
    side = "highest" if v.scoring.higher_wins else "lowest"
    target = v.winning.target
    if v.winning.last_one_in and v.winning.knockout_below:
        return (
            "The last player left in wins (see Winning); the totals only decide between "
            "players still in when the game ends with several of them in."
        )
    floor = v.winning.lose_at
    low = "" if floor is None else f" (or {_points_words(floor)} or less)"
    if target is None:
        if floor is None:
            return f"The {side} total wins."
        return (
            f"The game ends after the last hand, or sooner: after the first hand at whose "
            f"end anyone's total is {_points_words(floor)} or less. Then the {side} total wins."
        )
    ends = (
        "The game ends" if length_is_a_guard(v) else "The game ends after the last hand, or sooner:"
    )
    if v.winning.target_by_declarer:
        declarer = (
            f"{ends} after the first hand at whose end the declarer's total is "
            f"{_points_words(target)} or more, and the declarer then wins whatever the other "
            "totals (a total that reaches it by defending plays on)"
        )
        if floor is None:
            return f"{declarer}."
        return (
            f"{declarer}, or after the first hand at whose end anyone's total is "
            f"{_points_words(floor)} or less, and the {side} total then wins."
        )
    return (
        f"{ends} after the first hand at whose end "
        f"anyone's total is {_points_words(target)} or more{low}. Then the {side} total wins."
    )


def fixed_variables(v: Variant) -> dict[str, bool]:
    """Formula variables the game's rules fix: ``blind`` is false when nobody may bid blind."""
    return {} if v.has_bidding and v.bidding.blind else {"blind": False}


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def tie_phrase(v: Variant) -> str:
    """What happens to a tie for the win, as the engine plays it."""
    if v.mode is Mode.SHEDDING:
        return "There is at most one loser, and no winner."
    side = "highest" if v.scoring.higher_wins else "lowest"
    last = "the last hand" if v.winning.target is None else "the game's last hand"
    # A game played to a target has no last hand to speak of (issue 25).
    when = "when the game ends" if length_is_a_guard(v) else f"after {last}"
    if v.winning.last_one_in and v.winning.knockout_below:
        several = (
            f"If the game's last hand ends with several players still in, the one of them "
            f"with the {side} total wins"
        )
        if v.winning.tie is TieBreak.SHARED:
            return f"{several}; players still in who tie for it share the win."
        most = v.winning.max_extra_hands
        # The engine's bound on an endless tie (MAX_TIE_HANDS) is no rule of
        # the game: the page does not present it as one (issue 25).
        bound = (
            ""
            if most is None
            else f" (at most {plural(most, 'extra hand')}, after which those still tied "
            "share the win)"
        )
        return (
            f"{several}; if players still in tie for it, those still in play another hand "
            f"of the largest size, and another, until one leads alone{bound}."
        )
    who, one = ("Sides", "one side") if v.teams else ("Players", "one player")
    if v.winning.tie is TieBreak.SHARED:
        return f"{who} who tie for the {side} total {when} share the win."
    text = (
        f"If {who.lower()} tie for the {side} total {when}, everyone plays another "
        f"hand of the largest size, and another if need be, until {one} leads alone "
        "(anyone may still win, not only those who tied)"
    )
    most = v.winning.max_extra_hands
    if most is None:
        # The engine's bound on an endless tie (MAX_TIE_HANDS, after which it
        # ends the game unfinished) is no rule of the game (issue 25).
        return f"{text}."
    extra = "one extra hand" if most == 1 else f"{count_word(most)} extra hands"
    return f"{text}, but at most {extra}: {who.lower()} still tied after that share the win."


def dead_trick_phrase(v: Variant) -> str:
    """Shedding games: what happens to a dead trick."""
    if v.shedding.dead_tricks is DeadTricks.FACE_UP:
        return (
            "A dead trick is put aside, out of the game, face up, so everyone may look "
            "back at it and count cards."
        )
    return (
        "A dead trick is put aside, out of the game, face down. Every card is played face "
        "up, so everyone sees every card as it is played, and anyone may look at the trick "
        "just finished; once another trick has been played, nobody may look back at a dead "
        "trick, so you must remember what went."
    )


def leader_out_phrase(v: Variant) -> str:
    """Shedding games: who leads when the player who should lead has just gone out."""
    how = getattr(getattr(v.play, "leader_out", None), "name", "NEXT_IN")
    if v.mode is not Mode.SHEDDING:
        return "Nobody goes out before the end of a hand."
    if how == "NEXT_HIGHEST":
        return (
            "If the player who should lead has just gone out, the lead goes to whoever "
            "played the next-highest card of the suit led to that trick and is still in "
            "(or, if nobody is, to the next player still in)."
        )
    if how == "DRAWS":
        return (
            "The player whose card took a dead trick does not get out that way: if it was "
            "their last card, they have *the power*, and must lead again. They draw a card at "
            "random from the dead tricks played before that one (not from the trick just "
            "finished) and lead it at once. They are out only when someone beats a card they "
            "lead while they hold no cards; if a trick they lead is cut, they pick it up as "
            "usual. (If no dead card is left to draw, they are out, and the next player still "
            "in leads.) Anyone else who plays their last card is out."
        )
    return "If the player who should lead is out, the next player still in leads instead."


def take_hand_phrase(v: Variant) -> str:
    """Shedding games: whether a player about to lead may take a neighbour's cards."""
    how = getattr(getattr(v.shedding, "take_hand", None), "name", "NONE")
    if v.mode is not Mode.SHEDDING or how == "NONE":
        return "Nobody may take another player's cards."
    side = left_or_right(v)
    other = {"left": "right", "right": "left"}.get(side, side)
    who = (
        f"the next player still in (to their {side})"
        if how == "NEXT"
        else f"the previous player still in (to their {other})"
    )
    return (
        "A player about to lead a trick, any but the game's first, may first take every "
        f"card of {who}, once for each lead, and then leads. The player whose cards are taken "
        "is out and safe: they do not lose the game. Only the two of them know the cards "
        "taken; everyone sees how many."
    )


def _most_cards(v: Variant) -> bool:
    return getattr(getattr(v.shedding, "loser", None), "name", "") == "MOST_CARDS"


def loser_phrase(v: Variant) -> str:
    """Shedding games: when the game ends and who loses."""
    if not _most_cards(v):
        return (
            "Play goes on until at most one player holds cards. That player loses the game. "
            + all_out_phrase(v)
        )
    tie = getattr(getattr(v.shedding, "loser_tie", None), "name", "NO_LOSER")
    text = (
        "The game ends as soon as a player goes out: whoever then holds the most cards loses "
        "the game."
    )
    if tie == "FIRST_IN_TURN":
        return text + (
            " If several players hold the most, the first of them in the direction of play "
            "after the player who led the last trick loses."
        )
    return text + " If several players hold the most, nobody loses."


def first_trick_cuts(v: Variant) -> bool:
    """Shedding games: whether a player void in the suit led cuts on the first trick."""
    return bool(getattr(v.shedding, "first_trick_cuts", True))


def first_trick_cuts_phrase(v: Variant) -> str:
    """Shedding games: what a void player does on the first trick of a game."""
    if v.mode is not Mode.SHEDDING:
        return "Nobody cuts in a trick-taking game."
    if first_trick_cuts(v):
        return "On the first trick of a game, as on any other, a player who cannot follow cuts."
    return (
        "On the first trick of a game, a player who cannot follow suit does not cut: their "
        "card joins the trick, which goes on, and the trick is dead when everyone has played."
    )


def all_out_phrase(v: Variant) -> str:
    """Shedding games: what happens when the last players go out together."""
    if v.shedding.all_out is EndWhenAllOut.NO_LOSER:
        return (
            "If the last players all play their last cards to the same dead trick, nobody is "
            "left holding cards and the game has no loser."
        )
    return (
        "If the last players all play their last cards to the same dead trick, the player "
        "who led that trick is the loser."
    )


def match_word(v: Variant) -> str:
    """The match word spelled out, ``"K-A-Z-H-U-T-H-A"``, safe for a page."""
    return md_text("-".join(v.match.word.upper()))


#: When a player may take back an action, by ``take backs:``.
_TAKE_BACK_WINDOWS: dict[TakeBacks, str] = {
    TakeBacks.NEXT_ACTION: "until the next player acts",
    TakeBacks.TRICK: "until a trick is complete",
    TakeBacks.HAND: "until the hand ends",
}


def take_backs_phrase(v: Variant) -> str:
    """When a player may take back a card played or a bid made (``take backs:``)."""
    window = _TAKE_BACK_WINDOWS.get(v.take_backs)
    if window is None:
        return "A card played or a bid made stays: there are no take-backs."
    return (
        f"A player may take back their last action (a card, a bid, a call) {window}, "
        "alone if nobody has acted since; past the others' actions only if each of "
        "them agrees, and theirs are taken back with it. Nothing may be "
        "taken back once it has shown anyone something hidden: a new deal, a player's "
        "own cards (a look, a blind bid, the end of the bidding in a hand played with "
        "the cards on the forehead), the bids of a bidding all at once, passed cards "
        "received, a card drawn, a trick picked up or a hand taken."
    )


def match_phrase(v: Variant) -> str:
    """Shedding games: the letters of a match."""
    word = v.match.word
    if not word:
        return "Each game stands alone; there is no match."
    text = (
        f"Each time you lose a game you take the next letter of {match_word(v)}. The first "
        f"player to hold the whole word ({plural(len(word), 'letter')}) is the "
        f"{md_text(word.lower())} and loses the match."
    )
    return text


def mode_phrase(v: Variant) -> str:
    """What kind of game this is."""
    if v.mode is Mode.SHEDDING:
        return f"a shedding game: {goal_phrase(v)}"
    if not v.has_bidding:
        return "a trick-taking game without bidding: take tricks, and score by the rule below"
    if exact_is_best(v):
        return "a trick-taking game: bid how many tricks you will take, then take exactly that many"
    return "a trick-taking game: bid how many tricks you will take, and score by the rule below"


# --------------------------------------------------------------------------- differences


@dataclass(frozen=True)
class Rule:
    """One rule a card player would name, and the settings that make it up.

    Attributes:
        label: the rule's name, such as ``"Trumps"``.
        settings: dotted setting names, such as ``"trumps.kind"``.
        describe: the rule in words for a given variant.
    """

    label: str
    settings: tuple[str, ...]
    describe: Callable[[Variant], str]


def _rule(label: str, describe: Callable[[Variant], str]) -> Rule:
    """The rule ``label``, with the config fields its settings' declarations
    (``cardrules/dsl/settings/``) give it as their page rule."""
    return Rule(label, page_rule_fields(label), describe)


def _or(describe: Callable[[Variant], str], otherwise: str) -> Callable[[Variant], str]:
    """``describe``, or ``otherwise`` where the rule does not apply (its phrase is empty)."""
    return lambda v: describe(v) or otherwise


#: Every setting of a variant (other than its identity) belongs to one rule: a
#: setting's declaration names its rule by the label.
RULES: tuple[Rule, ...] = (
    _rule("Kind of game", lambda v: mode_phrase(v).capitalize() + "."),
    _rule("Players", lambda v: players_phrase(v) + "."),
    _rule("Pack", lambda v: (lambda p: p[:1].upper() + p[1:])(deck_phrase(v)) + "."),
    _rule("Direction of play", lambda v: direction_phrase(v).capitalize() + "."),
    _rule("Dealer", dealer_phrase),
    _rule("Deal schedule", schedule_phrase),
    _rule("Trumps", trumps_phrase),
    _rule(
        "Rank of trumps",
        _or(trump_order_phrase, "The trumps rank as the other suits do, aces high."),
    ),
    _rule("Bidding", _or(bidding_phrase, "Nobody bids.")),
    _rule("The hook", _or(hook_phrase, "Nobody bids, so there is no hook.")),
    _rule("Blind bids", _or(blind_phrase, "Nobody bids blind.")),
    _rule("Forehead hands", _or(forehead_phrase, "Every player looks at their own cards.")),
    _rule("Changing a bid", _or(amend_phrase, "Nobody bids.")),
    _rule("Passing cards", _or(pass_phrase, "Nobody passes cards.")),
    _rule("First lead", first_lead_phrase),
    _rule("Following", follow_phrase),
    _rule("Leading", _or(trump_lead_phrase, "There are no trumps to lead.")),
    _rule(
        "The first trick",
        _or(first_trick_phrase, "The first trick is played like any other."),
    ),
    _rule("Breaking a suit", lambda v: f"A suit is broken {break_phrase(v.play)}."),
    _rule("Leading after going out", leader_out_phrase),
    _rule("Dead tricks", dead_trick_phrase),
    _rule("Everyone out at once", all_out_phrase),
    _rule(
        "Who loses",
        lambda v: loser_phrase(v) if v.mode is Mode.SHEDDING else "Nobody loses a hand.",
    ),
    _rule("Cuts on the first trick", first_trick_cuts_phrase),
    _rule("Taking a hand", take_hand_phrase),
    _rule("Partnerships", lambda v: _team_words(v) or "Everyone plays alone."),
    _rule(
        "Scoring", lambda v: _cases_words(v) or " ".join([scoring_phrase(v), *_counter_words(v)])
    ),
    _rule("Ties", tie_phrase),
    _rule("Knock-out", knockout_phrase),
    _rule("Match", match_phrase),
    _rule("Take-backs", take_backs_phrase),
)


def conditions_phrase(v: Variant) -> str:
    """The lines with a condition, each said in words as the rule it changes
    reads where it holds: "In the 1-card hands, there are no trumps." Empty
    when the game has none."""
    base = v.evolve(conditional=())
    labels = {r.label: r for r in RULES}
    out: list[str] = []
    for line in v.conditional:
        label = BY_NAME[line.key].page_rule
        rule = labels.get(label) if label is not None else None
        applied = apply_changes(base, line.changes)
        text = rule.describe(applied) if rule is not None else f"`{line.key}` changes"
        if line.key == "hook" and not applied.bidding.hook:
            text = "there is no hook: " + text[:1].lower() + text[1:]
        out.append(f"{condition_words(line.condition)}, {text[:1].lower()}{text[1:]}")
    return " ".join(out)


#: The lines with a condition change the rules above where they hold.
RULES += (
    Rule(
        "Conditions",
        ("conditional",),
        lambda v: conditions_phrase(v) or "Every rule holds in every hand, whatever the table.",
    ),
)


def _same(a: object, b: object) -> bool:
    if a == b:
        return True
    # Formulas written differently but alike compare by their canonical text.
    ta, tb = getattr(a, "text", None), getattr(b, "text", None)
    return isinstance(ta, str) and ta == tb


def leaf_settings(obj: Any, prefix: str = "") -> Iterator[tuple[str, object]]:
    """Every leaf setting of an attrs config as ``(dotted name, value)``.

    Nested rule classes are walked into; everything else (enums, ints,
    tuples, formulas) is a leaf. The identity fields of a variant are skipped.
    """
    for f in attrs.fields(type(obj)):
        if not prefix and f.name in IDENTITY_FIELDS:
            continue
        value = getattr(obj, f.name)
        name = f"{prefix}{f.name}"
        if attrs.has(type(value)) and _is_rule_class(value):
            yield from leaf_settings(value, name + ".")
        else:
            yield name, value


def _lines_text(settings: Sequence[str]) -> tuple[str, bool]:
    """``("scoring.higher_wins",)`` -> ``("“winner” line", True)``: the file's lines that
    hold the settings, and whether that is one line."""
    lines = list(dict.fromkeys(SETTING_LINES.get(s, "other") for s in settings))
    one = len(lines) == 1 and "”" not in lines[0]
    quoted = join_words([f"“{line}”" for line in lines])
    return f"{quoted} {'line' if one else 'lines'}", one


def _is_rule_class(value: object) -> bool:
    return type(value).__module__ == "cardrules.rules"


@dataclass(frozen=True)
class Difference:
    """One rule in which a variant differs from its parent.

    Attributes:
        label: the rule's name.
        settings: the settings that differ.
        here: the rule in this variant, in words.
        parent: the rule in the parent, in words.
    """

    label: str
    settings: tuple[str, ...]
    here: str
    parent: str


def differences(variant: Variant, parent: Variant) -> list[Difference]:
    """The rules in which ``variant`` differs from ``parent``, in the order of :data:`RULES`.

    Compares the resolved configs setting by setting and groups the settings
    that differ by the rule they belong to.
    """
    mine = dict(leaf_settings(variant))
    theirs = dict(leaf_settings(parent))
    changed = {k for k in mine.keys() | theirs.keys() if not _same(mine.get(k), theirs.get(k))}
    out = []
    for rule in RULES:
        hit = tuple(s for s in rule.settings if s in changed)
        if hit:
            here, there = rule.describe(variant), rule.describe(parent)
            if here == there:
                # A setting changed without changing the game as played (say, the
                # fallback hand size when the table covers every player count).
                ptitle = md_text(parent.title or parent.name)
                lines, one = _lines_text(hit)
                here = (
                    f"{here} (The file's {lines} {'differs' if one else 'differ'} from "
                    f"{ptitle}'s, which makes no difference in play.)"
                )
            out.append(Difference(rule.label, hit, here, there))
    covered = {s for r in RULES for s in r.settings}
    for s in sorted(changed - covered):
        out.append(Difference("Another setting", (s,), "changed in the file", "as the file says"))
    return out


def suit_list(suits: list[Suit]) -> str:
    """Suit names joined in words."""
    return join_words([s.word for s in suits])


# --------------------------------------------------------------------------- options given


def _on_off(flag: bool) -> str:
    return "on" if flag else "off"


def option_phrase(v: Variant, name: str, value: str) -> str:
    """An option set from outside the file (``--set NAME=VALUE``), in a few words.

    The words are read from the resolved variant ``v`` (the option already
    applied), so they say what the game does, not only what was typed; an
    option without words of its own is shown as ``name: value``.

    Args:
        v: the variant with the option applied.
        name: the option's name, with spaces or underscores (``hand_size``).
        value: the value as it was given.
    """
    key = " ".join(plain(name).replace("_", " ").split()).lower()
    if key == "blind bids":
        return f"blind bids {_on_off(v.bidding.blind)}"
    if key == "hand size":
        start = start_phrase(v.schedule.start, v.players.counts())
        where = "largest" if v.schedule.pattern in (Pattern.UP, Pattern.UP_DOWN) else "first"
        return f"{start} in the {where} hand"
    if key == "trumps":
        return f"trumps: {trumps_short(v)}"
    if key == "hook":
        return f"hook {_on_off(v.bidding.hook)}"
    if key == "follow":
        return follow_short(v)
    if key == "dead tricks":
        return f"dead tricks put aside {v.shedding.dead_tricks.value}"
    if key == "match word" and v.match.word:
        return f"the match word {match_word(v)}"
    if key == "deal passes":
        return "the loser deals the next game" if v.match.loser_deals else "the deal passes on"
    if key == "first lead":
        return _lower_first(first_lead_phrase(v).rstrip("."))
    return f"{md_text(key)}: {md_text(value)}"


def options_note(v: Variant, given: Sequence[tuple[str, str]]) -> str:
    """The note at the top of a page printed with options: ``Played here with: ...``."""
    words = [option_phrase(v, name, value) for name, value in given]
    sep = "; " if any("," in w for w in words) else ", "
    return (
        f"**Played here with:** {sep.join(words)}. These settings were given when the page "
        "was made; the variant file at the bottom shows the file's own."
    )
