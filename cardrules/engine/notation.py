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

Examples:
    >>> parse_action("QS"), parse_action("bid 2"), parse_action("Play 10h")
    (Play('Q♠'), Bid(2), Play('10♥'))
    >>> action_from_dict(action_to_dict(parse_action("bid 0 blind")))
    Bid(0, blind=True)
"""

from __future__ import annotations

from typing import Any, Final

from cardrules.cards import card
from cardrules.engine.actions import NUM_ACTIONS, Action
from cardrules.errors import CardError, InvalidAction

__all__ = ["MAX_ACTION_TEXT", "action_from_dict", "action_to_dict", "parse_action"]

#: The longest text :func:`parse_action` reads (the longest label is far shorter).
MAX_ACTION_TEXT: Final = 80


def _key(words: list[str]) -> str:
    return " ".join(words).casefold()


def _build_labels() -> dict[str, Action]:
    labels: dict[str, Action] = {}
    for i in range(NUM_ACTIONS):
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
    if not isinstance(text, str):
        raise InvalidAction(
            f"an action is text such as 'play A♠' or 'bid 2', not {type(text).__name__}"
        )
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidAction(
            f"an action's text is at most {MAX_ACTION_TEXT} characters, got {len(text):,}"
        )
    words = _join_jokers([_normalise(w) for w in text.replace(",", " ").split()])
    if not words:
        raise InvalidAction("empty action: write one such as 'play A♠' or 'bid 2'")
    hit = _LABELS.get(_key(words))
    if hit is None and len(words) == 1:
        hit = _LABELS.get(_key(["play", words[0]])) or _LABELS.get(_key(["bid", words[0]]))
    if hit is None:
        shown = text.strip()
        raise InvalidAction(
            f"{shown!r} is not an action: write one such as 'play A♠', 'bid 2', "
            "'bid 0 blind', 'look at cards' or 'change bid to 3'"
        )
    return hit


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of an action: its id and its label."""
    return {"id": action.id, "label": action.label}


def action_from_dict(data: object) -> Action:
    """The action of :func:`action_to_dict`'s JSON form (untrusted input).

    The id decides; a label given with it must be that action's.

    Raises:
        InvalidAction: if ``data`` is not such an object.
    """
    if not isinstance(data, dict):
        raise InvalidAction(f"an action is an object with an id, not {type(data).__name__}")
    aid = data.get("id")
    if type(aid) is not int:
        raise InvalidAction("an action object needs an int 'id'")
    action = Action.from_id(aid)
    label = data.get("label")
    if label is not None and label != action.label:
        raise InvalidAction(f"action {aid} is {action.label!r}, not {label!r}")
    return action
