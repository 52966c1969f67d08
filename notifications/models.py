"""What a user is told about (in the app and by mail), and how they want to be told."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from accounts.models import Team
from notifications.wording import worded
from view_kit.site_words import ui


class Kind(models.TextChoices):
    MENTION = "mention", "Mentioned you"
    REPLY = "reply", "Replied to your comment"
    DEBATE_FINISHED = "debate_finished", "Your debate finished"
    DEBATE_FAILED = "debate_failed", "Your debate failed"
    INVITATION_ACCEPTED = "invitation_accepted", "Accepted your invitation"
    ACTION_ASSIGNED = "action_assigned", "Gave you an action"
    ACTION_DUE = "action_due", "Your action is due tomorrow"
    ACTION_OVERDUE = "action_overdue", "Your action is overdue"
    REVIEW_DUE = "review_due", "A decision is due for review"


class Notification(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    # The team the news is about: the list hides it once the user leaves that team.
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    # The English text as written (the admin's, and what a row made before the keys
    # shows); the reader sees ``title_key``/``body_key`` of the site catalogue, filled
    # with their ``*_values``, in their own language (docs/web.md, "Languages").
    title = models.CharField(max_length=300)
    body = models.TextField(blank=True)
    title_key = models.CharField(max_length=100, blank=True)
    title_values = models.JSONField(default=dict, blank=True)
    body_key = models.CharField(max_length=100, blank=True)
    body_values = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=500, help_text="Where the notification leads (a path).")
    # One notification per event, however often a worker retries the task.
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"])]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_unique_event")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.title}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None

    def title_in(self, language: str | None = None) -> str:
        """The title in ``language`` (the active one when None); the stored text when
        the row has no key (made before them) or the catalogue cannot word it."""
        return worded(self.title_key, self.title_values, language) or self.title

    def body_in(self, language: str | None = None) -> str:
        return worded(self.body_key, self.body_values, language) or self.body

    @property
    def shown_title(self) -> str:
        return self.title_in()

    @property
    def shown_body(self) -> str:
        return self.body_in()

    @property
    def kind_words(self) -> str:
        return ui(f"site.notifications.kind.{self.kind}")


class Channel(models.TextChoices):
    OFF = "off", "Off"
    APP = "app", "In the app"
    EMAIL = "email", "In the app and by email"


class NotificationSettings(models.Model):
    """One row per user who changed something; missing means the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_settings")
    mentions = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    replies = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    debates = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL,
                               help_text="A debate you started finished or failed.")
    invitations = models.CharField(max_length=10, choices=Channel.choices,
                                   default=Channel.EMAIL,
                                   help_text="Someone accepted an invitation you created.")
    follow_up = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL,
                                 help_text="Reminders: your actions due tomorrow or overdue, "
                                           "decisions due for review.")
    # Mail once a day, everything not yet mailed in one message, instead of one mail
    # per event (30 debates finishing = 30 mails otherwise).
    email_digest = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"notification settings of {self.user}"

    def channel(self, kind: str) -> str:
        return getattr(self, SETTING_OF_KIND[Kind(kind)])


SETTING_OF_KIND = {
    Kind.MENTION: "mentions", Kind.REPLY: "replies", Kind.DEBATE_FINISHED: "debates",
    Kind.DEBATE_FAILED: "debates", Kind.INVITATION_ACCEPTED: "invitations",
    # Being given an action is being named by a teammate, as a mention is.
    Kind.ACTION_ASSIGNED: "mentions",
    Kind.ACTION_DUE: "follow_up", Kind.ACTION_OVERDUE: "follow_up",
    Kind.REVIEW_DUE: "follow_up",
}
