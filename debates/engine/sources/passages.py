"""Sources split into passages with stable ids: ``S2.14`` is the 14th passage of S2.

A passage is a run of whole paragraphs of about ``TARGET_CHARS`` characters (a longer
paragraph is cut at sentence ends, else at the limit), so the same text always splits
the same way and an id names the same words wherever it is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .documents import SourceDocument

TARGET_CHARS = 1200

_PARAGRAPHS = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


@dataclass(frozen=True)
class Passage:
    id: str  # "S2.14"
    source_id: str  # "S2"
    index: int  # 1-based within its source
    text: str


def _pieces(paragraph: str) -> list[str]:
    if len(paragraph) <= TARGET_CHARS:
        return [paragraph]
    pieces, current = [], ""
    for sentence in _SENTENCE_END.split(paragraph):
        while len(sentence) > TARGET_CHARS:
            head, sentence = sentence[:TARGET_CHARS], sentence[TARGET_CHARS:]
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        if current and len(current) + 1 + len(sentence) > TARGET_CHARS:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    return pieces + ([current] if current else [])


def split_passages(document: SourceDocument) -> list[Passage]:
    chunks: list[str] = []
    current = ""
    for paragraph in (p.strip() for p in _PARAGRAPHS.split(document.text)):
        for piece in _pieces(paragraph) if paragraph else []:
            if current and len(current) + 2 + len(piece) > TARGET_CHARS:
                chunks.append(current)
                current = piece
            else:
                current = f"{current}\n\n{piece}" if current else piece
    if current:
        chunks.append(current)
    return [Passage(f"{document.id}.{i}", document.id, i, text)
            for i, text in enumerate(chunks, start=1)]
