"""Whoever is not authenticated gets 401 with the API's error body and a
``WWW-Authenticate: Bearer`` header, on reads and writes alike; only a signed-in
browser's write without its CSRF token is a 403 (a real CSRF refusal)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import api_token_create, api_token_revoke
from debates.models import Debate

pytestmark = pytest.mark.django_db

QUICK = {"question": "Should we adopt a four-day week?", "mode": "quick"}
WRITES = [("post", "/api/debates/"), ("post", "/api/personas/libraries")]


def _call(client: Client, method: str, url: str):
    return getattr(client, method)(url, QUICK, content_type="application/json")


def _assert_401(response, *, invalid_token: bool) -> None:
    assert response.status_code == 401, response.content
    body = response.json()
    assert set(body) == {"code", "message", "errors", "detail"}
    assert body["code"] == "unauthorized" and body["detail"] == body["message"]
    expected = 'Bearer error="invalid_token"' if invalid_token else "Bearer"
    assert response["WWW-Authenticate"] == expected


@pytest.mark.parametrize(("method", "url"), [("get", "/api/debates/"), *WRITES])
def test_a_revoked_or_mistyped_token_is_401_on_every_method(owner, team, method, url):
    token, secret = api_token_create(user=owner, name="CI")
    api_token_revoke(token=token)
    for sent in (secret, secret + "x", "garbage"):
        client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {sent}")
        _assert_401(_call(client, method, url), invalid_token=True)
    assert not Debate.objects.exists()


def test_an_invalid_token_is_refused_even_beside_a_signed_in_session(owner, team):
    token, secret = api_token_create(user=owner, name="CI")
    api_token_revoke(token=token)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    client.force_login(owner)
    _assert_401(client.get("/api/debates/"), invalid_token=True)


@pytest.mark.parametrize(("method", "url"), [("get", "/api/debates/"), *WRITES])
def test_anonymous_callers_get_401_on_reads_and_writes(db, method, url):
    response = _call(Client(enforce_csrf_checks=True), method, url)
    _assert_401(response, invalid_token=False)
    assert "API token" in response.json()["message"]


def test_a_session_write_without_its_csrf_token_stays_403(member, team):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    response = _call(client, "post", "/api/debates/")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert not Debate.objects.exists()
