"""The question's own words for the simulated model: content words and short phrases."""

from __future__ import annotations

import re
from functools import cache

from debates.engine.language import detect_language
from debates.engine.sim_data import word_lists


@cache
def _zh_split_re() -> re.Pattern[str]:
    # Longest first, so a longer function word wins over its own prefix.
    words = sorted(word_lists().zh_split, key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words))


def salient_phrases(question: str, language: str | None = None, limit: int = 6) -> list[str]:
    """The question's own content words and short phrases, most distinctive first."""
    language = language or detect_language(question)
    en_stop = word_lists().en_stop
    found: list[str] = []

    def add(phrase: str) -> None:
        phrase = phrase.strip(" .,;:!?\"'()[]")
        if phrase and phrase.lower() not in {p.lower() for p in found}:
            found.append(phrase)

    if language == "zh":
        runs = re.findall(r"[\u3400-\u9fff\uf900-\ufaff]+|[A-Za-z][A-Za-z0-9+#.\-]*", question)
        pieces: list[str] = []
        for run in runs:
            if run.isascii():
                if run.lower() not in en_stop and len(run) > 1:
                    pieces.append(run)
                continue
            for piece in _zh_split_re().split(run):
                if 2 <= len(piece) <= 8:
                    pieces.append(piece)
                elif len(piece) > 8:
                    pieces.append(piece[:6])
        # Longer pieces and Latin names are usually the subject; two-character pieces
        # are often verbs or time words.
        for piece in sorted(pieces, key=lambda p: (not p.isascii() and len(p) < 3, -len(p))):
            add(piece)
    else:
        tokens = re.findall(r"[A-Za-z][A-Za-z0-9+#\-']*(?:\.[A-Za-z0-9]+)*", question)
        # Case is kept for names: inner capitals or digits ("PostgreSQL", "S3"), or a
        # capital anywhere but at the start of the question.
        words = [
            t if _looks_proper(t) or (i > 0 and t[:1].isupper()) else t.lower()
            for i, t in enumerate(tokens)
        ]

        def content(word: str) -> bool:
            if word.lower() in en_stop:
                return False
            return len(word) > 2 or (len(word) == 2 and word.isupper())

        # Runs of adjacent content words read as noun phrases ("billing service");
        # single lower-case words are often verbs, so they come last.
        chunk: list[str] = []
        for word in [*words, ""]:
            if word and content(word):
                chunk.append(word)
                continue
            if len(chunk) >= 2:
                add(" ".join(chunk[-3:]))
            chunk = []
        for word in words:
            if content(word) and word != word.lower():
                add(word)
        for word in sorted((w for w in words if content(w)), key=len, reverse=True):
            add(word)
    if not found:
        found = ["这个决定"] if language == "zh" else ["this decision"]
    return found[:limit]


def _looks_proper(word: str) -> bool:
    return any(ch.isupper() for ch in word[1:]) or any(ch.isdigit() for ch in word)
