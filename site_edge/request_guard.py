"""Refusals at the edge, before any view, form or database query sees the request:

* **NUL in the path or the query string** (a parameter's name or value). PostgreSQL
  text cannot hold NUL, so a lookup with it raises instead of finding nothing (a 500,
  even for anonymous callers); SQLite would quietly find nothing. A path answers 404
  (nothing has such a name), a query 400 ``invalid_characters`` naming the parameters.
  NUL is the only character at stake: Django decodes the path and the query as UTF-8
  and keeps (path) or replaces (query) invalid bytes, so no surrogate gets through.
* **NUL in an uploaded file's name** (multipart): 400, as the API refuses a NUL in
  any string of a body. Django's parser would drop the character silently (it keeps
  only printable ones), so a form took the name the API refused (issue 39).
* **A body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``**, by its Content-Length: 413
  ``too_large``, where Django's ``RequestDataTooBig`` would surface inside the view as
  a 500 (API) or a 400 (pages). Multipart bodies are left to Django: their files do not
  count against that limit, their fields still do.

Under /api/ the answer has the API's error body; elsewhere it is Django's 404 and 400
pages, and a short text 413. Sync and async (``EdgeMiddleware``), so async views stay on the
event loop.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.utils.datastructures import ImmutableList

from api_kit.errors import error_body
from site_edge.api_middleware import API_PREFIX
from site_edge.middleware import EdgeMiddleware

NUL = "\x00"


def too_large_message() -> str:
    return (f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} "
            "bytes, the most this site accepts.")


def _body_too_large(request: HttpRequest) -> bool:
    if request.content_type == "multipart/form-data":
        return False
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False  # Django refuses a malformed length itself when the body is read
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit is not None and length > limit


class NulInFileName(MultiPartParserError):
    """Django answers a MultiPartParserError with a 400, wherever the body is first read
    (the CSRF check reads it before any view)."""


class _FileNameGuard(MultiPartParser):
    def sanitize_file_name(self, file_name: str) -> str | None:
        if NUL in file_name:
            raise NulInFileName("NUL characters are not allowed in a file name.")
        return super().sanitize_file_name(file_name)


def _guard_file_names(request: HttpRequest) -> None:
    """Parse this request's multipart body with ``_FileNameGuard`` (as HttpRequest.
    parse_file_upload does with Django's parser)."""

    def parse_file_upload(meta: Any, post_data: Any) -> Any:
        request.upload_handlers = ImmutableList(
            request.upload_handlers,
            warning="You cannot alter upload handlers after the upload has been processed.")
        return _FileNameGuard(meta, post_data, request.upload_handlers,
                              request.encoding).parse()

    request.parse_file_upload = parse_file_upload  # type: ignore[method-assign, assignment]


def _refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer for a request no view should see, or None to let it through."""
    api = request.path.startswith(API_PREFIX)
    if NUL in request.path:
        if api:
            return JsonResponse(error_body(404, "Not found: the path holds a NUL character."),
                                status=404)
        raise Http404("The path holds a NUL character.")
    fields = [key for key, values in request.GET.lists()
              if NUL in key or any(NUL in value for value in values)]
    if fields:
        if api:
            errors = {field: ["NUL characters are not allowed."] for field in fields}
            message = f"NUL characters are not allowed (in {', '.join(fields)})"
            return JsonResponse(error_body(400, message, errors, "invalid_characters"),
                                status=400)
        raise BadRequest("NUL characters are not allowed in the query string.")
    if _body_too_large(request):
        if api:
            return JsonResponse(error_body(413, too_large_message()), status=413)
        return HttpResponse(too_large_message(), status=413,
                            content_type="text/plain; charset=utf-8")
    return None


class RequestGuardMiddleware(EdgeMiddleware):
    def before(self, request: HttpRequest) -> HttpResponse | None:
        if request.content_type == "multipart/form-data":
            _guard_file_names(request)
        return _refusal(request)
