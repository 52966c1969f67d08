"""The JSON API, mounted at /api/. Apps add their routers here."""

from __future__ import annotations

from typing import Literal

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema

from collab.api import router as collab_router
from debates.api import router as debates_router
from debates.api_actions import router as debate_actions_router
from debates.api_events import router as debate_events_router
from personas.api import router as personas_router

api = NinjaAPI(title="Council API", version="1", urls_namespace="api")


@api.exception_handler(PermissionDenied)
def permission_denied(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    """Access helpers raise PermissionDenied (a viewer writing); answer 403 in JSON."""
    return api.create_response(request, {"detail": str(exc) or "Forbidden"}, status=403)


class HealthOut(Schema):
    status: Literal["ok"]
    database: str
    broker: Literal["orm", "redis"]
    model: str


@api.get("/health", response=HealthOut, auth=None, tags=["health"])
def health(request: HttpRequest) -> HealthOut:
    """Which configuration this process runs: database vendor, task broker, default model."""
    connection.ensure_connection()
    return HealthOut(
        status="ok",
        database=connection.vendor,
        broker=settings.COUNCIL_BROKER,
        model=settings.COUNCIL_MODEL,
    )


# Routers of the apps. Comments live under /api/debates/{code}/comments.
api.add_router("/personas", personas_router)
api.add_router("/debates", collab_router)
api.add_router("/debates", debates_router)
api.add_router("/debates", debate_events_router)
api.add_router("/debates", debate_actions_router)
