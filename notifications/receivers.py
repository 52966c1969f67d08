"""Signal receivers: each hands the work to a worker once the sender's transaction
commits, so a request (a comment, an accepted invitation) never waits on mail."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts import signals as account_signals
from collab import signals as collab_signals
from debates import signals as debate_signals


def enqueue(func: str, *args: Any) -> None:
    """Queue ``notifications.tasks.<func>(*args)`` after commit (nothing on rollback)."""
    def send() -> None:
        from django_q.tasks import async_task

        async_task(f"notifications.tasks.{func}", *args, task_name=f"notify-{func}")

    transaction.on_commit(send)


def _debate_ended(sender: Any, debate: Any, **kwargs: Any) -> None:
    enqueue("notify_debate_outcome", debate.pk)


def _comment_posted(sender: Any, comment: Any, **kwargs: Any) -> None:
    if comment.parent_id is not None:
        enqueue("notify_reply", comment.pk)


def _mentions_added(sender: Any, comment: Any, user_ids: list[int], **kwargs: Any) -> None:
    if user_ids:
        enqueue("notify_mentions", comment.pk, list(user_ids))


def _action_assigned(sender: Any, action: Any, **kwargs: Any) -> None:
    enqueue("notify_action_assigned", action.pk)


def _invitation_accepted(sender: Any, invitation: Any, **kwargs: Any) -> None:
    enqueue("notify_invitation_accepted", invitation.pk)


def connect() -> None:
    uid = "notifications."
    debate_signals.debate_finished.connect(_debate_ended, dispatch_uid=uid + "finished")
    debate_signals.debate_failed.connect(_debate_ended, dispatch_uid=uid + "failed")
    collab_signals.comment_posted.connect(_comment_posted, dispatch_uid=uid + "comment")
    collab_signals.mentions_added.connect(_mentions_added, dispatch_uid=uid + "mentions")
    collab_signals.action_assigned.connect(_action_assigned, dispatch_uid=uid + "action")
    account_signals.invitation_accepted.connect(_invitation_accepted,
                                                dispatch_uid=uid + "invitation")
