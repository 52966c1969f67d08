"""Runs one engine step for a stored debate: claim, load, run, persist, hand on.

A worker claims the debate with a lease (a conditional UPDATE, so two workers
never run the same debate at once), rebuilds the engine state from stored turns,
runs the next step and persists each turn the moment it arrives. Because the
state comes from stored turns, a step re-delivered after a crash asks only for
the turns that are missing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from debates import events, signals
from debates.engine.council import EngineEvent, EngineHooks, run_step
from debates.engine.gateway import Cancelled
from debates.engine.schemas import (
    CallRecord,
    Phase,
    Turn,
    TurnStatus,
    Usage,
    usage_from_calls,
)
from debates.engine.state import DebateState
from debates.engine.synthesis import build_result
from debates.models import (
    ACTIVE_STATUSES,
    Debate,
    DebateStatus,
    LLMCall,
    RoundMetric,
    Synthesis,
)
from debates.models import Turn as TurnRow
from debates.stored_state import load_state, snapshot_agents

log = logging.getLogger(__name__)

WORKER_ID = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def lease_seconds() -> int:
    return int(getattr(settings, "COUNCIL_LEASE_SECONDS", 120))


def claim(code: uuid.UUID, worker: str = WORKER_ID) -> bool:
    now = timezone.now()
    claimed = Debate.objects.filter(
        Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now),
        code=code, status__in=ACTIVE_STATUSES,
    ).update(
        lease_owner=worker,
        lease_expires_at=now + timedelta(seconds=lease_seconds()),
        status=DebateStatus.RUNNING,
    )
    if claimed:
        Debate.objects.filter(code=code, started_at__isnull=True).update(started_at=now)
    return bool(claimed)


def _renew(debate_id: int, worker: str) -> bool:
    """Extends the lease in one UPDATE; False when the worker must stop: the debate was
    cancelled, or its lease was lost to another worker."""
    return bool(Debate.objects.filter(pk=debate_id, lease_owner=worker).exclude(
        status=DebateStatus.CANCELLED).update(
        lease_expires_at=timezone.now() + timedelta(seconds=lease_seconds())
    ))


def release(debate_id: int, worker: str) -> None:
    Debate.objects.filter(pk=debate_id, lease_owner=worker).update(
        lease_owner="", lease_expires_at=None
    )


class PersistingHooks(EngineHooks):
    """Writes every turn, ledger row and event as the engine produces them."""

    def __init__(self, debate: Debate, state: DebateState, worker: str,
                 also: EngineHooks | None = None) -> None:
        self.debate = debate
        self.state = state
        self.worker = worker
        self.also = also
        self._cancelled = False
        self._pending: dict[tuple[str, int, int], list[CallRecord]] = {}

    def should_cancel(self) -> bool:
        return self._cancelled or (self.also.should_cancel() if self.also else False)

    def _refresh_cancel(self) -> None:
        self._cancelled = not _renew(self.debate.pk, self.worker)

    @sync_to_async
    def _store_turn(self, turn: Turn) -> None:
        # The turn and the ledger rows of its successful call commit together: a crash
        # can lose both (the call is asked again) but never leave a paid-for answer
        # whose turn is missing, so the ledger never shows a repeated successful call.
        pending = self._pending.pop(turn.key, [])
        with transaction.atomic():
            try:
                with transaction.atomic():
                    TurnRow.objects.create(
                        debate=self.debate, phase=turn.phase.value, round=turn.round,
                        agent_index=turn.agent, status=turn.status.value,
                        payload=turn.payload, error=turn.error or "", model=turn.model or "",
                    )
            except IntegrityError:
                # Already stored by an earlier delivery of this step: keep the first.
                log.info("turn %s of %s already stored", turn.key, self.debate.code)
                return
            LLMCall.objects.bulk_create([self._call_row(r) for r in pending])
            if turn.phase is Phase.COMPOSE and turn.status is TurnStatus.OK:
                snapshot_agents(self.debate, self.state)
            events.append(self.debate, "turn", {
                "phase": turn.phase.value, "round": turn.round, "agent": turn.agent,
                "status": turn.status.value,
            })
        self._refresh_cancel()

    def _call_row(self, record: CallRecord) -> LLMCall:
        return LLMCall(
            debate=self.debate, phase=record.phase.value, round=record.round,
            agent_index=record.agent, attempt=record.attempt, purpose=record.purpose,
            model=record.model, prompt_tokens=record.prompt_tokens,
            completion_tokens=record.completion_tokens, cost_usd=record.cost_usd,
            latency_ms=record.latency_ms, ok=record.ok, error_class=record.error_class or "",
            error=record.error or "",
        )

    @sync_to_async
    def _store_call(self, record: CallRecord) -> None:
        if record.ok:
            self._pending.setdefault((record.phase.value, record.round, record.agent),
                                     []).append(record)
            return
        self._call_row(record).save()
        self._refresh_cancel()

    @sync_to_async
    def _store_event(self, event: EngineEvent) -> None:
        with transaction.atomic():
            metrics = event.data.get("metrics")
            if event.kind == "step_completed" and metrics:
                RoundMetric.objects.update_or_create(
                    debate=self.debate, round=metrics["round"],
                    defaults={k: metrics[k] for k in (
                        "active_agents", "mean_confidence", "dispersion", "confidence_delta",
                        "concessions", "new_arguments", "decision", "explanation")},
                )
            if event.kind == "step_started":
                Debate.objects.filter(pk=self.debate.pk).update(current_step=event.step)
            if event.kind in ("step_started", "step_completed"):
                events.append(self.debate, event.kind, event.model_dump(
                    mode="json", exclude={"kind"}))

    async def on_turn(self, turn: Turn) -> None:
        await self._store_turn(turn)
        if self.also:
            await self.also.on_turn(turn)

    async def on_call(self, record: CallRecord) -> None:
        await self._store_call(record)
        if self.also:
            await self.also.on_call(record)

    async def on_event(self, event: EngineEvent) -> None:
        await self._store_event(event)
        if self.also:
            await self.also.on_event(event)


def usage_of(debate: Debate) -> Usage:
    """Totals from the ledger, by the engine's own rule (``usage_from_calls``), so the
    CLI and stored debates can never disagree on what counts as an unknown cost."""
    fields = ["phase", "round", "attempt", "purpose", "model", "prompt_tokens",
              "completion_tokens", "cost_usd", "latency_ms", "ok"]
    records = [CallRecord(agent=row.pop("agent_index"), **row)
               for row in debate.llm_calls.values("agent_index", *fields)]
    wall = 0.0
    if debate.started_at:
        wall = (timezone.now() - debate.started_at).total_seconds()
    return usage_from_calls(records, wall)


def _fail(debate: Debate, error: str) -> None:
    with transaction.atomic():
        Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES).update(
            status=DebateStatus.FAILED, error=error, finished_at=timezone.now(),
            lease_owner="", lease_expires_at=None, current_step="")
        signals.debate_failed.send(sender=Debate, debate=debate)
        events.append(debate, "debate_failed", {"error": error})


def _finish(debate: Debate, state: DebateState) -> None:
    failure = state.failure()
    usage = usage_of(debate)
    fields: dict[str, Any] = {
        "finished_at": timezone.now(), "lease_owner": "", "lease_expires_at": None,
        "calls": usage.calls, "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens, "cost_usd": usage.cost_usd,
        "wall_time_s": usage.wall_time_s, "current_step": "",
    }
    with transaction.atomic():
        if failure is not None:
            fields.update(status=DebateStatus.FAILED, error=failure)
            kind, payload = "debate_failed", {"error": failure}
        else:
            result = build_result(state, usage)
            Synthesis.objects.update_or_create(
                debate=debate, defaults={"result": result.model_dump(mode="json")})
            fields.update(status=DebateStatus.SUCCEEDED, stop_reason=result.stop_reason.value,
                          stop_explanation=result.stop_explanation, degraded=result.degraded)
            kind, payload = "debate_finished", {"stop_reason": result.stop_reason.value,
                                                "degraded": result.degraded}
        Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES).update(**fields)
        (signals.debate_failed if failure else signals.debate_finished).send(Debate, debate=debate)
        events.append(debate, kind, payload)


def run_next_step(code: uuid.UUID | str, *, worker: str = WORKER_ID,
                  also: EngineHooks | None = None) -> bool:
    """Runs one step of the debate. Returns True when more steps remain (and the
    next has been handed on), False when the debate is finished or not ours."""
    code = uuid.UUID(str(code))
    if not claim(code, worker):
        return False
    debate = Debate.objects.get(code=code)
    state = load_state(debate)
    step = state.next_step()
    if step is None:
        _finish(debate, state)
        return False
    hooks = PersistingHooks(debate, state, worker, also)
    started = time.monotonic()
    try:
        async_to_sync(run_step)(state, step, hooks)
    except Cancelled:
        release(debate.pk, worker)
        return False
    except Exception as exc:
        # A bug, not a provider fault (those become failed turns): retrying would fail
        # the same way every minute, so the debate fails now, saying where and why.
        log.exception("debate %s: %s crashed", code, step.label)
        _fail(debate, f"internal error in {step.label}: {type(exc).__name__}: {exc}")
        return False
    log.info("debate %s: %s in %.1f s", code, step.label, time.monotonic() - started)
    release(debate.pk, worker)
    return True


def run_to_completion(code: uuid.UUID | str, *, also: EngineHooks | None = None) -> None:
    """Runs every step in this process (the CLI's --save path and tests)."""
    while run_next_step(code, also=also):
        pass


def resume_stalled(*, queued_grace_s: int = 60) -> int:
    """Re-queues debates whose worker died (lease expired) or whose queued step was
    lost. Safe to run any time: a debate someone holds a live lease on is skipped."""
    from debates.services import enqueue_step

    now = timezone.now()
    stalled = Debate.objects.filter(
        Q(status=DebateStatus.RUNNING, lease_expires_at__lt=now)
        | Q(status=DebateStatus.RUNNING, lease_expires_at__isnull=True,
            started_at__lt=now - timedelta(seconds=queued_grace_s))
        | Q(status=DebateStatus.QUEUED, lease_expires_at__isnull=True,
            created_at__lt=now - timedelta(seconds=queued_grace_s))
    )
    count = 0
    for debate in stalled:
        with transaction.atomic():
            events.append(debate, "resumed", {"by": "resume_stalled"})
            enqueue_step(debate)
        count += 1
    return count
