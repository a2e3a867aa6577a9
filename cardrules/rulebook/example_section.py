"""The worked examples of a variant file, as a section of its rules page.

Each example the file carries (see :mod:`cardrules.dsl.example_syntax`) is played by
the engine (:func:`cardrules.example_runner.run_example`) and shown as a worked case:
the table and the deal, every hand in full, the bids and plays in order with
what the engine made of them (who took each trick, the scores), and what the
file says holds then. The words come from the run, not from the file: a
refusal is quoted as the engine gives it, and an example that does not hold is
shown as failing, with what happened instead, never as if it held. Text from
the file (the titles) is escaped with :mod:`cardrules.rulebook.safe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from cardrules.cards import Card, CardSet
from cardrules.dsl.example_syntax import Expect, ExpectKind, PassCards, PlayOut, points_text
from cardrules.engine.events import Event
from cardrules.example_runner import ExampleRun, StepResult, run_all
from cardrules.rulebook.page_tables import markdown_table
from cardrules.rulebook.safe import md_line, md_text
from cardrules.rulebook.words import count_word, join_words, plural
from cardrules.rules import Mode, TrumpNamer, Variant

__all__ = ["example_case", "example_tricks", "examples_section"]


def _seat(s: int) -> str:
    return f"seat {s + 1}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cards_or(cards: Sequence[Card]) -> str:
    return join_words([str(c) for c in cards], "or")


def _setup(v: Variant, run: ExampleRun) -> str:
    n = run.players
    parts = [f"{_cap(count_word(n))} players; {_seat(run.dealer)} deals"]
    if v.mode is Mode.SHEDDING:
        parts[0] += " the whole pack"
    else:
        hand = f" hand {run.hand}" if run.hand != 1 else " the first hand"
        parts[0] += f"{hand}, {plural(run.size, 'card')} each"
        if run.hand != 1:
            parts[0] += " (the hands before it are played out first)"
        if run.turned_up is not None and run.trump is not None:
            parts.append(f"the {run.turned_up} is turned up, so {run.trump.word} are trumps")
        elif run.trump is not None:
            parts.append(f"{run.trump.word} are trumps")
        elif v.trumps.namer is not TrumpNamer.NOBODY and (
            run.turned_up is not None or v.trumps.is_named_hand(run.hand)
        ):
            turned = f"the {run.turned_up} is turned up; " if run.turned_up is not None else ""
            parts.append(f"{turned}trumps are still to be chosen")
        else:
            parts.append("there are no trumps")
    text = "; ".join(parts) + "."
    if _marks_named(run):
        text += (
            " The cards the example names are in bold; the rest of each hand was dealt from "
            "the other cards, lowest first, round the table."
        )
    return text


def _hand_cell(hand: CardSet, named: CardSet, mark: bool) -> str:
    if not hand:
        return "(none)"
    return " ".join(f"**{c}**" if mark and c in named else str(c) for c in hand)


def _marks_named(run: ExampleRun) -> bool:
    """True when some cards were dealt that the example does not name (the
    named ones are then shown in bold)."""
    return bool(run.example.holdings) and any(
        h != named for h, named in zip(run.hands, run.named, strict=True)
    )


class _Trick:
    """Follows the tricks across the steps, to tell a lead from a play."""

    def __init__(self) -> None:
        self.open = False


#: The events that open or close a trick (:func:`_trick_event_words` follows them).
_TRICK_EVENTS = frozenset({"play", "trick", "dead", "pickup", "draw", "deal"})

#: The words of a choice of trumps, by its action's label (see :func:`_call_label`).
_CALL_LABELS = {
    "pass": "passes",
    "order up": "orders up the turned card",
    "go alone": "goes alone: the partner sits this hand out",
    "play with partner": "plays with partner",
    "keep the hand": "keeps the hand",
    "show the hand": "shows the hand",
    "uptown": "plays the hand uptown: the ranks as usual",
    "downtown": "plays the hand downtown: the ranks reversed",
    "misère": "declares misère: no trumps, its partner sits out, and it must take no trick",
}


def _event_words(ev: Event, trick: _Trick, shedding: bool) -> str | None:
    """An event of a step in words (``None`` for one the page leaves out)."""
    kind = ev[0]
    if kind in _TRICK_EVENTS:
        return _trick_event_words(ev, trick)
    if kind == "call":
        return f"{_seat(ev[1])} {_call_label(ev[2])}"
    if kind == "over":
        return _over_words(ev, shedding)
    return _other_event_words(ev)


def _trick_event_words(ev: Event, trick: _Trick) -> str:
    """An event that opens or closes a trick, in words; ``trick`` follows it."""
    kind = ev[0]
    if kind == "play":
        verb = "plays" if trick.open else "leads"
        trick.open = True
        return f"{_seat(ev[1])} {verb} {ev[2]}"
    if kind == "draw":
        trick.open = True
        return (
            f"{_seat(ev[1])} took the dead trick with its last card, so it draws a card at "
            f"random from the earlier dead tricks, {ev[2]}, and leads it"
        )
    trick.open = False
    if kind == "trick":
        return f"{_seat(ev[1])} wins the trick"
    if kind == "dead":
        return (
            f"everyone has followed, so the trick is dead ({_seat(ev[1])} played the highest card)"
        )
    if kind == "pickup":
        return (
            f"the trick is cut and {_seat(ev[1])}, with the highest card of the suit led, "
            "picks it up"
        )
    return f"hand {ev[1]} is dealt, {plural(ev[3], 'card')} each"


def _call_label(act: Any) -> str:
    """What a seat does in a choice of trumps (its action ``act``, ``None`` for a
    discard face down that the page does not show)."""
    if act is None:
        return "discards a card face down"
    label: str = act.label
    if label.startswith("discard "):
        return f"discards {act.card} face down"
    if label.startswith("name "):
        return "names " + label[5:]
    return _CALL_LABELS.get(label, label)


def _over_words(ev: Event, shedding: bool) -> str:
    """The end of the game in words: its loser (shedding) or its winners."""
    if shedding:
        loser = ev[5]
        return "the game is over" + (
            f": {_seat(loser)} loses" if loser is not None else ", with no loser"
        )
    winners = join_words([_seat(s) for s in ev[1]])
    return "the game is over" + (
        f": {winners} {'win' if len(ev[1]) > 1 else 'wins'}" if winners else ""
    )


def _other_event_words(ev: Event) -> str | None:
    """The words of an event neither of a trick, a call nor the game's end (``None``
    for one the page leaves out)."""
    kind = ev[0]
    if kind == "bid":
        return f"{_seat(ev[1])} bids {ev[2]}" + (" blind" if ev[3] else "")
    if kind == "amend":
        return f"{_seat(ev[1])} changes its bid to {ev[2]}"
    if kind == "out":
        return f"{_seat(ev[1])} has no cards left and is out"
    if kind == "knocked out":
        return f"{_seat(ev[1])} took too few tricks in hand {ev[2]} and is knocked out"
    if kind == "take":
        return f"{_seat(ev[1])} takes the {plural(ev[3], 'card')} of {_seat(ev[2])}"
    if kind == "made":
        suit = "no trumps" if ev[3] is None else f"{ev[3].word} are trumps"
        return f"{_seat(ev[2])} makes trumps: {suit}"
    if kind == "thrown in":
        return f"everyone has passed, so hand {ev[1]} is thrown in"
    if kind == "redeal":
        return f"the hand of {_seat(ev[2])} ({ev[3]}) is shown, so hand {ev[1]} is dealt again"
    if kind == "score":
        points = ", ".join(f"{_seat(s)} {points_text(Fraction(p))}" for s, p in enumerate(ev[4]))
        return f"hand {ev[1]} is scored: {points}"
    return None


def _sentence(parts: Sequence[str]) -> str:
    if not parts:
        return ""
    return _cap("; ".join(parts)) + "."


#: Expectations whose words name nothing but the seat (``{who}``).
_EXPECT_PLAIN = {
    ExpectKind.LEADS: "{who} leads.",
    ExpectKind.TRICK_DEAD: "The trick is dead.",
    ExpectKind.GAME_OVER: "The game is over.",
    ExpectKind.MAKES_TRUMPS: "{who} makes trumps.",
    ExpectKind.THROWN_IN: "The hand is thrown in.",
    ExpectKind.SHOWS: "{who} shows the hand.",
    ExpectKind.DEALT_AGAIN: "The hand is dealt again.",
    ExpectKind.NO_LOSER: "Nobody loses the game.",
    ExpectKind.IS_OUT: "{who} is out.",
    ExpectKind.DRAWS: "{who} has drawn a dead card and led it.",
    ExpectKind.LOSES: "{who} loses the game.",
    ExpectKind.WINS: "{who} wins the game.",
    ExpectKind.DEALS_NEXT: "{who} deals the next game.",
}

#: Expectations of what a seat may do (the engine's refusal may be quoted).
_EXPECT_MAY = frozenset(
    {
        ExpectKind.MAY_PLAY,
        ExpectKind.MAY_NOT_PLAY,
        ExpectKind.MAY_BID,
        ExpectKind.MAY_NOT_BID,
        ExpectKind.MAY_TAKE,
    }
)

#: Expectations of what someone has: cards, points, trumps, a trick.
_EXPECT_HAS = frozenset(
    {
        ExpectKind.RECEIVES,
        ExpectKind.SCORES,
        ExpectKind.COUNTER,
        ExpectKind.TRICK_TO,
        ExpectKind.TRUMPS,
        ExpectKind.CARDS_EACH,
        ExpectKind.HOLDS_COUNT,
        ExpectKind.TAKES_LETTER,
    }
)


def _expect_words(v: Variant, e: Expect, note: str) -> str:
    """What an ``expect`` line says holds, as a sentence (``note``: the engine's
    words on a refusal, quoted)."""
    who = _cap(_seat(e.seat or 0))
    plain = _EXPECT_PLAIN.get(e.kind)
    if plain is not None:
        return plain.format(who=who)
    if e.kind in _EXPECT_MAY:
        quoted = f" (the engine says: “{md_text(note)}”)" if note else ""
        return _may_words(e, who, quoted)
    if e.kind in _EXPECT_HAS:
        return _has_words(v, e, who)
    return _sees_words(e, who)


def _may_words(e: Expect, who: str, quoted: str) -> str:
    """An expectation of what ``who`` may (or may not) play, bid or take."""
    k = e.kind
    if k is ExpectKind.MAY_PLAY:
        if e.any_card:
            return f"{who} may play any card it holds."
        return f"{who} may play {'only ' if e.only else ''}{_cards_or(e.cards)}."
    if k is ExpectKind.MAY_NOT_PLAY:
        return f"{who} may not play {_cards_or(e.cards)}{quoted}."
    if k is ExpectKind.MAY_TAKE:
        if e.negated:
            return f"{who} may not take the cards of {_seat(e.other or 0)}{quoted}."
        return f"{who} may take the cards of {_seat(e.other or 0)}."
    # A contract bid reads as itself ("7 hearts", "misère"), a number as a number.
    bids = join_words(
        [str(b) if b.strain is not None else f"{b.n}{' blind' if b.blind else ''}" for b in e.bids],
        "or",
    )
    if k is ExpectKind.MAY_BID:
        return f"{who} may bid {'only ' if e.only else ''}{bids}."
    return f"{who} may not bid {bids}{quoted}."


def _has_words(v: Variant, e: Expect, who: str) -> str:
    """An expectation of what someone has: cards, points, a counter, the trick, trumps."""
    k = e.kind
    if k is ExpectKind.RECEIVES:
        return f"{who} has received {join_words([str(c) for c in e.cards])} in the pass."
    if k is ExpectKind.SCORES:
        pts = points_text(e.points or Fraction(0))
        word = "point" if e.points in (1, -1) else "points"
        return f"{who} scores {pts} {word} for the hand."
    if k is ExpectKind.COUNTER:
        return f"{who} has {e.count} {md_text(e.counter)} (a counter kept across hands)."
    if k is ExpectKind.TRICK_TO:
        verb = "picks up" if v.mode is Mode.SHEDDING else "wins"
        return f"{who} {verb} the trick."
    if k is ExpectKind.TRUMPS:
        return f"{_cap(e.suit.word)} are trumps." if e.suit is not None else "There are no trumps."
    if k is ExpectKind.CARDS_EACH:
        return f"Each player has {plural(e.count or 0, 'card')}."
    if k is ExpectKind.HOLDS_COUNT:
        return f"{who} holds {plural(e.count or 0, 'card')}."
    return f"{who} takes the letter {md_text(e.letter)}."


def _sees_words(e: Expect, who: str) -> str:
    """An expectation of which cards ``who`` can (or cannot) see."""
    can = "cannot" if e.negated else "can"
    if e.kind is ExpectKind.SEES_OWN:
        return f"{who} {can} see its own cards."
    if e.kind is ExpectKind.SEES_SEAT:
        return f"{who} {can} see the cards of {_seat(e.other or 0)}."
    return f"{who} {can} see the dead cards."


def _step_line(v: Variant, r: StepResult, trick: _Trick) -> str:
    shedding = v.mode is Mode.SHEDDING
    step = r.step
    if isinstance(step, Expect):
        return "**Holds:** " + _expect_words(v, step, r.note)
    if isinstance(step, PassCards):
        chosen = join_words([str(c) for c in step.cards])
        text = f"{_cap(_seat(step.seat))} chooses {chosen} to pass"
        if any(ev[0] == "exchange" for ev in r.events):
            text += "; everyone has chosen, and the passed cards change hands"
        return _sentence([text])
    if isinstance(step, PlayOut):
        what = "game" if step.game else "hand"
        ends = [
            w
            for ev in r.events
            if ev[0] in ("over",) or (ev[0] == "score" and not step.game)
            for w in [_event_words(ev, _Trick(), shedding)]
            if w
        ]
        trick.open = False
        # Only a game with bids speaks of bids (issue 25: Kazhutha has no bidding).
        bid = "taking the lowest bid and " if v.has_bidding else ""
        text = (
            f"The rest of the {what} is played out, each player {bid}"
            f"playing the lowest card they may ({r.note})"
        )
        return _sentence([text, *ends])
    # Bids, plays and bid changes: the events say what happened.
    words = [w for ev in r.events if (w := _event_words(ev, trick, shedding)) is not None]
    return _sentence(words)


def example_tricks(run: ExampleRun) -> list[tuple[tuple[tuple[int, Card], ...], int | None, str]]:
    """The tricks the steps of an example played, from the engine's events, in order:
    ``(plays, taker, end)``, where ``plays`` are ``(seat, card)``, ``taker`` the seat
    that won, picked up or (dead trick) leads next, and ``end`` the event that ended the
    trick (``"trick"``, ``"dead"``, ``"pickup"``, or ``""`` for a trick still open when
    the steps stop). The tricks of a step that plays the rest of the hand out are left
    out (with any trick it finished)."""
    out: list[tuple[tuple[tuple[int, Card], ...], int | None, str]] = []
    current: list[tuple[int, Card]] = []
    for r in run.steps:
        if isinstance(r.step, PlayOut):
            return out
        for ev in r.events:
            if ev[0] == "play":
                current.append((int(ev[1]), Card(int(ev[2]))))
            elif ev[0] in ("trick", "dead", "pickup") and current:
                out.append((tuple(current), int(ev[1]), str(ev[0])))
                current = []
            elif ev[0] == "deal":
                current = []
    if current:
        out.append((tuple(current), None, ""))
    return out


def _tricks_figure(run: ExampleRun) -> list[str]:
    from cardrules.rulebook.svg_cards import figure, trick_grid

    tricks = example_tricks(run)
    if not tricks:
        return []
    drawn = []
    for i, (plays, taker, end) in enumerate(tricks):
        who = _cap(_seat(taker)) if taker is not None else ""
        note = {
            "trick": f"Trick {i + 1}: won by {who}",
            "dead": f"Trick {i + 1}: dead, {who} leads next",
            "pickup": f"Trick {i + 1}: cut, {who} picks up",
        }.get(end, f"Trick {i + 1}: not finished")
        marked = [k for k, (s, _) in enumerate(plays) if s == taker]
        drawn.append(([(_cap(_seat(s)), c) for s, c in plays], marked, note))
    title = "The cards played in this example, trick by trick"
    return [figure(trick_grid(drawn, title), f"{title}."), ""]


def example_case(v: Variant, run: ExampleRun, *, pictures: bool = False) -> list[str]:
    """One example as Markdown lines: its heading, the deal, the steps (with
    ``pictures``, the hands and the tricks drawn as cards too)."""
    ex = run.example
    out = [f"### {md_line(ex.title)}", ""]
    if not run.hands:
        problem = run.failure.problem if run.failure else "it cannot be dealt"
        return [*out, f"**This example cannot be played:** {md_text(problem)}", ""]
    out += [_setup(v, run), ""]
    mark = _marks_named(run)
    rows = [
        [_cap(_seat(s)), _hand_cell(h, named, mark)]
        for s, (h, named) in enumerate(zip(run.hands, run.named, strict=True))
    ]
    out += [markdown_table(["Seat", "Cards dealt"], rows), ""]
    if pictures:
        from cardrules.rulebook.svg_cards import figure, hands_svg

        drawn = [
            (_cap(_seat(s)), list(h.sorted_for_display(run.trump))) for s, h in enumerate(run.hands)
        ]
        out += [figure(hands_svg(drawn, "The cards dealt"), "The cards dealt."), ""]
    trick = _Trick()
    lines = [line for r in run.steps if (line := _step_line(v, r, trick))]
    if run.failure is not None:
        lines.append(f"**This example does not hold:** {md_text(run.failure.problem)}")
    out += [f"{i}. {line}" for i, line in enumerate(lines, 1)]
    out.append("")
    if pictures:
        out += _tricks_figure(run)
    return out


def examples_section(
    v: Variant, *, engine: bool = True, options_given: bool = False, pictures: bool = False
) -> list[str]:
    """The section of worked examples: empty when the file has none, or when
    ``engine`` is False (the engine plays them).

    With ``options_given`` (settings changed from outside the file, as with
    ``--set``), the examples are not played: they were written for the file's
    own rules, and the section says so instead.
    """
    if not v.examples or not engine:
        return []
    out = ["## Worked examples", ""]
    if options_given:
        count = plural(len(v.examples), "worked example")
        return [
            *out,
            f"The variant file carries {count}, written for its own settings; with the "
            "options changed above they are not shown. The page of the file without "
            "options shows them.",
            "",
        ]
    out += [
        "The variant file carries these cases to show its rules at work. Each one is "
        "played by the engine whenever the file is checked, from the deal it gives; "
        "what the engine does is what is written here.",
        "",
    ]
    # One budget for the file's examples, as for `cardrules check`: those after
    # the one that spends it are not played (nor shown).
    for run in run_all(v):
        out += example_case(v, run, pictures=pictures)
    return out
