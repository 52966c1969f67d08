"""The debate list's search and filters on PostgreSQL (its full-text search), and the
start race on PostgreSQL (the team row lock), in one nested session.

The test process is configured once (SQLite), so these files run again in a nested
pytest session on a throw-away PostgreSQL database (``tests.nested_postgres``). Both
need the same configuration (no Redis: the ORM broker keeps queued steps in the same
database, so the race can see that refused starts queued nothing), so they share one
session and its set-up instead of paying for two.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ScaleOut
from tests.nested_postgres import run_on_postgres

pytestmark = pytest.mark.scaleout

SEARCH = "tests/web/test_debate_search.py"
RACE = "tests/debates/test_start_race.py"


def test_search_suite_and_start_race_pass_on_postgresql(scaleout: ScaleOut,
                                                          tmp_path: Path) -> None:
    run = run_on_postgres(
        [SEARCH, f"{RACE}::test_parallel_starts_create_exactly_what_the_rate_limit_allows"],
        postgres_url=scaleout.postgres_url, name="council_search", report_dir=tmp_path,
        timeout=600)
    assert run.returncode == 0, run.tail
    search, race = run.of(SEARCH), run.of(RACE)
    # Nothing skipped: the PostgreSQL-only search tests ran too.
    assert search["passed"] >= 11 and set(search) == {"passed"}, (search, run.tail)
    assert race == {"passed": 1}, (race, run.tail)
