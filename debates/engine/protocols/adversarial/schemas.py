"""The adversarial protocol's schemas: what the proposer and the critic answer, and
the typed result."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...schemas import (
    MayCite,
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


class Proposal(MayCite):
    summary: NonEmpty  # the approach, or what changed since the previous version
    replies: list[IssueReply] = Field(default_factory=list)  # one per issue of the feedback
    proposal: NonEmpty  # the full version, never a diff


class Critique(MayCite):
    assessment: NonEmpty
    resolutions: list[Resolution] = Field(default_factory=list)
    issues: list[Issue] = Field(default_factory=list)
    claimed_counts: SeverityCounts | None = None


def claims_more_than_listed(critique: Critique) -> bool:
    """An empty critique whose own counts say it found issues (issue 28)."""
    claimed = critique.claimed_counts
    return not critique.issues and claimed is not None and (
        claimed.red + claimed.yellow + claimed.green) > 0


# What the critic is asked for: a critique whose counts claim issues it does not list
# fails validation, so it is repaired like any schema error (and fails the turn when the
# repair does not help) instead of reading as a clean critique and converging. Stored
# critiques load as ``Critique``: a result stored before keeps loading. No docstring: it
# would be the schema's description, sent to the model.
class AskedCritique(Critique):
    model_config = ConfigDict(title="Critique")

    @model_validator(mode="after")
    def _issues_behind_the_counts(self) -> Self:
        if claims_more_than_listed(self):
            raise ValueError(
                "claimed_counts count issues but issues is empty: list every issue you "
                "counted, or give counts of 0")
        return self


# The name a call carries (prompts, the simulator's generators, the ledger).
AskedCritique.__name__ = "Critique"


class KeyDecision(Strict):
    issue: NonEmpty
    decision: NonEmpty
    rationale: NonEmpty


class AdversarialSynthesis(MayCite):
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
