"""The variant language: read, check, resolve and write variant files.

* :func:`parse` reads one file's text on its own;
* :func:`load` / :func:`load_text` also follow ``extends`` (only inside the
  folders they are given) and apply option overrides;
* :func:`format` writes a variant back as canonical text;
* :func:`validate` runs the semantic checks.
"""

from __future__ import annotations

from .formatter import format, format_source
from .loader import (
    EXTENSION,
    builtin_dir,
    builtin_names,
    load,
    load_text,
    parse_override,
)
from .parser import parse
from .validate import validate

__all__ = [
    "EXTENSION",
    "builtin_dir",
    "builtin_names",
    "format",
    "format_source",
    "load",
    "load_text",
    "parse",
    "parse_override",
    "validate",
]
