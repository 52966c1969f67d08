"""Writes for teams and memberships."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from council_site.accounts.models import Membership, Team

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def team_create(*, name: str, owner: User) -> Team:
    """Create a team with ``owner`` as its first member, in the owner role."""
    name = name.strip()
    if not name:
        raise ValueError("A team needs a name.")
    team = Team.objects.create(name=name)
    Membership.objects.create(team=team, user=owner, role=Membership.Role.OWNER)
    return team


def membership_add(*, team: Team, user: User, role: str = Membership.Role.VIEWER) -> Membership:
    """Add ``user`` to ``team`` with ``role``, or change the role of an existing member."""
    if role not in Membership.Role.values:
        raise ValueError(f"Unknown role {role!r}; expected one of {Membership.Role.values}.")
    membership, _ = Membership.objects.update_or_create(
        team=team, user=user, defaults={"role": role}
    )
    return membership
