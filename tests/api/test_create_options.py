"""POST /api/debates/ takes the CLI's options the web form does not show: personas in
full, a synthesis model, a fallback model and a seed."""

from __future__ import annotations

import re

from debates.models import Debate
from debates.runtime.execution import run_to_completion

DANA = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
        "approach": "Downside first", "bias": "Cautious"}


def _create(client, **extra):
    return client.post("/api/debates/", {"question": "Should we adopt a four-day week?",
                                         "mode": "quick", "model": "sim/default", **extra},
                       content_type="application/json")


def test_cli_options_reach_the_stored_debate(member_client):
    response = _create(member_client, inline_personas=[DANA], synthesis_model="sim/judge",
                       fallback_model="sim/backup", seed=42)
    assert response.status_code == 201, response.content
    debate = Debate.objects.get(code=response.json()["code"])
    assert debate.settings["seed"] == 42
    assert debate.settings["phase_models"] == {"synthesis": "sim/judge", "verify": "sim/judge"}
    assert debate.settings["fallback_model"] == "sim/backup"
    assert [p["name"] for p in debate.given_personas] == ["Dana"]


def test_a_bad_cli_option_is_refused_and_saves_nothing(member_client):
    bad_model = _create(member_client, synthesis_model="nosuchprovider/x")
    assert bad_model.status_code == 400, bad_model.content
    assert bad_model.json()["code"] == "bad_request"
    half_persona = _create(member_client, inline_personas=[{"name": "Dana"}])
    assert half_persona.status_code == 422
    assert any(k.startswith("inline_personas.0") for k in half_persona.json()["errors"])
    assert _create(member_client, seed=-1).status_code == 422
    assert not Debate.objects.exists()


def test_a_long_question_is_refused_with_the_one_limit_the_docs_give(member_client):
    for length in (20_001, 30_000):
        response = member_client.post("/api/debates/", {"question": "x" * length},
                                      content_type="application/json")
        assert response.status_code == 400, response.content
        [problem] = response.json()["errors"]["question"]
        assert f"the question is {length:,} characters long; the limit is 20,000" in problem
    assert not Debate.objects.exists()


def test_a_refused_setting_is_named_in_errors(member_client):
    for extra, field in (({"model": "nosuchprovider/x"}, "model"),
                         ({"synthesis_model": "nosuchprovider/x"}, "synthesis_model"),
                         ({"fallback_model": "nosuchprovider/x"}, "fallback_model"),
                         ({"context": "x" * 20_001}, "context")):
        refused = _create(member_client, **extra)
        assert refused.status_code == 400, (extra, refused.content)
        body = refused.json()
        assert body["errors"] == {field: [body["message"]]}, extra
    assert not Debate.objects.exists()


def test_a_mixed_panel_reaches_the_stored_debate_and_its_page(member_client):
    for given in (["sim/alpha", "sim/beta"], "sim/alpha, sim/beta"):
        response = _create(member_client, panel_models=given)
        assert response.status_code == 201, response.content
        debate = Debate.objects.get(code=response.json()["code"])
        assert debate.settings["panel_models"] == ["sim/alpha", "sim/beta"]
    rerun_form = member_client.get(f"/debates/{debate.code}/rerun")
    assert 'value="sim/alpha, sim/beta"' in rerun_form.content.decode()
    run_to_completion(debate.code)
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "mixed panel <code>sim/alpha</code>, <code>sim/beta</code>" in page
    cards = re.findall(r'<p class="muted small">[^<]*· <code>(sim/\w+)</code></p>', page)
    assert cards[:3] == ["sim/alpha", "sim/beta", "sim/alpha"], cards
    plain = Debate.objects.get(code=_create(member_client).json()["code"])
    assert "panel_models" not in plain.settings  # stored as before when not asked for

def test_a_decision_rule_reaches_the_stored_config_and_is_refused_off_the_council(
        member_client):
    response = _create(member_client, decision_rule="confidence")
    assert response.status_code == 201, response.content
    debate = Debate.objects.get(code=response.json()["code"])
    assert debate.settings["decision_rule"] == "confidence"
    refused = _create(member_client, protocol="adversarial", decision_rule="vote")
    assert refused.status_code == 400, refused.content
    body = refused.json()
    assert list(body["errors"]) == ["decision_rule"] and "takes no vote" in body["message"]
    assert _create(member_client, decision_rule="loudest").status_code == 422
    assert Debate.objects.count() == 1
