"""Sign-up creates a user, their first team (owned) and logs them in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from council_site.accounts.models import Membership, Team

pytestmark = pytest.mark.django_db

FORM = {"username": "dana", "email": "dana@example.com", "team_name": "Finance",
        "password1": "a long enough passphrase 42", "password2": "a long enough passphrase 42"}


def test_signup_creates_the_user_and_their_team_as_owner(client):
    response = client.post("/accounts/signup/", FORM)
    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get(username="dana")
    membership = Membership.objects.get(user=user)
    assert membership.team.name == "Finance" and membership.role == "owner"
    assert client.get("/").status_code == 200  # logged in


def test_signup_page_renders_for_anonymous_visitors(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    assert "Team name" in response.content.decode()


def test_signup_with_mismatched_passwords_creates_nothing(client):
    response = client.post("/accounts/signup/", {**FORM, "password2": "something else 42"})
    assert response.status_code == 200
    assert not User.objects.exists() and not Team.objects.exists()


def test_signup_refuses_an_email_already_in_use(client, owner):
    response = client.post("/accounts/signup/", {**FORM, "email": "OWNER@example.com"})
    assert "already exists" in response.content.decode()
    assert not User.objects.filter(username="dana").exists()


def test_signup_returns_to_a_safe_next_page_only(client):
    response = client.post("/accounts/signup/?next=/teams/", FORM)
    assert response["Location"] == "/teams/"
    client.logout()
    form = {**FORM, "username": "eve", "email": "eve@example.com"}
    response = client.post("/accounts/signup/?next=https://evil.example/", form)
    assert response["Location"] == "/"


def test_signed_in_user_visiting_signup_is_sent_home(owner_client):
    assert owner_client.get("/accounts/signup/")["Location"] == "/"
