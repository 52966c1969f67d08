"""An HTTP answer for requests too large to read, where Twisted (daphne's HTTP server)
only closed the connection.

Twisted reads the request line and each header as a line of at most 16 KiB
(``HTTPChannel.MAX_LENGTH``), and all of them together up to 16 KiB
(``totalHeadersSize``). A longer line used to close the connection without a word; a
larger total, or a malformed line, got a bare ``400`` with no body. Here the client is
told which limit it met, in the API's error shape under /api/ and in plain text
elsewhere:

* **414** ``uri_too_long``: the request line (method, path and query) is over 16 KiB;
* **431** ``headers_too_large``: one header, or all of them, are over 16 KiB;
* **400** ``bad_request``: a line that is not HTTP, or more than 500 headers.

The connection is closed after the answer: the rest of such a request is not read.
``manage.py serve`` starts daphne through ``site_edge.serve_http`` to use this channel
(docs/web.md, "At the edge").
"""

from __future__ import annotations

import json
from typing import Any

from daphne.http_protocol import HTTPFactory
from twisted.web.http import HTTPChannel, _GenericHTTPChannelProtocol

from api_kit.errors import error_body
from site_edge.api_middleware import API_PREFIX

LIMIT_KIB = HTTPChannel.totalHeadersSize // 1024
REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}
MESSAGES = {
    400: "The request is not valid HTTP (a malformed line, or more than "
         f"{HTTPChannel.maxHeaders} headers).",
    414: f"The URL is longer than {LIMIT_KIB} KiB, the most this site reads.",
    431: f"The request headers are larger than {LIMIT_KIB} KiB, the most this site reads.",
}


def _path_of(request_line: bytes) -> bytes:
    parts = request_line.split(b" ", 2)
    return parts[1] if len(parts) > 1 else b""


def refusal(status: int, path: bytes) -> bytes:
    """The whole HTTP/1.1 response for ``status``, its body chosen by ``path``."""
    message = MESSAGES[status]
    if path.startswith(API_PREFIX.encode()):
        body, kind = json.dumps(error_body(status, message)).encode(), b"application/json"
    else:
        body, kind = message.encode() + b"\n", b"text/plain; charset=utf-8"
    head = [b"HTTP/1.1 %d %s" % (status, REASONS[status]), b"Content-Type: " + kind,
            b"Content-Length: %d" % len(body), b"Connection: close"]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class LimitedHTTPChannel(HTTPChannel):
    def _awaiting_request_line(self) -> bool:
        return bool(getattr(self, "_HTTPChannel__first_line", 1))

    def _refuse(self, status: int, path: bytes) -> None:
        transport: Any = self.transport  # Twisted's interface types mislead mypy here
        transport.write(refusal(status, path))
        self.loseConnection()

    def lineLengthExceeded(self, line: bytes) -> None:
        if self._awaiting_request_line():
            self._refuse(414, _path_of(line))
        else:
            self._refuse(431, getattr(self, "_path", b""))

    def _respondToBadRequestAndDisconnect(self) -> None:
        path = getattr(self, "_path", b"")
        if self._receivedHeaderSize > self.totalHeadersSize:
            self._refuse(414 if not path else 431, path)
        else:
            self._refuse(400, path)


class LimitedHTTPFactory(HTTPFactory):
    """daphne's factory, building ``LimitedHTTPChannel`` instead of Twisted's own."""

    def protocol(self) -> Any:  # the factory calls it like a class: one per connection
        return _GenericHTTPChannelProtocol(LimitedHTTPChannel())
