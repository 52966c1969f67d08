"""Who may see or change a debate. Every HTML view, API route, websocket connect and
re-run goes through ``debate_access`` (healthchecks' ``_get_check_for_user`` style),
built on the site-wide rule in ``council_site.accounts.access.require_role``.

Outsiders get Http404, not 403: a debate's existence is nobody else's business.
Members who may only read (viewers) get PermissionDenied on writes.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from council_site.accounts.access import WRITE_ROLES, Need, parse_code, require_role
from council_site.accounts.models import Team
from council_site.accounts.selectors import current_team
from debates.models import Debate


def can_write(role: str | None) -> bool:
    return role in WRITE_ROLES


def debate_access(
    *, user: User | AnonymousUser, code: uuid.UUID | str, write: bool = False
) -> tuple[Debate, str]:
    """The debate with public ``code`` and the caller's role in its team."""
    if not user.is_authenticated:
        raise Http404("No such debate.")
    debate = Debate.objects.select_related("team").filter(code=parse_code(code)).first()
    if debate is None:
        raise Http404("No such debate.")
    role = require_role(team=debate.team, user=user, need=Need.WRITE if write else Need.READ)
    return debate, role


def current_team_access(request: HttpRequest, *, write: bool = False) -> tuple[Team, str]:
    """The team the caller is working in (lists, new debates) and their role in it."""
    team = current_team(request)
    if team is None:
        raise PermissionDenied("You are not a member of any team yet.")
    role = require_role(team=team, user=request.user, need=Need.WRITE if write else Need.READ)
    return team, role
