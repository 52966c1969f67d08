"""A stop is clean: SIGTERM or SIGINT, to qcluster's process group (what systemd and
Ctrl-C do) or to its main process only, ends every process within 10 s, even with a
model call in flight for a minute, and the abandoned step's lease is handed on."""

from __future__ import annotations

import os
import signal
import time

import pytest
from django.db import connection
from django_q.brokers import get_broker

from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.models import Debate, DebateStatus
from debates.services import debate_create
from tests.debates.workers import Cluster, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SLOW = DebateConfig(mode="quick", seed=3, simulator=SimulatorOptions(latency_ms=60_000, seed=3))


def send(pid: int, signum: int, target: str) -> None:
    if target == "group":
        os.killpg(pid, signum)
    else:
        os.kill(pid, signum)


def claimed(debate: Debate) -> str:
    return Debate.objects.filter(pk=debate.pk).values_list("lease_owner", flat=True).get()


@pytest.mark.parametrize("target", ["group", "main"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_stops_qcluster_within_10_s_and_hands_the_lease_on(tmp_path, signum, target):
    from council_site.accounts.models import Team

    cluster = Cluster(tmp_path, DJANGO_LOG_LEVEL="INFO")
    try:
        cluster.wait_ready()
        debate = debate_create(team=Team.objects.create(name=f"stop-{connection.vendor}"),
                               user=None, question="Stop cleanly?", config=SLOW)
        owner = wait_for(lambda: claimed(debate), timeout=60,
                         what="a worker to claim the debate", cluster=cluster)
        assert cluster.holds(owner)
        time.sleep(0.5)  # the step's first call is now in flight (for a minute)
        send(cluster.proc.pid, signum, target)
        wait_for(lambda: not cluster.processes(), timeout=10,
                 what="every process of the cluster to exit", cluster=cluster)
    finally:
        cluster.stop()
    debate.refresh_from_db()
    assert debate.status == DebateStatus.RUNNING
    assert debate.lease_owner == "", "the abandoned step still holds its lease"
    assert debate.events.filter(kind="abandoned").exists()
    assert get_broker().queue_size() >= 1, "the abandoned step was not queued again"
