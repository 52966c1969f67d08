"""The debate list's search and filters on PostgreSQL (its full-text search).

The test process is configured once (SQLite), so the search tests run again in a
nested pytest session on a throw-away PostgreSQL database (pytest-django creates and
drops test_council_search_<id>; nothing else is touched).
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


def test_search_suite_passes_on_postgresql(scaleout):
    run_id = uuid.uuid4().hex[:8]
    base = scaleout.postgres_url.rsplit("/", 1)[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    env.update(DJANGO_DEBUG="1", DATABASE_URL=f"{base}/council_search_{run_id}")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         "tests/web/test_debate_search.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    tail = proc.stdout[-6000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    # Nothing skipped: the PostgreSQL-only tests ran too.
    assert "skipped" not in summary and "failed" not in summary, summary
    assert int(re.search(r"(\d+) passed", summary).group(1)) >= 11, summary
