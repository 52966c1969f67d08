"""Untrusted text (the question, agent names, model output, comments) written into a
Markdown export, so that whatever renders the export shows the report's own structure
and nothing the text tried to add.

Every Markdown report goes through here: each protocol's report
(``protocols/<name>/report.py``, ``protocols/report_parts.py``) and the team's
follow-up section (``collab/exports.py``). Escaped text renders as exactly what was typed, on
renderers with raw HTML on as well as off: no HTML element, no link, image or
autolink, no heading, list, quote, table row, code block or thematic break. Emphasis and
code spans stay, since they cannot leave the line they are on.
"""

from __future__ import annotations

import re

# A line that starts like this would open a heading, quote, list, table, code fence,
# setext underline or thematic break instead of continuing the report's own structure.
_BLOCK_START = re.compile(r"(?:[#>|=~`]|[-+*](?=\s|$)|[-*_](?:\s*[-*_]){2,}\s*$)")
_ORDERED_START = re.compile(r"(\d{1,9})([.)])")
# "\" first, so the backslashes added for the others are not doubled. "[" and "]" make
# links, images and link reference definitions; "<" raw HTML and autolinks; "&" entities.
_INLINE = {"\\": "\\\\", "[": "\\[", "]": "\\]", "<": "&lt;", "&": "\\&"}
_LINE = str.maketrans(_INLINE)
_CELL = str.maketrans({**_INLINE, "|": "\\|"})


def _escape(text: object, table: dict[int, str]) -> str:
    flat = " ".join(str(text).split()).translate(table)
    if ordered := _ORDERED_START.match(flat):
        return f"{ordered[1]}\\{ordered[2]}{flat[ordered.end():]}"
    return "\\" + flat if _BLOCK_START.match(flat) else flat


def inline(text: object) -> str:
    """``text`` on one line (runs of whitespace, newlines included, become one space),
    escaped so that it adds no element but emphasis and code spans."""
    return _escape(text, _LINE)


def cell(text: object) -> str:
    """``inline`` for a table cell: a ``|`` in the text must not start a new column."""
    return _escape(text, _CELL)


def block(text: object) -> str:
    """Longer model output (a proposal, an analysis) keeping its paragraphs and line
    breaks: each line is ``inline``, lines of a paragraph are joined by hard breaks and
    paragraphs by a blank line. A list or heading the model wrote reads as text."""
    paragraphs = re.split(r"\n\s*\n", str(text).strip())
    lines = ([inline(line) for line in p.splitlines() if line.strip()] for p in paragraphs)
    return "\n\n".join("  \n".join(p) for p in lines if p)
