"""JSON API for decisions: ``POST /api/debates/{code}/decision`` records (or changes)
the team's decision on a finished debate, ``GET /api/debates/{code}/decision`` reads
it with its earlier versions, ``GET /api/debates/{code}/decision/receipt`` downloads its
signed receipt (decisions/receipts.py), and ``GET /api/decisions/`` is the team's decision log,
filtered and paginated like the debate list. Same access helper and service as the
web pages (decisions.views); viewers read, editors and owners write, as for comments."""

# No ``from __future__ import annotations``: ninja's @paginate wraps the list view and
# reads its annotations at import time.

import json
import uuid
from datetime import date, datetime
from typing import Any, Literal

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import ValidationError
from ninja.pagination import paginate
from pydantic import ConfigDict

from accounts.access import Need
from accounts.api_auth import api_auth
from api_kit.errors import errors, refuse, refuse_input
from api_kit.pagination import PagePagination
from debates.access import current_team_access
from debates.api import DebateListQuery
from decisions import receipts, selectors, services
from decisions.access import debate_decision_access
from decisions.forms import DecisionFilterForm
from decisions.models import Decision, DecisionState, DecisionVersion, ResultQuality
from decisions.receipts_key import NoReceiptKey
from view_kit.http import AuthenticatedHttpRequest

debate_router = Router(tags=["decisions"], auth=api_auth)
log_router = Router(tags=["decisions"], auth=api_auth)


RESULT_QUALITY = "The debate result's summary.quality when the decision was recorded."


class DecisionIn(Schema):
    model_config = ConfigDict(extra="forbid")
    option: str = Field(default="", max_length=200,
                        description="One of the debate's options (its verdicts' choices).")
    choice: str = Field(default="", max_length=services.MAX_CHOICE,
                        description="Another choice in words, instead of an option.")
    rationale: str = Field(min_length=1, max_length=services.MAX_RATIONALE)
    review_on: date | None = Field(
        default=None, description="When to review it (today or later). Left out: 90 days "
        "on; null: no review.")
    confirm_quality: bool = Field(default=False, description=(
        "Required (true) when the debate's summary.quality is doubtful or unusable: "
        "without it the decision is refused (400, code quality_not_confirmed)."))


class DecisionVersionOut(Schema):
    version: int
    option: str | None
    choice: str | None
    rationale: str
    decided_by: str | None
    decided_at: datetime
    review_on: date | None


class ReviewOut(Schema):
    """The latest review of a decision (the one that counts)."""

    right_option: str | None = Field(description="null: \"can't tell yet\".")
    result: str | None
    notes: str
    review_again_on: date | None
    recorded_by: str | None
    recorded_at: datetime


class DecisionOut(DecisionVersionOut):
    code: uuid.UUID
    debate: uuid.UUID
    question: str
    state: DecisionState
    result_quality: ResultQuality = Field(description=RESULT_QUALITY)
    earlier_versions: list[DecisionVersionOut]
    outcome: ReviewOut | None = Field(description="The latest review; null before any.")


class DecisionListItemOut(DecisionVersionOut):
    """A row of the log; resolved from a Decision (the paginated queryset's items)."""

    code: uuid.UUID
    debate: uuid.UUID
    question: str
    state: DecisionState
    result_quality: ResultQuality = Field(description=RESULT_QUALITY)

    @staticmethod
    def resolve_option(d: Decision) -> str | None:
        return d.option or None

    @staticmethod
    def resolve_choice(d: Decision) -> str | None:
        return d.choice or None

    @staticmethod
    def resolve_decided_by(d: Decision) -> str | None:
        return d.decided_by.get_username() if d.decided_by else None

    @staticmethod
    def resolve_debate(d: Decision) -> uuid.UUID:
        return d.debate.code

    @staticmethod
    def resolve_question(d: Decision) -> str:
        return d.debate.question

    @staticmethod
    def resolve_state(d: Decision) -> str:
        return selectors.decision_state(d)


def _version_out(v: Decision | DecisionVersion) -> dict[str, Any]:
    return {"version": v.version, "option": v.option or None, "choice": v.choice or None,
            "rationale": v.rationale,
            "decided_by": v.decided_by.get_username() if v.decided_by else None,
            "decided_at": v.decided_at, "review_on": v.review_on}


def _list_item(decision: Decision) -> dict[str, Any]:
    return {**_version_out(decision), "code": decision.code, "debate": decision.debate.code,
            "question": decision.debate.question, "state": selectors.decision_state(decision)}


def _review_out(decision: Decision) -> dict[str, Any] | None:
    outcome = selectors.latest_outcome(decision=decision)
    if outcome is None:
        return None
    return {"right_option": outcome.right_option or None, "result": outcome.result or None,
            "notes": outcome.notes, "review_again_on": outcome.review_again_on,
            "recorded_by": outcome.recorded_by.get_username() if outcome.recorded_by else None,
            "recorded_at": outcome.recorded_at}


def _decision_out(decision: Decision) -> dict[str, Any]:
    earlier = selectors.decision_versions(decision=decision)[1:]
    return {**_list_item(decision), "result_quality": decision.result_quality,
            "earlier_versions": [_version_out(v) for v in earlier],
            "outcome": _review_out(decision)}


@debate_router.post("/{uuid:code}/decision", response={200: DecisionOut, **errors(400)},
                    url_name="decision_record")
def record_decision(request: AuthenticatedHttpRequest, code: uuid.UUID,
                    payload: DecisionIn) -> Status[Any]:
    """Records the team's decision on a finished debate: one of its options or another
    choice in words, why, and when to review it. Recording again changes it; the
    earlier versions stay readable. Refused (400, nothing saved): an option that is not
    the debate's, a review date in the past, a debate that has not finished, and a
    doubtful or unusable result without ``confirm_quality`` (code
    quality_not_confirmed)."""
    debate, _ = debate_decision_access(request, code, need=Need.WRITE)
    review = payload.review_on if "review_on" in payload.model_fields_set \
        else services.DEFAULT_REVIEW
    try:
        decision = services.decision_record(
            debate=debate, user=request.user, option=payload.option, choice=payload.choice,
            rationale=payload.rationale, review_on=review,
            confirm_quality=payload.confirm_quality)
    except services.QualityNotConfirmed as exc:
        return refuse_input(exc, code="quality_not_confirmed")
    except services.DecisionError as exc:  # a field's, or an unfinished debate (none)
        return refuse_input(exc)
    decision.debate = debate
    return Status(200, _decision_out(decision))


@debate_router.get("/{uuid:code}/decision", response={200: DecisionOut, **errors(404)},
                   url_name="decision_detail")
def get_decision(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """The team's decision on the debate, with its earlier versions."""
    debate, _ = debate_decision_access(request, code)
    decision = selectors.decision_for_debate(debate=debate)
    if decision is None:
        return refuse(404, "No decision on this debate yet.", code="no_decision")
    decision.debate = debate
    return Status(200, _decision_out(decision))


class ReceiptOut(Schema):
    """A signed decision receipt (docs/teams.md, "Decision receipts"): ``council
    verify-receipt FILE`` checks it offline."""

    format: Literal["council-receipt/1"]
    receipt: dict[str, Any] = Field(description=(
        "The document: question, options, decision and rationale, who decided and when, "
        "the result's digest, the sources with their sha256, the models and settings, "
        "the history."))
    digest: str = Field(description="sha256:<hex> of the document's RFC 8785 canonical form.")
    signature: str = Field(description="Ed25519 signature of the canonical bytes, base64.")
    key_id: str = Field(description="The start of the SHA-256 of the site's public key.")
    public_key: str = Field(description=(
        "The signing public key (32 bytes, base64); check it against "
        "/.well-known/council-receipt-key."))
    parts: dict[str, str] = Field(description=(
        "Unsigned digests of the document's fields, so a checker can name what changed."))


@debate_router.get("/{uuid:code}/decision/receipt",
                   response={200: ReceiptOut, **errors(404, 503)},
                   url_name="decision_receipt")
def get_decision_receipt(request: HttpRequest, code: uuid.UUID) -> Any:
    """The decision's signed receipt, as a JSON download: what the team decided, on what
    evidence, signed by the site's key. Same access as reading the decision; 404
    (no_decision) without one, 503 (receipts_not_configured) when the site has no key."""
    debate, _ = debate_decision_access(request, code)
    decision = selectors.decision_for_debate(debate=debate)
    if decision is None:
        return refuse(404, "No decision on this debate yet.", code="no_decision")
    decision.debate = debate
    try:
        envelope = receipts.decision_receipt(decision)
    except NoReceiptKey as exc:
        return refuse(503, str(exc), code="receipts_not_configured")
    response = HttpResponse(json.dumps(envelope, ensure_ascii=False, indent=2),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{receipts.receipt_filename(decision)}"')
    return response


class DecisionListQuery(DebateListQuery):
    """The debate list's filters (narrowing the decisions' debates), plus the
    decision's own."""

    state: DecisionState | None = None
    owner: str = Field(default="", max_length=150, description="Username of who decided.")
    sort: Literal["newest", "oldest", "review", "question"] | None = Field(  # type: ignore[assignment]
        default=None, description="Default: newest decision first.")


def log_filters(query: DecisionListQuery) -> selectors.DecisionFilters:
    """The query checked by the web log's own form, as the debate list's API does."""
    data = {}
    for key, value in query.model_dump(exclude_none=True).items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        data[key] = value.isoformat() if isinstance(value, date) else str(value)
    form = DecisionFilterForm(data)
    if not form.is_valid():
        raise ValidationError([{"loc": ("query", field), "msg": str(message)}
                               for field, messages in form.errors.items()
                               for message in messages])
    return form.decision_filters()


@log_router.get("/", response=list[DecisionListItemOut], url_name="decision_list")
@paginate(PagePagination)
def list_decisions(request: HttpRequest,
                   filters: Query[DecisionListQuery]) -> QuerySet[Decision]:
    """The current team's decision log, filtered like the debate list (the filters
    narrow the decisions' debates) and by state and owner, a page at a time."""
    team, _ = current_team_access(request)
    return selectors.decision_search(team=team, filters=log_filters(filters))
