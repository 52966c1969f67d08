"""The live channel every signed-in page opens (``/ws/live/``): the notification badge
and the debate list's rows, pushed as htmx out-of-band swaps.

Like the debate page's socket (debates.live.consumers) it follows the database, polling
every ``COUNCIL_WS_POLL_SECONDS`` (times ``LIST_POLL_FACTOR``: a list row or a badge a
second late is fine), so it works whichever process changed the data. Each push sends
only what changed since the last one: the badge when the unread count moved, and the
row of every debate of the current team that is running or has changed since it was
last seen running. A page without those elements ignores the swaps it has no place for.
Its session is checked again before each push and while idle (debates.live.session): a
socket whose session has ended (logout, password changed elsewhere) closes with 4401.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.language import override, scope_language
from accounts.selectors import current_team
from debates import selectors as debate_selectors
from debates.live.consumers import CLOSE_FORBIDDEN, poll_seconds
from debates.live.session import CLOSE_SESSION_ENDED, SessionCheck, SessionEnded
from notifications.selectors import unread_count

log = logging.getLogger(__name__)

LIST_POLL_FACTOR = 2


def _row_state(debate: Any) -> tuple[Any, ...]:
    """What a list row shows that changes while a debate runs or after it."""
    return (debate.status, debate.stop_reason, debate.degraded, debate.cost_usd)


class LiveChannel:
    """One page's view of what it was last sent (kept between polls)."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope
        self.unread: int | None = None
        self.rows: dict[uuid.UUID, tuple[Any, ...]] = {}
        self.team_code: uuid.UUID | None = None
        self.session = SessionCheck(scope)
        self.language: str | None = None

    def _request(self) -> HttpRequest:
        # current_team reads the session's chosen team the way a page view does.
        request = HttpRequest()
        request.user = self.scope["user"]
        request.session = self.scope["session"]
        return request

    def batch(self) -> list[str]:
        """The out-of-band fragments for what changed since the last call, one per
        message: a page parses a message as one fragment, and an HTML parser that
        starts on the badge's <a> drops a <tr> after it."""
        if self.language is None:  # read once, here in a thread (the session may query)
            # The badge and the rows speak the page's language (docs/web.md, "Languages").
            self.language = scope_language(self.scope)
        with override(self.language):
            return self._batch()

    def _batch(self) -> list[str]:
        user = self.scope["user"]
        out: list[str] = []
        unread = unread_count(user=user)
        if unread != self.unread:
            self.unread = unread
            out.append(render_to_string("notifications/_nav_link.html",
                                        {"unread": unread, "oob": True}))
        team = current_team(self._request())
        if team is None or team.code != self.team_code:
            # Another team (or none): rows seen in the old one are no concern any more.
            self.rows, self.team_code = {}, team.code if team else None
        if team is not None:
            for debate in debate_selectors.debates_to_watch(team=team, codes=self.rows):
                state = _row_state(debate)
                if self.rows.get(debate.code) != state:
                    out.append(render_to_string("debates/_list_row.html",
                                                {"d": debate, "oob": True}))
                if debate.is_active:
                    self.rows[debate.code] = state
                else:  # finished: sent once, then no longer followed
                    self.rows.pop(debate.code, None)
        if out:
            self.session.require()  # nothing reaches a socket whose session has ended
        else:
            self.session.require_when_due()
        return out


class LiveConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.channel = LiveChannel(self.scope)
        self.follower = asyncio.create_task(self._follow())

    async def disconnect(self, code: int) -> None:
        follower = getattr(self, "follower", None)
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing that matters; ignore it."""

    async def _follow(self) -> None:
        batch = database_sync_to_async(self.channel.batch)
        try:
            while True:
                for html in await batch():
                    await self.send(text_data=html)
                await asyncio.sleep(poll_seconds() * LIST_POLL_FACTOR)
        except asyncio.CancelledError:
            raise
        except SessionEnded:
            await self.close(code=CLOSE_SESSION_ENDED)
        except Exception:  # a broken follower must not leave a silently stale page
            log.exception("the live channel failed")
            await self.close(code=1011)
