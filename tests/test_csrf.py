"""CSRF is enforced on every state-changing route: without a token 403 and nothing
changes; with the token the same request succeeds. The routes come from the
permission matrix, so a new POST route is covered as soon as it has a row there."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.test import Client
from django.utils.crypto import get_random_string

from tests.test_permission_matrix import OK, ROUTES, ROWS, R, World, prepare
from tests.test_permission_matrix import world as world  # noqa: F401  (the fixture)

CSRF_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
WRITES = [row for row in ROWS if row.method != "GET" and row.route in ROUTES]


def _counts() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


def _role_allowed(row: R) -> str:
    """A role the row lets through (owner unless only someone else may, e.g. accepting
    an invitation); a row whose writers meet a state check (409) counts as let through."""
    return next(role for role in ("owner", "editor", "outsider")
                if row.expect[role] not in (403, 404))


def _post(client: Client, row: R, url: str, data: dict[str, Any], token: str | None) -> Any:
    headers = {"HTTP_X_CSRFTOKEN": token} if (token and row.is_api) else {}
    if row.is_api:
        return client.generic(row.method, url, json.dumps(data),
                              content_type="application/json", **headers)
    if token:
        data = {**data, "csrfmiddlewaretoken": token}
    return client.generic(row.method, url, urlencode(data, doseq=True),
                          content_type="application/x-www-form-urlencoded")


@pytest.mark.parametrize("row", [pytest.param(r, id=str(r)) for r in WRITES if not r.known_bug])
def test_a_write_without_the_csrf_token_is_refused_and_with_it_succeeds(row: R, world: World):
    role = _role_allowed(row)
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users[role])
    secret = get_random_string(32, CSRF_CHARS)
    client.cookies["csrftoken"] = secret
    url, data = prepare(row, world, role)

    before = _counts()
    response = _post(client, row, url, data, token=None)
    assert response.status_code == 403, f"{row} without a token: {response.status_code}"
    assert _counts() == before, f"{row} without a token changed data"

    response = _post(client, row, url, data, token=secret)
    expected = row.expect[role]
    passed = 200 <= response.status_code < 400 if expected == OK else (
        response.status_code == expected)
    assert passed, f"{row} with the token: {response.status_code}"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/accounts/logout/"])
def test_public_forms_need_the_token_too(url):
    client = Client(enforce_csrf_checks=True)
    assert client.post(url, {"username": "x", "password": "y"}).status_code == 403


def test_the_csrf_table_covers_every_write_route_of_the_matrix():
    assert WRITES, "no write routes found"
    assert {r.route for r in WRITES} >= {"teams/switch", "personas/libraries/new",
                                          "debates/<uuid:code>/comments/"}
