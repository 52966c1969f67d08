"""The audit log itself (docs/teams.md, "Audit log"): append-only through the ORM and
the admin, written only when the change commits, pruned by age, read by owners on
the team's page and at /api/audit/, and beside a debate in the admin's review."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.services import api_token_create
from audit import services
from audit.models import AuditEvent, AuditLogIsAppendOnly
from audit.schedules import PRUNE_FUNC, PRUNE_SCHEDULE
from collab.services import comment_create
from debates.engine import InputError
from debates.engine.schemas import DebateConfig
from debates.models import Debate
from debates.services import DebateSpec, debate_create, debate_start
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _event(team=None, **fields) -> AuditEvent:
    return services.record("debate.cancel", team=team, code="x", **fields)


# --------------------------------------------------------------------------- append-only


def test_the_orm_refuses_to_change_or_delete_an_event(team):
    event = _event(team)
    event.action = "debate.create"
    with pytest.raises(AuditLogIsAppendOnly):
        event.save()
    with pytest.raises(AuditLogIsAppendOnly):
        event.delete()
    with pytest.raises(AuditLogIsAppendOnly):
        AuditEvent.objects.filter(pk=event.pk).update(action="debate.create")
    with pytest.raises(AuditLogIsAppendOnly):
        AuditEvent.objects.filter(pk=event.pk).delete()
    with pytest.raises(AuditLogIsAppendOnly):
        AuditEvent.objects.bulk_update([event], ["action"])
    assert AuditEvent.objects.get(pk=event.pk).action == "debate.cancel"


def test_deleting_the_team_or_the_actor_leaves_the_record(team, owner):
    event = services.record("debate.cancel", team=team, user=owner, code="x")
    team.delete()
    owner.delete()
    kept = AuditEvent.objects.get(pk=event.pk)
    assert (kept.actor, kept.action) == ("owner", "debate.cancel")


@pytest.fixture
def admin_client(db) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser(username="root", password="x"))
    return client


def test_the_admin_reads_every_teams_events_and_changes_none(admin_client, team, other_team):
    mine, theirs = _event(team), _event(other_team)
    listed = admin_client.get("/admin/audit/auditevent/")
    assert listed.status_code == 200
    page = admin_client.get(f"/admin/audit/auditevent/{mine.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin_client.post(f"/admin/audit/auditevent/{theirs.pk}/delete/",
                             {"post": "yes"}).status_code == 403
    assert admin_client.get("/admin/audit/auditevent/add/").status_code == 403
    assert AuditEvent.objects.filter(pk__in=[mine.pk, theirs.pk]).count() == 2


def test_the_admins_debate_review_shows_its_audit_trail(admin_client, team, owner):
    debate = debate_create(team=team, user=owner, question="Kafka or SQS?",
                           config=DebateConfig(mode="quick"), start=False)
    comment_create(debate=debate, author=owner, body="Is R1 real?")
    page = admin_client.get(f"/admin/debates/debate/{debate.pk}/change/").content.decode()
    assert "Audit trail" in page
    trail = page[page.index("admin-audit-trail"):]
    assert trail.index("debate.create") < trail.index("comment.create")


# --------------------------------------------------------------------------- transactions


def test_a_rolled_back_change_leaves_no_event(team, owner):
    with pytest.raises(InputError):  # the debate is saved, then its source refused
        debate_start(team=team, user=owner, start=False, spec=DebateSpec(
            question="Kafka or SQS?", base={"mode": "quick", "model": "sim/default"},
            sources=["00000000-0000-0000-0000-000000000000"]))
    assert not Debate.objects.filter(team=team).exists()
    assert not AuditEvent.objects.filter(team=team, action__startswith="debate.").exists()

    debate = debate_create(team=team, user=owner, question="Kafka or SQS?",
                           config=DebateConfig(mode="quick"), start=False)
    with pytest.raises(RuntimeError), transaction.atomic():
        comment_create(debate=debate, author=owner, body="rolled back")
        raise RuntimeError
    assert list(AuditEvent.objects.filter(team=team).exclude(action="team.create")
                .values_list("action", flat=True)) == ["debate.create"]


def test_a_refused_write_leaves_no_event(team, viewer, member):
    debate = debate_create(team=team, user=member, question="Kafka or SQS?",
                           config=DebateConfig(mode="quick"), start=False)
    before = AuditEvent.objects.count()
    client = Client()
    client.force_login(viewer)
    assert client.post(f"/debates/{debate.code}/cancel", {"confirm": "yes"}).status_code == 403
    assert client.post("/api/debates/", {"question": "Why?"},
                       content_type="application/json").status_code == 403
    assert AuditEvent.objects.count() == before


# --------------------------------------------------------------------------- actors


def test_outside_a_request_the_actor_is_the_system(team, monkeypatch):
    monkeypatch.setattr("sys.argv", ["manage.py", "debate", "--question", "x"])
    event = _event(team)
    assert (event.actor_kind, event.actor, event.ip) == ("system", "system: debate", None)


def test_a_refused_sign_in_is_recorded_without_the_password(owner):
    response = Client(HTTP_USER_AGENT="curl/8").post(
        "/accounts/login/", {"username": "owner", "password": "wrong-horse"})
    assert response.status_code == 200
    event = AuditEvent.objects.get(action="login.failed")
    assert (event.actor_kind, event.target_code, event.user_agent) == (
        "anonymous", "owner", "curl/8")
    assert "wrong-horse" not in json.dumps(event.data) and event.ip == "127.0.0.1"


# --------------------------------------------------------------------------- retention


def test_retention_prunes_by_age_on_the_raw_path(team, settings):
    new = _event(team)
    old = AuditEvent.objects.create(action="debate.cancel", team=team, actor="system",
                                    actor_kind="system",
                                    at=timezone.now() - timedelta(days=400))
    settings.COUNCIL_AUDIT_RETENTION_DAYS = 0  # keep everything
    assert services.prune() == 0
    settings.COUNCIL_AUDIT_RETENTION_DAYS = 365
    assert services.prune() == 1
    left = set(AuditEvent.objects.values_list("pk", flat=True))
    assert new.pk in left and old.pk not in left


def test_the_prune_runs_daily_in_the_workers():
    from django_q.models import Schedule

    row = Schedule.objects.get(name=PRUNE_SCHEDULE)  # made by audit's migration
    assert (row.func, row.schedule_type, row.repeats) == (PRUNE_FUNC, "D", -1)


# --------------------------------------------------------------------------- reading


@pytest.fixture
def logged(team, owner, member):
    """Three debates by two people, one cancelled by the owner."""
    codes = [debate_create(team=team, user=user, question=f"Question {i}?",
                           config=DebateConfig(mode="quick"), start=False).code
             for i, user in enumerate((owner, member, member))]
    from debates.services import debate_cancel

    debate_cancel(debate=Debate.objects.get(code=codes[0]), user=owner)
    return codes


def test_owners_page_through_the_api_with_cursors_and_filters(owner_client, logged):
    first = owner_client.get("/api/audit/", {"page_size": 2}).json()
    assert first["count"] == 6  # the team, its editor, three debates, one cancel
    assert [e["action"] for e in first["items"]] == ["debate.cancel", "debate.create"]
    assert first["items"][0]["at"].endswith("Z")
    assert first["items"][0]["actor"] == {"kind": "user", "name": "owner", "token": None}
    assert first["items"][0]["target"] == {"kind": "debate", "code": str(logged[0])}
    second = owner_client.get(first["next"]).json()
    assert len(second["items"]) == 2 and second["previous"]
    by_member = owner_client.get("/api/audit/", {"actor": "member", "action": "debate"}).json()
    assert [e["target"]["code"] for e in by_member["items"]] == [str(c) for c in logged[:0:-1]]
    assert owner_client.get("/api/audit/", {"target": str(logged[0])}).json()["count"] == 2
    today = timezone.now().date()
    assert owner_client.get("/api/audit/", {"until": str(today - timedelta(days=1))}
                            ).json()["count"] == 0
    assert owner_client.get("/api/audit/", {"since": "0"}).status_code == 422


def test_the_export_is_json_lines_of_every_matching_event(owner_client, logged):
    response = owner_client.get("/api/audit/export.jsonl", {"action": "debate.create"})
    assert response["Content-Type"].startswith("application/jsonl")
    lines = b"".join(response.streaming_content).decode().splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["action"] for e in events] == ["debate.create"] * 3
    assert all(e["at"].endswith("Z") and e["ip"] is None for e in events)


def test_members_who_are_not_owners_are_refused(member_client, viewer, logged):
    for url in ("/api/audit/", "/api/audit/export.jsonl"):
        assert member_client.get(url).status_code == 403
    team_code = Debate.objects.get(code=logged[0]).team.code
    assert member_client.get(f"/teams/{team_code}/audit/").status_code == 403


def test_the_team_page_lists_and_filters_the_log(owner_client, logged, team):
    page = owner_client.get(f"/teams/{team.code}/audit/", {"actor": "owner"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "debate.cancel" in html and "team.create" in html
    assert html.count('<tr id="event-') == 3  # the owner's: team, debate, cancel
    assert f"/teams/{team.code}/audit/" in owner_client.get(f"/teams/{team.code}/").content.decode()
    bad = owner_client.get(f"/teams/{team.code}/audit/", {"since": "yesterday"})
    assert bad.status_code == 400


def test_a_password_change_is_recorded_with_the_tokens_it_revoked(owner_client, owner):
    api_token_create(user=owner, name="CI")
    response = owner_client.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": "a new long passphrase 7",
        "new_password2": "a new long passphrase 7", "revoke_api_tokens": "on"})
    assert response.status_code == 302, response.content[:500]
    assert list(AuditEvent.objects.filter(actor="owner", action__startswith="user.").values_list(
        "action", flat=True)) == ["user.password_change"]
    revoked = AuditEvent.objects.get(action="token.revoke_all")
    assert revoked.data == {"tokens": 1} and revoked.actor == "owner"
