"""When a debate started from Slack ends, a worker posts its result: the receiver
only queues that task once the ending commits (debates/signals.py)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from debates import signals as debate_signals
from integrations.models import SlackCommand

POST_RESULT = "integrations.slack.tasks.post_result"


def _debate_ended(sender: Any, debate: Any, **kwargs: Any) -> None:
    if not SlackCommand.objects.filter(debate_id=debate.pk, posted_at__isnull=True).exists():
        return
    debate_id = debate.pk

    def send() -> None:
        from django_q.tasks import async_task

        async_task(POST_RESULT, debate_id, task_name=f"slack-result-{debate_id}")

    transaction.on_commit(send)


def connect() -> None:
    uid = "integrations.slack."
    debate_signals.debate_finished.connect(_debate_ended, dispatch_uid=uid + "finished")
    debate_signals.debate_failed.connect(_debate_ended, dispatch_uid=uid + "failed")
