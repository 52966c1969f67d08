"""The durability suite again, on PostgreSQL + Redis (the scale-out configuration).

The test process itself is configured once (SQLite), so the same test file runs in
a nested pytest session (``tests.nested_postgres``) whose environment selects
PostgreSQL and the Redis broker and channel layer; its workers are real qcluster
processes on that configuration.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tests.conftest import ScaleOut
from tests.nested_postgres import run_on_postgres

pytestmark = pytest.mark.scaleout

DURABILITY = "tests/debates/test_durability.py"


def test_durability_suite_passes_on_postgresql_and_redis(scaleout: ScaleOut,
                                                         tmp_path: Path) -> None:
    run = run_on_postgres(
        ["-m", "durability", DURABILITY], postgres_url=scaleout.postgres_url,
        name="council", report_dir=tmp_path, timeout=1200, REDIS_URL=scaleout.redis_url,
        COUNCIL_Q_NAME=f"council-test-{uuid.uuid4().hex[:8]}")
    assert run.returncode == 0, run.tail
    outcomes = run.of(DURABILITY)
    assert outcomes["passed"] >= 10 and set(outcomes) == {"passed"}, (outcomes, run.tail)
