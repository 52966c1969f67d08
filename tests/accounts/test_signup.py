"""Sign-up creates a user, their first team (owned) and logs them in."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.models import Membership, Team

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


def _signup_seen(email: str) -> tuple[int, str, str]:
    """What a visitor signing up with ``email`` sees: status, where they go, that page."""
    client = Client()
    response = client.post("/accounts/signup/", {**FORM, "email": email})
    page = client.get(response["Location"]).content.decode()
    said = re.search(r'<ul class="messages".*?</ul>', page, re.S)
    assert said, "the sign-up says nothing"
    # What it says names the address typed, the one thing that differs by design.
    return response.status_code, response["Location"], said.group(0).replace(email, "ADDRESS")


def test_signup_does_not_tell_whether_an_email_is_registered(owner):
    taken = _signup_seen("OWNER@example.com")
    User.objects.filter(username="dana").delete()
    fresh = _signup_seen("someone.new@example.com")
    assert taken == fresh
    assert "already" not in taken[2]


def test_signup_mails_a_new_address_its_link_and_a_taken_one_a_notice(client, owner):
    client.post("/accounts/signup/", {**FORM, "email": "new@example.com"})
    [link] = mail.outbox
    assert link.to == ["new@example.com"] and "/accounts/verify-email/" in link.body
    mail.outbox.clear()
    Client().post("/accounts/signup/", {**FORM, "username": "mallory",
                                        "email": "OWNER@example.com"})
    [notice] = mail.outbox
    assert notice.to == ["OWNER@example.com"]
    assert "owner" in notice.body and "/accounts/password_reset/" in notice.body
    assert "/accounts/verify-email/" not in notice.body


def test_signup_returns_to_a_safe_next_page_only(client):
    response = client.post("/accounts/signup/?next=/teams/", FORM)
    assert response["Location"] == "/teams/"
    client.logout()
    form = {**FORM, "username": "eve", "email": "eve@example.com"}
    response = client.post("/accounts/signup/?next=https://evil.example/", form)
    assert response["Location"] == "/"


def test_signed_in_user_visiting_signup_is_sent_home(owner_client):
    assert owner_client.get("/accounts/signup/")["Location"] == "/"
