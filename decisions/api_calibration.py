"""JSON API for learning from outcomes: ``POST /api/debates/{code}/outcome`` records a
review, ``GET /api/calibration`` reads the current team's scores. The same access
helper (viewers read, editors and owners write), service and selector as the pages."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field

from accounts.access import Need
from accounts.api_auth import api_auth
from api_kit.errors import errors, refuse_input
from debates.access import current_team_access
from decisions.access import debate_decision_access
from decisions.calibration import left_out_unusable, team_calibration
from decisions.models import Outcome, OutcomeResult
from decisions.outcomes import MAX_NOTES, OutcomeError, outcome_record
from decisions.scoring import TOO_FEW, Calibration
from decisions.selectors import decision_state
from view_kit.http import AuthenticatedHttpRequest

outcome_router = Router(tags=["decisions"], auth=api_auth)
calibration_router = Router(tags=["decisions"], auth=api_auth)


class OutcomeIn(Schema):
    model_config = ConfigDict(extra="forbid")
    right_option: str | None = Field(
        max_length=200,
        description="The debate's option that proved right, or null for \"can't tell "
                    "yet\" (the review moves to review_again_on).")
    result: OutcomeResult | None = Field(
        default=None, description="How it went; required with a right option.")
    notes: str = Field(default="", max_length=MAX_NOTES)
    review_again_on: date | None = Field(
        default=None, description="With \"can't tell yet\" only: when to look again "
                                  "(default: 90 days on).")


class OutcomeOut(Schema):
    code: uuid.UUID
    debate: uuid.UUID
    right_option: str | None
    result: str | None
    notes: str
    review_again_on: date | None
    recorded_by: str | None
    recorded_at: datetime
    decision_state: str = Field(description="decided, review_due or reviewed.")


def outcome_out(outcome: Outcome) -> dict[str, Any]:
    return {
        "code": outcome.code, "debate": outcome.decision.debate.code,
        "right_option": outcome.right_option or None, "result": outcome.result or None,
        "notes": outcome.notes, "review_again_on": outcome.review_again_on,
        "recorded_by": outcome.recorded_by.get_username() if outcome.recorded_by else None,
        "recorded_at": outcome.recorded_at, "decision_state": decision_state(outcome.decision),
    }


@outcome_router.post("/{uuid:code}/outcome", response={201: OutcomeOut, **errors(400)},
                     url_name="decision_outcome")
def record_outcome(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: OutcomeIn
                   ) -> Status[Any]:
    """Records what the review of the debate's decision found: the option that proved
    right and how it went (the decision becomes reviewed and counts in calibration),
    or "can't tell yet" (right_option null), which moves the review date. Refused
    (400, nothing saved) without a decision or with a right option that is not one of
    the debate's options."""
    debate, _ = debate_decision_access(request, code, need=Need.WRITE)
    try:
        outcome = outcome_record(
            debate=debate, user=request.user, right_option=payload.right_option,
            result=payload.result.value if payload.result else "", notes=payload.notes,
            review_again_on=payload.review_again_on)
    except OutcomeError as exc:  # a field's, or no decision yet (none)
        return refuse_input(exc)
    return Status(201, outcome_out(outcome))


class PersonaScoreOut(Schema):
    name: str
    scored_decisions: int
    brier: float = Field(description="Mean Brier score over the scored decisions: 0 is "
                                     "perfect; lower is better.")
    hits: int = Field(description="Scored decisions where its final verdict proved right.")
    too_few: bool = Field(description=f"Fewer than {TOO_FEW} scored decisions.")
    library_persona: uuid.UUID | None = Field(
        description="The library persona's code; null for a persona composed for one debate.")
    debate: uuid.UUID | None = Field(description="The one debate of a composed persona.")


class PanelOut(Schema):
    decisions_scored: int
    initial_accuracy: float | None = Field(
        description="Share of scored decisions where the round-0 majority verdict proved "
                    "right (a tie counts as a miss); null before any.")
    final_accuracy: float | None = Field(
        description="The same for the final majority verdict.")
    lift: float | None = Field(description="final_accuracy - initial_accuracy.")


class ReliabilityBinOut(Schema):
    low: float
    high: float
    forecasts: int
    mean_confidence: float | None
    hit_rate: float | None


class CalibrationOut(Schema):
    personas: list[PersonaScoreOut]
    panel: PanelOut
    reliability: list[ReliabilityBinOut]
    left_out_unusable: int = Field(description=(
        "Reviewed decisions left out of every figure: their debate's summary.quality "
        "is unusable, so its verdicts and confidences are noise."))


def calibration_out(calibration: Calibration, left_out: int) -> dict[str, Any]:
    panel = calibration.panel
    return {
        "left_out_unusable": left_out,
        "personas": [
            {"name": p.name, "scored_decisions": p.scored, "brier": round(p.brier, 4),
             "hits": p.hits, "too_few": p.too_few,
             "library_persona": None if p.debate else p.scorer, "debate": p.debate}
            for p in calibration.personas],
        "panel": {"decisions_scored": panel.scored, "initial_accuracy": panel.initial,
                  "final_accuracy": panel.final, "lift": panel.lift},
        "reliability": [vars(b) for b in calibration.reliability],
    }


@calibration_router.get("", response=CalibrationOut, url_name="calibration")
def calibration(request: HttpRequest) -> dict[str, Any]:
    """The current team's calibration over its reviewed decisions: personas ranked by
    Brier score (those with enough decisions first), the panel's accuracy before and
    after debating, and the reliability bins (docs/teams.md, Scoring)."""
    team, _ = current_team_access(request)
    return calibration_out(team_calibration(team=team), left_out_unusable(team=team))
