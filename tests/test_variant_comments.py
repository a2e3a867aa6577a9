"""Every built-in variant file's opening comment is written for readers: it cites a
public source (a Pagat page, a game's published rules) by its address, and never an
internal text that a reader cannot look up."""

from __future__ import annotations

import pytest
from catalog_support import internal_names, leading_comment

import cardrules
from cardrules.dsl.loader import builtin_names


def _lead(name: str) -> str:
    source = cardrules.load(name).source
    return " ".join(line.lstrip("#").strip() for line in leading_comment(source))


@pytest.mark.parametrize("name", builtin_names())
def test_comment_cites_public_sources_only(name: str) -> None:
    lead = _lead(name)
    assert "https://" in lead, f"{name}: no public source"
    assert not internal_names(lead), f"{name}: {internal_names(lead)}"


@pytest.mark.parametrize(
    "comment",
    [
        "Follows seed 000 (Kachuful rules in English) and seed 003 (Kachuful rules in Dutch).",
        "Blackout (or Blob). Seed 002 (the Oh Hell sheet) scores only exact bids.",
        "Not from the rules texts: a house rule.",
        "Kazhutha rules, see shared/seeds/001-kazhutha.md.",
        "Seed 003 (the Dutch Kachuful text) plays the one-card hand blind.",
    ],
)
def test_internal_names_are_found(comment: str) -> None:
    """The comments the files had before they were rewritten would fail."""
    assert internal_names(comment)


def test_public_sources_are_not_internal_names() -> None:
    lead = _lead("kachuful") + " " + _lead("kazhutha") + " " + _lead("blackout")
    assert not internal_names(lead)
    assert "https://www.pagat.com/exact/ohhell.html" in lead
