"""The JSON API, mounted at /api/. Apps add their routers here.

Every error the API answers has one shape, whichever layer refused the request::

    {"code": "validation_error", "message": "quote_offset: ...",
     "errors": {"quote_offset": ["Input should be less than or equal to ..."]},
     "detail": "quote_offset: ..."}

``code`` is stable and machine-readable, ``message`` is for people, ``errors`` maps a
field (dotted path inside the JSON body or the query) to its problems, and ``detail``
repeats ``message`` for clients written before the shape existed. Exception handlers
below cover what the framework and the services raise; ``CouncilAPI.create_response``
brings the ``{"detail": ...}`` bodies that routes return themselves into the same
shape, so a router never has to know about it. In production an unexpected exception
is logged and answered with a JSON 500, never Django's HTML error page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any, Literal

import pydantic
from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from accounts.api import router as teams_router
from accounts.api_auth import INVALID_TOKEN, NO_CREDENTIALS
from api_kit.errors import ApiError, error_body
from api_kit.timestamps import TimestampRenderer
from audit.reading.api import router as audit_router
from collab.api import router as collab_router
from council_site.locations import location_of
from debates.api import router as debates_router
from debates.engine import InputError
from debates.limits import RateLimited
from decisions.api import debate_router as decision_debate_router
from decisions.api import log_router as decision_log_router
from decisions.api_calibration import calibration_router, outcome_router
from evaluations.api import router as evaluations_router
from personas.api import router as personas_router
from site_edge.request_guard import too_large_message
from sources.api import router as sources_router
from webhooks.api import router as webhooks_router

log = logging.getLogger(__name__)

# Locations ninja puts first in an error's ``loc``; the body's second element is the
# name of the route's payload parameter, which means nothing to a client either.
PARAM_KINDS = {"body", "query", "path", "form", "header", "cookie", "file"}


class NulCharacters(ValueError):
    """PostgreSQL text cannot hold NUL; refused at the edge instead of a DataError."""

    def __init__(self, fields: list[str]) -> None:
        self.fields = fields
        super().__init__(f"NUL characters are not allowed (in {', '.join(fields)})")


NOT_UNICODE = ("Not valid Unicode text: a lone surrogate (an escape \\ud800-\\udfff "
               "without its pair) is not a character.")


class LoneSurrogates(ValueError):
    """A JSON escape such as ``"\\ud800"`` decodes to half a character, which no database
    can store (the INSERT raised UnicodeEncodeError, a 500) and no page can print.
    Refused for every string of every body alike, as a field error (422)."""

    def __init__(self, fields: list[str]) -> None:
        self.fields = fields
        super().__init__(f"{fields[0]}: {NOT_UNICODE}")


def _has_nul(text: str) -> bool:
    return "\x00" in text


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _paths_where(value: object, bad: Callable[[str], bool], path: str = "") -> Iterator[str]:
    """The dotted path of every string (key or value) in a parsed body that is ``bad``."""
    if isinstance(value, str):
        if bad(value):
            yield path or "(body)"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _paths_where(key, bad, path or "(body)")
            yield from _paths_where(item, bad, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths_where(item, bad, f"{path}.{index}" if path else str(index))


class CouncilParser(Parser):
    """The JSON parser, refusing NUL characters and lone surrogates in any string of a
    body. The query, the path and form fields never hold either: ``site_edge.
    request_guard`` refuses NUL there, and Django decodes them as UTF-8 with invalid
    bytes replaced, which leaves no surrogate."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data = super().parse_body(request)
        # ninja turns any parser exception into HttpError(400) "Cannot parse request
        # body" with this one as its __cause__; http_error below reads it.
        if fields := list(_paths_where(data, _has_nul)):
            raise NulCharacters(fields)
        if fields := list(_paths_where(data, _has_lone_surrogate)):
            raise LoneSurrogates(fields)
        return data


class CouncilAPI(NinjaAPI):
    def create_response(self, request: HttpRequest, data: Any, *, status: int | None = None,
                        temporal_response: HttpResponse | None = None) -> HttpResponse:
        code = temporal_response.status_code if temporal_response else status
        if (code is not None and code >= 400 and isinstance(data, dict)
                and "detail" in data and "message" not in data):
            data = error_body(code, str(data["detail"]), data.get("errors"))
        response = super().create_response(request, data, status=status,
                                           temporal_response=temporal_response)
        if response.status_code == 201 and "Location" not in response:
            if location := location_of(request, data):
                response["Location"] = location
        return response

    def get_openapi_schema(self, *, path_prefix: str | None = None,
                           path_params: dict[str, Any] | None = None) -> Any:
        """ninja's schema, plus the refusals every route can answer (the exception
        handlers below give them), all with the ``ApiError`` body."""
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        schema.setdefault("components", {}).setdefault("schemas", {}).setdefault(
            "ApiError", ApiError.model_json_schema(ref_template="#/components/schemas/{model}"))
        for path, operations in schema["paths"].items():
            for operation in operations.values():
                operation["responses"] = _with_common_errors(path, operation)
        return schema


ERROR_REF = {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
COMMON_ERRORS = {
    "401": "No valid API token or session.",
    "403": "Your role in the team does not allow this (viewers only read), your API "
           "token is read-only, or you are in no team.",
    "404": "No such object in your teams (the same answer whether it exists elsewhere "
           "or not at all), or X-Council-Team names no team of yours.",
    "422": "A parameter or body field is invalid (see `errors`).",
    "400": "A body that is not JSON, or text with NUL characters.",
    "413": f"The body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes.",
    "500": "A server error (logged).",
}


def _with_common_errors(path: str, operation: dict[str, Any]) -> dict[str, Any]:
    """The operation's responses keyed by string status (ninja mixes ints with the
    strings of ``openapi_extra``, which gave duplicate keys in the JSON), each error
    with the ApiError body, plus the refusals the route can meet on its way in."""
    responses: dict[str, Any] = {}
    for status, response in operation["responses"].items():
        merged = {**responses.get(str(status), {}), **response}
        if str(status) in responses and "content" in response:
            merged["content"] = response["content"]  # openapi_extra's real content type
        responses[str(status)] = merged
    wanted = {"500"}
    if operation.get("requestBody"):
        wanted.add("413")
    if operation.get("security"):
        wanted |= {"401", "403"}
    if "{" in path:
        wanted.add("404")
    # Path parameters are matched by URL converters (a malformed code is a 404);
    # bodies and query parameters are validated (422) and parsed (400).
    if operation.get("requestBody") or any(
            p.get("in") != "path" for p in operation.get("parameters", [])):
        wanted |= {"400", "422"}
    for status in sorted(wanted):
        responses.setdefault(status, {"description": COMMON_ERRORS[status]})
    for status, response in responses.items():
        if int(status) >= 400:
            response.setdefault("content", ERROR_REF)
    return dict(sorted(responses.items()))


api = CouncilAPI(
    title="Council API", version="1", urls_namespace="api", parser=CouncilParser(),
    renderer=TimestampRenderer(),
    # Swagger UI from the static files ninja ships ("ninja" is in INSTALLED_APPS), not
    # from a CDN: the docs work offline and no third-party script runs on our origin.
    docs=Swagger(),
)


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in PARAM_KINDS:
        kind, parts = parts[0], parts[1:]
        if kind == "body" and len(parts) > 1:
            parts = parts[1:]
    return ".".join(parts) or "(body)"


def _by_field(problems: list[dict[str, Any]]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for problem in problems:
        errors.setdefault(_field(problem.get("loc", ())), []).append(str(problem.get("msg")))
    return errors


def _first(errors: dict[str, list[str]], fallback: str) -> str:
    for field, messages in errors.items():
        return f"{field}: {messages[0]}"
    return fallback


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """Parameters that do not match the route's schema (ninja validates them)."""
    errors = _by_field(list(exc.errors))
    return api.create_response(
        request, error_body(422, _first(errors, "Invalid input."), errors), status=422)


@api.exception_handler(pydantic.ValidationError)
def model_validation_error(request: HttpRequest, exc: pydantic.ValidationError) -> HttpResponse:
    """A model validated inside a route (a persona, a config) refused the input."""
    errors = _by_field([dict(e) for e in exc.errors()])
    return api.create_response(
        request, error_body(422, _first(errors, "Invalid input."), errors), status=422)


@api.exception_handler(NulCharacters)
def nul_characters(request: HttpRequest, exc: NulCharacters) -> HttpResponse:
    errors = {field: ["NUL characters are not allowed."] for field in exc.fields}
    return api.create_response(request, error_body(400, str(exc), errors, "invalid_characters"),
                               status=400)


@api.exception_handler(LoneSurrogates)
def lone_surrogates(request: HttpRequest, exc: LoneSurrogates) -> HttpResponse:
    errors = {field: [NOT_UNICODE] for field in exc.fields}
    return api.create_response(request, error_body(422, str(exc), errors), status=422)


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    """ninja's own refusals: 401 without a session, 429, an unparseable body ..."""
    if isinstance(exc.__cause__, NulCharacters):
        return nul_characters(request, exc.__cause__)
    if isinstance(exc.__cause__, LoneSurrogates):
        return lone_surrogates(request, exc.__cause__)
    message, code = str(exc), None
    if exc.status_code == 400 and message.startswith("Cannot parse request body"):
        message, code = "The request body is not valid JSON.", "invalid_json"
    if isinstance(exc, AuthenticationError) and message == "Unauthorized":
        message = NO_CREDENTIALS
    wait = getattr(exc, "wait", None)
    response = api.create_response(
        request, error_body(exc.status_code, message, code=code,
                            retry_after=int(wait) if wait else None),
        status=exc.status_code)
    if exc.status_code == 401:
        # RFC 6750: say which scheme to use, and that a token sent was refused.
        response["WWW-Authenticate"] = (
            'Bearer error="invalid_token"' if message == INVALID_TOKEN else "Bearer")
    if wait:
        response["Retry-After"] = str(int(wait))
    return response


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    # Access helpers raise Http404 for outsiders too; the message never says more than
    # "not found" (it is the helper's own text, not the caller's input).
    return api.create_response(request, error_body(404, str(exc) or "Not found."), status=404)


@api.exception_handler(PermissionDenied)
def permission_denied(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    """Access helpers raise PermissionDenied (a viewer writing); answer 403 in JSON."""
    return api.create_response(request, error_body(403, str(exc) or "Forbidden"), status=403)


@api.exception_handler(RequestDataTooBig)
def too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    """A body over the limit that ``request_guard`` could not see coming (no
    Content-Length, or multipart fields): 413 rather than a 500."""
    return api.create_response(request, error_body(413, too_large_message()), status=413)


@api.exception_handler(RateLimited)
def rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    """The team's rate limit (debates.limits): routes that spend let it through to here,
    so every one answers it alike, with when to try again."""
    response = api.create_response(
        request, error_body(429, str(exc), retry_after=exc.retry_after_s), status=429)
    response["Retry-After"] = str(exc.retry_after_s)
    return response


@api.exception_handler(InputError)
def input_error(request: HttpRequest, exc: InputError) -> HttpResponse:
    errors = {exc.field: [str(exc)]} if exc.field else None
    return api.create_response(request, error_body(400, str(exc), errors, code="invalid_input"),
                               status=400)


@api.exception_handler(Exception)
def server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """In development Django's debug page helps more; in production the client gets
    JSON and the traceback goes to the log, never to the client."""
    if settings.DEBUG:
        raise exc
    log.exception("API error on %s %s", request.method, request.path)
    return api.create_response(
        request, error_body(500, "Something went wrong on our side; it has been logged."),
        status=500)


class HealthOut(Schema):
    status: Literal["ok"]
    database: str
    broker: Literal["orm", "redis"]
    model: str


@api.get("/health", response=HealthOut, auth=None, tags=["health"])
def health(request: HttpRequest) -> HealthOut:
    """Which configuration this process runs: database vendor, task broker, default model."""
    connection.ensure_connection()
    return HealthOut(
        status="ok",
        database=connection.vendor,
        broker=settings.COUNCIL_BROKER,
        model=settings.COUNCIL_MODEL,
    )


# Routers of the apps, all on this one api so they share its error handlers, parser and
# docs. Comments live under /api/debates/{code}/comments.
api.add_router("/teams", teams_router)
api.add_router("/personas", personas_router)
api.add_router("/sources", sources_router)
api.add_router("/debates", collab_router)
api.add_router("/debates", debates_router)
api.add_router("/debates", decision_debate_router)
api.add_router("/decisions", decision_log_router)
api.add_router("/debates", outcome_router)
api.add_router("/calibration", calibration_router)
api.add_router("/evaluations", evaluations_router)
api.add_router("/webhooks", webhooks_router)
api.add_router("/audit", audit_router)
