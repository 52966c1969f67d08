"""The team's webhooks page (owners only): its endpoints, a form for a new one, and
each endpoint's recent deliveries with every attempt; ping, redeliver, change, delete."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts.access import Need, team_access
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import ui
from webhooks import selectors, services
from webhooks.access import endpoint_access, team_webhooks_access
from webhooks.forms import EndpointForm
from webhooks.models import Endpoint
from webhooks.services import WebhookError

RECENT = 20  # deliveries shown per endpoint; the API pages through all of them


@login_required
@require_http_methods(["GET", "POST"])
def endpoints(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    """GET: the page; POST: a new endpoint, its secret shown on the answer only."""
    team, _ = team_access(request, code)
    need = Need.OWNER if request.method == "POST" else Need.READ
    team_webhooks_access(request, team, need=need)
    form = EndpointForm(request.POST if request.method == "POST" else None)
    secret, created = "", None
    if request.method == "POST" and form.is_valid():
        try:
            created, secret = services.endpoint_create(
                team=team, user=request.user, url=form.cleaned_data["url"],
                description=form.cleaned_data["description"],
                event_types=form.cleaned_data["event_types"])
        except WebhookError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            form = EndpointForm()
    rows = [(e, selectors.delivery_log(endpoint=e)[:RECENT])
            for e in selectors.endpoint_list(team=team)]
    response = render(request, "webhooks/endpoints.html", {
        "team": team, "form": form, "rows": rows, "secret": secret, "created": created,
    }, status=400 if request.method == "POST" and form.errors else 200)
    if secret:
        response["Cache-Control"] = "no-store"  # the page holds the secret
    return response


def _back(endpoint: Endpoint) -> HttpResponse:
    return redirect("webhooks:endpoints", code=endpoint.team.code)


@login_required
@require_POST
def endpoint_edit(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    form = EndpointForm(request.POST)
    if not form.is_valid():
        messages.error(request, ui("site.webhooks.msg.not_saved", why="; ".join(
            f"{name}: {' '.join(map(str, errs))}" for name, errs in form.errors.items())))
        return _back(endpoint)
    try:
        services.endpoint_update(endpoint=endpoint, **form.cleaned_data)
    except WebhookError as exc:
        messages.error(request, ui("site.webhooks.msg.not_saved", why=str(exc)))
    else:
        messages.success(request, ui("site.webhooks.msg.saved", url=endpoint.url))
    return _back(endpoint)


@login_required
@require_POST
def endpoint_delete(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    services.endpoint_delete(endpoint=endpoint)
    messages.success(request, ui("site.webhooks.msg.deleted", url=endpoint.url))
    return redirect("webhooks:endpoints", code=endpoint.team.code)


@login_required
@require_POST
def endpoint_ping(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    services.endpoint_ping(endpoint=endpoint)
    messages.success(request, ui("site.webhooks.msg.ping"))
    return _back(endpoint)


@login_required
@require_POST
def delivery_redeliver(request: AuthenticatedHttpRequest, code: uuid.UUID,
                       delivery: uuid.UUID) -> HttpResponse:
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    found = selectors.delivery_of_endpoint(endpoint=endpoint, code=delivery)
    if found is None:
        messages.error(request, ui("site.webhooks.msg.no_delivery"))
    else:
        services.delivery_redeliver(delivery=found)
        messages.success(request, ui("site.webhooks.msg.redeliver"))
    return _back(endpoint)
