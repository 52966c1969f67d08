"""What the team decided after a debate, and every earlier version of that decision.

A debate has at most one decision; changing it adds a version (``DecisionVersion``)
so what was decided before, by whom and why stays readable.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from debates.models import Debate


class DecisionState(models.TextChoices):
    DECIDED = "decided", "Decided"
    REVIEW_DUE = "review_due", "Review due"
    REVIEWED = "reviewed", "Reviewed"


class ResultQuality(models.TextChoices):
    """``summary.quality`` of a result (debates.engine.schemas.Quality)."""

    SOUND = "sound", "Sound"
    DOUBTFUL = "doubtful", "Doubtful"
    UNUSABLE = "unusable", "Unusable"


class Decision(models.Model):
    """The team's current decision on a debate. ``option`` is one of the debate's
    options; ``choice`` is another choice in words (then ``option`` is empty)."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    debate = models.OneToOneField(Debate, on_delete=models.CASCADE, related_name="decision")
    option = models.CharField(max_length=200, blank=True)
    choice = models.CharField(max_length=500, blank=True,
                              help_text="Another choice in words, when none of the options.")
    rationale = models.TextField()
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="decisions")
    decided_at = models.DateTimeField()
    # When the team looks back at it; null: no review.
    review_on = models.DateField(null=True, blank=True, db_index=True)
    version = models.PositiveIntegerField(default=1)
    # Set when an outcome is recorded (the outcome lives beside this model): the
    # decision is then "reviewed" and leaves the review queue.
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # The debate result's quality when this version was recorded (docs/teams.md): a
    # decision on a doubtful or unusable result was confirmed as such, and says so.
    result_quality = models.CharField(max_length=10, choices=ResultQuality.choices,
                                      default=ResultQuality.SOUND)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-decided_at", "-id"]

    def __str__(self) -> str:
        return f"decision on {self.debate_id}: {self.label}"

    @property
    def label(self) -> str:
        """What was decided, as the team would say it."""
        return self.option or self.choice

    @property
    def is_free_choice(self) -> bool:
        return not self.option


class DecisionVersion(models.Model):
    """One version of a decision as it was recorded (the current one included)."""

    decision = models.ForeignKey(Decision, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    option = models.CharField(max_length=200, blank=True)
    choice = models.CharField(max_length=500, blank=True)
    rationale = models.TextField()
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField()
    review_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["decision", "version"],
                                    name="decision_version_unique")
        ]

    def __str__(self) -> str:
        return f"version {self.version} of {self.decision_id}"

    @property
    def label(self) -> str:
        return self.option or self.choice


class OutcomeResult(models.TextChoices):
    WORKED = "worked", "Worked"
    MIXED = "mixed", "Mixed"
    FAILED = "failed", "Failed"


class Outcome(models.Model):
    """What a review found: which of the debate's options proved right in hindsight and
    how the decision went. A blank ``right_option`` is "can't tell yet": the review was
    put off to ``review_again_on``. Every review is kept; the latest counts, and
    calibration scores it when it names a right option."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    decision = models.ForeignKey(Decision, on_delete=models.CASCADE, related_name="outcomes")
    right_option = models.CharField(max_length=200, blank=True)
    result = models.CharField(max_length=10, choices=OutcomeResult.choices, blank=True)
    notes = models.TextField(blank=True)
    review_again_on = models.DateField(null=True, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-recorded_at", "-id"]

    def __str__(self) -> str:
        return f"outcome of {self.decision_id}: {self.right_option or 'cannot tell yet'}"

    @property
    def can_tell(self) -> bool:
        return bool(self.right_option)
