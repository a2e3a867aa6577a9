"""The exceptions cardrules raises. Every one is a ``ValueError``.

* :class:`CardError`: a card or suit string that cannot be read.
* :class:`VariantError`: a variant file (or an option override) that is wrong;
  its message reads ``path:line:column: what is wrong``, then the line with a
  caret under the column, then what was expected.
* :class:`InvalidAction`: something that is not an action at all (an id out
  of range, a bid of -52).
* :class:`IllegalAction`: a well-formed action that the rules forbid now;
  :class:`NothingToUndo` (``Game.undo`` at the start of a game) and
  :class:`TakeBackRefused` (a take-back the table's policy does not allow) are
  kinds of it.
* :class:`SaveError`: a saved game, game record or event log that cannot be restored.
* :class:`ScoreError`: a scoring formula, or a running total, that reached a
  number too large to work with (see :data:`cardrules.scoring.MAX_VALUE_DIGITS`).

Every error carries, next to its sentence for people (``str(err)``), a stable
machine-readable :attr:`~CardrulesError.code` (a key of :data:`ERROR_CODES`,
such as ``not_your_turn`` or ``must_follow_suit``) and the
:attr:`~CardrulesError.data` behind it (JSON-native values: the seat, the rule,
cards as their text...). :meth:`~CardrulesError.to_dict` is its JSON form and
:meth:`CardrulesError.from_dict` reads it back. The codes are a contract: a code
keeps its meaning from one version to the next (new codes may be added).

Example:
    >>> import cardrules
    >>> g = cardrules.Game(cardrules.load("oh-hell"), 4, seed=1)
    >>> try:
    ...     g.apply(cardrules.Bid(0), (g.to_act + 1) % 4)
    ... except cardrules.IllegalAction as err:
    ...     print(err.code, err.data["seat"] == (g.to_act + 1) % 4)
    not_your_turn True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from cardrules.jsontext import BadJSON, check_text

__all__ = [
    "ERROR_CODES",
    "CardError",
    "CardrulesError",
    "IllegalAction",
    "InvalidAction",
    "NothingToUndo",
    "SaveError",
    "ScoreError",
    "TakeBackRefused",
    "VariantError",
]

#: Every error code, with its meaning. ``err.code`` is always one of these keys.
#: The table is in the order of ``docs/errors.md``: general, actions (malformed,
#: then refused by the rules, by phase), variant files, saves and records, scores.
ERROR_CODES: Final[dict[str, str]] = {
    # General
    "error": "an error with no finer code (the base class's default)",
    "bad_json": "a JSON object that is not the form a from_dict expects",
    "bad_argument": "an argument of a function or command of the wrong type or out of bounds",
    "bad_card": "a card, rank or suit written in a way cardrules cannot read, or not in the pack",
    # Actions that are not actions (InvalidAction)
    "bad_action": "not an action of cardrules at all: a malformed value, text or JSON object",
    "bad_seat": "not a seat number of this game",
    # Actions the rules refuse now (IllegalAction): any phase
    "illegal_action": "an action the rules forbid now (no finer code)",
    "game_over": "the game is over: no action is possible",
    "match_over": "the match is over: no action is possible",
    "knocked_out": "the seat is knocked out of the game and may not act",
    "not_your_turn": "another seat is to act (the refusal never describes another seat's cards)",
    "not_in_phase": "this kind of action does not belong in the current phase or stage of the hand",
    "not_in_variant": "this variant never allows this action (no blind bids, no bid changes...)",
    "card_not_in_hand": "the seat does not hold the card it names",
    "may_not_show": "the seat's hand does not meet the redeal rule, so it may not show it",
    # Take-backs (Game.undo, Game.take_back, Game.request_take_back, Game.answer)
    "nothing_to_undo": "no action has been made since the game began or the last take-back",
    "take_back_refused": "the take-back policy does not let this seat take back that action now",
    "take_back_limit": "the game has had the most take-backs it allows (or this one is too long)",
    "no_consent_needed": "a take-back request that needs nobody's consent: take_back does it alone",
    "take_back_pending": "a take-back request is already waiting for answers: one at a time",
    "no_take_back_request": "an answer to a take-back request when none is pending",
    "not_asked": "an answer from a seat that the pending take-back request does not ask",
    "no_world": "sample_world found no world consistent with the seat's information in its bound",
    # The bidding
    "bid_out_of_range": "a bid outside the range this hand allows",
    "hook": "the dealer's forbidden bid: the bids would add up to the number of tricks",
    "already_bid": "the seat has already bid this hand (simultaneous bids)",
    "already_looked": "the seat has already looked at its cards",
    "not_looked": "the seat must look at its cards (or bid blind) before it bids",
    "blind_after_look": "a blind bid after the seat has looked at its cards",
    "blind_bid_value": "this bid may not be made blind",
    "bid_not_higher": "in an auction, a bid must be higher than the highest bid so far",
    "dealer_must_bid": "in an auction, the dealer must bid when everyone else has passed",
    "cannot_amend": "only the last seat to bid may change its bid, before the next seat bids",
    "same_bid": "a change of bid to the bid already made",
    # The pass of cards
    "already_passed": "the seat has already chosen all its cards to pass this hand",
    "card_already_chosen": "the seat has already chosen this card to pass",
    # The choice of trumps
    "must_discard": "the dealer took the turned card and must discard first",
    "keeps_turned_card": "the dealer may not discard the card it took up",
    "suit_turned_down": "the suit of the card turned down may not be named",
    "stick_the_dealer": "the dealer may not pass in the last round (stick the dealer)",
    # The play
    "must_lead_card": "the first lead of the hand must be a given card",
    "must_lead_suit": "the first lead of the hand must be of a given suit",
    "cannot_lead": "the lead rule forbids leading this card now (such as trumps not yet broken)",
    "must_follow_suit": "the seat holds the suit led and must follow it",
    "must_beat": "the seat must play a card that beats the card winning the trick",
    "must_beat_with_trump": "the seat must beat the card winning the trick with a trump",
    "must_trump": "the seat is void in the suit led and must play a trump",
    "follow_rule": "the follow rule (a card-set list) forbids this card",
    "first_trick_rule": "the rule of the first trick of a hand forbids this card",
    "illegal_card": "this card may not be played now (no finer reason is known)",
    "cannot_take": "a neighbour's hand may not be taken now (games with take a hand from:)",
    # Variant files (VariantError)
    "bad_variant": "a variant file or option that is not valid (no finer code)",
    "syntax": "a variant file's text that does not parse: unexpected text, a line ending too soon",
    "unknown_setting": "a variant file names a setting the language does not have",
    "unknown_variant": "no built-in variant or file of that name",
    "variant_too_large": "a variant file, or something it asks for, beyond the loader's limits",
    "bad_option": "an option (a named override of a variant) that is unknown or not valid",
    "bad_example": "an example: block of a variant file that does not play as it says",
    "examples_too_large": "the example: blocks of a variant file play more actions in all "
    "than a file's examples may",
    "bad_player_count": "a number of players the variant is not for",
    "bad_condition": "a setting line's condition that the setting cannot take, or that never holds",
    "bad_score_case": "a `case` line (a case of the score named in words) whose name, condition, "
    "explanation, recap text or example is not valid",
    "bad_choice": "a choice: line whose house rule does not read, or plays no other valid game",
    # Saves, logs and records (SaveError)
    "bad_save": "a save or event log that is malformed or describes an impossible game",
    "save_too_large": "a save beyond the limits of from_json (bytes, containers, actions)",
    "save_variant_mismatch": "a save of another variant than the one the server requires",
    "save_illegal_action": "a save or log whose actions the rules refuse",
    "bad_record": "a game record (cardrules.record) that is malformed or impossible",
    # Scores (ScoreError)
    "score_too_large": "a score formula or running total reached a number too large to work with",
    "score_error": "a score formula that cannot be worked out with the values given",
}

_CODE_RE: Final = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")
#: The most a :meth:`CardrulesError.from_dict` reads (message characters, data bytes).
_MAX_MESSAGE: Final = 100_000
_MAX_DATA: Final = 100_000
#: The deepest nesting of lists and objects in the ``data`` a ``from_dict`` reads.
_MAX_DATA_DEPTH: Final = 16


def _json_native(data: Mapping[str, object]) -> dict[str, Any]:
    """``data`` with every value JSON-native (a card, suit or other object as its text)."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        out[str(k)] = _native(v)
    return out


#: The most characters of a text, and items of a list, an error's data keeps
#: (data is bounded whatever a raise site is given: a save's 5 MB line, a number
#: of 10,000 digits).
_MAX_DATA_TEXT: Final = 500
_MAX_DATA_ITEMS: Final = 100


def _native(v: object) -> Any:
    if v is None or type(v) in (bool, float):
        return v
    if type(v) is int:
        return v if v.bit_length() <= 64 else f"an int of {v.bit_length():,} bits"
    if type(v) is str:
        return v if len(v) <= _MAX_DATA_TEXT else v[: _MAX_DATA_TEXT - 3] + "..."
    if isinstance(v, Mapping):
        return _json_native(dict(list(v.items())[:_MAX_DATA_ITEMS]))
    if isinstance(v, list | tuple | set | frozenset):
        return [_native(x) for x in list(v)[:_MAX_DATA_ITEMS]]
    # An IntEnum such as Suit, or a Card: their text.
    return _native(str(v))


class CardrulesError(ValueError):
    """Base class of every error raised for bad input.

    Args:
        message: what is wrong, in words (``str(err)``).
        code: the machine-readable code (a key of :data:`ERROR_CODES`); the
            class's :attr:`default_code` when not given.
        data: the facts behind the refusal (seat, rule, cards...); values that
            are not JSON-native are kept as their text (a card as ``"Q♠"``).

    Attributes:
        code: the stable machine-readable code, a key of :data:`ERROR_CODES`.
        data: a dict of JSON-native values: ``seat``, ``card``, ``cards`` (as
            text), ``rule``, ``value``... as the code's entry in the docs says.

    Example:
        >>> err = IllegalAction("it is seat 2's turn", code="not_your_turn", data={"seat": 1})
        >>> err.to_dict()["code"], CardrulesError.from_dict(err.to_dict()).data
        ('not_your_turn', {'seat': 1})
    """

    #: The code of an error raised without one.
    default_code: ClassVar[str] = "error"
    code: str
    data: dict[str, Any]

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        data: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.data = _json_native(data) if data else {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (multiprocessing, dask) keeps the code and data.
        return (_rebuild, (type(self), str(self), self.code, self.data, self.__dict__))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"error": class name, "code", "message", "data"}``."""
        return {
            "error": type(self).__name__,
            "code": self.code,
            "message": str(self),
            "data": dict(self.data),
        }

    @classmethod
    def from_dict(cls, obj: object) -> CardrulesError:
        """The error of a :meth:`to_dict` form (untrusted input), as its class.

        ``"error"`` names the class (one of this module's; an unknown name gives
        a :class:`CardrulesError`), ``"code"`` must be snake_case text (a code
        this version does not know is kept as it is), ``"message"`` text and
        ``"data"`` an object of JSON values (at most 100,000 bytes of JSON, nested
        at most 16 deep, no number longer than 320 characters).

        Raises:
            CardrulesError: with code ``bad_json``, if ``obj`` is not such a form.
        """
        if not isinstance(obj, dict):
            raise CardrulesError(
                f"an error is an object, not {type(obj).__name__}", code="bad_json"
            )
        name = obj.get("error", "CardrulesError")
        code = obj.get("code")
        message = obj.get("message", "")
        data = obj.get("data", {})
        if not isinstance(name, str) or len(name) > 64:
            raise CardrulesError("an error's 'error' must be a class name", code="bad_json")
        if not isinstance(code, str) or not _CODE_RE.match(code):
            raise CardrulesError("an error's 'code' must be snake_case text", code="bad_json")
        if not isinstance(message, str) or len(message) > _MAX_MESSAGE:
            raise CardrulesError(
                f"an error's 'message' must be text of at most {_MAX_MESSAGE:,} characters",
                code="bad_json",
            )
        if not isinstance(data, dict):
            raise CardrulesError("an error's 'data' must be an object", code="bad_json")
        try:
            text = json.dumps(data, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            raise CardrulesError(
                "an error's 'data' must hold JSON values only", code="bad_json"
            ) from None
        size = len(text)
        if size <= _MAX_DATA:
            try:
                check_text(text, max_depth=_MAX_DATA_DEPTH)
            except BadJSON as e:
                raise CardrulesError(f"an error's 'data' is {e}", code="bad_json") from None
        if size > _MAX_DATA:
            raise CardrulesError(
                f"an error's 'data' is at most {_MAX_DATA:,} bytes of JSON", code="bad_json"
            )
        kind = _CLASSES.get(name, CardrulesError)
        if not issubclass(kind, cls):
            raise CardrulesError(f"{name!r} is not a {cls.__name__}", code="bad_json")
        return _rebuild(kind, message, code, data, {})


def _rebuild(
    kind: type[CardrulesError], message: str, code: str, data: dict[str, Any], extra: dict[str, Any]
) -> CardrulesError:
    """An error of class ``kind`` with this text, code and data, built without its
    ``__init__`` (whose arguments differ from class to class)."""
    err = kind.__new__(kind)
    ValueError.__init__(err, message)
    err.__dict__.update(extra)
    err.code = code
    err.data = dict(data)
    if isinstance(err, VariantError | ScoreError):
        err.__dict__.setdefault("message", message)
    if isinstance(err, VariantError):
        err.__dict__.setdefault("_text", message)
        for attr in ("path", "line", "column", "source_line", "expected", "hint"):
            err.__dict__.setdefault(attr, data.get(attr))
    if isinstance(err, ScoreError):
        err.__dict__.setdefault("formula", data.get("formula"))
    return err


class CardError(CardrulesError):
    """A card, rank or suit written in a way cardrules cannot read."""

    default_code: ClassVar[str] = "bad_card"


class VariantError(CardrulesError):
    """A variant file, or an option given for one, is not valid.

    Its :attr:`data` holds ``path``, ``line``, ``column``, ``source_line``,
    ``expected`` and ``hint`` when known (``None`` otherwise), plus what the
    raise site adds (such as ``setting``).

    Attributes:
        message: what is wrong, in words.
        path: the file (or ``<string>``), if known.
        line: 1-based line number, if known.
        column: 1-based column, if known.
        source_line: the text of the offending line, if known.
        expected: what would have been valid there, in words.
        hint: a suggestion, such as a did-you-mean.
    """

    default_code: ClassVar[str] = "bad_variant"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
        expected: str | None = None,
        hint: str | None = None,
        code: str | None = None,
        data: Mapping[str, object] | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.source_line = source_line
        self.expected = expected
        self.hint = hint
        where = {
            "path": path,
            "line": line,
            "column": column,
            "source_line": source_line,
            "expected": expected,
            "hint": hint,
        }
        super().__init__(self.render(), code=code, data={**where, **(data or {})})

    def render(self) -> str:
        """The full message: location, what is wrong, the line and a caret."""
        where = ""
        if self.path is not None or self.line is not None:
            where = self.path or "<string>"
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        parts = [where + self.message]
        if self.source_line is not None and self.line is not None:
            shown = self.source_line.rstrip("\n")
            if len(shown) > 200:
                shown = shown[:200] + "..."
            parts.append("    " + shown)
            if self.column is not None and self.column <= len(shown) + 1:
                parts.append("    " + " " * (self.column - 1) + "^")
        if self.expected:
            parts.append(f"expected {self.expected}")
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)

    def __str__(self) -> str:
        text = self.__dict__.get("_text")
        return text if isinstance(text, str) else self.render()


class InvalidAction(CardrulesError):
    """Not an action of this game at all (malformed, or an id out of range)."""

    default_code: ClassVar[str] = "bad_action"


class IllegalAction(CardrulesError):
    """A real action that the rules forbid in the current state.

    The game is left exactly as it was. The :attr:`code` says why (such as
    ``not_your_turn``, ``must_follow_suit`` or ``hook``) and :attr:`data` holds
    at least the acting ``seat`` and the ``action`` (its label).
    """

    default_code: ClassVar[str] = "illegal_action"


class NothingToUndo(IllegalAction):
    """:meth:`Game.undo <cardrules.engine.game.Game.undo>` with no action to take
    back (no action has been made since the game began, or since the last
    take-back, which is never undone). The game is unchanged."""

    default_code: ClassVar[str] = "nothing_to_undo"


class TakeBackRefused(IllegalAction):
    """:meth:`Game.take_back <cardrules.engine.game.Game.take_back>` of an action
    that the take-back policy does not let that seat take back now (the message
    says why), or a take-back request or answer that cannot be made
    (:meth:`Game.request_take_back
    <cardrules.engine.game.Game.request_take_back>`, :meth:`Game.answer
    <cardrules.engine.game.Game.answer>`: codes ``no_consent_needed``,
    ``take_back_pending``, ``no_take_back_request``, ``not_asked``). The game
    is unchanged. Code ``take_back_limit``: the game has had the most
    take-backs it allows."""

    default_code: ClassVar[str] = "take_back_refused"


class SaveError(CardrulesError):
    """A saved game, game record or event log that is malformed or describes an
    impossible game."""

    default_code: ClassVar[str] = "bad_save"


class ScoreError(CardrulesError):
    """A score that cannot be worked out: a formula reached a number too large to
    work with, or a player's running total grew too large.

    The load-time check of a formula (see :func:`cardrules.scoring.parse_formula`)
    refuses every formula that could do this with the values a game passes; this
    is raised for what that check cannot see, such as values given from Python
    beyond those ranges, or a total that grows hand after hand.

    Attributes:
        message: what is wrong, in words.
        formula: the text of the formula concerned, if any (also in ``data``).
    """

    default_code: ClassVar[str] = "score_too_large"

    def __init__(
        self,
        message: str,
        *,
        formula: str | None = None,
        code: str | None = None,
        data: Mapping[str, object] | None = None,
    ) -> None:
        self.message = message
        self.formula = formula
        super().__init__(message, code=code, data={"formula": formula, **(data or {})})


_CLASSES: Final[dict[str, type[CardrulesError]]] = {
    c.__name__: c
    for c in (
        CardrulesError,
        CardError,
        VariantError,
        InvalidAction,
        IllegalAction,
        NothingToUndo,
        TakeBackRefused,
        SaveError,
        ScoreError,
    )
}
