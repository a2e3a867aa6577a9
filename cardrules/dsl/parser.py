"""Variant file text -> :class:`~cardrules.rules.Variant`.

A variant file is a list of statements, one a line: ``setting: value``. The Lark
grammar (``grammar.lark``) reads them; a Transformer turns each statement into a
:class:`Setting`: the setting's name, where it was written, and the changes it
makes to the frozen attrs classes of :mod:`cardrules.rules`. Applying the
settings of a file, in order, to a base variant (the defaults, or the resolved
parent of an ``extends``) gives the file's variant.

:func:`parse` reads one file on its own (an ``extends`` is recorded, not
followed: :mod:`cardrules.dsl.loader` follows it). Nothing but
:class:`~cardrules.errors.VariantError` escapes from here, whatever the input.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import attrs
from attrs import frozen
from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from cardrules.card_rules import (
    BreakTrigger,
    CardChoice,
    CardSetRule,
    CardTerm,
    TermKind,
    follow_choice,
    lead_choice,
)
from cardrules.cards import SUIT_NAMES, Card, Rank, Suit, card, parse_rank
from cardrules.errors import CardError, VariantError
from cardrules.rules import (
    MAX_SCHEDULE_HANDS,
    BidStyle,
    Counter,
    DeadTricks,
    DealerRule,
    DeckRule,
    Direction,
    EndWhenAllOut,
    FirstDealer,
    FirstLead,
    FirstLeader,
    HandSizeRule,
    LeaderOut,
    LoserTie,
    Mode,
    NamerTie,
    PassTo,
    Pattern,
    PlayerRange,
    ShedLoser,
    SizeEntry,
    SourcePos,
    TakeBacks,
    TakeHand,
    TieBreak,
    TrumpCard,
    TrumpCardKind,
    TrumpKind,
    TrumpNamer,
    TrumpRule,
    Variant,
)
from cardrules.scoring import MAX_COUNTERS

from . import limits
from .errors import KEY_TERMINALS, SETTING_NAMES, did_you_mean, error_at, from_lark, join_words
from .examples import Example, ExampleRules, ExLine, assemble

__all__ = [
    "GRAMMAR_PATH",
    "IDENTITY_SETTINGS",
    "OVERRIDABLE_SETTINGS",
    "ParsedFile",
    "Setting",
    "apply_settings",
    "lark_parser",
    "parse",
    "parse_file",
]

#: The Lark grammar of variant files.
GRAMMAR_PATH: Final = Path(__file__).with_name("grammar.lark")

#: Settings that name a variant; they are never inherited through ``extends``.
IDENTITY_SETTINGS: Final = frozenset({"game", "title", "also called", "summary"})
#: Settings that a variant's ``options:`` line may offer for overriding at load time.
OVERRIDABLE_SETTINGS: Final[tuple[str, ...]] = tuple(
    k for k in SETTING_NAMES if k not in IDENTITY_SETTINGS | {"extends", "options", "mode"}
)

#: ``N`` alone in ``hand size:`` means N cards for any number of players.
ANY_PLAYERS: Final = (1, limits.MAX_PLAYERS)


@frozen
class Setting:
    """One statement of a variant file.

    Attributes:
        key: the setting's canonical name, such as ``hand size``.
        changes: ``(field path, value)`` pairs, such as ``("bidding.hook", False)``.
        pos: where the statement starts.
        value_pos: where its value starts.
    """

    key: str
    changes: tuple[tuple[str, Any], ...]
    pos: SourcePos
    value_pos: SourcePos


@frozen
class ParsedFile:
    """The statements of one variant file, not yet applied to anything.

    ``examples`` are the file's worked examples (also carried by the last
    setting, ``examples``, so that applying the settings sets them).
    """

    path: str
    text: str
    settings: tuple[Setting, ...]
    examples: tuple[Example, ...] = ()

    def get(self, key: str) -> Setting | None:
        """The statement setting ``key``, if the file has one."""
        for s in self.settings:
            if s.key == key:
                return s
        return None

    @property
    def name(self) -> str:
        """The ``game:`` name (``""`` if the file has none)."""
        s = self.get("game")
        return str(s.changes[0][1]) if s else ""

    @property
    def extends(self) -> Setting | None:
        """The ``extends:`` statement, if any."""
        return self.get("extends")


@functools.cache
def lark_parser(strict: bool = False) -> Lark:
    """The Lark parser of variant files (built once).

    Args:
        strict: build in Lark's strict mode (no shift/reduce conflicts, no
            colliding terminals). That check costs about a second, so the library
            builds without it and the test suite builds it strict once.
    """
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        strict=strict,
        maybe_placeholders=False,
    )


# --------------------------------------------------------------------------- the transformer

_PATTERNS: Final = {
    ("down", False): Pattern.DOWN,
    ("down", True): Pattern.DOWN_UP,
    ("up", False): Pattern.UP,
    ("up", True): Pattern.UP_DOWN,
}


def _suit(tok: Token) -> Suit:
    return SUIT_NAMES[str(tok).lower()]


class _Build(ExampleRules, Transformer[Token, Any]):
    """Statements -> :class:`Setting` objects (values checked on the spot), and
    example lines -> :class:`~cardrules.dsl.examples.ExLine` objects."""

    def __init__(self, path: str, text: str) -> None:
        super().__init__(visit_tokens=False)
        self.path = path
        self.text = text
        # The counters this file declares, which its formulas may read.
        self.counters = tuple(sorted({m.lower() for m in _COUNTER_LINE.findall(text)}))

    # ---- helpers
    def _pos(self, tok: Token) -> SourcePos:
        return SourcePos(self.path, tok.line or 1, tok.column or 1)

    def _err(
        self, tok: Token, message: str, expected: str | None = None, hint: str | None = None
    ) -> VariantError:
        return error_at(
            message,
            path=self.path,
            text=self.text,
            line=tok.line or 1,
            column=tok.column or 1,
            expected=expected,
            hint=hint,
        )

    def _int(
        self,
        tok: Token,
        lo: int = 0,
        hi: int = limits.MAX_NUMBER,
        what: str = "",
        shown_lo: int | None = None,
    ) -> int:
        digits = str(tok)
        if len(digits) > len(str(limits.MAX_NUMBER)) or int(digits) > hi:
            raise self._err(
                tok,
                f"{_short(digits)} is too large" + (f" for {what}" if what else ""),
                expected=f"a number from {lo if shown_lo is None else shown_lo} to {hi}",
            )
        value = int(digits)
        if value < lo:
            raise self._err(
                tok,
                f"{value} is too small" + (f" for {what}" if what else ""),
                expected=f"a number from {lo} to {hi}",
            )
        return value

    def _setting(self, c: Sequence[Any], *changes: tuple[str, Any]) -> Setting:
        key_tok: Token = c[0]
        value_tok = next((t for t in _tokens(c[2:])), key_tok)
        return Setting(
            KEY_TERMINALS[key_tok.type], tuple(changes), self._pos(key_tok), self._pos(value_tok)
        )

    def _text(self, tok: Token, what: str) -> str:
        raw = str(tok)[1:-1]
        out: list[str] = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                i += 1
                ch = raw[i]
            out.append(ch)
            i += 1
        return self._checked_text(tok, "".join(out), what)

    # ---- identity
    def game(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        if len(tok) > limits.MAX_NAME_LENGTH:
            raise self._err(
                tok,
                "the game name is too long",
                expected=f"at most {limits.MAX_NAME_LENGTH} characters",
            )
        return self._setting(c, ("name", str(tok)))

    def title(self, c: list[Any]) -> Setting:
        return self._setting(c, ("title", self._text(c[2], "title")))

    def summary(self, c: list[Any]) -> Setting:
        return self._setting(c, ("summary", self._text(c[2], "summary")))

    def also_called(self, c: list[Any]) -> Setting:
        toks = [t for t in _tokens(c[2:]) if t.type == "STRING"]
        names: list[str] = []
        for t in toks:
            name = self._text(t, "name")
            if name in names:
                raise self._err(t, f"{name!r} is listed twice")
            names.append(name)
        if len(names) > 50:
            raise self._err(toks[50], "too many other names", expected="at most 50")
        return self._setting(c, ("aliases", tuple(names)))

    def extends(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        if tok.type == "STRING":
            target = self._text(tok, "file name")
            if not target.strip():
                raise self._err(tok, "the file name is empty")
            return self._setting(c, ("parent", target), ("@path", True), ("examples", ()))
        # A file's examples prove its own rules: a parent's are not inherited.
        return self._setting(c, ("parent", str(tok)), ("@path", False), ("examples", ()))

    def mode(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        return self._setting(c, ("mode", Mode.TRICKS if tok.type == "V_TRICKS" else Mode.SHEDDING))

    def players(self, c: list[Any]) -> Setting:
        nums = [t for t in _tokens(c[2:]) if t.type == "INT"]
        lo = self._int(nums[0], 0, limits.MAX_PLAYERS, "players", shown_lo=2)
        hi = self._int(nums[-1], 0, limits.MAX_PLAYERS, "players", shown_lo=2)
        if lo < 2:
            raise self._err(nums[0], "a game needs at least 2 players", expected="2 or more")
        if hi < lo:
            raise self._err(
                nums[-1],
                f"the most players ({hi}) is fewer than the fewest ({lo})",
                expected=f"a number from {lo} to {limits.MAX_PLAYERS}",
            )
        return self._setting(c, ("players", PlayerRange(lo, hi)))

    def deck(self, c: list[Any]) -> Setting:
        removed = 0
        lowest = 2
        if isinstance(c[2], int):
            # A short pack by rank: `9 to ace` (each suit from the 9 up to the ace).
            to: Token = c[3]
            if c[4] != 14:
                raise self._err(
                    to,
                    "a pack by rank runs up to the ace",
                    expected="the lowest rank, then `to ace`, such as `9 to ace`",
                )
            if c[2] == 14:
                raise self._err(
                    c[0], "a pack of aces only is too short", expected="such as `9 to ace`"
                )
            lowest = c[2]
        jokers = 0
        toks = list(_tokens(c[2:]))
        for i, t in enumerate(toks):
            if t.type == "V_JOKERS":
                n = toks[i - 1]
                jokers = self._int(n, 1, 2, "a number of jokers")
                toks[i - 1 : i + 1] = []
                break
        pack = DeckRule(lowest=lowest, jokers=jokers).cards

        def mask_of(cards: Iterable[Token]) -> int:
            removed = 0
            for t in cards:
                k = card(str(t))
                if removed >> k & 1:
                    raise self._err(t, f"{k} is taken out twice")
                if k not in pack:
                    if k.is_joker:
                        raise self._err(
                            t,
                            f"{k} is not in this pack",
                            expected="a card of the pack (`with 2 jokers` adds LJ and BJ)",
                        )
                    raise self._err(
                        t,
                        f"{k} is not in a pack of {Rank(lowest).label} to ace",
                        expected=f"a card from {Rank(lowest).label} to ace",
                    )
                removed |= 1 << k
            return removed

        for t in toks:
            if t.type == "INT" and str(t) != "52":
                raise self._err(
                    t,
                    f"only the standard 52-card pack is known, not {_short(str(t))}",
                    expected="`standard 52`, then `without` and the cards to take out",
                )
        lists = [x for x in c[2:] if isinstance(x, list)]
        fors = [x for x in c[2:] if isinstance(x, tuple)]
        if lists:
            removed = mask_of(lists[0])
        by_count: list[tuple[int, int, int]] = []
        for cards, lo_tok, hi_tok in fors:
            lo = self._int(lo_tok, 2, limits.MAX_PLAYERS, "players")
            hi = lo if hi_tok is None else self._int(hi_tok, lo, limits.MAX_PLAYERS, "players")
            if any(a <= hi and lo <= b for a, b, _ in by_count):
                raise self._err(
                    lo_tok,
                    f"the cards out for {lo if lo == hi else f'{lo} to {hi}'} players are "
                    "already given",
                    hint="give each number of players once",
                )
            by_count.append((lo, hi, mask_of(cards)))
        return self._setting(
            c,
            ("deck", DeckRule(removed, lowest, jokers, removed_for=tuple(sorted(by_count)))),
        )

    def deck_cards(self, c: list[Any]) -> list[Token]:
        return list(_tokens(c))

    def deck_for(self, c: list[Any]) -> tuple[list[Token], Token, Token | None]:
        ints = [t for t in _tokens(c[1:]) if t.type == "INT"]
        return c[0], ints[0], ints[1] if len(ints) > 1 else None

    def direction(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        d = Direction.CLOCKWISE if tok.type == "V_CLOCKWISE" else Direction.ANTICLOCKWISE
        return self._setting(c, ("direction", d))

    # ---- dealing
    def first_dealer(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        if tok.type == "V_RANDOM":
            rule = DealerRule(FirstDealer.RANDOM)
        elif tok.type == "V_CUT":
            rule = DealerRule(FirstDealer.CUT)
        else:
            seat = self._int(c[3], 1, limits.MAX_PLAYERS, "a seat")
            rule = DealerRule(FirstDealer.SEAT, seat - 1)
        return self._setting(c, ("dealer", rule))

    def deal_passes(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        return self._setting(c, ("match.loser_deals", tok.type == "V_TO_LOSER"))

    def size_entry(self, c: list[Any]) -> tuple[Token, str, Any]:
        size = self._int(c[0], 1, limits.MAX_PLAYERS, "a hand")
        if len(c) == 1:
            return (c[0], "entry", SizeEntry(*ANY_PLAYERS, size))
        lo = self._int(c[2], 1, limits.MAX_PLAYERS, "players")
        if c[3].type == "TO":
            hi = self._int(c[4], 1, limits.MAX_PLAYERS, "players")
            if hi < lo:
                raise self._err(c[4], f"{hi} is fewer than {lo}", expected=f"{lo} or more")
        elif c[3].type == "V_OR_MORE":
            hi = limits.MAX_PLAYERS
        else:
            hi = lo
        return (c[0], "entry", SizeEntry(lo, hi, size))

    def size_largest(self, c: list[Any]) -> tuple[Token, str, Any]:
        return (c[0], "largest", True)

    def size_keep_one(self, c: list[Any]) -> tuple[Token, str, Any]:
        return (c[0], "keep one", True)

    def size_cap(self, c: list[Any]) -> tuple[Token, str, Any]:
        return (c[0], "cap", self._int(c[1], 1, limits.MAX_PLAYERS, "a hand"))

    def hand_size(self, c: list[Any]) -> Setting:
        items = [x for x in c[2:] if isinstance(x, tuple)]
        table: list[SizeEntry] = []
        seen: dict[str, Token] = {}
        for tok, kind, value in items:
            if kind == "entry":
                for other in table:
                    if (
                        value.min_players <= other.max_players
                        and other.min_players <= value.max_players
                    ):
                        both = max(value.min_players, other.min_players)
                        raise self._err(
                            tok,
                            f"two hand sizes are given for {both} players",
                            hint="give each number of players one size",
                        )
                table.append(value)
            elif kind in seen:
                raise self._err(tok, f"`{_SIZE_WORDS[kind]}` is given twice")
            else:
                seen[kind] = tok
        largest = "largest" in seen
        for kind in ("keep one", "cap"):
            if kind in seen and not largest:
                raise self._err(
                    seen[kind],
                    f"`{_SIZE_WORDS[kind]}` only applies to `largest`",
                    hint="add `largest`, as in `hand size: largest, keep one for trumps`",
                )
        cap = next((v for _, k, v in items if k == "cap"), None)
        rule = HandSizeRule(tuple(table), largest, "keep one" in seen, cap)
        return self._setting(c, ("schedule.start", rule))

    def pattern_down(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (_PATTERNS["down", len(c) > 2], 1, ())

    def pattern_up(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (_PATTERNS["up", len(c) > 2], 1, ())

    def pattern_same(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (Pattern.SAME, self._int(c[0], 1, MAX_SCHEDULE_HANDS, "a game"), ())

    def pattern_whole_pack(self, c: list[Any]) -> tuple[Pattern, int, tuple[int, ...]]:
        return (Pattern.WHOLE_PACK, 1, ())

    def repeat(self, c: list[Any]) -> int:
        if c[0].type == "V_TWICE":
            return 2
        return self._int(c[0], 1, MAX_SCHEDULE_HANDS, "repeats")

    def hands(self, c: list[Any]) -> Setting:
        rest = c[2:]
        repeat = next((x for x in rest if isinstance(x, int) and not isinstance(x, Token)), 1)
        if isinstance(rest[0], tuple):
            pattern, count, sizes = rest[0]
        else:
            nums = [t for t in _tokens(rest) if t.type == "INT"]
            if len(nums) > MAX_SCHEDULE_HANDS:
                raise self._err(
                    nums[MAX_SCHEDULE_HANDS],
                    "too many hands",
                    expected=f"at most {MAX_SCHEDULE_HANDS}",
                )
            pattern, count = Pattern.LIST, 1
            sizes = tuple(self._int(t, 1, limits.MAX_PLAYERS, "a hand") for t in nums)
        return self._setting(
            c,
            ("schedule.pattern", pattern),
            ("schedule.count", count),
            ("schedule.sizes", sizes),
            ("schedule.repeat", repeat),
        )

    # ---- trumps
    def cycle_item(self, c: list[Any]) -> tuple[Token, Suit | None]:
        tok: Token = c[0]
        return (tok, _suit(tok) if tok.type == "SUIT" else None)

    def trumps(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        namer = TrumpNamer.NOBODY
        if any(t.type == "V_THEN_NAMED" for t in _tokens(c[3:])):
            namer = TrumpNamer.MOST_TRICKS
        if tok.type == "V_NAMED_BY_BIDDER":
            rule = TrumpRule(TrumpKind.NONE)
            namer = TrumpNamer.HIGHEST_BIDDER
        elif tok.type == "V_ORDER_UP":
            rule = TrumpRule(TrumpKind.TURN_UP, none_when_pack_empty=True)
            namer = TrumpNamer.ORDER_UP
        elif tok.type == "V_DEALERS_CARD":
            rule = TrumpRule(TrumpKind.DEALERS_CARD)
        elif tok.type in ("V_NONE", "NO_TRUMPS"):
            rule = TrumpRule(TrumpKind.NONE)
        elif tok.type == "SUIT":
            rule = TrumpRule(TrumpKind.FIXED, suit=_suit(tok))
        elif tok.type == "V_TURNED_UP":
            empty_ok = any(t.type == "V_NONE_WHEN_EMPTY" for t in _tokens(c[3:]))
            rule = TrumpRule(TrumpKind.TURN_UP, none_when_pack_empty=empty_ok)
        else:
            items = [x for x in c[3:] if isinstance(x, tuple)]
            if len(items) > limits.MAX_LIST_ITEMS:
                raise self._err(items[-1][0], "the cycle is too long")
            rule = TrumpRule(TrumpKind.CYCLE, cycle=tuple(s for _, s in items))
        return self._setting(
            c,
            ("trumps.kind", rule.kind),
            ("trumps.suit", rule.suit),
            ("trumps.cycle", rule.cycle),
            ("trumps.none_when_pack_empty", rule.none_when_pack_empty),
            ("trumps.namer", namer),
        )

    def stick_dealer(self, c: list[Any]) -> Setting:
        return self._setting(c, ("trumps.stick_dealer", _bool(c[2])))

    def going_alone(self, c: list[Any]) -> Setting:
        return self._setting(c, ("trumps.going_alone", _bool(c[2])))

    def defending_alone(self, c: list[Any]) -> Setting:
        return self._setting(c, ("trumps.defend_alone", _bool(c[2])))

    def keep_turned(self, c: list[Any]) -> Setting:
        return self._setting(c, ("trumps.keep_turned", _bool(c[2])))

    def name_no_trumps(self, c: list[Any]) -> Setting:
        return self._setting(c, ("trumps.name_no_trumps", _bool(c[2])))

    def trump_ties(self, c: list[Any]) -> Setting:
        tie = NamerTie.CUT if c[2].type == "V_A_CUT" else NamerTie.FIRST_IN_TURN
        return self._setting(c, ("trumps.namer_tie", tie))

    def no_trumps(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        if tok.type == "V_NEVER":
            return self._setting(c, ("trumps.no_trump_every", None))
        ordinal: Token = c[3]
        digits = "".join(ch for ch in str(ordinal) if ch.isdigit())
        num = Token("INT", digits, line=ordinal.line, column=ordinal.column)
        every = self._int(num, 2, MAX_SCHEDULE_HANDS, "a hand number")
        return self._setting(c, ("trumps.no_trump_every", every))

    def trump_order(self, c: list[Any]) -> Setting:
        entries: list[TrumpCard] = []
        for tok in _tokens(c[2:]):
            if tok.type == "V_USUAL":
                break
            if tok.type == "CARD":
                entry = TrumpCard(TrumpCardKind.CARD, card=card(str(tok)))
            else:
                words = str(tok).split()
                kind = (
                    TrumpCardKind.OF_TRUMPS
                    if words[-1].lower() == "trumps"
                    else TrumpCardKind.SAME_COLOUR
                )
                entry = TrumpCard(kind, rank=int(parse_rank(words[0])))
            if entry in entries:
                raise self._err(tok, f"{entry} is named twice")
            if len(entries) >= limits.MAX_LIST_ITEMS:
                raise self._err(tok, "the trump order is too long")
            entries.append(entry)
        return self._setting(c, ("trumps.order", tuple(entries)))

    # ---- passing
    def pass_to(self, c: list[Any]) -> tuple[Token, PassTo]:
        tok: Token = c[0]
        kinds = {
            "V_LEFT": PassTo.LEFT,
            "V_RIGHT": PassTo.RIGHT,
            "V_ACROSS": PassTo.ACROSS,
            "V_NONE": PassTo.NONE,
        }
        return (tok, kinds[tok.type])

    def passing(self, c: list[Any]) -> Setting:
        if not isinstance(c[2], Token) or c[2].type == "V_NONE":
            return self._setting(c, ("passing.count", 0), ("passing.cycle", ()))
        count = self._int(c[2], 1, limits.MAX_PASS_CARDS, "the cards passed")
        items = [x for x in c[3:] if isinstance(x, tuple)]
        if len(items) > limits.MAX_LIST_ITEMS:
            raise self._err(items[-1][0], "the cycle of passes is too long")
        cycle = tuple(to for _, to in items)
        if all(to is PassTo.NONE for to in cycle):
            raise self._err(
                items[0][0],
                "every hand of this cycle has no pass",
                expected="a direction: left, right or across (or `pass: none`)",
            )
        return self._setting(c, ("passing.count", count), ("passing.cycle", cycle))

    # ---- bidding
    def bidding(self, c: list[Any]) -> Setting:
        styles = {
            "V_NONE": BidStyle.NONE,
            "V_IN_TURN": BidStyle.IN_TURN,
            "V_ALL_AT_ONCE": BidStyle.SIMULTANEOUS,
        }
        return self._setting(c, ("bidding.style", styles[c[2].type]))

    def hook(self, c: list[Any]) -> Setting:
        return self._setting(c, ("bidding.hook", _bool(c[2])))

    def blind_bids(self, c: list[Any]) -> Setting:
        if c[2].type == "V_ONLY":
            values: list[int] = []
            for tok in _tokens(c[3:]):
                n = self._int(tok, 0, 52, "a blind bid")
                if n in values:
                    raise self._err(tok, f"{n} is given twice")
                values.append(n)
            return self._setting(
                c, ("bidding.blind", True), ("bidding.blind_only", tuple(sorted(values)))
            )
        return self._setting(c, ("bidding.blind", _bool(c[2])), ("bidding.blind_only", ()))

    def bid_changes(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        return self._setting(c, ("bidding.amend", tok.type == "V_UNTIL_NEXT_BID" or _bool(tok)))

    def team_bids(self, c: list[Any]) -> Setting:
        return self._setting(c, ("bidding.one_per_team", c[2].type == "V_ONE_PER_SIDE"))

    def bids(self, c: list[Any]) -> Setting:
        lo = self._int(c[2], 0, limits.MAX_PLAYERS, "a bid")
        hi: int | None = None
        if c[4].type == "INT":
            hi = self._int(c[4], 0, limits.MAX_PLAYERS, "a bid")
            if hi < lo:
                raise self._err(c[4], f"{hi} is less than {lo}", expected=f"{lo} or more")
        return self._setting(c, ("bidding.min_bid", lo), ("bidding.max_bid", hi))

    def forehead_hands(self, c: list[Any]) -> Setting:
        sizes: list[int] = []
        for t in _tokens(c[2:]):
            if t.type == "INT":
                n = self._int(t, 1, limits.MAX_PLAYERS, "a hand")
                if n in sizes:
                    raise self._err(t, f"{n} is listed twice")
                sizes.append(n)
        return self._setting(c, ("bidding.forehead_sizes", tuple(sizes)))

    # ---- play
    def first_lead(self, c: list[Any]) -> Setting:
        toks = list(_tokens(c[2:]))
        others: list[Card] = []
        if toks[0].type == "V_DEALERS_NEIGHBOUR":
            leader, lead_card, lead = FirstLeader.DEALER_NEXT, None, FirstLead.ANY
        else:
            lead_card = card(str(toks[1]))
            leader, lead = FirstLeader.HOLDER, FirstLead.CARD
            # `holder of 2♣ otherwise 3♣ leads it`: the cards that take its place.
            for t in toks[2:]:
                if t.type == "CARD":
                    k = card(str(t))
                    if k == lead_card or k in others:
                        raise self._err(t, f"{k} is named twice")
                    others.append(k)
            toks = [t for t in toks if t.type not in ("CARD", "V_OTHERWISE")]
            toks = [toks[0], toks[0], *toks[1:]]  # the layout below: [holder, card, ...]
            if len(toks) > 2 and toks[2].type == "V_LEADS_ANY":
                lead = FirstLead.ANY
                if toks[3].type == "SUIT":
                    lead = FirstLead.SUIT
                    suit = _suit(toks[3])
                    for k in (lead_card, *others):
                        if suit is not k.suit:
                            singular = k.suit.word[:-1]
                            raise self._err(
                                toks[3],
                                f"{k} is not one of the {suit.word}",
                                expected=f"`leads any {singular}` or `leads any card`",
                            )
        else_cards = tuple(others)
        return self._setting(
            c,
            ("play.first_leader", leader),
            ("play.lead_card", lead_card),
            ("play.first_lead", lead),
            ("play.lead_card_else", else_cards),
        )

    # ---- card-set rules
    def rank(self, c: list[Any]) -> int:
        tok: Token = c[0]
        text = str(tok).lower()
        if tok.type == "RANK_WORD":
            return _RANK_WORDS[text[0]]
        value = self._int(tok, 2, 14, "a rank")
        if not 2 <= value <= 10:
            raise self._err(
                tok, f"there is no rank {value}", expected="a rank from 2 to 10, J, Q, K or A"
            )
        return value

    def term_body(self, c: list[Any]) -> CardTerm:
        tok: Token = c[0]
        kind = tok.type
        if kind == "V_ANY_CARD":
            return CardTerm(TermKind.ANY)
        if kind == "V_SUIT_LED":
            return CardTerm(TermKind.SUIT_LED)
        if kind == "K_TRUMPS":
            return CardTerm(TermKind.TRUMPS)
        if kind == "V_WINNING":
            return CardTerm(TermKind.WINNING)
        if kind == "SUIT":
            return CardTerm(TermKind.SUIT, suit=_suit(tok))
        if kind == "CARD":
            return CardTerm(TermKind.CARD, card=card(str(tok)))
        higher = kind == "V_HIGHER_THAN"
        return CardTerm(TermKind.HIGHER if higher else TermKind.LOWER, rank=c[1])

    def card_term(self, c: list[Any]) -> CardTerm:
        body: CardTerm = c[-1]
        words = {t.type for t in c[:-1] if isinstance(t, Token)}
        return attrs.evolve(body, negated="V_NOT" in words, unbroken="V_UNBROKEN" in words)

    def card_set(self, c: list[Any]) -> CardSetRule:
        terms: list[CardTerm] = [c[0]]
        for i in range(1, len(c), 2):
            term: CardTerm = c[i + 1]
            if c[i].type == "V_EXCEPT":
                term = attrs.evolve(term, negated=not term.negated)
            terms.append(term)
        return CardSetRule(tuple(terms))

    def card_choice(self, c: list[Any]) -> CardChoice:
        options = tuple(x for x in c if isinstance(x, CardSetRule))
        if len(options) > limits.MAX_CHOICE_OPTIONS:
            raise self._err(
                c[0] if isinstance(c[0], Token) else _first_token(c),
                f"a card rule may list at most {limits.MAX_CHOICE_OPTIONS} sets",
            )
        return CardChoice(options)

    def break_trigger(self, c: list[Any]) -> BreakTrigger:
        return {
            "V_ANY_PLAY": BreakTrigger.ANY_PLAY,
            "V_VOID_PLAY": BreakTrigger.VOID_PLAY,
            "V_FORCED_LEAD": BreakTrigger.FORCED_LEAD,
        }[c[0].type]

    def lead(self, c: list[Any]) -> Setting:
        return self._setting(c, ("play.lead", c[2]))

    def first_trick(self, c: list[Any]) -> Setting:
        return self._setting(c, ("play.first_trick", c[2]))

    def broken_by(self, c: list[Any]) -> Setting:
        triggers = tuple(dict.fromkeys(x for x in c[2:] if isinstance(x, BreakTrigger)))
        return self._setting(c, ("play.broken_by", triggers))

    def break_card(self, c: list[Any]) -> tuple[Token, list[tuple[Card, Suit]]]:
        tok: Token = c[0]
        k = card(str(tok))
        return tok, [(k, _suit(t)) for t in c[2:] if isinstance(t, Token) and t.type == "SUIT"]

    def breaking_cards(self, c: list[Any]) -> Setting:
        pairs: list[tuple[Card, Suit]] = []
        for tok, items in (x for x in c[2:] if isinstance(x, tuple)):
            for pair in items:
                if pair in pairs:
                    raise self._err(tok, f"{pair[0]} breaks {pair[1].word} twice")
                if pair[1] == pair[0].suit:
                    raise self._err(
                        tok,
                        f"{pair[0]} breaks {pair[1].word} anyway: it is one of them",
                        expected="another suit than the card's own",
                    )
                pairs.append(pair)
        return self._setting(c, ("play.also_breaks", tuple(sorted(pairs))))

    def leader_out(self, c: list[Any]) -> Setting:
        out = {
            "V_NEXT_PLAYER_IN": LeaderOut.NEXT_IN,
            "V_NEXT_HIGHEST": LeaderOut.NEXT_HIGHEST,
            "V_DRAWS_DEAD": LeaderOut.DRAWS,
        }[c[2].type]
        return self._setting(c, ("play.leader_out", out))

    def follow(self, c: list[Any]) -> Setting:
        if isinstance(c[2], CardChoice):
            return self._setting(c, ("play.follow", c[2]))
        toks = list(_tokens(c[2:]))
        kinds = [t.type for t in toks]
        for i, t in enumerate(toks):
            if t.type in kinds[:i]:
                raise self._err(t, f"`{str(t).strip()}` is given twice")
        rule = follow_choice(
            must_follow="V_MUST_FOLLOW" in kinds,
            must_trump="V_MUST_TRUMP" in kinds,
            must_beat="V_MUST_BEAT" in kinds,
        )
        return self._setting(c, ("play.follow", rule))

    def leading_trumps(self, c: list[Any]) -> Setting:
        rule = lead_choice(trumps_once_broken=c[2].type != "V_ANY_TIME")
        return self._setting(c, ("play.lead", rule))

    # ---- shedding
    def dead_tricks(self, c: list[Any]) -> Setting:
        dead = DeadTricks.FACE_UP if c[2].type == "V_FACE_UP" else DeadTricks.FACE_DOWN
        return self._setting(c, ("shedding.dead_tricks", dead))

    def all_out(self, c: list[Any]) -> Setting:
        out = EndWhenAllOut.NO_LOSER if c[2].type == "V_NO_LOSER" else EndWhenAllOut.LAST_LEADER
        return self._setting(c, ("shedding.all_out", out))

    def loser(self, c: list[Any]) -> Setting:
        kinds = [t.type for t in _tokens(c[2:])]
        if kinds[0] == "V_LAST_HOLDING":
            return self._setting(
                c,
                ("shedding.loser", ShedLoser.LAST_HOLDING),
                ("shedding.loser_tie", LoserTie.NO_LOSER),
            )
        tie = LoserTie.FIRST_IN_TURN if "V_FIRST_IN_TURN" in kinds else LoserTie.NO_LOSER
        return self._setting(
            c, ("shedding.loser", ShedLoser.MOST_CARDS), ("shedding.loser_tie", tie)
        )

    def first_trick_cuts(self, c: list[Any]) -> Setting:
        return self._setting(c, ("shedding.first_trick_cuts", _bool(c[2])))

    def take_hand(self, c: list[Any]) -> Setting:
        take = {
            "V_NONE": TakeHand.NONE,
            "V_NEXT_PLAYER_IN": TakeHand.NEXT,
            "V_PREVIOUS_PLAYER_IN": TakeHand.PREVIOUS,
        }[c[2].type]
        return self._setting(c, ("shedding.take_hand", take))

    def match_word(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        word = str(tok).upper()
        if word == "NONE":
            word = ""
        if len(word) > limits.MAX_WORD_LENGTH:
            raise self._err(
                tok,
                "the match word is too long",
                expected=f"at most {limits.MAX_WORD_LENGTH} letters",
            )
        return self._setting(c, ("match.word", word))

    # ---- the table
    def take_backs(self, c: list[Any]) -> Setting:
        policy = {
            "V_NEVER": TakeBacks.NEVER,
            "V_UNTIL_NEXT_ACTS": TakeBacks.NEXT_ACTION,
            "V_UNTIL_TRICK_DONE": TakeBacks.TRICK,
            "V_BEFORE_HAND_ENDS": TakeBacks.HAND,
        }[c[2].type]
        return self._setting(c, ("take_backs", policy))

    # ---- scoring and winning
    def points_item(self, c: list[Any]) -> tuple[Token, tuple[int, ...], int]:
        """``hearts 1`` or ``Q♠ 13``: (the token, the cards it names, their points)."""
        tok: Token = c[0]
        num: Token = c[1]
        text = str(num)
        lo, hi = -limits.MAX_CARD_POINTS, limits.MAX_CARD_POINTS
        if not re.fullmatch(r"-?[0-9]{1,6}", text) or not lo <= int(text) <= hi:
            raise self._err(
                num,
                f"{_short(text)} cannot be the points of a card",
                expected=f"a whole number from {lo} to {hi}",
            )
        if tok.type == "SUIT":
            suit = int(_suit(tok))
            cards = tuple(range(13 * suit, 13 * suit + 13))
        else:
            cards = (int(card(str(tok))),)
        return (tok, cards, int(text))

    def card_points(self, c: list[Any]) -> Setting:
        items = [x for x in c[2:] if isinstance(x, tuple)]
        # 52 values; 54 when a joker is given points (jokers, cards 52 and 53).
        values = [0] * (54 if any(k >= 52 for it in items for k in it[1]) else 52)
        seen: set[str] = set()
        # Suits first, then cards: a card named on its own overrides its suit.
        for tok, cards, value in sorted(items, key=lambda it: len(it[1]) == 1):
            key = str(cards) if len(cards) > 1 else str(cards[0])
            if key in seen:
                raise self._err(tok, f"`{str(tok).strip()}` is given points twice")
            seen.add(key)
            for k in cards:
                values[k] = value
        if not any(values):
            raise self._err(
                items[0][0],
                "these card points give no card any points",
                expected="a suit or a card with points other than 0, such as `hearts 1`",
            )
        return self._setting(c, ("scoring.card_points", tuple(values)))

    def target(self, c: list[Any]) -> Setting:
        most = limits.MAX_TARGET
        return self._setting(c, ("winning.target", self._int(c[2], 1, most, "a target")))

    def score(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        return self._setting(c, ("scoring.formula", self._formula(tok)))

    def team_item(self, c: list[Any]) -> tuple[Token, tuple[int, ...]]:
        nums = [t for t in c if isinstance(t, Token) and t.type == "INT"]
        seats = [self._int(t, 1, limits.MAX_PLAYERS, "a seat") - 1 for t in nums]
        return (nums[0], tuple(seats))

    def teams(self, c: list[Any]) -> Setting:
        items: list[tuple[Token, tuple[int, ...]]] = [x for x in c[2:] if isinstance(x, tuple)]
        seen: set[int] = set()
        for tok, seats in items:
            for s in seats:
                if s in seen:
                    raise self._err(
                        tok,
                        f"seat {s + 1} is in two teams, or twice in one",
                        hint="name every seat once, as in `teams: 1 and 3, 2 and 4`",
                    )
                seen.add(s)
        n = len(seen)
        missing = sorted(set(range(n)) - seen)
        if missing:
            raise self._err(
                items[0][0],
                f"the teams name {n} seats but not seat {missing[0] + 1}",
                expected=f"every seat from 1 to {n} in exactly one team",
            )
        teams = tuple(sorted(tuple(sorted(seats)) for _, seats in items))
        return self._setting(c, ("teams", teams))

    def team_score(self, c: list[Any]) -> Setting:
        tok: Token = c[2]
        return self._setting(c, ("scoring.team_formula", self._formula(tok)))

    def counter(self, c: list[Any]) -> Setting:
        name_tok: Token = c[1]
        name = str(name_tok)
        if name != name.lower():
            raise self._err(
                name_tok, "a counter's name is written in lower case", expected=name.lower()
            )
        from cardrules.scoring import FUNCTIONS, VARIABLES

        if name in VARIABLES or name in FUNCTIONS or name in _FORMULA_WORDS:
            raise self._err(
                name_tok,
                f"{name!r} is already a word of the formulas, so it cannot name a counter",
                hint="choose another name, such as bags",
            )
        counter = Counter(name, self._formula(c[3]))
        # "+": added to the counters so far (a counter of the same name replaced).
        return self._setting(c, ("scoring.counters+", (counter,)))

    def _formula(self, tok: Token) -> Any:
        from cardrules.scoring import parse_formula

        line = tok.line or 1
        try:
            return parse_formula(
                str(tok).rstrip(),
                counters=self.counters,
                path=self.path,
                line=line,
                column=tok.column or 1,
                source_line=_source_line(self.text, line),
            )
        except VariantError:
            raise
        except (RecursionError, MemoryError, ValueError, TypeError, LarkError) as exc:
            raise self._err(tok, f"cannot read the score formula ({type(exc).__name__})") from None

    def winner(self, c: list[Any]) -> Setting:
        kind = c[2].type
        return self._setting(
            c,
            ("scoring.higher_wins", kind != "V_LOWEST_TOTAL"),
            ("winning.last_one_in", kind == "V_LAST_ONE_IN"),
        )

    def knocked_out(self, c: list[Any]) -> Setting:
        if c[2].type == "V_NO_TRICKS":
            return self._setting(c, ("winning.knockout_below", 1))
        most = limits.MAX_KNOCKOUT_TRICKS
        return self._setting(
            c, ("winning.knockout_below", self._int(c[3], 1, most, "a number of tricks"))
        )

    def tie(self, c: list[Any]) -> Setting:
        if c[2].type == "V_SHARED":
            return self._setting(
                c, ("winning.tie", TieBreak.SHARED), ("winning.max_extra_hands", None)
            )
        most: int | None = None
        if len(c) > 3:
            most = self._int(c[-1], 1, MAX_SCHEDULE_HANDS, "extra hands")
        return self._setting(
            c, ("winning.tie", TieBreak.EXTRA_HANDS), ("winning.max_extra_hands", most)
        )

    def options(self, c: list[Any]) -> Setting:
        toks = [t for t in _tokens(c[2:]) if t.type == "OPTION"]
        names: list[str] = []
        if len(toks) == 1 and str(toks[0]).strip().lower() == "none":
            return self._setting(c, ("options", ()))
        if len(toks) > limits.MAX_OPTIONS:
            raise self._err(toks[limits.MAX_OPTIONS], "too many options")
        for t in toks:
            name = " ".join(str(t).replace("_", " ").lower().split())
            if name not in OVERRIDABLE_SETTINGS:
                why = (
                    f"{name!r} cannot be an option: it names the game"
                    if name in SETTING_NAMES
                    else f"{name!r} is not a setting"
                )
                raise self._err(
                    t,
                    why,
                    expected="settings such as " + join_words(OVERRIDABLE_SETTINGS[:6]),
                    hint=did_you_mean(name, OVERRIDABLE_SETTINGS),
                )
            if name in names:
                raise self._err(t, f"{name!r} is listed twice")
            names.append(name)
        return self._setting(c, ("options", tuple(names)))

    def start(self, c: list[Any]) -> list[Setting | ExLine]:
        return [x for x in c if isinstance(x, Setting | ExLine)]


_SIZE_WORDS: Final = {"largest": "largest", "keep one": "keep one for trumps", "cap": "at most"}


_RANK_WORDS: Final = {"j": 11, "q": 12, "k": 13, "a": 14}


def _first_token(items: Iterable[Any]) -> Token:
    for x in items:
        if isinstance(x, Token):
            return x
        if isinstance(x, Tree):
            return _first_token(x.children)
    raise ValueError("no token")


def _tokens(items: Iterable[Any]) -> Iterable[Token]:
    return (x for x in items if isinstance(x, Token) and x.type not in ("COMMA", "COLON"))


def _bool(tok: Token) -> bool:
    return str(tok).lower() in ("yes", "on", "true")


def _short(digits: str) -> str:
    return digits if len(digits) <= 12 else digits[:6] + "..." + f" ({len(digits)} digits)"


def _source_line(text: str, line: int) -> str | None:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else None


# --------------------------------------------------------------------------- parsing


def _check_size(text: str, path: str) -> None:
    if (
        len(text) > limits.MAX_FILE_BYTES
        or len(text.encode("utf-8", "surrogatepass")) > limits.MAX_FILE_BYTES
    ):
        raise VariantError(
            f"the file is too large ({len(text):,} characters)",
            path=path,
            expected=f"at most {limits.MAX_FILE_BYTES:,} bytes",
            code="variant_too_large",
        )
    n_lines = text.count("\n") + 1
    if n_lines > limits.MAX_LINES:
        raise VariantError(
            f"the file has too many lines ({n_lines:,})",
            path=path,
            line=limits.MAX_LINES + 1,
            expected=f"at most {limits.MAX_LINES:,} lines",
            code="variant_too_large",
        )
    for i, line in enumerate(text.split("\n"), 1):
        if len(line) > limits.MAX_LINE_LENGTH:
            raise error_at(
                f"line {i} is too long ({len(line):,} characters)",
                path=path,
                text=text,
                line=i,
                column=limits.MAX_LINE_LENGTH + 1,
                expected=f"at most {limits.MAX_LINE_LENGTH:,} characters a line",
                code="variant_too_large",
            )
    bad = _SURROGATE.search(text)
    if bad is not None:
        at = bad.start()
        line_no = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise error_at(
            "the text holds an invalid character",
            path=path,
            text=text,
            line=line_no,
            column=column,
            code="syntax",
        )


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def normalize_text(text: str | bytes, path: str) -> str:
    """Decode (UTF-8, BOM allowed) and normalise newlines; refuse oversized input."""
    if isinstance(text, bytes | bytearray):
        if len(text) > limits.MAX_FILE_BYTES:
            raise VariantError(
                f"the file is too large ({len(text):,} bytes)",
                path=path,
                expected=f"at most {limits.MAX_FILE_BYTES:,} bytes",
                code="variant_too_large",
            )
        data = bytes(text)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            good = data[: exc.start].decode("utf-8", "replace")
            line = good.count("\n") + 1
            column = len(good) - (good.rfind("\n") + 1) + 1
            raise VariantError(
                "the file is not UTF-8 text",
                path=path,
                line=line,
                column=column,
                hint="save the file as UTF-8",
                code="syntax",
            ) from None
    if not isinstance(text, str):
        raise VariantError(f"a variant must be text, not {type(text).__name__}", path=path)
    if len(text) > limits.MAX_FILE_BYTES:
        _check_size(text, path)
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    _check_size(text, path)
    return text


def parse_file(
    text: str | bytes, *, path: str = "<string>", require_game: bool = True
) -> ParsedFile:
    """Read the statements of one variant file, without applying them.

    Raises:
        VariantError: for any syntax error, value out of range, repeated setting
            or missing ``game:`` line.
    """
    text = normalize_text(text, path)
    try:
        tree = lark_parser().parse(text + "\n")
    except UnexpectedInput as exc:
        raise from_lark(exc, text, path) from None
    except (LarkError, RecursionError) as exc:  # pragma: no cover - a safety net
        raise VariantError(f"cannot read the file ({type(exc).__name__})", path=path) from None
    items = _transform(tree, text, path)
    settings = [x for x in items if isinstance(x, Setting)]
    _check_counters(settings, text, path)
    examples = assemble([x if isinstance(x, ExLine) else None for x in items], path, text)
    seen: dict[str, Setting] = {}
    for s in settings:
        if s.key in seen and s.key != "counter":
            first = seen[s.key].pos
            raise error_at(
                f"`{s.key}` is already set on line {first.line}",
                path=path,
                text=text,
                line=s.pos.line,
                column=s.pos.column,
                hint="give each setting once; delete one of the two lines",
            )
        seen[s.key] = s
    if require_game and "game" not in seen:
        first = settings[0].pos if settings else SourcePos(path, 1, 1)
        raise error_at(
            "the file has no `game:` line",
            path=path,
            text=text,
            line=first.line,
            column=first.column,
            expected="a line such as `game: my-house-rules` naming the variant",
        )
    if examples:
        first = examples[0].pos or SourcePos(path, 1, 1)
        settings.append(Setting("examples", (("examples", examples),), first, first))
    return ParsedFile(path, text, tuple(settings), examples)


_COUNTER_LINE: Final = re.compile(r"(?im)^[ \t]*counter[ \t]+([a-z]+)[ \t]*:")
_FORMULA_WORDS: Final = frozenset({"if", "then", "else", "and", "or", "not"})


def _check_counters(settings: list[Setting], text: str, path: str) -> None:
    """Refuse more than :data:`MAX_COUNTERS` ``counter NAME:`` lines, or a name given twice."""
    lines = [s for s in settings if s.key == "counter"]
    if len(lines) > MAX_COUNTERS:
        raise error_at(
            f"the file has {len(lines)} counters",
            path=path,
            text=text,
            line=lines[MAX_COUNTERS].pos.line,
            column=lines[MAX_COUNTERS].pos.column,
            expected=f"at most {MAX_COUNTERS}",
            code="variant_too_large",
        )
    names: set[str] = set()
    for s in lines:
        (counter,) = s.changes[0][1]
        if counter.name in names:
            raise error_at(
                f"the counter {counter.name!r} is given twice",
                path=path,
                text=text,
                line=s.pos.line,
                column=s.pos.column,
                hint="give each counter once; delete one of the two lines",
            )
        names.add(counter.name)


def _transform(tree: Tree[Token], text: str, path: str) -> list[Setting | ExLine]:
    try:
        result = _Build(path, text).transform(tree)
    except VisitError as exc:
        orig = exc.orig_exc
        if isinstance(orig, VariantError):
            raise orig from None
        if isinstance(orig, CardError):
            raise VariantError(str(orig), path=path) from None
        raise VariantError(f"cannot read the file ({type(orig).__name__})", path=path) from None
    return list(result)


def _get_path(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _set_path(obj: Any, dotted: str, value: Any) -> Any:
    head, _, rest = dotted.partition(".")
    if not rest:
        return attrs.evolve(obj, **{head: value})
    return attrs.evolve(obj, **{head: _set_path(getattr(obj, head), rest, value)})


def apply_settings(base: Variant, settings: Iterable[Setting]) -> Variant:
    """``base`` with every setting applied in order, positions recorded."""
    v = base
    positions = dict(base.positions)
    for s in settings:
        for dotted, value in s.changes:
            if dotted.startswith("@"):
                continue
            if dotted.endswith("+"):
                dotted = dotted[:-1]
                names = {c.name for c in value}
                old = _get_path(v, dotted)
                value = tuple(c for c in old if c.name not in names) + tuple(value)
            v = _set_path(v, dotted, value)
        if s.key != "examples":  # each example keeps its own positions
            positions[s.key] = s.pos
    order = {k: i for i, k in enumerate(SETTING_NAMES)}
    ordered = tuple(sorted(positions.items(), key=lambda kv: order.get(kv[0], len(order))))
    return attrs.evolve(v, positions=ordered)


def parse(text: str | bytes, *, path: str = "<string>", validate: bool = True) -> Variant:
    """Parse one variant file on its own.

    An ``extends:`` line is recorded in :attr:`Variant.parent` but not followed
    (use :func:`cardrules.dsl.load_text` for that): the settings apply to the
    defaults of :class:`~cardrules.rules.Variant`.

    Args:
        text: the file's text (``bytes`` are decoded as UTF-8).
        path: the name to show in error messages.
        validate: run the semantic checks of :mod:`cardrules.dsl.validate`
            (skipped for a file that extends another, whose meaning depends on
            its parent).

    Raises:
        VariantError: for anything wrong in the file.
    """
    pf = parse_file(text, path=path)
    v = apply_settings(Variant(name=pf.name), pf.settings)
    v = attrs.evolve(v, source=pf.text, path=path)
    if validate and pf.extends is None:
        from .validate import validate as _validate

        _validate(v, sources={path: pf.text})
    return v


def card_text(c: Card) -> str:
    """A card as the formatter writes it (``A♠``)."""
    return str(c)
