"""The one error body of the JSON API, for routers to declare and return.

``council_site.api`` turns every exception into this shape; routes that refuse a
request themselves return ``refuse(...)`` so their declared responses (and the OpenAPI
docs) name the same schema. Kept apart from ``council_site.api``, which imports every
router, so that routers can import it without a cycle.
"""

from __future__ import annotations

from typing import Any

from ninja import Schema, Status
from pydantic import Field

ERROR_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "too_large", 414: "uri_too_long",
    422: "validation_error", 429: "rate_limited", 431: "headers_too_large",
    500: "server_error",
}


class ApiError(Schema):
    """Every 4xx/5xx answer of the API."""

    code: str = Field(description="Stable, machine-readable: not_found, validation_error, ...")
    message: str = Field(description="For people.")
    errors: dict[str, list[str]] = Field(
        description="Problems by field (dotted path in the body or query); may be empty.")
    detail: str = Field(description="Repeats message (for clients older than this shape).")
    retry_after: int | None = Field(
        None, exclude_if=lambda value: value is None,
        description="Seconds to wait before the same request may succeed (429, and a 409 "
                    "while a request with the same Idempotency-Key is answered); the "
                    "Retry-After header says the same. Absent otherwise.")


def error_body(status: int, message: str, errors: dict[str, list[str]] | None = None,
               code: str | None = None, retry_after: int | None = None) -> dict[str, Any]:
    code = code or ERROR_CODES.get(status, "client_error" if status < 500 else "server_error")
    body: dict[str, Any] = {"code": code, "message": message, "errors": errors or {},
                            "detail": message}
    if retry_after is not None:
        body["retry_after"] = retry_after
    return body


def refuse(status: int, message: str, errors: dict[str, list[str]] | None = None,
           code: str | None = None) -> Status[Any]:
    """A route's own refusal, in the one shape."""
    return Status(status, error_body(status, message, errors, code))


def refuse_input(exc: Exception, status: int = 400, code: str | None = None,
                 prefix: str = "") -> Status[Any]:
    """The refusal of bad input, its field named in ``errors`` when the error says which
    (its ``field``: an ``InputError``'s, a ``PersonaError``'s, ...): a script sees what to
    mend without parsing words. ``prefix`` goes before the message (what did not happen)."""
    problem = str(exc)
    field = getattr(exc, "field", None)
    return refuse(status, prefix + problem, {field: [problem]} if field else None, code)


# What a route that spends model money adds to its OpenAPI entry: the 429 of the
# team's rate limit (council_site.api answers it) and its Retry-After header.
RATE_LIMITED_DOC = {"responses": {"429": {
    "description": "The team's rate limit (debates per hour; one more round counts as "
                   "one): code rate_limited, with Retry-After.",
    "headers": {"Retry-After": {
        "description": "Seconds until the oldest counted action leaves the hour's window.",
        "schema": {"type": "integer"}}}}}}


def errors(*statuses: int) -> dict[int, type[ApiError]]:
    """Declared error responses of a route: ``response={200: Out, **errors(400, 409)}``."""
    return dict.fromkeys(statuses, ApiError)
