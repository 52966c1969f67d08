"""The django-q2 schedule of the retention sweep: daily, one row, created by a
migration and idempotent (as webhooks.schedules)."""

from __future__ import annotations

from typing import Any

PRUNE_SCHEDULE = "council-audit-retention"
PRUNE_FUNC = "audit.tasks.prune"


def ensure_prune_schedule(schedule_model: Any = None) -> Any:
    if schedule_model is None:
        from django_q.models import Schedule

        schedule_model = Schedule
    row, _ = schedule_model.objects.update_or_create(
        name=PRUNE_SCHEDULE,
        defaults={"func": PRUNE_FUNC, "schedule_type": "D", "repeats": -1})
    return row
