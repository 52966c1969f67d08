"""Handing a debate's next step to the task queue.

The queue stores a task as the dotted path of its function, so ``RUN_STEP`` and
``RESUME_STALLED`` are names other processes already hold (tasks waiting in the
broker, the sweeper's ``Schedule`` row): ``debates.tasks`` keeps them importable under
these paths wherever the code behind them lives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

if TYPE_CHECKING:
    from debates.models import Debate

RUN_STEP = "debates.tasks.run_step"
RESUME_STALLED = "debates.tasks.resume_stalled"


def enqueue_step(debate: Debate) -> None:
    """Hands the debate's next step to a worker once the current transaction commits,
    so a worker never reads a debate that is not saved yet."""
    from django_q.tasks import async_task

    code = str(debate.code)
    transaction.on_commit(lambda: async_task(RUN_STEP, code, task_name=f"debate-{code}"))
