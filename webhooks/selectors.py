"""Reads of a team's webhook endpoints and their delivery log, always within a team."""

from __future__ import annotations

import uuid

from django.db.models import Prefetch, QuerySet

from accounts.models import Team
from webhooks.models import Attempt, Delivery, Endpoint


def endpoint_list(*, team: Team) -> QuerySet[Endpoint]:
    return Endpoint.objects.filter(team=team).order_by("created_at", "id")


def endpoint_by_code(*, code: uuid.UUID) -> Endpoint | None:
    """The endpoint whatever its team: the access helper checks the caller's role."""
    return Endpoint.objects.select_related("team").filter(code=code).first()


def delivery_log(*, endpoint: Endpoint) -> QuerySet[Delivery]:
    """The endpoint's deliveries, newest first, each with its attempts in order."""
    return (Delivery.objects.filter(endpoint=endpoint).select_related("event")
            .prefetch_related(Prefetch("attempt_log", queryset=Attempt.objects.order_by(
                "number"))).order_by("-created_at", "-id"))


def delivery_of_endpoint(*, endpoint: Endpoint, code: uuid.UUID) -> Delivery | None:
    return (Delivery.objects.select_related("event", "endpoint")
            .filter(endpoint=endpoint, code=code).first())
