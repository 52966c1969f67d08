"""Writes for teams, memberships, invitations and personal API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from council_site.accounts import signals
from council_site.accounts.models import ApiToken, Invitation, Membership, Team
from council_site.accounts.selectors import live_api_tokens

INVITATION_DAYS = 7


class TeamError(ValueError):
    """A refused change to a team; the message is meant for the user."""


class InvitationError(ValueError):
    """An invitation that cannot be used; the message is meant for the user."""


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


@transaction.atomic
def user_signup(*, username: str, email: str, password: str, team_name: str = "") -> User:
    """A new user and their first team, which they own; without a team name (someone
    signing up to accept an invitation) the user joins teams only by invitation."""
    user = User.objects.create_user(username=username, email=email, password=password)
    if team_name.strip():
        team_create(name=team_name, owner=user)
    return user


def _other_owners(membership: Membership) -> bool:
    # Locks the team's owner rows so two owners cannot demote each other at once.
    owners = (
        Membership.objects.select_for_update()
        .filter(team_id=membership.team_id, role=Membership.Role.OWNER)
        .exclude(pk=membership.pk)
    )
    return owners.exists()


@transaction.atomic
def membership_change_role(*, membership: Membership, role: str) -> Membership:
    if role not in Membership.Role.values:
        expected = ", ".join(Membership.Role.values)
        raise TeamError(f"Unknown role {role!r}; expected one of {expected}.")
    if (membership.role == Membership.Role.OWNER and role != Membership.Role.OWNER
            and not _other_owners(membership)):
        raise TeamError("A team needs at least one owner: make someone else owner first.")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    if membership.role == Membership.Role.OWNER and not _other_owners(membership):
        raise TeamError("A team needs at least one owner: the last owner cannot be removed.")
    membership.delete()


def team_limits_update(
    *,
    team: Team,
    monthly_budget_usd: float | None,
    debate_cost_cap_usd: float | None,
    debates_per_hour: int,
) -> Team:
    for label, value in (("monthly budget", monthly_budget_usd),
                         ("per-debate cap", debate_cost_cap_usd)):
        if value is not None and value < 0:
            raise TeamError(f"The {label} cannot be negative.")
    if debates_per_hour < 0:
        raise TeamError("Debates per hour cannot be negative.")
    team.monthly_budget_usd = monthly_budget_usd
    team.debate_cost_cap_usd = debate_cost_cap_usd
    team.debates_per_hour = debates_per_hour
    team.save(update_fields=["monthly_budget_usd", "debate_cost_cap_usd", "debates_per_hour"])
    return team


def invitation_create(
    *,
    team: Team,
    created_by: User | None,
    role: str,
    email: str = "",
    valid_days: int = INVITATION_DAYS,
) -> Invitation:
    if role not in Membership.Role.values:
        raise InvitationError(f"Unknown role {role!r}.")
    if valid_days < 1:
        raise InvitationError("An invitation must be valid for at least one day.")
    return Invitation.objects.create(
        team=team, created_by=created_by, role=role, email=email.strip(),
        expires_at=timezone.now() + timedelta(days=valid_days),
    )


def invitation_send(*, invitation: Invitation, accept_url: str) -> None:
    """Mails the link to the invitation's address (Django's email backend; the console
    in development). The owner also sees the link to copy, so mail is a convenience."""
    if not invitation.email:
        return
    inviter = invitation.created_by.get_username() if invitation.created_by else "Someone"
    send_mail(
        subject=f"Join {invitation.team.name} on Council",
        message=(
            f"{inviter} invited you to join the team {invitation.team.name} on Council "
            f"as {invitation.get_role_display().lower()}.\n\n"
            f"Open this link to accept (valid until {invitation.expires_at:%Y-%m-%d %H:%M} UTC):"
            f"\n{accept_url}\n"
        ),
        from_email=None,
        recipient_list=[invitation.email],
    )


def invitation_revoke(*, invitation: Invitation) -> Invitation:
    if invitation.accepted_at:
        raise InvitationError("This invitation was already accepted; remove the member instead.")
    if not invitation.revoked_at:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_check(*, invitation: Invitation, user: User) -> None:
    """Why ``user`` cannot accept ``invitation`` (InvitationError), or nothing."""
    status = invitation.status
    if status == Invitation.Status.ACCEPTED:
        raise InvitationError(
            "This invitation has already been used. Ask a team owner for a new one."
        )
    if status == Invitation.Status.REVOKED:
        raise InvitationError("This invitation was withdrawn by a team owner.")
    if status == Invitation.Status.EXPIRED:
        raise InvitationError(
            f"This invitation expired on {invitation.expires_at:%Y-%m-%d %H:%M} UTC. "
            "Ask a team owner for a new one."
        )
    if invitation.email and invitation.email.casefold() != (user.email or "").casefold():
        raise InvitationError(
            "This invitation was sent to a different email address. Sign in with the "
            "account that uses that address."
        )
    if Membership.objects.filter(team=invitation.team, user=user).exists():
        raise InvitationError(f"You are already a member of {invitation.team.name}.")


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    # The row lock makes a link accepted twice at the same moment count once.
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    invitation_check(invitation=invitation, user=user)
    membership = Membership.objects.create(team=invitation.team, user=user, role=invitation.role)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    signals.invitation_accepted.send(Invitation, invitation=invitation, membership=membership)
    return membership


# --- personal API tokens -----------------------------------------------------------

API_TOKEN_PREFIX = "council_"
# Writing last_used_at on every request would make each API call a write; a minute's
# precision is what the token page shows anyway.
API_TOKEN_TOUCH_SECONDS = 60


def api_token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token and its secret. The secret is returned here only: the database
    keeps its digest, so nobody can show it again."""
    name = name.strip()
    if not name:
        raise ValueError("A token needs a name.")
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name[:100],
                                    prefix=secret[:len(API_TOKEN_PREFIX) + 4],
                                    digest=api_token_digest(secret))
    return token, secret


def api_token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def api_token_use(*, secret: str) -> ApiToken | None:
    """The live token with this secret (its user loaded), or None; records the use."""
    if not secret.startswith(API_TOKEN_PREFIX):
        return None
    token = (live_api_tokens().select_related("user")
             .filter(digest=api_token_digest(secret)).first())
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= \
            API_TOKEN_TOUCH_SECONDS:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
