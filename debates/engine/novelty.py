"""Near-duplicate detection for debate items.

LLMs paraphrase: "we lack data on migration cost" and "the cost of migrating is
unknown" are the same argument. Exact matching (the reference implementation's
choice) makes every paraphrase look new, so "diminishing returns" never fires.

Similarity is the Dice coefficient over normalised token sets: lower-cased,
punctuation and stop words removed, a light suffix stemmer and a small synonym
map applied; CJK text is split into character bigrams. Two items are
near-duplicates when their similarity is >= ``DEFAULT_THRESHOLD`` (0.5), chosen
on the paraphrase cases in ``tests/engine/test_novelty.py``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

DEFAULT_THRESHOLD = 0.5

_STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers him his how i if in into is
    it its itself just let me more most my no nor not now of off on once only or other
    our ours out over own same she should so some such than that the their theirs them
    then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours yet still much
    many may might must need needs needed whether one ones us
    """.split()
)

# Words that LLM paraphrases swap freely; mapped to one representative.
_SYNONYMS = {
    "unknown": "unclear",
    "uncertain": "unclear",
    "unproven": "unclear",
    "missing": "lack",
    "lacking": "lack",
    "absent": "lack",
    "insufficient": "lack",
    "costs": "cost",
    "expense": "cost",
    "expenses": "cost",
    "price": "cost",
    "spend": "cost",
    "spending": "cost",
    "big": "large",
    "huge": "large",
    "danger": "risk",
    "hazard": "risk",
    "staff": "team",
    "people": "team",
    "employees": "team",
    "quick": "fast",
    "rapid": "fast",
    "slow": "delay",
    "delays": "delay",
    "clients": "customer",
    "client": "customer",
    "users": "customer",
    "user": "customer",
    "data": "evidence",
    "proof": "evidence",
}

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _stem(word: str) -> str:
    for suffix in ("ations", "ation", "ments", "ment", "ingly", "ing", "edly", "ed", "ies",
                   "es", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if suffix == "ies":
                word += "y"
            break
    return word


def tokens(text: str) -> frozenset[str]:
    """The normalised token set of one item."""
    text = unicodedata.normalize("NFKC", text).lower()
    result: set[str] = set()
    for word in _WORD.findall(text):
        if _CJK.search(word):
            chars = [c for c in word if _CJK.match(c)]
            result.update(a + b for a, b in zip(chars, chars[1:], strict=False))
            if len(chars) == 1:
                result.add(chars[0])
            continue
        if word in _STOP_WORDS:
            continue
        word = _SYNONYMS.get(word, word)
        result.add(_SYNONYMS.get(_stem(word), _stem(word)))
    return frozenset(result)


def similarity(a: str | frozenset[str], b: str | frozenset[str]) -> float:
    ta = tokens(a) if isinstance(a, str) else a
    tb = tokens(b) if isinstance(b, str) else b
    if not ta and not tb:
        return 1.0
    if not ta or not tb:
        return 0.0
    return 2 * len(ta & tb) / (len(ta) + len(tb))


def count_new_items(
    current: Sequence[str], earlier: Iterable[str], threshold: float = DEFAULT_THRESHOLD
) -> int:
    """Items of ``current`` unlike anything in ``earlier``; near-duplicates within
    ``current`` count once."""
    seen = [tokens(item) for item in earlier]
    new = 0
    for item in current:
        toks = tokens(item)
        if any(similarity(toks, old) >= threshold for old in seen):
            continue
        new += 1
        seen.append(toks)
    return new


def cluster(items: Sequence[tuple[str, str]], threshold: float = DEFAULT_THRESHOLD
            ) -> list[tuple[str, list[str]]]:
    """Groups ``(text, source)`` pairs into near-duplicate clusters.

    Returns ``(representative text, sources in first-seen order)`` per cluster,
    largest clusters first. The representative is the cluster's first item.
    """
    clusters: list[tuple[str, frozenset[str], list[str]]] = []
    for text, source in items:
        toks = tokens(text)
        for _rep, rep_toks, sources in clusters:
            if similarity(toks, rep_toks) >= threshold:
                if source not in sources:
                    sources.append(source)
                break
        else:
            clusters.append((text, toks, [source]))
    ordered = sorted(enumerate(clusters), key=lambda ic: (-len(ic[1][2]), ic[0]))
    return [(rep, sources) for _, (rep, _, sources) in ordered]
