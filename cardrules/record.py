"""Game records: one human-readable text file per game, the role PGN plays for chess.

A record holds the rules (a built-in's name, or the canonical variant text), the
seats, every deal, every action in order and the result, so a game can be read,
shared, checked and replayed by any later version of cardrules. Seats are
numbered from 1, as in variant files. A record written by :func:`dump`::

    cardrules record 1
    variant: oh-hell
    fingerprint: 5c1d6c9a0e5b3f2d
    players: 4
    hand 1: seat 4 deals
      seat 1 holds A♠ 7♦ ...
      turned up 2♣
      seat 1: bid 1
      seat 1: play A♠
    result: seat 1 wins; totals 23 18 9 11

In a shedding game with "the power", a line such as ``  seat 2 draws 8♠``
says which dead card a player drew (and led): it is no action, but a record
without the seed could not know the card otherwise; :func:`load` makes the
game draw those cards and checks that it drew each one where the record says.

Lines of the rules text, when the variant is not a built-in (or differs from
the built-in of its name), follow ``rules:`` with ``| `` before each. ``#``
starts a comment line. The ``result:`` line is written for people and checked on
load: it must be what the actions produce.

A record holds the game as it stands: a player's take-back and the actions it
undid are not written (the game's save and event streams keep them).

A record carries no seed unless asked (``dump(game, seed=True)``): a record
with the seed tells every future deal of an unfinished game, so never give one
to players while the game goes on. :func:`load` replays a record through the
rules (every deal and every action is checked) and returns the game. With its
seed, the game loaded is the game written (``load(dump(g, seed=True)) == g``
for a game dealt from its seed). Without it, the game loaded has the same
deals, actions, views and scores so far, but it is not ``==`` to the game
written: it deals any later hands from a fresh random seed, and its first
dealer is the record's, given rather than drawn.

Records are untrusted input: at most :data:`MAX_RECORD_BYTES` characters,
every line checked, every refusal a :class:`~cardrules.errors.SaveError`
naming the line.

Example:
    >>> import cardrules
    >>> from cardrules import record
    >>> g = cardrules.Game(cardrules.load("oh-hell"), players=4, seed=1)
    >>> while not g.is_over:
    ...     g.apply(g.legal_actions()[0], g.to_act)
    >>> again = record.load(record.dump(g))
    >>> again.result == g.result, record.dump(again) == record.dump(g)
    (True, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from cardrules.cards import ID_LIMIT, MAX_PACKS, Card, CardSet, card, deal_copies
from cardrules.engine.actions import Action
from cardrules.engine.game import Game
from cardrules.engine.state.history import current_line
from cardrules.engine.state.saves import _action_log, _idle_settings
from cardrules.engine.views.notation import parse_action
from cardrules.errors import CardError, CardrulesError, InvalidAction, SaveError
from cardrules.rules import Direction, Variant

__all__ = ["MAX_RECORD_BYTES", "RECORD_VERSION", "dump", "load"]

#: The version of the record format (the first line: ``cardrules record 1``).
RECORD_VERSION: Final = 1
#: Records longer than this many characters are refused unread.
MAX_RECORD_BYTES: Final = 5_000_000
_MAX_LINE: Final = 2_000
_MAX_SEED: Final = 2**64 - 1


# --------------------------------------------------------------------------- writing


def _seat_list(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s + 1}" for s in seats)


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _rules_lines(v: Variant) -> list[str]:
    """``rules:`` and its text, unless the variant is the built-in of its name."""
    from cardrules.dsl import builtin_names, load
    from cardrules.dsl import format as format_variant

    if v.name in builtin_names():
        try:
            if load(v.name) == v:
                return []
        except CardrulesError:
            pass
    try:
        text = format_variant(v)
    except CardrulesError as e:
        raise SaveError(
            f"this variant has no text form, so no record can hold it: {e}", code="bad_record"
        ) from None
    # Lines that change nothing here but were only warnings when the variant was
    # loaded (inherited ones) are named, so that loading checks them as warnings too.
    idle = _idle_settings(v)
    head = [f"idle: {', '.join(idle)}"] if idle else []
    return head + ["rules:"] + [f"| {line}".rstrip() for line in text.splitlines()]


def dump(game: Game, *, seed: bool = False) -> str:
    """The record of ``game`` so far (a finished game, or one still being played).

    Args:
        game: the game.
        seed: also write the seed (it tells every future deal: keep such a
            record from the players while the game goes on).

    Returns:
        The record's text.

    Raises:
        SaveError: if the variant has no text form (a config built in Python
            that no file can describe).
    """
    v = game.variant
    from cardrules.engine.state.compiled_rules import variant_fingerprint

    out = [f"cardrules record {RECORD_VERSION}", f"variant: {v.name}"]
    out.append(f"fingerprint: {variant_fingerprint(v)}")
    out.append(f"players: {game.players}")
    if seed:
        out.append(f"seed: {game.seed}")
    out.extend(_rules_lines(v))
    # The game as it stands: a take-back and the actions it undid are not written.
    for ev in current_line(game.events):
        kind = ev[0]
        if kind == "start" and ev[4] is not None:
            out.append(f"max tricks: {ev[4]}")
        elif kind == "deal":
            _, hn, dealer, _size, hands = ev
            out.append(f"hand {hn}: seat {dealer + 1} deals")
            for s, h in enumerate(hands):
                cards = " ".join(str(c) for c in h)
                out.append(
                    f"  seat {s + 1} holds {cards}" if cards else f"  seat {s + 1} holds nothing"
                )
        elif kind == "trump" and ev[3] is not None:
            out.append(f"  turned up {ev[3]}")
        elif kind == "draw":
            # The power: not an action, but a record without the seed must say it.
            out.append(f"  seat {ev[1] + 1} draws {ev[2]}")
        elif kind == "redeal":
            # A deal thrown in (``redeal:``): the next deal is the same hand's.
            out.append(f"  seat {ev[2] + 1} shows the hand: thrown in")
        else:
            for seat, aid in _action_log([ev.astuple()]):
                out.append(f"  seat {seat + 1}: {Action.from_id(aid).label}")
    result = game.result
    if result is not None:
        totals = " ".join(_number(t) for t in result.totals)
        if not result.finished:
            said = "unfinished"
        elif not result.winners:
            said = "nobody wins"
        else:
            verb = (
                "share the win"
                if result.shared
                else ("wins" if len(result.winners) == 1 else "win")
            )
            said = f"{_seat_list(result.winners)} {verb}"
        if result.loser is not None:
            said += f"; seat {result.loser + 1} loses"
        out.append(f"result: {said}; totals {totals}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- reading


_HAND: Final = re.compile(r"hand (\d{1,5}): seat (\d{1,3}) deals")
_HOLDS: Final = re.compile(r"seat (\d{1,3}) holds (.*)")
_ACTION: Final = re.compile(r"seat (\d{1,3}): (.*)")
_DRAWS: Final = re.compile(r"seat (\d{1,3}) draws (\S{1,24})")
_THROWN: Final = re.compile(r"seat (\d{1,3}) shows the hand: thrown in")
_SETTING: Final = re.compile(r"([a-z ]+): ?(.*)")


class _Hand:
    __slots__ = ("actions", "dealer", "hands", "line", "number", "thrown", "turned")

    def __init__(self, number: int, dealer: int, line: int) -> None:
        self.number = number
        self.dealer = dealer
        self.line = line
        self.hands: dict[int, int] = {}
        self.turned = -1
        self.actions: list[tuple[int, Action, int]] = []
        # The seat that showed its hand, when the deal was thrown in (-1: it stood).
        self.thrown = -1


def _fail(line: int, message: str) -> SaveError:
    return SaveError(f"record line {line}: {message}", code="bad_record", data={"line": line})


def _int(text: str, line: int, what: str, low: int, high: int) -> int:
    if not text.isdigit() or len(text) > 20 or not low <= int(text) <= high:
        raise _fail(
            line, f"{what} must be a whole number from {low} to {high:,}, not {text[:30]!r}"
        )
    return int(text)


def _cards(text: str, line: int) -> int:
    mask = 0
    if text.strip() == "nothing":
        return 0
    words = text.split()
    if len(words) > 52 * MAX_PACKS:
        raise _fail(
            line, f"{len(words):,} cards: the largest pack has {52 * MAX_PACKS} (four packs)"
        )
    for w in words:
        try:
            c = int(card(w))
        except CardError as e:
            raise _fail(line, str(e)) from None
        while mask >> c & 1 and c + 64 < ID_LIMIT and c & 63 < 52:
            c += 64  # several packs: a card written again is its next copy
        if mask >> c & 1:
            raise _fail(line, f"{Card(c & 63)} appears twice")
        mask |= 1 << c
    return mask


def _deck(v: Variant, players: int, hand: _Hand) -> list[int]:
    """A card order that deals the record's hands: one card at a time from the
    dealer's neighbour in the direction of play, then the turned-up card."""
    step = 1 if v.direction is Direction.CLOCKWISE else -1
    order = [(hand.dealer + step * k) % players for k in range(1, players + 1)]
    masks = {s: hand.hands.get(s, 0) for s in order}
    if v.deck.packs > 1:
        # Several packs: each hand's copies numbered as the engine deals them.
        t = hand.turned
        free = t >= 0 and not any(m >> t & 1 for m in masks.values())
        masks = dict(zip(order, deal_copies(masks.values(), 1 << t if free else 0), strict=True))
    piles = {s: [int(c) for c in CardSet(masks[s])] for s in order}
    turned = hand.turned
    for pile in piles.values():
        if turned in pile:  # the pack ran out: the dealer's last card was turned
            pile.remove(turned)
            pile.append(turned)
    deck: list[int] = []
    longest = max((len(p) for p in piles.values()), default=0)
    for i in range(longest):
        for s in order:
            if i < len(piles[s]):
                deck.append(piles[s][i])
    dealt = 0
    for m in masks.values():
        dealt |= m
    if turned >= 0 and not dealt >> turned & 1:
        deck.append(turned)
        dealt |= 1 << turned
    deck.extend(
        int(c) for c in v.for_players(players).deck.cards_for(players) if not dealt >> int(c) & 1
    )
    return deck


def _header(lines: list[tuple[int, str]]) -> tuple[dict[str, tuple[int, str]], list[str], int]:
    """The settings before the first hand, the rules text and where the hands begin."""
    settings: dict[str, tuple[int, str]] = {}
    rules: list[str] = []
    i = 1
    while i < len(lines):
        ln, text = lines[i]
        if text.startswith("hand ") or text.startswith("result:"):
            break
        if text == "rules:":
            i += 1
            while i < len(lines) and lines[i][1].startswith("|"):
                rules.append(lines[i][1][2:] if lines[i][1].startswith("| ") else lines[i][1][1:])
                i += 1
            continue
        m = _SETTING.fullmatch(text)
        if m is None or m.group(1) not in (
            "variant",
            "fingerprint",
            "players",
            "seed",
            "max tricks",
            "idle",
        ):
            raise _fail(ln, f"{text[:40]!r} is not a setting of a record")
        if m.group(1) in settings:
            raise _fail(ln, f"{m.group(1)} is given twice")
        settings[m.group(1)] = (ln, m.group(2).strip())
        i += 1
    return settings, rules, i


def _idle(settings: dict[str, tuple[int, str]]) -> frozenset[str]:
    """The settings the record's ``idle:`` line names (checked as warnings)."""
    from cardrules.dsl.syntax_errors import SETTING_NAMES

    if "idle" not in settings:
        return frozenset()
    ln, text = settings["idle"]
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in SETTING_NAMES:
            raise _fail(ln, f"{name[:40]!r} is not a setting")
    return frozenset(names)


def _variant(
    settings: dict[str, tuple[int, str]], rules: list[str], given: Variant | None
) -> Variant:
    from cardrules.dsl import builtin_names, parse, validate
    from cardrules.dsl import load as load_variant
    from cardrules.engine.state.compiled_rules import variant_fingerprint

    if "variant" not in settings:
        raise SaveError(
            "record line 2: a record names its variant (variant: NAME)", code="bad_record"
        )
    ln, name = settings["variant"]
    if given is not None:
        v = given
    elif rules:
        try:
            v = parse("\n".join(rules) + "\n", path="<record>", validate=False)
            validate(v, warn_only=_idle(settings))
        except CardrulesError as e:
            raise SaveError(
                f"the record's rules are not a valid variant: {e}", code="bad_record"
            ) from None
    elif name in builtin_names():
        v = load_variant(name)
    else:
        raise _fail(ln, f"{name[:40]!r} is not a built-in variant and the record holds no rules")
    if v.name != name:
        raise _fail(ln, f"the record is a game of {name[:40]!r}, not of {v.name!r}")
    if "fingerprint" in settings:
        fln, fp = settings["fingerprint"]
        if fp != variant_fingerprint(v):
            raise _fail(
                fln,
                f"the record was made with other rules for {v.name!r} (fingerprint {fp[:20]!r})",
            )
    return v


def load(text: str, variant: Variant | None = None) -> Game:
    """The game of a record, replayed through the rules.

    Args:
        text: the record (:func:`dump`'s text).
        variant: the rules it must have been played with; ``None``: the
            record's own rules text, or the built-in it names.

    Returns:
        The game, in the state the record ends in.

    Raises:
        SaveError: for anything malformed or against the rules, naming the line.
    """
    lines = _record_lines(text)
    settings, rules, i = _header(lines)
    v = _variant(settings, rules, variant)
    if "players" not in settings:
        raise SaveError("record: the number of players is missing (players: N)", code="bad_record")
    pln, ptext = settings["players"]
    players = _int(ptext, pln, "players", v.players.min, v.players.max)
    seed = None
    if "seed" in settings:
        seed = _int(settings["seed"][1], settings["seed"][0], "the seed", 0, _MAX_SEED)
    max_tricks = None
    if "max tricks" in settings:
        max_tricks = _int(
            settings["max tricks"][1], settings["max tricks"][0], "max tricks", 1, 10**9
        )
    hands, draws, result = _body(lines[i:], players)
    return _replay(v, players, seed, max_tricks, hands, result, draws)


def _record_lines(text: object) -> list[tuple[int, str]]:
    """The lines of a record that say something (numbered from 1; no blank
    lines or comments), checked for size and for the first line."""
    if not isinstance(text, str):
        raise SaveError(f"a record is text, not {type(text).__name__}", code="bad_record")
    if len(text) > MAX_RECORD_BYTES:
        raise SaveError(
            f"the record is too large ({len(text):,} characters; at most {MAX_RECORD_BYTES:,})",
            code="bad_record",
        )
    lines: list[tuple[int, str]] = []
    for ln, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        if len(raw) > _MAX_LINE:
            raise _fail(
                ln, f"the line is too long ({len(raw):,} characters; at most {_MAX_LINE:,})"
            )
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            lines.append((ln, stripped if not stripped.startswith("|") else raw.lstrip()))
    if not lines or lines[0][1] != f"cardrules record {RECORD_VERSION}":
        raise SaveError(
            "record line 1: not a cardrules record "
            f"(it begins 'cardrules record {RECORD_VERSION}')",
            code="bad_record",
        )
    return lines


def _body(
    lines: list[tuple[int, str]], players: int
) -> tuple[list[_Hand], list[tuple[int, int, int]], tuple[int, str] | None]:
    """The record's lines after its header: its hands (each with its deal and
    actions), the cards drawn as ``(seat, card, line)``, and the result line."""
    hands: list[_Hand] = []
    draws: list[tuple[int, int, int]] = []  # (seat, card, line)
    result: tuple[int, str] | None = None
    for ln, line in lines:
        if result is not None:
            raise _fail(ln, "nothing may follow the result line")
        m = _HAND.fullmatch(line)
        if m:
            stood = sum(1 for h in hands if h.thrown < 0)
            if len(hands) >= 2_000:
                raise _fail(ln, "a game has at most 2,000 hands")
            hands.append(_new_hand(m, ln, stood, players))
            continue
        if line.startswith("result:"):
            result = (ln, line)
            continue
        if not hands:
            raise _fail(ln, f"{line[:40]!r} comes before the first hand")
        _hand_line(hands[-1], draws, ln, line, players)
    return hands, draws, result


def _new_hand(m: re.Match[str], ln: int, before: int, players: int) -> _Hand:
    """The hand a ``hand N, dealt by seat S`` line starts (``before``: the
    hands before it)."""
    if before >= 2_000:
        raise _fail(ln, "a game has at most 2,000 hands")
    number = int(m.group(1))
    if number != before + 1:
        raise _fail(ln, f"hand {number} where hand {before + 1} comes next")
    dealer = _int(m.group(2), ln, "the dealer", 1, players) - 1
    return _Hand(number, dealer, ln)


def _hand_line(
    hand: _Hand, draws: list[tuple[int, int, int]], ln: int, line: str, players: int
) -> None:
    """Read a line of ``hand``: a seat's cards, the turned card, a draw or an action."""
    m = _HOLDS.fullmatch(line)
    if m:
        seat = _int(m.group(1), ln, "the seat", 1, players) - 1
        if seat in hand.hands:
            raise _fail(ln, f"seat {seat + 1}'s hand is given twice")
        hand.hands[seat] = _cards(m.group(2), ln)
        return
    if line.startswith("turned up "):
        hand.turned = int(card(line[10:])) if _cards(line[10:], ln) else -1
        return
    m = _THROWN.fullmatch(line)
    if m:
        if hand.thrown >= 0:
            raise _fail(ln, "a deal is thrown in once")
        hand.thrown = _int(m.group(1), ln, "the seat", 1, players) - 1
        return
    if hand.thrown >= 0:
        raise _fail(ln, "a deal thrown in has no more lines")
    m = _DRAWS.fullmatch(line)
    if m:
        seat = _int(m.group(1), ln, "the seat", 1, players) - 1
        mask = _cards(m.group(2), ln)
        if mask.bit_count() != 1:
            raise _fail(ln, "a player draws one card")
        draws.append((seat, mask.bit_length() - 1, ln))
        return
    m = _ACTION.fullmatch(line)
    if m is None:
        raise _fail(ln, f"{line[:40]!r} is not a line of a record")
    seat = _int(m.group(1), ln, "the seat", 1, players) - 1
    try:
        action = parse_action(m.group(2))
    except InvalidAction as e:
        raise _fail(ln, str(e)) from None
    hand.actions.append((seat, action, ln))


def _replay(
    v: Variant,
    players: int,
    seed: int | None,
    max_tricks: int | None,
    hands: list[_Hand],
    result: tuple[int, str] | None,
    draws: list[tuple[int, int, int]],
) -> Game:
    if not hands:
        raise SaveError("record: a record holds at least its first hand", code="bad_record")
    for hand in hands:
        if len(hand.hands) != players:
            raise _fail(
                hand.line,
                f"hand {hand.number} gives the cards of {len(hand.hands)} of {players} seats",
            )
    if seed is not None:
        # The game as it was made, from its seed alone: equal (``==``) to the
        # game the record was written from, when that game was dealt from its
        # seed. A game dealt from given decks is replayed from the record's deals.
        try:
            from_seed = Game(v, players, seed, max_tricks=max_tricks)
        except CardrulesError as e:
            raise _fail(hands[0].line, f"the game cannot be set up: {e}") from None
        try:
            return _play_hands(from_seed, hands, result, draws)
        except SaveError:
            pass
    decks = [_deck(v, players, h) for h in hands]
    try:
        g = Game(
            v,
            players,
            seed,
            deck=decks,
            first_dealer=hands[0].dealer,
            max_tricks=max_tricks,
            # With the seed, the seed draws (and the lines are checked against it).
            _draws=() if seed is not None else tuple(c for _, c, _ in draws),
        )
    except CardrulesError as e:
        raise _fail(hands[0].line, f"the game cannot be set up: {e}") from None
    return _play_hands(g, hands, result, draws)


def _play_hands(
    g: Game,
    hands: list[_Hand],
    result: tuple[int, str] | None,
    draws: list[tuple[int, int, int]],
) -> Game:
    """Play the record's hands in ``g``, each deal and action checked (a deal
    thrown in, against the deal the game threw in)."""
    for hand in hands:
        if hand.thrown >= 0 and not hand.actions:
            continue  # thrown in as it was dealt (``must be shown``)
        _check_deal(g, hand)
        for seat, action, ln in hand.actions:
            if g.hand_number != hand.number:
                raise _fail(ln, f"hand {hand.number} is over: this action belongs to no hand")
            if seat not in g.waiting_for:
                acting = ", ".join(f"seat {s + 1}" for s in sorted(g.waiting_for))
                raise _fail(ln, f"seat {seat + 1} may not act now: it is the turn of {acting}")
            try:
                g.apply(action, seat)
            except CardrulesError as e:
                raise _fail(ln, f"seat {seat + 1} may not {action.label}: {e}") from None
    _check_thrown(g, hands)
    drawn = [(int(ev[1]), int(ev[2])) for ev in g.events if ev[0] == "draw"]
    for k, (seat, c, ln) in enumerate(draws):
        if k >= len(drawn) or drawn[k] != (seat, c):
            real = (
                f"seat {drawn[k][0] + 1} draws {Card(drawn[k][1])}"
                if k < len(drawn)
                else "nobody draws"
            )
            raise _fail(ln, f"the game does not draw this card here: {real}")
    if len(drawn) > len(draws):
        seat, c = drawn[len(draws)]
        raise SaveError(
            f"record: seat {seat + 1} draws {Card(c)}, which the record does not say",
            code="bad_record",
        )
    if g.hand_number != hands[-1].number and not g.is_over:
        raise SaveError(
            f"record: the actions reach hand {g.hand_number}, which the record does not deal",
            code="bad_record",
        )
    if result is not None:
        wrote = dump(g).rstrip("\n").rsplit("\n", 1)[-1]
        if not wrote.startswith("result:") or wrote != result[1]:
            raise _fail(
                result[0],
                f"the actions give {wrote!r}"
                if wrote.startswith("result:")
                else "the game is not over",
            )
    return g


def _check_thrown(g: Game, hands: list[_Hand]) -> None:
    """The deals the record throws in must be the game's: each one's hand
    number, the seat that shows and the cards."""
    thrown = [h for h in hands if h.thrown >= 0]
    deal: Any = None
    k = 0
    for ev in g.events:
        if ev[0] == "deal":
            deal = ev
        elif ev[0] == "redeal":
            if k >= len(thrown):
                raise SaveError(
                    f"record: hand {ev[1]} is thrown in, which the record does not say",
                    code="bad_record",
                )
            h = thrown[k]
            k += 1
            same = [d.mask for d in deal[4]] == [h.hands.get(s, 0) for s in range(len(deal[4]))]
            if (ev[1], ev[2]) != (h.number, h.thrown) or not same:
                raise _fail(h.line, "the game does not throw in this deal")
    if k < len(thrown):
        raise _fail(thrown[k].line, "the game does not throw in this deal")


def _check_deal(g: Game, hand: _Hand) -> None:
    """The game's deal of ``hand`` must be the record's (the dealer, the cards, the turn-up)."""
    if g.hand_number != hand.number:
        raise _fail(hand.line, f"the game is at hand {g.hand_number}, not hand {hand.number}")
    deal = next(ev for ev in reversed(g.events) if ev[0] == "deal")
    if deal[2] != hand.dealer:
        raise _fail(
            hand.line, f"seat {deal[2] + 1} deals hand {hand.number}, not seat {hand.dealer + 1}"
        )
    for s, dealt in enumerate(deal[4]):
        if dealt.mask != hand.hands.get(s, 0):
            raise _fail(hand.line, f"seat {s + 1}'s cards are not a deal this game can make")
    turned = -1 if g.turned_up is None else int(g.turned_up)
    if turned != hand.turned:
        said = "no card" if hand.turned < 0 else str(Card(hand.turned))
        real = "no card" if turned < 0 else str(Card(turned))
        raise _fail(hand.line, f"hand {hand.number} turns up {real}, not {said} as the record says")
