"""Invitations: owners create and revoke links; a signed-in user accepts once, in time."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from accounts import selectors
from accounts.models import Invitation, Membership, invitation_digest
from accounts.services import invitation_create
from tests.conftest import _client_for


def _invite(team, owner, **kw):
    invitation, secret = invitation_create(team=team, created_by=owner,
                                           role=kw.pop("role", "editor"), **kw)
    invitation.secret = secret  # only the digest is stored: the test keeps the link's secret
    return invitation


@pytest.fixture
def newcomer(db):
    return User.objects.create_user(username="newcomer", email="new@example.com", password="x")


def _secret_in(text: str) -> str:
    found = re.search(r"/invitations/([\w-]+)/", text)
    assert found, "no invitation link in the text"
    return found.group(1)


def test_owner_creates_an_invitation_and_sees_the_link(owner_client, team):
    response = owner_client.post(f"/teams/{team.code}/invitations/",
                                 {"role": "editor", "valid_days": 7}, follow=True)
    invitation = Invitation.objects.get(team=team)
    assert invitation.role == "editor" and invitation.status == "pending"
    assert invitation_digest(_secret_in(response.content.decode())) == invitation.digest
    assert response["Cache-Control"] == "no-store"
    assert mail.outbox == []


def test_the_link_is_stored_only_as_a_digest_and_shown_once(owner_client, team):
    response = owner_client.post(f"/teams/{team.code}/invitations/",
                                 {"role": "editor", "valid_days": 7})
    secret = _secret_in(response.content.decode())
    invitation = Invitation.objects.get(team=team)
    stored = [str(v) for v in Invitation.objects.filter(pk=invitation.pk).values().get().values()]
    assert secret not in stored and invitation.digest in stored
    assert secret not in owner_client.get(f"/teams/{team.code}/").content.decode()
    assert selectors.invitation_by_token(token=secret) == invitation
    assert selectors.invitation_by_token(token=invitation.digest) is None


def test_an_invitation_with_an_email_is_mailed(owner_client, team):
    owner_client.post(f"/teams/{team.code}/invitations/",
                      {"role": "viewer", "valid_days": 3, "email": "new@example.com"})
    invitation = Invitation.objects.get(team=team)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["new@example.com"]
    assert invitation_digest(_secret_in(mail.outbox[0].body)) == invitation.digest


@pytest.mark.parametrize("fields, says", [
    ({"role": "viewer", "email": "not-an-address", "valid_days": "7"},
     "Email: Enter a valid email address."),
    ({"role": "viewer", "valid_days": "400"},
     "Valid for (days): Ensure this value is less than or equal to 90."),
    ({"role": "boss", "valid_days": "7"}, "Role: Select a valid choice."),
])
def test_a_refused_invitation_names_the_field_and_why(owner_client, team, fields, says):
    response = owner_client.post(f"/teams/{team.code}/invitations/", fields)
    html = response.content.decode()
    assert response.status_code == 400 and not Invitation.objects.exists()
    assert "Invitation not created: " + says in html.replace("&#x27;", "'")
    assert "check the role, email and days" not in html


def test_editor_cannot_invite(member_client, team):
    response = member_client.post(f"/teams/{team.code}/invitations/", {"role": "owner",
                                                                       "valid_days": 7})
    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_accepting_the_link_adds_the_membership(team, owner, newcomer):
    invitation = _invite(team, owner)
    client = _client_for(newcomer)
    assert "Accept and join" in client.get(f"/invitations/{invitation.secret}/").content.decode()
    response = client.post(f"/invitations/{invitation.secret}/")
    assert response.status_code == 302
    assert Membership.objects.get(team=team, user=newcomer).role == "editor"
    invitation.refresh_from_db()
    assert invitation.accepted_by == newcomer and invitation.status == "accepted"
    assert client.session["team_code"] == str(team.code)


def test_an_expired_invitation_is_refused_with_a_clear_message(team, owner, newcomer):
    invitation = _invite(team, owner)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1))
    client = _client_for(newcomer)
    response = client.post(f"/invitations/{invitation.secret}/")
    assert response.status_code == 409
    assert "expired" in response.content.decode()
    assert not Membership.objects.filter(user=newcomer, team=team).exists()


def test_a_used_invitation_cannot_be_used_again(team, owner, newcomer, outsider):
    invitation = _invite(team, owner)
    _client_for(newcomer).post(f"/invitations/{invitation.secret}/")
    response = _client_for(outsider).post(f"/invitations/{invitation.secret}/")
    assert "already been used" in response.content.decode()
    assert not Membership.objects.filter(user=outsider, team=team).exists()


def test_a_revoked_invitation_cannot_be_used(owner_client, team, owner, newcomer):
    invitation = _invite(team, owner)
    owner_client.post(f"/teams/{team.code}/invitations/{invitation.code}/revoke")
    response = _client_for(newcomer).post(f"/invitations/{invitation.secret}/")
    assert "withdrawn" in response.content.decode()
    assert not Membership.objects.filter(user=newcomer, team=team).exists()


def test_an_invitation_for_another_address_is_refused(team, owner, newcomer):
    invitation = _invite(team, owner, email="someone.else@example.com")
    response = _client_for(newcomer).post(f"/invitations/{invitation.secret}/")
    assert "different email" in response.content.decode()
    assert not Membership.objects.filter(user=newcomer, team=team).exists()


def test_a_member_cannot_change_their_role_with_an_invitation(team, owner, viewer):
    invitation = _invite(team, owner, role="owner")
    response = _client_for(viewer).post(f"/invitations/{invitation.secret}/")
    assert "already a member" in response.content.decode()
    assert Membership.objects.get(team=team, user=viewer).role == "viewer"
    invitation.refresh_from_db()
    assert invitation.status == "pending"


def test_an_invitation_cannot_be_revoked_through_another_team(team, owner, other_team,
                                                               outsider):
    invitation = _invite(team, owner)
    client = _client_for(outsider)
    assert client.post(f"/teams/{other_team.code}/invitations/{invitation.code}/revoke"
                       ).status_code == 404
    assert client.post(f"/teams/{team.code}/invitations/{invitation.code}/revoke"
                       ).status_code == 404
    invitation.refresh_from_db()
    assert invitation.status == "pending"


def test_accepting_joins_the_inviting_team_only(team, owner, other_team, outsider, newcomer):
    invitation = _invite(team, owner)
    _client_for(newcomer).post(f"/invitations/{invitation.secret}/")
    assert list(Membership.objects.filter(user=newcomer).values_list("team", flat=True)) == [
        team.pk]


def test_an_unknown_token_is_not_found(outsider_client):
    assert outsider_client.get("/invitations/not-a-token/").status_code == 404


def test_anonymous_visitor_is_asked_to_log_in_first(client, team, owner):
    invitation = _invite(team, owner)
    response = client.get(f"/invitations/{invitation.secret}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/invitations/")


def test_a_mail_failure_still_leaves_a_usable_link(owner_client, team, monkeypatch):
    def broken(**kwargs):
        raise ConnectionRefusedError("no SMTP server")

    monkeypatch.setattr("accounts.services.send_mail", broken)
    response = owner_client.post(f"/teams/{team.code}/invitations/",
                                 {"role": "viewer", "valid_days": 3, "email": "x@example.com"},
                                 follow=True)
    invitation = Invitation.objects.get(team=team)
    html = response.content.decode()
    assert "failed" in html and invitation_digest(_secret_in(html)) == invitation.digest


def test_the_mailed_link_starts_with_the_configured_site_url(owner_client, team, settings):
    settings.COUNCIL_SITE_URL = "https://council.example.org/"
    owner_client.post(f"/teams/{team.code}/invitations/",
                      {"role": "viewer", "valid_days": 3, "email": "new@example.com"},
                      HTTP_HOST="localhost")
    assert "https://council.example.org/invitations/" in mail.outbox[0].body
