"""The durability suite again, on PostgreSQL + Redis (the scale-out configuration).

The test process itself is configured once (SQLite), so the same test file runs in
a nested pytest session whose environment selects PostgreSQL and the Redis broker
and channel layer; its workers are real qcluster processes on that configuration.
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


def test_durability_suite_passes_on_postgresql_and_redis(scaleout):
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
         "tests/debates/test_durability.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200,
    )
    tail = proc.stdout[-6000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    assert passed >= 10 and "skipped" not in summary and "failed" not in summary, summary
