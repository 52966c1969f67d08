"""The live debate page's websocket: replay what the client missed, then follow.

The durable event log is the truth. On connect the client says which sequence
number its page shows (``?after=N``); whenever the log holds events past the last
number sent, the consumer re-renders the page's live fragments from the database
and sends them as htmx out-of-band swaps, with the activity lines for exactly
those events and the new last number. A page that was open at any moment, or
reconnects after any gap, therefore ends up identical to a fresh load.

The worker that appends events usually runs in another process, and the embedded
configuration's in-memory channel layer does not cross processes, so the consumer
FOLLOWS THE LOG: it polls ``events_after`` every ``COUNCIL_WS_POLL_SECONDS`` and
treats channel-layer messages on the debate's group only as a doorbell that wakes
it early (with Redis, the doorbell makes updates near-instant).

The socket is accepted before access is checked, and a refusal closes it: 4404 for
an unknown debate or one the user may not see (as the page's 404), 4403 when access
is denied outright. Access is checked again before every push, not only on connect:
a member removed from the team (or whose role changed) must not keep receiving
fragments over a socket opened while they still belonged; losing access closes it
with 4404. The session is checked again too (debates.live.session): once it has ended
(logout, a password change elsewhere) nothing more is pushed and the socket closes
with 4401.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
from collections.abc import Iterable
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

from debates import event_log, selectors
from debates.access import can_write, debate_access
from debates.live.session import CLOSE_SESSION_ENDED, SessionCheck, SessionEnded
from debates.models import Debate
from debates.web.pages import debate_page

log = logging.getLogger(__name__)

CSRF_SECRET = re.compile(r"[A-Za-z0-9]{32}")
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
IDLE_POLL_FACTOR = 4


def poll_seconds() -> float:
    return float(getattr(settings, "COUNCIL_WS_POLL_SECONDS", 0.5))


def parse_after(query_string: bytes) -> int:
    values = parse_qs(query_string.decode("latin-1")).get("after", ["0"])
    try:
        return max(0, int(values[0]))
    except ValueError:
        return 0


class AccessLost(Exception):
    """The user may no longer see the debate the socket follows."""


class LiveBatch(NamedTuple):
    html: str
    seq: int  # the sequence number the fragments bring a page to
    active: bool  # the debate still runs


def live_parts(partials: dict[str, str]) -> tuple[str, ...]:
    """The page's swappable parts, each one element with its own id: the shared ones
    (the answer, which arrives with the synthesis, and the team's decision, through the
    decisions app's tag) and the protocol's own agent cards, side panel and live
    partial."""
    return tuple(name for name in (
        "debates/_answer.html", "debates/_decision_slot.html", "debates/_status.html",
        "debates/_stepper.html",
        partials["agents"],
        partials.get("chart", ""), "debates/_synthesis_card.html", partials["live"],
    ) if name)


class LiveUpdate(NamedTuple):
    parts: dict[str, str]  # template -> its out-of-band fragment
    tail: str  # the activity lines for the new events and the sequence marker
    seq: int
    active: bool

    def html(self, parts: Iterable[str] | None = None) -> str:
        """The fragments to send: every part, or only those named, then the tail."""
        chosen = self.parts if parts is None else parts
        return "".join(self.parts[name] for name in chosen) + self.tail


def live_update(debate: Debate, *, role: str, after: int, csrf_token: str = "") -> LiveUpdate:
    """The out-of-band fragments bringing a page at sequence ``after`` up to date, part
    by part, so a connection can leave out the parts its page already shows."""
    detailed = selectors.debate_detail(team=debate.team, code=debate.code)
    page = debate_page(detailed, role=role, can_write=can_write(role))
    context = {"page": page, "debate": detailed, "role": role, "oob": True,
               "csrf_token": csrf_token,
               "new_events": [e for e in page.events if e.seq > after]}
    names = live_parts(page.partials)
    parts = {name: str(render_to_string(name, context)) for name in names}
    tail = render_to_string("debates/_live_tail.html", context)
    return LiveUpdate(parts, tail, page.last_seq, detailed.is_active)


def render_live_fragments(debate: Debate, *, role: str, after: int,
                          csrf_token: str = "") -> LiveBatch:
    """Every out-of-band fragment bringing a page at sequence ``after`` up to date."""
    update = live_update(debate, role=role, after=after, csrf_token=csrf_token)
    return LiveBatch(update.html(), update.seq, update.active)


def fingerprint(html: str) -> bytes:
    return hashlib.blake2b(html.encode(), digest_size=16).digest()


class DebateConsumer(AsyncWebsocketConsumer):
    debate: Debate
    role: str

    async def connect(self) -> None:
        # Accept first, then check access (docs/web.md, "Reconnects"): the check reads
        # the database, and under load (20 debates, 50 viewers) a handshake waiting on it
        # was reset by the client. An accepted socket waits as long as it must, and a
        # refusal is a close code the browser sees (htmx only retries 1006/1011-1013).
        await self.accept()
        user = self.scope.get("user")
        code = self.scope["url_route"]["kwargs"]["code"]  # any text: see routing.py
        try:
            self.debate, self.role = await database_sync_to_async(debate_access)(
                user=user, code=code)
        except Http404:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        except PermissionDenied:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.session = SessionCheck(self.scope)
        self.sent_seq = parse_after(self.scope.get("query_string", b""))
        self.pushed = False
        # What this connection's page shows, per part: a fingerprint of the fragment
        # last sent. Empty at first, so the first push sends every part: the page may
        # be older than ``after`` says (a reconnect), and this socket never saw it.
        self.shown: dict[str, bytes] = {}
        self.active = self.debate.is_active
        self.csrf_token = self._csrf_token()
        self.group = event_log.group_name(self.debate)
        self.wake = asyncio.Event()
        if self.channel_layer is not None:
            await self.channel_layer.group_add(self.group, self.channel_name)
        self.follower = asyncio.create_task(self._follow())

    async def disconnect(self, code: int) -> None:
        follower = getattr(self, "follower", None)
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
        if getattr(self, "group", None) and self.channel_layer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing that matters; ignore it."""

    async def debate_event(self, message: dict[str, Any]) -> None:
        """The doorbell: something was appended; look now instead of at the next poll."""
        self.wake.set()

    def _csrf_token(self) -> str:
        # Fragments re-render the action forms, which need the page's CSRF token. The
        # cookie holds the secret; get_token masks it like a normal page render would.
        secret = (self.scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
        if not CSRF_SECRET.fullmatch(secret):  # absent or not Django's: no token
            return ""
        request = HttpRequest()
        request.META["CSRF_COOKIE"] = secret
        return get_token(request)

    def _batch(self) -> str | None:
        """Fragments for the events past ``sent_seq``, or None when there are none.
        Raises AccessLost when the user has left the team since the last push, and
        SessionEnded when their session has."""
        if not selectors.debate_events_after(debate=self.debate, after=self.sent_seq):
            self.session.require_when_due()
            return None
        self.session.require()
        if self.pushed:  # the first push follows the check connect just made
            try:
                # The role may have changed too (an editor made viewer): render for it.
                _, self.role = debate_access(user=self.scope.get("user"),
                                             code=self.debate.code)
            except (Http404, PermissionDenied):
                raise AccessLost from None
        self.pushed = True
        update = live_update(self.debate, role=self.role, after=self.sent_seq,
                             csrf_token=self.csrf_token)
        changed = [name for name, html in update.parts.items()
                   if self.shown.get(name) != fingerprint(html)]
        self.shown.update((name, fingerprint(update.parts[name])) for name in changed)
        self.sent_seq = max(self.sent_seq, update.seq)
        self.active = update.active
        return update.html(changed)

    async def _follow(self) -> None:
        batch = database_sync_to_async(self._batch)
        try:
            while True:
                html = await batch()
                if html:
                    await self.send(text_data=html)
                # A finished debate changes rarely (one more round, a re-run): poll it
                # less often; the doorbell still rings at once in this process.
                timeout = poll_seconds() * (1 if self.active else IDLE_POLL_FACTOR)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=timeout)
                self.wake.clear()
        except asyncio.CancelledError:
            raise
        except AccessLost:
            await self.close(code=CLOSE_NOT_FOUND)
        except SessionEnded:
            await self.close(code=CLOSE_SESSION_ENDED)
        except Exception:  # a broken follower must not leave a silent, stale page
            log.exception("live updates for debate %s failed", self.debate.code)
            await self.close(code=1011)
