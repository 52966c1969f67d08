"""Clients waiting on the event long-poll and stream, served by the site's real ASGI
application (what daphne serves): what they hold while they wait, how many one user
may keep open, and how they end when the caller loses access."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.cache import cache
from django.db.backends.signals import connection_created

from accounts.models import Membership
from accounts.services import api_token_create, api_token_revoke, membership_remove
from council_site.asgi import application
from debates.engine.schemas import DebateConfig
from debates.models import Debate
from debates.services import debate_create
from tests.waiting import PATIENCE_S, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def queued(team, owner) -> Debate:
    debate = debate_create(team=team, user=owner, question="Should we hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    debate.refresh_from_db()
    return debate


def http_scope(path: str, *, query: str = "", secret: str) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "",
            "headers": [(b"host", b"127.0.0.1"),
                        (b"authorization", f"Bearer {secret}".encode())],
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}


class Loop:
    """An event loop on a thread of its own with no ``async_to_sync`` above it, as in a
    daphne process: sync code the app runs "thread-sensitively" goes to asgiref's shared
    thread, not to the test's thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Any, timeout: float = PATIENCE_S) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        async def cancel_the_rest() -> None:
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in rest:
                task.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

        self.run(cancel_the_rest())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(autouse=True)
def no_slots_left_over():
    """Slots live in the cache, which outlives a test (and ids repeat across tests)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def loop():
    running = Loop()
    yield running
    running.close()


async def started(path: str, secret: str, query: str = "") -> tuple[ApplicationCommunicator,
                                                                    dict[str, Any]]:
    app = ApplicationCommunicator(application, http_scope(path, secret=secret, query=query))
    await app.send_input({"type": "http.request", "body": b"", "more_body": False})
    return app, await app.receive_output(timeout=PATIENCE_S)


async def rest_of_body(app: ApplicationCommunicator) -> bytes:
    body = b""
    while True:
        message = await app.receive_output(timeout=PATIENCE_S)
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


async def answer(path: str, secret: str, query: str = "") -> tuple[int, dict[str, str], Any]:
    """A request's whole answer: status, headers, JSON body."""
    app, start = await started(path, secret, query)
    body = await rest_of_body(app)
    return (start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]},
            json.loads(body))


async def open_stream(path: str, secret: str) -> tuple[ApplicationCommunicator, bytes]:
    """A started stream and its first frames (the ``retry`` line and the backlog)."""
    app, start = await started(path, secret)
    assert start["status"] == 200, start
    body = b""
    while b"event: debate_created" not in body:
        body += (await app.receive_output(timeout=PATIENCE_S)).get("body", b"")
    return app, body


async def disconnect(app: ApplicationCommunicator) -> None:
    await app.send_input({"type": "http.disconnect"})
    try:
        await app.wait(timeout=PATIENCE_S)
    except Exception:  # noqa: BLE001 - a cancelled response is how a disconnect ends
        pass


def test_waiting_streams_hold_no_thread_and_no_connection_of_their_own(team, owner, loop,
                                                                        settings):
    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.02
    debate = queued(team, owner)
    _, secret = api_token_create(user=owner, name="streams")
    opened: list[Any] = []

    def record(sender: type, connection: Any, **kwargs: Any) -> None:
        opened.append(connection)

    threads_before = threading.active_count()
    connection_created.connect(record)
    try:
        streams = [loop.run(open_stream(f"/api/debates/{debate.code}/events/stream",
                                        secret)) for _ in range(8)]
        # A wrapper is one thread's connection: it appears again each time it reconnects.
        held = [c for c in {id(c): c for c in opened}.values() if c.connection is not None]
        threads = threading.active_count() - threads_before
    finally:
        connection_created.disconnect(record)
        for app, _ in streams:
            loop.run(disconnect(app))
    assert len(held) <= 1, f"{len(held)} connections held by 8 waiting streams"
    assert threads <= 1, f"{threads} threads started for 8 waiting streams"


def stream_path(debate: Debate) -> str:
    return f"/api/debates/{debate.code}/events/stream"


def test_streams_beyond_the_cap_are_refused_429_and_an_ended_one_frees_its_slot(
        team, owner, loop, settings):
    settings.COUNCIL_STREAMS_PER_TOKEN = 2
    settings.COUNCIL_STREAMS_PER_USER = 3
    debate = queued(team, owner)
    _, first = api_token_create(user=owner, name="first")
    _, second = api_token_create(user=owner, name="second")
    streams = [loop.run(open_stream(stream_path(debate), first)) for _ in range(2)]
    try:
        status, headers, body = loop.run(answer(stream_path(debate), first))
        assert status == 429
        assert body["code"] == "rate_limited" and "per API token" in body["message"]
        assert set(body) == {"code", "message", "errors", "detail", "retry_after"}
        assert int(headers["retry-after"]) == body["retry_after"] > 0
        # The long-poll counts too, and the user's cap holds across their tokens.
        status, _, body = loop.run(answer(f"/api/debates/{debate.code}/events/wait",
                                          second, "timeout=0"))
        assert status == 200
        streams.append(loop.run(open_stream(stream_path(debate), second)))
        status, _, body = loop.run(answer(stream_path(debate), second))
        assert status == 429 and "per user" in body["message"]
        # A stream that ends hands its slot back.
        app, _ = streams.pop(0)
        loop.run(disconnect(app))
        streams.append(loop.run(open_stream(stream_path(debate), second)))
    finally:
        for app, _ in streams:
            loop.run(disconnect(app))


def loses(loses_access: str, *, team, user, token) -> int:
    """Take the user's access away; the status a new request gets from then on."""
    if loses_access == "removed from the team":
        membership_remove(membership=Membership.objects.get(team=team, user=user))
        return 404
    api_token_revoke(token=token)
    return 401


@pytest.mark.parametrize("loses_access", ["removed from the team", "token revoked"])
def test_a_stream_ends_with_a_new_requests_refusal_once_access_is_lost(
        team, owner, viewer, loop, settings, loses_access):
    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.02
    settings.COUNCIL_STREAM_RECHECK_SECONDS = 0.05
    debate = queued(team, owner)
    token, secret = api_token_create(user=viewer, name="follower")
    app, _ = loop.run(open_stream(stream_path(debate), secret))
    status = loses(loses_access, team=team, user=viewer, token=token)
    last = loop.run(rest_of_body(app)).decode().strip().split("\n\n")[-1]
    new_status, _, refusal = loop.run(answer(stream_path(debate), secret))
    assert new_status == status and refusal["code"] in ("not_found", "unauthorized")
    assert last == f"event: error\ndata: {json.dumps(refusal)}"


@pytest.mark.parametrize("loses_access", ["removed from the team", "token revoked"])
def test_a_long_poll_answers_a_new_requests_refusal_once_access_is_lost(
        team, owner, viewer, loop, settings, loses_access):
    settings.COUNCIL_EVENTS_POLL_SECONDS = 0.02
    settings.COUNCIL_STREAM_RECHECK_SECONDS = 0.05
    debate = queued(team, owner)
    token, secret = api_token_create(user=viewer, name="poller")
    waiting = asyncio.run_coroutine_threadsafe(
        answer(f"/api/debates/{debate.code}/events/wait", secret,
               f"after={debate.last_event_seq}&timeout=60"), loop.loop)
    # The long-poll holds its slot once it has passed its first access check.
    slots = [f"council:waits:token:{token.pk}:{i}" for i in range(10)]
    wait_until(lambda: bool(cache.get_many(slots)), what="the long-poll to hold its slot")
    status = loses(loses_access, team=team, user=viewer, token=token)
    refused = waiting.result(PATIENCE_S)
    new = loop.run(answer(f"/api/debates/{debate.code}/events/wait", secret, "timeout=0"))
    assert new[0] == status
    assert refused[::2] == new[::2]
