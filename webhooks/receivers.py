"""Signal receivers: each queues ``webhooks.tasks.announce`` once the sender's
transaction commits, so the debate step, request or worker that sent the signal
neither builds the event nor waits on a receiver (docs/integrations.md, "Webhooks")."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from debates import signals as debate_signals
from decisions import signals as decision_signals
from evaluations import signals as evaluation_signals
from sources import signals as source_signals

ANNOUNCE = "webhooks.tasks.announce"


def enqueue(kind: str, pk: int) -> None:
    """Queue the event of ``kind`` about row ``pk`` after commit (nothing on rollback).
    ``robust``: a broker that refuses is logged, never the sender's failure."""
    def send() -> None:
        from django_q.tasks import async_task

        async_task(ANNOUNCE, kind, pk, task_name=f"webhook-{kind}-{pk}")

    transaction.on_commit(send, robust=True)


def _debate_ended(sender: Any, debate: Any, **kwargs: Any) -> None:
    enqueue("debate", debate.pk)


def _decision_recorded(sender: Any, decision: Any, **kwargs: Any) -> None:
    enqueue("decision", decision.pk)


def _review_due(sender: Any, decision: Any, **kwargs: Any) -> None:
    enqueue("review", decision.pk)


def _outcome_recorded(sender: Any, outcome: Any, **kwargs: Any) -> None:
    enqueue("outcome", outcome.pk)


def _evaluation_finished(sender: Any, evaluation: Any, **kwargs: Any) -> None:
    enqueue("evaluation", evaluation.pk)


def _source_settled(sender: Any, version: Any, **kwargs: Any) -> None:
    enqueue("source", version.pk)


def connect() -> None:
    uid = "webhooks."
    debate_signals.debate_finished.connect(_debate_ended, dispatch_uid=uid + "finished")
    debate_signals.debate_failed.connect(_debate_ended, dispatch_uid=uid + "failed")
    debate_signals.debate_cancelled.connect(_debate_ended, dispatch_uid=uid + "cancelled")
    decision_signals.decision_recorded.connect(_decision_recorded, dispatch_uid=uid + "decision")
    decision_signals.decision_review_due.connect(_review_due, dispatch_uid=uid + "review")
    decision_signals.outcome_recorded.connect(_outcome_recorded, dispatch_uid=uid + "outcome")
    evaluation_signals.evaluation_finished.connect(_evaluation_finished,
                                                   dispatch_uid=uid + "evaluation")
    source_signals.source_settled.connect(_source_settled, dispatch_uid=uid + "source")
