"""The audit log: one append-only row per change a person (or a script, or a command)
made, written in the same transaction as the change (docs/teams.md, "Audit log").

Rows are never changed or deleted through the ORM: ``save`` of an existing row,
``delete`` and the queryset's ``update``/``delete`` raise ``AuditLogIsAppendOnly``. Only
the retention sweep (``audit.services.prune``) deletes, by age, on a raw path.

Team and actor point at their rows without a database constraint and without cascades:
deleting a team or a user leaves the record of what was done (the actor's name is kept
as text), and no cascade ever rewrites the log.
"""

from __future__ import annotations

import uuid
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.utils import timezone


class AuditLogIsAppendOnly(RuntimeError):
    """Raised by every ORM path that would change or delete an audit event."""


def _refuse(what: str) -> NoReturn:
    raise AuditLogIsAppendOnly(f"The audit log is append-only: {what} is refused.")


class AuditEventQuerySet(models.QuerySet["AuditEvent"]):
    def update(self, **kwargs: Any) -> int:
        _refuse("update")

    def delete(self) -> tuple[int, dict[str, int]]:
        _refuse("delete")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        _refuse("bulk_update")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("update_or_create")


class ActorKind(models.TextChoices):
    USER = "user", "user"
    TOKEN = "token", "API token"
    SYSTEM = "system", "system"
    ANONYMOUS = "anonymous", "anonymous"


class AuditEvent(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    at = models.DateTimeField(default=timezone.now, db_index=True)
    # ``category.operation``: debate.create, member.role_change, token.revoke ...
    action = models.CharField(max_length=64, db_index=True)
    team = models.ForeignKey("accounts.Team", null=True, blank=True, related_name="+",
                             on_delete=models.DO_NOTHING, db_constraint=False)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   related_name="+", on_delete=models.DO_NOTHING,
                                   db_constraint=False)
    # Who, as text that outlives the account: a username, "system: <command>".
    actor = models.CharField(max_length=200)
    # The API token's public code and name, never its secret.
    token_code = models.UUIDField(null=True, blank=True)
    token_name = models.CharField(max_length=100, blank=True)
    target_kind = models.CharField(max_length=32, blank=True)
    target_code = models.CharField(max_length=64, blank=True, db_index=True)
    # The debate the change concerns, if any: its audit trail (admin review, receipts).
    debate_code = models.UUIDField(null=True, blank=True, db_index=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    data = models.JSONField(default=dict, blank=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ("-at", "-id")
        indexes = [models.Index(fields=["team", "-at"], name="audit_team_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            _refuse("changing an event")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("deleting an event")
