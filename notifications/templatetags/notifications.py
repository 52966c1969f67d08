"""The notifications link (with the unread count) in the navigation bar."""

from __future__ import annotations

from typing import Any

from django import template

from notifications.selectors import unread_count

register = template.Library()


@register.inclusion_tag("notifications/_nav_link.html", takes_context=True)
def notifications_link(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return {"unread": 0}
    return {"unread": unread_count(user=request.user)}
