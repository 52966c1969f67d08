"""Debates survive worker crashes, faults and load, run by real qcluster processes.

This file runs twice: directly (embedded: SQLite + ORM broker) and, through
``test_scaleout_configuration.py``, in a nested session on PostgreSQL + Redis.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.event_log import events_after
from debates.models import Debate, DebateStatus, LLMCall, Synthesis, Turn
from debates.runtime import execution
from debates.services import debate_create
from tests.debates.workers import Cluster, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.durability]

QUESTION = "Should we split our Django monolith into microservices?"


def config(latency_ms: int = 0, seed: int = 7, **kw) -> DebateConfig:
    return DebateConfig(mode="quick", seed=seed, retry_backoff_s=0.01,
                        simulator=SimulatorOptions(latency_ms=latency_ms, seed=seed), **kw)


def finished(*codes) -> bool:
    return not Debate.objects.filter(code__in=codes, status__in=[
        DebateStatus.QUEUED, DebateStatus.RUNNING]).exists()


def assert_each_turn_once_and_no_repeated_paid_call(debate: Debate) -> None:
    slots = Counter(Turn.objects.filter(debate=debate).values_list("phase", "round", "agent_index"))
    assert slots and max(slots.values()) == 1
    ok_calls = (LLMCall.objects.filter(debate=debate, ok=True)
                .values("phase", "round", "agent_index").annotate(n=Count("id")))
    repeated = [c for c in ok_calls if c["n"] > 1]
    assert repeated == [], f"successful calls repeated for stored turns: {repeated}"
    stored = set(slots)
    paid = {(c["phase"], c["round"], c["agent_index"]) for c in ok_calls}
    assert paid <= stored, f"paid-for answers without a turn: {paid - stored}"


def test_sigkilled_worker_mid_debate_is_resumed_without_repeating_calls(tmp_path, settings):
    # A long lease: on a loaded machine a short one can run out between two heartbeats
    # of a live worker, and the other worker's takeover is not what is tested here.
    settings.COUNCIL_LEASE_SECONDS = 60
    debate = debate_create(team=_team(), user=None, question=QUESTION,
                           config=config(latency_ms=250))
    first = Cluster(tmp_path)
    try:
        wait_for(lambda: Turn.objects.filter(debate=debate, phase="position").exists(),
                 what="the first worker to reach the positions", cluster=first)
        first.kill()
    finally:
        first.stop()
    before = Turn.objects.filter(debate=debate).count()
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.RUNNING
    # The minute the killed worker's lease would still run, passed at once; then the
    # sweeper hands the debate on, to the cluster started next.
    Debate.objects.filter(pk=debate.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert execution.resume_stalled(queued_grace_s=0) == 1

    second = Cluster(tmp_path)
    try:
        wait_for(lambda: finished(debate.code),
                 what="the resumed debate to finish", cluster=second)
    finally:
        second.stop()

    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    assert Turn.objects.filter(debate=debate).count() > before
    assert_each_turn_once_and_no_repeated_paid_call(debate)
    assert debate.events.filter(kind="resumed").exists()


def test_a_worker_killed_mid_step_is_replaced_with_default_settings(tmp_path):
    """Default lease and sweep (no overrides): the surviving cluster's own sweeper
    notices the dead worker's lease and finishes the debate. Unloaded that takes about
    lease + sweep (15 s, printed); the wait allows a loaded machine's two minutes."""
    clusters = [Cluster(tmp_path, DJANGO_LOG_LEVEL="INFO") for _ in range(2)]
    try:
        for cluster in clusters:
            cluster.wait_ready()
        debate = debate_create(team=_team(), user=None, question=QUESTION,
                               config=config(latency_ms=250))

        def mid_step_after_positions() -> str:
            owner = Debate.objects.get(pk=debate.pk).lease_owner
            return owner if owner and Turn.objects.filter(
                debate=debate, phase="position").exists() else ""

        owner = wait_for(mid_step_after_positions,
                         what="a worker to hold a step after the positions")
        doomed = next((c for c in clusters if c.holds(owner)), None)
        assert doomed is not None, f"the lease ({owner!r}) is held by neither cluster"
        survivor = clusters[1 - clusters.index(doomed)]
        before = Turn.objects.filter(debate=debate).count()
        doomed.kill()
        crashed_at = time.monotonic()
        wait_for(lambda: finished(debate.code),
                 what="the debate to finish on the surviving cluster", cluster=survivor)
        print(f"\nrecovery: crash -> finished in {time.monotonic() - crashed_at:.1f} s "
              f"(lease {settings.COUNCIL_LEASE_SECONDS} s, sweep "
              f"{settings.COUNCIL_SWEEP_SECONDS} s)")
    finally:
        for cluster in clusters:
            cluster.stop()
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    assert Turn.objects.filter(debate=debate).count() > before
    assert_each_turn_once_and_no_repeated_paid_call(debate)
    assert debate.events.filter(kind="resumed").exists()


def test_ten_debates_started_at_once_all_finish(tmp_path):
    team = _team()
    debates = [debate_create(team=team, user=None, question=f"{QUESTION} (variant {i})",
                             config=config(latency_ms=20, seed=i)) for i in range(10)]
    cluster = Cluster(tmp_path, COUNCIL_WORKERS="4")
    try:
        wait_for(lambda: finished(*(d.code for d in debates)), timeout=240,
                 what="ten concurrent debates to finish", cluster=cluster)
        log = cluster.output()
    finally:
        cluster.stop()
    statuses = Counter(Debate.objects.values_list("status", flat=True))
    assert statuses == {DebateStatus.SUCCEEDED: 10}, list(
        Debate.objects.exclude(status=DebateStatus.SUCCEEDED).values_list("error", flat=True))
    assert "database is locked" not in log
    for debate in debates:
        assert_each_turn_once_and_no_repeated_paid_call(debate)
        seqs = list(debate.events.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1)), "event log has gaps"


HIGH_FAULTS = {"timeout": 0.15, "rate_limit": 0.15, "server_error": 0.15,
               "malformed_json": 0.1, "schema_invalid": 0.1}


@pytest.mark.parametrize("seed", range(6))
def test_heavy_faults_end_degraded_or_failed_never_half_written(seed):
    cfg = DebateConfig(mode="quick", seed=seed, retry_backoff_s=0.0, max_retries=2,
                       simulator=SimulatorOptions(faults=HIGH_FAULTS, seed=seed))
    debate = debate_create(team=_team(), user=None, question=QUESTION, config=cfg, start=False)
    execution.run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status in (DebateStatus.SUCCEEDED, DebateStatus.FAILED)
    failed_turns = Turn.objects.filter(debate=debate, status="failed")
    for turn in Turn.objects.filter(debate=debate):
        assert (turn.payload is not None) == (turn.status == "ok")
        assert bool(turn.error) == (turn.status == "failed")
    assert LLMCall.objects.filter(debate=debate, ok=False).exists()
    if debate.status == DebateStatus.SUCCEEDED:
        result = debate.synthesis.result
        agent_failures = failed_turns.filter(agent_index__gte=0)
        assert result["degraded"] == bool(agent_failures.exists() or
                                          failed_turns.filter(phase="verify").exists())
        for turn in agent_failures:
            name = debate.agents.get(index=turn.agent_index).name
            assert any(name in note for note in result["degraded_notes"])
    else:
        assert debate.error
        assert not Synthesis.objects.filter(debate=debate).exists()
        # The provider's own words are kept, not a generic "failed".
        assert any(word in debate.error for word in (
            "sim", "Timeout", "RateLimit", "InternalServer", "ServiceUnavailable",
            "Validation", "quorum"))


def test_synthesis_falls_back_to_the_fallback_model():
    cfg = config(phase_models={"synthesis": "sim/down"}, fallback_model="sim/default")
    debate = debate_create(team=_team(), user=None, question=QUESTION, config=cfg, start=False)
    execution.run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    assert debate.synthesis.result["synthesis_model"] == "sim/default"


def test_synthesis_failure_without_fallback_fails_with_the_provider_message():
    cfg = config(phase_models={"synthesis": "sim/down"})
    debate = debate_create(team=_team(), user=None, question=QUESTION, config=cfg, start=False)
    execution.run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    assert "sim/down: service unavailable" in debate.error
    assert not Synthesis.objects.filter(debate=debate).exists()


def test_reading_events_after_n_returns_exactly_the_missing_ones():
    debate = debate_create(team=_team(), user=None, question=QUESTION, config=config(),
                           start=False)
    execution.run_to_completion(debate.code)
    all_seqs = list(debate.events.order_by("seq").values_list("seq", flat=True))
    assert len(all_seqs) > 10
    for n in (0, 1, 5, len(all_seqs) - 1, len(all_seqs)):
        assert [e.seq for e in events_after(debate, n)] == all_seqs[n:]


def test_a_second_delivery_of_a_finished_step_asks_nothing_again():
    debate = debate_create(team=_team(), user=None, question=QUESTION, config=config(),
                           start=False)
    execution.run_to_completion(debate.code)
    calls = LLMCall.objects.filter(debate=debate).count()
    # A duplicate task for a finished debate is refused by the lease claim.
    assert execution.run_next_step(debate.code) is False
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.RUNNING)
    execution.run_next_step(debate.code)  # state complete: only finalises
    assert LLMCall.objects.filter(debate=debate).count() == calls


def test_cancel_between_steps_stops_the_debate():
    from debates.services import debate_cancel

    debate = debate_create(team=_team(), user=None, question=QUESTION, config=config(),
                           start=False)
    assert execution.run_next_step(debate.code)
    debate_cancel(debate=debate)
    assert execution.run_next_step(debate.code) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.CANCELLED
    assert not Turn.objects.filter(debate=debate, phase="premortem").exists()


def _team():
    from accounts.models import Team

    return Team.objects.create(name=f"durability-{connection.vendor}")


def test_the_configuration_under_test_is_the_one_the_environment_asks_for():
    from django.conf import settings

    wants_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    assert connection.vendor == ("postgresql" if wants_postgres else "sqlite")
    assert settings.COUNCIL_BROKER == ("redis" if os.environ.get("REDIS_URL") else "orm")
