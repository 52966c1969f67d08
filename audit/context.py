"""Who is making the current change, without threading a request through every
service: the site's edge middleware binds the request's caller, IP and user agent
(``bind``) for the length of the request; the API's token authentication adds its
token to the request, read when an event is recorded. Outside a request (a
management command, a worker) no request is bound and the actor is the system.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Caller:
    request: Any  # the HttpRequest: its user and api_token are read when recording
    ip: str | None
    user_agent: str


_caller: ContextVar[Caller | None] = ContextVar("audit_caller", default=None)


@contextmanager
def bind(request: Any, *, ip: str | None) -> Iterator[None]:
    agent = str(request.META.get("HTTP_USER_AGENT", ""))[:300]
    token = _caller.set(Caller(request, ip or None, agent))
    try:
        yield
    finally:
        _caller.reset(token)


def caller() -> Caller | None:
    return _caller.get()


def system_name() -> str:
    """"system: <command>" for a management command or the CLI, else "system"."""
    argv = sys.argv
    if len(argv) > 1 and argv[0].endswith(("manage.py", "django-admin", "council")):
        return f"system: {argv[1]}"[:200]
    return "system"
