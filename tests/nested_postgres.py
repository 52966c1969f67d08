"""Test files run again on PostgreSQL in a nested pytest session.

The test process is configured once (SQLite), so a file that must also hold on
PostgreSQL runs in a child ``pytest`` whose environment selects a throw-away database
(pytest-django creates and drops ``test_<name>_<id>``; nothing else is touched). Each
child session pays for an interpreter, Django, litellm and a migrated PostgreSQL test
database (tens of seconds on a loaded machine), so files that need the same
configuration share one session, and each file's outcome is read from its JUnit report
(docs/performance.md, "The test suite's time").
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_CONFIG_PREFIXES = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_", "PYTEST_")


@dataclass(frozen=True)
class NestedRun:
    returncode: int
    tail: str  # the end of the session's output, for a failure's message
    outcomes: dict[str, Counter[str]]  # per test file: passed, failed, error, skipped

    def of(self, path: str) -> Counter[str]:
        return self.outcomes.get(path, Counter())


def run_on_postgres(targets: list[str], *, postgres_url: str, name: str, report_dir: Path,
                    timeout: float, **environ: str) -> NestedRun:
    """``pytest`` over ``targets`` (files or node ids, relative to the checkout) on a
    fresh database named after ``name``; ``environ`` adds to the child's settings
    (``DJANGO_DEBUG=1`` and ``DATABASE_URL`` are set, other site settings cleared)."""
    base = postgres_url.rsplit("/", 1)[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    env.update(DJANGO_DEBUG="1", DATABASE_URL=f"{base}/{name}_{uuid.uuid4().hex[:8]}",
               **environ)
    report = report_dir / f"{name}-junit.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         f"--junitxml={report}", *targets],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )
    tail = proc.stdout[-6000:] + proc.stderr[-2000:]
    return NestedRun(proc.returncode, tail, _outcomes(report) if report.exists() else {})


def _outcomes(report: Path) -> dict[str, Counter[str]]:
    outcomes: dict[str, Counter[str]] = {}
    for case in ET.parse(report).iter("testcase"):
        # classname is the dotted module path plus any class: tests.web.test_x[.Class]
        module = case.get("classname", "").split(".")
        while module and not module[-1].startswith("test_"):
            module.pop()
        path = "/".join(module) + ".py"
        results = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        outcome = {"failure": "failed"}.get(results[0], results[0]) if results else "passed"
        outcomes.setdefault(path, Counter())[outcome] += 1
    return outcomes
