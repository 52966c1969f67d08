"""Personal API tokens: made and revoked by their user, stored as a hash only, and
acting with exactly their user's teams and roles."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from council_site.accounts.models import ApiToken
from council_site.accounts.services import api_token_create, api_token_revoke
from debates.engine.schemas import DebateConfig
from debates.models import Debate
from debates.services import debate_create

pytestmark = pytest.mark.django_db

QUICK = {"question": "Should we adopt a four-day week?", "mode": "quick",
         "model": "sim/default"}


def bearer(secret: str, **extra: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}", **extra)


def test_only_a_hash_is_stored(owner):
    token, secret = api_token_create(user=owner, name="CI")
    assert secret.startswith("council_") and len(secret) > 40
    row = ApiToken.objects.values().get(pk=token.pk)
    assert secret not in [str(v) for v in row.values()]
    assert row["digest"] != secret and len(row["digest"]) == 64
    # Not anywhere in the table, in whatever column.
    with connection.cursor() as cur:
        cur.execute(f"SELECT * FROM {ApiToken._meta.db_table}")
        assert not any(secret in str(v) for r in cur.fetchall() for v in r)
    assert secret.startswith(token.prefix) and len(token.prefix) < 16


def test_token_reads_as_its_user_and_records_last_use(owner, team):
    token, secret = api_token_create(user=owner, name="CI")
    assert token.last_used_at is None
    response = bearer(secret).get("/api/debates/")
    assert response.status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_no_token_wrong_token_and_revoked_token_are_refused(owner, team):
    token, secret = api_token_create(user=owner, name="CI")
    assert Client().get("/api/debates/").status_code == 401
    assert bearer(secret + "x").get("/api/debates/").status_code == 401
    assert bearer("council_" + "A" * 43).get("/api/debates/").status_code == 401
    api_token_revoke(token=token)
    assert bearer(secret).get("/api/debates/").status_code == 401
    assert bearer(secret).post("/api/debates/", QUICK,
                               content_type="application/json").status_code == 401


def test_inactive_users_token_is_refused(owner, team):
    _, secret = api_token_create(user=owner, name="CI")
    owner.is_active = False
    owner.save()
    assert bearer(secret).get("/api/debates/").status_code == 401


def test_viewer_token_reads_but_cannot_write(viewer, team, owner):
    debate = debate_create(team=team, user=owner, question="Hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    _, secret = api_token_create(user=viewer, name="viewer script")
    client = bearer(secret)
    assert client.get(f"/api/debates/{debate.code}").status_code == 200
    before = Debate.objects.count()
    assert client.post("/api/debates/", QUICK,
                       content_type="application/json").status_code == 403
    assert client.post(f"/api/debates/{debate.code}/cancel").status_code == 403
    assert Debate.objects.count() == before


def test_editor_token_writes_without_csrf(member, team):
    _, secret = api_token_create(user=member, name="CI")
    client = bearer(secret, enforce_csrf_checks=True)
    response = client.post("/api/debates/", QUICK, content_type="application/json")
    assert response.status_code == 201, response.content
    assert Debate.objects.get(code=response.json()["code"]).created_by == member


def test_session_posts_still_need_csrf(member_client, member, team):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    response = client.post("/api/debates/", QUICK, content_type="application/json")
    assert response.status_code == 403
    assert not Debate.objects.exists()


def test_another_teams_objects_are_404(outsider, team, owner):
    debate = debate_create(team=team, user=owner, question="Hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    _, secret = api_token_create(user=outsider, name="CI")
    client = bearer(secret)
    assert client.get(f"/api/debates/{debate.code}").status_code == 404
    assert client.get(f"/api/debates/{debate.code}/events").status_code == 404
    assert str(debate.code) not in client.get("/api/debates/").content.decode()


def test_team_header_picks_the_team_for_current_team_routes(owner, team, outsider,
                                                            other_team):
    from council_site.accounts.services import membership_add, team_create

    second = team_create(name="Second", owner=owner)
    _, secret = api_token_create(user=owner, name="CI")
    client = bearer(secret, HTTP_X_COUNCIL_TEAM=str(second.code))
    response = client.post("/api/debates/", QUICK, content_type="application/json")
    assert response.status_code == 201
    assert Debate.objects.get(code=response.json()["code"]).team == second
    # A team the caller does not belong to is refused (404, like any object outside
    # one's teams), not swapped for another one.
    foreign = bearer(secret, HTTP_X_COUNCIL_TEAM=str(other_team.code))
    assert foreign.post("/api/debates/", QUICK,
                        content_type="application/json").status_code == 404
    assert bearer(secret, HTTP_X_COUNCIL_TEAM="nonsense").get(
        "/api/debates/").status_code == 404
    membership_add(team=other_team, user=owner, role="viewer")
    assert foreign.post("/api/debates/", QUICK,
                        content_type="application/json").status_code == 403
    assert foreign.get("/api/debates/").status_code == 200


def test_web_page_shows_the_secret_once_and_lists_tokens(owner_client, owner, team):
    url = reverse("accounts:api_tokens")
    response = owner_client.post(url, {"name": "laptop agent"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    secret = response.context["secret"]
    assert secret and secret in response.content.decode()
    listing = owner_client.get(url).content.decode()
    assert "laptop agent" in listing and secret not in listing
    assert ApiToken.objects.get(user=owner).prefix in listing
    assert "never" in listing  # last used
    assert bearer(secret).get("/api/personas/libraries").status_code == 200
    listing = owner_client.get(url).content.decode()
    assert "never" not in listing


def test_web_revoke_own_token_only(owner_client, owner, member):
    mine, secret = api_token_create(user=owner, name="mine")
    theirs, their_secret = api_token_create(user=member, name="theirs")
    url = reverse("accounts:api_token_revoke", args=[theirs.code])
    assert owner_client.post(url).status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    response = owner_client.post(reverse("accounts:api_token_revoke", args=[mine.code]))
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.revoked_at is not None
    assert bearer(secret).get("/api/debates/").status_code == 401
    assert "revoked" in owner_client.get(reverse("accounts:api_tokens")).content.decode()


def test_web_create_needs_a_name(owner_client, owner):
    response = owner_client.post(reverse("accounts:api_tokens"), {"name": ""})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_create_api_token_command(owner, team):
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_token", "owner", "--name", "agent", stdout=out, stderr=err)
    secret = out.getvalue().strip()
    token = ApiToken.objects.get(user=owner)
    assert token.name == "agent" and secret.startswith(token.prefix)
    assert "only this once" in err.getvalue()
    assert bearer(secret).get("/api/debates/").status_code == 200


def test_create_api_token_command_unknown_user(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no user"):
        call_command("create_api_token", "nobody", stdout=io.StringIO())
