"""One more round spends like a new debate: the same check (debates.limits.check_can_spend)
refuses it over the rate limit, the cost cap or the monthly budget, on the API and on
the page's button, and a refused round changes and queues nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import api_token_create
from debates.engine.schemas import DebateConfig
from debates.limits import LimitExceeded, RateLimited
from debates.models import Debate, DebateEvent, DebateStatus, Synthesis
from debates.runtime.execution import run_to_completion
from debates.services import DebateSpec, debate_create, debate_more_round, debate_start

pytestmark = pytest.mark.django_db

QUESTION = "Should we adopt a four-day week for the support team?"
PAID = "openai/gpt-4o-mini"


@pytest.fixture
def finished(team, owner, monkeypatch):
    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "0")
    debate = debate_create(team=team, user=owner, question=QUESTION,
                           config=DebateConfig(mode="quick"), start=False)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    return debate


def paid(debate: Debate, *, cost: float = 0.0) -> Debate:
    """The finished simulated debate as if it had run on a paid model (nothing calls
    it: the tests stop before a round would run)."""
    Debate.objects.filter(pk=debate.pk).update(
        settings={**debate.settings, "model": PAID}, cost_usd=cost)
    debate.refresh_from_db()
    return debate


def limits(team, **values) -> None:
    for key, value in values.items():
        setattr(team, key, value)
    team.save()


def snapshot(debate: Debate) -> tuple:
    debate.refresh_from_db()
    return (debate.status, debate.forced_rounds, debate.estimated_cost_usd,
            debate.last_event_seq, Synthesis.objects.filter(debate=debate).exists())


def bearer(user) -> Client:
    _, secret = api_token_create(user=user, name="test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_with_limits_at_zero_the_api_refuses_every_more_round_and_queues_nothing(
        finished, owner, team, django_capture_on_commit_callbacks):
    limits(team, debates_per_hour=0, monthly_budget_usd=0.0, debate_cost_cap_usd=0.0)
    before = snapshot(finished)
    client = bearer(owner)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        answers = [client.post(f"/api/debates/{finished.code}/more-round") for _ in range(5)]
    assert [a.status_code for a in answers] == [429] * 5
    assert {a.json()["code"] for a in answers} == {"rate_limited"}
    assert answers[0]["Retry-After"] == "3600"
    assert queued == []
    assert snapshot(finished) == before


def test_over_the_budget_the_api_refuses_one_more_round_with_400(
        finished, owner, team, django_capture_on_commit_callbacks):
    debate = paid(finished, cost=0.9)
    limits(team, monthly_budget_usd=0.9)
    before = snapshot(debate)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        answer = bearer(owner).post(f"/api/debates/{debate.code}/more-round")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "bad_request"
    assert "Monthly budget" in answer.json()["message"]
    assert queued == [] and snapshot(debate) == before


def test_the_page_button_shows_the_refusal_and_changes_nothing(
        finished, team, member_client, django_capture_on_commit_callbacks):
    limits(team, debates_per_hour=0)
    before = snapshot(finished)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = member_client.post(f"/debates/{finished.code}/more-round",
                                      {"confirm": "yes"}, follow=True)
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert any(m.startswith("Not started: Rate limit") for m in shown), shown
    assert queued == [] and snapshot(finished) == before


def test_the_cost_cap_counts_what_the_debate_cost_plus_the_rounds_estimate(finished, team):
    debate = paid(finished)
    # The estimate of the round alone, at the debate's model, from the refusal's message.
    limits(team, debate_cost_cap_usd=0.0)
    with pytest.raises(LimitExceeded, match=r"Cost cap: one more round is estimated at"):
        debate_more_round(debate=debate)
    from debates.services import more_round_estimate

    extra = more_round_estimate(debate=debate).cost_usd
    assert extra is not None and extra > 0
    # Room for the round alone, but not with what the debate has cost already.
    limits(team, debate_cost_cap_usd=extra * 1.5)
    debate = paid(debate, cost=extra)
    with pytest.raises(LimitExceeded, match="this debate has cost so far"):
        debate_more_round(debate=debate)
    limits(team, debate_cost_cap_usd=extra * 2.5)
    debate_more_round(debate=debate)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.QUEUED
    # While it runs again it reserves its cost so far plus the round's estimate.
    assert debate.estimated_cost_usd == pytest.approx(extra * 2)


def test_one_more_round_estimate_is_a_round_by_the_panel_then_a_synthesis(finished):
    from debates.services import more_round_estimate

    simulated = more_round_estimate(debate=finished)
    agents = finished.agents.count()
    assert simulated.calls == agents + 2
    assert simulated.cost_usd == 0.0 and simulated.price == "simulated"
    priced = more_round_estimate(debate=paid(finished))
    assert priced.price == "known" and priced.cost_usd is not None and priced.cost_usd > 0


def test_an_unpriced_model_is_refused_one_more_round_under_a_cap_until_allowed(finished,
                                                                             team):
    Debate.objects.filter(pk=finished.pk).update(
        settings={**finished.settings, "model": "openai/no-such-model-anywhere"})
    finished.refresh_from_db()
    limits(team, debate_cost_cap_usd=10.0)
    with pytest.raises(LimitExceeded, match=r"Unpriced model: the cost of one more round"):
        debate_more_round(debate=finished)
    limits(team, allow_unpriced_models=True)
    debate_more_round(debate=finished)
    finished.refresh_from_db()
    assert finished.status == DebateStatus.QUEUED and finished.estimated_cost_usd is None


def test_one_more_round_takes_a_slot_of_the_rate_limit(finished, team):
    limits(team, debates_per_hour=2)  # the finished debate took one
    debate_more_round(debate=finished)
    assert DebateEvent.objects.filter(debate=finished, kind="more_round_requested").exists()
    with pytest.raises(RateLimited, match="has started 2"):
        debate_start(team=team, user=None, start=False, spec=DebateSpec(question=QUESTION))
