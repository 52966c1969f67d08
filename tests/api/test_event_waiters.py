"""Clients waiting on the event long-poll and stream, served by the site's real ASGI
application (what daphne serves): what they hold while they wait, how many one user
may keep open, and how they end when the caller loses access."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db.backends.signals import connection_created

from council_site.accounts.services import api_token_create
from council_site.asgi import application
from debates.engine.schemas import DebateConfig
from debates.models import Debate
from debates.services import debate_create

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

    def run(self, coroutine: Any, timeout: float = 60) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def loop():
    running = Loop()
    yield running
    running.close()


def wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


async def open_stream(path: str, secret: str) -> tuple[ApplicationCommunicator, bytes]:
    """A started stream and its first body chunk (the ``retry`` line and the backlog)."""
    app = ApplicationCommunicator(application, http_scope(path, secret=secret))
    await app.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await app.receive_output(timeout=30)
    assert start["status"] == 200, start
    body = b""
    while b"event: debate_created" not in body:
        body += (await app.receive_output(timeout=30)).get("body", b"")
    return app, body


async def disconnect(app: ApplicationCommunicator) -> None:
    await app.send_input({"type": "http.disconnect"})
    try:
        await app.wait(timeout=10)
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
