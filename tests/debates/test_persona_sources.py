"""Library personas reach a debate through debates.persona_sources, which the personas
app fills when it is ready: debates imports nothing from personas."""

from __future__ import annotations

import json

import pytest

from debates import persona_sources
from debates.engine.schemas import Persona
from debates.models import Debate
from personas.services import library_create, persona_create

GOOD = {"question": "Should we adopt a four-day week?", "context": "", "protocol": "council",
        "mode": "quick", "model": "sim/default", "agents": "", "max_rounds": "",
        "threshold": ""}


def _library_persona(team, owner, name):
    library = library_create(team=team, user=owner, name=f"{name}'s library")
    return persona_create(library=library, user=owner, data=Persona(
        name=name, background="Twenty years in payments.", expertise="payments",
        approach="Follows the money.", bias="Distrusts vendor promises."))


@pytest.fixture
def no_persona_app():
    registered = persona_sources.persona_source()
    persona_sources.register(None)
    yield
    persona_sources.register(registered)


def test_the_personas_app_registers_itself_as_the_source(team, owner):
    grace = _library_persona(team, owner, "Grace Ledger")
    source = persona_sources.persona_source()
    groups = source.choices(team=team)
    assert ("Grace Ledger's library", [(str(grace.code), "Grace Ledger")]) in groups
    assert [p.name for p in source.resolve(team=team, codes=[grace.code])] == ["Grace Ledger"]
    with pytest.raises(persona_sources.PersonaSourceError, match="junk"):
        source.resolve(team=team, codes=["junk"])


def test_without_a_source_a_team_has_no_library_personas(no_persona_app, member_client, team,
                                                          owner):
    grace = _library_persona(team, owner, "Grace Ledger")
    assert 'name="library_personas"' not in member_client.get("/debates/new").content.decode()
    response = member_client.post("/debates/new", {**GOOD, "library_personas": [str(grace.code)]})
    assert response.status_code == 400 and Debate.objects.count() == 0


def test_the_api_links_agents_to_their_library_personas(member_client, team, owner,
                                                        other_team, outsider):
    grace = _library_persona(team, owner, "Grace Ledger")
    response = member_client.post("/api/debates/", json.dumps({
        "question": "Should we adopt a four-day week?", "mode": "quick",
        "personas": [str(grace.code)]}), content_type="application/json")
    assert response.status_code == 201, response.content
    agent = Debate.objects.get(code=response.json()["code"]).agents.get(index=0)
    assert agent.name == "Grace Ledger" and agent.source_persona_id == grace.code

    theirs = _library_persona(other_team, outsider, "Not Yours")
    response = member_client.post("/api/debates/", json.dumps({
        "question": "Should we adopt a four-day week?", "personas": [str(theirs.code)]}),
        content_type="application/json")
    assert response.status_code == 400 and Debate.objects.count() == 1
