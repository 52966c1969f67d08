"""Teams own debates and personas; a membership gives a user a role in one team."""

from __future__ import annotations

import hashlib
import secrets
import uuid

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone


class Team(models.Model):
    id = models.BigAutoField(primary_key=True)
    # The public identifier: URLs and API payloads use it, never the integer key.
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    # Limits, checked by debates.limits wherever model money is spent (a debate
    # started or re-run, one more round).
    monthly_budget_usd = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0.0)],
        help_text="Spend allowed per calendar month (UTC); empty means unlimited.",
    )
    debate_cost_cap_usd = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0.0)],
        help_text="A debate whose estimated cost exceeds this is refused; empty means no cap.",
    )
    debates_per_hour = models.PositiveIntegerField(
        default=30, help_text="Debates the team may start in any rolling hour (one more "
        "round on a finished debate counts as one)."
    )
    # db_default: rows written by code that predates the column (a process still on the
    # previous release, a migration's historical models) get False, not a NOT NULL error.
    allow_unpriced_models = models.BooleanField(
        default=False, db_default=False,
        help_text="Allow models litellm has no price for while a cost cap or monthly budget "
        "is set. Their cost is unknown: the cap cannot refuse them and the budget does not "
        "count what they spend. Off: such debates are refused under a cap or budget.",
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        EDITOR = "editor", "Editor"
        VIEWER = "viewer", "Viewer"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "user"], name="accounts_membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.role})"

    @property
    def can_write(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.EDITOR)


def new_invitation_token() -> str:
    """The secret in an invitation link (migration 0002 names it as a field default)."""
    return secrets.token_urlsafe(32)


def invitation_digest(secret: str) -> str:
    """What is stored of an invitation's secret, and looked up by."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Invitation(models.Model):
    """A link that adds whoever opens it (signed in) to a team, once, until it expires.

    Like an API token, only a SHA-256 digest of the link's secret is stored (the secret
    is 256 random bits, so a fast hash suffices and the digest is the lookup key); the
    link itself is shown once, to the owner who makes it, and mailed if an address is set.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        REVOKED = "revoked", "Revoked"
        EXPIRED = "expired", "Expired"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(
        blank=True, help_text="When set, only a user with this address may accept."
    )
    role = models.CharField(
        max_length=16, choices=Membership.Role.choices, default=Membership.Role.VIEWER
    )
    # The digest of the secret in the link; the code identifies it in owners' forms.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="accepted_invitations",
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invitation to {self.team} as {self.role}"

    @property
    def status(self) -> str:
        if self.accepted_at:
            return self.Status.ACCEPTED
        if self.revoked_at:
            return self.Status.REVOKED
        if self.expires_at <= timezone.now():
            return self.Status.EXPIRED
        return self.Status.PENDING


class VerifiedEmail(models.Model):
    """The address a user proved they read, by following a signed link mailed to it.

    An email-bound invitation needs it: sign-up takes any address, so without this
    anyone could claim an invitation by signing up with the invitee's address. Changing
    the user's email makes it stale (``email`` no longer matches), not wrong.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verified_email"
    )
    email = models.EmailField()
    verified_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.email} of {self.user} (verified {self.verified_at:%Y-%m-%d})"


class ApiToken(models.Model):
    """A personal API token: a script or agent acting as its user, with the user's
    teams and roles (a viewer's token can read, not write), narrowed by the token's
    own limits: an expiry, read-only, and one team instead of all the user's
    (``accounts.token_scope`` applies them).

    Only a SHA-256 digest of the secret is stored. The secret is 256 random bits, so a
    fast hash is enough (no password stretching needed) and lets the digest be an
    indexed lookup key; the secret itself is shown once, when the token is made.
    """

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    # The secret's first characters, so a user can tell their tokens apart in a list.
    prefix = models.CharField(max_length=16, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True,
                                      help_text="Empty: the token never expires.")
    read_only = models.BooleanField(
        default=False, db_default=False,
        help_text="Reads only, even where the user's role may write.")
    # Deleting the team deletes the token: a scope that vanished must not widen to all
    # of the user's teams.
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        help_text="Only this team; empty: every team of the user.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def is_active(self) -> bool:
        """Whether the token may be used now: not revoked, not expired, its user
        active. The one rule; ``selectors.api_token_is_active`` asks it of a fresh row."""
        return self.revoked_at is None and not self.is_expired and self.user.is_active

    @property
    def status(self) -> str:
        """For the token list: revoked, expired or active (the user's state aside)."""
        if self.revoked_at is not None:
            return "revoked"
        return "expired" if self.is_expired else "active"


class IdempotentRequest(models.Model):
    """A POST to the API made with an ``Idempotency-Key``, and the answer it got: a
    retry with the same key and body is given that answer instead of doing the work
    twice (site_edge.idempotency; docs/api.md, "Retrying safely"). Kept 24 hours.

    ``caller`` is who sent it: the digest of the API token (the same digest
    ``ApiToken`` keeps, never the secret) or the signed-in user, so two callers' keys
    never meet. ``status`` is None while the first request is still being answered."""

    caller = models.CharField(max_length=80)
    key = models.CharField(max_length=255)
    # SHA-256 of the method, path and body: the same key with another request is refused.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=200, blank=True)
    location = models.CharField(max_length=2000, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["caller", "key"],
                                               name="one_answer_per_idempotency_key")]

    def __str__(self) -> str:
        return f"{self.key} of {self.caller[:20]}… ({self.status or 'in flight'})"


class AccountSettings(models.Model):
    """A user's own settings: the language the site speaks to them (docs/web.md,
    "Languages"). Blank is the browser's choice (Accept-Language)."""

    class Language(models.TextChoices):
        # Each in its own words: a reader who cannot read the current one finds theirs.
        EN = "en", "English"
        JA = "ja", "日本語"
        ZH = "zh", "中文"
        FR = "fr", "Français"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_settings"
    )
    language = models.CharField(max_length=8, choices=Language.choices, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.language or 'browser language'}"
