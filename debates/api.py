"""JSON API for debates, mounted at /api/debates. Token or session auth (see
council_site.api_auth); the same access helper and the same form validation as the
HTML views."""

from __future__ import annotations

import uuid
from datetime import datetime
from functools import partial
from typing import Any, Union

from django.http import HttpRequest
from ninja import Query, Router, Schema, Status
from pydantic import ConfigDict, Field

from council_site.api_auth import api_auth
from debates import selectors
from debates.access import current_team_access, debate_access
from debates.engine.inputs import InputError
from debates.engine.protocols import result_models
from debates.engine.schemas import MAX_QUESTION_CHARS, Mode
from debates.forms import DebateForm
from debates.models import Debate
from debates.services import IllegalTransition, debate_cancel, debate_start, debate_stop

router = Router(tags=["debates"], auth=api_auth)


class ErrorOut(Schema):
    detail: str
    errors: dict[str, list[str]] = Field(default_factory=dict)


class DebateSummaryOut(Schema):
    code: uuid.UUID
    question: str
    status: str
    stop_reason: str
    degraded: bool
    simulated: bool
    cost_usd: float
    parent: uuid.UUID | None
    created_at: datetime


class AgentOut(Schema):
    index: int
    name: str
    model: str


class RoundMetricOut(Schema):
    round: int
    active_agents: int
    mean_confidence: float
    dispersion: float
    confidence_delta: float | None
    concessions: int | None
    new_arguments: int | None
    agreement: float | None
    leading_verdict: str
    verdict_counts: dict[str, int] | None
    decision: str
    explanation: str


class DebateOut(DebateSummaryOut):
    mode: str
    protocol: str
    model: str
    current_step: str
    stop_explanation: str
    error: str
    last_event_seq: int
    calls: int
    prompt_tokens: int
    completion_tokens: int
    started_at: datetime | None
    finished_at: datetime | None
    options: list[str] | None = Field(description="The options verdicts choose from, as "
                                      "given; null = automatic (see the synthesis)")
    agents: list[AgentOut]
    metrics: list[RoundMetricOut]
    reruns: list[uuid.UUID]


class DebateIn(Schema):
    model_config = ConfigDict(extra="forbid")
    question: str = Field(max_length=MAX_QUESTION_CHARS + 1000)
    context: str = ""
    mode: Mode = Mode.MEDIUM
    protocol: str = Field(default="council",
                          description="A registered protocol: council, adversarial, workflow")
    model: str | None = Field(default=None, description="litellm model; default COUNCIL_MODEL")
    agents: int | None = None
    max_rounds: int | None = None
    threshold: float | None = None
    anonymize_peers: bool = False
    options: list[str] | str | None = Field(
        default=None, description='The answers verdicts choose from: a list or "A, B"; '
        "null = automatic (for/against/conditional, or the alternatives the question names).")
    personas: list[uuid.UUID] = Field(default_factory=list,
                                      description="Library persona codes, panel order.")


class CreatedOut(Schema):
    code: uuid.UUID
    status: str


class StatusOut(Schema):
    code: uuid.UUID
    status: str
    stop_requested: bool


class EventOut(Schema):
    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: datetime


class EventsQuery(Schema):
    after: int = Field(default=0, ge=0)


def _summary(d: Debate) -> dict[str, Any]:
    return {"code": d.code, "question": d.question, "status": d.status,
            "stop_reason": d.stop_reason, "degraded": d.degraded, "simulated": d.simulated,
            "cost_usd": d.cost_usd, "parent": d.parent.code if d.parent else None,
            "created_at": d.created_at}


@router.get("/", response=list[DebateSummaryOut], url_name="debate_list")
def list_debates(request: HttpRequest) -> list[dict[str, Any]]:
    """The current team's debates, newest first."""
    team, _ = current_team_access(request)
    return [_summary(d) for d in selectors.debate_list(team=team)]


@router.post("/", response={201: CreatedOut, 400: ErrorOut}, url_name="debate_create")
def create_debate(request: HttpRequest, payload: DebateIn) -> Status[Any]:
    """Starts a debate; the same checks as the web form, nothing saved on refusal."""
    team, _ = current_team_access(request, write=True)
    data = payload.model_dump(exclude={"personas"}, exclude_none=True)
    data["mode"] = payload.mode.value
    data.setdefault("model", DebateForm.default_config().model)
    data["library_personas"] = [str(c) for c in payload.personas]
    if isinstance(payload.options, list):  # the form field takes "A, B"
        data["options"] = ", ".join(payload.options)
    form = DebateForm(data, team=team)
    if not form.is_valid():
        errors = {k: [str(e) for e in v] for k, v in form.errors.items()}
        first = next(iter(errors.values()), ["invalid input"])[0]
        return Status(400, {"detail": first, "errors": errors})
    try:
        debate = debate_start(team=team, user=request.user, spec=form.spec())
    except InputError as exc:  # bad input or a limit: nothing was saved
        return Status(400, {"detail": str(exc)})
    return Status(201, {"code": debate.code, "status": debate.status})


@router.get("/{uuid:code}", response=DebateOut, url_name="debate_detail")
def get_debate(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """Status, metrics and panel of one debate."""
    debate, _ = debate_access(user=request.user, code=code)
    d = selectors.debate_detail(team=debate.team, code=debate.code)
    return {
        **_summary(d), "mode": d.mode, "protocol": d.protocol,
        "model": d.settings.get("model", ""), "current_step": d.current_step,
        "options": d.settings.get("options"),
        "stop_explanation": d.stop_explanation, "error": d.error,
        "last_event_seq": d.last_event_seq, "calls": d.calls, "prompt_tokens": d.prompt_tokens,
        "completion_tokens": d.completion_tokens, "started_at": d.started_at,
        "finished_at": d.finished_at,
        "agents": [{"index": a.index, "name": a.name, "model": a.model} for a in d.agents.all()],
        "metrics": list(d.round_metrics.all()),
        "reruns": [r.code for r in d.reruns.all()],
    }


# The result of any registered protocol (the council's DebateResult, ...).
ResultOut = Union[tuple(result_models())]  # type: ignore[valid-type]  # noqa: UP007


@router.get("/{uuid:code}/synthesis", response={200: ResultOut, 404: ErrorOut},
            url_name="debate_synthesis")
def get_synthesis(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """The typed result of the debate's protocol (``DebateResult`` for the council),
    once the debate has finished."""
    debate, _ = debate_access(user=request.user, code=code)
    result = selectors.debate_result(debate=debate)
    if result is None:
        return Status(404, {"detail": f"no synthesis yet (the debate is {debate.status})"})
    return Status(200, result)


def _transition(request: HttpRequest, code: uuid.UUID, service: Any) -> Status[Any]:
    debate, _ = debate_access(user=request.user, code=code, write=True)
    try:
        debate = service(debate=debate)
    except IllegalTransition as exc:
        return Status(409, {"detail": str(exc)})
    return Status(200, {"code": debate.code, "status": debate.status,
                        "stop_requested": debate.stop_requested})


@router.post("/{uuid:code}/cancel", response={200: StatusOut, 409: ErrorOut},
             url_name="debate_cancel")
def cancel_debate(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    return _transition(request, code, partial(debate_cancel, user=request.user))


@router.post("/{uuid:code}/stop", response={200: StatusOut, 409: ErrorOut},
             url_name="debate_stop")
def stop_debate(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """Stop debating and synthesise what there is (stop reason "stopped_by_user")."""
    return _transition(request, code, debate_stop)


@router.get("/{uuid:code}/events", response=list[EventOut], url_name="debate_events")
def list_events(request: HttpRequest, code: uuid.UUID,
                query: Query[EventsQuery]) -> list[Any]:
    """The durable event log after sequence number ``after``: poll with the last
    ``seq`` you saw and you miss nothing."""
    debate, _ = debate_access(user=request.user, code=code)
    return selectors.debate_events_after(debate=debate, after=query.after)
