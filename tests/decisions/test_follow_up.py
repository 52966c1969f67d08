"""The daily follow-up schedule: action reminders (due tomorrow, overdue) and decision
reviews that fell due, in the app and by mail (or in one daily digest), each once,
however often the schedule runs. The clock is fixed; the schedule's own row says what
runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone
from django.utils.module_loading import import_string
from django_q.models import Schedule

from collab.models import Action
from decisions.services import decision_record
from notifications.models import Kind, Notification
from notifications.schedules import FOLLOW_UP_SCHEDULE, ensure_follow_up_schedule
from notifications.services import notification_settings_update
from tests.decisions.conftest import finish
from tests.factories import make_debate

NOW = datetime(2030, 3, 10, 7, 0, tzinfo=UTC)
TODAY = NOW.date()


def action(debate, owner, due, title, status="open"):
    return Action.objects.create(debate=debate, target_kind="risk", target_ref="R1",
                                 title=title, owner=owner, due_date=due, status=status)


def run_schedule_twice(monkeypatch):
    """What django-q runs for the schedule row, twice, at a fixed time."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    schedule = Schedule.objects.get(name=FOLLOW_UP_SCHEDULE)
    task = import_string(schedule.func)
    first = task()
    outbox = len(mail.outbox)
    second = task()
    return first, second, outbox


@pytest.fixture
def world(team, owner, member):
    debate = finish(make_debate(team, owner))
    action(debate, owner, TODAY + timedelta(days=1), "Price the exit")
    action(debate, owner, TODAY - timedelta(days=2), "Ask the vendor")
    action(debate, owner, TODAY - timedelta(days=2), "Already done", status="done")
    action(debate, owner, TODAY + timedelta(days=5), "Not yet")
    action(debate, member, TODAY + timedelta(days=1), "Member's action")
    decision_record(debate=debate, user=member, option="Stay", rationale="r",
                    review_on=TODAY)
    later = finish(make_debate(team, owner))
    decision_record(debate=later, user=owner, option="Stay", rationale="r",
                    review_on=TODAY + timedelta(days=1))
    reviewed = finish(make_debate(team, owner))
    done = decision_record(debate=reviewed, user=owner, option="Stay", rationale="r",
                           review_on=TODAY)
    done.reviewed_at = timezone.now()
    done.save()
    return debate


def test_the_schedule_exists_once_and_runs_daily(db):
    ensure_follow_up_schedule()
    ensure_follow_up_schedule()
    rows = Schedule.objects.filter(name=FOLLOW_UP_SCHEDULE)
    assert rows.count() == 1
    row = rows.get()
    assert (row.func, row.schedule_type, row.repeats) == (
        "notifications.tasks.send_follow_ups", Schedule.DAILY, -1)


def test_each_reminder_is_sent_once_in_the_app_and_by_mail(world, owner, member, settings,
                                                           monkeypatch):
    settings.COUNCIL_SITE_URL = "https://council.example.org:8443/"
    notification_settings_update(user=member, email_digest=True)
    first, second, outbox_after_first = run_schedule_twice(monkeypatch)

    owner_kinds = sorted(Notification.objects.filter(user=owner).values_list("kind", flat=True))
    assert owner_kinds == sorted([Kind.ACTION_DUE, Kind.ACTION_OVERDUE])
    member_kinds = sorted(Notification.objects.filter(user=member).values_list("kind",
                                                                                flat=True))
    assert member_kinds == sorted([Kind.ACTION_DUE, Kind.REVIEW_DUE])
    assert first == {"actions": 3, "reviews": 1, "digests": 1}
    assert second == {"actions": 0, "reviews": 0, "digests": 0}
    # The second run sent nothing: two mails to the owner, one digest to the member.
    assert len(mail.outbox) == outbox_after_first == 3
    to_owner = [m for m in mail.outbox if m.to == ["owner@example.com"]]
    assert sorted(m.subject for m in to_owner) == [
        "[Council] Due tomorrow: Price the exit",
        f"[Council] Overdue since {TODAY - timedelta(days=2):%Y-%m-%d}: Ask the vendor"]
    (digest,) = [m for m in mail.outbox if m.to == ["member@example.com"]]
    assert digest.subject == "[Council] Your daily digest: 2 notifications"
    assert "Member's action" in digest.body and "Time to review the decision: Stay" in digest.body
    for message in mail.outbox:
        assert "https://council.example.org:8443/debates/" in message.body
        assert "localhost" not in message.body and ":8000" not in message.body


def test_a_later_due_date_is_reminded_again(world, owner, monkeypatch):
    run_schedule_twice(monkeypatch)
    moved = Action.objects.get(title="Ask the vendor")
    moved.due_date = TODAY - timedelta(days=1)
    moved.save()
    import_string("notifications.tasks.send_follow_ups")()
    assert Notification.objects.filter(user=owner, kind=Kind.ACTION_OVERDUE).count() == 2


def test_reminders_respect_the_follow_up_setting(world, owner, monkeypatch):
    notification_settings_update(user=owner, follow_up="app")
    run_schedule_twice(monkeypatch)
    assert Notification.objects.filter(user=owner).count() == 2
    assert not [m for m in mail.outbox if m.to == ["owner@example.com"]]
