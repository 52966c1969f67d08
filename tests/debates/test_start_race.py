"""The rate limit holds under parallel requests: counting the team's debates and
inserting the new one are one critical section.

Twenty threads post at once (form and API mixed, one session) to a live server with
``debates_per_hour=1``: exactly one debate is created, every other request is
refused with the limit's message (the API with 429 and Retry-After), and nothing
else is saved or queued. On SQLite the IMMEDIATE transactions serialise the
writers; on PostgreSQL the team row lock does (tests/test_scaleout_search.py runs
this test there, in the nested session of the search tests).
"""

from __future__ import annotations

import threading
import uuid

import pytest
import requests
from django.conf import settings
from django.test import Client
from django_q.models import OrmQ

from accounts.models import Team
from debates.models import Debate, DebateEvent
from tests.waiting import PATIENCE_S

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

