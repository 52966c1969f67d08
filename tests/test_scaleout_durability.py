"""The durability suite again, on PostgreSQL + Redis (the scale-out configuration).

The test process itself is configured once (SQLite), so the same test file runs in
a nested pytest session whose environment selects PostgreSQL and the Redis broker
and channel layer; its workers are real qcluster processes on that configuration.

The file runs as three nested sessions, each a test of its own, so the two test
processes of ``make test`` share them instead of one waiting two minutes at the tail:
each worker-crash test alone (most of its time is waiting on worker start-up and
leases), then everything else. The last is the complement of the first two, so
together they run every durability test of the file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.scaleout

ROOT = Path(__file__).resolve().parent.parent
_CONFIG_PREFIXES = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_", "PYTEST_")
# Each part's -k expression and how many tests it must pass at least.
PARTS = {"a sigkilled worker": ("sigkilled", 1),
         "a worker killed mid-step": ("killed_mid_step", 1),
         "the rest": ("not (sigkilled or killed_mid_step)", 8)}


@pytest.mark.parametrize("part", PARTS)
def test_durability_suite_passes_on_postgresql_and_redis(scaleout, part):
    selection, at_least = PARTS[part]
    run_id = uuid.uuid4().hex[:8]
    base = scaleout.postgres_url.rsplit("/", 1)[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    env.update(
        DJANGO_DEBUG="1",
        # pytest-django creates (and drops) test_council_<id>; nothing else is touched.
        DATABASE_URL=f"{base}/council_{run_id}",
        REDIS_URL=scaleout.redis_url,
        COUNCIL_Q_NAME=f"council-test-{run_id}",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "durability",
         "-k", selection, "tests/debates/test_durability.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200,
    )
    tail = proc.stdout[-6000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    assert passed >= at_least and "skipped" not in summary and "failed" not in summary, summary
