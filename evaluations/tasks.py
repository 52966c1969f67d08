"""Thin django-q2 tasks: take an id, call the runner (evaluations.runner)."""

from __future__ import annotations

from debates.runtime import shutdown
from evaluations import runner


def run_evaluation(code: str) -> None:
    with shutdown.busy():
        runner.run(code)


def resume_stalled() -> int:
    return runner.resume_stalled()
