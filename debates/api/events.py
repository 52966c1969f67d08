"""Following a debate's event log from a script: long-poll and server-sent events,
mounted at /api/debates beside ``GET /{code}/events?after=N`` (debates.api).

Both read the durable log (``events_after``), like the live page's websocket: the
log is the truth, so a client that remembers the last ``seq`` it saw and asks again
(``after=seq``, or SSE's ``Last-Event-ID``) misses nothing across reconnects.

The views are async and sleep between short database reads, so a waiting client
holds no worker thread: under ASGI every sync view shares one thread, and a sync
long-poll would stall the whole site. Their reads run on the process's one shared
thread for sync code (site_edge.dispatch), so waiting clients hold no database
connection of their own either.

Each open request holds a slot of its caller (at most ``COUNCIL_STREAMS_PER_USER`` per
user, ``COUNCIL_STREAMS_PER_TOKEN`` per token, else 429) and checks every
``COUNCIL_STREAM_RECHECK_SECONDS`` that its caller may still see the debate; when not,
it ends with the refusal a new request would get (api_kit.waits).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Query, Router, Schema
from pydantic import Field

from accounts.api_auth import api_auth
from api_kit.errors import errors
from api_kit.timestamps import rfc3339
from api_kit.waits import Watch, watch_open
from debates.access import debate_access
from debates.event_log import events_after
from debates.models import ACTIVE_STATUSES, Debate, DebateEvent
from debates.runtime.reconnect import retried_on_a_fresh_connection

router = Router(tags=["debates"], auth=api_auth)

MAX_WAIT_SECONDS = 60
# A stream is closed after this long and the client reconnects with Last-Event-ID,
# so no connection (or proxy timeout) lives for ever.
STREAM_SECONDS = 30 * 60
HEARTBEAT_SECONDS = 15


def poll_seconds() -> float:
    return float(getattr(settings, "COUNCIL_EVENTS_POLL_SECONDS", 0.5))


# One server-sent event as a client's parser gives it: the stream's ``schema`` is that of
# each event, as OpenAPI 3.1 tools read a text/event-stream (3.2's ``itemSchema`` is not
# 3.1, and the document must validate as the version it declares).
SSE_EVENT_SCHEMA = {
    "type": "object", "required": ["event", "data"],
    "properties": {
        "id": {"type": "string", "description": "The event's seq."},
        "event": {"type": "string", "description": "Its kind, or end."},
        "data": {"type": "string", "contentMediaType": "application/json",
                 "description": "The event as JSON (EventOut)."},
        "retry": {"type": "integer"},
    },
}


class EventOut(Schema):
    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: datetime


class EventBatchOut(Schema):
    events: list[EventOut]
    last_event_seq: int = Field(description="The debate's last event so far: pass as "
                                "`after` next time (the name GET /api/debates/{code} and "
                                "MCP use).")
    status: str
    active: bool = Field(description="False once the debate has ended: no event will follow.")


class WaitQuery(Schema):
    after: int = Field(default=0, ge=0)
    timeout: float = Field(default=25, ge=0, le=MAX_WAIT_SECONDS,
                           description="Seconds to wait for an event before answering empty.")


class StreamQuery(Schema):
    after: int = Field(default=0, ge=0, description="Overridden by a larger Last-Event-ID.")


def _read(debate_id: int, after: int) -> tuple[list[DebateEvent], str, int]:
    debate = Debate.objects.only("id", "status", "last_event_seq").get(pk=debate_id)
    # Status first, events second: events written after a status read as final are
    # still returned, so "ended" is never answered before the last event.
    status = debate.status
    batch = events_after(debate, after)
    return batch, status, batch[-1].seq if batch else debate.last_event_seq


# A stream outlives the connection its reads use: after a database restart its next
# read runs again on a fresh one instead of ending every open stream with an error.
read = sync_to_async(retried_on_a_fresh_connection(_read))


def _event_dict(event: DebateEvent) -> dict[str, Any]:
    return {"seq": event.seq, "kind": event.kind, "payload": event.payload,
            "created_at": event.created_at}


async def _watched_debate(request: HttpRequest, code: uuid.UUID) -> tuple[Debate, Watch]:
    """The debate (or the API's 404) and the request's watch: its slot, and the access
    check it repeats while it stays open."""
    debate, _ = await sync_to_async(debate_access)(user=request.user, code=code)
    watch = await watch_open(request, partial(debate_access, user=request.user, code=code))
    return debate, watch


async def _release(watch: Watch) -> None:
    # Shielded: a client that disconnects cancels the request, and the slot must still
    # be handed back.
    await asyncio.shield(sync_to_async(watch.release)())


@router.get("/{uuid:code}/events/wait", url_name="debate_events_wait",
            response={200: EventBatchOut, **errors(401, 403, 404, 429)})
async def wait_events(request: HttpRequest, code: uuid.UUID,
                      query: Query[WaitQuery]) -> Any:
    """Long-poll: the events after ``after``, waiting up to ``timeout`` seconds for the
    first one. Answers at once when there are events or the debate has ended
    (``active`` false); an empty batch with ``active`` true means "ask again"."""
    debate, watch = await _watched_debate(request, code)
    try:
        deadline = time.monotonic() + query.timeout
        while True:
            if (refused := await watch.refusal()) is not None:
                return refused
            batch, status, last = await read(debate.pk, query.after)
            active = status in ACTIVE_STATUSES
            if batch or not active or time.monotonic() >= deadline:
                break
            await asyncio.sleep(min(poll_seconds(), max(0.0, deadline - time.monotonic())))
    finally:
        await _release(watch)
    return {"events": [_event_dict(e) for e in batch],
            "last_event_seq": last,
            "status": status, "active": active}


def _sse(event: DebateEvent) -> str:
    data = json.dumps({**_event_dict(event), "created_at": rfc3339(event.created_at)})
    return f"id: {event.seq}\nevent: {event.kind}\ndata: {data}\n\n"


async def stream(debate_id: int, after: int, *, lifetime: float = STREAM_SECONDS,
                 watch: Watch | None = None) -> AsyncIterator[str]:
    """SSE frames: every event past ``after``, then an ``end`` frame once the debate
    has ended (or ``lifetime`` has passed, with ``"reconnect": true``), or an ``error``
    frame with the refusal a new request would get once the caller lost access."""
    started = idle_since = time.monotonic()
    yield "retry: 2000\n\n"
    while True:
        if watch is not None and (refused := await watch.refusal()) is not None:
            yield f"event: error\ndata: {json.dumps(refused.value)}\n\n"
            return
        batch, status, _ = await read(debate_id, after)
        for event in batch:
            yield _sse(event)
            after = event.seq
        if status not in ACTIVE_STATUSES and not batch:
            data = json.dumps({"status": status, "last_event_seq": after})
            yield f"event: end\ndata: {data}\n\n"
            return
        now = time.monotonic()
        if now - started >= lifetime:
            data = json.dumps({"status": status, "last_event_seq": after, "reconnect": True})
            yield f"event: end\ndata: {data}\n\n"
            return
        if batch:
            idle_since = now
        elif now - idle_since >= HEARTBEAT_SECONDS:
            yield ": keep-alive\n\n"
            idle_since = now
        if not batch:
            await asyncio.sleep(poll_seconds())


class HeldStream:
    """The stream's frames, and its slot handed back when the response is closed: Django
    closes a response's content when it ends, the client disconnected or never read a
    frame (an async generator's own ``finally`` would not run in that last case)."""

    def __init__(self, frames: AsyncIterator[str], watch: Watch) -> None:
        self.frames = frames
        self.watch = watch

    def __aiter__(self) -> AsyncIterator[str]:
        return self.frames

    def close(self) -> None:
        self.watch.release()


@router.get("/{uuid:code}/events/stream", url_name="debate_events_stream",
            response={200: None, **errors(401, 403, 404, 429)},
            openapi_extra={"responses": {"200": {
                "description": "Server-sent events: `id` is the event's seq, `event` its "
                               "kind, `data` the event as JSON; a final `end` event carries "
                               "the debate's status.",
                "content": {"text/event-stream": {
                    "schema": SSE_EVENT_SCHEMA}}}}})
async def stream_events(request: HttpRequest, code: uuid.UUID,
                        query: Query[StreamQuery]) -> StreamingHttpResponse:
    """Server-sent events of the log after ``after`` (or the ``Last-Event-ID`` header),
    until the debate ends. Reconnecting with the last id resumes without a gap."""
    debate, watch = await _watched_debate(request, code)
    after = query.after
    try:
        after = max(after, int(request.headers.get("Last-Event-ID", "0")))
    except ValueError:
        pass
    response = StreamingHttpResponse(HeldStream(
        stream(debate.pk, after, lifetime=STREAM_SECONDS, watch=watch), watch),
                                     content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response
