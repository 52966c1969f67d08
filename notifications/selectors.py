"""Reads of a user's own notifications (never anyone else's)."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from accounts.models import Membership
from notifications.models import Notification, NotificationSettings


def _visible(user: User) -> QuerySet[Notification]:
    # News about a team the user has left is hidden with the team's other data. A
    # subquery, not a join: no DISTINCT, so counting the unread stays one cheap scan.
    member = Membership.objects.filter(team=OuterRef("team"), user=user)
    return Notification.objects.filter(user=user).filter(Q(team__isnull=True) | Exists(member))


def notification_list(*, user: User, limit: int = 100) -> QuerySet[Notification]:
    return _visible(user).select_related("actor").order_by("-created_at", "-id")[:limit]


def unread_count(*, user: User) -> int:
    return _visible(user).filter(read_at__isnull=True).count()


def notification_of_user(*, user: User, code: uuid.UUID) -> Notification:
    """The user's own notification, or 404 (someone else's does not exist for them)."""
    notification = _visible(user).filter(code=code).first()
    if notification is None:
        raise Http404("no such notification")
    return notification


def settings_for(*, user: User) -> NotificationSettings:
    """The user's settings; an unsaved row with the defaults when they changed nothing."""
    return (NotificationSettings.objects.filter(user=user).first()
            or NotificationSettings(user=user))
