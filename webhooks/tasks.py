"""The workers' side of webhooks (django-q2): build and publish an event, make one
delivery attempt, and the retry sweep that the schedule runs every minute."""

from __future__ import annotations

from webhooks import services
from webhooks.events import BUILDERS


def announce(kind: str, pk: int) -> int:
    """Builds the event of ``kind`` about row ``pk`` and queues its deliveries; the
    number queued (0: the row is gone, the event was sent before, or nobody listens)."""
    happening = BUILDERS[kind](pk)
    return len(services.event_publish(happening)) if happening else 0


def deliver(delivery_pk: int) -> bool | None:
    """One attempt of a delivery: True delivered, False failed (retried or given up),
    None nothing to do."""
    attempt = services.delivery_attempt(delivery_pk)
    return None if attempt is None else attempt.succeeded


def deliver_due() -> int:
    """The schedule's sweep: queues every delivery whose retry is due, and forgets
    events older than the log keeps."""
    services.events_prune()
    return len(services.deliveries_take_due())
