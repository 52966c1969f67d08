"""What a request made with an API token may reach, beyond its user's roles: a
read-only token changes nothing, a team token sees one team only.

The token travels on the request's user object (``api_token_use`` loads a fresh one
for every request and every MCP call), so the selectors every access helper is built
on (``membership_role``, ``memberships_of_user``) apply the scope without a new
argument anywhere: another team is then simply not one of the caller's, and answers
404 like any outsider's object. Session users carry no token and are unaffected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from accounts.models import ApiToken

_ATTRIBUTE = "_council_api_token"

READ_ONLY_MESSAGE = "This API token is read-only: it cannot change anything."


def acting_through(token: ApiToken) -> User:
    """The token's user, marked as acting through ``token`` (and so within its scope)."""
    setattr(token.user, _ATTRIBUTE, token)
    return token.user


def token_of(user: User | AnonymousUser) -> ApiToken | None:
    """The API token the user acts through in this request, or None (a session)."""
    return getattr(user, _ATTRIBUTE, None)


def team_scope(user: User | AnonymousUser) -> int | None:
    """The id of the one team the caller's token is limited to, or None (no limit)."""
    token = token_of(user)
    return token.team_id if token is not None else None


def check_may_write(user: User | AnonymousUser) -> None:
    """PermissionDenied when the caller acts through a read-only token."""
    token = token_of(user)
    if token is not None and token.read_only:
        raise PermissionDenied(READ_ONLY_MESSAGE)
