"""The lease: a heartbeat keeps it through calls slower than the lease, and the
sweeper re-queues a stalled debate once, not once per sweeper or per sweep."""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.models import Debate, DebateStatus, Turn
from debates.runtime import execution, lease
from debates.services import debate_create
from tests.waiting import PATIENCE_S, wait_until


def slow(latency_ms: int) -> DebateConfig:
    return DebateConfig(mode="quick", seed=5,
                        simulator=SimulatorOptions(latency_ms=latency_ms, seed=5))


@pytest.mark.django_db(transaction=True)
def test_a_call_slower_than_the_lease_never_lets_a_second_worker_in(team, settings):
    # litellm's one-time set-up on the first call can hold the event loop for seconds
    # on a busy machine; qcluster does it before forking, here a first step does.
    warm = debate_create(team=team, user=None, question="Warm?", config=slow(0), start=False)
    execution.run_next_step(warm.code)
    # The shipped lease, 10 s, renewed every 3.3 s. A shorter one (5 s) was outrun at a
    # load average of 16 on 2 cores: renewals came more than 5 s apart.
    settings.COUNCIL_LEASE_SECONDS = 10
    debate = debate_create(team=team, user=None, question="Slow?", config=slow(14_000),
                           start=False)
    attempts: list[tuple[float, bool]] = []  # when, and whether the rival won
    first_seen_at: list[float] = []
    done = threading.Event()

    def rival() -> None:
        try:
            while not done.is_set():
                attempts.append((time.monotonic(), lease.claim(debate.code, "rival")))
                time.sleep(0.5)
        finally:
            connection.close()

    def rival_once_first_holds_the_lease() -> None:
        # Starting the rival before "first" has claimed would let it win the claim
        # fairly, which is not what this test is about.
        try:
            wait_until(lambda: done.is_set() or Debate.objects.filter(
                pk=debate.pk, lease_owner__startswith="first").exists(),
                what="the first worker to claim", interval=0.02)
        finally:
            connection.close()
        first_seen_at.append(time.monotonic())
        rival()

    thread = threading.Thread(target=rival_once_first_holds_the_lease)
    thread.start()
    try:
        # The first step (compose) is one call of 14 s, outlasting the 10 s lease by 4 s:
        # the rival keeps trying (every 0.5 s) through those 4 s.
        assert execution.run_next_step(debate.code, worker="first")
    finally:
        done.set()
        thread.join()
    assert not any(won for _, won in attempts), "a second worker claimed a step still running"
    # The rival kept trying after the lease first taken would have run out unrenewed.
    assert [at for at, _ in attempts if at > first_seen_at[0] + lease.lease_seconds()]
    assert Turn.objects.filter(debate=debate, phase="compose").count() == 1


@pytest.mark.django_db(transaction=True)
def test_cancel_stops_a_step_in_flight_within_a_heartbeat(team, settings):
    from debates.services import debate_cancel

    settings.COUNCIL_LEASE_SECONDS = 1
    # Five minutes for the call: ending well before that (within the patience, two
    # minutes, a loaded machine included) shows the cancel did not wait for it.
    debate = debate_create(team=team, user=None, question="Slow?", config=slow(300_000),
                           start=False)

    def cancel_once_running() -> None:
        try:
            wait_until(lambda: Debate.objects.filter(pk=debate.pk).exclude(
                lease_owner="").exists(), what="the step to start")
            debate_cancel(debate=debate)
        finally:
            connection.close()

    canceller = threading.Thread(target=cancel_once_running)
    canceller.start()
    started = time.monotonic()
    try:
        assert execution.run_next_step(debate.code) is False
    finally:
        canceller.join()
    assert time.monotonic() - started < PATIENCE_S, "the cancel waited for the call"
    debate.refresh_from_db()
    assert debate.status == DebateStatus.CANCELLED
    assert not Turn.objects.filter(debate=debate).exists()


def stall(debate: Debate, *, owner: str, seconds_ago: int) -> None:
    Debate.objects.filter(pk=debate.pk).update(
        status=DebateStatus.RUNNING, lease_owner=owner,
        lease_expires_at=timezone.now() - timedelta(seconds=seconds_ago))


@pytest.fixture
def queued(monkeypatch):
    sent: list[tuple] = []
    monkeypatch.setattr("django_q.tasks.async_task", lambda *a, **k: sent.append(a))
    return sent


@pytest.mark.django_db(transaction=True)
def test_a_dead_workers_debate_is_requeued_once_however_many_sweeps(team, queued):
    debate = debate_create(team=team, user=None, question="Dead?", config=slow(0),
                           start=False)
    stall(debate, owner="dead:1:abc", seconds_ago=1)
    assert execution.resume_stalled() == 1
    # A second sweeper (or the next sweep) within the grace finds nothing to do.
    assert execution.resume_stalled() == 0
    assert queued == [("debates.tasks.run_step", str(debate.code))]
    debate.refresh_from_db()
    assert debate.lease_owner == "" and debate.lease_expires_at is not None
    assert lease.claim(debate.code, "next"), "a live worker must be able to take it"


@pytest.mark.django_db(transaction=True)
def test_a_live_lease_and_a_fresh_hand_off_are_left_alone(team, queued):
    debate = debate_create(team=team, user=None, question="Alive?", config=slow(0),
                           start=False)
    stall(debate, owner="alive:1:abc", seconds_ago=-30)  # expires in 30 s
    assert execution.resume_stalled() == 0
    stall(debate, owner="", seconds_ago=5)  # handed on 5 s ago: its task is queued
    assert execution.resume_stalled(queued_grace_s=60) == 0
    stall(debate, owner="", seconds_ago=61)  # queued a minute ago, never picked up
    assert execution.resume_stalled(queued_grace_s=60) == 1
    assert len(queued) == 1


def test_a_forked_worker_process_holds_leases_under_its_own_name():
    # django-q2 forks its worker processes from a parent that has already imported the
    # lease; a name inherited across the fork let two processes both hold one debate.
    parent = lease.worker_id()
    assert lease.worker_id() == parent  # stable within a process
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report its name and leave without running any clean-up
        os.write(write, lease.worker_id().encode())
        os._exit(0)
    os.close(write)
    try:
        child = os.read(read, 256).decode()
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    assert child != parent
    assert child.split(":")[1] == str(pid)
