"""JSON API for a team's outgoing webhooks, mounted at /api/webhooks/: owners create,
list, change and delete endpoints, ping one, read its delivery log and redeliver.
The same access helper and services as the team's webhooks page (webhooks.views);
docs/integrations.md says how a receiver verifies what it gets."""

# No ``from __future__ import annotations``: ninja's @paginate wraps the list view and
# reads its annotations at import time.

import uuid
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Field, Router, Schema, Status
from ninja.pagination import paginate
from pydantic import ConfigDict

from accounts.access import Need, current_team_access
from accounts.api_auth import api_auth
from api_kit.errors import errors, refuse
from api_kit.pagination import PagePagination
from webhooks import selectors, services
from webhooks.access import endpoint_access, team_webhooks_access
from webhooks.models import Delivery, Endpoint, EventType
from webhooks.services import WebhookError

router = Router(tags=["webhooks"], auth=api_auth)

EVENT_TYPES = ", ".join(EventType.values)


class EndpointIn(Schema):
    model_config = ConfigDict(extra="forbid")
    # No max_length here: a URL over 2,000 characters is the service's 400 naming
    # the field, like every other refused URL.
    url: str = Field(description="http(s) URL on a public address, at most 2,000 characters.")
    description: str = Field(default="", max_length=200)
    event_types: list[str] | None = Field(
        default=None, description=f"Which events to send (default: all): {EVENT_TYPES}.")


class EndpointPatch(Schema):
    model_config = ConfigDict(extra="forbid")
    url: str | None = None
    description: str | None = Field(default=None, max_length=200)
    event_types: list[str] | None = None
    enabled: bool | None = Field(default=None, description=(
        "false pauses it; true enables it again (also after it was disabled for "
        "failing) and sends what is pending."))


class EndpointOut(Schema):
    code: uuid.UUID
    url: str
    description: str
    event_types: list[str]
    enabled: bool
    disabled_reason: str = Field(description="Why it is disabled; empty when enabled.")
    failure_streak: int = Field(description="Failed attempts since the last success.")
    created_at: datetime
    updated_at: datetime


class EndpointCreatedOut(EndpointOut):
    secret: str = Field(description=(
        "The signing secret (whsec_...): shown only in this answer. Verify each "
        "request's webhook-signature with it (docs/integrations.md)."))


class AttemptOut(Schema):
    number: int
    started_at: datetime
    duration_ms: int
    status_code: int | None = Field(description="null: no HTTP answer (see error).")
    succeeded: bool
    response_head: str = Field(description="The answer's first 1,000 characters.")
    error: str


class DeliveryOut(Schema):
    code: uuid.UUID
    webhook_id: str = Field(description="The webhook-id header: the same on every attempt.")
    event_type: str
    status: str = Field(description="pending, succeeded or failed (no retry left).")
    attempts: list[AttemptOut]
    next_attempt_at: datetime | None
    created_at: datetime

    @staticmethod
    def resolve_webhook_id(d: Delivery) -> str:
        return d.event.webhook_id

    @staticmethod
    def resolve_event_type(d: Delivery) -> str:
        return d.event.type

    @staticmethod
    def resolve_attempts(d: Delivery) -> list[Any]:
        return list(d.attempt_log.all())

    @staticmethod
    def resolve_next_attempt_at(d: Delivery) -> datetime | None:
        return d.next_attempt_at if d.status == "pending" else None


def _refused(exc: WebhookError) -> Status[Any]:
    return refuse(400, f"{exc.field}: {exc}", {exc.field: [str(exc)]}, code=f"invalid_{exc.field}")


@router.get("/", response=list[EndpointOut], url_name="webhooks_list")
def list_endpoints(request: HttpRequest) -> list[Endpoint]:
    """The current team's endpoints (owners only); secrets are never shown again."""
    team, _ = current_team_access(request)
    return list(selectors.endpoint_list(team=team_webhooks_access(request, team)))


@router.post("/", response={201: EndpointCreatedOut, **errors(400)}, url_name="webhooks_create")
def create_endpoint(request: HttpRequest, payload: EndpointIn) -> Status[Any]:
    """A new endpoint of the current team. The answer holds its signing secret, once.
    Refused (400, ``errors.url``): a URL that is not http(s), longer than 2,000
    characters, or whose host resolves to a private, loopback or link-local address."""
    team, _ = current_team_access(request, need=Need.OWNER)
    user = request.user if request.user.is_authenticated else None
    try:
        endpoint, secret = services.endpoint_create(
            team=team, user=user, url=payload.url, description=payload.description,
            event_types=payload.event_types)
    except WebhookError as exc:
        return _refused(exc)
    return Status(201, {**EndpointOut.from_orm(endpoint).model_dump(), "secret": secret})


@router.get("/{uuid:code}", response=EndpointOut, url_name="webhooks_detail")
def get_endpoint(request: HttpRequest, code: uuid.UUID) -> Endpoint:
    return endpoint_access(request, code)


@router.patch("/{uuid:code}", response={200: EndpointOut, **errors(400)},
              url_name="webhooks_update")
def update_endpoint(request: HttpRequest, code: uuid.UUID, payload: EndpointPatch
                    ) -> Status[Any]:
    """Changes the URL, description, event types or ``enabled`` (what is given)."""
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    try:
        services.endpoint_update(endpoint=endpoint, **payload.model_dump(exclude_unset=True))
    except WebhookError as exc:
        return _refused(exc)
    return Status(200, endpoint)


class EndpointDeletedOut(Schema):
    code: uuid.UUID
    deleted: bool


@router.delete("/{uuid:code}", response=EndpointDeletedOut, url_name="webhooks_delete")
def delete_endpoint(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """Deletes the endpoint and its delivery log; nothing more is sent to it."""
    services.endpoint_delete(endpoint=endpoint_access(request, code, need=Need.OWNER))
    return {"code": code, "deleted": True}


@router.post("/{uuid:code}/ping", response={202: DeliveryOut}, url_name="webhooks_ping")
def ping_endpoint(request: HttpRequest, code: uuid.UUID) -> Status[Any]:
    """Queues a signed ``webhook.ping`` to the endpoint; its delivery log shows the
    answer once a worker sent it."""
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    return Status(202, services.endpoint_ping(endpoint=endpoint))


@router.get("/{uuid:code}/deliveries", response=list[DeliveryOut],
            url_name="webhooks_deliveries")
@paginate(PagePagination)
def list_deliveries(request: HttpRequest, code: uuid.UUID) -> QuerySet[Delivery]:
    """The delivery log, newest first: each event sent and every attempt (time,
    status, duration, the answer's first bytes)."""
    return selectors.delivery_log(endpoint=endpoint_access(request, code))


@router.post("/{uuid:code}/deliveries/{uuid:delivery}/redeliver",
             response={202: DeliveryOut, **errors(404)}, url_name="webhooks_redeliver")
def redeliver(request: HttpRequest, code: uuid.UUID, delivery: uuid.UUID) -> Status[Any]:
    """Sends the delivery's event again, with the same ``webhook-id`` and a fresh
    retry schedule."""
    endpoint = endpoint_access(request, code, need=Need.OWNER)
    found = selectors.delivery_of_endpoint(endpoint=endpoint, code=delivery)
    if found is None:
        return refuse(404, "No such delivery.")
    return Status(202, services.delivery_redeliver(delivery=found))
