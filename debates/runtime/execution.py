"""Runs one engine step for a stored debate: claim, load, run, persist, hand on.

A worker claims the debate with a lease (``debates.runtime.lease``: a conditional UPDATE, so
two workers never run the same debate at once), rebuilds the engine state from stored
turns, runs the next step and persists each turn the moment it arrives
(``debates.runtime.persistence``). Because the state comes from stored turns, a step
re-delivered after a crash asks only for the turns that are missing.

While the step runs, a heartbeat renews the lease every third of its length, so a
model call slower than the lease never lets a second worker start the same step,
and a worker that dies is noticed within one lease. A worker asked to stop
(``debates.runtime.shutdown``) cancels its calls in flight, hands its lease on and re-queues
the step, so a stop costs a step's unfinished calls and never waits for them.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.db import DatabaseError, transaction
from django.utils import timezone

from debates import event_log, signals
from debates.debate_sources import debate_sources
from debates.engine import (
    CallRecord,
    Cancelled,
    DebateProtocol,
    DebateState,
    EngineHooks,
    Usage,
    get_protocol,
    usage_from_calls,
)
from debates.models import ACTIVE_STATUSES, Debate, DebateStatus, Synthesis
from debates.runtime import shutdown
from debates.runtime.lease import (  # noqa: F401 - claim/release/lease_seconds are this module's API too
    Abandoned,
    claim,
    lease_seconds,
    release,
    renew,
    run_holding,
    stalled,
    take_stalled,
    worker_id,
)
from debates.runtime.persistence import PersistingHooks
from debates.runtime.queue import enqueue_step
from debates.runtime.reconnect import connection_lost
from debates.runtime.running_time import EVENT_KINDS, running_seconds
from debates.runtime.state_rows import load_state_with_sources

log = logging.getLogger(__name__)

def usage_of(debate: Debate) -> Usage:
    """Totals from the ledger, by the engine's own rule (``usage_from_calls``), so the
    CLI and stored debates can never disagree on what counts as an unknown cost; the
    wall time is the time spent running steps (``debates.runtime.running_time``)."""
    fields = ["phase", "round", "attempt", "purpose", "model", "prompt_tokens",
              "completion_tokens", "cached_prompt_tokens", "cost_usd", "latency_ms", "ok"]
    records = [CallRecord(agent=row.pop("agent_index"), **row)
               for row in debate.llm_calls.values("agent_index", *fields)]
    steps = debate.events.filter(kind__in=EVENT_KINDS).order_by("seq")
    wall = running_seconds(steps.values_list("kind", "created_at"), now=timezone.now())
    return usage_from_calls(records, wall)


def _usage_fields(usage: Usage) -> dict[str, Any]:
    return {"calls": usage.calls, "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens, "cost_usd": usage.cost_usd,
            "wall_time_s": usage.wall_time_s}


def store_usage(debate: Debate) -> Usage:
    """Totals the ledger into the debate row. Every way a debate ends calls it
    (finished, failed, cancelled): paid calls count against the team's budget, and
    once a debate is no longer active its estimate no longer reserves anything."""
    usage = usage_of(debate)
    Debate.objects.filter(pk=debate.pk).update(**_usage_fields(usage))
    return usage


def _fail(debate: Debate, error: str, worker: str) -> None:
    """Fails the debate, once, like ``_finish``: only while ``worker`` holds the lease.
    A worker that lost it (cut off, then back) may crash on what it finds changed; the
    worker that took the debate over is still running it."""
    with transaction.atomic():
        if not Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES,
                                     lease_owner=worker).update(
                status=DebateStatus.FAILED, error=error, finished_at=timezone.now(),
                lease_owner="", lease_expires_at=None, current_step=""):
            return
        store_usage(debate)
        signals.debate_failed.send(sender=Debate, debate=debate)
        event_log.append(debate, "debate_failed", {"error": error})


def _finish(debate: Debate, state: DebateState, protocol: DebateProtocol, worker: str) -> None:
    """Ends the debate, once: only while ``worker`` still holds its lease, so a worker
    cut off and back after another took the debate over writes no second ending."""
    failure = protocol.failure(state)
    usage = usage_of(debate)
    fields: dict[str, Any] = {
        "finished_at": timezone.now(), "lease_owner": "", "lease_expires_at": None,
        **_usage_fields(usage), "current_step": "",
    }
    payload: dict[str, Any]
    result = None
    if failure is not None:
        fields.update(status=DebateStatus.FAILED, error=failure)
        kind, payload = "debate_failed", {"error": failure}
    else:
        result = protocol.build_result(state, usage)
        reason, explanation, degraded = protocol.outcome(result)
        fields.update(status=DebateStatus.SUCCEEDED, stop_reason=reason,
                      stop_explanation=explanation, degraded=degraded)
        kind, payload = "debate_finished", {"stop_reason": reason, "degraded": degraded}
    with transaction.atomic():
        if not Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES,
                                     lease_owner=worker).update(**fields):
            return  # ended or taken over meanwhile
        if result is not None:
            Synthesis.objects.update_or_create(
                debate=debate, defaults={"result": result.model_dump(mode="json")})
        (signals.debate_failed if failure else signals.debate_finished).send(Debate, debate=debate)
        event_log.append(debate, kind, payload)


async def advance(code: uuid.UUID | str, *, worker: str | None = None,
                  also: EngineHooks | None = None, keep_lease: bool = False) -> bool:
    """Runs one step of the debate. Returns True when more steps remain, False when the
    debate is finished or not ours. Every database call goes through ``sync_to_async``,
    so many debates' steps can share one event loop (``debates.runtime.worker_loop``).

    With ``keep_lease`` the lease stays held after the step (renewed, not handed on):
    the caller runs the next step itself, and a crash in between is noticed like a
    crash mid-step, by the lease running out. Without it the step is handed on."""
    code = uuid.UUID(str(code))
    worker = worker or worker_id()
    if not await sync_to_async(claim)(code, worker, already_mine=keep_lease):
        if keep_lease:  # still held from the step before, and cancelled since: hand it back
            await sync_to_async(_release_code)(code, worker)
        return False
    return await _run_claimed(code, worker, also, keep_lease)


def _release_code(code: uuid.UUID, worker: str) -> None:
    debate_id = Debate.objects.filter(code=code).values_list("pk", flat=True).first()
    if debate_id is not None:
        release(debate_id, worker)


def run_next_step(code: uuid.UUID | str, *, worker: str | None = None,
                  also: EngineHooks | None = None) -> bool:
    """``advance`` from synchronous code: one step, its lease handed on after it. The
    claim comes first, in the caller's thread, before an event loop is set up."""
    code = uuid.UUID(str(code))
    worker = worker or worker_id()
    if not claim(code, worker):
        return False
    return async_to_sync(_run_claimed)(code, worker, also, False)


async def _run_claimed(code: uuid.UUID, worker: str, also: EngineHooks | None,
                       keep_lease: bool) -> bool:
    debate, state = await sync_to_async(_load)(code)
    if await sync_to_async(_held_by_sources)(debate, worker):
        return False
    protocol = get_protocol(state.config.protocol)
    step = protocol.next_step(state)
    if step is None:
        await sync_to_async(_finish)(debate, state, protocol, worker)
        return False
    label = protocol.step_label(step)
    hooks = PersistingHooks(debate, state, worker, also)
    started = time.monotonic()
    try:
        await run_holding(debate.pk, worker, protocol.run_step(state, step, hooks),
                          stopping=shutdown.requested)
    except Abandoned:
        await sync_to_async(abandon)(debate, worker, label)
        return False
    except Cancelled:
        await sync_to_async(_stop_cancelled)(debate, worker)
        return False
    except DatabaseError as exc:
        if not connection_lost(exc):
            return await _crashed(debate, worker, label, exc)
        # The worker is lost, not the debate: its lease runs out and the sweeper
        # resumes the step elsewhere, as after a crash.
        log.warning("debate %s: %s lost its database connection", code, label)
        raise
    except Exception as exc:
        return await _crashed(debate, worker, label, exc)
    log.info("debate %s: %s in %.1f s", code, label, time.monotonic() - started)
    if hooks.should_cancel():  # cancelled as the step's last turns were stored
        await sync_to_async(_stop_cancelled)(debate, worker)
        return True  # the next claim refuses the cancelled debate
    await sync_to_async(_after_step)(debate.pk, worker, keep_lease)
    return True


async def _crashed(debate: Debate, worker: str, label: str, exc: Exception) -> bool:
    # A bug, not a provider fault (those become failed turns): retrying would fail the
    # same way every minute, so the debate fails now, saying where and why.
    log.exception("debate %s: %s crashed", debate.code, label)
    await sync_to_async(_fail)(debate, f"internal error in {label}: "
                                      f"{type(exc).__name__}: {exc}", worker)
    return False


def _held_by_sources(debate: Debate, worker: str) -> bool:
    """A debate does not start before its sources are read (docs/web.md, "Sources"):
    while one is still being read the step is handed back (the reading queues it
    again when done); a refused one fails the debate before any model call."""
    readiness = debate_sources().readiness(debate=debate)
    if readiness.refused:
        _fail(debate, "A source could not be read, so the debate did not start (no model "
                      "was called): " + "; ".join(readiness.refused), worker)
        return True
    if readiness.pending:
        # Back to queued, as it was: the claim marked it running and started.
        Debate.objects.filter(pk=debate.pk, lease_owner=worker).update(
            status=DebateStatus.QUEUED, started_at=None, current_step="sources",
            lease_owner="", lease_expires_at=timezone.now())
        return True
    return False


def _load(code: uuid.UUID) -> tuple[Debate, DebateState]:
    debate = Debate.objects.get(code=code)
    return debate, load_state_with_sources(debate)


def _after_step(debate_id: int, worker: str, keep_lease: bool) -> None:
    # A lease that cannot be renewed (the debate was cancelled) is handed back too.
    if not (keep_lease and renew(debate_id, worker)):
        release(debate_id, worker)


def _stop_cancelled(debate: Debate, worker: str) -> None:
    # Calls stored after the cancel was saved are paid for too.
    store_usage(debate)
    release(debate.pk, worker)


def abandon(debate: Debate, worker: str, label: str) -> None:
    """Gives the step back: lease handed on, said in the event log, and the step queued
    for a live worker (a stop during a step, or between two: worker_loop)."""
    log.warning("debate %s: %s abandoned, the worker is stopping", debate.code, label)
    with transaction.atomic():
        release(debate.pk, worker)
        event_log.append(debate, "abandoned", {"step": label})
        enqueue_step(debate)


def run_to_completion(code: uuid.UUID | str, *, also: EngineHooks | None = None) -> None:
    """Runs every step in this process (the CLI's --save path and tests)."""
    while run_next_step(code, also=also):
        pass


def resume_stalled(*, queued_grace_s: int = 60) -> int:
    """Re-queues debates whose worker died (lease expired) or whose queued step was
    lost (handed on, or never claimed, longer than the grace ago). Safe to run any
    time, from any number of sweepers: a live lease is skipped, and each stalled
    debate is taken by one sweeper only (``take_stalled``)."""
    count = 0
    for debate in stalled(Debate.objects.filter(status__in=ACTIVE_STATUSES),
                          queued_grace_s=queued_grace_s):
        with transaction.atomic():
            if not take_stalled(debate):
                continue  # claimed meanwhile, or another sweeper took it
            event_log.append(debate, "resumed", {"by": "resume_stalled"})
            enqueue_step(debate)
        count += 1
    return count
