"""Limits refuse a debate before anything is saved or queued, with a clear message."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from debates.limits import LimitExceeded, RateLimited, check_can_spend
from debates.models import Debate
from tests.factories import make_debate


def _limits(team, **values):
    for key, value in values.items():
        setattr(team, key, value)
    team.save()


def test_no_limits_allow_a_debate(team, owner):
    check_can_spend(team=team, user=owner, estimated_cost_usd=123.0)


def test_rate_limit_counts_the_last_hour(team, owner):
    _limits(team, debates_per_hour=2)
    make_debate(team, owner)
    old = make_debate(team, owner)
    Debate.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
    check_can_spend(team=team, user=owner, estimated_cost_usd=None)
    make_debate(team, owner)
    with pytest.raises(LimitExceeded, match="2 debates per hour"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)


def _ago(debate, minutes: float) -> None:
    Debate.objects.filter(pk=debate.pk).update(
        created_at=timezone.now() - timedelta(minutes=minutes))


def test_over_the_rate_limit_retry_after_is_when_the_oldest_counted_debate_leaves(
        team, owner):
    _limits(team, debates_per_hour=2)
    _ago(make_debate(team, owner), 50)  # leaves the window in ~10 minutes
    _ago(make_debate(team, owner), 20)
    with pytest.raises(RateLimited, match="Try again in 10 minutes") as refused:
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)
    assert 9 * 60 < refused.value.retry_after_s <= 10 * 60 + 5


def test_retry_after_waits_for_enough_slots_when_the_limit_was_lowered(team, owner):
    for minutes in (50, 30, 10):
        _ago(make_debate(team, owner), minutes)
    # Three in the window, two allowed: a slot frees once the two oldest have left.
    _limits(team, debates_per_hour=2)
    with pytest.raises(RateLimited) as refused:
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)
    assert 29 * 60 < refused.value.retry_after_s <= 30 * 60 + 5


def test_a_rate_limit_of_zero_says_to_retry_after_an_hour(team, owner):
    _limits(team, debates_per_hour=0)
    with pytest.raises(RateLimited) as refused:
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)
    assert refused.value.retry_after_s == 3600


def test_one_more_round_counts_against_the_rate_limit(team, owner):
    from debates import event_log

    _limits(team, debates_per_hour=3)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(forced_rounds=3)
    event_log.append(debate, "more_round_requested", {"round": 3})
    check_can_spend(team=team, user=owner, estimated_cost_usd=None)  # 2 taken: 1 + 1
    event_log.append(debate, "more_round_requested", {"round": 4})
    with pytest.raises(RateLimited, match="has started 3"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)


def test_cost_cap_refuses_an_estimate_above_it(team, owner):
    _limits(team, debate_cost_cap_usd=0.50)
    check_can_spend(team=team, user=owner, estimated_cost_usd=0.50)
    with pytest.raises(LimitExceeded, match=r"estimated at \$0.75.*cap of \$0.50"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=0.75)


def test_the_cost_cap_counts_what_the_debate_has_cost_already(team, owner):
    _limits(team, debate_cost_cap_usd=1.0)
    check_can_spend(team=team, user=owner, estimated_cost_usd=0.4, debate_cost_usd=0.6)
    with pytest.raises(LimitExceeded, match=r"one more round is estimated at \$0.50, \$1.10 "
                       r"with the \$0.60 this debate has cost so far, above .* \$1.00"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=0.5, debate_cost_usd=0.6,
                        what="one more round")


# --- a model litellm cannot price ----------------------------------------------------


@pytest.mark.parametrize("limit", [{"debate_cost_cap_usd": 5.0}, {"monthly_budget_usd": 5.0}])
def test_an_unpriced_model_is_refused_under_a_cap_or_budget(team, owner, limit):
    _limits(team, **limit)
    with pytest.raises(LimitExceeded, match=r"Unpriced model: .*no price for its model "
                       r"\(openai/custom-x\).*allow unpriced models"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=None,
                        unpriced_models=["openai/custom-x"])


def test_a_team_that_allows_unpriced_models_may_use_them_under_a_cap(team, owner):
    _limits(team, debate_cost_cap_usd=5.0, monthly_budget_usd=50.0,
            allow_unpriced_models=True)
    check_can_spend(team=team, user=owner, estimated_cost_usd=None)


def test_without_a_cap_or_budget_an_unpriced_model_needs_no_permission(team, owner):
    check_can_spend(team=team, user=owner, estimated_cost_usd=None)


def test_a_spent_budget_refuses_even_a_team_that_allows_unpriced_models(team, owner):
    _limits(team, monthly_budget_usd=10.0, allow_unpriced_models=True)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=10.0)
    with pytest.raises(LimitExceeded, match="Monthly budget"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)


def test_starting_on_an_unpriced_model_under_a_cap_saves_nothing_until_allowed(team, owner):
    from debates.services import DebateSpec, debate_start

    spec = DebateSpec(question="Should we self-host our own model for support replies?",
                      mode="quick", model="openai/no-such-model-anywhere")
    _limits(team, debate_cost_cap_usd=5.0)
    with pytest.raises(LimitExceeded, match="openai/no-such-model-anywhere"):
        debate_start(team=team, user=owner, spec=spec, start=False)
    assert not Debate.objects.exists()
    _limits(team, allow_unpriced_models=True)
    debate_start(team=team, user=owner, spec=spec, start=False)
    assert Debate.objects.count() == 1


def test_the_simulated_model_is_free_not_unpriced(team, owner):
    from debates.services import DebateSpec, debate_start

    _limits(team, debate_cost_cap_usd=0.0, monthly_budget_usd=0.01)
    debate = debate_start(team=team, user=owner, start=False, spec=DebateSpec(
        question="Should we keep the simulator as the default model?", model="sim/default"))
    assert debate.estimated_cost_usd == 0.0


def test_monthly_budget_refuses_once_spent(team, owner):
    _limits(team, monthly_budget_usd=10.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=10.0)
    with pytest.raises(LimitExceeded, match=r"spent \$10.00 of its \$10.00"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=None)


def test_monthly_budget_refuses_an_estimate_that_would_exceed_it(team, owner):
    _limits(team, monthly_budget_usd=10.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=9.0)
    check_can_spend(team=team, user=owner, estimated_cost_usd=1.0)
    with pytest.raises(LimitExceeded, match=r"only \$1.00"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=1.5)


def test_last_months_spend_does_not_count(team, owner):
    _limits(team, monthly_budget_usd=5.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(
        cost_usd=50.0, created_at=timezone.now() - timedelta(days=40))
    check_can_spend(team=team, user=owner, estimated_cost_usd=1.0)


def test_another_teams_spend_does_not_count(team, owner, other_team, outsider):
    _limits(team, monthly_budget_usd=5.0)
    debate = make_debate(other_team, outsider)
    Debate.objects.filter(pk=debate.pk).update(cost_usd=50.0)
    check_can_spend(team=team, user=owner, estimated_cost_usd=1.0)


def test_owner_sets_limits_on_the_team_page(owner_client, team):
    response = owner_client.post(f"/teams/{team.code}/limits", {
        "monthly_budget_usd": "25", "debate_cost_cap_usd": "", "debates_per_hour": "5"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert (team.monthly_budget_usd, team.debate_cost_cap_usd, team.debates_per_hour) == (
        25.0, None, 5)
    assert team.allow_unpriced_models is False


def test_owner_allows_unpriced_models_on_the_team_page_which_says_what_it_means(
        owner_client, team):
    html = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert 'name="allow_unpriced_models"' in html
    assert "litellm has no price for" in html and "cannot stop them" in html
    owner_client.post(f"/teams/{team.code}/limits", {
        "monthly_budget_usd": "25", "debates_per_hour": "5", "allow_unpriced_models": "on"})
    team.refresh_from_db()
    assert team.allow_unpriced_models is True
    owner_client.post(f"/teams/{team.code}/limits", {
        "monthly_budget_usd": "25", "debates_per_hour": "5"})
    team.refresh_from_db()
    assert team.allow_unpriced_models is False


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
        check_can_spend(team=team, user=owner, estimated_cost_usd=3.55)
    check_can_spend(team=team, user=owner, estimated_cost_usd=1.45)


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
    check_can_spend(team=team, user=owner, estimated_cost_usd=4.5)
    with pytest.raises(LimitExceeded, match=r"only \$4.50"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=4.6)


def test_a_running_debate_past_its_estimate_counts_what_it_spent(team, owner):
    # e.g. one more round after it finished: its earlier cost is already in cost_usd.
    _limits(team, monthly_budget_usd=5.0)
    _priced_debate(team, owner, estimate=1.0, status="running", cost=3.0)
    with pytest.raises(LimitExceeded, match=r"only \$2.00"):
        check_can_spend(team=team, user=owner, estimated_cost_usd=2.5)


def test_a_debate_without_a_price_reserves_nothing(team, owner):
    _limits(team, monthly_budget_usd=5.0)
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(estimated_cost_usd=None)
    check_can_spend(team=team, user=owner, estimated_cost_usd=5.0)


def test_the_team_page_shows_spend_with_reservations(owner_client, team, owner):
    _priced_debate(team, owner, estimate=3.55)
    _priced_debate(team, owner, estimate=9.0, status="cancelled", cost=1.25)
    html = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert "$4.80" in html
