"""Worker tasks (django-q2): find who should hear about an event, then tell them.

Each takes ids and reads the rows fresh, so what is sent is what is true when the
worker runs (a deleted comment or a debate that was cancelled meanwhile sends nothing).
Only current members of the debate's team are told anything about it.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from accounts.models import Invitation, Membership
from collab.models import Action, ActionStatus, Comment
from debates.models import Debate, DebateStatus
from decisions.selectors import reviews_due
from decisions.signals import decision_review_due
from notifications.models import Kind, Notification
from notifications.services import Wording, notification_create, send_digests


def _short(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _members(team_id: int, user_ids: set[int]) -> list[User]:
    ids = Membership.objects.filter(team_id=team_id, user_id__in=user_ids).values("user_id")
    return list(User.objects.filter(pk__in=ids, is_active=True))


def notify_debate_outcome(debate_id: int) -> int:
    debate = Debate.objects.select_related("created_by", "team").filter(pk=debate_id).first()
    if (debate is None or debate.created_by_id is None
            or debate.status not in (DebateStatus.SUCCEEDED, DebateStatus.FAILED)):
        return 0
    users = _members(debate.team_id, {debate.created_by_id})
    succeeded = debate.status == DebateStatus.SUCCEEDED
    title = Wording("site.notice.debate_finished" if succeeded else "site.notice.debate_failed",
                    {"question": _short(debate.question)})
    # A failure's error is the worker's own text: shown as written.
    body = (Wording("site.notice.stop_reason", {"reason": debate.stop_reason}) if succeeded
            else Wording("", {}, _short(debate.error, 300)))
    when = debate.finished_at.isoformat() if debate.finished_at else ""
    sent = 0
    for user in users:
        sent += notification_create(
            user=user, kind=Kind.DEBATE_FINISHED if succeeded else Kind.DEBATE_FAILED,
            key=f"debate:{debate.pk}:{debate.status}:{when}", title=title, body=body,
            url=reverse("debates:detail", args=[debate.code]), team=debate.team) is not None
    return sent


def _comment_url(comment: Comment) -> str:
    return reverse("collab:comments", args=[comment.debate.code]) + f"#comment-{comment.code}"


def _live_comment(comment_id: int) -> Comment | None:
    return (Comment.objects.select_related("author", "debate", "parent")
            .filter(pk=comment_id, deleted_at__isnull=True).first())


def notify_mentions(comment_id: int, user_ids: list[int]) -> int:
    comment = _live_comment(comment_id)
    if comment is None:
        return 0
    # Still mentioned when the worker runs (an edit may have removed the mention).
    still = set(comment.mentions.filter(user_id__in=user_ids).values_list("user_id", flat=True))
    return _notify_about(comment, still, Kind.MENTION, "site.notice.mentioned")


def notify_reply(comment_id: int) -> int:
    """Everyone who wrote in the thread before this reply, except its author and those
    it mentions (they hear about it as a mention)."""
    comment = _live_comment(comment_id)
    if comment is None or comment.parent is None:
        return 0
    thread = comment.parent
    earlier = Comment.objects.filter(pk=thread.pk) | Comment.objects.filter(
        parent=thread, pk__lt=comment.pk)
    ids = set(earlier.exclude(author=None).values_list("author_id", flat=True))
    ids -= {comment.author_id}
    ids -= set(comment.mentions.values_list("user_id", flat=True))
    return _notify_about(comment, ids, Kind.REPLY, "site.notice.replied")


def _notify_about(comment: Comment, user_ids: set[int], kind: Kind, title_key: str) -> int:
    """One notification of ``kind`` about ``comment`` to each of ``user_ids`` still in
    its team; the key makes a retried task send nothing twice."""
    author = comment.author.get_username() if comment.author else ""
    sent = 0
    for user in _members(comment.debate.team_id, user_ids):
        sent += notification_create(
            user=user, kind=kind, key=f"{kind.value}:{comment.pk}",
            title=Wording(title_key if author else f"{title_key}_someone",
                          {"who": author, "question": _short(comment.debate.question)}),
            body=Wording("", {}, _short(comment.body, 300)), url=_comment_url(comment),
            team=comment.debate.team, actor=comment.author) is not None
    return sent


def notify_invitation_accepted(invitation_id: int) -> int:
    invitation = (Invitation.objects.select_related("team", "created_by", "accepted_by")
                  .filter(pk=invitation_id, accepted_by__isnull=False).first())
    if invitation is None or invitation.created_by_id is None or invitation.accepted_by is None:
        return 0
    who = invitation.accepted_by.get_username()
    sent = 0
    for user in _members(invitation.team_id, {invitation.created_by_id}):
        sent += notification_create(
            user=user, kind=Kind.INVITATION_ACCEPTED, key=f"invitation:{invitation.pk}",
            title=Wording("site.notice.joined", {"who": who, "team": invitation.team.name,
                                                 "role": invitation.role}),
            url=reverse("accounts:team_detail", args=[invitation.team.code]),
            team=invitation.team, actor=invitation.accepted_by) is not None
    return sent


def notify_action_assigned(action_id: int) -> int:
    """The owner of a new action, if it is still open and theirs when the worker runs."""
    action = (Action.objects.select_related("debate__team", "owner", "created_by")
              .filter(pk=action_id, status=ActionStatus.OPEN).first())
    if action is None or action.owner_id is None:
        return 0
    who = action.created_by.get_username() if action.created_by else ""
    url = reverse("debates:synthesis", args=[action.debate.code]) + f"#action-{action.code}"
    sent = 0
    for user in _members(action.debate.team_id, {action.owner_id}):
        sent += notification_create(
            user=user, kind=Kind.ACTION_ASSIGNED, key=f"action:{action.pk}",
            title=Wording("site.notice.assigned" if who else "site.notice.assigned_someone",
                          {"who": who, "due": f"{action.due_date:%Y-%m-%d}",
                           "title": _short(action.title)}),
            body=_on_item(action), url=url,
            team=action.debate.team, actor=action.created_by) is not None
    return sent


# ------------------------------------------------------------------------ daily follow-up


def _today(today: str | None) -> date:
    return date.fromisoformat(today) if today else timezone.localdate()


def _remind(user: User, key: str, **fields: Any) -> int:
    """1 when ``user`` is told now, 0 when they were told before (or want nothing)."""
    if Notification.objects.filter(user=user, key=key).exists():
        return 0
    return notification_create(user=user, key=key, **fields) is not None


def _on_item(action: Action) -> Wording:
    return Wording("site.notice.on_item", {"about": action.about,
                                           "question": _short(action.debate.question)})


def _action_reminder(action: Action, kind: Kind, title: Wording) -> int:
    url = reverse("debates:synthesis", args=[action.debate.code]) + f"#action-{action.code}"
    sent = 0
    # Keyed by the due date: moved to a later date, the action is reminded of again.
    for user in _members(action.debate.team_id, {action.owner_id} if action.owner_id else set()):
        sent += _remind(
            user, f"{kind.value}:{action.pk}:{action.due_date:%Y-%m-%d}", kind=kind,
            title=title, body=_on_item(action),
            url=url, team=action.debate.team)
    return sent


def remind_actions(today: date) -> int:
    """Owners of open actions due tomorrow, and of overdue ones (once per due date)."""
    open_actions = (Action.objects.filter(status=ActionStatus.OPEN, owner__isnull=False)
                    .select_related("debate__team"))
    sent = 0
    for action in open_actions.filter(due_date=today + timedelta(days=1)):
        sent += _action_reminder(action, Kind.ACTION_DUE, Wording(
            "site.notice.due_tomorrow", {"title": _short(action.title)}))
    for action in open_actions.filter(due_date__lt=today):
        sent += _action_reminder(action, Kind.ACTION_OVERDUE, Wording(
            "site.notice.overdue", {"due": f"{action.due_date:%Y-%m-%d}",
                                    "title": _short(action.title)}))
    return sent


def remind_reviews(today: date) -> int:
    """Whoever decided, for each decision whose review date came (or, when they left
    the team, its owners): once per review date."""
    sent = 0
    for decision in reviews_due(today=today):
        decision_review_due.send(type(decision), decision=decision)
        team_id = decision.debate.team_id
        users = _members(team_id, {decision.decided_by_id} if decision.decided_by_id else set())
        if not users:
            owners = Membership.objects.filter(team_id=team_id, role=Membership.Role.OWNER)
            users = _members(team_id, set(owners.values_list("user_id", flat=True)))
        for user in users:
            sent += _remind(
                user, f"review:{decision.pk}:{decision.review_on:%Y-%m-%d}",
                kind=Kind.REVIEW_DUE,
                title=Wording("site.notice.review_due", {"label": _short(decision.label)}),
                body=Wording("site.notice.decided_after", {
                    "date": f"{decision.decided_at:%Y-%m-%d}",
                    "question": _short(decision.debate.question)}),
                url=reverse("debates:detail", args=[decision.debate.code]) + "#decision",
                team=decision.debate.team)
    return sent


def send_follow_ups(today: str | None = None) -> dict[str, int]:
    """The daily schedule (notifications.schedules): action reminders, decision reviews
    that fell due, then the digests. Every reminder is keyed, so running it twice (a
    retry, a second worker) tells nobody anything twice. ``today`` (ISO date): for
    tests and catch-up runs; default: the site's today."""
    day = _today(today)
    return {"actions": remind_actions(day), "reviews": remind_reviews(day),
            "digests": send_digests()}
