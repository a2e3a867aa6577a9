"""Issue 22, item 1: each setting of the variant language is declared once
(``cardrules/dsl/settings/``), and every table of the settings is derived
from the declarations.

This is the one completeness test of the settings: the grammar's statements
and key terminals, the parser's transformer, the config model's fields, the
validator's effects, the formatter, the fingerprint's old-save defaults and the
rules page's rules must all meet the declarations, one for one.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from lark import Tree

import cardrules
from cardrules.dsl import builtin_names, format, load
from cardrules.dsl.parser import _Build, lark_parser, parse_file
from cardrules.dsl.settings.declaration import DEFAULT_VARIANT, SettingSpec
from cardrules.dsl.settings.registry import (
    ALWAYS_EFFECTIVE,
    BY_NAME,
    EFFECTS,
    OLD_SAVE_DEFAULTS,
    SETTINGS,
    old_save_key,
)
from cardrules.dsl.syntax_errors import KEY_TERMINALS, SETTING_NAMES
from cardrules.dsl.validate import NOT_SETTINGS
from cardrules.engine.state.compiled_rules import _LATER_FIELDS
from cardrules.rulebook.words import IDENTITY_FIELDS, RULES, SETTING_LINES, leaf_settings
from cardrules.rules import SourcePos, Variant

BUILT_INS = [load(name) for name in builtin_names()]


def _leaves(obj: Any, prefix: str = "") -> set[str]:
    """Every leaf field of the attrs config model: rule classes of
    :mod:`cardrules.rules` are walked into, anything else is a leaf."""
    out: set[str] = set()
    for f in attrs.fields(type(obj)):
        value = getattr(obj, f.name)
        name = prefix + f.name
        if attrs.has(type(value)) and type(value).__module__ == "cardrules.rules":
            out |= _leaves(value, name + ".")
        else:
            out.add(name)
    return out


LEAVES = _leaves(Variant(name="x"))


# --------------------------------------------------------------------------- the grammar


def _statement_rules() -> dict[str, set[str]]:
    """Each statement rule of the grammar (not a worked example's line) -> the
    terminals its alternatives start with."""
    parser = lark_parser()
    statements = {
        sym.name
        for rule in parser.rules
        if rule.origin.name == "_statement"
        for sym in rule.expansion
    }
    firsts: dict[str, set[str]] = {}
    for rule in parser.rules:
        name = str(rule.origin.name)
        if name in statements and not name.startswith(("ex_", "example")):
            firsts.setdefault(name, set()).add(rule.expansion[0].name)
    return firsts


def test_the_declarations_are_in_the_canonical_order() -> None:
    """The names, in order, are the canonical order of a formatted file."""
    assert tuple(s.name for s in SETTINGS) == SETTING_NAMES
    assert SETTING_NAMES[:8] == (
        "game",
        "extends",
        "title",
        "also called",
        "summary",
        "mode",
        "players",
        "teams",
    )
    assert SETTING_NAMES[-1] == "options"


def test_names_terminals_and_grammar_rules_are_declared_once() -> None:
    for what in ("name", "key_terminal", "grammar_rule"):
        values = [getattr(s, what) for s in SETTINGS]
        assert len(values) == len(set(values)), what
    assert {s.key_terminal: s.name for s in SETTINGS} == KEY_TERMINALS


def test_every_statement_of_the_grammar_has_one_declaration_and_back() -> None:
    """Each setting statement of ``grammar.lark`` is declared, starts with the
    declared key terminal, and the parser's transformer reads it with the
    declaration's parse (and with nothing else)."""
    firsts = _statement_rules()
    declared = {s.grammar_rule: s for s in SETTINGS}
    assert set(firsts) == set(declared), "declare these statements in cardrules/dsl/settings/"
    for rule, spec in declared.items():
        assert firsts[rule] == {spec.key_terminal}, rule
        assert callable(spec.parse), rule
        assert vars(_Build)[rule] is spec.parse, f"the parser does not read {rule} with its parse"
    # The declarations' parses live beside them, not in the parser.
    for spec in SETTINGS:
        assert spec.parse.__module__.startswith("cardrules.dsl.settings."), spec.name


# --------------------------------------------------------------------------- the config model


def test_every_field_of_the_config_model_is_filled_by_exactly_one_declaration() -> None:
    filled: dict[str, list[str]] = {}
    for s in SETTINGS:
        for path in s.fields:
            filled.setdefault(path, []).append(s.name)
    twice = {path: names for path, names in filled.items() if len(names) > 1}
    assert twice == {}
    assert LEAVES - set(NOT_SETTINGS) - set(filled) == set(), (
        "declare the setting that fills these fields in cardrules/dsl/settings/"
    )
    assert set(filled) - LEAVES == set(), "these fields no longer exist"
    assert set(filled) & set(NOT_SETTINGS) == set()
    # A field two settings write (`lead:` and `leading trumps:` both write
    # play.lead) is filled by one and shared by the other.
    for s in SETTINGS:
        for path in s.shares:
            assert path in filled and s.name not in filled[path], (s.name, path)


def test_each_setting_has_an_effect_everywhere_or_says_where() -> None:
    assert set(EFFECTS) | set(ALWAYS_EFFECTIVE) == set(SETTING_NAMES)
    assert set(EFFECTS) & set(ALWAYS_EFFECTIVE) == set()
    # The validator runs the checks, and check_warnings returns its warnings,
    # in the canonical order of the settings.
    assert list(EFFECTS) == [name for name in SETTING_NAMES if name in EFFECTS]
    for key, effect in EFFECTS.items():
        assert effect.where, key  # said in words, for the docs
        assert effect.fields == BY_NAME[key].fields + BY_NAME[key].shares
    # No field is both always effective and not.
    table = {f for e in EFFECTS.values() for f in e.fields}
    always = {f for fields in ALWAYS_EFFECTIVE.values() for f in fields}
    assert table & always == set()


def _written(key: str, line: str) -> set[str]:
    """The leaf fields a statement writes (a whole rule class counts as all its
    leaves), leaving out the bookkeeping fields no setting owns."""
    text = line if key == "game" else f"game: x\n{line}"
    (s,) = [s for s in parse_file(text).settings if s.key == key]
    out: set[str] = set()
    for dotted, _value in s.changes:
        if dotted.startswith("@"):
            continue
        dotted = dotted.removesuffix("+")  # a counter line adds to the counters
        out |= {leaf for leaf in LEAVES if leaf == dotted or leaf.startswith(dotted + ".")}
    return out - set(NOT_SETTINGS)


@pytest.mark.parametrize("spec", SETTINGS, ids=lambda s: s.name)
def test_every_declaration_has_sample_lines_its_parse_reads(spec: SettingSpec) -> None:
    """Each declaration carries at least one sample line; the transformer
    hands each to the declaration's parse, which reads it as this setting."""
    assert spec.samples, f"declare a sample line of `{spec.name}`"
    for line in spec.samples:
        assert line.split(":")[0].strip().lower().startswith(spec.name.split()[0]), line
        text = line if spec.name == "game" else f"game: x\n{line}"
        tree = lark_parser().parse(text + "\n")
        (statement,) = tree.find_data(spec.grammar_rule)
        builder = _Build("<sample>", text)
        # The statement's children as the transformer hands them over: its
        # sub-rules (card rules, sizes...) already read.
        children = [builder.transform(x) if isinstance(x, Tree) else x for x in statement.children]
        setting = spec.parse(builder, children)
        assert setting.key == spec.name, line
        assert setting.pos == SourcePos("<sample>", 2 if spec.name != "game" else 1, 1), line


@pytest.mark.parametrize("key", SETTING_NAMES)
def test_a_declaration_names_the_fields_its_line_writes(key: str) -> None:
    """The validator checks a setting through the fields the parser makes it
    write, so the declaration must name them all."""
    spec = BY_NAME[key]
    for line in spec.samples:
        assert _written(key, line) <= set(spec.fields + spec.shares), line


# --------------------------------------------------------------------------- the formatter


@pytest.mark.parametrize("variant", BUILT_INS, ids=lambda v: v.name)
def test_every_declaration_renders_and_reads_back_on_the_built_ins(variant: Variant) -> None:
    """Each setting the formatter writes for a built-in renders as text; the
    whole file reads back as the same rules."""
    for spec in SETTINGS:
        if spec.is_written(variant):
            assert isinstance(spec.render(variant), str), spec.name
    again = cardrules.parse(format(variant), path=variant.path or "<string>")
    assert again == variant


def test_what_the_formatter_leaves_out_of_the_default_variant() -> None:
    """A setting without a rule of its own for being written is written when it
    differs from the default variant: never for the default variant itself."""
    for spec in SETTINGS:
        if spec.written is None:
            assert not spec.is_written(DEFAULT_VARIANT), spec.name


# --------------------------------------------------------------------------- old saves


def test_each_old_save_default_is_the_default_of_its_field() -> None:
    """A field's old-save default is the value a variant without the setting
    has; the fingerprint's table is the declarations'."""
    for spec in SETTINGS:
        for path, value in spec.old_saves.items():
            obj: Any = Variant(name="x")
            for step in path.split("."):
                obj = getattr(obj, step, None) if obj is not None else None
            if obj is not None:
                assert obj == value, (spec.name, path)
            # The path is one of the setting's fields, the rule class holding
            # them (``passing``), or a field of that name inside a value
            # (``scoring.formula.counters`` beside ``scoring.counters``).
            assert any(
                path == f
                or f.startswith(path + ".")
                or path.rpartition(".")[2] == f.rpartition(".")[2]
                for f in spec.fields
            ), (spec.name, path)
    assert _LATER_FIELDS is OLD_SAVE_DEFAULTS
    assert old_save_key("scoring.formula.counters") == ("Formula", "counters")
    assert old_save_key("passing") == ("Variant", "passing")
    with pytest.raises(ValueError, match="no such config field"):
        old_save_key("bidding.nothing")


# --------------------------------------------------------------------------- the rules page


def test_every_setting_belongs_to_a_rule_of_the_rules_page() -> None:
    """Each declaration's page rule is a rule of :data:`RULES`, each rule has
    fields, and the rules cover exactly the settings of every built-in."""
    labels = [r.label for r in RULES]
    assert len(labels) == len(set(labels))
    for spec in SETTINGS:
        for label in (spec.page_rule, *spec.page_rule_of.values()):
            assert label is None or label in labels, (spec.name, label)
        identity = set(spec.fields + spec.shares) <= IDENTITY_FIELDS
        assert (spec.page_rule is None) == identity, spec.name
    for rule in RULES:
        assert rule.settings, rule.label
    covered = {s for rule in RULES for s in rule.settings}
    for v in BUILT_INS:
        settings = {name for name, _ in leaf_settings(v)}
        assert settings == covered, settings ^ covered


def test_every_field_on_the_rules_page_names_its_line() -> None:
    covered = {s for rule in RULES for s in rule.settings}
    assert set(SETTING_LINES) == covered
    assert SETTING_LINES["bidding.hook"] == "hook"
    assert SETTING_LINES["winning.last_one_in"] == "winner"
    assert SETTING_LINES["play.lead"] == "leading trumps” or “lead"
