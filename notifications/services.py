"""Writes on notifications: create-and-deliver (in workers), mark read, settings."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from notifications.models import Channel, Notification, NotificationSettings
from notifications.selectors import settings_for

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from accounts.models import Team

logger = logging.getLogger(__name__)


def notification_create(
    *,
    user: User,
    kind: str,
    key: str,
    title: str,
    url: str,
    team: Team | None = None,
    actor: User | None = None,
    body: str = "",
) -> Notification | None:
    """Records the news for ``user`` and mails it if they asked for mail. Called from
    worker tasks: idempotent per (user, key), so a retried task neither duplicates the
    notification nor sends a second mail. None when the user turned this kind off."""
    channel = settings_for(user=user).channel(kind)
    if channel == Channel.OFF:
        return None
    notification, _ = Notification.objects.get_or_create(
        user=user, key=key,
        defaults={"kind": kind, "title": title[:300], "body": body, "url": url,
                  "team": team, "actor": actor})
    if channel == Channel.EMAIL and notification.emailed_at is None and user.email:
        _mail(notification, user.email)
    return notification


def _mail(notification: Notification, address: str) -> None:
    link = f"{settings.COUNCIL_SITE_URL.rstrip('/')}{notification.url}"
    text = "\n\n".join(p for p in (notification.title, notification.body, link) if p)
    send_mail(subject=f"[Council] {notification.title}"[:200],
              message=text + "\n\nChange what you are told at "
              f"{settings.COUNCIL_SITE_URL.rstrip('/')}/notifications/settings\n",
              from_email=None, recipient_list=[address])
    # Marked only after the backend accepted it: a failure leaves it to the retry.
    Notification.objects.filter(pk=notification.pk).update(emailed_at=timezone.now())


def notification_mark_read(*, notification: Notification) -> Notification:
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def notifications_mark_all_read(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now())


@transaction.atomic
def notification_settings_update(*, user: User, **channels: str) -> \
        NotificationSettings:
    """Sets the channel (off, app, email) of the given kinds: mentions, replies,
    debates, invitations."""
    allowed = {"mentions", "replies", "debates", "invitations"}
    unknown = set(channels) - allowed
    if unknown:
        raise ValueError(f"Unknown notification settings: {', '.join(sorted(unknown))}")
    for name, value in channels.items():
        if value not in Channel.values:
            raise ValueError(f"{name}: expected one of {', '.join(Channel.values)}")
    row, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    for name, value in channels.items():
        setattr(row, name, value)
    row.save()
    return row
