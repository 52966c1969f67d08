"""The team's audit log page (owners only): who did what, newest first, with filters
by actor, action, target and dates, a page at a time (docs/teams.md, "Audit log")."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.views.decorators.http import require_GET

from audit import selectors
from audit.reading.access import team_audit_access
from audit.reading.export import jsonl_response
from audit.reading.forms import AuditFilterForm
from view_kit.http import AuthenticatedHttpRequest

PAGE_SIZE = 50


@login_required
@require_GET
def team_audit(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    team = team_audit_access(request, code)
    form = AuditFilterForm(request.GET or None)
    events = selectors.team_events(team=team, filters=form.filters())
    page = Paginator(events, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "audit/team_audit.html", {
        "team": team, "form": form, "page": page, "events": page.object_list,
        "query": query.urlencode(), "retention_days": settings.COUNCIL_AUDIT_RETENTION_DAYS,
    }, status=400 if form.errors else 200)


@login_required
@require_GET
def team_audit_export(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponseBase:
    """The page's events (its filters applied, every page) as JSON Lines."""
    team = team_audit_access(request, code)
    form = AuditFilterForm(request.GET or None)
    return jsonl_response(selectors.team_events(team=team, filters=form.filters()),
                          team_code=team.code)
