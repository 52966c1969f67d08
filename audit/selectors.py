"""Reading the audit log: a team's events with filters (the team's audit page and
``GET /api/audit/``), a debate's trail (the admin's review, a decision's receipt) and
one event as the JSON object the API and the JSON Lines export write."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import Q, QuerySet

from audit.models import AuditEvent


@dataclass(frozen=True)
class AuditFilters:
    actor: str = ""  # a username, or "system"
    action: str = ""  # "debate.cancel", or a category: "debate"
    target: str = ""  # a target's code (a debate's code also finds what concerned it)
    since: date | None = None
    until: date | None = None


def _matching(events: QuerySet[AuditEvent], f: AuditFilters) -> QuerySet[AuditEvent]:
    if f.actor:
        events = events.filter(actor__iexact=f.actor) if f.actor != "system" else \
            events.filter(actor__startswith="system")
    if f.action:
        events = events.filter(action=f.action) if "." in f.action else \
            events.filter(action__startswith=f.action + ".")
    if f.target:
        found = Q(target_code=f.target)
        try:
            found |= Q(debate_code=uuid.UUID(f.target))
        except ValueError:
            pass
        events = events.filter(found)
    if f.since:
        events = events.filter(at__date__gte=f.since)
    if f.until:
        events = events.filter(at__date__lte=f.until)
    return events


def team_events(*, team: Any, filters: AuditFilters = AuditFilters()) -> QuerySet[AuditEvent]:
    """The team's events, newest first."""
    return _matching(AuditEvent.objects.filter(team=team), filters).order_by("-at", "-id")


def debate_trail(*, debate_code: Any, until: datetime | None = None) -> QuerySet[AuditEvent]:
    """What was done to a debate and on it (its comments, decision ...), oldest first."""
    code = str(debate_code)
    events = AuditEvent.objects.filter(
        Q(debate_code=debate_code) | Q(target_kind="debate", target_code=code)
        | Q(action="debate.rerun", data__parent=code))  # its re-runs started
    if until is not None:
        events = events.filter(at__lte=until)
    return events.order_by("at", "id")


def decision_recorded_at(*, decision_code: Any, version: int) -> datetime | None:
    """When the event of that version of a decision was written, if it was."""
    return (AuditEvent.objects.filter(action="decision.record", target_code=str(decision_code),
                                      data__version=version)
            .order_by("at").values_list("at", flat=True).first())


def receipt_entry(event: AuditEvent) -> dict[str, Any]:
    """An event as a decision's receipt carries it: what, who and when; no address or
    browser (a receipt is shown outside the team)."""
    return {"at": event.at, "action": event.action, "actor": event.actor,
            "target": {"kind": event.target_kind, "code": event.target_code or None},
            "data": event.data}


def event_fields(event: AuditEvent) -> dict[str, Any]:
    """One event as the API and the export write it (no secret is ever stored)."""
    return {
        "code": event.code, "at": event.at, "action": event.action,
        "actor": {"kind": event.actor_kind, "name": event.actor,
                  "token": {"code": event.token_code, "name": event.token_name}
                  if event.token_code else None},
        "target": {"kind": event.target_kind, "code": event.target_code or None},
        "debate": event.debate_code, "ip": event.ip, "user_agent": event.user_agent,
        "data": event.data,
    }
