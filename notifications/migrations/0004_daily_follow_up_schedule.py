"""Creates the daily follow-up schedule (django-q2), once: running it again, or on a
database that already has the row, changes nothing (notifications.schedules)."""

from django.db import migrations


def create_schedule(apps, schema_editor):
    from notifications.schedules import ensure_follow_up_schedule

    ensure_follow_up_schedule(apps.get_model("django_q", "Schedule"))


def remove_schedule(apps, schema_editor):
    from notifications.schedules import FOLLOW_UP_SCHEDULE

    apps.get_model("django_q", "Schedule").objects.filter(name=FOLLOW_UP_SCHEDULE).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0003_follow_up_reminders_and_digest"),
        ("django_q", "0016_schedule_intended_date_kwarg"),
    ]

    operations = [migrations.RunPython(create_schedule, remove_schedule)]
