"""``cardrules.format`` of something that is not a Variant: a clear TypeError."""

from __future__ import annotations

from typing import Any

import pytest

import cardrules
from cardrules.dsl import format as format_variant


@pytest.mark.parametrize("bad", ["not a variant", None, 42, {"name": "oh-hell"}])
def test_format_of_a_non_variant_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="format\\(\\) needs a Variant"):
        cardrules.format(bad)
    with pytest.raises(TypeError, match="needs a Variant"):
        format_variant(bad)


def test_format_of_variant_text_points_to_format_source() -> None:
    with pytest.raises(TypeError, match="use format_source"):
        cardrules.format("game: oh-hell\n")


def test_format_of_a_variant_still_works() -> None:
    v = cardrules.load("oh-hell")
    assert cardrules.parse(cardrules.format(v)) == v
