"""Comment writes over the API beyond posting: edit and delete one's own, resolve and
reopen a thread, and carry comments into a re-run as objections."""

from __future__ import annotations

import json

import pytest

from collab.models import Comment
from collab.services import comment_create
from debates.models import Debate
from tests.factories import add_synthesis, make_debate


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def _send(client, method, url, data=None):
    return client.generic(method, url, json.dumps(data or {}), content_type="application/json")


def test_edit_and_delete_your_own_comment(member_client, member, debate):
    comment = comment_create(debate=debate, author=member, body="first take")
    url = f"/api/debates/{debate.code}/comments/{comment.code}"
    edited = _send(member_client, "PATCH", url, {"body": "second take"})
    assert edited.status_code == 200
    assert edited.json()["body"] == "second take" and edited.json()["edited_at"]
    deleted = _send(member_client, "DELETE", url)
    assert deleted.status_code == 200 and deleted.json()["deleted"] is True
    comment.refresh_from_db()
    assert comment.body == "" and comment.deleted_at is not None
    again = _send(member_client, "PATCH", url, {"body": "third"})
    assert again.status_code == 400 and again.json()["code"] == "bad_request"


def test_someone_elses_comment_is_403_and_unchanged(member_client, owner, debate):
    comment = comment_create(debate=debate, author=owner, body="mine")
    url = f"/api/debates/{debate.code}/comments/{comment.code}"
    for response in (_send(member_client, "PATCH", url, {"body": "yours now"}),
                     _send(member_client, "DELETE", url)):
        assert response.status_code == 403 and response.json()["code"] == "forbidden"
    comment.refresh_from_db()
    assert comment.body == "mine" and comment.deleted_at is None
    empty = _send(member_client, "PATCH", url, {"body": ""})
    assert empty.status_code == 422 and "body" in empty.json()["errors"]


def test_resolve_and_reopen_the_whole_thread(member_client, owner, member, debate):
    root = comment_create(debate=debate, author=owner, body="Is R1 real?")
    reply = comment_create(debate=debate, author=member, body="Yes", parent=root)
    base = f"/api/debates/{debate.code}/comments/{reply.code}"
    resolved = _send(member_client, "POST", f"{base}/resolve")
    assert resolved.status_code == 200
    assert resolved.json()["code"] == str(root.code) and resolved.json()["resolved"] is True
    root.refresh_from_db()
    assert root.resolved_by == member
    reopened = _send(member_client, "POST", f"{base}/reopen").json()
    assert reopened["resolved"] is False


def test_carry_comments_into_a_rerun(member_client, owner, debate):
    objection = comment_create(debate=debate, author=owner, body="Price the exit cost")
    url = f"/api/debates/{debate.code}/comments/carry"
    response = _send(member_client, "POST", url, {"comments": [str(objection.code)]})
    assert response.status_code == 201, response.content
    rerun = Debate.objects.get(code=response.json()["code"])
    assert rerun.parent == debate and "Price the exit cost" in rerun.context


def test_carrying_an_unknown_comment_starts_nothing(member_client, debate, team, owner):
    elsewhere = comment_create(debate=make_debate(team, owner), author=owner, body="other")
    url = f"/api/debates/{debate.code}/comments/carry"
    response = _send(member_client, "POST", url, {"comments": [str(elsewhere.code)]})
    assert response.status_code == 400 and "No re-run started" in response.json()["message"]
    assert not Debate.objects.filter(parent=debate).exists()
    assert _send(member_client, "POST", url, {"comments": []}).status_code == 422
    assert Comment.objects.count() == 1
