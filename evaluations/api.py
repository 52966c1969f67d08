"""JSON API for evaluations, mounted at /api/evaluations: list, create, read, cancel
and the exports. Token or session auth (accounts.api_auth); the same access helper and
service as the pages (evaluations.views): viewers and read-only tokens read, editors
and owners start and cancel, other teams get 404."""

# No ``from __future__ import annotations``: ninja's @paginate wraps the list view and
# reads its annotations at import time.

import base64
import binascii
import uuid
from datetime import datetime
from typing import Any, Literal

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema, Status
from ninja.pagination import paginate
from pydantic import ConfigDict

from accounts.access import Need
from accounts.api_auth import api_auth
from api_kit.errors import RATE_LIMITED_DOC, errors, refuse, refuse_input
from api_kit.pagination import PagePagination
from debates.access import current_team_access
from debates.engine import EVALUATION_ARMS, MAX_AGENTS, MIN_AGENTS, InputError
from debates.limits import RateLimited
from evaluations import exports, selectors, services
from evaluations.access import evaluation_access
from evaluations.models import Evaluation
from view_kit.http import AuthenticatedHttpRequest

router = Router(tags=["evaluations"], auth=api_auth)


class EvaluationSummaryOut(Schema):
    code: uuid.UUID
    status: str
    set_kind: str
    set: str
    arms: list[str]
    model: str
    agents: int
    simulated: bool
    done: int
    total: int
    failed_questions: int
    cost_usd: float | None = Field(description="So far; null when the model has no price "
                                   "(unknown, not free).")
    created_at: datetime
    finished_at: datetime | None


class EvaluationOut(EvaluationSummaryOut):
    spec: dict[str, Any]
    error: str
    report: dict[str, Any] | None = Field(description=(
        "report_json: arms.<arm> with accuracy, ci [low, high], n, prompt_tokens, "
        "completion_tokens, cost_usd, models ...; paired.council_vs_vote (and the mixed "
        "arms' pairs, e.g. mixed_council_vs_council) with table and p_value; "
        "prompt_versions: questions answered under each prompt version. "
        "While running: the report so far; null before any question is stored."))


class UploadIn(Schema):
    model_config = ConfigDict(extra="forbid")
    filename: str = Field(max_length=200, description="Ends in .jsonl or .csv.")
    content: str = Field(description="The file's text (UTF-8), or base64 with "
                         "content_encoding base64.")
    content_encoding: Literal["text", "base64"] = "text"


class EvaluationIn(Schema):
    model_config = ConfigDict(extra="forbid")
    set: str = Field(description="A generated set (arithmetic, chain, compare), upload or "
                     "decisions.")
    n: int = Field(default=50, ge=1, le=services.MAX_QUESTIONS)
    seed: int = Field(default=7, ge=0, le=services.MAX_SEED)
    arms: list[str] = Field(default_factory=lambda: list(services.DEFAULT_ARMS),
                            description=f"Among {', '.join(EVALUATION_ARMS)}.")
    agents: int = Field(default=3, ge=MIN_AGENTS, le=MAX_AGENTS)
    model: str = Field(default="sim/default", max_length=200)
    sim_accuracy: float | None = Field(default=None, ge=0.0, le=1.0, description=(
        "Set: a simulated population answers (each agent right with this probability); "
        "no model is called."))
    panel_models: list[str] = Field(default_factory=list, max_length=MAX_AGENTS, description=(
        "For the arms mixed_vote and mixed_council: a second panel's models, given to the "
        "seats round-robin (at least two different; simulated ones with sim_accuracy)."))
    upload: UploadIn | None = Field(default=None, description="For set upload.")


class EvaluationCreatedOut(Schema):
    code: uuid.UUID
    status: str


def _summary(e: Evaluation) -> dict[str, Any]:
    return {"code": e.code, "status": e.status, "set_kind": e.set_kind, "set": e.set_label,
            "arms": e.arms, "model": e.spec.get("model", ""), "agents": e.spec.get("agents", 0),
            "simulated": e.simulated, "done": e.done, "total": e.total,
            "failed_questions": e.failed_questions, "cost_usd": e.known_cost_usd,
            "created_at": e.created_at, "finished_at": e.finished_at}


class EvaluationListItemOut(EvaluationSummaryOut):
    @staticmethod
    def resolve_set(e: Evaluation) -> str:
        return e.set_label

    @staticmethod
    def resolve_model(e: Evaluation) -> str:
        return str(e.spec.get("model", ""))

    @staticmethod
    def resolve_agents(e: Evaluation) -> int:
        return int(e.spec.get("agents", 0))


@router.get("/", response=list[EvaluationListItemOut], url_name="evaluation_list")
@paginate(PagePagination)
def list_evaluations(request: HttpRequest) -> QuerySet[Evaluation]:
    """The current team's evaluations, newest first, a page at a time."""
    team, _ = current_team_access(request)
    return selectors.evaluation_list(team=team)


def _upload_bytes(upload: UploadIn) -> bytes:
    if upload.content_encoding == "text":
        return upload.content.encode("utf-8")
    try:
        return base64.b64decode(upload.content, validate=True)
    except (binascii.Error, ValueError):
        raise services.EvaluationError("upload.content is not valid base64.",
                                       field="upload.content") from None


@router.post("/", response={201: EvaluationCreatedOut, **errors(400, 429)},
             url_name="evaluation_create", openapi_extra=RATE_LIMITED_DOC)
def create_evaluation(request: AuthenticatedHttpRequest, payload: EvaluationIn) -> Status[Any]:
    """Starts an evaluation; the same checks as the web form, nothing saved on refusal
    (an upload's problems are listed in ``errors.upload``, each with its line)."""
    team, _ = current_team_access(request, write=True)
    try:
        evaluation = services.evaluation_start(team=team, user=request.user, request=(
            services.EvaluationRequest(
                set_name=payload.set, n=payload.n, seed=payload.seed, arms=tuple(payload.arms),
                agents=payload.agents, model=payload.model, sim_accuracy=payload.sim_accuracy,
                panel_models=payload.panel_models,
                upload=_upload_bytes(payload.upload) if payload.upload else None,
                filename=payload.upload.filename if payload.upload else "")))
    except RateLimited:
        raise  # 429 with Retry-After (council_site.api)
    except services.EvaluationError as exc:
        if exc.problems:  # an upload's, one line each
            return refuse(400, exc.message, {"upload": exc.problems})
        return refuse_input(exc)
    except InputError as exc:  # the model (its field), the cost cap or budget (none)
        return refuse_input(exc)
    return Status(201, {"code": evaluation.code, "status": evaluation.status})


@router.get("/{uuid:code}", response=EvaluationOut, url_name="evaluation_detail")
def get_evaluation(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """Progress, settings and the report (so far, while it runs)."""
    e, _ = evaluation_access(user=request.user, code=code)
    return {**_summary(e), "spec": e.spec, "error": e.error,
            "report": selectors.evaluation_report(e)}


@router.post("/{uuid:code}/cancel", response={200: EvaluationCreatedOut, **errors(409)},
             url_name="evaluation_cancel")
def cancel_evaluation(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """Stops a queued or running evaluation; what it measured so far stays."""
    e, _ = evaluation_access(user=request.user, code=code, need=Need.WRITE)
    try:
        e = services.evaluation_cancel(evaluation=e)
    except services.IllegalTransition as exc:
        return refuse(409, str(exc))
    return Status(200, {"code": e.code, "status": e.status})


@router.get("/{uuid:code}/export.json", response=dict[str, Any], url_name="evaluation_export_json")
def export_json(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """The page's JSON export: the run's fields and its report."""
    e, _ = evaluation_access(user=request.user, code=code)
    return exports.evaluation_json(e)


class CsvQuery(Schema):
    rows: Literal["arms", "questions"] = Field(default="arms",
                                               description="A row per arm or per question.")


@router.get("/{uuid:code}/export.csv", response={200: None}, url_name="evaluation_export_csv",
            openapi_extra={"responses": {"200": {
                "description": "CSV, a header row first.",
                "content": {"text/csv": {"schema": {"type": "string"}}}}}})
def export_csv(request: HttpRequest, code: uuid.UUID, query: Query[CsvQuery]) -> HttpResponse:
    e, _ = evaluation_access(user=request.user, code=code)
    body = exports.arms_csv(e) if query.rows == "arms" else exports.questions_csv(e)
    return HttpResponse(body, content_type="text/csv; charset=utf-8")
