"""The form, the API, re-runs and the CLI's --save all start debates through
debate_start: the same defaults, the same limits, and a refusal that saves and queues
nothing (form error / API 400 / CLI exit 2)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import Team
from debates.limits import LimitExceeded
from debates.models import Debate, DebateEvent
from debates.services import debate_rerun
from tests.factories import make_debate

QUESTION = "Should we adopt a four-day week?"
FORM = {"question": QUESTION, "context": "", "protocol": "council", "mode": "quick",
        "model": "sim/default", "agents": "", "max_rounds": "", "threshold": ""}


def _api(client, payload):
    return client.post("/api/debates/", json.dumps(payload), content_type="application/json")


def _nothing_more_saved(debates: int) -> None:
    assert Debate.objects.count() == debates
    assert DebateEvent.objects.count() == debates  # one "debate_created" each


def test_the_form_and_the_api_use_the_fallback_model_setting(member_client, settings):
    settings.COUNCIL_FALLBACK_MODEL = "sim/fallback"
    assert member_client.post("/debates/new", FORM).status_code == 302
    assert _api(member_client, {"question": QUESTION, "mode": "quick"}).status_code == 201
    assert [d.settings["fallback_model"] for d in Debate.objects.all()] == ["sim/fallback"] * 2


def test_the_form_shows_a_limit_refusal_and_saves_nothing(
        member_client, team, django_capture_on_commit_callbacks):
    Team.objects.filter(pk=team.pk).update(debates_per_hour=1)
    assert member_client.post("/debates/new", FORM).status_code == 302
    with django_capture_on_commit_callbacks() as queued:
        response = member_client.post("/debates/new", FORM)
    assert queued == []  # no step handed to a worker, no event broadcast
    assert response.status_code == 400
    assert "Rate limit: Acme may start 1 debate per hour" in response.content.decode()
    _nothing_more_saved(1)


def test_the_api_answers_a_limit_refusal_with_400_and_saves_nothing(
        member_client, team, django_capture_on_commit_callbacks):
    Team.objects.filter(pk=team.pk).update(monthly_budget_usd=0.0)
    with django_capture_on_commit_callbacks() as queued:
        response = _api(member_client, {"question": QUESTION, "mode": "quick"})
    assert queued == []
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Monthly budget:")
    _nothing_more_saved(0)


def test_a_refused_rerun_saves_nothing(team, owner, django_capture_on_commit_callbacks):
    parent = make_debate(team, owner)
    Team.objects.filter(pk=team.pk).update(debates_per_hour=1)
    with django_capture_on_commit_callbacks() as queued, \
            pytest.raises(LimitExceeded, match="Rate limit"):
        debate_rerun(debate=parent, user=owner)
    assert queued == []
    _nothing_more_saved(1)


def test_a_rerun_draws_a_new_seed_but_keeps_its_parents_settings(team, owner, settings):
    parent = make_debate(team, owner, fallback_model=None)
    settings.COUNCIL_FALLBACK_MODEL = "sim/fallback"
    child = debate_rerun(debate=parent, user=owner, overrides={"max_rounds": 1})
    assert child.settings["fallback_model"] is None  # the parent's, not today's default
    assert child.settings["max_rounds"] == 1 and child.settings["mode"] == "quick"
    assert child.settings["seed"] != parent.settings["seed"]
    pinned = debate_rerun(debate=parent, user=owner, overrides={"seed": 99})
    assert pinned.settings["seed"] == 99


@pytest.mark.django_db
def test_cli_save_refused_by_a_limit_exits_2_and_saves_nothing():
    team = Team.objects.create(name="Platform", debates_per_hour=0)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("debate", QUESTION, "--mode", "quick", "--save", "--team", team.name,
                     stdout=out, stderr=err)
    assert info.value.returncode == 2
    assert str(info.value).startswith("Rate limit: Platform may start 0 debates per hour")
    assert out.getvalue() == ""
    _nothing_more_saved(0)


@pytest.mark.django_db
def test_cli_save_records_an_estimate_and_its_pinned_seed():
    call_command("debate", QUESTION, "--mode", "quick", "--seed", "11", "--save",
                 stdout=io.StringIO(), stderr=io.StringIO())
    debate = Debate.objects.get()
    assert debate.settings["seed"] == 11 and debate.estimated_cost_usd == 0.0
    assert debate.simulated is True
