"""HTTP under ASGI: sync views run the whole Django stack on one pool thread.

Django's ASGI handler runs every sync middleware hook, the view and the request
signals each in its own thread switch: about fifteen per request here, each waiting for
the GIL under load, and a fresh thread (so a fresh database connection) per request.
A sync view gains nothing from the event loop, so its request goes through Django's
WSGI handler on a small thread pool (a2wsgi): one switch. Views that are coroutines
(the API's event long-poll and stream, which wait for minutes) keep the ASGI handler,
where waiting costs no thread.

Django's ASGI handler gives every request a thread of its own for its sync parts
(middleware, authentication, ORM calls), and that thread keeps its database connection
until the response ends: for a stream, thirty minutes. So a coroutine view's request is
handled without that per-request context: its sync parts run on the process's one
shared thread for sync code, the thread the websocket consumers' database calls already
use. A thousand waiting clients then hold no thread and no connection of their own; the
process holds one connection for all of them (docs/performance.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.asgi_typing import HTTPScope, Receive, Send
from asgiref.sync import iscoroutinefunction
from django.db.backends.signals import connection_created
from django.urls import Resolver404, resolve

# Requests of sync views served at once per process. More only contend for the GIL (the
# tail grew with 8); fewer let one slow export hold up every page of this process.
SYNC_THREADS = 4

def _chunked(scope: HTTPScope) -> bool:
    """A body sent without a length: WSGI (and so Django's WSGI request) would read it
    as empty, where Django's ASGI handler reads the body whatever its framing."""
    return any(name == b"transfer-encoding" for name, _ in scope.get("headers", ()))


def serves_async(path: str) -> bool:
    """Whether the view behind ``path`` is a coroutine function (unknown paths: no, the
    404 page is a sync view)."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


_this_thread = threading.local()


def _keep_pool_connections(sender: Any, connection: Any, **kwargs: Any) -> None:
    """A pool thread keeps its database connection from request to request (health
    checked at each request's first use, as Django does for any kept connection): it
    lives as long as the process, and a new connection per request cost 1.3 ms on
    SQLite (schema parsed, cache cold) and 3 ms on PostgreSQL. Every other thread keeps
    ``CONN_MAX_AGE``: the ASGI handler's are one per request."""
    if getattr(_this_thread, "in_pool", False):
        connection.close_at = None


connection_created.connect(_keep_pool_connections, dispatch_uid="council-pool-connections")


def _on_pool(wsgi: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        _this_thread.in_pool = True
        return wsgi(environ, start_response)
    return serve


class SyncViewsOnThreads:
    """The ASGI HTTP application: sync views through ``wsgi`` on a thread pool, async
    views (and bodies of unknown length) through ``asgi``."""

    def __init__(self, *, asgi: Any, wsgi: Any, threads: int = SYNC_THREADS) -> None:
        self.asgi = asgi
        self.wsgi = WSGIMiddleware(_on_pool(wsgi), workers=threads)

    async def __call__(self, scope: HTTPScope, receive: Receive, send: Send) -> None:
        path = scope["path"].removeprefix(scope.get("root_path", ""))
        if serves_async(path):
            # ``handle`` is ``__call__`` without its per-request ThreadSensitiveContext.
            await self.asgi.handle(scope, receive, send)
        elif _chunked(scope):
            await self.asgi(scope, receive, send)
        else:
            await self.wsgi(scope, receive, send)
