"""The sections of a rules page for a shedding game (Kazhutha and its family).

The worked example (a dead trick, then a cut) is dealt from a stacked pack and
played by the engine under the variant's own rules; its words are written from
the engine's events, so a house rule that changes who leads, which way play
goes, or how a dead trick is put away changes the example with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardrules.cards import Card, CardSet, Rank, Suit
from cardrules.errors import CardrulesError
from cardrules.rulebook.play_examples import (
    example_players,
    play_examples_section,
    seat_names,
    stack_deck,
)
from cardrules.rulebook.safe import md_text
from cardrules.rulebook.words import (
    count_word,
    dead_trick_phrase,
    first_lead_phrase,
    first_trick_cuts,
    first_trick_phrase,
    follow_phrase,
    join_words,
    lead_list_phrase,
    leader_out_phrase,
    left_or_right,
    loser_phrase,
    match_phrase,
    plural,
    take_hand_phrase,
    unbroken_phrase,
)
from cardrules.rules import DeadTricks, Direction, FirstLeader, LeaderOut, TakeHand, Variant

if TYPE_CHECKING:
    from cardrules.engine.game import Game

__all__ = ["WorkedTricks", "play_worked_tricks", "shedding_sections", "worked_tricks_section"]

#: The seat that deals in the worked example.
EXAMPLE_DEALER = 0


def shedding_sections(
    v: Variant, players: int | None = None, *, engine_examples: bool = True, pictures: bool = False
) -> list[str]:
    """Playing, a dead trick and a cut worked through, getting out, and the match letters.

    Args:
        v: the variant (a shedding game).
        players: the number of players of the worked example (4 when allowed if ``None``).
        engine_examples: include the two tricks dealt and played by the engine.
        pictures: also draw those two tricks as cards (see :mod:`cardrules.rulebook.svg_cards`).
    """
    side = left_or_right(v)
    out = [
        "## Playing",
        "",
        "The aim is to get rid of all your cards. There are no trumps.",
        "",
        first_lead_phrase(v),
        "",
        f"Play goes to the {side}. {follow_phrase(v)}",
        "",
        *[
            x
            for text in (lead_list_phrase(v), first_trick_phrase(v), unbroken_phrase(v))
            if text
            for x in (text, "")
        ],
        "A trick ends in one of two ways:",
        "",
        "- **Everyone follows suit.** The trick is *dead*. "
        + dead_trick_phrase(v)
        + " Whoever played the highest card of the suit led leads the next trick, with any "
        "card."
        + (
            " (If that was their last card, they have *the power*: see Getting out.)"
            if v.play.leader_out is LeaderOut.DRAWS
            else ""
        ),
        "- **Someone cannot follow.** They play any card: that is a *cut*. The trick stops at "
        "once, and the players after them do not play to it. Whoever played the highest card "
        "of the suit led picks up every card of the trick, the cut card too, adds them to "
        "their hand, and leads the next trick."
        + ("" if first_trick_cuts(v) else " (Not on the first trick of a game: see above.)"),
        "",
    ]
    if v.shedding.take_hand is not TakeHand.NONE:
        out += [take_hand_phrase(v), ""]
    out += play_examples_section(v, players)
    if engine_examples:
        out += worked_tricks_section(v, players, pictures=pictures)
    out += [
        "## Getting out",
        "",
        "A player with no cards left is out and safe, and takes no further part in the game. "
        + leader_out_phrase(v),
        "",
        loser_phrase(v),
        "",
    ]
    if not v.match.word:
        return [*out, match_phrase(v), ""]
    out += ["## Match letters", "", match_phrase(v), ""]
    letters = v.match.word.upper()
    rows = [f"| {i + 1} | {md_text('-'.join(letters[: i + 1]))} |" for i in range(len(letters))]
    out += [
        "| Games lost | Letters held |",
        "| ---: | :--- |",
        *rows,
        "",
    ]
    return out


# --------------------------------------------------------------------------- the worked example


@dataclass(frozen=True)
class WorkedTricks:
    """Two tricks of a shedding game, dealt from a stacked pack and played by the engine.

    Attributes:
        players: the number of players.
        dealer: the dealer's seat.
        order: the seats in playing order, starting with the dealer's neighbour.
        first_choices: the cards the first leader was allowed to lead.
        tricks: each trick as ``(plays, end)``: the ``("play", seat, card)``
            events, then the event that ended it (``"dead"`` or ``"pickup"``).
        next_leader: the seat to lead after the second trick.
        hand_sizes: each seat's number of cards after the second trick.
        dealt: each seat's number of cards as dealt.
    """

    players: int
    dealer: int
    order: tuple[int, ...]
    first_choices: tuple[Card, ...]
    tricks: tuple[tuple[tuple[Any, ...], Any], ...]
    next_leader: int | None
    hand_sizes: tuple[int, ...]
    dealt: tuple[int, ...]


def _playing_order(v: Variant, players: int, dealer: int) -> list[int]:
    step = 1 if v.direction is Direction.CLOCKWISE else -1
    return [(dealer + step * (k + 1)) % players for k in range(players)]


def _plan(v: Variant, n: int) -> tuple[list[list[Card]], list[Card], dict[int, Card]] | None:
    """The hands, by position in playing order (the dealer's neighbour first), and the
    card each position means to play to the first and the second trick.

    First trick: the neighbour holds the lead card (the A\u2660 unless the variant
    names another) and the others the lowest other cards of its suit, so everyone
    can follow. Second trick: whoever took the first leads a heart (the 5\u2665),
    the next players follow with the 9\u2665 and the K\u2665, and the player after
    them, who holds no hearts, cuts with the A\u2663.
    """
    pack = v.deck.cards
    lead = v.play.lead_card or Card.of(Rank.ACE, Suit.SPADES)
    s1 = lead.suit
    s2 = next(s for s in (Suit.HEARTS, Suit.DIAMONDS) if s != s1)
    s3 = next(s for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES) if s not in (s1, s2))
    low = sorted((c for c in pack.of_suit(s1) if c != lead), key=lambda c: c.rank)
    if lead not in pack or len(low) < n - 1:
        return None
    first = [lead, *low[: n - 1]]
    taker = max(range(n), key=lambda k: first[k].rank)
    cut = min(3, n - 1)
    ranks = (Rank.FIVE, Rank.NINE, Rank.KING)[3 - cut :]
    second: dict[int, Card] = {(taker + k) % n: Card.of(r, s2) for k, r in enumerate(ranks)}
    cutter = (taker + cut) % n
    second[cutter] = Card.of(Rank.ACE, s3)
    hands: list[list[Card]] = [[first[k]] for k in range(n)]
    for k, c in second.items():
        hands[k].append(c)
    used = set(first) | set(second.values())
    if not used <= set(pack):
        return None
    rest = sorted((c for c in pack if c not in used), key=lambda c: (c.suit != s2, c.suit, c.rank))
    if not _deal_rest(hands, rest, len(pack), cutter, s2):
        return None
    return hands, first, second


def _deal_rest(
    hands: list[list[Card]], rest: Sequence[Card], size: int, cutter: int, cut_suit: Suit
) -> bool:
    """Deal ``rest`` (in order) to ``hands``, each up to its share of a pack of ``size``
    cards, the emptiest first, none of ``cut_suit`` to ``cutter``; whether they all
    found a place."""
    n = len(hands)
    room = [size // n + (1 if k < size % n else 0) - len(hands[k]) for k in range(n)]
    for c in rest:
        fits = [k for k in range(n) if room[k] > 0 and not (k == cutter and c.suit == cut_suit)]
        if not fits:
            return False
        k = max(fits, key=lambda k: (room[k], -k))
        hands[k].append(c)
        room[k] -= 1
    return True


def _stack(hands: Sequence[Sequence[Card]]) -> list[Card]:
    """The pack that deals ``hands`` (by position, the dealer's neighbour first) one
    card at a time."""
    return stack_deck(hands)


def _play_trick(g: Game, wanted: dict[int, Card]) -> tuple[tuple[Any, ...], Any]:
    from cardrules.engine.actions import Play

    start = len(g.events)
    while True:
        seat = g.to_act
        if seat is None:
            break
        legal = [a for a in g.legal_actions() if isinstance(a, Play)]
        if not legal:
            break
        want = wanted.get(seat)
        choice = Play(want) if want is not None and Play(want) in legal else legal[0]
        g.apply(choice, seat)
        if any(e[0] in ("dead", "pickup", "trick") for e in g.events[start:]):
            break
    events = g.events[start:]
    plays = tuple(e for e in events if e[0] == "play")
    end = next((e for e in events if e[0] in ("dead", "pickup", "trick")), None)
    return plays, end


def _cards_of(hand: CardSet) -> list[int]:
    """A hand's cards (several packs: a copy as its card, as many as held)."""
    return sorted(int(c) & 63 for c in hand)


def play_worked_tricks(v: Variant, players: int) -> WorkedTricks | None:
    """Deal a stacked pack under ``v`` and let the engine play a dead trick and a cut.

    Returns ``None`` when the variant's pack cannot hold the example.
    """
    from cardrules.engine.game import Game

    plan = _plan(v, players)
    if plan is None:
        return None
    hands, first, second = plan
    order = _playing_order(v, players, EXAMPLE_DEALER)
    g = Game(v, players=players, deck=_stack(hands), first_dealer=EXAMPLE_DEALER)
    if any(_cards_of(g.hand(order[k])) != _cards_of(CardSet(hands[k])) for k in range(players)):
        return None  # the engine dealt differently: no example rather than a wrong one
    dealt = tuple(len(g.hand(s)) for s in range(players))
    seat_of = dict(enumerate(order))
    from cardrules.engine.actions import Play

    choices = tuple(a.card for a in g.legal_actions() if isinstance(a, Play))
    one = _play_trick(g, {seat_of[k]: c for k, c in enumerate(first)})
    two = _play_trick(g, {seat_of[k]: c for k, c in second.items()})
    return WorkedTricks(
        players=players,
        dealer=g.dealer,
        order=tuple(order),
        first_choices=choices,
        tricks=(one, two),
        next_leader=g.to_act,
        hand_sizes=tuple(len(g.hand(s)) for s in range(players)),
        dealt=dealt,
    )


def _card_list(cards: Sequence[Card]) -> str:
    return join_words([str(c) for c in cards])


def _first_lead_words(v: Variant, w: WorkedTricks, seat: int, c: Card) -> str:
    who = seat_names(w.players)[seat]
    choices = w.first_choices
    if v.play.first_leader is FirstLeader.HOLDER and v.play.lead_card is not None:
        why = f"{who} holds the {v.play.lead_card}, so {who} leads first"
    elif seat == w.order[0]:
        why = f"{who} sits to the dealer's {left_or_right(v)}, so {who} leads first"
    else:
        why = f"{who} leads first"
    if choices == (c,):
        return f"{why} and must lead it."
    if all(x.suit == c.suit for x in choices):
        return f"{why}, with any {c.suit.word[:-1]}, and chooses the {c}."
    return f"{why}, with any card, and chooses the {c}."


@dataclass(frozen=True)
class _TrickSeen:
    """One trick of :class:`WorkedTricks` as :func:`_trick_words` tells it.

    Attributes:
        seats: the seats that played, in order.
        cards: the cards they played, in order.
        names: the names of the seats that played, in order.
        everyone: the names of all the seats, seat 0 first.
        led: the suit led.
        best: the index of the highest card of the suit led.
        taker: the seat that took, picked up or (dead trick) leads next, if any.
    """

    seats: list[int]
    cards: list[Card]
    names: list[str]
    everyone: tuple[str, ...]
    led: Suit
    best: int
    taker: int | None


def _trick_seen(w: WorkedTricks, plays: Sequence[Any], end: Any) -> _TrickSeen:
    """The :class:`_TrickSeen` of the trick of ``plays`` (play events) ended by ``end``."""
    seats = [int(e[1]) for e in plays]
    cards = [Card(int(e[2])) for e in plays]
    everyone = seat_names(w.players)
    led = cards[0].suit
    best = max((k for k in range(len(plays)) if cards[k].suit == led), key=lambda k: cards[k].rank)
    return _TrickSeen(
        seats=seats,
        cards=cards,
        names=[everyone[s] for s in seats],
        everyone=everyone,
        led=led,
        best=best,
        taker=_end_seat(end),
    )


def _dead_trick_words(v: Variant, t: _TrickSeen) -> str:
    """What happens to a dead trick and who leads next (with a leading space)."""
    put = (
        "face up, where anyone may look back at them and count"
        if v.shedding.dead_tricks is DeadTricks.FACE_UP
        else "face down: everyone saw them played, and they stay in view only until the "
        "next trick has been played; from then on you must remember what was played"
    )
    text = (
        f" Everyone followed suit, so the trick is dead: the {count_word(len(t.cards))} cards "
        f"are put aside, out of the game, {put}."
    )
    if t.taker is not None:
        text += (
            f" The {t.cards[t.best]} was the highest {t.led.word[:-1]}, so "
            f"{t.everyone[t.taker]} leads the next trick, with any card."
        )
    return text


def _cut_trick_words(w: WorkedTricks, t: _TrickSeen, k: int) -> str:
    """How the play in position ``k`` cuts the trick, and who picks it up (with a
    leading space)."""
    led = t.led
    text = (
        f" {t.names[k]} has no {led.word}, so {t.names[k]} cuts with the {t.cards[k]}, and "
        "the trick stops there."
    )
    skipped = [t.everyone[s] for s in w.order if s not in t.seats]
    if skipped:
        text += f" {join_words(skipped)} {'does' if len(skipped) == 1 else 'do'} not play to it."
    text += (
        f" The {t.cards[k]} is not a {led.word[:-1]}, so it cannot win the trick, however "
        "high it is."
    )
    if t.taker is not None:
        taker = t.everyone[t.taker]
        text += (
            f" {taker} played the highest {led.word[:-1]}, the {t.cards[t.best]}, so "
            f"{taker} picks up all {count_word(len(t.cards))} cards ({_card_list(t.cards)}) "
            "and adds them to their hand."
        )
    return text


def _trick_words(v: Variant, w: WorkedTricks, i: int) -> str:
    """Trick ``i`` of ``w`` in words: the lead, who followed, and how the trick ended."""
    plays, end = w.tricks[i]
    t = _trick_seen(w, plays, end)
    cards, names = t.cards, t.names
    if i == 0:
        text = _first_lead_words(v, w, t.seats[0], cards[0])
    else:
        again = " again" if i > 0 and _end_seat(w.tricks[i - 1][1]) == t.seats[0] else ""
        text = f"{names[0]} leads{again}, with the {cards[0]}."
    follows = [k for k in range(1, len(plays)) if cards[k].suit == t.led]
    cuts = [k for k in range(1, len(plays)) if cards[k].suit != t.led]
    if follows:
        first, *more = follows
        parts = [f"{names[first]} plays the {cards[first]}"]
        parts += [f"{names[k]} the {cards[k]}" for k in more]
        text += " " + join_words(parts) + "."
    end_kind = end[0] if end is not None else ""
    if end_kind == "dead":
        return text + _dead_trick_words(v, t)
    if end_kind == "pickup" and cuts:
        return text + _cut_trick_words(w, t, cuts[0])
    if t.taker is not None:
        text += f" {t.everyone[t.taker]} takes the trick."
    return text


def _tricks_figure(w: WorkedTricks) -> list[str]:
    """The two tricks as cards, each in the order played; the card of the player who
    leads next (dead trick) or picks the trick up (cut) is outlined."""
    from cardrules.rulebook.svg_cards import figure, trick_grid

    names = seat_names(w.players)
    drawn = []
    for i, (plays, end) in enumerate(w.tricks):
        seats = [int(e[1]) for e in plays]
        taker = _end_seat(end)
        if end is not None and end[0] == "pickup":
            cutter = names[seats[-1]]
            note = f"Trick {i + 1}: {cutter} cuts, {names[taker or 0]} picks up"
        elif end is not None and end[0] == "dead":
            note = f"Trick {i + 1}: dead, {names[taker or 0]} leads next"
        else:
            note = f"Trick {i + 1}"
        marked = [k for k, s in enumerate(seats) if s == taker]
        drawn.append(
            ([(names[s], Card(int(e[2]))) for s, e in zip(seats, plays, strict=True)], marked, note)
        )
    title = "The two tricks, each in the order its cards were played"
    return [
        figure(trick_grid(drawn, title), f"{title}; the highest card of the suit led is outlined."),
        "",
    ]


def _end_seat(end: Any) -> int | None:
    return None if end is None else int(end[1])


def worked_tricks_section(
    v: Variant, players: int | None = None, *, pictures: bool = False
) -> list[str]:
    """A dead trick and a cut, dealt and played by the engine, as Markdown lines.

    Empty when the engine is not available or the pack cannot hold the example.
    With ``pictures``, the two tricks are drawn too.
    """
    try:
        import cardrules.engine.game  # noqa: F401
    except ImportError:
        return []
    n = players if players is not None else example_players(v, 4)
    try:
        w = play_worked_tricks(v, n)
    except CardrulesError:
        return []  # a pack the engine refuses to deal this way: no example
    if w is None or len(w.tricks) < 2:
        return []
    NAMES = seat_names(n)
    who = list(NAMES)
    way = (
        "clockwise, to the left"
        if v.direction is Direction.CLOCKWISE
        else ("anticlockwise, to the right")
    )
    sizes = sorted(set(w.dealt))
    dealt = (
        f"{plural(sizes[0], 'card')} each"
        if len(sizes) == 1
        else f"{sizes[0]} or {sizes[-1]} cards each"
    )
    out = [
        "### A dead trick and a cut, worked through",
        "",
        f"These two tricks were dealt from a stacked pack and played by cardrules itself, "
        f"under the rules on this page. {count_word(n).capitalize()} players, "
        f"{join_words(who)}, sit round the table in that order clockwise. "
        f"{NAMES[w.dealer]} deals the whole pack, {dealt}, and play goes {way}: "
        f"{', '.join(NAMES[s] for s in w.order)}, and round again. Only the cards that "
        "matter are shown.",
        "",
    ]
    out += [f"{i + 1}. {_trick_words(v, w, i)}" for i in range(len(w.tricks))]
    out.append("")
    if pictures:
        out += _tricks_figure(w)
    end = w.tricks[-1][1]
    if end is not None and end[0] == "pickup":
        taker = int(end[1])
        others = [s for s in w.order if s != taker]
        if len({w.hand_sizes[s] for s in others}) == 1:
            rest = f"everyone else {w.hand_sizes[others[0]]}"
        else:
            rest = join_words([f"{NAMES[s]} {w.hand_sizes[s]}" for s in others])
        lead = ""
        if w.next_leader is not None:
            lead = f" {NAMES[w.next_leader]} leads the third trick, with any card."
        out += [
            f"{NAMES[taker]} now holds {plural(w.hand_sizes[taker], 'card')}, {rest}."
            f"{lead} Everyone saw the cards {NAMES[taker]} picked up, so a careful player "
            f"remembers that {NAMES[taker]} now holds the {Card(int(end[3][-1]))}.",
            "",
        ]
    return out
