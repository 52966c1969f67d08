"""A team's webhook endpoints, the events Council sent them, and every attempt.

An ``Event`` is one thing that happened in a team (its body is signed and sent as is,
so every retry carries the same bytes and the same ``webhook-id``); a ``Delivery`` is
that event on its way to one endpoint; an ``Attempt`` is one HTTP request of it, kept
for the delivery log (docs/integrations.md, "Webhooks").
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from accounts.models import Team

MAX_URL = 2000


class EventType(models.TextChoices):
    DEBATE_FINISHED = "debate.finished", "A debate ended (succeeded, failed or cancelled)"
    DECISION_RECORDED = "decision.recorded", "A decision was recorded or changed"
    DECISION_REVIEW_DUE = "decision.review_due", "A decision is due for review"
    OUTCOME_RECORDED = "outcome.recorded", "A decision's outcome was recorded"
    EVALUATION_FINISHED = "evaluation.finished", "An evaluation ended"
    SOURCE_READY = "source.ready", "A source was read"
    SOURCE_REFUSED = "source.refused", "A source was refused"


# Sent by "ping" to one endpoint, whatever it subscribes to.
PING = "webhook.ping"


def all_event_types() -> list[str]:
    return list(EventType.values)


class Endpoint(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.CharField(max_length=MAX_URL)
    description = models.CharField(max_length=200, blank=True)
    event_types = models.JSONField(default=all_event_types)
    # The Standard Webhooks secret ("whsec_" + base64). Kept as is: signing needs it;
    # it is shown once, when the endpoint is created.
    secret = models.CharField(max_length=100)
    enabled = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=300, blank=True)
    # Failed attempts since the last success: at COUNCIL_WEBHOOK_DISABLE_AFTER, disabled.
    failure_streak = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.team} → {self.url}"

    def wants(self, event_type: str) -> bool:
        return event_type == PING or event_type in self.event_types


class Event(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    type = models.CharField(max_length=40)
    # One event per happening, however often its signal or task runs (e.g. the
    # daily review reminder sees an overdue decision every day).
    key = models.CharField(max_length=200)
    body = models.TextField(help_text="The JSON sent, byte for byte, on every attempt.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["created_at"])]  # the log's pruning
        constraints = [models.UniqueConstraint(fields=["team", "key"],
                                               name="webhook_event_unique_key")]

    def __str__(self) -> str:
        return f"{self.type} {self.webhook_id}"

    @property
    def webhook_id(self) -> str:
        """The ``webhook-id`` header: the same on every attempt, for receivers' dedup."""
        return f"msg_{self.code.hex}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed (no retry left)"


class Delivery(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices,
                              default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    # Attempts since the retry schedule (re)started: a redelivery starts it afresh.
    scheduled_tries = models.PositiveIntegerField(default=0)
    # When the next attempt may run; a worker that takes it moves it on by the claim
    # window, so a second sweep leaves it alone while the attempt is under way.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]
        constraints = [models.UniqueConstraint(fields=["endpoint", "event"],
                                               name="webhook_delivery_once")]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint_id} ({self.status})"


class Attempt(models.Model):
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField()
    status_code = models.PositiveIntegerField(null=True, blank=True)
    succeeded = models.BooleanField()
    # The answer's first bytes (decoded, invalid bytes replaced) or why there was none.
    response_head = models.TextField(blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"
