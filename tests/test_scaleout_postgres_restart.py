"""A PostgreSQL restart while debates are mid-flight: every worker path reconnects.

The cluster is a private one (``bench.private_services``: initdb into a temporary
directory, a free port), restarted with ``pg_ctl restart -m fast``, which ends every
session ("terminating connection due to administrator command"); the machine's
shared server is never touched. Two local worker hosts run simulated debates on it
and the machine's Redis (a queue of their own). Instant debates run first, so the
workers' database threads hold idle connections when the server ends them; debates
queued right after the restart go to those threads.

The sweeper's queue grace is set to ten minutes, longer than the test waits: a claim
lost on a stale connection is then never rescued by the grace, so the debates finish
only if each worker reconnects and carries on by itself (docs/execution.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.faults import restart_postgres, run_fault
from bench.fleet import Settings
from bench.private_services import PrivatePostgres, postgres_problem
from tests.conftest import _skip_or_fail, require_redis
from tests.waiting import PATIENCE_S

NO_GRACE = Settings(queue_grace_s=600)
# Per simulated call: a quick debate makes about seven in a row, so each of the six is
# still mid-flight for seconds after the check that all have begun, while the restart
# itself takes about one (the bench's own 1500 ms made the test wait half a minute on
# the simulated model alone).
LATENCY_MS = 600


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    problem = postgres_problem()
    if problem:
        _skip_or_fail(f"a private PostgreSQL cluster cannot run here: {problem}")
    with PrivatePostgres() as pg:
        yield pg


def test_debates_finish_after_a_postgresql_restart_without_the_queue_grace(
        private_postgres: PrivatePostgres, tmp_path: Path) -> None:
    redis_url = require_redis()
    recovery = run_fault("PostgreSQL restart", restart_postgres(private_postgres),
                         postgres_url=private_postgres.url(), redis_url=redis_url,
                         log_dir=tmp_path, settings=NO_GRACE, warm=16, debates=6,
                         after=4, latency_ms=LATENCY_MS, timeout=PATIENCE_S)
    print(recovery)  # the measured times, for docs/execution.md
    assert recovery.problems == []
    assert recovery.succeeded == recovery.debates == 16 + 6 + 4
    # Every debate that was mid-flight moved on after the restart, and every debate
    # queued right after it stored its first turn.
    assert recovery.resumed_s is not None
    assert recovery.first_turn_s is not None
