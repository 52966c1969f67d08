"""Every route that touches team data, for every role: owner, editor, viewer, outsider.

The table ``ROWS`` below is the matrix: one row per (route, method). A route that
exists but has no row (and is not in ``PUBLIC``) fails
``test_every_route_is_in_the_matrix``, so a new view cannot ship without deciding
who may use it. Adding a row is one line::

    R("debates/<uuid:code>/pin", "POST", WRITE, kw=debate),

Expectations: ``OK`` is any 2xx/3xx. Members read (viewers too), owners and editors
write, viewers get 403 on writes, outsiders get 404 everywhere (the object's existence
is hidden). "Current team" routes (lists, "new ...") act on the caller's own current
team, so an outsider is served from theirs and must not see this team's data. A
refused request must change nothing and queue nothing: row counts of every model, the
django-q queue and a fingerprint of the world's objects are compared around it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django_q.models import OrmQ

from accounts.models import Invitation, Membership, Team
from accounts.services import (
    api_token_create,
    invitation_create,
    membership_add,
)
from collab.models import Action, ClaimCheck, Comment
from collab.services import comment_create
from debates.engine.schemas import DebateConfig, Persona
from debates.models import Debate, DebateStatus, Synthesis
from debates.services import debate_create
from decisions.models import Decision
from evaluations.models import Evaluation
from personas.models import LibraryPersona, PersonaLibrary
from personas.services import library_create, persona_create
from tests.waiting import PATIENCE_S

OK = "2xx/3xx"
ROLES = ("outsider", "viewer", "editor", "owner")  # refusals first, on an untouched world

READ = {"owner": OK, "editor": OK, "viewer": OK, "outsider": 404}
WRITE = {"owner": OK, "editor": OK, "viewer": 403, "outsider": 404}
OWNER_ONLY = {"owner": OK, "editor": 403, "viewer": 403, "outsider": 404}
WRITE_THEN_409 = {"owner": 409, "editor": 409, "viewer": 403, "outsider": 404}
CURRENT_READ = {"owner": OK, "editor": OK, "viewer": OK, "outsider": OK}
CURRENT_WRITE = {"owner": OK, "editor": OK, "viewer": 403, "outsider": OK}
CURRENT_OWNER = {"owner": OK, "editor": 403, "viewer": 403, "outsider": OK}
PERSONAL = {"owner": OK, "editor": OK, "viewer": OK, "outsider": OK}
# The invitation link: whoever holds it may look; members are told they already belong.
INVITATION_GET = PERSONAL
INVITATION_POST = {"owner": 409, "editor": 409, "viewer": 409, "outsider": OK}

# Routes anyone may use, or that hold no team data. Prefix match on the route.
PUBLIC = (
    "accounts/login/", "accounts/logout/", "accounts/signup/", "healthz", "admin/",
    # Password reset and the emailed verification link: for people not (yet) signed in.
    "accounts/password_reset/", "accounts/reset/", "accounts/verify-email/<",
    "api/health", "api/docs", "api/openapi.json", "static/",
    # Slack's command (its signature authenticates it) and the link page its replies
    # carry (a signed token; tests/integrations/test_slack.py covers both).
    "integrations/slack/",
    # The site's public receipt key, for anyone checking a receipt (tests/decisions/
    # test_receipts.py).
    ".well-known/",
)
PUBLIC_EXACT = ("api/",)  # ninja's API root


# --------------------------------------------------------------------------- the world


@functools.cache
def _finished_result() -> dict[str, Any]:
    """A real DebateResult, computed once per session by the simulator, so pages that
    need a synthesis render a genuine one without running a debate per test."""
    from debates.runtime.execution import run_to_completion

    team = Team.objects.create(name="scratch")
    debate = debate_create(team=team, user=None, question="Should we adopt a four-day week?",
                           config=DebateConfig(mode="quick"), start=False)
    run_to_completion(debate.code)
    result = dict(Synthesis.objects.get(debate=debate).result)
    team.delete()
    return result


@dataclass
class World:
    team: Team
    other_team: Team
    users: dict[str, User]
    debate: Debate  # finished, with a synthesis
    active: Debate  # queued
    library: PersonaLibrary
    persona: LibraryPersona
    thread: Comment
    invitation: Invitation
    extra: Membership  # a member the matrix may remove or re-role
    comments: dict[str, Comment] = field(default_factory=dict)
    actives: dict[str, Debate] = field(default_factory=dict)

    def active_for(self, role: str) -> Debate:
        """A queued debate per role, so one role cancelling it leaves the next a live one."""
        if role not in self.actives:
            self.actives[role] = self.active if not self.actives else debate_create(
                team=self.team, user=self.users["owner"], question=f"Queued for {role}?",
                config=DebateConfig(mode="quick"), start=False)
        return self.actives[role]

    def comment_of(self, role: str) -> Comment:
        """A comment written by the role's user (made directly: viewers and outsiders
        could not write one, which is the point); "extra" is the extra member's."""
        if role not in self.comments:
            author = self.extra.user if role == "extra" else self.users[role]
            self.comments[role] = Comment.objects.create(
                debate=self.debate, author=author, body=f"by {role}")
        return self.comments[role]

    def fingerprint(self) -> tuple[Any, ...]:
        """The state a refused write must leave untouched, beyond row counts."""
        p = LibraryPersona.objects.get(pk=self.persona.pk)
        lib = PersonaLibrary.objects.get(pk=self.library.pk)
        team = Team.objects.get(pk=self.team.pk)
        return (
            sorted(Debate.objects.values_list("id", "status", "stop_requested", "context")),
            p.as_persona(), p.archived, lib.name, lib.description, lib.archived,
            team.name, team.monthly_budget_usd, team.debate_cost_cap_usd, team.debates_per_hour,
            sorted(Membership.objects.filter(team=self.team).values_list("user_id", "role")),
            Invitation.objects.get(pk=self.invitation.pk).status,
            sorted(Comment.objects.values_list("id", "body", "deleted_at", "resolved_at")),
            sorted(Action.objects.values_list("id", "status", "done_by")),
            sorted(ClaimCheck.objects.values_list("id", "note")),
            sorted(Decision.objects.values_list("id", "version", "option", "rationale")),
            sorted(Evaluation.objects.values_list("id", "status", "cancel_requested")),
        )


@pytest.fixture
def world(team, owner, member, viewer, outsider, other_team, settings, tmp_path) -> World:
    settings.MEDIA_ROOT = tmp_path / "media"  # uploaded sources (sources app)
    debate = debate_create(team=team, user=owner, question="Should we move billing to Postgres?",
                           config=DebateConfig(mode="quick"), start=False)
    Synthesis.objects.create(debate=debate, result=_finished_result())
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.SUCCEEDED,
                                               stop_reason="converged")
    debate.refresh_from_db()
    active = debate_create(team=team, user=owner, question="Should we hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    library = library_create(team=team, user=owner, name="Advisers")
    persona = persona_create(library=library, user=owner, data=Persona(
        name="Dana", background="CFO", expertise="Pricing", approach="Downside", bias="Cautious"))
    thread = comment_create(debate=debate, author=owner, body="Is R1 real? @member")
    extra_user = User.objects.create_user(username="extra")
    extra = membership_add(team=team, user=extra_user, role="viewer")
    invitation, secret = invitation_create(team=team, created_by=owner, role="editor")
    invitation.secret = secret  # only the digest is stored: the matrix keeps the link's secret
    users = {"owner": owner, "editor": member, "viewer": viewer, "outsider": outsider}
    return World(team, other_team, users, debate, active, library, persona, thread,
                 invitation, extra)


# --------------------------------------------------------------------------- the matrix

Factory = Callable[[World, str], dict[str, Any]]


def _none(w: World, role: str) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class R:
    route: str
    method: str
    expect: dict[str, object]
    kw: Factory = _none  # URL kwargs
    data: Factory = _none  # form fields, query string (GET) or JSON body (API)
    known_bug: str = ""  # an expected failure (strict: the test says when it is fixed)

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")

    def __str__(self) -> str:
        return f"{self.method} {self.route}"


def debate(w: World, r: str) -> dict[str, Any]:
    return {"code": w.debate.code}


def active(w: World, r: str) -> dict[str, Any]:
    return {"code": w.active_for(r).code}


def team_(w: World, r: str) -> dict[str, Any]:
    return {"code": w.team.code}


def library(w: World, r: str) -> dict[str, Any]:
    return {"code": w.library.code}


def persona(w: World, r: str) -> dict[str, Any]:
    return {"code": w.persona.code}


def thread(w: World, r: str) -> dict[str, Any]:
    return {"code": w.debate.code, "comment": w.thread.code}


def own_comment(w: World, r: str) -> dict[str, Any]:
    return {"code": w.debate.code, "comment": w.comment_of(r).code}


def others_comment(w: World, r: str) -> dict[str, Any]:
    """A comment by a member who is none of the roles tried: what owners moderate."""
    return {"code": w.debate.code, "comment": w.comment_of("extra").code}


def extra_member(w: World, r: str) -> dict[str, Any]:
    return {"code": w.team.code, "member": w.extra.code}


def invitation_code(w: World, r: str) -> dict[str, Any]:
    return {"code": w.team.code, "invitation": w.invitation.code}


def invitation_token(w: World, r: str) -> dict[str, Any]:
    return {"token": w.invitation.secret}


def own_token(w: World, r: str) -> dict[str, Any]:
    token, _ = api_token_create(user=w.users[r], name=f"{r}'s script")
    return {"code": token.code}


def an_action(w: World, r: str) -> dict[str, Any]:
    """A fresh open action per role (made directly: the point is who may change it)."""
    from collab.models import Action

    action = Action.objects.create(debate=w.debate, target_kind="risk", target_ref="R1",
                                   title=f"for {r}", owner=w.users["owner"],
                                   due_date=date(2100, 1, 1))
    return {"code": w.debate.code, "action": action.code}


def action_form(w: World, r: str) -> dict[str, Any]:
    return {"target": "risk:R1", "owner": str(w.users["owner"].pk), "due_date": "2100-01-01",
            "title": f"{r} checks it"}


def own_notification(w: World, r: str) -> dict[str, Any]:
    from notifications.models import Kind, Notification

    n = Notification.objects.create(user=w.users[r], kind=Kind.MENTION, key=f"m-{r}",
                                    title="t", url="/")
    return {"code": n.code}


def persona_fields(w: World, r: str) -> dict[str, Any]:
    return {"name": f"Persona of {r}", "background": "b", "expertise": "e", "approach": "a",
            "bias": "x"}


def persona_file(w: World, r: str) -> dict[str, Any]:
    text = f"- {{name: Imported by {r}, background: b, expertise: e, approach: a, bias: x}}\n"
    return {"filename": f"{r}.yaml", "text": text, "format": "yaml"}


def edited_persona_version_1(w: World, r: str) -> dict[str, Any]:
    """The persona edited (by the owner) so that restoring version 1 changes it."""
    from personas.services import persona_update

    current = LibraryPersona.objects.get(pk=w.persona.pk)
    persona_update(persona=current, user=w.users["owner"],
                   data=current.as_persona().model_copy(update={"bias": f"before {r}"}))
    return {"code": w.persona.code, "number": 1}


def decision_form(w: World, r: str) -> dict[str, Any]:
    """One of the world's debate's options, so writers get through to the service."""
    option = Synthesis.objects.get(debate=w.debate).result["options"][0]
    return {"option": option, "rationale": f"{r} decided", "review_on": "2100-01-01"}


def decided(w: World, r: str) -> dict[str, Any]:
    """The world's debate with a decision (recorded by its owner), to read it back."""
    from decisions.services import decision_record

    form = decision_form(w, "owner")
    decision_record(debate=w.debate, user=w.users["owner"], option=form["option"],
                    rationale=form["rationale"])
    return {"code": w.debate.code}


def outcome_body(w: World, r: str) -> dict[str, Any]:
    """A review of the decided debate naming one of its options as right."""
    return {"right_option": decision_form(w, r)["option"], "result": "worked",
            "notes": f"{r} reviewed it"}


def an_evaluation(w: World, r: str) -> dict[str, Any]:
    """A finished simulated evaluation of the world's team (run here, by its owner)."""
    from evaluations import runner
    from evaluations.services import EvaluationRequest, evaluation_start

    # One question: who may read it does not depend on how many it has.
    evaluation = evaluation_start(team=w.team, user=w.users["owner"], request=(
        EvaluationRequest(set_name="compare", n=1, sim_accuracy=0.6)))
    while runner.run(evaluation.code):
        pass
    return {"code": evaluation.code}


def a_queued_evaluation(w: World, r: str) -> dict[str, Any]:
    """A queued one per role, so one role cancelling it leaves the next a live one."""
    from evaluations.services import EvaluationRequest, evaluation_start

    evaluation = evaluation_start(team=w.team, user=w.users["owner"], request=(
        EvaluationRequest(set_name="compare", n=3, sim_accuracy=0.6)))
    return {"code": evaluation.code}


def evaluation_form(w: World, r: str) -> dict[str, Any]:
    return {"set_name": "compare", "n": "3", "seed": "7", "arms": ["single", "vote", "council"],
            "agents": "3", "model": "sim/default", "sim_accuracy": "0.6"}


def _ready_source(w: World, title: str) -> Any:
    """A read library source of the world's team (made directly, no file stored)."""
    from sources.models import Source, SourceVersion

    source = Source.objects.create(team=w.team, title=title)
    SourceVersion.objects.create(source=source, number=1, filename=f"{title}.md",
                                 sha256="0" * 64, size=10, kind="markdown", status="ready",
                                 text="Kafka costs 4,200 USD a month.")
    return source


def source(w: World, r: str) -> dict[str, Any]:
    from sources.models import Source

    found = Source.objects.filter(team=w.team, title="Evidence").first()
    return {"code": (found or _ready_source(w, "Evidence")).code}


def fresh_source(w: World, r: str) -> dict[str, Any]:
    """A source per role, so one role deleting it leaves the next one its own."""
    return {"code": _ready_source(w, f"For {r}").code}


def debate_with_source(w: World, r: str) -> dict[str, Any]:
    from sources.models import DebateSource, SourceVersion

    if not DebateSource.objects.filter(debate=w.debate).exists():
        version = SourceVersion.objects.get(source__code=source(w, r)["code"])
        DebateSource.objects.create(debate=w.debate, position=1, version=version,
                                    title="Evidence")
    return {"code": w.debate.code, "source_id": "S1"}


def source_file(w: World, r: str) -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {"files": [SimpleUploadedFile(f"{r}.txt", f"Notes by {r}.".encode())]}


def source_json(w: World, r: str) -> dict[str, Any]:
    import base64

    return {"filename": f"{r}.txt",
            "content_base64": base64.b64encode(f"Notes by {r}.".encode()).decode()}


def _webhook(w: World, label: str) -> Any:
    from webhooks.models import Endpoint

    found = Endpoint.objects.filter(team=w.team, description=label).first()
    return found or Endpoint.objects.create(team=w.team, url="https://93.184.215.14/hook",
                                            description=label, secret="whsec_" + "QUJD" * 8)


def a_webhook(w: World, r: str) -> dict[str, Any]:
    return {"code": _webhook(w, "matrix").code}


def fresh_webhook(w: World, r: str) -> dict[str, Any]:
    return {"code": _webhook(w, f"for {r}").code}


def a_webhook_delivery(w: World, r: str) -> dict[str, Any]:
    from webhooks.models import Delivery, Event

    endpoint = _webhook(w, "matrix")
    event, _ = Event.objects.get_or_create(team=w.team, key="matrix",
                                           defaults={"type": "webhook.ping", "body": "{}"})
    delivery, _ = Delivery.objects.get_or_create(endpoint=endpoint, event=event)
    return {"code": endpoint.code, "delivery": delivery.code}


def webhook_form(w: World, r: str) -> dict[str, Any]:
    return {"url": "https://93.184.215.14/hook", "description": f"by {r}",
            "event_types": ["debate.finished"], "enabled": "on"}


def webhook_json(w: World, r: str) -> dict[str, Any]:
    return {k: v for k, v in webhook_form(w, r).items() if k != "enabled"}


def debate_form(w: World, r: str) -> dict[str, Any]:
    return {"question": f"Should {r} adopt a four-day week?", "mode": "quick",
            "model": "sim/default", "protocol": "council"}


ROWS: list[R] = [
    # ---- site and teams
    R("", "GET", CURRENT_READ),
    R("teams/", "GET", PERSONAL),
    R("teams/new", "POST", PERSONAL, data=lambda w, r: {"name": f"{r}'s new team"}),
    R("teams/switch", "POST", READ, data=lambda w, r: {"team": str(w.team.code)}),
    R("teams/<uuid:code>/", "GET", READ, kw=team_),
    R("teams/<uuid:code>/rename", "POST", OWNER_ONLY, kw=team_,
      data=lambda w, r: {"name": f"Renamed by {r}"}),
    R("teams/<uuid:code>/limits", "POST", OWNER_ONLY, kw=team_,
      data=lambda w, r: {"monthly_budget_usd": "100", "debates_per_hour": "10"}),
    R("teams/<uuid:code>/members/<uuid:member>/role", "POST", OWNER_ONLY, kw=extra_member,
      data=lambda w, r: {"role": "editor"}),
    R("teams/<uuid:code>/members/<uuid:member>/remove", "POST", OWNER_ONLY, kw=extra_member),
    R("teams/<uuid:code>/invitations/", "POST", OWNER_ONLY, kw=team_,
      data=lambda w, r: {"role": "viewer", "valid_days": "7"}),
    R("teams/<uuid:code>/invitations/<uuid:invitation>/revoke", "POST", OWNER_ONLY,
      kw=invitation_code),
    R("teams/<uuid:code>/slack/", "GET", READ, kw=team_),
    R("teams/<uuid:code>/slack/", "POST", OWNER_ONLY, kw=team_,
      data=lambda w, r: {"slack_team_id": "T0MATRIX"}),
    R("teams/<uuid:code>/slack/unlink", "POST", OWNER_ONLY, kw=team_),
    # ---- webhooks (owners only; docs/integrations.md)
    R("teams/<uuid:code>/webhooks/", "GET", OWNER_ONLY, kw=team_),
    R("teams/<uuid:code>/webhooks/", "POST", OWNER_ONLY, kw=team_, data=webhook_form),
    R("webhooks/<uuid:code>/edit", "POST", OWNER_ONLY, kw=a_webhook, data=webhook_form),
    R("webhooks/<uuid:code>/delete", "POST", OWNER_ONLY, kw=fresh_webhook),
    R("webhooks/<uuid:code>/ping", "POST", OWNER_ONLY, kw=a_webhook),
    R("webhooks/<uuid:code>/deliveries/<uuid:delivery>/redeliver", "POST", OWNER_ONLY,
      kw=a_webhook_delivery),
    R("api/webhooks/", "GET", CURRENT_OWNER),
    R("api/webhooks/", "POST", CURRENT_OWNER, data=webhook_json),
    R("api/webhooks/<uuidstr:code>", "GET", OWNER_ONLY, kw=a_webhook),
    R("api/webhooks/<uuidstr:code>", "PATCH", OWNER_ONLY, kw=a_webhook,
      data=lambda w, r: {"description": f"by {r}"}),
    R("api/webhooks/<uuidstr:code>", "DELETE", OWNER_ONLY, kw=fresh_webhook),
    R("api/webhooks/<uuidstr:code>/ping", "POST", OWNER_ONLY, kw=a_webhook),
    R("api/webhooks/<uuidstr:code>/deliveries", "GET", OWNER_ONLY, kw=a_webhook),
    R("api/webhooks/<uuidstr:code>/deliveries/<uuidstr:delivery>/redeliver", "POST",
      OWNER_ONLY, kw=a_webhook_delivery),
    # ---- the audit log (owners only; docs/teams.md)
    R("teams/<uuid:code>/audit/", "GET", OWNER_ONLY, kw=team_,
      data=lambda w, r: {"action": "debate", "since": "2000-01-01"}),
    R("teams/<uuid:code>/audit/export.jsonl", "GET", OWNER_ONLY, kw=team_),
    R("api/audit/", "GET", CURRENT_OWNER, data=lambda w, r: {"actor": "owner"}),
    R("api/audit/export.jsonl", "GET", CURRENT_OWNER),
    R("invitations/<slug:token>/", "GET", INVITATION_GET, kw=invitation_token),
    R("invitations/<slug:token>/", "POST", INVITATION_POST, kw=invitation_token),
    R("mentions/", "GET", PERSONAL),
    R("accounts/", "GET", PERSONAL),
    R("accounts/password_change/", "GET", PERSONAL),
    R("accounts/password_change/done/", "GET", PERSONAL),
    R("accounts/verify-email/", "POST", PERSONAL),
    R("accounts/language", "POST", PERSONAL, data=lambda w, r: {"language": "fr"}),
    R("accounts/tokens/", "GET", PERSONAL),
    R("accounts/tokens/", "POST", PERSONAL, data=lambda w, r: {"name": f"{r}'s CI"}),
    R("accounts/tokens/<uuid:code>/revoke", "POST", PERSONAL, kw=own_token),
    # ---- notifications (one's own; another user's is a 404, see tests/notifications)
    R("notifications/", "GET", PERSONAL),
    R("notifications/badge", "GET", PERSONAL),
    R("notifications/read-all", "POST", PERSONAL),
    R("notifications/settings", "GET", PERSONAL),
    R("notifications/settings", "POST", PERSONAL,
      data=lambda w, r: {"mentions": "app", "replies": "off", "debates": "email",
                         "invitations": "email", "follow_up": "email",
                         "email_digest": "on"}),
    R("notifications/<uuid:code>/open", "GET", PERSONAL, kw=own_notification),
    # ---- persona libraries
    R("personas/", "GET", CURRENT_READ),
    R("personas/libraries/new", "POST", CURRENT_WRITE, data=lambda w, r: {"name": f"{r} lib"}),
    R("personas/libraries/<uuid:code>/", "GET", READ, kw=library),
    R("personas/libraries/<uuid:code>/edit", "POST", WRITE, kw=library,
      data=lambda w, r: {"name": f"Renamed by {r}"}),
    R("personas/libraries/<uuid:code>/archive", "POST", WRITE, kw=library),
    R("personas/libraries/<uuid:code>/unarchive", "POST", WRITE, kw=library),
    R("personas/libraries/<uuid:code>/fork", "POST", WRITE, kw=library),
    R("personas/libraries/<uuid:code>/export", "GET", READ, kw=library,
      data=lambda w, r: {"format": "json"}),
    R("personas/libraries/<uuid:code>/import", "POST", WRITE, kw=library, data=persona_file),
    R("personas/libraries/<uuid:code>/personas/new", "GET", WRITE, kw=library),
    R("personas/libraries/<uuid:code>/personas/new", "POST", WRITE, kw=library,
      data=persona_fields),
    R("personas/<uuid:code>/", "GET", READ, kw=persona),
    R("personas/<uuid:code>/edit", "GET", WRITE, kw=persona),
    R("personas/<uuid:code>/edit", "POST", WRITE, kw=persona,
      data=lambda w, r: {**persona_fields(w, r), "name": "Dana", "bias": f"edited by {r}"}),
    R("personas/<uuid:code>/archive", "POST", WRITE, kw=persona),
    R("personas/<uuid:code>/unarchive", "POST", WRITE, kw=persona),
    R("personas/<uuid:code>/fork", "POST", WRITE, kw=persona),
    R("personas/<uuid:code>/restore", "POST", WRITE, kw=persona,
      data=lambda w, r: {"number": "1"}),
    # ---- sources (the team's documents)
    R("sources/", "GET", CURRENT_READ),
    R("sources/upload", "POST", CURRENT_WRITE, data=source_file),
    R("sources/<uuid:code>/", "GET", READ, kw=source),
    R("sources/<uuid:code>/status", "GET", READ, kw=source),
    R("sources/<uuid:code>/versions", "POST", WRITE, kw=source, data=source_file),
    R("sources/<uuid:code>/delete", "POST", WRITE, kw=fresh_source),
    R("debates/<uuid:code>/sources/", "GET", READ, kw=debate),
    R("debates/<uuid:code>/sources/<str:source_id>", "GET", READ, kw=debate_with_source),
    # ---- comments
    R("debates/<uuid:code>/comments/", "GET", READ, kw=debate),
    R("debates/<uuid:code>/comments/", "POST", WRITE, kw=debate,
      data=lambda w, r: {"body": f"{r} says hi", "parent": str(w.thread.code)}),
    R("debates/<uuid:code>/comments/carry", "POST", WRITE, kw=debate,
      data=lambda w, r: {"comments": [str(w.thread.code)]}),
    R("debates/<uuid:code>/comments/<uuid:comment>/edit", "GET", WRITE, kw=own_comment),
    R("debates/<uuid:code>/comments/<uuid:comment>/edit", "POST", WRITE, kw=own_comment,
      data=lambda w, r: {"body": "edited"}),
    R("debates/<uuid:code>/comments/<uuid:comment>/delete", "POST", WRITE, kw=own_comment),
    R("debates/<uuid:code>/comments/<uuid:comment>/resolve", "POST", WRITE, kw=thread),
    R("debates/<uuid:code>/comments/<uuid:comment>/hide", "POST", OWNER_ONLY, kw=others_comment),
    R("debates/<uuid:code>/comments/<uuid:comment>/show", "POST", OWNER_ONLY, kw=others_comment),
    R("debates/<uuid:code>/comments/<uuid:comment>/history", "GET", READ, kw=thread),
    R("debates/<uuid:code>/comments/moderation", "GET", OWNER_ONLY, kw=debate),
    R("debates/<uuid:code>/comments/<uuid:comment>/reopen", "POST", WRITE, kw=thread),
    # ---- acting on a synthesis
    R("debates/<uuid:code>/actions/", "GET", READ, kw=debate),
    R("debates/<uuid:code>/actions/", "POST", WRITE, kw=debate, data=action_form),
    R("debates/<uuid:code>/actions/<uuid:action>/done", "POST", WRITE, kw=an_action),
    R("debates/<uuid:code>/actions/<uuid:action>/reopen", "POST", WRITE, kw=an_action),
    R("debates/<uuid:code>/claims/check", "POST", WRITE, kw=debate,
      data=lambda w, r: {"claim": "V1", "note": f"{r} looked", "checked": "yes"}),
    # ---- decisions and follow-through
    R("debates/<uuid:code>/decision", "GET", WRITE, kw=debate),
    R("debates/<uuid:code>/decision", "POST", WRITE, kw=debate, data=decision_form),
    R("debates/<uuid:code>/decision/history", "GET", READ, kw=decided),
    R("decisions/", "GET", CURRENT_READ),
    R("decisions/", "GET", CURRENT_READ, data=lambda w, r: {"q": "billing", "state": "decided"}),
    R("actions/", "GET", PERSONAL),
    # ---- learning from outcomes (web)
    R("debates/<uuid:code>/outcome", "GET", WRITE, kw=decided),
    R("debates/<uuid:code>/outcome", "POST", WRITE, kw=decided, data=outcome_body),
    R("calibration/", "GET", CURRENT_READ),
    # ---- evaluations (web)
    R("evaluations/", "GET", CURRENT_READ),
    R("evaluations/new", "GET", CURRENT_WRITE),
    R("evaluations/new", "POST", CURRENT_WRITE, data=evaluation_form),
    R("evaluations/<uuid:code>/", "GET", READ, kw=an_evaluation),
    R("evaluations/<uuid:code>/progress", "GET", READ, kw=an_evaluation),
    R("evaluations/<uuid:code>/cancel", "POST", WRITE, kw=a_queued_evaluation),
    R("evaluations/<uuid:code>/export.json", "GET", READ, kw=an_evaluation),
    R("evaluations/<uuid:code>/arms.csv", "GET", READ, kw=an_evaluation),
    R("evaluations/<uuid:code>/questions.csv", "GET", READ, kw=an_evaluation),
    # ---- debates (web)
    R("debates/", "GET", CURRENT_READ),
    R("debates/new", "GET", CURRENT_WRITE),
    R("debates/new", "POST", CURRENT_WRITE, data=debate_form),
    R("debates/estimate", "GET", CURRENT_READ,
      data=lambda w, r: {"mode": "quick", "model": "sim/default"}),
    R("debates/options", "GET", CURRENT_READ,
      data=lambda w, r: {"question": "Kafka or SQS for the event bus?"}),
    R("debates/compare", "GET", READ,
      data=lambda w, r: {"a": str(w.debate.code), "b": str(w.active.code)}),
    R("debates/<uuid:code>/", "GET", READ, kw=debate),
    R("debates/<uuid:code>/synthesis", "GET", READ, kw=debate),
    R("debates/<uuid:code>/transcript", "GET", READ, kw=debate),
    R("debates/<uuid:code>/print", "GET", READ, kw=debate),
    R("debates/<uuid:code>/export.md", "GET", READ, kw=debate),
    R("debates/<uuid:code>/export.json", "GET", READ, kw=debate),
    R("debates/<uuid:code>/cancel", "POST", WRITE, kw=active,
      data=lambda w, r: {"confirm": "yes"}),
    R("debates/<uuid:code>/stop", "POST", WRITE, kw=active),
    R("debates/<uuid:code>/more-round", "POST", WRITE, kw=active,
      data=lambda w, r: {"confirm": "yes"}),
    R("debates/<uuid:code>/rerun", "GET", WRITE, kw=debate),
    R("debates/<uuid:code>/rerun", "POST", WRITE, kw=debate,
      data=lambda w, r: {"question": f"Should {r} move billing?", "mode": "quick",
                         "model": "sim/default"}),
    # ---- JSON API
    R("api/personas/libraries", "GET", CURRENT_READ),
    R("api/personas/libraries", "POST", CURRENT_WRITE, data=lambda w, r: {"name": f"{r}'s"}),
    R("api/personas/libraries/<uuidstr:code>", "GET", READ, kw=library),
    R("api/personas/libraries/<uuidstr:code>/personas", "POST", WRITE, kw=library,
      data=persona_fields),
    R("api/personas/libraries/<uuidstr:code>/import", "POST", WRITE, kw=library,
      data=lambda w, r: {k: v for k, v in persona_file(w, r).items() if k != "format"}),
    R("api/personas/libraries/<uuidstr:code>/export", "GET", READ, kw=library),
    R("api/personas/libraries/<uuidstr:code>", "PATCH", WRITE, kw=library,
      data=lambda w, r: {"name": f"Renamed by {r}"}),
    R("api/personas/libraries/<uuidstr:code>/archive", "POST", WRITE, kw=library),
    R("api/personas/libraries/<uuidstr:code>/unarchive", "POST", WRITE, kw=library),
    R("api/personas/libraries/<uuidstr:code>/fork", "POST", WRITE, kw=library),
    R("api/personas/<uuidstr:code>/archive", "POST", WRITE, kw=persona),
    R("api/personas/<uuidstr:code>/unarchive", "POST", WRITE, kw=persona),
    R("api/personas/<uuidstr:code>/fork", "POST", WRITE, kw=persona),
    R("api/personas/<uuidstr:code>/versions", "GET", READ, kw=persona),
    R("api/personas/<uuidstr:code>/versions/<int:number>", "GET", READ,
      kw=lambda w, r: {"code": w.persona.code, "number": 1}),
    R("api/personas/<uuidstr:code>/versions/<int:number>/restore", "POST", WRITE,
      kw=edited_persona_version_1),
    R("api/personas/<uuidstr:code>", "GET", READ, kw=persona),
    R("api/personas/<uuidstr:code>", "PUT", WRITE, kw=persona,
      data=lambda w, r: {**persona_fields(w, r), "name": "Dana"}),
    R("api/debates/<uuidstr:code>/comments", "GET", READ, kw=debate),
    R("api/debates/<uuidstr:code>/comments", "POST", WRITE, kw=debate,
      data=lambda w, r: {"body": f"{r} via the API"}),
    R("api/debates/<uuidstr:code>/comments/<uuidstr:comment>", "PATCH", WRITE, kw=own_comment,
      data=lambda w, r: {"body": f"edited by {r}"}),
    R("api/debates/<uuidstr:code>/comments/<uuidstr:comment>", "DELETE", WRITE, kw=own_comment),
    R("api/debates/<uuidstr:code>/comments/<uuidstr:comment>/resolve", "POST", WRITE, kw=thread),
    R("api/debates/<uuidstr:code>/comments/<uuidstr:comment>/hidden", "POST", OWNER_ONLY,
      kw=others_comment, data=lambda w, r: {"hidden": True}),
    R("api/debates/<uuidstr:code>/comments/<uuidstr:comment>/reopen", "POST", WRITE, kw=thread),
    R("api/debates/<uuidstr:code>/comments/carry", "POST", WRITE, kw=debate,
      data=lambda w, r: {"comments": [str(w.thread.code)]}),
    R("api/debates/", "GET", CURRENT_READ),
    R("api/debates/", "GET", CURRENT_READ, data=lambda w, r: {
        "q": "billing", "status": "succeeded", "sort": "cost", "page_size": 5}),
    R("api/debates/compare", "GET", READ,
      data=lambda w, r: {"a": str(w.debate.code), "b": str(w.active.code)}),
    R("api/debates/<uuidstr:code>/export.json", "GET", READ, kw=debate),
    R("api/debates/<uuidstr:code>/decision", "POST", WRITE, kw=debate, data=decision_form),
    R("api/debates/<uuidstr:code>/decision", "GET", READ, kw=decided),
    R("api/debates/<uuidstr:code>/decision/receipt", "GET", READ, kw=decided),
    R("api/decisions/", "GET", CURRENT_READ),
    R("api/decisions/", "GET", CURRENT_READ, data=lambda w, r: {
        "q": "billing", "state": "decided", "sort": "review", "page_size": 5}),
    R("api/teams/", "GET", PERSONAL),
    R("api/teams/", "POST", PERSONAL, data=lambda w, r: {"name": f"{r}'s new team"}),
    R("api/teams/<uuidstr:code>", "GET", READ, kw=team_),
    R("api/teams/<uuidstr:code>/members", "GET", READ, kw=team_),
    R("api/debates/", "POST", CURRENT_WRITE,
      data=lambda w, r: {"question": f"Should {r} adopt a four-day week?", "mode": "quick",
                         "model": "sim/default"}),
    R("api/debates/<uuidstr:code>", "GET", READ, kw=debate),
    R("api/debates/<uuidstr:code>/synthesis", "GET", READ, kw=debate),
    R("api/debates/<uuidstr:code>/cancel", "POST", WRITE, kw=active),
    R("api/debates/<uuidstr:code>/stop", "POST", WRITE, kw=active),
    R("api/debates/<uuidstr:code>/events", "GET", READ, kw=debate),
    R("api/debates/<uuidstr:code>/events/wait", "GET", READ, kw=debate,
      data=lambda w, r: {"timeout": 1}),
    R("api/debates/<uuidstr:code>/events/stream", "GET", READ, kw=debate),
    R("api/debates/schemas/result", "GET", CURRENT_READ),
    R("api/debates/protocols", "GET", CURRENT_READ),
    R("api/debates/<uuidstr:code>/export.md", "GET", READ, kw=debate),
    # The world's finished debate has no stored rounds to add to: writers reach the
    # state check (409 on a queued debate), the others are refused before it.
    R("api/debates/<uuidstr:code>/more-round", "POST", WRITE_THEN_409, kw=active),
    R("api/debates/<uuidstr:code>/rerun", "POST", WRITE, kw=debate,
      data=lambda w, r: {"question": f"Should {r} move billing?"}),
    R("api/sources/", "GET", CURRENT_READ),
    R("api/sources/", "POST", CURRENT_WRITE, data=source_json),
    R("api/sources/usage", "GET", CURRENT_READ),
    R("api/sources/<uuidstr:code>", "GET", READ, kw=source),
    R("api/sources/<uuidstr:code>", "DELETE", WRITE, kw=fresh_source),
    R("api/sources/<uuidstr:code>/versions", "POST", WRITE, kw=source, data=source_json),
    # ---- learning from outcomes (JSON API)
    R("api/debates/<uuidstr:code>/outcome", "POST", WRITE, kw=decided, data=outcome_body),
    R("api/calibration", "GET", CURRENT_READ),
    # ---- evaluations (JSON API)
    R("api/evaluations/", "GET", CURRENT_READ),
    R("api/evaluations/", "POST", CURRENT_WRITE,
      data=lambda w, r: {"set": "compare", "n": 3, "sim_accuracy": 0.6}),
    R("api/evaluations/<uuidstr:code>", "GET", READ, kw=an_evaluation),
    R("api/evaluations/<uuidstr:code>/cancel", "POST", WRITE, kw=a_queued_evaluation),
    R("api/evaluations/<uuidstr:code>/export.json", "GET", READ, kw=an_evaluation),
    R("api/evaluations/<uuidstr:code>/export.csv", "GET", READ, kw=an_evaluation,
      data=lambda w, r: {"rows": "questions"}),
]

# Websocket routes: (route, URL kwargs, expectation). Members connect; others are closed.
WS_ROWS: list[tuple[str, Factory, dict[str, object]]] = [
    ("ws/debates/<str:code>/", debate, READ),
]


# --------------------------------------------------------------------------- discovery


def _ninja_methods(callback: Callable[..., Any]) -> set[str] | None:
    """The HTTP methods of a django-ninja path (its view closes over the PathView)."""
    for cell in getattr(callback, "__closure__", None) or ():
        operations = getattr(cell.cell_contents, "operations", None)
        if operations is not None:
            return {m for op in operations for m in op.methods}
    return None


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p


def routes() -> dict[str, set[str] | None]:
    """Every HTTP route at run time; API routes with their methods (None: unknown)."""
    found: dict[str, set[str] | None] = {}
    for route, pattern in _walk(get_resolver().url_patterns):
        methods = _ninja_methods(pattern.callback)
        if methods is not None:
            found[route] = (found.get(route) or set()) | methods
        else:
            found.setdefault(route, None)
    return found


def _public(route: str) -> bool:
    return route in PUBLIC_EXACT or any(route.startswith(p) for p in PUBLIC)


ROUTES = routes()
LIVE_ROWS = [
    pytest.param(row, id=str(row), marks=[pytest.mark.xfail(strict=True, reason=row.known_bug)]
                 if row.known_bug else [])
    for row in ROWS if row.route in ROUTES
]


def test_every_route_is_in_the_matrix() -> None:
    covered: dict[str, set[str]] = {}
    for row in ROWS:
        covered.setdefault(row.route, set()).add(row.method)
    missing = []
    for route, methods in sorted(ROUTES.items()):
        if _public(route):
            continue
        if route not in covered:
            missing.append(f"{route} ({', '.join(sorted(methods)) if methods else 'any'})")
        elif methods and (gap := methods - covered[route]):
            missing.append(f"{route} ({', '.join(sorted(gap))})")
    assert not missing, (
        "Routes without a row in tests/test_permission_matrix.py ROWS (decide who may use "
        "them, then add e.g. R(route, 'GET', READ, kw=debate)):\n  " + "\n  ".join(missing))


def test_every_websocket_route_is_in_the_matrix() -> None:
    from debates.live.routing import websocket_urlpatterns

    known = {route for route, _, _ in WS_ROWS}
    missing = [str(p.pattern) for p in websocket_urlpatterns if str(p.pattern) not in known]
    assert not missing, f"Websocket routes without a row in WS_ROWS: {missing}"


# --------------------------------------------------------------------------- requests


def url_for(route: str, kwargs: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        return str(kwargs[match.group(1)])

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", value, route)


def prepare(row: R, w: World, role: str) -> tuple[str, dict[str, Any]]:
    """The URL and data; factories may create objects, so this runs before snapshots."""
    return url_for(row.route, row.kw(w, role)), row.data(w, role)


def send(client: Client, row: R, url: str, data: dict[str, Any]) -> Any:
    if row.method == "GET":
        return client.get(url, data)
    if row.method == "POST" and not row.is_api and "files" in data:
        return client.post(url, data)  # multipart: an upload form
    if row.is_api:
        return client.generic(row.method, url, __import__("json").dumps(data),
                              content_type="application/json")
    return client.generic(row.method, url, _encode(data),
                          content_type="application/x-www-form-urlencoded")


def _encode(data: dict[str, Any]) -> str:
    from urllib.parse import urlencode

    return urlencode(data, doseq=True)


def _matches(status: int, expected: object) -> bool:
    return 200 <= status < 400 if expected == OK else status == expected


def _counts() -> dict[str, int]:
    """Every model's rows, counted in one query: it runs twice around every refused
    request (a query per model made it a sixth of this file's time)."""
    models = apps.get_models()
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(
            f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in models))
        row = cursor.fetchone()
    return {m._meta.label: count for m, count in zip(models, row, strict=True)}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("row", LIVE_ROWS)
def test_matrix(row: R, world: World, django_capture_on_commit_callbacks: Any) -> None:
    check_row(row, world, django_capture_on_commit_callbacks, _client)


def _token_client(user: User) -> Client:
    """A script's client: a personal API token, no session cookie, no CSRF token."""
    _, secret = api_token_create(user=user, name="matrix")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


@pytest.mark.parametrize("row", [p for p in LIVE_ROWS if p.values[0].is_api])
def test_matrix_with_api_tokens(row: R, world: World,
                                django_capture_on_commit_callbacks: Any) -> None:
    """The same expectations when the API is called with each role's token: a token
    carries its user's roles, nothing more."""
    check_row(row, world, django_capture_on_commit_callbacks, _token_client)


def _read_only_token_client(user: User) -> Client:
    _, secret = api_token_create(user=user, name="matrix", read_only=True)
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


@pytest.mark.parametrize("row", [p for p in LIVE_ROWS if p.values[0].is_api])
def test_matrix_with_read_only_api_tokens(row: R, world: World,
                                          django_capture_on_commit_callbacks: Any) -> None:
    """A read-only token reads what its user reads and is refused every write (403,
    before any object is looked up, so it tells an outsider nothing)."""
    def expect(role: str) -> object:
        return row.expect[role] if row.method in ("GET", "HEAD") else 403

    check_row(row, world, django_capture_on_commit_callbacks, _read_only_token_client,
              expect=expect)


@pytest.mark.parametrize("row", [p for p in LIVE_ROWS if p.values[0].is_api])
def test_matrix_with_api_tokens_of_another_team(row: R, world: World,
                                                django_capture_on_commit_callbacks: Any
                                                ) -> None:
    """Every role's user also owns the other team, through a token limited to it: for
    this team they are outsiders (404, their current team is the token's, no leak)."""
    def client_for(user: User) -> Client:
        membership_add(team=world.other_team, user=user, role="owner")
        _, secret = api_token_create(user=user, name="matrix", team=world.other_team)
        return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")

    check_row(row, world, django_capture_on_commit_callbacks, client_for,
              expect=lambda role: row.expect["outsider"], outsiders=ROLES)


def check_row(row: R, world: World, capture: Any, client_for: Callable[[User], Client],
              *, expect: Callable[[str], object] | None = None,
              outsiders: Collection[str] = ("outsider",)) -> None:
    """``expect``: the expectation per role (default: the row's); ``outsiders``: the
    roles whose successful reads must not show this team's data."""
    django_capture_on_commit_callbacks = capture
    problems = []
    secrets_ = [str(world.debate.code), str(world.library.code), str(world.persona.code),
                world.library.name]
    for role in ROLES:
        client = client_for(world.users[role])
        expected = expect(role) if expect else row.expect[role]
        refused = expected in (403, 404)
        url, data = prepare(row, world, role)
        before = (_counts(), OrmQ.objects.count(), world.fingerprint()) if refused else None
        # Run on-commit work (task enqueueing) so a refused request that queued
        # something would show up in the django-q queue.
        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, row, url, data)
        if not _matches(response.status_code, expected):
            problems.append(f"{role}: expected {expected}, got {response.status_code}")
        if refused and before is not None:
            after = (_counts(), OrmQ.objects.count(), world.fingerprint())
            if after != before:
                changed = {k: (before[0][k], v) for k, v in after[0].items() if before[0][k] != v}
                what = changed or "the fingerprint or the queue"
                problems.append(f"{role}: a refused {row.method} changed data: {what}")
        if role in outsiders and not refused and row.method == "GET":
            raw = (b"".join(response.streaming_content) if response.streaming
                   else response.content)  # an export streams
            body = raw.decode(errors="replace")
            leaked = [s for s in secrets_ if s in body]
            if leaked:
                problems.append(f"outsider saw this team's data: {leaked}")
    assert not problems, f"{row}:\n  " + "\n  ".join(problems)


# --------------------------------------------------------------------------- websockets


def _ws_app() -> Any:
    from debates.live.routing import websocket_urlpatterns

    return AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def _ws_outcome(path: str, cookie: str) -> str:
    communicator = WebsocketCommunicator(_ws_app(), path, headers=[
        (b"cookie", cookie.encode()), (b"host", b"testserver")])
    connected, _ = await communicator.connect(timeout=PATIENCE_S)
    if not connected:
        return "refused"
    # The first message tells: a close, or the page's first fragments (a reader's socket
    # is sent the debate's events at once), so no short wait has to stand for "open".
    message = await communicator.receive_output(timeout=PATIENCE_S)
    await communicator.disconnect(timeout=PATIENCE_S)
    if message.get("type") == "websocket.close":
        return f"closed {message.get('code')}"
    return "open"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route, kw, expect", WS_ROWS, ids=[r for r, _, _ in WS_ROWS])
def test_websocket_matrix(route: str, kw: Factory, expect: dict[str, object],
                          world: World, settings: Any) -> None:
    from debates.live.routing import websocket_urlpatterns

    if route not in {str(p.pattern) for p in websocket_urlpatterns}:
        pytest.skip(f"{route} is not routed yet")
    settings.COUNCIL_WS_POLL_SECONDS = 0.05
    problems = []
    for role in ROLES:
        client = _client(world.users[role])
        cookie = "; ".join(f"{k}={v.value}" for k, v in client.cookies.items())
        outcome = async_to_sync(_ws_outcome)(url_for(route, kw(world, role)), cookie)
        allowed = expect[role] == OK
        if allowed and outcome not in ("open",) and not outcome.startswith("closed 1000"):
            problems.append(f"{role}: expected to connect, got {outcome}")
        if not allowed and outcome not in ("refused", f"closed 4{expect[role]}"):
            problems.append(f"{role}: expected close 4{expect[role]}, got {outcome}")
    assert not problems, f"{route}:\n  " + "\n  ".join(problems)


# --------------------------------------------------------------------------- MCP tools

# The MCP tools that touch a team's data (integrations/mcp_server.py), each called as
# every role's token: (tool, call, expectation). A refusal is a ToolError; "Not found"
# for outsiders, who learn nothing of the team.
def _mcp_source_get(identity: Any, w: World, r: str) -> Any:
    from integrations.mcp_server import source_get

    return source_get(identity, str(source(w, r)["code"]))


def _mcp_source_upload(identity: Any, w: World, r: str) -> Any:
    from integrations.mcp_server import source_upload

    return source_upload(identity, source_json(w, r), str(w.team.code))


def _mcp_sources_list(identity: Any, w: World, r: str) -> Any:
    from integrations.mcp_server import sources_list

    return sources_list(identity, str(w.team.code))


def _mcp_debate_tool(name: str, w: World, r: str) -> tuple[Any, ...]:
    """The arguments (after the identity) of a tool of integrations.mcp_debate_tools."""
    code, team = str(w.debate.code), str(w.team.code)
    if name == "cancel":  # a queued debate per role
        return (str(w.active_for(r).code),)
    return {"debates_list": (team, {}, {}), "decisions_list": (team, {}, {}),
            "rerun": (code, {}), "export": (code, "markdown", True),
            "comparison": (code, code), "comments": (code,),
            "comment": (code, {"body": f"{r} objects"})}[name]


def _mcp_debates(name: str) -> Callable[[Any, World, str], Any]:
    def call(identity: Any, w: World, r: str) -> Any:
        from integrations import mcp_debate_tools

        return getattr(mcp_debate_tools, name)(identity, *_mcp_debate_tool(name, w, r))
    return call


MCP_ROWS: list[tuple[str, Callable[[Any, World, str], Any], dict[str, object]]] = [
    ("list_sources", _mcp_sources_list, READ),
    ("get_source", _mcp_source_get, READ),
    ("upload_source", _mcp_source_upload, WRITE),
    ("list_debates", _mcp_debates("debates_list"), READ),
    ("list_decisions", _mcp_debates("decisions_list"), READ),
    ("cancel_debate", _mcp_debates("cancel"), WRITE),
    ("rerun_debate", _mcp_debates("rerun"), WRITE),
    ("export_debate", _mcp_debates("export"), READ),
    ("compare_debates", _mcp_debates("comparison"), READ),
    ("list_comments", _mcp_debates("comments"), READ),
    ("comment_on_debate", _mcp_debates("comment"), WRITE),
]


@pytest.mark.parametrize("tool, call, expect", MCP_ROWS, ids=[t for t, _, _ in MCP_ROWS])
def test_mcp_matrix(tool: str, call: Callable[[Any, World, str], Any],
                    expect: dict[str, object], world: World) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from integrations.mcp_server import Identity

    source(world, "owner")  # made before any count is taken
    for role in ROLES:
        world.active_for(role)  # likewise: the debates cancel_debate may cancel
    problems = []
    for role in ROLES:
        _, secret = api_token_create(user=world.users[role], name="mcp")
        before = _counts()
        try:
            call(Identity(secret), world, role)
            outcome: object = OK
        except ToolError as exc:
            text = str(exc)
            outcome = 404 if ("Not found" in text or "No such team" in text) else 403
        if outcome != expect[role]:
            problems.append(f"{role}: expected {expect[role]}, got {outcome}")
        if outcome != OK and _counts() != before:
            problems.append(f"{role}: a refused {tool} changed data")
    assert not problems, f"{tool}:\n  " + "\n  ".join(problems)
