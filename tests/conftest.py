"""Checks that run under every test.

Every :class:`~cardrules.errors.CardrulesError` made while a test runs (every
refusal the golden, explain, catalog and audit tests provoke) must carry a code
from :data:`cardrules.errors.ERROR_CODES` and JSON-native data, and its
``to_dict()`` must survive ``json.dumps`` and ``from_dict``: a test that
provokes a refusal without a documented code fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cardrules.errors import ERROR_CODES, CardrulesError


def check_error(err: CardrulesError) -> None:
    """``err`` has a documented code and JSON data, and round-trips through JSON."""
    assert err.code in ERROR_CODES, f"{type(err).__name__} code {err.code!r} is not in ERROR_CODES"
    assert isinstance(err.data, dict)
    text = json.dumps(err.to_dict(), allow_nan=False)
    back = CardrulesError.from_dict(json.loads(text))
    assert (back.code, str(back), back.data) == (err.code, str(err), err.data)
    assert isinstance(back, type(err)) or type(err).__name__ not in {
        "CardError",
        "VariantError",
        "InvalidAction",
        "IllegalAction",
        "SaveError",
        "ScoreError",
    }


@pytest.fixture(autouse=True)
def _every_error_has_a_code(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    made: list[CardrulesError] = []
    init = CardrulesError.__init__

    def recording(self: CardrulesError, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(CardrulesError, "__init__", recording)
    yield
    monkeypatch.undo()
    for err in made[:200]:
        check_error(err)
