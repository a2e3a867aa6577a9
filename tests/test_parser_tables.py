"""The two Lark parsers come from tables shipped with the package (issue 24).

* No parser is built at import, and ``import cardrules`` plus a first
  ``load()`` never builds one from its grammar (no ``Lark(...)`` call at all:
  the shipped tables are loaded), so no process pays the grammar analysis or
  the ``interegular`` collision check.
* The shipped tables match the grammars: their key is the grammar's, they were
  written by the installed Lark, and they parse every built-in variant file and
  a set of formulas (good and bad) exactly as a parser built from the grammar.
* Tables that do not match (an edited grammar, another Lark, a damaged file)
  are ignored and the parser is built from the grammar.
* The grammars themselves stay checked in Lark's strict mode
  (``test_dsl_parser.py`` and ``test_scoring.py`` build them strict, with
  ``interegular``), and the check is also done here on the tables' grammar.

Regenerate the tables after editing a grammar with
``python -c "from cardrules.dsl.parser import write_parser_tables as w; w()"``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import lark
import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from cardrules.dsl.conditions import split_conditions
from cardrules.dsl.loader import builtin_dir
from cardrules.dsl.parser import normalize_text, variant_parser_spec
from cardrules.parser_tables import (
    TABLES,
    ParserSpec,
    build_fresh,
    load_parser,
    tables_text,
)
from cardrules.scoring import formula_parser_spec

ROOT = Path(__file__).resolve().parent.parent

_PROBE = r"""
import sys
import lark

built = []
_init = lark.Lark.__init__

def counting_init(self, *args, **kwargs):
    built.append(args[0][:40] if args else "")
    _init(self, *args, **kwargs)

lark.Lark.__init__ = counting_init
import cardrules
from cardrules.dsl.parser import lark_parser
from cardrules.scoring import formula_parser

at_import = (lark_parser.cache_info().currsize, formula_parser.cache_info().currsize)
cardrules.load("kachuful")
after_load = (lark_parser.cache_info().currsize, formula_parser.cache_info().currsize)
print(at_import, after_load, len(built))
"""


def test_no_parser_is_built_at_import_nor_from_its_grammar_at_the_first_load() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert done.stdout.split() == ["(0,", "0)", "(1,", "1)", "0"], done.stdout + done.stderr


def _specs() -> list[ParserSpec]:
    return [variant_parser_spec(), formula_parser_spec()]


@pytest.mark.parametrize("spec", _specs(), ids=lambda s: s.name)
def test_the_shipped_tables_are_for_this_grammar_and_this_lark(spec: ParserSpec) -> None:
    doc = json.loads(TABLES[spec.name].read_text(encoding="utf-8"))
    hint = (
        "regenerate: python -c 'from cardrules.parser_tables import write_tables; write_tables()'"
    )
    assert doc["key"] == spec.key, hint
    assert doc["lark"] == lark.__version__, hint
    _, source = load_parser(spec)
    assert source == "tables"


def _same_shape(a: Lark, b: Lark) -> None:
    assert sorted(repr(t) for t in a.terminals) == sorted(repr(t) for t in b.terminals)
    assert sorted(map(_rule, a.rules)) == sorted(map(_rule, b.rules))


def _rule(r: Any) -> str:
    o = r.options
    shape = (str(r.origin.name), [str(s.name) for s in r.expansion], r.order, r.alias)
    return repr((*shape, o.keep_all_tokens, o.expand1, o.priority, o.empty_indices))


def _variant_bodies() -> list[str]:
    bodies = []
    for path in sorted(builtin_dir().glob("*.cardrules")):
        text = normalize_text(path.read_text(encoding="utf-8"), str(path))
        bodies.append(split_conditions(text, str(path))[0] + "\n")
    return bodies


def _outcome(parser: Lark, text: str) -> Any:
    try:
        return ("ok", parser.parse(text))
    except UnexpectedInput as exc:
        return (
            "error",
            type(exc).__name__,
            exc.pos_in_stream,
            sorted(getattr(exc, "expected", ())),
        )


def test_the_variant_tables_parse_as_the_grammar_does() -> None:
    spec = variant_parser_spec()
    shipped, _ = load_parser(spec)
    fresh = build_fresh(spec)
    _same_shape(shipped, fresh)
    bodies = _variant_bodies()
    assert len(bodies) >= 50
    # Every built-in, and each one cut short (errors at the same place,
    # expecting the same terminals).
    for body in bodies:
        assert _outcome(shipped, body) == _outcome(fresh, body)
        cut = body[: len(body) // 2] + "\u00a7\n"
        assert _outcome(shipped, cut) == _outcome(fresh, cut)


FORMULAS = [
    "tricks",
    "if exact then 10 + bid else 0",
    "if bid = 0 and exact then 5 + cards else -bid",
    "tricks * 2 - bid // 3",
    "if anyone took all of hearts then 0 else taken of hearts",
    "max(bid, tricks) - min(1, 2)",
    "if not exact or tricks > 3 then 1 else 2",
    "if took Q♠ then -13 else 0",
    "bid +",
    "if then",
    "tricks tricks",
    "((1)",
    "1 = = 2",
]


def test_the_formula_tables_parse_as_the_grammar_does() -> None:
    spec = formula_parser_spec()
    shipped, _ = load_parser(spec)
    fresh = build_fresh(spec)
    _same_shape(shipped, fresh)
    seen = 0
    for text in FORMULAS:
        a, b = _outcome(shipped, text), _outcome(fresh, text)
        if a[0] == "ok":
            seen += 1
            assert b[0] == "ok"
            assert (a[1].node, a[1].kind) == (b[1].node, b[1].kind), text
        else:
            assert a == b, text
    assert seen >= 5


def test_tables_that_do_not_match_are_ignored(tmp_path: Path) -> None:
    spec = formula_parser_spec()
    good = tables_text(spec)
    path = tmp_path / "tables.json"
    path.write_text(good, encoding="utf-8")
    assert load_parser(spec, path)[1] == "tables"
    # An edited grammar: another key.
    edited = ParserSpec(spec.name, spec.grammar + "\n// edited\n", spec.options, spec.runtime)
    parser, source = load_parser(edited, path)
    assert source == "grammar"
    assert parser.parse("tricks + 1").kind == shipped_kind(spec)
    # Another Lark version wrote them.
    doc = json.loads(good)
    doc["lark"] = "0.0.1"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_parser(spec, path)[1] == "grammar"
    # Damaged, truncated, missing, not an object.
    for text in ("{", good[: len(good) // 2], "[]", '{"key": "' + spec.key + '"}'):
        path.write_text(text, encoding="utf-8")
        assert load_parser(spec, path)[1] == "grammar"
    doc = json.loads(good)
    doc["data"] = {"rules": 7}
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_parser(spec, path)[1] == "grammar"
    assert load_parser(spec, tmp_path / "missing.json")[1] == "grammar"


def shipped_kind(spec: ParserSpec) -> Any:
    return load_parser(spec)[0].parse("tricks + 1").kind


def test_building_from_the_grammar_does_not_run_the_collision_check() -> None:
    import lark.lexer

    before = lark.lexer.has_interegular
    build_fresh(formula_parser_spec())
    assert lark.lexer.has_interegular is before


@pytest.mark.parametrize("spec", _specs(), ids=lambda s: s.name)
def test_the_tables_grammar_is_strict(spec: ParserSpec) -> None:
    # Strict mode needs interegular (the test extra installs it).
    parser = Lark(spec.grammar, strict=True, **spec.options, **spec.runtime)
    assert parser.options.strict is True


def test_parse_file_remembers_a_file_read_and_not_an_error() -> None:
    from cardrules.dsl.parser import parse_file
    from cardrules.errors import VariantError

    text = "game: cache-probe\nplayers: 4\nhand size: 5\nscore: tricks\n"
    first = parse_file(text, path="<probe>")
    assert parse_file(text, path="<probe>") is first
    # Another path is another file (its errors and positions name it).
    assert parse_file(text, path="<other>").path == "<other>"
    bad = "game: cache-probe\nplayers: four\n"
    for _ in range(2):
        with pytest.raises(VariantError, match="<probe>:2"):
            parse_file(bad, path="<probe>")
    # A long text is read each time.
    long = text + ("# " + "x" * 1_000 + "\n") * 20
    assert parse_file(long, path="<probe>") == parse_file(long, path="<probe>")
    assert parse_file(long, path="<probe>") is not parse_file(long, path="<probe>")
