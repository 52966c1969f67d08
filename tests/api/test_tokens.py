"""Personal API tokens: made and revoked by their user, stored as a hash only, and
acting with exactly their user's teams and roles."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken
from accounts.selectors import api_token_is_active
from accounts.services import api_token_create, api_token_revoke
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
    from accounts.services import membership_add, team_create

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
    assert '<td data-label="Last used">never</td>' in listing  # last used
    assert bearer(secret).get("/api/personas/libraries").status_code == 200
    listing = owner_client.get(url).content.decode()
    assert '<td data-label="Last used">never</td>' not in listing


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


# --- a token's own limits: expiry, read-only, one team --------------------------------


def expire(token: ApiToken) -> None:
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def test_expired_token_is_refused_like_a_revoked_one(owner, team):
    token, secret = api_token_create(user=owner, name="CI",
                                     expires_at=timezone.now() + timedelta(days=1))
    assert bearer(secret).get("/api/debates/").status_code == 200
    expire(token)
    assert bearer(secret).get("/api/debates/").status_code == 401
    assert bearer(secret).post("/api/debates/", QUICK,
                               content_type="application/json").status_code == 401
    assert not Debate.objects.exists()


def test_api_token_is_active_reads_the_token_again(owner):
    token, _ = api_token_create(user=owner, name="stream")
    assert api_token_is_active(token.pk)
    # The caller's copy is stale on purpose: a stream holds the one it started with.
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    assert not api_token_is_active(token.pk)
    other, _ = api_token_create(user=owner, name="expiring",
                                expires_at=timezone.now() + timedelta(days=1))
    assert api_token_is_active(other.pk)
    expire(other)
    assert not api_token_is_active(other.pk)
    third, _ = api_token_create(user=owner, name="deactivated")
    owner.is_active = False
    owner.save()
    assert not api_token_is_active(third.pk)


def test_read_only_token_reads_but_every_write_is_403(owner, team):
    debate = debate_create(team=team, user=owner, question="Hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    _, secret = api_token_create(user=owner, name="dashboard", read_only=True)
    client = bearer(secret)
    assert client.get("/api/debates/").status_code == 200
    assert client.get(f"/api/debates/{debate.code}").status_code == 200
    assert client.get(f"/api/debates/{debate.code}/events/wait?timeout=0").status_code == 200
    writes = [("/api/debates/", QUICK), (f"/api/debates/{debate.code}/cancel", {}),
              (f"/api/debates/{debate.code}/comments", {"body": "Looks right"}),
              ("/api/personas/libraries", {"name": "Advisers"})]
    for url, body in writes:
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 403, (url, response.content)
        assert "read-only" in response.json()["message"]
    # Refused before the body is even read: an invalid one is 403 too, not 422.
    assert client.post("/api/debates/", {"nonsense": 1},
                       content_type="application/json").status_code == 403
    debate.refresh_from_db()
    assert Debate.objects.count() == 1 and debate.status == "queued"


def test_team_token_sees_only_its_team(owner, team):
    from accounts.services import team_create

    second = team_create(name="Second", owner=owner)
    first_debate = debate_create(team=team, user=owner, question="Hire a second SRE?",
                                 config=DebateConfig(mode="quick"), start=False)
    second_debate = debate_create(team=second, user=owner, question="Move billing?",
                                  config=DebateConfig(mode="quick"), start=False)
    _, secret = api_token_create(user=owner, name="second's CI", team=second)
    client = bearer(secret)
    assert client.get(f"/api/debates/{first_debate.code}").status_code == 404
    assert client.get(f"/api/debates/{first_debate.code}/events").status_code == 404
    assert client.get(f"/api/teams/{team.code}").status_code == 404
    assert client.post(f"/api/debates/{first_debate.code}/cancel").status_code == 404
    assert client.get(f"/api/debates/{second_debate.code}").status_code == 200
    listed = [d["code"] for d in client.get("/api/debates/").json()["items"]]
    assert listed == [str(second_debate.code)]
    assert [t["code"] for t in client.get("/api/teams/").json()] == [str(second.code)]
    # Its team is the default, though the user's own default is the first team ...
    created = client.post("/api/debates/", QUICK, content_type="application/json")
    assert created.status_code == 201
    assert Debate.objects.get(code=created.json()["code"]).team == second
    # ... and naming the other team is refused as for a team the user is not in.
    foreign = bearer(secret, HTTP_X_COUNCIL_TEAM=str(team.code))
    assert foreign.get("/api/debates/").status_code == 404
    assert foreign.post("/api/debates/", QUICK,
                        content_type="application/json").status_code == 404
    assert Debate.objects.filter(team=team).count() == 1


def test_a_token_is_limited_only_to_the_users_own_team_and_a_future_expiry(owner, other_team):
    with pytest.raises(ValueError, match="your own teams"):
        api_token_create(user=owner, name="CI", team=other_team)
    with pytest.raises(ValueError, match="future"):
        api_token_create(user=owner, name="CI", expires_at=timezone.now())
    assert not ApiToken.objects.exists()


def test_web_page_makes_a_limited_token_and_lists_its_limits(owner_client, owner, team):
    url = reverse("accounts:api_tokens")
    response = owner_client.post(url, {"name": "dashboard", "expires": "30",
                                       "read_only": "on", "team": str(team.code)})
    assert response.status_code == 200, response.content
    token = ApiToken.objects.get(user=owner)
    assert token.read_only and token.team == team
    assert token.expires_at is not None
    assert timedelta(days=29) < token.expires_at - timezone.now() <= timedelta(days=30)
    response = owner_client.post(url, {"name": "until", "expires": "date",
                                       "expires_on": "2100-01-31"})
    assert response.status_code == 200
    until = ApiToken.objects.get(name="until")
    assert until.expires_at == datetime(2100, 2, 1, tzinfo=UTC)
    assert not until.read_only and until.team is None
    listing = owner_client.get(url).content.decode()
    assert "read-only" in listing and "Acme" in listing and "all your teams" in listing
    assert token.expires_at.strftime("%Y-%m-%d %H:%M") in listing
    assert "2100-02-01 00:00" in listing
    expire(until)
    assert "expired" in owner_client.get(url).content.decode()


@pytest.mark.parametrize("fields", [
    {"expires": "date"},
    {"expires": "date", "expires_on": "2000-01-01"},
    {"expires": "365"},
    {"team": "not-a-team"},
])
def test_web_page_refuses_a_bad_expiry_or_team(owner_client, owner, team, fields):
    response = owner_client.post(reverse("accounts:api_tokens"), {"name": "CI", **fields})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_web_page_offers_only_the_users_own_teams(owner_client, owner, team, other_team):
    response = owner_client.post(reverse("accounts:api_tokens"),
                                 {"name": "CI", "team": str(other_team.code)})
    assert response.status_code == 400
    assert "Elsewhere" not in response.content.decode()
    assert not ApiToken.objects.exists()


def test_create_api_token_command_with_limits(owner, team):
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_token", "owner", "--name", "agent", "--expires-in", "7",
                 "--read-only", "--team", "Acme", stdout=out, stderr=err)
    token = ApiToken.objects.get(user=owner)
    assert token.read_only and token.team == team and token.expires_at is not None
    assert timedelta(days=6) < token.expires_at - timezone.now() <= timedelta(days=7)
    assert "read-only" in err.getvalue() and "team Acme only" in err.getvalue()
    call_command("create_api_token", "owner", "--team", str(team.code), stdout=out,
                 stderr=err)
    assert ApiToken.objects.filter(team=team).count() == 2


def test_create_api_token_command_refuses_another_users_team(owner, other_team):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="not one of"):
        call_command("create_api_token", "owner", "--team", "Elsewhere",
                     stdout=io.StringIO())
    with pytest.raises(CommandError, match="not one of"):
        call_command("create_api_token", "owner", "--team", str(other_team.code),
                     stdout=io.StringIO())
    with pytest.raises(CommandError, match="at least 1 day"):
        call_command("create_api_token", "owner", "--expires-in", "0", stdout=io.StringIO())
    assert not ApiToken.objects.exists()
