"""The JSON API, mounted at /api/. Apps add their routers here."""

from __future__ import annotations

from typing import Literal

from django.conf import settings
from django.db import connection
from django.http import HttpRequest
from ninja import NinjaAPI, Schema

api = NinjaAPI(title="Council API", version="1", urls_namespace="api")


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
