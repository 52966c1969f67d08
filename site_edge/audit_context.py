"""Binds each request's caller, address and user agent for the audit log
(audit.context), so services record who did what without being handed the request.
The API's token authentication runs later; its token is read off the request when an
event is recorded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from accounts.throttling import client_ip
from audit import context
from site_edge.middleware import EdgeMiddleware


class AuditContextMiddleware(EdgeMiddleware):
    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        with context.bind(request, ip=client_ip(request)):
            return self.get_response(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        with context.bind(request, ip=client_ip(request)):
            return await get_response(request)
