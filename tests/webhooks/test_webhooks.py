"""Outgoing webhooks (issue 40): a real receiver on 127.0.0.1 gets signed events that
verify with the Standard Webhooks library; failures are retried with the same
webhook-id and logged; a hanging or flooding receiver is cut at its limits and never
holds a debate; URLs into private networks are refused.

Requests and debate steps only queue tasks (after commit); the ``worker`` fixture runs
the queued webhook tasks the way a django-q worker would, so each test shows both.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from django.core import mail
from django.test import Client, TestCase
from django.utils.module_loading import import_string
from standardwebhooks import Webhook

from debates.engine.schemas import DebateConfig
from debates.runtime.execution import run_to_completion
from debates.services import debate_cancel, debate_create
from tests.webhooks.receiver import hang, huge, receiver, status
from webhooks import tasks
from webhooks.models import Attempt, Delivery, DeliveryStatus, Endpoint, Event


class Worker:
    """Collects queued tasks; ``run()`` executes the webhook ones like a worker would,
    again and again until none is left (an event queues its deliveries)."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, tuple[Any, ...]]] = []

    def __call__(self, func: str, *args: Any, **kwargs: Any) -> None:
        self.queued.append((func, args))

    def run(self) -> list[Any]:
        results = []
        while mine := [q for q in self.queued if q[0].startswith("webhooks.")]:
            self.queued = [q for q in self.queued if q not in mine]
            for func, args in mine:
                with TestCase.captureOnCommitCallbacks(execute=True):
                    results.append(import_string(func)(*args))
        return results


@pytest.fixture
def worker(monkeypatch) -> Worker:
    w = Worker()
    monkeypatch.setattr("django_q.tasks.async_task", w)
    return w


@pytest.fixture(autouse=True)
def _owners_team(team) -> None:
    """Every test works in the owner's team (the API's current team)."""


@pytest.fixture
def local(settings) -> Any:
    """Receivers on 127.0.0.1 allowed, short limits, a compressed retry schedule."""
    settings.COUNCIL_WEBHOOKS_ALLOW_PRIVATE = True
    settings.COUNCIL_WEBHOOK_TIMEOUT_SECONDS = 1
    settings.COUNCIL_WEBHOOK_RETRY_DELAYS = (0, 0)
    return settings


def _create(client: Client, url: str, **extra: Any) -> Any:
    return client.post("/api/webhooks/", {"url": url, **extra}, content_type="application/json")


def _endpoint(client: Client, url: str, **extra: Any) -> tuple[str, str]:
    response = _create(client, url, **extra)
    assert response.status_code == 201, response.content
    body = response.json()
    return body["code"], body["secret"]


def _ping(client: Client, code: str) -> Any:
    """POST .../ping, its transaction committed (the request queues the delivery then)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(f"/api/webhooks/{code}/ping")


def _sweep() -> int:
    """The retry schedule's run, committed (it queues what is due then)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tasks.deliver_due()


def _verified(secret: str, request: tuple[dict[str, str], bytes]) -> dict[str, Any]:
    headers, body = request
    return Webhook(secret).verify(body, headers)


def _finished_debate(team, owner, worker, capture, question="Should we open a Lisbon office?"):
    debate = debate_create(team=team, user=owner, question=question,
                           config=DebateConfig(mode="quick"), start=False)
    with capture(execute=True):
        run_to_completion(debate.code)
    debate.refresh_from_db()
    return debate


# ------------------------------------------------------------------------ delivery


def test_a_finished_debate_reaches_a_local_receiver_signed(
        local, team, owner, owner_client, worker, django_capture_on_commit_callbacks):
    with receiver() as hook:
        code, secret = _endpoint(owner_client, hook.url)
        assert secret.startswith("whsec_")
        debate = _finished_debate(team, owner, worker, django_capture_on_commit_callbacks)
        assert hook.requests == []  # the debate step only queued the work
        worker.run()
        assert hook.wait_for(1)
    [request] = hook.requests
    payload = _verified(secret, request)
    assert payload["type"] == "debate.finished"
    data = payload["data"]
    assert data["debate"] == str(debate.code) and data["status"] == "succeeded"
    assert data["simulated"] is True and data["quality"] in ("sound", "doubtful", "unusable")
    assert data["decision"] and "\n" not in data["decision"]
    assert data["url"].endswith(f"/debates/{debate.code}/")
    assert payload["timestamp"].endswith("Z") and data["finished_at"].endswith("Z")
    headers = request[0]
    assert headers["webhook-id"].startswith("msg_")
    assert headers["content-type"] == "application/json"
    # The log has the attempt; the secret is never shown again.
    log = owner_client.get(f"/api/webhooks/{code}/deliveries").json()
    assert log["items"][0]["status"] == "succeeded"
    assert log["items"][0]["attempts"][0]["status_code"] == 200
    assert "secret" not in owner_client.get(f"/api/webhooks/{code}").json()


def test_a_tampered_body_does_not_verify(local, owner_client, worker):
    with receiver() as hook:
        code, secret = _endpoint(owner_client, hook.url)
        _ping(owner_client, code)
        worker.run()
    headers, body = hook.requests[0]
    assert _verified(secret, (headers, body))["type"] == "webhook.ping"
    with pytest.raises(Exception, match="signature"):
        Webhook(secret).verify(body.replace(b"ping", b"pong"), headers)


def test_a_500_is_retried_with_the_same_id_and_the_log_lists_both_attempts(
        local, owner_client, worker):
    with receiver(status(500, b"boom"), status(200, b"thanks")) as hook:
        code, secret = _endpoint(owner_client, hook.url)
        assert _ping(owner_client, code).status_code == 202
        assert worker.run() == [False]  # the first attempt failed
        delivery = Delivery.objects.get()
        assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 1
        assert _sweep() == 1  # the schedule's sweep: the retry is due (0 s)
        assert worker.run() == [True]
        assert hook.wait_for(2)
    first, second = hook.requests
    assert first[0]["webhook-id"] == second[0]["webhook-id"]
    assert _verified(secret, first) == _verified(secret, second)
    [entry] = owner_client.get(f"/api/webhooks/{code}/deliveries").json()["items"]
    assert entry["status"] == "succeeded" and entry["webhook_id"] == first[0]["webhook-id"]
    assert [(a["number"], a["status_code"], a["succeeded"]) for a in entry["attempts"]] == [
        (1, 500, False), (2, 200, True)]
    assert entry["attempts"][0]["response_head"] == "boom"
    assert all(a["duration_ms"] >= 0 and a["started_at"] for a in entry["attempts"])


def test_redeliver_sends_the_same_event_again(local, owner_client, worker):
    with receiver() as hook:
        code, secret = _endpoint(owner_client, hook.url)
        _ping(owner_client, code)
        worker.run()
        delivery = Delivery.objects.get()
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = owner_client.post(
                f"/api/webhooks/{code}/deliveries/{delivery.code}/redeliver")
        assert response.status_code == 202
        worker.run()
        assert hook.wait_for(2)
    assert hook.requests[0][0]["webhook-id"] == hook.requests[1][0]["webhook-id"]
    assert Attempt.objects.filter(delivery=delivery).count() == 2


def test_an_endpoint_failing_in_a_row_is_given_up_then_disabled_and_its_owners_told(
        local, owner_client, worker, owner):
    local.COUNCIL_WEBHOOK_DISABLE_AFTER = 3
    with receiver(status(503)) as hook:
        code, _ = _endpoint(owner_client, hook.url)
        _ping(owner_client, code)
        worker.run()
        for _ in range(2):
            _sweep()
            worker.run()
        assert hook.wait_for(3)
    delivery = Delivery.objects.get()
    assert delivery.status == DeliveryStatus.FAILED and delivery.attempts == 3  # 1 + 2 retries
    assert delivery.next_attempt_at is None
    endpoint = Endpoint.objects.get(code=code)
    assert not endpoint.enabled and "3 failed attempts" in endpoint.disabled_reason
    assert [m.to for m in mail.outbox] == [[owner.email]]
    assert hook.url in mail.outbox[0].body
    # Enabled again by an owner, it starts afresh.
    response = owner_client.patch(f"/api/webhooks/{code}", {"enabled": True},
                                  content_type="application/json")
    assert response.json()["enabled"] is True and response.json()["failure_streak"] == 0
    # A redelivery of the given-up event gets the whole schedule again, and the log goes on.
    with receiver(status(503), status(200)) as hook:
        Endpoint.objects.filter(code=code).update(url=hook.url)
        with TestCase.captureOnCommitCallbacks(execute=True):
            owner_client.post(f"/api/webhooks/{code}/deliveries/{delivery.code}/redeliver")
        assert worker.run() == [False]
        _sweep()
        assert worker.run() == [True]
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.SUCCEEDED and delivery.attempts == 5
    assert list(delivery.attempt_log.values_list("number", flat=True)) == [1, 2, 3, 4, 5]


def test_a_hanging_receiver_is_cut_at_the_timeout_and_no_debate_waits_on_it(
        local, team, owner, owner_client, worker, django_capture_on_commit_callbacks):
    release = threading.Event()
    with receiver(hang(release)) as hook:
        _endpoint(owner_client, hook.url)
        started = time.monotonic()
        _finished_debate(team, owner, worker, django_capture_on_commit_callbacks)
        debate_seconds = time.monotonic() - started
        assert hook.requests == []  # nothing was sent while the debate ran
        started = time.monotonic()
        assert worker.run() == [1, False]  # announced, then the attempt failed
        attempt_seconds = time.monotonic() - started
        assert hook.wait_for(1)
        release.set()
    attempt = Attempt.objects.get()
    assert attempt.status_code is None and attempt.error == "timed out"
    assert 1000 <= attempt.duration_ms < 3000 and attempt_seconds < 5
    assert debate_seconds < 30


def test_a_10_mb_answer_is_read_only_up_to_the_cap(local, owner_client, worker):
    local.COUNCIL_WEBHOOK_TIMEOUT_SECONDS = 10
    with receiver(huge(10 * 1024 * 1024)) as hook:
        code, _ = _endpoint(owner_client, hook.url)
        _ping(owner_client, code)
        started = time.monotonic()
        assert worker.run() == [True]
        assert time.monotonic() - started < 5
    attempt = Attempt.objects.get()
    assert attempt.status_code == 200 and attempt.response_head == "x" * 1000


# ------------------------------------------------------------------------ events


def _events(worker: Worker) -> list[str]:
    """Runs the queued announcements only (their deliveries, queued on a commit that
    never comes in the test's transaction, are not sent anywhere)."""
    announced = [args for func, args in worker.queued if func == "webhooks.tasks.announce"]
    worker.queued.clear()
    for args in announced:
        tasks.announce(*args)
    return list(Event.objects.order_by("id").values_list("type", flat=True))


def test_a_cancelled_debate_is_a_debate_finished_event(
        team, owner, owner_client, worker, django_capture_on_commit_callbacks):
    _listening(team)
    debate = debate_create(team=team, user=owner, question="Q?",
                           config=DebateConfig(mode="quick"), start=False)
    with django_capture_on_commit_callbacks(execute=True):
        debate_cancel(debate=debate, user=owner)
    assert [f for f, _ in worker.queued] == ["webhooks.tasks.announce"]
    worker.queued = [q for q in worker.queued if q[1][0] == "debate"]
    announce = worker.queued.pop()
    assert tasks.announce(*announce[1]) == 1
    event = Event.objects.get()
    data = json.loads(event.body)["data"]
    assert event.type == "debate.finished" and data["status"] == "cancelled"
    assert data["decision"] is None and data["quality"] is None
    # The same happening announced again is not a second event.
    assert tasks.announce(*announce[1]) == 0


def test_an_endpoint_gets_only_the_events_it_subscribes_to(
        local, team, owner, owner_client, worker, django_capture_on_commit_callbacks):
    with receiver() as hook:
        _endpoint(owner_client, hook.url, event_types=["decision.recorded"])
        _finished_debate(team, owner, worker, django_capture_on_commit_callbacks)
        assert worker.run() == [0]  # announced, to nobody
    assert hook.requests == [] and not Delivery.objects.exists()
    assert not Event.objects.exists()  # nobody wanted it: nothing kept


def _listening(team) -> Endpoint:
    """An endpoint that wants every event (its deliveries are not run here)."""
    return Endpoint.objects.create(team=team, url="https://93.184.215.14/hook",
                                   secret="whsec_" + "QUJD" * 8)


def test_a_decision_its_review_and_its_outcome_are_events(
        team, owner, worker, django_capture_on_commit_callbacks):
    _listening(team)
    from datetime import date

    from decisions.outcomes import outcome_record
    from decisions.services import decision_record
    from notifications.tasks import send_follow_ups

    debate = _finished_debate(team, owner, worker, django_capture_on_commit_callbacks)
    worker.queued.clear()
    from debates.selectors import debate_options

    option = debate_options(debate)[0]
    with django_capture_on_commit_callbacks(execute=True):
        decision = decision_record(debate=debate, user=owner, option=option,
                                   rationale="Cheaper.", review_on=date.today(),
                                   confirm_quality=True)
        send_follow_ups(date.today().isoformat())
        send_follow_ups(date.today().isoformat())  # a second run: no second event
    assert _events(worker) == ["decision.recorded", "decision.review_due"]
    with django_capture_on_commit_callbacks(execute=True):
        outcome_record(debate=debate, user=owner, right_option=option, result="worked")
    assert _events(worker)[-1] == "outcome.recorded"
    review = json.loads(Event.objects.get(type="decision.review_due").body)["data"]
    assert review["decision"] == str(decision.code) and review["option"] == option
    assert review["review_on"] == date.today().isoformat()


# ------------------------------------------------------------------------ bad input

BAD_URLS = [
    ("ftp://93.184.215.14/hook", "http:// or https://"),
    ("javascript:alert(1)", "http:// or https://"),
    ("http://127.0.0.1:8000/hook", "private, loopback"),
    ("http://10.1.2.3/hook", "private, loopback"),
    ("http://192.168.0.10/hook", "private, loopback"),
    ("http://169.254.169.254/latest/meta-data", "private, loopback"),
    ("http://[::1]/hook", "private, loopback"),
    ("http://[::ffff:127.0.0.1]/hook", "private, loopback"),
    ("http://0.0.0.0/hook", "private, loopback"),
    ("https://93.184.215.14/" + "a" * 2000, "longer than 2,000"),
    ("https://user:pw@93.184.215.14/hook", "user name or password"),
]


@pytest.mark.parametrize(("url", "why"), BAD_URLS)
def test_a_bad_url_is_a_400_naming_the_field(owner_client, url, why):
    response = _create(owner_client, url)
    assert response.status_code == 400, response.content
    body = response.json()
    assert list(body["errors"]) == ["url"] and why in body["errors"]["url"][0]
    assert not Endpoint.objects.exists()


def test_a_changed_url_is_checked_too(owner_client):
    code, _ = _endpoint(owner_client, "https://93.184.215.14/hook")
    response = owner_client.patch(f"/api/webhooks/{code}", {"url": "http://10.0.0.1/"},
                                  content_type="application/json")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["url"]
    assert Endpoint.objects.get().url == "https://93.184.215.14/hook"


def test_a_private_address_is_refused_again_when_sending(local, owner_client, worker):
    with receiver() as hook:
        code, _ = _endpoint(owner_client, hook.url)
        local.COUNCIL_WEBHOOKS_ALLOW_PRIVATE = False
        _ping(owner_client, code)
        assert worker.run() == [False]
    assert hook.requests == []
    assert Attempt.objects.get().error.startswith("refused: ")


def test_unknown_event_types_are_a_400_naming_the_field(owner_client):
    response = _create(owner_client, "https://93.184.215.14/hook", event_types=["debate.won"])
    assert response.status_code == 400 and list(response.json()["errors"]) == ["event_types"]


# ------------------------------------------------------------------------ the page


def test_the_page_creates_an_endpoint_and_shows_its_secret_once(owner_client, team):
    page = f"/teams/{team.code}/webhooks/"
    response = owner_client.post(page, {"url": "https://93.184.215.14/hook",
                                        "event_types": ["debate.finished"]})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    secret = Endpoint.objects.get().secret
    assert secret in response.content.decode()
    again = owner_client.get(page).content.decode()
    assert secret not in again and "https://93.184.215.14/hook" in again
    team_page = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert f"/teams/{team.code}/webhooks/" in team_page


def test_the_page_names_a_refused_url(owner_client, team):
    response = owner_client.post(f"/teams/{team.code}/webhooks/",
                                 {"url": "http://10.0.0.1/", "event_types": ["debate.finished"]})
    assert response.status_code == 400 and "private, loopback" in response.content.decode()
    assert not Endpoint.objects.exists()


def test_a_source_read_or_refused_and_an_evaluation_ended_are_events(
        team, owner, worker, settings, tmp_path, monkeypatch,
        django_capture_on_commit_callbacks):
    from debates.debate_sources import Upload
    from debates.engine import SourceRefused
    from evaluations import runner
    from evaluations.services import EvaluationRequest, evaluation_start
    from sources import services as source_services

    settings.MEDIA_ROOT = tmp_path / "media"
    _listening(team)
    good, bad = source_services.sources_upload(team=team, user=owner, files=[
        Upload("notes.md", b"# Costs\nKafka costs 9."), Upload("more.md", b"# More\n")])
    with django_capture_on_commit_callbacks(execute=True):
        source_services.extract_version(str(good.code))
        monkeypatch.setattr(source_services, "extract_text", lambda data, name: (
            _ for _ in ()).throw(SourceRefused(f"{name}: no text in it")))
        source_services.extract_version(str(bad.code))
    evaluation = evaluation_start(team=team, user=owner, request=EvaluationRequest(
        set_name="compare", n=3, sim_accuracy=0.6))
    with django_capture_on_commit_callbacks(execute=True):
        while runner.run(evaluation.code):
            pass
    assert _events(worker) == ["source.ready", "source.refused", "evaluation.finished"]
    by_type = {e.type: json.loads(e.body)["data"] for e in Event.objects.all()}
    assert by_type["source.ready"]["filename"] == "notes.md"
    assert by_type["source.refused"]["error"] == "more.md: no text in it"
    assert by_type["evaluation.finished"]["status"] == "done"
    assert by_type["evaluation.finished"]["url"].endswith(f"/evaluations/{evaluation.code}/")


def test_the_log_forgets_events_after_30_days_unless_still_being_sent(local, owner_client,
                                                                      worker):
    from datetime import timedelta

    from django.utils import timezone

    from webhooks.services import events_prune

    with receiver(status(500)) as hook:
        code, _ = _endpoint(owner_client, hook.url)
        _ping(owner_client, code)
        _ping(owner_client, code)
        worker.run()
    done, pending = Delivery.objects.order_by("id")  # both failed once, retries left
    Delivery.objects.filter(pk=done.pk).update(status=DeliveryStatus.FAILED)
    Event.objects.update(created_at=timezone.now() - timedelta(days=31))
    assert events_prune() == 1
    assert list(Delivery.objects.all()) == [pending]


def test_the_sender_tries_each_checked_address_in_turn():
    from webhooks.addresses import Target
    from webhooks.sender import post

    with receiver(status(200, b"ok")) as hook:
        port = int(hook.url.rsplit(":", 1)[1].split("/")[0])
        # Nothing listens on 127.0.0.2 at that port: refused, then the next address.
        target = Target("http", "hooks.example", port, "/hook", ("127.0.0.2", "127.0.0.1"))
        answer = post(target, b"{}", {"content-type": "application/json"}, timeout=2,
                      max_bytes=100)
    assert answer.ok and answer.head == "ok"
    assert hook.requests[0][0]["host"] == f"hooks.example:{port}"


def test_the_receiver_in_the_docs_accepts_a_real_delivery_and_refuses_a_forged_one(
        local, owner_client, worker, monkeypatch, capsys):
    """docs/integrations.md's 15-line receiver, run as written but on a free port."""
    import re
    from http.server import HTTPServer
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "integrations.md").read_text()
    snippet = re.search(r"```python\n(.*?)```", docs, re.S).group(1)
    code_lines = [line for line in snippet.splitlines() if line.strip()]
    assert len(code_lines) == 15 and code_lines[-1].startswith("HTTPServer(")
    with receiver() as placeholder:
        code, secret = _endpoint(owner_client, placeholder.url)
    monkeypatch.setenv("COUNCIL_WEBHOOK_SECRET", secret)
    namespace: dict[str, Any] = {}
    exec(snippet.rsplit("HTTPServer(", 1)[0], namespace)  # all but serve_forever
    server = HTTPServer(("127.0.0.1", 0), namespace["Receiver"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        Endpoint.objects.filter(code=code).update(url=f"http://127.0.0.1:{server.server_port}/")
        _ping(owner_client, code)
        assert worker.run() == [True]
        Endpoint.objects.filter(code=code).update(secret="whsec_" + "QUJD" * 8)  # forged
        _ping(owner_client, code)
        assert worker.run() == [False]
    finally:
        server.shutdown()
        server.server_close()
    assert list(Attempt.objects.order_by("id").values_list("status_code", flat=True)) == [
        204, 401]
    assert "webhook.ping" in capsys.readouterr().out
