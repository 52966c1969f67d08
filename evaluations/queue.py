"""Handing an evaluation's run to the task queue (django-q2), after the commit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

if TYPE_CHECKING:
    from evaluations.models import Evaluation

RUN = "evaluations.tasks.run_evaluation"
RESUME_STALLED = "evaluations.tasks.resume_stalled"


def enqueue_run(evaluation: Evaluation) -> None:
    from django_q.tasks import async_task

    code = str(evaluation.code)
    transaction.on_commit(lambda: async_task(RUN, code, task_name=f"evaluation-{code}"))
