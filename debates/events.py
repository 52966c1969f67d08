"""The durable event log: a gap-free sequence per debate, and a doorbell.

Events are rows; the channel layer only rings to say "there is something new",
so a page that missed a ring (or a whole process restart) catches up by reading
rows after the last sequence number it has.
"""

from __future__ import annotations

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


def ring(debate: Debate, seq: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(debate), {"type": "debate.event", "seq": seq})
    except Exception:  # noqa: BLE001 - the doorbell is best effort; the log is the truth
        pass


def events_after(debate: Debate, seq: int) -> list[DebateEvent]:
    return list(debate.events.filter(seq__gt=seq).order_by("seq"))
