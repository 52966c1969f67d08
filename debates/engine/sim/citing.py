"""The simulated model cites the passages it was shown (docs/simulator.md).

When a call's hints carry the passages its prompt showed (``passages``), one or two of
the answer's prose or list items get a citation in front, in the form the prompts ask
for: ``[S1.3] "a few exact words of the passage" the item``. About one citation in
six quotes words the passage does not hold, so the engine's check has something to
find. The base answer's draws are not touched: a debate reads the same with sources,
apart from its citations.
"""

from __future__ import annotations

import random
import re
from typing import Any

# Fields whose text is a claim an agent may rest on a passage; ids, verdicts, names
# and enums are never touched.
CITING_FIELDS = frozenset({
    "reasoning", "root_causes", "key_assumptions", "remaining_disagreements",
    "new_evidence_needed", "concessions", "consensus_points", "view", "strongest_evidence",
    "recommendation", "risks", "detail", "summary", "key_points", "evidence", "claims",
    "findings", "analysis", "response", "justification", "path_forward", "claim", "answers"})
WRONG_SHARE = 1 / 6
_POINT_CITE = re.compile(r"^\s*[\[(][A-Za-z]{1,2}\d{1,4}(?:\s*[,;/&]\s*[A-Za-z]{1,2}\d{1,4})*"
                         r"[\])]\s*[:\-–—]?\s*")
_WORDS = re.compile(r"\S+")


def _slots(value: Any, key: str = "") -> list[tuple[Any, Any]]:
    """(container, index or key) of every citable string in ``value``."""
    found: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        for k, item in value.items():
            if isinstance(item, str) and k in CITING_FIELDS:
                found.append((value, k))
            elif isinstance(item, (dict, list)):
                found += _slots(item, k)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            if isinstance(item, str) and key in CITING_FIELDS:
                found.append((value, n))
            elif isinstance(item, (dict, list)):
                found += _slots(item, key)
    return found


def quote_of(text: str, rng: random.Random, wrong: bool) -> str:
    """A run of six to ten words of ``text`` (a wrong one has a word changed)."""
    words = _WORDS.findall(text)
    size = min(len(words), rng.randint(6, 10))
    start = rng.randrange(0, len(words) - size + 1) if words else 0
    chosen = [w.strip('"“”') for w in words[start:start + size]] or ["nothing"]
    if wrong:
        chosen[rng.randrange(len(chosen))] = "never-stated"
    return " ".join(chosen).rstrip(".,;:")


def cite(payload: dict[str, Any], passages: list[dict[str, str]],
         rng: random.Random) -> dict[str, Any]:
    """``payload`` with one or two of its items citing passages of ``passages``."""
    slots = _slots(payload)
    usable = [p for p in passages if str(p.get("text") or "").strip()]
    if not slots or not usable:
        return payload
    for container, where in rng.sample(slots, min(len(slots), rng.choice((1, 1, 2)))):
        passage = rng.choice(usable)
        quote = quote_of(passage["text"], rng, rng.random() < WRONG_SHARE)
        text = container[where]
        head = _POINT_CITE.match(text)
        cut = head.end() if head else 0
        container[where] = f'{text[:cut]}[{passage["id"]}] "{quote}" {text[cut:]}'
    return payload
