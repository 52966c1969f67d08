"""Following a debate from a script: the event feed, its long-poll and its SSE stream."""

from __future__ import annotations

import json
import threading
import time

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import Client

from accounts.services import api_token_create
from debates import event_log
from debates.api.events import MAX_WAIT_SECONDS
from debates.engine.schemas import DebateConfig
from debates.models import Debate, DebateStatus
from debates.services import debate_create


def bearer(user) -> Client:
    _, secret = api_token_create(user=user, name="test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def queued(team, owner) -> Debate:
    debate = debate_create(team=team, user=owner, question="Should we hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    debate.refresh_from_db()
    return debate


def finished(team, owner) -> Debate:
    debate = queued(team, owner)
    event_log.append(debate, "round_finished", {"round": 1})
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.SUCCEEDED)
    event_log.append(debate, "debate_finished", {"status": "succeeded"})
    return debate


def sse_frames(response) -> list[dict[str, str]]:
    async def collect() -> list[bytes]:
        return [chunk async for chunk in response.streaming_content]

    body = b"".join(async_to_sync(collect)()).decode()
    frames = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if ": " in line and not line.startswith(":"))
        if fields:
            frames.append(fields)
    return frames


@pytest.mark.django_db
def test_feed_pages_by_seq(owner, team):
    debate = finished(team, owner)
    client = bearer(owner)
    all_events = client.get(f"/api/debates/{debate.code}/events").json()
    assert [e["seq"] for e in all_events] == [1, 2, 3]
    later = client.get(f"/api/debates/{debate.code}/events", {"after": 2}).json()
    assert [e["kind"] for e in later] == ["debate_finished"]


@pytest.mark.django_db
def test_wait_answers_at_once_when_events_exist_or_the_debate_ended(owner, team):
    debate = finished(team, owner)
    client = bearer(owner)
    # Each asks for the longest wait: answering before it ran out is answering at once
    # (a wait that slept would take the whole minute, on any machine).
    started = time.monotonic()
    batch = client.get(f"/api/debates/{debate.code}/events/wait",
                       {"after": 1, "timeout": MAX_WAIT_SECONDS}).json()
    assert [e["seq"] for e in batch["events"]] == [2, 3]
    assert batch["last_event_seq"] == 3 and batch["active"] is False
    assert batch["status"] == "succeeded"
    assert time.monotonic() - started < MAX_WAIT_SECONDS
    started = time.monotonic()
    done = client.get(f"/api/debates/{debate.code}/events/wait",
                      {"after": 3, "timeout": MAX_WAIT_SECONDS}).json()
    assert done == {"events": [], "last_event_seq": 3, "status": "succeeded",
                    "active": False}
    assert time.monotonic() - started < MAX_WAIT_SECONDS


@pytest.mark.django_db
def test_wait_past_the_end_answers_the_real_last_sequence(owner, team):
    debate = finished(team, owner)
    done = bearer(owner).get(f"/api/debates/{debate.code}/events/wait",
                             {"after": 999, "timeout": 0}).json()
    assert done["events"] == [] and done["active"] is False
    assert done["last_event_seq"] == 3 and "last_seq" not in done


@pytest.mark.django_db
def test_wait_times_out_empty_on_a_quiet_running_debate(owner, team, settings):
    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.05
    debate = queued(team, owner)
    started = time.monotonic()
    batch = bearer(owner).get(f"/api/debates/{debate.code}/events/wait",
                              {"after": debate.last_event_seq, "timeout": 0.4}).json()
    assert time.monotonic() - started >= 0.4
    assert batch["events"] == [] and batch["active"] is True
    assert batch["last_event_seq"] == debate.last_event_seq


@pytest.mark.django_db(transaction=True)
def test_wait_wakes_when_an_event_arrives(owner, team, settings):
    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.05
    debate = queued(team, owner)
    client = bearer(owner)

    def later() -> None:
        time.sleep(0.5)
        event_log.append(debate, "round_started", {"round": 1})
        connection.close()

    thread = threading.Thread(target=later)
    thread.start()
    started = time.monotonic()
    batch = client.get(f"/api/debates/{debate.code}/events/wait",
                       {"after": debate.last_event_seq, "timeout": MAX_WAIT_SECONDS}).json()
    elapsed = time.monotonic() - started
    thread.join()
    assert [e["kind"] for e in batch["events"]] == ["round_started"]
    # It waited for the event, and woke for it instead of sleeping out the minute.
    assert 0.4 <= elapsed < MAX_WAIT_SECONDS


@pytest.mark.django_db
def test_wait_validates_its_query(owner, team):
    debate = queued(team, owner)
    response = bearer(owner).get(f"/api/debates/{debate.code}/events/wait", {"timeout": 3600})
    assert response.status_code == 422


@pytest.mark.django_db
def test_stream_sends_every_event_then_end(owner, team):
    debate = finished(team, owner)
    response = bearer(owner).get(f"/api/debates/{debate.code}/events/stream")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    frames = sse_frames(response)
    assert [f.get("id") for f in frames if "id" in f] == ["1", "2", "3"]
    assert [f["event"] for f in frames if "event" in f] == [
        "debate_created", "round_finished", "debate_finished", "end"]
    assert json.loads(frames[2]["data"])["payload"] == {"round": 1}
    assert json.loads(frames[-1]["data"]) == {"status": "succeeded", "last_event_seq": 3}


@pytest.mark.django_db
def test_stream_resumes_after_last_event_id(owner, team):
    debate = finished(team, owner)
    client = bearer(owner)
    frames = sse_frames(client.get(f"/api/debates/{debate.code}/events/stream",
                                   HTTP_LAST_EVENT_ID="2"))
    assert [f["id"] for f in frames if "id" in f] == ["3"]
    frames = sse_frames(client.get(f"/api/debates/{debate.code}/events/stream",
                                   {"after": 1}))
    assert [f["id"] for f in frames if "id" in f] == ["2", "3"]


@pytest.mark.django_db
def test_stream_ends_with_reconnect_after_its_lifetime(owner, team, settings):
    from debates.api.events import stream

    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.01
    debate = queued(team, owner)

    async def collect() -> list[str]:
        return [frame async for frame in stream(debate.pk, 0, lifetime=0.1)]

    frames = async_to_sync(collect)()
    assert frames[1].startswith("id: 1\nevent: debate_created")
    assert json.loads(frames[-1].split("data: ", 1)[1]) == {
        "status": "queued", "last_event_seq": 1, "reconnect": True}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["events", "events/wait", "events/stream"])
def test_feed_hides_other_teams_and_needs_auth(owner, team, outsider, path):
    debate = finished(team, owner)
    assert bearer(outsider).get(f"/api/debates/{debate.code}/{path}").status_code == 404
    assert Client().get(f"/api/debates/{debate.code}/{path}").status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["events", "events/wait", "events/stream"])
def test_feed_honours_the_tokens_limits(owner, team, path):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import ApiToken
    from accounts.services import team_create

    debate = finished(team, owner)
    second = team_create(name="Second", owner=owner)
    _, read_only = api_token_create(user=owner, name="dashboard", read_only=True)
    _, elsewhere = api_token_create(user=owner, name="second's", team=second)
    expiring, expired = api_token_create(user=owner, name="old",
                                         expires_at=timezone.now() + timedelta(days=1))
    ApiToken.objects.filter(pk=expiring.pk).update(expires_at=timezone.now())

    def get(secret: str) -> int:
        client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
        return client.get(f"/api/debates/{debate.code}/{path}").status_code

    assert get(read_only) == 200
    assert get(elsewhere) == 404
    assert get(expired) == 401


@pytest.mark.django_db
def test_a_session_stream_ends_once_its_session_is_logged_out(owner, team, settings,
                                                              monkeypatch):
    from debates.api import events as api_events

    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.01
    settings.COUNCIL_STREAM_RECHECK_SECONDS = 0.01
    monkeypatch.setattr(api_events, "STREAM_SECONDS", 5)  # were it not to end at all
    debate = queued(team, owner)
    client = Client()
    client.force_login(owner)
    response = client.get(f"/api/debates/{debate.code}/events/stream")
    assert response.status_code == 200
    client.logout()
    frames = sse_frames(response)
    refused = client.get(f"/api/debates/{debate.code}/events/stream")
    assert refused.status_code == 401
    assert frames[-1]["event"] == "error" and json.loads(frames[-1]["data"]) == refused.json()
