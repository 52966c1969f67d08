"""More of what the web app does with a debate, under /api/debates: one more round,
re-run, the Markdown and JSON exports and the result's JSON schema. Same services and access
helper as the HTML views (debates.web.views)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router, Schema, Status
from pydantic import ConfigDict, Field

from accounts.api_auth import api_auth
from api_kit.errors import RATE_LIMITED_DOC, errors, refuse, refuse_input
from debates import selectors
from debates.access import current_team_access, debate_access
from debates.api.results import ResultOut
from debates.engine import (
    MAX_QUESTION_CHARS,
    InputError,
    UnknownProtocol,
    get_protocol,
    known_protocols,
)
from debates.limits import RateLimited
from debates.services import IllegalTransition, debate_more_round, debate_rerun
from debates.web import export_sections
from debates.web.export_sections import extra_json
from view_kit.http import AuthenticatedHttpRequest

router = Router(tags=["debates"], auth=api_auth)


class StartedOut(Schema):
    code: uuid.UUID
    status: str
    parent: uuid.UUID | None = None


class RerunIn(Schema):
    model_config = ConfigDict(extra="forbid")
    question: str | None = Field(default=None, max_length=MAX_QUESTION_CHARS + 1000,
                                 description="Edited question; default: the parent's.")
    context: str | None = None
    sources: list[uuid.UUID] | None = Field(
        default=None, max_length=20,
        description="Source or source-version codes of the team, in order; default: the "
        "parent's sources (the same versions).")


@router.get("/schemas/result", response={200: dict[str, Any], **errors(404)},
            url_name="debate_result_schema")
def result_schema(request: HttpRequest, protocol: str = "council") -> Status[Any]:
    """JSON schema of a debate's result (``GET /{code}/synthesis``, export.json) under
    a registered protocol (default the council)."""
    current_team_access(request)
    try:
        return Status(200, get_protocol(protocol).result_model.model_json_schema())
    except UnknownProtocol as exc:
        return refuse(404, str(exc))


class ProtocolOut(Schema):
    name: str = Field(description="Pass as `protocol` when starting a debate.")
    label: str
    description: str
    result_type: str = Field(description="Title of the result's JSON schema.")
    result_schema: dict[str, Any]


@router.get("/protocols", response=list[ProtocolOut], url_name="debate_protocols")
def protocols(request: HttpRequest) -> list[dict[str, Any]]:
    """Every registered protocol (the first is the default) with the JSON schema of
    its result type."""
    current_team_access(request)
    out = []
    for name in known_protocols():
        protocol = get_protocol(name)
        schema = protocol.result_model.model_json_schema()
        out.append({"name": name, "label": protocol.label, "description": protocol.description,
                    "result_type": schema.get("title", protocol.result_model.__name__),
                    "result_schema": schema})
    return out


@router.post("/{uuid:code}/more-round", response={200: StartedOut, **errors(400, 409, 429)},
             url_name="debate_more_round", openapi_extra=RATE_LIMITED_DOC)
def more_round(request: AuthenticatedHttpRequest, code: uuid.UUID) -> Status[Any]:
    """One more cross-examination round on a finished debate, then a new synthesis.
    It spends like a new debate: the team's limits apply (400 for the cost cap,
    budget or an unpriced model, 429 for the rate limit), and a refusal changes
    nothing."""
    debate, _ = debate_access(user=request.user, code=code, write=True)
    try:
        debate = debate_more_round(debate=debate, user=request.user)
    except IllegalTransition as exc:
        return refuse(409, str(exc))
    except RateLimited:
        raise  # 429 with Retry-After (council_site.api)
    except InputError as exc:  # the cost cap, budget or an unpriced model
        return refuse_input(exc)
    return Status(200, {"code": debate.code, "status": debate.status})


@router.post("/{uuid:code}/rerun", response={201: StartedOut, **errors(400, 429)},
             url_name="debate_rerun", openapi_extra=RATE_LIMITED_DOC)
def rerun(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: RerunIn | None = None
          ) -> Status[Any]:
    """A new debate with the same settings (a fresh seed), linked to this one. The
    body is optional."""
    debate, _ = debate_access(user=request.user, code=code, write=True)
    payload = payload or RerunIn()
    try:
        child = debate_rerun(debate=debate, user=request.user, question=payload.question,
                             context=payload.context,
                             sources=None if payload.sources is None
                             else [str(c) for c in payload.sources])
    except RateLimited:
        raise  # 429 with Retry-After (council_site.api)
    except InputError as exc:  # bad input, the cost cap or budget
        return refuse_input(exc)
    return Status(201, {"code": child.code, "status": child.status, "parent": debate.code})


class ExportQuery(Schema):
    threads: bool = Field(default=False, description="true adds the comment threads "
                          "(a \"## Comments\" section), as the web's ?threads=1 does.")


@router.get("/{uuid:code}/export.md", response={200: None, **errors(404)},
            url_name="debate_export_md",
            openapi_extra={"responses": {"200": {
                "description": "The result as Markdown.",
                "content": {"text/markdown": {"schema": {"type": "string"}}}}}})
def export_markdown(request: HttpRequest, code: uuid.UUID,
                    query: Query[ExportQuery]) -> Any:
    """The result as the Markdown report the web app exports (the same body: the
    team's follow-up included); ``threads=true`` adds the comment threads."""
    debate, _ = debate_access(user=request.user, code=code)
    result = selectors.debate_result(debate=debate)
    if result is None:
        return refuse(404, f"no result yet (the debate is {debate.status})", code="no_result")
    options = {export_sections.THREADS} if query.threads else set()
    body = export_sections.export_markdown(debate, result, options=options)
    response = HttpResponse(body, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = export_sections.attachment(
        export_sections.export_filename(debate, "md", options=options))
    return response


@router.get("/{uuid:code}/export.json", response={200: ResultOut, **errors(404)},
            url_name="debate_export_json")
def export_json(request: HttpRequest, code: uuid.UUID) -> Any:
    """The result as the JSON file the web app exports (the same body as
    ``GET /{code}/synthesis``, as a download)."""
    debate, _ = debate_access(user=request.user, code=code)
    result = selectors.debate_result(debate=debate)
    if result is None:
        return refuse(404, f"no result yet (the debate is {debate.status})", code="no_result")
    body = json.dumps({**result.model_dump(mode="json"), **extra_json(debate)},
                      ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = export_sections.attachment(
        export_sections.export_filename(debate, "json"))
    return response
