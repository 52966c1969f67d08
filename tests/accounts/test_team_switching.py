"""Switching teams: the session remembers the choice, validated against memberships."""

from __future__ import annotations

from django.test import RequestFactory

from accounts.models import Membership
from accounts.selectors import current_team
from accounts.services import membership_add, team_create


def _request(client, user):
    request = RequestFactory().get("/")
    request.user = user
    request.session = client.session
    return request


def test_current_team_defaults_to_the_first_team_joined(owner_client, owner, team):
    team_create(name="Later", owner=owner)
    assert current_team(_request(owner_client, owner)) == team


def test_switching_makes_another_team_current(owner_client, owner, team):
    later = team_create(name="Later", owner=owner)
    response = owner_client.post("/teams/switch", {"team": str(later.code), "next": "/teams/"})
    assert response.status_code == 302 and response["Location"] == "/teams/"
    assert current_team(_request(owner_client, owner)) == later
    assert "Later" in owner_client.get("/personas/").content.decode()


def test_switching_to_a_team_you_are_not_in_is_not_found(owner_client, owner, team, other_team):
    response = owner_client.post("/teams/switch", {"team": str(other_team.code)})
    assert response.status_code == 404
    assert current_team(_request(owner_client, owner)) == team


def test_a_team_you_were_removed_from_is_no_longer_current(member_client, member, team, owner):
    mine = team_create(name="Mine", owner=member)
    member_client.post("/teams/switch", {"team": str(team.code)})
    Membership.objects.filter(team=team, user=member).delete()
    assert current_team(_request(member_client, member)) == mine


def test_the_nav_offers_every_team_of_the_user(owner_client, owner, team, other_team, outsider):
    membership_add(team=other_team, user=owner, role="viewer")
    html = owner_client.get("/teams/").content.decode()
    assert 'action="/teams/switch"' in html
    assert str(team.code) in html and str(other_team.code) in html


def test_creating_a_team_makes_it_current(owner_client, owner, team):
    response = owner_client.post("/teams/new", {"name": "Research"})
    assert response.status_code == 302
    assert current_team(_request(owner_client, owner)).name == "Research"
