"""The workflow roles' contracts (docs/protocols.md 3): who plays which role, and the
checks a phase 2 discussion must pass (citations of another role, a missed point
acknowledged, a key recommendation), made in code and never retried."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from .labels import labels
from .schemas import (
    ContractCheck,
    CriticAnalysis,
    Discussion,
    ResearcherAnalysis,
    SynthesizerAnalysis,
)

QUORUM = 2
MIN_CITATIONS = 2


@dataclass(frozen=True)
class Role:
    key: str
    label: str
    focus: str
    must_not: str
    schema: type[BaseModel]


ROLES = [
    Role("researcher", "Researcher",
         "evidence, possibilities, alternatives, evidence gaps, falsifiability",
         "conclude without naming evidence gaps, or present speculation as fact",
         ResearcherAnalysis),
    Role("critic", "Critic",
         "risks, weaknesses, challenged assumptions, each with a mitigation and its "
         "likelihood and impact",
         "critique without a mitigation, or skip likelihood and impact", CriticAnalysis),
    Role("synthesizer", "Synthesizer", "patterns, integration, decision frameworks",
         "declare a single best option, hide disagreement, or force consensus",
         SynthesizerAnalysis),
]


# --------------------------------------------------------------------------- contract


def _role_of(text: str) -> str | None:
    lower = text.strip().lower()
    for role in ROLES:
        if role.key in lower or role.label.lower() in lower:
            return role.key
    return None


def check_discussion(role: str, discussion: Discussion, round_number: int = 1,
                     language: str = "en") -> ContractCheck:
    """Phase 2's contract, on the typed output: citations must name another role. The
    problems are written in the debate's ``language`` (pages and reports show them)."""
    t = labels(language)
    valid = [c for c in discussion.citations
             if c.claim.strip() and _role_of(c.source_role) not in (None, role)]
    acknowledged = [a for a in discussion.acknowledged_missed if a.strip()]
    has_recommendation = bool(discussion.key_recommendation.strip())
    problems = []
    if len(valid) < MIN_CITATIONS:
        dropped = len(discussion.citations) - len(valid)
        extra = t("wf.problem.dropped", dropped=dropped) if dropped else ""
        problems.append(t("wf.problem.citations", n=len(valid), min=MIN_CITATIONS) + extra)
    if not acknowledged:
        problems.append(t("wf.problem.no_acknowledged"))
    if not has_recommendation:
        problems.append(t("wf.problem.no_recommendation"))
    return ContractCheck(role=role, round=round_number, passed=not problems,
                         citations=len(valid), acknowledged=len(acknowledged),
                         has_recommendation=has_recommendation, problems=problems)
