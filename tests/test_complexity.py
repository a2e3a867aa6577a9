"""No function a reviewer cannot hold in their head: radon's cyclomatic
complexity of every function and method of ``cardrules/`` is at most 30.

Ruff's mccabe check (C901, in pyproject.toml) guards the same limit as one
types, but counts ``and``/``or`` and comprehensions less than radon does; this
test holds the package to radon's measure, the one the project reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity", reason="radon is in the test extra")
radon_visitors = pytest.importorskip("radon.visitors", reason="radon is in the test extra")

PACKAGE = Path(__file__).resolve().parent.parent / "cardrules"
LIMIT = 30

#: Blocks allowed above the limit, each with the measured reason.
EXEMPT: dict[str, str] = {}


def _blocks() -> list[tuple[str, int]]:
    out: set[tuple[str, int]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        rel = path.relative_to(PACKAGE.parent).as_posix()
        stack = list(radon_complexity.cc_visit(source))
        while stack:
            block = stack.pop()
            # A class's own figure sums its methods; each method counts alone.
            stack.extend(getattr(block, "methods", ()))
            stack.extend(getattr(block, "closures", ()))
            if isinstance(block, radon_visitors.Function):
                out.add((f"{rel}:{block.fullname}", block.complexity))
    return sorted(out)


def test_no_function_above_the_limit() -> None:
    blocks = _blocks()
    assert len(blocks) > 1000, "radon should see the whole package"
    over = sorted(
        (f"{name} ({cc})" for name, cc in blocks if cc > LIMIT and name not in EXEMPT),
    )
    assert not over, (
        f"functions above radon complexity {LIMIT}: split them into named steps: {over}"
    )


def test_every_exemption_is_still_needed() -> None:
    measured = dict(_blocks())
    stale = [name for name in EXEMPT if measured.get(name, 0) <= LIMIT]
    assert not stale, f"no longer above the limit, drop the exemption: {stale}"
