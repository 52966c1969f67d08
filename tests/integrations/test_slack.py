"""The Slack command (docs/integrations.md, "Slack"), against a stand-in for Slack on
127.0.0.1: a signed ``/council`` starts a debate and answers at once; when the debate
ends, a worker posts its result to the command's ``response_url``, which the stand-in
receives. Unsigned, wrongly signed and stale commands are refused and create nothing;
an unlinked Slack user is told how to link; ``manage.py slack_link`` links a team.

Requests only queue tasks (after commit); the ``worker`` fixture runs them the way a
django-q worker would, so each test shows both halves.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils.module_loading import import_string

from debates.models import Debate
from debates.runtime.execution import run_to_completion
from integrations.models import SlackCommand, SlackUser, SlackWorkspace
from integrations.slack.links import link_url, user_link, workspace_link
from tests.waiting import wait_until

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
SLACK_TEAM = "T0ACME42"
ENDPOINT = "/integrations/slack/commands"


# --------------------------------------------------------------------- the stand-ins


@dataclass
class StandIn:
    """Slack's side of a response_url: records every post, answers 200 "ok"."""

    url: str
    received: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def slack() -> Iterator[StandIn]:
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length") or 0)
            received.append({"path": self.path,
                             "content_type": self.headers.get("Content-Type"),
                             "body": json.loads(self.rfile.read(length))})
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield StandIn(url=f"http://127.0.0.1:{server.server_address[1]}", received=received)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Worker:
    """Collects queued tasks; ``run(prefix)`` executes those whose name starts so."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, tuple[Any, ...]]] = []

    def __call__(self, func: str, *args: Any, **kwargs: Any) -> None:
        self.queued.append((func, args))

    def names(self) -> list[str]:
        return [func for func, _ in self.queued]

    def run(self, prefix: str) -> list[Any]:
        mine = [(f, a) for f, a in self.queued if f.startswith(prefix)]
        self.queued = [(f, a) for f, a in self.queued if not f.startswith(prefix)]
        return [import_string(func)(*args) for func, args in mine]


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> Worker:
    w = Worker()
    monkeypatch.setattr("django_q.tasks.async_task", w)
    return w


@pytest.fixture(autouse=True)
def signing_secret(settings: Any) -> None:
    settings.COUNCIL_SLACK_SIGNING_SECRET = SECRET
    settings.COUNCIL_SITE_URL = "https://council.example"


def signature(body: str, timestamp: str, secret: str = SECRET) -> str:
    """Slack's scheme, written out here (not slack-sdk's) so the test checks the
    endpoint against the specification: v0=HMAC-SHA256(secret, "v0:ts:body")."""
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def command(text: str, *, user: str = "U0MEMBER", response_url: str = "https://hooks.example/1",
            team: str = SLACK_TEAM) -> dict[str, str]:
    return {"token": "deprecated", "team_id": team, "team_domain": "acme",
            "channel_id": "C0DECIDE", "channel_name": "decisions", "user_id": user,
            "user_name": "member", "command": "/council", "text": text,
            "api_app_id": "A0COUNCIL", "response_url": response_url,
            "trigger_id": "1.2.3"}


def post(client: Client, fields: dict[str, str], *, age_s: int = 0,
         secret: str | None = SECRET, signed: bool = True) -> Any:
    body = urlencode(fields)
    timestamp = str(int(time.time()) - age_s)
    headers = {"HTTP_X_SLACK_REQUEST_TIMESTAMP": timestamp}
    if signed and secret is not None:
        headers["HTTP_X_SLACK_SIGNATURE"] = signature(body, timestamp, secret)
    return client.post(ENDPOINT, body, content_type="application/x-www-form-urlencoded",
                       **headers)


@pytest.fixture
def workspace(team: Any) -> SlackWorkspace:
    return workspace_link(team=team, slack_team_id=SLACK_TEAM)


def link(workspace: SlackWorkspace, user: Any, slack_user: str = "U0MEMBER") -> None:
    token = urlsplit(link_url(workspace=workspace, slack_user_id=slack_user)).path.split("/")[-2]
    user_link(token=token, user=user)


def _nothing_created() -> bool:
    return not Debate.objects.exists() and not SlackCommand.objects.exists()


# ----------------------------------------------------------------------------- tests


def test_a_signed_command_starts_a_debate_and_slack_receives_its_result(
        client, workspace, member, slack, worker, django_capture_on_commit_callbacks):
    link(workspace, member)
    text = ('Should we move billing to Postgres? --mode quick --options "Postgres, MySQL" '
            "--seed 5")
    with django_capture_on_commit_callbacks(execute=True):
        started = time.monotonic()
        response = post(client, command(text, response_url=f"{slack.url}/commands/1"))
        answered_s = time.monotonic() - started
    assert response.status_code == 200
    reply = response.json()
    assert reply["response_type"] == "ephemeral" and reply["text"].startswith("Started a council")
    debate = Debate.objects.get()
    assert (debate.team, debate.created_by, debate.mode) == (workspace.team, member, "quick")
    assert debate.question == "Should we move billing to Postgres?"
    assert debate.settings["options"] == ["Postgres", "MySQL"]
    assert debate.settings["seed"] == 5
    assert f"https://council.example/debates/{debate.code}/" in reply["text"]
    # The request only queued the debate's first step: nothing was posted yet.
    assert worker.names() == ["debates.tasks.run_step"] and not slack.received
    print(f"answered in {answered_s:.3f} s")

    with django_capture_on_commit_callbacks(execute=True):
        run_to_completion(debate.code)
    assert "integrations.slack.tasks.post_result" in worker.names()
    assert worker.run("integrations.") == [200]

    posted = wait_until(lambda: slack.received, what="the result at the Slack stand-in")
    assert len(posted) == 1 and posted[0]["path"] == "/commands/1"
    assert posted[0]["content_type"].startswith("application/json")
    message = posted[0]["body"]
    assert message["response_type"] == "in_channel"
    lines = message["text"].split("\n")
    assert lines[0] == (f"*Council debate finished:* <https://council.example/debates/"
                        f"{debate.code}/|Should we move billing to Postgres?>")
    assert lines[1].startswith(("*Decision:* ", "*No single recommendation:* "))
    assert lines[2] in ("*Quality:* sound", "*Quality:* doubtful: read with care")
    assert lines[3].startswith("*What the debate changed:* First vote: ")
    assert lines[-1] == "_Simulated model: placeholder content, not advice._"
    saved = SlackCommand.objects.get(debate=debate)
    assert (saved.post_status, saved.post_answer) == (200, "ok") and saved.posted_at
    # Posted once: a later end (one more round) does not post again.
    assert worker.run("integrations.") == []


@pytest.mark.parametrize("how", ["unsigned", "wrong secret", "stale", "no timestamp"])
def test_an_unsigned_wrong_or_stale_command_is_refused_and_creates_nothing(
        client, workspace, member, how, worker):
    link(workspace, member)
    fields = command("Should we move billing to Postgres?")
    if how == "unsigned":
        response = post(client, fields, signed=False)
    elif how == "wrong secret":
        response = post(client, fields, secret="not-the-secret")
    elif how == "stale":  # signed correctly, six minutes ago: outside Slack's 5 minutes
        response = post(client, fields, age_s=6 * 60)
    else:
        response = client.post(ENDPOINT, urlencode(fields),
                               content_type="application/x-www-form-urlencoded",
                               HTTP_X_SLACK_SIGNATURE="v0=" + "0" * 64)
    assert response.status_code == 401
    assert response.json() == {"error": "invalid or stale Slack signature"}
    assert _nothing_created() and not worker.queued


def test_a_command_four_minutes_old_is_still_taken(client, workspace, member):
    link(workspace, member)
    response = post(client, command("Should we hire?"), age_s=4 * 60)
    assert response.status_code == 200 and Debate.objects.count() == 1


def test_a_body_changed_after_signing_is_refused(client, workspace, member):
    link(workspace, member)
    body = urlencode(command("Should we hire?"))
    timestamp = str(int(time.time()))
    forged = body.replace("hire", "fire")
    response = client.post(ENDPOINT, forged, content_type="application/x-www-form-urlencoded",
                           HTTP_X_SLACK_REQUEST_TIMESTAMP=timestamp,
                           HTTP_X_SLACK_SIGNATURE=signature(body, timestamp))
    assert response.status_code == 401 and _nothing_created()


def test_an_oversized_body_is_refused_before_its_signature_is_read(client, workspace):
    response = post(client, command("x" * (70 * 1024)))
    assert response.status_code == 413 and _nothing_created()


def test_without_a_signing_secret_the_endpoint_is_closed(client, workspace, settings):
    settings.COUNCIL_SLACK_SIGNING_SECRET = ""
    response = post(client, command("Should we hire?"))
    assert response.status_code == 503 and _nothing_created()


def test_the_endpoint_needs_no_csrf_token_but_only_takes_posts(workspace, member):
    link(workspace, member)
    client = Client(enforce_csrf_checks=True)
    assert post(client, command("Should we hire?")).status_code == 200
    assert client.get(ENDPOINT).status_code == 405


def test_an_unlinked_slack_user_is_told_how_to_link_and_the_link_works_once(
        client, workspace, member):
    response = post(client, command("Should we hire?", user="U0NEWBIE"))
    assert response.status_code == 200
    reply = response.json()
    assert reply["response_type"] == "ephemeral"
    assert reply["text"].startswith(
        "Your Slack user is not linked to a Council account yet. To link it, open this link "
        "while signed in to Council (it works once, for 15 minutes): "
        "https://council.example/integrations/slack/link/")
    assert "Then run your command again." in reply["text"]
    assert _nothing_created()
    path = urlsplit(reply["text"].split(": ", 1)[1].split()[0]).path

    browser = Client()
    assert browser.get(path).status_code == 302  # signed out: to the login page first
    browser.force_login(member)
    page = browser.get(path)
    assert page.status_code == 200 and b"U0NEWBIE" in page.content
    assert not SlackUser.objects.exists()  # looking changes nothing
    done = browser.post(path)
    assert done.status_code == 200 and b'id="slack-link-done"' in done.content
    assert SlackUser.objects.get(slack_user_id="U0NEWBIE").user == member
    again = browser.post(path)
    assert again.status_code == 400 and b"used already" in again.content

    response = post(client, command("Should we hire?", user="U0NEWBIE"))
    assert response.json()["text"].startswith("Started a council")


def test_council_link_offers_a_link_and_an_outsider_cannot_use_it(client, workspace,
                                                                  outsider):
    reply = post(client, command("link", user="U0STRANGER")).json()
    assert reply["text"].startswith("Open this link while signed in to Council")
    path = urlsplit(reply["text"].rsplit(": ", 1)[1]).path
    browser = Client()
    browser.force_login(outsider)
    refused = browser.post(path)
    assert refused.status_code == 400 and b"not a member of Acme" in refused.content
    assert not SlackUser.objects.exists()


def test_a_forged_link_is_refused(member):
    browser = Client()
    browser.force_login(member)
    response = browser.get("/integrations/slack/link/not-a-token/")
    assert response.status_code == 400 and b"not a link Council made" in response.content


def test_a_workspace_not_linked_to_a_team_is_told_how(client, db):
    reply = post(client, command("Should we hire?", team="T0NOBODY")).json()
    assert reply["response_type"] == "ephemeral"
    assert "manage.py slack_link TEAM T0NOBODY" in reply["text"]
    assert _nothing_created()


def test_help_lists_the_options(client, db):
    reply = post(client, command("help")).json()
    assert "--protocol" in reply["text"] and "/council link" in reply["text"]


@pytest.mark.parametrize(("text", "says"), [
    ("Should we? --personas /etc/passwd", "--personas cannot be used from Slack"),
    ("Should we? --source /etc/passwd", "--source cannot be used from Slack"),
    ("Should we? --mode forever", "argument --mode: invalid choice"),
    ("Should we? --protocol adversarial --agents 4", "the adversarial protocol always runs"),
    ("Should we? --wat", "unrecognized arguments: --wat"),
    ('Should we? --context "unclosed', "the options: No closing quotation"),
    ("--mode quick", "the question is empty"),
    ("Should we? --panel-models sim/a,nosuchprovider-x", "unknown model 'nosuchprovider-x'"),
])
def test_bad_options_are_refused_with_the_reason_and_create_nothing(client, workspace,
                                                                    member, text, says):
    link(workspace, member)
    reply = post(client, command(text)).json()
    assert reply["response_type"] == "ephemeral"
    assert reply["text"].startswith("Not started: ") and says in reply["text"]
    assert _nothing_created()


def test_a_viewer_cannot_start_a_debate(client, workspace, viewer):
    link(workspace, viewer, "U0VIEWER")
    reply = post(client, command("Should we hire?", user="U0VIEWER")).json()
    assert reply["text"].startswith("Not started: Viewers can read but not change anything")
    assert _nothing_created()


def test_the_question_keeps_apostrophes_and_curly_quoted_options(client, workspace, member):
    link(workspace, member)
    text = "Should we ship Bob's rewrite — or not? --options “Ship it, Wait” --protocol workflow"
    reply = post(client, command(text)).json()
    assert reply["text"].startswith("Started a workflow debate"), reply
    debate = Debate.objects.get()
    assert debate.question == "Should we ship Bob's rewrite — or not?"
    assert debate.settings["options"] == ["Ship it", "Wait"]


def test_a_mixed_panel_from_slack(client, workspace, member):
    link(workspace, member)
    reply = post(client, command("Should we hire? --panel-models sim/alpha,sim/beta")).json()
    assert reply["text"].startswith("Started"), reply
    assert Debate.objects.get().settings["panel_models"] == ["sim/alpha", "sim/beta"]


def test_a_result_that_slack_refuses_is_recorded(client, workspace, member, worker,
                                                 django_capture_on_commit_callbacks):
    """Nothing listens on the response_url: the worker gives up within its timeout and
    keeps the reason; the debate is not affected."""
    link(workspace, member)
    with django_capture_on_commit_callbacks(execute=True):
        post(client, command("Should we hire?", response_url="http://127.0.0.1:9/gone"))
    debate = Debate.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        run_to_completion(debate.code)
    assert worker.run("integrations.") == [0]
    saved = SlackCommand.objects.get()
    assert saved.post_status == 0 and "Connection refused" in saved.post_answer
    debate.refresh_from_db()
    assert debate.status == "succeeded"


# ---------------------------------------------------------------- linking a workspace


def test_manage_py_slack_link_links_a_team_by_name_or_code(team, capsys):
    call_command("slack_link", "Acme", "T0ACME42")
    assert SlackWorkspace.objects.get(team=team).slack_team_id == "T0ACME42"
    assert "is linked to the Slack workspace T0ACME42" in capsys.readouterr().out
    call_command("slack_link", str(team.code), "T0OTHER1")
    assert SlackWorkspace.objects.get(team=team).slack_team_id == "T0OTHER1"
    call_command("slack_link", "Acme", "--unlink")
    assert not SlackWorkspace.objects.exists()


def test_manage_py_slack_link_refuses_an_unknown_team_or_a_bad_id(team):
    with pytest.raises(CommandError, match="No team 'Nobody'"):
        call_command("slack_link", "Nobody", "T0ACME42")
    with pytest.raises(CommandError, match="is not a Slack workspace id"):
        call_command("slack_link", "Acme", "https://acme.slack.com")
    assert not SlackWorkspace.objects.exists()


def test_manage_py_slack_link_moves_a_workspace_the_page_refuses_to(team, other_team,
                                                                    owner_client):
    workspace_link(team=other_team, slack_team_id="T0ACME42")
    page = owner_client.post(f"/teams/{team.code}/slack/", {"slack_team_id": "T0ACME42"},
                             follow=True)
    assert b"linked to another team" in page.content
    assert SlackWorkspace.objects.get().team == other_team
    call_command("slack_link", "Acme", "T0ACME42")
    assert SlackWorkspace.objects.get().team == team


def test_owners_link_and_unlink_on_the_team_page(team, owner_client, member_client):
    team_page = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert f'href="/teams/{team.code}/slack/"' in team_page
    owner_client.post(f"/teams/{team.code}/slack/", {"slack_team_id": "T0ACME42"})
    assert SlackWorkspace.objects.get(team=team).slack_team_id == "T0ACME42"
    seen = member_client.get(f"/teams/{team.code}/slack/").content.decode()
    assert "T0ACME42" in seen and "Unlink" not in seen
    assert member_client.post(f"/teams/{team.code}/slack/unlink").status_code == 403
    owner_client.post(f"/teams/{team.code}/slack/unlink")
    assert not SlackWorkspace.objects.exists()


def test_a_failed_debate_posts_its_error(client, workspace, member, slack, worker,
                                         django_capture_on_commit_callbacks):
    from debates import signals

    link(workspace, member)
    post(client, command("Should we <!channel> hire?",
                         response_url=f"{slack.url}/commands/2"))
    debate = Debate.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        Debate.objects.filter(pk=debate.pk).update(status="failed",
                                                   error="the model refused every call")
        debate.refresh_from_db()
        signals.debate_failed.send(sender=Debate, debate=debate)
    assert worker.run("integrations.") == [200]
    posted = wait_until(lambda: slack.received, what="the failure at the Slack stand-in")
    assert posted[0]["body"]["text"] == (
        f"*Council debate failed:* <https://council.example/debates/{debate.code}/|"
        "Should we &lt;!channel&gt; hire?>\nthe model refused every call")


def test_a_debate_not_started_from_slack_queues_nothing(team, owner, worker,
                                                        django_capture_on_commit_callbacks):
    from tests.factories import make_debate

    debate = make_debate(team, owner)
    with django_capture_on_commit_callbacks(execute=True):
        run_to_completion(debate.code)
    assert not any(name.startswith("integrations.") for name in worker.names())


@pytest.mark.parametrize(("text", "question", "words"), [
    ('"Should we run --force on prod?" --mode quick', "Should we run --force on prod?",
     ["--mode", "quick"]),
    ("“Should we ship Bob’s rewrite?” --context “it’s late” --options ‘A, B’",
     "Should we ship Bob’s rewrite?", ["--context", "it's late", "--options", "A, B"]),
    ("Is 2-3 weeks enough? --options 'Yes, No'", "Is 2-3 weeks enough?",
     ["--options", "Yes, No"]),
    ("Should we hire?", "Should we hire?", []),
])
def test_the_text_splits_into_the_question_and_the_options(text, question, words):
    from integrations.slack.options import split_text

    assert split_text(text) == (question, words)
