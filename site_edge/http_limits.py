"""An HTTP answer for a request larger than this site reads (docs/web.md, "API
errors"), in the API's error shape under /api/ and in plain text elsewhere:

* **414** ``uri_too_long``: the URL (path and query) is over 16 KiB;
* **431** ``headers_too_large``: one header, or all of them together, are over 16 KiB.

Through public interfaces only, in two parts:

* ``RequestLimits``, ASGI middleware around the whole application
  (council_site/asgi.py), measures the request as the server hands it over and
  answers before Django sees it; a websocket handshake that large is refused (the
  server answers 403). Any ASGI server gets the same answers.
* The server must hand such a request over rather than refuse it first. Twisted
  (daphne's HTTP server) reads at most ``HTTPChannel.MAX_LENGTH`` bytes a line and
  ``HTTPChannel.totalHeadersSize`` bytes of request line and headers together, both
  16 KiB by default and both documented attributes of Twisted's channel, which daphne
  has no option for. ``site_edge.serve_http`` (how ``manage.py serve`` starts daphne)
  sets both to ``SERVER_READS``, 64 KiB, before daphne starts. Past that Twisted
  answers itself, before any hook of ours can: a longer line closes the connection
  without an answer, a larger total is a bare ``400 Bad Request``, as is a line that
  is not HTTP or more than ``HTTPChannel.maxHeaders`` (500) headers.

The request has been read whole by then, so the connection stays open for the next one.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from api_kit.errors import error_body
from site_edge.api_middleware import API_PREFIX

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LIMIT = 16 * 1024  # the most this site reads of a URL, and of the headers
# What the HTTP server itself reads (site_edge.serve_http): more than LIMIT, so that
# a request between the two reaches RequestLimits and gets its answer.
SERVER_READS = 64 * 1024
MESSAGES = {
    414: f"The URL is longer than {LIMIT // 1024} KiB, the most this site reads.",
    431: f"The request headers are larger than {LIMIT // 1024} KiB, the most this site "
         "reads.",
}


def _target_length(scope: Scope) -> int:
    """The bytes of the request's target: its path and query as the client sent them."""
    path: bytes = scope.get("raw_path") or scope.get("path", "").encode()
    query: bytes = scope.get("query_string", b"")
    return len(path) + (1 + len(query) if query else 0)


def oversized(scope: Scope) -> int | None:
    """414 or 431 for a request over the limits, else None. A header line counts as
    sent: its name, ": " and its value."""
    if _target_length(scope) > LIMIT:
        return 414
    lines = [len(name) + 2 + len(value) for name, value in scope.get("headers", ())]
    if lines and (max(lines) > LIMIT or sum(lines) > LIMIT):
        return 431
    return None


def refusal(status: int, path: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of the answer for ``status``, chosen by ``path``."""
    message = MESSAGES[status]
    if path.startswith(API_PREFIX):
        body, kind = json.dumps(error_body(status, message)).encode(), b"application/json"
    else:
        body, kind = message.encode() + b"\n", b"text/plain; charset=utf-8"
    return [(b"content-type", kind), (b"content-length", b"%d" % len(body))], body


class RequestLimits:
    """ASGI middleware: a request over the limits gets its answer here; every other
    request (and every other kind of scope) goes on to ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        status = oversized(scope) if scope["type"] in ("http", "websocket") else None
        if status is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close"})  # before accepting: the server's 403
        else:
            headers, body = refusal(status, scope.get("path", ""))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
