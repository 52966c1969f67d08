"""A debate's content checks run end to end: the text rules over every turn, the
protocol's own reasons and the registered rules' checks added, one verdict
(``verdict.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from pydantic import BaseModel

from ..schemas import Quality, QualityReason
from .rules import all_rules
from .text import shorten
from .turns import TextPolicy, TurnText, turn_reasons
from .verdict import verdict


def assess(turns: list[TurnText], policy: TextPolicy,
           more: Iterable[QualityReason] = ()) -> tuple[Quality, list[QualityReason]]:
    reasons: list[QualityReason] = []
    flagged = 0
    for turn in turns:
        found = turn_reasons(turn, policy)
        flagged += bool(found)
        reasons += found
    reasons += more
    return verdict(reasons, len(turns), flagged), reasons


def registered_reasons(state: Any, result: Any) -> list[QualityReason]:
    """What the registered rules that bring a check (a plugin's) find in ``result``
    (a ``ProtocolResult``) and its ``state``, for the rules that read its protocol."""
    found = []
    for rule in all_rules().values():
        if rule.check is None or not rule.reads(result.protocol):
            continue
        found += [QualityReason(rule=rule.name, severity=rule.severity, where=f.where,
                                evidence=shorten(f.evidence), phase=f.phase, round=f.round,
                                agent=f.agent) for f in rule.check(state, result)]
    return found


@cache
def schema_words(schemas: tuple[type[BaseModel], ...]) -> frozenset[str]:
    """Every field name and enum value of ``schemas``: what a reply echoes when it
    copies the schema instead of answering (cached: a schema is generated once)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.update(str(k) for k in (node.get("properties") or {}))
            found.update(str(v) for v in node.get("enum") or [] if isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for schema in schemas:
        walk(schema.model_json_schema())
    return frozenset(found)
