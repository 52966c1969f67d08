"""The one error body for refusals that never reach the API's exception handlers: a
path under /api/ that matches no route (Django's HTML 404) and a method a route does
not take (ninja's plain-text 405). Both become the ``ApiError`` JSON.

Sync and async, so the async event views (long-poll, SSE) keep running on the event
loop: one sync-only middleware would put every async view on a thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse, JsonResponse

from council_site.api_errors import error_body

API_PREFIX = "/api/"


def _as_api_error(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if (not request.path.startswith(API_PREFIX) or response.status_code < 400
            or response.streaming
            or response.get("Content-Type", "").startswith("application/json")):
        return response
    status = response.status_code
    if status == 405:
        message = f"{request.method} is not allowed here (allowed: {response.get('Allow', '')})."
    elif status == 404:
        message = "No such API route; see /api/docs."
    else:
        try:
            message = f"{HTTPStatus(status).phrase}."
        except ValueError:  # a non-standard status
            message = "Error."
    replacement = JsonResponse(error_body(status, message), status=status)
    if "Allow" in response:
        replacement["Allow"] = response["Allow"]
    return replacement


class ApiErrorBodyMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        return _as_api_error(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        return _as_api_error(request, await get_response(request))
