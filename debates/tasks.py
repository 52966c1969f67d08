"""Thin django-q2 tasks: take an id, call one service."""

from __future__ import annotations

import uuid

from debates.models import Debate
from debates.runtime import execution, shutdown, worker_loop
from debates.runtime.queue import enqueue_step


def run_step(code: str) -> None:
    """In a worker process: hands the debate to the process's event loop, which runs
    its steps alongside other debates (``debates.runtime.worker_loop``). Elsewhere (django-q2's
    synchronous mode): runs one step, then queues the next (on commit) if more remain."""
    with shutdown.busy():
        loop = worker_loop.current()
        if loop is not None:
            if not loop.take(uuid.UUID(str(code))):
                # Stopping, or every slot stayed taken: any worker may take it.
                enqueue_step(Debate.objects.get(code=code))
            return
        debate = Debate.objects.get(code=code)
        if shutdown.requested():
            # Taken from the queue just before the stop: back to it for a live worker.
            enqueue_step(debate)
            return
        if execution.run_next_step(code):
            enqueue_step(debate)


def resume_stalled() -> int:
    return execution.resume_stalled()
