from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _schedule_sweeper(sender, **kwargs):  # noqa: ANN001, ANN003 - signal signature
    """The cluster re-queues stalled evaluations every minute, as it does debates."""
    from django_q.models import Schedule

    from evaluations.queue import RESUME_STALLED

    Schedule.objects.update_or_create(
        name="council-evaluations-resume-stalled",
        defaults={"func": RESUME_STALLED, "schedule_type": Schedule.MINUTES,
                  "minutes": 1, "repeats": -1},
    )


class EvaluationsConfig(AppConfig):
    name = "evaluations"
    verbose_name = "Evaluations: does the debate beat a vote?"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from debates import limits
        from evaluations.limits import evaluation_actions_since, evaluation_month_spend

        post_migrate.connect(_schedule_sweeper, sender=self)
        # The team's budget and rate limit count evaluations too (evaluations.limits);
        # debates cannot import this app, so it is handed over here.
        limits.register_spender(spend=evaluation_month_spend, actions=evaluation_actions_since)
