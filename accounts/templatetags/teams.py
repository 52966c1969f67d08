"""The team switcher in the navigation bar."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import Invitation
from accounts.selectors import (
    current_team,
    invitation_from_next,
    memberships_of_user,
)

register = template.Library()


@register.inclusion_tag("accounts/_team_switcher.html", takes_context=True)
def team_switcher(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return {"memberships": [], "current": None}
    memberships = list(memberships_of_user(user=request.user))
    return {
        "memberships": memberships,
        "current": current_team(request, memberships),
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def invitation_for_next(next_url: str | None) -> Invitation | None:
    """The pending invitation behind a login page's ``next`` (see invitation_from_next)."""
    return invitation_from_next(next_url=next_url or "")
