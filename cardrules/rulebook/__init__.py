"""Rules pages: a variant's rules in plain English, generated from its config.

The package's modules each write one part of a page; :func:`rulebook` puts a
page together and :func:`comparison_page` the table of every built-in game.

* :mod:`~cardrules.rulebook.page`: the page, from the parts below;
* :mod:`~cardrules.rulebook.words`: the rules in sentences, and the differences
  from a parent;
* :mod:`~cardrules.rulebook.follow`: what may be played, from the card-set rules;
* :mod:`~cardrules.rulebook.hand_trumps`: the trumps of each hand, as the engine deals them;
* :mod:`~cardrules.rulebook.page_tables`: schedule, scoring and comparison tables;
* :mod:`~cardrules.rulebook.formula`: the score formula in words;
* :mod:`~cardrules.rulebook.play_examples`: seat names, the hook worked through, play examples;
* :mod:`~cardrules.rulebook.hand`: a worked hand played by the engine;
* :mod:`~cardrules.rulebook.shed`: the sections of a shedding game;
* :mod:`~cardrules.rulebook.safe`: escaping of text from a variant file.
* :mod:`~cardrules.rulebook.svg_cards`, :mod:`~cardrules.rulebook.charts`,
  :mod:`~cardrules.rulebook.seating`: the pictures of the site's pages (with
  ``rulebook(variant, pictures=True)``): playing cards, the deal schedule as a
  chart, the table with its dealer, first leader, direction and passes.

Example:
    >>> import cardrules
    >>> from cardrules.rulebook import rulebook
    >>> rulebook(cardrules.load("kachuful")).splitlines()[0]
    '# Kachuful'
"""

from __future__ import annotations

import sys
import types
from typing import Any

from cardrules.rulebook.page import builtin_variants, comparison_page, load_parent, rulebook

__all__ = ["builtin_variants", "comparison_page", "load_parent", "rulebook"]


class _CallablePackage(types.ModuleType):
    """This package, callable as :func:`rulebook`: importing any of its modules makes
    ``cardrules.rulebook`` the package, and ``cardrules.rulebook(variant)`` must
    still write a page."""

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        return rulebook(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
