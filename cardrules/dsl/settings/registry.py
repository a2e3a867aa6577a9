"""Every setting of the variant language in canonical order, and the tables
derived from their declarations.

The families are listed in the order a formatted file writes them; their
concatenation is :data:`SETTINGS`. Each table the package used to keep by hand
is derived here:

=============================  ============================================
:data:`SETTING_NAMES`          every name, in canonical order
:data:`KEY_TERMINALS`          grammar terminal -> setting name
:data:`BY_NAME`                setting name -> its declaration
:data:`EFFECTS`                where each setting has an effect, and its check
:data:`ALWAYS_EFFECTIVE`       settings with an effect in every game, and fields
:data:`OLD_SAVE_DEFAULTS`      (class, field) -> value left out of fingerprints
:data:`SETTING_LINES`          config field -> the setting line that writes it
:func:`page_rule_fields`       rules-page label -> its config fields
=============================  ============================================
"""

from __future__ import annotations

import typing
from types import NoneType
from typing import Any, Final

import attrs

from cardrules.rules import Variant

from .bidding_settings import BIDDING
from .case_settings import CASES
from .deal_settings import DEAL
from .declaration import SettingSpec
from .effect_checks import Effect
from .end_settings import END
from .identity_settings import IDENTITY
from .match_settings import MATCH
from .pack_settings import PACK
from .passing_settings import PASSING
from .play_settings import PLAY
from .scoring_settings import SCORING
from .shedding_settings import SHEDDING
from .special_settings import SPECIALS
from .story_settings import STORY
from .table_settings import TABLE
from .trump_settings import MAKING_TRUMPS, TRUMP_SUIT

__all__ = [
    "ALWAYS_EFFECTIVE",
    "BY_NAME",
    "EFFECTS",
    "KEY_TERMINALS",
    "OLD_SAVE_DEFAULTS",
    "PRESENTATION_FIELDS",
    "SETTINGS",
    "SETTING_LINES",
    "SETTING_NAMES",
    "old_save_key",
    "page_rule_fields",
]

#: Every setting's declaration, in the canonical order of a formatted file
#: (the passing of cards comes between the trump suit and the making of trumps).
SETTINGS: Final[tuple[SettingSpec, ...]] = (
    *IDENTITY,
    *TABLE,
    *PACK,
    *SPECIALS,
    *DEAL,
    *TRUMP_SUIT,
    *PASSING,
    *MAKING_TRUMPS,
    *BIDDING,
    *PLAY,
    *SHEDDING,
    *SCORING,
    *CASES,
    *END,
    *STORY,
    *MATCH,
)

#: Setting name -> its declaration.
BY_NAME: Final[dict[str, SettingSpec]] = {s.name: s for s in SETTINGS}

#: Every setting name, in the canonical order of a formatted file.
SETTING_NAMES: Final[tuple[str, ...]] = tuple(BY_NAME)

#: Terminal name -> the setting name it starts.
KEY_TERMINALS: Final[dict[str, str]] = {s.key_terminal: s.name for s in SETTINGS}

#: Where each setting has an effect, in the canonical order of the settings: the
#: table the validator runs. A stated value that only says what happens anyway
#: (``hook: no`` without bidding, ``leading trumps: any time`` without trumps,
#: ``broken by: any play``, ``deal passes: to the next player``, ``match word:
#: none``) is never a no-op. Combinations the grammar cannot write (``first
#: lead: dealer's neighbour`` with a card to lead, ``tie: shared`` with a limit
#: of extra hands) need no check.
EFFECTS: Final[dict[str, Effect]] = {
    s.name: Effect(s.fields + s.shares, s.where, s.check)
    for s in SETTINGS
    if s.where is not None and s.check is not None
}

#: Settings with an effect in every game that passes the other checks, and the
#: fields they write. (A shedding game accepts only `trumps: none`, and a
#: trick-taking game only `match word: none`; `, no trumps when the pack runs
#: out` says what happens if it does, and is not checked; every game has
#: actions a player could take back.)
ALWAYS_EFFECTIVE: Final[dict[str, tuple[str, ...]]] = {
    s.name: s.fields + s.shares for s in SETTINGS if s.where is None
}


def _resolve(path: str) -> tuple[str, str]:
    """A dotted path from :class:`~cardrules.rules.Variant` -> ``(class name,
    field name)`` of its last step. A step through a value that is ``None`` by
    default (``scoring.formula``) follows the field's declared type."""
    *parents, name = path.split(".")
    value: object = Variant(name="x")
    cls: type = Variant
    for step in parents:
        value = getattr(value, step, None) if value is not None else None
        if value is not None:
            cls = type(value)
            continue
        hint = typing.get_type_hints(cls)[step]
        # ``Formula | None``: the one type that is not None.
        options = [t for t in typing.get_args(hint) if t is not NoneType]
        cls = options[0] if len(options) == 1 else hint
    if not attrs.has(cls) or name not in attrs.fields_dict(cls):
        raise ValueError(f"{path}: no such config field")
    return cls.__name__, name


def old_save_key(path: str) -> tuple[str, str]:
    """The key of :data:`OLD_SAVE_DEFAULTS` for a dotted config path."""
    return _resolve(path)


#: Fields added after saves began to carry fingerprints: left out of the
#: fingerprint at these (default) values, so a variant without them keeps the
#: fingerprint its saves were made with. Keyed by (attrs class name, field name);
#: declared as each setting's ``old_saves``.
OLD_SAVE_DEFAULTS: Final[dict[tuple[str, str], object]] = {
    _resolve(path): value for s in SETTINGS for path, value in s.old_saves.items()
}
#: Fields of the settings that only name or explain the rules (``case``):
#: always left out of the fingerprint, keyed as :data:`OLD_SAVE_DEFAULTS`.
PRESENTATION_FIELDS: Final[frozenset[tuple[str, str]]] = frozenset(
    _resolve(path) for s in SETTINGS if s.presentation for path in s.fields
)
# The lines with a condition (``hook: no when the hand has 1 card``) are no
# setting of their own: a variant without any keeps its fingerprint.
OLD_SAVE_DEFAULTS[_resolve("conditional")] = ()


def _owner_line(path: str) -> str:
    """The setting line(s) that write a field: ``“leading trumps” or “lead”``
    (without the outer quotes) for a field two settings write."""
    names = [s.name for s in SETTINGS if path in s.fields]
    names += [s.name for s in SETTINGS if path in s.shares]
    return "” or “".join(names)


#: The line of a variant file that holds each setting, for a change that makes
#: no difference in play: config field -> setting name.
SETTING_LINES: Final[dict[str, str]] = {
    path: _owner_line(path) for s in SETTINGS if s.page_rule is not None for path in s.fields
}
# The lines with a condition, of any setting (``hook: no when the hand has 1 card``).
SETTING_LINES["conditional"] = "… when …"


def _leaf_order() -> dict[str, int]:
    """Every leaf config field -> its place in the config model (the order of
    the attrs fields, rule class by rule class)."""
    order: dict[str, int] = {}

    def walk(obj: Any, prefix: str) -> None:
        for f in attrs.fields(type(obj)):
            value = getattr(obj, f.name)
            if attrs.has(type(value)) and type(value).__module__ == "cardrules.rules":
                walk(value, f"{prefix}{f.name}.")
            else:
                order[f"{prefix}{f.name}"] = len(order)

    walk(Variant(name="x"), "")
    return order


_LEAF_ORDER: Final = _leaf_order()


def page_rule_fields(label: str) -> tuple[str, ...]:
    """The config fields of the rules page's rule ``label`` (as
    :data:`cardrules.rulebook.words.RULES` names it), in the config model's
    order: each field of a setting whose ``page_rule`` (or ``page_rule_of``
    for that field) is ``label``."""
    fields = [
        path
        for s in SETTINGS
        for path in s.fields
        if s.page_rule_of.get(path, s.page_rule) == label
    ]
    return tuple(sorted(fields, key=_LEAF_ORDER.__getitem__))
