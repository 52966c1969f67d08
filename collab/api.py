"""JSON API for a debate's comments, mounted at /api/debates/{code}/comments: threads,
replies, edits, soft deletes, resolving, and a re-run that carries comments as
objections. The same access helpers and services as the comment panel (collab.views)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field

from accounts.access import Need
from accounts.api_auth import api_auth
from accounts.models import Membership
from api_kit.errors import errors, refuse, refuse_input
from collab import selectors, services
from collab.access import comment_access, debate_comments_access
from collab.models import Comment, TargetKind
from view_kit.http import AuthenticatedHttpRequest

router = Router(tags=["comments"], auth=api_auth)


class CommentOut(Schema):
    code: uuid.UUID
    author: str | None
    body: str = Field(description="Empty when deleted, and when hidden by an owner (except "
                                  "for owners and the comment's author).")
    deleted: bool
    hidden: bool = Field(description="An owner hid it from the team (moderation).")
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
    target_kind: str = Field(default=TargetKind.SYNTHESIS.value, max_length=20, description=(
        "synthesis, quote, or the kind of one of the result's parts (risk, concern, "
        "disagreement, recommendation, claim, issue, tension, next_step ...: its "
        "protocol's; docs/teams.md, \"Comments\")."))
    target_ref: str = Field(default="", max_length=100)
    quote: str = Field(default="", max_length=services.MAX_QUOTE)
    quote_offset: int | None = Field(default=None, ge=0, le=services.MAX_QUOTE_OFFSET)
    parent: uuid.UUID | None = Field(default=None, description="Reply to this comment's thread.")


@dataclass(frozen=True)
class _Reader:
    """Who reads the comments: a hidden comment's text is for owners and its author."""

    user_id: int | None
    owner: bool

    def sees(self, comment: Comment) -> bool:
        return not comment.is_hidden or self.owner or comment.author_id == self.user_id


def _reader(request: HttpRequest, role: str) -> _Reader:
    return _Reader(request.user.pk, role == Membership.Role.OWNER)


def _comment_out(comment: Comment, reader: _Reader) -> dict[str, Any]:
    return {
        "code": comment.code,
        "author": comment.author.get_username() if comment.author else None,
        "body": comment.body if reader.sees(comment) else "", "deleted": comment.is_deleted,
        "hidden": comment.is_hidden,
        "created_at": comment.created_at, "edited_at": comment.edited_at,
        "mentions": [m.user.get_username() for m in comment.mentions.select_related("user")],
    }


def _thread_out(thread: selectors.Thread, reader: _Reader) -> dict[str, Any]:
    root = thread.root
    return {
        **_comment_out(root, reader), "target_kind": root.target_kind,
        "target_ref": root.target_ref,
        "target_label": thread.label, "quote": root.quote, "quote_offset": root.quote_offset,
        "resolved": root.is_resolved,
        "replies": [_comment_out(r, reader) for r in thread.replies],
    }


@router.get("/{uuid:code}/comments", response=list[ThreadOut], url_name="collab_comments")
def list_comments(request: HttpRequest, code: uuid.UUID) -> list[dict[str, Any]]:
    """The debate's comment threads, open ones first."""
    debate, role = debate_comments_access(request, code)
    reader = _reader(request, role)
    return [_thread_out(t, reader) for t in selectors.debate_threads(debate=debate)]


@router.post("/{uuid:code}/comments", response={201: CommentOut, **errors(400)},
             url_name="collab_comment_create")
def create_comment(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: CommentIn
                   ) -> Status[Any]:
    """A new thread on (a part of) the synthesis, or a reply when ``parent`` is set."""
    debate, role = debate_comments_access(request, code, need=Need.WRITE)
    parent = None
    if payload.parent:
        parent = selectors.debate_comment(debate=debate, code=payload.parent)
        if parent is None:
            return refuse(400, "No such comment to reply to.", {"parent": ["Not a comment of "
                                                                           "this debate."]})
    try:
        comment = services.comment_create(
            debate=debate, author=request.user, body=payload.body,
            target_kind=payload.target_kind, target_ref=payload.target_ref,
            quote=payload.quote, quote_offset=payload.quote_offset, parent=parent,
        )
    except services.CommentError as exc:  # a field's, or a deleted comment's (no field)
        return refuse_input(exc)
    return Status(201, _comment_out(comment, _reader(request, role)))


class CommentEditIn(Schema):
    model_config = ConfigDict(extra="forbid")
    body: str = Field(min_length=1, max_length=services.MAX_BODY)


@router.patch("/{uuid:code}/comments/{uuid:comment}", response={200: CommentOut, **errors(400)},
              url_name="collab_comment_edit")
def edit_comment(request: AuthenticatedHttpRequest, code: uuid.UUID, comment: uuid.UUID,
                 payload: CommentEditIn) -> Status[Any]:
    """Replaces the body of your own comment (403 on anybody else's); the text it
    replaces stays in the comment's history."""
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    try:
        services.comment_edit(comment=found, user=request.user, body=payload.body)
    except services.CommentError as exc:  # a field's, or a deleted comment's (no field)
        return refuse_input(exc)
    return Status(200, _comment_out(found, _reader(request, role)))


@router.delete("/{uuid:code}/comments/{uuid:comment}", response={200: CommentOut, **errors(400)},
               url_name="collab_comment_delete")
def delete_comment(request: AuthenticatedHttpRequest, code: uuid.UUID, comment: uuid.UUID
                   ) -> Status[Any]:
    """Deletes a comment softly: it stays in its thread as deleted, its text goes. Your
    own, or (team owners) anybody's, which the moderation log records."""
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    try:
        services.comment_delete(comment=found, user=request.user)
    except services.CommentError as exc:  # a field's, or a deleted comment's (no field)
        return refuse_input(exc)
    return Status(200, _comment_out(found, _reader(request, role)))


def _set_resolved(request: AuthenticatedHttpRequest, code: uuid.UUID, comment: uuid.UUID,
                  resolved: bool) -> dict[str, Any]:
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    root = services.thread_set_resolved(comment=found, user=request.user, resolved=resolved)
    thread = next(t for t in selectors.debate_threads(debate=found.debate)
                  if t.root.pk == root.pk)
    return _thread_out(thread, _reader(request, role))


class HiddenIn(Schema):
    model_config = ConfigDict(extra="forbid")
    hidden: bool = Field(description="true hides the comment from the team, false shows it.")


@router.post("/{uuid:code}/comments/{uuid:comment}/hidden",
             response={200: CommentOut, **errors(400)}, url_name="collab_comment_hidden")
def set_hidden(request: AuthenticatedHttpRequest, code: uuid.UUID, comment: uuid.UUID,
               payload: HiddenIn) -> Status[Any]:
    """Team owners hide someone else's comment from the team, or show it again (403 for
    anyone else, and on your own comment); the moderation log records it."""
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    try:
        services.comment_set_hidden(comment=found, user=request.user, hidden=payload.hidden)
    except services.CommentError as exc:  # a field's, or a deleted comment's (no field)
        return refuse_input(exc)
    return Status(200, _comment_out(found, _reader(request, role)))


@router.post("/{uuid:code}/comments/{uuid:comment}/resolve", response=ThreadOut,
             url_name="collab_comment_resolve")
def resolve_thread(request: AuthenticatedHttpRequest, code: uuid.UUID, comment: uuid.UUID
                   ) -> dict[str, Any]:
    """Resolves the whole thread the comment belongs to."""
    return _set_resolved(request, code, comment, True)


@router.post("/{uuid:code}/comments/{uuid:comment}/reopen", response=ThreadOut,
             url_name="collab_comment_reopen")
def reopen_thread(request: AuthenticatedHttpRequest, code: uuid.UUID, comment: uuid.UUID
                  ) -> dict[str, Any]:
    return _set_resolved(request, code, comment, False)


class CarryIn(Schema):
    model_config = ConfigDict(extra="forbid")
    comments: list[uuid.UUID] = Field(min_length=1, max_length=100,
                                      description="Comments of this debate, in order.")


class RerunOut(Schema):
    code: uuid.UUID
    status: str
    parent: uuid.UUID


@router.post("/{uuid:code}/comments/carry", response={201: RerunOut, **errors(400)},
             url_name="collab_comments_carry")
def carry_comments(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: CarryIn
                   ) -> Status[Any]:
    """Re-runs the debate with these comments added to its context as objections the
    new council must address; on refusal (a limit, too long a context) nothing starts."""
    debate, _ = debate_comments_access(request, code, need=Need.WRITE)
    try:
        rerun = services.debate_rerun_with_objections(
            debate=debate, user=request.user, comment_codes=payload.comments)
    except services.CommentError as exc:  # the comments chosen
        return refuse_input(exc, prefix="No re-run started: ")
    except ValueError as exc:  # InputError (limits): as the panel does; its field, if any,
        # is the parent debate's setting, not this request's
        return refuse(400, f"No re-run started: {exc}")
    return Status(201, {"code": rerun.code, "status": rerun.status, "parent": debate.code})
