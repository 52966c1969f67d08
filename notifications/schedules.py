"""The daily django-q2 schedule that sends follow-up reminders and digests, created by
a migration (0003) and checked again by ``ensure_follow_up_schedule`` (idempotent: one
row, whatever how often it runs)."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django.utils import timezone

FOLLOW_UP_SCHEDULE = "council-daily-follow-ups"
FOLLOW_UP_FUNC = "notifications.tasks.send_follow_ups"
# Early in the morning (site time), so reminders are waiting at the start of the day.
RUN_AT = time(6, 0)


def next_run(now: datetime | None = None) -> datetime:
    now = timezone.localtime(now)
    at = now.replace(hour=RUN_AT.hour, minute=RUN_AT.minute, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


def ensure_follow_up_schedule(schedule_model: Any = None) -> Any:
    """The one daily schedule row (``schedule_model``: the migration's historical model,
    or django-q's own). Its function and frequency are set; its next run is kept."""
    if schedule_model is None:
        from django_q.models import Schedule

        schedule_model = Schedule
    row, created = schedule_model.objects.get_or_create(
        name=FOLLOW_UP_SCHEDULE,
        defaults={"func": FOLLOW_UP_FUNC, "schedule_type": "D", "repeats": -1,
                  "next_run": next_run()})
    if not created and (row.func, row.schedule_type, row.repeats) != (FOLLOW_UP_FUNC, "D", -1):
        row.func, row.schedule_type, row.repeats = FOLLOW_UP_FUNC, "D", -1
        row.save(update_fields=["func", "schedule_type", "repeats"])
    return row
