"""GET /api/debates/: the web list's filters and sorts (the same form and search, so
page and API agree), a page at a time with the total and next/previous links."""

from __future__ import annotations

import pytest
from django.test import Client

from debates.models import Debate, DebateStatus
from tests.factories import make_debate

SHAPE = {"code", "message", "errors", "detail"}


@pytest.fixture
def debates(team, owner, member):
    made = []
    for i, (user, status, cost) in enumerate([
            (owner, DebateStatus.SUCCEEDED, 0.30), (member, DebateStatus.FAILED, 0.10),
            (owner, DebateStatus.SUCCEEDED, 0.20), (owner, DebateStatus.QUEUED, 0.0)]):
        debate = make_debate(team, user)
        Debate.objects.filter(pk=debate.pk).update(
            status=status, cost_usd=cost, degraded=i == 1,
            question=f"Question {i}: should we {'migrate billing' if i % 2 else 'hire'}?")
        made.append(debate)
    return made


def _codes(items):
    return [item["code"] for item in items]


@pytest.mark.parametrize("query", [
    {},
    {"status": "succeeded"},
    {"q": "billing"},
    {"author": "member"},
    {"degraded": "yes"},
    {"degraded": "no", "sort": "cost"},
    {"sort": "oldest"},
    {"sort": "question", "status": "succeeded"},
])
def test_api_and_web_list_agree(member_client: Client, debates, query):
    web = member_client.get("/debates/", query)
    expected = [str(d.code) for d in web.context["debates"]]
    api_query = {k: {"yes": "true", "no": "false"}.get(v, v) for k, v in query.items()}
    data = member_client.get("/api/debates/", api_query).json()
    assert _codes(data["items"]) == expected
    assert data["count"] == len(expected)
    assert len(expected) < len(debates) or query.keys() <= {"sort"}  # the filter narrows


def test_sort_and_filters_narrow_as_asked(member_client, debates):
    data = member_client.get("/api/debates/", {"sort": "cost"}).json()
    assert _codes(data["items"]) == [str(debates[i].code) for i in (0, 2, 1, 3)]
    data = member_client.get("/api/debates/", {"author": "member"}).json()
    assert _codes(data["items"]) == [str(debates[1].code)]
    assert data["items"][0]["author"] == "member" and data["items"][0]["degraded"] is True


def test_pages_carry_count_and_links_to_follow(member_client, debates):
    first = member_client.get("/api/debates/", {"page_size": 3, "sort": "oldest"}).json()
    assert first["count"] == 4 and first["pages"] == 2 and first["page"] == 1
    assert first["previous"] is None and len(first["items"]) == 3
    assert "sort=oldest" in first["next"] and "cursor=" in first["next"]
    second = member_client.get(first["next"]).json()
    assert second["page"] == 2
    assert _codes(first["items"] + second["items"]) == [str(d.code) for d in debates]
    assert second["next"] is None and "cursor=" in second["previous"]
    assert member_client.get(second["previous"]).json()["items"] == first["items"]
    beyond = member_client.get("/api/debates/", {"page": 9}).json()
    assert beyond["items"] == [] and beyond["count"] == 4 and beyond["next"] is None


@pytest.mark.parametrize("query, field", [
    ({"status": "finished-ish"}, "status"),
    ({"sort": "random"}, "sort"),
    ({"created_from": "yesterday"}, "created_from"),
    ({"degraded": "maybe"}, "degraded"),
    ({"library": "not-a-uuid"}, "library"),
    ({"page": 0}, "page"),
    ({"page_size": 1000}, "page_size"),
])
def test_a_bad_filter_is_a_422_naming_it(member_client, debates, query, field):
    response = member_client.get("/api/debates/", query)
    assert response.status_code == 422
    data = response.json()
    assert set(data) == SHAPE and field in data["errors"], data


def test_the_list_is_the_current_teams_only(outsider_client, debates):
    data = outsider_client.get("/api/debates/").json()
    assert data["items"] == [] and data["count"] == 0


def test_a_list_followed_by_its_links_shows_each_row_once_while_rows_are_added(
        member_client, debates, team, member):
    seen: list[str] = []
    page = member_client.get("/api/debates/", {"page_size": 1}).json()
    while True:
        seen += _codes(page["items"])
        make_debate(team, member)  # a new debate lands at the top of the newest-first list
        if page["next"] is None:
            break
        page = member_client.get(page["next"]).json()
    assert sorted(seen) == sorted(str(d.code) for d in debates)  # each once, none new
    assert member_client.get("/api/debates/").json()["count"] == len(debates) * 2


@pytest.mark.parametrize("cursor", ["nonsense", "e30", "eyJvIjotMSwicyI6MX0"])
def test_a_cursor_the_api_did_not_give_is_refused_naming_it(member_client, cursor):
    response = member_client.get("/api/debates/", {"cursor": cursor})
    assert response.status_code == 422, response.content
    assert "cursor" in response.json()["errors"]
