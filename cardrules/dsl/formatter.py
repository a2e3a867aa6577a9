"""Variant -> canonical variant file text.

:func:`format` writes a whole resolved variant, one setting a line in a fixed
order, then its worked examples, so that ``parse(format(v)) == v`` (and the
examples read back equal). Settings that do not apply to the
game's mode (bidding in a shedding game, dead tricks in a trick-taking game)
are written only when they differ from the defaults.

:func:`format_source` tidies a file as written: each statement in its
canonical spelling, in the file's own order, with its comments kept. This is
what ``cardrules fmt`` does, so that a small house-rule file stays small.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from typing import Any, Final

import attrs

from cardrules.card_rules import ANY_CARD, lead_choice
from cardrules.cards import Card, CardSet, Rank, Suit
from cardrules.errors import VariantError
from cardrules.rules import (
    BidStyle,
    Direction,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    Mode,
    PassTo,
    Pattern,
    ShedLoser,
    SizeEntry,
    TieBreak,
    TrumpKind,
    TrumpNamer,
    Variant,
)
from cardrules.scoring import format_formula

from . import limits
from .errors import SETTING_NAMES
from .examples import Example, Expect, example_lines
from .parser import apply_settings, normalize_text, parse_file

__all__ = ["format", "format_example", "format_setting", "format_source", "quote", "to_dict"]


def quote(text: str) -> str:
    """``text`` in double quotes, with ``\\`` and ``"`` escaped."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise VariantError(f"{text!r} holds a control character and cannot be written")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _entry(e: SizeEntry) -> str:
    if (e.min_players, e.max_players) == (1, limits.MAX_PLAYERS):
        return str(e.size)
    if e.min_players == e.max_players:
        word = "player" if e.min_players == 1 else "players"
        return f"{e.size} for {e.min_players} {word}"
    if e.max_players == limits.MAX_PLAYERS:
        return f"{e.size} for {e.min_players} or more players"
    return f"{e.size} for {e.min_players} to {e.max_players} players"


def _hand_size(r: HandSizeRule) -> str:
    items = [_entry(e) for e in r.table]
    if r.largest:
        items.append("largest")
        if r.keep_one:
            items.append("keep one for trumps")
        if r.cap is not None:
            items.append(f"at most {r.cap}")
    elif r.keep_one or r.cap is not None or not items:
        raise VariantError("this hand size rule cannot be written as a variant file")
    return ", ".join(items)


def _hands(v: Variant) -> str:
    s = v.schedule
    text = {
        Pattern.DOWN: "down to 1",
        Pattern.DOWN_UP: "down to 1 and back up",
        Pattern.UP: "up from 1",
        Pattern.UP_DOWN: "up from 1 and back down",
        Pattern.WHOLE_PACK: "whole pack",
    }.get(s.pattern)
    if s.pattern is Pattern.SAME:
        text = f"{s.count} hands of the same size"
    elif s.pattern is Pattern.LIST:
        text = "list " + ", ".join(str(n) for n in s.sizes)
    if text is None:  # pragma: no cover - every pattern is covered above
        raise VariantError(f"unknown pattern {s.pattern!r}")
    if s.repeat == 2:
        text += ", twice"
    elif s.repeat != 1:
        text += f", {s.repeat} times"
    return text


def _trumps(v: Variant) -> str:
    t = v.trumps
    if t.namer is TrumpNamer.HIGHEST_BIDDER:
        return "named by the highest bidder"
    if t.namer is TrumpNamer.ORDER_UP:
        return "order up"
    if t.kind is TrumpKind.DEALERS_CARD:
        return "dealer's last card"
    then = ", then named by the winner of most tricks" if t.namer is TrumpNamer.MOST_TRICKS else ""
    if t.kind is TrumpKind.NONE:
        return "none"
    if t.kind is TrumpKind.FIXED:
        return t.suit.word + then if t.suit is not None else "none"
    if t.kind is TrumpKind.TURN_UP:
        return (
            "turned up"
            + (", no trumps when the pack runs out" if t.none_when_pack_empty else "")
            + then
        )
    return "cycle " + ", ".join(s.word if s is not None else "no trumps" for s in t.cycle) + then


def _first_lead(v: Variant) -> str:
    p = v.play
    if p.first_leader is FirstLeader.DEALER_NEXT or p.lead_card is None:
        return "dealer's neighbour"
    text = f"holder of {p.lead_card}" + "".join(f" otherwise {k}" for k in p.lead_card_else)
    if p.first_lead is FirstLead.CARD:
        return text + " leads it"
    if p.first_lead is FirstLead.SUIT:
        return text + f" leads any {p.lead_card.suit.word[:-1]}"
    return text + " leads any card"


def _follow(v: Variant) -> str:
    p = v.play
    if p.follow == ANY_CARD:
        return "any card"
    if not p.must_follow:
        return str(p.follow)
    parts = ["must follow suit"]
    if p.must_trump:
        parts.append("must trump when void")
    if p.must_beat:
        parts.append("must beat when able")
    return ", ".join(parts)


def _deck(v: Variant) -> str:
    low = v.deck.lowest
    text = "standard 52" if low == 2 else f"{Rank(low).label} to ace"
    if v.deck.jokers:
        text += f" with {v.deck.jokers} joker" + ("s" if v.deck.jokers > 1 else "")
    if v.deck.removed:
        text += ("," if v.deck.jokers else "") + " without "
        text += " ".join(str(c) for c in CardSet(v.deck.removed))
    elif v.deck.removed_for:
        text += (
            ("," if v.deck.jokers else "")
            + " without "
            + ", ".join(
                " ".join(str(c) for c in CardSet(mask))
                + f" for {lo if lo == hi else f'{lo} to {hi}'} players"
                for lo, hi, mask in v.deck.removed_for
            )
        )
    return text


def _formula(v: Variant) -> str:
    from cardrules.scoring import format_formula

    f = v.scoring.formula
    return format_formula(f) if f is not None else ""


def _card_points(v: Variant) -> str:
    """``hearts 1, Q♠ 13``: for each suit, the value most of its cards have
    (unless 0), then each card whose value differs from its suit's."""
    values = v.scoring.card_points
    if len(values) not in (52, 54) or any(
        type(x) is not int or abs(x) > limits.MAX_CARD_POINTS for x in values
    ):
        raise VariantError(
            "the card points must be 52 (or, with the jokers, 54) whole numbers from "
            f"{-limits.MAX_CARD_POINTS} to {limits.MAX_CARD_POINTS}, one for each card"
        )
    suit_parts: list[str] = []
    card_parts: list[str] = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        row = values[13 * suit : 13 * suit + 13]
        # The most common value; on a tie, 0 (nothing to write), else the smallest.
        base = max(sorted(set(row)), key=lambda x: (row.count(x), x == 0))
        if base:
            suit_parts.append(f"{suit.name.lower()} {base}")
        for i in range(12, -1, -1):
            if row[i] != base:
                card_parts.append(f"{Card(13 * suit + i)} {row[i]}")
    for k in range(len(values) - 1, 51, -1):
        if values[k]:
            card_parts.append(f"{Card(k)} {values[k]}")
    return ", ".join(suit_parts + card_parts)


def _pass(v: Variant) -> str:
    """``3 cards left, right, across, none``, or ``none`` (nobody passes)."""
    p = v.passing
    if p.count == 0 and not p.cycle:
        return "none"
    if (
        type(p.count) is not int
        or not 1 <= p.count <= limits.MAX_PASS_CARDS
        or not p.cycle
        or len(p.cycle) > limits.MAX_LIST_ITEMS
        or not all(isinstance(to, PassTo) for to in p.cycle)
        or all(to is PassTo.NONE for to in p.cycle)
    ):
        raise VariantError(
            f"the pass must be 1 to {limits.MAX_PASS_CARDS} cards with a cycle of "
            "directions (left, right, across, none) that is not all none"
        )
    cards = "card" if p.count == 1 else "cards"
    return f"{p.count} {cards} " + ", ".join(to.value for to in p.cycle)


def _tie(v: Variant) -> str:
    w = v.winning
    if w.tie is TieBreak.SHARED:
        return "shared"
    most = w.max_extra_hands
    return "extra hands" + (f", at most {most}" if most is not None else "")


def _parent(name: str) -> str:
    return name if _NAME.fullmatch(name) else quote(name)


_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]*")


def _players(v: Variant) -> str:
    lo, hi = v.players.min, v.players.max
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _dealer(v: Variant) -> str:
    d = v.dealer
    if d.first is FirstDealer.RANDOM:
        return "random"
    if d.first is FirstDealer.CUT:
        return "cut for highest card"
    return f"seat {d.seat + 1}"


def _bids(v: Variant) -> str:
    b = v.bidding
    top = "the hand size" if b.max_bid is None else str(b.max_bid)
    return f"{b.min_bid} to {top}"


_BIDDING: Final = {
    BidStyle.NONE: "none",
    BidStyle.IN_TURN: "in turn",
    BidStyle.SIMULTANEOUS: "all at once",
}

#: setting -> how to write its value.
RENDER: Final[dict[str, Callable[[Variant], str]]] = {
    "game": lambda v: v.name,
    "extends": lambda v: _parent(v.parent or ""),
    "title": lambda v: quote(v.title),
    "also called": lambda v: ", ".join(quote(a) for a in v.aliases),
    "summary": lambda v: quote(v.summary),
    "mode": lambda v: v.mode.value,
    "players": _players,
    "deck": _deck,
    "direction": lambda v: "clockwise" if v.direction is Direction.CLOCKWISE else "anticlockwise",
    "first dealer": _dealer,
    "deal passes": lambda v: "to the loser" if v.match.loser_deals else "to the next player",
    "hand size": lambda v: _hand_size(v.schedule.start),
    "hands": _hands,
    "trumps": _trumps,
    "no trumps": lambda v: (
        f"every {_ordinal(v.trumps.no_trump_every)} hand" if v.trumps.no_trump_every else "never"
    ),
    "trump order": lambda v: ", ".join(str(e) for e in v.trumps.order) or "usual",
    "pass": _pass,
    "stick the dealer": lambda v: _yes(v.trumps.stick_dealer),
    "going alone": lambda v: _yes(v.trumps.going_alone),
    "defending alone": lambda v: _yes(v.trumps.defend_alone),
    "dealer keeps the turned card": lambda v: _yes(v.trumps.keep_turned),
    "may name no trumps": lambda v: _yes(v.trumps.name_no_trumps),
    "trump ties": lambda v: v.trumps.namer_tie.value,
    "bidding": lambda v: _BIDDING[v.bidding.style],
    "hook": lambda v: _yes(v.bidding.hook),
    "bids": _bids,
    "blind bids": lambda v: (
        "only " + ", ".join(map(str, v.bidding.blind_only))
        if v.bidding.blind and v.bidding.blind_only
        else _yes(v.bidding.blind)
    ),
    "forehead hands": lambda v: ", ".join(str(n) for n in v.bidding.forehead_sizes) or "none",
    "bid changes": lambda v: "until the next bid" if v.bidding.amend else "no",
    "team bids": lambda v: "one per side" if v.bidding.one_per_team else "each partner",
    "first lead": _first_lead,
    "follow": _follow,
    "lead": lambda v: str(v.play.lead),
    "first trick": lambda v: str(v.play.first_trick),
    "broken by": lambda v: ", ".join(t.value for t in v.play.broken_by),
    "breaking cards": lambda v: ", ".join(f"{c} breaks {s.word}" for c, s in v.play.also_breaks),
    "leader out": lambda v: v.play.leader_out.value,
    "leading trumps": lambda v: (
        "once broken" if v.play.lead == lead_choice(trumps_once_broken=True) else "any time"
    ),
    "dead tricks": lambda v: v.shedding.dead_tricks.value,
    "all out together": lambda v: v.shedding.all_out.value,
    "loser": lambda v: (
        v.shedding.loser.value
        if v.shedding.loser is ShedLoser.LAST_HOLDING
        else f"{v.shedding.loser.value}, ties {v.shedding.loser_tie.value}"
    ),
    "cuts on the first trick": lambda v: _yes(v.shedding.first_trick_cuts),
    "take a hand from": lambda v: v.shedding.take_hand.value,
    "card points": _card_points,
    "teams": lambda v: ", ".join(" and ".join(str(s + 1) for s in team) for team in v.teams),
    "score": _formula,
    "team score": lambda v: (
        "" if v.scoring.team_formula is None else format_formula(v.scoring.team_formula)
    ),
    "counter": lambda v: "\n".join(
        f"counter {c.name}: {format_formula(c.formula)}" for c in v.scoring.counters
    ),
    "winner": lambda v: (
        "last one in"
        if v.winning.last_one_in
        else ("highest total" if v.scoring.higher_wins else "lowest total")
    ),
    "tie": _tie,
    "target": lambda v: f"{v.winning.target} points",
    "knocked out": lambda v: (
        "no tricks"
        if v.winning.knockout_below == 1
        else f"fewer than {v.winning.knockout_below} tricks"
    ),
    "match word": lambda v: v.match.word or "none",
    "take backs": lambda v: v.take_backs.value,
    "options": lambda v: ", ".join(v.options),
}

_DEFAULT: Final = Variant(name="default")


def _differs(v: Variant, key: str) -> bool:
    return RENDER[key](v) != RENDER[key](_DEFAULT)


def _wanted(v: Variant, key: str) -> bool:
    """Whether :func:`format` writes ``key`` for ``v``."""
    tricks = v.mode is Mode.TRICKS
    bidding = v.has_bidding
    if key in ("game", "mode", "players", "deck", "direction", "first dealer", "hands", "trumps"):
        return True
    if key in ("first lead", "follow"):
        return True
    shorthand_lead = v.play.lead in (ANY_CARD, lead_choice(trumps_once_broken=True))
    if key == "leading trumps":
        return shorthand_lead
    if key == "lead":
        return not shorthand_lead
    if key in ("first trick", "broken by", "leader out"):
        return _differs(v, key)
    if key == "breaking cards":
        return bool(v.play.also_breaks)
    if key == "extends":
        return v.parent is not None
    if key in ("title", "summary"):
        return bool(getattr(v, key))
    if key == "also called":
        return bool(v.aliases)
    if key == "options":
        return bool(v.options)
    if key == "score":
        return v.scoring.formula is not None
    if key == "card points":
        return bool(v.scoring.card_points)
    if key == "teams":
        return bool(v.teams)
    if key == "team score":
        return v.scoring.team_formula is not None
    if key == "counter":
        return bool(v.scoring.counters)
    if key == "target":
        return v.winning.target is not None
    if key == "knocked out":
        return v.winning.knockout_below > 0
    if key == "pass":
        return v.passing.count != 0 or bool(v.passing.cycle)
    if key == "no trumps":
        return v.trumps.no_trump_every is not None
    if key == "trump order":
        return bool(v.trumps.order)
    if key in (
        "stick the dealer",
        "going alone",
        "defending alone",
        "dealer keeps the turned card",
        "may name no trumps",
        "trump ties",
    ):
        return _differs(v, key)
    if key == "hand size":
        return v.schedule.pattern not in (Pattern.WHOLE_PACK, Pattern.LIST) or _differs(v, key)
    if key == "bidding":
        return tricks or _differs(v, key)
    if key in ("hook", "bids", "blind bids", "forehead hands", "bid changes"):
        return bidding or _differs(v, key)
    if key == "team bids":
        return _differs(v, key)
    if key in ("winner", "tie"):
        return tricks or _differs(v, key)
    if key in ("loser", "cuts on the first trick", "take a hand from", "take backs"):
        return _differs(v, key)
    if key in ("dead tricks", "all out together", "match word", "deal passes"):
        return not tricks or _differs(v, key)
    return True  # pragma: no cover - every key is covered above


def format_setting(v: Variant, key: str) -> str:
    """The line ``key: value`` for the setting ``key`` of ``v`` (for ``counter``,
    a ``counter NAME: formula`` line for each counter)."""
    if key == "counter":
        return RENDER[key](v)
    return f"{key}: {RENDER[key](v)}"


def format(variant: Variant) -> str:
    """The canonical text of a variant: ``parse(format(v)) == v``.

    Raises:
        TypeError: if ``variant`` is not a :class:`~cardrules.rules.Variant`.
        VariantError: for a hand-built variant that no file could describe (a
            title with a newline in it, for example).
    """
    if not isinstance(variant, Variant):
        hint = " (to tidy variant text, use format_source)" if isinstance(variant, str) else ""
        raise TypeError(
            f"format() needs a Variant, as returned by cardrules.load or cardrules.parse, "
            f"got {type(variant).__name__}{hint}"
        )
    lines = [format_setting(variant, k) for k in SETTING_NAMES if _wanted(variant, k)]
    for ex in variant.examples:
        lines.append("")
        lines += format_example(ex)
    return "\n".join(lines) + "\n"


def _writable(text: str, what: str) -> None:
    """Refuse words (an example's title or reason) that would not read back the same."""
    if (
        not text
        or text != text.strip()
        or "#" in text
        or any(ord(ch) < 32 or ord(ch) == 127 for ch in text)
    ):
        raise VariantError(
            f"the {what} {text[:60]!r} cannot be written in a variant file",
            expected="words on one line, without `#` or spaces at either end",
        )


def format_example(ex: Example) -> list[str]:
    """The canonical lines of one worked example (the ``example:`` line first,
    the others indented).

    Raises:
        VariantError: for a hand-built example whose title or reason no file
            could hold (a ``#``, a line break).
    """
    _writable(ex.title, "example's title")
    for step in ex.steps:
        if isinstance(step, Expect) and step.reason:
            _writable(step.reason, "reason")
    return [text for _, text in example_lines(ex)]


def format_source(text: str | bytes, *, path: str = "<string>") -> str:
    """Tidy a variant file as written: canonical spelling, same order, comments kept.

    Raises:
        VariantError: if the file does not parse.
    """
    text = normalize_text(text, path)
    pf = parse_file(text, path=path)
    by_line = {s.pos.line: s for s in pf.settings if s.key != "examples"}
    example_at = {
        pos.line: body for ex in pf.examples for pos, body in example_lines(ex) if pos is not None
    }
    base = Variant(name=pf.name or "x")
    out: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        setting = by_line.get(number)
        if number in example_at:
            # Example lines hold no quoted text: a comment starts at the first `#`.
            at = line.find("#")
            comment = line[at:].rstrip() if at >= 0 else ""
            out.append(example_at[number] + (f"  {comment}" if comment else ""))
            continue
        if setting is None:
            stripped = line.strip()
            if not stripped:
                if out and out[-1] != "":
                    out.append("")
            else:
                out.append(stripped)
            continue
        if setting.key == "extends":
            target = str(setting.changes[0][1])
            is_path = bool(dict(setting.changes).get("@path"))
            body = f"extends: {quote(target) if is_path else target}"
        else:
            body = format_setting(apply_settings(base, [setting]), setting.key)
        comment = _trailing_comment(line, setting.key)
        out.append(body + (f"  {comment}" if comment else ""))
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _trailing_comment(line: str, key: str) -> str:
    """The ``# comment`` at the end of a statement line, if any (not one inside quotes)."""
    in_quotes = False
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and in_quotes:
            escaped = True
        elif ch == '"':
            in_quotes = not in_quotes
        elif ch == "#" and not in_quotes:
            return line[i:].rstrip()
    return ""


def to_dict(variant: Variant) -> dict[str, Any]:
    """A variant as plain JSON-ready data: enums as their text, suits by name,
    cards as ``A♠``, the score formula as its text, removed cards listed.

    Source positions, the source text, the path and the worked examples (which
    are not rules: see :attr:`~cardrules.rules.Variant.examples`) are left out.
    """
    from cardrules.scoring import Formula

    def value(_inst: object, _field: attrs.Attribute[Any] | None, v: Any) -> Any:
        if isinstance(v, Formula):
            return v.text
        if isinstance(v, Suit):
            return v.word
        if isinstance(v, Card):
            return str(v)
        if isinstance(v, Enum):
            return v.value
        return v

    def keep(attribute: attrs.Attribute[Any], _v: Any) -> bool:
        return bool(attribute.eq)

    data: dict[str, Any] = attrs.asdict(variant, filter=keep, value_serializer=value)
    data["deck"]["removed_cards"] = [str(c) for c in CardSet(variant.deck.removed)]
    data["deck"]["size"] = variant.deck.size
    return data
