"""The text rules over whole turns: every string a turn's payload holds, walked by
field, with one reason per rule and turn (the first evidence, and how many more fields
tripped it). Which fields are prose, which hold a constrained value, and which one is
the decision is the protocol's to say (``TextPolicy``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..schemas import QualityReason
from .rules import REPEATED_ITEM_TIMES, reason_severity
from .text import EchoVocabulary, Finding, digit_run, empty, normalised, repetition, shorten


@dataclass(frozen=True)
class TextPolicy:
    """How a protocol's fields are read. ``prose``: fields a sentence belongs in (the
    empty rule applies); ``constrained``: fields holding an id, an enum value or an
    option, never read; ``decision``: (phase, field) of the decision itself."""

    echo: EchoVocabulary
    prose: frozenset[str]
    constrained: frozenset[str]
    decision: frozenset[tuple[str, str]] = frozenset()
    # Fields that copy text on purpose (a verifier's quote): never an echo.
    verbatim: frozenset[str] = frozenset({"quote"})
    # The debate's options and their labels, normalised: a prose field that names one
    # ("lease" as a stance) is an answer, not an empty field.
    options: frozenset[str] = frozenset()


@dataclass
class TurnText:
    """One stored turn to read: ``where`` names it in words (step, agent)."""

    where: str
    phase: str
    round: int
    agent: int
    payload: dict[str, Any]
    # The engine's Turn.cut and Turn.repaired (docs/engine.md, "Content checks").
    cut: tuple[str, ...] = ()
    repaired: bool | None = None


def leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every string in a payload with its path of field names (list items keep their
    list's name)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, str(key)))
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item, path)


def string_lists(value: Any, path: tuple[str, ...] = ()
                 ) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """Every list of strings in a payload with its path of field names."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from string_lists(item, (*path, str(key)))
    elif isinstance(value, list):
        texts = [item for item in value if isinstance(item, str)]
        if texts:
            yield path, texts
        for item in value:
            if not isinstance(item, str):
                yield from string_lists(item, path)


def repeated_item(items: list[str]) -> Finding | None:
    """One item (case, spacing and punctuation aside) ``REPEATED_ITEM_TIMES`` or more
    times in one list."""
    counts: dict[str, int] = {}
    for item in items:
        flat = normalised(item)
        if flat:
            counts[flat] = counts.get(flat, 0) + 1
    if not counts:
        return None
    flat, times = max(counts.items(), key=lambda kv: kv[1])
    if times < REPEATED_ITEM_TIMES:
        return None
    return ("degenerate_text.repeated_items",
            f"{times} of {len(items)} items the same: {shorten(flat, 60)}")


def _findings(policy: TextPolicy, name: str, text: str) -> list[Finding]:
    found = [digit_run(text), repetition(text)]
    if name not in policy.verbatim:
        found.append(policy.echo.echo(text, prose=name in policy.prose))
    if name in policy.prose and normalised(text) not in policy.options:
        found.append(empty(text))
    return [f for f in found if f is not None]


def turn_reasons(turn: TurnText, policy: TextPolicy) -> list[QualityReason]:
    """The text rules that fire on ``turn``: one reason per rule, naming the first
    field; a rule that fires on the decision field is ``degenerate_decision``."""
    first: dict[str, tuple[str, str]] = {}
    more: dict[str, int] = {}
    for path, text in leaves(turn.payload):
        name = path[-1] if path else ""
        if name in policy.constrained:
            continue
        for rule, evidence in _findings(policy, name, text):
            if (turn.phase, ".".join(path)) in policy.decision:
                rule, evidence = "degenerate_decision", f"{rule}: {evidence}"
            if rule in first:
                more[rule] = more.get(rule, 0) + 1
            else:
                first[rule] = (".".join(path), evidence)
    for path, items in string_lists(turn.payload):
        if path and path[-1] in policy.constrained:
            continue
        finding = repeated_item(items)
        if finding is not None and finding[0] not in first:
            first[finding[0]] = (".".join(path), finding[1])
    reasons = []
    for rule, (where, evidence) in first.items():
        extra = f" (and {more[rule]} more)" if rule in more else ""
        reasons.append(QualityReason(
            rule=rule, severity=reason_severity(rule), where=f"{turn.where} · {where}{extra}",
            evidence=evidence, phase=turn.phase, round=turn.round,
            agent=turn.agent if turn.agent >= 0 else None))
    return reasons
