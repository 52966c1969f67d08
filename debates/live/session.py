"""A live socket's session, checked again while the socket stays open.

A websocket authenticates once, at its handshake; the session behind it can end later
(logged out, password changed in another session, user deactivated). Like the API's
open streams (api_kit.waits), each socket asks the session store again: before any
push, so nothing reaches a socket whose session has ended, and at least every
``COUNCIL_STREAM_RECHECK_SECONDS`` while idle, so such a socket is closed with
``CLOSE_SESSION_ENDED`` (docs/web.md, "Access that ends").
"""

from __future__ import annotations

import time
from typing import Any

from api_kit.waits import recheck_seconds, session_user_id

CLOSE_SESSION_ENDED = 4401


class SessionEnded(Exception):
    """The socket's session no longer authenticates the user it was opened by."""


class SessionCheck:
    """The session of one socket's scope (as channels' AuthMiddlewareStack fills it)."""

    def __init__(self, scope: dict[str, Any]) -> None:
        session = scope.get("session")
        self.session_key = session.session_key if session is not None else None
        self.user_id = scope["user"].pk
        self.checked = time.monotonic()  # the handshake itself was just checked

    def require(self) -> None:
        """Raise SessionEnded unless the session still authenticates the same user (sync:
        it reads the session store)."""
        self.checked = time.monotonic()
        if session_user_id(self.session_key) != self.user_id:
            raise SessionEnded

    def require_when_due(self) -> None:
        """``require``, at most once per re-check period (for an idle socket)."""
        if time.monotonic() - self.checked >= recheck_seconds():
            self.require()
