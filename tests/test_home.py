"""The home page and logging in and out."""

from __future__ import annotations

import html

import pytest

from tests.conftest import PASSWORD


@pytest.mark.django_db
def test_anonymous_visitor_is_sent_to_login(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/"


def test_member_sees_the_debates_page(member_client):
    response = member_client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Debates</h1>" in html
    assert "Acme" in html
    assert "Council" in html


def test_login_with_password_then_logout_by_post(client, owner):
    response = client.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").status_code == 200

    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.get("/").status_code == 302


def test_wrong_password_shows_an_error(client, owner):
    response = client.post("/accounts/login/", {"username": "owner", "password": "nope"})
    assert response.status_code == 200
    # The sentence is translated text, escaped as any text on a page ("didn&#x27;t").
    assert "didn't match" in html.unescape(response.content.decode())


def test_a_user_without_a_team_is_told_only_that(client, db):
    from django.contrib.auth.models import User

    User.objects.create_user(username="loner", password=PASSWORD)
    client.force_login(User.objects.get(username="loner"))
    html = client.get("/").content.decode()
    assert "You are not in a team yet" in html
    assert "No debates yet" not in html
