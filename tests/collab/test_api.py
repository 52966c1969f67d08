"""The comments JSON API."""

from __future__ import annotations

import pytest

from collab.models import Comment
from tests.factories import add_synthesis, make_debate


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def _post(client, debate, data):
    return client.post(f"/api/debates/{debate.code}/comments", data,
                       content_type="application/json")


def test_create_and_list_threads(member_client, debate):
    response = _post(member_client, debate, {"body": "@owner R1?", "target_kind": "risk",
                                             "target_ref": "R1"})
    assert response.status_code == 201 and response.json()["mentions"] == ["owner"]
    reply = _post(member_client, debate, {"body": "yes", "parent": response.json()["code"]})
    assert reply.status_code == 201
    threads = member_client.get(f"/api/debates/{debate.code}/comments").json()
    assert len(threads) == 1
    assert threads[0]["target_label"] == 'On risk R1 ("Migration downtime")'
    assert [r["body"] for r in threads[0]["replies"]] == ["yes"]


def test_invalid_target_is_a_400_with_the_reason(member_client, debate):
    response = _post(member_client, debate, {"body": "x", "target_kind": "concern",
                                             "target_ref": "C9"})
    assert response.status_code == 400 and "C9" in response.json()["detail"]


def test_viewer_403_outsider_404(viewer_client, outsider_client, debate):
    assert _post(viewer_client, debate, {"body": "x"}).status_code == 403
    assert _post(outsider_client, debate, {"body": "x"}).status_code == 404
    assert outsider_client.get(f"/api/debates/{debate.code}/comments").status_code == 404
    assert not Comment.objects.exists()
