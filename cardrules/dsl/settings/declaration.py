"""The declaration of one setting of the variant language: :class:`SettingSpec`.

A setting is declared once, in the module of its family
(``deal_settings``, ``bidding_settings``, ...), with everything the package
needs to know about it besides its grammar line (``grammar.lark``), its config
field (:mod:`cardrules.rules`), the engine's phase that plays it and its words
on the rules page (:mod:`cardrules.rulebook.words`): its parse (the statement's
Lark children -> the changes it makes, a function beside the declaration that
the parser's transformer calls for the statement's grammar rule), sample lines,
how it is written back, where it has an effect. Every registry of the settings
(:mod:`cardrules.dsl.settings.registry`) is derived from the declarations.

A new setting touches: its grammar line and key terminal in ``grammar.lark``,
its config field in :mod:`cardrules.rules`, its declaration (with its parse and
samples) in its family module, and the engine and the rules page's words where
it plays and shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

from attrs import field, frozen

from cardrules.rules import Variant

from .effect_checks import Check
from .statement import Setting, StatementBuilder

__all__ = ["DEFAULT_VARIANT", "Parse", "SettingSpec", "always", "changed"]

#: A setting's parse: the builder (the parser's transformer) and the Lark
#: children of the statement -> the statement, with the changes it makes.
Parse = Callable[[StatementBuilder, list[Any]], Setting]

#: The variant every setting is at its default in: what a formatted file leaves
#: out, unless a setting's ``written`` says otherwise.
DEFAULT_VARIANT: Final = Variant(name="default")


def always(_v: Variant) -> bool:
    """A ``written`` rule: the formatter writes the setting for every variant."""
    return True


def _read_only(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of a declaration's mapping."""
    return MappingProxyType(dict(value))


@frozen
class SettingSpec:
    """One setting of the variant language, declared once.

    Attributes:
        name: the setting's name as a file writes it before the colon, such as
            ``"hook"``.
        key_terminal: the grammar's terminal for that name (``"K_HOOK"``).
        grammar_rule: the grammar rule of the statement (``"hook"``); the
            parser's transformer turns it into a statement with ``parse``.
        fields: the config fields the setting fills, dotted from the
            :class:`~cardrules.rules.Variant` (``"bidding.hook"``). Every field
            of the config model is filled by exactly one declaration.
        render: how the formatter writes the setting's value (the text after
            the colon).
        parse: reads the statement: its Lark children (the key token, the
            colon, the value's tokens and sub-rules' results) -> a
            :class:`~cardrules.dsl.settings.statement.Setting` with the
            ``(field path, value)`` changes, its values checked on the spot.
        written: when the formatter writes the setting; ``None``: when its
            rendered value differs from :data:`DEFAULT_VARIANT`'s.
        where: in words, the games in which the setting has an effect; ``None``
            for a setting with an effect in every game that passes the other
            checks.
        check: the effect check (with ``where``): finds the ways the setting, or
            a part of it, changes nothing in a game.
        page_rule: the label of the rule of the rules page
            (:data:`cardrules.rulebook.words.RULES`) that the setting's fields
            belong to; ``None`` for the identity settings, which no rule shows.
        page_rule_of: a field -> rule label, for a field that belongs to
            another rule than ``page_rule`` (``winner: last one in`` is part of
            the knock-out rule).
        shares: fields another declaration fills, that this setting writes too
            (``lead:`` and ``leading trumps:`` both write ``play.lead``).
        old_saves: dotted path -> the value that is left out of
            :func:`~cardrules.engine.state.compiled_rules.variant_fingerprint`, for a
            field added after saves began to carry fingerprints: a variant that
            leaves it at that value keeps the fingerprint its saves were made
            with. The path may name a whole rule class (``"passing"``) or a
            field inside a value (``"scoring.formula.counters"``).
        samples: lines of a file that set the setting, the usual one first;
            the declaration test reads each and checks the fields it writes.
        presentation: the setting names or explains the rules and changes none
            (``case``): its fields are left out of
            :func:`~cardrules.engine.state.compiled_rules.variant_fingerprint`
            whatever their value, so adding one to a built-in keeps the
            fingerprint its saves carry.
    """

    name: str
    key_terminal: str
    grammar_rule: str
    fields: tuple[str, ...]
    render: Callable[[Variant], str] = field(eq=False, repr=False)
    parse: Parse = field(eq=False, repr=False)
    written: Callable[[Variant], bool] | None = field(default=None, eq=False, repr=False)
    where: str | None = None
    check: Check | None = field(default=None, eq=False, repr=False)
    page_rule: str | None = None
    page_rule_of: Mapping[str, str] = field(factory=dict, converter=_read_only, hash=False)
    shares: tuple[str, ...] = ()
    old_saves: Mapping[str, object] = field(factory=dict, converter=_read_only, hash=False)
    samples: tuple[str, ...] = ()
    presentation: bool = False

    def __attrs_post_init__(self) -> None:
        if (self.where is None) != (self.check is None):
            raise ValueError(f"{self.name}: give both `where` and `check`, or neither")

    def is_written(self, v: Variant) -> bool:
        """Whether :func:`cardrules.dsl.format` writes this setting for ``v``."""
        if self.written is not None:
            return self.written(v)
        return changed(self.render, v)


def changed(render: Callable[[Variant], str], v: Variant) -> bool:
    """Whether ``v``'s value, written by ``render``, reads otherwise than the
    default variant's (the formatter's test for a setting left at its default)."""
    return render(v) != render(DEFAULT_VARIANT)
