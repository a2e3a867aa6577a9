"""The worked examples of a variant file, as a section of its rules page.

Each example the file carries (see :mod:`cardrules.dsl.example_syntax`) is played by
the engine (:func:`cardrules.example_runner.run_example`) and told as a short story
with the players' names the rest of the page uses (Asha, Ben...): who deals, the
bids and plays in order with what the engine made of them (who took each trick,
the scores), and what the file checks then, said as what happens at the table.
A long story is folded under its opening; under every story, folded, are the
deal in full and the example as the file holds it (what ``cardrules check``
plays). The words come from the run, not from the file: a refusal is quoted as
the engine gives it, and an example that does not hold is shown as failing,
with what happened instead, never as if it held. Text from
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
from cardrules.rulebook.play_examples import seat_names
from cardrules.rulebook.safe import md_line, md_text
from cardrules.rulebook.words import join_words, plural
from cardrules.rules import Mode, TrumpNamer, Variant

__all__ = ["example_case", "example_tricks", "examples_section"]


def _name(names: Sequence[str], s: int) -> str:
    """The name a page gives seat ``s`` (counted from 0), as its other sections do."""
    return names[s] if 0 <= s < len(names) else f"player {s + 1}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cards_or(cards: Sequence[Card]) -> str:
    return join_words([str(c) for c in cards], "or")


def _setup(v: Variant, run: ExampleRun, names: Sequence[str]) -> str:
    """The opening of an example's story: who plays, who deals what, the trumps."""
    table, dealer = join_words(list(names)), _name(names, run.dealer)
    if v.mode is Mode.SHEDDING:
        parts = [f"{table} play; {dealer} deals the whole pack"]
    else:
        parts = [f"{table} play; {dealer} deals the first hand"]
        if run.hand != 1:
            parts = [f"{table} have played the hands before hand {run.hand}; {dealer} deals it"]
        parts[0] += f", {plural(run.size, 'card')} each"
        if run.turned_up is not None and run.trump is not None:
            parts.append(f"the {run.turned_up} is turned up, so {run.trump.word} are trumps")
        elif run.trump is not None:
            parts.append(f"{run.trump.word} are trumps")
        elif v.trumps.namer is not TrumpNamer.NOBODY and (
            run.turned_up is not None or v.trumps.is_named_hand(run.hand)
        ):
            turned = f"the {run.turned_up} is turned up; " if run.turned_up is not None else ""
            parts.append(f"{turned}trumps are still to be chosen")
        elif v.bidding.strains or v.trumps.namer is TrumpNamer.HIGHEST_BIDDER:
            parts.append("the auction will decide the trumps")
        else:
            parts.append("there are no trumps")
    return "; ".join(parts) + "."


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


def _event_words(ev: Event, trick: _Trick, shedding: bool, names: Sequence[str]) -> str | None:
    """An event of a step in words (``None`` for one the page leaves out)."""
    kind = ev[0]
    if kind in _TRICK_EVENTS:
        return _trick_event_words(ev, trick, names)
    if kind == "call":
        return f"{_name(names, ev[1])} {_call_label(ev[2])}"
    if kind == "over":
        return _over_words(ev, shedding, names)
    return _other_event_words(ev, names)


def _trick_event_words(ev: Event, trick: _Trick, names: Sequence[str]) -> str:
    """An event that opens or closes a trick, in words; ``trick`` follows it."""
    kind = ev[0]
    if kind == "play":
        verb = "plays" if trick.open else "leads"
        trick.open = True
        return f"{_name(names, ev[1])} {verb} {ev[2]}"
    if kind == "draw":
        trick.open = True
        return (
            f"{_name(names, ev[1])} took the dead trick with their last card, so they draw a "
            f"card at random from the earlier dead tricks, {ev[2]}, and lead it"
        )
    trick.open = False
    if kind == "trick":
        return f"{_name(names, ev[1])} wins the trick"
    if kind == "dead":
        return (
            "everyone has followed, so the trick is dead "
            f"({_name(names, ev[1])} played the highest card)"
        )
    if kind == "pickup":
        return (
            f"the trick is cut and {_name(names, ev[1])}, with the highest card of the suit led, "
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


def _over_words(ev: Event, shedding: bool, names: Sequence[str]) -> str:
    """The end of the game in words: its loser (shedding) or its winners."""
    if shedding:
        loser = ev[5]
        return "the game is over" + (
            f": {_name(names, loser)} loses" if loser is not None else ", with no loser"
        )
    winners = join_words([_name(names, s) for s in ev[1]])
    return "the game is over" + (
        f": {winners} {'win' if len(ev[1]) > 1 else 'wins'}" if winners else ""
    )


def _other_event_words(ev: Event, names: Sequence[str]) -> str | None:
    """The words of an event neither of a trick, a call nor the game's end (``None``
    for one the page leaves out)."""
    kind = ev[0]
    if kind == "bid":
        return f"{_name(names, ev[1])} bids {ev[2]}" + (" blind" if ev[3] else "")
    if kind == "amend":
        return f"{_name(names, ev[1])} changes their bid to {ev[2]}"
    if kind == "out":
        return f"{_name(names, ev[1])} has no cards left and is out"
    if kind == "knocked out":
        return f"{_name(names, ev[1])} took too few tricks in hand {ev[2]} and is knocked out"
    if kind == "take":
        return f"{_name(names, ev[1])} takes the {plural(ev[3], 'card')} of {_name(names, ev[2])}"
    if kind == "made":
        suit = "no trumps" if ev[3] is None else f"{ev[3].word} are trumps"
        return f"{_name(names, ev[2])} makes trumps: {suit}"
    if kind == "thrown in":
        return f"everyone has passed, so hand {ev[1]} is thrown in"
    if kind == "redeal":
        return (
            f"the hand of {_name(names, ev[2])} ({ev[3]}) is shown, so hand {ev[1]} is dealt again"
        )
    if kind == "score":
        points = [f"{_name(names, s)} {_points(Fraction(p))}" for s, p in enumerate(ev[4])]
        return f"hand {ev[1]} is scored: {join_words(points)}"
    return None


def _points(p: Fraction) -> str:
    """A number of points in words: ``10 points``, ``1 point``, ``-1.5 points``."""
    return f"{points_text(p)} {'point' if p in (1, -1) else 'points'}"


def _sentence(parts: Sequence[str]) -> str:
    if not parts:
        return ""
    return _cap("; ".join(parts)) + "."


#: Checks whose words name nothing but the player (``{who}``).
_EXPECT_PLAIN = {
    ExpectKind.LEADS: "{who} is to lead.",
    ExpectKind.TRICK_DEAD: "The trick is dead.",
    ExpectKind.GAME_OVER: "The game is over.",
    ExpectKind.MAKES_TRUMPS: "{who} makes trumps.",
    ExpectKind.THROWN_IN: "The hand is thrown in.",
    ExpectKind.SHOWS: "{who} shows their hand.",
    ExpectKind.DEALT_AGAIN: "The hand is dealt again.",
    ExpectKind.NO_LOSER: "Nobody loses the game.",
    ExpectKind.IS_OUT: "{who} is out.",
    ExpectKind.DRAWS: "{who} has drawn a dead card and led it.",
    ExpectKind.LOSES: "{who} loses the game.",
    ExpectKind.WINS: "{who} wins the game.",
    ExpectKind.DEALS_NEXT: "{who} deals the next game.",
}

#: Checks of what a player can do (the engine's refusal may be quoted).
_EXPECT_MAY = frozenset(
    {
        ExpectKind.MAY_PLAY,
        ExpectKind.MAY_NOT_PLAY,
        ExpectKind.MAY_BID,
        ExpectKind.MAY_NOT_BID,
        ExpectKind.MAY_TAKE,
    }
)

#: Checks of what someone has: cards, points, trumps, a trick.
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


def _expect_words(v: Variant, e: Expect, note: str, names: Sequence[str]) -> str:
    """What an ``expect`` line checks, told as what happens at the table
    (``note``: the game's words on a refusal, quoted)."""
    who = _cap(_name(names, e.seat or 0))
    plain = _EXPECT_PLAIN.get(e.kind)
    if plain is not None:
        return plain.format(who=who)
    if e.kind in _EXPECT_MAY:
        quoted = f": “{md_text(note)}”" if note else ""
        return _may_words(e, who, quoted, names)
    if e.kind in _EXPECT_HAS:
        return _has_words(v, e, who)
    return _sees_words(e, who, names)


def _the_cards(cards: Sequence[Card], last: str = "or") -> str:
    return join_words([f"the {c}" for c in cards], last)


def _may_words(e: Expect, who: str, quoted: str, names: Sequence[str]) -> str:
    """A check of what ``who`` can (or cannot) play, bid or take."""
    k = e.kind
    if k is ExpectKind.MAY_PLAY:
        if e.any_card:
            return f"{who} can play any card they hold."
        return f"{who} can play {'only ' if e.only else ''}{_the_cards(e.cards)}."
    if k is ExpectKind.MAY_NOT_PLAY:
        return f"{who} cannot play {_the_cards(e.cards)}{quoted}."
    if k is ExpectKind.MAY_TAKE:
        other = _name(names, e.other or 0)
        if e.negated:
            return f"{who} cannot take the cards of {other}{quoted}."
        return f"{who} can take the cards of {other}."
    # A contract bid reads as itself ("7 hearts", "misère"), a number as a number.
    bids = join_words(
        [str(b) if b.strain is not None else f"{b.n}{' blind' if b.blind else ''}" for b in e.bids],
        "or",
    )
    if k is ExpectKind.MAY_BID:
        return f"{who} can bid {'only ' if e.only else ''}{bids}."
    return f"{who} cannot bid {bids}{quoted}."


def _has_words(v: Variant, e: Expect, who: str) -> str:
    """A check of what someone has: cards, points, a counter, the trick, trumps."""
    k = e.kind
    if k is ExpectKind.RECEIVES:
        return f"{who} receives {join_words([str(c) for c in e.cards])} in the pass."
    if k is ExpectKind.SCORES:
        return f"{who} scores {_points(e.points or Fraction(0))} for the hand."
    if k is ExpectKind.COUNTER:
        return f"{who} has {e.count} {md_text(e.counter)}, counted from hand to hand."
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


def _sees_words(e: Expect, who: str, names: Sequence[str]) -> str:
    """A check of which cards ``who`` can (or cannot) see."""
    can = "cannot" if e.negated else "can"
    if e.kind is ExpectKind.SEES_OWN:
        return f"{who} {can} see their own cards."
    if e.kind is ExpectKind.SEES_SEAT:
        return f"{who} {can} see the cards of {_name(names, e.other or 0)}."
    return f"{who} {can} see the dead cards."


def _step_line(v: Variant, r: StepResult, trick: _Trick, names: Sequence[str]) -> str:
    """One step of the example as a sentence of its story (empty for none)."""
    shedding = v.mode is Mode.SHEDDING
    step = r.step
    if isinstance(step, Expect):
        return _expect_words(v, step, r.note, names)
    if isinstance(step, PassCards):
        chosen = join_words([str(c) for c in step.cards])
        text = f"{_cap(_name(names, step.seat))} chooses {chosen} to pass"
        if any(ev[0] == "exchange" for ev in r.events):
            text += "; everyone has chosen, and the passed cards change hands"
        return _sentence([text])
    if isinstance(step, PlayOut):
        what = "game" if step.game else "hand"
        ends = [
            w
            for ev in r.events
            if ev[0] in ("over",) or (ev[0] == "score" and not step.game)
            for w in [_event_words(ev, _Trick(), shedding, names)]
            if w
        ]
        trick.open = False
        # Only a game with bids speaks of bids (issue 25: Kazhutha has no bidding).
        bid = "bidding as low as they can and " if v.has_bidding else ""
        text = (
            f"The rest of the {what} is played out quickly, everyone {bid}playing their lowest card"
        )
        return _sentence([text, *ends])
    # Bids, plays and bid changes: the events say what happened.
    words = [w for ev in r.events if (w := _event_words(ev, trick, shedding, names)) is not None]
    return _sentence(words)


#: Checks of the game's end, which the words of its end already tell (who won or lost).
_GAME_END = frozenset(
    {ExpectKind.GAME_OVER, ExpectKind.LOSES, ExpectKind.WINS, ExpectKind.NO_LOSER}
)


#: The events that tell who took a trick or went out, by the check they answer.
_TOLD_BY = {ExpectKind.TRICK_TO: ("trick", "pickup"), ExpectKind.IS_OUT: ("out",)}


def _told(r: StepResult, scores: dict[int, Fraction], over: bool, recent: Sequence[Event]) -> bool:
    """True when ``r`` checks what the story has just told: the points of a
    player (``scores``: the points each was last told to score), the end of the
    game (``over``: the story told it), or who took the trick or went out in the
    last step that played (``recent``: its events)."""
    step = r.step
    if not isinstance(step, Expect):
        return False
    if step.kind is ExpectKind.SCORES:
        return scores.get(step.seat or 0) == (step.points or Fraction(0))
    if step.kind in _TOLD_BY:
        kinds = _TOLD_BY[step.kind]
        return any(ev[0] in kinds and ev[1] == (step.seat or 0) for ev in recent)
    return over and step.kind in _GAME_END


def _story(v: Variant, run: ExampleRun, names: Sequence[str], setup: str = "") -> list[str]:
    """The example's steps as the paragraphs of a story: what the players do, then
    what follows from it (each check the file makes, said as a fact once the run
    has shown it holds). A check that repeats what the story (or its opening,
    ``setup``) has told already is left out: the trumps, a trick's winner, the
    points of a hand just scored."""
    paragraphs: list[list[str]] = []
    trick = _Trick()
    checking = False
    told = setup.lower()
    scores: dict[int, Fraction] = {}
    over = False
    recent: Sequence[Event] = ()
    for r in run.steps:
        line = _step_line(v, r, trick, names)
        if not isinstance(r.step, Expect):
            recent = r.events
        for ev in r.events:
            if ev[0] == "score":
                scores = {s: Fraction(p) for s, p in enumerate(ev[4])}
            over = over or ev[0] == "over"
        if not line:
            continue
        is_check = isinstance(r.step, Expect)
        if is_check and (line.rstrip(".").lower() in told or _told(r, scores, over, recent)):
            continue
        if not paragraphs or (checking and not is_check):
            paragraphs.append([])
        checking = is_check
        paragraphs[-1].append(line)
        told += " " + line.lower()
    return [" ".join(p) for p in paragraphs if p]


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


def _tricks_figure(run: ExampleRun, names: Sequence[str]) -> list[str]:
    from cardrules.rulebook.svg_cards import figure, trick_grid

    tricks = example_tricks(run)
    if not tricks:
        return []
    drawn = []
    for i, (plays, taker, end) in enumerate(tricks):
        who = _cap(_name(names, taker)) if taker is not None else ""
        note = {
            "trick": f"Trick {i + 1}: won by {who}",
            "dead": f"Trick {i + 1}: dead, {who} leads next",
            "pickup": f"Trick {i + 1}: cut, {who} picks up",
        }.get(end, f"Trick {i + 1}: not finished")
        marked = [k for k, (s, _) in enumerate(plays) if s == taker]
        drawn.append(([(_cap(_name(names, s)), c) for s, c in plays], marked, note))
    title = "The cards played in this example, trick by trick"
    return [figure(trick_grid(drawn, title), f"{title}."), ""]


def _checked_hands(run: ExampleRun) -> list[int]:
    """The players whose hands the story's checks are about (at most two, in the
    order the checks name them): the picture shown when no trick is played."""
    seats: list[int] = []
    for r in run.steps:
        if isinstance(r.step, Expect) and r.step.kind in _EXPECT_MAY:
            seat = r.step.seat or 0
            if seat not in seats and seat < len(run.hands):
                seats.append(seat)
    return seats[:2]


#: A story of more sentences than this, or of more tricks, is folded under its
#: first paragraph (the reader opens it).
FOLD_SENTENCES = 10
FOLD_TRICKS = 3


def _long(story: Sequence[str], run: ExampleRun) -> bool:
    sentences = sum(p.count(". ") + 1 for p in story)
    return sentences > FOLD_SENTENCES or len(example_tricks(run)) > FOLD_TRICKS


#: Characters of Markdown's inline syntax, written as entities in a ``<pre>``.
_MARKDOWN_CHARS = str.maketrans({c: f"&#{ord(c)};" for c in "[]*_`\\!~|"})


def _pre_text(line: str) -> str:
    """One line of text for a ``<pre>`` on a Markdown page: escaped for HTML, and
    nothing Markdown could read as a link or emphasis."""
    from cardrules.rulebook.svg_cards import esc

    return esc(line).translate(_MARKDOWN_CHARS)


def _check_form(v: Variant, run: ExampleRun, names: Sequence[str]) -> list[str]:
    """The folded block under a story: the deal in full (the cards the example
    names in bold), and the example as the file holds it, which ``cardrules
    check`` plays."""
    from cardrules.dsl.example_syntax import INDENT as INDENT_LINE
    from cardrules.dsl.example_syntax import example_lines, symbol_names

    mark = _marks_named(run)
    rows = [
        [_cap(_name(names, s)), _hand_cell(h, named, mark)]
        for s, (h, named) in enumerate(zip(run.hands, run.named, strict=True))
    ]
    seats = join_words([f"{name} is seat {i + 1}" for i, name in enumerate(names)])
    symbols = symbol_names(v.deck.specials, v.deck.symbols)
    # Each line escaped on its own (esc puts a text on one line), and the characters
    # of Markdown's inline syntax as entities, so the file's words stay words.
    lead = len(INDENT_LINE)
    text = "\n".join(
        (" " * lead if line.startswith(INDENT_LINE) else "") + _pre_text(line)
        for _, line in example_lines(run.example, symbols)
    )
    out = [
        '<details class="cr-example-check" markdown="1">',
        "<summary>The example as <code>cardrules check</code> plays it</summary>",
        "",
        markdown_table(["Player", "Cards dealt"], rows),
        "",
    ]
    if mark:
        out += [
            "The cards the example names are in bold; the rest of each hand was dealt from "
            "the other cards, lowest first, round the table.",
            "",
        ]
    out += [
        f"In the file, the players are numbered round the table: {seats}.",
        "",
        f'<pre class="cr-example-source"><code>{text}</code></pre>',
        "",
        "</details>",
        "",
    ]
    return out


def _story_picture(run: ExampleRun, names: Sequence[str]) -> list[str]:
    """The cards a story is about, drawn: the tricks it plays, else the hands of
    the players its checks speak of, else the cards passed (empty for none)."""
    from cardrules.rulebook.svg_cards import figure, hands_svg

    tricks = _tricks_figure(run, names)
    if tricks:
        return tricks
    if seats := _checked_hands(run):
        drawn = [(names[s], list(run.hands[s].sorted_for_display(run.trump))) for s in seats]
        title = "The hand of " + join_words([names[s] for s in seats])
        return [figure(hands_svg(drawn, title), f"{title}."), ""]
    passes = [r.step for r in run.steps if isinstance(r.step, PassCards)]
    if passes:
        rows = [(names[p.seat], list(p.cards)) for p in passes]
        title = "The cards each player chose to pass"
        return [figure(hands_svg(rows, title), f"{title}."), ""]
    return []


def example_case(v: Variant, run: ExampleRun, *, pictures: bool = False) -> list[str]:
    """One example as Markdown lines: its heading, its story with the players' names
    (with ``pictures``, the tricks played or the hands the story speaks of drawn as
    cards), a long story folded under its opening, and the example as the file
    holds it, folded."""
    ex = run.example
    out = [f"### {md_line(ex.title)}", ""]
    if not run.hands:
        problem = run.failure.problem if run.failure else "it cannot be dealt"
        return [*out, f"**This example cannot be played:** {md_text(problem)}", ""]
    names = seat_names(run.players)
    setup = _setup(v, run, names)
    story = _story(v, run, names, setup)
    if run.failure is not None:
        story.append(f"**This example does not hold:** {md_text(run.failure.problem)}")
    body: list[str] = []
    for paragraph in story:
        body += [paragraph, ""]
    if pictures:
        body += _story_picture(run, names)
    out += [setup, ""]
    if _long(story, run):
        out += [
            '<details class="cr-example-story" markdown="1">',
            "<summary>The story of this example</summary>",
            "",
            *body,
            "</details>",
            "",
        ]
    else:
        out += body
    return out + _check_form(v, run, names)


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
        "Short stories of the rules at work, at a table of friends. cardrules played each "
        "one to write this page, so every card, trick and score in them is what the game "
        "did; under each story is the example as the variant file holds it, which "
        "`cardrules check` plays again whenever the file is checked.",
        "",
    ]
    # One budget for the file's examples, as for `cardrules check`: those after
    # the one that spends it are not played (nor shown).
    for run in run_all(v):
        out += example_case(v, run, pictures=pictures)
    return out
