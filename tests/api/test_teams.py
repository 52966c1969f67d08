"""GET /api/teams: the caller's teams, one team's limits, its members (read only)."""

from __future__ import annotations

from django.test import Client

from accounts.services import api_token_create, membership_add


def test_teams_lists_yours_with_role_and_the_current_one(viewer, team, other_team, outsider):
    membership_add(team=other_team, user=viewer, role="editor")
    _, secret = api_token_create(user=viewer, name="t")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    data = client.get("/api/teams/").json()
    roles = {t["code"]: (t["role"], t["current"]) for t in data}
    assert roles == {str(team.code): ("viewer", True), str(other_team.code): ("editor", False)}
    switched = client.get("/api/teams/", HTTP_X_COUNCIL_TEAM=str(other_team.code)).json()
    assert [t["code"] for t in switched if t["current"]] == [str(other_team.code)]


def test_team_detail_and_members(viewer_client, team, owner, member, viewer):
    team.debates_per_hour = 7
    team.save()
    detail = viewer_client.get(f"/api/teams/{team.code}").json()
    assert detail["role"] == "viewer" and detail["member_count"] == 3
    assert detail["limits"] == {"monthly_budget_usd": None, "debate_cost_cap_usd": None,
                                "debates_per_hour": 7, "allow_unpriced_models": False}
    members = viewer_client.get(f"/api/teams/{team.code}/members").json()
    assert [(m["username"], m["role"]) for m in members] == [
        ("member", "editor"), ("owner", "owner"), ("viewer", "viewer")]


def test_another_team_is_404(member_client, other_team):
    for url in (f"/api/teams/{other_team.code}", f"/api/teams/{other_team.code}/members"):
        response = member_client.get(url)
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_new_users_token_makes_its_first_team_and_works_in_it(db):
    from django.contrib.auth.models import User
    from django.test import Client

    from accounts.models import Membership
    from accounts.services import api_token_create

    newcomer = User.objects.create_user("newcomer", password="pw-long-enough-1")
    _, secret = api_token_create(user=newcomer, name="agent")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert client.get("/api/debates/").status_code == 403  # no team yet
    made = client.post("/api/teams/", {"name": "  Agents   team "},
                       content_type="application/json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["name"] == "Agents team" and body["role"] == "owner"
    assert made["Location"] == f"/api/teams/{body['code']}"
    assert client.get(made["Location"]).json()["member_count"] == 1
    assert Membership.objects.get(user=newcomer).role == "owner"
    assert client.get("/api/debates/").status_code == 200


def test_a_team_needs_a_name(owner):
    from django.test import Client

    from accounts.services import api_token_create

    _, secret = api_token_create(user=owner, name="wide")
    wide = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    blank = wide.post("/api/teams/", {"name": "   "}, content_type="application/json")
    assert blank.status_code == 422 and "name" in blank.json()["errors"]
