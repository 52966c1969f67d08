"""Access helpers for comments: a comment belongs to a debate, so the debate's own
access helper (``debates.access.debate_access``) decides."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.access import Need, not_found, parse_code
from collab.models import Action, Comment
from collab.selectors import debate_action, debate_comment
from debates.access import debate_access
from debates.models import Debate


def debate_comments_access(
    request: HttpRequest, code: object, *, need: str = Need.READ
) -> tuple[Debate, str]:
    """The debate whose comments are read or written, and the caller's role."""
    return debate_access(user=request.user, code=parse_code(code), write=need != Need.READ)


def comment_access(
    request: HttpRequest, debate_code: object, code: object, *, need: str = Need.READ
) -> tuple[Comment, str]:
    debate, role = debate_comments_access(request, debate_code, need=need)
    comment = debate_comment(debate=debate, code=parse_code(code))
    if comment is None:
        raise not_found("comment")
    return comment, role


def action_access(
    request: HttpRequest, debate_code: object, code: object, *, need: str = Need.READ
) -> tuple[Action, str]:
    debate, role = debate_comments_access(request, debate_code, need=need)
    action = debate_action(debate=debate, code=parse_code(code))
    if action is None:
        raise not_found("action")
    return action, role
