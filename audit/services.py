"""Writing the audit log (docs/teams.md, "Audit log"): ``record`` is called by the
services of every app inside the transaction of the change it records, so a change
that fails or rolls back leaves no event; ``prune`` is the retention sweep."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import router
from django.utils import timezone

from audit.context import caller, system_name
from audit.models import ActorKind, AuditEvent

# The attributes a target may reach its team or debate through (a comment's debate,
# a persona's library, an outcome's decision ...), tried in this order.
_PARENTS = ("debate", "decision", "library", "source", "endpoint", "evaluation")
MAX_DATA_CHARS = 2000


def _field_names(obj: Any) -> set[str]:
    meta = getattr(obj, "_meta", None)
    return {f.name for f in meta.get_fields()} if meta else set()


def _ancestor(obj: Any, label: str, field: str, depth: int = 3) -> Any:
    """The row of model ``label`` that ``obj`` is, or holds in ``field``, or that its
    nearest parent leads to (a comment's debate's team)."""
    if obj is None or depth == 0 or not hasattr(obj, "_meta"):
        return None
    if obj._meta.label == label:
        return obj
    names = _field_names(obj)
    if field in names:
        return getattr(obj, field)
    for name in _PARENTS:
        parent = getattr(obj, name, None) if name in names else None
        if parent is not None:
            return _ancestor(parent, label, field, depth - 1)
    return None


def _team_of(target: Any) -> Any:
    return _ancestor(target, "accounts.Team", "team")


def _debate_code(target: Any) -> Any:
    return getattr(_ancestor(target, "debates.Debate", "debate"), "code", None)


def _actor(user: Any) -> dict[str, Any]:
    """The request's caller (its API token, else its signed-in user); else ``user``
    (a sign-up, a login, a service run for someone); else the system."""
    bound = caller()
    fields: dict[str, Any] = {"ip": bound.ip, "user_agent": bound.user_agent} if bound else {}
    request = bound.request if bound else None
    token = getattr(request, "api_token", None)
    request_user = getattr(request, "user", None)
    if token is not None:
        return {**fields, "actor_kind": ActorKind.TOKEN, "actor_user": token.user,
                "actor": token.user.get_username(), "token_code": token.code,
                "token_name": token.name}
    if request_user is not None and request_user.is_authenticated:
        user = request_user
    if user is not None and getattr(user, "is_authenticated", False):
        return {**fields, "actor_kind": ActorKind.USER, "actor_user": user,
                "actor": user.get_username()}
    if bound:
        return {**fields, "actor_kind": ActorKind.ANONYMOUS, "actor": "anonymous"}
    return {"actor_kind": ActorKind.SYSTEM, "actor": system_name()}


def record(action: str, target: Any = None, *, team: Any = None, user: Any = None,
           kind: str = "", code: Any = None, data: dict[str, Any] | None = None
           ) -> AuditEvent:
    """One event: ``action`` as ``category.operation``, about ``target`` (a model row
    with a ``code``; its kind is the action's category unless ``kind`` says otherwise),
    in ``team`` (default: the target's). ``user`` names the actor when no request is
    bound (a CLI command or a worker run for someone). ``data``: a few small facts,
    never a secret. Call it inside the change's transaction."""
    if team is None:
        team = _team_of(target)
    target_code = code if code is not None else getattr(target, "code", None)
    data = dict(data or {})
    if len(str(data)) > MAX_DATA_CHARS:
        data = {"truncated": True}
    return AuditEvent.objects.create(
        action=action, team=team, target_kind=(kind or action.split(".", 1)[0])
        if target is not None or code is not None else "",
        target_code=str(target_code or ""), debate_code=_debate_code(target), data=data,
        **_actor(user))


def retention() -> timedelta | None:
    days = settings.COUNCIL_AUDIT_RETENTION_DAYS
    return timedelta(days=days) if days else None


def prune(*, now: datetime | None = None) -> int:
    """Deletes events older than the retention setting (none when it is 0); the number
    deleted. The one deliberate way around the append-only guard: a raw delete by age,
    which neither loads the rows nor runs the queryset's refusing ``delete``."""
    keep = retention()
    if keep is None:
        return 0
    old = AuditEvent.objects.filter(at__lt=(now or timezone.now()) - keep)
    return int(old._raw_delete(router.db_for_write(AuditEvent)))
