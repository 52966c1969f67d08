"""What a worker does with an evaluation: claim it, ask the questions not yet stored,
store each outcome as it arrives, and store the report at the end.

Durable like a debate (docs/execution.md): a lease on the row (one worker at a time,
renewed by a heartbeat however long a question takes), a stored outcome per question
(unique per evaluation and question: a question is never stored twice, and a resumed
run asks only the others), and a sweeper (``resume_stalled``) that re-queues a run
whose worker died. A task runs questions for at most ``batch_seconds()`` and then
queues the next, so no task outlives django-q2's timeout. A question that raises is
a failed question (stored with its message, every arm unanswered), not a dead run.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from debates.engine import (
    ArmAnswer,
    Cancelled,
    EvaluationSpec,
    Question,
    QuestionOutcome,
    evaluate_question,
)
from debates.runtime import lease, shutdown
from debates.runtime.lease import lease_seconds, worker_id
from debates.runtime.reconnect import connection_lost
from evaluations import signals
from evaluations.models import ACTIVE_STATUSES, Evaluation, EvaluationStatus, QuestionResult
from evaluations.queue import enqueue_run
from evaluations.reports import build_report, labelled_set, spec_of

log = logging.getLogger(__name__)
MAX_ERROR_CHARS = 2_000


def batch_seconds() -> float:
    return float(getattr(settings, "COUNCIL_EVALUATION_BATCH_SECONDS", 30))


# ----------------------------------------------------------------------------- the lease
# The debates' lease (debates.runtime.lease) on an evaluation's row.


def claim(code: uuid.UUID, worker: str) -> bool:
    return lease.take(
        Evaluation.objects.filter(code=code, status__in=ACTIVE_STATUSES, cancel_requested=False),
        worker, status=EvaluationStatus.RUNNING,
        started_at=Coalesce(F("started_at"), timezone.now()))


def renew(pk: int, worker: str) -> bool:
    return lease.extend(Evaluation.objects.filter(pk=pk, status=EvaluationStatus.RUNNING),
                        worker)


def release(pk: int, worker: str) -> None:
    lease.hand_on(Evaluation.objects.filter(pk=pk), worker)


# ------------------------------------------------------------------------------ storing


def failed_outcome(question: Question, spec: EvaluationSpec, exc: BaseException) -> QuestionOutcome:
    message = f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]
    return QuestionOutcome(question.id, {arm: ArmAnswer(None) for arm in spec.arms},
                           note=f"failed: {message}")


def _arm_cost(outcome: dict[str, Any]) -> float:
    return sum(float(arm.get("cost_usd") or 0.0) for arm in outcome["arms"].values())


def store_result(pk: int, worker: str, position: int, outcome: QuestionOutcome,
                 error: str = "") -> bool:
    """Stores one question's outcome while the worker still holds the run; False when
    it does not (cancelled, or the lease was lost): the worker then stops."""
    data = outcome.to_json()
    with transaction.atomic():
        row = Evaluation.objects.select_for_update().get(pk=pk)
        if row.status != EvaluationStatus.RUNNING or row.lease_owner != worker:
            return False
        try:
            with transaction.atomic():
                QuestionResult.objects.create(evaluation=row, question_id=outcome.question_id,
                                              position=position, outcome=data, error=error)
        except IntegrityError:
            return True  # stored already (a re-delivered task): nothing twice
        row.done = QuestionResult.objects.filter(evaluation=row).count()
        row.failed_questions += 1 if error else 0
        row.cost_usd += _arm_cost(data)
        row.lease_expires_at = timezone.now() + timedelta(seconds=lease_seconds())
        row.save(update_fields=["done", "failed_questions", "cost_usd", "lease_expires_at",
                                "updated_at"])
    return True


def finish(pk: int, worker: str) -> None:
    with transaction.atomic():
        row = Evaluation.objects.select_for_update().get(pk=pk)
        if row.status != EvaluationStatus.RUNNING or row.lease_owner != worker:
            return
        row.report = build_report(row)
        row.status, row.finished_at = EvaluationStatus.DONE, timezone.now()
        row.lease_owner, row.lease_expires_at = "", timezone.now()
        row.save(update_fields=["report", "status", "finished_at", "lease_owner",
                                "lease_expires_at", "updated_at"])
        signals.evaluation_finished.send(Evaluation, evaluation=row)


def fail(pk: int, error: str) -> None:
    """The run itself broke (not one question): said on the page, the stored
    questions' report kept."""
    with transaction.atomic():
        row = Evaluation.objects.select_for_update().get(pk=pk)
        if row.status not in ACTIVE_STATUSES:
            return
        try:
            row.report = build_report(row)
        except Exception:  # the report is what broke: the error says so
            log.exception("evaluation %s: no report", row.code)
        row.status, row.error = EvaluationStatus.FAILED, error[:MAX_ERROR_CHARS]
        row.finished_at, row.lease_owner = timezone.now(), ""
        row.save(update_fields=["report", "status", "error", "finished_at", "lease_owner",
                                "updated_at"])
        signals.evaluation_finished.send(Evaluation, evaluation=row)


# ------------------------------------------------------------------------------ running


async def _ask(question: Question, spec: EvaluationSpec, pk: int, worker: str
               ) -> QuestionOutcome | None:
    """One question under the heartbeat; None when the run was cancelled meanwhile
    (the question's calls are cancelled too)."""
    try:
        return await lease.hold(evaluate_question(question, spec), lambda: renew(pk, worker))
    except Cancelled:
        return None


def _stored_ids(pk: int) -> set[str]:
    return set(QuestionResult.objects.filter(evaluation_id=pk)
               .values_list("question_id", flat=True))


async def run_batch(code: uuid.UUID, worker: str, budget_s: float) -> bool:
    """Asks the questions not yet stored until the time budget is spent; True when
    some remain (the caller queues the next batch)."""
    row = await sync_to_async(Evaluation.objects.get)(code=code)
    labelled, spec = await sync_to_async(labelled_set)(row), spec_of(row)
    stored = await sync_to_async(_stored_ids)(row.pk)
    pending = [(p, q) for p, q in enumerate(labelled.questions) if q.id not in stored]
    started = time.monotonic()
    for index, (position, question) in enumerate(pending):
        # At least one question per batch, so a batch always gets somewhere.
        if index and (time.monotonic() - started > budget_s or shutdown.requested()):
            return True
        error = ""
        try:
            outcome = await _ask(question, spec, row.pk, worker)
        except Exception as exc:  # the question failed, not the run
            log.warning("evaluation %s: question %s failed: %s", code, question.id, exc)
            outcome, error = failed_outcome(question, spec, exc), f"{type(exc).__name__}: {exc}"
        if outcome is None or not await sync_to_async(store_result)(
                row.pk, worker, position, outcome, error[:MAX_ERROR_CHARS]):
            return False  # cancelled, or no longer ours
    await sync_to_async(finish)(row.pk, worker)
    return False


def run(code: uuid.UUID | str, *, budget_s: float | None = None) -> bool:
    """One task's share of the run: claim, a batch, then hand on. True when the next
    batch was queued."""
    code = uuid.UUID(str(code))
    worker = worker_id()
    if not claim(code, worker):
        return False
    pk = Evaluation.objects.filter(code=code).values_list("pk", flat=True).get()
    try:
        more = async_to_sync(run_batch)(code, worker, batch_seconds() if budget_s is None
                                        else budget_s)
    except DatabaseError as exc:
        if connection_lost(exc):
            raise  # the worker is lost, not the run: the sweeper resumes it
        log.exception("evaluation %s crashed", code)
        fail(pk, f"internal error: {type(exc).__name__}: {exc}")
        return False
    except Exception as exc:
        log.exception("evaluation %s crashed", code)
        fail(pk, f"internal error: {type(exc).__name__}: {exc}")
        return False
    if not more:
        release(pk, worker)
        return False
    with transaction.atomic():
        release(pk, worker)
        enqueue_run(Evaluation.objects.get(pk=pk))
    return True


def resume_stalled(*, queued_grace_s: int = 60) -> int:
    """Re-queues runs whose worker died (lease expired) or whose queued task was lost;
    each by one sweeper only (a conditional UPDATE), as for debates."""
    count = 0
    for row in lease.stalled(
            Evaluation.objects.filter(status__in=ACTIVE_STATUSES, cancel_requested=False),
            queued_grace_s=queued_grace_s):
        with transaction.atomic():
            if not lease.take_stalled_row(Evaluation.objects.filter(status__in=ACTIVE_STATUSES),
                                          row):
                continue
            enqueue_run(row)
        count += 1
    return count
