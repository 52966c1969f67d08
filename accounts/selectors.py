"""Reads for teams and memberships."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.db.models import F, QuerySet

from accounts.models import (
    ApiToken,
    Invitation,
    Membership,
    Team,
    VerifiedEmail,
    invitation_digest,
)
from accounts.token_scope import team_scope

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.http import HttpRequest

# The session key holding the code of the team the user switched to.
SESSION_TEAM_KEY = "team_code"
# Scripts have no session to switch teams in: they name the team per request.
TEAM_HEADER = "X-Council-Team"


def team_for_user(*, user: User | AnonymousUser,
                  memberships: list[Membership] | None = None) -> Team | None:
    """The user's default team: the one they joined first, or None. ``memberships``
    are the user's (``memberships_of_user``) when the caller has them already."""
    if not user.is_authenticated:
        return None
    if memberships is None:
        memberships = list(memberships_of_user(user=user))
    first = min(memberships, key=lambda m: (m.created_at, m.id), default=None)
    return first.team if first else None


def current_team(request: HttpRequest,
                 memberships: list[Membership] | None = None) -> Team | None:
    """The team named by the ``X-Council-Team`` header (scripts), else the team the user
    switched to in this session if they still belong to it, else their default team
    (``team_for_user``). ``memberships`` are the user's (``memberships_of_user``) when
    the caller has them already: one query either way."""
    user = request.user
    if not user.is_authenticated:
        return None
    if memberships is None:
        memberships = list(memberships_of_user(user=user))
    teams = {str(m.team.code): m.team for m in memberships}
    header = request.headers.get(TEAM_HEADER)
    if header:
        # A team named explicitly that the caller does not belong to is no team at all,
        # never a silent fall-back to another one.
        try:
            return teams.get(str(uuid.UUID(header)))
        except ValueError:
            return None
    code = request.session.get(SESSION_TEAM_KEY)
    if code:
        if code in teams:
            return teams[code]
        # A stale choice (removed from the team, team deleted) is forgotten.
        request.session.pop(SESSION_TEAM_KEY, None)
    return team_for_user(user=user, memberships=memberships)


def membership_role(*, team: Team, user: User | AnonymousUser) -> str | None:
    """The user's role in ``team`` (a ``Membership.Role`` value), or None for outsiders
    (and, for a caller whose API token is limited to another team, None as well)."""
    if not user.is_authenticated:
        return None
    scope = team_scope(user)
    if scope is not None and scope != team.pk:
        return None
    return Membership.objects.filter(team=team, user=user).values_list("role", flat=True).first()


def memberships_of_user(*, user: User | AnonymousUser) -> QuerySet[Membership]:
    """Every team the user belongs to, with their role, by name (only the token's team
    when the caller's API token is limited to one)."""
    if not user.is_authenticated:
        return Membership.objects.none()
    memberships = Membership.objects.filter(user=user)
    scope = team_scope(user)
    if scope is not None:
        memberships = memberships.filter(team_id=scope)
    return memberships.select_related("team").order_by("team__name", "team__id")


def team_members(*, team: Team) -> QuerySet[Membership]:
    return team.memberships.select_related("user").order_by("user__username")


def team_membership(*, team: Team, code: uuid.UUID) -> Membership | None:
    return team.memberships.select_related("user").filter(code=code).first()


def team_invitations(*, team: Team) -> QuerySet[Invitation]:
    return team.invitations.select_related("created_by", "accepted_by")


def invitation_by_token(*, token: str) -> Invitation | None:
    """The invitation whose link holds the secret ``token`` (compared by digest)."""
    return (Invitation.objects.select_related("team")
            .filter(digest=invitation_digest(token)).first())


def email_is_verified(*, user: User | AnonymousUser) -> bool:
    """Whether the user confirmed their current address (followed the mailed link)."""
    if not user.is_authenticated or not user.email:
        return False
    return VerifiedEmail.objects.filter(user=user, email__iexact=user.email).exists()


def api_tokens_of_user(*, user: User | AnonymousUser) -> QuerySet[ApiToken]:
    """The user's tokens (with their team), unrevoked ones first, newest first."""
    if not user.is_authenticated:
        return ApiToken.objects.none()
    return ApiToken.objects.filter(user=user).select_related("team").order_by(
        F("revoked_at").desc(nulls_first=True), "-created_at", "-id")


def api_token_is_active(token_id: int) -> bool:
    """Whether a request authenticated with this token would still be let in
    (``ApiToken.is_active``: not revoked, not expired, its user active), read from the
    database again: what long-lived requests (event streams, long-polls) check every few
    seconds, so they notice a revocation made after they started."""
    fresh = ApiToken.objects.select_related("user").filter(pk=token_id).first()
    return fresh is not None and fresh.is_active


def invitation_from_next(*, next_url: str) -> Invitation | None:
    """The pending invitation a login or sign-up page was reached from (its ``next`` is
    the invitation's link), so those pages can say so; None otherwise."""
    from django.urls import Resolver404, resolve

    path = (next_url or "").split("?", 1)[0]
    try:
        match = resolve(path) if path.startswith("/") else None
    except Resolver404:
        return None
    if match is None or match.view_name != "accounts:invitation":
        return None
    found = invitation_by_token(token=match.kwargs["token"])
    return found if found is not None and found.status == Invitation.Status.PENDING else None

