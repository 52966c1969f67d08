"""The one error body for refusals that never reach the API's exception handlers: a
path under /api/ that matches no route (Django's HTML 404) and a method a route does
not take (ninja's plain-text 405). Both become the ``ApiError`` JSON.

Sync and async (``EdgeMiddleware``), so the async event views (long-poll, SSE) keep
running on the event loop: one sync-only middleware would put every async view on a
thread.
"""

from __future__ import annotations

from http import HTTPStatus

from django.http import HttpRequest, HttpResponse, JsonResponse

from api_kit.errors import error_body
from site_edge.middleware import EdgeMiddleware

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


class ApiErrorBodyMiddleware(EdgeMiddleware):
    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        return _as_api_error(request, response)
