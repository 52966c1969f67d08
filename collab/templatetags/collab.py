"""The team's follow-up next to each part of a synthesis: comment counts, actions and
checked claims. A tag library, so the debates app's synthesis page can show them
without importing collab (``{% load collab %}`` resolves at render time)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from collab.models import Action, ClaimCheck, Comment
from collab.selectors import FollowUp, synthesis_follow_up
from view_kit.rendering import render_untrusted

register = template.Library()


@register.filter(name="comment_html")
def comment_html(comment: Comment) -> SafeString:
    """The comment's body as untrusted Markdown, with the @username of each team
    member it mentions (its Mention rows) highlighted."""
    return render_untrusted(comment.body,
                            mentions=[m.user.get_username() for m in comment.mentions.all()])


@register.simple_tag
def follow_up(debate: Any) -> FollowUp:
    """Everything the synthesis page shows of the team's follow-up (three queries)."""
    return synthesis_follow_up(debate=debate)


@register.simple_tag
def comment_count(follow: FollowUp | None, kind: str, ref: object) -> int:
    return follow.count(kind, ref) if follow is not None else 0


@register.simple_tag
def actions_on(follow: FollowUp | None, kind: str, ref: object) -> list[Action]:
    return follow.actions_on(kind, ref) if follow is not None else []


@register.simple_tag
def claim_check(follow: FollowUp | None, ref: str) -> ClaimCheck | None:
    return follow.checks.get(ref) if follow is not None else None
