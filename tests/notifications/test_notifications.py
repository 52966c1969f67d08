"""Notifications: who hears about what, in the app and by mail, sent by workers.

Requests only queue a task (after commit); the ``worker`` fixture runs queued tasks
the way a django-q worker would, so each test shows both halves.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import transaction
from django.test import Client
from django.utils.module_loading import import_string

from accounts.services import invitation_accept, invitation_create
from collab.services import comment_create, comment_edit
from debates.engine.schemas import DebateConfig
from debates.runtime.execution import _fail, run_to_completion
from debates.runtime.lease import claim
from debates.services import debate_create
from notifications.models import Kind, Notification
from notifications.services import notification_settings_update
from notifications.tasks import notify_mentions
from tests.factories import add_synthesis, make_debate

ROOT = Path(__file__).resolve().parents[2]


class Worker:
    """Collects queued notification tasks; ``run()`` executes them like a worker."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, tuple]] = []

    def __call__(self, func: str, *args, **kwargs) -> None:
        self.queued.append((func, args))

    def run(self) -> None:
        queued, self.queued = self.queued, []
        for func, args in queued:
            if func.startswith("notifications."):
                import_string(func)(*args)


@pytest.fixture
def worker(monkeypatch) -> Worker:
    w = Worker()
    monkeypatch.setattr("django_q.tasks.async_task", w)
    return w


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def _kinds(user: User) -> list[str]:
    return list(Notification.objects.filter(user=user).values_list("kind", flat=True))


# ------------------------------------------------------------------------ producers


def test_a_mention_is_queued_by_the_request_and_delivered_by_the_worker(
        member_client, debate, viewer, worker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(f"/debates/{debate.code}/comments/",
                                      {"body": "What do you think, @viewer?"})
    assert response.status_code == 302
    # The request queued the work and did none of it.
    assert [f for f, _ in worker.queued] == ["notifications.tasks.notify_mentions"]
    assert not Notification.objects.exists() and not mail.outbox
    worker.run()
    n = Notification.objects.get(user=viewer)
    assert n.kind == Kind.MENTION and n.actor.username == "member"
    assert debate.question[:40] in n.title and "What do you think" in n.body
    assert n.url.startswith(f"/debates/{debate.code}/comments/#comment-")
    assert [m.to for m in mail.outbox] == [["viewer@example.com"]]
    assert "member mentioned you" in mail.outbox[0].subject
    assert f"http://localhost:8000{n.url}" in mail.outbox[0].body


def test_nothing_is_queued_when_the_transaction_rolls_back(debate, member, viewer, worker,
                                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                comment_create(debate=debate, author=member, body="@viewer look")
                raise RuntimeError
        except RuntimeError:
            pass
    assert worker.queued == []


def test_an_edit_that_adds_a_mention_notifies_only_the_new_name(
        debate, member, viewer, owner, worker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        comment = comment_create(debate=debate, author=member, body="@viewer look")
    worker.run()
    with django_capture_on_commit_callbacks(execute=True):
        comment_edit(comment=comment, user=member, body="@viewer @owner look")
    worker.run()
    assert _kinds(viewer) == [Kind.MENTION] and _kinds(owner) == [Kind.MENTION]


def test_a_mention_removed_before_the_worker_runs_sends_nothing(debate, member, viewer,
                                                                worker):
    comment = comment_create(debate=debate, author=member, body="@viewer look")
    comment_edit(comment=comment, user=member, body="never mind")
    assert notify_mentions(comment.pk, [viewer.pk]) == 0
    assert not Notification.objects.exists()


def test_a_reply_notifies_the_thread_but_not_its_author_or_the_mentioned(
        debate, owner, member, viewer, worker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        thread = comment_create(debate=debate, author=owner, body="Is R1 real?")
        comment_create(debate=debate, author=member, body="I think so", parent=thread)
        comment_create(debate=debate, author=viewer, body="Agreed, @member", parent=thread)
    worker.run()
    # owner hears of both replies; member of viewer's reply only as a mention.
    assert sorted(_kinds(owner)) == [Kind.REPLY, Kind.REPLY]
    assert _kinds(member) == [Kind.MENTION]
    assert _kinds(viewer) == []


def test_the_starter_hears_that_their_debate_finished(team, owner, worker,
                                                      django_capture_on_commit_callbacks):
    debate = debate_create(team=team, user=owner, question="Should we open a Lisbon office?",
                           config=DebateConfig(mode="quick"), start=False)
    with django_capture_on_commit_callbacks(execute=True):
        run_to_completion(debate.code)
    worker.run()
    n = Notification.objects.get(user=owner)
    assert n.kind == Kind.DEBATE_FINISHED and "Lisbon" in n.title
    assert "Stop reason:" in n.body and n.url == f"/debates/{debate.code}/"
    assert len(mail.outbox) == 1


def test_the_starter_hears_that_their_debate_failed(team, owner, worker,
                                                    django_capture_on_commit_callbacks):
    debate = debate_create(team=team, user=owner, question="Q?",
                           config=DebateConfig(mode="quick"), start=False)
    assert claim(debate.code, "worker-1")  # only the lease holder fails a debate
    with django_capture_on_commit_callbacks(execute=True):
        _fail(debate, "the model refused every call", "worker-1")
    worker.run()
    n = Notification.objects.get(user=owner)
    assert n.kind == Kind.DEBATE_FAILED and "refused every call" in n.body


def test_the_inviter_hears_that_the_invitation_was_accepted(
        team, owner, worker, django_capture_on_commit_callbacks):
    newcomer = User.objects.create_user("newcomer", "new@example.com", "pw")
    invitation, _ = invitation_create(team=team, created_by=owner, role="editor")
    with django_capture_on_commit_callbacks(execute=True):
        invitation_accept(invitation=invitation, user=newcomer)
    worker.run()
    n = Notification.objects.get(user=owner)
    assert n.kind == Kind.INVITATION_ACCEPTED
    assert n.title == "newcomer joined Acme as editor"
    assert n.url == f"/teams/{team.code}/"


# ------------------------------------------------------------------------ settings, idempotence


def test_settings_choose_off_app_or_email(debate, member, viewer, owner, worker,
                                          django_capture_on_commit_callbacks):
    notification_settings_update(user=viewer, mentions="off")
    notification_settings_update(user=owner, mentions="app")
    with django_capture_on_commit_callbacks(execute=True):
        comment_create(debate=debate, author=member, body="@viewer @owner look")
    worker.run()
    assert _kinds(viewer) == [] and _kinds(owner) == [Kind.MENTION]
    assert mail.outbox == []


def test_a_retried_task_neither_duplicates_nor_mails_twice(debate, member, viewer):
    comment = comment_create(debate=debate, author=member, body="@viewer look")
    assert notify_mentions(comment.pk, [viewer.pk]) == 1
    assert notify_mentions(comment.pk, [viewer.pk]) == 1
    assert Notification.objects.count() == 1 and len(mail.outbox) == 1


def test_a_user_without_an_address_gets_no_mail(debate, member, viewer):
    User.objects.filter(pk=viewer.pk).update(email="")
    comment = comment_create(debate=debate, author=member, body="@viewer look")
    notify_mentions(comment.pk, [viewer.pk])
    assert _kinds(viewer) == [Kind.MENTION] and mail.outbox == []


def test_settings_refuse_unknown_values(viewer):
    with pytest.raises(ValueError):
        notification_settings_update(user=viewer, mentions="pigeon")
    with pytest.raises(ValueError):
        notification_settings_update(user=viewer, sms="email")


# ------------------------------------------------------------------------ pages


def _notify(user, title="Something happened", url="/debates/", team=None) -> Notification:
    return Notification.objects.create(user=user, kind=Kind.MENTION, key=title, title=title,
                                       url=url, team=team)


def test_the_navigation_shows_the_unread_count(viewer_client, viewer):
    assert "badge-unread" not in viewer_client.get("/").content.decode()
    _notify(viewer, "one")
    _notify(viewer, "two")
    html = viewer_client.get("/").content.decode()
    assert 'data-unread="2"' in html and "Notifications, 2 unread" in html
    badge = viewer_client.get("/notifications/badge").content.decode()
    assert 'data-unread="2"' in badge and "<html" not in badge


def test_the_list_and_opening_a_notification_marks_it_read(viewer_client, viewer, team):
    n = _notify(viewer, "Dana mentioned you", url="/debates/", team=team)
    html = viewer_client.get("/notifications/").content.decode()
    assert "Dana mentioned you" in html and "Mark all 1 read" in html
    # A link, not a form's button, so it can be opened in a new tab.
    assert f'<a class="notification-title" href="/notifications/{n.code}/open">' in html
    response = viewer_client.get(f"/notifications/{n.code}/open")
    assert response.status_code == 302 and response["Location"] == "/debates/"
    n.refresh_from_db()
    assert n.read_at is not None
    assert "badge-unread" not in viewer_client.get("/").content.decode()


def test_an_offsite_url_is_never_followed(viewer_client, viewer):
    n = _notify(viewer, url="https://evil.example/")
    assert viewer_client.get(f"/notifications/{n.code}/open")["Location"] == "/notifications/"


def test_someone_elses_notification_is_a_404(viewer_client, owner):
    n = _notify(owner, "private")
    assert viewer_client.get(f"/notifications/{n.code}/open").status_code == 404
    assert "private" not in viewer_client.get("/notifications/").content.decode()
    n.refresh_from_db()
    assert n.read_at is None


def test_mark_all_read(viewer_client, viewer, owner):
    _notify(viewer, "a")
    _notify(viewer, "b")
    theirs = _notify(owner, "c")
    viewer_client.post("/notifications/read-all")
    assert not Notification.objects.filter(user=viewer, read_at=None).exists()
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_news_of_a_team_the_user_left_is_hidden(viewer_client, viewer, team):
    _notify(viewer, "about Acme", team=team)
    assert "about Acme" in viewer_client.get("/notifications/").content.decode()
    viewer.memberships.all().delete()
    client = Client()
    client.force_login(viewer)
    assert "about Acme" not in client.get("/notifications/").content.decode()


def test_the_settings_page_saves(viewer_client, viewer):
    html = viewer_client.get("/notifications/settings").content.decode()
    assert "Someone mentions you" in html and "viewer@example.com" in html
    response = viewer_client.post("/notifications/settings", {
        "mentions": "app", "replies": "off", "debates": "email", "invitations": "email",
        "follow_up": "app", "email_digest": "on"})
    assert response.status_code == 302
    assert viewer.notification_settings.replies == "off"
    assert viewer.notification_settings.follow_up == "app"
    assert viewer.notification_settings.email_digest is True
    bad = viewer_client.post("/notifications/settings", {"mentions": "sms"})
    assert bad.status_code == 400


# ------------------------------------------------------------------------ dependencies


@pytest.mark.parametrize("package", ["debates", "collab", "decisions", "accounts"])
def test_producers_never_import_the_notifications_app(package):
    offenders = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "notifications" or n.startswith("notifications.") for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
