"""The passages most relevant to a text, ranked by BM25 over an in-memory SQLite FTS5
index (docs/engine.md, "Sources").

FTS5 ships with Python's own sqlite3, ranks with ``bm25()`` and needs no model and no
dependency; its ``unicode61`` tokenizer folds case and diacritics. A query is the
text's distinct words OR-ed together, so a passage sharing more (and rarer) words
with it ranks first. Scripts written without spaces (Chinese, Japanese) have no words
to split on: a text in them is looked up in a second index of character trigrams
(FTS5's ``trigram`` tokenizer), by the trigrams of its runs of such characters. One
index per set of sources, built on first use and kept for the debate's later calls
(``library``).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .documents import SourceDocument
from .passages import Passage, split_passages

# Words shorter than this (outside scripts written without spaces) carry no topic.
_MIN_WORD = 3
_MAX_TERMS = 64
_WORD = re.compile(r"\w+", re.UNICODE)
# Runs of Han, kana and Hangul: scripts a word tokenizer cannot split.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]{3,}")
_STOPWORDS = frozenset(
    "the and for are but not you all any can had her was one our out has have this that "
    "with from they will would there their what when which who why how into than then them "
    "these those some such only also very just over more most other should could about "
    "does did its it's your were been being each".split())


def estimate_tokens(text: str) -> int:
    """A prompt's tokens without a tokenizer pass: four bytes a token, rounded up (a
    slight overestimate for English, about right for scripts of three-byte letters)."""
    return (len(text.encode("utf-8")) + 3) // 4


def query_terms(text: str) -> list[str]:
    """``text``'s distinct topic words, in order, at most ``_MAX_TERMS``."""
    words = []
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS or word.isdigit():
            continue
        if len(word) < _MIN_WORD and word.isascii():
            continue
        words.append(word)
    return list(dict.fromkeys(words))[:_MAX_TERMS]


def trigram_terms(text: str) -> list[str]:
    """The distinct character trigrams of ``text``'s runs of unspaced scripts."""
    grams = [run[i:i + 3] for run in _UNSPACED.findall(text) for i in range(len(run) - 2)]
    return list(dict.fromkeys(grams))[:_MAX_TERMS]


def _match(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


@dataclass
class Library:
    """A debate's sources as passages, with their BM25 index."""

    passages: list[Passage]
    _db: sqlite3.Connection = field(repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def by_id(self) -> dict[str, Passage]:
        return {p.id: p for p in self.passages}

    def ranked(self, text: str) -> list[Passage]:
        """The passages sharing words with ``text``, best first (ties in document order)."""
        if not self.passages:
            return []
        grams = trigram_terms(text)
        table, terms = ("grams", grams) if grams else ("passages", query_terms(text))
        if not terms:
            return []
        with self._lock:
            rows = self._db.execute(
                f"SELECT rowid FROM {table} WHERE {table} MATCH ? "  # noqa: S608 - fixed names
                f"ORDER BY bm25({table}), rowid", (_match(terms),)).fetchall()
        return [self.passages[row[0]] for row in rows]

    def within(self, ranked: Iterable[Passage], budget: int,
               exclude: Sequence[Passage] = ()) -> list[Passage]:
        """Passages of ``ranked`` taken in turn while they fit ``budget`` tokens, then
        put back in document order (a reader follows a document, and the same choice
        always reads the same)."""
        skip = {p.id for p in exclude}
        chosen, used = [], 0
        for passage in ranked:
            if passage.id in skip:
                continue
            cost = passage_tokens(passage)
            if used + cost > budget:
                continue
            chosen.append(passage)
            used += cost
        order = {p.id: n for n, p in enumerate(self.passages)}
        return sorted(chosen, key=lambda p: order[p.id])


def passage_tokens(passage: Passage) -> int:
    # The id and the blank line around it, as rendered (sources.offer.render_passages).
    return estimate_tokens(passage.text) + 6


def _build(documents: Sequence[tuple[str, str, str]]) -> Library:
    passages: list[Passage] = []
    for source_id, title, text in documents:
        passages += split_passages(SourceDocument(id=source_id, title=title, text=text))
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE VIRTUAL TABLE passages USING fts5(body, "
               "tokenize = 'unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE grams USING fts5(body, tokenize = 'trigram')")
    rows = [(n, p.text) for n, p in enumerate(passages)]
    db.executemany("INSERT INTO passages(rowid, body) VALUES (?, ?)", rows)
    db.executemany("INSERT INTO grams(rowid, body) VALUES (?, ?)", rows)
    return Library(passages, db)


@lru_cache(maxsize=16)
def _cached(documents: tuple[tuple[str, str, str], ...]) -> Library:
    return _build(documents)


def library(sources: Sequence[SourceDocument]) -> Library:
    """The passages and index of ``sources``: built once per distinct set of sources,
    so every call of a debate (and a re-run on the same documents) reuses it."""
    return _cached(tuple((d.id, d.title, d.text) for d in sources))
