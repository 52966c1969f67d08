"""The lease a worker holds on a row while it works on it: a debate while it runs
one step, an evaluation while it asks a batch of questions (evaluations.runner).

A lease is two columns on the row: ``lease_owner`` and ``lease_expires_at``.

- held: owner set, expiry in the future. Nobody else may run the debate.
- expired: owner set, expiry in the past. The owner died (or stalled); the sweeper
  hands the debate on and any worker may claim it.
- handed on: owner empty, expiry = the moment the step was handed on (queued). Any
  worker may claim it; if nobody has within the sweeper's grace, the task was lost.
- unset (NULL): never claimed yet.

Every change is one conditional UPDATE, so two workers (or two sweepers) racing
for the same row never both win. The functions on ``rows`` (a queryset narrowed to the
rows the lease may apply to: the one debate, while active) hold the rules; the debate's
own below them name its columns and statuses.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from debates.engine import Cancelled
from debates.models import ACTIVE_STATUSES, Debate, DebateStatus

T = TypeVar("T")

# How often a running step checks whether its worker is stopping (seconds).
_POLL_S = 0.2


class Abandoned(Exception):
    """The worker is shutting down: the step was given up with its lease handed on."""


_identity: tuple[int, str] | None = None


def worker_id() -> str:
    """This process's name in a lease: ``hostname:pid:tag``. Made anew in every
    process, forked ones included: django-q2 forks its workers from a parent that has
    already imported this, and two processes under one name would both pass the
    lease's checks and run the same debate side by side."""
    global _identity
    pid = os.getpid()
    if _identity is None or _identity[0] != pid:
        _identity = (pid, f"{socket.gethostname()}:{pid}:{uuid.uuid4().hex[:6]}")
    return _identity[1]


def lease_seconds() -> int:
    return int(getattr(settings, "COUNCIL_LEASE_SECONDS", 10))


def heartbeat_seconds() -> float:
    """A third of the lease: two heartbeats may be late before the lease runs out."""
    return max(lease_seconds() / 3, 0.2)


# ----------------------------------------------------------------------------- any row


def take(rows: QuerySet[Any], worker: str, *, already_mine: bool = False,
         **also: Any) -> bool:
    """Takes a free or expired lease on ``rows``, setting ``also`` with it. With
    ``already_mine`` a lease this worker still holds counts as free too."""
    now = timezone.now()
    free = Q(lease_owner="") | Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)
    if already_mine:
        free |= Q(lease_owner=worker)
    return bool(rows.filter(free).update(
        lease_owner=worker, lease_expires_at=now + timedelta(seconds=lease_seconds()), **also))


def extend(rows: QuerySet[Any], worker: str) -> bool:
    """Extends the worker's lease in one UPDATE; False when it holds none on ``rows``."""
    return bool(rows.filter(lease_owner=worker).update(
        lease_expires_at=timezone.now() + timedelta(seconds=lease_seconds())))


def hand_on(rows: QuerySet[Any], worker: str) -> None:
    """Any worker may claim the row now; the time stamp lets the sweeper tell a task
    that was queued long ago and never picked up."""
    rows.filter(lease_owner=worker).update(lease_owner="", lease_expires_at=timezone.now())


def stalled(rows: QuerySet[Any], *, queued_grace_s: int) -> QuerySet[Any]:
    """The rows whose worker died (lease expired) or whose queued task was lost (handed
    on, or never claimed, longer than the grace ago)."""
    now = timezone.now()
    lost_since = now - timedelta(seconds=queued_grace_s)
    return rows.filter(
        Q(lease_expires_at__lt=now) & ~Q(lease_owner="")
        | Q(lease_owner="", lease_expires_at__lt=lost_since)
        | Q(lease_expires_at__isnull=True, created_at__lt=lost_since))


def take_stalled_row(rows: QuerySet[Any], row: Any) -> bool:
    """The sweeper's claim on a stalled ``row`` (as ``stalled`` read it), so of two
    sweepers only one re-queues it, and not again before the grace has passed."""
    return bool(rows.filter(
        pk=row.pk, lease_owner=row.lease_owner, lease_expires_at=row.lease_expires_at,
    ).update(lease_owner="", lease_expires_at=timezone.now()))


# ----------------------------------------------------------------------------- a debate


def claim(code: uuid.UUID, worker: str, *, already_mine: bool = False) -> bool:
    """Takes a free or expired lease. With ``already_mine`` a lease this worker still
    holds counts as free too: a worker that kept it to run the next step itself."""
    claimed = take(Debate.objects.filter(code=code, status__in=ACTIVE_STATUSES), worker,
                   already_mine=already_mine, status=DebateStatus.RUNNING)
    if claimed:
        Debate.objects.filter(code=code, started_at__isnull=True).update(
            started_at=timezone.now())
    return claimed


def renew(debate_id: int, worker: str) -> bool:
    """Extends the lease in one UPDATE; False when the worker must stop: the debate was
    cancelled, or its lease was lost to another worker."""
    return extend(Debate.objects.filter(pk=debate_id).exclude(status=DebateStatus.CANCELLED),
                  worker)


def release(debate_id: int, worker: str) -> None:
    """Hands the debate on (``hand_on``)."""
    hand_on(Debate.objects.filter(pk=debate_id), worker)


def take_stalled(debate: Debate) -> bool:
    """The sweeper's claim on a stalled debate (``take_stalled_row``)."""
    return take_stalled_row(Debate.objects.filter(status__in=ACTIVE_STATUSES), debate)


async def run_holding(debate_id: int, worker: str, work: Awaitable[T], *,
                      stopping: Callable[[], bool]) -> T:
    """``hold`` with the debate's lease: no second worker ever starts the same step."""
    return await hold(work, lambda: renew(debate_id, worker), stopping=stopping)


def _never() -> bool:
    return False


async def hold(work: Awaitable[T], renewal: Callable[[], bool], *,
               stopping: Callable[[], bool] = _never) -> T:
    """Runs ``work`` while renewing a lease (``renewal``, a blocking call) every
    heartbeat, however long a single model call takes.

    Raises ``Cancelled`` when a renewal fails (the row was cancelled or the lease
    taken over) and ``Abandoned`` when ``stopping()`` turns true; either way the calls
    in flight are cancelled at once instead of being waited for.
    """
    task = asyncio.ensure_future(work)
    renew_async = sync_to_async(renewal)
    interval = heartbeat_seconds()
    next_beat = time.monotonic() + interval
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=_POLL_S)
            if done:
                return task.result()
            if stopping():
                raise Abandoned("the worker is stopping")
            if time.monotonic() >= next_beat:
                if not await renew_async():
                    raise Cancelled("the row was cancelled or its lease was lost")
                next_beat = time.monotonic() + interval
    finally:
        if not task.done():
            task.cancel()
            # The engine lets CancelledError through; a bounded wait keeps a stop
            # within its deadline even if some library swallowed it.
            await asyncio.wait({task}, timeout=2)
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: the step's own error is not the news here
