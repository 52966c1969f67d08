"""The question's own words for the simulated model: content words and short phrases."""

from __future__ import annotations

import re
from functools import cache

from debates.engine.language import detect_language
from debates.engine.sim.data import word_lists


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
    elif language == "ja":
        # Kanji and katakana runs are the content words; hiragana is mostly particles
        # and verb endings. Latin names are kept whole.
        particles = word_lists().stop["ja"]
        runs = re.findall(
            r"[\u3400-\u9fff\uf900-\ufaff\u30a0-\u30ff\u31f0-\u31ffー々]+"
            r"|[A-Za-z][A-Za-z0-9+#.\-]*",
            question,
        )
        for run in sorted(runs, key=lambda r: (not r.isascii() and len(r) < 3, -len(r))):
            if (len(run) >= 2 and run not in particles
                    and run.lower() not in en_stop):
                add(run[:12])
    elif language in ("ko", "fr", "de"):
        stop = word_lists().stop[language] | en_stop
        tokens = re.findall(r"[^\W\d_][\w+#'’\-]*", question)
        words = []
        for token in tokens:
            if language == "ko":
                token = _KO_PARTICLE.sub("", token) if not token.isascii() else token
            elif "'" in token or "’" in token:
                token = re.split(r"['’]", token, maxsplit=1)[-1]  # l'équipe -> équipe
            if len(token) > (1 if language == "ko" else 2) and token.lower() not in stop:
                words.append(token)
        if language == "fr":
            # French noun phrases join their nouns with "de" ("service de facturation").
            for head, tail in re.findall(r"([^\W\d_]{3,}) (?:de|du|des|d') ?([^\W\d_]{3,})",
                                         question):
                if head.lower() not in stop and tail.lower() not in stop:
                    add(f"{head} de {tail}" if not question.count(f"{head} d'") else
                        f"{head} d'{tail}")
        for word in sorted(words, key=lambda w: (not _looks_proper(w), -len(w))):
            add(word)
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
        found = [_THIS_DECISION.get(language, "this decision")]
    return found[:limit]


_THIS_DECISION = {"zh": "这个决定", "ja": "この決定", "ko": "이 결정", "fr": "cette décision",
                  "de": "diese Entscheidung"}
# Korean particles and endings glued to a word's end ("서비스를" -> "서비스").
_KO_PARTICLE = re.compile(
    r"(?:으로|에서|에게|까지|부터|처럼|보다|하고|이나|이랑|을|를|이|가|은|는|에|로|의|와|과|도|만)$"
)


def _looks_proper(word: str) -> bool:
    return any(ch.isupper() for ch in word[1:]) or any(ch.isdigit() for ch in word)
