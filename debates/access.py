"""Who may see or change a debate. Every HTML view, API route, websocket connect and
re-run goes through ``debate_access`` (healthchecks' ``_get_check_for_user`` style),
built on the site-wide rule in ``accounts.access.require_role``.

Outsiders get Http404, not 403: a debate's existence is nobody else's business.
Members who may only read (viewers) get PermissionDenied on writes.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest

from accounts import access as accounts_access
from accounts.access import WRITE_ROLES, Need, not_found, parse_code, require_role
from accounts.models import Team
from debates.models import Debate


def can_write(role: str | None) -> bool:
    return role in WRITE_ROLES


def debate_access(
    *, user: User | AnonymousUser, code: uuid.UUID | str, write: bool = False
) -> tuple[Debate, str]:
    """The debate with public ``code`` and the caller's role in its team."""
    if not user.is_authenticated:
        raise not_found("debate")
    debate = Debate.objects.select_related("team").filter(code=parse_code(code)).first()
    if debate is None:
        raise not_found("debate")
    role = require_role(team=debate.team, user=user, noun="debate",
                        need=Need.WRITE if write else Need.READ)
    return debate, role


def current_team_access(request: HttpRequest, *, write: bool = False) -> tuple[Team, str]:
    """The team the caller is working in (lists, new debates) and their role in it."""
    return accounts_access.current_team_access(request, need=Need.WRITE if write else Need.READ)
