"""One worker process drives many debates at once (``debates.worker_loop``): their steps
overlap instead of queueing, a loop that dies mid-flight loses nothing that the sweeper
cannot resume, and cancelling one debate leaves the others running."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from django.db.models import Count

from debates import execution
from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.models import ACTIVE_STATUSES, Debate, DebateStatus, LLMCall, Turn
from debates.services import debate_cancel, debate_create
from debates.worker_loop import DebateLoop

pytestmark = pytest.mark.django_db(transaction=True)


def config(latency_ms: int, seed: int = 5) -> DebateConfig:
    return DebateConfig(mode="quick", max_rounds=1, seed=seed, retry_backoff_s=0.01,
                        simulator=SimulatorOptions(latency_ms=latency_ms, seed=seed))


@pytest.fixture
def loops():
    started: list[DebateLoop] = []

    def start(slots: int = 20) -> DebateLoop:
        loop = DebateLoop(slots)
        loop.start()
        started.append(loop)
        return loop

    yield start
    for loop in started:
        loop.stop()  # closes its database threads' connections too


@pytest.fixture
def team():
    from council_site.accounts.models import Team

    return Team.objects.create(name="loop")


def create(team, n: int, latency_ms: int) -> list[Debate]:
    return [debate_create(team=team, user=None, question=f"Go ahead with plan {i}?",
                          config=config(latency_ms, seed=i), start=False) for i in range(n)]


def run(loop: DebateLoop, debates: list[Debate], timeout: float = 30) -> float:
    started = time.monotonic()
    for debate in debates:
        assert loop.take(debate.code)
    wait_until(lambda: not Debate.objects.filter(
        pk__in=[d.pk for d in debates], status__in=ACTIVE_STATUSES).exists(), timeout)
    return time.monotonic() - started


def wait_until(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def assert_each_turn_once_and_no_repeated_paid_call(debate: Debate) -> None:
    slots = Counter(Turn.objects.filter(debate=debate).values_list("phase", "round",
                                                                   "agent_index"))
    assert slots and max(slots.values()) == 1
    repeated = (LLMCall.objects.filter(debate=debate, ok=True)
                .values("phase", "round", "agent_index").annotate(n=Count("id"))
                .filter(n__gt=1))
    assert not repeated.exists(), list(repeated)


def test_two_debates_in_one_loop_finish_in_about_the_time_of_one(team, loops):
    loop = loops()
    run(loop, create(team, 1, latency_ms=0))  # first-call costs, not what is measured
    alone = run(loop, create(team, 1, latency_ms=250))
    pair = create(team, 2, latency_ms=250)
    together = run(loop, pair)
    statuses = Counter(Debate.objects.values_list("status", flat=True))
    assert statuses == {DebateStatus.SUCCEEDED: 4}
    # One after the other would take twice as long.
    assert together < 1.5 * alone, f"2 debates took {together:.1f} s, one {alone:.1f} s"
    windows = Debate.objects.filter(pk__in=[d.pk for d in pair]).values_list(
        "started_at", "finished_at")
    assert max(s for s, _ in windows) < min(f for _, f in windows), "they did not overlap"
    # Each kept its lease from step to step and handed it back when done.
    assert not Debate.objects.exclude(lease_owner="").exists()


def test_a_loop_that_dies_mid_flight_loses_nothing_the_sweeper_cannot_resume(
        team, loops, settings):
    settings.COUNCIL_LEASE_SECONDS = 1
    debates = create(team, 3, latency_ms=200)
    doomed = loops()
    for debate in debates:
        doomed.take(debate.code)
    wait_until(lambda: all(Turn.objects.filter(debate=d, phase="premortem").exists()
                           for d in debates), 20)
    doomed.stop()  # as a SIGKILL would: no lease handed back, calls in flight lost
    held = Debate.objects.filter(pk__in=[d.pk for d in debates]).exclude(lease_owner="")
    assert held.count() == 3, "the dead loop's leases should still be held"
    before = {d.pk: Turn.objects.filter(debate=d).count() for d in debates}

    wait_until(lambda: execution.resume_stalled(queued_grace_s=0) == 3, 5)
    run(loops(), debates)
    for debate in debates:
        debate.refresh_from_db()
        assert debate.status == DebateStatus.SUCCEEDED, debate.error
        assert Turn.objects.filter(debate=debate).count() > before[debate.pk]
        assert_each_turn_once_and_no_repeated_paid_call(debate)
        assert debate.events.filter(kind="resumed").exists()


def test_cancelling_one_debate_in_flight_leaves_the_others_running(team, loops, settings):
    settings.COUNCIL_LEASE_SECONDS = 1  # a heartbeat every 1/3 s notices the cancel
    debates = create(team, 3, latency_ms=300)
    loop = loops()
    for debate in debates:
        loop.take(debate.code)
    wait_until(lambda: all(Turn.objects.filter(debate=d, phase="compose").exists()
                           for d in debates), 20)
    victim = debates[1]
    debate_cancel(debate=victim)
    cancelled_at = time.monotonic()
    wait_until(lambda: victim.pk not in {d.pk for d in Debate.objects.filter(
        code__in=loop.in_flight())}, 5)
    assert time.monotonic() - cancelled_at < 2, "the cancel waited for the step's calls"
    run(loop, [d for d in debates if d is not victim])
    statuses = {d.pk: s for d, s in zip(debates, (Debate.objects.get(pk=d.pk).status
                                                  for d in debates), strict=True)}
    assert statuses == {debates[0].pk: DebateStatus.SUCCEEDED,
                        victim.pk: DebateStatus.CANCELLED,
                        debates[2].pk: DebateStatus.SUCCEEDED}
    assert not Turn.objects.filter(debate=victim, phase="synthesis").exists()
    assert Debate.objects.get(pk=victim.pk).lease_owner == ""


def test_a_full_loop_hands_the_debate_back_and_a_duplicate_is_not_run_twice(team, loops):
    loop = loops(slots=1)
    first, second = create(team, 2, latency_ms=300)
    assert loop.take(first.code)
    assert loop.take(first.code), "a duplicate task for a debate in flight just ends"
    assert loop.in_flight() == [first.code]
    assert loop.take(second.code, wait_s=0.3) is False  # back to the queue
    wait_until(lambda: not loop.in_flight(), 20)
    assert Debate.objects.get(pk=first.pk).status == DebateStatus.SUCCEEDED
    assert_each_turn_once_and_no_repeated_paid_call(first)


def test_in_a_worker_the_task_hands_the_debate_to_the_loop_or_back_to_the_queue(
        team, loops, monkeypatch):
    from debates import tasks, worker_loop

    loop = loops(slots=1)
    monkeypatch.setattr(worker_loop, "_current", loop)
    monkeypatch.setattr(worker_loop, "SLOT_WAIT_S", 0.3)
    queued: list[tuple] = []
    monkeypatch.setattr("django_q.tasks.async_task", lambda *a, **k: queued.append(a))
    first, second = create(team, 2, latency_ms=300)
    started = time.monotonic()
    tasks.run_step(str(first.code))
    assert time.monotonic() - started < 1, "the task waited for the debate"
    assert loop.in_flight() == [first.code] and queued == []
    tasks.run_step(str(second.code))  # no slot frees within the wait: back to the queue
    assert queued == [("debates.tasks.run_step", str(second.code))]
    wait_until(lambda: not loop.in_flight(), 20)
    assert Debate.objects.get(pk=first.pk).status == DebateStatus.SUCCEEDED
