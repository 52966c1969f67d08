"""Reads for teams and memberships."""

from __future__ import annotations

from typing import TYPE_CHECKING

from council_site.accounts.models import Membership, Team

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


def team_for_user(*, user: AbstractBaseUser | AnonymousUser) -> Team | None:
    """The user's current team: the one they joined first, or None."""
    if not user.is_authenticated:
        return None
    membership = (
        Membership.objects.filter(user=user)
        .select_related("team")
        .order_by("created_at", "id")
        .first()
    )
    return membership.team if membership else None


def membership_role(*, team: Team, user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The user's role in ``team`` (a ``Membership.Role`` value), or None for outsiders."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(team=team, user=user).values_list("role", flat=True).first()
