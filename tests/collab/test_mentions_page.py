"""The mentions page lists where the user was mentioned, in teams they still belong to."""

from __future__ import annotations

from accounts.models import Membership
from collab.services import comment_create, comment_delete
from tests.factories import make_debate


def test_a_mentioned_member_sees_the_comment(member_client, team, owner):
    debate = make_debate(team, owner)
    comment_create(debate=debate, author=owner, body="@member what do you think?")
    html = member_client.get("/mentions/").content.decode()
    assert "what do you think?" in html
    assert f"/debates/{debate.code}/comments/" in html


def test_deleted_comments_and_left_teams_drop_out(member_client, member, team, owner):
    debate = make_debate(team, owner)
    gone = comment_create(debate=debate, author=owner, body="@member deleted one")
    comment_delete(comment=gone, user=owner)
    comment_create(debate=debate, author=owner, body="@member still here")
    assert "still here" in member_client.get("/mentions/").content.decode()
    Membership.objects.filter(team=team, user=member).delete()
    html = member_client.get("/mentions/").content.decode()
    assert "still here" not in html and "deleted one" not in html
    assert "Nobody has mentioned you yet" in html
