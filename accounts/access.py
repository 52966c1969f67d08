"""The one rule behind every access helper: membership of the object's team decides.

Outsiders (and anonymous callers) get 404, so they cannot even learn that an object
exists: the body is byte for byte the one for an object that does not exist ("No such
debate."), so each helper passes its ``noun`` to ``require_role``. Members below the
role an action needs get 403. Each resource has its own
helper (``team_access`` here, ``library_access`` in personas, ``comment_access`` in
collab ...) built on ``require_role``, and HTML views and the API both call it.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.models import ApiToken, Membership, Team
from accounts.selectors import TEAM_HEADER, current_team, membership_role
from accounts.token_scope import check_may_write

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.http import HttpRequest

WRITE_ROLES = frozenset({Membership.Role.OWNER.value, Membership.Role.EDITOR.value})


class Need:
    """What an action needs: reading, writing, or administering the team."""

    READ = "read"
    WRITE = "write"
    OWNER = "owner"


def not_found(noun: str) -> Http404:
    """The one refusal for an object that does not exist and for one outside the
    caller's teams, so that the two cannot be told apart."""
    return Http404(f"No such {noun}.")


def require_role(
    *, team: Team, user: User | AnonymousUser, noun: str, need: str = Need.READ
) -> str:
    """The caller's role in ``team``; ``not_found(noun)`` for outsiders (``noun`` names
    the object asked for), PermissionDenied when the role is below ``need`` or the
    caller's API token is read-only and ``need`` writes."""
    role = membership_role(team=team, user=user)
    if role is None:
        raise not_found(noun)
    if need != Need.READ:
        check_may_write(user)
    if need == Need.OWNER and role != Membership.Role.OWNER:
        raise PermissionDenied("Only team owners can do this.")
    if need == Need.WRITE and role not in WRITE_ROLES:
        raise PermissionDenied("Viewers can read but not change anything.")
    return role


def parse_code(value: object) -> uuid.UUID:
    """A UUID from a URL or form value; anything else is treated as not found."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise Http404("No such object.") from None


def team_access(request: HttpRequest, code: object, *, need: str = Need.READ) -> tuple[Team, str]:
    team = Team.objects.filter(code=parse_code(code)).first()
    if team is None:
        raise not_found("team")
    return team, require_role(team=team, user=request.user, noun="team", need=need)


def current_team_access(request: HttpRequest, *, need: str = Need.READ) -> tuple[Team, str]:
    """The team the caller works in (lists, new debates and libraries) and their role.

    A team named by ``X-Council-Team`` that is not one of the caller's is 404, like any
    object outside one's teams, whether it exists or not (and whatever other teams the
    caller is in); a caller in no team at all is 403."""
    team = current_team(request)
    if team is None:
        if request.headers.get(TEAM_HEADER):
            raise Http404(f"{TEAM_HEADER} names no team of yours.")
        raise PermissionDenied("You are not a member of any team yet.")
    return team, require_role(team=team, user=request.user, noun="team", need=need)


def api_token_access(request: HttpRequest, code: object) -> ApiToken:
    """One of the caller's own API tokens; anybody else's is 404, like any object
    outside one's reach."""
    token = ApiToken.objects.filter(code=parse_code(code)).first()
    if token is None or not request.user.is_authenticated or token.user_id != request.user.pk:
        raise not_found("token")
    return token
