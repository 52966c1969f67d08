"""One HTTP POST of a webhook, bounded: connecting and reading together stop at the
timeout (a watchdog closes the socket, so a receiver that drips bytes cannot hold the
worker), at most ``max_bytes`` of the answer are read, and redirects are not followed
(a 3xx is a failed attempt). The connection goes to an address that ``addresses``
checked, never to a second lookup of the name (docs/integrations.md, "Webhooks")."""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from webhooks.addresses import Target

HEAD_CHARS = 1000  # of the answer, kept in the delivery log


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no HTTP answer (refused, timed out, ...)
    head: str
    duration_ms: int
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and not self.error


def _connect_any(addresses: tuple[str, ...], port: int, timeout: float | None
                 ) -> socket.socket:
    """The first of the checked addresses that accepts (a dual-stack name may list an
    IPv6 address first that an IPv4-only worker cannot reach)."""
    last: OSError = OSError("no address to connect to")
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout)
        except OSError as exc:
            last = exc
    raise last


class _Pinned(http.client.HTTPConnection):
    """HTTP to a checked address while the Host header names the URL's host."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.addresses = target.addresses
        self.cut = False

    def connect(self) -> None:
        self.sock = _connect_any(self.addresses, self.port, self.timeout)
        _check_not_cut(self)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to a checked address, the certificate checked against the URL's host name."""

    def __init__(self, target: Target, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(target.host, target.port, timeout=timeout, context=self.tls)
        self.addresses = target.addresses
        self.cut = False

    def connect(self) -> None:
        self.sock = _connect_any(self.addresses, self.port, self.timeout)
        _check_not_cut(self)
        self.sock = self.tls.wrap_socket(self.sock, server_hostname=self.host)
        _check_not_cut(self)


def _check_not_cut(connection: _Pinned | _PinnedTLS) -> None:
    """After the socket is set: the watchdog may have fired while it was not yet (and
    found nothing to close), so the deadline holds however the two interleave."""
    if connection.cut:
        raise TimeoutError("timed out")


def _cut(connection: _Pinned | _PinnedTLS) -> None:
    connection.cut = True
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _exchange(connection: http.client.HTTPConnection, target: Target, body: bytes,
              headers: dict[str, str], max_bytes: int) -> tuple[int, bytes]:
    connection.request("POST", target.path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.read(max_bytes)


def post(target: Target, body: bytes, headers: dict[str, str], *, timeout: float,
         max_bytes: int) -> Answer:
    """POSTs ``body`` to the first of the target's checked addresses that accepts."""
    started = time.monotonic()
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    connection = kind(target, timeout)
    watchdog = threading.Timer(timeout, _cut, args=(connection,))
    watchdog.daemon = True
    watchdog.start()
    try:
        status, data = _exchange(connection, target, body, headers, max_bytes)
    except (OSError, http.client.HTTPException) as exc:
        elapsed = time.monotonic() - started
        why = ("timed out" if isinstance(exc, TimeoutError) or elapsed >= timeout
               else f"{type(exc).__name__}: {exc}".strip())
        return Answer(None, "", int(elapsed * 1000), why[:300])
    finally:
        watchdog.cancel()
        connection.close()
    elapsed = int((time.monotonic() - started) * 1000)
    return Answer(status, data[:HEAD_CHARS * 4].decode("utf-8", "replace")[:HEAD_CHARS], elapsed)
