"""The rules across turns, on plain figures the protocols hand over: the panel's
names, confidences and stances, the quotes cited as evidence, a critic's counts, the
workflow's contracts (thresholds in ``rules.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import combinations

from ..novelty import similarity, tokens
from ..schemas import QualityReason
from .rules import QUOTE_MIN_FOUND, STANCE_SIMILARITY, reason_severity
from .text import normalised, shorten

# Names a model writes when it fills the schema's slot without composing anyone.
PLACEHOLDER_NAMES = frozenset({
    "name", "names", "namen", "nom", "nombre", "agent", "persona", "personas", "expert",
    "member", "panelist", "person", "string", "example", "placeholder", "john doe",
    "jane doe", "your name", "full name", "名前", "名字", "姓名"})
_COPY_SUFFIX = re.compile(r"\s*\(\d+\)$")


def reason(rule: str, where: str, evidence: str, phase: str | None = None,
           round_number: int | None = None, agent: int | None = None) -> QualityReason:
    return QualityReason(rule=rule, severity=reason_severity(rule), where=where,
                         evidence=shorten(evidence), phase=phase, round=round_number,
                         agent=agent)


def names(composed: Sequence[str]) -> list[QualityReason]:
    """Placeholder or repeated persona names ("Namen", "Namen (2)")."""
    bases = [_COPY_SUFFIX.sub("", n).strip() for n in composed]
    placeholders = [n for n, b in zip(composed, bases, strict=True)
                    if normalised(b) in PLACEHOLDER_NAMES or not normalised(b)]
    repeated = sorted({b for b in bases if bases.count(b) > 1})
    found = []
    if placeholders:
        found.append(reason("agents.placeholder_name", "the panel's names",
                            ", ".join(placeholders), "compose"))
    elif repeated:
        found.append(reason("agents.placeholder_name", "the panel's names",
                            "repeated: " + ", ".join(composed), "compose"))
    return found


def confidences(trails: Sequence[Sequence[float]]) -> list[QualityReason]:
    """``trails``: each agent's confidence by round (position first)."""
    trails = [t for t in trails if t]
    if len(trails) < 2:
        return []
    values = [v for t in trails for v in t]
    shown = "; ".join("→".join(f"{v:.2f}" for v in t) for t in trails)
    if all(v in (0.0, 1.0) for v in values):
        return [reason("confidence.extreme", "every agent's confidence", shown)]
    if max(len(t) for t in trails) >= 2 and len(set(values)) == 1:
        return [reason("confidence.frozen", "every agent's confidence", shown)]
    return []


def stances(stated: Sequence[str], where: str, phase: str,
            round_number: int) -> list[QualityReason]:
    stated = [s for s in stated if s.strip()]
    if len(stated) < 2:
        return []
    same = all(normalised(a) == normalised(b) or similarity(a, b) >= STANCE_SIMILARITY
               for a, b in combinations(stated, 2))
    return [reason("stances.identical", where, stated[0], phase, round_number)] if same else []


def quotes(cited: Iterable[tuple[str, str, str | None, int | None, int | None]],
           corpus: str) -> list[QualityReason]:
    """Quotes, each (where, quote, phase, round, agent), of which under half the words
    appear in ``corpus`` (the debate's turns, its question and its sources)."""
    known = tokens(corpus)
    found = []
    for where, quote, phase, round_number, agent in cited:
        words = tokens(quote)
        share = (sum(1 for w in words if w in known) / len(words)) if words else 0.0
        if share < QUOTE_MIN_FOUND:
            found.append(reason("evidence.unfound_quote", where, f"{share:.0%} found: {quote}",
                                phase, round_number, agent))
    return found
