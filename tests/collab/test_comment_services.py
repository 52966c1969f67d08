"""Comment services: threads on parts of the synthesis, replies, resolution, own-only edits
and soft deletes, and mentions that resolve only to team members."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from collab.models import Comment, Mention
from collab.services import (
    CommentError,
    NotYourComment,
    comment_create,
    comment_delete,
    comment_edit,
    thread_set_resolved,
)
from tests.factories import add_synthesis, make_debate


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def test_a_thread_on_a_risk_and_a_reply(debate, owner, member):
    thread = comment_create(debate=debate, author=owner, body="Is R2 real?",
                            target_kind="risk", target_ref="R2")
    reply = comment_create(debate=debate, author=member, body="Yes.", parent=thread)
    nested = comment_create(debate=debate, author=owner, body="Why?", parent=reply)
    assert reply.parent == thread and nested.parent == thread  # one level of replies
    assert reply.target_kind == "risk" and reply.target_ref == "R2"


@pytest.mark.parametrize("kind, ref, quote", [
    ("synthesis", "", ""), ("concern", "C1", ""), ("disagreement", "0", ""),
    ("recommendation", "", ""), ("recommendation", "stakes", ""),
    ("quote", "", "Migrate in Q3"),
])
def test_every_target_kind_is_accepted(debate, owner, kind, ref, quote):
    comment = comment_create(debate=debate, author=owner, body="x", target_kind=kind,
                             target_ref=ref, quote=quote, quote_offset=4 if quote else None)
    assert comment.target_kind == kind


@pytest.mark.parametrize("kind, ref, quote, message", [
    ("risk", "R9", "", "no risk 'R9'"),
    ("disagreement", "3", "", "1 disagreement"),
    ("recommendation", "colour", "", "Unknown part"),
    ("quote", "", "", "Select the passage"),
    ("haiku", "", "", "Unknown target"),
])
def test_a_target_that_is_not_in_the_synthesis_is_refused(debate, owner, kind, ref, quote,
                                                          message):
    with pytest.raises(CommentError, match=message):
        comment_create(debate=debate, author=owner, body="x", target_kind=kind, target_ref=ref,
                       quote=quote)
    assert not Comment.objects.exists()


def test_parts_need_a_synthesis(team, owner):
    running = make_debate(team, owner)
    comment_create(debate=running, author=owner, body="Whole debate")
    with pytest.raises(CommentError, match="no synthesis yet"):
        comment_create(debate=running, author=owner, body="x", target_kind="risk",
                       target_ref="R1")


def test_an_empty_comment_is_refused(debate, owner):
    with pytest.raises(CommentError, match="empty"):
        comment_create(debate=debate, author=owner, body="   ")


def test_resolve_and_reopen_act_on_the_whole_thread(debate, owner, member):
    thread = comment_create(debate=debate, author=owner, body="Open question")
    reply = comment_create(debate=debate, author=member, body="Answer", parent=thread)
    resolved = thread_set_resolved(comment=reply, user=member, resolved=True)
    assert resolved == thread
    thread.refresh_from_db()
    assert thread.is_resolved and thread.resolved_by == member
    thread_set_resolved(comment=thread, user=owner, resolved=False)
    thread.refresh_from_db()
    assert not thread.is_resolved and thread.resolved_by is None


def test_only_the_author_edits_a_comment(debate, owner, member):
    comment = comment_create(debate=debate, author=owner, body="first")
    with pytest.raises(NotYourComment):
        comment_edit(comment=comment, user=member, body="hijacked")
    comment_edit(comment=comment, user=owner, body="second")
    comment.refresh_from_db()
    assert comment.body == "second" and comment.edited_at is not None


def test_only_the_author_deletes_and_the_comment_stays_as_deleted(debate, owner, member):
    thread = comment_create(debate=debate, author=owner, body="secret @member")
    comment_create(debate=debate, author=member, body="reply", parent=thread)
    with pytest.raises(NotYourComment):
        comment_delete(comment=thread, user=member)
    comment_delete(comment=thread, user=owner)
    thread.refresh_from_db()
    assert thread.is_deleted and thread.body == ""
    assert thread.replies.count() == 1  # the thread and its replies remain
    assert not Mention.objects.exists()
    with pytest.raises(CommentError, match="deleted"):
        comment_edit(comment=thread, user=owner, body="back")


def test_mentions_resolve_only_to_team_members(debate, owner, member, viewer, outsider):
    comment = comment_create(
        debate=debate, author=owner,
        body="@member and @viewer, see this. @outsider @nobody mail me at owner@example.com",
    )
    assert set(comment.mentions.values_list("user__username", flat=True)) == {"member",
                                                                             "viewer"}


def test_mentions_follow_edits(debate, owner, member, viewer):
    comment = comment_create(debate=debate, author=owner, body="@member look")
    comment_edit(comment=comment, user=owner, body="@viewer look instead.")
    assert list(comment.mentions.values_list("user__username", flat=True)) == ["viewer"]


def test_mentioning_yourself_or_a_dotted_name_at_sentence_end(debate, owner, team):
    from accounts.services import membership_add

    dotted = User.objects.create_user(username="j.doe")
    membership_add(team=team, user=dotted, role="viewer")
    comment = comment_create(debate=debate, author=owner, body="Thanks @owner and @j.doe.")
    assert list(comment.mentions.values_list("user__username", flat=True)) == ["j.doe"]
