"""Text for language-model agents: a seat's view and its legal moves as a
prompt, the reply read back to a move, and a harness that plays a game.

- :func:`describe` writes a :class:`~cardrules.engine.views.view.View` as a
  few lines of plain text (the game, the hand, bids, tricks, the trick on the
  table, scores, and whatever else the variant shows: passes, dead cards,
  cards seen on foreheads). It reads the view alone, so it holds exactly what
  the seat may know, nothing hidden.
- :func:`prompt` is that text with the seat's legal moves numbered
  (``1. play 4♣``), each written as its :attr:`~cardrules.engine.actions.Action.label`,
  the text :meth:`Game.parse_action <cardrules.engine.game.Game.parse_action>` reads.
- :func:`parse_reply` reads a reply back to one of those moves: the move's
  number or its text, on the reply's last non-empty line (or the whole reply).
- :func:`play` plays a game with a callable ``agent(prompt) -> str`` in one seat
  and bots in the others. A reply that names no legal move is answered with a
  new prompt saying why, at most ``retries`` times; then the first listed
  legal move is played for the agent (a *fallback*, counted in the report).

Nothing here uses the network or needs an extra: the agent is any callable.

Example:
    >>> import cardrules
    >>> from cardrules import llm
    >>> g = cardrules.Game(cardrules.load("oh-hell"), 4, seed=7)
    >>> text = llm.prompt(g, g.to_act)
    >>> print(text.splitlines()[0])
    oh-hell, 4 players; you are seat 0.
    >>> llm.parse_reply(g, g.to_act, "I will bid two.\\n3")
    Bid(2)
    >>> report = llm.play(lambda p: "1", g, seat=0, opponents="random")
    >>> report.decisions > 0, report.fallbacks, g.is_over
    (True, 0, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Final

from attrs import frozen

from cardrules.cards import Card
from cardrules.engine.actions import Action
from cardrules.engine.game import Game
from cardrules.engine.views.view import View
from cardrules.errors import CardrulesError, IllegalAction, InvalidAction
from cardrules.opponents import check_opponents, opponent_bots

__all__ = ["MAX_REPLY", "AgentReport", "describe", "moves_text", "parse_reply", "play", "prompt"]

#: The longest reply :func:`parse_reply` reads (its last characters are kept).
MAX_REPLY: Final = 4000

#: A move's line of the list, echoed back (``3. play 4♣``): its number decides.
_ECHO: Final = re.compile(r"^(\d{1,4})[.)]\s")

#: Words a reply may put before its move on the last line (``Move: 3``).
_PREFIX: Final = re.compile(r"^(?:my\s+)?(?:move|answer|reply|action|choice)\s*[:=-]\s*", re.I)


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(map(str, cards)) if cards else "none"


def _num(x: Fraction | int) -> str:
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


def _who(view: View, s: int) -> str:
    return "you" if s == view.seat else f"seat {s}"


def _per_seat(view: View, values: list[str]) -> str:
    return ", ".join(f"{_who(view, s)} {v}" for s, v in enumerate(values))


def _trick(view: View, trick: tuple[tuple[int, Card], ...]) -> str:
    return ", ".join(f"{_who(view, s)} {c}" for s, c in trick)


def _header(view: View, game_name: str) -> list[str]:
    you = f"you are seat {view.seat}" if view.seat is not None else "you are watching"
    lines = [f"{game_name}, {view.players} players; {you}."]
    if view.teams:
        lines.append("Partners: " + "; ".join(" and ".join(map(str, t)) for t in view.teams) + ".")
    if view.seat_order:
        lines.append("Order of play: " + ", ".join(str(s) for s in view.seat_order) + ".")
    hand = f"Hand {view.hand_number}: {view.hand_size} cards each, dealer {_who(view, view.dealer)}"
    if view.mode == "tricks" or view.trump is not None:
        trump = "none" if view.trump is None else view.trump.name.lower()
        hand += f"; trumps {trump}"
    if view.turned_up is not None:
        hand += f" (turned up {view.turned_up})"
    if view.trump_maker is not None:
        hand += f", made by {_who(view, view.trump_maker)}"
    lines.append(hand + ".")
    if view.trump_order:
        lines.append(f"Highest trumps, in order: {_cards(view.trump_order)}.")
    if view.alone is not None:
        lines.append(f"{_who(view, view.alone).capitalize()} plays this hand alone.")
    if view.defender_alone is not None:
        lines.append(f"{_who(view, view.defender_alone).capitalize()} defends alone.")
    return lines


def _cards_lines(view: View) -> list[str]:
    lines = []
    if view.hand is None:
        lines.append("Your hand: not seen yet.")
    elif view.seat is not None:
        lines.append(f"Your hand: {_cards(view.hand)}.")
    for s, cards in view.visible_hands:
        lines.append(f"You see {_who(view, s)}'s cards: {_cards(cards)}.")
    for s, cards in view.known_hands:
        lines.append(f"You know {_who(view, s)} holds: {_cards(cards)}.")
    lines.append("Cards held: " + _per_seat(view, [str(k) for k in view.hand_counts]) + ".")
    if view.pass_to is not None:
        line = f"You pass to seat {view.pass_to}"
        if view.passed:
            line += f"; chosen so far: {_cards(view.passed)}"
        lines.append(line + ".")
    if view.received:
        lines.append(f"You received: {_cards(view.received)}.")
    if view.discarded:
        lines.append(f"You discarded: {_cards(view.discarded)}.")
    return lines


def _bid_lines(view: View) -> list[str]:
    if view.bid_range is None and not any(view.bid_made):
        return []  # a game without bidding
    shown = []
    for s in range(view.players):
        if view.bids[s] is not None:
            shown.append(str(view.bids[s]) + (" blind" if view.blind and view.blind[s] else ""))
        elif view.bid_made[s]:
            shown.append("made (hidden)")
        else:
            shown.append("-")
    lines = ["Bids: " + _per_seat(view, shown) + "."]
    if view.bid_range is not None and view.phase == "bid":
        lines.append(f"Bids allowed: {view.bid_range[0]} to {view.bid_range[1]}.")
    for f in view.forbidden_bids:
        if f.seat == view.seat:
            lines.append(f"You may not bid {f.bid}: {f.text}")
    return lines


def _play_lines(view: View) -> list[str]:
    lines = []
    if view.mode == "tricks":
        lines.append("Tricks won: " + _per_seat(view, [str(t) for t in view.tricks_won]) + ".")
    if view.trick:
        lines.append(f"Trick so far: {_trick(view, view.trick)}.")
    elif view.leader is not None and view.phase == "play":
        leads = "you lead" if view.leader == view.seat else f"seat {view.leader} leads"
        lines.append(f"Trick so far: none; {leads}.")
    if view.last_trick:
        lines.append(f"Last trick: {_trick(view, view.last_trick)}.")
    if view.played:
        lines.append(f"Played this hand: {_cards(view.played)}.")
    voids = [
        f"{_who(view, s)} ({', '.join(x.name.lower() for x in suits)})"
        for s, suits in enumerate(view.showed_out)
        if suits
    ]
    if voids:
        lines.append("Showed out of: " + "; ".join(voids) + ".")
    if view.trump is not None and view.phase == "play":
        lines.append(f"Trumps broken: {'yes' if view.trumps_broken else 'no'}.")
    if view.mode == "shedding":
        lines.append(
            f"Dead cards: {view.dead_count}"
            + (f" ({_cards(view.dead)})" if view.dead else "")
            + "."
        )
        out = [str(s) for s, x in enumerate(view.out) if x]
        if out:
            lines.append("Out of cards: seat " + ", seat ".join(out) + ".")
    return lines


def _score_lines(view: View) -> list[str]:
    if view.mode == "shedding":  # no points: the last seat holding cards loses
        return []
    goal = "highest" if view.higher_wins else "lowest"
    lines = [
        f"Scores ({goal} total wins): " + _per_seat(view, [_num(x) for x in view.scores]) + "."
    ]
    if view.knocked_out:
        lines.append("Knocked out: " + ", ".join(f"seat {s}" for s, _ in view.knocked_out) + ".")
    last = view.last_hand
    if last is not None and view.phase != "play":
        lines.append(
            f"Last hand ({last.hand_number}) scored: "
            + _per_seat(view, [_num(x) for x in last.points])
            + "."
        )
    return lines


def describe(view: View, game_name: str | None = None) -> str:
    """``view`` as plain text, a few short lines (see the module).

    Args:
        view: a seat's view (``game.view(seat)``); an onlooker's works too.
        game_name: the name written first (``None``: ``"card game"``;
            :func:`prompt` gives the variant's name).

    Returns:
        The text, without a final newline. Only what ``view`` holds is
        written, so it holds nothing the seat may not know.
    """
    lines = _header(view, game_name or "card game")
    lines += _cards_lines(view)
    lines += _bid_lines(view)
    lines += _play_lines(view)
    lines += _score_lines(view)
    if view.result is not None:
        winners = ", ".join(_who(view, s) for s in view.result.winners)
        lines.append(f"The game is over; won by {winners}.")
    else:
        lines.append(
            f"Phase: {view.phase}. To act: {', '.join(_who(view, s) for s in view.waiting_for)}."
        )
    return "\n".join(lines)


def moves_text(actions: tuple[Action, ...] | list[Action]) -> str:
    """The moves numbered from 1, one a line (``1. play 4♣``).

    Example:
        >>> from cardrules.engine.actions import Bid
        >>> print(moves_text([Bid(0), Bid(1)]))
        1. bid 0
        2. bid 1
    """
    return "\n".join(f"{k}. {a.label}" for k, a in enumerate(actions, 1))


def prompt(game: Game, seat: int) -> str:
    """``seat``'s view (:func:`describe`) and its legal moves, numbered, with
    how to answer: ready to send to a model.

    Raises:
        InvalidAction: if ``seat`` is not a seat number.
    """
    view = game.view(seat)
    text = describe(view, game.variant.name)
    legal = view.legal_actions
    if not legal:
        return text + "\nYou have no move now."
    return (
        text
        + "\nYour legal moves:\n"
        + moves_text(legal)
        + "\nReply with the number or the text of one move, alone on your last line."
    )


def _candidates(reply: str) -> list[str]:
    reply = reply[-MAX_REPLY:]
    lines = [x.strip() for x in reply.splitlines() if x.strip()]
    out = [reply.strip()]
    if lines:
        out.append(lines[-1])
    cleaned = []
    for c in out:
        c = _PREFIX.sub("", c.strip().strip("`*\"'").strip())
        c = c.rstrip(".!").strip()
        if c and c not in cleaned:
            cleaned.append(c)
    return cleaned


def parse_reply(game: Game, seat: int, reply: str) -> Action:
    """The legal move of ``seat`` that ``reply`` names.

    The reply is read from the whole of it, then from its last non-empty line
    (quotes, ``*``, a final full stop and a leading ``Move:`` are ignored): a
    move's number in :func:`prompt`'s list (``3``, or its line echoed:
    ``3. play 4♣``), or its text as
    :meth:`Game.parse_action` reads it (``play Q♠``, ``QS``, ``bid 2``).

    Raises:
        InvalidAction: (code ``bad_action``) if the reply names no move or
            a number out of the list, or ``seat`` has no move now.
        IllegalAction: if it names a move the rules forbid now (the engine's
            code and message, such as ``must_follow_suit``).
    """
    if not isinstance(reply, str):
        raise InvalidAction(f"a reply must be text, got {type(reply).__name__}", code="bad_action")
    legal = game.legal_actions(seat)
    if not legal:
        raise InvalidAction(f"seat {seat} has no move now", code="bad_action")
    refusal: CardrulesError | None = None
    for c in _candidates(reply):
        echo = _ECHO.match(c)
        if echo:
            c = echo.group(1)
        if c.isdigit() and len(c) <= 4:
            k = int(c)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            refusal = InvalidAction(
                f"there is no move {k}: choose 1 to {len(legal)}", code="bad_action"
            )
            continue
        try:
            action = game.parse_action(c)
        except InvalidAction as e:
            refusal = refusal or e
            continue
        if action in legal:
            return action
        refusal = _why_illegal(game, seat, action)
    raise refusal or InvalidAction("the reply names no move", code="bad_action")


def _why_illegal(game: Game, seat: int, action: Action) -> CardrulesError:
    """The engine's refusal of ``action`` (on a copy: the game is unchanged)."""
    try:
        game.clone().apply(action, seat)
    except CardrulesError as e:
        return e
    return IllegalAction(f"{action.label} is not a legal move now", data={"seat": seat})


@frozen
class AgentReport:
    """How an agent played a game of :func:`play`.

    Attributes:
        seat: the agent's seat.
        decisions: the moves the agent had to make.
        replies: the replies it gave (every attempt, retries included).
        bad_replies: replies that named no legal move.
        fallbacks: moves played for it after ``retries`` bad replies in a row.
        totals: every seat's final total (``None`` if the game did not end).
        winners: the winning seats (empty if the game did not end).
    """

    seat: int
    decisions: int
    replies: int
    bad_replies: int
    fallbacks: int
    totals: tuple[Fraction, ...] | None
    winners: tuple[int, ...]

    @property
    def bad_reply_rate(self) -> float:
        """Bad replies over all replies (0.0 without replies)."""
        return self.bad_replies / self.replies if self.replies else 0.0


def play(
    agent: Callable[[str], str],
    game: Game,
    *,
    seat: int = 0,
    opponents: object = "heuristic",
    retries: int = 2,
    seed: int = 0,
    max_decisions: int = 10_000,
) -> AgentReport:
    """Play ``game`` in place: ``agent`` in ``seat``, bots in the others.

    At each of the agent's moves it is shown :func:`prompt` and its reply is
    read with :func:`parse_reply`. A bad reply is answered with the same
    prompt and a line saying what was wrong, up to ``retries`` times; after
    that the first legal move listed is played for it (a fallback), so a game
    always ends.

    Args:
        agent: any callable from a prompt to a reply (a model's client, a
            person at a terminal, a script).
        game: the game, played in place (from any point).
        seat: the agent's seat.
        opponents: the other seats' bots: a built-in bot's name, a factory
            taking a seed, or one of those per other seat (see
            :mod:`cardrules.opponents`).
        retries: how many times a bad reply is asked again (0 to 10).
        seed: the seed of the bots.
        max_decisions: stop after this many of the agent's moves (the
            report's ``totals`` are then ``None`` unless the game ended).

    Returns:
        The :class:`AgentReport`.

    Raises:
        ValueError: for a bad ``seat``, ``retries``, ``max_decisions`` or ``opponents``.
    """
    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"seat must be a seat number from 0 to {game.players - 1}, got {seat!r}")
    if type(retries) is not int or not 0 <= retries <= 10:
        raise ValueError(f"retries must be an int from 0 to 10, got {retries!r}")
    if type(max_decisions) is not int or max_decisions < 1:
        raise ValueError(f"max_decisions must be a positive int, got {max_decisions!r}")
    check_opponents(opponents, game.players)
    from cardrules.bots import decide

    bots = opponent_bots(opponents, game.players, seat, seed)
    decisions = replies = bad = fallbacks = 0
    while not game.is_over and decisions < max_decisions:
        waiting = game.waiting_order
        s = seat if seat in waiting else waiting[0]
        bot = bots[s]
        if bot is not None:
            game.apply(decide(bot, game, s), s)
            continue
        decisions += 1
        text = prompt(game, seat)
        for attempt in range(retries + 1):
            replies += 1
            try:
                action = parse_reply(game, seat, agent(text))
                break
            except CardrulesError as e:
                bad += 1
                text = f"{prompt(game, seat)}\nYour last reply was refused: {e}"
                if attempt == retries:
                    fallbacks += 1
                    action = game.legal_actions(seat)[0]
        game.apply(action, seat)
    result = game.result
    return AgentReport(
        seat=seat,
        decisions=decisions,
        replies=replies,
        bad_replies=bad,
        fallbacks=fallbacks,
        totals=None if result is None else result.totals,
        winners=() if result is None else result.winners,
    )
