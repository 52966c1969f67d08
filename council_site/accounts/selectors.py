"""Reads for teams and memberships."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db.models import QuerySet, Sum
from django.utils import timezone

from council_site.accounts.models import Invitation, Membership, Team
from debates.models import Debate

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
    from django.http import HttpRequest

# The session key holding the code of the team the user switched to.
SESSION_TEAM_KEY = "team_code"


def team_for_user(*, user: AbstractBaseUser | AnonymousUser) -> Team | None:
    """The user's default team: the one they joined first, or None."""
    if not user.is_authenticated:
        return None
    membership = (
        Membership.objects.filter(user=user)
        .select_related("team")
        .order_by("created_at", "id")
        .first()
    )
    return membership.team if membership else None


def current_team(request: HttpRequest) -> Team | None:
    """The team the user switched to in this session, if they still belong to it;
    otherwise their default team (``team_for_user``)."""
    user = request.user
    if not user.is_authenticated:
        return None
    code = request.session.get(SESSION_TEAM_KEY)
    if code:
        team = Team.objects.filter(code=code, memberships__user=user).first()
        if team is not None:
            return team
        # A stale choice (removed from the team, team deleted) is forgotten.
        request.session.pop(SESSION_TEAM_KEY, None)
    return team_for_user(user=user)


def membership_role(*, team: Team, user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The user's role in ``team`` (a ``Membership.Role`` value), or None for outsiders."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(team=team, user=user).values_list("role", flat=True).first()


def memberships_of_user(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Membership]:
    """Every team the user belongs to, with their role, oldest first."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return (
        Membership.objects.filter(user=user)
        .select_related("team")
        .order_by("team__name", "team__id")
    )


def team_members(*, team: Team) -> QuerySet[Membership]:
    return team.memberships.select_related("user").order_by("user__username")


def team_membership(*, team: Team, code: object) -> Membership | None:
    return team.memberships.select_related("user").filter(code=code).first()


def team_invitations(*, team: Team) -> QuerySet[Invitation]:
    return team.invitations.select_related("created_by", "accepted_by")


def invitation_by_token(*, token: str) -> Invitation | None:
    return Invitation.objects.select_related("team").filter(token=token).first()


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


def team_month_spend(*, team: Team, now: datetime.datetime | None = None) -> float:
    """USD spent by the team's debates created this calendar month (UTC)."""
    now = now or timezone.now()
    start = now.astimezone(datetime.UTC).replace(day=1, hour=0, minute=0, second=0,
                                                  microsecond=0)
    total = Debate.objects.filter(team=team, created_at__gte=start).aggregate(
        total=Sum("cost_usd")
    )["total"]
    return float(total or 0.0)
