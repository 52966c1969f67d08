"""More of what the web app does with a debate, under /api/debates: one more round,
re-run, the Markdown export and the result's JSON schema. Same services and access
helper as the HTML views (debates.views)."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field

from council_site.api_auth import api_auth
from debates import selectors
from debates.access import current_team_access, debate_access
from debates.engine.inputs import InputError
from debates.engine.protocols import UnknownProtocol, get_protocol
from debates.engine.schemas import MAX_QUESTION_CHARS
from debates.services import IllegalTransition, debate_more_round, debate_rerun

router = Router(tags=["debates"], auth=api_auth)


class MessageOut(Schema):
    detail: str


class StartedOut(Schema):
    code: uuid.UUID
    status: str
    parent: uuid.UUID | None = None


class RerunIn(Schema):
    model_config = ConfigDict(extra="forbid")
    question: str | None = Field(default=None, max_length=MAX_QUESTION_CHARS + 1000,
                                 description="Edited question; default: the parent's.")
    context: str | None = None


@router.get("/schemas/result", response={200: dict[str, Any], 404: MessageOut},
            url_name="debate_result_schema")
def result_schema(request: HttpRequest, protocol: str = "council") -> Status[Any]:
    """JSON schema of a debate's result (``GET /{code}/synthesis``, export.json) under
    a registered protocol (default the council)."""
    current_team_access(request)
    try:
        return Status(200, get_protocol(protocol).result_model.model_json_schema())
    except UnknownProtocol as exc:
        return Status(404, {"detail": str(exc)})


@router.post("/{uuid:code}/more-round", response={200: StartedOut, 409: MessageOut},
             url_name="debate_more_round")
def more_round(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """One more cross-examination round on a finished debate, then a new synthesis."""
    debate, _ = debate_access(user=request.user, code=code, write=True)
    try:
        debate = debate_more_round(debate=debate)
    except IllegalTransition as exc:
        return Status(409, {"detail": str(exc)})
    return Status(200, {"code": debate.code, "status": debate.status})


@router.post("/{uuid:code}/rerun", response={201: StartedOut, 400: MessageOut},
             url_name="debate_rerun")
def rerun(request: HttpRequest, code: uuid.UUID, payload: RerunIn) -> Status[Any]:
    """A new debate with the same settings (a fresh seed), linked to this one."""
    debate, _ = debate_access(user=request.user, code=code, write=True)
    try:
        child = debate_rerun(debate=debate, user=request.user, question=payload.question,
                             context=payload.context)
    except InputError as exc:  # limits (LimitExceeded) included
        return Status(400, {"detail": str(exc)})
    return Status(201, {"code": child.code, "status": child.status, "parent": debate.code})


@router.get("/{uuid:code}/export.md", response={200: None, 404: MessageOut},
            url_name="debate_export_md",
            openapi_extra={"responses": {"200": {
                "description": "The result as Markdown.",
                "content": {"text/markdown": {"schema": {"type": "string"}}}}}})
def export_markdown(request: HttpRequest, code: uuid.UUID) -> Any:
    """The result as the Markdown report the web app exports."""
    debate, _ = debate_access(user=request.user, code=code)
    result = selectors.debate_result(debate=debate)
    if result is None:
        return Status(404, {"detail": f"no result yet (the debate is {debate.status})"})
    response = HttpResponse(get_protocol(debate.protocol).render_markdown(result),
                            content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="council-{debate.code}.md"'
    return response
