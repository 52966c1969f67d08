"""A debate's wall time is the time it spent running steps, not the time from its
start to its end: one more round asked for hours after it finished does not add the
hours in between."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from debates.engine.schemas import DebateConfig
from debates.models import Debate
from debates.runtime.execution import run_to_completion
from debates.runtime.running_time import running_seconds
from debates.services import debate_create, debate_more_round

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_steps_are_summed_and_the_idle_time_between_them_is_not():
    events = [("debate_created", at(0)), ("step_started", at(1)), ("turn", at(2)),
              ("step_completed", at(3)), ("debate_finished", at(4)),
              ("more_round_requested", at(5 * 3600)),
              ("step_started", at(5 * 3600 + 10)), ("step_completed", at(5 * 3600 + 10.5)),
              ("debate_finished", at(5 * 3600 + 11))]
    assert running_seconds(events, now=at(9 * 3600)) == 2.5


def test_a_step_still_open_counts_until_now_and_an_interrupted_one_until_it_stopped():
    running = [("step_started", at(0)), ("step_completed", at(2)), ("step_started", at(3))]
    assert running_seconds(running, now=at(10)) == 9.0
    abandoned = [("step_started", at(0)), ("abandoned", at(4)), ("resumed", at(600)),
                 ("step_started", at(601)), ("step_completed", at(602))]
    assert running_seconds(abandoned, now=at(900)) == 5.0
    # A worker that died without a word: its step ends where the next one starts.
    assert running_seconds([("step_started", at(0)), ("step_started", at(7)),
                            ("step_completed", at(8))], now=at(100)) == 8.0


@pytest.mark.django_db
def test_one_more_round_hours_later_adds_only_its_own_running_time(team, owner):
    debate = debate_create(team=team, user=owner, question="Kafka or SQS for events?",
                           config=DebateConfig(mode="quick"), start=False)
    run_to_completion(debate.code)
    # The first run, pinned five hours ago: one event a second, so every step took one
    # second and the run as many seconds as it had steps.
    five_hours_ago = datetime.now(UTC) - timedelta(hours=5)
    for n, event in enumerate(debate.events.order_by("seq")):
        event.created_at = five_hours_ago + timedelta(seconds=n)
        event.save(update_fields=["created_at"])
    steps = debate.events.filter(kind="step_started").count()
    first_run = running_seconds(debate.events.order_by("seq").values_list("kind", "created_at"),
                                now=datetime.now(UTC))
    assert steps > 3 and first_run >= steps
    Debate.objects.filter(pk=debate.pk).update(started_at=five_hours_ago,
                                               finished_at=five_hours_ago + timedelta(minutes=1))

    debate_more_round(debate=debate)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    # The second run took seconds on any machine; the five idle hours are not in it.
    assert first_run < debate.wall_time_s < first_run + 600
    assert debate.synthesis.result["usage"]["wall_time_s"] == debate.wall_time_s
