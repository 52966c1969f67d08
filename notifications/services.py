"""Writes on notifications: create-and-deliver (in workers), mark read, settings."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from accounts.language import user_language
from audit.services import record
from notifications.models import Channel, Notification, NotificationSettings
from notifications.selectors import settings_for
from notifications.wording import worded
from view_kit.site_words import ENGLISH, ui

if TYPE_CHECKING:
    from accounts.models import Team

logger = logging.getLogger(__name__)


class Wording(NamedTuple):
    """A title or body as a site-catalogue key and its values, worded in each reader's
    language when shown (``notifications.wording``); ``text`` is what has no key (a
    comment's words, a worker's error), shown as written."""

    key: str
    values: dict[str, Any]
    text: str = ""

    def english(self) -> str:
        return worded(self.key, self.values, ENGLISH) or self.text


def _wording(value: str | Wording) -> Wording:
    return value if isinstance(value, Wording) else Wording("", {}, value)


def notification_create(
    *,
    user: User,
    kind: str,
    key: str,
    title: str | Wording,
    url: str,
    team: Team | None = None,
    actor: User | None = None,
    body: str | Wording = "",
) -> Notification | None:
    """Records the news for ``user`` and mails it if they asked for mail. Called from
    worker tasks: idempotent per (user, key), so a retried task neither duplicates the
    notification nor sends a second mail. None when the user turned this kind off."""
    prefs = settings_for(user=user)
    channel = prefs.channel(kind)
    if channel == Channel.OFF:
        return None
    heading, text = _wording(title), _wording(body)
    notification, _ = Notification.objects.get_or_create(
        user=user, key=key,
        defaults={"kind": kind, "title": heading.english()[:300], "body": text.english(),
                  "title_key": heading.key, "title_values": heading.values,
                  "body_key": text.key, "body_values": text.values,
                  "url": url, "team": team, "actor": actor})
    # A digest reader gets it in the day's digest (send_digests) instead.
    if (channel == Channel.EMAIL and not prefs.email_digest
            and notification.emailed_at is None and user.email):
        _mail(notification, user.email)
    return notification


def site_link(path: str) -> str:
    """``path`` on the configured site (COUNCIL_SITE_URL), for links in mail."""
    return f"{settings.COUNCIL_SITE_URL.rstrip('/')}{path}"


def _settings_line(language: str) -> str:
    return "\n\n" + ui("site.notice.mail.settings", language,
                       url=site_link("/notifications/settings")) + "\n"


def _mail_language(user: User) -> str:
    """The reader's own setting; a worker has no browser to ask, so else English."""
    return user_language(user) or ENGLISH


def _mail(notification: Notification, address: str) -> None:
    language = _mail_language(notification.user)
    link = site_link(notification.url)
    title = notification.title_in(language)
    text = "\n\n".join(p for p in (title, notification.body_in(language), link) if p)
    send_mail(subject=f"[Council] {title}"[:200],
              message=text + _settings_line(language), from_email=None,
              recipient_list=[address])
    # Marked only after the backend accepted it: a failure leaves it to the retry.
    Notification.objects.filter(pk=notification.pk).update(emailed_at=timezone.now())


def send_digests() -> int:
    """One mail per digest reader with every notification not mailed yet whose kind
    they want by mail; each is marked mailed, so a second run sends nothing. Returns
    the number of mails sent."""
    readers = User.objects.filter(notification_settings__email_digest=True, is_active=True
                                  ).exclude(email="").select_related("notification_settings")
    sent = 0
    for user in readers:
        prefs = user.notification_settings
        pending = [n for n in Notification.objects.filter(user=user, emailed_at__isnull=True)
                   .order_by("created_at", "id") if prefs.channel(n.kind) == Channel.EMAIL]
        if not pending:
            continue
        language = _mail_language(user)
        lines = [f"- {n.title_in(language)}\n  {site_link(n.url)}" for n in pending]
        send_mail(subject="[Council] " + ui("site.notice.mail.digest", language,
                                            n=len(pending)),
                  message="\n".join(lines) + _settings_line(language), from_email=None,
                  recipient_list=[user.email])
        Notification.objects.filter(pk__in=[n.pk for n in pending]).update(
            emailed_at=timezone.now())
        sent += 1
    return sent


def notification_mark_read(*, notification: Notification) -> Notification:
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def notifications_mark_all_read(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now())


@transaction.atomic
def notification_settings_update(*, user: User, **channels: Any) -> NotificationSettings:
    """Sets the channel (off, app, email) of the given kinds: mentions, replies,
    debates, invitations, follow_up; and ``email_digest`` (True: one mail a day)."""
    allowed = {"mentions", "replies", "debates", "invitations", "follow_up"}
    digest = channels.pop("email_digest", None)
    unknown = set(channels) - allowed
    if unknown:
        raise ValueError(f"Unknown notification settings: {', '.join(sorted(unknown))}")
    for name, value in channels.items():
        if value not in Channel.values:
            raise ValueError(f"{name}: expected one of {', '.join(Channel.values)}")
    row, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    for name, value in channels.items():
        setattr(row, name, value)
    if digest is not None:
        row.email_digest = bool(digest)
    row.save()
    record("notification.settings_change", user=user, kind="user", code=user.get_username(),
           data={**channels, **({"email_digest": bool(digest)} if digest is not None else {})})
    return row
