"""Writes for teams, memberships, invitations, email verification and personal API
tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from accounts import selectors, signals
from accounts.models import (
    ApiToken,
    Invitation,
    Membership,
    Team,
    VerifiedEmail,
    invitation_digest,
    new_invitation_token,
)
from accounts.token_scope import acting_through
from audit.services import record
from view_kit.site_words import ui

INVITATION_DAYS = 7


class TeamError(ValueError):
    """A refused change to a team; the message is meant for the user."""


class InvitationError(ValueError):
    """An invitation that cannot be used; the message is meant for the user."""


class EmailUnverifiedError(InvitationError):
    """The invitation is for the user's address, which they have not confirmed yet."""


class EmailVerificationError(ValueError):
    """A verification link that cannot be used; the message is meant for the user."""


def site_link(path: str) -> str:
    """``path`` on the configured site (COUNCIL_SITE_URL). Links that leave the page (in
    mails) start here, never at the request's Host header, which a client chooses (and
    an attacker could point at a site of their own)."""
    return f"{settings.COUNCIL_SITE_URL.rstrip('/')}{path}"


@transaction.atomic
def team_create(*, name: str, owner: User) -> Team:
    """Create a team with ``owner`` as its first member, in the owner role."""
    name = name.strip()
    if not name:
        raise ValueError("A team needs a name.")
    team = Team.objects.create(name=name)
    Membership.objects.create(team=team, user=owner, role=Membership.Role.OWNER)
    record("team.create", team, user=owner)
    return team


def team_rename(*, team: Team, name: str) -> Team:
    """Gives ``team`` a new name (owners only: the view checks the role)."""
    name = " ".join(name.split())
    if not name:
        raise TeamError("A team needs a name.")
    team.name = name
    team.save(update_fields=["name"])
    record("team.rename", team, data={"name": name})
    return team


def membership_add(*, team: Team, user: User, role: str = Membership.Role.VIEWER) -> Membership:
    """Add ``user`` to ``team`` with ``role``, or change the role of an existing member."""
    if role not in Membership.Role.values:
        raise ValueError(f"Unknown role {role!r}; expected one of {Membership.Role.values}.")
    membership, _ = Membership.objects.update_or_create(
        team=team, user=user, defaults={"role": role}
    )
    record("member.add", membership, kind="member",
           data={"user": user.get_username(), "role": role})
    return membership


@transaction.atomic
def user_signup(*, username: str, email: str, password: str, team_name: str = "") -> User:
    """A new user and their first team, which they own; without a team name (someone
    signing up to accept an invitation) the user joins teams only by invitation."""
    user = User.objects.create_user(username=username, email=email, password=password)
    record("user.signup", user=user, kind="user", code=user.get_username())
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
    before, membership.role = membership.role, role
    membership.save(update_fields=["role"])
    record("member.role_change", membership, kind="member",
           data={"user": membership.user.get_username(), "from": before, "to": role})
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    if membership.role == Membership.Role.OWNER and not _other_owners(membership):
        raise TeamError("A team needs at least one owner: the last owner cannot be removed.")
    record("member.remove", membership, kind="member",
           data={"user": membership.user.get_username()})
    membership.delete()


def team_limits_update(
    *,
    team: Team,
    monthly_budget_usd: float | None,
    debate_cost_cap_usd: float | None,
    debates_per_hour: int,
    allow_unpriced_models: bool = False,
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
    team.allow_unpriced_models = allow_unpriced_models
    team.save(update_fields=["monthly_budget_usd", "debate_cost_cap_usd", "debates_per_hour",
                             "allow_unpriced_models"])
    record("team.limits_change", team, data={
        "monthly_budget_usd": monthly_budget_usd, "debate_cost_cap_usd": debate_cost_cap_usd,
        "debates_per_hour": debates_per_hour, "allow_unpriced_models": allow_unpriced_models})
    return team


def invitation_create(
    *,
    team: Team,
    created_by: User | None,
    role: str,
    email: str = "",
    valid_days: int = INVITATION_DAYS,
) -> tuple[Invitation, str]:
    """A new invitation and the secret for its link. The secret is returned here only:
    the database keeps its digest, so the link cannot be shown again."""
    if role not in Membership.Role.values:
        raise InvitationError(f"Unknown role {role!r}.")
    if valid_days < 1:
        raise InvitationError("An invitation must be valid for at least one day.")
    secret = new_invitation_token()
    invitation = Invitation.objects.create(
        team=team, created_by=created_by, role=role, email=email.strip(),
        digest=invitation_digest(secret),
        expires_at=timezone.now() + timedelta(days=valid_days),
    )
    record("invitation.create", invitation, user=created_by, data={"role": role})
    return invitation, secret


def invitation_send(*, invitation: Invitation, accept_url: str) -> None:
    """Mails the link to the invitation's address (Django's email backend; the console
    in development). The owner also sees the link to copy, so mail is a convenience."""
    if not invitation.email:
        return
    # In the inviter's language (the request's): the team's, as far as the site knows.
    inviter = (invitation.created_by.get_username() if invitation.created_by
               else ui("site.mail.someone"))
    send_mail(
        subject=ui("site.mail.invite.subject", team=invitation.team.name),
        message=ui("site.mail.invite.body", inviter=inviter, team=invitation.team.name,
                   role=ui(f"site.role.{invitation.role}"),
                   until=f"{invitation.expires_at:%Y-%m-%d %H:%M}", url=accept_url),
        from_email=None,
        recipient_list=[invitation.email],
    )


def invitation_revoke(*, invitation: Invitation) -> Invitation:
    if invitation.accepted_at:
        raise InvitationError("This invitation was already accepted; remove the member instead.")
    if not invitation.revoked_at:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        record("invitation.revoke", invitation)
    return invitation


def invitation_check(*, invitation: Invitation, user: User) -> None:
    """Why ``user`` cannot accept ``invitation`` (InvitationError), or nothing."""
    status = invitation.status
    if status == Invitation.Status.ACCEPTED:
        raise InvitationError(ui("site.invite.problem.used"))
    if status == Invitation.Status.REVOKED:
        raise InvitationError(ui("site.invite.problem.withdrawn"))
    if status == Invitation.Status.EXPIRED:
        raise InvitationError(ui("site.invite.problem.expired",
                                 date=f"{invitation.expires_at:%Y-%m-%d %H:%M}"))
    if invitation.email and invitation.email.casefold() != (user.email or "").casefold():
        raise InvitationError(ui("site.invite.problem.other_address"))
    if invitation.email and not selectors.email_is_verified(user=user):
        # Anyone can sign up with any address: only a confirmed one proves it is theirs.
        raise EmailUnverifiedError(ui("site.invite.problem.unverified", email=invitation.email))
    if Membership.objects.filter(team=invitation.team, user=user).exists():
        raise InvitationError(ui("site.invite.problem.member", team=invitation.team.name))


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    # The row lock makes a link accepted twice at the same moment count once.
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    invitation_check(invitation=invitation, user=user)
    membership = Membership.objects.create(team=invitation.team, user=user, role=invitation.role)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    record("invitation.accept", invitation, user=user, data={"role": invitation.role})
    signals.invitation_accepted.send(Invitation, invitation=invitation, membership=membership)
    return membership


# --- email verification -----------------------------------------------------------

EMAIL_VERIFICATION_SALT = "council.accounts.email-verification"


def email_verification_link(*, user: User, next_url: str = "") -> str:
    """A link proving, when followed, that ``user`` reads mail at their current address:
    signed (so it cannot be forged) over the user and that address (so it means nothing
    once the address changes), and timed (COUNCIL_EMAIL_VERIFICATION_DAYS)."""
    signed = signing.dumps({"user": user.pk, "email": user.email}, salt=EMAIL_VERIFICATION_SALT)
    path = reverse("accounts:email_verify", args=[signed])
    return site_link(path + (f"?{urlencode({'next': next_url})}" if next_url else ""))


def email_verification_send(*, user: User, next_url: str = "") -> None:
    """Mails the verification link to the user's address."""
    if not user.email:
        raise EmailVerificationError(ui("site.verify.problem.no_address"))
    send_mail(  # in the request's language: the user's setting, or their browser's
        subject=ui("site.mail.verify.subject"),
        message=ui("site.mail.verify.body", name=user.get_username(),
                   days=settings.COUNCIL_EMAIL_VERIFICATION_DAYS,
                   url=email_verification_link(user=user, next_url=next_url)),
        from_email=None,
        recipient_list=[user.email],
    )


def email_verify(*, signed: str) -> User:
    """Records the address in a followed verification link as the user's verified one."""
    try:
        payload = signing.loads(signed, salt=EMAIL_VERIFICATION_SALT,
                                max_age=timedelta(days=settings.COUNCIL_EMAIL_VERIFICATION_DAYS))
    except signing.SignatureExpired as exc:
        raise EmailVerificationError(ui("site.verify.problem.expired")) from exc
    except signing.BadSignature as exc:
        raise EmailVerificationError(ui("site.verify.problem.invalid")) from exc
    user = User.objects.filter(pk=payload.get("user"), is_active=True).first()
    if user is None or (user.email or "").casefold() != str(payload.get("email")).casefold():
        raise EmailVerificationError(ui("site.verify.problem.old_address"))
    VerifiedEmail.objects.update_or_create(
        user=user, defaults={"email": user.email, "verified_at": timezone.now()})
    record("email.verify", user=user, kind="user", code=user.get_username())
    return user


def signup_mail_send(*, user: User, next_url: str = "") -> None:
    """The mail that follows a sign-up: the verification link, or, when another account
    already uses the address, a note to that address instead. The sign-up page looks the
    same either way, so it does not tell anyone which addresses have accounts."""
    others = list(User.objects.filter(email__iexact=user.email, is_active=True)
                  .exclude(pk=user.pk).values_list("username", flat=True))
    if not others:
        email_verification_send(user=user, next_url=next_url)
        return
    send_mail(
        subject="Someone signed up to Council with your address",
        message=(
            f"Someone just created the Council account {user.get_username()} with this "
            f"address, which already belongs to: {', '.join(others)}.\n\n"
            "If that was you and you forgot your password, reset it here:\n"
            f"{site_link(reverse('password_reset'))}\n\n"
            "If it was not you, nothing is needed: the new account cannot use this "
            "address (for invitations or otherwise) unless it is confirmed from this "
            "mailbox.\n"
        ),
        from_email=None,
        recipient_list=[user.email],
    )


# --- personal API tokens -----------------------------------------------------------

API_TOKEN_PREFIX = "council_"
# Writing last_used_at on every request would make each API call a write; a minute's
# precision is what the token page shows anyway.
API_TOKEN_TOUCH_SECONDS = 60


def api_token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(
    *,
    user: User,
    name: str,
    expires_at: datetime | None = None,
    read_only: bool = False,
    team: Team | None = None,
) -> tuple[ApiToken, str]:
    """A new token and its secret. The secret is returned here only: the database
    keeps its digest, so nobody can show it again. ``expires_at`` None: it never
    expires; ``team`` None: it reaches all of the user's teams."""
    name = name.strip()
    if not name:
        raise ValueError("A token needs a name.")
    if expires_at is not None and expires_at <= timezone.now():
        raise ValueError("A token's expiry must be in the future.")
    if team is not None and not Membership.objects.filter(team=team, user=user).exists():
        raise ValueError("A token can only be limited to one of your own teams.")
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name[:100],
                                    prefix=secret[:len(API_TOKEN_PREFIX) + 4],
                                    digest=api_token_digest(secret),
                                    expires_at=expires_at, read_only=read_only, team=team)
    record("token.create", token, team=team, user=user, kind="token",
           data={"name": token.name, "read_only": read_only})
    return token, secret


def api_token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        record("token.revoke", token, user=token.user, kind="token", data={"name": token.name})
    return token


@transaction.atomic
def api_token_revoke_all(*, user: User) -> int:
    """Revokes every live token of ``user`` (after a password change, say); how many."""
    count = ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now())
    record("token.revoke_all", user=user, kind="user", code=user.get_username(),
           data={"tokens": count})
    return count


def password_changed(*, user: User, reset: bool = False) -> None:
    """Records a new password (Django's forms save it): changed, or reset by mail.
    The caller holds the transaction the form saved in."""
    record("user.password_reset" if reset else "user.password_change", user=user,
           kind="user", code=user.get_username())


def api_token_use(*, secret: str) -> ApiToken | None:
    """The usable token with this secret (``ApiToken.is_active``), its user loaded and
    marked as acting through it (``token_scope``), or None; records the use."""
    if not secret.startswith(API_TOKEN_PREFIX):
        return None
    token = (ApiToken.objects.select_related("user")
             .filter(digest=api_token_digest(secret)).first())
    if token is None or not token.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= \
            API_TOKEN_TOUCH_SECONDS:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    acting_through(token)
    return token
