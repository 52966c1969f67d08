"""The adversarial protocol's schemas: what the proposer and the critic answer, and
the typed result."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...schemas import (
    NonEmpty,
    ProtocolResult,
    ResultSummary,
    StopReason,
    Strict,
    decision_options_field,
)
from .domains import DetectedDomain
from .issues import Issue, Resolution, RoundTally, SeverityCounts, TrackedIssue


class IssueReply(Strict):
    issue_id: NonEmpty
    reply: NonEmpty


class Proposal(Strict):
    summary: NonEmpty  # the approach, or what changed since the previous version
    replies: list[IssueReply] = Field(default_factory=list)  # one per issue of the feedback
    proposal: NonEmpty  # the full version, never a diff


class Critique(Strict):
    assessment: NonEmpty
    resolutions: list[Resolution] = Field(default_factory=list)
    issues: list[Issue] = Field(default_factory=list)
    claimed_counts: SeverityCounts | None = None


class KeyDecision(Strict):
    issue: NonEmpty
    decision: NonEmpty
    rationale: NonEmpty


class AdversarialSynthesis(Strict):
    final_solution: NonEmpty
    key_decisions: list[KeyDecision] = Field(default_factory=list)
    remaining_risks: list[NonEmpty] = Field(default_factory=list)


# --------------------------------------------------------------------------- result


class AdversarialRound(BaseModel):
    round: int
    proposal: Proposal
    critique: Critique
    tally: RoundTally
    decision: str  # continue | converged | max_rounds | stopped_by_user
    status_line: str


class AdversarialResult(ProtocolResult):
    domain: DetectedDomain
    rounds_completed: int
    max_rounds: int
    stop_reason: StopReason
    stop_explanation: str
    rounds: list[AdversarialRound]
    issues: list[TrackedIssue]
    final_solution: str
    key_decisions: list[KeyDecision]
    remaining_risks: list[str]
    options: list[str] = decision_options_field()

    def summarize(self) -> ResultSummary:
        # The synthesizer always writes a final solution, converged or not; what the
        # critic still holds against it is in issues and remaining_risks.
        return ResultSummary(
            protocol=self.protocol, stop_reason=self.stop_reason.value,
            stop_explanation=self.stop_explanation, decision=self.final_solution or None,
            divergence=None, degraded=self.degraded, simulated=self.simulated)
