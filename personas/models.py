"""Team persona libraries with a version history per persona.

A persona's fields mirror the engine's ``Persona`` so a library persona can be
handed to a debate as is; each create, edit or restore stores a full snapshot in
``PersonaVersion``, which is what history, diffs and restore read.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from accounts.models import Team
from debates.engine import PERSONA_MODEL_MAX, PERSONA_NAME_MAX, Persona

# The persona fields a library stores, in the order files and forms show them.
PERSONA_FIELDS = ("name", "background", "expertise", "approach", "bias", "model", "temperature")


class PersonaLibrary(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="persona_libraries")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    archived = models.BooleanField(default=False)
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["archived", "name", "id"]
        verbose_name_plural = "persona libraries"
        constraints = [
            # The picker and the debate list name libraries; two alike would be ambiguous.
            models.UniqueConstraint(
                Lower("name"), "team", name="library_unique_name_in_team"
            )
        ]

    def __str__(self) -> str:
        return self.name


class LibraryPersona(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    library = models.ForeignKey(PersonaLibrary, on_delete=models.CASCADE, related_name="personas")
    # Text fields stay TextField: the engine's Persona (PERSONA_TEXT_MAX) limits them on the
    # way in; the columns only mirror the limits a database can enforce cheaply.
    name = models.CharField(max_length=PERSONA_NAME_MAX)
    background = models.TextField()
    expertise = models.TextField()
    approach = models.TextField()
    bias = models.TextField()
    model = models.CharField(max_length=PERSONA_MODEL_MAX, blank=True,
                             help_text="Overrides the debate's model.")
    temperature = models.FloatField(null=True, blank=True)
    archived = models.BooleanField(default=False)
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["archived", "name", "id"]
        constraints = [
            # Debates refuse two personas with the same name, so a library does too.
            models.UniqueConstraint(
                Lower("name"), "library", name="persona_unique_name_in_library"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def as_persona(self) -> Persona:
        """The engine's persona: what a debate and a persona file receive."""
        return Persona(
            name=self.name, background=self.background, expertise=self.expertise,
            approach=self.approach, bias=self.bias, model=self.model or None,
            temperature=self.temperature,
        )


class PersonaVersion(models.Model):
    persona = models.ForeignKey(LibraryPersona, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    data = models.JSONField(help_text="The persona as the engine's Persona, at this version.")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["persona", "number"], name="persona_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.persona} v{self.number}"
