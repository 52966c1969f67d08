"""The workflow protocol's schemas: each role's phase 1 analysis, the discussion, the
convergence check, the synthesis, and the typed result."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from ...schemas import (
    MayCite,
    NonEmpty,
    ProtocolResult,
    ResultSummary,
    Strict,
    decision_options_field,
)
from .labels import labels


class Level(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Finding(Strict):
    claim: NonEmpty
    evidence: NonEmpty
    kind: Literal["evidence", "speculation"]


class ResearcherAnalysis(MayCite):
    summary: NonEmpty
    findings: list[Finding] = Field(min_length=1)
    alternatives: list[NonEmpty] = Field(default_factory=list)
    evidence_gaps: list[NonEmpty] = Field(min_length=1)  # contract: never conclude without
    falsifiability: list[NonEmpty] = Field(min_length=1)  # what would prove this wrong


class RiskItem(Strict):
    risk: NonEmpty
    challenged_assumption: str = ""
    mitigation: NonEmpty  # contract: no critique without a mitigation
    likelihood: Level
    impact: Level


class CriticAnalysis(MayCite):
    summary: NonEmpty
    risks: list[RiskItem] = Field(min_length=1)
    weaknesses: list[NonEmpty] = Field(default_factory=list)


class Criterion(Strict):
    criterion: NonEmpty
    favours: NonEmpty  # what outcome of this criterion favours which option


class SynthesizerAnalysis(MayCite):
    summary: NonEmpty
    patterns: list[NonEmpty] = Field(min_length=1)
    options: list[NonEmpty] = Field(min_length=2)  # contract: no single best option
    decision_framework: list[Criterion] = Field(min_length=1)


class Citation(Strict):
    source_role: str
    claim: str
    response: str = ""


class Discussion(MayCite):
    """Phase 2. Lax on purpose: the contract is checked in code and reported."""

    response: NonEmpty
    citations: list[Citation] = Field(default_factory=list)
    acknowledged_missed: list[str] = Field(default_factory=list)
    key_recommendation: str = ""


class Rebuttal(MayCite):
    """Phase 2b: concede or justify, and a path forward."""

    stance: Literal["concede", "justify"]
    argument: NonEmpty
    path_forward: NonEmpty
    key_recommendation: NonEmpty


class Basis(StrEnum):
    SAME_DIRECTION = "same_direction"
    TWO_AGREE_THIRD_ACCEPTS = "two_agree_third_accepts"
    SHARED_FRAMEWORK = "shared_framework"
    OPPOSING = "opposing"
    CONTESTED_TRADEOFFS = "contested_tradeoffs"
    NEW_CONCERNS = "new_concerns"
    UNCLEAR = "unclear"


CONVERGED_BASES = {Basis.SAME_DIRECTION, Basis.TWO_AGREE_THIRD_ACCEPTS, Basis.SHARED_FRAMEWORK}


class ConvergenceCheck(Strict):
    basis: Basis
    key_agreement: NonEmpty
    remaining_tension: str = ""
    disagreement: str = ""  # what phase 2b must address


class WorkflowSynthesis(MayCite):
    summary: NonEmpty
    consensus: list[NonEmpty] = Field(default_factory=list)
    tensions: list[NonEmpty] = Field(default_factory=list)
    decision_framework: list[Criterion] = Field(min_length=1)
    next_steps: list[NonEmpty] = Field(min_length=1)


class ContractCheck(BaseModel):
    role: str
    round: int
    passed: bool
    citations: int
    acknowledged: int
    has_recommendation: bool
    problems: list[str] = Field(default_factory=list)


class RolePerspective(BaseModel):
    role: str
    label: str
    focus: str
    must_not: str
    analysis: dict[str, Any] | None = None
    failed: str | None = None


class DiscussionEntry(BaseModel):
    round: int  # 1 = phase 2, 2 = phase 2b
    role: str
    label: str
    discussion: Discussion | None = None
    rebuttal: Rebuttal | None = None
    contract: ContractCheck | None = None
    failed: str | None = None


ConvergenceLabel = Literal["converged", "partially_converged", "divergent"]


class ConvergenceStatus(BaseModel):
    rounds: int  # discussion rounds held (1 or 2)
    status: ConvergenceLabel
    key_agreement: str
    remaining_tension: str
    checks: list[ConvergenceCheck]


def _in_words(text: str, t: Callable[..., str]) -> str:
    """``text``, or the words for it when a model wrote a basis identifier there
    ("new_concerns") instead of a sentence."""
    known = text.strip().casefold()
    return t(f"wf.basis.{known}") if known in Basis._value2member_map_ else text


def stop_explanation(c: ConvergenceStatus, language: str) -> str:
    """How the workflow ended, in words of ``language``: the outcome, the last check's
    basis, the key agreement and the remaining tension. The basis is the check of the
    last discussion round (``checks`` holds one per round held, unless one failed)."""
    t = labels(language)
    basis = c.checks[-1].basis.value if c.checks and len(c.checks) == c.rounds else "none"
    detail = t("wf.explain", agreement=_in_words(c.key_agreement, t) or "-",
               tension=_in_words(c.remaining_tension, t) or "-")
    return t("wf.explain.outcome", status=t(f"page.wf_status.{c.status}"),
             basis=t(f"wf.basis.{basis}"), detail=detail)


class WorkflowResult(ProtocolResult):
    deep: bool
    perspectives: list[RolePerspective]
    discussion: list[DiscussionEntry]
    contract_checks: list[ContractCheck]
    contract_failures: int
    convergence: ConvergenceStatus
    synthesis: WorkflowSynthesis
    options: list[str] = decision_options_field()

    def summarize(self) -> ResultSummary:
        # Fixed phases, no stop rule: the last convergence check is how it ended. A
        # divergent panel gives no single decision (like the council's genuine
        # disagreement); the synthesis then frames the trade-off.
        c = self.convergence
        divergent = c.status == "divergent"
        return ResultSummary(
            protocol=self.protocol, stop_reason=c.status,
            stop_explanation=stop_explanation(c, self.language),
            decision=None if divergent else self.synthesis.summary,
            divergence=(c.remaining_tension or self.synthesis.summary) if divergent else None,
            degraded=self.degraded, simulated=self.simulated)
