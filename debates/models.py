"""The full history of every debate: what was asked, who answered, what it cost.

Agents are snapshots: a persona is copied in, so later library edits never
rewrite history. Turns hold validated payloads exactly as the engine produced
them; the synthesis and totals are what the engine computed from those (a round's
metrics are derived from the turns again when read).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models

from accounts.models import Team


class DebateStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


ACTIVE_STATUSES = (DebateStatus.QUEUED, DebateStatus.RUNNING)


class Debate(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="debates")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="debates",
    )
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reruns"
    )
    question = models.TextField()
    context = models.TextField(blank=True)
    protocol = models.CharField(max_length=20, default="council")
    mode = models.CharField(max_length=10)
    settings = models.JSONField(help_text="The engine's DebateConfig, every setting used.")
    given_personas = models.JSONField(default=list, blank=True)
    prompt_version = models.CharField(max_length=20)
    simulated = models.BooleanField(default=False)

    status = models.CharField(
        max_length=10, choices=DebateStatus.choices, default=DebateStatus.QUEUED, db_index=True
    )
    current_step = models.CharField(max_length=30, blank=True)
    stop_reason = models.CharField(max_length=30, blank=True, db_index=True)
    stop_explanation = models.TextField(blank=True)
    error = models.TextField(blank=True)
    degraded = models.BooleanField(default=False)
    stop_requested = models.BooleanField(default=False)
    forced_rounds = models.PositiveSmallIntegerField(default=0)

    # A worker owns the debate while it runs a step; an expired lease means the
    # worker died and the sweeper may hand the debate to another.
    lease_owner = models.CharField(max_length=100, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    last_event_seq = models.PositiveIntegerField(default=0)

    calls = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)
    # The worst-case estimate at creation (after one more round: what it had cost plus
    # the round's estimate): a queued or running debate reserves it against the
    # team's monthly budget until its ledger is totalled (null: no price).
    estimated_cost_usd = models.FloatField(null=True, blank=True)
    wall_time_s = models.FloatField(default=0.0)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.question[:80]

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES


class Agent(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="agents")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=200)
    persona = models.JSONField()
    model = models.CharField(max_length=200)
    source_persona_id = models.UUIDField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "index"], name="agent_unique_index")
        ]

    def __str__(self) -> str:
        return self.name


class Turn(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="turns")
    # Any registered phase (each protocol registers its own, plugins too), no fixed
    # choices: the engine refuses an unknown one when it reads.
    phase = models.CharField(max_length=20)
    round = models.PositiveSmallIntegerField(default=0)
    agent_index = models.SmallIntegerField(default=-1, help_text="-1 for panel-wide calls")
    status = models.CharField(max_length=10)
    payload = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    model = models.CharField(max_length=200, blank=True)
    # How far the prompt was shortened to fit the model's context (0 = not at all).
    compaction = models.PositiveSmallIntegerField(default=0)
    # The source passages the call was shown (their ids, "S2.14"): what makes a
    # citation "offered" (turns stored before the column were given theirs by
    # migration 0014).
    offered = models.JSONField(default=list, blank=True)
    # The payload's text fields cut at the bound the server was sent, by path, and
    # whether the payload came from a content repair (None: none asked; engine's Turn).
    cut = models.JSONField(default=list, blank=True)
    repaired = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # The idempotency guarantee: one turn per (phase, round, agent), ever.
            models.UniqueConstraint(
                fields=["debate", "phase", "round", "agent_index"], name="turn_unique_slot"
            )
        ]

    def __str__(self) -> str:
        return f"{self.phase} r{self.round} a{self.agent_index}"


class LLMCall(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="llm_calls")
    phase = models.CharField(max_length=20)
    round = models.PositiveSmallIntegerField(default=0)
    agent_index = models.SmallIntegerField(default=-1)
    attempt = models.PositiveSmallIntegerField()
    purpose = models.CharField(max_length=10)
    model = models.CharField(max_length=200)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    # Of the prompt tokens, those a provider's prompt cache served (billed cheaper;
    # docs/engine.md, "Sources").
    cached_prompt_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.FloatField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    ok = models.BooleanField()
    error_class = models.CharField(max_length=100, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.model} #{self.attempt} ({'ok' if self.ok else self.error_class})"


def result_text(value: object) -> str:
    """Every string value of a stored result, one per line: what the debate list
    searches. Keys and numbers are left out, so "risks" or "0.6" find nothing."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return "\n".join(t for t in map(result_text, value) if t)
    return ""


class Synthesis(models.Model):
    debate = models.OneToOneField(Debate, on_delete=models.CASCADE, related_name="synthesis")
    result = models.JSONField(help_text="The result of the debate's protocol.")
    # Derived from ``result`` on every save (plain text, so SQLite's LIKE and
    # PostgreSQL's to_tsvector read the words, not JSON escapes).
    search_text = models.TextField(blank=True, default="", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"synthesis of {self.debate_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_text = result_text(self.result)
        fields = kwargs.get("update_fields")
        if fields is not None and "result" in fields:
            kwargs["update_fields"] = {*fields, "search_text"}
        super().save(*args, **kwargs)


class EarlierSynthesis(models.Model):
    """A synthesis that "One more round" replaced: kept, so readers can see what the
    debate concluded before the extra round and what the round changed."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE,
                               related_name="earlier_syntheses")
    rounds_completed = models.PositiveSmallIntegerField()
    result = models.JSONField(help_text="The result of the debate's protocol, as it was.")
    created_at = models.DateTimeField(help_text="When this synthesis was written.")
    replaced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-replaced_at", "-id"]
        verbose_name_plural = "earlier syntheses"

    def __str__(self) -> str:
        return f"synthesis of {self.debate_id} after {self.rounds_completed} round(s)"


class DebateEvent(models.Model):
    """The durable event log: the source of truth for live pages."""

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["debate", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "seq"], name="event_unique_seq")
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"
