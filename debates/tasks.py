"""Thin django-q2 tasks: take an id, call one service."""

from __future__ import annotations

from debates import execution
from debates.models import Debate
from debates.services import enqueue_step


def run_step(code: str) -> None:
    """Runs one step, then queues the next (on commit) if more remain."""
    if execution.run_next_step(code):
        enqueue_step(Debate.objects.get(code=code))


def resume_stalled() -> int:
    return execution.resume_stalled()
