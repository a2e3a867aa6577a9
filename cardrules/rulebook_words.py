"""Plain-English phrases for each rule of a :class:`~cardrules.rules.Variant`.

The rules pages (:mod:`cardrules.rulebook`) are assembled from these phrases,
and "Differences from <parent>" compares two variants rule by rule with them:
:data:`RULES` maps every setting of a variant to the rule it belongs to, so a
setting that changes is always reported under a name a card player knows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import attrs

from cardrules.cards import Card, CardSet, Suit
from cardrules.rules import (
    BidStyle,
    DeadTricks,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    Mode,
    Pattern,
    TieBreak,
    TrumpKind,
    TrumpLead,
    Variant,
)

__all__ = [
    "IDENTITY_FIELDS",
    "RULES",
    "Difference",
    "Rule",
    "count_word",
    "differences",
    "join_words",
    "leaf_settings",
    "left_or_right",
    "ordinal",
]

#: Settings that name or describe a variant rather than change how it plays.
IDENTITY_FIELDS = frozenset(
    {"name", "title", "summary", "aliases", "parent", "options", "positions", "source", "path"}
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


# --------------------------------------------------------------------------- phrases


def players_phrase(v: Variant) -> str:
    """How many may play, such as ``"3 to 7 players"``."""
    lo, hi = v.players.min, v.players.max
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"


def players_short(v: Variant) -> str:
    """How many may play, as a bare range such as ``"3 to 7"``."""
    lo, hi = v.players.min, v.players.max
    return str(lo) if lo == hi else f"{lo} to {hi}"


def deck_phrase(v: Variant) -> str:
    """The pack, such as ``"one standard 52-card pack, aces high"``."""
    if v.deck.removed == 0:
        return "one standard 52-card pack, aces high (A K Q J 10 ... 2)"
    gone = CardSet(v.deck.removed)
    return f"a 52-card pack without {gone} ({v.deck.size} cards), aces high (A K Q J 10 ... 2)"


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
    else:
        then = f"after that, the deal passes to the {left_or_right(v)} after every hand"
    return f"{start}; {then}."


def start_phrase(rule: HandSizeRule, counts: range | None = None) -> str:
    """The starting (largest) hand size, such as ``"10 cards for 3 to 5 players, ..."``.

    Args:
        rule: the starting-size rule.
        counts: the allowed numbers of players; the "as many as the pack allows"
            fallback is only mentioned when some of them are not in the table.
    """
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
            parts.append(f"{e.size} cards")
            break
        who = f"{lo} players" if lo == hi else f"{lo} {'or' if hi == lo + 1 else 'to'} {hi} players"
        cards = f"{e.size} cards" if not parts else str(e.size)
        parts.append(f"{cards} for {who}")
    text = join_words(parts)
    needs_fallback = counts is None or any(n not in covered for n in counts)
    if rule.largest and (needs_fallback or not text):
        most = "as many cards as the pack allows"
        if rule.keep_one:
            most += ", keeping one card back to turn up"
        if rule.cap is not None:
            most += f", but never more than {rule.cap}"
        text = f"{text}; otherwise {most}" if text else most
    return text or "not set"


def schedule_phrase(v: Variant) -> str:
    """How the number of cards changes from hand to hand, in one or two sentences."""
    s = v.schedule
    start = start_phrase(s.start, v.players.counts())
    p = s.pattern
    if p is Pattern.WHOLE_PACK:
        text = (
            "The whole pack is dealt out, one card at a time, in a single deal; "
            "some players may get one card more than others"
        )
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
    elif p is Pattern.SAME:
        hands = "one hand" if s.count == 1 else f"{s.count} hands"
        text = f"The game is {hands}, all the same size: {start}"
    else:
        text = "The hands have " + join_words([str(n) for n in s.sizes]) + " cards, in that order"
    if s.repeat == 2:
        text += ". The whole sequence is then played a second time"
    elif s.repeat > 2:
        text += f". The whole sequence is played {s.repeat} times over"
    return text + "."


def trumps_phrase(v: Variant) -> str:
    """How trumps are chosen, in one sentence."""
    t = v.trumps
    if t.kind is TrumpKind.NONE:
        text = "There are no trumps"
    elif t.kind is TrumpKind.TURN_UP:
        text = (
            "After the deal the next card of the pack is turned face up, and its suit "
            "is trumps for that hand"
        )
        if t.none_when_pack_empty:
            text += "; when no card is left to turn up, the hand is played without trumps"
    elif t.kind is TrumpKind.FIXED:
        text = f"{t.suit.word.capitalize() if t.suit else 'No suit'} are always trumps"
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


def trumps_short(v: Variant) -> str:
    """A few words for the comparison table, such as ``"cycle ♠ ♦ ♣ ♥"``."""
    t = v.trumps
    if t.kind is TrumpKind.NONE:
        text = "none"
    elif t.kind is TrumpKind.TURN_UP:
        text = "turned-up card"
    elif t.kind is TrumpKind.FIXED:
        text = f"always {t.suit.symbol}" if t.suit else "none"
    else:
        text = "cycle " + " ".join("NT" if s is None else s.symbol for s in t.cycle)
    if t.no_trump_every:
        text += f", every {ordinal(t.no_trump_every)} hand none"
    return text


def bid_range_phrase(v: Variant) -> str:
    """Which numbers a player may bid."""
    b = v.bidding
    top = "the number of cards in hand" if b.max_bid is None else str(b.max_bid)
    if b.max_bid is not None:
        top += " (and never more than the cards in hand)"
    return f"any number from {b.min_bid} to {top}"


def bidding_phrase(v: Variant) -> str:
    """How bids are made, in one or two sentences."""
    b = v.bidding
    if not v.has_bidding:
        return "Nobody bids."
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


def hook_phrase(v: Variant) -> str:
    """The hook (dealer's restriction), or its absence."""
    if not v.has_bidding:
        return "No bidding, so no hook."
    if v.bidding.style is BidStyle.SIMULTANEOUS:
        return "There is no hook: everyone bids at once, so nobody bids last."
    if v.bidding.hook:
        return (
            "The hook: the dealer may not bid the number that would make all the bids add "
            "up to the number of tricks in the hand. If the others have already bid more "
            "than that, the dealer may bid anything."
        )
    return "There is no hook: the dealer may bid any number, even one that makes the bids add up."


def blind_phrase(v: Variant) -> str:
    """Blind bids, or an empty string."""
    if not v.has_bidding or not v.bidding.blind:
        return "Nobody bids blind."
    return (
        "A player may choose to bid blind, before looking at their cards; the scoring "
        "rewards an exact blind bid (see the scoring table)."
    )


def forehead_phrase(v: Variant) -> str:
    """Hands played "on the forehead", or a plain statement that there are none."""
    sizes = v.bidding.forehead_sizes
    if not sizes:
        return "Every player looks at their own cards."
    which = join_words([str(n) for n in sizes], "or")
    card_s = "card" if sizes == (1,) else "cards"
    return (
        f"Hands of {which} {card_s} are played blind: each player holds their cards facing "
        "outwards (on the forehead), so they can see everyone's cards except their own."
    )


def amend_phrase(v: Variant) -> str:
    """Whether a bid may be changed."""
    if not v.has_bidding:
        return "No bidding."
    if v.bidding.amend:
        return "You may change your bid, but only until the next player has bid."
    return "A bid stands once it is made."


def first_lead_phrase(v: Variant) -> str:
    """Who leads the first trick of a hand, and with what."""
    p = v.play
    side = left_or_right(v)
    c: Card | None = p.lead_card
    if p.first_leader is FirstLeader.HOLDER and c is not None:
        who = f"Whoever holds the {c}"
    else:
        who = f"The player to the dealer's {side}"
    if p.first_lead is FirstLead.CARD and c is not None:
        what = (
            f"must lead the {c}"
            if p.first_leader is FirstLeader.HOLDER
            else (f"must lead the {c} if they hold it")
        )
    elif p.first_lead is FirstLead.SUIT and c is not None:
        what = f"must lead a {c.suit.word[:-1]}"
    else:
        what = "may lead any card"
    return f"{who} leads the first trick and {what}."


def follow_phrase(v: Variant) -> str:
    """The follow rules, in words."""
    p = v.play
    parts = []
    if p.must_follow:
        parts.append("You must follow the suit that was led if you can.")
    else:
        parts.append("You may play any card; you need not follow suit.")
    if v.mode is Mode.SHEDDING:
        parts.append("If you cannot follow, you play any card: that is a cut (see below).")
    elif p.must_trump:
        parts.append("If you cannot follow suit and you hold a trump, you must play a trump.")
    else:
        parts.append("If you cannot follow suit, you may play any card, a trump or not.")
    if p.must_beat:
        parts.append(
            "You must also beat the best card played so far whenever you can "
            "(with a higher card of the suit led, or with a higher trump)."
        )
    return " ".join(parts)


def follow_short(v: Variant) -> str:
    """A few words for the comparison table."""
    p = v.play
    parts = ["follow suit" if p.must_follow else "any card"]
    if v.mode is Mode.SHEDDING:
        parts.append("cut when void")
    if p.must_trump:
        parts.append("trump when void")
    if p.must_beat:
        parts.append("beat when able")
    return ", ".join(parts)


def trump_lead_phrase(v: Variant) -> str:
    """When trumps may be led."""
    if v.trumps.kind is TrumpKind.NONE and not v.trumps.no_trump_every:
        return "There are no trumps to lead."
    if v.play.trump_lead is TrumpLead.ANY_TIME:
        return "Trumps may be led at any time."
    return (
        "Trumps may not be led until a trump has been played to an earlier trick, "
        "unless you hold nothing but trumps."
    )


def winner_phrase(v: Variant) -> str:
    """How a trick is won."""
    if v.mode is Mode.SHEDDING:
        return (
            "There are no trumps. When everyone follows, the highest card of the suit led "
            "decides who leads next; when someone cuts, it decides who picks the trick up."
        )
    if v.trumps.kind is TrumpKind.NONE and not v.trumps.no_trump_every:
        return "The highest card of the suit led wins the trick, and the winner leads the next one."
    return (
        "If any trumps were played, the highest trump wins the trick; otherwise the highest "
        "card of the suit led wins. Cards of other suits never win. The winner leads the next "
        "trick."
    )


def scoring_phrase(v: Variant) -> str:
    """The scoring rule in words, worked out from the variant's formula."""
    f = v.scoring.formula
    if v.mode is Mode.SHEDDING:
        return "No points: the last player holding cards loses the game."
    if f is None:
        return "No scoring formula."
    from cardrules.rulebook_formula import formula_sentence

    side = "highest" if v.scoring.higher_wins else "lowest"
    words = _lower_first(formula_sentence(f))
    return f"After each hand, everyone scores: {words} The {side} total wins."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def tie_phrase(v: Variant) -> str:
    """What happens to a tie for the win."""
    if v.mode is Mode.SHEDDING:
        return "There is one loser, not a winner."
    if v.winning.tie is TieBreak.SHARED:
        return "Players who tie for the best total share the win."
    most = v.winning.max_extra_hands
    then = (
        f"; after {count_word(most)} extra {'hand' if most == 1 else 'hands'} "
        "the win is shared"
        if most is not None
        else ""
    )
    return (
        "If players tie for the best total, everyone plays more hands of the largest size "
        f"until one player leads alone (anyone may still win, not only those who tied){then}."
    )


def dead_trick_phrase(v: Variant) -> str:
    """Shedding games: what happens to a dead trick."""
    side = (
        "face up, so everyone may look back at them and count cards"
        if (v.shedding.dead_tricks is DeadTricks.FACE_UP)
        else "face down, so only the players who played them know what they were"
    )
    return f"A dead trick is put aside, out of the game, {side}."


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


def match_phrase(v: Variant) -> str:
    """Shedding games: the letters of a match."""
    word = v.match.word
    if not word:
        return "Each game stands alone; there are no match letters."
    spelled = "-".join(word.upper())
    text = (
        f"Each time you lose a game you take the next letter of {spelled}. The first player "
        f"to hold the whole word ({len(word)} letters) is the {word.lower()} and loses the match."
    )
    return text


def mode_phrase(v: Variant) -> str:
    """What kind of game this is."""
    if v.mode is Mode.SHEDDING:
        return "a shedding game: get rid of all your cards; the last player holding cards loses"
    return "a trick-taking game: bid how many tricks you will take, then take exactly that many"


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


#: Every setting of a variant (other than its identity) belongs to one rule.
RULES: tuple[Rule, ...] = (
    Rule("Kind of game", ("mode",), lambda v: mode_phrase(v).capitalize() + "."),
    Rule("Players", ("players.min", "players.max"), lambda v: players_phrase(v) + "."),
    Rule("Pack", ("deck.removed",), lambda v: deck_phrase(v).capitalize() + "."),
    Rule("Direction of play", ("direction",), lambda v: direction_phrase(v).capitalize() + "."),
    Rule("Dealer", ("dealer.first", "dealer.seat", "match.loser_deals"), dealer_phrase),
    Rule(
        "Deal schedule",
        (
            "schedule.start.table",
            "schedule.start.largest",
            "schedule.start.keep_one",
            "schedule.start.cap",
            "schedule.pattern",
            "schedule.count",
            "schedule.sizes",
            "schedule.repeat",
        ),
        schedule_phrase,
    ),
    Rule(
        "Trumps",
        (
            "trumps.kind",
            "trumps.suit",
            "trumps.cycle",
            "trumps.no_trump_every",
            "trumps.none_when_pack_empty",
        ),
        trumps_phrase,
    ),
    Rule("Bidding", ("bidding.style", "bidding.min_bid", "bidding.max_bid"), bidding_phrase),
    Rule("The hook", ("bidding.hook",), hook_phrase),
    Rule("Blind bids", ("bidding.blind",), blind_phrase),
    Rule("Blind hands", ("bidding.forehead_sizes",), forehead_phrase),
    Rule("Changing a bid", ("bidding.amend",), amend_phrase),
    Rule(
        "First lead",
        ("play.first_leader", "play.lead_card", "play.first_lead"),
        first_lead_phrase,
    ),
    Rule(
        "Following",
        ("play.must_follow", "play.must_trump", "play.must_beat"),
        follow_phrase,
    ),
    Rule("Leading trumps", ("play.trump_lead",), trump_lead_phrase),
    Rule("Dead tricks", ("shedding.dead_tricks",), dead_trick_phrase),
    Rule("Everyone out at once", ("shedding.all_out",), all_out_phrase),
    Rule("Scoring", ("scoring.formula", "scoring.higher_wins"), scoring_phrase),
    Rule("Ties", ("winning.tie", "winning.max_extra_hands"), tie_phrase),
    Rule("Match", ("match.word",), match_phrase),
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


def _setting_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "not set"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


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
                changes = "; ".join(
                    f"`{s}` is {_setting_text(mine.get(s))} instead of "
                    f"{_setting_text(theirs.get(s))}"
                    for s in hit
                )
                here = f"{here} (In the file, {changes}, which makes no difference in play.)"
            out.append(Difference(rule.label, hit, here, there))
    covered = {s for r in RULES for s in r.settings}
    for s in sorted(changed - covered):
        out.append(Difference(s, (s,), repr(mine.get(s)), repr(theirs.get(s))))
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
    key = " ".join(name.replace("_", " ").split()).lower()
    if key == "hook":
        return f"hook {_on_off(v.bidding.hook)}"
    if key == "blind bids":
        return f"blind bids {_on_off(v.bidding.blind)}"
    if key == "hand size":
        start = start_phrase(v.schedule.start, v.players.counts())
        where = "largest" if v.schedule.pattern in (Pattern.UP, Pattern.UP_DOWN) else "first"
        return f"{start} in the {where} hand"
    if key == "trumps":
        return f"trumps: {trumps_short(v)}"
    if key == "follow":
        return follow_short(v)
    if key == "dead tricks":
        return f"dead tricks put aside {v.shedding.dead_tricks.value}"
    if key == "match word" and v.match.word:
        return f"the match word {'-'.join(v.match.word.upper())}"
    if key == "deal passes":
        return "the loser deals the next game" if v.match.loser_deals else "the deal passes on"
    if key == "first lead":
        return _lower_first(first_lead_phrase(v).rstrip("."))
    return f"{key}: {' '.join(value.split())}"


def options_note(v: Variant, given: Sequence[tuple[str, str]]) -> str:
    """The note at the top of a page printed with options: ``Played here with: ...``."""
    words = [option_phrase(v, name, value) for name, value in given]
    sep = "; " if any("," in w for w in words) else ", "
    return (
        f"**Played here with:** {sep.join(words)}. These settings were given when the page "
        "was made; the variant file at the bottom shows the file's own."
    )
