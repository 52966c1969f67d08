"""API requests that stay open (the event long-poll and stream): how many one caller may
keep, and how they keep checking that the caller may still be served.

**The cap.** Each open request holds a slot of its user (``COUNCIL_STREAMS_PER_USER``)
and, when it came with an API token, one of that token (``COUNCIL_STREAMS_PER_TOKEN``);
with none free it is refused 429 with ``Retry-After``. Slots are keys in Django's cache
(Redis when the site is scaled out, so the cap holds across web processes), each taken
with an atomic ``add`` and expiring after ``SLOT_SECONDS`` unless renewed: the slots of a
process that died free themselves.

**The re-check.** Every ``COUNCIL_STREAM_RECHECK_SECONDS`` an open request runs the
checks a new one would: the token (``api_token_is_active``) or the session is still
valid, and the resource's own access helper still lets the user in. The refusal it
returns is the body a new request would get (401, 404 ...), which the long-poll answers
and the stream sends as its last frame.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from ninja import Status
from ninja.errors import HttpError

from accounts.api_auth import INVALID_TOKEN, NO_CREDENTIALS
from accounts.selectors import api_token_is_active
from api_kit.errors import error_body

# A slot not renewed for this long belonged to a process that died; open requests
# renew theirs at every re-check, well within it.
SLOT_SECONDS = 60
# What a refused client is told to wait before trying again: about the time a finished
# stream or long-poll of theirs takes to hand its slot back.
RETRY_AFTER_SECONDS = 10


def recheck_seconds() -> float:
    return float(settings.COUNCIL_STREAM_RECHECK_SECONDS)


class TooManyWaits(HttpError):
    """All the caller's slots are taken: 429 with Retry-After (``council_site.api``'s
    handler of ninja errors sets the header from ``wait``)."""

    def __init__(self, whose: str, limit: int) -> None:
        self.wait = RETRY_AFTER_SECONDS
        super().__init__(429, f"At most {limit} event streams and long-polls may be open "
                              f"at once per {whose}; close one or retry later.")


def _take(prefix: str, limit: int, holder: str) -> str | None:
    keys = [f"council:waits:{prefix}:{i}" for i in range(limit)]
    taken = cache.get_many(keys)
    for key in keys:
        # ``add`` writes only a missing key, atomically (SET NX on Redis): two requests
        # racing for the same free slot cannot both get it.
        if key not in taken and cache.add(key, holder, timeout=SLOT_SECONDS):
            return key
    return None


@dataclass
class Slots:
    holder: str = field(default_factory=lambda: uuid.uuid4().hex)
    keys: list[str] = field(default_factory=list)

    def renew(self) -> None:
        for key in self.keys:
            if cache.get(key) == self.holder:
                cache.touch(key, SLOT_SECONDS)
            else:  # expired (a stalled process) and perhaps retaken: take it if free
                cache.add(key, self.holder, timeout=SLOT_SECONDS)

    def release(self) -> None:
        for key in self.keys:
            if cache.get(key) == self.holder:
                cache.delete(key)
        self.keys = []


def slots_take(request: HttpRequest) -> Slots:
    """A slot of the caller's user and of their token, or TooManyWaits."""
    slots = Slots()
    token = getattr(request, "api_token", None)
    wanted = [(f"user:{request.user.pk}", "user", settings.COUNCIL_STREAMS_PER_USER)]
    if token is not None:
        wanted.append((f"token:{token.pk}", "API token", settings.COUNCIL_STREAMS_PER_TOKEN))
    for prefix, whose, limit in wanted:
        key = _take(prefix, limit, slots.holder)
        if key is None:
            slots.release()
            raise TooManyWaits(whose, limit)
        slots.keys.append(key)
    return slots


def session_user_id(session_key: str | None) -> Any:
    """Whom the session ``session_key`` would authenticate now (logged out, password
    changed, user deactivated: nobody), read afresh from the session store. The live
    sockets (debates.live.session) re-check theirs with it too."""
    fresh = HttpRequest()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    fresh.session = store(session_key=session_key)
    return auth.get_user(fresh).pk


def caller_refusal(request: HttpRequest) -> Status[Any] | None:
    """The 401 a new request with the same credentials would get now, or None."""
    token = getattr(request, "api_token", None)
    if token is not None:
        if api_token_is_active(token.pk):
            return None
        return Status(401, error_body(401, INVALID_TOKEN))
    if session_user_id(request.session.session_key) == request.user.pk:
        return None
    return Status(401, error_body(401, NO_CREDENTIALS))


def access_refusal(access: Callable[[], object]) -> Status[Any] | None:
    """What the API answers when an access helper refuses (council_site.api's handlers)."""
    try:
        access()
    except Http404 as exc:
        return Status(404, error_body(404, str(exc) or "Not found."))
    except PermissionDenied as exc:
        return Status(403, error_body(403, str(exc) or "Forbidden"))
    return None


class Watch:
    """An open request's slot and its periodic re-check. ``access`` is the resource's
    access helper, bound to the request's user and the resource."""

    def __init__(self, request: HttpRequest, access: Callable[[], object],
                 slots: Slots) -> None:
        self.request = request
        self.access = access
        self.slots = slots
        self.checked = time.monotonic()  # the request itself was just checked

    def _check(self) -> Status[Any] | None:
        self.slots.renew()
        return caller_refusal(self.request) or access_refusal(self.access)

    async def refusal(self) -> Status[Any] | None:
        """The refusal a new request would get now, checked once per re-check period."""
        if time.monotonic() - self.checked < recheck_seconds():
            return None
        self.checked = time.monotonic()
        return await sync_to_async(self._check)()

    def release(self) -> None:
        """Hand the slots back (sync; safe to call twice)."""
        self.slots.release()


async def watch_open(request: HttpRequest, access: Callable[[], object]) -> Watch:
    """Take the caller's slots for a request that will stay open (TooManyWaits when
    they are all taken); the request has passed its access check already."""
    slots = await sync_to_async(slots_take)(request)
    return Watch(request, access, slots)
