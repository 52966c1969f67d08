"""One worker process drives many debates at once (``debates.runtime.worker_loop``): their steps
overlap instead of queueing, a loop that dies mid-flight loses nothing that the sweeper
cannot resume, and cancelling one debate leaves the others running."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db.models import Count

from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.models import ACTIVE_STATUSES, Debate, DebateStatus, LLMCall, Turn
from debates.runtime import execution
from debates.runtime.worker_loop import DebateLoop
from debates.services import debate_cancel, debate_create
from tests.waiting import PATIENCE_S, wait_until

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
        loop.stop(patience_s=PATIENCE_S)  # closes its database threads' connections too


@pytest.fixture
def team():
    from accounts.models import Team

    return Team.objects.create(name="loop")


def create(team, n: int, latency_ms: int) -> list[Debate]:
    return [debate_create(team=team, user=None, question=f"Go ahead with plan {i}?",
                          config=config(latency_ms, seed=i), start=False) for i in range(n)]


def run(loop: DebateLoop, debates: list[Debate]) -> None:
    for debate in debates:
        assert loop.take(debate.code)
    wait_until(lambda: not Debate.objects.filter(
        pk__in=[d.pk for d in debates], status__in=ACTIVE_STATUSES).exists(),
        what=f"{len(debates)} debate(s) to end")


def all_reached(debates: list[Debate], phase: str) -> bool:
    return all(Turn.objects.filter(debate=d, phase=phase).exists() for d in debates)


def assert_each_turn_once_and_no_repeated_paid_call(debate: Debate) -> None:
    slots = Counter(Turn.objects.filter(debate=debate).values_list("phase", "round",
                                                                   "agent_index"))
    assert slots and max(slots.values()) == 1
    repeated = (LLMCall.objects.filter(debate=debate, ok=True)
                .values("phase", "round", "agent_index").annotate(n=Count("id"))
                .filter(n__gt=1))
    assert not repeated.exists(), list(repeated)


def test_two_debates_in_one_loop_have_model_calls_in_flight_at_once(team, loops,
                                                                    monkeypatch):
    from debates.engine.sim import simulator

    pair = create(team, 2, latency_ms=250)  # seeds 0 and 1: the simulator tells them apart
    waiting: Counter[int] = Counter()  # model calls in flight, per debate (its seed)
    debates_waiting_at_once: list[int] = []
    answer = simulator.handler.acompletion

    async def counted(model, messages, *args, **kwargs):
        seed = kwargs["litellm_params"]["metadata"]["council"]["simulator"]["seed"]
        waiting[seed] += 1
        debates_waiting_at_once.append(len(+waiting))
        try:
            return await answer(model, messages, *args, **kwargs)
        finally:
            waiting[seed] -= 1

    monkeypatch.setattr(simulator.handler, "acompletion", counted)
    run(loops(), pair)
    statuses = Counter(Debate.objects.values_list("status", flat=True))
    assert statuses == {DebateStatus.SUCCEEDED: 2}
    # One after the other, a debate's calls would only ever wait alone (measured by
    # what overlaps, not by time: a loaded machine stretches both ways alike).
    assert set(waiting) == {0, 1}
    assert max(debates_waiting_at_once) == 2, "the two debates' calls never overlapped"
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
    wait_until(lambda: all_reached(debates, "premortem"),
               what="every debate to reach its premortem")
    doomed.stop(patience_s=PATIENCE_S)  # as a SIGKILL would: no lease handed back
    held = Debate.objects.filter(pk__in=[d.pk for d in debates]).exclude(lease_owner="")
    assert held.count() == 3, "the dead loop's leases should still be held"
    before = {d.pk: Turn.objects.filter(debate=d).count() for d in debates}

    wait_until(lambda: execution.resume_stalled(queued_grace_s=0) == 3,
               what="the sweeper to hand on all three debates")
    run(loops(), debates)
    for debate in debates:
        debate.refresh_from_db()
        assert debate.status == DebateStatus.SUCCEEDED, debate.error
        assert Turn.objects.filter(debate=debate).count() > before[debate.pk]
        assert_each_turn_once_and_no_repeated_paid_call(debate)
        assert debate.events.filter(kind="resumed").exists()


def test_cancelling_one_debate_in_flight_leaves_the_others_running(team, loops, settings):
    settings.COUNCIL_LEASE_SECONDS = 1  # a heartbeat every 1/3 s notices the cancel
    first, last = create(team, 2, latency_ms=300)
    # The victim's first call takes ten minutes: leaving the loop well before that is
    # the proof that the cancel did not wait for it, however slow the machine.
    victim = debate_create(team=team, user=None, question="Go ahead with the slow plan?",
                           config=config(600_000), start=False)
    debates = [first, victim, last]
    loop = loops()
    for debate in debates:
        loop.take(debate.code)
    others = [d for d in debates if d is not victim]
    wait_until(lambda: all_reached(others, "compose") and Debate.objects.filter(
        pk=victim.pk).exclude(lease_owner="").exists(),
        what="the victim's first step and the others' to run")
    debate_cancel(debate=victim)
    wait_until(lambda: victim.code not in loop.in_flight(),
               what="the cancelled debate to leave the loop")
    run(loop, others)
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
    wait_until(lambda: not loop.in_flight(), what="the loop to finish its debate")
    assert Debate.objects.get(pk=first.pk).status == DebateStatus.SUCCEEDED
    assert_each_turn_once_and_no_repeated_paid_call(first)


def test_in_a_worker_the_task_hands_the_debate_to_the_loop_or_back_to_the_queue(
        team, loops, monkeypatch):
    from debates import tasks
    from debates.runtime import worker_loop

    loop = loops(slots=1)
    monkeypatch.setattr(worker_loop, "_current", loop)
    monkeypatch.setattr(worker_loop, "SLOT_WAIT_S", 0.3)
    queued: list[tuple] = []
    monkeypatch.setattr("django_q.tasks.async_task", lambda *a, **k: queued.append(a))
    first, second = create(team, 2, latency_ms=300)
    tasks.run_step(str(first.code))
    # Still in flight once the task returned: the task handed it on, not ran it (its
    # model calls alone take longer than a task that returns at once).
    assert loop.in_flight() == [first.code] and queued == []
    tasks.run_step(str(second.code))  # no slot frees within the wait: back to the queue
    assert queued == [("debates.tasks.run_step", str(second.code))]
    wait_until(lambda: not loop.in_flight(), what="the loop to finish its debate")
    assert Debate.objects.get(pk=first.pk).status == DebateStatus.SUCCEEDED
