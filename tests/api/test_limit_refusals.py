"""How the API and the MCP server refuse what the team's limits forbid: over the rate
limit 429 rate_limited with Retry-After (seconds until the oldest counted debate leaves
the hour), a cost cap, budget or unpriced model 400 bad_request; nothing saved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.services import api_token_create
from debates.models import Debate, LLMCall
from tests.factories import make_debate

pytestmark = pytest.mark.django_db

QUESTION = "Should we adopt a four-day week for the support team?"


def bearer(user) -> Client:
    _, secret = api_token_create(user=user, name="test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def limits(team, **values) -> None:
    for key, value in values.items():
        setattr(team, key, value)
    team.save()


def test_over_the_rate_limit_a_start_is_429_with_retry_after(owner, team):
    old = make_debate(team, owner)
    Debate.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(minutes=45))
    limits(team, debates_per_hour=1)
    answer = bearer(owner).post("/api/debates/", {"question": QUESTION, "mode": "quick"},
                                content_type="application/json")
    assert answer.status_code == 429, answer.content
    body = answer.json()
    assert body["code"] == "rate_limited" and body["message"].startswith("Rate limit:")
    # The 45-minute-old debate leaves the window in about 15 minutes.
    assert 14 * 60 < int(answer["Retry-After"]) <= 15 * 60 + 5
    assert body["retry_after"] == int(answer["Retry-After"])  # a script reads either
    assert Debate.objects.count() == 1


def test_over_the_rate_limit_a_rerun_is_429_with_retry_after(owner, team):
    parent = make_debate(team, owner)
    limits(team, debates_per_hour=1)
    answer = bearer(owner).post(f"/api/debates/{parent.code}/rerun", {},
                                content_type="application/json")
    assert answer.status_code == 429, answer.content
    assert answer.json()["code"] == "rate_limited"
    assert int(answer["Retry-After"]) > 0
    assert not Debate.objects.filter(parent=parent).exists()


def test_a_cost_cap_refusal_stays_400_bad_request(owner, team):
    limits(team, debate_cost_cap_usd=0.0)
    answer = bearer(owner).post("/api/debates/", {"question": QUESTION, "mode": "deep",
                                                  "model": "openai/gpt-4o"},
                                content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_request"
    assert answer.json()["message"].startswith("Cost cap:")
    assert not Debate.objects.exists()


def test_an_unpriced_model_under_a_budget_is_400_and_names_the_model(owner, team):
    limits(team, monthly_budget_usd=100.0)
    answer = bearer(owner).post("/api/debates/", {"question": QUESTION, "mode": "quick",
                                                  "model": "openai/no-such-model-anywhere"},
                                content_type="application/json")
    assert answer.status_code == 400
    assert "Unpriced model" in answer.json()["message"]
    assert "openai/no-such-model-anywhere" in answer.json()["message"]
    assert not Debate.objects.exists()


def test_the_openapi_schema_documents_the_429_and_its_header():
    from council_site.api import api

    paths = api.get_openapi_schema()["paths"]
    for path in ("/api/debates/", "/api/debates/{code}/rerun", "/api/debates/{code}/more-round"):
        refusal = paths[path]["post"]["responses"]["429"]
        assert "Retry-After" in refusal["headers"], path


@pytest.mark.parametrize(("team_limits", "problem"), [
    ({"debates_per_hour": 0}, "Rate limit"),
    ({"monthly_budget_usd": 1.0}, "Unpriced model"),
])
def test_the_mcp_start_refusal_names_the_problem(owner, team, team_limits, problem):
    from mcp.server.mcpserver.exceptions import ToolError

    from integrations.mcp_server import Identity, start

    limits(team, **team_limits)
    _, secret = api_token_create(user=owner, name="agent")
    with pytest.raises(ToolError) as refused:
        start(Identity(secret), {"question": QUESTION, "mode": "quick",
                                 "model": "openai/no-such-model-anywhere"}, None)
    assert str(refused.value).startswith(f"Refused: {problem}")
    assert not Debate.objects.exists()


# Every model a debate may call counts (debates.estimates.debate_models), the fallback
# too: a simulated synthesis model that fails would hand its calls to the fallback.
FALLING_BACK = {"question": QUESTION, "mode": "quick", "model": "sim/default",
                "synthesis_model": "sim/down", "fallback_model": "openai/gpt-4o"}


def test_a_paid_fallback_counts_against_the_cost_cap(owner, team):
    limits(team, debate_cost_cap_usd=0.000001)
    answer = bearer(owner).post("/api/debates/", FALLING_BACK,
                                content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["message"].startswith("Cost cap:")
    assert not Debate.objects.exists() and not LLMCall.objects.exists()


def test_a_paid_fallback_counts_against_the_cost_cap_over_mcp(owner, team):
    from mcp.server.mcpserver.exceptions import ToolError

    from integrations.mcp_server import Identity, start

    limits(team, debate_cost_cap_usd=0.000001)
    _, secret = api_token_create(user=owner, name="agent")
    with pytest.raises(ToolError, match="Refused: Cost cap:"):
        start(Identity(secret), FALLING_BACK, None)
    assert not Debate.objects.exists() and not LLMCall.objects.exists()


def test_an_unpriced_fallback_under_a_budget_is_refused_and_named(owner, team):
    limits(team, monthly_budget_usd=100.0)
    answer = bearer(owner).post(
        "/api/debates/", {**FALLING_BACK, "fallback_model": "openai/no-such-model-anywhere"},
        content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert "Unpriced model" in answer.json()["message"]
    assert "openai/no-such-model-anywhere" in answer.json()["message"]
    assert not Debate.objects.exists()


def test_a_simulated_debate_with_a_simulated_fallback_stays_free(owner, team):
    limits(team, debate_cost_cap_usd=0.000001)
    answer = bearer(owner).post("/api/debates/", {**FALLING_BACK, "fallback_model": "sim/default"},
                                content_type="application/json")
    assert answer.status_code == 201, answer.content
