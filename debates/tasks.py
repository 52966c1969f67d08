"""Thin django-q2 tasks: take an id, call one service."""

from __future__ import annotations

from debates import execution, shutdown
from debates.models import Debate
from debates.services import enqueue_step


def run_step(code: str) -> None:
    """Runs one step, then queues the next (on commit) if more remain."""
    with shutdown.busy():
        debate = Debate.objects.get(code=code)
        if shutdown.requested():
            # Taken from the queue just before the stop: back to it for a live worker.
            enqueue_step(debate)
            return
        if execution.run_next_step(code):
            enqueue_step(debate)


def resume_stalled() -> int:
    return execution.resume_stalled()
