"""A file name as a page shows it: without bidirectional controls.

A name such as ``invoice\\u202egpj.exe`` is stored as uploaded (the API returns it
unchanged) but displays as ``invoiceexe.jpg``; with the controls left out a reader sees
the characters in their real order (issue 39; docs/web.md, "Sources"). The web form
never carries them (Django drops non-printable characters from an upload's name); the
API and MCP do.
"""

from __future__ import annotations

# The embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the marks
# (U+200E, U+200F, U+061C): everything that reorders the text around it.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
_DROP = {ord(c): None for c in BIDI_CONTROLS}


def shown_file_name(name: str) -> str:
    """``name`` without bidirectional controls, for a page or a message."""
    return name.translate(_DROP)
