"""Usage figures: debates that used a persona and how often it dissented."""

from __future__ import annotations

import pytest

from debates.engine.schemas import Persona
from personas.selectors import (
    UnknownPersonas,
    library_personas_for_debate,
    persona_usage,
)
from personas.services import (
    PersonaError,
    agents_link_sources,
    library_create,
    persona_create,
    persona_set_archived,
)
from tests.factories import add_synthesis, make_debate


def _persona(library, user, name):
    return persona_create(library=library, user=user, data=Persona(
        name=name, background="b", expertise="e", approach="a", bias="x"))


@pytest.fixture
def trio(team, owner):
    library = library_create(team=team, user=owner, name="L")
    return [_persona(library, owner, n) for n in ("Ana", "Ben", "Cy")]


def _debate_with(team, owner, personas, verdicts=None):
    codes = [p.code for p in personas]
    debate = make_debate(team, owner, personas=library_personas_for_debate(team, codes),
                         agents=len(personas))
    agents_link_sources(debate=debate, persona_codes=codes)
    if verdicts is not None:
        add_synthesis(debate, verdicts)
    return debate


def test_usage_counts_debates_and_dissents(team, owner, trio):
    _debate_with(team, owner, trio, [True, True, False])
    _debate_with(team, owner, trio, [True, False, False])
    _debate_with(team, owner, trio)  # still running: used, not judged
    usage = persona_usage(team=team, personas=trio)
    ana, ben, cy = (usage[p.code] for p in trio)
    assert (ana.debates, ana.dissents, ana.judged) == (3, 0, 2)
    assert (ben.debates, ben.dissents) == (3, 1)
    assert (cy.debates, cy.dissents, cy.dissent_rate) == (3, 2, 1.0)


def test_usage_shows_on_the_library_page(viewer_client, team, owner, trio):
    _debate_with(team, owner, trio, [True, True, False])
    html = viewer_client.get(f"/personas/libraries/{trio[0].library.code}/").content.decode()
    assert ">1 of 1</td>" in html  # Cy dissented in 1 of 1


def test_a_persona_never_used_has_zero_usage(team, trio):
    usage = persona_usage(team=team, personas=trio)[trio[0].code]
    assert (usage.debates, usage.dissents, usage.dissent_rate) == (0, 0, None)


def test_library_personas_for_debate_keeps_the_requested_order(team, trio):
    codes = [trio[2].code, trio[0].code]
    assert [p.name for p in library_personas_for_debate(team, codes)] == ["Cy", "Ana"]


def test_library_personas_for_debate_refuses_other_teams_and_archived(team, trio, other_team,
                                                                     outsider):
    foreign = _persona(library_create(team=other_team, user=outsider, name="X"), outsider, "Zed")
    persona_set_archived(persona=trio[1], archived=True)
    with pytest.raises(UnknownPersonas) as caught:
        library_personas_for_debate(team, [trio[0].code, trio[1].code, foreign.code, "junk"])
    assert caught.value.codes == [str(trio[1].code), str(foreign.code), "junk"]


def test_agents_link_sources_refuses_another_teams_persona(team, owner, trio, other_team,
                                                           outsider):
    foreign = _persona(library_create(team=other_team, user=outsider, name="X"), outsider, "Zed")
    debate = make_debate(team, owner, personas=[p.as_persona() for p in trio], agents=3)
    with pytest.raises(PersonaError):
        agents_link_sources(debate=debate, persona_codes=[foreign.code])


def test_linked_agents_point_at_their_library_persona(team, owner, trio):
    debate = _debate_with(team, owner, trio)
    assert list(debate.agents.values_list("name", "source_persona_id")) == [
        (p.name, p.code) for p in trio]
