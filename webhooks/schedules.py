"""The django-q2 schedule that sends due retries: every minute, one row, created by a
migration and idempotent (as notifications.schedules)."""

from __future__ import annotations

from typing import Any

RETRY_SCHEDULE = "council-webhook-retries"
RETRY_FUNC = "webhooks.tasks.deliver_due"


def ensure_retry_schedule(schedule_model: Any = None) -> Any:
    """The one row (``schedule_model``: the migration's historical model, or
    django-q's own), running ``deliver_due`` every minute."""
    if schedule_model is None:
        from django_q.models import Schedule

        schedule_model = Schedule
    row, _ = schedule_model.objects.update_or_create(
        name=RETRY_SCHEDULE,
        defaults={"func": RETRY_FUNC, "schedule_type": "I", "minutes": 1, "repeats": -1})
    return row
