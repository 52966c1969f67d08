"""A team's source library: documents a debate argues from, each with its versions.

Like the persona libraries (personas/models.py), an entry (``Source``) keeps every
version it had; a debate links to the version it read (``DebateSource``), so a new
upload never changes what a past debate was given. The file is kept through Django's
storage API (docs/configuration.md, "Stored files"); the text is extracted once, by a
worker, into ``SourceVersion.text``.
"""

from __future__ import annotations

import uuid
from pathlib import PurePath

from django.conf import settings
from django.db import models

from accounts.models import Team
from debates.models import Debate


class SourceStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be read"
    EXTRACTING = "extracting", "Being read"
    READY = "ready", "Ready"
    REFUSED = "refused", "Refused"


class Source(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="sources")
    title = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title", "id"]

    def __str__(self) -> str:
        return self.title

    @property
    def current(self) -> SourceVersion | None:
        # The prefetched versions when a list has them (selectors.team_sources, newest
        # first), else one query.
        prefetched = getattr(self, "_prefetched_objects_cache", {}).get("versions")
        if prefetched is not None:
            return max(prefetched, key=lambda v: v.number, default=None)
        return self.versions.order_by("-number").first()


def _path(version: SourceVersion, filename: str) -> str:
    # One folder per team: a bucket policy or a quota tool can work per team.
    suffix = PurePath(filename).suffix.lower()[:10]
    return f"sources/{version.source.team.code}/{version.code}{suffix}"


class SourceVersion(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    # Emptied when the file is refused or deleted: only what is read is kept.
    file = models.FileField(upload_to=_path, max_length=300, blank=True)
    filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=10)
    status = models.CharField(max_length=10, choices=SourceStatus.choices,
                              default=SourceStatus.PENDING)
    text = models.TextField(blank=True)
    error = models.TextField(blank=True)
    note = models.CharField(max_length=300, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    extracted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["source", "number"], name="source_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.source} v{self.number}"

    @property
    def settled(self) -> bool:
        return self.status in (SourceStatus.READY, SourceStatus.REFUSED)


class DebateSource(models.Model):
    """The debate's ``position``-th source: its id in the debate is S<position>."""

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="source_links")
    position = models.PositiveSmallIntegerField()
    # A source deleted from the library leaves the link (and its title) behind, so the
    # other sources keep their ids.
    version = models.ForeignKey(SourceVersion, null=True, on_delete=models.SET_NULL,
                                related_name="debate_links")
    title = models.CharField(max_length=300)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "position"],
                                    name="debate_source_unique_position")
        ]

    def __str__(self) -> str:
        return f"S{self.position} {self.title}"

    @property
    def source_id(self) -> str:
        return f"S{self.position}"
