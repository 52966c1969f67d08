"""The rate limit holds under parallel requests: counting the team's debates and
inserting the new one are one critical section.

Twenty threads post at once (form and API mixed, one session) to a live server with
``debates_per_hour=1``: exactly one debate is created, every other request is
refused with the limit's message (the API with 429 and Retry-After), and nothing
else is saved or queued. On SQLite the IMMEDIATE transactions serialise the
writers; on PostgreSQL the team row lock does (test_start_race_on_postgresql runs
this file there in a nested session).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.test import Client
from django_q.models import OrmQ

from accounts.models import Team
from debates.models import Debate, DebateEvent
from tests.waiting import PATIENCE_S

ROOT = Path(__file__).resolve().parents[2]
THREADS = 20
SECRET = "a" * 32  # any 32 alphanumerics: the CSRF cookie and the token sent with it


def _post(url: str, cookies: dict[str, str], kind: str) -> requests.Response:
    headers = {"X-CSRFToken": SECRET, "Referer": url}
    question = f"Should we ship release {uuid.uuid4().hex[:6]} this week?"
    if kind == "api":
        return requests.post(f"{url}/api/debates/", json={"question": question,
                             "mode": "quick", "model": "sim/default"},
                             cookies=cookies, headers=headers, timeout=PATIENCE_S)
    return requests.post(f"{url}/debates/new", data={
        "question": question, "context": "", "protocol": "council", "mode": "quick",
        "model": "sim/default", "csrfmiddlewaretoken": SECRET,
    }, cookies=cookies, headers=headers, timeout=PATIENCE_S, allow_redirects=False)


@pytest.mark.django_db(transaction=True)
def test_parallel_starts_create_exactly_what_the_rate_limit_allows(live_server, team, member):
    Team.objects.filter(pk=team.pk).update(debates_per_hour=1)
    client = Client()
    client.force_login(member)
    cookies = {"sessionid": client.cookies["sessionid"].value, "csrftoken": SECRET}
    barrier = threading.Barrier(THREADS)
    responses: list[requests.Response] = []
    errors: list[BaseException] = []

    def post(kind: str) -> None:
        try:
            barrier.wait(timeout=PATIENCE_S)
            responses.append(_post(live_server.url, cookies, kind))
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=post, args=("api" if i % 2 else "form",))
               for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * PATIENCE_S)

    assert not errors, errors
    created = [r for r in responses if r.status_code in (201, 302)]
    # The form shows the message (400); the API answers 429 with Retry-After.
    refused = [r for r in responses if r.status_code in (400, 429)]
    assert len(responses) == THREADS
    assert len(created) == 1, [r.status_code for r in responses]
    assert len(refused) == THREADS - 1
    assert all("Rate limit" in r.text for r in refused)
    api_refusals = [r for r in refused if r.request.url.endswith("/api/debates/")]
    assert all(r.status_code == 429 and int(r.headers["Retry-After"]) > 0
               for r in api_refusals)
    assert Debate.objects.count() == 1
    # Only the accepted debate's rows exist: its creation event and one queued step.
    assert DebateEvent.objects.count() == 1
    if settings.COUNCIL_BROKER == "orm":
        assert OrmQ.objects.count() == 1


@pytest.mark.scaleout
def test_start_race_on_postgresql(scaleout):
    """The test above in a nested pytest session on a throw-away PostgreSQL database."""
    run_id = uuid.uuid4().hex[:8]
    base = scaleout.postgres_url.rsplit("/", 1)[0]
    prefixes = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_", "PYTEST_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    # pytest-django creates (and drops) test_council_race_<id>; nothing else is touched.
    # No REDIS_URL: the ORM broker keeps queued steps in the same database, so the
    # test can see that refused starts queued nothing.
    env.update(DJANGO_DEBUG="1", DATABASE_URL=f"{base}/council_race_{run_id}")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"{Path(__file__).relative_to(ROOT)}::"
         "test_parallel_starts_create_exactly_what_the_rate_limit_allows"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    tail = proc.stdout[-6000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    assert re.search(r"\b1 passed\b", summary) and "skipped" not in summary, summary
