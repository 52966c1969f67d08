"""An address counts as the user's only after they follow a signed link mailed to it,
and only then may they accept an invitation bound to that address."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, override_settings
from django.utils import timezone

from accounts import selectors, services
from accounts.models import Membership
from tests.conftest import _client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana(db):
    return User.objects.create_user(username="dana", email="dana@example.com", password="x")


def _mailed_link(client: Client) -> str:
    """Asks for the verification mail and returns the path of the link in it."""
    mail.outbox.clear()
    client.post("/accounts/verify-email/")
    [message] = mail.outbox
    found = re.search(r"https?://[^/\s]+(/accounts/verify-email/\S+)", message.body)
    assert found, message.body
    return found.group(1)


def test_a_new_account_is_unverified_until_the_link_is_confirmed(dana):
    client = _client_for(dana)
    assert "not confirmed" in client.get("/accounts/").content.decode()
    link = _mailed_link(client)
    # Opening the link only asks (mail scanners open links); the POST confirms.
    assert client.get(link).status_code == 200
    assert not selectors.email_is_verified(user=dana)
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert selectors.email_is_verified(user=dana)
    assert "confirmed" in client.get("/accounts/").content.decode()


def test_the_link_starts_with_the_configured_site_url(dana):
    with override_settings(COUNCIL_SITE_URL="https://council.example.org"):
        _client_for(dana).post("/accounts/verify-email/", HTTP_HOST="localhost")
    assert "https://council.example.org/accounts/verify-email/" in mail.outbox[0].body


def test_a_tampered_link_confirms_nothing(dana):
    signed = _mailed_link(_client_for(dana)).split("/")[3]
    forged = signed[:-2] + ("xx" if not signed.endswith("xx") else "yy")
    response = Client().post(f"/accounts/verify-email/{forged}/")
    assert response.status_code == 400 and "not valid" in response.content.decode()
    assert not selectors.email_is_verified(user=dana)


def test_an_expired_link_is_refused(dana, settings):
    link = _mailed_link(_client_for(dana))
    later = timezone.now() + timedelta(days=settings.COUNCIL_EMAIL_VERIFICATION_DAYS, hours=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("time.time", lambda: later.timestamp())
        response = Client().post(link)
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert not selectors.email_is_verified(user=dana)


def test_a_link_for_an_address_the_user_left_confirms_nothing(dana):
    link = _mailed_link(_client_for(dana))
    User.objects.filter(pk=dana.pk).update(email="dana@elsewhere.example")
    assert Client().post(link).status_code == 400
    dana.refresh_from_db()
    assert not selectors.email_is_verified(user=dana)


def test_changing_the_address_makes_an_earlier_confirmation_stale(dana):
    Client().post(_mailed_link(_client_for(dana)))
    User.objects.filter(pk=dana.pk).update(email="dana@elsewhere.example")
    dana.refresh_from_db()
    assert not selectors.email_is_verified(user=dana)


def test_an_email_bound_invitation_waits_for_the_address_to_be_confirmed(team, owner, dana):
    invitation, secret = services.invitation_create(team=team, created_by=owner,
                                                    role="editor", email="DANA@example.com")
    client = _client_for(dana)
    page = client.get(f"/invitations/{secret}/").content.decode()
    assert "Confirm that this address is yours" in page and "Accept and join" not in page
    response = client.post(f"/invitations/{secret}/")
    assert response.status_code == 409
    assert not Membership.objects.filter(team=team, user=dana).exists()

    # The invitation page mails the link, which leads back to the invitation.
    mail.outbox.clear()
    client.post("/accounts/verify-email/", {"next": f"/invitations/{secret}/"})
    link = re.search(r"https?://[^/\s]+(/accounts/verify-email/\S+)", mail.outbox[0].body)
    assert link
    assert client.post(link.group(1))["Location"] == f"/invitations/{secret}/"
    assert client.post(f"/invitations/{secret}/").status_code == 302
    assert Membership.objects.get(team=team, user=dana).role == "editor"


def test_signing_up_with_the_invitees_address_does_not_accept_the_invitation(team, owner):
    invitation, secret = services.invitation_create(team=team, created_by=owner,
                                                    role="owner", email="ceo@example.com")
    mallory = Client()
    mallory.post(f"/accounts/signup/?next=/invitations/{secret}/", {
        "username": "mallory", "email": "ceo@example.com",
        "password1": "a long enough passphrase 42", "password2": "a long enough passphrase 42"})
    response = mallory.post(f"/invitations/{secret}/")
    assert response.status_code == 409
    assert not Membership.objects.filter(team=team, user__username="mallory").exists()


def test_an_invitation_without_an_address_needs_no_confirmation(team, owner, dana):
    invitation, secret = services.invitation_create(team=team, created_by=owner, role="viewer")
    assert _client_for(dana).post(f"/invitations/{secret}/").status_code == 302
    assert Membership.objects.filter(team=team, user=dana).exists()


def test_the_admin_lists_confirmed_addresses_but_cannot_invent_one(dana):
    Client().post(_mailed_link(_client_for(dana)))
    admin = _client_for(User.objects.create_superuser("root", "root@example.com", "x"))
    assert "dana@example.com" in admin.get("/admin/accounts/verifiedemail/").content.decode()
    assert admin.get("/admin/accounts/verifiedemail/add/").status_code == 403
