"""A URL or headers over 16 KiB get an HTTP answer from the served site: 414 or 431 in
the API's error shape under /api/, text elsewhere. Twisted (daphne's HTTP server) used
to close the connection without one (issue 27); it now reads such a request whole (its
limits raised through its public attributes) and ``site_edge.http_limits.RequestLimits``
answers it (issue 38). Against ``manage.py serve`` itself."""

from __future__ import annotations

import json
import socket

import pytest

from tests.served_site import served_site

BIG = 17 * 1024


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("limits")) as served:
        yield served


def _answer(conn: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Reads one answer: its head, then as many bytes of body as it says (the request
    was read whole, so the connection may stay open)."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = conn.recv(65536)
        assert chunk, "the connection closed without an answer"
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.title(): value for name, value in
               (line.split(": ", 1) for line in lines[1:])}
    while len(body) < int(headers["Content-Length"]):
        chunk = conn.recv(65536)
        assert chunk, "the connection closed before the end of the answer"
        body += chunk
    return int(lines[0].split()[1]), headers, body


def _exchange(site, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Sends ``request`` raw on a connection of its own and reads the answer."""
    with socket.create_connection(("127.0.0.1", site.port), timeout=60) as conn:
        conn.sendall(request)
        return _answer(conn)


def _get(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *headers, "", ""]
    return "\r\n".join(lines).encode()


@pytest.mark.parametrize(("request_bytes", "status", "code"), [
    (_get("/api/debates/?q=" + "a" * BIG), 414, "uri_too_long"),
    (_get("/api/health", "X-Big: " + "b" * BIG), 431, "headers_too_large"),
    (_get("/api/health", *(f"X-Part-{i}: " + "c" * 1000 for i in range(20))), 431,
     "headers_too_large"),
], ids=["url", "one header", "all headers"])
def test_an_oversized_api_request_answers_in_the_error_shape(site, request_bytes, status,
                                                             code):
    got, headers, body = _exchange(site, request_bytes)
    assert got == status
    assert headers["Content-Type"] == "application/json"
    payload = json.loads(body)
    assert payload["code"] == code and "16 KiB" in payload["message"]
    assert set(payload) == {"code", "message", "errors", "detail"}


def test_an_oversized_page_url_answers_414_in_text(site):
    status, headers, body = _exchange(site, _get("/debates/?q=" + "a" * BIG))
    assert status == 414
    assert headers["Content-Type"].startswith("text/plain")
    assert b"longer than 16 KiB" in body


def test_a_request_within_the_limits_is_served(site):
    status, _, body = _exchange(site, _get("/api/health?x=" + "a" * 8000,
                                           "X-Fine: " + "d" * 4000, "Connection: close"))
    assert status == 200, body
    assert json.loads(body)["status"] == "ok"


def test_the_connection_serves_the_next_request_after_a_refusal(site):
    with socket.create_connection(("127.0.0.1", site.port), timeout=60) as conn:
        conn.sendall(_get("/api/health", "X-Big: " + "b" * BIG))
        assert _answer(conn)[0] == 431
        conn.sendall(_get("/api/health", "Connection: close"))
        status, _, body = _answer(conn)
    assert status == 200 and json.loads(body)["status"] == "ok"
