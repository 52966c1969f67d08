"""Writes on webhooks: endpoints (create, change, delete), events published to them,
and each delivery attempt with its retry schedule (docs/integrations.md, "Webhooks").

Requests only write rows and queue work; every HTTP request to a receiver is made by a
worker (``webhooks.tasks``), never in a request or a debate step.
"""

from __future__ import annotations

import base64
import json
import logging
import secrets
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from standardwebhooks import Webhook

from accounts.models import Membership, Team
from audit.services import record
from notifications.services import site_link
from webhooks import sender
from webhooks.addresses import UnsafeUrl, check_url
from webhooks.events import Happening, rfc3339
from webhooks.models import (
    PING,
    Attempt,
    Delivery,
    DeliveryStatus,
    Endpoint,
    Event,
    EventType,
)

log = logging.getLogger(__name__)

DELIVER = "webhooks.tasks.deliver"
# How long a queued or running attempt keeps its delivery from the retry sweep: longer
# than an attempt (COUNCIL_WEBHOOK_TIMEOUT_SECONDS) and than a task's wait in the queue.
CLAIM = timedelta(minutes=10)
SECRET_BYTES = 32
# How long the delivery log keeps an event (docs/integrations.md, "Set up").
KEEP_LOG = timedelta(days=30)


class WebhookError(ValueError):
    """A refused change; ``field`` names the input at fault, the message is for the user."""

    def __init__(self, message: str, field: str = "url") -> None:
        super().__init__(message)
        self.field = field


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _clean_url(url: str) -> str:
    url = (url or "").strip()
    try:
        check_url(url)
    except UnsafeUrl as exc:
        raise WebhookError(str(exc), "url") from None
    return url


def _clean_types(event_types: list[str] | None) -> list[str]:
    if event_types is None:
        return list(EventType.values)
    unknown = sorted(set(event_types) - set(EventType.values))
    if unknown:
        raise WebhookError(f"Unknown event types: {', '.join(unknown)}; known: "
                           f"{', '.join(EventType.values)}.", "event_types")
    if not event_types:
        raise WebhookError("Subscribe to at least one event type.", "event_types")
    return [t for t in EventType.values if t in event_types]


def _host(url: str) -> dict[str, Any]:
    # The host only: a webhook URL's path or query may itself be a secret.
    from urllib.parse import urlsplit

    return {"host": urlsplit(url).hostname}


@transaction.atomic
def endpoint_create(*, team: Team, user: User | None, url: str, description: str = "",
                    event_types: list[str] | None = None) -> tuple[Endpoint, str]:
    """A new endpoint of ``team`` and its signing secret (the caller shows it once).
    ``event_types`` None: every type. The caller checked that ``user`` owns the team."""
    endpoint = Endpoint.objects.create(
        team=team, created_by=user, url=_clean_url(url), description=description.strip(),
        event_types=_clean_types(event_types), secret=new_secret())
    record("webhook.create", endpoint, user=user, data=_host(endpoint.url))
    return endpoint, endpoint.secret


@transaction.atomic
def endpoint_update(*, endpoint: Endpoint, url: str | None = None,
                    description: str | None = None, event_types: list[str] | None = None,
                    enabled: bool | None = None) -> Endpoint:
    """Changes what is given; enabling again clears the failure run (pending
    deliveries resume on the next sweep)."""
    if url is not None:
        endpoint.url = _clean_url(url)
    if description is not None:
        endpoint.description = description.strip()
    if event_types is not None:
        endpoint.event_types = _clean_types(event_types)
    if enabled is not None and enabled != endpoint.enabled:
        endpoint.enabled = enabled
        endpoint.disabled_reason = "" if enabled else "Disabled by an owner."
        endpoint.failure_streak = 0
    endpoint.save()
    record("webhook.edit", endpoint, data={**_host(endpoint.url), "enabled": endpoint.enabled})
    return endpoint


@transaction.atomic
def endpoint_delete(*, endpoint: Endpoint) -> None:
    record("webhook.delete", endpoint, data=_host(endpoint.url))
    endpoint.delete()


# ------------------------------------------------------------------------ publishing


def _body(event_type: str, moment: datetime, data: dict[str, Any]) -> str:
    """The Standard Webhooks payload: type, timestamp and data."""
    return json.dumps({"type": event_type, "timestamp": rfc3339(moment), "data": data},
                      ensure_ascii=False, separators=(",", ":"))


def _queue(deliveries: list[Delivery]) -> None:
    def send() -> None:
        from django_q.tasks import async_task

        for delivery in deliveries:
            async_task(DELIVER, delivery.pk, task_name=f"webhook-{delivery.code}")

    if deliveries:
        transaction.on_commit(send, robust=True)


def _deliveries(event: Event, endpoints: list[Endpoint]) -> list[Delivery]:
    claim = timezone.now() + CLAIM
    return [Delivery.objects.create(endpoint=endpoint, event=event, next_attempt_at=claim)
            for endpoint in endpoints]


@transaction.atomic
def event_publish(happening: Happening) -> list[Delivery]:
    """Records the event once (by its key) and queues a delivery to every enabled
    endpoint of its team that subscribes to it; nothing when it was published before,
    and no row at all when no endpoint wants it (most teams have none)."""
    endpoints = [e for e in Endpoint.objects.filter(team=happening.team, enabled=True)
                 if e.wants(happening.type)]
    if not endpoints:
        return []
    try:
        with transaction.atomic():
            event = Event.objects.create(
                team=happening.team, type=happening.type, key=happening.key[:200],
                body=_body(happening.type, timezone.now(), happening.data))
    except IntegrityError:
        return []  # the same happening again (a retried task, a daily reminder)
    deliveries = _deliveries(event, endpoints)
    _queue(deliveries)
    return deliveries


@transaction.atomic
def endpoint_ping(*, endpoint: Endpoint) -> Delivery:
    """A ``webhook.ping`` event to this endpoint alone, queued for a worker."""
    now = timezone.now()
    event = Event.objects.create(
        team=endpoint.team, type=PING, key=f"ping:{uuid.uuid4()}",
        body=_body(PING, now, {"endpoint": str(endpoint.code),
                               "url": site_link(reverse("webhooks:endpoints",
                                                        args=[endpoint.team.code]))}))
    [delivery] = _deliveries(event, [endpoint])
    _queue([delivery])
    record("webhook.ping", endpoint)
    return delivery


@transaction.atomic
def delivery_redeliver(*, delivery: Delivery) -> Delivery:
    """Sends the event again (the same ``webhook-id`` and body) with a fresh schedule."""
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.PENDING, scheduled_tries=0,
        next_attempt_at=timezone.now() + CLAIM)
    delivery.refresh_from_db()
    _queue([delivery])
    record("webhook.redeliver", delivery.endpoint, data={"delivery": str(delivery.code)})
    return delivery


def deliveries_take_due(*, now: datetime | None = None, limit: int = 200) -> list[Delivery]:
    """The pending deliveries whose next attempt is due, each claimed (moved on by
    ``CLAIM``) so that a second sweep does not take it too, then queued."""
    now = now or timezone.now()
    due = list(Delivery.objects.filter(status=DeliveryStatus.PENDING, endpoint__enabled=True,
                                       next_attempt_at__lte=now)
               .order_by("next_attempt_at")[:limit])
    taken = [d for d in due if Delivery.objects.filter(
        pk=d.pk, status=DeliveryStatus.PENDING, next_attempt_at=d.next_attempt_at
    ).update(next_attempt_at=now + CLAIM)]
    with transaction.atomic():
        _queue(taken)
    return taken


def events_prune(*, now: datetime | None = None) -> int:
    """Deletes events (with their deliveries and attempts) older than ``KEEP_LOG``
    that nothing is still trying to send; the number of events deleted."""
    cutoff = (now or timezone.now()) - KEEP_LOG
    old = Event.objects.filter(created_at__lt=cutoff).exclude(
        deliveries__status=DeliveryStatus.PENDING)
    return Event.objects.filter(pk__in=list(old.values_list("pk", flat=True)[:1000])
                                ).delete()[1].get("webhooks.Event", 0)


# ------------------------------------------------------------------------ one attempt


def signed_headers(endpoint: Endpoint, event: Event, moment: datetime) -> dict[str, str]:
    """The Standard Webhooks headers, signed with the endpoint's secret by the
    ``standardwebhooks`` library: the id stays, the timestamp is this attempt's."""
    signature = Webhook(endpoint.secret).sign(event.webhook_id, moment, event.body)
    return {"webhook-id": event.webhook_id, "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": signature, "content-type": "application/json",
            "user-agent": "Council-Webhooks/1"}


def _send(endpoint: Endpoint, event: Event, moment: datetime) -> sender.Answer:
    try:
        target = check_url(endpoint.url)
    except UnsafeUrl as exc:
        return sender.Answer(None, "", 0, f"refused: {exc}"[:300])
    return sender.post(target, event.body.encode(), signed_headers(endpoint, event, moment),
                       timeout=settings.COUNCIL_WEBHOOK_TIMEOUT_SECONDS,
                       max_bytes=settings.COUNCIL_WEBHOOK_MAX_RESPONSE_BYTES)


def delivery_attempt(delivery_pk: int) -> Attempt | None:
    """One attempt of a pending delivery: signed, sent, logged; then the delivery is
    done, or its next attempt scheduled (COUNCIL_WEBHOOK_RETRY_DELAYS), or given up.
    None when there is nothing to send (delivered meanwhile, endpoint disabled or gone)."""
    delivery = (Delivery.objects.select_related("endpoint__team", "event")
                .filter(pk=delivery_pk, status=DeliveryStatus.PENDING).first())
    if delivery is None or not (delivery.endpoint.enabled or delivery.event.type == PING):
        return None
    started = timezone.now()
    answer = _send(delivery.endpoint, delivery.event, started.astimezone(UTC))
    with transaction.atomic():
        number = delivery.attempts + 1
        attempt = Attempt.objects.create(
            delivery=delivery, number=number, started_at=started,
            duration_ms=answer.duration_ms, status_code=answer.status,
            succeeded=answer.ok, response_head=answer.head, error=answer.error)
        _after_attempt(delivery, number, answer.ok)
    return attempt


def _after_attempt(delivery: Delivery, number: int, ok: bool) -> None:
    delays = settings.COUNCIL_WEBHOOK_RETRY_DELAYS
    tries = delivery.scheduled_tries + 1
    if ok:
        status, next_at = DeliveryStatus.SUCCEEDED, None
    elif tries <= len(delays):
        status, next_at = DeliveryStatus.PENDING, timezone.now() + timedelta(
            seconds=delays[tries - 1])
    else:
        status, next_at = DeliveryStatus.FAILED, None
    Delivery.objects.filter(pk=delivery.pk).update(
        status=status, attempts=number, scheduled_tries=tries, next_attempt_at=next_at)
    endpoint = delivery.endpoint
    if ok:
        Endpoint.objects.filter(pk=endpoint.pk).update(failure_streak=0)
        return
    Endpoint.objects.filter(pk=endpoint.pk).update(failure_streak=F("failure_streak") + 1)
    endpoint.refresh_from_db(fields=["failure_streak", "enabled"])
    if endpoint.enabled and endpoint.failure_streak >= settings.COUNCIL_WEBHOOK_DISABLE_AFTER:
        _disable(endpoint)


def _disable(endpoint: Endpoint) -> None:
    """Stops sending to an endpoint that keeps failing and tells the team's owners."""
    reason = (f"Disabled after {endpoint.failure_streak} failed attempts in a row "
              f"({timezone.now():%Y-%m-%d %H:%M} UTC).")
    if not Endpoint.objects.filter(pk=endpoint.pk, enabled=True).update(
            enabled=False, disabled_reason=reason):
        return  # disabled meanwhile: told already
    link = site_link(reverse("webhooks:endpoints", args=[endpoint.team.code]))
    owners = Membership.objects.filter(team=endpoint.team, role=Membership.Role.OWNER
                                       ).exclude(user__email="").select_related("user")
    addresses = [m.user.email for m in owners]
    if not addresses:
        return
    message = (f"Council stopped sending webhooks of the team {endpoint.team.name} to\n"
               f"{endpoint.url}\n\n{reason}\n\nThe delivery log says what the receiver "
               f"answered. Enable the endpoint again on {link}; the events still "
               "pending are then sent.\n")
    transaction.on_commit(lambda: _mail_owners(endpoint.team.name, message, addresses),
                          robust=True)


def _mail_owners(team_name: str, message: str, addresses: list[str]) -> None:
    for address in addresses:  # one mail each: owners do not see each other's address
        send_mail(subject=f"[Council] A webhook of {team_name} was disabled"[:200],
                  message=message, from_email=None, recipient_list=[address])
