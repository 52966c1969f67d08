"""Limits refuse a debate before anything is saved or queued, with a clear message."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from debates.limits import LimitExceeded, check_can_start
from debates.models import Debate
from tests.factories import make_debate


def _limits(team, **values):
    for key, value in values.items():
        setattr(team, key, value)
    team.save()


def test_no_limits_allow_a_debate(team, owner):
    check_can_start(team=team, user=owner, estimated_cost_usd=123.0)


def test_rate_limit_counts_the_last_hour(team, owner):
    _limits(team, debates_per_hour=2)
    make_debate(team, owner)
    old = make_debate(team, owner)
    Debate.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
    check_can_start(team=team, user=owner, estimated_cost_usd=None)
    make_debate(team, owner)
    with pytest.raises(LimitExceeded, match="2 debates per hour"):
        check_can_start(team=team, user=owner, estimated_cost_usd=None)


def test_cost_cap_refuses_an_estimate_above_it(team, owner):
    _limits(team, debate_cost_cap_usd=0.50)
    check_can_start(team=team, user=owner, estimated_cost_usd=0.50)
    check_can_start(team=team, user=owner, estimated_cost_usd=None)
    with pytest.raises(LimitExceeded, match=r"estimated at \$0.75.*cap of \$0.50"):
        check_can_start(team=team, user=owner, estimated_cost_usd=0.75)


def test_monthly_budget_refuses_once_spent(team, owner):
    _limits(team, monthly_budget_usd=10.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=10.0)
    with pytest.raises(LimitExceeded, match=r"spent \$10.00 of its \$10.00"):
        check_can_start(team=team, user=owner, estimated_cost_usd=None)


def test_monthly_budget_refuses_an_estimate_that_would_exceed_it(team, owner):
    _limits(team, monthly_budget_usd=10.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=9.0)
    check_can_start(team=team, user=owner, estimated_cost_usd=1.0)
    with pytest.raises(LimitExceeded, match=r"only \$1.00"):
        check_can_start(team=team, user=owner, estimated_cost_usd=1.5)


def test_last_months_spend_does_not_count(team, owner):
    _limits(team, monthly_budget_usd=5.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(
        cost_usd=50.0, created_at=timezone.now() - timedelta(days=40))
    check_can_start(team=team, user=owner, estimated_cost_usd=1.0)


def test_another_teams_spend_does_not_count(team, owner, other_team, outsider):
    _limits(team, monthly_budget_usd=5.0)
    debate = make_debate(other_team, outsider)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=50.0)
    check_can_start(team=team, user=owner, estimated_cost_usd=1.0)


def test_owner_sets_limits_on_the_team_page(owner_client, team):
    response = owner_client.post(f"/teams/{team.code}/limits", {
        "monthly_budget_usd": "25", "debate_cost_cap_usd": "", "debates_per_hour": "5"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert (team.monthly_budget_usd, team.debate_cost_cap_usd, team.debates_per_hour) == (
        25.0, None, 5)


def test_negative_limits_are_refused(owner_client, team):
    owner_client.post(f"/teams/{team.code}/limits", {
        "monthly_budget_usd": "-1", "debates_per_hour": "5"})
    team.refresh_from_db()
    assert team.monthly_budget_usd is None and team.debates_per_hour == 30


def test_editor_cannot_change_limits(member_client, team):
    response = member_client.post(f"/teams/{team.code}/limits", {"debates_per_hour": "500"})
    assert response.status_code == 403


# --- queued and running debates reserve their estimate ------------------------------


def _priced_debate(team, owner, *, estimate: float, status: str = "queued",
                   cost: float = 0.0):
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(estimated_cost_usd=estimate, status=status,
                                               cost_usd=cost)
    return debate


@pytest.mark.parametrize("status", ["queued", "running"])
def test_an_active_debate_reserves_its_estimate(team, owner, status):
    _limits(team, monthly_budget_usd=5.0)
    _priced_debate(team, owner, estimate=3.55, status=status)
    with pytest.raises(LimitExceeded, match=r"only \$1.45"):
        check_can_start(team=team, user=owner, estimated_cost_usd=3.55)
    check_can_start(team=team, user=owner, estimated_cost_usd=1.45)


def test_six_debates_at_3_55_against_5_dollars_start_one(team, owner):
    from debates.services import DebateSpec, debate_start, plan_debate

    spec = DebateSpec(question="Should we rewrite the billing service in Rust this year?",
                      mode="deep", model="openai/gpt-4o")
    each = plan_debate(team=team, spec=spec).estimate.cost_usd
    assert each is not None and each > 0
    # A budget one debate fits in and two do not, whatever the model's price today.
    _limits(team, monthly_budget_usd=each * 1.4)
    outcomes = []
    for _ in range(6):
        try:
            debate_start(team=team, user=owner, spec=spec, start=False)
            outcomes.append("started")
        except LimitExceeded:
            outcomes.append("refused")
    assert outcomes == ["started"] + ["refused"] * 5
    assert Debate.objects.filter(team=team).count() == 1


def test_a_finished_debate_counts_its_cost_not_its_estimate(team, owner):
    _limits(team, monthly_budget_usd=5.0)
    _priced_debate(team, owner, estimate=4.0, status="succeeded", cost=0.5)
    check_can_start(team=team, user=owner, estimated_cost_usd=4.5)
    with pytest.raises(LimitExceeded, match=r"only \$4.50"):
        check_can_start(team=team, user=owner, estimated_cost_usd=4.6)


def test_a_running_debate_past_its_estimate_counts_what_it_spent(team, owner):
    # e.g. one more round after it finished: its earlier cost is already in cost_usd.
    _limits(team, monthly_budget_usd=5.0)
    _priced_debate(team, owner, estimate=1.0, status="running", cost=3.0)
    with pytest.raises(LimitExceeded, match=r"only \$2.00"):
        check_can_start(team=team, user=owner, estimated_cost_usd=2.5)


def test_a_debate_without_a_price_reserves_nothing(team, owner):
    _limits(team, monthly_budget_usd=5.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(estimated_cost_usd=None)
    check_can_start(team=team, user=owner, estimated_cost_usd=5.0)


def test_the_team_page_shows_spend_with_reservations(owner_client, team, owner):
    _priced_debate(team, owner, estimate=3.55)
    _priced_debate(team, owner, estimate=9.0, status="cancelled", cost=1.25)
    html = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert "$4.80" in html
