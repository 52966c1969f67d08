"""Text out of an uploaded file, refusing what is not text we can read.

``extract_text(data, filename)`` returns the text or raises ``SourceRefused`` with a
message a user can act on; nothing is written anywhere. This first body reads plain
text and Markdown only; the converters for PDF, DOCX, XLSX/CSV and HTML come behind
the same names.
"""

from __future__ import annotations

from dataclasses import dataclass


class SourceRefused(ValueError):
    """A file that gives no text: the message says why and what to do."""


@dataclass(frozen=True)
class ExtractedText:
    text: str
    kind: str  # "text", "markdown", "pdf", "docx", "xlsx", "csv", "html"


def extract_text(data: bytes, filename: str) -> ExtractedText:
    lower = filename.lower()
    kind = "markdown" if lower.endswith((".md", ".markdown")) else "text"
    if not lower.endswith((".txt", ".md", ".markdown")):
        raise SourceRefused(f"{filename}: this kind of file is not read yet")
    try:
        return ExtractedText(data.decode("utf-8"), kind)
    except UnicodeDecodeError as exc:
        raise SourceRefused(f"{filename}: not UTF-8 text") from exc
