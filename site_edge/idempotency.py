"""Retrying a POST safely: the ``Idempotency-Key`` header (docs/api.md, "Retrying
safely").

A client that timed out and sends the same POST again with the same key gets the
first answer (its status, body and ``Location``) with ``Idempotent-Replayed: true``,
and nothing is created twice. The same key with another method, path or body is a
422; while the first request is still being answered, a retry is a 409 with
``retry_after``. Only successful answers are kept: a refusal or a server error
releases the key, so the retry runs again. Keys are kept 24 hours per caller (an API
token, or a signed-in user).

Any POST under /api/ takes the header; routes need nothing of their own. Sync and
async like the other edge middleware: only a POST that carries the header touches the
database, so the async event views stay on the event loop.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.core.exceptions import RequestDataTooBig
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.utils import timezone

from accounts.models import IdempotentRequest
from api_kit.errors import error_body
from site_edge.middleware import EdgeMiddleware

HEADER = "Idempotency-Key"
KEPT = timedelta(hours=24)
MAX_KEY_CHARS = 255
API_PREFIX = "/api/"


def _caller(request: HttpRequest) -> str | None:
    """Who is asking: the API token's digest, else the signed-in user; None for a
    request that will be refused as anonymous anyway."""
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and secret.strip():
        return "token:" + hashlib.sha256(secret.strip().encode()).hexdigest()
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return None


def _fingerprint(request: HttpRequest) -> str:
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    digest.update(request.body)
    return digest.hexdigest()


def _refusal(status: int, message: str, retry_after: int | None = None) -> JsonResponse:
    body = error_body(status, message, {HEADER: [message]}, retry_after=retry_after)
    response = JsonResponse(body, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _replay(kept: IdempotentRequest) -> HttpResponse:
    response = HttpResponse(bytes(kept.body), status=kept.status,
                            content_type=kept.content_type or None)
    if kept.location:
        response["Location"] = kept.location
    response["Idempotent-Replayed"] = "true"
    return response


class _Claim:
    """The key as this request holds it: new (this request answers it) or an earlier
    request's (``answer`` is what to send instead of running the view)."""

    def __init__(self, request: HttpRequest) -> None:
        self.row: IdempotentRequest | None = None
        self.answer: HttpResponse | None = None
        key = request.headers.get(HEADER, "").strip()
        caller = _caller(request)
        if not key or caller is None:
            return
        if len(key) > MAX_KEY_CHARS:
            self.answer = _refusal(400, f"{HEADER} is longer than {MAX_KEY_CHARS} characters.")
            return
        try:
            fingerprint = _fingerprint(request)
        except (RequestDataTooBig, RawPostDataException):
            return  # a body the view refuses anyway: nothing to keep
        IdempotentRequest.objects.filter(
            caller=caller, created_at__lt=timezone.now() - KEPT).delete()  # the caller's old keys
        try:
            with transaction.atomic():
                self.row = IdempotentRequest.objects.create(
                    caller=caller, key=key, fingerprint=fingerprint)
        except IntegrityError:
            earlier = IdempotentRequest.objects.filter(caller=caller, key=key).first()
            self.answer = self._answer_from(earlier, fingerprint)

    @staticmethod
    def _answer_from(earlier: IdempotentRequest | None, fingerprint: str) -> HttpResponse:
        if earlier is None:  # released between our insert and our read: try again
            return _refusal(409, "A request with this key was just answered; send it again.",
                            retry_after=1)
        if earlier.fingerprint != fingerprint:
            return _refusal(422, f"This {HEADER} was used for a different request "
                                 "(method, path or body); use a new key.")
        if earlier.status is None:
            return _refusal(409, "The first request with this key is still being answered.",
                            retry_after=1)
        return _replay(earlier)

    def settle(self, response: HttpResponse) -> None:
        """Keep a successful answer for retries; release the key otherwise."""
        if self.row is None:
            return
        if response.status_code >= 300 or response.streaming:
            self.row.delete()
            return
        self.row.status = response.status_code
        self.row.content_type = response.get("Content-Type", "")
        self.row.location = response.get("Location", "")
        self.row.body = response.content
        self.row.save(update_fields=["status", "content_type", "location", "body"])


def _applies(request: HttpRequest) -> bool:
    return (request.method == "POST" and request.path.startswith(API_PREFIX)
            and HEADER in request.headers)


class IdempotencyMiddleware(EdgeMiddleware):
    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        if not _applies(request):
            return self.get_response(request)
        claim = _Claim(request)
        if claim.answer is not None:
            return claim.answer
        try:
            response = self.get_response(request)
        except BaseException:
            claim.settle(HttpResponse(status=500))
            raise
        claim.settle(response)
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        if not _applies(request):
            return await get_response(request)
        claim = await sync_to_async(_Claim)(request)
        if claim.answer is not None:
            return claim.answer
        try:
            response = await get_response(request)
        except BaseException:
            await sync_to_async(claim.settle)(HttpResponse(status=500))
            raise
        await sync_to_async(claim.settle)(response)
        return response
