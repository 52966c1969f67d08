"""The django-q2 tasks: one step per task, the next queued on commit; the sweeper
is scheduled every minute by migrate."""

import importlib
import inspect
import pydoc
from pathlib import Path

import pytest
from django_q.models import Schedule

from debates import tasks
from debates.engine.schemas import DebateConfig
from debates.models import DebateStatus, Turn
from debates.runtime.queue import RESUME_STALLED, RUN_STEP
from debates.services import debate_create

pytestmark = pytest.mark.django_db


def test_migrate_schedules_the_sweeper_every_minute():
    schedule = Schedule.objects.get(name="council-resume-stalled")
    assert schedule.func == "debates.tasks.resume_stalled"
    assert schedule.schedule_type == Schedule.MINUTES and schedule.minutes == 1


def test_a_task_runs_one_step_and_queues_the_next_on_commit(
        team, django_capture_on_commit_callbacks, monkeypatch):
    queued = []
    monkeypatch.setattr("django_q.tasks.async_task", lambda *a, **k: queued.append(a))
    debate = debate_create(team=team, user=None, question="Go?",
                           config=DebateConfig(mode="quick"), start=False)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.run_step(str(debate.code))
    assert list(Turn.objects.filter(debate=debate).values_list("phase", flat=True)) == [
        "compose"]
    assert queued == [("debates.tasks.run_step", str(debate.code))]


def test_a_task_for_a_finished_debate_queues_nothing(team, monkeypatch):
    queued = []
    monkeypatch.setattr("django_q.tasks.async_task", lambda *a, **k: queued.append(a))
    debate = debate_create(team=team, user=None, question="Go?",
                           config=DebateConfig(mode="quick"), start=False)
    debate.status = DebateStatus.SUCCEEDED
    debate.save()
    tasks.run_step(str(debate.code))
    assert queued == []


# Task paths as the queue stores them: written out, not imported, because tasks queued
# (and the sweeper's Schedule row) before a module moved still name these. django-q2's
# worker loads a task's function with pydoc.locate and fails the task when it is None.
QUEUED_TASK_PATHS = [
    "debates.tasks.run_step",
    "debates.tasks.resume_stalled",
    "notifications.tasks.notify_debate_outcome",
    "notifications.tasks.notify_reply",
    "notifications.tasks.notify_mentions",
    "notifications.tasks.notify_action_assigned",
    "notifications.tasks.notify_invitation_accepted",
]


@pytest.mark.parametrize("path", QUEUED_TASK_PATHS)
def test_a_task_path_a_queue_may_already_hold_still_resolves(path):
    func = pydoc.locate(path)
    assert callable(func)
    # From this checkout: an editable install of another one (a shared virtualenv)
    # would otherwise answer for a module that is gone here.
    package = importlib.import_module(path.split(".")[0])
    assert Path(inspect.getfile(func)).is_relative_to(Path(package.__file__).parent)


def test_the_queue_is_given_the_paths_it_has_always_held():
    assert {RUN_STEP, RESUME_STALLED} <= set(QUEUED_TASK_PATHS)
