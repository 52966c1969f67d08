"""Access helpers for sources: the object and the caller's role (accounts.access rules:
outsiders 404, viewers read, editors and owners write)."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.access import Need, not_found, parse_code, require_role
from sources.models import Source


def source_access(request: HttpRequest, code: object, *,
                  need: str = Need.READ) -> tuple[Source, str]:
    if not request.user.is_authenticated:
        raise not_found("source")
    source = Source.objects.select_related("team").filter(code=parse_code(code)).first()
    if source is None:
        raise not_found("source")
    return source, require_role(team=source.team, user=request.user, noun="source", need=need)
