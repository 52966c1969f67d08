"""Citations of passages in an answer's text, and the check of each quote.

An agent cites a passage by its id in brackets and a short exact quote from it:
``[S2.14] "the words quoted" what follows from them``, anywhere in a text field (a list
item or a sentence), so stored turns stay plain strings that read as written. The
quote is looked for in the passage with whitespace, case and the kind of quotation
marks and apostrophes set aside; a quote not found, or an id that names no passage,
is marked (docs/engine.md, "Sources").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Double quotation marks only: an apostrophe inside the words quoted is no end.
_OPEN = "\"“„«「『"
_CLOSE = "\"”“»」』"
_CITATION = re.compile(
    r"\[\s*(S[1-9][0-9]*\.[1-9][0-9]*)\s*\]\s*[:\-–—]?\s*"
    rf"(?:[{_OPEN}]([^{_CLOSE}\n]{{1,600}}?)[{_CLOSE}])?")
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
    return [PassageCitation(m.group(1), (m.group(2) or "").strip())
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
