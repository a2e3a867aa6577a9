"""Issue 22: every built-in keeps the fingerprint its saves carry.

Saved games carry their variant's fingerprint
(:func:`cardrules.engine.state.compiled_rules.variant_fingerprint`), and a save is
refused when it no longer matches. ``tests/golden/fingerprints.json`` holds
every built-in's fingerprint, written before the settings were declared in
``cardrules/dsl/settings/``, and the config fields that existed then. Never
regenerate it to make a failure go away: a new config field changes the
fingerprint of every game unless the setting that fills it declares its
old-save default (the value a game without the setting has), and the failure
says so.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import attrs
import pytest

import cardrules
import cardrules.card_rules
import cardrules.cards
import cardrules.rules
import cardrules.scoring
from cardrules.dsl import builtin_names
from cardrules.dsl.settings.registry import SETTINGS, old_save_key
from cardrules.engine.state.compiled_rules import variant_fingerprint

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "fingerprints.json").read_text(encoding="utf-8")
)


def config_fields() -> set[str]:
    """Every field (``Class.field``) of the attrs classes a fingerprint reads:
    the config model's, the card rules', the cards' and the score formulas'."""
    modules = (cardrules.rules, cardrules.scoring, cardrules.card_rules, cardrules.cards)
    return {
        f"{cls.__name__}.{f.name}"
        for mod in modules
        for _, cls in inspect.getmembers(mod, inspect.isclass)
        if cls.__module__ == mod.__name__ and attrs.has(cls)
        for f in attrs.fields(cls)
        if f.eq
    }


def _declared_in(field: str) -> str:
    """The file of the declaration that fills ``field`` (``Class.field``), or
    the settings' folder when no declaration does yet."""
    cls, _, name = field.partition(".")
    for spec in SETTINGS:
        if any(old_save_key(path) == (cls, name) for path in spec.fields):
            # A declaration's render function lives in its family's module.
            module = spec.render.__module__
            return module.replace(".", "/") + ".py"
    return "cardrules/dsl/settings/<family>_settings.py"


def advice(new_fields: set[str]) -> str:
    """The failure message for fingerprints changed by ``new_fields``."""
    if not new_fields:
        return (
            "the fingerprints of these built-ins changed, though no config field is new: "
            "a game's rules or the fingerprint itself changed, and old saves of it would "
            "be refused"
        )
    lines = [
        f"{f} is new and changes the fingerprints: declare its old-save default in the "
        f"setting that fills it ({_declared_in(f)}), in the declaration's `old_saves`"
        for f in sorted(new_fields)
    ]
    return "\n".join(lines)


def test_every_built_in_keeps_its_fingerprint() -> None:
    names = set(builtin_names())
    recorded: dict[str, str] = GOLDEN["fingerprints"]
    assert set(recorded) <= names, "a built-in of the table is gone"
    changed: dict[str, tuple[str, str]] = {}
    for name, before in recorded.items():
        now = variant_fingerprint(cardrules.load(name))
        if now != before:
            changed[name] = (before, now)
    if changed:
        shown = ", ".join(sorted(changed)[:5]) + (", ..." if len(changed) > 5 else "")
        new_fields = config_fields() - set(GOLDEN["fields"])
        pytest.fail(
            f"{advice(new_fields)}\n({len(changed)} built-ins changed fingerprint: {shown})",
            pytrace=False,
        )


def test_the_failure_names_the_declaration_to_change() -> None:
    message = advice({"BiddingRule.hook"})
    assert "BiddingRule.hook is new" in message
    assert "cardrules/dsl/settings/bidding_settings.py" in message
    assert "declare its old-save default in the setting that fills it" in message
    assert "cardrules/dsl/settings/<family>_settings.py" in advice({"BiddingRule.new_thing"})
    assert "no config field is new" in advice(set())
