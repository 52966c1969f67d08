"""Login throttling (django-axes): after COUNCIL_LOGIN_FAILURE_LIMIT wrong passwords for
one username from one address, even the right password is refused, with a page saying
why, until the cool-off passes, an admin unlocks it, or the password is reset."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, override_settings
from django.utils import timezone

from accounts.services import api_token_create
from tests.conftest import PASSWORD, _client_for

pytestmark = pytest.mark.django_db

HOME = "10.0.0.1"


def _login(username: str, password: str, ip: str = HOME, **extra: str) -> tuple[int, str]:
    response = Client(REMOTE_ADDR=ip).post(
        "/accounts/login/", {"username": username, "password": password}, **extra)
    return response.status_code, response.content.decode()


def _lock_out(username: str, settings, ip: str = HOME) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(username, "wrong password", ip)


def test_after_the_limit_the_right_password_is_refused_with_an_explanation(owner, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login("owner", "wrong password")[0] == 200
    assert _login("owner", PASSWORD)[0] == 302  # one short of the limit: still let in
    _lock_out("owner", settings)
    status, page = _login("owner", PASSWORD)
    assert status == 429
    assert "Too many attempts" in page and "<strong>owner</strong>" in page
    assert f"after {settings.AXES_FAILURE_LIMIT} wrong passwords" in page
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert f"Try again in {minutes} minutes" in page
    assert 'href="/accounts/password_reset/"' in page


def test_the_lockout_holds_only_for_that_username_from_that_address(owner, member, settings):
    _lock_out("owner", settings)
    assert _login("owner", PASSWORD, ip="10.0.0.2")[0] == 302
    assert _login("member", PASSWORD)[0] == 302
    assert _login("owner", PASSWORD)[0] == 429


def test_a_forged_forwarded_for_header_does_not_escape_the_lockout(owner, settings):
    _lock_out("owner", settings)
    assert _login("owner", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9")[0] == 429


@override_settings(DJANGO_BEHIND_PROXY=True)
def test_behind_the_proxy_the_address_it_appended_counts(owner, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login("owner", "wrong password", ip="10.9.9.9",
               HTTP_X_FORWARDED_FOR="198.51.100.1, 192.0.2.7")
    # Same proxy, another client: not locked; the same client, whatever it claims: locked.
    assert _login("owner", PASSWORD, ip="10.9.9.9", HTTP_X_FORWARDED_FOR="192.0.2.8")[0] == 302
    assert _login("owner", PASSWORD, ip="10.9.9.9",
                  HTTP_X_FORWARDED_FOR="1.2.3.4, 192.0.2.7")[0] == 429


def test_the_lockout_ends_after_the_cool_off(owner, settings):
    _lock_out("owner", settings)
    assert _login("owner", PASSWORD)[0] == 429
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert _login("owner", PASSWORD)[0] == 302


def test_an_admin_unlocks_from_the_admin_site(owner, settings):
    _lock_out("owner", settings)
    admin = User.objects.create_superuser("root", "root@example.com", "x")
    attempt = AccessAttempt.objects.get(username="owner")
    client = _client_for(admin)
    assert "owner" in client.get("/admin/axes/accessattempt/").content.decode()
    response = client.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert _login("owner", PASSWORD)[0] == 302


def test_resetting_the_password_lifts_the_lockout(owner, settings):
    _lock_out("owner", settings)
    Client().post("/accounts/password_reset/", {"email": "owner@example.com"})
    path = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    client = Client()
    set_url = client.get(path, follow=True).redirect_chain[-1][0]
    new = "a brand new passphrase 77"
    client.post(set_url, {"new_password1": new, "new_password2": new})
    assert _login("owner", new)[0] == 302


def test_api_tokens_keep_working_for_a_locked_out_user(owner, team, settings):
    _, secret = api_token_create(user=owner, name="ci")
    _lock_out("owner", settings)
    response = Client(REMOTE_ADDR=HOME).get("/api/teams/", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200
