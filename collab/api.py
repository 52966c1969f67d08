"""JSON API for a debate's comments, mounted at /api/debates/{code}/comments."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field

from collab import selectors, services
from collab.access import debate_comments_access
from collab.models import Comment, TargetKind
from council_site.accounts.access import Need
from council_site.api_auth import api_auth

router = Router(tags=["comments"], auth=api_auth)


class ErrorOut(Schema):
    detail: str


class CommentOut(Schema):
    code: uuid.UUID
    author: str | None
    body: str
    deleted: bool
    created_at: datetime
    edited_at: datetime | None
    mentions: list[str]


class ThreadOut(CommentOut):
    target_kind: str
    target_ref: str
    target_label: str
    quote: str
    quote_offset: int | None
    resolved: bool
    replies: list[CommentOut]


class CommentIn(Schema):
    model_config = ConfigDict(extra="forbid")
    body: str = Field(min_length=1, max_length=services.MAX_BODY)
    target_kind: TargetKind = TargetKind.SYNTHESIS
    target_ref: str = Field(default="", max_length=100)
    quote: str = Field(default="", max_length=services.MAX_QUOTE)
    quote_offset: int | None = Field(default=None, ge=0, le=services.MAX_QUOTE_OFFSET)
    parent: uuid.UUID | None = Field(default=None, description="Reply to this comment's thread.")


def _comment_out(comment: Comment) -> dict[str, Any]:
    return {
        "code": comment.code,
        "author": comment.author.get_username() if comment.author else None,
        "body": comment.body, "deleted": comment.is_deleted,
        "created_at": comment.created_at, "edited_at": comment.edited_at,
        "mentions": [m.user.get_username() for m in comment.mentions.select_related("user")],
    }


def _thread_out(thread: selectors.Thread) -> dict[str, Any]:
    root = thread.root
    return {
        **_comment_out(root), "target_kind": root.target_kind, "target_ref": root.target_ref,
        "target_label": thread.label, "quote": root.quote, "quote_offset": root.quote_offset,
        "resolved": root.is_resolved, "replies": [_comment_out(r) for r in thread.replies],
    }


@router.get("/{uuid:code}/comments", response=list[ThreadOut], url_name="collab_comments")
def list_comments(request: HttpRequest, code: uuid.UUID) -> list[dict[str, Any]]:
    """The debate's comment threads, open ones first."""
    debate, _ = debate_comments_access(request, code)
    return [_thread_out(t) for t in selectors.debate_threads(debate=debate)]


@router.post("/{uuid:code}/comments", response={201: CommentOut, 400: ErrorOut},
             url_name="collab_comment_create")
def create_comment(request: HttpRequest, code: uuid.UUID, payload: CommentIn) -> Status[Any]:
    """A new thread on (a part of) the synthesis, or a reply when ``parent`` is set."""
    debate, _ = debate_comments_access(request, code, need=Need.WRITE)
    parent = None
    if payload.parent:
        parent = selectors.debate_comment(debate=debate, code=payload.parent)
        if parent is None:
            return Status(400, {"detail": "No such comment to reply to."})
    try:
        comment = services.comment_create(
            debate=debate, author=request.user, body=payload.body,
            target_kind=payload.target_kind, target_ref=payload.target_ref,
            quote=payload.quote, quote_offset=payload.quote_offset, parent=parent,
        )
    except services.CommentError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, _comment_out(comment))
