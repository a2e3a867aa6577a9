"""Actions as people and programs write them: labels, typed text and JSON.

Every action has a label (:attr:`Action.label`: ``play A♠``, ``bid 2``,
``bid 0 blind``, ``look at cards``, ``change bid to 3``...). :func:`parse_action`
reads a label back, forgiving the ways a person types it: any case, card text
as :func:`cardrules.card` reads it (``QS``, ``q♠``, ``10h``), and a bare card or
number standing for ``play`` or ``bid`` (``QS`` is ``play Q♠``, ``2`` is ``bid 2``);
the jokers are ``BJ`` or ``big joker`` and ``LJ`` or ``little joker``.
:func:`action_to_dict` and :func:`action_from_dict` are the JSON form
(``{"id": 51, "label": "play A♠"}``); the id decides, the label is for people.

The table of labels is built from every action id, so an action kind added to
:mod:`~cardrules.engine.actions` is readable here with no change.

:meth:`Game.parse_action <cardrules.engine.game.Game.parse_action>` reads text
for one game: a bare card is what the game does with a card now (a play, a
card to pass, a discard), and :meth:`~cardrules.engine.game.Game.parse_actions`
reads several cards at once (``pass 3♣ 4♦ 9♥``).

Examples:
    >>> parse_action("QS"), parse_action("bid 2"), parse_action("Play 10h")
    (Play('Q♠'), Bid(2), Play('10♥'))
    >>> action_from_dict(action_to_dict(parse_action("bid 0 blind")))
    Bid(0, blind=True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Final

from cardrules.cards import Card, Suit, card
from cardrules.engine.actions import (
    CONTRACT_END,
    NUM_ACTIONS,
    SPECIAL_ACTION_BASE,
    Action,
    Alone,
    Discard,
    Look,
    Name,
    OrderUp,
    Pass,
    Play,
    Take,
    WithPartner,
)
from cardrules.errors import CardError, InvalidAction

__all__ = [
    "MAX_ACTION_TEXT",
    "action_from_dict",
    "action_to_dict",
    "card_text",
    "label_of",
    "parse_action",
    "parse_in_game",
]

#: The longest text :func:`parse_action` reads (the longest label is far shorter).
MAX_ACTION_TEXT: Final = 80


def _key(words: list[str]) -> str:
    return " ".join(words).casefold()


def _build_labels() -> dict[str, Action]:
    labels: dict[str, Action] = {}
    for i in (*range(NUM_ACTIONS), *range(SPECIAL_ACTION_BASE, CONTRACT_END)):
        try:
            a = Action.from_id(i)
        except InvalidAction:
            continue  # a reserved id: no action yet
        labels.setdefault(_key(a.label.split()), a)
    return labels


_LABELS: Final[dict[str, Action]] = _build_labels()


def _normalise(word: str) -> str:
    """A word of typed text as labels write it: a card in its canonical text."""
    if (any(ch.isdigit() for ch in word) and not word.isdigit()) or len(word) in (2, 3):
        try:
            return str(card(word))
        except CardError:
            return word
    return word


def _join_jokers(words: list[str]) -> list[str]:
    """``big joker`` and ``little joker``, two words, as the one card text ``BJ``/``LJ``."""
    out: list[str] = []
    for w in words:
        if out and w.casefold() == "joker" and out[-1].casefold() in ("big", "little"):
            out[-1] = "BJ" if out[-1].casefold() == "big" else "LJ"
        else:
            out.append(w)
    return out


def parse_action(text: str) -> Action:
    """The action a label or a person's text names.

    Args:
        text: a label such as ``play A♠`` or ``bid 2``, in any case, with cards
            written any way :func:`cardrules.card` reads them; a card alone is
            its play and a number alone its bid.

    Returns:
        The interned action.

    Raises:
        InvalidAction: if the text names no action (the message says why).

    Example:
        >>> parse_action("play a♠").id
        51
    """
    words = _words(text)
    hit = _LABELS.get(_key(words))
    if hit is None and len(words) == 1:
        hit = _LABELS.get(_key(["play", words[0]])) or _LABELS.get(_key(["bid", words[0]]))
    if hit is None:
        raise _not_an_action(text)
    return hit


def _words(text: object, symbols: Mapping[str, str] | None = None) -> list[str]:
    """The words of an action's text, cards in their canonical text (bounded).

    ``symbols`` maps a special card's text for people, casefolded (``w1``), to
    its canonical text (``X1``): a game with ``special symbols`` reads both."""
    if not isinstance(text, str):
        raise InvalidAction(
            f"an action is text such as 'play A♠' or 'bid 2', not {type(text).__name__}",
            code="bad_action",
            data={"value": type(text).__name__},
        )
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidAction(
            f"an action's text is at most {MAX_ACTION_TEXT} characters, got {len(text):,}",
            code="bad_action",
            data={"value": f"{len(text):,} characters"},
        )
    raw = text.replace(",", " ").split()
    if symbols:
        raw = [symbols.get(w.casefold(), w) for w in raw]
    words = _join_jokers([_normalise(w) for w in raw])
    if not words:
        raise InvalidAction(
            "empty action: write one such as 'play A♠' or 'bid 2'",
            code="bad_action",
            data={"value": text},
        )
    return words


def _not_an_action(text: str) -> InvalidAction:
    shown = text.strip()
    return InvalidAction(
        f"{shown!r} is not an action: write one such as 'play A♠', 'bid 2', "
        "'bid 0 blind', 'look at cards' or 'change bid to 3'",
        code="bad_action",
        data={"value": shown},
    )


#: Short words a person types for an action with a longer label.
_SHORT: Final[dict[str, Action]] = {
    "look": Look(),
    "take": Take(),
    "alone": Alone(),
    "partner": WithPartner(),
    "with partner": WithPartner(),
    "order": OrderUp(),
    "no trumps": Name(None),
    "name no trump": Name(None),
    **{x.word: Name(x) for x in Suit},
    **{x.symbol: Name(x) for x in Suit},
    **{f"name {x.symbol}": Name(x) for x in Suit},
}


def parse_in_game(
    text: str, kinds: Collection[type[Action]], symbols: Mapping[str, str] | None = None
) -> tuple[Action, ...]:
    """The actions a person's text names in a game where the seats that may act
    now have actions of ``kinds`` (the classes of their legal actions): what
    :meth:`Game.parse_action <cardrules.engine.game.Game.parse_action>` reads.

    A bare card is a :class:`Play`, :class:`Pass` or :class:`Discard`, whichever
    kind the game has now (a play when none); a bare number a :class:`Bid`;
    ``pass C1 C2 ...`` and several bare cards while cards are passed one
    :class:`Pass` per card; ``pass`` alone :class:`Decline`; short words
    (``look``, ``take``, ``alone``, ``clubs``) their action.

    ``symbols`` (a game with ``special symbols``) maps the text of its special
    cards for people, casefolded (``w1``), to their canonical text (``X1``).

    Raises:
        InvalidAction: if the text names no action (code ``bad_action``).
    """
    words = _words(text, symbols)
    key = _key(words)
    hit = _SHORT.get(key) or _LABELS.get(key)
    if hit is not None:
        return (hit,)
    cards = words[1:] if words[0].casefold() in ("pass", "play", "discard") else words
    verb = words[0].casefold() if cards is not words else None
    if cards and all(_is_card(w) for w in cards):
        if verb is None:
            verb = next((v for v, k in _CARD_KINDS.items() if k in kinds), "play")
        if len(cards) > 1 and verb != "pass":
            raise InvalidAction(
                f"{text.strip()[:40]!r} names {len(cards)} cards: only cards to pass are "
                "chosen several at a time",
                code="bad_action",
                data={"value": text.strip()[:40]},
            )
        make = _CARD_MAKERS[verb]
        return tuple(make(w) for w in cards)
    return (parse_action(" ".join(words) if symbols else text),)


def card_text(c: Card, names: Mapping[int, str]) -> str:
    """The text for people of card ``c``: its name in ``names`` (a game's special
    cards with ``special symbols``: ``{54: "W1"}``), else its canonical text."""
    return names.get(int(c.base), str(c)) if names else str(c)


def label_of(action: Action, names: Mapping[int, str]) -> str:
    """The label of ``action`` for people in a game whose special cards
    ``names`` renames (``play W1`` for ``play X1``); :attr:`Action.label`
    without. :func:`parse_in_game`, given the inverse map, reads it back."""
    label = action.label
    c = getattr(action, "card", None)
    if not names or not isinstance(c, Card) or int(c.base) not in names:
        return label
    return label.replace(str(c), names[int(c.base)])


#: The kinds of action that name a card, by the verb of their label.
_CARD_KINDS: Final[dict[str, type[Action]]] = {"play": Play, "pass": Pass, "discard": Discard}
_CARD_MAKERS: Final[dict[str, Callable[[str], Action]]] = {
    "play": Play,
    "pass": Pass,
    "discard": Discard,
}


def _is_card(word: str) -> bool:
    try:
        card(word)
    except CardError:
        return False
    return True


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of an action: its id and its label (:meth:`Action.to_dict`)."""
    return action.to_dict()


def action_from_dict(data: object) -> Action:
    """The action of :func:`action_to_dict`'s JSON form (untrusted input):
    :meth:`Action.from_dict`.

    The id decides; a label given with it must be that action's.

    Raises:
        InvalidAction: if ``data`` is not such an object.
    """
    return Action.from_dict(data)
