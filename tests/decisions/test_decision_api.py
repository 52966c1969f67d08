"""The decision over the API: POST /api/debates/{code}/decision, GET it back with its
versions, and GET /api/decisions/ (the log, filtered and paginated like the debate list).
Roles as for comments; refusals in the one error shape, nothing saved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from decisions.models import Decision
from tests.decisions.conftest import finish
from tests.factories import make_debate

pytestmark = pytest.mark.django_db


def post(client, debate, **body):
    return client.post(f"/api/debates/{debate.code}/decision", body,
                       content_type="application/json")


def test_record_and_read_a_decision(member_client, debate):
    response = post(member_client, debate, option="Stay", rationale="Too risky now.")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["option"] == "Stay" and data["choice"] is None
    assert data["review_on"] == (timezone.localdate() + timedelta(days=90)).isoformat()
    assert data["state"] == "decided" and data["version"] == 1
    assert data["debate"] == str(debate.code) and data["earlier_versions"] == []
    # A change with no review; the first version stays readable.
    changed = post(member_client, debate, choice="Split it first", rationale="New facts.",
                   review_on=None).json()
    assert changed["choice"] == "Split it first" and changed["review_on"] is None
    again = member_client.get(f"/api/debates/{debate.code}/decision").json()
    assert again["version"] == 2
    assert [v["option"] for v in again["earlier_versions"]] == ["Stay"]


@pytest.mark.parametrize("body, message", [
    ({"option": "Rewrite it"}, "is not one of this debate's options"),
    ({"option": "Stay", "review_on": "2000-01-01"}, "is in the past"),
    ({}, "Choose one of the debate's options"),
])
def test_bad_input_is_refused_in_the_one_shape(member_client, debate, body, message):
    response = post(member_client, debate, rationale="r", **body)
    assert response.status_code == 400
    error = response.json()
    assert error["code"] and message in error["message"] and error["detail"] == error["message"]
    assert not Decision.objects.exists()


def test_an_unfinished_debate_is_refused(member_client, team, owner):
    debate = make_debate(team, owner)
    response = post(member_client, debate, option="yes", rationale="r")
    assert response.status_code == 400 and "has not finished" in response.json()["message"]
    assert not Decision.objects.exists()


def test_roles_viewers_read_editors_write(viewer_client, outsider_client, member_client,
                                          debate):
    assert post(viewer_client, debate, option="Stay", rationale="r").status_code == 403
    assert post(outsider_client, debate, option="Stay", rationale="r").status_code == 404
    missing = viewer_client.get(f"/api/debates/{debate.code}/decision")
    assert missing.status_code == 404 and missing.json()["code"] == "no_decision"
    post(member_client, debate, option="Stay", rationale="r")
    assert viewer_client.get(f"/api/debates/{debate.code}/decision").json()["option"] == "Stay"
    assert outsider_client.get(f"/api/debates/{debate.code}/decision").status_code == 404


def test_the_log_filters_and_paginates_like_the_debate_list(member_client, team, owner):
    today = timezone.localdate()
    for n in range(3):
        d = finish(make_debate(team, owner))
        d.question = f"Question {n} about billing?" if n else "Hire a designer?"
        d.save()
        post(member_client, d, option="Stay", rationale=f"because {n}",
             review_on=today.isoformat() if n == 2 else None)
    page = member_client.get("/api/decisions/", {"page_size": 2}).json()
    assert page["count"] == 3 and page["pages"] == 2 and len(page["items"]) == 2
    assert page["next"] and page["previous"] is None
    due = member_client.get("/api/decisions/", {"state": "review_due"}).json()
    assert [i["question"] for i in due["items"]] == ["Question 2 about billing?"]
    found = member_client.get("/api/decisions/", {"q": "designer"}).json()
    assert [i["question"] for i in found["items"]] == ["Hire a designer?"]
    by_review = member_client.get("/api/decisions/", {"sort": "review"}).json()
    assert by_review["items"][0]["review_on"] == today.isoformat()
    bad = member_client.get("/api/decisions/", {"state": "maybe"})
    assert bad.status_code == 422 and "state" in bad.json()["errors"]


def test_the_log_shows_only_the_callers_team(outsider_client, member_client, debate):
    post(member_client, debate, option="Stay", rationale="r")
    assert outsider_client.get("/api/decisions/").json()["count"] == 0
