"""Citations of passages in an answer's text, and the check of each quote.

An agent cites a passage by its id in brackets and a short exact quote from it:
``[S2.14] "the words quoted" what follows from them``, anywhere in a text field (a list
item or a sentence), so stored turns stay plain strings that read as written. The
quote may stand in double or single quotation marks of any common kind (straight,
curly, guillemets, corner brackets). It is looked for in the passage with whitespace,
case and the kind of quotation marks and apostrophes set aside; a quote not found, or
an id that names no passage, is marked (docs/engine.md, "Sources"), in the reports too
(``mark_citations``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

_OPEN = "\"“„«「『"
_CLOSE = "\"”“»」』"
# Single marks too (a small model writes [S1.2] 'the words'): a single closing mark
# ends the quote only where no letter follows it, so an apostrophe inside the words
# quoted ("the team's skills") is no end.
_SINGLE_OPEN = "'‘‚‹"
_SINGLE_CLOSE = "'’‘›"
_ID = r"(S[1-9][0-9]*\.[1-9][0-9]*)"
_QUOTE = (r"\s*[:\-–—]?\s*"
          rf"(?:[{_OPEN}]([^{_CLOSE}\n]{{1,600}}?)[{_CLOSE}]"
          rf"|[{_SINGLE_OPEN}]([^\n]{{1,600}}?)[{_SINGLE_CLOSE}](?!\w))?")
_CITATION = re.compile(rf"\[\s*{_ID}\s*\]{_QUOTE}")
# The same in rendered Markdown, where the brackets are escaped (``markdown.inline``).
_RENDERED = re.compile(rf"\\?\[\s*{_ID}\s*\\?\]{_QUOTE}")
_ESCAPED = re.compile(r"\\(.)")
_SPACE = re.compile(r"\s+")
_FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'",
                       "’": "'", "「": '"', "」": '"', "『": '"', "』": '"',
                       "–": "-", "—": "-", "\u00a0": " "})
# What a quote may carry at its ends that the passage need not (an ellipsis, a stop).
_ENDS = " .,;:!?…-\"'。、"


@dataclass(frozen=True)
class PassageCitation:
    passage: str  # "S2.14"
    quote: str  # as written ("" when no quote followed the id)


def citations_in(text: str) -> list[PassageCitation]:
    """Every citation in ``text``, in order."""
    return [PassageCitation(m.group(1), (m.group(2) or m.group(3) or "").strip())
            for m in _CITATION.finditer(text)]


def normalised(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_FOLD).casefold()
    return _SPACE.sub(" ", folded).strip()


def quote_found(quote: str, passage_text: str) -> bool:
    """Whether ``quote`` is in the passage, whitespace, case and quotation marks aside.
    An empty quote is not found: a citation must show its words."""
    wanted = normalised(quote).strip(_ENDS)
    return bool(wanted) and wanted in normalised(passage_text)


def without_citations(text: str) -> str:
    """``text`` with its citations (id and quote) taken out: the claim they support."""
    return _SPACE.sub(" ", _CITATION.sub(" ", text)).strip()


def mark_citations(markdown: str, marker: Callable[[PassageCitation], str | None]) -> str:
    """``markdown`` (a rendered report: brackets may be escaped) with ``marker``'s words
    after every citation it has any for (a quote the passage does not hold)."""
    def sub(match: re.Match[str]) -> str:
        quote = _ESCAPED.sub(r"\1", match.group(2) or match.group(3) or "").strip()
        mark = marker(PassageCitation(match.group(1), quote))
        if not mark:
            return match.group(0)
        body = match.group(0)
        kept = body.rstrip()
        if markdown.startswith(mark, match.end()) or markdown.startswith(
                " " + mark, match.start() + len(kept)):
            return body  # marked already
        return f"{kept} {mark}{body[len(kept):]}"

    return _RENDERED.sub(sub, markdown)
