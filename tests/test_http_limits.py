"""``site_edge.http_limits.RequestLimits`` on its own (the served site's answers are in
tests/test_served_request_limits.py): the limits to the byte, the answers' shapes, a
websocket handshake and the scopes it leaves alone; and the Twisted limits
``site_edge.serve_http`` sets, above the site's own so that its answers are reached."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from site_edge.http_limits import LIMIT, SERVER_READS, RequestLimits


def _call(scope: dict) -> tuple[list[dict], bool]:
    """The messages the middleware sent, and whether the app behind it was called."""
    sent: list[dict] = []
    reached = []

    async def app(scope, receive, send):
        reached.append(scope)

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    asyncio.run(RequestLimits(app)(scope, receive, send))
    return sent, bool(reached)


def _http(path: str = "/api/health", query: bytes = b"", headers=()) -> dict:
    return {"type": "http", "path": path, "raw_path": path.encode(), "query_string": query,
            "headers": list(headers)}


@pytest.mark.parametrize(("scope", "status"), [
    (_http(query=b"q=" + b"a" * (LIMIT - len("/api/health?q="))), None),
    (_http(query=b"q=" + b"a" * (LIMIT - len("/api/health?q=") + 1)), 414),
    (_http(headers=[(b"x-big", b"b" * (LIMIT - len("x-big: ")))]), None),
    (_http(headers=[(b"x-big", b"b" * (LIMIT - len("x-big: ") + 1))]), 431),
    (_http(headers=[(b"x-part-%d" % i, b"c" * 1000) for i in range(17)]), 431),
], ids=["url at the limit", "url a byte over", "header at the limit", "header a byte over",
        "headers together"])
def test_the_limits_hold_to_the_byte(scope, status):
    sent, reached = _call(scope)
    assert reached == (status is None)
    if status is not None:
        assert sent[0]["status"] == status


def test_the_api_answers_in_its_error_shape_and_pages_in_text():
    big = b"q=" + b"a" * LIMIT
    sent, _ = _call(_http("/api/debates/", big))
    headers = dict(sent[0]["headers"])
    assert headers[b"content-type"] == b"application/json"
    body = json.loads(sent[1]["body"])
    assert body["code"] == "uri_too_long" and "16 KiB" in body["message"]
    assert int(headers[b"content-length"]) == len(sent[1]["body"])
    sent, _ = _call(_http("/debates/", big))
    assert dict(sent[0]["headers"])[b"content-type"].startswith(b"text/plain")
    assert b"longer than 16 KiB" in sent[1]["body"]


def test_an_oversized_websocket_handshake_is_refused_and_other_scopes_pass():
    scope = {**_http("/ws/debates/x/", b"t=" + b"a" * LIMIT), "type": "websocket"}
    assert _call(scope) == ([{"type": "websocket.close"}], False)
    assert _call({"type": "lifespan"}) == ([], True)


def test_the_server_reads_more_than_the_site_answers_for():
    """In a process of its own: importing daphne's server installs its reactor."""
    script = ("from site_edge.serve_http import read_limits; read_limits(); "
              "from twisted.web.http import HTTPChannel; "
              "print(HTTPChannel.MAX_LENGTH, HTTPChannel.totalHeadersSize)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=120).stdout.split()
    assert [int(n) for n in out] == [SERVER_READS, SERVER_READS]
    assert SERVER_READS > LIMIT
