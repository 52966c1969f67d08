"""One base for the site's own middleware that is both sync and async.

Django's ``MiddlewareMixin`` is both too, but under ASGI it runs each hook through
``sync_to_async``: a thread hop on every request. Our hooks neither block nor touch
the database, so here they run where the request already is, and the async event
views (long-poll, SSE) stay on the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse


class EdgeMiddleware:
    """Subclasses override ``before`` (a response ends the request there) and/or
    ``after`` (may replace or amend the response)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def before(self, request: HttpRequest) -> HttpResponse | None:
        return None

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        return response

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        return self.before(request) or self.after(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        return self.before(request) or self.after(request, await get_response(request))
