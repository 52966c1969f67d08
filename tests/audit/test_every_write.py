"""Every write route of the API and the pages leaves exactly one audit event, with
the caller as its actor and the object it changed as its target (docs/teams.md,
"Audit log").

The routes and how to call them are the permission matrix's (tests/
test_permission_matrix.py ``ROWS``): each write row is sent once by a role allowed to
make it, the owner when the owner may, API rows with an API token. A write route
added to the matrix without an event here fails, naming the route; so does one that
is missing from ``EXPECTED`` below. The refused calls of the same rows are the matrix's
business: it counts every model's rows, the audit log's included, around them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.services import api_token_create
from audit.models import ActorKind, AuditEvent
from tests.test_permission_matrix import LIVE_ROWS, OK, ROLES, R, World, prepare, send
from tests.test_permission_matrix import world as world  # noqa: F401  (the fixture)

# (action, target kind) each write route records.
EXPECTED: dict[str, tuple[str, str]] = {
    "POST teams/new": ("team.create", "team"),
    "POST teams/<uuid:code>/rename": ("team.rename", "team"),
    "POST teams/<uuid:code>/limits": ("team.limits_change", "team"),
    "POST teams/<uuid:code>/members/<uuid:member>/role": ("member.role_change", "member"),
    "POST teams/<uuid:code>/members/<uuid:member>/remove": ("member.remove", "member"),
    "POST teams/<uuid:code>/invitations/": ("invitation.create", "invitation"),
    "POST teams/<uuid:code>/invitations/<uuid:invitation>/revoke":
        ("invitation.revoke", "invitation"),
    "POST invitations/<slug:token>/": ("invitation.accept", "invitation"),
    "POST teams/<uuid:code>/slack/": ("slack.link", "slack_workspace"),
    "POST teams/<uuid:code>/slack/unlink": ("slack.unlink", "slack_workspace"),
    "POST teams/<uuid:code>/webhooks/": ("webhook.create", "webhook"),
    "POST webhooks/<uuid:code>/edit": ("webhook.edit", "webhook"),
    "POST webhooks/<uuid:code>/delete": ("webhook.delete", "webhook"),
    "POST webhooks/<uuid:code>/ping": ("webhook.ping", "webhook"),
    "POST webhooks/<uuid:code>/deliveries/<uuid:delivery>/redeliver":
        ("webhook.redeliver", "webhook"),
    "POST api/webhooks/": ("webhook.create", "webhook"),
    "PATCH api/webhooks/<uuidstr:code>": ("webhook.edit", "webhook"),
    "DELETE api/webhooks/<uuidstr:code>": ("webhook.delete", "webhook"),
    "POST api/webhooks/<uuidstr:code>/ping": ("webhook.ping", "webhook"),
    "POST api/webhooks/<uuidstr:code>/deliveries/<uuidstr:delivery>/redeliver":
        ("webhook.redeliver", "webhook"),
    "POST accounts/tokens/": ("token.create", "token"),
    "POST accounts/tokens/<uuid:code>/revoke": ("token.revoke", "token"),
    "POST notifications/settings": ("notification.settings_change", "user"),
    "POST accounts/language": ("account.language", "user"),
    "POST personas/libraries/new": ("library.create", "library"),
    "POST personas/libraries/<uuid:code>/edit": ("library.edit", "library"),
    "POST personas/libraries/<uuid:code>/archive": ("library.archive", "library"),
    "POST personas/libraries/<uuid:code>/unarchive": ("library.unarchive", "library"),
    "POST personas/libraries/<uuid:code>/fork": ("library.fork", "library"),
    "POST personas/libraries/<uuid:code>/import": ("persona.import", "library"),
    "POST personas/libraries/<uuid:code>/personas/new": ("persona.create", "persona"),
    "POST personas/<uuid:code>/edit": ("persona.edit", "persona"),
    "POST personas/<uuid:code>/archive": ("persona.archive", "persona"),
    "POST personas/<uuid:code>/unarchive": ("persona.unarchive", "persona"),
    "POST personas/<uuid:code>/fork": ("persona.fork", "persona"),
    "POST personas/<uuid:code>/restore": ("persona.restore", "persona"),
    "POST sources/upload": ("source.upload", "source"),
    "POST sources/<uuid:code>/versions": ("source.version", "source"),
    "POST sources/<uuid:code>/delete": ("source.delete", "source"),
    "POST debates/<uuid:code>/comments/": ("comment.create", "comment"),
    "POST debates/<uuid:code>/comments/carry": ("debate.rerun", "debate"),
    "POST debates/<uuid:code>/comments/<uuid:comment>/edit": ("comment.edit", "comment"),
    "POST debates/<uuid:code>/comments/<uuid:comment>/delete": ("comment.delete", "comment"),
    "POST debates/<uuid:code>/comments/<uuid:comment>/resolve": ("comment.resolve", "comment"),
    "POST debates/<uuid:code>/comments/<uuid:comment>/hide": ("comment.hide", "comment"),
    "POST debates/<uuid:code>/comments/<uuid:comment>/show": ("comment.show", "comment"),
    "POST debates/<uuid:code>/comments/<uuid:comment>/reopen": ("comment.reopen", "comment"),
    "POST debates/<uuid:code>/actions/": ("action.create", "action"),
    "POST debates/<uuid:code>/actions/<uuid:action>/done": ("action.done", "action"),
    "POST debates/<uuid:code>/actions/<uuid:action>/reopen": ("action.reopen", "action"),
    "POST debates/<uuid:code>/claims/check": ("claim.check", "debate"),
    "POST debates/<uuid:code>/decision": ("decision.record", "decision"),
    "POST debates/<uuid:code>/outcome": ("outcome.record", "outcome"),
    "POST evaluations/new": ("evaluation.create", "evaluation"),
    "POST evaluations/<uuid:code>/cancel": ("evaluation.cancel", "evaluation"),
    "POST debates/new": ("debate.create", "debate"),
    "POST debates/<uuid:code>/cancel": ("debate.cancel", "debate"),
    "POST debates/<uuid:code>/stop": ("debate.stop", "debate"),
    "POST debates/<uuid:code>/rerun": ("debate.rerun", "debate"),
    "POST api/personas/libraries": ("library.create", "library"),
    "POST api/personas/libraries/<uuidstr:code>/personas": ("persona.create", "persona"),
    "POST api/personas/libraries/<uuidstr:code>/import": ("persona.import", "library"),
    "PATCH api/personas/libraries/<uuidstr:code>": ("library.edit", "library"),
    "POST api/personas/libraries/<uuidstr:code>/archive": ("library.archive", "library"),
    "POST api/personas/libraries/<uuidstr:code>/unarchive": ("library.unarchive", "library"),
    "POST api/personas/libraries/<uuidstr:code>/fork": ("library.fork", "library"),
    "POST api/personas/<uuidstr:code>/archive": ("persona.archive", "persona"),
    "POST api/personas/<uuidstr:code>/unarchive": ("persona.unarchive", "persona"),
    "POST api/personas/<uuidstr:code>/fork": ("persona.fork", "persona"),
    "POST api/personas/<uuidstr:code>/versions/<int:number>/restore":
        ("persona.restore", "persona"),
    "PUT api/personas/<uuidstr:code>": ("persona.edit", "persona"),
    "POST api/debates/<uuidstr:code>/comments": ("comment.create", "comment"),
    "PATCH api/debates/<uuidstr:code>/comments/<uuidstr:comment>": ("comment.edit", "comment"),
    "DELETE api/debates/<uuidstr:code>/comments/<uuidstr:comment>":
        ("comment.delete", "comment"),
    "POST api/debates/<uuidstr:code>/comments/<uuidstr:comment>/resolve":
        ("comment.resolve", "comment"),
    "POST api/debates/<uuidstr:code>/comments/<uuidstr:comment>/hidden":
        ("comment.hide", "comment"),
    "POST api/debates/<uuidstr:code>/comments/<uuidstr:comment>/reopen":
        ("comment.reopen", "comment"),
    "POST api/debates/<uuidstr:code>/comments/carry": ("debate.rerun", "debate"),
    "POST api/debates/<uuidstr:code>/decision": ("decision.record", "decision"),
    "POST api/teams/": ("team.create", "team"),
    "POST api/debates/": ("debate.create", "debate"),
    "POST api/debates/<uuidstr:code>/cancel": ("debate.cancel", "debate"),
    "POST api/debates/<uuidstr:code>/stop": ("debate.stop", "debate"),
    "POST api/debates/<uuidstr:code>/rerun": ("debate.rerun", "debate"),
    "POST api/sources/": ("source.upload", "source"),
    "DELETE api/sources/<uuidstr:code>": ("source.delete", "source"),
    "POST api/sources/<uuidstr:code>/versions": ("source.version", "source"),
    "POST api/debates/<uuidstr:code>/outcome": ("outcome.record", "outcome"),
    "POST api/evaluations/": ("evaluation.create", "evaluation"),
    "POST api/evaluations/<uuidstr:code>/cancel": ("evaluation.cancel", "evaluation"),
}

# Writes that change nothing the log is for, each with why.
NOT_AUDITED = {
    "POST teams/switch": "the caller's own session preference (which team is current)",
    "POST notifications/read-all": "marks the caller's own notifications read",
    "POST accounts/verify-email/": "sends a mail and stores nothing",
    # The world's debates cannot take one more round (one is queued, one has no stored
    # rounds): no role succeeds there; debates.services.debate_more_round records
    # debate.more_round.
    "POST api/debates/<uuidstr:code>/more-round": "no role succeeds in the matrix's world",
    "POST debates/<uuid:code>/more-round": "no role succeeds in the matrix's world",
}

WRITES = [p for p in LIVE_ROWS if p.values[0].method not in ("GET", "HEAD")]


def _role(row: R) -> str:
    """The owner when the owner may make the write, else the first role that may."""
    allowed = [r for r in ROLES if row.expect[r] == OK]
    return "owner" if "owner" in allowed else allowed[0]


def _client(w: World, row: R, role: str) -> tuple[Client, str]:
    user = w.users[role]
    if row.is_api:  # a script's call: the token is named in the event
        _, secret = api_token_create(user=user, name="audit walk")
        return Client(HTTP_AUTHORIZATION=f"Bearer {secret}"), user.get_username()
    client = Client()
    client.force_login(user)
    return client, user.get_username()


def _prepare_world(row: R, w: World) -> None:
    """What a row's success needs beyond the matrix's world (whose rows are about
    refusals): something to unlink, to show again, or to restore."""
    from collab.services import comment_set_hidden
    from integrations.slack.links import workspace_link
    from tests.test_permission_matrix import edited_persona_version_1

    if row.route == "teams/<uuid:code>/slack/unlink":
        workspace_link(team=w.team, slack_team_id="T0AUDIT", user=w.users["owner"])
    if row.route == "debates/<uuid:code>/comments/<uuid:comment>/show":
        comment_set_hidden(comment=w.comment_of("extra"), user=w.users["owner"], hidden=True)
    if row.route == "personas/<uuid:code>/restore":
        edited_persona_version_1(w, "owner")


def test_every_write_route_is_listed() -> None:
    routes = {str(p.values[0]) for p in WRITES}
    unlisted = routes - set(EXPECTED) - set(NOT_AUDITED)
    assert not unlisted, ("write routes whose audit event is not named in "
                          f"tests/audit/test_every_write.py EXPECTED: {sorted(unlisted)}")


@pytest.mark.parametrize("row", WRITES)
def test_a_write_leaves_exactly_one_event(row: R, world: World,  # noqa: F811
                                          django_capture_on_commit_callbacks: Any) -> None:
    key = str(row)
    if key in NOT_AUDITED:
        pytest.skip(NOT_AUDITED[key])
    role = _role(row)
    _prepare_world(row, world)
    client, username = _client(world, row, role)
    url, data = prepare(row, world, role)
    before = set(AuditEvent.objects.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        response = send(client, row, url, data)
    assert 200 <= response.status_code < 400, (key, response.status_code,
                                               response.content[:300])
    events = list(AuditEvent.objects.exclude(pk__in=before))
    assert len(events) == 1, f"{key}: {[e.action for e in events]} (expected one event)"
    [event] = events
    action, kind = EXPECTED[key]
    assert (event.action, event.target_kind) == (action, kind), key
    assert event.actor == username and event.actor_user_id == world.users[role].pk, key
    assert event.actor_kind == (ActorKind.TOKEN if row.is_api else ActorKind.USER), key
    if row.is_api:
        assert event.token_name == "audit walk"
    assert event.ip == "127.0.0.1", key
    assert event.target_code, key
    where = url + response.get("Location", "") + response.content.decode(errors="replace")
    if kind not in ("member", "invitation", "token", "user", "slack_workspace", "outcome",
                    "action"):
        assert (event.target_code in where or str(event.debate_code) in where
                or _made_by_the_call(event)), key


def _made_by_the_call(event: AuditEvent) -> bool:
    """A target the call created (a fork, an upload) whose code the answer need not
    repeat: it exists and was created within the call."""
    return event.action.endswith((".fork", ".upload", ".create", ".rerun"))
