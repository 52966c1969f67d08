"""A stop is clean: SIGTERM or SIGINT, to qcluster's process group (what systemd and
Ctrl-C do) or to its main process only, ends every process without waiting for a model
call in flight (for ten minutes), and the abandoned step's lease is handed on.

Unloaded that takes a few seconds (the 10 s the docs promise); the test allows its usual
patience, two minutes, as CI's loaded machines need, still far short of the call."""

from __future__ import annotations

import os
import signal

import pytest
from django.db import connection
from django_q.brokers import get_broker

from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.models import Debate, DebateStatus
from debates.services import debate_create
from tests.debates.workers import Cluster, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SLOW = DebateConfig(mode="quick", seed=3, simulator=SimulatorOptions(latency_ms=600_000, seed=3))


def send(pid: int, signum: int, target: str) -> None:
    if target == "group":
        os.killpg(pid, signum)
    else:
        os.kill(pid, signum)


def claimed(debate: Debate) -> str:
    return Debate.objects.filter(pk=debate.pk).values_list("lease_owner", flat=True).get()


@pytest.mark.parametrize("target", ["group", "main"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_stops_qcluster_without_waiting_for_the_call_and_hands_the_lease_on(
        tmp_path, signum, target):
    from accounts.models import Team

    cluster = Cluster(tmp_path, DJANGO_LOG_LEVEL="INFO")
    try:
        cluster.wait_ready()
        debate = debate_create(team=Team.objects.create(name=f"stop-{connection.vendor}"),
                               user=None, question="Stop cleanly?", config=SLOW)
        owner = wait_for(lambda: claimed(debate), what="a worker to claim the debate",
                         cluster=cluster)
        assert cluster.holds(owner)
        # The step is under way (its call, or about to start it): either way a stop
        # gives it up at the next heartbeat poll.
        send(cluster.proc.pid, signum, target)
        wait_for(lambda: not cluster.processes(),
                 what="every process of the cluster to exit", cluster=cluster)
    finally:
        cluster.stop()
    debate.refresh_from_db()
    assert debate.status == DebateStatus.RUNNING
    assert debate.lease_owner == "", "the abandoned step still holds its lease"
    assert debate.events.filter(kind="abandoned").exists()
    assert get_broker().queue_size() >= 1, "the abandoned step was not queued again"
