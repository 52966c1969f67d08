"""JSON API for debates, mounted at /api/debates. Token or session auth (see
accounts.api_auth); the same access helper and the same form validation as the
HTML views.

``router`` is the debates API's one router: the routes of ``compare``, this module's
own (list, create, read, cancel, stop, the event list), ``events`` and ``actions``, in
that order. The routes live in this package's ``__init__`` so that their OpenAPI
operation ids (ninja derives them from the module: ``debates_api_list_debates``) stayed
what they were before the API became a package."""

# No ``from __future__ import annotations`` here: ninja's @paginate wraps the list view,
# and the wrapper resolves string annotations in ninja's namespace, not this module's.
import dataclasses
import uuid
from datetime import date, datetime
from functools import partial
from typing import Any, Literal

from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Query, Router, Schema, Status
from ninja.errors import ValidationError
from ninja.pagination import paginate
from pydantic import ConfigDict, Field

from accounts.api_auth import api_auth
from api_kit.dates import IsoDate
from api_kit.errors import RATE_LIMITED_DOC, errors, refuse, refuse_input
from api_kit.pagination import PagePagination
from debates import selectors
from debates.access import current_team_access, debate_access
from debates.api import actions, compare, events
from debates.api.events import EventOut
from debates.api.results import ResultOut
from debates.engine import (
    MAX_AGENTS,
    MAX_QUESTION_CHARS,
    DecisionRule,
    InputError,
    Mode,
    Persona,
    Quality,
    ResultSummary,
    check_model,
)
from debates.limits import RateLimited
from debates.models import Debate, DebateStatus
from debates.selectors import DebateFilters
from debates.services import (
    DebateSpec,
    IllegalTransition,
    debate_cancel,
    debate_start,
    debate_stop,
)
from debates.web.forms import DebateForm
from debates.web.list_filters import DebateFilterForm
from view_kit.http import AuthenticatedHttpRequest

# This module's own routes; ``router`` below is what the site mounts.
routes = Router(tags=["debates"], auth=api_auth)


class DebateSummaryOut(Schema):
    code: uuid.UUID
    question: str
    status: str
    stop_reason: str
    degraded: bool
    simulated: bool
    quality: Quality | None = Field(description=(
        "Read this first: the result's summary.quality (sound, doubtful, unusable); "
        "null while the debate has no result."))
    cost_usd: float
    parent: uuid.UUID | None
    created_at: datetime


class AgentOut(Schema):
    index: int
    name: str
    model: str


class RoundMetricOut(Schema):
    """A finished round's measures, as the debate's protocol derives them from the
    stored turns (the council's convergence measures; none for the other protocols)."""

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
    decision_options: list[str] = Field(
        description="What a decision on this debate can name (POST .../decision `option`, "
        "MCP record_decision), under every protocol: the options given, else the "
        "composed or derived ones (for, against, conditional by default).")
    agents: list[AgentOut]
    metrics: list[RoundMetricOut]
    reruns: list[uuid.UUID]
    summary: ResultSummary | None = Field(description=(
        "The result's summary (as in /synthesis): read quality and quality_reasons "
        "first; null while the debate has no result."))


class DebateIn(Schema):
    model_config = ConfigDict(extra="forbid")
    # No max_length here: the form's clean_question gives the one message (the body is
    # capped at 12 MiB before it is read).
    question: str = Field(description=f"At most {MAX_QUESTION_CHARS:,} characters once "
                          "surrounding whitespace is trimmed.")
    context: str = ""
    mode: Mode = Mode.MEDIUM
    protocol: str = Field(default="council",
                          description="A registered protocol: council, adversarial, workflow")
    model: str | None = Field(default=None, description="litellm model; default COUNCIL_MODEL")
    panel_models: list[str] | str | None = Field(
        default=None, description='A mixed panel: litellm models (a list or "a, b") given '
        "to the agents in turn, a persona's own model first; peers on different models "
        "are anonymised and see arguments, not verdicts. null = `model` for every agent.")
    agents: int | None = None
    max_rounds: int | None = None
    threshold: float | None = None
    anonymize_peers: bool = False
    options: list[str] | str | None = Field(
        default=None, description='The answers verdicts choose from: a list or "A, B"; '
        "null = automatic (for/against/conditional, or the alternatives the question names).")
    personas: list[uuid.UUID] = Field(default_factory=list,
                                      description="Library persona codes, panel order.")
    sources: list[uuid.UUID] = Field(
        default_factory=list, max_length=20,
        description="Codes of the team's library sources (POST /api/sources/), read as S1, "
        "S2... in this order; the debate starts once they are read.")
    # The CLI's options the web form does not show.
    inline_personas: list[Persona] = Field(
        default_factory=list, max_length=MAX_AGENTS,
        description="Personas given in full (the persona file's fields, like the CLI's "
        "--personas); they sit first on the panel, before library personas.")
    synthesis_model: str | None = Field(
        default=None, max_length=200,
        description="litellm model for the synthesis and verifier (CLI --synthesis-model).")
    fallback_model: str | None = Field(
        default=None, max_length=200,
        description="Tried when the synthesis model fails; default COUNCIL_FALLBACK_MODEL.")
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1,
                             description="Seed for the models and the simulator.")
    decision_rule: DecisionRule | None = Field(
        default=None,
        description="Which vote the council's recommendation follows (CLI "
        "--decision-rule): vote (the independent positions), debate (the final "
        "positions) or confidence (the independent positions weighted by confidence "
        "rank); null = vote, or debate when the panel's models differ. Council only.")


class CreatedOut(Schema):
    code: uuid.UUID
    status: str


class StatusOut(Schema):
    code: uuid.UUID
    status: str
    stop_requested: bool


class EventsQuery(Schema):
    after: int = Field(default=0, ge=0)


class DebateListItemOut(DebateSummaryOut):
    mode: str
    protocol: str
    author: str | None = Field(description="Username of who started it.")

    @staticmethod
    def resolve_parent(debate: Debate) -> uuid.UUID | None:
        return debate.parent.code if debate.parent else None

    @staticmethod
    def resolve_author(debate: Debate) -> str | None:
        return debate.created_by.get_username() if debate.created_by else None


class DebateListQuery(Schema):
    """The web list's filters (debates.web.list_filters), as query parameters."""

    q: str = Field(default="", max_length=200, description="Words in the question or "
                   "synthesis (PostgreSQL: web search syntax, stemmed).")
    status: DebateStatus | None = None
    stop_reason: str = Field(default="", max_length=30)
    protocol: str = Field(default="", max_length=20)
    author: str = Field(default="", max_length=150, description="Username of who started it.")
    persona: str = Field(default="", max_length=200,
                         description="Part of an agent's name (any case).")
    library: uuid.UUID | None = Field(default=None,
                                      description="Debates with a persona of this library.")
    created_from: IsoDate | None = None
    created_to: IsoDate | None = None
    degraded: bool | None = None
    simulated: bool | None = None
    sort: Literal["newest", "oldest", "cost", "question", "relevance"] | None = Field(
        default=None, description="Default: relevance with q, else newest.")


def list_filters(query: DebateListQuery) -> DebateFilters:
    """The query checked by the web list's own form, so API and page filter alike;
    where the page would drop a bad value, the API says which field is wrong."""
    data = {}
    for key, value in query.model_dump(exclude_none=True).items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        data[key] = value.isoformat() if isinstance(value, date) else str(value)
    form = DebateFilterForm(data)
    if not form.is_valid():
        raise ValidationError([{"loc": ("query", field), "msg": str(message)}
                               for field, messages in form.errors.items()
                               for message in messages])
    return form.filters()


def _summary(d: Debate) -> dict[str, Any]:
    return {"code": d.code, "question": d.question, "status": d.status,
            "stop_reason": d.stop_reason, "degraded": d.degraded, "simulated": d.simulated,
            "cost_usd": d.cost_usd, "parent": d.parent.code if d.parent else None,
            "created_at": d.created_at}


@routes.get("/", response=list[DebateListItemOut], url_name="debate_list")
@paginate(PagePagination)
def list_debates(request: HttpRequest, filters: Query[DebateListQuery]) -> QuerySet[Debate]:
    """The current team's debates, filtered and sorted like the web list (the same
    form and search), a page at a time: follow ``next`` until it is null."""
    team, _ = current_team_access(request)
    return selectors.debate_search(team=team, filters=list_filters(filters))


CLI_ONLY = {"inline_personas", "synthesis_model", "fallback_model", "seed", "decision_rule"}


def _with_cli_options(spec: DebateSpec, payload: DebateIn) -> DebateSpec:
    """The form's spec plus what only the CLI offers, checked the way the CLI checks
    it (an unknown model is an InputError: 400, nothing saved)."""
    changes: dict[str, Any] = {"personas": list(payload.inline_personas)}
    if payload.synthesis_model:
        model = check_model(payload.synthesis_model, field="synthesis_model")
        changes["phase_models"] = {"synthesis": model, "verify": model}
    if payload.fallback_model:
        changes["fallback_model"] = check_model(payload.fallback_model,
                                               field="fallback_model")
    if payload.seed is not None:
        changes["seed"] = payload.seed
    if payload.decision_rule is not None:
        changes["decision_rule"] = payload.decision_rule.value
    return dataclasses.replace(spec, **changes)


@routes.post("/", response={201: CreatedOut, **errors(400, 429)}, url_name="debate_create",
             openapi_extra=RATE_LIMITED_DOC)
def create_debate(request: AuthenticatedHttpRequest, payload: DebateIn) -> Status[Any]:
    """Starts a debate; the same checks as the web form, nothing saved on refusal."""
    team, _ = current_team_access(request, write=True)
    data = payload.model_dump(exclude=CLI_ONLY | {"personas", "sources"}, exclude_none=True)
    data["library_sources"] = [str(c) for c in payload.sources]
    data["mode"] = payload.mode.value
    data.setdefault("model", DebateForm.default_config().model)
    data["library_personas"] = [str(c) for c in payload.personas]
    for listed in ("options", "panel_models"):  # the form's fields take "A, B"
        if isinstance(data.get(listed), list):
            data[listed] = ", ".join(data[listed])
    form = DebateForm(data, team=team)
    if not form.is_valid():
        problems = {k: [str(e) for e in v] for k, v in form.errors.items()}
        first = next(iter(problems.values()), ["invalid input"])[0]
        return refuse(400, first, problems)
    try:
        debate = debate_start(team=team, user=request.user,
                              spec=_with_cli_options(form.spec(), payload))
    except RateLimited:
        raise  # 429 with Retry-After (council_site.api); nothing was saved
    except InputError as exc:  # bad input, the cost cap or budget: nothing was saved
        return refuse_input(exc)
    return Status(201, {"code": debate.code, "status": debate.status})


def _metric_row(measures: dict[str, Any]) -> dict[str, Any]:
    # The leading verdict is "" on a tie, as the field has always answered.
    return {**measures, "leading_verdict": measures.get("leading_verdict") or ""}


@routes.get("/{uuid:code}", response=DebateOut, url_name="debate_detail")
def get_debate(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """Status, metrics and panel of one debate."""
    debate, _ = debate_access(user=request.user, code=code)
    d = selectors.debate_detail(team=debate.team, code=debate.code)
    summary = getattr(selectors.debate_result(debate=d), "summary", None)
    return {
        **_summary(d), "quality": summary.quality if summary else None, "summary": summary,
        "mode": d.mode, "protocol": d.protocol,
        "model": d.settings.get("model", ""), "current_step": d.current_step,
        "options": d.settings.get("options"),
        "decision_options": selectors.debate_options(d),
        "stop_explanation": d.stop_explanation, "error": d.error,
        "last_event_seq": d.last_event_seq, "calls": d.calls, "prompt_tokens": d.prompt_tokens,
        "completion_tokens": d.completion_tokens, "started_at": d.started_at,
        "finished_at": d.finished_at,
        "agents": [{"index": a.index, "name": a.name, "model": a.model} for a in d.agents.all()],
        "metrics": [_metric_row(m) for m in selectors.round_measures(debate=d)],
        "reruns": [r.code for r in d.reruns.all()],
    }


@routes.get("/{uuid:code}/synthesis", response={200: ResultOut, **errors(404)},
            url_name="debate_synthesis")
def get_synthesis(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """The typed result of the debate's protocol (its result model, named by
    ``protocol``), once the debate has finished."""
    debate, _ = debate_access(user=request.user, code=code)
    result = selectors.debate_result(debate=debate)
    if result is None:
        return refuse(404, f"no synthesis yet (the debate is {debate.status})", code="no_result")
    return Status(200, result)


def _transition(request: HttpRequest, code: uuid.UUID, service: Any) -> Status[Any]:
    debate, _ = debate_access(user=request.user, code=code, write=True)
    try:
        debate = service(debate=debate)
    except IllegalTransition as exc:
        return refuse(409, str(exc))
    return Status(200, {"code": debate.code, "status": debate.status,
                        "stop_requested": debate.stop_requested})


@routes.post("/{uuid:code}/cancel", response={200: StatusOut, **errors(409)},
             url_name="debate_cancel")
def cancel_debate(request: AuthenticatedHttpRequest, code: uuid.UUID) -> Status[Any]:
    return _transition(request, code, partial(debate_cancel, user=request.user))


@routes.post("/{uuid:code}/stop", response={200: StatusOut, **errors(409)},
             url_name="debate_stop")
def stop_debate(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """Stop debating and synthesise what there is (stop reason "stopped_by_user")."""
    return _transition(request, code, debate_stop)


@routes.get("/{uuid:code}/events", response=list[EventOut], url_name="debate_events")
def list_events(request: HttpRequest, code: uuid.UUID,
                query: Query[EventsQuery]) -> list[Any]:
    """The durable event log after sequence number ``after``: poll with the last
    ``seq`` you saw and you miss nothing."""
    debate, _ = debate_access(user=request.user, code=code)
    return selectors.debate_events_after(debate=debate, after=query.after)


router = Router()
for part in (compare.router, routes, events.router, actions.router):
    router.add_router("", part)
