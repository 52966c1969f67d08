"""A retried POST with the same Idempotency-Key gets the first answer and creates
nothing twice (docs/api.md, "Retrying safely")."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from accounts.models import IdempotentRequest
from accounts.services import api_token_create
from debates.models import Debate

QUESTION = {"question": "Should we adopt a four-day week?", "mode": "quick",
            "model": "sim/default"}


def _token_client(user) -> Client:
    _, secret = api_token_create(user=user, name="retrying script")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def _post(client: Client, body: dict, key: str | None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post("/api/debates/", body, content_type="application/json", headers=headers)


def test_the_same_key_twice_answers_the_first_answer_and_makes_one_debate(member):
    client = _token_client(member)
    first = _post(client, QUESTION, "retry-1")
    again = _post(client, QUESTION, "retry-1")
    assert first.status_code == again.status_code == 201, again.content
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Debate.objects.count() == 1


def test_without_a_key_or_with_a_new_key_each_post_creates(member):
    client = _token_client(member)
    for key in (None, None, "a", "b"):
        assert _post(client, QUESTION, key).status_code == 201
    assert Debate.objects.count() == 4


def test_the_same_key_with_another_body_is_refused_naming_the_header(member):
    client = _token_client(member)
    assert _post(client, QUESTION, "k").status_code == 201
    other = _post(client, {**QUESTION, "question": "Should we hire?"}, "k")
    assert other.status_code == 422, other.content
    assert "Idempotency-Key" in other.json()["errors"]
    assert Debate.objects.count() == 1


def test_keys_belong_to_their_caller(member, owner):
    assert _post(_token_client(member), QUESTION, "shared").status_code == 201
    assert _post(_token_client(owner), QUESTION, "shared").status_code == 201
    assert Debate.objects.count() == 2


def test_a_signed_in_session_has_keys_of_its_own(member_client):
    first = _post(member_client, QUESTION, "form-1")
    again = _post(member_client, QUESTION, "form-1")
    assert first.status_code == again.status_code == 201
    assert Debate.objects.count() == 1


def test_a_refusal_releases_the_key_so_the_corrected_retry_runs(member):
    client = _token_client(member)
    refused = _post(client, {**QUESTION, "question": "x" * 20_001}, "fix-me")
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()
    assert _post(client, QUESTION, "fix-me").status_code == 201
    assert Debate.objects.count() == 1


def test_a_retry_while_the_first_is_in_flight_is_told_to_wait(member):
    client = _token_client(member)
    first = _post(client, QUESTION, "slow")
    IdempotentRequest.objects.filter(key="slow").update(status=None)  # as if still running
    again = _post(client, QUESTION, "slow")
    assert again.status_code == 409, again.content
    assert again.json()["retry_after"] == 1 and again["Retry-After"] == "1"
    assert first.status_code == 201 and Debate.objects.count() == 1


def test_a_key_older_than_a_day_is_forgotten(member):
    client = _token_client(member)
    assert _post(client, QUESTION, "old").status_code == 201
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert _post(client, QUESTION, "old").status_code == 201
    assert Debate.objects.count() == 2


def test_an_overlong_key_is_refused(member):
    response = _post(_token_client(member), QUESTION, "k" * 256)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["errors"]
    assert not Debate.objects.exists()
