"""Joining a team by invitation: the invitee signs up without a team of their own,
and the login and sign-up pages reached from the link say what it is for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Membership, Team
from accounts.services import invitation_create, invitation_revoke

FORM = {"username": "dana", "email": "dana@example.com",
        "password1": "a long enough passphrase 42", "password2": "a long enough passphrase 42"}


@pytest.fixture
def invitation(team, owner):
    invitation, secret = invitation_create(team=team, created_by=owner, role="editor")
    invitation.secret = secret  # only the digest is stored: the test keeps the link's secret
    return invitation


def _link(invitation) -> str:
    return f"/invitations/{invitation.secret}/"


def test_the_invitation_link_sends_a_visitor_to_a_login_page_that_says_why(client, invitation):
    response = client.get(_link(invitation))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    html = client.get(response["Location"]).content.decode()
    assert "invited to join Acme as editor" in html
    assert "no team of your own is needed" in html
    assert "your first team is created with you" not in html
    assert f"/accounts/signup/?next=/invitations/{invitation.secret}/" in html


def test_an_invitee_signs_up_without_a_team_and_then_joins(client, invitation, team):
    page = client.get("/accounts/signup/", {"next": _link(invitation)}).content.decode()
    assert "Team name" not in page and "you do not need a team of your own" in page
    response = client.post(f"/accounts/signup/?next={_link(invitation)}", FORM)
    assert response.status_code == 302 and response["Location"] == _link(invitation)
    dana = User.objects.get(username="dana")
    assert not Membership.objects.filter(user=dana).exists()
    assert Team.objects.count() == 1  # only Acme: no team of dana's own
    client.post(_link(invitation))
    assert Membership.objects.get(user=dana).team == team


def test_a_plain_signup_still_needs_a_team_name(client, db):
    response = client.post("/accounts/signup/", FORM)
    assert response.status_code == 200 and not User.objects.exists()
    assert "Team name" in response.content.decode()


def test_a_used_or_withdrawn_invitation_does_not_waive_the_team(client, invitation):
    invitation_revoke(invitation=invitation)
    page = client.get("/accounts/signup/", {"next": _link(invitation)}).content.decode()
    assert "Team name" in page and "invited to join" not in page
    login = Client().get("/accounts/login/", {"next": _link(invitation)}).content.decode()
    assert "invited to join" not in login


def test_an_unrelated_next_changes_nothing(client, db):
    page = client.get("/accounts/login/", {"next": "/teams/"}).content.decode()
    assert "invited to join" not in page and "your first team is created with you" in page
