"""Text from a variant file, made safe to put on a Markdown rules page.

A rules page mixes words the generator writes with text that comes from the
variant file or the command line: the title, the summary, the other names, the
parent's name, the options given with ``--set``, the file's own name and the
file itself. Whoever renders the page (the site, or an app showing the page of
a user's file) must get that text back as text, never as HTML, a link, emphasis,
a heading, a table cell or a way out of the code block that shows the file.

Every function here takes raw text and returns Markdown that renders as exactly
that text (control characters and runs of white space become one space):

* :func:`md_text` for text inside a sentence or a table cell;
* :func:`md_line` for text that starts a line (a summary, a heading's words);
* :func:`md_code` for an inline code span (a command, a file name);
* :func:`md_fence` for a fenced code block (the variant file);
* :func:`page_link` for the address of another variant's page, given only for
  a plain catalog name, so an author's text never becomes a link target.

Examples:
    >>> md_text("Kachuful <img src=x onerror=alert(1)>")
    'Kachuful &lt;img src=x onerror=alert(1)&gt;'
    >>> md_text("[link](javascript:alert(2))")
    '\\\\[link\\\\](javascript:alert(2))'
    >>> page_link("../{name}/", "javascript:alert(1)") is None
    True
"""

from __future__ import annotations

import re

__all__ = ["md_code", "md_fence", "md_line", "md_text", "page_link", "plain"]

#: Control characters (line breaks included) and the Unicode line separators.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: Characters that start Markdown syntax inside a line: escaped with a backslash
#: (every renderer, Python-Markdown and CommonMark alike, takes these escapes).
_PUNCT = re.compile(r"([\\`*_{}\[\]|#])")
#: An ``&`` that would start a character reference.
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
#: Characters that start a block (list, quote, heading underline, admonition,
#: details) when they begin a line.
_LINE_START = frozenset("-+=>!?:%~")
#: The plain catalog names that may go into a link (as built-in names are).
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


def plain(text: str) -> str:
    """``text`` on one line: control characters and white-space runs become one space."""
    return " ".join(_CONTROL.sub(" ", text).split())


def md_text(text: str) -> str:
    """``text`` as Markdown that renders as the text itself, inside a line.

    HTML (``<`` and ``>``) and character references become entities; every
    character that could start emphasis, code, a link, an attribute list or a
    table cell is escaped; ``~`` (strike-through in some renderers) becomes an
    entity.
    """
    out = _ENTITY.sub("&amp;", plain(text))
    out = out.replace("<", "&lt;").replace(">", "&gt;").replace("~", "&#126;")
    return _PUNCT.sub(r"\\\1", out)


def md_line(text: str) -> str:
    """:func:`md_text`, also safe at the start of a line (no list, quote or heading)."""
    out = md_text(text)
    if out[:1] in _LINE_START:
        out = f"&#{ord(out[0])};{out[1:]}"
    return re.sub(r"^(\d+)([.)])", r"\1\\\2", out)


def md_code(text: str) -> str:
    """``text`` as an inline code span, however many backticks it holds."""
    body = plain(text)
    runs = [len(r) for r in re.findall(r"`+", body)]
    ticks = "`" * (max(runs, default=0) + 1)
    if body.startswith("`") or body.endswith("`"):
        body = f" {body} "
    return f"{ticks}{body}{ticks}"


def md_fence(source: str, lang: str = "text") -> list[str]:
    """The lines of a fenced code block showing ``source`` exactly.

    The fence is one backtick longer than the longest run of backticks in
    ``source``, so no line of it (a ```` ``` ```` or ``~~~`` in a comment, say)
    can close the block.
    """
    runs = [len(r) for r in re.findall(r"`+", source)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    body = source.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
    return [f"{fence}{lang}", body, fence]


def page_link(template: str, name: str) -> str | None:
    """``template`` with ``{name}`` filled in, or ``None`` unless ``name`` is a plain
    catalog name (lower-case letters, digits and dashes)."""
    if not _NAME.fullmatch(name):
        return None
    return template.format(name=name)
