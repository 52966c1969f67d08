"""Stores what the engine produces, the moment it produces it: turns, the call
ledger and the event log (``PersistingHooks``). What the engine derives from the turns
(a round's metrics, say) is derived again when read, never stored twice."""

from __future__ import annotations

import logging

from asgiref.sync import sync_to_async
from django.db import IntegrityError, transaction

from debates import event_log
from debates.engine import (
    CallRecord,
    DebateState,
    EngineEvent,
    EngineEventKind,
    EngineHooks,
    Turn,
    get_protocol,
)
from debates.models import Debate, LLMCall
from debates.models import Turn as TurnRow
from debates.runtime.lease import renew
from debates.runtime.state_rows import snapshot_agents

log = logging.getLogger(__name__)


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
        self._cancelled = not renew(self.debate.pk, self.worker)

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
                        compaction=turn.compaction, offered=list(turn.offered),
                        cut=list(turn.cut), repaired=turn.repaired,
                    )
                superseded = False
            except IntegrityError:
                # Already stored by another delivery of this step: the first copy stays,
                # and this one's paid calls are kept as superseded, since spend counts.
                log.warning("turn %s of %s already stored: this copy is superseded",
                            turn.key, self.debate.code)
                superseded = True
                pending = [r.model_copy(update={"purpose": "superseded"}) for r in pending]
            LLMCall.objects.bulk_create([self._call_row(r) for r in pending])
            if superseded:
                return
            if get_protocol(self.state.config.protocol).sets_panel(turn):
                snapshot_agents(self.debate, self.state)
            event_log.append(self.debate, "turn", {
                "phase": turn.phase.value, "round": turn.round, "agent": turn.agent,
                "status": turn.status.value,
            })
        self._refresh_cancel()

    def _call_row(self, record: CallRecord) -> LLMCall:
        return LLMCall(
            debate=self.debate, phase=record.phase.value, round=record.round,
            agent_index=record.agent, attempt=record.attempt, purpose=record.purpose,
            model=record.model, prompt_tokens=record.prompt_tokens,
            completion_tokens=record.completion_tokens,
            cached_prompt_tokens=record.cached_prompt_tokens, cost_usd=record.cost_usd,
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
            # Step events are written only under the lease: a worker cut off and back
            # after another took the step over must not log it a second time.
            if not renew(self.debate.pk, self.worker):
                self._cancelled = True
                return
            if event.kind is EngineEventKind.STEP_STARTED:
                Debate.objects.filter(pk=self.debate.pk).update(current_step=event.step)
            if event.kind in (EngineEventKind.STEP_STARTED, EngineEventKind.STEP_COMPLETED):
                event_log.append(self.debate, event.kind, event.model_dump(
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
