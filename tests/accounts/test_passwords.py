"""Password reset by a mailed link (built from COUNCIL_SITE_URL, never the request's
Host), and password change for a signed-in user, optionally revoking their API tokens."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, override_settings

from accounts.models import ApiToken
from accounts.services import api_token_create, api_token_use
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "a brand new passphrase 77"


def _reset_link(email: str, host: str = "testserver") -> str:
    mail.outbox.clear()
    response = Client().post("/accounts/password_reset/", {"email": email}, HTTP_HOST=host)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password_reset/done/"
    [message] = mail.outbox
    found = re.search(r"(https?://\S+?)(/accounts/reset/\S+/)", message.body)
    assert found, message.body
    return found.group(1) + found.group(2)


def test_the_login_page_offers_a_password_reset(client, db):
    html = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password_reset/"' in html
    assert client.get("/accounts/password_reset/").status_code == 200


@override_settings(COUNCIL_SITE_URL="https://council.example.org")
def test_the_reset_link_uses_the_configured_site_not_the_request_host(owner):
    link = _reset_link("owner@example.com", host="localhost")
    assert link.startswith("https://council.example.org/accounts/reset/")


def test_a_reset_link_sets_a_new_password_once(owner):
    link = _reset_link("OWNER@example.com")
    path = "/" + link.split("/", 3)[3]
    client = Client()
    form_page = client.get(path, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert response["Location"] == "/accounts/reset/done/"
    owner.refresh_from_db()
    assert owner.check_password(NEW)
    # The link is spent: the password it was made for has changed.
    again = Client().get(path, follow=True).content.decode()
    assert "This link is not valid" in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(owner):
    response = Client().post("/accounts/password_reset/", {"email": "nobody@example.com"})
    assert response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_the_account_page_links_to_password_change(owner_client):
    html = owner_client.get("/accounts/").content.decode()
    assert 'href="/accounts/password_change/"' in html


def test_changing_the_password_keeps_the_session_and_the_tokens(owner, owner_client):
    _, secret = api_token_create(user=owner, name="ci")
    response = owner_client.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW})
    assert response["Location"] == "/accounts/password_change/done/"
    owner.refresh_from_db()
    assert owner.check_password(NEW)
    assert owner_client.get("/accounts/").status_code == 200
    assert api_token_use(secret=secret) is not None


def test_changing_the_password_can_revoke_every_api_token(owner, owner_client, member):
    _, mine = api_token_create(user=owner, name="ci")
    _, also_mine = api_token_create(user=owner, name="laptop")
    _, theirs = api_token_create(user=member, name="theirs")
    response = owner_client.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW,
        "revoke_api_tokens": "on"}, follow=True)
    assert "2 API tokens revoked" in response.content.decode()
    assert api_token_use(secret=mine) is None and api_token_use(secret=also_mine) is None
    assert api_token_use(secret=theirs) is not None
    assert ApiToken.objects.filter(user=owner, revoked_at__isnull=True).count() == 0


def test_a_wrong_old_password_changes_nothing(owner, owner_client):
    _, secret = api_token_create(user=owner, name="ci")
    response = owner_client.post("/accounts/password_change/", {
        "old_password": "wrong", "new_password1": NEW, "new_password2": NEW,
        "revoke_api_tokens": "on"})
    assert response.status_code == 200
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD) and api_token_use(secret=secret) is not None


def test_password_change_needs_a_signed_in_user(client, db):
    response = client.get("/accounts/password_change/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not User.objects.exists()
