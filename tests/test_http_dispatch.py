"""HTTP under ASGI (site_edge.dispatch): sync views run the whole Django stack on
a pool thread through WSGI, coroutine views keep Django's ASGI handler.

Driven through the site's real ASGI application (what daphne serves), so cookies,
bodies, redirects and CSRF have to survive the WSGI adaptation."""

from __future__ import annotations

import json
import threading
import uuid
from http.cookies import SimpleCookie
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.test import Client

from accounts.services import api_token_create
from council_site.asgi import application
from site_edge.dispatch import serves_async
from tests.conftest import PASSWORD
from tests.factories import make_debate
from tests.waiting import PATIENCE_S

pytestmark = pytest.mark.django_db(transaction=True)


async def asgi_request(method: str, path: str, *, headers: dict[str, str] | None = None,
                       body: bytes = b"", query: str = "") -> tuple[int, dict[str, list[str]],
                                                                    bytes]:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"127.0.0.1")] + [
                 (k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}
    app = ApplicationCommunicator(application, scope)
    await app.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await app.receive_output(timeout=PATIENCE_S)
    response_headers: dict[str, list[str]] = {}
    for key, value in start["headers"]:
        response_headers.setdefault(key.decode().lower(), []).append(value.decode())
    content = b""
    while True:
        message = await app.receive_output(timeout=PATIENCE_S)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await app.wait(timeout=PATIENCE_S)
    return start["status"], response_headers, content


def cookies_of(headers: dict[str, list[str]]) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for line in headers.get("set-cookie", []):
        jar.load(line)
    return {name: morsel.value for name, morsel in jar.items()}


def test_only_coroutine_views_are_served_async(team, owner):
    code = uuid.uuid4()
    assert serves_async(f"/api/debates/{code}/events/wait")
    assert serves_async(f"/api/debates/{code}/events/stream")
    assert not serves_async(f"/api/debates/{code}/events")
    assert not serves_async(f"/debates/{code}/")
    assert not serves_async("/healthz")
    assert not serves_async("/no/such/page")


async def test_a_sign_in_round_trip_survives_the_wsgi_adaptation(owner):
    """GET the form (CSRF cookie), POST it with a body, follow the session cookie to a
    page that needs it: the whole sync stack, on the pool thread."""
    status, headers, page = await asgi_request("GET", "/accounts/login/")
    assert status == 200
    csrf = cookies_of(headers)["csrftoken"]
    form = f"username={owner.username}&password={PASSWORD}&csrfmiddlewaretoken={csrf}"
    status, headers, _ = await asgi_request(
        "POST", "/accounts/login/", body=form.encode(),
        headers={"content-type": "application/x-www-form-urlencoded",
                 "content-length": str(len(form)), "cookie": f"csrftoken={csrf}"})
    assert status == 302, "the login form did not accept its own CSRF token and body"
    session = cookies_of(headers)["sessionid"]
    status, _, page = await asgi_request("GET", "/debates/",
                                         headers={"cookie": f"sessionid={session}"})
    assert status == 200
    assert owner.username.encode() in page


async def test_a_chunked_body_is_read_in_full(team, owner):
    """No Content-Length (Transfer-Encoding: chunked): WSGI would see an empty body, so
    such a request goes through the ASGI handler, which reads it whatever its framing."""
    _, secret = await sync_to_async(api_token_create)(user=owner, name="chunked")
    body = json.dumps({"name": "Chunked", "description": "sent without a length"}).encode()
    status, _, content = await asgi_request(
        "POST", "/api/personas/libraries", body=body,
        headers={"authorization": f"Bearer {secret}", "content-type": "application/json",
                 "transfer-encoding": "chunked"})
    assert status == 201, content[:500]
    assert json.loads(content)["name"] == "Chunked"


async def test_unknown_pages_get_the_sites_404():
    status, _, page = await asgi_request("GET", "/no/such/page")
    assert status == 404
    assert b"<html" in page.lower()


def test_sync_views_go_through_wsgi_and_async_views_through_asgi(team, owner):
    """Which Django handler served each request (its class sends request_started)."""
    from asgiref.sync import async_to_sync
    from django.core.handlers.asgi import ASGIHandler
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_started

    debate = make_debate(team, owner)
    client = Client()
    client.force_login(owner)
    session = client.cookies["sessionid"].value
    _, secret = api_token_create(user=owner, name="dispatch")
    handlers: list[type] = []

    def record(sender: type, **kwargs: Any) -> None:
        handlers.append(sender)

    async def page_then_poll() -> tuple[int, int, bytes]:
        page, _, _ = await asgi_request("GET", f"/debates/{debate.code}/",
                                        headers={"cookie": f"sessionid={session}"})
        polled, _, body = await asgi_request(
            "GET", f"/api/debates/{debate.code}/events/wait", query="after=0&timeout=0",
            headers={"authorization": f"Bearer {secret}"})
        return page, polled, body

    request_started.connect(record)
    try:
        page, polled, body = async_to_sync(page_then_poll)()
    finally:
        request_started.disconnect(record)
    assert page == 200
    assert polled == 200 and "active" in json.loads(body)
    assert [issubclass(h, WSGIHandler) for h in handlers] == [True, False]
    assert issubclass(handlers[1], ASGIHandler)


def test_pool_threads_keep_their_connection_and_per_request_threads_close_theirs(
        team, owner):
    """Five pages in a row reuse the pool thread's connection (a new one per request cost
    1.3 ms on SQLite); the ASGI handler's thread, one per request, closes its own."""
    from asgiref.sync import async_to_sync
    from django.db.backends.signals import connection_created

    debate = make_debate(team, owner)
    client = Client()
    client.force_login(owner)
    session = client.cookies["sessionid"].value
    _, secret = api_token_create(user=owner, name="connections")
    created: list[tuple[bool, Any]] = []

    def record(sender: type, connection: Any, **kwargs: Any) -> None:
        created.append((threading.current_thread().name.startswith("WSGI"), connection))

    async def pages_then_poll() -> list[int]:
        statuses = []
        for _ in range(5):
            status, _, _ = await asgi_request("GET", f"/debates/{debate.code}/",
                                              headers={"cookie": f"sessionid={session}"})
            statuses.append(status)
        status, _, _ = await asgi_request(
            "GET", f"/api/debates/{debate.code}/events/wait", query="after=0&timeout=0",
            headers={"authorization": f"Bearer {secret}"})
        return statuses + [status]

    connection_created.connect(record)
    try:
        assert async_to_sync(pages_then_poll)() == [200] * 6
    finally:
        connection_created.disconnect(record)
    pooled = [c for in_pool, c in created if in_pool]
    per_request = [c for in_pool, c in created if not in_pool]
    assert len(pooled) < 5 and all(c.connection is not None for c in pooled)
    assert per_request and all(c.connection is None for c in per_request)
