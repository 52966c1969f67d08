"""``GET /api/audit/``: the current team's audit log for its owners, newest first, a
page at a time (cursor links), with the page's filters; ``GET /api/audit/export.jsonl``
writes every matching event as JSON Lines, one object a line (docs/api.md, "Audit
log")."""

# No ``from __future__ import annotations``: ninja's @paginate wraps the list view and
# reads its annotations at import time.

import uuid
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Field, Query, Router, Schema
from ninja.pagination import paginate

from accounts.api_auth import api_auth
from api_kit.dates import IsoDate
from api_kit.pagination import PagePagination
from audit import selectors
from audit.models import AuditEvent
from audit.reading.access import current_team_audit_access
from audit.reading.export import jsonl_response

router = Router(tags=["audit"], auth=api_auth)


class AuditQuery(Schema):
    actor: str = Field("", max_length=150, description='A username, or "system".')
    action: str = Field("", max_length=64, description=(
        'An action ("debate.cancel") or a category ("debate": every debate.* action).'))
    target: str = Field("", max_length=64, description=(
        "A target's code; a debate's code also finds what was done on it (its comments, "
        "its decision ...)."))
    since: IsoDate | None = Field(None, description="From this day on (UTC), inclusive.")
    until: IsoDate | None = Field(None, description="Up to this day (UTC), inclusive.")

    def filters(self) -> selectors.AuditFilters:
        return selectors.AuditFilters(actor=self.actor.strip(), action=self.action.strip(),
                                      target=self.target.strip(), since=self.since,
                                      until=self.until)


class TokenOut(Schema):
    code: uuid.UUID
    name: str


class ActorOut(Schema):
    kind: str = Field(description="user, token, system or anonymous.")
    name: str = Field(description='The username; "system: <command>" for a command.')
    token: TokenOut | None = Field(description="The API token used (never its secret).")


class TargetOut(Schema):
    kind: str
    code: str | None


class AuditEventOut(Schema):
    code: uuid.UUID
    at: datetime
    action: str
    actor: ActorOut
    target: TargetOut
    debate: uuid.UUID | None = Field(description="The debate the change concerns, if any.")
    ip: str | None
    user_agent: str
    data: dict[str, Any]

    @staticmethod
    def resolve_actor(event: AuditEvent) -> dict[str, Any]:
        return selectors.event_fields(event)["actor"]

    @staticmethod
    def resolve_target(event: AuditEvent) -> dict[str, Any]:
        return selectors.event_fields(event)["target"]

    @staticmethod
    def resolve_debate(event: AuditEvent) -> uuid.UUID | None:
        return event.debate_code


@router.get("/", response=list[AuditEventOut], url_name="audit_list")
@paginate(PagePagination)
def list_events(request: HttpRequest, query: Query[AuditQuery]) -> QuerySet[AuditEvent]:
    """The current team's audit events (owners only; others 403), newest first."""
    team = current_team_audit_access(request)
    return selectors.team_events(team=team, filters=query.filters())


@router.get("/export.jsonl", response={200: None}, url_name="audit_export",
            openapi_extra={"responses": {"200": {
                "description": "One event a line, as the list's items.",
                "content": {"application/jsonl": {"schema": {"type": "string"}}}}}})
def export_events(request: HttpRequest, query: Query[AuditQuery]) -> StreamingHttpResponse:
    """Every matching event of the current team as JSON Lines (owners only), newest
    first, for an archive or a SIEM."""
    team = current_team_audit_access(request)
    return jsonl_response(selectors.team_events(team=team, filters=query.filters()),
                          team_code=team.code)
