"""Who reads a team's audit log: its owners (and the site's admin, in the Django
admin). Editors and viewers get 403; outsiders the 404 of a team that is not theirs."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts.access import Need, current_team_access, require_role, team_access
from accounts.models import Membership, Team

OWNERS_ONLY = "Only team owners can read the team's audit log."


def _owner(team: Team, request: HttpRequest) -> Team:
    if require_role(team=team, user=request.user, noun="team") != Membership.Role.OWNER:
        raise PermissionDenied(OWNERS_ONLY)
    return team


def team_audit_access(request: HttpRequest, code: object) -> Team:
    """The team ``code`` names, when the caller owns it (reading: no write scope)."""
    team, _ = team_access(request, code, need=Need.READ)
    return _owner(team, request)


def current_team_audit_access(request: HttpRequest) -> Team:
    """The caller's current team (the API's), when the caller owns it."""
    team, _ = current_team_access(request)
    return _owner(team, request)
