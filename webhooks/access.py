"""Who may see and manage a team's webhooks: its owners only (an endpoint's URL and
log are the team's plumbing, and a change can send its data elsewhere). Outsiders get
the same 404 as for an endpoint that does not exist; editors and viewers get 403."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts.access import Need, not_found, parse_code, require_role
from accounts.models import Membership, Team
from webhooks import selectors
from webhooks.models import Endpoint

OWNERS_ONLY = "Only team owners can manage webhooks."


def _owner(team: Team, request: HttpRequest, need: str) -> None:
    role = require_role(team=team, user=request.user, noun="webhook",
                        need=Need.OWNER if need != Need.READ else Need.READ)
    if role != Membership.Role.OWNER:
        raise PermissionDenied(OWNERS_ONLY)


def team_webhooks_access(request: HttpRequest, team: Team, *, need: str = Need.READ) -> Team:
    """``team`` when the caller owns it (reading needs no write scope of a token)."""
    _owner(team, request, need)
    return team


def endpoint_access(request: HttpRequest, code: object, *, need: str = Need.READ) -> Endpoint:
    """One endpoint of a team the caller owns."""
    endpoint = selectors.endpoint_by_code(code=parse_code(code))
    if endpoint is None:
        raise not_found("webhook")
    _owner(endpoint.team, request, need)
    return endpoint
