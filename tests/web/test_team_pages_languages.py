"""The decisions, notifications, team (limits, invitations, webhooks, Slack, audit),
invitation, API token, email confirmation, collab and password pages speak the reader's
language (issue 41, item 4; docs/web.md, "Languages"): rendered for a user speaking
Japanese or Chinese, each shows no English outside what the test wrote itself (names,
questions, options, URLs); in French a handful of French strings and ``<html lang>``; in
English the words the other tests read. A notification is stored as a key and values, so
the same row reads in each reader's language, and a row made before the keys keeps its
stored text."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.services import api_token_create, invitation_create, membership_add
from collab.services import action_create, comment_create, comment_edit, comment_set_hidden
from decisions.models import Decision
from decisions.outcomes import outcome_record
from decisions.services import decision_record
from integrations.slack.links import workspace_link
from notifications.models import Kind, Notification, NotificationSettings
from notifications.services import notification_create
from notifications.tasks import notify_action_assigned, notify_invitation_accepted
from personas.services import library_create, persona_create
from tests.decisions.conftest import OPTIONS, finish
from tests.decisions.panels import debate_with_verdicts, persona
from tests.factories import QUESTION, make_debate
from tests.web.english_left import english_left
from tests.web.test_site_languages import _speaking
from webhooks.services import endpoint_create

pytestmark = pytest.mark.django_db

NOW, Q3, STAY = OPTIONS
WEBHOOK_URL = "http://127.0.0.1:9/council"  # no network: a local address, allowed below
# What the test itself wrote, shown as written in every language: the team, the people,
# the question and its options, the synthesis' risks (tests/factories.py), the persona,
# the token, the webhook's description, the Slack workspace id and a note.
USER_CONTENT = [
    "Acme", "owner", "member", "newcomer", QUESTION, *OPTIONS, "Migration downtime",
    "Vendor lock-in", "Cost growth", "Dana", "ci-deploy", "Ops alerts", "T0ACME42",
    "Too risky.", "Check the vendor", "First take", "Second take", "Spam spam",
    "new@example.com",
    # Identifiers every language writes as they are: the Brier score's name in French and
    # the monospace CLI/usage lines are code; "Bearer" is the HTTP scheme's name.
    "Advisers", "Composed",
    # The question cut short in a page's title (Chinese cuts it with "...").
    QUESTION[:47],
    # The debate filters' protocol options are the protocols' identifiers.
    "council", "adversarial", "delphi", "workflow",
    # A format's name; the audit filter's example and the Slack id's are identifiers the
    # fields take; the webhooks' HTTP method; the invalid channel the test posted.
    "JSON Lines", "debate.cancel", "T0123ABCD", "POST", "loud",
    # Django's own Chinese catalogue writes "Email" in its address error.
    "Email",
    "Bearer", "USERNAME", "NAME", "DAYS", "TEAM", "QUESTION", "ms",
]


@pytest.fixture
def world(team, owner, member, settings):
    """A team with a finished debate that has a decision, a review and an action; a
    reviewed debate for calibration; comments with a moderation and an edit; an
    invitation, a token, a webhook and a Slack workspace; notifications."""
    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, option=STAY, rationale="Too risky.")
    outcome_record(debate=debate, user=owner, right_option=None, result="",
                   review_again_on=timezone.localdate() + timedelta(days=30))
    library = library_create(team=team, user=owner, name="Advisers")
    dana = persona_create(library=library, user=owner, data=persona("Dana"))
    scored = debate_with_verdicts(team, owner, [("Dana", dana, STAY, 0.8),
                                                ("Composed", None, NOW, 0.6)],
                                  before=NOW, after=STAY)
    decision_record(debate=scored, user=owner, option=STAY, rationale="Too risky.")
    outcome_record(debate=scored, user=owner, right_option=STAY, result="worked")
    action = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                           owner=member, due_date=timezone.localdate() + timedelta(days=3),
                           title="Check the vendor")
    action_create(debate=debate, user=owner, target_kind="synthesis", target_ref="",
                  owner=owner, due_date=timezone.localdate() + timedelta(days=5),
                  title="Check the vendor")
    comment = comment_create(debate=debate, author=member, body="First take")
    comment_edit(comment=comment, user=member, body="Second take")
    spam = comment_create(debate=debate, author=member, body="Spam spam")
    comment_set_hidden(comment=spam, user=owner, hidden=True)
    mine = comment_create(debate=debate, author=owner, body="Second take")
    settings.COUNCIL_WEBHOOKS_ALLOW_PRIVATE = True
    invitation, _ = invitation_create(team=team, created_by=owner, role="editor",
                                      email="new@example.com", valid_days=7)
    api_token_create(user=owner, name="ci-deploy")
    endpoint_create(team=team, user=owner, url=WEBHOOK_URL, description="Ops alerts",
                    event_types=["debate.finished"])
    workspace_link(team=team, slack_team_id="T0ACME42", user=owner)
    newcomer = User.objects.create_user("newcomer", "new@example.com", "pw-newcomer-1")
    membership_add(team=team, user=newcomer, role="editor")
    invitation.accepted_by, invitation.accepted_at = newcomer, timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    notify_invitation_accepted(invitation.pk)
    notify_action_assigned(action.pk)
    return {"debate": debate, "scored": scored, "comment": comment, "mine": mine,
            "team": team}


def _pages(client: Client, world: dict) -> dict[str, str]:
    """Every page of this area as the owner sees it, forms with errors included."""
    debate, team, comment = world["debate"], world["team"], world["comment"]
    d, t = debate.code, team.code
    gets = [
        "/decisions/", "/decisions/?q=nothing-matches-this", "/calibration/", "/actions/",
        f"/debates/{d}/decision", f"/debates/{d}/decision/history", f"/debates/{d}/outcome",
        "/notifications/", "/notifications/settings",
        f"/teams/{t}/", f"/teams/{t}/audit/", f"/teams/{t}/webhooks/", f"/teams/{t}/slack/",
        "/accounts/tokens/",
        f"/debates/{d}/actions/", f"/debates/{d}/comments/{comment.code}/history",
        f"/debates/{d}/comments/moderation",
        f"/debates/{d}/comments/{world['mine'].code}/edit",
        "/accounts/password_change/", "/accounts/password_change/done/",
    ]
    pages = {}
    for path in gets:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        pages[path] = response.content.decode()
    posts = {  # refused forms: each error in the reader's language
        f"/debates/{d}/decision": {},
        f"/debates/{d}/outcome": {"right_option": STAY},
        "/accounts/tokens/": {"name": "ci-deploy", "expires": "date"},
        f"/teams/{t}/invitations/": {"role": "editor", "valid_days": "0",
                                        "email": "not-an-address"},
        f"/debates/{d}/actions/": {"target": "synthesis:", "owner": "", "due_date": ""},
        "/notifications/settings": {"mentions": "loud"},
    }
    for path, data in posts.items():
        response = client.post(path, data)
        assert response.status_code == 400, (path, response.status_code)
        pages[f"POST {path}"] = response.content.decode()
    # The new invitation's link and its note, shown once, above the members.
    created = client.post(f"/teams/{t}/invitations/", {"role": "viewer", "valid_days": "3"})
    pages["new invitation"] = created.content.decode()
    return pages


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_every_page_of_the_area_shows_no_english(world, owner, language):
    client = _speaking(owner, language)
    left = {}
    for path, html in _pages(client, world).items():
        assert f'<html lang="{language}">' in html, path
        if found := english_left(html, allowed=USER_CONTENT):
            left[path] = found
    assert left == {}


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_the_empty_states_show_no_english(team, owner, language):
    client = _speaking(owner, language)
    for path in ("/decisions/", "/calibration/", "/notifications/", f"/teams/{team.code}/",
                 f"/teams/{team.code}/webhooks/", f"/teams/{team.code}/slack/",
                 f"/teams/{team.code}/audit/?action=none", "/accounts/tokens/"):
        html = client.get(path).content.decode()
        assert english_left(html, allowed=USER_CONTENT) == [], path


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_the_invitation_confirmation_and_password_pages_show_no_english(
        team, owner, language):
    invited = User.objects.create_user("newcomer", "", "pw-newcomer-1")
    _, secret = invitation_create(team=team, created_by=owner, role="viewer", valid_days=7)
    _, for_someone = invitation_create(team=team, created_by=owner, role="editor",
                                       email="new@example.com", valid_days=7)
    client = _speaking(invited, language)
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language)
    pages = {
        "invitation": client.get(f"/invitations/{secret}/"),
        "invitation for another address": client.get(f"/invitations/{for_someone}/"),
        "bad confirmation link": client.get("/accounts/verify-email/not-a-link/"),
        "password reset": visitor.get("/accounts/password_reset/"),
        "reset sent": visitor.get("/accounts/password_reset/done/"),
        "reset link broken": visitor.get("/accounts/reset/MQ/set-password-x/"),
        "reset complete": visitor.get("/accounts/reset/done/"),
    }
    for name, response in pages.items():
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, name
        assert english_left(html, allowed=[*USER_CONTENT, "newcomer"]) == [], name


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_the_locked_out_page_and_the_reset_mail_show_no_english(owner, settings, language):
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR="198.51.100.7")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        visitor.post("/accounts/login/", {"username": "owner", "password": "wrong"})
    locked = visitor.post("/accounts/login/", {"username": "owner", "password": "wrong"})
    assert locked.status_code == 429
    assert english_left(locked.content.decode(), allowed=USER_CONTENT) == []
    Client(HTTP_ACCEPT_LANGUAGE=language).post("/accounts/password_reset/",
                                               {"email": owner.email})
    (sent,) = mail.outbox
    assert english_left(f"<p>{sent.subject}</p><p>{sent.body}</p>",
                        allowed=USER_CONTENT) == []


def test_french_reads_french(world, owner):
    client = _speaking(owner, "fr")
    pages = _pages(client, world)
    assert all('<html lang="fr">' in html for html in pages.values())
    team_page = pages[f"/teams/{world['team'].code}/"]
    assert "Débats par heure" in team_page and "Créer l’invitation" in team_page
    assert "Autoriser les modèles sans prix" in team_page
    assert "Comment c’est noté" in pages["/calibration/"]
    assert "Décidé par" in pages["/decisions/"]
    assert "Réglages des notifications" in pages["/notifications/settings"]
    assert "Journal de modération" in pages[f"/debates/{world['debate'].code}/comments/moderation"]
    assert "Équipe créée" in pages[f"/teams/{world['team'].code}/audit/"]


def test_english_pages_read_as_before(world, owner):
    client = Client()
    client.force_login(owner)
    pages = _pages(client, world)
    team_page = pages[f"/teams/{world['team'].code}/"]
    assert "Debates per hour" in team_page and "Create invitation" in team_page
    assert "Allow unpriced models" in team_page
    assert "How it is scored" in pages["/calibration/"]
    assert "Filters and sorting" in pages["/decisions/"]
    assert "decided" in pages["/decisions/"] and "Reviews so far" in pages[
        f"/debates/{world['debate'].code}/outcome"]
    audit = pages[f"/teams/{world['team'].code}/audit/"]
    assert "Created the team" in audit and 'data-action="team.create"' in audit
    assert "Invitation created and mailed to" not in pages["new invitation"]
    assert "Invitation created." in pages["new invitation"]


def test_a_notification_reads_in_each_readers_language(world, owner, member):
    joined = Notification.objects.get(user=owner, kind=Kind.INVITATION_ACCEPTED)
    assert joined.title == "newcomer joined Acme as editor"  # the stored English
    assert joined.title_key == "site.notice.joined"
    assert joined.title_in("ja") == "newcomer さんが Acme に編集者として参加しました"
    assert joined.title_in("fr") == "newcomer a rejoint Acme en tant que éditeur"
    given = Notification.objects.get(user=member, kind=Kind.ACTION_ASSIGNED)
    for language, word in (("ja", "アクション"), ("zh", "行动项")):
        html = _speaking(member, language).get("/notifications/").content.decode()
        assert word in html and "Check the vendor" in html
        assert english_left(html, allowed=USER_CONTENT) == []
    assert "gave you an action" in given.title  # English readers, and the admin


def test_a_notification_made_before_the_keys_shows_its_stored_text(owner, team):
    old = Notification.objects.create(user=owner, kind=Kind.MENTION, key="old",
                                      title="someone mentioned you on: Old question",
                                      url="/", team=team)
    assert old.title_in("ja") == "someone mentioned you on: Old question"
    html = _speaking(owner, "ja").get("/notifications/").content.decode()
    assert "someone mentioned you on: Old question" in html


def test_a_notification_mail_speaks_its_readers_language(owner, team):
    NotificationSettings.objects.create(user=owner)
    _speaking(owner, "zh")  # the reader's own setting: a worker has no browser to ask
    notification_create(user=owner, kind=Kind.REVIEW_DUE, key="review:x", url="/decisions/",
                        title=_wording("site.notice.review_due", label="Stay"),
                        body=_wording("site.notice.decided_after", date="2026-01-02",
                                      question="迁移吗？"))
    (sent,) = mail.outbox
    assert sent.subject == "[Council] 该复盘这个决定了：Stay"
    assert "于 2026-01-02 在此辩论后决定：迁移吗？" in sent.body and "通知设置" in sent.body


def _wording(key: str, **values: str):
    from notifications.services import Wording
    return Wording(key, values)


def test_a_due_review_and_a_reviewed_decision_read_in_japanese(member, team, owner):
    debate = finish(make_debate(team, owner))
    decided = decision_record(debate=debate, user=owner, option=Q3, rationale="Too risky.")
    Decision.objects.filter(pk=decided.pk).update(review_on=timezone.localdate())
    html = _speaking(member, "ja").get("/decisions/").content.decode()
    assert "見直し時期" in html and "今すぐ見直す" in html
    outcome_record(debate=debate, user=owner, right_option=Q3, result="failed")
    html = _speaking(member, "ja").get("/decisions/").content.decode()
    assert f"<strong>{Q3}</strong> が正解でした · うまくいかなかった" in html
    assert english_left(html, allowed=USER_CONTENT) == []
