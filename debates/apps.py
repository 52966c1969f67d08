import sys

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _schedule_sweeper(sender, **kwargs):  # noqa: ANN001, ANN003 - signal signature
    """The cluster re-queues stalled debates every minute (see resume_stalled)."""
    from django_q.models import Schedule

    from debates.runtime.queue import RESUME_STALLED

    Schedule.objects.update_or_create(
        name="council-resume-stalled",
        defaults={"func": RESUME_STALLED, "schedule_type": Schedule.MINUTES,
                  "minutes": 1, "repeats": -1},
    )


class DebatesConfig(AppConfig):
    name = "debates"
    verbose_name = "Debates"

    def ready(self) -> None:
        post_migrate.connect(_schedule_sweeper, sender=self)
        if sys.argv[1:2] == ["qcluster"]:
            # Workers fork from this process: importing litellm and its tokenizer
            # (about 5 s) once here, before any work is taken, saves every worker from
            # paying for them mid-debate.
            from debates.engine import warm_model_stack

            warm_model_stack()
        elif sys.argv[1:2] == ["debate"]:
            # The CLI calls a model within a second: import litellm meanwhile, while
            # Django finishes setting up and the debate is built (see llm/loader.py).
            from debates.engine import preload

            preload()
