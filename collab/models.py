"""Comments and annotations on a debate's synthesis, mentions, and admin reviews."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from debates.models import Debate


class TargetKind(models.TextChoices):
    """What a comment is about: the synthesis as a whole, a quoted passage, or one of
    the parts a protocol's result has (``DebateProtocol.result_parts``): the built-in
    protocols' kinds, with the words the comment form offers them in; a plugin's parts
    may have kinds of their own (docs/teams.md, "Comments")."""

    SYNTHESIS = "synthesis", "The synthesis as a whole"
    RISK = "risk", "A pre-positional risk"
    CONCERN = "concern", "A post-positional concern"
    DISAGREEMENT = "disagreement", "A disagreement"
    RECOMMENDATION = "recommendation", "The recommendation"
    CLAIM = "claim", "A claim to verify"
    QUOTE = "quote", "A quoted passage"
    ISSUE = "issue", "An issue the critic raised"
    TENSION = "tension", "A tension the synthesis names"
    NEXT_STEP = "next_step", "A next step"


# What an action can be about: the synthesis parts that call for someone to do something,
# or the debate as a whole (a general action, ref "").
ACTION_TARGETS = (TargetKind.SYNTHESIS, TargetKind.RISK, TargetKind.CLAIM)


def claim_ref(index: int) -> str:
    """The id of the verifier's ``index``-th claim (0-based): V1, V2, ... in the order
    the synthesis lists them, as risks are R1, R2 ..."""
    return f"V{index + 1}"


class Comment(models.Model):
    """A thread is a comment without a parent; replies point at it. What a thread is
    about (its target) and whether it is resolved live on the thread's first comment."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="debate_comments",
    )
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    # "synthesis", "quote", or the kind of one of the result's parts: any protocol's,
    # a plugin's too, so no fixed choices (TargetKind names the built-ins' kinds).
    target_kind = models.CharField(max_length=20, default=TargetKind.SYNTHESIS)
    # Risk or concern id ("R2", "C1"), disagreement index ("0"), recommendation part
    # ("recommendation", "stakes" ...); empty for the synthesis as a whole and quotes.
    target_ref = models.CharField(max_length=100, blank=True)
    quote = models.TextField(blank=True, help_text="The quoted passage, for quote annotations.")
    quote_offset = models.PositiveIntegerField(null=True, blank=True)
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # An owner hid it from the team (moderation); the text stays, for owners, until
    # they show it again or delete it.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["debate", "parent"])]

    def __str__(self) -> str:
        return f"comment {self.code} on {self.debate_id}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def is_resolved(self) -> bool:
        return self.resolved_at is not None

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class CommentRevision(models.Model):
    """What a comment said before an edit: the history its readers can open. Deleting
    the comment deletes its revisions too (its text is gone for good)."""

    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="revisions")
    body = models.TextField()
    # When this text was written (the comment's creation or the edit before).
    written_at = models.DateTimeField()
    replaced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-replaced_at", "-id"]

    def __str__(self) -> str:
        return f"revision of {self.comment_id} replaced {self.replaced_at:%Y-%m-%d %H:%M}"


class ModerationAction(models.TextChoices):
    HIDE = "hide", "hid"
    SHOW = "show", "showed again"
    DELETE = "delete", "deleted"


class CommentModeration(models.Model):
    """The log of an owner acting on someone else's comment: who, when, what. It keeps
    no text of the comment (a deletion must not survive in the log)."""

    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="moderation")
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="+")
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                  related_name="+")
    comment_author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                       on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=10, choices=ModerationAction.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.moderator} {self.get_action_display()} {self.comment_id}"


class ActionStatus(models.TextChoices):
    OPEN = "open", "Open"
    DONE = "done", "Done"


class Action(models.Model):
    """Someone on the team will do something about a risk, a claim to verify or the
    debate in general, by a date: what turns a synthesis into work."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="actions")
    target_kind = models.CharField(max_length=20, choices=TargetKind.choices)
    target_ref = models.CharField(max_length=100, help_text='A risk id ("R2") or claim id ("V1").')
    title = models.CharField(max_length=300)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                              related_name="debate_actions")
    due_date = models.DateField()
    status = models.CharField(max_length=10, choices=ActionStatus.choices,
                              default=ActionStatus.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)
    done_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["due_date", "id"]
        indexes = [models.Index(fields=["debate", "target_kind", "target_ref"])]

    def __str__(self) -> str:
        return f"action {self.title!r} on {self.about}"

    @property
    def about(self) -> str:
        """The item it hangs on ("R2", "V1"), or "general" for the debate as a whole."""
        return self.target_ref or "general"

    @property
    def is_done(self) -> bool:
        return self.status == ActionStatus.DONE


class ClaimCheck(models.Model):
    """A team member checked one of the verifier's claims, and noted what they found."""

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="claim_checks")
    claim_ref = models.CharField(max_length=10)
    note = models.TextField(blank=True)
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    checked_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["claim_ref"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "claim_ref"], name="claim_check_unique")
        ]

    def __str__(self) -> str:
        return f"claim {self.claim_ref} of {self.debate_id} checked"


class Mention(models.Model):
    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="mentions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="comment_mentions"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["comment", "user"], name="mention_unique")
        ]

    def __str__(self) -> str:
        return f"@{self.user} in {self.comment_id}"


class DebateReview(models.Model):
    """A staff reviewer's verdict on a past debate, written in the admin."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="debate_reviews",
    )
    rating = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(5)], help_text="1 (poor) to 5."
    )
    hallucination = models.BooleanField(default=False)
    unsafe = models.BooleanField(default=False)
    low_quality = models.BooleanField(default=False)
    excellent = models.BooleanField(default=False)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__gte=1, rating__lte=5), name="review_rating_1_to_5"
            )
        ]

    def __str__(self) -> str:
        return f"review of {self.debate_id}: {self.rating}/5"

    @property
    def flags(self) -> list[str]:
        return [f for f in ("hallucination", "unsafe", "low_quality", "excellent")
                if getattr(self, f)]
