"""The team pages' small things a person trips over (issue 41, item 7): the only owner
is offered no "Remove" for herself, GET /teams/new leads to the form instead of a bare
405, the members table scrolls by keyboard, and an invited sign-up shows one message,
the right one."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import services
from accounts.models import Membership

pytestmark = pytest.mark.django_db


def _remove_forms(page: str) -> int:
    return len(re.findall(r'action="/teams/[^"]+/members/[^"]+/remove"', page))


def test_the_only_owner_is_not_offered_remove_for_herself(team, owner_client, member):
    page = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert _remove_forms(page) == 1  # the editor's row only
    assert "the only owner" in page
    services.membership_change_role(
        membership=Membership.objects.get(team=team, user=member), role="owner")
    page = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert _remove_forms(page) == 2 and "the only owner" not in page


def test_the_members_table_is_a_keyboard_scrollable_region(team, owner_client):
    page = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert re.search(r'<div class="table-wrap" tabindex="0" role="region" '
                     r'aria-labelledby="members-heading">', page)
    assert 'id="members-heading"' in page


def test_get_teams_new_leads_to_the_new_team_form(owner_client):
    response = owner_client.get("/teams/new")
    assert response.status_code == 302
    assert response["Location"] == "/teams/#new-team"
    assert 'id="new-team"' in owner_client.get(response["Location"]).content.decode()


def _messages(page: str) -> list[str]:
    return re.findall(r'<li class="message ([a-z]+)">', page)


@pytest.mark.parametrize("email", ["ceo@example.com", ""])
def test_an_invited_sign_up_shows_one_message_the_right_one(team, owner, email):
    _, secret = services.invitation_create(team=team, created_by=owner, role="editor",
                                           email=email)
    client = Client()
    response = client.post(f"/accounts/signup/?next=/invitations/{secret}/", {
        "username": "newcomer", "email": "ceo@example.com",
        "password1": "a long enough passphrase 42",
        "password2": "a long enough passphrase 42"}, follow=True)
    page = response.content.decode()
    assert _messages(page) == ["info"], page  # "We sent a link …", no green welcome
    assert 'class="error"' not in page and 'role="alert"' not in page
    if email:  # the address to confirm first: a next step, said once
        assert '<p class="notice" role="status">' in page and "Accept and join" not in page
    else:
        assert "Accept and join" in page
