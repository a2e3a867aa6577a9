"""The worked hand of a rules page: a seeded game played by the engine.

Every seat plays by one simple, fixed rule (see :func:`simple_choice`), so the
hand shown on a page is the same on every build, and it is the engine, not the
page, that decides who wins each trick and what everyone scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from cardrules.cards import Card, CardSet, Rank, Suit
from cardrules.errors import CardrulesError
from cardrules.rulebook.hand_trumps import no_card_left
from cardrules.rulebook.page_tables import format_points, markdown_table
from cardrules.rulebook.play_examples import seat_names
from cardrules.rulebook.words import count_word, join_words, plural
from cardrules.rules import BidStyle, Direction, DowntownRule, Mode, TrumpNamer, Variant

if TYPE_CHECKING:
    from cardrules.engine.actions import Action, Bid, Play
    from cardrules.engine.game import Game

__all__ = [
    "SEED",
    "WorkedHand",
    "pick_hand",
    "play_worked_hand",
    "simple_choice",
    "worked_hand_section",
]

#: The seed of the worked hand's game.
SEED = 1


@dataclass(frozen=True)
class WorkedHand:
    """One hand of a seeded game, as the engine played and scored it.

    Attributes:
        players: the number of players.
        seed: the game's seed.
        hand: the hand number.
        size: cards each.
        dealer: the dealer's seat.
        trump: the trump suit, or ``None``.
        turned_up: the turned-up card, if any.
        hands: each seat's cards as dealt.
        bids: each seat's bid.
        blind: whether each bid was blind.
        tricks: each trick as ``(winner, ((seat, card), ...))``.
        won: tricks won by each seat.
        points: each seat's points for the hand.
        totals: each seat's running total after the hand.
        passed: games that pass cards: the cards each seat passed (empty when
            the hand has no pass).
        pass_to: the seat each seat passed to (empty when the hand has no pass).
        maker: the seat that made trumps (named them or ordered the card up), if any.
        calls: the choice of trumps, in order: ``(seat, action)``.
    """

    players: int
    seed: int
    hand: int
    size: int
    dealer: int
    trump: Suit | None
    turned_up: Card | None
    hands: tuple[CardSet, ...]
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...]], ...]
    won: tuple[int, ...]
    points: tuple[Fraction, ...]
    totals: tuple[Fraction, ...]
    passed: tuple[CardSet, ...] = ()
    pass_to: tuple[int, ...] = ()
    maker: int | None = None
    calls: tuple[tuple[int, Any], ...] = ()


def _strength(c: Card) -> tuple[int, int]:
    if c.is_joker:  # above every ace: the big joker, then the little one
        return (c - 37, 4)
    if c.is_special:  # a fixed order for the worked hand: above the jokers
        return (c - 37, 5)
    return (int(c.rank), int(c.suit))


def simple_choice(game: Game) -> Action:
    """The fixed way every seat plays in a worked hand.

    Bidding: look at your cards (never bid blind) and bid the number of aces
    and kings you hold, or the nearest bid allowed (the lower on a tie).
    Playing: while you still need tricks, play your highest allowed card;
    once you have your bid, play your lowest. In a game without bidding, always
    play your highest allowed card. Passing: pass your highest cards. Choosing
    trumps: order up the turned card, or name the first suit offered; as the
    dealer, discard your lowest card.
    """
    from cardrules.engine.actions import (
        Bid,
        Contract,
        Decline,
        Discard,
        Look,
        OrderUp,
        Pass,
        Play,
    )

    actions = game.legal_actions()
    if game.phase == "bid" and Decline() in actions:
        contracts = [a for a in actions if isinstance(a, Contract) and not a.misere]
        if contracts:
            # An auction of contracts: the first to speak bids the lowest one
            # (the first listed: the lowest number in the lowest strain), the
            # others pass, so that every worked hand is played.
            seat = game.to_act
            assert seat is not None
            return contracts[0] if game.view(seat).contract is None else Decline()
        return _auction_choice(game, [a for a in actions if isinstance(a, Bid)])
    if Look() in actions:
        return Look()
    passes = [a for a in actions if isinstance(a, Pass)]
    if passes:
        return max(passes, key=lambda a: _strength(a.card))
    if OrderUp() in actions:
        return OrderUp()
    discards = [a for a in actions if isinstance(a, Discard)]
    if discards:
        return min(discards, key=lambda a: _strength(a.card))
    plays = [a for a in actions if isinstance(a, Play)]
    if plays:
        return _play_choice(game, plays)
    bids = [a for a in actions if isinstance(a, Bid) and not a.blind]
    if bids:
        return _bid_choice(game, bids)
    return actions[0]


def _play_choice(game: Game, plays: Sequence[Play]) -> Play:
    """:func:`simple_choice`'s card: the highest while the seat needs tricks, else the lowest."""
    seat = game.to_act
    assert seat is not None
    bid = game.bids[seat]
    if bid is None or bid - game.tricks_won[seat] > 0:
        return max(plays, key=lambda a: _strength(a.card))
    return min(plays, key=lambda a: _strength(a.card))


def _auction_choice(game: Game, bids: Sequence[Bid]) -> Action:
    """:func:`simple_choice` in an auction: the lowest bid allowed when the seat
    holds at least that many aces and kings, else a pass."""
    from cardrules.engine.actions import Decline

    seat = game.to_act
    assert seat is not None
    held = game.view(seat).hand
    target = 0 if held is None else sum(1 for c in held if c.is_joker or c.rank >= Rank.KING)
    low = min(bids, key=lambda a: a.n) if bids else None
    return low if low is not None and low.n <= target else Decline()


def _bid_choice(game: Game, bids: Sequence[Bid]) -> Bid:
    """:func:`simple_choice`'s bid: the aces and kings held, or the nearest bid allowed."""
    seat = game.to_act
    assert seat is not None
    held = game.view(seat).hand
    target = 0 if held is None else sum(1 for c in held if c >= 52 or c.rank >= Rank.KING)
    return min(bids, key=lambda a: (abs(a.n - target), a.n))


def pick_hand(v: Variant, players: int) -> int:
    """The hand number to show: the first hand of 3 or 4 cards (else 5 or fewer, else 1)."""
    sizes = v.hand_sizes(players)
    for lo, hi in ((3, 4), (2, 5)):
        for i, s in enumerate(sizes):
            if lo <= s <= hi:
                return i + 1
    return 1


def play_worked_hand(
    v: Variant, players: int, hand: int | None = None, seed: int = SEED
) -> WorkedHand:
    """Play a seeded game with :func:`simple_choice` up to the end of hand ``hand``.

    Args:
        v: the variant (a trick-taking game).
        players: the number of players.
        hand: the hand to record; :func:`pick_hand` chooses when ``None``.
        seed: the game's seed.
    """
    from cardrules.engine.game import Game

    target = pick_hand(v, players) if hand is None else hand
    g = Game(v, players=players, seed=seed)
    while not g.is_over and not _scored(g.events, target):
        g.apply_as_current(simple_choice(g))
    scored = [e[1] for e in g.events if e[0] == "score"]
    if scored and target not in scored:
        # The game ended sooner (a total reached the target): its last hand.
        target = scored[-1]
    return _extract(g.events, players, seed, target)


def _scored(events: Sequence[Any], hand: int) -> bool:
    """Whether hand ``hand`` has just been scored: a ``"score"`` event for it since
    the last action (after it come the other events of a hand's end, such as
    ``"counters"``, and the next deal)."""
    for e in reversed(events):
        if e[0] == "score":
            return bool(e[1] == hand)
        if e[0] in ("play", "bid", "look", "amend"):
            return False
    return False


def _as_set(h: object) -> CardSet:
    if isinstance(h, CardSet):
        return h
    if isinstance(h, int):
        return CardSet(h)
    raise TypeError(f"cannot read a hand from {h!r}")


def _extract(events: Sequence[Any], players: int, seed: int, hand: int) -> WorkedHand:
    # The hand's last deal: the one played (the deals before it were thrown in).
    start = max(i for i, e in enumerate(events) if e[0] == "deal" and e[1] == hand)
    _, _, dealer, size, hands = events[start]
    trump: Suit | None = None
    turned: Card | None = None
    bids: list[int | None] = [None] * players
    blind = [False] * players
    tricks: list[tuple[int, tuple[tuple[int, Card], ...]]] = []
    current: list[tuple[int, Card]] = []
    won: tuple[int, ...] = ()
    points: tuple[Fraction, ...] = ()
    totals: tuple[Fraction, ...] = ()
    passed: tuple[CardSet, ...] = ()
    pass_to: tuple[int, ...] = ()
    maker: int | None = None
    calls: list[tuple[int, Any]] = []
    for e in events[start + 1 :]:
        kind = e[0]
        if kind == "exchange":
            pass_to = tuple(int(t) for t in e[2])
            passed = tuple(_as_set(h) for h in e[3])
        elif kind == "trump":
            trump, turned = e[2], e[3]
        elif kind == "call":
            calls.append((int(e[1]), e[2]))
        elif kind == "made":
            maker, trump = int(e[2]), e[3]
        elif kind == "bid":
            bids[e[1]] = e[2]
            blind[e[1]] = bool(e[3])
        elif kind == "amend":
            bids[e[1]] = e[2]
        elif kind == "play":
            current.append((int(e[1]), Card(int(e[2]))))
        elif kind == "trick":
            tricks.append((int(e[1]), tuple(current)))
            current = []
        elif kind == "score":
            bids = list(e[2])
            won, points, totals = tuple(e[3]), tuple(e[4]), tuple(e[5])
            break
    return WorkedHand(
        players=players,
        seed=seed,
        hand=hand,
        size=size,
        dealer=dealer,
        trump=trump,
        turned_up=turned,
        hands=tuple(_as_set(h) for h in hands),
        bids=tuple(bids),
        blind=tuple(blind),
        tricks=tuple(tricks),
        won=won,
        points=points,
        totals=totals,
        passed=passed,
        pass_to=pass_to,
        maker=maker,
        calls=tuple(calls),
    )


def _call_words(w: WorkedHand, who: list[str]) -> str:
    """The choice of trumps of a worked hand in words (empty when nobody chose)."""
    from cardrules.engine.actions import Decline, Discard, Downtown, Name, OrderUp

    words = []
    kitty: list[str] = []
    for seat, action in w.calls:
        if isinstance(action, Discard) and w.turned_up is None:
            kitty.append(str(action.card))
            if len(kitty) == 1:
                words.append("")
            words[-1] = (
                f"{who[seat]} takes the kitty and discards the {join_words(kitty)} face down"
            )
        elif isinstance(action, Downtown):
            words.append(f"{who[seat]} plays the hand {action.label}")
        elif action is Decline():
            words.append(f"{who[seat]} passes")
        elif action is OrderUp():
            words.append(f"{who[seat]} orders up the {w.turned_up}")
        elif isinstance(action, Name):
            what = "no trumps" if action.suit is None else action.suit.word
            words.append(f"{who[seat]} names {what}")
        elif isinstance(action, Discard):
            words.append(
                f"{who[seat]}, the dealer, takes the {w.turned_up} and discards the "
                f"{action.card} face down"
            )
    if not words or w.maker is None:
        return ""
    return f"Choosing trumps: {'; '.join(words)}. {who[w.maker]} made trumps."


def _cards(cs: CardSet, trump: Suit | None) -> str:
    return " ".join(str(c) for c in cs.sorted_for_display(trump))


def _trumps_words(v: Variant, w: WorkedHand, n: int) -> str:
    """The worked hand's trumps in words: ``"hearts ♥ are trumps"``, ``"no trumps"``..."""
    if w.trump is not None:
        trumps = f"{w.trump.word} {w.trump.symbol} are trumps"
    elif v.trumps.is_turn_up_hand(w.hand) and no_card_left(v, n, w.size):
        trumps = "no trumps (no card was left to turn up)"
    else:
        trumps = "no trumps"
    if w.turned_up is not None:
        trumps += f" (the {w.turned_up} was turned up)"
    return trumps


def _choice_rule_words(v: Variant, w: WorkedHand) -> str:
    """The simple rule every seat follows (:func:`simple_choice`), in words."""
    rule = (
        "bid the number of aces and kings you hold (or the nearest bid allowed), then play "
        "your highest allowed card while you still need tricks, and your lowest once you "
        "have enough"
        if v.has_bidding
        else "play your highest allowed card"
    )
    if w.passed:
        rule = "pass your highest cards; " + rule
    if v.has_bidding and v.bidding.strains:
        rule = (
            "in the auction, the first player bids the lowest contract and the others pass"
            + ("; the declarer discards its lowest cards" if v.trumps.kitty else "")
            + "; then play your highest allowed card"
        )
    elif v.has_bidding and v.bidding.style is BidStyle.AUCTION:
        rule = (
            "in the auction, bid the lowest bid allowed when you hold at least that many "
            "aces and kings, else pass; as the declarer, name the first suit you may (clubs, "
            "diamonds, hearts, spades)"
            + (", play uptown" if v.trumps.downtown is not DowntownRule.NO else "")
            + (" and discard your lowest cards" if v.trumps.kitty else "")
            + "; then play your highest allowed card"
        )
    elif v.trumps.namer is not TrumpNamer.NOBODY:
        rule = (
            "order up the turned card, or name the first suit you may (clubs, diamonds, "
            "hearts, spades), discarding your lowest card as the dealer; then " + rule
        )
    return rule


def _start_words(v: Variant, w: WorkedHand, who: Sequence[str], n: int) -> str:
    """Who deals, who bids first and who leads the first trick of the worked hand."""
    dealer = who[w.dealer]
    leader = who[w.tricks[0][1][0][0]]
    if not v.has_bidding:
        return f"{dealer} deals, and {leader} leads the first trick."
    if v.bidding.style is BidStyle.SIMULTANEOUS:
        return f"{dealer} deals; everyone bids at once, and {leader} leads the first trick."
    step = 1 if v.direction is Direction.CLOCKWISE else -1
    first = who[(w.dealer + step) % n]
    if first == leader:
        return f"{dealer} deals, so {first} bids first and leads the first trick."
    return f"{dealer} deals, so {first} bids first; {leader} leads the first trick."


def _dealt_lines(w: WorkedHand, who: list[str], bids: bool, pictures: bool) -> list[str]:
    """The table of the cards dealt (with the passes and the bids), and their picture."""
    n = len(who)
    rows = []
    for s in range(n):
        dealt = _cards(w.hands[s], w.trump) if w.hands[s] else "none: knocked out"
        row = [who[s], dealt]
        if bids:
            row.append(_bid_text(w.bids[s]) + (" (blind)" if w.blind[s] else ""))
        rows.append(row)
        if w.passed:
            row.insert(2, f"{_cards(w.passed[s], w.trump)} to {who[w.pass_to[s]]}")
    head = ["Player", "Cards dealt", *(["Passes"] if w.passed else []), *(["Bid"] if bids else [])]
    align = "ll" + ("l" if w.passed else "") + ("r" if bids else "")
    out = [markdown_table(head, rows, align), ""]
    if pictures:
        from cardrules.rulebook.svg_cards import figure, hands_svg

        held = [(who[s], w.hands[s].sorted_for_display(w.trump)) for s in range(n) if w.hands[s]]
        title = f"The cards dealt in hand {w.hand}"
        out += [figure(hands_svg(held, title), f"{title}, each player's hand sorted by suit."), ""]
    return out


#: A worked hand of more tricks than this shows its tricks' pictures folded.
FOLD_TRICKS = 5


def _trick_lines(w: WorkedHand, who: list[str], pictures: bool) -> list[str]:
    """The tricks of the worked hand: a table, or a picture with the table under it
    (both folded for a hand of more than :data:`FOLD_TRICKS` tricks)."""
    trick_rows = []
    for i, (winner, plays) in enumerate(w.tricks):
        played = ", ".join(f"{who[s]} {c}" for s, c in plays)
        trick_rows.append([str(i + 1), played, who[winner]])
    trick_table = markdown_table(["Trick", "Cards played, in order", "Won by"], trick_rows, "rll")
    if not pictures:
        return [trick_table, ""]
    from cardrules.rulebook.svg_cards import figure, trick_grid

    drawn = [
        (
            [(who[s], c) for s, c in plays],
            [k for k, (s, _) in enumerate(plays) if s == winner],
            f"Trick {i + 1}: won by {who[winner]}",
        )
        for i, (winner, plays) in enumerate(w.tricks)
    ]
    title = f"The tricks of hand {w.hand}, each in the order its cards were played"
    out = [
        figure(trick_grid(drawn, title), f"{title}; the winning card is outlined."),
        "",
        '<details class="cr-as-text" markdown="1">',
        "<summary>The tricks as a table</summary>",
        "",
        trick_table,
        "",
        "</details>",
        "",
    ]
    if len(w.tricks) <= FOLD_TRICKS:
        return out
    # A long hand's tricks are folded: the scores under them tell how it went.
    return [
        '<details class="cr-worked-tricks" markdown="1">',
        f"<summary>The {len(w.tricks)} tricks, card by card</summary>",
        "",
        *out,
        "</details>",
        "",
    ]


def _bid_text(b: int | None) -> str:
    """A bid in a table: the number, ``—`` for none, ``pass`` for a pass in an auction."""
    if b is None:
        return "—"
    return "pass" if b < 0 else str(b)


def _side_lines(w: WorkedHand, who: list[str], teams: Sequence[Sequence[int]]) -> list[str]:
    """What each side bid together and took, read from the hand (a partnership game
    scores its sides' bids, never a player's bid made exactly)."""
    parts = []
    for team in teams:
        bid = sum(max(b, 0) for s in team if (b := w.bids[s]) is not None)
        took = sum(w.won[s] for s in team)
        parts.append(
            f"{join_words([who[s] for s in team])} bid {bid} together and took "
            f"{plural(took, 'trick')}"
        )
    return [_cap_first("; ".join(parts)) + ".", ""]


def _cap_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _score_lines(w: WorkedHand, who: list[str], bids: bool, exact_line: bool = True) -> list[str]:
    """The score of the worked hand: a table, and who made their bid exactly
    (``exact_line``: only in a game whose score rewards a bid made exactly, and
    not in an auction, whose bids are contracts)."""
    n = len(who)
    score_rows = []
    for s in range(n):
        row = [who[s]]
        if bids:
            row.append(_bid_text(w.bids[s]))
        row += [str(w.won[s]), format_points(w.points[s]), format_points(w.totals[s])]
        score_rows.append(row)
    head = ["Player", *(["Bid"] if bids else []), "Tricks", "Points this hand", "Running total"]
    out = [markdown_table(head, score_rows, "l" + "r" * (len(head) - 1)), ""]
    if not bids or not exact_line:
        return out
    exact = [who[s] for s in range(n) if w.bids[s] is not None and w.bids[s] == w.won[s]]
    if exact:
        return [*out, f"Exact bids: {join_words(exact)}.", ""]
    return [*out, "Nobody made their bid exactly this time.", ""]


def _section_hand(v: Variant, players: int | None) -> WorkedHand | None:
    """The hand :func:`worked_hand_section` shows, or ``None`` when there is none."""
    sc = v.scoring
    if v.mode is Mode.SHEDDING or (sc.formula is None and sc.team_formula is None):
        return None
    try:
        import cardrules.engine.game  # noqa: F401
    except ImportError:
        return None
    n = players if players is not None else min(max(4, v.players.min), v.players.max)
    try:
        w = play_worked_hand(v, n)
    except CardrulesError:
        return None  # a variant the engine refuses to deal has no worked hand
    return w if w.tricks else None


def worked_hand_section(
    v: Variant, players: int | None = None, *, pictures: bool = False
) -> list[str]:
    """A worked hand played by the engine, as Markdown lines.

    Empty when the engine is not available, the game has no scoring, or the
    engine cannot deal it. With ``pictures``, the cards dealt and the tricks are
    also drawn (:mod:`cardrules.rulebook.svg_cards`), the tricks' table kept as
    text under the picture.
    """
    w = _section_hand(v, players)
    if w is None:
        return []
    n = w.players
    who = list(seat_names(n))
    bids = v.has_bidding
    out = [
        "## A worked hand",
        "",
        f"This hand was played and scored by cardrules itself, in a seeded game for "
        f"{count_word(n)} players ({join_words(who)}, sitting in that order clockwise). "
        f"Everyone follows one simple rule: {_choice_rule_words(v, w)}. It is not good play, "
        "but it shows every rule at work.",
        "",
        f"**Hand {w.hand}:** {plural(w.size, 'card')} each, {_trumps_words(v, w, n)}. "
        f"{_start_words(v, w, who, n)}",
        "",
    ]
    out += _dealt_lines(w, who, bids, pictures)
    calls = _call_words(w, who)
    if calls:
        out += [calls, ""]
    out += _trick_lines(w, who, pictures)
    from cardrules.commands.play import rewards_exact_bid

    exact = v.bidding.style is not BidStyle.AUCTION and rewards_exact_bid(v) and not v.teams
    out += _score_lines(w, who, bids, exact)
    if bids and v.teams and v.bidding.style is not BidStyle.AUCTION:
        out += _side_lines(w, who, v.teams)
    return out
