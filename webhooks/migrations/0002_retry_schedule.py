"""Creates the every-minute retry sweep (django-q2), once (webhooks.schedules)."""

from django.db import migrations


def create_schedule(apps, schema_editor):
    from webhooks.schedules import ensure_retry_schedule

    ensure_retry_schedule(apps.get_model("django_q", "Schedule"))


def remove_schedule(apps, schema_editor):
    from webhooks.schedules import RETRY_SCHEDULE

    apps.get_model("django_q", "Schedule").objects.filter(name=RETRY_SCHEDULE).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0001_initial"),
        ("django_q", "0016_schedule_intended_date_kwarg"),
    ]

    operations = [migrations.RunPython(create_schedule, remove_schedule)]
