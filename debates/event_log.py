"""The durable event log: a gap-free sequence per debate, and a doorbell.

Events are rows; the channel layer only rings to say "there is something new",
so a page that missed a ring (or a whole process restart) catches up by reading
rows after the last sequence number it has.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F

from debates.models import Debate, DebateEvent


def group_name(debate: Debate) -> str:
    return f"debate.{debate.code}"


def append(debate: Debate, kind: str, payload: dict[str, Any] | None = None) -> DebateEvent:
    """Appends one event. The sequence comes from an atomic counter on the debate
    row, so concurrent writers can neither skip nor reuse a number."""
    with transaction.atomic():
        Debate.objects.filter(pk=debate.pk).update(last_event_seq=F("last_event_seq") + 1)
        seq = Debate.objects.filter(pk=debate.pk).values_list("last_event_seq", flat=True).get()
        event = DebateEvent.objects.create(debate=debate, seq=seq, kind=kind,
                                           payload=payload or {})
        transaction.on_commit(lambda: ring(debate, seq))
    return event


# A worker process's debate loop (``debates.runtime.worker_loop``): rings are sent from it.
_ring_loop: asyncio.AbstractEventLoop | None = None


def ring_from(loop: asyncio.AbstractEventLoop | None) -> None:
    """Rings of this process are sent from ``loop`` without waiting for them: the
    thread that writes every debate's events must not stall on a busy loop."""
    global _ring_loop
    _ring_loop = loop


def ring(debate: Debate, seq: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "debate.event", "seq": seq}
    try:
        if _ring_loop is not None and _ring_loop.is_running():
            asyncio.run_coroutine_threadsafe(layer.group_send(group_name(debate), message),
                                             _ring_loop)
        else:
            async_to_sync(layer.group_send)(group_name(debate), message)
    except Exception:  # noqa: BLE001 - the doorbell is best effort; the log is the truth
        pass


def events_after(debate: Debate, seq: int) -> list[DebateEvent]:
    return list(debate.events.filter(seq__gt=seq).order_by("seq"))
