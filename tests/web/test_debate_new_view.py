"""The new-debate form (/debates/new): refuses bad input with nothing saved."""

from __future__ import annotations

import pytest

from debates.models import Debate

GOOD = {"question": "Should we adopt a four-day week?", "context": "", "protocol": "council",
        "mode": "quick", "model": "sim/default", "agents": "", "max_rounds": "",
        "threshold": ""}


def test_form_shows_protocols_modes_model_and_an_estimate(member_client):
    html = member_client.get("/debates/new").content.decode()
    assert 'name="question"' in html and 'name="mode"' in html
    assert 'value="sim/default"' in html  # settings.COUNCIL_MODEL
    # Every registered protocol is offered, none as "coming".
    for name in ("council", "adversarial", "workflow"):
        assert f'name="protocol" value="{name}"' in html
    assert "coming" not in html
    assert 'id="estimate"' in html and "calls" in html
    assert 'hx-get="/debates/estimate"' in html


def test_valid_submission_creates_the_debate_and_redirects_to_it(member_client, member, team):
    data = {**GOOD, "agents": "4", "max_rounds": "3", "threshold": "0.2",
            "anonymize_peers": "on", "context": "We are 40 people.",
            "decision_rule": "confidence"}
    response = member_client.post("/debates/new", data)
    debate = Debate.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/debates/{debate.code}/"
    assert debate.team == team and debate.created_by == member
    assert debate.context == "We are 40 people." and debate.mode == "quick"
    s = debate.settings
    assert (s["agents"], s["max_rounds"], s["threshold"], s["anonymize_peers"]) == (
        4, 3, 0.2, True)
    assert s["model"] == "sim/default" and s["decision_rule"] == "confidence"


def test_blank_advanced_settings_take_the_modes_values(member_client):
    member_client.post("/debates/new", {**GOOD, "mode": "deep"})
    s = Debate.objects.get().settings
    assert (s["agents"], s["max_rounds"], s["threshold"]) == (7, 4, 0.08)


@pytest.mark.parametrize(("change", "message"), [
    ({"question": ""}, "This field is required"),
    ({"question": "   \n\t  "}, "the question is empty"),
    ({"question": "x" * 20_001}, "the limit is 20,000"),
    ({"model": "not-a-model"}, "unknown model"),
    ({"model": ""}, "This field is required"),
    ({"agents": "1"}, "greater than or equal to 2"),
    ({"agents": "13"}, "less than or equal to 12"),
    ({"agents": "many"}, "Enter a whole number"),
    ({"max_rounds": "0"}, "greater than or equal to 1"),
    ({"max_rounds": "11"}, "less than or equal to 10"),
    ({"threshold": "1.5"}, "less than or equal to 0.99"),
    ({"mode": "huge"}, "Select a valid choice"),
    ({"context": "y" * 20_001}, "the limit is 20,000"),
    ({"decision_rule": "loudest"}, "Select a valid choice"),
    ({"protocol": "workflow", "decision_rule": "vote"},
     "Decision rule: the workflow protocol&#x27;s panel takes no vote"),
])
def test_bad_input_is_refused_with_a_clear_message_and_nothing_saved(member_client, change,
                                                                     message):
    before = Debate.objects.count()
    response = member_client.post("/debates/new", {**GOOD, **change})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Debate.objects.count() == before


def test_viewer_cannot_open_or_submit_the_form(viewer_client):
    assert viewer_client.get("/debates/new").status_code == 403
    assert viewer_client.post("/debates/new", GOOD).status_code == 403
    assert Debate.objects.count() == 0


def test_anonymous_is_sent_to_login(client, db):
    response = client.get("/debates/new")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def _library_persona(team, owner, name: str):
    from debates.engine.schemas import Persona
    from personas.services import library_create, persona_create

    library = team.persona_libraries.first() or library_create(team=team, user=owner,
                                                                 name="Core panel")
    return persona_create(library=library, user=owner, data=Persona(
        name=name, background="Twenty years in payments.", expertise="payments",
        approach="Follows the money.", bias="Distrusts vendor promises."))


def test_library_personas_are_offered_only_when_the_team_has_some(member_client, team, owner):
    assert 'name="library_personas"' not in member_client.get("/debates/new").content.decode()
    _library_persona(team, owner, "Grace Ledger")
    html = member_client.get("/debates/new").content.decode()
    assert 'name="library_personas"' in html and "Grace Ledger" in html


def test_chosen_library_personas_sit_on_the_panel_first(member_client, team, owner):
    grace = _library_persona(team, owner, "Grace Ledger")
    response = member_client.post("/debates/new", {**GOOD, "library_personas": [str(grace.code)]})
    assert response.status_code == 302
    debate = Debate.objects.get()
    assert [p["name"] for p in debate.given_personas] == ["Grace Ledger"]
    agent = debate.agents.get(index=0)
    assert agent.name == "Grace Ledger" and agent.source_persona_id == grace.code


def test_another_teams_persona_is_refused(member_client, other_team, outsider):
    theirs = _library_persona(other_team, outsider, "Not Yours")
    response = member_client.post("/debates/new", {**GOOD, "library_personas": [str(theirs.code)]})
    assert response.status_code == 400
    assert Debate.objects.count() == 0
